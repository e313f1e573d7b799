"""Who knows which card in First Druid (G3, FD2, FD13): the observation and the resampler.

Besides its own hand, a seat may know cards in other hands:

* publicly (``state.pub[h]``, a bitmask of card ids): a card shown in a trade
  offer by its maker, and every card that changed hands in an accepted trade,
  until it leaves that hand face up (played, discarded, bid and revealed,
  traded on);
* privately (``state.priv[o * n + h]``): a drained card is known to taker and
  victim only (FD13), so the victim knows the taker holds it, and the taker
  knows the victim still holds what was known there before. Everyone else
  cannot tell which card went, so a drain makes them forget what they knew
  of the victim's hand.

A hand and its face-down bid count as one place ("held") for this knowledge.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from henge import box
from henge.games.first_druid.actions import (
    DISCARD_PHASE,
    HAND_LIMIT,
    OVER,
    PHASE_NAMES,
    ROUND_CAP,
    STAGE_NAMES,
    TEXT,
    TURNS,
    WILD_BASE,
)

if TYPE_CHECKING:
    from henge.games.first_druid.rules import FirstDruidState


def note_gone(state: FirstDruidState, seat: int, card: int) -> None:
    """A card leaves ``seat``'s hand face up: nobody knows it there any more."""
    mask = ~(1 << card)
    n = state.n
    state.pub[seat] &= mask
    priv = state.priv
    for o in range(seat, n * n, n):
        priv[o] &= mask


def note_trade(state: FirstDruidState, a: int, b: int, give: list[int], ask: list[int]) -> None:
    """FD2: an accepted trade is public; everyone knows where the cards went."""
    given = asked = 0
    for c in give:
        note_gone(state, a, c)
        given |= 1 << c
    for c in ask:
        note_gone(state, b, c)
        asked |= 1 << c
    state.pub[b] |= given
    state.pub[a] |= asked


def note_drain(state: FirstDruidState, taker: int, victim: int, card: int) -> None:
    """FD13: the drained card is known to taker and victim only."""
    n = state.n
    pub = state.pub
    priv = state.priv
    known = pub[victim] | priv[taker * n + victim]
    pub[victim] = 0
    for o in range(n):
        if o != taker and o != victim:
            priv[o * n + victim] = 0
    priv[taker * n + victim] = known & ~(1 << card)
    priv[victim * n + taker] |= 1 << card


def _cards(mask: int) -> list[str]:
    return [TEXT[c] for c in range(box.DECK_SIZE) if mask >> c & 1]


def _seat_check(state: FirstDruidState, player: int | None) -> None:
    if player is not None and (isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < state.n):
        raise ValueError(f"seats run 0..{state.n - 1}, not {player!r}")


def observation(state: FirstDruidState, player: int | None) -> dict[str, Any]:
    """Returns what seat ``player`` (None: a spectator) knows; see docs/games/first_druid.md."""
    _seat_check(state, player)
    n = state.n
    number = state.neutral // 2 + 1
    seat = -1 if player is None else player
    over = state.phase == OVER
    contest = None
    if state.contest:
        colour = box.colour_index(state.contest)
        contest = {
            "number": state.contest,
            "colour": box.COLOURS[colour],
            "element_seat": state.seat_of[colour] if colour != box.BLACK else None,
            "bid_sizes": [len(b) for b in state.bids],
            "bid": None if player is None else sorted(TEXT[c] for c in state.bids[player]),
        }
    last = None
    if state.last_contest:
        space, bids, values, winner, placed = state.last_contest
        last = {
            "number": space,
            "colour": box.colour_of(space),
            "bids": [[TEXT[c] for c in b] for b in bids],
            "values": list(values),
            "winner": None if winner < 0 else winner,
            "placed": placed,
        }
    log = []
    for text, taker, victim, card in state.log:
        if card >= 0 and seat in (taker, victim):
            text = text.replace("a card", TEXT[card])
        log.append(text)
    return {
        "game": "first_druid",
        "seat": player,
        "players": n,
        "colours": [box.COLOURS[c] for c in state.colours],
        "phase": PHASE_NAMES[state.phase],
        "stage": STAGE_NAMES[state.stage],
        "current_player": state.current_player(),
        "round": state.neutral + 1,
        "round_cap": ROUND_CAP,
        "time": {"number": number, "phase": "day" if state.neutral % 2 else "night"},
        "day_colour": box.colour_of(number),
        "element_card": TEXT[state.element] if state.element >= 0 else None,
        "turned": [TEXT[c] for c in state.turned],
        "first_player": state.first,
        "turn_seat": state.active() if state.stage == TURNS else None,
        "druids": list(state.pos),
        "in_contact": [not state.behind(s) for s in range(n)],
        "hand": None if player is None else sorted(TEXT[c] for c in state.hands[player]),
        "wild": None if player is None else TEXT[WILD_BASE + state.colours[player]],
        "hand_sizes": [len(h) for h in state.hands],
        "draw_pile": len(state.draw),
        "discard_pile": [TEXT[c] for c in state.discard],
        "bluestones": list(state.clans),
        "spirits": [None if s < 0 else s for s in state.spirits],
        "trilithons": [
            {"sections": min(3, max(0, state.sections - 3 * t)), "owner": None if o < 0 else o}
            for t, o in enumerate(state.owners)
        ],
        "altar": list(state.altar),
        "disks_left": [state.disks_left(s) for s in range(n)],
        "bars_left": [state.bars_left(s) for s in range(n)],
        "table": [TEXT[c] for c in state.table],
        "wild_number": state.table_wild or None,
        "acted": state.acted,
        "offers_made": state.offers,
        "offer": None
        if state.offer_to < 0
        else {
            "from": state.active(),
            "to": state.offer_to,
            "give": [TEXT[c] for c in state.give],
            "ask": [TEXT[c] for c in state.ask],
        },
        "drains_pending": list(state.drains),
        "discard_owed": len(state.hands[state.player]) - HAND_LIMIT if state.phase == DISCARD_PHASE else 0,
        "contest": contest,
        "last_contest": last,
        "shown_cards": [_cards(state.pub[h]) for h in range(n)],
        "known_cards": [
            [] if h == seat else _cards(state.pub[h] | (state.priv[seat * n + h] if seat >= 0 else 0)) for h in range(n)
        ],
        "known_by": None if player is None else [_cards(state.priv[x * n + player]) for x in range(n)],
        "log": log,
        "scores": state.scores(),
        "winners": list(state.winners) if over else None,
        "result": state.reason if over else None,
    }


def resample(state: FirstDruidState, player: int, rng: random.Random) -> FirstDruidState:
    """Returns a copy where every card ``player`` cannot place is re-drawn uniformly.

    Cards ``player`` knows in a hand stay there; the rest of the other hands
    and bids and the deck are dealt afresh from their union. The private
    knowledge of the other seats (a drained card) follows the new deal: each
    card known by another seat is replaced by a random fresh card of the same
    hand, and drained cards in the log that ``player`` never saw are erased.
    """
    _seat_check(state, player)
    new = state._copy()
    new._history = []  # the real history would tell which cards were drawn
    new._legal = None
    n = state.n
    priv = state.priv
    others = [h for h in range(n) if h != player]
    fixed = [state.pub[h] | priv[player * n + h] for h in range(n)]
    pool = list(state.draw)
    for h in others:
        pool += [c for c in state.hands[h] + state.bids[h] if not fixed[h] >> c & 1]
    rng.shuffle(pool)
    at = 0
    for h in others:
        held = state.hands[h] + state.bids[h]
        keep = [c for c in held if fixed[h] >> c & 1]
        # Order the hidden cards by which other seats know them, so that which fresh card takes
        # which seat's knowledge depends only on what ``player`` knows, not on the real hand.
        hidden = sorted(
            (c for c in held if not fixed[h] >> c & 1),
            key=lambda c, h=h: (sum(1 << x for x in others if priv[x * n + h] >> c & 1), c),  # type: ignore[misc]
        )
        fresh = pool[at : at + len(hidden)]
        at += len(hidden)
        mixed = keep + fresh
        rng.shuffle(mixed)
        size = len(state.bids[h])
        new.bids[h] = mixed[:size]
        new.hands[h] = mixed[size:]
        mapping = dict(zip(hidden, fresh, strict=True))
        for x in others:
            mask = priv[x * n + h]
            if x == h or not mask:
                continue
            moved = 0
            for c in range(box.DECK_SIZE):
                if mask >> c & 1:
                    moved |= 1 << (c if fixed[h] >> c & 1 else mapping[c])
            new.priv[x * n + h] = moved
    new.draw = pool[at:]
    new.log = tuple(
        (text, taker, victim, card if player in (taker, victim) else -1) for text, taker, victim, card in state.log
    )
    return new
