"""Engine speed on uniformly random games, through the public State API only.

Every figure is the median of repeated runs (machines are noisy): games and
decisions per second of whole random games, microseconds per
``legal_actions``, ``apply_action`` and ``clone`` on states sampled from them,
and the iterations per second of the ``ismcts`` bot's search (the game's
default settings, 50 iterations a decision) from decisions sampled from them.
"""

from __future__ import annotations

import random
import statistics
import time
from typing import Any

from rich.table import Table

import henge
from henge.agents import heuristics, make_decision
from henge.agents.ismcts import config_for, search
from henge.engine import CHANCE, TERMINAL, Game, State

_SAMPLE_STATES = 400
_SEARCH_POSITIONS = 8
_SEARCH_ITERATIONS = 50


def bench_players(game_id: str) -> int:
    """Returns the player count a game is measured at: 4 where allowed, else the nearest."""
    info = henge.game_class(game_id).info
    return min(max(4, info.min_players), info.max_players)


def _random_game(game: Game, rng: random.Random) -> tuple[int, int]:
    """Plays one uniformly random game; returns (decisions, chance events)."""
    state = game.new_initial_state()
    decisions = chances = 0
    while True:
        player = state.current_player()
        if player == TERMINAL:
            return decisions, chances
        if player == CHANCE:
            outcomes = state.chance_outcomes()
            r = rng.random()
            action = outcomes[-1][0]
            for outcome, probability in outcomes:
                r -= probability
                if r < 0:
                    action = outcome
                    break
            chances += 1
        else:
            legal = state.legal_actions()
            action = legal[int(rng.random() * len(legal))]
            decisions += 1
        state.apply_action(action)


def _sample_states(game: Game, rng: random.Random) -> list[tuple[State, int]]:
    """Returns (state before legal_actions was asked, a legal action) pairs from random games."""
    samples: list[tuple[State, int]] = []
    while len(samples) < _SAMPLE_STATES:
        state = game.new_initial_state()
        while not state.is_terminal() and len(samples) < _SAMPLE_STATES:
            fresh = state.clone()
            legal = state.legal_actions()
            action = legal[int(rng.random() * len(legal))]
            if rng.random() < 0.2:
                samples.append((fresh, action))
            state.apply_action(action)
    return samples


def _per_call(samples: list[tuple[State, int]], what: str) -> float:
    """Returns microseconds per call of ``what`` over fresh copies of the sample states."""
    states = [s.clone() for s, _ in samples]
    if what == "apply_action":
        for s in states:
            s.legal_actions()  # in play the legal set is known before an action is chosen
    start = time.perf_counter()
    if what == "legal_actions":
        for s in states:
            s.legal_actions()
    elif what == "apply_action":
        for s, (_, action) in zip(states, samples, strict=True):
            s.apply_action(action)
    else:
        for s in states:
            s.clone()
    return (time.perf_counter() - start) / len(states) * 1e6


def _search_speed(samples: list[tuple[State, int]], rng: random.Random) -> float:
    """Returns ISMCTS iterations per second over decisions (two or more legal actions) among the samples."""
    positions = [s for s, _ in samples if not s.is_chance_node() and len(s.legal_actions()) > 1]
    positions = positions[:: max(1, len(positions) // _SEARCH_POSITIONS)][:_SEARCH_POSITIONS]
    if not positions:
        return 0.0
    game_id = positions[0].game.info.id
    config = config_for(game_id, {"iterations": _SEARCH_ITERATIONS})
    evaluate = heuristics.evaluator(game_id)
    policy = heuristics.guide(game_id)
    iterations = 0
    seconds = 0.0
    for state in positions:
        seat = state.current_player()
        decision = make_decision(state, seat, random.Random(rng.random()), samples=True)
        result, _ = search(decision.sample_state, seat, decision.rng, config, evaluate, policy=policy)
        iterations += result.iterations
        seconds += result.seconds
    return iterations / seconds


def bench_game(game_id: str, *, seconds: float = 10.0, repeats: int = 5, players: int | None = None) -> dict[str, Any]:
    """Returns the median speed figures of ``game_id`` over ``repeats`` runs of ``seconds / repeats``."""
    players = players or bench_players(game_id)
    game = henge.load(game_id, players)
    rng = random.Random(12345)
    runs: dict[str, list[float]] = {k: [] for k in ("games/s", "decisions/s", "actions/s")}
    for _ in range(repeats):
        games = decisions = actions = 0
        start = time.perf_counter()
        deadline = start + seconds / repeats
        while True:
            d, c = _random_game(game, rng)
            games += 1
            decisions += d
            actions += d + c
            now = time.perf_counter()
            if now >= deadline:
                break
        elapsed = now - start
        runs["games/s"].append(games / elapsed)
        runs["decisions/s"].append(decisions / elapsed)
        runs["actions/s"].append(actions / elapsed)
    samples = _sample_states(game, rng)
    micro: dict[str, list[float]] = {"legal_actions": [], "apply_action": [], "clone": []}
    for _ in range(max(repeats, 5)):
        for what in micro:
            micro[what].append(_per_call(samples, what))
    searches = [_search_speed(samples, rng) for _ in range(repeats)]
    result: dict[str, Any] = {"game": game_id, "players": players, "repeats": repeats, "seconds": seconds}
    result.update({k: statistics.median(v) for k, v in runs.items()})
    result.update({f"us/{k}": statistics.median(v) for k, v in micro.items()})
    result["ismcts_iterations/s"] = statistics.median(searches)
    return result


def table(results: list[dict[str, Any]]) -> Table:
    """Returns the figures as a Rich table."""
    out = Table(title="random play, medians of repeated runs (one core)")
    for column in (
        "game",
        "players",
        "games/s",
        "decisions/s",
        "actions/s",
        "µs legal_actions",
        "µs apply_action",
        "µs clone",
        "ismcts it/s",
    ):
        out.add_column(column, justify="left" if column == "game" else "right")
    for r in results:
        out.add_row(
            r["game"],
            str(r["players"]),
            f"{r['games/s']:,.1f}",
            f"{r['decisions/s']:,.0f}",
            f"{r['actions/s']:,.0f}",
            f"{r['us/legal_actions']:.2f}",
            f"{r['us/apply_action']:.2f}",
            f"{r['us/clone']:.2f}",
            f"{r['ismcts_iterations/s']:,.0f}",
        )
    return out
