"""What the commands share: the console, reading a game's options from the command line."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import click
from rich.console import Console

import henge
from henge.analysis.command import parse_options


def _console() -> Console:
    return Console(highlight=False)


def _options(game_id: str, variant: str | None, texts: Sequence[str] = ()) -> dict[str, Any]:
    """Returns the game's options from ``--variant`` and ``--option NAME=VALUE`` (each checked)."""
    if variant is None and not texts:
        return {}
    try:
        info = henge.game_class(game_id).info
    except ValueError as error:
        raise click.UsageError(str(error)) from None
    return parse_options(info, texts, variant)


OPTION_HELP = (
    "A rule option as NAME=VALUE, repeatable, e.g. track=20 (each game's options: `henge games`, and the "
    '"Designer options" of its docs page).'
)
