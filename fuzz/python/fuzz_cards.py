"""Fuzz target: card parsing and evaluation of untrusted text.

The input bytes are decoded the way Python receives file names and command lines
(UTF-8, where encoded or invalid bytes become lone surrogates) and given to
``parse_cards``, ``card_ids``, ``Card``, ``evaluate`` and the engine's ``to_ids``, as one
string and as a list of tokens. Each call must return or raise ``CardError`` (a
``TripleDrawError``); what parses must print back canonically and parse to the same cards,
and a rank must be in 1..7462. Anything else is a finding.

Run: ``python fuzz/python/fuzz_cards.py`` or ``python fuzz/python/run.py``.
"""

from __future__ import annotations

import random
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _harness import fuzz_one, guarded

from triple_draw import Card, TripleDrawError, card_ids, evaluate, parse_cards
from triple_draw.game.cards import to_ids

_TOKENS = ("7h", "5d", "4c", "3s", "2h", "As", "Kd", "10c", "td", "??", "?", ",", " ",
           ", ", "\t", "\n", "Xx", "1", "0", "52", "-1", "\u00a0", "\ud800", "\x00",
           "\u0661")  # fmt: skip


def mutate(data: bytes, rnd: random.Random) -> bytes:
    """Insert, replace or drop card-like tokens."""
    text = _text(data)
    parts = re.split(r"(\s+|,)", text) or [""]
    for _ in range(rnd.randint(1, 3)):
        i = rnd.randrange(len(parts) + 1)
        op = rnd.randrange(3)
        if op == 0 or not parts:
            parts.insert(i, rnd.choice(_TOKENS))
        elif op == 1:
            parts[min(i, len(parts) - 1)] = rnd.choice(_TOKENS)
        else:
            del parts[min(i, len(parts) - 1)]
    return "".join(parts).encode("utf-8", "surrogatepass")


def _text(data: bytes) -> str:
    """Text as Python gets it from files and command lines (lone surrogates included)."""
    try:
        return data.decode("utf-8", "surrogatepass")
    except UnicodeDecodeError:
        return data.decode("utf-8", "surrogateescape")


def _ok(call, *args):  # type: ignore[no-untyped-def]
    """The call's result, or None when it refused the input with the package's error."""
    try:
        return call(*args)
    except TripleDrawError as e:
        assert isinstance(e, ValueError | TypeError), f"{type(e).__name__} is no builtin error"
        return None


def check(data: bytes) -> None:
    text = _text(data)
    tokens = [t for t in re.split(r"[\s,]+", text) if t]
    for cards in (text, tokens):
        parsed = _ok(parse_cards, cards)
        ids = _ok(card_ids, cards)
        engine = _ok(to_ids, cards)
        if parsed is not None:
            assert ids == [c.id for c in parsed], "parse_cards and card_ids disagree"
            again = parse_cards(" ".join(str(c) for c in parsed))
            assert again == parsed, "canonical text does not parse back to the same cards"
        if engine is not None and ids is not None:
            assert engine == ids, "the engine's parser and card_ids disagree"
        rank = _ok(evaluate, cards)
        if rank is not None:
            assert 1 <= rank.rank <= 7462, f"rank {rank.rank} out of range"
            assert ids is not None and len(ids) == 5, "evaluate took what card_ids refuses"
    for t in tokens[:8]:
        card = _ok(Card, t)
        if card is not None:
            assert Card(str(card)) == card
    ints = list(data[:7])
    rank = _ok(evaluate, ints)
    if rank is not None:
        assert 1 <= rank.rank <= 7462


test_one_input = guarded(check, "cards")

if __name__ == "__main__":
    fuzz_one(sys.modules[__name__], sys.argv)
