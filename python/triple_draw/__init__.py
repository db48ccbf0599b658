"""triple_draw: a fast, faithful engine for Deuce-to-Seven Lowball Triple Draw.

The compiled core (``triple_draw._core``, Rust) holds the cards, the 2-7 evaluator, the
seeded deck and the simulation kernels; this package names the public API and holds the
game layer on top of it.
"""

from __future__ import annotations

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

# the game engine (issue 3): rules, actions, hands, tables
from triple_draw.game import (  # noqa: E402
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

__all__ += [
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
]

# bots and batch play (issue 4); ``triple_draw.simulate`` is the function (its module's
# other names stay importable: ``from triple_draw.simulate import RayExecutor``)
from triple_draw._executors import RayExecutor  # noqa: E402
from triple_draw.bots import Bot, HeuristicBot, RandomBot  # noqa: E402
from triple_draw.simulate import SeatResult, SimulationResult, simulate  # noqa: E402

__all__ += [
    "Bot",
    "HeuristicBot",
    "RandomBot",
    "RayExecutor",
    "SeatResult",
    "SimulationResult",
    "simulate",
]

# interoperability (issue 5): PHH hand histories and the JSON schemas of to_dict()/view();
# the PettingZoo environment stays behind ``import triple_draw.envs`` (optional extra)
from triple_draw import phh, schema  # noqa: E402

__all__ += ["phh", "schema"]
