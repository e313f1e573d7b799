"""Crafted Druid Olympics positions for the game's tests.

The builder writes a state's fields as JSON and loads them (an empty history loads the fields as given),
so a test names only what matters to it and gets the rest of a legal position.
"""

from __future__ import annotations

from typing import Any

import henge
from henge import box
from henge.games.druid_olympics.rules import DruidOlympicsState


def druid_olympics_position(
    players: int = 3,
    *,
    phase: str = "block",
    player: int = 0,
    first: int = 0,
    turn: int = 1,
    runners: list[str] | None = None,
    ends: list[int | None] | None = None,
    hands: list[list[str]] | None = None,
    bars: list[str | None] | None = None,
    disks: list[str | None] | None = None,
    trilithons: dict[str, str] | None = None,
    lost: list[int] | None = None,
    skipping: list[bool] | None = None,
    draw: list[str] | None = None,
) -> DruidOlympicsState:
    """Returns a crafted position; cards not in a hand go to the draw pile (or, with ``draw``, the discard)."""
    game = henge.load("druid_olympics", players)
    hands = hands if hands is not None else [[] for _ in range(players)]
    held = {c for hand in hands for c in hand}
    rest = [t for t in box.CARD_TEXT if t not in held]
    if draw is None:
        draw_pile, discard = rest, []
    else:
        draw_pile, discard = draw, [t for t in rest if t not in draw]
    tri: list[str | None] = [None] * 5
    for colour, place in (trilithons or {}).items():
        tri[box.PLAYER_COLOURS.index(colour)] = f"trilithon {colour} on {place}"
    fields: dict[str, Any] = {
        "phase": phase,
        "player": player,
        "first": first,
        "turn": turn,
        "runners": runners or ["coloured 1"] * players,
        "ends": ends or [None] * players,
        "lost_turns": lost or [0] * players,
        "skipping": skipping or [False] * players,
        "drained": [False] * players,
        "bars": bars or [None] * players,
        "disks": disks or [None] * players,
        "trilithons": tri,
        "hands": hands,
        "draw_pile": draw_pile,
        "discard_pile": discard,
        "table": [],
        "target": None,
        "log": [],
        "winners": [],
        "reason": "",
    }
    data = game.new_initial_state().to_json()
    data["state"] = fields
    state = game.state_from_json(data)
    assert isinstance(state, DruidOlympicsState)
    return state
