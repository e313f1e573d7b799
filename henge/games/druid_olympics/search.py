"""Druid Olympics: what a search knows of the game, a position evaluation and its settings.

The evaluation measures each runner in the turns it still needs to reach the
altar (coloured spaces, ring steps and horseshoe points at an average pace, the
next move from its actual hand) and turns those into chances of winning; the
rule-based player (:mod:`henge.games.druid_olympics.bot`) weighs its moves and
blocks with the same measure. It knows the course as a player does, from
:mod:`henge.games.druid_olympics.board`, a public fact of the board, and reads
states through ``State.to_json``.
"""

from __future__ import annotations

import math

from henge import box
from henge.core import State
from henge.games.druid_olympics import board
from henge.games.druid_olympics.board import ALTAR, EMPTY, HORSESHOE, NUMBERED, SPACES, TRILITHON

GAMES = ("druid_olympics",)
"""The games whose rules this evaluation was written for."""
OPTIONS: tuple[str, ...] = ("horseshoe_sum",)
"""The options the evaluation understands: the horseshoe's card sum is read from the game's settings."""

SEARCH = {"iterations": 100, "rollout_depth": 6, "guided_rollout": True}
"""ismcts here: a turn's worth of a move is seen only after the rivals' replies, so each
iteration lets every seat play six decisions as the rule-based player would before the evaluation;
100 iterations keep a decision near 0.2 processor seconds."""

_TRI_CARD = box.TRILITHON_CARD_BASE
_NUMBER = box.CARD_NUMBER
_CARD = {text: card for card, text in enumerate(box.CARD_TEXT)}

# --- how many moves a runner still needs ---------------------------------------------------

_CLEAR_BLUESTONES = [EMPTY] * (SPACES - HORSESHOE)
_COLOURED_PER_MOVE = 4.5
"""Coloured spaces a move gains on average with the best of three cards."""
_STEPS_PER_MOVE = 21.0
"""Ring steps a move gains on average with the best of three cards."""
POINTS_PER_MOVE = 4.3
"""Horseshoe points a hand of three cards (about 46 in all) brings on average, at D4's 10 a point
(a designer's other ``horseshoe_sum`` scales it)."""
MEAN_CARD = 15.5


def moves_left(progress: int, points_ahead: float, hand: list[int] | None, point_sum: int = board.POINT_SUM) -> float:
    """Returns the moves a runner at ``progress`` still needs, ``points_ahead`` the horseshoe points left.

    The hand, if known, refines the next move: its best card on the rings,
    its sum in the horseshoe (missing cards count as average draws). ``point_sum`` is the card
    sum of a movement point (D4).
    """
    per_move = POINTS_PER_MOVE * board.POINT_SUM / point_sum
    if progress >= ALTAR:
        return 0.0
    numbers = [_NUMBER[c] for c in hand if c < _TRI_CARD] if hand is not None else []
    if progress >= HORSESHOE:
        if hand is None:
            return max(points_ahead, 1.0) / per_move
        total = sum(numbers) + MEAN_CARD * (3 - len(hand))
        now = total // point_sum
        if now >= points_ahead:
            return 1.0 - 0.1 * min(now - points_ahead, 3) / 3
        return 1.0 + (points_ahead - now) / per_move
    moves = 0.0
    ring = max(progress, NUMBERED - 1)
    if progress < NUMBERED - 1:
        moves += (NUMBERED - 1 - progress) / _COLOURED_PER_MOVE
    steps = HORSESHOE - ring
    if progress >= NUMBERED - 1 and numbers:
        best = min(max(numbers), steps)
        moves += 1.0 + (steps - best) / _STEPS_PER_MOVE
    else:
        moves += steps / _STEPS_PER_MOVE
    return moves + 0.3 + points_ahead / per_move


def path_ahead(cover: list[int], seat: int, end: int) -> int:
    """Returns the horseshoe points still ahead of a runner not yet in it, from the first stone of ``end`` on."""
    return board.horseshoe_cost(cover, seat, end, HORSESHOE)


def points_ahead(cover: list[int], seat: int, progress: int, end: int | None) -> float:
    if cover[HORSESHOE:] == _CLEAR_BLUESTONES:
        return float(ALTAR - max(progress, HORSESHOE))
    if progress >= HORSESHOE and end:
        return float(board.horseshoe_cost(cover, seat, end, progress))
    return float(min(path_ahead(cover, seat, e) for e in board.ENDS))


_TEMPERATURE = 0.9
"""Turns of lead that make a runner e times likelier to win."""


def odds(times: list[float]) -> list[float]:
    low = min(times)
    weights = [math.exp(-(t - low) / _TEMPERATURE) for t in times]
    total = sum(weights)
    return [w / total for w in weights]


# --- the evaluation ------------------------------------------------------------------------------


def evaluate(state: State) -> list[float]:
    """Returns each seat's chance of winning, from the turns each runner still needs.

    A runner's turns are the moves it still needs (coloured spaces, ring steps
    and horseshoe points at an average pace, the next move from its actual
    hand, the horseshoe along its cheaper end with the blocks on it), plus the
    turns it owes, plus one if it has already moved this turn (or is skipping
    or drained). The chances are a softmax of the turns: a turn of lead makes
    a runner about three times likelier to win.
    """
    if state.is_terminal():
        return list(state.returns())
    data = state.to_json()["state"]
    point_sum = state.game.settings["horseshoe_sum"]  # public: the table's rules (D4's 10 or a designer's)
    n = len(data["runners"])
    cover = [EMPTY] * SPACES
    for seat, where in enumerate(data["bars"]):
        if where is not None:
            cover[board.parse_space(where)] = seat
    for seat, where in enumerate(data["disks"]):
        if where is not None:
            cover[board.parse_space(where)] = seat
    for colour, place in enumerate(data["trilithons"]):
        if place is not None:
            for space in board.parse_target(place).spaces:
                cover[space] = TRILITHON + colour
    phase = data["phase"]
    first = max(data["first"], 0)
    current = data["player"]
    times = []
    for seat in range(n):
        end = data["ends"][seat]
        progress = board.parse_runner(data["runners"][seat], end or 0)
        hand = [_CARD[t] for t in data["hands"][seat]]
        if seat == current and phase in ("move", "pay", "enter"):
            hand = hand + [_CARD[t] for t in data["table"]]
        moves = moves_left(progress, points_ahead(cover, seat, progress, end), hand, point_sum)
        order = (seat - first) % n
        moved = phase in ("move", "pay", "enter") and order < (current - first) % n
        moved = moved or phase == "draw" or data["skipping"][seat] or data["drained"][seat]
        times.append(moves + data["lost_turns"][seat] + (1.0 if moved else 0.0) + 0.05 * order)
    return odds(times)


def settled(state: State) -> bool:
    """Returns True at the start of a turn: the blocking round's first decision.

    There every runner has had as many moves as every other, so the turns
    :func:`evaluate` counts compare alike; read in the middle of a moving
    round they favour whoever has not moved yet (a search's rollouts are played
    on to here before they are scored). Seats that lose the turn do not block,
    so the first decision is the first seat's from the first player on that
    does not.
    """
    data = state.to_json()["state"]
    if data["phase"] != "block":
        return False
    skipping = data["skipping"]
    seat, player = data["first"], data["player"]
    while seat != player:
        if not skipping[seat]:
            return False
        seat = (seat + 1) % len(skipping)
    return True


OPENSPIEL_SECONDS = {3: 0.115, 4: 0.145, 5: 0.171}
"""Processor seconds per decision with a choice of ``ismcts`` at its default settings, by player count:
the budget that gives OpenSpiel's ISMCTS equal time (``openspiel-ismcts``). Made by
``python -m henge.bench_openspiel --bots ismcts --decisions 200 --games 4 --players N``, over about 200
decisions each; measure again when the search or its settings here change."""
