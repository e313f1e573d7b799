"""Driving whole games with agents, and the game records that replay them (RULINGS G1)."""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from henge.agents import Agent, Decision, RandomAgent, is_cheating, make_agent, make_decision
from henge.core import (
    RECORD_FORMAT,
    RECORD_VERSION,
    TERMINAL,
    Chooser,
    Game,
    GameRecord,
    State,
    advance,
    agent_rng,
    chance_rng,
    random_chooser,
    sample_chance,
)

__all__ = [
    "RECORD_FORMAT",
    "RECORD_VERSION",
    "GameRecord",
    "agent_name",
    "agent_rng",
    "chance_rng",
    "chooser",
    "play",
    "play_record",
    "replay",
    "sample_chance",
]


def _agents(game: Game, agents: Sequence[Agent | str]) -> list[Agent]:
    if len(agents) != game.num_players:
        raise ValueError(
            f"{game.info.id} with {game.num_players} players needs {game.num_players} agents, not {len(agents)}"
        )
    return [make_agent(a) if isinstance(a, str) else a for a in agents]


def _choose(agent: Agent, decision: Decision, state: State) -> int:
    """Asks an agent for its action; only an evaluation-only cheat is shown the real state (a copy)."""
    if is_cheating(agent):
        return agent.choose_with_state(decision, state.clone())  # type: ignore[attr-defined]
    return agent.choose(decision)


def chooser(agent: Agent, rng: random.Random) -> Chooser:
    """Returns the chooser of a seat played by ``agent``: it makes the seat's decision with the seat's
    own generator ``rng`` and asks the agent (see :func:`henge.core.advance`). The random agent's is
    the core's :func:`~henge.core.random_chooser`, which makes the same pick without building the
    decision, so a game of random seats runs in the compiled driver alone."""
    if type(agent) is RandomAgent:
        return random_chooser(rng)

    def choose(state: State, seat: int) -> int:
        decision = make_decision(state, seat, rng, samples=getattr(agent, "needs_samples", False))
        return _choose(agent, decision, state)

    return choose


def agent_name(agent: Agent) -> str:
    """Returns the name a record gives an agent."""
    return getattr(agent, "name", type(agent).__name__)


def play(
    game: Game,
    agents: Sequence[Agent | str],
    *,
    seed: int | None = None,
    on_action: Callable[[State, int, str], None] | None = None,
) -> dict[str, Any]:
    """Plays one game to the end and returns its record (JSON-serialisable).

    ``agents`` holds one agent per seat: a bot name such as ``"random"`` or an
    object with ``choose(decision) -> action``. Chance is sampled from ``seed``.
    An agent that declares ``cheats = True`` (evaluation only) is handed a copy
    of the real state through ``choose_with_state(decision, state)``.
    ``on_action(state, action, text)`` is called before each action is applied.
    """
    return play_record(game, agents, seed=seed, on_action=on_action).as_json()


def play_record(
    game: Game,
    agents: Sequence[Agent | str],
    *,
    seed: int | None = None,
    on_action: Callable[[State, int, str], None] | None = None,
) -> GameRecord:
    """Plays one game to the end as :func:`play` does and returns its :class:`GameRecord`."""
    players = _agents(game, agents)
    if seed is None:
        seed = secrets.randbits(62)
    choosers = {seat: chooser(agent, agent_rng(seed, seat)) for seat, agent in enumerate(players)}
    state = game.new_initial_state()
    texts: list[str] = []

    def write(state: State, actor: int, action: int) -> None:
        text = state.action_to_string(action)
        if on_action is not None:
            on_action(state, action, text)
        texts.append(text)

    if advance(state, chance_rng(seed), choosers, write) != TERMINAL:  # pragma: no cover - every seat chooses
        raise RuntimeError("a seat without a chooser is to move")
    return GameRecord.of(game, state, seed=seed, agents=[agent_name(a) for a in players], texts=texts)


def replay(record: Mapping[str, Any]) -> list[State]:
    """Returns every state of a recorded game, from the initial one to the last."""
    return GameRecord.from_json(record).replay()
