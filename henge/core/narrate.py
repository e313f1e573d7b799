"""The log a seat reads, written from its successive observations and nothing else: the helpers
a game's narrator is written with, and :func:`generic`, the narrator of a game that names none.

A game's descriptor may name a narrator (``henge/games/<id>/narrate.py`` for the
games that ship with henge), ``narrate(before, after) -> list[str]``; ``before``
and ``after`` are two successive observations of one seat (or of a spectator). A
game without one gets :func:`generic`, which names the fields that changed. Because the lines
are made only from what the seat saw, the log can tell nothing the seat did
not already know.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Observation = dict[str, Any]
Narrator = Callable[[Observation | None, Observation], list[str]]

_QUIET = {"game", "seat", "players"}
_MAX_LINES = 8
_MAX_TEXT = 90


def seat_name(obs: Observation, seat: Any) -> str:
    """Returns how the seat reading ``obs`` names ``seat``: "you" for itself, else "seat k"."""
    return "you" if seat is not None and seat == obs["seat"] else f"seat {seat}"


def grew(before: list[Any], after: list[Any]) -> list[Any]:
    """Returns what was added at the end of a list (nothing if it changed otherwise)."""
    if len(after) > len(before) and after[: len(before)] == before:
        return after[len(before) :]
    return []


def short(value: Any) -> str:
    """Returns a value as short text: lists joined by spaces, None as a dash."""
    if value is None:
        return "-"
    if isinstance(value, list | tuple):
        return " ".join(short(v) for v in value) or "none"
    if isinstance(value, dict):
        return ", ".join(f"{k} {short(v)}" for k, v in value.items())
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    text = str(value)
    return text if len(text) <= _MAX_TEXT else text[: _MAX_TEXT - 1] + "…"


def _flat(value: Any, prefix: str, out: dict[str, Any]) -> None:
    if isinstance(value, dict):
        for key, item in value.items():
            _flat(item, f"{prefix}.{key}" if prefix else str(key), out)
    else:
        out[prefix] = value


def generic(before: Observation | None, after: Observation) -> list[str]:
    """Returns one line per changed field: ``druids.white: 3 → 5``, ``discard_pile: + 7n``."""
    if before is None:
        return []
    old: dict[str, Any] = {}
    new: dict[str, Any] = {}
    _flat({k: v for k, v in before.items() if k not in _QUIET}, "", old)
    _flat({k: v for k, v in after.items() if k not in _QUIET}, "", new)
    lines = []
    for key, value in new.items():
        previous = old.get(key)
        if previous == value:
            continue
        if isinstance(previous, list) and isinstance(value, list):
            if value[: len(previous)] == previous:
                lines.append(f"{key}: + {short(value[len(previous) :])}")
                continue
            if previous[: len(value)] == value:
                lines.append(f"{key}: − {short(previous[len(value) :])}")
                continue
        lines.append(f"{key}: {short(previous)} → {short(value)}")
    if len(lines) > _MAX_LINES:
        lines = [*lines[: _MAX_LINES - 1], f"… and {len(lines) - _MAX_LINES + 1} more changes"]
    return lines
