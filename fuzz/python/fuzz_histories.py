"""Fuzz target: ``histories.load`` of arbitrary bytes (site hand-history files).

Every input must load, each hand replayed or refused, or be refused as a whole with a
:class:`~triple_draw.errors.TripleDrawError` (no hand of any site in it); any other
exception is a finding, and so is a replayed hand whose chips do not add up (final stacks
plus the rake must be the starting stacks) or whose refusal names no line or reason. The
seeds are hand-written records of each site (tests/data/histories/); the mutation works
line by line (drop, duplicate, swap or garble a line) besides the generic byte changes.

Run: ``python fuzz/python/fuzz_histories.py`` (atheris: any libFuzzer option) or
``python fuzz/python/run.py histories``.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _harness import fuzz_one, guarded

from triple_draw import histories
from triple_draw.errors import TripleDrawError

_GARBLE = ("9", "$", "€", "[", "]", "", " ", "??", "Kx", "-1", ":", ",", "0.005", "X X", "\t")


def mutate(data: bytes, rnd: random.Random) -> bytes:
    """Drop, duplicate, swap or garble one to three lines."""
    lines = data.split(b"\n")
    for _ in range(rnd.choice((1, 1, 2, 3))):
        if not lines:
            break
        i = rnd.randrange(len(lines))
        op = rnd.randrange(4)
        if op == 0:
            del lines[i]
        elif op == 1:
            lines.insert(i, lines[i])
        elif op == 2:
            j = rnd.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
        else:
            line = lines[i]
            k = rnd.randrange(len(line) + 1)
            lines[i] = line[:k] + rnd.choice(_GARBLE).encode() + line[k + 1 :]
    return b"\n".join(lines)


def check(data: bytes) -> None:
    try:
        imported = histories.load(data)
    except TripleDrawError:
        return
    for h in imported.hands:
        res = h.hand.result
        assert h.hand.is_over, f"hand #{h.hand_id} replayed but not finished"
        assert sum(res.stacks) + res.rake == sum(h.hand.starting_stacks), (
            f"hand #{h.hand_id}: the chips do not add up"
        )
        assert len(h.players) == h.hand.n_players
    for r in imported.refused:
        assert r.reason and r.line >= 1, f"a refusal without its reason or line: {r}"


test_one_input = guarded(check, "histories")

if __name__ == "__main__":
    fuzz_one(sys.modules[__name__], sys.argv)
