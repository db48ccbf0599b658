"""Fuzz target: the command line, ``triple_draw.cli.main(argv)``, run in this process.

The input is an argv: NUL-separated arguments, decoded as Python decodes a command line
(UTF-8 with ``surrogateescape``). ``main`` must return 0 or 2 (or exit with 0 or 2 through
``SystemExit``), write at most one line of error, and never raise. stdin is empty, so the
interactive ``play`` ends at once.

The target checks argument handling, not resource limits, so it keeps runs short: numbers
above 200 are reduced, ``simulate`` plays few hands, the analyses run few trials on one
thread, work stays in this process (no ``--workers``, ``processes``/``ray`` executors) and
``--bots`` never names a ``module:Class`` to import. The limits of big numbers and of
imported bots have their own tests.

Run: ``python fuzz/python/fuzz_cli.py`` or ``python fuzz/python/run.py``.
"""

from __future__ import annotations

import contextlib
import io
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _harness import fuzz_one, guarded

from triple_draw.cli import main

_WORDS = ("simulate", "equity", "discard", "eval", "play", "--players", "--hands", "--seed",
          "--bots", "--stack", "--small-bet", "--rules", "--mode", "--json", "--no-progress",
          "--draws", "--strategy", "--trials", "--threads", "--dead", "--target", "--opponent",
          "--top", "--chunk-size", "--executor", "--help", "--version", "-h", "live", "wsop",
          "online", "pokerkit", "table", "independent", "serial", "threads", "heuristic",
          "random", "call", "random*2", "keep:8", "keep:8:9", "discard:Kd", "standard",
          "7c5d4h3s2c", "8c6d5h4s2c", "7c5d4h3sKd", "?", "??????????", "0", "1", "2", "3",
          "6", "9", "-1", "1e3", "", "=", "--players=3", "--hands=2", "\udcff",
          "\u0661")  # fmt: skip


def mutate(data: bytes, rnd: random.Random) -> bytes:
    """Insert, replace, drop or swap arguments."""
    args = data.split(b"\0") if data else []
    for _ in range(rnd.randint(1, 3)):
        i = rnd.randrange(len(args) + 1)
        op = rnd.randrange(4)
        word = rnd.choice(_WORDS).encode("utf-8", "surrogateescape")
        if op == 0 or not args:
            args.insert(i, word)
        elif op == 1:
            args[min(i, len(args) - 1)] = word
        elif op == 2:
            del args[min(i, len(args) - 1)]
        else:
            j = rnd.randrange(len(args))
            k = min(i, len(args) - 1)
            args[j], args[k] = args[k], args[j]
    return b"\0".join(args)


def _small(arg: str) -> str:
    digits = arg.lstrip("-+")
    if digits.isascii() and digits.isdigit() and int(digits) > 200:
        return arg[: len(arg) - len(digits)] + str(int(digits) % 200)
    return arg


def argv_of(data: bytes) -> list[str]:
    """The argv the target runs for an input (with the limits above applied)."""
    raw = [a.decode("utf-8", "surrogateescape") for a in data.split(b"\0")] if data else []
    out: list[str] = []
    skip = False
    for a in raw:
        if skip:
            skip = False
            continue
        key = a.split("=", 1)[0]
        if key == "--workers" or (key == "--executor" and "=" in a):
            continue
        if key == "--executor":  # drop it and its value
            skip = True
            continue
        if ":" in a and not a.startswith(("keep:", "discard:")):
            continue
        out.append(_small(a))
    if out and out[0] == "simulate":
        out[1:1] = ["--hands", "3", "--no-progress"]
    elif out and out[0] in ("equity", "discard"):
        out[1:1] = ["--trials", "20", "--threads", "1"]
    elif out and out[0] == "play":
        out[1:1] = ["--hands", "1"]
    return out


def check(data: bytes) -> None:
    argv = argv_of(data)
    out, err = io.StringIO(), io.StringIO()
    old_stdin = sys.stdin
    sys.stdin = io.StringIO("")
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(argv)
            except SystemExit as e:
                code = e.code
    finally:
        sys.stdin = old_stdin
    assert code in (0, 2, None), f"exit status {code!r} for {argv!r}"
    if code == 2:
        lines = [x for x in err.getvalue().splitlines() if "error" in x]
        assert len(lines) == 1, f"expected one error line for {argv!r}, got {err.getvalue()!r}"
    assert "Traceback" not in err.getvalue(), f"a traceback for {argv!r}"


test_one_input = guarded(check, "cli")

if __name__ == "__main__":
    fuzz_one(sys.modules[__name__], sys.argv)
