"""Designer options: the rule-variant knobs a designer sweeps (``Option`` with
``recorded_at_default=False``), one or two per game.

Each knob's range is its values tuple, its default the standard game's number, and at that default
it changes nothing: the same actions, records and state JSON as before it existed (the golden
playthroughs check that too). Every other value plays by the rules (the conformance suite runs each
one), loads from JSON without its history (G7), encodes to tensors of the declared size, and the
rule-based players, the previews and the drawings read it from what they are given.
"""

from __future__ import annotations

import io
import json
import math
import random
import re
from pathlib import Path
from typing import Any

import pytest
from conftest import config_id, knob_configs
from positions import random_game
from rich.console import Console

import henge
from henge import box
from henge.agents import make_agent
from henge.core import Option, StateFormatError, make_decision, plugin
from henge.terminal import decision_text, renderer

DOCS = Path(__file__).resolve().parents[1] / "docs" / "games"
KNOBS: dict[tuple[str, str], tuple[tuple[int, ...], int]] = {
    ("stonerush", "track"): (tuple(range(10, 31)), 30),
    ("stonerush", "hand"): ((3, 4, 5, 6), 4),
    ("spell_casting", "components"): ((2, 3, 4, 5), 4),
    ("first_druid", "hand_limit"): (tuple(range(5, 11)), 10),
    ("fightin", "rounds"): ((3, 4, 5, 6, 7), 7),
    ("druid_olympics", "horseshoe_sum"): (tuple(range(5, 21)), 10),
}
"""Each designer option: its values (the validated range) and its default (the text's number)."""
KNOB_IDS = [f"{g}-{n}" for g, n in KNOBS]


def _option(game_id: str, name: str) -> Option:
    return next(o for o in henge.game_class(game_id).info.options if o.name == name)


def _fewest(game_id: str) -> int:
    return henge.game_class(game_id).info.min_players


def _text(drawing: Any) -> str:
    console = Console(record=True, width=140, file=io.StringIO(), color_system=None)
    console.print(drawing)
    return console.export_text()


# --- the declarations ---------------------------------------------------------------------------


def test_every_game_declares_its_designer_options_with_the_texts_number_as_default():
    found = {}
    for game_id in henge.list_games():
        for option in henge.game_class(game_id).info.options:
            if not option.recorded_at_default:
                found[game_id, option.name] = (option.values, option.default)
                assert option.doc, f"{game_id} option {option.name} needs a doc line"
    assert found == KNOBS


@pytest.mark.parametrize(("game_id", "name"), list(KNOBS), ids=KNOB_IDS)
def test_the_docs_page_names_each_designer_option_its_range_and_default(game_id, name):
    page = (DOCS / f"{game_id}.md").read_text()
    assert "## Designer options" in page, f"docs/games/{game_id}.md has no 'Designer options' section"
    section = page.split("## Designer options", 1)[1].split("\n## ", 1)[0]
    option = _option(game_id, name)
    row = next((line for line in section.splitlines() if line.startswith(f"| `{name}` |")), None)
    assert row is not None, f"the section has no table row for `{name}`"
    assert f"{option.range_text()}" in row and f"| {option.default} |" in row


@pytest.mark.parametrize(("game_id", "name"), list(KNOBS), ids=KNOB_IDS)
def test_at_its_default_a_designer_option_leaves_records_and_state_json_as_they_were(game_id, name):
    option = _option(game_id, name)
    players = _fewest(game_id)
    plain = henge.load(game_id, players)
    named = henge.load(game_id, players, **{name: option.default})
    assert name not in plain.options and name not in named.options
    assert plain.settings[name] == named.settings[name] == option.default
    assert plain.options == named.options
    assert repr(named) == repr(plain)
    first = henge.play(plain, ["random"] * players, seed=5)
    assert henge.play(named, ["random"] * players, seed=5) == first
    assert name not in first["options"]
    assert name not in named.new_initial_state().to_json()["options"]


@pytest.mark.parametrize(("game_id", "name"), list(KNOBS), ids=KNOB_IDS)
def test_values_outside_the_range_or_of_another_type_are_refused_naming_the_range(game_id, name):
    option = _option(game_id, name)
    low, high = option.values[0], option.values[-1]
    wanted = f"option {name} must be one of {low}..{high}, not "
    for bad in (low - 1, high + 1, str(option.default), float(option.default), True, None):
        with pytest.raises(ValueError, match=re.escape(wanted)):
            henge.load(game_id, _fewest(game_id), **{name: bad})


def test_a_variant_and_a_knob_that_say_the_same_thing_twice_are_refused():
    with pytest.raises(ValueError, match="bluestones variant always races on the 19 bluestones"):
        henge.load("stonerush", 3, variant="bluestones", track=20)
    assert (
        henge.load("stonerush", 3, variant="bluestones", track=30).new_initial_state().observation(0)["track_end"] == 19
    )
    with pytest.raises(ValueError, match="short variant casts the spell with 3 components"):
        henge.load("spell_casting", 3, variant="short", components=5)
    assert henge.load("spell_casting", 3, variant="short").new_initial_state().observation(0)["target"] == 3
    assert henge.load("spell_casting", 3, components=5).new_initial_state().observation(0)["target"] == 5


@pytest.mark.parametrize(("game_id", "name"), list(KNOBS), ids=KNOB_IDS)
def test_a_record_made_with_a_designer_option_names_it_and_replays(game_id, name):
    option = _option(game_id, name)
    value = option.values[0]
    players = _fewest(game_id)
    game = henge.load(game_id, players, **{name: value})
    record = json.loads(json.dumps(henge.play(game, ["random"] * players, seed=2)))
    assert record["options"][name] == value
    states = henge.replay(record)
    assert states[-1].game.settings[name] == value
    assert states[-1].returns() == record["returns"]
    data = states[len(states) // 2].to_json()
    assert data["options"][name] == value
    assert game.state_from_json(data).to_json() == data
    with pytest.raises(StateFormatError, match="options"):
        henge.load(game_id, players).state_from_json(data)


# --- G7, tensors and the rule-based players with every value -----------------------------------


@pytest.mark.parametrize("config", knob_configs(), ids=config_id)
def test_G7_positions_load_without_their_history_and_encode_and_the_bot_plays_them(config):
    """Every value: positions spread over a random game load from JSON without their history (only the
    invariants check them, G7); their tensors have the size the encoder declares for the options; the
    rule-based player picks a legal action and its evaluation gives every seat a finite chance."""
    game_id, players, options = config
    game = henge.load(game_id, players, **options)
    states = random_game(game, random.Random(1))
    encoder = plugin(game_id).load_encoder()
    search = plugin(game_id).load_search() or plugin(game_id).load_bot()
    heuristic = make_agent("heuristic")
    sizes = (
        encoder.observation_shape(players, game.options)[0],
        encoder.information_state_shape(players, game.options)[0],
    )
    assert sizes == (encoder.observation_shape(players, {})[0], encoder.information_state_shape(players, {})[0])
    rng = random.Random(0)
    stride = max(1, len(states) // 12)
    decided = 0
    for state in [*states[::stride], states[-1]]:
        data = json.loads(json.dumps(state.to_json()))
        data["history"] = []
        assert game.state_from_json(data).to_json()["state"] == data["state"]
        for seat in range(players):
            observation = state.observation(seat)
            seen = encoder.observation_tensor(observation)
            known = encoder.information_state_tensor(observation)
            assert (len(seen), len(known)) == sizes
            assert all(math.isfinite(v) for v in known) and known[: len(seen)] == seen
        seat = state.current_player()
        if seat >= 0:
            chances = search.evaluate(state)
            assert len(chances) == players and all(math.isfinite(c) for c in chances)
            decision = make_decision(state, seat, rng, samples=False)
            assert heuristic.choose(decision) in decision.legal_actions
            decided += 1
    assert decided >= 3


@pytest.mark.parametrize(
    "config",
    [
        ("stonerush", 5, {"track": 10, "hand": 6}),
        ("fightin", 2, {"rounds": 3}),
        ("spell_casting", 4, {"components": 2}),
        ("druid_olympics", 3, {"horseshoe_sum": 20}),
    ],
    ids=config_id,
)
def test_rule_based_players_finish_games_with_designer_options(config):
    game_id, players, options = config
    game = henge.load(game_id, players, **options)
    record = henge.play(game, ["heuristic"] * players, seed=3)
    final = henge.replay(record)[-1]
    assert final.is_terminal() and "round cap" not in (final.observation(None).get("result") or "")


# --- what each knob changes ------------------------------------------------------------------------


def test_S7_a_shorter_track_ends_the_race_on_its_last_space_and_the_drawings_show_it():
    game = henge.load("stonerush", 3, track=10)
    states = random_game(game, random.Random(4))
    for state in states:
        assert all(1 <= space <= 10 for space in state.observation(None)["druids"].values())
    final = states[-1].observation(None)
    assert final["track_end"] == 10 and 10 in final["druids"].values()
    for end, state in ((10, states[len(states) // 2]), (30, henge.load("stonerush", 5).new_initial_state())):
        text = _text(renderer("stonerush")(state.observation(0)))
        track = next(line for line in text.splitlines() if line.lstrip().startswith("white"))
        assert track.count("●") + track.count("─") == end


def test_S6_the_hand_option_deals_and_draws_back_to_its_size():
    game = henge.load("stonerush", 3, hand=6)
    states = random_game(game, random.Random(6))
    turns = [s.observation(None) for s in states if s.observation(None)["phase"] == "play"]
    assert all(obs["hand_sizes"][obs["current_player"]] + len(obs["in_play"]) == 6 for obs in turns)
    assert all(size == 6 for obs in turns for k, size in enumerate(obs["hand_sizes"]) if k != obs["current_player"])
    assert len(turns) > 10


def test_SC8_the_components_option_sets_the_count_that_casts_the_spell():
    for count in (2, 5):
        game = henge.load("spell_casting", 3, components=count)
        final = random_game(game, random.Random(7))[-1].observation(None)
        (winner,) = final["winners"]
        assert final["inner_counts"][winner] == count
        assert all(c < count for s, c in enumerate(final["inner_counts"]) if s != winner)
        assert f"{count} components on the inner ring cast the spell" in _text(renderer("spell_casting")(final))
    # SC9 with a fifth component to win: the three private disks are all a seat earns.
    assert final["private_left"][winner] == 0


def test_the_rounds_option_plays_that_many_rounds_and_the_last_one_counts_double():
    from henge.games.fightin import events

    game = henge.load("fightin", 2, rounds=3)
    states = random_game(game, random.Random(8))
    final = states[-1].observation(0)
    assert final["round"] == final["round_cap"] == 3 and final["scores"] is not None
    assert {events._multiplier(s) for s in states if s.round == 2} == {1}
    assert {events._multiplier(s) for s in states if s.round == 3} == {2}
    assert "Round 1 of 3" in _text(renderer("fightin")(states[len(states) // 4].observation(0)))


def test_FD13_the_hand_limit_option_caps_every_hand_and_the_prompts_name_it():
    game = henge.load("first_druid", 3, hand_limit=5)
    states = random_game(game, random.Random(9))
    discards = [s.observation(s.current_player()) for s in states if s.observation(None)["phase"] == "discard"]
    assert discards, "no hand went over the limit"
    for obs in discards:
        seat = obs["current_player"]
        assert obs["discard_owed"] == obs["hand_sizes"][seat] - 5 and obs["hand_limit"] == 5
        assert "a hand holds at most 5" in decision_text("first_druid", obs)
    settled = [s.observation(None) for s in states if s.observation(None)["phase"] in ("turn", "bid")]
    assert settled and all(max(obs["hand_sizes"]) <= 5 for obs in settled)
    assert "hand_limit" not in henge.load("first_druid", 3).new_initial_state().observation(0)


def test_D4_the_horseshoe_sum_sets_the_card_sum_of_a_movement_point():
    from henge.games.druid_olympics import board as druid_board

    preview = plugin("druid_olympics").load_preview()
    checked = 0
    for seed in range(6):
        game = henge.load("druid_olympics", 3, horseshoe_sum=5)
        rng = random.Random(seed)
        state: Any = game.new_initial_state()
        while not state.is_terminal():
            seat = state.current_player()
            texts = state.legal_action_texts() if seat >= 0 else []
            if "done" in texts and state.table and state.pos[seat] >= druid_board.HORSESHOE:
                points = sum(box.CARD_NUMBER[c] for c in state.table) // 5
                expected = druid_board.horseshoe_walk(state.cover, seat, state.end[seat], state.pos[seat], points)
                obs = state.observation(seat)
                assert obs["horseshoe_sum"] == 5
                assert preview(obs, seat, "done").startswith(f"{points} point")
                assert "every full 5 moves one stone" in decision_text("druid_olympics", obs)
                state.apply_action(state.string_to_action("done"))
                assert state.pos[seat] == expected
                checked += 1
                continue
            if state.is_chance_node():
                actions, weights = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(actions, weights)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        if checked >= 3:
            break
    assert checked >= 3


# --- the server -----------------------------------------------------------------------------------


def test_a_table_is_created_with_designer_options_and_bad_ones_are_refused(tmp_path):
    from web_support import create, database, running, true_state

    with running(database(tmp_path / "h.db")) as client:
        bots = [{"kind": "bot", "bot": "heuristic"}] * 3
        created = create(client, game="stonerush", options={"track": 12, "hand": 3}, seats=bots, sit=None)
        state = true_state(client, created["id"])
        assert state.game.settings["track"] == 12 and state.game.options["hand"] == 3
        assert state.observation(None)["track_end"] == 12
        both = create(client, game="stonerush", variant="standard", options={"track": 15}, seats=bots, sit=None)
        assert true_state(client, both["id"]).game.options == {"variant": "standard", "track": 15}
        for options, message in (
            ({"track": 31}, "option track must be one of 10..30, not 31"),
            ({"track": "12"}, "option track must be one of 10..30, not '12'"),
            ({"laps": 2}, "stonerush has no option 'laps'"),
        ):
            response = client.post("/api/tables", json={"game": "stonerush", "options": options, "seats": bots})
            assert response.status_code == 400 and message in response.json()["error"]
        response = client.post(
            "/api/tables", json={"game": "stonerush", "variant": "bluestones", "options": {"track": 20}, "seats": bots}
        )
        assert response.status_code == 400 and "bluestones" in response.json()["error"]


def test_openspiel_loads_a_game_with_a_designer_option_as_a_parameter():
    pyspiel = pytest.importorskip("pyspiel")
    from henge.adapters import openspiel

    openspiel.register_all()
    game = pyspiel.load_game("henge_fightin", {"players": 2, "rounds": 4})
    assert game.get_parameters()["rounds"] == 4
    assert pyspiel.load_game("henge_fightin(players=2,rounds=4)").get_parameters()["rounds"] == 4
    state = random_game(game, random.Random(0))[-1]  # played through OpenSpiel's own state
    assert len(state.observation_tensor(0)) == game.observation_tensor_shape()[0]
    assert json.loads(state.observation_string(0))["round"] == 4
    with pytest.raises(ValueError, match=re.escape("option rounds must be one of 3..7, not 8")):
        pyspiel.load_game("henge_fightin", {"players": 2, "rounds": 8})
