"""The rake options of ``triple-draw simulate`` (``--rake``, ``--rake-cap``,
``--rake-rounding``, ``--rake-always``): the rules they build, the rake the summary and
``--json`` report, chips conserved with it, and bad values (exit status 2, one line)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from triple_draw import Rules
from triple_draw.cli import main
from triple_draw.simulation import simulate

BASE = ("simulate", "--players", "3", "--hands", "400", "--seed", "5", "--no-progress")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    code, out, err = run(capsys, *BASE, "--json", *argv)
    assert code == 0, err
    doc: dict[str, Any] = json.loads(out)
    return doc


def test_without_rake_the_document_is_unchanged_and_chips_are_conserved(
    capsys: pytest.CaptureFixture[str],
) -> None:
    doc = run_json(capsys)
    assert "rake_total" not in doc
    assert not any(k.startswith("rake") for k in doc["rules"])
    assert sum(s["net"] for s in doc["seats"]) == 0
    code, out, _ = run(capsys, *BASE)
    assert code == 0 and "rake" not in out


def test_rake_5_takes_chips_and_chips_are_conserved(capsys: pytest.CaptureFixture[str]) -> None:
    doc = run_json(capsys, "--rake", "5")
    assert doc["rules"]["rake_percent"] == "5"
    assert "rake_cap" not in doc["rules"]  # the defaults: no cap, no draw no drop, down
    assert doc["rake_total"] > 0
    # every hand starts from the same stacks: what the seats lost together is the rake
    assert sum(s["net"] for s in doc["seats"]) + doc["rake_total"] == 0
    # the same run through the API, and the same seed without rake: the same hands, no rake
    api = simulate(None, 400, seed=5, players=3, rules=Rules.live(2, rake_percent="5"))
    assert api.rake_total == doc["rake_total"]
    assert simulate(None, 400, seed=5, players=3).rake_total == 0


def test_summary_reports_the_rake(capsys: pytest.CaptureFixture[str]) -> None:
    total = run_json(capsys, "--rake", "5", "--rake-cap", "2")["rake_total"]
    code, out, err = run(capsys, *BASE, "--rake", "5", "--rake-cap", "2")
    assert code == 0, err
    line = next(ln for ln in out.splitlines() if ln.startswith("rake"))
    assert "5%" in line and "cap 2" in line and "no draw, no drop" in line
    assert f"{total} chips taken" in line


def test_cap_rounding_and_rake_always_reach_the_rules(capsys: pytest.CaptureFixture[str]) -> None:
    capped = run_json(capsys, "--rake", "4.5", "--rake-cap", "1")
    assert capped["rules"]["rake_cap"] == 1
    assert 0 < capped["rake_total"] <= 400  # at most one chip a hand
    always = run_json(capsys, "--rake", "4.5", "--rake-rounding", "half-even", "--rake-always")
    rules = always["rules"]
    assert rules["rake_percent"] == "4.5" and rules["rake_rounding"] == "half-even"
    assert rules["rake_no_draw_no_drop"] is False
    assert sum(s["net"] for s in always["seats"]) + always["rake_total"] == 0
    # the same hands, rounded half-even and raked before the draw too: never less rake
    plain = run_json(capsys, "--rake", "4.5")
    assert always["rake_total"] >= plain["rake_total"] > 0


def test_table_mode_conserves_chips_with_the_rake() -> None:
    # stacks carry over: the chips the table lost are the rake (rebuys add to the stacks,
    # never to the net)
    rules = Rules.live(2, rake_percent="10", rake_no_draw_no_drop=False)
    r = simulate(None, 300, seed=2, players=4, rules=rules, stack=60, mode="table")
    assert r.rake_total > 0 and sum(s.net for s in r.seats) + r.rake_total == 0


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--rake", "abc"], ["--rake", "percentage", "'abc'"]),
        (["--rake", "-1"], ["--rake", "'-1'"]),
        (["--rake", "100"], ["--rake", "'100'"]),
        (["--rake", "nan"], ["--rake", "'nan'"]),
        (["--rake", "4.12345"], ["--rake", "4 decimals"]),
        (["--rake", "5", "--rake-cap", "-1"], ["--rake-cap", "at least 0"]),
        (["--rake", "5", "--rake-cap", "two"], ["--rake-cap", "expected an integer"]),
        (["--rake", "5", "--rake-rounding", "up"], ["--rake-rounding", "invalid choice"]),
        (["--rake-cap", "3"], ["--rake-cap needs --rake"]),
        (["--rake-always", "--rake-rounding", "down"], ["--rake-rounding", "--rake-always"]),
    ],
)
def test_bad_rake_options_exit_2_with_one_line(
    argv: list[str], words: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "simulate", "--hands", "10", *argv)
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "error" in lines[0] and "Traceback" not in err, err
    for w in words:
        assert w in lines[0], (w, lines[0])
