"""No payload of the server tells a seat more than it may know.

Whole games of every registered game are played through the server by
people only (one WebSocket per seat, and a spectator), and every message the
server sends is recorded with the true state at that moment. Then, for a
sample of those messages, what the receiving seat cannot know is re-drawn
(``resample_from_infostate``, a state reached by a legal history in which the
seat saw exactly the same): a table rebuilt from that state's history, as a
restart would rebuild it, must send that seat exactly the same view, log
included. A spectator's view must not change whichever seat's unknowns are
re-drawn. Once a game is over, each seat sends an action again with an old
``seq``: the answer (``stale``) must be the rebuilt table's too. A few
times in each whole game a person with a turn in progress takes back some of
its steps (and plays on, perhaps otherwise): the seat must be sent again the
last view it had before the step, every other viewer must have and be sent
the views of tables rebuilt from histories that never held the step, and the
undo's answers, and the view it sends the seat, must be those of a table
rebuilt from a re-draw of what the seat cannot know. And no message or log line of
the server holds the table's seed, a token or a token's hash.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import logging
import random
import time
from dataclasses import dataclass, field
from typing import Any

import pytest
from fastapi.testclient import TestClient
from web_support import (
    Seat,
    Spy,
    create,
    credentials,
    fixed_seed,
    live_table,
    running,
    seat,
    true_state,
)

import henge
from henge.agents import heuristics
from henge.core import CHANCE, Decision, Game, State, open_turn, steps_of, turns
from henge.server.store import RUNNING, TableRecord
from henge.server.tables import Connection, LiveTable, TableError, Tables, token_hash

GAMES = henge.list_games()
pytestmark = pytest.mark.timeout(180)

GAME_FIELDS = (
    "type",
    "seat",
    "observation",
    "legal",
    "to_move",
    "chance",
    "over",
    "returns",
    "seq",
    "undo",
    "last_turn",
    "pace",
    "previews",
)
"""The fields of a view that come from the game (the rest is the table's public facts and its clock); the
seats' names are compared too."""
MOMENTS = 8
"""Moments of a whole game whose views are checked (spread over the game, its first and last among them)."""
OPENING = 4
"""Actions of its people after which the quick test stops a game."""
DB = "sqlite://"
"""An SQLite database in memory: what is stored is read back from it while the app runs."""
RULE_BASED = {"spell_casting"}
"""Games played by their rule-based player: Spell Casting's random games run to thousands of actions."""
UNDO_AFTER = (3, 20, 100, 500)
"""In a whole game, the counts of its people's actions after which, at the next view that offers it, the
person to move takes back some steps of its turn in progress: a few moments, early and late."""


def _players(game_id: str) -> int:
    """The player count a game is played at here: three, where the game allows it."""
    info = henge.game_class(game_id).info
    return min(max(3, info.min_players), info.max_players)


@dataclass
class Undo:
    """A step a person took back: when, and how the server answered."""

    seat: int
    seq: int
    """The seat's count of actions (its view's ``seq``) the undo was sent with."""
    state: State
    """The true state when the undo was sent (the step still in it)."""
    mark: int
    """How many views the server had sent (``Played.sent``) when the undo was sent: the next is its own."""
    answer: dict[str, Any]
    """The ack."""
    refused: dict[str, Any] | None
    """The error answering the same undo sent first with a ``seq`` one ahead (the first undo of a moment)."""


@dataclass
class Played:
    """A game played through the server: every view it sent, and what is needed to rebuild its table."""

    game: Game
    record: TableRecord
    manager: Tables
    sent: list[tuple[int | None, dict[str, Any], State]]
    secrets: list[str]
    received: list[dict[str, Any]] = field(default_factory=list)
    log_lines: list[str] = field(default_factory=list)
    stale: list[tuple[int, int, int, dict[str, Any]]] = field(default_factory=list)
    """Actions sent again once the game was over, each with an old ``seq`` and another action: the seat,
    the ``seq``, the action and the error that answered."""
    undos: list[Undo] = field(default_factory=list)
    """The steps its people took back, in order."""


def _choose(game_id: str, mover: int, view: dict[str, Any], rng: random.Random) -> int:
    """Returns the id of the action a seat takes: a random legal one, or its rule-based player's choice."""
    legal = view["legal"]
    if game_id in RULE_BASED and heuristics.has_heuristic(game_id):
        decision = Decision(
            game_id=game_id,
            seat=mover,
            observation=view["observation"],
            legal_actions=[a["id"] for a in legal],
            legal_texts=[a["text"] for a in legal],
            rng=rng,
        )
        return int(heuristics.chooser(game_id)(decision))
    return int(rng.choice(legal)["id"])


def _drive(
    client: TestClient,
    table_id: str,
    game_id: str,
    seats: dict[int, Seat],
    limit: int | None,
    spy: Spy,
    undo_after: tuple[int, ...] = (),
) -> tuple[dict[int, list[int]], list[Undo]]:
    """Plays the table with its people until the end (or ``limit`` actions of theirs), waiting out the dealer,
    taking steps back once after each count of their actions in ``undo_after``; returns each seat's actions
    (those taken back left out) and the undos."""
    rng = random.Random(f"leaks/{game_id}/people")
    minds = random.Random(f"leaks/{game_id}/undo")  # how many steps to take back (the choices draw as they did)
    done: dict[int, list[int]] = {k: [] for k in seats}
    undone: list[Undo] = []
    later = list(undo_after)
    taken = 0
    deadline = time.monotonic() + 150
    mover: int | None = None  # who is to move, as the last view said (None: ask the server)
    while limit is None or taken < limit:
        assert time.monotonic() < deadline, f"{game_id}: the game did not end in time"
        if mover is None:
            now = true_state(client, table_id)
            if now.is_terminal():
                return done, undone
            if now.current_player() not in seats:  # the dealer is dealing or drawing
                time.sleep(0.001)
                continue
            mover = now.current_player()
        view = seats[mover].until_turn_or_end()
        if view["over"]:
            return done, undone
        if view["undo"] and later and taken >= later[0]:
            later = [after for after in later if after > taken]
            count = minds.randint(1, view["undo"])
            undone += _take_back(client, table_id, seats[mover], mover, count, spy)
            del done[mover][-count:]
            continue  # the undo's fresh view asks the seat to act again
        action = _choose(game_id, mover, view, rng)
        answer = seats[mover].act(action)
        assert answer["type"] == "ack", answer
        done[mover].append(action)
        taken += 1
        # The views an action causes are sent before its ack: the actor's latest one shows the next turn.
        latest = seats[mover].view
        mover = None if latest is None or latest["over"] else latest["to_move"]
    return done, undone


def _take_back(client: TestClient, table_id: str, person: Seat, number: int, count: int, spy: Spy) -> list[Undo]:
    """The person at seat ``number`` takes back the last ``count`` steps of its turn in progress, one undo
    each, the first sent once before with a ``seq`` one ahead (refused as stale); returns the undos."""
    undos = []
    for k in range(count):
        assert person.view is not None
        seq = person.view["seq"]
        state = true_state(client, table_id)  # nobody else can move: the table stands still
        mark = len(spy.sent)
        refused = None
        if k == 0:
            person.send({"type": "undo", "seq": seq + 1, "ref": 5})
            refused = person.until(lambda m: m["type"] in ("ack", "error"))
            assert refused["type"] == "error" and refused["code"] == "stale", refused
        person.send({"type": "undo", "seq": seq, "ref": 5})
        answer = person.until(lambda m: m["type"] in ("ack", "error"))
        assert answer["type"] == "ack", answer
        undos.append(Undo(number, seq, state, mark, answer, refused))
    return undos


def _resend(seats: dict[int, Seat], done: dict[int, list[int]]) -> list[tuple[int, int, int, dict[str, Any]]]:
    """Sends, for each seat's first, middle and last action, another action with that action's ``seq`` (a
    client that lost track): returns the answers, each refusing it as stale."""
    answers = []
    for number, actions in done.items():
        for seq in sorted({0, len(actions) // 2, len(actions) - 1} if actions else set()):
            raw = actions[seq] + 1  # any other action id
            seats[number].send({"type": "act", "action": raw, "ref": 9, "seq": seq})
            answer = seats[number].until(lambda m: m["type"] in ("ack", "error"))
            assert answer["type"] == "error" and answer["code"] == "stale", answer
            answers.append((number, seq, raw, answer))
    return answers


def _play(
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    game_id: str,
    limit: int | None,
    undo_after: tuple[int, ...] = (),
) -> Played:
    """Plays a table of people only through the server, recording everything it sends; its people take
    steps back once after each count of their actions in ``undo_after``."""
    spy = Spy()
    spy.install(monkeypatch)
    caplog.set_level(logging.DEBUG)
    players = _players(game_id)
    with running(DB) as client:
        with fixed_seed(monkeypatch, f"leaks/{game_id}"):
            created = create(client, game=game_id, players=players, seats=[{"kind": "person"}] * players, sit=None)
        table_id = created["id"]
        tokens = dict(credentials(link["url"]) for link in created["links"])
        assert sorted(tokens) == list(range(players))
        table = live_table(client, table_id)
        app: Any = client.app
        manager: Tables = app.state.tables
        with contextlib.ExitStack() as stack:
            people = {k: stack.enter_context(seat(client, table_id, k, tokens[k])) for k in range(players)}
            watcher = stack.enter_context(seat(client, table_id, None))
            everybody = [*people.values(), watcher]
            for someone in everybody:
                someone.until(lambda m: m["type"] == "view")
            for number, person in people.items():  # names, as data: a rebuilt table is given the same
                person.send({"type": "name", "name": f"<b>seat {number}</b>", "ref": 1})
                assert person.until(lambda m: m["type"] in ("ack", "error"))["type"] == "ack"
            done, undone = _drive(client, table_id, game_id, people, limit, spy, undo_after)
            stale = []
            if limit is None:
                assert table.state.is_terminal()
                for someone in everybody:
                    someone.until_over()
                stale = _resend(people, done)
        received = [m for someone in everybody for m in someone.received]
        record = app.state.store.load(table_id)  # the table as a restart would read it
        assert record is not None and record.actions == table.state.history()
        secret_texts = [str(table.seed), created["creator_token"], *tokens.values()]
    secret_texts += [token_hash(t) for t in [created["creator_token"], *tokens.values()]]
    return Played(
        game=table.game,
        record=record,
        manager=manager,
        sent=spy.sent,
        secrets=secret_texts,
        received=received,
        log_lines=[r.getMessage() for r in caplog.records] + [caplog.text],
        stale=stale,
        undos=undone,
    )


# -- rebuilding a table from a re-drawn state ------------------------------------------------------


async def _nowhere(_message: dict[str, Any]) -> None:
    """A connection's send that goes nowhere: the rebuilt table's views are only looked at."""


def _rebuilt(
    played: Played, state: State, status: str, names: tuple[str | None, ...] | None = None, manager: Any = None
) -> LiveTable:
    """Returns the table a restart would build had ``state`` been the truth: its history replayed, each
    action's actor the seat to move (-1 for chance); a seed of its own, since no view may depend on it.
    Its seats have ``names`` (left out: the names stored at the end); its manager is ``manager`` (left
    out: the server's)."""
    replay = played.game.new_initial_state()
    actors = []
    for action in state.history():
        player = replay.current_player()
        actors.append(player if player >= 0 else CHANCE)
        replay.apply_action(action)
    record = dataclasses.replace(
        played.record, actions=state.history(), actors=actors, status=status, seed=0, returns=None
    )
    if names is not None:
        record.seats = [dataclasses.replace(s, name=n) for s, n in zip(record.seats, names, strict=True)]
    table = LiveTable(record, played.game, manager or played.manager)
    assert table.state.to_json() == state.to_json(), "the re-drawn state's history does not lead to it"
    return table


def _game_part(view: dict[str, Any], log_lines: list[str]) -> dict[str, Any]:
    """Returns the fields of a view that come from the game, and the whole log its connection has had."""
    part = {name: view[name] for name in GAME_FIELDS}
    part["names"] = _names(view)
    part["log"] = log_lines
    return part


def _names(view: dict[str, Any]) -> tuple[str | None, ...]:
    """Returns the seats' names a view shows."""
    return tuple(s["name"] for s in view["table"]["seats"])


def _view_of(table: LiveTable, viewer: int | None) -> dict[str, Any]:
    """Returns what the table sends a new connection of ``viewer`` (its whole log), as it travels (JSON)."""
    view = json.loads(json.dumps(table.view(Connection(send=_nowhere, seat=viewer))))
    return _game_part(view, view["log"])


def _spread(count: int, how_many: int) -> list[int]:
    """Returns up to ``how_many`` indices spread evenly over ``range(count)``, the first and last among them."""
    if count <= how_many:
        return list(range(count))
    return sorted({round(i * (count - 1) / (how_many - 1)) for i in range(how_many)})


@dataclass
class Moment:
    """The true state between two steps, and the view each viewer was sent then (with its whole log so far)."""

    state: State
    status: str
    names: tuple[str | None, ...]
    """The seats' names then."""
    views: dict[int | None, dict[str, Any]] = field(default_factory=dict)


def _moments(played: Played) -> list[Moment]:
    """Returns the moments at which views were sent, in order. A state is its history, so two views sent
    at the same history (and table status, and seats' names) were made from the same true state: one
    sent after an undo and one sent before the step it took back, too."""
    moments: dict[tuple[tuple[int, ...], str, tuple[str | None, ...]], Moment] = {}
    logs: dict[int | None, list[str]] = {}
    for viewer, message, state in played.sent:
        if message["type"] != "view":
            continue
        lines = logs.setdefault(viewer, [])  # one connection per viewer here: its log is the viewer's
        assert message["log_start"] == len(lines) or message["log_start"] == 0
        lines[message["log_start"] :] = message["log"]
        status = message["table"]["status"]
        names = _names(message)
        moment = moments.setdefault((tuple(state.history()), status, names), Moment(state, status, names))
        moment.views[viewer] = _game_part(message, list(lines))
    return list(moments.values())


@dataclass
class Checked:
    """How many views were compared with their rebuilt twins, and how many re-draws changed the truth."""

    views: int = 0
    redraws: int = 0
    changed: int = 0
    stale: int = 0
    """Answers to stale actions compared."""
    stale_differ: list[str] = field(default_factory=list)
    """How the answers to stale actions differed from the rebuilt tables'."""


def _check_redraws(played: Played, how_many: int) -> Checked:
    """Compares the views sent at ``how_many`` moments spread over the game (all, if fewer) with those of
    tables rebuilt from re-drawn states: at each moment, for each seat in turn, that seat's unknowns are
    re-drawn (twice at the last moment, whose views hold the whole game's log), and the rebuilt table
    must send that seat, and the spectator, exactly the views they were sent."""
    game_id = played.game.info.id
    players = played.game.num_players
    moments = _moments(played)
    seen = {viewer for moment in moments for viewer in moment.views}
    assert seen == {None, *range(players)}, f"{game_id}: some viewer was sent no view"
    rng = random.Random(f"leaks/{game_id}/redraws")
    checked = Checked()
    picks = _spread(len(moments), how_many)
    for pick in picks:
        moment = moments[pick]
        truth = moment.state
        for who in range(players):
            compared = [viewer for viewer in (who, None) if viewer in moment.views]
            for _ in range(2 if pick == len(moments) - 1 else 1):
                if not compared:
                    break
                other = truth.resample_from_infostate(who, rng)
                checked.redraws += 1
                checked.changed += other.to_json() != truth.to_json()
                table = _rebuilt(played, other, moment.status, moment.names)
                if pick == len(moments) - 1:
                    _check_stale(played, table, who, checked)
                for viewer in compared:
                    sent, got = moment.views[viewer], _view_of(table, viewer)
                    differ = [name for name in sent if got[name] != sent[name]]
                    assert not differ, (
                        f"{game_id}: the view of {'the spectator' if viewer is None else f'seat {viewer}'} at step "
                        f"{truth.move_number()} ({moment.status}) changes when seat {who}'s unknowns are re-drawn: "
                        f"{differ}\n"
                        f"sent:    {json.dumps({k: sent[k] for k in differ})[:2000]}\n"
                        f"rebuilt: {json.dumps({k: got[k] for k in differ})[:2000]}"
                    )
        checked.views += len(moment.views)
    return checked


def _check_stale(played: Played, table: LiveTable, who: int, checked: Checked) -> None:
    """Compares the answers to a seat's stale actions (sent once the game was over) with the rebuilt table's."""
    for number, seq, raw, answer in played.stale:
        if number != who:
            continue
        with pytest.raises(TableError) as refused:
            table._resubmitted(number, raw, seq)
        checked.stale += 1
        got = {"code": refused.value.code, "message": str(refused.value)}
        sent = {"code": answer["code"], "message": answer["message"]}
        if got != sent:
            checked.stale_differ.append(f"seat {who}, seq {seq}: sent {sent}, rebuilt {got}")


def _check_open_turns(played: Played, how_many: int) -> int:
    """While a seat's turn is in progress, every other viewer (the spectator too) must still have, as the
    last view it was sent, the view of a table rebuilt from the history without the turn's steps: nothing
    of a turn shows to the others before it ends. Checks ``how_many`` turns spread over the game, each
    at its latest step before it ends; returns how many views were compared."""
    history = played.record.actions
    steps = steps_of(played.game, history)
    moments: dict[int, int] = {}
    """The start of each turn seen in progress -> the index of the last message sent during it."""
    for index, (_viewer, message, state) in enumerate(played.sent):
        if message["type"] != "view" or state.is_terminal():
            continue
        done = state.move_number()
        if state.history() != history[:done]:
            continue  # a step taken back later: the seat's own view, and never the last of its turn
        player = state.current_player()
        count = open_turn(steps[:done], player) if player >= 0 else 0
        if count:
            moments[done - count] = index
    picks = {moments[start]: start for start in (sorted(moments)[k] for k in _spread(len(moments), how_many))}
    latest: dict[int | None, dict[str, Any]] = {}
    logs: dict[int | None, list[str]] = {}
    compared = 0
    for index, (viewer, message, state) in enumerate(played.sent):
        if message["type"] == "view":
            lines = logs.setdefault(viewer, [])
            lines[message["log_start"] :] = message["log"]
            latest[viewer] = _game_part(message, list(lines))
        start = picks.get(index)
        if start is None:
            continue
        before = played.game.new_initial_state()
        for action in history[:start]:
            before.apply_action(action)
        table = _rebuilt(played, before, message["table"]["status"])
        holder = state.current_player()
        for other in [*range(played.game.num_players), None]:
            if other == holder or other not in latest:
                continue
            sent, got = latest[other], _view_of(table, other)
            differ = [name for name in sent if got[name] != sent[name]]
            assert not differ, (
                f"{played.game.info.id}: during seat {holder}'s turn (steps {start}..{state.move_number()}), "
                f"{'the spectator' if other is None else f'seat {other}'} was sent more than the turn's start: "
                f"{differ}\nsent:    {json.dumps({k: sent[k] for k in differ})[:2000]}\n"
                f"rebuilt: {json.dumps({k: got[k] for k in differ})[:2000]}"
            )
            compared += 1
    return compared


class _Unstored:
    """The manager of a rebuilt table that is asked to undo: the server's pause, and a store that keeps
    nothing (only the table in memory is looked at)."""

    def __init__(self, manager: Tables) -> None:
        self.bot_delay = manager.bot_delay
        self.store = self

    def remove_last_action(self, _table_id: str, _step: int) -> None:
        """Deletes nothing: there is nothing stored."""


def _differ(what: str, sent: dict[str, Any], got: dict[str, Any], names: tuple[str, str] = ("sent", "rebuilt")) -> None:
    """Fails, showing how (each side under its name in ``names``), if two game parts of views differ."""
    differ = [name for name in sent if got[name] != sent[name]]
    assert not differ, (
        f"{what}: {differ}\n{names[0]}: {json.dumps({k: sent[k] for k in differ})[:2000]}\n"
        f"{names[1]}: {json.dumps({k: got[k] for k in differ})[:2000]}"
    )


def _check_undos(played: Played) -> int:
    """Checks the undos. Each sends its seat again the last view it was sent before the step (its whole
    log too). Once a person is done taking steps back, every other viewer, the spectator too, has as its
    last view that of a table rebuilt from the history left, and the next view it is sent is that of a
    table rebuilt from that view's history: neither ever held a step taken back. And the undos' answers
    (their acks, and the refusal of the first sent with a ``seq`` one ahead) and the views they sent the
    seat are what a table rebuilt from a re-draw of what the seat could not know, before the first,
    answers and sends. Returns how many views were compared."""
    game_id = played.game.info.id
    viewers: list[int | None] = [*range(played.game.num_players), None]
    runs: list[list[Undo]] = []
    """The undos of each moment a person took steps back (the first of each was refused once)."""
    for undo in played.undos:
        if undo.refused is not None:
            runs.append([])
        runs[-1].append(undo)
    undos = {undo.mark: undo for undo in played.undos}
    last = {run[-1].mark for run in runs}
    needed = {(undo.seat, undo.state.move_number() - 1) for undo in played.undos}
    latest: dict[int | None, dict[str, Any]] = {}
    logs: dict[int | None, list[str]] = {}
    before: dict[tuple[int | None, int], tuple[list[int], dict[str, Any]]] = {}
    """The last view sent to an undoing seat at the step an undo goes back to: its history and game part."""
    after: dict[int, dict[str, Any]] = {}
    """The view each undo sent its seat (by its mark)."""
    waiting: dict[int | None, Undo] = {}
    """The viewers not sent a view since a person took steps back, with the last undo."""
    tables: dict[tuple[tuple[int, ...], str], LiveTable] = {}
    """The tables rebuilt for the views sent next (one broadcast sends several)."""
    compared = 0
    for index, (viewer, message, state) in enumerate(played.sent):
        undo = undos.get(index)
        if undo is not None:
            where = f"{game_id}: seat {undo.seat}'s undo of step {undo.state.move_number() - 1} (seq {undo.seq})"
            assert viewer == undo.seat and message["type"] == "view" and message["log_start"] == 0, where
            assert state.history() == undo.state.history()[:-1], where
            history, part = before[(viewer, state.move_number())]
            assert history == state.history(), where
            after[index] = _game_part(message, message["log"])
            what = f"{where}: the seat's view is not its last view before the step"
            _differ(what, part, after[index], ("before", "after"))
        if index in last:
            table = _rebuilt(played, state, message["table"]["status"])
            for other in viewers:
                if other != viewer:
                    part = _game_part(latest[other], logs[other])
                    _differ(f"{where}: {_who(other)} had seen more than the history left", part, _view_of(table, other))
                    waiting[other] = undos[index]
                    compared += 1
        if message["type"] != "view":
            continue
        lines = logs.setdefault(viewer, [])
        lines[message["log_start"] :] = message["log"]
        latest[viewer] = message
        if (viewer, state.move_number()) in needed:
            before[(viewer, state.move_number())] = (state.history(), _game_part(message, list(lines)))
        if viewer in waiting:
            undo = waiting.pop(viewer)
            key = (tuple(state.history()), message["table"]["status"])
            if key not in tables:
                tables[key] = _rebuilt(played, state, key[1])
            table = tables[key]
            _differ(
                f"{game_id}: the first view sent to {_who(viewer)} after seat {undo.seat}'s undo (seq {undo.seq}), "
                f"at step {state.move_number()}, is not that of a table that never held the step",
                _game_part(message, lines),
                _view_of(table, viewer),
            )
            compared += 1
    rng = random.Random(f"leaks/{game_id}/undos")
    for run in runs:
        first = run[0]
        other = first.state.resample_from_infostate(first.seat, rng)
        table = _rebuilt(played, other, RUNNING, manager=_Unstored(played.manager))
        connection = Connection(send=_nowhere, seat=first.seat)
        assert first.refused is not None
        with pytest.raises(TableError) as refused:
            asyncio.run(table.undo(connection, first.seq + 1))
        got = {"type": "error", "code": refused.value.code, "message": str(refused.value), "ref": 5}
        assert first.refused == got, (
            f"{game_id}: a refused undo tells what its seat cannot know: sent {first.refused}, rebuilt {got}"
        )
        for undo in run:
            where = f"{game_id}: seat {undo.seat}'s undo (seq {undo.seq})"
            text, seq = asyncio.run(table.undo(connection, undo.seq))
            got = {"type": "ack", "ref": 5, "undone": text, "seq": seq}
            assert undo.answer == got, (
                f"{where}: the ack tells what the seat cannot know: sent {undo.answer}, rebuilt {got}"
            )
            _differ(f"{where}: the view it sent changes with a re-draw", after[undo.mark], _view_of(table, undo.seat))
            compared += 1
    return compared


def _who(viewer: int | None) -> str:
    """Names a viewer in a failure's message."""
    return "the spectator" if viewer is None else f"seat {viewer}"


def _check_no_secret(played: Played) -> None:
    """No message sent or received, and no log line, holds the seed, a token or a token's hash."""
    texts = [json.dumps(m) for _v, m, _s in played.sent]
    texts += [json.dumps(m) for m in played.received]
    expected = [m["type"] in ("view", "ack") or m.get("code") == "stale" for m in played.received]
    assert played.received and all(expected), "a seat was refused something it did not try"
    for where, group in (("a message", texts), ("the server's log", played.log_lines)):
        for text in group:
            for secret in played.secrets:
                assert secret not in text, f"{where} holds a secret: {text[:300]}"


# -- the tests -----------------------------------------------------------------------------------


@pytest.mark.parametrize("game_id", GAMES)
def test_no_view_of_the_opening_changes_when_what_its_seat_cannot_know_is_redrawn(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, game_id: str
) -> None:
    """The deal and the first few actions of each game, every view checked: the quick version of the next test."""
    played = _play(monkeypatch, caplog, game_id, limit=OPENING)
    _check_no_secret(played)
    checked = _check_redraws(played, 10**6)
    sent = {(v, tuple(s.history()), m["table"]["status"], _names(m)) for v, m, s in played.sent if m["type"] == "view"}
    assert checked.views == len(sent)
    _check_open_turns(played, 10**6)
    if played.game.info.hidden_information:
        assert checked.changed > 0, f"{game_id}: no re-draw changed anything: the check proves nothing"


@pytest.mark.slow
@pytest.mark.parametrize("game_id", GAMES)
def test_no_view_of_a_whole_game_changes_when_what_its_seat_cannot_know_is_redrawn(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, game_id: str
) -> None:
    """A whole game, the views of MOMENTS moments checked, steps taken back after each count of UNDO_AFTER
    people's actions, and the answers to stale actions sent at its end."""
    played = _play(monkeypatch, caplog, game_id, limit=None, undo_after=UNDO_AFTER)
    _check_no_secret(played)
    several = any(t.end - t.start > 1 for t in turns(steps_of(played.game, played.record.actions)))
    undone = _check_undos(played)
    assert undone > 0 or not several, f"{game_id}: no step was taken back"
    checked = _check_redraws(played, MOMENTS)
    assert checked.views >= MOMENTS
    compared = _check_open_turns(played, MOMENTS)
    assert compared > 0 or not several, f"{game_id}: no turn of several steps was seen in progress"
    if played.game.info.hidden_information:
        assert checked.changed > 0, f"{game_id}: no re-draw changed anything: the check proves nothing"
    assert checked.stale > 0
    assert not checked.stale_differ, f"{game_id}: answers to stale actions tell what their seat cannot know: " + (
        "; ".join(checked.stale_differ)
    )


def test_the_lobby_does_not_show_when_a_table_takes_an_action(tmp_path):
    """A table's ``updated_at`` changes with its status and seats, not with each action: an action nobody
    else saw (a First Druid offer withdrawn) must not show in the public list of tables."""
    with running(f"sqlite:///{tmp_path / 'h.db'}") as client:
        created = create(client, game="stonerush", players=3, bot="random")
        number, token = credentials(created["links"][0]["url"])

        def updated() -> str:
            tables = client.get("/api/tables").json()["tables"]
            return str(next(t["updated_at"] for t in tables if t["id"] == created["id"]))

        with seat(client, created["id"], number, token) as person:
            view = person.until_turn_or_end()
            before = updated()
            for _ in range(3):
                assert person.act(view["legal"][0]["id"])["type"] == "ack"
                view = person.until_turn_or_end()
            assert updated() == before
