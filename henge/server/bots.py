"""Bots think in worker processes: never in the server's process, never holding its interpreter lock.

A bot's decision is a job for a small pool of worker processes
(:class:`BotPool`). The server's event loop only hands over the table's
state and waits, so a person's action is checked, stored and acknowledged
however many bots are thinking. The pool caps what bots may take of the
machine as a whole:

- at most ``workers`` processes think at once in each of two lanes
  (default: one core fewer than the machine has, at least one): one lane
  for the bots that search, one for the quick rule-based and random
  players, so that a quick bot never waits behind a search; further
  decisions wait their turn in their lane, first come first served;
- the workers run at a lower priority (``nice`` 10), so the server's own
  process gets a core first whenever it wants one;
- one decision may use at most ``seconds`` of processor time; past that it
  is stopped (a ``SIGPROF`` timer inside the worker) and the bot plays a
  legal action drawn by its own generator instead;
- a worker ends when the server's process does, however that ends (killed
  with ``SIGKILL`` included), so no worker outlives its server.

Inside a worker, the decision is made exactly as in any other place a bot
plays (:func:`henge.agents.make_decision`): the bot sees its seat's
observation, legal actions and a sampler of the states its seat cannot
tell apart, never the state handed to the worker.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import random
import signal
import threading
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from henge.agents import Agent, make_agent, make_decision
from henge.core import State

log = logging.getLogger("henge.server")

BOT_SECONDS = 10.0
"""The processor time one bot decision may take by default (seconds)."""
MAX_BOT_WORKERS = 64
"""The most worker processes a server may ask for."""
_NICE = 10


def default_workers() -> int:
    """Returns the default number of bot processes: one core fewer than the machine has, at least one."""
    return max(1, (os.cpu_count() or 2) - 1)


class OverTime(Exception):
    """Raised inside a worker when a decision has used up its processor time."""


def _on_overtime(_signum: int, _frame: Any) -> None:
    raise OverTime


def _start_worker() -> None:
    """Runs once in each worker: a lower priority, the processor-time alarm, and a watch on the server."""
    with contextlib.suppress(OSError):
        os.nice(_NICE)
    signal.signal(signal.SIGPROF, _on_overtime)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C stops the server, which stops its workers
    server = multiprocessing.parent_process()
    if server is not None:
        threading.Thread(target=_end_with, args=(server,), name="server watch", daemon=True).start()


def _end_with(server: Any) -> None:
    """Ends this worker once the server's process has ended. A server killed outright cannot stop its
    pool, and a worker waiting for its next job would wait for ever (it holds the job queue's other
    end itself), keeping the process it was forked from alive with it."""
    server.join()
    os._exit(0)


_agents: dict[str, Agent] = {}
"""The bots a worker has made, by their spec (bots keep nothing between decisions)."""


def think(spec: str, state: State, seat: int, rng: random.Random, seconds: float | None) -> tuple[int, bool]:
    """Returns ``(action, in_time)``: the bot ``spec``'s choice at ``seat``, or, if it took more than
    ``seconds`` of processor time, a legal action drawn by ``rng`` and ``False`` (``seconds`` None: no
    limit, as in the server's own process, where the alarm would go off in the event loop)."""
    agent = _agents.get(spec)
    if agent is None:
        agent = _agents[spec] = make_agent(spec)
    if seconds is None:
        return agent.choose(make_decision(state, seat, rng, samples=agent.needs_samples)), True
    legal = state.legal_actions()
    fallback = random.Random(rng.random())  # drawn before the bot uses the generator
    try:
        signal.setitimer(signal.ITIMER_PROF, seconds)
        try:
            decision = make_decision(state, seat, rng, samples=agent.needs_samples)
            action = agent.choose(decision)
        finally:
            signal.setitimer(signal.ITIMER_PROF, 0)
    except OverTime:
        return legal[int(fallback.random() * len(legal))], False
    return action, True


SEARCH, QUICK = "search", "quick"
"""The two lanes of the pool: bots that search (they ask for sampled states), and the others."""


class BotPool:
    """The worker processes bots think in, made when a bot first needs them.

    Two lanes, each of ``workers`` processes: one for the bots that search (``ismcts``), one for
    the quick ones (the rule-based and random players), so a quick bot never waits behind a search.
    ``workers=0`` makes bots think in a thread of the server's own process instead, with no limit
    on their processor time: for debugging, and for tests that look inside a bot.
    """

    def __init__(self, workers: int | None = None, seconds: float = BOT_SECONDS) -> None:
        count = default_workers() if workers is None else workers
        if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= MAX_BOT_WORKERS:
            raise ValueError(f"bot workers are a whole number from 0 to {MAX_BOT_WORKERS}, not {workers!r}")
        if not (isinstance(seconds, int | float) and 0 < seconds <= 3600):
            raise ValueError(f"a bot's processor time per decision is above 0 and at most 3600 s, not {seconds!r}")
        self.workers = count
        self.seconds = float(seconds)
        self._executors: dict[str, Executor] = {}
        self._lanes: dict[str, str] = {}
        self.overtime = 0
        """Decisions stopped for taking too long (their bots played a drawn action instead)."""

    def lane(self, spec: str) -> str:
        """Returns the lane a bot thinks in: :data:`SEARCH` if it asks for sampled states, else :data:`QUICK`."""
        lane = self._lanes.get(spec)
        if lane is None:
            lane = self._lanes[spec] = SEARCH if make_agent(spec).needs_samples else QUICK
        return lane

    def _pool(self, lane: str) -> Executor:
        executor = self._executors.get(lane)
        if executor is None:
            # forkserver: a clean process to fork workers from (the server has threads and an event
            # loop, which must not be forked), with the engine and bots imported once.
            context = multiprocessing.get_context("forkserver")
            context.set_forkserver_preload(["henge.core", "henge.agents", "henge.server.bots"])
            executor = ProcessPoolExecutor(self.workers, mp_context=context, initializer=_start_worker)
            self._executors[lane] = executor
        return executor

    async def choose(self, spec: str, state: State, seat: int, rng: random.Random) -> int:
        """Returns the bot ``spec``'s action at ``seat`` of ``state``, thought out in a worker process."""
        if self.workers == 0:
            action, _ = await asyncio.to_thread(think, spec, state, seat, rng, None)
            return action
        loop = asyncio.get_running_loop()
        lane = self.lane(spec)
        try:
            action, in_time = await loop.run_in_executor(self._pool(lane), think, spec, state, seat, rng, self.seconds)
        except BrokenProcessPool:
            # A worker died (killed from outside, or out of memory): a new pool for the next decision.
            self._close(lane)
            raise
        if not in_time:
            self.overtime += 1
            log.warning("a %s bot took more than %g s of processor time and played a drawn action", spec, self.seconds)
        return action

    def pids(self, lane: str | None = None) -> list[int]:
        """Returns the process ids of the workers running now, of one lane or of both (for monitoring)."""
        pids: list[int] = []
        for name, executor in self._executors.items():
            if lane is None or name == lane:
                processes: dict[int, Any] = getattr(executor, "_processes", None) or {}
                pids.extend(processes)
        return sorted(pids)

    def _close(self, lane: str) -> None:
        executor = self._executors.pop(lane, None)
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        """Stops the workers (a decision still being thought out is dropped)."""
        for lane in list(self._executors):
            self._close(lane)
