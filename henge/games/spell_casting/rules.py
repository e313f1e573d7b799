"""Stonehenge Spell Casting Game, by Benjamin Parker, for 3-4 players.

Rule set: *Stonehenge Spell Casting Game*, from the Stonehenge Anthology. Rulings
G1-G7 and SC1-SC11 apply; ``docs/games/spell_casting.md`` documents them and the
edition's other readings. The board geometry and the action table
live in :mod:`henge.games.spell_casting.board`.

Set-up turns cards (chance): seven per seat for the spell components on the
outer ring (SC7), then one per figure. A turn is a series of decisions (G2):
``place X`` for disks held from action c, then ``take X`` / ``take mine X``
(actions a and b) or ``hold X`` (action c), ``done``; then one use per disk
(``move``, ``figure``, ``pull``, ``push``), each displacement of a chain as
``displace <direction>`` (SC5), ``done``; then ``place X`` for each disk taken, into a
cup no disk of the action came from (SC11).
A component reaching the inner ring lets its owner ``place X`` a private disk
at once, even off-turn (SC9). Nothing is hidden: the cards still to be turned
are known by elimination, and each turn is a uniform chance event over them.

The record (G6) is public: every seat and a spectator read each card turned and
each decision, so equal records mean equal histories, and the one world a seat's
record allows is the real one (resampling copies the state).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import cython

from henge import box
from henge.core import (
    CHANCE,
    TERMINAL,
    Game,
    GameInfo,
    Option,
    check,
    load_cards,
    load_int,
    scaled_returns,
)
from henge.core.state import State
from henge.games.spell_casting import board as sb
from henge.games.spell_casting.board import displace_options, displace_target, slide_target

_TARGET = 4
_SHORT_TARGET = 3
_COMPONENTS = 7
TARGETS: tuple[int, ...] = (2, 3, 4, 5)
"""Designer option ``components``: the components on the inner ring that cast the spell (SC8
names 4; a seat has 7). 6 and 7 are left out: most rule-based games then end at the round cap
(docs/games/spell_casting.md, "Designer options")."""
_PRIVATE_DISKS = 3
_ROUND_CAP = 1000  # G4: rounds of turns (docs/games/spell_casting.md gives how often random play reaches it)
_RECENT = 12

DEAL_COMPONENTS, DEAL_FIGURES, RETURN, TAKE, USE, DISPLACE, PRIVATE, REPLACE, OVER = range(9)
_PHASE_NAMES = (
    "deal components",
    "deal figures",
    "return held disks",
    "take",
    "use",
    "displace",
    "place private disk",
    "replace disks",
    "over",
)
NO_ACTION, ACTION_A, ACTION_B, ACTION_C = range(4)
_ACTION_NAMES = (None, "a", "b", "c")

_SECTION = cython.declare(tuple, sb.SECTION)
_STONE_SECTION = cython.declare(tuple, sb.STONE_SECTION)
_LEFT = cython.declare(tuple, sb.LEFT)
_RIGHT = cython.declare(tuple, sb.RIGHT)
_INNER = cython.declare(cython.int, sb.INNER_BASE)
_GRAY = cython.declare(cython.int, sb.GRAY_FIGURE)
_STONES = cython.declare(cython.int, box.INNER_STONES)
_DISTANCES = cython.declare(tuple, sb.DISTANCES)
_OUTSIDE_CUPS = cython.declare(tuple, sb.OUTSIDE_CUPS)

# The phases, the kinds of action and the special players as C ints where compiled (the public
# names above stay Python ints for every other module).
_CHANCE = cython.declare(cython.int, CHANCE)
_TERMINAL = cython.declare(cython.int, TERMINAL)
_P_DEAL_COMPONENTS = cython.declare(cython.int, DEAL_COMPONENTS)
_P_DEAL_FIGURES = cython.declare(cython.int, DEAL_FIGURES)
_P_RETURN = cython.declare(cython.int, RETURN)
_P_TAKE = cython.declare(cython.int, TAKE)
_P_USE = cython.declare(cython.int, USE)
_P_DISPLACE = cython.declare(cython.int, DISPLACE)
_P_PRIVATE = cython.declare(cython.int, PRIVATE)
_P_REPLACE = cython.declare(cython.int, REPLACE)
_P_OVER = cython.declare(cython.int, OVER)
_K_NONE = cython.declare(cython.int, NO_ACTION)
_K_A = cython.declare(cython.int, ACTION_A)
_K_B = cython.declare(cython.int, ACTION_B)
_K_C = cython.declare(cython.int, ACTION_C)
_C_RECENT = cython.declare(cython.Py_ssize_t, _RECENT)
_C_COMPONENTS = cython.declare(cython.int, _COMPONENTS)
_C_PRIVATE_DISKS = cython.declare(cython.int, _PRIVATE_DISKS)
_C_ROUND_CAP = cython.declare(cython.int, _ROUND_CAP)

# The action ids' bases (henge.games.spell_casting.board), as C ints where compiled.
_TAKE = cython.declare(cython.int, sb.TAKE)
_TAKE_MINE = cython.declare(cython.int, sb.TAKE_MINE)
_HOLD = cython.declare(cython.int, sb.HOLD)
_PLACE = cython.declare(cython.int, sb.PLACE)
_DONE = cython.declare(cython.int, sb.DONE)
_PASS = cython.declare(cython.int, sb.PASS)
_DISPLACE = cython.declare(cython.int, sb.DISPLACE)
_MOVE = cython.declare(cython.int, sb.MOVE)
_FIGURE = cython.declare(cython.int, sb.FIGURE)
_PULL = cython.declare(cython.int, sb.PULL)
_PULL_INNER = cython.declare(cython.int, sb.PULL_INNER)
_PUSH = cython.declare(cython.int, sb.PUSH)
_PLAYER_TEXTS = cython.declare(tuple, sb.PLAYER_TEXTS)
# What an observation writes, read from tables rather than worked out or looked up in a module each time.
_CARD_TEXT = cython.declare(tuple, box.CARD_TEXT)
_STONE_TEXTS = cython.declare(tuple, tuple(box.inner_text(t) for t in range(box.INNER_STONES)))
_FIGURE_NAMES = cython.declare(tuple, sb.FIGURE_NAMES)
_CUP_NAMES = cython.declare(tuple, sb.CUP_NAMES)
_COLOURS = cython.declare(tuple, box.PLAYER_COLOURS)
_CELL_TEXTS = cython.declare(tuple, sb.CELL_TEXTS)


class SpellCastingState(State):
    """A Spell Casting position: components on four rings, figures, cups of energy disks.

    Compiled, it is an extension type whose fields are C fields (``rules.pxd``) and whose rule
    methods are cpdef methods: the rules call each other in C, and a Python subclass can still
    override any method to change a rule."""

    __slots__ = (
        "cells",
        "chain_at",
        "chain_moved",
        "chain_owner",
        "draw_pile",
        "energy",
        "figures",
        "hand",
        "held",
        "inner",
        "kind",
        "n",
        "phase",
        "placed",
        "player",
        "private",
        "private_seat",
        "reason",
        "recent",
        "setup_cards",
        "sources",
        "take_cup",
        "target",
        "turns",
        "uses",
        "winners",
    )

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        n = game.num_players
        self.n: int = n
        self.target: int = spell_target(game.settings)
        self.cells: list[int] = [-1] * sb.CELLS  # seat of the component on each cell, -1 empty
        self.figures: list[int] = [-1] * 6  # inner stone of each figure by colour index; -1 absent
        self.energy: list[int] = list(sb.START_ENERGY)  # neutral energy disks per cup (SC3)
        self.private: list[int] = [0] * (6 * n)  # private disks of seat s in cup c: [6 * s + c]
        self.placed: list[int] = [0] * n  # private disks each seat has put into play (SC9)
        self.held: list[int] = [0] * n  # disks held off the board by action c
        self.inner: list[int] = [0] * n  # components of each seat on the inner ring
        self.hand: list[int] = []  # disks of this turn's action a/b: cup, +6 if the mover's private disk
        self.kind: int = NO_ACTION
        self.take_cup: int = -1  # action a's inside cup
        self.sources: int = 0  # cups (bit c) a disk of this action a/b came from: none take one back (SC11)
        self.uses: list[int] = [0, 0, 0]  # unused disks in hand per section
        self.chain_at: int = -1  # the cell the displaced component is pushed off (SC5)
        self.chain_owner: int = -1
        self.chain_moved: list[int] = []
        self.player: int = 0
        self.private_seat: int = -1
        self.phase: int = DEAL_COMPONENTS
        self.setup_cards: list[int] = []
        self.draw_pile: list[int] = list(box.NUMBER_CARDS)  # unturned, kept sorted: no order is modelled
        self.turns: int = 0
        self.recent: tuple[tuple[int, int], ...] = ()
        self.winners: tuple[int, ...] = ()
        self.reason: str = ""

    # -- the public API hooks ------------------------------------------------

    @cython.locals(phase=cython.int)
    def current_player(self) -> int:
        phase = self.phase
        if phase <= _P_DEAL_FIGURES:
            return _CHANCE
        if phase == _P_PRIVATE:
            return self.private_seat
        if phase == _P_OVER:
            return _TERMINAL
        return self.player

    @cython.locals(phase=cython.int, sources=cython.int, c=cython.int, d=cython.int, legal=list)
    def _legal_actions(self) -> list[int]:
        phase = self.phase
        if phase == _P_USE:
            return self._legal_uses()
        if phase == _P_TAKE:
            return self._legal_takes()
        if phase == _P_DISPLACE:
            return [_DISPLACE + d for d in displace_options(self.cells, self.chain_at, self.chain_moved)]
        legal = []
        if phase == _P_REPLACE:  # SC11: no disk goes back into a cup this action took from
            sources = self.sources
            for c in range(6):
                if not sources >> c & 1:
                    legal.append(_PLACE + c)
            return legal
        for c in range(6):  # RETURN and PRIVATE: any cup
            legal.append(_PLACE + c)
        return legal

    @cython.locals(base=cython.int, kind=cython.int, c=cython.int, energy=list, private=list, legal=list)
    def _legal_takes(self) -> list[int]:
        energy = self.energy
        base = 6 * self.player
        private = self.private
        kind = self.kind
        legal = []
        if kind == _K_NONE:
            for c in range(6):
                if energy[c]:
                    legal.append(_TAKE + c)
            for c in range(6):
                if private[base + c]:
                    legal.append(_TAKE_MINE + c)
            for c in range(6):
                if energy[c]:
                    legal.append(_HOLD + c)
            if not legal:
                legal.append(_PASS)  # SC10
            return legal
        if kind == _K_C:
            for c in range(6):
                if energy[c]:
                    legal.append(_HOLD + c)
            return legal
        if kind == _K_A:  # the action's inside cup
            c = self.take_cup
            if energy[c]:
                legal.append(_TAKE + c)
            if private[base + c]:
                legal.append(_TAKE_MINE + c)
        else:  # action b: the outside cups
            for c in range(3, 6):
                if energy[c]:
                    legal.append(_TAKE + c)
            for c in range(3, 6):
                if private[base + c]:
                    legal.append(_TAKE_MINE + c)
        legal.append(_DONE)
        return legal

    @cython.locals(
        cells=list,
        uses=list,
        figures=list,
        legal=list,
        extra=list,
        section=cython.int,
        ring=cython.int,
        c=cython.int,
        figure=cython.int,
        stone=cython.int,
        base=cython.int,
        m=cython.int,
        a=cython.int,
        last=cython.int,
        occupant=cython.int,
    )
    def _legal_uses(self) -> list[int]:
        cells = self.cells
        uses = self.uses
        legal = [_DONE]
        if self.kind == _K_A:
            section = self.take_cup
            if uses[section]:
                for ring in range(3):
                    for c in range(30 * ring + 10 * section, 30 * ring + 10 * section + 10):
                        occupant = cells[c]
                        if occupant >= 0:
                            legal.append(_MOVE + 2 * c)
                            legal.append(_MOVE + 2 * c + 1)
            return legal
        extra = []  # pulls and pushes, which two figures may share
        figures = self.figures
        for figure in (self.player, self.n, _GRAY):  # SC4: own, neutral and gray figures, in order
            stone = figures[figure]
            if not uses[_STONE_SECTION[stone]]:
                continue
            base = _FIGURE + 6 * figure
            for a in range(base, base + 6):
                legal.append(a)
            m = stone // 2  # number - 1
            occupant = cells[m]
            if occupant >= 0:
                extra.append(_PULL + m)
            occupant = cells[30 + m]
            if occupant >= 0:
                extra.append(_PULL + 30 + m)
                extra.append(_PUSH + m)
            occupant = cells[60 + m]
            if occupant >= 0:
                extra.append(_PUSH + 30 + m)
                occupant = cells[_INNER + stone]
                if occupant < 0:
                    extra.append(_PULL_INNER + stone)
        extra.sort()  # every one above the figures' actions
        last = -1
        for a in extra:
            if a != last:
                legal.append(a)
                last = a
        return legal

    uniform_chance = True  # G1: every card turned is uniform over the unturned ones

    def _chance_actions(self) -> list[int]:
        return self.draw_pile  # kept sorted

    @cython.locals(action=cython.int, phase=cython.int, seat=cython.int, disk=cython.int, cup=cython.int)
    def _apply(self, action: int) -> None:
        phase = self.phase
        if phase <= _P_DEAL_FIGURES:
            self._turn_card(action)
            return
        seat = self.private_seat if phase == _P_PRIVATE else self.player  # the current player
        self._record(seat, _PLAYER_TEXTS[action])  # G6: every decision is seen by all
        self.recent = self.recent[1 - _C_RECENT :] + ((seat, action),)
        if phase == _P_USE:
            self._use(action)
        elif phase == _P_DISPLACE:
            self._displace(action - _DISPLACE)
        elif phase == _P_TAKE:
            self._take(action)
        elif phase == _P_REPLACE:
            disk = self.hand.pop(0)
            cup = action - _PLACE
            if disk >= 6:
                self.private[6 * self.player + cup] += 1
            else:
                self.energy[cup] += 1
            if not self.hand:
                self._end_turn()
        elif phase == _P_RETURN:  # SC10: held disks go back just before the holder's next action
            self.energy[action - _PLACE] += 1
            self.held[self.player] -= 1
            if not self.held[self.player]:
                self.phase = _P_TAKE
        else:  # PRIVATE (SC9)
            self.private[6 * seat + action - _PLACE] += 1
            self.placed[seat] += 1
            self.private_seat = -1
            self._after_use()

    def _copy(self) -> SpellCastingState:
        cls = type(self)  # a subclass (a designer's rule change) stays itself
        if cls is SpellCastingState:
            new = SpellCastingState.__new__(SpellCastingState)
        else:
            new = SpellCastingState.__new__(cls)
        new.game = self.game
        new.n = self.n
        new.target = self.target
        new.cells = self.cells[:]
        new.figures = self.figures[:]
        new.energy = self.energy[:]
        new.private = self.private[:]
        new.placed = self.placed[:]
        new.held = self.held[:]
        new.inner = self.inner[:]
        new.hand = self.hand[:]
        new.kind = self.kind
        new.take_cup = self.take_cup
        new.sources = self.sources
        new.uses = self.uses[:]
        new.chain_at = self.chain_at
        new.chain_owner = self.chain_owner
        new.chain_moved = self.chain_moved[:]
        new.player = self.player
        new.private_seat = self.private_seat
        new.phase = self.phase
        if self.phase <= _P_DEAL_FIGURES:
            new.setup_cards = self.setup_cards[:]
            new.draw_pile = self.draw_pile[:]
        else:  # shared: once the set-up is over the rules never change them again
            new.setup_cards = self.setup_cards
            new.draw_pile = self.draw_pile
        new.turns = self.turns
        new.recent = self.recent
        new.winners = self.winners
        new.reason = self.reason
        return new

    # -- set-up ------------------------------------------------------------------

    @cython.locals(card=cython.int, k=cython.int, n=cython.int, j=cython.int, figure=cython.int)
    def _turn_card(self, card: int) -> None:
        """Set-up: seven cards per seat place components (SC7), then one card per figure."""
        self.draw_pile.remove(card)
        self.setup_cards.append(card)
        k = len(self.setup_cards) - 1
        n = self.n
        self._record(_CHANCE, _turn_text(card, k, n))  # G6: every card is turned face up
        if k < _C_COMPONENTS * n:
            sb.setup_place(self.cells, card // 2 + 1, k // _C_COMPONENTS)
            if k == _C_COMPONENTS * n - 1:
                self.phase = _P_DEAL_FIGURES
            return
        j = k - _C_COMPONENTS * n  # seats' figures, then the neutral colour's (SC1), then gray
        figure = j if j <= n else _GRAY
        self.figures[figure] = card  # a card's id is the index of its inner stone
        if j == n + 1:
            self.phase = _P_TAKE

    # -- a turn --------------------------------------------------------------------

    @cython.locals(action=cython.int, seat=cython.int, cup=cython.int, disk=cython.int)
    def _take(self, action: int) -> None:
        if action == _DONE:
            self.phase = _P_USE
            return
        if action == _PASS:
            self._end_turn()
            return
        seat = self.player
        if action >= _HOLD:  # action c: neutral disks only (SC9), min(2, on the board) (SC10)
            cup = action - _HOLD
            self.kind = _K_C
            self.energy[cup] -= 1
            self.held[seat] += 1
            if self.held[seat] == 2 or not any(self.energy):
                self._end_turn()
            return
        if action >= _TAKE_MINE:
            cup = action - _TAKE_MINE
            self.private[6 * seat + cup] -= 1
            disk = cup + 6
        else:
            cup = action - _TAKE
            self.energy[cup] -= 1
            disk = cup
        self.sources |= 1 << cup
        if self.kind == _K_NONE:
            if cup < 3:
                self.kind = _K_A
                self.take_cup = cup
            else:
                self.kind = _K_B
        self.hand.append(disk)
        self.hand.sort()
        self.uses[cup % 3] += 1

    @cython.locals(action=cython.int, c=cython.int, k=cython.int, figure=cython.int, stone=cython.int, step=cython.int)
    def _use(self, action: int) -> None:
        if action == _DONE:  # SC10: disks left unused go back with the others
            self.uses = [0, 0, 0]
            self.phase = _P_REPLACE
            return
        if action < _FIGURE:
            c = (action - _MOVE) >> 1
            self.uses[_SECTION[c]] -= 1
            self._shift(c, _RIGHT[c] if action & 1 else _LEFT[c])
        elif action < _PULL:
            k = action - _FIGURE
            figure = k // 6
            stone = self.figures[figure]
            self.uses[_STONE_SECTION[stone]] -= 1  # SC4: the figure stands in the disk's section
            step = _DISTANCES[(k % 6) >> 1]
            self.figures[figure] = (stone + step if k & 1 else stone - step) % _STONES
            self._after_use()
        elif action < _PULL_INNER:
            c = action - _PULL
            self.uses[_SECTION[c]] -= 1
            self._shift(c, c + 30)
        elif action < _PUSH:
            stone = action - _PULL_INNER
            self.uses[_STONE_SECTION[stone]] -= 1
            self._shift(60 + stone // 2, _INNER + stone)  # SC2: pulled onto the figure's stone
        else:
            c = action - _PUSH + 30
            self.uses[_SECTION[c]] -= 1
            self._shift(c, c - 30)

    @cython.locals(source=cython.int, target=cython.int, owner=cython.int, occupant=cython.int, cells=list)
    def _shift(self, source: int, target: int) -> None:
        """Moves the component on ``source`` to ``target``, starting a displacement chain (SC5)."""
        cells = self.cells
        owner = cells[source]
        cells[source] = -1
        occupant = cells[target]
        cells[target] = owner
        if target >= _INNER:
            self._arrive(owner)
        elif occupant < 0:
            self._after_use()
        else:
            self.chain_owner = occupant
            self.chain_at = target
            self.chain_moved = [target]
            self.phase = _P_DISPLACE  # the first component pushed can always step back (SC5)

    @cython.locals(direction=cython.int, target=cython.int, owner=cython.int, occupant=cython.int, cells=list)
    def _displace(self, direction: int) -> None:
        """SC5: one push of the chain, in the direction the mover chose."""
        cells = self.cells
        target = displace_target(self.chain_at, direction)
        owner = self.chain_owner
        occupant = cells[target]
        cells[target] = owner
        if occupant < 0:
            self._end_chain()
            if target >= _INNER:  # SC2: pushed in onto the stone the mover picked
                self._arrive(owner)
            else:
                self._after_use()
            return
        self.chain_owner = occupant
        self.chain_at = target
        self.chain_moved.append(target)
        if not displace_options(cells, target, self.chain_moved):
            cells[slide_target(cells, target)] = occupant  # SC5: no legal direction, slide clockwise
            self._end_chain()
            self._after_use()

    def _end_chain(self) -> None:
        self.chain_at = -1
        self.chain_owner = -1
        self.chain_moved = []

    def _arrive(self, seat: int) -> None:
        """A component of ``seat`` reached the inner ring: a win (SC8) or a private disk (SC9)."""
        self.inner[seat] += 1
        if self.inner[seat] >= self.target:
            self.winners = (seat,)
            colour = box.PLAYER_COLOURS[seat]
            self.reason = f"seat {seat} ({colour}) has {self.target} components on the inner ring and casts the spell"
            self.phase = _P_OVER
        elif self.placed[seat] < _C_PRIVATE_DISKS:
            self.private_seat = seat
            self.phase = _P_PRIVATE
        else:
            self._after_use()

    @cython.locals(uses=list)
    def _after_use(self) -> None:
        uses = self.uses
        self.phase = _P_USE if uses[0] or uses[1] or uses[2] else _P_REPLACE

    def _end_turn(self) -> None:
        self.turns += 1
        self.kind = _K_NONE
        self.take_cup = -1
        self.sources = 0
        self.uses = [0, 0, 0]
        if self.turns >= _C_ROUND_CAP * self.n:  # G4, SC6
            best = max(self.inner)
            self.winners = tuple([s for s in range(self.n) if self.inner[s] == best])
            self.reason = f"the round cap of {_ROUND_CAP} rounds was reached; most components inside: {best}"
            self.phase = _P_OVER
            return
        self.player = (self.player + 1) % self.n
        self.phase = _P_RETURN if self.held[self.player] else _P_TAKE

    # -- what a seat sees ------------------------------------------------------------

    def progress(self) -> list[float] | None:
        """Each seat's standing by the rules' count: the rings its components have come inward
        (three from the outer ring to the inner), over the seat's ``target`` components furthest
        in, of the ``3 * target`` the spell needs; once the game is over, the returns."""
        if self.phase == _P_OVER:
            return scaled_returns(self)
        target = self.target
        rings: list[list[int]] = [[3] * self.inner[s] for s in range(self.n)]
        cells = self.cells
        for c in range(_INNER):
            seat = cells[c]
            if seat >= 0:
                rings[seat].append(c // 30)
        out = []
        for own in rings:
            own.sort(reverse=True)
            out.append(sum(own[:target]) / (3.0 * target))
        return out

    def observation(self, player: int | None) -> dict[str, Any]:
        """Returns what seat ``player`` (None: a spectator) sees: the whole board and every hand (G3)."""
        if player is not None and not (isinstance(player, int) and 0 <= player < self.n):
            raise ValueError(f"seats run 0..{self.n - 1}, not {player}")
        return {"game": "spell_casting", "seat": player, **self._public()}

    @cython.locals(n=cython.int, f=cython.int, c=cython.int, cells=list, figures=list, energy=list, private=list)
    def _public(self) -> dict[str, Any]:
        n = self.n
        cells = self.cells
        figures = self.figures
        energy = self.energy
        private = self.private
        over = self.phase == _P_OVER
        chain = None
        if self.phase == _P_DISPLACE:
            chain = {
                "component": self.chain_owner,
                "from": _CELL_TEXTS[self.chain_at],
                "moved": [_CELL_TEXTS[c] for c in self.chain_moved],
            }
        shown = {}  # the figures in play: the seats', the neutral colour's, then the gray one
        for f in range(n + 1):
            shown[_FIGURE_NAMES[f]] = None if figures[f] < 0 else _STONE_TEXTS[figures[f]]
        shown[_FIGURE_NAMES[_GRAY]] = None if figures[_GRAY] < 0 else _STONE_TEXTS[figures[_GRAY]]
        cups = {}
        for c in range(6):
            cups[_CUP_NAMES[c]] = {"energy": energy[c], "private": private[c : 6 * n : 6]}
        return {
            "players": n,
            "variant": self.game.options["variant"],
            "target": self.target,
            "colours": list(_COLOURS[:n]),
            "neutral_colour": _COLOURS[n],
            "phase": _PHASE_NAMES[self.phase],
            "current_player": self.current_player(),
            "turn_player": self.player,
            "turn": self.turns,
            "round": self.turns // n + 1,
            "round_cap": _ROUND_CAP,
            "setup_cards": [_CARD_TEXT[c] for c in self.setup_cards],
            "draw_pile": len(self.draw_pile),
            "rings": {
                "outer": _seats(cells, 0, 30),
                "coloured": _seats(cells, 30, 60),
                "middle": _seats(cells, 60, 90),
                "inner": _seats(cells, 90, 150),
            },
            "figures": shown,
            "cups": cups,
            "held": list(self.held),
            "private_left": [_PRIVATE_DISKS - p for p in self.placed],
            "inner_counts": list(self.inner),
            "action": _ACTION_NAMES[self.kind],
            "action_cup": _CUP_NAMES[self.take_cup] if self.take_cup >= 0 else None,
            "action_sources": _cup_names(self.sources),
            "hand": [_DISK_TEXTS[d] for d in self.hand],
            "uses_left": list(self.uses),
            "chain": chain,
            "recent": [{"seat": s, "action": _PLAYER_TEXTS[a]} for s, a in self.recent],
            "winners": list(self.winners) if over else None,
            "result": self.reason if over else None,
        }

    def resample_from_infostate(self, player: int, rng: random.Random) -> SpellCastingState:
        """Returns the one world ``player``'s record allows: this state, copied with its history
        and record (G3, G6).

        Every card turned and every decision is in every seat's record, each with its own text,
        so two histories with equal records are equal, action by action: the real history is the
        only consistent one, and replaying it would rebuild this very state. ``rng`` is not used
        (the copy depends on nothing the seat cannot see).
        """
        if player is None:
            raise ValueError(f"seats run 0..{self.n - 1}, not None")
        self._check_seat(player)
        new = self.clone()
        assert isinstance(new, SpellCastingState)
        return new

    # -- JSON ------------------------------------------------------------------------

    def _fields(self) -> dict[str, Any]:
        public = self._public()
        return {
            "phase": public["phase"],
            "player": self.player,
            "private_seat": self.private_seat,
            "turns": self.turns,
            "setup_cards": public["setup_cards"],
            "draw_pile": [box.CARD_TEXT[c] for c in self.draw_pile],
            "rings": public["rings"],
            "figures": [None if s < 0 else box.inner_text(s) for s in self.figures],
            "energy": list(self.energy),
            "private": [self.private[6 * s : 6 * s + 6] for s in range(self.n)],
            "private_placed": list(self.placed),
            "held": list(self.held),
            "action": public["action"],
            "action_cup": public["action_cup"],
            "action_sources": public["action_sources"],
            "hand": public["hand"],
            "uses": list(self.uses),
            "chain": None
            if self.chain_at < 0
            else {
                "component": self.chain_owner,
                "at": sb.CELL_TEXTS[self.chain_at],
                "moved": [sb.CELL_TEXTS[c] for c in self.chain_moved],
            },
            "recent": [[s, a] for s, a in self.recent],
            "winners": list(self.winners),
            "reason": self.reason,
        }

    def _load(self, fields: Mapping[str, Any]) -> None:
        n = self.n
        check(fields["phase"] in _PHASE_NAMES, f"phase must be one of {', '.join(_PHASE_NAMES)}")
        phase = self.phase = _PHASE_NAMES.index(fields["phase"])
        self.player = load_int(fields["player"], 0, n - 1, "player")
        self.private_seat = load_int(fields["private_seat"], -1, n - 1, "private_seat")
        check((phase == PRIVATE) == (self.private_seat >= 0), "private_seat is a seat exactly in 'place private disk'")
        self.turns = load_int(fields["turns"], 0, _ROUND_CAP * n, "turns")
        self.setup_cards = _cards(fields["setup_cards"], "setup_cards")
        self.draw_pile = sorted(_cards(fields["draw_pile"], "draw_pile"))
        check(
            sorted(self.setup_cards + self.draw_pile) == list(box.NUMBER_CARDS),
            "every one of the 60 number cards must be turned (setup_cards) or unturned (draw_pile), once",
        )
        turned = len(self.setup_cards)
        dealt = _COMPONENTS * n
        expect_phase = DEAL_COMPONENTS if turned < dealt else DEAL_FIGURES if turned < dealt + n + 2 else -1
        check(
            phase == expect_phase if expect_phase >= 0 else turned == dealt + n + 2 and phase > DEAL_FIGURES,
            f"{turned} set-up cards turned does not fit phase {fields['phase']!r}",
        )
        rings = fields["rings"]
        check(isinstance(rings, Mapping), "rings: an object of four lists")
        cells: list[int] = []
        for name, size in (("outer", 30), ("coloured", 30), ("middle", 30), ("inner", 60)):
            ring = rings[name]
            check(isinstance(ring, list) and len(ring) == size, f"rings.{name}: a list of {size} seats or nulls")
            cells += [-1 if s is None else load_int(s, 0, n - 1, f"rings.{name} entry") for s in ring]
        self.cells = cells
        figures = fields["figures"]
        check(isinstance(figures, list) and len(figures) == 6, "figures: six stones or nulls (white..red, gray)")
        self.figures = [-1 if f is None else _stone(f) for f in figures]
        self.energy = _ints(fields["energy"], 6, 0, sb.ENERGY_DISKS, "energy")
        private = fields["private"]
        check(isinstance(private, list) and len(private) == n, f"private: one list of six counts per seat ({n})")
        self.private = [x for row in private for x in _ints(row, 6, 0, _PRIVATE_DISKS, "private")]
        self.placed = _ints(fields["private_placed"], n, 0, _PRIVATE_DISKS, "private_placed")
        self.held = _ints(fields["held"], n, 0, 2, "held")
        check(fields["action"] in _ACTION_NAMES, "action must be null, 'a', 'b' or 'c'")
        self.kind = _ACTION_NAMES.index(fields["action"])
        cup = fields["action_cup"]
        check(cup is None or cup in sb.CUP_NAMES[:3], "action_cup: null or an inside cup")
        self.take_cup = -1 if cup is None else sb.CUP_NAMES.index(cup)
        check((self.kind == ACTION_A) == (self.take_cup >= 0), "action_cup is named exactly for action a")
        hand = fields["hand"]
        check(isinstance(hand, list) and all(h in _DISK_TEXTS for h in hand), "hand: disks like 'in1' or 'mine out2'")
        self.hand = sorted(_DISK_TEXTS.index(h) for h in hand)
        self.sources = _load_sources(fields.get("action_sources"), self.hand)
        self.uses = _ints(fields["uses"], 3, 0, sb.ENERGY_DISKS + _PRIVATE_DISKS, "uses")
        self.recent = tuple(
            (load_int(s, 0, n - 1, "recent seat"), load_int(a, 0, sb.ACTION_COUNT - 1, "recent action"))
            for s, a in fields["recent"]
        )
        check(len(self.recent) <= _RECENT, f"recent: at most {_RECENT} actions")
        self.winners = tuple(load_int(w, 0, n - 1, "winner") for w in fields["winners"])
        check(isinstance(fields["reason"], str), "reason: a text")
        self.reason = fields["reason"]
        check((phase == OVER) == bool(self.winners), "winners are named exactly when the game is over")
        self._load_chain(fields["chain"])
        self._check_pieces(turned)
        self._check_turn()
        self._check_counters()

    def _load_chain(self, chain: Any) -> None:
        check((chain is not None) == (self.phase == DISPLACE), "chain: an object exactly in phase 'displace'")
        self._end_chain()
        if chain is None:
            return
        cells = [_cell(c) for c in chain["moved"]]
        self.chain_at = _cell(chain["at"])
        self.chain_owner = load_int(chain["component"], 0, self.n - 1, "chain.component")
        self.chain_moved = cells
        check(
            bool(cells) and len(set(cells)) == len(cells) and cells[-1] == self.chain_at,
            "chain.moved: distinct cells ending with chain.at",
        )
        check(all(self.cells[c] >= 0 for c in cells), "chain: moved components stand on their cells")
        check(
            bool(sb.displace_options(self.cells, self.chain_at, cells)),
            "chain: the displaced component must have a legal direction",
        )

    def _check_pieces(self, turned: int) -> None:
        n = self.n
        cells = self.cells
        dealt = _COMPONENTS * n
        if self.phase <= DEAL_FIGURES:  # the board is exactly what the turned cards made
            board = [-1] * sb.CELLS
            for k, card in enumerate(self.setup_cards[:dealt]):
                sb.setup_place(board, card // 2 + 1, k // _COMPONENTS)
            check(board == cells, "during set-up the components stand where the turned cards put them (SC7)")
            figures = [-1] * 6
            for j, card in enumerate(self.setup_cards[dealt:]):
                figures[j if j <= n else sb.GRAY_FIGURE] = card
            check(figures == self.figures, "during set-up the figures stand where the turned cards put them")
        else:
            in_play = (*range(n + 1), sb.GRAY_FIGURE)
            check(
                all((self.figures[f] >= 0) == (f in in_play) for f in range(6)),
                "figures: the seats', the neutral colour's and the gray figure stand on the inner ring, no other",
            )
        for seat in range(n):
            count = cells.count(seat) + (1 if self.chain_owner == seat else 0)
            check(count == min(_COMPONENTS, max(0, turned - _COMPONENTS * seat)), f"seat {seat}: seven components")
        self.inner = [cells[_INNER:].count(seat) for seat in range(n)]
        neutral = sum(self.energy) + sum(self.held) + sum(1 for d in self.hand if d < 6)
        check(neutral == sb.ENERGY_DISKS, "the nine energy disks are in cups, held, or in hand")
        for seat in range(n):
            mine = sum(self.private[6 * seat : 6 * seat + 6])
            if seat == self.player:
                mine += sum(1 for d in self.hand if d >= 6)
            check(mine == self.placed[seat], f"seat {seat}: private disks in cups and hand match private_placed")
            winner = self.phase == OVER and self.inner[seat] >= self.target
            # One private disk per arrival but the winning one, while the three last (SC9).
            arrivals = min(self.inner[seat] - winner, _PRIVATE_DISKS) - (self.private_seat == seat)
            check(self.placed[seat] == arrivals, f"seat {seat}: one private disk per arrival (SC9)")
            check(self.inner[seat] < self.target or winner, f"seat {seat} has cast the spell: the game is over")

    def _check_turn(self) -> None:
        phase = self.phase
        kind = self.kind
        hand = self.hand
        sections = [0, 0, 0]
        for disk in hand:
            sections[disk % 3] += 1
        check(all(u <= h for u, h in zip(self.uses, sections, strict=True)), "uses: at most the disks in hand")
        if kind == ACTION_A:
            check(all(d % 6 == self.take_cup for d in hand), "action a: every disk comes from its inside cup")
        elif kind == ACTION_B:
            check(all(d % 6 >= 3 for d in hand), "action b: every disk comes from an outside cup")
        else:
            check(not hand, "only actions a and b hold disks in hand")
        sources = self.sources
        if kind == ACTION_A:
            check(sources == 1 << self.take_cup, "action_sources: action a takes from its inside cup alone")
        elif kind == ACTION_B:
            check(sources != 0 and not sources & 0b111, "action_sources: action b takes from outside cups only")
        else:
            check(sources == 0, "action_sources: only actions a and b take disks to put back (SC11)")
        if phase == REPLACE:
            check(not _hand_cups(hand) & ~sources, "action_sources: every disk in hand came from one of them (SC11)")
        else:
            check(sources == _hand_cups(hand), "action_sources: the cups of the disks in hand, until they go back")
        if phase == OVER or phase <= DEAL_FIGURES:
            check(phase == OVER or (kind == NO_ACTION and not any(self.held)), "set-up: nobody acts yet")
            return
        if phase == RETURN:
            check(kind == NO_ACTION and self.held[self.player] > 0, "return held disks: the mover holds some")
        elif phase == TAKE:
            check(kind != ACTION_C or (self.held[self.player] == 1 and any(self.energy)), "action c takes two")
            check(kind == NO_ACTION or kind == ACTION_C or bool(hand), "actions a and b take a disk first")
            check(self.uses == sections, "phase 'take': one use waits for each disk in hand")
        else:
            check(kind in (ACTION_A, ACTION_B) and bool(hand), f"phase {_PHASE_NAMES[phase]!r} needs action a or b")
            check(phase != USE or any(self.uses), "phase 'use' needs a disk left to use")
            check(phase != REPLACE or not any(self.uses), "phase 'replace disks' has no use left")

    def _check_counters(self) -> None:
        """Turns, the mover, the held disks and the result fit each other (G4, G5, SC6, SC8, SC10)."""
        n = self.n
        phase = self.phase
        champions = [s for s in range(n) if self.inner[s] >= self.target]
        capped = phase == OVER and not champions
        cap = _ROUND_CAP * n
        check(
            self.turns == cap if capped else self.turns < cap, f"turns: the game ends exactly at the cap ({cap} turns)"
        )
        mover = (self.turns - capped) % n
        check(
            self.player == mover, f"player: turns go round from seat 0, so after {self.turns} turns seat {mover} acts"
        )
        if phase <= DEAL_FIGURES:
            check(self.turns == 0 and not self.recent, "set-up: no turn has been played")
            check(self.energy == list(sb.START_ENERGY), "set-up: the cups hold their starting energy disks (SC3)")
        if phase == OVER:
            best = max(self.inner)
            expected = tuple(champions) if champions else tuple(s for s in range(n) if self.inner[s] == best)
            check(len(champions) <= 1 and self.winners == expected, f"winners: the rules give {list(expected)}")
            check(
                self.kind in ((NO_ACTION,) if capped else (ACTION_A, ACTION_B)),
                "over: the cap ends a finished turn; a spell is cast during action a or b (SC8)",
            )
        for seat in range(n):
            if seat != self.player or phase == OVER:
                allowed: tuple[int, ...] = (0, 2)  # action c always finds two disks (SC10)
            elif phase == RETURN:
                allowed = (1, 2)
            elif phase == TAKE and self.kind == ACTION_C:
                allowed = (1,)
            else:
                allowed = (0,)
            check(self.held[seat] in allowed, f"held: seat {seat} holds {' or '.join(map(str, allowed))} disks now")


_DISK_TEXTS: tuple[str, ...] = tuple(("mine " if d >= 6 else "") + sb.CUP_NAMES[d % 6] for d in range(12))


def _turn_text(card: int, k: int, n: int) -> str:
    """Returns the record's text of the ``k``-th set-up card (G6): the card and what it places."""
    text = box.CARD_TEXT[card]
    if k < _COMPONENTS * n:
        return f"turns {text} for a component of seat {k // _COMPONENTS}"
    j = k - _COMPONENTS * n
    return f"turns {text} for the {sb.FIGURE_NAMES[j if j <= n else sb.GRAY_FIGURE]} figure"


@cython.locals(cups=cython.int, c=cython.int, names=list)
def _cup_names(cups: int) -> list[str]:
    """Returns the names of the cups in a bit set (bit ``c``: cup ``c``)."""
    names = []
    for c in range(6):
        if cups >> c & 1:
            names.append(_CUP_NAMES[c])
    return names


@cython.cfunc
@cython.locals(cells=list, start=cython.int, stop=cython.int, c=cython.int, seats=list)
def _seats(cells: list[int], start: int, stop: int) -> list[int | None]:
    """Returns the seats on cells ``start`` to ``stop`` (None where a cell is empty)."""
    seats = []
    for c in range(start, stop):
        seat = cells[c]
        seats.append(None if seat < 0 else seat)
    return seats


def _hand_cups(hand: list[int]) -> int:
    cups = 0
    for disk in hand:
        cups |= 1 << (disk % 6)
    return cups


def _load_sources(value: Any, hand: list[int]) -> int:
    """Reads ``action_sources``; left out, it is the hand's cups (as before any disk goes back)."""
    if value is None:
        return _hand_cups(hand)
    check(
        isinstance(value, list) and all(v in sb.CUP_NAMES for v in value) and len(set(value)) == len(value),
        "action_sources: a list of distinct cup names",
    )
    return sum(1 << sb.CUP_NAMES.index(v) for v in value)


_STONE_BY_TEXT = {box.inner_text(t): t for t in range(box.INNER_STONES)}


def _ints(values: Any, size: int, low: int, high: int, name: str) -> list[int]:
    check(isinstance(values, list) and len(values) == size, f"{name}: a list of {size} integers")
    return [load_int(v, low, high, name) for v in values]


def _cards(values: Any, name: str) -> list[int]:
    return load_cards(values, name, box.NUMBER_CARDS, "number cards (1d..30d, 1n..30n)")


def _stone(text: Any) -> int:
    check(text in _STONE_BY_TEXT, "an inner stone is written like '13 night' or '13 day'")
    return _STONE_BY_TEXT[text]


def _cell(text: Any) -> int:
    check(text in sb.CELL_BY_TEXT and sb.CELL_BY_TEXT[text] < _INNER, "a chain cell is written like 'coloured 13'")
    return sb.CELL_BY_TEXT[text]


def spell_target(settings: Mapping[str, Any]) -> int:
    """Returns the components on the inner ring that cast the spell (SC8): 3 in the short
    variant, else the ``components`` option (4 in the standard game)."""
    return _SHORT_TARGET if settings["variant"] == "short" else int(settings["components"])


class SpellCasting(Game):
    """Spell Casting for 3-4 players; option ``variant`` is ``standard`` (4 components) or ``short`` (3).

    Designer option (``docs/games/spell_casting.md``, "Designer options"): ``components``, 2..5,
    the components that cast the spell in the standard variant; the short variant is the
    seed's own name for 3 and takes no other count. At 4 it is not written in records.
    """

    info = GameInfo(
        id="spell_casting",
        name="Stonehenge Spell Casting Game",
        min_players=3,
        max_players=4,
        version="1.1.0",
        rule_text="Stonehenge Spell Casting Game, an abstract strategy game by Benjamin Parker (Stonehenge Anthology)",
        summary="convert energy to draw your spell components into the inner ring",
        options=(
            Option(
                "variant",
                ("standard", "short"),
                "standard",
                "short: the spell is cast with 3 components on the inner ring, not 4",
            ),
            Option(
                "components",
                TARGETS,
                _TARGET,
                "the components on the inner ring that cast the spell (SC8: 4 of 7); standard variant only",
                recorded_at_default=False,
            ),
        ),
        round_cap=_ROUND_CAP,
        hidden_information=False,
    )
    state_class = SpellCastingState
    player_action_texts = sb.PLAYER_TEXTS
    chance_action_texts = sb.CHANCE_TEXTS

    def __init__(self, players: int, **options: Any) -> None:
        super().__init__(players, **options)
        if self.settings["variant"] == "short" and self.settings["components"] != _TARGET:
            raise ValueError(
                "spell_casting: the short variant casts the spell with 3 components; "
                "to try another count, set option components in the standard variant"
            )

    def max_game_length(self) -> int:
        n = self.num_players
        # Set-up: 8n + 2 cards. A turn: at most 2 held disks back, 12 takes (9 neutral and 3 own
        # private disks) and done, per disk one use, a chain of at most 7n - 1 pushes and one
        # private disk, then done and 12 replacements.
        disks = sb.ENERGY_DISKS + _PRIVATE_DISKS
        turn = 2 + disks + 1 + disks * (1 + _COMPONENTS * n + 1) + 1 + disks
        return 8 * n + 2 + _ROUND_CAP * n * turn
