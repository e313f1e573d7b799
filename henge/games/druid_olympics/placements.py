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
cython.declare(_M17=cython.int)
_M17 = (1 << 17) - 1


def covered_spaces(cover: list[int]) -> int:
    """Returns the spaces under a piece of a block list, as bits of space ids."""
    return _bits([s for s, code in enumerate(cover) if code != EMPTY])


_ByteTables = tuple[tuple[tuple[int, ...], ...], ...]
_BAR_DISK_BYTES = (_TRI + 7) // 8
cython.declare(_WORDS=cython.int, _WORD_BITS=cython.int, _N=cython.int)
_WORDS = 3 if cython.compiled else 1
"""The masks read by :meth:`Placements.targets` are cut into words: compiled, three C words of
64 bits; in Python, one int that holds all 139 bits (fewer operations on Python ints)."""
_WORD_BITS = 64 if cython.compiled else 3 * 64
_WORD_MASK = _bits(range(_WORD_BITS))
_N = box.DECK_SIZE


def _words(masks: list[int] | tuple[int, ...]) -> tuple[int, ...]:
    """Returns each mask of ``masks`` cut into its words, low word first, one after another."""
    return tuple(mask >> (w * _WORD_BITS) & _WORD_MASK for mask in masks for w in range(_WORDS))


_SINGLE_W = _words(_SINGLE)
"""_SINGLE, a card's words at _WORDS * card."""
_PAIR_W = _words([_PAIR[a][b] for a in _DECK for b in _DECK])
"""_PAIR, two cards' words at _WORDS * (_N * a + b)."""
_DUO_W = _words([_DUO[a][b] for a in _DECK for b in _DECK])
"""_DUO, as _PAIR_W."""
_TRIPLE_W = _words([m for row in _TRIPLE for m in row])
"""_TRIPLE, the words of phase + 1 and sum at _WORDS * ((3 * _RING + 1) * (phase + 1) + sum)."""
_TARGET_W = _words(TARGET_SPACES)
"""TARGET_SPACES, a target's words at _WORDS * target."""
_SPACE_W = _words(_SPACE_BIT)
"""_SPACE_BIT, a space's words at _WORDS * space."""
_covered_w = list(_words([0]))
"""The words of the last mask of covered spaces :meth:`Placements.targets` was asked with."""
_covered_last: object = None
cython.declare(_STONE_SHIFT=cython.int)
_STONE_SHIFT = HORSESHOE % _WORD_BITS
"""The place of the first bluestone's bit in its word (compiled: word 1, the bluestones' last in word 2)."""
assert HORSESHOE // _WORD_BITS == _WORDS - 2 if cython.compiled else HORSESHOE < _WORD_BITS


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
    @cython.locals(aw=cython.int, w=cython.int, ab=cython.int, ac=cython.int, bc=cython.int, triple=cython.int)
    @cython.locals(at=cython.int)
    @cython.locals(word=cython.ulonglong, stones=cython.ulonglong, hit=cython.ulonglong, blocked0=cython.ulonglong)
    @cython.locals(blocked1=cython.ulonglong, blocked2=cython.ulonglong)
    @cython.locals(found=list, tables=tuple, paying=tuple, low=tuple, middle=tuple, high=tuple)
    def targets(self, hand: list[int], covered: int, own: tuple[int, int], trilithons: list[int]) -> list[int]:
        """Returns the placements a seat can pay for with ``hand`` and that are open to it, sorted.

        ``covered`` holds the spaces under a piece (bits of space ids), ``own`` the seat's bar and
        disk spaces (-1 in stock), ``trilithons`` each colour's target index (-1 in the centre). A
        bar's or disk's target index is the id of its space. A space is open to a piece when it is
        empty or holds that same piece (which is then moved, D8).
        """
        global _covered_last
        size = len(hand)
        a = b = c = 0
        triple = -1
        if size == 3:
            a, b, c = hand
            if a < _NUMBER_CARDS and b < _NUMBER_CARDS and c < _NUMBER_CARDS:
                day = _IS_DAY[a]
                phase = day if day == _IS_DAY[b] and day == _IS_DAY[c] else -1
                triple = (3 * _RING + 1) * (phase + 1) + _CARD_NUMBER[a] + _CARD_NUMBER[b] + _CARD_NUMBER[c]
        elif size == 2:
            a, b = hand
        elif size == 1:
            a = hand[0]
        else:
            return []
        bar, disk = own
        if covered is not _covered_last:  # cut into words (kept while the same mask is asked for again)
            if _WORDS == 1:
                _covered_w[0] = covered
            else:
                for w in range(_WORDS):
                    _covered_w[w] = covered >> (w * _WORD_BITS) & _WORD_MASK
            _covered_last = covered
        aw = _WORDS * a  # where the words of a card, of two cards lie
        ab = aw * _N + _WORDS * b
        ac = aw * _N + _WORDS * c
        bc = b * _N * _WORDS + _WORDS * c
        bar = _WORDS * bar if bar >= 0 else -1
        disk = _WORDS * disk if disk >= 0 else -1
        found: list[int] = []
        tables = self.bars_and_disks
        k = 0
        for w in range(_WORDS):
            if size == 3:
                word = _DUO_W[ab + w] | _SINGLE_W[_WORDS * c + w] | _PAIR_W[ac + w] | _PAIR_W[bc + w]
                if triple >= 0:
                    word |= _TRIPLE_W[_WORDS * triple + w]
            elif size == 2:
                word = _DUO_W[ab + w]
            else:
                word = _SINGLE_W[aw + w]
            hit = _covered_w[w]
            if bar >= 0:
                hit ^= _SPACE_W[bar + w]  # the seat's own bar lies there
            if disk >= 0:
                hit ^= _SPACE_W[disk + w]
            word &= ~hit
            at = k  # a byte of the mask at a time
            if cython.compiled:  # of a C word
                while word:
                    byte = word & 255
                    if byte:
                        found.extend(tables[at][byte])
                    word >>= 8
                    at += 1
            else:  # of a Python int
                for byte in word.to_bytes(_BAR_DISK_BYTES, "little"):
                    if byte:
                        found.extend(tables[at][byte])
                    at += 1
            k += _WORD_BITS // 8
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
                first = self.offset + _TRI + colour * _TRI_SPAN
                at = _WORDS * placed  # the spaces blocked to it (this trilithon is moved), a word at a time
                if cython.compiled:  # three C words
                    blocked0 = _covered_w[0] ^ _TARGET_W[at] if placed >= 0 else _covered_w[0]
                    blocked1 = _covered_w[1] ^ _TARGET_W[at + 1] if placed >= 0 else _covered_w[1]
                    blocked2 = _covered_w[2] ^ _TARGET_W[at + 2] if placed >= 0 else _covered_w[2]
                else:  # one Python int
                    blocked0 = covered ^ _TARGET_W[at] if placed >= 0 else covered
                for index in paying:
                    at = _WORDS * (_TRI + index)
                    if cython.compiled:
                        hit = blocked0 & _TARGET_W[at] | blocked1 & _TARGET_W[at + 1] | blocked2 & _TARGET_W[at + 2]
                    else:
                        hit = blocked0 & _TARGET_W[at]
                    if not hit:
                        found.append(first + index)
                if size == 3:  # the text: both other cards are sacrificed
                    if cython.compiled:  # the bluestones' bits: the top of word 1, the foot of word 2
                        stones = blocked1 >> _STONE_SHIFT | blocked2 << (_WORD_BITS - _STONE_SHIFT)
                    else:
                        stones = blocked0 >> _STONE_SHIFT
                    threes = _M17 & ~(stones | stones >> 1 | stones >> 2)  # three open stones from bit i on
                    low, middle, high = self.bluestone_trilithons[colour]
                    found.extend(low[threes & 255])
                    found.extend(middle[threes >> 8 & 255])
                    found.extend(high[threes >> 16])
        return found
