"""First Druid: the rule-based player (``choose``); what a search knows is in ``search``.

It keeps level with the neutral figure, plays the combination worth more than its cards and the
inactive turn's draw, dresses the altar, bids for spirits it can win, trades for gain and discards
its least useful card (docs/agents/first_druid.md, "The rule-based player", gives each rule).
"""

from __future__ import annotations

import itertools
import math
from typing import Any

from henge import box
from henge.core import Decision

_CARD = {text: card for card, text in enumerate(box.CARD_TEXT)}
_NUMBER = box.CARD_NUMBER
_IS_DAY = box.CARD_IS_DAY
_COLOUR = box.CARD_COLOUR
_WILD = box.TRILITHON_CARD_BASE
_SUM = 31
_HAND_LIMIT = 10
"""The most cards a hand keeps (FD13); an observation names another (the designer option) as ``hand_limit``."""
_RING = box.RING_SPACES
_SECTIONS = 3 * box.TRILITHON_SPACES

_WILD_WORTH = 3.0
"""The own trilithon card: a 30 in any bid, any number in any combination."""
_FOREIGN_WORTH = 0.2
"""A rival's trilithon card: worth nothing in play, something in trade."""
_DRAW_WORTH = 0.45
"""A card drawn blind, in points."""
_MAX_PICK = 4
"""Combinations are looked for among up to this many cards of the hand."""
_BID_TARGET = 24
"""A bid of this strength usually wins a spirit of the own element."""
_HURT = 0.5
"""Points a rival loses count this much for us (there are other rivals too)."""


def card_worth(card: int) -> float:
    """Returns how much a number card in hand is worth, in points (higher numbers do more)."""
    return 0.15 + _NUMBER[card] / 60


_CARD_WORTH = tuple(card_worth(c) if c < _WILD else 0.0 for c in range(len(box.CARD_TEXT)))


class _View:
    """The seat's view of the table, read from its observation."""

    def __init__(self, obs: dict[str, Any]) -> None:
        self.obs = obs
        self.me: int = obs["seat"]
        self.n: int = obs["players"]
        self.colours: list[str] = obs["colours"]
        self.colour = box.COLOURS.index(self.colours[self.me])
        self.wild = _WILD + self.colour
        self.hand = [_CARD[t] for t in obs["hand"]]
        self.number: int = obs["time"]["number"]
        self.day = obs["time"]["phase"] == "day"
        self.pos: int = obs["druids"][self.me]
        self.clans: list[int] = obs["bluestones"]
        self.spirits: list[int | None] = obs["spirits"]
        self.disks: int = obs["disks_left"][self.me]
        self.bars: int = obs["bars_left"][self.me]
        self.sections = sum(t["sections"] for t in obs["trilithons"])
        self.owners: list[int | None] = [t["owner"] for t in obs["trilithons"]]
        self.altar: list[int] = obs["altar"]
        self.table = [_CARD[t] for t in obs["table"]]
        self.wild_number: int | None = obs["wild_number"]

    def worth(self, card: int) -> float:
        if card == self.wild:
            return _WILD_WORTH
        if card >= _WILD:
            return _FOREIGN_WORTH
        return card_worth(card)

    def value_of(self, card: int) -> int:
        """The number a card on the table stands for."""
        if card >= _WILD:
            return self.wild_number or 0
        return _NUMBER[card]


def _run_before(owners: list[Any], index: int, seat: int | None) -> int:
    """Returns how many of ``seat``'s pieces run unbroken just before ``index``."""
    length = 0
    i = index - 1
    while i >= 0 and owners[i] == seat:
        length += 1
        i -= 1
    return length


# --- effects: what a combination brings, in points ---------------------------------


def _advance_worth(v: _View) -> float:
    """One space forward, and above all staying in contact with the neutral figure (FD5)."""
    if v.pos + 1 >= _RING:
        scores = v.obs["scores"]
        mine = scores[v.me] + 1
        best_rival = max(s for seat, s in enumerate(scores) if seat != v.me)
        return 50.0 if mine > best_rival else -50.0
    gap = v.number - v.pos
    if gap > 0:  # behind: no draws until the druid catches up
        return 4.0
    if gap == 0:  # level: behind as soon as the neutral reaches the next number
        return 2.5 if v.day else 1.8
    return 1.0 if gap == -1 else 0.6


def _altar_worth(v: _View) -> float:
    mine = v.altar.count(v.me)
    if len(v.altar) + 1 < v.n:
        return 1.0 if mine == 0 else 0.2
    counts = [v.altar.count(s) for s in range(v.n)]
    counts[v.me] += 1
    gain = 0.0
    best = max(counts)
    if counts.count(best) == 1 and counts[v.me] == best:
        gain += 1.0
    gain += _HURT * sum(1 for s in range(v.n) if counts[s] == 0)
    return gain + (1.0 if mine == 0 else 0.0)


def _build_worth(v: _View) -> float:
    if v.sections % 3 < 2:
        victims = sum(1 for s, size in enumerate(v.obs["hand_sizes"]) if s != v.me and size > 0)
        return victims * (_DRAW_WORTH + 0.1)
    if v.disks <= 0:
        return 0.1
    rounds_left = max(0, 60 - v.obs["round"])
    return 0.3 + 0.03 * rounds_left


def _convert_clan_worth(v: _View) -> float:
    last = len(v.clans) - 1
    rival = v.clans[last]
    return _run_before(v.clans, last, v.me) + 1 + _HURT * (_run_before(v.clans, last, rival) + 1)


def _top_spirit(spirits: list[Any]) -> int:
    for i in range(len(spirits) - 1, -1, -1):
        if spirits[i] is not None:
            return i
    return -1


def _convert_spirit_worth(v: _View) -> float:
    top = _top_spirit(v.spirits)
    rival = v.spirits[top]
    return _run_before(v.spirits, top, v.me) + 1 + _HURT * (_run_before(v.spirits, top, rival) + 1)


class _Effects:
    """The worth of each effect a combination may have now (the same for every combination of one turn).

    Each is worked out once per plan, and only where the turn allows the
    effect at all (``top``: the largest of them, a bound on any play's worth).
    """

    __slots__ = ("advance", "altar", "build", "clan", "convert_clan", "convert_spirit", "pos", "take_over", "top")

    def __init__(self, v: _View) -> None:
        self.pos = v.pos
        self.advance = _advance_worth(v)
        self.clan = (
            _run_before(v.clans, len(v.clans), v.me) + 1.3 if v.disks > 0 and len(v.clans) < box.BLUESTONES else None
        )
        self.altar = _altar_worth(v) if v.bars > 0 else None
        self.build = _build_worth(v) if v.sections < _SECTIONS else None
        self.convert_clan = _convert_clan_worth(v) if v.disks > 0 and v.clans and v.clans[-1] != v.me else None
        top = _top_spirit(v.spirits)
        self.convert_spirit = _convert_spirit_worth(v) if v.bars > 0 and top >= 0 and v.spirits[top] != v.me else None
        self.take_over: tuple[str, float] | None = None
        if v.disks > 0:
            for t, owner in enumerate(v.owners):
                if owner is not None and owner != v.me:
                    self.take_over = (f"take over {t + 1}", 1.5 + _HURT)  # the first: the others are worth the same
                    break
        worths = [self.advance, self.clan, self.altar, self.build, self.convert_clan, self.convert_spirit]
        worths.append(None if self.take_over is None else self.take_over[1])
        self.top = max(w for w in worths if w is not None)

    def found(self, numbers: list[int], phased: bool) -> list[tuple[str, float]]:
        """Returns the effects (action text, worth) that cards with ``numbers`` may have now, in order."""
        found: list[tuple[str, float]] = []
        total = sum(numbers)
        count = len(numbers)
        if phased and total >= self.pos:
            found.append(("advance", self.advance))
        summed = count >= 2 and total == _SUM
        pair = count == 2 and numbers[0] == numbers[1]
        if summed and self.clan is not None:
            found.append(("clan", self.clan))
        if (summed or pair) and self.altar is not None:
            found.append(("dress altar", self.altar))
        if pair and self.build is not None:
            found.append(("build", self.build))
        if count in (3, 4):
            low = min(numbers)
            run = max(numbers) - low == count - 1 and len(set(numbers)) == count
            if run and count == 3:
                if self.convert_clan is not None:
                    found.append(("convert clan", self.convert_clan))
                if self.convert_spirit is not None:
                    found.append(("convert spirit", self.convert_spirit))
            if run and count == 4 and self.take_over is not None:
                found.append(self.take_over)
        return found


# --- planning a combination ---------------------------------------------------------------


class _Plan:
    """A combination to make: the hand cards to add (the wild card last, with its number) and its effect."""

    def __init__(self, cards: tuple[int, ...], wild: int | None, effect: str, net: float) -> None:
        self.cards = cards
        self.wild = wild
        self.effect = effect
        self.net = net


def _wild_numbers(v: _View, base: list[int]) -> list[int]:
    """Returns the numbers worth naming the wild card when it joins cards with numbers ``base``."""
    options = {max(1, v.pos - sum(base)), _SUM - sum(base)}
    if len(base) == 1:
        options.add(base[0])
    if base:
        low, high = min(base), max(base)
        options.update({low - 1, high + 1})
        options.update(x for x in range(low, high + 1) if x not in base)
    return sorted(x for x in options if 1 <= x <= 30)


def best_plan(v: _View) -> _Plan | None:
    """Returns the best combination that completes the cards on the table from the hand, or None.

    Every way of adding up to four number cards (and the own trilithon
    card, named any useful number) to the cards on the table is weighed, in
    order of size, and the first of the best is kept. A way whose cost
    leaves even the largest effect's worth no better than the best so far
    is passed over without looking at its effects: it could not be kept.
    """
    base = [v.value_of(c) for c in v.table]
    base_phased = all(c >= _WILD or _IS_DAY[c] == v.day for c in v.table)
    numbers_in_hand = sorted((c for c in v.hand if c < _WILD), key=lambda c: (-_NUMBER[c], c))
    has_wild = v.wild in v.hand and v.wild not in v.table
    effects = _Effects(v)
    top = effects.top
    day = v.day
    best: _Plan | None = None
    bar = -math.inf
    """A way is kept only if it is worth more than this (the best so far, and a little)."""
    for size in range(0, _MAX_PICK + 1):
        for cards in itertools.combinations(numbers_in_hand, size):
            cost = sum(_CARD_WORTH[c] for c in cards)
            if top - cost <= bar:
                continue
            nums = base + [_NUMBER[c] for c in cards]
            phased = base_phased and all(_IS_DAY[c] == day for c in cards)
            wild_choices: list[int | None] = [None]
            if has_wild:
                wild_choices += _wild_numbers(v, nums)
            for w in wild_choices:
                full = nums if w is None else [*nums, w]
                if not full:
                    continue
                extra = 0.0 if w is None else _WILD_WORTH
                if top - cost - extra <= bar:
                    continue
                for effect, worth in effects.found(full, phased):
                    net = worth - cost - extra
                    if best is None or net > bar:
                        best = _Plan(cards, w, effect, net)
                        bar = net + 1e-9
    return best


def _pass_worth(v: _View) -> float:
    if not v.obs["in_contact"][v.me]:
        return 0.0
    draws = 1 + sum(1 for o in v.owners if o == v.me)
    room = max(0, v.obs.get("hand_limit", _HAND_LIMIT) - len(v.hand))  # the key: a designer's other limit
    return _DRAW_WORTH * min(draws, room) + 0.1 * max(0, draws - room)


def choose(decision: Decision) -> int:
    """Returns the rule-based player's action."""
    obs = decision.observation
    legal = decision.by_text()
    phase = obs["phase"]
    v = _View(obs)
    if phase == "discard":
        action = _discard(v, legal)
    elif phase == "bid":
        action = _bid(v, legal)
    elif phase == "answer":
        action = legal["accept"] if "accept" in legal and accept_worth(v) > 0.3 else legal.get("decline")
    else:
        action = _turn(v, legal)
    return action if action is not None else decision.legal_actions[0]


def _discard(v: _View, legal: dict[str, int]) -> int | None:
    options = [c for c in v.hand if f"discard {box.CARD_TEXT[c]}" in legal]
    if not options:
        return None
    worst = min(options, key=lambda c: (v.worth(c), c))
    return legal[f"discard {box.CARD_TEXT[worst]}"]


# --- the turn ----------------------------------------------------------------------


def _turn(v: _View, legal: dict[str, int]) -> int | None:
    offer = v.obs["offer"]
    if offer is not None:
        return _build_offer(v, legal, offer)
    plan = best_plan(v)
    if v.table:
        return _follow(plan, legal)
    acted = v.obs["acted"]
    bar = 0.05 if acted else _pass_worth(v)
    if plan is not None and plan.net > bar:
        return _follow(plan, legal)
    if not acted and v.obs["offers_made"] == 0:
        trade = plan_offer(v)
        if trade is not None and f"offer seat {trade[0]}" in legal:
            return legal[f"offer seat {trade[0]}"]
    return legal.get("end turn", legal.get("pass"))


def _follow(plan: _Plan | None, legal: dict[str, int]) -> int | None:
    """Returns the next step of a plan: its next card, its wild card, then its effect."""
    if plan is not None:
        for c in plan.cards:
            text = f"pick {box.CARD_TEXT[c]}"
            if text in legal:
                return legal[text]
        if plan.wild is not None and f"pick wild {plan.wild}" in legal:
            return legal[f"pick wild {plan.wild}"]
        if plan.effect in legal:
            return legal[plan.effect]
    for text in ("advance", "clan", "convert clan", "convert spirit", "build", "dress altar"):
        if text in legal:
            return legal[text]
    picks = [a for t, a in legal.items() if t.startswith("pick ") or t.startswith("take over") or t == "build only"]
    return picks[0] if picks else legal.get("end turn", legal.get("pass"))


# --- trading ---------------------------------------------------------------------------


def _hand_worth(v: _View, hand: list[int]) -> float:
    saved = v.hand
    v.hand = hand
    try:
        plan = best_plan(v) if not v.table else None
    finally:
        v.hand = saved
    return sum(v.worth(c) for c in hand) + (0.5 * max(0.0, plan.net) if plan is not None else 0.0)


def accept_worth(v: _View) -> float:
    """Returns what accepting the offer on the table gains us (the cards we get less those we give)."""
    offer = v.obs["offer"]
    give = [_CARD[t] for t in offer["ask"]]
    get = [_CARD[t] for t in offer["give"]]
    if v.wild in give:
        return -10.0
    after = [c for c in v.hand if c not in give] + get
    return _hand_worth(v, after) - _hand_worth(v, v.hand)


def _completing(v: _View, card: int) -> bool:
    """Returns True if ``card`` makes a sum of 31 or a pair with a number card in the hand."""
    if card >= _WILD:
        return False
    return any(c < _WILD and (_NUMBER[c] + _NUMBER[card] == _SUM or c // 2 == card // 2) for c in v.hand)


def plan_offer(v: _View) -> tuple[int, int, int] | None:
    """Returns (seat, card to give, card to ask) for a trade worth offering, or None.

    A card another seat is known to hold that completes one of our pairs or
    sums is asked for, giving our least useful card (that seat's own
    trilithon card first, which it values most); failing that, a rival's
    trilithon card is offered to its owner for a card that would complete a
    sum of 31 with our best card.
    """
    known = v.obs["known_cards"]
    sizes = v.obs["hand_sizes"]
    for seat in range(v.n):
        if seat == v.me or not sizes[seat]:
            continue
        theirs = _WILD + box.COLOURS.index(v.colours[seat])
        cheap = [c for c in v.hand if c != v.wild]
        if not cheap:
            return None
        give = theirs if theirs in v.hand else min(cheap, key=lambda c: (v.worth(c), c))
        for text in known[seat]:
            card = _CARD[text]
            if card not in v.hand and _completing(v, card) and v.worth(card) >= v.worth(give) - 0.5:
                return seat, give, card
        if theirs in v.hand:
            seen = set(v.hand) | {_CARD[t] for t in v.obs["discard_pile"]}
            for c in sorted((c for c in v.hand if c < _WILD), key=lambda c: (-_NUMBER[c], c)):
                need = _SUM - _NUMBER[c]
                if 1 <= need <= 30 and need != _NUMBER[c]:
                    for ask in (box.number_card(need, True), box.number_card(need, False)):
                        if ask not in seen:
                            return seat, theirs, ask
    return None


def _build_offer(v: _View, legal: dict[str, int], offer: dict[str, Any]) -> int | None:
    trade = plan_offer(v)
    if trade is not None and trade[0] == offer["to"]:
        _, give, ask = trade
        if not offer["give"] and f"give {box.CARD_TEXT[give]}" in legal:
            return legal[f"give {box.CARD_TEXT[give]}"]
        if not offer["ask"] and f"ask {box.CARD_TEXT[ask]}" in legal:
            return legal[f"ask {box.CARD_TEXT[ask]}"]
    if "send offer" in legal:
        return legal["send offer"]
    if not offer["give"]:
        cheap = [c for c in v.hand if c != v.wild and f"give {box.CARD_TEXT[c]}" in legal]
        if cheap:
            return legal[f"give {box.CARD_TEXT[min(cheap, key=lambda c: (v.worth(c), c))]}"]
    asks = sorted(a for t, a in legal.items() if t.startswith("ask "))
    return asks[0] if asks else None


# --- bidding for spirits -----------------------------------------------------------------


def _bid_strength(v: _View, card: int, colour: int, element: bool) -> int:
    if card == v.wild:
        return 30
    if card >= _WILD:
        return 0
    return _NUMBER[card] if element or _COLOUR[card] == colour else 0


def plan_bid(v: _View) -> list[int]:
    """Returns the cards to bid in the contest now (empty: pass).

    On a spirit of its own element every card counts: it bids its strongest
    cards up to a strength that usually wins. Where nobody has the
    advantage it bids the cards of the spirit's colour when it is the last
    to bid and nobody else bid, or when they are strong and cheap enough.
    """
    contest = v.obs["contest"]
    colour = box.COLOURS.index(contest["colour"])
    element = contest["element_seat"] == v.me
    held = v.hand + [_CARD[t] for t in contest["bid"] or []]
    if v.bars <= 0:
        return []
    space = contest["number"] - 1
    gain = _run_before(v.spirits, space, v.me) + 1.0
    counting = sorted(
        (c for c in held if _bid_strength(v, c, colour, element) > 0 and c != v.wild),
        key=lambda c: (-_bid_strength(v, c, colour, element), c),
    )
    if element:
        chosen: list[int] = []
        for c in counting:
            if sum(_NUMBER[x] for x in chosen) >= _BID_TARGET:
                break
            chosen.append(c)
        if sum(_NUMBER[x] for x in chosen) >= _BID_TARGET and sum(v.worth(c) for c in chosen) <= gain + 1.0:
            return chosen
        return []
    if contest["element_seat"] is not None and contest["element_seat"] >= 0:
        return []  # a rival counts every card on its own element
    sizes = contest["bid_sizes"]
    others_quiet = all(size == 0 for seat, size in enumerate(sizes) if seat != v.me)
    last = (v.obs["first_player"] - 1) % v.n == v.me
    if last and others_quiet and counting:
        return [min(counting, key=lambda c: (v.worth(c), c))]
    strength = sum(_NUMBER[c] for c in counting)
    if strength >= 20 and sum(v.worth(c) for c in counting) <= gain:
        return counting
    return []


def _bid(v: _View, legal: dict[str, int]) -> int | None:
    already = set(v.obs["contest"]["bid"] or [])
    for c in plan_bid(v):
        text = box.CARD_TEXT[c]
        if text not in already and f"bid {text}" in legal:
            return legal[f"bid {text}"]
    return legal.get("seal bid", legal.get("pass"))
