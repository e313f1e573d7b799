"""Driving whole games with agents, and the game records that replay them (RULINGS G1)."""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from henge.agents import Agent, Decision, is_cheating, make_agent, make_decision
from henge.core import CHANCE, Game, State, load, sample_chance

RECORD_FORMAT = "henge-record"
RECORD_VERSION = 1


def chance_rng(seed: int) -> random.Random:
    """Returns the generator that samples chance outcomes for a game seed."""
    return random.Random(f"henge/{seed}/chance")


def agent_rng(seed: int, seat: int) -> random.Random:
    """Returns a seat's own generator; it tells nothing of the chance generator."""
    return random.Random(f"henge/{seed}/seat/{seat}")


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
    players = _agents(game, agents)
    if seed is None:
        seed = secrets.randbits(62)
    chance = chance_rng(seed)
    rngs = [agent_rng(seed, seat) for seat in range(game.num_players)]
    state = game.new_initial_state()
    actions: list[int] = []
    texts: list[str] = []
    while not state.is_terminal():
        seat = state.current_player()
        if seat == CHANCE:
            action = sample_chance(state, chance)
        else:
            agent = players[seat]
            decision = make_decision(state, seat, rngs[seat], samples=getattr(agent, "needs_samples", False))
            action = _choose(agent, decision, state)
        text = state.action_to_string(action)
        if on_action is not None:
            on_action(state, action, text)
        state.apply_action(action)
        actions.append(action)
        texts.append(text)
    return {
        "format": RECORD_FORMAT,
        "format_version": RECORD_VERSION,
        "game": game.info.id,
        "version": game.info.version,
        "players": game.num_players,
        "options": dict(game.options),
        "seed": seed,
        "agents": [getattr(a, "name", type(a).__name__) for a in players],
        "actions": actions,
        "texts": texts,
        "returns": state.returns(),
    }


def game_of(record: Mapping[str, Any]) -> Game:
    """Returns the game a record was played with; raises ValueError if it cannot be replayed."""
    if not isinstance(record, Mapping) or record.get("format") != RECORD_FORMAT:
        raise ValueError("not a henge game record (its 'format' must be 'henge-record')")
    if record.get("format_version") != RECORD_VERSION:
        raise ValueError(f"record format version {record.get('format_version')!r}; this henge reads {RECORD_VERSION}")
    options = record.get("options", {})
    if not isinstance(options, Mapping):
        raise ValueError("record field 'options' must be an object")
    game = load(record.get("game"), record.get("players"), **options)  # type: ignore[arg-type]
    if record.get("version") != game.info.version:
        raise ValueError(
            f"the record was made with {game.info.id} version {record.get('version')}; "
            f"this henge plays version {game.info.version}"
        )
    return game


def replay(record: Mapping[str, Any]) -> list[State]:
    """Returns every state of a recorded game, from the initial one to the last."""
    game = game_of(record)
    actions = record.get("actions")
    texts = record.get("texts")
    if not isinstance(actions, list):
        raise ValueError("record field 'actions' must be a list of action ids")
    if texts is not None and (not isinstance(texts, list) or len(texts) != len(actions)):
        raise ValueError("record field 'texts' must list one text per action")
    state = game.new_initial_state()
    states = [state.clone()]
    for step, action in enumerate(actions):
        if texts is not None and state.action_to_string(action) != texts[step]:
            raise ValueError(
                f"step {step}: action {action} is {state.action_to_string(action)!r}, the record says {texts[step]!r}"
            )
        state.apply_action(action)
        states.append(state.clone())
    return states
