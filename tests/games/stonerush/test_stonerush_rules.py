"""Stonerush: one test per ruling (S1-S8) and the rule text's three worked examples."""

from __future__ import annotations

import dataclasses
import itertools
import pickle
import random
from typing import Any

import pytest

import henge
from henge import box
from henge.core import CHANCE, IllegalActionError
from henge.games.stonerush.rules import DECK, DONE, PLAY, Stonerush, StonerushState


def position(
    *,
    players: int = 3,
    variant: str = "standard",
    druids: tuple[int, ...] = (1, 1, 1, 1, 1),
    hands: list[list[str]] | None = None,
    trilithons: tuple[str, ...] = ("white", "blue", "green", "yellow", "red"),
    player: int = 0,
    phase: str = "play",
    in_play: list[str] | None = None,
    discard: list[str] | None = None,
    draw: list[str] | None = None,
) -> StonerushState:
    """Builds a Stonerush position from its fields (seat 0 started, and ``player`` is to move; the
    other seats' empty hands get four of the highest cards left, as G7 wants; the rest of the deck
    goes to the draw pile, or to the discard pile when ``draw`` is given; seat 0 made every move
    the druids show)."""
    game = henge.load("stonerush", players, variant=variant)
    hands = [list(h) for h in hands] if hands is not None else [[] for _ in range(players)]
    in_play = in_play or []
    discard = discard or []
    used = {c for h in hands for c in h} | set(in_play) | set(discard) | set(draw or [])
    spare = [box.CARD_TEXT[c] for c in reversed(DECK) if box.CARD_TEXT[c] not in used]
    for seat, hand in enumerate(hands):
        if seat != player and not hand:
            hand += [spare.pop(0) for _ in range(4)]
    used |= {c for h in hands for c in h}
    rest = [box.CARD_TEXT[c] for c in DECK if box.CARD_TEXT[c] not in used]
    if draw is not None:
        discard = discard + rest
        rest = draw
    data: dict[str, Any] = game.new_initial_state().to_json()
    data["state"].update(
        phase=phase,
        player=player,
        start=0,
        turns=player,
        druids=list(druids),
        hands=hands,
        draw_pile=sorted(rest),
        discard_pile=discard,
        in_play=in_play,
        trilithons=list(trilithons[:players]),
        pushed=[[space - 1 for space in druids]] + [[0] * 5 for _ in range(players - 1)],
    )
    state = game.state_from_json(data)
    assert isinstance(state, StonerushState)
    return state


def druids(state: StonerushState) -> dict[str, int]:
    return state.observation(None)["druids"]


def play(state: StonerushState, *cards: str) -> None:
    for card in cards:
        state.apply_text(f"play {card}")
    state.apply_text("done")


# --- S1: the deck and the secret trilithon cards -------------------------------------------


def test_S1_deck_is_42_cards_and_one_secret_trilithon_each():
    assert len(DECK) == 42
    assert sorted(box.CARD_NUMBER[c] for c in DECK if box.CARD_IS_NIGHT[c]) == list(range(1, 13))
    assert sorted(box.CARD_NUMBER[c] for c in DECK if box.CARD_IS_DAY[c]) == list(range(1, 31))
    for colour in range(6):
        assert sum(1 for c in DECK if box.CARD_COLOUR[c] == colour) == 7
    state = henge.load("stonerush", 3).new_initial_state()
    assert state.current_player() == CHANCE
    assert state.legal_action_texts() == [f"draw T-{c}" for c in box.PLAYER_COLOURS]
    for text in ("draw T-red", "draw T-white", "draw T-green"):
        state.apply_text(text)
    # The undealt trilithon cards are out of play: the deal now draws number cards only.
    assert all(box.CARD_NUMBER[a] > 0 for a in state.legal_actions())
    assert len(state.legal_actions()) == 42
    assert state.observation(0)["trilithon"] == "red"
    assert state.observation(1)["trilithon"] == "white"
    assert state.observation(None)["trilithon"] is None
    assert state.observation(1)["trilithons"] is None  # revealed only at the end


def test_S1_full_setup_deals_four_cards_each_and_a_random_start():
    state = henge.load("stonerush", 4).new_initial_state()
    rng = random.Random(5)
    while state.current_player() == CHANCE:
        state.apply_action(rng.choice(state.legal_actions()))
    obs = state.observation(state.current_player())
    assert obs["hand_sizes"] == [4, 4, 4, 4]
    assert obs["draw_pile"] == 42 - 16
    assert obs["starting_player"] == state.current_player()
    assert obs["druids"] == dict.fromkeys(box.PLAYER_COLOURS, 1)


def test_S1_starting_player_is_a_uniform_chance_event():
    state = henge.load("stonerush", 5).new_initial_state()
    while state.observation(None)["phase"] != "choose start":
        state.apply_action(state.legal_actions()[0])
    assert state.chance_outcomes() == [(65 + k, 0.2) for k in range(5)]


# --- S2: all five druids race ---------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4, 5])
def test_S2_all_five_druids_race_at_every_player_count(players):
    state = position(players=players, hands=[["5d", "2d", "3n", "4d"]] + [[] for _ in range(players - 1)])
    assert set(druids(state)) == set(box.PLAYER_COLOURS)
    play(state, "5d")  # red, the fifth colour, moves even with three players
    assert druids(state)["red"] == 2


def test_S2_space_1_holds_any_number_of_druids():
    state = position(hands=[["1d", "2d", "3n", "4d"], [], []])
    assert list(druids(state).values()) == [1] * 5
    play(state, "3n")  # green goes back from 1: stays, no bump
    assert druids(state)["green"] == 1


# --- S3: what a play may be -----------------------------------------------------------------


def test_S3_black_cards_join_any_colour_but_colours_do_not_mix():
    state = position(hands=[["6d", "5d", "11d", "2d"], [], []])
    assert state.legal_action_texts() == ["play 2d", "play 5d", "play 6d", "play 11d"]
    state.apply_text("play 5d")
    assert state.legal_action_texts() == ["play 6d", "play 11d", "done"]
    with pytest.raises(IllegalActionError, match="not legal"):
        state.apply_text("play 2d")
    state.apply_text("play 6d")
    state.apply_text("play 11d")
    state.apply_text("done")
    assert druids(state)["red"] == 4  # three day cards, the black one included


def test_S3_a_black_first_card_leaves_every_colour_open():
    state = position(hands=[["6d", "5d", "12n", "2d"], [], []])
    state.apply_text("play 6d")
    assert state.legal_action_texts() == ["play 2d", "play 5d", "play 12n", "done"]


def test_S3_a_play_of_only_black_cards_is_legal_and_moves_nobody():
    state = position(hands=[["6d", "12n", "1d", "2d"], [], []], druids=(3, 4, 5, 6, 7))
    assert DONE not in state.legal_actions()  # at least one card must be played
    play(state, "6d", "12n")
    assert list(druids(state).values()) == [3, 4, 5, 6, 7]
    assert state.observation(0)["last_plays"][-1]["druid"] is None


# --- S4: net movement and the limits --------------------------------------------------------


def test_S4_net_day_minus_night():
    state = position(hands=[["2d", "8d", "8n", "14d"], [], []], druids=(1, 10, 1, 1, 1))
    play(state, "2d", "8n", "14d", "8d")
    assert druids(state)["blue"] == 12


def test_S4_net_zero_neither_moves_nor_bumps():
    state = position(hands=[["2d", "2n", "3d", "4d"], [], []], druids=(1, 5, 1, 1, 1))
    play(state, "2d", "2n")
    assert druids(state)["blue"] == 5


def test_S4_limit_applies_to_the_net_total_and_stops_at_1():
    state = position(hands=[["3n", "9n", "6n", "4d"], [], []], druids=(1, 1, 3, 1, 1))
    play(state, "3n", "9n", "6n")  # -3 from 3: stops at 1 (space 1 holds any number)
    assert druids(state)["green"] == 1


def test_S4_a_druid_on_1_moved_back_does_not_move_or_bump():
    state = position(hands=[["1n", "2d", "3d", "4d"], [], []], druids=(1, 2, 1, 1, 1))
    play(state, "1n")
    assert druids(state) == {"white": 1, "blue": 2, "green": 1, "yellow": 1, "red": 1}


def test_S4_forward_limit_is_the_last_space():
    state = position(hands=[["4d", "10d", "16d", "1d"], [], []], druids=(1, 1, 1, 28, 1))
    play(state, "4d", "10d", "16d")
    assert druids(state)["yellow"] == 30
    assert state.is_terminal()


# --- S5: bumps ------------------------------------------------------------------------------


def test_S5_bump_chain_forward():
    state = position(hands=[["1d", "7d", "2d", "3d"], [], []], druids=(5, 6, 7, 8, 1))
    play(state, "1d")  # white 5 -> 6 (blue) -> 7 (green) -> 8 (yellow) -> 9
    assert druids(state)["white"] == 9


def test_S5_bump_chain_backward_stops_on_space_1():
    state = position(hands=[["2n", "1d", "3d", "4d"], [], []], druids=(2, 4, 3, 1, 1))
    play(state, "2n")  # blue 4 -> 3 (green) -> 2 (white) -> 1, which holds any number
    assert druids(state)["blue"] == 1


def test_S5_bump_into_the_last_space_ends_the_game():
    state = position(hands=[["3d", "1d", "2d", "4d"], [], []], druids=(29, 1, 28, 1, 1))
    play(state, "3d")  # green 28 -> 29 (white) -> 30
    assert druids(state)["green"] == 30
    assert state.is_terminal()


# --- S6: discard, keep at most two, draw up to four ------------------------------------------


def test_S6_keep_at_most_two_then_draw_up_to_four():
    state = position(hands=[["1d", "2d", "3d", "4d"], [], []])
    play(state, "1d")
    assert state.observation(0)["phase"] == "discard"
    assert state.observation(0)["discard_pile"] == ["1d"]  # played cards go first, face up
    assert DONE not in state.legal_actions()  # three cards left: one must go
    state.apply_text("discard 3d")
    assert DONE in state.legal_actions()
    state.apply_text("discard 4d")  # any number may go
    state.apply_text("discard 2d")
    assert state.current_player() == CHANCE
    for _ in range(4):
        state.apply_action(state.legal_actions()[0])
    assert len(state.observation(0)["hand"]) == 4
    assert state.current_player() == 1


def test_S6_discarding_is_the_players_choice_of_cards():
    state = position(hands=[["1d", "2d", "3d", "4d"], [], []])
    play(state, "1d")
    state.apply_text("discard 2d")
    state.apply_text("done")
    assert state.observation(0)["hand"] == ["3d", "4d"]
    assert state.observation(0)["discard_pile"] == ["1d", "2d"]


def test_S6_empty_draw_pile_is_replaced_by_the_discard_pile_when_a_card_is_needed():
    state = position(hands=[["1d", "2d", "3d", "4d"], [], []], draw=["5d"], discard=["7n"])
    play(state, "1d")
    state.apply_text("discard 2d")
    state.apply_text("done")
    assert state.legal_action_texts() == ["draw 5d"]
    state.apply_text("draw 5d")
    # The pile ran out: the discards (the old ones, the play and the discard) become the pile.
    obs = state.observation(0)
    assert obs["discard_pile"] == []
    texts = state.legal_action_texts()
    assert {"draw 1d", "draw 2d", "draw 7n"} <= set(texts)
    assert obs["draw_pile"] == len(texts)


def test_S6_a_player_who_plays_the_whole_hand_draws_four():
    state = position(hands=[["2d", "8d", "14d", "20d"], [], []])
    play(state, "2d", "8d", "14d", "20d")
    assert state.current_player() == CHANCE
    assert state.observation(0)["phase"] == "draw"


# --- S7: the end ----------------------------------------------------------------------------


def test_S7_holder_of_the_arriving_colour_wins():
    state = position(
        hands=[["2d", "8d", "1d", "3d"], [], []], druids=(25, 28, 1, 29, 1), trilithons=("red", "blue", "yellow")
    )
    play(state, "2d", "8d")
    assert state.is_terminal()
    assert state.returns() == [0.0, 1.0, 0.0]
    assert state.observation(0)["trilithons"] == ["red", "blue", "yellow"]  # revealed at the end


def test_S7_unheld_colour_gives_the_win_to_the_furthest_own_druid():
    state = position(
        hands=[["5d", "11d", "1d", "3d"], [], []], druids=(20, 12, 1, 21, 29), trilithons=("white", "blue", "yellow")
    )
    play(state, "5d")
    assert state.is_terminal()
    assert state.returns() == [0.0, 0.0, 1.0]  # yellow (seat 2's) on 21 is the furthest own druid
    # Druids share no space but 1 (S5), so equal distance means every own druid on space 1.
    state = position(
        hands=[["5d", "11d", "1d", "3d"], [], []], druids=(1, 1, 12, 1, 29), trilithons=("white", "blue", "yellow")
    )
    play(state, "5d")
    assert state.is_terminal()
    assert state.returns() == pytest.approx([1 / 3, 1 / 3, 1 / 3])


def test_S7_game_ends_the_moment_a_druid_arrives_without_discard_or_draw():
    state = position(hands=[["5d", "11d", "1d", "3d"], [], []], druids=(1, 1, 1, 1, 28))
    play(state, "5d", "11d")
    assert state.is_terminal()
    assert state.observation(0)["hand"] == ["1d", "3d"]
    assert state.legal_actions() == []


def test_S7_round_cap_leaders_share():
    game = henge.load("stonerush", 3)
    data = position(
        druids=(1, 1, 9, 2, 1), hands=[["1d", "2d", "3d"], [], []], phase="draw", trilithons=("white", "blue", "red")
    ).to_json()
    data["state"]["turns"] = turns = game.info.round_cap * 3 - 1
    data["state"]["start"] = -turns % 3  # seat 0 plays the last turn
    state = game.state_from_json(data)
    state.apply_action(state.legal_actions()[0])
    assert state.is_terminal()
    assert state.returns() == pytest.approx([1 / 3, 1 / 3, 1 / 3])  # every own druid on 1; green leads nobody
    assert "round cap" in state.observation(0)["result"]


# --- S8: the bluestones variant -------------------------------------------------------------


def test_S8_bluestones_track_ends_at_19():
    state = position(variant="bluestones", hands=[["4d", "10d", "1d", "2d"], [], []], druids=(1, 1, 1, 17, 1))
    assert state.observation(0)["track_end"] == 19
    play(state, "4d", "10d")
    assert druids(state)["yellow"] == 19
    assert state.is_terminal()
    # Nobody holds yellow; the own druids (white, blue, green) all stand on 1: they share.
    assert state.returns() == pytest.approx([1 / 3, 1 / 3, 1 / 3])


def test_S8_bluestones_bumps_and_limits_use_stones_1_and_19():
    state = position(variant="bluestones", hands=[["1d", "2d", "3d", "4d"], [], []], druids=(17, 18, 1, 1, 1))
    play(state, "1d")
    assert druids(state)["white"] == 19  # 17 -> 18 (blue) -> 19: the end stone
    assert state.is_terminal()
    assert state.returns() == [1.0, 0.0, 0.0]


# --- the rule text's worked examples ----------------------------------------------------------


def test_example_yellow_day_card_moves_yellow_one_ahead():
    state = position(hands=[["4d", "1d", "2d", "3d"], [], []], druids=(1, 1, 1, 6, 1))
    play(state, "4d")
    assert druids(state)["yellow"] == 7


def test_example_two_red_night_cards_back_two_and_bumped_one_more():
    state = position(hands=[["5n", "11n", "1d", "2d"], [], []], druids=(8, 1, 1, 1, 10))
    play(state, "5n", "11n")  # red 10 -> 8, where white stands -> 7
    assert druids(state)["red"] == 7


def test_example_blue_day_and_blue_night_do_not_move():
    state = position(hands=[["2d", "2n", "1d", "3d"], [], []], druids=(1, 9, 1, 1, 1))
    play(state, "2d", "2n")
    assert druids(state)["blue"] == 9


# --- hidden information ---------------------------------------------------------------------


def test_G3_other_hands_and_trilithons_are_hidden_piles_and_plays_public():
    state = position(hands=[["1d", "2d", "3d", "4d"], ["5d", "6d", "7d", "8d"], ["9d", "10d", "11d", "12d"]])
    twin = position(
        hands=[["13d", "14d", "15d", "16d"], ["5d", "6d", "7d", "8d"], ["17d", "18d", "19d", "20d"]],
        trilithons=("red", "blue", "white"),
    )
    obs = state.observation(1)
    assert obs == twin.observation(1)  # other hands, their trilithon cards and the pile are not seen
    assert obs["hand"] == ["5d", "6d", "7d", "8d"]
    assert obs["hand_sizes"] == [4, 4, 4]
    assert obs["trilithon"] == "blue" and obs["trilithons"] is None
    # The unseen cards are named as one group: in seat 0's or seat 2's hand or in the pile, no more.
    unseen = [box.CARD_TEXT[c] for c in DECK if box.CARD_TEXT[c] not in obs["hand"]]
    assert obs["hidden_cards"] == [{"cards": unseen, "hands": [4, 0, 4], "draw_pile": 30}]
    state.apply_text("play 1d")
    assert state.observation(2)["in_play"] == ["1d"]  # a laid card is face up


def test_illegal_choice_leaves_the_state_unchanged_and_names_the_legal_ones():
    state = position(hands=[["1d", "2d", "3d", "4d"], [], []])
    before = state.to_json()
    with pytest.raises(IllegalActionError) as error:
        state.apply_text("play 9d")
    assert "play 1d" in str(error.value)
    with pytest.raises(IllegalActionError, match="no action is written"):
        state.apply_text("fly away")
    assert state.to_json() == before


@pytest.mark.parametrize("players", [3, 4, 5])
def test_G5_turns_pass_clockwise_in_increasing_seat_order(players):
    game = henge.load("stonerush", players)
    rng = random.Random(players)
    state = game.new_initial_state()
    turns: list[int] = []
    while not state.is_terminal():
        if state.is_chance_node():
            actions, weights = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, weights)[0])
            continue
        seat = state.current_player()
        if not turns or turns[-1] != seat:
            turns.append(seat)
        state.apply_action(rng.choice(state.legal_actions()))
    assert len(turns) > players
    for before, after in itertools.pairwise(turns):
        assert after == (before + 1) % players, f"seat {before} was followed by seat {after}"


class _Widdershins(StonerushState):
    """A designer's variant written in Python: the turn passes to the right (one rule method overridden)."""

    __slots__ = ()

    def _next_turn(self) -> None:
        self.turns += 1
        if self.turns >= Stonerush.info.round_cap * self.n:
            self._finish()
            return
        self.player = (self.player - 1) % self.n
        self.phase = PLAY


class _WiddershinsGame(Stonerush):
    info = dataclasses.replace(Stonerush.info, id="stonerush_widdershins", name="Stonerush widdershins")
    state_class = _Widdershins


def test_a_designer_subclass_in_python_changes_the_rules_on_either_path():
    """A rule method overridden by a Python subclass is the one the rules call (compiled, the state
    is an extension type whose rule methods stay overridable), in clones and pickled copies too."""
    rng = random.Random(3)
    variant = _WiddershinsGame(4).new_initial_state()
    turns: list[int] = []
    while not variant.is_terminal() and len(turns) < 12:
        seat = variant.current_player()
        if seat >= 0 and (not turns or turns[-1] != seat):
            turns.append(seat)
        variant.apply_action(rng.choice(variant.legal_actions()))
    assert len(turns) == 12
    for before, after in itertools.pairwise(turns):
        assert after == (before - 1) % 4, f"seat {before} was followed by seat {after}"
    standard = henge.load("stonerush", 4).new_initial_state()
    for action in variant.history():  # the same first turn, passed to the left by the standard rules
        if standard.turns:
            break
        standard.apply_action(action)
    assert standard.player == (turns[0] + 1) % 4 != turns[1]
    for copy in (variant.clone(), pickle.loads(pickle.dumps(variant))):
        assert type(copy) is _Widdershins and copy.to_json() == variant.to_json()
        while copy.current_player() != turns[-1]:
            copy.apply_action(copy.legal_actions()[0])
        while copy.current_player() < 0 or copy.current_player() == turns[-1]:
            copy.apply_action(copy.legal_actions()[0])
        assert copy.current_player() == (turns[-1] - 1) % 4
