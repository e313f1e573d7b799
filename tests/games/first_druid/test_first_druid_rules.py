"""Scenario tests for First Druid: one per rule clause, and one named after each ruling FD1-FD13."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import henge
from henge import box
from henge.core import CHANCE, IllegalActionError
from henge.games.first_druid.rules import FirstDruidState

GAME = "first_druid"


def position(n: int = 3, *, colours: str = "cycle", **fields: Any) -> FirstDruidState:
    """Returns a crafted position: a turn of seat 0 on 1 night unless ``fields`` say otherwise.

    Cards not placed anywhere by ``fields`` make up the deck (or, when ``draw_pile``
    is given, the discard pile).
    """
    game = henge.load(GAME, n, colours=colours)
    data = game.new_initial_state().to_json()
    state = data["state"]
    state.update(phase="turn", stage="turns", player=0, first=0, turn=0, draw_count=0, draw_seat=0)
    state["hands"] = [[] for _ in range(n)]
    state["knowledge"] = None  # a position given without its history: each seat knows its own hand
    state.update(fields)
    placed = {c for key in ("hands", "bids") for h in state[key] for c in h}
    placed |= set(state["discard_pile"]) | set(state["table"]) | set(state["turned"])
    _first_player(state, game.new_initial_state().colours, placed, given="first" in fields)
    if "player" not in fields and state["phase"] == "turn":
        state["player"] = (state["first"] + state["turn"]) % n
    if state["element"]:
        placed.add(state["element"])
    deck = [box.CARD_TEXT[c] for c in henge.load(GAME, n, colours=colours).new_initial_state().deck]
    if "draw_pile" in fields:
        placed |= set(fields["draw_pile"])
        state["discard_pile"] = state["discard_pile"] + [t for t in deck if t not in placed]
    else:
        state["draw_pile"] = [t for t in deck if t not in placed]
    loaded = game.state_from_json(data)
    assert isinstance(loaded, FirstDruidState)
    return loaded


def _first_player(state: dict[str, Any], colours: tuple[int, ...], placed: set[str], *, given: bool) -> None:
    """FD8, G7: the first player is the seat of the day's colour; failing one, an element card
    of the first player's colour lies out (a number card of that colour nobody holds)."""
    if state["stage"] != "turns":
        return  # during the refresh and the contest, the first player is the ended round's
    number = state["neutral"] // 2 + 1
    colour = box.colour_index(number)
    if colour in colours:
        if not given:
            state["first"] = colours.index(colour)
    elif state["element"] is None and state["phase"] != "element":
        wanted = colours[state["first"]]
        for c in box.NUMBER_CARDS:
            if box.CARD_COLOUR[c] == wanted and box.CARD_TEXT[c] not in placed:
                state["element"] = box.CARD_TEXT[c]
                break


def dealt(n: int, hands: list[list[str]], colours: str = "cycle") -> FirstDruidState:
    """Returns a real game just after the deal (five cards to each seat in turn, these): the
    white seat's turn on 1 night. Its history is real, so every seat has a record (G6)."""
    state = henge.load(GAME, n, colours=colours).new_initial_state()
    assert isinstance(state, FirstDruidState)
    for hand_texts in hands:
        play(state, *(f"draw {t}" for t in hand_texts))
    return state


def texts(state: FirstDruidState) -> list[str]:
    return state.legal_action_texts()


def picks(state: FirstDruidState) -> set[str]:
    return {t for t in texts(state) if t.startswith("pick ")}


def play(state: FirstDruidState, *actions: str) -> None:
    for action in actions:
        state.apply_text(action)


def obs(state: FirstDruidState, seat: int | None = 0) -> dict[str, Any]:
    return state.observation(seat)


def hand(state: FirstDruidState, seat: int) -> list[str]:
    return sorted(box.CARD_TEXT[c] for c in state.hands[seat])


# --- set-up and time ---------------------------------------------------------------


def test_FD1_colours_and_deck():
    state = henge.load(GAME, 3).new_initial_state()
    deals = [t.removeprefix("draw ") for t in state.legal_action_texts()]
    assert len(deals) == 63 and {"T-white", "T-blue", "T-green"} <= set(deals) and "T-red" not in deals
    assert state.observation(None)["colours"] == ["white", "blue", "green"]
    chosen = henge.load(GAME, 3, colours="red,blue,white").new_initial_state()
    deals = [t.removeprefix("draw ") for t in chosen.legal_action_texts()]
    assert {d for d in deals if d.startswith("T-")} == {"T-red", "T-blue", "T-white"}
    assert chosen.observation(2)["wild"] == "T-white"
    with pytest.raises(ValueError, match="colours"):
        henge.load(GAME, 4, colours="red,blue,white")


def test_setup_deals_five_each_and_the_white_player_starts_on_1_night():
    state = henge.load(GAME, 3, colours="red,blue,white").new_initial_state()
    for card in range(15):
        play(state, f"draw {box.CARD_TEXT[card]}")
    view = obs(state, None)
    assert view["hand_sizes"] == [5, 5, 5] and view["draw_pile"] == 48
    assert view["time"] == {"number": 1, "phase": "night"} and view["day_colour"] == "white"
    assert view["druids"] == [1, 1, 1]
    assert state.current_player() == 2  # the white seat starts: 1 is a white space
    assert obs(state, 0)["hand"] == sorted(box.CARD_TEXT[c] for c in range(5))


def test_neutral_moves_one_stone_per_round_then_the_day_colour_player_starts():
    # 1 night -> 1 day (same number: no contest), then 1 day -> 2 night (contest for 1).
    state = position(3, turn=2, acted=True, hands=[["1d"], ["2d"], ["3d"]])
    play(state, "end turn")
    assert obs(state)["time"] == {"number": 1, "phase": "day"}
    play(state, "draw 10d", "draw 11d", "draw 12d")  # the refresh, in turn order
    assert hand(state, 0) == ["10d", "1d"] and hand(state, 2) == ["12d", "3d"]
    assert state.current_player() == 0 and obs(state)["phase"] == "turn"
    state = position(3, neutral=1, turn=2, acted=True, druids=[2, 2, 2], hands=[["1d"], ["2d"], ["3d"]])
    play(state, "end turn", "draw 10d", "draw 11d", "draw 12d")
    assert obs(state)["phase"] == "bid" and obs(state)["contest"]["number"] == 1
    play(state, "pass", "pass", "pass")
    view = obs(state)
    assert view["time"] == {"number": 2, "phase": "night"} and view["day_colour"] == "blue"
    assert state.current_player() == 1  # the blue seat starts round 2 night


def test_FD8_cards_are_turned_until_one_matches_and_stay_for_night_and_day():
    # Three players: white, blue, green. 4 is yellow: nobody matches.
    hands = [["1d"], ["2d"], ["3d"]]
    state = position(3, neutral=5, first=2, turn=2, acted=True, druids=[5, 5, 5], hands=hands)
    play(state, "end turn", "draw 10d", "draw 11d", "draw 12d", "pass", "pass", "pass")
    assert obs(state)["day_colour"] == "yellow" and state.is_chance_node()
    assert all(t.startswith("turn ") for t in texts(state))
    play(state, "turn 6d")  # black never matches
    play(state, "turn 5n")  # red: no red player
    assert obs(state)["turned"] == ["6d", "5n"] and state.is_chance_node()
    play(state, "turn T-blue")  # a trilithon card by its dot
    view = obs(state)
    assert state.current_player() == 1 and view["element_card"] == "T-blue" and view["turned"] == []
    assert view["discard_pile"][-2:] == ["6d", "5n"]
    # 4 day: the same card, the same first player.
    state = position(3, neutral=6, first=1, turn=2, acted=True, druids=[5, 5, 5], element="T-blue", hands=hands)
    play(state, "end turn", "draw 13d", "draw 14d", "draw 15d")
    assert obs(state)["time"] == {"number": 4, "phase": "day"}
    assert obs(state)["element_card"] == "T-blue" and state.current_player() == 1
    # 5 night: the card is discarded and the turning starts again.
    state = position(3, neutral=7, first=1, turn=2, acted=True, element="T-blue", hands=hands)
    play(state, "end turn")
    assert obs(state)["element_card"] is None and obs(state)["discard_pile"][-1] == "T-blue"


def test_additional_turn_refreshes_one_card_each_in_turn_order():
    # 3 night is green: seat 2 started the round; the refresh goes 2, 3, 0, 1.
    state = position(4, neutral=4, turn=3, acted=True, druids=[3] * 4, hands=[["1d"], ["2d"], ["3d"], ["4d"]])
    assert state.first == 2
    play(state, "end turn")
    seen = []
    while state.is_chance_node():
        before = [len(h) for h in state.hands]
        state.apply_action(state.legal_actions()[0])
        seen.append(next(s for s in range(4) if len(state.hands[s]) > before[s]))
    assert seen == [2, 3, 0, 1]
    assert [len(h) for h in state.hands] == [2, 2, 2, 2]


def test_FD5_no_draws_while_the_neutral_is_ahead_and_catching_up_restores_them():
    # The neutral moves from 3 day to 4 night: seat 1's druid on 3 is behind. Green seat 2 started
    # the round, so the refresh goes 2, (1 skipped) 0.
    state = position(3, neutral=5, turn=2, acted=True, druids=[4, 3, 5], hands=[["1d"], ["2d"], ["3d"]])
    play(state, "end turn", "draw 12d", "draw 10d")
    assert hand(state, 1) == ["2d"] and hand(state, 0) == ["10d", "1d"] and hand(state, 2) == ["12d", "3d"]
    assert obs(state)["in_contact"] == [True, False, True] and obs(state)["phase"] == "bid"
    # The inactive turn of a seat out of contact draws nothing.
    state = position(3, neutral=6, druids=[3, 4, 4], hands=[["1d"], ["2d"], ["3d"]])
    play(state, "pass")
    assert hand(state, 0) == ["1d"] and state.current_player() == 1
    # Catching up (advancing to 4) restores the draw; trades still work while behind.
    state = position(3, neutral=6, druids=[3, 4, 4], hands=[["3n", "9d"], ["2d"], ["3d"]])
    play(state, "offer seat 1", "give 9d", "ask 2d", "send offer", "accept")
    play(state, "pick 3n", "advance", "end turn")
    assert state.pos[0] == 4


def test_FD3_inactive_turn_draws_one_plus_trilithons_owned():
    owners = [0, 0, 1, -1, -1]
    state = position(3, sections=9, trilithon_owners=owners, hands=[["1d"], ["2d"], ["3d"]])
    assert "pass" in texts(state) and "end turn" not in texts(state)
    play(state, "pass")
    assert state.is_chance_node()
    play(state, "draw 10d", "draw 11d", "draw 12d")
    assert hand(state, 0) == ["10d", "11d", "12d", "1d"] and state.current_player() == 1
    # A declined offer is no action: the turn is still inactive.
    state = position(3, hands=[["1d"], ["2d"], ["3d"]])
    play(state, "offer seat 1", "give 1d", "ask 2d", "send offer", "decline")
    assert "pass" in texts(state) and "end turn" not in texts(state)
    play(state, "pass")
    assert state.is_chance_node()


def test_hand_limit_of_ten_discards_at_once():
    ten = ["1d", "2d", "3d", "4d", "5d", "6d", "7d", "8d", "9d", "10d"]
    state = position(3, hands=[ten, ["1n"], ["2n"]])
    play(state, "pass", "draw 20n")
    assert state.current_player() == 0 and obs(state)["phase"] == "discard"
    assert obs(state)["discard_owed"] == 1
    assert texts(state) == sorted((f"discard {t}" for t in [*ten, "20n"]), key=state.string_to_action)
    play(state, "discard 20n")
    assert len(state.hands[0]) == 10 and state.current_player() == 1


# --- combinations and their effects ------------------------------------------------


def test_advance_with_cards_of_the_phase_worth_at_least_the_druid_number():
    state = position(3, druids=[12, 1, 1], hands=[["11n", "12d", "3n"], ["1d"], ["2d"]])
    assert picks(state) == {"pick 11n", "pick 3n"}  # 12d is a day card on a night stone
    play(state, "pick 11n")
    assert texts(state) == ["pick 3n"]  # 11 < 12: not yet
    play(state, "pick 3n")
    assert texts(state) == ["advance"]
    play(state, "advance")
    assert state.pos[0] == 13 and texts(state) == ["offer seat 1", "offer seat 2", "end turn"]
    assert obs(state)["discard_pile"] == ["11n", "3n"]


def test_FD6_runs_pairs_sums_and_preparation_phases():
    # A run has no wrap: 30, 1, 2 is no run (30 + 1 still sums to 31).
    state = position(3, bluestones=[1], druids=[29, 1, 1], hands=[["30n", "1d", "2d"], ["2n"], ["3d"]])
    play(state, "pick 30n", "pick 1d")
    assert texts(state) == ["clan", "dress altar"]
    state = position(3, bluestones=[1], druids=[29, 1, 1], hands=[["28n", "29d", "30n", "1d"], ["2d"], ["3d"]])
    play(state, "pick 28n", "pick 29d")
    assert picks(state) == {"pick 30n"}
    play(state, "pick 30n")
    assert "convert clan" in texts(state)
    # A pair is exactly two cards of one number; mixing phases is no preparation.
    state = position(3, druids=[12, 1, 1], hands=[["12n", "12d", "7d"], ["2d"], ["3d"]])
    play(state, "pick 12d", "pick 12n")
    assert texts(state) == ["pick 7d", "dress altar", "build", "build only"]  # no advance
    # Three cards summing to 31 win a clan.
    state = position(3, druids=[29, 1, 1], hands=[["10d", "10n", "11d", "5n"], ["2d"], ["3d"]])
    play(state, "pick 10d", "pick 10n")
    assert picks(state) == {"pick 11d"}
    play(state, "pick 11d", "clan")
    assert state.clans == [0]


def test_clan_is_two_or_more_cards_summing_to_31_on_the_next_bluestone():
    state = position(3, bluestones=[1, 2], druids=[29, 1, 1], hands=[["13d", "18n", "5n"], ["2d"], ["3d"]])
    assert picks(state) == {"pick 13d", "pick 18n"}
    play(state, "pick 13d", "pick 18n")
    assert texts(state) == ["clan", "dress altar"]
    play(state, "clan")
    assert state.clans == [1, 2, 0] and obs(state)["disks_left"] == [9, 9, 9]


def test_convert_the_most_recent_clan_with_a_run_of_three():
    state = position(3, bluestones=[1, 2, 1], druids=[29, 1, 1], hands=[["4n", "5d", "6n"], ["2d"], ["3d"]])
    play(state, "pick 4n", "pick 5d", "pick 6n")
    assert texts(state) == ["convert clan"]
    play(state, "convert clan")
    assert state.clans == [1, 2, 0] and obs(state)["disks_left"] == [9, 9, 9]  # seat 1's disk goes home


def test_FD11_convert_targets_the_last_clan_or_highest_spirit_of_another():
    spirits = [-1] * 30
    spirits[2], spirits[4] = 1, 2  # spaces 3 and 5; space 6.. empty
    state = position(3, spirits=spirits, bluestones=[0], druids=[29, 1, 1], hands=[["4n", "5d", "6n"], ["2d"], ["3d"]])
    play(state, "pick 4n", "pick 5d", "pick 6n")
    assert texts(state) == ["convert spirit"]  # the last clan is seat 0's own
    play(state, "convert spirit")
    assert state.spirits[4] == 0 and state.spirits[2] == 1
    spirits[4] = 0
    state = position(3, spirits=spirits, druids=[29, 1, 1], hands=[["4n", "5d", "6n"], ["2d"], ["3d"]])
    assert picks(state) == set()  # the highest spirit is seat 0's own: no gap is filled, no target


def test_build_an_upright_and_drain_one_random_card_from_each_other_hand():
    state = position(4, druids=[29, 1, 1, 1], hands=[["9d", "9n"], ["1d", "2d"], [], ["3n"]])
    play(state, "pick 9d", "pick 9n")
    assert texts(state) == ["dress altar", "build", "build only"]
    play(state, "build")
    assert state.sections == 1 and state.is_chance_node()
    assert state.chance_outcomes() == [
        (state.string_to_action("drain 1d"), 0.5),
        (state.string_to_action("drain 2d"), 0.5),
    ]
    play(state, "drain 2d", "drain 3n")  # seat 2's hand is empty: skipped
    assert hand(state, 0) == ["2d", "3n"] and state.current_player() == 0
    assert obs(state)["trilithons"][0] == {"sections": 1, "owner": None}


def test_build_only_builds_without_draining():
    state = position(3, druids=[29, 1, 1], hands=[["9d", "9n"], ["1d"], ["3n"]])
    play(state, "pick 9d", "pick 9n", "build only")
    assert state.sections == 1 and state.current_player() == 0 and hand(state, 1) == ["1d"]


def test_capstone_completes_the_trilithon_and_its_disk_claims_it():
    state = position(3, sections=2, druids=[29, 1, 1], hands=[["9d", "9n"], ["1d"], ["3n"]])
    play(state, "pick 9d", "pick 9n", "build")
    assert state.owners[0] == 0 and obs(state)["disks_left"][0] == 9
    assert not state.is_chance_node()  # a capstone drains nothing
    state = position(3, sections=5, druids=[29, 1, 1], hands=[["9d", "9n"], ["1d"], ["3n"]])
    play(state, "pick 9d", "pick 9n", "build only")
    assert state.owners[1] == -1 and obs(state)["trilithons"][1] == {"sections": 3, "owner": None}


def test_take_over_a_trilithon_with_a_run_of_four():
    owners = [1, 2, -1, -1, -1]
    state = position(
        3, sections=7, trilithon_owners=owners, druids=[29, 1, 1], hands=[["7n", "8d", "9n", "10d"], ["1d"], ["3n"]]
    )
    play(state, "pick 7n", "pick 8d", "pick 9n", "pick 10d")
    assert texts(state) == ["take over 1", "take over 2"]
    play(state, "take over 2")
    assert state.owners == [1, 0, -1, -1, -1] and obs(state)["disks_left"] == [9, 9, 10]


def test_dress_the_altar_and_its_completion_moves_the_top_dresser_and_those_without_a_bar():
    state = position(3, altar=[0, 0], druids=[5, 1, 4], hands=[["9d", "9n"], ["1d"], ["3n"]])
    play(state, "pick 9d", "pick 9n", "dress altar")
    assert state.altar == [] and state.pos == [6, 1, 3]  # seat 1 never below 1
    assert obs(state)["bars_left"] == [10, 10, 10]
    # A tie for most bars moves nobody forward; everyone had a bar, nobody goes back.
    state = position(3, altar=[0, 1], druids=[5, 5, 5], hands=[[], [], ["13d", "18n"]], turn=2, player=2)
    play(state, "pick 13d", "pick 18n", "dress altar")
    assert state.pos == [5, 5, 5] and state.altar == []
    state = position(4, altar=[0, 1, 0], druids=[5, 5, 5, 5], hands=[[], ["9d", "9n"], ["1d"], []], turn=1, player=1)
    play(state, "pick 9d", "pick 9n", "dress altar")
    assert state.pos == [5, 5, 4, 4]


def test_FD12_altar_order_redressing_and_several_bars_a_turn():
    # Several bars in one turn; the altar can be dressed again once its bars go back.
    state = position(3, druids=[5, 5, 5], hands=[["9d", "9n", "13d", "18n", "2d", "2n", "4d"], ["1d"], ["3n"]])
    play(state, "pick 9d", "pick 9n", "dress altar", "pick 13d", "pick 18n", "dress altar")
    assert state.altar == [0, 0]
    play(state, "pick 2d", "pick 2n", "dress altar")
    assert state.altar == [] and state.pos == [6, 4, 4]
    assert "pick 4d" not in picks(state)
    # +1 and every -1 apply before the check for 30: the game ends on the completing play.
    state = position(3, altar=[0, 0], druids=[29, 1, 3], hands=[["9d", "9n"], ["1d"], ["3n"]])
    play(state, "pick 9d", "pick 9n", "dress altar")
    assert state.is_terminal() and state.pos == [30, 1, 2]


def test_FD13_drain_is_random_per_hand_known_to_taker_and_victim_only():
    hands = [
        ["9d", "9n", "20d", "21d", "22d"],
        ["1d", "2d", "3d", "23d", "24d"],
        ["4n", "25d", "26d", "27d", "28d"],
        ["5n", "6n", "29d", "30d", "11n"],
    ]
    state = dealt(4, hands)  # a real history: every seat has a record to resample from
    play(state, "pick 9d", "pick 9n", "build")
    assert [p for _, p in state.chance_outcomes()] == [pytest.approx(1 / 5)] * 5
    play(state, "drain 2d", "drain 4n", "drain 6n")
    assert obs(state, 1)["known_cards"][0] == ["2d"]  # the victim knows where it went
    assert obs(state, 2)["known_cards"][0] == ["4n"] and obs(state, 3)["known_cards"][0] == ["6n"]
    assert obs(state, 1)["known_by"] is not None and obs(state, 0)["known_by"][1] == ["2d"]
    assert obs(state, None)["known_cards"][0] == []
    assert "seat 0 drains 2d from seat 1" in obs(state, 1)["log"]
    assert "seat 0 drains a card from seat 1" in obs(state, 2)["log"]
    rng = random.Random(5)
    for _ in range(20):
        sample = state.resample_from_infostate(1, rng)
        held = {box.CARD_TEXT[c] for c in sample.hands[0]}
        assert "2d" in held and sample.observation(1) == obs(state, 1)
    moved = {tuple(sorted(state.resample_from_infostate(2, rng).hands[0])) for _ in range(30)}
    assert len(moved) > 1
    # Whoever exceeds ten chooses the discards at once.
    ten = ["1n", "2n", "3n", "4n", "5n", "6n", "7n", "8n", "9d", "9n"]
    state = position(4, druids=[29, 1, 1, 1], hands=[ten, ["1d"], ["2d"], ["3d"]])
    play(state, "pick 9d", "pick 9n", "build", "drain 1d", "drain 2d", "drain 3d")
    assert obs(state)["phase"] == "discard" and obs(state)["discard_owed"] == 1


# --- trades ---------------------------------------------------------------------------


def test_FD2_offers_accepted_or_declined_by_the_other_player():
    state = position(3, hands=[["3d", "4d"], ["20n", "21n"], ["1n"]])
    assert "offer seat 1" in texts(state) and "offer seat 2" in texts(state)
    play(state, "offer seat 1")
    assert "send offer" not in texts(state) and "give 3d" in texts(state) and "ask 20n" in texts(state)
    assert "ask 3d" not in texts(state)  # own cards are not asked for
    play(state, "give 3d", "ask 20n")
    assert obs(state, 0)["offer"] == {"from": 0, "to": 1, "give": ["3d"], "ask": ["20n"]}
    assert obs(state, 1)["offer"] is None and obs(state, 2)["offer"] is None  # FD15: not made yet
    play(state, "send offer")
    assert obs(state, 2)["offer"] == {"from": 0, "to": 1, "give": ["3d"], "ask": ["20n"]}
    assert state.current_player() == 1 and texts(state) == ["accept", "decline"]
    play(state, "accept")
    assert hand(state, 0) == ["20n", "4d"] and hand(state, 1) == ["21n", "3d"]
    assert obs(state, 2)["known_cards"][0] == ["20n"] and obs(state, 2)["known_cards"][1] == ["3d"]
    assert "end turn" in texts(state) and "pass" not in texts(state)


def test_FD2_only_a_holder_of_every_named_card_may_accept_and_a_refusal_reveals_nothing():
    state = position(3, hands=[["3d", "4d"], ["20n", "21n"], ["1n"]])
    play(state, "offer seat 1", "give 3d", "ask 20n", "ask 22n", "send offer")
    assert texts(state) == ["decline"]
    play(state, "decline")
    assert hand(state, 1) == ["20n", "21n"] and obs(state, 2)["known_cards"][1] == []
    assert obs(state, 2)["known_cards"][0] == ["3d"]  # the offer showed it
    assert "seat 0 offers seat 1 3d for 20n 22n: declined" in obs(state, 2)["log"]


def test_FD2_at_most_three_offers_a_turn():
    state = position(3, hands=[["3d", "4d"], ["20n", "21n"], ["1n"]])
    for _ in range(3):
        play(state, "offer seat 2", "give 4d", "ask 1d", "send offer", "decline")
    assert not any(t.startswith("offer") for t in texts(state))
    assert texts(state)[-1] == "pass"


def test_FD2_trades_can_push_the_receiver_over_ten():
    ten = ["1d", "2d", "3d", "4d", "5d", "6d", "7d", "8d", "9d", "10d"]
    state = position(3, hands=[["3n", "4n"], ten, ["1n"]])
    play(state, "offer seat 1", "give 3n", "give 4n", "ask 1d", "send offer", "accept")
    assert obs(state)["phase"] == "discard" and state.current_player() == 1
    play(state, "discard 4n")
    assert state.current_player() == 0 and obs(state)["phase"] == "turn"


def test_FD2_offers_go_to_a_non_empty_hand_and_name_cards_not_seen_elsewhere():
    state = position(3, hands=[["3d"], [], ["1n"]], discard_pile=["5d"])
    assert "offer seat 1" not in texts(state) and "offer seat 2" in texts(state)
    play(state, "offer seat 2", "give 3d")
    asks = {t for t in texts(state) if t.startswith("ask ")}
    assert "ask 1n" in asks and "ask 3d" not in asks and "ask 5d" not in asks and "ask T-red" not in asks
    play(state, "ask 1n")
    assert not any(t.startswith("ask ") for t in texts(state))  # seat 2 holds one card: ask at most one


def test_bots_make_and_answer_offers():
    game = henge.load(GAME, 3)
    record = henge.play(game, ["random"] * 3, seed=4)
    assert "send offer" in record["texts"] and "accept" in record["texts"] and "decline" in record["texts"]


def contest(n: int, number: int, hands: list[list[str]], **fields: Any) -> FirstDruidState:
    return position(n, phase="bid", stage="contest", contest=number, neutral=2 * number, hands=hands, **fields)


# --- the wild trilithon card ------------------------------------------------------------


def test_FD4_own_trilithon_card_is_wild_in_every_combination():
    state = position(
        3, druids=[29, 1, 1], bluestones=[1], hands=[["T-white", "T-blue", "9d", "5d", "7n"], ["1d"], ["3n"]]
    )
    found = picks(state)
    assert {"pick wild 9", "pick wild 6", "pick wild 22", "pick wild 29"} <= found  # pair, run, sum, advance
    assert not any("T-blue" in t for t in texts(state))  # others' trilithon cards play no part
    play(state, "pick 5d", "pick wild 6", "pick 7n")
    assert texts(state) == ["convert clan"]
    play(state, "convert clan")
    assert "T-white" in obs(state)["discard_pile"]
    # As an advance: named in the neutral's phase and any number up to 30.
    state = position(3, druids=[25, 1, 1], hands=[["T-white"], ["1d"], ["3n"]])
    assert picks(state) == {f"pick wild {v}" for v in range(25, 31)}
    play(state, "pick wild 30", "advance")
    assert state.pos[0] == 26
    # The wild card may stand for a card that does not exist: a blue 30 in the contest for 2.
    state = contest(3, 2, [["T-white"], ["26n"], []])
    play(state, "bid T-white", "seal bid", "bid 26n", "seal bid", "pass")
    assert obs(state)["last_contest"]["values"] == [30, 26, 0] and state.spirits[1] == 0
    # Other trilithon cards can be traded.
    state = position(3, hands=[["T-blue"], ["1d"], ["3n"]])
    play(state, "offer seat 1", "give T-blue", "ask 1d", "send offer", "accept")
    assert hand(state, 1) == ["T-blue"]


# --- spirits ---------------------------------------------------------------------------


def test_FD9_sealed_bids_element_advantage_and_the_spirit_placed():
    # The contest for 2 (blue): seat 1 is blue, so all its cards count.
    state = contest(3, 2, [["2d", "8n", "9n"], ["3d", "5n"], ["1d"]])
    play(state, "bid 2d", "bid 8n", "bid 9n", "seal bid")
    assert obs(state, 1)["contest"]["bid_sizes"] == [3, 0, 0] and obs(state, 1)["contest"]["bid"] == []
    assert obs(state, 0)["contest"]["bid"] == ["2d", "8n", "9n"]
    play(state, "bid 3d", "bid 5n", "seal bid", "bid 1d", "seal bid")
    last = obs(state)["last_contest"]
    assert last["values"] == [10, 8, 0] and last["winner"] == 0 and last["placed"]
    assert state.spirits[1] == 0 and obs(state)["spirits"][1] == 0
    assert set(obs(state)["discard_pile"]) >= {"2d", "8n", "9n", "3d", "5n", "1d"}
    assert all(not b for b in state.bids) and not state.contest


def test_FD9_the_element_player_wins_with_any_colour():
    state = contest(3, 2, [["2d"], ["3d", "5n"], []])
    play(state, "bid 2d", "seal bid", "bid 3d", "bid 5n", "seal bid", "pass")
    assert obs(state)["last_contest"]["winner"] == 1 and state.spirits[1] == 1


def test_FD9_ties_and_empty_bids_place_nothing():
    state = contest(3, 2, [["2d"], ["2n"], []])
    play(state, "bid 2d", "seal bid", "bid 2n", "seal bid", "pass")
    assert obs(state)["last_contest"]["winner"] is None and state.spirits[1] == -1
    state = contest(3, 2, [["2d"], ["2n"], []])
    play(state, "pass", "pass", "pass")
    assert state.spirits[1] == -1 and obs(state)["last_contest"]["values"] == [0, 0, 0]
    # A bid with no card of the colour is worth 0 and wins nothing.
    state = contest(3, 2, [["1d"], [], []])
    play(state, "bid 1d", "seal bid", "pass", "pass")
    assert state.spirits[1] == -1


def test_FD9_bidding_follows_the_turn_order_of_the_round_and_wild_counts_30():
    # Black 6: nobody has the advantage; seat 2 started the round. Only black cards count.
    state = contest(3, 6, [["T-white", "T-blue"], ["6n"], ["12d", "1d"]], first=2, player=2)
    assert state.current_player() == 2
    play(state, "bid 12d", "bid 1d", "seal bid")
    assert state.current_player() == 0
    play(state, "bid T-white", "bid T-blue", "seal bid", "bid 6n", "seal bid")
    assert obs(state)["last_contest"]["values"] == [30, 6, 12] and state.spirits[5] == 0


def test_spirit_contest_follows_the_refresh_after_each_day():
    state = position(3, neutral=3, turn=2, acted=True, druids=[3, 3, 3], hands=[["1d"], ["2d"], ["3d"]])
    play(state, "end turn")
    assert obs(state)["contest"]["number"] == 2 and state.is_chance_node()
    play(state, "draw 10d", "draw 11d", "draw 12d")
    assert obs(state)["phase"] == "bid" and state.current_player() == 1  # blue seat 1 started 2 day


# --- limits, the end, scoring ----------------------------------------------------------------


def test_FD10_pieces_and_places_run_out():
    # Five trilithons owned: only five disks left for clans (the text's warning).
    owners = [0] * 5
    state = position(
        3,
        sections=15,
        trilithon_owners=owners,
        bluestones=[0] * 5,
        druids=[29, 1, 1],
        hands=[["13d", "18n", "9d", "9n"], ["1d"], ["3n"]],
    )
    assert obs(state)["disks_left"][0] == 0
    play(state, "pick 13d", "pick 18n")
    assert texts(state) == ["dress altar"]  # no disk, no clan
    play(state, "dress altar", "pick 9d", "pick 9n")
    assert texts(state) == ["dress altar"]  # all 15 sections built: a pair only dresses the altar
    # Ten spirits: no bar for the altar, and a won contest places nothing.
    spirits = [0] * 10 + [-1] * 20
    state = position(3, spirits=spirits, druids=[29, 1, 1], hands=[["9d", "9n"], ["1d"], ["3n"]])
    play(state, "pick 9d", "pick 9n")
    assert texts(state) == ["build", "build only"]
    state = contest(3, 12, [["12d"], [], []], spirits=spirits)
    play(state, "bid 12d", "seal bid", "pass", "pass")
    assert obs(state)["last_contest"]["winner"] == 0 and not obs(state)["last_contest"]["placed"]
    assert state.spirits[11] == -1
    # Nineteen bluestones: no clan. No disk: a capstone is built unowned.
    state = position(3, bluestones=[1, 2] * 9 + [1], druids=[29, 1, 1], hands=[["13d", "18n"], ["1d"], ["3n"]])
    play(state, "pick 13d", "pick 18n")
    assert texts(state) == ["dress altar"]
    state = position(3, sections=2, bluestones=[0] * 10, druids=[29, 1, 1], hands=[["9d", "9n"], ["1d"], ["3n"]])
    play(state, "pick 9d", "pick 9n")
    assert texts(state) == ["dress altar", "build"]
    play(state, "build")
    assert state.owners[0] == -1


def test_FD7_the_game_ends_when_a_druid_reaches_30_mid_turn():
    state = position(3, druids=[29, 3, 3], hands=[["29n", "5d"], ["1d"], ["3n"]])
    play(state, "pick 29n", "advance")
    assert state.is_terminal()
    assert obs(state)["winners"] == [0] and state.returns() == [1.0, 0.0, 0.0]
    with pytest.raises(IllegalActionError):
        state.apply_text("end turn")


def test_FD7_the_game_ends_when_the_neutral_would_pass_30_day_without_a_contest():
    state = position(3, neutral=59, turn=2, acted=True, druids=[10, 12, 12], hands=[["1d"], ["2d"], ["3d"]])
    play(state, "end turn")
    assert state.is_terminal() and state.contest == 0 and hand(state, 0) == ["1d"]
    assert state.returns() == [0.0, 0.5, 0.5]


def test_FD7_scoring_runs_of_clans_and_spirits_plus_the_druid_number():
    spirits = [0, 0, -1, 0, 1, 1, 1] + [-1] * 23
    state = position(3, druids=[7, 2, 9], bluestones=[0, 0, 1, 0, 0, 0, 2], spirits=spirits)
    # seat 0: 7 + clans (1+2) + (1+2+3) + spirits (1+2) + 1 = 20; seat 1: 2 + 1 + (1+2+3) = 9; seat 2: 9 + 1
    assert obs(state)["scores"] == [20, 9, 10]


def test_round_cap_is_the_sixty_inner_stones():
    game = henge.load(GAME, 3)
    assert game.info.round_cap == 60
    record = henge.play(game, ["random"] * 3, seed=7)
    final = henge.replay(record)[-1]
    assert final.is_terminal() and final.neutral <= 59


# --- hidden information ---------------------------------------------------------------------


def test_observation_hides_other_hands_bids_and_the_deck():
    state = contest(3, 2, [["2d", "8n"], ["3d"], ["1d"]])
    play(state, "bid 2d")
    seen = obs(state, 1)
    assert seen["hand"] == ["3d"] and seen["contest"]["bid_sizes"] == [1, 0, 0]
    text = json.dumps(seen)
    assert "8n" not in text and "2d" not in text and "1d" not in text
    assert obs(state, None)["hand"] is None
    with pytest.raises(ValueError):
        state.observation(3)


def test_resample_keeps_publicly_known_cards_in_place():
    state = dealt(
        3, [["3d", "4d", "5d", "6d", "7d"], ["20n", "21n", "22n", "23n", "24n"], ["1n", "2n", "8n", "9n", "10n"]]
    )
    play(state, "offer seat 1", "give 3d", "ask 20n", "send offer", "accept")
    rng = random.Random(1)
    for _ in range(10):
        sample = state.resample_from_infostate(2, rng)
        assert box.parse_card("20n") in sample.hands[0] and box.parse_card("3d") in sample.hands[1]
        assert sample.current_player() == 0


def test_chance_is_uniform_over_the_deck():
    state = henge.load(GAME, 5).new_initial_state()
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 65 and state.current_player() == CHANCE
    assert all(p == pytest.approx(1 / 65) for _, p in outcomes)


def _completable(
    numbers: list[int], phases_ok: bool, rest: list[int], wild: bool, druid: int, day: bool, uses: int
) -> bool:
    """Brute force: can some subset of ``rest`` (and the wild card) complete a combination?"""
    from henge.games.first_druid import combinations as comb

    values = [(box.CARD_NUMBER[c], box.CARD_IS_DAY[c] == day) for c in rest]
    for mask in range(1 << len(values)):
        chosen = [values[i] for i in range(len(values)) if mask >> i & 1]
        for named in [None, *range(1, 31)] if wild else [None]:
            nums = numbers + [v for v, _ in chosen] + ([named] if named else [])
            ok_phase = phases_ok and all(p for _, p in chosen)
            if uses & comb.USE_ADVANCE and ok_phase and nums and sum(nums) >= druid:
                return True
            if uses & comb.USE_PAIR and comb.is_pair(nums):
                return True
            if uses & comb.USE_SUM and comb.is_sum(nums):
                return True
            if uses & comb.USE_RUN3 and comb.is_run(nums, 3):
                return True
            if uses & comb.USE_RUN4 and comb.is_run(nums, 4):
                return True
    return False


def test_FD6_picks_are_exactly_the_cards_that_can_still_complete_a_combination():
    from henge.games.first_druid.combinations import pick_actions

    rng = random.Random(3)
    wild = box.trilithon_card(0)
    for _ in range(60):
        hand = rng.sample(range(60), rng.randint(1, 5)) + ([wild] if rng.random() < 0.4 else [])
        table = rng.sample([c for c in range(60) if c not in hand], rng.randint(0, 2))
        day = rng.random() < 0.5
        druid = rng.randint(1, 29)
        uses = rng.randint(1, 31)
        numbers = [box.CARD_NUMBER[c] for c in table]
        phases_ok = all(box.CARD_IS_DAY[c] == day for c in table)
        got = pick_actions(hand, wild, numbers, phases_ok, day, druid, uses)
        for card in hand:
            if card == wild:
                continue
            rest = [c for c in hand if c not in (card, wild)]
            ok = _completable(
                [*numbers, box.CARD_NUMBER[card]],
                phases_ok and box.CARD_IS_DAY[card] == day,
                rest,
                wild in hand,
                druid,
                day,
                uses,
            )
            assert (card in got) == ok, (hand, table, day, druid, uses, card)
        if wild in hand:
            rest = [c for c in hand if c != wild]
            for v in range(1, 31):
                ok = _completable([*numbers, v], phases_ok, rest, False, druid, day, uses)
                assert (59 + v in got) == ok, (hand, table, day, druid, uses, v)
