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
        ("rake", base.replace(rake_percent="5", rake_cap=3)),
        (
            "rake-half-even",
            Rules.online(max_players=8, rake_percent="4.5", rake_rounding="half-even"),
        ),
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
    # forced bets: antes, no small blind, live and dead entry posts, blinds and posts left
    # short or all-in by the ante (their own stream: the cases above stay as they were)
    forced = random.Random(20261202)
    named = dict(rule_sets())
    for name in ("ante", "default", "rake", "online"):
        rules = named[name]
        for n in range(2, 9):
            for _ in range(3):
                stacks = [forced.choice([1, 2, 3, 5, 9, 40, 200]) for _ in range(n)]
                button = forced.randrange(n)
                options: dict[str, Any] = {}
                if n > 2 and forced.random() < 0.5:
                    options["no_small_blind"] = True
                sb, bb = _blinds(n, button, options.get("no_small_blind", False))
                others = [s for s in range(n) if s not in (sb, bb)]
                posts = {}
                for s in forced.sample(others, min(len(others), forced.randrange(3))):
                    live = forced.choice([0, rules.big_blind])
                    dead = forced.choice([0, rules.small_blind]) if live else rules.small_blind
                    posts[s] = [live, dead]
                if posts:
                    options["posts"] = [[s, *v] for s, v in sorted(posts.items())]
                out.append(
                    {
                        "id": k,
                        "rules_name": name,
                        "rules": rules.to_dict(),
                        "stacks": stacks,
                        "button": button,
                        "seed": forced.randrange(2**63),
                        "policy_seed": forced.randrange(2**32),
                        "throw": forced.choice([0.2, 0.7]),
                        "aggression": forced.choice([0.1, 0.6]),
                        "forced": options,
                    }
                )
                k += 1
    return out


def _blinds(n: int, button: int, no_small_blind: bool) -> tuple[int | None, int]:
    if no_small_blind:
        return None, (button + 1) % n
    if n == 2:
        return button, 1 - button
    return (button + 1) % n, (button + 2) % n


def build(case: dict[str, Any]) -> Hand:
    options = dict(case.get("forced", {}))
    if "posts" in options:
        options["posts"] = {s: (live, dead) for s, live, dead in options["posts"]}
    hand = Hand(
        Rules.from_dict(case["rules"]), case["stacks"], case["button"], case["seed"], **options
    )
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
