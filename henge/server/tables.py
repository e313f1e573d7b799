"""Live tables: the true state of every game being played, its seats, bots and connections.

The server is authoritative. A table holds the only true state; clients send
the text or id of an action for their own seat, and get back only the
observation of that seat. An action is checked, written to the database,
and only then applied and acknowledged. Chance outcomes and bot moves are
made here, from the table's secret seed, and stored the same way, so a
restarted server replays the stored actions and stands exactly where it was.

The steps of a turn in progress (``henge.core.open_turn``) are seen by their
seat alone: everybody else sees the turn when it ends, step by step. Until
then the seat's person may take them back, the last first (an undo deletes
the stored step before it is acknowledged). Bots pause ``bot_delay`` seconds
before each of their turns, unless every seated person asks to skip it.

Seats are kept for their people: a seat made for an invitee opens only with
its link's token, unless the table's creator opened it to the lobby. The
creator holds a token of their own (stored, like seat tokens, only as a
hash) to replace a seat's link, open a seat to the lobby or delete the
table. A person's turn may have a time limit (always, at a table with a
seat open to the lobby): when it runs out, a stand-in bot plays that seat,
from that seat's observation only, until its person comes back (connects
again with the seat's token). A table nobody sat at and nothing happened
at for long enough is abandoned: it leaves the lobby and its bots stop.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import hashlib
import hmac
import logging
import math
import random
import secrets
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from henge.agents import LEVELS, RULES_ONLY, agent_names, first_opponent, heuristics, levels_for, make_agent
from henge.core import (
    CHANCE,
    Game,
    IllegalActionError,
    Observation,
    State,
    Step,
    Turn,
    advance,
    game_class,
    latest_turns,
    list_games,
    load,
    open_turn,
    plugin,
    sample_chance,
)
from henge.server.bots import BOT_SECONDS, BotPool
from henge.server.limits import excerpt
from henge.server.narrate import narrator
from henge.server.store import (
    ABANDONED,
    BROKEN,
    FINISHED,
    NAME_CHARS,
    RUNNING,
    WAITING,
    SeatRecord,
    Store,
    TableRecord,
)

log = logging.getLogger("henge.server")

PERSON, BOT = "person", "bot"
LEAVE_OPEN, LEAVE_BOT = "open", "bot"
"""What becomes of a seat its person leaves, as the table's creator chose: open to the lobby, or a bot's."""
DELETED = "deleted"
"""The status of a table its creator deleted, in memory only (its rows are gone)."""
TURN_LIMIT = 120.0
"""Seconds a person has for a turn at a lobby table (a table with a seat open to the lobby), by default."""
ABANDON_AFTER = 86400.0
"""Seconds without a seated person and without an action after which a table is abandoned, by default."""
MAX_TURN_LIMIT = 86400.0
"""The longest turn limit a table may ask for (seconds)."""
_TOKEN_CHARS = 256
"""A token longer than this is refused before it is hashed."""
_TABLE_ID_CHARS = 32
"""Table ids are 10 hex digits; a longer one is not looked up."""
_KEEP_FINISHED = 16
"""Finished tables kept in memory after their last viewer leaves."""
_DRIVER_ATTEMPTS = 5
"""Tries of the dealer or a bot (a failing database write, say) before it waits for the next event."""

Send = Callable[[dict[str, Any]], Awaitable[None]]
SEQ_RULE = "seq is a whole number: how many actions your seat had taken before this one (the view's seq)"
NO_UNDO = "nothing to undo: only your own moves of this turn, before anything is revealed"
NAME_RULE = f"a name is 1-{NAME_CHARS} printable characters"


class TableError(Exception):
    """A request about a table that cannot be done; the message says why (and holds no secret)."""

    def __init__(self, message: str, *, code: str = "refused", status: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.status = status


def new_token() -> str:
    """Returns a fresh secret seat token."""
    return secrets.token_urlsafe(24)


def token_hash(token: str) -> str:
    """Returns the SHA-256 of a token: only this is stored."""
    return hashlib.sha256(token.encode()).hexdigest()


def chance_rng(seed: int, step: int) -> random.Random:
    """Returns the generator of the chance outcome at ``step`` (a function of the secret seed)."""
    return random.Random(f"henge/{seed}/chance/{step}")


def bot_rng(seed: int, seat: int, step: int) -> random.Random:
    """Returns a bot's own generator for its decision at ``step``."""
    return random.Random(f"henge/{seed}/seat/{seat}/step/{step}")


@dataclass(eq=False)
class Connection:
    """One client at a table: its seat (None for a spectator) and how much of the log it has."""

    send: Send
    seat: int | None
    log_sent: int = 0
    alive: bool = True
    close: Callable[[int], Awaitable[None]] | None = None
    """Closes the client's socket with a code (a deleted table closes every one)."""


@dataclass
class SeatSpec:
    """A seat asked for when creating a table."""

    kind: str
    bot: str | None = None
    lobby: bool = False
    """Open to the lobby: anybody may take it (else only its join link opens it)."""


@dataclass
class Created:
    """A new table: its id, the secret token of each person seat and the creator's token."""

    table_id: str
    tokens: dict[int, str] = field(default_factory=dict)
    creator_token: str = ""


def token_matches(token: Any, stored_hash: str | None) -> bool:
    """Returns True if ``token`` is a string whose hash is ``stored_hash`` (compared in constant time)."""
    if stored_hash is None or not isinstance(token, str) or not 0 < len(token) <= _TOKEN_CHARS:
        return False
    return hmac.compare_digest(token_hash(token), stored_hash)


def check_name(raw: Any) -> str:
    """Returns a seat's display name as it will be kept (stripped); raises TableError (``bad_name``)
    unless it is text of 1 to ``NAME_CHARS`` printable characters (no control or format characters,
    no line breaks)."""
    if not isinstance(raw, str):
        raise TableError(NAME_RULE, code="bad_name")
    name = raw.strip()
    if not 0 < len(name) <= NAME_CHARS or not name.isprintable():
        raise TableError(NAME_RULE, code="bad_name")
    return name


def standin_bot(game_id: str) -> str:
    """Returns the bot that plays a seat whose person ran out of time or left: the game's rule-based
    player where it has one, else the random player."""
    return "heuristic" if heuristics.has_heuristic(game_id) and "heuristic" in agent_names() else "random"


class LiveTable:
    """One table in memory: the true state, each viewer's observation and log, and its clients."""

    def __init__(self, record: TableRecord, game: Game, manager: Tables) -> None:
        self.id = record.id
        self.game = game
        self.seed = record.seed
        self.seats: list[SeatRecord] = record.seats
        self.status = record.status
        self.manager = manager
        self.state: State = game.new_initial_state()
        self.narrate = narrator(game.info.id)
        viewers: list[int | None] = [*range(game.num_players), None]
        self.viewers = viewers
        self.observations: dict[int | None, Observation] = {}
        self.logs: dict[int | None, list[str]] = {v: [] for v in viewers}
        self.connections: list[Connection] = []
        self.lock = asyncio.Lock()
        self.driver: asyncio.Task[None] | None = None
        self.agents: dict[int, str] = {s.seat: s.bot for s in self.seats if s.kind == BOT and s.bot is not None}
        """Each bot seat's bot (its spec: a name and settings), which thinks in the manager's pool."""
        for spec in self.agents.values():
            make_agent(spec)  # a bot this henge cannot make sets the table aside (ValueError), as a bad action does
        self.creator_hash = record.creator_hash
        self.turn_limit = record.turn_limit
        self.on_leave = record.on_leave if record.on_leave in (LEAVE_OPEN, LEAVE_BOT) else LEAVE_BOT
        self.rematch = record.rematch
        """The id of the table made for a rematch of this one (None: none yet)."""
        self.preview = plugin(game.info.id).load_preview()
        """The game's ``preview(observation, seat, action_text)``, or None."""
        self._previews: dict[int, tuple[Observation, list[str], dict[str, str]]] = {}
        """Each seat's latest previews, with the observation and legal texts they were made from."""
        self.standins: dict[int, str] = {}
        """Bots playing person seats whose time ran out, until their people come back."""
        self.last_active = time.monotonic()
        """When somebody last acted, or sat down or got up (loading counts: downtime does not)."""
        self._turn: tuple[int, asyncio.TimerHandle, float] | None = None  # (seat, timer, deadline)
        self._tasks: set[asyncio.Task[None]] = set()
        self.taken: dict[int, list[tuple[int, int]]] = {seat: [] for seat in range(game.num_players)}
        """Each seat's actions so far, as ``(step, action)``: a client numbers its actions by this count."""
        self.steps: list[Step] = []
        """Every step applied so far (who took it, whether it was a reveal): the turns are read from these."""
        self._sizes: list[tuple[int, ...]] = []
        """After each step, how many record entries each viewer (the seats, then the spectator) has seen."""
        self._public: dict[int, bool] = {}
        """Steps known to be seen alike by everybody (their text may be shown as another seat's turn)."""
        self._turn_start: State | None = None
        """The state before the first step of the turn now in progress (undo rebuilds from it)."""
        self._own: list[tuple[Observation, int]] = []
        """The observation and log length of the seat whose turn is in progress, before each of its steps."""
        self.pending: dict[int | None, list[Observation]] = {v: [] for v in viewers}
        """Observations the other viewers will go through once the turn in progress ends, one per step."""
        self.version = 0
        """Counts the changes of the state (steps and undos): a bot's decision is for one version only."""
        self._last_turns: tuple[int, dict[int | None, dict[str, Any] | None]] = (-1, {})
        self.skip: set[int] = set()
        """The person seats that ask to skip the bots' pause before each of their turns."""
        self._paced = asyncio.Event()
        """Set when a seat changes its mind about the pause (a pause under way ends early)."""
        self._observe()
        actors = record.actors or [-2] * len(record.actions)
        for step, (action, actor) in enumerate(zip(record.actions, actors, strict=True)):
            if actor in self.taken:
                self.taken[actor].append((step, action))
            self._apply(action)

    # -- what each viewer sees ----------------------------------------------------

    def _apply(self, action: int) -> set[int | None]:
        """Applies one step (checked legal by the caller) and updates what each viewer sees; returns who
        saw a change."""
        state = self.state
        actor = state.current_player()
        reveal = False
        if actor >= 0:
            reveal = state.reveals(action)
            if open_turn(self.steps, actor) == 0:  # the first step of a turn
                self._turn_start = state.clone()
                self._own = []
            self._own.append((self.observations[actor], len(self.logs[actor])))
        state.apply_action(action)
        self.steps.append(Step(actor, reveal))
        self._sizes.append(tuple(self._seen(state, viewer) for viewer in self.viewers))
        self.version += 1
        return self._observe()

    @staticmethod
    def _seen(state: State, viewer: int | None) -> int:
        """Returns how many record entries ``viewer`` has seen in ``state``."""
        return int(state.information_state_string(viewer).split(":", 1)[0])

    def open_seat(self) -> tuple[int | None, int]:
        """Returns the seat whose turn is in progress and its steps so far (None and 0: no such turn)."""
        player = self.state.current_player()
        count = open_turn(self.steps, player) if player >= 0 else 0
        return (player, count) if count else (None, 0)

    def _observe(self) -> set[int | None]:
        """Updates every viewer's observation and log after a step; returns who saw a change.

        While a seat's turn is in progress, only that seat sees its steps: every other viewer keeps
        what it saw at the turn's start, and goes through each of the turn's steps (its log gets every
        line) when the turn ends."""
        changed: set[int | None] = set()
        holder, _count = self.open_seat()
        for viewer in self.viewers:
            queue = self.pending[viewer]
            queue.append(self.state.observation(viewer))
            if holder is not None and viewer != holder:
                continue
            for obs in queue:
                before = self.observations.get(viewer)
                if obs != before:
                    self.logs[viewer].extend(self.narrate(before, obs))
                    self.observations[viewer] = obs
                    changed.add(viewer)
            queue.clear()
        return changed

    def public_info(self) -> dict[str, Any]:
        """Returns what anybody may know of the table (no seed, no token)."""
        info = self.game.info
        online = {c.seat for c in self.connections if c.alive}
        return {
            "id": self.id,
            "game": info.id,
            "name": info.name,
            "players": self.game.num_players,
            "options": dict(self.game.options),
            "status": self.status,
            "turn_limit": self.turn_limit,
            "on_leave": self.on_leave,
            "rematch": self.rematch,
            "seats": [
                {
                    "seat": s.seat,
                    "kind": s.kind,
                    "bot": s.bot,
                    "claimed": s.claimed,
                    "lobby": s.lobby,
                    "online": s.seat in online,
                    "standin": self.standins.get(s.seat),
                    "name": s.name,
                }
                for s in self.seats
            ],
        }

    def view(self, connection: Connection) -> dict[str, Any]:
        """Returns the message that shows one connection its seat's view, with the log it has not had."""
        seat = connection.seat
        state = self.state
        player = state.current_player()
        mine = seat is not None and player == seat and self.status == RUNNING and seat not in self.standins
        legal = (
            [{"id": a, "text": t} for a, t in zip(state.legal_actions(), state.legal_action_texts(), strict=True)]
            if mine
            else []
        )
        over = state.is_terminal()
        log_lines = self.logs[seat]
        message = {
            "type": "view",
            "table": self.public_info(),
            "seat": seat,
            "observation": self.observations[seat],
            "to_move": player if player >= 0 else None,
            "chance": player == CHANCE,
            "legal": legal,
            "log": log_lines[connection.log_sent :],
            "log_start": connection.log_sent,
            "over": over,
            "returns": state.returns() if over else None,
            "turn_ends_in": self.turn_ends_in(),
            "seq": None if seat is None else len(self.taken[seat]),
            "undo": self.undoable(seat),
            "last_turn": self.last_turn(seat),
            "pace": {"delay": self.manager.bot_delay, "skip": seat in self.skip},
            "previews": self.previews(seat, [str(a["text"]) for a in legal]) if seat is not None and legal else {},
        }
        connection.log_sent = len(log_lines)
        return message

    def undoable(self, seat: int | None) -> int:
        """Returns how many steps ``seat`` may take back now: those of its turn in progress, if its
        person plays it (not a bot, not a stand-in) at a running table; else 0."""
        if seat is None or self.status != RUNNING or seat in self.standins or self.seats[seat].kind != PERSON:
            return 0
        holder, count = self.open_seat()
        return count if holder == seat else 0

    def last_turn(self, viewer: int | None) -> dict[str, Any] | None:
        """Returns the most recent finished turn of a seat other than ``viewer`` (any seat, for a
        spectator) as ``{"seat": k, "actions": [texts]}``, with the text of only those of its steps
        that everybody saw alike; None if there is none."""
        version, known = self._last_turns
        if version != self.version:
            known = self._last_turns_now()
            self._last_turns = (self.version, known)
        found = known.get(viewer)
        return None if found is None else {"seat": found["seat"], "actions": list(found["actions"])}

    def _last_turns_now(self) -> dict[int | None, dict[str, Any] | None]:
        """Returns every viewer's last turn (see :meth:`last_turn`)."""
        _holder, count = self.open_seat()
        cut = len(self.steps) - count
        spans: dict[int | None, Turn | None] = {}
        for viewer in self.viewers:
            spans[viewer] = next((t for t in latest_turns(self.steps, cut) if viewer is None or t.seat != viewer), None)
        history = self.state.history()
        found: dict[int | None, dict[str, Any] | None] = {}
        for viewer, span in spans.items():
            if span is None:
                found[viewer] = None
                continue
            texts = [
                self.game.action_text(history[step]) for step in range(span.start, span.end) if self._seen_by_all(step)
            ]
            found[viewer] = {"seat": span.seat, "actions": texts}
        return found

    def _seen_by_all(self, step: int) -> bool:
        """Returns True if every seat read exactly the spectator's entries of ``step``'s record, and
        there was at least one: its text tells nobody anything they did not see."""
        known = self._public.get(step)
        if known is None:
            # The steps not yet judged are the newest ones: read only their part of each record.
            start = len(self.steps)
            while start > 0 and start - 1 not in self._public:
                start -= 1
            none = (0,) * len(self.viewers)
            base = self._sizes[start - 1] if start else none
            last = self._sizes[-1]
            records = [
                self.state.information_state(viewer, newest=last[k] - base[k]) for k, viewer in enumerate(self.viewers)
            ]
            for index in range(start, len(self.steps)):
                before = self._sizes[index - 1] if index else none
                after = self._sizes[index]
                parts = [records[k][before[k] - base[k] : after[k] - base[k]] for k in range(len(self.viewers))]
                self._public[index] = bool(parts[-1]) and all(part == parts[-1] for part in parts)
            known = self._public[step]
        return known

    def previews(self, seat: int, texts: list[str]) -> dict[str, str]:
        """Returns the game's previews of a seat's legal actions (``texts``), made from the seat's
        observation alone (never the true state): {action text: preview} where the game has one.
        Made once per observation of the seat, however many views show them."""
        if self.preview is None:
            return {}
        observation = self.observations[seat]
        cached = self._previews.get(seat)
        if cached is not None and cached[0] is observation and cached[1] == texts:
            return cached[2]
        shown: dict[str, str] = {}
        mine = copy.deepcopy(observation)  # the game's function cannot change what the table keeps
        for text in texts:
            try:
                preview = self.preview(mine, seat, text)
            except Exception as error:  # a faulty preview costs its text, not the view
                log.error("table %s: a preview failed (%s)", self.id, type(error).__name__)
                continue
            if isinstance(preview, str) and preview:
                shown[text] = preview
        self._previews[seat] = (observation, list(texts), shown)
        return shown

    async def _send(self, connection: Connection, message: dict[str, Any]) -> None:
        try:
            await connection.send(message)
        except Exception:  # a closed socket: forget the connection
            connection.alive = False

    async def broadcast(self, viewers: set[int | None] | None = None) -> None:
        """Sends a fresh view to every connection (or those whose viewer is in ``viewers``)."""
        for connection in list(self.connections):
            if connection.alive and (viewers is None or connection.seat in viewers):
                await self._send(connection, self.view(connection))
        self.connections = [c for c in self.connections if c.alive]

    # -- seats --------------------------------------------------------------------------

    def seat_for(self, seat: Any, token: Any) -> int:
        """Returns the seat a token opens; raises TableError (code bad_token) otherwise."""
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(self.seats):
            raise TableError(f"this table has seats 0 to {len(self.seats) - 1}", code="bad_seat")
        record = self.seats[seat]
        if record.kind != PERSON:
            raise TableError(f"seat {seat} is played by a bot", code="bad_seat")
        if not token_matches(token, record.token_hash):
            raise TableError(
                f"this link does not open seat {seat}: its token is wrong or was replaced", code="bad_token", status=403
            )
        return seat

    async def claim(self, seat: int, *, token_hash: str | None = None) -> None:
        """Marks a person seat claimed (storing it first); starts the game once every seat is."""
        record = self.seats[seat]
        if record.claimed and token_hash is None:
            return
        everyone = all(s.claimed or s.kind != PERSON or s.seat == seat for s in self.seats)
        status = RUNNING if self.status == WAITING and everyone else None
        await asyncio.to_thread(self.manager.store.claim_seat, self.id, seat, token_hash=token_hash, status=status)
        record.claimed = True
        if token_hash is not None:  # a new person: the name was the one before's
            record.token_hash, record.name = token_hash, None
            self.skip.discard(seat)  # and so was the wish to skip the bots' pause
        if status is not None:
            self.status = status
            log.info("table %s: every seat is taken, the game starts", self.id)
            self._arm()
        self.kick()

    async def join(
        self, send: Send, seat: Any = None, token: Any = None, *, close: Callable[[int], Awaitable[None]] | None = None
    ) -> Connection:
        """Adds a client (at the seat its token opens, or as a spectator) and sends it the whole view.

        A person who comes back to their seat takes it back from its stand-in bot, and picks up an
        abandoned table again. Raises TableError (code ``bad_token``/``bad_seat``) if the token does
        not open the seat.
        """
        async with self.lock:
            if self.status == DELETED:
                raise TableError("this table was deleted by its creator", code="deleted", status=404)
            if seat is not None:
                seat = self.seat_for(seat, token)
                await self.claim(seat)
                if self.standins.pop(seat, None) is not None:
                    log.info("table %s: seat %d is back; its stand-in bot stops", self.id, seat)
                if self.status == ABANDONED:
                    await self._revive()
                self.last_active = time.monotonic()
            connection = Connection(send=send, seat=seat, close=close)
            self.connections.append(connection)
            self._paced.set()  # one more seated person: the bots may pause again, or skip
            self._arm()
            await self.broadcast()
        return connection

    async def leave(self, connection: Connection) -> None:
        """Removes a client; the others see its seat go offline."""
        connection.alive = False
        if connection.seat is not None:
            self.last_active = time.monotonic()
        self.connections = [c for c in self.connections if c.alive]
        self._paced.set()  # the people left may all ask to skip the bots' pause
        await self.broadcast()
        self.manager.forget_if_idle(self)

    def seated(self) -> bool:
        """Returns True if a person is connected at a seat (spectators do not count)."""
        return any(c.alive and c.seat is not None for c in self.connections)

    async def _unseat(self, seat: int, message: dict[str, Any] | None) -> None:
        """Turns the connections at a seat into spectators (telling them ``message`` first, if any); the
        seat's wish to skip the bots' pause goes with them."""
        self.skip.discard(seat)
        self._paced.set()
        for connection in self.connections:
            if connection.alive and connection.seat == seat:
                if message is not None:
                    await self._send(connection, message)
                connection.seat = None
                connection.log_sent = 0  # the spectator's log is another one: sent whole

    async def _revive(self) -> None:
        """Picks an abandoned table up again (a person came back to a seat): its game and bots go on."""
        started = self.state.move_number() > 0 or all(s.claimed or s.kind != PERSON for s in self.seats)
        status = RUNNING if started else WAITING
        await asyncio.to_thread(self.manager.store.set_status, self.id, status)
        self.status = status
        self.manager.revived(self)
        log.info("table %s: a person came back; the abandoned table goes on", self.id)
        self.kick()

    # -- the creator's and the seat's own changes ----------------------------------------------------

    def _person_seat(self, seat: int) -> SeatRecord:
        if not 0 <= seat < len(self.seats):
            raise TableError(f"this table has seats 0 to {len(self.seats) - 1}", code="bad_seat", status=404)
        record = self.seats[seat]
        if record.kind != PERSON:
            raise TableError(f"seat {seat} is played by a bot", code="bad_seat", status=409)
        return record

    def _changeable(self) -> None:
        if self.status == FINISHED:
            raise TableError("the game is over: its seats no longer change", code="over", status=409)
        if self.status == DELETED:
            raise TableError("this table was deleted by its creator", code="deleted", status=404)

    async def new_link(self, seat: int) -> str:
        """Replaces a person seat's token (the old link is refused from now on); returns the new token.

        Whoever holds the seat with the old token is moved to the spectators; the seat waits for the
        new link (its stand-in, if it has one, plays on until then).
        """
        async with self.lock:
            self._changeable()
            record = self._person_seat(seat)
            token = new_token()
            digest = token_hash(token)
            await asyncio.to_thread(
                self.manager.store.update_seat, self.id, seat, {"token_hash": digest, "claimed": False, "name": None}
            )
            record.token_hash, record.claimed, record.name = digest, False, None
            notice = "the table's creator replaced this seat's link; you are watching"
            await self._unseat(seat, {"type": "error", "code": "revoked", "message": notice})
            log.info("table %s: the creator replaced the link of seat %d", self.id, seat)
            self._arm()
            await self.broadcast()
        return token

    async def set_lobby(self, seat: int, lobby: bool) -> None:
        """Opens a person seat to the lobby (anybody may take it while it is free) or keeps it for its link.

        A table with a seat open to the lobby always has a turn limit: the server's, if it had none.
        """
        async with self.lock:
            self._changeable()
            record = self._person_seat(seat)
            table: dict[str, Any] = {}
            if lobby and self.turn_limit is None:
                table["turn_limit"] = self.manager.turn_limit
            await asyncio.to_thread(self.manager.store.update_seat, self.id, seat, {"lobby": lobby}, table=table)
            record.lobby = lobby
            self.turn_limit = table.get("turn_limit", self.turn_limit)
            self._arm()
            await self.broadcast()

    async def give_up(self, seat: Any, token: Any) -> str:
        """The person at a seat leaves it for good: it opens to the lobby, or a bot takes it, as the
        table's creator chose. Returns which (``open`` or ``bot``); raises TableError."""
        async with self.lock:
            self._changeable()
            seat = self.seat_for(seat, token)
            record = self.seats[seat]
            table: dict[str, Any] = {}
            if self.on_leave == LEAVE_BOT:
                bot = standin_bot(self.game.info.id)
                values: dict[str, Any] = {
                    "kind": BOT,
                    "bot": bot,
                    "token_hash": None,
                    "claimed": True,
                    "lobby": False,
                    "name": None,
                }
                others = all(s.claimed or s.kind != PERSON for s in self.seats if s.seat != seat)
                if self.status == WAITING and others:
                    table["status"] = RUNNING
            else:
                values = {"token_hash": None, "claimed": False, "lobby": True, "name": None}
                if self.turn_limit is None:
                    table["turn_limit"] = self.manager.turn_limit
            await asyncio.to_thread(self.manager.store.update_seat, self.id, seat, values, table=table)
            record.token_hash, record.claimed, record.lobby = None, values["claimed"], values["lobby"]
            record.name = None
            self.standins.pop(seat, None)
            if self.on_leave == LEAVE_BOT:
                record.kind, record.bot = BOT, values["bot"]
                self.agents[seat] = values["bot"]
            self.status = table.get("status", self.status)
            self.turn_limit = table.get("turn_limit", self.turn_limit)
            await self._unseat(seat, None)
            self.last_active = time.monotonic()
            log.info("table %s: the person at seat %d left it (%s)", self.id, seat, self.on_leave)
            self._arm()
            await self.broadcast()
        self.kick()
        return self.on_leave

    async def set_name(self, connection: Connection, raw: Any) -> str:
        """Sets the display name of a connection's seat (stored first); everybody sees it. Returns the
        name as kept; raises TableError (``bad_name``, ``not_seated``, ``storage``) with nothing changed."""
        async with self.lock:
            seat = connection.seat
            if seat is None or not connection.alive:
                raise TableError("spectators have no seat to name; open your seat's join link", code="not_seated")
            if self.status == DELETED:
                raise TableError("this table was deleted by its creator", code="deleted")
            name = check_name(raw)
            try:
                await asyncio.to_thread(self.manager.store.update_seat, self.id, seat, {"name": name})
            except Exception as error:
                log.error("table %s: a name could not be stored (%s)", self.id, type(error).__name__)
                raise TableError("the name could not be saved; nothing changed, try again", code="storage") from None
            self.seats[seat].name = name
            await self.broadcast()
        return name

    async def abandon(self) -> bool:
        """Abandons the table if still nobody sits at it: out of the lobby, its dealer, bots and turn
        timer stopped. Returns True if it did."""
        async with self.lock:
            if self.status not in (WAITING, RUNNING) or self.seated():
                return False
            await asyncio.to_thread(self.manager.store.set_status, self.id, ABANDONED)
            self.status = ABANDONED
            self._halt()
            await self.broadcast()
        log.info("table %s: abandoned, nobody sat at it or played", self.id)
        self.manager.forget_if_idle(self)
        return True

    async def remove(self) -> None:
        """Deletes the table (its creator asked): its rows go, every client is told and disconnected."""
        async with self.lock:
            if self.status == DELETED:
                raise TableError("this table was deleted by its creator", code="deleted", status=404)
            await asyncio.to_thread(self.manager.store.delete_table, self.id)
            self.status = DELETED
            self._halt()
            message = {"type": "error", "code": "deleted", "message": "this table was deleted by its creator"}
            for connection in list(self.connections):
                if connection.alive:
                    await self._send(connection, message)
                    if connection.close is not None:
                        with contextlib.suppress(Exception):
                            await connection.close(4404)
                connection.alive = False
            self.connections = []
        log.info("table %s: deleted by its creator", self.id)

    def _halt(self) -> None:
        """Stops the turn timer, the stand-ins, the dealer and the bots."""
        self._disarm()
        self.standins.clear()
        if self.driver is not None and not self.driver.done() and self.driver is not asyncio.current_task():
            self.driver.cancel()

    # -- the turn timer -------------------------------------------------------------------------

    def _timed_seat(self) -> int | None:
        """Returns the person seat whose turn is timed now (None: no clock runs)."""
        if self.turn_limit is None or self.status != RUNNING or self.state.is_terminal():
            return None
        player = self.state.current_player()
        if player == CHANCE:  # the dealer's steps inside a turn do not restart its clock
            return self._turn[0] if self._turn is not None else None
        if player < 0 or self.seats[player].kind != PERSON or player in self.standins:
            return None
        return player

    def _disarm(self) -> None:
        if self._turn is not None:
            self._turn[1].cancel()
            self._turn = None

    def _arm(self) -> None:
        """Starts, keeps or stops the turn timer after any change: a turn keeps its clock until another
        seat is to move."""
        seat = self._timed_seat()
        if self._turn is not None and self._turn[0] == seat:
            return
        self._disarm()
        if seat is None or self.turn_limit is None:
            return
        loop = asyncio.get_running_loop()
        handle = loop.call_later(self.turn_limit, self._expired, seat)
        self._turn = (seat, handle, loop.time() + self.turn_limit)

    def turn_ends_in(self) -> float | None:
        """Returns the seconds left to the timed turn (None: no clock runs)."""
        if self._turn is None:
            return None
        return round(max(0.0, self._turn[2] - asyncio.get_running_loop().time()), 2)

    def _expired(self, seat: int) -> None:
        task = asyncio.get_running_loop().create_task(self._take_over(seat))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _take_over(self, seat: int) -> None:
        """A person's time ran out: the stand-in bot plays their seat until they come back."""
        async with self.lock:
            if self._turn is not None and self._turn[0] == seat:
                self._turn = None
            if self._timed_seat() != seat or self.state.current_player() != seat:
                self._arm()
                return
            bot = standin_bot(self.game.info.id)
            self.standins[seat] = bot
            log.info("table %s: seat %d ran out of time; a %s bot plays it until they are back", self.id, seat, bot)
            await self.broadcast()
        self.kick()

    # -- actions ---------------------------------------------------------------------------

    def _check(self, seat: int | None, raw: Any) -> int:
        """Returns the action id a seat may take now; raises TableError saying why not."""
        state = self.state
        if seat is None:
            raise TableError("spectators cannot act; open your seat's join link to play", code="not_seated")
        if state.is_terminal():
            raise TableError("the game is over", code="over")
        if self.status == DELETED:
            raise TableError("this table was deleted by its creator", code="deleted")
        if self.status == ABANDONED:
            raise TableError("this table was abandoned; reconnect with your seat's link to go on", code="abandoned")
        if self.status != RUNNING:
            raise TableError("the game has not started: some seats are still open", code="waiting")
        if seat in self.standins:
            raise TableError(
                "your time ran out and a bot plays your seat; reconnect (reload the page) to take it back",
                code="stood_in",
            )
        player = state.current_player()
        if player == CHANCE:
            raise TableError("wait: the cards are being dealt or drawn", code="not_your_turn")
        if player != seat:
            raise TableError(f"it is seat {player}'s turn, not yours", code="not_your_turn")
        texts = state.legal_action_texts()
        legal = state.legal_actions()
        shown = ", ".join(texts)
        if isinstance(raw, str):
            try:
                action = self.game.parse_action(raw)
            except IllegalActionError:
                written = excerpt(raw.strip())
                raise TableError(f"no action is written {written}; legal now: {shown}", code="illegal") from None
        elif isinstance(raw, int) and not isinstance(raw, bool):
            action = raw
        else:
            raise TableError("an action is its text or its id", code="illegal")
        if action not in legal:
            try:
                name = repr(self.game.action_text(action))
            except IllegalActionError:
                name = excerpt(action)
            raise TableError(f"{name} is not legal for you now; legal now: {shown}", code="illegal")
        return action

    async def _commit(self, actions: Sequence[tuple[int, int]]) -> None:
        """Stores ``(action, actor)`` steps, then applies them: nothing changes if the write fails."""
        after = self.state.clone()
        rows = []
        for action, actor in actions:
            rows.append((action, after.action_to_string(action), actor))
            after.apply_action(action)
        over = after.is_terminal()
        turn = (self.state.current_player(), self.status)
        await asyncio.to_thread(
            self.manager.store.append_actions,
            self.id,
            self.state.move_number(),
            rows,
            status=FINISHED if over else None,
            returns=after.returns() if over else None,
        )
        last_turns = {viewer: self.last_turn(viewer) for viewer in self.viewers}
        changed: set[int | None] = set()
        for action, actor in actions:
            if actor in self.taken:
                self.taken[actor].append((self.state.move_number(), action))
                changed.add(actor)  # its seq and what it may undo changed
            changed |= self._apply(action)
        self.last_active = time.monotonic()
        if over:
            self.status = FINISHED
            self.standins.clear()
            log.info("table %s: the game is over", self.id)
        self._arm()
        changed |= {viewer for viewer in self.viewers if self.last_turn(viewer) != last_turns[viewer]}
        # Everybody hears of a new turn; otherwise only viewers who saw something change.
        await self.broadcast(None if (self.state.current_player(), self.status) != turn else changed)

    async def act(self, connection: Connection, raw: Any, seq: Any = None) -> tuple[str, bool]:
        """Checks, stores and applies a person's action; returns its text, and True if it had been
        taken already (a resubmission). Raises TableError.

        ``seq``, when given, is how many actions the seat had taken before this one (the ``seq`` of
        the view it acted on): the same action sent again with the same ``seq``, after a lost answer
        or a reconnection, is acknowledged again and not applied twice.
        """
        async with self.lock:
            if seq is not None and connection.seat is not None:
                done = self._resubmitted(connection.seat, raw, seq)
                if done is not None:
                    return done, True
            action = self._check(connection.seat, raw)
            text = self.game.action_text(action)
            try:
                await self._commit([(action, connection.seat if connection.seat is not None else -1)])
            except Exception as error:
                # Only the kind of error is logged: a database message would quote the action.
                log.error("table %s: an action could not be stored (%s)", self.id, type(error).__name__)
                raise TableError("the action could not be saved; nothing changed, try again", code="storage") from None
        self.kick()
        return text, False

    def _resubmitted(self, seat: int, raw: Any, seq: Any) -> str | None:
        """Returns the text of the seat's action number ``seq`` if it is ``raw``, taken already; None
        if ``seq`` is the seat's next action; raises TableError if it is neither."""
        if isinstance(seq, bool) or not isinstance(seq, int) or not 0 <= seq < 2**31:
            raise TableError(SEQ_RULE, code="bad_message")
        done = self.taken[seat]
        if seq == len(done):
            return None
        if seq > len(done):
            raise TableError(f"your seat has taken {len(done)} actions: seq {seq} is ahead of them", code="stale")
        _step, action = done[seq]  # the table's step is not told: it counts steps the seat never saw
        text = self.game.action_text(action)
        same = raw == action if isinstance(raw, int) and not isinstance(raw, bool) else False
        if isinstance(raw, str):
            try:
                same = self.game.parse_action(raw) == action
            except IllegalActionError:
                same = False
        if not same:
            raise TableError(f"your seat's action {seq} was {text!r}; your next is seq {len(done)}", code="stale")
        return text

    async def undo(self, connection: Connection, seq: Any) -> tuple[str, int]:
        """Takes back the last step of the connection's seat's turn in progress: from the database
        first (gone for good before the answer), then from the state, the seat's count of actions and
        the seat's own log. Nobody else had seen it. Returns the undone action's text and the seat's
        count of actions now (its next ``seq``); raises
        TableError (``no_undo``, ``stale``, ``bad_message``, ``storage``) with nothing changed.

        ``seq`` must be the seat's count of actions (the view's ``seq``), so an undo sent again after
        a lost answer is refused (``stale``) rather than taking back a second step."""
        if isinstance(seq, bool) or not isinstance(seq, int) or not 0 <= seq < 2**31:
            raise TableError(SEQ_RULE, code="bad_message")
        async with self.lock:
            seat = connection.seat
            if seat is None or not connection.alive:
                raise TableError(NO_UNDO, code="no_undo")
            if seq != len(self.taken[seat]):
                raise TableError(
                    f"your seat has taken {len(self.taken[seat])} actions: undo answers the view's seq", code="stale"
                )
            count = self.undoable(seat)
            if count == 0 or self._turn_start is None:
                raise TableError(NO_UNDO, code="no_undo")
            step = self.state.move_number() - 1
            history = self.state.history()
            try:
                await asyncio.to_thread(self.manager.store.remove_last_action, self.id, step)
            except Exception as error:
                log.error("table %s: an action could not be taken back (%s)", self.id, type(error).__name__)
                raise TableError("the undo could not be saved; nothing changed, try again", code="storage") from None
            text = self.game.action_text(history[-1])
            state = self._turn_start.clone()
            for action in history[len(history) - count : -1]:
                state.apply_action(action)
            self.state = state
            self.taken[seat].pop()
            self.steps.pop()
            self._sizes.pop()
            self._public.pop(step, None)
            observation, lines = self._own.pop()
            self.observations[seat] = observation
            del self.logs[seat][lines:]
            for viewer, queue in self.pending.items():
                if viewer != seat:
                    queue.pop()
            self.version += 1
            self.last_active = time.monotonic()
            for other in self.connections:
                if other.seat == seat:
                    other.log_sent = 0  # its log lost lines: sent again whole
            log.info("table %s: seat %d took back a step", self.id, seat)
            self._arm()
            await self.broadcast({seat})
        return text, seq - 1

    async def set_pace(self, connection: Connection, skip: Any) -> dict[str, Any]:
        """A seated person asks to skip the bots' pause before each of their turns (or not any more);
        the pause is skipped while every seated person connected asks so. Returns the seat's pace."""
        if not isinstance(skip, bool):
            raise TableError("skip is true or false", code="bad_message")
        async with self.lock:
            seat = connection.seat
            if seat is None or not connection.alive:
                raise TableError("spectators do not set the pace; open your seat's join link", code="not_seated")
            if skip:
                self.skip.add(seat)
            else:
                self.skip.discard(seat)
            self._paced.set()
            await self.broadcast({seat})
        return {"delay": self.manager.bot_delay, "skip": skip}

    def skipping(self) -> bool:
        """Returns True if the bots skip their pause: every seated person connected (one at least) asks so."""
        people = {c.seat for c in self.connections if c.alive and c.seat is not None}
        return bool(people) and people <= self.skip

    async def _pause(self) -> None:
        """Waits ``bot_delay`` seconds before a bot's turn, so that people can follow it; ends as soon
        as the seated people ask to skip it."""
        loop = asyncio.get_running_loop()
        end = loop.time() + self.manager.bot_delay
        while not self.skipping():
            left = end - loop.time()
            if left <= 0:
                return
            self._paced.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._paced.wait(), left)

    # -- chance and bots -----------------------------------------------------------------

    def kick(self) -> None:
        """Starts the driver that deals and moves the bots, unless one is running."""
        if self.driver is None or self.driver.done():
            self.driver = asyncio.get_running_loop().create_task(self._drive())

    async def _drive(self) -> None:
        failures = 0
        while True:
            try:
                if not await self._step():
                    return
                failures = 0
            except asyncio.CancelledError:
                raise
            except Exception as error:
                # No message or traceback: either could quote a hidden card.
                failures += 1
                log.error("table %s: the dealer or a bot failed (%s)", self.id, type(error).__name__)
                if failures >= _DRIVER_ATTEMPTS:
                    log.error("table %s: the dealer and bots stop until the next action or restart", self.id)
                    return
                await asyncio.sleep(0.2 * 2**failures)

    async def _step(self) -> bool:
        """Makes the next chance outcomes or bot move; returns False when a person must act."""
        state = self.state
        if self.status != RUNNING or state.is_terminal():
            return False
        player = state.current_player()
        if player == CHANCE:
            async with self.lock:
                if self.status != RUNNING:
                    return False
                # No seat has a chooser here: a bot thinks in the pool, outside, so only chance is dealt.
                outcomes: list[tuple[int, int]] = []
                advance(
                    self.state.clone(),
                    lambda probe: sample_chance(probe, chance_rng(self.seed, probe.move_number())),
                    {},
                    lambda probe, actor, action: outcomes.append((action, actor)),
                )
                await self._commit(outcomes)
            return True
        # A seat's bot, or the stand-in of a person whose time ran out: the same interface, the same view.
        spec = self.agents.get(player) or self.standins.get(player)
        if spec is None:
            return False
        if open_turn(self.steps, player) == 0:  # the pause is paid once per turn, before its first step
            await self._pause()
            if self.state.current_player() != player or self.status != RUNNING:
                return True
        state, version = self.state, self.version
        # It thinks in another process, on a copy: nothing here waits for it but this table's driver.
        rng = bot_rng(self.seed, player, state.move_number())
        action = await self.manager.bots.choose(spec, state.clone(), player, rng)
        async with self.lock:
            if self.status != RUNNING:
                return False
            if self.version != version or (self.agents.get(player) or self.standins.get(player)) != spec:
                return True  # somebody moved first, or the person came back
            if action not in self.state.legal_actions():
                raise RuntimeError(f"bot {spec} chose an illegal action")
            await self._commit([(action, player)])
        return True


def closed_reason(record: TableRecord) -> str:
    """Returns why a stored table is closed, in words for the person who opens it."""
    try:
        version = game_class(record.game).info.version
    except ValueError:
        return f"this table is closed: this henge has no game {record.game!r}"
    if version != record.game_version:
        return (
            f"this table is closed: it was played with {record.game} version {record.game_version}, "
            f"and this henge plays version {version}"
        )
    return "this table is closed: a stored action is not legal in this henge"


class Tables:
    """Every table: creates them, resumes the unfinished ones at start, finds them for clients."""

    def __init__(
        self,
        store: Store,
        *,
        bot_delay: float = 0.8,
        turn_limit: float = TURN_LIMIT,
        abandon_after: float = ABANDON_AFTER,
        bot_workers: int | None = None,
        bot_seconds: float = BOT_SECONDS,
    ) -> None:
        for name, value in (("turn_limit", turn_limit), ("abandon_after", abandon_after)):
            if not (math.isfinite(value) and value > 0):
                raise ValueError(f"{name} is a number of seconds above 0, not {value!r}")
        self.store = store
        self.bot_delay = bot_delay
        self.bots = BotPool(bot_workers, bot_seconds)
        """The worker processes every table's bots think in."""
        self.turn_limit = turn_limit
        """The turn limit of a lobby table (and of a table that asks for one without saying how long)."""
        self.abandon_after = abandon_after
        self.live: dict[str, LiveTable] = {}
        self._finished_order: list[str] = []
        self._sweeper: asyncio.Task[None] | None = None

    # -- start and stop ------------------------------------------------------------------

    async def resume(self) -> None:
        """Loads every unfinished table from the database and sets its dealer and bots going."""
        ids = await asyncio.to_thread(self.store.table_ids, statuses=[WAITING, RUNNING])
        for table_id in ids:
            table = await self._load(table_id)
            if table is not None:
                table.kick()
                table._arm()
        log.info("resumed %d unfinished tables", len(self.live))
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep())

    async def _sweep(self) -> None:
        """Abandons, now and then, the tables where nobody sat and nothing happened for ``abandon_after``."""
        every = min(60.0, max(0.01, self.abandon_after / 4))
        while True:
            await asyncio.sleep(every)
            now = time.monotonic()
            for table in list(self.live.values()):
                idle = now - table.last_active >= self.abandon_after
                if idle and table.status in (WAITING, RUNNING) and not table.seated():
                    try:
                        await table.abandon()
                    except Exception as error:  # the database: try again at the next sweep
                        log.error("table %s could not be abandoned (%s)", table.id, type(error).__name__)

    async def stop(self) -> None:
        """Stops every dealer, bot and timer (the database already holds every accepted action)."""
        for table in self.live.values():
            table._disarm()
        tasks = [t.driver for t in self.live.values() if t.driver is not None and not t.driver.done()]
        tasks += [task for t in self.live.values() for task in t._tasks if not task.done()]
        if self._sweeper is not None:
            tasks.append(self._sweeper)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self.bots.close()

    async def _load(self, table_id: str) -> LiveTable | None:
        record = await asyncio.to_thread(self.store.load, table_id)
        if record is None:
            return None
        try:
            game = load(record.game, record.players, **record.options)
            if game.info.version != record.game_version:
                raise ValueError(f"stored with version {record.game_version}, this henge has {game.info.version}")
            # Replaying a long game takes a while: in a worker thread, so the server keeps answering
            # (LiveTable's constructor touches no event loop).
            table = await asyncio.to_thread(LiveTable, record, game, self)
        except ValueError as error:
            # An illegal stored action's message would list a seat's options: name only the problem.
            reason = "a stored action is not legal" if isinstance(error, IllegalActionError) else str(error)
            log.warning("table %s cannot be resumed: %s", table_id, reason)
            if record.status != BROKEN:
                await asyncio.to_thread(self.store.set_status, table_id, BROKEN)
            return None
        loaded = self.live.get(table_id)
        if loaded is not None:  # another request loaded it meanwhile: one table, one state
            return loaded
        self.live[table_id] = table
        if table.status in (FINISHED, ABANDONED):
            self._finished_order.append(table_id)
        return table

    async def open(self, table_id: str) -> LiveTable | None:
        """Returns a table, loading a finished one from the database if needed."""
        table = self.live.get(table_id)
        if table is None and len(table_id) > _TABLE_ID_CHARS:  # no such id: not worth asking the database
            return None
        if table is None:
            table = await self._load(table_id)
        return table

    async def missing(self, table_id: str) -> TableError:
        """Returns the error for a table that cannot be opened: none by that id, or one set aside
        (stored by another version of the game's rules, or with an action this henge refuses)."""
        if len(table_id) > _TABLE_ID_CHARS:
            return TableError("no such table", code="no_table", status=404)
        record = await asyncio.to_thread(self.store.load, table_id, with_actions=False)
        if record is None or record.status != BROKEN:
            return TableError("no such table", code="no_table", status=404)
        return TableError(closed_reason(record), code="closed", status=410)

    def forget_if_idle(self, table: LiveTable) -> None:
        """Drops the oldest finished or abandoned tables nobody watches (loaded again when asked for)."""
        if table.status in (FINISHED, ABANDONED) and table.id not in self._finished_order:
            self._finished_order.append(table.id)
        while len(self._finished_order) > _KEEP_FINISHED:
            for table_id in self._finished_order:
                candidate = self.live.get(table_id)
                if candidate is None or not candidate.connections:
                    self._finished_order.remove(table_id)
                    self.live.pop(table_id, None)
                    break
            else:
                return

    def revived(self, table: LiveTable) -> None:
        """Keeps a table that is played again in memory."""
        if table.id in self._finished_order:
            self._finished_order.remove(table.id)
        self.live[table.id] = table

    async def creators(self, table_id: str, token: Any) -> LiveTable:
        """Returns a table if ``token`` is its creator's; raises TableError (404, or 403 ``not_creator``)."""
        table = await self.open(table_id)
        if table is None:
            raise await self.missing(table_id)
        if table.creator_hash is None:
            raise TableError(
                "this table was made before tables had a creator's token: nobody can manage it",
                code="not_creator",
                status=403,
            )
        if not token_matches(token, table.creator_hash):
            raise TableError(
                "only the table's creator may do this: send the creator's token as 'Authorization: Bearer <token>'",
                code="not_creator",
                status=403,
            )
        return table

    async def delete_closed(self, table_id: str, token: Any) -> bool:
        """Deletes a closed table (set aside, so never loaded) if ``token`` is its creator's; returns
        False if the table is not a closed one. Raises TableError (403 ``not_creator``) for another token."""
        if table_id in self.live or len(table_id) > _TABLE_ID_CHARS:
            return False
        record = await asyncio.to_thread(self.store.load, table_id, with_actions=False)
        if record is None or record.status != BROKEN:
            return False
        if record.creator_hash is None or not token_matches(token, record.creator_hash):
            raise TableError(
                "only the table's creator may delete it: send the creator's token as 'Authorization: Bearer <token>'",
                code="not_creator",
                status=403,
            )
        await asyncio.to_thread(self.store.delete_table, table_id)
        log.info("table %s: a closed table deleted by its creator", table_id)
        return True

    async def delete(self, table: LiveTable) -> None:
        """Deletes a table (its creator asked): from the database, from memory, from every client."""
        await table.remove()
        self.live.pop(table.id, None)
        if table.id in self._finished_order:
            self._finished_order.remove(table.id)

    # -- creating -----------------------------------------------------------------------------

    async def create(
        self,
        game_id: str,
        players: int,
        options: dict[str, Any],
        seats: Sequence[SeatSpec],
        *,
        sit: int | None = None,
        turn_limit: float | None = None,
        on_leave: str | None = None,
    ) -> Created:
        """Creates a table; ``sit`` is the person seat its creator takes at once.

        ``turn_limit``: seconds per turn of a person, 0 for none, None for the default (the server's
        at a table with a seat open to the lobby, which must have one; none elsewhere). ``on_leave``:
        what becomes of a seat its person leaves, ``bot`` (the default) or ``open`` (to the lobby).
        """
        if game_id not in list_games():
            raise TableError(f"unknown game {excerpt(game_id)}; games: {', '.join(list_games())}")
        info = game_class(game_id).info
        low, high = info.min_players, info.max_players
        if isinstance(players, bool) or not isinstance(players, int) or not low <= players <= high:
            raise TableError(f"{game_id} is for {info.min_players}-{info.max_players} players, not {excerpt(players)}")
        known = {option.name: option for option in info.options}
        for name, value in options.items():  # checked here, so that no error quotes more than an excerpt
            if name not in known:
                raise TableError(f"{game_id} has no option {excerpt(name)}; options: {', '.join(known) or 'none'}")
            if not known[name].allows(value):
                allowed = known[name].range_text()
                raise TableError(f"{game_id}: option {name} must be one of {allowed}, not {excerpt(value)}")
        try:
            game = load(game_id, players, **options)
        except ValueError as error:
            raise TableError(str(error)) from None
        if len(seats) != game.num_players:
            raise TableError(f"{game.num_players} players need {game.num_players} seats, not {len(seats)}")
        bots = [*levels_for(game_id), *agent_names()]
        for number, spec in enumerate(seats):
            if spec.kind == BOT and spec.bot not in bots:
                raise TableError(
                    f"seat {number}: {excerpt(spec.bot)} does not play {game_id}; levels and bots: {', '.join(bots)}"
                )
            if spec.kind not in (PERSON, BOT):
                raise TableError(f"seat {number}: a seat is 'person' or 'bot', not {excerpt(spec.kind)}")
        if sit is not None and not (0 <= sit < len(seats) and seats[sit].kind == PERSON):
            raise TableError(f"seat {excerpt(sit)} is not a seat for a person")
        for number, spec in enumerate(seats):
            if spec.lobby and spec.kind != PERSON:
                raise TableError(f"seat {number}: only a seat for a person can be open to the lobby")
            if spec.lobby and number == sit:
                raise TableError(f"seat {number} is the one you sit at: it cannot be open to the lobby too")
        limit = self._turn_limit(turn_limit, lobby=any(spec.lobby for spec in seats))
        leave = LEAVE_BOT if on_leave is None else on_leave
        if leave not in (LEAVE_OPEN, LEAVE_BOT):
            raise TableError(
                f"on_leave is 'bot' (a bot takes the seat its person leaves) or 'open' (to the lobby), "
                f"not {excerpt(leave)}"
            )
        created = Created(table_id=secrets.token_hex(5), creator_token=new_token())
        records = []
        for number, spec in enumerate(seats):
            if spec.kind == PERSON:
                token = created.tokens[number] = new_token()
                records.append(SeatRecord(number, PERSON, None, token_hash(token), number == sit, spec.lobby))
            else:
                records.append(SeatRecord(number, BOT, spec.bot, None, True))
        status = RUNNING if all(r.claimed for r in records) else WAITING
        await asyncio.to_thread(
            self.store.create_table,
            table_id=created.table_id,
            game=game_id,
            game_version=game.info.version,
            players=game.num_players,
            options=game.options,
            seed=secrets.randbits(62),
            status=status,
            seats=records,
            creator_hash=token_hash(created.creator_token),
            turn_limit=limit,
            on_leave=leave,
        )
        table = await self._load(created.table_id)
        if table is None:  # pragma: no cover - a table just written always loads
            raise TableError("the table could not be created", status=500)
        table.kick()
        table._arm()
        log.info("table %s created: %s for %d", created.table_id, game_id, game.num_players)
        return created

    async def rematch(self, table_id: str, token: Any) -> str:
        """Returns the id of the rematch of a finished table, creating it on the first call: the same
        game, players, options, seat kinds and bots, turn limit, ``on_leave`` and creator; every person
        keeps their seat, token and name. ``token`` must be the token of a person seated at the table.

        Raises TableError: no such table (404), not a seated person's token (403 ``bad_token``), the
        game not over (409 ``not_finished``)."""
        table = await self.open(table_id)
        if table is None:
            raise await self.missing(table_id)
        async with table.lock:
            if not any(s.kind == PERSON and token_matches(token, s.token_hash) for s in table.seats):
                raise TableError(
                    "only a person seated at this table may ask for a rematch: "
                    "send your seat's token as 'Authorization: Bearer <token>'",
                    code="bad_token",
                    status=403,
                )
            if table.status != FINISHED:
                raise TableError(
                    "the game is not over: a rematch can be asked for once it is finished",
                    code="not_finished",
                    status=409,
                )
            if table.rematch is not None and await self._exists(table.rematch):
                return table.rematch
            new_id = secrets.token_hex(5)
            seats = [
                SeatRecord(s.seat, s.kind, s.bot, s.token_hash, s.claimed or s.kind != PERSON, s.lobby, s.name)
                for s in table.seats
            ]
            game = table.game
            await asyncio.to_thread(
                self.store.create_table,
                table_id=new_id,
                game=game.info.id,
                game_version=game.info.version,
                players=game.num_players,
                options=dict(game.options),
                seed=secrets.randbits(62),
                status=RUNNING if all(s.claimed for s in seats) else WAITING,
                seats=seats,
                creator_hash=table.creator_hash,
                turn_limit=table.turn_limit,
                on_leave=table.on_leave,
                rematch_of=table.id,
            )
            table.rematch = new_id
            log.info("table %s: its rematch is table %s", table.id, new_id)
        new = await self._load(new_id)
        if new is None:  # pragma: no cover - a table just written always loads
            raise TableError("the rematch could not be created", status=500)
        new.kick()
        new._arm()
        await table.broadcast()
        return new_id

    async def _exists(self, table_id: str) -> bool:
        """Returns True if a table of that id is stored (its creator may have deleted it)."""
        if table_id in self.live:
            return self.live[table_id].status != DELETED
        return await asyncio.to_thread(self.store.load, table_id, with_actions=False) is not None

    def _turn_limit(self, asked: float | None, *, lobby: bool) -> float | None:
        """Returns a new table's turn limit (None: none) from what its creator asked; raises TableError."""
        if asked is None:
            return self.turn_limit if lobby else None
        if isinstance(asked, bool) or not isinstance(asked, int | float) or not math.isfinite(asked):
            raise TableError(f"turn_limit is a number of seconds, 0 (none) to {MAX_TURN_LIMIT:g}")
        if not 0 <= asked <= MAX_TURN_LIMIT:
            raise TableError(f"turn_limit is a number of seconds, 0 (none) to {MAX_TURN_LIMIT:g}, not {asked:g}")
        if asked == 0 and lobby:
            raise TableError(
                "a table with a seat open to the lobby has a turn limit: give turn_limit in seconds "
                f"(up to {MAX_TURN_LIMIT:g}), or leave it out for the server's {self.turn_limit:g}"
            )
        return float(asked) if asked > 0 else None

    async def take_seat(self, table_id: str, seat: int) -> str:
        """Gives a free seat open to the lobby to whoever asks first: returns a new token for it.

        A seat kept for an invitee is refused: only its link opens it.
        """
        table = await self.open(table_id)
        if table is None:
            raise TableError("no such table", code="no_table", status=404)
        async with table.lock:
            if not 0 <= seat < len(table.seats) or table.seats[seat].kind != PERSON:
                raise TableError(f"seat {excerpt(seat)} is not a seat for a person", status=409)
            if table.status not in (WAITING, RUNNING):
                raise TableError(f"this table is {table.status}: its seats cannot be taken", code="over", status=409)
            if table.seats[seat].claimed:
                raise TableError(f"seat {seat} is already taken", code="taken", status=409)
            if not table.seats[seat].lobby:
                raise TableError(
                    f"seat {seat} is kept for the person the table's creator invited: only their link opens it",
                    code="private",
                    status=403,
                )
            token = new_token()
            await table.claim(seat, token_hash=token_hash(token))
        await table.broadcast()
        return token


def games_info() -> list[dict[str, Any]]:
    """Returns each registered game's id, name, player counts, variants and designer options (knobs:
    name, values, standard value, what it changes), for the lobby."""
    out = []
    for game_id in list_games():
        info = game_class(game_id).info
        out.append(
            {
                "id": info.id,
                "name": info.name,
                "min_players": info.min_players,
                "max_players": info.max_players,
                "variants": [str(v) for v in info.variants],
                "has_variant": any(o.name == "variant" for o in info.options),
                "knobs": [
                    {"name": o.name, "values": list(o.values), "default": o.default, "doc": o.doc}
                    for o in info.options
                    if not o.recorded_at_default
                ],
                "summary": info.summary,
                "levels": levels_for(game_id),
                "first_opponent": first_opponent(game_id),
            }
        )
    return out


RULES_ONLY_LINE = "searches from the game's rules alone (a game without levels)"


def levels_info() -> list[dict[str, str]]:
    """Returns each level, weakest first, with the line on how it plays, then the bot that plays a game
    without levels."""
    return [{"name": level.name, "plays": level.plays} for level in LEVELS] + [
        {"name": RULES_ONLY, "plays": RULES_ONLY_LINE}
    ]
