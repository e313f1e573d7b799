"""What a player is given at its seat, and nothing more (RULINGS G3): a :class:`Decision`.

A bot never holds the real state. At each decision it gets a
:class:`Decision`: its seat's observation, the legal actions with their
text, a random generator of its own, and a sampler of full states
consistent with what the seat knows.

The sampler starts from the seat's *canonical* state: the real state with
everything the seat cannot see re-drawn by a generator whose shuffles first
sort what they shuffle and whose seed is fixed. Two real states that differ
only in what the seat cannot see give the same canonical state, so a bot's
samples, and therefore its decisions, depend on the seat's information and
the bot's own generator alone, never on where the hidden cards really lie.
(This holds for a game whose ``resample_from_infostate`` draws its hidden
parts with ``shuffle``, ``sample``, ``choice`` or ``choices`` over what the
seat cannot tell apart; tests/test_agents.py checks it for every game.)

Evaluation only: an agent that declares ``cheats = True`` (``mcts-cheat``)
is given the real state through :meth:`CheatingAgent.choose_with_state`. No
such agent is offered as an opponent.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Callable, MutableSequence, Sequence
from dataclasses import dataclass, field
from typing import Any

from henge.core.state import State


@dataclass
class Decision:
    """One decision of one seat: everything a fair bot may use."""

    game_id: str
    seat: int
    observation: dict[str, Any]
    legal_actions: list[int]
    legal_texts: list[str]
    rng: random.Random
    _sampler: Callable[[random.Random], State] | None = field(default=None, repr=False)

    def text(self, action: int) -> str:
        """Returns the text of a legal action."""
        return self.legal_texts[self.legal_actions.index(action)]

    def by_text(self) -> dict[str, int]:
        """Returns the legal actions keyed by their text."""
        return dict(zip(self.legal_texts, self.legal_actions, strict=True))

    def sample_state(self, rng: random.Random | None = None) -> State:
        """Returns a full state drawn uniformly from those consistent with this seat's view."""
        if self._sampler is None:
            raise RuntimeError("this decision was made without a sampler (the agent did not ask for one)")
        return self._sampler(rng or self.rng)


class _SortingRandom(random.Random):
    """A fixed-seed generator whose shuffles and picks first sort what they are given.

    Re-drawing a state's hidden parts with it gives the same state whatever
    order the real state kept its hidden cards in: the canonical state of an
    information set.
    """

    def __init__(self) -> None:
        super().__init__("henge/canonical")

    def shuffle(self, x: MutableSequence[Any]) -> None:
        _sort(x)
        super().shuffle(x)

    def sample(self, population: Sequence[Any], k: int, *, counts: Any = None) -> list[Any]:
        if counts is None:
            items = list(population)
            _sort(items)
            return super().sample(items, k)
        return super().sample(population, k, counts=counts)

    def choice(self, seq: Any) -> Any:
        items = list(seq)
        _sort(items)
        return super().choice(items)

    def choices(  # type: ignore[override]
        self, population: Sequence[Any], weights: Any = None, *, cum_weights: Any = None, k: int = 1
    ) -> list[Any]:
        if cum_weights is None:
            pairs = list(zip(population, weights or [1.0] * len(population), strict=True))
            with contextlib.suppress(TypeError):
                pairs.sort(key=lambda pair: pair[0])
            population = [p for p, _ in pairs]
            weights = [w for _, w in pairs]
        return super().choices(population, weights, cum_weights=cum_weights, k=k)


def _sort(items: MutableSequence[Any]) -> None:
    # Unorderable items keep their order: the sample is then merely fair, not canonical.
    with contextlib.suppress(TypeError):
        items[:] = sorted(items)


def canonical_state(state: State, seat: int) -> State:
    """Returns the seat's canonical state: the same for every state it cannot tell from ``state``."""
    return state.resample_from_infostate(seat, _SortingRandom())


def make_decision(state: State, seat: int, rng: random.Random, *, samples: bool) -> Decision:
    """Returns the decision of ``seat`` in ``state``; with ``samples`` it carries a sampler."""
    sampler = None
    if samples:
        # The canonical state is made on the first draw (a search that keeps its samples from the
        # seat's last decision may need none), from a copy of the state as it is now.
        now = state.clone()
        canonical: list[State] = []

        def sampler(r: random.Random) -> State:
            if not canonical:
                canonical.append(canonical_state(now, seat))
            return canonical[0].resample_from_infostate(seat, r)

    return Decision(
        game_id=state.game.info.id,
        seat=seat,
        observation=state.observation(seat),
        legal_actions=state.legal_actions(),
        legal_texts=state.legal_action_texts(),
        rng=rng,
        _sampler=sampler,
    )
