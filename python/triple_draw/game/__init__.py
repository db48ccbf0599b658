"""The game engine: rules, actions, one hand as a state machine, and a table of hands.

Modules, one job each (ARCHITECTURE.md says where each rule lives): ``rules`` (stakes and
options), ``actions`` (action values), ``state`` (the hand's state, declared once),
``phase`` (named phases and to-act states), ``hand`` (the public hand and the hot path),
``betting`` (bet/raise legality, legal betting actions, round flow), ``drawing`` (draws
and the one deal from the stub, reshuffles included), ``showdown`` (showdown and payout),
``pots`` (side pots, odd chips), ``result``, ``events`` (history records and log kinds),
``state_io`` (to_dict/from_dict), ``view`` (per-seat views), ``table`` (many hands),
``cards`` (text at the edges), ``core`` (the core switch: compiled core or reference).
"""

from triple_draw.game.actions import ACTION_KINDS, Action, Bet, Call, Check, Discard, Fold, Raise
from triple_draw.game.core import default_core, set_default_core
from triple_draw.game.events import Event
from triple_draw.game.hand import Hand
from triple_draw.game.result import HandResult, Pot, ShowdownEntry
from triple_draw.game.rules import Rules
from triple_draw.game.table import Table

__all__ = [
    "ACTION_KINDS",
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
    "default_core",
    "set_default_core",
]
