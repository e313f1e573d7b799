"""Playing an analysis's games: one function per game, run here, in a process pool or as Ray tasks.

A game is a tournament task (:mod:`henge.tournament`: its seat arrangement and seed) played by
:func:`henge.tournament.play_game`; :func:`play_job` then replays its actions to read the figures
the analysis needs (the lead after each turn, the game's own figures) and returns one row. A row
depends only on its task, so the rows, sorted back into the order of the jobs, are the same
whichever way the games were spread out.
"""

from __future__ import annotations

import importlib.util
import logging
import multiprocessing
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any

from henge.agents import heuristics
from henge.analysis.stats import decided_at, lead_changes, leaders
from henge.core import Game, load, plugin
from henge.tournament import play_game, win_shares
from henge.tournament.games import _Task


@dataclass(frozen=True)
class Job:
    """One game to play: ``label`` is "" for an analysis's own games, else the searching bot of a
    skill-trace game (the agent of its seat)."""

    label: str
    task: _Task
    run: int = 0
    """Which analysis of a sweep the game belongs to."""


def play_job(job: Job) -> dict[str, Any]:
    """Plays one game and returns its row: seats, returns, the order of play (the seats in the
    order of their first decisions), length, rounds, cap, lead figures and the game's own figures
    (``figures``)."""
    start = time.process_time()
    task = job.task
    result = play_game(replace(task, keep_actions=True))
    game = load(task.game_id, task.players, **task.options)
    actions: list[int] = result["actions"]
    returns: list[float] = result["returns"]
    winners = [seat for seat, share in enumerate(win_shares(returns)) if share > 0]
    trace = _lead_trace(game, actions)
    hook = plugin(task.game_id).load_metrics()
    figures = dict(hook(game, actions, returns)) if hook is not None else {}
    rounds = figures.pop("rounds", trace.rounds)
    capped = figures.pop("capped", None)
    points = trace.points
    return {
        "run": job.run,
        "label": job.label,
        "index": task.index,
        "seed": task.seed,
        "agents": list(task.lineup),
        "returns": returns,
        "winners": winners,
        "order": trace.order,
        "length": len(actions),
        "rounds": int(rounds),
        "capped": None if capped is None else int(capped),
        "lead_changes": lead_changes([p for _, p in points] + [frozenset(winners)]) if trace.evaluated else None,
        "decided_at": decided_at(points, winners, task.players) if trace.evaluated else None,
        "figures": figures,
        "decisions": sum(result["decisions"]),
        "cpu_seconds": result["game_cpu_seconds"] + time.process_time() - start,
    }


@dataclass
class _Trace:
    points: list[tuple[float, frozenset[int]]]
    """(fraction of the game, leaders) at the start of every turn."""
    rounds: int
    """The most turns one seat took: the round count of a game that reports none."""
    evaluated: bool
    order: list[int]
    """The seats in the order of their first decisions (the first player first)."""


def _lead_trace(game: Game, actions: Sequence[int]) -> _Trace:
    """Replays a game and evaluates the position whenever a new seat comes to decide (a turn)."""
    evaluate = heuristics.evaluator(game.info.id)
    state = game.new_initial_state()
    points: list[tuple[float, frozenset[int]]] = []
    turns = [0] * game.num_players
    order: list[int] = []
    last = -1
    length = len(actions)
    for step, action in enumerate(actions):
        seat = state.current_player()
        if seat >= 0 and seat != last:
            if not turns[seat]:
                order.append(seat)
            turns[seat] += 1
            last = seat
            if evaluate is not None:
                points.append((step / length, leaders(evaluate(state))))
        state.apply_action(action)
    order.extend(seat for seat in range(game.num_players) if seat not in order)  # seats that never decided
    return _Trace(points, max(turns), evaluate is not None, order)


# --- where the games run ---------------------------------------------------------------------


class RayUnavailableError(RuntimeError):
    """Ray is not installed, or the cluster cannot be reached."""


def ray_installed() -> bool:
    """Returns True if Ray can be imported."""
    return importlib.util.find_spec("ray") is not None


def execute(
    jobs: Sequence[Job],
    *,
    workers: int = 1,
    ray_address: str | None = None,
    on_row: Callable[[dict[str, Any]], None] | None = None,
) -> list[dict[str, Any]]:
    """Plays every job (here, in ``workers`` processes, or as Ray tasks on ``ray_address``) and
    returns the rows in the order of the jobs; ``on_row`` is called as each game finishes."""
    rows: list[dict[str, Any]] = []
    with _runner(workers, ray_address) as run_all:
        for row in run_all(list(jobs)):
            rows.append(row)
            if on_row is not None:
                on_row(row)
    order = {(job.run, job.label, job.task.index): position for position, job in enumerate(jobs)}
    rows.sort(key=lambda row: order[(row["run"], row["label"], row["index"])])
    return rows


Runner = Callable[[list[Job]], Iterator[dict[str, Any]]]


@contextmanager
def _runner(workers: int, ray_address: str | None) -> Iterator[Runner]:
    if ray_address is not None:
        with _ray_runner(ray_address) as run_all:
            yield run_all
        return
    if workers <= 1:
        yield lambda todo: map(play_job, todo)
        return
    with multiprocessing.get_context().Pool(workers) as pool:
        yield lambda todo: pool.imap_unordered(play_job, todo, chunksize=1)


@contextmanager
def _ray_runner(address: str) -> Iterator[Runner]:
    """Ray tasks over :func:`play_job`. ``auto`` joins the Ray instance this machine runs (or the
    one ``RAY_ADDRESS`` names) and starts a local one, with a worker per core, if there is none;
    any other address is a cluster to join."""
    if not ray_installed():
        raise RayUnavailableError("--ray needs Ray: pip install 'henge[ray]'")
    import ray

    if not ray.is_initialized():
        settings: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False, "logging_level": logging.ERROR}
        if address != "auto":
            settings["address"] = address
        try:
            ray.init(**settings)  # no address: the running instance (or RAY_ADDRESS's), else a new local one
        except (ConnectionError, RuntimeError, ValueError) as error:
            raise RayUnavailableError(f"cannot reach the Ray cluster at {address!r}: {error}") from None
    remote = ray.remote(play_job)

    def run_all(todo: list[Job]) -> Iterator[dict[str, Any]]:
        pending = [remote.remote(job) for job in todo]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            yield ray.get(done[0])

    try:
        yield run_all
    finally:
        ray.shutdown()
