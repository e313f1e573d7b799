"""Stonehenge Spell Casting Game: what a legal action will do, read from the seat's observation alone.

The uses of a disk name a component or figure and a direction, not where it
ends: ``move outer 10 left``, ``figure gray 5 right``, ``pull middle 13 night``,
``push coloured 4`` and each ``displace`` of a chain (SC2, SC5) say here whose
component goes where, whom it pushes on, where a component with no way left
slides, and what reaching the inner ring brings (SC8, SC9). The geometry comes
from :mod:`henge.games.spell_casting.board`, a public fact of the board.
"""

from __future__ import annotations

from typing import Any

from henge import box
from henge.games.spell_casting import board as sb

_RINGS = ("outer", "coloured", "middle", "inner")


def _cells(obs: dict[str, Any]) -> list[int]:
    """Returns the owner of every cell (-1: empty), in the board's cell order."""
    cells: list[int] = []
    for ring in _RINGS:
        cells += [-1 if s is None else s for s in obs["rings"][ring]]
    return cells


def _whose(obs: dict[str, Any], seat: int, owner: int) -> str:
    return "your" if owner == seat else f"{obs['colours'][owner]}'s"


def _arrive(obs: dict[str, Any], seat: int, owner: int) -> str:
    """What a component of ``owner`` reaching the inner ring brings (SC8, SC9)."""
    count = obs["inner_counts"][owner] + 1
    target = obs["target"]
    who = "you" if owner == seat else obs["colours"][owner]
    if count >= target:
        return f": {who} cast{'' if who == 'you' else 's'} the spell and win{'' if who == 'you' else 's'}"
    return f" ({count} of {target} inside)"


def _shift(obs: dict[str, Any], seat: int, source: int, target: int) -> str:
    """A use that moves the component on ``source`` to ``target`` (SC2, SC5)."""
    cells = _cells(obs)
    owner = cells[source]
    text = f"{_whose(obs, seat, owner)} component {sb.CELL_TEXTS[source]} -> {sb.CELL_TEXTS[target]}"
    if target >= sb.INNER_BASE:
        return text + _arrive(obs, seat, owner)
    occupant = cells[target]
    if occupant >= 0:
        text += f", pushing {_whose(obs, seat, occupant)} component on"
    return text


def _displace(obs: dict[str, Any], seat: int, direction: int) -> str:
    """One push of a displacement chain (SC5): where the pushed component goes and what it pushes on."""
    chain = obs["chain"]
    at = sb.CELL_BY_TEXT[chain["from"]]
    moved = [sb.CELL_BY_TEXT[t] for t in chain["moved"]]
    owner = chain["component"]
    target = sb.displace_target(at, direction)
    text = f"{_whose(obs, seat, owner)} component -> {sb.CELL_TEXTS[target]}"
    if target >= sb.INNER_BASE:
        return text + _arrive(obs, seat, owner)
    cells = _cells(obs)
    occupant = cells[target]
    if occupant < 0:
        return text
    cells[target] = owner
    text += f", pushing {_whose(obs, seat, occupant)} component on"
    if not sb.displace_options(cells, target, [*moved, target]):
        text += f": it slides to {sb.CELL_TEXTS[sb.slide_target(cells, target)]}"
    return text


def _stone(text: str) -> int:
    """Returns the inner stone index of ``13 night`` / ``13 day``."""
    number, phase = text.split()
    return box.inner_index(int(number), phase == "day")


def _figure(obs: dict[str, Any], words: list[str]) -> str:
    """``figure <colour> <distance> <left|right>``: the stone it ends on."""
    name, distance, direction = words[1], int(words[2]), words[3]
    stone = _stone(obs["figures"][name])
    step = distance if direction == "right" else -distance
    after = (stone + step) % box.INNER_STONES
    return f"{name} figure {box.inner_text(stone)} -> {box.inner_text(after)}"


def preview(observation: dict[str, Any], seat: int, action_text: str) -> str | None:
    """Returns what ``action_text`` will do for ``seat``, from its observation alone (None: the text says it)."""
    obs = observation
    if obs.get("current_player") != seat:
        return None
    words = action_text.split()
    phase = obs["phase"]
    if phase == "displace" and words[0] == "displace":
        return _displace(obs, seat, sb.DISPLACE_NAMES.index(" ".join(words[1:])))
    if phase != "use":
        return None
    verb = words[0]
    if verb == "move":
        source = sb.cell(_RINGS.index(words[1]), int(words[2]))
        return _shift(obs, seat, source, (sb.RIGHT if words[3] == "right" else sb.LEFT)[source])
    if verb == "figure":
        return _figure(obs, words)
    if verb == "pull":
        if words[1] == "middle":  # pulled in onto the figure's stone (SC2)
            stone = _stone(" ".join(words[2:]))
            return _shift(obs, seat, sb.cell(sb.MIDDLE, int(words[2])), sb.inner_cell(stone))
        source = sb.cell(_RINGS.index(words[1]), int(words[2]))
        return _shift(obs, seat, source, source + 30)
    if verb == "push":
        source = sb.cell(_RINGS.index(words[1]), int(words[2]))
        return _shift(obs, seat, source, source - 30)
    return None
