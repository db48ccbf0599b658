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
import sys
import tempfile
import time
from functools import cache
from pathlib import Path

from triple_draw import Rules
from triple_draw.review import review

# the tests' reference-bot records (tests/conftest.py)
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from conftest import bot_hands, bot_hands_as_pokerstars

#: the test suite's smoke run (tests/conftest.py): tiny sizes
SMOKE = os.environ.get("TD_BENCH_SMOKE") == "1"

N_HANDS = 40 if SMOKE else 2000


@cache
def stars_file(n: int = N_HANDS) -> str:
    rules = Rules.online(10, small_blind=5, rake_percent="4.5", rake_cap=50)
    return bot_hands_as_pokerstars(bot_hands(n, rules))


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
