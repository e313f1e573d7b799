"""Decided matches: the betting confidence sequence, the blocks and their fair share, resuming, the command."""

from __future__ import annotations

import json
import math
import os
import random
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from henge import tournament
from henge.agents import _AGENTS
from henge.agents.random_agent import RandomAgent
from henge.cli import main
from henge.tournament import (
    BettingConfidenceSequence,
    MatchConfig,
    ResumeError,
    TournamentConfig,
    block_observation,
    block_tasks,
    decided_match,
    default_match_path,
    fair_share,
    match_lineups,
    tasks,
)

ALPHA = 0.05
RUNS = 300
# A miss rate measured over RUNS seeded runs; at the level alpha its standard error is about 0.013.
SLACK = 0.025

Draw = Callable[[random.Random], float]


def bernoulli(p: float) -> Draw:
    return lambda rng: float(rng.random() < p)


def beta(a: float, b: float) -> Draw:
    return lambda rng: rng.betavariate(a, b)


def equal_agents_block(rng: random.Random) -> float:
    """A block of Stonerush at 3 players between two equally strong agents: the winner is any seat.

    The focal agent holds 2, 2, 2, 1, 1, 1 seats in the block's six games (as lineups() seats two
    agents), so its mean return per game has mean exactly 1/2, its fair share.
    """
    return sum(float(rng.randrange(3) < seats) for seats in (2, 2, 2, 1, 1, 1)) / 6


def ever_excluded(draw: Draw, mean: float, steps: int, rng: random.Random) -> str | None:
    """Returns which way the confidence sequence ever left ``mean`` behind in ``steps`` observations, if it did."""
    sequence = BettingConfidenceSequence(ALPHA, watch=(mean,), intervals=False)
    for _ in range(steps):
        sequence.update(draw(rng))
        if sequence.verdict(mean) is not None:
            return sequence.verdict(mean)
    return None


def normal_interval_ever_misses(draw: Draw, mean: float, steps: int, rng: random.Random) -> bool:
    """A fixed-sample 95% interval, mean +- 1.96 sd / sqrt(t), looked at after every observation from the 10th."""
    total = squares = 0.0
    for t in range(1, steps + 1):
        x = draw(rng)
        total += x
        squares += x * x
        if t >= 10:
            average = total / t
            sd = math.sqrt(max(squares / t - average * average, 0.0) * t / (t - 1))
            if abs(average - mean) > 1.96 * sd / math.sqrt(t):
                return True
    return False


# --- the confidence sequence ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "draw", "mean"),
    [
        ("bernoulli 0.5", bernoulli(0.5), 0.5),
        ("bernoulli 0.25", bernoulli(0.25), 0.25),
        ("bernoulli 0.05", bernoulli(0.05), 0.05),
        ("beta 2, 5", beta(2, 5), 2 / 7),
    ],
)
def test_the_sequence_holds_the_true_mean_at_every_time_where_a_fixed_sample_interval_does_not(name, draw, mean):
    rng = random.Random(f"coverage/{name}")
    misses = sum(ever_excluded(draw, mean, 200, rng) is not None for _ in range(RUNS))
    assert misses / RUNS <= ALPHA + SLACK, (name, misses)
    # The same test fails a fixed-sample interval checked after every observation (as a bootstrap
    # interval would be, looked at block by block): it leaves the true mean behind in a third or more.
    naive = sum(normal_interval_ever_misses(draw, mean, 200, rng) for _ in range(RUNS))
    assert naive / RUNS > 0.25, (name, naive)


def test_the_interval_is_the_set_of_means_not_yet_rejected():
    rng = random.Random(3)
    points = [i / 20 for i in range(21)]
    for _ in range(10):
        p = rng.random()
        sequence = BettingConfidenceSequence(ALPHA, watch=points)
        for _ in range(60):
            sequence.update(float(rng.random() < p))
            low, high = sequence.interval
            assert 0.0 <= low <= high <= 1.0
            for m in points:
                verdict = sequence.verdict(m)
                inside = low + 1e-9 < m < high - 1e-9
                outside = m < low - 1e-9 or m > high + 1e-9
                assert not (inside and verdict is not None) and not (outside and verdict is None), (m, low, high)
                assert verdict != "above" or m <= low + 1e-9
                assert verdict != "below" or m >= high - 1e-9
        assert sequence.count == 60 and sequence.mean == pytest.approx(sequence.mean)


def test_the_sequence_decides_quickly_when_the_mean_is_far_from_the_fair_share():
    rng = random.Random(4)
    for draw, fair, way, within in [
        (bernoulli(1.0), 0.5, "above", 10),  # an agent that wins every game: 10 blocks
        (bernoulli(0.9), 0.5, "above", 30),
        (beta(2, 8), 0.5, "below", 25),
        (bernoulli(0.0), 0.25, "below", 24),  # one that never wins, with a quarter of the seats: 24
        (bernoulli(0.8), 0.25, "above", 30),
    ]:
        for _ in range(50):
            sequence = BettingConfidenceSequence(ALPHA, watch=(fair,), intervals=False)
            while sequence.verdict(fair) is None and sequence.count < within:
                sequence.update(draw(rng))
            assert sequence.verdict(fair) == way, (fair, way, sequence.count)


def test_equal_agents_are_seldom_called_better_or_worse_than_their_fair_share():
    rng = random.Random(5)
    decided = [ever_excluded(equal_agents_block, 0.5, 300, rng) for _ in range(RUNS)]
    assert sum(d is not None for d in decided) / RUNS <= ALPHA + SLACK
    naive = sum(normal_interval_ever_misses(equal_agents_block, 0.5, 300, rng) for _ in range(RUNS))
    assert naive / RUNS > 0.25


def test_the_sequence_refuses_what_lies_outside_its_range():
    with pytest.raises(ValueError, match="observations must lie in"):
        BettingConfidenceSequence().update(1.5)
    with pytest.raises(ValueError, match="alpha"):
        BettingConfidenceSequence(0.0)
    with pytest.raises(ValueError, match="truncation"):
        BettingConfidenceSequence(truncation=1.0)


# --- blocks and the fair share -------------------------------------------------------------


def test_the_fair_share_counts_the_focal_agents_seats():
    for agents, players, focal_seats, count, fair in [
        (("a", "b"), 3, None, 6, 1 / 2),
        (("a", "b"), 4, None, 6, 1 / 2),
        (("a", "b", "c"), 3, None, 6, 1 / 3),
        (("a", "b", "c", "d"), 4, None, 24, 1 / 4),
        (("a", "b"), 4, 1, 4, 1 / 4),
        (("a", "b"), 5, 4, 5, 4 / 5),
        (("a", "b", "c"), 5, 2, 60, 2 / 5),
    ]:
        config = MatchConfig("stonerush", players, agents[0], agents[1:], focal_seats=focal_seats)
        table = match_lineups(config)
        assert len(table) == len(set(table)) == count, (agents, players, focal_seats)
        assert fair_share("a", table, players) == pytest.approx(fair), (agents, players, focal_seats)
        if focal_seats is not None:
            assert {lineup.count("a") for lineup in table} == {focal_seats}
            for seat in range(players):  # every seat is the focal agent's equally often
                assert sum(lineup[seat] == "a" for lineup in table) == count * focal_seats // players


def test_a_blocks_observation_is_the_focal_agents_return_per_game():
    games = [
        {"lineup": ["a", "a", "b"], "returns": [0.0, 1.0, 0.0]},
        {"lineup": ["a", "b", "b"], "returns": [0.5, 0.5, 0.0]},
        {"lineup": ["b", "a", "a"], "returns": [1.0, 0.0, 0.0]},
    ]
    assert block_observation("a", games) == pytest.approx(0.5)
    assert block_observation("b", games) == pytest.approx(0.5)


def test_blocks_are_the_rotations_of_a_tournament_with_the_same_seed():
    config = MatchConfig("stonerush", 3, "heuristic", ("random",), seed=9)
    same = tasks(TournamentConfig("stonerush", 3, ("heuristic", "random"), games=12, seed=9))
    assert block_tasks(config, 0) + block_tasks(config, 1) == same


def test_the_default_results_file_names_the_match():
    config = MatchConfig("stonerush", 4, "ismcts:iterations=50", ("heuristic",), focal_seats=1, seed=3)
    assert default_match_path(config) == Path(
        "results/decided/stonerush_4p_ismcts-iterations-50x1_vs_heuristic_seed3.json"
    )


# --- matches ---------------------------------------------------------------------------------


def games_of(data):
    """Everything a match decides on, without the timings."""
    keep = ("index", "seed", "lineup", "returns", "length", "decisions")
    return [
        [block["block"], block["seed"], block["observation"], [{k: g[k] for k in keep} for g in block["games"]]]
        for block in data["blocks"]
    ]


def test_heuristic_is_decided_above_random_in_stonerush_in_a_few_blocks(tmp_path):
    out = tmp_path / "match.json"
    seen = []
    result = decided_match("stonerush", 3, "heuristic", "random", seed=1, workers=2, out=out, on_block=seen.append)
    assert result.decision == "above" and result.fair_share == 0.5
    assert result.low > 0.5 and result.high == 1.0 and result.blocks <= 12 and result.games == 6 * result.blocks
    assert [r.decision for r in seen] == ["running"] * (result.blocks - 1) + ["above"]
    assert result.cpu_seconds > 0 and "decided: heuristic is above its fair share 0.500" in result.line()
    data = json.loads(out.read_text())
    assert data["format"] == "henge-decided-match" and data["status"]["decision"] == "above"
    assert data["status"]["interval"] == [result.low, result.high] and len(data["blocks"]) == result.blocks
    assert {a["agent"] for a in data["agents"]} == {"heuristic", "random"}
    assert all(len(block["games"]) == 6 and block["observation"] == 1.0 for block in data["blocks"])
    # Two random seats against one heuristic: a fair share of 2/3 per game, and they lose every game.
    against = decided_match("stonerush", 3, "random", "heuristic", focal_seats=2, seed=1, cap_blocks=30)
    assert against.decision == "below" and against.fair_share == pytest.approx(2 / 3) and against.high < 2 / 3
    assert against.games == 3 * against.blocks and against.blocks <= 8


def test_a_match_at_its_cap_is_undecided():
    result = decided_match("stonerush", 3, "heuristic", "random", focal_seats=1, seed=1, cap_blocks=3)
    assert result.decision == "undecided" and result.blocks == 3 and result.low < 1 / 3 < result.high
    assert "undecided at the cap of 3 blocks" in result.line()


def one_against_two(**settings):
    """Heuristic in one seat of three against random in two: three games a block, a fair share of 1/3."""
    return decided_match("stonerush", 3, "heuristic", "random", focal_seats=1, seed=2, **settings)


def test_a_stopped_match_resumes_where_it_stood_and_ends_as_an_uninterrupted_one(tmp_path):
    whole = one_against_two(out=tmp_path / "whole.json")
    assert whole.decision == "above" and whole.blocks > 3
    out = tmp_path / "stopped.json"

    def stop_after_three(result):
        assert json.loads(out.read_text())["status"]["blocks"] == result.blocks  # written after every block
        if result.blocks == 3:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        one_against_two(out=out, on_block=stop_after_three)
    assert json.loads(out.read_text())["status"]["decision"] == "running"
    played = []
    resumed = one_against_two(out=out, resume=True, workers=2, on_game=played.append)
    assert sorted(g["index"] for g in played) == list(range(9, 3 * whole.blocks))  # only what was missing
    assert (resumed.decision, resumed.interval, resumed.blocks, resumed.games) == (
        whole.decision,
        whole.interval,
        whole.blocks,
        whole.games,
    )
    assert games_of(json.loads(out.read_text())) == games_of(whole.data)
    again = one_against_two(out=out, resume=True, on_game=played.append)
    assert again.interval == whole.interval and len(played) == 3 * (whole.blocks - 3)  # finished: nothing played


def test_an_undecided_match_goes_on_when_its_cap_is_raised(tmp_path):
    out = tmp_path / "match.json"
    assert one_against_two(cap_blocks=2, out=out).decision == "undecided"
    raised = one_against_two(cap_blocks=20, out=out, resume=True)
    whole = one_against_two(cap_blocks=20)
    assert raised.decision == "above"
    assert (raised.decision, raised.interval, raised.blocks) == (whole.decision, whole.interval, whole.blocks)
    with pytest.raises(ResumeError, match="more than the cap of 2"):
        one_against_two(cap_blocks=2, out=out, resume=True)


def test_resuming_refuses_another_match_and_a_file_is_never_overwritten(tmp_path):
    out = tmp_path / "match.json"
    one_against_two(cap_blocks=2, out=out)
    before = out.read_text()
    with pytest.raises(ResumeError, match="already exists"):
        one_against_two(cap_blocks=2, out=out)
    for change, words in [
        ({"seed": 3}, "seed 2 there, 3 here"),
        ({"players": 4}, "players 3 there, 4 here"),
        ({"alpha": 0.01}, "alpha 0.05 there, 0.01 here"),
        ({"opponents": ("heuristic",), "focal": "random"}, "focal 'heuristic' there, 'random' here"),
        ({"focal_seats": 2}, "focal_seats 1 there, 2 here"),
    ]:
        settings = {"players": 3, "focal": "heuristic", "opponents": ("random",), "focal_seats": 1, "seed": 2} | change
        config = MatchConfig("stonerush", settings.pop("players"), settings.pop("focal"), **settings, cap_blocks=5)
        with pytest.raises(ResumeError, match="it holds a different match") as refused:
            tournament.run_match(config, out=out, resume=True)
        assert words in str(refused.value)
    assert out.read_text() == before
    data = json.loads(before)
    data["blocks"][1]["games"][0]["returns"] = [0.0, 0.0, 1.0]  # not what was played
    out.write_text(json.dumps(data))
    with pytest.raises(ResumeError, match="its block 1 is not this match's"):
        one_against_two(cap_blocks=5, out=out, resume=True)
    out.write_text(json.dumps({"format": "henge-tournament"}))
    with pytest.raises(ResumeError, match="not a decided match"):
        one_against_two(cap_blocks=5, out=out, resume=True)
    assert one_against_two(cap_blocks=1, out=tmp_path / "new.json", resume=True).blocks == 1  # a new match


def test_a_failed_write_leaves_the_last_complete_file(tmp_path, monkeypatch):
    out = tmp_path / "match.json"
    replace = os.replace
    writes = []

    def failing_second(source, target):
        writes.append(target)
        if len(writes) == 2:
            raise OSError("disk full")
        replace(source, target)

    monkeypatch.setattr(os, "replace", failing_second)
    with pytest.raises(OSError, match="disk full"):
        one_against_two(cap_blocks=5, out=out)
    assert json.loads(out.read_text())["status"]["blocks"] == 1
    assert [p.name for p in tmp_path.iterdir()] == ["match.json"]  # no half-written file left behind


def test_a_match_needs_returns_in_zero_one_and_distinct_agents():
    with pytest.raises(ValueError, match="name each agent once"):
        decided_match("stonerush", 3, "random", "random")
    with pytest.raises(ValueError, match="holds 1 to 2 seats"):
        decided_match("stonerush", 3, "heuristic", "random", focal_seats=3)
    with pytest.raises(ResumeError, match="needs its results file"):
        decided_match("stonerush", 3, "heuristic", "random", resume=True)


# --- the command -----------------------------------------------------------------------------


def test_tournament_until_decided_prints_the_decision_and_resumes(tmp_path):
    out = tmp_path / "match.json"
    args = ["tournament", "stonerush", "-n", "3", "--agents", "heuristic,random", "--until-decided", "--workers", "1"]
    args += ["--focal-seats", "1"]  # three games a block
    first = CliRunner().invoke(main, [*args, "--seed", "1", "--out", str(out)], terminal_width=200)
    assert first.exit_code == 0, first.output
    line = next(x for x in first.output.splitlines() if x.startswith("stonerush, 3 players"))
    assert "decided: heuristic is above its fair share 0.333; 95% confidence sequence" in line
    assert "blocks" in line and "games" in line and "processor seconds" in line
    assert json.loads(out.read_text())["status"]["decision"] == "above"
    again = CliRunner().invoke(main, [*args, "--seed", "1", "--out", str(out)], terminal_width=200)
    assert again.exit_code == 2 and "add --resume" in again.output
    resumed = CliRunner().invoke(main, [*args, "--seed", "1", "--out", str(out), "--resume"], terminal_width=200)
    assert resumed.exit_code == 0 and line in resumed.output
    other = CliRunner().invoke(main, [*args, "--seed", "4", "--out", str(out), "--resume"], terminal_width=200)
    assert other.exit_code == 2 and "different match (seed 1 there, 4 here)" in other.output
    capped = CliRunner().invoke(main, [*args, "--cap-blocks", "2", "--out", str(tmp_path / "c.json")])
    assert capped.exit_code == 0 and "undecided at the cap of 2 blocks" in capped.output
    alone = CliRunner().invoke(main, ["tournament", "stonerush", "--cap-blocks", "3"])
    assert alone.exit_code == 2 and "--cap-blocks goes only with --until-decided" in alone.output
    games = CliRunner().invoke(main, [*args, "--games", "6"])
    assert games.exit_code == 2 and "--games does not go with --until-decided" in games.output
    single = CliRunner().invoke(main, [*args[:5], "heuristic", "--until-decided"])
    assert single.exit_code == 2 and "name two or more" in single.output
    seats = CliRunner().invoke(main, ["tournament", "stonerush", "--focal-seats", "1"])
    assert seats.exit_code == 2 and "--focal-seats goes only with --until-decided" in seats.output


# --- a margin: no worse than the others by more than it ---------------------------------------------


@pytest.fixture
def random_too(monkeypatch):
    """A second name for the random bot: a match between two equal agents."""
    monkeypatch.setitem(_AGENTS, "random-too", RandomAgent)


def test_a_margin_decides_equal_agents_against_the_fair_share_less_it(tmp_path, random_too):
    # Random against random: its mean is its fair share, 1/3, which no sequence can put above or below
    # itself, but the fair share less 0.25 lies far enough below it to be passed in a few blocks.
    out = tmp_path / "m.json"
    result = decided_match("stonerush", 3, "random", "random-too", focal_seats=1, margin=0.25, seed=1, out=out)
    assert result.decision == "above" and result.bar == pytest.approx(1 / 3 - 0.25) and result.bar < result.low
    assert result.fair_share == pytest.approx(1 / 3) and result.blocks < 20
    assert "decided: random is above its fair share less 0.25, 0.083" in result.line()
    assert json.loads(out.read_text())["status"]["bar"] == result.bar
    plain = decided_match("stonerush", 3, "random", "random-too", focal_seats=1, seed=1, cap_blocks=result.blocks)
    assert plain.decision == "undecided" and plain.low < 1 / 3 < plain.high


def test_a_margin_lies_from_zero_up_to_the_fair_share():
    for margin in (-0.01, 1 / 3, 0.5):
        with pytest.raises(ValueError, match=r"the margin must lie from 0 up to the fair share 0\.333"):
            MatchConfig("stonerush", 3, "heuristic", ("random",), focal_seats=1, margin=margin).validate()
    config = MatchConfig("stonerush", 3, "heuristic", ("random",), focal_seats=1, seed=3, margin=0.05)
    assert default_match_path(config).name == "stonerush_3p_heuristicx1_vs_random_margin0.05_seed3.json"


def test_a_file_from_before_margins_resumes_as_a_match_without_one(tmp_path):
    out = tmp_path / "old.json"
    one_against_two(out=out, cap_blocks=1)
    data = json.loads(out.read_text())
    del data["config"]["margin"], data["status"]["bar"]
    out.write_text(json.dumps(data))
    resumed = one_against_two(out=out, resume=True, cap_blocks=2)
    assert resumed.blocks == 2
    with pytest.raises(ResumeError, match="different match"):
        one_against_two(out=out, resume=True, cap_blocks=3, margin=0.1)


def test_tournament_until_decided_takes_a_margin(tmp_path, random_too):
    args = ["tournament", "stonerush", "-n", "3", "--agents", "random,random-too", "--until-decided"]
    args += [
        "--focal-seats",
        "1",
        "--workers",
        "1",
        "--seed",
        "1",
        "--margin",
        "0.25",
        "--out",
        str(tmp_path / "m.json"),
    ]
    run = CliRunner().invoke(main, args, terminal_width=200)
    assert run.exit_code == 0, run.output
    assert "decided: random is above its fair share less 0.25, 0.083" in run.output
    wrong = CliRunner().invoke(main, [*args[:-2], "--margin", "0.4", "--out", str(tmp_path / "w.json")])
    assert wrong.exit_code == 2 and "the margin must lie from 0 up to the fair share 0.333, not 0.4" in wrong.output
    alone = CliRunner().invoke(main, ["tournament", "stonerush", "--margin", "0.05"])
    assert alone.exit_code == 2 and "--margin goes only with --until-decided" in alone.output
