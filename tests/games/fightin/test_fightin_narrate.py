"""Fightin' an' Drinkin' an' Stealin'!'s log lines, made from successive observations of one seat."""

from __future__ import annotations

import random

from positions import random_move

import henge
from henge.server.narrate import narrator


def test_the_log_tells_each_seat_its_own_cards_and_never_the_others_hidden_ones():
    game = henge.load("fightin")
    narrate = narrator("fightin")
    rng = random.Random(3)
    state = game.new_initial_state()
    seats = (0, 1, None)
    before = {seat: state.observation(seat) for seat in seats}
    logs: dict[int | None, list[str]] = {seat: [] for seat in seats}
    while not state.is_terminal():
        random_move(state, rng)
        for seat in seats:
            after = state.observation(seat)
            lines = narrate(before[seat], after)
            if seat is not None:  # nothing the seat has not seen: the other's hand and face-down cards
                other = state.observation(1 - seat)
                secret = set(other["hand"]) | {
                    c for e in other["events"].values() for c in [e["face_down"][1 - seat]] if c is not None
                }
                shown = {c for e in after["events"].values() for side in e["cards"] for c in side}
                shown |= set(after["discards"][1 - seat])
                for card in secret - shown:
                    assert all(f" {card}" not in line for line in lines), (card, lines)
            logs[seat] += lines
            before[seat] = after
    assert "— round 1 —" in logs[0] and "— round 7 —" in logs[1]
    assert any(line.startswith("you place ") and "as your fighter" in line for line in logs[0])
    assert "seat 0 places a fighter face down" in logs[1]
    assert any(line.startswith("you draw ") for line in logs[1])
    assert logs[None][-1] in ("seat 0 wins", "seat 1 wins", "the game is drawn")
    assert not any(line.startswith("you") for line in logs[None])
