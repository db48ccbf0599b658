"""Fixed-size encodings of a hand for learning agents: actions as integers, what a seat
may know as a vector. No dependency beyond numpy; the PettingZoo environment, the batched
environment and the OpenSpiel game all build on this module.

Actions (``N_ACTIONS`` = 35)::

    0  fold              1  check or call      2  bet or raise
    3 + m  (m = 0..31)   discard: bit i of m discards the i-th lowest card (by card id)
                         of the five the player holds; m = 0 stands pat

Observation of seat ``s`` (float32, every entry in [0, 1]; chips are divided by the
total of the starting stacks). It holds exactly what ``hand.view(s)`` holds plus the
seat's own discards, which the seat saw leave its hand: never another seat's cards or
discards, nor the stub.

======================  ====  ======  ==============================================
block                   size  offset  content
======================  ====  ======  ==============================================
cards                     52       0  the seat's own cards (multi-hot by card id)
card slots                85      52  for each of the 5 cards by ascending id (the
                                      discard bits): 13 rank one-hot + 4 suit one-hot
own discards              52     137  every card the seat has thrown this hand
phase                      3     189  one-hot: bet, draw, over
street                     4     192  one-hot: betting round / draw index 0..3
to act                     1     196  1 if it is this seat's turn
pot, bet level, to call    3     197  chips (bet level and to call are 0 outside
                                      betting)
raises                     1     200  full bets and raises this round
                                      (``hand.raises``) / 5, at most 1
players               11 x n     201  from this seat clockwise (this seat first):
                                      stack, round bet, committed, folded, all-in,
                                      button, to act, cards held / 5, the three draws
                                      ((k + 1) / 6 once he drew k cards, 0 before)
======================  ====  ======  ==============================================

>>> from triple_draw import Hand, Rules
>>> h = Hand(Rules(), [100, 100], button=0, seed=3)
>>> obs = encode(h, h.actor)
>>> obs.shape, observation_size(2)
((223,), 223)
>>> sorted(h.hole_ids(h.actor)) == obs[:52].nonzero()[0].tolist()
True
>>> action_mask(h).tolist()[:3], to_action(h, CHECK_CALL)
([1, 1, 1], Action('call'))
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from triple_draw.errors import IllegalActionError
from triple_draw.game.actions import Action, make_action
from triple_draw.game.cards import CARD_TEXT

__all__ = [
    "N_ACTIONS",
    "FOLD",
    "CHECK_CALL",
    "BET_RAISE",
    "DISCARD_OFFSET",
    "OBS_CARDS",
    "OBS_SLOTS",
    "OBS_DISCARDS",
    "OBS_PHASE",
    "OBS_STREET",
    "OBS_TO_ACT",
    "OBS_CHIPS",
    "OBS_RAISES",
    "OBS_PLAYERS",
    "PER_PLAYER",
    "observation_size",
    "encode",
    "encode_view",
    "features",
    "action_mask",
    "apply",
    "discard_cards",
    "to_action",
    "from_action",
]

FOLD, CHECK_CALL, BET_RAISE, DISCARD_OFFSET = 0, 1, 2, 3
N_ACTIONS = DISCARD_OFFSET + 32
OBS_CARDS = 0
OBS_SLOTS = 52
OBS_DISCARDS = 137
OBS_PHASE = 189
OBS_STREET = 192
OBS_TO_ACT = 196
OBS_CHIPS = 197
OBS_RAISES = 200
OBS_PLAYERS = 201
PER_PLAYER = 11
_TEXT_ID = {t: i for i, t in enumerate(CARD_TEXT[:52])}
_PHASES = {"bet": 0, "draw": 1, "over": 2}

#: _CARD_ONES[k][c]: the positions set by card id c as the k-th lowest card held
_CARD_ONES = [
    [(c, OBS_SLOTS + 17 * k + c // 4, OBS_SLOTS + 17 * k + 13 + c % 4) for c in range(52)]
    for k in range(5)
]
#: _PHASE_STREET[phase][street]: the positions of the phase and street one-hots
_PHASE_STREET = {
    name: [(OBS_PHASE + p, OBS_STREET + r) for r in range(4)]
    for name, p in (("bet", 0), ("draw", 1), ("over", 2))
}
#: _CLOCKWISE[n][seat]: the seats from ``seat`` clockwise
_CLOCKWISE = [[tuple((s + k) % n for k in range(n)) for s in range(n)] for n in range(10)]
#: _MASK_DISCARD[m]: positions of the cards (by ascending id) that discard m throws
_MASK_BITS = [tuple(i for i in range(5) if m >> i & 1) for m in range(32)]
_DRAW_VALUE = [(k + 1) / 6 for k in range(6)]

_BET_MASK = np.zeros(N_ACTIONS, dtype=np.int8)
_BET_MASK[[FOLD, CHECK_CALL]] = 1
_BET_RAISE_MASK = _BET_MASK.copy()
_BET_RAISE_MASK[BET_RAISE] = 1
_DRAW_MASK = np.zeros(N_ACTIONS, dtype=np.int8)
_DRAW_MASK[DISCARD_OFFSET:] = 1
_NO_MASK = np.zeros(N_ACTIONS, dtype=np.int8)
_FOLD = make_action("fold")
_CHECK = make_action("check")
_CALL = make_action("call")
_BET = make_action("bet")
_RAISE = make_action("raise")


def observation_size(n_players: int) -> int:
    """Length of the observation vector for a table of ``n_players``."""
    return OBS_PLAYERS + PER_PLAYER * n_players


def features(
    ones: list[int],
    vi: list[int],
    vv: list[float],
    hand: Any,
    seat: int,
    discards: Sequence[int],
    draws: Sequence[Sequence[int]],
    scale: float,
    cards: Sequence[int] | None = None,
) -> None:
    """Append the non-zero entries of seat ``seat``'s observation (see the module docs) to
    ``ones`` (positions of 1.0) and ``vi``/``vv`` (positions and values of the others):
    the fast path of the environments, filled into a zeroed vector with two numpy
    assignments (:func:`encode`).

    Reads only the public state of ``hand`` (``phase``, ``street``, ``actor``, ``stacks``,
    ``bets``, ``committed``, ``folded``, ``bet_level``, ``raises``, ``button``) plus the
    seat's own cards (``cards``, default ``hand.hole_ids(seat)``), its own ``discards``
    (which the caller tracks) and every seat's ``draws`` (cards drawn at each draw, as
    ``hand.draws(j)``: the hand's public record, ``hand._draws``). ``scale`` is 1 / the
    total of the starting stacks (chips are conserved, so no entry exceeds 1)."""
    phase = hand.phase
    n = hand.n_players
    actor = hand.actor
    folded = hand.folded
    stacks = hand.stacks
    committed = hand.committed
    if cards is None:
        cards = () if folded[seat] else hand.hole_ids(seat)
    extend = ones.extend
    for k, c in enumerate(sorted(cards)):
        extend(_CARD_ONES[k][c])
    if discards:
        extend([OBS_DISCARDS + c for c in discards])
    extend(_PHASE_STREET[phase][hand.street])
    if actor == seat:
        ones.append(OBS_TO_ACT)
    vadd = vi.append
    xadd = vv.append
    vadd(OBS_CHIPS)
    xadd(sum(committed) * scale)
    if phase == "bet":
        bets = hand.bets
        level = hand.bet_level
        if level:
            vadd(OBS_CHIPS + 1)
            xadd(level * scale)
            if not folded[seat]:
                owe = level - bets[seat]
                if owe > 0:
                    x = stacks[seat]
                    vadd(OBS_CHIPS + 2)
                    xadd((owe if owe < x else x) * scale)
        r = hand.raises
        if r:
            vadd(OBS_RAISES)
            xadd(r / 5 if r < 5 else 1.0)
    else:
        bets = None
    over = phase == "over"
    button = hand.button
    o = OBS_PLAYERS
    for j in _CLOCKWISE[n][seat]:
        st = stacks[j]
        if st:
            vadd(o)
            xadd(st * scale)
        if bets is not None and bets[j]:
            vadd(o + 1)
            xadd(bets[j] * scale)
        if committed[j]:
            vadd(o + 2)
            xadd(committed[j] * scale)
        if folded[j]:
            ones.append(o + 3)
        elif st or over:
            ones.append(o + 7)  # a seat still in holds five cards
        else:
            extend((o + 4, o + 7))  # all-in
        if j == button:
            ones.append(o + 5)
        if j == actor:
            ones.append(o + 6)
        d = draws[j]
        if d:
            for i, k in enumerate(d[:3]):
                vadd(o + 8 + i)
                xadd(_DRAW_VALUE[k])
        o += PER_PLAYER


def encode(
    hand: Any,
    seat: int,
    discards: Sequence[int] | None = None,
    draws: Sequence[Sequence[int]] | None = None,
) -> np.ndarray:
    """The observation vector of ``seat`` (see the module docs). ``discards`` (the seat's
    own discards) and ``draws`` (every seat's draw counts) default to what the hand
    recorded; environments pass the discards they track to save the look-up."""
    n = hand.n_players
    if type(seat) is not int or not 0 <= seat < n:
        raise IllegalActionError(f"seat must be 0..{n - 1}, got {seat!r}")
    if discards is None:
        discards = hand.discards(seat)
    if draws is None:
        draws = [hand.draws(j) for j in range(n)]
    ones: list[int] = []
    vi: list[int] = []
    vv: list[float] = []
    features(ones, vi, vv, hand, seat, discards, draws, 1.0 / sum(hand.starting_stacks))
    out = np.zeros(observation_size(n), dtype=np.float32)
    out[ones] = 1.0
    out[vi] = vv
    return out


class _ViewState:
    """The public state of a :meth:`Hand.view` document, with the names :func:`features`
    reads."""

    def __init__(self, view: dict[str, Any]) -> None:
        players = view["players"]
        self.phase = view["phase"]
        self.n_players = view["n_players"]
        self.actor = view["actor"]
        self.street = view["street"]
        self.button = view["button"]
        self.folded = tuple(p["folded"] for p in players)
        self.stacks = tuple(p["stack"] for p in players)
        self.committed = tuple(p["committed"] for p in players)
        self.bets = tuple(p["bet"] for p in players)
        self.bet_level = view["bet_level"]
        raises = 0
        bb_bet = self.street == 0
        for e in reversed(view["history"]):
            if e["kind"] in ("begin_round", "begin_draw"):
                break
            if e["kind"] in ("bet", "raise"):
                raises += 1
        self.raises = raises + (1 if bb_bet and self.bet_level else 0)
        self.draws = [p["draws"] for p in players]


def encode_view(
    view: dict[str, Any], total_chips: int, discards: Sequence[Any] | None = None
) -> np.ndarray:
    """The observation vector of a :meth:`Hand.view` document (see the module docs).

    The seat's own discards come from the view (``own_draws``, view schema 2); for a
    version 1 view, which does not list them, pass them as ``discards`` (ids or text).
    The raises entry counts the bets and raises of the round in the view's history
    (plus the big blind in round 1), which is ``hand.raises`` unless a short all-in raise
    or the rules' blind counting make them differ: use :func:`encode` where the hand is
    at hand."""
    state = _ViewState(view)
    seat = view["seat"]
    if discards is None:
        discards = [c for d in view.get("own_draws", ()) for c in d["discarded"]]
    ids = [c if type(c) is int else _TEXT_ID[c] for c in discards]
    ones: list[int] = []
    vi: list[int] = []
    vv: list[float] = []
    cards = [_TEXT_ID[c] for c in view["hole_cards"]]
    features(ones, vi, vv, state, seat, ids, state.draws, 1.0 / total_chips, cards)
    out = np.zeros(observation_size(state.n_players), dtype=np.float32)
    out[ones] = 1.0
    out[vi] = vv
    return np.minimum(out, 1.0)  # total_chips is the caller's


def action_mask(hand: Any) -> np.ndarray:
    """The legal actions of the hand's actor as a 0/1 int8 vector (all zero when over)."""
    if hand.actor is None:
        mask = _NO_MASK
    elif hand.in_draw:
        mask = _DRAW_MASK
    else:
        mask = _BET_RAISE_MASK if hand.can_bet_or_raise() else _BET_MASK
    return np.array(mask)


def discard_cards(held: Sequence[int], m: int) -> tuple[int, ...]:
    """The cards discard number ``m`` (0..31) throws from ``held`` (bit i: the i-th lowest
    card by id)."""
    s = sorted(held)
    return tuple(s[i] for i in _MASK_BITS[m])


def _check(hand: Any, a: Any) -> int:
    if type(a) is not int:
        try:
            if isinstance(a, (bool, np.bool_)) or int(a) != a:
                raise TypeError
            a = int(a)
        except (TypeError, ValueError):
            raise IllegalActionError(f"an action is an int 0..{N_ACTIONS - 1}, got {a!r}") from None
    if not 0 <= a < N_ACTIONS:
        raise IllegalActionError(f"action must be 0..{N_ACTIONS - 1}, got {a}")
    if hand.actor is None:
        raise IllegalActionError(f"action {a}: the hand is over")
    if (a >= DISCARD_OFFSET) != hand.in_draw or (a == BET_RAISE and not hand.can_bet_or_raise()):
        legal = np.flatnonzero(action_mask(hand)).tolist()
        raise IllegalActionError(f"illegal action {a} for seat {hand.actor}; legal: {legal}")
    return int(a)


def to_action(hand: Any, a: Any) -> Action:
    """The engine :class:`Action` of action number ``a`` for the hand's actor.

    Raises :class:`IllegalActionError` if ``a`` is not an int 0..34 legal now."""
    a = _check(hand, a)
    if a >= DISCARD_OFFSET:
        return make_action("discard", None, discard_cards(hand.hole_ids(hand.actor), a - 3))
    if a == FOLD:
        return _FOLD
    if a == CHECK_CALL:
        return _CALL if hand.facing_bet else _CHECK
    return _BET if hand.bet_level == 0 else _RAISE


def apply(hand: Any, a: Any) -> tuple[int, ...] | None:
    """Play action number ``a`` for the hand's actor with the engine's fast calls; returns
    the cards thrown for a discard, else ``None``. Checks ``a`` first
    (:class:`IllegalActionError`; the hand is unchanged)."""
    a = _check(hand, a)
    if a >= DISCARD_OFFSET:
        cards = discard_cards(hand.hole_ids(hand.actor), a - 3)
        hand.discard(cards)
        return cards
    if a == CHECK_CALL:
        hand.check_or_call()
    elif a == FOLD:
        hand.fold()
    else:
        hand.bet_or_raise()
    return None


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


def render_as(mode: str | None, text: Any) -> str | None:
    """The environments' ``render()``: ``text()`` printed (``"human"``) or returned
    (``"ansi"``); with no render mode, Gymnasium's warning and ``None``."""
    if mode is None:
        import gymnasium

        gymnasium.logger.warn("render() was called without a render_mode ('human' or 'ansi')")
        return None
    out: str = text()
    if mode == "human":
        print(out)
        return None
    return out


def opponent_specs(opponents: Any, n_players: int) -> list[Any]:
    """The bots of the seats other than the learner's: one spec (a bot or a bot's name)
    for all of them, or one per other seat (:class:`ArgumentError` for another count)."""
    from triple_draw.errors import ArgumentError

    if isinstance(opponents, (str, bytes)) or not isinstance(opponents, Sequence):
        return [opponents] * (n_players - 1)
    specs = list(opponents)
    if len(specs) != n_players - 1:
        raise ArgumentError(
            f"opponents: give one bot, or {n_players - 1} (one per other seat), "
            f"got {len(specs)}"
        )
    return specs
