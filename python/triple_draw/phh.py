"""PHH hand histories: the Poker Hand History format of the PokerKit project.

A PHH file is TOML. ``dumps(hand)`` writes a :class:`~triple_draw.game.Hand` (over or in
progress) as PHH text of variant ``F2L3D`` (fixed-limit deuce-to-seven triple draw);
``loads(text)`` replays such a text into a new ``Hand``. ``dump``/``load`` do the same
with files, and ``dumps_all``/``loads_all``/``dump_all``/``load_all`` with ``.phhs`` files
(many hands, one TOML table ``[1]``, ``[2]``, ... per hand).

Seat order follows the PHH specification: ``p1`` is the small blind (heads-up: the big
blind, the first seat left of the button) and the last player holds the button. The
hand's own seat numbers are kept in the optional ``seats`` field (seat + 1), and the rule
options PHH cannot express in the user-defined field ``_triple_draw_rules``.

Actions written and read::

    d dh p1 7h6c4c3d2c        hole cards (at the deal, and the replacements of a draw)
    p3 f / p3 cc / p3 cbr 8   fold / check or call / bet or raise to 8 (round total)
    p1 sd / p1 sd 7hQs        stand pat / discard
    p1 sm 7h6c4c3d2c / p1 sm  show / muck at showdown (``p1 sm -``: show as held)

Unknown cards are ``??``: cards shown later (at showdown, or discarded face up) fill in
what was unknown before; ``loads`` chooses the rest among the cards the deal could give at
that moment under the hand's rules (a hand mucked unseen at showdown gets losing cards:
our showdown is automatic). The replay runs under the hand's own rules, and the engine
checks every dealt card when it is dealt, so it reshuffles where the original did.
Anything malformed or illegal raises :class:`~triple_draw.errors.HistoryError` naming
the line and the action.
The README (PHH section) lists where PokerKit's rules differ from ours.

>>> from triple_draw.game import Hand, Rules
>>> h = Hand(Rules(), [100, 100, 100], button=2, seed=3)
>>> h.fold(); h.fold()
>>> print(dumps(h).splitlines()[0])
variant = "F2L3D"
>>> loads(dumps(h)).stacks == h.stacks
True
"""

from __future__ import annotations

import datetime
import math
import os
import random
import re
import sys
import warnings
from collections.abc import Iterable, Iterator, Sequence
from decimal import Decimal, InvalidOperation
from itertools import pairwise, permutations
from typing import Any

from triple_draw.errors import CardError, DeckError, HistoryError, IllegalActionError, RulesError
from triple_draw.game import core as _coremod
from triple_draw.game.cards import CARD_TEXT, to_maybe_ids
from triple_draw.game.hand import Hand
from triple_draw.game.rules import Rules

__all__ = [
    "VARIANT",
    "RULES_FIELD",
    "dumps",
    "loads",
    "dump",
    "load",
    "dumps_all",
    "loads_all",
    "dump_all",
    "load_all",
    "iter_actions",
]

#: The PHH variant code of fixed-limit deuce-to-seven lowball triple draw.
VARIANT = "F2L3D"
#: The user-defined field holding the rule options PHH has no field for.
RULES_FIELD = "_triple_draw_rules"

_REQUIRED = (
    "variant",
    "antes",
    "blinds_or_straddles",
    "small_bet",
    "big_bet",
    "starting_stacks",
    "actions",
)
_OPTIONAL = (
    "author",
    "event",
    "url",
    "venue",
    "address",
    "city",
    "region",
    "postal_code",
    "country",
    "time",
    "time_zone",
    "time_zone_abbreviation",
    "day",
    "month",
    "year",
    "hand",
    "level",
    "seats",
    "seat_count",
    "table",
    "players",
    "finishing_stacks",
    "winnings",
    "currency",
    "currency_symbol",
    "ante_trimming_status",
    "time_limit",
    "time_banks",
)
#: Fields of other variants: present in an F2L3D history they are an error.
_FOREIGN = ("bring_in", "min_bet")
#: Optional per-player fields a caller may pass to dumps in the hand's seat order.
_PER_PLAYER = ("players", "winnings", "time_banks")
#: Fields dumps writes itself.
_GENERATED = frozenset(_REQUIRED) | {
    "seats",
    "finishing_stacks",
    "ante_trimming_status",
    RULES_FIELD,
}
#: Choices of the unknown cards tried (a choice can get stuck: a card the history names
#: later cannot be dealt then; or a hand mucked unseen would win the showdown).
_MUCK_ATTEMPTS = 24
#: Rule options kept in RULES_FIELD (the stakes are PHH fields).
_OPTION_NAMES = (
    "raise_cap",
    "big_blind_is_bet",
    "heads_up_uncapped",
    "short_all_in",
    "draw_procedure",
    "reshuffle",
    "max_players",
    "muck_beaten_hands",
)
_STAKE_NAMES = ("small_blind", "big_blind", "small_bet", "big_bet", "ante")


# ---------------------------------------------------------------------------------------
# writing
# ---------------------------------------------------------------------------------------


def dumps(hand: Hand, *, viewer: int | None = None, **fields: Any) -> str:
    """The PHH text of ``hand`` (finished or in progress).

    ``viewer``: write only what that seat may know - the other players' hole cards,
    discards and replacements become ``??`` unless shown at showdown. ``fields``: optional
    PHH fields (``event``, ``hand``, ``players``, ...; names starting with ``_`` are
    user-defined). Per-player fields (``players``, ``winnings``, ``time_banks``) are
    given in the hand's seat order (seat 0 first) and written in PHH order.

    Finished hands also get ``finishing_stacks``, which :func:`loads` checks.
    """
    if not isinstance(hand, Hand):
        raise TypeError(f"dumps expects a Hand, got {type(hand).__name__}")
    n = hand.n_players
    if viewer is not None and (type(viewer) is not int or not 0 <= viewer < n):
        raise ValueError(f"viewer must be a seat 0..{n - 1} or None, got {viewer!r}")
    order = _phh_order(hand.button, n)
    rules = hand.rules
    items: list[tuple[str, Any]] = [
        ("variant", VARIANT),
        ("antes", [rules.ante] * n),
        ("blinds_or_straddles", [rules.small_blind, rules.big_blind] + [0] * (n - 2)),
        ("small_bet", rules.small_bet),
        ("big_bet", rules.big_bet),
        ("starting_stacks", [hand.starting_stacks[s] for s in order]),
        ("actions", _actions(hand, order, viewer)),
        ("seats", [s + 1 for s in order]),
    ]
    if rules.ante:
        # short antes win only from what was put in (side pots by contribution)
        items.append(("ante_trimming_status", True))
    if hand.is_over:
        items.append(("finishing_stacks", [hand.stacks[s] for s in order]))
    for name, value in fields.items():
        if name in _GENERATED:
            raise ValueError(f"field {name!r} is written by dumps itself")
        if name not in _OPTIONAL and not name.startswith("_"):
            raise ValueError(
                f"unknown PHH field {name!r}: use an optional PHH field or a user-defined "
                "name starting with '_'"
            )
        if value is None:
            continue
        if name in _PER_PLAYER:
            value = list(value)
            if len(value) != n:
                raise ValueError(
                    f"field {name!r} needs {n} entries (one per seat), got {len(value)}"
                )
            value = [value[s] for s in order]
        items.append((name, value))
    items.append((RULES_FIELD, {k: getattr(rules, k) for k in _OPTION_NAMES}))
    lines = []
    for key, value in items:
        if key == "actions":
            lines.append("actions = [")
            lines.extend(f"  {_toml(a)}," for a in value)
            lines.append("]")
        else:
            lines.append(f"{_key(key)} = {_toml(value)}")
    return "\n".join(lines) + "\n"


def dumps_all(hands: Iterable[Hand], **fields: Any) -> str:
    """A ``.phhs`` text: every hand as PHH in a table ``[1]``, ``[2]``, ... ``fields`` as
    in :func:`dumps`, for every hand."""
    parts = []
    for i, hand in enumerate(hands, 1):
        parts.append(f"[{i}]\n" + dumps(hand, **fields))
    return "\n".join(parts)


def dump(hand: Hand, fp: Any, **kwargs: Any) -> None:
    """Write :func:`dumps` of ``hand`` to a path or an open (text or binary) file."""
    _write(fp, dumps(hand, **kwargs))


def dump_all(hands: Iterable[Hand], fp: Any, **kwargs: Any) -> None:
    """Write :func:`dumps_all` of ``hands`` to a path or an open file (``.phhs``)."""
    _write(fp, dumps_all(hands, **kwargs))


def _phh_order(button: int, n: int) -> list[int]:
    """Our seats in PHH order: p1 = first seat left of the button, ..., pn = button."""
    return [(button + 1 + k) % n for k in range(n)]


def _cards(ids: Iterable[int]) -> str:
    return "".join(CARD_TEXT[c] for c in ids)


def _actions(hand: Hand, order: list[int], viewer: int | None) -> list[str]:
    p = {seat: k + 1 for k, seat in enumerate(order)}
    out: list[str] = []
    deals: dict[int, str] = {}
    draws: list[str] = []

    def hidden(seat: int | None, cards: Sequence[str]) -> str:
        if viewer is None or seat == viewer:
            return "".join(cards)
        return "??" * len(cards)

    def flush() -> None:
        if deals:
            out.extend(f"d dh p{k} {deals[k]}" for k in sorted(deals))
            deals.clear()
        out.extend(draws)
        draws.clear()

    for e in hand.history:
        kind, seat = e.kind, e.seat
        if kind == "deal":
            deals[p[seat]] = hidden(seat, e.cards or ())  # type: ignore[index]
            continue
        if kind == "draw":
            # replacements are listed after every declaration of the draw (PHH and
            # PokerKit order), also under the "immediate" draw procedure
            draws.append(f"d dh p{p[seat]} {hidden(seat, e.cards or ())}")  # type: ignore[index]
            continue
        if kind == "discard":
            if deals:
                flush()
            cards = hidden(seat, e.cards or ())
            out.append(f"p{p[seat]} sd {cards}" if cards else f"p{p[seat]} sd")  # type: ignore[index]
            continue
        if kind in _SILENT:
            continue
        flush()
        if kind == "fold":
            out.append(f"p{p[seat]} f")  # type: ignore[index]
        elif kind in ("check", "call"):
            out.append(f"p{p[seat]} cc")  # type: ignore[index]
        elif kind in ("bet", "raise"):
            out.append(f"p{p[seat]} cbr {e.amount}")  # type: ignore[index]
        elif kind == "show":
            out.append(f"p{p[seat]} sm {''.join(e.cards or ())}")  # type: ignore[index]
        elif kind == "muck":
            out.append(f"p{p[seat]} sm")  # type: ignore[index]
    flush()
    return out


#: History events with no PHH action (blinds and antes are fields; pots are computed).
_SILENT = frozenset(
    ("post_ante", "post_small_blind", "post_big_blind", "reshuffle", "begin_draw", "return", "win")
)

_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")


def _key(key: str) -> str:
    return key if _BARE_KEY.match(key) else _toml(key)


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        if math.isnan(value):
            return "nan"
        return repr(value)
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, str):
        return _toml_string(value)
    if isinstance(value, (datetime.time, datetime.date, datetime.datetime)):
        return value.isoformat()
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_key(str(k))} = {_toml(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    raise TypeError(f"cannot write {value!r} ({type(value).__name__}) as a PHH value")


_ESCAPES = {
    '"': '\\"',
    "\\": "\\\\",
    "\b": "\\b",
    "\t": "\\t",
    "\n": "\\n",
    "\f": "\\f",
    "\r": "\\r",
}


def _toml_string(s: str) -> str:
    out = []
    for ch in s:
        if ch in _ESCAPES:
            out.append(_ESCAPES[ch])
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def _write(fp: Any, text: str) -> None:
    if isinstance(fp, (str, os.PathLike)):
        with open(fp, "w", encoding="utf-8") as f:
            f.write(text)
        return
    try:
        fp.write(text)
    except TypeError:  # a binary file
        fp.write(text.encode("utf-8"))


# ---------------------------------------------------------------------------------------
# reading
# ---------------------------------------------------------------------------------------


def loads(
    text: str,
    *,
    rules: Rules | None = None,
    seed: int | None = None,
    core: Any = None,
    check_finishing_stacks: bool = True,
) -> Hand:
    """Replay the PHH ``text`` of one hand into a new :class:`Hand`.

    - ``rules``: the rule options to replay under (its stakes are replaced by the file's);
      default: the options in the file's ``_triple_draw_rules`` field, else ``Rules()``.
      To replay PokerKit hands, :meth:`Rules.pokerkit` comes closest (README, PHH
      section).
    - ``seed``: seeds the deck that deals the unknown (``??``) cards and the cards after
      the history ends (``None``: OS entropy).
    - ``check_finishing_stacks``: if the hand is over and the file gives
      ``finishing_stacks``, they must equal the replayed stacks.

    Raises :class:`HistoryError` naming the line and action at fault.
    """
    data = _parse_toml(text)
    if "variant" not in data and data and all(isinstance(v, dict) for v in data.values()):
        raise HistoryError(f"this is a .phhs text of {len(data)} hands: use loads_all")
    return _load_one(data, _Locator(text), rules, seed, core, check_finishing_stacks)


def loads_all(
    text: str,
    *,
    rules: Rules | None = None,
    seed: int | None = None,
    core: Any = None,
    check_finishing_stacks: bool = True,
) -> list[Hand]:
    """Every hand of a ``.phhs`` text (TOML tables, each one PHH hand), in file order.

    A single-hand PHH text gives a list of one hand. Errors name the hand's table."""
    data = _parse_toml(text)
    if "variant" in data:
        return [_load_one(data, _Locator(text), rules, seed, core, check_finishing_stacks)]
    hands = []
    for i, (name, table) in enumerate(data.items()):
        if not isinstance(table, dict):
            raise HistoryError(f"a .phhs text holds only tables of hands; {name!r} is not a table")
        sub_seed = None if seed is None else seed + i
        hands.append(
            _load_one(table, _Locator(text, name), rules, sub_seed, core, check_finishing_stacks)
        )
    return hands


def load(fp: Any, **kwargs: Any) -> Hand:
    """:func:`loads` of a path or an open (text or binary) file."""
    return loads(_read(fp), **kwargs)


def load_all(fp: Any, **kwargs: Any) -> list[Hand]:
    """:func:`loads_all` of a path or an open file (``.phhs``)."""
    return loads_all(_read(fp), **kwargs)


def _read(fp: Any) -> str:
    if isinstance(fp, (str, os.PathLike)):
        with open(fp, encoding="utf-8") as f:
            return f.read()
    data = fp.read()
    return data.decode("utf-8") if isinstance(data, bytes) else data


def _parse_toml(text: str) -> dict[str, Any]:
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python 3.10
        try:
            import tomli as tomllib  # type: ignore[import-not-found, unused-ignore]
        except ModuleNotFoundError:
            raise ImportError("reading PHH on Python 3.10 needs the 'tomli' package") from None
    if not isinstance(text, str):
        raise TypeError(f"PHH text must be a str, got {type(text).__name__}")
    try:
        data: dict[str, Any] = tomllib.loads(text, parse_float=Decimal)
        return data
    except tomllib.TOMLDecodeError as e:
        raise HistoryError(f"malformed PHH (not valid TOML): {e}") from None


class _Locator:
    """Finds the line of the i-th action in the text, for error messages."""

    def __init__(self, text: str, table: str | None = None) -> None:
        self.text = text
        self.table = table
        self.actions: list[str] = []

    def prefix(self) -> str:
        return "" if self.table is None else f"hand [{self.table}]: "

    def where(self, i: int, action: str) -> str:
        line = self._line(i, action)
        at = f"line {line}, " if line is not None else ""
        return f"{self.prefix()}{at}action {i + 1} {action!r}"

    def _line(self, i: int, action: str) -> int | None:
        text = self.text
        start = 0
        if self.table is not None:
            m = re.search(r"^\s*\[\s*[\"']?" + re.escape(self.table) + r"[\"']?\s*\]", text, re.M)
            if m is None:
                return None
            start = m.end()
        m = re.compile(r"^\s*actions\s*=", re.M).search(text, start)
        if m is None:
            return None
        pos = m.end()
        # actions are found one after the other; a miss leaves the line unknown
        found = None
        for j in range(i + 1):
            s = action if j == i else (self.actions[j] if j < len(self.actions) else "")
            idx = text.find(s, pos)
            if idx < 0:
                return None
            pos = idx + len(s)
            found = idx
        return None if found is None else text.count("\n", 0, found) + 1


def _chips(value: Any, what: str, minimum: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, Decimal, float)):
        raise HistoryError(f"{what} must be a number of chips, got {value!r}")
    if isinstance(value, (Decimal, float)):
        if not (math.isfinite(value) and value == int(value)):
            raise HistoryError(f"{what} must be a whole number of chips, got {value}")
        value = int(value)
    if value < minimum:
        raise HistoryError(f"{what} must be >= {minimum}, got {value}")
    return int(value)


def _chip_list(value: Any, what: str, n: int | None, minimum: int = 0) -> list[int]:
    if not isinstance(value, list):
        raise HistoryError(f"{what} must be an array, got {value!r}")
    if n is not None and len(value) != n:
        raise HistoryError(f"{what} must have one entry per player ({n}), got {len(value)}")
    return [_chips(v, f"{what}[{i}]", minimum) for i, v in enumerate(value)]


def _rules_for(data: dict[str, Any], n: int, rules: Rules | None) -> Rules:
    ante_list = data["antes"]
    if isinstance(ante_list, list):
        antes = _chip_list(ante_list, "antes", n)
    else:
        antes = [_chips(ante_list, "antes")] * n
    if len(set(antes)) != 1:
        raise HistoryError(
            f"antes must be the same for every player (triple_draw has uniform antes), got {antes}"
        )
    blinds = _chip_list(data["blinds_or_straddles"], "blinds_or_straddles", n)
    if any(blinds[2:]):
        raise HistoryError(f"blinds_or_straddles: straddles are not supported, got {blinds}")
    stakes = {
        "small_blind": blinds[0],
        "big_blind": blinds[1],
        "small_bet": _chips(data["small_bet"], "small_bet", 1),
        "big_bet": _chips(data["big_bet"], "big_bet", 1),
        "ante": antes[0],
    }
    if rules is None:
        options: dict[str, Any] = {}
        extra = data.get(RULES_FIELD)
        if extra is not None:
            if not isinstance(extra, dict):
                raise HistoryError(f"{RULES_FIELD} must be a table of rule options, got {extra!r}")
            for k, v in extra.items():
                if k in _STAKE_NAMES:
                    if _chips(v, f"{RULES_FIELD}.{k}") != stakes[k]:
                        raise HistoryError(
                            f"{RULES_FIELD}.{k} = {v} disagrees with the PHH stakes ({stakes[k]})"
                        )
                    continue
                if k not in _OPTION_NAMES:
                    raise HistoryError(f"{RULES_FIELD}: unknown rule option {k!r}")
                options[k] = int(v) if isinstance(v, Decimal) and v == int(v) else v
        try:
            base = Rules(**options) if options else Rules()
        except (RulesError, TypeError) as e:
            raise HistoryError(f"{RULES_FIELD}: {e}") from None
    else:
        if type(rules) is not Rules:
            raise TypeError(f"rules must be a Rules, got {type(rules).__name__}")
        base = rules
    if n > base.max_players:
        stakes["max_players"] = n
    try:
        return base.replace(**stakes)
    except RulesError as e:
        raise HistoryError(f"the stakes of this history are not valid rules: {e}") from None


def _seating(data: dict[str, Any], n: int) -> tuple[list[int], int]:
    """``(seat of p1..pn, button)``: from the ``seats`` field when it is a clockwise
    rotation of 1..n (as dumps writes it), else p1 = seat 0 and pn (button) = seat n-1."""
    seats = data.get("seats")
    if isinstance(seats, list) and len(seats) == n and all(type(x) is int for x in seats):
        first = seats[0] - 1
        if all(seats[k] == (first + k) % n + 1 for k in range(n)):
            return [x - 1 for x in seats], seats[-1] - 1
    return list(range(n)), n - 1


# -- parsing actions -----------------------------------------------------------------------


class _Act:
    """One parsed action. ``player`` is the 0-based PHH index (-1: the dealer)."""

    __slots__ = ("amount", "cards", "i", "player", "text", "verb")

    def __init__(
        self,
        i: int,
        text: str,
        verb: str,
        player: int = -1,
        cards: Any = None,
        amount: int | None = None,
    ):
        self.i = i
        self.text = text
        self.verb = verb
        self.player = player
        self.cards = cards
        self.amount = amount


def _parse_actions(actions: Any, n: int, loc: _Locator) -> list[_Act]:
    if not isinstance(actions, list):
        raise HistoryError(f"{loc.prefix()}actions must be an array of strings, got {actions!r}")
    loc.actions = [a if isinstance(a, str) else "" for a in actions]
    out = []
    for i, text in enumerate(actions):
        if not isinstance(text, str):
            raise HistoryError(f"{loc.prefix()}action {i + 1} must be a string, got {text!r}")
        out.append(_parse_action(i, text, n, loc))
    return out


def _parse_action(i: int, text: str, n: int, loc: _Locator) -> _Act:
    def fail(why: str) -> HistoryError:
        return HistoryError(f"{loc.where(i, text)}: {why}")

    words = text.split("#", 1)[0].split()
    if not words:
        return _Act(i, text, "noop")

    def player(word: str) -> int:
        m = re.fullmatch(r"p([0-9]+)", word)
        if m is None:
            raise fail(f"{word!r} is not a player (p1..p{n}) or the dealer (d)")
        k = int(m.group(1))
        if not 1 <= k <= n:
            raise fail(f"there is no player {word} in a hand of {n} players")
        return k - 1

    def cards(word: str) -> list[int | None]:
        try:
            ids = to_maybe_ids(word)
        except CardError as e:
            raise fail(f"bad cards: {e}") from None
        known = [c for c in ids if c is not None]
        if len(set(known)) != len(known):
            raise fail(f"a card is listed twice in {word!r}")
        return ids

    if words[0] == "d":
        if len(words) >= 2 and words[1] == "db":
            raise fail("triple draw has no board cards (d db)")
        if len(words) != 4 or words[1] != "dh":
            raise fail("a dealer action must be 'd dh pN CARDS'")
        k = player(words[2])
        ids = cards(words[3])
        if not ids:
            raise fail("no cards dealt")
        return _Act(i, text, "dh", k, ids)
    k = player(words[0])
    verb = words[1] if len(words) > 1 else ""
    rest = words[2:]
    if verb in ("f", "cc") and not rest:
        return _Act(i, text, verb, k)
    if verb == "cbr" and len(rest) == 1:
        try:
            amount = Decimal(rest[0])
            ok = amount.is_finite() and amount == int(amount) and amount > 0
        except (InvalidOperation, ValueError):
            ok = False
        if not ok:
            raise fail(f"the amount {rest[0]!r} is not a positive whole number of chips")
        return _Act(i, text, "cbr", k, amount=int(amount))
    if verb == "sd" and len(rest) <= 1:
        ids = cards(rest[0]) if rest else []
        if len(ids) > 5:
            raise fail(f"a player holds five cards; cannot discard {len(ids)}")
        return _Act(i, text, "sd", k, ids)
    if verb == "sm" and len(rest) <= 1:
        if not rest:
            return _Act(i, text, "muck", k)
        if rest[0] == "-":
            return _Act(i, text, "show", k, None)
        ids = cards(rest[0])
        if len(ids) != 5:
            raise fail(f"a shown hand has five cards, got {len(ids)}")
        return _Act(i, text, "show", k, ids)
    if verb == "pb":
        raise fail("triple draw has no bring-in (pb)")
    if verb in ("f", "cc", "cbr", "sd", "sm"):
        raise fail(f"wrong number of arguments for {verb!r}")
    raise fail(f"unknown action {verb!r} (expected f, cc, cbr, sd or sm)")


# -- pass 1: who held which card when ------------------------------------------------------

_NEVER = 1 << 60  # "held to the end of the history"


class _Slot:
    """One card in one holding: known (``card``) or written ``??`` (``card`` None until
    revealed or chosen). It occupies its card from ``start`` (the action index it was
    dealt or reserved at; -1 for the deal) to ``end`` (the first action index at which
    the card is free again). ``epoch``: how many times the stub ran out before it was
    dealt (see :func:`_find_reshuffles`)."""

    __slots__ = ("card", "chosen", "end", "epoch", "player", "start")

    def __init__(self, card: int | None, start: int, player: int) -> None:
        self.card = card
        self.start = start
        self.end = _NEVER
        self.player = player
        self.epoch = 0
        self.chosen = False  # the card was chosen (fill), not given by the history


class _Cards:
    """The cards of a history, per player: the deal, and for every discard the cards
    thrown and the replacements.

    Unknown cards (``??``) are resolved from later evidence first: a known card discarded
    or shown from a holding with unknown cards is one of them (preferably one the deal
    could have given then). The rest get cards chosen (:meth:`fill`) so that no card is
    ever in two places at once and every card is one the deal could give at that moment
    under the hand's rules: a card thrown away or folded comes back only through the pool
    of a reshuffle (the points where the stub runs out: :func:`_find_reshuffles`).
    """

    def __init__(
        self,
        acts: list[_Act],
        n: int,
        loc: _Locator,
        timing: _Timing,
        throw_rng: random.Random | None = None,
    ) -> None:
        self.n = n
        self.timing = timing
        self.throw_rng = throw_rng
        self.deal: list[list[_Slot]] = [[] for _ in range(n)]
        self.hold: list[list[_Slot]] = [[] for _ in range(n)]
        self.dealt_done = [False] * n
        self.pending: list[_Act | None] = [None] * n
        self.receive: dict[int, list[_Slot]] = {}
        self.discards: dict[int, list[_Slot]] = {}
        self.slots: list[_Slot] = []
        self.mucked: list[list[_Slot]] = []  # hands mucked at showdown
        self._acts = acts
        # set by start(), for choosing the unknown cards
        self.busy: list[list[_Slot]] = []
        self.rng = random.Random(0)
        self.prefer_unnamed = True
        self.linger = False
        for a in acts:
            try:
                self._step(a)
            except _Bad as e:
                raise HistoryError(f"{loc.where(a.i, a.text)}: {e}") from None
        # replacements the history never deals but the hand goes on after: unknown cards
        # (only a draw the history ends in - nothing but declarations after it - is left
        # to the engine's deck, as it is in a hand saved in the middle of a draw)
        for k, p in enumerate(self.pending):
            if p is not None and any(a.verb not in ("noop", "sd", "dh") for a in acts[p.i + 1 :]):
                self._settle(k)
        for k in range(n):
            if self.deal[k] and not self.dealt_done[k]:
                raise HistoryError(
                    f"{loc.prefix()}p{k + 1} was dealt {len(self.deal[k])} hole cards; "
                    "triple draw deals five"
                )

    # .. reading the actions ..

    def _new(self, card: int | None, start: int, k: int, epoch: int = 0) -> _Slot:
        s = _Slot(card, start, k)
        s.epoch = epoch
        self.slots.append(s)
        return s

    def _replacements(self, p: _Act, cards: list[int | None]) -> list[_Slot]:
        k = p.player
        return [self._new(c, p.i, k, self.timing.epoch(p.i, x)) for x, c in enumerate(cards)]

    def _step(self, a: _Act) -> None:
        k = a.player
        if a.verb == "dh":
            p = self.pending[k]
            if p is not None:
                need = len(self.discards[p.i])
                if len(a.cards) != need:
                    raise _Bad(f"p{k + 1} discarded {need} cards but is dealt {len(a.cards)}")
                ids = self._replacements(p, a.cards)
                self.receive[p.i] = ids
                self.hold[k].extend(ids)
                self.pending[k] = None
            elif not self.dealt_done[k]:
                ids = [self._new(c, -1, k) for c in a.cards]
                self.deal[k].extend(ids)
                self.hold[k].extend(ids)
                if len(self.deal[k]) > 5:
                    raise _Bad(
                        f"p{k + 1} is dealt {len(self.deal[k])} hole cards; triple draw deals five"
                    )
                self.dealt_done[k] = len(self.deal[k]) == 5
            else:
                raise _Bad(f"p{k + 1} is dealt cards but has no discard waiting for replacements")
        elif a.verb in ("sd", "show", "muck"):
            self._settle(k)
            if a.verb == "sd":
                self._discard(k, a)
            elif a.verb == "muck":
                self.mucked.append(list(self.hold[k]))
            elif a.verb == "show" and a.cards is not None:
                # each shown card is checked and reveals an unknown one; all stay held
                hold = list(self.hold[k])
                self._take(k, [c for c in a.cards if c is not None], "shows")
                self.hold[k] = hold
        else:  # f, cc, cbr
            self._settle(k)
            if a.verb == "f":
                for s in self.hold[k]:
                    s.end = a.i + 1
                self.hold[k] = []

    def _close_deal(self, k: int) -> None:
        """A player with no deal line was dealt five unknown cards."""
        if not self.dealt_done[k]:
            if self.deal[k]:
                raise _Bad(
                    f"p{k + 1} was dealt {len(self.deal[k])} hole cards; triple draw deals five"
                )
            self.deal[k] = [self._new(None, -1, k) for _ in range(5)]
            self.hold[k] = list(self.deal[k])
            self.dealt_done[k] = True

    def _settle(self, k: int) -> None:
        """Close the deal, and give unknown replacements to a discard never dealt to."""
        self._close_deal(k)
        p = self.pending[k]
        if p is not None:
            ids = self._replacements(p, [None] * len(self.discards[p.i]))
            self.receive[p.i] = ids
            self.hold[k].extend(ids)
            self.pending[k] = None

    def _take(self, k: int, cards: list[int], what: str) -> list[_Slot]:
        """Take ``cards`` out of p(k+1)'s holding. A card he does not hold as known is one
        of his unknown cards - one dealt after that card was last thrown or folded, and
        preferably one the deal could give then (:meth:`_comes_back`); among the ways to
        place them, the one that fits best (earliest slots on a tie)."""
        hold = self.hold[k]
        out = []
        rest = []
        for c in cards:
            j = next((j for j, s in enumerate(hold) if s.card == c), None)
            if j is None:
                rest.append(c)
            else:
                out.append(hold.pop(j))
        if not rest:
            return out
        last: dict[int, _Slot | None] = {}
        held: dict[int, list[_Slot]] = {}
        for c in rest:
            held[c] = [s for s in self.slots if s.card == c]
            before = [s for s in held[c] if s.end != _NEVER]
            last[c] = max(before, key=lambda s: s.end) if before else None
        free = [s for s in hold if s.card is None]
        best: tuple[_Slot, ...] | None = None
        best_key: tuple[int, int] | None = None
        for placing in permutations(free, len(rest)):
            score = 0
            for c, s in zip(rest, placing, strict=True):
                prev = last[c]
                if prev is not None and s.start < prev.end:
                    break
                score += self._comes_back(prev, s, held[c])
            else:
                key = (score, -sum(s.start for s in placing))
                if best_key is None or key > best_key:
                    best, best_key = placing, key
        if best is None:
            for c in rest:  # name a card that fits nowhere
                prev = last[c]
                if not any(prev is None or s.start >= prev.end for s in free):
                    raise _Bad(f"p{k + 1} {what} {CARD_TEXT[c]}, which he does not hold")
            raise _Bad(f"p{k + 1} {what} {_cards(rest)}, which he does not hold")
        for c, s in zip(rest, best, strict=True):
            s.card = c
            hold.remove(s)
            out.append(s)
        return out

    def _comes_back(self, prev: _Slot | None, s: _Slot, history: list[_Slot]) -> int:
        """How well the deal can give a card in slot ``s`` after it was last held in
        ``prev`` (``history``: its other holdings): 2 surely (never held, dealt before
        the stub first runs out; or back in the pool of the reshuffle just before
        ``s``), 1 with help (it has to go through other hands first), 0 not at all (no
        reshuffle between)."""
        if prev is None:
            return 2 if s.epoch == 0 else 1
        if self.timing.pokerstars and _threw_before(history, s):
            return 0  # "pokerstars" never deals a player a card he threw
        e = self._entry(prev, history)
        if e is None or e > s.epoch:
            return 0
        # in the pool of an earlier reshuffle it would be in the stub too early (the
        # default rule deals it again before the stub re-forms; "pokerstars" keeps it in
        # the stub, where it takes the place of a card dealt meanwhile)
        return 2 if e == s.epoch else 1

    def _entry(self, prev: _Slot, history: list[_Slot]) -> int | None:
        """The reshuffle (1..) whose pool a card let go from ``prev`` goes into."""
        timing = self.timing
        for e in range(prev.epoch + 1, len(timing.reshuffles) + 1):
            if timing.into_pool(prev, e):
                return e
        return None

    def _discard(self, k: int, a: _Act) -> None:
        thrown = self._take(k, [c for c in a.cards if c is not None], "discards")
        need = len(a.cards) - len(thrown)
        if need:
            hold = self.hold[k]
            unknown = [s for s in hold if s.card is None]
            if len(unknown) < need:
                raise _Bad(
                    f"p{k + 1} discards an unknown card '??' but every card he holds is known"
                )
            # which of his unknown cards he threw: the oldest, or (later attempts) any
            rng = self.throw_rng
            for s in unknown[:need] if rng is None else rng.sample(unknown, need):
                hold.remove(s)
                thrown.append(s)
        self.discards[a.i] = thrown
        for s in thrown:  # free again from the next action
            s.end = a.i + 1
        if a.cards:
            self.pending[k] = a

    # .. choosing the unknown cards ..

    def start(self, rng: random.Random, attempt: int) -> None:
        """Forget the cards chosen before and set how to choose in this attempt."""
        for s in self.slots:
            if s.chosen:
                s.card = None
                s.chosen = False
        self.rng = rng
        self.prefer_unnamed = attempt % 2 == 0
        # "pokerstars" keeps a card reshuffled early in the stub until it is dealt: let
        # cards linger there (it may crowd a small stub) in every other pair of attempts
        self.linger = attempt % 4 >= 2
        self.busy = [[] for _ in range(52)]
        for s in self.slots:
            if s.card is not None:
                self.busy[s.card].append(s)

    def assign(self) -> None:
        """Before the replay: the unknown cards dealt before the stub first runs out (the
        hole cards among them) - at the deal every card is in the stub."""
        self.fill(0, range(52), -1)

    def fill(self, epoch: int, stub: Iterable[int], now: int) -> None:
        """Give a card of ``stub`` to every unknown slot dealt from it: the slots of
        ``epoch`` dealt from action ``now`` on (until the stub runs out).

        A card the history deals again from this stub stays for that deal. A card it
        names again later must go through a hand into the pool of the reshuffle before
        that (the default rule deals every card of the stub before it re-forms the
        stub): such cards are matched to slots that lead there (augmenting paths), the
        direct ones first; the other slots get cards the history no longer needs (never
        named ones first if ``prefer_unnamed``; a hand mucked unseen the worst)."""
        slots = [s for s in self.slots if s.card is None and s.epoch == epoch and s.start >= now]
        if not slots:
            return
        rng = self.rng
        rng.shuffle(slots)
        neutral: list[int] = []
        demand: dict[int, _Slot] = {}
        for c in stub:
            nxt = min(
                (t for t in self.busy[c] if t.start >= now), key=lambda t: t.start, default=None
            )
            if nxt is None:
                neutral.append(c)
            elif nxt.epoch > epoch:
                demand[c] = nxt
            # else: dealt again from this stub by the history
        pokerstars = self.timing.pokerstars
        routes: dict[int, list[tuple[_Slot, int]]] = {}
        for c, nxt in demand.items():
            ways = []
            for s in slots:
                if s.end > nxt.start:
                    continue
                history = [*self.busy[c], s]
                how = self._comes_back(s, nxt, history)
                if how and pokerstars and self._blocks(s, c):
                    how = 0
                if how == 1 and not (pokerstars and self.linger):
                    # into an earlier pool: the default rule deals it again from that
                    # stub ("pokerstars" may keep it there, but that stub is small),
                    # so some hand dealt from there must lead on to its pool
                    e = self._entry(s, history)
                    if not any(
                        t.card is None
                        and t.epoch == e
                        and t.end <= nxt.start
                        and self._comes_back(t, nxt, [*history, t]) == 2
                        for t in self.slots
                    ):
                        how = 0
                if how:
                    ways.append((s, how))
            routes[c] = ways
        card_of: dict[int, int] = {}  # id(slot) -> card

        def place(c: int, least: int, seen: set[int]) -> bool:
            for s, how in routes[c]:
                if how < least or id(s) in seen:
                    continue
                seen.add(id(s))
                other = card_of.get(id(s))
                if other is None or place(other, least, seen):
                    card_of[id(s)] = c
                    return True
            return False

        order = list(demand)
        rng.shuffle(order)
        # the most constrained first: no way round, then the fewest direct ways
        order.sort(key=lambda c: (any(h == 1 for _s, h in routes[c]), len(routes[c])))
        placed = {c for c in order if place(c, 2, set())}  # straight into the right pool
        last = epoch >= len(self.timing.reshuffles)
        # the default rule deals the whole stub before the next reshuffle; otherwise the
        # cards not needed here may stay in the stub as long as the other slots are full
        must = len(demand) if not (self.timing.pokerstars or last) else len(slots) - len(neutral)
        for c in order:
            if len(placed) >= must:
                break
            if c not in placed and place(c, 1, set()):
                placed = set(card_of.values())
        if len(placed) < must:
            raise _Bad(
                "the unknown cards of this history cannot be dealt without a card being "
                "in two places"
            )
        # the other slots: cards no longer needed
        free = [s for s in slots if id(s) not in card_of]
        rng.shuffle(neutral)
        if self.prefer_unnamed:
            neutral.sort(key=lambda c: bool(self.busy[c]))
        for hold in self.mucked:  # a hand mucked unseen: as bad as possible
            for s in [t for t in free if any(t is h for h in hold)]:
                if not neutral:
                    break
                others = [
                    (card_of.get(id(t)) if t.card is None else t.card) for t in hold if t is not s
                ]
                ranks = [c // 4 for c in others if c is not None]
                allowed = [c for c in neutral if not self._threw(c, s)] or neutral
                c = max(allowed, key=lambda c: (ranks.count(c // 4), c // 4))
                neutral.remove(c)
                card_of[id(s)] = c
                free.remove(s)
        for s in free:
            c = next((c for c in neutral if not self._threw(c, s)), neutral[0])
            neutral.remove(c)
            card_of[id(s)] = c
        for s in slots:
            c = card_of[id(s)]
            s.card = c
            s.chosen = True
            self.busy[c].append(s)

    def _threw(self, c: int, s: _Slot) -> bool:
        """Whether "pokerstars" forbids card ``c`` in slot ``s``: its player threw it."""
        return self.timing.pokerstars and _threw_before(self.busy[c], s)

    def _blocks(self, s: _Slot, c: int) -> bool:
        """Whether having thrown ``c`` from ``s`` keeps it out of a later "pokerstars"
        pool that the history needs it in (a pool formed for the player of ``s``)."""
        busy = self.busy[c]
        chain = sorted((t for t in busy if t.start >= s.end), key=lambda t: t.start)
        for a, b in pairwise(chain):
            if (
                a.end != _NEVER
                and self._comes_back(a, b, busy)
                and not self._comes_back(a, b, [*busy, s])
            ):
                return True
        return False


class _Bad(Exception):  # noqa: N818 - internal, turned into HistoryError
    pass


# -- pass 2: the replay --------------------------------------------------------------------


def _load_one(
    data: dict[str, Any],
    loc: _Locator,
    rules: Rules | None,
    seed: int | None,
    core: Any,
    check: bool,
) -> Hand:
    where = loc.prefix()
    for name in _REQUIRED:
        if name not in data:
            raise HistoryError(f"{where}missing required field {name!r}")
    if data["variant"] != VARIANT:
        raise HistoryError(
            f"{where}variant {data['variant']!r} is not fixed-limit deuce-to-seven triple draw "
            f"({VARIANT!r})"
        )
    for name in _FOREIGN:
        if name in data:
            raise HistoryError(f"{where}field {name!r} does not belong to a {VARIANT} history")
    for name in data:
        if name not in _REQUIRED and name not in _OPTIONAL and not name.startswith("_"):
            warnings.warn(f"{where}unknown PHH field {name!r} ignored", stacklevel=3)
    stacks_phh = data["starting_stacks"]
    if not isinstance(stacks_phh, list) or not 2 <= len(stacks_phh) <= 8:
        raise HistoryError(f"{where}starting_stacks must list 2 to 8 stacks, got {stacks_phh!r}")
    n = len(stacks_phh)
    finishing = data.get("finishing_stacks") if check else None
    try:
        stacks_phh = _chip_list(stacks_phh, "starting_stacks", n, 1)
        the_rules = _rules_for(data, n, rules)
        if finishing is not None:
            finishing = _chip_list(finishing, "finishing_stacks", n)
    except HistoryError as e:
        raise HistoryError(f"{where}{e}") from None
    seat_of, button = _seating(data, n)
    acts = _parse_actions(data["actions"], n, loc)
    core = _coremod.resolve_core(core)
    timing = _find_reshuffles(the_rules, stacks_phh, seat_of, button, acts, core)
    cards = _Cards(acts, n, loc, timing)
    unknown = any(s.card is None for s in cards.slots)
    rng = random.Random(seed)
    first: HistoryError | None = None
    for attempt in range(_MUCK_ATTEMPTS if unknown else 1):
        # unknown cards: preferably ones the history never names; if the greedy choice
        # gets stuck (a card the history names later cannot be dealt then), or a hand
        # mucked unseen would win, choose again
        if attempt:
            try:
                cards = _Cards(acts, n, loc, timing, random.Random(rng.random()))
            except HistoryError as e:
                first = first or e
                continue
        cards.start(rng, attempt)
        try:
            cards.assign()
        except _Bad as e:
            first = first or HistoryError(f"{where}{e}")
            continue
        try:
            return _replay(
                the_rules, stacks_phh, seat_of, button, acts, cards, seed, core, loc, finishing
            )
        except _MuckWins as e:
            # the cards chosen for a hand mucked unseen would win: choose others
            if not e.chosen:
                raise HistoryError(str(e)) from None
            first = first or e
        except HistoryError as e:
            if not unknown:
                raise
            first = first or e
    assert first is not None
    raise HistoryError(str(first)) from None


def _threw_before(history: list[_Slot], s: _Slot) -> bool:
    """Whether the player of slot ``s`` let its card go before ``s`` was dealt
    (``history``: the card's holdings)."""
    return any(t is not s and t.player == s.player and t.end <= s.start for t in history)


class _Timing:
    """When the stub runs out in a history (see :func:`_find_reshuffles`)."""

    def __init__(self, pokerstars: bool) -> None:
        self.pokerstars = pokerstars
        #: per reshuffle: (action index of the served player's declaration, his PHH index)
        self.reshuffles: list[tuple[int, int]] = []
        #: per declaration (action index): the epoch of each of its replacements
        self.epochs: dict[int, list[int]] = {}
        self.last = 0  # the epoch after the last known reshuffle

    def epoch(self, i: int, x: int) -> int:
        """How many reshuffles come before replacement ``x`` of declaration ``i``."""
        got = self.epochs.get(i)
        return got[x] if got is not None and x < len(got) else self.last

    def into_pool(self, s: _Slot, e: int) -> bool:
        """Whether a card let go from slot ``s`` is in the pool of reshuffle ``e`` (1..)."""
        if not 1 <= e <= len(self.reshuffles):
            return False
        time, player = self.reshuffles[e - 1]
        # let go before the declaration of the player served (so also before the
        # declarations after him, still on the table); "pokerstars" gathers every card
        # out of play, the served player's earlier discards included (he is never dealt
        # them: they are passed over for him, see _threw_before)
        del player
        return s.end <= time


def _find_reshuffles(
    rules: Rules,
    stacks_phh: list[int],
    seat_of: list[int],
    button: int,
    acts: list[_Act],
    core: Any,
) -> _Timing:
    """Where the stub runs out, for choosing the unknown cards.

    That depends only on how many cards are drawn and folded (under "pokerstars" also on
    which cards a player threw, so there it is an estimate), so the actions replayed with
    random cards find the points. A history that turns illegal is followed up to there."""
    n = len(stacks_phh)
    timing = _Timing(rules.reshuffle == "pokerstars")
    stacks = [0] * n
    for k, seat in enumerate(seat_of):
        stacks[seat] = stacks_phh[k]
    declared: list[int] = []
    try:
        hand = Hand(rules, stacks, button, 0, core=core)
        for a in acts:
            if a.verb not in ("sd", "f", "cc", "cbr"):
                continue
            seat = seat_of[a.player]
            if hand.actor != seat or (a.verb == "sd") != hand.in_draw:
                break
            if a.verb == "sd":
                hand.discard(hand.hole_ids(seat)[: len(a.cards)])
                declared.append(a.i)
            elif a.verb == "f":
                hand.fold()
            elif a.verb == "cc":
                hand.check_or_call()
            elif hand.bet_or_raise_amount() == a.amount:
                hand.bet_or_raise()
            else:
                break
    except (IllegalActionError, ValueError):
        pass
    if not declared:
        return timing
    pl = {seat: k for k, seat in enumerate(seat_of)}
    stub = 52 - 5 * n
    epoch = 0
    latest: dict[int, int] = {}  # seat -> action index of his latest declaration
    order = iter(declared)
    pending: int | None = None
    for e in hand.history:
        if e.kind == "discard":
            latest[e.seat] = next(order)  # type: ignore[index]
        elif e.kind == "reshuffle":
            pending = e.amount
            timing.reshuffles.append((latest[e.seat], pl[e.seat]))  # type: ignore[index]
        elif e.kind == "draw":
            k = len(e.cards or ())
            if pending is None:
                epochs = [epoch] * k
                stub -= k
            elif timing.pokerstars:
                epoch += 1
                epochs = [epoch] * k
                stub = pending - k
            else:  # he got the rest of the stub, then cards of the new one
                epochs = [epoch] * stub + [epoch + 1] * (k - stub)
                epoch += 1
                stub = pending - (k - epochs.count(epoch - 1))
            pending = None
            timing.epochs[latest[e.seat]] = epochs  # type: ignore[index]
    timing.last = epoch
    return timing


def _replay(
    rules: Rules,
    stacks_phh: list[int],
    seat_of: list[int],
    button: int,
    acts: list[_Act],
    cards: _Cards,
    seed: int | None,
    core: Any,
    loc: _Locator,
    finishing: list[int] | None,
) -> Hand:
    n = len(stacks_phh)
    pl = {seat: k for k, seat in enumerate(seat_of)}
    stacks = [0] * n
    hole: list[Any] = [None] * n
    for k, seat in enumerate(seat_of):
        stacks[seat] = stacks_phh[k]
        if cards.deal[k]:
            hole[seat] = [s.card for s in cards.deal[k]]
    # Every card of the history is given (the unknown ones chosen by _Cards.fill),
    # and the engine checks each one at the moment it is dealt, under the hand's own
    # rules - so the replay reshuffles where the original did.
    try:
        if any(h is not None for h in hole):
            hand = Hand(rules, stacks, button, seed, hole_cards=hole, core=core)
        else:
            hand = Hand(rules, stacks, button, seed, core=core)
    except (CardError, DeckError, ValueError) as e:
        raise HistoryError(f"{loc.prefix()}the dealt hole cards are impossible: {e}") from None
    shows: list[_Act] = []
    for a in acts:
        if a.verb in ("noop", "dh"):
            continue
        k = a.player
        seat = seat_of[k]

        def fail(why: str, a: _Act = a) -> HistoryError:
            return HistoryError(f"{loc.where(a.i, a.text)}: {why}")

        if a.verb in ("show", "muck"):
            if not hand.is_over:
                raise fail(f"p{k + 1} shows or mucks before the showdown ({_situation(hand, pl)})")
            shows.append(a)
            continue
        if hand.is_over:
            raise fail("the hand is already over")
        if hand.actor != seat:
            raise fail(f"p{k + 1} acts out of turn: {_situation(hand, pl)}")
        try:
            if a.verb == "sd":
                if not hand.in_draw:
                    raise fail(f"p{k + 1} cannot draw: {_situation(hand, pl)}")
                thrown = [s.card for s in cards.discards[a.i]]
                r = cards.receive.get(a.i)
                if r is not None and any(s.card is None for s in r):
                    try:
                        _choose_replacements(hand, cards, thrown, r)
                    except _Bad as e:
                        raise fail(str(e)) from None
                hand.discard(thrown, receive=None if r is None else [s.card for s in r])
            elif hand.in_draw:
                raise fail(f"p{k + 1} must draw now, not bet ({_situation(hand, pl)})")
            elif a.verb == "f":
                hand.fold()
            elif a.verb == "cc":
                hand.check_or_call()
            else:  # cbr
                want = hand.bet_or_raise_amount()
                if want is None:
                    hand.bet_or_raise()  # raises IllegalActionError saying why not
                if a.amount != want:
                    kind = "bet" if hand.bet_level == 0 else "raise"
                    raise fail(
                        f"p{k + 1} can only {kind} to exactly {want} (fixed limit), not {a.amount}"
                    )
                hand.bet_or_raise()
        except IllegalActionError as e:
            # the engine names seats; the history names players
            why = re.sub(r"\bseat (\d+)", lambda m: f"p{pl[int(m.group(1))] + 1}", str(e))
            raise fail(why) from None
    if shows:
        _check_showdown(hand, shows, seat_of, cards, loc)
    if finishing is not None and hand.is_over:
        got = [hand.stacks[seat] for seat in seat_of]
        if got != finishing:
            raise HistoryError(
                f"{loc.prefix()}finishing_stacks {finishing} disagree with the replayed hand, "
                f"which ends with {got}"
            )
    return hand


def _choose_replacements(hand: Hand, cards: _Cards, thrown: list[Any], r: list[_Slot]) -> None:
    """Choose the unknown replacements ``r`` of the actor's discard of ``thrown`` - and
    with them every unknown card dealt from the same stub - among the cards the engine
    could deal him."""
    while True:
        todo = [x for x, s in enumerate(r) if s.card is None]
        if not todo:
            return
        first = todo[0]
        given = [s.card for s in r]
        stub = [c for c in hand.receivable(thrown, given[:first]) if c not in given]
        cards.fill(r[first].epoch, stub, r[first].start)
        if r[first].card is None:  # pragma: no cover - its epoch was misjudged
            raise _Bad(
                "the unknown cards of this history cannot be dealt without a card being "
                "in two places"
            )


def _situation(hand: Hand, pl: dict[int, int]) -> str:
    if hand.is_over:
        return "the hand is over"
    assert hand.actor is not None
    who = f"p{pl[hand.actor] + 1}"
    if hand.in_draw:
        return f"{who} is to draw (draw {hand.street + 1})"
    return f"{who} is to act (betting round {hand.street + 1})"


class _MuckWins(HistoryError):  # noqa: N818
    def __init__(self, message: str, chosen: bool) -> None:
        super().__init__(message)
        self.chosen = chosen


def _check_showdown(
    hand: Hand, shows: list[_Act], seat_of: list[int], cards: _Cards, loc: _Locator
) -> None:
    res = hand.result
    assert res is not None
    at_showdown = {e.seat for e in res.showdown}
    seen: set[int] = set()
    for a in shows:
        k = a.player
        seat = seat_of[k]

        def fail(why: str, a: _Act = a) -> HistoryError:
            return HistoryError(f"{loc.where(a.i, a.text)}: {why}")

        if seat not in at_showdown:
            raise fail(f"p{k + 1} is not in a showdown (folded, or the hand was won without one)")
        if seat in seen:
            raise fail(f"p{k + 1} already showed or mucked")
        seen.add(seat)
        held = set(hand.hole_ids(seat))
        if a.verb == "show" and a.cards is not None:
            shown = {c for c in a.cards if c is not None}
            if not shown <= held:
                raise fail(
                    f"p{k + 1} shows {_cards(sorted(shown - held))}, "
                    f"but holds {_cards(sorted(held))}"
                )
        if a.verb == "muck":
            contested = any(seat in p.winners and len(p.eligible) > 1 for p in res.pots)
            if contested:
                raise _MuckWins(
                    f"{loc.where(a.i, a.text)}: p{k + 1} mucks, but his hand wins a pot at the "
                    "showdown: triple_draw has no voluntary muck of a winning hand",
                    chosen=any(s.player == k and s.chosen for s in cards.slots),
                )


def iter_actions(hand: Hand) -> Iterator[str]:
    """The PHH action strings of ``hand`` (the ``actions`` field of :func:`dumps`)."""
    yield from _actions(hand, _phh_order(hand.button, hand.n_players), None)
