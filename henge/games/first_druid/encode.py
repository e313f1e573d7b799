"""First Druid as fixed-size tensors, for the research adapters (``docs/games/first_druid.md``,
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
seat knows: for every card, its share of each place, including the cards it knows in
another seat's holding (``known_cards``) or in one of several (``either_or``, when the
observation has it). Perfect recall itself does not fit a fixed size.

This module reads only the observation (keys listed in the docs), never the rules modules.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from henge import box
from henge.core import actor_index, slice_starts
from henge.core import layout_size as _size

PHASES: tuple[str, ...] = ("element", "turn", "answer", "drain", "draw", "discard", "bid", "over")
STAGES: tuple[str, ...] = ("setup", "turns", "refresh", "contest")
COLOURS: tuple[str, ...] = box.COLOURS
PLAYER_COLOURS: tuple[str, ...] = box.PLAYER_COLOURS
CARDS = box.DECK_SIZE
_CARD: dict[str, int] = {text: c for c, text in enumerate(box.CARD_TEXT)}
"""Card id by canonical text (the observation writes cards as ``box.CARD_TEXT``)."""
NUMBERS = box.RING_SPACES
STONES = box.INNER_STONES
BLUESTONES = box.BLUESTONES
TRILITHONS = box.TRILITHON_SPACES
HAND_LIMIT = 10
STOCK = 10
MAX_OFFERS = 3
VALUE_SCALE = 100
"""Contest values and scores are divided by this."""
PLACES_BEFORE_SEATS: tuple[str, ...] = (
    "table",
    "element card",
    "turned",
    "discard pile",
    "unseen",
    "out of the game",
)


def places(players: int) -> tuple[str, ...]:
    """Returns the places of a card in the information state: the piles, then each seat's holding."""
    return PLACES_BEFORE_SEATS + tuple(f"hand or bid of seat {k}" for k in range(players))


_TABLE, _ELEMENT, _TURNED, _DISCARD, _UNSEEN, _OUT = range(6)
_SEATS = len(PLACES_BEFORE_SEATS)


def observation_layout(players: int, options: Mapping[str, Any]) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """Returns the observation tensor's slices, in order, as ``(name, shape)``."""
    n = players
    return (
        ("seat", (n,)),
        ("colours", (n, len(PLAYER_COLOURS))),
        ("current_player", (n + 2,)),
        ("phase", (len(PHASES),)),
        ("stage", (len(STAGES),)),
        ("time", (STONES,)),
        ("day_colour", (len(COLOURS),)),
        ("element_card", (CARDS,)),
        ("turned", (CARDS,)),
        ("first_player", (n,)),
        ("turn_seat", (n,)),
        ("druids", (n, NUMBERS)),
        ("in_contact", (n,)),
        ("hand", (CARDS,)),
        ("hand_sizes", (n,)),
        ("draw_pile", (1,)),
        ("discard_pile", (CARDS,)),
        ("bluestones", (BLUESTONES, n)),
        ("spirits", (NUMBERS, n)),
        ("trilithon_sections", (TRILITHONS, 4)),
        ("trilithon_owners", (TRILITHONS, n)),
        ("altar", (n,)),
        ("disks_left", (n,)),
        ("bars_left", (n,)),
        ("table", (CARDS,)),
        ("wild_number", (NUMBERS,)),
        ("acted", (1,)),
        ("offers_made", (1,)),
        ("offer_from", (n,)),
        ("offer_to", (n,)),
        ("offer_give", (CARDS,)),
        ("offer_ask", (CARDS,)),
        ("drains_pending", (n,)),
        ("discard_owed", (1,)),
        ("contest", (NUMBERS,)),
        ("contest_element_seat", (n,)),
        ("bid_sizes", (n,)),
        ("bid", (CARDS,)),
        ("last_contest", (NUMBERS,)),
        ("last_contest_bids", (n, CARDS)),
        ("last_contest_values", (n,)),
        ("last_contest_winner", (n,)),
        ("last_contest_placed", (1,)),
        ("shown_cards", (n, CARDS)),
        ("known_cards", (n, CARDS)),
        ("known_by", (n, CARDS)),
        ("scores", (n,)),
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
        raise ValueError(f"first_druid encoding: unknown {what} {value!r}") from None


def _cards(t: list[float], base: int, texts: Sequence[str] | None) -> None:
    card = _CARD.__getitem__
    for text in texts or ():
        t[base + card(text)] = 1.0


def _write(observation: Mapping[str, Any], t: list[float], at: dict[str, int]) -> None:
    """Writes the observation slices into ``t`` (zeros)."""
    n = observation["players"]
    seat = observation["seat"]
    if seat is not None:
        t[at["seat"] + seat] = 1.0
    for k, colour in enumerate(observation["colours"]):
        t[at["colours"] + len(PLAYER_COLOURS) * k + _index(PLAYER_COLOURS, colour, "colour")] = 1.0
    t[at["current_player"] + actor_index(observation["current_player"], n)] = 1.0
    t[at["phase"] + _index(PHASES, observation["phase"], "phase")] = 1.0
    t[at["stage"] + _index(STAGES, observation["stage"], "stage")] = 1.0
    time = observation["time"]
    t[at["time"] + box.inner_index(time["number"], time["phase"] == "day")] = 1.0
    t[at["day_colour"] + _index(COLOURS, observation["day_colour"], "colour")] = 1.0
    if observation["element_card"] is not None:
        t[at["element_card"] + _CARD[observation["element_card"]]] = 1.0
    _cards(t, at["turned"], observation["turned"])
    for name in ("first_player", "turn_seat"):
        who = observation[name]
        if who is not None and who >= 0:
            t[at[name] + who] = 1.0
    for k, space in enumerate(observation["druids"]):
        t[at["druids"] + NUMBERS * k + space - 1] = 1.0
    for k, contact in enumerate(observation["in_contact"]):
        t[at["in_contact"] + k] = 1.0 if contact else 0.0
    _cards(t, at["hand"], observation["hand"])
    for k, size in enumerate(observation["hand_sizes"]):
        t[at["hand_sizes"] + k] = size / HAND_LIMIT
    t[at["draw_pile"]] = observation["draw_pile"] / CARDS
    _cards(t, at["discard_pile"], observation["discard_pile"])
    for i, owner in enumerate(observation["bluestones"]):
        t[at["bluestones"] + n * i + owner] = 1.0
    for i, owner in enumerate(observation["spirits"]):
        if owner is not None:
            t[at["spirits"] + n * i + owner] = 1.0
    for i, trilithon in enumerate(observation["trilithons"]):
        t[at["trilithon_sections"] + 4 * i + trilithon["sections"]] = 1.0
        if trilithon["owner"] is not None:
            t[at["trilithon_owners"] + n * i + trilithon["owner"]] = 1.0
    for owner in observation["altar"]:
        t[at["altar"] + owner] += 1.0 / n
    for k in range(n):
        t[at["disks_left"] + k] = observation["disks_left"][k] / STOCK
        t[at["bars_left"] + k] = observation["bars_left"][k] / STOCK
    _cards(t, at["table"], observation["table"])
    if observation["wild_number"]:
        t[at["wild_number"] + observation["wild_number"] - 1] = 1.0
    t[at["acted"]] = 1.0 if observation["acted"] else 0.0
    t[at["offers_made"]] = observation["offers_made"] / MAX_OFFERS
    offer = observation["offer"]
    if offer is not None:
        t[at["offer_from"] + offer["from"]] = 1.0
        t[at["offer_to"] + offer["to"]] = 1.0
        _cards(t, at["offer_give"], offer["give"])
        _cards(t, at["offer_ask"], offer["ask"])
    for k in observation["drains_pending"]:
        t[at["drains_pending"] + k] = 1.0
    t[at["discard_owed"]] = observation["discard_owed"] / HAND_LIMIT
    contest = observation["contest"]
    if contest is not None:
        t[at["contest"] + contest["number"] - 1] = 1.0
        if contest["element_seat"] is not None:
            t[at["contest_element_seat"] + contest["element_seat"]] = 1.0
        for k, size in enumerate(contest["bid_sizes"]):
            t[at["bid_sizes"] + k] = size / HAND_LIMIT
        _cards(t, at["bid"], contest["bid"])
    last = observation["last_contest"]
    if last is not None:
        t[at["last_contest"] + last["number"] - 1] = 1.0
        for k in range(n):
            _cards(t, at["last_contest_bids"] + CARDS * k, last["bids"][k])
            t[at["last_contest_values"] + k] = last["values"][k] / VALUE_SCALE
        if last["winner"] is not None:
            t[at["last_contest_winner"] + last["winner"]] = 1.0
        t[at["last_contest_placed"]] = 1.0 if last["placed"] else 0.0
    for name in ("shown_cards", "known_cards", "known_by"):
        rows = observation[name]
        for k, texts in enumerate(rows or ()):
            _cards(t, at[name] + CARDS * k, texts)
    for k, score in enumerate(observation["scores"]):
        t[at["scores"] + k] = score / VALUE_SCALE
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
    """Returns the observation tensor followed by every card's places as the seat knows them."""
    n = observation["players"]
    at, _, size = _starts(n)
    t = [0.0] * size
    _write(observation, t, at)
    card = _CARD.__getitem__
    in_play = {box.TRILITHON_CARD_BASE + _index(PLAYER_COLOURS, c, "colour") for c in observation["colours"]}
    # One place per card, the later lists winning: what the seat sees beats what it was told.
    known = [_UNSEEN if c < box.TRILITHON_CARD_BASE or c in in_play else _OUT for c in range(CARDS)]
    either: dict[int, list[int]] = {}
    for entry in observation.get("either_or") or ():
        either[card(entry["card"])] = list(entry["seats"])
    for k, texts in enumerate(observation["known_cards"]):
        for text in texts:
            known[card(text)] = _SEATS + k
    for text in observation["discard_pile"]:
        known[card(text)] = _DISCARD
    for text in observation["turned"]:
        known[card(text)] = _TURNED
    if observation["element_card"] is not None:
        known[card(observation["element_card"])] = _ELEMENT
    for text in observation["table"]:
        known[card(text)] = _TABLE
    seat = observation["seat"]
    contest = observation["contest"]
    own = list(observation["hand"] or ()) + list((contest["bid"] or ()) if contest is not None else ())
    for text in own:
        known[card(text)] = _SEATS + seat
    base = at["card_places"]
    width = _SEATS + n
    for c, place in enumerate(known):
        seats = either.get(c)
        if place == _UNSEEN and seats:
            for k in seats:
                t[base + width * c + _SEATS + k] = 1.0 / len(seats)
        else:
            t[base + width * c + place] = 1.0
    return t
