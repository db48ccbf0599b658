"""triple_draw.simulation: conserved chips, per-seat statistics, and results that depend only on
the seed (and chunk size) - never on the executor or the number of workers."""

from __future__ import annotations

import concurrent.futures as cf
import json
import math
import multiprocessing
import subprocess
import sys

import pytest

import triple_draw
from triple_draw.bots import CallingStationBot, HeuristicBot, RandomBot
from triple_draw.game import Rules
from triple_draw.simulation import CATEGORIES, SimulationResult, chunk_seed, simulate

BOTS = [HeuristicBot(), RandomBot(), CallingStationBot()]


def _run(**kw: object) -> SimulationResult:
    args: dict = dict(hands=240, seed=12345, chunk_size=60)
    args.update(kw)
    return simulate(BOTS, **args)  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def serial() -> SimulationResult:
    return _run()


def test_chips_are_conserved_and_counts_are_consistent(serial: SimulationResult) -> None:
    r = serial
    assert r.hands == 240 and r.players == 3 and r.chunks == 4
    assert sum(s.net for s in r.seats) == 0
    for s in r.seats:
        assert s.hands == 240
        assert 0 <= s.showdowns_won <= s.showdowns <= r.showdowns <= r.hands
        assert sum(s.categories.values()) == s.showdowns
        assert set(s.categories) <= set(CATEGORIES)
        assert 0 <= s.won <= s.hands
    assert r.pot_total > 0
    # every showdown has at least two players; every hand has a winner
    assert sum(s.showdowns for s in r.seats) >= 2 * r.showdowns
    assert sum(s.won for s in r.seats) >= r.hands


def test_confidence_interval_is_around_the_mean(serial: SimulationResult) -> None:
    s = serial.seats[0]
    lo, hi = s.ci95_per_100
    assert lo < s.chips_per_100 < hi
    assert math.isclose(
        hi - s.chips_per_100, 100 * 1.959963984540054 * s.std_per_hand / math.sqrt(s.hands)
    )
    assert math.isclose(s.big_bets_per_100, s.chips_per_100 / 4)
    assert math.isclose(sum(s.category_frequencies.values()), 1.0)


def test_same_seed_same_result_and_other_seed_differs(serial: SimulationResult) -> None:
    assert _run() == serial
    assert _run(seed=54321) != serial


def test_threads_processes_and_workers_give_the_identical_result(serial: SimulationResult) -> None:
    assert _run(executor="threads", workers=2) == serial
    assert _run(workers=2) == serial  # a process pool
    with cf.ThreadPoolExecutor(max_workers=3) as ex:
        assert _run(executor=ex) == serial
    with cf.ProcessPoolExecutor(max_workers=2) as ex:
        assert _run(executor=ex) == serial


def test_a_pool_with_map_works_too(serial: SimulationResult) -> None:
    with multiprocessing.get_context("fork").Pool(2) as pool:
        assert _run(executor=pool) == serial


def test_result_depends_on_chunk_size_not_on_workers() -> None:
    a = _run(chunk_size=80)
    assert a == _run(chunk_size=80, executor="threads", workers=3)
    assert a.chunks == 3


def _fingerprint(r: SimulationResult) -> tuple:
    return (
        r.showdowns,
        r.pot_total,
        [
            (s.net, s.net_sq, s.won, s.showdowns, s.showdowns_won, sorted(s.categories.items()))
            for s in r.seats
        ],
    )


# Results recorded before the view cache and the bots' fast paths went in: optimising the
# engine's views or the bots must never change what a seeded run produces.
PINNED = [
    (
        lambda: simulate([HeuristicBot() for _ in range(6)], hands=150, seed=2024, chunk_size=50),
        (
            121,
            6054,
            [
                (54, 58054, 26, 47, 23, [("no pair", 42), ("one pair", 5)]),
                (-173, 32899, 26, 44, 19, [("no pair", 42), ("one pair", 1), ("two pair", 1)]),
                (23, 53739, 17, 38, 14, [("no pair", 34), ("one pair", 4)]),
                (23, 40629, 31, 46, 25, [("no pair", 42), ("one pair", 4)]),
                (-115, 44739, 25, 44, 16, [("no pair", 39), ("one pair", 4), ("straight", 1)]),
                (188, 74120, 26, 49, 25, [("no pair", 46), ("one pair", 3)]),
            ],
        ),
    ),
    (
        lambda: simulate([RandomBot() for _ in range(6)], hands=150, seed=7, chunk_size=50),
        (
            39,
            5512,
            [
                (272, 37328, 33, 14, 7, [("no pair", 7), ("one pair", 6), ("two pair", 1)]),
                (-185, 19993, 17, 11, 6, [("no pair", 6), ("one pair", 5)]),
                (-121, 26353, 27, 15, 5, [("no pair", 8), ("one pair", 7)]),
                (97, 28419, 23, 8, 6, [("no pair", 4), ("one pair", 3), ("two pair", 1)]),
                (31, 27559, 29, 16, 8, [("no pair", 6), ("one pair", 9), ("two pair", 1)]),
                (
                    -94,
                    27774,
                    21,
                    18,
                    7,
                    [("no pair", 9), ("one pair", 5), ("three of a kind", 1), ("two pair", 3)],
                ),
            ],
        ),
    ),
    (
        lambda: simulate(
            [
                HeuristicBot(),
                RandomBot(fold_when_free=True),
                CallingStationBot(),
                HeuristicBot(bluff=0.5, aggression=2.0),
            ],
            hands=150,
            seed=99,
            chunk_size=40,
            mode="table",
            stack=24,
        ),
        (
            132,
            4963,
            [
                (
                    483,
                    57471,
                    37,
                    79,
                    38,
                    [("no pair", 67), ("one pair", 9), ("straight", 2), ("two pair", 1)],
                ),
                (-608, 7918, 4, 40, 4, [("flush", 1), ("no pair", 21), ("one pair", 18)]),
                (-208, 44566, 71, 132, 53, [("no pair", 90), ("one pair", 33), ("straight", 9)]),
                (333, 54293, 41, 82, 42, [("no pair", 69), ("one pair", 13)]),
            ],
        ),
    ),
]


@pytest.mark.parametrize("case", range(len(PINNED)), ids=["heuristic6", "random6", "mixed-table"])
def test_seeded_results_are_pinned(case: int) -> None:
    run, want = PINNED[case]
    assert _fingerprint(run()) == want


def test_chunk_seeds_are_deterministic_and_distinct() -> None:
    seeds = {chunk_seed(1, i) for i in range(100)}
    assert len(seeds) == 100
    assert chunk_seed(1, 5) == chunk_seed(1, 5) != chunk_seed(2, 5)
    assert all(0 <= s < 2**256 for s in seeds)


def test_table_mode_carries_stacks_and_counts_rebuys() -> None:
    r = simulate(
        [HeuristicBot(), RandomBot()], hands=150, seed=3, mode="table", stack=12, chunk_size=50
    )
    assert sum(s.net for s in r.seats) == 0
    assert r.mode == "table"
    assert sum(s.rebuys for s in r.seats) > 0
    assert r == simulate(
        [HeuristicBot(), RandomBot()],
        hands=150,
        seed=3,
        mode="table",
        stack=12,
        chunk_size=50,
        workers=2,
    )


def test_defaults_and_bot_names() -> None:
    r = simulate(hands=20, seed=1, players=4)
    assert [s.bot for s in r.seats] == ["heuristic"] * 4
    assert r.stack == 400 and r.rules == Rules()
    r = simulate(["random", "heuristic"], hands=20, seed=1)
    assert [s.bot for s in r.seats] == ["random", "heuristic"]
    r = simulate("random", hands=10, seed=1, players=3)
    assert r.players == 3
    big = simulate("random", hands=10, seed=1, players=8)
    assert big.rules.max_players == 8 and sum(s.net for s in big.seats) == 0


def test_seed_none_is_recorded_so_the_run_can_be_repeated() -> None:
    r = simulate([RandomBot(), RandomBot()], hands=30)
    assert isinstance(r.seed, int)
    assert simulate([RandomBot(), RandomBot()], hands=30, seed=r.seed) == r


def test_progress_callback_and_json(serial: SimulationResult) -> None:
    seen: list[tuple[int, int]] = []
    _run(progress=lambda done, total: seen.append((done, total)))
    assert seen[-1] == (240, 240) and len(seen) == 4
    d = json.loads(json.dumps(serial.to_dict()))
    assert d["seats"][1]["bot"] == "random" and d["hands"] == 240
    assert "hands/s" in serial.summary()
    assert serial.hands_per_second > 0


def test_timing_is_not_part_of_equality(serial: SimulationResult) -> None:
    import dataclasses

    assert dataclasses.replace(serial, elapsed=99.0, executor="x") == serial


def test_package_exports() -> None:
    assert triple_draw.simulate is simulate
    assert triple_draw.SimulationResult is SimulationResult


@pytest.mark.parametrize(
    "kw, match",
    [
        ({"hands": 0}, "hands"),
        ({"seed": -1}, "seed"),
        ({"seed": 2**256}, "seed"),
        ({"chunk_size": 0}, "chunk_size"),
        ({"mode": "tournament"}, "mode"),
        ({"players": 4}, "3 bots given for 4 players"),
        ({"stack": 0}, "stack"),
        ({"executor": "gpu"}, "unknown executor"),
        ({"workers": 0}, "workers"),
        ({"rules": Rules(max_players=2)}, "do not fit"),
    ],
)
def test_bad_arguments_raise_value_errors(kw: dict, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        simulate(BOTS, **{"hands": 10, "seed": 1, **kw})


def test_bad_executor_object_is_a_type_error() -> None:
    with pytest.raises(TypeError):
        simulate(BOTS, hands=10, seed=1, executor=object())


def test_progress_true_draws_a_bar_on_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    simulate([RandomBot(), RandomBot()], hands=40, seed=1, chunk_size=10, progress=True)
    assert "simulate" in capsys.readouterr().err


_START_METHOD = """
import threading, time
from triple_draw._executors import _process_pool
{setup}
pool = _process_pool(2)
print(pool._mp_context.get_start_method())
pool.shutdown()
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the fork choice is Linux's")
@pytest.mark.parametrize(
    ("setup", "method"),
    [
        ("", "fork"),
        ("threading.Thread(target=time.sleep, args=(2,), daemon=True).start()", "forkserver"),
        (  # the compiled core's thread pool: native threads count too
            "import numpy as np, triple_draw as td; "
            "td.evaluate_batch(np.tile(np.arange(5, dtype=np.uint8), (64, 1)), threads=2)",
            "forkserver",
        ),
    ],
    ids=["single-threaded", "a-python-thread", "a-native-thread"],
)
def test_worker_processes_fork_only_from_a_single_threaded_process(setup: str, method: str) -> None:
    """docs/simulation.md, workers: a plain fork (cheap) only when nothing else runs in
    the process, else the fork server."""
    run = subprocess.run(
        [sys.executable, "-c", _START_METHOD.format(setup=setup)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == [method]


def test_two_forked_workers_give_the_serial_result() -> None:
    code = (
        "import json, triple_draw as td\n"
        "a = td.simulate(players=4, hands=600, seed=9, chunk_size=100)\n"
        "b = td.simulate(players=4, hands=600, seed=9, chunk_size=100, workers=2)\n"
        "print(json.dumps([a.to_dict()['seats'] == b.to_dict()['seats'], b.executor]))\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout) == [True, "processes(2)"]
