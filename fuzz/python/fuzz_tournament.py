"""Fuzz target: ``Tournament.from_dict`` on mutated tournament documents.

The input is the JSON text of a saved tournament (``Tournament.to_dict()``) at any point:
registering, running with hands in progress, with late entries, re-entries, absent
players and hand-for-hand play, or over. A document must be refused with a
``SchemaError`` (or an ``ArgumentError``: a structure with levels by time needs a clock)
or loaded; a loaded tournament must save to the same document and play on - random legal
actions, deals at the tables that may deal - with its invariants holding at every step
(``Tournament.check``: chips conserved, seats, places, prizes), and save to a document
that loads again to the same document where it stopped. Anything else is a finding. The
structure-aware mutation is ``fuzz_from_dict``'s (one to three nodes).

Run: ``python fuzz/python/fuzz_tournament.py`` (atheris) or
``python fuzz/python/run.py tournament``.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _harness import fuzz_one, guarded, loaded, saves_to_itself
from fuzz_from_dict import mutate

from triple_draw import Tournament
from triple_draw.errors import ArgumentError, SchemaError

__all__ = ["check", "mutate", "play_on", "test_one_input"]

#: the steps a loaded tournament plays on (enough for several hands, a few deals)
STEPS = 150


def play_on(t: Tournament, rnd: random.Random, steps: int) -> None:
    """Random legal play: an action at a table whose hand is in progress (folds less
    likely than the other choices), else a deal at a table that may deal."""
    for _ in range(steps):
        if t.is_over or t.status != "running":
            return
        live = [x for x in t.tables if (h := t.hand(x)) is not None and not h.is_over]
        if live:
            x = rnd.choice(live)
            hand = t.hand(x)
            assert hand is not None
            acts = hand.legal_actions()
            if hand.in_draw:
                a = acts[rnd.randrange(len(acts))]
            else:
                a = rnd.choices(acts, [1 if y.kind == "fold" else 4 for y in acts])[0]
            t.act(x, a)
        else:
            ready = t.ready_tables()
            assert ready, f"stuck: no hand in play and no table may deal: {t!r}"
            t.deal(rnd.choice(ready))
        t.check()


def check(data: bytes) -> None:
    t = loaded(data, Tournament.from_dict, (SchemaError, ArgumentError))
    if t is None:
        return
    saves_to_itself(t, Tournament.from_dict, "a loaded tournament")
    t.check()
    play_on(t, random.Random(data), STEPS)
    saves_to_itself(t, Tournament.from_dict, "a tournament played on")


test_one_input = guarded(check, "tournament")

if __name__ == "__main__":
    fuzz_one(sys.modules[__name__], sys.argv)
