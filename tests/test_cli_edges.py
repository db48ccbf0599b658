"""The command line at its edges (docs/cli.md): arguments beyond their documented bounds,
bots that are not bots, missing optional extras, Ctrl-C, the JSON documents' version, and
the play screen's wording. Each bad argument is one line on stderr and exit status 2."""

from __future__ import annotations

import argparse
import builtins
import io
import json
import os
import signal
import subprocess
from pathlib import Path
import sys
import time
import types
from typing import Any

import pytest

from triple_draw.cli import JSON_SCHEMA_VERSION, MAX_HANDS, MAX_THREADS, MAX_TRIALS, main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def one_line_error(code: int, err: str, *words: str) -> None:
    assert code == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    for w in words:
        assert w in lines[0], (w, lines[0])


# -- bots that are not bots -------------------------------------------------------------------


@pytest.mark.parametrize(
    "spec", ["subprocess:Popen", "os:system", "builtins:print", "triple_draw.bots:make_bot"]
)
def test_bots_naming_a_class_that_is_not_a_bot_is_refused_before_it_is_called(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, spec: str
) -> None:
    import subprocess as sp

    def trap(*a: Any, **k: Any) -> None:  # pragma: no cover - must never run
        raise AssertionError("the named callable was called")

    monkeypatch.setattr(sp, "Popen", trap)
    code, _, err = run(capsys, "simulate", "--hands", "5", "--bots", spec)
    one_line_error(code, err, "--bots", "not a bot class")


def test_bots_naming_a_bot_class_by_import_path_works(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "simulate", "--hands", "20", "--seed", "1", "--bots", "triple_draw.bots:RandomBot"
    )
    assert code == 0 and "RandomBot" not in out and "random" in out


# -- bounds -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["simulate", "--hands", str(10**15)], ["--hands", "between 1 and"]),
        (["simulate", "--hands", str(MAX_HANDS + 1)], ["--hands"]),
        (["simulate", "--workers", "64", "--hands", "1"], ["--workers 64", "1 chunk"]),
        (["simulate", "--workers", "3", "--hands", "2000"], ["--workers 3", "2 chunks"]),
        (["simulate", "--workers", "100000"], ["--workers"]),
        (["equity", "7c5d4h3sKd", "?", "--threads", str(MAX_THREADS + 1)], ["--threads"]),
        (["equity", "7c5d4h3sKd", "?", "--threads", str(2**63)], ["--threads"]),
        (["discard", "7c5d4h3sKd", "--trials", str(MAX_TRIALS + 1)], ["--trials"]),
        (["equity", "7c5d4h3sKd", "?", "--trials", "0"], ["--trials"]),
    ],
)
def test_arguments_beyond_their_documented_bounds_exit_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], words: list[str]
) -> None:
    code, _, err = run(capsys, *argv)
    one_line_error(code, err, *words)


def test_the_bounds_are_the_libraries_bounds() -> None:
    from triple_draw import analysis, simulation
    from triple_draw._executors import MAX_WORKERS
    from triple_draw.cli import MAX_WORKERS as CLI_MAX_WORKERS

    assert simulation.MAX_HANDS == MAX_HANDS
    assert analysis.MAX_THREADS == MAX_THREADS and analysis.MAX_TRIALS == MAX_TRIALS
    assert MAX_WORKERS == CLI_MAX_WORKERS


def test_workers_up_to_the_number_of_chunks_are_accepted(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["simulate", "--hands", "40", "--chunk-size", "20", "--seed", "3", "--json"]
    code, out, err = run(capsys, *argv, "--workers", "2", "--executor", "threads")
    assert code == 0, err
    code, out1, _ = run(capsys, *argv)
    a, b = json.loads(out), json.loads(out1)
    assert a["seats"] == b["seats"] and a["executor"] == "threads(2)"


# -- optional extras --------------------------------------------------------------------------


def test_ray_executor_without_ray_is_one_line_naming_the_extra(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    real_import = builtins.__import__

    def no_ray(name: str, *a: Any, **k: Any) -> Any:
        if name == "ray" or name.startswith("ray."):
            raise ImportError("No module named 'ray'")
        return real_import(name, *a, **k)

    monkeypatch.delitem(sys.modules, "ray", raising=False)
    monkeypatch.setattr(builtins, "__import__", no_ray)
    code, _, err = run(capsys, "simulate", "--hands", "10", "--executor", "ray")
    one_line_error(code, err, "pip install 'triple_draw[ray]'")


def _fake_ray(monkeypatch: pytest.MonkeyPatch, error: BaseException) -> list[str]:
    """A ``ray`` module whose ``init`` fails as Ray's does when no node can start or no
    cluster is at the address (no Ray needed, nothing waited for)."""
    calls: list[str] = []
    ray = types.ModuleType("ray")

    def init(address: str | None = None, **kwargs: Any) -> None:
        calls.append(f"init {address}")
        raise error

    ray.is_initialized = lambda: False  # type: ignore[attr-defined]
    ray.init = init  # type: ignore[attr-defined]
    ray.shutdown = lambda: calls.append("shutdown")  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "ray", ray)
    return calls


# What ray.init raises when nothing listens at the address, and when the local node does not
# come up (the message Ray prints after about 35 s, shortened).
NO_CLUSTER = ConnectionError(
    "Could not find any running Ray instance. Please specify the one to connect to by "
    "setting `--address` flag or `RAY_ADDRESS` environment variable."
)
NODE_TIMEOUT = Exception(
    "The current node timed out during startup. This could happen because some of the Ray "
    'processes failed to startup.\n  File "/x/ray/_private/node.py", line 1, in start'
)


def test_ray_that_cannot_connect_is_a_package_error_naming_the_address(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from triple_draw.errors import TripleDrawError
    from triple_draw.simulation import ExecutorStartError, RayExecutor

    assert issubclass(ExecutorStartError, TripleDrawError)
    calls = _fake_ray(monkeypatch, NO_CLUSTER)
    ex = RayExecutor(address="ray://127.0.0.1:1")
    with pytest.raises(ExecutorStartError) as info:
        ex.submit(int)
    e = info.value
    assert isinstance(e, RuntimeError) and e.__cause__ is NO_CLUSTER
    text = str(e)
    assert "\n" not in text and text.startswith("could not start Ray (ConnectionError: ")
    assert "'ray://127.0.0.1:1'" in text and "ray status" in text
    # what the failed start left running is shut down; the executor does not own Ray
    assert calls == ["init ray://127.0.0.1:1", "shutdown"]
    ex.shutdown()
    assert calls[-1] == "shutdown" and len(calls) == 2


@pytest.mark.parametrize("address", [None, "10.255.255.1:6379"])
def test_ray_node_that_cannot_start_is_one_line_and_status_2(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, address: str | None
) -> None:
    if address is None:
        monkeypatch.delenv("RAY_ADDRESS", raising=False)
    else:
        monkeypatch.setenv("RAY_ADDRESS", address)
    calls = _fake_ray(monkeypatch, NODE_TIMEOUT if address is None else NO_CLUSTER)
    code, out, err = run(capsys, "simulate", "--executor", "ray", "--hands", "1")
    assert out == ""
    if address is None:
        one_line_error(code, err, "could not start Ray", "timed out during startup",
                       "'ray start --head'", "/dev/shm")  # fmt: skip
        assert "node.py" not in err
    else:
        one_line_error(code, err, "could not start Ray", f"{address!r}", "RAY_ADDRESS")
    assert calls[0] == "init None" and calls[-1] == "shutdown"


def test_ray_start_failure_from_the_installed_command_has_no_traceback(
    tmp_path: Any,
) -> None:
    # The real entry point in a fresh process, Ray replaced by a package whose init fails.
    fake = tmp_path / "ray"
    fake.mkdir()
    (fake / "__init__.py").write_text(
        "def is_initialized():\n    return False\n"
        "def init(address=None, **kw):\n"
        "    raise RuntimeError('Failed to start the GCS server.\\nsee the logs')\n"
        "def shutdown():\n    pass\n"
    )
    path = os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")])
    env = dict(os.environ, PYTHONPATH=path)
    env.pop("RAY_ADDRESS", None)
    p = subprocess.run(
        [sys.executable, "-m", "triple_draw", "simulate", "--executor", "ray", "--hands", "1"],
        capture_output=True, text=True, env=env, timeout=120,
    )  # fmt: skip
    assert p.returncode == 2 and p.stdout == "", p.stderr
    assert p.stderr.count("\n") == 1 and "Traceback" not in p.stderr, p.stderr
    assert p.stderr.startswith(
        "triple-draw simulate: error: could not start Ray (RuntimeError: Failed to start the "
        "GCS server.); check that a local Ray node can start here"
    ), p.stderr


def test_missing_extra_is_a_package_error_and_an_import_error() -> None:
    from triple_draw.errors import MissingExtraError, TripleDrawError

    assert issubclass(MissingExtraError, TripleDrawError)
    assert issubclass(MissingExtraError, ImportError)


# -- runs too long to finish ------------------------------------------------------------------


def _refused_at_once(argv: list[str]) -> str:
    """Run ``python -m triple_draw ARGV`` and return its one line of refusal (status 2,
    nothing on stdout, within a minute, no traceback), checked to name the run's cost."""
    t0 = time.monotonic()
    p = subprocess.run(
        [sys.executable, "-m", "triple_draw", *argv], capture_output=True, text=True, timeout=120
    )
    assert time.monotonic() - t0 < 60
    assert p.returncode == 2 and p.stdout == "", p.stderr
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in p.stderr, p.stderr
    assert "--hands 1000000000000: at the " in lines[0] and "1 worker would take about" in lines[0]
    return lines[0]


def test_a_run_that_cannot_finish_is_refused_up_front() -> None:
    # 10^12 one-hand chunks on one worker: years at any speed the engine reaches. It used to
    # start and run on silently; it is refused after a fraction of a second of measuring.
    line = _refused_at_once(
        ["simulate", "--hands", str(10**12), "--chunk-size", "1", "--no-progress"]
    )
    assert "years; the command line refuses runs over 7.0 days" in line


def _args(**kw: Any) -> argparse.Namespace:
    base = dict(hands=10**12, workers=None, executor=None)
    return argparse.Namespace(**{**base, **kw})


def test_the_duration_bound_counts_every_worker_the_run_can_use() -> None:
    from triple_draw import cli

    week = cli.MAX_RUN_SECONDS
    # 10^12 hands at 10,000 hands/s: 3.2 years on one worker, 4.5 days on 256
    with pytest.raises(cli.UsageError, match=r"1 worker would take about 3\.2 years"):
        cli._check_duration(_args(), 10_000.0, 10**9)
    assert cli._check_duration(_args(workers=256), 10_000.0, 10**9) == pytest.approx(390_625)
    assert cli._check_duration(_args(executor="ray"), 10_000.0, 10**9) == pytest.approx(390_625)
    # ... but never more workers than chunks: one chunk is one worker
    with pytest.raises(cli.UsageError, match="1 worker would take"):
        cli._check_duration(_args(workers=256), 10_000.0, 1)
    # the bound itself
    assert cli._check_duration(_args(hands=week * 10_000), 10_000.0, 10**9) == week
    with pytest.raises(cli.UsageError, match=r"refuses runs over 7\.0 days"):
        cli._check_duration(_args(hands=week * 10_000 + 1), 10_000.0, 10**9)


def test_a_long_run_says_how_long_it_will_take_and_reports_as_it_goes(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from triple_draw import cli

    monkeypatch.setattr(cli, "_measure_rate", lambda *a: 500.0)  # slow bots: 2,000 s
    monkeypatch.setattr(cli, "STATUS_EVERY", 0.0)
    status = cli._Status.__call__
    lines: list[int] = []

    def stop_after_two(self: Any, done: int, total: int) -> None:
        status(self, done, total)
        lines.append(done)
        if len(lines) == 2:
            raise KeyboardInterrupt

    monkeypatch.setattr(cli._Status, "__call__", stop_after_two)
    code, out, err = run(
        capsys, "simulate", "--hands", "1000000", "--chunk-size", "50", "--seed", "1",
        "--no-progress",
    )  # fmt: skip
    assert code == 130 and out == "", err
    got = err.strip().splitlines()
    assert got[0] == (
        "triple-draw simulate: 1,000,000 hands will take about 33 minutes (about 500 hands/s "
        "a worker, measured just now); Ctrl-C stops the run"
    )
    assert got[1].startswith("triple-draw simulate: 50 of 1,000,000 hands (0.0%), ")
    assert got[2].startswith("triple-draw simulate: 100 of 1,000,000 hands (0.0%), ")
    assert got[3:] == ["triple-draw simulate: interrupted"]


def test_status_lines_come_every_status_interval() -> None:
    from triple_draw import cli

    now = [0.0]
    out = io.StringIO()
    s = cli._Status(10**6, clock=lambda: now[0], out=out)
    for t, done in [(100.0, 10**4), (599.0, 59_900), (600.0, 60_000), (900.0, 90_000),
                    (1200.0, 120_000)]:  # fmt: skip
        now[0] = t
        s(done, 10**6)
    now[0] = 5000.0
    s(10**6, 10**6)  # the end: the result follows, no status
    assert out.getvalue().splitlines() == [
        "triple-draw simulate: 60,000 of 1,000,000 hands (6.0%), 100 hands/s, about 2.6 hours left",
        "triple-draw simulate: 120,000 of 1,000,000 hands (12.0%), 100 hands/s, "
        "about 2.4 hours left",
    ]


def test_runs_below_a_million_hands_are_not_measured_first(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from triple_draw import cli

    def never(*a: Any) -> float:  # pragma: no cover - must not run
        raise AssertionError("measured")

    monkeypatch.setattr(cli, "_measure_rate", never)
    code, _, err = run(capsys, "simulate", "--hands", "30", "--seed", "1", "--no-progress")
    assert code == 0 and err == ""


# -- Ctrl-C -----------------------------------------------------------------------------------


def _sigint_default() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _interrupt(argv: list[str], after: float) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONIOENCODING="utf-8")
    p = subprocess.Popen(
        [sys.executable, "-m", "triple_draw", *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        # Ctrl-C as a terminal sends it: a suite started in the background by a shell
        # without job control inherits SIGINT ignored, and Python keeps it ignored
        preexec_fn=_sigint_default,
    )
    time.sleep(after)
    # on a loaded machine the start-up (imports, about 0.35 s of CPU) can take longer
    # than ``after``: wait until the command is past it - a second of CPU used, or
    # worker processes started
    stat = Path(f"/proc/{p.pid}/stat")
    children = Path(f"/proc/{p.pid}/task/{p.pid}/children")
    deadline = time.monotonic() + 60
    while stat.exists() and time.monotonic() < deadline and p.poll() is None:
        fields = stat.read_text().rsplit(")", 1)[1].split()
        if (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK") >= 1.0:
            break
        if children.exists() and children.read_text().split():
            break
        time.sleep(0.1)
    assert p.poll() is None, "the command ended before it could be interrupted"
    t0 = time.monotonic()
    p.send_signal(signal.SIGINT)
    try:
        out, err = p.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        p.kill()  # (not left running to slow the rest of the suite)
        p.communicate()
        raise
    assert time.monotonic() - t0 < 30
    return subprocess.CompletedProcess(p.args, p.returncode, out, err)


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a subprocess is POSIX")
@pytest.mark.parametrize("workers", [[], ["--workers", "2"]])
def test_ctrl_c_stops_simulate_cleanly_with_status_130(workers: list[str]) -> None:
    p = _interrupt(
        ["simulate", "--hands", "100000000", "--chunk-size", "200", "--seed", "1", *workers], 3.0
    )
    assert p.returncode == 130, p.stderr
    assert "Traceback" not in p.stderr and "interrupted" in p.stderr


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a subprocess is POSIX")
def test_ctrl_c_stops_a_long_exact_analysis() -> None:
    p = _interrupt(
        ["equity", "7c5d4h3sKd", "?", "--draws", "1", "--method", "exact", "--threads", "1"], 2.5
    )
    assert p.returncode == 130, p.stderr
    assert "Traceback" not in p.stderr


# -- help and JSON ----------------------------------------------------------------------------


def test_simulate_help_has_no_doubled_percent(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "simulate", "--help")
    assert code == 0 and "%%" not in out and "95 percent" in out


@pytest.mark.parametrize(
    "argv",
    [
        ["simulate", "--hands", "10", "--seed", "1", "--players", "2"],
        ["equity", "7c5d4h3s2c", "8c6d5h4s2d", "--draws", "0"],
        ["discard", "7c5d4h3sKd", "--target", "7"],
        ["eval", "7c5d4h3s2c"],
    ],
)
def test_every_json_document_carries_its_schema_version(
    capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    code, out, _ = run(capsys, *argv, "--json")
    doc = json.loads(out)
    assert code == 0 and isinstance(doc, dict)
    assert next(iter(doc)) == "schema_version" and doc["schema_version"] == JSON_SCHEMA_VERSION


# -- strategies as lows -----------------------------------------------------------------------


def test_strategies_show_lows_not_raw_ranks(capsys: pytest.CaptureFixture[str]) -> None:
    from triple_draw._cli_analysis import low_text, parse_strategy, strategy_text

    assert low_text(18) == "8" and low_text(52) == "9" and low_text(4) == "7"
    assert low_text(17) == "rank:17"
    for spec in ["keep:8", "keep:9:8", "keep:9:9-7", "pat", "discard:Kd", "discard:7cKd:keep:9"]:
        s = parse_strategy(spec)
        assert strategy_text(s) == spec
    assert strategy_text(parse_strategy("standard")) == "keep:8"
    assert strategy_text(parse_strategy("discard:Kd:pat")) == "discard:Kd:pat"
    assert strategy_text(parse_strategy("discard::pat")) == "discard::pat"
    code, out, _ = run(
        capsys, "equity", "7c5d4h3sKd", "8c6d5h4s2c", "--draws", "1", "--strategy", "keep:9:8"
    )
    assert code == 0 and "keep:9:8" in out and "pat=" not in out


# -- the play screen --------------------------------------------------------------------------


def _play(seed: int, answers: Any, players: int = 2, hands: int = 1) -> str:
    from triple_draw._play import TerminalGame

    out = io.StringIO()
    game = TerminalGame(
        players=players, seed=seed, stack=200, input_fn=lambda: answers(out), out=out,
        max_hands=hands,
    )  # fmt: skip
    assert game.run() == 0
    return out.getvalue()


def test_play_speaks_of_you_in_the_second_person() -> None:
    def fold_at_once(out: io.StringIO) -> str:
        prompt = out.getvalue().rsplit("\n", 1)[-1]
        return "pat" if "Discard" in prompt else ("r" if "aise" in prompt else "c")

    text = "".join(_play(seed, fold_at_once, hands=3) for seed in range(1, 6))
    assert "You has" not in text and "returned to You" not in text
    assert "You have the button" in text
    for line in text.splitlines():
        if "uncalled" in line:
            assert "uncalled chip" in line, line


def test_play_hint_names_the_call_the_prompt_offers() -> None:
    state = {"hinted": False}

    def ask_hint(out: io.StringIO) -> str:
        prompt = out.getvalue().rsplit("\n", 1)[-1]
        if "Your move" in prompt and not state["hinted"]:
            state["hinted"] = True
            return "hint"
        state["hinted"] = False
        return "pat" if "Discard" in prompt else "c"

    text = "".join(_play(seed, ask_hint, players=3, hands=2) for seed in range(1, 8))
    # the prompt line is followed on the same line by the hint given at it
    calls = [line for line in text.splitlines() if "heuristic bot would call" in line]
    assert calls
    for line in calls:
        amount = line.split("would call ")[1].rstrip(".")
        assert f"[c]all {amount}," in line or f"[c]all {amount}:" in line, line


@pytest.mark.parametrize(
    "target", ["rank:" + "9" * 5000, "9" * 5000, "rank:\u00b2", "rank:" + "1" * 11]
)
def test_a_target_of_thousands_of_digits_is_one_clear_line(
    capsys: pytest.CaptureFixture[str], target: str
) -> None:
    code, _out, err = run(capsys, "discard", "7c5d4h3sKd", "--target", target)
    assert code == 2 and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1 and "rank" in err and len(err) < 200


@pytest.mark.parametrize(
    ("module", "missing"),
    [
        ("triple_draw.envs.triple_draw_v0", "pettingzoo"),
        ("triple_draw.envs.vector", "gymnasium"),
        ("triple_draw.envs.gym_env", "gymnasium"),
        ("triple_draw.envs.openspiel", "pyspiel"),
    ],
)
def test_an_environment_without_its_extra_is_a_missing_extra_error(
    module: str, missing: str
) -> None:
    """Each environment module names the extra to install, as a MissingExtraError (a
    TripleDrawError and an ImportError), not a bare ImportError."""
    code = (
        f"import sys; sys.modules[{missing!r}] = None\n"
        "from triple_draw.errors import MissingExtraError\n"
        "try:\n"
        f"    import {module}\n"
        "except MissingExtraError as e:\n"
        "    print('extra:', e)\n"
    )
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    assert "extra:" in p.stdout and "pip install 'triple_draw[" in p.stdout


def test_a_match_of_a_trillion_hands_is_refused_up_front_in_one_line() -> None:
    """``match`` plays in one process: a run estimated over 7 days is refused before it
    starts, as ``simulate``'s is (the speed measured on a few hundred hands)."""
    line = _refused_at_once(["match", "random", "random", "--hands", str(10**12), "--no-progress"])
    assert "refuses runs over 7.0 days (fewer --hands, or the library's function" in line
