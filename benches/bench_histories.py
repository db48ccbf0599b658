"""Benchmark of importing site hand histories: a file of 6-max PokerStars hands (the
package's reference bots at a $0.05/$0.10 table, written by ``histories.dumps`` as one
player's view, in real money) read and replayed by ``histories.load``; beside it the same
hands as PHH views through ``phh.loads`` (the other way in for a record).

    pytest benches/bench_histories.py            # pytest-benchmark
    python benches/bench_histories.py            # hands per second, best of 3 (CPU time)

The target is at least 5,000 hands per second per core (docs: Hand histories).
"""

from __future__ import annotations

import os

import random
import time
from decimal import Decimal
from functools import cache

from triple_draw import Hand, Rules, histories, phh
from triple_draw.bots import HeuristicBot

#: the test suite's smoke run (tests/conftest.py): tiny sizes
SMOKE = os.environ.get("TD_BENCH_SMOKE") == "1"

N_HANDS = 100 if SMOKE else 2000
NAMES = ["jo smith", "Zed", "hero", "[Ace]High", "deuce:seven", "Marek P"]


@cache
def hands() -> tuple[Hand, ...]:
    bots = [HeuristicBot(seed=i) for i in range(6)]
    rules = Rules.online(10, small_blind=5, rake_percent="4.5", rake_cap=50)
    out = []
    for seed in range(N_HANDS):
        rng = random.Random(seed)
        h = Hand(rules, [rng.randint(400, 2500) for _ in range(6)], seed % 6, seed)
        while not h.is_over:
            s = h.actor
            h.apply(bots[s].act(h.view(s)))
        out.append(h)
    return tuple(out)


@cache
def stars_file() -> str:
    return "\n\n\n".join(
        histories.dumps(
            h,
            viewer=2,
            players=NAMES,
            hand_id=230_000_000_000 + i,
            table="Aludra II",
            chip_unit=Decimal("0.01"),
            currency="USD",
        )
        for i, h in enumerate(hands())
    )


@cache
def phh_views() -> tuple[str, ...]:
    return tuple(phh.dumps(h, viewer=2) for h in hands())


def import_file(text: str) -> None:
    imported = histories.load(text)
    assert len(imported.hands) == N_HANDS


def load_views(texts: tuple[str, ...]) -> None:
    for t in texts:
        phh.loads(t)


def test_bench_import_pokerstars_6max(benchmark):
    text = stars_file()
    benchmark.pedantic(import_file, args=(text,), rounds=3, iterations=1, warmup_rounds=1)


def test_bench_phh_views_of_the_same_hands(benchmark):
    texts = phh_views()
    benchmark.pedantic(load_views, args=(texts,), rounds=3, iterations=1, warmup_rounds=1)


def main() -> None:
    text = stars_file()
    lines = text.count("\n") / N_HANDS
    for label, run, arg in (
        ("histories.load, PokerStars", import_file, text),
        ("phh.loads, PHH views", load_views, phh_views()),
    ):
        best = float("inf")
        for _ in range(3):
            t = time.process_time()
            run(arg)
            best = min(best, time.process_time() - t)
        print(
            f"{label:28s}: {N_HANDS / best:7.0f} hands/s ({best / N_HANDS * 1e6:.0f} us per hand)"
        )
    print(f"({N_HANDS} 6-max hands, {lines:.0f} lines per hand)")


if __name__ == "__main__":
    main()
