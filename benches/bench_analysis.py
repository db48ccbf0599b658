"""Benchmarks of the analysis kernels (pytest-benchmark), through the public Python API.

    pytest benches/bench_analysis.py --benchmark-only   # pytest-benchmark
    python benches/bench_analysis.py                    # plain perf_counter, prints figures

Targets (this machine class): heads-up all-in equity with 3 draws left, both hands drawing
by the standard rule, >= 5 million trials/s per core (timed with ``threads=1``);
``best_discard`` for one draw, exact over all 32 choices, < 50 ms. Measurements only,
never pass/fail tests of speed.
"""

from __future__ import annotations

import sys
import time

import pytest

from triple_draw.analysis import best_discard, draw_odds, equity

HEADS_UP = ["7c5d4h3sKd", "8c6d5h2s2c"]
TRIALS = 1_000_000


def run_equity(threads: int | None = 1) -> float:
    r = equity(HEADS_UP, draws_left=3, trials=TRIALS, seed=1, threads=threads, method="sample")
    return r[0].equity


def run_best_discard(threads: int | None = 1) -> int:
    return len(best_discard("7c5d4h3sKd", target="8", threads=threads))


@pytest.mark.benchmark(group="analysis")
def test_equity_heads_up_three_draws_one_thread(benchmark) -> None:  # type: ignore[no-untyped-def]
    benchmark.extra_info["trials"] = TRIALS
    benchmark.pedantic(run_equity, rounds=3, iterations=1)


@pytest.mark.benchmark(group="analysis")
def test_equity_heads_up_three_draws_all_cores(benchmark) -> None:  # type: ignore[no-untyped-def]
    benchmark.extra_info["trials"] = TRIALS
    benchmark.pedantic(run_equity, args=(None,), rounds=3, iterations=1)


@pytest.mark.benchmark(group="analysis")
def test_best_discard_one_draw_exact_one_thread(benchmark) -> None:  # type: ignore[no-untyped-def]
    assert benchmark(run_best_discard) == 32


@pytest.mark.benchmark(group="analysis")
def test_best_discard_one_draw_exact_all_cores(benchmark) -> None:  # type: ignore[no-untyped-def]
    assert benchmark(run_best_discard, None) == 32


@pytest.mark.benchmark(group="analysis")
def test_draw_odds_one_card(benchmark) -> None:  # type: ignore[no-untyped-def]
    assert benchmark(draw_odds, "7c5d4h3sKd", "Kd").outcomes == 47


def _best_of(f, n: int) -> float:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(n):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return min(times)


if __name__ == "__main__":
    run_equity()  # warm up (tables, thread pool)
    t1 = _best_of(run_equity, 3)
    tn = _best_of(lambda: run_equity(None), 3)
    b1 = _best_of(run_best_discard, 10)
    bn = _best_of(lambda: run_best_discard(None), 10)
    print(f"equity, heads-up, 3 draws, 1 thread:   {TRIALS / t1 / 1e6:.2f} M trials/s")
    print(f"equity, heads-up, 3 draws, all cores:  {TRIALS / tn / 1e6:.2f} M trials/s")
    print(f"best_discard, 1 draw exact, 1 thread:  {b1 * 1e3:.1f} ms")
    print(f"best_discard, 1 draw exact, all cores: {bn * 1e3:.1f} ms")
    sys.exit(0)
