"""Stonerush: a rule-based player.

The player races its own secret colour, but a lone step forward for it is
discounted, since it tells the table which druid is whose; it pushes back
the druids its rivals seem to be racing (judged from who moved which druid
forward in the plays it can see); it never carries another druid to the
finish; and it keeps the cards it can use next turn (its own colour's day
cards, black cards, night cards of rivals' colours), throwing the rest away
to draw afresh.
"""

from __future__ import annotations

from typing import Any

import cython

from henge import box
from henge.core import Decision
from henge.games.stonerush.search import colour_odds, move, sign

if cython.compiled:  # the C library's exp, which math.exp calls: the same values
    from cython.cimports.libc.math import exp
else:
    from math import exp

GAMES = ("stonerush",)
"""The games whose rules this player was written for."""
OPTIONS: tuple[str, ...] = ("variant", "track")
"""The options it understands: the track's end (19 in the ``variant`` bluestones, the designer's ``track``) is
read from the observation. Not ``hand``: a discard keeps at most two cards (``_KEEP``), a rule of thumb
for the standard hand of four."""

_COLOURS = box.PLAYER_COLOURS
_COLOUR = cython.declare(tuple, box.CARD_COLOUR)
_IS_DAY = cython.declare(tuple, box.CARD_IS_DAY)
_BLACK = cython.declare(cython.int, box.BLACK)
_WIN = 100.0
_KEEP = 2
_LONE_STEP_DISCOUNT = 0.5
"""A one-space advance of the own druid, far from the finish, counts half: it gives the colour away."""
_NEAR_FINISH = 6
_USEFUL = 1.0
"""Cards less useful than this are discarded: a fresh draw is worth about as much."""
_CARD = cython.declare(dict, {text: card for card, text in enumerate(box.CARD_TEXT)})
_CARD_ACTIONS = cython.declare(
    dict, {verb: {f"{verb} {text}": card for card, text in enumerate(box.CARD_TEXT)} for verb in ("play", "discard")}
)
"""Per verb, the card of each legal ``verb X`` text."""


@cython.cfunc
@cython.locals(
    pos=list, weights=list, end=cython.int, t=cython.double, p=cython.double, w=cython.double, total=cython.double
)
def _race_odds(pos: list[float], end: int) -> list[float]:
    """Returns each druid's chance of arriving first: it grows e-fold every eighth of the track it leads by."""
    t = end / 8
    weights = []
    for p in pos:
        weights.append(exp(p / t))
    total = sum(weights)
    return [w / total for w in weights]


@cython.cfunc
@cython.locals(free=list, seat=cython.int, mine=cython.int, c=cython.int, total=cython.double)
def _rival_colours(obs: dict[str, Any], mine: int) -> list[float]:
    """Returns, per colour, an estimate of the chance that a rival races it (0 for the own colour)."""
    free = [1.0] * 5
    for seat, odds in enumerate(colour_odds(obs, mine)):
        total = sum(odds)
        if seat == obs["seat"] or not total:
            continue
        for c in range(5):
            free[c] *= 1.0 - odds[c] / total
    return [0.0 if c == mine else 1.0 - free[c] for c in range(5)]


@cython.cfunc
@cython.locals(pos=list, held=list, odds=list, mine=cython.int, end=cython.int, c=cython.int)
def _value(pos: list[int], mine: int, held: list[float], end: int) -> float:
    """Returns how good the druid positions are for us: our lead less the leads of rivals' druids."""
    odds = _race_odds([float(p) for p in pos], end)
    return odds[mine] - sum([held[c] * odds[c] for c in range(5) if c != mine])


@cython.cfunc
@cython.locals(
    pos=list, held=list, after=list, mine=cython.int, end=cython.int, colour=cython.int, card=cython.int, net=cython.int
)
def _score_play(
    cards: list[int], net: int, pos: list[int], now: float, mine: int, held: list[float], end: int
) -> float:
    """Returns the worth of laying ``cards`` as one play (ours, whole, moving their druid ``net`` spaces) from
    positions ``pos``, whose value is ``now``."""
    colour = _BLACK
    for card in cards:
        if _COLOUR[card] != _BLACK:
            colour = _COLOUR[card]
            break
    if colour == _BLACK or net == 0:
        return 0.0
    after = move(pos, colour, net, end)
    if after[colour] == end:
        return _WIN if colour == mine else -_WIN * (0.5 + held[colour])
    gain = _value(after, mine, held, end) - now
    if colour == mine and after[mine] - pos[mine] == 1 and after[mine] < end - _NEAR_FINISH:
        gain *= _LONE_STEP_DISCOUNT
    return gain


@cython.cfunc
@cython.returns(cython.double)
@cython.locals(held=list, card=cython.int, mine=cython.int, colour=cython.int, day=cython.bint)
def _usefulness(card: int, mine: int, held: list[float]) -> float:
    """Returns how much a card in hand is worth for the next turn."""
    colour = _COLOUR[card]
    day = _IS_DAY[card]
    if colour == _BLACK:
        return 2.0 if day else 1.2
    if colour == mine:
        return 3.0 if day else 0.0
    return 0.2 if day else 0.5 + 2.0 * held[colour]


@cython.cfunc
@cython.locals(cards=dict, by_text=dict)
def _texts_to_cards(decision: Decision, verb: str) -> tuple[dict[int, int], int | None]:
    """Returns {card: action} for the legal ``verb X`` actions, and the ``done`` action if legal."""
    cards = {}
    done = None
    by_text = _CARD_ACTIONS[verb]
    for action, text in zip(decision.legal_actions, decision.legal_texts, strict=True):
        if text == "done":
            done = action
        else:
            card = by_text.get(text)
            if card is not None:
                cards[card] = action
    return cards, done


def choose(decision: Decision) -> int:
    """Returns the rule-based player's action."""
    obs = decision.observation
    if obs["phase"] == "discard":
        return _choose_discard(decision, obs)
    return _choose_play(decision, obs)


@cython.cfunc
@cython.locals(
    obs=dict,
    playable=dict,
    signs=dict,
    pos=list,
    laid=list,
    options=list,
    option=list,
    same=list,
    black=list,
    best=list,
    mine=cython.int,
    end=cython.int,
    colour=cython.int,
    c=cython.int,
    x=cython.int,
    direction=cython.int,
    laid_net=cython.int,
    net=cython.int,
    blacks=cython.int,
    best_blacks=cython.int,
    score=cython.double,
    best_score=cython.double,
    now=cython.double,
)
def _choose_play(decision: Decision, obs: dict[str, Any]) -> int:
    mine = _COLOURS.index(obs["trilithon"])
    end = obs["track_end"]
    pos = [obs["druids"][c] for c in _COLOURS]
    held = _rival_colours(obs, mine)
    laid = [_CARD[t] for t in obs["in_play"]]
    playable, done = _texts_to_cards(decision, "play")
    signs = {x: sign(x) for x in playable}
    colour = _BLACK
    for x in laid:
        if _COLOUR[x] != _BLACK:
            colour = _COLOUR[x]
            break
    colours = [colour] if colour != _BLACK else sorted({_COLOUR[x] for x in playable} - {_BLACK})
    options: list[list[int]] = [[]] if done is not None else []
    for c in colours:
        for direction in (1, -1):
            same = sorted([x for x in playable if _COLOUR[x] == c and signs[x] == direction])
            black = sorted([x for x in playable if _COLOUR[x] == _BLACK and signs[x] == direction])
            if same:
                options.append(same)
            if black and (same or colour != _BLACK):
                options.append(same + black)
    options.extend([x] for x in sorted(playable))
    # The best option: the highest score, then the fewest black cards, then the fewest cards (the first of equals).
    now = _value(pos, mine, held, end)
    laid_net = 0
    for x in laid:
        laid_net += sign(x)
    best = options[0]
    best_score = best_blacks = 0
    for index, option in enumerate(options):
        net = laid_net
        blacks = 0
        for x in option:
            net += signs[x]
            if _COLOUR[x] == _BLACK:
                blacks += 1
        score = _score_play(laid + option, net, pos, now, mine, held, end)
        if (
            index == 0
            or score > best_score
            or (score == best_score and (blacks < best_blacks or (blacks == best_blacks and len(option) < len(best))))
        ):
            best, best_score, best_blacks = option, score, blacks
    if not best:
        assert done is not None
        return done
    return playable[min(best)]


@cython.cfunc
@cython.locals(
    obs=dict,
    held=list,
    cards=dict,
    mine=cython.int,
    card=cython.int,
    worst=cython.int,
    use=cython.double,
    least=cython.double,
)
def _choose_discard(decision: Decision, obs: dict[str, Any]) -> int:
    mine = _COLOURS.index(obs["trilithon"])
    held = _rival_colours(obs, mine)
    cards, done = _texts_to_cards(decision, "discard")
    if not cards:
        assert done is not None
        return done
    # The least useful card (the lowest of equals).
    worst = least = -1
    for card in cards:
        use = _usefulness(card, mine, held)
        if worst < 0 or use < least or (use == least and card < worst):
            worst, least = card, use
    if done is not None and len(cards) <= _KEEP and least >= _USEFUL:
        return done
    return cards[worst]
