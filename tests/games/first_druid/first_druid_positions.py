"""First Druid positions that tests elsewhere build on."""

from __future__ import annotations

import random

from henge import load
from henge.core import State


def first_turn(players: int = 4, seed: int = 3) -> State:
    """Returns the position after the deal (chance played out at random from ``seed``): the first
    turn of the game, where a search has a whole game ahead of it."""
    state = load("first_druid", players).new_initial_state()
    rng = random.Random(seed)
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        state.apply_action(rng.choice(outcomes)[0])
    return state
