"""Scenario tests for Fightin' an' Drinkin' an' Stealin'! (rule text 001, rulings F1-F15).

Positions are built as JSON (a round's first placement, with chosen cards on
the board) and played on with action texts, chance outcomes forced by text.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from fightin_positions import fightin_position

import henge
from henge import box
from henge.core import CHANCE, TERMINAL, State
from henge.games.fightin import actions, events
from henge.games.fightin import position as fields_of_a_position
from henge.games.fightin.actions import DECKS, MONSTER_DECK

GAME = henge.load("fightin")
COLOURS = box.PLAYER_COLOURS


def position(**fields: Any) -> State:
    """The shared scenario position (a round's first placement); a hand of fewer than five comes
    with an empty deck (F12: a draw fills a hand to five while the deck holds cards), the other
    cards of the seats in their discard piles, as the seventh round finds them (G7)."""
    if "decks" not in fields and any(len(hand) < 5 for hand in fields["hands"]):
        fields["decks"] = ([], [])
    return fightin_position(**fields)


def texts(cards: Any) -> list[str]:
    return [box.CARD_TEXT[c] for c in cards]


def place(state: State, seat0: tuple[str, str, str], seat1: tuple[str, str, str]) -> None:
    """Both seats place their three cards (a forced last placement is made by the game)."""
    for seat, cards in ((0, seat0), (1, seat1)):
        for noun, card in zip(("fighter", "drinker", "thief"), cards, strict=True):
            obs = state.observation(seat)
            if obs["decision"] == "place" and state.current_player() == seat:
                state.apply_text(f"{noun} {card}")
            else:  # the only card left was placed for the seat
                assert obs["hand"] == [] and card in json.dumps(obs["events"])


def obs(state: State, seat: int | None = None) -> dict[str, Any]:
    return state.observation(seat)


def decision(state: State) -> tuple[int, str | None, list[str]]:
    """Returns who decides, the decision and its options."""
    seat = state.current_player()
    return seat, (obs(state)["decision"] if seat >= 0 else None), state.legal_action_texts()


def awards(state: State, seat: int) -> dict[str, int]:
    return obs(state)["awards"][seat]


def board(state: State, event: str) -> list[list[str]]:
    return obs(state)["events"][event]["cards"]


def run_to(state: State, *actions: str) -> None:
    for action in actions:
        state.apply_text(action)


# Hands used by most scenarios: small numbers that decide nothing.
HANDS = (["5d", "7d", "8d", "9d", "10d"], ["5n", "7n", "8n", "9n", "10n"])


# -- set-up (F1) ---------------------------------------------------------------------------


def test_F1_three_decks_from_the_shared_deck():
    assert len(MONSTER_DECK) == 17
    assert sorted(texts(MONSTER_DECK)) == sorted(
        [f"{n}{p}" for n in (6, 12, 18, 24, 30, 25) for p in "dn"] + [f"T-{c}" for c in COLOURS]
    )
    assert len(DECKS[0]) == len(DECKS[1]) == 24
    assert all(box.CARD_IS_DAY[c] for c in DECKS[0]) and all(box.CARD_IS_NIGHT[c] for c in DECKS[1])
    assert "1d" in texts(DECKS[0]) and "1n" in texts(DECKS[1])
    assert sorted(MONSTER_DECK + DECKS[0] + DECKS[1]) == list(box.FULL_DECK)


def test_F1_a_gonagal_is_never_dealt_face_up():
    state = GAME.new_initial_state()
    dealt = state.legal_action_texts()
    assert len(dealt) == 23 and "deal 1d" not in dealt and "deal 2d" in dealt
    run_to(state, "deal 2d", "deal 3d", "deal 4d")
    dealt = state.legal_action_texts()
    assert len(dealt) == 23 and "deal 1n" not in dealt and dealt[0].endswith("n")


def test_setup_deals_one_card_per_event_hands_of_five_first_monster_and_the_big_lawyer_on_30():
    state = GAME.new_initial_state()
    run_to(state, "deal 20d", "deal 22d", "deal 21d", "deal 29n", "deal 7n", "deal 10n")
    assert board(state, "fightin") == [["20d"], ["29n"]]
    assert board(state, "drinkin") == [["22d"], ["7n"]]
    assert board(state, "stealin") == [["21d"], ["10n"]]
    run_to(state, "draw 1d", "draw 2d", "draw 3d", "draw 4d", "draw 5d")
    assert obs(state)["hand_sizes"] == [5, 0]  # seat 0 draws its hand first
    run_to(state, "draw 1n", "draw 2n", "draw 3n", "draw 4n", "draw 5n")
    assert state.is_chance_node() and state.legal_action_texts() == [f"flip {c}" for c in texts(MONSTER_DECK)]
    state.apply_text("flip T-green")
    view = obs(state, 0)
    assert view["monsters"] == ["T-green"] and view["monster_deck"] == 16
    assert view["big_lawyer"] == {"space": 30, "colour": "black"}
    assert view["round"] == 1 and view["hand"] == ["1d", "2d", "3d", "4d", "5d"]
    assert view["deck_sizes"] == [16, 16]
    assert view["stock"] == dict.fromkeys(COLOURS, 10) and view["altar"] == 0
    assert decision(state) == (0, "place", ["fighter 1d", "fighter 2d", "fighter 3d", "fighter 4d", "fighter 5d"])


# -- sealed plays (F2) ---------------------------------------------------------------------


def test_F2_sealed_plays_seat_0_then_seat_1_hidden_until_the_event_turns_them():
    state = position(hands=HANDS)
    run_to(state, "fighter 9d", "drinker 10d")
    assert decision(state)[:2] == (0, "place")
    assert obs(state)["event"] == "stealin"
    state.apply_text("thief 8d")
    seen_by_1 = obs(state, 1)
    assert seen_by_1["events"]["drinkin"]["face_down"] == ["hidden", None]
    assert obs(state, None)["events"]["fightin"]["face_down"] == ["hidden", None]
    assert obs(state, 0)["events"]["drinkin"]["face_down"] == ["10d", None]
    assert "10d" not in json.dumps(seen_by_1) and "9d" not in json.dumps(seen_by_1)
    # seat 1 chooses without seeing seat 0's cards; seat 0 cannot see seat 1's either
    assert decision(state)[:2] == (1, "place")
    run_to(state, "fighter 5n", "drinker 7n", "thief 8n")
    assert "7n" not in json.dumps(obs(state, 0)["events"]) and "7n" not in json.dumps(obs(state, 0)["log"])
    # the Fightin' event turns its cards; the drinkers stay face down
    assert state.is_chance_node()  # 2d 9d against 2n 5n: seat 0 fights
    assert board(state, "fightin") == [["2d", "9d"], ["2n", "5n"]]
    assert obs(state, 1)["events"]["drinkin"]["face_down"] == ["hidden", "7n"]
    assert obs(state, 1)["events"]["stealin"]["face_down"] == ["hidden", "8n"]


# -- Fightin' (F4) ------------------------------------------------------------------------


def test_F4_the_higher_pair_fights_and_only_then_a_monster_is_flipped():
    state = position(hands=HANDS)
    place(state, ("9d", "5d", "7d"), ("5n", "7n", "8n"))
    assert state.is_chance_node()
    assert obs(state)["lead"] == 0  # 11 against 7
    assert state.legal_action_texts() == [f"flip {c}" for c in texts(MONSTER_DECK) if c != "12d"]


def test_F4_players_tie_each_discards_the_highest_fighter_and_no_monster_is_flipped():
    state = position(hands=HANDS, fight=(["13d"], ["14n"]))
    place(state, ("10d", "7d", "8d"), ("9n", "5n", "8n"))  # 23 against 23
    assert board(state, "fightin") == [["10d"], ["9n"]]
    assert obs(state)["monsters"] == ["12d"] and obs(state)["monster_deck"] == 16
    assert obs(state)["discards"] == [["13d"], ["14n"]]
    assert obs(state)["event"] == "drinkin"


def test_F4_where_a_players_two_fighters_are_equal_that_player_chooses():
    # Under their Wee Lawyers (F3) both of seat 0's fighters are red 0s and both of seat 1's green 0s.
    state = position(
        hands=(["11d", "7d", "8d", "9d", "10d"], ["9n", "7n", "8n", "5n", "10n"]),
        fight=(["5d"], ["3n"]),
        drink=(["13d"], ["13n"]),
        wee={"red": 0, "green": 1},
    )
    place(state, ("11d", "7d", "8d"), ("9n", "7n", "8n"))  # 0 against 0: a tie
    assert decision(state) == (0, "discard highest", ["discard 5d", "discard 11d"])
    state.apply_text("discard 11d")
    assert decision(state) == (1, "discard highest", ["discard 3n", "discard 9n"])
    state.apply_text("discard 3n")
    assert board(state, "fightin") == [["5d"], ["9n"]]


def test_fight_kill_lowest_monster_red_award_then_champion_and_opponent_discard():
    state = position(hands=HANDS, fight=(["20d"], ["2n"]), monsters=("12d",))
    place(state, ("10d", "5d", "7d"), ("5n", "7n", "8n"))
    state.apply_text("flip 18n")  # 30 against 12 + 18 = 30: a kill (greater or equal)
    assert obs(state)["monsters"] == ["18n"] and obs(state)["monster_discards"] == ["12d"]
    assert awards(state, 0)["red"] == 1
    assert decision(state) == (0, "discard own", ["discard 10d", "discard 20d"])
    state.apply_text("discard 20d")
    assert decision(state) == (1, "discard own", ["discard 2n", "discard 5n"])
    state.apply_text("discard 5n")
    assert board(state, "fightin") == [["10d"], ["2n"]]
    assert obs(state)["event"] == "drinkin"


def test_F4_trilithon_counts_zero_and_doubles_the_other_monster_and_its_kill_earns_a_bonus():
    state = position(hands=HANDS, fight=(["20d"], ["2n"]), monsters=("12d",))
    place(state, ("5d", "7d", "8d"), ("5n", "7n", "8n"))
    state.apply_text("flip T-blue")  # 25 against 24 + 0
    assert obs(state)["monsters"] == ["12d"] and obs(state)["monster_discards"] == ["T-blue"]
    assert awards(state, 0) == {"white": 0, "blue": 1, "green": 0, "yellow": 0, "red": 1}


def test_F4_a_doubled_monster_clobbers_and_the_unclobbered_player_decides():
    state = position(hands=HANDS, fight=(["17d"], ["2n"]), monsters=("12d",))
    place(state, ("5d", "7d", "8d"), ("5n", "7n", "8n"))
    state.apply_text("flip T-red")  # 22 against 24 + 0: clobbered
    assert decision(state) == (1, "discard own", ["discard 2n", "discard 5n"])
    state.apply_text("discard 5n")
    assert decision(state) == (1, "discard other", ["discard 5d", "discard 17d"])
    state.apply_text("discard 17d")
    # the unclobbered player earns white and discards the highest monster: the doubled 12d
    assert awards(state, 1)["white"] == 1 and awards(state, 0)["red"] == 0
    assert obs(state)["monsters"] == ["T-red"] and obs(state)["monster_discards"] == ["12d"]
    assert board(state, "fightin") == [["5d"], ["2n"]]


def test_F4_monster_ties_are_chosen_by_the_player_the_text_names():
    state = position(hands=HANDS, fight=(["20d"], ["2n"]), monsters=("6d",))
    place(state, ("5d", "7d", "8d"), ("5n", "7n", "8n"))
    state.apply_text("flip 6n")  # kill; both monsters are 6
    assert decision(state) == (0, "kill", ["kill 6n", "kill 6d"])
    state.apply_text("kill 6n")
    assert obs(state)["monsters"] == ["6d"]
    # clobbered by 30 + 30: the unclobbered player picks which highest monster goes
    state = position(hands=HANDS, fight=(["20d"], ["2n"]), monsters=("30d",))
    place(state, ("5d", "7d", "8d"), ("5n", "7n", "8n"))
    state.apply_text("flip 30n")
    run_to(state, "discard 5n", "discard 20d")
    assert decision(state) == (1, "discard monster", ["discard 30n", "discard 30d"])
    state.apply_text("discard 30d")
    assert obs(state)["monsters"] == ["30n"]


def test_F3_wee_lawyer_makes_its_holders_cards_of_that_colour_worth_zero():
    # seat 0 holds the white Wee Lawyer: 13d and 19d (white) fight as 0, so seat 1 fights
    state = position(hands=(["19d", "7d", "8d", "9d", "10d"], HANDS[1]), fight=(["13d"], ["2n"]), wee={"white": 0})
    place(state, ("19d", "7d", "8d"), ("5n", "7n", "8n"))
    assert obs(state)["lead"] == 1
    state.apply_text("flip 6n")  # 7 against 12 + 6: clobbered, so seat 0 decides
    assert decision(state)[:2] == (0, "discard own")


# -- Drinkin' (F5) ------------------------------------------------------------------------

# Placements after which the Fightin' event resolves by itself: 2d 5d against 2n 5n tie,
# and each seat's highest fighter (5) goes.
QUIET_FIGHT = {"fight": (["2d"], ["2n"])}


def test_drink_a_blue_award_is_served_and_under_fifty_it_stays_for_another_round():
    state = position(hands=HANDS, drink=(["3d"], ["3n"]), **QUIET_FIGHT)
    place(state, ("5d", "7d", "9d"), ("5n", "8n", "9n"))  # 3 + 7 + 3 + 8 = 21
    assert obs(state)["altar"] == 1 and obs(state)["stock"]["blue"] == 9
    assert decision(state) == (1, "discard own", ["discard 3n", "discard 8n"])  # the biggest drinker's first
    state.apply_text("discard 8n")
    assert decision(state) == (0, "discard own", ["discard 3d", "discard 7d"])
    state.apply_text("discard 3d")
    assert board(state, "drinkin") == [["7d"], ["3n"]]
    assert obs(state)["altar"] == 1 and awards(state, 1)["blue"] == 0


def test_drink_fifty_to_sixty_the_biggest_drinker_earns_every_award_on_the_altar():
    hands = (["5d", "7d", "8d", "9d", "27d"], HANDS[1])
    state = position(hands=hands, drink=(["20d"], ["3n"]), altar=2, **QUIET_FIGHT)
    place(state, ("5d", "27d", "9d"), ("5n", "9n", "8n"))  # 20 + 27 + 3 + 9 = 59
    assert awards(state, 0)["blue"] == 3 and obs(state)["altar"] == 0
    assert decision(state) == (0, "discard own", ["discard 20d", "discard 27d"])
    state.apply_text("discard 27d")
    assert decision(state) == (1, "discard own", ["discard 3n", "discard 9n"])


@pytest.mark.parametrize(
    ("on_board", "drinkers", "total", "blue", "altar", "green"),
    [
        ("16d", ("22d", "8n"), 49, 0, 3, 0),
        ("16d", ("23d", "8n"), 50, 3, 0, 0),
        ("20d", ("27d", "10n"), 60, 3, 0, 0),
        ("20d", ("27d", "11n"), 61, 0, 0, 1),
    ],
)
def test_drink_the_limits_fifty_and_sixty_win(on_board, drinkers, total, blue, altar, green):
    hands = (["5d", "7d", "22d", "23d", "27d"], ["5n", "7n", "8n", "10n", "11n"])
    state = position(hands=hands, drink=([on_board], ["3n"]), altar=2, **QUIET_FIGHT)
    place(state, ("5d", drinkers[0], "7d"), ("5n", drinkers[1], "7n"))
    if green:  # the other player discards a drinker before the green award
        state.apply_text("discard 3n")
    assert int(on_board[:-1]) + int(drinkers[0][:-1]) + 3 + int(drinkers[1][:-1]) == total
    assert (awards(state, 0)["blue"], obs(state)["altar"], awards(state, 1)["green"]) == (blue, altar, green)


def test_drink_over_sixty_the_biggest_drinker_passes_out_and_the_other_earns_green():
    hands = (["5d", "7d", "8d", "9d", "27d"], HANDS[1])
    state = position(hands=hands, drink=(["20d"], ["14n"]), altar=2, **QUIET_FIGHT)
    place(state, ("5d", "27d", "8d"), ("5n", "9n", "7n"))  # 20 + 27 + 14 + 9 = 70
    assert obs(state)["altar"] == 0 and obs(state)["stock"]["blue"] == 10  # served, then back to stock
    assert obs(state)["discards"][0] == ["5d", "27d"]  # the biggest drinker is discarded
    assert decision(state) == (1, "discard own", ["discard 9n", "discard 14n"])
    state.apply_text("discard 14n")
    assert awards(state, 1)["green"] == 1
    assert board(state, "drinkin") == [["20d"], ["9n"]]


def test_F5_tie_for_biggest_drinker_when_both_players_hold_the_highest_value():
    state = position(hands=HANDS, drink=(["20d"], ["20n"]), altar=1, **QUIET_FIGHT)
    place(state, ("5d", "7d", "8d"), ("5n", "9n", "7n"))
    # each discards their biggest drinker, the awards stay, and the Stealin' event begins
    assert board(state, "drinkin") == [["7d"], ["9n"]]
    assert obs(state)["altar"] == 2 and awards(state, 0)["blue"] == awards(state, 1)["blue"] == 0
    assert obs(state)["event"] == "stealin"
    # one player holding the highest value alone is the biggest drinker, however close the rest
    state = position(hands=HANDS, drink=(["20d"], ["19n"]), **QUIET_FIGHT)
    place(state, ("5d", "7d", "8d"), ("5n", "10n", "7n"))
    assert obs(state)["lead"] == 0 and decision(state)[:2] == (0, "discard own")


# -- Stealin' (F6-F8, F15) ----------------------------------------------------------------

# Placements after which Fightin' and Drinkin' resolve by themselves (ties, single highest cards).
QUIET = {"fight": (["2d"], ["2n"]), "drink": (["22d"], ["22n"])}
STEAL_HANDS = (["5d", "7d", "8d", "9d", "10d", "15d", "23d", "27d"], ["5n", "7n", "8n", "9n", "10n", "15n", "27n"])


def steal_position(seat0_thief: str, seat1_thief: str, steal: tuple[list[str], list[str]], **kw: Any) -> State:
    hands = (
        ["5d", "7d", seat0_thief] + [c for c in ("8d", "9d", "10d") if c != seat0_thief][:2],
        ["5n", "7n", seat1_thief] + [c for c in ("8n", "9n", "10n") if c != seat1_thief][:2],
    )
    state = position(hands=hands, steal=steal, **{**QUIET, **kw})
    place(state, ("5d", "7d", seat0_thief), ("5n", "7n", seat1_thief))
    assert obs(state)["event"] == "stealin"
    return state


def test_F6_worked_case_20_20_15_10_no_highest_thief_and_15_second():
    state = steal_position("15d", "10n", (["20d"], ["20n"]))
    view = obs(state)
    assert view["highest_thief"] is None and view["second_thief"] == "15d"
    assert decision(state) == (0, "take yellow", ["take yellow", "done"])
    state.apply_text("take yellow")  # onto the thief, not into the awards
    assert list(obs(state)["loot"]) == ["15d"] and awards(state, 0)["yellow"] == 0


def test_F6_worked_case_20_15_15_10_highest_thief_and_no_second():
    state = steal_position("15d", "15n", (["20d"], ["10n"]), awards=([0] * 5, [0, 0, 1, 0, 0]))
    view = obs(state)
    assert view["highest_thief"] == "20d" and view["second_thief"] is None
    assert decision(state) == (0, "steal", ["steal green", "done"])
    state.apply_text("steal green")
    assert awards(state, 1)["green"] == 0
    # no second thief: straight on to the Big Lawyer (one award on the thieves) and scarpering
    assert obs(state)["big_lawyer"]["space"] == 29
    assert decision(state) == (0, "scarper", ["scarper 15d", "scarper 20d"])
    state.apply_text("scarper 20d")  # it brings its loot home
    assert awards(state, 0)["green"] == 1


def test_steal_all_the_loot_of_an_opposing_thief_onto_the_highest_thief():
    loot = {"20n": [0, 1, 0, 0, 2]}
    state = steal_position("23d", "9n", (["20d"], ["20n"]), loot=loot, awards=([0] * 5, [1, 0, 0, 0, 0]))
    assert obs(state)["highest_thief"] == "23d" and obs(state)["second_thief"] is None  # the 20s cancel
    # the opponent's thieves carry awards, so no award may be taken from the opponent directly
    assert decision(state) == (0, "steal", ["steal from 20n", "done"])
    state.apply_text("steal from 20n")
    assert obs(state)["loot"] == {"23d": {"white": 0, "blue": 1, "green": 0, "yellow": 0, "red": 2}}
    assert obs(state)["big_lawyer"]["space"] == 27
    state.apply_text("scarper 23d")
    assert awards(state, 0) == {"white": 0, "blue": 1, "green": 0, "yellow": 0, "red": 2}


def test_steal_a_player_may_choose_not_to_steal():
    state = steal_position("23d", "9n", (["20d"], ["20n"]), awards=([0] * 5, [1, 0, 0, 0, 0]))
    state.apply_text("done")
    assert awards(state, 1)["white"] == 1 and obs(state)["loot"] == {}
    assert obs(state)["big_lawyer"]["space"] == 30


def test_steal_the_second_thief_takes_a_yellow_award_from_stock_onto_itself():
    state = steal_position("15d", "10n", (["20d"], ["20n"]))
    state.apply_text("take yellow")
    assert obs(state)["loot"] == {"15d": {"white": 0, "blue": 0, "green": 0, "yellow": 1, "red": 0}}
    assert obs(state)["stock"]["yellow"] == 9
    assert obs(state)["big_lawyer"]["space"] == 29


def test_F7_loot_rides_on_a_thief_into_later_rounds_and_counts_for_the_big_lawyer():
    loot = {"20n": [1, 1, 1, 0, 0]}
    state = steal_position("9d", "10n", (["21d"], ["20n"]), loot=loot)
    # 21d highest, 20n second: both decline
    run_to(state, "done", "done")
    assert obs(state)["big_lawyer"]["space"] == 27  # the three awards carried over from before
    run_to(state, "scarper 9d", "scarper 10n")
    assert board(state, "stealin") == [["21d"], ["20n"]]
    assert obs(state)["loot"] == {"20n": {"white": 1, "blue": 1, "green": 1, "yellow": 0, "red": 0}}


def test_F8_the_big_lawyer_counts_down_and_wraps_from_1_to_30():
    loot = {"20n": [0, 1, 1, 1, 0]}
    state = steal_position("9d", "10n", (["21d"], ["20n"]), loot=loot, lawyer=2)
    run_to(state, "done", "done")
    assert obs(state)["big_lawyer"] == {"space": 29, "colour": "red"}


def test_habeascorpus_the_lowest_thief_at_or_above_the_big_lawyer_is_caught_and_its_owner_takes_a_wee_lawyer():
    loot = {"23d": [0, 0, 1, 0, 0]}
    state = steal_position("9d", "27n", (["23d"], ["10n"]), loot=loot, lawyer=23)
    # 27n highest, 23d second; both decline; the Big Lawyer moves 1 to 22 (yellow)
    run_to(state, "done", "done")
    # 23d and 27n are at or above 22; the lowest, 23d, goes back with its loot
    assert obs(state)["discards"][0][-1] == "23d" and obs(state)["stock"]["green"] == 10
    # seat 0 was caught, so only seat 1 scarpers; then seat 0 takes the yellow Wee Lawyer
    assert decision(state) == (1, "scarper", ["scarper 10n", "scarper 27n"])
    state.apply_text("scarper 27n")
    assert obs(state)["wee_lawyers"]["yellow"] == 0
    assert board(state, "stealin") == [["9d"], ["10n"]]


def test_habeascorpus_ties_go_to_the_thief_with_most_awards_then_both():
    loot = {"20n": [0, 0, 2, 0, 0]}
    state = steal_position("9d", "10n", (["20d"], ["20n"]), loot=loot, lawyer=22)
    # the 20s cancel; 10n second: declines; the Big Lawyer moves 2 to 20
    state.apply_text("done")
    assert obs(state)["discards"][1][-1] == "20n"  # 20n has more awards
    assert board(state, "stealin") == [["20d", "9d"], ["10n"]]
    state.apply_text("scarper 20d")
    assert obs(state)["wee_lawyers"]["blue"] == 1  # space 20 is blue
    # still tied: both are caught, nobody scarpers and nobody takes a Wee Lawyer
    state = steal_position("9d", "10n", (["20d"], ["20n"]), lawyer=20)
    state.apply_text("done")
    assert board(state, "stealin") == [["9d"], ["10n"]]
    assert obs(state)["wee_lawyers"] == dict.fromkeys(COLOURS)
    assert state.is_chance_node() and state.legal_action_texts()[0].startswith("draw")  # the round is over


def test_F8_on_a_black_space_the_opponent_names_the_wee_lawyer():
    state = steal_position("9d", "27n", (["21d"], ["10n"]), lawyer=24)
    # 27n is highest (with nothing to steal), 21d second: declines; 27n is caught at 24 (black)
    state.apply_text("done")
    state.apply_text("scarper 21d")
    assert decision(state) == (0, "name colour", [f"name {c}" for c in COLOURS])
    state.apply_text("name red")
    assert obs(state)["wee_lawyers"]["red"] == 1


def test_F16_on_black_the_namer_offers_only_colours_the_caught_player_lacks_and_may_give_away_its_own():
    # Seat 1 holds the blue Wee Lawyer, seat 0 the red one (no card of those seats' colours is in play).
    state = position(
        hands=(["7d", "9d", "10d", "14d", "15d"], ["7n", "9n", "27n", "14n", "15n"]),
        fight=(["3d"], ["3n"]),
        drink=(["22d"], ["22n"]),
        steal=(["21d"], ["13n"]),
        lawyer=24,
        wee={"blue": 1, "red": 0},
    )
    place(state, ("7d", "9d", "10d"), ("7n", "9n", "27n"))  # the fighters and the drinkers tie
    run_to(state, "done", "scarper 21d")  # 27n (highest) is caught at 24, a black space
    assert decision(state) == (0, "name colour", ["name white", "name green", "name yellow", "name red"])
    state.apply_text("name red")  # the namer's own red Wee Lawyer moves to the caught player
    assert obs(state)["wee_lawyers"] == {"white": None, "blue": 1, "green": None, "yellow": None, "red": 1}
    assert [0, "names red"] in state.information_state(1)


def _caught_on_black(wee: list[int]) -> State:
    """Seat 0 about to scarper, seat 1 caught on black; then seat 1 is given the Wee Lawyers ``wee``
    (set by hand: a player holding all five has only cards worth 0, which are never caught)."""
    state = steal_position("9d", "27n", (["21d"], ["10n"]), lawyer=24)
    state.apply_text("done")
    state.wee = wee  # type: ignore[attr-defined]
    state.apply_text("scarper 21d")
    return state


def test_F16_a_caught_player_lacking_one_colour_takes_it_without_a_decision():
    state = _caught_on_black([1, 1, 1, 0, 1])
    assert obs(state)["wee_lawyers"]["yellow"] == 1
    assert state.is_chance_node()  # the round is over: the only colour was named for seat 0
    assert [0, "names yellow"] in state.information_state(1)


def test_F16_a_caught_player_holding_all_five_wee_lawyers_takes_none():
    state = _caught_on_black([1, 1, 1, 1, 1])
    assert state.is_chance_node() and obs(state)["wee_lawyers"] == dict.fromkeys(COLOURS, 1)
    assert obs(state)["log"][-1] == "no Wee Lawyer is left for seat 1: nothing happens"


def test_F8_a_wee_lawyer_moves_to_whoever_must_take_it():
    state = steal_position("9d", "27n", (["21d"], ["10n"]), lawyer=22, wee={"yellow": 0}, drink=(["20d"], ["20n"]))
    state.apply_text("done")  # 27n is caught at 22 (yellow)
    state.apply_text("scarper 21d")
    assert obs(state)["wee_lawyers"] == {"white": None, "blue": None, "green": None, "yellow": 1, "red": None}


def test_F15_steals_come_before_the_lawyer_and_the_habeascorpus_test_uses_card_values():
    # 27d is green and seat 0 holds the green Wee Lawyer: worth 0, it is not caught at 21
    state = steal_position("27d", "10n", (["14d"], ["20n"]), lawyer=22, wee={"green": 0})
    assert obs(state)["highest_thief"] == "20n" and obs(state)["second_thief"] == "14d"
    state.apply_text("take yellow")
    assert obs(state)["big_lawyer"]["space"] == 21  # the yellow just taken moved it
    assert board(state, "stealin") == [["14d", "27d"], ["20n", "10n"]]  # nobody caught
    assert decision(state) == (0, "scarper", ["scarper 14d", "scarper 27d"])
    state.apply_text("scarper 27d")
    assert decision(state) == (1, "scarper", ["scarper 10n", "scarper 20n"])


# -- the Gonagals (F13, F14, F9) --------------------------------------------------------------


def test_F14_a_gonagal_in_the_fightin_event_kills_any_monster_and_picks_the_opposing_discard():
    hands = (["1d", "7d", "8d", "9d", "10d"], HANDS[1])
    state = position(hands=hands, fight=(["20d"], ["29n"]), monsters=("12d",))
    place(state, ("1d", "7d", "8d"), ("5n", "7n", "8n"))
    assert obs(state)["gonagal"] == 0 and state.is_chance_node()  # the next monster is flipped
    state.apply_text("flip T-yellow")
    assert decision(state) == (0, "kill", ["kill 12d", "kill T-yellow"])  # any monster, even the lowest
    state.apply_text("kill T-yellow")
    assert decision(state) == (0, "discard other", ["discard 5n", "discard 29n"])
    state.apply_text("discard 29n")
    # red and white, the trilithon card's bonus; the Gonagal goes, the other fighter stays
    assert awards(state, 0) == {"white": 1, "blue": 0, "green": 0, "yellow": 1, "red": 1}
    assert awards(state, 1) == dict.fromkeys(COLOURS, 0)  # nobody is clobbered
    assert board(state, "fightin") == [["20d"], ["5n"]]
    assert obs(state)["discards"][0][0] == "1d" and obs(state)["monsters"] == ["12d"]
    assert obs(state)["gonagal"] is None


def test_F14_a_gonagal_in_the_drinkin_event_takes_the_altar_and_a_green_award():
    hands = (HANDS[0], ["1n", "5n", "7n", "8n", "9n"])
    state = position(hands=hands, drink=(["20d"], ["14n"]), altar=1, **QUIET_FIGHT)
    place(state, ("5d", "10d", "8d"), ("5n", "1n", "8n"))
    assert obs(state)["altar"] == 2  # served first
    assert decision(state) == (1, "discard other", ["discard 10d", "discard 20d"])
    state.apply_text("discard 20d")
    assert awards(state, 1) == {"white": 0, "blue": 2, "green": 1, "yellow": 0, "red": 0}
    assert obs(state)["altar"] == 0
    assert board(state, "drinkin") == [["10d"], ["14n"]] and obs(state)["discards"][1] == ["5n", "1n"]


def test_F9_F14_a_gonagal_in_the_stealin_event_takes_the_opposing_loot_and_nobody_is_caught():
    loot = {"20n": [0, 0, 0, 0, 2], "3d": [0, 0, 1, 0, 0]}
    state = steal_position("1d", "10n", (["3d"], ["20n"]), loot=loot, lawyer=24)
    # the opposing loot and a yellow ride on the Gonagal; the Big Lawyer moves for all four awards
    assert obs(state)["loot"]["1d"] == {"white": 0, "blue": 0, "green": 0, "yellow": 1, "red": 2}
    assert obs(state)["big_lawyer"]["space"] == 20
    assert obs(state)["highest_thief"] is None  # no ranking, no ordinary steal
    assert decision(state) == (0, "discard other", ["discard 10n", "discard 20n"])
    state.apply_text("discard 10n")
    # 20n stands at 20 but nobody is Habeascorpusized, nobody scarpers and no Wee Lawyer moves
    assert board(state, "stealin") == [["3d"], ["20n"]]
    assert awards(state, 0) == {"white": 0, "blue": 0, "green": 0, "yellow": 1, "red": 2}  # F9
    assert obs(state)["loot"] == {"3d": {"white": 0, "blue": 0, "green": 1, "yellow": 0, "red": 0}}
    assert obs(state)["wee_lawyers"] == dict.fromkeys(COLOURS)
    assert obs(state)["discards"][0][-1] == "1d"
    assert state.is_chance_node()


def test_F13_two_gonagals_cancel_and_count_1_and_neither_must_go():
    hands = (["1d", "7d", "8d", "9d", "10d"], ["1n", "7n", "8n", "9n", "10n"])
    state = position(hands=hands, fight=(["20d"], ["2n"]), monsters=("12d",))
    place(state, ("1d", "7d", "8d"), ("1n", "7n", "8n"))
    assert obs(state)["gonagal"] is None and obs(state)["lead"] == 0  # 21 against 3
    state.apply_text("flip 6n")  # 21 against 18: a kill
    assert decision(state) == (0, "discard own", ["discard 1d", "discard 20d"])
    state.apply_text("discard 20d")
    state.apply_text("discard 2n")
    assert board(state, "fightin") == [["1d"], ["1n"]]


def test_F13_a_gonagal_left_on_the_board_from_an_earlier_round_has_no_power():
    state = position(hands=HANDS, fight=(["1d"], ["14n"]), monsters=("12d",))
    place(state, ("5d", "7d", "8d"), ("5n", "7n", "8n"))
    assert obs(state)["gonagal"] is None and obs(state)["lead"] == 1  # 6 against 19: seat 1 fights


def test_F3_the_white_wee_lawyer_disarms_a_gonagal_into_a_plain_zero():
    hands = (["1d", "7d", "8d", "9d", "10d"], HANDS[1])
    state = position(hands=hands, fight=(["20d"], ["2n"]), wee={"white": 0})
    place(state, ("1d", "8d", "9d"), ("5n", "7n", "8n"))
    assert obs(state)["gonagal"] is None and obs(state)["lead"] == 0  # 20 + 0 against 7
    state.apply_text("flip 6n")
    assert decision(state) == (0, "discard own", ["discard 1d", "discard 20d"])


def test_choice_a_disarmed_gonagal_does_not_cancel_the_other_players_gonagal():
    hands = (["1d", "7d", "8d", "9d", "10d"], ["1n", "7n", "8n", "9n", "10n"])
    state = position(hands=hands, wee={"white": 0}, **QUIET_FIGHT)
    place(state, ("8d", "1d", "9d"), ("8n", "1n", "9n"))
    assert obs(state)["event"] == "drinkin" and obs(state)["gonagal"] == 1
    assert decision(state) == (1, "discard other", ["discard 1d", "discard 3d"])


# -- the seventh round ----------------------------------------------------------------------

R7_HANDS = (["5d", "7d", "9d"], ["5n", "7n", "9n"])


def test_round_seven_fightin_gives_two_red_and_two_bonus_awards_or_two_white():
    state = position(hands=R7_HANDS, round=7, fight=(["20d"], ["2n"]), monsters=("12d",))
    place(state, ("5d", "7d", "9d"), ("5n", "7n", "9n"))
    state.apply_text("flip T-green")  # 25 against 24
    assert awards(state, 0) == {"white": 0, "blue": 0, "green": 2, "yellow": 0, "red": 2}
    state = position(hands=R7_HANDS, round=7, fight=(["20d"], ["2n"]), monsters=("30d",))
    place(state, ("5d", "7d", "9d"), ("5n", "7n", "9n"))
    state.apply_text("flip 6n")  # 25 against 36
    run_to(state, "discard 5n", "discard 5d")
    assert awards(state, 1)["white"] == 2


def test_round_seven_drinkin_serves_two_blue_and_passing_out_gives_two_green():
    state = position(hands=(["5d", "7d", "27d"], R7_HANDS[1]), round=7, drink=(["20d"], ["14n"]), **QUIET_FIGHT)
    place(state, ("5d", "27d", "7d"), ("5n", "9n", "7n"))
    assert obs(state)["stock"]["blue"] == 10  # two served, then back to stock when 27d passes out
    state.apply_text("discard 14n")
    assert awards(state, 1)["green"] == 2
    state = position(hands=R7_HANDS, round=7, drink=(["3d"], ["3n"]), **QUIET_FIGHT)
    place(state, ("5d", "7d", "9d"), ("5n", "9n", "7n"))
    assert obs(state)["altar"] == 2


def test_round_seven_a_thief_may_steal_two_awards_from_the_opponent():
    state = position(
        hands=(["5d", "7d", "23d"], ["5n", "7n", "9n"]),
        round=7,
        steal=(["3d"], ["10n"]),
        awards=([0] * 5, [1, 0, 0, 0, 2]),
        **QUIET,
    )
    place(state, ("5d", "7d", "23d"), ("5n", "7n", "9n"))
    assert decision(state) == (0, "steal", ["steal white", "steal red", "done"])
    state.apply_text("steal red")
    assert decision(state) == (0, "steal", ["steal white", "steal red", "done"])
    state.apply_text("steal red")
    # two taken: the steal is over; the second thief (10n) may take up to two yellows
    assert obs(state)["loot"]["23d"]["red"] == 2 and awards(state, 1)["red"] == 0
    assert decision(state) == (1, "take yellow", ["take yellow", "done"])
    state.apply_text("take yellow")
    assert decision(state) == (1, "take yellow", ["take yellow", "done"])
    state.apply_text("take yellow")
    assert obs(state)["loot"]["10n"]["yellow"] == 2
    assert obs(state)["big_lawyer"]["space"] == 26


def test_round_seven_a_steal_may_stop_after_one_award():
    state = position(
        hands=(["5d", "7d", "23d"], ["5n", "7n", "9n"]),
        round=7,
        steal=(["3d"], ["10n"]),
        awards=([0] * 5, [1, 0, 0, 0, 2]),
        **QUIET,
    )
    place(state, ("5d", "7d", "23d"), ("5n", "7n", "9n"))
    run_to(state, "steal white", "done", "done")
    assert obs(state)["loot"] == {"23d": {"white": 1, "blue": 0, "green": 0, "yellow": 0, "red": 0}}
    assert obs(state)["big_lawyer"]["space"] == 29


def test_round_seven_a_gonagal_earns_two_of_each():
    hands = (["1d", "7d", "9d"], R7_HANDS[1])
    state = position(hands=hands, round=7, fight=(["20d"], ["2n"]), monsters=("12d",))
    place(state, ("1d", "7d", "9d"), ("5n", "7n", "9n"))
    run_to(state, "flip 6d", "kill 12d", "discard 5n")
    assert awards(state, 0) == {"white": 2, "blue": 0, "green": 0, "yellow": 0, "red": 2}


def test_round_seven_a_gonagal_drinker_takes_two_green_and_a_gonagal_thief_two_yellow():
    state = position(hands=(["5d", "7d", "9d"], ["5n", "1n", "9n"]), round=7, drink=(["3d"], ["3n"]), **QUIET_FIGHT)
    place(state, ("5d", "7d", "9d"), ("5n", "1n", "9n"))
    state.apply_text("discard 7d")
    assert awards(state, 1)["blue"] == 2 and awards(state, 1)["green"] == 2
    state = position(hands=(["5d", "7d", "1d"], R7_HANDS[1]), round=7, **QUIET)
    place(state, ("5d", "7d", "1d"), ("5n", "7n", "9n"))
    assert obs(state)["loot"]["1d"]["yellow"] == 2 and obs(state)["big_lawyer"]["space"] == 28


# -- stock, draws, scoring (F10-F12) ----------------------------------------------------------


def test_F10_an_award_the_stock_cannot_supply_is_not_given():
    stock = [10, 10, 10, 10, 0]
    state = position(hands=HANDS, fight=(["20d"], ["2n"]), awards=([0] * 5, [0, 0, 0, 0, 10]), stock=stock)
    place(state, ("5d", "7d", "8d"), ("5n", "7n", "8n"))
    state.apply_text("flip T-red")  # 25 against 24: a kill of the red trilithon card
    assert awards(state, 0)["red"] == 0 and obs(state)["stock"]["red"] == 0


def test_F10_the_stock_never_runs_out_in_play(monkeypatch):
    taken = []
    real = fields_of_a_position._from_stock

    def from_stock(state: Any, colour: int, count: int) -> int:
        assert state.stock[colour] >= count, "the stock ran out"
        taken.append(count)
        return real(state, colour, count)

    for module in (events, fields_of_a_position):  # every rule module that takes awards from stock
        monkeypatch.setattr(module, "_from_stock", from_stock)
    rng = random.Random(10)
    for _ in range(60):
        state = GAME.new_initial_state()
        while not state.is_terminal():
            actions = state.legal_actions()
            state.apply_action(actions[int(rng.random() * len(actions))])
    assert len(taken) > 60 * 7


def test_F12_the_end_of_round_draw_takes_what_a_short_deck_holds():
    state = position(
        hands=(["5d", "7d", "9d", "10d", "15d"], ["5n", "7n", "9n", "10n", "15n"]),
        round=6,
        steal=(["20d"], ["20n"]),
        decks=(["23d"], ["11n", "13n", "14n", "16n"]),
        **QUIET,
    )
    place(state, ("5d", "7d", "9d"), ("5n", "7n", "9n"))  # the 20s cancel and so do the 9s
    run_to(state, "scarper 9d", "scarper 9n")
    assert state.legal_action_texts() == ["draw 23d"]
    state.apply_text("draw 23d")
    run_to(state, "draw 11n", "draw 13n", "draw 14n")
    view = obs(state, 0)
    assert view["round"] == 7 and view["hand_sizes"] == [3, 5] and view["deck_sizes"] == [0, 1]
    assert decision(state)[:2] == (0, "place")


def finish_round_seven(awards_: tuple[list[int], list[int]], *, wee: dict[str, int] | None = None, **kw: Any) -> State:
    """Plays a seventh round in which nothing scores; returns the state at the scoring."""
    state = position(
        hands=(["5d", "7d", "9d"], ["5n", "7n", "9n"]),
        round=7,
        steal=(["20d"], ["20n"]),
        awards=awards_,
        wee=wee,
        **QUIET,
        **kw,
    )
    place(state, ("5d", "7d", "9d"), ("5n", "7n", "9n"))  # both thief places cancel
    run_to(state, "scarper 9d", "scarper 9n")
    return state


def test_F11_drop_the_best_colour_a_tie_is_the_players_choice_and_the_higher_total_wins():
    state = finish_round_seven(([4, 4, 0, 0, 2], [0, 0, 3, 1, 3]))
    assert decision(state) == (0, "drop colour", ["drop white", "drop blue"])
    state.apply_text("drop blue")
    assert decision(state) == (1, "drop colour", ["drop green", "drop red"])
    state.apply_text("drop green")
    assert state.is_terminal()
    view = obs(state, 1)
    assert view["scores"] == [6.0, 4.0] and view["dropped"] == ["blue", "green"] and view["winners"] == [0]
    assert state.returns() == [1.0, 0.0]


def test_F11_a_wee_lawyer_halves_its_colour_and_equal_totals_draw():
    # seat 0 holds the white Wee Lawyer: white 5 counts 2.5, so blue 3 is its best colour: 2.5 + 2 = 4.5
    state = finish_round_seven(([5, 3, 0, 0, 2], [0, 0, 4, 3, 1]), wee={"white": 0})
    assert state.is_terminal()
    assert obs(state)["scores"] == [4.5, 4.0] and obs(state)["dropped"] == ["blue", "green"]
    state = finish_round_seven(([2, 1, 0, 0, 0], [0, 0, 2, 0, 1]))
    assert state.is_terminal() and obs(state)["scores"] == [1.0, 1.0]
    assert obs(state)["winners"] == [0, 1] and state.returns() == [0.5, 0.5]


def test_F11_loot_on_thieves_and_awards_on_the_altar_do_not_score():
    loot = {"20n": [0, 0, 0, 0, 3]}
    state = finish_round_seven(([1, 0, 0, 0, 0], [1, 0, 0, 0, 0]), loot=loot, altar=3)
    assert state.is_terminal()
    assert obs(state)["loot"] == {"20n": {"white": 0, "blue": 0, "green": 0, "yellow": 0, "red": 3}}
    assert obs(state)["altar"] == 5 and obs(state)["scores"] == [0.0, 0.0]


def test_G4_every_game_ends_after_round_seven_with_shares_of_one():
    outcomes = set()
    for seed in range(60):
        record = henge.play(GAME, ["random", "random"], seed=seed)
        final = henge.replay(record)[-1]
        assert final.is_terminal() and final.observation(0)["round"] == GAME.info.round_cap == 7
        assert len(record["actions"]) <= GAME.max_game_length()
        outcomes.add(tuple(record["returns"]))
    assert outcomes <= {(1.0, 0.0), (0.0, 1.0), (0.5, 0.5)} and len(outcomes) >= 2


def test_G2_every_player_action_text_is_unique_and_typable():
    texts_ = GAME.player_action_texts
    assert len(texts_) == GAME.num_distinct_actions() == 447
    assert GAME.parse_action("Fighter 13D") == GAME.parse_action("fighter 13d")
    assert GAME.action_text(GAME.parse_action("steal from 20n")) == "steal from 20n"
    assert GAME.max_chance_outcomes() == 195


def test_G3_resampling_keeps_what_a_seat_knows_and_redraws_the_rest():
    state = position(hands=HANDS)
    run_to(state, "fighter 9d", "drinker 10d", "thief 8d", "fighter 5n")
    rng = random.Random(3)
    seen = [state.observation(0), state.observation(1)]
    changed = set()
    for _ in range(20):
        sample = state.resample_from_infostate(1, rng)
        assert sample.observation(1) == seen[1]
        assert sample.hands[1] == state.hands[1]  # type: ignore[attr-defined]
        changed.add(tuple(sample.down))  # type: ignore[attr-defined]
    assert len(changed) > 1  # seat 0's face-down cards are re-drawn for seat 1
    with pytest.raises(ValueError):
        state.observation(2)
    assert state.current_player() not in (CHANCE, TERMINAL)


# -- choices where the text is silent ----------------------------------------------------------


def test_choice_a_choice_with_one_option_is_made_for_the_player():
    # 27n is the highest thief but seat 0 has nothing to steal: no decision; 21d (second) may take yellow
    state = steal_position("9d", "27n", (["21d"], ["10n"]))
    assert decision(state) == (0, "take yellow", ["take yellow", "done"])
    assert obs(state)["highest_thief"] == "27n"
    # the last card of a three-card hand is placed for its owner
    state = position(hands=R7_HANDS, round=7)
    run_to(state, "fighter 5d", "drinker 7d")
    assert obs(state, 0)["events"]["stealin"]["face_down"][0] == "9d" and obs(state, 0)["hand"] == []
    assert decision(state) == (1, "place", ["fighter 5n", "fighter 7n", "fighter 9n"])


def test_choice_in_round_seven_stealing_a_thiefs_loot_is_the_whole_steal():
    state = position(
        hands=(["5d", "7d", "23d"], ["5n", "7n", "9n"]),
        round=7,
        steal=(["3d"], ["10n"]),
        loot={"10n": [1, 0, 0, 0, 0]},
        awards=([0] * 5, [0, 0, 0, 0, 2]),
        **QUIET,
    )
    place(state, ("5d", "7d", "23d"), ("5n", "7n", "9n"))
    assert decision(state) == (0, "steal", ["steal from 10n", "done"])
    state.apply_text("steal from 10n")
    # the steal is over (no second award, none straight from the awards); 10n, second, may take yellows
    assert obs(state)["loot"] == {"23d": {"white": 1, "blue": 0, "green": 0, "yellow": 0, "red": 0}}
    assert awards(state, 1)["red"] == 2
    assert decision(state) == (1, "take yellow", ["take yellow", "done"])


def test_loading_refuses_states_that_break_conservation():
    good = position(hands=HANDS).to_json()
    for path, value, message in [
        (("hands", 0), ["5d", "7d", "8d", "9d", "9d"], "exactly one place"),
        (("stock",), [10, 10, 10, 10, 9], "10 red awards"),
        (("lawyer",), 31, "lawyer"),
        (("monsters",), ["12d", "T-red"], "exactly one place"),
        (("kind",), "steal", "a steal decision at step places cannot be"),
        (("face_down",), {"fightin": ["5n", None], "drinkin": [None, None], "stealin": [None, None]}, "seat 0"),
    ]:
        bad = json.loads(json.dumps(good))
        target = bad["state"]
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
        with pytest.raises(henge.StateFormatError, match=message):
            GAME.state_from_json(bad)


def test_observation_names_the_event_and_its_lead_only_while_they_apply():
    state = GAME.new_initial_state()
    run_to(state, "deal 20d", "deal 22d", "deal 21d", "deal 29n", "deal 7n", "deal 10n")
    assert obs(state)["event"] is None and obs(state)["phase"] == "draw"
    state = position(hands=HANDS, fight=(["20d"], ["2n"]), drink=(["21d"], ["21n"]))
    place(state, ("5d", "7d", "8d"), ("5n", "7n", "8n"))
    state.apply_text("flip 6n")
    assert obs(state)["lead"] == 0 and obs(state)["event"] == "fightin"
    run_to(state, "discard 5d", "discard 5n")
    # the drinkers tie at 21 and the thieves 8 and 4 cancel: seat 0 sends a thief to scarper
    assert decision(state) == (0, "scarper", ["scarper 4d", "scarper 8d"])
    assert obs(state)["event"] == "stealin" and obs(state)["lead"] is None


def test_each_step_constant_names_its_handler():
    for index, handler in enumerate(events._STEPS):
        name = handler.__name__.lstrip("_")
        assert actions.STEP_NAMES[index] == name.replace("_", " ")
        assert getattr(actions, name.upper()) == index
