"""The table server through Starlette's test client: joining, acting, stale and repeated
messages, bad input, timeouts, reconnects, sitting out, leaving, seat isolation, the
history download, and resuming from the database."""

from __future__ import annotations

import json
import sqlite3
import warnings
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import pytest
from server_util import Peer, client, held_cards, hidden_leaks, table
from starlette.websockets import WebSocketDisconnect

from triple_draw.server.protocol import MAX_MESSAGE_BYTES
from triple_draw.server.app import ServerSettings
from triple_draw.server.tables import check_chips


def two_players(c: Any, stack: list[Any]) -> tuple[Peer, Peer]:
    a = Peer(stack.pop(0))
    b = Peer(stack.pop(0))
    a.hello()
    assert a.join("Ann", 0)["type"] == "joined"
    b.hello()
    assert b.join("Bob", 1)["type"] == "joined"
    a.sync()
    b.sync()
    return a, b


@contextmanager
def two_seated(db: Path, tables: Any = None, watchers: int = 1) -> Iterator[list[Peer]]:
    """Ann in seat 0 and Bob in seat 1 of table t1, then ``watchers`` more connections
    that have said hello and sit nowhere: ``[ann, bob, *watchers]``."""
    with ExitStack() as stack:
        c = stack.enter_context(client(db) if tables is None else client(db, tables))
        ws = [stack.enter_context(c.websocket_connect("/ws/t1")) for _ in range(2 + watchers)]
        a, b = two_players(c, ws[:2])
        others = [Peer(w) for w in ws[2:]]
        for p in others:
            p.hello()
        yield [a, b, *others]


def actor(a: Peer, b: Peer) -> tuple[Peer, Peer]:
    a.sync()
    b.sync()
    return (a, b) if a.my_turn() else (b, a)


def stored_actions(db: Path) -> list[tuple[int, int, int, str]]:
    con = sqlite3.connect(db)
    try:
        return con.execute("SELECT hand_id, seq, table_seat, action FROM actions").fetchall()
    finally:
        con.close()


def stored_states(db: Path) -> dict[str, Any]:
    con = sqlite3.connect(db)
    try:
        return {k: json.loads(v) for k, v in con.execute("SELECT id, state FROM tables")}
    finally:
        con.close()


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "tables.sqlite3"


def test_join_gives_a_token_and_a_hand_starts_with_two_players(db: Path) -> None:
    with client(db) as c, c.websocket_connect("/ws/t1") as w1, c.websocket_connect("/ws/t1") as w2:
        a, b = two_players(c, [w1, w2])
        assert a.token and b.token and a.token != b.token and len(a.token) >= 40
        h = a.state["hand"]  # type: ignore[index]
        assert h is not None and h["phase"] == "bet" and h["id"] >= 1
        assert len(h["hole_cards"]) == 5
        assert a.state["seats"][0]["name"] == "Ann"  # type: ignore[index]
        # heads-up the button posts the small blind and acts first
        assert h["button"] == h["small_blind_seat"] == h["actor"]


def test_action_is_committed_before_it_is_acknowledged(db: Path) -> None:
    with client(db) as c, c.websocket_connect("/ws/t1") as w1, c.websocket_connect("/ws/t1") as w2:
        a, b = two_players(c, [w1, w2])
        p, _ = actor(a, b)
        h = p.state["hand"]  # type: ignore[index]
        ack = p.act({"kind": "call"})
        assert ack == {"v": 1, "type": "ack", "hand": h["id"], "seq": h["seq"]}
        # the ack came after the commit: another connection to the file sees the action
        rows = stored_actions(db)
        assert [(r[0], r[1], r[2]) for r in rows] == [(h["id"], h["seq"], p.seat)]
        assert json.loads(rows[0][3]) == {"kind": "call"}


def test_repeated_action_is_refused_as_stale_and_never_applied_twice(db: Path) -> None:
    with client(db) as c, c.websocket_connect("/ws/t1") as w1, c.websocket_connect("/ws/t1") as w2:
        a, b = two_players(c, [w1, w2])
        p, q = actor(a, b)
        h = p.state["hand"]  # type: ignore[index]
        assert p.act({"kind": "raise"})["type"] == "ack"
        # the very same message again: stale
        p.send(type="act", hand=h["id"], seq=h["seq"], action={"kind": "raise"})
        err = p.until(lambda f: f["type"] == "error")
        assert err["code"] == "stale"
        # a message for another hand id: stale
        q.sync()
        p.send(type="act", hand=h["id"] + 7, seq=h["seq"] + 1, action={"kind": "fold"})
        assert p.until(lambda f: f["type"] == "error")["code"] == "stale"
        assert len(stored_actions(db)) == 1


def test_out_of_turn_and_illegal_actions_change_nothing(db: Path) -> None:
    with client(db) as c, c.websocket_connect("/ws/t1") as w1, c.websocket_connect("/ws/t1") as w2:
        a, b = two_players(c, [w1, w2])
        p, q = actor(a, b)
        before = stored_states(db)
        q.act({"kind": "fold"})  # not q's turn
        assert q.frames[-1]["code"] == "illegal" and "turn" in q.frames[-1]["message"]
        # the small blind faces the big blind: no check; a raise has one legal amount
        assert p.act({"kind": "check"})["code"] == "illegal"
        assert p.act({"kind": "raise", "amount": 5})["code"] == "illegal"
        assert p.act({"kind": "discard", "cards": ["2c"]})["code"] == "illegal"
        assert stored_states(db) == before and stored_actions(db) == []
        assert p.act({"kind": "call"})["type"] == "ack"


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        ("not json", "bad_message"),
        ("[1, 2]", "bad_message"),
        (json.dumps({"v": 2, "type": "ping"}), "bad_message"),
        (json.dumps({"v": 1, "type": "shout"}), "bad_message"),
        (json.dumps({"v": 1, "type": "join", "name": "x", "admin": True}), "bad_message"),
        (json.dumps({"v": 1, "type": "join", "name": "<script>"}), "bad_message"),
        (json.dumps({"v": 1, "type": "join", "name": "x", "seat": 99}), "bad_message"),
        (json.dumps({"v": 1, "type": "act", "hand": 1, "seq": 0}), "bad_message"),
        (
            json.dumps(
                {
                    "v": 1,
                    "type": "act",
                    "hand": 1,
                    "seq": 0,
                    "action": {"kind": "discard", "cards": ["1x"]},
                }
            ),
            "bad_message",
        ),
        (json.dumps({"v": 1, "type": "ping", "pad": "x" * MAX_MESSAGE_BYTES}), "too_large"),
        (
            json.dumps({"v": 1, "type": "act", "hand": 1, "seq": 0, "action": {"kind": "fold"}}),
            "not_seated",
        ),
    ],
)
def test_bad_message_gets_an_error_frame_and_changes_nothing(db: Path, raw: str, code: str) -> None:
    with client(db) as c, c.websocket_connect("/ws/t1") as w:
        p = Peer(w)
        p.hello()
        p.sync()
        before = stored_states(db)
        p.send_raw(raw)
        err = p.until(lambda f: f["type"] == "error")
        assert err["code"] == code, err
        assert p.sync() is not None  # the connection still works
        assert stored_states(db) == before


def test_messages_before_hello_are_refused(db: Path) -> None:
    with client(db) as c, c.websocket_connect("/ws/t1") as w:
        p = Peer(w)
        p.send(type="join", name="Ann")
        assert p.until(lambda f: f["type"] == "error")["code"] == "not_allowed"


def test_rate_limit_per_connection(db: Path) -> None:
    settings = ServerSettings(rate=1.0, burst=5, allowed_hosts=["testserver"])
    with client(db, settings=settings) as c, c.websocket_connect("/ws/t1") as w:
        p = Peer(w)
        for _ in range(12):
            p.send(type="ping")
        kinds = [p.recv()["type"] for _ in range(12)]
        assert kinds.count("pong") == 5 and kinds.count("error") == 7
        assert {f["code"] for f in p.frames if f["type"] == "error"} == {"rate_limited"}


def test_websocket_checks_the_origin(db: Path) -> None:
    with client(db) as c:
        with pytest.raises(WebSocketDisconnect) as e:
            with c.websocket_connect("/ws/t1", headers={"origin": "http://evil.example"}):
                pass
        assert e.value.code == 1008
        # the page's own origin is fine (the test client's host is 'testserver')
        with c.websocket_connect("/ws/t1", headers={"origin": "http://testserver"}) as w:
            assert Peer(w).hello()["type"] == "welcome"
    with client(
        db,
        settings=ServerSettings(
            allowed_origins=["https://poker.example"], allowed_hosts=["testserver"]
        ),
    ) as c:
        with c.websocket_connect("/ws/t1", headers={"origin": "https://poker.example"}) as w:
            assert Peer(w).hello()["type"] == "welcome"
        with pytest.raises(WebSocketDisconnect):
            with c.websocket_connect("/ws/t1", headers={"origin": "http://testserver"}):
                pass


def test_unknown_table_is_refused(db: Path) -> None:
    with client(db) as c:
        with pytest.raises(WebSocketDisconnect):
            with c.websocket_connect("/ws/nope"):
                pass


def test_seat_taken_and_table_full(db: Path) -> None:
    rules = table().rules.replace(max_players=2)
    with (
        client(db, [table(rules=rules)]) as c,
        c.websocket_connect("/ws/t1") as w1,
        c.websocket_connect("/ws/t1") as w2,
        c.websocket_connect("/ws/t1") as w3,
    ):
        a, b, x = Peer(w1), Peer(w2), Peer(w3)
        for p in (a, b, x):
            p.hello()
        assert a.join("Ann", 1)["type"] == "joined"
        assert b.join("Bob", 1)["code"] == "seat_taken"
        assert b.join("Bob")["seat"] == 0
        assert x.join("Cy")["code"] == "table_full"
        assert a.join("Ann again")["code"] == "not_allowed"


def play_out_hand(a: Peer, b: Peer, hand_id: int, choose: Any = None) -> None:
    """Both players act until hand ``hand_id`` is over (check/call, stand pat)."""
    for _ in range(200):
        p, _q = actor(a, b)
        h = p.state["hand"]  # type: ignore[index]
        if h["id"] != hand_id or h["phase"] == "over":
            return
        kinds = {x["kind"]: x for x in h["legal_actions"]}
        if choose is not None:
            action = choose(p, h, kinds)
        elif "discard" in kinds:
            action = {"kind": "discard", "cards": h["hole_cards"][:1]}
        elif "check" in kinds:
            action = {"kind": "check"}
        else:
            action = {"kind": "call"}
        r = p.act(action)
        assert r["type"] == "ack", (r, h)
    raise AssertionError("the hand did not end")


def test_seat_isolation_no_frame_holds_another_seats_cards(db: Path) -> None:
    with two_seated(db) as (a, b, spy):
        first = a.state["hand"]["id"]  # type: ignore[index]
        for k in range(3):
            play_out_hand(a, b, first + k)
        spy.sync()
        store_hands = _finished_hands(db)
        assert len(store_hands) >= 3
        for peer in (a, b, spy):
            for f in peer.frames:
                if f["type"] != "state" or f["hand"] is None:
                    assert hidden_leaks(f, set()) == [] or f["type"] in ("joined",)
                    continue
                final = store_hands.get(f["hand"]["id"])
                if final is None:
                    continue  # the hand still running: checked below
                doc, seat_map = final
                own: set[str] = set()
                if peer is not spy and peer.seat in seat_map:
                    own = held_cards(doc, seat_map.index(peer.seat))
                assert hidden_leaks(f, own) == [], (peer.seat, f)
        # a spectator never got any hole cards
        assert all(
            not f["hand"]["hole_cards"] for f in spy.frames if f["type"] == "state" and f["hand"]
        )


def _finished_hands(db: Path) -> dict[int, tuple[dict[str, Any], list[int]]]:
    con = sqlite3.connect(db)
    try:
        out = {}
        for hid, final in con.execute("SELECT id, final FROM hands WHERE final IS NOT NULL"):
            seats = [
                ts
                for _hs, ts in con.execute(
                    "SELECT hand_seat, table_seat FROM hand_players WHERE hand_id = ? "
                    "ORDER BY hand_seat",
                    (hid,),
                )
            ]
            out[hid] = (json.loads(final), seats)
        return out
    finally:
        con.close()


def test_action_clock_checks_or_folds_and_stands_pat(db: Path) -> None:
    # (a clock long enough for the test's own call on a loaded machine: 0.2 s was not)
    with (
        client(db, [table(clock=1.5)]) as c,
        c.websocket_connect("/ws/t1") as w1,
        c.websocket_connect("/ws/t1") as w2,
    ):
        a, b = two_players(c, [w1, w2])
        first = a.state["hand"]["id"]  # type: ignore[index]
        assert a.state["clock"]["total"] == 1.5  # type: ignore[index]
        # nobody acts: the small blind is folded (he faces the big blind) ...
        a.until(
            lambda f: (
                f["type"] == "state" and f["hand"]["id"] == first and f["hand"]["phase"] == "over"
            )
        )
        acts = [json.loads(r[3]) for r in stored_actions(db) if r[0] == first]
        assert acts == [{"kind": "fold"}]
        # ... and a hand where the checks come round reaches the draw, where the clock
        # stands pat for the player who does not act
        a.until(lambda f: f["type"] == "state" and f["hand"] and f["hand"]["id"] > first)
        p, q = actor(a, b)
        assert p.act({"kind": "call"})["type"] == "ack"
        second = p.state["hand"]["id"]  # type: ignore[index]
        q.until(lambda f: f["type"] == "state" and f["hand"]["phase"] == "draw")
        q.until(
            lambda f: f["type"] == "state" and f["hand"]["id"] == second and f["hand"]["seq"] >= 3
        )
        acts = [json.loads(r[3]) for r in stored_actions(db) if r[0] == second]
        assert acts[:3] == [{"kind": "call"}, {"kind": "check"}, {"kind": "discard", "cards": []}]


def test_two_timeouts_sit_a_player_out_and_he_comes_back(db: Path) -> None:
    with (
        client(db, [table(clock=0.1)]) as c,
        c.websocket_connect("/ws/t1") as w1,
        c.websocket_connect("/ws/t1") as w2,
    ):
        a, b = two_players(c, [w1, w2])
        f = a.until(
            lambda f: f["type"] == "state" and any(s and s["sitting_out"] for s in f["seats"])
        )
        out = [i for i, s in enumerate(f["seats"]) if s and s["sitting_out"]]
        assert len(out) == 1
        # with one player sitting out no hand is dealt
        p = a if a.seat == out[0] else b
        p.sync()
        assert p.state["hand"] is None or p.state["hand"]["phase"] == "over"  # type: ignore[index]
        p.send(type="sit_in")
        g = p.until(lambda f: f["type"] == "state" and not f["seats"][out[0]]["sitting_out"])
        assert g["seats"][out[0]]["sitting_out"] is False


def test_reconnect_with_the_token_keeps_the_seat(db: Path) -> None:
    with client(db) as c:
        with c.websocket_connect("/ws/t1") as w1, c.websocket_connect("/ws/t1") as w2:
            a, _b = two_players(c, [w1, w2])
            token, seat = a.token, a.seat
            hand_id = a.state["hand"]["id"]  # type: ignore[index]
            cards = a.state["hand"]["hole_cards"]  # type: ignore[index]
        with c.websocket_connect("/ws/t1") as w3, c.websocket_connect("/ws/t1") as w4:
            a2 = Peer(w3)
            welcome = a2.hello(token)
            assert welcome["type"] == "welcome" and welcome["seat"] == seat
            s = a2.sync()
            assert s["hand"]["id"] == hand_id and s["hand"]["hole_cards"] == cards  # type: ignore[index]
            assert s["events_from"] == 0 and s["events"]  # the whole log again  # type: ignore[index]
            bad = Peer(w4)
            assert bad.hello("x" * 43)["code"] == "bad_token"


def test_events_are_sent_incrementally(db: Path) -> None:
    with client(db) as c, c.websocket_connect("/ws/t1") as w1, c.websocket_connect("/ws/t1") as w2:
        a, b = two_players(c, [w1, w2])
        p, _ = actor(a, b)
        n = len(p.state["events"]) + p.state["events_from"]  # type: ignore[index]
        p.act({"kind": "call"})
        f = p.until(lambda f: f["type"] == "state")
        assert f["events_from"] == n and f["events"][0]["kind"] == "call"


def test_sit_out_and_leave_between_hands(db: Path) -> None:
    with (
        client(db, [table(hand_pause=30.0)]) as c,
        c.websocket_connect("/ws/t1") as w1,
        c.websocket_connect("/ws/t1") as w2,
    ):
        a, b = two_players(c, [w1, w2])
        hand_id = a.state["hand"]["id"]  # type: ignore[index]
        p, q = actor(a, b)
        p.act({"kind": "fold"})
        q.sync()
        q.send(type="sit_out")
        q.until(lambda f: f["type"] == "state" and f["seats"][q.seat]["sitting_out"])
        p.send(type="leave")
        p.until(lambda f: f["type"] == "left")
        q.sync()
        seats = q.state["seats"]  # type: ignore[index]
        assert seats[p.seat] is None if p.seat is not None else True
        state = stored_states(db)["t1"]
        assert state["chips_out"] == 100 - 1  # the small blind folded and took 99 away
        assert check_chips(state) == 101
        assert state["hand"]["id"] == hand_id
        assert q.join("again")["code"] == "not_allowed"  # still seated


def test_leaving_during_a_hand_folds_and_cashes_out_at_its_end(db: Path) -> None:
    with (
        client(db, [table(hand_pause=30.0)]) as c,
        c.websocket_connect("/ws/t1") as w1,
        c.websocket_connect("/ws/t1") as w2,
    ):
        a, b = two_players(c, [w1, w2])
        p, q = actor(a, b)
        q.send(type="leave")  # not his turn: he leaves when the hand ends
        q.until(lambda f: f["type"] == "left")
        p.act({"kind": "raise"})  # q's turn comes: he is folded at once
        p.until(lambda f: f["type"] == "state" and f["hand"]["phase"] == "over")
        state = stored_states(db)["t1"]
        assert (
            state["seats"][q.seat] is None
            and check_chips(state) == state["chips_in"] - state["chips_out"]
        )


def test_history_download_shows_only_what_the_seat_saw(db: Path) -> None:
    with client(db) as c, c.websocket_connect("/ws/t1") as w1, c.websocket_connect("/ws/t1") as w2:
        a, b = two_players(c, [w1, w2])
        first = a.state["hand"]["id"]  # type: ignore[index]

        def fold_first(p: Peer, h: dict[str, Any], kinds: dict[str, Any]) -> dict[str, Any]:
            return {"kind": "fold"} if "fold" in kinds else {"kind": "discard", "cards": []}

        play_out_hand(a, b, first, fold_first)
        assert c.get("/api/history").status_code == 401
        assert (
            c.get("/api/history", headers={"authorization": "Bearer " + "y" * 43}).status_code
            == 404
        )
        r = c.get("/api/history", headers={"authorization": f"Bearer {a.token}"})
        assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
        text = r.text
        assert text.startswith("[1]\n") and 'variant = "F2L3D"' in text
        assert "Ann" in text and "Bob" in text  # the players' names
        # the other seat folded unseen: his cards are ?? in this seat's history
        assert "????????" in text
        from triple_draw import phh

        # a .phhs file: each hand a table, the table's rules in its sub-table, every
        # field known to the reader (an unknown one would be ignored with a warning)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            (hand,) = phh.loads_all(text)
        runner = c.app.state.runners["t1"]  # type: ignore[attr-defined]
        assert hand.is_over and hand.rules == runner.hand.rules


def test_resume_from_the_database_same_cards_and_deck(db: Path) -> None:
    with (
        client(db, [table(clock=60.0)]) as c,
        c.websocket_connect("/ws/t1") as w1,
        c.websocket_connect("/ws/t1") as w2,
    ):
        a, b = two_players(c, [w1, w2])
        p, q = actor(a, b)
        assert p.act({"kind": "call"})["type"] == "ack"
        q.sync()
        assert q.act({"kind": "check"})["type"] == "ack"
        runner = c.app.state.runners["t1"]  # type: ignore[attr-defined]
        before = runner.hand.to_dict()
        token_a, cards_a = a.token, a.sync()["hand"]["hole_cards"]  # type: ignore[index]
    # a new app on the same file: the hand continues where it was, deck state included
    with client(db, [table(clock=60.0)]) as c, c.websocket_connect("/ws/t1") as w:
        runner = c.app.state.runners["t1"]  # type: ignore[attr-defined]
        assert runner.hand.to_dict() == before
        a2 = Peer(w)
        a2.hello(token_a)
        assert a2.sync()["hand"]["hole_cards"] == cards_a  # type: ignore[index]
        check_chips(stored_states(db)["t1"])


def test_bots_fill_seats_and_play_with_a_person(db: Path) -> None:
    with client(db, [table(bots=2)]) as c, c.websocket_connect("/ws/t1") as w:
        p = Peer(w)
        p.hello()
        s = p.sync()
        assert [x["bot"] for x in s["seats"] if x] == [True, True]  # type: ignore[index]
        assert s["hand"] is None  # bots alone do not play  # type: ignore[index]
        p.join("Ann")
        first = p.until(lambda f: f["type"] == "state" and f["hand"] is not None)["hand"]["id"]
        for _ in range(300):
            f = p.recv()
            if f["type"] != "state" or f["hand"] is None:
                continue
            if f["hand"]["id"] > first + 1:
                break
            if p.my_turn():
                kinds = {x["kind"] for x in f["hand"]["legal_actions"]}
                p.act({"kind": "discard", "cards": []} if "discard" in kinds else {"kind": "fold"})
        else:
            raise AssertionError("no hands were played")
        check_chips(stored_states(db)["t1"])


def test_a_seat_sees_its_own_discards_and_nobody_elses(db: Path) -> None:
    with two_seated(db) as (a, b, spy):
        p, q = actor(a, b)
        assert p.act({"kind": "call"})["type"] == "ack"
        q.sync()
        assert q.act({"kind": "check"})["type"] == "ack"
        p, q = actor(a, b)
        assert p.state["hand"]["phase"] == "draw"  # type: ignore[index]
        thrown = p.state["hand"]["hole_cards"][:2]  # type: ignore[index]
        assert p.act({"kind": "discard", "cards": thrown})["type"] == "ack"
        mine = p.until(lambda f: f["type"] == "state")["hand"]["discards"]
        assert sorted(mine) == sorted(thrown)
        q.sync()
        spy.sync()
        assert q.state["hand"]["discards"] == []  # type: ignore[index]
        for peer in (q, spy):
            text = json.dumps(peer.frames)
            assert not any(f'"{card}"' in text for card in thrown)


def test_a_player_who_joins_a_running_game_waits_for_the_big_blind(db: Path) -> None:
    # docs/server.md, Between hands: the engine's Table decides who is dealt in
    with two_seated(db, [table(hand_pause=30.0)]) as (a, b, d):
        hand_id = a.state["hand"]["id"]  # type: ignore[index]
        assert d.join("Cy", 2)["type"] == "joined"
        f = d.until(lambda f: f["type"] == "state" and f["seats"][2] is not None)
        assert f["seats"][2]["waiting"] is True and f["seats"][2]["sitting_out"] is False
        assert f["hand"]["id"] == hand_id and f["hand"]["hole_cards"] == []  # not in it
        state = stored_states(db)["t1"]
        assert state["seats"][2]["pending"] == 100 and state["table"]["seats"][2] is None
        assert check_chips(state) == 300
        p, _q = actor(a, b)
        p.act({"kind": "fold"})  # the hand ends: Cy sits down at the Table and waits
        d.sync()
        state = stored_states(db)["t1"]
        assert state["seats"][2]["pending"] == 0
        assert state["table"]["seats"][2] == {
            "stack": 100,
            "status": "waiting",
            "owes": "new",
            "post": False,
        }
        assert check_chips(state) == 300


def test_the_stored_state_is_the_tables_document_and_restores_the_same_table(db: Path) -> None:
    from triple_draw.game import Table
    from triple_draw.server.store import SQLiteStore
    from triple_draw.server.tables import TableRunner

    with client(db) as c, c.websocket_connect("/ws/t1") as w1, c.websocket_connect("/ws/t1") as w2:
        a, b = two_players(c, [w1, w2])
        p, _q = actor(a, b)
        p.act({"kind": "call"})
        state = stored_states(db)["t1"]
    doc = dict(state["table"], hand=dict(state["table"]["hand"], state=state["hand"]["state"]))
    t = Table.from_dict(doc)
    assert t.seat_map == (0, 1) and t.button_rule == "dead"
    store = SQLiteStore(db)
    try:
        again = TableRunner(table(), store, state)  # applies the stored call again
        assert again.seq == 1 and again.hand is not None
        assert again.state_doc()["table"]["seats"] == state["table"]["seats"]
        assert again.hand.history[-1].kind == "call"
    finally:
        store.close()


def test_lone_surrogates_in_a_message_are_refused(db: Path) -> None:
    # found by fuzz/python/fuzz_server.py: a name spelled with a JSON escape of a lone
    # surrogate passed the schema, then could not be stored when its hand began
    with client(db) as c, c.websocket_connect("/ws/t1") as w1:
        a = Peer(w1)
        a.send_raw('{"v": 1, "type": "hello", "token": "\\ud800abc"}')
        f = a.until(lambda f: f["type"] == "error")
        assert f["code"] == "bad_message" and "Unicode" in f["message"]
        a.hello()
        a.send_raw('{"v": 1, "type": "join", "name": "A\\ud800"}')
        f = a.until(lambda f: f["type"] == "error")
        assert f["code"] == "bad_message"
        assert stored_states(db).get("t1") is None or all(
            s is None for s in stored_states(db)["t1"]["seats"]
        )


class _Conn:
    """A connection as the table sees it (for tests that drive a TableRunner directly)."""

    def __init__(self, address: str = "10.0.0.1") -> None:
        self.seat: int | None = None
        self.sent_hand = 0
        self.sent_events = 0
        self.address = address
        self.closed = False
        self.frames: list[dict[str, Any]] = []

    def close(self) -> None:
        self.closed = True

    def send(self, frame: dict[str, Any]) -> None:
        self.frames.append(frame)

    def send_text(self, text: str) -> None:
        self.frames.append(json.loads(text))


def test_a_player_who_sits_out_owes_the_small_blind_that_passed_him(db: Path) -> None:
    # docs/server.md, Between hands: the dead button; seat 2 has the big blind, sits out,
    # and the next hand has a dead small blind (nobody posts it) that he then owes
    import asyncio

    from server_util import SERVER_SCHEMA

    from triple_draw.server.store import SQLiteStore
    from triple_draw.server.tables import TableRunner

    async def main() -> None:
        store = SQLiteStore(db)
        runner = TableRunner(table(hand_pause=0.0), store, None)
        try:
            runner.start()
            conns = [_Conn() for _ in range(4)]
            for k, conn in enumerate(conns):  # all four sit down before the first deal
                runner.attach(conn, None)
                runner.join(conn, f"P{k}", k)
            await asyncio.sleep(0.05)
            hand = runner.hand
            assert hand is not None and runner.seat_map == (0, 1, 2, 3)
            assert runner.table.big_blind_seat == 2
            first = runner.hand_id
            runner.sit_out(conns[2])
            while runner.hand_id == first and not hand.is_over:
                ts = runner.seat_map[hand.actor]
                kinds = [a.kind for a in hand.legal_actions()]
                action = {"kind": "check" if "check" in kinds else "fold"}
                runner.act(conns[ts], runner.hand_id, runner.seq, action)
            await asyncio.sleep(0.05)
            assert runner.hand_id != first and runner.seat_map == (0, 1, 3)
            frame = conns[0].frames[-1]
            assert frame["hand"]["small_blind_seat"] is None  # the dead small blind
            assert not list(SERVER_SCHEMA.iter_errors(frame))
            assert frame["hand"]["big_blind_seat"] == 3 and frame["seats"][2]["sitting_out"]
            state = stored_states(db)["t1"]
            assert state["table"]["seats"][2]["status"] == "sitting_out"
            assert state["table"]["seats"][2]["owes"] == "small"
            assert check_chips(state) == 400
        finally:
            runner.stop()
            store.close()

    asyncio.run(main())


def test_a_broke_player_who_buys_in_again_owes_the_blinds_that_passed_him(db: Path) -> None:
    # docs/table.md, Leaving, busting, rebuying (Robert's Rules): the server buys a broke
    # player back in with Table.rebuy, so he is not a new player - he makes up the blinds
    # that passed his empty seat while he was broke
    import asyncio

    from triple_draw.server.store import SQLiteStore
    from triple_draw.server.tables import TableRunner

    async def main() -> None:
        store = SQLiteStore(db)
        runner = TableRunner(table(hand_pause=0.0, buy_in=2), store, None)

        async def play_hand() -> None:
            """The small blind calls, the others fold; checks and pats to the end."""
            hand = runner.hand
            assert hand is not None
            first = runner.hand_id
            while runner.hand_id == first and not hand.is_over:
                ts = runner.seat_map[hand.actor]
                kinds = [a.kind for a in hand.legal_actions()]
                if "discard" in kinds:
                    action: dict[str, Any] = {"kind": "discard", "cards": []}
                elif "check" in kinds:
                    action = {"kind": "check"}
                else:
                    sb = runner.table.small_blind_seat
                    action = {"kind": "call" if ts == sb else "fold"}
                runner.act(conns[ts], runner.hand_id, runner.seq, action)
            await asyncio.sleep(0.05)

        try:
            runner.start()
            conns = [_Conn() for _ in range(4)]
            for k, conn in enumerate(conns):  # two chips each: the big blind is all-in
                runner.attach(conn, None)
                runner.join(conn, f"P{k}", k)
            await asyncio.sleep(0.05)
            broke = None
            for _ in range(12):
                await play_hand()
                doc = stored_states(db)["t1"]["table"]
                owing = [b for b in doc["busted"] if isinstance(b, list)]
                if owing:
                    broke = owing[0][0]
                    break
            assert broke is not None, "no broke player missed a blind"
            owes = runner.table.owes(broke)
            assert owes in ((2, 1), (0, 1))
            bought: list[tuple[int, str | None, tuple[int, int]]] = []
            table_rebuy = runner.table.rebuy

            def rebuy(seat: int, chips: int, **kw: Any) -> None:
                table_rebuy(seat, chips, **kw)
                t = runner.table
                bought.append((seat, t.status(seat), t.owes(seat)))

            runner.table.rebuy = rebuy  # type: ignore[method-assign]
            runner.rebuy(conns[broke])  # (added when the running hand ends)
            for _ in range(3):  # until the hand running ends
                if bought:
                    break
                await play_hand()
            # he bought back in (he did not sit down anew) and owes what he missed, to
            # post it (the table's missed_blinds="post") - not a new player's big blind
            assert bought == [(broke, "waiting", owes)]
        finally:
            runner.stop()
            store.close()

    asyncio.run(main())
