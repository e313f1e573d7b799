"""The settings of a search (:class:`SearchConfig`): its budget and constants, with the defaults of
``ismcts`` and ``mcts-cheat``, over which a game may name its own (``SEARCH``, :mod:`henge.agents.heuristics`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from henge.agents import heuristics
from henge.agents.heuristics import Knowledge

DEFAULT_ITERATIONS = 300
DEFAULT_SECONDS = 1.0
DEFAULT_EXPLORATION = 0.1
DEFAULT_ROLLOUT_DEPTH = 0
DEFAULT_BELIEF_TRIES = 8
DEFAULT_DETERMINIZATIONS = 40
DEFAULT_GUIDE = 0.1
DEFAULT_FINISH = 8
DEFAULT_SETTLE = 40


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


def config_for(game_id: str, settings: dict[str, Any]) -> SearchConfig:
    """Returns the search settings for ``game_id``: ``settings``, then the game's own, then the defaults.

    A game's search part may name settings that suit it (``SEARCH``),
    e.g. fewer iterations where its rule-based player is slow.
    """
    return configured(heuristics.knowledge(game_id), settings)


def configured(knowledge: Knowledge, settings: dict[str, Any]) -> SearchConfig:
    """Returns the search settings: ``settings``, then the game's own (``knowledge.settings``), then the defaults."""
    return SearchConfig(**{**knowledge.settings, **settings})
