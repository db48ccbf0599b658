"""Fuzz target: discards of cards the actor does not hold (issue 27).

The input's bytes choose the rules (players, draw procedure, reshuffle rule, burn cards,
ante), the hand's seed and the play; at every draw decision the target tries to discard a
card the actor does not hold - another live seat's, one of the stub, a burned or a
discarded card - through ``apply(Discard(...))``, ``apply(..., seat=actor)`` after the
listed actions were asked for, and ``discard``. Each must raise a
:class:`~triple_draw.errors.TripleDrawError` and leave the hand as it was (``to_dict``
equal before and after); anything else is a finding.

Run: ``python fuzz/python/fuzz_discard.py`` (atheris) or ``python fuzz/python/run.py discard``.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _harness import fuzz_one, guarded

from triple_draw import Hand, Rules
from triple_draw.errors import TripleDrawError
from triple_draw.game.actions import Discard

DRAWS = ("immediate", "declare-then-deal")
RESHUFFLES = ("served-discards", "pokerstars", "pokerkit")


def hand_of(data: bytes) -> tuple[Hand, random.Random]:
    """The hand (and the random play) an input stands for."""
    b = (data + bytes(8))[:8]
    n = 2 + b[0] % 7
    rules = Rules(
        max_players=8,
        draw_procedure=DRAWS[b[1] % 2],
        reshuffle=RESHUFFLES[b[2] % 3],
        burn_cards=bool(b[3] % 2),
        ante=b[4] % 2,
    )
    rnd = random.Random(data)
    stacks = [rnd.randint(3, 80) for _ in range(n)]
    return Hand(rules, stacks, rnd.randrange(n), int.from_bytes(b[5:8], "little")), rnd


def check(data: bytes) -> None:
    hand, rnd = hand_of(data)
    while not hand.is_over:
        if hand.in_draw:
            s = hand.actor
            assert s is not None
            held = set(hand.hole_ids(s))
            others = [c for c in range(52) if c not in held]
            for c in rnd.sample(others, 3):
                for how in range(3):
                    before = hand.to_dict()
                    try:
                        if how == 0:
                            hand.apply(Discard((c,)))
                        elif how == 1:
                            hand.legal_actions()
                            hand.apply(Discard([c, *sorted(held)[:1]]), seat=s)
                        else:
                            hand.discard([c])
                    except TripleDrawError:
                        assert hand.to_dict() == before, (
                            f"a refused discard of {c} changed the hand"
                        )
                        continue
                    raise AssertionError(f"seat {s} discarded card {c}, which he does not hold")
        hand.apply(rnd.choice(hand.legal_actions()))


test_one_input = guarded(check, "discard")

if __name__ == "__main__":
    fuzz_one(sys.modules[__name__], sys.argv)
