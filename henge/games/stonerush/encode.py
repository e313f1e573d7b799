"""Stonerush as fixed-size tensors: the game's own slices of the encoder contract
(:mod:`henge.core.encoding`); ``docs/games/stonerush.md``, section "Tensor encoding", tables
them.

The information state adds, for every card, its share of each place (1 where the seat sees it;
for an unseen card, each place's share of its ``hidden_cards`` group), and every seat's possible
trilithon colours.

This module reads only the observation (keys listed in the docs), never the rules modules.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import cython

from henge import box
from henge.core.encoding import CARD_ID, Buffer, Encoder, Layout

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


_PLAY = cython.declare(cython.Py_ssize_t, 6 + CARDS)  # per last play: seat (n), cards (65), druid or none (6), from, to
_TRACK = cython.declare(cython.Py_ssize_t, TRACK)
_CARD_ID = cython.declare(dict, CARD_ID)
_DRUID_INDEX = cython.declare(dict, {colour: index for index, colour in enumerate(DRUIDS)})
"""Each druid's place in :data:`DRUIDS` (an unknown one is looked up by ``Encoder.index``, which names it)."""
_CARDS = cython.declare(cython.Py_ssize_t, CARDS)


@cython.cfunc
@cython.returns(cython.Py_ssize_t)
def _druid(encoder: Encoder, colour: Any, what: str) -> int:
    """Returns the druid's place in :data:`DRUIDS`; an unknown one raises ``encoder.index``'s error."""
    found = _DRUID_INDEX.get(colour)
    if found is None:
        found = encoder.index(DRUIDS, colour, what)
    return found


@cython.cfunc
@cython.returns(cython.Py_ssize_t)
def _card(text: str) -> int:
    """Returns the card id of ``text`` (a KeyError if there is none)."""
    return _CARD_ID[text]


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


class StonerushEncoder(Encoder):
    """The Stonerush slices: the track, the cards, the last plays, and the seats' possible trilithons."""

    game = "stonerush"
    phases = PHASES

    def observation_layout(self, players: int, options: Mapping[str, Any]) -> Layout:
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

    def knowledge_layout(self, players: int, options: Mapping[str, Any]) -> Layout:
        return (
            ("card_places", (CARDS, len(places(players)))),
            ("trilithon_possible", (players, 5)),
        )

    @cython.locals(
        t=cython.double[:],
        n=cython.Py_ssize_t,
        base=cython.Py_ssize_t,
        width=cython.Py_ssize_t,
        k=cython.Py_ssize_t,
        space=cython.Py_ssize_t,
    )
    def write(self, observation: Mapping[str, Any], t: Buffer, at: Mapping[str, int]) -> None:
        n = observation["players"]
        if observation["starting_player"] >= 0:
            t[at["starting_player"] + observation["starting_player"]] = 1.0
        t[at["round"]] = min(observation["round"], observation["round_cap"]) / observation["round_cap"]
        t[at["bluestones"]] = 1.0 if observation["variant"] == "bluestones" else 0.0
        base = at["druids"]
        for colour, space in observation["druids"].items():
            t[base + _druid(self, colour, "druid") * _TRACK + space - 1] = 1.0
        base = at["hand"]
        for text in observation["hand"] or ():
            t[base + _card(text)] = 1.0
        if observation["trilithon"] is not None:
            t[at["trilithon"] + self.index(DRUIDS, observation["trilithon"], "colour")] = 1.0
        base = at["hand_sizes"]
        for k, size in enumerate(observation["hand_sizes"]):
            t[base + k] = size / HAND
        t[at["draw_pile"]] = observation["draw_pile"] / len(DECK)
        base = at["discard_pile"]
        for text in observation["discard_pile"]:
            t[base + _card(text)] = 1.0
        base = at["in_play"]
        for text in observation["in_play"]:
            t[base + _card(text)] = 1.0
        width = n + _PLAY + 2
        base = at["last_plays"]
        plays = observation["last_plays"]
        for play in reversed(plays[-LAST_PLAYS:]):  # the newest first
            t[base + play["seat"]] = 1.0
            for text in play["cards"]:
                t[base + n + _card(text)] = 1.0
            druid = play["druid"]
            t[base + n + _CARDS + (5 if druid is None else _druid(self, druid, "druid"))] = 1.0
            t[base + n + _PLAY] = play["from"] / TRACK
            t[base + n + _PLAY + 1] = play["to"] / TRACK
            base += width
        base = at["pushed"]
        for k, pushed in enumerate(observation["pushed"]):
            for colour, spaces in pushed.items():
                t[base + 5 * k + _druid(self, colour, "druid")] = spaces / TRACK
        base = at["discarded"]
        for k, texts in enumerate(observation["discarded"]):
            for text in texts:
                t[base + _CARDS * k + _card(text)] += 1.0 / DISCARD_SCALE
        if observation["trilithons"] is not None:
            base = at["trilithons"]
            for k, colour in enumerate(observation["trilithons"]):
                t[base + 5 * k + self.index(DRUIDS, colour, "colour")] = 1.0

    @cython.locals(
        t=cython.double[:], base=cython.Py_ssize_t, width=cython.Py_ssize_t, c=cython.Py_ssize_t, row=cython.Py_ssize_t
    )
    def write_knowledge(self, observation: Mapping[str, Any], t: Buffer, at: Mapping[str, int]) -> None:
        n = observation["players"]
        seat = observation["seat"]
        base = at["card_places"]
        width = _HANDS + n
        for c in range(CARDS):
            if c not in DECK:
                t[base + width * c + _OUT] = 1.0
        for text in observation["discard_pile"]:
            t[base + width * _card(text) + _DISCARD] = 1.0
        for text in observation["in_play"]:
            t[base + width * _card(text) + _IN_PLAY] = 1.0
        for text in observation["hand"] or ():
            t[base + width * _card(text) + _HANDS + seat] = 1.0
        for group in _hidden_groups(observation):
            cards = group["cards"]
            if not cards:
                continue
            shares = [(_HANDS + k, count / len(cards)) for k, count in enumerate(group["hands"]) if count]
            if group["draw_pile"]:
                shares.append((_DRAW, group["draw_pile"] / len(cards)))
            for text in cards:
                row = base + width * _card(text)
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


ENCODER = StonerushEncoder()
observation_layout = ENCODER.observation_layout
information_state_layout = ENCODER.information_state_layout
observation_shape = OBSERVATION_SHAPE = ENCODER.observation_shape
information_state_shape = INFORMATION_STATE_SHAPE = ENCODER.information_state_shape
observation_tensor = ENCODER.observation_tensor
information_state_tensor = ENCODER.information_state_tensor
observation_array = ENCODER.observation_array
information_state_array = ENCODER.information_state_array
