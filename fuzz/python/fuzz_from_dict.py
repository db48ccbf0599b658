"""Fuzz target: ``Hand.from_dict`` on mutated saved documents.

The input is the JSON text of a saved hand (``Hand.to_dict()``). A document must be
refused with ``SchemaError`` or loaded; a loaded hand must hold its chips (stacks plus pot
equal the starting stacks), save again to a document that loads, and play on with legal
actions to an end where the chips are all back in the stacks. Anything else - another
exception, an illegal "legal" action, chips appearing or vanishing - is a finding.

Run: ``python fuzz/python/fuzz_from_dict.py`` (atheris: any libFuzzer option, e.g.
``-max_total_time=600 fuzz/python/corpus/from_dict``) or ``python fuzz/python/run.py``.
"""

from __future__ import annotations

import copy
import json
import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _harness import fuzz_one, guarded, loaded, saves_to_itself

from triple_draw import Hand, SchemaError

#: values a mutation puts in place of a node
_ODD = (0, 1, -1, 2, 5, 7, 9, 52, 2**31, 2**63, -(2**63), 10**30, 1.5, True, False, None, "",
        "x", "7h", "??", "As", "bet", [], {}, [0], ["7h"], {"kind": "fold"})  # fmt: skip


def _nodes(doc: Any, path: tuple = ()) -> list[tuple]:
    out = [path]
    if isinstance(doc, dict):
        for k, v in doc.items():
            out.extend(_nodes(v, (*path, k)))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            out.extend(_nodes(v, (*path, i)))
    return out


def _get(doc: Any, path: tuple) -> Any:
    for k in path:
        doc = doc[k]
    return doc


def mutate(data: bytes, rnd: random.Random) -> bytes:
    """Change one to three nodes of the document: a nearby or odd value, another node's
    value, a deleted or duplicated entry."""
    try:
        doc = json.loads(data)
    except (ValueError, RecursionError):
        return data
    for _ in range(rnd.choice((1, 1, 1, 2, 3))):
        paths = _nodes(doc)
        short = [p for p in paths if len(p) <= 3 and (not p or p[0] not in ("history", "deck"))]
        path = rnd.choice(short if short and rnd.random() < 0.7 else paths)
        if not path:
            continue
        parent = _get(doc, path[:-1])
        key = path[-1]
        old = parent[key]
        op = rnd.randrange(5)
        if type(old) is bool and rnd.random() < 0.7:
            new: Any = not old
        elif old in ("bet", "draw", "over") and rnd.random() < 0.7:
            new = rnd.choice(("bet", "draw", "over"))
        elif type(old) is int and (op == 0 or rnd.random() < 0.6):
            new = old + rnd.choice((-2, -1, 1, 2, 10, -old))
        elif op == 1:
            new = copy.deepcopy(_get(doc, rnd.choice(paths)))
        elif op == 2 and isinstance(parent, list):
            del parent[key]
            continue
        elif op == 3 and isinstance(parent, list):
            parent.insert(key, copy.deepcopy(old))
            continue
        elif op == 2 and isinstance(parent, dict):
            del parent[key]
            continue
        else:
            # a copy: the same list or dict put in twice could end up inside itself
            new = copy.deepcopy(rnd.choice(_ODD))
        parent[key] = new
    return json.dumps(doc, separators=(",", ":")).encode()


def check(data: bytes) -> None:
    hand = loaded(data, Hand.from_dict, (SchemaError,))
    if hand is None:
        return
    start = sum(hand.starting_stacks)
    if hand.is_over:
        assert sum(hand.stacks) == start, "a finished hand does not hold its chips"
    else:
        assert sum(hand.stacks) + hand.pot == start, "stacks and pot do not add up"
    saves_to_itself(hand, Hand.from_dict, "a loaded hand")
    rnd = random.Random(data)
    for _ in range(400):
        if hand.is_over:
            break
        legal = hand.legal_actions()
        assert legal, "a hand that is not over offers no action"
        hand.apply(rnd.choice(legal))
    assert hand.is_over, "the hand did not end within 400 actions"
    assert sum(hand.stacks) == start, "the chips are not all back in the stacks"


test_one_input = guarded(check, "from_dict")

if __name__ == "__main__":
    fuzz_one(sys.modules[__name__], sys.argv)
