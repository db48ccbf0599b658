"""The table server against squatters and attackers (issue #23): bad input that used to
raise in a handler, names, a seat token presented twice, seats of absent players freed,
the per-address and per-table limits, fan-out of spectators, the Host check and the
page's CSP, and the paginated, rate-limited history download."""

from __future__ import annotations

import json
import logging
import sqlite3
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import pytest
from server_util import Peer, client, server_settings, table
from starlette.websockets import WebSocketDisconnect

from triple_draw import Rules, phh
from triple_draw.server.replayer import replay_document
from triple_draw.server.tables import check_chips


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "tables.sqlite3"


def stored(db: Path) -> dict[str, Any]:
    con = sqlite3.connect(db)
    try:
        return {k: json.loads(v) for k, v in con.execute("SELECT id, state FROM tables")}
    finally:
        con.close()


@contextmanager
def peers(c: Any, n: int, path: str = "/ws/t1") -> Iterator[list[Peer]]:
    with ExitStack() as stack:
        yield [Peer(stack.enter_context(c.websocket_connect(path))) for _ in range(n)]


# -- bad input --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "raw, says",
    [
        ('{"v":1,"type":"join","name":"Ann","seat":5.0}', "$.seat must be an integer"),
        ('{"v":1,"type":"join","name":"Ann","seat":1.0}', "$.seat must be an integer"),
        ('{"v":1,"type":"join","name":"Ann","seat":' + "[" * 1000 + "]" * 1000 + "}", "nested"),
        ("[" * 1000 + "]" * 1000, "nested"),
        ('{"v":1,"type":"ping","x":' + '{"a":' * 300 + "1" + "}" * 300 + "}", "nested"),
        (
            '{"v":1,"type":"act","hand":1,"seq":0,"action":{"kind":"bet","amount":2.0}}',
            "$.action.amount must be an integer",
        ),
        ('{"v":1,"type":"act","hand":1.0,"seq":0,"action":{"kind":"fold"}}', "$.hand must be"),
    ],
)
def test_bad_input_gets_an_error_frame_never_a_handler_exception(
    db: Path, raw: str, says: str, caplog: pytest.LogCaptureFixture
) -> None:
    """``"seat": 5.0`` passed the schema (JSON Schema counts 5.0 as an integer) and then
    indexed a list with a float; JSON nested 1,000 deep overflowed the parser's
    recursion. Both dropped the connection with a traceback in the log."""
    with client(db) as c, c.websocket_connect("/ws/t1") as w:
        p = Peer(w)
        p.hello()
        with caplog.at_level(logging.INFO, logger="triple_draw.server"):
            p.send_raw(raw)
            err = p.until(lambda f: f["type"] == "error")
        assert err["code"] in ("bad_message", "too_large"), err
        assert says in err["message"], err
        assert p.sync() is not None  # the connection still works
        assert not [r for r in caplog.records if r.exc_info], "a traceback was logged"
        # and nobody sits anywhere
        assert all(s is None for s in p.state["seats"])  # type: ignore[index]


def test_an_unexpected_failure_is_an_error_frame_and_one_log_line(
    db: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    from triple_draw.server import tables

    def broken(*a: Any, **k: Any) -> None:
        raise KeyError("a bug")

    monkeypatch.setattr(tables.TableRunner, "sit_out", broken)
    with client(db) as c, c.websocket_connect("/ws/t1") as w:
        p = Peer(w)
        p.hello()
        assert p.join("Ann")["type"] == "joined"
        with caplog.at_level(logging.INFO, logger="triple_draw.server"):
            p.send(type="sit_out")
            err = p.until(lambda f: f["type"] == "error")
        assert err["code"] == "server_error"
        assert p.sync() is not None
        assert not [r for r in caplog.records if r.exc_info]
        assert any("KeyError" in r.getMessage() for r in caplog.records)


# -- names ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name",
    [
        "Bot 1 (bot)",
        "Bot 7",
        "bot",
        "Ann (bot)",
        "Ann [BOT]",
        "A\u200bnn",  # zero-width space
        "Ann\u202e",  # right-to-left override
        "\u3164",  # Hangul filler: a letter that prints as nothing
        "Ann\u00a0Lee",  # no-break space
        "\u2800",
    ],
)
def test_names_that_hide_or_pose_as_bots_are_refused(db: Path, name: str) -> None:
    with client(db) as c, c.websocket_connect("/ws/t1") as w:
        p = Peer(w)
        p.hello()
        err = p.join(name)
        assert err["type"] == "error" and err["code"] == "bad_name", err
        assert all(s is None for s in p.sync()["seats"])  # type: ignore[index]


def test_names_are_trimmed_and_ordinary_names_pass(db: Path) -> None:
    with client(db) as c, peers(c, 3) as (a, b, d):
        for p in (a, b, d):
            p.hello()
        assert a.join("  Ann   Lee ")["type"] == "joined"
        assert b.join("Abbott")["type"] == "joined"
        assert d.join("Robot")["type"] == "joined"
        seats = a.sync()["seats"]  # type: ignore[index]
        assert [s["name"] for s in seats[:3]] == ["Ann Lee", "Abbott", "Robot"]


def test_a_duplicate_name_at_the_table_is_refused_even_a_bots(db: Path) -> None:
    with client(db, [table(bots=1)]) as c, peers(c, 2) as (a, b):
        a.hello()
        b.hello()
        bot = next(s for s in a.sync()["seats"] if s)  # type: ignore[union-attr]
        assert bot["bot"]
        assert a.join("Ann")["type"] == "joined"
        assert b.join("ann")["code"] == "bad_name"
        assert b.join("\uff21nn")["code"] == "bad_name"  # fullwidth A: the same name
        assert b.join(bot["name"])["code"] == "bad_name"


# -- a seat token presented twice -------------------------------------------------------------


def test_a_second_client_with_the_token_takes_the_seat_and_the_first_is_told(db: Path) -> None:
    with client(db) as c, peers(c, 3) as (a, b, watcher):
        a.hello()
        assert a.join("Ann", 0)["type"] == "joined"
        watcher.hello()
        watcher.sync()
        seen = len(watcher.frames)
        b.hello(a.token)
        assert b.seat == 0 or b.frames[-1]["seat"] == 0
        err = a.until(lambda f: f["type"] == "error")
        assert err["code"] == "replaced" and "seat 0" in err["message"]
        with pytest.raises(ConnectionError):
            a.recv(timeout=5)  # then closed
        assert b.sync()["seat"] == 0  # type: ignore[index]
        # the seat stayed connected: nobody else was sent a frame for the change
        watcher.sync()
        assert [f["type"] for f in watcher.frames[seen:]] == ["pong"]


# -- seats of absent players ------------------------------------------------------------------


def test_a_disconnected_players_seat_is_freed_and_his_chips_cashed_out(db: Path) -> None:
    cfg = table(seat_timeout=0.4, sit_out_timeout=0)
    with client(db, [cfg]) as c, c.websocket_connect("/ws/t1") as w:
        watcher = Peer(w)
        watcher.hello()
        for k in range(3):  # the squatter of the issue: join, disconnect, again
            with c.websocket_connect("/ws/t1") as ws:
                p = Peer(ws)
                p.hello()
                assert p.join(f"Squatter {k}")["type"] == "joined"
        assert sum(s is not None for s in watcher.sync()["seats"]) == 3  # type: ignore[union-attr]
        deadline = time.monotonic() + 10
        while any(watcher.sync()["seats"]) and time.monotonic() < deadline:  # type: ignore[index]
            time.sleep(0.1)
        assert not any(watcher.state["seats"])  # type: ignore[index]
    state = stored(db)["t1"]
    assert state["chips_out"] == state["chips_in"] == 300 and check_chips(state) == 0


def test_a_player_who_comes_back_in_time_keeps_his_seat(db: Path) -> None:
    # away 0.3 s at a time, 8 times: longer than the timeout in all, never at once
    cfg = table(seat_timeout=2.0, sit_out_timeout=0)
    with client(db, [cfg]) as c, c.websocket_connect("/ws/t1") as w:
        with c.websocket_connect("/ws/t1") as ws:
            p = Peer(ws)
            p.hello()
            p.join("Ann")
            token = p.token
        for _ in range(8):
            time.sleep(0.3)
            with c.websocket_connect("/ws/t1") as ws:
                q = Peer(ws)
                assert q.hello(token)["type"] == "welcome"
                assert q.sync()["seat"] == 0  # type: ignore[index]
                time.sleep(0.3)
        back = Peer(w)
        back.hello()
        assert back.sync()["seats"][0]["name"] == "Ann"  # type: ignore[index]


def test_after_a_restart_absent_players_seats_are_freed(db: Path) -> None:
    """The issue's table stayed full after a restart: the seats' absence now counts from
    the start."""
    with client(db, [table(seat_timeout=0, sit_out_timeout=0)]) as c:
        for k in range(2):
            with c.websocket_connect("/ws/t1") as ws:
                p = Peer(ws)
                p.hello()
                assert p.join(f"Squatter {k}")["type"] == "joined"
    assert sum(s is not None for s in stored(db)["t1"]["seats"]) == 2
    with client(db, [table(seat_timeout=0.3, sit_out_timeout=0)]) as c:
        with c.websocket_connect("/ws/t1") as w:
            p = Peer(w)
            p.hello()
            deadline = time.monotonic() + 10
            while any(p.sync()["seats"]) and time.monotonic() < deadline:  # type: ignore[index]
                time.sleep(0.1)
            assert not any(p.state["seats"])  # type: ignore[index]
            assert p.join("Newcomer")["type"] == "joined"
    state = stored(db)["t1"]
    assert state["chips_out"] == 200 and check_chips(state) == 100


def test_a_player_sitting_out_too_long_is_told_and_his_seat_freed(db: Path) -> None:
    cfg = table(seat_timeout=0, sit_out_timeout=0.4)
    with client(db, [cfg]) as c, c.websocket_connect("/ws/t1") as w:
        p = Peer(w)
        p.hello()
        p.join("Ann")
        p.send(type="sit_out")
        err = p.until(lambda f: f["type"] == "error", limit=100)
        assert err["code"] == "seat_freed" and "sitting out" in err["message"]
        assert p.until(lambda f: f["type"] == "left")
        assert p.sync()["seat"] is None and not any(p.state["seats"])  # type: ignore[index]
    assert check_chips(stored(db)["t1"]) == 0


def test_a_disconnected_player_in_a_hand_is_folded_and_cashed_out_at_its_end(db: Path) -> None:
    cfg = table(rules=Rules(max_players=2), seat_timeout=0.3, sit_out_timeout=0)
    with client(db, [cfg]) as c, c.websocket_connect("/ws/t1") as w:
        a = Peer(w)
        a.hello()
        a.join("Ann", 0)
        with c.websocket_connect("/ws/t1") as ws:
            b = Peer(ws)
            b.hello()
            b.join("Bob", 1)
            b.sync()
        first = a.sync()["hand"]["id"]  # type: ignore[index]
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            s = a.sync()
            assert s is not None
            if s["seats"][1] is None:
                break
            if a.my_turn():
                kinds = {x["kind"] for x in s["hand"]["legal_actions"]}
                a.act(
                    {"kind": "check" if "check" in kinds else "call"}
                    if "discard" not in kinds
                    else {"kind": "discard", "cards": []}
                )
            time.sleep(0.05)
        assert a.state["seats"][1] is None  # type: ignore[index]
        assert a.state["hand"]["id"] == first  # type: ignore[index]  (no new hand: alone)
    state = stored(db)["t1"]
    assert check_chips(state) == state["table"]["seats"][0]["stack"]
    assert state["chips_out"] == 200 - state["table"]["seats"][0]["stack"]


# -- limits per address and per table ---------------------------------------------------------


def test_connections_per_address_are_limited(db: Path) -> None:
    with client(db, settings=server_settings(connections_per_address=3)) as c, peers(c, 3) as ps:
        for p in ps:
            p.hello()
        with c.websocket_connect("/ws/t1") as w:
            err = Peer(w).recv()
            assert err["code"] == "limit_reached" and "3 connections" in err["message"]
            with pytest.raises((ConnectionError, WebSocketDisconnect)):
                Peer(w).recv(timeout=5)
    # closed connections no longer count
    with client(db, settings=server_settings(connections_per_address=3)) as c, peers(c, 3) as ps:
        for p in ps:
            assert p.hello()["type"] == "welcome"


def test_seats_per_address_are_limited_over_all_tables(db: Path) -> None:
    tables = [table("t1"), table("t2")]
    with client(db, tables, server_settings(seats_per_address=2)) as c:
        with peers(c, 2, "/ws/t1") as (a, b), peers(c, 1, "/ws/t2") as (d,):
            for p in (a, b, d):
                p.hello()
            assert a.join("Ann")["type"] == "joined"
            assert d.join("Dan")["type"] == "joined"
            err = b.join("Bob")
            assert err["code"] == "limit_reached" and "2 seats" in err["message"]
            a.send(type="leave")
            a.until(lambda f: f["type"] == "left")
            assert b.join("Bob")["type"] == "joined"


def test_one_seat_per_connection(db: Path) -> None:
    with client(db) as c, c.websocket_connect("/ws/t1") as w:
        p = Peer(w)
        p.hello()
        assert p.join("Ann")["type"] == "joined"
        assert p.join("Ann 2")["code"] == "not_allowed"


def test_spectators_per_table_are_limited(db: Path) -> None:
    with client(db, settings=server_settings(spectators_per_table=2)) as c, peers(c, 4) as ps:
        a, b, d, e = ps
        assert a.hello()["type"] == "welcome" and b.hello()["type"] == "welcome"
        err = d.hello()
        assert err["code"] == "limit_reached" and "2 spectators" in err["message"]
        # a spectator who sits down no longer counts as one
        assert a.join("Ann")["type"] == "joined"
        assert e.hello()["type"] == "welcome"


# -- fan-out ----------------------------------------------------------------------------------


def test_spectators_coming_and_going_send_nobody_else_a_frame(db: Path) -> None:
    """Every connect and disconnect sent a full state to every connection: n connections
    cost n^2 frames. Now a spectator's arrival sends the table to him alone."""
    with client(db) as c, c.websocket_connect("/ws/t1") as w:
        old = Peer(w)
        old.hello()
        old.sync()
        seen = len(old.frames)
        for _ in range(20):
            with c.websocket_connect("/ws/t1") as ws:
                p = Peer(ws)
                assert p.hello()["type"] == "welcome"
                assert p.until(lambda f: f["type"] == "state")["seat"] is None
        old.sync()
        assert [f["type"] for f in old.frames[seen:]] == ["pong"]


def test_a_players_disconnect_and_return_are_shown_to_the_table(db: Path) -> None:
    with client(db) as c, c.websocket_connect("/ws/t1") as w:
        watcher = Peer(w)
        watcher.hello()
        with c.websocket_connect("/ws/t1") as ws:
            p = Peer(ws)
            p.hello()
            p.join("Ann")
            assert watcher.until(lambda f: f["type"] == "state" and f["seats"][0] is not None)
            assert watcher.sync()["seats"][0]["connected"]  # type: ignore[index]
        f = watcher.until(lambda f: f["type"] == "state" and not f["seats"][0]["connected"])
        assert f["seats"][0]["name"] == "Ann"


# -- Host and CSP -----------------------------------------------------------------------------


def test_a_foreign_host_is_refused_by_the_api_and_the_websocket(db: Path) -> None:
    """DNS rebinding: a page of evil.example whose name now points at this server."""
    with client(db) as c:
        for path in ("/", "/api/tables", "/api/history"):
            r = c.get(path, headers={"host": "evil.example"})
            assert r.status_code == 421 and "--allow-host" in r.text
        with pytest.raises(WebSocketDisconnect) as e:
            with c.websocket_connect("/ws/t1", headers={"host": "evil.example:8000"}):
                pass
        assert e.value.code == 1008
        # localhost and IP addresses (no rebinding comes with one) and the allowed names
        for host in ("testserver", "localhost:8000", "127.0.0.1:8000", "[::1]:8000", "10.1.2.3"):
            assert c.get("/api/tables", headers={"host": host}).status_code == 200, host
        with c.websocket_connect("/ws/t1", headers={"host": "127.0.0.1:8000"}) as w:
            assert Peer(w).hello()["type"] == "welcome"
        for host in ("", "testserver.evil.example", "127.0.0.1.evil.example", "[::1]x", "a:b"):
            assert c.get("/api/tables", headers={"host": host}).status_code == 421, host


def test_the_pages_connect_src_is_the_servers_own_origin(db: Path) -> None:
    with client(db) as c:
        csp = c.get("/", headers={"host": "127.0.0.1:8000"}).headers["content-security-policy"]
        connect = next(d for d in csp.split(";") if d.strip().startswith("connect-src"))
        assert connect.split()[1:] == ["'self'", "ws://127.0.0.1:8000", "wss://127.0.0.1:8000"]


# -- the history download ---------------------------------------------------------------------


def _play_hands(db: Path, c: Any, n: int) -> str:
    """Ann and Bob play ``n`` hands (Bob folds each); Ann's token."""
    with peers(c, 2) as (a, b):
        a.hello()
        a.join("Ann", 0)
        b.hello()
        b.join("Bob", 1)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            for p in (a, b):
                s = p.sync()
                assert s is not None
                h = s["hand"]
                if h and h["id"] > n:
                    assert a.token is not None
                    return a.token
                if p.my_turn():
                    kinds = {x["kind"] for x in h["legal_actions"]}
                    p.act({"kind": "fold"} if "fold" in kinds else {"kind": "check"})
    raise AssertionError("the hands were not played")


def test_history_is_paginated(db: Path) -> None:
    with client(db, [table(rules=Rules(max_players=2))]) as c:
        token = _play_hands(db, c, 5)
        auth = {"authorization": f"Bearer {token}"}
        whole = c.get("/api/history", headers=auth)
        assert whole.status_code == 200 and "link" not in whole.headers
        assert whole.text.count('variant = "F2L3D"') == 5
        # a .phhs the package reads back: each hand's rules table under its number
        assert "\n[2._triple_draw_rules]\n" in whole.text
        assert len(phh.loads_all(whole.text)) == 5
        first = c.get("/api/history?limit=2", headers=auth)
        assert first.text.count("variant") == 2 and first.text.startswith("[1]\n")
        assert first.headers["link"] == '</api/history?format=phh&offset=2&limit=2>; rel="next"'
        pages = [first.text]
        nxt = "/api/history?format=phh&offset=2&limit=2"
        while nxt:
            r = c.get(nxt, headers=auth)
            pages.append(r.text)
            link = r.headers.get("link")
            nxt = link[1 : link.index(">")] if link else ""
        assert len(pages) == 3 and "\n".join(pages) == whole.text
        for bad in ("limit=0", "limit=501", "limit=x", "offset=-1", "limit=2.0", "limit=\u00b2"):
            r = c.get(f"/api/history?{bad}", headers=auth)
            assert r.status_code == 400 and r.json()["code"] == "bad_message", bad
        assert c.get("/api/history?offset=9", headers=auth).status_code == 404


def test_history_gives_one_hand_by_its_id_to_a_player_who_played_it(db: Path) -> None:
    """``?hand=ID`` (the web table's log links to the replayer with it): that hand only,
    as the seat saw it; 404 for a hand the token's seat did not play, 400 for a bad id."""
    with client(db, [table(rules=Rules(max_players=2))]) as c:
        token = _play_hands(db, c, 3)
        auth = {"authorization": f"Bearer {token}"}
        r = c.get("/api/history?hand=2", headers=auth)
        assert r.status_code == 200, r.text
        assert r.text.startswith("[1]\n") and r.text.count('variant = "F2L3D"') == 1
        assert "\n_hand_id = 2\n" in r.text and "link" not in r.headers
        whole = c.get("/api/history", headers=auth).text
        # the same hand as in the whole history, and the replayer finds it by its id
        (one,) = phh.loads_all(r.text)
        assert phh.dumps(one) == phh.dumps(phh.loads_all(whole)[1])
        assert [h["id"] for h in replay_document(r.text)["hands"]] == ["2"]
        stars = c.get("/api/history?hand=2&format=pokerstars", headers=auth)
        assert stars.status_code == 200 and stars.text.count("PokerStars Hand #") == 1
        other = c.get("/api/history?hand=2", headers={"authorization": "Bearer " + "z" * 43})
        assert other.status_code == 404 and "#2" in other.text
        assert c.get("/api/history?hand=999", headers=auth).status_code == 404
        for bad in ("x", "-1", "2.0", "\u00b2", "1" * 13):
            r = c.get(f"/api/history?hand={bad}", headers=auth)
            assert r.status_code == 400 and r.json()["code"] == "bad_message", bad
            assert "hand must be a hand id" in r.json()["message"]


def test_history_is_rate_limited_per_address(db: Path) -> None:
    with client(db, settings=server_settings(history_rate=12)) as c:  # bursts of 2
        auth = {"authorization": "Bearer " + "y" * 43}
        codes = [c.get("/api/history", headers=auth).status_code for _ in range(4)]
        assert codes == [404, 404, 429, 429]
        r = c.get("/api/history", headers=auth)
        assert r.status_code == 429 and int(r.headers["retry-after"]) >= 1


# -- the command line -------------------------------------------------------------------------


def test_serve_options_reach_the_tables_and_the_host_check(tmp_path: Path) -> None:
    """``triple-draw serve --allow-host`` on a real server (uvicorn): the allowed name and
    127.0.0.1 are answered, a rebound name is refused by HTTP and by the WebSocket."""
    import http.client

    import websockets.sync.client as wsc
    from server_util import ServerProcess

    from triple_draw.cli import build_parser
    from triple_draw.server.cli import allowed_hosts, build_tables

    args = build_parser().parse_args(
        ["serve", "--seat-timeout", "5", "--sit-out-timeout", "0", "--tables", "1"]
    )
    (cfg,) = build_tables(args)
    assert (cfg.seat_timeout, cfg.sit_out_timeout) == (5.0, 0.0)
    parse = build_parser().parse_args
    assert allowed_hosts(parse(["serve"])) == []  # 127.0.0.1: an address
    assert allowed_hosts(parse(["serve", "--host", "::"])) == []
    assert allowed_hosts(parse(["serve", "--host", "box.lan", "--allow-host", "a.example"])) == [
        "a.example",
        "box.lan",
    ]
    server = ServerProcess(
        tmp_path / "t.sqlite3",
        *("--tables", "1", "--allow-host", "poker.example", "--max-spectators", "1"),
    )
    try:
        for host, status in (
            ("poker.example", 200),
            (f"poker.example:{server.port}", 200),
            (f"127.0.0.1:{server.port}", 200),
            ("evil.example", 421),
        ):
            con = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
            con.request("GET", "/api/tables", headers={"Host": host})
            assert con.getresponse().status == status, host
            con.close()
        url = f"{server.ws_url}/ws/t1"
        with pytest.raises(Exception, match=r"403|1008|rejected"):
            with wsc.connect(url, additional_headers={"Host": "evil.example"}, open_timeout=10):
                pass
        with wsc.connect(url, open_timeout=10) as w, wsc.connect(url, open_timeout=10) as w2:
            w.send(json.dumps({"v": 1, "type": "hello"}))
            assert json.loads(w.recv(10))["type"] == "welcome"
            w2.send(json.dumps({"v": 1, "type": "hello"}))
            f = json.loads(w2.recv(10))
            assert f["code"] == "limit_reached" and "1 spectators" in f["message"]
    finally:
        server.stop()


# -- a player with no chips left ----------------------------------------------------------------


def test_a_broke_player_is_told_and_can_buy_in_again(db: Path) -> None:
    """ "Come back" of a broke player did nothing and said nothing (his sit_in was taken,
    then undone between hands); it is refused with what to do, and ``rebuy`` buys in
    again."""
    cfg = table(rules=Rules(max_players=2), buy_in=2, seat_timeout=0, sit_out_timeout=0)
    with client(db, [cfg]) as c, peers(c, 2) as (a, b):
        a.hello()
        a.join("Ann", 0)
        b.hello()
        b.join("Bob", 1)
        broke = None
        for _ in range(2000):
            for p in (a, b):
                s = p.sync()
                assert s is not None
                seats = s["seats"]
                gone = [
                    k
                    for k in (0, 1)
                    if seats[k]["stack"] == 0
                    and seats[k]["sitting_out"]
                    and not seats[k]["waiting"]
                ]
                if gone and (s["hand"] is None or s["hand"]["phase"] == "over"):
                    broke = (a, b)[gone[0]]
                    break
                if p.my_turn():
                    kinds = {x["kind"] for x in s["hand"]["legal_actions"]}
                    if "discard" in kinds:
                        p.act({"kind": "discard", "cards": []})
                    else:
                        p.act({"kind": "call" if "call" in kinds else "check"})
            if broke is not None:
                break
        assert broke is not None, "nobody went broke"
        rich = b if broke is a else a
        rich.send(type="rebuy")
        err = rich.until(lambda f: f["type"] == "error")
        assert err["code"] == "not_allowed" and "tops up to the buy-in, 2" in err["message"]
        broke.send(type="sit_in")
        err = broke.until(lambda f: f["type"] == "error")
        assert err["code"] == "not_allowed" and "rebuy" in err["message"]
        broke.send(type="rebuy")
        f = broke.until(
            lambda f: f["type"] == "state" and f["seats"][broke.seat]["stack"] == 2  # type: ignore[index]
        )
        assert not f["seats"][broke.seat]["sitting_out"]  # type: ignore[index]
    state = stored(db)["t1"]
    assert state["chips_in"] == 6 and check_chips(state) == 6 - state["chips_out"]


# -- the clock across a restart -----------------------------------------------------------------


def test_a_restart_does_not_give_the_player_to_act_a_fresh_clock(db: Path) -> None:
    cfg = table(rules=Rules(max_players=2), clock=30.0, seat_timeout=0, sit_out_timeout=0)
    with client(db, [cfg]) as c, peers(c, 2) as (a, b):
        a.hello()
        a.join("Ann", 0)
        b.hello()
        b.join("Bob", 1)
        s = a.sync()
        assert s is not None and s["clock"] is not None
        decision = (s["hand"]["id"], s["hand"]["seq"])
        time.sleep(2.0)
    with client(db, [cfg]) as c, c.websocket_connect("/ws/t1") as w:
        p = Peer(w)
        p.hello()
        s = p.sync()
        assert s is not None
        assert (s["hand"]["id"], s["hand"]["seq"]) == decision  # the same decision
        assert s["clock"]["total"] == 30.0
        assert 20.0 < s["clock"]["remaining"] <= 28.0, s["clock"]  # not a fresh 30 s


def test_a_restart_keeps_the_time_left_and_the_time_down_does_not_count(db: Path) -> None:
    """The clock is stored every second and when the server stops: 2 s used, 3 s down,
    the player has the 28 s he had left - not 25."""
    cfg = table(rules=Rules(max_players=2), clock=30.0, seat_timeout=0, sit_out_timeout=0)
    with client(db, [cfg]) as c, peers(c, 2) as (a, b):
        a.hello()
        a.join("Ann", 0)
        b.hello()
        b.join("Bob", 1)
        s = a.sync()
        assert s is not None and s["clock"] is not None
        decision = (s["hand"]["id"], s["hand"]["seq"])
        time.sleep(2.0)
    time.sleep(3.0)  # the server is down
    with client(db, [cfg]) as c, c.websocket_connect("/ws/t1") as w:
        p = Peer(w)
        p.hello()
        s = p.sync()
        assert s is not None
        assert (s["hand"]["id"], s["hand"]["seq"]) == decision
        assert 26.5 < s["clock"]["remaining"] <= 28.1, s["clock"]


def test_after_a_crash_the_clock_keeps_what_it_had_at_the_last_beat(tmp_path: Path) -> None:
    """SIGKILL (no shutdown code): the clock stored a second before the crash at the
    latest is what the player to act gets back; the 4 s the server was down do not count."""
    from server_util import ServerProcess
    from websockets.sync.client import connect

    db = tmp_path / "t.sqlite3"
    args = ("--tables", "1", "--bots", "0", "--seats", "2", "--clock", "30")
    args += ("--seat-timeout", "0", "--hand-pause", "0")
    server = ServerProcess(db, *args)
    try:
        players = ExitStack()
        socks = [players.enter_context(connect(server.ws_url + "/ws/t1")) for _ in range(2)]
        for ws, name in zip(socks, ("Ann", "Bob"), strict=True):
            ws.send(json.dumps({"v": 1, "type": "hello"}))
            ws.send(json.dumps({"v": 1, "type": "join", "name": name}))
        clock = None
        deadline = time.monotonic() + 20
        while clock is None and time.monotonic() < deadline:
            f = json.loads(socks[1].recv(timeout=10))
            if f["type"] == "state" and f["clock"] and f["hand"]:
                clock = f["clock"]
                decision = (f["hand"]["id"], f["hand"]["seq"])
        assert clock is not None
        time.sleep(3.5)  # 3.5 s used (the beats stored 2.5 s at least)
        server.kill()
        players.close()
        time.sleep(4.0)  # down
        server = ServerProcess(db, *args)
        with connect(server.ws_url + "/ws/t1") as ws:
            ws.send(json.dumps({"v": 1, "type": "hello"}))
            while True:
                f = json.loads(ws.recv(timeout=10))
                if f["type"] == "state":
                    break
        assert (f["hand"]["id"], f["hand"]["seq"]) == decision
        # 30 - 3.5 = 26.5 left at the crash, at most a beat (1 s) more; with the time down
        # counted it would be 22.5 at most
        assert 25.0 < f["clock"]["remaining"] <= 27.6, f["clock"]
    finally:
        server.stop()


# -- the time bank ------------------------------------------------------------------------------


def test_the_time_bank_runs_when_the_clock_runs_out_and_what_is_used_is_gone(db: Path) -> None:
    cfg = table(
        rules=Rules(max_players=2), clock=0.4, time_bank=3.0, seat_timeout=0, sit_out_timeout=0
    )
    with client(db, [cfg]) as c, peers(c, 2) as (a, b):
        a.hello()
        a.join("Ann", 0)
        b.hello()
        b.join("Bob", 1)
        p, _ = (a, b) if a.sync() and a.my_turn() else (b, a)
        s0 = p.sync()
        assert s0 is not None
        clock = s0["clock"]
        assert clock["in_time_bank"] is False and clock["time_bank"] == 3.0
        f = p.until(lambda f: f["type"] == "state" and f["clock"] and f["clock"]["in_time_bank"])
        # the same decision, now on the bank's time (the clock did not act for him)
        assert (f["hand"]["id"], f["hand"]["seq"]) == (s0["hand"]["id"], s0["hand"]["seq"])
        assert 0 < f["clock"]["remaining"] <= 3.0
        time.sleep(0.5)  # some of the bank is used, then he acts: no timeout
        assert p.act({"kind": "call"})["type"] == "ack"
        # his next decision: the bank holds what was left of it
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            s = p.sync()
            assert s is not None
            if p.my_turn() and s["clock"] and not s["clock"]["in_time_bank"]:
                assert 0.5 < s["clock"]["time_bank"] < 2.6, s["clock"]
                break
            q = b if p is a else a
            if q.sync() and q.my_turn():
                betting = q.state["hand"]["phase"] == "bet"  # type: ignore[index]
                q.act({"kind": "check"} if betting else {"kind": "discard", "cards": []})
        else:
            raise AssertionError("his turn did not come again")


def test_a_player_short_of_the_buy_in_tops_up_between_hands(db: Path) -> None:
    cfg = table(
        rules=Rules(max_players=2),
        buy_in=100,
        seat_timeout=0,
        sit_out_timeout=0,
        hand_pause=1.0,  # (so that the end of a hand is seen)
    )
    with client(db, [cfg]) as c, peers(c, 2) as (a, b):
        a.hello()
        a.join("Ann", 0)
        b.hello()
        b.join("Bob", 1)
        # Ann raises, Bob folds: Ann has more than the buy-in, Bob less
        done = False
        for _ in range(200):
            for p in (a, b):
                s = p.sync()
                assert s is not None
                if s["hand"] and s["hand"]["phase"] == "over":
                    done = True
                    break
                if p.my_turn():
                    kinds = {x["kind"] for x in s["hand"]["legal_actions"]}
                    if p is b and "fold" in kinds:
                        p.act({"kind": "fold"})
                    elif "raise" in kinds and p is a:
                        p.act({"kind": "raise"})
                    elif "discard" in kinds:
                        p.act({"kind": "discard", "cards": []})
                    else:
                        p.act({"kind": "call" if "call" in kinds else "check"})
            if done:
                break
        assert done
        # during the next hand: between hands only (both are in it)
        deadline = time.monotonic() + 10
        while (h := b.sync()) is not None and h["hand"]["phase"] == "over":
            assert time.monotonic() < deadline, ("no next hand", h)
            time.sleep(0.02)
        assert h is not None
        b.send(type="rebuy")
        err = b.until(lambda f: f["type"] == "error")
        assert "between hands" in err["message"], err
        a.send(type="sit_out")
        b.send(type="sit_out")
        # (the hand plays out: folds for both, as they sit out)
        while (f := b.sync()) is not None and f["hand"]["phase"] != "over":
            assert time.monotonic() < deadline + 10, "the hand did not end"
            time.sleep(0.02)
        assert f is not None and f["hand"]["id"] == h["hand"]["id"]
        seats = f["seats"]
        short = seats[1]["stack"]
        assert short < 100 < seats[0]["stack"]
        a.send(type="rebuy")
        assert "a rebuy tops up" in a.until(lambda f: f["type"] == "error")["message"]
        b.send(type="rebuy")
        f = b.until(lambda f: f["type"] == "state" and f["seats"][1]["stack"] == 100)
        assert f["seats"][1]["sitting_out"]  # a top-up does not sit him in
    state = stored(db)["t1"]
    assert state["chips_in"] == 200 + (100 - short) and check_chips(state) == state["chips_in"]


def test_missed_turns_free_the_seat_of_a_player_who_never_acts(db: Path) -> None:
    """``missed_turns=3``: the clock plays three turns in a row for Ann (connected, never
    acting), then her seat is freed and her chips cashed out; two are not enough."""
    cfg = table(
        rules=Rules(max_players=2), clock=0.2, missed_turns=3, seat_timeout=0, sit_out_timeout=0
    )
    with client(db, [cfg]) as c, peers(c, 2) as (a, b):
        a.hello()
        a.join("Ann", 0)
        b.hello()
        b.join("Bob", 1)
        deadline = time.monotonic() + 30
        freed = None
        while time.monotonic() < deadline and freed is None:
            s = b.sync()
            assert s is not None
            if b.my_turn():
                kinds = {x["kind"] for x in s["hand"]["legal_actions"]}
                if "discard" in kinds:
                    b.act({"kind": "discard", "cards": []})
                else:
                    b.act({"kind": "check" if "check" in kinds else "call"})
            for f in a.frames:
                if f["type"] == "error" and f["code"] == "seat_freed":
                    freed = f
            a.sync()
            time.sleep(0.02)
        assert freed is not None, "Ann's seat was not freed"
        assert "3 turns in a row" in freed["message"]
        a.sync()
        assert any(f["type"] == "left" for f in a.frames)
        # she was never sat out by the clock on the way (2 timeouts did not do it)
        before = a.frames[: next(i for i, f in enumerate(a.frames) if f is freed)]
        assert not any(
            f["type"] == "state" and f["seats"][0] and f["seats"][0]["sitting_out"] for f in before
        )
        deadline = time.monotonic() + 10
        while (s := b.sync()) is not None and s["seats"][0] is not None:
            assert time.monotonic() < deadline, "her seat stayed taken"
            time.sleep(0.05)
    state = stored(db)["t1"]
    assert state["chips_out"] > 0 and check_chips(state) == 200 - state["chips_out"]
