"""The abstract table of a First Druid resampling run (``resample``): the hidden steps
played out before any card is named.

A card another seat draws unseen is a *token* of the deck it came from (every card in that
deck that no seat saw drawn, turned or shown since is alike to it); a drain takes one item
(token or card known to be there) of the victim's hand. When a seat shows a card (plays,
discards, bids, offers, trades it, or it is drained before the seat's eyes) that was not known
to be in its hand, one of its tokens of that card's deck becomes that card. At the end, the
tokens left are dealt the cards of their decks that were never seen again. Choices are made
only among the items that keep the rest possible: a card known in a hand must still reach
where it is seen next (its "reach", from a backward pass over the hidden steps), and every
seat must keep enough tokens of each deck for the cards it shows later (counted against the
draws and drains still to come).
"""

from __future__ import annotations

import random
from bisect import bisect_left
from collections.abc import Iterable

from henge.games.first_druid.actions import ACCEPT
from henge.games.first_druid.skeleton import (
    AUTO,
    COMPOSE,
    HBID,
    HDRAIN,
    HDRAW,
    Dead,
    Plan,
    Retry,
    deck_of,
    reach_at,
    stretch_at,
)
from henge.games.first_druid.trail import T_ANSWER, T_BID, T_DISCARD, T_DRAIN, T_PICK, T_REFILL, Entry

_CHOICES = 400
"""How many drain choices one run may try (taking back those that lead nowhere)."""


_Saved = tuple[list[list[int]], int, list[int], int, int]
_NO_BANS: frozenset[int] = frozenset()
"""A token's bans until its hand is first asked for a card (most never are)."""


class _Table:
    """The abstract table of one run: each other seat's hand as items (a card known to be
    there, or a token: ``-1 - k`` for token ``k``), and the tokens' decks, bans and cards."""

    def __init__(self, plan: Plan, n: int, rng: random.Random) -> None:
        self.plan = plan
        self.n = n
        self.rng = rng
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.token_deck: list[int] = []
        self.token_card: list[int] = []  # -1 until the token is named
        self.banned: list[set[int] | frozenset[int]] = []  # cards a token cannot be (its hand asked for them)
        self.bans: list[tuple[int, int]] = []  # the bans in the order they came (to take back)
        self.deck = 0

    def save(self) -> _Saved:
        return ([h[:] for h in self.hands], len(self.token_deck), self.token_card[:], len(self.bans), self.deck)

    def restore(self, saved: _Saved) -> None:
        hands, count, cards, bans, deck = saved
        for h, old in zip(self.hands, hands, strict=True):
            h[:] = old
        del self.token_deck[count:]
        del self.banned[count:]
        self.token_card[:] = cards
        while len(self.bans) > bans:
            k, card = self.bans.pop()
            banned = self.banned[k] if k < count else None
            if isinstance(banned, set):  # a ban made it one
                banned.discard(card)
        self.deck = deck

    def ban(self, k: int, card: int) -> None:
        banned = self.banned[k]
        if card not in banned:
            if isinstance(banned, set):
                banned.add(card)
            else:  # _NO_BANS
                self.banned[k] = {card}
            self.bans.append((k, card))

    def take(self, seat: int, card: int, pos: int, keep: bool = False) -> int:
        """Finds ``card`` in the seat's hand (naming a token of its deck if need be); removes it
        unless ``keep``, and returns the item it was."""
        hand = self.hands[seat]
        if card in hand:
            if not keep:
                hand.remove(card)
            return card
        x = self.name_token(hand, card, deck_of(self.plan, card, pos))
        if keep:
            hand.append(card)
        return x

    def name_token(self, hand: list[int], card: int, deck: int) -> int:
        """Names as ``card`` a token of ``deck`` (-1: none can be) in ``hand``, any not banned
        from it, each as likely; takes it out of the hand and returns it."""
        if deck < 0:
            raise Dead
        token_deck = self.token_deck
        banned = self.banned
        options = [x for x in hand if x < 0 and token_deck[-1 - x] == deck and card not in banned[-1 - x]]
        if not options:
            raise Dead
        x = self.rng.choice(sorted(options))
        self.token_card[-1 - x] = card
        hand.remove(x)
        return x

    def holding(self, seat: int) -> list[int]:
        """Returns the seat's tokens per deck."""
        have = [0] * len(self.plan.pools)
        for x in self.hands[seat]:
            if x < 0:
                have[self.token_deck[-1 - x]] += 1
        return have


def _owed(plan: Plan, seat: int, deck: int, have: int, pos: int) -> tuple[int, ...]:
    """Returns by when drains into the seat must have brought it tokens of ``deck`` (one entry
    per token), holding ``have`` of them after step ``pos``: its own draws of that deck cover
    what they can of the cards it shows later."""
    later = plan.demands[seat][deck]
    if not later or later[-1] <= pos:
        return ()
    k = bisect_left(later, pos + 1)
    spare = have - bisect_left(plan.draws_in[seat][deck], pos + 1)
    key = (seat, deck, k, spare)  # all the answer depends on
    owed = plan.owed.get(key)
    if owed is None:
        before = plan.draws_before[seat][deck]
        found: list[int] = []
        most = 0
        for j in range(k, len(later)):
            need = j - k + 1 - spare - before[j]
            if need > most:
                found += [later[j]] * (need - most)
                most = need
        owed = plan.owed[key] = tuple(found)
    return owed


def _fits(plan: Plan, seat: int, owed: Iterable[tuple[int, ...]], drains_from: int) -> bool:
    """True if the drains into the seat from step ``drains_from`` on, one token each, can bring
    what ``owed`` (per deck) asks in time (earliest deadline first)."""
    every = sorted(end for lst in owed for end in lst)
    if not every:
        return True
    into = plan.drains_into[seat]
    base = bisect_left(into, drains_from)
    return all(bisect_left(into, end) - base >= j for j, end in enumerate(every, 1))


def _owing(plan: Plan, seat: int, pos: int) -> list[int]:
    """Returns the decks of which the seat still shows cards after step ``pos``."""
    return [d for d, later in enumerate(plan.demands[seat]) if later and later[-1] > pos]


def play_out(n: int, plan: Plan, rng: random.Random) -> dict[int, int]:
    """Plays the hidden steps out on an abstract table; returns the card of each hidden step.

    A drain's choice that leads to a dead end later is taken back (depth first, the other
    choices in random order) within a budget of choices; past it, the run is given up."""
    table = _Table(plan, n, rng)
    chosen: dict[int, int] = {}  # hidden step -> item moved (a card, or a token to name later)
    token_step: dict[int, int] = {}  # hidden draw step -> its token
    budget = [_CHOICES]
    live = plan.live
    if live is None:
        live = plan.live = _live_steps(plan)
    if not _walk(table, plan, live, 0, chosen, token_step, budget):
        raise Retry
    cards: dict[int, int] = {}
    for pos, k in token_step.items():
        cards[pos] = table.token_card[k]
    for pos, x in chosen.items():
        cards[pos] = x if x >= 0 else table.token_card[-1 - x]
    return cards


_DRAW, _DRAIN, _BID, _COMPOSE_STEP, _REFILL, _SEEN_DRAIN, _SHOWN, _TRADE = range(8)
"""What a step does on the abstract table (see :func:`_live_steps`)."""


def _live_steps(plan: Plan) -> list[tuple[int, int, Entry, int]]:
    """Returns the steps that change the abstract table, as (what it does, step, entry, and for
    a card another seat shows, the deck it came from if it was not known in that hand: -1 if
    none can be): the others (the plan's seat's own moves, turns beginning and ending, effects...)
    leave the table as it is."""
    s = plan.seat
    live = []
    for pos, (code, e) in enumerate(plan.steps):
        kind, action, actor = e[0], e[1], e[2]
        if code == HDRAW:
            live.append((_DRAW, pos, e, -1))
        elif code == HDRAIN:
            live.append((_DRAIN, pos, e, -1))
        elif code == HBID:
            live.append((_BID, pos, e, -1))
        elif code == COMPOSE:
            live.append((_COMPOSE_STEP, pos, e, -1))
        elif code == AUTO:
            if kind == T_REFILL:
                live.append((_REFILL, pos, e, -1))
        elif kind == T_DRAIN:  # before the seat's eyes
            live.append((_SEEN_DRAIN, pos, e, -1))
        elif kind in (T_PICK, T_DISCARD, T_BID) and actor != s:
            try:
                deck = deck_of(plan, e[3], pos)
            except Dead:  # the card is not where the record leaves it: no token can be it
                deck = -1
            live.append((_SHOWN, pos, e, deck))
        elif kind == T_ANSWER and action == ACCEPT:
            live.append((_TRADE, pos, e, -1))
    return live


def _walk(
    table: _Table,
    plan: Plan,
    live: list[tuple[int, int, Entry, int]],
    start: int,
    chosen: dict[int, int],
    token_step: dict[int, int],
    budget: list[int],
) -> bool:
    """Plays the live steps from ``start`` on; True once every token is named."""
    hands = table.hands
    rng = table.rng
    token_deck = table.token_deck  # the table's lists change in place only, so these stay its
    token_card = table.token_card
    banned = table.banned
    s = plan.seat
    try:
        for i in range(start, len(live)):
            what, pos, e, deck = live[i]
            _, _, actor, a, b, cs = e
            if what == _DRAW:  # a new token of the deck
                k = len(token_deck)
                token_deck.append(table.deck)
                token_card.append(-1)
                banned.append(_NO_BANS)
                hands[actor].append(-1 - k)
                token_step[pos] = k
            elif what == _DRAIN:
                options = _drain_items(table, plan, a, actor, pos)
                rng.shuffle(options)
                for x in options:
                    budget[0] -= 1
                    if budget[0] < 0:
                        raise Retry
                    saved = table.save()
                    hands[a].remove(x)
                    hands[actor].append(x)
                    chosen[pos] = x
                    if _walk(table, plan, live, i + 1, chosen, token_step, budget):
                        return True
                    table.restore(saved)
                return False
            elif what == _BID:
                x = rng.choice(sorted(hands[actor]))  # the contest still runs: nothing is shown after
                hands[actor].remove(x)
                chosen[pos] = x
            elif what == _COMPOSE_STEP:
                for c in b:
                    table.take(actor, c, pos, keep=True)
                for c in cs:
                    if c in hands[actor]:
                        return False
                    for x in hands[actor]:
                        if x < 0:
                            table.ban(-1 - x, c)
            elif what == _REFILL:
                table.deck += 1
            elif what == _SEEN_DRAIN:
                card = b[0]
                if a != s:
                    table.take(a, card, pos)
                if actor != s:
                    hands[actor].append(card)
            elif what == _SHOWN:  # table.take(actor, a, pos), the deck known
                hand = hands[actor]
                if a in hand:
                    hand.remove(a)
                    continue
                # table.name_token(hand, a, deck), inlined: where the walk backtracks most this
                # is its commonest step, and the call cost a tenth of the walk's time there
                if deck < 0:
                    raise Dead
                options = [x for x in hand if x < 0 and token_deck[-1 - x] == deck and a not in banned[-1 - x]]
                if not options:
                    raise Dead
                options.sort()
                x = rng.choice(options)
                token_card[-1 - x] = a
                hand.remove(x)
            else:  # _TRADE
                author, target = a, actor
                for c in b:
                    if author != s:
                        table.take(author, c, pos)
                    if target != s:
                        hands[target].append(c)
                for c in cs:
                    if target != s:
                        table.take(target, c, pos)
                    if author != s:
                        hands[author].append(c)
        _name_tokens(table, plan)
    except Dead:
        return False
    return True


def _drain_items(table: _Table, plan: Plan, victim: int, taker: int, pos: int) -> list[int]:
    """Returns the items a hidden drain may take (any item of the victim's hand, each as
    likely, that keeps the rest possible), sorted."""
    theirs = tuple(table.holding(taker))
    key = (pos, taker, theirs)
    if key in plan.wanted:
        wanted = plan.wanted[key]
    else:
        wanted = plan.wanted[key] = _wanted(plan, taker, theirs, pos)
    if wanted is not None and not wanted:
        return []
    mine = tuple(table.holding(victim))
    key = (pos, victim, mine)
    keep = plan.keep.get(key)
    if keep is None:
        keep = plan.keep[key] = _keep(plan, victim, mine, pos)
    forced = []
    allowed = []
    token_deck = table.token_deck
    nxt = pos + 1
    for x in table.hands[victim]:
        if x < 0:
            deck = token_deck[-1 - x]
            if deck in keep and (wanted is None or deck in wanted):
                allowed.append(x)
            continue
        st = stretch_at(plan, x, pos)
        reach = reach_at(plan, x, st, nxt) if st.goal is not None or plan.notins[x] else -1
        if not reach >> victim & 1:
            forced.append(x)
        if reach >> taker & 1 and wanted is None:
            allowed.append(x)
    if forced:
        return forced if len(forced) == 1 and forced[0] in allowed else []
    return sorted(allowed)


def _wanted(plan: Plan, taker: int, theirs: tuple[int, ...], pos: int) -> list[int] | None:
    """Returns the decks of which the taker of a hidden drain at step ``pos``, holding ``theirs``
    tokens of each deck, needs a token that only this drain can still bring it (None: it needs
    none; empty: it needs one this drain cannot bring). Only the decks it shows cards of later
    can owe anything."""
    decks = _owing(plan, taker, pos)
    if not decks:
        return None
    nxt = pos + 1
    owed = {d: _owed(plan, taker, d, theirs[d], pos) for d in decks}
    if _fits(plan, taker, owed.values(), nxt):
        return None
    wanted = []
    for d in decks:
        lst = owed[d]
        if lst:
            owed[d] = lst[1:]
            if _fits(plan, taker, owed.values(), nxt):
                wanted.append(d)
            owed[d] = lst
    return wanted


def _keep(plan: Plan, victim: int, mine: tuple[int, ...], pos: int) -> list[int]:
    """Returns the decks of which the victim of a hidden drain at step ``pos``, holding ``mine``
    tokens of each deck, can give up a token and still show every card it shows later."""
    nxt = pos + 1
    owed = {d: _owed(plan, victim, d, mine[d], pos) for d in _owing(plan, victim, pos)}
    fit: bool | None = None  # whether what the victim owes now fits
    keep = []
    for d in range(len(mine)):
        if mine[d]:
            if d in owed:
                saved = owed[d]
                owed[d] = _owed(plan, victim, d, mine[d] - 1, pos)
                if _fits(plan, victim, owed.values(), nxt):
                    keep.append(d)
                owed[d] = saved
            else:  # it shows no more cards of this deck: one token fewer changes nothing owed
                if fit is None:
                    fit = _fits(plan, victim, owed.values(), nxt)
                if fit:
                    keep.append(d)
    return keep


def _name_tokens(table: _Table, plan: Plan) -> None:
    """Deals the tokens not named yet the cards of their decks that were never seen again
    (a random matching that respects each token's bans)."""
    rng = table.rng
    named: list[set[int]] = [set() for _ in plan.pools]
    unnamed: list[list[int]] = [[] for _ in plan.pools]
    for k, (deck, c) in enumerate(zip(table.token_deck, table.token_card, strict=True)):
        if c >= 0:
            named[deck].add(c)
        else:
            unnamed[deck].append(k)
    last = len(plan.pools) - 1
    for deck, pool in enumerate(plan.pools):
        seen = named[deck]
        free = [c for c in pool if c not in seen]
        tokens = unnamed[deck]
        if len(tokens) > len(free) or (deck < last and len(tokens) != len(free)):
            raise Dead
        rng.shuffle(free)
        owner: dict[int, int] = {}
        order = tokens[:]
        rng.shuffle(order)
        for k in order:
            if not _place(table, free, owner, k, set()):
                raise Dead
        for c, k in owner.items():
            table.token_card[k] = c


def _place(table: _Table, free: list[int], owner: dict[int, int], k: int, seen: set[int]) -> bool:
    """Kuhn's augmenting path: gives token ``k`` one of the ``free`` cards it may be."""
    for c in free:
        if c in table.banned[k] or c in seen:
            continue
        seen.add(c)
        j = owner.get(c, -1)
        if j < 0 or _place(table, free, owner, j, seen):
            owner[c] = k
            return True
    return False
