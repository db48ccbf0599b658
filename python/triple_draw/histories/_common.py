"""What the three readers share: amounts, cards and players' names as the sites print
them."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

from triple_draw.histories._record import Line, RecordError, Seat

__all__ = ["money", "cards", "Names", "CURRENCY_SIGNS", "AMOUNT"]

#: the currency signs the sites print before (``$``, ``£``) or after (``€``) amounts
CURRENCY_SIGNS = {"$": "USD", "€": "EUR", "£": "GBP"}
#: an amount as printed: an optional sign, digits with thousands separators, decimals
AMOUNT = r"[$€£]?\d[\d,]*(?:\.\d+)?€?"


_MONEY: dict[str, Decimal] = {}
_CARDS: dict[str, list[int]] = {}
_ID = {r + s: 4 * i + j for i, r in enumerate("23456789TJQKA") for j, s in enumerate("cdhs")}


def money(text: str, lineno: int = 0, line: str = "") -> Decimal:
    """The amount ``text`` ("$1,500.25", "12.50€", "300") as a Decimal."""
    d = _MONEY.get(text)
    if d is not None:
        return d
    d = _money(text, lineno, line)
    if len(_MONEY) < 65536:
        _MONEY[text] = d
    return d


def _money(text: str, lineno: int, line: str) -> Decimal:
    t = text.strip().strip("$€£").replace(",", "")
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
    starts with (names may hold spaces, colons and brackets)."""

    __slots__ = ("_by_first", "_plain", "sep")

    def __init__(self, seats: list[Seat], sep: str) -> None:
        self.sep = sep
        self._by_first: dict[str, list[str]] = {}
        self._plain: set[str] = set()
        for s in seats:
            self.add(s.name)

    def add(self, name: str) -> None:
        group = self._by_first.setdefault(name[:1], [])
        group.append(name + self.sep)
        group.sort(key=lambda x: -len(x))
        # a name without the separator in it, that starts no other name with the
        # separator after it, is found by the first separator of a line
        every = [p for g in self._by_first.values() for p in g]
        self._plain = {
            p[: -len(self.sep)]
            for p in every
            if self.sep not in p[: -len(self.sep)]
            and not any(q != p and q.startswith(p) for q in every)
        }

    def split(self, line: str) -> tuple[str, str] | None:
        """``(name, rest)`` when ``line`` starts with a seated player's name and the
        separator, else ``None``."""
        sep = self.sep
        i = line.find(sep)
        if i > 0 and line[:i] in self._plain:
            return line[:i], line[i + len(sep) :]
        for prefix in self._by_first.get(line[:1], ()):
            if line.startswith(prefix):
                return prefix[: -len(sep)], line[len(prefix) :]
        return None


def line(kind: str, name: str | None, lineno: int, text: str, **kw: object) -> Line:
    return Line(kind, name, lineno, text, **kw)  # type: ignore[arg-type]
