"""Engine speed on uniformly random games, through the public State API only, and the bots' decision times.

Every engine figure is the median of repeated runs (machines are noisy):
games and decisions per second of whole random games, microseconds per
``legal_actions``, ``apply_action`` and ``clone`` on states sampled from them,
and the iterations per second of the ``ismcts`` bot's search (the game's
default settings, 50 iterations a decision) from decisions sampled from them.

``bench_bots`` times the decisions of the bots as they play (``henge bench
--bots``): the median, 90th and 99th percentile and longest decision of
``ismcts``, ``rules-search`` and ``heuristic``, each game at its largest player count.
"""

from __future__ import annotations

import math
import random
import statistics
import time
from typing import Any

from rich.table import Table

import henge
from henge.agents import heuristics, level_names, make_agent, make_decision
from henge.agents.search_config import configured
from henge.agents.tree import search
from henge.core import CHANCE, TERMINAL, Game, State
from henge.records import agent_rng, play, sample_chance

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
    known = heuristics.knowledge(positions[0].game.info.id)
    config = configured(known, {"iterations": _SEARCH_ITERATIONS})
    iterations = 0
    seconds = 0.0
    for state in positions:
        seat = state.current_player()
        decision = make_decision(state, seat, random.Random(rng.random()), samples=True)
        result, _ = search(decision.sample_state, seat, decision.rng, config, known)
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


def bench_environment(game_id: str, *, seconds: float = 10.0, repeats: int = 5) -> dict[str, Any]:
    """Returns the research environment's figures of ``game_id`` (medians of ``repeats`` runs): steps
    per processor second of uniformly random play through the PettingZoo AEC environment (each step
    observes the seat to act: its information state tensor and action mask), episodes per processor
    second, and the microseconds of one seat's tensor (``seat_tensor``) on observations sampled from
    random games. Needs the ``research`` extra."""
    import numpy as np

    from henge.adapters.pettingzoo import raw_env
    from henge.core import seat_tensor

    players = bench_players(game_id)
    env = raw_env(game_id, players)
    rng = random.Random(12345)
    steps_runs: list[float] = []
    episode_runs: list[float] = []
    episode = 0
    for _ in range(repeats):
        steps = episodes = 0
        start = time.process_time()
        while time.process_time() - start < seconds / repeats:
            env.reset(seed=episode)
            episode += 1
            for _agent in env.agent_iter():
                observation, _, terminated, truncated, _ = env.last()
                if terminated or truncated:
                    env.step(None)
                else:
                    legal = np.flatnonzero(observation["action_mask"])
                    env.step(int(legal[int(rng.random() * len(legal))]))
                steps += 1
            episodes += 1
        spent = time.process_time() - start
        steps_runs.append(steps / spent)
        episode_runs.append(episodes / spent)
    samples = _sample_states(henge.load(game_id, players), rng)
    views = [state.observation(max(state.current_player(), 0)) for state, _ in samples]
    tensor_runs = []
    for _ in range(max(repeats, 5)):
        start = time.process_time()
        for view in views:
            seat_tensor(game_id, view)
        tensor_runs.append((time.process_time() - start) / len(views) * 1e6)
    return {
        "game": game_id,
        "players": players,
        "repeats": repeats,
        "seconds": seconds,
        "pettingzoo steps/cpu-s": statistics.median(steps_runs),
        "pettingzoo episodes/cpu-s": statistics.median(episode_runs),
        "us/seat_tensor": statistics.median(tensor_runs),
    }


def environments_table(results: list[dict[str, Any]]) -> Table:
    """Returns the environment figures as a Rich table."""
    out = Table(title="random play through the PettingZoo environment, medians of repeated runs (one core)")
    for column in ("game", "players", "steps/cpu-s", "episodes/cpu-s", "µs seat tensor"):
        out.add_column(column, justify="left" if column == "game" else "right")
    for r in results:
        out.add_row(
            r["game"],
            str(r["players"]),
            f"{r['pettingzoo steps/cpu-s']:,.0f}",
            f"{r['pettingzoo episodes/cpu-s']:,.1f}",
            f"{r['us/seat_tensor']:.1f}",
        )
    return out


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


# -- the bots' decisions --------------------------------------------------------------------

BOT_AGENTS = (*level_names(), "rules-search")
"""The levels and bots ``bench_bots`` times by default, each with its own settings."""
_SEARCH_DECISIONS = 300
_DECISIONS = 3000
_SPAN = 20
"""Player decisions a search bot plays from each starting point before the next one is drawn."""


def _percentile(ordered: list[float], q: float) -> float:
    """Returns the nearest-rank ``q`` percentile (0 < q <= 1) of sorted figures."""
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]


def _summary(times: list[float]) -> dict[str, float]:
    ordered = sorted(times)
    if not ordered:
        return {"median": 0.0, "p90": 0.0, "p99": 0.0, "max": 0.0}
    return {
        "median": statistics.median(ordered),
        "p90": _percentile(ordered, 0.9),
        "p99": _percentile(ordered, 0.99),
        "max": ordered[-1],
    }


def _timed_decisions(
    state: State,
    agents: list[Any],
    rngs: list[random.Random],
    chance: random.Random,
    budget: int,
    walls: list[float],
    cpus: list[float],
    limit: int,
    deadline: float,
) -> None:
    """Plays on from ``state`` with ``agents`` for ``budget`` player decisions, timing those with a choice."""
    while budget > 0 and not state.is_terminal() and len(walls) < limit and time.perf_counter() < deadline:
        seat = state.current_player()
        if seat == CHANCE:
            state.apply_action(sample_chance(state, chance))
            continue
        agent = agents[seat]
        choices = len(state.legal_actions())
        wall = time.perf_counter()
        cpu = time.process_time()
        decision = make_decision(state, seat, rngs[seat], samples=agent.needs_samples)
        action = agent.choose(decision)
        cpu = time.process_time() - cpu
        wall = time.perf_counter() - wall
        if choices > 1:
            walls.append(wall)
            cpus.append(cpu)
        state.apply_action(action)
        budget -= 1


def bench_bots(
    game_id: str,
    agent: str,
    *,
    seconds: float = 60.0,
    decisions: int | None = None,
    seed: int = 1,
    players: int | None = None,
) -> dict[str, Any]:
    """Times the decisions of bot ``agent`` (default settings) in seeded games of ``game_id``.

    The game is played at its largest player count, in this process. A bot
    that does not sample (``heuristic``) plays every seat of whole games. A
    search bot (``ismcts``) plays every seat, one bot per seat, for
    ``_SPAN`` player decisions from a point drawn uniformly from a game the
    rule-based player plays to the end with the same seed, so its
    decisions come from every stage of a game. Seeds run ``seed``,
    ``seed + 1``, ... until ``decisions`` decisions are timed (default: 300
    for a search bot, 3,000 for another) or ``seconds`` have passed.

    A decision's time is what its seat waits for: building the decision
    (for a search bot, with its sampler) and the bot's ``choose``, in
    wall-clock and processor seconds; only decisions with two or more legal
    actions are counted. Returns the median, 90th and 99th percentiles and
    the longest of each.
    """
    players = players or henge.game_class(game_id).info.max_players
    game = henge.load(game_id, players)
    search = make_agent(agent).needs_samples
    if decisions is None:
        decisions = _SEARCH_DECISIONS if search else _DECISIONS
    walls: list[float] = []
    cpus: list[float] = []
    games = 0
    start = time.perf_counter()
    deadline = start + seconds
    game_seed = seed
    while len(walls) < decisions and time.perf_counter() < deadline:
        rngs = [agent_rng(game_seed, s) for s in range(players)]
        chance = random.Random(f"henge/bench/{game_seed}/chance")
        agents = [make_agent(agent) for _ in range(players)]
        state = game.new_initial_state()
        budget = 1 << 30
        if search:
            moves = play(game, ["heuristic"] * players, seed=game_seed)["actions"]
            at = random.Random(f"henge/bench/{game_seed}/start").randrange(len(moves))
            for action in moves[:at]:
                state.apply_action(action)
            budget = _SPAN
        _timed_decisions(state, agents, rngs, chance, budget, walls, cpus, decisions, deadline)
        games += 1
        game_seed += 1
    return {
        "game": game_id,
        "players": players,
        "agent": agent,
        "games": games,
        "decisions": len(walls),
        "seconds": time.perf_counter() - start,
        "wall": _summary(walls),
        "cpu": _summary(cpus),
    }


def bots_table(results: list[dict[str, Any]]) -> Table:
    """Returns the bots' decision times as a Rich table (milliseconds)."""
    out = Table(title="bots: milliseconds per decision with a choice (one core, default settings)")
    for column in ("game", "players", "bot", "decisions", "median", "p90", "p99", "max", "cpu median", "cpu p90"):
        out.add_column(column, justify="left" if column in ("game", "bot") else "right")
    for r in results:
        wall, cpu = r["wall"], r["cpu"]
        out.add_row(
            r["game"],
            str(r["players"]),
            r["agent"],
            str(r["decisions"]),
            *(f"{1000 * wall[k]:.2f}" for k in ("median", "p90", "p99", "max")),
            f"{1000 * cpu['median']:.2f}",
            f"{1000 * cpu['p90']:.2f}",
        )
    return out
