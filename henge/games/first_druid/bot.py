"""First Druid: the rule-based player (``choose``); what a search knows is in ``search``.

It keeps level with the neutral figure, plays the combination worth more than its cards and the
inactive turn's draw, dresses the altar, bids for spirits it can win, trades for gain and discards
its least useful card (docs/agents/first_druid.md, "The rule-based player", gives each rule).
"""

from __future__ import annotations

import itertools
import math
from typing import Any

import cython

from henge import box
from henge.core import Decision

GAMES = ("first_druid",)
"""The games whose rules this player was written for."""
OPTIONS: tuple[str, ...] = ("colours", "hand_limit")
"""The options it understands: the seats' colours and the hand limit are read from the observation."""

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


@cython.locals(i=cython.Py_ssize_t)
def _top_spirit(spirits: list[Any]) -> int:
    for i in range(len(spirits) - 1, -1, -1):
        if spirits[i] is not None:
            return i
    return -1


def _convert_spirit_worth(v: _View) -> float:
    top = _top_spirit(v.spirits)
    rival = v.spirits[top]
    return _run_before(v.spirits, top, v.me) + 1 + _HURT * (_run_before(v.spirits, top, rival) + 1)


# The effects in the order a combination's are weighed (the first of equal worth is kept).
_ADVANCE, _CLAN, _ALTAR, _BUILD, _CONVERT_CLAN, _CONVERT_SPIRIT, _TAKE_OVER = range(7)


class _Effects:
    """The worth of each effect a combination may have now (the same for every combination of one turn).

    Each is worked out once per plan, and only where the turn allows the effect at all: ``open``
    has the bit of each kind allowed, ``worths`` and ``names`` give its worth and action text
    (``top``: the largest worth, a bound on any play's worth).
    """

    __slots__ = ("names", "open", "pos", "top", "worths")

    def __init__(self, v: _View) -> None:
        self.pos = v.pos
        advance = _advance_worth(v)
        clan = _run_before(v.clans, len(v.clans), v.me) + 1.3 if v.disks > 0 and len(v.clans) < box.BLUESTONES else None
        altar = _altar_worth(v) if v.bars > 0 else None
        build = _build_worth(v) if v.sections < _SECTIONS else None
        convert_clan = _convert_clan_worth(v) if v.disks > 0 and v.clans and v.clans[-1] != v.me else None
        top = _top_spirit(v.spirits)
        convert_spirit = _convert_spirit_worth(v) if v.bars > 0 and top >= 0 and v.spirits[top] != v.me else None
        take_over: float | None = None
        take_over_name = ""
        if v.disks > 0:
            for t, owner in enumerate(v.owners):
                if owner is not None and owner != v.me:
                    take_over_name = f"take over {t + 1}"  # the first: the others are worth the same
                    take_over = 1.5 + _HURT
                    break
        worths = [advance, clan, altar, build, convert_clan, convert_spirit, take_over]
        self.names = ("advance", "clan", "dress altar", "build", "convert clan", "convert spirit", take_over_name)
        self.worths = tuple(0.0 if w is None else float(w) for w in worths)
        self.open = sum(1 << kind for kind, w in enumerate(worths) if w is not None)
        self.top = max(w for w in worths if w is not None)


@cython.cfunc
@cython.inline
@cython.exceptval(check=False)
@cython.locals(pos=cython.int, total=cython.int, count=cython.int, dup=cython.bint, low=cython.int, high=cython.int)
@cython.locals(phased=cython.bint, kinds=cython.int, summed=cython.bint, pair=cython.bint, run=cython.bint)
@cython.returns(cython.int)
def _kinds(pos: int, total: int, count: int, dup: bool, low: int, high: int, phased: bool) -> int:
    """Returns the bit set of the effects that cards may have now: ``count`` numbers adding up to
    ``total``, from ``low`` to ``high``, ``dup`` if two are equal, ``phased`` if all match the
    neutral's phase (the druid at ``pos``)."""
    kinds = 0
    if phased and total >= pos:
        kinds |= 1 << _ADVANCE
    summed = count >= 2 and total == _SUM
    pair = count == 2 and dup
    if summed:
        kinds |= 1 << _CLAN
    if summed or pair:
        kinds |= 1 << _ALTAR
    if pair:
        kinds |= 1 << _BUILD
    run = not dup and high - low == count - 1
    if run and count == 3:
        kinds |= 1 << _CONVERT_CLAN | 1 << _CONVERT_SPIRIT
    if run and count == 4:
        kinds |= 1 << _TAKE_OVER
    return kinds


# --- planning a combination ---------------------------------------------------------------


class _Plan:
    """A combination to make: the hand cards to add (the wild card last, with its number) and its effect."""

    def __init__(self, cards: tuple[int, ...], wild: int | None, effect: str, net: float) -> None:
        self.cards = cards
        self.wild = wild
        self.effect = effect
        self.net = net


_NAMEABLE = (1 << 31) - 2
"""The numbers the wild card may be named, 1..30, as a bit set."""


@cython.cfunc
@cython.exceptval(check=False)
@cython.locals(pos=cython.int, total=cython.int, count=cython.int, first=cython.int, low=cython.int, high=cython.int)
@cython.locals(bits=cython.ulonglong, x=cython.int, options=cython.ulonglong, one=cython.ulonglong)
@cython.returns(cython.ulonglong)
def _wild_options(pos: int, total: int, count: int, first: int, low: int, high: int, bits: int) -> int:
    """Returns the bit set of the numbers (1..30) worth naming the wild card when it joins
    ``count`` cards: numbers adding up to ``total``, the first ``first``, from ``low`` to
    ``high``, ``bits`` the set of them (the druid at ``pos``)."""
    one = 1
    options = 0
    x = max(1, pos - total)  # the druid's need
    if x <= 30:
        options |= one << x
    x = _SUM - total  # the sum of 31
    if 1 <= x <= 30:
        options |= one << x
    if count == 1 and 1 <= first <= 30:
        options |= one << first
    if count:  # each number from one below the lowest to one above the highest that is not there
        x = low - 1 if low >= 1 else 0
        options |= (((one << (high + 2)) - 1) ^ ((one << x) - 1)) & ~bits
    return options & _NAMEABLE


def _wild_numbers(v: _View, base: list[int]) -> list[int]:
    """Returns the numbers worth naming the wild card when it joins cards with numbers ``base``."""
    bits = 0
    for x in base:
        bits |= 1 << x
    first = base[0] if base else 0
    options = _wild_options(v.pos, sum(base), len(base), first, min(base, default=0), max(base, default=0), bits)
    return [x for x in range(1, 31) if options >> x & 1]


@cython.locals(m=cython.int, size=cython.int, i=cython.int, x=cython.int, pos=cython.int, w=cython.int)
@cython.locals(total=cython.int, count=cython.int, low=cython.int, high=cython.int, first=cython.int)
@cython.locals(f_total=cython.int, f_count=cython.int, f_low=cython.int, f_high=cython.int)
@cython.locals(base_total=cython.int, base_count=cython.int, base_low=cython.int, base_high=cython.int)
@cython.locals(base_first=cython.int, kinds=cython.int, kind=cython.int, is_open=cython.int)
@cython.locals(one=cython.ulonglong, bits=cython.ulonglong, base_bits=cython.ulonglong, options=cython.ulonglong)
@cython.locals(dup=cython.bint, f_dup=cython.bint, base_dup=cython.bint, phased=cython.bint, base_phased=cython.bint)
@cython.locals(day=cython.bint, has_wild=cython.bint)
@cython.locals(worth=cython.double, cost=cython.double, extra=cython.double, top=cython.double)
@cython.locals(bar=cython.double, net=cython.double)
@cython.locals(numbers=list, worths=list, days=list, effect_worths=tuple)
def best_plan(v: _View) -> _Plan | None:
    """Returns the best combination that completes the cards on the table from the hand, or None.

    Every way of adding up to four number cards (and the own trilithon
    card, named any useful number) to the cards on the table is weighed, in
    order of size, and the first of the best is kept. A way whose cost
    leaves even the largest effect's worth no better than the best so far
    is passed over without looking at its effects: it could not be kept.
    Each way is read as what decides its effects: how many numbers, their
    total, lowest and highest, whether two are equal, whether all match the
    neutral's phase (``_kinds``).
    """
    one = 1
    base_total = base_count = 0
    base_low, base_high = 99, -99
    base_bits = 0
    base_dup = False
    base_first = 0
    day = v.day
    base_phased = True
    for c in v.table:
        if c < _WILD and _IS_DAY[c] != day:
            base_phased = False
        x = v.value_of(c)
        if base_count == 0:
            base_first = x
        base_dup = base_dup or (base_bits >> x & 1) != 0
        base_bits |= one << x
        base_total += x
        base_count += 1
        base_low = min(base_low, x)
        base_high = max(base_high, x)
    hand = sorted((c for c in v.hand if c < _WILD), key=lambda c: (-_NUMBER[c], c))
    numbers = [_NUMBER[c] for c in hand]
    worths = [_CARD_WORTH[c] for c in hand]
    days = [_IS_DAY[c] == day for c in hand]
    m = len(hand)
    has_wild = v.wild in v.hand and v.wild not in v.table
    effects = _Effects(v)
    effect_worths = effects.worths
    is_open = effects.open
    top = effects.top
    pos = v.pos
    best: _Plan | None = None
    bar = -math.inf
    """A way is kept only if it is worth more than this (the best so far, and a little)."""
    for size in range(0, _MAX_PICK + 1):
        for ways in itertools.combinations(range(m), size):
            cost = 0.0
            for i in ways:
                worth = worths[i]
                cost += worth
            if top - cost <= bar:
                continue
            total, count, low, high, bits, dup = base_total, base_count, base_low, base_high, base_bits, base_dup
            first = base_first
            phased = base_phased
            for i in ways:
                x = numbers[i]
                if count == 0:
                    first = x
                dup = dup or (bits >> x & 1) != 0
                bits |= one << x
                total += x
                count += 1
                if x < low:
                    low = x
                if x > high:
                    high = x
                phased = phased and days[i]
            options = _wild_options(pos, total, count, first, low, high, bits) if has_wild else 0
            w = 0  # 0: the way without the wild card, then each number worth naming it
            while True:
                if w == 0:
                    f_total, f_count, f_low, f_high, f_dup, extra = total, count, low, high, dup, 0.0
                else:
                    f_total, f_count, f_dup, extra = total + w, count + 1, dup or (bits >> w & 1) != 0, _WILD_WORTH
                    f_low = w if w < low else low
                    f_high = w if w > high else high
                if f_count and top - cost - extra <= bar:
                    f_count = 0  # no effect of it could be kept
                if f_count:
                    kinds = _kinds(pos, f_total, f_count, f_dup, f_low, f_high, phased) & is_open
                    kind = 0
                    while kinds:
                        if kinds & 1:
                            worth = effect_worths[kind]
                            net = worth - cost - extra
                            if best is None or net > bar:
                                cards = tuple([hand[i] for i in ways])
                                best = _Plan(cards, None if w == 0 else w, effects.names[kind], net)
                                bar = net + 1e-9
                        kinds >>= 1
                        kind += 1
                if not options:
                    break
                w += 1  # the next number worth naming the wild card
                while not options >> w & 1:
                    w += 1
                options ^= one << w
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
