"""Stonerush: what each seat knows (G3, G6), exact resampling, and what a loaded state must be (G7)."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest

import henge
from henge import box
from henge.core import CHANCE, StateFormatError
from henge.games.stonerush.rules import DEAL_HANDS, DECK, DISCARD, DONE, DRAW, PLAY, StonerushState

SUMMARY = ("pushed", "discarded")
"""The observation's whole-game tallies; the rest is the present view."""


def _game(players: int = 3, variant: str = "standard") -> henge.Game:
    return henge.load("stonerush", players, variant=variant)


def _random_states(game: henge.Game, seed: int) -> list[StonerushState]:
    rng = random.Random(seed)
    state = game.new_initial_state()
    states = [state.clone()]
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
        states.append(state.clone())
    assert all(isinstance(s, StonerushState) for s in states)
    return states  # type: ignore[return-value]


def _key(state: henge.State) -> str:
    return json.dumps(state.to_json()["state"], sort_keys=True)


def _replayed(state: henge.State) -> henge.State:
    again = state.game.new_initial_state()
    for action in state.history():
        again.apply_action(action)
    return again


def _plain(state: henge.State) -> None:
    """One step of a fixed way to play on: the lowest card drawn, one card laid, discard to two."""
    texts = state.legal_action_texts()
    if state.current_player() == CHANCE:
        state.apply_action(state.legal_actions()[0])
    elif "done" in texts and (texts[0].startswith("play") or len(texts) <= 3):
        state.apply_text("done")
    else:
        state.apply_text(texts[0])


# --- the finding: the observation forgot who did what (G3, G6) --------------------------------


def _two_openings() -> tuple[StonerushState, StonerushState]:
    """Seat 0 plays 1d+7d and seat 1 plays 13d then discards 6d, or seat 0 plays 1d and discards
    7d and seat 1 plays 13d+6d: the same cards go down, the druids end alike, the draws are equal."""
    deal = ["T-white", "T-blue", "T-green"]
    deal += ["1d", "7d", "2d", "3d", "13d", "6d", "8d", "9d", "4d", "5d", "10d", "11d"]
    first = {
        "A": ["play 1d", "play 7d", "done", "done", "draw 14d", "draw 15d", "play 13d", "done", "discard 6d", "done"],
        "B": ["play 1d", "done", "discard 7d", "done", "draw 14d", "draw 15d", "play 13d", "play 6d", "done", "done"],
    }
    states = []
    for moves in first.values():
        state = _game(3).new_initial_state()
        for card in deal:
            state.apply_text(f"draw {card}")
        state.apply_text("start seat 0")
        for move in moves:
            state.apply_text(move)
        state.apply_text("draw 16d")
        state.apply_text("draw 17d")
        assert isinstance(state, StonerushState)
        states.append(state)
    return states[0], states[1]


def test_G6_seat_2_tells_apart_who_pushed_and_who_discarded_what_for_the_whole_game():
    a, b = _two_openings()
    druids = dict.fromkeys(box.PLAYER_COLOURS, 1) | {"white": 4}
    assert a.observation(2)["druids"] == b.observation(2)["druids"] == druids
    assert a.observation(2)["discard_pile"] == b.observation(2)["discard_pile"] == ["1d", "7d", "13d", "6d"]
    assert a.information_state(2) != b.information_state(2)
    assert a.information_state_string(2) != b.information_state_string(2)
    turn = a.turns
    while a.turns < turn + 10:  # ten more turns, played alike in both games
        _plain(a)
        _plain(b)
    assert not a.is_terminal() and a.history()[-40:] == b.history()[-40:]
    seen_a, seen_b = a.observation(2), b.observation(2)
    # The present view is the same: the last eight plays no longer reach back to the opening.
    assert {k: v for k, v in seen_a.items() if k not in SUMMARY} == {
        k: v for k, v in seen_b.items() if k not in SUMMARY
    }
    # What seat 2 saw is not: its record holds every event, and the tallies keep who did what.
    assert a.information_state(2) != b.information_state(2)
    assert a.information_state(2)[:30] != b.information_state(2)[:30]
    assert [0, "plays 7d"] in a.information_state(2) and [0, "discards 7d"] in b.information_state(2)
    assert [1, "discards 6d"] in a.information_state(2) and [1, "plays 6d"] in b.information_state(2)
    assert seen_a["pushed"][0]["white"] - seen_b["pushed"][0]["white"] == 1
    assert seen_b["pushed"][1]["white"] - seen_a["pushed"][1]["white"] == 1
    assert seen_a["discarded"][1][0] == "6d" and "6d" not in seen_b["discarded"][1]
    assert seen_b["discarded"][0][0] == "7d" and "7d" not in seen_a["discarded"][0]
    for seat in range(3):  # resampling keeps that record, for every seat
        for k in range(5):
            sample = a.resample_from_infostate(seat, random.Random(k))
            assert sample.information_state(seat) == a.information_state(seat)
            assert sample.observation(seat) == a.observation(seat)


# --- the record ------------------------------------------------------------------------------


def test_G6_the_record_says_who_did_what_and_shows_a_drawn_card_to_its_drawer_only():
    a, _ = _two_openings()
    mine, theirs, spectator = a.information_state(0), a.information_state(1), a.information_state(None)
    assert mine[:2] == [[-1, "seat 0 is dealt T-white"], [-1, "seat 1 is dealt a trilithon card"]]
    assert theirs[:2] == [[-1, "seat 0 is dealt a trilithon card"], [-1, "seat 1 is dealt T-blue"]]
    assert [-1, "seat 0 is dealt 1d"] in mine and [-1, "seat 0 is dealt a card"] in theirs
    assert [-1, "seat 1 is dealt 13d"] in theirs and [-1, "seat 1 is dealt a card"] in mine
    assert [-1, "seat 0 starts"] in spectator
    assert spectator[-12:] == [
        [0, "plays 1d"],
        [0, "plays 7d"],
        [0, "ends the play: the white druid moves from 1 to 3"],
        [0, "keeps 2 cards"],
        [-1, "seat 0 draws a card"],
        [-1, "seat 0 draws a card"],
        [1, "plays 13d"],
        [1, "ends the play: the white druid moves from 3 to 4"],
        [1, "discards 6d"],
        [1, "keeps 2 cards"],
        [-1, "seat 1 draws a card"],
        [-1, "seat 1 draws a card"],
    ]
    assert [-1, "seat 0 draws 14d"] in mine and [-1, "seat 0 draws 14d"] not in theirs
    secrets = ("T-", "8d", "14d", "16d")  # never laid: only their holders read them
    assert not any(secret in text for _, text in spectator for secret in secrets)


def test_G6_a_reshuffle_and_the_end_are_in_every_record():
    state = _random_states(_game(4), seed=8)[-1]
    record = state.information_state(None)
    assert any(text.startswith("the discard pile is shuffled into a new draw pile of ") for _, text in record)
    actor, text = record[-1]
    assert actor == -1 and text.startswith("the game is over: ") and "trilithon cards: seat 0 T-" in text
    for seat in range(4):
        assert state.information_state(seat)[-1] == record[-1]


# --- the knowledge in the observation ------------------------------------------------------


def test_G6_after_a_reshuffle_the_cards_then_in_other_hands_are_known_to_be_there():
    states = _random_states(_game(3), seed=4)
    state = next(s for s in states if s.fills == 1)  # the discard pile just became the draw pile
    for seat in range(3):
        old, new = state.observation(seat)["hidden_cards"]
        others = [k for k in range(3) if k != seat]
        # The pile was empty: every card this seat could not see was in another hand, and still is.
        assert old["cards"] == [box.CARD_TEXT[c] for c in DECK if any(c in state.hands[k] for k in others)]
        assert old["hands"] == [len(state.hands[k]) if k != seat else 0 for k in range(3)]
        assert old["draw_pile"] == 0
        assert new == {
            "cards": [box.CARD_TEXT[c] for c in state.draw],
            "hands": [0, 0, 0],
            "draw_pile": len(state.draw),
        }


def test_G6_the_observation_is_the_same_in_every_world_the_seat_cannot_tell_apart():
    for state in _random_states(_game(5, "bluestones"), seed=2)[::41]:
        for seat in range(5):
            for k in range(3):
                sample = state.resample_from_infostate(seat, random.Random(k))
                assert sample.observation(seat) == state.observation(seat)


# --- exact resampling ----------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4, 5])
def test_G6_a_resample_is_the_state_its_history_reaches_for_every_seat(players):
    states = _random_states(_game(players), seed=players)
    for state in states[:: max(1, len(states) // 12)] + [states[-1]]:
        for seat in range(players):
            sample = state.resample_from_infostate(seat, random.Random(seat))
            again = _replayed(sample)
            assert _key(again) == _key(sample)
            for reader in [*range(players), None]:
                assert sample.information_state(reader) == again.information_state(reader)
            assert sample.information_state(seat) == state.information_state(seat)
            assert sample.information_state(None) == state.information_state(None)


def test_G6_resampling_draws_on_what_the_seat_knows_only():
    """Two states the seat cannot tell apart give the same resample for the same random numbers
    (a plain generator: no sorting helps), so bots decide alike in both (canonical resampling)."""
    states = _random_states(_game(4), seed=6)
    for state in states[30::97]:
        for seat in range(4):
            twin = state.resample_from_infostate(seat, random.Random(1))
            mine = state.resample_from_infostate(seat, random.Random(2))
            again = twin.resample_from_infostate(seat, random.Random(2))
            assert mine.to_json() == again.to_json()


def test_G6_a_card_a_seat_laid_or_discarded_was_drawn_by_it_after_it_last_entered_the_pile():
    states = _random_states(_game(3), seed=9)
    state = states[len(states) // 2]
    steps: dict[tuple[int, int], set[int]] = {}  # (seat, card shown) -> the steps that drew it, over samples
    for k in range(60):
        sample = state.resample_from_infostate(0, random.Random(k))
        walk = state.game.new_initial_state()
        assert isinstance(walk, StonerushState)
        drawn: dict[int, tuple[int, int]] = {}  # card -> (step, seat) of its last draw
        entered: dict[int, int] = dict.fromkeys(DECK, -1)  # card -> the step it last entered the pile
        for step, action in enumerate(sample.history()):
            phase, seat, fills = walk.phase, walk.player, walk.fills
            if phase in (DEAL_HANDS, DRAW):
                drawn[action] = (step, seat)
            elif phase in (PLAY, DISCARD) and action != DONE:  # a card laid or discarded, face up
                card = action if phase == PLAY else action - box.DECK_SIZE
                when, who = drawn[card]
                assert who == seat and entered[card] < when < step
                if seat != 0:
                    steps.setdefault((seat, card), set()).add(when)
            walk.apply_action(action)
            if walk.fills != fills:
                entered.update(dict.fromkeys(walk.draw, step))
    assert any(len(found) > 1 for found in steps.values())  # not always the draw it really came from


def test_G6_unseen_cards_are_redrawn_and_the_trilithons_too_until_revealed():
    states = _random_states(_game(4), seed=1)
    state = states[len(states) // 2]
    hands, trilithons = set(), set()
    for k in range(40):
        sample = state.resample_from_infostate(2, random.Random(k))
        assert isinstance(sample, StonerushState)
        assert sample.hands[2] == state.hands[2] and sample.trilithon[2] == state.trilithon[2]
        hands.add(tuple(map(tuple, sample.hands)))
        trilithons.add(tuple(sample.trilithon))
    assert len(hands) > 30 and len(trilithons) > 5
    final = states[-1]
    for k in range(5):
        assert final.resample_from_infostate(1, random.Random(k)).trilithon == final.trilithon
    assert state.to_json() == states[len(states) // 2].to_json()  # the real state is unchanged


def test_G6_a_position_loaded_without_its_history_is_resampled_from_its_present_view():
    state = _random_states(_game(3), seed=5)[300]
    data = state.to_json()
    data["history"] = []
    loaded = state.game.state_from_json(data)
    assert loaded.information_state(0) == []
    worlds = set()
    for k in range(20):
        sample = loaded.resample_from_infostate(0, random.Random(k))
        assert sample.observation(0) == loaded.observation(0)
        assert sample.observation(None) == loaded.observation(None)
        assert state.game.state_from_json(sample.to_json()).to_json() == sample.to_json()
        worlds.add(_key(sample))
    assert len(worlds) > 10


# --- G7: loaded states meet the invariants -----------------------------------------------


@pytest.mark.parametrize("config", [(3, "standard"), (4, "bluestones"), (5, "standard")])
def test_G7_every_position_of_a_game_loads_without_its_history(config):
    game = _game(*config)
    for seed in range(2):
        for state in _random_states(game, seed):
            data = state.to_json()
            data["history"] = []
            assert game.state_from_json(data).to_json() == data


def _position() -> dict[str, Any]:
    """A turn of seat 1 some way into a four-player game, after a reshuffle, with no history."""
    states = _random_states(_game(4), seed=3)
    state = next(s for s in states if s.fills == 1 and s.phase == PLAY and not s.played and s.player == 1)
    data = state.to_json()
    data["history"] = []
    return data


def _set(key: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def change(fields: dict[str, Any]) -> None:
        fields[key] = value

    return change


def _full_hand_at_draw(fields: dict[str, Any]) -> None:
    # The finding: phase draw while the seat to move holds four cards (it used to draw on, to a
    # ZeroDivisionError once both piles ran dry).
    fields["phase"] = "draw"


def _empty_pile_at_draw(fields: dict[str, Any]) -> None:
    fields["phase"] = "draw"
    fields["discard_pile"] += [fields["hands"][1].pop(), *fields["draw_pile"]]
    fields["draw_pile"] = []


def _two_in_one_place(fields: dict[str, Any]) -> None:
    fields["hands"][0][0] = fields["hands"][2][0]


def _short_hand(fields: dict[str, Any]) -> None:
    fields["discard_pile"].append(fields["hands"][3].pop())


def _shared_space(fields: dict[str, Any]) -> None:
    fields["druids"] = [5, 5, 1, 1, 1]
    fields["pushed"] = [[4, 4, 0, 0, 0]] + [[0] * 5 for _ in range(3)]


def _druid_at_the_end(fields: dict[str, Any]) -> None:
    fields["druids"] = [30, 1, 1, 1, 1]
    fields["pushed"] = [[29, 0, 0, 0, 0]] + [[0] * 5 for _ in range(3)]


def _pushes_do_not_add_up(fields: dict[str, Any]) -> None:
    fields["pushed"][0][0] += 1


def _stale_pile(fields: dict[str, Any]) -> None:
    fields["filled"][fields["draw_pile"][0]] = 0


def _mixed_colours(fields: dict[str, Any]) -> None:
    hand = fields["hands"][1]
    for colour in (box.RED, box.BLUE):  # two of seat 1's cards laid, one red and one blue
        new = next(c for c in fields["draw_pile"] if box.CARD_COLOUR[box.parse_card(c)] == colour)
        old = hand.pop()
        fields["draw_pile"][fields["draw_pile"].index(new)] = old
        fields["filled"][old] = fields["fills"]
        fields["in_play"].append(new)


def _last_play_colour(fields: dict[str, Any]) -> None:
    fields["last_plays"][-1][2] = (fields["last_plays"][-1][2] + 1) % 5


BROKEN: dict[str, tuple[Callable[[dict[str, Any]], None], str]] = {
    "a full hand at the draw": (_full_hand_at_draw, "drawing: fewer than four cards in hand"),
    "an empty pile at the draw": (_empty_pile_at_draw, "drawing: the draw pile is never empty"),
    "a card in two places": (_two_in_one_place, "exactly one place"),
    "a hand short of four": (_short_hand, "every seat but the one to move holds four cards"),
    "the seat to move": (_set("player", 2), "the seat to move fits the start and the turns"),
    "no start": (_set("start", -1), "a turn needs a starting seat"),
    "the round cap passed": (_set("turns", 400), "turns run below the round cap"),
    "a druid off the track": (_set("druids", [0, 1, 1, 1, 1]), "druid position must be an integer in 1..30"),
    "two druids on one space": (_shared_space, "druids share only space 1"),
    "a druid home, the game on": (_druid_at_the_end, "a druid on space 30 ends the game"),
    "winners too early": (_set("winners", [0]), "winners are named exactly when the game is over"),
    "a reason too early": (_set("reason", "because"), "a reason is given exactly when the game is over"),
    "over without winners": (_set("phase", "over"), "winners are named exactly when the game is over"),
    "a trilithon twice": (_set("trilithons", ["red", "red", "blue", "white"]), "distinct player colours"),
    "a trilithon undealt": (_set("trilithons", ["red", None, "blue", "white"]), "every trilithon card is dealt"),
    "a bad phase": (_set("phase", "nap"), "phase must be one of"),
    "pushes that miss the druids": (_pushes_do_not_add_up, "moves must add up to its space"),
    "a pile of an older filling": (_stale_pile, "the draw pile holds cards of its last filling only"),
    "more fillings than turns": (_set("fills", 99), "fills must be an integer in"),
    "two colours laid": (_mixed_colours, "the cards laid are of one colour"),
    "a last play of the wrong colour": (_last_play_colour, "a last play's colour is its cards'"),
    "a setup phase mid-game": (_set("phase", "deal hands"), "before the first turn"),
}


@pytest.mark.parametrize("name", list(BROKEN))
def test_G7_a_state_that_breaks_an_invariant_is_refused(name):
    game = _game(4)
    data = _position()
    assert game.state_from_json(json.loads(json.dumps(data))).to_json() == data
    change, message = BROKEN[name]
    change(data["state"])
    with pytest.raises(StateFormatError, match=message):
        game.state_from_json(data)


def test_G7_the_set_up_phases_are_checked_too():
    game = _game(3)
    state = game.new_initial_state()
    for text in ("draw T-red", "draw T-blue", "draw T-green", "draw 1d", "draw 2d"):
        state.apply_text(text)
    data = state.to_json()
    data["history"] = []
    assert game.state_from_json(data).to_json() == data
    bad = json.loads(json.dumps(data))
    bad["state"]["hands"][1] = [bad["state"]["draw_pile"].pop()]
    with pytest.raises(StateFormatError, match="four cards to each seat in seat order"):
        game.state_from_json(bad)
    bad = json.loads(json.dumps(data))
    bad["state"]["phase"] = "deal trilithons"
    with pytest.raises(StateFormatError, match="trilithon cards are dealt in seat order"):
        game.state_from_json(bad)
    bad = json.loads(json.dumps(data))
    bad["state"]["druids"] = [2, 1, 1, 1, 1]
    bad["state"]["pushed"][0][0] = 1
    with pytest.raises(StateFormatError, match="every druid starts on space 1"):
        game.state_from_json(bad)


def test_G7_a_finished_game_names_the_right_winners():
    game = _game(3)
    final = _random_states(game, seed=2)[-1]
    data = final.to_json()
    data["history"] = []
    assert game.state_from_json(data).to_json() == data
    wrong = [seat for seat in range(3) if seat not in final.winners][:1]
    data["state"]["winners"] = wrong
    with pytest.raises(StateFormatError, match=r"the winners must be seats"):
        game.state_from_json(data)


def test_records_of_another_version_are_refused_naming_both():
    game = _game(3)
    record = henge.play(game, ["random"] * 3, seed=1)
    record["version"] = "0.9.0"
    version = game.info.version
    with pytest.raises(ValueError, match=f"stonerush version 0.9.0; this henge plays version {version}"):
        henge.replay(record)
