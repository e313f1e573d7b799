"""First Druid's combinations (rulings FD4, FD6).

A combination is laid on the table one card at a time (``pick 13d``, ``pick
wild 17``); a pick is offered only while the cards on the table can still be
completed, with the rest of the hand, into a combination whose effect is
possible now, so a selection never ends in a dead end. The effect is then
chosen by name (``advance``, ``clan``, ``build`` ...).
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING

import cython

from henge import box
from henge.games.first_druid.actions import (
    ADVANCE,
    ALTAR,
    ASK,
    BUILD,
    BUILD_ONLY,
    CLAN,
    CLAN_SUM,
    CONVERT_CLAN,
    CONVERT_SPIRIT,
    END_TURN,
    GIVE,
    IS_DAY,
    MAX_OFFERS,
    NUMBER,
    OFFER,
    PASS,
    PICK_WILD,
    SECTIONS,
    SEND,
    TAKE_OVER,
    WILD_BASE,
    WITHDRAW,
)

if TYPE_CHECKING:
    from henge.games.first_druid.position import Position

# --- uses: which combinations have a possible effect now ------------------------
USE_ADVANCE = 1
USE_PAIR = 2  # build or dress the altar
USE_SUM = 4  # clan or dress the altar
USE_RUN3 = 8  # convert a clan or a spirit
USE_RUN4 = 16  # take over a trilithon


def is_run(numbers: list[int], length: int) -> bool:
    """FD6: exactly ``length`` consecutive numbers, no wrap, any colours and phases."""
    if len(numbers) != length:
        return False
    ordered = sorted(numbers)
    return all(b == a + 1 for a, b in itertools.pairwise(ordered))


def is_pair(numbers: list[int]) -> bool:
    """FD6: exactly two cards of one number."""
    return len(numbers) == 2 and numbers[0] == numbers[1]


def is_sum(numbers: list[int]) -> bool:
    """FD6: two or more cards whose strengths add up to exactly 31."""
    return len(numbers) >= 2 and sum(numbers) == CLAN_SUM


def _sums(values: list[int]) -> int:
    """Returns the bitmask of subset sums (up to 31) of ``values``, the empty sum included."""
    reach = 1
    for v in values:
        reach |= reach << v
    return reach & 0xFFFFFFFF


@cython.cfunc
@cython.exceptval(check=False)
@cython.locals(bits=cython.ulonglong, count=cython.int)
@cython.returns(cython.int)
def _bit_count(bits: int) -> int:
    """Returns how many bits are set in ``bits`` (a number's set: 32 bits at most)."""
    count = 0
    while bits:
        bits &= bits - 1
        count += 1
    return count


def _run_starts(cover: int, length: int, spare: int) -> int:
    """Returns the bit set of the starts s whose window s .. s + length - 1 misses at most
    ``spare`` (0 or 1) of the numbers in ``cover``."""
    a, b, c = cover, cover >> 1, cover >> 2
    if length == 3:
        return a & b & c if not spare else (a & b) | (a & c) | (b & c)
    d = cover >> 3
    if not spare:
        return a & b & c & d
    return (a & b & (c | d)) | (c & d & (a | b))


# The bit sets of numbers below hold bits 0..31 only (numbers are 1..30): C integers when compiled.
# The subset sums of ``_sums`` grow wider before they are cut to 32 bits: they stay Python ints.
@cython.locals(has_wild=cython.bint, count=cython.int, total=cython.int, on_table=cython.ulonglong)
@cython.locals(have=cython.ulonglong, twice=cython.ulonglong, bit=cython.ulonglong, cover=cython.ulonglong)
@cython.locals(spare=cython.int, length=cython.int, flag=cython.int, starts=cython.ulonglong, low_bit=cython.ulonglong)
@cython.locals(start=cython.int, window=cython.ulonglong, missing=cython.ulonglong, deficit=cython.int)
@cython.locals(wanted=cython.ulonglong, druid=cython.int, uses=cython.int, day=cython.bint, phase_ok=cython.bint)
@cython.locals(need=cython.int, one=cython.ulonglong, c=cython.int, v=cython.int, m=cython.int, x=cython.int)
@cython.locals(number=cython.int, low=cython.int, picks=set, cards=list, phased=list, values=list)
def pick_actions(
    hand: list[int], wild: int, numbers: list[int], phase_ok: bool, day: bool, druid: int, uses: int
) -> set[int]:
    """Returns the pick actions that keep the table completable into a combination.

    ``numbers`` are the numbers of the cards on the table (the wild card as
    named); ``phase_ok`` says every one of them matches the neutral's phase
    ``day``; ``druid`` is the player's druid number; ``uses`` the USE_* flags
    of the combinations whose effect is possible now.
    """
    has_wild = wild in hand
    cards = hand if max(hand, default=0) < WILD_BASE else [c for c in hand if c < WILD_BASE]  # the number cards
    picks: set[int] = set()
    one = 1
    count = len(numbers)
    total = sum(numbers)
    on_table = 0
    for v in numbers:
        on_table |= one << v
    have = twice = 0  # the numbers in hand; those of two cards or more
    for c in cards:
        number = NUMBER[c]
        bit = one << number
        twice |= have & bit
        have |= bit
    if uses & USE_ADVANCE and phase_ok:
        phased = [c for c in cards if IS_DAY[c] == day]
        reach = total + sum([NUMBER[c] for c in phased])
        if reach + (30 if has_wild else 0) >= druid:
            picks.update(phased)
            if has_wild:  # the wild card named v, for v from what the druid still needs up to 30
                low = PICK_WILD - 1 + max(1, druid - reach)
                for v in range(low, PICK_WILD + 30):
                    picks.add(v)
    if uses & USE_PAIR and count < 2:
        if count == 0:
            if has_wild:
                picks.update(cards)
                for c in cards:
                    number = NUMBER[c]
                    picks.add(PICK_WILD - 1 + number)
            elif twice:
                for c in cards:
                    number = NUMBER[c]
                    if twice >> number & 1:
                        picks.add(c)
        else:
            m = numbers[0]
            for c in cards:
                number = NUMBER[c]
                if number == m:
                    picks.add(c)
            if has_wild:
                picks.add(PICK_WILD - 1 + m)
    cover = have | on_table
    spare = 1 if has_wild else 0
    for length, flag in ((3, USE_RUN3), (4, USE_RUN4)):
        if count + len(cards) + spare < length:  # not cards enough for a run this long (nor a longer one)
            break
        if not uses & flag or count >= length or _bit_count(on_table) != count or not cover:
            continue
        # Only a window missing at most ``spare`` numbers of ``cover`` can lead anywhere: the
        # starts (1 .. 31 - length) where enough of its numbers are there.
        starts = _run_starts(cover, length, spare) & ((one << (32 - length)) - 2)
        start = 0
        while starts:
            while not starts >> start & 1:
                start += 1
            starts ^= one << start
            window = ((one << length) - 1) << start
            if on_table & ~window:
                continue
            missing = window & ~on_table
            deficit = _bit_count(missing & ~have)
            if deficit <= spare:
                for c in cards:
                    number = NUMBER[c]
                    if missing >> number & 1:
                        picks.add(c)
            if has_wild and deficit <= 1:
                wanted = missing if deficit == 0 else missing & ~have
                for v in range(start, start + length):
                    if wanted >> v & 1:
                        picks.add(PICK_WILD - 1 + v)
    if uses & USE_SUM and total < CLAN_SUM:
        values = [NUMBER[c] for c in cards]
        # Without the wild card the cards in hand must reach the sum (else no card can be picked
        # towards it); a card already picked for another combination needs no second look.
        if has_wild or total + sum(values) >= CLAN_SUM:
            tried: dict[int, bool] = {}
            for c, x in zip(cards, values, strict=True):
                if c in picks:
                    continue
                need = CLAN_SUM - total - x
                if need < 0:
                    continue
                if need == 0:
                    if count >= 1:
                        picks.add(c)
                    continue
                if has_wild:
                    picks.add(c)
                    continue
                ok = tried.get(x)
                if ok is None:
                    rest = values[:]
                    rest.remove(x)
                    ok = tried[x] = bool(_sums(rest) >> need & 1)
                if ok:
                    picks.add(c)
        if has_wild:
            reach = _sums(values)
            for v in range(1, min(30, CLAN_SUM - total) + 1):
                need = CLAN_SUM - total - v
                if (need == 0 and count >= 1) or (need > 0 and reach >> need & 1):
                    picks.add(PICK_WILD - 1 + v)
    return picks


# --- a turn's legal actions --------------------------------------------------------


def _table_numbers(state: Position) -> list[int]:
    return [state.table_wild if c >= WILD_BASE else NUMBER[c] for c in state.table]


def _phase_ok(state: Position) -> bool:
    day = state.neutral % 2 == 1
    return all([c >= WILD_BASE or IS_DAY[c] == day for c in state.table])


# What a seat's stock and the board allow it, beyond the USE_* flags (FD10, FD11).
_DISKS = 32  # a disk is left in its stock
_BARS = 64  # a bar is left in its stock
_CONVERT_CLAN = 128  # the last clan is another seat's
_CONVERT_SPIRIT = 256  # the highest spirit is another seat's
_USES = USE_ADVANCE | USE_PAIR | USE_SUM | USE_RUN3 | USE_RUN4


def _allowed(state: Position, p: int) -> int:
    """Returns the USE_* flags of seat ``p`` with _DISKS, _BARS, _CONVERT_CLAN, _CONVERT_SPIRIT.

    They depend only on the board (clans, spirits, altar, trilithons), which changes only when a
    combination other than an advance takes effect or a spirit is won, while they are asked for
    at every step of a turn; so each seat's are kept in ``state.allowed`` (-1: not worked out
    yet). That list is filled in place and replaced, never cleared in place, when the board
    changes (``Position.board_changed``), so clones share it safely."""
    allowed = state.allowed
    flags = allowed[p]
    if flags < 0:
        flags = allowed[p] = _work_out_allowed(state, p)
    return flags


def _work_out_allowed(state: Position, p: int) -> int:
    clans = state.clans
    owners = state.owners
    disks = clans.count(p) + owners.count(p) < 10  # state.disks_left(p) > 0
    bars = state.spirits.count(p) + state.altar.count(p) < 10  # state.bars_left(p) > 0
    flags = USE_ADVANCE
    if disks:
        flags |= _DISKS
    if bars:
        flags |= _BARS
    if bars or state.sections < SECTIONS:
        flags |= USE_PAIR
    if bars or (disks and len(clans) < box.BLUESTONES):
        flags |= USE_SUM
    if disks and clans and clans[-1] != p:  # FD11
        flags |= _CONVERT_CLAN | USE_RUN3
    top = state.top_spirit()
    if bars and top >= 0 and state.spirits[top] != p:  # FD11
        flags |= _CONVERT_SPIRIT | USE_RUN3
    if disks and len(owners) > owners.count(-1) + owners.count(p):  # a trilithon of another seat
        flags |= USE_RUN4
    return flags


_DECK_ORDERS: dict[tuple[int, ...], tuple[int, ...]] = {}


def _deck_order(deck: tuple[int, ...]) -> tuple[int, ...]:
    """Returns the cards of ``deck``, each once, in order (one per seat-colour choice, kept)."""
    cards = _DECK_ORDERS.get(deck)
    if cards is None:
        cards = _DECK_ORDERS[deck] = tuple(sorted(set(deck)))
    return cards


@cython.locals(c=cython.int, seen=bytearray, ask=list, legal=list)
def offer_actions(state: Position, hand: list[int]) -> list[int]:
    """Returns the legal actions while the active seat, holding ``hand``, puts an offer together,
    sorted: give a card, ask for one, send, withdraw (FD2; FD15: withdrawn until it is sent)."""
    give = state.give
    ask = state.ask
    legal = [GIVE + c for c in sorted(hand) if c not in give]  # ids in order: give, ask, send, withdraw
    if len(ask) < len(state.hands[state.offer_to]):  # any card p has not seen
        seen = bytearray(ASK - GIVE)  # by card id: in hand, discarded, asked for, or the element card
        for c in hand:
            seen[c] = 1
        for c in state.discard:
            seen[c] = 1
        for c in ask:
            seen[c] = 1
        if state.element >= 0:
            seen[state.element] = 1
        legal += [ASK + c for c in _deck_order(state.deck) if not seen[c]]
    if give and ask:
        legal.append(SEND)
    legal.append(WITHDRAW)
    return legal


def opening_actions(state: Position, hand: list[int]) -> tuple[int, ...]:
    """Returns the legal actions just after an offer is begun (:func:`offer_actions`, nothing
    given or asked for yet). They depend on the hand, the discard pile and the element card
    only, not on the seat offered to, so the last ones worked out are kept with what they were
    worked out from (``state.opening``, shared by clones) for the turn's next offers."""
    key = (tuple(hand), tuple(state.discard), state.element)
    opening = state.opening
    if opening is not None and opening[0] == key:
        return opening[1]
    legal = tuple(offer_actions(state, hand))
    state.opening = (key, legal)
    return legal


def turn_actions(state: Position, p: int, hand: list[int]) -> list[int]:
    """Returns the legal actions of a turn, sorted: picks and effects, offers, the end (FD2, FD3, FD15)."""
    if state.offer_to >= 0:
        return offer_actions(state, hand)
    if state.table:  # a combination under way: more picks, or its effect
        numbers = _table_numbers(state)
        phase_ok = _phase_ok(state)
        legal = _picks(state, p, hand, numbers, phase_ok) if hand else []
        return legal + _resolutions(state, p, numbers, phase_ok)
    if not hand:
        return [END_TURN if state.acted else PASS]  # nothing to pick or offer
    legal = _picks(state, p, hand, [], True)
    if state.offers < MAX_OFFERS:  # an offer to every other seat holding cards
        hands = state.hands
        legal += _OFFERS[state.n][p] if all(hands) else [OFFER + k for k in range(state.n) if k != p and hands[k]]
    legal.append(END_TURN if state.acted else PASS)
    return legal


_OFFERS: dict[int, tuple[tuple[int, ...], ...]] = {
    n: tuple(tuple(OFFER + k for k in range(n) if k != p) for p in range(n)) for n in range(3, 6)
}
"""Per seat count (3-5) and seat: its offers when every other seat holds cards."""


def _picks(state: Position, p: int, hand: list[int], numbers: list[int], phase_ok: bool) -> list[int]:
    """Returns seat ``p``'s pick actions, sorted (:func:`pick_actions`).

    The last ones worked out are kept with everything they were worked out from
    (``state.picked``, shared by clones): a turn asks the same again after every offer that is
    withdrawn or declined, and a search asks it of many copies of one state."""
    wild = WILD_BASE + state.colours[p]
    day = state.neutral % 2 == 1
    druid = state.pos[p]
    uses = _allowed(state, p) & _USES
    key = (tuple(hand), wild, tuple(numbers), phase_ok, day, druid, uses)
    picked = state.picked
    if picked is not None and picked[0] == key:
        return list(picked[1])
    picks = sorted(pick_actions(hand, wild, numbers, phase_ok, day, druid, uses))
    state.picked = (key, tuple(picks))
    return picks


def _resolutions(state: Position, p: int, numbers: list[int], phase_ok: bool) -> list[int]:
    legal = []
    flags = _allowed(state, p)
    disks = flags & _DISKS
    bars = flags & _BARS
    if phase_ok and sum(numbers) >= state.pos[p]:
        legal.append(ADVANCE)
    summed = is_sum(numbers)
    pair = is_pair(numbers)
    if summed and disks and len(state.clans) < box.BLUESTONES:
        legal.append(CLAN)
    if (summed or pair) and bars:
        legal.append(ALTAR)
    if pair and state.sections < SECTIONS:
        legal.append(BUILD)
        upright = state.sections % 3 < 2
        if (upright and any([state.hands[k] for k in range(state.n) if k != p])) or (not upright and disks):
            legal.append(BUILD_ONLY)
    if is_run(numbers, 3):
        if flags & _CONVERT_CLAN:
            legal.append(CONVERT_CLAN)
        if flags & _CONVERT_SPIRIT:
            legal.append(CONVERT_SPIRIT)
    if is_run(numbers, 4) and disks:
        legal += [TAKE_OVER + t for t in range(box.TRILITHON_SPACES) if state.owners[t] not in (-1, p)]
    return legal
