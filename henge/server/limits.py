"""What one client may ask of the server: sizes checked before anything is read, and rates.

Everything here runs before a request reaches a route, or on every WebSocket
message before it is parsed:

* :class:`Limits` holds every limit (``create_app(limits=...)``, ``henge serve``
  options); ``docs/web.md`` lists them with their defaults and errors.
* :class:`Guard` is an ASGI middleware: it gives each browser a random
  cookie, refuses writes past the client's rate (429), reads a request body
  only up to its limit whatever ``Content-Length`` says (413), and refuses
  JSON nested too deep or not JSON at all (400), all in the documented shape
  ``{"error": message, "code": code}``.
* :func:`parse_json` is the one way client JSON is read: a depth scan first,
  so that no message can make the parser recurse out of the stack.
* :class:`RateLimiter` is a token bucket per client and per address, in
  memory, for both HTTP routes and WebSocket messages (slowapi covers only
  HTTP routes), with a bounded number of buckets.
* :func:`excerpt` cuts client input quoted in an error to a short excerpt.
"""

from __future__ import annotations

import json
import math
import re
import secrets
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass, fields
from typing import Any

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

COOKIE = "henge_client"
"""The cookie that tells one browser from another at the same address (random, httponly)."""
_COOKIE_VALUE = re.compile(r"[A-Za-z0-9_-]{16,64}")
_COOKIE_SECONDS = 365 * 24 * 3600
EXCERPT = 60
"""Characters of client input an error message quotes at most."""
_SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
_UNCOUNTED_READS = ("/static/", "/games/")
"""Files every page loads (scripts, styles, each game's drawing): cheap, and cached by browsers."""
_JSON_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"?|[\[\]{}]', re.DOTALL)


@dataclass(frozen=True)
class Limits:
    """Every limit the server puts on one client; the defaults suit people playing in browsers.

    A *client* is its address and its browser's cookie; one address as a whole
    may use ``address_share`` clients' worth of each rate.
    """

    body_bytes: int = 64 * 1024
    """An HTTP request body at most (413 past it)."""
    message_bytes: int = 16 * 1024
    """A WebSocket message at most (uvicorn's ``ws_max_size``, and checked again on every message)."""
    json_depth: int = 32
    """Nesting of JSON arrays and objects in a body or message at most."""
    tables_per_minute: float = 30.0
    """New tables a client may create per minute, on average."""
    table_burst: int = 10
    """New tables a client may create at once (the bucket's size)."""
    actions_per_second: float = 20.0
    """WebSocket messages (actions, pings, connections) and other writes (taking a seat) per second."""
    action_burst: int = 60
    """Of those, how many at once."""
    reads_per_second: float = 50.0
    """Pages and API reads (GET) per second; the health check, static files and drawings are not counted."""
    read_burst: int = 200
    """Of those, how many at once."""
    address_share: int = 4
    """An address as a whole gets this many clients' worth of each rate (cookies are easy to change)."""
    clients_tracked: int = 10_000
    """Rate buckets kept in memory; the least recently used are dropped first."""

    def __post_init__(self) -> None:
        for item in fields(self):
            value = getattr(self, item.name)
            if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value) or value <= 0:
                raise ValueError(f"limit {item.name} must be a positive number, not {value!r}")


def cut(text: str, limit: int = EXCERPT) -> str:
    """Returns ``text`` cut to ``limit`` characters, the last of them "…" if anything was cut."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def excerpt(value: Any, limit: int = EXCERPT) -> str:
    """Returns client input fit to quote in an error: a text quoted, anything cut to ``limit`` characters."""
    if isinstance(value, str):
        return repr(cut(value, limit))
    try:
        return cut(str(value), limit)
    except ValueError:  # an integer past Python's digit limit for str()
        return "a number too long to show"


# -- JSON ---------------------------------------------------------------------------------------


class Refused(Exception):
    """Client input refused before it was used: the message says what is allowed; ``code`` names it."""

    def __init__(self, message: str, *, code: str, status: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.status = status


def json_depth(text: str, limit: int) -> int:
    """Returns how deep JSON arrays and objects nest in ``text`` (strings skipped), counting no further
    than ``limit + 1``. An iterative scan: it cannot run out of stack, whatever the text."""
    depth = deepest = 0
    for token in _JSON_TOKEN.finditer(text):
        mark = token.group()
        if mark in ("[", "{"):
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > limit:
                    break
        elif mark in ("]", "}"):
            depth = max(0, depth - 1)
    return deepest


def _no_constant(name: str) -> Any:
    raise Refused(f"not valid JSON: {name} is not a JSON number", code="bad_json")


def parse_json(text: str, *, depth: int) -> Any:
    """Returns the JSON value of ``text``; raises :class:`Refused` (code ``too_deep`` or ``bad_json``)."""
    if json_depth(text, depth) > depth:
        raise Refused(f"JSON may nest arrays and objects {depth} deep at most", code="too_deep")
    try:
        return json.loads(text, parse_constant=_no_constant)
    except RecursionError:  # pragma: no cover - the scan above refuses this first
        raise Refused(f"JSON may nest arrays and objects {depth} deep at most", code="too_deep") from None
    except Refused:
        raise
    except json.JSONDecodeError as error:
        raise Refused(f"not valid JSON: {error.msg} at character {error.pos}", code="bad_json") from None
    except ValueError:  # e.g. an integer of more than 4300 digits
        raise Refused("not valid JSON: a number is too long", code="bad_json") from None


# -- rates --------------------------------------------------------------------------------------


class RateLimiter:
    """Token buckets: each client (and each address) holds up to ``burst`` tokens, refilled at ``rate``
    a second; a request takes one. At most ``keys`` buckets of each kind are kept (least recently used
    dropped first), so the limiter itself cannot be made to grow without bound."""

    def __init__(
        self,
        rate: float,
        burst: float,
        *,
        share: float = 1.0,
        keys: int = 10_000,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.rate = rate
        self.burst = burst
        self.share = share
        self.keys = keys
        self.clock = clock
        self._clients: OrderedDict[str, tuple[float, float]] = OrderedDict()
        self._addresses: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def _level(self, buckets: OrderedDict[str, tuple[float, float]], key: str, scale: float, now: float) -> float:
        tokens, stamp = buckets.get(key, (self.burst * scale, now))
        return min(self.burst * scale, tokens + (now - stamp) * self.rate * scale)

    def _store(self, buckets: OrderedDict[str, tuple[float, float]], key: str, tokens: float, now: float) -> None:
        buckets[key] = (tokens, now)
        buckets.move_to_end(key)
        while len(buckets) > self.keys:
            buckets.popitem(last=False)

    def take(self, client: str, address: str) -> float:
        """Takes a token for ``client`` at ``address``: returns 0.0, or the seconds to wait if refused."""
        now = self.clock()
        mine = self._level(self._clients, client, 1.0, now)
        theirs = self._level(self._addresses, address, self.share, now)
        if mine < 1.0 or theirs < 1.0:
            self._store(self._clients, client, mine, now)
            self._store(self._addresses, address, theirs, now)
            short = max((1.0 - mine) / self.rate, (1.0 - theirs) / (self.rate * self.share))
            return max(short, 0.001)
        self._store(self._clients, client, mine - 1.0, now)
        self._store(self._addresses, address, theirs - 1.0, now)
        return 0.0


@dataclass
class Limiters:
    """The rates of an app: new tables, actions (WebSocket messages and other writes), and reads."""

    limits: Limits
    tables: RateLimiter
    actions: RateLimiter
    reads: RateLimiter

    @classmethod
    def of(cls, limits: Limits) -> Limiters:
        """Returns fresh buckets for ``limits``."""
        share, keys = limits.address_share, limits.clients_tracked
        return cls(
            limits=limits,
            tables=RateLimiter(limits.tables_per_minute / 60.0, limits.table_burst, share=share, keys=keys),
            actions=RateLimiter(limits.actions_per_second, limits.action_burst, share=share, keys=keys),
            reads=RateLimiter(limits.reads_per_second, limits.read_burst, share=share, keys=keys),
        )

    def tables_refusal(self, wait: float) -> Refused:
        """Returns the error for a client creating tables too fast."""
        per = self.limits.tables_per_minute
        return Refused(
            f"too many new tables: {per:g} a minute at most ({self.limits.table_burst} at once); "
            f"try again in {math.ceil(wait)} s",
            code="rate_limited",
            status=429,
        )

    def reads_refusal(self, wait: float) -> Refused:
        """Returns the error for a client reading pages or the API too fast."""
        per = self.limits.reads_per_second
        return Refused(
            f"too many reads: {per:g} a second at most ({self.limits.read_burst} at once); "
            f"try again in {math.ceil(wait)} s",
            code="rate_limited",
            status=429,
        )

    def actions_refusal(self, wait: float) -> Refused:
        """Returns the error for a client acting or writing too fast."""
        per = self.limits.actions_per_second
        return Refused(
            f"too many requests: {per:g} a second at most ({self.limits.action_burst} at once); "
            f"try again in {math.ceil(wait)} s",
            code="rate_limited",
            status=429,
        )


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers") or ():
        if key.lower() == name:
            return bytes(value).decode("latin-1")
    return None


def client_of(scope: Scope) -> tuple[str, str | None]:
    """Returns the address of an HTTP or WebSocket request and its henge cookie (None if it has none)."""
    client = scope.get("client")
    address = str(client[0]) if client else "unknown"
    cookie = None
    for part in (_header(scope, b"cookie") or "").split(";"):
        name, _, value = part.strip().partition("=")
        if name == COOKIE and _COOKIE_VALUE.fullmatch(value):
            cookie = value
    return address, cookie


def client_key(address: str, cookie: str | None) -> str:
    """Returns the key of a client's buckets: the address and the cookie (every cookie-less client at
    an address shares one)."""
    return f"{address}|{cookie or '-'}"


# -- the middleware -----------------------------------------------------------------------------


def error_body(message: str, code: str) -> bytes:
    """Returns the documented error shape, as bytes."""
    return json.dumps({"error": message, "code": code}).encode()


async def _answer(send: Send, refusal: Refused, extra: list[tuple[bytes, bytes]]) -> None:
    body = error_body(str(refusal), refusal.code)
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()), *extra]
    if refusal.status == 413:
        headers.append((b"connection", b"close"))
    await send({"type": "http.response.start", "status": refusal.status, "headers": headers})
    await send({"type": "http.response.body", "body": body, "more_body": False})


class Guard:
    """ASGI middleware: the client cookie, write rates, the body size and JSON depth of HTTP requests."""

    def __init__(self, app: ASGIApp, limiters: Limiters) -> None:
        self.app = app
        self.limiters = limiters

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limits = self.limiters.limits
        address, cookie = client_of(scope)
        extra: list[tuple[bytes, bytes]] = []
        if cookie is None:
            fresh = secrets.token_urlsafe(18)
            extra.append(
                (
                    b"set-cookie",
                    f"{COOKIE}={fresh}; Path=/; Max-Age={_COOKIE_SECONDS}; HttpOnly; SameSite=Lax".encode(),
                )
            )
        try:
            self._check_rate(scope, client_key(address, cookie), address)
            body = await self._read_body(scope, receive, limits)
        except Refused as refusal:
            retry = [(b"retry-after", b"1")] if refusal.status == 429 else []
            await _answer(send, refusal, extra + retry)
            return
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        async def send_with_cookie(message: Message) -> None:
            if extra and message["type"] == "http.response.start":
                message = dict(message)
                message["headers"] = [*message.get("headers", ()), *extra]
            await send(message)

        await self.app(scope, replay, send_with_cookie)

    def _check_rate(self, scope: Scope, key: str, address: str) -> None:
        if scope["method"] in _SAFE_METHODS:
            path = scope["path"]
            if path == "/healthz" or path.startswith(_UNCOUNTED_READS):
                return
            wait = self.limiters.reads.take(key, address)
            if wait:
                raise self.limiters.reads_refusal(wait)
            return
        if scope["method"] == "POST" and scope["path"].rstrip("/") == "/api/tables":
            wait = self.limiters.tables.take(key, address)
            if wait:
                raise self.limiters.tables_refusal(wait)
        else:
            wait = self.limiters.actions.take(key, address)
            if wait:
                raise self.limiters.actions_refusal(wait)

    async def _read_body(self, scope: Scope, receive: Receive, limits: Limits) -> bytes:
        """Reads the whole body, refusing it as soon as it passes the limit; checks its JSON."""
        too_big = Refused(f"a request body is {limits.body_bytes} bytes at most", code="too_big", status=413)
        declared = (_header(scope, b"content-length") or "").strip()
        if declared.isdigit() and (len(declared) > 18 or int(declared) > limits.body_bytes):
            raise too_big
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                break
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limits.body_bytes:
                raise too_big
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        if body:
            kind = (_header(scope, b"content-type") or "").split(";")[0].strip().lower()
            if not kind or kind == "application/json" or kind.endswith("+json"):
                try:
                    text = body.decode("utf-8")
                except UnicodeDecodeError:
                    raise Refused("the body is not UTF-8 text", code="bad_json") from None
                parse_json(text, depth=limits.json_depth)
        return body
