"""The state as a class: a designer's Python subclass changing a rule, copies, pickles and JSON.

Compiled, the state is an extension type whose methods the rules call as C methods; a Python
subclass overriding one of them must still be the one the rules call (on either path).
"""

from __future__ import annotations

import pickle
import random

import henge
from henge.core import CHANCE
from henge.games.fightin.actions import DEAL, DRAW
from henge.games.fightin.rules import Fightin, FightinState

GAME = henge.load("fightin")


class LowestDrawState(FightinState):
    """A variant: every draw takes the lowest card of the deck, and the state counts its deals."""

    def __init__(self, game: henge.core.Game) -> None:
        super().__init__(game)
        self.deals = 0

    def _chance_actions(self) -> tuple[int, ...]:
        outcomes = super()._chance_actions()
        return outcomes[:1] if self.phase == DRAW else outcomes

    def _deal_from_deck(self, seat: int, card: int) -> None:
        self.deals += 1
        super()._deal_from_deck(seat, card)


class LowestDraw(Fightin):
    state_class = LowestDrawState


def _play(state: FightinState, seed: int, steps: int) -> FightinState:
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_a_python_subclass_overriding_a_rule_method_changes_play() -> None:
    variant = LowestDraw(2).new_initial_state()
    plain = GAME.new_initial_state()
    assert variant.phase == plain.phase == DEAL
    while variant.phase == DEAL:  # the rules set up each chance node (and its outcomes) from inside
        action = variant.legal_actions()[0]
        variant.apply_action(action)
        plain.apply_action(action)
    assert variant.deals == 6  # the override the rules call on every deal
    assert variant.phase == plain.phase == DRAW and variant.current_player() == CHANCE
    assert variant.legal_actions() == plain.legal_actions()[:1] and len(plain.legal_actions()) > 1
    copy = variant.clone()
    assert type(copy) is LowestDrawState and copy.legal_actions() == variant.legal_actions()
    rng = random.Random(1)
    draws = 0
    while not variant.is_terminal():
        legal = variant.legal_actions()
        if variant.phase == DRAW:
            draws += 1
            assert legal == [min(plain_draws(variant))]
        variant.apply_action(rng.choice(legal))
    assert draws > 10


def plain_draws(state: FightinState) -> tuple[int, ...]:
    return FightinState._chance_actions(state)


def test_fields_read_and_write_from_python() -> None:
    state = _play(GAME.new_initial_state(), 3, 30)
    state.lawyer = 12
    assert state.lawyer == 12
    state.wee = [-1, 0, -1, 1, -1]
    assert state.observation(None)["wee_lawyers"]["green"] is None


def test_pickle_copy_and_json_round_trips() -> None:
    for moves in (0, 50, 120):
        state = _play(GAME.new_initial_state(), 7, moves)
        for again in (pickle.loads(pickle.dumps(state)), state.clone(), GAME.state_from_json(state.to_json())):
            assert type(again) is FightinState
            assert again.to_json() == state.to_json()
            assert again.legal_actions() == state.legal_actions()
            assert again.information_state_string(0) == state.information_state_string(0)


def test_a_clone_and_its_original_never_change_each_other() -> None:
    """A clone shares the lists the rules change seldom (loot, board, decks, monsters, discards)
    until either changes one: playing on from either leaves the other as it was."""
    for seed in range(12):
        rng = random.Random(seed)
        state = GAME.new_initial_state()
        while not state.is_terminal():
            copy = state.clone()
            before = state.to_json()
            ahead = copy.clone()
            for _ in range(rng.randrange(1, 12)):  # the clone plays on: the original stays
                if ahead.is_terminal():
                    break
                ahead.apply_action(rng.choice(ahead.legal_actions()))
            assert state.to_json() == before == copy.to_json()
            state.apply_action(rng.choice(state.legal_actions()))  # the original plays on: the clone stays
            assert copy.to_json() == before
            assert pickle.loads(pickle.dumps(copy)).to_json() == before
