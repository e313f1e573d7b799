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
from henge.agents.levels import RULES_ONLY, level, level_names
from henge.core import game_class

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


def _blind(written: heuristics.WrittenFor, game_id: str, changed: Sequence[str]) -> str | None:
    """Returns what ``written`` does not know of the run ("was written for X, not Y", "does not declare
    option Z"), or None."""
    if written.games is not None and game_id not in written.games:
        return f"was written for {', '.join(written.games) or 'no game'}, not {game_id}"
    blind = [option for option in changed if option not in (written.options or ())]
    if not blind:
        return None
    return f"does not declare {'option ' + blind[0] if len(blind) == 1 else 'options ' + ', '.join(blind)}"


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
        name = shown = spec.split(":")[0]
        if name in level_names():  # a level leans on what its bot for this game leans on
            name = level(shown).spec_for(game_id).split(":")[0]
            shown = f"{shown} (a level, played by {name})"
        if shown in seen or name not in _LEANS_ON:
            continue
        seen.add(shown)
        for field, what in _LEANS_ON[name]:
            written = known.guide_written_for if field == "guide" else known.evaluate_written_for
            problem = None if written is None else _blind(written, game_id, changed)
            if written is not None and problem is not None:
                so = "" if problem.startswith("was") else ", so plays as under the standard rule"
                warnings.append(
                    f"{shown}: {what} ({written.module}) {problem}{so}; use {RULES_ONLY}, which reads only the rules"
                )
    return warnings


def evaluation_blind_spot(game_id: str, options: Mapping[str, Any], swept: Iterable[str] = ()) -> str | None:
    """Returns a warning where the game's hand-written evaluation, which ``henge analyze`` reads the lead
    with (lead changes, decided at), does not know the run's rules; None where it does or there is none."""
    written = heuristics.knowledge(game_id).evaluate_written_for
    problem = None if written is None else _blind(written, game_id, changed_options(game_id, options, swept))
    if written is None or problem is None:
        return None
    return f"lead changes and decided at: the evaluation that reads the lead ({written.module}) {problem}"
