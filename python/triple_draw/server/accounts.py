"""Accounts of ``triple-draw serve --accounts``: registration, login, sessions, the cashier.

Off by default: a server without ``--accounts`` has none of this, and anonymous players
sit down with the table's free chips as before. With it:

- ``POST /api/register`` ``{"name", "password"}``: a new account (balance 0), logged in;
- ``POST /api/login`` ``{"name", "password"}``: a new session, whatever cookie came with
  the request (a session is never carried over a login: session fixation);
- ``POST /api/logout``: the session ends, here and on every WebSocket opened with it;
- ``GET /api/account``: the account's name, balance, seats and latest ledger entries;
- ``GET /cashier``: the cashier page (``static/cashier.html``).

Names follow the rules of the players' names at the tables (the client schema's ``name``
definition, then :func:`~triple_draw.server.tables.check_name`), and two names that
:func:`~triple_draw.server.tables.name_key` folds alike are one. Passwords are hashed with
argon2id (``argon2-cffi``'s :class:`~argon2.PasswordHasher` with its defaults, RFC 9106's
low-memory profile), off the event loop, at most :data:`HASH_AT_ONCE` at a time. A login
for a name that has no account verifies the password against a dummy hash, so it costs
what a wrong password costs; both get the same answer. Registrations and logins are
rate-limited per client address.

A session is a ``secrets.token_urlsafe(32)`` token in a cookie (``HttpOnly``,
``SameSite=Strict``, ``Path=/``, ``Secure`` and the ``__Host-`` prefix over https) that
expires after ``ServerSettings.session_ttl`` seconds; the database keeps only its SHA-256
digest. Every state-changing request must come from the server's own pages: a JSON body
(a form of another site cannot send one), and an ``Origin`` (and ``Sec-Fetch-Site``) that
is the server's own when the browser sends one.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Route

from triple_draw.errors import MissingExtraError
from triple_draw.server.protocol import PROTOCOL_VERSION, ProtocolError, error_frame, validate_name
from triple_draw.server.store import Account, NameTakenError, Store, StoreError
from triple_draw.server.tables import TableRunner, check_name, name_key, token_key

__all__ = [
    "HASH_AT_ONCE",
    "PASSWORD_MAX",
    "PASSWORD_MIN",
    "AccountsContext",
    "Passwords",
    "Session",
    "account_routes",
    "cookie_name",
    "require_argon2",
    "session_token",
]

log = logging.getLogger("triple_draw.server")

#: Characters a password has at least, and at most.
PASSWORD_MIN = 8
PASSWORD_MAX = 256
#: Password hashes computed at once (argon2's default takes 64 MiB each).
HASH_AT_ONCE = 2
#: The largest body of a request to the accounts' API, in bytes.
BODY_MAX = 4096
#: Ledger entries ``GET /api/account`` gives.
LEDGER_SHOWN = 30
#: The session cookie's name over http, and over https (``__Host-``: only ever set by
#: this host, with ``Secure`` and ``Path=/``: no sibling domain can plant one).
COOKIE = "td_session"
SECURE_COOKIE = "__Host-td_session"


def require_argon2() -> None:
    """:class:`MissingExtraError` unless argon2-cffi can be imported."""
    try:
        import argon2  # noqa: F401
    except ImportError:
        raise MissingExtraError(
            "accounts hash their passwords with argon2 (the argon2-cffi package): "
            "pip install 'triple_draw[server]'"
        ) from None


def cookie_name(secure: bool) -> str:
    """The session cookie's name: ``__Host-td_session`` over https, else ``td_session``."""
    return SECURE_COOKIE if secure else COOKIE


def session_token() -> tuple[str, str]:
    """A new session token and its digest (what the database keeps)."""
    token = secrets.token_urlsafe(32)
    return token, token_key(token)


def _well_formed(token: str) -> bool:
    return 20 <= len(token) <= 100 and all(
        c.isascii() and (c.isalnum() or c in "-_") for c in token
    )


@dataclass(frozen=True)
class Session:
    """A live session: its token's digest, its account, when it expires."""

    digest: str
    account: Account
    expires: float


def session_of(store: Store, cookies: Mapping[str, str], secure: bool) -> Session | None:
    """The live session the request's cookie names (``None``: none, unknown or expired)."""
    token = cookies.get(cookie_name(secure))
    if not token or not _well_formed(token):
        return None
    digest = token_key(token)
    found = store.session(digest, time.time())
    if found is None:
        return None
    return Session(digest, found[0], found[1])


class Passwords:
    """argon2id hashing off the event loop, :data:`HASH_AT_ONCE` at a time."""

    def __init__(self) -> None:
        require_argon2()
        from argon2 import PasswordHasher

        self.hasher = PasswordHasher()
        # what a login for an unknown name verifies against: the same work as a real one
        self._dummy = self.hasher.hash(secrets.token_urlsafe(16))
        self._gate: asyncio.Semaphore | None = None

    def _semaphore(self) -> asyncio.Semaphore:
        if self._gate is None:
            self._gate = asyncio.Semaphore(HASH_AT_ONCE)
        return self._gate

    async def hash(self, password: str) -> str:
        async with self._semaphore():
            encoded: str = await asyncio.to_thread(self.hasher.hash, password)
        return encoded

    async def verify(self, encoded: str | None, password: str) -> bool:
        """Whether ``password`` is the one ``encoded`` hashes (``None``: no such account:
        the dummy hash is verified, and the answer is no)."""
        from argon2.exceptions import InvalidHashError, VerificationError

        def check() -> bool:
            try:
                return bool(self.hasher.verify(encoded or self._dummy, password))
            except (VerificationError, InvalidHashError):
                return False

        async with self._semaphore():
            ok = await asyncio.to_thread(check)
        return ok and encoded is not None

    def needs_rehash(self, encoded: str) -> bool:
        return bool(self.hasher.check_needs_rehash(encoded))

    @property
    def parameters(self) -> dict[str, Any]:
        h = self.hasher
        return {
            "type": str(h.type.name).lower(),
            "time_cost": h.time_cost,
            "memory_cost_kib": h.memory_cost,
            "parallelism": h.parallelism,
            "hash_len": h.hash_len,
            "salt_len": h.salt_len,
        }


@dataclass
class AccountsContext:
    """What the accounts' routes need of the app."""

    store: Store
    passwords: Passwords
    runners: Mapping[str, TableRunner]
    #: seconds a session lasts
    session_ttl: float
    #: 0.0 if the client address may try a login or registration now, else the seconds
    #: until it may (``None``: no limit)
    limit: Callable[[str], float] | None
    #: whether a state-changing request comes from the server's own pages
    same_origin: Callable[[Any], bool]
    #: ends the WebSockets opened with a session (its digest): logged out or replaced
    revoke: Callable[[str], None]
    #: where the cashier page is
    static_dir: Path


def _error(status: int, code: str, message: str, **headers: str) -> Response:
    return JSONResponse(error_frame(code, message), status_code=status, headers=headers or None)


async def _json_body(request: Request) -> dict[str, Any] | Response:
    """The request's JSON object, or an error response."""
    ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if ctype != "application/json":
        return _error(
            415, "bad_message", "send the fields as JSON (Content-Type: application/json)"
        )
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > BODY_MAX):
        return _error(413, "too_large", f"a request body may hold at most {BODY_MAX} bytes")
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > BODY_MAX:
            return _error(413, "too_large", f"a request body may hold at most {BODY_MAX} bytes")
    try:
        doc = json.loads(body)
    except (ValueError, UnicodeDecodeError, RecursionError):
        return _error(400, "bad_message", "the body is not JSON")
    if not isinstance(doc, dict):
        return _error(400, "bad_message", "the body must be a JSON object")
    return doc


def _credentials(doc: dict[str, Any]) -> tuple[str, str] | Response:
    """``(name, password)`` of a body that holds exactly those two strings."""
    extra = sorted(set(doc) - {"name", "password"})
    if extra:
        return _error(
            400, "bad_message", f"unknown field {extra[0][:40]!r}: send name and password"
        )
    name, password = doc.get("name"), doc.get("password")
    if not isinstance(name, str) or not isinstance(password, str):
        return _error(400, "bad_message", "send name and password, both as strings")
    return name, password


def _password_problem(password: str, name: str) -> str | None:
    if not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        return f"a password has {PASSWORD_MIN} to {PASSWORD_MAX} characters; got {len(password)}"
    try:
        password.encode("utf-8")
    except UnicodeEncodeError:
        return "a password must be valid Unicode text"
    if name_key(password) == name_key(name):
        return "a password may not be the name"
    return None


def account_doc(ctx: AccountsContext, account: Account, expires: float) -> dict[str, Any]:
    """What ``GET /api/account`` says: the account, its seats and its latest ledger."""
    tables = []
    for tid, runner in ctx.runners.items():
        for seat, chips in runner.account_seats(account.id):
            tables.append({"id": tid, "name": runner.config.name, "seat": seat, "chips": chips})
    ledger = [
        {
            "at": round(e.at, 3),
            "kind": e.kind,
            "amount": e.amount,
            "balance": e.balance,
            "table": e.table_id,
            "note": e.note,
        }
        for e in ctx.store.ledger(account.id, LEDGER_SHOWN)
    ]
    return {
        "v": PROTOCOL_VERSION,
        "name": account.name,
        "balance": account.balance,
        "created": round(account.created, 3),
        "session_expires": round(expires, 3),
        "tables": tables,
        "ledger": ledger,
    }


def account_routes(ctx: AccountsContext) -> list[Route]:
    """The accounts' HTTP routes."""

    def secure(request: Request) -> bool:
        return request.url.scheme == "https"

    def presented(request: Request) -> str | None:
        """The digest of the session token the request came with (valid or not)."""
        token = request.cookies.get(cookie_name(secure(request)))
        return token_key(token) if token and _well_formed(token) else None

    def logged_in(
        request: Request, account: Account, token: str, expires: float, status: int = 200
    ) -> Response:
        """The answer that sets the new session's cookie (stored already, and the session
        the request came with ended: its WebSockets are closed now)."""
        old = presented(request)
        if old is not None:
            ctx.revoke(old)
        response = JSONResponse(account_doc(ctx, account, expires), status_code=status)
        response.set_cookie(
            cookie_name(secure(request)),
            token,
            max_age=max(1, int(ctx.session_ttl)),
            path="/",
            secure=secure(request),
            httponly=True,
            samesite="strict",
        )
        return response

    async def guarded(
        request: Request, limited: bool, work: Callable[[str, str], Awaitable[Response]]
    ) -> Response:
        """A request whose body holds a name and a password (register, login): from this
        server's pages, within the rate limit if ``limited``, its two fields well-formed,
        then ``work(name as sent, password)``; a storage failure answers 503."""
        try:
            return await checked(request, limited, work)
        except StoreError as e:  # each write is one transaction: nothing was written
            log.warning("accounts: storage failed: %s", e)
            return _error(503, "server_error", "storage failed; nothing changed: try again")

    async def checked(
        request: Request, limited: bool, work: Callable[[str, str], Awaitable[Response]]
    ) -> Response:
        if not ctx.same_origin(request):
            return _error(403, "bad_origin", "this request must come from this server's pages")
        if limited and ctx.limit is not None:
            client = request.client
            wait = ctx.limit(str(client.host) if client is not None else "")
            if wait:
                return _error(
                    429,
                    "rate_limited",
                    f"too many attempts from your address: retry in {wait:.0f} s",
                    **{"retry-after": str(max(1, round(wait)))},
                )
        doc = await _json_body(request)
        if isinstance(doc, Response):
            return doc
        got = _credentials(doc)
        if isinstance(got, Response):
            return got
        return await work(*got)

    async def register(request: Request) -> Response:
        async def work(raw: str, password: str) -> Response:
            try:
                name = check_name(validate_name(raw.strip()))
            except ProtocolError as e:
                return _error(400, e.code, str(e))
            problem = _password_problem(password, name)
            if problem is not None:
                return _error(400, "bad_password", problem)
            key = name_key(name)
            if ctx.store.account_by_name(key) is not None:
                return _error(409, "name_taken", f"the name {name!r} is taken")
            encoded = await ctx.passwords.hash(password)
            token, digest = session_token()
            expires = time.time() + ctx.session_ttl
            try:  # the account and its first session, in one transaction
                account = ctx.store.create_account(
                    name, key, encoded, (digest, expires, presented(request))
                )
            except NameTakenError as e:  # registered meanwhile
                return _error(409, "name_taken", str(e))
            return logged_in(request, account, token, expires, 201)

        return await guarded(request, True, work)

    async def login(request: Request) -> Response:
        async def work(raw: str, password: str) -> Response:
            name = " ".join(raw.split())
            account = ctx.store.account_by_name(name_key(name)) if name else None
            ok = await ctx.passwords.verify(
                None if account is None else account.password_hash, password[: PASSWORD_MAX * 4]
            )
            if not ok or account is None:
                return _error(401, "bad_login", "wrong name or password")
            if ctx.passwords.needs_rehash(account.password_hash):
                ctx.store.set_password_hash(account.id, await ctx.passwords.hash(password))
            token, digest = session_token()
            expires = time.time() + ctx.session_ttl
            ctx.store.create_session(digest, account.id, expires, replaces=presented(request))
            return logged_in(request, account, token, expires)

        return await guarded(request, True, work)

    async def logout(request: Request) -> Response:
        if not ctx.same_origin(request):
            return _error(403, "bad_origin", "this request must come from this server's pages")
        old = presented(request)
        if old is not None:
            try:
                ctx.store.delete_session(old)
            except StoreError as e:
                log.warning("accounts: storage failed: %s", e)
                return _error(503, "server_error", "storage failed; still logged in: try again")
            ctx.revoke(old)
        response = JSONResponse({"v": PROTOCOL_VERSION, "logged_out": True})
        response.delete_cookie(
            cookie_name(secure(request)),
            path="/",
            secure=secure(request),
            httponly=True,
            samesite="strict",
        )
        return response

    async def account(request: Request) -> Response:
        try:
            session = session_of(ctx.store, request.cookies, secure(request))
            doc = None if session is None else account_doc(ctx, session.account, session.expires)
        except StoreError as e:
            log.warning("accounts: storage failed: %s", e)
            return _error(503, "server_error", "storage failed: try again")
        if session is None or doc is None:
            return _error(401, "login_required", "log in (or register) first")
        return JSONResponse(doc)

    async def cashier(request: Request) -> Response:
        return FileResponse(ctx.static_dir / "cashier.html", media_type="text/html")

    return [
        Route("/api/register", register, methods=["POST"]),
        Route("/api/login", login, methods=["POST"]),
        Route("/api/logout", logout, methods=["POST"]),
        Route("/api/account", account),
        Route("/cashier", cashier),
    ]
