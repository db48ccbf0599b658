"""The exceptions of triple_draw.

Every error the package raises derives from :class:`TripleDrawError`, and also from the
builtin exception that users already catch (``ValueError`` for bad values, ``TypeError``
for values of the wrong type), so ``except ValueError`` keeps working. The compiled core
raises these same classes: no Rust panic ever reaches Python.
"""

from __future__ import annotations

import reprlib
from typing import Any

__all__ = [
    "TripleDrawError",
    "CardError",
    "CardTypeError",
    "DeckError",
    "BatchError",
    "BatchTypeError",
    "RulesError",
    "IllegalActionError",
    "HistoryError",
    "UnknownCardsError",
    "SchemaError",
    "AnalysisError",
    "ArgumentError",
    "ArgumentTypeError",
    "ReducedGameError",
    "MissingExtraError",
]


class TripleDrawError(Exception):
    """Base class of every exception raised by triple_draw."""


class CardError(TripleDrawError, ValueError):
    """A malformed or unknown card token, a duplicate card, or the wrong number of cards."""


class CardTypeError(CardError, TypeError):
    """A value that is no card at all where a card is wanted (a list, a bool, ``None``):
    a :class:`CardError` that is also a ``TypeError``."""


class DeckError(TripleDrawError, ValueError):
    """A bad seed, a deal larger than the stub, or a corrupt saved deck state."""


class BatchError(TripleDrawError, ValueError):
    """A bad card id or a duplicate card in a row of a batch array (the row is named)."""


class BatchTypeError(TripleDrawError, TypeError):
    """A batch array of the wrong dtype, number of dimensions or shape."""


class RulesError(TripleDrawError, ValueError):
    """An invalid field of :class:`triple_draw.Rules` (the field is named)."""


class IllegalActionError(TripleDrawError, ValueError):
    """An action that is not legal now; the hand is left exactly as it was."""


class HistoryError(TripleDrawError, ValueError):
    """A malformed or illegal hand history (the line or action is named)."""


class UnknownCardsError(TripleDrawError, ValueError):
    """What a hand replayed from a record with unknown cards cannot do, since it would
    need cards nobody saw: a state document, a card object of an unknown card, dealing
    on at random (docs/engine.md: *Records with unknown cards*)."""


class SchemaError(TripleDrawError, ValueError):
    """A state document of another schema version, or with missing or extra fields."""


class AnalysisError(TripleDrawError, ValueError):
    """An impossible analysis request (duplicate or dead cards, too many draws, ...)."""


class ArgumentError(TripleDrawError, ValueError):
    """A bad argument value when setting something up: a hand's stacks or button, a table
    seat, an action's fields, a simulation's size or seed."""


class ArgumentTypeError(ArgumentError, TypeError):
    """An argument of the wrong type when setting something up (rules that are not a
    :class:`~triple_draw.Rules`, a deck that is not a deck, a core without the core
    interface, a bot that is not a bot, an executor that is not an executor). It is an
    :class:`ArgumentError` too, so one ``except ArgumentError`` catches every bad setup."""


class ReducedGameError(ArgumentError):
    """The rules of a reduced game (``Rules`` with ``deck_ranks``, ``deck_suits``,
    ``hand_size`` or ``draws`` changed: docs/rules.md, *Reduced games*) given to a part
    of the package that plays the real game only - the bots that read five-card hands,
    ``simulate``, PHH and site histories, the table server - or an environment given an
    opponent that cannot play the member; the message names it. It is an
    :class:`ArgumentError` too."""


class MissingExtraError(TripleDrawError, ImportError):
    """A feature needs an optional extra that is not installed (the message names the
    ``pip install 'triple_draw[...]'`` to run)."""


#: the repr of a value in an error message: bounded in length and in depth
_SHOWN = reprlib.Repr()
_SHOWN.maxlevel = 3
_SHOWN.maxstring = _SHOWN.maxother = _SHOWN.maxlong = 60


def shown(value: Any) -> str:
    """``value`` as an error message shows it: its repr, cut short in length and in depth
    (a value nested thousands deep, or an integer of thousands of digits, is shown in a
    few characters instead of exhausting the interpreter)."""
    if type(value) is int and value.bit_length() > 200:
        return f"an integer of {value.bit_length()} bits"
    try:
        return _SHOWN.repr(value)
    except Exception:  # a repr that fails (an integer too long to print, a broken __repr__)
        return f"a {type(value).__name__}"
