"""``triple-draw import``: per site the hands imported, refused and skipped, each
player's net, the rake; bad files get one line and exit status 2."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

DATA = Path(__file__).resolve().parent / "data" / "histories"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "triple_draw", "import", *args, "--no-progress"],
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_import_reports_each_site_and_the_refusals() -> None:
    p = run(
        str(DATA / "pokerstars" / "cash.txt"),
        str(DATA / "pokerstars" / "mixed_8game.txt"),
        str(DATA / "winamax" / "cash.txt"),
    )
    assert p.returncode == 0, p.stderr
    assert "PokerStars: 3 hands imported, 3 refused, 2 skipped" in p.stdout
    assert "Winamax: 2 hands imported" in p.stdout
    assert "228200000003" in p.stdout and "can only raise to 20 chips" in p.stdout


def test_import_json_nets_and_rake_add_up() -> None:
    p = run(str(DATA / "pokerstars" / "cash.txt"), "--json")
    assert p.returncode == 0, p.stderr
    doc = json.loads(p.stdout)
    assert "schema_version" in doc
    text = json.dumps(doc)
    assert "jo smith" in text and "2.28" in text


def test_import_bad_files_get_one_line_and_status_2(tmp_path: Path) -> None:
    for args in ([str(tmp_path / "missing.txt")], [str(tmp_path)]):
        p = run(*args)
        assert p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1, p.stderr
    empty = tmp_path / "empty.txt"
    empty.write_text("nothing here\n")
    p = run(str(empty))
    assert p.returncode == 2 and "no hand" in p.stderr
