"""PokerStars hand histories of Triple Draw 2-7 Lowball (fixed limit).

The shape PokerStars prints (cash game; a tournament's header names the tournament, its
buy-in and level, and its stacks are chips)::

    PokerStars Hand #228031563518:  Triple Draw 2-7 Lowball Limit ($0.10/$0.20 USD) - 2026/03/04 21:09:12 ET
    Table 'Aludra II' 6-max Seat #2 is the button
    Seat 1: jo smith ($4.10 in chips)
    ...
    jo smith: posts small blind $0.05
    *** DEALING HANDS ***
    Dealt to hero [Kd 7s 5c 4h 2d]
    ...
    *** FIRST DRAW ***
    hero: discards 1 card [Kd]
    Dealt to hero [7s 5c 4h 2d] [3s]
    villain: discards 2 cards
    ...
    *** SHOW DOWN ***
    villain: shows [8c 6d 5h 3c 2s] (Lo: 8,6,5,3,2)
    villain collected $1.29 from pot
    *** SUMMARY ***
    Total pot $1.35 | Rake $0.06

The header's stakes are the small and the big bet; the blinds come from the posts.
"""

# ruff: noqa: E501  (the example header above is one line, as the site prints it)
from __future__ import annotations

import re
from decimal import Decimal
from typing import Any
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

GAME = "Triple Draw 2-7 Lowball"
_HEAD = re.compile(
    r"^PokerStars (?:Hand|Game|Zoom Hand|Home Game Hand|Home Game) #(\d+):\s+(.*?)\s+-\s+"
    r"(\d{4}/\d\d/\d\d \d+:\d\d:\d\d.*)$"
)
_GAME = re.compile(r"Triple Draw 2-7 Lowball (Pot Limit|No Limit|Limit)\b")
_TOURNEY = re.compile(r"^Tournament #(\d+),\s*(.*?)\s*(?=Triple Draw|\d+-Game|HORSE|Mixed|$)")
_STAKES = re.compile(r"\((?:[^()]*?,\s+)?(" + AMOUNT + r")/(" + AMOUNT + r")(?:\s+([A-Z]{3}))?\)")
_LEVEL = re.compile(r"\bLevel ([IVXLCDM]+|\d+)\b")
_TABLE = re.compile(r"^Table '(.*)' (\d+)-max(?: \(Play Money\))? Seat #(\d+) is the button")
_SEAT = re.compile(
    r"^Seat (\d+): (.+?) \(("
    + AMOUNT
    + r") in chips(?:, [^)]*)?\)( is sitting out| out of hand.*)?"
)
_STREETS = {
    "*** DEALING HANDS ***": 0,
    "*** FIRST DRAW ***": 1,
    "*** SECOND DRAW ***": 2,
    "*** THIRD DRAW ***": 3,
    "*** SHOW DOWN ***": 4,
}
_POST = re.compile(
    r"^(small blind|big blind|small & big blinds|the ante) (" + AMOUNT + r")( and is all-in)?$"
)
_POST_KIND = {
    "small blind": "post_sb",
    "big blind": "post_bb",
    "small & big blinds": "post_sb_bb",
    "the ante": "post_ante",
}
_DISCARD = re.compile(r"^(\d) cards?(?: \[([^\]]*)\])?$")
_SHOW = re.compile(r"^\[([^\]]*)\]")
_UNCALLED = re.compile(r"^Uncalled bet \((" + AMOUNT + r")\) returned to (.+)$")
_COLLECT = re.compile(r"^(.+) collected (" + AMOUNT + r") from (pot|main pot|side pot(?:-\d+)?)$")
_TOTAL = re.compile(r"^Total pot (" + AMOUNT + r").*?\| Rake (" + AMOUNT + r")")
#: what a player may say after "NAME: " that is not an action of the hand
_NOISE = (
    "is sitting out",
    "sits out",
    "is back",
    "has returned",
    "doesn't show hand",
    "leaves the table",
    "is disconnected",
    "is connected",
    "has timed out",
    "was removed from the table",
    "will be allowed to play after the button",
    "folds (sitting out)",
)


def read(lines: list[str], first_line: int = 1) -> SiteRecord | None:
    """The record of one PokerStars hand (``lines`` from its header on), or ``None`` if it
    is not a fixed-limit Triple Draw 2-7 hand. Raises :class:`RecordError` naming the line
    it cannot read (line numbers count from ``first_line``)."""
    head = lines[0]
    m = _HEAD.match(head)
    if m is None:
        raise RecordError("the header line is not a PokerStars header", first_line, head)
    hand_id, game, date = m.groups()
    g = _GAMES.get(game)
    if g is None:
        g = _game(game, first_line, head)
        if len(_GAMES) < 4096:
            _GAMES[game] = g
    if g is False:
        return None
    tid, level, buy_in, small_bet, big_bet, currency = g
    rec = SiteRecord(  # (positional: the order of its fields)
        "pokerstars",
        hand_id,
        None,  # table
        None,  # max_seats
        None,  # button
        None,  # small_blind
        None,  # big_blind
        small_bet,
        big_bet,
        None,  # ante
        currency,
        date,
        tid,
        level,
        buy_in,
        first_line=first_line,
    )
    if len(lines) < 2:
        raise RecordError("the hand ends after its header", first_line, head)
    tm = _TABLE.match(lines[1])
    if tm is None:
        raise RecordError("the table line cannot be read", first_line + 1, lines[1])
    rec.table, rec.max_seats, rec.button = tm.group(1), int(tm.group(2)), int(tm.group(3))
    i = read_seats(rec, lines, 2, _SEAT)
    seats = rec.seats
    start = i
    names = names_of(seats, ": ")
    by_name = {s.name: s for s in seats}
    out = rec.lines
    street = -1
    summary = False
    drawn: dict[str, Line] = {}  # the draws whose thrown cards the record shows
    plain = names.plain
    memo = names.parsed
    for n, text in enumerate(lines[start:], first_line + start):
        if not text:
            continue
        if text[0] == "*":
            if text == "*** SUMMARY ***":
                summary = True
                continue
            k = _STREETS.get(text)
            if k is None:
                raise RecordError("an unknown section", n, text)
            if k <= street:
                raise RecordError("a section out of order", n, text)
            street = k
            out.append(Line("street", None, n, text, street=k))
            continue
        if summary:
            tot = _TOTAL.match(text)
            if tot is not None:
                rec.total_pot, rec.rake = money(tot.group(1)), money(tot.group(2))
                break  # (the seats' summary lines repeat what the hand said)
            continue
        f = memo.get(text)
        if f is not None:  # a player's line read before at this table of names
            kind, name, amount, to, all_in, count, thrown, kept = f
            if kind is None:  # table talk of his (``kept``: he sits out)
                if street < 0 and kept:
                    by_name[name].dealt = False
                continue
            if thrown is not None:
                got = Line(kind, name, n, text, amount, to, all_in, count, list(thrown))
                if kind == "draw":
                    drawn[name] = got
            else:
                if kept is not None:
                    kept = list(kept)
                got = Line(kind, name, n, text, amount, to, all_in, count, None, None, kept)
            out.append(got)
            continue
        j = text.find(": ")
        split = (text[:j], text[j + 2 :]) if j > 0 and text[:j] in plain else names.split(text)
        if split is not None:
            name, rest = split
            verb, _, args = rest.partition(" ")
            parse = _VERBS.get(verb)
            ln = parse(name, args, n, text) if parse is not None else None
            if ln is None:
                if not rest.startswith(_NOISE):
                    raise RecordError(f"an action of {name} that cannot be read", n, text)
                sits_out = rest.startswith(("is sitting out", "sits out"))
                if len(memo) < 4096:
                    memo[text] = (None, name, None, None, False, None, None, sits_out)
                if street < 0 and sits_out:
                    by_name[name].dealt = False
                continue
            if ln.kind == "draw" and ln.cards:
                drawn[name] = ln
            if len(memo) < 4096:
                memo[text] = (
                    ln.kind,
                    name,
                    ln.amount,
                    ln.to,
                    ln.all_in,
                    ln.count,
                    None if ln.cards is None else tuple(ln.cards),
                    None if ln.kept is None else tuple(ln.kept),
                )
            out.append(ln)
            continue
        if text.startswith("Dealt to ") and dealt_line(
            rec, text, n, street, drawn, by_name, lambda t: _collects(t, by_name)
        ):
            continue
        u = _UNCALLED.match(text)
        if u is not None:
            if u.group(2) not in by_name:
                raise RecordError(f"{u.group(2)!r} has no seat", n, text)
            out.append(Line("uncalled", u.group(2), n, text, amount=money(u.group(1))))
            continue
        c = _COLLECT.match(text)
        if c is not None and c.group(1) in by_name:
            pot = None if c.group(3) == "pot" else c.group(3)
            out.append(Line("collect", c.group(1), n, text, amount=money(c.group(2)), pot=pot))
            continue
        if text == "Hand cancelled":
            raise RecordError("the hand was cancelled", n, text)
        # anything else is table talk: chat, joins and leaves, time banks, "Betting is capped"
    if not summary:
        raise RecordError(
            "the record ends before its summary (a partial hand)",
            first_line + len(lines) - 1,
            lines[-1],
        )
    return rec


def _collects(text: str, by_name: dict[str, Any]) -> bool:
    """Whether ``text`` is a seated player's collection (PokerStars prints no colon
    after the name there)."""
    c = _COLLECT.match(text)
    return c is not None and c.group(1) in by_name


#: the header's game text -> what :func:`_game` reads from it (``False``: not limit
#: Triple Draw); a file repeats the same few
_GAMES: dict[str, Any] = {}


def _game(game: str, first_line: int, head: str) -> Any:
    """The tournament id, level and buy-in, the small and big bet, and the currency of a
    header's game text; ``False`` if it is not fixed-limit Triple Draw."""
    g = _GAME.search(game)
    if g is None or g.group(1) != "Limit":
        return False
    tid = level = buy_in = None
    t = _TOURNEY.match(game)
    if game.startswith("Tournament #"):
        if t is None:
            raise RecordError("the tournament in the header cannot be read", first_line, head)
        tid, buy_in = t.group(1), t.group(2) or None
        lv = _LEVEL.search(game)
        level = lv.group(1) if lv else None
    s = _STAKES.search(game)
    if s is None:
        raise RecordError("the header names no stakes", first_line, head)
    small_bet, big_bet = money(s.group(1)), money(s.group(2))
    sign = s.group(1)[0]
    if tid is not None:
        currency = "chips"
    elif sign in CURRENCY_SIGNS or s.group(3):
        currency = s.group(3) or CURRENCY_SIGNS[sign]
    else:
        currency = "play"
    return tid, level, buy_in, small_bet, big_bet, currency


def _amount(args: str, n: int, text: str) -> tuple[Decimal, bool]:
    if args.endswith(" and is all-in"):
        return money(args[:-14], n, text), True
    return money(args, n, text), False


def _fold(name: str, args: str, n: int, text: str) -> Line | None:
    return Line("fold", name, n, text) if not args or args[0] == "[" else None


def _check(name: str, args: str, n: int, text: str) -> Line | None:
    return Line("check", name, n, text) if not args else None


def _call(name: str, args: str, n: int, text: str) -> Line | None:
    if not args:
        return None
    a, all_in = _amount(args, n, text)
    return Line("call", name, n, text, a, None, all_in)


def _bets(name: str, args: str, n: int, text: str) -> Line | None:
    if not args:
        return None
    a, all_in = _amount(args, n, text)
    return Line("bet", name, n, text, a, None, all_in)


def _raise(name: str, args: str, n: int, text: str) -> Line:
    by, sep, to = args.partition(" to ")
    if not sep:
        raise RecordError(f"a raise of {name} that cannot be read", n, text)
    a, all_in = _amount(to, n, text)
    return Line("raise", name, n, text, money(by, n, text), a, all_in)


def _discards(name: str, args: str, n: int, text: str) -> Line | None:
    m = _DISCARD.match(args)
    if m is None:
        return None
    thrown = cards(m.group(2), n, text) if m.group(2) is not None else None
    return Line("draw", name, n, text, count=int(m.group(1)), cards=thrown or None)


def _stands(name: str, args: str, n: int, text: str) -> Line | None:
    if args == "pat":
        return Line("draw", name, n, text, count=0)
    if args.startswith("pat on [") and args.endswith("]"):
        return Line("draw", name, n, text, count=0, kept=cards(args[8:-1], n, text))
    return None


def _posts(name: str, args: str, n: int, text: str) -> Line | None:
    m = _POST.match(args)
    if m is None:
        return None
    return Line(
        _POST_KIND[m.group(1)], name, n, text, amount=money(m.group(2)), all_in=bool(m.group(3))
    )


def _shows(name: str, args: str, n: int, text: str) -> Line | None:
    m = _SHOW.match(args)
    if m is None:
        return None
    return Line("show", name, n, text, cards=cards(m.group(1), n, text))


def _mucks(name: str, args: str, n: int, text: str) -> Line | None:
    return Line("muck", name, n, text) if args.startswith("hand") else None


_VERBS = {
    "folds": _fold,
    "checks": _check,
    "calls": _call,
    "bets": _bets,
    "raises": _raise,
    "discards": _discards,
    "stands": _stands,
    "posts": _posts,
    "shows": _shows,
    "mucks": _mucks,
}
