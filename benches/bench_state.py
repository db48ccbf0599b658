"""Benchmark of restoring saved hands: ``Hand.from_dict`` on the documents of 6-max hands.

``from_dict`` checks an untrusted document by replaying its history from its starting
state and comparing every field (docs/security.md), so its cost grows with the history.
The documents: every decision of 200 six-handed hands under a random policy (a fold a
quarter as likely as any other action), one in five kept (mid-hand states of every
street), and each finished hand.

    pytest benches/bench_state.py                # pytest-benchmark
    python benches/bench_state.py                # plain perf_counter loop, prints µs/document

Target: < 1 ms per document on average (a server restoring a hand for every action it
answers spends under a millisecond of one core on it).
"""

from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path
from typing import Any

from triple_draw.game import Hand, Rules

# the tests' seeded random play (tests/conftest.py)
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from conftest import random_action


def documents(n_hands: int = 200, every: int = 5) -> list[dict[str, Any]]:
    """JSON round-tripped documents of 6-max hands, mid-hand and finished."""
    out = []
    k = 0
    for seed in range(n_hands):
        rng = random.Random(seed)
        h = Hand(Rules(), [200] * 6, seed % 6, seed)
        while h.actor is not None:
            if k % every == 0:
                out.append(json.loads(json.dumps(h.to_dict())))
            k += 1
            h.apply(random_action(h, rng, weight=4))
        out.append(json.loads(json.dumps(h.to_dict())))
    return out


def restore_all(docs: list[dict[str, Any]]) -> None:
    for d in docs:
        Hand.from_dict(d)


def test_bench_from_dict(benchmark):  # type: ignore[no-untyped-def]
    docs = documents(40)
    benchmark(restore_all, docs)
    if benchmark.stats:  # None under --benchmark-disable
        benchmark.extra_info["us_per_document"] = round(
            benchmark.stats.stats.min / len(docs) * 1e6, 1
        )


def main() -> None:
    docs = documents()
    events = sum(len(d["history"]) for d in docs) / len(docs)
    for name, f in (
        ("Hand.from_dict", restore_all),
        ("json.dumps + json.loads of the same", lambda ds: [json.loads(json.dumps(d)) for d in ds]),
    ):
        best = min(_time(f, docs) for _ in range(5))
        print(f"{name}: {best / len(docs) * 1e6:.0f} µs per document")
    print(f"({len(docs)} documents, {events:.0f} history events on average)")


def _time(f: Any, docs: list[dict[str, Any]]) -> float:
    t = time.perf_counter()
    f(docs)
    return time.perf_counter() - t


if __name__ == "__main__":
    main()
