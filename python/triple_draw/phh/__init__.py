"""PHH hand histories: the Poker Hand History format of the PokerKit project.

A PHH file is TOML. ``dumps(hand)`` writes a :class:`~triple_draw.game.Hand` (over or in
progress) as PHH text of variant ``F2L3D`` (fixed-limit deuce-to-seven triple draw);
``loads(text)`` replays such a text into a new ``Hand``. ``dump``/``load`` do the same
with files, and ``dumps_all``/``loads_all``/``dump_all``/``load_all`` with ``.phhs`` files
(many hands, one TOML table ``[1]``, ``[2]``, ... per hand; ``iter_dumps_all`` writes one
hand's table at a time, each hand with its own fields).

Seat order follows the PHH specification: ``p1`` is the small blind (heads-up: the big
blind, the first seat left of the button) and the last player holds the button. The
hand's own seat numbers are kept in the optional ``seats`` field (seat + 1), and the rule
options PHH cannot express in the user-defined field ``_triple_draw_rules``.

Actions written and read::

    d dh p1 7h6c4c3d2c        hole cards (at the deal, and the replacements of a draw)
    p3 f / p3 cc / p3 cbr 8   fold / check or call / bet or raise to 8 (round total)
    p1 sd / p1 sd 7hQs        stand pat / discard
    p1 sm 7h6c4c3d2c / p1 sm  show / muck at showdown (``p1 sm -``: show as held)

Unknown cards are ``??``. ``loads`` replays a history with unknown cards (a player's
view) as it is, as a hand with unknown cards (``Hand(..., record=True)``): nothing is
searched or invented, and the engine checks every card the history names where it
appears. ``complete`` deals the unknown cards instead, for a fully dealt hand: cards
shown later (at showdown, or discarded face up) fill in what was unknown before, and the
rest are chosen among the cards the deal could give at that moment under the hand's
rules (a hand mucked unseen at showdown gets losing cards: a dealt hand's showdown is
automatic). Either replay runs under the hand's own rules, so it reshuffles where the
original did.
Anything malformed or illegal raises :class:`~triple_draw.errors.HistoryError` naming
the line and the action.
The module is a package split by job, each part importing only the ones before it:
:mod:`~triple_draw.phh.base` (field names, error locations, bounded numbers) <-
:mod:`~triple_draw.phh.actions` (one action string) <- :mod:`~triple_draw.phh.timing`
(where the stub runs out) <- :mod:`~triple_draw.phh.infer` (the unknown-card solver) <-
:mod:`~triple_draw.phh.replay` <- :mod:`~triple_draw.phh.read`; and
:mod:`~triple_draw.phh.write` beside them. The docs (PHH page) list where PokerKit's rules
differ from ours and what the loader promises about untrusted input.

>>> from triple_draw.game import Hand, Rules
>>> h = Hand(Rules(), [100, 100, 100], button=2, seed=3)
>>> h.fold(); h.fold()
>>> print(dumps(h).splitlines()[0])
variant = "F2L3D"
>>> loads(dumps(h)).stacks == h.stacks
True
"""

from __future__ import annotations

from triple_draw.phh.base import RULES_FIELD, VARIANT
from triple_draw.phh.read import complete, load, load_all, loads, loads_all
from triple_draw.phh.write import dump, dump_all, dumps, dumps_all, iter_actions, iter_dumps_all

__all__ = [
    "VARIANT",
    "RULES_FIELD",
    "dumps",
    "loads",
    "complete",
    "dump",
    "load",
    "dumps_all",
    "iter_dumps_all",
    "loads_all",
    "dump_all",
    "load_all",
    "iter_actions",
]
