"""Helpers shared by the engine's tests (import them: ``from conftest import ...``)."""

from __future__ import annotations

from triple_draw.game import Hand


def partition_ok(h: Hand) -> bool:
    """The hands, the stub and the cards out of play hold each of the 52 cards once."""
    p = h._card_partition()
    return sorted(p["hands"] + p["stub"] + p["out_of_play"]) == list(range(52))


def to_draw(h: Hand) -> None:
    """Check or call until the hand reaches a draw."""
    while not h.in_draw:
        h.check_or_call()
