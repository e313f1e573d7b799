"""Moonrise: Stonerush whose night cards, when they outnumber the day cards of a play, move its
druid forward instead of back (S4 changed; every other rule, S5's bumps included, is Stonerush's)."""

from __future__ import annotations

import dataclasses

from henge.games.stonerush.rules import Stonerush, StonerushState


class MoonriseState(StonerushState):
    """A Stonerush position under the changed S4."""

    __slots__ = ()

    def _move(self, druid: int, net: int) -> int:
        return super()._move(druid, abs(net))


class Moonrise(Stonerush):
    """Stonerush with the changed S4 (see the module)."""

    info = dataclasses.replace(
        Stonerush.info,
        id="stonerush_moonrise",
        name="Stonerush (moonrise)",
        summary="Stonerush, but moons carry a druid forward",
    )
    state_class = MoonriseState
