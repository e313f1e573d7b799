"""What a bot is given at its seat, and nothing more (RULINGS G3).

A bot never holds the real state. At each decision it gets a
:class:`Decision`: its seat's observation, the legal actions with their
text, a random generator of its own, and a sampler of full states
consistent with what the seat knows. The sampler is built from a state that
was itself re-drawn from the seat's information set, so even a bot that
pried into it would find only what the seat already knows.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from henge.engine import State


@dataclass
class Decision:
    """One decision of one seat: everything a fair bot may use."""

    seat: int
    observation: dict[str, Any]
    legal_actions: list[int]
    legal_texts: list[str]
    rng: random.Random
    _sampler: Callable[[random.Random], State] | None = field(default=None, repr=False)

    def text(self, action: int) -> str:
        """Returns the text of a legal action."""
        return self.legal_texts[self.legal_actions.index(action)]

    def sample_state(self, rng: random.Random | None = None) -> State:
        """Returns a full state drawn uniformly from those consistent with this seat's view."""
        if self._sampler is None:
            raise RuntimeError("this decision was made without a sampler (the agent did not ask for one)")
        return self._sampler(rng or self.rng)


@runtime_checkable
class Agent(Protocol):
    """A player: ``choose`` returns one of ``decision.legal_actions``."""

    name: str
    needs_samples: bool

    def choose(self, decision: Decision) -> int:
        """Returns the chosen action id."""
        ...


def make_decision(state: State, seat: int, rng: random.Random, *, samples: bool) -> Decision:
    """Returns the decision of ``seat`` in ``state``; with ``samples`` it carries a sampler."""
    sampler = None
    if samples:
        base = state.resample_from_infostate(seat, rng)

        def sampler(r: random.Random) -> State:
            return base.resample_from_infostate(seat, r)

    return Decision(
        seat=seat,
        observation=state.observation(seat),
        legal_actions=state.legal_actions(),
        legal_texts=state.legal_action_texts(),
        rng=rng,
        _sampler=sampler,
    )
