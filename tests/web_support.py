"""Helpers for the web tests: an app on a database file, seats over WebSockets, and the leak scan."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

from fastapi.testclient import TestClient

from henge.engine import State
from henge.server.app import create_app
from henge.server.limits import Limits
from henge.server.tables import LiveTable

CARD = re.compile(r"(?<![\w-])(?:[1-9]|[12]\d|30)[dn](?![\w-])|T-(?:white|blue|green|yellow|red)")
"""A card text of the box, as it would appear anywhere in a message."""


def database(path: Path) -> str:
    """Returns the SQLite URL of a database file."""
    return f"sqlite:///{path}"


MACHINE_PACE = Limits(actions_per_second=100_000, action_burst=100_000)
"""The default limits, but for the rate of actions: the tests' seats act far faster than people do."""


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

    def act(self, action: Any) -> dict[str, Any]:
        """Sends an action and returns the ack or error answering it."""
        self._fresh = False
        self.ws.send_json({"type": "act", "action": action, "ref": 7})
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
