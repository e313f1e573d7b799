"""The Druid Olympics block placements a hand can pay for and that are open to a seat (D8).

The rules ask for these every turn a seat may block, so they are read off tables made once
rather than found by trying each place (:mod:`henge.games.druid_olympics.board` states the
places and what each asks for, :func:`~henge.games.druid_olympics.board.completions` the
cards that pay for one). A set of target indices is a bit mask (bit i: target index i; a
trilithon's targets are counted from the first of its colour). What a hand pays for is the
union of what each of its cards, each pair and all three pay for; what is open to a seat is
what no other piece covers. Both are a few operations on masks made once, read off a byte at a
time from tables of the actions each byte's bits stand for.
"""

from __future__ import annotations

import cython

from henge import box
from henge.games.druid_olympics.board import EMPTY, HORSESHOE, NUMBERED, SPACES, TARGETS

cython.declare(_TRI=cython.int, _TRI_SPAN=cython.int, _NUMBER_CARDS=cython.int, _BAR_DISK_BYTES=cython.int)
_BAR_COLOURED, _BAR_NUMBERED, _DISK_INNER, _DISK_BLUE, _TRI = 0, 30, 60, 120, 139
_TRI_SPAN = 30 + 57 + 17
_NUMBER_CARDS = box.TRILITHON_CARD_BASE
_IS_DAY = box.CARD_IS_DAY
_CARD_NUMBER = box.CARD_NUMBER
_RING = box.RING_SPACES
_INNER_WINDOWS = box.INNER_STONES - 3
"""Inner trilithons: four stones from 1 night (0) .. 29 night (56)."""


def _bits(indices: list[int] | range | tuple[int, ...]) -> int:
    mask = 0
    for i in indices:
        mask |= 1 << i
    return mask


def _paid_by_sum(total: int, phase: int, trilithon: bool) -> int:
    """Returns the targets that number cards summing to ``total`` pay for (D8: sums 1..30, no wrap).

    ``phase`` is that of every card (box.NIGHT or box.DAY), or -1 when they mix: only cards of
    one phase pay for inner stones; the inner stone of number n is 2 (n - 1) + 1 by day, 2 (n - 1)
    by night. A bar or disk (a numbered space, an inner stone), or a trilithon's own targets (the
    coloured and numbered spaces of ``total``, the four inner stones from that stone on).
    """
    if total > _RING:
        return 0
    stone = 2 * (total - 1) + phase if phase >= 0 else -1
    if not trilithon:
        return _bits([_BAR_NUMBERED + total - 1] + ([_DISK_INNER + stone] if stone >= 0 else []))
    return _bits([total - 1] + ([30 + stone] if 0 <= stone < _INNER_WINDOWS else []))


def _paid(cards: tuple[int, ...], trilithon: bool) -> int:
    """Returns the targets the sum of ``cards`` pays for (none if one is a trilithon card: no number, D8)."""
    total = days = 0
    for card in cards:
        if card >= _NUMBER_CARDS:
            return 0
        total += box.CARD_NUMBER[card]
        days += box.CARD_IS_DAY[card]
    phase = box.DAY if days == len(cards) else box.NIGHT if not days else -1
    return _paid_by_sum(total, phase, trilithon)


def _indices(mask: int) -> tuple[int, ...]:
    """Returns the bits of ``mask``, ascending."""
    found = []
    while mask:
        low = mask & -mask
        found.append(low.bit_length() - 1)
        mask ^= low
    return tuple(found)


_DECK = range(box.DECK_SIZE)
_SINGLE: tuple[int, ...] = tuple(
    _bits(range(_DISK_BLUE, _TRI))  # D8: a disk on any bluestone for any one card
    | (_paid((c,), False) | _bits(range(box.CARD_COLOUR[c], NUMBERED, 6)) if c < _NUMBER_CARDS else 0)
    for c in _DECK
)
"""Per card: the bars and disks it pays for alone (a bar on a coloured space: one card of its colour)."""
_PAIR: tuple[tuple[int, ...], ...] = tuple(tuple(_paid((a, b), False) for b in _DECK) for a in _DECK)
"""Per two cards: the bars and disks their sum pays for."""
_DUO: tuple[tuple[int, ...], ...] = tuple(tuple(_SINGLE[a] | _SINGLE[b] | _PAIR[a][b] for b in _DECK) for a in _DECK)
"""Per two cards: the bars and disks they pay for, alone or together."""
_TRIPLE: tuple[tuple[int, ...], ...] = tuple(
    tuple(_paid_by_sum(total, phase, False) for total in range(3 * _RING + 1)) for phase in (-1, box.NIGHT, box.DAY)
)
"""Per phase + 1 (-1: mixed) and sum of three number cards: the bars and disks it pays for."""
_TRI_SINGLE = tuple(_paid((c,), True) for c in _DECK)
_TRI_PAID: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(_indices(_TRI_SINGLE[x] | _TRI_SINGLE[y] | (_paid((x, y), True) if x != y else 0)) for y in _DECK)
    for x in _DECK
)
"""Per two cards (the same card twice: one card): the numbered and inner targets of a trilithon
they pay for, alone or together, counted from the first of its colour, ascending."""
_SPACE_BIT: tuple[int, ...] = tuple(1 << s for s in range(SPACES))
TARGET_SPACES: tuple[int, ...] = tuple(_bits(t.spaces) for t in TARGETS)
"""Per target index: the spaces it covers, as bits of space ids."""
_M17 = (1 << 17) - 1


def covered_spaces(cover: list[int]) -> int:
    """Returns the spaces under a piece of a block list, as bits of space ids."""
    return _bits([s for s, code in enumerate(cover) if code != EMPTY])


_ByteTables = tuple[tuple[tuple[int, ...], ...], ...]
_BAR_DISK_BYTES = (_TRI + 7) // 8


def _byte_tables(first: int, size: int) -> _ByteTables:
    """Per byte of a ``size``-bit mask and its value: the numbers ``first`` + bit of its bits, ascending."""
    bits = [_indices(value) for value in range(256)]
    return tuple(tuple(tuple(first + k + b for b in bits[value]) for value in range(256)) for k in range(0, size, 8))


class Placements:
    """The block placements a seat can pay for and that are open to it (D8), as actions
    ``offset`` + target index (the rules ask for action ids); the tables are made once."""

    def __init__(self, offset: int) -> None:
        self.offset = offset
        self.bars_and_disks = _byte_tables(offset, _TRI)
        """The bars and disks, a byte of their mask at a time."""
        self.bluestone_trilithons = tuple(
            _byte_tables(offset + _TRI + k * _TRI_SPAN + 30 + _INNER_WINDOWS, 17) for k in range(5)
        )
        """Per colour: the trilithons on three bluestones, by first stone (bit 0: stone 1), a byte at a time."""

    @cython.locals(size=cython.Py_ssize_t, a=cython.int, b=cython.int, c=cython.int, day=cython.int, phase=cython.int)
    @cython.locals(bar=cython.int, disk=cython.int, k=cython.Py_ssize_t, byte=cython.int, card=cython.int)
    @cython.locals(colour=cython.int, placed=cython.int, first=cython.int, index=cython.int, threes=cython.int)
    @cython.locals(found=list, tables=tuple, open_paid=bytes, paying=tuple, low=tuple, middle=tuple, high=tuple)
    def targets(self, hand: list[int], covered: int, own: tuple[int, int], trilithons: list[int]) -> list[int]:
        """Returns the placements a seat can pay for with ``hand`` and that are open to it, sorted.

        ``covered`` holds the spaces under a piece (bits of space ids), ``own`` the seat's bar and
        disk spaces (-1 in stock), ``trilithons`` each colour's target index (-1 in the centre). A
        bar's or disk's target index is the id of its space. A space is open to a piece when it is
        empty or holds that same piece (which is then moved, D8).
        """
        size = len(hand)
        a = b = c = 0
        if size == 3:
            a, b, c = hand
            paid = _DUO[a][b] | _SINGLE[c] | _PAIR[a][c] | _PAIR[b][c]
            if a < _NUMBER_CARDS and b < _NUMBER_CARDS and c < _NUMBER_CARDS:
                day = _IS_DAY[a]
                phase = day if day == _IS_DAY[b] and day == _IS_DAY[c] else -1
                paid |= _TRIPLE[phase + 1][_CARD_NUMBER[a] + _CARD_NUMBER[b] + _CARD_NUMBER[c]]
        elif size == 2:
            a, b = hand
            paid = _DUO[a][b]
        elif size == 1:
            a = hand[0]
            paid = _SINGLE[a]
        else:
            return []
        bar, disk = own
        closed = covered
        if bar >= 0:
            closed ^= _SPACE_BIT[bar]  # the seat's own bar lies there
        if disk >= 0:
            closed ^= _SPACE_BIT[disk]
        found: list[int] = []
        tables = self.bars_and_disks
        open_paid = (paid & ~closed).to_bytes(_BAR_DISK_BYTES, "little")
        for k, byte in enumerate(open_paid):  # a byte of the mask at a time
            if byte:
                found.extend(tables[k][byte])
        if a >= _NUMBER_CARDS or b >= _NUMBER_CARDS or c >= _NUMBER_CARDS:  # a trilithon card: the others
            if size == 3:  # pay for its place; the number cards are among the two others than a trilithon card
                paying = _TRI_PAID[b][c] if a >= _NUMBER_CARDS else _TRI_PAID[a][c if b >= _NUMBER_CARDS else b]
            elif size == 2:
                paying = _TRI_PAID[a][b]
            else:
                paying = ()
            for card in sorted(hand):
                if card < _NUMBER_CARDS:
                    continue
                colour = card - _NUMBER_CARDS
                placed = trilithons[colour]
                blocked = covered ^ TARGET_SPACES[placed] if placed >= 0 else covered  # this trilithon is moved
                first = self.offset + _TRI + colour * _TRI_SPAN
                for index in paying:
                    if not blocked & TARGET_SPACES[_TRI + index]:
                        found.append(first + index)
                if size == 3:  # the text: both other cards are sacrificed
                    stones = blocked >> HORSESHOE
                    threes = _M17 & ~(stones | stones >> 1 | stones >> 2)  # three open stones from bit i on
                    low, middle, high = self.bluestone_trilithons[colour]
                    found.extend(low[threes & 255])
                    found.extend(middle[threes >> 8 & 255])
                    found.extend(high[threes >> 16])
        return found
