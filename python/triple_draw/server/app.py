"""The ASGI application: the web table's files, a small JSON API and the WebSocket.

Routes:

- ``GET /``: the web table (``static/index.html``); ``/static/...`` its script and style;
- ``GET /api/tables``: the tables with their stakes and seats (public);
- ``GET /api/history``: the histories of the hands a seat played, as that seat may know
  them - PHH (``?format=phh``, the default) or PokerStars (``?format=pokerstars``), a page
  of at most ``?limit=`` hands (``?offset=`` skips the first), or the one hand
  ``?hand=ID`` (404 if the seat did not play it); the seat token goes in an
  ``Authorization: Bearer`` header, never in the URL (so no access log ever holds it);
  rate-limited per client address;
- ``GET /replay``, ``POST /api/replay``: the hand replayer (``replayer.py``), its uploads
  rate-limited per client address;
- ``WS /ws/{table_id}``: the table protocol (``protocol.py``);
- in tournament mode (:func:`create_tournament_app`, ``serve --tournament``) instead:
  ``GET /`` the lobby and table page, ``GET /api/tournament``, ``WS /ws/tournament``
  (``tourney.py``);
- with accounts (``ServerSettings(accounts=True)``, ``serve --accounts``): ``/cashier``,
  ``POST /api/register``, ``/api/login``, ``/api/logout`` and ``GET /api/account``
  (``accounts.py``). A WebSocket then carries the session of the cookie it was opened
  with: sitting down and taking a seat back with its token need it, and the history
  download needs the session of the seat's account besides the seat token.

Every request - page, API and WebSocket - must name an allowed ``Host`` (a page of a
domain that was rebound to this server's address cannot reach it). Each WebSocket
connection checks the ``Origin`` header (a page of another site cannot
play for a visitor), rate-limits its messages (a token bucket), refuses oversized or
malformed messages with an error frame, and sends through its own bounded queue, so one
slow client never holds up a table. A client address may hold at most so many
connections and seats, and a table takes at most so many spectators.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
import logging
import time
from collections.abc import AsyncIterator, Callable, Sequence
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

from triple_draw.game import Hand
from triple_draw.server import engine
from triple_draw.server.protocol import (
    PROTOCOL_VERSION,
    ProtocolError,
    error_frame,
    parse_client_message,
)
from triple_draw.server.store import AccountError, PlayedHand, Store, StoreError
from triple_draw.server.replayer import replayer_routes
from triple_draw.server.tables import TableConfig, TableRunner, token_key

__all__ = ["ServerSettings", "create_app", "create_tournament_app", "handle_message"]

log = logging.getLogger("triple_draw.server")

STATIC_DIR = Path(str(resources.files("triple_draw.server").joinpath("static")))

#: Frames waiting for a client before it counts as stuck and is disconnected.
SEND_QUEUE_LIMIT = 512
#: Refused messages (rate limit, bad input) after which a connection is closed.
STRIKES_TO_CLOSE = 200
#: The formats of ``GET /api/history``: the media type and file name of each.
HISTORY_FORMATS = {
    "phh": ("text/plain; charset=utf-8", "my-hands.phhs"),
    "pokerstars": ("text/plain; charset=utf-8", "my-hands-pokerstars.txt"),
}
#: Seconds between two stores of the tables' clocks (``Store.save_clocks``).
CLOCK_BEAT = 1.0
#: ``GET /api/history``: hands in one page by default, and at most
HISTORY_PAGE = 100
HISTORY_PAGE_MAX = 500


def _csp(host: str) -> str:
    """The page's Content-Security-Policy: its scripts, styles and WebSocket only from the
    server's own origin (``host``: the request's ``Host``, already checked)."""
    return (
        f"default-src 'self'; connect-src 'self' ws://{host} wss://{host}; "
        "img-src 'self' data:; style-src 'self'; script-src 'self'; "
        "frame-ancestors 'none'; base-uri 'none'"
    )


class ServerSettings:
    """What the app needs besides its tables.

    ``allowed_origins``: the ``Origin`` values a WebSocket may come from; ``None`` (the
    default) allows only the page's own origin (the ``Host`` the request came to).
    Clients that send no ``Origin`` (not browsers: bots, scripts) are let in.
    ``rate``/``burst``: messages per second a connection may send, and the bucket size.

    ``allowed_hosts``: the host names (``Host`` header, without the port) requests may
    name, besides ``localhost`` and IP addresses, which are always allowed (a DNS
    rebinding attack comes with a domain name). ``None`` or empty: only those.

    Limits per client address (0: none): ``connections_per_address`` open WebSockets,
    ``seats_per_address`` seats over all tables; ``spectators_per_table`` connections
    without a seat at one table; ``history_rate`` requests to ``/api/history`` and
    ``replay_rate`` records uploaded to ``/api/replay`` a minute (bursts of a sixth).
    Behind a reverse proxy every client has the proxy's address: raise them there.

    ``accounts``: players register and log in, and sit down with the chips of their
    accounts (``accounts.py``; needs argon2-cffi); ``login_rate``: logins and
    registrations one client address may try a minute (bursts of a sixth; 0: no limit);
    ``session_ttl``: seconds a login lasts.
    """

    def __init__(
        self,
        *,
        allowed_origins: Sequence[str] | None = None,
        rate: float = 50.0,
        burst: int = 100,
        allowed_hosts: Sequence[str] | None = None,
        connections_per_address: int = 32,
        seats_per_address: int = 4,
        spectators_per_table: int = 200,
        history_rate: float = 30.0,
        replay_rate: float = 12.0,
        accounts: bool = False,
        login_rate: float = 30.0,
        session_ttl: float = 7 * 86400.0,
    ) -> None:
        self.allowed_origins = None if allowed_origins is None else set(allowed_origins)
        self.rate = rate
        self.burst = burst
        self.allowed_hosts = {h.lower().rstrip(".") for h in allowed_hosts or ()}
        self.connections_per_address = connections_per_address
        self.seats_per_address = seats_per_address
        self.spectators_per_table = spectators_per_table
        self.history_rate = history_rate
        self.replay_rate = replay_rate
        self.accounts = accounts
        self.login_rate = login_rate
        if session_ttl <= 0:
            raise ValueError(f"session_ttl must be > 0 seconds, got {session_ttl}")
        self.session_ttl = session_ttl


class Connection:
    """One WebSocket client: its seat, its outgoing queue, its rate bucket."""

    def __init__(self, ws: WebSocket, settings: ServerSettings, address: str = "") -> None:
        self.ws = ws
        self.address = address
        self.seat: int | None = None
        self.sent_hand = 0
        self.sent_events = 0
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.closed = False
        self._tokens = float(settings.burst)
        self._rate = settings.rate
        self._burst = float(settings.burst)
        self._t = time.monotonic()
        self.strikes = 0
        #: the session the connection was opened with (accounts): its digest, its
        #: account (id, name) and when it expires
        self.session: str | None = None
        self._account: tuple[int, str] | None = None
        self._expires = 0.0

    @property
    def account(self) -> tuple[int, str] | None:
        """The account (id, name) of the connection's session while it lasts."""
        if self._account is not None and time.time() >= self._expires:
            self._account = None
        return self._account

    def log_in(self, digest: str, account: tuple[int, str], expires: float) -> None:
        self.session = digest
        self._account = account
        self._expires = expires

    def log_out(self) -> None:
        """The session ended (logged out, or replaced by a login): the connection is
        told and closed (a page reconnects, and takes its seat back once logged in)."""
        self._account = None
        self.send(error_frame("logged_out", "your session ended: log in again to play"))
        self.close()

    def send(self, frame: dict[str, Any]) -> None:
        self.send_text(json.dumps(frame, separators=(",", ":")))

    def send_text(self, text: str) -> None:
        """Queue a frame already serialized (a table serializes its shared parts once)."""
        if self.closed:
            return
        if self.queue.qsize() >= SEND_QUEUE_LIMIT:
            self.closed = True
            self.queue.put_nowait(None)
            return
        self.queue.put_nowait(text)

    def close(self) -> None:
        """Send what is queued, then close (the receive loop then ends)."""
        if not self.closed:
            self.closed = True
            self.queue.put_nowait(None)

    def allow(self) -> bool:
        """Take one message from the token bucket (False: over the rate)."""
        now = time.monotonic()
        self._tokens = min(self._burst, self._tokens + (now - self._t) * self._rate)
        self._t = now
        if self._tokens < 1.0:
            return False
        self._tokens -= 1.0
        return True


class _Buckets:
    """Token buckets by key (client address): ``rate`` a minute, bursts of ``burst``."""

    def __init__(self, per_minute: float, burst: int) -> None:
        self.rate = per_minute / 60.0
        self.burst = float(burst)
        self._b: dict[str, tuple[float, float]] = {}

    def allow(self, key: str) -> float:
        """0.0 if ``key`` may go on (one token taken); else the seconds until it may."""
        now = time.monotonic()
        if len(self._b) > 10_000:  # forget the full buckets of clients long gone
            self._b = {
                k: v for k, v in self._b.items() if v[0] + (now - v[1]) * self.rate < self.burst
            }
        tokens, t = self._b.get(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - t) * self.rate)
        if tokens < 1.0:
            self._b[key] = (tokens, now)
            return (1.0 - tokens) / self.rate
        self._b[key] = (tokens - 1.0, now)
        return 0.0


def _address(client: Any) -> str:
    """The client's address (its host; the port changes with every connection)."""
    return str(client.host) if client is not None else ""


def handle_message(runner: TableRunner, conn: Any, data: str | bytes, hello: bool) -> bool:
    """One message of a WebSocket connection: validated (the protocol's schema), then
    handed to the table. ``hello``: whether the connection has said hello; returns it
    after the message. A refused message raises :class:`ProtocolError` (and changes
    nothing); :class:`StoreError` if the storage failed (the table reloads its last
    committed state)."""
    doc = parse_client_message(data)
    kind = doc["type"]
    if kind == "ping":
        conn.send({"v": PROTOCOL_VERSION, "type": "pong"})
    elif kind == "hello":
        if hello:
            raise ProtocolError("not_allowed", "hello was already said")
        runner.attach(conn, doc.get("token"))
        return True
    elif not hello:
        raise ProtocolError("not_allowed", "say hello first")
    elif kind == "join":
        name = doc.get("name")
        runner.join(
            conn,
            None if name is None else name.strip() or "Player",
            doc.get("seat"),
            doc.get("buy_in"),
        )
    elif kind == "act":
        runner.act(conn, doc["hand"], doc["seq"], doc["action"])
    elif kind == "sit_out":
        runner.sit_out(conn)
    elif kind == "sit_in":
        runner.sit_in(conn)
    elif kind == "rebuy":
        runner.rebuy(conn)
    elif kind == "leave":
        runner.leave(conn)
    return hello


def host_allowed(host_header: str | None, allowed: set[str]) -> str | None:
    """The ``Host`` header's name if a request may name it, else ``None``: ``localhost``,
    an IP address (no DNS rebinding comes with one), or one of ``allowed``."""
    if not host_header or len(host_header) > 255:
        return None
    host = host_header.strip().lower()
    if host.startswith("["):  # [v6]:port
        name, sep, rest = host[1:].partition("]")
        if not sep or (rest and not (rest.startswith(":") and rest[1:].isdigit())):
            return None
        try:
            ipaddress.IPv6Address(name)
        except ValueError:
            return None
        return host
    name, _, port = host.partition(":")
    if port and not port.isdigit():
        return None
    name = name.rstrip(".")
    if name == "localhost" or name in allowed:
        return host
    try:
        ipaddress.IPv4Address(name)
    except ValueError:
        return None
    return host


def origin_allowed(origin: str | None, host: str | None, allowed: set[str] | None) -> bool:
    if origin is None:
        return True
    if allowed is not None:
        return origin in allowed
    parts = urlsplit(origin)
    return parts.scheme in ("http", "https") and host is not None and parts.netloc == host


class _SecurityHeaders:
    """Refuses a request naming a ``Host`` not allowed (HTTP: 421; WebSocket: closed
    before the handshake completes), and adds the security headers to every HTTP
    response."""

    def __init__(self, app: ASGIApp, allowed_hosts: set[str]) -> None:
        self.app = app
        self.allowed_hosts = allowed_hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        header = next((v for k, v in scope["headers"] if k == b"host"), None)
        host = host_allowed(
            None if header is None else header.decode("latin-1"), self.allowed_hosts
        )
        if host is None:
            if scope["type"] == "websocket":
                await send({"type": "websocket.close", "code": 1008, "reason": "host not allowed"})
                return
            response = PlainTextResponse(
                "this server does not answer to that Host (see --allow-host)", status_code=421
            )
            await response(scope, receive, send)
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        csp = _csp(host).encode()

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                headers += [
                    (b"content-security-policy", csp),
                    (b"x-content-type-options", b"nosniff"),
                    (b"referrer-policy", b"no-referrer"),
                    (b"x-frame-options", b"DENY"),
                    (b"cache-control", b"no-store"),
                ]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)




async def send_queued(conn: Any) -> None:
    """A connection's sender: its queued frames to the socket in order until ``None``
    (or the peer goes away: the receive loop then ends the connection); then the socket
    is closed."""
    try:
        while True:
            text = await conn.queue.get()
            if text is None:
                break
            await conn.ws.send_text(text)
    except Exception:  # the peer went away: the receive loop ends the connection
        conn.closed = True
    with contextlib.suppress(Exception):
        await conn.ws.close()


async def release(
    conn: Any, runner: Any, sender: Any, open_by_address: dict[str, int], address: str
) -> None:
    """A connection that ended: its address's count of open connections down by one,
    detached from its table (or tournament), its sender stopped and awaited."""
    left = open_by_address.get(address, 1) - 1
    if left > 0:
        open_by_address[address] = left
    else:
        open_by_address.pop(address, None)
    runner.detach(conn)
    conn.queue.put_nowait(None)
    with contextlib.suppress(Exception):
        await sender

async def receive_messages(
    ws: Any,
    conn: Any,
    handle_one: Callable[[Any, bool], bool],
    error_of: Callable[[ProtocolError], dict[str, Any]],
    where: str,
) -> None:
    """The messages of one connection until it or the client closes it: each handed to
    ``handle_one(data, hello)`` (which returns whether the client has said hello), under
    the per-connection rate limit; a refused message (``ProtocolError``: ``error_of`` words
    its frame), a storage failure or a bug answers with an error frame and never reaches
    the connection as an exception, and the strikes close a connection that keeps
    sending them. ``where`` names the table (or tournament) in the log."""
    hello = False
    while not conn.closed:
        msg = await ws.receive()
        if msg["type"] == "websocket.disconnect":
            break
        data = msg.get("text")
        if data is None:
            data = msg.get("bytes") or b""
        if not conn.allow():
            conn.strikes += 1
            conn.send(error_frame("rate_limited", "too many messages: slow down"))
            if conn.strikes >= STRIKES_TO_CLOSE:
                break
            continue
        try:
            hello = handle_one(data, hello)
        except ProtocolError as e:
            conn.strikes += 1
            conn.send(error_of(e))
            if conn.strikes >= STRIKES_TO_CLOSE:
                break
        except StoreError:
            log.exception("%s: storage failed", where)
            conn.send(error_frame("server_error", "storage failed; nothing changed"))
        except Exception as e:  # a bug: one line in the log, the client told
            conn.strikes += 1
            log.error("%s: a message failed: %s: %s", where, type(e).__name__, e)
            conn.send(error_frame("server_error", "the server could not handle that"))
            if conn.strikes >= STRIKES_TO_CLOSE:
                break

def create_app(
    tables: Sequence[TableConfig], store: Store, settings: ServerSettings | None = None
) -> Starlette:
    """The Starlette app for ``tables`` kept in ``store``. The tables start (resuming any
    hand in progress) when the app starts, and stop - the store is closed - when it stops."""
    if not tables:
        raise ValueError("a server needs at least one table")
    ids = [t.id for t in tables]
    if len(set(ids)) != len(ids):
        raise ValueError(f"table ids must differ: {ids}")
    settings = settings or ServerSettings()
    passwords = None
    if settings.accounts:
        from triple_draw.server.accounts import Passwords

        passwords = Passwords()  # MissingExtraError without argon2-cffi
    runners: dict[str, TableRunner] = {}
    #: open WebSockets by client address
    open_by_address: dict[str, int] = {}
    history_buckets = _Buckets(settings.history_rate, max(1, int(settings.history_rate // 6)))
    replay_buckets = _Buckets(settings.replay_rate, max(1, int(settings.replay_rate // 6)))
    login_buckets = _Buckets(settings.login_rate, max(1, int(settings.login_rate // 6)))
    #: the WebSockets opened with each session (by its digest): a logout closes them
    by_session: dict[str, set[Connection]] = {}

    def revoke(digest: str) -> None:
        for conn in list(by_session.pop(digest, ())):
            conn.log_out()

    stored_clocks: list[dict[str, tuple[int, int, float | None]]] = [{}]

    def save_clocks() -> None:
        clocks = {t: r.clock_left() for t, r in runners.items()}
        if clocks == stored_clocks[0] and all(c[2] is None for c in clocks.values()):
            return  # no player's clock runs, and nothing changed: no write
        try:
            store.save_clocks(time.time(), clocks)
            stored_clocks[0] = clocks
        except StoreError as e:  # the next beat tries again; the tables play on
            log.warning("storing the clocks failed: %s", e)

    async def beat() -> None:
        """Store every table's clock every second: a restart gives the player to act the
        time he had left, not counting the time the server was down."""
        while True:
            await asyncio.sleep(CLOCK_BEAT)
            save_clocks()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        states = store.load_tables()
        clocks = store.load_clocks()
        for cfg in tables:
            runners[cfg.id] = TableRunner(
                cfg, store, states.get(cfg.id), accounts=settings.accounts
            )
        room = list(runners.values())
        for r in room:
            r.room = room
            r.seats_per_address = settings.seats_per_address
            r.max_spectators = settings.spectators_per_table
        for r in room:
            r.start(clocks.get(r.config.id))
        app.state.runners = runners
        beating = asyncio.create_task(beat())
        try:
            yield
        finally:
            beating.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await beating
            save_clocks()
            for r in runners.values():
                r.stop()
            if settings.accounts:
                for r in runners.values():
                    try:  # the chips of the seats between hands go back to their accounts
                        r.cash_out_accounts("server shutdown")
                    except (StoreError, AccountError) as e:
                        log.warning("table %s: cashing out failed: %s", r.config.id, e)
            store.close()

    async def index(request: Request) -> Response:
        return FileResponse(STATIC_DIR / "index.html", media_type="text/html")

    async def list_tables(request: Request) -> Response:
        out = []
        for r in runners.values():
            info = r.config.info()
            info["players"] = sum(1 for s in r.seats if s is not None)
            out.append(info)
        return JSONResponse({"v": PROTOCOL_VERSION, "tables": out, "accounts": settings.accounts})

    async def history(request: Request) -> Response:
        if settings.history_rate > 0:
            wait = history_buckets.allow(_address(request.client))
            if wait:
                return PlainTextResponse(
                    f"too many history requests: retry in {wait:.0f} s",
                    status_code=429,
                    headers={"retry-after": str(max(1, round(wait)))},
                )
        auth = request.headers.get("authorization", "")
        scheme, _, token = auth.partition(" ")
        if scheme.lower() != "bearer" or not 20 <= len(token) <= 100:
            return PlainTextResponse(
                "send the seat token as 'Authorization: Bearer TOKEN'", status_code=401
            )
        if settings.accounts:  # the seat token, and the session of the seat's account
            from triple_draw.server.accounts import session_of

            try:
                session = session_of(store, request.cookies, request.url.scheme == "https")
                owner = store.seat_account(token_key(token.strip()))
            except StoreError as e:
                log.warning("a session's lookup failed: %s", e)
                return JSONResponse(error_frame("server_error", "storage failed"), status_code=503)
            if session is None:
                frame = error_frame("login_required", "log in to download your hands")
                return JSONResponse(frame, status_code=401)
            if owner != session.account.id:
                frame = error_frame("bad_token", "that seat token is not your account's")
                return JSONResponse(frame, status_code=403)
        fmt = request.query_params.get("format", "phh")
        if fmt not in HISTORY_FORMATS:
            allowed = sorted(HISTORY_FORMATS)
            frame = error_frame(
                "bad_format", f"format must be one of {', '.join(allowed)}; got {fmt[:40]!r}"
            )
            return JSONResponse({**frame, "allowed": allowed}, status_code=400)
        page: list[int] = []
        for name, default, most in (
            ("offset", 0, 10**9),
            ("limit", HISTORY_PAGE, HISTORY_PAGE_MAX),
        ):
            raw = request.query_params.get(name, str(default))
            # (ASCII digits only: str.isdigit also takes "²", which int() refuses)
            whole = raw.isascii() and raw.isdigit() and len(raw) <= 12
            if not whole or not (name == "offset" or 1 <= int(raw) <= most):
                frame = error_frame(
                    "bad_message",
                    f"{name} must be a whole number"
                    + (f" from 1 to {most}" if name == "limit" else "")
                    + f"; got {raw[:20]!r}",
                )
                return JSONResponse(frame, status_code=400)
            page.append(min(int(raw), most))
        offset, limit = page
        one = request.query_params.get("hand")
        if one is not None:  # one hand, by its id (the web table's log links to it)
            if not (one.isascii() and one.isdigit() and len(one) <= 12):
                frame = error_frame("bad_message", f"hand must be a hand id; got {one[:20]!r}")
                return JSONResponse(frame, status_code=400)
        text, more = await asyncio.to_thread(
            _histories,
            token_key(token.strip()),
            fmt,
            offset,
            limit,
            None if one is None else int(one),
        )
        if text is None:
            if one is not None:
                return PlainTextResponse(
                    f"no finished hand #{one} played by this seat", status_code=404
                )
            return PlainTextResponse("no finished hands for this token", status_code=404)
        media_type, filename = HISTORY_FORMATS[fmt]
        headers = {"content-disposition": f'attachment; filename="{filename}"'}
        if more:  # a further page: where it starts (the client keeps its own token)
            nxt = f"/api/history?format={fmt}&offset={offset + limit}&limit={limit}"
            headers["link"] = f'<{nxt}>; rel="next"'
        return Response(text, media_type=media_type, headers=headers)

    def _seen_hands(
        player: str, offset: int, limit: int, hand_id: int | None = None
    ) -> tuple[list[tuple[PlayedHand, Hand]], bool]:
        """The one place that decides what a player may download: the finished hands he
        played (the store's, oldest first, ``limit`` of them after the first ``offset``),
        each with his own seat in it - the only seat whose cards a history of his shows
        beside the shown hands; and whether more follow. ``hand_id``: that hand only."""
        played = store.hands_of(player, limit + 1, offset, hand_id)
        more = len(played) > limit
        return [(p, engine.hand_from_doc(p.final)) for p in played[:limit]], more

    def _table_name(table_id: str) -> str:
        """The table's name as a history prints it (one line); its id if it is no longer
        served."""
        runner = runners.get(table_id)
        name = " ".join((runner.config.name if runner is not None else "").split())
        return name or table_id or "triple-draw serve"

    def _histories(
        player: str, fmt: str, offset: int, limit: int, hand_id: int | None = None
    ) -> tuple[str | None, bool]:
        """The player's finished hands as one text of format ``fmt``, as his seat saw
        them (off the event loop: replaying many hands takes a while): PHH, a .phhs of
        ``[1]``, ``[2]``... sections; PokerStars, the hands one after another with blank
        lines between, as PokerStars files are."""
        hands, more = _seen_hands(player, offset, limit, hand_id)
        if not hands:
            return None, False
        if fmt != "pokerstars":  # (each hand's tables under its number: [1], [1._rules]...)
            seen = [(hand, p.hand_seat, p.hand_id, p.names) for p, hand in hands]
            return engine.history_sections(seen, "triple-draw serve", offset + 1), more
        parts = [
            engine.pokerstars_text(
                hand,
                p.hand_seat,
                p.hand_id,
                p.names,
                _table_name(p.table_id),
                p.started,
                p.table_seats,
            )
            for p, hand in hands
        ]
        return "\n\n".join(parts), more

    async def ws_endpoint(ws: WebSocket) -> None:
        table_id = ws.path_params["table_id"]
        runner = runners.get(table_id)
        origin = ws.headers.get("origin")
        if not origin_allowed(origin, ws.headers.get("host"), settings.allowed_origins):
            await ws.close(code=1008, reason="origin not allowed")
            return
        if runner is None:
            await ws.close(code=1008, reason="no such table")
            return
        address = _address(ws.client)
        session = None
        if settings.accounts:
            from triple_draw.server.accounts import session_of

            try:
                session = session_of(store, ws.cookies, ws.url.scheme == "wss")
            except StoreError as e:  # (it watches; sitting down will say to log in)
                log.warning("a session's lookup failed: %s", e)
        await ws.accept()
        conn = Connection(ws, settings, address)
        if session is not None:
            conn.log_in(session.digest, (session.account.id, session.account.name), session.expires)
            by_session.setdefault(session.digest, set()).add(conn)
        n = open_by_address.get(address, 0)
        if settings.connections_per_address and n >= settings.connections_per_address:
            conn.send(
                error_frame(
                    "limit_reached",
                    f"your address already has {n} connections open, the most it may have",
                )
            )
            conn.close()
            await send_queued(conn)
            return
        open_by_address[address] = n + 1
        sender = asyncio.create_task(send_queued(conn))
        try:
            await receive_messages(
                ws,
                conn,
                lambda data, hello: handle_message(runner, conn, data, hello),
                lambda e: error_frame(e.code, str(e)),
                f"table {table_id}",
            )
        except WebSocketDisconnect:
            pass
        finally:
            conn.closed = True
            if conn.session is not None:
                held = by_session.get(conn.session)
                if held is not None:
                    held.discard(conn)
                    if not held:
                        del by_session[conn.session]
            await release(conn, runner, sender, open_by_address, address)

    routes = [
        Route("/", index),
        Route("/api/tables", list_tables),
        Route("/api/history", history),
        WebSocketRoute("/ws/{table_id}", ws_endpoint),
        Mount("/static", StaticFiles(directory=STATIC_DIR), name="static"),
        # the hand replayer (replayer.py): /replay, /api/replay
        *replayer_routes(limit=replay_buckets.allow if settings.replay_rate > 0 else None),
    ]
    if passwords is not None:
        from triple_draw.server.accounts import AccountsContext, account_routes

        def same_origin(request: Request) -> bool:
            """A state-changing request from the server's own pages: a browser names the
            page's origin (``Origin``, ``Sec-Fetch-Site``); a client that is no browser
            names none (and holds no visitor's cookie)."""
            site = request.headers.get("sec-fetch-site")
            if site is not None and site not in ("same-origin", "none"):
                return False
            return origin_allowed(
                request.headers.get("origin"), request.headers.get("host"), settings.allowed_origins
            )

        ctx = AccountsContext(
            store=store,
            passwords=passwords,
            runners=runners,
            session_ttl=settings.session_ttl,
            limit=login_buckets.allow if settings.login_rate > 0 else None,
            same_origin=same_origin,
            revoke=revoke,
            static_dir=STATIC_DIR,
        )
        routes[2:2] = account_routes(ctx)
    app = Starlette(routes=routes, lifespan=lifespan)
    app.add_middleware(_SecurityHeaders, allowed_hosts=settings.allowed_hosts)
    return app


def create_tournament_app(
    config: Any, store: Store, settings: ServerSettings | None = None
) -> Starlette:
    """The Starlette app of ``triple-draw serve --tournament``: one tournament
    (:class:`~triple_draw.server.tourney.TournamentConfig`) kept in ``store``.

    Routes: ``GET /`` the lobby and table page (``static/tournament.html``);
    ``GET /api/tournament`` (also ``/api/tables``) the public lobby - structure, entries,
    prizes, clock; ``WS /ws/tournament`` the tournament protocol (``tourney.py``). The
    same guards as the tables' app: allowed ``Host``, ``Origin``, rate limits, bounded
    send queues, connections per address."""
    from triple_draw.server.tourney import TournamentRunner, error, handle

    settings = settings or ServerSettings()
    holder: dict[str, TournamentRunner] = {}
    open_by_address: dict[str, int] = {}

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        state = store.load_tables().get(config.id)
        runner = TournamentRunner(config, store, state)
        holder["runner"] = runner
        runner.start()
        try:
            yield
        finally:
            runner.stop()
            store.close()

    async def page(request: Request) -> Response:
        return FileResponse(STATIC_DIR / "tournament.html", media_type="text/html")

    async def lobby(request: Request) -> Response:
        return JSONResponse(holder["runner"].lobby())

    async def ws_endpoint(ws: WebSocket) -> None:
        origin = ws.headers.get("origin")
        if not origin_allowed(origin, ws.headers.get("host"), settings.allowed_origins):
            await ws.close(code=1008, reason="origin not allowed")
            return
        runner = holder["runner"]
        address = _address(ws.client)
        await ws.accept()
        conn = Connection(ws, settings, address)
        conn.player = None  # type: ignore[attr-defined]
        n = open_by_address.get(address, 0)
        if settings.connections_per_address and n >= settings.connections_per_address:
            conn.send(error_frame("limit_reached", f"your address already has {n} connections"))
            conn.close()
            await send_queued(conn)
            return
        open_by_address[address] = n + 1
        sender = asyncio.create_task(send_queued(conn))
        try:
            await receive_messages(
                ws, conn, lambda data, hello: handle(runner, conn, data, hello), error, "tournament"
            )
        except WebSocketDisconnect:
            pass
        finally:
            conn.closed = True
            await release(conn, runner, sender, open_by_address, address)

    routes = [
        Route("/", page),
        Route("/api/tournament", lobby),
        Route("/api/tables", lobby),
        WebSocketRoute("/ws/tournament", ws_endpoint),
        Mount("/static", StaticFiles(directory=STATIC_DIR), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.add_middleware(_SecurityHeaders, allowed_hosts=settings.allowed_hosts)
    return app
