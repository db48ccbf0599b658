"""Benchmark of ``triple_draw.review``: one player's 6-max PokerStars hands (the package's
reference bots at a $0.05/$0.10 table, written by ``histories.dumps`` as the view of the
seat named 'hero', as in bench_histories.py) reviewed end to end on one thread: reading
and replaying the file, every draw of the hero judged, every showdown's equities, the
summaries (the reference bots' frequencies, computed once per process, are left out).

    pytest benches/bench_review.py            # pytest-benchmark
    python benches/bench_review.py [N]        # hands per second, best of 3 (CPU time)

The target is at least 100 hands per second per core (issue #22; docs: Analysis).
"""

from __future__ import annotations

import os

import random
import sys
import tempfile
import time
from decimal import Decimal
from functools import cache
from pathlib import Path

from triple_draw import Hand, Rules, histories
from triple_draw.bots import HeuristicBot
from triple_draw.review import review

#: the test suite's smoke run (tests/conftest.py): tiny sizes
SMOKE = os.environ.get("TD_BENCH_SMOKE") == "1"

N_HANDS = 40 if SMOKE else 2000
NAMES = ["jo smith", "Zed", "hero", "[Ace]High", "deuce:seven", "Marek P"]


@cache
def stars_file(n: int = N_HANDS) -> str:
    bots = [HeuristicBot(seed=i) for i in range(6)]
    rules = Rules.online(10, small_blind=5, rake_percent="4.5", rake_cap=50)
    texts = []
    for seed in range(n):
        rng = random.Random(seed)
        h = Hand(rules, [rng.randint(400, 2500) for _ in range(6)], seed % 6, seed)
        while not h.is_over:
            s = h.actor
            h.apply(bots[s].act(h.view(s)))
        texts.append(
            histories.dumps(
                h,
                viewer=2,
                players=NAMES,
                hand_id=230_000_000_000 + seed,
                table="Aludra II",
                chip_unit=Decimal("0.01"),
                currency="USD",
            )
        )
    return "\n\n\n".join(texts)


def review_file(path: Path, n: int) -> None:
    r = review([path], "hero", threads=1, reference=False)
    assert len(r.hands) == n


def test_bench_review_6max(benchmark, tmp_path):  # type: ignore[no-untyped-def]
    path = tmp_path / "stars.txt"
    path.write_text(stars_file(), encoding="utf-8")
    benchmark.pedantic(review_file, args=(path, N_HANDS), rounds=3, iterations=1)


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else N_HANDS
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "stars.txt"
        path.write_text(stars_file(n), encoding="utf-8")
        best = float("inf")
        for _ in range(3):
            t = time.process_time()
            r = review([path], "hero", threads=1, reference=False)
            best = min(best, time.process_time() - t)
    print(
        f"review, one thread: {n / best:6.0f} hands/s ({best / n * 1e3:.2f} ms per hand; "
        f"{len(r.decisions)} draws judged in {r.analyses} analyses, {len(r.showdowns)} showdowns)"
    )


if __name__ == "__main__":
    main()
