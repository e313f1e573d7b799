"""Fightin' an' Drinkin' an' Stealin'! as fixed-size tensors: the game's own slices of the
encoder contract (:mod:`henge.core.encoding`); ``docs/games/fightin.md``, section "Tensor
encoding", tables them. The game has two seats, so every layout is that of two players.

The information state adds, for every card, its share of each place: the seat knows its own
deck by elimination; a card of the other seat's it sees nowhere is shared out over that seat's
hand, face-down cards and deck by their sizes.

This module reads only the observation (keys listed in the docs), never the rules modules;
the card split (F1) is a public fact written again here from the box.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import cython

from henge import box
from henge.core.encoding import CARD_ID, Buffer, Encoder, Layout

PHASES: tuple[str, ...] = ("deal", "draw", "flip", "choose", "over")
EVENTS: tuple[str, ...] = ("fightin", "drinkin", "stealin")
DECISIONS: tuple[str, ...] = (
    "place",
    "discard highest",
    "discard own",
    "discard other",
    "kill",
    "discard monster",
    "steal",
    "take yellow",
    "scarper",
    "name colour",
    "drop colour",
)
COLOURS: tuple[str, ...] = box.PLAYER_COLOURS
CARDS = box.DECK_SIZE
ROUNDS = 7
HAND = 5
DECK = 24
STOCK = box.DISKS_PER_COLOUR
SCORE_SCALE = 50
MONSTERS: frozenset[int] = frozenset(
    c for c in range(CARDS) if box.is_trilithon_card(c) or box.CARD_NUMBER[c] in (6, 12, 18, 24, 30, 25)
)
"""F1: the Monster deck (the ten black cards, both white 25s, the five trilithon cards)."""
OWNER: tuple[int, ...] = tuple(-1 if c in MONSTERS else 0 if box.CARD_IS_DAY[c] else 1 for c in range(CARDS))
"""The seat whose deck holds each card (seat 0 the day cards, seat 1 the night cards); -1: a monster."""
PLACES: tuple[str, ...] = (
    "hand of seat 0",
    "hand of seat 1",
    "face down by seat 0",
    "face down by seat 1",
    "deck of seat 0",
    "deck of seat 1",
    "face up at an event",
    "discarded",
    "monster on the board",
    "monster discarded",
    "monster deck",
)
"""The places of a card in the information state (a share per place, per card)."""
_HAND, _DOWN, _DECK = 0, 2, 4
_FACE_UP, _DISCARDED, _MONSTER, _MONSTER_DISCARDED, _MONSTER_DECK = range(6, 11)


def places(players: int) -> tuple[str, ...]:
    """Returns the places of a card in the information state (two seats)."""
    return PLACES


def _who(seat: int | None) -> int:
    """Nobody is 0; seat k is k + 1."""
    return 0 if seat is None else seat + 1


class FightinEncoder(Encoder):
    """The Fightin' slices: the three events, the loot and lawyers, the cards and their places."""

    game = "fightin"
    phases = PHASES

    def observation_layout(self, players: int, options: Mapping[str, Any]) -> Layout:
        return (
            ("seat", (2,)),
            ("current_player", (4,)),
            ("phase", (len(PHASES),)),
            ("round", (ROUNDS + 1,)),
            ("event", (len(EVENTS) + 1,)),
            ("decision", (len(DECISIONS) + 1,)),
            ("face_up", (3, 2, CARDS)),
            ("face_down", (3, 2)),
            ("own_face_down", (3, CARDS)),
            ("monsters", (CARDS,)),
            ("monster_deck", (1,)),
            ("monster_discards", (CARDS,)),
            ("altar", (1,)),
            ("big_lawyer", (30,)),
            ("loot", (box.NUMBER_CARD_COUNT, 5)),
            ("awards", (2, 5)),
            ("stock", (5,)),
            ("wee_lawyers", (5, 3)),
            ("gonagal", (3,)),
            ("lead", (3,)),
            ("highest_thief", (CARDS,)),
            ("second_thief", (CARDS,)),
            ("hand", (CARDS,)),
            ("hand_sizes", (2,)),
            ("deck_sizes", (2,)),
            ("discards", (2, CARDS)),
            ("dropped", (2, 6)),
            ("scores", (2,)),
            ("winners", (2,)),
        )

    def knowledge_layout(self, players: int, options: Mapping[str, Any]) -> Layout:
        return (("card_places", (CARDS, len(PLACES))),)

    @cython.locals(t=cython.double[:])
    def write(self, observation: Mapping[str, Any], t: Buffer, at: Mapping[str, int]) -> None:
        card = CARD_ID.__getitem__
        index = self.index
        seat = observation["seat"]
        t[at["round"] + observation["round"]] = 1.0
        event = observation["event"]
        t[at["event"] + (len(EVENTS) if event is None else index(EVENTS, event, "event"))] = 1.0
        decision = observation["decision"]
        t[at["decision"] + (len(DECISIONS) if decision is None else index(DECISIONS, decision, "decision"))] = 1.0
        events = observation["events"]
        for e, name in enumerate(EVENTS):
            board = events[name]
            for s in (0, 1):
                base = at["face_up"] + (2 * e + s) * CARDS
                for text in board["cards"][s]:
                    t[base + card(text)] = 1.0
                down = board["face_down"][s]
                if down is not None:
                    t[at["face_down"] + 2 * e + s] = 1.0
                    if s == seat:
                        t[at["own_face_down"] + e * CARDS + card(down)] = 1.0
        for text in observation["monsters"]:
            t[at["monsters"] + card(text)] = 1.0
        t[at["monster_deck"]] = observation["monster_deck"] / len(MONSTERS)
        for text in observation["monster_discards"]:
            t[at["monster_discards"] + card(text)] = 1.0
        t[at["altar"]] = observation["altar"] / STOCK
        t[at["big_lawyer"] + observation["big_lawyer"]["space"] - 1] = 1.0
        for text, counts in observation["loot"].items():
            base = at["loot"] + 5 * card(text)
            for colour, count in counts.items():
                t[base + index(COLOURS, colour, "colour")] = count / STOCK
        for s, awards in enumerate(observation["awards"]):
            for colour, count in awards.items():
                t[at["awards"] + 5 * s + index(COLOURS, colour, "colour")] = count / STOCK
        for colour, count in observation["stock"].items():
            t[at["stock"] + index(COLOURS, colour, "colour")] = count / STOCK
        for colour, holder in observation["wee_lawyers"].items():
            t[at["wee_lawyers"] + 3 * index(COLOURS, colour, "colour") + _who(holder)] = 1.0
        t[at["gonagal"] + _who(observation["gonagal"])] = 1.0
        t[at["lead"] + _who(observation["lead"])] = 1.0
        if observation["highest_thief"] is not None:
            t[at["highest_thief"] + card(observation["highest_thief"])] = 1.0
        if observation["second_thief"] is not None:
            t[at["second_thief"] + card(observation["second_thief"])] = 1.0
        for text in observation["hand"] or ():
            t[at["hand"] + card(text)] = 1.0
        for s in (0, 1):
            t[at["hand_sizes"] + s] = observation["hand_sizes"][s] / HAND
            t[at["deck_sizes"] + s] = observation["deck_sizes"][s] / DECK
            for text in observation["discards"][s]:
                t[at["discards"] + s * CARDS + card(text)] = 1.0
        if observation["dropped"] is not None:
            for s, colour in enumerate(observation["dropped"]):
                t[at["dropped"] + 6 * s + (5 if colour is None else index(COLOURS, colour, "colour"))] = 1.0
        if observation["scores"] is not None:
            for s, score in enumerate(observation["scores"]):
                t[at["scores"] + s] = score / SCORE_SCALE

    @cython.locals(t=cython.double[:])
    def write_knowledge(self, observation: Mapping[str, Any], t: Buffer, at: Mapping[str, int]) -> None:
        card = CARD_ID.__getitem__
        seat = observation["seat"]
        known = [-1] * CARDS  # the one place of each card the seat sees (or knows by elimination)
        for texts in observation["discards"]:
            for text in texts:
                known[card(text)] = _DISCARDED
        for text in observation["monster_discards"]:
            known[card(text)] = _MONSTER_DISCARDED
        for text in observation["monsters"]:
            known[card(text)] = _MONSTER
        downs = [0, 0]
        for name in EVENTS:
            board = observation["events"][name]
            for s in (0, 1):
                for text in board["cards"][s]:
                    known[card(text)] = _FACE_UP
                down = board["face_down"][s]
                if down is not None:
                    downs[s] += 1
                    if s == seat:
                        known[card(down)] = _DOWN + s
        for text in observation["hand"] or ():
            known[card(text)] = _HAND + seat
        # What no list shows is in its owner's deck (the seat's own cards, the Monster deck), or, for
        # the other seat's cards, in its hand, face down or in its deck: each by its share of them.
        shares: list[list[tuple[int, float]]] = [[], []]
        for s in (0, 1):
            if s == seat:
                shares[s] = [(_DECK + s, 1.0)]
                continue
            counts = [
                (_HAND + s, observation["hand_sizes"][s]),
                (_DOWN + s, downs[s]),
                (_DECK + s, observation["deck_sizes"][s]),
            ]
            total = sum(count for _, count in counts)
            shares[s] = [(place, count / total) for place, count in counts if count]
        base = at["card_places"]
        width = len(PLACES)
        for c, place in enumerate(known):
            row = base + width * c
            if place >= 0:
                t[row + place] = 1.0
            elif OWNER[c] < 0:
                t[row + _MONSTER_DECK] = 1.0
            else:
                for share_place, share in shares[OWNER[c]]:
                    t[row + share_place] = share


ENCODER = FightinEncoder()
observation_layout = ENCODER.observation_layout
information_state_layout = ENCODER.information_state_layout
observation_shape = OBSERVATION_SHAPE = ENCODER.observation_shape
information_state_shape = INFORMATION_STATE_SHAPE = ENCODER.information_state_shape
observation_tensor = ENCODER.observation_tensor
information_state_tensor = ENCODER.information_state_tensor
observation_array = ENCODER.observation_array
information_state_array = ENCODER.information_state_array
