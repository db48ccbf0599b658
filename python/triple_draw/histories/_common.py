"""What the three readers share: amounts, cards and players' names as the sites print
them."""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from typing import Any

from triple_draw.histories._record import Line, RecordError, Seat, SiteRecord

__all__ = [
    "money",
    "cards",
    "Names",
    "names_of",
    "CURRENCY_SIGNS",
    "AMOUNT",
    "read_seats",
    "dealt_to",
    "dealt_line",
]

#: the currency signs the sites print before (``$``, ``£``) or after (``€``) amounts
CURRENCY_SIGNS = {"$": "USD", "€": "EUR", "£": "GBP"}
#: an amount as printed: an optional sign, digits with thousands separators, decimals
AMOUNT = r"[$€£]?\d[\d,]*(?:\.\d+)?€?"


_MONEY: dict[str, Decimal] = {}
_CARDS: dict[str, list[int]] = {}
_DEALT = re.compile(r"^Dealt to (.+?) \[([^\]]*)\](?: \[([^\]]*)\])?$")
#: the cards of a "Dealt to" line after its player's name
_DEALT_CARDS = re.compile(r"\[([^\]]*)\](?: \[([^\]]*)\])?$")
_ID = {r + s: 4 * i + j for i, r in enumerate("23456789TJQKA") for j, s in enumerate("cdhs")}


def places(d: Decimal) -> int:
    """The decimals an amount is printed with."""
    p = _PLACES.get(d)
    if p is None:
        e = d.as_tuple().exponent
        p = -e if isinstance(e, int) and e < 0 else 0
        if len(_PLACES) < 65536:
            _PLACES[d] = p
    return p


_PLACES: dict[Decimal, int] = {}


def money(text: str, lineno: int = 0, line: str = "") -> Decimal:
    """The amount ``text`` ("$1,500.25", "12.50€", "300") as a Decimal."""
    d = _MONEY.get(text)
    if d is not None:
        return d
    d = _money(text, lineno, line)
    if len(_MONEY) < 65536:
        _MONEY[text] = d
    return d


#: the most digits of an amount read (the engine's chips stay below 2**50)
MAX_AMOUNT_DIGITS = 24


def _money(text: str, lineno: int, line: str) -> Decimal:
    t = text.strip().strip("$€£").replace(",", "")
    if len(t) > MAX_AMOUNT_DIGITS:
        raise RecordError(
            f"an amount of more than {MAX_AMOUNT_DIGITS} digits: {text[:30]!r}...", lineno, line
        )
    try:
        d = Decimal(t)
    except InvalidOperation:
        raise RecordError(f"{text!r} is not an amount", lineno, line) from None
    if not d.is_finite() or d < 0:
        raise RecordError(f"{text!r} is not an amount", lineno, line)
    return d


def cards(text: str, lineno: int, line: str) -> list[int]:
    """The card ids of a bracket's text ("7h 5d 4c"); ``X`` (a card the site hides) is
    left out."""
    got = _CARDS.get(text)
    if got is not None:
        return list(got)
    out = []
    for c in text.split():
        if c in ("X", "??", "xx"):
            continue
        cid = _ID.get(c)
        if cid is None:
            raise RecordError(f"{c!r} is not a card", lineno, line)
        out.append(cid)
    if len(_CARDS) < 65536:
        _CARDS[text] = out
    return list(out)


class Names:
    """The seated players' names, to find who a line is about: the longest name the line
    starts with (names may hold spaces, colons and brackets). Made by :func:`names_of`,
    which keeps one per table of names (a file's hands mostly seat the same players)."""

    __slots__ = ("_by_first", "parsed", "plain", "sep")

    def __init__(self, names: tuple[str, ...], sep: str) -> None:
        self.sep = sep
        #: the PokerStars reader's memo of the player lines it read at this table of
        #: names: the line's text -> the fields of its :class:`Line` (the same text at the
        #: same table of names always reads the same; lines it refused are not kept)
        self.parsed: dict[str, tuple[Any, ...]] = {}
        self._by_first: dict[str, list[str]] = {}
        for name in names:
            self._by_first.setdefault(name[:1], []).append(name + sep)
        every = []
        for group in self._by_first.values():
            group.sort(key=lambda x: -len(x))
            every.extend(group)
        # a name without the separator in it, that starts no other name with the
        # separator after it, is found by the first separator of a line
        self.plain = frozenset(
            p[: -len(sep)]
            for p in every
            if sep not in p[: -len(sep)] and not any(q != p and q.startswith(p) for q in every)
        )

    def split(self, line: str) -> tuple[str, str] | None:
        """``(name, rest)`` when ``line`` starts with a seated player's name and the
        separator, else ``None``."""
        sep = self.sep
        i = line.find(sep)
        if i > 0 and line[:i] in self.plain:
            return line[:i], line[i + len(sep) :]
        for prefix in self._by_first.get(line[:1], ()):
            if line.startswith(prefix):
                return prefix[: -len(sep)], line[len(prefix) :]
        return None


_NAMES: dict[tuple[str, tuple[str, ...]], Names] = {}


def names_of(seats: list[Seat], sep: str) -> Names:
    """The :class:`Names` of these seats' players, with ``sep`` after a name."""
    key = (sep, tuple([s.name for s in seats]))
    names = _NAMES.get(key)
    if names is None:
        names = Names(key[1], sep)
        if len(_NAMES) >= 4096:
            _NAMES.clear()
        _NAMES[key] = names
    return names


#: the most seats a hand's table lists (a site's largest tables have ten)
MAX_SEATS = 10


def read_seats(
    rec: SiteRecord, lines: list[str], i: int, pattern: re.Pattern[str], *, blanks: bool = False
) -> int:
    """The seat lines of a hand from ``lines[i]`` on (``pattern``: number, name, stack and
    a sitting-out mark), added to ``rec.seats``; returns the index of the next line.
    ``blanks``: blank lines may stand between them (Full Tilt Poker)."""
    first = rec.first_line
    seats = rec.seats
    memo = _SEATS.setdefault(pattern, {})
    while i < len(lines) and (lines[i].startswith("Seat ") or (blanks and not lines[i])):
        text = lines[i]
        if text:
            f = memo.get(text)
            if f is None:
                sm = pattern.match(text)
                if sm is None:
                    raise RecordError("a seat line cannot be read", first + i, text)
                f = (
                    int(sm.group(1)),
                    sm.group(2),
                    money(sm.group(3), first + i, text),
                    sm.group(4) is None,
                )
                if len(memo) < 4096:
                    memo[text] = f
            seats.append(Seat(*f))
            if len(seats) > MAX_SEATS:
                raise RecordError(
                    f"the hand lists more than {MAX_SEATS} seats (no site's table has more)",
                    first + i,
                    text,
                )
        i += 1
    if not rec.seats:
        raise RecordError("the hand lists no seats", first + i, lines[i] if i < len(lines) else "")
    return i


#: each site's seat lines read so far: text -> the fields of its :class:`Seat` (a table's
#: players keep their stacks from hand to hand more often than not)
_SEATS: dict[re.Pattern[str], dict[str, tuple[int, str, Decimal, bool]]] = {}


def dealt_to(
    rec: SiteRecord,
    text: str,
    n: int,
    street: int,
    drawn: dict[str, Line],
    names: set[str] | dict[str, Seat],
    *,
    hidden: bool = False,
) -> None:
    """A "Dealt to NAME [cards]" line: a player's five cards before the first draw (the
    first such player is the hero), or after a draw ``[kept] [new]`` for the draw of his
    in ``drawn``. ``hidden``: the site prints other players' cards as ``[X X X X X]``,
    which say nothing."""
    d = _DEALT.match(text)
    if d is None:
        raise RecordError("a 'Dealt to' line cannot be read", n, text)
    who, first, second = d.groups()
    try:
        if who not in names:
            raise RecordError(f"{who!r} is dealt cards but has no seat", n, text)
        shown = cards(first, n, text)
        new = cards(second or "", n, text)
    except RecordError:
        # a name holding " [" ("jo [x]"): the longest seated name the line goes on with
        for name in sorted(names, key=len, reverse=True):
            if name == who or not text.startswith(f"Dealt to {name} ["):
                continue
            m = _DEALT_CARDS.match(text, len(name) + 10)
            if m is not None:
                who, (first, second) = name, m.groups()
                shown = cards(first, n, text)
                new = cards(second or "", n, text)
                break
        else:
            raise
    if hidden and not shown and not new:
        return
    if street <= 0:
        if len(shown) != 5 or second is not None:
            raise RecordError("the dealt hand is not five cards", n, text)
        if who in rec.dealt:
            raise RecordError(f"{who} is dealt a second hand", n, text)
        rec.dealt[who] = shown
        if rec.hero is None:
            rec.hero, rec.hero_cards = who, shown
        return
    draw = drawn.pop(who, None)
    if draw is None:
        raise RecordError(f"{who} is dealt cards he did not draw", n, text)
    draw.kept, draw.new = shown, new


def dealt_line(
    rec: SiteRecord,
    text: str,
    n: int,
    street: int,
    drawn: dict[str, Line],
    names: dict[str, Seat],
    players_line: Any,
    *,
    hidden: bool = False,
) -> bool:
    """A line that starts with "Dealt to ": read as a "Dealt to" line (:func:`dealt_to`;
    ``True``), or - when it cannot be one and ``players_line(text)`` finds it to be a
    line of a seated player whose name starts with those words ("Dealt to me collected
    5 from pot") - left to the caller (``False``)."""
    try:
        dealt_to(rec, text, n, street, drawn, names, hidden=hidden)
    except RecordError:
        if not players_line(text):
            raise
        return False
    return True
