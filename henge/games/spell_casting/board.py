"""Stonehenge Spell Casting Game: the four rings, the sections, the cups and the action table.

Geometry (RULINGS SC2, SC3). Every space of the board is a *cell*, a small int:

* outer ring (ring 0), coloured ring (ring 1), middle (numbered) ring (ring 2):
  number ``m`` (1..30) of ring ``r`` is cell ``30 * r + m - 1``;
* inner ring: stone ``t`` (0..59, ``box.inner_index``: 1 night is 0, 30 day is 59)
  is cell ``90 + t``.

Sections are numbers 1-10, 11-20 and 21-30 (0, 1, 2 here) on every ring. The
six cups are the inside cups ``in1 in2 in3`` (0..2) and the outside cups
``out1 out2 out3`` (3..5); cup ``c`` serves section ``c % 3``.
"""

from __future__ import annotations

import cython

from henge import box

RING_NAMES: tuple[str, ...] = ("outer", "coloured", "middle", "inner")
OUTER, COLOURED, MIDDLE, INNER = range(4)
INNER_BASE = 90
CELLS = 150
CUP_NAMES: tuple[str, ...] = ("in1", "in2", "in3", "out1", "out2", "out3")
OUTSIDE_CUPS = (3, 4, 5)
START_ENERGY: tuple[int, ...] = (2, 2, 2, 1, 1, 1)
"""SC3: each inside cup starts with 2 energy disks, each outside cup with 1."""
ENERGY_DISKS = 9
FIGURE_NAMES: tuple[str, ...] = box.FIGURES
"""Figures by colour index: white, blue, green, yellow, red (0..4) and gray (5)."""
GRAY_FIGURE = 5
DISTANCES: tuple[int, ...] = (1, 5, 20)
DIRECTIONS: tuple[str, ...] = ("left", "right")
"""Left is anticlockwise (falling numbers), right clockwise (rising numbers); both wrap 30 <-> 1."""


def cell(ring: int, number: int) -> int:
    """Returns the cell of number ``number`` (1..30) on ring 0..2."""
    return 30 * ring + number - 1


def inner_cell(stone: int) -> int:
    """Returns the cell of inner stone ``stone`` (0..59)."""
    return INNER_BASE + stone


def cell_number(c: int) -> int:
    """Returns the number (1..30) of a cell on any ring."""
    return (c - INNER_BASE) // 2 + 1 if c >= INNER_BASE else c % 30 + 1


def cell_text(c: int) -> str:
    """Returns the text of a cell: ``coloured 13`` or ``inner 13 night``."""
    if c >= INNER_BASE:
        return "inner " + box.inner_text(c - INNER_BASE)
    return f"{RING_NAMES[c // 30]} {c % 30 + 1}"


CELL_TEXTS: tuple[str, ...] = tuple(cell_text(c) for c in range(CELLS))
CELL_BY_TEXT: dict[str, int] = {t: c for c, t in enumerate(CELL_TEXTS)}
SECTION: tuple[int, ...] = tuple((cell_number(c) - 1) // 10 for c in range(CELLS))
"""Section (0..2) of every cell (SC3)."""
STONE_SECTION: tuple[int, ...] = tuple(t // 20 for t in range(box.INNER_STONES))
LEFT: tuple[int, ...] = tuple(30 * (c // 30) + (c - 1) % 30 for c in range(INNER_BASE))
RIGHT: tuple[int, ...] = tuple(30 * (c // 30) + (c + 1) % 30 for c in range(INNER_BASE))
SECTION_NUMBERS: tuple[tuple[int, ...], ...] = tuple(tuple(range(10 * s + 1, 10 * s + 11)) for s in range(3))

# --- player actions ------------------------------------------------------------------
# take c (0..5), take mine c (6..11), hold c (12..17), place c (18..23), done, pass,
# displace <direction> (26..31), move <ring> <m> <left|right> (32..211),
# figure <colour> <distance> <left|right> (212..247), pull outer/coloured m (248..307),
# pull middle m night/day, by inner stone (308..367), push coloured/middle m (368..427).
TAKE = 0
TAKE_MINE = 6
HOLD = 12
PLACE = 18
DONE = 24
PASS = 25
DISPLACE = 26
DISPLACE_NAMES: tuple[str, ...] = ("left", "right", "out", "in", "in night", "in day")
D_LEFT, D_RIGHT, D_OUT, D_IN, D_IN_NIGHT, D_IN_DAY = range(6)
MOVE = 32
FIGURE = MOVE + 180
PULL = FIGURE + 36
PULL_INNER = PULL + 60
PUSH = PULL_INNER + 60
ACTION_COUNT = PUSH + 60


def _player_texts() -> tuple[str, ...]:
    texts = [f"take {c}" for c in CUP_NAMES]
    texts += [f"take mine {c}" for c in CUP_NAMES]
    texts += [f"hold {c}" for c in CUP_NAMES]
    texts += [f"place {c}" for c in CUP_NAMES]
    texts += ["done", "pass"]
    texts += [f"displace {d}" for d in DISPLACE_NAMES]
    for ring in (OUTER, COLOURED, MIDDLE):
        for m in box.NUMBERS:
            texts += [f"move {RING_NAMES[ring]} {m} {d}" for d in DIRECTIONS]
    for figure in FIGURE_NAMES:
        for distance in DISTANCES:
            texts += [f"figure {figure} {distance} {d}" for d in DIRECTIONS]
    for ring in (OUTER, COLOURED):
        texts += [f"pull {RING_NAMES[ring]} {m}" for m in box.NUMBERS]
    texts += [f"pull middle {box.inner_text(t)}" for t in range(box.INNER_STONES)]
    for ring in (COLOURED, MIDDLE):
        texts += [f"push {RING_NAMES[ring]} {m}" for m in box.NUMBERS]
    assert len(texts) == ACTION_COUNT
    return tuple(texts)


PLAYER_TEXTS = _player_texts()
CHANCE_TEXTS: tuple[str, ...] = tuple(f"draw {box.CARD_TEXT[c]}" for c in box.NUMBER_CARDS)
"""Chance outcome ``c`` turns number card ``c`` (0..59)."""


# The displacement's constants as C values where compiled (the public names above stay Python's).
_LEFT = cython.declare(tuple, LEFT)
_RIGHT = cython.declare(tuple, RIGHT)
_INNER = cython.declare(cython.int, INNER_BASE)
_OUTER_RING = cython.declare(cython.int, OUTER)
_MIDDLE_RING = cython.declare(cython.int, MIDDLE)
_D_LEFT = cython.declare(cython.int, D_LEFT)
_D_RIGHT = cython.declare(cython.int, D_RIGHT)
_D_OUT = cython.declare(cython.int, D_OUT)
_D_IN = cython.declare(cython.int, D_IN)
_D_IN_DAY = cython.declare(cython.int, D_IN_DAY)


def move_action(c: int, right: bool) -> int:
    """Returns the id of ``move`` of the component on ring cell ``c`` (0..89)."""
    return MOVE + 2 * c + (1 if right else 0)


def figure_action(figure: int, distance_index: int, right: bool) -> int:
    """Returns the id of moving figure ``figure`` by ``DISTANCES[distance_index]``."""
    return FIGURE + 2 * (3 * figure + distance_index) + (1 if right else 0)


@cython.locals(at=cython.int, direction=cython.int, ring=cython.int)
def displace_target(at: int, direction: int) -> int:
    """Returns the cell a displaced component on ``at`` would enter, or -1 if off the board (SC5)."""
    ring = at // 30
    if direction == _D_LEFT:
        return _LEFT[at]
    if direction == _D_RIGHT:
        return _RIGHT[at]
    if direction == _D_OUT:
        return at - 30 if ring > _OUTER_RING else -1
    if direction == _D_IN:
        return at + 30 if ring < _MIDDLE_RING else -1
    if ring != _MIDDLE_RING:
        return -1
    return _INNER + 2 * (at - 60) + (1 if direction == _D_IN_DAY else 0)


@cython.locals(cells=list, at=cython.int, moved=list, options=list, direction=cython.int, target=cython.int)
def displace_options(cells: list[int], at: int, moved: list[int]) -> list[int]:
    """Returns the legal directions (0..5) for the component pushed off ``at`` (SC5).

    A push may not leave the board, enter an occupied inner stone, or displace a
    component already moved in this chain.
    """
    options = []
    for direction in range(6):
        target = displace_target(at, direction)
        if target < 0 or target in moved:
            continue
        if target >= _INNER and cells[target] >= 0:
            continue
        options.append(direction)
    return options


@cython.locals(cells=list, at=cython.int, c=cython.int)
def slide_target(cells: list[int], at: int) -> int:
    """Returns the first free cell clockwise from ``at`` along its own ring (SC5)."""
    c = _RIGHT[at]
    while cells[c] >= 0:
        c = _RIGHT[c]
    return c


def setup_place(cells: list[int], number: int, seat: int) -> None:
    """SC7: the newcomer takes outer ``number``; whoever was there moves up one, pushing on."""
    c = number - 1
    carry = seat
    while cells[c] >= 0:
        cells[c], carry = carry, cells[c]
        c = RIGHT[c]
    cells[c] = carry
