"""Tensor encodings: the contract of a game's encoder, and the base every encoder is made from.

A game with a tensor encoding names a module of its own as its plugin's ``encoder`` (by
convention ``encode.py``); the research adapters, the policy agent and :func:`seat_tensor` read
it. The contract, the same in every game:

* ``observation_layout(players, options)`` and ``information_state_layout(players, options)``
  return the named slices in order, as ``(name, shape)`` pairs, laid end to end in one flat
  tensor (the docs page of each game, section "Tensor encoding", tables them);
* ``observation_shape(players, options)`` and ``information_state_shape(players, options)``
  (also named ``OBSERVATION_SHAPE`` and ``INFORMATION_STATE_SHAPE``, the names the OpenSpiel
  adapter reads) return ``(size,)``: a function of the player count and the game's options,
  never of the position;
* ``observation_tensor(observation)`` and ``information_state_tensor(observation)`` return
  ``size`` finite floats, one-hot indicators, 0/1 flags and counts scaled to about [0, 1],
  from a seat's ``State.observation(seat)`` alone (a spectator's, seat None, works too);
* ``places(players)`` names the columns of the information state's ``card_places`` slice,
  one row per card: each card's share of each place, as the seat knows them.

The information state tensor is the observation tensor followed by a summary of what the seat
knows; perfect recall itself does not fit a fixed size.

An encoder module subclasses :class:`Encoder` with what is its own (its layouts and the values
it writes) and binds the contract's names to one instance's methods. The base gives the
shapes, the slice starts (computed once per player count), the allocation, the error on a name
the encoder does not know, and the slices every game has, written from the observation's keys
of the same names: ``seat`` (n), ``current_player`` (n + 2, :func:`actor_index`), ``phase``
(one-hot over the encoder's ``phases``) and ``winners`` (n).
"""

from __future__ import annotations

import math
from array import array
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import cython

from henge import box
from henge.core.registry import plugin

if TYPE_CHECKING:
    import numpy as np

Buffer = list[float] | array
"""What a writer fills (zeros to start with): a list of floats, or doubles (``array('d')``)."""
Slices = tuple[dict[str, int], int, int, array, array]

Layout = Sequence[tuple[str, tuple[int, ...]]]
ENCODINGS = ("observation", "information_state")
"""The tensors every encoder gives: its ``<name>_tensor(observation)`` and ``<name>_shape(players, options)``."""
CARD_ID: dict[str, int] = {text: c for c, text in enumerate(box.CARD_TEXT)}
"""Card id by canonical text (observations write cards as ``box.CARD_TEXT``)."""


def layout_size(layout: Layout) -> int:
    """Returns the number of values in a layout."""
    return sum(math.prod(shape) for _, shape in layout)


def slice_starts(layout: Layout) -> dict[str, int]:
    """Returns where each named slice of a layout starts."""
    starts: dict[str, int] = {}
    at = 0
    for name, shape in layout:
        starts[name] = at
        at += math.prod(shape)
    return starts


def actor_index(player: int, players: int) -> int:
    """Returns the one-hot index of the actor to move: seat k is k, chance is n, the end n + 1."""
    if player >= 0:
        return player
    return players if player == -1 else players + 1


def write_cards(t: Buffer, base: int, texts: Sequence[str] | None) -> None:
    """Writes 1 at ``base`` plus the id of every card of ``texts`` (None: no card)."""
    card = CARD_ID.__getitem__
    for text in texts or ():
        t[base + card(text)] = 1.0


class Encoder:
    """The base of a game's encoder: a subclass gives ``game``, ``phases``, the two layouts and
    the two writers; the contract's functions are the methods of one instance.

    The slice starts the writers are given are computed once per player count, from the
    layouts with no options (``{}``), since a tensor is made from the observation alone: the
    values may depend on the options (as the observation shows them), the slices may not.
    """

    game: str
    """The game's id, in the error on an unknown name."""
    phases: Sequence[str]
    """The phase names, in the order of the ``phase`` slice."""

    def __init__(self) -> None:
        self._starts: dict[int, Slices] = {}
        self._phase_ids = {phase: p for p, phase in enumerate(self.phases)}  # faster than phases.index
        self._ids: dict[int, tuple[Sequence[str], dict[str, int]]] = {}
        """For :meth:`index`: by the id of a sequence of values, the sequence and each value's first place."""

    def observation_layout(self, players: int, options: Mapping[str, Any]) -> Layout:
        """Returns the observation tensor's slices, in order, as ``(name, shape)``."""
        raise NotImplementedError

    def knowledge_layout(self, players: int, options: Mapping[str, Any]) -> Layout:
        """Returns the slices the information state tensor adds after the observation's."""
        raise NotImplementedError

    def write(self, observation: Mapping[str, Any], t: Buffer, at: Mapping[str, int]) -> None:
        """Writes the observation's own slices (all but the shared ones) into ``t`` (zeros);
        ``at`` is where each slice starts."""
        raise NotImplementedError

    def write_knowledge(self, observation: Mapping[str, Any], t: Buffer, at: Mapping[str, int]) -> None:
        """Writes the slices of :meth:`knowledge_layout` into ``t``, after the observation's."""
        raise NotImplementedError

    def information_state_layout(self, players: int, options: Mapping[str, Any]) -> Layout:
        """Returns the information state tensor's slices: the observation's, then the knowledge's."""
        return (*self.observation_layout(players, options), *self.knowledge_layout(players, options))

    def observation_shape(self, players: int, options: Mapping[str, Any]) -> tuple[int, ...]:
        """Returns ``(size,)`` of the observation tensor."""
        return (layout_size(self.observation_layout(players, options)),)

    def information_state_shape(self, players: int, options: Mapping[str, Any]) -> tuple[int, ...]:
        """Returns ``(size,)`` of the information state tensor."""
        return (layout_size(self.information_state_layout(players, options)),)

    def observation_tensor(self, observation: Mapping[str, Any]) -> list[float]:
        """Returns the seat's observation as ``observation_shape`` floats."""
        slices = self._slices(observation["players"])
        if cython.compiled:  # the compiled writers fill doubles
            return self._tensor(observation, slices[0], slices[3][:], False).tolist()
        else:
            return self._tensor(observation, slices[0], [0.0] * slices[1], False)

    def information_state_tensor(self, observation: Mapping[str, Any]) -> list[float]:
        """Returns the observation tensor followed by what the seat knows."""
        slices = self._slices(observation["players"])
        if cython.compiled:
            return self._tensor(observation, slices[0], slices[4][:], True).tolist()
        else:
            return self._tensor(observation, slices[0], [0.0] * slices[2], True)

    def observation_array(self, observation: Mapping[str, Any]) -> np.ndarray:
        """Returns :meth:`observation_tensor` as a new float32 array (made without a list of floats)."""
        slices = self._slices(observation["players"])
        return _float32(self._tensor(observation, slices[0], slices[3][:], False))

    def information_state_array(self, observation: Mapping[str, Any]) -> np.ndarray:
        """Returns :meth:`information_state_tensor` as a new float32 array (made without a list of floats)."""
        slices = self._slices(observation["players"])
        return _float32(self._tensor(observation, slices[0], slices[4][:], True))

    def index(self, values: Sequence[str], value: str, what: str) -> int:
        """Returns where ``value`` is in ``values``; a ValueError naming ``what`` if it is not there."""
        entry = self._ids.get(id(values))
        if entry is None or entry[0] is not values:  # a table per sequence, kept with it (ids are reused)
            table: dict[str, int] = {}
            for place, known in enumerate(values):
                table.setdefault(known, place)
            entry = self._ids[id(values)] = (values, table)
        found = entry[1].get(value)
        if found is None:
            raise ValueError(f"{self.game} encoding: unknown {what} {value!r}")
        return found

    def lookup(self, table: Mapping[str, int], text: str, what: str) -> int:
        """Returns ``table[text]``; a ValueError naming ``what`` if it is not there."""
        value = table.get(text)
        if value is None:
            raise ValueError(f"{self.game} encoding: unknown {what} {text!r}")
        return value

    def _slices(self, players: int) -> Slices:
        """Returns (and keeps) the start of every slice, the observation tensor's size and the information
        state's, and zeros of each size as doubles."""
        slices = self._starts.get(players)
        if slices is None:
            layout = self.information_state_layout(players, {})
            observed = layout_size(self.observation_layout(players, {}))
            known = layout_size(layout)
            zeros = array("d", bytes(8 * observed)), array("d", bytes(8 * known))
            slices = self._starts[players] = (slice_starts(layout), observed, known, *zeros)
        return slices

    def _tensor(self, observation: Mapping[str, Any], at: dict[str, int], t: Any, knowledge: bool) -> Any:
        """Writes into ``t`` (zeros: a list of floats or doubles) the observation tensor, followed by the
        knowledge's slices if ``knowledge``, and returns it: the shared slices written here, the game's own
        by its writers."""
        n = observation["players"]
        seat = observation["seat"]
        if seat is not None:
            t[at["seat"] + seat] = 1.0
        t[at["current_player"] + actor_index(observation["current_player"], n)] = 1.0
        phase = self._phase_ids.get(observation["phase"])
        if phase is None:
            raise ValueError(f"{self.game} encoding: unknown phase {observation['phase']!r}")
        t[at["phase"] + phase] = 1.0
        winners = observation["winners"]
        if winners is not None:
            for k in winners:
                t[at["winners"] + k] = 1.0
        self.write(observation, t, at)
        if knowledge:
            self.write_knowledge(observation, t, at)
        return t


def seat_tensor(game_id: str, observation: Mapping[str, Any], *, encoding: str = "information_state") -> np.ndarray:
    """Returns a seat's tensor from its ``State.observation(seat)`` alone, as a new float32 array.

    ``encoding``: ``"information_state"`` (what the Gymnasium and PettingZoo environments observe) or
    ``"observation"``. The game's encoder (its plugin's ``encoder`` module) writes the values; a bot
    that is handed only a decision computes the same tensor as the environments do. Needs numpy.
    """
    if encoding not in ENCODINGS:
        raise ValueError(f"encoding must be one of {', '.join(ENCODINGS)}, not {encoding!r}")
    encoder = plugin(game_id).load_encoder()
    if encoder is None:
        raise ValueError(f"{game_id} has no tensor encoding")
    made = getattr(encoder, f"{encoding}_array", None)  # an Encoder's; a module of its own may have none
    if made is not None:
        return made(observation)
    import numpy as np

    return np.asarray(getattr(encoder, f"{encoding}_tensor")(observation), dtype=np.float32)


_numpy: Any = None
"""numpy, once :func:`_float32` has imported it (an import in a compiled function costs a lookup each call)."""


def _float32(values: array) -> np.ndarray:
    """Returns the doubles as a new float32 array (each rounded as ``np.asarray(list, np.float32)`` rounds it)."""
    global _numpy
    if _numpy is None:
        import numpy

        _numpy = numpy
    return _numpy.frombuffer(values, _numpy.float64).astype(_numpy.float32)
