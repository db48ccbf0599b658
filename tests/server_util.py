"""Shared pieces of the server tests: an in-process app with Starlette's test client, a
real server process on a loopback port, and the seat-isolation check of a frame."""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import os
import re
import subprocess
import sys
import time
from collections.abc import Callable, Coroutine, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import anyio
import pytest

pytest.importorskip("starlette", reason="the server extra is not installed")
pytest.importorskip("fastjsonschema", reason="the server extra is not installed")
pytest.importorskip("jsonschema", reason="the test extra is not installed")

import jsonschema
from starlette.testclient import TestClient

import triple_draw
from triple_draw import Rules
from triple_draw.server import SQLiteStore, TableConfig, create_app
from triple_draw.server.app import ServerSettings
from triple_draw.server.protocol import load_schema

SERVER_SCHEMA = jsonschema.Draft202012Validator(load_schema("server"))
CARD = re.compile(r"^[2-9TJQKA][cdhs]$")


def run_async(coro: Coroutine[Any, Any, Any]) -> Any:
    """``asyncio.run(coro)`` on a thread of its own. A browser test's Playwright (the
    sync API) keeps an event loop running on the test's thread while its module's browser
    lives, and ``asyncio.run`` refuses to start beside one: a test of the same module that
    runs after a browser test (another order, another worker) would fail."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


def table(id: str = "t1", **kw: Any) -> TableConfig:
    kw.setdefault("rules", Rules())
    kw.setdefault("buy_in", 100)
    kw.setdefault("clock", 30.0)
    kw.setdefault("bot_delay", 0.0)
    kw.setdefault("hand_pause", 0.0)
    return TableConfig(id, f"Table {id}", **kw)


def server_settings(**kw: Any) -> ServerSettings:
    """The tests' server settings, ``kw`` over these: a generous rate limit (the tests
    read frames with ping/pong barriers), the host the test client's requests name
    ('testserver') allowed, and history downloads not rate-limited."""
    kw.setdefault("rate", 1000.0)
    kw.setdefault("burst", 1000)
    kw.setdefault("allowed_hosts", ["testserver"])
    kw.setdefault("history_rate", 0)
    return ServerSettings(**kw)


@contextmanager
def client(
    db: Path, tables: list[TableConfig] | None = None, settings: ServerSettings | None = None
) -> Iterator[TestClient]:
    """An in-process app on ``db`` (one table by default; :func:`server_settings` unless
    ``settings``) and Starlette's test client of it."""
    settings = settings or server_settings()
    app = create_app(tables or [table()], SQLiteStore(db), settings)
    with TestClient(app) as c:
        yield c


class Peer:
    """One WebSocket of the test client, with a timeout on every receive and a record of
    every frame it got."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.frames: list[dict[str, Any]] = []
        self.state: dict[str, Any] | None = None
        self.token: str | None = None
        self.seat: int | None = None

    def send(self, **msg: Any) -> None:
        self.ws.send_text(json.dumps({"v": 1, **msg}))

    def send_raw(self, text: str) -> None:
        self.ws.send_text(text)

    def recv(self, timeout: float = 10.0) -> dict[str, Any]:
        ws = self.ws

        async def get() -> Any:
            with anyio.fail_after(timeout):
                return await ws._send_rx.receive()

        msg = ws.portal.call(get)
        if msg["type"] == "websocket.close":
            raise ConnectionError(f"closed: {msg.get('code')} {msg.get('reason')}")
        f = json.loads(msg["text"])
        errors = sorted(SERVER_SCHEMA.iter_errors(f), key=str)
        assert not errors, f"frame breaks the server schema: {errors[0]}\n{f}"
        self.frames.append(f)
        if f["type"] == "state":
            self.state = f
            self.seat = f["seat"]
        elif f["type"] == "joined":
            self.token = f["token"]
            self.seat = f["seat"]
        return f

    def until(self, pred: Callable[[dict[str, Any]], bool], limit: int = 400) -> dict[str, Any]:
        for _ in range(limit):
            f = self.recv()
            if pred(f):
                return f
        raise AssertionError("the expected frame never came")

    def sync(self) -> dict[str, Any] | None:
        """Read everything the server has sent so far (ping/pong as a barrier)."""
        self.send(type="ping")
        self.until(lambda f: f["type"] == "pong")
        return self.state

    def hello(self, token: str | None = None) -> dict[str, Any]:
        if token is None:
            self.send(type="hello")
        else:
            self.send(type="hello", token=token)
        return self.until(lambda f: f["type"] in ("welcome", "error"))

    def join(self, name: str, seat: int | None = None) -> dict[str, Any]:
        if seat is None:
            self.send(type="join", name=name)
        else:
            self.send(type="join", name=name, seat=seat)
        return self.until(lambda f: f["type"] in ("joined", "error"))

    def my_turn(self) -> bool:
        s = self.state
        return bool(
            s and s["hand"] and s["hand"]["actor"] == self.seat and s["hand"]["legal_actions"]
        )

    def act(self, action: dict[str, Any], seq: int | None = None) -> dict[str, Any]:
        assert self.state is not None
        h = self.state["hand"]
        self.send(type="act", hand=h["id"], seq=h["seq"] if seq is None else seq, action=action)
        return self.until(lambda f: f["type"] in ("ack", "error"))


def held_cards(final: dict[str, Any], hand_seat: int) -> set[str]:
    """Every card a seat held during a hand, from the hand's full document (the truth)."""
    out: set[str] = set()
    for e in final["history"]:
        if e["kind"] in ("deal", "draw") and e.get("seat") == hand_seat:
            out.update(e.get("cards", ()))
    return out


def hidden_leaks(frame: dict[str, Any], own: set[str]) -> list[str]:
    """Every card (or secret field) in ``frame`` its receiver may not see. ``own``: the
    cards the receiving seat held in the frame's hand (empty for a spectator). Any other
    card must be one shown at the showdown, and only once the hand is over."""
    text = json.dumps(frame)
    bad = [w for w in ("deck", "stub", "key", "word_pos", "out_of_play") if f'"{w}"' in text]
    if frame.get("type") != "state":
        return bad + re.findall(r'"([2-9TJQKA][cdhs])"', text)
    h = frame["hand"]
    shown: set[str] = set()
    if h is not None:
        bad += [c for c in h["hole_cards"] if c not in own]
        for p in h["players"]:
            shown.update(p["shown"] or ())
        if h["result"]:
            for e in h["result"]["showdown"]:
                if e["cards"] and not e["shown"]:
                    bad += e["cards"]
                shown.update(e["cards"] or ())
    for e in frame["events"]:
        if e.get("cards"):
            if e["kind"] != "show":
                bad += e["cards"]
            shown.update(e["cards"])
    if shown and (h is None or h["phase"] != "over"):
        bad += sorted(shown)
    for c in re.findall(r'"([2-9TJQKA][cdhs])"', text):
        if c not in own and c not in shown:
            bad.append(c)
    return bad


# -- a real server process ----------------------------------------------------------------


def _env() -> dict[str, str]:
    env = dict(os.environ)
    src = str(Path(triple_draw.__file__).resolve().parent.parent)
    env["PYTHONPATH"] = src + os.pathsep + env.get("PYTHONPATH", "")
    env["PYTHONUNBUFFERED"] = "1"
    return env


class ServerProcess:
    """``triple-draw serve`` in a child process on a free loopback port."""

    def __init__(self, db: Path, *args: str, port: int = 0) -> None:
        cmd = [sys.executable, "-m", "triple_draw", "serve", "--host", "127.0.0.1"]
        cmd += ["--port", str(port), "--db", str(db), "--log-level", "warning", *args]
        self.proc = subprocess.Popen(
            cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=_env()
        )
        assert self.proc.stdout is not None
        deadline = time.monotonic() + 60
        line = ""
        while time.monotonic() < deadline:
            line = self.proc.stdout.readline()
            if not line:
                break
            m = re.search(r"open (http://\S+)/ ", line)
            if m:
                self.url = m.group(1)
                self.port = int(self.url.rsplit(":", 1)[1])
                self._wait_ready()
                return
        self.proc.kill()
        raise RuntimeError(f"the server did not start: {line!r}")

    def _wait_ready(self) -> None:
        import urllib.request

        for _ in range(200):
            try:
                with urllib.request.urlopen(self.url + "/api/tables", timeout=2) as r:
                    if r.status == 200:
                        return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("the server does not answer")

    @property
    def ws_url(self) -> str:
        return self.url.replace("http://", "ws://")

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs."""
        self.proc.kill()
        self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
