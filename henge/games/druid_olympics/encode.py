"""Druid Olympics as fixed-size tensors, for the research adapters (``docs/games/druid_olympics.md``,
section "Tensor encoding", has the tables of slices).

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

The information state tensor is the observation tensor followed by a summary of what the
seat knows: for every card, its share of each place (1 where the seat sees it; for an unseen
card, each hand's and the draw pile's share of its ``unseen`` group). Perfect recall itself
does not fit a fixed size.

This module reads only the observation (keys listed in the docs) and the course, a public
fact of the board (:mod:`henge.games.druid_olympics.board`), never the rules modules.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from henge import box
from henge.core import actor_index, slice_starts
from henge.core import layout_size as _size
from henge.games.druid_olympics import board as course

PHASES: tuple[str, ...] = ("deal", "choose first", "block", "block cards", "move", "pay", "enter", "draw", "over")
COLOURS: tuple[str, ...] = box.COLOURS
TRILITHONS: tuple[str, ...] = box.PLAYER_COLOURS
CARDS = box.DECK_SIZE
_CARD: dict[str, int] = {text: c for c, text in enumerate(box.CARD_TEXT)}
"""Card id by canonical text (the observation writes cards as ``box.CARD_TEXT``)."""
SPACES = course.SPACES
PROGRESS = course.ALTAR + 1
HAND = 3
LOST_TURNS_SCALE = 2
PIECES = 2 + len(TRILITHONS)
"""A block place's piece: bar, disk, or the trilithon of a colour."""
PLACES_BEFORE_HANDS: tuple[str, ...] = ("table", "discard pile", "draw pile")
_TABLE, _DISCARD, _DRAW = range(3)
_HANDS = len(PLACES_BEFORE_HANDS)


def places(players: int) -> tuple[str, ...]:
    """Returns the places of a card in the information state: the piles, then each seat's hand."""
    return PLACES_BEFORE_HANDS + tuple(f"hand of seat {k}" for k in range(players))


def observation_layout(players: int, options: Mapping[str, Any]) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """Returns the observation tensor's slices, in order, as ``(name, shape)``."""
    n = players
    return (
        ("seat", (n,)),
        ("current_player", (n + 2,)),
        ("phase", (len(PHASES),)),
        ("first_player", (n,)),
        ("turn", (1,)),
        ("progress", (n, PROGRESS)),
        ("entered_at", (n, 2)),
        ("bar", (n, SPACES)),
        ("disk", (n, SPACES)),
        ("lost_turns", (n,)),
        ("skipping", (n,)),
        ("drained", (n,)),
        ("trilithons", (len(TRILITHONS), SPACES)),
        ("hand", (CARDS,)),
        ("hand_sizes", (n,)),
        ("draw_pile", (1,)),
        ("discard_pile", (CARDS,)),
        ("table", (CARDS,)),
        ("target_piece", (PIECES,)),
        ("target_spaces", (SPACES,)),
        ("paying_colour", (len(COLOURS),)),
        ("paying", (2,)),
        ("winners", (n,)),
    )


def information_state_layout(players: int, options: Mapping[str, Any]) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """Returns the information state tensor's slices: the observation's, then the card places."""
    return observation_layout(players, options) + (("card_places", (CARDS, len(places(players)))),)


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
        raise ValueError(f"druid_olympics encoding: unknown {what} {value!r}") from None


def _write(observation: Mapping[str, Any], t: list[float], at: dict[str, int]) -> None:
    """Writes the observation slices into ``t`` (zeros)."""
    card = _CARD.__getitem__
    space = course.parse_space
    n = observation["players"]
    seat = observation["seat"]
    if seat is not None:
        t[at["seat"] + seat] = 1.0
    t[at["current_player"] + actor_index(observation["current_player"], n)] = 1.0
    t[at["phase"] + _index(PHASES, observation["phase"], "phase")] = 1.0
    if observation["first_player"] >= 0:
        t[at["first_player"] + observation["first_player"]] = 1.0
    t[at["turn"]] = min(observation["turn"], observation["round_cap"]) / observation["round_cap"]
    for runner in observation["runners"]:
        k = runner["seat"]
        t[at["progress"] + k * PROGRESS + runner["progress"]] = 1.0
        entered = runner["entered_at"]
        if entered is not None:
            t[at["entered_at"] + 2 * k + (0 if entered == f"bluestone {course.ENDS[0]}" else 1)] = 1.0
        if runner["bar"] is not None:
            t[at["bar"] + k * SPACES + space(runner["bar"])] = 1.0
        if runner["disk"] is not None:
            t[at["disk"] + k * SPACES + space(runner["disk"])] = 1.0
        t[at["lost_turns"] + k] = runner["lost_turns"] / LOST_TURNS_SCALE
        t[at["skipping"] + k] = 1.0 if runner["skipping"] else 0.0
        t[at["drained"] + k] = 1.0 if runner["drained"] else 0.0
    for block in observation["blocks"]:
        piece = block["piece"]
        if piece.startswith("trilithon "):
            colour = _index(TRILITHONS, piece.removeprefix("trilithon "), "trilithon")
            t[at["trilithons"] + colour * SPACES + space(block["space"])] = 1.0
    for text in observation["hand"] or ():
        t[at["hand"] + card(text)] = 1.0
    for k, size in enumerate(observation["hand_sizes"]):
        t[at["hand_sizes"] + k] = size / HAND
    t[at["draw_pile"]] = observation["draw_pile"] / CARDS
    for text in observation["discard_pile"]:
        t[at["discard_pile"] + card(text)] = 1.0
    for text in observation["table"]:
        t[at["table"] + card(text)] = 1.0
    if observation["target"] is not None:
        target = course.parse_target(observation["target"])
        t[at["target_piece"] + (target.piece if target.piece < course.TRILITHON else 2 + target.colour)] = 1.0
        for s in target.spaces:
            t[at["target_spaces"] + s] = 1.0
    paying = observation["paying"]
    if paying is not None:
        t[at["paying_colour"] + _index(COLOURS, paying["colour"], "colour")] = 1.0
        t[at["paying"]] = paying["need"] / HAND
        t[at["paying"] + 1] = paying["paid"] / HAND
    if observation["winners"] is not None:
        for k in observation["winners"]:
            t[at["winners"] + k] = 1.0


def observation_tensor(observation: Mapping[str, Any]) -> list[float]:
    """Returns the seat's observation as ``observation_shape`` floats."""
    at, size, _ = _starts(observation["players"])
    t = [0.0] * size
    _write(observation, t, at)
    return t


def _unseen_groups(observation: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """Returns the groups of unseen cards (``unseen``); without that key, one group of every card
    the seat sees nowhere, spread over the other hands and the draw pile."""
    groups = observation.get("unseen")
    if groups is not None:
        return list(groups)
    seen = set(observation["discard_pile"]) | set(observation["table"]) | set(observation["hand"] or ())
    cards = [text for text in box.CARD_TEXT if text not in seen]
    hands = [0 if k == observation["seat"] else size for k, size in enumerate(observation["hand_sizes"])]
    return [{"cards": cards, "hands": hands, "draw_pile": observation["draw_pile"]}]


def information_state_tensor(observation: Mapping[str, Any]) -> list[float]:
    """Returns the observation tensor followed by every card's places as the seat knows them."""
    n = observation["players"]
    at, _, size = _starts(n)
    t = [0.0] * size
    _write(observation, t, at)
    card = _CARD.__getitem__
    base = at["card_places"]
    width = _HANDS + n
    for text in observation["discard_pile"]:
        t[base + width * card(text) + _DISCARD] = 1.0
    for text in observation["table"]:
        t[base + width * card(text) + _TABLE] = 1.0
    for text in observation["hand"] or ():
        t[base + width * card(text) + _HANDS + observation["seat"]] = 1.0
    for group in _unseen_groups(observation):
        cards = group["cards"]
        if not cards:
            continue
        shares = [(_HANDS + k, count / len(cards)) for k, count in enumerate(group["hands"]) if count]
        if group["draw_pile"]:
            shares.append((_DRAW, group["draw_pile"] / len(cards)))
        for text in cards:
            row = base + width * card(text)
            for place, share in shares:
                t[row + place] = share
    return t
