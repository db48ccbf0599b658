"""Winamax hand histories of 2-7 Triple Draw (fixed limit; "Lowball27" in play money).

The shape Winamax prints (amounts with the currency sign after them; a tournament's
header names it, its buy-in and level, and its amounts are chips)::

    Winamax Poker - CashGame - HandId: #9250793-388-1478989461 - 2-7 Triple Draw fixed limit (25€/50€) - 2026/11/12 22:24:21 UTC
    Table: 'Pampelune' 6-max (real money) Seat #4 is the button
    Seat 1: Hero (2047.50€)
    Seat 4: Player0 (217.78€)
    *** ANTE/BLINDS ***
    Player0 posts small blind 12.50€
    Hero posts big blind 25€
    Newbie posts big blind 25€ out of position
    *** FIRST-BET ***
    Dealt to Hero [2h Td 8c 7c 8s]
    Player0 raises 25€ to 50€
    *** FIRST-DRAW ***
    Hero discard 1 card [Td]
    Dealt to Hero [2h 8c 7c 8s] [3d]
    Player0 discard 2 cards
    *** SECOND-BET ***
    ...
    *** SHOW DOWN ***
    Player0 shows [7c 6c 8s 2s 3c] (High card : 8)
    Player0 collected 298€ from pot
    *** SUMMARY ***
    Total pot 298€ | Rake 2€

Winamax's header stakes are the small and the big bet. It prints no "uncalled bet"
line: the winner's collected amount holds his uncalled bet, and the summary's total pot
is what was collected (after the rake).
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

__all__ = ["read", "GAMES"]

GAMES = ("2-7 Triple Draw", "Lowball27")
_HEAD = re.compile(
    r"^Winamax Poker - (.*?) - HandId: #([\d-]+) - (.+?) (fixed limit|pot limit|no limit) "
    r"\(((?:" + AMOUNT + r"/)?" + AMOUNT + r"/" + AMOUNT + r")\) - (.*)$"
)
_TOURNEY = re.compile(r'^Tournament "(.*)" buyIn: (.*?)(?: level: (\w+))?$')
_TABLE = re.compile(
    r"^Table: '(.*)' (\d+)-max \((real money|play money)\) Seat #(\d+) is the button"
)
_SEAT = re.compile(r"^Seat (\d+): (.+?) \((" + AMOUNT + r")(?:, [^)]*)?\)( is sitting out)?$")
_STREETS = {
    "*** ANTE/BLINDS ***": -1,
    "*** FIRST-BET ***": 0,
    "*** FIRST-DRAW ***": 1,
    "*** SECOND-BET ***": 1,
    "*** SECOND-DRAW ***": 2,
    "*** THIRD-BET ***": 2,
    "*** THIRD-DRAW ***": 3,
    "*** FOURTH-BET ***": 3,
    "*** SHOW DOWN ***": 4,
}
_POST = re.compile(
    r"^posts (small blind|big blind|ante|dead blind) (" + AMOUNT + r")( out of position)?"
    r"( and is all-in)?$"
)
_BET = re.compile(r"^(calls|bets) (" + AMOUNT + r")( and is all-in)?$")
_RAISE = re.compile(r"^raises (" + AMOUNT + r") to (" + AMOUNT + r")( and is all-in)?$")
_DISCARD = re.compile(r"^discards? (\d) cards?(?: \[([^\]]*)\])?$")
_PAT = re.compile(r"^stands pat(?: \[([^\]]*)\])?$")
_SHOW = re.compile(r"^shows \[([^\]]*)\]")
_COLLECT = re.compile(r"^collected (" + AMOUNT + r") from (pot|main pot|side pot(?: \d+)?)$")
_TOTAL = re.compile(r"^Total pot (" + AMOUNT + r").*?\| (?:Rake (" + AMOUNT + r")|No rake)")
_NOISE = (
    "is sitting out",
    "sits out",
    "is back",
    "has returned",
    "doesn't show",
    "leaves the table",
    "joins the table",
    "is disconnected",
    "is connected",
    "has timed out",
    "said",
    ":",
)


def read(lines: list[str], first_line: int = 1) -> SiteRecord | None:
    """The record of one Winamax hand, or ``None`` if it is not fixed-limit 2-7 Triple
    Draw. Raises :class:`RecordError` naming the line it cannot read."""
    head = lines[0]
    m = _HEAD.match(head)
    if m is None:
        if not any(g in head for g in GAMES):
            return None
        raise RecordError("the header line is not a Winamax header", first_line, head)
    kind, hand_id, game, limit, stakes, date = m.groups()
    if game not in GAMES or limit != "fixed limit":
        return None
    tid = buy_in = level = None
    t = _TOURNEY.match(kind)
    if kind.startswith("Tournament"):
        if t is None:
            raise RecordError("the tournament in the header cannot be read", first_line, head)
        name, buy_in, level = t.groups()
        tid = hand_id.split("-", 1)[0]
    parts = stakes.split("/")
    ante = money(parts[0]) if len(parts) == 3 else None
    small_bet, big_bet = money(parts[-2]), money(parts[-1])
    rec = SiteRecord(
        site="winamax",
        hand_id=hand_id,
        table=None,
        max_seats=None,
        button=None,
        small_blind=None,
        big_blind=None,
        small_bet=small_bet,
        big_bet=big_bet,
        ante=ante,
        currency="chips" if tid is not None else "EUR",
        date=date,
        tournament_id=tid,
        level=level,
        buy_in=buy_in,
        first_line=first_line,
    )
    for sign, code in CURRENCY_SIGNS.items():
        if sign in parts[-1] and tid is None:
            rec.currency = code
    if len(lines) < 2:
        raise RecordError("the hand ends after its header", first_line, head)
    tm = _TABLE.match(lines[1])
    if tm is None:
        raise RecordError("the table line cannot be read", first_line + 1, lines[1])
    rec.table, rec.max_seats, rec.button = tm.group(1), int(tm.group(2)), int(tm.group(4))
    if tm.group(3) == "play money" and tid is None:
        rec.currency = "play"
    i = read_seats(rec, lines, 2, _SEAT)
    seats = rec.seats
    start = i
    names = names_of(seats, " ")
    by_name = {s.name: s for s in seats}
    out = rec.lines
    section = -2
    street = -1
    summary = False
    drawn: dict[str, Line] = {}  # the draws whose thrown cards the record shows
    for i in range(start, len(lines)):
        text = lines[i]
        n = first_line + i
        if not text:
            continue
        if text[0] == "*":
            if text == "*** SUMMARY ***":
                summary = True
                continue
            if text.startswith("*** End of hand"):
                continue
            order = list(_STREETS).index(text) if text in _STREETS else -1
            if order < 0:
                raise RecordError("an unknown section", n, text)
            if order <= section:
                raise RecordError("a section out of order", n, text)
            section = order
            k = _STREETS[text]
            if k > street:
                street = k
                out.append(Line("street", None, n, text, street=k))
            continue
        if summary:
            tot = _TOTAL.match(text)
            if tot is not None:
                rec.total_pot = money(tot.group(1))
                rec.rake = money(tot.group(2)) if tot.group(2) else money("0")
            continue
        if text.startswith("Dealt to ") and dealt_line(
            rec, text, n, street, drawn, by_name, names.split, hidden=True
        ):
            continue
        split = names.split(text)
        if split is not None:
            name, rest = split
            ln = _action(name, rest, n, text, rec.hero == name)
            if ln is None:
                if street < 0 and rest.startswith(("is sitting out", "sits out")):
                    by_name[name].dealt = False
                continue
            if ln.kind == "draw" and ln.cards:
                drawn[name] = ln
            out.append(ln)
            continue
        # anything else is table talk
    if not summary:
        raise RecordError(
            "the record ends before its summary (a partial hand)",
            first_line + len(lines) - 1,
            lines[-1],
        )
    return rec


def _action(name: str, rest: str, n: int, text: str, hero: bool) -> Line | None:
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
        return Line(
            "raise",
            name,
            n,
            text,
            amount=money(m.group(1)),
            to=money(m.group(2)),
            all_in=bool(m.group(3)),
        )
    m = _DISCARD.match(rest)
    if m is not None:
        thrown = cards(m.group(2), n, text) if m.group(2) is not None else None
        kept = None
        if int(m.group(1)) == 0 and thrown:  # "discard 0 card [his five]"
            kept, thrown = thrown, None
        return Line("draw", name, n, text, count=int(m.group(1)), cards=thrown or None, kept=kept)
    m = _PAT.match(rest)
    if m is not None:
        kept = cards(m.group(1), n, text) if m.group(1) is not None else None
        return Line("draw", name, n, text, count=0, kept=kept or None)
    m = _POST.match(rest)
    if m is not None:
        what, amt, oop, all_in = m.groups()
        kind = {
            "small blind": "post_dead" if oop else "post_sb",
            "big blind": "post_bb",
            "ante": "post_ante",
            "dead blind": "post_dead",
        }[what]
        return Line(kind, name, n, text, amount=money(amt), all_in=bool(all_in))
    m = _SHOW.match(rest)
    if m is not None:
        return Line("show", name, n, text, cards=cards(m.group(1), n, text))
    if rest == "mucks hand" or rest == "mucks":
        return Line("muck", name, n, text)
    m = _COLLECT.match(rest)
    if m is not None:
        pot = None if m.group(2) == "pot" else m.group(2)
        return Line("collect", name, n, text, amount=money(m.group(1)), pot=pot)
    if rest.startswith(_NOISE):
        return None
    raise RecordError(f"an action of {name} that cannot be read", n, text)
