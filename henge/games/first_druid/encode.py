"""First Druid as fixed-size tensors: the game's own slices of the encoder contract
(:mod:`henge.core.encoding`); ``docs/games/first_druid.md``, section "Tensor encoding", tables
them.

The information state adds, for every card, its share of each place, including the cards the
seat knows in another seat's holding (``known_cards``) or in one of several (``either_or``,
when the observation has it).

This module reads only the observation (keys listed in the docs), never the rules modules.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import cython

from henge import box
from henge.core.encoding import CARD_ID, Buffer, Encoder, Layout, write_cards

PHASES: tuple[str, ...] = ("element", "turn", "answer", "drain", "draw", "discard", "bid", "over")
STAGES: tuple[str, ...] = ("setup", "turns", "refresh", "contest")
COLOURS: tuple[str, ...] = box.COLOURS
PLAYER_COLOURS: tuple[str, ...] = box.PLAYER_COLOURS
CARDS = box.DECK_SIZE
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


class FirstDruidEncoder(Encoder):
    """The First Druid slices: the board, the time, the offers and contests, the cards and their places."""

    game = "first_druid"
    phases = PHASES

    def observation_layout(self, players: int, options: Mapping[str, Any]) -> Layout:
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

    def knowledge_layout(self, players: int, options: Mapping[str, Any]) -> Layout:
        return (("card_places", (CARDS, len(places(players)))),)

    @cython.locals(t=cython.double[:])
    def write(self, observation: Mapping[str, Any], t: Buffer, at: Mapping[str, int]) -> None:
        index = self.index
        n = observation["players"]
        for k, colour in enumerate(observation["colours"]):
            t[at["colours"] + len(PLAYER_COLOURS) * k + index(PLAYER_COLOURS, colour, "colour")] = 1.0
        t[at["stage"] + index(STAGES, observation["stage"], "stage")] = 1.0
        time = observation["time"]
        t[at["time"] + box.inner_index(time["number"], time["phase"] == "day")] = 1.0
        t[at["day_colour"] + index(COLOURS, observation["day_colour"], "colour")] = 1.0
        if observation["element_card"] is not None:
            t[at["element_card"] + CARD_ID[observation["element_card"]]] = 1.0
        write_cards(t, at["turned"], observation["turned"])
        for name in ("first_player", "turn_seat"):
            who = observation[name]
            if who is not None and who >= 0:
                t[at[name] + who] = 1.0
        for k, space in enumerate(observation["druids"]):
            t[at["druids"] + NUMBERS * k + space - 1] = 1.0
        for k, contact in enumerate(observation["in_contact"]):
            t[at["in_contact"] + k] = 1.0 if contact else 0.0
        write_cards(t, at["hand"], observation["hand"])
        for k, size in enumerate(observation["hand_sizes"]):
            t[at["hand_sizes"] + k] = size / HAND_LIMIT
        t[at["draw_pile"]] = observation["draw_pile"] / CARDS
        write_cards(t, at["discard_pile"], observation["discard_pile"])
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
        write_cards(t, at["table"], observation["table"])
        if observation["wild_number"]:
            t[at["wild_number"] + observation["wild_number"] - 1] = 1.0
        t[at["acted"]] = 1.0 if observation["acted"] else 0.0
        t[at["offers_made"]] = observation["offers_made"] / MAX_OFFERS
        offer = observation["offer"]
        if offer is not None:
            t[at["offer_from"] + offer["from"]] = 1.0
            t[at["offer_to"] + offer["to"]] = 1.0
            write_cards(t, at["offer_give"], offer["give"])
            write_cards(t, at["offer_ask"], offer["ask"])
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
            write_cards(t, at["bid"], contest["bid"])
        last = observation["last_contest"]
        if last is not None:
            t[at["last_contest"] + last["number"] - 1] = 1.0
            for k in range(n):
                write_cards(t, at["last_contest_bids"] + CARDS * k, last["bids"][k])
                t[at["last_contest_values"] + k] = last["values"][k] / VALUE_SCALE
            if last["winner"] is not None:
                t[at["last_contest_winner"] + last["winner"]] = 1.0
            t[at["last_contest_placed"]] = 1.0 if last["placed"] else 0.0
        for name in ("shown_cards", "known_cards", "known_by"):
            rows = observation[name]
            for k, texts in enumerate(rows or ()):
                write_cards(t, at[name] + CARDS * k, texts)
        for k, score in enumerate(observation["scores"]):
            t[at["scores"] + k] = score / VALUE_SCALE

    @cython.locals(t=cython.double[:])
    def write_knowledge(self, observation: Mapping[str, Any], t: Buffer, at: Mapping[str, int]) -> None:
        n = observation["players"]
        card = CARD_ID.__getitem__
        in_play = {box.TRILITHON_CARD_BASE + self.index(PLAYER_COLOURS, c, "colour") for c in observation["colours"]}
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


ENCODER = FirstDruidEncoder()
observation_layout = ENCODER.observation_layout
information_state_layout = ENCODER.information_state_layout
observation_shape = OBSERVATION_SHAPE = ENCODER.observation_shape
information_state_shape = INFORMATION_STATE_SHAPE = ENCODER.information_state_shape
observation_tensor = ENCODER.observation_tensor
information_state_tensor = ENCODER.information_state_tensor
observation_array = ENCODER.observation_array
information_state_array = ENCODER.information_state_array
