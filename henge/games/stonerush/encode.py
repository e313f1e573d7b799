"""Stonerush as fixed-size tensors, for the research adapters (``docs/games/stonerush.md``,
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
card, each place's share of its ``hidden_cards`` group), and every seat's possible trilithon
colours. Perfect recall itself (thousands of actions) does not fit a fixed size.

This module reads only the observation (keys listed in the docs), never the rules modules.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from henge import box
from henge.core import actor_index, slice_starts
from henge.core import layout_size as _size

PHASES: tuple[str, ...] = ("deal trilithons", "deal hands", "choose start", "play", "discard", "draw", "over")
DRUIDS: tuple[str, ...] = box.PLAYER_COLOURS
TRACK = 30
"""Spaces of the standard track; the bluestones variant uses 1..19 of them, a shorter track (the
designer option ``track``) 1..its end: the size never depends on the options."""
LAST_PLAYS = 8
HAND = 4
"""Hand sizes are counted in fours (the designer option ``hand`` at 5 or 6 gives up to 1.5)."""
DISCARD_SCALE = 4
"""A seat's discards of one card over the whole game are counted in quarters."""
CARDS = box.DECK_SIZE
_CARD: dict[str, int] = {text: c for c, text in enumerate(box.CARD_TEXT)}
"""Card id by canonical text (the observation writes cards as ``box.CARD_TEXT``)."""
DECK: frozenset[int] = frozenset(
    box.number_cards(day=True, night=False) + box.number_cards(day=False, night=True, numbers=range(1, 13))
)
"""S1: the 30 day cards and the night cards 1..12; the other cards are out of the game."""
PLACES_BEFORE_HANDS: tuple[str, ...] = ("in play", "discard pile", "draw pile", "out of the game")
_IN_PLAY, _DISCARD, _DRAW, _OUT = range(4)
_HANDS = len(PLACES_BEFORE_HANDS)


def places(players: int) -> tuple[str, ...]:
    """Returns the places of a card in the information state: the piles, then each seat's hand."""
    return PLACES_BEFORE_HANDS + tuple(f"hand of seat {k}" for k in range(players))


_PLAY = 6 + CARDS  # per last play: seat (n), cards (65), druid or none (6), from, to


def observation_layout(players: int, options: Mapping[str, Any]) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """Returns the observation tensor's slices, in order, as ``(name, shape)``."""
    n = players
    return (
        ("seat", (n,)),
        ("current_player", (n + 2,)),
        ("phase", (len(PHASES),)),
        ("starting_player", (n,)),
        ("round", (1,)),
        ("bluestones", (1,)),
        ("druids", (5, TRACK)),
        ("hand", (CARDS,)),
        ("trilithon", (5,)),
        ("hand_sizes", (n,)),
        ("draw_pile", (1,)),
        ("discard_pile", (CARDS,)),
        ("in_play", (CARDS,)),
        ("last_plays", (LAST_PLAYS, n + _PLAY + 2)),
        ("pushed", (n, 5)),
        ("discarded", (n, CARDS)),
        ("trilithons", (n, 5)),
        ("winners", (n,)),
    )


def information_state_layout(players: int, options: Mapping[str, Any]) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """Returns the information state tensor's slices: the observation's, then the seat's knowledge."""
    return observation_layout(players, options) + (
        ("card_places", (CARDS, len(places(players)))),
        ("trilithon_possible", (players, 5)),
    )


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
        raise ValueError(f"stonerush encoding: unknown {what} {value!r}") from None


def _write(observation: Mapping[str, Any], t: list[float], at: dict[str, int]) -> None:
    """Writes the observation slices into ``t`` (zeros)."""
    card = _CARD.__getitem__
    n = observation["players"]
    seat = observation["seat"]
    if seat is not None:
        t[at["seat"] + seat] = 1.0
    t[at["current_player"] + actor_index(observation["current_player"], n)] = 1.0
    t[at["phase"] + _index(PHASES, observation["phase"], "phase")] = 1.0
    if observation["starting_player"] >= 0:
        t[at["starting_player"] + observation["starting_player"]] = 1.0
    t[at["round"]] = min(observation["round"], observation["round_cap"]) / observation["round_cap"]
    t[at["bluestones"]] = 1.0 if observation["variant"] == "bluestones" else 0.0
    base = at["druids"]
    for colour, space in observation["druids"].items():
        t[base + _index(DRUIDS, colour, "druid") * TRACK + space - 1] = 1.0
    base = at["hand"]
    for text in observation["hand"] or ():
        t[base + card(text)] = 1.0
    if observation["trilithon"] is not None:
        t[at["trilithon"] + _index(DRUIDS, observation["trilithon"], "colour")] = 1.0
    base = at["hand_sizes"]
    for k, size in enumerate(observation["hand_sizes"]):
        t[base + k] = size / HAND
    t[at["draw_pile"]] = observation["draw_pile"] / len(DECK)
    base = at["discard_pile"]
    for text in observation["discard_pile"]:
        t[base + card(text)] = 1.0
    base = at["in_play"]
    for text in observation["in_play"]:
        t[base + card(text)] = 1.0
    width = n + _PLAY + 2
    base = at["last_plays"]
    for play in reversed(observation["last_plays"][-LAST_PLAYS:]):  # the newest first
        t[base + play["seat"]] = 1.0
        for text in play["cards"]:
            t[base + n + card(text)] = 1.0
        druid = play["druid"]
        t[base + n + CARDS + (5 if druid is None else _index(DRUIDS, druid, "druid"))] = 1.0
        t[base + n + _PLAY] = play["from"] / TRACK
        t[base + n + _PLAY + 1] = play["to"] / TRACK
        base += width
    base = at["pushed"]
    for k, pushed in enumerate(observation["pushed"]):
        for colour, spaces in pushed.items():
            t[base + 5 * k + _index(DRUIDS, colour, "druid")] = spaces / TRACK
    base = at["discarded"]
    for k, texts in enumerate(observation["discarded"]):
        for text in texts:
            t[base + CARDS * k + card(text)] += 1.0 / DISCARD_SCALE
    if observation["trilithons"] is not None:
        base = at["trilithons"]
        for k, colour in enumerate(observation["trilithons"]):
            t[base + 5 * k + _index(DRUIDS, colour, "colour")] = 1.0
    if observation["winners"] is not None:
        for k in observation["winners"]:
            t[at["winners"] + k] = 1.0


def observation_tensor(observation: Mapping[str, Any]) -> list[float]:
    """Returns the seat's observation as ``observation_shape`` floats."""
    at, size, _ = _starts(observation["players"])
    t = [0.0] * size
    _write(observation, t, at)
    return t


def _hidden_groups(observation: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """Returns the groups of unseen cards (``hidden_cards``); without that key, one group of every
    card of the deck the seat sees nowhere, spread over the other hands and the draw pile."""
    groups = observation.get("hidden_cards")
    if groups is not None:
        return list(groups)
    seen = set(observation["discard_pile"]) | set(observation["in_play"]) | set(observation["hand"] or ())
    cards = [box.CARD_TEXT[c] for c in sorted(DECK) if box.CARD_TEXT[c] not in seen]
    hands = [0 if k == observation["seat"] else size for k, size in enumerate(observation["hand_sizes"])]
    return [{"cards": cards, "hands": hands, "draw_pile": observation["draw_pile"]}]


def information_state_tensor(observation: Mapping[str, Any]) -> list[float]:
    """Returns the observation tensor followed by the card places and the possible trilithon colours."""
    n = observation["players"]
    at, _, size = _starts(n)
    t = [0.0] * size
    _write(observation, t, at)
    card = _CARD.__getitem__
    seat = observation["seat"]
    base = at["card_places"]
    width = _HANDS + n
    for c in range(CARDS):
        if c not in DECK:
            t[base + width * c + _OUT] = 1.0
    for text in observation["discard_pile"]:
        t[base + width * card(text) + _DISCARD] = 1.0
    for text in observation["in_play"]:
        t[base + width * card(text) + _IN_PLAY] = 1.0
    for text in observation["hand"] or ():
        t[base + width * card(text) + _HANDS + seat] = 1.0
    for group in _hidden_groups(observation):
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
    base = at["trilithon_possible"]
    revealed = observation["trilithons"]
    own = observation["trilithon"]
    for k in range(n):
        for colour in range(5):
            if revealed is not None:
                possible = revealed[k] == DRUIDS[colour]
            elif own is None:
                possible = True
            elif k == observation["seat"]:
                possible = own == DRUIDS[colour]
            else:
                possible = own != DRUIDS[colour]
            if possible:
                t[base + 5 * k + colour] = 1.0
    return t
