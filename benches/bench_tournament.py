"""Throughput of simulated tournaments (pytest-benchmark; the figures and how they were
taken are in docs/tournaments.md, *Speed*, and docs/performance.md).

    pytest benches/bench_tournament.py --benchmark-only -s     # the measurements
    python benches/bench_tournament.py [tournaments]           # the same, plain perf_counter

What is measured: complete tournaments between heuristic bots, one worker (in-process),
as :func:`triple_draw.tournament_sim.simulate_tournaments` plays them - the heads-up and
six-handed sit & gos, and the multi-table preset with 18 entrants (three tables, breaking
tables, balancing, the final table) - in tournaments per second and hands per second.

Under ``--benchmark-disable`` (the test suite's smoke run, ``TD_BENCH_SMOKE=1``) every
case runs once with a couple of tournaments. These are measurements, never pass/fail
tests of speed.
"""

from __future__ import annotations

import os
import sys
import time
from typing import Any

import pytest

from triple_draw.tournament_sim import simulate_tournaments

SMOKE = os.environ.get("TD_BENCH_SMOKE") == "1"
SIZES = {"sng2": 200, "sng6": 100, "mtt": 10}


def _count(name: str) -> int:
    return 2 if SMOKE else SIZES[name]


@pytest.mark.parametrize("name", ["sng2", "sng6", "mtt"])
def test_simulated_tournaments_per_second(benchmark: Any, name: str) -> None:
    n = _count(name)

    def run() -> Any:
        return simulate_tournaments(name, tournaments=n, seed=1)

    result = benchmark.pedantic(run, rounds=3, iterations=1, warmup_rounds=0)
    assert sum(b.prizes for b in result.bots) == n * result.prize_pool
    if benchmark.stats:  # None under --benchmark-disable
        best = benchmark.stats.stats.min
        benchmark.extra_info["tournaments_per_second"] = round(n / best, 1)
        benchmark.extra_info["hands_per_second"] = round(result.hands / best)
        benchmark.extra_info["hands_per_tournament"] = round(result.hands_per_tournament, 1)


def measure(tournaments: int | None = None) -> list[tuple[str, float, float, float]]:
    """``(preset, tournaments/s, hands/s, hands a tournament)`` of each preset, the best
    of three runs."""
    out = []
    for name in ("sng2", "sng6", "mtt"):
        n = tournaments or SIZES[name]
        best = float("inf")
        result: Any = None
        for _ in range(3):
            t0 = time.perf_counter()
            result = simulate_tournaments(name, tournaments=n, seed=1)
            best = min(best, time.perf_counter() - t0)
        out.append((name, n / best, result.hands / best, result.hands_per_tournament))
    return out


if __name__ == "__main__":
    arg = int(sys.argv[1]) if len(sys.argv) > 1 else None
    for name, tps, hps, hpt in measure(arg):
        print(f"{name:5s} {tps:8.1f} tournaments/s  {hps:8.0f} hands/s  {hpt:6.1f} hands each")
