"""Resampling in First Druid (G3, G6, FD13, FD15): drawing a state from a seat's information
set (``resample_from_infostate``'s body).

The plan of what the seat's record fixes (``skeleton``) is made once per position and seat and
cached on the trail (its head block's memo), and so is what the choices consult that depends only on it (what a seat
still owes of each deck for the tokens it holds, which deck a shown card came from, the steps
that change the table), so the many samples a search draws at one decision share that work.
None of it changes a draw. The hidden steps are played out on an abstract table (``tokens``);
a run that still meets a dead end is discarded whole; the named history is replayed from the
start, and the last check is the seat's record itself, so a returned state is always one the
seat cannot tell from the real one. See ``docs/games/first_druid.md``.
"""

from __future__ import annotations

import random
from typing import Any, TypeVar

from henge.core import IllegalActionError, Trail, made, replayed_record, trail_entries
from henge.games.first_druid.actions import ASK, BID, DRAIN, GIVE, MAX_OFFERS, OFFER, SEND, TURN, TURNS, WITHDRAW
from henge.games.first_druid.observation import seat_check
from henge.games.first_druid.position import Position
from henge.games.first_druid.skeleton import COMPOSE, FIXED, HBID, HDRAIN, HDRAW, Plan, Retry, build_plan
from henge.games.first_druid.tokens import play_out
from henge.games.first_druid.trail import freeze

_P = TypeVar("_P", bound=Position)
"""The state class resampled (a sample is a state of the same class)."""

_TRIES = 2000
"""How many runs one resampling may try before it gives up."""


def _rooted_trail(state: Position) -> Trail | None:
    """Returns the trail of the state's whole history, rebuilt by replay for a loaded state."""
    trail = freeze(state)
    if state.rooted and (trail.count if trail is not None else 0) == state.move_number():
        return trail
    again = state.game.new_initial_state()
    try:
        for action in state.history():
            again.apply_action(action)
    except IllegalActionError:
        again = None  # type: ignore[assignment]
    if again is None or again._fields() != state._fields():
        raise ValueError(
            "first_druid: this position was loaded without the history that reached it, so no seat's "
            "record exists to resample from; load it with its history (G6, G7)"
        )
    state.trail = freeze(again)  # type: ignore[arg-type]
    state.trail_tail = []
    state.rooted = True
    return state.trail


def _plan(state: Position, seat: int) -> Plan:
    """Returns the seat's plan for the state, made once and cached on its trail."""
    head = _rooted_trail(state)
    if head is not None and head.memo is not None and seat in head.memo:
        return head.memo[seat]
    plan = build_plan(state, seat, trail_entries(head))
    if head is not None:
        node = head.parent
        while node is not None:  # the plans of earlier positions serve nothing now: let them go
            node.memo = None
            node = node.parent
        if head.memo is None:
            head.memo = {}
        head.memo[seat] = plan
    return plan


def resample(state: _P, player: int, rng: random.Random) -> _P:
    """Returns a state reached by a legal history in which ``player`` saw exactly what it saw
    in ``state`` (its record is equal), every card hidden from it re-drawn (G3, G6)."""
    seat_check(state, player)
    if player is None:
        raise ValueError("resampling is for a seat, not a spectator")
    plan = _plan(state, player)
    target = plan.record
    if target is None:
        target = plan.record = state.information_state(player)
    for _ in range(_TRIES):
        try:
            cards = play_out(state.n, plan, rng)
            new = _name(state, plan, player, rng, cards)
        except Retry:
            continue
        if _same_record(new, player, target):
            new._log = replayed_record(new.game, new.history())  # made again only if read
            return new
    raise RuntimeError(f"first_druid: no history consistent with seat {player}'s record was found")


def _same_record(state: Position, seat: int, record: list[list[Any]]) -> bool:
    """True if the seat's record in ``state`` is ``record`` (as ``information_state`` gives it):
    the entries compared newest first, without making their list or their digest."""
    i = len(record)
    node = made(state._log)
    while node is not None:
        private = node.private
        text = private.get(seat) if private is not None else None
        if text is None:
            text = node.public
        if text is not None:
            i -= 1
            if i < 0:
                return False
            actor, seen = record[i]
            if seen != text or actor != node.actor:
                return False
        node = made(node.parent)
    return i == 0


def _name(state: _P, plan: Plan, s: int, rng: random.Random, cards: dict[int, int]) -> _P:
    """Replays the skeleton with every hidden card named, and the turn under way's unmade
    offers (FD15); returns the state it reaches."""
    n = state.n
    new = state.game.new_initial_state()
    assert isinstance(new, type(state))

    # the turn under way (FD15): unmade offers of another seat, withdrawn, and one being made now
    compose = plan.compose_now and rng.random() < 0.5
    withdrawn = rng.randint(0, MAX_OFFERS - plan.sent - (1 if compose else 0)) if plan.current >= 0 else 0
    inserted = plan.current < 0

    def moment() -> bool:
        a = plan.current
        return (
            new.phase == TURN
            and new.stage == TURNS
            and new.player == a
            and new.turn == state.turn
            and new.neutral == state.neutral
            and not new.table
            and new.offer_to < 0
            and new.offers < MAX_OFFERS
            and bool(new.hands[a])
            and any(new.hands[k] for k in range(n) if k != a)
        )

    def withdraw_offers() -> None:
        a = plan.current
        for _ in range(withdrawn):
            targets = [k for k in range(n) if k != a and new.hands[k]]
            new._apply_known(OFFER + rng.choice(targets))
            new._apply_known(WITHDRAW)

    apply = new._apply_known  # each action is legal by construction (the record is checked at the end)
    last_begin = plan.last_begin
    for pos, (code, e) in enumerate(plan.steps):
        if not inserted and pos > last_begin and moment():
            withdraw_offers()
            inserted = True
        if code == FIXED:
            apply(e[1])
            continue
        _, _, actor, a, b, cs = e
        if code == HDRAW:
            card = cards[pos]
            if card not in new.draw:
                raise Retry
            apply(card)
        elif code == HDRAIN:
            if cards[pos] not in new.hands[a]:
                raise Retry
            apply(DRAIN + cards[pos])
        elif code == HBID:
            if cards[pos] not in new.hands[actor]:
                raise Retry
            apply(BID + cards[pos])
        elif code == COMPOSE:
            apply(OFFER + a)
            for c in b:
                apply(GIVE + c)
            for c in cs:
                apply(ASK + c)
            apply(SEND)
    if not inserted:
        if moment():
            withdraw_offers()
        elif compose:
            raise Retry
    if compose:
        _compose(new, plan.current, rng)
    if new.phase == TURN and new.table and new.player != s and not new.legal_actions():
        raise Retry  # the cards picked so far must still make a combination (FD6)
    return new


def _compose(new: Position, a: int, rng: random.Random) -> None:
    """Puts together an offer of seat ``a`` not yet sent (FD15): any target, any given cards,
    any asked cards."""
    targets = [k for k in range(new.n) if k != a and new.hands[k]]
    k = rng.choice(targets)
    new._apply_known(OFFER + k)
    hand = sorted(new.hands[a])
    for c in sorted(rng.sample(hand, rng.randint(0, len(hand)))):
        new._apply_known(GIVE + c)
    asks = sorted(x - ASK for x in new.legal_actions() if ASK <= x < SEND)
    count = rng.randint(0, min(len(new.hands[k]), len(asks)))
    for c in sorted(rng.sample(asks, count)):
        new._apply_known(ASK + c)
