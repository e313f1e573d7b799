"""Druid Olympics scenarios: one test per rule clause and per ruling (D1-D9, G3, G4).

Positions are loaded from crafted JSON (an empty history loads the fields as
given) or reached by forcing chance outcomes with ``apply_text``.
"""

from __future__ import annotations

import json
import pickle
import random
from typing import Any

import pytest
from druid_olympics_positions import druid_olympics_position as position

import henge
from henge import box
from henge.core import CHANCE, TERMINAL, StateFormatError
from henge.games.druid_olympics import board
from henge.games.druid_olympics.rules import DruidOlympics, DruidOlympicsState

GAME = "druid_olympics"
OTHERS = (("24n", "24d", "25n"), ("25d", "26n", "26d"))
"""The hands of seats 1 and 2 unless a test says otherwise."""


def mover(runner: str, hand: list[str], *, end: int | None = None, seat: int = 0, **kwargs: Any) -> DruidOlympicsState:
    """Returns a moving-round position where ``seat`` (of three) stands on ``runner`` holding ``hand``."""
    runners = kwargs.pop("runners", ["coloured 1"] * 3)
    runners[seat] = runner
    ends: list[int | None] = [None] * 3
    ends[seat] = end
    hands = kwargs.pop("hands", [[], list(OTHERS[0]), list(OTHERS[1])])
    hands[seat] = hand
    return position(phase="move", player=seat, runners=runners, ends=ends, hands=hands, **kwargs)


def at(state: DruidOlympicsState, seat: int) -> str:
    return state.observation(None)["runners"][seat]["at"]


def owed(state: DruidOlympicsState, seat: int) -> int:
    return state.observation(None)["runners"][seat]["lost_turns"]


def texts(state: DruidOlympicsState, prefix: str) -> list[str]:
    return [t for t in state.legal_action_texts() if t.startswith(prefix)]


def play(state: DruidOlympicsState, *actions: str) -> DruidOlympicsState:
    for action in actions:
        state.apply_text(action)
    return state


# --- the course (D1) -----------------------------------------------------------------


def test_D1_course_runs_coloured_numbered_inner_horseshoe_altar():
    names = [board.runner_text(p, 0) for p in (0, 29, 30, 59, 60, 61, 119)]
    assert names == [
        "coloured 1",
        "coloured 30",
        "numbered 1",
        "numbered 30",
        "inner 1 night",
        "inner 1 day",
        "inner 30 day",
    ]
    assert [board.runner_text(p, 1) for p in (120, 129)] == ["bluestone 1", "bluestone 10"]
    assert [board.runner_text(p, 19) for p in (120, 128, 129)] == ["bluestone 19", "bluestone 11", "bluestone 10"]
    assert board.runner_text(board.ALTAR, 19) == "altar"
    assert box.bluestone_path(19) == (19, 18, 17, 16, 15, 14, 13, 12, 11, 10)
    assert len(box.bluestone_path(1)) == len(box.bluestone_path(19)) == 10


def test_D1_runners_start_on_the_white_space_above_1():
    state = henge.load(GAME, 4).new_initial_state()
    assert [r["at"] for r in state.observation(None)["runners"]] == ["coloured 1"] * 4


def test_D1_the_runner_picks_the_horseshoe_end_on_entering():
    state = mover("inner 28 day", ["10d", "5n", "6n"])
    state.apply_text("move 10d")  # 29n, 29d, 30n, 30d, then the horseshoe
    assert state.observation(0)["phase"] == "enter"
    assert state.legal_action_texts() == ["enter stone 1", "enter stone 19"]
    state.apply_text("enter stone 19")
    assert at(state, 0) == "bluestone 19"
    assert state.observation(None)["runners"][0]["entered_at"] == "bluestone 19"
    # From that end the runner walks 19, 18, ... toward the middle stone.
    state = mover("bluestone 19", ["20d", "4n", "6n"], end=19)
    play(state, "move 20d", "done")
    assert at(state, 0) == "bluestone 17"


def test_D1_leaders_at_the_cap_are_the_furthest_runners():
    cap = henge.game_class(GAME).info.round_cap
    state = position(
        phase="move",
        player=2,
        turn=cap,
        runners=["numbered 5", "numbered 5", "coloured 30"],
        hands=[["1n", "1d", "2n"], ["2d", "3n", "3d"], ["4n", "4d", "5n"]],
    )
    state.apply_text("pass")
    assert state.is_terminal()
    assert state.returns() == [0.5, 0.5, 0.0]
    assert "round cap" in state.observation(None)["result"]


# --- moving on the coloured ring (D2) -------------------------------------------------------


def test_D2_a_card_moves_to_the_next_space_of_its_colour():
    state = mover("coloured 1", ["3d", "6n", "13d"])
    state.apply_text("move 3d")  # green: 3
    assert at(state, 0) == "coloured 3"
    state = mover("coloured 1", ["3d", "6n", "13d"])
    state.apply_text("move 13d")  # white: the next white space after 1 is 7
    assert at(state, 0) == "coloured 7"
    state = mover("coloured 3", ["3d", "6n", "13d"])
    state.apply_text("move 6n")  # black: 6
    assert at(state, 0) == "coloured 6"


def test_D2_no_space_of_the_colour_ahead_moves_to_numbered_1_and_stops():
    state = mover("coloured 27", ["2d", "30n", "1n"])
    state.apply_text("move 2d")  # blue: 26 is behind, none ahead
    assert at(state, 0) == "numbered 1"


def test_D2_from_black_30_a_card_reaches_the_numbered_space_of_its_number():
    state = mover("coloured 30", ["7d", "30n", "1n"])
    state.apply_text("move 7d")
    assert at(state, 0) == "numbered 7"
    state = mover("coloured 25", ["7d", "30n", "1n"])
    state.apply_text("move 30n")  # black from 25 lands on 30 and stops there
    assert at(state, 0) == "coloured 30"


def test_D2_trilithon_cards_never_move_a_runner():
    state = mover("coloured 1", ["T-red", "T-blue", "5d"])
    assert state.legal_action_texts() == ["pass", "move 5d"]
    state = mover("bluestone 1", ["T-red", "T-blue"], end=1)
    assert state.legal_action_texts() == ["pass"]


# --- numbered and inner ring, horseshoe (D3, D4) -----------------------------------------


def test_D3_one_card_moves_exactly_its_number_and_flows_onto_the_inner_ring():
    state = mover("numbered 28", ["5n", "1n", "2n"])
    state.apply_text("move 5n")  # 29, 30, 1 night, 1 day, 2 night
    assert at(state, 0) == "inner 2 night"
    assert state.observation(None)["runners"][0]["progress"] == 62


def test_D3_the_move_stops_on_the_first_bluestone():
    state = mover("inner 30 night", ["20d", "1n", "2n"])
    play(state, "move 20d", "enter stone 1")
    assert at(state, 0) == "bluestone 1"
    assert state.observation(None)["discard_pile"] == ["20d"]


def test_D4_worked_example_15_10_29_moves_five_stones():
    state = mover("bluestone 1", ["15d", "10n", "29d"], end=1)
    play(state, "move 15d", "move 10n")
    assert state.observation(0)["table"] == ["15d", "10n"]
    assert state.legal_action_texts() == ["done", "move 29d"]
    play(state, "move 29d", "done")
    assert at(state, 0) == "bluestone 6"
    assert state.observation(None)["hand_sizes"][0] == 0


def test_D4_a_play_worth_less_than_ten_is_allowed_and_moves_nothing():
    state = mover("bluestone 4", ["7d", "10n", "29d"], end=1)
    play(state, "move 7d", "done")
    assert at(state, 0) == "bluestone 4"
    assert owed(state, 0) == 0
    assert state.observation(None)["discard_pile"] == ["7d"]


def test_D4_points_beyond_the_altar_are_lost_and_D9_the_first_on_the_altar_wins():
    state = mover("bluestone 9", ["30d", "10n", "29d"], end=1)
    play(state, "move 30d", "done")  # 3 points: stone 10, the altar, one lost
    assert state.is_terminal()
    assert at(state, 0) == "altar"
    assert state.returns() == [1.0, 0.0, 0.0]
    assert "altar" in state.observation(1)["result"]


# --- turn order, drawing, reshuffling ----------------------------------------------------


def _dealt(players: int, first: int) -> DruidOlympicsState:
    state = henge.load(GAME, players).new_initial_state()
    cards = iter(["1n", "2n", "3n", "4n", "5n", "6n", "7n", "8n", "9n", "10n", "11n", "12n", "13n", "14n", "15n"])
    while state.observation(None)["phase"] == "deal":
        state.apply_text(f"draw {next(cards)}")
    state.apply_text(f"first seat {first}")
    assert isinstance(state, DruidOlympicsState)
    return state


def test_blocking_round_then_moving_round_from_the_first_player():
    state = _dealt(3, 1)
    seen = []
    while state.current_player() != CHANCE and len(seen) < 6:
        obs = state.observation(None)
        seen.append((obs["phase"], state.current_player()))
        state.apply_text("pass")
    assert seen == [("block", 1), ("block", 2), ("block", 0), ("move", 1), ("move", 2), ("move", 0)]
    # Nobody played a card, so no draw: the next turn starts with the first player again.
    assert state.observation(None)["turn"] == 2
    assert (state.observation(None)["phase"], state.current_player()) == ("block", 1)


def test_hands_are_drawn_back_up_to_three_at_the_end_of_the_moving_round():
    state = _dealt(3, 0)  # seat 0 holds 1n 2n 3n, seat 1 4n 5n 6n, seat 2 7n 8n 9n
    play(state, "pass", "bar on numbered 11", "use 5n", "use 6n", "pass")
    play(state, "move 1n", "pass")
    assert state.current_player() == 2  # the draw waits for the end of the moving round
    state.apply_text("pass")
    assert state.current_player() == CHANCE
    drawers = []
    while state.current_player() == CHANCE:
        drawers.append(state.player)
        state.apply_action(state.legal_actions()[0])
    assert drawers == [0, 1, 1]
    assert state.observation(None)["hand_sizes"] == [3, 3, 3]


def test_D9_the_discard_pile_is_reshuffled_when_a_card_is_needed_and_the_draw_pile_is_empty():
    state = position(phase="draw", player=0, hands=[["5d"], ["1n", "1d", "2n"], ["2d", "3n", "3d"]], draw=["9n"])
    discard = state.observation(None)["discard_pile"]
    state.apply_text("draw 9n")
    obs = state.observation(None)
    assert obs["discard_pile"] == []
    assert obs["draw_pile"] == len(discard)
    assert [state.game.action_text(a, chance=True) for a in state.legal_actions()] == sorted(
        (f"draw {c}" for c in discard), key=lambda t: box.parse_card(t[5:])
    )
    state.apply_text("draw 30d")
    assert state.observation(0)["hand"] == ["5d", "9n", "30d"]


# --- placing blocks (D8 and the text) -----------------------------------------------------


def blocker(hand: list[str], **kwargs: Any) -> DruidOlympicsState:
    hands = kwargs.pop("hands", [[], list(OTHERS[0]), list(OTHERS[1])])
    hands[0] = hand
    return position(phase="block", player=0, hands=hands, **kwargs)


def test_bar_on_a_coloured_space_of_the_card_colour():
    state = blocker(["3d", "9n", "T-red"])
    assert texts(state, "bar on coloured") == [f"bar on coloured {n}" for n in (3, 9, 15, 21, 27)]
    state.apply_text("bar on coloured 15")
    assert state.legal_action_texts() == ["use 3d", "use 9n"]
    state.apply_text("use 9n")
    obs = state.observation(0)
    assert obs["runners"][0]["bar"] == "coloured 15"
    assert obs["blocks"] == [{"space": "coloured 15", "piece": "bar", "owner": 0}]
    assert obs["hand"] == ["3d", "T-red"]
    assert obs["discard_pile"] == ["9n"]
    assert (obs["phase"], state.current_player()) == ("block", 1)


def test_bar_on_the_numbered_space_of_the_card_sum():
    state = blocker(["6d", "7n", "20d"])
    assert texts(state, "bar on numbered") == [f"bar on numbered {n}" for n in (6, 7, 13, 20, 26, 27)]
    state.apply_text("bar on numbered 13")
    assert state.legal_action_texts() == ["use 6d", "use 7n"]
    state.apply_text("use 6d")
    assert state.legal_action_texts() == ["use 7n"]
    state.apply_text("use 7n")
    assert state.observation(None)["runners"][0]["bar"] == "numbered 13"


def test_disk_worked_example_card_4_night_blocks_4_night():
    state = blocker(["4n", "9n", "5d"])
    assert texts(state, "disk on inner") == [
        "disk on inner 4 night",
        "disk on inner 5 day",
        "disk on inner 9 night",
        "disk on inner 13 night",
    ]
    play(state, "disk on inner 4 night", "use 4n")
    assert state.observation(None)["runners"][0]["disk"] == "inner 4 night"


def test_disk_on_any_bluestone_by_sacrificing_any_card():
    state = blocker(["T-red", "5d", "9n"])
    assert texts(state, "disk on bluestone") == [f"disk on bluestone {k}" for k in range(1, 20)]
    state.apply_text("disk on bluestone 7")
    assert state.legal_action_texts() == ["use 5d", "use 9n", "use T-red"]
    state.apply_text("use T-red")
    obs = state.observation(0)
    assert obs["runners"][0]["disk"] == "bluestone 7"
    assert obs["hand"] == ["5d", "9n"]


def test_trilithon_on_a_numbered_space_blocks_the_coloured_space_above():
    state = blocker(["T-blue", "6d", "7n"])
    play(state, "trilithon blue on numbered 13")
    assert state.observation(0)["table"] == ["T-blue"]
    play(state, "use 6d", "use 7n")
    obs = state.observation(None)
    assert obs["trilithons"]["blue"] == "numbered 13"
    assert [b["space"] for b in obs["blocks"]] == ["coloured 13", "numbered 13"]
    assert all(b["piece"] == "trilithon blue" and b["owner"] is None for b in obs["blocks"])


def test_trilithon_needs_its_card_and_at_least_one_other_card():
    state = blocker(["T-blue", "T-red", "23d"])
    assert "trilithon blue on numbered 23" in texts(state, "trilithon")
    assert "trilithon red on numbered 23" in texts(state, "trilithon")
    state = position(phase="block", hands=[["T-blue", "T-red"], [], []])
    assert texts(state, "trilithon") == []  # no number card, and not three cards for the bluestones


def test_trilithon_across_an_inner_stone_and_the_three_after_it():
    state = blocker(["T-green", "10d", "3d"])
    play(state, "trilithon green on inner 13 day", "use 3d", "use 10d")
    obs = state.observation(None)
    assert [b["space"] for b in obs["blocks"]] == ["inner 13 day", "inner 14 night", "inner 14 day", "inner 15 night"]
    assert obs["trilithons"]["green"] == "inner 13 day"


def test_trilithon_on_three_bluestones_sacrifices_both_other_cards_and_drains_the_runner():
    state = blocker(["T-red", "5d", "9n"])
    state.apply_text("trilithon red on bluestones 4-6")
    obs = state.observation(0)
    assert obs["hand"] == []
    assert sorted(obs["discard_pile"]) == ["5d", "9n", "T-red"]
    assert [b["space"] for b in obs["blocks"]] == ["bluestone 4", "bluestone 5", "bluestone 6"]
    assert obs["runners"][0]["drained"]
    play(state, "pass", "pass")  # seats 1 and 2 do not block
    assert (state.observation(None)["phase"], state.current_player()) == ("move", 1)  # seat 0 cannot move


def test_one_bar_and_one_disk_each_and_reblocking_moves_the_piece():
    state = blocker(["3d", "9n", "T-red"], bars=["numbered 12", "numbered 13", None], disks=["bluestone 2", None, None])
    assert "bar on numbered 12" in texts(state, "bar on")  # its own bar may be laid again where it lies
    assert "bar on numbered 13" not in texts(state, "bar on")  # seat 1's bar lies there
    play(state, "bar on coloured 3", "use 3d")
    obs = state.observation(None)
    assert obs["runners"][0]["bar"] == "coloured 3"
    assert obs["runners"][0]["disk"] == "bluestone 2"
    assert "numbered 12" not in [b["space"] for b in obs["blocks"]]
    # A player blocks once per turn: the next decision is seat 1's.
    assert state.current_player() == 1


def test_the_trilithon_moved_is_the_one_of_the_card_colour():
    state = blocker(["T-red", "12n", "1n"], trilithons={"red": "numbered 13", "blue": "inner 2 night"})
    play(state, "trilithon red on inner 13 night", "use 12n", "use 1n")
    obs = state.observation(None)
    assert obs["trilithons"] == {
        "white": None,
        "blue": "inner 2 night",
        "green": None,
        "yellow": None,
        "red": "inner 13 night",
    }
    assert "numbered 13" not in [b["space"] for b in obs["blocks"]]


# --- passing blocks (D5) ------------------------------------------------------------


def test_D5_a_bar_of_another_player_costs_one_extra_step():
    state = mover("numbered 3", ["3n", "4n", "9n"], bars=[None, "numbered 5", None])
    state.apply_text("move 3n")  # 4, 5: one step left, too few to get beyond
    assert at(state, 0) == "numbered 5"
    assert owed(state, 0) == 1
    state = mover("numbered 3", ["3n", "4n", "9n"], bars=[None, "numbered 5", None])
    state.apply_text("move 4n")  # 4, 5, the extra step, 6
    assert at(state, 0) == "numbered 6"
    assert owed(state, 0) == 0


def test_D5_own_bars_and_disks_never_block_their_owner():
    state = mover("numbered 3", ["3n", "4n", "9n"], bars=["numbered 5", None, None])
    state.apply_text("move 3n")
    assert at(state, 0) == "numbered 6"
    state = mover("inner 1 night", ["2n", "4n", "9n"], disks=["inner 2 night", None, None])
    state.apply_text("move 2n")  # ends on its own disk: no lost turn
    assert (at(state, 0), owed(state, 0)) == ("inner 2 night", 0)
    state = mover("inner 1 night", ["3n", "4n", "9n"], disks=["inner 2 night", None, None])
    state.apply_text("move 3n")  # passes its own disk at no extra cost
    assert (at(state, 0), owed(state, 0)) == ("inner 2 day", 0)


def test_D5_a_trilithon_costs_its_spaces_plus_two_and_blocks_everyone():
    for hand_card, where, lost in (("4n", "numbered 5", 2), ("5n", "numbered 6", 0)):
        state = mover("numbered 3", [hand_card, "1n", "9n"], trilithons={"white": "numbered 5"})
        state.apply_text(f"move {hand_card}")
        assert (at(state, 0), owed(state, 0)) == (where, lost)
    # Across the four inner stones: 4 + 2 steps, then one to land beyond.
    state = mover("inner 12 day", ["7n", "6n", "9n"], trilithons={"red": "inner 13 night"})
    state.apply_text("move 7n")
    assert (at(state, 0), owed(state, 0)) == ("inner 15 night", 0)
    state = mover("inner 12 day", ["7n", "6n", "9n"], trilithons={"red": "inner 13 night"})
    state.apply_text("move 6n")  # ends on the trilithon's first stone, the rest is lost
    assert (at(state, 0), owed(state, 0)) == ("inner 13 night", 2)


def test_D5_a_numbered_trilithon_is_paid_for_on_each_ring():
    state = mover("coloured 1", ["13d", "7n", "19d"], trilithons={"yellow": "numbered 5"})
    state.apply_text("move 13d")  # white: to 7, past the trilithon over coloured 5
    assert state.observation(0)["paying"] == {"colour": "white", "need": 2, "paid": 0}
    play(state, "pay 7n", "pay 19d")
    assert at(state, 0) == "coloured 7"
    state = mover("coloured 1", ["13d", "7n", "19d"], trilithons={"yellow": "numbered 5"})
    play(state, "move 13d", "pay 7n", "done")  # half paid: the runner ends on it, the card is lost
    assert (at(state, 0), owed(state, 0)) == ("coloured 5", 2)
    assert state.observation(0)["hand"] == ["19d"]
    state = mover("numbered 4", ["2d", "7n", "19d"], trilithons={"yellow": "numbered 5"})
    state.apply_text("move 2d")
    assert (at(state, 0), owed(state, 0)) == ("numbered 5", 2)


def test_D5_coloured_ring_an_extra_card_of_the_destination_colour_per_bar():
    state = mover("coloured 1", ["13d", "7n", "2n"], bars=[None, "coloured 4", None])
    state.apply_text("move 13d")
    assert state.legal_action_texts() == ["done", "pay 7n"]
    state.apply_text("pay 7n")  # paid in full: the move ends at once
    assert (at(state, 0), owed(state, 0)) == ("coloured 7", 0)
    state = mover("coloured 1", ["13d", "7n", "2n"], bars=[None, "coloured 4", None])
    play(state, "move 13d", "done")  # unpaid: stops on the bar
    assert (at(state, 0), owed(state, 0)) == ("coloured 4", 1)
    state = mover("coloured 1", ["13d", "7n", "2n"], bars=[None, "coloured 4", "coloured 5"])
    play(state, "move 13d", "pay 7n", "done")  # one bar paid, the second stops the runner
    assert (at(state, 0), owed(state, 0)) == ("coloured 5", 1)


def test_D5_a_blocked_destination_stops_the_runner_there():
    state = mover("coloured 1", ["13d", "7n", "2n"], bars=[None, "coloured 7", None])
    state.apply_text("move 13d")  # nothing in the way: no payment asked
    assert (at(state, 0), owed(state, 0)) == ("coloured 7", 1)
    assert state.current_player() == 1


def test_D5_payment_is_asked_even_without_a_card_to_pay():
    # G3: entering the payment does not depend on the hand, so it shows nothing about it.
    state = mover("coloured 1", ["13d", "2d", "3d"], bars=[None, "coloured 4", None])
    state.apply_text("move 13d")
    assert state.legal_action_texts() == ["done"]


def test_D5_horseshoe_trilithon_stones_cost_three_points_each():
    state = mover("bluestone 1", ["30d", "20d", "1n"], end=1, trilithons={"green": "bluestones 3-5"})
    play(state, "move 30d", "move 20d", "done")  # 5 points: stone 2 (1), stone 3 (3), stone 4 needs 3
    assert (at(state, 0), owed(state, 0)) == ("bluestone 3", 0)
    state = mover("bluestone 1", ["30d", "30n", "10d"], end=1, trilithons={"green": "bluestones 3-5"})
    play(state, "move 30d", "move 30n", "move 10d", "done")  # 7 points: 1 + 3 + 3
    assert at(state, 0) == "bluestone 4"


def test_D5_walking_the_capstone_spaces_1_2_3():
    # The text: the capstone before the disk is space 1, the disk space 2, after it space 3.
    state = mover("bluestone 3", ["30d", "30n", "29d"], end=1, trilithons={"green": "bluestones 4-6"})
    play(state, "move 30d", "move 30n", "move 29d", "done")  # 8 points: 4 (3), 5 (3), 2 left over
    assert at(state, 0) == "bluestone 5"
    state = mover("bluestone 5", ["30d", "30n", "29d"], end=1, trilithons={"green": "bluestones 4-6"})
    play(state, "move 30d", "move 30n", "done")  # 6 points: stone 6 (3), then 7, 8 and 9 (1 each)
    assert at(state, 0) == "bluestone 9"


def test_D5_entering_a_covered_first_stone_costs_three_steps():
    state = mover("inner 30 night", ["2n", "4n", "9n"], trilithons={"white": "bluestones 1-3"})
    state.apply_text("move 2n")  # 30 day, then one step: not enough for stone 1
    low = state.clone()
    low.apply_text("enter stone 1")
    assert at(low, 0) == "inner 30 day"
    assert low.observation(None)["runners"][0]["entered_at"] is None
    state.apply_text("enter stone 19")
    assert at(state, 0) == "bluestone 19"
    state = mover("inner 30 night", ["4n", "2n", "9n"], trilithons={"white": "bluestones 1-3"})
    play(state, "move 4n", "enter stone 1")
    assert (at(state, 0), owed(state, 0)) == ("bluestone 1", 0)


def test_D5_a_disk_on_a_bluestone_costs_an_extra_point():
    state = mover("bluestone 1", ["20d", "30n", "10d"], end=1, disks=[None, "bluestone 3", None])
    play(state, "move 20d", "done")  # 2 points: stones 2 and 3, none left to get past
    assert (at(state, 0), owed(state, 0)) == ("bluestone 3", 1)
    state = mover("bluestone 1", ["30d", "10n", "1n"], end=1, disks=[None, "bluestone 3", None])
    play(state, "move 30d", "move 10n", "done")  # 4 points: 2, 3, the extra point, 4
    assert (at(state, 0), owed(state, 0)) == ("bluestone 4", 0)


def test_D5_runners_never_block_each_other():
    state = mover("numbered 3", ["3n", "4n", "9n"], runners=["coloured 1", "numbered 4", "numbered 6"])
    state.apply_text("move 3n")
    assert at(state, 0) == "numbered 6"


# --- lost turns (D6) ---------------------------------------------------------------------


def test_D6_a_lost_turn_skips_the_blocking_and_the_moving_round():
    hands = [["1n", "1d", "2n"], ["2d", "3n", "3d"], ["4n", "4d", "5n"]]
    runners = ["coloured 1", "coloured 5", "coloured 1"]  # seat 1 ended its move on a block (G7: it has moved)
    state = position(phase="move", player=2, lost=[0, 1, 0], hands=hands, runners=runners)
    state.apply_text("pass")  # the turn ends; seat 1 loses the next one
    order = []
    for _ in range(4):
        order.append((state.observation(None)["phase"], state.current_player()))
        state.apply_text("pass")
    assert order == [("block", 0), ("block", 2), ("move", 0), ("move", 2)]
    assert state.observation(None)["runners"][1]["lost_turns"] == 0
    assert (state.observation(None)["phase"], state.current_player()) == ("block", 0)
    state.apply_text("pass")
    assert state.current_player() == 1  # the turn after, seat 1 plays again


def test_D6_two_lost_turns_for_a_trilithon_outside_the_horseshoe():
    state = mover("inner 1 night", ["1d", "4n", "9n"], trilithons={"white": "inner 1 day"})
    state.apply_text("move 1d")
    assert (at(state, 0), owed(state, 0)) == ("inner 1 day", 2)


def test_D6_no_lost_turn_for_a_trilithon_in_the_horseshoe():
    state = mover("bluestone 2", ["30d", "4n", "9n"], end=1, trilithons={"white": "bluestones 3-5"})
    play(state, "move 30d", "done")
    assert (at(state, 0), owed(state, 0)) == ("bluestone 3", 0)


def test_D6_a_block_placed_under_a_runner_costs_nothing_and_leaving_it_is_free():
    hands = [["6d", "7n", "20d"], ["2d", "3n", "3d"], ["4n", "4d", "5n"]]
    state = blocker(["6d", "7n", "20d"], hands=hands, runners=["coloured 1", "numbered 13", "coloured 1"])
    play(state, "bar on numbered 13", "use 6d", "use 7n", "pass", "pass", "pass")
    assert (state.observation(None)["phase"], state.current_player()) == ("move", 1)
    assert owed(state, 1) == 0
    state.apply_text("move 2d")  # leaving the bar costs no extra step
    assert (at(state, 1), owed(state, 1)) == ("numbered 15", 0)


def test_D6_leaving_a_trilithon_placed_under_the_runner_is_free():
    state = mover("inner 13 night", ["5n", "2n", "9n"], trilithons={"red": "inner 13 night"})
    state.apply_text("move 5n")  # 13 day, 14 night, 14 day (still under it), 15 night, 15 day
    assert (at(state, 0), owed(state, 0)) == ("inner 15 day", 0)
    # A move that stays on the trilithon ends on it: two lost turns (the edition's reading).
    state = mover("inner 13 night", ["5n", "2n", "9n"], trilithons={"red": "inner 13 night"})
    state.apply_text("move 2n")
    assert (at(state, 0), owed(state, 0)) == ("inner 14 night", 2)


def test_D6_turns_owed_stay_owed_when_the_block_moves():
    state = blocker(
        ["6d", "4n", "20d"],
        bars=["numbered 13", None, None],
        runners=["coloured 1", "numbered 13", "coloured 1"],
        lost=[0, 1, 0],
    )
    play(state, "bar on numbered 10", "use 6d", "use 4n")
    assert state.observation(None)["runners"][0]["bar"] == "numbered 10"
    assert owed(state, 1) == 1


def test_D6_staying_put_costs_nothing():
    # On another player's disk on 30 day, the covered first stone cannot be paid: the runner stays.
    state = mover(
        "inner 30 day", ["2n", "4n", "9n"], trilithons={"white": "bluestones 1-3"}, disks=[None, "inner 30 day", None]
    )
    play(state, "move 2n", "enter stone 1")
    assert (at(state, 0), owed(state, 0)) == ("inner 30 day", 0)


# --- optional actions (D7) and placement limits (D8) -------------------------------------------


def test_D7_blocking_and_moving_are_both_optional():
    state = blocker(["6d", "7n", "T-red"])
    assert state.legal_action_texts()[0] == "pass"
    state = mover("numbered 3", ["3n", "4n", "9n"])
    assert state.legal_action_texts() == ["pass", "move 3n", "move 4n", "move 9n"]
    state.apply_text("pass")
    assert at(state, 0) == "numbered 3"


def test_D8_sums_run_1_to_30_and_trilithon_cards_have_no_number_or_colour():
    state = blocker(["20d", "15n", "T-red"])
    assert texts(state, "bar on numbered") == ["bar on numbered 15", "bar on numbered 20"]
    # Blue (20) and green (15) spaces only: the red trilithon card gives no colour.
    assert texts(state, "bar on coloured") == [f"bar on coloured {n}" for n in (2, 3, 8, 9, 14, 15, 20, 21, 26, 27)]
    assert texts(state, "disk on inner") == ["disk on inner 15 night", "disk on inner 20 day"]
    assert texts(state, "trilithon red on numbered") == ["trilithon red on numbered 15", "trilithon red on numbered 20"]
    assert texts(state, "trilithon red on inner") == [
        "trilithon red on inner 15 night",
        "trilithon red on inner 20 day",
    ]
    # pass, 10 coloured and 2 numbered bars, 2 inner and 19 bluestone disks, 2 + 2 + 17 trilithons
    assert len(state.legal_actions()) == 1 + 10 + 2 + 2 + 19 + 2 + 2 + 17


def test_D8_one_block_piece_per_space_and_trilithons_overlap_nothing():
    state = blocker(["T-green", "10n", "3n"], disks=[None, "inner 14 night", None], bars=[None, None, "numbered 10"])
    tri = texts(state, "trilithon green on inner")
    assert "trilithon green on inner 13 night" not in tri  # would cover 14 night
    assert "trilithon green on inner 10 night" in tri
    assert "trilithon green on numbered 10" not in texts(state, "trilithon green on numbered")
    assert "trilithon green on numbered 13" in texts(state, "trilithon green on numbered")


def test_D8_an_inner_trilithon_starts_no_later_than_29_night():
    state = blocker(["T-green", "29n", "1n"])
    assert texts(state, "trilithon green on inner") == [
        "trilithon green on inner 1 night",
        "trilithon green on inner 29 night",
    ]
    assert len(texts(state, "trilithon green on bluestones")) == 17
    assert len(texts(state, "trilithon green")) == 3 + 2 + 17  # numbered 1, 29, 30; inner; bluestones
    with pytest.raises(henge.IllegalActionError):
        state.apply_text("trilithon green on inner 30 night")


def test_D8_a_block_may_be_placed_where_a_runner_stands():
    state = blocker(["T-green", "29n", "1n"], runners=["coloured 1", "inner 29 night", "coloured 1"])
    play(state, "trilithon green on inner 29 night", "use 29n")
    obs = state.observation(None)
    assert [b["space"] for b in obs["blocks"]] == ["inner 29 night", "inner 29 day", "inner 30 night", "inner 30 day"]
    assert (obs["runners"][1]["at"], obs["runners"][1]["lost_turns"]) == ("inner 29 night", 0)


# --- hidden information (G3), cap (G4), JSON --------------------------------------------------


def test_observation_shows_only_the_own_hand():
    state = blocker(["6d", "7n", "20d"])
    assert state.observation(0)["hand"] == ["6d", "7n", "20d"]
    assert state.observation(1)["hand"] == ["24n", "24d", "25n"]
    assert state.observation(None)["hand"] is None
    # Seat 1 sees 6d only among the cards it cannot place: swapping it with a card of the
    # draw pile changes nothing it sees (the knowledge in "unseen" included).
    twin = blocker(["9n", "7n", "20d"])
    assert twin.observation(1) == state.observation(1)
    assert twin.observation(None) == state.observation(None)
    assert twin.observation(0) != state.observation(0)
    with pytest.raises(ValueError):
        state.observation(3)


def test_resampling_while_a_block_is_paid_keeps_the_blocker_able_to_pay():
    state = blocker(["6d", "7n", "20d"])
    play(state, "bar on numbered 13", "use 6d")
    rng = random.Random(5)
    for _ in range(50):
        sample = state.resample_from_infostate(1, rng)
        assert sample.legal_action_texts() and all(t.startswith("use ") for t in sample.legal_action_texts())
        hand = sample.observation(0)["hand"]
        assert any(box.CARD_NUMBER[box.parse_card(c)] == 7 for c in hand) or len(hand) == 2
        assert sample.observation(1) == state.observation(1)


def test_G4_round_cap_is_declared_and_bot_games_finish_at_every_player_count():
    info = henge.game_class(GAME).info
    assert info.round_cap == 200
    for players in (3, 4, 5):
        game = henge.load(GAME, players)
        record = henge.play(game, ["random"] * players, seed=players)
        final = henge.replay(record)[-1]
        assert final.current_player() == TERMINAL
        assert sum(record["returns"]) == pytest.approx(1.0)
        assert len(record["actions"]) <= game.max_game_length()


def test_json_rejects_inconsistent_positions():
    good = blocker(["6d", "7n", "20d"]).to_json()
    game = henge.load(GAME, 3)

    def broken(**changes: Any) -> dict[str, Any]:
        data = json.loads(json.dumps(good))
        data["state"].update(changes)
        return data

    for bad in (
        broken(hands=[["6d", "6d", "20d"], ["2d", "3n", "3d"], ["4n", "4d", "5n"]]),  # a card twice
        broken(bars=["numbered 13", "numbered 13", None]),  # two blocks on one space
        broken(bars=["inner 3 night", None, None]),  # a bar off the coloured and numbered rings
        broken(trilithons=["trilithon blue on numbered 3", None, None, None, None]),  # wrong colour slot
        broken(runners=["bluestone 3", "coloured 1", "coloured 1"]),  # in the horseshoe without an end
        broken(phase="pay"),  # nothing on the table to pay for
        broken(phase="sprint"),
    ):
        with pytest.raises(StateFormatError):
            game.state_from_json(bad)


# --- the terminal drawing ------------------------------------------------------------------


def test_terminal_render_shows_the_course_the_runners_and_the_own_hand():
    from rich.console import Console

    from henge.games.druid_olympics import terminal

    game = henge.load(GAME, 4)
    states = henge.replay(henge.play(game, ["random"] * 4, seed=7))
    for state in states[40::97] + [states[-1]]:
        for seat in (0, 3, None):
            obs = state.observation(seat)
            console = Console(width=140, record=True)
            console.print(terminal.render(obs))
            shown = console.export_text()
            assert "coloured 1-30" in shown and "bluestones 19→10" in shown
            assert all(runner["at"] in shown for runner in obs["runners"])
            if seat is None:
                assert "your hand" not in shown
            else:
                assert all(card in shown for card in obs["hand"])
            assert terminal.describe_decision(obs)
    final = states[-1].observation(None)
    assert terminal.describe_decision(final).startswith("the game is over")


def test_terminal_describes_each_decision():
    from henge.games.druid_olympics import terminal

    state = blocker(["6d", "7n", "20d"])
    assert "block" in terminal.describe_decision(state.observation(0))
    assert terminal.describe_decision(state.observation(1)).startswith("waiting for seat 0 (white)")
    state.apply_text("bar on numbered 13")
    assert terminal.describe_decision(state.observation(0)) == "choose the cards that pay for bar on numbered 13"
    state = mover("coloured 1", ["13d", "7n", "2n"], bars=[None, "coloured 4", None])
    state.apply_text("move 13d")
    assert "pay white cards" in terminal.describe_decision(state.observation(0))
    state = mover("inner 30 night", ["20d", "1n", "2n"])
    state.apply_text("move 20d")
    assert terminal.describe_decision(state.observation(0)) == "choose the end of the bluestone horseshoe to enter"


# --- a designer's variant -------------------------------------------------------------


class _NoBlockingState(DruidOlympicsState):
    """A variant: no blocking round, every turn starts with the moves (a rule method overridden in Python)."""

    def _next_blocker(self, after: int) -> None:
        self._next_mover(-1)


class _NoBlocking(DruidOlympics):
    state_class = _NoBlockingState


def test_a_python_subclass_overriding_a_rule_method_changes_play_on_either_path():
    deal = ("deal", "draw 6d", "draw 7n", "draw 20d", "draw 1n", "draw 1d", "draw 2n", "draw 3n", "draw 3d", "draw 4n")
    states = []
    for game in (henge.load(GAME, 3), _NoBlocking(3)):
        state = game.new_initial_state()
        play(state, *deal[1:], "first seat 0")  # the rules call _next_blocker from within _apply
        states.append(state)
    plain, variant = states
    assert plain.phase == 2 and texts(plain, "bar") and "pass" in plain.legal_action_texts()  # block
    assert variant.phase == 4 and variant.legal_action_texts() == ["pass", "move 6d", "move 7n", "move 20d"]
    copy = variant.clone()
    assert type(copy) is _NoBlockingState and copy.legal_actions() == variant.legal_actions()
    play(copy, "move 7n")
    assert copy.player == 1 and copy.phase == 4  # seat 1 moves next: nobody blocks in the variant
    data = pickle.loads(pickle.dumps(copy))
    assert type(data) is _NoBlockingState and data.to_json() == copy.to_json()


_LISTS = ("pos", "end", "owed", "skip", "drained", "bar", "disk", "tri", "cover", "hands", "since", "draw", "discard")


def _lists(state: DruidOlympicsState) -> str:
    return repr([getattr(state, name) for name in (*_LISTS, "table", "trail_tail")])


@pytest.mark.parametrize("players", [3, 5])
def test_a_clone_and_its_original_each_change_only_their_own_lists(players):
    """A clone shares the state's lists until one of them changes one (copy on write): play diverging
    clones from every state of random games and check that no step shows in the other state."""
    game = henge.load(GAME, players)
    rng = random.Random(players)
    for _ in range(2):
        state = game.new_initial_state()
        while not state.is_terminal():
            before = _lists(state)
            copies = [state.clone(), state.clone()]
            for copy in copies:  # each copy plays on a few steps of its own
                for _ in range(rng.randrange(1, 12)):
                    if copy.is_terminal():
                        break
                    copy.apply_action(rng.choice(copy.legal_actions()))
            assert _lists(state) == before
            if state.move_number() % 8 == 0:  # the copy is what its history reaches
                again = game.new_initial_state()
                for action in copies[0].history():
                    again.apply_action(action)
                assert _lists(again) == _lists(copies[0]) and again.to_json() == copies[0].to_json()
            played = _lists(copies[1])
            state.apply_action(rng.choice(state.legal_actions()))
            assert _lists(copies[1]) == played
