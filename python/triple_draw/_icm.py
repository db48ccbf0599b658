"""The Independent Chip Model: what tournament chips are worth in prize money.

Malmuth-Harville: a player finishes first with probability his share of the chips; given
who finished in the places above, he finishes in the next place with his share of the
chips still left. :func:`icm` gives each player's expected prize - exactly, by summing
over every set of players who can take the paid places above a place, when that takes
at most ``exact_limit`` steps, and by sampling finishing orders otherwise (seeded; the
standard error of each figure is in :class:`ICMResult`). Both are exposed as
:func:`triple_draw.analysis.icm` and :func:`triple_draw.analysis.icm_result`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from triple_draw.errors import AnalysisError

__all__ = ["ICMResult", "icm", "icm_result", "ICM_EXACT_LIMIT", "ICM_TRIALS", "ICM_MAX_PLAYERS"]

#: The most steps (states times players) the exact sum may take before sampling instead:
#: about a second of pure Python. Ten players with every place paid take 10,240.
ICM_EXACT_LIMIT = 2_000_000
#: Finishing orders sampled by default when the exact sum is too long.
ICM_TRIALS = 200_000
#: The most players (stacks) :func:`icm` takes.
ICM_MAX_PLAYERS = 10_000
_MAX_TRIALS = 10**9


@dataclass(frozen=True)
class ICMResult:
    """Each player's expected prize (``equities``, in the payouts' units, in the order
    of the stacks), and how it was found: ``method`` ``"exact"`` (``errors`` all 0) or
    ``"sample"`` (``errors``: each figure's standard error; the true value lies within
    two of them of the figure 95% of the time), with the number of sampled ``trials``."""

    equities: tuple[float, ...]
    errors: tuple[float, ...]
    method: str
    trials: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "equities": list(self.equities),
            "errors": list(self.errors),
            "method": self.method,
            "trials": self.trials,
        }


def _numbers(values: Any, what: str, positive: bool) -> list[float]:
    if isinstance(values, (str, bytes)) or not isinstance(values, Sequence):
        raise AnalysisError(f"{what} must be a list of numbers, got {values!r}")
    out = []
    for x in values:
        if isinstance(x, bool) or not isinstance(x, (int, float)) or not math.isfinite(x):
            raise AnalysisError(f"{what}: every value must be a finite number, got {x!r}")
        if x < 0 or (positive and x == 0):
            bound = "> 0" if positive else ">= 0"
            raise AnalysisError(f"{what}: every value must be {bound}, got {x!r}")
        out.append(float(x))
    return out


def _check(stacks: Any, payouts: Any) -> tuple[list[float], list[float]]:
    s = _numbers(stacks, "stacks", positive=True)
    p = _numbers(payouts, "payouts", positive=False)
    if not 1 <= len(s) <= ICM_MAX_PLAYERS:
        raise AnalysisError(f"stacks: 1..{ICM_MAX_PLAYERS} players, got {len(s)}")
    if len(p) > ICM_MAX_PLAYERS:
        raise AnalysisError(f"payouts: at most {ICM_MAX_PLAYERS} places")
    return s, p[: len(s)]


def _exact_steps(n: int, places: int) -> int:
    """States times players of the exact sum: the sets of fewer than ``places`` players."""
    states = sum(math.comb(n, k) for k in range(places))
    return states * n


def _exact(stacks: list[float], payouts: list[float]) -> list[float]:
    n = len(stacks)
    places = len(payouts)
    eq = [0.0] * n
    total = sum(stacks)
    # layer k: {set of the players in the first k places (bit mask): probability}
    layer: dict[int, tuple[float, float]] = {0: (1.0, total)}  # mask -> (prob, chips left)
    for k in range(places):
        pay = payouts[k]
        nxt: dict[int, tuple[float, float]] = {}
        last = k == places - 1
        for mask, (prob, left) in layer.items():
            for j in range(n):
                bit = 1 << j
                if mask & bit:
                    continue
                pj = prob * stacks[j] / left
                eq[j] += pj * pay
                if not last:
                    m2 = mask | bit
                    old = nxt.get(m2)
                    nxt[m2] = (pj if old is None else old[0] + pj, left - stacks[j])
        layer = nxt
    return eq


def _sample(
    stacks: list[float], payouts: list[float], trials: int, seed: int
) -> tuple[list[float], list[float]]:
    """Finishing orders drawn by the exponential race (each player's time is Exp(1)
    divided by his chips; the order of the times is Malmuth-Harville's)."""
    n = len(stacks)
    places = len(payouts)
    s = np.asarray(stacks, dtype=np.float64)
    pay = np.asarray(payouts, dtype=np.float64)
    rng = np.random.default_rng(seed)
    total = np.zeros(n)
    total_sq = np.zeros(n)
    done = 0
    batch = max(1, min(trials, 4_000_000 // max(n, 1)))
    while done < trials:
        b = min(batch, trials - done)
        times = rng.exponential(size=(b, n)) / s
        if places < n:
            top = np.argpartition(times, places - 1, axis=1)[:, :places]
            order = np.take_along_axis(top, np.argsort(np.take_along_axis(times, top, 1), 1), 1)
        else:
            order = np.argsort(times, axis=1)
        won = np.zeros((b, n))
        rows = np.arange(b)[:, None]
        won[rows, order] = pay[None, :]
        total += won.sum(axis=0)
        total_sq += (won * won).sum(axis=0)
        done += b
    mean = total / trials
    var = np.maximum(total_sq / trials - mean * mean, 0.0)
    err = np.sqrt(var / max(trials - 1, 1))
    return [float(x) for x in mean], [float(x) for x in err]


def icm_result(
    stacks: Sequence[float],
    payouts: Sequence[float],
    *,
    method: str = "auto",
    trials: int = ICM_TRIALS,
    seed: int = 0,
    exact_limit: int = ICM_EXACT_LIMIT,
) -> ICMResult:
    """Malmuth-Harville equities of ``stacks`` (chips, > 0) for ``payouts`` (the prize
    of 1st, 2nd, ... place; places beyond the list pay nothing, prizes beyond the number
    of players are not reached), as an :class:`ICMResult`.

    ``method``: ``"auto"`` (exact when the sum takes at most ``exact_limit`` steps,
    else sampled), ``"exact"`` or ``"sample"``; ``trials`` and ``seed`` (an int) of the
    sampling (the same seed gives the same figures)."""
    s, p = _check(stacks, payouts)
    if method not in ("auto", "exact", "sample"):
        raise AnalysisError(f"method must be 'auto', 'exact' or 'sample', got {method!r}")
    if type(trials) is not int or not 1 <= trials <= _MAX_TRIALS:
        raise AnalysisError(f"trials must be an int 1..{_MAX_TRIALS}, got {trials!r}")
    if type(seed) is not int or seed < 0:
        raise AnalysisError(f"seed must be an int >= 0, got {seed!r}")
    if type(exact_limit) is not int or exact_limit < 0:
        raise AnalysisError(f"exact_limit must be an int >= 0, got {exact_limit!r}")
    while p and p[-1] == 0:
        p.pop()
    n = len(s)
    if not p:
        return ICMResult((0.0,) * n, (0.0,) * n, "exact")
    steps = _exact_steps(n, len(p))
    if method == "exact" or (method == "auto" and steps <= exact_limit):
        if steps > 50 * ICM_EXACT_LIMIT:
            raise AnalysisError(
                f"the exact sum for {n} players and {len(p)} paid places takes {steps:.2e} "
                "steps: use method='sample'"
            )
        return ICMResult(tuple(_exact(s, p)), (0.0,) * n, "exact")
    eq, err = _sample(s, p, trials, seed)
    return ICMResult(tuple(eq), tuple(err), "sample", trials)


def icm(
    stacks: Sequence[float],
    payouts: Sequence[float],
    *,
    method: str = "auto",
    trials: int = ICM_TRIALS,
    seed: int = 0,
) -> tuple[float, ...]:
    """Each player's expected prize by the Independent Chip Model (Malmuth-Harville),
    in the order of ``stacks`` (see :func:`icm_result` for the arguments and the error
    of sampled figures).

    >>> [round(x, 4) for x in icm([5000, 3000, 2000], [50, 30, 20])]
    [38.3929, 32.75, 28.8571]
    """
    return icm_result(stacks, payouts, method=method, trials=trials, seed=seed).equities
