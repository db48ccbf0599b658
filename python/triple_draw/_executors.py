"""Running independent, picklable work items on whatever executor the caller chose.

:func:`run_ordered` takes a module-level function and a list of argument tuples and
returns the results in input order, whatever ran them: this thread, a thread pool, a
process pool, a Ray cluster (:class:`RayExecutor`), any ``concurrent.futures.Executor``,
or any pool with an ordered ``map`` (``multiprocessing.Pool``,
``ray.util.multiprocessing.Pool``). Callers reduce the results in that order, so their
output never depends on how the work was spread.
"""

from __future__ import annotations

import concurrent.futures as cf
import os
from collections.abc import Callable, Sequence
from typing import Any

__all__ = ["RayExecutor", "run_ordered", "resolve_executor"]


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
        try:
            import ray  # noqa: F401
        except ImportError as e:  # pragma: no cover - depends on the environment
            raise ImportError("RayExecutor needs Ray: pip install 'triple_draw[ray]'") from e
        self.address = address
        self.task_cpus = task_cpus
        self.ray_init_kwargs = ray_init_kwargs
        self._owns_ray = False
        self._task: Any = None
        self._shutdown = False

    def _ensure_ray(self) -> Any:
        import ray

        if not ray.is_initialized():
            ray.init(address=self.address, **self.ray_init_kwargs)
            self._owns_ray = True
        return ray

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> cf.Future[Any]:
        if self._shutdown:
            raise RuntimeError("cannot submit to a RayExecutor after shutdown")
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
        raise TypeError("a RayExecutor cannot be pickled")


def _call(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    return fn(*args, **kwargs)


def resolve_executor(executor: Any, workers: int | None) -> tuple[Any, bool, str]:
    """``(executor or None for in-process, owned, description)``.

    ``executor``: ``None`` (in-process unless ``workers > 1``: a process pool), an
    ``Executor`` or pool object (used as is, not shut down), or one of the strings
    ``"serial"``, ``"threads"``, ``"processes"``, ``"ray"`` (created here, shut down after)."""
    if workers is not None and (type(workers) is not int or workers < 1):
        raise ValueError(f"workers must be an int >= 1, got {workers!r}")
    if executor is None:
        if workers is None or workers == 1:
            return None, False, "serial"
        return cf.ProcessPoolExecutor(max_workers=workers), True, f"processes({workers})"
    if isinstance(executor, str):
        name = executor.lower()
        n = workers or os.cpu_count() or 1
        if name in ("serial", "none", "inline"):
            return None, False, "serial"
        if name in ("threads", "thread"):
            return cf.ThreadPoolExecutor(max_workers=n), True, f"threads({n})"
        if name in ("processes", "process"):
            return cf.ProcessPoolExecutor(max_workers=n), True, f"processes({n})"
        if name == "ray":
            return RayExecutor(), True, "ray"
        raise ValueError(
            f"unknown executor {executor!r}: "
            "use 'serial', 'threads', 'processes', 'ray' or an Executor"
        )
    if callable(getattr(executor, "submit", None)) or callable(getattr(executor, "map", None)):
        return executor, False, type(executor).__name__
    raise TypeError(
        f"executor must be a concurrent.futures.Executor (or a pool with map), got {executor!r}"
    )


def run_ordered(
    fn: Callable[..., Any],
    args: Sequence[tuple[Any, ...]],
    executor: Any = None,
    on_done: Callable[[int, Any], None] | None = None,
) -> list[Any]:
    """``[fn(*a) for a in args]``, run on ``executor``; ``on_done(index, result)`` is called
    as each item finishes (in completion order), the returned list is in input order."""
    out: list[Any] = [None] * len(args)
    if executor is None:
        for i, a in enumerate(args):
            out[i] = fn(*a)
            if on_done is not None:
                on_done(i, out[i])
        return out
    if callable(getattr(executor, "submit", None)):
        futures = {executor.submit(fn, *a): i for i, a in enumerate(args)}
        try:
            for fut in cf.as_completed(futures):
                i = futures[fut]
                out[i] = fut.result()
                if on_done is not None:
                    on_done(i, out[i])
        except BaseException:
            for fut in futures:
                fut.cancel()
            raise
        return out
    # a pool with an ordered map (multiprocessing.Pool, ray.util.multiprocessing.Pool)
    mapper = getattr(executor, "imap", None) or executor.map
    for i, r in enumerate(mapper(_Star(fn), list(args))):
        out[i] = r
        if on_done is not None:
            on_done(i, r)
    return out


class _Star:
    """``fn(*args)`` as a picklable one-argument callable for pools' ``map``."""

    def __init__(self, fn: Callable[..., Any]) -> None:
        self.fn = fn

    def __call__(self, a: tuple[Any, ...]) -> Any:
        return self.fn(*a)
