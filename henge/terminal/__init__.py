"""Terminal play: the shared pieces of every game's drawing, and the shared loops.

A game's descriptor names its drawing module (``henge/games/<id>/terminal.py`` for the
games that ship with henge), which offers ``render(observation) -> RenderableType`` and
``describe_decision(observation) -> str``; it sees only the observation of
the seat it draws for, so the terminal can show nothing a seat may not know.
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

from rich.console import RenderableType
from rich.pretty import Pretty

from henge.core import plugin


def _module(game_id: str) -> ModuleType | None:
    return plugin(game_id).load_terminal()


def renderer(game_id: str) -> Callable[[dict[str, Any]], RenderableType]:
    """Returns the drawing function of a game (a plain dump of the observation if it has none)."""
    module = _module(game_id)
    if module is not None and hasattr(module, "render"):
        return module.render
    return lambda obs: Pretty(obs)


def decision_text(game_id: str, observation: dict[str, Any]) -> str:
    """Returns the prompt naming the decision a seat is making."""
    module = _module(game_id)
    if module is not None and hasattr(module, "describe_decision"):
        return str(module.describe_decision(observation))
    return "choose an action"


def progress_bar(console: Any, *, time_left: bool = True) -> Any:
    """Returns a Rich progress display for long runs (tournaments, matches, analyses): description,
    bar, done/total, time taken and, with ``time_left``, the estimated time left; it disappears when done."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    columns: list[Any] = [TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn()]
    if time_left:
        columns += [TextColumn("left"), TimeRemainingColumn()]
    return Progress(*columns, console=console, transient=True)
