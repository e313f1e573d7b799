"""Live tables: the true state of every game being played, its seats, bots and connections.

The server is authoritative. A table holds the only true state; clients send
the text or id of an action for their own seat, and get back only the
observation of that seat. An action is checked, written to the database,
and only then applied and acknowledged. Chance outcomes and bot moves are
made here, from the table's secret seed, and stored the same way, so a
restarted server replays the stored actions and stands exactly where it was.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import logging
import random
import secrets
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from henge.agents import Agent, agent_names, make_agent, make_decision
from henge.engine import CHANCE, Game, IllegalActionError, State, game_class, list_games, load
from henge.records import sample_chance
from henge.server.narrate import Observation, narrator
from henge.server.store import BROKEN, FINISHED, RUNNING, WAITING, SeatRecord, Store, TableRecord

log = logging.getLogger("henge.server")

PERSON, BOT = "person", "bot"
_KEEP_FINISHED = 16
"""Finished tables kept in memory after their last viewer leaves."""
_DRIVER_ATTEMPTS = 5
"""Tries of the dealer or a bot (a failing database write, say) before it waits for the next event."""

Send = Callable[[dict[str, Any]], Awaitable[None]]


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


@dataclass
class SeatSpec:
    """A seat asked for when creating a table."""

    kind: str
    bot: str | None = None


@dataclass
class Created:
    """A new table: its id and the secret token of each person seat."""

    table_id: str
    tokens: dict[int, str] = field(default_factory=dict)


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
        self.agents: dict[int, Agent] = {
            s.seat: make_agent(s.bot or "") for s in self.seats if s.kind == BOT and s.bot is not None
        }
        self._observe()
        for action in record.actions:
            self.state.apply_action(action)
            self._observe()

    # -- what each viewer sees ----------------------------------------------------

    def _observe(self) -> set[int | None]:
        """Updates every viewer's observation and log after a step; returns who saw a change."""
        changed: set[int | None] = set()
        for viewer in self.viewers:
            obs = self.state.observation(viewer)
            before = self.observations.get(viewer)
            if obs != before:
                self.logs[viewer].extend(self.narrate(before, obs))
                self.observations[viewer] = obs
                changed.add(viewer)
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
            "seats": [
                {"seat": s.seat, "kind": s.kind, "bot": s.bot, "claimed": s.claimed, "online": s.seat in online}
                for s in self.seats
            ],
        }

    def view(self, connection: Connection) -> dict[str, Any]:
        """Returns the message that shows one connection its seat's view, with the log it has not had."""
        seat = connection.seat
        state = self.state
        player = state.current_player()
        mine = seat is not None and player == seat and self.status == RUNNING
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
        }
        connection.log_sent = len(log_lines)
        return message

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
        if record.kind != PERSON or record.token_hash is None:
            raise TableError(f"seat {seat} is played by a bot", code="bad_seat")
        if not isinstance(token, str) or not hmac.compare_digest(token_hash(token), record.token_hash):
            raise TableError(
                f"this link does not open seat {seat}: its token is wrong or was replaced", code="bad_token"
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
        if token_hash is not None:
            record.token_hash = token_hash
        if status is not None:
            self.status = status
            log.info("table %s: every seat is taken, the game starts", self.id)
        self.kick()

    async def join(self, send: Send, seat: Any = None, token: Any = None) -> Connection:
        """Adds a client (at the seat its token opens, or as a spectator) and sends it the whole view.

        Raises TableError (code ``bad_token``/``bad_seat``) if the token does not open the seat.
        """
        async with self.lock:
            if seat is not None:
                seat = self.seat_for(seat, token)
                await self.claim(seat)
            connection = Connection(send=send, seat=seat)
            self.connections.append(connection)
            await self.broadcast()
        return connection

    async def leave(self, connection: Connection) -> None:
        """Removes a client; the others see its seat go offline."""
        connection.alive = False
        self.connections = [c for c in self.connections if c.alive]
        await self.broadcast()
        self.manager.forget_if_idle(self)

    # -- actions ---------------------------------------------------------------------------

    def _check(self, seat: int | None, raw: Any) -> int:
        """Returns the action id a seat may take now; raises TableError saying why not."""
        state = self.state
        if seat is None:
            raise TableError("spectators cannot act; open your seat's join link to play", code="not_seated")
        if state.is_terminal():
            raise TableError("the game is over", code="over")
        if self.status != RUNNING:
            raise TableError("the game has not started: some seats are still open", code="waiting")
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
                raise TableError(f"no action is written {raw.strip()!r}; legal now: {shown}", code="illegal") from None
        elif isinstance(raw, int) and not isinstance(raw, bool):
            action = raw
        else:
            raise TableError("an action is its text or its id", code="illegal")
        if action not in legal:
            try:
                name = repr(self.game.action_text(action))
            except IllegalActionError:
                name = repr(action)
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
        changed: set[int | None] = set()
        for action, _actor in actions:
            self.state.apply_action(action)
            changed |= self._observe()
        if over:
            self.status = FINISHED
            log.info("table %s: the game is over", self.id)
        # Everybody hears of a new turn; otherwise only viewers who saw something change.
        await self.broadcast(None if (self.state.current_player(), self.status) != turn else changed)

    async def act(self, connection: Connection, raw: Any) -> str:
        """Checks, stores and applies a person's action; returns its text. Raises TableError."""
        async with self.lock:
            action = self._check(connection.seat, raw)
            text = self.game.action_text(action)
            try:
                await self._commit([(action, connection.seat if connection.seat is not None else -1)])
            except Exception as error:
                # Only the kind of error is logged: a database message would quote the action.
                log.error("table %s: an action could not be stored (%s)", self.id, type(error).__name__)
                raise TableError("the action could not be saved; nothing changed, try again", code="storage") from None
        self.kick()
        return text

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
                probe = self.state.clone()
                outcomes = []
                while probe.is_chance_node():
                    action = sample_chance(probe, chance_rng(self.seed, probe.move_number()))
                    outcomes.append((action, CHANCE))
                    probe.apply_action(action)
                await self._commit(outcomes)
            return True
        agent = self.agents.get(player)
        if agent is None:
            return False
        await asyncio.sleep(self.manager.bot_delay)
        step = state.move_number()
        decision = make_decision(state, player, bot_rng(self.seed, player, step), samples=agent.needs_samples)
        action = await asyncio.to_thread(agent.choose, decision)
        async with self.lock:
            if self.state.move_number() != step:
                return True
            if action not in self.state.legal_actions():
                raise RuntimeError(f"bot {agent.name} chose an illegal action")
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

    def __init__(self, store: Store, *, bot_delay: float = 0.8) -> None:
        self.store = store
        self.bot_delay = bot_delay
        self.live: dict[str, LiveTable] = {}
        self._finished_order: list[str] = []

    # -- start and stop ------------------------------------------------------------------

    async def resume(self) -> None:
        """Loads every unfinished table from the database and sets its dealer and bots going."""
        ids = await asyncio.to_thread(self.store.table_ids, statuses=[WAITING, RUNNING])
        for table_id in ids:
            table = await self._load(table_id)
            if table is not None:
                table.kick()
        log.info("resumed %d unfinished tables", len(self.live))

    async def stop(self) -> None:
        """Stops every dealer and bot (the database already holds every accepted action)."""
        tasks = [t.driver for t in self.live.values() if t.driver is not None and not t.driver.done()]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _load(self, table_id: str) -> LiveTable | None:
        record = await asyncio.to_thread(self.store.load, table_id)
        if record is None:
            return None
        try:
            game = load(record.game, record.players, **record.options)
            if game.info.version != record.game_version:
                raise ValueError(f"stored with version {record.game_version}, this henge has {game.info.version}")
            table = LiveTable(record, game, self)
        except ValueError as error:
            # An illegal stored action's message would list a seat's options: name only the problem.
            reason = "a stored action is not legal" if isinstance(error, IllegalActionError) else str(error)
            log.warning("table %s cannot be resumed: %s", table_id, reason)
            if record.status != BROKEN:
                await asyncio.to_thread(self.store.set_status, table_id, BROKEN)
            return None
        self.live[table_id] = table
        if table.status == FINISHED:
            self._finished_order.append(table_id)
        return table

    async def open(self, table_id: str) -> LiveTable | None:
        """Returns a table, loading a finished one from the database if needed."""
        table = self.live.get(table_id)
        if table is None:
            table = await self._load(table_id)
        return table

    async def missing(self, table_id: str) -> TableError:
        """Returns the error for a table that cannot be opened: none by that id, or one set aside
        (stored by another version of the game's rules, or with an action this henge refuses)."""
        record = await asyncio.to_thread(self.store.load, table_id)
        if record is None or record.status != BROKEN:
            return TableError("no such table", code="no_table", status=404)
        return TableError(closed_reason(record), code="closed", status=410)

    def forget_if_idle(self, table: LiveTable) -> None:
        """Drops the oldest finished tables nobody watches (they are loaded again when asked for)."""
        if table.status == FINISHED and table.id not in self._finished_order:
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

    # -- creating -----------------------------------------------------------------------------

    async def create(
        self,
        game_id: str,
        players: int,
        options: dict[str, Any],
        seats: Sequence[SeatSpec],
        *,
        sit: int | None = None,
    ) -> Created:
        """Creates a table; ``sit`` is the person seat its creator takes at once."""
        if game_id not in list_games():
            raise TableError(f"unknown game {game_id!r}; games: {', '.join(list_games())}")
        try:
            game = load(game_id, players, **options)
        except ValueError as error:
            raise TableError(str(error)) from None
        if len(seats) != game.num_players:
            raise TableError(f"{game.num_players} players need {game.num_players} seats, not {len(seats)}")
        bots = agent_names()
        for number, spec in enumerate(seats):
            if spec.kind == BOT and spec.bot not in bots:
                raise TableError(f"seat {number}: unknown bot {spec.bot!r}; bots: {', '.join(bots)}")
            if spec.kind not in (PERSON, BOT):
                raise TableError(f"seat {number}: a seat is 'person' or 'bot', not {spec.kind!r}")
        if sit is not None and not (0 <= sit < len(seats) and seats[sit].kind == PERSON):
            raise TableError(f"seat {sit} is not a seat for a person")
        created = Created(table_id=secrets.token_hex(5))
        records = []
        for number, spec in enumerate(seats):
            if spec.kind == PERSON:
                token = created.tokens[number] = new_token()
                records.append(SeatRecord(number, PERSON, None, token_hash(token), number == sit))
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
        )
        table = await self._load(created.table_id)
        if table is None:  # pragma: no cover - a table just written always loads
            raise TableError("the table could not be created", status=500)
        table.kick()
        log.info("table %s created: %s for %d", created.table_id, game_id, game.num_players)
        return created

    async def take_seat(self, table_id: str, seat: int) -> str:
        """Gives an open person seat to whoever asks first: returns a new token for it."""
        table = await self.open(table_id)
        if table is None:
            raise TableError("no such table", code="no_table", status=404)
        async with table.lock:
            if not 0 <= seat < len(table.seats) or table.seats[seat].kind != PERSON:
                raise TableError(f"seat {seat} is not a seat for a person", status=409)
            if table.seats[seat].claimed:
                raise TableError(f"seat {seat} is already taken", code="taken", status=409)
            token = new_token()
            await table.claim(seat, token_hash=token_hash(token))
        await table.broadcast()
        return token


def games_info() -> list[dict[str, Any]]:
    """Returns each registered game's id, name, player counts and variants, for the lobby."""
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
                "summary": info.summary,
            }
        )
    return out
