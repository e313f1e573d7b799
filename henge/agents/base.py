"""The players' interface: an :class:`Agent` chooses from a :class:`~henge.core.Decision`.

Evaluation only: an agent that declares ``cheats = True`` (``mcts-cheat``)
is given the real state through :meth:`CheatingAgent.choose_with_state`. No
such agent is offered as an opponent. What a decision holds, and why a bot's
samples depend on its seat's information alone, is told in :mod:`henge.core.decision`.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from henge.core import Decision, State


@runtime_checkable
class Agent(Protocol):
    """A player: ``choose`` returns one of ``decision.legal_actions``."""

    name: str
    needs_samples: bool

    def choose(self, decision: Decision) -> int:
        """Returns the chosen action id."""
        ...


@runtime_checkable
class CheatingAgent(Protocol):
    """An evaluation-only player that is handed the real state (``cheats = True``)."""

    name: str
    needs_samples: bool
    cheats: bool

    def choose_with_state(self, decision: Decision, state: State) -> int:
        """Returns the chosen action id, knowing the real ``state`` (a copy)."""
        ...


def is_cheating(agent: object) -> bool:
    """Returns True for an agent that asks for the real state (evaluation only)."""
    return getattr(agent, "cheats", False) is True
