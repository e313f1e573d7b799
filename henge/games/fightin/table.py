"""Fightin' an' Drinkin' an' Stealin'!: what lies on the table, as every rule step moves it.

The worth of the cards under the Wee Lawyers (F3, F4), the awards moving between the stock, the
seats and the thieves' loot (F10), cards leaving the board, the points a seat's awards count (F11),
and the lines a step writes into the record (G6) and the game log.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from henge import box
from henge.core import Event
from henge.games.fightin.actions import (
    COLOURS,
    OWNER,
    STOCK_PER_COLOUR,
)

if TYPE_CHECKING:
    from henge.games.fightin.rules import FightinState

_NUMBER = box.CARD_NUMBER
_TRILITHONS_FROM = box.TRILITHON_CARD_BASE  # the trilithon cards are the cards from here on
_COLOUR = box.CARD_COLOUR
_TEXT = box.CARD_TEXT
_EARNS: tuple[tuple[tuple[str, ...], ...], ...] = tuple(
    tuple(tuple(f"seat {seat} earns {n} {colour}" for n in range(STOCK_PER_COLOUR + 1)) for colour in COLOURS)
    for seat in (0, 1)
)
"""``seat N earns K colour`` by seat, colour and count (never more than a colour's whole stock, F10)."""


# -- values ---------------------------------------------------------------------


def value(state: FightinState, card: int) -> int:
    """F3: a player's card is worth its number, or 0 under its owner's Wee Lawyer of its colour."""
    return _values(state)[card]


_VALUES: dict[tuple[int, ...], tuple[int, ...]] = {}
"""Every card's value, by who holds each colour's Wee Lawyer (3**5 ways at most; each made when first met)."""


def _values(state: FightinState) -> tuple[int, ...]:
    """Returns value() of every card (indexed by card) under the Wee Lawyers as they stand (F3)."""
    key = tuple(state.wee)
    values = _VALUES.get(key)
    if values is None:
        wee = state.wee
        values = _VALUES[key] = tuple(
            [
                0 if colour < 5 and wee[colour] == owner else number
                for number, colour, owner in zip(_NUMBER, _COLOUR, OWNER, strict=True)
            ]
        )
    return values


def _total(values: tuple[int, ...], cards: list[int]) -> int:
    """Returns the summed values of ``cards``, each read from ``values`` (see _values)."""
    total = 0
    for card in cards:
        total += values[card]
    return total


def monster_values(monsters: list[int]) -> list[int]:
    """F4: a trilithon card counts 0 and doubles the other monster card's number."""
    values = [0 if m >= _TRILITHONS_FROM else _NUMBER[m] for m in monsters]
    if len(monsters) == 2:
        first, second = monsters[0] >= _TRILITHONS_FROM, monsters[1] >= _TRILITHONS_FROM  # which are trilithons
        if first and not second:
            values[1] *= 2
        elif second and not first:
            values[0] *= 2
    return values


def _points(state: FightinState, seat: int) -> list[int]:
    """F11: each colour's awards in half awards; a held Wee Lawyer's colour counts half."""
    held = state.awards[seat * 5 : seat * 5 + 5]
    return [count if state.wee[colour] == seat else 2 * count for colour, count in enumerate(held)]


# -- awards and cards -------------------------------------------------------------------


def _multiplier(state: FightinState) -> int:
    return 2 if state.round == state.rounds else 1  # the seventh (last) round is worth double


def _from_stock(state: FightinState, colour: int, count: int) -> int:
    """Takes up to ``count`` awards of a colour from stock; F10: what the stock lacks is not given."""
    count = min(count, state.stock[colour])
    state.stock[colour] -= count
    return count


def _give(state: FightinState, seat: int, colour: int, count: int) -> None:
    """Gives a seat ``count`` awards of a colour from stock."""
    count = _from_stock(state, colour, count)
    if count:
        state.awards[seat * 5 + colour] += count
        _note(state, _EARNS[seat][colour][count])


def _discard(state: FightinState, card: int) -> None:
    """Moves one of a seat's board cards to its owner's discard pile (loot goes back to stock)."""
    owner = OWNER[card]
    cards = state.board[state.event * 2 + owner]  # where cards leave the board: the event being resolved
    if card in cards:
        cards.remove(card)
    else:  # (not in play) wherever else the seat's events hold it
        for pile in state.board[owner::2]:
            if card in pile:
                pile.remove(card)
                break
    state.discards[owner].append(card)
    loot = state.loot
    at = card * 5
    if loot[at] or loot[at + 1] or loot[at + 2] or loot[at + 3] or loot[at + 4]:
        for colour in range(5):
            count = loot[at + colour]
            if count:
                state.stock[colour] += count
                loot[at + colour] = 0


def _loot_count(state: FightinState, card: int) -> int:
    at = card * 5
    return sum(state.loot[at : at + 5])


def _move_loot(state: FightinState, source: int, target: int) -> None:
    loot = state.loot
    for colour in range(5):
        loot[target * 5 + colour] += loot[source * 5 + colour]
        loot[source * 5 + colour] = 0


def _deposit(state: FightinState, card: int) -> None:
    loot = state.loot
    at = card * 5
    if loot[at] or loot[at + 1] or loot[at + 2] or loot[at + 3] or loot[at + 4]:
        awards = state.awards
        owner = OWNER[card] * 5
        for colour in range(5):
            awards[owner + colour] += loot[at + colour]
            loot[at + colour] = 0


def _take_wee_lawyer(state: FightinState, seat: int, colour: int) -> None:
    state.wee[colour] = seat
    _note(state, f"seat {seat} takes the {COLOURS[colour]} Wee Lawyer")


# -- the record (G6) and the log ---------------------------------------------------------


def _note(state: FightinState, text: str) -> None:
    """A public line of the table, the rules' doing (actor -1): the log and every seat's record."""
    state.log = (state.log, text)  # state.log_line(text)
    state._log = Event(state._log, -1, text, None)


def _act(state: FightinState, seat: int, text: str, line: str | None = None) -> None:
    """A seat's public move: ``text`` in the record (the entry names the seat), ``line`` in the
    log (default: ``seat N`` and the text); no line for a move the log does not tell."""
    state._log = Event(state._log, seat, text, None)
    if line != "":
        state.log = (state.log, (seat, text) if line is None else line)  # (seat, text): "seat N text"
