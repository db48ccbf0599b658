"""A tournament's structure: starting stack, levels, breaks, registration, payouts.

A :class:`Structure` is frozen and validated, and reads and writes plain data
(:meth:`Structure.to_dict`, :meth:`Structure.from_dict`) and files (:meth:`Structure.load`:
JSON or TOML). Three presets: ``"sng6"`` (a six-handed sit & go), ``"sng2"`` (a heads-up
sit & go) and ``"mtt"`` (a multi-table event). docs/tournaments.md describes every field.

>>> s = Structure.preset("sng6")
>>> s.table_size, s.max_entries, s.starting_stack, s.levels[0].big_bet
(6, 6, 1500, 40)
>>> s.prizes(6)
(390, 210)
"""

from __future__ import annotations

import dataclasses
import json
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from triple_draw.errors import ArgumentError, RulesError, SchemaError, shown
from triple_draw.game.rules import MAX_CHIPS, RAKE_DEFAULTS, Rules

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib  # type: ignore[import-not-found, unused-ignore]

__all__ = [
    "Level",
    "Break",
    "PayoutRow",
    "Structure",
    "PRESETS",
    "STRUCTURE_SCHEMA_VERSION",
    "LEVEL_BY",
    "MAX_ENTRIES",
    "MAX_LEVELS",
]

#: The ``schema_version`` of a structure document.
STRUCTURE_SCHEMA_VERSION = 1
#: How levels last: a number of hands (per table) or of seconds.
LEVEL_BY = ("hands", "time")
#: The most entries a tournament may take (a bound on every document).
MAX_ENTRIES = 10_000
#: The most levels, breaks and payout rows a structure may list.
MAX_LEVELS = 200
#: The longest level or break, in hands or seconds (a week).
MAX_DURATION = 7 * 24 * 3600
#: A structure file's largest size.
MAX_FILE_BYTES = 1 << 20
#: The Rules fields a structure may set (the stakes come from the levels, the table size
#: from ``table_size``; tournaments take no rake).
GAME_FIELDS = (
    "raise_cap",
    "big_blind_is_bet",
    "heads_up_uncapped",
    "short_all_in",
    "draw_procedure",
    "reshuffle",
    "muck_beaten_hands",
    "burn_cards",
)
_STAKES = ("small_blind", "big_blind", "small_bet", "big_bet", "ante")


def _int(x: Any, what: str, lo: int, hi: int | None = None) -> int:
    if type(x) is not int or x < lo or (hi is not None and x > hi):
        span = f"{lo}..{hi}" if hi is not None else f">= {lo}"
        raise ArgumentError(f"{what} must be an int {span}, got {shown(x)}")
    return x


@dataclass(frozen=True)
class Level:
    """One level: the blinds, the limits (small and big bet), the ante, and how long it
    lasts (hands per table, or seconds: :attr:`Structure.level_by`). The last level of a
    structure lasts until the end."""

    small_blind: int
    big_blind: int
    small_bet: int
    big_bet: int
    ante: int = 0
    duration: int = 10

    def __post_init__(self) -> None:
        for name in (*_STAKES, "duration"):
            _int(getattr(self, name), f"Level.{name}", 1 if name == "duration" else 0, MAX_CHIPS)
        if self.duration > MAX_DURATION:
            raise ArgumentError(f"Level.duration must be at most {MAX_DURATION}")
        try:  # the stakes must make valid rules
            Rules(**{k: getattr(self, k) for k in _STAKES})
        except RulesError as e:
            raise ArgumentError(f"level {self.stakes_text()}: {e}") from None

    def stakes_text(self) -> str:
        """``"10/20, 20/40"`` (blinds, limits), with the ante if any."""
        text = f"{self.small_blind}/{self.big_blind}, {self.small_bet}/{self.big_bet}"
        return text + (f", ante {self.ante}" if self.ante else "")

    def to_dict(self) -> dict[str, int]:
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}


@dataclass(frozen=True)
class Break:
    """A break of ``seconds`` after level ``after_level`` (1-based)."""

    after_level: int
    seconds: int

    def __post_init__(self) -> None:
        _int(self.after_level, "Break.after_level", 1, MAX_LEVELS)
        _int(self.seconds, "Break.seconds", 1, MAX_DURATION)

    def to_dict(self) -> dict[str, int]:
        return {"after_level": self.after_level, "seconds": self.seconds}


@dataclass(frozen=True)
class PayoutRow:
    """The payouts of a field of ``min_entries`` entries or more (up to the next row's):
    the prize pool is shared between the first places in proportion to ``shares``
    (percentages when they add up to 100)."""

    min_entries: int
    shares: tuple[int, ...]

    def __post_init__(self) -> None:
        _int(self.min_entries, "PayoutRow.min_entries", 1, MAX_ENTRIES)
        shares = self.shares
        if isinstance(shares, list):
            shares = tuple(shares)
            object.__setattr__(self, "shares", shares)
        if type(shares) is not tuple or not shares:
            raise ArgumentError(f"PayoutRow.shares must be a non-empty list, got {shown(shares)}")
        for x in shares:
            _int(x, "a payout share", 1, 10**9)
        if len(shares) > self.min_entries:
            raise ArgumentError(
                f"a payout row for {self.min_entries}+ entries pays {len(shares)} places: "
                "at most as many places as entries"
            )
        if any(shares[i] < shares[i + 1] for i in range(len(shares) - 1)):
            raise ArgumentError(f"payout shares must not grow with the place, got {list(shares)}")

    def to_dict(self) -> dict[str, Any]:
        return {"min_entries": self.min_entries, "shares": list(self.shares)}


@dataclass(frozen=True)
class Structure:
    """A tournament's structure (docs/tournaments.md, *The structure*).

    - ``name``; ``starting_stack``: every entry's chips.
    - ``levels``: the :class:`Level` list; ``level_by``: ``"hands"`` (each level lasts
      its ``duration`` in hands per table: ``duration`` times the tables in play when it
      began, counted over all tables) or ``"time"`` (``duration`` seconds of the clock).
    - ``breaks``: :class:`Break` list (after a level; they need a clock).
    - ``table_size``: players per table (2..8); ``min_entries`` to start;
      ``max_entries`` (``None``: no limit); ``start_when_full``: start as soon as
      ``max_entries`` entries are in (a sit & go).
    - ``late_registration``: registration (and re-entry) stays open through this level
      (0: it closes at the start); ``reentries``: how many times a busted player may
      enter again while it is open (0: a freezeout).
    - ``buy_in``, ``fee``: what an entry costs (the buy-ins make the prize pool, the fee
      is the house's), in money units; ``payouts``: :class:`PayoutRow` list, the row of
      the largest ``min_entries`` not above the number of entries applies.
    - ``hand_for_hand``: play hand for hand on the money bubble (multi-table).
    - ``rules``: options of :class:`~triple_draw.Rules` (``GAME_FIELDS``) for every hand.
    """

    name: str
    starting_stack: int
    levels: tuple[Level, ...]
    level_by: str = "hands"
    breaks: tuple[Break, ...] = ()
    table_size: int = 6
    min_entries: int = 2
    max_entries: int | None = None
    start_when_full: bool = False
    late_registration: int = 0
    reentries: int = 0
    buy_in: int = 100
    fee: int = 0
    payouts: tuple[PayoutRow, ...] = (PayoutRow(1, (100,)),)
    hand_for_hand: bool = True
    rules: Mapping[str, Any] = dataclasses.field(default_factory=dict)

    def __post_init__(self) -> None:
        if type(self.name) is not str or not 0 < len(self.name) <= 100:
            raise ArgumentError(
                f"Structure.name must be a str of 1..100 characters, got {shown(self.name)}"
            )
        _int(self.starting_stack, "Structure.starting_stack", 1, MAX_CHIPS // MAX_ENTRIES)
        for name, cls in (("levels", Level), ("breaks", Break), ("payouts", PayoutRow)):
            value = getattr(self, name)
            if isinstance(value, list):
                value = tuple(value)
                object.__setattr__(self, name, value)
            if type(value) is not tuple or not all(type(x) is cls for x in value):
                raise ArgumentError(f"Structure.{name} must be a list of {cls.__name__}")
            if len(value) > MAX_LEVELS:
                raise ArgumentError(f"Structure.{name}: at most {MAX_LEVELS}")
        if not self.levels:
            raise ArgumentError("Structure.levels: a structure needs at least one level")
        if self.level_by not in LEVEL_BY:
            raise ArgumentError(
                f"Structure.level_by must be one of {LEVEL_BY}, got {shown(self.level_by)}"
            )
        after = [b.after_level for b in self.breaks]
        if after != sorted(set(after)) or any(a >= len(self.levels) for a in after):
            raise ArgumentError(
                "Structure.breaks: one break at most after each level, in order, and none "
                f"after the last level ({len(self.levels)}), got after levels {after}"
            )
        _int(self.table_size, "Structure.table_size", 2, 8)
        _int(self.min_entries, "Structure.min_entries", 2, MAX_ENTRIES)
        if self.max_entries is not None:
            _int(self.max_entries, "Structure.max_entries", self.min_entries, MAX_ENTRIES)
        if type(self.start_when_full) is not bool:
            raise ArgumentError("Structure.start_when_full must be a bool")
        if self.start_when_full and self.max_entries is None:
            raise ArgumentError("Structure.start_when_full needs max_entries")
        _int(self.late_registration, "Structure.late_registration", 0, len(self.levels))
        _int(self.reentries, "Structure.reentries", 0, 1000)
        _int(self.buy_in, "Structure.buy_in", 0, 10**12)
        _int(self.fee, "Structure.fee", 0, 10**12)
        rows = [r.min_entries for r in self.payouts]
        if not rows or rows != sorted(set(rows)) or rows[0] > self.min_entries:
            raise ArgumentError(
                "Structure.payouts: rows in increasing min_entries, the first for at most "
                f"min_entries ({self.min_entries}) entries, got {rows}"
            )
        if type(self.hand_for_hand) is not bool:
            raise ArgumentError("Structure.hand_for_hand must be a bool")
        rules = self.rules
        if not isinstance(rules, Mapping):
            raise ArgumentError(
                f"Structure.rules must be a dict of Rules options, got {shown(rules)}"
            )
        bad = sorted(set(rules) - set(GAME_FIELDS))
        if bad:
            raise ArgumentError(
                f"Structure.rules: {bad} cannot be set here (stakes come from the levels, the "
                f"table size from table_size, and tournaments take no rake); allowed: "
                f"{list(GAME_FIELDS)}"
            )
        object.__setattr__(self, "rules", dict(rules))
        try:
            self.level_rules(0)
        except RulesError as e:
            raise ArgumentError(f"Structure.rules: {e}") from None

    def __hash__(self) -> int:
        return hash((self.name, self.starting_stack, self.levels, self.level_by))

    # -- derived ---------------------------------------------------------------------------

    def level_rules(self, index: int) -> Rules:
        """The :class:`~triple_draw.Rules` of level ``index`` (0-based)."""
        lv = self.levels[index]
        return Rules(
            **{k: getattr(lv, k) for k in _STAKES},
            max_players=self.table_size,
            **self.rules,
        )

    def payout_row(self, entries: int) -> PayoutRow:
        """The payout row for ``entries`` entries."""
        row = self.payouts[0]
        for r in self.payouts:
            if r.min_entries <= entries:
                row = r
        return row

    def prizes(self, entries: int) -> tuple[int, ...]:
        """The prize of each paid place (1st first) for ``entries`` entries: the pool
        (``entries * buy_in``) shared in proportion to the row's shares, each rounded
        down, the units left over going one each to the first places; they add up to
        the pool exactly."""
        _int(entries, "entries", 1, MAX_ENTRIES)
        shares = self.payout_row(entries).shares[:entries]
        pool = entries * self.buy_in
        total = sum(shares)
        prizes = [pool * s // total for s in shares]
        for i in range(pool - sum(prizes)):
            prizes[i % len(prizes)] += 1
        return tuple(prizes)

    # -- plain data ------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The structure as plain JSON-ready data (``"schema_version": 1``)."""
        return {
            "schema_version": STRUCTURE_SCHEMA_VERSION,
            "name": self.name,
            "starting_stack": self.starting_stack,
            "level_by": self.level_by,
            "levels": [lv.to_dict() for lv in self.levels],
            "breaks": [b.to_dict() for b in self.breaks],
            "table_size": self.table_size,
            "min_entries": self.min_entries,
            "max_entries": self.max_entries,
            "start_when_full": self.start_when_full,
            "late_registration": self.late_registration,
            "reentries": self.reentries,
            "buy_in": self.buy_in,
            "fee": self.fee,
            "payouts": [r.to_dict() for r in self.payouts],
            "hand_for_hand": self.hand_for_hand,
            "rules": dict(self.rules),
        }

    @classmethod
    def from_dict(cls, data: Any) -> Structure:
        """A structure from :meth:`to_dict`'s data (``schema_version`` may be left out in
        a file written by hand; unknown fields are refused). A bad document raises
        :class:`~triple_draw.SchemaError` naming the field."""
        if not isinstance(data, dict):
            raise SchemaError(f"a structure must be a JSON object, got {type(data).__name__}")
        d = dict(data)
        v = d.pop("schema_version", STRUCTURE_SCHEMA_VERSION)
        if v != STRUCTURE_SCHEMA_VERSION or type(v) is not int:
            raise SchemaError(
                f"structure schema_version must be {STRUCTURE_SCHEMA_VERSION}, got {shown(v)}"
            )
        names = [f.name for f in dataclasses.fields(cls)]
        extra = sorted(set(d) - set(names))
        if extra:
            raise SchemaError(f"structure: unknown fields {extra}; known: {names}")
        for required in ("name", "starting_stack", "levels"):
            if required not in d:
                raise SchemaError(f"structure: missing field {required!r}")
        try:
            d["levels"] = tuple(
                _make(Level, x, f"levels[{i}]") for i, x in enumerate(_list(d, "levels"))
            )
            if "breaks" in d:
                d["breaks"] = tuple(
                    _make(Break, x, f"breaks[{i}]") for i, x in enumerate(_list(d, "breaks"))
                )
            if "payouts" in d:
                rows = []
                for i, x in enumerate(_list(d, "payouts")):
                    if isinstance(x, dict) and isinstance(x.get("shares"), list):
                        x = {**x, "shares": tuple(x["shares"])}
                    rows.append(_make(PayoutRow, x, f"payouts[{i}]"))
                d["payouts"] = tuple(rows)
            return cls(**d)
        except ArgumentError as e:
            raise SchemaError(f"structure: {e}") from None

    @classmethod
    def load(cls, path: str | Path) -> Structure:
        """A structure from a file: TOML (``.toml``) or JSON (anything else)."""
        p = Path(path)
        try:
            raw = p.read_bytes()
        except OSError as e:
            raise ArgumentError(
                f"cannot read the structure file {shown(str(p))}: {e.strerror}"
            ) from None
        except ValueError:  # a path with a NUL character
            raise ArgumentError(f"{shown(str(p))} is not a file name") from None
        if len(raw) > MAX_FILE_BYTES:
            raise SchemaError(
                f"structure file {shown(str(p))} is larger than {MAX_FILE_BYTES} bytes"
            )
        try:
            text = raw.decode("utf-8")
            data = tomllib.loads(text) if p.suffix.lower() == ".toml" else json.loads(text)
        except (UnicodeDecodeError, ValueError) as e:  # TOMLDecodeError is a ValueError
            raise SchemaError(f"structure file {shown(str(p))}: {e}") from None
        except RecursionError:  # (both parsers recurse once per level of nesting)
            raise SchemaError(f"structure file {shown(str(p))}: nested too deeply") from None
        return cls.from_dict(data)

    @classmethod
    def preset(cls, name: str) -> Structure:
        """One of :data:`PRESETS`: ``"sng6"``, ``"sng2"`` or ``"mtt"``."""
        try:
            return PRESETS[name]
        except (KeyError, TypeError):
            raise ArgumentError(
                f"unknown tournament preset {shown(name)}: use one of {', '.join(PRESETS)}"
            ) from None

    @classmethod
    def of(cls, value: Any) -> Structure:
        """A :class:`Structure` from a structure, a preset name, a document or a path to
        a structure file."""
        if type(value) is cls:
            return value
        if isinstance(value, dict):
            return cls.from_dict(value)
        if isinstance(value, str) and value in PRESETS:
            return PRESETS[value]
        if isinstance(value, (str, Path)):
            p = Path(value)
            try:
                exists = p.exists()
            except (OSError, ValueError):  # a name too long, a NUL character: no file
                exists = False
            if p.suffix.lower() in (".json", ".toml") or exists:
                return cls.load(p)
            raise ArgumentError(
                f"{shown(str(value))} is neither a tournament preset ({', '.join(PRESETS)}) nor a "
                "structure file"
            )
        raise ArgumentError(f"a structure, a preset name or a file, got {shown(value)}")


def _list(d: dict[str, Any], key: str) -> list[Any]:
    v = d[key]
    if not isinstance(v, (list, tuple)):
        raise SchemaError(f"structure: {key} must be a list")
    return list(v)


def _make(cls: Any, x: Any, where: str) -> Any:
    if not isinstance(x, dict):
        raise SchemaError(f"structure: {where} must be an object")
    names = [f.name for f in dataclasses.fields(cls)]
    extra = sorted(set(x) - set(names))
    if extra:
        raise SchemaError(f"structure: {where}: unknown fields {extra}; known: {names}")
    try:
        return cls(**x)
    except TypeError as e:
        raise SchemaError(f"structure: {where}: {e}") from None
    except ArgumentError as e:
        raise SchemaError(f"structure: {where}: {e}") from None


def _conventional(sb: int, small_bet: int, duration: int) -> Level:
    """A level with the conventional stakes: big blind = small bet, big bet = twice it."""
    return Level(sb, small_bet, small_bet, 2 * small_bet, 0, duration)


# The levels of the presets: (small blind, small bet), the big blind being the small bet
# and the big bet twice it.
_SNG_STAKES = (
    (10, 20), (15, 30), (25, 50), (40, 80), (50, 100), (75, 150), (100, 200), (150, 300),
    (200, 400), (300, 600), (400, 800), (500, 1000), (750, 1500), (1000, 2000),
    (1500, 3000), (2000, 4000), (3000, 6000), (4000, 8000), (5000, 10000),
)  # fmt: skip
_MTT_STAKES = (
    (50, 100), (75, 150), (100, 200), (150, 300), (200, 400), (300, 600), (400, 800),
    (500, 1000), (750, 1500), (1000, 2000), (1500, 3000), (2000, 4000), (3000, 6000),
    (4000, 8000), (5000, 10000), (7500, 15000), (10000, 20000), (15000, 30000),
    (20000, 40000), (30000, 60000), (40000, 80000), (50000, 100000),
)  # fmt: skip
_ONLINE = {"draw_procedure": "immediate", "reshuffle": "pokerstars"}

#: The presets: a six-handed sit & go, a heads-up sit & go, a multi-table event.
PRESETS: dict[str, Structure] = {
    "sng6": Structure(
        name="sng6",
        starting_stack=1500,
        levels=tuple(_conventional(sb, b, 12) for sb, b in _SNG_STAKES),
        table_size=6,
        min_entries=6,
        max_entries=6,
        start_when_full=True,
        buy_in=100,
        payouts=(PayoutRow(6, (65, 35)),),
        hand_for_hand=False,
        rules=_ONLINE,
    ),
    "sng2": Structure(
        name="sng2",
        starting_stack=1500,
        levels=tuple(_conventional(sb, b, 10) for sb, b in _SNG_STAKES),
        table_size=2,
        min_entries=2,
        max_entries=2,
        start_when_full=True,
        buy_in=100,
        payouts=(PayoutRow(2, (100,)),),
        hand_for_hand=False,
        rules={**_ONLINE, "heads_up_uncapped": True},
    ),
    "mtt": Structure(
        name="mtt",
        starting_stack=10000,
        levels=tuple(_conventional(sb, b, 12) for sb, b in _MTT_STAKES),
        breaks=tuple(Break(k, 600) for k in (4, 8, 12, 16, 20)),
        table_size=6,
        min_entries=7,
        late_registration=4,
        reentries=1,
        buy_in=100,
        payouts=(
            PayoutRow(2, (100,)),
            PayoutRow(4, (65, 35)),
            PayoutRow(7, (50, 30, 20)),
            PayoutRow(13, (45, 27, 17, 11)),
            PayoutRow(25, (37, 23, 15, 11, 8, 6)),
            PayoutRow(41, (32, 20, 14, 10, 8, 6, 5, 5)),
            PayoutRow(71, (28, 17, 12, 9, 7, 6, 5, 4, 4, 4, 4)),
            PayoutRow(121, (27, 15, 10, 8, 6, 5, 4, 4, 3, 3, 3, 3, 3, 3, 3)),
        ),
        hand_for_hand=True,
        rules={"raise_cap": 4},
    ),
}

assert not set(GAME_FIELDS) & set(RAKE_DEFAULTS)
