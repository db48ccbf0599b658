"""Benchmarks of the compiled core (pytest-benchmark).

Run: ``pytest benches/bench_core.py --benchmark-only``. Figures go in docs/performance.md; these are
measurements, never pass/fail tests of speed.
"""

from __future__ import annotations

import os

import numpy as np
import pytest

import triple_draw as td

#: the test suite's smoke run (tests/conftest.py): tiny sizes
SMOKE = os.environ.get("TD_BENCH_SMOKE") == "1"

# Warm up first: the first thousands of calls of a fresh process run measurably slower.
pytestmark = pytest.mark.benchmark(warmup=True, warmup_iterations=20_000)


def _random_hands(n: int, seed: int = 1) -> np.ndarray:
    rng = np.random.default_rng(seed)
    parts = []
    for start in range(0, n, 1_000_000):
        m = min(1_000_000, n - start)
        parts.append(np.argpartition(rng.random((m, 52), dtype=np.float32), 5, axis=1)[:, :5])
    return np.ascontiguousarray(np.concatenate(parts).astype(np.uint8))


@pytest.fixture(scope="module")
def hands_10m() -> np.ndarray:
    return _random_hands(20_000 if SMOKE else 10_000_000)


def test_evaluate_ids(benchmark) -> None:  # type: ignore[no-untyped-def]
    ids = [22, 13, 8, 7, 2]
    assert benchmark(td.evaluate, ids).rank == 1


def test_evaluate_text(benchmark) -> None:  # type: ignore[no-untyped-def]
    assert benchmark(td.evaluate, "7h5d4c3s2h").rank == 1


def test_rank_ids(benchmark) -> None:  # type: ignore[no-untyped-def]
    assert benchmark(td.rank_ids, [22, 13, 8, 7, 2]) == 1


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("n", [10_000, 20_000] if SMOKE else [1_000_000, 10_000_000])
def test_evaluate_batch(benchmark, hands_10m, n, threads) -> None:  # type: ignore[no-untyped-def]
    hands = hands_10m[:n]
    out = benchmark(td.evaluate_batch, hands, threads=threads)
    if benchmark.stats:  # None under --benchmark-disable
        benchmark.extra_info["hands_per_second"] = n / benchmark.stats.stats.min
    assert out.shape == (n,)


def test_seeded_shuffle_and_deal_52(benchmark) -> None:  # type: ignore[no-untyped-def]
    def deal() -> list[int]:
        return td.Deck(12345).deal_ids(52)

    assert len(benchmark(deal)) == 52
