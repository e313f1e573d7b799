"""The command line: listing, a full terminal game against bots, bad input, replay, bench."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

import henge
from henge.agents import heuristics
from henge.cli import main
from henge.terminal.app import parse_choice


def test_games_lists_every_game_with_players_and_variants():
    result = CliRunner().invoke(main, ["games"], terminal_width=200)
    assert result.exit_code == 0
    assert "stonerush" in result.output and "3-5" in result.output and "bluestones" in result.output
    assert "track 10..30 (standard 30)" in result.output and "rounds 3..7 (standard 7)" in result.output


def test_play_and_tournaments_take_the_designer_options(tmp_path):
    """``--option NAME=VALUE`` reaches the game a person plays and the games bots play."""
    record = tmp_path / "game.json"
    result = CliRunner().invoke(
        main,
        ["play", "stonerush", "--seed", "7", "--option", "track=12", "--option", "hand=3", "--record", str(record)],
        input="1\n" * 3000,
        terminal_width=120,
    )
    assert result.exit_code == 0, result.output[-2000:]
    saved = json.loads(record.read_text())
    assert saved["options"] == {"variant": "standard", "track": 12, "hand": 3}
    final = henge.replay(saved)[-1].observation(None)
    assert final["track_end"] == 12 and max(final["druids"].values()) == 12  # the race ends on space 12
    out = tmp_path / "t.json"
    args = ["tournament", "stonerush", "--agents", "heuristic,random", "--games", "2", "--workers", "1"]
    result = CliRunner().invoke(main, [*args, "--option", "track=12", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert json.loads(out.read_text())["config"]["options"] == {"track": 12}


def test_play_a_whole_game_by_numbers_and_text_then_replay_it(tmp_path):
    record = tmp_path / "game.json"
    # The first turn by text (with a typo first), every later choice by number 1.
    answers = ["plya", "?", "99", "1", "1", "done"] + ["1"] * 3000
    result = CliRunner().invoke(
        main,
        ["play", "stonerush", "--players", "3", "--seed", "7", "--record", str(record)],
        input="\n".join(answers) + "\n",
        terminal_width=120,
    )
    assert result.exit_code == 0, result.output
    out = result.output
    assert "not a legal choice" in out  # the typo is answered, not a traceback
    assert "there is no choice 99" in out
    assert "trilithon cards:" in out and "winner:" in out
    assert "Traceback" not in out
    saved = json.loads(record.read_text())
    assert saved["game"] == "stonerush" and saved["seed"] == 7 and saved["agents"][0] == "human"
    assert saved["agents"][1:] == ["beginner", "beginner"]  # without --bots, the lowest level
    shown = CliRunner().invoke(main, ["replay", str(record), "--step", str(len(saved["actions"]))], terminal_width=120)
    assert shown.exit_code == 0, shown.output
    assert "hidden from the others" in shown.output and "winner:" in shown.output
    stepped = CliRunner().invoke(main, ["replay", str(record)], input="\n\nb\n3\nq\n", terminal_width=120)
    assert stepped.exit_code == 0 and "step 3" in stepped.output


@pytest.mark.slow
@pytest.mark.parametrize("game_id", henge.list_games())
def test_every_game_is_playable_in_the_terminal_to_the_end(game_id):
    # Heuristic bots where the game has them: against random bots some games run to thousands of decisions.
    bots = "heuristic" if heuristics.has_heuristic(game_id) else "random"
    result = CliRunner().invoke(
        main, ["play", game_id, "--seed", "11", "--bots", bots], input="1\n" * 20000, terminal_width=120
    )
    assert result.exit_code == 0, result.output[-3000:]
    assert "Traceback" not in result.output
    assert any(verdict in result.output for verdict in ("You win!", "You share the win.", "You lose."))


def test_play_never_shows_other_hands():
    result = CliRunner().invoke(main, ["play", "stonerush", "-n", "3", "--seed", "3"], input="q\n", terminal_width=120)
    assert result.exit_code == 130 and "Game abandoned" in result.output
    assert "hidden from the others" not in result.output


def test_end_of_input_or_interrupt_exits_cleanly():
    result = CliRunner().invoke(main, ["play", "stonerush", "-n", "4", "--seed", "1"], input="")
    assert result.exit_code == 130
    assert "Game abandoned" in result.output
    assert "Traceback" not in result.output


def test_bad_arguments_say_what_is_allowed(tmp_path):
    runner = CliRunner()
    cases = [
        (["play", "chess"], "unknown game 'chess'; games: "),
        (["play", "stonerush", "--players", "7"], "3-5 players"),
        (["play", "stonerush", "--seat", "5"], "seats run 0 to 2"),
        (["play", "stonerush", "--bots", "genius"], "bots: random"),
        (["play", "stonerush", "--variant", "moon"], "takes standard, bluestones, not 'moon'"),
        (["play", "stonerush", "--option", "track=9"], "option track of stonerush takes 10..30, not '9'"),
        (["play", "stonerush", "--option", "moon=1"], "stonerush has no option 'moon'; options: variant"),
        (["play", "stonerush", "--option", "track"], "write an option as NAME=VALUE"),
        (["tournament", "stonerush", "--option", "hand=9"], "option hand of stonerush takes 3..6, not '9'"),
        (["bench", "chess"], "unknown game"),
    ]
    for args, message in cases:
        result = runner.invoke(main, args, terminal_width=200)
        assert result.exit_code == 2, args
        assert message in " ".join(result.output.split()), (args, result.output)
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    result = runner.invoke(main, ["replay", str(bad)])
    assert result.exit_code == 2 and "is not JSON" in result.output
    bad.write_text(json.dumps({"format": "henge-record", "format_version": 1, "game": "stonerush", "players": 9}))
    result = runner.invoke(main, ["replay", str(bad)])
    assert result.exit_code == 2 and "3-5 players" in result.output


def test_parse_choice_by_number_text_and_prefix():
    legal = ["play 1d", "play 13n", "done"]
    assert parse_choice("2", legal) == 1
    assert parse_choice("  PLAY   13N ", legal) == 1
    assert parse_choice("do", legal) == 2
    assert parse_choice("?", legal) == "list"
    assert parse_choice("q", legal) == "quit"
    message = parse_choice("pla", legal)
    assert isinstance(message, str) and "did you mean play 1d, play 13n" in message
    assert "choose 1 to 3" in str(parse_choice("0", legal))


def test_bench_reports_every_figure_as_json():
    result = CliRunner().invoke(main, ["bench", "stonerush", "--seconds", "0.3", "--repeats", "2", "--json"])
    assert result.exit_code == 0, result.output
    (figures,) = json.loads(result.output)
    for key in ("games/s", "decisions/s", "us/legal_actions", "us/apply_action", "us/clone", "ismcts_iterations/s"):
        assert figures[key] > 0
    assert figures["players"] == 4


def test_bench_times_the_research_environment():
    result = CliRunner().invoke(main, ["bench", "fightin", "--environments", "-t", "0.3", "-r", "1", "--json"])
    assert result.exit_code == 0, result.output
    (figures,) = json.loads(result.output)
    assert figures["players"] == 2
    assert figures["pettingzoo steps/cpu-s"] > figures["pettingzoo episodes/cpu-s"] > 0
    assert 0 < figures["us/seat_tensor"] < 10_000
