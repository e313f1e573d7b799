"""The rule-based player: one small, readable player per game (``henge.agents.heuristics``)."""

from __future__ import annotations

from henge.agents import heuristics
from henge.core import Decision


class HeuristicAgent:
    """Plays each game by its own rules of thumb; reads only the decision it is given.

    With ``err`` above 0 it errs on purpose: at each decision with a choice it plays a uniformly
    random legal action instead, with that chance (drawn from the seat's own generator), so a
    level can sit below the rule-based player without reading anything more.
    """

    needs_samples = False

    def __init__(self, *, name: str = "heuristic", err: float = 0.0) -> None:
        if not 0.0 <= err <= 1.0:
            raise ValueError(f"heuristic: err is a chance from 0 to 1, not {err}")
        self.name = name
        self.err = err

    def choose(self, decision: Decision) -> int:
        """Returns the action the game's rule-based player picks (the only one, if there is one)."""
        legal = decision.legal_actions
        if len(legal) == 1:
            return legal[0]
        if self.err > 0.0:
            rng = decision.rng
            if rng.random() < self.err:
                return legal[int(rng.random() * len(legal))]
        return heuristics.chooser(decision.game_id)(decision)
