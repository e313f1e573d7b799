"""Analysis for game designers: many seeded games of a rule set, summarised with intervals.

``henge analyze`` plays a game many times with the rule-based players (or any bots), seats
rotated, and reports the win share by seat, how games end (shared wins, the round cap), their
length in actions and rounds, lead changes and how early games are decided, a skill trace of the
search bot at growing budgets, and each game's own figures (its descriptor's ``metrics`` hook).
``henge sweep`` compares those figures across the values of a game's options. Games run here, in
worker processes or as Ray tasks, with the same results for the same seed. docs/analysis.md.

This package is a framework layer: it reaches a game only through its descriptor and the public
State API (the import contracts in pyproject.toml say so).
"""

from henge.analysis.core import (
    DEFAULT_BUDGETS,
    DEFAULT_TRACE_GAMES,
    Analysis,
    AnalysisConfig,
    Sweep,
    analyze,
    default_agent,
    sweep,
)

__all__ = [
    "DEFAULT_BUDGETS",
    "DEFAULT_TRACE_GAMES",
    "Analysis",
    "AnalysisConfig",
    "Sweep",
    "analyze",
    "default_agent",
    "sweep",
]
