"""Shared pieces of the browser tests: a real headless Chromium (Debian's ``chromium``,
driven by Playwright with that executable: no browser is downloaded) as a module-scoped
fixture, and a page on the table that records the WebSocket frames it receives."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
#: where the browser tests save their screenshots
ARTIFACTS = Path(__file__).resolve().parent.parent / "artifacts" / "server"


def _need(what: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"{what} is required in CI (.ci/run installs it)")
    pytest.skip(f"{what} is not installed")


@pytest.fixture(scope="module")
def browser() -> Any:
    pytest.importorskip("starlette", reason="the server extra is not installed")
    pytest.importorskip("uvicorn", reason="the server extra is not installed")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _need("playwright (pip)")
    if not os.path.exists(CHROMIUM):
        _need("chromium (apt)")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
        yield b
        b.close()


class Page:
    """A browser context on the table, recording every WebSocket frame it receives."""

    def __init__(self, browser: Any, url: str, *, size: tuple[int, int] = (1200, 820)) -> None:
        self.ctx = browser.new_context(viewport={"width": size[0], "height": size[1]})
        self.page = self.ctx.new_page()
        self.page.set_default_timeout(60_000)  # a loaded machine (CI runs two workers)
        self.frames: list[dict[str, Any]] = []
        self.errors: list[str] = []
        self.page.on("websocket", self._on_ws)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.goto(url)
        self.seat: int | None = None

    def _on_ws(self, ws: Any) -> None:
        ws.on("framereceived", lambda payload: self.frames.append(json.loads(payload)))

    def join(self, name: str) -> None:
        self.page.fill("#join-name", name)
        self.page.click("#join-btn")
        self.page.wait_for_selector("#seat-controls:not([hidden])")
        joined = [f for f in self.frames if f["type"] == "joined"]
        assert joined
        self.seat = joined[-1]["seat"]

    def my_turn(self) -> str | None:
        p = self.page
        if p.is_visible("#btn-draw") and p.is_enabled("#btn-draw"):
            return "draw"
        if p.is_enabled("#btn-call"):
            return "bet"
        return None
