"""The Stonerush evaluation: what a seat's plays have told the table about its colour."""

from __future__ import annotations

from typing import Any

import henge
from henge.core import State
from henge.games.stonerush import search

HANDS = [[f"{n + k}d" for k in (0, 6, 12, 18)] for n in (1, 2, 3, 4)]
"""Four cards each, one colour per seat, none of them the seat's own (so hands weigh alike)."""
TRILITHONS = ["red", "white", "blue", "green"]


def position(druids: list[int], plays: list[list[Any]]) -> State:
    """Returns seat 1's turn, four players, with ``druids`` (white..red) and the plays in view."""
    game = henge.load("stonerush", 4)
    data = game.new_initial_state().to_json()
    used = {card for hand in HANDS for card in hand}
    pushed = [[0] * 5 for _ in range(4)]  # G7: every druid's moves add up to its space
    for seat, _cards, colour, before, after in plays:
        pushed[seat][colour] += after - before
    for colour, space in enumerate(druids):
        pushed[3][colour] += space - 1 - sum(row[colour] for row in pushed)  # moves out of view: seat 3's
    data["state"].update(
        phase="play",
        player=1,
        start=0,
        turns=1,
        druids=druids,
        hands=HANDS,
        draw_pile=[card for card in data["state"]["draw_pile"] if card not in used],
        trilithons=TRILITHONS,
        last_plays=plays,
        pushed=pushed,
    )
    return game.state_from_json(data)


def evaluate(druids: list[int], plays: list[list[Any]]) -> list[float]:
    return search.evaluate(position(druids, plays))


def test_a_druid_its_holder_was_seen_pushing_counts_for_less():
    # Red (seat 0's) went from 1 to 5: by seat 0 itself, or by seat 2 (blue) as a feint.
    told = evaluate([1, 1, 1, 1, 5], [[0, ["5d", "11d", "17d", "23d"], 4, 1, 5]])
    feint = evaluate([1, 1, 1, 1, 5], [[2, ["5d", "11d", "17d", "23d"], 4, 1, 5]])
    unseen = evaluate([1, 1, 1, 1, 5], [])
    assert told[0] < unseen[0]
    assert feint[2] > unseen[2]  # pushing a druid not its own hides the feinting seat's colour


def test_giving_the_colour_away_matters_less_near_the_end():
    cost = []
    for space in (5, 12):
        told = evaluate([1, 1, 1, 1, space], [[0, ["5d", "11d", "17d", "23d"], 4, space - 4, space]])
        feint = evaluate([1, 1, 1, 1, space], [[2, ["5d", "11d", "17d", "23d"], 4, space - 4, space]])
        cost.append(feint[0] - told[0])
    assert 0 < cost[1] < cost[0]
