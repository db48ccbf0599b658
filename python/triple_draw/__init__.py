"""triple_draw: a fast, faithful engine for Deuce-to-Seven Lowball Triple Draw.

The compiled core (``triple_draw._core``, Rust) holds the cards, the 2-7 evaluator, the
seeded deck and the simulation kernels; this package names the public API and holds the
game layer on top of it.
"""

from __future__ import annotations

from triple_draw._core import (
    NUM_CLASSES,
    Card,
    Deck,
    HandRank,
    __version__,
    card_ids,
    evaluate,
    evaluate_batch,
    parse_cards,
    rank_ids,
)
from triple_draw.errors import (
    AnalysisError,
    BatchError,
    BatchTypeError,
    CardError,
    DeckError,
    HistoryError,
    IllegalActionError,
    RulesError,
    SchemaError,
    TripleDrawError,
)

__all__ = [
    "NUM_CLASSES",
    "Card",
    "Deck",
    "HandRank",
    "__version__",
    "card_ids",
    "evaluate",
    "evaluate_batch",
    "parse_cards",
    "rank_ids",
    "AnalysisError",
    "BatchError",
    "BatchTypeError",
    "CardError",
    "DeckError",
    "HistoryError",
    "IllegalActionError",
    "RulesError",
    "SchemaError",
    "TripleDrawError",
]
