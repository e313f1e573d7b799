"""The web application: pages, the JSON API and the live WebSocket of every table.

See ``docs/web.md`` for the message protocol and what is stored.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import threading
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from importlib import resources
from typing import Any

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from markdown_it import MarkdownIt
from pydantic import BaseModel, Field, StrictBool, StrictInt, StrictStr
from starlette.exceptions import HTTPException as StarletteHTTPException

from henge.agents import agent_names, first_opponent
from henge.core import CHANCE, GameRecord, State, list_games, plugin
from henge.server import pages
from henge.server.bots import BOT_SECONDS
from henge.server.limits import (
    EXCERPT,
    Guard,
    Limiters,
    Limits,
    Refused,
    client_key,
    client_of,
    cut,
    excerpt,
    parse_json,
)
from henge.server.store import FINISHED, Store
from henge.server.tables import (
    ABANDON_AFTER,
    BOT,
    PERSON,
    TURN_LIMIT,
    Connection,
    LiveTable,
    SeatSpec,
    Send,
    TableError,
    Tables,
    games_info,
    levels_info,
)

log = logging.getLogger("henge.server")

_REPLAYS_KEPT = 4
_CHECKPOINT = 64
"""A replay keeps the state after every this many steps."""
_HELLO_SECONDS = 30.0
_SEND_SECONDS = 10.0


_NAME = 64
"""Characters of a game id, variant, seat kind or bot name at most (checked before they are looked up)."""
_SEATS = 32
"""Seats listed in a request at most, before the game's own player count is known."""


class SeatIn(BaseModel):
    """A seat of a new table: ``person`` (open for a person) or ``bot`` with the bot's name."""

    kind: str = Field(max_length=_NAME)
    bot: str | None = Field(default=None, max_length=_NAME)
    lobby: StrictBool = False
    """Open to the lobby: anybody may take it. Left out, the seat is private to its join link."""


class TableIn(BaseModel):
    """A new table. Without ``seats``: the creator at seat 0 and bots (``bot``) everywhere else.

    ``sit`` is the person seat the creator takes at once (None: none); left out, the first one.
    """

    game: str = Field(max_length=_NAME)
    players: StrictInt | None = None
    variant: str | None = Field(default=None, max_length=_NAME)
    options: dict[str, StrictStr | StrictInt] | None = Field(default=None, max_length=_SEATS)
    """The game's other options by name (a designer's knobs, e.g. ``{"track": 20}``), checked
    against its ``GameInfo``; ``variant`` may be given here or on its own."""
    seats: list[SeatIn] | None = Field(default=None, max_length=_SEATS)
    bot: str | None = Field(default=None, max_length=_NAME)
    sit: StrictInt | None = 0
    turn_limit: float | None = Field(default=None, strict=True, allow_inf_nan=False)
    """Seconds per turn of a person (0: none); left out, the server's at a lobby table, else none."""
    on_leave: str | None = Field(default=None, max_length=_NAME)
    """What becomes of a seat its person leaves: ``bot`` (the default) or ``open`` (to the lobby)."""


class LobbyIn(BaseModel):
    """The creator opens a seat to the lobby (``open``: true) or keeps it for its link (false)."""

    open: StrictBool


_TOKEN_CHARS = 256
"""An ``Authorization`` token longer than this is not looked at."""


def _bearer(request: Request) -> str | None:
    """Returns the token of an ``Authorization: Bearer <token>`` header (None: none, or too long)."""
    header = request.headers.get("authorization", "")
    if len(header) > _TOKEN_CHARS + 16:
        return None
    scheme, _, token = header.partition(" ")
    token = token.strip()
    return token if scheme.lower() == "bearer" and token else None


def _join_url(table_id: str, seat: int, token: str) -> str:
    return f"/tables/{table_id}#seat={seat}&token={token}"


def render_markdown(text: str) -> str:
    """Returns Markdown as an HTML fragment (CommonMark and tables). Raw HTML in the text is not
    passed through: it shows as the text it is."""
    return str(MarkdownIt("commonmark", {"html": False}).enable("table").render(text))


@functools.lru_cache(maxsize=64)
def rules_html(game_id: str) -> str | None:
    """Returns a game's rules page rendered to HTML (None: the game has none), made once per game."""
    text = plugin(game_id).rules_text()
    return None if text is None else render_markdown(text)


class Replay:
    """A finished game for stepping through: each step's text and actor, and every
    ``_CHECKPOINT``-th state (a state in between is made again from the one before it)."""

    def __init__(self, table: LiveTable) -> None:
        self.actions = table.state.history()
        self.steps: list[dict[str, Any]] = []
        self._checkpoints: list[State] = []
        state = table.game.new_initial_state()
        for number, action in enumerate(self.actions):
            if number % _CHECKPOINT == 0:
                self._checkpoints.append(state.clone())
            actor = state.current_player()
            self.steps.append({"text": state.action_to_string(action), "actor": None if actor == CHANCE else actor})
            state.apply_action(action)
        if len(self.actions) % _CHECKPOINT == 0:
            self._checkpoints.append(state)

    def state(self, step: int) -> State:
        """Returns the state after ``step`` steps (0 to ``len(self.steps)``), a fresh copy."""
        first = step - step % _CHECKPOINT
        state = self._checkpoints[step // _CHECKPOINT].clone()
        for action in self.actions[first:step]:
            state.apply_action(action)
        return state


class Replays:
    """The replays of a few finished tables.

    :meth:`get` replays a whole game: the routes call it in a worker thread, so the cache has a lock.
    Only every ``_CHECKPOINT``-th state is kept: every state of a long game would take hundreds of MB.
    """

    def __init__(self) -> None:
        self._cache: OrderedDict[str, Replay] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, table: LiveTable) -> Replay:
        """Returns the replay of a finished table."""
        with self._lock:
            cached = self._cache.get(table.id)
            if cached is not None:
                self._cache.move_to_end(table.id)
                return cached
        replay = Replay(table)
        with self._lock:
            self._cache[table.id] = replay
            while len(self._cache) > _REPLAYS_KEPT:
                self._cache.popitem(last=False)
        return replay


def _error(
    message: str, *, code: str = "refused", status: int = 400, headers: dict[str, str] | None = None
) -> JSONResponse:
    return JSONResponse({"error": message, "code": code}, status_code=status, headers=headers)


async def _json_off_loop(data: Any) -> Response:
    """Returns ``data`` as a JSON response, encoded in a worker thread (a long game's steps take a while)."""
    body = await asyncio.to_thread(json.dumps, data, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    return Response(body, media_type="application/json")


def _invalid(errors: Any) -> str:
    """Returns what was wrong with a request's fields in a few words, quoting none of its values."""
    parts = []
    for item in list(errors)[:3]:
        where = ".".join(cut(str(part), 30) for part in item.get("loc", ()) if part != "body")
        what = "the body is not valid JSON" if item.get("type") == "json_invalid" else str(item.get("msg", "invalid"))
        parts.append(f"{where}: {cut(what, 120)}" if where else cut(what, 120))
    return "; ".join(parts) or "the request is not valid"


def create_app(
    db: str = "sqlite:///henge.db",
    *,
    bot_delay: float = 0.8,
    limits: Limits | None = None,
    turn_limit: float = TURN_LIMIT,
    abandon_after: float = ABANDON_AFTER,
    bot_workers: int | None = None,
    bot_seconds: float = BOT_SECONDS,
) -> FastAPI:
    """Returns the app serving tables stored in ``db``; bots pause ``bot_delay`` seconds before each turn.

    ``turn_limit``: the seconds a person has for a turn at a lobby table (a table with a seat open to
    the lobby), after which a stand-in bot plays their seat until they are back. ``abandon_after``:
    the seconds without a seated person and without an action after which a table is abandoned.
    ``bot_workers`` and ``bot_seconds``: how many processes bots think in (None: a core fewer than
    the machine has; 0: a thread of this process, for tests that look inside a bot) and the processor
    time one decision may take (:class:`henge.server.bots.BotPool`).

    ``limits`` are the sizes and rates one client may use (default: :class:`Limits`'s). No schema is
    served; ``app.openapi()`` builds it (the property tests fuzz the API from it).
    """
    limits = limits or Limits()
    limiters = Limiters.of(limits)
    store = Store(db)
    tables = Tables(
        store,
        bot_delay=bot_delay,
        turn_limit=turn_limit,
        abandon_after=abandon_after,
        bot_workers=bot_workers,
        bot_seconds=bot_seconds,
    )
    replays = Replays()

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await tables.resume()
        try:
            yield
        finally:
            await tables.stop()
            store.close()

    app = FastAPI(title="henge", lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None)
    app.state.tables = tables
    app.state.store = store
    app.state.limits = limits
    app.add_middleware(Guard, limiters=limiters)
    static = resources.files("henge.server").joinpath("static")
    app.mount("/static", StaticFiles(directory=str(static)), name="static")

    @app.get("/games/{game_id}/board.js")
    async def game_drawing(game_id: str) -> Response:
        if game_id not in list_games():
            return _error("no such game", code="no_game", status=404)
        script = plugin(game_id).board_script()
        if script is None:
            return _error("this game draws with the generic drawing", code="no_drawing", status=404)
        return Response(script, media_type="text/javascript")

    @app.get("/games/{game_id}/rules")
    async def game_rules(game_id: str) -> Response:
        if game_id not in list_games():
            return _error("no such game", code="no_game", status=404)
        page = await asyncio.to_thread(rules_html, game_id)
        if page is None:
            return _error("this game has no rules page", code="no_rules", status=404)
        return HTMLResponse(page)

    @app.exception_handler(TableError)
    async def _table_error(_request: Request, error: TableError) -> JSONResponse:
        return _error(str(error), code=error.code, status=error.status)

    # Every other refusal in the same shape: FastAPI's and Starlette's own, and any failure.

    @app.exception_handler(RequestValidationError)
    async def _validation_error(_request: Request, error: RequestValidationError) -> JSONResponse:
        return _error(_invalid(error.errors()), code="bad_request")

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(_request: Request, error: StarletteHTTPException) -> JSONResponse:
        headers = dict(error.headers or {})
        if error.status_code == 404:
            return _error("nothing is at this address", code="not_found", status=404, headers=headers)
        if error.status_code == 405:
            allowed = headers.get("Allow") or headers.get("allow") or "another method"
            return _error(f"this address takes {allowed}", code="bad_method", status=405, headers=headers)
        detail = error.detail if isinstance(error.detail, str) else "the request was refused"
        return _error(cut(detail, 120), code="refused", status=error.status_code, headers=headers)

    @app.exception_handler(Exception)
    async def _failure(_request: Request, error: Exception) -> JSONResponse:
        log.error("a request failed (%s)", type(error).__name__)  # no message: it could quote a secret
        return _error("the server failed to answer this request", code="internal", status=500)

    async def _finished(table_id: str) -> LiveTable:
        table = await tables.open(table_id)
        if table is None:
            raise await tables.missing(table_id)
        if table.status != FINISHED:
            raise TableError("the table is still being played; its replay opens when it is over", status=403)
        return table

    # -- pages -----------------------------------------------------------------------------

    @app.get("/", response_class=HTMLResponse)
    async def lobby() -> str:
        summaries = await asyncio.to_thread(store.summaries)
        return pages.lobby_page(summaries)

    @app.get("/tables/{table_id}", response_class=HTMLResponse)
    async def table_page(table_id: str) -> HTMLResponse:
        table = await tables.open(table_id)
        if table is None:
            error = await tables.missing(table_id)
            shown = cut(table_id)
            text = f"There is no table {shown}." if error.code == "no_table" else f"Table {shown}: {error}."
            return HTMLResponse(pages.not_found_page(text), status_code=error.status)
        return HTMLResponse(pages.table_page(table.public_info()))

    @app.get("/tables/{table_id}/replay", response_class=HTMLResponse)
    async def replay_page(table_id: str) -> HTMLResponse:
        table = await tables.open(table_id)
        if table is None:
            error = await tables.missing(table_id)
            shown = cut(table_id)
            text = f"There is no table {shown}." if error.code == "no_table" else f"Table {shown}: {error}."
            return HTMLResponse(pages.not_found_page(text), status_code=error.status)
        if table.status != FINISHED:
            return HTMLResponse(
                pages.not_found_page("This table is still being played; its replay opens when it is over."),
                status_code=403,
            )
        return HTMLResponse(pages.replay_page(table.public_info()))

    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> RedirectResponse:
        return RedirectResponse("/static/favicon.svg", status_code=308)

    @app.get("/healthz")
    async def health() -> dict[str, str]:
        return {"status": "ok"}

    # -- the JSON API ----------------------------------------------------------------------

    @app.get("/api/games")
    async def games() -> dict[str, Any]:
        return {"games": games_info(), "levels": levels_info(), "bots": agent_names()}

    @app.get("/api/tables")
    async def list_tables() -> dict[str, Any]:
        return {"tables": await asyncio.to_thread(store.summaries)}

    @app.post("/api/tables", status_code=201)
    async def create_table(body: TableIn) -> dict[str, Any]:
        info = next((g for g in games_info() if g["id"] == body.game), None)
        if info is None:
            raise TableError(f"unknown game {excerpt(body.game)}; games: {', '.join(g['id'] for g in games_info())}")
        # Every count is checked against the game's before anything is built from it.
        low, high = info["min_players"], info["max_players"]
        if body.players is not None and not low <= body.players <= high:
            raise TableError(f"{body.game} is for {low}-{high} players, not {excerpt(body.players)}")
        if body.seats is not None:
            if body.players is not None and len(body.seats) != body.players:
                raise TableError(f"{body.players} players need {body.players} seats, not {len(body.seats)}")
            if not low <= len(body.seats) <= high:
                count = len(body.seats)
                raise TableError(f"{body.game} is for {low}-{high} players: list {low} to {high} seats, not {count}")
        default = len(body.seats) if body.seats is not None else max(low, min(4, high))
        players = default if body.players is None else body.players
        if body.seats is None:
            bot = body.bot or first_opponent(body.game)
            seats = [SeatSpec(PERSON)] + [SeatSpec(BOT, bot) for _ in range(players - 1)]
        else:
            seats = [SeatSpec(s.kind, s.bot if s.kind == BOT else None, s.lobby) for s in body.seats]
        options: dict[str, Any] = dict(body.options or {})
        if body.variant is not None and info["has_variant"]:
            given = options.setdefault("variant", body.variant)
            if given != body.variant:
                raise TableError(f"variant {excerpt(body.variant)} and option variant {excerpt(given)} differ")
        sit = body.sit
        if "sit" not in body.model_fields_set:
            sit = next((k for k, s in enumerate(seats) if s.kind == PERSON), None)
        created = await tables.create(
            body.game, players, options, seats, sit=sit, turn_limit=body.turn_limit, on_leave=body.on_leave
        )
        table_id = created.table_id
        links = [
            {"seat": seat, "url": _join_url(table_id, seat, token)} for seat, token in sorted(created.tokens.items())
        ]
        return {
            "id": table_id,
            "url": f"/tables/{table_id}",
            "sit": sit,
            "links": links,
            "creator_token": created.creator_token,
            "creator_url": f"/tables/{table_id}#creator={created.creator_token}",
        }

    @app.post("/api/tables/{table_id}/seats/{seat}/take")
    async def take_seat(table_id: str, seat: int) -> dict[str, Any]:
        token = await tables.take_seat(table_id, seat)
        return {"seat": seat, "url": _join_url(table_id, seat, token)}

    # -- the creator's and a seat's own changes (tokens in 'Authorization: Bearer <token>') --------

    @app.post("/api/tables/{table_id}/seats/{seat}/link")
    async def new_link(table_id: str, seat: int, request: Request) -> dict[str, Any]:
        table = await tables.creators(table_id, _bearer(request))
        token = await table.new_link(seat)
        return {"seat": seat, "url": _join_url(table_id, seat, token)}

    @app.post("/api/tables/{table_id}/seats/{seat}/lobby")
    async def seat_lobby(table_id: str, seat: int, body: LobbyIn, request: Request) -> dict[str, Any]:
        table = await tables.creators(table_id, _bearer(request))
        await table.set_lobby(seat, body.open)
        return {"seat": seat, "lobby": body.open, "turn_limit": table.turn_limit}

    @app.delete("/api/tables/{table_id}")
    async def delete_table(table_id: str, request: Request) -> dict[str, Any]:
        if await tables.delete_closed(table_id, _bearer(request)):
            return {"deleted": table_id}
        table = await tables.creators(table_id, _bearer(request))
        await tables.delete(table)
        return {"deleted": table_id}

    @app.post("/api/tables/{table_id}/seats/{seat}/leave")
    async def leave_seat(table_id: str, seat: int, request: Request) -> dict[str, Any]:
        table = await tables.open(table_id)
        if table is None:
            raise await tables.missing(table_id)
        now = await table.give_up(seat, _bearer(request))
        return {"seat": seat, "now": now, "bot": table.seats[seat].bot}

    @app.post("/api/tables/{table_id}/rematch")
    async def rematch(table_id: str, request: Request) -> dict[str, Any]:
        new_id = await tables.rematch(table_id, _bearer(request))
        return {"id": new_id, "url": f"/tables/{new_id}"}

    @app.get("/api/tables/{table_id}")
    async def table_info(table_id: str) -> dict[str, Any]:
        table = await tables.open(table_id)
        if table is None:
            raise await tables.missing(table_id)
        return table.public_info()

    @app.get("/api/tables/{table_id}/replay")
    async def replay_steps(table_id: str) -> Response:
        table = await _finished(table_id)
        replay = await asyncio.to_thread(replays.get, table)
        return await _json_off_loop({"table": table.public_info(), "steps": replay.steps})

    @app.get("/api/tables/{table_id}/replay/{step}")
    async def replay_step(table_id: str, step: int) -> dict[str, Any]:
        table = await _finished(table_id)
        replay = await asyncio.to_thread(replays.get, table)
        steps = replay.steps
        if not 0 <= step <= len(steps):
            raise TableError(f"steps run 0 to {len(steps)}", status=404)
        state = await asyncio.to_thread(replay.state, step)
        player = state.current_player()
        return {
            "step": step,
            "steps": len(steps),
            "done": steps[step - 1] if step else None,
            "spectator": state.observation(None),
            "seats": [state.observation(seat) for seat in range(table.game.num_players)],
            "to_move": player if player >= 0 else None,
            "over": state.is_terminal(),
            "returns": state.returns() if state.is_terminal() else None,
        }

    @app.get("/api/tables/{table_id}/record")
    async def record(table_id: str) -> Response:
        """The game record of a finished table, for ``henge replay`` (its seed stays secret)."""
        table = await _finished(table_id)
        steps = (await asyncio.to_thread(replays.get, table)).steps
        agents: list[Any] = [s.bot if s.kind == BOT else "person" for s in table.seats]
        texts = [s["text"] for s in steps]
        data = GameRecord.of(table.game, table.state, seed=None, agents=agents, texts=texts).as_json()
        return await _json_off_loop(data)

    # -- the live table ----------------------------------------------------------------------

    @app.websocket("/ws/tables/{table_id}")
    async def live(websocket: WebSocket, table_id: str) -> None:
        await websocket.accept()
        send_lock = asyncio.Lock()

        async def send(message: dict[str, Any]) -> None:
            async with send_lock:
                await asyncio.wait_for(websocket.send_text(json.dumps(message)), _SEND_SECONDS)

        async def close(code: int) -> None:
            await websocket.close(code=code)

        address, cookie = client_of(websocket.scope)
        key = client_key(address, cookie)

        async def refused(refusal: Refused, ref: Any = None) -> bool:
            """Sends a refusal; returns True if the connection must close (a message too big)."""
            code = "bad_message" if refusal.code == "bad_json" else refusal.code
            await send({"type": "error", "code": code, "message": str(refusal), "ref": ref})
            if refusal.code == "too_big":
                await websocket.close(code=1009)
                return True
            return False

        # Opening a connection counts as an action: it may load a finished table from the database.
        wait = limiters.actions.take(key, address)
        if wait:
            await send({"type": "error", "code": "rate_limited", "message": str(limiters.actions_refusal(wait))})
            await websocket.close(code=1008)
            return
        table = await tables.open(table_id)
        if table is None:
            error = await tables.missing(table_id)
            message = f"there is no table {cut(table_id)}" if error.code == "no_table" else str(error)
            await send({"type": "error", "code": error.code, "message": message})
            await websocket.close(code=4404 if error.code == "no_table" else 4410)
            return
        connection: Connection | None = None
        try:
            hello = await asyncio.wait_for(_receive(websocket, limits), _HELLO_SECONDS)
            if isinstance(hello, Refused):
                if not await refused(hello):
                    await websocket.close(code=4400)
                return
            if not isinstance(hello, dict) or hello.get("type") != "hello":
                await send({"type": "error", "code": "no_hello", "message": "the first message is a hello"})
                await websocket.close(code=4400)
                return
            try:
                connection = await table.join(send, hello.get("seat"), hello.get("token"), close=close)
            except TableError as error:
                await send({"type": "error", "code": error.code, "message": f"{error}; you are watching"})
                connection = await table.join(send, close=close)
            while True:
                message = await _receive(websocket, limits)
                wait = limiters.actions.take(key, address)  # every message counts, refused ones too
                if isinstance(message, Refused):
                    if await refused(message):
                        return
                    continue
                ref = message.get("ref") if isinstance(message, dict) else None
                if not _ref_ok(ref):
                    await send({"type": "error", "code": "bad_message", "message": _REF_RULE, "ref": None})
                    continue
                if wait:
                    await refused(limiters.actions_refusal(wait), ref)
                    continue
                await _handle(table, connection, message, send)
        except (WebSocketDisconnect, TimeoutError):
            pass
        except Exception as error:  # never let a message or traceback quote the state
            log.error("table %s: a connection failed (%s)", table_id, type(error).__name__)
            with contextlib.suppress(Exception):  # the client hears of it, rather than waiting on a dead socket
                await websocket.close(code=1011)
        finally:
            if connection is not None:
                await table.leave(connection)

    return app


_REF_RULE = f"a ref is null, a number or a text of at most {EXCERPT} characters"


def _ref_ok(ref: Any) -> bool:
    """Returns True if a message's ``ref`` may be echoed back: null, a short number or a short text."""
    if ref is None or isinstance(ref, bool):
        return True
    if isinstance(ref, int):
        return abs(ref) < 2**53
    if isinstance(ref, float | str):
        return len(str(ref)) <= EXCERPT
    return False


async def _receive(websocket: WebSocket, limits: Limits) -> Any:
    """Returns the next message as parsed JSON, or the :class:`Refused` saying why it is not read
    (too big, nested too deep, not JSON); raises on disconnect."""
    message = await websocket.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    text = message.get("text")
    data = message.get("bytes")
    size = len(data) if text is None and data is not None else len(text or "")
    if text is not None and size <= limits.message_bytes:
        size = len(text.encode("utf-8", "replace"))  # characters first: the count in bytes is never smaller
    if size > limits.message_bytes:
        return Refused(f"a message is {limits.message_bytes} bytes at most", code="too_big")
    if text is None and data is not None:
        text = data.decode("utf-8", "replace")
    try:
        return parse_json(text or "", depth=limits.json_depth)
    except Refused as refusal:
        return refusal


Handler = Callable[[LiveTable, Connection, dict[str, Any], Send], Awaitable[None]]
"""Answers one client message of a type (the message is a JSON object)."""


async def _act(table: LiveTable, connection: Connection, message: dict[str, Any], send: Send) -> None:
    """An action for the connection's seat: acknowledged once stored, applied and sent out."""
    ref, seq = message.get("ref"), message.get("seq")
    try:
        text, again = await table.act(connection, message.get("action"), seq)
    except TableError as error:
        await send({"type": "error", "code": error.code, "message": str(error), "ref": ref})
        return
    ack: dict[str, Any] = {"type": "ack", "ref": ref, "action": text}
    if seq is not None:
        ack["seq"] = seq
    if again:
        ack["again"] = True
    await send(ack)


async def _name(table: LiveTable, connection: Connection, message: dict[str, Any], send: Send) -> None:
    """The display name of the connection's seat: acknowledged once stored and shown to everybody."""
    ref = message.get("ref")
    try:
        name = await table.set_name(connection, message.get("name"))
    except TableError as error:
        await send({"type": "error", "code": error.code, "message": str(error), "ref": ref})
        return
    await send({"type": "ack", "ref": ref, "name": name})


async def _undo(table: LiveTable, connection: Connection, message: dict[str, Any], send: Send) -> None:
    """Takes back the seat's last step of its turn in progress: acknowledged once it is gone from the
    database, after the seat's fresh view."""
    ref, seq = message.get("ref"), message.get("seq")
    try:
        text, now = await table.undo(connection, seq)
    except TableError as error:
        await send({"type": "error", "code": error.code, "message": str(error), "ref": ref})
        return
    await send({"type": "ack", "ref": ref, "undone": text, "seq": now})


async def _pace(table: LiveTable, connection: Connection, message: dict[str, Any], send: Send) -> None:
    """A seated person asks to skip the bots' pause before their turns, or not."""
    ref = message.get("ref")
    try:
        pace = await table.set_pace(connection, message.get("skip"))
    except TableError as error:
        await send({"type": "error", "code": error.code, "message": str(error), "ref": ref})
        return
    await send({"type": "ack", "ref": ref, "pace": pace})


async def _ping(_table: LiveTable, _connection: Connection, message: dict[str, Any], send: Send) -> None:
    await send({"type": "pong", "ref": message.get("ref")})


async def _hello_again(_table: LiveTable, _connection: Connection, _message: dict[str, Any], send: Send) -> None:
    await send({"type": "error", "code": "bad_message", "message": "already connected; reconnect to change seat"})


HANDLERS: dict[str, Handler] = {
    "act": _act,
    "name": _name,
    "undo": _undo,
    "pace": _pace,
    "ping": _ping,
    "hello": _hello_again,
}
"""What answers each type of message a client sends once connected."""


async def _handle(table: LiveTable, connection: Connection, message: Any, send: Send) -> None:
    """Answers one client message by its type, or an error saying which types are understood."""
    if not isinstance(message, dict):
        await send({"type": "error", "code": "bad_message", "message": "messages are JSON objects with a type"})
        return
    kind = message.get("type")
    handler = HANDLERS.get(kind) if isinstance(kind, str) else None
    if handler is None:
        types = ", ".join(sorted(HANDLERS))
        await send({"type": "error", "code": "bad_message", "message": f"message types are {types}"})
        return
    await handler(table, connection, message, send)
