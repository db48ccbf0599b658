"""Named states of a hand: its phase, and what each seat still has to do in a betting round.

They are named ``int`` constants rather than an ``IntEnum``: the hot path stores and
compares them millions of times, and plain ints keep CPython's fast paths for list items,
comparisons and truth tests (``if st._phase:`` is "not betting").
"""

from __future__ import annotations

from typing import Final

__all__ = [
    "BET",
    "DRAW",
    "OVER",
    "SHOWDOWN",
    "PHASES",
    "DONE",
    "CALL_ONLY",
    "MAY_RAISE",
    "CLOSED",
    "CLOCKWISE",
]

# -- the phase of a hand (``HandState._phase``)
#: a betting round
BET: Final = 0
#: a draw
DRAW: Final = 1
#: the hand is over
OVER: Final = 2
#: the showdown of a hand replayed from a record: the players show or muck in turn
SHOWDOWN: Final = 3
#: The public names of the phases (``Hand.phase``, documents), indexed by phase.
PHASES: Final = ("bet", "draw", "over", "showdown")

# -- what a seat must still do in the current betting round (``HandState._to_act``); the
# same values mark in ``HandState._active`` whether a seat can still bet at all
# (``MAY_RAISE``) or not (``DONE``), so a new round starts with ``_to_act = _active[:]``.
# The raise rule is ``_to_act[s] == MAY_RAISE``: the entry is kept up to date where the
# betting changes (betting.close_raises), and every reader - the hot path, the listed
# actions, the views, the documents - reads it (docs/rules.md, *Betting*).
#: nothing (acted since the last full bet or raise, folded, or all-in)
DONE: Final = 0
#: must answer a short all-in raise but may not re-raise (the betting was not reopened)
CALL_ONLY: Final = 1
#: must act and may raise
MAY_RAISE: Final = 2
#: must act, and the betting was reopened for him, but he may not raise: the cap is
#: reached, his chips do not exceed the call, or nobody else can still bet
CLOSED: Final = 3

# -- the order of the seats
#: ``CLOCKWISE[n][s]``: the ``n`` seats of a table of ``n`` clockwise from seat ``s`` (``s``
#: first), built once (the hot path walks these tuples instead of counting modulo ``n``)
CLOCKWISE: Final = tuple(
    tuple(tuple((s + k) % n for k in range(n)) for s in range(n)) for n in range(10)
)
