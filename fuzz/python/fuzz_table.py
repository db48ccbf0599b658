"""Fuzz target: ``Table.from_dict`` on mutated table documents (issue 26, finding 3).

The input is the JSON text of a saved table (``Table.to_dict()``) at any point of a
session: between hands, in a hand, with players coming in and sitting out. A document
must be refused with ``SchemaError`` or loaded; a loaded table must save to the same
document, finish its hand and play on hand after hand with legal actions, its chips
conserved in each hand. Anything else is
a finding. The structure-aware mutation is ``fuzz_from_dict``'s (one to three nodes).

Run: ``python fuzz/python/fuzz_table.py`` (atheris) or ``python fuzz/python/run.py table``.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _harness import fuzz_one, guarded, loaded, saves_to_itself
from fuzz_from_dict import mutate

from triple_draw import IllegalActionError, SchemaError
from triple_draw.game import Table

__all__ = ["check", "mutate", "test_one_input"]


def check(data: bytes) -> None:
    t = loaded(data, Table.from_dict, (SchemaError,))
    if t is None:
        return
    saves_to_itself(t, Table.from_dict, "a loaded table")
    rnd = random.Random(data)
    h = t.hand
    for _ in range(4):
        if h is not None:
            for _ in range(400):
                if h.is_over:
                    break
                h.apply(rnd.choice(h.legal_actions()))
            assert h.is_over, "a hand did not end within 400 actions"
            assert sum(h.stacks) + h.result.rake == sum(h.starting_stacks), "chips vanished"
            saves_to_itself(t, Table.from_dict, "a table after its hand")
        try:
            h = t.new_hand()
        except IllegalActionError:
            return


test_one_input = guarded(check, "table")

if __name__ == "__main__":
    fuzz_one(sys.modules[__name__], sys.argv)
