"""The hand replayer: its frames against the engine for every site record of the tests,
its HTTP routes (limits, errors), and the page in a real headless Chromium (Debian's
``chromium`` driven by Playwright, as in test_server_browser.py): ``triple-draw replay
FILE`` loads a record, the page steps to the end and shows what the engine says; on
``triple-draw serve`` a record is uploaded."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from browser_util import browser

from triple_draw import histories

from triple_draw.server.replayer import MAX_UPLOAD, frames, replay_document

__all__ = ["browser"]  # the fixture (browser_util.py)

DATA = Path(__file__).resolve().parent / "data" / "histories"
RECORDS = sorted(DATA.glob("*/*.txt"))
ARTIFACTS = Path(__file__).resolve().parent.parent / "artifacts" / "server"


@pytest.mark.parametrize("path", RECORDS, ids=[f"{p.parent.name}/{p.name}" for p in RECORDS])
def test_frames_end_where_the_engine_ends(path: Path) -> None:
    imported = histories.load(path)
    for h in imported.hands:
        fs = frames(h.hand, list(h.players))
        assert len(fs) == len(h.hand.history)
        last = fs[-1]
        assert [s["stack"] for s in last["seats"]] == list(h.hand.stacks)
        assert last["pot"] == 0 and all(s["bet"] == 0 for s in last["seats"])
        for seat, s in enumerate(last["seats"]):
            if not h.hand.folded[seat]:
                assert s["cards"] == list(h.hand.hole_text(seat))
        # chips are never created: every frame's stacks and pot add up to the start
        total = sum(h.hand.starting_stacks)
        rake = h.hand.result.rake
        for f in fs:
            raked = rake if any(x["kind"] == "rake" for x in fs[: fs.index(f) + 1]) else 0
            assert sum(s["stack"] for s in f["seats"]) + f["pot"] + raked == total


def test_the_document_carries_the_reviews_verdicts() -> None:
    doc = replay_document((DATA / "pokerstars" / "cash.txt").read_bytes())
    hand = doc["hands"][0]
    viewer = hand["viewer"]
    assert hand["players"][viewer] == "hero"
    verdicts = [f["verdict"] for f in hand["frames"] if f["verdict"]]
    assert [v["draw"] for v in verdicts] == [1, 2, 3]
    assert all(v["seat"] == viewer and v["cost"] >= 0 for v in verdicts)


def test_routes_refuse_what_is_not_a_record() -> None:
    pytest.importorskip("starlette")
    pytest.importorskip("httpx2")
    from starlette.applications import Starlette
    from starlette.testclient import TestClient

    from triple_draw.server.replayer import replayer_routes

    client = TestClient(Starlette(routes=replayer_routes()))
    r = client.post("/api/replay", content=b"/etc/passwd")
    assert r.status_code == 400 and "no hand" in r.json()["error"]
    assert "the record" in r.json()["error"]
    r = client.post("/api/replay", content=b"x" * (MAX_UPLOAD + 1))
    assert r.status_code == 413
    assert client.get("/api/replay/file").status_code == 404
    utf16 = (DATA / "fulltilt" / "cash.txt").read_bytes()
    r = client.post("/api/replay", content=utf16)
    assert r.status_code == 200 and r.json()["hands"][0]["site"] == "fulltilt"
    assert client.get("/replay").status_code == 200
    # a PHH text: the names from its players field, the viewer's verdicts
    (h, *_) = histories.load(DATA / "pokerstars" / "cash.txt").hands
    r = client.post("/api/replay", content=h.to_phh().encode())
    assert r.status_code == 200, r.text
    doc = r.json()["hands"][0]
    assert doc["site"] == "phh" and doc["players"] == list(h.players)
    assert doc["players"][doc["viewer"]] == "hero"
    assert [f["seats"][doc["viewer"]]["stack"] for f in doc["frames"]][-1] == h.hand.stacks[
        h.hero_seat
    ]


# ----------------------------------------------------------------------------- Chromium


def _start(cmd: list[str]) -> tuple[subprocess.Popen[str], str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    proc = subprocess.Popen(
        cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env
    )
    assert proc.stdout is not None
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        m = re.search(r"open (http://\S+)", line)
        if m:
            # the address is printed once bound, a moment before uvicorn listens on it
            while time.monotonic() < deadline:
                try:
                    urllib.request.urlopen(m.group(1).rstrip("/") + "/replay", timeout=2).close()
                    return proc, m.group(1)
                except OSError:
                    time.sleep(0.05)
            break
    proc.kill()
    raise RuntimeError("the server did not start")


def _check_end(page: Any, path: Path) -> None:
    """The page at the end of the first hand shows the engine's final table."""
    (h, *_) = histories.load(path).hands
    page.click("#btn-end")
    n = len(h.hand.history)
    assert page.inner_text("#step") == f"{n} / {n}"
    rows = page.locator("#seat-rows tr")
    assert rows.count() == h.hand.n_players
    for seat in range(h.hand.n_players):
        row = rows.nth(seat)
        assert row.locator(".name").inner_text() == h.players[seat]
        assert row.locator(".stack").inner_text() == str(h.hand.stacks[seat])
        if not h.hand.folded[seat]:
            shown = row.locator(".cards .card").all_inner_texts()
            assert shown == list(h.hand.hole_text(seat))
    assert page.inner_text("#pot") == "Pot 0"


def test_replay_command_steps_through_a_record(browser: Any) -> None:
    path = DATA / "pokerstars" / "cash.txt"
    proc, url = _start([sys.executable, "-m", "triple_draw", "replay", str(path), "--port", "0"])
    try:
        ctx = browser.new_context(viewport={"width": 1100, "height": 800})
        page = ctx.new_page()
        page.set_default_timeout(90_000)  # a loaded machine (CI runs two workers)
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(url)
        page.wait_for_selector("#hand-select option", state="attached")
        assert page.locator("#hand-select option").count() == 2
        assert page.inner_text("#step").startswith("1 / ")
        # next and previous
        page.click("#btn-next")
        assert page.inner_text("#step").startswith("2 / ")
        page.click("#btn-prev")
        assert page.inner_text("#step").startswith("1 / ")
        # jump to the third draw, then step to the hero's discard: the verdict shows
        page.click("#streets button[data-street='Draw 3']")
        assert page.inner_text("#street") == "Draw 3"
        for _ in range(10):
            if page.is_visible("#verdict"):
                break
            page.click("#btn-next")
        assert "Draw 3" in page.inner_text("#verdict")
        assert "ignores the betting" in page.inner_text(
            "#verdict"
        ) or "best draw" in page.inner_text("#verdict")
        # the hero's cards are shown at every step, the others' stay unknown until shown
        hero_row = page.locator("#seat-rows tr.viewer")
        assert hero_row.locator(".name").inner_text() == "hero"
        _check_end(page, path)
        # play runs to the end by itself
        page.click("#btn-start")
        page.click("#btn-play")
        deadline = time.monotonic() + 90  # (the page's CSP forbids wait_for_function)
        while time.monotonic() < deadline:
            at, total = page.inner_text("#step").split(" / ")
            if at == total:
                break
            time.sleep(0.2)
        assert at == total and page.inner_text("#btn-play") == "▶ play"
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "replayer.png"))
        assert errors == []
        ctx.close()
    finally:
        proc.kill()
        proc.wait()


def test_serve_has_the_replayer_and_takes_an_upload(browser: Any, tmp_path: Path) -> None:
    proc, url = _start(
        [
            sys.executable,
            "-m",
            "triple_draw",
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            "0",
            "--db",
            str(tmp_path / "r.sqlite3"),
            "--tables",
            "1",
            "--log-level",
            "warning",
        ]
    )
    try:
        ctx = browser.new_context()
        page = ctx.new_page()
        page.set_default_timeout(90_000)  # a loaded machine (CI runs two workers)
        page.goto(url.rstrip("/") + "/replay")
        path = DATA / "winamax" / "cash.txt"
        page.set_input_files("#file-input", str(path))
        page.wait_for_selector("#hand-select option", state="attached")
        _check_end(page, path)
        # "My hands": the token goes in the Authorization header of /api/history, and
        # the seat's hands come back (here a stand-in answer) and are replayed
        stars = DATA / "pokerstars" / "cash.txt"
        (h, *_) = histories.load(stars).hands
        seen: list[str] = []

        def history(route: Any) -> None:
            seen.append(route.request.headers.get("authorization", ""))
            route.fulfill(status=200, body=h.to_phh(), content_type="text/plain")

        page.route("**/api/history?format=phh", history)
        page.fill("#token-input", "t" * 43)
        page.click("#mine-btn")
        page.wait_for_selector("#hand-select option >> text=phh", state="attached")
        assert seen == ["Bearer " + "t" * 43]
        _check_end(page, stars)
        ctx.close()
    finally:
        proc.kill()
        proc.wait()


def test_the_replay_app_refuses_a_foreign_host() -> None:
    """``triple-draw replay``'s app answers localhost, IP addresses and the names it is
    given, and refuses any other Host (DNS rebinding), like the table server."""
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from triple_draw.server.replayer import create_replay_app

    path = DATA / "pokerstars" / "cash.txt"
    for host, allowed, status in (
        ("localhost", [], 200),
        ("127.0.0.1", [], 200),
        ("evil.example", [], 421),
        ("table.example", ["table.example"], 200),
    ):
        app = create_replay_app(path, allowed)
        client = TestClient(app, base_url=f"http://{host}")
        r = client.get("/replay?source=file")
        assert r.status_code == status, (host, r.status_code)


# ------------------------------------------------------------ the replayer on a table server


def test_uploads_are_rate_limited_per_address(tmp_path: Path) -> None:
    """A second upload over ``replay_rate`` (here 6 a minute: bursts of 1) is refused with
    429, a Retry-After and a message that says why - before the record is read."""
    pytest.importorskip("starlette")
    from server_util import client

    from triple_draw.server.app import ServerSettings

    record = (DATA / "pokerstars" / "cash.txt").read_bytes()
    settings = ServerSettings(allowed_hosts=["testserver"], replay_rate=6)
    with client(tmp_path / "r.sqlite3", settings=settings) as c:
        first = c.post("/api/replay", content=record)
        assert first.status_code == 200 and len(first.json()["hands"]) == 2
        second = c.post("/api/replay", content=record)
        assert second.status_code == 429
        assert "too many records replayed from your address" in second.json()["error"]
        assert 1 <= int(second.headers["retry-after"]) <= 10
        # the page's other routes are not limited by it
        assert c.get("/replay").status_code == 200
    # 0: no limit
    settings = ServerSettings(allowed_hosts=["testserver"], replay_rate=0)
    with client(tmp_path / "r.sqlite3", settings=settings) as c:
        codes = [c.post("/api/replay", content=record).status_code for _ in range(3)]
        assert codes == [200, 200, 200]


def test_serve_replay_rate_option_reaches_the_limit(tmp_path: Path) -> None:
    """``triple-draw serve --replay-rate 6`` (bursts of 1): a real server refuses the
    second upload of an address with 429 and says why."""
    import urllib.error

    from server_util import ServerProcess

    record = (DATA / "pokerstars" / "cash.txt").read_bytes()
    server = ServerProcess(tmp_path / "r.sqlite3", "--tables", "1", "--replay-rate", "6")
    try:

        def post() -> tuple[int, str]:
            req = urllib.request.Request(server.url + "/api/replay", data=record, method="POST")
            try:
                with urllib.request.urlopen(req, timeout=60) as r:
                    return r.status, r.read().decode()
            except urllib.error.HTTPError as e:
                return e.code, e.read().decode()

        assert post()[0] == 200
        code, text = post()
        assert code == 429 and "too many records replayed from your address" in text
    finally:
        server.stop()


def test_the_replayer_is_busy_beyond_its_queue() -> None:
    """Records wait their turn for the one worker; beyond MAX_WAITING of them, 503."""
    pytest.importorskip("starlette")
    pytest.importorskip("httpx2")
    from concurrent.futures import ThreadPoolExecutor

    from starlette.applications import Starlette
    from starlette.testclient import TestClient

    from triple_draw.server import replayer

    record = (DATA / "pokerstars" / "cash.txt").read_bytes()
    big = "\n\n\n".join([record.decode("utf-8").strip()] * 40).encode()  # 80 hands
    n = replayer.MAX_WAITING + 3
    # one client, one event loop: the requests of the threads are served side by side
    with TestClient(Starlette(routes=replayer.replayer_routes())) as c:
        with ThreadPoolExecutor(n) as pool:
            answers = pool.map(lambda _: c.post("/api/replay", content=big), range(n))
            codes = [r.status_code for r in answers]
    assert codes.count(200) == replayer.MAX_WAITING + 1, codes
    assert codes.count(503) == 2, codes


def test_a_table_plays_on_while_an_upload_is_replayed(tmp_path: Path) -> None:
    """500 hands uploaded to a real server (loopback) take seconds of CPU; meanwhile a
    player at a table with two bots goes on getting his frames and playing: pings are
    answered within a bound and hands are dealt and played."""
    pytest.importorskip("websockets")
    import asyncio
    import json
    import threading
    import urllib.request
    from concurrent.futures import ThreadPoolExecutor

    import websockets
    from server_util import ServerProcess

    text = (DATA / "pokerstars" / "cash.txt").read_text(encoding="utf-8").strip()
    record = "\n\n\n".join([text] * 250).encode()  # 500 hands
    server = ServerProcess(
        tmp_path / "r.sqlite3",
        *("--tables", "1", "--seats", "3", "--bots", "2", "--bot-delay", "0.05"),
        *("--hand-pause", "0.1", "--clock", "30"),
    )
    result: dict[str, Any] = {}

    def upload() -> None:
        req = urllib.request.Request(server.url + "/api/replay", data=record, method="POST")
        t = time.monotonic()
        with urllib.request.urlopen(req, timeout=120) as r:
            result["body"] = r.read()  # (parsed later: 20 MB of JSON would stall the pings)
        result["took"] = time.monotonic() - t

    async def play() -> tuple[list[float], set[int]]:
        rtts: list[float] = []
        hands: set[int] = set()
        uploading = threading.Event()
        async with websockets.connect(server.ws_url + "/ws/t1") as ws:

            async def recv() -> dict[str, Any]:
                f: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), 10))
                h = f.get("hand") if f["type"] == "state" else None
                if h and h["actor"] == f["seat"] and h["legal_actions"]:
                    kinds = {a["kind"]: a for a in h["legal_actions"]}
                    a = kinds.get("check") or kinds.get("call") or {"kind": "discard"}
                    act = {"kind": a["kind"]}
                    if a["kind"] == "call":
                        act["amount"] = a["amount"]
                    if a["kind"] == "discard":
                        act["cards"] = []
                    msg = {"v": 1, "type": "act", "hand": h["id"], "seq": h["seq"]}
                    await ws.send(json.dumps({**msg, "action": act}))
                if h and uploading.is_set():
                    hands.add(h["id"])
                return f

            await ws.send(json.dumps({"v": 1, "type": "hello"}))
            await ws.send(json.dumps({"v": 1, "type": "join", "name": "Ann"}))
            while (await recv())["type"] != "joined":
                pass
            uploading.set()
            thread = threading.Thread(target=upload)
            thread.start()
            while thread.is_alive():
                t = time.monotonic()
                await ws.send(json.dumps({"v": 1, "type": "ping"}))
                while (await recv())["type"] != "pong":
                    pass
                if thread.is_alive():
                    rtts.append(time.monotonic() - t)
                await asyncio.sleep(0.05)
            thread.join()
        return rtts, hands

    try:
        # in a thread of its own: Playwright's sync API (the browser fixture of this
        # module) keeps an event loop running in this one
        with ThreadPoolExecutor(1) as pool:
            rtts, hands = pool.submit(asyncio.run, play()).result()
    finally:
        server.stop()
    assert len(json.loads(result["body"])["hands"]) == 500
    assert result["took"] > 0.5  # long enough to overlap the pings
    assert len(rtts) >= 5, len(rtts)
    assert len(hands) >= 2, hands  # hands were dealt and played meanwhile
    rtts.sort()
    # the event loop went on: pings were answered all through the replay (at least five
    # while it ran, the typical one at once), and none waited for it; on a loaded 2-core
    # machine (CI runs two test workers) the slowest ping gets a bound that a loop blocked
    # by the replay would still miss
    assert rtts[len(rtts) // 2] < 0.5, rtts
    assert rtts[-1] < max(2.0, result["took"] / 2), (rtts[-5:], result["took"])
