"""Play in the browser: the lobby, live tables over WebSockets, bots, replays, on a database.

``henge serve`` runs :func:`serve`; :func:`henge.server.app.create_app` builds
the application. The server sits on top of the public State API only.
"""

from __future__ import annotations

import socket
import sys

from henge.server.limits import Limits
from henge.server.store import safe_url

DEFAULT_DB = "sqlite:///henge.db"


def _socket(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # IPPROTO_TCP named, not left 0: asyncio turns Nagle's algorithm off (TCP_NODELAY) only on sockets
    # that say they are TCP, and with it on, a view followed by its acknowledgement waits ~40 ms for
    # the client's delayed ACK.
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


def address(host: str, port: int) -> str:
    """Returns the URL of the lobby at a host and port."""
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/"


def serve(
    *,
    host: str = "127.0.0.1",
    port: int = 8000,
    db: str = DEFAULT_DB,
    bot_delay: float = 0.8,
    quiet: bool = False,
    limits: Limits | None = None,
    turn_limit: float = 120.0,
    abandon_after: float = 86400.0,
    bot_workers: int | None = None,
    bot_seconds: float = 10.0,
) -> None:
    """Serves the web app until interrupted; prints the address first (``port`` 0: any free port).

    ``limits``: what one client may send and how fast (default: :class:`Limits`'s); uvicorn closes a
    WebSocket whose message is larger than ``limits.message_bytes`` before the app reads it.
    ``turn_limit`` and ``abandon_after``: the timers of :func:`henge.server.app.create_app`;
    ``bot_workers`` and ``bot_seconds``: the processes bots think in and the processor time of one
    decision (the same function's).
    """
    limits = limits or Limits()
    import uvicorn

    from henge.server.app import create_app

    sock = _socket(host, port)
    try:
        app = create_app(
            db,
            bot_delay=bot_delay,
            limits=limits,
            turn_limit=turn_limit,
            abandon_after=abandon_after,
            bot_workers=bot_workers,
            bot_seconds=bot_seconds,
        )
    except BaseException:
        sock.close()
        raise
    url = address(host, sock.getsockname()[1])
    print(f"henge is serving at {url} (database: {safe_url(db)}); Ctrl-C stops it", flush=True)
    sys.stdout.flush()
    config = uvicorn.Config(
        app, log_level="warning" if quiet else "info", lifespan="on", ws_max_size=limits.message_bytes
    )
    uvicorn.Server(config).run(sockets=[sock])


__all__ = ["DEFAULT_DB", "Limits", "address", "serve"]
