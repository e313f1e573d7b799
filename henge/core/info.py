"""Declarative metadata of a rule set: its options and its :class:`GameInfo`."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Option:
    """One game option: its allowed values (its whole range: nothing else is accepted, and a
    value must have the type of the values, so ``20`` and ``"20"`` differ) and its default."""

    name: str
    values: tuple[Any, ...]
    default: Any
    doc: str = ""
    recorded_at_default: bool = True
    """False for a designer's knob added to a published rule set: at its default the option is
    left out of :attr:`Game.options`, so game records and state JSON of the standard game stay
    exactly as they were before the knob existed; :attr:`Game.settings` always holds it."""

    def allows(self, value: Any) -> bool:
        """Returns whether ``value`` is one of the option's values, of the same type."""
        return any(value == v and type(value) is type(v) for v in self.values)

    def range_text(self) -> str:
        """Returns the allowed values as text: ``10..30`` for a run of integers, else listed."""
        values = self.values
        run = len(values) > 2 and all(type(v) is int for v in values)
        if run and list(values) == list(range(values[0], values[0] + len(values))):
            return f"{values[0]}..{values[-1]}"
        return ", ".join(str(v) for v in values)


@dataclass(frozen=True)
class GameInfo:
    """Declarative metadata of a rule set, recorded in every game record."""

    id: str
    name: str
    min_players: int
    max_players: int
    version: str
    rule_text: str
    summary: str
    options: tuple[Option, ...] = ()
    round_cap: int = 0
    hidden_information: bool = True
    """False for a game where every seat sees everything once chance has acted (resampling copies)."""
    min_utility: float = 0.0
    max_utility: float = 1.0
    utility_sum: float | None = 1.0
    """Sum of the returns of every finished game, or None if it varies (general sum)."""
    extra: Mapping[str, Any] = field(default_factory=dict)

    @property
    def variants(self) -> tuple[Any, ...]:
        """Returns the values of the ``variant`` option, or ``('standard',)``."""
        for option in self.options:
            if option.name == "variant":
                return option.values
        return ("standard",)
