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
import sys
import time
from functools import cache
from pathlib import Path

from triple_draw import Hand, Rules, histories, phh

# the tests' reference-bot records (tests/conftest.py)
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from conftest import bot_hands, bot_hands_as_pokerstars

#: the test suite's smoke run (tests/conftest.py): tiny sizes
SMOKE = os.environ.get("TD_BENCH_SMOKE") == "1"

N_HANDS = 100 if SMOKE else 2000


@cache
def hands() -> tuple[Hand, ...]:
    rules = Rules.online(10, small_blind=5, rake_percent="4.5", rake_cap=50)
    return tuple(bot_hands(N_HANDS, rules))


@cache
def stars_file() -> str:
    return bot_hands_as_pokerstars(list(hands()))


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
