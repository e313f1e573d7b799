"""Fightin' an' Drinkin' an' Stealin'!: what lies on the table, as every rule step moves it.

``Position``, the fields of a position: the base of the state class in
:mod:`henge.games.fightin.rules`, so that the rule modules read and write a state through it and
never import the module that defines the state. Then the worth of the cards under the Wee Lawyers
(F3, F4), the points a seat's awards count (F11), the awards moving between the stock, the seats
and the thieves' loot (F10), cards leaving the board, and the lines a step writes into the record
(G6) and the game log.
"""

from __future__ import annotations

from typing import Any

import cython

from henge import box
from henge.core import Event, Trail

# The groups of lists a clone shares (see _own): C ints where compiled.
cython.declare(SHARE_LOOT=cython.int, SHARE_BOARD=cython.int, SHARE_DECKS=cython.int)
cython.declare(SHARE_MONSTERS=cython.int, SHARE_DISCARDS=cython.int)
from henge.games.fightin.actions import (  # noqa: E402
    COLOURS,
    OWNER,
    SHARE_BOARD,
    SHARE_DECKS,
    SHARE_DISCARDS,
    SHARE_LOOT,
    SHARE_MONSTERS,
    STOCK_PER_COLOUR,
)

if not cython.compiled:  # compiled, position.pxd cimports the core's State (a class it derives from)
    from henge.core import State

_NUMBER = box.CARD_NUMBER
_TRILITHONS_FROM = box.TRILITHON_CARD_BASE  # the trilithon cards are the cards from here on
_COLOUR = box.CARD_COLOUR
_TEXT = box.CARD_TEXT
_EARNS: tuple[tuple[tuple[str, ...], ...], ...] = tuple(
    tuple(tuple(f"seat {seat} earns {n} {colour}" for n in range(STOCK_PER_COLOUR + 1)) for colour in COLOURS)
    for seat in (0, 1)
)
"""``seat N earns K colour`` by seat, colour and count (never more than a colour's whole stock, F10)."""


Lines = tuple[Any, str | tuple[int, str]] | None
"""The game log: (the lines before, the newest line), or None for none. A line (seat, text) is
written ``seat N text`` when the log is read (observation.log_lines)."""
Entry = tuple[int, int, int, int]
"""A hidden move, an entry of the trail the resampler reads (a core ``Trail``): (seat, round,
event, card), event -1 for a draw."""


@cython.auto_pickle(False)
@cython.cclass
class Position(State):
    """The fields of a Fightin' position, as the rule modules read and write them; the state class
    (``FightinState``) sets them up, copies them and adds the public API.

    Compiled, it is an extension type whose fields are the ones named in ``__slots__``, declared as C
    fields in position.pxd (the rule modules cimport it from there)."""

    __slots__ = (
        "_shared",
        "altar",
        "awards",
        "board",
        "deck_draws",
        "decks",
        "discards",
        "down",
        "dropped",
        "event",
        "gonagal",
        "habeas",
        "hands",
        "high",
        "kind",
        "lawyer",
        "lead",
        "log",
        "loot",
        "monster_deck",
        "monster_discards",
        "monsters",
        "phase",
        "player",
        "round",
        "rounds",
        "scores",
        "second",
        "step",
        "stock",
        "taken",
        "trail",
        "trail_tail",
        "wee",
        "winners",
    )

    if not cython.compiled:  # the fields (compiled: declared in position.pxd; an annotation here would clash)
        _shared: int  # the groups of lists a clone may share (see _own)
        phase: int  # DEAL, DRAW, FLIP, CHOOSE or OVER (AUTO while the steps run)
        step: int  # the next automatic step (actions.STEP_NAMES)
        kind: int  # the pending decision (CHOOSE), else -1
        player: int  # the seat being dealt to, drawing or deciding
        event: int  # the event being dealt to, placed at or resolved (3: none)
        round: int  # 0 during set-up, then 1..7
        rounds: int  # the last round (7; the designer option rounds)
        hands: list[list[int]]  # each seat's hand
        decks: list[list[int]]  # each seat's deck, sorted by card id
        deck_draws: list[tuple[int, ...]]  # each deck's draw outcomes, kept with the deck
        board: list[list[int]]  # face-up cards, index event * 2 + seat
        down: list[int]  # the face-down newcomer, index event * 2 + seat
        monsters: list[int]  # the monster card(s) on the board
        monster_deck: list[int]  # sorted by card id
        discards: list[list[int]]  # each seat's discard pile
        monster_discards: list[int]
        loot: list[int]  # awards riding on thief card c: loot[c * 5 + colour]
        awards: list[int]  # awards[seat * 5 + colour]
        stock: list[int]  # F10
        altar: int  # blue awards on the altar stone
        lawyer: int  # the Big Lawyer's space
        wee: list[int]  # holder of each colour's Wee Lawyer, -1 for nobody
        gonagal: int  # seat whose Gonagal works in the event being resolved
        lead: int  # champion, biggest drinker's owner or the Gonagal's owner
        high: int  # Stealin': the highest thief card, -1 for none
        second: int  # Stealin': the second-highest thief card
        taken: int  # awards taken by the current steal so far (99: stopped)
        habeas: list[int]  # 1 if that seat was Habeascorpusized this round
        dropped: list[int]  # colour each seat dropped at scoring
        scores: tuple[int, ...]  # final scores in half awards
        winners: tuple[int, ...]
        log: Lines  # the table's log, newest line first (observation.log_lines reads it)
        trail: Trail | None  # the hidden moves of the history, made by the resampler's replay
        trail_tail: list[Entry] | None  # the hidden moves recorded while it replays (None: not recorded)

    def _chance_actions(self) -> tuple[int, ...]:
        """Returns the chance outcomes, sorted (the state's own: a tuple, kept as the legal set)."""
        raise NotImplementedError


@cython.ccall
@cython.locals(state=Position, bits=cython.int, decks=list, discards=list)
def _own(state: Position, bits: int) -> None:
    """Gives ``state`` lists of its own for each group of lists in ``bits`` it may share with a clone."""
    bits &= state._shared
    if not bits:
        return
    state._shared ^= bits
    if bits & SHARE_LOOT:
        state.loot = state.loot[:]
    if bits & SHARE_BOARD:
        state.board = [cards[:] for cards in state.board]
    if bits & SHARE_DECKS:
        decks = state.decks
        state.decks = [decks[0][:], decks[1][:]]
        state.deck_draws = state.deck_draws[:]
    if bits & SHARE_MONSTERS:
        state.monsters = state.monsters[:]
        state.monster_deck = state.monster_deck[:]
        state.monster_discards = state.monster_discards[:]
    if bits & SHARE_DISCARDS:
        discards = state.discards
        state.discards = [discards[0][:], discards[1][:]]


# -- values ---------------------------------------------------------------------


@cython.locals(state=Position)
def value(state: Position, card: int) -> int:
    """F3: a player's card is worth its number, or 0 under its owner's Wee Lawyer of its colour."""
    return _values(state)[card]


_VALUES: list[tuple[int, ...] | None] = [None] * 3**5
"""Every card's value, by who holds each colour's Wee Lawyer (indexed by _wee_key; each made when first met)."""


@cython.ccall
@cython.locals(
    state=Position,
    key=cython.int,
    white=cython.int,
    blue=cython.int,
    green=cython.int,
    yellow=cython.int,
    red=cython.int,
)
def _values(state: Position) -> tuple[int, ...]:
    """Returns value() of every card (indexed by card) under the Wee Lawyers as they stand (F3)."""
    wee = state.wee
    white, blue, green, yellow, red = wee  # each colour's holder: -1, 0 or 1
    key = (((white + 1) * 3 + blue + 1) * 3 + green + 1) * 9 + (yellow + 1) * 3 + red + 1  # the digits in base 3
    values = _VALUES[key]
    if values is None:
        values = _VALUES[key] = tuple(
            [
                0 if colour < 5 and wee[colour] == owner else number
                for number, colour, owner in zip(_NUMBER, _COLOUR, OWNER, strict=True)
            ]
        )
    return values


@cython.ccall
@cython.locals(values=tuple, cards=list, card=cython.int, total=cython.int, number=cython.int)
def _total(values: tuple[int, ...], cards: list[int]) -> int:
    """Returns the summed values of ``cards``, each read from ``values`` (see _values)."""
    total = 0
    for card in cards:
        number = values[card]
        total += number
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


@cython.locals(state=Position)
def _points(state: Position, seat: int) -> list[int]:
    """F11: each colour's awards in half awards; a held Wee Lawyer's colour counts half."""
    held = state.awards[seat * 5 : seat * 5 + 5]
    return [count if state.wee[colour] == seat else 2 * count for colour, count in enumerate(held)]


# -- awards and cards -------------------------------------------------------------------


@cython.locals(state=Position)
def _multiplier(state: Position) -> int:
    return 2 if state.round == state.rounds else 1  # the seventh (last) round is worth double


@cython.locals(state=Position)
def _from_stock(state: Position, colour: int, count: int) -> int:
    """Takes up to ``count`` awards of a colour from stock; F10: what the stock lacks is not given."""
    count = min(count, state.stock[colour])
    state.stock[colour] -= count
    return count


@cython.locals(state=Position, seat=cython.int, colour=cython.int, count=cython.int)
def _give(state: Position, seat: int, colour: int, count: int) -> None:
    """Gives a seat ``count`` awards of a colour from stock."""
    count = _from_stock(state, colour, count)
    if count:
        state.awards[seat * 5 + colour] += count
        _note(state, _EARNS[seat][colour][count])


@cython.locals(
    state=Position, card=cython.int, owner=cython.int, at=cython.int, colour=cython.int, count=cython.int, loot=list
)
def _discard(state: Position, card: int) -> None:
    """Moves one of a seat's board cards to its owner's discard pile (loot goes back to stock)."""
    if state._shared:
        _own(state, SHARE_BOARD | SHARE_DISCARDS)
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
        if state._shared & SHARE_LOOT:
            _own(state, SHARE_LOOT)
            loot = state.loot
        for colour in range(5):
            count = loot[at + colour]
            if count:
                state.stock[colour] += count
                loot[at + colour] = 0


@cython.locals(state=Position, card=cython.int, at=cython.int)
def _loot_count(state: Position, card: int) -> int:
    at = card * 5
    return sum(state.loot[at : at + 5])


@cython.locals(state=Position, source=cython.int, target=cython.int, colour=cython.int, loot=list)
def _move_loot(state: Position, source: int, target: int) -> None:
    if state._shared & SHARE_LOOT:
        _own(state, SHARE_LOOT)
    loot = state.loot
    for colour in range(5):
        loot[target * 5 + colour] += loot[source * 5 + colour]
        loot[source * 5 + colour] = 0


@cython.locals(
    state=Position, card=cython.int, at=cython.int, owner=cython.int, colour=cython.int, loot=list, awards=list
)
def _deposit(state: Position, card: int) -> None:
    loot = state.loot
    at = card * 5
    if loot[at] or loot[at + 1] or loot[at + 2] or loot[at + 3] or loot[at + 4]:
        if state._shared & SHARE_LOOT:
            _own(state, SHARE_LOOT)
            loot = state.loot
        awards = state.awards
        owner = OWNER[card] * 5
        for colour in range(5):
            awards[owner + colour] += loot[at + colour]
            loot[at + colour] = 0


@cython.locals(state=Position)
def _take_wee_lawyer(state: Position, seat: int, colour: int) -> None:
    state.wee[colour] = seat
    _note(state, f"seat {seat} takes the {COLOURS[colour]} Wee Lawyer")


# -- the record (G6) and the log ---------------------------------------------------------


@cython.ccall
@cython.locals(state=Position)
def _note(state: Position, text: str) -> None:
    """A public line of the table, the rules' doing (actor -1): the log and every seat's record."""
    state.log = (state.log, text)  # state.log_line(text)
    state._log = Event(state._log, -1, text, None)


@cython.locals(state=Position)
def _act(state: Position, seat: int, text: str, line: str | None = None) -> None:
    """A seat's public move: ``text`` in the record (the entry names the seat), ``line`` in the
    log (default: ``seat N`` and the text); no line for a move the log does not tell."""
    state._log = Event(state._log, seat, text, None)
    if line != "":
        state.log = (state.log, (seat, text) if line is None else line)  # (seat, text): "seat N text"
