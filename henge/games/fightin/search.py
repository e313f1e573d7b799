"""Fightin' an' Drinkin' an' Stealin'!: what a search knows: a seat's reckoning of a position and
the position evaluation.

Everything is counted in half awards, the unit of the final score (a Wee
Lawyer halves its colour), and a change is judged by what it does to the
score the rules count: the total less the best colour. So a fourth red award
on top of three is worth nothing, and stealing the opponent's best colour
hurts them not at all.

``Reckoning`` holds the numbers of one position as a seat sees it and the
worth of each event with a given pair of newcomers (the rule-based player of
:mod:`henge.games.fightin.bot` places its cards by it); ``evaluate`` turns
the lead it reckons into each seat's chance of winning.
"""

from __future__ import annotations

import math
from typing import Any

import cython

from henge import box
from henge.core import State

GAMES = ("fightin",)
"""The games whose rules this evaluation was written for."""
OPTIONS: tuple[str, ...] = ("rounds",)
"""The options the evaluation understands: the last round (``rounds``) is read from ``round_cap``."""

WHITE, BLUE, GREEN, YELLOW, RED = range(5)
OPENSPIEL_SECONDS = {2: 0.140}
"""Processor seconds per decision with a choice of ``ismcts`` at its default settings, by player count:
the budget that gives OpenSpiel's ISMCTS equal time (``openspiel-ismcts``). Made by
``python -m henge.bench_openspiel --bots ismcts --decisions 200 --games 4 --players N``, over about 200
decisions each; measure again when the search or its settings here change."""

_COLOURS = box.PLAYER_COLOURS
EVENTS = ("fightin", "drinkin", "stealin")
"""The events, as the observation names them."""
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
GONAGAL_KEPT = 3.0
"""Half awards a Gonagal kept in hand is worth before the last round."""


# -- reading cards --------------------------------------------------------------------------


_NUMBER = {text: box.CARD_NUMBER[card] for card, text in enumerate(box.CARD_TEXT)}
_COLOUR = {text: box.CARD_COLOUR[card] for card, text in enumerate(box.CARD_TEXT)}
_KILL_ODDS: dict[tuple[str | None, tuple[str, ...], int], tuple[float, list[tuple[float, int]]]] = {}


def card_number(text: str) -> int:
    """A card's number, read from its text."""
    return _NUMBER[text]


def card_colour(text: str) -> int:
    """A card's colour (an index of box.COLOURS), read from its text."""
    return _COLOUR[text]


def _owner(text: str) -> int:
    return 0 if text.endswith("d") else 1


@cython.cclass
class Reckoning:
    """The numbers of one position as a seat sees it (own cards, and the other's where known)."""

    obs = cython.declare(dict, visibility="public")
    me = cython.declare(cython.int, visibility="public")
    round = cython.declare(cython.int, visibility="public")
    rounds = cython.declare(cython.int, visibility="public")
    mult = cython.declare(cython.int, visibility="public")
    wee = cython.declare(list, visibility="public")
    awards = cython.declare(list, visibility="public")
    stock = cython.declare(list, visibility="public")
    altar = cython.declare(cython.int, visibility="public")
    lawyer = cython.declare(cython.int, visibility="public")
    loot = cython.declare(dict, visibility="public")
    monsters = cython.declare(list, visibility="public")
    monster_pool = cython.declare(list, visibility="public")
    cards = cython.declare(list, visibility="public")
    down = cython.declare(list, visibility="public")
    """Each event's face-down cards by seat (None: none, or not seen)."""
    settled = cython.declare(cython.double, visibility="public")
    base = cython.declare(list, visibility="public")
    _changes = cython.declare(dict)
    """Score changes already worked out, by the awards gained (and the Wee Lawyers, where they move)."""

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
        self.cards = [[list(obs["events"][e]["cards"][s]) for s in (0, 1)] for e in EVENTS]
        self.down = [[None, None] for _ in EVENTS]
        for e, name in enumerate(EVENTS):
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
        self._changes = {}

    # -- values and scores --

    @cython.ccall
    def value(self, card: str) -> int:
        """F3: a card's worth: its number, or 0 under its owner's Wee Lawyer of its colour."""
        return 0 if self.wee[_COLOUR[card]] == (0 if card[-1] == "d" else 1) else _NUMBER[card]

    @cython.ccall
    def working_gonagal(self, card: str | None) -> bool:
        return card in _GONAGALS and self.wee[WHITE] != _owner(card)

    @cython.ccall
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
        for name in EVENTS:
            seen.update(obs["events"][name]["cards"][seat])
        if seat == self.me and obs.get("hand") is not None:
            seen.update(obs["hand"])
            seen.update(d for d in (self.down[e][seat] for e in range(3)) if d)
        return [c for c in _DECKS[seat] if c not in seen]

    @cython.ccall
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

    @cython.ccall
    def loot_worth(self, seat: int, counts: list[int]) -> float:
        """What loot would add to ``seat``'s score if banked (as a difference: mine less the other's)."""
        gains = [[0] * 5, [0] * 5]
        gains[seat] = counts
        return self.outcome(gains)

    # -- the three events (values: my score change less the other's, in half awards) --

    @cython.ccall
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
                    bonus[card_colour(low)] = bonus.get(card_colour(low), 0) + 1
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
                    stolen = self.best_steal(h, left)
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
                colour = min(lacking, key=lambda c: self.wee_worth(taker, c)) if lacking else colour
            if colour != box.BLACK:
                wee = wee[:]
                wee[colour] = taker
        return self.outcome(gains, wee, riding=self._riding(thieves, loot, skip=list(banked)))

    @cython.ccall
    def _riding(self, thieves: dict[int, list[str]], loot: dict[str, list[int]], skip: list[str]) -> float:
        value = 0.0
        for s in (0, 1):
            for c in thieves[s]:
                if c not in skip and any(loot[c]):
                    value += _RIDING * self.loot_worth(s, loot[c])
        return value

    @cython.ccall
    def best_steal(self, thief_owner: int, left: list[int]) -> int | None:
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

    @cython.ccall
    def wee_worth(self, seat: int, colour: int) -> float:
        """My score difference if ``seat`` took the Wee Lawyer of ``colour``."""
        wee = self.wee[:]
        wee[colour] = seat
        return self.outcome([[0] * 5, [0] * 5], wee) * (1 if seat == self.me else -1)

    # -- the events of the round as far as they are known --

    @cython.ccall
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
    values = [0 if m.startswith("T-") else card_number(m) for m in monsters]
    if len(monsters) == 2:
        first, second = (m.startswith("T-") for m in monsters)
        if first and not second:
            values[1] *= 2
        elif second and not first:
            values[0] *= 2
    return values


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
    table = Reckoning(obs[0], obs[1])
    lead = float(table.base[0] - table.base[1])
    for card, counts in table.loot.items():
        if sum(counts):
            lead += _RIDING * table.loot_worth(_owner(card), counts)
    hands = [obs[s]["hand"] or [] for s in (0, 1)]
    for s in (0, 1):
        if any(table.working_gonagal(c) for c in hands[s]):
            lead += GONAGAL_KEPT if s == 0 else -GONAGAL_KEPT
    lead += _pending(table, obs, hands)
    spread = _SPREAD * math.sqrt(max(1, table.rounds + 1 - table.round))
    p = 1.0 / (1.0 + math.exp(-lead / spread))
    return [p, 1.0 - p]


def _pending(table: Reckoning, obs: list[dict[str, Any]], hands: list[list[str]]) -> float:
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
