"""Actions that survive: numbered resubmissions applied once, and a server killed with actions in flight.

Every test here runs on both databases the server supports (the ``storage`` fixture: an SQLite file
and a new database on the test session's PostgreSQL).
"""

from __future__ import annotations

import json
import random
import signal
import time
import urllib.request
from typing import Any

import pytest
from web_support import Server, create, credentials, live_table, running, seat
from websockets.sync.client import ClientConnection, connect

from henge.server.load import LOAD_LIMITS
from henge.server.store import Store

pytestmark = pytest.mark.timeout(180)


def _person_and_bots(client: Any) -> tuple[str, int, str]:
    created = create(client, game="stonerush", players=3, bot="random")
    number, token = credentials(created["links"][0]["url"])
    return created["id"], number, token


def _latest_turn(s: Any) -> dict[str, Any]:
    """Returns the view that asks the seat to act: the latest one (sent before the last ack), or the next."""
    view = s.view
    return view if view is not None and (view["legal"] or view["over"]) else s.until_turn_or_end()


def test_a_resubmitted_action_is_applied_once(storage):
    with running(storage) as client:
        table_id, number, token = _person_and_bots(client)
        table = live_table(client, table_id)
        observer = Store(storage)
        with seat(client, table_id, number, token) as s:
            view = s.until_turn_or_end()
            assert view["seq"] == 0
            action = view["legal"][0]["text"]
            first = s.act(action, seq=0)
            assert first["type"] == "ack" and first["seq"] == 0 and "again" not in first
            stored = observer.action_count(table_id)
            # The same action with the same number: acknowledged again, not applied again.
            again = s.act(action, seq=0)
            assert again == {"type": "ack", "ref": 7, "action": first["action"], "seq": 0, "again": True}
            assert observer.action_count(table_id) == stored
            assert [a for _, a in table.taken[number]] == [table.game.parse_action(first["action"])]
            # Another action under a number already used, or a number ahead, changes nothing.
            view = _latest_turn(s)
            assert view["seq"] == 1
            before = table.state.to_json()
            other = next(a["text"] for a in view["legal"] if a["text"] != first["action"])
            for bad_action, bad_seq in ((other, 0), (other, 5)):
                answer = s.act(bad_action, seq=bad_seq)
                assert answer["type"] == "error" and answer["code"] == "stale", answer
                assert "your next is seq 1" in answer["message"] or "ahead" in answer["message"]
            for bad_seq in (-1, "1", 1.5, True, 2**40):
                answer = s.act(other, seq=bad_seq)
                assert answer["code"] == "bad_message" and "seq is a whole number" in answer["message"]
            assert table.state.to_json() == before and observer.action_count(table_id) == stored
        # A spectator has no actions to number.
        with seat(client, table_id) as spectator:
            spectator.until(lambda m: m["type"] == "view")
            assert spectator.view is not None and spectator.view["seq"] is None
            assert spectator.act(other, seq=1)["code"] == "not_seated"
    # After a restart the numbers are read back from the stored actions.
    with running(storage) as client, seat(client, table_id, number, token) as s:
        view = s.until_turn_or_end()
        assert view["seq"] == 1
        assert s.act(first["action"], seq=0)["again"] is True
        assert s.act(view["legal"][0]["id"], seq=1)["type"] == "ack"
        assert observer.action_count(table_id) > stored
    observer.close()


# -- SIGKILL with actions in flight ------------------------------------------------------------------


def _post(server: Server, path: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(
        server.url.rstrip("/") + path, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        answer: dict[str, Any] = json.loads(response.read())
        return answer


class _Client:
    """A seat's WebSocket to a served table, keeping the latest view it was sent."""

    def __init__(self, server: Server, table_id: str, number: int, token: str) -> None:
        self.ws: ClientConnection = connect(f"ws://127.0.0.1:{server.port}/ws/tables/{table_id}", open_timeout=30)
        self.ws.send(json.dumps({"type": "hello", "seat": number, "token": token}))
        self.view: dict[str, Any] | None = None

    def next(self, kinds: tuple[str, ...]) -> dict[str, Any]:
        while True:
            message: dict[str, Any] = json.loads(self.ws.recv(timeout=30))
            if message["type"] == "view":
                self.view = message
            if message["type"] in kinds:
                return message

    def turn(self, seq: int) -> dict[str, Any]:
        """Returns the latest view asking this seat for its action ``seq`` (or showing the end)."""
        while not (self.view is not None and (self.view["over"] or (self.view["legal"] and self.view["seq"] == seq))):
            self.next(("view",))
        return self.view


def _seat_actions(db: str, table_id: str, number: int) -> list[str]:
    store = Store(db)
    try:
        record = store.load(table_id)
        assert record is not None
        game = __import__("henge").load(record.game, record.players, **record.options)
        return [game.action_text(a) for a, who in zip(record.actions, record.actors, strict=True) if who == number]
    finally:
        store.close()


@pytest.mark.slow
def test_a_server_killed_with_actions_in_flight_keeps_each_acknowledged_action_exactly_once(storage):
    """SIGKILL the server a few times just after sending an action; after each restart every
    acknowledged action is stored exactly once, and the action in flight, sent again with the same
    seq, is applied once (now, or acknowledged as taken already if it was stored before the kill)."""
    rng = random.Random(5)
    # The test acts as fast as its views come, far faster than the default rates allow a person.
    server = Server(storage, options=["--quiet", "--bot-workers", "1", *LOAD_LIMITS])
    server.start()
    try:
        created = _post(server, "/api/tables", {"game": "stonerush", "players": 3, "bot": "random"})
        table_id = created["id"]
        number, token = credentials(created["links"][0]["url"])
        acknowledged: list[str] = []  # this seat's actions, in the order of their seq
        resent = {"applied now": 0, "taken already": 0}
        client = _Client(server, table_id, number, token)
        kills = 0
        while True:
            view = client.turn(len(acknowledged))
            if view["over"]:
                break
            action = rng.choice(view["legal"])["text"]
            message = {"type": "act", "action": action, "seq": view["seq"], "ref": view["seq"]}
            client.ws.send(json.dumps(message))
            if kills < 4 and view["seq"] % 3 == 1:
                if kills % 2:  # the action is stored, its acknowledgement perhaps not yet sent
                    deadline = time.monotonic() + 30
                    while len(_seat_actions(storage, table_id, number)) <= len(acknowledged):
                        assert time.monotonic() < deadline, "the action in flight was never stored"
                        time.sleep(0.002)
                else:  # before, or while, it is stored
                    time.sleep(rng.choice([0.0, 0.001, 0.004]))
                assert server.process is not None
                server.process.send_signal(signal.SIGKILL)
                server.process.wait(timeout=20)
                server.process = None
                kills += 1
                client.ws.close()
                # Every action acknowledged before the kill is stored, once, in order.
                stored = _seat_actions(storage, table_id, number)
                assert stored[: len(acknowledged)] == acknowledged and len(stored) <= len(acknowledged) + 1
                server.start()
                client = _Client(server, table_id, number, token)
                client.ws.send(json.dumps(message))  # the same action, the same seq
                answer = client.next(("ack", "error"))
                assert answer["type"] == "ack", answer
                resent["taken already" if answer.get("again") else "applied now"] += 1
            else:
                answer = client.next(("ack", "error"))
                assert answer["type"] == "ack", answer
            acknowledged.append(answer["action"])
            assert _seat_actions(storage, table_id, number) == acknowledged
        client.ws.close()
        assert kills == 4 and sum(resent.values()) == 4 and resent["taken already"] >= 2
        assert _seat_actions(storage, table_id, number) == acknowledged
    finally:
        server.stop()
