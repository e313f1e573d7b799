"""The uniform random player."""

from __future__ import annotations

from henge.core import Decision


class RandomAgent:
    """Chooses uniformly among the legal actions."""

    name = "random"
    needs_samples = False

    def choose(self, decision: Decision) -> int:
        """Returns a uniformly random legal action."""
        legal = decision.legal_actions
        return legal[int(decision.rng.random() * len(legal))]
