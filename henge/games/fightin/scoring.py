"""Fightin' an' Drinkin' an' Stealin'!: scoring, as steps (F11).

After the last round each seat drops its best colour, seat 0 first (a decision where colours tie
for best); each seat's score is then its points less the dropped colour's, in half awards.
"""

from __future__ import annotations

import cython

from henge.games.fightin.actions import DROP_COLOUR, FINISH, OVER, SCORE_OTHER
from henge.games.fightin.choices import _ask
from henge.games.fightin.position import _note, _points

if not cython.compiled:  # compiled, scoring.pxd cimports Position
    from henge.games.fightin.position import Position


@cython.locals(state=Position)
def _score(state: Position) -> None:
    _ask(state, DROP_COLOUR, 0, SCORE_OTHER)


@cython.locals(state=Position)
def _score_other(state: Position) -> None:
    _ask(state, DROP_COLOUR, 1, FINISH)


@cython.locals(state=Position)
def _finish(state: Position) -> None:
    scores = []
    for seat in (0, 1):
        points = _points(state, seat)
        scores.append(sum(points) - points[state.dropped[seat]])
    state.scores = tuple(scores)
    best = max(scores)
    state.winners = tuple(seat for seat in (0, 1) if scores[seat] == best)
    state.phase = OVER
    _note(state, f"final scores {scores[0] / 2:g} to {scores[1] / 2:g}")
