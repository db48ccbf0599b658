"""Issue 27: a discard of a card the actor does not hold is refused, on every path.

At every draw decision of random hands under every rule combination (2-8 players, both
draw procedures, the three reshuffle rules, burn cards on and off, with and without an
ante) the actor tries to discard cards he does not hold - another live seat's, the stub's,
burned and discarded cards - through ``apply``, ``apply(..., seat=)`` after the listed
actions were asked for, and ``discard``: each is refused with the hand unchanged
(``fuzz/python/fuzz_discard.py``, the same check as a fuzz target)."""

from __future__ import annotations

import importlib.util
import itertools
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from triple_draw import Hand, Rules
from triple_draw.game.actions import Discard
from conftest import play_randomly

FUZZ = Path(__file__).resolve().parent.parent / "fuzz" / "python"
_spec = importlib.util.spec_from_file_location("fuzz_discard", FUZZ / "fuzz_discard.py")
assert _spec is not None and _spec.loader is not None
fuzz_discard = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(fuzz_discard)

#: (draw procedure, reshuffle, burn cards, ante): every combination
COMBOS = list(itertools.product(range(2), range(3), range(2), range(2)))
HANDS_PER_COMBO = 84  # 24 combinations x 84 = 2,016 hands, 2-8 players each


@pytest.mark.parametrize("combo", COMBOS, ids=lambda c: "-".join(map(str, c)))
def test_no_discard_of_a_card_not_held_on_any_path(combo: tuple[int, int, int, int]) -> None:
    draw, reshuffle, burn, ante = combo
    for k in range(HANDS_PER_COMBO):
        seed = k.to_bytes(3, "little")
        fuzz_discard.check(bytes([k % 7, draw, reshuffle, burn, ante]) + seed)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(min_size=8, max_size=12))
def test_no_discard_of_a_card_not_held_property(data: bytes) -> None:
    fuzz_discard.check(data)


def test_the_cards_a_folded_seat_threw_away_may_be_the_actors_after_a_reshuffle() -> None:
    """What issue 27 saw: ``hole_cards`` of a folded seat are the cards he folded, and a
    reshuffle may deal them to the actor - who then holds them and may discard them."""

    def folded_seats_card(h: Hand) -> int | None:
        """A card the drawing actor holds that a folded seat's hole cards list, if any."""
        if not h.in_draw:
            return None
        s = h.actor
        for j in range(h.n_players):
            shared = set(h.hole_ids(j)) & set(h.hole_ids(s)) if j != s else set()
            if shared and h.folded[j]:
                return min(shared)
        return None

    for seed in range(200):
        rng = random.Random(seed)
        n = rng.randint(5, 8)
        h = Hand(Rules(max_players=8), [50] * n, rng.randrange(n), seed)
        play_randomly(h, rng, until=lambda h: folded_seats_card(h) is not None)
        c = folded_seats_card(h)
        if c is not None:
            s = h.actor
            h.apply(Discard((c,)))  # legal: the actor holds it
            assert c in h.discards(s)
            return
    raise AssertionError("no hand dealt a folded seat's cards to a drawing player")
