"""Stonerush: what a search knows of the game, a position evaluation and a belief.

The evaluation judges each seat's chance of winning from the druids, the hands
and the trilithon cards; the belief weighs a sampled state by how well its
rivals' trilithon cards fit the plays in view. The rule-based player
(:mod:`henge.games.stonerush.bot`) moves druids and reads the rivals' plays as
these do. The evaluation reads the state's public fields (those ``State.to_json`` names), the
belief reads states through ``State.to_json``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import cython

from henge import box
from henge.core import State

OPENSPIEL_SECONDS = {3: 0.041, 4: 0.053, 5: 0.078}
"""Processor seconds per decision with a choice of ``ismcts`` at its default settings, by player count:
the budget that gives OpenSpiel's ISMCTS equal time (``openspiel-ismcts``). Made by
``python -m henge.bench_openspiel --bots ismcts --decisions 200 --games 4 --players N``, over about 200
decisions each; measure again when the search or its settings here change."""

GAMES = ("stonerush",)
"""The games whose rules this evaluation was written for."""
OPTIONS: tuple[str, ...] = ("variant", "track", "hand")
"""The options the evaluation understands: it reads the track's end and the hand size from the state."""

_COLOURS = box.PLAYER_COLOURS
_CARD = {text: card for card, text in enumerate(box.CARD_TEXT)}
if cython.compiled:  # the C library's exp and sqrt, which math.exp and math.sqrt call: the same values
    from cython.cimports.libc.math import exp
else:
    from math import exp

_BLACK = cython.declare(cython.int, box.BLACK)
_CARD_COLOUR = cython.declare(tuple, box.CARD_COLOUR)
_CARD_IS_DAY = cython.declare(tuple, box.CARD_IS_DAY)
_BLUESTONES = 19


@cython.locals(pos=list, weights=list, end=cython.int, t=cython.double, p=cython.double)
def finish_odds(pos: list[float], end: int) -> list[float]:
    """Returns each druid's chance of arriving first, sharper as the leader nears the end.

    A lead counts e-fold per ``0.8 * sqrt(spaces left + 1)`` spaces (at least
    1.5): the fewer the turns left, the less a lead can still be undone.
    """
    t = max(1.5, 0.8 * math.sqrt(max(0.0, end - max(pos)) + 1))
    weights = []
    for p in pos:
        weights.append(exp(p / t))
    total = sum(weights)
    return [w / total for w in weights]


def sign(card: int) -> int:
    """Returns the way a card moves its druid: 1 forward (a day card), -1 back (a night card)."""
    return 1 if box.CARD_IS_DAY[card] else -1


def move(pos: list[int], druid: int, net: int, end: int) -> list[int]:
    """Returns the positions after moving ``druid`` by ``net`` with the limits and bumps of the rules."""
    after = pos[:]
    start = pos[druid]
    target = min(start + net, end) if net > 0 else max(start + net, 1)
    if net and target != start:
        step = 1 if net > 0 else -1
        others = [p for d, p in enumerate(pos) if d != druid]
        while 1 < target < end and target in others:
            target += step
        after[druid] = target
    return after


@cython.ccall
@cython.returns(cython.double)
@cython.locals(pushed=cython.double)
def pushed_odds(pushed: float) -> float:
    """Returns the relative odds that a seat races a druid it moved ``pushed`` spaces forward in view."""
    return exp(0.5 * max(-6.0, min(6.0, pushed)))


@cython.locals(
    obs=dict, push=list, odds=list, play=dict, players=cython.int, seat=cython.int, c=cython.int, mine=cython.int
)
def colour_odds(obs: dict[str, Any], mine: int) -> list[list[float]]:
    """Returns, per seat, the relative odds of each colour being its own (own seat and colour: 0).

    A rival is taken to race one of the four colours that are not ours, the
    odds growing e-fold for every two spaces it moved a druid forward in the
    plays we can see, and shrinking as fast for every two it pushed one back.
    """
    me = obs["seat"]
    players = obs["players"]
    push = [[0.0] * 5 for _ in range(players)]
    for play in obs["last_plays"]:
        druid = play["druid"]
        if druid is not None and play["seat"] != me:
            push[play["seat"]][_COLOURS.index(druid)] += play["to"] - play["from"]
    odds = []
    for seat in range(players):
        if seat == me:
            odds.append([0.0] * 5)
            continue
        row = push[seat]
        odds.append([0.0 if c == mine else pushed_odds(row[c]) for c in range(5)])
    return odds


_DRAW_WORTH = 0.25
"""Chance that a card drawn blind pushes the drawer's own druid forward (10 of the 42 cards)."""
_CARD_WORTH = 0.5
"""Spaces a card in hand that pushes the holder's own druid forward is worth now."""
_EXPOSURE = {3: 2.0, 4: 3.0, 5: 3.0}
"""Spaces a druid loses, by player count, when every rival is sure whose it is (rivals push back the
druids they can place). Measured: 3 spaces at 3 players left the search level with the rule-based
player, 2 put it clearly ahead (docs/agents.md)."""


@cython.locals(
    plays=list,
    own=list,
    push=list,
    exposed=list,
    weights=list,
    players=cython.int,
    seat=cython.int,
    rival=cython.int,
    colour=cython.int,
    whole=cython.double,
    total=cython.double,
)
def _exposure(plays: list[list[Any]], own: list[int]) -> list[float]:
    """Returns, per seat, how surely the rivals can tell its colour from the plays in view, less a blind guess.

    Each rival reads the plays as the rule-based player does
    (:func:`colour_odds`): a seat is taken to race one of the four colours
    that are not the rival's own, with odds :func:`pushed_odds`. The result is the rivals' mean
    chance on the seat's true colour, less 1/4.
    """
    players = len(own)
    push = [[0.0] * 5 for _ in range(players)]
    for seat, _cards, colour, before, after in plays:
        if colour != _BLACK:
            push[seat][colour] += after - before
    exposed = []
    for seat in range(players):
        weights = [pushed_odds(p) for p in push[seat]]
        whole = sum(weights)
        total = 0.0
        for rival in range(players):
            if rival != seat:
                total += weights[own[seat]] / (whole - weights[own[rival]])
        exposed.append(total / (players - 1) - 0.25)
    return exposed


@cython.locals(
    pos=list,
    own=list,
    laid=list,
    effective=list,
    odds=list,
    values=list,
    leaders=list,
    holders=list,
    hand=list,
    end=cython.int,
    hand_size=cython.int,
    colour=cython.int,
    seat=cython.int,
    c=cython.int,
    net=cython.int,
    forward=cython.int,
    furthest=cython.int,
    weight=cython.double,
    unheld=cython.double,
)
def evaluate(state: State) -> list[float]:
    """Returns each seat's chance of winning, judged from the druids, the hands and the trilithon cards.

    A druid's chance of arriving first grows with its lead, the more so the
    nearer the leader is to the end (:func:`finish_odds`). Its holder's cards that would push it forward (and the empty
    places in the holder's hand, each a fresh draw) count part of a space
    each; cards laid but not yet resolved count in full. A seat wins with its
    own druid; a druid nobody holds counts for the seats whose own druids
    stand furthest along.
    """
    # The state's public fields (those of ``to_json``, as card and colour numbers): the track's end and
    # the hand size follow from the table's rules (track and hand options included).
    end = state.end  # type: ignore[attr-defined]
    hand_size = state.hand_size  # type: ignore[attr-defined]
    pos = list(state.pos)  # type: ignore[attr-defined]
    own = list(state.trilithon)  # type: ignore[attr-defined]
    for c in own:
        if c < 0:
            raise ValueError("every trilithon card must be dealt")
    laid = list(state.played)  # type: ignore[attr-defined]
    if laid:
        colour = _BLACK
        for c in laid:
            if _CARD_COLOUR[c] != _BLACK:
                colour = _CARD_COLOUR[c]
                break
        if colour != _BLACK:
            net = 0
            for c in laid:
                net += sign(c)
            pos = move(pos, colour, net, end)
            if pos[colour] == end:
                holders = [seat for seat, c in enumerate(own) if c == colour]
                if holders:
                    return [1.0 / len(holders) if c == colour else 0.0 for c in own]
    effective = [float(p) for p in pos]
    for seat, hand in enumerate(state.hands):  # type: ignore[attr-defined]
        colour = own[seat]
        forward = 0
        for c in hand:
            if _CARD_IS_DAY[c] and (_CARD_COLOUR[c] == colour or _CARD_COLOUR[c] == _BLACK):
                forward += 1
        effective[colour] += _CARD_WORTH * (forward + _DRAW_WORTH * max(0, hand_size - len(hand)))
    weight = _EXPOSURE[len(own)]
    for seat, exposed in enumerate(_exposure(list(state.last_plays), own)):  # type: ignore[attr-defined]
        colour = own[seat]
        effective[colour] -= weight * exposed * (end - pos[colour]) / end
    odds = finish_odds(effective, end)
    values = [odds[c] for c in own]
    unheld = sum([odds[c] for c in range(5) if c not in own])
    furthest = max([pos[c] for c in own])
    leaders = [seat for seat, c in enumerate(own) if pos[c] == furthest]
    for seat in leaders:
        values[seat] += unheld / len(leaders)
    return values


def belief(obs: dict[str, Any]) -> Callable[[State], float] | None:
    """Returns the weight of a sampled state: how well its rivals' trilithon cards fit their plays."""
    if obs.get("trilithon") is None:
        return None
    me = obs["seat"]
    odds = colour_odds(obs, _COLOURS.index(obs["trilithon"]))
    scaled = [[o / max(row) for o in row] if seat != me else row for seat, row in enumerate(odds)]

    def weigh(state: State) -> float:
        weight = 1.0
        for seat, colour in enumerate(state.to_json()["state"]["trilithons"]):
            if seat != me:
                weight *= scaled[seat][_COLOURS.index(colour)]
        return weight

    return weigh
