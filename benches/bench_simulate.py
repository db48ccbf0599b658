"""Throughput and memory of :func:`triple_draw.simulate` (pytest-benchmark; the figures
and how they were taken are in docs/simulation.md, "Throughput").

    pytest benches/bench_simulate.py --benchmark-only -s     # the measurements
    python benches/bench_simulate.py [hands]                 # the same, plain perf_counter
    python benches/bench_simulate.py --memory 1000000        # RSS over a million hands
    python benches/bench_simulate.py --observation           # a decide(obs) bot's cost

What is measured, each in the same run as the engine's fast path (``bench_game.py``'s
random policy, 6-max), so that the ratios hold on a busy machine:

- complete 6-handed hands between heuristic bots and between random bots, one worker
  (in-process) and two worker processes (the 2-worker rounds include starting the pool);
- ``triple-draw simulate --players 6 --hands 20000`` as a user runs it (a subprocess, the
  interpreter's start-up included);
- the resident set size along a long run: its growth after the first chunk must stay
  under 50 MB (chunks are generated lazily and reduced as they arrive);
- what a ``decide(obs)`` bot costs simulate per decision beyond the engine's own work:
  the :class:`~triple_draw.bots.Observation` built for it, the call, applying its action
  and the tallies (see :func:`observation_overhead_us`).

Under ``--benchmark-disable`` (the test suite's smoke run) every case runs once with few
hands. These are measurements, never pass/fail tests of speed.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from triple_draw.bots import HeuristicBot, Observation, RandomBot
from triple_draw.game import Action, Hand, Rules
from triple_draw.simulation import simulate

# the yardstick's policy and game loop are bench_game's own (same directory)
sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_game import play_hands

HANDS = 4_000
CHUNK = 500
PLAYERS = 6

BOTS = {"random": RandomBot, "heuristic": HeuristicBot}


def _enabled(benchmark: Any) -> bool:
    return not getattr(benchmark, "disabled", False)


def fast_path_rate(n_hands: int = 2000) -> float:
    """Hands/s of the engine's fast path under bench_game.py's random policy (6-max), the
    yardstick every figure here is compared with."""
    t = time.perf_counter()
    play_hands(Rules(), n_hands)
    return n_hands / (time.perf_counter() - t)


@pytest.mark.parametrize("workers", [1, 2])
@pytest.mark.parametrize("bot", ["random", "heuristic"])
def test_simulate_hands_per_second(benchmark, bot: str, workers: int) -> None:  # type: ignore[no-untyped-def]
    bots = [BOTS[bot]() for _ in range(PLAYERS)]
    hands = HANDS if _enabled(benchmark) else 200
    chunk = CHUNK if _enabled(benchmark) else 100

    def run():  # type: ignore[no-untyped-def]
        return simulate(bots, hands=hands, seed=1, chunk_size=chunk, workers=workers)

    result = benchmark.pedantic(run, rounds=3, iterations=1, warmup_rounds=0)
    assert sum(s.net for s in result.seats) == 0
    if benchmark.stats:  # None under --benchmark-disable
        rate = hands / benchmark.stats.stats.min
        fast = fast_path_rate()
        benchmark.extra_info["hands_per_second"] = round(rate)
        benchmark.extra_info["fast_path_hands_per_second"] = round(fast)
        benchmark.extra_info["hands_per_worker_second"] = round(result.hands_per_worker_second)
        print(
            f"\n{bot} bots, {PLAYERS} players, {workers} worker(s): {rate:,.0f} hands/s "
            f"({rate / fast:.2f} x the engine's fast path, {fast:,.0f} hands/s)"
        )


def test_cli_simulate_20000_hands(benchmark) -> None:  # type: ignore[no-untyped-def]
    hands = 20_000 if _enabled(benchmark) else 300
    argv = [sys.executable, "-m", "triple_draw", "simulate", "--players", "6"]
    argv += ["--hands", str(hands), "--seed", "1", "--no-progress"]

    def run() -> str:
        p = subprocess.run(argv, capture_output=True, text=True, check=True, timeout=600)
        return p.stdout

    out = benchmark.pedantic(run, rounds=1, iterations=1, warmup_rounds=0)
    assert f"{hands} hands, 6 players" in out
    if benchmark.stats:
        secs = benchmark.stats.stats.min
        benchmark.extra_info["seconds"] = round(secs, 2)
        print(f"\ntriple-draw simulate --players 6 --hands {hands}: {secs:.2f} s")


_STAND_PAT = Action("discard", cards=())
_CHECK = Action("check")
_CALL = Action("call")


class PassiveBot:
    """Checks or calls, stands pat: every 6-max hand between six of them is the same 42
    decisions (4 betting rounds and 3 draws of 6 seats, no fold, no reshuffle, a
    showdown), so timing it against the same hands on the fast path isolates simulate's
    own cost per decision."""

    def decide(self, obs: Observation) -> Action:
        if obs.phase == "draw":
            return _STAND_PAT
        return _CALL if obs.to_call else _CHECK


def observation_overhead_us(hands: int = 4000, rounds: int = 5) -> float:
    """Microseconds per decision that ``simulate`` spends on a ``decide(obs)`` bot beyond
    the engine: the Observation it builds, the bot call (a trivial decide), applying the
    returned action through ``Hand.apply`` (checked, as for any user bot) and the
    tallies - an upper bound of the observation's cost. Best CPU time of ``rounds`` runs of
    each, interleaved: ``simulate`` with six :class:`PassiveBot` s against the same
    check-call / stand-pat play through the fast path (``check_or_call``, ``discard``)."""
    rules = Rules()
    bots = [PassiveBot() for _ in range(PLAYERS)]
    stacks = [200] * PLAYERS

    def engine_only() -> int:
        decisions = 0
        for i in range(hands):
            h = Hand(rules, stacks, i % PLAYERS, i)
            while h.actor is not None:
                if h.in_draw:
                    h.discard(())
                else:
                    h.check_or_call()
                decisions += 1
        return decisions

    best_sim = best_engine = float("inf")
    decisions = 0
    for _ in range(rounds):
        c = time.process_time()
        simulate(bots, hands=hands, seed=1, chunk_size=hands, workers=1)
        best_sim = min(best_sim, time.process_time() - c)
        c = time.process_time()
        decisions = engine_only()
        best_engine = min(best_engine, time.process_time() - c)
    return (best_sim - best_engine) / decisions * 1e6


def test_observation_overhead_per_decision(benchmark) -> None:  # type: ignore[no-untyped-def]
    hands = 4000 if _enabled(benchmark) else 100
    us = benchmark.pedantic(
        observation_overhead_us, args=(hands, 5 if _enabled(benchmark) else 1), rounds=1
    )
    benchmark.extra_info["us_per_decision"] = round(us, 2)
    if benchmark.stats:
        print(f"\nsimulate's cost per decision of a decide(obs) bot: {us:.2f} us")


def rss_bytes() -> int:
    """This process's resident set size (Linux /proc; 0 where unavailable)."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


def memory_growth(hands: int, chunk: int = 1000) -> tuple[int, float]:
    """(largest RSS growth after the first chunk, seconds) of a ``hands``-hand heuristic
    6-max run in this process."""
    first = 0
    peak = 0

    def progress(done: int, total: int) -> None:
        nonlocal first, peak
        rss = rss_bytes()
        if not first:
            first = rss
        peak = max(peak, rss)

    t = time.perf_counter()
    simulate(None, players=6, hands=hands, seed=1, chunk_size=chunk, progress=progress)
    return peak - first, time.perf_counter() - t


def test_memory_stays_flat_over_a_long_run(benchmark) -> None:  # type: ignore[no-untyped-def]
    hands = 200_000 if _enabled(benchmark) else 2_000
    chunk = 1000 if _enabled(benchmark) else 200
    growth, _ = benchmark.pedantic(
        memory_growth, args=(hands, chunk), rounds=1, iterations=1, warmup_rounds=0
    )
    benchmark.extra_info["rss_growth_mb"] = round(growth / 2**20, 1)
    if benchmark.stats:
        print(f"\n{hands:,} hands: RSS grew {growth / 2**20:.1f} MB after the first chunk")
    assert growth < 50 * 2**20  # a memory bound, not a speed one


def main(argv: list[str]) -> None:
    if argv[:1] == ["--observation"]:
        us = observation_overhead_us()
        print(f"simulate's cost per decision of a decide(obs) bot, beyond the engine: {us:.2f} us")
        return
    if argv[:1] == ["--memory"]:
        hands = int(argv[1]) if len(argv) > 1 else 1_000_000
        growth, secs = memory_growth(hands)
        print(
            f"{hands:,} hands in {secs:.0f} s ({hands / secs:,.0f} hands/s): "
            f"RSS grew {growth / 2**20:.1f} MB after the first chunk"
        )
        return
    hands = int(argv[0]) if argv else 20_000
    for _ in range(3):
        c = time.process_time()
        n_fast = 2000
        fast_path_rate(n_fast)
        fast = n_fast / (time.process_time() - c)
        t, c = time.perf_counter(), time.process_time()
        simulate(None, players=6, hands=hands, seed=1)
        wall, cpu = time.perf_counter() - t, time.process_time() - c
        t = time.perf_counter()
        simulate(None, players=6, hands=hands, seed=1, workers=2)
        wall2 = time.perf_counter() - t
        print(
            f"heuristic 6-max, {hands} hands: one worker {hands / cpu:,.0f} hands per CPU "
            f"second ({hands / wall:,.0f}/s wall), {hands / cpu / fast:.2f} x the engine's fast "
            f"path ({fast:,.0f} hands per CPU second); two workers {wall / wall2:.2f} x one "
            "(wall clock)"
        )


if __name__ == "__main__":
    main(sys.argv[1:])
