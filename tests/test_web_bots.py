"""Bots think in worker processes: bounded in number, in processor time, and out of the server's way."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import sys
import time
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

import pytest
from click.testing import CliRunner
from games.first_druid.first_druid_positions import first_turn
from web_support import create, credentials, database, live_table, running, seat

import henge.server
from henge.cli import main
from henge.server.bots import QUICK, SEARCH, BotPool, default_workers

pytestmark = pytest.mark.timeout(120)


def _cpu_seconds(pid: int) -> float:
    """Returns the processor time (user and system) a process has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@pytest.mark.slow
def test_bots_think_in_a_bounded_pool_of_other_processes_while_people_are_answered(tmp_path):
    """Two tables of search bots think while a person plays at a third: every action of the person
    is acknowledged, the search bots' processor time is spent in their lane's worker processes (no
    more than the pool's bound), the random bots answer from the other lane, and the server's own
    process spends less than the search bots do."""
    with running(database(tmp_path / "h.db")) as client:
        app = client.app
        pool = app.state.tables.bots  # type: ignore[attr-defined]
        pool_size = pool.workers
        busy = [
            create(client, game="stonerush", players=3, seats=[{"kind": "bot", "bot": "ismcts"}] * 3)["id"]
            for _ in range(2)
        ]
        created = create(client, game="stonerush", players=3, bot="random")
        number, token = credentials(created["links"][0]["url"])
        deadline = time.monotonic() + 20
        while not pool.pids(SEARCH) and time.monotonic() < deadline:
            time.sleep(0.05)
        workers = pool.pids(SEARCH)
        assert 1 <= len(workers) <= pool_size
        server_before = time.process_time()
        workers_before = sum(_cpu_seconds(pid) for pid in workers)
        moves_before = [live_table(client, t).state.move_number() for t in busy]
        acks = 0
        rng = random.Random(1)
        with seat(client, created["id"], number, token) as person:
            while acks < 40:
                view = person.until_turn_or_end()
                if view["over"]:
                    break
                assert person.act(rng.choice(view["legal"])["id"])["type"] == "ack"
                acks += 1
                assert len(pool.pids(SEARCH)) <= pool_size and len(pool.pids(QUICK)) <= pool_size
        # The bots think on (at a lower priority: on a busy machine they may get a core only slowly).
        deadline = time.monotonic() + 60
        while sum(_cpu_seconds(pid) for pid in workers) - workers_before < 1.0 and time.monotonic() < deadline:
            time.sleep(0.1)
        server_spent = time.process_time() - server_before
        workers_spent = sum(_cpu_seconds(pid) for pid in workers) - workers_before
        moves_after = [live_table(client, t).state.move_number() for t in busy]
    assert acks >= 10
    assert all(after > before for before, after in zip(moves_before, moves_after, strict=True))
    assert workers_spent >= 1.0, workers_spent
    assert server_spent < workers_spent, (server_spent, workers_spent)


def test_a_decision_past_its_processor_time_is_stopped_and_a_drawn_action_played():
    state = first_turn()
    seat_to_move = state.current_player()

    async def decide() -> tuple[int, int]:
        pool = BotPool(1, 0.05)
        try:
            action = await pool.choose(
                "ismcts:iterations=1000000:seconds=none", state.clone(), seat_to_move, random.Random(1)
            )
            return action, pool.overtime
        finally:
            pool.close()

    action, overtime = asyncio.run(decide())
    assert overtime == 1
    assert action in state.legal_actions()


def test_a_worker_that_dies_is_replaced_for_the_next_decision():
    state = first_turn()
    seat_to_move = state.current_player()

    async def decide() -> list[str]:
        pool = BotPool(1, 60.0)
        outcomes = []
        try:
            thinking = asyncio.ensure_future(
                pool.choose("ismcts:iterations=1000000:seconds=none", state.clone(), seat_to_move, random.Random(1))
            )
            for _ in range(400):
                await asyncio.sleep(0.05)
                if pool.pids():
                    break
            os.kill(pool.pids()[0], signal.SIGKILL)
            try:
                await thinking
            except BrokenProcessPool:
                outcomes.append("broken")
            action = await pool.choose("random", state.clone(), seat_to_move, random.Random(2))
            outcomes.append("legal" if action in state.legal_actions() else "illegal")
        finally:
            pool.close()
        return outcomes

    assert asyncio.run(decide()) == ["broken", "legal"]


_KILLED_SERVER = """
import asyncio, multiprocessing.forkserver, random, time
from henge.core import load
from henge.server.bots import BotPool
state = load("fightin", 2).new_initial_state()
while state.is_chance_node():
    state.apply_action(state.legal_actions()[0])
pool = BotPool(2)
for lane_bot in ("random", "ismcts:iterations=5"):
    asyncio.run(pool.choose(lane_bot, state.clone(), state.current_player(), random.Random(1)))
print(*pool.pids(), multiprocessing.forkserver._forkserver._forkserver_pid, flush=True)
time.sleep(600)
"""


def _running(pid: int) -> bool:
    """Returns whether a process exists and has not ended (a zombie waiting to be reaped has)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads the process table in /proc")
def test_no_worker_outlives_a_server_killed_outright():
    """A server killed with SIGKILL cannot stop its pool: its workers end by themselves, and with them
    the process they were forked from."""
    server = subprocess.Popen([sys.executable, "-c", _KILLED_SERVER], stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        pids = [int(word) for word in server.stdout.readline().split()]
    finally:
        server.kill()
        server.wait()
    assert len(pids) >= 3  # a worker in each lane, and the process they are forked from
    deadline = time.monotonic() + 20
    while any(map(_running, pids)) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not [pid for pid in pids if _running(pid)]


@pytest.mark.parametrize(
    ("workers", "seconds"), [(-1, 1.0), (65, 1.0), (True, 1.0), (1.5, 1.0), (1, 0.0), (1, -2.0), (1, 4000.0)]
)
def test_bad_pool_sizes_and_times_are_refused(workers, seconds):
    with pytest.raises(ValueError, match=r"bot workers|processor time"):
        BotPool(workers, seconds)


def test_henge_serve_passes_the_bot_pool_options(monkeypatch):
    seen: dict[str, object] = {}
    monkeypatch.setattr(henge.server, "serve", lambda **options: seen.update(options))
    result = CliRunner().invoke(main, ["serve", "--bot-workers", "3", "--bot-seconds", "2.5"])
    assert result.exit_code == 0, result.output
    assert (seen["bot_workers"], seen["bot_seconds"]) == (3, 2.5)
    result = CliRunner().invoke(main, ["serve"])
    assert (seen["bot_workers"], seen["bot_seconds"]) == (None, 10.0)
    assert CliRunner().invoke(main, ["serve", "--bot-workers", "99"]).exit_code == 2
    assert default_workers() == max(1, (os.cpu_count() or 2) - 1)
