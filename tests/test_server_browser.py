"""End to end in a real headless Chromium (Debian's ``chromium``, driven by Playwright
with that executable: no browser is downloaded). Two people play complete hands at the
same table by clicking - bet, raise, pick discards with a click, take one back with a
second click, confirm, reach a showdown - while a third context watches. Every WebSocket
frame each page receives is recorded and checked against the database: no page ever got
another seat's hidden cards. Screenshots of a draw and a showdown are saved under
``artifacts/server/``."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from browser_util import ARTIFACTS, Page, browser
from server_util import ServerProcess, held_cards, hidden_leaks

__all__ = ["browser"]  # the fixture (browser_util.py)



def _hands(db: Path) -> dict[int, tuple[dict[str, Any], list[int]]]:
    con = sqlite3.connect(db)
    try:
        out = {}
        for hid, final in con.execute("SELECT id, final FROM hands WHERE final IS NOT NULL"):
            rows = con.execute(
                "SELECT table_seat FROM hand_players WHERE hand_id = ? ORDER BY hand_seat", (hid,)
            ).fetchall()
            out[hid] = (json.loads(final), [r[0] for r in rows])
        return out
    finally:
        con.close()


def test_two_people_play_complete_hands_by_clicking(browser: Any, tmp_path: Path) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    db = tmp_path / "e2e.sqlite3"
    server = ServerProcess(
        db, "--tables", "1", "--bots", "0", "--seats", "3", "--hand-pause", "2.5"
    )
    try:
        ann = Page(browser, server.url + "/")
        bob = Page(browser, server.url + "/")
        watcher = Page(browser, server.url + "/?table=t1")
        ann.join("Ann")
        bob.join("Bob")
        assert ann.seat != bob.seat
        shots: dict[str, Path] = {}
        clicked = {"bet": 0, "raise": 0, "call": 0, "check": 0, "draw": 0, "pat": 0, "key": 0}
        showdowns = 0
        for _step in range(600):
            if showdowns >= 1 and clicked["raise"] and clicked["draw"] and len(shots) == 2:
                break
            for me in (ann, bob):
                p = me.page
                if p.locator("#seats .handname").count() and p.locator("#result .win-line").count():
                    if "showdown" not in shots:
                        shots["showdown"] = ARTIFACTS / "showdown.png"
                        p.screenshot(path=str(shots["showdown"]))
                        text = p.inner_text("#result")
                        assert " wins " in text
                        names = p.locator("#seats .handname").all_inner_texts()
                        assert any("low" in n or "pair" in n or "mucks" in n for n in names)
                    showdowns += 1
                    p.wait_for_selector("#result .win-line", state="detached", timeout=15000)
                turn = me.my_turn()
                if turn is None:
                    continue
                other = bob if me is ann else ann
                # the other page cannot act: its buttons are disabled
                assert not other.page.is_enabled("#btn-fold")
                if turn == "bet":
                    label = p.inner_text("#btn-raise")
                    if p.is_enabled("#btn-raise") and clicked["raise"] + clicked["bet"] < 6:
                        kind = "raise" if label.startswith("Raise") else "bet"
                        assert any(ch.isdigit() for ch in label)  # the amount is shown
                        p.click("#btn-raise")
                        clicked[kind] += 1
                    elif clicked["key"] == 0:
                        p.keyboard.press("c")  # the keyboard shortcut for check/call
                        clicked["key"] += 1
                    else:
                        kind = "call" if p.inner_text("#btn-call").startswith("Call") else "check"
                        p.click("#btn-call")
                        clicked[kind] += 1
                else:
                    cards = p.locator("#hole button.card")
                    assert cards.count() == 5
                    cards.nth(0).click()
                    cards.nth(3).click()
                    cards.nth(3).click()  # a second click takes it back
                    assert cards.nth(0).get_attribute("aria-pressed") == "true"
                    assert cards.nth(3).get_attribute("aria-pressed") == "false"
                    assert p.inner_text("#btn-draw").startswith("Draw 1")
                    if "draw" not in shots:
                        shots["draw"] = ARTIFACTS / "draw.png"
                        p.screenshot(path=str(shots["draw"]))
                    if clicked["draw"] % 2 == 1:  # now and then stand pat instead
                        cards.nth(0).click()
                        assert p.inner_text("#btn-draw").startswith("Stand pat")
                        clicked["pat"] += 1
                    p.click("#btn-draw")
                    clicked["draw"] += 1
                p.wait_for_timeout(60)
            ann.page.wait_for_timeout(40)
        assert showdowns >= 1 and clicked["raise"] + clicked["bet"] >= 1 and clicked["draw"] >= 2
        assert set(shots) == {"draw", "showdown"} and all(
            s.stat().st_size > 5000 for s in shots.values()
        )
        # the hand log lists the public events
        assert "posts the big blind" in bob.page.inner_text("#log")
        # the watcher sees the table but no hole cards
        assert watcher.page.locator("#hole button").count() == 0
        assert watcher.page.locator("#seats .seat:not(.empty)").count() == 2
        # a phone-sized screen still shows the controls
        ann.page.set_viewport_size({"width": 390, "height": 844})
        assert ann.page.is_visible("#btn-sitout") and ann.page.is_visible("#felt")
        ann.page.screenshot(path=str(ARTIFACTS / "phone.png"), full_page=True)
        assert not (ann.errors or bob.errors or watcher.errors)

        # every frame any page received, against the truth in the database
        hands = _hands(db)
        assert len(hands) >= 1
        checked = 0
        for who in (ann, bob, watcher):
            assert who.frames
            for f in who.frames:
                if f["type"] == "joined":
                    continue
                if f["type"] != "state" or f["hand"] is None:
                    assert hidden_leaks(f, set()) == []
                    continue
                truth = hands.get(f["hand"]["id"])
                if truth is None:
                    continue  # the hand still running when the test stopped
                doc, seat_map = truth
                own: set[str] = set()
                if who.seat is not None and who.seat in seat_map:
                    own = held_cards(doc, seat_map.index(who.seat))
                assert hidden_leaks(f, own) == [], (who.seat, f)
                checked += 1
        assert checked > 20
    finally:
        server.stop()
