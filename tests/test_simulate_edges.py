"""simulate at its edges (docs/simulation.md): work generated lazily with a bounded number
of chunks in flight, never more workers than chunks, bounded sizes, package errors."""

from __future__ import annotations

import concurrent.futures as cf
import itertools
from collections.abc import Iterator

import pytest

from triple_draw._executors import MAX_WORKERS, resolve_executor, run_ordered
from triple_draw.errors import ArgumentError, ArgumentTypeError, TripleDrawError
from triple_draw.simulation import MAX_HANDS, simulate


class _StopError(Exception):
    pass


def _square(x: int) -> int:
    return x * x


@pytest.mark.parametrize("executor", [None, "threads"])
def test_work_items_are_drawn_lazily_and_few_are_in_flight(executor: str | None) -> None:
    drawn = 0

    def items() -> Iterator[tuple[int]]:
        nonlocal drawn
        for i in itertools.count():
            drawn += 1
            yield (i,)

    got: list[int] = []

    def on_result(i: int, r: int) -> None:
        got.append(r)
        if len(got) == 5:
            raise _StopError

    pool = cf.ThreadPoolExecutor(2) if executor else None
    try:
        with pytest.raises(_StopError):
            run_ordered(_square, items(), pool, on_result, in_flight=4)
    finally:
        if pool is not None:
            pool.shutdown()
    assert got == [0, 1, 4, 9, 16]  # in input order
    assert drawn <= 5 + 4


def test_a_huge_run_starts_at_once_and_stops_when_asked() -> None:
    seen = []

    def progress(done: int, total: int) -> None:
        seen.append((done, total))
        raise _StopError

    with pytest.raises(_StopError):
        simulate(["random", "random"], hands=MAX_HANDS, seed=1, chunk_size=50, progress=progress)
    assert seen == [(50, MAX_HANDS)]


def test_never_more_workers_than_chunks() -> None:
    assert simulate(["random"] * 2, hands=1, seed=1, workers=64).executor == "serial"
    r = simulate(["random"] * 2, hands=30, seed=1, chunk_size=10, executor="threads", workers=64)
    assert r.executor == "threads(3)"
    ex, owned, desc = resolve_executor("processes", 8, 2)
    try:
        assert desc == "processes(2)" and owned
    finally:
        ex.shutdown()


@pytest.mark.parametrize(
    ("kw", "error"),
    [
        ({"hands": MAX_HANDS + 1}, ArgumentError),
        ({"hands": 10, "workers": MAX_WORKERS + 1}, ArgumentError),
        ({"hands": 10, "workers": 0}, ArgumentError),
        ({"hands": 10, "executor": "nope"}, ArgumentError),
        ({"hands": 10, "executor": object()}, ArgumentTypeError),
        ({"hands": 10, "rules": "live"}, ArgumentTypeError),
        ({"hands": 10, "progress": "yes"}, ArgumentTypeError),
        ({"hands": 10, "bots": ["subprocess:Popen"] * 2}, ArgumentError),
        ({"hands": 10, "bots": [42, 42]}, ArgumentTypeError),
    ],
)
def test_bad_arguments_are_package_errors(kw: dict, error: type) -> None:
    with pytest.raises(error) as e:
        simulate(**kw)
    assert isinstance(e.value, TripleDrawError)


def test_decide_bots_and_act_bots_play_together() -> None:
    from triple_draw.bots import Bot, Observation

    class Folder(Bot):
        def decide(self, obs: Observation):  # type: ignore[no-untyped-def]
            if obs.phase == "draw":
                return {"kind": "discard", "cards": []}
            return "check" if obs.to_call == 0 else "fold"

    r = simulate([Folder(), "heuristic", "random"], hands=60, seed=4)
    assert sum(s.net for s in r.seats) == 0 and r.seats[0].bot == "Folder"


def test_workers_that_cannot_start_are_a_package_error_that_says_why() -> None:
    """A program read from standard input cannot be started again in a worker process
    (the fork server runs the main module from its path): the pool breaks, and the run
    says what happened and what to do instead of a bare ``BrokenProcessPool``."""
    import os
    import subprocess
    import sys

    program = (
        "import threading, time\n"
        # a second thread: the pool starts its workers from the fork server, not a fork
        "threading.Thread(target=time.sleep, args=(60,), daemon=True).start()\n"
        "import concurrent.futures.process as cfp\n"
        "import triple_draw as td\n"
        "from triple_draw.errors import TripleDrawError\n"
        "from triple_draw.simulation import WorkersLostError\n"
        "try:\n"
        "    td.simulate(['random'] * 2, hands=200, workers=2, seed=1, chunk_size=50)\n"
        "except WorkersLostError as e:\n"
        "    assert isinstance(e, TripleDrawError) and isinstance(e, cfp.BrokenProcessPool)\n"
        "    print('LOST:', e)\n"
    )
    done = subprocess.run(
        [sys.executable, "-"],
        input=program,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "LOST: a worker process stopped before the run finished" in done.stdout
    assert 'if __name__ == "__main__":' in done.stdout and "workers=1" in done.stdout
