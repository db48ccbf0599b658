"""The Python fuzz targets (fuzz/python/, docs/security.md) run briefly in every test run:
the seed corpus, a few hundred seeded mutations per target, the runner, and every known
finding replayed as an expected failure until it is fixed."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

FUZZ = Path(__file__).resolve().parent.parent / "fuzz" / "python"
sys.path.insert(0, str(FUZZ))

import _harness  # noqa: E402

# a few seconds in all: the CLI runs whole commands, so it gets fewer inputs
BRIEF = {
    "from_dict": 250, "cards": 500, "cli": 50, "server": 40,
    "histories": 150, "table": 60, "discard": 30,
}  # fmt: skip
KNOWN = json.loads((FUZZ / "known.json").read_text())


def target(name: str):  # type: ignore[no-untyped-def]
    if name == "server":  # the server extra
        pytest.importorskip("starlette")
        pytest.importorskip("fastjsonschema")
    return importlib.import_module(f"fuzz_{name}")


@pytest.mark.parametrize("name", sorted(BRIEF))
def test_seed_corpus_passes(name: str) -> None:
    seeds = _harness.seeds(name)
    assert len(seeds) >= 8
    t = target(name)
    for data in seeds:
        t.check(data)


@pytest.mark.parametrize("name", sorted(BRIEF))
def test_target_runs_on_seeded_mutations(name: str) -> None:
    n = _harness.random_run(target(name), name, count=BRIEF[name], seed=2026)
    assert n == len(_harness.seeds(name)) + BRIEF[name]


def test_mutators_keep_inputs_well_formed() -> None:
    import random

    rnd = random.Random(1)
    doc = _harness.seeds("from_dict")[0]
    for _ in range(50):
        json.loads(target("from_dict").mutate(doc, rnd))
    raw = b"simulate\0--hands\0999999\0--workers\0" + b"64\0--bots\0os:system"
    argv = target("cli").argv_of(raw)
    assert argv == ["simulate", "--hands", "3", "--no-progress", "--hands", "199", "64", "--bots"]


@pytest.mark.parametrize(
    ("entry", "file"),
    [(k, f) for k in KNOWN for f in k["inputs"]],
    ids=[f for k in KNOWN for f in k["inputs"]],
)
def test_known_finding(entry: dict, file: str) -> None:
    """Each known finding, in code outside the fuzz targets, fails as recorded (xfail)
    until it is fixed; then this test passes and the entry can go."""
    data = (FUZZ / "findings" / file).read_bytes()
    try:
        target(entry["target"]).check(data)
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as e:  # a PanicException is a BaseException
        assert _harness.signature(e) == entry["signature"], "a different failure than recorded"
        pytest.xfail(f"issue {entry['issue']}: {entry['reason']}")


def test_known_findings_do_not_stop_a_fuzzing_run() -> None:
    for k in KNOWN:
        t = target(k["target"])
        for f in k["inputs"]:
            t.test_one_input((FUZZ / "findings" / f).read_bytes())


def test_runner_runs_each_target_for_a_bounded_time(tmp_path: Path) -> None:
    r = subprocess.run(
        [sys.executable, str(FUZZ / "run.py"), "--seconds", "0.5", "--engine", "random",
         "--workdir", str(tmp_path), "cards"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )  # fmt: skip
    assert r.returncode == 0, r.stdout + r.stderr
    assert "cards: " in r.stdout and "no finding" in r.stdout
    bad = subprocess.run(
        [sys.executable, str(FUZZ / "run.py"), "--seconds", "0", "cards"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert bad.returncode == 2 and "--seconds must be > 0" in bad.stderr
