"""The Stonehenge Anthology box: colours, the 65-card deck, the pieces and the board.

Every game takes its cards, pieces and board geometry from here (the
anthology's components); no game re-declares a card or a colour. Cards are
small integers so that game states stay flat lists of ints:

* number card ``n`` (1..30) of phase night/day: ``2 * (n - 1) + (1 if day else 0)``
  (the same index as its stone on the inner ring);
* the trilithon card of player colour ``k`` (0..4): ``60 + k``.
"""

from __future__ import annotations

from collections.abc import Iterable

# --- colours -----------------------------------------------------------------

COLOURS: tuple[str, ...] = ("white", "blue", "green", "yellow", "red", "black")
WHITE, BLUE, GREEN, YELLOW, RED, BLACK = range(6)
PLAYER_COLOURS: tuple[str, ...] = COLOURS[:5]
"""The five colours that have pieces; black has none."""
GRAY = "gray"
"""The neutral figure and the trilithons."""


def colour_index(n: int) -> int:
    """Returns the colour index (0..5) of number ``n`` (1..30) on cards and the coloured ring."""
    if not 1 <= n <= 30:
        raise ValueError(f"numbers run 1..30, not {n}")
    return (n - 1) % 6


def colour_of(n: int) -> str:
    """Returns the colour name of number ``n`` (1..30), e.g. ``colour_of(6) == 'black'``."""
    return COLOURS[colour_index(n)]


# --- the deck ----------------------------------------------------------------

NUMBERS = range(1, 31)
NIGHT, DAY = 0, 1
DECK_SIZE = 65
NUMBER_CARD_COUNT = 60
TRILITHON_CARD_BASE = 60


def number_card(n: int, day: bool) -> int:
    """Returns the card id of number ``n`` (1..30), day (sun) or night (moon)."""
    if not 1 <= n <= 30:
        raise ValueError(f"card numbers run 1..30, not {n}")
    return 2 * (n - 1) + (1 if day else 0)


def trilithon_card(colour: int) -> int:
    """Returns the card id of the trilithon card of player colour ``colour`` (0..4)."""
    if not 0 <= colour < 5:
        raise ValueError(f"trilithon cards come in the player colours {PLAYER_COLOURS}")
    return TRILITHON_CARD_BASE + colour


def _text(card: int) -> str:
    if card >= TRILITHON_CARD_BASE:
        return f"T-{PLAYER_COLOURS[card - TRILITHON_CARD_BASE]}"
    return f"{card // 2 + 1}{'d' if card % 2 else 'n'}"


CARD_NUMBER: tuple[int, ...] = tuple(c // 2 + 1 if c < 60 else 0 for c in range(DECK_SIZE))
"""Number of each card; 0 for a trilithon card (it has none)."""
CARD_IS_DAY: tuple[bool, ...] = tuple(c < 60 and c % 2 == 1 for c in range(DECK_SIZE))
CARD_IS_NIGHT: tuple[bool, ...] = tuple(c < 60 and c % 2 == 0 for c in range(DECK_SIZE))
CARD_COLOUR: tuple[int, ...] = tuple(
    colour_index(c // 2 + 1) if c < 60 else c - TRILITHON_CARD_BASE for c in range(DECK_SIZE)
)
"""Colour index of each card: by number for number cards, the dot for trilithon cards."""
CARD_TEXT: tuple[str, ...] = tuple(_text(c) for c in range(DECK_SIZE))
"""Canonical card text: ``13d`` (13, day), ``13n`` (13, night), ``T-red`` (trilithon card)."""
_CARD_BY_TEXT = {t.lower(): c for c, t in enumerate(CARD_TEXT)}

NUMBER_CARDS: tuple[int, ...] = tuple(range(NUMBER_CARD_COUNT))
TRILITHON_CARDS: tuple[int, ...] = tuple(range(TRILITHON_CARD_BASE, DECK_SIZE))
FULL_DECK: tuple[int, ...] = tuple(range(DECK_SIZE))


def is_trilithon_card(card: int) -> bool:
    """Returns True for the five trilithon cards."""
    return card >= TRILITHON_CARD_BASE


def card_text(card: int) -> str:
    """Returns the canonical text of a card id."""
    return CARD_TEXT[card]


def parse_card(text: str) -> int:
    """Returns the card id of a card text such as ``13d``, ``7n`` or ``T-red``."""
    card = _CARD_BY_TEXT.get(text.strip().lower())
    if card is None:
        raise ValueError(
            f"unknown card {text!r}; cards are written 1d..30d (day), 1n..30n (night) "
            f"or T-white, T-blue, T-green, T-yellow, T-red (trilithon cards)"
        )
    return card


def number_cards(*, day: bool = True, night: bool = True, numbers: Iterable[int] = NUMBERS) -> tuple[int, ...]:
    """Returns the number cards with the given phases and numbers, sorted by id."""
    wanted = set(numbers)
    return tuple(
        c
        for c in NUMBER_CARDS
        if CARD_NUMBER[c] in wanted and ((day and CARD_IS_DAY[c]) or (night and CARD_IS_NIGHT[c]))
    )


# --- the pieces --------------------------------------------------------------

FIGURES: tuple[str, ...] = PLAYER_COLOURS + (GRAY,)
"""Six figures ("druids"): one of each player colour and one gray (neutral)."""
DISKS_PER_COLOUR = 10
BARS_PER_COLOUR = 10
TRILITHON_PIECES = 5
"""Gray trilithons, each two uprights and a capstone whose recess holds one disk."""

# --- the board ---------------------------------------------------------------

RING_SPACES = 30
"""The outer, coloured and numbered rings each have one space per number 1..30, clockwise."""
COLOURED_RING: tuple[int, ...] = tuple(colour_index(n) for n in NUMBERS)
"""Colour index of coloured-ring space n at position n - 1."""
INNER_STONES = 60
BLUESTONES = 19
"""Stones of the bluestone horseshoe, numbered 1..19 from one end clockwise."""
BLUESTONE_MIDDLE = 10
TRILITHON_SPACES = 5


def inner_index(n: int, day: bool) -> int:
    """Returns the inner-ring index (0..59) of stone ``n`` night/day; 1 night is 0, 30 day is 59."""
    if not 1 <= n <= 30:
        raise ValueError(f"inner stones are numbered 1..30, not {n}")
    return 2 * (n - 1) + (1 if day else 0)


def inner_stone(index: int) -> tuple[int, bool]:
    """Returns ``(number, is_day)`` of inner-ring stone ``index`` (0..59)."""
    if not 0 <= index < INNER_STONES:
        raise ValueError(f"inner stones are indexed 0..59, not {index}")
    return index // 2 + 1, index % 2 == 1


def inner_text(index: int) -> str:
    """Returns the text of an inner stone, e.g. ``12 night``."""
    n, day = inner_stone(index)
    return f"{n} {'day' if day else 'night'}"


def next_coloured_space(n: int, colour: int) -> int | None:
    """Returns the first coloured-ring space after space ``n`` (0..30) of colour index ``colour``, or None.

    Counting stops at space 30 (no wrap): ``next_coloured_space(0, WHITE) == 1``.
    """
    if not 0 <= n <= RING_SPACES:
        raise ValueError(f"coloured spaces run 1..30 (0 = before space 1), not {n}")
    for space in range(n + 1, RING_SPACES + 1):
        if COLOURED_RING[space - 1] == colour:
            return space
    return None


BLUESTONE_ENDS: tuple[int, int] = (1, BLUESTONES)
"""The two end stones of the horseshoe (the stones furthest from the altar stone)."""


def bluestone_path(end: int) -> tuple[int, ...]:
    """Returns the bluestones from end stone ``end`` (1 or 19) to the middle stone, in walking order.

    Both paths hold ten stones and meet on the middle stone 10, which lies nearest the altar stone.
    """
    if end == 1:
        return tuple(range(1, BLUESTONE_MIDDLE + 1))
    if end == BLUESTONES:
        return tuple(range(BLUESTONES, BLUESTONE_MIDDLE - 1, -1))
    raise ValueError(f"the horseshoe's ends are stones 1 and {BLUESTONES}, not {end}")
