"""The web server through its API and WebSockets: authority, tokens, secrets, storage, restarts."""

from __future__ import annotations

import contextlib
import json
import logging
import random
import time

import pytest
from web_support import (
    CARD,
    Spy,
    create,
    credentials,
    database,
    fixed_seed,
    hidden_cards,
    live_table,
    running,
    seat,
    true_state,
)

import henge
from henge.agents import heuristics
from henge.core import Decision
from henge.server.store import Store

GAMES = henge.list_games()
pytestmark = pytest.mark.timeout(120)


def _smallest(game_id: str) -> int:
    return henge.game_class(game_id).info.min_players


def _people_table(client, game_id: str, players: int) -> tuple[str, dict[int, str]]:
    """Creates a table of people only (no bots, so nothing moves unless a test acts)."""
    created = create(client, game=game_id, players=players, seats=[{"kind": "person"}] * players, sit=None)
    return created["id"], dict(credentials(link["url"]) for link in created["links"])


def _all_seated(client, table_id: str, tokens: dict[int, str]) -> None:
    for number, token in tokens.items():
        with seat(client, table_id, number, token) as s:
            s.until(lambda m: m["type"] == "view")


def _to_move(client, table_id: str) -> int:
    for _ in range(1000):
        state = true_state(client, table_id)
        if state.current_player() >= 0 or state.is_terminal():
            return state.current_player()
        time.sleep(0.01)
    raise AssertionError("the dealer never finished")


# -- creating tables and the lobby ---------------------------------------------------------------


def test_create_play_against_bots_and_the_lobby_lists_it_without_secrets(tmp_path):
    with running(database(tmp_path / "h.db")) as client:
        created = create(client, game="stonerush", players=3)
        assert [link["seat"] for link in created["links"]] == [0]
        table = live_table(client, created["id"])
        assert table.agents == {1: "beginner", 2: "beginner"}  # play against bots starts at the lowest level
        listed = client.get("/api/tables").json()["tables"]
        assert [t["id"] for t in listed] == [created["id"]]
        assert listed[0]["status"] == "running"
        assert [s["kind"] for s in listed[0]["seats"]] == ["person", "bot", "bot"]
        lobby = client.get("/").text
        assert created["id"] in lobby and "Being played" in lobby
        _seat, token = credentials(created["links"][0]["url"])
        for text in (json.dumps(listed), lobby, client.get(f"/tables/{created['id']}").text):
            assert str(table.seed) not in text
            assert token not in text
            assert "token_hash" not in text


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"game": "chess"}, "unknown game 'chess'"),
        ({"game": "stonerush", "players": 9}, "3-5 players"),
        ({"game": "stonerush", "players": 3, "variant": "moon"}, "must be one of standard, bluestones"),
        ({"game": "stonerush", "players": 3, "bot": "genius"}, "'genius' does not play stonerush; levels and bots: "),
        ({"game": "stonerush", "players": 3, "seats": [{"kind": "person"}]}, "3 players need 3 seats"),
        ({"game": "stonerush", "seats": [{"kind": "bot", "bot": "random"}] * 3, "sit": 1}, "not a seat for a person"),
        ({"game": "stonerush", "seats": [{"kind": "ghost"}] * 3, "sit": None}, "'person' or 'bot'"),
    ],
)
def test_bad_tables_are_refused_with_a_reason(tmp_path, body, message):
    with running(database(tmp_path / "h.db")) as client:
        response = client.post("/api/tables", json=body)
        assert response.status_code == 400
        assert message in response.json()["error"]
        assert client.get("/api/tables").json()["tables"] == []


def test_open_seats_wait_then_the_game_starts_when_every_seat_is_taken(tmp_path):
    with running(database(tmp_path / "h.db")) as client:
        # Seat 1 is open to the lobby (an invited seat is not: tests/test_web_seats.py).
        seats = [{"kind": "person"}, {"kind": "person", "lobby": True}, {"kind": "bot", "bot": "random"}]
        created = create(client, game="stonerush", seats=seats)
        table_id = created["id"]
        assert live_table(client, table_id).status == "waiting"
        assert live_table(client, table_id).state.move_number() == 0  # nobody deals to an empty chair
        assert 'data-seat="1"' in client.get("/").text  # the lobby offers the open seat
        taken = client.post(f"/api/tables/{table_id}/seats/1/take")
        assert taken.status_code == 200
        again = client.post(f"/api/tables/{table_id}/seats/1/take")
        assert again.status_code == 409 and "already taken" in again.json()["error"]
        assert client.post(f"/api/tables/{table_id}/seats/2/take").status_code == 409  # a bot's seat
        assert live_table(client, table_id).status == "running"
        # The creator's old link for seat 1 was replaced when the seat was taken from the lobby.
        old = dict(credentials(link["url"]) for link in created["links"])[1]
        with seat(client, table_id, 1, old) as s:
            error = s.until(lambda m: m["type"] == "error")
            assert error["code"] == "bad_token"
        number, token = credentials(taken.json()["url"])
        with seat(client, table_id, number, token) as s:
            view = s.until(lambda m: m["type"] == "view")
            assert view["seat"] == 1 and view["observation"]["hand"] is not None


# -- tokens and the authority of the server ------------------------------------------------------


def test_a_seat_needs_its_token(tmp_path):
    with running(database(tmp_path / "h.db")) as client:
        table_id, tokens = _people_table(client, "stonerush", 3)
        attempts = [(0, None), (0, "guess"), (0, tokens[1]), (5, tokens[0]), ("0", tokens[0]), (True, tokens[1])]
        for number, token in attempts:
            with seat(client, table_id, number, token) as s:  # type: ignore[arg-type]
                error = s.until(lambda m: m["type"] == "error")
                assert error["code"] in ("bad_token", "bad_seat"), error
                assert "you are watching" in error["message"]
                view = s.until(lambda m: m["type"] == "view")
                assert view["seat"] is None and view["observation"]["hand"] is None and view["legal"] == []
                answer = s.act("done")
                assert answer["type"] == "error" and answer["code"] == "not_seated"
        for number in tokens:
            assert live_table(client, table_id).seats[number].claimed is False
        with client.websocket_connect("/ws/tables/nosuchtable") as ws:
            assert ws.receive_json()["code"] == "no_table"


def test_illegal_actions_are_refused_and_change_nothing(tmp_path):
    db = database(tmp_path / "h.db")
    with running(db) as client:
        table_id, tokens = _people_table(client, "stonerush", 3)
        _all_seated(client, table_id, tokens)
        player = _to_move(client, table_id)
        other = (player + 1) % 3
        table = live_table(client, table_id)
        before = table.state.to_json()
        hand = table.state.observation(player)["hand"]
        not_held = next(c for c in ("1d", "2d", "3d", "4d", "5d", "6d") if c not in hand)
        store = Store(db)
        stored = store.action_count(table_id)
        with seat(client, table_id, other, tokens[other]) as s:
            s.until(lambda m: m["type"] == "view")
            answer = s.act(f"play {table.state.observation(other)['hand'][0]}")
            assert answer["code"] == "not_your_turn" and f"seat {player}'s turn" in answer["message"]
        with seat(client, table_id, player, tokens[player]) as s:
            view = s.until(lambda m: m["type"] == "view")
            assert [a["text"] for a in view["legal"]] == table.state.legal_action_texts()
            cases = [
                ("done", "illegal"),  # done before any card is laid
                (f"play {not_held}", "illegal"),
                ("fly away", "illegal"),
                (999, "illegal"),
                (-1, "illegal"),
                (None, "illegal"),
                (1.5, "illegal"),
                (["play", hand[0]], "illegal"),
                (True, "illegal"),
            ]
            for action, code in cases:
                answer = s.act(action)
                assert answer["type"] == "error" and answer["code"] == code, (action, answer)
                assert answer["ref"] == 7
            assert "legal now: play" in s.act("fly away")["message"]
            s.send("not json")
            assert s.until(lambda m: m["type"] == "error")["code"] == "bad_message"
            s.send({"type": "dance"})
            assert s.until(lambda m: m["type"] == "error")["code"] == "bad_message"
            s.send({"type": "ping", "ref": 3})
            assert s.until(lambda m: m["type"] != "view") == {"type": "pong", "ref": 3}
            assert table.state.to_json() == before
            assert store.action_count(table_id) == stored
            # A legal action by text (any case and spacing) or by id is taken.
            answer = s.act(f"  PLAY   {hand[0].upper()} ")
            assert answer == {"type": "ack", "ref": 7, "action": f"play {hand[0]}"}
            assert store.action_count(table_id) == stored + 1
            done = table.state.string_to_action("done")
            assert s.act(done)["type"] == "ack"
        store.close()


def test_every_accepted_action_is_stored_before_it_is_acknowledged(storage, monkeypatch):
    db = storage
    with running(db) as client:
        table_id, tokens = _people_table(client, "stonerush", 3)
        _all_seated(client, table_id, tokens)
        player = _to_move(client, table_id)
        table = live_table(client, table_id)
        observer = Store(db)
        with seat(client, table_id, player, tokens[player]) as s:
            s.until(lambda m: m["type"] == "view")
            card = table.state.observation(player)["hand"][0]
            step = table.state.move_number()
            answer = s.act(f"play {card}")
            assert answer["type"] == "ack"
            stored = observer.load(table_id)
            assert stored is not None and stored.actions[step] == table.state.string_to_action(f"play {card}")
            # A failed write is an error, and the action is not applied.
            store = client.app.state.store  # type: ignore[attr-defined]

            def broken(*args, **kwargs):
                raise OSError("disk full")

            monkeypatch.setattr(store, "append_actions", broken)
            before = table.state.to_json()
            answer = s.act("done")
            assert answer["type"] == "error" and answer["code"] == "storage"
            assert "nothing changed" in answer["message"]
            assert table.state.to_json() == before
            monkeypatch.undo()
            assert s.act("done")["type"] == "ack"
            assert observer.action_count(table_id) == table.state.move_number()
        observer.close()


# -- what a client may see ---------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("game_id", GAMES)
def test_a_whole_game_sends_each_seat_only_its_own_view(tmp_path, monkeypatch, caplog, game_id):
    """Everything sent to a seat is its observation, its legal actions and its log: never another
    seat's hidden cards, the draw pile, the seed or another seat's token."""
    spy = Spy()
    spy.install(monkeypatch)
    caplog.set_level(logging.DEBUG)
    players = _smallest(game_id)
    people = min(2, players)
    rng = random.Random(5)
    with running(database(tmp_path / "h.db")) as client:
        # Sensible play where the game has a rule-based player: random play of long games runs to
        # thousands of actions.
        sensible = heuristics.has_heuristic(game_id)
        bot = "heuristic" if sensible else "random"
        seats = [{"kind": "person"}] * people + [{"kind": "bot", "bot": bot}] * (players - people)
        # A fixed seed: each game is the same every run (a game's length, and so the views to check,
        # vary much from seed to seed).
        with fixed_seed(monkeypatch, f"views/{game_id}"):
            created = create(client, game=game_id, players=players, seats=seats, sit=None)
        tokens = dict(credentials(link["url"]) for link in created["links"])
        table_id = created["id"]
        table = live_table(client, table_id)
        secrets = [str(table.seed), *tokens.values()]
        with contextlib.ExitStack() as stack:
            clients = {k: stack.enter_context(seat(client, table_id, k, tokens[k])) for k in range(people)}
            watcher = stack.enter_context(seat(client, table_id, None))
            for someone in [*clients.values(), watcher]:
                someone.until(lambda m: m["type"] == "view")
            deadline = time.monotonic() + 240  # Spell Casting's random games run to thousands of actions
            while time.monotonic() < deadline:
                now = true_state(client, table_id)
                if now.is_terminal():
                    break
                mover = now.current_player()
                if mover in clients:
                    me = clients[mover]
                    view = me.until_turn_or_end()
                    if view["over"]:
                        break
                    legal = view["legal"]
                    choice = rng.choice(legal)["id"]
                    if sensible:
                        decision = Decision(
                            game_id=game_id,
                            seat=mover,
                            observation=view["observation"],
                            legal_actions=[a["id"] for a in legal],
                            legal_texts=[a["text"] for a in legal],
                            rng=rng,
                        )
                        choice = heuristics.chooser(game_id)(decision)
                    answer = me.act(choice)
                    assert answer["type"] == "ack", answer
                else:
                    time.sleep(0.002)
            assert table.state.is_terminal()
            for someone in [*clients.values(), watcher]:
                someone.until_over()
        pages = [
            client.get(path).text for path in ("/", f"/tables/{table_id}", "/api/tables", f"/api/tables/{table_id}")
        ]
    assert spy.sent
    seen: dict[int | None, set[str]] = {}  # every card a seat's views have shown it so far
    for number, message, state in spy.sent:
        assert message["observation"] == state.observation(number)
        mine = number is not None and state.current_player() == number
        assert [a["text"] for a in message["legal"]] == (state.legal_action_texts() if mine else [])
        seen.setdefault(number, set()).update(CARD.findall(json.dumps(message["observation"])))
        # The legal actions are the engine's for this seat (checked above), and the conformance suite
        # proves them unchanged by re-drawing what the seat cannot see: they may name cards it
        # cannot see (First Druid's "ask X") without saying where those are; so may their previews, which
        # the leak property suite (tests/test_web_leaks.py) proves are read from the seat's observation.
        view = json.dumps({k: v for k, v in message.items() if k not in ("log", "legal", "previews", "last_turn")})
        leaked = set(CARD.findall(view)) & hidden_cards(state, number)
        assert not leaked, f"seat {number} was sent {leaked}"
        # The log and the last turn may recount what was public once (a card discarded face up and
        # since covered or reshuffled), never more.
        for part in ("log", "last_turn"):
            told = set(CARD.findall(json.dumps(message[part]))) - seen[number]
            assert not told, f"seat {number}'s {part} names cards it never saw: {told}"
        for secret in secrets:
            assert secret not in json.dumps(message)
    # The clients received exactly what the spy saw leave, plus acks and errors of their own.
    received = [m for c in [*clients.values(), watcher] for m in c.received]
    assert all(m["type"] in ("view", "ack", "error", "pong") for m in received)
    for text in [*pages, *(r.getMessage() for r in caplog.records)]:
        for secret in secrets:
            assert secret not in text


def test_the_log_is_made_of_the_seats_own_observations(tmp_path):
    with running(database(tmp_path / "h.db")) as client:
        created = create(client, game="stonerush", players=3)
        table_id = created["id"]
        number, token = credentials(created["links"][0]["url"])
        rng = random.Random(2)
        with seat(client, table_id, number, token) as s:
            for _ in range(6):
                view = s.until_turn_or_end()
                if view["over"]:
                    break
                s.act(rng.choice(view["legal"])["text"])
            log = list(s.log)
        assert any("your secret trilithon card is" in line for line in log)
        assert any(line.startswith("the cards are dealt: your hand is") for line in log)
        # Reconnecting gives the same log again, whole.
        with seat(client, table_id, number, token) as s:
            view = s.until(lambda m: m["type"] == "view")
            assert view["log_start"] == 0 and view["log"][: len(log)] == log
        table = live_table(client, table_id)
        assert table.logs[number][: len(log)] == log
        spectator_log = table.logs[None]
        assert not any("your" in line or line.startswith("you ") for line in spectator_log)


# -- storage and restarts -------------------------------------------------------------------------


def test_a_restart_resumes_every_unfinished_table_exactly(storage):
    db = storage
    rng = random.Random(9)
    with running(db) as client:
        created = create(client, game="stonerush", players=4)
        playing = created["id"]
        number, token = credentials(created["links"][0]["url"])
        with seat(client, playing, number, token) as s:
            for _ in range(8):
                view = s.until_turn_or_end()
                s.act(rng.choice(view["legal"])["text"])
            view = s.until_turn_or_end()
            log = list(s.log)
        waiting = create(client, game="stonerush", players=3, seats=[{"kind": "person"}] * 3, sit=0)["id"]
        table = live_table(client, playing)
        before = table.state.to_json()
        logs = {k: list(v) for k, v in table.logs.items()}
        assert table.state.current_player() == number  # bots wait for the person: nothing moves now
    with running(db) as client:
        table = live_table(client, playing)
        assert table.state.to_json() == before
        assert table.logs == logs
        assert live_table(client, waiting).status == "waiting"
        with seat(client, playing, number, token) as s:
            again = s.until_turn_or_end()
            assert again["observation"] == view["observation"] and again["legal"] == view["legal"]
            assert s.log == log
            current = again
            while not current["over"]:  # and the game goes on to its end, bots and dealer included
                s.act(rng.choice(current["legal"])["text"])
                current = s.until_turn_or_end()
        statuses = {t["id"]: t["status"] for t in client.get("/api/tables").json()["tables"]}
        assert statuses == {playing: "finished", waiting: "waiting"}


def test_a_table_stored_by_another_version_is_set_aside(tmp_path, caplog):
    db = database(tmp_path / "h.db")
    with running(db) as client:
        created = create(client, game="stonerush", players=3)
        table_id = created["id"]
    store = Store(db)
    with store.engine.begin() as connection:
        connection.exec_driver_sql("UPDATE henge_tables SET game_version = '0.0.1'")
    store.close()
    with running(db) as client:
        assert table_id not in client.app.state.tables.live  # type: ignore[attr-defined]
        assert client.get("/api/tables").json()["tables"][0]["status"] == "broken"
        # Closed, with both versions named, wherever the table is asked for; the server keeps answering.
        version = henge.game_class("stonerush").info.version
        why = f"played with stonerush version 0.0.1, and this henge plays version {version}"
        answer = client.get(f"/api/tables/{table_id}")
        assert answer.status_code == 410 and answer.json()["code"] == "closed" and why in answer.json()["error"]
        page = client.get(f"/tables/{table_id}")
        assert page.status_code == 410 and why in page.text
        assert client.get(f"/tables/{table_id}/replay").status_code == 410
        lobby = client.get("/").text
        assert "Closed (stored by another version of the rules)" in lobby and table_id in lobby
        with client.websocket_connect(f"/ws/tables/{table_id}") as socket:
            message = socket.receive_json()
        assert message["type"] == "error" and message["code"] == "closed" and why in message["message"]
        assert client.get("/api/tables/nonesuch").json()["code"] == "no_table"
        assert client.get("/healthz").json() == {"status": "ok"}
        # Its creator may delete it, and nobody else.
        refused = client.delete(f"/api/tables/{table_id}", headers={"Authorization": "Bearer not-the-token"})
        assert refused.status_code == 403 and refused.json()["code"] == "not_creator"
        bearer = {"Authorization": f"Bearer {created['creator_token']}"}
        assert client.delete(f"/api/tables/{table_id}", headers=bearer).json() == {"deleted": table_id}
        assert client.get(f"/api/tables/{table_id}").status_code == 404
        assert all(t["id"] != table_id for t in client.get("/api/tables").json()["tables"])
    assert any("cannot be resumed" in r.getMessage() for r in caplog.records)


# -- replays --------------------------------------------------------------------------------------


def test_a_finished_table_replays_with_everything_revealed(tmp_path):
    with running(database(tmp_path / "h.db")) as client:
        created = create(client, game="stonerush", players=3, seats=[{"kind": "bot", "bot": "random"}] * 3, sit=None)
        table_id = created["id"]
        with seat(client, table_id) as s:
            s.until_over()
        table = live_table(client, table_id)
        steps = client.get(f"/api/tables/{table_id}/replay").json()["steps"]
        assert len(steps) == table.state.move_number()
        assert steps[0]["actor"] is None and steps[0]["text"].startswith("draw T-")
        last = client.get(f"/api/tables/{table_id}/replay/{len(steps)}").json()
        assert last["over"] and last["returns"] == table.state.returns()
        assert last["seats"] == [table.state.observation(k) for k in range(3)]
        middle = client.get(f"/api/tables/{table_id}/replay/40").json()
        assert all(obs["hand"] is not None for obs in middle["seats"])
        assert client.get(f"/api/tables/{table_id}/replay/{len(steps) + 1}").status_code == 404
        page = client.get(f"/tables/{table_id}/replay").text
        assert "replay.js" in page and 'data-space="bluestone:19"' in page
        record = client.get(f"/api/tables/{table_id}/record").json()
        assert record["seed"] is None
        assert henge.replay(record)[-1].returns() == table.state.returns()
        assert str(table.seed) not in json.dumps(record)


def test_an_unfinished_table_has_no_replay(tmp_path):
    with running(database(tmp_path / "h.db")) as client:
        table_id, _tokens = _people_table(client, "stonerush", 3)
        assert client.get(f"/api/tables/{table_id}/replay").status_code == 403
        assert client.get(f"/api/tables/{table_id}/replay/0").status_code == 403
        assert client.get(f"/api/tables/{table_id}/record").status_code == 403
        assert client.get(f"/tables/{table_id}/replay").status_code == 403
        assert client.get("/tables/nosuchtable").status_code == 404


def test_a_spectator_sees_no_hand_and_can_follow_a_bots_game(tmp_path):
    with running(database(tmp_path / "h.db")) as client:
        created = create(client, game="stonerush", players=3, seats=[{"kind": "bot", "bot": "random"}] * 3, sit=None)
        with seat(client, created["id"]) as s:
            views = []
            while True:
                message = s.receive()
                if message["type"] == "view":
                    views.append(message)
                    assert message["observation"]["hand"] is None and message["legal"] == []
                    if message["over"]:
                        break
            assert views[-1]["returns"] == live_table(client, created["id"]).state.returns()
            assert any("wins" in line or "win" in line for line in s.log[-3:])


def test_seats_show_who_is_online(tmp_path):
    with running(database(tmp_path / "h.db")) as client:
        table_id, tokens = _people_table(client, "stonerush", 3)
        with seat(client, table_id, 0, tokens[0]) as first:
            first.until(lambda m: m["type"] == "view")
            with seat(client, table_id, 1, tokens[1]) as second:
                second.until(lambda m: m["type"] == "view")
                view = first.until(lambda m: m["type"] == "view" and m["table"]["seats"][1]["online"])
                assert view["table"]["seats"][0]["online"] and not view["table"]["seats"][2]["online"]
            view = first.until(lambda m: m["type"] == "view" and not m["table"]["seats"][1]["online"])
            assert view["table"]["seats"][1]["claimed"]


def test_messages_are_checked(tmp_path):
    with running(database(tmp_path / "h.db")) as client:
        table_id, _tokens = _people_table(client, "stonerush", 3)
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            ws.send_json({"type": "act", "action": "done"})
            assert ws.receive_json()["code"] == "no_hello"
        with seat(client, table_id) as s:
            s.until(lambda m: m["type"] == "view")
            s.send({"type": "hello", "seat": 0})
            assert s.until(lambda m: m["type"] == "error")["code"] == "bad_message"


def test_games_api_lists_games_and_bots(tmp_path):
    with running(database(tmp_path / "h.db")) as client:
        data = client.get("/api/games").json()
        assert [g["id"] for g in data["games"]] == GAMES
        assert data["bots"] == henge.agents.agent_names()
        assert [level["name"] for level in data["levels"]][:3] == ["beginner", "casual", "strong"]
        assert all(level["plays"] for level in data["levels"])
        levels = {g["id"]: (g["levels"], g["first_opponent"]) for g in data["games"]}
        assert levels == {
            game_id: (["beginner", "casual", "strong"], "beginner")
            if henge.agents.heuristics.has_heuristic(game_id)
            else ([], henge.agents.RULES_ONLY)  # a plugin game without a rule-based player has no levels
            for game_id in GAMES
        }
        assert "threecard" in GAMES and levels["threecard"][0] == []
        stonerush = next(g for g in data["games"] if g["id"] == "stonerush")
        assert [(k["name"], k["default"], k["values"][0], k["values"][-1]) for k in stonerush["knobs"]] == [
            ("track", 30, 10, 30),
            ("hand", 4, 3, 6),
        ]
        assert client.get("/healthz").json() == {"status": "ok"}
        assert client.get("/static/generic.js").status_code == 200
        assert 'Henge.register("stonerush"' in client.get("/games/stonerush/board.js").text
        missing = client.get("/games/nonesuch/board.js")
        assert missing.status_code == 404 and missing.json()["code"] == "no_game"


def test_the_creator_takes_the_first_person_seat_unless_told(tmp_path):
    with running(database(tmp_path / "h.db")) as client:
        seats = [{"kind": "bot", "bot": "random"}, {"kind": "person"}, {"kind": "person"}]
        created = create(client, game="stonerush", seats=seats)
        assert created["sit"] == 1 and [link["seat"] for link in created["links"]] == [1, 2]
        assert [s.claimed for s in live_table(client, created["id"]).seats] == [True, True, False]
        bots = create(client, game="stonerush", seats=[{"kind": "bot", "bot": "random"}] * 3)
        assert bots["sit"] is None and bots["links"] == []


def test_the_dealer_and_bots_retry_a_failed_write(storage, monkeypatch, caplog):
    with running(storage) as client:
        store = client.app.state.store  # type: ignore[attr-defined]
        original = store.append_actions
        failures = iter([True, True])

        def flaky(*args, **kwargs):
            if next(failures, False):
                raise OSError("the disk hiccups")
            return original(*args, **kwargs)

        monkeypatch.setattr(store, "append_actions", flaky)
        created = create(client, game="stonerush", players=3, seats=[{"kind": "bot", "bot": "random"}] * 3)
        with seat(client, created["id"]) as s:
            final = s.until_over()
        assert final["returns"] == live_table(client, created["id"]).state.returns()
    failed = [r.getMessage() for r in caplog.records if "failed" in r.getMessage()]
    assert len(failed) == 2 and all("(OSError)" in line and "hiccups" not in line for line in failed)


def test_a_table_whose_actions_do_not_replay_is_set_aside_without_quoting_them(tmp_path, caplog):
    db = database(tmp_path / "h.db")
    with running(db) as client:
        table_id = create(client, game="stonerush", players=3, seats=[{"kind": "person"}] * 3, sit=0)["id"]
    store = Store(db)
    store.append_actions(table_id, 0, [(5, "draw 3d", -1)])  # no trilithon card first: not legal
    store.close()
    with running(db) as client:
        answer = client.get(f"/api/tables/{table_id}")
        assert answer.status_code == 410 and answer.json()["code"] == "closed"
        assert answer.json()["error"] == "this table is closed: a stored action is not legal in this henge"
    messages = [r.getMessage() for r in caplog.records if table_id in r.getMessage()]
    assert any("a stored action is not legal" in m for m in messages)
    assert not any("legal:" in m or "T-" in m for m in messages)
