"""The history download as PokerStars hand histories (``GET /api/history?format=pokerstars``):
hands played at a table with bots read back by ``histories.load`` with the same actions
and chips as the server's stored hands, the seat's own cards known, the others' unknown
unless shown at the showdown; the same hands as the PHH download; a bad format refused."""

from __future__ import annotations

import json
import re
import sqlite3
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest
from server_util import Peer, client, held_cards, table

from triple_draw import Rules, histories, phh
from triple_draw.game import Hand
from triple_draw.server import engine
from triple_draw.server.tables import token_key

RULES = Rules(max_players=6)
CARD = re.compile(r"(?<![A-Za-z0-9])[2-9TJQKA][cdhs](?![A-Za-z0-9])")
#: the events whose seat, amount (and count of cards) every seat sees
PUBLIC = ("post_ante", "post_small_blind", "post_big_blind", "fold", "check", "call", "bet")
PUBLIC += ("raise", "return", "show", "muck", "win", "rake")


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "tables.sqlite3"


def stored(db: Path) -> dict[int, dict[str, Any]]:
    """Every finished hand in the database: its final document, table, start time, and
    the players (token digest, table seat, name) by hand seat."""
    con = sqlite3.connect(db)
    try:
        out: dict[int, dict[str, Any]] = {}
        rows = con.execute(
            "SELECT id, table_id, started, final FROM hands WHERE final IS NOT NULL ORDER BY id"
        )
        for hid, tid, started, final in rows.fetchall():
            players = con.execute(
                "SELECT player, table_seat, name FROM hand_players WHERE hand_id = ? "
                "ORDER BY hand_seat",
                (hid,),
            ).fetchall()
            out[hid] = {"final": json.loads(final), "table": tid, "started": started}
            out[hid]["players"] = players
        return out
    finally:
        con.close()


def choose(p: Peer, h: dict[str, Any]) -> dict[str, Any]:
    """Ann raises in the odd hands, Bob folds to a raise in them; both draw two cards,
    then stand pat on the last draw every other hand; otherwise check or call."""
    kinds = {x["kind"]: x for x in h["legal_actions"]}
    odd = h["id"] % 2 == 1
    if "discard" in kinds:
        if odd and h["street"] == 2:  # the third draw
            return {"kind": "discard", "cards": []}
        return {"kind": "discard", "cards": h["hole_cards"][:2]}
    if p.name == "Bob" and odd and "fold" in kinds and h["bet_level"] > RULES.big_blind:
        return {"kind": "fold"}
    if p.name == "Ann" and odd and "raise" in kinds and h["street"] == 0:
        return {"kind": "raise"}
    return {"kind": "check"} if "check" in kinds else {"kind": "call"}


def play(c: Any, db: Path, peers: list[Peer], hands: int) -> None:
    """The peers act (``choose``) until ``hands`` hands are over; the bots act for
    themselves on the server."""
    for _ in range(5000):
        if sum(1 for _ in stored(db)) >= hands:
            return
        for p in peers:
            p.sync()
            if p.my_turn():
                assert p.state is not None
                r = p.act(choose(p, p.state["hand"]))
                assert r["type"] == "ack", r
    raise AssertionError("the hands did not end")


def seated(c: Any, ws: list[Any], names: list[tuple[str, int]]) -> list[Peer]:
    peers = []
    for w, (name, seat) in zip(ws, names, strict=True):
        p = Peer(w)
        p.name = name  # type: ignore[attr-defined]
        p.hello()
        assert p.join(name, seat)["type"] == "joined"
        peers.append(p)
    return peers


def download(c: Any, token: str | None, fmt: str | None = "pokerstars") -> Any:
    url = "/api/history" if fmt is None else f"/api/history?format={fmt}"
    return c.get(url, headers={"authorization": f"Bearer {token}"})


def events(hand: Hand) -> list[tuple[Any, ...]]:
    """The public course of a hand: who did what for how much, how many cards each
    threw."""
    out: list[tuple[Any, ...]] = []
    for e in hand.history:
        if e.kind in PUBLIC:
            out.append((e.kind, e.seat, e.amount))
        elif e.kind == "discard":
            out.append((e.kind, e.seat, len(e.cards or ())))
    return out


def check_download(
    text: str, before: dict[int, dict[str, Any]], truth: dict[int, dict[str, Any]], key: str
) -> dict[str, int]:
    """``text`` (the PokerStars download of the player whose token digest is ``key``)
    against the hands stored ``before`` it and just after it (the bots may finish a hand
    meanwhile): counts of what it covered."""
    imported = histories.load(text, rules=RULES)
    assert imported.refused == [] and imported.skipped == []
    ids = [int(h.hand_id) for h in imported.hands]
    mine = [hid for hid, t in truth.items() if any(p[0] == key for p in t["players"])]
    assert ids == mine[: len(ids)] and set(ids) >= {h for h in mine if h in before} and ids
    seen = {"hidden": 0, "shown": 0, "own_draws": 0}
    for chunk, sh in zip(
        re.split(r"\n\n+(?=PokerStars Hand #)", text), imported.hands, strict=True
    ):
        t = truth[int(sh.hand_id)]
        real = Hand.from_dict(t["final"])
        me = [p[0] for p in t["players"]].index(key)
        names = [p[2] for p in t["players"]]
        # the header: the server's hand number, table, start time; the seats and names
        assert sh.table == "Table t1" and sh.currency == "play"
        assert sh.max_seats == RULES.max_players  # the table's size, "6-max"
        assert sh.date == engine.pokerstars_date(t["started"])
        assert sh.players == tuple(engine.pokerstars_names(names))
        assert sh.seat_numbers == tuple(p[1] + 1 for p in t["players"])
        assert sh.hero == sh.players[me] and sh.hero_seat == me
        # the same hand: stacks, button, actions, pots and chips won
        got = sh.hand
        assert got.is_over and got.button == real.button
        assert got.starting_stacks == real.starting_stacks
        assert events(got) == events(real)
        assert got.result.net == real.result.net and got.result.rake == real.result.rake
        assert [p.amount for p in got.result.pots] == [p.amount for p in real.result.pots]
        # the cards: the seat's own all known, the others' only where shown
        shown = {e.seat: e.cards for e in real.history if e.kind == "show"}
        for e, r in zip(
            [e for e in got.history if e.kind in ("deal", "discard", "draw", "show")],
            [e for e in real.history if e.kind in ("deal", "discard", "draw", "show")],
            strict=True,
        ):
            assert (e.kind, e.seat) == (r.kind, r.seat)
            if e.seat == me or e.kind == "show":
                assert e.cards == r.cards
                seen["own_draws"] += e.kind == "draw" and e.seat == me
            else:
                assert set(e.cards or ()) <= {"??"}
        seen["shown"] += len(shown.keys() - {me})
        seen["hidden"] += len(set(range(real.n_players)) - shown.keys() - {me})
        # nothing in the text is a card the seat may not know
        allowed = held_cards(t["final"], me) | {c for cs in shown.values() for c in cs}
        assert set(CARD.findall(chunk)) <= allowed, chunk
        hidden = set()
        for s in set(range(real.n_players)) - shown.keys() - {me}:
            hidden |= held_cards(t["final"], s)
        assert not (hidden - allowed) & set(CARD.findall(chunk))
    return seen


def test_pokerstars_download_gives_back_every_hand_as_the_seat_saw_it(db: Path) -> None:
    tables = [table(rules=RULES, bots=2, bot="call")]
    with client(db, tables) as c, c.websocket_connect("/ws/t1") as w1:
        with c.websocket_connect("/ws/t1") as w2:
            ann, bob = seated(c, [w1, w2], [("Ann", 2), ("Bob", 4)])
            play(c, db, [ann, bob], 5)
            totals = {"hidden": 0, "shown": 0, "own_draws": 0}
            for p in (ann, bob):
                assert p.token is not None
                before = stored(db)
                r = download(c, p.token)
                assert r.status_code == 200
                assert r.headers["content-type"] == "text/plain; charset=utf-8"
                disposition = r.headers["content-disposition"]
                assert disposition == 'attachment; filename="my-hands-pokerstars.txt"'
                text = r.text
                assert text.startswith("PokerStars Hand #") and text.endswith("\n")
                # hands apart by blank lines, as in PokerStars' own files
                assert text.count("\n\n\nPokerStars Hand #") == text.count("PokerStars Hand #") - 1
                for k, v in check_download(text, before, stored(db), token_key(p.token)).items():
                    totals[k] += v
                # the PHH download (the default format) holds the same hands
                ps_ids = [int(h.hand_id) for h in histories.load(text, rules=RULES).hands]
                phh_text = download(c, p.token, None).text
                assert phh_text == download(c, p.token, "phh").text
                hands = phh.loads_all(phh_text)  # (each hand's rules under its number)
                assert all(h.is_over for h in hands)
                assert len(hands) >= len(ps_ids)
            # the hands had folded (unseen) players, showdowns and the seats' own draws
            print(totals)
            assert totals["hidden"] and totals["shown"] and totals["own_draws"]


def test_a_bad_format_is_refused_with_the_allowed_ones(db: Path) -> None:
    with client(db) as c, c.websocket_connect("/ws/t1") as w1, c.websocket_connect("/ws/t1") as w2:
        ann, _bob = seated(c, [w1, w2], [("Ann", 0), ("Bob", 1)])
        for bad in ("PokerStars", "txt", "", "phh,pokerstars"):
            r = download(c, ann.token, bad)
            assert r.status_code == 400 and r.headers["content-type"] == "application/json"
            err = r.json()
            assert err["type"] == "error" and err["code"] == "bad_format"
            assert err["allowed"] == ["phh", "pokerstars"]
            assert "phh" in err["message"] and "pokerstars" in err["message"]
        # the token is checked first; no finished hand yet is a 404 in every format
        assert c.get("/api/history?format=nope").status_code == 401
        assert download(c, "y" * 43).status_code == 404
        assert download(c, ann.token).status_code == 404


def test_a_second_player_of_the_same_name_is_refused_at_the_table(db: Path) -> None:
    """Two players of one name used to sit at one table (their histories then told them
    apart as "Ann" and "Ann #2", which :func:`engine.pokerstars_names` still does for
    other sources); the table now refuses the second name, in any case or spacing."""
    tables = [table(rules=Rules(max_players=2))]
    with client(db, tables) as c, c.websocket_connect("/ws/t1") as w1:
        with c.websocket_connect("/ws/t1") as w2:
            seated(c, [w1], [("Ann", 0)])
            b = Peer(w2)
            b.hello()
            for name in ("Ann", "ANN", " ann "):
                err = b.join(name, 1)
                assert err["type"] == "error" and err["code"] == "bad_name", err
                assert "already named" in err["message"]
            assert b.join("Ann B", 1)["type"] == "joined"


def test_pokerstars_names() -> None:
    assert engine.pokerstars_names(["Ann", "Bob"]) == ["Ann", "Bob"]
    assert engine.pokerstars_names(["Ann", "Ann", "Ann"]) == ["Ann", "Ann #2", "Ann #3"]
    assert engine.pokerstars_names(["Ann", "Ann: x"]) == ["Ann", "Ann. x #2"]
    assert engine.pokerstars_names(["Ann: x", "Ann"]) == ["Ann: x", "Ann #2"]
    assert engine.pokerstars_names(["*** x", "**"]) == ["x", "Player2"]
    assert engine.pokerstars_names(["Ann #2", "Ann", "Ann"]) == ["Ann #2", "Ann", "Ann #3"]


def test_pokerstars_dates_are_us_eastern_time() -> None:
    def ts(*args: int) -> float:
        return datetime(*args, tzinfo=timezone.utc).timestamp()

    assert engine.pokerstars_date(None) == "2026/01/01 12:00:00 ET"
    assert engine.pokerstars_date(ts(2026, 9, 3, 22, 15, 1)) == "2026/09/03 18:15:01 ET"  # EDT
    assert engine.pokerstars_date(ts(2026, 1, 15, 14, 5, 9)) == "2026/01/15 9:05:09 ET"  # EST
    # daylight saving time: from 2 a.m. on 8 March 2026, to 2 a.m. on 1 November 2026
    assert engine.pokerstars_date(ts(2026, 3, 8, 6, 59, 59)) == "2026/03/08 1:59:59 ET"
    assert engine.pokerstars_date(ts(2026, 3, 8, 7, 0, 0)) == "2026/03/08 3:00:00 ET"
    assert engine.pokerstars_date(ts(2026, 11, 1, 5, 59, 59)) == "2026/11/01 1:59:59 ET"
    assert engine.pokerstars_date(ts(2026, 11, 1, 6, 0, 0)) == "2026/11/01 1:00:00 ET"
    assert engine.pokerstars_date(ts(2027, 1, 1, 4, 30, 0)) == "2026/12/31 23:30:00 ET"
    try:
        from zoneinfo import ZoneInfo

        eastern = ZoneInfo("America/New_York")
    except Exception:  # no time zone database here: the fixed cases above must do
        return
    for k in range(0, 3 * 366 * 24, 7):  # every 7 hours over three years
        t = ts(2025, 1, 1) + k * 3600 + 1234
        d = datetime.fromtimestamp(t, eastern)
        assert engine.pokerstars_date(t) == f"{d:%Y/%m/%d} {d.hour}:{d:%M:%S} ET"


def test_the_download_names_the_table_size_from_its_rules() -> None:
    """Three players at an 8-seat table: the history's table line says 8-max (the writer's
    default would say 6-max)."""
    hand = Hand(Rules(max_players=8), [100, 100, 100], 0, seed=1)
    hand.fold()
    hand.fold()
    text = engine.pokerstars_text(hand, 0, 7, ["Ann", "Bob", "Cy"], "t1", None, [0, 3, 5])
    assert "Table 't1' 8-max (Play Money) Seat #1 is the button" in text.splitlines()[1]
    assert histories.load(text, rules=hand.rules).hands[0].max_seats == 8
