"""Fightin' an' Drinkin' an' Stealin'!: a rule-based player and a position evaluation.

Everything is counted in half awards, the unit of the final score (a Wee
Lawyer halves its colour), and a change is judged by what it does to the
score the rules count: the total less the best colour. So a fourth red award
on top of three is worth nothing, and stealing the opponent's best colour
hurts them not at all.

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
from henge.core import Decision, State

WHITE, BLUE, GREEN, YELLOW, RED = range(5)
_COLOURS = box.PLAYER_COLOURS
_EVENTS = ("fightin", "drinkin", "stealin")
_NOUNS = ("fighter", "drinker", "thief")
_MONSTER_NUMBERS = (6, 12, 18, 24, 30, 25)
_PLAYER_NUMBERS = tuple(n for n in box.NUMBERS if n not in _MONSTER_NUMBERS)
_DECKS = (
    tuple(box.CARD_TEXT[c] for c in box.number_cards(night=False, numbers=_PLAYER_NUMBERS)),
    tuple(box.CARD_TEXT[c] for c in box.number_cards(day=False, numbers=_PLAYER_NUMBERS)),
)
_MONSTER_DECK = tuple(
    box.CARD_TEXT[c] for c in sorted(box.number_cards(numbers=_MONSTER_NUMBERS) + box.TRILITHON_CARDS)
)
_GONAGALS = ("1d", "1n")
_WEE_PENALTY = 1.0
"""Half awards a Wee Lawyer costs beyond the halving: its holder's cards of that colour count 0."""
_RIDING = 0.5
"""Share of its worth that loot still riding on a thief counts for."""
_GONAGAL_KEPT = 3.0
"""Half awards a Gonagal kept in hand is worth before the last round."""
_KEEP = 0.02
"""Per number of a card kept in hand: high cards win later contests."""


# -- reading cards --------------------------------------------------------------------------


_NUMBER = {text: box.CARD_NUMBER[card] for card, text in enumerate(box.CARD_TEXT)}
_COLOUR = {text: box.CARD_COLOUR[card] for card, text in enumerate(box.CARD_TEXT)}
_KILL_ODDS: dict[tuple[str | None, tuple[str, ...], int], tuple[float, list[tuple[float, int]]]] = {}


def _number(text: str) -> int:
    return _NUMBER[text]


def _colour(text: str) -> int:
    return _COLOUR[text]


def _owner(text: str) -> int:
    return 0 if text.endswith("d") else 1


class _Table:
    """The numbers of one position as a seat sees it (own cards, and the other's where known)."""

    def __init__(self, obs: dict[str, Any], other: dict[str, Any] | None = None) -> None:
        self.obs = obs
        self.me = obs["seat"] if obs["seat"] is not None else 0
        self.round = obs["round"]
        self.rounds = obs["round_cap"]  # the last round: 7, or the designer option rounds
        self.mult = 2 if self.round == self.rounds else 1
        self.wee = [obs["wee_lawyers"][c] for c in _COLOURS]
        self.awards = [[obs["awards"][s][c] for c in _COLOURS] for s in (0, 1)]
        self.stock = [obs["stock"][c] for c in _COLOURS]
        self.altar = obs["altar"]
        self.lawyer = obs["big_lawyer"]["space"]
        self.loot = {card: [counts[c] for c in _COLOURS] for card, counts in obs["loot"].items()}
        self.monsters = list(obs["monsters"])
        seen = set(obs["monsters"]) | set(obs["monster_discards"])
        self.monster_pool = [m for m in _MONSTER_DECK if m not in seen]
        self.cards = [[list(obs["events"][e]["cards"][s]) for s in (0, 1)] for e in _EVENTS]
        self.down: list[list[str | None]] = [[None, None] for _ in _EVENTS]
        for e, name in enumerate(_EVENTS):
            for s in (0, 1):
                card = obs["events"][name]["face_down"][s]
                if card is not None and card != "hidden":
                    self.down[e][s] = card
                if other is not None:
                    card = other["events"][name]["face_down"][s]
                    if card is not None and card != "hidden":
                        self.down[e][s] = card
        self.settled = min(1.0, (self.round + 1) / (self.rounds + 1)) if not obs.get("scores") else 1.0
        self.base = [self.score(s, self.awards[s], self.wee) for s in (0, 1)]
        self._changes: dict[tuple[int | None, ...], float] = {}
        """Score changes already worked out, by the awards gained (and the Wee Lawyers, where they move)."""

    # -- values and scores --

    def value(self, card: str) -> int:
        """F3: a card's worth: its number, or 0 under its owner's Wee Lawyer of its colour."""
        return 0 if self.wee[_COLOUR[card]] == (0 if card[-1] == "d" else 1) else _NUMBER[card]

    def working_gonagal(self, card: str | None) -> bool:
        return card in _GONAGALS and self.wee[WHITE] != _owner(card)

    def score(self, seat: int, awards: list[int], wee: list[int | None]) -> float:
        """The score in half awards: the total less the best colour.

        Before the last round it is not yet known which colour will be the
        best, so the colour dropped is taken as part the best one and part
        the average (the average's share falling as the rounds go by): an
        early award of the leading colour is then still worth something.
        """
        points = [n if wee[c] == seat else 2 * n for c, n in enumerate(awards)]
        total = sum(points)
        return total - self.settled * max(points) - (1.0 - self.settled) * total / 5

    def unseen(self, seat: int) -> list[str]:
        """The cards of ``seat``'s deck that the viewer has not seen: hand, deck and face-down cards."""
        obs = self.obs
        seen = set(obs["discards"][seat])
        for name in _EVENTS:
            seen.update(obs["events"][name]["cards"][seat])
        if seat == self.me and obs.get("hand") is not None:
            seen.update(obs["hand"])
            seen.update(d for d in (self.down[e][seat] for e in range(3)) if d)
        return [c for c in _DECKS[seat] if c not in seen]

    def outcome(self, gains: list[list[int]], wee: list[int | None] | None = None, riding: float = 0.0) -> float:
        """Returns the change of (my score - the other's) after the seats gain these awards."""
        me, other = self.me, 1 - self.me
        key = (*gains[0], *gains[1]) if wee is None else (*gains[0], *gains[1], *wee)
        change = self._changes.get(key)
        wee = wee if wee is not None else self.wee
        if change is None:
            after = []
            for s in (0, 1):
                awards = [max(0, a + g) for a, g in zip(self.awards[s], gains[s], strict=True)]
                after.append(self.score(s, awards, wee) - self.base[s])
            change = self._changes[key] = after[me] - after[other]
        value = change + riding
        for c in range(5):
            if wee[c] != self.wee[c]:  # a Wee Lawyer changes hands: its cards of that colour count 0
                value -= _WEE_PENALTY if wee[c] == me else -_WEE_PENALTY if wee[c] == other else 0
                value += _WEE_PENALTY if self.wee[c] == me else -_WEE_PENALTY if self.wee[c] == other else 0
        return value

    def loot_worth(self, seat: int, counts: list[int]) -> float:
        """What loot would add to ``seat``'s score if banked (as a difference: mine less the other's)."""
        gains = [[0] * 5, [0] * 5]
        gains[seat] = counts
        return self.outcome(gains)

    # -- the three events (values: my score change less the other's, in half awards) --

    def kill_odds(self, total: int) -> tuple[float, list[tuple[float, int]]]:
        """Chance that a fighting pair worth ``total`` kills, and the bonus colours with their chances."""
        first = self.monsters[0] if self.monsters else None
        key = (first, tuple(self.monster_pool), total)
        if key in _KILL_ODDS:
            return _KILL_ODDS[key]
        pool: list[str | None] = list(self.monster_pool) or [None]
        kills = 0
        bonus: dict[int, int] = {}
        for second in pool:
            pair = [m for m in (first, second) if m is not None]
            values = _monster_values(pair)
            if total >= sum(values):
                kills += 1
                low = pair[values.index(min(values))]
                if low.startswith("T-"):
                    bonus[_colour(low)] = bonus.get(_colour(low), 0) + 1
        odds = (kills / len(pool), [(n / len(pool), c) for c, n in bonus.items()])
        if len(_KILL_ODDS) > 100_000:
            _KILL_ODDS.clear()
        _KILL_ODDS[key] = odds
        return odds

    def fight(self, mine: list[str], theirs: list[str], new: tuple[str | None, str | None]) -> float:
        """Expected worth of the Fightin' event with these fighters (``new``: each seat's newcomer)."""
        me, other = self.me, 1 - self.me
        gonagals = [self.working_gonagal(new[s]) for s in (0, 1)]
        fighters = {me: mine, other: theirs}
        mult = self.mult
        if gonagals[0] != gonagals[1]:
            g = 0 if gonagals[0] else 1
            gains = [[0] * 5, [0] * 5]
            gains[g][RED] += mult
            gains[g][WHITE] += mult
            return self.outcome(gains)
        sums = {s: sum(1 if c in _GONAGALS and gonagals[s] else self.value(c) for c in fighters[s]) for s in (0, 1)}
        if sums[0] == sums[1]:
            return 0.0
        champion = 0 if sums[0] > sums[1] else 1
        kill, bonus = self.kill_odds(sums[champion])
        win = [[0] * 5, [0] * 5]
        win[champion][RED] += mult
        value = kill * self.outcome(win)
        for chance, colour in bonus:
            extra = [[0] * 5, [0] * 5]
            extra[champion][RED] += mult
            extra[champion][colour] += mult
            value += chance * (self.outcome(extra) - self.outcome(win))
        lose = [[0] * 5, [0] * 5]
        lose[1 - champion][WHITE] += mult
        return value + (1 - kill) * self.outcome(lose)

    def drink(self, mine: list[str], theirs: list[str], new: tuple[str | None, str | None], altar: int) -> float:
        """Expected worth of the Drinkin' event; ``altar``: the blue awards on it once served."""
        me, other = self.me, 1 - self.me
        gonagals = [self.working_gonagal(new[s]) for s in (0, 1)]
        mult = self.mult
        gains = [[0] * 5, [0] * 5]
        if gonagals[0] != gonagals[1]:
            g = 0 if gonagals[0] else 1
            gains[g][BLUE] += altar
            gains[g][GREEN] += mult
            return self.outcome(gains)
        drinkers = [(self.value(c), s) for s, cards in ((me, mine), (other, theirs)) for c in cards]
        if not drinkers:
            return 0.0
        top = max(v for v, _ in drinkers)
        holders = {s for v, s in drinkers if v == top}
        if len(holders) == 2:
            return 0.0
        lead = holders.pop()
        total = sum(v for v, _ in drinkers)
        if total < 50:
            return 0.0
        if total <= 60:
            gains[lead][BLUE] += altar
        else:
            gains[1 - lead][GREEN] += mult
        return self.outcome(gains)

    def steal(self, mine: list[str], theirs: list[str], new: tuple[str | None, str | None]) -> float:
        """Worth of the Stealin' event: steals, the Big Lawyer, a catch and the scarpering."""
        me, other = self.me, 1 - self.me
        thieves = {me: list(mine), other: list(theirs)}
        loot = {c: self.loot.get(c, [0] * 5)[:] for s in (0, 1) for c in thieves[s]}
        gains = [[0] * 5, [0] * 5]
        mult = self.mult
        gonagals = [self.working_gonagal(new[s]) for s in (0, 1)]
        if gonagals[0] != gonagals[1]:
            g = 0 if gonagals[0] else 1
            for c in thieves[1 - g]:
                for colour in range(5):
                    gains[g][colour] += loot[c][colour]
            gains[g][YELLOW] += min(mult, self.stock[YELLOW])
            return self.outcome(gains, riding=self._riding(thieves, loot, skip=thieves[1 - g] + [_GONAGALS[g]]))
        ranked = [(self.value(c), c) for s in (0, 1) for c in thieves[s]]
        places: list[str | None] = []
        for v in sorted({v for v, _ in ranked}, reverse=True)[:2]:
            holders = [c for w, c in ranked if w == v]
            places.append(holders[0] if len(holders) == 1 else None)
        high = places[0] if places else None
        second = places[1] if len(places) > 1 else None
        if high is not None:
            h = _owner(high)
            rich = [c for c in thieves[1 - h] if sum(loot[c])]
            if rich:
                source = max(rich, key=lambda c: (sum(loot[c]), c))
                loot[high] = [a + b for a, b in zip(loot[high], loot[source], strict=True)]
                loot[source] = [0] * 5
            else:
                left = self.awards[1 - h][:]
                for _ in range(mult):
                    stolen = self._best_steal(h, left)
                    if stolen is None:
                        break
                    left[stolen] -= 1
                    gains[1 - h][stolen] -= 1
                    loot[high][stolen] += 1
        if second is not None and self.stock[YELLOW]:
            loot[second][YELLOW] += min(mult, self.stock[YELLOW])
        moves = sum(sum(counts) for counts in loot.values())
        lawyer = (self.lawyer - 1 - moves) % 30 + 1
        over = [(self.value(c), sum(loot[c]), c) for s in (0, 1) for c in thieves[s] if self.value(c) >= lawyer]
        caught: set[str] = set()
        if over:
            low = min(v for v, _, _ in over)
            most = max(n for v, n, _ in over if v == low)
            caught = {c for v, n, c in over if v == low and n == most}
        seats_caught = {_owner(c) for c in caught}
        banked: set[str] = set(caught)
        for s in (0, 1):
            if s in seats_caught:
                continue
            free = [c for c in thieves[s] if c not in caught]
            if free:
                runner = max(free, key=lambda c: (sum(loot[c]), -self.value(c)))
                banked.add(runner)
                for colour in range(5):
                    gains[s][colour] += loot[runner][colour]
        wee = self.wee
        if len(seats_caught) == 1:
            taker = seats_caught.pop()
            colour = box.colour_index(lawyer)
            if colour == box.BLACK:  # F16: the opponent names one the taker does not hold, if any
                lacking = [c for c in range(5) if wee[c] != taker]
                colour = min(lacking, key=lambda c: self._wee_worth(taker, c)) if lacking else colour
            if colour != box.BLACK:
                wee = wee[:]
                wee[colour] = taker
        return self.outcome(gains, wee, riding=self._riding(thieves, loot, skip=list(banked)))

    def _riding(self, thieves: dict[int, list[str]], loot: dict[str, list[int]], skip: list[str]) -> float:
        value = 0.0
        for s in (0, 1):
            for c in thieves[s]:
                if c not in skip and any(loot[c]):
                    value += _RIDING * self.loot_worth(s, loot[c])
        return value

    def _best_steal(self, thief_owner: int, left: list[int]) -> int | None:
        """The colour to take from the opponent: the one that moves the score most."""
        best, best_value = None, -math.inf
        for colour in range(5):
            if left[colour] <= 0:
                continue
            gains = [[0] * 5, [0] * 5]
            gains[thief_owner][colour] += 1
            gains[1 - thief_owner][colour] -= 1
            value = self.outcome(gains) * (1 if thief_owner == self.me else -1)
            if value > best_value:
                best, best_value = colour, value
        return best

    def _wee_worth(self, seat: int, colour: int) -> float:
        """My score difference if ``seat`` took the Wee Lawyer of ``colour``."""
        wee = self.wee[:]
        wee[colour] = seat
        return self.outcome([[0] * 5, [0] * 5], wee) * (1 if seat == self.me else -1)

    # -- the events of the round as far as they are known --

    def event_worth(self, event: int, mine_new: str | None, theirs_new: str | None) -> float:
        me, other = self.me, 1 - self.me
        mine = self.cards[event][me] + ([mine_new] if mine_new else [])
        theirs = self.cards[event][other] + ([theirs_new] if theirs_new else [])
        new = (mine_new, theirs_new) if me == 0 else (theirs_new, mine_new)
        if event == 0:
            return self.fight(mine, theirs, new)
        if event == 1:
            return self.drink(mine, theirs, new, self.altar + min(self.mult, self.stock[BLUE]))
        return self.steal(mine, theirs, new)


def _monster_values(monsters: list[str]) -> list[int]:
    """F4: a trilithon card counts 0 and doubles the other monster card's number."""
    values = [0 if m.startswith("T-") else _number(m) for m in monsters]
    if len(monsters) == 2:
        first, second = (m.startswith("T-") for m in monsters)
        if first and not second:
            values[1] *= 2
        elif second and not first:
            values[0] *= 2
    return values


# -- the player -------------------------------------------------------------------------------


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
    table = _Table(obs)
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
        return names[max(names, key=lambda c: (-table._wee_worth(1 - table.me, _COLOURS.index(c)), c))]
    return decision.legal_actions[0]


def _place(table: _Table, obs: dict[str, Any], actions: dict[str, dict[str, int]]) -> int:
    """Shares the hand among the events still open and places this event's card of the best share."""
    me, other = table.me, 1 - table.me
    event = _EVENTS.index(obs["event"])
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


def _keep_value(table: _Table, card: str) -> float:
    if table.working_gonagal(card) and table.round < table.rounds:
        return _GONAGAL_KEPT
    return _KEEP * table.value(card)


def _discard(table: _Table, obs: dict[str, Any], actions: dict[str, dict[str, int]], kind: str) -> int:
    cards = actions["discard"]
    if kind == "discard other":  # the opponent's best: the richest thief, else the highest card
        return cards[max(cards, key=lambda c: (sum(table.loot.get(c, [0])), table.value(c), c))]
    # Keep the richest and highest card: throw out the poorest, lowest.
    return cards[min(cards, key=lambda c: (sum(table.loot.get(c, [0])), table.value(c), c))]


def _kill(table: _Table, kills: dict[str, int]) -> int:
    def rank(card: str) -> tuple[float, int, str]:
        if card.startswith("T-"):
            gains = [[0] * 5, [0] * 5]
            gains[table.me][_colour(card)] += table.mult
            return (1.0 + table.outcome(gains), 0, card)
        return (0.0, _number(card), card)

    return kills[max(kills, key=rank)]


def _caught_after(table: _Table, extra: int, mine: str | None) -> bool:
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


def _steal(table: _Table, actions: dict[str, dict[str, int]]) -> int:
    obs = table.obs
    done = actions.get("done", {}).get("")
    high = obs["highest_thief"]
    if "steal from" in actions:
        sources = actions["steal from"]
        return sources[max(sources, key=lambda c: (table.loot_worth(table.me, table.loot.get(c, [0] * 5)), c))]
    colours = [c for c in actions.get("steal", {}) if c in _COLOURS]
    if colours:
        left = table.awards[1 - table.me][:]
        colour = table._best_steal(table.me, left)
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


def _take_yellow(table: _Table, actions: dict[str, dict[str, int]]) -> int:
    second = table.obs["second_thief"]
    done = actions["done"][""]
    take = actions.get("take", {}).get("yellow")
    if take is None:
        return done
    if _caught_after(table, 1, second) and not _caught_after(table, 0, second):
        return done
    return take


def _scarper(table: _Table, runners: dict[str, int]) -> int:
    def rank(card: str) -> tuple[float, int, str]:
        return (table.loot_worth(table.me, table.loot.get(card, [0] * 5)), -table.value(card), card)

    return runners[max(runners, key=rank)]


# -- the evaluation ---------------------------------------------------------------------------


_SPREAD = 3.0
"""Half awards of lead that are worth e-fold odds with one round to go; more rounds spread it further."""


def evaluate(state: State) -> list[float]:
    """Returns each seat's chance of winning, from the score and what the round's cards will do.

    The lead is the difference of the two scores as the rules count them
    (half awards, best colour dropped), plus the worth of the events of this
    round whose cards are placed (each judged as the player judges them, an
    unplaced opposing card taken as any of the opponent's hand), loot riding
    on thieves at half worth and a Gonagal in hand. The chance of winning is
    a logistic curve in the lead that flattens with the rounds left.
    """
    if state.is_terminal():
        return list(state.returns())
    obs = [state.observation(0), state.observation(1)]
    table = _Table(obs[0], obs[1])
    lead = float(table.base[0] - table.base[1])
    for card, counts in table.loot.items():
        if sum(counts):
            lead += _RIDING * table.loot_worth(_owner(card), counts)
    hands = [obs[s]["hand"] or [] for s in (0, 1)]
    for s in (0, 1):
        if any(table.working_gonagal(c) for c in hands[s]):
            lead += _GONAGAL_KEPT if s == 0 else -_GONAGAL_KEPT
    lead += _pending(table, obs, hands)
    spread = _SPREAD * math.sqrt(max(1, table.rounds + 1 - table.round))
    p = 1.0 / (1.0 + math.exp(-lead / spread))
    return [p, 1.0 - p]


def _pending(table: _Table, obs: list[dict[str, Any]], hands: list[list[str]]) -> float:
    """Seat 0's expected gain over seat 1 from this round's events not yet resolved."""
    total = 0.0
    fight_flip = obs[0]["phase"] == "flip" and obs[0]["event"] == "fightin" and table.round > 0
    for event in range(3):
        new = table.down[event]
        if new[0] is None and new[1] is None and not (event == 0 and fight_flip):
            continue
        if event == 0 and fight_flip and obs[0]["gonagal"] is not None:
            gains = [[0] * 5, [0] * 5]
            gains[obs[0]["gonagal"]][RED] += table.mult
            gains[obs[0]["gonagal"]][WHITE] += table.mult
            total += table.outcome(gains)
            continue
        if (new[0] is not None and new[1] is not None) or (event == 0 and fight_flip):
            total += table.event_worth(event, new[0], new[1])
            continue
        known = 0 if new[0] is not None else 1
        options: list[str | None] = list(hands[1 - known]) or [None]
        worths = []
        for card in options:
            pair = (new[0], card) if known == 0 else (card, new[1])
            worths.append(table.event_worth(event, pair[0], pair[1]))
        total += sum(worths) / len(worths)
    return total
