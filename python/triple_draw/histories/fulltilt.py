"""Full Tilt Poker hand histories of Limit 2-7 Triple Draw.

The shape Full Tilt Poker printed (its files are UTF-16 with a BOM; a tournament's header
names the tournament and its id in brackets, and its amounts are chips)::

    Full Tilt Poker Game #25325440000: Table Lambie Dew 1 (6 max) - $0.10/$0.20 - Limit 2-7 Triple Draw - 10:10:10 ET - 2010/11/01
    Seat 1: Player1 ($2)
    Seat 3: Player3 ($0.50), is sitting out
    Hero posts the small blind of $0.05
    Player1 posts the big blind of $0.10
    Player2 posts a dead small blind of $0.05
    Player2 posts $0.10
    The button is in seat #3
    *** HOLE CARDS ***
    Dealt to Hero [Th 5d Ah Ts Qc]
    Player1 raises to $0.20
    *** FIRST DRAW *** (Pot: $0.45)
    Player1 discards 1 card
    Hero discards 2 cards [Ah Qc]
    Player1 is dealt 1 card
    Dealt to Hero [Th 5d Ts] [7c 2h]
    ...
    *** SHOW DOWN ***
    Player1 shows [7c 6c 4c 3d 2d] 7,6,4,3,2
    Player3 mucks
    Player1 wins the pot ($1) with 7,6,4,3,2
    *** SUMMARY ***
    Total pot $1.05 | Rake $0.05

Every player declares his discards before any replacement is dealt (declare-then-deal).
A player listed in the seats who sits out is named in the summary ("is sitting out").
"""

# ruff: noqa: E501  (the example header above is one line, as the site prints it)
from __future__ import annotations

import re

from triple_draw.histories._common import (
    AMOUNT,
    CURRENCY_SIGNS,
    names_of,
    cards,
    dealt_line,
    money,
    read_seats,
)
from triple_draw.histories._record import Line, RecordError, SiteRecord

__all__ = ["read", "GAME"]

GAME = "Limit 2-7 Triple Draw"
_HEAD = re.compile(
    r"^Full ?Tilt ?Poker Game #(\d+): (.*?) - (" + AMOUNT + r")/(" + AMOUNT + r")"
    r"(?: Ante (" + AMOUNT + r"))? - (.*?) - (\d+:\d\d:\d\d \w+ - \d{4}/\d\d/\d\d)(.*)$"
)
_TOURNEY = re.compile(r"^(.*?) \((\d+)\), Table (.+?)(?: - Level ([\w]+))?$")
_TABLE = re.compile(r"^Table (.+?)(?: \((\d+) max\)| \((heads up)\))?(?: - .*)?$")
_SEAT = re.compile(r"^Seat (\d+): (.+?) \((" + AMOUNT + r")\)(, is sitting out)?$")
_SUMMARY_OUT = re.compile(r"^Seat (\d+): (.+?) (?:\([^)]*\) )*is sitting out$")
_STREETS = {
    "*** HOLE CARDS ***": 0,
    "*** FIRST DRAW ***": 1,
    "*** SECOND DRAW ***": 2,
    "*** THIRD DRAW ***": 3,
    "*** SHOW DOWN ***": 4,
}
_POST = re.compile(
    r"^(posts the small blind of|posts the big blind of|posts a dead small blind of|posts|antes) ("
    + AMOUNT
    + r")(,? and is all in)?$"
)
_POST_KIND = {
    "posts the small blind of": "post_sb",
    "posts the big blind of": "post_bb",
    "posts a dead small blind of": "post_dead",
    "posts": "post_bb",
    "antes": "post_ante",
}
_BET = re.compile(r"^(calls|bets) (" + AMOUNT + r")(,? and is all in)?$")
_RAISE = re.compile(r"^raises to (" + AMOUNT + r")(,? and is all in)?$")
_DISCARD = re.compile(r"^discards (\d) cards?(?: \[([^\]]*)\])?$")
_PAT = re.compile(r"^stands pat(?: on \[([^\]]*)\])?$")
_SHOW = re.compile(r"^shows \[([^\]]*)\]")
_UNCALLED = re.compile(r"^Uncalled bet of (" + AMOUNT + r") returned to (.+)$")
_WINS = re.compile(r"^(wins|ties for) the (pot|main pot|side pot(?: #?\d+)?) \((" + AMOUNT + r")\)")
_TOTAL = re.compile(r"^Total pot (" + AMOUNT + r").*?\| Rake (" + AMOUNT + r")")
_NOISE = (
    ":",
    "has ",
    "is sitting out",
    "sits out",
    "stands up",
    "sits down",
    "is back",
    "has returned",
    "has been disconnected",
    "has reconnected",
    "is feeling",
    "seconds left to act",
    "is dealt",
    "leaves the table",
    "joins the table",
    "adds ",
    "doesn't show",
    "shows his hand",
)


def read(lines: list[str], first_line: int = 1) -> SiteRecord | None:
    """The record of one Full Tilt Poker hand, or ``None`` if it is not Limit 2-7 Triple
    Draw. Raises :class:`RecordError` naming the line it cannot read."""
    head = lines[0]
    m = _HEAD.match(head)
    if m is None:
        if GAME not in head or "Pot Limit" in head or "No Limit" in head:
            return None
        raise RecordError("the header line is not a Full Tilt Poker header", first_line, head)
    hand_id, where, sb_text, bb_text, ante_text, game, date, tail = m.groups()
    if not game.endswith(GAME) or game.endswith(("Pot " + GAME, "No " + GAME)):
        return None
    tid = buy_in = level = None
    t = _TOURNEY.match(where)
    if t is not None:
        buy_in, tid, table, level = t.groups()
        max_seats = None
    else:
        tm = _TABLE.match(where)
        if tm is None:
            raise RecordError("the table in the header cannot be read", first_line, head)
        table = tm.group(1)
        max_seats = int(tm.group(2)) if tm.group(2) else (2 if tm.group(3) else None)
    small_bet, big_bet = money(sb_text), money(bb_text)
    if tid is not None:
        currency = "chips"
    elif sb_text[0] in CURRENCY_SIGNS:
        currency = CURRENCY_SIGNS[sb_text[0]]
    else:
        currency = "play"
    rec = SiteRecord(
        site="fulltilt",
        hand_id=hand_id,
        table=table,
        max_seats=max_seats,
        button=None,
        small_blind=None,
        big_blind=None,
        small_bet=small_bet,
        big_bet=big_bet,
        ante=money(ante_text) if ante_text else None,
        currency=currency,
        date=date,
        tournament_id=tid,
        level=level,
        buy_in=buy_in,
        first_line=first_line,
    )
    if "(partial)" in tail:
        raise RecordError("a partial record (the site wrote only its end)", first_line, head)
    i = read_seats(rec, lines, 1, _SEAT, blanks=True)
    seats = rec.seats
    start = i
    names = names_of(seats, " ")
    by_name = {s.name: s for s in seats}
    by_number = {s.number: s for s in seats}
    out = rec.lines
    street = -1
    summary = False
    drawn: dict[str, Line] = {}  # the hero's declaration of this draw
    for i in range(start, len(lines)):
        text = lines[i]
        n = first_line + i
        if not text:
            continue
        if text[0] == "*":
            if text == "*** SUMMARY ***":
                summary = True
                continue
            k = _STREETS.get(text.split(" (", 1)[0])
            if k is None:
                raise RecordError("an unknown section", n, text)
            if k <= street:
                raise RecordError("a section out of order", n, text)
            street = k
            drawn.clear()
            out.append(Line("street", None, n, text, street=k))
            continue
        if summary:
            tot = _TOTAL.match(text)
            if tot is not None:
                rec.total_pot, rec.rake = money(tot.group(1)), money(tot.group(2))
                continue
            so = _SUMMARY_OUT.match(text)
            if so is not None:  # listed, but sitting out: not dealt in
                s = by_number.get(int(so.group(1)))
                if s is not None and s.name == so.group(2):
                    s.dealt = False
            continue
        if text.startswith("The button is in seat #"):
            try:
                rec.button = int(text[len("The button is in seat #") :])
            except ValueError:
                raise RecordError("the button's seat cannot be read", n, text) from None
            continue
        if text.startswith("Dealt to ") and dealt_line(
            rec, text, n, street, drawn, by_name, names.split
        ):
            continue
        u = _UNCALLED.match(text)
        if u is not None:
            if u.group(2) not in by_name:
                raise RecordError(f"{u.group(2)!r} has no seat", n, text)
            out.append(Line("uncalled", u.group(2), n, text, amount=money(u.group(1))))
            continue
        split = names.split(text)
        if split is not None:
            name, rest = split
            ln = _action(name, rest, n, text)
            if ln is None:
                if street < 0 and rest.startswith(("is sitting out", "sits out")):
                    by_name[name].dealt = False
                continue
            if ln.kind == "draw" and ln.cards:
                drawn[name] = ln
            out.append(ln)
            continue
        if text == "Hand cancelled" or text.startswith("Hand cancelled"):
            raise RecordError("the hand was cancelled", n, text)
        # anything else is table talk
    if not summary:
        raise RecordError(
            "the record ends before its summary (a partial hand)",
            first_line + len(lines) - 1,
            lines[-1],
        )
    return rec


def _action(name: str, rest: str, n: int, text: str) -> Line | None:
    if rest == "folds":
        return Line("fold", name, n, text)
    if rest == "checks":
        return Line("check", name, n, text)
    m = _BET.match(rest)
    if m is not None:
        kind = "call" if m.group(1) == "calls" else "bet"
        return Line(kind, name, n, text, amount=money(m.group(2)), all_in=bool(m.group(3)))
    m = _RAISE.match(rest)
    if m is not None:
        return Line("raise", name, n, text, to=money(m.group(1)), all_in=bool(m.group(2)))
    m = _DISCARD.match(rest)
    if m is not None:
        thrown = cards(m.group(2), n, text) if m.group(2) is not None else None
        return Line("draw", name, n, text, count=int(m.group(1)), cards=thrown or None)
    m = _PAT.match(rest)
    if m is not None:
        kept = cards(m.group(1), n, text) if m.group(1) is not None else None
        return Line("draw", name, n, text, count=0, kept=kept)
    m = _POST.match(rest)
    if m is not None:
        return Line(
            _POST_KIND[m.group(1)], name, n, text, amount=money(m.group(2)), all_in=bool(m.group(3))
        )
    m = _SHOW.match(rest)
    if m is not None:
        return Line("show", name, n, text, cards=cards(m.group(1), n, text))
    if rest == "mucks" or rest.startswith("mucks "):
        return Line("muck", name, n, text)
    m = _WINS.match(rest)
    if m is not None:
        pot = None if m.group(2) == "pot" else m.group(2)
        return Line("collect", name, n, text, amount=money(m.group(3)), pot=pot)
    if rest.startswith(_NOISE) or rest.endswith(_NOISE):
        return None
    raise RecordError(f"an action of {name} that cannot be read", n, text)
