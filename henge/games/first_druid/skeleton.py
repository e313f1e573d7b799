"""What one seat's record fixes in First Druid, for resampling (``resample``): the skeleton
of the history, each card's stretches between the moments the seat knows where it is, the
decks, and what each seat shows later from each deck.

The seat's record fixes every action it saw; what it did not see is re-drawn: another seat's
draws, the drains it took no part in, the face-down bids of the contest still running, and
another seat's offers until they are sent (FD15). The steps of the history (the "skeleton")
keep the visible actions as they were and mark the hidden ones.
"""

from __future__ import annotations

from bisect import bisect_left
from typing import TYPE_CHECKING, Any

from henge import box
from henge.games.first_druid.actions import ACCEPT, MAX_OFFERS, OVER, TURN, TURNS
from henge.games.first_druid.trail import (
    T_ANSWER,
    T_ASK,
    T_BEGIN,
    T_BID,
    T_DISCARD,
    T_DRAIN,
    T_DRAW,
    T_GIVE,
    T_OFFER,
    T_PICK,
    T_REFILL,
    T_REVEAL,
    T_SEND,
    T_TURN,
    T_WITHDRAW,
    Entry,
)

if TYPE_CHECKING:
    from henge.games.first_druid.position import Position

FIXED, COMPOSE, HDRAW, HDRAIN, HBID, AUTO = range(6)
"""How the skeleton marks a step: seen as it was; another seat's offer, put together out of
sight (FD15); another seat's draw; a drain the seat took no part in; a face-down bid of the
contest still running; an automatic event."""


class Retry(Exception):
    """This run met a dead end: start again."""


class Dead(Exception):
    """This branch of a run met a dead end: take back the last choice."""


class Stretch:
    """Where a card is between two anchors: from ``start`` (after that step) in place ``place``
    to ``end`` (before that step) in place ``goal`` (None: the present, anywhere)."""

    __slots__ = ("changes", "end", "goal", "place", "points", "start")

    def __init__(self, start: int, place: int, end: int, goal: int | None) -> None:
        self.start = start
        self.place = place
        self.end = end
        self.goal = goal
        self.points: list[int] | None = None  # positions where reach changes, ascending
        self.changes: list[int] = []  # reach before each of those positions


class Plan:
    """What one seat's record fixes: the skeleton, each card's stretches, the decks, and what
    each seat must show later from each deck."""

    __slots__ = (
        "compose_now",
        "current",
        "deck_of",
        "demands",
        "drains",
        "drains_into",
        "draws_before",
        "draws_in",
        "everywhere",
        "keep",
        "last_begin",
        "live",
        "notins",
        "owed",
        "pools",
        "record",
        "refills",
        "seat",
        "seen_from",
        "sent",
        "slots",
        "steps",
        "stretches",
        "wanted",
    )

    def __init__(self) -> None:
        self.steps: list[tuple[int, Entry]] = []
        self.stretches: list[list[Stretch]] = []
        self.notins: list[list[tuple[int, int]]] = []  # per card: (step, seat it is not in)
        self.slots: list[list[int]] = []  # per seat: its hidden draws
        self.drains: list[tuple[int, int, int]] = []  # hidden drains: (step, victim, taker)
        self.drains_into: list[list[int]] = []  # per seat: hidden drains it takes by
        self.refills: list[int] = []
        self.everywhere = 0  # every place a card out of the seat's sight may be
        self.pools: list[list[int]] = []  # per deck: its cards no seat saw leave it
        self.deck_of: dict[tuple[int, int], int] = {}  # (card, its stretch's start) -> deck
        self.demands: list[list[list[int]]] = []  # per seat and deck: when it shows such a card
        self.draws_in: list[list[list[int]]] = []  # per seat and deck: its hidden draws
        self.draws_before: list[list[list[int]]] = []  # per seat, deck and demand: draws before it
        self.current = -1  # the other seat whose turn is under way, or -1
        self.last_begin = 0  # the step at which that turn began
        self.sent = 0  # the offers it sent in it
        self.compose_now = False  # whether it may be putting an offer together now
        self.record: list[list[Any]] | None = None  # the seat's record, read once
        self.live: list[tuple[int, int, Entry, int]] | None = None  # the steps that change the abstract table
        self.seat = -1  # whose record it is
        self.owed: dict[tuple[int, int, int, int], tuple[int, ...]] = {}  # what _owed found
        self.wanted: dict[tuple[int, int, tuple[int, ...]], list[int] | None] = {}  # what _wanted found
        self.keep: dict[tuple[int, int, tuple[int, ...]], list[int]] = {}  # what _keep found
        self.seen_from: dict[tuple[int, int], int] = {}  # what deck_of found


def build_plan(state: Position, s: int, entries: list[Entry]) -> Plan:
    n = state.n
    pile = n
    plan = Plan()
    plan.seat = s
    last_reveal = max((i for i, e in enumerate(entries) if e[0] == T_REVEAL), default=-1)
    steps: list[tuple[int, Entry]] = []
    for i, e in enumerate(entries):
        kind, actor = e[0], e[2]
        if kind == T_DRAW:
            steps.append((FIXED if actor == s else HDRAW, e))
        elif kind == T_DRAIN:
            steps.append((FIXED if s in (actor, e[3]) else HDRAIN, e))
        elif kind in (T_OFFER, T_GIVE, T_ASK, T_WITHDRAW):
            if actor == s:
                steps.append((FIXED, e))
        elif kind == T_SEND:
            steps.append((FIXED if actor == s else COMPOSE, e))
        elif kind == T_BID:
            steps.append((FIXED if actor == s or i < last_reveal else HBID, e))
        elif kind in (T_REFILL, T_REVEAL, T_BEGIN):
            steps.append((AUTO, e))
        else:
            steps.append((FIXED, e))
    plan.steps = steps
    size = len(steps)

    # anchors: per card, its stretches between the moments the seat knows where it is
    public = -1
    start = [-1] * box.DECK_SIZE
    place = [public] * box.DECK_SIZE
    for c in state.deck:
        place[c] = pile
    stretches: list[list[Stretch]] = [[] for _ in range(box.DECK_SIZE)]
    notins: list[list[tuple[int, int]]] = [[] for _ in range(box.DECK_SIZE)]
    slots: list[list[int]] = [[] for _ in range(n)]
    drains: list[tuple[int, int, int]] = []
    refills: list[int] = []
    begins: list[int] = []
    seen_in_deck: list[set[int]] = [set()]  # per deck: cards seen leaving it (drawn by the seat, turned)

    def anchor(c: int, pos: int, where: int) -> None:
        if place[c] != public:
            stretches[c].append(Stretch(start[c], place[c], pos, where))
        place[c] = public

    def after(c: int, pos: int, where: int) -> None:
        start[c] = pos
        place[c] = where

    pools = [set(state.deck)]
    for pos, (code, e) in enumerate(steps):
        kind, action, actor, a, b, cs = e
        if code == HDRAW:
            slots[actor].append(pos)
        elif code == HDRAIN:
            drains.append((pos, a, actor))  # victim, taker
        elif code == AUTO:
            if kind == T_REFILL:
                refills.append(pos)
                pools.append(set(b))
                seen_in_deck.append(set())
                for c in b:
                    after(c, pos, pile)
            elif kind == T_BEGIN:
                begins.append(pos)
        elif code == COMPOSE:
            for c in b:
                anchor(c, pos, actor)
                after(c, pos, actor)
            for c in cs:
                notins[c].append((pos, actor))
        elif code == FIXED:
            if kind == T_DRAW:
                anchor(a, pos, pile)
                after(a, pos, actor)
                seen_in_deck[-1].add(a)
            elif kind == T_TURN:
                anchor(a, pos, pile)
                seen_in_deck[-1].add(a)
            elif kind == T_DRAIN:
                anchor(b[0], pos, a)
                after(b[0], pos, actor)
            elif kind in (T_PICK, T_DISCARD, T_BID):
                anchor(a, pos, actor)
            elif kind == T_ANSWER and action == ACCEPT:
                for c in b:
                    anchor(c, pos, a)
                    after(c, pos, actor)
                for c in cs:
                    anchor(c, pos, actor)
                    after(c, pos, a)
    for c in range(box.DECK_SIZE):
        if place[c] != public:
            stretches[c].append(Stretch(start[c], place[c], size, None))
    plan.stretches = stretches
    plan.notins = notins
    plan.slots = slots
    plan.drains = drains
    plan.refills = refills
    everywhere = 1 << pile
    for h in range(n):
        if h != s:
            everywhere |= 1 << h
    plan.everywhere = everywhere

    # the decks: what each holds that no seat saw leave it; what each seat shows later from each
    plan.pools = [sorted(pool - seen) for pool, seen in zip(pools, seen_in_deck, strict=True)]
    starts = [-1, *refills]
    deck_of: dict[tuple[int, int], int] = {}  # (card, the stretch's start) -> deck, for cards out of a pile
    demands: list[list[list[int]]] = [[[] for _ in starts] for _ in range(n)]
    for c in range(box.DECK_SIZE):
        for st in stretches[c]:
            if st.place == pile and st.goal is not None and st.goal != pile:
                deck = starts.index(st.start)
                deck_of[(c, st.start)] = deck
                demands[st.goal][deck].append(st.end)
    for per_seat in demands:
        for lst in per_seat:
            lst.sort()
    plan.deck_of = deck_of
    plan.demands = demands
    plan.draws_in = [[[e for e in slots[h] if _deck_at(refills, e) == k] for k in range(len(starts))] for h in range(n)]
    plan.draws_before = [
        [[bisect_left(plan.draws_in[h][k], end) for end in demands[h][k]] for k in range(len(starts))] for h in range(n)
    ]
    plan.drains_into = [[d for d, _, t in drains if t == h] for h in range(n)]

    # the turn under way, if another seat's: its unmade offers are re-drawn (FD15)
    plan.current = -1
    plan.last_begin = begins[-1] if begins else size
    plan.sent = 0
    plan.compose_now = False
    active = state.active()
    if state.stage == TURNS and not state.ending and state.phase != OVER and active != s and begins:
        plan.current = active
        plan.sent = sum(1 for code, e in steps[plan.last_begin :] if code == COMPOSE)
        others = any(state.hands[k] for k in range(n) if k != active)
        plan.compose_now = (
            state.phase == TURN and not state.table and bool(state.hands[active]) and others and plan.sent < MAX_OFFERS
        )
    return plan


def _deck_at(refills: list[int], pos: int) -> int:
    """Returns which deck (0: the first; k: after the k-th refill) the draw pile is at ``pos``."""
    return bisect_left(refills, pos)


def _compute_reach(plan: Plan, c: int, st: Stretch) -> None:
    """Fills ``st.points``/``st.changes``: the places from which card ``c`` can still meet its
    next anchor (and the asks on the way), before each step of the stretch."""
    deck_bit = 1 << (len(plan.slots))
    reach = plan.everywhere if st.goal is None else 1 << st.goal
    points = [st.end]
    changes = [reach]
    cur = st.end
    drains = plan.drains
    dpos = [d[0] for d in drains]
    di = bisect_left(dpos, cur) - 1
    refills = plan.refills
    ri = bisect_left(refills, cur) - 1
    notins = [x for x in plan.notins[c] if st.start < x[0] < st.end]
    ni = len(notins) - 1
    slots = plan.slots
    while True:
        best = st.start
        what = 0
        if di >= 0 and dpos[di] > best:
            best, what = dpos[di], 1
        if ri >= 0 and refills[ri] > best:
            best, what = refills[ri], 2
        if ni >= 0 and notins[ni][0] > best:
            best, what = notins[ni][0], 3
        if not reach & deck_bit:
            for h, pos_list in enumerate(slots):
                if reach >> h & 1:
                    k = bisect_left(pos_list, cur) - 1
                    if k >= 0 and pos_list[k] > best:
                        best, what = pos_list[k], 4
        if what == 0:
            break
        before = reach
        if what == 1:
            _, victim, taker = drains[di]
            if reach >> taker & 1:
                reach |= 1 << victim
            di -= 1
        elif what == 2:
            reach &= ~deck_bit
            ri -= 1
        elif what == 3:
            reach &= ~(1 << notins[ni][1])
            ni -= 1
        else:
            reach |= deck_bit
        if reach != before:
            points.append(best)
            changes.append(reach)
        cur = best
    points.reverse()
    changes.reverse()
    st.points = points
    st.changes = changes


def reach_at(plan: Plan, c: int, st: Stretch, pos: int) -> int:
    """Returns the places (bitmask: seats, then the pile) from which card ``c`` of stretch ``st``
    can still meet its next anchor, just before step ``pos``."""
    if st.points is None:
        _compute_reach(plan, c, st)
    points = st.points
    assert points is not None
    return st.changes[bisect_left(points, pos)]


def deck_of(plan: Plan, c: int, pos: int) -> int:
    """Returns the deck card ``c``, seen at step ``pos``, came from unseen (-1: none)."""
    key = (c, pos)
    deck = plan.seen_from.get(key)
    if deck is None:
        deck = plan.seen_from[key] = plan.deck_of.get((c, stretch_at(plan, c, pos).start), -1)
    return deck


def stretch_at(plan: Plan, c: int, pos: int) -> Stretch:
    """Returns card ``c``'s stretch around step ``pos`` (out of sight there, or seen there again)."""
    for st in plan.stretches[c]:
        if st.start < pos <= st.end:
            return st
    raise Dead  # not where the record leaves it
