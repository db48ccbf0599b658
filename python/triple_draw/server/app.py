"""The ASGI application: the web table's files, a small JSON API and the WebSocket.

Routes:

- ``GET /``: the web table (``static/index.html``); ``/static/...`` its script and style;
- ``GET /api/tables``: the tables with their stakes and seats (public);
- ``GET /api/history``: the histories of the hands a seat played, as that seat may know
  them - PHH (``?format=phh``, the default) or PokerStars (``?format=pokerstars``); the
  seat token goes in an ``Authorization: Bearer`` header, never in the URL (so no access
  log ever holds it);
- ``WS /ws/{table_id}``: the table protocol (``protocol.py``).

Each WebSocket connection checks the ``Origin`` header (a page of another site cannot
play for a visitor), rate-limits its messages (a token bucket), refuses oversized or
malformed messages with an error frame, and sends through its own bounded queue, so one
slow client never holds up a table.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import AsyncIterator, Sequence
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
from triple_draw.server.store import PlayedHand, Store, StoreError
from triple_draw.server.replayer import replayer_routes
from triple_draw.server.tables import TableConfig, TableRunner, token_key

__all__ = ["ServerSettings", "create_app", "handle_message"]

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
_CSP = (
    "default-src 'self'; connect-src 'self' ws: wss:; img-src 'self' data:; "
    "style-src 'self'; script-src 'self'; frame-ancestors 'none'; base-uri 'none'"
)


class ServerSettings:
    """What the app needs besides its tables.

    ``allowed_origins``: the ``Origin`` values a WebSocket may come from; ``None`` (the
    default) allows only the page's own origin (the ``Host`` the request came to).
    Clients that send no ``Origin`` (not browsers: bots, scripts) are let in.
    ``rate``/``burst``: messages per second a connection may send, and the bucket size.
    """

    def __init__(
        self,
        *,
        allowed_origins: Sequence[str] | None = None,
        rate: float = 50.0,
        burst: int = 100,
    ) -> None:
        self.allowed_origins = None if allowed_origins is None else set(allowed_origins)
        self.rate = rate
        self.burst = burst


class Connection:
    """One WebSocket client: its seat, its outgoing queue, its rate bucket."""

    def __init__(self, ws: WebSocket, settings: ServerSettings) -> None:
        self.ws = ws
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

    def allow(self) -> bool:
        """Take one message from the token bucket (False: over the rate)."""
        now = time.monotonic()
        self._tokens = min(self._burst, self._tokens + (now - self._t) * self._rate)
        self._t = now
        if self._tokens < 1.0:
            return False
        self._tokens -= 1.0
        return True


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
        runner.join(conn, doc["name"].strip() or "Player", doc.get("seat"))
    elif kind == "act":
        runner.act(conn, doc["hand"], doc["seq"], doc["action"])
    elif kind == "sit_out":
        runner.sit_out(conn)
    elif kind == "sit_in":
        runner.sit_in(conn)
    elif kind == "leave":
        runner.leave(conn)
    return hello


def origin_allowed(origin: str | None, host: str | None, allowed: set[str] | None) -> bool:
    if origin is None:
        return True
    if allowed is not None:
        return origin in allowed
    parts = urlsplit(origin)
    return parts.scheme in ("http", "https") and host is not None and parts.netloc == host


class _SecurityHeaders:
    """Adds the security headers to every HTTP response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                headers += [
                    (b"content-security-policy", _CSP.encode()),
                    (b"x-content-type-options", b"nosniff"),
                    (b"referrer-policy", b"no-referrer"),
                    (b"x-frame-options", b"DENY"),
                    (b"cache-control", b"no-store"),
                ]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)


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
    runners: dict[str, TableRunner] = {}

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        states = store.load_tables()
        for cfg in tables:
            runners[cfg.id] = TableRunner(cfg, store, states.get(cfg.id))
        for r in runners.values():
            r.start()
        app.state.runners = runners
        try:
            yield
        finally:
            for r in runners.values():
                r.stop()
            store.close()

    async def index(request: Request) -> Response:
        return FileResponse(STATIC_DIR / "index.html", media_type="text/html")

    async def list_tables(request: Request) -> Response:
        out = []
        for r in runners.values():
            info = r.config.info()
            info["players"] = sum(1 for s in r.seats if s is not None)
            out.append(info)
        return JSONResponse({"v": PROTOCOL_VERSION, "tables": out})

    async def history(request: Request) -> Response:
        auth = request.headers.get("authorization", "")
        scheme, _, token = auth.partition(" ")
        if scheme.lower() != "bearer" or not 20 <= len(token) <= 100:
            return PlainTextResponse(
                "send the seat token as 'Authorization: Bearer TOKEN'", status_code=401
            )
        fmt = request.query_params.get("format", "phh")
        if fmt not in HISTORY_FORMATS:
            allowed = sorted(HISTORY_FORMATS)
            frame = error_frame(
                "bad_format", f"format must be one of {', '.join(allowed)}; got {fmt[:40]!r}"
            )
            return JSONResponse({**frame, "allowed": allowed}, status_code=400)
        text = await asyncio.to_thread(_histories, token_key(token.strip()), fmt)
        if text is None:
            return PlainTextResponse("no finished hands for this token", status_code=404)
        media_type, filename = HISTORY_FORMATS[fmt]
        return Response(
            text,
            media_type=media_type,
            headers={"content-disposition": f'attachment; filename="{filename}"'},
        )

    def _seen_hands(player: str) -> list[tuple[PlayedHand, Hand]]:
        """The one place that decides what a player may download: the finished hands he
        played (the store's, oldest first, as many as it gives), each with his own seat
        in it - the only seat whose cards a history of his shows beside the shown
        hands."""
        return [(p, engine.hand_from_doc(p.final)) for p in store.hands_of(player)]

    def _table_name(table_id: str) -> str:
        """The table's name as a history prints it (one line); its id if it is no longer
        served."""
        runner = runners.get(table_id)
        name = " ".join((runner.config.name if runner is not None else "").split())
        return name or table_id or "triple-draw serve"

    def _histories(player: str, fmt: str) -> str | None:
        """The player's finished hands as one text of format ``fmt``, as his seat saw
        them (off the event loop: replaying many hands takes a while): PHH, a .phhs of
        ``[1]``, ``[2]``... sections; PokerStars, the hands one after another with blank
        lines between, as PokerStars files are."""
        hands = _seen_hands(player)
        if not hands:
            return None
        parts = []
        for i, (p, hand) in enumerate(hands, 1):
            if fmt == "pokerstars":
                parts.append(
                    engine.pokerstars_text(
                        hand,
                        p.hand_seat,
                        p.hand_id,
                        p.names,
                        _table_name(p.table_id),
                        p.started,
                        p.table_seats,
                    )
                )
            else:
                text = engine.history_text(
                    hand, p.hand_seat, p.hand_id, p.names, "triple-draw serve"
                )
                parts.append(f"[{i}]\n{text}")
        return "\n\n".join(parts) if fmt == "pokerstars" else "\n".join(parts)

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
        await ws.accept()
        conn = Connection(ws, settings)
        sender = asyncio.create_task(_sender(conn))
        hello = False
        try:
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
                    hello = handle_message(runner, conn, data, hello)
                except ProtocolError as e:
                    conn.strikes += 1
                    conn.send(error_frame(e.code, str(e)))
                    if conn.strikes >= STRIKES_TO_CLOSE:
                        break
                except StoreError:
                    log.exception("table %s: storage failed", table_id)
                    conn.send(error_frame("server_error", "storage failed; nothing changed"))
        except WebSocketDisconnect:
            pass
        finally:
            conn.closed = True
            runner.detach(conn)
            conn.queue.put_nowait(None)
            with contextlib.suppress(Exception):
                await sender

    async def _sender(conn: Connection) -> None:
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

    routes = [
        Route("/", index),
        Route("/api/tables", list_tables),
        Route("/api/history", history),
        WebSocketRoute("/ws/{table_id}", ws_endpoint),
        Mount("/static", StaticFiles(directory=STATIC_DIR), name="static"),
        *replayer_routes(),  # the hand replayer (replayer.py): /replay, /api/replay
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.add_middleware(_SecurityHeaders)
    return app
