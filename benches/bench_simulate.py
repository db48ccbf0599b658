"""Throughput of :func:`triple_draw.simulate` (pytest-benchmark): complete 6-handed hands
between random bots and between heuristic bots, on 1 worker (in-process) and 2 worker
processes.

Run: ``pytest benches/bench_simulate.py --benchmark-only`` (add ``-s`` to see the hands/s
lines). Each round plays ``HANDS`` hands in chunks of ``CHUNK``; the figure reported in
``extra_info["hands_per_second"]`` is ``HANDS / best round time``. The 2-worker runs include
starting the process pool in every round, as a user's ``simulate(..., workers=2)`` call does.
These are measurements, never pass/fail tests of speed.
"""

from __future__ import annotations

import pytest

from triple_draw.bots import HeuristicBot, RandomBot
from triple_draw.simulation import simulate

HANDS = 4_000
CHUNK = 500
PLAYERS = 6

BOTS = {"random": RandomBot, "heuristic": HeuristicBot}


@pytest.mark.parametrize("workers", [1, 2])
@pytest.mark.parametrize("bot", ["random", "heuristic"])
def test_simulate_hands_per_second(benchmark, bot: str, workers: int) -> None:  # type: ignore[no-untyped-def]
    bots = [BOTS[bot]() for _ in range(PLAYERS)]

    def run():  # type: ignore[no-untyped-def]
        return simulate(bots, hands=HANDS, seed=1, chunk_size=CHUNK, workers=workers)

    result = benchmark.pedantic(run, rounds=3, iterations=1, warmup_rounds=0)
    assert sum(s.net for s in result.seats) == 0
    if benchmark.stats:  # None under --benchmark-disable
        rate = HANDS / benchmark.stats.stats.min
        benchmark.extra_info["hands_per_second"] = round(rate)
        benchmark.extra_info["hands_per_worker_second"] = round(result.hands_per_worker_second)
        print(f"\n{bot} bots, {PLAYERS} players, {workers} worker(s): {rate:,.0f} hands/s")
