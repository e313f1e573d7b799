"""Stonehenge Spell Casting: a rule-based player.

The player works on a small model of the board (the four rings as cells, the
figures' stones) rebuilt from its observation, and scores a board by each
seat's *progress*: a component is worth more the further in it stands (outer
0, coloured 1, middle 2.2, inner 7), and a little more where a figure its
owner may use (its own, the neutral or the gray figure) stands on its number,
ready to pull it in. It wants its own progress up and the leading rival's
down.

* Its turn: it tries, on the model, every inside cup (action a: the disks
  there move components of that section left or right, pushing others in or
  out) and the outside cups together (action b: figures move onto its
  components' numbers and pull them in), spending each disk greedily on the
  use that gains most; it plays the best of these if it gains at least
  ``_WORTH_ACTING``, and otherwise holds two disks (action c) from the cups
  that would serve the next player best.
* Each disk in hand goes on the use that gains most now; a displaced
  component goes in if it is its own, out if it is a rival's (whichever the
  model scores best).
* Disks going back go where they help it most and its rivals least; its
  private disks and held disks (which it will use itself) where they help it
  most.
* Past round ``_PATIENCE`` it grows restless: ``_RESTLESS`` of its decisions
  are a legal action drawn from ``decision.rng``. Played deterministically, the
  rule-based players can come back to a position they were in and then repeat
  the same turns until the round cap; the draws break such a cycle. Games that
  end sooner are played exactly as without them.
"""

from __future__ import annotations

import math
from bisect import insort
from functools import cache
from typing import Any

import cython

from henge.core import Decision
from henge.games.spell_casting import board as sb
from henge.games.spell_casting.search import ALIGNED, RING_WORTH, cells, stone, usable

if cython.compiled:  # the list insertion list.insert makes, called in C
    from cython.cimports.cpython.list import PyList_Insert

GAMES = ("spell_casting",)
"""The games whose rules this player was written for."""
OPTIONS: tuple[str, ...] = ()
"""The options it understands: none. It never reads how many components cast the spell (``variant``,
``components``): it weighs every component on the board alike, as for the standard four."""

_RINGS = ("outer", "coloured", "middle")
_CUPS = ("in1", "in2", "in3", "out1", "out2", "out3")
_INNER = cython.declare(cython.int, 90)
_RIVAL = 0.7
"""How much the leading rival's progress counts against ours."""
_RIVALS_ALL = 0.15
"""How much every rival's progress counts against ours."""
_WORTH_ACTING = 0.25
"""Below this model gain an action a or b is not worth it: hold two disks instead (action c)."""
_PATIENCE = 50
"""Rounds after which the player grows restless. Played deterministically, games of rule-based
players at every seat ended by round 40 or never: 28 of 400 at 3 players (seeds 0-399) and 2 of
200 at 4 came back to a position seen before and repeated the same turns until the round cap."""
_RESTLESS = 0.3
"""The share of a restless player's decisions that are a legal action drawn from ``decision.rng``."""
_DIRECTIONS = ("left", "right", "out", "in", "in night", "in day")
_CHAIN_DEPTH = cython.declare(cython.int, 3)
_TEXTS: tuple[str, ...] = sb.PLAYER_TEXTS
"""The uses are written as the game writes its actions (the same strings each time)."""
_FIGURE_INDEX = {name: f for f, name in enumerate(sb.FIGURE_NAMES)}

# The weights as C numbers where compiled: the same values, and the same sums and products, term by term.
_INNER_WORTH = cython.declare(cython.double, RING_WORTH[3])
_ALIGNED = cython.declare(cython.double, ALIGNED)
_RIVAL_WEIGHT = cython.declare(cython.double, _RIVAL)
_RIVALS_ALL_WEIGHT = cython.declare(cython.double, _RIVALS_ALL)


@cython.final
@cython.cclass
class _Board:
    """The model: components by cell (seat or -1), figures' stones by name, the players' colours.

    Each seat's progress is kept with the board and worked out again only
    for the seats a move touched (``stale``, a bit per seat), from the cells
    that seat holds (``where``, in order): the same sum, term by term, as a
    pass over every cell, for a fraction of the work. ``aligned`` holds, per
    seat, the numbers where the figures it may use stand (bit ``m`` for
    number ``m + 1``). A copy shares ``figures``, ``aligned`` and ``prog``
    until they change (each is replaced then, never changed in place).

    A trial move is played on the board itself and taken back: ``log`` holds
    every change of a cell since the board was made or copied (cell, old
    owner, new owner, a triple of ints), and :meth:`_undo` takes the newest
    back down to a mark.
    """

    cells = cython.declare(list, visibility="readonly")
    figures = cython.declare(dict, visibility="readonly")
    n = cython.declare(cython.int, visibility="readonly")
    usable = cython.declare(list, visibility="readonly")
    where = cython.declare(list, visibility="readonly")
    aligned = cython.declare(list, visibility="readonly")
    prog = cython.declare(list, visibility="readonly")
    stale = cython.declare(cython.int, visibility="readonly")
    log = cython.declare(list, visibility="readonly")

    def __init__(self, obs: dict[str, Any]) -> None:
        self.cells = cells(obs)
        self.figures = {k: stone(v) for k, v in obs["figures"].items() if v is not None}
        self.n = obs["players"]
        self.usable = usable(obs)
        self.where = [[] for _ in range(self.n)]
        for c, s in enumerate(self.cells):
            if s >= 0:
                self.where[s].append(c)
        self.aligned = [_aligned(self.figures, self.usable[s]) for s in range(self.n)]
        self.prog = [0.0] * self.n
        self.stale = (1 << self.n) - 1
        self.log = []

    @cython.ccall
    @cython.annotation_typing(True)
    def copy(self) -> _Board:
        new: _Board = _Board.__new__(_Board)
        new.cells = self.cells[:]
        new.figures = self.figures
        new.n = self.n
        new.usable = self.usable
        new.where = [w[:] for w in self.where]
        new.aligned = self.aligned
        new.prog = self.prog
        new.stale = self.stale
        new.log = []
        return new

    @cython.cfunc
    @cython.locals(c=cython.int, owner=cython.int, old=cython.int, cells=list)
    def _put(self, c: int, owner: int) -> None:
        """Puts ``owner``'s component (or nothing, -1) on cell ``c``, in the log."""
        old = self.cells[c]
        if old == owner:
            return
        log = self.log
        log.append(c)
        log.append(old)
        log.append(owner)
        self._set(c, old, owner)

    @cython.cfunc
    @cython.locals(c=cython.int, old=cython.int, owner=cython.int, cells=list)
    def _set(self, c: int, old: int, owner: int) -> None:
        """Puts ``owner``'s component (or nothing) on cell ``c`` in place of ``old``'s, not logged."""
        cells = self.cells
        if old >= 0:
            if cython.compiled:
                _discard(self.where[old], c)
            else:  # the same, without a call more
                self.where[old].remove(c)
            self.stale |= 1 << old
        cells[c] = owner
        if owner >= 0:
            if cython.compiled:
                _insort(self.where[owner], c)
            else:
                insort(self.where[owner], c)
            self.stale |= 1 << owner

    @cython.cfunc
    @cython.locals(mark=cython.int, c=cython.int, old=cython.int, owner=cython.int, log=list)
    def _undo(self, mark: int) -> None:
        """Takes back the changes of cells logged since ``mark`` (a length of the log), newest first."""
        log = self.log
        while len(log) > mark:
            owner = log.pop()
            old = log.pop()
            c = log.pop()
            self._set(c, owner, old)

    @cython.cfunc
    @cython.locals(i=cython.int, changes=list)
    def _redo(self, changes: list[int]) -> None:
        """Makes again the changes of cells ``changes`` (a slice of the log), oldest first."""
        for i in range(0, len(changes), 3):
            self._put(changes[i], changes[i + 2])

    @cython.ccall
    @cython.locals(
        stale=cython.int,
        s=cython.int,
        c=cython.int,
        aligned=cython.long,
        total=cython.double,
        ring=cython.double,
        worth=tuple,
        prog=list,
        held=list,
    )
    def progress(self) -> list[float]:
        """Returns each seat's progress on this board (the board's own list: do not change it)."""
        stale = self.stale
        if stale:
            prog = self.prog[:]  # copies may share the old list
            worth = RING_WORTH
            for s in range(self.n):
                if stale >> s & 1:
                    aligned = self.aligned[s]
                    held = self.where[s]
                    total = 0.0
                    for c in held:  # in cell order, as a pass over the cells adds them
                        if c < _INNER:
                            ring = worth[c // 30]
                            total += ring + (_ALIGNED if aligned >> (c % 30) & 1 else 0.0)
                        else:
                            total += _INNER_WORTH
                    prog[s] = total
            self.prog = prog
            self.stale = 0
        return self.prog

    @cython.ccall
    @cython.returns(cython.double)
    @cython.locals(
        seat=cython.int, s=cython.int, p=cython.double, mine=cython.double, top=cython.double, total=cython.double
    )
    def score(self, seat: int) -> float:
        """Returns how good the board is for ``seat``: its progress less the rivals'."""
        prog = self.progress()
        mine = prog[seat]
        top = -math.inf  # the leading rival's, as max() finds it
        total = 0.0  # every rival's, added in seat order as sum() adds them
        for s in range(self.n):
            if s != seat:
                p = prog[s]
                if p > top:
                    top = p
                total += p
        return mine - _RIVAL_WEIGHT * top - _RIVALS_ALL_WEIGHT * total

    # -- moves on the model ---------------------------------------------------

    @cython.cfunc
    @cython.locals(source=cython.int, target=cython.int, seat=cython.int, owner=cython.int, occupant=cython.int)
    def shift(self, source: int, target: int, seat: int) -> None:
        """Moves the component on ``source`` to ``target``; a displaced one goes where ``seat`` likes best."""
        owner = self.cells[source]
        self._put(source, -1)
        occupant = self.cells[target]
        self._put(target, owner)
        if occupant >= 0 and target < _INNER:
            self._settle(target, occupant, [target], seat, _CHAIN_DEPTH)

    @cython.cfunc
    @cython.locals(
        at=cython.int,
        owner=cython.int,
        moved=list,
        seat=cython.int,
        depth=cython.int,
        direction=cython.int,
        target=cython.int,
        c=cython.int,
        mark=cython.int,
        stale=cython.int,
        best=list,
        best_score=cython.double,
        value=cython.double,
    )
    def _settle(self, at: int, owner: int, moved: list[int], seat: int, depth: int) -> None:
        mark = len(self.log)
        prog = self.prog
        stale = self.stale
        best: list[int] | None = None
        best_prog = prog
        best_score = -math.inf
        for direction in range(6):
            target = _displace_target(at, direction)
            if target < 0 or target in moved or (target >= _INNER and self.cells[target] >= 0):
                continue
            self.push(at, target, owner, moved, seat, depth)  # tried, then taken back
            value = self.score(seat)
            if value > best_score:
                best, best_prog, best_score = self.log[mark:], self.prog, value
            self._undo(mark)
            self.prog = prog
            self.stale = stale
        if best is None:  # no way: slide clockwise to the first free space
            c = _right(at)
            while self.cells[c] >= 0:
                c = _right(c)
            self._put(c, owner)
            return
        self._redo(best)
        self.prog = best_prog  # as the trial's score left it
        self.stale = 0

    @cython.cfunc
    @cython.locals(
        at=cython.int,
        target=cython.int,
        owner=cython.int,
        moved=list,
        seat=cython.int,
        depth=cython.int,
        occupant=cython.int,
        c=cython.int,
    )
    def push(self, at: int, target: int, owner: int, moved: list[int], seat: int, depth: int) -> None:
        """One push of a chain: ``owner``'s component, pushed off ``at``, enters ``target``."""
        occupant = self.cells[target]
        self._put(target, owner)
        if occupant < 0:
            return
        if depth <= 0:  # far enough: let it slide to the nearest free space
            c = _right(target)
            while self.cells[c] >= 0:
                c = _right(c)
            self._put(c, occupant)
            return
        self._settle(target, occupant, [*moved, target], seat, depth - 1)

    @cython.ccall
    @cython.locals(seat=cython.int, s=cython.int, aligned=list, figures=dict)
    def apply_use(self, text: str, seat: int) -> bool:
        """Plays a use (``move``, ``figure``, ``pull``, ``push``) on the model; False if it is not one."""
        use = _parse_use(text)
        if use is None:
            return False
        kind, a, b = use
        if kind == "figure":
            assert isinstance(a, str)
            figures = dict(self.figures)  # the copies made before this move keep theirs
            figures[a] = (figures[a] + b) % 60
            self.figures = figures
            aligned = self.aligned[:]
            for s in range(self.n):
                usable = self.usable[s]
                if a in usable:
                    now = _aligned(figures, usable)
                    if now != aligned[s]:
                        aligned[s] = now
                        self.stale |= 1 << s
            self.aligned = aligned
        else:
            assert isinstance(a, int)
            self.shift(a, b, seat)
        return True

    # -- the uses a disk allows (the rules, as a player knows them) ------------

    def uses_a(self, section: int) -> list[str]:
        """Returns the uses of a disk of the inside cup of ``section`` (0..2)."""
        found = []
        for ring in range(3):
            for c in range(30 * ring + 10 * section, 30 * ring + 10 * section + 10):
                if self.cells[c] >= 0:
                    found.append(_TEXTS[sb.MOVE + 2 * c])  # move <ring> <number> left
                    found.append(_TEXTS[sb.MOVE + 2 * c + 1])  # ... right
        return found

    def uses_b(self, seat: int, sections: list[int]) -> list[str]:
        """Returns the uses of outside-cup disks for ``seat`` while ``sections`` (per section) are left."""
        found: list[str] = []
        cells = self.cells
        for figure in self.usable[seat]:
            stone = self.figures.get(figure)
            if stone is None or not sections[stone // 20]:
                continue
            base = sb.FIGURE + 6 * _FIGURE_INDEX[figure]
            found += _TEXTS[base : base + 6]  # figure <name> 1 left, 1 right, 5 left, ..., 20 right
            m = stone // 2
            if cells[m] >= 0:
                found.append(_TEXTS[sb.PULL + m])  # pull outer <number>
            if cells[30 + m] >= 0:
                found.append(_TEXTS[sb.PULL + 30 + m])  # pull coloured <number>
                found.append(_TEXTS[sb.PUSH + m])  # push coloured <number>
            if cells[60 + m] >= 0:
                found.append(_TEXTS[sb.PUSH + 30 + m])  # push middle <number>
                if cells[_INNER + stone] < 0:
                    found.append(_TEXTS[sb.PULL_INNER + stone])  # pull middle <number> <night|day>
        return found


@cython.cfunc
@cython.locals(held=list, c=cython.int, i=cython.Py_ssize_t, n=cython.Py_ssize_t, x=cython.int)
def _discard(held: list[int], c: int) -> None:
    """Takes cell ``c`` out of the sorted cells ``held`` (where it stands once), as ``held.remove(c)`` does."""
    if cython.compiled:
        n = len(held)
        for i in range(n):
            x = held[i]
            if x == c:
                del held[i]
                return
        raise ValueError("list.remove(x): x not in list")
    else:
        held.remove(c)


@cython.cfunc
@cython.locals(held=list, c=cython.int, lo=cython.Py_ssize_t, hi=cython.Py_ssize_t, mid=cython.Py_ssize_t, x=cython.int)
def _insort(held: list[int], c: int) -> None:
    """Puts cell ``c`` into the sorted cells ``held`` where it belongs, as ``insort(held, c)`` does."""
    if cython.compiled:
        lo = 0
        hi = len(held)
        while lo < hi:
            mid = (lo + hi) // 2
            x = held[mid]
            if c < x:
                hi = mid
            else:
                lo = mid + 1
        PyList_Insert(held, lo, c)
    else:
        insort(held, c)


@cache
def _parse_use(text: str) -> tuple[str, str | int, int] | None:
    """Returns a use as ``("shift", source, target)`` or ``("figure", name, step)``, or None if it is not one."""
    words = text.split()
    verb = words[0]
    if verb == "move":
        c = 30 * _RINGS.index(words[1]) + int(words[2]) - 1
        return "shift", c, _right(c) if words[3] == "right" else _left(c)
    if verb == "figure":
        return "figure", words[1], int(words[2]) * (1 if words[3] == "right" else -1)
    if verb == "pull" and words[1] == "middle":
        stone = 2 * (int(words[2]) - 1) + (1 if words[3] == "day" else 0)
        return "shift", 60 + int(words[2]) - 1, _INNER + stone
    if verb == "pull":
        c = 30 * _RINGS.index(words[1]) + int(words[2]) - 1
        return "shift", c, c + 30
    if verb == "push":
        c = 30 * _RINGS.index(words[1]) + int(words[2]) - 1
        return "shift", c, c - 30
    return None


def _aligned(figures: dict[str, int], names: tuple[str, ...]) -> int:
    """Returns the numbers where the figures ``names`` stand, as bits: bit ``m`` for number ``m + 1``."""
    bits = 0
    for name in names:
        if name in figures:
            bits |= 1 << figures[name] // 2
    return bits


@cython.cfunc
@cython.returns(cython.int)
@cython.exceptval(check=False)
@cython.locals(c=cython.int)
def _left(c: int) -> int:
    return 30 * (c // 30) + (c - 1) % 30


@cython.cfunc
@cython.returns(cython.int)
@cython.exceptval(check=False)
@cython.locals(c=cython.int)
def _right(c: int) -> int:
    return 30 * (c // 30) + (c + 1) % 30


@cython.cfunc
@cython.returns(cython.int)
@cython.exceptval(check=False)
@cython.locals(at=cython.int, direction=cython.int, ring=cython.int)
def _displace_target(at: int, direction: int) -> int:
    ring = at // 30
    if direction == 0:
        return _left(at)
    if direction == 1:
        return _right(at)
    if direction == 2:
        return at - 30 if ring > 0 else -1
    if direction == 3:
        return at + 30 if ring < 2 else -1
    if ring != 2:
        return -1
    return _INNER + 2 * (at - 60) + (1 if direction == 5 else 0)


def _use_section(text: str, board: _Board) -> int:
    """Returns the section (0..2) whose disk a use spends."""
    words = text.split()
    if words[0] == "figure":
        return board.figures[words[1]] // 20
    return (int(words[2]) - 1) // 10


@cython.cfunc
@cython.locals(
    board=_Board, mark=cython.int, stale=cython.int, base=cython.double, gain=cython.double, top=cython.double
)
def _best_use(board: _Board, seat: int, uses: list[str]) -> tuple[float, str | None, _Board | None]:
    """Returns the gain, the use and the board after it, for the use of ``uses`` that gains most.

    Each use is tried on ``board`` and taken back: ``board`` is left as it was."""
    base = board.score(seat)
    best: tuple[float, str | None, _Board | None] = (0.0, None, None)
    top = 0.0
    mark = len(board.log)
    figures = board.figures
    aligned = board.aligned
    prog = board.prog
    stale = board.stale
    for text in uses:
        board.apply_use(text, seat)
        gain = board.score(seat) - base
        if gain > top + 1e-9:
            best = (gain, text, board.copy())
            top = gain
        board._undo(mark)
        board.figures = figures
        board.aligned = aligned
        board.prog = prog
        board.stale = stale
    return best


def _plan(board: _Board, seat: int, cup: int, disks: int) -> float:
    """Returns the gain of spending ``disks`` disks of inside cup ``cup`` greedily (action a)."""
    total = 0.0
    for _ in range(disks):
        gain, _text, after = _best_use(board, seat, board.uses_a(cup))
        if after is None:
            break
        total += gain
        board = after
    return total


def _plan_b(board: _Board, seat: int, sections: list[int]) -> float:
    """Returns the gain of spending outside-cup disks (``sections``: disks per section) greedily (action b)."""
    sections = sections[:]
    total = 0.0
    while any(sections):
        uses = board.uses_b(seat, sections)
        gain, text, after = _best_use(board, seat, uses)
        if after is None or text is None:
            break
        sections[_use_section(text, board)] -= 1
        total += gain
        board = after
    return total


def _cup_disks(obs: dict[str, Any], seat: int) -> list[int]:
    """Returns the disks ``seat`` could take from each cup: energy disks and its own private ones."""
    return [obs["cups"][c]["energy"] + obs["cups"][c]["private"][seat] for c in _CUPS]


def _single_gain(board: _Board, seat: int, cup: int) -> float:
    """Returns what one more disk in ``cup`` would let ``seat`` gain at once."""
    if cup < 3:
        return _best_use(board, seat, board.uses_a(cup))[0]
    sections = [0, 0, 0]
    sections[cup - 3] = 1
    return _best_use(board, seat, board.uses_b(seat, sections))[0]


_READ = ("phase", "players", "colours", "neutral_colour", "rings", "figures", "action", "cups", "chain", "hand")
"""What of the observation ``choose`` reads (besides ``turn_player``): its answer depends on these alone."""
_ANSWERS: dict[str, int] = {}
"""Answers already given, by everything they depend on: a search asks the same question again and again."""
_ANSWERS_KEPT = 4096


def choose(decision: Decision) -> int:
    """Returns the rule-based player's action (remembered: the same question gets the answer it got),
    or past its patience now and then one drawn at random."""
    obs = decision.observation
    if obs["round"] > _PATIENCE and decision.rng.random() < _RESTLESS:
        return decision.rng.choice(decision.legal_actions)
    key = repr(
        (decision.seat, obs["turn_player"], [obs[k] for k in _READ], decision.legal_actions, decision.legal_texts)
    )
    action = _ANSWERS.get(key)
    if action is None:
        if len(_ANSWERS) >= _ANSWERS_KEPT:
            _ANSWERS.clear()
        action = _ANSWERS[key] = _choose(decision)
    return action


def _choose(decision: Decision) -> int:
    obs = decision.observation
    options = decision.by_text()
    phase = obs["phase"]
    seat = decision.seat
    board = _Board(obs)
    if phase == "take":
        return _choose_take(obs, options, board, seat)
    if phase == "use":
        uses = [t for t in options if t != "done"]
        _gain, text, _after = _best_use(board, seat, uses)
        return options[text if text is not None else "done"]
    if phase == "displace":
        return _choose_displace(obs, options, board, seat)
    # place a disk: held disks back and the private disk are ours to use; others go where rivals gain least
    mine_only = phase in ("return held disks", "place private disk") or (
        phase == "replace disks" and obs["hand"] and obs["hand"][0].startswith("mine")
    )
    nxt = (obs["turn_player"] + 1) % obs["players"]
    best_text = None
    best_value = -math.inf
    for text in options:
        cup = _CUPS.index(text.split()[1])
        value = _single_gain(board, seat, cup)
        if not mine_only and seat != nxt:
            value -= 1.2 * _single_gain(board, nxt, cup)
        value += 0.01 * (cup < 3)  # ties: inside cups, which move components
        if value > best_value:
            best_text, best_value = text, value
    assert best_text is not None
    return options[best_text]


def _choose_take(obs: dict[str, Any], options: dict[str, int], board: _Board, seat: int) -> int:
    action = obs["action"]
    if action in ("a", "b"):  # take every disk the action may use, then done
        takes = [t for t in options if t.startswith("take")]
        return options[takes[0]] if takes else options["done"]
    nxt = (seat + 1) % obs["players"]
    if action == "c":
        return options[_hold_cup(options, board, nxt)]
    disks = _cup_disks(obs, seat)
    plans: list[tuple[float, str]] = []
    for cup in range(3):
        if disks[cup]:
            plans.append((_plan(board.copy(), seat, cup, disks[cup]), _CUPS[cup]))
    outside = disks[3:]
    if any(outside):
        first = next(c for c in range(3, 6) if disks[c])
        plans.append((_plan_b(board.copy(), seat, outside), _CUPS[first]))
    if plans:
        gain, cup_name = max(plans)
        if gain >= _WORTH_ACTING:
            for text in (f"take {cup_name}", f"take mine {cup_name}"):
                if text in options:
                    return options[text]
    holds = [t for t in options if t.startswith("hold")]
    if holds:
        return options[_hold_cup(options, board, nxt)]
    takes = [t for t in options if t.startswith("take")]
    return options[takes[0] if takes else next(iter(options))]


def _hold_cup(options: dict[str, int], board: _Board, rival: int) -> str:
    """Returns the ``hold X`` text whose disk the next player would use best."""
    holds = [t for t in options if t.startswith("hold")]
    return max(holds, key=lambda t: (_single_gain(board, rival, _CUPS.index(t.split()[1])), t))


@cython.locals(board=_Board, trial=_Board)
def _choose_displace(obs: dict[str, Any], options: dict[str, int], board: _Board, seat: int) -> int:
    chain = obs["chain"]
    words = chain["from"].split()
    at = 30 * _RINGS.index(words[0]) + int(words[1]) - 1
    owner = chain["component"]
    moved = [30 * _RINGS.index(w.split()[0]) + int(w.split()[1]) - 1 for w in chain["moved"]]
    best_text = None
    best_value = -math.inf
    for text, _action in sorted(options.items(), key=lambda item: item[1]):
        direction = _DIRECTIONS.index(text[len("displace ") :])
        trial = board.copy()
        trial.push(at, _displace_target(at, direction), owner, moved, seat, _CHAIN_DEPTH)
        value = trial.score(seat)
        if value > best_value + 1e-9:
            best_text, best_value = text, value
    assert best_text is not None
    return options[best_text]
