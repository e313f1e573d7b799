"""A tournament's games: its configuration, the seat arrangements and seeds, playing them in worker processes."""

from __future__ import annotations

import itertools
import multiprocessing
import random
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from henge.agents import Decision, check_agent, is_cheating, make_agent
from henge.core import State, load
from henge.records import play_record

RESULTS_FORMAT = "henge-tournament"


@dataclass(frozen=True)
class TournamentConfig:
    """What a tournament plays: the game, its seats, the agents, how many games and the seed."""

    game_id: str
    players: int
    agents: tuple[str, ...]
    games: int
    seed: int = 0
    options: dict[str, Any] = field(default_factory=dict)

    def validate(self) -> None:
        """Raises ValueError if the game, seats, agents or number of games are wrong."""
        load(self.game_id, self.players, **self.options)
        if not self.agents:
            raise ValueError("name at least one agent")
        if len(set(self.agents)) != len(self.agents):
            raise ValueError("name each agent once")
        for spec in self.agents:
            check_agent(spec, self.game_id, evaluation=True, players=self.players, options=self.options)
        if self.games < 1:
            raise ValueError(f"play at least one game, not {self.games}")


def lineups(agents: Sequence[str], players: int) -> list[tuple[str, ...]]:
    """Returns every seat assignment of a balanced rotation (see the module docstring), in a fixed order."""
    k = len(agents)
    base, extra = divmod(players, k)
    found: list[tuple[str, ...]] = []
    for lucky in itertools.combinations(range(k), extra):
        seats: list[str] = []
        for index, agent in enumerate(agents):
            seats.extend([agent] * (base + (index in lucky)))
        found.extend(sorted(set(itertools.permutations(seats)), key=lambda p: [agents.index(a) for a in p]))
    return found


def game_seed(seed: int, cycle: int) -> int:
    """Returns the seed of every game of one rotation cycle."""
    return random.Random(f"henge/tournament/{seed}/{cycle}").getrandbits(62)


def win_shares(returns: Sequence[float]) -> list[float]:
    """Returns each seat's share of the win: the seats with the best return share 1."""
    best = max(returns)
    top = [r == best for r in returns]
    share = 1.0 / sum(top)
    return [share if t else 0.0 for t in top]


class _Timed:
    """Wraps an agent to count its decisions and time them."""

    def __init__(self, agent: Any) -> None:
        self.agent = agent
        self.name: str = agent.name
        self.needs_samples: bool = agent.needs_samples
        self.cheats: bool = is_cheating(agent)
        self.decisions = 0
        self.seconds = 0.0
        self.cpu_seconds = 0.0
        self.longest = 0.0

    def _timed(self, call: Callable[[], int]) -> int:
        start = time.perf_counter()
        cpu = time.process_time()
        action = call()
        spent = time.perf_counter() - start
        self.cpu_seconds += time.process_time() - cpu
        self.decisions += 1
        self.seconds += spent
        self.longest = max(self.longest, spent)
        return action

    def choose(self, decision: Decision) -> int:
        return self._timed(lambda: self.agent.choose(decision))

    def choose_with_state(self, decision: Decision, state: State) -> int:
        return self._timed(lambda: self.agent.choose_with_state(decision, state))


@dataclass(frozen=True)
class _Task:
    index: int
    game_id: str
    players: int
    options: dict[str, Any]
    lineup: tuple[str, ...]
    seed: int
    keep_actions: bool = False
    """Whether the result keeps the game's actions (the analysis replays them; a tournament does not)."""


def play_game(task: _Task) -> dict[str, Any]:
    """Plays one game of a tournament; returns its result with per-seat timings (and its ``actions``
    when the task keeps them).

    ``game_cpu_seconds`` is the processor time of the whole game in its process (rules, bots and set-up).
    """
    cpu = time.process_time()
    game = load(task.game_id, task.players, **task.options)
    seats = [_Timed(make_agent(spec, evaluation=True)) for spec in task.lineup]
    record = play_record(game, seats, seed=task.seed)
    return {
        "index": task.index,
        "seed": task.seed,
        "lineup": list(task.lineup),
        "returns": record.returns,
        "length": len(record.actions),
        "decisions": [s.decisions for s in seats],
        "seconds": [s.seconds for s in seats],
        "cpu_seconds": [s.cpu_seconds for s in seats],
        "longest": [s.longest for s in seats],
        "game_cpu_seconds": time.process_time() - cpu,
    } | ({"actions": record.actions} if task.keep_actions else {})


def tasks(config: TournamentConfig) -> list[_Task]:
    """Returns the games of a tournament, in order."""
    table = lineups(config.agents, config.players)
    return [
        _Task(
            i,
            config.game_id,
            config.players,
            dict(config.options),
            table[i % len(table)],
            game_seed(config.seed, i // len(table)),
        )
        for i in range(config.games)
    ]


def run(
    config: TournamentConfig,
    *,
    workers: int = 1,
    on_game: Callable[[dict[str, Any]], None] | None = None,
) -> list[dict[str, Any]]:
    """Plays every game of a tournament in ``workers`` processes; returns the results in game order."""
    config.validate()
    with _players(workers) as play_all:
        return _play_games(play_all, tasks(config), on_game)


@contextmanager
def _players(workers: int) -> Iterator[Callable[[list[_Task]], Iterator[dict[str, Any]]]]:
    """Yields a function that plays tasks here (one worker) or in a pool of processes, results in any order."""
    if workers <= 1:
        yield lambda todo: map(play_game, todo)
        return
    with multiprocessing.get_context().Pool(workers) as pool:
        yield lambda todo: pool.imap_unordered(play_game, todo, chunksize=1)


def _play_games(
    play_all: Callable[[list[_Task]], Iterator[dict[str, Any]]],
    todo: list[_Task],
    on_game: Callable[[dict[str, Any]], None] | None,
) -> list[dict[str, Any]]:
    results: list[dict[str, Any]] = []
    for result in play_all(todo):
        results.append(result)
        if on_game is not None:
            on_game(result)
    results.sort(key=lambda r: r["index"])
    return results
