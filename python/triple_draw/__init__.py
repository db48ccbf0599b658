"""triple_draw: a fast, faithful engine for Deuce-to-Seven Lowball Triple Draw.

The compiled core (``triple_draw._core``, Rust) holds the cards, the 2-7 evaluator, the
seeded deck and the analysis kernels; this package names the public API and holds the
game layer on top of it:

* cards, hand ranks and the deck: :class:`Card`, :func:`evaluate`, :func:`evaluate_batch`,
  :class:`HandRank`, :class:`Deck` (pure-Python twins in :mod:`triple_draw.reference`);
* the game: :class:`Rules`, :class:`Hand`, :class:`Table` and the actions;
* tournaments: :class:`Tournament` and its :class:`Structure` (sit & go, multi-table);
* draw odds, equity and discard advice: :mod:`triple_draw.analysis`;
* bots and batch play: :class:`HeuristicBot`, :class:`RandomBot`, :func:`simulate`;
* hand histories and state documents: :mod:`triple_draw.phh`, :mod:`triple_draw.schema`;
  the PettingZoo environment is :mod:`triple_draw.envs` (optional extra).
"""

from __future__ import annotations

from triple_draw import phh, schema
from triple_draw._core import (
    CATEGORIES,
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
from triple_draw._executors import RayExecutor
from triple_draw.bots import Bot, HeuristicBot, RandomBot
from triple_draw.errors import (
    AnalysisError,
    ArgumentError,
    ArgumentTypeError,
    BatchError,
    BatchTypeError,
    CardError,
    CardTypeError,
    DeckError,
    HistoryError,
    IllegalActionError,
    RulesError,
    SchemaError,
    TripleDrawError,
    UnknownCardsError,
)
from triple_draw.game import (
    Action,
    Bet,
    Call,
    Check,
    Discard,
    Event,
    Fold,
    Hand,
    HandResult,
    Pot,
    Raise,
    Rules,
    ShowdownEntry,
    Table,
)
from triple_draw.simulation import SeatResult, SimulationResult, simulate
from triple_draw.structure import Level, Structure
from triple_draw.tournament import Tournament

__all__ = [
    # cards, ranks, deck
    "CATEGORIES",
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
    # the game
    "Action",
    "Bet",
    "Call",
    "Check",
    "Discard",
    "Event",
    "Fold",
    "Hand",
    "HandResult",
    "Pot",
    "Raise",
    "Rules",
    "ShowdownEntry",
    "Table",
    # tournaments
    "Level",
    "Structure",
    "Tournament",
    # bots and batch play
    "Bot",
    "HeuristicBot",
    "RandomBot",
    "RayExecutor",
    "SeatResult",
    "SimulationResult",
    "simulate",
    # histories and documents
    "phh",
    "schema",
    # errors
    "AnalysisError",
    "ArgumentError",
    "ArgumentTypeError",
    "BatchError",
    "BatchTypeError",
    "CardError",
    "CardTypeError",
    "DeckError",
    "HistoryError",
    "IllegalActionError",
    "RulesError",
    "SchemaError",
    "TripleDrawError",
    "UnknownCardsError",
]
