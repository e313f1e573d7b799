"""Druid Olympics: what each seat knows (G3, G6), exact resampling, and loaded states (G7).

Positions with a real history are reached by forcing the chance outcomes with
``apply_text`` (``draw 6d``, ``first seat 0``), so the record and the resampler see
every draw; crafted positions (an empty history) have no record.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from itertools import combinations
from typing import Any

import pytest
from druid_olympics_positions import druid_olympics_position as position

import henge
from henge import box
from henge.core import State, StateFormatError, canonical_state
from henge.games.druid_olympics import board, rules
from henge.games.druid_olympics.rules import DruidOlympicsState

GAME = "druid_olympics"
DEAL = (("6d", "7n", "20d"), ("24n", "24d", "25n"), ("25d", "26n", "26d"))
_CARD = re.compile(r"\b(?:\d{1,2}[nd]|T-[a-z]+)\b")


def dealt(deal: tuple[tuple[str, ...], ...] = DEAL, first: int = 0) -> DruidOlympicsState:
    """Returns the state after dealing ``deal`` (seat by seat, in order) and choosing the first seat."""
    state = henge.load(GAME, len(deal)).new_initial_state()
    for hand in deal:
        for card in hand:
            state.apply_text(f"draw {card}")
    state.apply_text(f"first seat {first}")
    assert isinstance(state, DruidOlympicsState)
    return state


def play(state: State, *actions: str) -> State:
    for action in actions:
        state.apply_text(action)
    return state


def first_turn() -> DruidOlympicsState:
    """Seat 0 bars numbered 13 (6d 7n) and moves with 20d; seat 1 moves with 24n; seat 2 passes;
    then seat 0 draws 1n 1d 2n and seat 1 draws 2d. Turn 2 begins."""
    state = dealt()
    play(state, "bar on numbered 13", "use 6d", "use 7n", "pass", "pass")  # the blocking round
    play(state, "move 20d", "move 24n", "pass")  # the moving round
    play(state, "draw 1n", "draw 1d", "draw 2n", "draw 2d")
    assert state.observation(None)["phase"] == "block" and state.observation(None)["turn"] == 2
    return state


def replayed(state: State) -> State:
    """Replays ``state``'s history from the start, every action checked for legality."""
    again = state.game.new_initial_state()
    for action in state.history():
        again.apply_action(action)
    assert again.to_json() == state.to_json()
    return again


def draws(state: State) -> list[tuple[int, int, str]]:
    """Returns (history index, seat, card) of every card drawn in ``state``'s history."""
    found = []
    again = state.game.new_initial_state()
    for index, action in enumerate(state.history()):
        if again.observation(None)["phase"] in ("deal", "draw"):
            assert isinstance(again, DruidOlympicsState)
            found.append((index, again.player, box.CARD_TEXT[action]))
        again.apply_action(action)
    return found


# --- the record (G6) ---------------------------------------------------------------------


def test_G6_the_record_shows_each_draw_to_its_drawer_only_and_every_decision_to_everyone():
    state = first_turn()
    mine = state.information_state(0)
    theirs = state.information_state(1)
    public = state.information_state(None)
    assert mine[:4] == [[-1, "seat 0 draws 6d"], [-1, "seat 0 draws 7n"], [-1, "seat 0 draws 20d"]] + [
        [-1, "seat 1 draws a card"]
    ]
    assert theirs[:4] == [[-1, "seat 0 draws a card"]] * 3 + [[-1, "seat 1 draws 24n"]]
    assert public[:9] == [[-1, f"seat {seat} draws a card"] for seat in range(3) for _ in range(3)]
    assert public[9:20] == [
        [-1, "seat 0 goes first"],
        [0, "bar on numbered 13"],
        [0, "use 6d"],
        [0, "use 7n"],
        [0, "places bar on numbered 13 with 6d 7n"],
        [1, "pass"],
        [2, "pass"],
        [0, "move 20d"],
        [0, "moves with 20d: coloured 1 -> coloured 2"],
        [1, "move 24n"],
        [1, "moves with 24n: coloured 1 -> coloured 6"],
    ]
    assert public[20:] == [[2, "pass"]] + [[-1, "seat 0 draws a card"]] * 3 + [[-1, "seat 1 draws a card"]]
    assert mine[-4:] == [[-1, "seat 0 draws 1n"], [-1, "seat 0 draws 1d"], [-1, "seat 0 draws 2n"]] + [
        [-1, "seat 1 draws a card"]
    ]
    # Every seat reads the same events, in the same order: only the texts of its own draws differ.
    assert len(mine) == len(theirs) == len(public) == len(state.information_state(2))


def test_G6_no_seat_reads_a_card_it_has_not_seen():
    game = henge.load(GAME, 4)
    states = henge.replay(henge.play(game, ["random"] * 4, seed=5))
    final = states[-1]
    laid = {c for event in final.information_state(None) for c in _CARD.findall(event[1])}
    for seat in range(4):
        own = {c for state in states for c in (state.observation(seat)["hand"] or [])}
        read = {c for event in final.information_state(seat) for c in _CARD.findall(event[1])}
        assert read <= laid | own, f"seat {seat} reads {sorted(read - laid - own)}"
        mine = [t for _, t in final.information_state(seat) if t.startswith(f"seat {seat} draws ")]
        assert mine and f"seat {seat} draws a card" not in mine  # its own draws, with their cards


def test_G6_lost_turns_reshuffles_and_the_end_are_in_everyones_record():
    game = henge.load(GAME, 3)
    states = henge.replay(henge.play(game, ["random"] * 3, seed=2))
    public = [text for _, text in states[-1].information_state(None)]
    assert any(re.fullmatch(r"the discard pile \(\d+ cards\) is shuffled into the draw pile", t) for t in public)
    assert any(t.startswith("loses turn ") for t in public)
    assert any(re.fullmatch(r"ends on a block on .* and loses [12] turn\(s\)", t) for t in public)
    winner = states[-1].observation(None)["winners"][0]
    assert states[-1].information_state(None)[-1] == [winner, "reaches the altar stone and wins"]


def test_G3_a_bluestone_trilithon_lays_the_sacrificed_cards_in_no_hidden_order():
    """Finding: the two sacrificed cards were laid in the order the hand held them, which is
    the order they were drawn (hidden); the discard pile and the record showed it."""
    seen = []
    for hand in (["T-red", "19n", "4n"], ["T-red", "4n", "19n"]):
        hands = [hand, ["24n", "24d", "25n"], ["25d", "26n", "26d"]]
        state = position(phase="block", hands=hands)
        state.apply_text("trilithon red on bluestones 4-6")
        seen.append((state.observation(1), state.observation(None), state.information_state(1)))
    assert seen[0] == seen[1]
    assert seen[0][1]["discard_pile"] == ["T-red", "4n", "19n"]


# --- the knowledge in the observation -------------------------------------------------------


def test_G6_the_observation_groups_the_unseen_cards_by_the_pile_they_came_from():
    state = first_turn()
    unseen = state.observation(0)["unseen"]
    assert len(unseen) == 1
    group = unseen[0]
    held = {"1n", "1d", "2n"}  # seat 0's hand; 6d 7n 20d 24n are face up in the discard pile
    assert set(group["cards"]) == set(box.CARD_TEXT) - held - {"6d", "7n", "20d", "24n"}
    assert group["hands"] == [0, 3, 3] and group["draw_pile"] == 65 - 9 - 4
    assert sum(group["hands"]) + group["draw_pile"] == len(group["cards"])


def test_G6_a_card_from_an_earlier_pile_is_known_to_be_in_a_hand_and_resamples_keep_it_there():
    """After a reshuffle the cards still held from the earlier pile are in hands, never in the
    new draw pile; every one of them can be in the hand of any seat that holds one."""
    game = henge.load(GAME, 3)
    rng = random.Random(8)
    checked = 0
    for state in henge.replay(henge.play(game, ["random"] * 3, seed=4)):
        if state.is_terminal():
            continue
        for seat in range(3):
            old = [g for g in state.observation(seat)["unseen"] if not g["draw_pile"]]
            groups = [g for g in old if len(g["cards"]) > 1 and sum(h > 0 for h in g["hands"]) > 1]
            if not groups or checked >= 3:
                continue
            checked += 1
            places: set[tuple[str, int]] = set()
            for _ in range(400):
                sample = state.resample_from_infostate(seat, rng)
                hands = sample.to_json()["state"]["hands"]
                for group in groups:
                    for other, count in enumerate(group["hands"]):
                        mine = [c for c in hands[other] if c in group["cards"]]
                        assert len(mine) == count
                        places.update((c, other) for c in mine)
            for group in groups:
                expected = {(c, other) for c in group["cards"] for other, k in enumerate(group["hands"]) if k}
                assert expected <= places
    assert checked == 3


# --- exact resampling (G6) -------------------------------------------------------------------


def test_G6_a_card_another_seat_later_lays_reaches_its_hand_before_and_only_then():
    """Seat 1 laid 24n in turn 1: 24n came with one of its three dealt cards, never with
    the card it drew after laying it; each of the three is possible."""
    state = first_turn()
    rng = random.Random(1)
    slots = Counter()
    for _ in range(120):
        sample = state.resample_from_infostate(0, rng)
        replayed(sample)
        found = [(index, seat) for index, seat, card in draws(sample) if card == "24n"]
        assert len(found) == 1 and found[0][1] == 1
        slots[found[0][0]] += 1
    assert set(slots) == {3, 4, 5}  # seat 1's dealt cards are history steps 3, 4 and 5


def test_G6_a_card_the_seat_draws_later_is_in_nobody_elses_hand_before():
    state = first_turn()
    rng = random.Random(2)
    later = {"1n", "1d", "2n"}  # seat 0 drew these at the end of turn 1
    for _ in range(200):
        sample = state.resample_from_infostate(0, rng)
        for _, seat, card in draws(sample):
            assert seat == 0 or card not in later, f"seat {seat} is dealt {card}, which seat 0 drew later"
    assert state.observation(0)["hand"] == ["1n", "1d", "2n"]


def test_G6_resamples_keep_the_real_state_and_replay_to_the_same_record_for_the_seat():
    state = first_turn()
    before = state.to_json()
    rng = random.Random(3)
    for seat in range(3):
        for _ in range(20):
            sample = state.resample_from_infostate(seat, rng)
            again = replayed(sample)
            assert again.information_state(seat) == state.information_state(seat)
            assert sample.information_state_string(seat) == state.information_state_string(seat)
    assert state.to_json() == before


def test_G6_after_reshuffles_each_card_is_drawn_again_only_from_the_pile_it_was_shuffled_into():
    """A card laid, reshuffled and laid again was drawn the second time from the new pile: the
    resampled history is legal and shows the seat the same, late in a game as early."""
    game = henge.load(GAME, 4)
    states = henge.replay(henge.play(game, ["random"] * 4, seed=3))
    late = [s for s in states if s.to_json()["state"]["reshuffles"] >= 2]
    assert late, "no second reshuffle in this game"
    rng = random.Random(7)
    for state in late[:: max(1, len(late) // 4)]:
        for seat in range(4):
            sample = state.resample_from_infostate(seat, rng)
            assert replayed(sample).information_state(seat) == state.information_state(seat)
            assert sample.observation(seat) == state.observation(seat)


def _paying() -> tuple[DruidOlympicsState, list[frozenset[str]]]:
    """Seat 0 has chosen a bar on numbered 13 and laid 6d; the hands it may hold, for seat 1."""
    state = dealt()
    play(state, "bar on numbered 13", "use 6d")
    target = board.parse_target("bar on numbered 13")
    table = [box.parse_card("6d")]
    pool = [c for c in box.FULL_DECK if box.CARD_TEXT[c] not in {"24n", "24d", "25n", "6d"}]
    hands = [
        frozenset(box.CARD_TEXT[c] for c in pair)
        for pair in combinations(pool, 2)
        if board.completions(target, list(pair), table)
    ]
    return state, hands


def _paying_samples(count: int, rng: random.Random) -> tuple[Counter[frozenset[str]], list[frozenset[str]]]:
    state, possible = _paying()
    seen: Counter[frozenset[str]] = Counter()
    for _ in range(count):
        sample = state.resample_from_infostate(1, rng)
        hand = frozenset(sample.observation(0)["hand"])
        assert hand in possible, f"seat 0 cannot finish paying with {sorted(hand)}"
        assert sample.legal_action_texts() and all(t.startswith("use ") for t in sample.legal_action_texts())
        seen[hand] += 1
    return seen, possible


def test_G6_while_a_block_is_paid_every_hand_that_can_finish_it_and_no_other_is_resampled():
    """Everyone knows the blocker's hand can finish paying (the target was legal, each card laid
    too): the support is every such hand, and each is as likely (every one is reached by as
    many histories)."""
    seen, possible = _paying_samples(25 * 129, random.Random(4))
    assert len(possible) == 129 and set(seen) == set(possible)  # a 7 and any card, or 1+6, 2+5, 3+4
    chi2 = sum((n - 25) ** 2 / 25 for n in seen.values())
    assert chi2 < 128 + 5 * (2 * 128) ** 0.5  # 128 degrees of freedom: within 5 standard deviations


def test_G6_after_many_refused_deals_the_hands_that_can_pay_are_counted_exhaustively(monkeypatch):
    monkeypatch.setattr(rules, "_RESAMPLE_TRIES", 0)
    seen, _ = _paying_samples(200, random.Random(5))
    assert len(seen) > 80  # 200 uniform draws among 129 hands show about 104 of them


def test_G3_twins_that_differ_only_in_hidden_cards_have_the_same_canonical_state():
    state, _ = _paying()
    for seat in (1, 2):
        for k in range(5):
            twin = state.resample_from_infostate(seat, random.Random(k))
            assert canonical_state(twin, seat).to_json() == canonical_state(state, seat).to_json()
    later = first_turn()
    twin = later.resample_from_infostate(2, random.Random(9))
    assert twin.to_json() != later.to_json()
    assert canonical_state(twin, 2).to_json() == canonical_state(later, 2).to_json()


def test_G6_a_state_loaded_with_its_history_resamples_like_the_original():
    state = first_turn()
    loaded = state.game.state_from_json(json.loads(json.dumps(state.to_json())))
    assert loaded.information_state(1) == state.information_state(1)
    for seat in range(3):
        ours = state.resample_from_infostate(seat, random.Random(seat))
        theirs = loaded.resample_from_infostate(seat, random.Random(seat))
        assert ours.to_json() == theirs.to_json()


def test_G6_a_state_loaded_without_history_is_redealt_within_what_the_seat_knows():
    state = position(phase="move", hands=[["6d", "7n", "20d"], ["24n", "24d", "25n"], ["25d", "26n", "26d"]])
    assert state.information_state(0) == []
    rng = random.Random(6)
    hands = set()
    for _ in range(30):
        sample = state.resample_from_infostate(0, rng)
        assert sample.observation(0) == state.observation(0)
        assert sample.observation(None) == state.observation(None)
        hands.add(tuple(sample.to_json()["state"]["hands"][1]))
    assert len(hands) > 1


# --- loaded states (G7) ----------------------------------------------------------------------


def _fields(state: State) -> dict[str, Any]:
    data = json.loads(json.dumps(state.to_json()))
    data["history"] = []
    return data


def _refused(good: dict[str, Any], message: str, **changes: Any) -> None:
    data = json.loads(json.dumps(good))
    if "hands" in changes and "hand_reshuffles" not in changes:  # nothing reshuffled in these positions
        changes["hand_reshuffles"] = [[0] * len(hand) for hand in changes["hands"]]
    data["state"].update(changes)
    with pytest.raises(StateFormatError, match=message):
        henge.load(GAME, len(data["state"]["hands"])).state_from_json(data)


def test_G7_a_real_position_loads_without_its_history():
    for state in henge.replay(henge.play(henge.load(GAME, 4), ["random"] * 4, seed=6))[::23]:
        loaded = state.game.state_from_json(_fields(state))
        assert loaded.to_json()["state"] == state.to_json()["state"]


def test_G7_cards_hands_and_the_deal_are_checked():
    good = _fields(first_turn())
    hands = good["state"]["hands"]
    _refused(good, "exactly one place", hands=[[*hands[0][:2], "30d"], hands[1], hands[2]])
    _refused(good, "at most three", hands=[hands[0] + ["30d"], hands[1], hands[2]])
    _refused(good, "hand_reshuffles", hand_reshuffles=[[0, 0], [0, 0, 0], [0, 0, 0]])
    _refused(good, "hand_reshuffles must be an integer in 0..0", hand_reshuffles=[[0, 0, 1], [0, 0, 0], [0, 0, 0]])
    _refused(good, "order drawn", reshuffles=1, hand_reshuffles=[[1, 0, 1], [0, 0, 0], [0, 0, 0]])
    deal = _fields(dealt())
    deal["state"].update(phase="deal", first=-1, turn=0, player=2)
    _refused(deal, "three cards to each seat")
    deal["state"].update(hands=[[], [], []], hand_reshuffles=[[], [], []], draw_pile=list(box.CARD_TEXT))
    _refused(deal, "three cards to each seat")
    start = _fields(dealt())
    start["state"].update(phase="choose first", first=-1, turn=0, player=2)
    _refused(start, "no block is placed", bars=["coloured 5", None, None])
    _refused(start, "every runner is on coloured 1", runners=["coloured 3", "coloured 1", "coloured 1"])
    _refused(start, "has reshuffled", reshuffles=1)
    _refused(start, "once the last seat is dealt", player=0)


def test_G7_phases_counters_and_turns_are_checked():
    good = _fields(first_turn())
    _refused(good, "counted from 1", turn=0)
    _refused(good, "first player is chosen after the deal", first=-1)
    _refused(good, "without having moved onto a block", lost_turns=[0, 0, 1])
    _refused(good, "at most one more turn", skipping=[False, True, False], lost_turns=[0, 2, 0], player=0)
    _refused(good, "lost_turns must be an integer in 0..2", lost_turns=[0, 3, 0])
    _refused(good, "does not act", skipping=[True, False, False], lost_turns=[0, 0, 0])
    state = play(first_turn(), "pass", "bar on numbered 2", "use 2d", "pass")  # seat 1 holds two cards
    assert (state.observation(None)["phase"], state.current_player()) == ("move", 0)
    _refused(_fields(state), "holds three cards", skipping=[False, True, False], lost_turns=[0, 0, 0])
    blocking = _fields(play(first_turn(), "bar on numbered 2", "use 1n"))
    assert blocking["state"]["phase"] == "block cards"
    assert blocking["state"]["hands"][0] == ["1d", "2n"]
    discard = blocking["state"]["discard_pile"] + ["2n"]
    _refused(blocking, "hand of three", hands=[["1d"], *blocking["state"]["hands"][1:]], discard_pile=discard)


def test_G7_drained_runners_draws_and_the_end_are_checked():
    good = _fields(first_turn())
    _refused(good, "without a trilithon on the bluestones", drained=[False, True, False])
    tri = ["trilithon white on bluestones 4-6", None, None, None, None]
    _refused(good, "sacrificed its whole hand", drained=[False, True, False], trilithons=tri)
    state = dealt()
    play(state, "pass", "pass", "pass", "move 6d", "move 24n", "pass")
    assert (state.observation(None)["phase"], state.current_player()) == ("draw", -1)
    play(state, "draw 1n")
    drawing = _fields(state)
    assert drawing["state"]["player"] == 1 and drawing["state"]["hands"][0] == ["7n", "20d", "1n"]
    hands = [["7n", "20d"], *drawing["state"]["hands"][1:]]
    pile = drawing["state"]["draw_pile"] + ["1n"]
    _refused(drawing, "before the drawer hold three", hands=hands, draw_pile=pile)
    over = _fields(first_turn())
    over["state"].update(phase="over", winners=[1], reason="won")
    _refused(over, "only at the round cap")
    over["state"].update(turn=200, winners=[0])
    _refused(over, "furthest along win")
    over["state"].update(winners=[0, 1, 0])
    _refused(over, "each seat once")


# --- saved records ---------------------------------------------------------------------------


def test_a_record_of_another_version_is_refused_naming_both_versions():
    game = henge.load(GAME, 3)
    record = henge.play(game, ["random"] * 3, seed=1)
    record["version"] = "0.9.0"
    with pytest.raises(ValueError, match=r"version 0\.9\.0.*version 1\.0\.0"):
        henge.replay(record)
