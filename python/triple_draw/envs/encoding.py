"""Fixed-size encodings of a hand for learning agents: actions as integers, a seat's view
as a vector. No dependency beyond numpy (the PettingZoo environment builds on this).

Actions (``N_ACTIONS`` = 35)::

    0  fold              1  check or call      2  bet or raise
    3 + m  (m = 0..31)   discard: bit i of m discards the i-th lowest card (by card id)
                         of the five the player holds; m = 0 stands pat

Observation of seat ``s`` (float32, every entry in [0, 1]; chips are divided by the
total of the starting stacks), built only from ``hand.view(s)``:

======================  ====  =====================================================
block                   size  content
======================  ====  =====================================================
cards                     52  the seat's own cards (multi-hot by card id)
card slots                85  for each of the 5 cards by ascending id (the discard
                              bits): 13 rank one-hot + 4 suit one-hot
phase                      3  one-hot: bet, draw, over
street                     4  one-hot: betting round / draw index 0..3
to act                     1  1 if it is this seat's turn
pot, bet level, to call    3  chips
raises                     1  bets and raises so far this round / 5 (at most 1)
players               11 x n  from this seat clockwise (this seat first): stack,
                              round bet, committed, folded, all-in, button, to act,
                              cards held / 5, the three draws ((k + 1) / 6 once he
                              drew k cards, 0 before)
======================  ====  =====================================================
"""

from __future__ import annotations

from typing import Any

import numpy as np

from triple_draw.game.actions import Action
from triple_draw.game.cards import CARD_TEXT

__all__ = [
    "N_ACTIONS",
    "FOLD",
    "CHECK_CALL",
    "BET_RAISE",
    "DISCARD_OFFSET",
    "observation_size",
    "encode_view",
    "action_mask",
    "to_action",
    "from_action",
]

FOLD, CHECK_CALL, BET_RAISE, DISCARD_OFFSET = 0, 1, 2, 3
N_ACTIONS = DISCARD_OFFSET + 32
_PER_PLAYER = 11
_HEAD = 52 + 85 + 3 + 4 + 1 + 3 + 1
_TEXT_ID = {t: i for i, t in enumerate(CARD_TEXT)}
_PHASES = {"bet": 0, "draw": 1, "over": 2}


def observation_size(n_players: int) -> int:
    """Length of the observation vector for a table of ``n_players``."""
    return _HEAD + _PER_PLAYER * n_players


def encode_view(view: dict[str, Any], total_chips: int) -> np.ndarray:
    """The observation vector of a :meth:`Hand.view` document (see the module docs)."""
    n = view["n_players"]
    seat = view["seat"]
    out = np.zeros(observation_size(n), dtype=np.float32)
    scale = 1.0 / total_chips
    ids = sorted(_TEXT_ID[c] for c in view["hole_cards"])
    for c in ids:
        out[c] = 1.0
    base = 52
    for i, c in enumerate(ids[:5]):
        out[base + 17 * i + c // 4] = 1.0
        out[base + 17 * i + 13 + c % 4] = 1.0
    base += 85
    out[base + _PHASES[view["phase"]]] = 1.0
    base += 3
    out[base + view["street"]] = 1.0
    base += 4
    out[base] = 1.0 if view["actor"] == seat else 0.0
    me = view["players"][seat]
    to_call = (
        max(0, min(view["bet_level"] - me["bet"], me["stack"])) if view["phase"] == "bet" else 0
    )
    out[base + 1] = min(1.0, view["pot"] * scale)
    out[base + 2] = min(1.0, view["bet_level"] * scale)
    out[base + 3] = min(1.0, to_call * scale)
    raises = 0
    for e in reversed(view["history"]):
        if e["kind"] in ("begin_round", "begin_draw"):
            break
        if e["kind"] in ("bet", "raise"):
            raises += 1
    out[base + 4] = min(1.0, raises / 5)
    base += 5
    for k in range(n):
        j = (seat + k) % n
        p = view["players"][j]
        o = base + _PER_PLAYER * k
        out[o] = min(1.0, p["stack"] * scale)
        out[o + 1] = min(1.0, p["bet"] * scale)
        out[o + 2] = min(1.0, p["committed"] * scale)
        out[o + 3] = 1.0 if p["folded"] else 0.0
        out[o + 4] = 1.0 if p["all_in"] else 0.0
        out[o + 5] = 1.0 if view["button"] == j else 0.0
        out[o + 6] = 1.0 if view["actor"] == j else 0.0
        out[o + 7] = p["cards"] / 5
        for d, drawn in enumerate(p["draws"][:3]):
            out[o + 8 + d] = (drawn + 1) / 6
    return out


def action_mask(hand: Any) -> np.ndarray:
    """The legal actions of the hand's actor as a 0/1 int8 vector (all zero when over)."""
    mask = np.zeros(N_ACTIONS, dtype=np.int8)
    if hand.actor is None:
        return mask
    if hand.in_draw:
        mask[DISCARD_OFFSET:] = 1
        return mask
    for a in hand.legal_actions():
        if a.kind == "fold":
            mask[FOLD] = 1
        elif a.kind in ("check", "call"):
            mask[CHECK_CALL] = 1
        else:
            mask[BET_RAISE] = 1
    return mask


def to_action(hand: Any, a: int) -> Action:
    """The engine :class:`Action` of action number ``a`` for the hand's actor."""
    a = int(a)
    if not 0 <= a < N_ACTIONS:
        raise ValueError(f"action must be 0..{N_ACTIONS - 1}, got {a}")
    if a >= DISCARD_OFFSET:
        held = sorted(hand.hole_ids(hand.actor))
        m = a - DISCARD_OFFSET
        return Action("discard", None, tuple(c for i, c in enumerate(held) if m >> i & 1))
    if a == FOLD:
        return Action("fold")
    if a == CHECK_CALL:
        return Action("call") if hand.facing_bet else Action("check")
    return Action("bet" if hand.bet_level == 0 else "raise")


def from_action(hand: Any, action: Action) -> int:
    """The action number of an engine :class:`Action` for the hand's actor."""
    if action.kind == "discard":
        held = sorted(hand.hole_ids(hand.actor))
        return DISCARD_OFFSET + sum(1 << held.index(c) for c in action.cards or ())
    if action.kind == "fold":
        return FOLD
    if action.kind in ("check", "call"):
        return CHECK_CALL
    return BET_RAISE
