"""The Druid Olympics board: the course's spaces, the block placements and how a runner moves.

Rulings D1-D5 and D8 (``docs/games/druid_olympics.md``); the rules module
:mod:`henge.games.druid_olympics.rules` holds the state and the turn order, and
:mod:`henge.games.druid_olympics.placements` the placements a hand can pay for. The
course is a public fact of the board: the rule-based player and the drawings read it too.

Every space a block can cover has one id (``SPACES`` in all):

* coloured-ring space n (1..30): ``n - 1`` (0..29);
* numbered space n (1..30): ``29 + n`` (30..59);
* inner-ring stone of index i (``box.inner_index``, 0 = 1 night .. 59 = 30 day): ``60 + i`` (60..119);
* bluestone k (1..19): ``119 + k`` (120..138).

A runner's *progress* along the course (D1) uses the same ids for the three
rings, so one step forward is always ``+1``: coloured 30 (29) is followed by
numbered 1 (30), numbered 30 (59) by inner 1 night (60). Progress 120..129 is
the 1st..10th stone of the horseshoe counted from the end the runner chose,
130 the altar stone.

A block list ``cover`` (one entry per space id) holds who blocks each space:
``EMPTY``, the seat (0..4) whose bar or disk lies there, or ``TRILITHON + c``
for the trilithon of colour c.
"""

from __future__ import annotations

import cython

from henge import box

COLOURED, NUMBERED, INNER, BLUESTONE = 0, 30, 60, 119
SPACES = 139
HORSESHOE = 120
"""Progress of the first horseshoe stone."""
ALTAR = 130
"""Progress of the altar stone: the finish."""
EMPTY = -1
TRILITHON = 5
"""Cover code of the white trilithon; the others follow in colour order."""
ENDS = box.BLUESTONE_ENDS
PATHS: dict[int, tuple[int, ...]] = {end: box.bluestone_path(end) for end in ENDS}
POINT_SUM = 10
"""D4: every full 10 of the cards played in the horseshoe is one movement point."""
POINT_SUMS: tuple[int, ...] = tuple(range(5, 21))
"""The values of the designer option ``horseshoe_sum``, which replaces D4's 10; an observation
names it (``horseshoe_sum``) only where it is not 10."""

BAR, DISK = 0, 1
PIECES = ("bar", "disk", "trilithon")

# Card requirements of the placements (D8).
NEED_COLOUR, NEED_SUM, NEED_PHASE_SUM, NEED_ONE, NEED_ALL = range(5)


def space_text(space: int) -> str:
    """Returns the text of a space id, e.g. ``coloured 7``, ``numbered 13``, ``inner 4 night``, ``bluestone 5``."""
    if space < NUMBERED:
        return f"coloured {space + 1}"
    if space < INNER:
        return f"numbered {space - 29}"
    if space < HORSESHOE:
        return f"inner {box.inner_text(space - INNER)}"
    return f"bluestone {space - BLUESTONE}"


SPACE_TEXT: tuple[str, ...] = tuple(space_text(s) for s in range(SPACES))
_SPACE_BY_TEXT = {t: s for s, t in enumerate(SPACE_TEXT)}


def parse_space(text: object) -> int:
    """Returns the space id written ``text``; raises ValueError otherwise."""
    space = _SPACE_BY_TEXT.get(text) if isinstance(text, str) else None
    if space is None:
        raise ValueError(f"no space is written {text!r}")
    return space


@cython.ccall
@cython.locals(end=cython.int, progress=cython.int)
def stone_at(end: int, progress: int) -> int:
    """Returns the bluestone (1..19) of horseshoe progress 120..129 walked from ``end``."""
    return PATHS[end][progress - HORSESHOE]


def runner_text(progress: int, end: int) -> str:
    """Returns where a runner stands: a space text or ``altar``."""
    if progress < HORSESHOE:
        return SPACE_TEXT[progress]
    if progress == ALTAR:
        return "altar"
    return f"bluestone {stone_at(end, progress)}"


RUNNER_TEXTS: dict[int, tuple[str, ...]] = {
    end: tuple(runner_text(p, end) for p in (range(HORSESHOE) if end == 0 else range(ALTAR + 1))) for end in (0, *ENDS)
}
"""``runner_text`` as tables: per horseshoe end (0 before entering), the text of each progress."""


def parse_runner(text: object, end: int) -> int:
    """Returns the progress of a runner written ``text`` who entered the horseshoe at ``end`` (0: not yet)."""
    if text == "altar":
        if end not in ENDS:
            raise ValueError("a runner on the altar entered the horseshoe at stone 1 or 19")
        return ALTAR
    space = parse_space(text)
    if space < HORSESHOE:
        if end:
            raise ValueError(f"a runner on {text} has not entered the horseshoe")
        return space
    if end not in ENDS or space - BLUESTONE not in PATHS[end]:
        raise ValueError(f"{text} is not on the way from bluestone {end} to the middle stone")
    return HORSESHOE + PATHS[end].index(space - BLUESTONE)


# --- block placements (targets) ---------------------------------------------------


class Target:
    """One place a block piece can go, with the cards it asks for (D8)."""

    __slots__ = ("colour", "need", "phase", "piece", "spaces", "text", "value")

    def __init__(self, piece: int, colour: int, spaces: tuple[int, ...], need: int, value: int, phase: int) -> None:
        self.piece = piece  # BAR, DISK, or TRILITHON + colour
        self.colour = colour  # trilithon colour, else -1
        self.spaces = spaces
        self.need = need
        self.value = value  # the colour index (NEED_COLOUR) or the sum
        self.phase = phase  # box.NIGHT / box.DAY for NEED_PHASE_SUM, else -1
        if piece < TRILITHON:
            self.text = f"{PIECES[piece]} on {SPACE_TEXT[spaces[0]]}"
        else:
            self.text = f"trilithon {box.PLAYER_COLOURS[colour]} on {place_text(spaces)}"


def place_text(spaces: tuple[int, ...]) -> str:
    """Returns the text of a trilithon's place: ``numbered 13``, ``inner 4 night`` or ``bluestones 5-7``."""
    if spaces[0] < NUMBERED:
        return SPACE_TEXT[spaces[1]]
    if spaces[0] < HORSESHOE:
        return SPACE_TEXT[spaces[0]]
    return f"bluestones {spaces[0] - BLUESTONE}-{spaces[-1] - BLUESTONE}"


def _targets() -> tuple[Target, ...]:
    targets: list[Target] = []
    for n in box.NUMBERS:  # a bar on a coloured space: one card of its colour
        targets.append(Target(BAR, -1, (COLOURED + n - 1,), NEED_COLOUR, box.colour_index(n), -1))
    for n in box.NUMBERS:  # a bar on a numbered space: cards summing to its number
        targets.append(Target(BAR, -1, (NUMBERED + n - 1,), NEED_SUM, n, -1))
    for i in range(box.INNER_STONES):  # a disk on an inner stone: cards of its phase summing to its number
        n, day = box.inner_stone(i)
        targets.append(Target(DISK, -1, (INNER + i,), NEED_PHASE_SUM, n, int(day)))
    for k in range(1, box.BLUESTONES + 1):  # a disk on a bluestone: any one card sacrificed
        targets.append(Target(DISK, -1, (BLUESTONE + k,), NEED_ONE, 0, -1))
    for c in range(5):
        piece = TRILITHON + c
        for n in box.NUMBERS:  # the numbered space and the coloured space above it
            targets.append(Target(piece, c, (COLOURED + n - 1, NUMBERED + n - 1), NEED_SUM, n, -1))
        for i in range(box.INNER_STONES - 3):  # four stones from 1 night .. 29 night
            n, day = box.inner_stone(i)
            targets.append(Target(piece, c, tuple(range(INNER + i, INNER + i + 4)), NEED_PHASE_SUM, n, int(day)))
        for k in range(1, box.BLUESTONES - 1):  # three bluestones, both other cards sacrificed
            targets.append(Target(piece, c, tuple(range(BLUESTONE + k, BLUESTONE + k + 3)), NEED_ALL, 0, -1))
    return tuple(targets)


TARGETS: tuple[Target, ...] = _targets()
_TARGET_BY_TEXT = {t.text: t for t in TARGETS}


def parse_target(text: object) -> Target:
    """Returns the block placement written ``text`` (``Target.text``); raises ValueError otherwise."""
    target = _TARGET_BY_TEXT.get(text) if isinstance(text, str) else None
    if target is None:
        raise ValueError(f"no block placement is written {text!r}")
    return target


_SUBSETS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(b for b in range(size) if mask >> b & 1) for mask in range(1, 1 << size)) for size in range(8)
)
"""The non-empty subsets of ``range(size)`` for each hand size (hands hold at most three cards)."""


_NUMBER_CARDS = box.TRILITHON_CARD_BASE
_CARD_COLOUR = box.CARD_COLOUR
_CARD_NUMBER = box.CARD_NUMBER
_CARD_IS_DAY = box.CARD_IS_DAY


@cython.locals(need=cython.int, c=cython.int, colour=cython.int)
def paying_cards(target: Target, hand: list[int], table: list[int]) -> list[int] | None:
    """Returns the hand cards in any of the ways to finish paying for ``target`` (sorted), or None
    once the cards on the table pay for it: the cards of :func:`completions`, read without listing
    every way where one card of the hand, or of its colour, is what is asked."""
    need = target.need
    if need == NEED_ONE:
        return None if table else sorted(hand)
    if need == NEED_COLOUR:
        if table:
            return None
        colour = target.value
        return sorted([c for c in hand if c < _NUMBER_CARDS and _CARD_COLOUR[c] == colour])
    options = completions(target, hand, table)
    if options == [()]:
        return None
    return sorted({c for option in options for c in option})


@cython.locals(need=cython.int, left=cython.int, total=cython.int, b=cython.int, c=cython.int, numbers=list)
@cython.locals(found=list, subset=tuple)
def completions(target: Target, hand: list[int], table: list[int]) -> list[tuple[int, ...]]:
    """Returns the sets of hand cards that, with the cards on the table, pay for ``target``.

    The trilithon card of a trilithon target is laid on the table when the target is chosen.
    """
    need = target.need
    if need == NEED_ONE:
        return [()] if table else [(c,) for c in hand]
    if need == NEED_COLOUR:
        return [()] if table else [(c,) for c in hand if c < 60 and _CARD_COLOUR[c] == target.value]
    if need == NEED_ALL:
        return [tuple(hand)]
    number = _CARD_NUMBER
    numbers = [c for c in hand if c < _NUMBER_CARDS]
    if need == NEED_PHASE_SUM:
        day = target.phase == box.DAY
        numbers = [c for c in numbers if _CARD_IS_DAY[c] == day]
    left = target.value
    for c in table:
        left -= number[c]
    if left == 0:
        return [()]
    if left < 0:
        return []
    found = []  # every subset making the sum, in the order of _SUBSETS
    for subset in _SUBSETS[len(numbers)]:
        total = 0
        for b in subset:
            total += number[numbers[b]]
        if total == left:
            found.append(tuple([numbers[b] for b in subset]))
    return found


# --- moving -------------------------------------------------------------------


@cython.ccall
@cython.locals(code=cython.int, seat=cython.int)
@cython.returns(cython.int)
def extra_cost(code: int, seat: int) -> int:
    """Returns the extra cost of passing a space blocked by ``code`` for ``seat`` (D5): 0, 1 or 2."""
    if code == EMPTY or code == seat:
        return 0
    return 2 if code >= TRILITHON else 1


def lost_turns(code: int, in_horseshoe: bool, seat: int) -> int:
    """Returns the turns a runner loses for ending its move on a space blocked by ``code`` (D6)."""
    if code == EMPTY or code == seat:
        return 0
    if code >= TRILITHON:
        return 0 if in_horseshoe else 2
    return 1


@cython.locals(cover=list, seat=cython.int, start=cython.int, colour=cython.int, destination=cython.int)
def coloured_way(cover: list[int], seat: int, start: int, colour: int) -> tuple[int, list[int]]:
    """Returns the destination of a coloured-ring move (D2) and the blocked spaces in the way.

    ``start`` is a coloured space id below 29; the destination is the next space of
    ``colour`` ahead, or numbered space 1 when there is none.
    """
    destination = _COLOURED_DESTINATION[start][colour]  # box.next_coloured_space's, as a table
    way = [s for s in range(start + 1, min(destination, NUMBERED)) if extra_cost(cover[s], seat)]
    return destination, way


_COLOURED_DESTINATION = tuple(
    tuple(
        NUMBERED if n is None else COLOURED + n - 1 for n in [box.next_coloured_space(start + 1, c) for c in range(6)]
    )
    for start in range(NUMBERED)
)
"""Per coloured space id and colour: the destination of :func:`coloured_way`."""


@cython.locals(cover=list, seat=cython.int, start=cython.int, colour=cython.int, destination=cython.int)
@cython.locals(need=cython.int, space=cython.int, code=cython.int)
def coloured_need(cover: list[int], seat: int, start: int, colour: int) -> tuple[int, int]:
    """Returns the destination of a coloured-ring move (D2) and the extra cards of ``colour`` that
    pass every block in the way (D5): :func:`coloured_way` with the costs of the way summed."""
    destination = _COLOURED_DESTINATION[start][colour]
    need = 0
    for space in range(start + 1, destination if destination < NUMBERED else NUMBERED):
        code = cover[space]
        if code != EMPTY and code != seat:
            need += 2 if code >= TRILITHON else 1  # extra_cost
    return destination, need


@cython.locals(cover=list, seat=cython.int, start=cython.int, colour=cython.int, paid=cython.int)
@cython.locals(destination=cython.int, space=cython.int, cost=cython.int, way=list)
def coloured_move(cover: list[int], seat: int, start: int, colour: int, paid: int) -> int:
    """Returns where a coloured-ring move ends when ``paid`` extra cards of ``colour`` were played (D5)."""
    destination, way = coloured_way(cover, seat, start, colour)
    for space in way:
        cost = extra_cost(cover[space], seat)
        if paid < cost:
            return space
        paid -= cost
    return destination


NEED_END = -1
"""What ring_walk returns when the runner could reach the horseshoe but has not chosen an end."""


def _entry_cost(cover: list[int], end: int) -> int:
    """D5: a trilithon on the first stone makes entering it cost 3 steps."""
    return 3 if cover[BLUESTONE + PATHS[end][0]] >= TRILITHON else 1


def ring_walk(cover: list[int], seat: int, start: int, steps: int, end: int) -> int:
    """Returns the progress where ``steps`` steps from ``start`` end (D3, D5), or NEED_END.

    ``start`` is coloured 30 or a numbered or inner space; ``end`` is the chosen
    horseshoe end (0: not chosen). Leaving the block the runner starts on is free
    (D6); a block entered on the way is passed only if the steps also reach the
    space beyond it, otherwise the runner ends on its first space.
    """
    if start + steps < HORSESHOE and cover[start + 1 : start + steps + 1].count(EMPTY) == steps:
        return start + steps  # nothing in the way
    position = start
    left = steps
    exempt = cover[start] if cover[start] >= TRILITHON else EMPTY  # the trilithon under the runner at the start
    while left > 0:
        ahead = position + 1
        if ahead == HORSESHOE:
            if not end:
                return NEED_END
            return HORSESHOE if left >= _entry_cost(cover, end) else position
        code = cover[ahead]
        if code != EMPTY and code == exempt:
            position = ahead
            left -= 1
            continue
        exempt = EMPTY
        if code == EMPTY or code == seat:  # no extra cost
            position = ahead
            left -= 1
            continue
        extra = extra_cost(code, seat)
        span = 1
        while code >= TRILITHON and ahead + span < HORSESHOE and cover[ahead + span] == code:
            span += 1
        beyond = ahead + span
        if beyond == HORSESHOE:
            if not end:
                if left >= span + extra + 1:
                    return NEED_END
                return ahead
            beyond_cost = _entry_cost(cover, end)
        else:
            beyond_cost = 1
        if left < span + extra + beyond_cost:
            return ahead  # D5: ends on the block, the rest is lost
        position = beyond - 1
        left -= span + extra
    return position


@cython.locals(cover=list, seat=cython.int, end=cython.int, start=cython.int, points=cython.int)
@cython.locals(position=cython.int, cost=cython.int, extra=cython.int)
def horseshoe_walk(cover: list[int], seat: int, end: int, start: int, points: int) -> int:
    """Returns the progress reached in the horseshoe with ``points`` movement points (D4, D5)."""
    position = start
    while points > 0 and position < ALTAR:
        cost = _stone_cost(cover, end, position + 1)
        if points < cost:
            break  # D5: a runner who cannot pay stays on the stone before
        points -= cost
        position += 1
        if position == ALTAR:
            break
        extra = extra_cost(cover[BLUESTONE + stone_at(end, position)], seat)
        if extra == 1:  # a disk of another player: one more point to get past
            if points < 1 + _stone_cost(cover, end, position + 1):
                break
            points -= 1
    return position


@cython.locals(cover=list, seat=cython.int, end=cython.int, start=cython.int, total=cython.int, progress=cython.int)
def horseshoe_cost(cover: list[int], seat: int, end: int, start: int) -> int:
    """Returns the movement points a runner on horseshoe progress ``start`` needs to reach the altar (D4, D5).

    The fewest points with which :func:`horseshoe_walk` from ``start`` reaches ``ALTAR``.
    """
    total = 0
    for progress in range(start + 1, ALTAR + 1):
        total += _stone_cost(cover, end, progress)
        if progress < ALTAR and extra_cost(cover[BLUESTONE + stone_at(end, progress)], seat) == 1:
            total += 1  # a disk of another player: one more point to get past
    return total


@cython.cfunc
@cython.locals(cover=list, end=cython.int, progress=cython.int)
@cython.returns(cython.int)
def _stone_cost(cover: list[int], end: int, progress: int) -> int:
    if progress == ALTAR:
        return 1
    return 3 if cover[BLUESTONE + stone_at(end, progress)] >= TRILITHON else 1
