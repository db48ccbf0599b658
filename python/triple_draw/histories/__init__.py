"""The sites' hand histories: PokerStars, Full Tilt Poker and Winamax records of Triple
Draw 2-7 (fixed limit) read and replayed, and any hand written as PokerStars prints it.

>>> from triple_draw import histories
>>> imported = histories.load("tests/data/histories/pokerstars/cash.txt")  # doctest: +SKIP
>>> h = imported.hands[0]                                                 # doctest: +SKIP
>>> h.site, h.hand_id, h.players, h.chip_unit                             # doctest: +SKIP

- :func:`load` reads a path, bytes or str (any number of hands, of any of the three
  sites, in UTF-8 with or without BOM or UTF-16, CRLF or LF) into an :class:`Imported`:
  ``.hands`` (each a :class:`SiteHand`, with the finished :class:`~triple_draw.Hand`
  replayed from it, unknown cards and all), ``.refused`` (each Triple Draw hand that
  could not be replayed, with the line and the reason) and ``.skipped`` (the hands of
  other games). A bad hand never fails the file.
- :func:`iter_load` yields the same one hand at a time, in flat memory.
- :func:`dumps` writes a hand as a PokerStars, Full Tilt Poker or Winamax hand history.

docs/histories.md tells what is read and how; docs/sites.md each site's rules.
"""

from __future__ import annotations

import gc
import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any

from triple_draw.errors import ArgumentTypeError, HistoryError, TripleDrawError
from triple_draw.game.hand import Hand
from triple_draw.game.rules import Rules, real_game_only
from triple_draw.histories import fulltilt, pokerstars, winamax
from triple_draw.histories._record import RecordError, SiteRecord
from triple_draw.histories._text import is_text as _is_text
from triple_draw.histories._text import read_source, split_hands, split_lines, stream_lines
from triple_draw.histories.replay import replay
from triple_draw.histories.write import dumps

__all__ = [
    "Imported",
    "Refused",
    "SiteHand",
    "Skipped",
    "dumps",
    "iter_load",
    "load",
    "SITES",
    "SITE_NAMES",
]

#: The readers, by site.
READERS = {"pokerstars": pokerstars.read, "fulltilt": fulltilt.read, "winamax": winamax.read}
SITES = tuple(READERS)
#: The sites' names as they print them.
SITE_NAMES = {"pokerstars": "PokerStars", "fulltilt": "Full Tilt Poker", "winamax": "Winamax"}


@dataclass(frozen=True, slots=True)
class Refused:
    """A Triple Draw hand of the source that could not be replayed."""

    #: the site's hand number as printed (``None`` if the header itself is unreadable)
    hand_id: str | None
    site: str
    #: why: the hand, the line (number and text) and the problem
    reason: str
    #: the 1-based line number in the source of the hand's first line
    line: int


@dataclass(frozen=True, slots=True)
class Skipped:
    """A hand of another game (an 8-game mix's Razz, a no-limit single draw...)."""

    hand_id: str | None
    site: str
    line: int


@dataclass(slots=True, eq=False)
class SiteHand:
    """One hand of a site's hand history, replayed.

    ``hand`` is the finished :class:`~triple_draw.Hand` (a record: the cards the history
    does not show are unknown); its seats ``0..n-1`` are the players dealt in, in the
    order of their seat numbers. Amounts of the hand are chips of ``chip_unit`` money.
    """

    site: str
    hand_id: str
    #: the players' names, by seat of :attr:`hand`
    players: tuple[str, ...]
    #: the money one chip is worth (``Decimal("0.01")`` in a $0.10/$0.20 game)
    chip_unit: Decimal
    hand: Hand
    #: the seat numbers as printed, by seat of :attr:`hand`
    seat_numbers: tuple[int, ...]
    #: the player whose cards the record shows, and his seat of :attr:`hand`
    hero: str | None
    hero_seat: int | None
    table: str | None
    #: the table size the header prints
    max_seats: int | None
    #: the stakes as printed: small and big bet, and the blinds posted, in money
    small_bet: Decimal
    big_bet: Decimal
    small_blind: Decimal
    big_blind: Decimal
    #: "USD", "EUR", "GBP"...; "play" for play money; "chips" in tournaments
    currency: str
    #: the date and time as printed
    date: str | None
    tournament_id: str | None = None
    level: str | None = None
    buy_in: str | None = None
    #: the line of the source where the hand starts
    line: int = 0

    @property
    def rake(self) -> Decimal:
        """The money the site took."""
        rake: int = self.hand.result.rake
        return rake * self.chip_unit

    def net(self) -> dict[str, Decimal]:
        """Each player's win (+) or loss (-) in money."""
        net = self.hand.result.net
        return {p: x * self.chip_unit for p, x in zip(self.players, net, strict=True)}

    def to_phh(self, **fields: Any) -> str:
        """The record as PHH: the hero's view (the others' cards unknown unless shown),
        with the site, hand number, table, date and players' names (:meth:`phh_fields`;
        ``fields`` add to them or replace them). Reads back with
        :func:`triple_draw.phh.loads` and PokerKit."""
        from triple_draw import phh

        return phh.dumps(self.hand, **{**self.phh_fields(), **fields})

    def phh_fields(self) -> dict[str, Any]:
        """The fields :meth:`to_phh` writes with the hand: ``viewer`` (the hero's seat),
        the venue, hand number, table, date, players' names, currency and the site's
        own facts (``_site_hand``, ``_site_seats``, ``_chip_unit``...). With
        :func:`triple_draw.phh.iter_dumps_all`, many records make one ``.phhs`` file."""
        doc: dict[str, Any] = {
            "viewer": self.hero_seat,
            "venue": SITE_NAMES[self.site],
            "players": list(self.players),
            "_site_hand": self.hand_id,
            "_site_seats": list(self.seat_numbers),
            "_chip_unit": str(self.chip_unit),
        }
        if self.hand_id.isdigit() and len(self.hand_id) < 19:
            doc["hand"] = int(self.hand_id)
        if self.currency not in ("chips", "play"):
            doc["currency"] = self.currency
        if self.table is not None:
            doc["_table"] = self.table
        if self.date:
            doc["_date"] = self.date
            d = self.date[:10].split("/")
            if len(d) == 3 and all(x.isdigit() for x in d):
                doc["year"], doc["month"], doc["day"] = (int(x) for x in d)
        if self.tournament_id is not None:
            doc["event"] = f"{SITE_NAMES[self.site]} tournament {self.tournament_id}"
        if self.level is not None:
            doc["_level"] = self.level
        return doc


@dataclass(slots=True)
class Imported:
    """What :func:`load` read from a source."""

    hands: list[SiteHand] = field(default_factory=list)
    refused: list[Refused] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    #: the source's name for messages (its path, ``<text>`` or ``<bytes>``)
    source: str = ""

    def __repr__(self) -> str:
        return (
            f"<Imported {self.source}: {len(self.hands)} hands, {len(self.refused)} refused, "
            f"{len(self.skipped)} skipped>"
        )


def load(source: Any, *, rules: Rules | None = None) -> Imported:
    """Every hand of ``source`` (a path, bytes or str): :class:`Imported`. A source with
    no hand of any site at all raises :class:`~triple_draw.errors.HistoryError`; an
    unreadable path :class:`~triple_draw.errors.ArgumentError`.

    ``rules``: replay under these rules' options (raise cap, draw procedure, reshuffle,
    ...) instead of the site's, with the stakes of each record - for histories written by
    :func:`dumps` from hands of other rules, which a site's text cannot name."""
    options = _options(rules)
    text, name = read_source(source)
    out = Imported(source=name)
    hands, refused, skipped = out.hands, out.refused, out.skipped
    # The cyclic garbage collector pauses while the hands are built: every one is kept,
    # and its full collections would walk all those kept so far again and again (a
    # fifth of the time on a large file); what a refused hand left behind is collected
    # when it resumes.
    paused = gc.isenabled()
    if paused:
        gc.disable()
    try:
        for item in _iter(split_hands(text), name, options):
            kind = type(item)
            if kind is SiteHand:
                hands.append(item)  # type: ignore[arg-type]
            elif kind is Refused:
                refused.append(item)  # type: ignore[arg-type]
            else:
                skipped.append(item)  # type: ignore[arg-type]
    finally:
        if paused:
            gc.enable()
    return out


def iter_load(source: Any, *, rules: Rules | None = None) -> Iterator[SiteHand | Refused | Skipped]:
    """Each hand of ``source`` in file order, as it is replayed: a :class:`SiteHand`,
    :class:`Refused` or :class:`Skipped` (nothing is kept, so a file of any size imports
    in flat memory - beyond its text). ``rules`` as in :func:`load`."""
    options = _options(rules)
    if isinstance(source, (str, os.PathLike)) and not _is_text(source):
        path = Path(source)
        read_source(path, probe=True)  # the path's errors, before any hand
        return _iter(split_lines(stream_lines(path)), str(path), options)
    text, name = read_source(source)
    return _iter(split_hands(text), name, options)


def _options(rules: Any) -> Rules | None:
    if rules is not None and type(rules) is not Rules:
        raise ArgumentTypeError(f"rules must be a Rules or None, got {type(rules).__name__}")
    if rules is not None:
        real_game_only(rules, "site histories")
    return rules


def _iter(
    hands: Iterator[tuple[str, int, list[str]]], name: str, options: Rules | None
) -> Iterator[SiteHand | Refused | Skipped]:
    any_hand = False
    for site, first, lines in hands:
        any_hand = True
        yield read_hand(site, lines, first, options)
    if not any_hand:
        raise HistoryError(
            f"{name}: no hand of PokerStars, Full Tilt Poker or Winamax in it (no header line)"
        )


def read_hand(
    site: str, lines: list[str], first: int, options: Rules | None = None
) -> SiteHand | Refused | Skipped:
    """One hand's lines, read and replayed."""
    rec: SiteRecord | None = None
    try:
        rec = READERS[site](lines, first)
        if rec is None:
            return Skipped(_hand_id(lines[0]), site, first)
        hand, names, unit = replay(
            rec, collected_includes_uncalled=site == "winamax", options=options
        )
    except RecordError as e:
        return Refused(
            rec.hand_id if rec else _hand_id(lines[0]),
            site,
            _reason(e, rec, first, lines[0]),
            first,
        )
    except (TripleDrawError, ArithmeticError, ValueError) as e:  # pragma: no cover - a bug
        return Refused(
            rec.hand_id if rec else _hand_id(lines[0]), site, f"line {first}: {e}", first
        )
    hero_seat = names.index(rec.hero) if rec.hero in names else None
    r = hand.rules
    blinds = _BLINDS.get((r.small_blind, r.big_blind, unit))
    if blinds is None:
        blinds = (r.small_blind * unit, r.big_blind * unit)
        if len(_BLINDS) < 4096:
            _BLINDS[r.small_blind, r.big_blind, unit] = blinds
    # (positional: one SiteHand per hand imported; the order of its fields)
    return SiteHand(
        site,
        rec.hand_id,
        tuple(names),
        unit,
        hand,
        tuple([s.number for s in rec.seats if s.dealt]),
        rec.hero,
        hero_seat,
        rec.table,
        rec.max_seats,
        rec.small_bet,
        rec.big_bet,
        blinds[0],
        blinds[1],
        rec.currency,
        rec.date,
        rec.tournament_id,
        rec.level,
        rec.buy_in,
        first,
    )


#: (small blind, big blind, chip unit) -> the blinds in money, for :func:`read_hand`
_BLINDS: dict[tuple[int, int, Decimal], tuple[Decimal, Decimal]] = {}


def _reason(e: RecordError, rec: SiteRecord | None, first: int, header: str) -> str:
    hand_id = rec.hand_id if rec else _hand_id(header)
    hid = f"hand #{hand_id}" if hand_id else f"the hand at line {first}"
    if e.line:
        text = e.text.strip()
        if len(text) > _QUOTED:  # a corrupt file's line may be of any length
            text = text[: _QUOTED - 3] + "..."
        return f"{hid}, line {e.line} ({text!r}): {e.why}"
    return f"{hid}: {e.why}"


#: the most of a line a refusal quotes (a site's lines are well under it)
_QUOTED = 160


def _hand_id(header: str) -> str | None:
    import re

    m = re.search(r"#([\w-]+)", header)
    return m.group(1) if m else None
