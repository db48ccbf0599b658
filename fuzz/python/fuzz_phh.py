"""Fuzz target: ``phh.load`` / ``phh.loads`` / ``phh.loads_all`` of arbitrary bytes (PHH
hand histories, one hand or a ``.phhs`` file of several).

Every input must load or be refused with a :class:`~triple_draw.errors.TripleDrawError`
subclass; any other exception is a finding, and so is a loaded hand whose chips do not
add up (the stacks and the pot, or once it is over the final stacks and the rake, are the
starting stacks) or that does not write itself back out (``phh.dumps``) as a text which
loads again to the same actions and stacks. The seeds (``corpus/phh/``, written by
``make_phh_corpus.py``) between them use every part of the format; the mutation inserts
the format's own words and hostile values, deletes, duplicates and swaps lines, besides
the generic byte changes.

Run: ``python fuzz/python/fuzz_phh.py`` (atheris: any libFuzzer option) or
``python fuzz/python/run.py phh``. ``tests/test_phh_fuzz.py`` runs the same check on
mutations drawn by hypothesis.
"""

from __future__ import annotations

import io
import random
import sys
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _harness import fuzz_one, guarded

from triple_draw import Hand, phh
from triple_draw.errors import TripleDrawError

#: Pieces a mutation inserts: the format's own words, and hostile numbers and nesting.
TOKENS = [
    "??",
    "p1",
    "p9",
    "p0",
    "d dh",
    "sd",
    "sm",
    "cbr",
    "cc",
    "f",
    "-",
    "#",
    "\n",
    "]",
    "[",
    "{",
    "}",
    ",",
    "=",
    '"',
    "'''",
    "1e1000000",
    "9" * 50,
    "-1",
    "0",
    "1.5",
    "nan",
    "inf",
    "7h5d4c3s2h",
    "AsAs",
    "[" * 200,
    "variant",
    "actions",
    "seats = [9, 9, 9]",
    "[_triple_draw_rules]\nraise_cap = 0",
    'reshuffle = "pokerstars"',
    "[1]",
    "[[x]]",
    "starting_stacks = [1, 1]",
    "finishing_stacks = [0, 0, 0]",
    "\ud800",
    "\x00",
]


def mutate(data: bytes, rnd: random.Random) -> bytes:
    """One to three edits of the text: insert a token, delete a stretch, garble a
    character, duplicate a stretch or swap two lines."""
    text = data.decode("utf-8", errors="surrogateescape")
    for _ in range(rnd.choice((1, 1, 2, 3))):
        at = rnd.randrange(len(text) + 1)
        op = rnd.randrange(5)
        if op == 0:
            text = text[:at] + rnd.choice(TOKENS) + text[at:]
        elif op == 1:
            text = text[:at] + text[at + rnd.randint(1, 40) :]
        elif op == 2:
            c = chr(rnd.choice((rnd.randrange(32, 127), rnd.randrange(0x110000))))
            text = text[:at] + c + text[at + 1 :]
        elif op == 3:
            end = at + rnd.randint(1, 200)
            text = text[:end] + text[at:end] + text[end:]
        else:
            lines = text.split("\n")
            i, j = rnd.randrange(len(lines)), rnd.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
            text = "\n".join(lines)
    return text.encode("utf-8", errors="surrogatepass")


def check(data: bytes) -> None:
    """Load ``data`` as PHH: hands that hold their chips and write themselves back out, or
    a package error - nothing else."""
    # as a file (bytes that are not UTF-8 are refused), and as a str that may hold lone
    # surrogates
    text = data.decode("utf-8", errors="surrogateescape")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # unknown fields are reported as warnings
        for run in (
            lambda: [phh.load(io.BytesIO(data), seed=0)],
            lambda: [phh.loads(text, seed=0)],
            lambda: phh.loads_all(text, seed=0),
        ):
            try:
                hands = run()
            except TripleDrawError:
                continue
            for h in hands:
                _holds_its_chips(h)
                again = phh.loads(phh.dumps(h), seed=0)
                assert again.history == h.history, "the written hand loads to other actions"
                assert again.stacks == h.stacks, "the written hand loads to other stacks"


def _holds_its_chips(h: Hand) -> None:
    start = sum(h.starting_stacks)
    if h.is_over:
        res = h.result
        assert sum(res.stacks) + res.rake == start, "final stacks and rake are not the start"
    else:
        assert sum(h.stacks) + h.pot == start, "stacks and pot are not the starting stacks"


test_one_input = guarded(check, "phh")

if __name__ == "__main__":
    fuzz_one(sys.modules[__name__], sys.argv)
