"""Seats that stay yours and tables that never hang: private invitations, the creator's token,
turn limits with a stand-in bot, leaving a seat, abandoned tables, deleted tables, older databases."""

from __future__ import annotations

import hashlib
import json
import secrets
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url
from web_support import create, credentials, database, live_table, seat

import henge.server
from henge.cli import main
from henge.core import Decision
from henge.server import bots as bots_module
from henge.server import tables as tables_module
from henge.server.app import create_app
from henge.server.store import Store, database_url

pytestmark = pytest.mark.timeout(60)

PERSON = {"kind": "person"}
LOBBY = {"kind": "person", "lobby": True}
BOT = {"kind": "bot", "bot": "random"}


@contextmanager
def serving(db: str, **options: Any) -> Iterator[TestClient]:
    """Yields a client of a started app with short timers where a test asks for them."""
    options.setdefault("bot_delay", 0.0)
    with TestClient(create_app(db, **options)) as client:
        yield client


def on_loop(client: TestClient, function: Callable[[], Any]) -> Any:
    """Runs ``function`` in the server's event loop (between two of its steps) and returns its result."""
    portal: Any = client.portal
    return portal.call(function)


def eventually(client: TestClient, condition: Callable[[], Any], *, seconds: float = 10.0) -> Any:
    """Waits (briefly, polling) until ``condition`` holds in the server's loop; returns its value."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = on_loop(client, condition)
        if value:
            return value
        time.sleep(0.02)
    raise AssertionError("the condition never held")


def as_creator(created: dict[str, Any]) -> dict[str, str]:
    return {"Authorization": f"Bearer {created['creator_token']}"}


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def tokens_of(created: dict[str, Any]) -> dict[int, str]:
    return dict(credentials(link["url"]) for link in created["links"])


def refused(response: Any, status: int, code: str, words: str) -> None:
    """Checks a refusal: its status, and the documented shape with its code and a reason."""
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"error", "code"}, body
    assert body["code"] == code and words in body["error"], body


def takeable(client: TestClient, table_id: str) -> list[int]:
    """The seats of a table the lobby page offers with a 'take seat' button."""
    lobby = client.get("/").text
    return [k for k in range(8) if f'data-table="{table_id}" data-seat="{k}"' in lobby]


# -- private invitations and seats open to the lobby -------------------------------------------------


def test_an_invited_seat_opens_only_with_its_link(tmp_path):
    with serving(database(tmp_path / "h.db")) as client:
        created = create(client, game="stonerush", seats=[PERSON, PERSON, LOBBY], sit=0)
        table_id, tokens = created["id"], tokens_of(created)
        assert takeable(client, table_id) == [2]
        listed = client.get("/api/tables").json()["tables"][0]
        assert [s["lobby"] for s in listed["seats"]] == [False, False, True]
        assert "invited" in client.get("/").text
        # Nobody takes the invitee's seat from the lobby, and the friend's link still opens it.
        refused(client.post(f"/api/tables/{table_id}/seats/1/take"), 403, "private", "only their link opens it")
        assert live_table(client, table_id).seats[1].claimed is False
        with seat(client, table_id, 1, tokens[1]) as friend:
            assert friend.until(lambda m: m["type"] == "view")["seat"] == 1
        taken = client.post(f"/api/tables/{table_id}/seats/2/take")
        assert taken.status_code == 200
        assert live_table(client, table_id).status == "running"


def test_seats_are_private_unless_their_creator_says_so_and_bad_choices_are_refused(tmp_path):
    with serving(database(tmp_path / "h.db"), turn_limit=45) as client:
        created = create(client, game="stonerush", seats=[PERSON, PERSON, PERSON], sit=None)
        info = client.get(f"/api/tables/{created['id']}").json()
        assert [s["lobby"] for s in info["seats"]] == [False, False, False]
        assert info["turn_limit"] is None and info["on_leave"] == "bot"
        assert takeable(client, created["id"]) == []
        count = len(client.get("/api/tables").json()["tables"])
        cases = [
            ({"seats": [PERSON, {**BOT, "lobby": True}, BOT], "sit": 0}, "only a seat for a person"),
            ({"seats": [LOBBY, PERSON, BOT], "sit": 0}, "the one you sit at"),
            ({"seats": [PERSON, LOBBY, BOT], "sit": 0, "turn_limit": 0}, "has a turn limit"),
            ({"seats": [PERSON, LOBBY, BOT], "sit": 0, "turn_limit": -5}, "0 (none) to 86400"),
            ({"seats": [PERSON, PERSON, BOT], "sit": 0, "turn_limit": 10**9}, "0 (none) to 86400"),
            ({"seats": [PERSON, PERSON, BOT], "sit": 0, "on_leave": "vanish"}, "'bot' (a bot takes the seat"),
            ({"seats": [PERSON, {**PERSON, "lobby": "yes"}, BOT], "sit": 0}, "lobby"),
            ({"seats": [PERSON, PERSON, BOT], "sit": 0, "turn_limit": "soon"}, "turn_limit"),
        ]
        for body, words in cases:
            answer = client.post("/api/tables", json={"game": "stonerush", **body})
            assert answer.status_code == 400, (body, answer.text)
            assert set(answer.json()) == {"error", "code"} and words in answer.json()["error"], (body, answer.json())
        assert len(client.get("/api/tables").json()["tables"]) == count
        # A lobby table gets the server's turn limit; any table may ask for its own.
        lobby = create(client, game="stonerush", seats=[PERSON, LOBBY, BOT], sit=0)
        assert client.get(f"/api/tables/{lobby['id']}").json()["turn_limit"] == 45
        timed = create(client, game="stonerush", seats=[PERSON, PERSON, BOT], sit=0, turn_limit=30, on_leave="open")
        info = client.get(f"/api/tables/{timed['id']}").json()
        assert info["turn_limit"] == 30 and info["on_leave"] == "open"


# -- the creator's token ------------------------------------------------------------------------------


def test_the_creator_replaces_a_link_and_the_old_one_is_refused(tmp_path):
    with serving(database(tmp_path / "h.db")) as client:
        created = create(client, game="stonerush", seats=[PERSON, PERSON, BOT], sit=0)
        table_id, tokens = created["id"], tokens_of(created)
        with seat(client, table_id, 1, tokens[1]) as holder:
            holder.until(lambda m: m["type"] == "view" and m["seat"] == 1)
            path = f"/api/tables/{table_id}/seats/1/link"
            for headers in ({}, bearer("guess"), bearer(tokens[0]), {"Authorization": created["creator_token"]}):
                refused(client.post(path, headers=headers), 403, "not_creator", "only the table's creator")
            assert live_table(client, table_id).seats[1].claimed is True
            answer = client.post(path, headers=as_creator(created))
            assert answer.status_code == 200
            number, fresh = credentials(answer.json()["url"])
            assert number == 1 and fresh != tokens[1]
            # Whoever held the seat with the old link now watches.
            notice = holder.until(lambda m: m["type"] == "error")
            assert notice["code"] == "revoked" and "you are watching" in notice["message"]
            assert holder.until(lambda m: m["type"] == "view")["seat"] is None
            assert holder.act("done")["code"] == "not_seated"
        with seat(client, table_id, 1, tokens[1]) as old:
            assert old.until(lambda m: m["type"] == "error")["code"] == "bad_token"
        with seat(client, table_id, 1, fresh) as new:
            assert new.until(lambda m: m["type"] == "view")["seat"] == 1
        refused(
            client.post(f"/api/tables/{table_id}/seats/2/link", headers=as_creator(created)), 409, "bad_seat", "bot"
        )
        refused(
            client.post(f"/api/tables/{table_id}/seats/7/link", headers=as_creator(created)), 404, "bad_seat", "0 to 2"
        )


def test_the_creator_opens_a_seat_to_the_lobby(tmp_path):
    with serving(database(tmp_path / "h.db"), turn_limit=50) as client:
        created = create(client, game="stonerush", seats=[PERSON, PERSON, BOT], sit=0)
        table_id = created["id"]
        path = f"/api/tables/{table_id}/seats/1/lobby"
        refused(client.post(path, json={"open": True}), 403, "not_creator", "creator")
        refused(client.post(path, json={"open": "yes"}, headers=as_creator(created)), 400, "bad_request", "open")
        assert takeable(client, table_id) == []
        answer = client.post(path, json={"open": True}, headers=as_creator(created))
        assert answer.json() == {"seat": 1, "lobby": True, "turn_limit": 50}
        assert takeable(client, table_id) == [1]
        assert client.get(f"/api/tables/{table_id}").json()["turn_limit"] == 50  # a lobby table has a limit
        client.post(path, json={"open": False}, headers=as_creator(created))
        assert takeable(client, table_id) == []
    with serving(database(tmp_path / "h.db")) as client:  # stored
        assert client.get(f"/api/tables/{table_id}").json()["turn_limit"] == 50


def test_the_creator_deletes_a_table_and_everybody_is_told(tmp_path):
    db = database(tmp_path / "h.db")
    with serving(db) as client:
        created = create(client, game="stonerush", seats=[PERSON, PERSON, BOT], sit=0)
        table_id, tokens = created["id"], tokens_of(created)
        kept = create(client, game="stonerush", players=3)["id"]
        with seat(client, table_id, 0, tokens[0]) as player, seat(client, table_id) as watcher:
            player.until(lambda m: m["type"] == "view")
            watcher.until(lambda m: m["type"] == "view")
            refused(client.delete(f"/api/tables/{table_id}", headers=bearer(tokens[0])), 403, "not_creator", "creator")
            assert client.get(f"/api/tables/{table_id}").status_code == 200
            assert client.delete(f"/api/tables/{table_id}", headers=as_creator(created)).json() == {"deleted": table_id}
            for someone in (player, watcher):
                told = someone.until(lambda m: m["type"] == "error")
                assert told["code"] == "deleted" and "deleted by its creator" in told["message"]
                with pytest.raises(Exception):  # noqa: B017 - the server closed the socket
                    someone.receive()
        refused(client.get(f"/api/tables/{table_id}"), 404, "no_table", "no such table")
        refused(client.delete(f"/api/tables/{table_id}", headers=as_creator(created)), 404, "no_table", "no such")
        assert [t["id"] for t in client.get("/api/tables").json()["tables"]] == [kept]
        assert table_id not in client.app.state.tables.live  # type: ignore[attr-defined]
    store = Store(db)
    assert store.load(table_id) is None and store.action_count(table_id) == 0
    with store.engine.connect() as connection:
        seats = connection.execute(text("SELECT count(*) FROM henge_seats WHERE table_id = :t"), {"t": table_id})
        assert seats.scalar() == 0
    store.close()


def test_the_creators_token_is_stored_only_as_its_hash_and_never_shown(tmp_path):
    db = database(tmp_path / "h.db")
    with serving(db) as client:
        created = create(client, game="stonerush", seats=[PERSON, LOBBY, BOT], sit=0)
        token, table_id = created["creator_token"], created["id"]
        assert created["creator_url"] == f"/tables/{table_id}#creator={token}"
        with seat(client, table_id) as watcher:
            watcher.until(lambda m: m["type"] == "view")
            shown = [json.dumps(m) for m in watcher.received]
        shown += [client.get(p).text for p in ("/", "/api/tables", f"/api/tables/{table_id}", f"/tables/{table_id}")]
        assert not [page for page in shown if token in page or "creator_hash" in page]
    store = Store(db)
    record = store.load(table_id)
    assert record is not None and record.creator_hash == hashlib.sha256(token.encode()).hexdigest()
    with store.engine.connect() as connection:
        rows = [repr(tuple(row)) for row in connection.execute(text("SELECT * FROM henge_tables"))]
    store.close()
    assert not any(token in row for row in rows)


# -- turn limits and the stand-in bot -------------------------------------------------------------------


class _Recorder:
    """A bot made by the server, recording every decision it is given."""

    def __init__(self, agent: Any, calls: list[tuple[Any, Any]]) -> None:
        self.agent, self.calls = agent, calls
        self.name, self.needs_samples = agent.name, agent.needs_samples

    def choose(self, decision: Any) -> int:
        self.calls.append((self.name, decision))
        return int(self.agent.choose(decision))


def test_a_stand_in_plays_a_seat_whose_time_ran_out_until_its_person_is_back(tmp_path, monkeypatch):
    calls: list[tuple[Any, Any]] = []
    made = bots_module.make_agent
    monkeypatch.setattr(bots_module, "make_agent", lambda spec: _Recorder(made(spec), calls))
    monkeypatch.setattr(bots_module, "_agents", {})
    # Bots think in this process (bot_workers=0), where the test can look at what they are given.
    with serving(database(tmp_path / "h.db"), bot_delay=0.02, bot_workers=0) as client:
        created = create(client, game="stonerush", players=3, bot="random", turn_limit=0.4)
        table_id = created["id"]
        number, token = credentials(created["links"][0]["url"])
        table = live_table(client, table_id)
        with seat(client, table_id, number, token) as person:
            view = person.until(lambda m: m["type"] == "view" and m["legal"])
            assert 0 < view["turn_ends_in"] <= 0.4
            view = person.until(lambda m: m["type"] == "view" and m["table"]["seats"][number]["standin"])
            assert view["table"]["seats"][number]["standin"] == "heuristic"  # Stonerush has a rule-based player
            assert view["legal"] == []
            answer = person.act("done")
            assert answer["code"] == "stood_in" and "reconnect" in answer["message"]
            # The stand-in plays the seat through the bots' interface: that seat's decision, nothing more.
            eventually(client, lambda: any(d.seat == number for name, d in calls if name == "heuristic"))
        for name, decision in calls:
            assert isinstance(decision, Decision)
            if name == "heuristic":
                assert decision.seat == number and decision.observation["seat"] == number
                assert decision._sampler is None  # no sampler: the heuristic sees only the observation
        # Coming back with the seat's link hands the seat back: its person plays it again.
        with seat(client, table_id, number, token) as person:
            view = person.until(lambda m: m["type"] == "view")
            assert view["table"]["seats"][number]["standin"] is None
            assert on_loop(client, lambda: dict(table.standins)) == {}
            view = person.until_turn_or_end()
            if not view["over"]:
                assert person.act(view["legal"][0]["id"])["type"] == "ack"


def test_a_stand_in_checks_what_it_sees_against_the_true_state(tmp_path, monkeypatch):
    """Each decision the stand-in gets is its seat's observation and legal actions at that moment."""
    checked: list[bool] = []
    made = bots_module.make_agent
    holder: dict[str, Any] = {}

    class Checking(_Recorder):
        def choose(self, decision: Any) -> int:
            state = holder["table"].state  # nobody else moves while a bot thinks
            checked.append(
                decision.observation == state.observation(decision.seat)
                and decision.legal_actions == state.legal_actions()
            )
            return super().choose(decision)

    monkeypatch.setattr(bots_module, "make_agent", lambda spec: Checking(made(spec), []))
    monkeypatch.setattr(bots_module, "_agents", {})
    with serving(database(tmp_path / "h.db"), bot_workers=0) as client:
        created = create(client, game="stonerush", players=3, bot="random", turn_limit=0.2)
        holder["table"] = live_table(client, created["id"])
        eventually(client, lambda: holder["table"].standins)
        eventually(client, lambda: len(checked) > 6)
    assert all(checked)


def test_only_lobby_tables_have_a_turn_limit_unless_asked(tmp_path):
    with serving(database(tmp_path / "h.db"), turn_limit=0.2) as client:
        private = create(client, game="stonerush", players=3, bot="random")
        number, token = credentials(private["links"][0]["url"])
        table = live_table(client, private["id"])
        with seat(client, private["id"], number, token) as person:
            view = person.until(lambda m: m["type"] == "view" and m["legal"])
            assert view["turn_ends_in"] is None
            time.sleep(0.5)
            assert on_loop(client, lambda: dict(table.standins)) == {}
            assert person.act(view["legal"][0]["id"])["type"] == "ack"
        lobby = create(client, game="stonerush", seats=[PERSON, LOBBY, BOT], sit=0)
        assert live_table(client, lobby["id"]).turn_limit == 0.2


def test_the_stand_in_is_the_rule_based_player_where_the_game_has_one():
    assert tables_module.standin_bot("stonerush") == "heuristic"
    assert tables_module.standin_bot("threecard") == "random"  # the example game of tests/plugins has none


# -- leaving a seat --------------------------------------------------------------------------------------


def test_a_person_who_leaves_is_replaced_by_a_bot_and_the_game_ends(tmp_path):
    with serving(database(tmp_path / "h.db")) as client:
        created = create(client, game="stonerush", seats=[PERSON, BOT, BOT], sit=0)
        table_id, tokens = created["id"], tokens_of(created)
        path = f"/api/tables/{table_id}/seats/0/leave"
        with seat(client, table_id, 0, tokens[0]) as person:
            person.until(lambda m: m["type"] == "view")
            refused(client.post(path, headers=bearer("guess")), 403, "bad_token", "does not open seat 0")
            refused(client.post(path), 403, "bad_token", "does not open seat 0")
            assert live_table(client, table_id).seats[0].kind == "person"
            answer = client.post(path, headers=bearer(tokens[0]))
            assert answer.json() == {"seat": 0, "now": "bot", "bot": "heuristic"}
            assert person.until(lambda m: m["type"] == "view" and m["seat"] is None)
            final = person.until_over()  # nobody waits for the person any more
        assert final["table"]["seats"][0]["kind"] == "bot"
        refused(client.post(path, headers=bearer(tokens[0])), 409, "over", "the game is over")
        with seat(client, table_id, 0, tokens[0]) as again:
            assert again.until(lambda m: m["type"] == "error")["code"] == "bad_seat"


def test_a_person_who_leaves_frees_the_seat_for_the_lobby_when_the_creator_chose_so(tmp_path):
    with serving(database(tmp_path / "h.db"), turn_limit=40) as client:
        created = create(client, game="stonerush", seats=[PERSON, PERSON, BOT], sit=0, on_leave="open")
        table_id, tokens = created["id"], tokens_of(created)
        with seat(client, table_id, 1, tokens[1]) as guest:
            guest.until(lambda m: m["type"] == "view")
        assert takeable(client, table_id) == []
        answer = client.post(f"/api/tables/{table_id}/seats/1/leave", headers=bearer(tokens[1]))
        assert answer.json() == {"seat": 1, "now": "open", "bot": None}
        assert takeable(client, table_id) == [1]
        info = client.get(f"/api/tables/{table_id}").json()
        assert info["seats"][1]["claimed"] is False and info["turn_limit"] == 40
        with seat(client, table_id, 1, tokens[1]) as old:
            assert old.until(lambda m: m["type"] == "error")["code"] == "bad_token"
        taken = client.post(f"/api/tables/{table_id}/seats/1/take")
        number, token = credentials(taken.json()["url"])
        with seat(client, table_id, number, token) as newcomer:
            assert newcomer.until(lambda m: m["type"] == "view")["seat"] == 1


# -- abandoned tables -------------------------------------------------------------------------------------


def test_a_table_nobody_sits_at_is_abandoned_and_its_bots_stop(tmp_path):
    db = database(tmp_path / "h.db")
    with serving(db, abandon_after=0.3, bot_delay=30) as client:
        bots = create(client, game="stonerush", seats=[BOT, BOT, BOT])["id"]
        created = create(client, game="stonerush", seats=[PERSON, BOT, BOT], sit=0)
        table_id, tokens = created["id"], tokens_of(created)
        table = live_table(client, bots)
        # A seated person keeps a table alive, however long nothing happens; a watcher does not.
        with seat(client, table_id, 0, tokens[0]) as person, seat(client, bots) as watcher:
            person.until(lambda m: m["type"] == "view")
            # The bots' table: a bot thinks for 30 s, so nothing happens there.
            told = watcher.until(lambda m: m["type"] == "view" and m["table"]["status"] == "abandoned")
            assert told["legal"] == [] and not told["over"]
            assert live_table(client, table_id).status == "running"
        assert on_loop(client, lambda: table.driver is None or table.driver.done())
        moves = on_loop(client, lambda: table.state.move_number())
        eventually(client, lambda: live_table(client, table_id).status == "abandoned")
        listed = [t["id"] for t in client.get("/api/tables").json()["tables"]]
        assert bots not in listed and table_id not in listed and table_id not in client.get("/").text
        info = client.get(f"/api/tables/{bots}").json()
        assert info["status"] == "abandoned"
        page = client.get(f"/tables/{bots}")
        assert page.status_code == 200 and "This table was abandoned" in page.text
        assert on_loop(client, lambda: table.state.move_number()) == moves
        # A person who comes back with a seat's link picks it up again.
        with seat(client, table_id, 0, tokens[0]) as person:
            assert person.until(lambda m: m["type"] == "view")["table"]["status"] == "running"
        assert table_id in [t["id"] for t in client.get("/api/tables").json()["tables"]]
    with serving(db, abandon_after=60) as client:  # stored: not resumed after a restart
        assert bots not in client.app.state.tables.live  # type: ignore[attr-defined]
        assert client.get(f"/api/tables/{bots}").json()["status"] == "abandoned"


def test_timers_are_checked_and_offered_by_henge_serve(monkeypatch, tmp_path):
    with pytest.raises(ValueError, match="turn_limit"):
        create_app(database(tmp_path / "h.db"), turn_limit=0)
    with pytest.raises(ValueError, match="abandon_after"):
        create_app(database(tmp_path / "h.db"), abandon_after=float("nan"))
    runner = CliRunner()
    assert runner.invoke(main, ["serve", "--turn-limit", "0"]).exit_code == 2
    assert runner.invoke(main, ["serve", "--abandon-after", "-3"]).exit_code == 2
    seen: dict[str, Any] = {}
    monkeypatch.setattr(henge.server, "serve", lambda **options: seen.update(options))
    result = runner.invoke(main, ["serve", "--turn-limit", "7.5", "--abandon-after", "90"])
    assert result.exit_code == 0, result.output
    assert seen["turn_limit"] == 7.5 and seen["abandon_after"] == 90
    runner.invoke(main, ["serve"])
    assert (seen["turn_limit"], seen["abandon_after"]) == (tables_module.TURN_LIMIT, tables_module.ABANDON_AFTER)
    help_text = runner.invoke(main, ["serve", "--help"]).output
    assert "--turn-limit" in help_text and "--abandon-after" in help_text


# -- databases made before these columns ------------------------------------------------------------------

_NEW_COLUMNS = {"henge_tables": ["creator_hash", "turn_limit", "on_leave"], "henge_seats": ["lobby"]}


def _an_older_database(db: str) -> tuple[str, dict[int, str]]:
    """Stores a table, then drops the columns this change added: a database as an older henge left it."""
    with serving(db) as client:
        created = create(client, game="stonerush", seats=[PERSON, PERSON, BOT], sit=0)
    engine = create_engine(database_url(db))
    with engine.begin() as connection:
        for table, columns in _NEW_COLUMNS.items():
            for column in columns:
                connection.execute(text(f"ALTER TABLE {table} DROP COLUMN {column}"))
    engine.dispose()
    return created["id"], tokens_of(created)


def _still_works(db: str, table_id: str, tokens: dict[int, str]) -> None:
    store = Store(db)
    assert sorted(store.added_columns) == sorted(f"{t}.{c}" for t, cs in _NEW_COLUMNS.items() for c in cs)
    store.close()
    with serving(db) as client:
        info = client.get(f"/api/tables/{table_id}").json()
        assert [s["lobby"] for s in info["seats"]] == [False, False, False] and info["on_leave"] == "bot"
        refused(client.post(f"/api/tables/{table_id}/seats/1/take"), 403, "private", "only their link")
        path = f"/api/tables/{table_id}/seats/1/link"
        refused(client.post(path, headers=bearer("x")), 403, "not_creator", "made before tables had a creator")
        with seat(client, table_id, 1, tokens[1]) as friend:
            assert friend.until(lambda m: m["type"] == "view")["seat"] == 1
        created = create(client, game="stonerush", seats=[PERSON, LOBBY, BOT], sit=0)  # new tables as usual
        assert client.post(path.replace(table_id, created["id"]), headers=as_creator(created)).status_code == 200
    again = Store(db)
    assert again.added_columns == []
    again.close()


def test_an_older_sqlite_database_gains_the_new_columns(tmp_path):
    db = database(tmp_path / "h.db")
    table_id, tokens = _an_older_database(db)
    _still_works(db, table_id, tokens)


def test_an_older_postgresql_database_gains_the_new_columns(postgres_url):
    # A database of its own, so that no other test sees its columns come and go.
    name = f"henge_older_{secrets.token_hex(4)}"
    admin = create_engine(database_url(postgres_url), isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f"CREATE DATABASE {name}"))
    db = make_url(postgres_url).set(database=name).render_as_string(hide_password=False)
    try:
        table_id, tokens = _an_older_database(db)
        _still_works(db, table_id, tokens)
        with serving(db, abandon_after=0.2) as client:  # abandoned tables leave PostgreSQL's lobby query too
            eventually(client, lambda: live_table(client, table_id).status == "abandoned")
            assert table_id not in [t["id"] for t in client.get("/api/tables").json()["tables"]]
            created = create(client, game="stonerush", seats=[PERSON, BOT, BOT], sit=0)
            assert client.delete(f"/api/tables/{created['id']}", headers=as_creator(created)).status_code == 200
            assert client.get(f"/api/tables/{created['id']}").status_code == 404
    finally:
        with admin.connect() as connection:
            connection.execute(text(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
        admin.dispose()
