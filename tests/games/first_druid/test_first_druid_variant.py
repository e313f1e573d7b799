"""A designer's variant of First Druid: a plain Python subclass of the state that overrides one step
of the rules, registered as a game of its own. Compiled, the state is an extension type whose steps
call each other directly; an override must still be the one called, on either path."""

from __future__ import annotations

import dataclasses
import pickle
import random

from henge.core import CHANCE, TERMINAL
from henge.games.first_druid.actions import MAX_OFFERS, OFFER, TURN
from henge.games.first_druid.rules import FirstDruid, FirstDruidState


class NoTradeState(FirstDruidState):
    """No trade offers: every turn begins with its offers used up (FD2 read as zero offers)."""

    __slots__ = ()

    def _begin_turn(self) -> None:  # called by the rules' other steps, never through the public API
        super()._begin_turn()
        self.offers = MAX_OFFERS


class NoTrade(FirstDruid):
    info = dataclasses.replace(FirstDruid.info, id="first_druid_no_trade", name="First Druid without trade")
    state_class = NoTradeState


def _offers(state: FirstDruidState) -> list[int]:
    return [a for a in state.legal_actions() if OFFER <= a < OFFER + 5]


def _first_turn(state: FirstDruidState) -> FirstDruidState:
    """Deals (the same cards on any game of that seat count) until the first turn's decision."""
    while state.phase != TURN:
        state.apply_action(state.legal_actions()[0])
    return state


def test_a_python_subclass_overriding_a_step_of_the_rules_changes_play() -> None:
    plain = _first_turn(FirstDruid(4).new_initial_state())
    variant = _first_turn(NoTrade(4).new_initial_state())
    assert type(variant) is NoTradeState
    assert plain.history() == variant.history()
    assert _offers(plain), "the plain game offers trade at the first turn"
    assert variant.offers == MAX_OFFERS and plain.offers == 0
    assert _offers(variant) == []
    assert [a for a in plain.legal_actions() if a not in _offers(plain)] == variant.legal_actions()


def test_the_variant_keeps_its_rule_through_clones_pickles_and_a_whole_game() -> None:
    state = NoTrade(3).new_initial_state()
    rng = random.Random(5)
    turns = 0
    while state.current_player() != TERMINAL:
        if state.phase == TURN and not state.table:
            turns += 1
            assert _offers(state) == []
            for copy in (state.clone(), pickle.loads(pickle.dumps(state))):
                assert type(copy) is NoTradeState and copy.legal_actions() == state.legal_actions()
        actions = state.legal_actions()
        state.apply_action(actions[0] if state.current_player() == CHANCE else rng.choice(actions))
    assert turns > 0
