"""``mcts-cheat``: perfect-information MCTS on the real state. For evaluation only.

It sees every hidden card: the search is the one of :mod:`henge.agents.ismcts`
but every iteration starts from the real state instead of a sample of the
seat's information set (chance still lies ahead, sampled as usual). It
measures how much hidden information is worth and gives search bots an upper
mark to aim at. It declares ``cheats = True``, so the game driver hands it
the real state through ``choose_with_state``; it is not among the bots
offered as opponents (``henge.agents.agent_names``), and only a tournament
that names it explicitly plays it.
"""

from __future__ import annotations

import random
from typing import Any

from henge.agents import heuristics
from henge.agents.search_config import SearchConfig, configured
from henge.agents.tree import SearchResult, search
from henge.core import Decision, State


class CheatingMCTSAgent:
    """MCTS that searches the real state (evaluation only; see the module docstring)."""

    needs_samples = False
    cheats = True

    def __init__(self, *, name: str = "mcts-cheat", **settings: Any) -> None:
        self.config = SearchConfig(**settings)
        self.settings = settings
        self.name = name
        self.last: SearchResult | None = None

    def choose(self, decision: Decision) -> int:
        """Refuses: this bot needs the real state (see ``choose_with_state``)."""
        raise RuntimeError("mcts-cheat needs the real state: the game driver calls choose_with_state (evaluation only)")

    def choose_with_state(self, decision: Decision, state: State) -> int:
        """Returns the action the search of the real ``state`` visits most."""
        legal = decision.legal_actions
        if len(legal) == 1:
            return legal[0]

        def sample(rng: random.Random) -> State:
            return state.clone()

        known = heuristics.knowledge(decision.game_id)
        self.config = configured(known, self.settings)
        self.last, _ = search(sample, decision.seat, decision.rng, self.config, known)
        return self.last.action
