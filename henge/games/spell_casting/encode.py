"""Stonehenge Spell Casting Game as fixed-size tensors, for the research adapters
(``docs/games/spell_casting.md``, section "Tensor encoding", has the tables of slices).

The contract (the same in every game's ``encode`` module):

* ``observation_layout(players, options)`` and ``information_state_layout(players, options)``
  return the named slices in order, as ``(name, shape)`` pairs;
* ``observation_shape(players, options)`` and ``information_state_shape(players, options)``
  (also named ``OBSERVATION_SHAPE`` and ``INFORMATION_STATE_SHAPE``, as the game descriptor
  asks) return ``(size,)``: a function of the player count and the game's options, never of
  the position;
* ``observation_tensor(observation)`` and ``information_state_tensor(observation)`` return
  ``size`` finite floats, one-hot indicators, 0/1 flags and counts scaled to about [0, 1],
  from a seat's ``State.observation(seat)`` alone (a spectator's, seat None, works too).

Nothing is hidden in this game, so the information state tensor is the observation tensor
followed by the place of every card (turned at set-up, still to be turned, or not in the
game), which the seat knows by elimination.

This module reads only the observation (keys listed in the docs), never the rules or the
board module; the cell numbering (outer, coloured and middle rings 1..30, then the 60 inner
stones) and the cup names are public facts of the board written again here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from henge import box
from henge.core import actor_index, slice_starts
from henge.core import layout_size as _size
from henge.games.spell_casting.board import CELLS, CUP_NAMES, ENERGY_DISKS, RING_NAMES

PHASES: tuple[str, ...] = (
    "deal components",
    "deal figures",
    "return held disks",
    "take",
    "use",
    "displace",
    "place private disk",
    "replace disks",
    "over",
)
ACTIONS: tuple[str, ...] = ("a", "b", "c")
RINGS: tuple[str, ...] = RING_NAMES
RING_CELLS: tuple[int, ...] = (30, 30, 30, box.INNER_STONES)
CUPS: tuple[str, ...] = CUP_NAMES
FIGURES: tuple[str, ...] = box.FIGURES
CARDS = box.DECK_SIZE
_CARD: dict[str, int] = {text: c for c, text in enumerate(box.CARD_TEXT)}
"""Card id by canonical text (the observation writes cards as ``box.CARD_TEXT``)."""
NUMBER_CARDS = box.NUMBER_CARD_COUNT
PRIVATE_DISKS = 3
HELD = 2
SECTIONS = 3
HAND_SCALE = 4
PLACES: tuple[str, ...] = ("turned", "to be turned", "out of the game")
"""The places of a card in the information state, one-hot per card."""


def places(players: int) -> tuple[str, ...]:
    """Returns the places of a card in the information state (the same for every player count)."""
    return PLACES


_CELL_BY_TEXT: dict[str, int] = {f"{RINGS[r]} {m}": 30 * r + m - 1 for r in range(3) for m in box.NUMBERS}
_CELL_BY_TEXT.update({f"inner {box.inner_text(s)}": 90 + s for s in range(box.INNER_STONES)})
_STONE_BY_TEXT: dict[str, int] = {box.inner_text(s): s for s in range(box.INNER_STONES)}


def observation_layout(players: int, options: Mapping[str, Any]) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """Returns the observation tensor's slices, in order, as ``(name, shape)``."""
    n = players
    return (
        ("seat", (n,)),
        ("current_player", (n + 2,)),
        ("turn_player", (n,)),
        ("phase", (len(PHASES),)),
        ("round", (1,)),
        ("short", (1,)),
        ("setup_cards", (NUMBER_CARDS,)),
        ("draw_pile", (1,)),
        ("cells", (CELLS, n)),
        ("figures", (len(FIGURES), box.INNER_STONES)),
        ("energy", (len(CUPS),)),
        ("private", (len(CUPS), n)),
        ("held", (n,)),
        ("private_left", (n,)),
        ("inner_counts", (n,)),
        ("action", (len(ACTIONS) + 1,)),
        ("action_cup", (len(CUPS) + 1,)),
        ("action_sources", (len(CUPS),)),
        ("hand", (2, len(CUPS))),
        ("uses_left", (SECTIONS,)),
        ("chain_component", (n,)),
        ("chain_from", (CELLS,)),
        ("chain_moved", (CELLS,)),
        ("winners", (n,)),
    )


def information_state_layout(players: int, options: Mapping[str, Any]) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """Returns the information state tensor's slices: the observation's, then the card places."""
    return observation_layout(players, options) + (("card_places", (CARDS, len(PLACES))),)


def observation_shape(players: int, options: Mapping[str, Any]) -> tuple[int, ...]:
    """Returns ``(size,)`` of the observation tensor."""
    return (_size(observation_layout(players, options)),)


def information_state_shape(players: int, options: Mapping[str, Any]) -> tuple[int, ...]:
    """Returns ``(size,)`` of the information state tensor."""
    return (_size(information_state_layout(players, options)),)


OBSERVATION_SHAPE = observation_shape
INFORMATION_STATE_SHAPE = information_state_shape


@cache
def _starts(players: int) -> tuple[dict[str, int], int, int]:
    """Returns the start of every slice, the observation's size and the information state's."""
    layout = information_state_layout(players, {})
    return slice_starts(layout), _size(observation_layout(players, {})), _size(layout)


def _index(values: Sequence[str], value: str, what: str) -> int:
    try:
        return values.index(value)
    except ValueError:
        raise ValueError(f"spell_casting encoding: unknown {what} {value!r}") from None


def _lookup(table: Mapping[str, int], text: str, what: str) -> int:
    value = table.get(text)
    if value is None:
        raise ValueError(f"spell_casting encoding: unknown {what} {text!r}")
    return value


def _write(observation: Mapping[str, Any], t: list[float], at: dict[str, int]) -> None:
    """Writes the observation slices into ``t`` (zeros)."""
    n = observation["players"]
    seat = observation["seat"]
    if seat is not None:
        t[at["seat"] + seat] = 1.0
    t[at["current_player"] + actor_index(observation["current_player"], n)] = 1.0
    t[at["turn_player"] + observation["turn_player"]] = 1.0
    t[at["phase"] + _index(PHASES, observation["phase"], "phase")] = 1.0
    t[at["round"]] = min(observation["round"], observation["round_cap"]) / observation["round_cap"]
    t[at["short"]] = 1.0 if observation["variant"] == "short" else 0.0
    for text in observation["setup_cards"]:
        t[at["setup_cards"] + _CARD[text]] = 1.0
    t[at["draw_pile"]] = observation["draw_pile"] / NUMBER_CARDS
    base = at["cells"]
    rings = observation["rings"]
    for ring in RINGS:
        for owner in rings[ring]:
            if owner is not None:
                t[base + owner] = 1.0
            base += n
    for figure, stone in observation["figures"].items():
        if stone is not None:
            f = _index(FIGURES, figure, "figure")
            t[at["figures"] + box.INNER_STONES * f + _lookup(_STONE_BY_TEXT, stone, "inner stone")] = 1.0
    cups = observation["cups"]
    for c, name in enumerate(CUPS):
        cup = cups[name]
        t[at["energy"] + c] = cup["energy"] / ENERGY_DISKS
        for k, count in enumerate(cup["private"]):
            t[at["private"] + n * c + k] = count / PRIVATE_DISKS
    for k in range(n):
        t[at["held"] + k] = observation["held"][k] / HELD
        t[at["private_left"] + k] = observation["private_left"][k] / PRIVATE_DISKS
        t[at["inner_counts"] + k] = observation["inner_counts"][k] / observation["target"]
    action = observation["action"]
    t[at["action"] + (0 if action is None else 1 + _index(ACTIONS, action, "action"))] = 1.0
    cup_name = observation["action_cup"]
    t[at["action_cup"] + (0 if cup_name is None else 1 + _index(CUPS, cup_name, "cup"))] = 1.0
    for name in observation.get("action_sources") or ():
        t[at["action_sources"] + _index(CUPS, name, "cup")] = 1.0
    for disk in observation["hand"]:
        mine = disk.startswith("mine ")
        c = _index(CUPS, disk.removeprefix("mine "), "cup")
        t[at["hand"] + len(CUPS) * mine + c] += 1.0 / HAND_SCALE
    for s, uses in enumerate(observation["uses_left"]):
        t[at["uses_left"] + s] = uses / HAND_SCALE
    chain = observation["chain"]
    if chain is not None:
        t[at["chain_component"] + chain["component"]] = 1.0
        t[at["chain_from"] + _lookup(_CELL_BY_TEXT, chain["from"], "cell")] = 1.0
        for text in chain["moved"]:
            t[at["chain_moved"] + _lookup(_CELL_BY_TEXT, text, "cell")] = 1.0
    if observation["winners"] is not None:
        for k in observation["winners"]:
            t[at["winners"] + k] = 1.0


def observation_tensor(observation: Mapping[str, Any]) -> list[float]:
    """Returns the seat's observation as ``observation_shape`` floats."""
    at, size, _ = _starts(observation["players"])
    t = [0.0] * size
    _write(observation, t, at)
    return t


def information_state_tensor(observation: Mapping[str, Any]) -> list[float]:
    """Returns the observation tensor followed by every card's place (known to every seat)."""
    at, _, size = _starts(observation["players"])
    t = [0.0] * size
    _write(observation, t, at)
    turned = {_CARD[text] for text in observation["setup_cards"]}
    base = at["card_places"]
    width = len(PLACES)
    for c in range(CARDS):
        place = 2 if c >= NUMBER_CARDS else 0 if c in turned else 1
        t[base + width * c + place] = 1.0
    return t
