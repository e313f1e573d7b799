"""Undo at a live table: a person takes back the steps of their own turn in progress, and nobody else
ever sees them.

For every game a person plays against bots through the server; at each of their decisions the
view's ``undo`` must be the count of the turn in progress computed here from the engine alone, over
the stored history (``open_turn``), an undo must be refused where that count is 0 (nothing changes,
in the state or in the database) and applied once where it is not (one stored action fewer, the
seat's ``seq`` one lower, every other viewer's view unchanged). At the end every log, the
spectator's as it was sent included, is the log of a table replayed from what is stored: the undone
steps left no trace. Undo survives a restart, on both databases.
"""

from __future__ import annotations

import contextlib
import json
import random
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
from conftest import shipped_games
from fastapi.testclient import TestClient
from web_support import Seat, create, credentials, live_table, running, seat, view_decision

import henge
from henge.agents import heuristics
from henge.core import Game, Step, open_turn, steps_of, turns
from henge.server.store import SeatRecord, Store, TableRecord
from henge.server.tables import NO_UNDO, Connection, LiveTable, TableError

SHIPPED = shipped_games()
GAME_FIELDS = ("observation", "legal", "to_move", "chance", "over", "returns", "seq", "undo", "last_turn")
DECISIONS = 60
"""The person's decisions per game (a game that ends sooner is played to its end)."""
pytestmark = pytest.mark.timeout(240)


def _players(game_id: str) -> int:
    info = henge.game_class(game_id).info
    return min(max(3, info.min_players), info.max_players)


def _bot(game_id: str) -> str:
    return "heuristic" if heuristics.has_heuristic(game_id) else "random"


def _expected_undo(game: Game, history: list[int], seat_number: int) -> int:
    """How many steps ``seat_number`` may take back after ``history``: its turn in progress."""
    state = game.new_initial_state()
    for action in history:
        state.apply_action(action)
    if state.current_player() != seat_number:
        return 0
    return open_turn(steps_of(game, history), seat_number)


async def _nowhere(_message: dict[str, Any]) -> None:
    """A connection's send that goes nowhere: the view is only looked at."""


def _others(table: LiveTable, me: int) -> dict[str, str]:
    """Every other viewer's view (its game fields and whole log), as it would travel (JSON text)."""
    shown = {}
    for viewer in [*range(table.game.num_players), None]:
        if viewer == me:
            continue
        view = table.view(Connection(send=_nowhere, seat=viewer))
        shown[str(viewer)] = json.dumps({name: view[name] for name in (*GAME_FIELDS, "log")}, sort_keys=True)
    return shown


def _choose(game_id: str, view: dict[str, Any], rng: random.Random) -> int:
    legal = view["legal"]
    if game_id == "spell_casting":  # random play runs to thousands of actions there
        return int(heuristics.chooser(game_id)(view_decision(view, rng, game_id)))
    return int(rng.choice(legal)["id"])


def _stored(client: TestClient, table_id: str) -> list[int]:
    app: Any = client.app
    record = app.state.store.load(table_id)
    assert record is not None
    return list(record.actions)


def _replayed(client: TestClient, table_id: str) -> LiveTable:
    """The table a restart would build from what is stored now."""
    app: Any = client.app
    table = live_table(client, table_id)
    record = app.state.store.load(table_id)
    return LiveTable(record, table.game, app.state.tables)


def _undo(person: Seat, seq: Any) -> dict[str, Any]:
    """Sends an undo; returns the ack or error answering it (a view for the seat comes first)."""
    person.send({"type": "undo", "seq": seq, "ref": 3})
    return person.until(lambda m: m["type"] in ("ack", "error"))


def _sync(someone: Seat) -> None:
    """Reads everything the server sent this client so far (its answer to a ping comes after it)."""
    someone.send({"type": "ping", "ref": "sync"})
    someone.until(lambda m: m["type"] == "pong")


@contextlib.contextmanager
def _table(client: TestClient, game_id: str) -> Iterator[tuple[str, str, Seat, Seat]]:
    """A table of ``game_id``: a person at seat 0, bots elsewhere; yields its id, the person's token,
    the person and a spectator."""
    created = create(client, game=game_id, players=_players(game_id), bot=_bot(game_id))
    number, token = credentials(created["links"][0]["url"])
    assert number == 0
    with seat(client, created["id"], 0, token) as person, seat(client, created["id"]) as watcher:
        yield created["id"], token, person, watcher


@pytest.mark.parametrize("game_id", SHIPPED)
def test_undo_is_offered_exactly_where_the_turn_rule_allows_it(tmp_path, game_id):
    rng = random.Random(f"undo/{game_id}")
    applied = refused = offered = 0
    db = f"sqlite:///{tmp_path / 'h.db'}"
    with running(db) as client, _table(client, game_id) as (table_id, _token, person, watcher):
        table = live_table(client, table_id)
        game = table.game
        portal: Any = client.portal
        for _ in range(DECISIONS):
            view = person.until_turn_or_end()
            if view["over"]:
                break
            history = _stored(client, table_id)
            expected = _expected_undo(game, history, 0)
            assert view["undo"] == expected, (history, view["undo"], expected)
            assert portal.call(lambda: table.state.history()) == history
            if expected == 0:
                before = portal.call(lambda: (table.state.to_json(), _others(table, 0)))
                answer = _undo(person, view["seq"])
                assert answer["type"] == "error" and answer["code"] == "no_undo", answer
                assert answer["message"] == NO_UNDO
                assert _stored(client, table_id) == history
                assert portal.call(lambda: (table.state.to_json(), _others(table, 0))) == before
                assert person.view is not None and person.view["seq"] == view["seq"]
                refused += 1
            else:
                offered += 1
            if expected and rng.random() < 0.6:
                others = portal.call(lambda: _others(table, 0))
                answer = _undo(person, view["seq"] + 1)  # not the view's seq: refused, nothing changes
                assert answer["type"] == "error" and answer["code"] == "stale", answer
                assert _stored(client, table_id) == history
                answer = _undo(person, view["seq"])
                assert answer == {
                    "type": "ack",
                    "ref": 3,
                    "undone": game.action_text(history[-1]),
                    "seq": view["seq"] - 1,
                }, answer
                assert _stored(client, table_id) == history[:-1]
                fresh = person.view
                assert fresh is not None and fresh["seq"] == view["seq"] - 1 and fresh["log_start"] == 0
                assert fresh["undo"] == expected - 1 == _expected_undo(game, history[:-1], 0)
                assert portal.call(lambda: _others(table, 0)) == others, "another viewer saw the undo"
                again = _replayed(client, table_id)  # the seat's log is the one of the game without that step
                assert person.log == again.logs[0]
                assert portal.call(lambda: table.state.to_json()) == again.state.to_json()
                assert portal.call(lambda: _others(table, 0)) == _others(again, 0)
                applied += 1
                person._fresh = True  # the fresh view asks the person to act again
                continue
            answer = person.act(_choose(game_id, view, rng), seq=view["seq"])
            assert answer["type"] == "ack", answer
        person.until_turn_or_end()  # the table waits for the person (or the game is over): it stands still
        _sync(person)
        _sync(watcher)
        # Every log is the log of the game as stored: the undone steps left no trace, in what the
        # spectator was sent or in what any seat would be sent.
        again = _replayed(client, table_id)
        assert watcher.log == again.logs[None]
        assert person.log == again.logs[0]
        for viewer in again.viewers:
            assert portal.call(lambda v=viewer: list(table.logs[v])) == again.logs[viewer], viewer
        # A spectator and a bot's seat have nothing to undo.
        for who in (None, 1):
            with pytest.raises(TableError) as error:
                portal.call(table.undo, Connection(send=_nowhere, seat=who), 0)
            assert error.value.code in ("no_undo", "stale")
        watcher.send({"type": "undo", "seq": 0, "ref": 1})
        answer = watcher.until(lambda m: m["type"] in ("ack", "error"))
        assert answer["code"] == "no_undo" and answer["message"] == NO_UNDO
    assert refused > 0
    assert applied > 0 and offered > 0, f"{game_id}: no turn of several steps came up"


def _open_a_turn(person: Seat) -> dict[str, Any]:
    """Acts (first legal action) until the person's turn in progress has a step; returns that view."""
    for _ in range(400):
        view = person.until_turn_or_end()
        assert not view["over"]
        if view["undo"]:
            return view
        assert person.act(view["legal"][0]["id"], seq=view["seq"])["type"] == "ack"
    raise AssertionError("no turn of several steps came up")


def test_a_turn_in_progress_stays_hidden_and_undoable_across_restarts(storage):
    """The steps of a turn in progress are stored (an acknowledged action is never lost), and after a
    restart the turn is still in progress: hidden from the others, and undoable; an undo is stored
    before it is acknowledged, and a restart after it stands where the undo left the table."""
    with running(storage) as client, _table(client, "stonerush") as (table_id, token, person, _watcher):
        view = _open_a_turn(person)
        table = live_table(client, table_id)
        portal: Any = client.portal
        others = portal.call(lambda: _others(table, 0))
        history = _stored(client, table_id)
        seq = view["seq"]
    with running(storage) as client, seat(client, table_id, 0, token) as person:
        table = live_table(client, table_id)
        portal = client.portal
        view = person.until_turn_or_end()
        assert view["undo"] == _expected_undo(table.game, history, 0) > 0
        assert view["seq"] == seq
        assert portal.call(lambda: _others(table, 0)) == others
        answer = _undo(person, seq)
        assert answer["type"] == "ack", answer
        observer = Store(storage)
        assert observer.load(table_id).actions == history[:-1]  # type: ignore[union-attr]
        observer.close()
        after = portal.call(lambda: _others(table, 0))
        assert after == others
        state = portal.call(lambda: table.state.to_json())
    with running(storage) as client, seat(client, table_id, 0, token) as person:
        table = live_table(client, table_id)
        view = person.until_turn_or_end()
        assert view["seq"] == seq - 1 and view["undo"] == _expected_undo(table.game, history[:-1], 0)
        portal = client.portal
        assert portal.call(lambda: (table.state.to_json(), _others(table, 0))) == (state, others)


def _record(game: Game, history: list[int]) -> TableRecord:
    """A running table of people whose stored actions are ``history``."""
    stamp = datetime.now(UTC)
    seats = [SeatRecord(k, "person", None, None, True) for k in range(game.num_players)]
    return TableRecord(
        id="t",
        game=game.info.id,
        game_version=game.info.version,
        players=game.num_players,
        options=dict(game.options),
        seed=1,
        status="running",
        returns=None,
        created_at=stamp,
        updated_at=stamp,
        seats=seats,
        actions=list(history),
    )


def test_another_seats_last_turn_shows_only_what_everybody_saw():
    """In First Druid an offer is built, and a card bid, in private: another seat's last turn lists
    its public moves and none of those."""
    game = henge.load("first_druid", 3)
    hidden = ("offer ", "give ", "ask ", "withdraw", "bid ")
    checked = 0
    for seed in range(40):
        rng = random.Random(seed)
        state = game.new_initial_state()
        steps: list[Step] = []
        while not state.is_terminal() and checked < 6:
            player = state.current_player()
            if player < 0:
                action = rng.choice([a for a, _ in state.chance_outcomes()])
            else:
                action = rng.choice(state.legal_actions())
            spans = turns(steps)
            if player >= 0 and spans and spans[-1].seat != player and spans[-1].end == len(steps):
                span = spans[-1]  # a turn that has just ended: another seat is to move
                history = state.history()
                texts = [game.action_text(history[k]) for k in range(span.start, span.end)]
                if any(text.startswith(hidden) for text in texts):
                    table = LiveTable(_record(game, history), game, None)  # type: ignore[arg-type]
                    public = [text for text in texts if not text.startswith(hidden)]
                    for viewer in [*range(game.num_players), None]:
                        if viewer != span.seat:
                            assert table.last_turn(viewer) == {"seat": span.seat, "actions": public}, (viewer, texts)
                    checked += 1
            steps.append(Step(player, player >= 0 and state.reveals(action)))
            state.apply_action(action)
        if checked >= 6:
            break
    assert checked >= 6
