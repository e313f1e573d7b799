"""Stonehenge Spell Casting Game as fixed-size tensors: the game's own slices of the encoder
contract (:mod:`henge.core.encoding`); ``docs/games/spell_casting.md``, section "Tensor
encoding", tables them.

Nothing is hidden in this game, so the information state adds only the place of every card
(turned at set-up, still to be turned, or not in the game), which the seat knows by
elimination.

This module reads only the observation (keys listed in the docs), never the rules modules; the
cell numbering (outer, coloured and middle rings 1..30, then the 60 inner stones) and the cup
names are public facts of the board (:mod:`henge.games.spell_casting.board`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import cython

from henge import box
from henge.core.encoding import CARD_ID, Buffer, Encoder, Layout
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


class SpellCastingEncoder(Encoder):
    """The Spell Casting slices: the rings, figures and cups, the turn's action, and the cards."""

    game = "spell_casting"
    phases = PHASES

    def observation_layout(self, players: int, options: Mapping[str, Any]) -> Layout:
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

    def knowledge_layout(self, players: int, options: Mapping[str, Any]) -> Layout:
        return (("card_places", (CARDS, len(PLACES))),)

    @cython.locals(t=cython.double[:])
    def write(self, observation: Mapping[str, Any], t: Buffer, at: Mapping[str, int]) -> None:
        index = self.index
        n = observation["players"]
        t[at["turn_player"] + observation["turn_player"]] = 1.0
        t[at["round"]] = min(observation["round"], observation["round_cap"]) / observation["round_cap"]
        t[at["short"]] = 1.0 if observation["variant"] == "short" else 0.0
        for text in observation["setup_cards"]:
            t[at["setup_cards"] + CARD_ID[text]] = 1.0
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
                f = index(FIGURES, figure, "figure")
                t[at["figures"] + box.INNER_STONES * f + self.lookup(_STONE_BY_TEXT, stone, "inner stone")] = 1.0
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
        t[at["action"] + (0 if action is None else 1 + index(ACTIONS, action, "action"))] = 1.0
        cup_name = observation["action_cup"]
        t[at["action_cup"] + (0 if cup_name is None else 1 + index(CUPS, cup_name, "cup"))] = 1.0
        for name in observation.get("action_sources") or ():
            t[at["action_sources"] + index(CUPS, name, "cup")] = 1.0
        for disk in observation["hand"]:
            mine = disk.startswith("mine ")
            c = index(CUPS, disk.removeprefix("mine "), "cup")
            t[at["hand"] + len(CUPS) * mine + c] += 1.0 / HAND_SCALE
        for s, uses in enumerate(observation["uses_left"]):
            t[at["uses_left"] + s] = uses / HAND_SCALE
        chain = observation["chain"]
        if chain is not None:
            t[at["chain_component"] + chain["component"]] = 1.0
            t[at["chain_from"] + self.lookup(_CELL_BY_TEXT, chain["from"], "cell")] = 1.0
            for text in chain["moved"]:
                t[at["chain_moved"] + self.lookup(_CELL_BY_TEXT, text, "cell")] = 1.0

    @cython.locals(t=cython.double[:])
    def write_knowledge(self, observation: Mapping[str, Any], t: Buffer, at: Mapping[str, int]) -> None:
        turned = {CARD_ID[text] for text in observation["setup_cards"]}
        base = at["card_places"]
        width = len(PLACES)
        for c in range(CARDS):
            place = 2 if c >= NUMBER_CARDS else 0 if c in turned else 1
            t[base + width * c + place] = 1.0


ENCODER = SpellCastingEncoder()
observation_layout = ENCODER.observation_layout
information_state_layout = ENCODER.information_state_layout
observation_shape = OBSERVATION_SHAPE = ENCODER.observation_shape
information_state_shape = INFORMATION_STATE_SHAPE = ENCODER.information_state_shape
observation_tensor = ENCODER.observation_tensor
information_state_tensor = ENCODER.information_state_tensor
observation_array = ENCODER.observation_array
information_state_array = ENCODER.information_state_array
