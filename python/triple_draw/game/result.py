"""The outcome of a finished hand: pots with their winners, the showdown, net per seat."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["Pot", "ShowdownEntry", "HandResult"]


@dataclass(frozen=True, slots=True)
class Pot:
    """A main or side pot. ``shares`` lists ``(seat, chips)`` paid to each winner, odd
    chips already assigned (one at a time, in seat order from the first seat left of the
    button)."""

    amount: int
    eligible: tuple[int, ...]
    winners: tuple[int, ...]
    shares: tuple[tuple[int, int], ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "amount": self.amount,
            "eligible": list(self.eligible),
            "winners": list(self.winners),
            "shares": [list(s) for s in self.shares],
        }


@dataclass(frozen=True, slots=True)
class ShowdownEntry:
    """One seat at the showdown, in showing order. A mucked hand has ``shown=False`` and
    no cards or rank (it is not revealed)."""

    seat: int
    shown: bool
    cards: tuple[str, ...] | None
    rank: int | None
    name: str | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "shown": self.shown,
            "cards": None if self.cards is None else list(self.cards),
            "rank": self.rank,
            "name": self.name,
        }


@dataclass(frozen=True, slots=True)
class HandResult:
    """What a finished hand paid.

    ``pots``: main pot first. ``showdown``: empty when all but one folded.
    ``returned``: ``(seat, chips)`` of an uncalled bet given back, or ``None``.
    ``net[seat]``: final stack minus starting stack. ``stacks``: final stacks.
    ``rake``: the chips the house took (taken from the main pot first, then from each
    side pot in turn; each pot's ``shares`` are what its winners collected after it), so
    ``sum(stacks) + rake == sum(starting stacks)``.
    """

    pots: tuple[Pot, ...]
    showdown: tuple[ShowdownEntry, ...]
    returned: tuple[int, int] | None
    net: tuple[int, ...]
    stacks: tuple[int, ...]
    rake: int = 0

    @property
    def winners(self) -> tuple[int, ...]:
        """Every seat that collected chips from some pot, in seat order."""
        return tuple(sorted({s for p in self.pots for s in p.winners}))

    def to_dict(self) -> dict[str, Any]:
        return {
            "pots": [p.to_dict() for p in self.pots],
            "showdown": [e.to_dict() for e in self.showdown],
            "returned": None if self.returned is None else list(self.returned),
            "net": list(self.net),
            "stacks": list(self.stacks),
            **({"rake": self.rake} if self.rake else {}),
        }
