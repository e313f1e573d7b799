"""Shared pieces of the games' tensor encodings (each game's ``encode.py``): sizes and slices.

A layout is a sequence of named slices, ``(name, shape)``, laid end to end in one flat
tensor; the docs page of each game tables them.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from henge.core.registry import plugin

if TYPE_CHECKING:
    import numpy as np

Layout = Sequence[tuple[str, tuple[int, ...]]]
ENCODINGS = ("observation", "information_state")
"""The tensors every encoder gives: its ``<name>_tensor(observation)`` and ``<name>_shape(players, options)``."""


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


def seat_tensor(game_id: str, observation: Mapping[str, Any], *, encoding: str = "information_state") -> np.ndarray:
    """Returns a seat's tensor from its ``State.observation(seat)`` alone, as a new float32 array.

    ``encoding``: ``"information_state"`` (what the Gymnasium and PettingZoo environments observe) or
    ``"observation"``. The game's encoder (its plugin's ``encoder`` module) writes the values; a bot
    that is handed only a decision computes the same tensor as the environments do. Needs numpy.
    """
    import numpy as np

    if encoding not in ENCODINGS:
        raise ValueError(f"encoding must be one of {', '.join(ENCODINGS)}, not {encoding!r}")
    encoder = plugin(game_id).load_encoder()
    if encoder is None:
        raise ValueError(f"{game_id} has no tensor encoding")
    return np.asarray(getattr(encoder, f"{encoding}_tensor")(observation), dtype=np.float32)
