"""What each seat of Fightin' an' Drinkin' an' Stealin'! knows (G3, G6), the states it loads (G7)
and saved games across rule versions.

The record: deals, draws and flips are chance events (a draw's card only for its drawer); every
move is its seat's (a face-down card only for its owner); a card turned over is its owner's event,
read by everyone. The resampler replays the real history with the other seat's draws and face-down
cards re-drawn: those tests check that every sample is reached by a legal history in which the
seat saw exactly what it saw, that the hidden parts take every value they can, and that a card
the seat saw turned over is matched uniformly to the draws that could have brought it.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from fightin_positions import fightin_position

import henge
from henge.core import State, StateFormatError
from henge.games.fightin.actions import CHOOSE, DRAW, DRAW_BASE, PLAY

GAME = henge.load("fightin")
HANDS = (["5d", "7d", "8d", "9d", "10d"], ["5n", "7n", "8n", "9n", "10n"])
HERE = Path(__file__).resolve().parent


def random_state(seed: int, stop: Any = None) -> State:
    """Plays a random game from the start until ``stop(state)`` holds (or to the end)."""
    rng = random.Random(seed)
    state = GAME.new_initial_state()
    while not state.is_terminal() and not (stop and stop(state)):
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[int(rng.random() * len(outcomes))][0])
        else:
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.random() * len(legal))])
    return state


def placing(seat: int, round_: int) -> Any:
    """A stop: ``seat`` is about to place its drinker in round ``round_`` (its fighter is face down)."""

    def stop(state: State) -> bool:
        view = state.observation(None)
        return (
            view["round"] == round_
            and view["decision"] == "place"
            and view["current_player"] == seat
            and (view["event"] == "drinkin")
        )

    return stop


def hidden_moves(state: State, seat: int) -> tuple[list[tuple[int, int]], dict[tuple[int, str], str]]:
    """Replays a state's history; returns ``seat``'s draws as (round, chance outcome id) and its
    placements as {(round, event): card text}, read from its own record (forced ones included)."""
    walk = GAME.new_initial_state()
    draws: list[tuple[int, int]] = []
    placed: dict[tuple[int, str], str] = {}
    for action in state.history():
        if walk.phase == DRAW and walk.player == seat:  # type: ignore[attr-defined]
            draws.append((walk.round, action))  # type: ignore[attr-defined]
        walk.apply_action(action)
    for event, card in _placements(walk, seat):
        placed[event] = card
    return draws, placed


def _placements(state: State, seat: int) -> list[tuple[tuple[int, str], str]]:
    """The placements read back from the seat's own record: ((round, event), card)."""
    found = []
    round_ = 0
    for actor, text in state.information_state(seat):
        if actor == -1 and text.startswith("round "):
            round_ = int(text.split()[1])
        elif actor == seat and text.startswith("places "):
            words = text.split()
            found.append(((round_, words[-1]), words[1]))
    return found


# -- the record (G6) ---------------------------------------------------------------------------


def test_G6_a_card_placed_face_down_is_read_by_its_owner_alone_until_it_is_turned_over():
    state = fightin_position(hands=HANDS)
    state.apply_text("fighter 9d")
    assert state.information_state(0)[-1] == [0, "places 9d face down at Fightin'"]
    assert state.information_state(1)[-1] == [0, "places a card face down at Fightin'"]
    assert state.information_state(None)[-1] == [0, "places a card face down at Fightin'"]
    for text in ("drinker 10d", "thief 8d", "fighter 5n", "drinker 7n"):
        state.apply_text(text)
    assert "9d" not in json.dumps(state.information_state(1)) and "7n" not in json.dumps(state.information_state(0))
    assert state.information_state(1)[-1] == [1, "places 7n face down at Drinkin'"]
    assert state.information_state(0)[-1] == [1, "places a card face down at Drinkin'"]
    state.apply_text("thief 8n")  # the Fightin' newcomers are turned over, for everyone
    for seat in (0, 1, None):
        record = state.information_state(seat)
        assert [0, "turns over fighter 9d"] in record and [1, "turns over fighter 5n"] in record
        assert ("10d" in json.dumps(record)) == (seat == 0)  # the drinkers wait for their event
        assert ("7n" in json.dumps(record)) == (seat == 1)


def test_G6_a_draw_is_read_by_its_drawer_alone_and_deals_and_flips_by_everyone():
    state = GAME.new_initial_state()
    for text in ("deal 20d", "deal 22d", "deal 21d", "deal 29n", "deal 7n", "deal 10n", "draw 13d"):
        state.apply_text(text)
    assert state.information_state(0)[-1] == [-1, "seat 0 draws 13d"]
    assert state.information_state(1)[-1] == [-1, "seat 0 draws a card"] == state.information_state(None)[-1]
    assert state.information_state(1)[0] == [-1, "seat 0 deals 20d face up to Fightin'"]
    for text in ("draw 2d", "draw 3d", "draw 4d", "draw 5d", "draw 2n", "draw 3n", "draw 4n", "draw 5n", "draw 8n"):
        state.apply_text(text)
    state.apply_text("flip 12d")
    assert state.information_state(1)[-2:] == [[-1, "the first monster is 12d"], [-1, "round 1"]]


def _twins() -> tuple[State, State]:
    """Two set-ups alike but for seat 1's draws and its first two face-down cards."""
    first, second = GAME.new_initial_state(), GAME.new_initial_state()
    for state, hand in ((first, "2n 3n 4n 5n 7n"), (second, "8n 9n 10n 11n 13n")):
        for text in ("deal 20d", "deal 22d", "deal 21d", "deal 29n", "deal 27n", "deal 28n"):
            state.apply_text(text)
        for card in ["2d", "3d", "4d", "5d", "7d"] + hand.split():
            state.apply_text(f"draw {card}")
        state.apply_text("flip 12d")
        for text in ("fighter 2d", "drinker 3d", "thief 4d"):
            state.apply_text(text)
        cards = hand.split()
        state.apply_text(f"fighter {cards[0]}")
        state.apply_text(f"drinker {cards[1]}")
    return first, second


def test_G6_records_are_equal_exactly_when_the_seat_cannot_tell_the_histories_apart():
    first, second = _twins()
    assert first.information_state(0) == second.information_state(0)
    assert first.information_state_string(0) == second.information_state_string(0)
    assert first.information_state(None) == second.information_state(None)
    assert first.information_state(1) != second.information_state(1)
    assert first.information_state_string(1) != second.information_state_string(1)
    first.apply_text("thief 4n")
    second.apply_text("thief 10n")
    # the fighters are turned over (2n against 8n): now seat 0 tells them apart too
    assert first.information_state(0) != second.information_state(0)


# -- resampling (G3, G6) ---------------------------------------------------------------------


def test_G6_every_resample_is_a_legal_game_in_which_the_seat_saw_the_same():
    rng = random.Random(5)
    cases = [(1, 1, 1, 0), (2, 0, 3, 1), (3, 1, 6, 0), (4, 0, 7, 1), (5, 0, 5, 0), (6, 1, 4, 1)]
    for seed, seat, round_, decider in cases:  # the seat resampling, and the seat placing its drinker
        state = random_state(seed, placing(decider, round_))
        before = state.to_json()
        record = state.information_state(seat)
        worlds = set()
        for _ in range(10):
            sample = state.resample_from_infostate(seat, rng)
            again = GAME.new_initial_state()
            for action in sample.history():
                again.apply_action(action)
            assert again.to_json() == sample.to_json()
            assert again.information_state(seat) == record and sample.observation(seat) == state.observation(seat)
            assert sample.current_player() == state.current_player() == decider
            assert seat != decider or sample.legal_actions() == state.legal_actions()
            worlds.add(json.dumps(sample.to_json()["state"], sort_keys=True))
        assert len(worlds) > 1
        assert state.to_json() == before and state.information_state(seat) == record  # the real state is untouched


def test_G6_the_card_face_down_can_be_any_card_the_seat_has_not_seen():
    # Round 3: seat 1 placed its fighter; seat 0 has seen 3 of seat 1's cards dealt and 6 turned over.
    state = random_state(7, placing(1, 3))
    unseen = state.decks[1] + state.hands[1] + [state.down[1]]  # type: ignore[attr-defined]
    assert len(unseen) == 24 - 9
    rng = random.Random(1)
    faces = Counter(state.resample_from_infostate(0, rng).down[1] for _ in range(600))  # type: ignore[attr-defined]
    assert set(faces) == set(unseen)  # none missing, none the seat knows elsewhere
    assert max(faces.values()) < 3 * min(faces.values())


def test_G6_a_card_turned_over_came_from_a_draw_before_it_was_placed_every_matching_as_likely():
    # Round 2, seat 1 placing: seat 0 drew five cards at set-up and three after round 1. A card it
    # placed in round 1 came from a set-up draw, each as likely (1/5). A card it placed in round 2
    # was one of the five in its hand then: each of the three new draws (1/5), or one of the two
    # set-up cards still held, each set-up draw being one of those with chance 2/5 (so 2/25).
    state = random_state(11, placing(1, 2))
    draws, placed = hidden_moves(state, 0)
    assert [r for r, _ in draws] == [0] * 5 + [1] * 3
    rng = random.Random(2)
    samples = 1500
    where: dict[tuple[int, str], Counter[int]] = {key: Counter() for key in placed}
    for _ in range(samples):
        sample = state.resample_from_infostate(1, rng)
        sample_draws, sample_placed = hidden_moves(sample, 0)
        assert sample_placed.keys() == placed.keys()
        drawn = [GAME.action_text(card, chance=True).split()[1] for _, card in sample_draws]
        for key, card in sample_placed.items():
            if key[0] == 1:
                assert card == placed[key]  # turned over in round 1: seat 1 saw it
            where[key][drawn.index(card)] += 1
    for (round_, _), counts in where.items():
        odds = [1 / 5] * 5 if round_ == 1 else [2 / 25] * 5 + [1 / 5] * 3
        assert set(counts) == set(range(len(odds))), f"a round {round_} card came from draws {sorted(counts)}"
        for draw, chance in enumerate(odds):
            assert abs(counts[draw] - chance * samples) < 0.25 * chance * samples, (round_, dict(counts))


def test_G6_a_state_loaded_with_its_history_resamples_like_the_state_it_was():
    state = random_state(13, placing(0, 4))
    loaded = GAME.state_from_json(json.loads(json.dumps(state.to_json())))
    for seat in (0, 1):
        first = state.resample_from_infostate(seat, random.Random(3))
        again = loaded.resample_from_infostate(seat, random.Random(3))
        assert first.to_json() == again.to_json()
        assert len(again.history()) == len(state.history()) and again.history() != state.history()


def test_G6_a_state_set_up_without_its_history_redeals_what_the_seat_cannot_see():
    state = fightin_position(hands=HANDS)
    state.apply_text("fighter 9d")
    sample = state.resample_from_infostate(1, random.Random(0))
    assert sample.observation(1) == state.observation(1)
    assert sample.information_state(1) == state.information_state(1)
    assert sample.hands[1] == state.hands[1]  # type: ignore[attr-defined]


# -- loading (G7) ----------------------------------------------------------------------------


def _step_checking_draws(state: State, rng: random.Random) -> int:
    """Applies a random action; at a draw, first checks that its outcomes are the drawer's deck as
    it stands (returns 1, else 0)."""
    checked = 0
    if state.phase == DRAW:  # type: ignore[attr-defined]
        deck = state.decks[state.player]  # type: ignore[attr-defined]
        assert [a for a, _ in state.chance_outcomes()] == [DRAW_BASE + c for c in sorted(deck)]
        checked = 1
    legal = state.legal_actions()
    state.apply_action(legal[int(rng.random() * len(legal))])
    return checked


def _draws_are_the_deck_to_the_end(state: State, rng: random.Random) -> int:
    """Plays ``state`` on at random, a clone of it now and then one step ahead (unseen by the
    state), checking every draw of both; returns the draws checked."""
    checked = 0
    while not state.is_terminal():
        if rng.random() < 0.3:
            _step_checking_draws(state.clone(), rng)
        checked += _step_checking_draws(state, rng)
    return checked


def test_G1_a_draw_is_uniform_over_the_deck_as_it_stands_after_loads_clones_and_resamples():
    # The draw outcomes are kept with each deck rather than listed at every draw: they must follow
    # the deck wherever it is set from outside the play (a state loaded or re-dealt).
    for seed in range(3):
        rng = random.Random(seed)
        assert _draws_are_the_deck_to_the_end(GAME.new_initial_state(), rng) > 30
        state = random_state(seed, placing(1, 3))
        data = json.loads(json.dumps(state.to_json()))
        data["history"] = []  # loaded as it stands, not replayed
        loaded = GAME.state_from_json(data)
        assert _draws_are_the_deck_to_the_end(loaded.clone(), rng) > 10
        for seat in (0, 1):
            redealt = loaded.resample_from_infostate(seat, random.Random(seed))
            assert redealt.decks[1 - seat] != state.decks[1 - seat]  # type: ignore[attr-defined]
            assert _draws_are_the_deck_to_the_end(redealt, rng) > 10
            replayed = state.resample_from_infostate(seat, random.Random(seed))
            assert _draws_are_the_deck_to_the_end(replayed, rng) > 10


def test_G7_a_state_at_round_0_once_the_set_up_is_done_is_refused():
    # Before: it loaded, and played rounds 1 to 7 after this "round 0": eight rounds.
    with pytest.raises(StateFormatError, match="once the set-up is done"):
        fightin_position(hands=HANDS, round=0)
    for round_ in range(1, 8):
        assert fightin_position(hands=HANDS, round=round_).observation(0)["round"] == round_


def test_G7_every_state_of_played_games_meets_the_invariants():
    for seed in range(6):
        rng = random.Random(seed)
        state = GAME.new_initial_state()
        while True:
            data = state.to_json()
            data["history"] = []  # checked on its own, not by replay
            assert GAME.state_from_json(json.loads(json.dumps(data))).to_json()["state"] == data["state"]
            if state.is_terminal():
                break
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.random() * len(legal))])


def _edited(state: State, **changes: Any) -> dict[str, Any]:
    data = json.loads(json.dumps(state.to_json()))
    data["history"] = []
    data["state"].update(changes)
    return data


def _at(stop: Any, seed: int = 0) -> State:
    state = random_state(seed, stop)
    assert stop(state), "the random game never got there"
    return state


PLACES = fightin_position(hands=HANDS)


@pytest.mark.parametrize(
    ("state", "changes", "message"),
    [
        (PLACES, {"round": 0}, "once the set-up is done"),
        (PLACES, {"step": "draws"}, "no chance node waits there|never waits there"),
        (PLACES, {"kind": "scarper"}, "a scarper decision at step places cannot be"),
        (PLACES, {"kind": "scarper", "step": "steal scarper other", "event": 2}, "two options or more"),
        (PLACES, {"kind": "kill", "step": "fight killed"}, "needs lead seat"),
        (PLACES, {"lead": 1}, "has no lead seat"),
        (PLACES, {"gonagal": 0}, "working Gonagal"),
        (PLACES, {"taken": 1}, "only while a steal"),
        (PLACES, {"habeas": [0, 1]}, "Habeascorpusized"),
        (PLACES, {"dropped": ["red", None]}, "dropped at scoring"),
        (PLACES, {"monsters": ["12d", "6d"], "monster_deck": []}, "monster card"),
        (
            PLACES,
            {"hands": [["5d", "7d", "8d", "9d"], HANDS[1]], "discards": [["10d"], []]},
            "five cards",
        ),
        (
            PLACES,
            {
                "hands": [HANDS[0], ["5n", "7n", "8n", "9n"]],
                "face_down": {"fightin": [None, "10n"], "drinkin": [None, None], "stealin": [None, None]},
            },
            "seat 1 places after seat 0",
        ),
    ],
)
def test_G7_states_that_break_the_invariants_are_refused(state, changes, message):
    with pytest.raises(StateFormatError, match=message):
        GAME.state_from_json(_edited(state, **changes))


def test_G7_set_up_scoring_and_round_end_states_that_do_not_fit_are_refused():
    dealing = GAME.new_initial_state()
    for text in ("deal 20d", "deal 22d"):
        dealing.apply_text(text)
    with pytest.raises(StateFormatError, match="first event without its card"):
        GAME.state_from_json(_edited(dealing, event=0))
    with pytest.raises(StateFormatError, match="set-up"):
        GAME.state_from_json(_edited(dealing, round=1))
    drawing = _at(lambda s: s.observation(None)["round"] == 3 and s.is_chance_node() and s.phase == DRAW)
    with pytest.raises(StateFormatError, match="nobody draws after round 7"):
        GAME.state_from_json(_edited(drawing, round=7))
    over = random_state(1)
    fields = over.to_json()["state"]
    with pytest.raises(StateFormatError, match="the scores are"):
        GAME.state_from_json(_edited(over, scores=[fields["scores"][0] + 2, fields["scores"][1]]))
    with pytest.raises(StateFormatError, match="scoring comes after round 7"):
        GAME.state_from_json(_edited(over, round=6))
    stealing = _at(lambda s: s.phase == CHOOSE and s.observation(None)["decision"] == "steal", seed=3)
    with pytest.raises(StateFormatError, match="ranked thieves"):
        GAME.state_from_json(_edited(stealing, second=None))
    placing_ = _at(lambda s: s.phase == CHOOSE and s.kind == PLAY and s.observation(None)["round"] == 2)
    assert GAME.state_from_json(_edited(placing_)).to_json()["state"] == placing_.to_json()["state"]


# -- saved games across rule versions ------------------------------------------------------------


def test_F16_a_game_record_of_version_1_0_0_is_refused_naming_both_versions():
    record = json.loads((HERE / "record_1.0.0.json").read_text())
    assert record["version"] == "1.0.0" and GAME.info.version == "1.1.0"
    with pytest.raises(ValueError, match=r"fightin version 1\.0\.0; this henge plays version 1\.1\.0"):
        henge.replay(record)
    state = GAME.new_initial_state().to_json()
    state["version"] = "1.0.0"
    with pytest.raises(StateFormatError, match=r"'1\.0\.0'; expected '1\.1\.0'"):
        GAME.state_from_json(state)
