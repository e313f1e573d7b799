"""Information-set Monte Carlo tree search (single-observer ISMCTS, Cowling et al. 2012).

One tree is grown over the bot's information set. Every iteration takes a
determinization, a full state consistent with what the seat knows (drawn
with ``decision.sample_state``), and walks the tree with it:

* **Nodes are keyed by actions** from the root decision (an edge is the
  pair of the seat that moved and its action id). Chance nodes are not in
  the tree: their outcomes are sampled by their probabilities as the walk
  passes them, so a node stands for every deal and draw that leads to it.
* **Selection** is UCB1 with availability counts: an edge's exploration
  term uses how often it was legal when its parent was visited, since a
  determinization offers only the actions it allows.
* **Expansion** adds one untried legal edge per iteration: the game's
  rule-based player's choice first (asked once per node, of the first
  determinization that reaches it), then the others in random order.
  Selection adds ``guide / (visits + 1)`` to that choice's edge, so the
  search leaves it only for an action whose values are clearly better.
* **Evaluation**: if the walk left the tree in the middle of a turn, the
  rule-based player finishes that turn (``finish`` decisions at most), so
  a first step is judged by the turn it starts; then ``rollout_depth``
  decisions are played (by the rule-based player for every seat with
  ``guided_rollout``, else uniformly at random) and the position is scored
  with the game's evaluation (``henge.agents.heuristics``); a game without
  one is played out at random to the end instead. Where the game names the
  positions its evaluation compares fairly (``settled``: in Druid Olympics
  the start of a turn, when every runner has had as many moves), the
  rollout goes on to the next such position (``settle`` decisions at most)
  before it is scored, and so does each determinization's baseline. Returns
  are scaled to [0, 1]. The rule-based player only ever reads the search's own
  determinizations, samples of what the seat knows.
* **Backup**: each edge adds the value of the seat that moved along it, so
  every player's choices in the tree are made for that player's own gain.
  Each determinization's own evaluation at the root is subtracted first
  (``baseline``): who holds what moves every action's value alike, and
  taking it out leaves the differences between actions.

Determinizations (``determinizations``, ``belief_tries``): the first 40
iterations each draw a fresh one, later iterations take those 40 in turn
(``determinizations=0``: a fresh one every iteration). Where the game
offers a belief (how likely a sample makes what the seat saw), each one is
kept from up to 8 draws in proportion to it, so rivals are thought to race
the druids they have been pushing. Reusing a pool costs a copy instead of
a re-draw, a weighing and an evaluation per iteration, about half the time.

The action played is the root edge visited most. The search stops early
once no other edge can catch up, and when the seat decides again at once
(the steps of one turn) the subtree below its action is kept (``reuse``).

The default budget is 300 iterations, with a cap of one processor second;
a game's heuristic module may name settings that suit it (``SEARCH``, e.g.
fewer iterations with guided rollouts where its rule-based player is slow),
and settings given explicitly win over both. While the cap does not bite,
play depends only on the seeds, which keeps tournaments reproducible; it
guards games without an evaluation, whose iterations play out to the end.
``docs/agents.md`` has the measured seconds per decision, ``henge bench
--bots`` times them (``docs/performance.md``). A decision with a single
legal action returns at once, and the cycle collector is held off while a
search runs (a search leaves no reference cycles; with large states the
collector's passes over the live ones cost a tenth of the time).
"""

from __future__ import annotations

import contextlib
import gc
import math
import random
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from henge.agents import heuristics
from henge.agents.heuristics import Knowledge
from henge.core import CHANCE, TERMINAL, Decision, State, make_decision, sample_chance

DEFAULT_ITERATIONS = 300
DEFAULT_SECONDS = 1.0
DEFAULT_EXPLORATION = 0.1
DEFAULT_ROLLOUT_DEPTH = 0
DEFAULT_BELIEF_TRIES = 8
DEFAULT_DETERMINIZATIONS = 40
DEFAULT_GUIDE = 0.1
DEFAULT_FINISH = 8
DEFAULT_SETTLE = 40

Sampler = Callable[[random.Random], State]


@dataclass(frozen=True)
class SearchConfig:
    """The budget and constants of a search."""

    iterations: int | None = DEFAULT_ITERATIONS
    """Iterations per decision (None: limited by ``seconds`` alone)."""
    seconds: float | None = DEFAULT_SECONDS
    """Processor seconds per decision at most (None: limited by ``iterations`` alone)."""
    exploration: float = DEFAULT_EXPLORATION
    """The UCT constant: larger explores more."""
    rollout_depth: int | None = DEFAULT_ROLLOUT_DEPTH
    """Random decisions played after the tree before the evaluation (None: to the end)."""
    baseline: bool = True
    """Subtract each determinization's own evaluation at the root from the values it backs up."""
    belief_tries: int = DEFAULT_BELIEF_TRIES
    """Samples drawn per determinization to weigh by the game's belief (0 or 1: uniform samples)."""
    determinizations: int = DEFAULT_DETERMINIZATIONS
    """Distinct determinizations per decision, drawn first and taken in turn (0: a fresh one every iteration)."""
    reuse: bool = True
    """Keep the subtree below the chosen action when the seat decides again at once (several steps of a turn)."""
    guide: float = DEFAULT_GUIDE
    """Weight of the bias towards the rule-based player's choice at each node (0: none)."""
    finish: int = DEFAULT_FINISH
    """Decisions at most in which the rule-based player finishes the turn the tree ended in (0: none)."""
    guided_rollout: bool = False
    """Every seat plays the rollout's decisions as the rule-based player would (else uniformly at random)."""
    settle: int = DEFAULT_SETTLE
    """Decisions at most played on after ``rollout_depth`` until a position the game calls settled
    (its ``settled``: where its evaluation compares the seats fairly); 0: evaluate at once."""

    def __post_init__(self) -> None:
        if self.iterations is None and self.seconds is None:
            raise ValueError("a search needs a budget: iterations, seconds or both")
        if self.iterations is not None and self.iterations < 1:
            raise ValueError(f"iterations must be at least 1, not {self.iterations}")
        if self.seconds is not None and self.seconds <= 0:
            raise ValueError(f"seconds must be positive, not {self.seconds}")
        if self.exploration < 0:
            raise ValueError(f"the exploration constant must not be negative, not {self.exploration}")
        if self.rollout_depth is not None and self.rollout_depth < 0:
            raise ValueError(f"rollout depth must not be negative, not {self.rollout_depth}")
        if self.determinizations < 0:
            raise ValueError(f"determinizations must not be negative, not {self.determinizations}")
        if self.belief_tries < 0:
            raise ValueError(f"belief tries must not be negative, not {self.belief_tries}")
        if self.guide < 0:
            raise ValueError(f"the guide weight must not be negative, not {self.guide}")
        if self.finish < 0:
            raise ValueError(f"finish must not be negative, not {self.finish}")
        if self.settle < 0:
            raise ValueError(f"settle must not be negative, not {self.settle}")


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
        the game names them, and returns every seat's value there, in [0, 1].

        The way on to a settled position draws its chance from a generator seeded with ``luck``,
        the determinization's own: every rollout of one determinization, and its baseline, meet
        the same draws there (common random numbers), so the differences between actions are not
        drowned by who draws what at the end of the turn."""
        evaluate = self.evaluate
        settled = self.settled
        guided = self.config.guided_rollout and self.policy is not None
        settle = self.config.settle
        lucky = False
        steps = 0
        while True:
            player = state.current_player()
            if player == TERMINAL:
                info = state.game.info
                low, high = info.min_utility, info.max_utility
                return [(r - low) / (high - low or 1.0) for r in state.returns()]
            if depth is not None and steps >= depth:
                if settled is None or steps >= depth + settle or settled(state):
                    assert evaluate is not None
                    return evaluate(state)
                if not lucky:  # on the way to a settled position: the determinization's own draws
                    rng = random.Random(luck)
                    lucky = True
            if player == CHANCE:
                state.apply_action(sample_chance(state, rng))
            else:
                legal = state.legal_actions()
                if len(legal) == 1:
                    state.apply_action(legal[0])
                elif guided:
                    state.apply_action(self._ask(state, player, rng))
                else:
                    state.apply_action(legal[int(rng.random() * len(legal))])
                steps += 1

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
        for _ in range(self.config.finish):
            player = state.current_player()
            while player == CHANCE:
                state.apply_action(sample_chance(state, rng))
                player = state.current_player()
            if player != mover:
                return
            legal = state.legal_actions()
            state.apply_action(legal[0] if len(legal) == 1 else self._ask(state, player, rng))

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


def config_for(game_id: str, settings: dict[str, Any]) -> SearchConfig:
    """Returns the search settings for ``game_id``: ``settings``, then the game's own, then the defaults.

    A game's search part may name settings that suit it (``SEARCH``),
    e.g. fewer iterations where its rule-based player is slow.
    """
    return configured(heuristics.knowledge(game_id), settings)


def configured(knowledge: Knowledge, settings: dict[str, Any]) -> SearchConfig:
    """Returns the search settings: ``settings``, then the game's own (``knowledge.settings``), then the defaults."""
    return SearchConfig(**{**knowledge.settings, **settings})


def believed(sample: Sampler, weigh: Callable[[State], float], tries: int) -> Sampler:
    """Returns a sampler that draws up to ``tries`` samples and keeps one with probability ``weigh(sample)``.

    ``weigh`` gives each sample a weight in [0, 1] in proportion to how
    likely what the seat saw would be if that sample were the truth, so kept
    samples follow the seat's belief rather than a uniform draw. If every
    try is refused, the heaviest one is kept.
    """

    def draw(rng: random.Random) -> State:
        best = sample(rng)
        best_weight = weigh(best)
        if rng.random() < best_weight:
            return best
        for _ in range(tries - 1):
            state = sample(rng)
            weight = weigh(state)
            if rng.random() < weight:
                return state
            if weight > best_weight:
                best, best_weight = state, weight
        return best

    return draw


class ISMCTSAgent:
    """Information-set MCTS over the seat's samples (see the module docstring)."""

    needs_samples = True

    def __init__(self, *, name: str = "ismcts", **settings: Any) -> None:
        self.config = SearchConfig(**settings)
        self.settings = settings
        """The settings given; the rest come from the game's own (:func:`config_for`) or the defaults."""
        self.name = name
        self.last: SearchResult | None = None
        self._kept: Tree | None = None

    def choose(self, decision: Decision) -> int:
        """Returns the action the search visits most (the only one, at once, if there is one)."""
        legal = decision.legal_actions
        if len(legal) == 1:
            self._kept = None
            return legal[0]
        known = heuristics.knowledge(decision.game_id)
        self.config = config = configured(known, self.settings)
        sample: Sampler = decision.sample_state
        weigh = None if known.belief is None else known.belief(decision.observation)
        if weigh is not None and config.belief_tries > 1:
            sample = believed(sample, weigh, config.belief_tries)
        kept = self._kept if self._kept is not None and self._kept.fits(decision) else None
        self.last, tree = search(sample, decision.seat, decision.rng, config, known, tree=kept)
        self._kept = tree.after(self.last.action) if config.reuse else None
        return self.last.action
