"""The hand history: one immutable :class:`Event` per forced bet, deal, action and payout.

The engine appends compact tuples ``(kind, seat, amount, cards)`` (:data:`LogEntry`: the
fields of an :class:`Event`, cards as id tuples, ``None`` where an event has no such
field) to a list while it plays; the :class:`Event` objects are only built when somebody
asks for the history. Each kind has a named constant here (``FOLD``, ``RESHUFFLE``, ...).
Kinds, in the order they can occur:

=================== ======================================================================
``post_ante``       seat posts ``amount`` as ante
``post_small_blind`` / ``post_big_blind``  seat posts ``amount`` (less if all-in)
``deal``            seat is dealt his five hole cards ``cards``
``begin_round``     betting round ``amount`` (0..3) starts (seat ``None``)
``fold`` ``check``  the seat's action
``call`` ``bet`` ``raise``  ``amount`` is the seat's round total after the action
``begin_draw``      draw ``amount`` (0..2) starts (seat ``None``)
``discard``         seat discards ``cards`` (private; the count is public)
``burn``            one card ``cards`` is burned before the replacements of draw ``amount``
                    (out of play, never seen by any seat)
``reshuffle``       a new stub of ``amount`` cards is formed while serving seat
``draw``            seat is dealt ``cards`` as replacements
``return``          an uncalled ``amount`` goes back to seat
``show`` / ``muck`` at showdown, seat shows ``cards`` / mucks
``win``             seat collects ``amount`` from one pot (one event per pot share, main
                    pot first)
=================== ======================================================================
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final, NamedTuple

from triple_draw.game.cards import CARD_TEXT, to_ids

__all__ = [
    "Event",
    "EVENT_KINDS",
    "LogEntry",
    "LogLayout",
    "LOG_LAYOUT",
    "Entry",
    "AMOUNT_MEANS",
    "read",
    "stored",
    "burn_entry",
    "reshuffle_entry",
    "to_event",
    "log_to_dicts",
    "log_from_dicts",
    "POST_ANTE",
    "POST_SMALL_BLIND",
    "POST_BIG_BLIND",
    "DEAL",
    "BEGIN_ROUND",
    "FOLD",
    "CHECK",
    "CALL",
    "BET",
    "RAISE",
    "BEGIN_DRAW",
    "DISCARD",
    "BURN",
    "RESHUFFLE",
    "DRAW",
    "RETURN",
    "SHOW",
    "MUCK",
    "WIN",
    "RAKE",
]

# The kinds of log entries: the same names as the public events, one constant each.
POST_ANTE: Final = "post_ante"
POST_SMALL_BLIND: Final = "post_small_blind"
POST_BIG_BLIND: Final = "post_big_blind"
DEAL: Final = "deal"
BEGIN_ROUND: Final = "begin_round"
FOLD: Final = "fold"
CHECK: Final = "check"
CALL: Final = "call"
BET: Final = "bet"
RAISE: Final = "raise"
BEGIN_DRAW: Final = "begin_draw"
DISCARD: Final = "discard"
BURN: Final = "burn"
RESHUFFLE: Final = "reshuffle"
DRAW: Final = "draw"
RETURN: Final = "return"
SHOW: Final = "show"
MUCK: Final = "muck"
WIN: Final = "win"
#: the house takes the rake (``amount``), before the pots are paid
RAKE: Final = "rake"

EVENT_KINDS = (
    POST_ANTE,
    POST_SMALL_BLIND,
    POST_BIG_BLIND,
    DEAL,
    BEGIN_ROUND,
    FOLD,
    CHECK,
    CALL,
    BET,
    RAISE,
    BEGIN_DRAW,
    DISCARD,
    BURN,
    RESHUFFLE,
    DRAW,
    RETURN,
    SHOW,
    MUCK,
    WIN,
    RAKE,
)
_KINDS = frozenset(EVENT_KINDS)

#: What the stored ``amount`` of an entry of each kind is: the :class:`Entry` field it
#: fills (``None``: the kind has no amount).
AMOUNT_MEANS: dict[str, str | None] = {
    POST_ANTE: "chips",
    POST_SMALL_BLIND: "chips",
    POST_BIG_BLIND: "chips",
    DEAL: None,
    BEGIN_ROUND: "round",
    FOLD: None,
    CHECK: None,
    CALL: "chips",
    BET: "chips",
    RAISE: "chips",
    BEGIN_DRAW: "draw",
    DISCARD: None,
    BURN: "draw",
    RESHUFFLE: "stub",
    DRAW: None,
    RETURN: "chips",
    SHOW: None,
    MUCK: None,
    WIN: "chips",
    RAKE: "chips",
}
assert set(AMOUNT_MEANS) == _KINDS


def read(entry: LogEntry) -> Entry:
    """The log entry as an :class:`Entry`: its amount in the field of its meaning."""
    kind, seat, amount, cards = entry
    means = AMOUNT_MEANS[kind]
    if means is None or amount is None:
        return Entry(kind, seat, cards=cards)
    return Entry(kind, seat, cards=cards, **{means: amount})


def stored(entry: Entry) -> LogEntry:
    """The log entry of an :class:`Entry`, as the log stores it (:func:`read` undone)."""
    means = AMOUNT_MEANS[entry.kind]
    amount = None if means is None else getattr(entry, means)
    return (entry.kind, entry.seat, amount, entry.cards)


def burn_entry(draw: int, card: int) -> LogEntry:
    """``card`` is burned before the replacements of draw ``draw``."""
    return (BURN, None, draw, (card,))


def reshuffle_entry(seat: int | None, stub: int) -> LogEntry:
    """A new stub of ``stub`` cards is formed while seat ``seat`` is served."""
    return (RESHUFFLE, seat, stub, None)

#: One entry of the engine's log as it is stored: ``(kind, seat or None, amount or None,
#: card ids or None)`` - exactly the fields of an :class:`Event`, with cards as ids. The
#: stored ``amount`` means what :data:`AMOUNT_MEANS` says for the kind; :func:`read` gives
#: the entry as an :class:`Entry`, one field per meaning.
LogEntry = tuple[str, int | None, int | None, tuple[int, ...] | None]


class LogLayout(NamedTuple):
    """Where each field of a stored :data:`LogEntry` sits in the tuple: the one
    declaration of the layout for the compiled core, whose views read log entries at
    these positions (``view.CompiledSupport.log_layout``) and write none themselves."""

    kind: int = 0
    seat: int = 1
    amount: int = 2
    cards: int = 3


#: the layout of every stored :data:`LogEntry` (what :func:`stored` writes)
LOG_LAYOUT = LogLayout()


class Entry(NamedTuple):
    """A log entry read by meaning (:func:`read`): one field for each meaning, ``None``
    where the kind has none.

    The log itself stays a list of plain tuples (:data:`LogEntry`), whose third item
    stands for chips, a betting round, a draw or a stub size depending on the kind: the
    engine appends about a hundred entries to it in a 6-max hand, and a named tuple built
    for each would cost 1,300 (``tuple.__new__`` bound to the class) to 2,700 (the
    class's constructor) more instructions an entry - a fifth to two fifths more for the
    whole hand (docs/performance.md). Code that reads what an entry means reads it
    through this record; the entries that are no chips are written by
    :func:`burn_entry`, :func:`reshuffle_entry` and the shared ``ROUND_BEGINS`` and
    ``DRAW_BEGINS``."""

    kind: str
    #: the seat the entry is about (``None``: nobody in particular)
    seat: int | None = None
    #: chips: a post, a call's, bet's or raise's round total, an uncalled bet returned,
    #: a share of a pot won, the rake
    chips: int | None = None
    #: ``begin_round``: the betting round, 0..3
    round: int | None = None
    #: ``begin_draw``, ``burn``: the draw, 0..2
    draw: int | None = None
    #: ``reshuffle``: the size of the new stub
    stub: int | None = None
    #: card ids: dealt, discarded, burned, drawn or shown
    cards: tuple[int, ...] | None = None

# Entries that are the same in every hand, built once and shared (entries are immutable):
#: ``ROUND_BEGINS[r]``: betting round ``r`` (0..3) begins
ROUND_BEGINS: tuple[LogEntry, ...] = tuple((BEGIN_ROUND, None, r, None) for r in range(4))
#: ``DRAW_BEGINS[d]``: draw ``d`` (0..2) begins
DRAW_BEGINS: tuple[LogEntry, ...] = tuple((BEGIN_DRAW, None, d, None) for d in range(3))
#: ``FOLDS[seat]``, ``CHECKS[seat]``: that seat folds, checks (seats 0..9)
FOLDS: tuple[LogEntry, ...] = tuple((FOLD, s, None, None) for s in range(10))
CHECKS: tuple[LogEntry, ...] = tuple((CHECK, s, None, None) for s in range(10))
#: ``COUNTS[k]``: ``(k,)``, the draw of ``k`` cards as one more item of a seat's draw
#: counts (``HandState._draws``), shared
COUNTS: tuple[tuple[int], ...] = tuple((k,) for k in range(6))


@dataclass(frozen=True, slots=True)
class Event:
    """One entry of the hand history. ``cards`` are canonical text (``'7h'``)."""

    kind: str
    seat: int | None = None
    amount: int | None = None
    cards: tuple[str, ...] | None = None

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"kind": self.kind}
        if self.seat is not None:
            d["seat"] = self.seat
        if self.amount is not None:
            d["amount"] = self.amount
        if self.cards is not None:
            d["cards"] = list(self.cards)
        return d


def to_event(entry: LogEntry) -> Event:
    kind, seat, amount, cards = entry
    return Event(kind, seat, amount, None if cards is None else tuple(CARD_TEXT[c] for c in cards))


def log_to_dicts(log: list[LogEntry]) -> list[dict[str, Any]]:
    return [to_event(e).to_dict() for e in log]


def log_from_dicts(items: list[dict[str, Any]]) -> list[LogEntry]:
    out: list[LogEntry] = []
    for d in items:
        kind = d["kind"]
        if kind not in _KINDS:
            raise ValueError(f"unknown event kind {kind!r}")
        cards = d.get("cards")
        out.append(
            (kind, d.get("seat"), d.get("amount"), None if cards is None else tuple(to_ids(cards)))
        )
    return out
