"""Helpers shared by the engine's tests (import them: ``from conftest import ...``)."""

from __future__ import annotations

import random

from triple_draw.game import Hand


def partition_ok(h: Hand) -> bool:
    """The hands, the stub and the cards out of play hold each of the 52 cards once."""
    p = h._card_partition()
    return sorted(p["hands"] + p["stub"] + p["out_of_play"]) == list(range(52))


def to_draw(h: Hand) -> None:
    """Check or call until the hand reaches a draw."""
    while not h.in_draw:
        h.check_or_call()


def play_randomly(
    hand: Hand,
    rng: random.Random,
    *,
    draw_heavy: float = 0.3,
    weight: int = 5,
    steps: int | None = None,
) -> Hand:
    """Seeded random legal play through ``legal_actions()`` / ``apply()``: in a draw the
    biggest discard with probability ``draw_heavy`` (reshuffles), else any; in a betting
    round fold with weight 1 against ``weight`` for each other action. Until the end, or
    ``steps`` actions."""
    k = 0
    while hand.actor is not None and (steps is None or k < steps):
        acts = hand.legal_actions()
        if hand.in_draw:
            a = acts[-1] if rng.random() < draw_heavy else rng.choice(acts)
        else:
            a = rng.choices(acts, [1 if x.kind == "fold" else weight for x in acts])[0]
        hand.apply(a)
        k += 1
    return hand
