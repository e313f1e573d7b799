"""A search that knows nothing of a game but its rules: ``rules-search``.

It plays from the seat's :class:`~henge.core.Decision` alone and reads a game only through the
State API: the legal actions, ``apply_action``, ``decision.sample_state`` (full states consistent
with what the seat knows), the returns, and the reading of progress that the rules define beside
the rules (:meth:`State.progress <henge.core.State.progress>`: scores, how far each seat's piece
has come; facts of the state, never advice). It carries no copy of any rule and asks no
rule-based player, so a change written into a game's rules changes its play at once.

The search is single-observer information-set MCTS (Cowling et al. 2012) over the seat's
samples, as in ``ismcts`` (:mod:`henge.agents.ismcts`), with what stands in for a game's own
knowledge there made general:

* **Determinizations.** The first ``worlds`` iterations each draw a sample; later iterations take
  those in turn (a copy instead of a draw).
* **Selection** is UCB1 on the values of the seat that moves along each edge, with availability
  counts (an edge's exploration term counts how often it was legal when its parent was reached).
  Chance nodes are sampled as the walk passes them, never stored.
* **Expansion** adds one untried legal edge per iteration, the one with the best move average
  (MAST, below; an action never played counts as the best) first, ties broken at random.
* **Cut-off playouts.** From the new edge the playout goes on for ``depth`` decisions with a choice
  (the seats' choices: with probability ``mast`` uniform, else the action with the best move
  average; chance sampled), then reads ``progress()``. A game whose rules define no progress is
  played out to the end. Where the game is over the returns are read (``progress`` gives them).
* **Value.** Each seat's value is its lead over the best of the others, ``(1 + p_seat -
  max(p_other)) / 2`` in [0, 1]: a shared win is 1/2, a win 1, a loss 0, and a cut-off position
  counts what the rules count so far. The tree backs up each value less the determinization's own
  at the root (who holds what moves every action's value alike); the move averages keep the values.
* **Move averages (MAST, Finnsson and Björnsson 2008).** Every (seat, action) played in an
  iteration, in the tree and in the playout, adds the iteration's value for that seat to the
  action's average; the playouts and the expansion order read them. They are the search's own
  statistics of this decision, kept with the tree.
* **Reuse.** When the seat decides again at once (the steps of one turn), the subtree below its
  action, its worlds (that action applied, those still fitting what the seat sees) and its move
  averages are kept.

The action played is the root edge visited most (ties: the larger total, then the smaller id).
Settings (``rules-search:iterations=200:depth=8``): ``iterations`` per decision, ``seconds`` a cap
in processor seconds (a guard: while it does not bite, a choice depends only on the seeds),
``c`` the UCT constant, ``depth`` the playout's decisions before the cut-off (``none``: to the end),
``worlds`` the determinizations, ``mast`` the playouts' share of uniform choices, ``reuse`` 1 or 0.
``docs/agents.md`` has the decision times (``henge bench --bots``) and the standings.
"""

from __future__ import annotations

import contextlib
import gc
import math
import random
import time
from collections.abc import Iterator

from henge.core import CHANCE, TERMINAL, Decision, State, sample_chance

DEFAULT_ITERATIONS = 1000
DEFAULT_SECONDS = 0.4
DEFAULT_EXPLORATION = 0.5
DEFAULT_DEPTH = 8
DEFAULT_WORLDS = 24
DEFAULT_MAST = 0.3
_UNSEEN = 1.0
"""The move average of an action not yet played: the best there is, so that each is tried."""
_LONGEST = 1_000_000
"""Decisions at most in a playout to the end (a guard: the games' round caps end them far sooner)."""


class _Node:
    """An edge and the node it leads to; its statistics are those of ``mover``."""

    __slots__ = ("available", "children", "mover", "total", "visits")

    def __init__(self, mover: int) -> None:
        self.mover = mover
        self.visits = 0
        self.total = 0.0
        self.available = 1
        self.children: dict[int, _Node] = {}


class _Search:
    """The tree of one information set of ``seat``, its worlds and its move averages."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.root = _Node(-1)
        self.worlds: list[State] = []
        self.turn = 0
        self.mast: dict[int, list[float]] = {}
        """Per ``action * players + seat``: [total value, count]."""

    def fits(self, decision: Decision) -> bool:
        """Keeps the worlds that still fit what the seat sees; True if any is left."""
        if decision.seat != self.seat:
            return False
        self.worlds = [
            w
            for w in self.worlds
            if w.legal_actions() == decision.legal_actions and w.observation(self.seat) == decision.observation
        ]
        return bool(self.worlds)

    def after(self, action: int, players: int) -> _Search | None:
        """The subtree below the seat's own ``action`` if the seat decides again at once in every world."""
        child = self.root.children.get(action * players + self.seat)
        if child is None:
            return None
        worlds = []
        for world in self.worlds:
            if action not in world.legal_actions():
                continue
            state = world.clone()
            state.apply_action(action)
            if state.current_player() != self.seat:
                return None
            worlds.append(state)
        kept = _Search(self.seat)
        kept.root = child
        kept.worlds = worlds
        kept.mast = self.mast
        return kept


def standing(state: State) -> list[float]:
    """Returns each seat's value in [0, 1]: its lead by the rules' progress (or the returns, once
    over) over the best of the others, ``(1 + own - best other) / 2``. None-safe callers only: the
    game must define progress here or be over."""
    reading = state.progress()
    if reading is None:
        info = state.game.info
        low = info.min_utility
        span = info.max_utility - low or 1.0
        reading = [(r - low) / span for r in state.returns()]
    if len(reading) == 1:
        return [reading[0]]
    out = []
    for seat, own in enumerate(reading):
        best = max(v for other, v in enumerate(reading) if other != seat)
        out.append((1.0 + own - best) / 2.0)
    return out


class RulesSearchAgent:
    """Information-set MCTS that reads a game through the State API and its progress alone (see the module)."""

    needs_samples = True

    def __init__(
        self,
        *,
        name: str = "rules-search",
        iterations: int | None = DEFAULT_ITERATIONS,
        seconds: float | None = DEFAULT_SECONDS,
        exploration: float = DEFAULT_EXPLORATION,
        depth: int | None = DEFAULT_DEPTH,
        worlds: int = DEFAULT_WORLDS,
        mast: float = DEFAULT_MAST,
        reuse: bool = True,
    ) -> None:
        for setting, value in (("c", exploration), ("worlds", worlds), ("mast", mast), ("reuse", reuse)):
            if value is None:
                raise ValueError(f"rules-search: setting {setting} must be a number, not none")
        if iterations is None and seconds is None:
            raise ValueError("rules-search needs a budget: iterations, seconds or both")
        if iterations is not None and iterations < 1:
            raise ValueError(f"rules-search: iterations must be at least 1, not {iterations}")
        if seconds is not None and seconds <= 0:
            raise ValueError(f"rules-search: seconds must be positive, not {seconds}")
        if exploration < 0:
            raise ValueError(f"rules-search: the exploration constant must not be negative, not {exploration}")
        if depth is not None and depth < 0:
            raise ValueError(f"rules-search: depth must not be negative, not {depth}")
        if worlds < 1:
            raise ValueError(f"rules-search: worlds must be at least 1, not {worlds}")
        if not 0.0 <= mast <= 1.0:
            raise ValueError(f"rules-search: mast is a share of uniform choices in [0, 1], not {mast}")
        self.name = name
        self.iterations = iterations
        self.seconds = seconds
        self.exploration = exploration
        self.depth = depth
        self.worlds = worlds
        self.mast = mast
        self.reuse = reuse
        self.last_iterations = 0
        """Iterations run for the last decision with a choice."""
        self._kept: _Search | None = None

    def choose(self, decision: Decision) -> int:
        """Returns the root action visited most (the only one, at once, if there is one)."""
        legal = decision.legal_actions
        if len(legal) == 1:
            self._kept = None
            return legal[0]
        kept = self._kept
        tree = kept if kept is not None and kept.fits(decision) else _Search(decision.seat)
        deadline = None if self.seconds is None else time.process_time() + self.seconds
        limit = self.iterations
        if limit is not None and tree.root.visits:
            limit = max(limit - tree.root.visits, (limit + 3) // 4)
        with _no_cycle_collection():
            self.last_iterations = self._grow(tree, decision, limit, deadline)
        action, players = self._best(tree, legal)
        self._kept = tree.after(action, players) if self.reuse else None
        return action

    def _best(self, tree: _Search, legal: list[int]) -> tuple[int, int]:
        players = tree.worlds[0].game.num_players
        seat = tree.seat
        children = tree.root.children
        best = legal[0]
        best_key: tuple[int, float, int] | None = None
        for action in legal:
            child = children.get(action * players + seat)
            key = (0, 0.0, -action) if child is None else (child.visits, child.total, -action)
            if best_key is None or key > best_key:
                best, best_key = action, key
        return best, players

    def _grow(self, tree: _Search, decision: Decision, limit: int | None, deadline: float | None) -> int:
        rng = decision.rng
        c = self.exploration
        keep = self.worlds
        mast = tree.mast
        uniform = self.mast
        done = 0
        while limit is None or done < limit:
            if deadline is not None and done and time.process_time() >= deadline:
                break
            if len(tree.worlds) >= keep:
                state = tree.worlds[tree.turn % len(tree.worlds)].clone()
            else:
                state = decision.sample_state(rng)
                tree.worlds.append(state.clone())
            tree.turn += 1
            players = state.game.num_players
            baseline = standing(state) if state.progress() is not None else None
            node = tree.root
            path: list[_Node] = []
            played: list[int] = []
            # Selection and expansion.
            while True:
                player = state.current_player()
                if player < 0:
                    if player == TERMINAL:
                        break
                    state.apply_action(sample_chance(state, rng))
                    continue
                legal = state.legal_actions()
                children = node.children
                untried: list[int] = []
                for action in legal:
                    child = children.get(action * players + player)
                    if child is None:
                        untried.append(action)
                    else:
                        child.available += 1
                if untried:
                    action = _by_average(untried, mast, players, player, rng)
                    key = action * players + player
                    child = children[key] = _Node(player)
                    state.apply_action(action)
                    path.append(child)
                    played.append(key)
                    break
                best = node
                best_score = -math.inf
                best_key = 0
                for action in legal:
                    key = action * players + player
                    child = children[key]
                    score = child.total / child.visits + c * math.sqrt(math.log(child.available) / child.visits)
                    if score > best_score:
                        best, best_score, best_key = child, score, key
                state.apply_action(best_key // players)
                path.append(best)
                played.append(best_key)
                node = best
            reached = self._playout(state, rng, mast, uniform, played)
            values = reached if baseline is None else [v - b for v, b in zip(reached, baseline, strict=True)]
            for child in path:
                child.visits += 1
                child.total += values[child.mover]
            tree.root.visits += 1
            for key in played:
                stats = mast.get(key)
                value = reached[key % players]
                if stats is None:
                    mast[key] = [value, 1.0]
                else:
                    stats[0] += value
                    stats[1] += 1.0
            done += 1
        return done

    def _playout(
        self, state: State, rng: random.Random, mast: dict[int, list[float]], uniform: float, played: list[int]
    ) -> list[float]:
        """Plays on for ``depth`` decisions with a choice (to the end where the game defines no progress)
        and returns every seat's :func:`standing` there; the seats' moves join ``played``."""
        depth = self.depth
        players = state.game.num_players
        limit = _LONGEST if depth is None or state.progress() is None else depth
        choices = 0
        while True:
            player = state.current_player()
            if player == TERMINAL:
                break
            if player == CHANCE:
                state.apply_action(sample_chance(state, rng))
                continue
            legal = state.legal_actions()
            if len(legal) == 1:
                state.apply_action(legal[0])
                continue
            if choices >= limit:
                break
            choices += 1
            if rng.random() < uniform:
                action = legal[int(rng.random() * len(legal))]
            else:
                action = _by_average(legal, mast, players, player, rng)
            state.apply_action(action)
            played.append(action * players + player)
        return standing(state)


def _by_average(actions: list[int], mast: dict[int, list[float]], players: int, player: int, rng: random.Random) -> int:
    """Returns the action with the best move average of ``player`` (unseen ones count as even), ties at random."""
    best: list[int] = []
    best_value = -math.inf
    for action in actions:
        stats = mast.get(action * players + player)
        value = _UNSEEN if stats is None else stats[0] / stats[1]
        if value > best_value:
            best_value = value
            best = [action]
        elif value == best_value:
            best.append(action)
    return best[0] if len(best) == 1 else best[int(rng.random() * len(best))]


@contextlib.contextmanager
def _no_cycle_collection() -> Iterator[None]:
    """Holds the cycle collector off while a search runs (it makes and drops thousands of states, no cycles)."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


__all__ = ["RulesSearchAgent", "standing"]
