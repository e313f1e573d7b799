"""Seats' display names, rematches, the rules pages and the previews of a seat's legal actions.

Names: set by a seated connection only, checked (1-24 printable characters), stored with the seat
(surviving a restart, and an older database gaining the column), shown to everybody as data. A
rematch: asked for by a person seated at a finished table, made once, with the same game, seats,
bots, tokens and names. Rules: a game's rules.md as HTML, raw HTML in it shown as text. Previews:
only in the view of the seat to move, made from its own observation, once per observation.
"""

from __future__ import annotations

import contextlib
import html
import json
import random
import re
import time
import zlib
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text
from web_support import Seat, create, credentials, live_table, running, seat, true_state

import henge
from henge.core import GamePlugin
from henge.server import app as app_module
from henge.server.store import FINISHED, SeatRecord, Store, database_url
from henge.server.tables import PERSON, new_token, token_hash

pytestmark = pytest.mark.timeout(120)

HUMAN = {"kind": "person"}
RANDOM = {"kind": "bot", "bot": "random"}
NAME_RULE = "a name is 1-24 printable characters"


def tokens_of(created: dict[str, Any]) -> dict[int, str]:
    return dict(credentials(link["url"]) for link in created["links"])


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def refused(response: Any, status: int, code: str, words: str) -> None:
    """Checks an HTTP refusal: its status, and the documented shape with its code and a reason."""
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"error", "code"}, body
    assert body["code"] == code and words in body["error"], body


def answer(person: Seat) -> dict[str, Any]:
    """Returns the next message that is not a view."""
    return person.until(lambda m: m["type"] != "view")


def name(person: Seat, value: Any, ref: Any = 4) -> dict[str, Any]:
    """Sends a name message and returns its answer (an ack or an error)."""
    person.send({"type": "name", "name": value, "ref": ref})
    return answer(person)


def shows(person: Seat, predicate: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """Returns the connection's latest view if it satisfies ``predicate``, else waits for one that does."""
    if person.view is not None and predicate(person.view):
        return person.view
    return person.until(lambda m: m["type"] == "view" and predicate(m))


def names(client: TestClient, table_id: str) -> list[str | None]:
    return [s["name"] for s in client.get(f"/api/tables/{table_id}").json()["seats"]]


@contextlib.contextmanager
def seated(client: TestClient, table_id: str, tokens: dict[int, str]) -> Iterator[dict[int, Seat]]:
    """Yields a connection at each seat of ``tokens``, each past its first view."""
    with contextlib.ExitStack() as stack:
        people = {k: stack.enter_context(seat(client, table_id, k, t)) for k, t in tokens.items()}
        for person in people.values():
            person.until(lambda m: m["type"] == "view")
        yield people


def play_out(client: TestClient, table_id: str, people: dict[int, Seat]) -> None:
    """Plays a table of Three-card draw to its end: its people knock (or stand) as soon as they may."""
    deadline = time.monotonic() + 60
    while True:
        assert time.monotonic() < deadline, "the game did not end"
        state = true_state(client, table_id)
        if state.is_terminal():
            return
        mover = state.current_player()
        if mover not in people:
            time.sleep(0.002)
            continue
        view = people[mover].until_turn_or_end()
        if view["over"]:
            return
        texts = [a["text"] for a in view["legal"]]
        choice = next((t for t in ("knock", "stand") if t in texts), texts[0])
        assert people[mover].act(choice)["type"] == "ack"


# -- names ----------------------------------------------------------------------------------------------


def test_a_seat_names_itself_and_everybody_sees_the_name_as_data(storage):
    tricky = "<!--<script>&amp;'\"</b>"  # 23 characters of markup: shown as it is, never read as HTML
    with running(storage) as client:
        created = create(client, game="stonerush", seats=[HUMAN, HUMAN, RANDOM], sit=0)
        table_id, tokens = created["id"], tokens_of(created)
        with seated(client, table_id, tokens) as people, seat(client, table_id) as watcher:
            watcher.until(lambda m: m["type"] == "view")
            ack = name(people[0], f"  {tricky}  ", ref="mine")
            assert ack == {"type": "ack", "ref": "mine", "name": tricky}
            assert name(people[1], "Bob")["name"] == "Bob"
            for someone in (people[0], people[1], watcher):
                shown = shows(someone, lambda m: [s["name"] for s in m["table"]["seats"]] == [tricky, "Bob", None])
                assert shown["table"]["seats"][2]["bot"] == "random"
        assert names(client, table_id) == [tricky, "Bob", None]
        listed = next(t for t in client.get("/api/tables").json()["tables"] if t["id"] == table_id)
        assert [s["name"] for s in listed["seats"]] == [tricky, "Bob", None]
        for page in (client.get(f"/tables/{table_id}").text, client.get("/").text):
            assert tricky not in page and "<!--<script>" not in page
        page = client.get(f"/tables/{table_id}").text
        data = re.search(r'<script id="henge-data" type="application/json">(.*?)</script>', page, re.S)
        assert data is not None and "<" not in data.group(1)
        assert json.loads(data.group(1))["table"]["seats"][0]["name"] == tricky  # the page has it, as data


@pytest.mark.parametrize(
    "bad",
    [
        "",
        "    ",
        "x" * 25,
        " " + "y" * 25 + " ",
        "a\x00b",
        "tab\there",
        "two\nlines",
        "del\x7f",
        "right\u202eto left",
        "zero\u200bwidth",
        42,
        None,
        ["Ann"],
        {"name": "Ann"},
        True,
    ],
)
def test_a_bad_name_is_refused_and_nothing_changes(tmp_path, bad):
    with running(f"sqlite:///{tmp_path / 'h.db'}") as client:
        created = create(client, game="stonerush", seats=[HUMAN, RANDOM, RANDOM], sit=0)
        table_id, tokens = created["id"], tokens_of(created)
        with seated(client, table_id, tokens) as people:
            assert name(people[0], "Ann")["type"] == "ack"
            views = len([m for m in people[0].received if m["type"] == "view"])
            error = name(people[0], bad, ref=11)
            assert error == {"type": "error", "code": "bad_name", "message": NAME_RULE, "ref": 11}
            assert name(people[0], "x" * 24)["name"] == "x" * 24  # the longest there is; the socket still works
            assert len([m for m in people[0].received if m["type"] == "view"]) > views
        stored = Store(f"sqlite:///{tmp_path / 'h.db'}")
        record = stored.load(table_id, with_actions=False)
        stored.close()
        assert record is not None and record.seats[0].name == "x" * 24


def test_a_refused_name_leaves_the_stored_name_and_sends_no_view(tmp_path):
    with running(f"sqlite:///{tmp_path / 'h.db'}") as client:
        created = create(client, game="stonerush", seats=[HUMAN, HUMAN, RANDOM], sit=0)
        table_id, tokens = created["id"], tokens_of(created)
        with seated(client, table_id, tokens) as people:
            assert name(people[0], "Ann")["type"] == "ack"
            shows(people[1], lambda m: m["table"]["seats"][0]["name"] == "Ann")
            assert name(people[0], "A" * 25)["code"] == "bad_name"
            assert name(people[1], "\x1b[31mred")["code"] == "bad_name"
            people[1].send({"type": "ping", "ref": 1})
            after = answer(people[1])  # the refusals made no view: the next message answers the ping
            assert after["type"] == "pong"
        assert names(client, table_id) == ["Ann", None, None]


def test_a_spectator_cannot_name_a_seat(tmp_path):
    with running(f"sqlite:///{tmp_path / 'h.db'}") as client:
        created = create(client, game="stonerush", seats=[HUMAN, RANDOM, RANDOM], sit=0)
        table_id = created["id"]
        with seat(client, table_id) as watcher, seat(client, table_id, 0, "not the token") as impostor:
            watcher.until(lambda m: m["type"] == "view")
            error = name(watcher, "Mallory")
            assert error["type"] == "error" and error["code"] == "not_seated"
            assert answer(impostor)["code"] == "bad_token"  # the hello's refusal: it watches
            assert name(impostor, "Mallory")["code"] == "not_seated"
        assert names(client, table_id) == [None, None, None]


def test_names_survive_a_restart_and_a_new_person_at_the_seat_starts_without_one(storage):
    with running(storage) as client:
        created = create(client, game="stonerush", seats=[HUMAN, HUMAN, RANDOM], sit=0)
        table_id, tokens = created["id"], tokens_of(created)
        with seated(client, table_id, tokens) as people:
            assert name(people[0], "Ann")["type"] == "ack"
            assert name(people[1], "Bob")["type"] == "ack"
    with running(storage) as client:
        assert names(client, table_id) == ["Ann", "Bob", None]
        with seat(client, table_id, 1, tokens[1]) as bob:
            view = bob.until(lambda m: m["type"] == "view")
            assert [s["name"] for s in view["table"]["seats"]] == ["Ann", "Bob", None]
        # The creator gives seat 1 a new link: whoever comes with it is somebody else.
        replaced = client.post(f"/api/tables/{table_id}/seats/1/link", headers=bearer(created["creator_token"]))
        assert replaced.status_code == 200
        assert names(client, table_id) == ["Ann", None, None]
        # The person at seat 0 leaves: a bot plays it, with no name.
        assert client.post(f"/api/tables/{table_id}/seats/0/leave", headers=bearer(tokens[0])).status_code == 200
        assert names(client, table_id) == [None, None, None]
    with running(storage) as client:
        assert names(client, table_id) == [None, None, None]


def test_an_older_database_gains_the_name_and_rematch_columns(storage):
    """A database made before seats had names and tables rematches: it opens, keeps its tables, and
    gains both columns (nullable: its seats have no name, its tables no rematch)."""
    with running(storage) as client:
        created = create(client, game="threecard", players=2, seats=[HUMAN, RANDOM], sit=0)
        table_id, tokens = created["id"], tokens_of(created)
    engine = create_engine(database_url(storage))
    with engine.begin() as connection:
        connection.execute(text("ALTER TABLE henge_seats DROP COLUMN name"))
        connection.execute(text("ALTER TABLE henge_tables DROP COLUMN rematch"))
    engine.dispose()
    store = Store(storage)
    assert sorted(store.added_columns) == ["henge_seats.name", "henge_tables.rematch"]
    store.close()
    with running(storage) as client:
        info = client.get(f"/api/tables/{table_id}").json()
        assert [s["name"] for s in info["seats"]] == [None, None] and info["rematch"] is None
        with seated(client, table_id, {0: tokens[0]}) as people:
            assert name(people[0], "Ann")["name"] == "Ann"
            play_out(client, table_id, people)
        again = client.post(f"/api/tables/{table_id}/rematch", headers=bearer(tokens[0]))
        assert again.status_code == 200, again.text
        assert client.get(f"/api/tables/{again.json()['id']}").json()["seats"][0]["name"] == "Ann"
    store = Store(storage)
    assert store.added_columns == []
    store.close()


# -- rematch ----------------------------------------------------------------------------------------------


def test_a_seated_person_asks_for_a_rematch_once_the_game_is_over(storage):
    with running(storage) as client:
        created = create(client, game="threecard", players=3, seats=[HUMAN, HUMAN, RANDOM], sit=0, turn_limit=500)
        table_id, tokens = created["id"], tokens_of(created)
        path = f"/api/tables/{table_id}/rematch"
        refused(client.post(path, headers=bearer(tokens[0])), 409, "not_finished", "not over")
        with seated(client, table_id, tokens) as people, seat(client, table_id) as watcher:
            watcher.until(lambda m: m["type"] == "view")
            assert name(people[0], "Ann")["type"] == "ack"
            assert name(people[1], "Bob")["type"] == "ack"
            refused(client.post(path, headers=bearer(tokens[1])), 409, "not_finished", "once it is finished")
            play_out(client, table_id, people)
            for someone in (*people.values(), watcher):
                assert someone.until_over()["table"]["rematch"] is None
            for wrong in ({}, bearer("nonsense"), bearer(created["creator_token"]), bearer("x" * 300)):
                refused(client.post(path, headers=wrong), 403, "bad_token", "only a person seated")
            assert client.get(f"/api/tables/{table_id}").json()["rematch"] is None
            made = client.post(path, headers=bearer(tokens[1]))
            assert made.status_code == 200, made.text
            new_id = made.json()["id"]
            assert made.json() == {"id": new_id, "url": f"/tables/{new_id}"} and new_id != table_id
            for someone in (*people.values(), watcher):  # everybody is shown the way to it
                shows(someone, lambda m: m["table"]["rematch"] == new_id)
            assert client.post(path, headers=bearer(tokens[0])).json()["id"] == new_id  # made once
        old = client.get(f"/api/tables/{table_id}").json()
        new = client.get(f"/api/tables/{new_id}").json()
        assert old["rematch"] == new_id and new["rematch"] is None
        assert old["status"] == FINISHED and new["status"] == "running"
        for field in ("game", "players", "options", "turn_limit", "on_leave"):
            assert new[field] == old[field], field
        assert [(s["kind"], s["bot"], s["name"]) for s in new["seats"]] == [
            ("person", None, "Ann"),
            ("person", None, "Bob"),
            ("bot", "random", None),
        ]
        # Every person's old link opens their seat at the new table; the creator still manages it.
        with seated(client, new_id, tokens) as people:
            assert all(p.view is not None and p.view["seat"] == k for k, p in people.items())
            play_out(client, new_id, people)
        lobby = client.post(f"/api/tables/{new_id}/seats/1/lobby", json={"open": True}, headers=bearer(tokens[1]))
        refused(lobby, 403, "not_creator", "only the table's creator")
        deleted = client.delete(f"/api/tables/{new_id}", headers=bearer(created["creator_token"]))
        assert deleted.status_code == 200
        # Its rematch deleted, a finished table gets a new one.
        another = client.post(path, headers=bearer(tokens[0])).json()["id"]
        assert another not in (new_id, table_id)
    with running(storage) as client:  # the link is stored
        assert client.get(f"/api/tables/{table_id}").json()["rematch"] == another
        assert client.post(path, headers=bearer(tokens[1])).json()["id"] == another
        assert client.get(f"/api/tables/{another}").json()["status"] == "running"


def _stored_finished(db: str, seats: list[SeatRecord], options: dict[str, Any]) -> str:
    """Stores a finished game of Stonerush (random moves) with these seats, as a server would have."""
    game = henge.load("stonerush", len(seats), **options)
    rng = random.Random(5)
    state = game.new_initial_state()
    rows = []
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, weights = zip(*state.chance_outcomes(), strict=True)
            action, actor = rng.choices(outcomes, weights)[0], -1
        else:
            action, actor = rng.choice(state.legal_actions()), state.current_player()
        rows.append((action, state.action_to_string(action), actor))
        state.apply_action(action)
    store = Store(db)
    store.create_table(
        table_id="finished01",
        game="stonerush",
        game_version=game.info.version,
        players=len(seats),
        options=game.options,
        seed=5,
        status=FINISHED,
        seats=seats,
        turn_limit=90.0,
        on_leave="open",
    )
    store.append_actions("finished01", 0, rows, status=FINISHED, returns=state.returns())
    store.close()
    return "finished01"


def test_a_rematch_keeps_the_variant_bots_and_a_seat_left_open(tmp_path):
    db = f"sqlite:///{tmp_path / 'h.db'}"
    mine = new_token()
    seats = [
        SeatRecord(0, PERSON, None, token_hash(mine), True, False, "Ann"),
        SeatRecord(1, "bot", "heuristic", None, True),
        SeatRecord(2, PERSON, None, None, False, True),  # its person left; open to the lobby
    ]
    table_id = _stored_finished(db, seats, {"variant": "bluestones"})
    with running(db) as client:
        made = client.post(f"/api/tables/{table_id}/rematch", headers=bearer(mine))
        assert made.status_code == 200, made.text
        new = client.get(f"/api/tables/{made.json()['id']}").json()
        assert new["options"] == {"variant": "bluestones"} and new["turn_limit"] == 90.0 and new["on_leave"] == "open"
        assert [(s["kind"], s["bot"], s["claimed"], s["lobby"], s["name"]) for s in new["seats"]] == [
            ("person", None, True, False, "Ann"),
            ("bot", "heuristic", True, False, None),
            ("person", None, False, True, None),
        ]
        assert new["status"] == "waiting"  # seat 2 waits for somebody from the lobby
        taken = client.post(f"/api/tables/{made.json()['id']}/seats/2/take")
        assert taken.status_code == 200
        with seat(client, made.json()["id"], 0, mine) as ann:
            assert ann.until(lambda m: m["type"] == "view")["seat"] == 0


def test_a_rematch_of_a_table_that_is_not_there_is_not_found(tmp_path):
    with running(f"sqlite:///{tmp_path / 'h.db'}") as client:
        refused(client.post("/api/tables/nonesuch/rematch", headers=bearer("x")), 404, "no_table", "no such table")
        refused(client.post("/api/tables/" + "x" * 40 + "/rematch"), 404, "no_table", "no such table")
        assert client.get("/api/tables/nonesuch/rematch").status_code == 405


# -- rules ------------------------------------------------------------------------------------------------


def test_every_games_rules_page_is_served_as_html(tmp_path):
    with running(f"sqlite:///{tmp_path / 'h.db'}") as client:
        for game_id in henge.list_games():
            response = client.get(f"/games/{game_id}/rules")
            assert response.status_code == 200, game_id
            assert response.headers["content-type"].startswith("text/html")
            page = response.text
            assert "<h2>" in page or "<h1>" in page, game_id
            assert "<script" not in page and "## " not in page, game_id
        refused(client.get("/games/nonesuch/rules"), 404, "no_game", "no such game")
        assert client.get("/games/" + "x" * 5000 + "/rules").status_code == 404


def test_markup_in_the_rules_text_shows_as_text(tmp_path, monkeypatch):
    source = (
        "# Rules\n\n<script>alert(1)</script>\n\nA <b>bold</b> claim & [a link](javascript:alert(1)).\n\n"
        "| card | points |\n|---|---|\n| 13d | 3 |\n"
    )
    rendered = app_module.render_markdown(source)
    assert "<script>" not in rendered and "&lt;script&gt;alert(1)&lt;/script&gt;" in rendered
    assert "<b>" not in rendered and "&lt;b&gt;bold&lt;/b&gt;" in rendered
    assert 'href="javascript:' not in rendered and "<a " not in rendered
    assert "<table>" in rendered and "<td>13d</td>" in rendered and "<h1>Rules</h1>" in rendered
    monkeypatch.setattr(GamePlugin, "rules_text", lambda _plugin: source)
    app_module.rules_html.cache_clear()
    try:
        with running(f"sqlite:///{tmp_path / 'h.db'}") as client:
            assert client.get("/games/threecard/rules").text == rendered
    finally:
        app_module.rules_html.cache_clear()


def test_a_game_without_a_rules_page_says_so(tmp_path, monkeypatch):
    monkeypatch.setattr(GamePlugin, "rules_text", lambda _plugin: None)
    app_module.rules_html.cache_clear()
    try:
        with running(f"sqlite:///{tmp_path / 'h.db'}") as client:
            refused(client.get("/games/stonerush/rules"), 404, "no_rules", "no rules page")
    finally:
        app_module.rules_html.cache_clear()


# -- previews ---------------------------------------------------------------------------------------------


class FakePreview:
    """A game's preview function that records what it was given: a short text for every other action."""

    def __init__(self) -> None:
        self.calls: list[tuple[dict[str, Any], int, str]] = []

    def __call__(self, observation: dict[str, Any], seat: int, action_text: str) -> str | None:
        seen = {k: v for k, v in observation.items() if k != "scribbled"}
        self.calls.append((json.loads(json.dumps(seen)), seat, action_text))
        observation["scribbled"] = True  # a careless preview cannot change the table's observation
        return self.text(seat, action_text)

    @staticmethod
    def text(seat: int, action_text: str) -> str | None:
        """The preview of an action: none for a third of them."""
        if zlib.crc32(action_text.encode()) % 3 == 0:
            return None
        return f"{action_text} for seat {seat}: {html.escape(action_text)}"


def test_only_the_seat_to_move_gets_previews_made_from_its_own_observation(tmp_path, monkeypatch):
    fake = FakePreview()
    monkeypatch.setattr(GamePlugin, "load_preview", lambda _plugin: fake)
    with running(f"sqlite:///{tmp_path / 'h.db'}") as client:
        created = create(client, game="stonerush", seats=[HUMAN, HUMAN, RANDOM], sit=0)
        table_id, tokens = created["id"], tokens_of(created)
        with seated(client, table_id, tokens) as people, seat(client, table_id) as watcher:
            checked = shown = 0
            deadline = time.monotonic() + 60
            while checked < 4:
                assert time.monotonic() < deadline
                state = true_state(client, table_id)
                mover = state.current_player()
                if mover not in people:
                    time.sleep(0.005)
                    continue
                view = people[mover].until_turn_or_end()
                legal = [a["text"] for a in view["legal"]]
                previews = view["previews"]
                expected = {t: fake.text(mover, t) for t in legal}
                assert previews == {t: p for t, p in expected.items() if p is not None}, previews
                shown += len(previews)
                observation = view["observation"]
                mine = [c for c in fake.calls if c[1] == mover and c[0] == observation]
                assert {c[2] for c in mine} == set(legal), "each legal action previewed once from this observation"
                sent = [m["observation"] for m in people[mover].received if m["type"] == "view"]
                assert all(c[0] in sent for c in fake.calls if c[1] == mover), "a preview saw more than its seat"
                assert "scribbled" not in observation
                other = people[1 - mover]
                other.send({"type": "ping", "ref": 0})
                other.until(lambda m: m["type"] == "pong")
                assert all(m["previews"] == {} for m in other.received if m["type"] == "view" and not m["legal"])
                # More views of the same moment (a spectator joins, a name is set) make no previews again.
                calls = len(fake.calls)
                assert name(people[mover], f"Seat {mover}")["type"] == "ack"
                with seat(client, table_id) as another:
                    assert another.until(lambda m: m["type"] == "view")["previews"] == {}
                again = people[mover].until(lambda m: m["type"] == "view" and bool(m["legal"]))
                assert again["previews"] == previews and len(fake.calls) == calls
                assert people[mover].act(legal[0])["type"] == "ack"
                checked += 1
            assert shown > 0
            watcher.send({"type": "ping", "ref": 0})
            watcher.until(lambda m: m["type"] == "pong")
            assert all(m["previews"] == {} for m in watcher.received if m["type"] == "view")
        assert live_table(client, table_id).observations[0].get("scribbled") is None


def test_a_failing_preview_costs_only_its_text(tmp_path, monkeypatch, caplog):
    def failing(_observation: dict[str, Any], _seat: int, action_text: str) -> str | None:
        if action_text.startswith("play"):
            raise ValueError("a hidden card 13d")
        return "fine"

    monkeypatch.setattr(GamePlugin, "load_preview", lambda _plugin: failing)
    with running(f"sqlite:///{tmp_path / 'h.db'}") as client:
        created = create(client, game="stonerush", seats=[HUMAN, RANDOM, RANDOM], sit=0)
        table_id, tokens = created["id"], tokens_of(created)
        with seated(client, table_id, tokens) as people:
            view = people[0].until_turn_or_end()
            legal = [a["text"] for a in view["legal"]]
            assert view["previews"] == {t: "fine" for t in legal if not t.startswith("play")}
    assert any("a preview failed (ValueError)" in r.getMessage() for r in caplog.records)
    assert "13d" not in caplog.text
