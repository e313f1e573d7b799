"""Druid Olympics as fixed-size tensors: the game's own slices of the encoder contract
(:mod:`henge.core.encoding`); ``docs/games/druid_olympics.md``, section "Tensor encoding",
tables them.

The information state adds, for every card, its share of each place: 1 where the seat sees it;
for an unseen card, each hand's and the draw pile's share of its ``unseen`` group.

This module reads only the observation (keys listed in the docs) and the course, a public
fact of the board (:mod:`henge.games.druid_olympics.board`), never the rules modules.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import cython

from henge import box
from henge.core.encoding import CARD_ID, Buffer, Encoder, Layout
from henge.games.druid_olympics import board

PHASES: tuple[str, ...] = ("deal", "choose first", "block", "block cards", "move", "pay", "enter", "draw", "over")
COLOURS: tuple[str, ...] = box.COLOURS
TRILITHONS: tuple[str, ...] = box.PLAYER_COLOURS
CARDS = box.DECK_SIZE
SPACES = board.SPACES
PROGRESS = board.ALTAR + 1
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


class DruidOlympicsEncoder(Encoder):
    """The Druid Olympics slices: the race, the blocks, the cards and their places."""

    game = "druid_olympics"
    phases = PHASES

    def observation_layout(self, players: int, options: Mapping[str, Any]) -> Layout:
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

    def knowledge_layout(self, players: int, options: Mapping[str, Any]) -> Layout:
        return (("card_places", (CARDS, len(places(players)))),)

    @cython.locals(t=cython.double[:])
    def write(self, observation: Mapping[str, Any], t: Buffer, at: Mapping[str, int]) -> None:
        card = CARD_ID.__getitem__
        space = board.parse_space
        if observation["first_player"] >= 0:
            t[at["first_player"] + observation["first_player"]] = 1.0
        t[at["turn"]] = min(observation["turn"], observation["round_cap"]) / observation["round_cap"]
        for runner in observation["runners"]:
            k = runner["seat"]
            t[at["progress"] + k * PROGRESS + runner["progress"]] = 1.0
            entered = runner["entered_at"]
            if entered is not None:
                t[at["entered_at"] + 2 * k + (0 if entered == f"bluestone {board.ENDS[0]}" else 1)] = 1.0
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
                colour = self.index(TRILITHONS, piece.removeprefix("trilithon "), "trilithon")
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
            target = board.parse_target(observation["target"])
            t[at["target_piece"] + (target.piece if target.piece < board.TRILITHON else 2 + target.colour)] = 1.0
            for s in target.spaces:
                t[at["target_spaces"] + s] = 1.0
        paying = observation["paying"]
        if paying is not None:
            t[at["paying_colour"] + self.index(COLOURS, paying["colour"], "colour")] = 1.0
            t[at["paying"]] = paying["need"] / HAND
            t[at["paying"] + 1] = paying["paid"] / HAND

    @cython.locals(t=cython.double[:])
    def write_knowledge(self, observation: Mapping[str, Any], t: Buffer, at: Mapping[str, int]) -> None:
        card = CARD_ID.__getitem__
        base = at["card_places"]
        width = _HANDS + observation["players"]
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


ENCODER = DruidOlympicsEncoder()
observation_layout = ENCODER.observation_layout
information_state_layout = ENCODER.information_state_layout
observation_shape = OBSERVATION_SHAPE = ENCODER.observation_shape
information_state_shape = INFORMATION_STATE_SHAPE = ENCODER.information_state_shape
observation_tensor = ENCODER.observation_tensor
information_state_tensor = ENCODER.information_state_tensor
observation_array = ENCODER.observation_array
information_state_array = ENCODER.information_state_array
