"""A pure-Python reference implementation of the triple_draw core, for parity tests.

This package owns a second, independent implementation of everything the compiled core
(``triple_draw._core``) computes: card parsing, the 2-7 lowball evaluator and the seeded
deck with its ChaCha12 stream, and the bundled bots' decisions (the standard discard and
the heuristic bot). It is written from the rules and the internal contract
alone, never imports the compiled core, and favours plain readable logic; the tests
compare the two implementations hand by hand and deal by deal.

>>> from triple_draw.reference import evaluate, Deck
>>> evaluate("7c5d4h3s2c")
RefHandRank(rank=1, category='no pair', name='7-5 low')
>>> len(Deck(42).deal(5))
5
"""

from __future__ import annotations

from triple_draw.reference.bots import bots_heuristic, bots_standard_discard
from triple_draw.reference.cards import Card, card_ids, parse_cards
from triple_draw.reference.chacha import ChaCha12Stream, chacha_block, lemire_below
from triple_draw.reference.deck import Deck
from triple_draw.reference.evaluator import (
    CATEGORIES,
    CLASS_COUNT,
    RefHandRank,
    evaluate,
    evaluate_batch,
    rank_ids,
)

#: The number of distinct hand ranks (1 .. NUM_CLASSES), as the compiled core names it.
NUM_CLASSES = CLASS_COUNT


def HandRank(rank: int) -> RefHandRank:  # noqa: N802 - the compiled core's class name
    """The rank, category and name of hand rank ``rank`` (1..7462)."""
    return RefHandRank.of_rank(rank)


__all__ = [
    "CATEGORIES",
    "HandRank",
    "NUM_CLASSES",
    "Card",
    "ChaCha12Stream",
    "Deck",
    "RefHandRank",
    "bots_heuristic",
    "bots_standard_discard",
    "card_ids",
    "chacha_block",
    "evaluate",
    "evaluate_batch",
    "lemire_below",
    "parse_cards",
    "rank_ids",
]
