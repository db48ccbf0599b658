"""Run every Python fuzz target for a bounded time.

    python fuzz/python/run.py --seconds 60            # each target 60 s
    python fuzz/python/run.py --seconds 600 cards     # one target
    python fuzz/python/run.py --engine random         # without atheris

Each target runs in its own process: under atheris (coverage-guided libFuzzer) when it is
installed, else under the seeded random mutator. The committed seed corpus
(``corpus/<target>/``) is read, never written: what a run discovers goes to a working
corpus (``--workdir``, default a temporary directory) and a crashing input to
``<workdir>/crash-*``. The exit status is 0 when no target found anything new, 1
otherwise. Known findings (``known.json``) do not stop a run; ``pytest`` replays each of
them as an expected failure.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
TARGETS = (
    "from_dict", "cards", "cli", "server", "tourney", "histories", "phh", "table", "tournament",
    "discard",
)  # fmt: skip


def command(target: str, seconds: float, engine: str, work: Path) -> list[str]:
    script = str(HERE / f"fuzz_{target}.py")
    if engine == "atheris":
        corpus = work / "corpus" / target
        corpus.mkdir(parents=True, exist_ok=True)
        return [
            sys.executable,
            script,
            f"-max_total_time={max(1, round(seconds))}",
            "-timeout=30",
            "-rss_limit_mb=4096",
            f"-artifact_prefix={work}/crash-{target}-",
            str(corpus),
            str(HERE / "corpus" / target),
        ]
    return [
        sys.executable,
        "-c",
        "import sys; sys.path.insert(0, sys.argv[1]); import _harness, importlib; "
        "t = importlib.import_module('fuzz_' + sys.argv[2]); "
        "n = _harness.random_run(t, sys.argv[2], seconds=float(sys.argv[3]), "
        "seed=int(sys.argv[4])); "
        "print(sys.argv[2] + ': ' + str(n) + ' inputs, no finding')",
        str(HERE),
        target,
        str(seconds),
        str(int.from_bytes(os.urandom(4), "big")),
    ]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("targets", nargs="*", metavar="TARGET", help=f"of {', '.join(TARGETS)}")
    p.add_argument("--seconds", type=float, default=10.0, help="per target (default 10)")
    p.add_argument(
        "--engine",
        choices=("auto", "atheris", "random"),
        default="auto",
        help="auto: atheris when installed, else random",
    )
    p.add_argument("--workdir", type=Path, default=None, help="working corpus and crashes")
    args = p.parse_args(argv)
    if not args.seconds > 0:
        p.error("--seconds must be > 0")
    for t in args.targets:
        if t not in TARGETS:
            p.error(f"unknown target {t!r}: choose from {', '.join(TARGETS)}")
    engine = args.engine
    if engine == "auto":
        engine = "atheris" if importlib.util.find_spec("atheris") else "random"
    work = args.workdir or Path(tempfile.mkdtemp(prefix="triple-draw-fuzz-"))
    work.mkdir(parents=True, exist_ok=True)
    # the targets import triple_draw as this interpreter does (installed, or from the
    # caller's PYTHONPATH), never from the checkout's sources behind its back
    env = dict(os.environ)
    failed = []
    for target in args.targets or TARGETS:
        if target == "server" and not all(
            importlib.util.find_spec(m) for m in ("starlette", "fastjsonschema")
        ):
            print("== server: skipped (needs the server extra)", flush=True)
            continue
        print(f"== {target}: {engine}, {args.seconds:g} s", flush=True)
        r = subprocess.run(
            command(target, args.seconds, engine, work), cwd=work, env=env, check=False
        )
        if r.returncode != 0:
            failed.append(target)
    print(f"working corpus and crashes: {work}")
    if failed:
        print(f"FINDINGS in: {', '.join(failed)}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
