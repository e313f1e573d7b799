"""Druid Olympics, a racing game by Nicholas Tolle, for 3-5 players.

Rule set: *Druid Olympics*, from the Stonehenge Anthology. Rulings
G1-G5 and D1-D9 apply; ``docs/games/druid_olympics.md`` documents them and the
edition's other readings. The course and the movement rules live in
:mod:`henge.games.druid_olympics.course`.

A turn is a blocking round then a moving round, each from the first player
clockwise, then everyone draws back up to three cards. Blocks are compound
choices entered as a short series of decisions (G2): the place first
(``bar on numbered 13``), then the cards that pay for it one at a time
(``use 6d``, ``use 7n``); a trilithon's own card, and the two cards a
bluestone trilithon sacrifices, are laid with the place. A move is ``move X``
(in the horseshoe several ``move X`` then ``done``), followed on the coloured
ring by ``pay Y`` cards to pass blocks and ``done``, and on entering the
horseshoe by ``enter stone 1`` or ``enter stone 19``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from henge import box
from henge.engine import CHANCE, TERMINAL, Game, GameInfo, State, check, load_int, uniform
from henge.games.druid_olympics import course as course
from henge.games.druid_olympics.course import ALTAR, HORSESHOE, TARGETS, TRILITHON

_HAND = 3
_ROUND_CAP = 200  # G4: turns; no random game of 3000 reached it (docs/games/druid_olympics.md)
_LOG = 8
_RESAMPLE_TRIES = 10_000
RUNNERS: tuple[str, ...] = box.PLAYER_COLOURS
"""Seat i runs with the figure, bar and disk of the i-th player colour."""

# Player actions.
PASS, DONE, ENTER_1, ENTER_19 = range(4)
_MOVE = 4
_PAY = _MOVE + box.NUMBER_CARD_COUNT
_USE = _PAY + box.NUMBER_CARD_COUNT
_TARGET = _USE + box.DECK_SIZE
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
DEAL, FIRST, BLOCK, BLOCK_CARDS, MOVE, PAY, ENTER, DRAW, OVER = range(9)
_PHASE_NAMES = ("deal", "choose first", "block", "block cards", "move", "pay", "enter", "draw", "over")
_DECISIONS = (BLOCK, BLOCK_CARDS, MOVE, PAY, ENTER)

_COLOUR = box.CARD_COLOUR
_NUMBER = box.CARD_NUMBER
_TEXT = box.CARD_TEXT
_TRI_CARD = box.TRILITHON_CARD_BASE
_COLOURED_30 = course.NUMBERED - 1


class DruidOlympicsState(State):
    """A Druid Olympics position: runners on the course, blocks, hands and piles."""

    __slots__ = (
        "bar",
        "cover",
        "discard",
        "disk",
        "drained",
        "draw",
        "end",
        "first",
        "hands",
        "log",
        "n",
        "owed",
        "phase",
        "player",
        "pos",
        "reason",
        "skip",
        "table",
        "target",
        "tri",
        "turn",
        "winners",
    )

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        n = self.n = game.num_players
        self.phase = DEAL
        self.player = 0  # the seat being dealt to, to decide, or to draw
        self.first = -1
        self.turn = 0
        self.pos = [0] * n  # course progress (course.py); 0 = coloured 1
        self.end = [0] * n  # horseshoe end stone chosen on entering (1 or 19), 0 before
        self.owed = [0] * n  # D6: turns still to lose
        self.skip = [0] * n  # 1 while this turn is lost
        self.drained = [0] * n  # 1 after a bluestone trilithon: no move this turn
        self.bar = [-1] * n  # space id of each seat's bar, -1 in stock
        self.disk = [-1] * n
        self.tri = [-1] * 5  # target index of each trilithon, -1 in the centre
        self.cover = [course.EMPTY] * course.SPACES
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.draw = list(box.FULL_DECK)  # kept sorted
        self.discard: list[int] = []
        self.table: list[int] = []  # cards laid in the decision series under way (face up)
        self.target = -1
        self.log: tuple[str, ...] = ()
        self.winners: tuple[int, ...] = ()
        self.reason = ""

    # -- the public API hooks ------------------------------------------------

    def current_player(self) -> int:
        phase = self.phase
        if phase in _DECISIONS:
            return self.player
        if phase == OVER:
            return TERMINAL
        return CHANCE

    def _legal_actions(self) -> list[int]:
        phase = self.phase
        seat = self.player
        hand = self.hands[seat]
        if phase == BLOCK:
            return [PASS] + [_TARGET + t for t in course.block_targets(hand, self.cover, seat)]
        if phase == BLOCK_CARDS:
            cards = {c for option in course.completions(TARGETS[self.target], hand, self.table) for c in option}
            return sorted(_USE + c for c in cards)
        if phase == MOVE:
            moves = sorted(_MOVE + c for c in hand if c < _TRI_CARD)  # D2: trilithon cards never move
            return [DONE if self.table else PASS] + moves
        if phase == PAY:
            colour = _COLOUR[self.table[0]]
            return [DONE] + sorted(_PAY + c for c in hand if c < _TRI_CARD and _COLOUR[c] == colour)
        return [ENTER_1, ENTER_19]

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        if self.phase == FIRST:
            return uniform([_FIRST + k for k in range(self.n)])
        return uniform(self.draw)

    def _apply(self, action: int) -> None:
        phase = self.phase
        if phase == DEAL or phase == DRAW:
            self._draw_card(action)
        elif phase == FIRST:
            self.first = action - _FIRST
            self._start_turn()
        elif phase == BLOCK:
            if action == PASS:
                self._next_blocker()
            else:
                self._choose_target(action - _TARGET)
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
            self._finish_ring(course.ENDS[action - ENTER_1])

    def _copy(self) -> DruidOlympicsState:
        new = DruidOlympicsState.__new__(DruidOlympicsState)
        new.game = self.game
        new.n = self.n
        new.phase = self.phase
        new.player = self.player
        new.first = self.first
        new.turn = self.turn
        new.pos = self.pos[:]
        new.end = self.end[:]
        new.owed = self.owed[:]
        new.skip = self.skip[:]
        new.drained = self.drained[:]
        new.bar = self.bar[:]
        new.disk = self.disk[:]
        new.tri = self.tri[:]
        new.cover = self.cover[:]
        new.hands = [h[:] for h in self.hands]
        new.draw = self.draw[:]
        new.discard = self.discard[:]
        new.table = self.table[:]
        new.target = self.target
        new.log = self.log
        new.winners = self.winners
        new.reason = self.reason
        return new

    # -- dealing, drawing and the turn order -------------------------------------

    def _draw_card(self, card: int) -> None:
        self.draw.remove(card)
        hand = self.hands[self.player]
        hand.append(card)
        if len(hand) < _HAND:
            self._refill_draw_pile()
            return
        if self.phase == DEAL:
            if self.player + 1 < self.n:
                self.player += 1
            else:
                self.phase = FIRST
        else:
            self._next_drawer(self.player)

    def _refill_draw_pile(self) -> None:
        """D9: the discard pile is reshuffled into the draw pile when a card is needed and none is left."""
        if not self.draw:
            self.draw = sorted(self.discard)
            self.discard = []

    def _order(self, after: int) -> range:
        """Returns the seats after ``after`` in this round's order (all of them for -1)."""
        done = -1 if after < 0 else (after - self.first) % self.n
        return range(done + 1, self.n)

    def _start_turn(self) -> None:
        """Starts a turn: D6 lost turns are taken, then the blocking round begins."""
        while True:
            self.turn += 1
            for seat in range(self.n):
                self.drained[seat] = 0
                self.skip[seat] = 1 if self.owed[seat] else 0
                self.owed[seat] -= self.skip[seat]
                if self.skip[seat]:
                    self._note(f"{RUNNERS[seat]} loses this turn")
            if not all(self.skip):
                self._next_blocker(-1)
                return
            if self.turn >= _ROUND_CAP:  # G4
                self._finish_at_cap()
                return

    def _next_blocker(self, after: int | None = None) -> None:
        for k in self._order(self.player if after is None else after):
            seat = (self.first + k) % self.n
            if not self.skip[seat]:
                self.phase = BLOCK
                self.player = seat
                return
        self._next_mover(-1)

    def _next_mover(self, after: int | None = None) -> None:
        self.phase = MOVE
        for k in self._order(self.player if after is None else after):
            seat = (self.first + k) % self.n
            if not self.skip[seat] and not self.drained[seat]:
                self.player = seat
                return
        self._next_drawer(-1)

    def _next_drawer(self, after: int) -> None:
        """End of the moving round: everyone draws back up to three, in turn order."""
        for k in self._order(after):
            seat = (self.first + k) % self.n
            if len(self.hands[seat]) < _HAND:
                self.phase = DRAW
                self.player = seat
                self._refill_draw_pile()
                return
        if self.turn >= _ROUND_CAP:  # G4
            self._finish_at_cap()
        else:
            self._start_turn()

    # -- blocking ----------------------------------------------------------------

    def _choose_target(self, index: int) -> None:
        self.target = index
        target = TARGETS[index]
        if target.colour >= 0:
            self._lay(_TRI_CARD + target.colour)
        self.phase = BLOCK_CARDS
        self._complete_block()

    def _lay(self, card: int) -> None:
        self.hands[self.player].remove(card)
        self.table.append(card)

    def _complete_block(self) -> None:
        """Places the piece once the cards on the table pay for it (D8).

        Only the cards themselves decide when the block is complete, never how many ways
        to pay are left in the hand: that would tell the others what the hand holds (G3).
        """
        target = TARGETS[self.target]
        if target.need == course.NEED_ALL:  # the text: both other cards are sacrificed
            for card in self.hands[self.player][:]:
                self._lay(card)
        elif course.completions(target, self.hands[self.player], self.table) != [()]:
            return
        seat = self.player
        cover = self.cover
        if target.piece < TRILITHON:
            held = self.bar if target.piece == course.BAR else self.disk
            if held[seat] >= 0:
                cover[held[seat]] = course.EMPTY
            held[seat] = target.spaces[0]
            cover[target.spaces[0]] = seat
        else:
            colour = target.colour
            if self.tri[colour] >= 0:
                for space in TARGETS[self.tri[colour]].spaces:
                    cover[space] = course.EMPTY
            self.tri[colour] = self.target
            for space in target.spaces:
                cover[space] = TRILITHON + colour
            if target.need == course.NEED_ALL:
                self.drained[seat] = 1  # the text: drained of energy, no move this turn
        self._note(f"{RUNNERS[seat]}: {target.text} ({' '.join(_TEXT[c] for c in self.table)})")
        self.discard.extend(self.table)
        self.table = []
        self.target = -1
        self._next_blocker()

    # -- moving ------------------------------------------------------------------

    def _move(self, action: int) -> None:
        seat = self.player
        if action == PASS:
            self._next_mover()
            return
        start = self.pos[seat]
        if action == DONE:
            points = sum(_NUMBER[c] for c in self.table) // 10  # D4
            after = course.horseshoe_walk(self.cover, seat, self.end[seat], start, points)
            self._arrive(start, after)
            return
        self._lay(action - _MOVE)
        if start >= HORSESHOE:
            return  # D4: more cards may follow, then done
        if start < _COLOURED_30:
            if self._pay_need():  # D5: asked even without a card to pay, so the hand shows nothing
                self.phase = PAY
            else:
                self._finish_coloured()
            return
        self._finish_ring(self.end[seat])

    def _pay_need(self) -> int:
        """Returns the extra cards of the destination colour that pass every block in the way (D5)."""
        seat = self.player
        cover = self.cover
        _, way = course.coloured_way(cover, seat, self.pos[seat], _COLOUR[self.table[0]])
        return sum(course.extra_cost(cover[s], seat) for s in way)

    def _finish_coloured(self) -> None:
        seat = self.player
        start = self.pos[seat]
        paid = len(self.table) - 1
        self._arrive(start, course.coloured_move(self.cover, seat, start, _COLOUR[self.table[0]], paid))

    def _finish_ring(self, end: int) -> None:
        seat = self.player
        start = self.pos[seat]
        after = course.ring_walk(self.cover, seat, start, _NUMBER[self.table[0]], end)
        if after == course.NEED_END:
            self.phase = ENTER  # D1: the runner picks the end on entering
            return
        if after == HORSESHOE:
            self.end[seat] = end
        self._arrive(start, after)

    def _arrive(self, start: int, after: int) -> None:
        seat = self.player
        self.pos[seat] = after
        cards = " ".join(_TEXT[c] for c in self.table)
        where = course.runner_text(after, self.end[seat])
        self._note(f"{RUNNERS[seat]} plays {cards}: {course.runner_text(start, self.end[seat])} -> {where}")
        self.discard.extend(self.table)
        self.table = []
        self.phase = MOVE
        if after == ALTAR:  # D9: the first runner on the altar stone wins
            self.winners = (seat,)
            self.reason = f"the {RUNNERS[seat]} runner (seat {seat}) reached the altar stone"
            self.phase = OVER
            return
        if after != start:  # D6: only the runner's own move onto a block costs turns
            space = after if after < HORSESHOE else course.BLUESTONE + course.stone_at(self.end[seat], after)
            lost = course.lost_turns(self.cover[space], after >= HORSESHOE, seat)
            if lost:
                self.owed[seat] += lost
                self._note(f"{RUNNERS[seat]} ends on a block on {where} and loses {lost} turn(s)")
        self._next_mover()

    # -- the end -------------------------------------------------------------------

    def _finish_at_cap(self) -> None:
        """G4 / D1: at the cap the runners furthest along the course share the win."""
        best = max(self.pos)
        self.winners = tuple(seat for seat in range(self.n) if self.pos[seat] == best)
        self.reason = f"the round cap of {_ROUND_CAP} turns was reached; the furthest runners lead"
        self.phase = OVER

    def _note(self, event: str) -> None:
        self.log = (self.log + (event,))[-_LOG:]

    # -- hidden information ----------------------------------------------------------

    def observation(self, player: int | None) -> dict[str, Any]:
        """Returns what seat ``player`` (None: a spectator) can see at the table (G3)."""
        if player is not None and not 0 <= player < self.n:
            raise ValueError(f"seats run 0..{self.n - 1}, not {player}")
        over = self.phase == OVER
        paying = None
        if self.phase == PAY:
            colour = _COLOUR[self.table[0]]
            paying = {"colour": box.COLOURS[colour], "need": self._pay_need(), "paid": len(self.table) - 1}
        return {
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
                RUNNERS[c]: None if self.tri[c] < 0 else course.place_text(TARGETS[self.tri[c]].spaces)
                for c in range(5)
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
            "winners": list(self.winners) if over else None,
            "result": self.reason if over else None,
        }

    def _runner_view(self, seat: int) -> dict[str, Any]:
        return {
            "seat": seat,
            "colour": RUNNERS[seat],
            "at": course.runner_text(self.pos[seat], self.end[seat]),
            "progress": self.pos[seat],
            "entered_at": f"bluestone {self.end[seat]}" if self.end[seat] else None,
            "bar": None if self.bar[seat] < 0 else course.SPACE_TEXT[self.bar[seat]],
            "disk": None if self.disk[seat] < 0 else course.SPACE_TEXT[self.disk[seat]],
            "lost_turns": self.owed[seat],
            "skipping": bool(self.skip[seat]),
            "drained": bool(self.drained[seat]),
        }

    def _blocks_view(self) -> list[dict[str, Any]]:
        """Every blocked space in course order, with its piece and owner."""
        blocks = []
        for space, code in enumerate(self.cover):
            if code == course.EMPTY:
                continue
            if code >= TRILITHON:
                piece, owner = f"trilithon {RUNNERS[code - TRILITHON]}", None
            else:
                piece, owner = ("bar" if self.bar[code] == space else "disk"), code
            blocks.append({"space": course.SPACE_TEXT[space], "piece": piece, "owner": owner})
        return blocks

    def resample_from_infostate(self, player: int, rng: random.Random) -> DruidOlympicsState:
        """Returns a state where the other hands and the draw pile are re-drawn from what
        ``player`` cannot see (G3).

        While a block is being paid, everyone knows the blocker's hand can finish paying
        it; deals where it cannot are drawn again (rejection keeps the draw uniform).
        """
        if not 0 <= player < self.n:
            raise ValueError(f"seats run 0..{self.n - 1}, not {player}")
        new = self._copy()
        new._history = []  # the real history would tell which cards were drawn
        new._legal = None
        others = [seat for seat in range(self.n) if seat != player]
        pool = list(self.draw)
        for seat in others:
            pool.extend(self.hands[seat])
        if self.phase == BLOCK_CARDS and self.player != player:
            blocker = self.player
            target = TARGETS[self.target]
            for _ in range(_RESAMPLE_TRIES):
                hand = rng.sample(pool, len(self.hands[blocker]))
                if course.completions(target, hand, self.table):
                    break
            else:  # never seen: the true hand is always among the consistent ones
                hand = self.hands[blocker][:]
            new.hands[blocker] = hand
            others.remove(blocker)
            for card in hand:
                pool.remove(card)
        rng.shuffle(pool)
        at = 0
        for seat in others:
            size = len(self.hands[seat])
            new.hands[seat] = pool[at : at + size]
            at += size
        new.draw = sorted(pool[at:])
        return new

    # -- JSON ------------------------------------------------------------------------

    def _fields(self) -> dict[str, Any]:
        return {
            "phase": _PHASE_NAMES[self.phase],
            "player": self.player,
            "first": self.first,
            "turn": self.turn,
            "runners": [course.runner_text(p, e) for p, e in zip(self.pos, self.end, strict=True)],
            "ends": [e or None for e in self.end],
            "lost_turns": list(self.owed),
            "skipping": [bool(s) for s in self.skip],
            "drained": [bool(d) for d in self.drained],
            "bars": [None if s < 0 else course.SPACE_TEXT[s] for s in self.bar],
            "disks": [None if s < 0 else course.SPACE_TEXT[s] for s in self.disk],
            "trilithons": [None if t < 0 else TARGETS[t].text for t in self.tri],
            "hands": [[_TEXT[c] for c in hand] for hand in self.hands],
            "draw_pile": [_TEXT[c] for c in self.draw],
            "discard_pile": [_TEXT[c] for c in self.discard],
            "table": [_TEXT[c] for c in self.table],
            "target": None if self.target < 0 else TARGETS[self.target].text,
            "log": list(self.log),
            "winners": list(self.winners),
            "reason": self.reason,
        }

    def _load(self, fields: Mapping[str, Any]) -> None:
        n = self.n
        check(fields["phase"] in _PHASE_NAMES, f"phase must be one of {', '.join(_PHASE_NAMES)}")
        phase = self.phase = _PHASE_NAMES.index(fields["phase"])
        self.player = load_int(fields["player"], 0, n - 1, "player")
        self.first = load_int(fields["first"], -1, n - 1, "first")
        check((self.first < 0) == (phase in (DEAL, FIRST)), "the first player is chosen after the deal")
        self.turn = load_int(fields["turn"], 0, _ROUND_CAP, "turn")
        ends = _list(fields["ends"], n, "ends")
        check(all(e is None or e in course.ENDS for e in ends), "ends: null, 1 or 19 per seat")
        self.end = [e or 0 for e in ends]
        runners = _list(fields["runners"], n, "runners")
        self.pos = [course.parse_runner(r, e) for r, e in zip(runners, self.end, strict=True)]
        self.owed = [load_int(v, 0, 2 * _ROUND_CAP, "lost_turns") for v in _list(fields["lost_turns"], n, "lost_turns")]
        self.skip = [_flag(v, "skipping") for v in _list(fields["skipping"], n, "skipping")]
        self.drained = [_flag(v, "drained") for v in _list(fields["drained"], n, "drained")]
        self.cover = [course.EMPTY] * course.SPACES
        self.bar = [
            _space(v, self.cover, seat, course.NUMBERED * 2, "bar")
            for seat, v in enumerate(_list(fields["bars"], n, "bars"))
        ]
        self.disk = [
            _space(v, self.cover, seat, course.SPACES, "disk")
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
                check(self.cover[space] == course.EMPTY, f"two blocks on {course.SPACE_TEXT[space]}")
                self.cover[space] = TRILITHON + colour
        self.hands = [_cards(h, "hand") for h in _list(fields["hands"], n, "hands")]
        check(all(len(h) <= _HAND for h in self.hands), "a hand holds at most three cards")
        self.draw = sorted(_cards(fields["draw_pile"], "draw_pile"))
        self.discard = _cards(fields["discard_pile"], "discard_pile")
        self.table = _cards(fields["table"], "table")
        every = [c for h in self.hands for c in h] + self.draw + self.discard + self.table
        check(sorted(every) == list(box.FULL_DECK), "every one of the 65 cards must be in exactly one place")
        target = fields["target"]
        check(target is None or target in _TARGET_BY_TEXT, f"target: {target!r} is not a block placement")
        self.target = -1 if target is None else _TARGET_BY_TEXT[target]
        log = fields["log"]
        check(isinstance(log, list) and len(log) <= _LOG and all(isinstance(e, str) for e in log), "log: texts")
        self.log = tuple(log)
        self.winners = tuple(load_int(w, 0, n - 1, "winner") for w in fields["winners"])
        self.reason = str(fields["reason"])
        self._check_phase()

    def _check_phase(self) -> None:
        """Checks that the phase, the seat to act, the table and the target agree."""
        phase = self.phase
        seat = self.player
        check((phase == OVER) == bool(self.winners), "winners are named exactly when the game is over")
        check((phase == BLOCK_CARDS) == (self.target >= 0), "a target is chosen exactly while its cards are laid")
        check(ALTAR not in self.pos or phase == OVER, "a runner on the altar ends the game")
        if phase in (DEAL, FIRST):
            check(not self.discard and self.turn == 0, "nothing is played before the first turn")
            dealt = self.n if phase == FIRST else seat
            sizes = [len(h) for h in self.hands]
            check(
                sizes[:dealt] == [_HAND] * dealt
                and not any(sizes[dealt + 1 :])
                and (dealt == self.n or sizes[dealt] < _HAND),
                "the deal gives three cards to each seat in turn",
            )
        if phase in _DECISIONS:
            check(not self.skip[seat], "a seat that loses this turn does not act")
            check(phase < MOVE or not self.drained[seat], "a drained runner does not move")
        if phase == BLOCK_CARDS:
            target = TARGETS[self.target]
            check(target.colour < 0 or _TRI_CARD + target.colour in self.table, "a trilithon needs its card")
            options = course.completions(target, self.hands[seat], self.table)
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
                check(len(self.table) == 1 and course.HORSESHOE > self.pos[seat] >= _COLOURED_30, "no end to choose")
                check(
                    course.ring_walk(self.cover, seat, self.pos[seat], _NUMBER[self.table[0]], 0) == course.NEED_END,
                    "the move does not reach the horseshoe",
                )
        else:
            check(not self.table, "cards lie on the table only during a decision")
        if phase == DRAW:
            check(len(self.hands[seat]) < _HAND and bool(self.draw), "a draw fills a short hand from a pile")


_TARGET_BY_TEXT = {t.text: i for i, t in enumerate(TARGETS)}


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
    space = course.parse_space(value)
    low = 0 if name == "bar" else course.INNER
    check(low <= space < limit, f"a {name} cannot lie on {value}")
    check(cover[space] == course.EMPTY, f"two blocks on {value}")
    cover[space] = seat
    return space


def _cards(values: Any, name: str) -> list[int]:
    check(isinstance(values, list) and all(isinstance(v, str) for v in values), f"{name}: a list of card texts")
    return [box.parse_card(v) for v in values]


class DruidOlympics(Game):
    """Druid Olympics for 3-5 players: an obstacle race from the coloured ring to the altar stone."""

    info = GameInfo(
        id="druid_olympics",
        name="Druid Olympics",
        min_players=3,
        max_players=5,
        version="1.0.0",
        rule_text="Druid Olympics, a racing game by Nicholas Tolle (the Stonehenge Anthology)",
        summary="race over the rings and the bluestones to the altar while blocking the others",
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
