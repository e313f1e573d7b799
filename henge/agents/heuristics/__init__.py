"""Per-game knowledge for bots: a rule-based player and a position evaluation.

Each module here is named after a game id and offers two functions:

* ``choose(decision) -> int``: a small, readable rule-based player that
  reads only the decision (the seat's observation, the legal actions and the
  bot's generator);
* ``evaluate(state) -> list[float]``: each seat's chance of winning from a
  full state, used by the search bots at the end of a truncated rollout.
  Search bots only ever hold states sampled from their seat's information
  set (or, for ``mcts-cheat``, the real one), so reading a state here gives
  away nothing.
* optionally ``SEARCH``: settings of ``ismcts`` that suit the game (its
  budget, its rollouts), over the search's defaults;
* optionally ``belief(observation) -> weigh``: from what the seat saw, a
  function giving a sampled state a weight in [0, 1] in proportion to how
  likely the seat's observations would be if it were the truth (e.g. rivals
  mostly push their own druids forward). ``ismcts`` keeps samples in
  proportion to it.

Modules never import ``henge.games``: they know their game's rules as a
player does and read states through the public State API alone.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from types import ModuleType
from typing import Any, cast

from henge.agents.base import Decision
from henge.engine import State

KNOWN = ("stonerush", "fightin", "druid_olympics", "first_druid", "spell_casting")
"""Games that have a heuristic module."""

Evaluator = Callable[[State], list[float]]


def has_heuristic(game_id: str) -> bool:
    """Returns True if ``game_id`` has a rule-based player and an evaluation."""
    return game_id in KNOWN


def module_for(game_id: str) -> ModuleType:
    """Returns the heuristic module of a game; raises ValueError naming the games that have one."""
    if game_id not in KNOWN:
        raise ValueError(f"no heuristic player for {game_id!r} yet; games with one: {', '.join(KNOWN)}")
    return importlib.import_module(f"henge.agents.heuristics.{game_id}")


def chooser(game_id: str) -> Callable[[Decision], int]:
    """Returns the rule-based player of a game."""
    return cast(Callable[[Decision], int], module_for(game_id).choose)


def guide(game_id: str) -> Callable[[Decision], int] | None:
    """Returns the rule-based player that guides a search, or None for a game without one."""
    return chooser(game_id) if game_id in KNOWN else None


def evaluator(game_id: str) -> Evaluator | None:
    """Returns the position evaluation of a game, or None where there is none."""
    if game_id not in KNOWN:
        return None
    return cast(Evaluator, module_for(game_id).evaluate)


Belief = Callable[[State], float]


def belief(game_id: str, observation: dict[str, Any]) -> Belief | None:
    """Returns the weight a seat gives sampled states after what it saw, or None for uniform samples."""
    if game_id not in KNOWN:
        return None
    make = getattr(module_for(game_id), "belief", None)
    return None if make is None else cast(Belief | None, make(observation))


def search_settings(game_id: str) -> dict[str, Any]:
    """Returns the search settings a game's module names for it (``SEARCH``), or none."""
    if game_id not in KNOWN:
        return {}
    return dict(getattr(module_for(game_id), "SEARCH", {}))
