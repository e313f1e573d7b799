"""What every seat knows (G3, G6), what a loaded state must satisfy (G7) and saved games across versions."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from spell_casting_positions import spell_casting_position as position

import henge
from henge.core import StateFormatError
from henge.games.spell_casting import rules as sc
from henge.records import RECORD_FORMAT, RECORD_VERSION


def play(state: henge.State, *texts: str) -> None:
    for text in texts:
        state.apply_text(text)


def random_game(players: int, seed: int, steps: int) -> henge.State:
    """Returns the state after ``steps`` random actions (chance included) of a fresh game."""
    state = henge.load("spell_casting", players).new_initial_state()
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def replayed(state: henge.State) -> henge.State:
    again = state.game.new_initial_state()
    for action in state.history():
        again.apply_action(action)
    return again


# --- G6: the record ---------------------------------------------------------------------------


def test_G6_every_seat_and_a_spectator_read_the_same_record_one_entry_per_action():
    state = henge.load("spell_casting", 3).new_initial_state()
    for card in range(26):  # 7 components per seat, then the five figures (3 seats, yellow, gray)
        state.apply_action(card)
    play(state, "take out1", "take out2", "done", "done", "place in1")
    record = state.information_state(None)
    assert record[:2] == [[-1, "turns 1n for a component of seat 0"], [-1, "turns 1d for a component of seat 0"]]
    assert record[20] == [-1, "turns 11n for a component of seat 2"]
    assert record[21:26] == [
        [-1, "turns 11d for the white figure"],
        [-1, "turns 12n for the blue figure"],
        [-1, "turns 12d for the green figure"],
        [-1, "turns 13n for the yellow figure"],  # the neutral colour with three seats (SC1)
        [-1, "turns 13d for the gray figure"],
    ]
    assert record[26:] == [[0, "take out1"], [0, "take out2"], [0, "done"], [0, "done"], [0, "place in1"]]
    assert len(record) == state.move_number()
    for seat in range(3):  # nothing is private: every seat reads exactly the spectator's record
        assert state.information_state(seat) == record
        assert state.information_state_string(seat) == state.information_state_string(None)


def test_G6_equal_records_mean_equal_histories_even_for_cards_that_place_alike():
    # 1n and 1d both put seat 0's first component on outer 1: the positions agree, the records do not
    first = henge.load("spell_casting", 3).new_initial_state()
    second = henge.load("spell_casting", 3).new_initial_state()
    first.apply_text("draw 1n")
    second.apply_text("draw 1d")
    assert first.observation(None)["rings"] == second.observation(None)["rings"]
    for seat in (0, 1, 2, None):
        assert first.information_state(seat) != second.information_state(seat)
        assert first.information_state_string(seat) != second.information_state_string(seat)


def test_G6_place_means_what_the_phase_makes_it_and_the_record_keeps_who_placed():
    state = position(board={"middle 13": 1}, figures={"white": "13 night"})
    play(state, "take out2", "take out1", "done", "pull middle 13 night", "place in3")  # seat 1's private disk
    assert state.information_state(2)[-2:] == [[0, "pull middle 13 night"], [1, "place in3"]]


# --- G3, G6: resampling -----------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4])
def test_G6_the_resample_is_the_one_consistent_world_the_real_state_with_its_history(players):
    for steps in (0, 5, 8 * players + 2, 8 * players + 40, 600):
        state = random_game(players, seed=steps, steps=steps)
        before = state.to_json()
        for seat in range(players):
            sample = state.resample_from_infostate(seat, random.Random(seat))
            other = state.resample_from_infostate(seat, random.Random(seat + 100))
            assert sample.to_json() == other.to_json() == before  # fields and history: nothing re-drawn
            assert sample.information_state(seat) == state.information_state(seat)
            again = replayed(sample)
            assert again.to_json() == before and again.information_state(seat) == state.information_state(seat)
            if not sample.is_terminal():
                sample.apply_action(sample.legal_actions()[0])
        assert state.to_json() == before  # the real state is unchanged
    with pytest.raises(ValueError, match="seats run"):
        state.resample_from_infostate(players, random.Random(0))


def test_G6_a_state_loaded_with_its_history_has_its_record_and_one_without_resamples_to_itself():
    state = random_game(4, seed=3, steps=80)
    game = state.game
    loaded = game.state_from_json(json.loads(json.dumps(state.to_json())))
    assert loaded.information_state(1) == state.information_state(1)
    bare = state.to_json()
    bare["history"] = []
    lone = game.state_from_json(bare)
    assert lone.information_state(1) == []
    sample = lone.resample_from_infostate(1, random.Random(0))
    assert sample.to_json() == lone.to_json()


def test_G6_the_observation_keeps_the_cups_this_action_took_from():
    state = position()
    play(state, "take out1", "take out3", "done", "done")
    assert state.observation(2)["action_sources"] == ["out1", "out3"]
    play(state, "place in1")  # the out1 disk is back: out1 still may not take the out3 disk (SC11)
    obs = state.observation(2)
    assert obs["hand"] == ["out3"] and obs["action_sources"] == ["out1", "out3"]
    play(state, "place in2")
    assert state.observation(2)["action_sources"] == []


# --- G7: loads -----------------------------------------------------------------------------------


def tampered(state: henge.State, **changes: Any) -> dict[str, Any]:
    data = json.loads(json.dumps(state.to_json()))
    data["history"] = []
    for key, value in changes.items():
        data["state"][key] = value
    return data


def refused(data: dict[str, Any], match: str) -> None:
    with pytest.raises(StateFormatError, match=match):
        henge.load("spell_casting", data["players"]).state_from_json(data)


def test_G7_disk_counts_per_cup_and_colour_must_add_up():
    state = position(board={"inner 1 night": 0}, private={(0, "out3"): 1})
    refused(tampered(state, energy=[2, 2, 2, 1, 1, 2]), "nine energy disks")
    refused(tampered(state, private=[[0, 0, 0, 0, 0, 2], [0] * 6, [0] * 6, [0] * 6]), "private disks")
    refused(tampered(state, private_placed=[1, 1, 0, 0]), "private")
    play(state, "take out1", "take mine out3", "done")
    refused(tampered(state, hand=["out1"], uses=[1, 0, 0]), "private disks in cups and hand")


def test_G7_components_stand_on_the_rings_seven_per_seat_and_figures_in_play_only():
    state = position()
    data = tampered(state)
    data["state"]["rings"]["outer"][0] = 0  # an eighth component of seat 0
    refused(data, "seven components")
    data = tampered(state)
    data["state"]["rings"]["inner"][5] = 2  # a component inside without its private disk
    refused(data, "seven components|private disk")
    refused(tampered(state, figures=[None] * 6), "figures")
    three = position(3)
    refused(tampered(three, figures=["1 night"] * 6), "figures")  # red stands in a three-seat game
    fresh = henge.load("spell_casting", 3).new_initial_state()
    play(fresh, "draw 5n", "draw 9d")
    data = tampered(fresh)
    data["state"]["rings"]["outer"][4], data["state"]["rings"]["outer"][5] = None, 0
    refused(data, "where the turned cards put them")


def test_G7_phases_turns_and_the_mover_fit_each_other():
    state = position()
    refused(tampered(state, player=2), "after 0 turns seat 0 acts")
    refused(tampered(state, turns=4000), "cap")
    refused(tampered(state, held=[0, 1, 0, 0], energy=[2, 2, 1, 1, 1, 1]), "held: seat 1 holds 0 or 2")
    refused(tampered(state, held=[1, 0, 0, 0], energy=[2, 2, 1, 1, 1, 1]), "held: seat 0 holds 0")
    refused(tampered(state, phase="use"), "use")
    play(state, "take in1")
    refused(tampered(state, uses=[0, 0, 0]), "one use waits for each disk")
    fresh = henge.load("spell_casting", 3).new_initial_state()
    play(fresh, "draw 5n")
    refused(tampered(fresh, energy=[1, 2, 2, 2, 1, 1]), "starting energy")
    refused(tampered(fresh, recent=[[0, 24]]), "no turn has been played")
    refused(tampered(fresh, phase="take"), "does not fit phase")


def test_G7_the_result_fits_the_board():
    inner = {"inner 1 night": 1, "inner 2 night": 1, "inner 3 night": 1}
    state = position(board={**inner, "middle 3": 0, "middle 4": 1}, private={(1, "out3"): 3})
    play(state, "take in1", "take in1", "done", "move middle 3 right", "displace in day")
    assert state.is_terminal()
    refused(tampered(state, winners=[0]), "winners")
    refused(tampered(state, winners=[0, 1]), "winners")
    refused(tampered(state, action=None, action_cup=None, hand=[], uses=[0, 0, 0]), "nine energy|over")


def test_G7_action_sources_fit_the_action_and_the_hand():
    state = position()
    play(state, "take out1", "take out2", "done", "done", "place in1")  # the out2 disk left to place
    assert state.observation(None)["action_sources"] == ["out1", "out2"]
    refused(tampered(state, action_sources=["out1"]), "came from one of them")
    refused(tampered(state, action_sources=["in1", "out2"]), "outside cups only")
    refused(tampered(state, action_sources="out2"), "list of distinct cup names")
    ok = henge.load("spell_casting", 4).state_from_json(tampered(state, action_sources=["out2"]))
    assert ok.legal_action_texts() == ["place in1", "place in2", "place in3", "place out1", "place out3"]
    state = position()
    play(state, "take in2", "done")
    refused(tampered(state, action_sources=["in1"]), "inside cup alone")
    refused(tampered(state, action_sources=["in2", "out1"]), "inside cup alone")
    state = position()
    play(state, "hold in2")
    refused(tampered(state, action_sources=["in2"]), "only actions a and b")
    state = position()
    play(state, "take out1", "take out3")
    refused(tampered(state, action_sources=["out1", "out2", "out3"]), "the cups of the disks in hand")


# --- saved games across rule changes -------------------------------------------------------------


def test_SC11_a_record_or_state_of_version_1_0_0_is_refused_naming_both_versions():
    game = henge.load("spell_casting", 3)
    assert game.info.version == "1.1.0"
    state = game.new_initial_state()
    play(state, "draw 1n", "draw 2d")
    record = {
        "format": RECORD_FORMAT,
        "format_version": RECORD_VERSION,
        "game": "spell_casting",
        "version": "1.0.0",
        "players": 3,
        "options": {"variant": "standard"},
        "seed": 0,
        "agents": ["random"] * 3,
        "actions": state.history(),
        "texts": ["draw 1n", "draw 2d"],
        "returns": [0.0, 0.0, 0.0],
    }
    with pytest.raises(ValueError, match=r"version 1\.0\.0.*version 1\.1\.0"):
        henge.replay(record)
    assert len(henge.replay({**record, "version": "1.1.0"})) == 3
    data = state.to_json()
    data["version"] = "1.0.0"
    with pytest.raises(StateFormatError, match=r"'1\.0\.0'; expected '1\.1\.0'"):
        game.state_from_json(data)


def test_SC11_action_ids_keep_their_meaning():
    game = henge.load("spell_casting", 4)
    assert game.num_distinct_actions() == 428
    assert [game.action_text(a) for a in (0, 6, 12, 18, 24, 25, 26)] == [
        "take in1",
        "take mine in1",
        "hold in1",
        "place in1",
        "done",
        "pass",
        "displace left",
    ]
    assert sc.SpellCasting.info.version == "1.1.0"
