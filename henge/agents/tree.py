"""The tree of an information-set search and its statistics: selection, expansion, rollouts, backup.

:func:`search` grows a :class:`Tree` over one information set of a seat, from the determinizations
a sampler draws, and returns the root action visited most. How and why each step works is told in
:mod:`henge.agents.ismcts`, the bot that plays by it.
"""

from __future__ import annotations

import contextlib
import gc
import math
import random
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from henge.agents.heuristics import Knowledge
from henge.agents.search_config import SearchConfig
from henge.core import TERMINAL, Chooser, Decision, State, advance, make_decision, sample_chance

Sampler = Callable[[random.Random], State]
"""Draws a determinization: a full state consistent with what the seat knows."""


class _Node:
    """An edge of the tree and the node it leads to: its statistics are those of ``mover``."""

    __slots__ = ("available", "children", "hint", "mover", "total", "visits")

    def __init__(self, mover: int) -> None:
        self.mover = mover
        self.visits = 0
        self.total = 0.0
        self.available = 1
        self.children: dict[int, _Node] = {}
        self.hint = _UNASKED
        """The rule-based player's choice here, asked of the first determinization that needs it."""


_UNASKED = -1


@dataclass
class SearchResult:
    """The chosen action and what the search did to choose it."""

    action: int
    iterations: int
    """Iterations run for this decision (a reused subtree brings more visits)."""
    seconds: float
    visits: dict[int, int]
    """Visits of each root action."""


class Tree:
    """A search tree over one information set of ``seat``, with the determinizations it keeps.

    What the search knows of the game (its evaluation, rule-based player, settled positions) is
    ``knowledge``; an empty :class:`Knowledge` searches with random rollouts to the end."""

    def __init__(self, seat: int, config: SearchConfig, knowledge: Knowledge) -> None:
        self.seat = seat
        self.config = config
        self.knowledge = knowledge
        self.evaluate = evaluate = knowledge.evaluate
        self.policy = knowledge.guide
        self.settled = knowledge.settled if evaluate is not None and config.settle else None
        """Where the evaluation may be read (None: anywhere); see ``SearchConfig.settle``."""
        self.root = _Node(-1)
        self.worlds: list[tuple[State, list[float] | None, int]] = []
        """Kept determinizations with their baselines and the seeds of their luck (see :meth:`_rollout`):
        all of them, or the first one when none are kept."""
        self.turn = 0

    def grow(self, sample: Sampler, rng: random.Random, iterations: int | None, deadline: float | None) -> int:
        """Runs iterations until ``iterations`` are done or the processor clock passes ``deadline``."""
        config = self.config
        evaluate = self.evaluate
        c = config.exploration
        depth = config.rollout_depth if evaluate is not None else None
        guide = config.guide if self.policy is not None else 0.0
        finish = config.finish if self.policy is not None else 0
        keep = config.determinizations
        done = 0
        while iterations is None or done < iterations:
            if deadline is not None and done and time.process_time() >= deadline:
                break
            if iterations is not None and done % 16 == 15 and self._settled(iterations - done):
                break
            if keep and len(self.worlds) >= keep:
                world, baseline, luck = self.worlds[self.turn % keep]
                state = world.clone()
            else:
                state = sample(rng)
                luck = rng.getrandbits(32) if self.settled is not None else 0
                baseline = self._baseline(state, luck) if evaluate is not None and config.baseline else None
                if keep or not self.worlds:
                    self.worlds.append((state.clone(), baseline, luck))
            self.turn += 1
            game = state.game
            players = game.num_players
            node = self.root
            path: list[_Node] = []
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
                hint = _UNASKED
                if guide and len(legal) > 1:
                    if node.hint == _UNASKED:
                        node.hint = self._ask(state, player, rng)
                    hint = node.hint
                untried: list[int] = []
                for action in legal:
                    child = children.get(action * players + player)
                    if child is None:
                        untried.append(action)
                    else:
                        child.available += 1
                if untried:
                    # The rule-based player's choice is tried first.
                    action = hint if hint in untried else untried[int(rng.random() * len(untried))]
                    child = children[action * players + player] = _Node(player)
                    state.apply_action(action)
                    path.append(child)
                    break
                best = node
                best_score = -math.inf
                best_action = legal[0]
                for action in legal:
                    child = children[action * players + player]
                    score = child.total / child.visits + c * math.sqrt(math.log(child.available) / child.visits)
                    if action == hint:
                        score += guide / (child.visits + 1)
                    if score > best_score:
                        best, best_score, best_action = child, score, action
                state.apply_action(best_action)
                path.append(best)
                node = best
            # The rule-based player finishes the turn the tree ended in.
            if finish and path:
                self._finish(state, path[-1].mover, rng)
            values = self._rollout(state, rng, depth, luck)
            # Backup.
            if baseline is not None:
                values = [v - b for v, b in zip(values, baseline, strict=True)]
            for child in path:
                child.visits += 1
                child.total += values[child.mover]
            done += 1
        return done

    def _rollout(self, state: State, rng: random.Random, depth: int | None, luck: int) -> list[float]:
        """Plays ``depth`` decisions on (None: to the end), then on to a settled position where
        the game names them, and returns every seat's value there, in [0, 1]. The game's one driver
        (``advance``) plays them.

        The way on to a settled position draws its chance from a generator seeded with ``luck``,
        the determinization's own: every rollout of one determinization, and its baseline, meet
        the same draws there (common random numbers), so the differences between actions are not
        drowned by who draws what at the end of the turn."""
        if advance(state, rng, self._rollout_players(state, rng), decisions=depth) == TERMINAL:
            return self._normalised(state)
        evaluate = self.evaluate
        assert evaluate is not None
        settled = self.settled
        if settled is None or self.config.settle <= 0 or settled(state):
            return evaluate(state)
        lucky = random.Random(luck)  # on the way to a settled position: the determinization's own draws
        if (
            advance(state, lucky, self._rollout_players(state, lucky), decisions=self.config.settle, stop=settled)
            == TERMINAL
        ):
            return self._normalised(state)
        return evaluate(state)

    @staticmethod
    def _normalised(state: State) -> list[float]:
        info = state.game.info
        low, high = info.min_utility, info.max_utility
        return [(r - low) / (high - low or 1.0) for r in state.returns()]

    def _rollout_players(self, state: State, rng: random.Random) -> dict[int, Chooser]:
        """Returns every seat's rollout chooser drawing from ``rng``: the only legal action where there
        is one, else the rule-based player's pick in guided rollouts, else a uniform one."""
        guided = self.config.guided_rollout and self.policy is not None
        ask = self._ask

        def choose(state: State, player: int) -> int:
            legal = state.legal_actions()
            if len(legal) == 1:
                return legal[0]
            if guided:
                return ask(state, player, rng)
            return legal[int(rng.random() * len(legal))]

        return dict.fromkeys(range(state.game.num_players), choose)

    def _baseline(self, state: State, luck: int) -> list[float]:
        """Returns a determinization's own value at the root: its evaluation, read where it is
        settled (played on from a copy) if the game names such positions."""
        assert self.evaluate is not None
        if self.settled is None:
            return self.evaluate(state)
        return self._rollout(state.clone(), random.Random(luck), 0, luck)

    def _ask(self, state: State, player: int, rng: random.Random) -> int:
        """Returns the rule-based player's choice for ``player`` in the determinization ``state``."""
        assert self.policy is not None
        return self.policy(make_decision(state, player, rng, samples=False))

    def _finish(self, state: State, mover: int, rng: random.Random) -> None:
        """Lets the rule-based player make ``mover``'s next decisions while the turn stays theirs."""
        ask = self._ask

        def choose(state: State, player: int) -> int:
            legal = state.legal_actions()
            return legal[0] if len(legal) == 1 else ask(state, player, rng)

        advance(state, rng, {mover: choose}, decisions=self.config.finish)

    def _settled(self, remaining: int) -> bool:
        """Returns True once the most visited root action cannot be overtaken in ``remaining`` iterations."""
        counts = sorted((child.visits for child in self.root.children.values()), reverse=True)
        return len(counts) > 1 and counts[0] - counts[1] > remaining

    def visits(self) -> dict[int, int]:
        """Returns the visits of each root action of the seat that is legal at the root.

        A kept subtree's root may hold edges grown in worlds that the
        decision has since ruled out (an action turned hidden cards over):
        those are not the seat's to play.
        """
        players = self._players()
        legal = set(self.worlds[0][0].legal_actions())
        return {
            key // players: child.visits
            for key, child in self.root.children.items()
            if child.mover == self.seat and key // players in legal
        }

    def best_action(self) -> int:
        """Returns the root action visited most (ties: the larger total, then the smaller id)."""
        players = self._players()
        visits = self.visits()
        return max(visits, key=lambda a: (visits[a], self.root.children[a * players + self.seat].total, -a))

    def after(self, action: int) -> Tree | None:
        """Returns the subtree below the seat's own ``action`` if the seat decides again at once, else None.

        Its kept determinizations are this tree's with ``action`` applied;
        :meth:`fits` tells whether a later decision is the one it stands for.
        """
        child = self.root.children.get(action * self._players() + self.seat)
        if child is None:
            return None
        worlds = []
        for world, baseline, luck in self.worlds:
            if action not in world.legal_actions():  # a world the last decision did not fit
                continue
            state = world.clone()
            state.apply_action(action)
            if state.current_player() != self.seat:
                return None
            worlds.append((state, baseline, luck))
        subtree = Tree(self.seat, self.config, self.knowledge)
        subtree.root = child
        subtree.worlds = worlds
        return subtree

    def fits(self, decision: Decision) -> bool:
        """Returns True if ``decision`` is the information set this tree's root stands for."""
        if not self.worlds or decision.seat != self.seat:
            return False
        # An action can turn hidden cards over, so kept worlds may now disagree with what the seat
        # sees: keep only those that still fit (checking one alone let an impossible world in).
        self.worlds = [
            (state, baseline, luck)
            for state, baseline, luck in self.worlds
            if state.observation(self.seat) == decision.observation and state.legal_actions() == decision.legal_actions
        ]
        return bool(self.worlds)

    def _players(self) -> int:
        return self.worlds[0][0].game.num_players


def search(
    sample: Sampler,
    seat: int,
    rng: random.Random,
    config: SearchConfig,
    knowledge: Knowledge,
    *,
    tree: Tree | None = None,
) -> tuple[SearchResult, Tree]:
    """Searches from the decision of ``seat`` whose determinizations ``sample`` draws, with what the search
    knows of the game; returns the best action.

    A ``tree`` kept from the seat's previous decision (see :meth:`Tree.after`)
    is grown further: its visits count towards ``config.iterations``, though
    at least a quarter of them are run afresh.
    """
    start = time.perf_counter()
    deadline = None if config.seconds is None else time.process_time() + config.seconds
    if tree is None:
        tree = Tree(seat, config, knowledge)
    limit = config.iterations
    if limit is not None and tree.root.visits:
        limit = max(limit - tree.root.visits, (limit + 3) // 4)
    with _no_cycle_collection():
        done = tree.grow(sample, rng, limit, deadline)
    result = SearchResult(tree.best_action(), done, time.perf_counter() - start, tree.visits())
    return result, tree


@contextlib.contextmanager
def _no_cycle_collection() -> Iterator[None]:
    """Holds the cycle collector off while a search runs (it leaves no cycles behind to collect).

    A search makes and drops thousands of states; with the collector on, a
    game with large states (First Druid's) spends a tenth of its time in it
    going over the same live objects again and again.
    """
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
