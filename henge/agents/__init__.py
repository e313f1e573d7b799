"""Players for every game: bots by name, and the interface they share."""

from __future__ import annotations

from collections.abc import Callable

from henge.agents import heuristics
from henge.agents.base import Agent, CheatingAgent, Decision, canonical_state, is_cheating, make_decision
from henge.agents.heuristic import HeuristicAgent
from henge.agents.random_agent import RandomAgent

_AGENTS: dict[str, Callable[[], Agent]] = {"random": RandomAgent, "heuristic": HeuristicAgent}


def agent_names() -> list[str]:
    """Returns the names of the bots offered as opponents."""
    return list(_AGENTS)


def make_agent(name: str) -> Agent:
    """Returns a new bot by name; raises ValueError naming the bots there are."""
    factory = _AGENTS.get(name)
    if factory is None:
        raise ValueError(f"unknown bot {name!r}; bots: {', '.join(_AGENTS)}")
    return factory()


def check_agent(name: str, game_id: str) -> None:
    """Raises ValueError if the bot ``name`` cannot be made or cannot play ``game_id``."""
    make_agent(name)
    if name == "heuristic" and not heuristics.has_heuristic(game_id):
        raise ValueError(f"no heuristic player for {game_id!r} yet; games with one: {', '.join(heuristics.KNOWN)}")


__all__ = [
    "Agent",
    "CheatingAgent",
    "Decision",
    "HeuristicAgent",
    "RandomAgent",
    "agent_names",
    "canonical_state",
    "check_agent",
    "is_cheating",
    "make_agent",
    "make_decision",
]
