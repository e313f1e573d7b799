"""Per-game knowledge for bots: a rule-based player and a position evaluation.

A game's descriptor names its bot module (``henge/games/<id>/bot.py`` for the
games that ship with henge), which offers:

* ``choose(decision) -> int``: a small, readable rule-based player that
  reads only the decision (the seat's observation, the legal actions and the
  bot's generator);
* ``evaluate(state) -> list[float]``: each seat's chance of winning from a
  full state, used by the search bots at the end of a truncated rollout.
  Search bots only ever hold states sampled from their seat's information
  set (or, for ``mcts-cheat``, the real one), so reading a state here gives
  away nothing.
* optionally ``settled(state) -> bool``: True where the evaluation compares
  the seats fairly (Druid Olympics: at the start of a turn, when every runner
  has had as many moves). A search plays its rollouts on to such a position
  before it reads the evaluation (``ismcts``'s ``settle``).
* optionally ``SEARCH``: settings of ``ismcts`` that suit the game (its
  budget, its rollouts), over the search's defaults;
* optionally ``belief(observation) -> weigh``: from what the seat saw, a
  function giving a sampled state a weight in [0, 1] in proportion to how
  likely the seat's observations would be if it were the truth (e.g. rivals
  mostly push their own druids forward). ``ismcts`` keeps samples in
  proportion to it.

Bot modules never import their game's rules: they know the rules as a player
does and read states through the public State API alone (import contracts in
pyproject.toml say so).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from types import ModuleType
from typing import Any, cast

from henge.core import Decision, State, list_games, plugin

Evaluator = Callable[[State], list[float]]
Settled = Callable[[State], bool]


@cache
def _module(game_id: str) -> ModuleType | None:
    return plugin(game_id).load_bot()


@cache
def _search_module(game_id: str) -> ModuleType:
    found = plugin(game_id).load_search()
    return module_for(game_id) if found is None else found


def known() -> list[str]:
    """Returns the games that have a rule-based player."""
    return [g for g in list_games() if plugin(g).bot is not None]


def has_heuristic(game_id: str) -> bool:
    """Returns True if ``game_id`` has a rule-based player and an evaluation."""
    return game_id in list_games() and plugin(game_id).bot is not None


def module_for(game_id: str) -> ModuleType:
    """Returns the bot module of a game; raises ValueError naming the games that have one."""
    if not has_heuristic(game_id):
        raise ValueError(f"no heuristic player for {game_id!r}; games with one: {', '.join(known())}")
    module = _module(game_id)
    assert module is not None
    return module


def chooser(game_id: str) -> Callable[[Decision], int]:
    """Returns the rule-based player of a game."""
    return cast(Callable[[Decision], int], module_for(game_id).choose)


def guide(game_id: str) -> Callable[[Decision], int] | None:
    """Returns the rule-based player that guides a search, or None for a game without one."""
    return chooser(game_id) if has_heuristic(game_id) else None


def evaluator(game_id: str) -> Evaluator | None:
    """Returns the position evaluation of a game, or None where there is none."""
    if not has_heuristic(game_id):
        return None
    return cast(Evaluator | None, getattr(_search_module(game_id), "evaluate", None))


Belief = Callable[[State], float]


def belief(game_id: str, observation: dict[str, Any]) -> Belief | None:
    """Returns the weight a seat gives sampled states after what it saw, or None for uniform samples."""
    if not has_heuristic(game_id):
        return None
    make = getattr(_search_module(game_id), "belief", None)
    return None if make is None else cast(Belief | None, make(observation))


def settled(game_id: str) -> Settled | None:
    """Returns the test of where a game's evaluation may be read (``settled``); None: anywhere."""
    if not has_heuristic(game_id):
        return None
    return cast(Settled | None, getattr(_search_module(game_id), "settled", None))


def search_settings(game_id: str) -> dict[str, Any]:
    """Returns the search settings a game's module names for it (``SEARCH``), or none."""
    if not has_heuristic(game_id):
        return {}
    return dict(getattr(_search_module(game_id), "SEARCH", {}))
