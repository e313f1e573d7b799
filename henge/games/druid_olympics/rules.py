"""Druid Olympics, a racing game by Nicholas Tolle, for 3-5 players.

Rule set: *Druid Olympics*, from the Stonehenge Anthology. Rulings
G1-G7 and D1-D9 apply; ``docs/games/druid_olympics.md`` documents them and the
edition's other readings. The course and the movement rules live in
:mod:`henge.games.druid_olympics.board`, the placements a hand can pay for in
:mod:`henge.games.druid_olympics.placements`.

A turn is a blocking round then a moving round, each from the first player
clockwise, then everyone draws back up to three cards. Blocks are compound
choices entered as a short series of decisions (G2): the place first
(``bar on numbered 13``), then the cards that pay for it one at a time
(``use 6d``, ``use 7n``); a trilithon's own card, and the two cards a
bluestone trilithon sacrifices (in card order), are laid with the place. A move is ``move X``
(in the horseshoe several ``move X`` then ``done``), followed on the coloured
ring by ``pay Y`` cards to pass blocks and ``done``, and on entering the
horseshoe by ``enter stone 1`` or ``enter stone 19``.

What each seat knows (G3, G6): every card is laid face up, so the only secrets
are the cards the other seats drew. The record (``State._record``) gives every
seat every decision and every consequence, and each draw as "seat k draws a
card", with the card for the drawer only. ``resample_from_infostate`` re-draws
exactly those hidden draws, subject to everything the seat later saw, and
replays the history (docs/games/druid_olympics.md, "What each seat knows").
"""

from __future__ import annotations

import random
from bisect import bisect_left
from collections.abc import Mapping
from itertools import combinations, product
from typing import Any, cast

import cython

from henge import box
from henge.core import (
    CHANCE,
    TERMINAL,
    TRAIL_BLOCK,
    Event,
    Game,
    GameInfo,
    IllegalActionError,
    Option,
    Trail,
    check,
    load_int,
    replayed_record,
    scaled_returns,
    trail_entries,
)
from henge.core.state import State  # compiled: the extension type that rules.pxd derives from
from henge.games.druid_olympics import board, placements
from henge.games.druid_olympics.board import (
    ALTAR,
    BAR,
    BLUESTONE,
    EMPTY,
    ENDS,
    HORSESHOE,
    NEED_ALL,
    NEED_END,
    POINT_SUM,
    POINT_SUMS,
    RUNNER_TEXTS,
    TARGETS,
    TRILITHON,
    coloured_move,
    coloured_need,
    horseshoe_walk,
    lost_turns,
    paying_cards,
    ring_walk,
    stone_at,
)
from henge.games.druid_olympics.placements import TARGET_SPACES

cython.declare(_HAND=cython.int)
_HAND = 3
_ROUND_CAP = 200  # G4: turns; no random game of 3000 reached it (docs/games/druid_olympics.md)
cython.declare(_LOG=cython.int)
_LOG = 8
_RESAMPLE_TRIES = 300
"""Deals tried before the exhaustive count, while a seat is paying a block (see _fill)."""
_MAX_RESHUFFLES = 10_000
RUNNERS: tuple[str, ...] = box.PLAYER_COLOURS
"""Seat i runs with the figure, bar and disk of the i-th player colour."""

# Player actions.
cython.declare(PASS=cython.int, DONE=cython.int, ENTER_1=cython.int, ENTER_19=cython.int)
cython.declare(_MOVE=cython.int, _PAY=cython.int, _USE=cython.int)
PASS, DONE, ENTER_1, ENTER_19 = range(4)
_MOVE = 4
_PAY = _MOVE + box.NUMBER_CARD_COUNT
_USE = _PAY + box.NUMBER_CARD_COUNT
_TARGET = _USE + box.DECK_SIZE
_USE_ACTION = tuple(_USE + c for c in box.FULL_DECK)
_PLACEMENTS = placements.Placements(_TARGET)
_NUMBER_TEXTS = box.CARD_TEXT[: box.NUMBER_CARD_COUNT]
_PLAYER_TEXTS = (
    ("pass", "done", "enter stone 1", "enter stone 19")
    + tuple(f"move {t}" for t in _NUMBER_TEXTS)
    + tuple(f"pay {t}" for t in _NUMBER_TEXTS)
    + tuple(f"use {t}" for t in box.CARD_TEXT)
    + tuple(t.text for t in TARGETS)
)
# Chance outcomes: draw card c (c), seat k goes first (65 + k).
_FIRST = box.DECK_SIZE
_CHANCE_TEXTS = tuple(f"draw {t}" for t in box.CARD_TEXT) + tuple(f"first seat {k}" for k in range(5))

# Phases.
cython.declare(DEAL=cython.int, FIRST=cython.int, BLOCK=cython.int, BLOCK_CARDS=cython.int, MOVE=cython.int)
cython.declare(PAY=cython.int, ENTER=cython.int, DRAW=cython.int, OVER=cython.int)
DEAL, FIRST, BLOCK, BLOCK_CARDS, MOVE, PAY, ENTER, DRAW, OVER = range(9)
_PHASE_NAMES = ("deal", "choose first", "block", "block cards", "move", "pay", "enter", "draw", "over")
_DECISIONS = (BLOCK, BLOCK_CARDS, MOVE, PAY, ENTER)
_LATER = tuple(
    tuple(
        tuple(tuple((first + k) % n for k in range((seat - first) % n + 1, n)) for seat in range(n))
        + (tuple((first + k) % n for k in range(n)),)
        for first in range(n)
    )
    for n in range(6)
)
"""Per player count, first seat and seat: the seats after it in a round's order (from the first
seat clockwise); at index -1, before anyone has acted in the round, all of them."""

_COLOUR = box.CARD_COLOUR
_NUMBER = box.CARD_NUMBER
_TEXT = box.CARD_TEXT
cython.declare(_TRI_CARD=cython.int, _COLOURED_30=cython.int)
_TRI_CARD = box.TRILITHON_CARD_BASE
_COLOURED_30 = board.NUMBERED - 1

# Copy on write: a clone shares the state's lists, and each of the two copies a list the first time
# the rules change it (one bit per list in _shared, set in both by _copy; the rules change a list in
# place only after _own or _own_hand). Someone changing a state's list in place, outside the rules,
# gives it a new list instead (state.pos = [...]).
cython.declare(_SHARE_POS=cython.int, _SHARE_END=cython.int, _SHARE_OWED=cython.int, _SHARE_SKIP=cython.int)
cython.declare(_SHARE_DRAINED=cython.int, _SHARE_BLOCKS=cython.int, _SHARE_DRAW=cython.int)
cython.declare(_SHARE_DISCARD=cython.int, _SHARE_TABLE=cython.int, _SHARE_TAIL=cython.int, _SHARE_HANDS=cython.int)
cython.declare(_SHARE_HAND=cython.int, _SHARE_ALL=cython.int)
_SHARE_POS, _SHARE_END, _SHARE_OWED, _SHARE_SKIP, _SHARE_DRAINED = 1, 2, 4, 8, 16
_SHARE_BLOCKS = 32  # bar, disk, tri and cover, changed together
_SHARE_DRAW, _SHARE_DISCARD, _SHARE_TABLE, _SHARE_TAIL = 64, 128, 256, 512
_SHARE_HANDS = 1024  # the lists of hands and of since themselves
_SHARE_HAND = 2048  # seat k's hand and since: _SHARE_HAND << k
_SHARE_ALL = (_SHARE_HAND << 5) - 1

# The trail (the core's): an entry (kind, history index, seat, card or pile) for every card that
# enters or leaves a hand and every reshuffle, in blocks of TRAIL_BLOCK entries shared by clones
# like the record (a clone copies the shorter list since the last block, as for the history:
# cheaper than a block at every clone, and nothing is cached on a block). The resampler reads
# it; it is rebuilt by replay for a loaded state.
_DRAWN, _LAID, _SHUFFLED = range(3)
_DRAWS: tuple[str, ...] = tuple(f"seat {seat} draws a card" for seat in range(5))
_DRAWN_TEXTS: tuple[tuple[Mapping[int, str], ...], ...] = tuple(
    tuple({seat: f"seat {seat} draws {_TEXT[c]}"} for c in range(box.DECK_SIZE)) for seat in range(5)
)
"""The record's texts of a draw (G6): every seat's, and the drawer's own (shared, never changed)."""
Entry = tuple[int, int, int, Any]
"""A trail entry: (kind, history index, seat or -1, the card drawn or laid, or the pile reshuffled)."""


class DruidOlympicsState(State):
    """A Druid Olympics position: runners on the course, blocks, hands and piles.

    Compiled, it is an extension type whose fields and rule methods are declared in rules.pxd
    (C fields; cpdef methods, which a Python subclass still overrides). A clone shares the state's
    lists until the rules change one (copy on write, see _own): outside the rules, give a field a
    new list rather than changing its list in place."""

    __slots__ = (
        "_shared",
        "bar",
        "cover",
        "covered",
        "discard",
        "disk",
        "drained",
        "draw",
        "end",
        "first",
        "hands",
        "horseshoe_sum",
        "log",
        "n",
        "owed",
        "phase",
        "player",
        "pos",
        "reason",
        "shuffles",
        "since",
        "skip",
        "table",
        "target",
        "trail",
        "trail_tail",
        "tri",
        "turn",
        "winners",
    )

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        n = self.n = game.num_players
        self.horseshoe_sum: int = game.settings["horseshoe_sum"]  # D4's 10, or the designer option
        self.phase = DEAL
        self.player = 0  # the seat being dealt to, to decide, or to draw
        self.first = -1
        self.turn = 0
        self.pos = [0] * n  # course progress (board.py); 0 = coloured 1
        self.end = [0] * n  # horseshoe end stone chosen on entering (1 or 19), 0 before
        self.owed = [0] * n  # D6: turns still to lose
        self.skip = [0] * n  # 1 while this turn is lost
        self.drained = [0] * n  # 1 after a bluestone trilithon: no move this turn
        self.bar = [-1] * n  # space id of each seat's bar, -1 in stock
        self.disk = [-1] * n
        self.tri = [-1] * 5  # target index of each trilithon, -1 in the centre
        self.cover = [board.EMPTY] * board.SPACES
        self.covered = 0  # the spaces under a piece, as bits of space ids (kept with cover)
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.since: list[list[int]] = [[] for _ in range(n)]  # per hand card: the reshuffles before its draw
        self.shuffles = 0  # D9: how often the discard pile became the draw pile
        self.draw = list(box.FULL_DECK)  # kept sorted
        self.discard: list[int] = []
        self.table: list[int] = []  # cards laid in the decision series under way (face up)
        self.target = -1
        self.log: tuple[str, ...] = ()
        self.winners: tuple[int, ...] = ()
        self.reason = ""
        self.trail: Trail | None = None  # what happened, in blocks shared by clones (for resampling)...
        self.trail_tail: list[Entry] | None = []  # ...and since the last block; None: not known (a
        # state loaded without its history), rebuilt from the history
        self._shared = 0  # the lists a clone may share (see _own)

    # -- the public API hooks ------------------------------------------------

    @cython.locals(phase=cython.int)
    def current_player(self) -> int:
        phase = self.phase
        if BLOCK <= phase <= ENTER:  # a decision (_DECISIONS): the seat `player`
            return self.player
        return TERMINAL if phase == OVER else CHANCE  # the deal, the first player, a draw

    @cython.locals(phase=cython.int, seat=cython.int, card=cython.int, colour=cython.int, hand=list, legal=list)
    def _legal_actions(self) -> list[int]:
        phase = self.phase
        seat = self.player
        hand = self.hands[seat]
        if phase == BLOCK:
            legal = [PASS]
            legal += _PLACEMENTS.targets(hand, self.covered, (self.bar[seat], self.disk[seat]), self.tri)
            return legal
        if phase == BLOCK_CARDS:
            uses = paying_cards(TARGETS[self.target], hand, self.table)
            return [] if uses is None else [_USE_ACTION[card] for card in uses]
        if phase == MOVE:
            legal = [DONE if self.table else PASS]
            for card in sorted(hand):
                if card < _TRI_CARD:  # D2: trilithon cards never move
                    legal.append(_MOVE + card)
            return legal
        if phase == PAY:
            colour = _COLOUR[self.table[0]]
            legal = [DONE]
            for card in sorted(hand):
                if card < _TRI_CARD and _COLOUR[card] == colour:
                    legal.append(_PAY + card)
            return legal
        return [ENTER_1, ENTER_19]

    uniform_chance = True  # G1: the first player and every draw are uniform

    def _chance_actions(self) -> list[int]:
        if self.phase == FIRST:
            return [_FIRST + k for k in range(self.n)]
        return self.draw  # kept sorted

    @cython.locals(action=cython.int, phase=cython.int, seat=cython.int, colour=cython.int)
    @cython.locals(draw=list, hand=list, tail=list)
    def _apply(self, action: int) -> None:
        phase = self.phase
        if phase == DRAW or phase == DEAL:  # a card is drawn: the commonest action, handled here
            seat = self.player
            if self._shared:
                _own(self, _SHARE_DRAW | _SHARE_TAIL)
                _own_hand(self, seat)
            draw = self.draw
            del draw[bisect_left(draw, action)]  # the pile is kept sorted
            hand = self.hands[seat]
            hand.append(action)
            self.since[seat].append(self.shuffles)
            tail = self.trail_tail
            if tail is not None:
                tail.append((_DRAWN, self.move_number(), seat, action))
                if len(tail) == TRAIL_BLOCK:
                    self._freeze_trail()
            self._log = Event(self._log, CHANCE, _DRAWS[seat], _DRAWN_TEXTS[seat][action])
            if len(hand) < _HAND:
                if not draw:
                    self._refill_draw_pile()
            elif phase == DRAW:
                self._next_drawer(seat)
            elif seat + 1 < self.n:  # the deal: three cards to each seat in turn
                self.player = seat + 1
            else:
                self.phase = FIRST
            return
        if phase == FIRST:
            self.first = action - _FIRST
            self._record(CHANCE, f"seat {self.first} goes first")
            self._start_turn()
            return
        seat = self.player
        self._log = Event(self._log, seat, _PLAYER_TEXTS[action], None)  # G6: every decision, as its text
        if phase == BLOCK:
            if action == PASS:
                self._next_blocker(seat)
                return
            self.target = action - _TARGET
            colour = TARGETS[action - _TARGET].colour
            if colour >= 0:
                self._lay(_TRI_CARD + colour)  # a trilithon's own card is laid with the place
            self.phase = BLOCK_CARDS
            self._complete_block()
        elif phase == BLOCK_CARDS:
            self._lay(action - _USE)
            self._complete_block()
        elif phase == MOVE:
            self._move(action)
        elif phase == PAY:
            if action == DONE:
                self._finish_coloured()
            else:
                self._lay(action - _PAY)
                if len(self.table) - 1 == self._pay_need():
                    self._finish_coloured()
        else:
            self._finish_ring(ENDS[action - ENTER_1])

    @cython.locals(cls=type)
    def _copy(self) -> DruidOlympicsState:
        """Returns a copy sharing every list with this state until one of the two changes it (see _own)."""
        cls = type(self)
        if cls is DruidOlympicsState:
            new = DruidOlympicsState.__new__(DruidOlympicsState)
        else:  # a designer's subclass stays itself
            new = DruidOlympicsState.__new__(cls)
        new.game = self.game
        new.n = self.n
        new.horseshoe_sum = self.horseshoe_sum
        new.phase = self.phase
        new.player = self.player
        new.first = self.first
        new.turn = self.turn
        new.pos = self.pos
        new.end = self.end
        new.owed = self.owed
        new.skip = self.skip
        new.drained = self.drained
        new.bar = self.bar
        new.disk = self.disk
        new.tri = self.tri
        new.cover = self.cover
        new.covered = self.covered
        new.hands = self.hands
        new.since = self.since
        new.shuffles = self.shuffles
        new.draw = self.draw
        new.discard = self.discard
        new.table = self.table
        new.target = self.target
        new.log = self.log
        new.winners = self.winners
        new.reason = self.reason
        new.trail = self.trail
        new.trail_tail = self.trail_tail
        self._shared = new._shared = _SHARE_ALL
        return new

    # -- dealing, drawing and the turn order -------------------------------------

    def _trace(self, kind: int, seat: int, data: Any) -> None:
        """Appends to the trail (unless it is unknown: a state loaded without its history). A draw and a
        laid card, the most frequent entries, append the same way inline, sparing a call on those steps."""
        if self._shared:
            _own(self, _SHARE_TAIL)
        tail = self.trail_tail
        if tail is not None:
            tail.append((kind, self.move_number(), seat, data))
            if len(tail) == TRAIL_BLOCK:
                self._freeze_trail()

    def _freeze_trail(self) -> None:
        """Moves the full list of the state's own trail entries into a new block (see TRAIL_BLOCK)."""
        tail = self.trail_tail
        if tail:
            self.trail = Trail(self.trail, tuple(tail))
            self.trail_tail = []

    def _refill_draw_pile(self) -> None:
        """D9: the discard pile is reshuffled into the draw pile when a card is needed and none is left."""
        if not self.draw:
            self.draw = sorted(self.discard)
            self.discard = []
            self.shuffles += 1
            self._trace(_SHUFFLED, -1, tuple(self.draw))
            self._record(CHANCE, f"the discard pile ({len(self.draw)} cards) is shuffled into the draw pile")

    @cython.locals(seat=cython.int, skipping=cython.int, drained=list, skip=list, owed=list)
    def _start_turn(self) -> None:
        """Starts a turn: D6 lost turns are taken, then the blocking round begins."""
        drained = self.drained
        skip = self.skip
        owed = self.owed
        while True:
            self.turn += 1
            for seat in range(self.n):  # each list changed only where a value changes (see _own)
                if drained[seat]:
                    if self._shared:
                        _own(self, _SHARE_DRAINED)
                        drained = self.drained
                    drained[seat] = 0
                skipping = 1 if owed[seat] else 0
                if skip[seat] != skipping:
                    if self._shared:
                        _own(self, _SHARE_SKIP)
                        skip = self.skip
                    skip[seat] = skipping
                if skipping:
                    if self._shared:
                        _own(self, _SHARE_OWED)
                        owed = self.owed
                    owed[seat] -= 1
                    self._note(f"{RUNNERS[seat]} loses this turn")
                    self._record(seat, f"loses turn {self.turn}")
            if not all(skip):
                self._next_blocker(-1)
                return
            if self.turn >= _ROUND_CAP:  # G4
                self._finish_at_cap()
                return

    @cython.locals(after=cython.int, seat=cython.int, skip=list)
    def _next_blocker(self, after: int) -> None:
        skip = self.skip
        for seat in _LATER[self.n][self.first][after]:  # the seats after `after` this round
            if not skip[seat]:
                self.phase = BLOCK
                self.player = seat
                return
        self._next_mover(-1)

    @cython.locals(after=cython.int, seat=cython.int, skip=list, drained=list)
    def _next_mover(self, after: int) -> None:
        self.phase = MOVE
        skip = self.skip
        drained = self.drained
        for seat in _LATER[self.n][self.first][after]:  # the seats after `after` this round
            if not skip[seat] and not drained[seat]:
                self.player = seat
                return
        self._next_drawer(-1)

    @cython.locals(after=cython.int, seat=cython.int, hands=list)
    def _next_drawer(self, after: int) -> None:
        """End of the moving round: everyone draws back up to three, in turn order."""
        hands = self.hands
        for seat in _LATER[self.n][self.first][after]:  # the seats after `after` this round
            if len(hands[seat]) < _HAND:
                self.phase = DRAW
                self.player = seat
                self._refill_draw_pile()
                return
        if self.turn >= _ROUND_CAP:  # G4
            self._finish_at_cap()
        else:
            self._start_turn()

    # -- blocking ----------------------------------------------------------------

    @cython.locals(card=cython.int, seat=cython.int, at=cython.Py_ssize_t, hand=list, since=list, tail=list)
    def _lay(self, card: int) -> None:
        """Moves a card from the hand of the seat to act onto the table, face up."""
        seat = self.player
        if self._shared:
            _own(self, _SHARE_TABLE | _SHARE_TAIL)
            _own_hand(self, seat)
        hand = self.hands[seat]
        at = hand.index(card)
        del hand[at]
        since = self.since[seat]
        del since[at]
        self.table.append(card)
        tail = self.trail_tail
        if tail is not None:
            tail.append((_LAID, self.move_number(), seat, card))
            if len(tail) == TRAIL_BLOCK:
                self._freeze_trail()

    @cython.locals(index=cython.int, seat=cython.int, need=cython.int, card=cython.int, moved=cython.int)
    @cython.locals(piece=cython.int, space=cython.int, colour=cython.int, table=list, cover=list, held=list, tri=list)
    @cython.locals(drained=list)
    def _complete_block(self) -> None:
        """Places the piece once the cards on the table pay for it (D8).

        Only the cards themselves decide when the block is complete, never how many ways
        to pay are left in the hand: that would tell the others what the hand holds (G3).
        """
        index = self.target
        target = TARGETS[index]
        seat = self.player
        table = self.table
        need = target.need
        if need == NEED_ALL:  # the text: both other cards are sacrificed
            for card in sorted(self.hands[seat]):  # G3: never in the hand's (drawn, hidden) order
                self._lay(card)
        else:
            uses = paying_cards(target, self.hands[seat], table)
            if uses is not None:  # the next card's legal set: computed once
                self._legal = tuple([_USE_ACTION[card] for card in uses])
                return
        if self._shared:
            _own(self, _SHARE_BLOCKS | _SHARE_DISCARD | (_SHARE_DRAINED if need == NEED_ALL else 0))
        cover = self.cover
        moved = -1  # the target index the piece leaves (a bar's or disk's is its space)
        piece = target.piece
        if piece < TRILITHON:
            held = self.bar if piece == BAR else self.disk
            moved = held[seat]
            if moved >= 0:
                cover[moved] = EMPTY
            space = target.spaces[0]
            held[seat] = space
            cover[space] = seat
        else:
            colour = target.colour
            tri = self.tri
            moved = tri[colour]
            if moved >= 0:
                for space in TARGETS[moved].spaces:
                    cover[space] = EMPTY
            tri[colour] = index
            for space in target.spaces:
                cover[space] = piece  # TRILITHON + colour
        covered = self.covered
        if moved >= 0:
            covered ^= TARGET_SPACES[moved]
        self.covered = covered | TARGET_SPACES[index]
        cards = _TEXT[table[0]] if len(table) == 1 else " ".join([_TEXT[card] for card in table])
        text = target.text
        self.log = (self.log + (f"{RUNNERS[seat]}: {text} ({cards})",))[-_LOG:]  # _note
        drained = self.drained
        if need == NEED_ALL:
            drained[seat] = 1  # the text: drained of energy, no move this turn
        suffix = ", drained: no move this turn" if drained[seat] else ""
        self._log = Event(self._log, seat, f"places {text} with {cards}{suffix}", None)
        self.discard.extend(table)
        self.table = []
        self.target = -1
        self._next_blocker(seat)

    # -- moving ------------------------------------------------------------------

    @cython.locals(action=cython.int, seat=cython.int, start=cython.int, points=cython.int, card=cython.int)
    @cython.locals(destination=cython.int, need=cython.int, table=list)
    def _move(self, action: int) -> None:
        seat = self.player
        if action == PASS:
            self._next_mover(seat)
            return
        start = self.pos[seat]
        if action == DONE:
            points = 0
            table = self.table
            for card in table:
                points += _NUMBER[card]
            points //= self.horseshoe_sum  # D4 (both positive: // as in Python)
            self._arrive(start, horseshoe_walk(self.cover, seat, self.end[seat], start, points))
            return
        card = action - _MOVE
        self._lay(card)
        if start >= HORSESHOE:
            return  # D4: more cards may follow, then done
        if start < _COLOURED_30:
            destination, need = coloured_need(self.cover, seat, start, _COLOUR[card])
            if need:  # D5: asked even without a card to pay, so the hand shows nothing
                self.phase = PAY
            else:
                self._arrive(start, destination)  # nothing in the way: coloured_move's destination
            return
        self._finish_ring(self.end[seat])

    @cython.locals(seat=cython.int)
    def _pay_need(self) -> int:
        """Returns the extra cards of the destination colour that pass every block in the way (D5)."""
        seat = self.player
        return coloured_need(self.cover, seat, self.pos[seat], _COLOUR[self.table[0]])[1]

    @cython.locals(seat=cython.int, start=cython.int, table=list)
    def _finish_coloured(self) -> None:
        seat = self.player
        start = self.pos[seat]
        table = self.table
        self._arrive(start, coloured_move(self.cover, seat, start, _COLOUR[table[0]], len(table) - 1))

    @cython.locals(end=cython.int, seat=cython.int, start=cython.int, after=cython.int)
    def _finish_ring(self, end: int) -> None:
        seat = self.player
        start = self.pos[seat]
        after = ring_walk(self.cover, seat, start, _NUMBER[self.table[0]], end)
        if after == NEED_END:
            self.phase = ENTER  # D1: the runner picks the end on entering
            return
        if after == HORSESHOE:
            if self._shared:
                _own(self, _SHARE_END)
            self.end[seat] = end
        self._arrive(start, after)

    @cython.locals(start=cython.int, after=cython.int, seat=cython.int, end=cython.int, space=cython.int)
    @cython.locals(code=cython.int, lost=cython.int, table=list)
    def _arrive(self, start: int, after: int) -> None:
        seat = self.player
        if self._shared:
            _own(self, _SHARE_POS | _SHARE_DISCARD)
        self.pos[seat] = after
        table = self.table
        cards = _TEXT[table[0]] if len(table) == 1 else " ".join([_TEXT[c] for c in table])
        end = self.end[seat]
        texts = RUNNER_TEXTS[end]
        where = texts[after]
        move = f"{cards}: {texts[start]} -> {where}"
        self.log = (self.log + (f"{RUNNERS[seat]} plays {move}",))[-_LOG:]  # _note
        self._log = Event(self._log, seat, f"moves with {move}", None)
        self.discard.extend(table)
        self.table = []
        self.phase = MOVE
        if after == ALTAR:  # D9: the first runner on the altar stone wins
            self.winners = (seat,)
            self.reason = f"the {RUNNERS[seat]} runner (seat {seat}) reached the altar stone"
            self.phase = OVER
            self._record(seat, "reaches the altar stone and wins")
            return
        if after != start:  # D6: only the runner's own move onto a block costs turns
            space = after if after < HORSESHOE else BLUESTONE + stone_at(end, after)
            code = self.cover[space]
            lost = 0 if code == EMPTY or code == seat else lost_turns(code, after >= HORSESHOE, seat)
            if lost:
                if self._shared:
                    _own(self, _SHARE_OWED)
                self.owed[seat] += lost
                self._note(f"{RUNNERS[seat]} ends on a block on {where} and loses {lost} turn(s)")
                self._record(seat, f"ends on a block on {where} and loses {lost} turn(s)")
        self._next_mover(seat)

    # -- the end -------------------------------------------------------------------

    def _finish_at_cap(self) -> None:
        """G4 / D1: at the cap the runners furthest along the course share the win."""
        best = max(self.pos)
        self.winners = tuple([seat for seat in range(self.n) if self.pos[seat] == best])
        self.reason = f"the round cap of {_ROUND_CAP} turns was reached; the furthest runners lead"
        self.phase = OVER
        self._record(CHANCE, f"{self.reason}: seat(s) {' '.join(map(str, self.winners))} win")

    def _note(self, event: str) -> None:
        self.log = (self.log + (event,))[-_LOG:]

    # -- hidden information ----------------------------------------------------------

    def progress(self) -> list[float] | None:
        """Each seat's standing by the rules' count: how far its runner has come along the course
        of the way to the altar stone (the count that also names the winners at the round cap);
        once the game is over, the returns."""
        if self.phase == OVER:
            return scaled_returns(self)
        return [p / ALTAR for p in self.pos]

    def observation(self, player: int | None) -> dict[str, Any]:
        """Returns what seat ``player`` (None: a spectator) can see at the table (G3)."""
        if player is not None and not 0 <= player < self.n:
            raise ValueError(f"seats run 0..{self.n - 1}, not {player}")
        over = self.phase == OVER
        paying = None
        if self.phase == PAY:
            colour = _COLOUR[self.table[0]]
            paying = {"colour": box.COLOURS[colour], "need": self._pay_need(), "paid": len(self.table) - 1}
        obs: dict[str, Any] = {
            "game": "druid_olympics",
            "seat": player,
            "players": self.n,
            "phase": _PHASE_NAMES[self.phase],
            "current_player": self.current_player(),
            "first_player": self.first,
            "turn": self.turn,
            "round_cap": _ROUND_CAP,
            "runners": [self._runner_view(seat) for seat in range(self.n)],
            "trilithons": {
                RUNNERS[c]: None if self.tri[c] < 0 else board.place_text(TARGETS[self.tri[c]].spaces) for c in range(5)
            },
            "blocks": self._blocks_view(),
            "hand": None if player is None else [_TEXT[c] for c in sorted(self.hands[player])],
            "hand_sizes": [len(h) for h in self.hands],
            "draw_pile": len(self.draw),
            "discard_pile": [_TEXT[c] for c in self.discard],
            "table": [_TEXT[c] for c in self.table],
            "target": None if self.target < 0 else TARGETS[self.target].text,
            "paying": paying,
            "log": list(self.log),
            "unseen": self._unseen(player),
            "winners": list(self.winners) if over else None,
            "result": self.reason if over else None,
        }
        if self.horseshoe_sum != POINT_SUM:  # the designer option: only where it is not D4's 10
            obs["horseshoe_sum"] = self.horseshoe_sum
        return obs

    def _unseen(self, player: int | None) -> list[dict[str, Any]]:
        """Returns where the cards ``player`` cannot see may be (G6): one group per draw pile they came from.

        Every card is laid face up, so a card out of sight is in a hand or the draw pile.
        One that came off the draw pile of an earlier shuffle (epoch) is in the hand of a
        seat that drew from that pile and has not played it; everyone counts those cards
        per seat and epoch. Within a group every placement is equally likely, except
        while a seat is paying a block: its hand can finish paying it (``target``, ``table``).
        """
        groups: dict[int, tuple[list[int], list[int]]] = {}
        for seat in range(self.n):
            if seat == player:
                continue
            for card, epoch in zip(self.hands[seat], self.since[seat], strict=True):
                cards, held = groups.setdefault(epoch, ([], [0] * self.n))
                cards.append(card)
                held[seat] += 1
        if self.draw:
            groups.setdefault(self.shuffles, ([], [0] * self.n))[0].extend(self.draw)
        return [
            {
                "cards": [_TEXT[c] for c in sorted(cards)],
                "hands": held,
                "draw_pile": len(self.draw) if epoch == self.shuffles else 0,
            }
            for epoch, (cards, held) in sorted(groups.items())
        ]

    def _runner_view(self, seat: int) -> dict[str, Any]:
        return {
            "seat": seat,
            "colour": RUNNERS[seat],
            "at": board.runner_text(self.pos[seat], self.end[seat]),
            "progress": self.pos[seat],
            "entered_at": f"bluestone {self.end[seat]}" if self.end[seat] else None,
            "bar": None if self.bar[seat] < 0 else board.SPACE_TEXT[self.bar[seat]],
            "disk": None if self.disk[seat] < 0 else board.SPACE_TEXT[self.disk[seat]],
            "lost_turns": self.owed[seat],
            "skipping": bool(self.skip[seat]),
            "drained": bool(self.drained[seat]),
        }

    def _blocks_view(self) -> list[dict[str, Any]]:
        """Every blocked space in course order, with its piece and owner."""
        blocks = []
        for space, code in enumerate(self.cover):
            if code == board.EMPTY:
                continue
            if code >= TRILITHON:
                piece, owner = f"trilithon {RUNNERS[code - TRILITHON]}", None
            else:
                piece, owner = ("bar" if self.bar[code] == space else "disk"), code
            blocks.append({"space": board.SPACE_TEXT[space], "piece": piece, "owner": owner})
        return blocks

    def resample_from_infostate(self, player: int, rng: random.Random) -> DruidOlympicsState:
        """Returns a state reached by a legal history in which ``player`` saw exactly what it saw (G3, G6).

        Every decision and every laid card is public, so only the other seats' draws are
        hidden. They are drawn again, pile by pile (a pile: the deck, or the discard pile
        after a reshuffle, both public): a card another seat later lays goes to one of
        that seat's draws from that pile made before it was laid, chosen uniformly among
        the draws left (cards in the order they were laid); the other cards of the pile,
        those ``player`` never saw again, go uniformly to the remaining hidden draws, the
        rest staying in the draw pile. Every way to match is counted alike, and each is
        one history with the chance probability of every other (draw sizes are public),
        so the result is uniform over the consistent histories. While another seat is
        paying a block, its hand must finish paying it (a deal where it cannot is dealt
        again; see ``_fill``). The history is replayed from the start, so the record,
        ``history()`` and every field are right for every seat. The generator is used on
        ``player``'s information only (sorted pools, time-ordered draws): states it
        cannot tell apart give the same draws (henge.core.canonical_state).

        A state loaded from JSON without its history has no record: its other hands
        and draw pile are re-dealt within the groups of ``observation()["unseen"]``.
        """
        self._check_seat(player)
        entries = self._trail_entries()
        if entries is None:
            return self._redeal(player, rng)
        history = self.history()
        for index, card in self._hidden_draws(entries, player, rng).items():
            history[index] = card  # the chance outcome "draw <card>" has the card's id
        new = self._replay(history)
        new._log = replayed_record(self.game, history)  # made again only if read
        return new

    def _trail_entries(self) -> list[Entry] | None:
        """Returns the trail's entries oldest first, or None if the state has no history that reaches it."""
        tail = self.trail_tail
        if tail is None:  # loaded from JSON: the engine replayed its history, if it had one
            if not self.move_number():
                return None
            replayed = self.game.new_initial_state()
            try:
                for action in self.history():
                    replayed.apply_action(action)
            except IllegalActionError:
                return None
            assert isinstance(replayed, DruidOlympicsState)
            if replayed._fields() != self._fields():
                return None
            self.trail = replayed.trail  # the same state: only the cache is filled
            tail = self.trail_tail = replayed.trail_tail or []
        return trail_entries(self.trail, tail)

    def _hidden_draws(self, entries: list[Entry], player: int, rng: random.Random) -> dict[int, int]:
        """Returns a card for every draw ``player`` did not see, by history index (see resample)."""
        piles: list[tuple[int, ...]] = [box.FULL_DECK]  # the draw pile of each epoch, as it was shuffled
        epoch_of = [0] * box.DECK_SIZE  # the last pile each card was in
        hidden: list[list[tuple[int, int]]] = [[]]  # per epoch: (history index, seat) of each hidden draw
        known: list[set[int]] = [set()]  # per epoch: the cards player drew, or saw laid after a hidden draw
        laid: dict[tuple[int, int], list[tuple[int, int]]] = {}  # (epoch, seat): (history index, card)
        for kind, index, seat, data in entries:
            if kind == _DRAWN:
                if seat == player:
                    known[-1].add(data)
                else:
                    hidden[-1].append((index, seat))
            elif kind == _LAID:
                if seat != player:
                    epoch = epoch_of[data]
                    known[epoch].add(data)
                    laid.setdefault((epoch, seat), []).append((index, data))
            else:
                piles.append(data)
                hidden.append([])
                known.append(set())
                for card in data:
                    epoch_of[card] = len(piles) - 1
        drawn: dict[int, int] = {}
        free: list[list[tuple[int, int]]] = []  # per epoch: the hidden draws of cards never seen again
        for epoch, draws in enumerate(hidden):
            for seat in range(self.n):
                mine = [index for index, who in draws if who == seat]
                for deadline, card in sorted(laid.get((epoch, seat), ())):
                    # Earliest deadline first: a choice among the draws left before it never
                    # leaves a later card without one, and their number does not depend on it.
                    drawn[rng.choice([i for i in mine if i < deadline and i not in drawn])] = card
            free.append([(index, seat) for index, seat in draws if index not in drawn])
        pools = [sorted(set(pile) - known[epoch]) for epoch, pile in enumerate(piles)]
        drawn.update(self._fill(pools, free, player, rng))
        return drawn

    def _fill(
        self, pools: list[list[int]], places: list[list[tuple[Any, int]]], player: int, rng: random.Random
    ) -> dict[Any, int]:
        """Deals each pool (sorted) uniformly to its places ``(key, seat)``; the rest stays in the draw pile.

        While a seat other than ``player`` is paying a block, its cards must finish paying
        it: a deal where they cannot is dealt again, and after _RESAMPLE_TRIES failures
        the hands that can are counted exhaustively and one is picked uniformly (rejection
        keeps the deal uniform over those that pass, so both ways draw the same law).
        """

        def deal() -> dict[Any, int]:
            dealt: dict[Any, int] = {}
            for pool, spots in zip(pools, places, strict=True):
                if spots:
                    cards = pool[:]
                    rng.shuffle(cards)
                    dealt.update(zip((key for key, _ in spots), cards, strict=False))
            return dealt

        blocker = self.player if self.phase == BLOCK_CARDS and self.player != player else -1
        if blocker < 0:
            return deal()
        target = TARGETS[self.target]

        def pays(hand: list[int]) -> bool:
            return bool(board.completions(target, hand, self.table))

        for _ in range(_RESAMPLE_TRIES):
            dealt = deal()
            if pays([dealt[key] for spots in places for key, seat in spots if seat == blocker]):
                return dealt
        mine = [[key for key, seat in spots if seat == blocker] for spots in places]
        options = [combinations(pool, len(keys)) for pool, keys in zip(pools, mine, strict=True)]
        hands = [choice for choice in product(*options) if pays([c for part in choice for c in part])]
        chosen = rng.choice(hands)
        dealt = {}
        for pool, spots, keys, held in zip(pools, places, mine, chosen, strict=True):
            cards = list(held)
            rng.shuffle(cards)
            dealt.update(zip(keys, cards, strict=True))
            rest = [c for c in pool if c not in held]
            rng.shuffle(rest)
            dealt.update(zip((key for key, seat in spots if seat != blocker), rest, strict=False))
        return dealt

    def _replay(self, history: list[int]) -> DruidOlympicsState:
        """Returns the state ``history`` reaches from the start (legal by construction: not checked)."""
        state = cast(DruidOlympicsState, self.game.new_initial_state())
        for action in history:
            state._apply_known(action)
        return state

    def _redeal(self, player: int, rng: random.Random) -> DruidOlympicsState:
        """Re-deals the hidden cards of a state without a history within the groups of ``_unseen``."""
        epochs = sorted({e for seat, since in enumerate(self.since) if seat != player for e in since} | {self.shuffles})
        places: list[list[tuple[Any, int]]] = []
        pools: list[list[int]] = []
        for epoch in epochs:
            spots = [
                ((seat, at), seat)
                for seat in range(self.n)
                if seat != player
                for at, e in enumerate(self.since[seat])
                if e == epoch
            ]
            cards = [self.hands[seat][at] for (seat, at), _ in spots]
            if epoch == self.shuffles:
                cards += self.draw
            places.append(spots)
            pools.append(sorted(cards))
        dealt = self._fill(pools, places, player, rng)
        new = cast(DruidOlympicsState, self.clone())
        for (seat, at), card in dealt.items():
            _own_hand(new, seat)
            new.hands[seat][at] = card
        current = pools[epochs.index(self.shuffles)]
        new.draw = sorted(set(current) - set(dealt.values()))
        new._legal = None
        return new

    # -- JSON ------------------------------------------------------------------------

    def _fields(self) -> dict[str, Any]:
        return {
            "phase": _PHASE_NAMES[self.phase],
            "player": self.player,
            "first": self.first,
            "turn": self.turn,
            "runners": [board.runner_text(p, e) for p, e in zip(self.pos, self.end, strict=True)],
            "ends": [e or None for e in self.end],
            "lost_turns": list(self.owed),
            "skipping": [bool(s) for s in self.skip],
            "drained": [bool(d) for d in self.drained],
            "bars": [None if s < 0 else board.SPACE_TEXT[s] for s in self.bar],
            "disks": [None if s < 0 else board.SPACE_TEXT[s] for s in self.disk],
            "trilithons": [None if t < 0 else TARGETS[t].text for t in self.tri],
            "hands": [[_TEXT[c] for c in hand] for hand in self.hands],
            "hand_reshuffles": [since[:] for since in self.since],
            "reshuffles": self.shuffles,
            "draw_pile": [_TEXT[c] for c in self.draw],
            "discard_pile": [_TEXT[c] for c in self.discard],
            "table": [_TEXT[c] for c in self.table],
            "target": None if self.target < 0 else TARGETS[self.target].text,
            "log": list(self.log),
            "winners": list(self.winners),
            "reason": self.reason,
        }

    def _load(self, fields: Mapping[str, Any]) -> None:
        """Loads the fields and checks every invariant of the game (G7; docs: "Saved states")."""
        n = self.n
        self.trail = None  # what happened before is known only by replaying a history
        self.trail_tail = None
        check(fields["phase"] in _PHASE_NAMES, f"phase must be one of {', '.join(_PHASE_NAMES)}")
        phase = self.phase = _PHASE_NAMES.index(fields["phase"])
        self.player = load_int(fields["player"], 0, n - 1, "player")
        self.first = load_int(fields["first"], -1, n - 1, "first")
        check((self.first < 0) == (phase in (DEAL, FIRST)), "the first player is chosen after the deal")
        self.turn = load_int(fields["turn"], 0, _ROUND_CAP, "turn")
        check((self.turn == 0) == (phase in (DEAL, FIRST)), "turns are counted from 1 once the first player is chosen")
        ends = _list(fields["ends"], n, "ends")
        check(all(e is None or e in board.ENDS for e in ends), "ends: null, 1 or 19 per seat")
        self.end = [e or 0 for e in ends]
        runners = _list(fields["runners"], n, "runners")
        self.pos = [board.parse_runner(r, e) for r, e in zip(runners, self.end, strict=True)]
        self.owed = [load_int(v, 0, 2, "lost_turns") for v in _list(fields["lost_turns"], n, "lost_turns")]
        self.skip = [_flag(v, "skipping") for v in _list(fields["skipping"], n, "skipping")]
        self.drained = [_flag(v, "drained") for v in _list(fields["drained"], n, "drained")]
        self.cover = [board.EMPTY] * board.SPACES
        self.bar = [
            _space(v, self.cover, seat, board.NUMBERED * 2, "bar")
            for seat, v in enumerate(_list(fields["bars"], n, "bars"))
        ]
        self.disk = [
            _space(v, self.cover, seat, board.SPACES, "disk")
            for seat, v in enumerate(_list(fields["disks"], n, "disks"))
        ]
        self.tri = [-1] * 5
        for colour, text in enumerate(_list(fields["trilithons"], 5, "trilithons")):
            if text is None:
                continue
            check(text in _TARGET_BY_TEXT, f"trilithons: {text!r} is not a trilithon placement")
            index = self.tri[colour] = _TARGET_BY_TEXT[text]
            check(TARGETS[index].colour == colour, "trilithons: one per colour, white..red, in that order")
            for space in TARGETS[index].spaces:
                check(self.cover[space] == board.EMPTY, f"two blocks on {board.SPACE_TEXT[space]}")
                self.cover[space] = TRILITHON + colour
        self.covered = placements.covered_spaces(self.cover)
        self.hands = [_cards(h, "hand") for h in _list(fields["hands"], n, "hands")]
        check(all(len(h) <= _HAND for h in self.hands), "a hand holds at most three cards")
        self.draw = sorted(_cards(fields["draw_pile"], "draw_pile"))
        self.discard = _cards(fields["discard_pile"], "discard_pile")
        self.table = _cards(fields["table"], "table")
        every = [c for h in self.hands for c in h] + self.draw + self.discard + self.table
        check(sorted(every) == list(box.FULL_DECK), "every one of the 65 cards must be in exactly one place")
        # Absent from a state saved before reshuffles were counted, or crafted: all from the current pile.
        self.shuffles = load_int(fields.get("reshuffles", 0), 0, _MAX_RESHUFFLES, "reshuffles")
        since = fields.get("hand_reshuffles")
        if since is None:
            since = [[self.shuffles] * len(hand) for hand in self.hands]
        self.since = [
            [load_int(e, 0, self.shuffles, "hand_reshuffles") for e in _list(drawn, len(hand), "hand_reshuffles")]
            for drawn, hand in zip(_list(since, n, "hand_reshuffles"), self.hands, strict=True)
        ]
        check(all(s == sorted(s) for s in self.since), "hand_reshuffles: a hand keeps its cards in the order drawn")
        target = fields["target"]
        check(target is None or target in _TARGET_BY_TEXT, f"target: {target!r} is not a block placement")
        self.target = -1 if target is None else _TARGET_BY_TEXT[target]
        log = fields["log"]
        check(isinstance(log, list) and len(log) <= _LOG and all(isinstance(e, str) for e in log), "log: texts")
        self.log = tuple(log)
        winners = fields["winners"]
        check(isinstance(winners, list), "winners: a list of seats")
        self.winners = tuple(load_int(w, 0, n - 1, "winner") for w in winners)
        check(list(self.winners) == sorted(set(self.winners)), "winners: each seat once, in seat order")
        check(isinstance(fields["reason"], str), "reason: a text")
        self.reason = fields["reason"]
        self._check_phase()
        self._check_turn()

    def _check_phase(self) -> None:
        """Checks that the phase, the seat to act, the table and the target agree."""
        phase = self.phase
        seat = self.player
        check((phase == OVER) == bool(self.winners), "winners are named exactly when the game is over")
        check((phase == BLOCK_CARDS) == (self.target >= 0), "a target is chosen exactly while its cards are laid")
        check(ALTAR not in self.pos or phase == OVER, "a runner on the altar ends the game")
        if phase in (DEAL, FIRST):
            check(not self.discard and self.turn == 0, "nothing is played before the first turn")
            check(phase == DEAL or seat == self.n - 1, "the first player is chosen once the last seat is dealt")
            dealt = self.n if phase == FIRST else seat
            sizes = [len(h) for h in self.hands]
            check(
                sizes[:dealt] == [_HAND] * dealt
                and not any(sizes[dealt + 1 :])
                and (dealt == self.n or sizes[dealt] < _HAND),
                "the deal gives three cards to each seat in turn",
            )
            check(
                not any(self.pos) and not any(self.end) and self.cover == [board.EMPTY] * board.SPACES,
                "before the first turn every runner is on coloured 1 and no block is placed",
            )
            check(
                not any(self.owed) and not any(self.skip) and not any(self.drained) and not self.shuffles,
                "before the first turn nobody owes or loses a turn, is drained, or has reshuffled",
            )
        if phase in _DECISIONS:
            check(not self.skip[seat], "a seat that loses this turn does not act")
            check(phase < MOVE or not self.drained[seat], "a drained runner does not move")
        if phase == BLOCK_CARDS:
            target = TARGETS[self.target]
            check(target.colour < 0 or _TRI_CARD + target.colour in self.table, "a trilithon needs its card")
            check(len(self.hands[seat]) + len(self.table) == _HAND, "a block is paid from the hand of three")
            options = board.completions(target, self.hands[seat], self.table)
            check(bool(options) and options != [()], "the block cannot be paid, or is paid already")
        elif phase == MOVE:
            check(not self.table or self.pos[seat] >= HORSESHOE, "only the horseshoe takes several cards")
            check(all(c < _TRI_CARD for c in self.table), "trilithon cards never move a runner")
        elif phase in (PAY, ENTER):
            check(bool(self.table) and self.table[0] < _TRI_CARD, "a move card lies on the table")
            check(all(c < _TRI_CARD and _COLOUR[c] == _COLOUR[self.table[0]] for c in self.table), "paid: one colour")
            if phase == PAY:
                check(self.pos[seat] < _COLOURED_30 and len(self.table) - 1 < self._pay_need(), "nothing to pay")
            else:
                check(len(self.table) == 1 and board.HORSESHOE > self.pos[seat] >= _COLOURED_30, "no end to choose")
                check(
                    board.ring_walk(self.cover, seat, self.pos[seat], _NUMBER[self.table[0]], 0) == board.NEED_END,
                    "the move does not reach the horseshoe",
                )
        else:
            check(not self.table, "cards lie on the table only during a decision")
        if phase in (MOVE, PAY, ENTER):
            check(len(self.hands[seat]) + len(self.table) <= _HAND, "a move is played from a hand of three at most")
        if phase == DRAW:
            check(len(self.hands[seat]) < _HAND and bool(self.draw), "a draw fills a short hand from a pile")
            done = [(self.first + k) % self.n for k in range((seat - self.first) % self.n)]
            check(all(len(self.hands[s]) == _HAND for s in done), "the seats before the drawer hold three cards")

    def _check_turn(self) -> None:
        """Checks the lost turns, the drained runners and the end against the board (D6, D9, G4)."""
        phase = self.phase
        playing = phase not in (DEAL, FIRST, OVER)
        for seat in range(self.n):
            if self.owed[seat] or self.skip[seat]:
                check(self.pos[seat] > 0, f"seat {seat} loses turns without having moved onto a block")
            if self.skip[seat]:
                check(self.owed[seat] <= 1, f"seat {seat} owes at most one more turn while losing this one")
                check(len(self.hands[seat]) == _HAND, f"seat {seat} loses this turn and so holds three cards")
            if self.drained[seat]:
                check(not self.skip[seat], f"seat {seat} is drained in a turn it loses")
                bluestones = any(t >= 0 and TARGETS[t].need == board.NEED_ALL for t in self.tri)
                check(bluestones, f"seat {seat} is drained without a trilithon on the bluestones")
                check(
                    phase in (DRAW, OVER) or not self.hands[seat],
                    f"seat {seat} is drained: it sacrificed its whole hand this turn",
                )
        check(playing or phase == OVER or not any(self.drained), "nobody is drained before the first turn")
        if phase == OVER:
            on_altar = [seat for seat in range(self.n) if self.pos[seat] == ALTAR]
            if on_altar:
                check(list(self.winners) == on_altar, "the runner on the altar stone, alone, wins")
            else:
                best = max(self.pos)
                leaders = [seat for seat in range(self.n) if self.pos[seat] == best]
                check(self.turn == _ROUND_CAP, "a game without a runner on the altar ends only at the round cap")
                check(list(self.winners) == leaders, "at the round cap the runners furthest along win")


_TARGET_BY_TEXT = {t.text: i for i, t in enumerate(TARGETS)}


@cython.cfunc
@cython.locals(state=DruidOlympicsState, bits=cython.int)
def _own(state: DruidOlympicsState, bits: int) -> None:
    """Gives ``state`` a list of its own for each list in ``bits`` that it may share with a clone."""
    bits &= state._shared
    if not bits:
        return
    state._shared ^= bits
    if bits & _SHARE_POS:
        state.pos = state.pos[:]
    if bits & _SHARE_END:
        state.end = state.end[:]
    if bits & _SHARE_OWED:
        state.owed = state.owed[:]
    if bits & _SHARE_SKIP:
        state.skip = state.skip[:]
    if bits & _SHARE_DRAINED:
        state.drained = state.drained[:]
    if bits & _SHARE_BLOCKS:
        state.bar = state.bar[:]
        state.disk = state.disk[:]
        state.tri = state.tri[:]
        state.cover = state.cover[:]
    if bits & _SHARE_DRAW:
        state.draw = state.draw[:]
    if bits & _SHARE_DISCARD:
        state.discard = state.discard[:]
    if bits & _SHARE_TABLE:
        state.table = state.table[:]
    if bits & _SHARE_TAIL and state.trail_tail is not None:
        state.trail_tail = state.trail_tail[:]


@cython.cfunc
@cython.locals(state=DruidOlympicsState, seat=cython.int, bit=cython.int)
def _own_hand(state: DruidOlympicsState, seat: int) -> None:
    """Gives ``state`` a hand and a list of reshuffles of its own for ``seat`` (see _own)."""
    bit = _SHARE_HAND << seat
    if not state._shared & bit:
        return
    if state._shared & _SHARE_HANDS:
        state.hands = state.hands[:]
        state.since = state.since[:]
    state._shared &= ~(bit | _SHARE_HANDS)
    state.hands[seat] = state.hands[seat][:]
    state.since[seat] = state.since[seat][:]


def _flag(value: Any, name: str) -> int:
    check(isinstance(value, bool), f"{name}: true or false per seat")
    return int(value)


def _list(value: Any, size: int, name: str) -> list[Any]:
    check(isinstance(value, list) and len(value) == size, f"{name}: a list of {size}")
    return list(value)


def _space(value: Any, cover: list[int], seat: int, limit: int, name: str) -> int:
    """Parses a bar's (coloured or numbered) or a disk's (inner or bluestone) space and marks it blocked."""
    if value is None:
        return -1
    space = board.parse_space(value)
    low = 0 if name == "bar" else board.INNER
    check(low <= space < limit, f"a {name} cannot lie on {value}")
    check(cover[space] == board.EMPTY, f"two blocks on {value}")
    cover[space] = seat
    return space


def _cards(values: Any, name: str) -> list[int]:
    check(isinstance(values, list) and all(isinstance(v, str) for v in values), f"{name}: a list of card texts")
    return [box.parse_card(v) for v in values]


class DruidOlympics(Game):
    """Druid Olympics for 3-5 players: an obstacle race from the coloured ring to the altar stone.

    Designer option (``docs/games/druid_olympics.md``, "Designer options"): ``horseshoe_sum``,
    5..20, the card sum that makes one movement point in the horseshoe (D4: 10); at 10 it is not
    written in records, and observations name it (as ``horseshoe_sum``) only where it is not 10.
    """

    info = GameInfo(
        id="druid_olympics",
        name="Druid Olympics",
        min_players=3,
        max_players=5,
        version="1.0.0",
        rule_text="Druid Olympics, a racing game by Nicholas Tolle (the Stonehenge Anthology)",
        summary="race over the rings and the bluestones to the altar while blocking the others",
        options=(
            Option(
                "horseshoe_sum",
                POINT_SUMS,
                POINT_SUM,
                "the card sum that makes one movement point in the horseshoe (D4: every full 10)",
                recorded_at_default=False,
            ),
        ),
        round_cap=_ROUND_CAP,
    )
    state_class = DruidOlympicsState
    player_action_texts = _PLAYER_TEXTS
    chance_action_texts = _CHANCE_TEXTS

    def max_game_length(self) -> int:
        # Set-up: 3n cards and the first player. A seat's turn: a block (the place, then at
        # most one decision per card), a move (at most one decision per card, plus done or
        # pass and an end), and one draw per card played: at most 3 cards in all.
        return 3 * self.num_players + 1 + _ROUND_CAP * self.num_players * (1 + 2 + 3 * 2)
