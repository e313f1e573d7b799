"""Stonehenge Spell Casting: what a search knows of the game, a position evaluation and its settings.

The evaluation scores each seat's *progress*: a component is worth more the
further in it stands (outer 0, coloured 1, middle 2.2, inner 7), and a little
more where a figure its owner may use (its own, the neutral or the gray
figure) stands on its number, ready to pull it in. The rule-based player
(:mod:`henge.games.spell_casting.bot`) scores the boards of its model with the
same progress. It reads the public observation of a state.
"""

from __future__ import annotations

import math
from typing import Any

from henge.core import State
from henge.games.spell_casting.board import INNER_BASE

GAMES = ("spell_casting",)
"""The games whose rules this evaluation was written for."""
OPTIONS: tuple[str, ...] = ("variant", "components")
"""The options the evaluation understands: it reads how many components cast the spell (``target``)."""

SEARCH = {"iterations": 50, "rollout_depth": 3, "guided_rollout": True}
"""ismcts here: three decisions played as the rule-based player would before the evaluation, and 50
iterations, since that player is the slowest of all (it scores every push of a displacement
chain): a search takes about a tenth of a processor second, a few up to half of one."""

RING_WORTH = (0.0, 1.0, 2.2, 7.0)
"""Progress of a component by ring: outer, coloured, middle, inner."""
ALIGNED = 0.45
"""Extra progress of a component off the inner ring standing on the number of a figure its owner may use."""
_TEMPERATURE = 2.5
"""Progress points per e-fold of the odds of winning."""
_HAND_WORTH = 0.3
"""Progress an unused disk in the mover's hand is worth."""
_HELD_WORTH = 0.25
"""Progress a disk held off the board (action c) is worth to its holder."""


def stone(text: str) -> int:
    """Returns the inner stone (0..59) written ``text``, e.g. ``13 day``."""
    number, side = text.split()
    return 2 * (int(number) - 1) + (1 if side == "day" else 0)


def cells(obs: dict[str, Any]) -> list[int]:
    """Returns the components by cell: the outer, coloured, middle and inner rings in turn, a seat or -1."""
    rings = obs["rings"]
    return [-1 if s is None else s for name in ("outer", "coloured", "middle", "inner") for s in rings[name]]


def usable(obs: dict[str, Any]) -> list[tuple[str, ...]]:
    """Returns, per seat, the figures it may use: its own colour's, the neutral one and the gray one."""
    colours = obs["colours"]
    shared = (obs["neutral_colour"], "gray")
    return [(colours[s], *shared) for s in range(obs["players"])]


def evaluate(state: State) -> list[float]:
    """Returns each seat's chance of winning, from the components' progress.

    Each seat's progress (see the module notes) counts only its components
    closest to the inner ring, as many as it still needs; unused disks in the
    mover's hand and disks held off the board add a little. The chances are
    a softmax of the progress, growing e-fold every ``_TEMPERATURE`` points.
    """
    if state.is_terminal():
        return list(state.returns())
    obs = state.observation(0)
    n = obs["players"]
    target = obs["target"]
    numbers = {name: stone(text) // 2 for name, text in obs["figures"].items() if text is not None}
    on = cells(obs)
    figures = usable(obs)
    values: list[list[float]] = [[] for _ in range(n)]
    inner = obs["inner_counts"]
    for s in range(n):
        aligned = {numbers[f] for f in figures[s] if f in numbers}
        own = [RING_WORTH[c // 30] + (ALIGNED if c % 30 in aligned else 0.0) for c in range(INNER_BASE) if on[c] == s]
        own.sort(reverse=True)
        values[s] = own[: max(0, target - inner[s])]
    prog = [inner[s] * RING_WORTH[3] + sum(values[s]) for s in range(n)]
    mover = obs["turn_player"]
    prog[mover] += _HAND_WORTH * sum(obs["uses_left"])
    for s in range(n):
        prog[s] += _HELD_WORTH * obs["held"][s]
    top = max(prog)
    weights = [math.exp((p - top) / _TEMPERATURE) for p in prog]
    total = sum(weights)
    return [w / total for w in weights]


OPENSPIEL_SECONDS = {3: 0.063, 4: 0.110}
"""Processor seconds per decision with a choice of ``ismcts`` at its default settings, by player count:
the budget that gives OpenSpiel's ISMCTS equal time (``openspiel-ismcts``). Made by
``python -m henge.bench_openspiel --bots ismcts --decisions 200 --games 4 --players N``, over about 200
decisions each; measure again when the search or its settings here change."""
