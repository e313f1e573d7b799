"""Fightin' an' Drinkin' an' Stealin'!: what each seat sees at the table (G3)."""

from __future__ import annotations

from typing import Any

from henge import box
from henge.games.fightin.actions import (
    CHOOSE,
    COLOURS,
    EVENTS,
    KIND_NAMES,
    LOG_LINES,
    NO_EVENT,
    OVER,
    PHASE_NAMES,
    STEAL,
)
from henge.games.fightin.position import Position

_TEXT = box.CARD_TEXT
HIDDEN = "hidden"
"""Stands for a face-down card the viewer may not see."""


def _colours(counts: list[int]) -> dict[str, int]:
    return dict(zip(COLOURS, counts, strict=True))


def _loot(state: Position) -> dict[str, dict[str, int]]:
    loot = state.loot
    thieves = state.board[STEAL * 2] + state.board[STEAL * 2 + 1]
    return {_TEXT[c]: _colours(loot[c * 5 : c * 5 + 5]) for c in thieves if any(loot[c * 5 : c * 5 + 5])}


def observation(state: Position, player: int | None) -> dict[str, Any]:
    """Returns what seat ``player`` (None: a spectator) can see at the table (G3)."""
    if player is not None and player not in (0, 1):
        raise ValueError(f"seats run 0..1, not {player}")
    over = state.phase == OVER
    choosing = state.phase == CHOOSE
    board = {}
    for event, name in enumerate(EVENTS):
        face_down: list[str | None] = []
        for seat in (0, 1):
            card = state.down[event * 2 + seat]
            face_down.append(None if card < 0 else _TEXT[card] if seat == player else HIDDEN)
        board[name] = {
            "cards": [[_TEXT[c] for c in state.board[event * 2 + seat]] for seat in (0, 1)],
            "face_down": face_down,
        }
    return {
        "game": "fightin",
        "seat": player,
        "players": 2,
        "phase": PHASE_NAMES[state.phase],
        "current_player": state.current_player(),
        "round": state.round,
        "round_cap": state.rounds,
        "event": EVENTS[state.event] if state.event < NO_EVENT else None,
        "decision": KIND_NAMES[state.kind] if choosing else None,
        "events": board,
        "monsters": [_TEXT[c] for c in state.monsters],
        "monster_deck": len(state.monster_deck),
        "monster_discards": [_TEXT[c] for c in state.monster_discards],
        "altar": state.altar,
        "big_lawyer": {"space": state.lawyer, "colour": box.colour_of(state.lawyer)},
        "loot": _loot(state),
        "awards": [_colours(state.awards[seat * 5 : seat * 5 + 5]) for seat in (0, 1)],
        "stock": _colours(state.stock),
        "wee_lawyers": {colour: (None if s < 0 else s) for colour, s in zip(COLOURS, state.wee, strict=True)},
        "gonagal": None if state.gonagal < 0 else state.gonagal,
        "lead": None if state.lead < 0 else state.lead,
        "highest_thief": None if state.high < 0 else _TEXT[state.high],
        "second_thief": None if state.second < 0 else _TEXT[state.second],
        "hand": None if player is None else [_TEXT[c] for c in sorted(state.hands[player])],
        "hand_sizes": [len(h) for h in state.hands],
        "deck_sizes": [len(d) for d in state.decks],
        "discards": [[_TEXT[c] for c in pile] for pile in state.discards],
        "log": log_lines(state),
        "dropped": [None if c < 0 else COLOURS[c] for c in state.dropped] if over else None,
        "scores": [s / 2 for s in state.scores] if over else None,
        "winners": list(state.winners) if over else None,
    }


def log_lines(state: Position) -> list[str]:
    """Returns the last LOG_LINES lines of the game log, oldest first."""
    lines: list[str] = []
    node = state.log
    while node is not None and len(lines) < LOG_LINES:
        node, line = node
        lines.append(line if isinstance(line, str) else f"seat {line[0]} {line[1]}")
    lines.reverse()
    return lines
