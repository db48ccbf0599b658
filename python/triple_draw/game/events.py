"""The hand history: one immutable :class:`Event` per forced bet, deal, action and payout.

The engine appends compact tuples ``(kind, seat, amount, cards)`` to a list while it
plays (cards as id tuples); the :class:`Event` objects are only built when somebody
asks for the history. Kinds, in the order they can occur:

=================== ======================================================================
``post_ante``       seat posts ``amount`` as ante
``post_small_blind`` / ``post_big_blind``  seat posts ``amount`` (less if all-in)
``deal``            seat is dealt his five hole cards ``cards``
``begin_round``     betting round ``amount`` (0..3) starts (seat ``None``)
``fold`` ``check``  the seat's action
``call`` ``bet`` ``raise``  ``amount`` is the seat's round total after the action
``begin_draw``      draw ``amount`` (0..2) starts (seat ``None``)
``discard``         seat discards ``cards`` (private; the count is public)
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
from typing import Any

from triple_draw.game.cards import CARD_TEXT, to_ids

__all__ = ["Event", "EVENT_KINDS", "expand_log", "log_to_dicts", "log_from_dicts"]

EVENT_KINDS = (
    "post_ante",
    "post_small_blind",
    "post_big_blind",
    "deal",
    "begin_round",
    "fold",
    "check",
    "call",
    "bet",
    "raise",
    "begin_draw",
    "discard",
    "reshuffle",
    "draw",
    "return",
    "show",
    "muck",
    "win",
)
_KINDS = frozenset(EVENT_KINDS)


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


def expand_log(log: list[tuple[Any, ...]], deal_order: list[int]) -> list[tuple[Any, ...]]:
    """Internal log with the compact ``deal_all`` entry split into one ``deal`` per seat."""
    out: list[tuple[Any, ...]] = []
    n = len(deal_order)
    for entry in log:
        if entry[0] == "deal_all":
            ids = entry[3]
            for p, seat in enumerate(deal_order):
                out.append(("deal", seat, None, tuple(ids[p::n])))
        else:
            out.append(entry)
    return out


def to_event(entry: tuple[Any, ...]) -> Event:
    kind, seat, amount, cards = entry
    return Event(
        kind,
        None if seat is None or seat < 0 else seat,
        amount,
        None if cards is None else tuple(CARD_TEXT[c] for c in cards),
    )


def log_to_dicts(log: list[tuple[Any, ...]], deal_order: list[int]) -> list[dict[str, Any]]:
    return [to_event(e).to_dict() for e in expand_log(log, deal_order)]


def log_from_dicts(items: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    out: list[tuple[Any, ...]] = []
    for d in items:
        kind = d["kind"]
        if kind not in _KINDS:
            raise ValueError(f"unknown event kind {kind!r}")
        seat = d.get("seat", -1)
        amount = d.get("amount")
        cards = d.get("cards")
        out.append((kind, seat, amount, None if cards is None else tuple(to_ids(cards))))
    return out
