"""Scale-out on Ray: simulate's chunks run as Ray tasks on a real local Ray runtime (started
here, shut down after) and give exactly the single-process result for the same seed."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

ray = pytest.importorskip("ray")

from triple_draw.bots import HeuristicBot, RandomBot  # noqa: E402
from triple_draw.simulation import RayExecutor, SimulationResult, simulate  # noqa: E402

KW = dict(hands=120, seed=2024, chunk_size=30)


def _bots() -> list:
    return [HeuristicBot(), RandomBot(), HeuristicBot(bluff=0.3)]


@pytest.fixture(scope="module")
def in_process() -> SimulationResult:
    return simulate(_bots(), **KW)  # type: ignore[arg-type]


def _start_local_ray() -> None:
    ray.init(
        num_cpus=2,
        include_dashboard=False,
        log_to_driver=False,
        configure_logging=False,
        namespace="triple_draw_tests",
    )


def test_ray_executor_starts_and_stops_its_own_runtime(in_process: SimulationResult) -> None:
    # in another order the module's runtime (local_ray) is up: stopped for this test,
    # which needs none running, and started again after it
    running = ray.is_initialized()
    if running:  # pragma: no cover - depends on test order
        ray.shutdown()
    try:
        ex = RayExecutor(
            num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False
        )
        try:
            assert simulate(_bots(), executor=ex, **KW) == in_process  # type: ignore[arg-type]
            assert ray.is_initialized()
        finally:
            ex.shutdown()
        assert not ray.is_initialized()
    finally:
        if running:  # pragma: no cover - depends on test order
            _start_local_ray()


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    if ray.is_initialized():  # pragma: no cover - somebody else's runtime
        ray.shutdown()
    _start_local_ray()
    try:
        yield
    finally:
        ray.shutdown()


def test_ray_executor_result_equals_in_process_result(
    local_ray: None, in_process: SimulationResult
) -> None:
    ex = RayExecutor()
    try:
        r = simulate(_bots(), executor=ex, **KW)  # type: ignore[arg-type]
    finally:
        ex.shutdown()
    assert r == in_process
    assert r.chunks == 4
    assert ray.is_initialized()  # a runtime it did not start is left running


def test_executor_name_ray_uses_the_running_runtime(
    local_ray: None, in_process: SimulationResult
) -> None:
    assert simulate(_bots(), executor="ray", **KW) == in_process  # type: ignore[arg-type]
    assert ray.is_initialized()


def test_process_path_equals_in_process_path(in_process: SimulationResult) -> None:
    assert simulate(_bots(), workers=2, **KW) == in_process  # type: ignore[arg-type]


def test_ray_executor_is_a_concurrent_futures_executor(local_ray: None) -> None:
    import concurrent.futures as cf

    ex = RayExecutor()
    assert isinstance(ex, cf.Executor)
    fut = ex.submit(pow, 3, 4)
    assert fut.result(timeout=60) == 81
    ex.shutdown()
    with pytest.raises(RuntimeError):
        ex.submit(pow, 2, 2)


def test_tournaments_on_ray_equal_the_in_process_run(local_ray: None) -> None:
    """``simulate --tournament`` reuses the same executors: a sit & go run as Ray tasks
    gives exactly the single-process result for the same seed."""
    from triple_draw.tournament_sim import simulate_tournaments

    here = simulate_tournaments("sng6", tournaments=4, seed=7, chunk_size=1)
    there = simulate_tournaments("sng6", tournaments=4, seed=7, chunk_size=2, executor="ray")
    assert there == here
