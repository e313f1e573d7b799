"""The rule-based player: one small, readable player per game (``henge.agents.heuristics``)."""

from __future__ import annotations

from henge.agents import heuristics
from henge.core import Decision


class HeuristicAgent:
    """Plays each game by its own rules of thumb; reads only the decision it is given."""

    name = "heuristic"
    needs_samples = False

    def choose(self, decision: Decision) -> int:
        """Returns the action the game's rule-based player picks (the only one, if there is one)."""
        if len(decision.legal_actions) == 1:
            return decision.legal_actions[0]
        return heuristics.chooser(decision.game_id)(decision)
