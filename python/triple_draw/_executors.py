"""Running independent, picklable work items on whatever executor the caller chose.

:func:`run_ordered` takes a module-level function and an iterable of argument tuples and
hands the results, in input order, to a callback, whatever ran them: this thread, a thread
pool, a process pool, a Ray cluster (:class:`RayExecutor`), any
``concurrent.futures.Executor``, or any pool with an ordered ``imap``/``map``
(``multiprocessing.Pool``, ``ray.util.multiprocessing.Pool``). The work items are drawn
from the iterable lazily and only a few per worker are in flight at once, so a run of any
length holds a bounded number of items and results in memory. Callers reduce the results
in input order, so their output never depends on how the work was spread.
"""

from __future__ import annotations

import concurrent.futures as cf
import multiprocessing as mp
import itertools
import os
import sys
from collections.abc import Callable, Iterable
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from triple_draw.errors import (
    ArgumentError,
    ArgumentTypeError,
    MissingExtraError,
    TripleDrawError,
)

__all__ = [
    "ExecutorStartError",
    "WorkersLostError",
    "RayExecutor",
    "MAX_WORKERS",
    "run_ordered",
    "resolve_executor",
]


class ExecutorShutdownError(TripleDrawError, RuntimeError):
    """Work submitted to an executor that was shut down (a ``RuntimeError``, as
    ``concurrent.futures`` raises)."""


class ExecutorStartError(TripleDrawError, RuntimeError):
    """An executor could not start: a Ray node that would not start, or no Ray cluster at
    the address given (the message says what failed and what to check)."""


class WorkersLostError(TripleDrawError, BrokenProcessPool):
    """A worker process of a pool the run started stopped before the run finished: it
    was killed (out of memory?), or it could not start the calling program again - a
    script that runs workers must keep its top-level code under ``if __name__ ==
    "__main__":`` and be a file, not standard input. ``workers=1`` runs in this process.
    It is a :class:`concurrent.futures.process.BrokenProcessPool` too."""


def _ray_start_failure(address: str | None, e: BaseException) -> str:
    """One line: why Ray did not start, and what to check."""
    lines = [line.strip() for line in str(e).splitlines() if line.strip()]
    why = f"{type(e).__name__}: {lines[0]}" if lines else type(e).__name__
    if len(why) > 300:
        why = why[:297] + "..."
    where = os.environ.get("RAY_ADDRESS") if address is None else address
    if where:
        check = (
            f"check that a Ray cluster is running at {where!r} and reachable from here "
            "('ray status' there), or unset RAY_ADDRESS to start a local node"
        )
    else:
        check = (
            "check that a local Ray node can start here ('ray start --head' shows why not: "
            "free memory and space in /dev/shm and /tmp, the ports Ray needs, a "
            "conflicting RAY_ADDRESS)"
        )
    return f"could not start Ray ({why}); {check}"


class RayExecutor(cf.Executor):
    """A ``concurrent.futures.Executor`` that runs each submitted call as a Ray task.

    ``RayExecutor(address=None, *, task_cpus=1, **ray_init_kwargs)``

    - If Ray is not initialised yet, the first ``submit`` calls
      ``ray.init(address=address, **ray_init_kwargs)`` (``address="auto"`` joins a running
      cluster; ``None`` starts a local runtime) and :meth:`shutdown` shuts it down again.
      If Ray was already initialised by the caller, it is used as is and left running.
    - ``task_cpus``: CPUs reserved per task (Ray's ``.options(num_cpus=...)``).
    - ``ray_init_kwargs``: passed to ``ray.init`` when this executor starts Ray, e.g.
      ``RayExecutor(num_cpus=4, include_dashboard=False)``.

    The function and its arguments are pickled (cloudpickle) and sent to the workers, so
    ``triple_draw`` must be installed on every node of the cluster.
    Requires the optional extra ``triple_draw[ray]``.
    """

    def __init__(
        self, address: str | None = None, *, task_cpus: float = 1, **ray_init_kwargs: Any
    ) -> None:
        _require_ray()
        if address is not None and not isinstance(address, str):
            raise ArgumentTypeError(f"address must be a str or None, got {address!r}")
        if (
            isinstance(task_cpus, bool)
            or not isinstance(task_cpus, (int, float))
            or not 0 < task_cpus < float("inf")
        ):
            raise ArgumentError(f"task_cpus must be a number > 0, got {task_cpus!r}")
        self.address = address
        self.task_cpus = task_cpus
        self.ray_init_kwargs = ray_init_kwargs
        self._owns_ray = False
        self._task: Any = None
        self._shutdown = False

    def _ensure_ray(self) -> Any:
        import ray

        if not ray.is_initialized():
            try:
                ray.init(address=self.address, **self.ray_init_kwargs)
            except Exception as e:  # Ray raises many kinds: ConnectionError, RuntimeError, ...
                self._stop_failed_start(ray)
                raise ExecutorStartError(_ray_start_failure(self.address, e)) from e
            self._owns_ray = True
        return ray

    @staticmethod
    def _stop_failed_start(ray: Any) -> None:
        """Stops what a failed ``ray.init`` may have left running (its own processes)."""
        try:
            ray.shutdown()
        except Exception:  # best effort: the start error is what is reported
            pass

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> cf.Future[Any]:
        if self._shutdown:
            raise ExecutorShutdownError("cannot submit to a RayExecutor after shutdown")
        ray = self._ensure_ray()
        if self._task is None:
            # one remote wrapper for every callable (builtins and callable objects too)
            self._task = ray.remote(_call).options(num_cpus=self.task_cpus)
        ref = self._task.remote(fn, *args, **kwargs)
        fut: cf.Future[Any] = ref.future()
        return fut

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self._shutdown = True
        self._task = None
        if self._owns_ray:
            import ray

            ray.shutdown()
            self._owns_ray = False

    def __repr__(self) -> str:
        return f"RayExecutor(address={self.address!r}, task_cpus={self.task_cpus})"

    def __reduce__(self) -> Any:  # an executor is never sent anywhere; keep pickling honest
        raise ArgumentTypeError("a RayExecutor cannot be pickled")


def _require_ray() -> None:
    try:
        import ray  # noqa: F401
    except ImportError:
        raise MissingExtraError(
            "the ray executor needs Ray, which is not installed: pip install 'triple_draw[ray]'"
        ) from None


#: The most workers an executor created by name may have.
MAX_WORKERS = 256


def _call(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    return fn(*args, **kwargs)


def _process_pool(n: int) -> cf.ProcessPoolExecutor:
    """A pool of ``n`` worker processes, started the cheapest safe way:

    - a plain fork (about 10 ms for two workers) where the platform forks cleanly (Linux)
      and this process runs a single thread - of any kind, the compiled core's pools and
      other libraries' native threads included (``/proc/self/task``): the workers start
      with everything already imported;
    - otherwise, where the platform has it, a fork server that has already imported the
      simulation code (about 0.1 s to start once per process): a plain fork would copy
      the other threads' state (Ray's, a thread pool's, locks they hold) into the child,
      where it can crash or deadlock;
    - otherwise the platform's default (spawn: every worker imports the package)."""
    if _single_threaded() and "fork" in mp.get_all_start_methods():
        return cf.ProcessPoolExecutor(max_workers=n, mp_context=mp.get_context("fork"))
    if "forkserver" in mp.get_all_start_methods():
        ctx = mp.get_context("forkserver")
        ctx.set_forkserver_preload(["triple_draw.simulation"])
        return cf.ProcessPoolExecutor(max_workers=n, mp_context=ctx)
    return cf.ProcessPoolExecutor(max_workers=n)


def _single_threaded() -> bool:
    """Whether this process runs exactly one thread (Linux only: elsewhere ``False``)."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        return len(os.listdir("/proc/self/task")) == 1
    except OSError:
        return False


def resolve_executor(
    executor: Any, workers: int | None, items: int | None = None
) -> tuple[Any, bool, str]:
    """``(executor or None for in-process, owned, description)``.

    ``executor``: ``None`` (in-process unless ``workers > 1``: a process pool), an
    ``Executor`` or pool object (used as is, not shut down), or one of the strings
    ``"serial"``, ``"threads"``, ``"processes"``, ``"ray"`` (created here, shut down after).
    ``workers``: 1..:data:`MAX_WORKERS`; a pool created here never gets more workers than
    there are ``items`` of work."""
    if workers is not None and (type(workers) is not int or not 1 <= workers <= MAX_WORKERS):
        raise ArgumentError(f"workers must be an int 1..{MAX_WORKERS}, got {workers!r}")

    def size(n: int) -> int:
        return max(1, min(n, items)) if items is not None else n

    if executor is None:
        if workers is None or size(workers) == 1:
            return None, False, "serial"
        n = size(workers)
        return _process_pool(n), True, f"processes({n})"
    if isinstance(executor, str):
        name = executor.lower()
        n = size(workers or os.cpu_count() or 1)
        if name in ("serial", "none", "inline"):
            return None, False, "serial"
        if name in ("threads", "thread"):
            return cf.ThreadPoolExecutor(max_workers=n), True, f"threads({n})"
        if name in ("processes", "process"):
            return _process_pool(n), True, f"processes({n})"
        if name == "ray":
            return RayExecutor(), True, "ray"
        raise ArgumentError(
            f"unknown executor {executor!r}: "
            "use 'serial', 'threads', 'processes', 'ray' or an Executor"
        )
    if callable(getattr(executor, "submit", None)) or callable(getattr(executor, "map", None)):
        return executor, False, type(executor).__name__
    raise ArgumentTypeError(
        f"executor must be a concurrent.futures.Executor (or a pool with map), got {executor!r}"
    )


def run_ordered(
    fn: Callable[..., Any],
    args: Iterable[tuple[Any, ...]],
    executor: Any = None,
    on_result: Callable[[int, Any], None] | None = None,
    *,
    in_flight: int | None = None,
) -> None:
    """Run ``fn(*a)`` for each ``a`` of ``args`` on ``executor`` and call
    ``on_result(index, result)`` for each, in input order.

    ``args`` is consumed lazily: at most ``in_flight`` items (default: four per worker of
    the executor, at least 8) are submitted and not yet handed to ``on_result``. If an item
    fails, or ``on_result`` raises (``KeyboardInterrupt`` included), the items not started
    yet are cancelled and the error propagates."""
    it = iter(args)
    if executor is None:
        for i, a in enumerate(it):
            r = fn(*a)
            if on_result is not None:
                on_result(i, r)
        return
    if callable(getattr(executor, "submit", None)):
        limit = in_flight or max(8, 4 * _workers_of(executor))
        pending: dict[int, cf.Future[Any]] = {}
        nxt = 0  # the next index to hand over
        index = 0  # the next index to submit
        try:
            for a in itertools.islice(it, limit):
                pending[index] = executor.submit(fn, *a)
                index += 1
            while pending:
                r = pending.pop(nxt).result()
                if on_result is not None:
                    on_result(nxt, r)
                nxt += 1
                for a in itertools.islice(it, 1):
                    pending[index] = executor.submit(fn, *a)
                    index += 1
        except BaseException:
            for fut in pending.values():
                fut.cancel()
            raise
        return
    # a pool with an ordered imap (multiprocessing.Pool, ray.util.multiprocessing.Pool):
    # imap consumes the iterable lazily; plain map needs the items at once
    imap = getattr(executor, "imap", None)
    results = imap(_Star(fn), it) if callable(imap) else executor.map(_Star(fn), list(it))
    for i, r in enumerate(results):
        if on_result is not None:
            on_result(i, r)


def _workers_of(executor: Any) -> int:
    n = getattr(executor, "_max_workers", None)
    return n if type(n) is int and n > 0 else os.cpu_count() or 1


class _Star:
    """``fn(*args)`` as a picklable one-argument callable for pools' ``map``."""

    def __init__(self, fn: Callable[..., Any]) -> None:
        self.fn = fn

    def __call__(self, a: tuple[Any, ...]) -> Any:
        return self.fn(*a)


def run_chunks(
    fn: Callable[..., Any],
    args: Iterable[tuple[Any, ...]],
    executor: Any,
    workers: int | None,
    n_chunks: int,
    on_done: Callable[[int, Any], int],
    *,
    progress: Any,
    total: int,
    unit: str,
    unit_scale: bool = False,
) -> tuple[str, float]:
    """A run of chunks, as ``simulate`` and the tournament simulator make one: ``fn(*a)``
    for each ``a`` of ``args`` on the executor :func:`resolve_executor` gives for
    ``executor``/``workers``, each result handed in order to ``on_done(index, result)``,
    which returns how many of the ``total`` units (hands, tournaments) are done; a tqdm bar
    on stderr follows them when ``progress is True``. An executor made here is shut down
    at the end, at once with its pending work cancelled on an error or Ctrl-C. Returns the
    executor's description and the run's seconds."""
    import time

    bar: Any = None
    ex, owned, desc = resolve_executor(executor, workers, n_chunks)
    t0 = time.perf_counter()
    try:
        if progress is True:
            from tqdm import tqdm

            bar = tqdm(
                total=total,
                unit=unit,
                unit_scale=unit_scale,
                file=sys.stderr,
                desc="simulate",
                leave=False,
            )

        def on_result(i: int, part: Any) -> None:
            done = on_done(i, part)
            if bar is not None:
                bar.update(done - bar.n)

        run_ordered(fn, args, ex, on_result)
    except BaseException as e:
        if owned:
            ex.shutdown(wait=False, cancel_futures=True)
            owned = False
            if isinstance(e, BrokenProcessPool):
                raise WorkersLostError(
                    f"a worker process stopped before the run finished ({e}): it was killed "
                    "(out of memory?), or it could not start this program again - a script "
                    "that runs workers must keep its top-level code under `if __name__ == "
                    '"__main__":` and be a file, not standard input; workers=1 runs here'
                ) from e
        raise
    finally:
        if owned:
            ex.shutdown(wait=True, cancel_futures=True)
        if bar is not None:
            bar.close()
    return desc, time.perf_counter() - t0
