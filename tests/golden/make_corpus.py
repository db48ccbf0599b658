"""Write the golden corpus of seeded hands (``tests/golden/hands.jsonl``).

Each line is one complete hand: the rules, stacks, button, deck seed and policy seed that
make it, and what the engine produced - the ``to_dict()`` document and the PHH text.
``tests/test_golden_corpus.py`` replays every line and requires the same documents, so a
refactor or an optimisation that changes any deal, action, pot or history is caught.

Regenerate only for an intended change of the documents themselves (a new schema field, a
new rules option), and say why in the commit:

    python tests/golden/make_corpus.py
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

from triple_draw import Hand, Rules, phh

HERE = Path(__file__).resolve().parent
CORPUS = HERE / "hands.jsonl"


def rule_sets() -> list[tuple[str, Rules]]:
    """Every rules option, alone or in the presets, with room for 8 players."""
    base = Rules(max_players=8)
    return [
        ("default", base),
        ("live", Rules.live(max_players=8)),
        ("wsop", Rules.wsop(max_players=8)),
        ("online", Rules.online(max_players=8)),
        ("pokerkit", Rules.pokerkit(max_players=8)),
        ("immediate", base.replace(draw_procedure="immediate")),
        ("pokerstars-immediate", base.replace(reshuffle="pokerstars", draw_procedure="immediate")),
        ("full-raise", base.replace(short_all_in="full-raise")),
        ("ante", base.replace(ante=1)),
        ("uncapped-heads-up", base.replace(heads_up_uncapped=True)),
        ("muck", base.replace(muck_beaten_hands=True)),
        ("bb-not-bet", base.replace(big_blind_is_bet=False)),
        ("big-stakes", Rules(small_blind=5, big_blind=10, small_bet=10, big_bet=20, max_players=8)),
    ]


def play(hand: Hand, rng: random.Random, throw: float, aggression: float) -> None:
    """Drive ``hand`` to its end through the public methods with a seeded policy."""
    while hand.actor is not None:
        if hand.in_draw:
            held = hand.hole_ids(hand.actor)
            hand.discard([c for c in held if rng.random() < throw])
            continue
        x = rng.random()
        if hand.can_bet_or_raise() and x < aggression:
            hand.bet_or_raise()
        elif hand.facing_bet and x > 0.9:
            hand.fold()
        else:
            hand.check_or_call()


def cases() -> list[dict[str, Any]]:
    out = []
    meta = random.Random(20261130)
    k = 0
    for name, rules in rule_sets():
        for n in range(2, 9):
            for _ in range(4):
                # short stacks make all-ins and side pots; heavy drawing at big tables
                # makes reshuffles
                stacks = [
                    meta.choice([3, 7, 12, 25, 60, 200]) * rules.small_bet // 2 + 1
                    for _ in range(n)
                ]
                out.append(
                    {
                        "id": k,
                        "rules_name": name,
                        "rules": rules.to_dict(),
                        "stacks": stacks,
                        "button": meta.randrange(n),
                        "seed": meta.randrange(2**63),
                        "policy_seed": meta.randrange(2**32),
                        "throw": meta.choice([0.2, 0.4, 0.7, 0.95]),
                        "aggression": meta.choice([0.1, 0.3, 0.6]),
                    }
                )
                k += 1
    return out


def build(case: dict[str, Any]) -> Hand:
    hand = Hand(Rules.from_dict(case["rules"]), case["stacks"], case["button"], case["seed"])
    play(hand, random.Random(case["policy_seed"]), case["throw"], case["aggression"])
    return hand


def main() -> int:
    with CORPUS.open("w") as f:
        for case in cases():
            hand = build(case)
            record = dict(case, state=hand.to_dict(), phh=phh.dumps(hand))
            f.write(json.dumps(record, sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
