"""Shared pieces of the games' tensor encodings (each game's ``encode.py``): sizes and slices.

A layout is a sequence of named slices, ``(name, shape)``, laid end to end in one flat
tensor; the docs page of each game tables them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

Layout = Sequence[tuple[str, tuple[int, ...]]]


def layout_size(layout: Layout) -> int:
    """Returns the number of values in a layout."""
    return sum(math.prod(shape) for _, shape in layout)


def slice_starts(layout: Layout) -> dict[str, int]:
    """Returns where each named slice of a layout starts."""
    starts: dict[str, int] = {}
    at = 0
    for name, shape in layout:
        starts[name] = at
        at += math.prod(shape)
    return starts


def actor_index(player: int, players: int) -> int:
    """Returns the one-hot index of the actor to move: seat k is k, chance is n, the end n + 1."""
    if player >= 0:
        return player
    return players if player == -1 else players + 1
