"""Fightin' an' Drinkin' an' Stealin'!: a rule-based player.

It judges a change as :mod:`henge.games.fightin.search` reckons it: by what it
does to the score the rules count (the total less the best colour), in half
awards.

The player places its three cards by trying every way to share its hand
among the events and keeping the one whose events are worth most, each
event judged against every card the opponent may bring (the cards of theirs
it has not seen, equally likely):

* **Fightin'**: fight only with a pair that can beat the monsters (the one
  on the board and any of those left in the Monster deck); a pair that
  cannot had better lose the contest, so that the opponent's pair gets
  clobbered and it earns white.
* **Drinkin'**: hold the biggest drinker when the four drinkers come to
  50-60, and not when they pass 60 (the other player's green).
* **Stealin'**: be highest thief (steal) or second (a yellow), but mind the
  Big Lawyer: a thief at or above his space after he moves can be caught,
  losing its loot and taking a Wee Lawyer.
* **The Gonagal** goes where it wins most (a fight earns red and white, a
  drink the altar and green), kept back while it is worth little.

The other choices: keep the higher fighter and drinker (they win the next
contests), throw out the opponent's best card (their thief with the most
loot), steal the richest loot or the award that moves the score most,
scarper with the richest thief, name the Wee Lawyer that hurts the
opponent most, kill a trilithon card for its bonus.
"""

from __future__ import annotations

import math
from itertools import permutations
from typing import Any

from henge import box
from henge.core import Decision
from henge.games.fightin.search import EVENTS, GONAGAL_KEPT, Reckoning, card_colour, card_number

GAMES = ("fightin",)
"""The games whose rules this player was written for."""
OPTIONS: tuple[str, ...] = ("rounds",)
"""The options it understands: the last round (``rounds``) is read from the observation's ``round_cap``."""

_COLOURS = box.PLAYER_COLOURS
_NOUNS = ("fighter", "drinker", "thief")
_KEEP = 0.02
"""Per number of a card kept in hand: high cards win later contests."""


def _by_verb(decision: Decision) -> dict[str, dict[str, int]]:
    """Returns {verb: {rest of the text: action}} of the legal actions."""
    out: dict[str, dict[str, int]] = {}
    for action, text in zip(decision.legal_actions, decision.legal_texts, strict=True):
        if text.startswith("steal from "):
            out.setdefault("steal from", {})[text[11:]] = action
        elif " " in text:
            verb, rest = text.split(" ", 1)
            out.setdefault(verb, {})[rest] = action
        else:
            out.setdefault(text, {})[""] = action
    return out


_READ = (
    "seat",
    "round",
    "decision",
    "event",
    "events",
    "hand",
    "discards",
    "awards",
    "stock",
    "altar",
    "wee_lawyers",
    "big_lawyer",
    "loot",
    "monsters",
    "monster_discards",
    "highest_thief",
    "second_thief",
    "scores",
)
"""What of the observation ``choose`` reads: its answer depends on these alone."""
_ANSWERS: dict[str, int] = {}
"""Placements already chosen, by everything they depend on: a search asks the same question again and again."""
_ANSWERS_KEPT = 4096


def choose(decision: Decision) -> int:
    """Returns the rule-based player's action (a placement is remembered: the same question gets the same answer)."""
    obs = decision.observation
    if obs["decision"] != "place":  # the other choices cost less than remembering them
        return _choose(decision)
    key = repr(([obs.get(k) for k in _READ], decision.legal_actions, decision.legal_texts))
    action = _ANSWERS.get(key)
    if action is None:
        if len(_ANSWERS) >= _ANSWERS_KEPT:
            _ANSWERS.clear()
        action = _ANSWERS[key] = _choose(decision)
    return action


def _choose(decision: Decision) -> int:
    obs = decision.observation
    table = Reckoning(obs)
    actions = _by_verb(decision)
    kind = obs["decision"]
    if kind == "place":
        return _place(table, obs, actions)
    if kind in ("discard own", "discard highest", "discard other"):
        return _discard(table, obs, actions, kind)
    if kind == "kill":
        return _kill(table, actions["kill"])
    if kind == "discard monster":
        cards = actions["discard"]
        return cards[min(cards)]
    if kind == "steal":
        return _steal(table, actions)
    if kind == "take yellow":
        return _take_yellow(table, actions)
    if kind == "scarper":
        return _scarper(table, actions["scarper"])
    if kind == "name colour":
        names = actions["name"]
        return names[max(names, key=lambda c: (-table.wee_worth(1 - table.me, _COLOURS.index(c)), c))]
    return decision.legal_actions[0]


def _place(table: Reckoning, obs: dict[str, Any], actions: dict[str, dict[str, int]]) -> int:
    """Shares the hand among the events still open and places this event's card of the best share."""
    me, other = table.me, 1 - table.me
    event = EVENTS.index(obs["event"])
    hand = list(actions[_NOUNS[event]])
    open_events = [e for e in range(event, 3) if table.down[e][me] is None]
    pool: list[str | None] = list(table.unseen(other)) or [None]
    worth: dict[tuple[int, str], float] = {}
    for e in open_events:
        for card in hand:
            worth[e, card] = sum(table.event_worth(e, card, o) for o in pool) / len(pool)
    best, best_value = None, -math.inf
    size = min(len(open_events), len(hand))
    for share in permutations(sorted(hand), size):
        value = sum(worth[e, c] for e, c in zip(open_events, share, strict=False))
        for kept in set(hand) - set(share):
            value += _keep_value(table, kept)
        if value > best_value + 1e-9:
            best, best_value = share, value
    assert best is not None
    return actions[_NOUNS[event]][best[0]]


def _keep_value(table: Reckoning, card: str) -> float:
    if table.working_gonagal(card) and table.round < table.rounds:
        return GONAGAL_KEPT
    return _KEEP * table.value(card)


def _discard(table: Reckoning, obs: dict[str, Any], actions: dict[str, dict[str, int]], kind: str) -> int:
    cards = actions["discard"]
    if kind == "discard other":  # the opponent's best: the richest thief, else the highest card
        return cards[max(cards, key=lambda c: (sum(table.loot.get(c, [0])), table.value(c), c))]
    # Keep the richest and highest card: throw out the poorest, lowest.
    return cards[min(cards, key=lambda c: (sum(table.loot.get(c, [0])), table.value(c), c))]


def _kill(table: Reckoning, kills: dict[str, int]) -> int:
    def rank(card: str) -> tuple[float, int, str]:
        if card.startswith("T-"):
            gains = [[0] * 5, [0] * 5]
            gains[table.me][card_colour(card)] += table.mult
            return (1.0 + table.outcome(gains), 0, card)
        return (0.0, card_number(card), card)

    return kills[max(kills, key=rank)]


def _caught_after(table: Reckoning, extra: int, mine: str | None) -> bool:
    """True if my thief ``mine`` would be the one caught after ``extra`` more awards ride on thieves."""
    if mine is None:
        return False
    moves = sum(sum(v) for v in table.loot.values()) + extra
    lawyer = (table.lawyer - 1 - moves) % 30 + 1
    thieves = [c for s in (0, 1) for c in table.cards[2][s]]
    over = [(table.value(c), c) for c in thieves if table.value(c) >= lawyer]
    if not over:
        return False
    low = min(v for v, _ in over)
    return any(c == mine for v, c in over if v == low)


def _steal(table: Reckoning, actions: dict[str, dict[str, int]]) -> int:
    obs = table.obs
    done = actions.get("done", {}).get("")
    high = obs["highest_thief"]
    if "steal from" in actions:
        sources = actions["steal from"]
        return sources[max(sources, key=lambda c: (table.loot_worth(table.me, table.loot.get(c, [0] * 5)), c))]
    colours = [c for c in actions.get("steal", {}) if c in _COLOURS]
    if colours:
        left = table.awards[1 - table.me][:]
        colour = table.best_steal(table.me, left)
        worth = 0.0
        if colour is not None:
            gains = [[0] * 5, [0] * 5]
            gains[table.me][colour] += 1
            gains[1 - table.me][colour] -= 1
            worth = table.outcome(gains)
        risky = _caught_after(table, 1, high) and not _caught_after(table, 0, high)
        if colour is not None and _COLOURS[colour] in colours and worth > 0 and not risky:
            return actions["steal"][_COLOURS[colour]]
        if done is None:
            return actions["steal"][colours[0]]
    assert done is not None
    return done


def _take_yellow(table: Reckoning, actions: dict[str, dict[str, int]]) -> int:
    second = table.obs["second_thief"]
    done = actions["done"][""]
    take = actions.get("take", {}).get("yellow")
    if take is None:
        return done
    if _caught_after(table, 1, second) and not _caught_after(table, 0, second):
        return done
    return take


def _scarper(table: Reckoning, runners: dict[str, int]) -> int:
    def rank(card: str) -> tuple[float, int, str]:
        return (table.loot_worth(table.me, table.loot.get(card, [0] * 5)), -table.value(card), card)

    return runners[max(runners, key=rank)]
