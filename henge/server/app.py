"""The web application: pages, the JSON API and the live WebSocket of every table.

See ``docs/web.md`` for the message protocol and what is stored.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections import OrderedDict
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib import resources
from typing import Any

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel

from henge.agents import agent_names
from henge.engine import CHANCE, State, list_games, plugin
from henge.records import RECORD_FORMAT, RECORD_VERSION
from henge.server import pages
from henge.server.store import FINISHED, Store
from henge.server.tables import BOT, PERSON, Connection, LiveTable, SeatSpec, TableError, Tables, games_info

log = logging.getLogger("henge.server")

_REPLAYS_KEPT = 4
_HELLO_SECONDS = 30.0
_SEND_SECONDS = 10.0


class SeatIn(BaseModel):
    """A seat of a new table: ``person`` (open for a person) or ``bot`` with the bot's name."""

    kind: str
    bot: str | None = None


class TableIn(BaseModel):
    """A new table. Without ``seats``: the creator at seat 0 and bots (``bot``) everywhere else.

    ``sit`` is the person seat the creator takes at once (None: none); left out, the first one.
    """

    game: str
    players: int | None = None
    variant: str | None = None
    seats: list[SeatIn] | None = None
    bot: str | None = None
    sit: int | None = 0


class Replays:
    """The states of a few finished tables, for stepping through them."""

    def __init__(self) -> None:
        self._cache: OrderedDict[str, tuple[list[State], list[dict[str, Any]]]] = OrderedDict()

    def get(self, table: LiveTable) -> tuple[list[State], list[dict[str, Any]]]:
        """Returns every state of a finished table and each step's text and actor."""
        cached = self._cache.get(table.id)
        if cached is not None:
            self._cache.move_to_end(table.id)
            return cached
        state = table.game.new_initial_state()
        states = [state.clone()]
        steps = []
        for action in table.state.history():
            actor = state.current_player()
            steps.append({"text": state.action_to_string(action), "actor": None if actor == CHANCE else actor})
            state.apply_action(action)
            states.append(state.clone())
        self._cache[table.id] = (states, steps)
        while len(self._cache) > _REPLAYS_KEPT:
            self._cache.popitem(last=False)
        return states, steps


def _error(message: str, *, code: str = "refused", status: int = 400) -> JSONResponse:
    return JSONResponse({"error": message, "code": code}, status_code=status)


def create_app(db: str = "sqlite:///henge.db", *, bot_delay: float = 0.8) -> FastAPI:
    """Returns the app serving tables stored in ``db``; bots wait ``bot_delay`` seconds before moving."""
    store = Store(db)
    tables = Tables(store, bot_delay=bot_delay)
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

    @app.exception_handler(TableError)
    async def _table_error(_request: Request, error: TableError) -> JSONResponse:
        return _error(str(error), code=error.code, status=error.status)

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
            text = f"There is no table {table_id}." if error.code == "no_table" else f"Table {table_id}: {error}."
            return HTMLResponse(pages.not_found_page(text), status_code=error.status)
        return HTMLResponse(pages.table_page(table.public_info()))

    @app.get("/tables/{table_id}/replay", response_class=HTMLResponse)
    async def replay_page(table_id: str) -> HTMLResponse:
        table = await tables.open(table_id)
        if table is None:
            error = await tables.missing(table_id)
            text = f"There is no table {table_id}." if error.code == "no_table" else f"Table {table_id}: {error}."
            return HTMLResponse(pages.not_found_page(text), status_code=error.status)
        if table.status != FINISHED:
            return HTMLResponse(
                pages.not_found_page("This table is still being played; its replay opens when it is over."),
                status_code=403,
            )
        return HTMLResponse(pages.replay_page(table.public_info()))

    @app.get("/healthz")
    async def health() -> dict[str, str]:
        return {"status": "ok"}

    # -- the JSON API ----------------------------------------------------------------------

    @app.get("/api/games")
    async def games() -> dict[str, Any]:
        return {"games": games_info(), "bots": agent_names()}

    @app.get("/api/tables")
    async def list_tables() -> dict[str, Any]:
        return {"tables": await asyncio.to_thread(store.summaries)}

    @app.post("/api/tables", status_code=201)
    async def create_table(body: TableIn) -> dict[str, Any]:
        info = next((g for g in games_info() if g["id"] == body.game), None)
        if info is None:
            raise TableError(f"unknown game {body.game!r}; games: {', '.join(g['id'] for g in games_info())}")
        default = len(body.seats) if body.seats else max(info["min_players"], min(4, info["max_players"]))
        players = body.players or default
        if body.seats is None:
            bot = body.bot or agent_names()[0]
            seats = [SeatSpec(PERSON)] + [SeatSpec(BOT, bot) for _ in range(players - 1)]
        else:
            seats = [SeatSpec(s.kind, s.bot if s.kind == BOT else None) for s in body.seats]
        options = {} if body.variant is None or not info["has_variant"] else {"variant": body.variant}
        sit = body.sit
        if "sit" not in body.model_fields_set:
            sit = next((k for k, s in enumerate(seats) if s.kind == PERSON), None)
        created = await tables.create(body.game, players, options, seats, sit=sit)
        links = [
            {"seat": seat, "url": f"/tables/{created.table_id}#seat={seat}&token={token}"}
            for seat, token in sorted(created.tokens.items())
        ]
        return {"id": created.table_id, "url": f"/tables/{created.table_id}", "sit": sit, "links": links}

    @app.post("/api/tables/{table_id}/seats/{seat}/take")
    async def take_seat(table_id: str, seat: int) -> dict[str, Any]:
        token = await tables.take_seat(table_id, seat)
        return {"seat": seat, "url": f"/tables/{table_id}#seat={seat}&token={token}"}

    @app.get("/api/tables/{table_id}")
    async def table_info(table_id: str) -> dict[str, Any]:
        table = await tables.open(table_id)
        if table is None:
            raise await tables.missing(table_id)
        return table.public_info()

    @app.get("/api/tables/{table_id}/replay")
    async def replay_steps(table_id: str) -> dict[str, Any]:
        table = await _finished(table_id)
        _states, steps = replays.get(table)
        return {"table": table.public_info(), "steps": steps}

    @app.get("/api/tables/{table_id}/replay/{step}")
    async def replay_step(table_id: str, step: int) -> dict[str, Any]:
        table = await _finished(table_id)
        states, steps = replays.get(table)
        if not 0 <= step < len(states):
            raise TableError(f"steps run 0 to {len(states) - 1}", status=404)
        state = states[step]
        player = state.current_player()
        return {
            "step": step,
            "steps": len(states) - 1,
            "done": steps[step - 1] if step else None,
            "spectator": state.observation(None),
            "seats": [state.observation(seat) for seat in range(table.game.num_players)],
            "to_move": player if player >= 0 else None,
            "over": state.is_terminal(),
            "returns": state.returns() if state.is_terminal() else None,
        }

    @app.get("/api/tables/{table_id}/record")
    async def record(table_id: str) -> dict[str, Any]:
        """The game record of a finished table, for ``henge replay`` (its seed stays secret)."""
        table = await _finished(table_id)
        _states, steps = replays.get(table)
        game = table.game
        return {
            "format": RECORD_FORMAT,
            "format_version": RECORD_VERSION,
            "game": game.info.id,
            "version": game.info.version,
            "players": game.num_players,
            "options": dict(game.options),
            "seed": None,
            "agents": [s.bot if s.kind == BOT else "person" for s in table.seats],
            "actions": table.state.history(),
            "texts": [s["text"] for s in steps],
            "returns": table.state.returns(),
        }

    # -- the live table ----------------------------------------------------------------------

    @app.websocket("/ws/tables/{table_id}")
    async def live(websocket: WebSocket, table_id: str) -> None:
        await websocket.accept()
        send_lock = asyncio.Lock()

        async def send(message: dict[str, Any]) -> None:
            async with send_lock:
                await asyncio.wait_for(websocket.send_text(json.dumps(message)), _SEND_SECONDS)

        table = await tables.open(table_id)
        if table is None:
            error = await tables.missing(table_id)
            message = f"there is no table {table_id}" if error.code == "no_table" else str(error)
            await send({"type": "error", "code": error.code, "message": message})
            await websocket.close(code=4404 if error.code == "no_table" else 4410)
            return
        connection: Connection | None = None
        try:
            hello = await asyncio.wait_for(_receive(websocket), _HELLO_SECONDS)
            if not isinstance(hello, dict) or hello.get("type") != "hello":
                await send({"type": "error", "code": "no_hello", "message": "the first message is a hello"})
                await websocket.close(code=4400)
                return
            try:
                connection = await table.join(send, hello.get("seat"), hello.get("token"))
            except TableError as error:
                await send({"type": "error", "code": error.code, "message": f"{error}; you are watching"})
                connection = await table.join(send)
            while True:
                message = await _receive(websocket)
                await _handle(table, connection, message, send)
        except (WebSocketDisconnect, TimeoutError):
            pass
        except Exception as error:  # never let a message or traceback quote the state
            log.error("table %s: a connection failed (%s)", table_id, type(error).__name__)
        finally:
            if connection is not None:
                await table.leave(connection)

    return app


async def _receive(websocket: WebSocket) -> Any:
    """Returns the next message as parsed JSON (None if it is not JSON); raises on disconnect."""
    message = await websocket.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    text = message.get("text")
    if text is None and message.get("bytes") is not None:
        text = message["bytes"].decode("utf-8", "replace")
    try:
        return json.loads(text or "")
    except json.JSONDecodeError:
        return None


async def _handle(table: LiveTable, connection: Connection, message: Any, send: Any) -> None:
    """Answers one client message: an action, a ping, or an error saying what is understood."""
    if not isinstance(message, dict):
        await send({"type": "error", "code": "bad_message", "message": "messages are JSON objects with a type"})
        return
    kind = message.get("type")
    ref = message.get("ref")
    if kind == "act":
        try:
            text = await table.act(connection, message.get("action"))
        except TableError as error:
            await send({"type": "error", "code": error.code, "message": str(error), "ref": ref})
            return
        await send({"type": "ack", "ref": ref, "action": text})
    elif kind == "ping":
        await send({"type": "pong", "ref": ref})
    elif kind == "hello":
        await send({"type": "error", "code": "bad_message", "message": "already connected; reconnect to change seat"})
    else:
        await send({"type": "error", "code": "bad_message", "message": "message types are hello, act and ping"})
