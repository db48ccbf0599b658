"""The golden corpus: several hundred seeded hands replay to the very same documents.

``tests/golden/hands.jsonl`` holds complete hands over every rules option, 2-8 players,
with reshuffles, all-ins and side pots (``tests/golden/make_corpus.py`` wrote it). Each is
rebuilt from its seeds and policy and must give the same ``to_dict()`` document and PHH
text; the stored document must load back (``Hand.from_dict``) unchanged, and the stored
PHH text must replay to the stored final stacks. Same seeds, same hands, forever.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest

from triple_draw import Hand, phh

GOLDEN = Path(__file__).resolve().parent / "golden"
_spec = importlib.util.spec_from_file_location("make_corpus", GOLDEN / "make_corpus.py")
assert _spec is not None and _spec.loader is not None
make_corpus = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(make_corpus)

RECORDS = [json.loads(line) for line in (GOLDEN / "hands.jsonl").read_text().splitlines()]


def test_corpus_covers_tables_options_reshuffles_and_side_pots() -> None:
    assert len(RECORDS) >= 300
    assert {r["rules_name"] for r in RECORDS} == {name for name, _ in make_corpus.rule_sets()}
    assert {len(r["stacks"]) for r in RECORDS} == set(range(2, 9))
    kinds = {e["kind"] for r in RECORDS for e in r["state"]["history"]}
    assert "reshuffle" in kinds
    assert sum(len(r["state"]["outcome"]["pots"]) > 1 for r in RECORDS) >= 20


@pytest.mark.parametrize("record", RECORDS, ids=lambda r: f"{r['id']}-{r['rules_name']}")
def test_seeded_hand_replays_to_the_same_documents(record: dict[str, Any]) -> None:
    hand = make_corpus.build(record)
    assert hand.to_dict() == record["state"]
    assert phh.dumps(hand) == record["phh"]
    assert Hand.from_dict(record["state"]).to_dict() == record["state"]
    replayed = phh.loads(record["phh"])
    assert list(replayed.stacks) == record["state"]["stacks"]
