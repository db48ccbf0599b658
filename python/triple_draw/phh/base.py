"""What every part of the PHH module shares: the field names, locating an action in the
text for error messages, and reading bounded numbers.

Numbers come from untrusted text, so each one is bounded before it is converted: a
literal of more than :data:`MAX_NUMBER_CHARS` characters, or a whole number of more than
:data:`MAX_DIGITS` digits, is refused with :class:`~triple_draw.errors.HistoryError`
without ever being turned into an ``int``.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable
from decimal import Decimal, InvalidOperation
from typing import Any

from triple_draw.errors import HistoryError, shown
from triple_draw.game.cards import CARD_TEXT
from triple_draw.game.rules import MAX_CHIPS

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib  # type: ignore[import-not-found, unused-ignore]

#: The PHH variant code of fixed-limit deuce-to-seven lowball triple draw.
VARIANT = "F2L3D"
#: The user-defined field holding the rule options PHH has no field for.
#: The comment on a player's replacements in a "pokerstars" view where a new stub of that
#: many cards formed while he was served (written by ``dumps(..., viewer=k)``, read back
#: by ``loads`` as where the new stubs formed).
STUB_NOTE = "# new stub of {} cards"
RULES_FIELD = "_triple_draw_rules"
#: The user-defined field of a hand a table dealt with a dead small blind or players'
#: entry posts: the stakes and whether the small blind was posted, so that ``antes`` and
#: ``blinds_or_straddles`` (each player's dead and live forced chips) read back exactly.
FORCED_FIELD = "_triple_draw_forced_bets"

#: The longest number literal read (characters, sign and exponent included).
MAX_NUMBER_CHARS = 64
#: The most digits of a whole number read (chips, rule options): amounts below 10**40.
MAX_DIGITS = 40

REQUIRED = (
    "variant",
    "antes",
    "blinds_or_straddles",
    "small_bet",
    "big_bet",
    "starting_stacks",
    "actions",
)
OPTIONAL = (
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
FOREIGN = ("bring_in", "min_bet")
#: Optional per-player fields a caller may pass to dumps in the hand's seat order.
PER_PLAYER = ("players", "winnings", "time_banks")
#: Fields dumps writes itself.
GENERATED = frozenset(REQUIRED) | {
    "seats",
    "finishing_stacks",
    "ante_trimming_status",
    RULES_FIELD,
    FORCED_FIELD,
}
#: Rule options kept in RULES_FIELD (the stakes are PHH fields).
#: The rake options of ``RULES_FIELD``, written only when the game takes a rake.
RAKE_NAMES = ("rake_percent", "rake_cap", "rake_no_draw_no_drop", "rake_rounding")
#: User-defined field: the chips the house took, as the record says (a hand replayed
#: from a record that carries its site's rake).
RAKE_FIELD = "_rake"
OPTION_NAMES = (
    "raise_cap",
    "big_blind_is_bet",
    "heads_up_uncapped",
    "short_all_in",
    "draw_procedure",
    "reshuffle",
    "max_players",
    "muck_beaten_hands",
    "burn_cards",
)
STAKE_NAMES = ("small_blind", "big_blind", "small_bet", "big_bet", "ante")


class Bad(Exception):  # noqa: N818 - internal, turned into HistoryError with the action's place
    """A history that cannot be: raised inside a pass, reported with the action's line."""


def phh_order(button: int, n: int) -> list[int]:
    """Our seats in PHH order: p1 = first seat left of the button, ..., pn = button."""
    return [(button + 1 + k) % n for k in range(n)]


def cards_text(ids: Iterable[int]) -> str:
    return "".join(CARD_TEXT[c] for c in ids)


class Locator:
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


def bounded_decimal(literal: str) -> Decimal:
    """A TOML float (or an action's amount) as a ``Decimal``, refused if its literal is
    longer than :data:`MAX_NUMBER_CHARS`: the TOML reader's ``parse_float``."""
    if len(literal) > MAX_NUMBER_CHARS:
        raise HistoryError(
            f"a number of {len(literal)} characters (at most {MAX_NUMBER_CHARS} are read): "
            f"{literal[:20]}..."
        )
    try:
        return Decimal(literal.replace("_", ""))
    except InvalidOperation:
        raise HistoryError(f"{literal!r} is not a number") from None


def whole(value: Any) -> int | None:
    """``value`` (an ``int`` or a ``Decimal`` read by :func:`bounded_decimal`) as an
    ``int`` if it is a whole number of at most :data:`MAX_DIGITS` digits, else None.
    The size is checked before anything is converted."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if abs(value) < 10**MAX_DIGITS else None
    if not isinstance(value, Decimal) or not value.is_finite():
        return None
    if value.is_zero():
        return 0
    if value.adjusted() >= MAX_DIGITS or value.adjusted() < 0:
        return None  # too large, or a fraction
    if len(value.as_tuple().digits) > MAX_NUMBER_CHARS:
        return None
    n = int(value)
    return n if value == n else None


def chips(value: Any, what: str, minimum: int = 0) -> int:
    """A whole number of chips ``>= minimum`` (below 10**MAX_DIGITS)."""
    if isinstance(value, bool) or not isinstance(value, (int, Decimal)):
        raise HistoryError(f"{what} must be a number of chips, got {value!r}")
    n = whole(value)
    if n is None:
        shown = f"a number of more than {MAX_DIGITS} digits" if isinstance(value, int) else value
        raise HistoryError(
            f"{what} must be a whole number of chips below 10**{MAX_DIGITS}, got {shown}"
        )
    if n < minimum:
        raise HistoryError(f"{what} must be >= {minimum}, got {n}")
    if n > MAX_CHIPS:
        raise HistoryError(f"{what} must be at most {MAX_CHIPS} chips, got {n}")
    return n


def chip_list(value: Any, what: str, n: int | None, minimum: int = 0) -> list[int]:
    if not isinstance(value, list):
        raise HistoryError(f"{what} must be an array, got {short(value)}")
    if n is not None and len(value) != n:
        raise HistoryError(f"{what} must have one entry per player ({n}), got {len(value)}")
    return [chips(v, f"{what}[{i}]", minimum) for i, v in enumerate(value)]


def short(value: Any) -> str:
    if isinstance(value, int) and not isinstance(value, bool) and whole(value) is None:
        return f"a number of more than {MAX_DIGITS} digits"
    text = shown(value)
    return text if len(text) <= 60 else text[:50] + "..."


def _longest_digit_run(text: str) -> int:
    return max(map(len, re.findall(r"[0-9_]+", text)), default=0)


def parse_toml(text: str) -> dict[str, Any]:
    """The TOML document of ``text``: every problem (malformed TOML, a number too long to
    read, nesting too deep for the reader) is a :class:`HistoryError`."""
    if not isinstance(text, str):
        raise HistoryError(f"PHH text must be a str, got {type(text).__name__}")
    limit = getattr(sys, "get_int_max_str_digits", lambda: 0)()
    if limit == 0 and _longest_digit_run(text) > 4300:
        # the interpreter would convert any integer, at a cost quadratic in its digits
        raise HistoryError("a number of more than 4300 digits")
    try:
        data: dict[str, Any] = tomllib.loads(text, parse_float=bounded_decimal)
    except tomllib.TOMLDecodeError as e:
        raise HistoryError(f"malformed PHH (not valid TOML): {e}") from None
    except RecursionError:
        raise HistoryError("malformed PHH: arrays or tables nested too deeply") from None
    except HistoryError:
        raise
    except ValueError as e:  # the interpreter's limit on the digits of an integer
        raise HistoryError(f"a number in this PHH text is too long to read: {e}") from None
    return data
