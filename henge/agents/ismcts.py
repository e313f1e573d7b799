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
  with the game's evaluation (its search part, :mod:`henge.agents.heuristics`); a game without
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
a game's search part may name settings that suit it (``SEARCH``, e.g.
fewer iterations with guided rollouts where its rule-based player is slow),
and settings given explicitly win over both. While the cap does not bite,
play depends only on the seeds, which keeps tournaments reproducible; it
guards games without an evaluation, whose iterations play out to the end.
``docs/agents.md`` has the measured seconds per decision, ``henge bench
--bots`` times them (``docs/performance.md``). A decision with a single
legal action returns at once, and the cycle collector is held off while a
search runs (a search leaves no reference cycles; with large states the
collector's passes over the live ones cost a tenth of the time).

The search itself is :mod:`henge.agents.tree` (the tree, its statistics and :func:`search`),
its settings :mod:`henge.agents.search_config`; this module is the bot that plays by them.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from henge.agents import heuristics
from henge.agents.search_config import SearchConfig, config_for, configured
from henge.agents.tree import Sampler, SearchResult, Tree, search
from henge.core import Decision, State, sample_chance


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


__all__ = [
    "ISMCTSAgent",
    "SearchConfig",
    "SearchResult",
    "Tree",
    "believed",
    "config_for",
    "configured",
    "sample_chance",
    "search",
]
