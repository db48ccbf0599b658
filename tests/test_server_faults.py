"""Faults: the server process is killed with SIGKILL mid-hand, several times at random
points, and restarted on the same database while WebSocket bot clients keep playing and
reconnect with their seat tokens. Every table resumes exactly where the last committed
action left it (the same hand, cards and deck), no chip is lost or made, and no action
is applied twice - not even one a client sends again after the restart."""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
from pathlib import Path
from typing import Any

from server_util import ServerProcess

from triple_draw.server.botclient import BotClient
from triple_draw.server.tables import check_chips

TABLES = 2
SEATS = 3
BUY_IN = 200
KILLS = 4
SEED = 20261130
PLAYER_ACTIONS = frozenset(("fold", "check", "call", "bet", "raise", "discard"))


def _states(db: Path) -> dict[str, dict[str, Any]]:
    con = sqlite3.connect(db)
    try:
        return {k: json.loads(v) for k, v in con.execute("SELECT id, state FROM tables")}
    finally:
        con.close()


def _rows(db: Path, sql: str, *args: Any) -> list[Any]:
    con = sqlite3.connect(db)
    try:
        return con.execute(sql, args).fetchall()
    finally:
        con.close()


async def _resend_is_stale(
    url: str, token: str, hand: int, seq: int, action: Any
) -> dict[str, Any]:
    import websockets

    f: dict[str, Any] = {}
    for _ in range(5):  # (the seat's own client may take it back in between: again)
        async with websockets.connect(url) as ws:
            await ws.send(json.dumps({"v": 1, "type": "hello", "token": token}))
            await ws.send(
                json.dumps({"v": 1, "type": "act", "hand": hand, "seq": seq, "action": action})
            )
            while True:
                f = json.loads(await asyncio.wait_for(ws.recv(), 10))
                if f["type"] in ("error", "ack"):
                    break
        if f.get("code") != "replaced":
            return f
    return f


def _moved_on(now: dict[str, Any], then: dict[str, Any]) -> bool:
    """Whether a table's stored state is past the one of an earlier snapshot: a later
    hand, or more actions of the same hand."""
    return bool(
        now["hand"]["id"] > then["hand"]["id"]
        or (now["hand"]["id"] == then["hand"]["id"] and now["hand"]["seq"] > then["hand"]["seq"])
    )


def _can_play(state: dict[str, Any]) -> bool:
    """Whether a table can go on: a hand is running, or two seated players have chips (a
    table where one player won every chip has nobody left to play)."""
    hand = state["hand"]
    if hand is not None and not hand["settled"]:
        return True
    return sum(1 for s in state["table"]["seats"] if s is not None and s["stack"] > 0) >= 2


def test_sigkill_mid_hand_resumes_every_table_exactly(tmp_path: Path) -> None:
    rng = random.Random(SEED)
    db = tmp_path / "faults.sqlite3"
    args = ("--tables", str(TABLES), "--seats", str(SEATS), "--bots", "0", "--hand-pause", "0")
    args += ("--max-seats-per-address", "0")  # every client is on 127.0.0.1
    args += ("--buy-in", str(BUY_IN), "--clock", "30", "--rate", "1000")
    snapshots: list[dict[str, dict[str, Any]]] = []
    stored_at_kill: list[list[Any]] = []
    resend: list[dict[str, Any]] = []
    resenders: list[Any] = []  # the client whose token the resend presented

    async def main() -> list[BotClient]:
        server = await asyncio.to_thread(ServerProcess, db, *args)
        port = server.port
        clients = [
            BotClient(server.ws_url, f"t{t + 1}", f"p{t}{s}", "heuristic", seed=t * 7 + s, seat=s)
            for t in range(TABLES)
            for s in range(SEATS)
        ]
        stop = asyncio.Event()
        tasks = [asyncio.create_task(c.run(stop, retry=0.1)) for c in clients]
        try:
            for k in range(KILLS):
                await asyncio.sleep(rng.uniform(0.4, 1.5))
                server.kill()
                snap = _states(db)
                snapshots.append(snap)
                stored_at_kill.append(_rows(db, "SELECT hand_id, seq, action FROM actions"))
                for state in snap.values():
                    check_chips(state)
                server = await asyncio.to_thread(ServerProcess, db, *args, port=port)
                if k == 0:
                    # a client sends its last stored action again after the restart
                    hid, seq, ts, action = _rows(
                        db,
                        "SELECT hand_id, seq, table_seat, action FROM actions "
                        "ORDER BY hand_id DESC, seq DESC LIMIT 1",
                    )[0]
                    table = _rows(db, "SELECT table_id FROM hands WHERE id = ?", hid)[0][0]
                    who = next(c for c in clients if c.url.endswith("/" + table) and c.seat == ts)
                    assert who.token is not None
                    resenders.append(who)
                    resend.append(
                        await _resend_is_stale(
                            server.ws_url + "/ws/" + table, who.token, hid, seq, json.loads(action)
                        )
                    )
            # play on after the last restart, until every table has moved on (bounded: on
            # a loaded machine the clients take a while to reconnect)
            last = snapshots[-1]
            for _ in range(300):
                await asyncio.sleep(0.1)
                now = _states(db)
                if all(_moved_on(now[t], last[t]) or not _can_play(now[t]) for t in last):
                    break
        finally:
            stop.set()
            await asyncio.gather(*tasks)
            server.stop()
        return clients

    clients = asyncio.run(main())

    # the repeated action was refused, not applied again
    assert resend and resend[0]["type"] == "error" and resend[0]["code"] == "stale", resend
    assert all(c.stats.reconnects >= KILLS for c in clients)
    # the resend presented a seat's token on a second connection, which takes the seat: the
    # bot playing it may have been told so ("replaced") and reconnected; nothing else
    errors = [(c, e["code"]) for c in clients for e in c.stats.errors if e["code"] != "stale"]
    assert all(code == "replaced" and c in resenders for c, code in errors), errors

    final = _states(db)
    total = sum(check_chips(s) for s in final.values())
    assert total == TABLES * SEATS * BUY_IN  # no chip lost or made

    # every hand in progress at a kill went on from exactly that state: its stored
    # history is the start of its history afterwards (same cards, same deck), and the
    # actions stored after that state were applied again on the restart
    resumed = replayed = 0
    for snap, rows_at_kill in zip(snapshots, stored_at_kill, strict=True):
        for tid, state in snap.items():
            h = state["hand"]
            if h is None or h["settled"]:
                continue
            if any(hid == h["id"] and seq >= h["seq"] for hid, seq, _ in rows_at_kill):
                replayed += 1
            later = _rows(db, "SELECT final FROM hands WHERE id = ?", h["id"])[0][0]
            if later is None:  # still running at the end: compare with the live state
                cur = final[tid]["hand"]
                assert cur["id"] == h["id"]
                doc = cur["state"]
            else:
                doc = json.loads(later)
            before = h["state"]["history"]
            assert doc["history"][: len(before)] == before
            assert doc["starting_stacks"] == h["state"]["starting_stacks"]
            resumed += 1
    assert resumed >= 1 and replayed >= 1

    # nothing stored before a kill was changed or lost afterwards
    end_rows = set(_rows(db, "SELECT hand_id, seq, action FROM actions"))
    for rows in stored_at_kill:
        assert set(rows) <= end_rows

    # no action applied twice: each hand's stored actions are numbered 0..n-1 and its
    # history holds exactly those actions, in order, once each
    hands = _rows(db, "SELECT id, final FROM hands WHERE final IS NOT NULL")
    assert len(hands) >= KILLS
    for hid, text in hands:
        rows = _rows(db, "SELECT seq, action FROM actions WHERE hand_id = ? ORDER BY seq", hid)
        assert [seq for seq, _ in rows] == list(range(len(rows)))
        played = [e for e in json.loads(text)["history"] if e["kind"] in PLAYER_ACTIONS]
        assert len(played) == len(rows)
        for (_, stored), event in zip(rows, played, strict=True):
            action = json.loads(stored)
            assert action["kind"] == event["kind"]
            if "amount" in action:
                assert action["amount"] == event["amount"]
            if "cards" in action:
                assert sorted(action["cards"]) == sorted(event["cards"])

    # every table kept playing after the last restart, unless one player had won all its
    # chips by then
    for t in range(TABLES):
        now, then = final[f"t{t + 1}"], snapshots[-1][f"t{t + 1}"]
        assert _moved_on(now, then) or not _can_play(now), (now["hand"], then["hand"])
