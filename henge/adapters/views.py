"""One seat's view as learning code reads it, shared by the PettingZoo and Gymnasium adapters.

A :class:`SeatView` turns ``State.observation(seat)`` into the game's information state
tensor (its encoder's ``information_state_tensor``, ``docs/games/<id>.md``, section "Tensor
encoding") as a float32 array, and the legal actions into an int8 mask over every action id.
Both are read from the seat's observation and the legal actions alone, never from the rest
of the state, so an agent is shown nothing its seat does not see.

The information state tensor, not the observation tensor: it is the observation tensor
followed by a summary of what the seat knows from everything it has seen (where each card
can be, which colours each seat can hold), the closest a fixed size comes to the perfect
recall that OpenSpiel's ``information_state_tensor`` stands for. The observation tensor is
its first slices (``observation_shape`` values).

The encoders give no bounds: values are indicators, shares and counts divided by the largest
value they normally reach, so they stay near [0, 1], but a count can pass 1 and a net move
can be negative. The observation spaces are therefore unbounded boxes.
"""

from __future__ import annotations

import io
import numbers
from collections.abc import Mapping
from types import ModuleType
from typing import Any

import numpy as np
from gymnasium import spaces
from rich.console import Console

import henge
from henge.core import Game, State, plugin, seat_tensor
from henge.terminal import renderer

RENDER_MODES = ("ansi",)
"""``ansi``: ``render()`` returns the game's terminal drawing as plain text."""
RENDER_WIDTH = 100
"""Columns of a drawing."""


def load_game(game_id: str, players: int | None, options: Mapping[str, Any]) -> Game:
    """Returns the game, with henge's errors for an unknown id, player count or option, and one for a
    game without a tensor encoding."""
    if not isinstance(game_id, str):
        raise ValueError(f"a game id is a string, not {game_id!r}; games: {', '.join(henge.list_games())}")
    game = henge.load(game_id, players, **options)
    if plugin(game_id).encoder is None:
        encoded = [g for g in henge.list_games() if plugin(g).encoder is not None]
        raise ValueError(f"{game_id} has no tensor encoding; games with one: {', '.join(encoded)}")
    return game


def check_render_mode(render_mode: str | None) -> None:
    """Raises ValueError unless ``render_mode`` is None or one the adapters offer."""
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise ValueError(f"render_mode must be None or one of {', '.join(RENDER_MODES)}, not {render_mode!r}")


def as_action(action: Any) -> int:
    """Returns ``action`` as a plain int (NumPy integers included); raises ValueError for anything else."""
    if isinstance(action, numbers.Integral) and not isinstance(action, bool):
        return int(action)
    if isinstance(action, np.ndarray) and action.shape == () and np.issubdtype(action.dtype, np.integer):
        return int(action)
    raise ValueError(f"an action is an integer id, not {action!r}")


class SeatView:
    """A game's fixed-size view of one seat: the information state tensor and the action mask."""

    def __init__(self, game: Game) -> None:
        encoder: ModuleType | None = plugin(game.info.id).load_encoder()
        if encoder is None:
            raise ValueError(f"{game.info.id} has no tensor encoding")
        self.game = game
        self._encode = getattr(encoder, "information_state_array", None)
        """The encoder's float32 information state, made without a list of floats (an Encoder's: a module
        of its own may have none, and then :func:`henge.core.seat_tensor` makes it)."""
        (self.size,) = encoder.information_state_shape(game.num_players, game.options)
        self.actions = game.num_distinct_actions()
        self._draw = renderer(game.info.id)

    def observation_space(self) -> spaces.Box:
        """Returns a new space of the tensor: float32, ``(size,)``, unbounded (see the module docstring)."""
        return spaces.Box(-np.inf, np.inf, (self.size,), np.float32)

    def mask_space(self) -> spaces.Box:
        """Returns a new space of the action mask: int8 0/1, one per action id."""
        return spaces.Box(0, 1, (self.actions,), np.int8)

    def tensor(self, state: State, seat: int) -> np.ndarray:
        """Returns the seat's information state tensor (a new float32 array), computed as
        :func:`henge.core.seat_tensor` does for a bot handed only a decision."""
        if self._encode is not None:
            values = self._encode(state.observation(seat))
        else:
            values = seat_tensor(self.game.info.id, state.observation(seat), encoding="information_state")
        if values.shape != (self.size,):
            raise ValueError(f"{self.game.info.id}: the encoder wrote {values.size} values; its shape says {self.size}")
        return values

    def mask(self, state: State, seat: int | None) -> np.ndarray:
        """Returns a new int8 array with 1 at each legal action of ``seat``: all 0 unless it is to move."""
        mask = np.zeros(self.actions, dtype=np.int8)
        if seat is not None and state.current_player() == seat:
            mask[state.legal_actions()] = 1
        return mask

    def drawing(self, state: State, seat: int | None) -> str:
        """Returns the game's terminal drawing of what ``seat`` sees (None: a spectator), as plain text."""
        out = io.StringIO()
        console = Console(
            file=out,
            width=RENDER_WIDTH,
            color_system=None,
            force_terminal=False,
            no_color=True,
            highlight=False,
            emoji=False,
        )
        console.print(self._draw(state.observation(seat)))
        return "\n".join(line.rstrip() for line in out.getvalue().splitlines()) + "\n"
