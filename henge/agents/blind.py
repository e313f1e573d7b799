"""Where a hand-written player cannot see a rule change: the warning of ``henge analyze``, ``sweep`` and
``tournament``.

A rule-based player (a game's ``bot`` part) and a search's evaluation (its ``search`` part) are written
by hand: each carries its own reading of the rules, so a rule it was not written for leaves it playing
as before, and figures measured with it measure the old rule's play. Each part says what it was written
for (``GAMES`` and ``OPTIONS``, :class:`henge.agents.heuristics.WrittenFor`); :func:`blind_spots` names,
for a lineup, every bot that leans on a part which does not declare an option the run changes, or which
was written for another game. A part that declares no ``GAMES`` is taken to be its own game's; one that
declares no ``OPTIONS`` understands none.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from henge.agents import heuristics
from henge.core import game_class

RULES_ONLY = "rules-search"
"""The bot to use instead: a search that reads only the game's rules (the State API), never a hand-written part."""

_LEANS_ON: dict[str, tuple[tuple[str, str], ...]] = {
    "heuristic": (("guide", "the rule-based player"),),
    "ismcts": (("guide", "its guide, the rule-based player"), ("evaluate", "its evaluation")),
    "mcts-cheat": (("guide", "its guide, the rule-based player"), ("evaluate", "its evaluation")),
}
"""The bots that lean on hand-written parts, and which: ``guide`` (the ``bot`` part), ``evaluate`` (the ``search``
part). The others (``random``, ``policy``, ``rules-search``, OpenSpiel's search...) read only the rules."""


def changed_options(game_id: str, options: Mapping[str, Any], swept: Iterable[str] = ()) -> list[str]:
    """Returns the options a run changes: those set to other than their standard value, and those swept."""
    defaults = {option.name: option.default for option in game_class(game_id).info.options}
    found = [name for name, value in options.items() if name in defaults and value != defaults[name]]
    found += [name for name in swept if name not in found]
    return found


def blind_spots(
    game_id: str, agents: Sequence[str], options: Mapping[str, Any], swept: Iterable[str] = ()
) -> list[str]:
    """Returns one warning per bot of ``agents`` and hand-written part it leans on that does not know the
    rules of this run: an option it does not declare among ``options`` set to other than its standard value
    or among ``swept``, or a game it was not written for. Each says which bot, which part, which option or
    game, and what to use instead; empty where every bot reads only the rules."""
    changed = changed_options(game_id, options, swept)
    known = heuristics.knowledge(game_id)
    warnings: list[str] = []
    seen: set[str] = set()
    for spec in agents:
        name = spec.split(":")[0]
        if name in seen or name not in _LEANS_ON:
            continue
        seen.add(name)
        for field, what in _LEANS_ON[name]:
            written = known.guide_written_for if field == "guide" else known.evaluate_written_for
            if written is None:
                continue
            where = f"{name}: {what} ({written.module})"
            if written.games is not None and game_id not in written.games:
                games = ", ".join(written.games) or "no game"
                warnings.append(
                    f"{where} was written for {games}, not {game_id}; use {RULES_ONLY}, which reads only the rules"
                )
                continue
            understood = written.options or ()
            blind = [option for option in changed if option not in understood]
            if blind:
                words = "option " + blind[0] if len(blind) == 1 else "options " + ", ".join(blind)
                warnings.append(
                    f"{where} does not declare {words}, so plays as under the standard rule; "
                    f"use {RULES_ONLY}, which reads only the rules"
                )
    return warnings
