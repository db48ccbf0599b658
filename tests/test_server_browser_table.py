"""What an online client shows (issue #23), in a real headless Chromium (Debian's
``chromium`` through Playwright, as in ``test_server_browser.py``): the blinds' seats are
marked, Call shows what the call costs, Fold is not offered when checking is free, Leave
during a hand asks first, a lost connection freezes the clock and the actions, and a
second window taking the seat with its token stops the first one's playing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from server_util import ServerProcess
from browser_util import ARTIFACTS, Page, browser

__all__ = ["browser"]  # the fixture (browser_util.py)

ARGS = ("--tables", "1", "--bots", "0", "--seats", "2", "--hand-pause", "2.5", "--clock", "60")


def last_state(p: Page) -> dict[str, Any]:
    return next(f for f in reversed(p.frames) if f["type"] == "state")


def hand_started(ann: Page, bob: Page) -> tuple[Page, Page, dict[str, Any]]:
    """Wait for a hand in its first betting round; (the page to act, the other, hand)."""
    for _ in range(200):
        for me, other in ((ann, bob), (bob, ann)):
            if me.my_turn() == "bet":
                h = last_state(me)["hand"]
                if h and h["actor"] == me.seat and h["phase"] == "bet":
                    return me, other, h
        ann.page.wait_for_timeout(50)
    raise AssertionError("no hand started")


def test_blinds_are_marked_call_shows_its_cost_and_fold_is_not_offered_for_free(
    browser: Any, tmp_path: Path
) -> None:
    server = ServerProcess(tmp_path / "t.sqlite3", *ARGS)
    try:
        ann = Page(browser, server.url + "/")
        bob = Page(browser, server.url + "/")
        ann.join("Ann")
        bob.join("Bob")
        sb_page, bb_page, h = hand_started(ann, bob)
        sb, bb = h["small_blind_seat"], h["big_blind_seat"]
        assert sb == sb_page.seat and bb == bb_page.seat  # heads-up: the button's blind
        for p in (ann, bob):
            p.page.wait_for_selector(f"#seat-{sb} .blind-sb")
            assert p.page.inner_text(f"#seat-{sb} .blind-sb") == "SB"
            assert p.page.inner_text(f"#seat-{bb} .blind-bb") == "BB"
            assert p.page.locator(".blind").count() == 2
        # the small blind completes: the action's amount is the round total (2), the
        # button says what it costs (1)
        call = next(a for a in h["legal_actions"] if a["kind"] == "call")
        assert call["amount"] == 2
        assert sb_page.page.inner_text("#btn-call").startswith("Call 1")
        assert sb_page.page.is_enabled("#btn-fold")  # facing a bet: folding is a choice
        sb_page.page.click("#btn-call")
        # the big blind may check: Fold is disabled, and F does nothing
        bb_page.page.wait_for_function(
            "() => !document.getElementById('btn-call').disabled"
            " && document.getElementById('btn-call').textContent.startsWith('Check')"
        )
        assert not bb_page.page.is_enabled("#btn-fold")
        acts = len([f for f in bb_page.frames if f["type"] in ("ack", "error")])
        bb_page.page.keyboard.press("f")
        bb_page.page.wait_for_timeout(500)
        assert len([f for f in bb_page.frames if f["type"] in ("ack", "error")]) == acts
        assert last_state(bb_page)["hand"]["actor"] == bb  # still his decision
        # a raise: the small blind then faces 2 more chips, not the round's 4
        bb_page.page.click("#btn-raise")
        sb_page.page.wait_for_function(
            "() => document.getElementById('btn-call').textContent.startsWith('Call 2')"
        )
        assert not (ann.errors or bob.errors)
    finally:
        server.stop()


def test_leave_during_a_hand_asks_first(browser: Any, tmp_path: Path) -> None:
    server = ServerProcess(tmp_path / "t.sqlite3", *ARGS)
    try:
        ann = Page(browser, server.url + "/")
        bob = Page(browser, server.url + "/")
        ann.join("Ann")
        bob.join("Bob")
        hand_started(ann, bob)
        asked: list[str] = []

        def dismiss(d: Any) -> None:
            asked.append(d.message)
            d.dismiss()

        ann.page.once("dialog", dismiss)
        ann.page.click("#btn-leave")
        ann.page.wait_for_timeout(500)
        assert asked and "Leave now?" in asked[0]
        assert not [f for f in ann.frames if f["type"] == "left"]  # nothing was sent
        assert ann.page.is_visible("#seat-controls")
        ann.page.once("dialog", lambda d: d.accept())
        ann.page.click("#btn-leave")
        ann.page.wait_for_selector("#join-form:not([hidden])")
        assert [f for f in ann.frames if f["type"] == "left"]
        assert not (ann.errors or bob.errors)
    finally:
        server.stop()


def test_a_lost_connection_freezes_the_clock_and_the_actions(browser: Any, tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite3"
    server = ServerProcess(db, *ARGS)
    try:
        ann = Page(browser, server.url + "/")
        bob = Page(browser, server.url + "/")
        ann.join("Ann")
        bob.join("Bob")
        me, _, _ = hand_started(ann, bob)
        p = me.page
        assert p.is_enabled("#btn-call")
        server.kill()
        p.wait_for_function(
            "() => document.getElementById('status').textContent.includes('reconnecting')"
        )
        frozen = p.inner_text("#clock-text")
        assert "paused" in frozen
        for button in ("#btn-fold", "#btn-call", "#btn-raise"):
            assert not p.is_enabled(button), button
        p.keyboard.press("c")  # nothing to send it to, and nothing happens
        p.wait_for_timeout(2200)
        assert p.inner_text("#clock-text") == frozen  # the clock stood still
        assert "Connection lost" in p.inner_text("#hint")
        # the server comes back on the same port: the page reconnects and plays on
        server = ServerProcess(db, *ARGS, port=server.port)
        p.wait_for_function("() => !document.getElementById('btn-call').disabled", timeout=30000)
        assert "paused" not in p.inner_text("#clock-text")
        assert not (ann.errors or bob.errors)
    finally:
        server.stop()


def test_a_second_window_with_the_token_takes_the_seat_and_the_first_stops(
    browser: Any, tmp_path: Path
) -> None:
    """Two tabs of one browser share the seat token (localStorage): the newer one plays
    the seat; the older one says so and does not reconnect to take it back."""
    server = ServerProcess(tmp_path / "t.sqlite3", *ARGS)
    try:
        first = Page(browser, server.url + "/")
        first.join("Ann")
        second_tab = first.ctx.new_page()
        second_tab.goto(server.url + "/")
        second_tab.wait_for_selector("#seat-controls:not([hidden])")
        first.page.wait_for_function(
            "() => document.getElementById('status').textContent.includes('another window')"
        )
        assert [f for f in first.frames if f.get("code") == "replaced"]
        first.page.wait_for_timeout(3000)  # it would have reconnected within 0.5 s
        assert "another window" in first.page.inner_text("#status")
        assert second_tab.is_visible("#seat-controls")
        assert not first.errors
    finally:
        server.stop()


ARGS3 = ("--tables", "1", "--bots", "0", "--seats", "3", "--hand-pause", "1", "--clock", "60")


def test_the_lobby_picks_a_seat_and_the_table_says_why_it_waits(
    browser: Any, tmp_path: Path
) -> None:
    server = ServerProcess(tmp_path / "t.sqlite3", *ARGS3)
    try:
        ann = Page(browser, server.url + "/")
        bob = Page(browser, server.url + "/")
        ann.page.wait_for_selector("#seat-2 .take-seat")
        ann.page.click("#seat-2 .take-seat")  # no name yet: it asks for one
        assert "name" in ann.page.inner_text("#hint")
        ann.page.fill("#join-name", "Ann")
        ann.page.click("#seat-2 .take-seat")
        ann.page.wait_for_selector("#seat-controls:not([hidden])")
        assert [f["seat"] for f in ann.frames if f["type"] == "joined"] == [2]
        assert ann.page.locator(".take-seat").count() == 0  # seated: no more seat picks
        ann.page.wait_for_function(
            "() => document.getElementById('street').textContent"
            ".includes('1 of the 2 needed is playing')"
        )
        bob.page.fill("#join-name", "Bob")
        bob.page.click("#seat-0 .take-seat")
        bob.page.wait_for_selector("#seat-controls:not([hidden])")
        assert [f["seat"] for f in bob.frames if f["type"] == "joined"] == [0]
        ann.seat, bob.seat = 2, 0
        hand_started(ann, bob)
        # Ann sits out: once the hand is over the table stops, and says why
        ann.page.click("#btn-sitout")
        for _ in range(400):
            for p in (ann, bob):
                if p.my_turn() == "bet":
                    p.page.click("#btn-call")
                elif p.my_turn() == "draw":
                    p.page.click("#btn-draw")
            text = bob.page.inner_text("#street")
            if "waiting for players" in text:
                break
            bob.page.wait_for_timeout(50)
        assert "waiting for players: 1 of the 2 needed is playing" in text
        assert not (ann.errors or bob.errors)
    finally:
        server.stop()


def test_throws_are_grouped_by_draw_the_deal_is_awaited_and_the_log_keeps_hands(
    browser: Any, tmp_path: Path
) -> None:
    """Draw 1: throw one card; draw 2: stand pat; the log keeps the hand before. The page
    drives itself by what it shows (its street and hand), not by the frames it got."""
    import time

    server = ServerProcess(tmp_path / "t.sqlite3", *ARGS)
    try:
        ann = Page(browser, server.url + "/")
        bob = Page(browser, server.url + "/")
        ann.join("Ann")
        bob.join("Bob")
        first = str(hand_started(ann, bob)[2]["id"])
        waited = grouped = False
        deadline = time.monotonic() + 150
        while time.monotonic() < deadline:
            for p in (ann, bob):
                t = p.page
                turn = p.my_turn()
                shown = t.locator("#log li.hand").last.get_attribute("data-hand")
                street = t.inner_text("#street")
                if turn == "bet":
                    t.click("#btn-call")
                elif turn == "draw" and shown == first and street.startswith("draw 1"):
                    other = bob if p is ann else ann
                    first_to_throw = t.locator(f"#seat-{other.seat} .draws").count() == 0
                    t.locator("#hole button.card").nth(0).click()
                    t.wait_for_function(
                        "() => document.getElementById('btn-draw').textContent.startsWith('Draw 1')"
                    )
                    t.click("#btn-draw")
                    if first_to_throw and not waited:
                        # declare, then deal: he holds 4 cards until the other has chosen
                        t.wait_for_selector("#hole .card.pending", timeout=10000)
                        assert t.locator("#hole button.card").count() == 4
                        assert "Waiting for the deal" in t.inner_text("#hint")
                        waited = True
                elif turn == "draw" and shown == first and street.startswith("draw 3"):
                    if not grouped:
                        assert t.locator("#thrown .throw").count() == 2
                        one = t.locator('#thrown .throw[data-draw="1"]')
                        assert one.locator(".card").count() == 1
                        assert "draw 1:" in one.inner_text()
                        two = t.locator('#thrown .throw[data-draw="2"]')
                        assert "stood pat" in two.inner_text()
                        grouped = True
                    t.click("#btn-draw")
                elif turn == "draw":
                    t.click("#btn-draw")  # stand pat
            shown = ann.page.locator("#log li.hand").last.get_attribute("data-hand")
            if shown and int(shown) > int(first) + 1:
                break
            ann.page.wait_for_timeout(40)
        assert waited and grouped
        groups = ann.page.locator("#log li.hand")
        assert groups.count() >= 2
        assert groups.nth(0).locator(".hand-id").inner_text() == f"Hand #{first}"
        assert "posts the big blind" in groups.nth(0).inner_text()
        assert not (ann.errors or bob.errors)
    finally:
        server.stop()


def test_a_broke_player_buys_in_again_from_the_page(browser: Any, tmp_path: Path) -> None:
    args = ("--tables", "1", "--bots", "0", "--seats", "2", "--hand-pause", "0.5")
    server = ServerProcess(tmp_path / "t.sqlite3", *args, "--buy-in", "2")
    try:
        ann = Page(browser, server.url + "/")
        bob = Page(browser, server.url + "/")
        ann.join("Ann")
        bob.join("Bob")
        broke = None
        for _ in range(1500):
            for p in (ann, bob):
                if p.page.inner_text("#btn-sitout").startswith("Buy in again"):
                    broke = p
                    break
                turn = p.my_turn()
                if turn == "bet":
                    p.page.click("#btn-call")
                elif turn == "draw":
                    p.page.click("#btn-draw")
            if broke is not None:
                break
            ann.page.wait_for_timeout(40)
        assert broke is not None, "nobody went broke"
        assert broke.page.inner_text("#btn-sitout") == "Buy in again (2)"
        broke.page.click("#btn-sitout")
        broke.page.wait_for_function(
            f"() => document.querySelector('#seat-{broke.seat} .stack').textContent !== '0'"
        )
        assert not broke.page.inner_text("#btn-sitout").startswith("Buy in again")
        assert not (ann.errors or bob.errors)
    finally:
        server.stop()


def test_the_time_bank_shows_and_runs_when_the_clock_is_out(browser: Any, tmp_path: Path) -> None:
    args = ("--tables", "1", "--bots", "0", "--seats", "2", "--hand-pause", "1")
    server = ServerProcess(tmp_path / "t.sqlite3", *args, "--clock", "4", "--time-bank", "20")
    try:
        ann = Page(browser, server.url + "/")
        bob = Page(browser, server.url + "/")
        ann.join("Ann")
        bob.join("Bob")
        me, _, h = hand_started(ann, bob)
        p = me.page
        assert "+ 20 s bank" in p.inner_text("#clock-text")
        p.wait_for_function(
            "() => document.getElementById('clock-text').textContent.includes('time bank')",
            timeout=10000,
        )
        assert p.is_enabled("#btn-call")  # still his decision, on the bank's time
        p.click("#btn-call")
        p.wait_for_timeout(300)
        acks = [f for f in me.frames if f["type"] == "ack"]
        assert acks and acks[-1]["hand"] == h["id"] and acks[-1]["seq"] == h["seq"]
        assert not (ann.errors or bob.errors)
    finally:
        server.stop()


def test_a_short_stack_adds_chips_between_hands(browser: Any, tmp_path: Path) -> None:
    args = ("--tables", "1", "--bots", "0", "--seats", "2", "--hand-pause", "6")
    server = ServerProcess(tmp_path / "t.sqlite3", *args, "--buy-in", "40")
    try:
        ann = Page(browser, server.url + "/")
        bob = Page(browser, server.url + "/")
        ann.join("Ann")
        bob.join("Bob")
        sb, _, _ = hand_started(ann, bob)
        assert not sb.page.is_visible("#btn-addchips")  # 40 chips, in a hand
        sb.page.click("#btn-fold")  # the small blind folds: 39 chips
        sb.page.wait_for_selector("#btn-addchips:not([hidden])")
        assert sb.page.inner_text("#btn-addchips") == "Add chips (to 40)"
        assert sb.page.inner_text(f"#seat-{sb.seat} .stack") == "39"
        sb.page.click("#btn-addchips")
        sb.page.wait_for_function(
            f"() => document.querySelector('#seat-{sb.seat} .stack').textContent === '40'"
        )
        sb.page.wait_for_selector("#btn-addchips", state="hidden")
        assert not (ann.errors or bob.errors)
    finally:
        server.stop()


def test_the_log_links_each_finished_hand_of_the_seat_to_the_replayer(
    browser: Any, tmp_path: Path
) -> None:
    """Two hands are played; the link of the first in Ann's log opens it in the replayer
    (a new tab), fetched by its id with her seat token in the Authorization header - never
    in the URL - and shown as she saw it. A spectator's log has no links; the replayer
    opened without the seat's token says what is missing."""
    import json
    import sqlite3

    from triple_draw.server import engine

    db = tmp_path / "t.sqlite3"
    server = ServerProcess(db, *ARGS)
    try:
        ann = Page(browser, server.url + "/")
        bob = Page(browser, server.url + "/")
        ann.join("Ann")
        bob.join("Bob")
        watcher = Page(browser, server.url + "/")
        played: list[int] = []
        for _ in range(2):
            me, _other, h = hand_started(ann, bob)
            assert h["id"] not in played
            me.page.click("#btn-fold")  # the small blind folds: the hand is over
            played.append(h["id"])
            for p in (ann, bob):
                p.page.wait_for_selector(f'#log li.hand[data-hand="{h["id"]}"] a.replay')
            for _ in range(200):  # until the next hand is dealt
                now = last_state(ann)["hand"]
                if now and now["id"] != h["id"]:
                    break
                ann.page.wait_for_timeout(100)
        first = played[0]
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        ann.page.screenshot(path=str(ARTIFACTS / "log-replay-links.png"))
        link = ann.page.locator(f'#log li.hand[data-hand="{first}"] a.replay')
        assert link.get_attribute("href") == f"/replay?table=t1&hand={first}"
        assert link.get_attribute("target") == "_blank"
        token = next(f["token"] for f in ann.frames if f["type"] == "joined")
        seen: list[tuple[str, str]] = []
        ann.ctx.on(
            "request",
            lambda r: (
                seen.append((r.url, r.headers.get("authorization", "")))
                if "/api/history" in r.url
                else None
            ),
        )
        with ann.ctx.expect_page() as opened:
            link.click()
        rp = opened.value
        errors: list[str] = []
        rp.on("pageerror", lambda e: errors.append(str(e)))
        rp.wait_for_selector("#hand-select option", state="attached")
        assert token not in rp.url
        assert seen == [(f"{server.url}/api/history?format=phh&hand={first}", f"Bearer {token}")]
        assert rp.locator("#hand-select option").all_inner_texts() == [f"#{first} (phh, 2 players)"]
        assert rp.inner_text("#status") == f"hand #{first}"
        # the end of the hand as the database has it: names, stacks; Ann's cards shown
        con = sqlite3.connect(db)
        try:
            (final,) = con.execute("SELECT final FROM hands WHERE id = ?", (first,)).fetchone()
            names = [
                n
                for (n,) in con.execute(
                    "SELECT name FROM hand_players WHERE hand_id = ? ORDER BY hand_seat", (first,)
                )
            ]
        finally:
            con.close()
        hand = engine.hand_from_doc(json.loads(final))
        rp.click("#btn-end")
        n = len(hand.history)
        assert rp.inner_text("#step") == f"{n} / {n}"
        rows = rp.locator("#seat-rows tr")
        shown = {
            rows.nth(i).locator(".name").inner_text(): rows.nth(i).locator(".stack").inner_text()
            for i in range(rows.count())
        }
        assert shown == {names[s]: str(hand.stacks[s]) for s in range(hand.n_players)}
        mine = rp.locator("#seat-rows tr.viewer")
        assert mine.locator(".name").inner_text() == "Ann"
        ann_seat = names.index("Ann")
        if not hand.folded[ann_seat]:
            cards = mine.locator(".cards .card").all_inner_texts()
            assert cards == list(hand.hole_text(ann_seat))
        assert errors == []
        # a spectator's log keeps the hands, without links to hands he did not play
        assert watcher.page.locator("#log li.hand").count() >= 2
        assert watcher.page.locator("#log a.replay").count() == 0
        # without the seat's token (another browser), the replayer says what is missing
        other = watcher.ctx.new_page()
        other.goto(f"{server.url}/replay?table=t1&hand={first}")
        other.wait_for_function(
            "() => document.getElementById('status').textContent.includes('holds no seat')"
        )
        assert other.locator("#hand-select option").count() == 0
        assert not (ann.errors or bob.errors or watcher.errors)
    finally:
        server.stop()
