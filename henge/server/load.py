"""A load test of a running server: people acting at many tables while search bots think elsewhere.

:func:`run_load` plays, against the server at a base URL, ``tables`` tables
each with one person (a WebSocket client of this module, choosing seeded
random legal actions as fast as its views arrive) and bots in the other
seats, while ``search_tables`` tables of search bots only (``ismcts``) keep
the server's bot workers busy. Each person numbers its actions (``seq``)
and times each from sending it to its acknowledgement. A finished game is
replaced by a new table. It stops by itself after ``seconds``.

:func:`serve_and_load` starts ``henge serve`` in a subprocess on a fresh
SQLite database, with limits raised for one address acting for many
people, and runs :func:`run_load` against it (``henge bench --server``).
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect

from henge.server.store import Store

LOAD_LIMITS = [
    "--tables-per-minute",
    "100000",
    "--table-burst",
    "100000",
    "--actions-per-second",
    "100000",
    "--action-burst",
    "100000",
    "--reads-per-second",
    "100000",
    "--read-burst",
    "100000",
]
"""``henge serve`` options for a load test: one address acts for every person."""


@dataclass
class LoadReport:
    """What a load test measured."""

    seconds: float
    tables: int
    search_tables: int
    acks: int = 0
    errors: list[str] = field(default_factory=list)
    latencies: list[float] = field(default_factory=list)
    games_finished: int = 0
    bot_moves: int = 0
    """Actions taken at the search bots' tables during the run (counted by :func:`serve_and_load`)."""
    search_table_ids: list[str] = field(default_factory=list)
    acks_at: dict[tuple[str, int], int] = field(default_factory=dict)
    """Acknowledged actions per person: ``(table id, seat)``."""
    unstored: int = 0
    """People whose stored actions are not their acknowledged ones (counted by :func:`serve_and_load`)."""

    def summary(self) -> dict[str, Any]:
        """Returns the figures: acknowledgements per second and action latency percentiles (ms)."""
        ordered = sorted(self.latencies)

        def percentile(q: float) -> float | None:
            if not ordered:
                return None
            return round(1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))], 2)

        return {
            "seconds": round(self.seconds, 2),
            "tables": self.tables,
            "search_tables": self.search_tables,
            "acks": self.acks,
            "acks_per_second": round(self.acks / self.seconds, 1) if self.seconds else 0.0,
            "p50_ms": percentile(0.5),
            "p99_ms": percentile(0.99),
            "max_ms": round(1000 * ordered[-1], 2) if ordered else None,
            "mean_ms": round(1000 * statistics.fmean(ordered), 2) if ordered else None,
            "games_finished": self.games_finished,
            "search_bot_moves": self.bot_moves,
            "errors": len(self.errors),
            "acks_not_stored": self.unstored,
        }


def _post(base: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(
        base.rstrip("/") + path, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        answer: dict[str, Any] = json.loads(response.read())
        return answer


def _get(base: str, path: str) -> dict[str, Any]:
    with urllib.request.urlopen(base.rstrip("/") + path, timeout=30) as response:
        answer: dict[str, Any] = json.loads(response.read())
        return answer


def _ws_url(base: str, table_id: str) -> str:
    return re.sub(r"^http", "ws", base.rstrip("/")) + f"/ws/tables/{table_id}"


async def _person(
    base: str, game: str, players: int, bot: str, rng: random.Random, until: float, report: LoadReport
) -> None:
    """One person: plays tables one after another until ``until``, timing every action."""
    while time.monotonic() < until:
        body = {"game": game, "players": players, "bot": bot}
        created = await asyncio.to_thread(_post, base, "/api/tables", body)
        fragment = dict(part.split("=", 1) for part in created["links"][0]["url"].split("#", 1)[1].split("&"))
        async with connect(_ws_url(base, created["id"]), open_timeout=30, max_size=2**24) as ws:
            number = int(fragment["seat"])
            await ws.send(json.dumps({"type": "hello", "seat": number, "token": fragment["token"]}))
            report.acks_at[created["id"], number] = 0
            if not await _play(ws, rng, until, report, (created["id"], number)):
                return


async def _play(ws: Any, rng: random.Random, until: float, report: LoadReport, person: tuple[str, int]) -> bool:
    """Plays one game at a table; returns False if the time ran out first."""
    view: dict[str, Any] | None = None
    sent: float | None = None  # when the unanswered action was sent
    acted = -1  # the seq of the last action sent
    while True:
        left = until - time.monotonic()
        if left <= 0:
            return False
        try:
            message = json.loads(await asyncio.wait_for(ws.recv(), timeout=left))
        except TimeoutError:
            return False
        kind = message["type"]
        if kind == "view":
            view = message
        elif kind == "ack" and sent is not None:
            report.latencies.append(time.monotonic() - sent)
            report.acks += 1
            report.acks_at[person] += 1
            sent = None
        elif kind == "error":
            report.errors.append(f"{message.get('code')}: {message.get('message')}")
            sent = None
        if view is None:
            continue
        if view["over"]:
            report.games_finished += 1
            return True
        if sent is None and view["legal"] and view["seq"] > acted:
            acted = view["seq"]
            action = rng.choice(view["legal"])["id"]
            sent = time.monotonic()
            await ws.send(json.dumps({"type": "act", "action": action, "seq": acted, "ref": acted}))


async def run_load(
    base: str,
    *,
    tables: int = 8,
    search_tables: int = 2,
    seconds: float = 10.0,
    game: str = "stonerush",
    players: int = 3,
    bot: str = "random",
    search_game: str = "stonerush",
    seed: int = 0,
) -> LoadReport:
    """Runs the load against the server at ``base`` for ``seconds``; returns what was measured."""
    report = LoadReport(seconds=seconds, tables=tables, search_tables=search_tables)
    searching = []
    for _ in range(search_tables):
        seats = [{"kind": "bot", "bot": "ismcts"}] * players
        body = {"game": search_game, "players": players, "seats": seats}
        searching.append((await asyncio.to_thread(_post, base, "/api/tables", body))["id"])
    start = time.monotonic()
    until = start + seconds
    rng = random.Random(seed)
    people = [_person(base, game, players, bot, random.Random(rng.random()), until, report) for _ in range(tables)]
    results = await asyncio.gather(*people, return_exceptions=True)
    report.seconds = time.monotonic() - start
    for result in results:
        if isinstance(result, BaseException):
            report.errors.append(f"a client failed: {type(result).__name__}: {result}")
    report.search_table_ids = searching
    return report


def serve_and_load(
    *, seconds: float = 30.0, tables: int = 8, search_tables: int = 2, bot_workers: int | None = None, seed: int = 0
) -> dict[str, Any]:
    """Starts ``henge serve`` on a fresh SQLite database and a free loopback port, runs the load, stops
    the server; returns the figures (with the server's pid-less settings)."""
    with tempfile.TemporaryDirectory() as folder:
        db = f"sqlite:///{Path(folder) / 'load.db'}"
        command = [sys.executable, "-m", "henge.cli", "serve", "--port", "0", "--db", db, "--bot-delay", "0"]
        command += ["--quiet", *LOAD_LIMITS]
        if bot_workers is not None:
            command += ["--bot-workers", str(bot_workers)]
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=os.environ)
        try:
            assert process.stdout is not None
            first = process.stdout.readline()
            match = re.search(r"henge is serving at (http://\S+/)", first)
            if match is None:
                raise RuntimeError(f"henge serve did not start: {first.strip()}")
            report = asyncio.run(
                run_load(match.group(1), tables=tables, search_tables=search_tables, seconds=seconds, seed=seed)
            )
            healthy = _get(match.group(1), "/healthz").get("status") == "ok"
            store = Store(db)
            try:
                report.bot_moves = sum(store.action_count(t) for t in report.search_table_ids)
                for (table_id, number), acks in report.acks_at.items():
                    record = store.load(table_id)
                    taken = 0 if record is None else record.actors.count(number)
                    if not acks <= taken <= acks + 1:  # the last action may be stored, its ack not yet read
                        report.unstored += 1
            finally:
                store.close()
        finally:
            process.terminate()
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
        summary = report.summary()
        summary["healthy_after"] = healthy
        summary["first_errors"] = report.errors[:3]
        return summary
