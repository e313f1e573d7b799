"""henge: the Stonehenge Anthology's rule sets, bots and tools, in Python."""

# First: its import hook (HENGE_PURE=1, edited sources) must precede every compiled module.
import henge.compiled  # noqa: F401
from henge.core import (
    CHANCE,
    TERMINAL,
    Game,
    GameInfo,
    GameRecord,
    IllegalActionError,
    State,
    StateFormatError,
    game_class,
    list_games,
    load,
)
from henge.records import play, replay

__version__ = "0.1.0"

__all__ = [
    "CHANCE",
    "TERMINAL",
    "Game",
    "GameInfo",
    "GameRecord",
    "IllegalActionError",
    "State",
    "StateFormatError",
    "game_class",
    "list_games",
    "load",
    "play",
    "replay",
]
