"""Scenario tests of the Stonehenge Spell Casting Game: one per rule clause and per ruling SC1-SC11."""

from __future__ import annotations

import io
import json
import random

import pytest
from spell_casting_positions import SPELL_CASTING_PARK as PARK
from spell_casting_positions import spell_casting_position as position

import henge
from henge import box
from henge.core import CHANCE, StateFormatError
from henge.games.spell_casting import board as sb
from henge.games.spell_casting import rules as sc

ALL_CUPS = ["place in1", "place in2", "place in3", "place out1", "place out2", "place out3"]


def play(state: sc.SpellCastingState, *texts: str) -> None:
    for text in texts:
        state.apply_text(text)


def ring(state: sc.SpellCastingState, name: str) -> dict[int, int]:
    """Returns {number (or inner stone index): seat} of the components on one ring."""
    cells = state.observation(None)["rings"][name]
    return {i + 1 if name != "inner" else i: s for i, s in enumerate(cells) if s is not None}


def legal(state: sc.SpellCastingState) -> list[str]:
    return state.legal_action_texts()


def dealt(players: int = 4, cards: list[str] | None = None) -> sc.SpellCastingState:
    """Returns a fresh game with the given set-up cards turned (then the lowest cards left)."""
    state = henge.load("spell_casting", players).new_initial_state()
    for text in cards or []:
        state.apply_text(f"draw {text}")
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    return state


# --- set-up -------------------------------------------------------------------------


def test_setup_seven_components_each_on_the_outer_ring_then_the_figures_by_card():
    state = henge.load("spell_casting", 3).new_initial_state()
    assert state.current_player() == CHANCE
    assert state.chance_outcomes() == [(c, 1 / 60) for c in range(60)]
    cards = ["1d", "3n", "5d", "7d", "9d", "11d", "13d"]  # seat 0
    cards += ["2d", "4d", "6d", "8d", "10d", "12d", "14d"]  # seat 1
    cards += ["16d", "17d", "18d", "19d", "20d", "21d", "22d"]  # seat 2
    cards += ["23n", "24d", "25n", "26d", "27n"]  # figures: seats 0-2, neutral (yellow), gray
    for k, text in enumerate(cards):
        assert len(state.chance_outcomes()) == 60 - k
        state.apply_text(f"draw {text}")
    assert not state.is_chance_node() and state.current_player() == 0
    outer = ring(state, "outer")
    assert outer == {
        **{m: 0 for m in (1, 3, 5, 7, 9, 11, 13)},
        **{m: 1 for m in (2, 4, 6, 8, 10, 12, 14)},
        **{m: 2 for m in range(16, 23)},
    }
    obs = state.observation(0)
    assert obs["figures"] == {
        "white": "23 night",
        "blue": "24 day",
        "green": "25 night",
        "yellow": "26 day",
        "gray": "27 night",
    }
    assert obs["setup_cards"] == cards and obs["draw_pile"] == 60 - 26


def test_SC7_setup_collision_newcomer_takes_the_number_and_pushes_up_with_30_to_1():
    state = henge.load("spell_casting", 3).new_initial_state()
    play(state, "draw 5d", "draw 6d", "draw 30d", "draw 29d", "draw 30n")  # seat 0
    # 30n takes 30; the one there goes to 1.
    assert ring(state, "outer") == {5: 0, 6: 0, 29: 0, 30: 0, 1: 0}
    play(state, "draw 5n")  # seat 0 collides with itself: 5 -> 6 -> 7
    assert ring(state, "outer") == {5: 0, 6: 0, 7: 0, 29: 0, 30: 0, 1: 0}
    play(state, "draw 29n")  # newcomer on 29; the ones on 29, 30 and 1 move up to 30, 1 and 2
    assert ring(state, "outer") == {1: 0, 2: 0, 5: 0, 6: 0, 7: 0, 29: 0, 30: 0}
    play(state, "draw 2d")  # seat 1's first card pushes seat 0's component from 2 up to 3
    assert ring(state, "outer") == {1: 0, 2: 1, 3: 0, 5: 0, 6: 0, 7: 0, 29: 0, 30: 0}


def test_SC1_neutral_colour_and_separate_gray_figure():
    four = dealt(4)
    three = dealt(3)
    assert four.observation(None)["neutral_colour"] == "red"
    assert three.observation(None)["neutral_colour"] == "yellow"
    assert list(four.observation(None)["figures"]) == ["white", "blue", "green", "yellow", "red", "gray"]
    assert list(three.observation(None)["figures"]) == ["white", "blue", "green", "yellow", "gray"]
    # Every seat may use the neutral colour's figure and the gray one, never another seat's.
    state = position(3, figures={"white": "3 night", "blue": "4 night", "yellow": "5 night", "gray": "6 night"})
    play(state, "take out1", "done")
    figures = {t.split()[1] for t in legal(state) if t.startswith("figure")}
    assert figures == {"white", "yellow", "gray"}


def test_SC3_dividers_make_three_sections_each_with_an_inside_and_outside_cup():
    state = dealt(4)
    cups = state.observation(None)["cups"]
    assert {name: cup["energy"] for name, cup in cups.items()} == {
        "in1": 2,
        "in2": 2,
        "in3": 2,
        "out1": 1,
        "out2": 1,
        "out3": 1,
    }
    assert [sb.SECTION[sb.cell(r, m)] for r in range(3) for m in (1, 10, 11, 20, 21, 30)] == [0, 0, 1, 1, 2, 2] * 3
    assert [sb.STONE_SECTION[box.inner_index(m, d)] for m, d in ((10, True), (11, False), (21, False))] == [0, 1, 2]


# --- action a -------------------------------------------------------------------------


def test_action_a_disks_from_one_inside_cup_move_components_of_any_colour_in_its_section():
    state = position(board={"coloured 5": 1, "middle 9": 2, "outer 12": 3}, park=PARK[:27] + ["outer 30"])
    assert "done" not in legal(state)  # SC10: at least one disk
    play(state, "take in1")
    assert legal(state) == ["take in1", "done"]  # only the same inside cup
    play(state, "take in1", "done")
    moves = [t for t in legal(state) if t.startswith("move")]
    assert moves == ["move coloured 5 left", "move coloured 5 right", "move middle 9 left", "move middle 9 right"]
    play(state, "move coloured 5 right")
    assert ring(state, "coloured")[6] == 1
    assert state.observation(None)["uses_left"] == [1, 0, 0]


def test_action_a_a_component_leaving_the_section_is_out_of_reach_of_those_disks():
    state = position(board={"middle 10": 1}, park=PARK[:27] + ["outer 30"])
    play(state, "take in1", "take in1", "done", "move middle 10 right")
    assert ring(state, "middle")[11] == 1
    assert legal(state) == ["done"]  # the second disk has nothing left in section 1


def test_action_a_reach_is_by_section_so_a_component_pushed_back_in_is_in_reach_again():
    # Edition's reading: a disk moves whatever stands in its section when it is used.
    state = position(
        board={"coloured 10": 1, "coloured 9": 2}, energy=[4, 1, 1, 1, 1, 1], park=PARK[:27] + ["outer 30"]
    )
    play(state, "take in1", "take in1", "take in1", "take in1", "done")
    play(state, "move coloured 10 right", "move coloured 9 right", "move coloured 10 right")
    assert legal(state) == ["displace left", "displace right", "displace out", "displace in"]
    play(state, "displace left")  # seat 1's component back onto coloured 10, where seat 2's left
    assert ring(state, "coloured") == {10: 1, 11: 2} | {m: s for m, s in ring(state, "coloured").items() if m > 20}
    assert legal(state) == ["done", "move coloured 10 left", "move coloured 10 right"]


def test_action_a_disks_then_go_to_other_cups_split_as_the_player_likes():
    state = position()
    play(state, "take in2", "take in2", "done", "done")
    assert state.observation(None)["phase"] == "replace disks"
    assert legal(state) == [t for t in ALL_CUPS if t != "place in2"]
    play(state, "place out3", "place in1")
    energy = {name: cup["energy"] for name, cup in state.observation(None)["cups"].items()}
    assert energy == {"in1": 3, "in2": 0, "in3": 2, "out1": 1, "out2": 1, "out3": 2}
    assert state.current_player() == 1 and state.observation(None)["phase"] == "take"


def test_SC11_action_b_disks_never_go_back_into_any_outside_cup_it_took_from():
    # the finding: out1's disk into out2, out2's into out3, out3's into out1 changed nothing
    state = position()
    play(state, "take out1", "take out2", "take out3", "done", "done")
    for _ in range(3):
        assert legal(state) == ["place in1", "place in2", "place in3"]
        with pytest.raises(henge.IllegalActionError):
            state.apply_text("place out2")
        state.apply_text("place in3")
    energy = {name: cup["energy"] for name, cup in state.observation(None)["cups"].items()}
    assert energy == {"in1": 2, "in2": 2, "in3": 5, "out1": 0, "out2": 0, "out3": 0}
    assert state.current_player() == 1


def test_SC11_the_bar_covers_every_cup_of_the_action_not_only_the_disks_own():
    state = position()
    play(state, "take out1", "take out2", "done", "done")
    assert legal(state) == ["place in1", "place in2", "place in3", "place out3"]
    play(state, "place out3")
    assert legal(state) == ["place in1", "place in2", "place in3", "place out3"]  # not out1 though it is empty now


def test_SC11_the_owners_private_disk_taken_in_the_action_follows_the_same_rule():
    state = position(board={"inner 1 night": 0}, private={(0, "out3"): 1})
    play(state, "take out1", "take mine out3", "done", "done")
    assert state.observation(None)["hand"] == ["out1", "mine out3"]
    assert legal(state) == ["place in1", "place in2", "place in3", "place out2"]
    play(state, "place in1")
    assert legal(state) == ["place in1", "place in2", "place in3", "place out2"]  # the private disk
    play(state, "place out2")
    assert state.observation(None)["cups"]["out2"]["private"] == [1, 0, 0, 0]
    state = position(board={"inner 1 night": 0}, private={(0, "in2"): 1})
    play(state, "take in2", "take mine in2", "done", "done")
    for _ in range(2):  # action a: every cup but its source
        assert legal(state) == [t for t in ALL_CUPS if t != "place in2"]
        play(state, "place out1")


def test_SC11_does_not_apply_to_action_c():
    state = position()
    play(state, "hold out1", "hold out2")
    play(state, "hold in1", "hold in1", "hold in2", "hold in2", "hold in3", "hold in3")
    assert state.current_player() == 0 and legal(state) == ALL_CUPS  # held disks go anywhere, out1 included


def test_SC2_left_and_right_wrap_30_to_1():
    state = position(board={"outer 30": 1, "coloured 1": 2}, park=PARK[:27] + ["middle 15"])
    play(state, "take in3", "take in3", "done", "move outer 30 right")
    assert ring(state, "outer")[1] == 1 and 30 not in ring(state, "outer")
    state = position(board={"coloured 1": 2}, park=PARK[:27] + ["middle 15"])
    play(state, "take in1", "done", "move coloured 1 left")
    assert ring(state, "coloured")[30] == 2


# --- action b -------------------------------------------------------------------------


def test_action_b_figures_move_1_5_or_20_either_way_while_in_the_disks_section():
    state = position(figures={"white": "2 night", "red": "12 day", "gray": "30 day"})
    play(state, "take out1", "take out2")
    assert legal(state) == ["take out3", "done"]  # only outside cups now
    play(state, "done")
    figures = [t for t in legal(state) if t.startswith("figure")]
    assert figures == [f"figure {f} {d} {w}" for f in ("white", "red") for d in (1, 5, 20) for w in ("left", "right")]
    play(state, "figure white 5 left")  # 2 night is stone 2; back 5 stones through 1 night: stone 57
    assert state.observation(None)["figures"]["white"] == "29 day"


def test_action_b_worked_example_20_spaces_with_one_disk_then_2_with_two_from_another_cup():
    state = position(figures={"gray": "5 night"}, energy=[2, 2, 1, 1, 2, 1])
    play(state, "take out1", "take out2", "take out2", "done")
    play(state, "figure gray 20 right")  # 5 night is stone 8; 20 stones on: stone 28, 15 night
    assert state.observation(None)["figures"]["gray"] == "15 night"
    play(state, "figure gray 1 right", "figure gray 1 right")
    assert state.observation(None)["figures"]["gray"] == "16 night"
    assert state.observation(None)["phase"] == "replace disks"  # every disk used


def test_SC4_pull_in_and_push_out_at_the_figures_number_on_any_ring():
    board = {"outer 13": 1, "coloured 13": 2, "middle 14": 3}
    figures = {"white": "13 day", "gray": "14 night"}
    state = position(board=board, figures=figures, energy=[2, 2, 1, 1, 2, 1], park=PARK[:27] + ["outer 2"])
    play(state, "take out2", "take out2", "done")
    pulls = [t for t in legal(state) if t.startswith(("pull", "push"))]
    assert pulls == ["pull outer 13", "pull coloured 13", "pull middle 14 night", "push coloured 13", "push middle 14"]
    play(state, "push coloured 13")  # onto outer 13: a displacement
    assert state.observation(None)["phase"] == "displace"
    play(state, "displace right")
    assert ring(state, "outer")[13] == 2 and ring(state, "outer")[14] == 1 and 13 not in ring(state, "coloured")


def test_SC4_every_disk_use_is_limited_to_its_section():
    state = position(board={"outer 11": 1}, figures={"white": "11 night", "red": "1 night", "gray": "1 day"})
    play(state, "take out1", "done")
    uses = [t for t in legal(state) if t != "done"]
    assert all(t.startswith(("figure red", "figure gray")) for t in uses)  # nothing at 11 with an out1 disk


def test_SC2_a_component_pulled_in_by_a_figure_lands_on_the_figures_stone():
    state = position(board={"middle 13": 1}, figures={"white": "13 day", "gray": "13 day"}, private={(1, "in1"): 0})
    play(state, "take out2", "done")
    assert "pull middle 13 day" in legal(state) and "pull middle 13 night" not in legal(state)
    play(state, "pull middle 13 day")
    assert ring(state, "inner") == {box.inner_index(13, True): 1}


# --- action c -------------------------------------------------------------------------


def test_action_c_two_disks_off_the_board_until_just_before_the_next_turn():
    state = position()
    play(state, "hold in1", "hold out2")
    obs = state.observation(None)
    assert obs["held"] == [2, 0, 0, 0] and obs["current_player"] == 1
    assert obs["cups"]["in1"]["energy"] == 1 and obs["cups"]["out2"]["energy"] == 0
    play(state, "hold in1", "hold in2", "hold in2", "hold in3", "hold in3", "hold out1")
    assert state.current_player() == 0
    assert state.observation(None)["phase"] == "return held disks"
    assert legal(state) == ALL_CUPS  # any cup, the one they came from included
    play(state, "place in1", "place in1")
    assert state.observation(None)["held"] == [0, 2, 2, 2]
    assert state.observation(None)["phase"] == "take"


def test_SC10_action_c_takes_two_neutral_disks_and_actions_a_b_at_least_one():
    state = position(board={"inner 1 night": 0}, private={(0, "out3"): 1}, energy=[1, 0, 0, 0, 0, 2], held=[0, 2, 2, 2])
    assert legal(state) == ["take in1", "take out3", "take mine out3", "hold in1", "hold out3"]
    play(state, "hold out3")
    assert legal(state) == ["hold in1", "hold out3"]  # never the private disk
    play(state, "hold out3")
    assert state.current_player() == 1 and state.observation(None)["held"] == [2, 2, 2, 2]
    assert state.observation(None)["cups"]["out3"] == {"energy": 0, "private": [1, 0, 0, 0]}
    state = position()
    play(state, "take in1")
    assert "done" in legal(state)
    play(state, "done", "done")  # taking and using none is legal
    assert legal(state) == [t for t in ALL_CUPS if t != "place in1"]


# --- displacement chains -----------------------------------------------------------------


def test_SC5_the_mover_chooses_each_push_and_no_push_leaves_the_board():
    board = {"outer 3": 0, "outer 4": 1, "coloured 4": 2}
    state = position(board=board, park=PARK[:27] + ["middle 30"])
    play(state, "take in1", "done", "move outer 3 right")
    assert state.current_player() == 0
    assert legal(state) == ["displace left", "displace right", "displace in"]  # no "out" off the board
    play(state, "displace in")
    chain = state.observation(None)["chain"]
    assert chain == {"component": 2, "from": "coloured 4", "moved": ["outer 4", "coloured 4"]}
    # Outer 4 holds a component moved in this chain: no way back out.
    assert legal(state) == ["displace left", "displace right", "displace in"]
    play(state, "displace in")
    assert ring(state, "outer")[4] == 0 and 3 not in ring(state, "outer")
    assert ring(state, "coloured")[4] == 1 and ring(state, "middle")[4] == 2
    assert state.observation(None)["chain"] is None


def test_SC5_the_first_component_pushed_may_always_step_into_the_space_its_pusher_left():
    board = {"coloured 7": 0, "coloured 8": 1, "coloured 9": 2, "outer 8": 3, "middle 8": 3}
    state = position(board=board, park=PARK[:27] + ["middle 30"])
    play(state, "take in1", "done", "move coloured 7 right")
    assert "displace left" in legal(state)
    play(state, "displace left")
    assert ring(state, "coloured")[7] == 1 and ring(state, "coloured")[8] == 0
    assert state.observation(None)["phase"] == "replace disks"


def test_SC5_a_later_component_with_no_legal_direction_slides_clockwise_to_a_free_space():
    # Chain: outer 7 -> outer 6 (B in) -> coloured 6 (D left) -> coloured 5 (E left) -> coloured 4
    # (F out) -> outer 4 (G right) -> outer 5: H there has outer 4, outer 6 and coloured 5 all moved.
    board = {"outer 7": 0, "outer 6": 1, "coloured 6": 2, "coloured 5": 3, "coloured 4": 1, "outer 4": 2}
    board["outer 5"] = 3
    state = position(board=board, park=PARK[:27] + ["middle 30"])
    play(state, "take in1", "done", "move outer 7 left")
    play(state, "displace in", "displace left", "displace left", "displace out")
    assert legal(state) == ["displace left", "displace right"]  # coloured 4 holds a moved component
    play(state, "displace right")  # G onto outer 5: H has no legal direction and slides to outer 7
    outer = ring(state, "outer")
    coloured = ring(state, "coloured")
    assert [outer.get(m) for m in range(3, 9)] == [None, 1, 2, 0, 3, None]
    assert [coloured.get(m) for m in range(3, 8)] == [None, 3, 2, 1, None]
    assert state.observation(None)["chain"] is None


def test_SC5_inner_components_are_fixed_and_block():
    board = {"middle 3": 1, "middle 4": 2, "inner 4 night": 3}
    state = position(board=board, private={(3, "out3"): 1}, figures={"white": "4 night"})
    play(state, "take in1", "done")  # nothing moves the inner component
    assert legal(state) == [
        "done",
        "move middle 3 left",
        "move middle 3 right",
        "move middle 4 left",
        "move middle 4 right",
    ]
    play(state, "move middle 3 right")
    assert legal(state) == ["displace left", "displace right", "displace out", "displace in day"]
    state = position(board=board, private={(3, "out3"): 1}, figures={"white": "4 night"})
    play(state, "take out1", "done")
    assert "push middle 4" in legal(state)
    assert "pull middle 4 night" not in legal(state)  # the figure's stone is taken


def test_SC2_pushed_in_by_a_displacement_the_mover_picks_night_or_day():
    state = position(board={"middle 3": 1, "middle 4": 2})
    play(state, "take in1", "done", "move middle 3 right")
    assert "displace in night" in legal(state) and "displace in day" in legal(state)
    play(state, "displace in day")
    assert ring(state, "inner") == {box.inner_index(4, True): 2}
    assert state.current_player() == 2  # SC9: its owner places a private disk


# --- private disks ----------------------------------------------------------------------


def test_SC9_the_owner_places_the_private_disk_at_once_even_off_turn():
    state = position(board={"middle 13": 1}, figures={"white": "13 night"})
    play(state, "take out2", "take out1", "done", "pull middle 13 night")
    assert state.current_player() == 1
    assert state.observation(None)["phase"] == "place private disk"
    assert legal(state) == ALL_CUPS
    play(state, "place in3")
    obs = state.observation(None)
    assert obs["cups"]["in3"]["private"] == [0, 1, 0, 0] and obs["private_left"] == [3, 2, 3, 3]
    assert state.current_player() == 0 and obs["phase"] == "use"  # back to the mover's disk from out1


def test_SC9_only_the_owner_takes_or_uses_a_private_disk_and_action_c_ignores_it():
    state = position(board={"inner 1 night": 1}, private={(1, "out2"): 1})
    assert "take mine out2" not in legal(state) and "take out2" in legal(state)
    board = {"inner 1 night": 1}
    state = position(
        board=board, private={(1, "out2"): 1}, energy=[2, 2, 1, 1, 0, 1], held=[0, 0, 0, 2], player=1, turns=1
    )
    assert "take mine out2" in legal(state) and "hold out2" not in legal(state)


def test_the_private_disk_moves_between_cups_like_the_others():
    state = position(
        board={"inner 1 night": 1, "coloured 14": 2},
        private={(1, "out2"): 1},
        player=1,
        turns=1,
        figures={"blue": "14 night"},
    )
    play(state, "take mine out2", "done")
    assert state.observation(None)["hand"] == ["mine out2"]
    play(state, "pull coloured 14")
    assert ring(state, "middle")[14] == 2
    assert legal(state) == [t for t in ALL_CUPS if t != "place out2"]
    play(state, "place in1")
    assert state.observation(None)["cups"]["in1"]["private"] == [0, 1, 0, 0]
    assert state.observation(None)["cups"]["in1"]["energy"] == 2


# --- the end ----------------------------------------------------------------------------


def test_SC8_the_fourth_component_wins_at_once_even_mid_chain_on_anothers_turn():
    inner = {"inner 1 night": 1, "inner 2 night": 1, "inner 3 night": 1}
    state = position(board={**inner, "middle 3": 0, "middle 4": 1}, private={(1, "out3"): 3})
    play(state, "take in1", "take in1", "done", "move middle 3 right", "displace in day")
    assert state.is_terminal()
    assert state.returns() == [0.0, 1.0, 0.0, 0.0]
    assert "seat 1 (blue) has 4 components" in state.observation(None)["result"]


def test_winning_with_4_of_7_and_the_short_variant_with_3():
    inner = {"inner 1 night": 2, "inner 2 night": 2}
    standard = position(board={**inner, "middle 13": 2}, private={(2, "out3"): 2}, figures={"gray": "13 day"})
    play(standard, "take out2", "done", "pull middle 13 day")
    assert not standard.is_terminal() and standard.current_player() == 2  # 3 of 4: a private disk
    short = position(
        board={**inner, "middle 13": 2}, private={(2, "out3"): 2}, figures={"gray": "13 day"}, variant="short"
    )
    play(short, "take out2", "done", "pull middle 13 day")
    assert short.is_terminal() and short.returns() == [0.0, 0.0, 1.0, 0.0]


def test_SC6_at_the_round_cap_the_most_inner_components_share_the_win():
    cap = sc._ROUND_CAP
    board = {"inner 1 night": 1, "inner 2 night": 3, "inner 5 day": 0}
    private = {(0, "in1"): 1, (1, "in1"): 1, (3, "in1"): 1}
    board["inner 9 day"] = 3
    state = position(board=board, private={**private, (3, "in1"): 2}, player=3, turns=4 * cap - 1)
    assert state.observation(None)["round"] == cap
    play(state, "hold in2", "hold in2")
    assert state.is_terminal() and state.returns() == [0.0, 0.0, 0.0, 1.0]
    board.pop("inner 9 day")
    state = position(board=board, private=private, player=3, turns=4 * cap - 1)
    play(state, "hold in2", "hold in2")
    assert state.returns() == [1 / 3, 1 / 3, 0.0, 1 / 3]
    assert "round cap" in state.observation(None)["result"]


# --- information, JSON, text ---------------------------------------------------------------


def test_G3_everything_is_public_so_resampling_copies():
    state = henge.load("spell_casting", 4).new_initial_state()
    play(state, "draw 1d", "draw 2d")
    sample = state.resample_from_infostate(2, random.Random(5))
    assert sample.observation(2) == state.observation(2)
    assert sample.to_json()["state"] == state.to_json()["state"]
    assert sample.legal_actions() == state.legal_actions()
    assert {k: v for k, v in state.observation(1).items() if k != "seat"} == {
        k: v for k, v in state.observation(None).items() if k != "seat"
    }
    with pytest.raises(ValueError):
        state.observation(4)


def test_bad_json_is_refused():
    good = position().to_json()
    game = henge.load("spell_casting", 4)
    for path, value in (
        (("energy",), [2, 2, 2, 1, 1, 2]),  # ten energy disks
        (("held",), [1, 0, 0, 0]),  # a disk held but none missing from the cups
        (("phase",), "use"),  # nothing in hand to use
        (("private_placed",), [1, 0, 0, 0]),  # a private disk without an inner component
        (("figures",), [None] * 6),
    ):
        bad = json.loads(json.dumps(good))
        bad["state"][path[0]] = value
        with pytest.raises(StateFormatError):
            game.state_from_json(bad)
    bad = json.loads(json.dumps(good))
    bad["state"]["rings"]["outer"][0] = 0  # an eighth component for seat 0
    with pytest.raises(StateFormatError, match="seven components"):
        game.state_from_json(bad)


def test_action_texts_are_unique_and_the_table_is_dense():
    game = henge.load("spell_casting", 4)
    assert game.num_distinct_actions() == sb.ACTION_COUNT == 428
    assert game.max_chance_outcomes() == 60
    assert game.parse_action("displace in night") == sb.DISPLACE + sb.D_IN_NIGHT
    assert game.action_text(sb.PULL_INNER + box.inner_index(13, True)) == "pull middle 13 day"
    assert game.action_text(sb.move_action(sb.cell(2, 30), True)) == "move middle 30 right"
    assert game.action_text(sb.figure_action(5, 2, False)) == "figure gray 20 left"


# --- the terminal drawing --------------------------------------------------------------------


def test_terminal_render_shows_rings_cups_hands_and_describes_every_decision():
    from rich.console import Console

    from henge.games.spell_casting import terminal

    game = henge.load("spell_casting", 3, variant="short")
    state = game.new_initial_state()
    rng = random.Random(8)
    phases: set[str] = set()
    step = 0
    while not state.is_terminal():
        seat = state.current_player()
        obs = state.observation(None if seat == CHANCE else seat)
        described = terminal.describe_decision(obs)
        assert described and (seat == CHANCE or described.startswith("you"))
        if obs["phase"] not in phases or step % 97 == 0:  # every phase once, and now and then
            phases.add(obs["phase"])
            console = Console(width=140, record=True, file=io.StringIO())
            console.print(terminal.render(obs))
            text = console.export_text()
            assert all(cup in text for cup in sb.CUP_NAMES) and "figures night" in text
            if obs["hand"]:
                assert f"disks in hand: {', '.join(obs['hand'])}" in text
            if obs["chain"]:
                assert f"off {obs['chain']['from']}" in text
            if obs["seat"] is not None:
                assert f"seat {obs['seat']} (you)" in text
        actions = state.legal_actions()
        state.apply_action(actions[int(rng.random() * len(actions))])
        step += 1
    final = state.observation(None)
    assert terminal.describe_decision(final) == final["result"]
    assert phases == set(sc._PHASE_NAMES) - {"over"}


# --- a designer's rule change ----------------------------------------------------------


class _OneHoldState(sc.SpellCastingState):
    """A designer's variant as a plain Python subclass: action c holds one disk, not two (SC10)."""

    __slots__ = ()

    def _take(self, action: int) -> None:
        super()._take(action)
        if sb.HOLD <= action < sb.PLACE and self.phase == sc.TAKE:
            self._end_turn()


class _OneHold(sc.SpellCasting):
    state_class = _OneHoldState


def test_a_python_subclass_overriding_a_rule_method_changes_play_on_either_path():
    # _take is called by _apply from inside the rules (compiled: a cpdef method), so the override
    # must still be what runs; a clone stays the subclass and keeps the changed rule.
    standard = dealt(3)
    variant = _OneHold(3).new_initial_state()
    for action in standard.history():
        variant.apply_action(action)
    assert type(variant) is _OneHoldState
    assert variant.legal_actions() == standard.legal_actions()
    play(standard, "hold in1")
    play(variant, "hold in1")
    assert (standard.player, standard.kind, standard.held[0]) == (0, sc.ACTION_C, 1)
    assert (variant.player, variant.kind, variant.held[0]) == (1, sc.NO_ACTION, 1)
    assert "hold in2" in legal(standard) and "take in2" not in legal(standard)
    assert "take in2" in legal(variant)
    copy = variant.clone()
    assert type(copy) is _OneHoldState
    play(copy, "hold in2")
    assert (copy.player, copy.held[1]) == (2, 1)
    assert (variant.player, variant.held[1]) == (1, 0)
