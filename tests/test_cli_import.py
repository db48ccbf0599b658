"""``triple-draw import``: per site the hands imported, refused and skipped, each
player's net, the rake; bad files get one line and exit status 2."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

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


def test_import_json_follows_its_published_schema(tmp_path: Path) -> None:
    """Every shape of the report (each site, play money and tournament chips, refusals,
    --hero, --phh) validates against schema/import.v1.json, and the schema is strict
    enough to refuse a report with a field missing or a money amount as a float."""
    import jsonschema

    from triple_draw.schema import load_schema

    schema = load_schema("import")
    files = sorted(str(p) for p in DATA.glob("*/*.txt"))
    docs = []
    for extra in ([], ["--hero", "hero"], ["--phh", str(tmp_path / "all.phhs")]):
        p = run(*files, "--json", *extra)
        assert p.returncode == 0, p.stderr
        doc = json.loads(p.stdout)
        jsonschema.validate(doc, schema)
        docs.append(doc)
    assert {s["site"] for s in docs[0]["sites"]} == {"pokerstars", "fulltilt", "winamax"}
    assert docs[0]["refused"] and docs[1]["hero"] == "hero"
    assert docs[2]["phh"] == str(tmp_path / "all.phhs")
    broken = json.loads(json.dumps(docs[0]))
    del broken["totals"]["skipped"]
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(broken, schema)
    broken = json.loads(json.dumps(docs[0]))
    broken["sites"][0]["currencies"][0]["players"][0]["net"] = 1.5
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(broken, schema)
