"""``triple-draw serve --tournament``: the lobby, registration, the clock and level at the
table, moves shown to the moved player, final standings and payouts; the state survives a
restart and a SIGKILL (every committed action kept, the tournament replayed); and a real
headless Chromium plays a short sit & go to the end."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest
from browser_util import ARTIFACTS, browser
from server_util import ServerProcess, hidden_leaks, run_async

from triple_draw import Level, Structure, Tournament
from triple_draw.server import SQLiteStore
from triple_draw.server.app import ServerSettings, create_tournament_app
from triple_draw.server.tourney import TournamentConfig, TournamentRunner, parse_message
from triple_draw.server.protocol import ProtocolError
from triple_draw.structure import PayoutRow

from starlette.testclient import TestClient

__all__ = ["browser"]  # the fixture (browser_util.py)


def fast_hu(**kw: Any) -> Structure:
    """A heads-up sit & go that ends in a few dozen hands: 60 chips, three-hand levels."""
    return Structure(
        name="hu-fast",
        starting_stack=60,
        levels=(
            Level(5, 10, 10, 20, 0, 3),
            Level(10, 20, 20, 40, 0, 3),
            Level(20, 40, 40, 80, 0, 3),
        ),
        table_size=2,
        min_entries=2,
        max_entries=2,
        start_when_full=True,
        payouts=(PayoutRow(2, (100,)),),
        hand_for_hand=False,
        **kw,
    )


def _app(db: Path, cfg: TournamentConfig) -> Any:
    settings = ServerSettings(rate=1000.0, burst=1000, allowed_hosts=["testserver"])
    return create_tournament_app(cfg, SQLiteStore(db), settings)


class Ws:
    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.last: dict[str, Any] | None = None
        self.frames: list[dict[str, Any]] = []

    def send(self, **msg: Any) -> None:
        self.ws.send_text(json.dumps({"v": 1, **msg}))

    def recv(self) -> dict[str, Any]:
        f = json.loads(self.ws.receive_text())
        self.frames.append(f)
        if f["type"] == "tournament":
            self.last = f
        return f

    def until(self, pred: Any, limit: int = 2000) -> dict[str, Any]:
        for _ in range(limit):
            f = self.recv()
            if pred(f):
                return f
        raise AssertionError("the expected frame never came")


def _my_move(f: dict[str, Any]) -> dict[str, Any] | None:
    t, you = f["table"], f["you"]
    h = t and t["hand"]
    if not (h and you and h["actor"] == you["seat"] and h["legal_actions"]):
        return None
    kinds = [a["kind"] for a in h["legal_actions"]]
    if "discard" in kinds:
        action: dict[str, Any] = {"kind": "discard", "cards": []}
    else:
        action = {"kind": "check"} if "check" in kinds else {"kind": "call"}
    return {
        "type": "act",
        "table": t["id"],
        "hand": t["hand_no"],
        "seq": t["seq"],
        "action": action,
    }


def test_register_play_to_the_end_and_the_final_standings(tmp_path: Path) -> None:
    cfg = TournamentConfig(structure=fast_hu(), bots=1, bot_delay=0, hand_pause=0, clock=30)
    with TestClient(_app(tmp_path / "t.db", cfg)) as c:
        lobby = c.get("/api/tournament").json()
        assert lobby["status"] == "registering" and lobby["entries"] == ["Bot 1"]
        assert "seed" not in json.dumps(lobby)
        with (
            c.websocket_connect("/ws/tournament") as raw,
            c.websocket_connect("/ws/tournament") as raw2,
        ):
            me, watcher = Ws(raw), Ws(raw2)
            me.send(type="hello")
            assert me.recv()["type"] == "welcome"
            watcher.send(type="hello")
            watcher.until(lambda f: f["type"] == "tournament")
            me.send(type="register", name="Bot 7")
            assert me.until(lambda f: f["type"] == "error")["code"] == "bad_name"
            me.send(type="register", name="Ann")
            reg = me.until(lambda f: f["type"] == "registered")
            assert reg["player"] == "Ann" and len(reg["token"]) > 20
            f = me.until(lambda f: f["type"] == "tournament" and f["status"] == "running")
            assert f["you"]["player"] == "Ann" and f["you"]["table"] == 1
            assert f["clock"]["level"] == 1 and f["clock"]["small_bet"] == 10
            assert any(n["kind"] == "seat" for n in f["notices"])
            while True:
                f = me.recv()
                if f["type"] == "tournament" and f["status"] == "over":
                    break
                if f["type"] == "tournament" and (move := _my_move(f)) is not None:
                    me.send(**move)
            standings = f["standings"]
            assert sorted((e["place"], e["prize"]) for e in standings) == [(1, 200), (2, 0)]
            assert f["you"]["place"] in (1, 2) and f["clock"]["level"] >= 1
            # the spectator never saw a card that was not shown
            w = watcher.until(lambda f: f["type"] == "tournament" and f["status"] == "over")
            for fr in watcher.frames:
                if fr["type"] == "tournament" and fr["table"] and fr["table"]["hand"]:
                    t = fr["table"]
                    fake = {"type": "state", "hand": t["hand"], "events": t["events"]}
                    assert hidden_leaks(fake, set()) == [], fr
                    assert t["hand"]["hole_cards"] == [] and t["hand"]["legal_actions"] == []
            assert w["you"] is None
    # the stored document replays to the same tournament
    con = sqlite3.connect(tmp_path / "t.db")
    (text,) = con.execute("SELECT state FROM tables WHERE id = 'tournament'").fetchone()
    con.close()
    doc = json.loads(text)
    t = Tournament.from_dict(doc["tournament"])
    assert t.is_over and sorted(e.prize for e in t.entries()) == [0, 200]
    assert set(doc["players"]) == {"Ann", "Bot 1"} and doc["players"]["Bot 1"] == ""


def test_a_restart_resumes_the_tournament_and_the_token_takes_the_player_back(
    tmp_path: Path,
) -> None:
    db = tmp_path / "t.db"
    cfg = TournamentConfig(structure=fast_hu(), bots=1, bot_delay=0, hand_pause=0, clock=30)
    with TestClient(_app(db, cfg)) as c, c.websocket_connect("/ws/tournament") as raw:
        me = Ws(raw)
        me.send(type="hello")
        me.send(type="register", name="Ann")
        token = me.until(lambda f: f["type"] == "registered")["token"]
        f = me.until(lambda f: f["type"] == "tournament" and _my_move(f) is not None)
        before = (f["table"]["hand_no"], f["table"]["seq"], f["table"]["hand"]["hole_cards"])
    with TestClient(_app(db, cfg)) as c, c.websocket_connect("/ws/tournament") as raw:
        me = Ws(raw)
        me.send(type="hello", token=token)
        w = me.until(lambda f: f["type"] == "welcome")
        assert w["player"] == "Ann"
        f = me.until(lambda f: f["type"] == "tournament")
        t = f["table"]
        assert (t["hand_no"], t["seq"], t["hand"]["hole_cards"]) == before  # the same cards
        me.send(**_my_move(f))  # type: ignore[arg-type]
        assert me.until(lambda f: f["type"] in ("ack", "error"))["type"] == "ack"
        me.send(type="hello", token=token)
        assert me.until(lambda f: f["type"] == "error")["code"] == "not_allowed"
    with TestClient(_app(db, cfg)) as c, c.websocket_connect("/ws/tournament") as raw:
        me = Ws(raw)
        me.send(type="hello", token="x" * 40)
        assert me.until(lambda f: f["type"] == "error")["code"] == "bad_token"


def test_a_player_whose_clock_runs_out_is_absent_until_he_is_back(tmp_path: Path) -> None:
    """TDA *At Your Seat*: absent, he is dealt in and blinded off; ``back`` ends it."""
    cfg = TournamentConfig(structure=fast_hu(), bots=1, bot_delay=0, hand_pause=0.05, clock=0.2)
    with (
        TestClient(_app(tmp_path / "t.db", cfg)) as c,
        c.websocket_connect("/ws/tournament") as raw,
    ):
        me = Ws(raw)
        me.send(type="hello")
        me.send(type="register", name="Ann")
        f = me.until(lambda f: f["type"] == "tournament" and f["you"] and f["you"]["absent"])
        assert f["table"]["seats"][f["you"]["seat"]]["absent"]
        me.send(type="back")
        me.until(lambda f: f["type"] == "tournament" and not f["you"]["absent"])


@pytest.mark.parametrize(
    ("msg", "code"),
    [
        ("nope", "bad_message"),
        ('{"v": 2, "type": "hello"}', "bad_message"),
        ('{"v": 1, "type": "shove"}', "bad_message"),
        ('{"v": 1, "type": "hello", "token": "short"}', "bad_token"),
        ('{"v": 1, "type": "register", "name": ""}', "bad_name"),
        ('{"v": 1, "type": "register", "name": "x", "seat": 1}', "bad_message"),
        ('{"v": 1, "type": "act", "table": 1, "hand": 1, "seq": 0}', "bad_message"),
        ('{"v": 1, "type": "act", "table": 1, "hand": 1, "seq": 0, "action": {"kind": "x"}}',
         "bad_message"),
        ('{"v": 1, "type": "act", "table": 1, "hand": 1, "seq": 0, '
         '"action": {"kind": "discard", "cards": ["1x"]}}', "bad_message"),
        ('{"v": 1, "type": "act", "table": true, "hand": 1, "seq": 0, "action": {}}',
         "bad_message"),
        ("x" * 5000, "too_large"),
        # nested past what the JSON parser's recursion allows, in under 2,048 bytes
        ("[" * 1020 + "]" * 1020, "bad_message"),
        ('{"v": 1, "type": "register", "name": "x", "x": ' + "[" * 900 + "]" * 900 + "}",
         "bad_message"),
        ('{"v": 1, "type": "register", "name": "\\ud800"}', "bad_message"),
    ],
)  # fmt: skip
def test_bad_messages_are_refused(msg: str, code: str) -> None:
    with pytest.raises(ProtocolError) as e:
        parse_message(msg)
    assert e.value.code == code


def test_a_tables_database_is_not_served_as_a_tournament(tmp_path: Path) -> None:
    from triple_draw.cli import main

    db = tmp_path / "cash.db"
    store = SQLiteStore(db)
    store.save_table("t1", {"version": 2, "seats": []})  # a table's row
    store.close()
    code = main(["serve", "--tournament", "sng2", "--db", str(db), "--port", "0"])
    assert code == 2
    db2 = tmp_path / "tourney.db"
    store = SQLiteStore(db2)
    store.save_table("tournament", {"version": 1, "kind": "tournament"})
    store.close()
    code = main(["serve", "--db", str(db2), "--port", "0"])  # tables on a tournament's file
    assert code == 2


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--tournament", "sng9"], ["sng9"]),
        (["--tournament-bots", "1"], ["--tournament-bots needs --tournament"]),
        (["--tournament", "sng2", "--accounts"], ["--accounts"]),
        (["--tournament", "sng2", "--tournament-bots", "3"], ["takes 2 entries"]),
        (["--tournament", "sng2", "--bot", "nobody"], ["nobody"]),
    ],
)
def test_serve_tournament_bad_options(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: list[str], words: list[str]
) -> None:
    from triple_draw.cli import main

    code = main(["serve", "--db", str(tmp_path / "x.db"), "--port", "0", *argv])
    err = capsys.readouterr().err
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    for w in words:
        assert w in lines[0]


# -- a real server process: SIGKILL --------------------------------------------------------------


def _stored(db: Path) -> dict[str, Any]:
    con = sqlite3.connect(db)
    try:
        (text,) = con.execute("SELECT state FROM tables WHERE id = 'tournament'").fetchone()
    finally:
        con.close()
    return json.loads(text)  # type: ignore[no-any-return]


def test_sigkill_keeps_every_committed_action(tmp_path: Path) -> None:
    """Killed with SIGKILL in the middle of the play, the server comes back with every
    registration, hand and action it had committed: the stored document replays, the
    player's token takes him back, and the tournament plays on to the end."""
    f = tmp_path / "hu.json"
    f.write_text(json.dumps(fast_hu().to_dict()))
    db = tmp_path / "t.db"
    args = ["--tournament", str(f), "--bot-delay", "0.01", "--hand-pause", "0.01"]
    server = ServerProcess(db, *args)

    async def play(url: str, token: str | None, moves: int) -> tuple[str, dict[str, Any]]:
        import websockets

        async with websockets.connect(url + "/ws/tournament") as ws:
            if token is None:
                await ws.send(json.dumps({"v": 1, "type": "hello"}))
                await ws.send(json.dumps({"v": 1, "type": "register", "name": "Ann"}))
            else:
                await ws.send(json.dumps({"v": 1, "type": "hello", "token": token}))
            last: dict[str, Any] = {}
            made = 0
            while made < moves:
                fr = json.loads(await asyncio.wait_for(ws.recv(), 20))
                if fr["type"] == "registered":
                    token = fr["token"]
                elif fr["type"] == "tournament":
                    last = fr
                    if fr["status"] == "over":
                        break
                    move = _my_move(fr)
                    if move is not None:
                        await ws.send(json.dumps({"v": 1, **move}))
                        made += 1
            assert token is not None
            return token, last

    try:
        # two moves of Ann's: still the first betting round or its draw, where nobody can
        # have lost 60 chips yet (the round is capped at 40), so the tournament runs on
        # (twelve moves could reach the end of it on some deals: a flaky kill point)
        token, last = run_async(play(server.ws_url, None, 2))
        assert last["status"] == "running"
        server.kill()
        at_kill = _stored(db)
        hands_at_kill = len(at_kill["tournament"]["hands"])
        server = ServerProcess(db, *args)
        again = _stored(db)
        # nothing committed was lost: the log at the kill is a prefix of the one now
        assert (
            again["tournament"]["log"][: len(at_kill["tournament"]["log"])]
            == (at_kill["tournament"]["log"])
        )
        token2, last = run_async(play(server.ws_url, token, 10_000))
        assert token2 == token and last["status"] == "over"
        final = _stored(db)
        t = Tournament.from_dict(final["tournament"])
        assert t.is_over and len(final["tournament"]["hands"]) >= hands_at_kill
        assert sorted(e.place for e in t.entries()) == [1, 2]
    finally:
        server.stop()


# -- a real browser plays a sit & go to the end ---------------------------------------------


def test_headless_chromium_plays_a_sit_and_go_to_the_end(tmp_path: Path, browser: Any) -> None:
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
    from playwright.sync_api import expect

    f = tmp_path / "hu.toml"
    f.write_text(
        'name = "hu-fast"\nstarting_stack = 60\ntable_size = 2\nmin_entries = 2\n'
        "max_entries = 2\nstart_when_full = true\nhand_for_hand = false\n"
        "payouts = [{min_entries = 2, shares = [100]}]\n"
        "[[levels]]\nsmall_blind = 5\nbig_blind = 10\nsmall_bet = 10\nbig_bet = 20\nduration = 3\n"
        "[[levels]]\nsmall_blind = 10\nbig_blind = 20\nsmall_bet = 20\nbig_bet = 40\nduration = 3\n"
        "[[levels]]\nsmall_blind = 20\nbig_blind = 40\nsmall_bet = 40\nbig_bet = 80\n"
    )
    server = ServerProcess(
        tmp_path / "t.db", "--tournament", str(f), "--bot-delay", "0.02", "--hand-pause", "0.05"
    )
    try:
        ctx = browser.new_context(viewport={"width": 1200, "height": 900})
        page = ctx.new_page()
        page.set_default_timeout(60_000)
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(server.url + "/")
        page.wait_for_selector("#reg-name")
        page.fill("#reg-name", "Ann")
        page.click("#reg-btn")
        # (no wait_for_function: the page's CSP allows no script from strings)
        expect(page.locator("#you")).to_contain_text("Ann:", timeout=30_000)
        assert page.text_content("#level") == "1"
        assert "hands left" in (page.text_content("#level-left") or "")
        assert "seat" in (page.text_content("#notices") or "").lower()
        deadline = time.monotonic() + 240
        clicks = 0
        while page.is_hidden("#final") and time.monotonic() < deadline:
            for button in ("#btn-draw", "#btn-check", "#btn-call"):
                if page.is_enabled(button):
                    try:  # (a frame may have come and disabled it meanwhile)
                        page.click(button, timeout=1000)
                        clicks += 1
                    except PlaywrightTimeout:
                        pass
                    break
            else:
                page.wait_for_timeout(20)
        assert clicks > 5
        assert page.is_visible("#final"), "the sit & go did not finish"
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "tournament-final.png"))
        assert page.text_content("#standings-title") == "Final standings and payouts"
        rows = page.locator("#standings tbody tr").all_inner_texts()
        assert len(rows) == 2
        assert rows[0].split("\t")[0] == "1" and rows[0].split("\t")[-1] == "200"
        assert rows[1].split("\t")[0] == "2" and rows[1].split("\t")[-1] == "0"
        assert "finished" in (page.text_content("#you") or "")
        assert errors == []
        ctx.close()
    finally:
        server.stop()


def test_a_moved_player_is_shown_his_move_and_his_new_table(tmp_path: Path) -> None:
    """Moves between tables shown to the moved player: balancing takes him from table 2 to
    the short table 1; his frame's notices say so, and his table is the new one."""
    from conftest import fold_around, scripted_hand, tiny_structure

    cfg = TournamentConfig(structure=tiny_structure(), bots=0)
    store = SQLiteStore(tmp_path / "t.db")
    runner = TournamentRunner(cfg, store, None)
    t = runner.t
    for k in range(12):
        runner.players[f"p{k}"] = f"digest{k}"
        t.register(f"p{k}")
    t.start()
    fold_around(t, 1)
    fold_around(t, 2)
    mover = t.players_at(2)[t.table(2).next_hand()["big_blind"]]
    seats1 = t.players_at(1)
    bb1 = t.table(1).big_blind_seat
    after = [s for s in ((bb1 + k) % 6 for k in range(1, 6)) if s in seats1]
    scripted_hand(t, 1, seats1[after[2]], [seats1[after[0]], seats1[after[1]]])

    class Conn:
        player = mover

    f = runner.frame(Conn())
    kinds = [(n["kind"], n.get("why")) for n in f["notices"]]
    assert ("move", "balance") in kinds and ("seat", "balance") in kinds
    move = next(n for n in f["notices"] if n["kind"] == "move")
    assert (move["from"], move["to"]) == (2, 1)
    assert f["you"]["table"] == 1 and f["table"]["id"] == 1
    names = [s["player"] for s in f["table"]["seats"] if s is not None]
    assert mover in names
    store.close()
