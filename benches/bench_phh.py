"""Benchmark of loading PHH: ordinary 6-max hands written with every card, the same hands
as one player's view (other players' cards ``??``: ``loads`` replays them as a record with
unknown cards, no search; the target is at most 1.5x the hand with every card), views of
heavy-drawing 7-player hands with several reshuffles, and views of heavy-drawing 8-player
hands with burn cards and the "pokerkit" reshuffle; and ``phh.complete`` of the views,
which deals their unknown cards (where the search runs most).

    pytest benches/bench_phh.py                  # pytest-benchmark
    python benches/bench_phh.py                  # plain perf_counter loop, ms per hand

Compare the figures as ratios within one run (docs: PHH).
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

from triple_draw import phh
from triple_draw.game import Hand, Rules

# the tests' seeded random play (tests/conftest.py)
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from conftest import play_randomly

N_HANDS = 40
N_HEAVY = 10


def _play(rules: Rules, n: int, seed: int, heavy: float) -> Hand:
    rng = random.Random(seed)
    h = Hand(rules, [1000] * n, button=rng.randrange(n), seed=seed)
    return play_randomly(h, rng, draw_heavy=heavy, weight=8)


def texts(kind: str) -> list[str]:
    """``full``: 6-max hands with every card; ``view``: the same, seat 0's view;
    ``heavy``: seat 0's view of 7-player hands drawing five cards most of the time,
    half under each reshuffle rule; ``search``: seat 0's view of such 8-player hands
    under ``Rules.pokerkit``-like rules (burn cards, the "pokerkit" reshuffle)."""
    out = []
    for seed in range(1, N_HEAVY + 1) if kind in ("heavy", "search") else range(N_HANDS):
        if kind == "search":
            rules = Rules(max_players=8, reshuffle="pokerkit", burn_cards=True)
            h = _play(rules, 8, seed, 0.7)
        elif kind == "heavy":
            reshuffle = ("served-discards", "pokerstars")[seed % 2]
            h = _play(Rules(max_players=8, reshuffle=reshuffle), 7, seed, 0.7)
        else:
            h = _play(Rules(), 6, seed, 0.0)
        out.append(phh.dumps(h, viewer=None if kind == "full" else 0))
    return out


def load_all(batch: list[str]) -> None:
    for i, text in enumerate(batch):
        phh.loads(text, seed=i)


def complete_all(batch: list[str]) -> None:
    for i, text in enumerate(batch):
        phh.complete(text, seed=i)


def test_bench_load_full_histories(benchmark):
    batch = texts("full")
    benchmark.pedantic(load_all, args=(batch,), rounds=3, iterations=1, warmup_rounds=1)


def test_bench_load_player_views(benchmark):
    batch = texts("view")
    benchmark.pedantic(load_all, args=(batch,), rounds=3, iterations=1, warmup_rounds=1)


def test_bench_load_heavy_7_player_views(benchmark):
    batch = texts("heavy")
    benchmark.pedantic(load_all, args=(batch,), rounds=1, iterations=1)


def test_bench_load_8_player_views_with_burns(benchmark):
    batch = texts("search")
    benchmark.pedantic(load_all, args=(batch,), rounds=1, iterations=1)


def test_bench_complete_player_views(benchmark):
    batch = texts("view")
    benchmark.pedantic(complete_all, args=(batch,), rounds=3, iterations=1, warmup_rounds=1)


def test_bench_complete_8_player_views_with_burns(benchmark):
    batch = texts("search")
    benchmark.pedantic(complete_all, args=(batch,), rounds=1, iterations=1)


def main() -> None:
    got = {}
    for kind in ("full", "view", "heavy", "search"):
        batch = texts(kind)
        for how, run in (("loads", load_all), ("complete", complete_all)):
            if kind == "full" and how == "complete":
                continue
            best = float("inf")
            for _ in range(3):
                t = time.process_time()
                run(batch)
                best = min(best, time.process_time() - t)
            got[kind, how] = best / len(batch)
            print(f"{how:8s} {kind:6s}: {got[kind, how] * 1e3:7.2f} ms per hand (best of 3, CPU)")
    ratio = got["view", "loads"] / got["full", "loads"]
    print(f"a 6-max view loads in {ratio:.2f}x the time of the same hand with every card")


if __name__ == "__main__":
    main()
