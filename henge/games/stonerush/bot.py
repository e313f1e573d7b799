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

import math
from typing import Any

from henge import box
from henge.core import Decision
from henge.games.stonerush.search import colour_odds, move, sign

_COLOURS = box.PLAYER_COLOURS
_BLACK = box.BLACK
_WIN = 100.0
_KEEP = 2
_LONE_STEP_DISCOUNT = 0.5
"""A one-space advance of the own druid, far from the finish, counts half: it gives the colour away."""
_NEAR_FINISH = 6
_USEFUL = 1.0
"""Cards less useful than this are discarded: a fresh draw is worth about as much."""


def _race_odds(pos: list[float], end: int) -> list[float]:
    """Returns each druid's chance of arriving first: it grows e-fold every eighth of the track it leads by."""
    t = end / 8
    weights = [math.exp(p / t) for p in pos]
    total = sum(weights)
    return [w / total for w in weights]


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


def _value(pos: list[int], mine: int, held: list[float], end: int) -> float:
    """Returns how good the druid positions are for us: our lead less the leads of rivals' druids."""
    odds = _race_odds([float(p) for p in pos], end)
    return odds[mine] - sum(held[c] * odds[c] for c in range(5) if c != mine)


def _score_play(cards: list[int], pos: list[int], mine: int, held: list[float], end: int) -> float:
    """Returns the worth of laying ``cards`` as one play (ours, whole, from positions ``pos``)."""
    colour = next((box.CARD_COLOUR[c] for c in cards if box.CARD_COLOUR[c] != _BLACK), _BLACK)
    net = sum(sign(c) for c in cards)
    if colour == _BLACK or net == 0:
        return 0.0
    after = move(pos, colour, net, end)
    if after[colour] == end:
        return _WIN if colour == mine else -_WIN * (0.5 + held[colour])
    gain = _value(after, mine, held, end) - _value(pos, mine, held, end)
    if colour == mine and after[mine] - pos[mine] == 1 and after[mine] < end - _NEAR_FINISH:
        gain *= _LONE_STEP_DISCOUNT
    return gain


def _usefulness(card: int, mine: int, held: list[float]) -> float:
    """Returns how much a card in hand is worth for the next turn."""
    colour = box.CARD_COLOUR[card]
    day = box.CARD_IS_DAY[card]
    if colour == _BLACK:
        return 2.0 if day else 1.2
    if colour == mine:
        return 3.0 if day else 0.0
    return 0.2 if day else 0.5 + 2.0 * held[colour]


def _texts_to_cards(decision: Decision, verb: str) -> tuple[dict[int, int], int | None]:
    """Returns {card: action} for the legal ``verb X`` actions, and the ``done`` action if legal."""
    cards: dict[int, int] = {}
    done = None
    for action, text in zip(decision.legal_actions, decision.legal_texts, strict=True):
        if text == "done":
            done = action
        elif text.startswith(verb + " "):
            cards[box.parse_card(text[len(verb) + 1 :])] = action
    return cards, done


def choose(decision: Decision) -> int:
    """Returns the rule-based player's action."""
    obs = decision.observation
    if obs["phase"] == "discard":
        return _choose_discard(decision, obs)
    return _choose_play(decision, obs)


def _choose_play(decision: Decision, obs: dict[str, Any]) -> int:
    mine = _COLOURS.index(obs["trilithon"])
    end = obs["track_end"]
    pos = [obs["druids"][c] for c in _COLOURS]
    held = _rival_colours(obs, mine)
    laid = [box.parse_card(t) for t in obs["in_play"]]
    playable, done = _texts_to_cards(decision, "play")
    colour = next((box.CARD_COLOUR[c] for c in laid if box.CARD_COLOUR[c] != _BLACK), _BLACK)
    colours = [colour] if colour != _BLACK else sorted({box.CARD_COLOUR[c] for c in playable} - {_BLACK})
    options: list[list[int]] = [[]] if done is not None else []
    for c in colours:
        for direction in (1, -1):
            same = sorted(x for x in playable if box.CARD_COLOUR[x] == c and sign(x) == direction)
            black = sorted(x for x in playable if box.CARD_COLOUR[x] == _BLACK and sign(x) == direction)
            if same:
                options.append(same)
            if black and (same or colour != _BLACK):
                options.append(same + black)
    options.extend([x] for x in sorted(playable))

    def rank(option: list[int]) -> tuple[float, int, int]:
        blacks = sum(1 for x in option if box.CARD_COLOUR[x] == _BLACK)
        return (_score_play(laid + option, pos, mine, held, end), -blacks, -len(option))

    best = max(options, key=rank)
    if not best:
        assert done is not None
        return done
    return playable[min(best)]


def _choose_discard(decision: Decision, obs: dict[str, Any]) -> int:
    mine = _COLOURS.index(obs["trilithon"])
    held = _rival_colours(obs, mine)
    cards, done = _texts_to_cards(decision, "discard")
    if not cards:
        assert done is not None
        return done
    worst = min(cards, key=lambda c: (_usefulness(c, mine, held), c))
    if done is not None and len(cards) <= _KEEP and _usefulness(worst, mine, held) >= _USEFUL:
        return done
    return cards[worst]
