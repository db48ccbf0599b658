"""The rake at the table server: ``triple-draw serve --rake ...`` builds raked tables, every
hand a table deals takes the rake, the frames and the table listing show it, the stored
state counts it (chips bought in - cashed out - raked = the stacks), and a restarted
server keeps it; a bad rake option is one line and exit status 2."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from server_util import Peer, ServerProcess, client, table

from triple_draw import Rules
from triple_draw.cli import build_parser, main
from triple_draw.server import cli as serve_cli
from triple_draw.server.tables import check_chips

#: half of every pot, at most 3 chips, hands that end before the draw too
RAKED = Rules(rake_percent="50", rake_cap=3, rake_no_draw_no_drop=False)


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "tables.sqlite3"


def stored_states(db: Path) -> dict[str, Any]:
    con = sqlite3.connect(db)
    try:
        return {k: json.loads(v) for k, v in con.execute("SELECT id, state FROM tables")}
    finally:
        con.close()


def finished_hands(db: Path) -> list[dict[str, Any]]:
    con = sqlite3.connect(db)
    try:
        rows = con.execute("SELECT final FROM hands WHERE final IS NOT NULL ORDER BY id")
        return [json.loads(r[0]) for r in rows]
    finally:
        con.close()


def seat_two(c: Any, ws: list[Any]) -> tuple[Peer, Peer]:
    a, b = Peer(ws[0]), Peer(ws[1])
    a.hello()
    assert a.join("Ann", 0)["type"] == "joined"
    b.hello()
    assert b.join("Bob", 1)["type"] == "joined"
    a.sync()
    b.sync()
    return a, b


def actor(a: Peer, b: Peer) -> Peer:
    a.sync()
    b.sync()
    return a if a.my_turn() else b


def play_hand(a: Peer, b: Peer, fold: bool) -> dict[str, Any]:
    """Play the current hand out - the first to act raises and the other folds, or both
    check and call and stand pat - and return its last frame's hand."""
    assert a.state is not None and a.state["hand"] is not None
    hand_id = a.state["hand"]["id"]
    for _ in range(200):
        p = actor(a, b)
        h = p.state["hand"]  # type: ignore[index]
        if h["id"] != hand_id or h["phase"] == "over":
            break
        kinds = {x["kind"] for x in h["legal_actions"]}
        if fold:
            action: dict[str, Any] = {"kind": "fold" if h["bet_level"] > 2 else "raise"}
        elif "discard" in kinds:
            action = {"kind": "discard", "cards": []}
        else:
            action = {"kind": "check" if "check" in kinds else "call"}
        assert p.act(action)["type"] == "ack"
    else:
        raise AssertionError("the hand did not end")
    over = next(
        f["hand"]
        for f in reversed(a.frames)
        if f["type"] == "state" and f["hand"] and f["hand"]["id"] == hand_id
        and f["hand"]["phase"] == "over"
    )  # fmt: skip
    return over  # type: ignore[no-any-return]


def wait_next_hand(a: Peer, b: Peer, hand_id: int) -> None:
    """Read both connections' frames until the hand after ``hand_id`` has started."""
    for peer in (a, b):
        peer.sync()
        if peer.state["hand"]["id"] == hand_id:  # type: ignore[index]
            peer.until(lambda f: f["type"] == "state" and f["hand"]["id"] > hand_id)
        peer.sync()


def rake_events(peer: Peer, hand_id: int) -> list[int]:
    """The amounts of the rake events ``peer`` was sent for hand ``hand_id``."""
    out: list[int] = []
    for f in peer.frames:
        if f["type"] == "state" and f["hand"] and f["hand"]["id"] == hand_id:
            if f["events_from"] == 0:
                out = []
            out += [e["amount"] for e in f["events"] if e["kind"] == "rake"]
    return out


# -- the options -----------------------------------------------------------------------------


def test_serve_options_build_raked_tables(tmp_path: Path) -> None:
    argv = ["serve", "--tables", "2", "--seats", "4", "--rake", "4.5", "--rake-cap", "3"]
    tables = serve_cli.build_tables(build_parser().parse_args(argv))
    assert len(tables) == 2
    for t in tables:
        r = t.rules
        assert (r.rake_percent, r.rake_cap, r.rake_rounding, r.rake_no_draw_no_drop) == (
            "4.5", 3, "down", True,
        )  # fmt: skip
        assert r.max_players == 4 and t.info()["rake"] == {
            "percent": "4.5", "cap": 3, "rounding": "down", "no_draw_no_drop": True,
        }  # fmt: skip
    argv = ["serve", "--rules", "online", "--rake", "5", "--rake-rounding", "half-even"]
    (t, *_) = serve_cli.build_tables(build_parser().parse_args([*argv, "--rake-always"]))
    assert t.rules == Rules.online(
        2, max_players=6, rake_percent="5", rake_rounding="half-even", rake_no_draw_no_drop=False
    )
    (t, *_) = serve_cli.build_tables(build_parser().parse_args(["serve"]))
    assert t.rules == Rules.live(2, max_players=6) and "rake" not in t.info()


@pytest.mark.parametrize(
    ("argv", "why"),
    [
        (["--rake", "five"], "argument --rake: expected a percentage"),
        (["--rake", "120"], "argument --rake"),
        (["--rake", "5", "--rake-cap", "-2"], "argument --rake-cap: -2 is not at least 0"),
        (["--rake", "5", "--rake-rounding", "up"], "argument --rake-rounding: invalid choice"),
        (["--rake-cap", "3"], "--rake-cap needs --rake"),
        (["--rake-always"], "--rake-always needs --rake"),
    ],
)
def test_serve_refuses_bad_rake_options_in_one_line(
    argv: list[str], why: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["serve", "--db", str(tmp_path / "x.sqlite3"), *argv]) == 2
    out, err = capsys.readouterr()
    assert why in err and err.count("\n") == 1 and "Traceback" not in err, err
    assert out == "" and not (tmp_path / "x.sqlite3").exists()


# -- a raked table (in process) --------------------------------------------------------------


def test_every_hand_of_a_raked_table_takes_the_rake(db: Path) -> None:
    with (
        client(db, [table(rules=RAKED, hand_pause=0.0)]) as c,
        c.websocket_connect("/ws/t1") as w1,
        c.websocket_connect("/ws/t1") as w2,
    ):
        a, b = seat_two(c, [w1, w2])
        assert a.frames[0]["table"]["rake"] == {
            "percent": "50", "cap": 3, "rounding": "down", "no_draw_no_drop": False,
        }  # fmt: skip
        assert c.get("/api/tables").json()["tables"][0]["rake"]["percent"] == "50"
        taken = 0
        for k, fold in enumerate((True, False, False)):
            h = play_hand(a, b, fold)
            res = h["result"]
            pot = sum(p["amount"] for p in res["pots"])
            # half the pot, at most 3: a hand that ends before the draw is raked too
            assert res["rake"] == min(3, pot // 2) > 0, (k, res)
            assert sum(x for _, x in res["net"]) == -res["rake"]
            assert sum(x for p in res["pots"] for _, x in p["shares"]) == pot - res["rake"]
            assert rake_events(a, h["id"]) == rake_events(b, h["id"]) == [res["rake"]]
            taken += res["rake"]
            state = stored_states(db)["t1"]
            assert state["rake"] == taken
            assert check_chips(state) == 200 - taken
            wait_next_hand(a, b, h["id"])
        finals = finished_hands(db)  # the stored documents of the hands: raked
        assert len(finals) == 3 and sum(f["outcome"]["rake"] for f in finals) == taken
        assert all(f["rules"]["rake_percent"] == "50" for f in finals)
        history = c.get("/api/history", headers={"authorization": f"Bearer {a.token}"}).text
        assert 'rake_percent = "50"' in history
    # a new app on the same file: the table keeps its rake and the rake it took
    with client(db, [table(rules=RAKED)]) as c:
        runner = c.app.state.runners["t1"]  # type: ignore[attr-defined]
        assert runner.rake == taken and runner.table.rules == RAKED
        assert runner.hand.rules == RAKED


def test_no_draw_no_drop_at_the_server(db: Path) -> None:
    rules = RAKED.replace(rake_no_draw_no_drop=True)
    with (
        client(db, [table(rules=rules, hand_pause=0.0)]) as c,
        c.websocket_connect("/ws/t1") as w1,
        c.websocket_connect("/ws/t1") as w2,
    ):
        a, b = seat_two(c, [w1, w2])
        h = play_hand(a, b, fold=True)  # over before the first draw: no rake
        assert "rake" not in h["result"] and rake_events(a, h["id"]) == []
        assert "rake" not in stored_states(db)["t1"]
        wait_next_hand(a, b, h["id"])
        h = play_hand(a, b, fold=False)  # drawn: raked
        assert h["result"]["rake"] == 2  # half of the 4 chips of the blinds, checked down
        assert check_chips(stored_states(db)["t1"]) == 198


# -- a real server on a loopback port ----------------------------------------------------------


def test_a_served_raked_table_takes_the_rake_from_its_hands(tmp_path: Path) -> None:
    from triple_draw.server.botclient import BotClient

    db = tmp_path / "t.sqlite3"
    args = ("--tables", "1", "--seats", "2", "--bots", "0", "--hand-pause", "0")
    rake = ("--rake", "50", "--rake-cap", "3", "--rake-always")
    server = ServerProcess(db, *args, *rake)

    async def play() -> None:
        clients = [BotClient(server.ws_url, "t1", f"p{i}", seat=i) for i in range(2)]
        stop = asyncio.Event()
        tasks = [asyncio.create_task(c.run(stop)) for c in clients]
        for _ in range(200):
            await asyncio.sleep(0.05)
            if len(finished_hands(db)) >= 3:
                break
        stop.set()
        await asyncio.gather(*tasks)

    try:
        with urllib.request.urlopen(server.url + "/api/tables", timeout=10) as r:
            info = json.loads(r.read())["tables"][0]
        assert info["rake"] == {
            "percent": "50", "cap": 3, "rounding": "down", "no_draw_no_drop": False,
        }  # fmt: skip
        asyncio.run(play())
    finally:
        server.stop()
    finals = finished_hands(db)
    assert len(finals) >= 3
    for f in finals:
        pot = sum(p["amount"] for p in f["outcome"]["pots"])
        assert f["rules"]["rake_percent"] == "50"
        assert f["outcome"]["rake"] == min(3, pot // 2) > 0
        assert sum(f["stacks"]) + f["outcome"]["rake"] == sum(f["starting_stacks"])
    state = stored_states(db)["t1"]
    assert state["rake"] == sum(f["outcome"]["rake"] for f in finals)
    check_chips(state)
