"""The Python fuzz targets (fuzz/python/, docs/security.md) run briefly in every test run:
the seed corpus (with the inputs of fixed findings as regression seeds), a few hundred
seeded mutations per target, the runner, and every known finding replayed: it must still
fail as recorded until its entry is removed."""

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

# about ten seconds in all: the CLI runs whole commands and a tournament server session
# plays a whole tournament, so they get fewer inputs
BRIEF = {
    "from_dict": 250, "cards": 500, "cli": 50, "server": 40, "tourney": 12,
    "histories": 150, "phh": 150, "table": 60, "tournament": 40, "discard": 30,
}  # fmt: skip
KNOWN = json.loads((FUZZ / "known.json").read_text())


def target(name: str):  # type: ignore[no-untyped-def]
    if name in ("server", "tourney"):  # the server extra
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


def stale_findings(  # type: ignore[no-untyped-def]
    registry: list[dict], check_of, folder: Path = FUZZ / "findings"
) -> list[str]:
    """The inputs of ``registry`` (known.json's entries) that no longer fail as recorded:
    each must still raise the error of its signature; one that passes is fixed (or one
    that fails differently is a new finding) - its entry must go, and a fixed input
    joins its target's corpus as a regression seed."""
    stale = []
    for entry in registry:
        check = check_of(entry["target"])
        for file in entry["inputs"]:
            data = (folder / file).read_bytes()
            try:
                check(data)
            except (KeyboardInterrupt, SystemExit):
                raise
            except BaseException as e:  # a PanicException is a BaseException
                if _harness.signature(e) == entry["signature"]:
                    continue
                stale.append(f"{file}: fails differently ({_harness.signature(e)})")
                continue
            stale.append(f"{file}: fixed (move it to corpus/{entry['target']}/ and drop its entry)")
    return stale


def test_every_known_finding_still_fails_as_recorded() -> None:
    """known.json lists only findings that still fail: a fix makes this test fail until
    the entry goes (the three findings of issue 10 are fixed: their inputs are regression
    seeds of the cards and from_dict corpora now)."""
    assert stale_findings(KNOWN, lambda name: target(name).check) == []


def test_a_fixed_finding_left_in_the_registry_is_reported(tmp_path: Path) -> None:
    (tmp_path / "probe").write_bytes(b"7h")
    entry = {"target": "cards", "signature": "CardError@x", "inputs": ["probe"]}
    (stale,) = stale_findings([entry], lambda name: target(name).check, tmp_path)
    assert "fixed" in stale

    def broken(data: bytes) -> None:
        raise KeyError(data)

    entry["signature"] = _harness.signature(KeyError(b"7h"))
    assert stale_findings([entry], lambda name: broken, tmp_path) == []
    entry["signature"] = "ValueError@elsewhere"
    (stale,) = stale_findings([entry], lambda name: broken, tmp_path)
    assert "fails differently" in stale


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
