"""Chance outcomes and returns as the rules state them, and drawing a chance outcome."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol

import cython


class _ChanceNode(Protocol):
    def chance_outcomes(self) -> list[tuple[int, float]]: ...


def uniform(actions: Sequence[int]) -> list[tuple[int, float]]:
    """Returns uniform chance outcomes over ``actions`` (sorted by the caller)."""
    p = 1.0 / len(actions)
    return [(a, p) for a in actions]


def shared_win(players: int, winners: Sequence[int]) -> list[float]:
    """Returns G4's returns: each winner an equal share of 1, everyone else 0."""
    result = [0.0] * players
    if winners:
        share = 1.0 / len(winners)
        for seat in winners:
            result[seat] = share
    return result


@cython.locals(r=cython.double, total=cython.double)
def sample_chance(state: _ChanceNode, rng: random.Random) -> int:
    """Returns a chance outcome of ``state`` drawn with its probability, from one draw of ``rng``."""
    outcomes = state.chance_outcomes()
    r = rng.random()
    total = 0.0
    for action, probability in outcomes:
        total += probability
        if r < total:
            return action
    return outcomes[-1][0]
