"""Players for every game: bots by name, and the interface they share."""

from __future__ import annotations

from collections.abc import Callable

from henge.agents.base import Agent, Decision, make_decision
from henge.agents.random_agent import RandomAgent

_AGENTS: dict[str, Callable[[], Agent]] = {"random": RandomAgent}


def agent_names() -> list[str]:
    """Returns the names of the bots offered as opponents."""
    return list(_AGENTS)


def make_agent(name: str) -> Agent:
    """Returns a new bot by name; raises ValueError naming the bots there are."""
    factory = _AGENTS.get(name)
    if factory is None:
        raise ValueError(f"unknown bot {name!r}; bots: {', '.join(_AGENTS)}")
    return factory()


__all__ = ["Agent", "Decision", "RandomAgent", "agent_names", "make_agent", "make_decision"]
