"""Long analyses (docs/cli.md, the analysis module's "Long runs"): with ``progress=True``
a kernel runs on a worker thread, a tqdm display appears on stderr once it has run for a
second, the result is the one of a plain call, errors come back unchanged, and the
bounds of ``threads`` and ``trials`` are checked before anything runs."""

from __future__ import annotations

import time

import pytest

from triple_draw.analysis import (
    MAX_THREADS,
    MAX_TRIALS,
    best_discard,
    draw_odds,
    equity,
    run_with_progress,
)
from triple_draw.errors import AnalysisError, TripleDrawError


def test_a_run_longer_than_a_second_shows_the_progress_display(
    capsys: pytest.CaptureFixture[str],
) -> None:
    def slow() -> int:
        time.sleep(1.6)
        return 7

    assert run_with_progress(slow, "equity") == 7
    err = capsys.readouterr().err
    assert "equity: running for" in err


def test_a_short_run_shows_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_with_progress(lambda: 3, "equity") == 3
    r = equity(["7c5d4h3sKd", "8c6d5h4s2c"], draws_left=1, progress=True)
    assert capsys.readouterr().err == ""
    assert r == equity(["7c5d4h3sKd", "8c6d5h4s2c"], draws_left=1)


def test_progress_gives_the_plain_results() -> None:
    kw = dict(draws_left=2, target="8", seed=5, trials=20_000, threads=1)
    assert best_discard("7c5d4h3sKd", progress=True, **kw) == best_discard(  # type: ignore[arg-type]
        "7c5d4h3sKd",
        **kw,  # type: ignore[arg-type]
    )
    a = draw_odds("7c5d4h3sKd", "Kd", draws=2, progress=True)
    b = draw_odds("7c5d4h3sKd", "Kd", draws=2)
    assert a.exact and a.outcomes == b.outcomes and (a.probabilities == b.probabilities).all()


def test_errors_come_back_through_the_worker_thread() -> None:
    def boom() -> None:
        raise AnalysisError("no such thing")

    with pytest.raises(AnalysisError, match="no such thing"):
        run_with_progress(boom, "equity")
    with pytest.raises(AnalysisError):
        equity(["7c5d4h3sKd", "7c5d4h3sKd"], draws_left=1, progress=True)


@pytest.mark.parametrize(
    "kw",
    [
        {"threads": MAX_THREADS + 1},
        {"threads": 2**63},
        {"threads": 0},
        {"trials": MAX_TRIALS + 1},
        {"trials": 0},
    ],
)
def test_threads_and_trials_beyond_their_bounds_are_package_errors(kw: dict) -> None:
    with pytest.raises(TripleDrawError):
        equity(["7c5d4h3sKd", None], draws_left=2, **kw)


def test_progress_must_be_a_bool() -> None:
    with pytest.raises(TypeError):
        equity(["7c5d4h3sKd", None], draws_left=0, progress="yes")  # type: ignore[arg-type]
