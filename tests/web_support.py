"""Helpers for the web tests: an app on a database file, seats over WebSockets, and the leak scan."""

from __future__ import annotations

import json
import os
import random
import re
import secrets
import signal
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

from conftest import PLUGINS
from fastapi.testclient import TestClient

from henge.core import Decision, State
from henge.server.app import create_app
from henge.server.limits import Limits
from henge.server.tables import LiveTable

CARD = re.compile(r"(?<![\w-])(?:[1-9]|[12]\d|30)[dn](?![\w-])|T-(?:white|blue|green|yellow|red)")
"""A card text of the box, as it would appear anywhere in a message."""


@contextmanager
def fixed_seed(monkeypatch: Any, name: str) -> Iterator[None]:
    """Makes the tables created inside it take a secret seed fixed by ``name`` (62 bits, as the server
    draws them with ``secrets.randbits``), so that their games are the same every run."""
    seed = random.Random(name).getrandbits(62) | 1 << 61
    with monkeypatch.context() as patch:
        patch.setattr(secrets, "randbits", lambda _bits: seed)
        yield


def database(path: Path) -> str:
    """Returns the SQLite URL of a database file."""
    return f"sqlite:///{path}"


MACHINE_PACE = Limits(actions_per_second=100_000, action_burst=100_000, reads_per_second=100_000, read_burst=100_000)
"""The default limits, but for the rates of actions and reads: the tests act and read far faster than people."""


@contextmanager
def running(db: str, *, bot_delay: float = 0.0, limits: Limits = MACHINE_PACE) -> Iterator[TestClient]:
    """Yields a client of a started app (its lifespan runs: tables resume, bots move)."""
    with TestClient(create_app(db, bot_delay=bot_delay, limits=limits)) as client:
        yield client


def create(client: TestClient, **body: Any) -> dict[str, Any]:
    """Creates a table; returns the API's answer (id, links)."""
    response = client.post("/api/tables", json=body)
    assert response.status_code == 201, response.text
    return response.json()


def credentials(link: str) -> tuple[int, str]:
    """Returns the seat and token in a join link's fragment."""
    params = parse_qs(link.split("#", 1)[1])
    return int(params["seat"][0]), params["token"][0]


def live_table(client: TestClient, table_id: str) -> LiveTable:
    """Returns the server's live table (the test looks at the true state; no client can)."""
    app: Any = client.app
    return app.state.tables.live[table_id]


def true_state(client: TestClient, table_id: str) -> State:
    """Returns a copy of a table's true state, taken between two steps of the server's loop."""
    portal: Any = client.portal
    return portal.call(lambda: live_table(client, table_id).state.clone())


class Seat:
    """One WebSocket client: everything it received, and waiting for a message it expects."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.received: list[dict[str, Any]] = []
        self.log: list[str] = []
        self.view: dict[str, Any] | None = None
        self._fresh = False  # the latest view has not been answered yet

    def receive(self) -> dict[str, Any]:
        """Returns the next message, keeping the latest view and the log."""
        message = self.ws.receive_json()
        self.received.append(message)
        if message["type"] == "view":
            assert message["log_start"] == len(self.log) or message["log_start"] == 0
            self.log[message["log_start"] :] = message["log"]
            self.view = message
            self._fresh = True
        return message

    def until(self, predicate: Callable[[dict[str, Any]], bool], *, limit: int = 5000) -> dict[str, Any]:
        """Reads messages until one satisfies ``predicate``; returns it."""
        for _ in range(limit):
            message = self.receive()
            if predicate(message):
                return message
        raise AssertionError("the expected message never came")

    def until_turn_or_end(self) -> dict[str, Any]:
        """Returns the latest view if it asks this seat to act or shows the end, or waits for one."""
        view = self.view
        if not (self._fresh and view is not None and (view["legal"] or view["over"])):
            view = self.until(lambda m: m["type"] == "view" and (bool(m["legal"]) or m["over"]))
        self._fresh = False
        return view

    def until_over(self) -> dict[str, Any]:
        """Returns the view that shows the end (waiting for it if needed)."""
        if self.view is not None and self.view["over"]:
            return self.view
        return self.until(lambda m: m["type"] == "view" and m["over"], limit=10**6)  # long games send many

    def act(self, action: Any, *, seq: int | None = None) -> dict[str, Any]:
        """Sends an action (numbered ``seq`` when given) and returns the ack or error answering it."""
        self._fresh = False
        message: dict[str, Any] = {"type": "act", "action": action, "ref": 7}
        if seq is not None:
            message["seq"] = seq
        self.ws.send_json(message)
        return self.until(lambda m: m["type"] in ("ack", "error"))

    def send(self, payload: Any) -> None:
        """Sends anything (a test of bad messages)."""
        if isinstance(payload, str):
            self.ws.send_text(payload)
        else:
            self.ws.send_json(payload)


@contextmanager
def seat(client: TestClient, table_id: str, number: int | None = None, token: str | None = None) -> Iterator[Seat]:
    """Yields a client that said hello (at a seat when given), after its first message."""
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        hello: dict[str, Any] = {"type": "hello"}
        if number is not None:
            hello.update(seat=number, token=token)
        ws.send_json(hello)
        yield Seat(ws)


def hidden_cards(state: State, seat: int | None) -> set[str]:
    """Returns the card texts in the full state that a seat's observation does not show."""
    everything = set(CARD.findall(json.dumps(state.to_json()["state"])))
    seen = set(CARD.findall(json.dumps(state.observation(seat))))
    return everything - seen


class Spy:
    """Records every view the server sends, with a copy of the true state at that moment."""

    def __init__(self) -> None:
        self.sent: list[tuple[int | None, dict[str, Any], State]] = []

    def install(self, monkeypatch: Any) -> None:
        """Wraps the one place views leave a table."""
        original = LiveTable._send
        spy = self

        async def recording(table: LiveTable, connection: Any, message: dict[str, Any]) -> None:
            spy.sent.append((connection.seat, json.loads(json.dumps(message)), table.state.clone()))
            await original(table, connection, message)

        monkeypatch.setattr(LiveTable, "_send", recording)


class Server:
    """`henge serve` in a subprocess on a loopback port, restartable on the same port and database."""

    def __init__(self, db: str, *, options: list[str] | None = None) -> None:
        self.db = db
        self.options = list(options or [])
        """More ``henge serve`` options (a later one wins over the defaults above)."""
        self.port = 0
        self.url = ""
        self.output: list[str] = []
        self.process: subprocess.Popen[str] | None = None

    def start(self) -> None:
        """Starts the server and waits until it answers."""
        command = [sys.executable, "-m", "henge.cli", "serve", "--host", "127.0.0.1", "--port", str(self.port)]
        command += ["--db", self.db, "--bot-delay", "0", *self.options]
        # The example game of another package (tests/plugins) is installed for the served app too.
        path = os.pathsep.join(p for p in (str(PLUGINS), os.environ.get("PYTHONPATH")) if p)
        env = {**os.environ, "PYTHONPATH": path}
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
        assert self.process.stdout is not None
        first = self.process.stdout.readline()
        self.output.append(first)
        match = re.search(r"henge is serving at (http://127\.0\.0\.1:(\d+)/)", first)
        assert match, f"henge serve printed {first!r}"
        self.url, self.port = match.group(1), int(match.group(2))
        threading.Thread(target=self._drain, args=(self.process,), daemon=True).start()

    def _drain(self, process: subprocess.Popen[str]) -> None:
        assert process.stdout is not None
        for line in process.stdout:
            self.output.append(line)

    def stop(self, *, kill: bool = False) -> None:
        """Stops the server: politely, or at once with SIGKILL (nothing gets to clean up)."""
        if self.process is None:
            return
        self.process.send_signal(signal.SIGKILL if kill else signal.SIGTERM)
        self.process.wait(timeout=20)
        self.process = None

    def restart(self) -> None:
        """Kills the server and starts a new one on the same port and database."""
        self.stop(kill=True)
        self.start()


def view_decision(view: dict[str, Any], rng: Any, game_id: str) -> Decision:
    """Returns the decision a seat's live view stands for (its observation and legal actions), as a
    bot would be handed it: tests use it to play as the game's rule-based player would."""
    legal = view["legal"]
    return Decision(
        game_id=game_id,
        seat=view["seat"],
        observation=view["observation"],
        legal_actions=[a["id"] for a in legal],
        legal_texts=[a["text"] for a in legal],
        rng=rng,
    )
