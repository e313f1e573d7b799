"""Crafted Stonehenge Spell Casting positions for the game's tests and the previews' tests.

The builder writes a state's fields as JSON and loads them (an empty history loads the fields as given),
so a test names only what matters to it and gets the rest of a legal position.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import henge
from henge import box
from henge.games.spell_casting import board as sb
from henge.games.spell_casting import rules as sc

SPELL_CASTING_PARK = [f"outer {m}" for m in range(21, 30)] + [f"coloured {m}" for m in range(21, 30)]
SPELL_CASTING_PARK += [f"middle {m}" for m in range(21, 30)] + [f"outer {m}" for m in range(11, 20)]
"""Where the components not named in a position wait unless a test gives its own ``park``."""


def spell_casting_position(
    players: int = 4,
    *,
    variant: str = "standard",
    board: dict[str, int] | None = None,
    figures: dict[str, str] | None = None,
    energy: Sequence[int] | None = None,
    private: dict[tuple[int, str], int] | None = None,
    held: list[int] | None = None,
    player: int = 0,
    turns: int = 0,
    park: list[str] | None = None,
) -> sc.SpellCastingState:
    """Returns a position at the start of ``player``'s action (phase 'take').

    ``board`` maps cells (``coloured 13``, ``inner 13 day``) to seats; every other
    component waits on the ``park`` cells. Figures not named stand on 30 day.
    ``private`` maps (seat, cup) to disks; without it each seat's private disks,
    one per component on the inner ring, lie in its cup in1.
    """
    game = henge.load("spell_casting", players, variant=variant)
    rings: dict[str, list[int | None]] = {"outer": [None] * 30, "coloured": [None] * 30, "middle": [None] * 30}
    rings["inner"] = [None] * 60
    counts = [0] * players
    for text, seat in (board or {}).items():
        name, rest = text.split(" ", 1)
        index = box.inner_index(int(rest.split()[0]), rest.endswith("day")) if name == "inner" else int(rest) - 1
        rings[name][index] = seat
        counts[seat] += 1
    free = [c for c in (park or SPELL_CASTING_PARK) if c not in (board or {})]
    for seat in range(players):
        for _ in range(7 - counts[seat]):
            name, number = free.pop(0).split()
            rings[name][int(number) - 1] = seat
    stones = ["30 day"] * 6
    for colour, stone in (figures or {}).items():
        stones[sb.FIGURE_NAMES.index(colour)] = stone
    in_play = [*range(players + 1), 5]
    inner = [rings["inner"].count(s) for s in range(players)]
    cups = [[0] * 6 for _ in range(players)]
    if private is None:
        for seat in range(players):
            cups[seat][sb.CUP_NAMES.index("in1")] = inner[seat]
    for (seat, cup), count in (private or {}).items():
        cups[seat][sb.CUP_NAMES.index(cup)] = count
    placed = [sum(row) for row in cups]
    held = held or [0] * players
    turned = 8 * players + 2
    fields: dict[str, Any] = {
        "phase": "return held disks" if held[player] else "take",
        "player": player,
        "private_seat": -1,
        "turns": turns,
        "setup_cards": [box.CARD_TEXT[c] for c in range(turned)],
        "draw_pile": [box.CARD_TEXT[c] for c in range(turned, 60)],
        "rings": rings,
        "figures": [stones[f] if f in in_play else None for f in range(6)],
        "energy": list(energy) if energy is not None else [2, 2, 2, 1, 1, 1],
        "private": cups,
        "private_placed": placed,
        "held": held,
        "action": None,
        "action_cup": None,
        "hand": [],
        "uses": [0, 0, 0],
        "chain": None,
        "recent": [],
        "winners": [],
        "reason": "",
    }
    assert placed == inner, "a crafted position needs one private disk per inner component"
    data = game.new_initial_state().to_json()
    data["state"] = fields
    state = game.state_from_json(json.loads(json.dumps(data)))
    assert isinstance(state, sc.SpellCastingState)
    return state
