"""Accounts of ``triple-draw serve --accounts`` (issue #23): registration, login and
logout, wrong passwords and unknown names, names, the login rate limit, session fixation,
expired sessions, CSRF, a stolen seat token without the session cookie, buy-ins from the
balance (and beyond it), cash-outs on leaving, on a freed seat, at shutdown and across a
SIGKILL and restart with the chips conserved, the admin's ``triple-draw accounts``
command, the database's schema version, and anonymous play unchanged without
``--accounts``."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any

import pytest
from browser_util import ARTIFACTS, Page, browser
from server_util import Peer, ServerProcess, client, run_async, server_settings, table

pytest.importorskip("argon2", reason="the server extra (argon2-cffi) is not installed")

from starlette.testclient import TestClient

from triple_draw.cli import main
from triple_draw.errors import MissingExtraError
from triple_draw.server import SQLiteStore, create_app
from triple_draw.server.app import ServerSettings
from triple_draw.server.store import SCHEMA_VERSION, StoreError
from triple_draw.server.tables import TableRunner, check_chips, name_key

__all__ = ["browser"]  # the fixture (browser_util.py)

PASSWORD = "correct horse battery"


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "accounts.sqlite3"


def settings(**kw: Any) -> ServerSettings:
    """The tests' server settings with accounts on and logins not rate-limited, ``kw``
    over them."""
    kw.setdefault("login_rate", 0)
    kw.setdefault("accounts", True)
    return server_settings(**kw)


def cookie(token: str) -> dict[str, str]:
    return {"cookie": f"td_session={token}"}


def register(c: TestClient, name: str, password: str = PASSWORD) -> str:
    """Register ``name``; the session token (the client's cookie jar is left empty: each
    request names its session)."""
    r = c.post("/api/register", json={"name": name, "password": password})
    assert r.status_code == 201, r.text
    token = r.cookies["td_session"]
    c.cookies.clear()
    return token


def login(c: TestClient, name: str, password: str = PASSWORD, **headers: str) -> Any:
    r = c.post("/api/login", json={"name": name, "password": password}, headers=headers)
    c.cookies.clear()
    return r


def account(c: TestClient, token: str) -> dict[str, Any]:
    r = c.get("/api/account", headers=cookie(token))
    assert r.status_code == 200, r.text
    doc: dict[str, Any] = r.json()
    return doc


def credit(db: Path, name: str, amount: int, capsys: pytest.CaptureFixture[str]) -> str:
    """The admin's command, as run from a shell (exit status 0)."""
    assert main(["accounts", "credit", name, str(amount), "--db", str(db)]) == 0
    out = capsys.readouterr().out
    return out


def funded(
    c: TestClient, db: Path, name: str, chips: int, capsys: pytest.CaptureFixture[str]
) -> str:
    """Register ``name`` and credit the account ``chips`` (the admin's command); the
    session token."""
    token = register(c, name)
    credit(db, name, chips, capsys)
    return token


def rows(db: Path, sql: str, *args: Any) -> list[Any]:
    con = sqlite3.connect(db)
    try:
        return con.execute(sql, args).fetchall()
    finally:
        con.close()


def balances(db: Path) -> dict[str, int]:
    return dict(rows(db, "SELECT name, balance FROM accounts"))


def states(db: Path) -> dict[str, dict[str, Any]]:
    return {k: json.loads(v) for k, v in rows(db, "SELECT id, state FROM tables")}


def seated(db: Path) -> list[dict[str, Any]]:
    """The seats taken at every stored table."""
    return [s for state in states(db).values() for s in state["seats"] if s is not None]


def chips_everywhere(db: Path) -> tuple[int, int]:
    """(the balances' sum, the chips at the tables as their stored states hold them)."""
    at_tables = sum(check_chips(s) for s in states(db).values())
    return sum(balances(db).values()), at_tables


def ledger(db: Path, name: str) -> list[tuple[str, int, int, str]]:
    """An account's ledger, oldest first: (kind, amount, balance after, note)."""
    return rows(
        db,
        "SELECT l.kind, l.amount, l.balance, l.note FROM ledger l JOIN accounts a "
        "ON a.id = l.account_id WHERE a.name = ? ORDER BY l.id",
        name,
    )


@contextmanager
def seat(c: TestClient, token: str | None, path: str = "/ws/t1") -> Iterator[Peer]:
    headers = cookie(token) if token else {}
    with c.websocket_connect(path, headers=headers) as ws:
        p = Peer(ws)
        assert p.hello()["type"] == "welcome"
        yield p


def sit(p: Peer, **msg: Any) -> dict[str, Any]:
    p.send(type="join", **msg)
    return p.until(lambda f: f["type"] in ("joined", "error"))


def play(peers: list[Peer], actions: int) -> None:
    """Whoever's turn it is checks, calls or stands pat, ``actions`` times."""
    done = 0
    for _ in range(400):
        if done >= actions:
            return
        for p in peers:
            p.sync()
        me = next((p for p in peers if p.my_turn()), None)
        if me is None:
            time.sleep(0.02)
            continue
        assert me.state is not None
        legal = {a["kind"]: a for a in me.state["hand"]["legal_actions"]}
        if "check" in legal:
            action: dict[str, Any] = {"kind": "check"}
        elif "call" in legal:
            action = {"kind": "call"}
        else:
            action = {"kind": "discard", "cards": []}
        assert me.act(action)["type"] == "ack"
        done += 1
    raise AssertionError(f"only {done} of {actions} actions were played")


def until(pred: Any, seconds: float = 15.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if pred():
            return
        time.sleep(0.05)
    raise AssertionError("the expected state never came")


# -- registration, login, logout ----------------------------------------------------------------


def test_register_login_logout_and_the_cookie_policy(db: Path) -> None:
    with client(db, [table(bots=0)], settings()) as c:
        r = c.post("/api/register", json={"name": "  Ann  ", "password": PASSWORD})
        assert r.status_code == 201
        assert r.json()["name"] == "Ann" and r.json()["balance"] == 0
        set_cookie = r.headers["set-cookie"]
        attrs = [a.strip().lower() for a in set_cookie.split(";")]
        assert attrs[0].startswith("td_session=")
        assert {"httponly", "path=/", "samesite=strict", "max-age=604800"} <= set(attrs)
        assert "secure" not in attrs  # plain http: a Secure cookie would never come back
        first = r.cookies["td_session"]
        c.cookies.clear()
        assert account(c, first)["name"] == "Ann"
        # the database keeps the session's digest, never the token
        assert rows(db, "SELECT count(*) FROM sessions WHERE digest = ?", first) == [(0,)]
        assert len(rows(db, "SELECT digest FROM sessions")) == 1

        r = login(c, "ann")  # (the name's case does not matter)
        assert r.status_code == 200 and r.json()["name"] == "Ann"
        second = r.cookies["td_session"]
        assert second != first
        assert account(c, first)["name"] == account(c, second)["name"] == "Ann"

        r = c.post("/api/logout", headers=cookie(second))
        assert r.status_code == 200
        assert "max-age=0" in r.headers["set-cookie"].lower().replace(" ", "")
        c.cookies.clear()
        assert c.get("/api/account", headers=cookie(second)).status_code == 401
        assert c.get("/api/account", headers=cookie(first)).status_code == 200  # another login
        assert c.get("/api/account").json()["code"] == "login_required"
        # the hash is argon2id's, with the library's parameters
        (encoded,) = rows(db, "SELECT password_hash FROM accounts")[0]
        assert encoded.startswith("$argon2id$v=19$m=65536,t=3,p=4$")
        assert PASSWORD not in encoded


def test_over_https_the_cookie_is_secure_and_host_only(db: Path) -> None:
    app = create_app([table(bots=0)], SQLiteStore(db), settings())
    with TestClient(app, base_url="https://testserver") as c:
        r = c.post("/api/register", json={"name": "Ann", "password": PASSWORD})
        assert r.status_code == 201
        attrs = [a.strip().lower() for a in r.headers["set-cookie"].split(";")]
        assert attrs[0].startswith("__host-td_session=") and "secure" in attrs
        token = r.cookies["__Host-td_session"]
        c.cookies.clear()
        ok = c.get("/api/account", headers={"cookie": f"__Host-td_session={token}"})
        assert ok.status_code == 200
        # the http cookie's name means nothing over https
        assert c.get("/api/account", headers=cookie(token)).status_code == 401


def test_wrong_password_and_unknown_name_get_the_same_answer_and_the_same_work(
    db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import argon2

    verified: list[str] = []
    real = argon2.PasswordHasher.verify

    def counting(self: Any, encoded: str, password: str) -> bool:
        verified.append(encoded)
        return bool(real(self, encoded, password))

    monkeypatch.setattr(argon2.PasswordHasher, "verify", counting)
    with client(db, [table(bots=0)], settings()) as c:
        register(c, "Ann")
        (ann_hash,) = rows(db, "SELECT password_hash FROM accounts")[0]
        wrong = login(c, "Ann", "not the password")
        unknown = login(c, "Nobody", PASSWORD)
        malformed = login(c, "a<b>", PASSWORD)  # could never be a name
        for r in (wrong, unknown, malformed):
            assert r.status_code == 401
            assert r.json() == {
                "v": 1,
                "type": "error",
                "code": "bad_login",
                "message": "wrong name or password",
            }
            assert "set-cookie" not in r.headers
        # every attempt verified a password against an argon2 hash: Ann's, then the dummy
        assert len(verified) == 3
        assert verified[0] == ann_hash
        assert verified[1] == verified[2] != ann_hash
        assert verified[1].startswith("$argon2id$v=19$m=65536,t=3,p=4$")
        assert rows(db, "SELECT count(*) FROM sessions") == [(1,)]  # the registration's
        assert login(c, "Ann").status_code == 200


def test_duplicate_and_bad_names_and_bad_passwords_are_refused_and_nothing_is_stored(
    db: Path,
) -> None:
    with client(db, [table(bots=0)], settings()) as c:
        register(c, "Ann")
        cases = [
            ({"name": "ANN", "password": PASSWORD}, 409, "name_taken"),
            ({"name": "Ａnn", "password": PASSWORD}, 409, "name_taken"),  # compatibility form
            ({"name": " ann ", "password": PASSWORD}, 409, "name_taken"),
            ({"name": "", "password": PASSWORD}, 400, "bad_name"),
            ({"name": "   ", "password": PASSWORD}, 400, "bad_name"),
            ({"name": "x" * 25, "password": PASSWORD}, 400, "bad_name"),
            ({"name": "a<b", "password": PASSWORD}, 400, "bad_name"),
            ({"name": "zero\u200bwidth", "password": PASSWORD}, 400, "bad_name"),
            ({"name": "Bot 3", "password": PASSWORD}, 400, "bad_name"),
            ({"name": "Ann (bot)", "password": PASSWORD}, 400, "bad_name"),
            ({"name": "Bob", "password": "short"}, 400, "bad_password"),
            ({"name": "Bob", "password": "x" * 257}, 400, "bad_password"),
            ({"name": "Bobby Tables", "password": "bobby tables"}, 400, "bad_password"),
            ({"name": "Bob"}, 400, "bad_message"),
            ({"name": "Bob", "password": 12345678}, 400, "bad_message"),
            ({"name": "Bob", "password": PASSWORD, "admin": True}, 400, "bad_message"),
        ]
        for body, status, code in cases:
            r = c.post("/api/register", json=body)
            assert (r.status_code, r.json()["code"]) == (status, code), body
            assert r.json()["message"], body
            assert "set-cookie" not in r.headers
        lone = b'{"name": "Bob", "password": "' + b"\\ud800" * 9 + b'"}'  # JSON escapes
        r = c.post("/api/register", content=lone, headers={"content-type": "application/json"})
        assert (r.status_code, r.json()["code"]) == (400, "bad_password")
        for raw, ctype, status in [
            (b"not json", "application/json", 400),
            (b"[1, 2]", "application/json", 400),
            (b'{"name": "Bob", "password": "' + b"x" * 5000 + b'"}', "application/json", 413),
            (b"name=Bob&password=correct+horse", "application/x-www-form-urlencoded", 415),
        ]:
            r = c.post("/api/register", content=raw, headers={"content-type": ctype})
            assert r.status_code == status, raw[:20]
            assert r.json()["type"] == "error"
        assert balances(db) == {"Ann": 0}
        assert rows(db, "SELECT count(*) FROM sessions") == [(1,)]


def test_a_storage_failure_is_a_clear_error_and_changes_nothing(
    db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with client(db, [table(bots=0)], settings()) as c:
        register(c, "Ann")

        def broken(*args: Any, **kw: Any) -> None:
            raise sqlite3.OperationalError("disk I/O error")

        monkeypatch.setattr(SQLiteStore, "_put_session", staticmethod(broken))
        r = c.post("/api/register", json={"name": "Bob", "password": PASSWORD})
        assert r.status_code == 503 and r.json()["code"] == "server_error"
        assert "set-cookie" not in r.headers
        r = login(c, "Ann")
        assert r.status_code == 503 and "set-cookie" not in r.headers
        # the account and its session are one transaction: Bob was not half registered
        assert balances(db) == {"Ann": 0}
        assert rows(db, "SELECT count(*) FROM sessions") == [(1,)]
        monkeypatch.undo()
        assert (
            c.post("/api/register", json={"name": "Bob", "password": PASSWORD}).status_code == 201
        )


def test_logins_and_registrations_are_rate_limited_per_address(db: Path) -> None:
    with client(db, [table(bots=0)], settings(login_rate=12)) as c:  # bursts of 2
        codes = [login(c, "Nobody", PASSWORD).status_code for _ in range(3)]
        assert codes == [401, 401, 429]
        r = c.post("/api/register", json={"name": "Ann", "password": PASSWORD})
        assert r.status_code == 429 and r.json()["code"] == "rate_limited"
        assert int(r.headers["retry-after"]) >= 1
        assert balances(db) == {}  # the refused registration stored nothing
        # logging out is never limited
        assert c.post("/api/logout").status_code == 200


def test_state_changing_requests_from_another_site_are_refused(db: Path) -> None:
    with client(db, [table(bots=0)], settings()) as c:
        body = {"name": "Ann", "password": PASSWORD}
        for headers in (
            {"origin": "http://evil.example"},
            {"origin": "null"},
            {"sec-fetch-site": "cross-site"},
            {"sec-fetch-site": "same-site"},
        ):
            r = c.post("/api/register", json=body, headers=headers)
            assert r.status_code == 403 and r.json()["code"] == "bad_origin", headers
        assert balances(db) == {}
        ok = {"origin": "http://testserver", "sec-fetch-site": "same-origin"}
        r = c.post("/api/register", json=body, headers=ok)
        assert r.status_code == 201
        token = r.cookies["td_session"]
        c.cookies.clear()
        r = c.post("/api/logout", headers={**cookie(token), "origin": "http://evil.example"})
        assert r.status_code == 403
        assert account(c, token)["name"] == "Ann"  # a foreign page cannot log Ann out


# -- sessions ------------------------------------------------------------------------------------


def test_login_never_promotes_the_session_the_client_came_with(db: Path) -> None:
    """Session fixation: a cookie planted before the login - made up, or a real session
    of the attacker's own account - is never the session after it."""
    with client(db, [table(bots=0)], settings()) as c:
        mallory = register(c, "Mallory")
        register(c, "Ann")
        planted = "A" * 43
        r = login(c, "Ann", **cookie(planted))
        assert r.status_code == 200
        fresh = r.cookies["td_session"]
        assert fresh != planted
        assert c.get("/api/account", headers=cookie(planted)).status_code == 401
        assert account(c, fresh)["name"] == "Ann"

        # Mallory's own live session planted in Ann's browser: the login ends it
        with c.websocket_connect("/ws/t1", headers=cookie(mallory)) as ws:
            p = Peer(ws)
            p.hello()
            r = login(c, "Ann", **cookie(mallory))
            assert r.status_code == 200
            ann = r.cookies["td_session"]
            assert ann not in (mallory, fresh)
            assert c.get("/api/account", headers=cookie(mallory)).status_code == 401
            assert account(c, ann)["name"] == "Ann"
            # and the WebSocket opened with the ended session is told and closed
            f = p.until(lambda f: f["type"] == "error")
            assert f["code"] == "logged_out"
            with pytest.raises(ConnectionError):
                p.until(lambda f: False)


def test_logout_closes_the_sessions_websockets(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with client(db, [table(bots=0)], settings()) as c:
        ann = funded(c, db, "Ann", 300, capsys)
        with seat(c, ann) as p:
            assert sit(p)["type"] == "joined"
            assert c.post("/api/logout", headers=cookie(ann)).status_code == 200
            assert p.until(lambda f: f["type"] == "error")["code"] == "logged_out"
            with pytest.raises(ConnectionError):
                p.until(lambda f: False)
        # the seat stays (its chips at the table) until Ann comes back or it is freed
        assert chips_everywhere(db) == (200, 100)


def test_an_expired_session_is_refused_everywhere(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with client(db, [table(bots=0)], settings(session_ttl=1.0)) as c:
        r = c.post("/api/register", json={"name": "Ann", "password": PASSWORD})
        assert "max-age=1" in r.headers["set-cookie"].lower().replace(" ", "")
        ann = r.cookies["td_session"]
        c.cookies.clear()
        credit(db, "Ann", 300, capsys)
        assert account(c, ann)["balance"] == 300
        with seat(c, ann) as early:  # opened while the session was live
            time.sleep(1.3)
            assert c.get("/api/account", headers=cookie(ann)).status_code == 401
            f = sit(early)
            assert f["type"] == "error" and f["code"] == "login_required"
        with seat(c, ann) as late:
            f = sit(late)
            assert f["type"] == "error" and f["code"] == "login_required"
        assert balances(db) == {"Ann": 300}
        assert seated(db) == []
        # a new login works
        assert login(c, "Ann").status_code == 200


# -- seats: the session, the buy-in, the seat token -------------------------------------------


def test_sitting_down_needs_a_session_and_the_buy_in_comes_from_the_balance(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with client(db, [table(bots=0, buy_in=100, min_buy_in=20)], settings()) as c:
        info = c.get("/api/tables").json()
        assert info["accounts"] is True
        assert (info["tables"][0]["buy_in"], info["tables"][0]["min_buy_in"]) == (100, 20)
        ann = register(c, "Ann")
        with seat(c, None) as anonymous:
            f = sit(anonymous, name="Ann")
            assert f["code"] == "login_required"
        credit(db, "Ann", 50, capsys)
        with seat(c, ann) as p:
            for msg, code in [
                ({}, "insufficient_funds"),  # the default is the table's buy-in: 100
                ({"buy_in": 60}, "insufficient_funds"),
                ({"buy_in": 19}, "bad_buy_in"),
                ({"buy_in": 101}, "bad_buy_in"),
                ({"buy_in": 50, "name": "Bob"}, "bad_name"),
            ]:
                f = sit(p, **msg)
                assert f["type"] == "error" and f["code"] == code, msg
                assert f["message"]
            assert "holds 50 chips" in sit(p)["message"]
            # nothing changed
            assert balances(db) == {"Ann": 50}
            assert [k for k, *_ in ledger(db, "Ann")] == ["credit"]
            assert seated(db) == []

            f = sit(p, buy_in=50, name="ann")
            assert f["type"] == "joined"
            p.sync()
            assert p.state is not None
            me = p.state["seats"][f["seat"]]
            assert (me["name"], me["stack"]) == ("Ann", 50)
            assert balances(db) == {"Ann": 0}
            assert ledger(db, "Ann") == [("credit", 50, 50, ""), ("buy_in", -50, 0, "")]
            assert chips_everywhere(db) == (0, 50)
            doc = account(c, ann)
            assert doc["tables"] == [
                {"id": "t1", "name": "Table t1", "seat": f["seat"], "chips": 50}
            ]
            # one seat per account at a table, even from another connection
            with seat(c, ann) as again:
                credit(db, "Ann", 100, capsys)
                f = sit(again, buy_in=20)
                assert f["type"] == "error" and f["code"] == "not_allowed"
            assert balances(db) == {"Ann": 100}


def test_a_balance_that_falls_short_meanwhile_refuses_the_buy_in_atomically(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The balance is checked again in the transaction that stores the seat: an admin's
    debit between the check and the write refuses the buy-in, and nothing changes."""
    with client(db, [table(bots=0)], settings()) as c:
        ann = funded(c, db, "Ann", 100, capsys)
        runner = c.app.state.runners["t1"]  # type: ignore[attr-defined]
        runner._check_balance = lambda *a: None  # the stale check: it sees enough
        credit(db, "Ann", -70, capsys)
        with seat(c, ann) as p:
            f = sit(p, buy_in=100)
            assert f["type"] == "error" and f["code"] == "insufficient_funds"
            p.sync()
            assert p.state is not None and p.state["seat"] is None
            assert all(s is None for s in p.state["seats"])
            assert runner.chips_in == 0 and runner._moves == []
            assert balances(db) == {"Ann": 30}
            f = sit(p, buy_in=30)
            assert f["type"] == "joined"
            assert chips_everywhere(db) == (0, 30)


def test_a_stolen_seat_token_without_the_session_cookie_is_refused(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with client(db, [table(bots=0)], settings()) as c:
        ann = funded(c, db, "Ann", 300, capsys)
        bob = register(c, "Bob")
        with seat(c, ann) as owner:
            token = sit(owner)["token"]
            for who in (None, bob):
                with c.websocket_connect("/ws/t1", headers=cookie(who) if who else {}) as ws:
                    thief = Peer(ws)
                    f = thief.hello(token)
                    assert f["type"] == "error"
                    assert f["code"] == ("login_required" if who is None else "bad_token")
                    thief.sync()
                    assert thief.seat is None
                    f = sit(thief, name="Ann")  # nor can he sit down as Ann
                    assert f["type"] == "error"
            # the owner still plays his seat: nothing replaced it
            owner.sync()
            assert owner.seat is not None
            assert not [f for f in owner.frames if f["type"] == "error"]
            # the hands' download too wants the seat's account
            auth = {"authorization": f"Bearer {token}"}
            r = c.get("/api/history", headers=auth)
            assert r.status_code == 401 and r.json()["code"] == "login_required"
            r = c.get("/api/history", headers={**auth, **cookie(bob)})
            assert r.status_code == 403 and r.json()["code"] == "bad_token"
            r = c.get("/api/history", headers={**auth, **cookie(ann)})
            assert r.status_code == 404  # Ann's own: no finished hand yet
            # the owner's session in another window takes the seat back, as without accounts
            with c.websocket_connect("/ws/t1", headers=cookie(ann)) as ws:
                other = Peer(ws)
                assert other.hello(token)["type"] == "welcome"
                assert owner.until(lambda f: f["type"] == "error")["code"] == "replaced"
            assert balances(db) == {"Ann": 200, "Bob": 0}
        assert chips_everywhere(db) == (200, 100)
    # (the shutdown cashed Ann out)
    assert balances(db) == {"Ann": 300, "Bob": 0}


# -- cash-outs -------------------------------------------------------------------------------


def test_leaving_cashes_out_to_the_account_and_chips_are_conserved(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with client(db, [table(bots=0, buy_in=100)], settings()) as c:
        ann, bob = funded(c, db, "Ann", 300, capsys), funded(c, db, "Bob", 300, capsys)
        with seat(c, ann) as a:
            sit(a, buy_in=100)
            a.send(type="leave")
            a.until(lambda f: f["type"] == "left")
            assert balances(db)["Ann"] == 300
            assert ledger(db, "Ann")[-2:] == [
                ("buy_in", -100, 200, ""),
                ("cash_out", 100, 300, "left the table"),
            ]
            with seat(c, bob) as b:
                sit(a, buy_in=80)
                sit(b)
                play([a, b], 5)
                assert sum(chips_everywhere(db)) == 600
                balance, at_table = chips_everywhere(db)
                assert (balance, at_table) == (420, 180)
                for p in (a, b):
                    p.send(type="leave")
                    p.until(lambda f: f["type"] == "left")
                # (their turns are folded: the hand ends and both are cashed out)
                until(lambda: chips_everywhere(db) == (600, 0))
        got = balances(db)
        assert got["Ann"] + got["Bob"] == 600
        for name in ("Ann", "Bob"):  # every ledger adds up to its balance
            entries = ledger(db, name)
            assert sum(amount for _, amount, _, _ in entries) == got[name] == entries[-1][2]
        assert account(c, ann)["tables"] == []


def test_a_rebuy_is_paid_from_the_balance(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with client(db, [table(bots=0, buy_in=100, min_buy_in=20)], settings()) as c:
        ann = funded(c, db, "Ann", 90, capsys)
        with seat(c, ann) as p:
            sit(p, buy_in=40)
            p.send(type="rebuy")  # a top-up of 60: the balance holds 50
            f = p.until(lambda f: f["type"] == "error")
            assert f["code"] == "insufficient_funds" and "60" in f["message"]
            assert balances(db) == {"Ann": 50} and chips_everywhere(db) == (50, 40)
            credit(db, "Ann", 10, capsys)
            p.send(type="rebuy")
            p.sync()
            assert p.state is not None and p.state["seats"][p.seat]["stack"] == 100
            assert balances(db) == {"Ann": 0} and chips_everywhere(db) == (0, 100)
            assert ledger(db, "Ann")[-1] == ("top_up", -60, 0, "")


def test_a_freed_seat_is_cashed_out_to_the_account(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with client(db, [table(bots=0, seat_timeout=0.3)], settings()) as c:
        ann = funded(c, db, "Ann", 300, capsys)
        with seat(c, ann) as p:
            sit(p, buy_in=100)
        assert balances(db) == {"Ann": 200}
        until(lambda: balances(db) == {"Ann": 300})
        kind, amount, balance, note = ledger(db, "Ann")[-1]
        assert (kind, amount, balance) == ("cash_out", 100, 300)
        assert note == "seat freed: disconnected for more than 0.3 s"
        assert chips_everywhere(db) == (300, 0)


def test_a_shutdown_cashes_out_between_hands_and_a_hand_in_progress_resumes(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with client(db, [table(bots=0)], settings()) as c:
        ann, bob = funded(c, db, "Ann", 300, capsys), funded(c, db, "Bob", 300, capsys)
        with seat(c, ann) as a:
            sit(a, buy_in=100)
    # between hands: back to the account
    assert balances(db) == {"Ann": 300, "Bob": 300}
    assert ledger(db, "Ann")[-1] == ("cash_out", 100, 300, "server shutdown")
    assert all(s is None for s in states(db)["t1"]["seats"])

    with client(db, [table(bots=0)], settings()) as c:
        ann = login(c, "Ann").cookies["td_session"]
        bob = login(c, "Bob").cookies["td_session"]
        with seat(c, ann) as a, seat(c, bob) as b:
            sit(a, buy_in=100)
            sit(b, buy_in=100)
            play([a, b], 1)
    # a hand in progress: the seats stay, and the chips are at the table
    state = states(db)["t1"]
    assert state["hand"] is not None and not state["hand"]["settled"]
    assert chips_everywhere(db) == (400, 200)
    # after the restart nobody comes back: their seats are freed, the hand is played out
    with client(db, [table(bots=0, seat_timeout=0.3)], settings()):
        until(lambda: chips_everywhere(db) == (600, 0))
    notes = [n for _, _, _, n in ledger(db, "Ann") + ledger(db, "Bob")]
    assert notes.count("seat freed: disconnected for more than 0.3 s") == 2


def _post(url: str, path: str, body: dict[str, Any], token: str | None = None) -> Any:
    headers = {"content-type": "application/json"}
    if token:
        headers["cookie"] = f"td_session={token}"
    req = urllib.request.Request(url + path, json.dumps(body).encode(), headers, method="POST")
    with urllib.request.urlopen(req, timeout=30) as r:
        jar = SimpleCookie(r.headers["set-cookie"] or "")
        return r.status, json.loads(r.read()), jar["td_session"].value if jar else None


def test_chips_are_conserved_across_sigkill_and_restart(tmp_path: Path) -> None:
    """Two accounts play heads-up on a real server that is killed (SIGKILL) twice
    mid-play and restarted on the same database: at every kill the balances plus the
    chips at the table are the credits, and after the players go away and their seats
    are freed every chip is back in the balances, each cashed out once."""
    from triple_draw.server.botclient import BotClient

    db = tmp_path / "kill.sqlite3"
    args = ("--accounts", "--tables", "1", "--seats", "2", "--bots", "0", "--hand-pause", "0")
    args += ("--buy-in", "100", "--rate", "1000", "--seat-timeout", "2", "--login-rate", "0")
    server = ServerProcess(db, *args)
    tokens = {}
    for name in ("Ann", "Bob"):
        status, doc, tokens[name] = _post(
            server.url, "/api/register", {"name": name, "password": PASSWORD}
        )
        assert status == 201 and doc["name"] == name
        assert main(["accounts", "credit", name, "250", "--db", str(db)]) == 0
    port = server.port

    async def run() -> None:
        nonlocal server
        clients = [
            BotClient(
                server.ws_url,
                "t1",
                name,
                "call",
                seed=k,
                headers={"Cookie": f"td_session={tokens[name]}"},
            )
            for k, name in enumerate(tokens)
        ]
        stop = asyncio.Event()
        tasks = [asyncio.create_task(c.run(stop, retry=0.1)) for c in clients]
        try:
            for _ in range(2):
                for _ in range(200):  # until a few hands were played
                    await asyncio.sleep(0.05)
                    if sum(c.stats.actions for c in clients) >= 6:
                        break
                await asyncio.sleep(0.2)
                server.kill()
                assert sum(chips_everywhere(db)) == 500
                assert balances(db) == {"Ann": 150, "Bob": 150}  # both still seated
                server = await asyncio.to_thread(ServerProcess, db, *args, port=port)
                for c in clients:
                    c.stats.actions = 0
            await asyncio.sleep(0.5)
        finally:
            stop.set()
            await asyncio.gather(*tasks)
        for c in clients:
            assert not [e for e in c.stats.errors if e["code"] not in ("stale", "replaced")]

    try:
        run_async(run())
        # nobody comes back: after --seat-timeout both are freed and cashed out
        until(lambda: chips_everywhere(db) == (500, 0), 30)
    finally:
        server.stop()
    got = balances(db)
    assert sum(got.values()) == 500
    for name in ("Ann", "Bob"):
        entries = ledger(db, name)
        assert [k for k, *_ in entries].count("cash_out") == 1
        assert [k for k, *_ in entries].count("buy_in") == 1
        assert sum(amount for _, amount, _, _ in entries) == got[name] == entries[-1][2]


# -- the admin's command -------------------------------------------------------------------------


def test_the_admin_command_credits_debits_lists_and_refuses_bad_arguments(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "admin.sqlite3"
    store = SQLiteStore(db)
    store.create_account("Ann", name_key("Ann"), "$argon2id$not-a-real-hash")
    store.create_account("Bob", name_key("Bob"), "$argon2id$not-a-real-hash")
    store.close()
    path = str(db)

    assert credit(db, "Ann", 500, capsys) == "Ann: +500 chips (credit); balance 500\n"
    assert main(["accounts", "credit", "ANN", "-200", "--db", path, "--note", "refund"]) == 0
    assert capsys.readouterr().out == "Ann: -200 chips (debit); balance 300\n"
    assert ledger(db, "Ann") == [("credit", 500, 500, ""), ("debit", -200, 300, "refund")]

    bad = [
        (["credit", "Ann", "-301"], "Ann has 300 chips: a debit of 301 would leave -1"),
        (["credit", "Nobody", "5"], "no account named 'Nobody'"),
        (["credit", "Ann", "0"], "argument AMOUNT: 0 chips credit nothing"),
        (["credit", "Ann", "ten"], "argument AMOUNT: expected a whole number of chips"),
        (["credit", "Ann", "1.5"], "argument AMOUNT: expected a whole number of chips"),
        (["credit", "Ann", str(10**13)], "one credit moves at most 1000000000000 chips"),
        (["credit", "Ann"], "the following arguments are required: AMOUNT"),
        (["credit", "Ann", "5", "--note", "x" * 201], "--note: at most 200 characters"),
        (["ledger", "Ann", "--limit", "0"], "argument --limit: 0 is not between 1 and 100000"),
        (["launder"], "invalid choice: 'launder'"),
    ]
    for argv, says in bad:
        assert main(["accounts", *argv, "--db", path]) == 2, argv
        err = capsys.readouterr().err
        assert says in err, (argv, err)
        assert err.count("\n") == 1 and "Traceback" not in err, argv
    for argv, says in [
        (["accounts"], "the following arguments are required: ACTION"),
        (["accounts", "list", "--db", str(tmp_path / "missing.sqlite3")], "no database at"),
    ]:
        assert main(argv) == 2, argv
        err = capsys.readouterr().err
        assert says in err, (argv, err)
        assert err.count("\n") == 1 and "Traceback" not in err, argv
    assert not (tmp_path / "missing.sqlite3").exists()  # (not created by a typo)
    assert balances(db) == {"Ann": 300, "Bob": 0}
    assert len(ledger(db, "Ann")) == 2

    assert main(["accounts", "list", "--db", path]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].split() == ["name", "balance", "created", "seated"]
    assert out[1].split()[:2] == ["Ann", "300"] and out[2].split()[:2] == ["Bob", "0"]
    assert main(["accounts", "list", "--db", path, "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert [(a["name"], a["balance"], a["seated"]) for a in doc["accounts"]] == [
        ("Ann", 300, []),
        ("Bob", 0, []),
    ]
    assert main(["accounts", "ledger", "ann", "--db", path, "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["balance"] == 300
    assert [(e["kind"], e["amount"]) for e in doc["ledger"]] == [("debit", -200), ("credit", 500)]


def test_the_admin_command_lists_where_accounts_are_seated(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with client(db, [table(bots=0)], settings()) as c:
        ann = funded(c, db, "Ann", 300, capsys)
        with seat(c, ann) as p:
            n = sit(p, seat=2)["seat"]
            assert main(["accounts", "list", "--db", str(db), "--json"]) == 0
            doc = json.loads(capsys.readouterr().out)
            assert doc["accounts"][0]["seated"] == [f"t1/{n + 1}"]
            assert doc["accounts"][0]["balance"] == 200


# -- the database, the extra, anonymous play -------------------------------------------------------


def test_an_older_database_gains_the_account_tables_and_a_newer_one_is_refused(
    tmp_path: Path,
) -> None:
    db = tmp_path / "old.sqlite3"
    con = sqlite3.connect(db)  # a database of the version before accounts (user_version 0)
    con.executescript(
        "CREATE TABLE tables (id TEXT PRIMARY KEY, state TEXT NOT NULL, updated REAL NOT NULL);"
        "INSERT INTO tables VALUES ('t9', '{\"x\": 1}', 0);"
    )
    con.close()
    SQLiteStore(db).close()
    assert rows(db, "PRAGMA user_version") == [(SCHEMA_VERSION,)] and SCHEMA_VERSION == 1
    names = {n for (n,) in rows(db, "SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"accounts", "sessions", "ledger", "account_seats", "hands", "tables"} <= names
    assert rows(db, "SELECT state FROM tables") == [('{"x": 1}',)]  # kept as it was

    con = sqlite3.connect(db)
    con.execute("PRAGMA user_version = 2")
    con.close()
    with pytest.raises(StoreError, match="schema version 2, written by a newer triple_draw"):
        SQLiteStore(db)


def test_without_accounts_a_database_with_seated_accounts_is_refused(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with client(db, [table(bots=0)], settings()) as c:
        ann = funded(c, db, "Ann", 300, capsys)
        with seat(c, ann) as a:
            sit(a, buy_in=100)
            # a hand in progress keeps the seat through the shutdown: make one
            bob = funded(c, db, "Bob", 300, capsys)
            with seat(c, bob) as b:
                sit(b, buy_in=100)
                play([a, b], 1)
    assert chips_everywhere(db) == (400, 200)
    store = SQLiteStore(db)
    with pytest.raises(StoreError, match="serve it with --accounts"):
        TableRunner(table(bots=0), store, store.load_tables()["t1"])
    store.close()
    capsys.readouterr()
    assert main(["serve", "--db", str(db), "--port", "0", "--tables", "1", "--bots", "0"]) == 2
    err = capsys.readouterr().err
    assert "players of accounts are seated at table t1" in err and err.count("\n") == 1


def test_accounts_without_argon2_is_a_missing_extra_in_one_line(
    db: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "argon2", None)  # import argon2 -> ImportError
    store = SQLiteStore(db)
    with pytest.raises(MissingExtraError, match=r"pip install 'triple_draw\[server\]'"):
        create_app([table()], store, settings())
    store.close()
    assert main(["serve", "--accounts", "--db", str(db), "--port", "0"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("triple-draw serve: error: accounts hash their passwords with argon2")
    assert err.count("\n") == 1


def test_without_accounts_nothing_of_them_is_served_and_play_is_anonymous(db: Path) -> None:
    with client(db, [table(bots=0)]) as c:
        assert c.get("/api/tables").json()["accounts"] is False
        for path in ("/api/register", "/api/login", "/api/logout"):
            assert c.post(path, json={"name": "Ann", "password": PASSWORD}).status_code == 404
        assert c.get("/api/account").status_code == 404
        assert c.get("/cashier").status_code == 404
        with c.websocket_connect("/ws/t1") as ws:
            p = Peer(ws)
            p.hello()
            f = sit(p)
            assert f["type"] == "error" and f["code"] == "bad_message" and "name" in f["message"]
            f = sit(p, name="Ann", buy_in=60)
            assert f["type"] == "joined"
            p.sync()
            assert p.state is not None and p.state["seats"][f["seat"]]["stack"] == 60
    assert "account" not in json.dumps(states(db)["t1"]["seats"])
    assert balances(db) == {}


# -- the cashier in a browser --------------------------------------------------------------------


def test_a_player_registers_is_credited_buys_in_plays_leaves_and_sees_his_balance(
    browser: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Headless Chromium: register at the cashier, get credited by the admin's command,
    choose a buy-in at the table, play a hand against a bot, leave, and find the balance
    and the cash-out at the cashier - the very figures of the database."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    db = tmp_path / "cashier.sqlite3"
    args = ("--accounts", "--tables", "1", "--seats", "2", "--bots", "1", "--buy-in", "200")
    server = ServerProcess(db, *args, "--bot-delay", "0", "--hand-pause", "1")
    try:
        me = Page(browser, server.url + "/cashier")
        p = me.page
        p.wait_for_selector("#guest:not([hidden])")
        p.fill("#register-name", "Ann")
        p.fill("#register-password", PASSWORD)
        p.click("#register-btn")
        p.wait_for_selector("#member:not([hidden])")
        assert p.inner_text("#balance") == "0"
        # the session is an HttpOnly cookie: the page's script cannot read it
        assert p.evaluate("document.cookie") == ""
        (jar,) = me.ctx.cookies()
        assert (jar["name"], jar["httpOnly"], jar["sameSite"]) == ("td_session", True, "Strict")

        assert main(["accounts", "credit", "Ann", "500", "--db", str(db)]) == 0
        capsys.readouterr()
        p.reload()
        p.wait_for_selector("#member:not([hidden])")
        assert p.inner_text("#balance") == "500"
        assert "40 to 200" in p.inner_text("#table-rows")

        p.click("#table-rows a")  # Sit down: the table's page
        p.wait_for_selector("#join-buyin:not([hidden])")
        assert p.input_value("#join-name") == "Ann"
        assert p.get_attribute("#join-name", "readonly") is not None
        assert p.input_value("#join-buyin") == "200"
        p.fill("#join-buyin", "150")
        p.click("#join-btn")
        p.wait_for_selector("#seat-controls:not([hidden])")
        p.wait_for_function(
            "document.getElementById('cashier-link').textContent.includes('350 chips')"
        )
        assert balances(db) == {"Ann": 350}

        first_hand = None
        for _ in range(600):  # play until the first hand is over: check or call, stand pat
            states_seen = [f for f in me.frames if f["type"] == "state" and f["hand"]]
            if states_seen:
                h = states_seen[-1]["hand"]
                first_hand = first_hand or h["id"]
                if h["id"] != first_hand or h["phase"] == "over":
                    break
            turn = me.my_turn()
            if turn == "bet":
                p.click("#btn-call")
            elif turn == "draw":
                p.click("#btn-draw")
            p.wait_for_timeout(50)
        else:
            raise AssertionError("the first hand never ended")
        p.screenshot(path=str(ARTIFACTS / "accounts-table.png"))
        p.on("dialog", lambda d: d.accept())  # (leaving during a hand asks first)
        p.click("#btn-leave")
        p.wait_for_selector("#join-form:not([hidden])")

        def cashed_out() -> bool:
            return [k for k, *_ in ledger(db, "Ann")][-1:] == ["cash_out"]

        until(cashed_out)
        kind, amount, balance, note = ledger(db, "Ann")[-1]
        assert (kind, note) == ("cash_out", "left the table") and balance == 350 + amount
        assert 0 < amount <= 150 + 200  # (at most every chip of the table: hers and the bot's)

        p.goto(server.url + "/cashier")
        p.wait_for_selector("#member:not([hidden])")
        assert p.inner_text("#balance") == str(balance)
        rows = p.locator("#ledger-rows tr")
        assert rows.count() == 3
        assert rows.nth(0).inner_text().split("\t")[1:5] == [
            "cash-out",
            f"+{amount}",
            str(balance),
            "t1",
        ]
        assert rows.nth(1).inner_text().split("\t")[1:4] == ["buy-in", "-150", "350"]
        assert rows.nth(2).inner_text().split("\t")[1:4] == ["credit", "+500", "500"]
        assert "none: you are at no table" in p.inner_text("#seats-list")
        p.screenshot(path=str(ARTIFACTS / "cashier.png"), full_page=True)

        p.click("#logout-btn")
        p.wait_for_selector("#guest:not([hidden])")
        assert me.ctx.cookies() == []
        assert not me.errors
    finally:
        server.stop()
