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

The reduced games (docs/rules.md, *Reduced games*) have the same layout with the sizes
of their member (:func:`layout_of`, :class:`Layout`). With ``R = deck_ranks``,
``S = deck_suits``, ``D = R * S`` cards in the deck, ``H = hand_size`` and ``K = draws``:
``3 + 2 ** H`` actions (bit i of m throws the i-th lowest of the ``H`` cards), and

======================  ===========  ==============================================
block                   size         content
======================  ===========  ==============================================
cards                   D            the seat's own cards, multi-hot by their index in
                                     the deck (``rank * S + suit``: the deck's card
                                     ids in ascending order; the card id itself in the
                                     real game)
card slots              H x (R + S)  for each of the H cards by ascending id: R rank
                                     one-hot + S suit one-hot
own discards            D            by index in the deck
phase                   3            one-hot: bet, draw, over
street                  K + 1        one-hot: betting round / draw index 0..K
to act                  1
pot, bet level, to call 3
raises                  1            / 5, at most 1
players                 (8 + K) x n  as above, with cards held / H (1 while in the
                                     hand) and the K draws ((k + 1) / (H + 1))
======================  ===========  ==============================================

each block right after the one before it. The real game's member is the table above
(``R, S, H, K = 13, 4, 5, 3``): its layout is the module's constants and functions,
which the OpenSpiel game uses for every member (it keeps the 52-card sizes).

>>> from triple_draw import Hand, Rules
>>> h = Hand(Rules(), [100, 100], button=0, seed=3)
>>> obs = encode(h, h.actor)
>>> obs.shape, observation_size(2)
((223,), 223)
>>> sorted(h.hole_ids(h.actor)) == obs[:52].nonzero()[0].tolist()
True
>>> action_mask(h).tolist()[:3], to_action(h, CHECK_CALL)
([1, 1, 1], Action('call'))
>>> tiny = Hand(Rules.variant("tiny"), [100, 100], button=0, seed=3)
>>> lay = layout_of(tiny.rules)
>>> lay.n_actions, lay.observation_size(2), [b[:2] for b in lay.blocks(2)][:4]
(5, 45, [('cards', 6), ('card slots', 5), ('own discards', 6), ('phase', 3)])
>>> lay.held_cards(lay.encode(tiny, 0)) == list(tiny.hole_ids(0))
True
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

import numpy as np

from triple_draw.errors import ArgumentError, ArgumentTypeError, IllegalActionError
from triple_draw.game.actions import Action, discard_action, make_action
from triple_draw.game.cards import CARD_TEXT
from triple_draw.bots import HeuristicBot, plays_rules
from triple_draw.game.hand import check_deck_holds
from triple_draw.game.phase import CLOCKWISE
from triple_draw.game.rules import FAMILY_DEFAULTS, Rules
from triple_draw.simulation import table_rules

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
    "Layout",
    "FULL",
    "layout_of",
    "env_rules",
    "default_opponent",
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

_PHASES = ("bet", "draw", "over")
_FOLD = make_action("fold")
_CHECK = make_action("check")
_CALL = make_action("call")
_BET = make_action("bet")
_RAISE = make_action("raise")
#: _MASK_BITS[m]: positions of the cards (by ascending id) that discard m throws
_MASK_BITS = [tuple(i for i in range(5) if m >> i & 1) for m in range(32)]


class Layout:
    """The actions and the observation vector of one member of the family of games (see
    the module docs): the real game's (:data:`FULL`, what the module's functions use) or a
    reduced game's. Get one with :func:`layout_of`; it is immutable, shared and pickles.

    Its methods are the module's functions for this member: :meth:`encode`,
    :meth:`features`, :meth:`action_mask`, :meth:`apply`, :meth:`to_action`,
    :meth:`from_action`, :meth:`discard_cards`, :meth:`observation_size`; and
    :meth:`blocks` (the table of the module docs) and :meth:`held_cards` (the card ids
    an observation holds)."""

    __slots__ = (
        "bet_mask",
        "card_ones",
        "deck",
        "deck_ranks",
        "deck_size",
        "deck_suits",
        "draw_mask",
        "draw_value",
        "draws",
        "hand_size",
        "index",
        "n_actions",
        "n_discards",
        "no_mask",
        "obs_chips",
        "obs_discards",
        "obs_phase",
        "obs_players",
        "obs_raises",
        "obs_slots",
        "obs_street",
        "obs_to_act",
        "per_player",
        "phase_street",
        "raise_mask",
        "slot_width",
    )  # fmt: skip

    def __init__(
        self, deck_ranks: int = 13, deck_suits: int = 4, hand_size: int = 5, draws: int = 3
    ) -> None:
        r, s, h, k = deck_ranks, deck_suits, hand_size, draws
        self.deck_ranks, self.deck_suits, self.hand_size, self.draws = r, s, h, k
        self.deck_size = d = r * s
        #: card id -> its index in the deck (``rank * deck_suits + suit``; ``None``: a card
        #: outside the deck); the deck's card ids, ascending
        self.index: tuple[int | None, ...] = tuple(
            (c >> 2) * s + (c & 3) if c >> 2 < r and c & 3 < s else None for c in range(52)
        )
        self.deck = tuple(c for c in range(52) if self.index[c] is not None)
        self.n_discards = 1 << h
        self.n_actions = DISCARD_OFFSET + self.n_discards
        self.obs_slots = d
        self.slot_width = w = r + s
        self.obs_discards = d + h * w
        self.obs_phase = self.obs_discards + d
        self.obs_street = self.obs_phase + 3
        self.obs_to_act = self.obs_street + k + 1
        self.obs_chips = self.obs_to_act + 1
        self.obs_raises = self.obs_chips + 3
        self.obs_players = self.obs_raises + 1
        self.per_player = 8 + k
        #: card_ones[j][c]: the positions set by card id c as the j-th lowest card held
        self.card_ones = [
            [
                None
                if i is None
                else (i, d + w * j + (c >> 2), d + w * j + r + (c & 3))
                for c, i in enumerate(self.index)
            ]
            for j in range(h)
        ]
        #: phase_street[phase][street]: the positions of the phase and street one-hots
        self.phase_street = {
            name: [(self.obs_phase + p, self.obs_street + t) for t in range(k + 1)]
            for p, name in enumerate(_PHASES)
        }
        self.draw_value = [(j + 1) / (h + 1) for j in range(h + 1)]
        n = self.n_actions
        self.bet_mask = np.zeros(n, dtype=np.int8)
        self.bet_mask[[FOLD, CHECK_CALL]] = 1
        self.raise_mask = self.bet_mask.copy()
        self.raise_mask[BET_RAISE] = 1
        self.draw_mask = np.zeros(n, dtype=np.int8)
        self.draw_mask[DISCARD_OFFSET:] = 1
        self.no_mask = np.zeros(n, dtype=np.int8)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_layout, (self.deck_ranks, self.deck_suits, self.hand_size, self.draws))

    def __repr__(self) -> str:
        return (
            f"Layout(deck_ranks={self.deck_ranks}, deck_suits={self.deck_suits}, "
            f"hand_size={self.hand_size}, draws={self.draws})"
        )

    def observation_size(self, n_players: int) -> int:
        """Length of the observation vector for a table of ``n_players``."""
        return self.obs_players + self.per_player * n_players

    def blocks(self, n_players: int) -> list[tuple[str, int, int]]:
        """The blocks of the observation of a table of ``n_players``: ``(name, size,
        offset)`` in order (the module docs' table)."""
        d, k = self.deck_size, self.draws
        sizes = [
            ("cards", d), ("card slots", self.hand_size * self.slot_width),
            ("own discards", d), ("phase", 3), ("street", k + 1), ("to act", 1),
            ("pot, bet level, to call", 3), ("raises", 1),
            ("players", self.per_player * n_players),
        ]  # fmt: skip
        out: list[tuple[str, int, int]] = []
        at = 0
        for name, size in sizes:
            out.append((name, size, at))
            at += size
        return out

    def held_cards(self, obs: Any) -> list[int]:
        """The card ids the observation ``obs`` says the seat holds (its cards block),
        ascending."""
        deck = self.deck
        return [deck[i] for i in np.flatnonzero(np.asarray(obs)[: self.deck_size])]

    def _check_hand(self, hand: Any) -> None:
        rules = hand.rules
        if (rules.deck_ranks, rules.deck_suits, rules.hand_size, rules.draws) != (
            self.deck_ranks, self.deck_suits, self.hand_size, self.draws,
        ):  # fmt: skip
            raise ArgumentError(f"{self!r} encodes the hands of its own game, not {rules!r}")

    def features(
        self,
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
        """Append the non-zero entries of seat ``seat``'s observation (see the module docs)
        to ``ones`` (positions of 1.0) and ``vi``/``vv`` (positions and values of the
        others): the fast path of the environments, filled into a zeroed vector with two
        numpy assignments (:meth:`encode`).

        Reads only the public state of ``hand`` (``phase``, ``street``, ``actor``,
        ``stacks``, ``bets``, ``committed``, ``folded``, ``bet_level``, ``raises``,
        ``button``) plus the seat's own cards (``cards``, default ``hand.hole_ids(seat)``),
        its own ``discards`` (card ids, which the caller tracks) and every seat's ``draws``
        (cards drawn at each draw, as ``hand.draws(j)``: the hand's public record,
        ``hand._draws``). ``scale`` is 1 / the total of the starting stacks (chips are
        conserved, so no entry exceeds 1)."""
        phase = hand.phase
        n = hand.n_players
        actor = hand.actor
        folded = hand.folded
        stacks = hand.stacks
        committed = hand.committed
        if cards is None:
            cards = () if folded[seat] else hand.hole_ids(seat)
        extend = ones.extend
        card_ones = self.card_ones
        for k, c in enumerate(sorted(cards)):
            extend(card_ones[k][c])  # a card of the deck: never None
        if discards:
            at = self.obs_discards
            index = self.index
            extend([at + index[c] for c in discards])  # type: ignore[operator]
        extend(self.phase_street[phase][hand.street])
        if actor == seat:
            ones.append(self.obs_to_act)
        vadd = vi.append
        xadd = vv.append
        chips = self.obs_chips
        vadd(chips)
        xadd(sum(committed) * scale)
        if phase == "bet":
            bets = hand.bets
            level = hand.bet_level
            if level:
                vadd(chips + 1)
                xadd(level * scale)
                if not folded[seat]:
                    owe = level - bets[seat]
                    if owe > 0:
                        x = stacks[seat]
                        vadd(chips + 2)
                        xadd((owe if owe < x else x) * scale)
            r = hand.raises
            if r:
                vadd(self.obs_raises)
                xadd(r / 5 if r < 5 else 1.0)
        else:
            bets = None
        over = phase == "over"
        button = hand.button
        o = self.obs_players
        per = self.per_player
        k_draws = self.draws
        draw_value = self.draw_value
        for j in CLOCKWISE[n][seat]:
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
                ones.append(o + 7)  # a seat still in holds all its cards
            else:
                extend((o + 4, o + 7))  # all-in
            if j == button:
                ones.append(o + 5)
            if j == actor:
                ones.append(o + 6)
            d = draws[j]
            if d:
                for i, k in enumerate(d[:k_draws]):
                    vadd(o + 8 + i)
                    xadd(draw_value[k])
            o += per

    def encode(
        self,
        hand: Any,
        seat: int,
        discards: Sequence[int] | None = None,
        draws: Sequence[Sequence[int]] | None = None,
    ) -> np.ndarray:
        """The observation vector of ``seat`` (see the module docs) in a hand of this
        layout's game (:class:`~triple_draw.errors.ArgumentError` for another game's).
        ``discards`` (the seat's own discards) and ``draws`` (every seat's draw counts)
        default to what the hand recorded; environments pass the discards they track to
        save the look-up."""
        if self is not FULL:
            self._check_hand(hand)
        return self._encode(hand, seat, discards, draws)

    def _encode(
        self,
        hand: Any,
        seat: int,
        discards: Sequence[int] | None,
        draws: Sequence[Sequence[int]] | None,
    ) -> np.ndarray:
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
        self.features(ones, vi, vv, hand, seat, discards, draws, 1.0 / sum(hand.starting_stacks))
        out = np.zeros(self.observation_size(n), dtype=np.float32)
        out[ones] = 1.0
        out[vi] = vv
        return out

    def encode_view(
        self, view: dict[str, Any], total_chips: int, discards: Sequence[Any] | None = None
    ) -> np.ndarray:
        """The observation vector of a :meth:`Hand.view` document (see :func:`encode_view`)."""
        state = _ViewState(view)
        seat = view["seat"]
        if discards is None:
            discards = [c for d in view.get("own_draws", ()) for c in d["discarded"]]
        ids = [c if type(c) is int else _TEXT_ID[c] for c in discards]
        ones: list[int] = []
        vi: list[int] = []
        vv: list[float] = []
        cards = [_TEXT_ID[c] for c in view["hole_cards"]]
        self.features(ones, vi, vv, state, seat, ids, state.draws, 1.0 / total_chips, cards)
        out = np.zeros(self.observation_size(state.n_players), dtype=np.float32)
        out[ones] = 1.0
        out[vi] = vv
        return np.minimum(out, 1.0)  # total_chips is the caller's

    def action_mask(self, hand: Any) -> np.ndarray:
        """The legal actions of the hand's actor as a 0/1 int8 vector of ``n_actions`` (all
        zero when over)."""
        if hand.actor is None:
            mask = self.no_mask
        elif hand.in_draw:
            mask = self.draw_mask
        else:
            mask = self.raise_mask if hand.can_bet_or_raise() else self.bet_mask
        return np.array(mask)

    def discard_cards(self, held: Sequence[int], m: int) -> tuple[int, ...]:
        """The cards discard number ``m`` (0 .. ``2 ** hand_size - 1``) throws from
        ``held`` (bit i: the i-th lowest card by id)."""
        s = sorted(held)
        return tuple(s[i] for i in _MASK_BITS[m])

    def _check(self, hand: Any, a: Any) -> int:
        top = self.n_actions - 1
        if type(a) is not int:
            try:
                if isinstance(a, (bool, np.bool_)) or int(a) != a:
                    raise TypeError
                a = int(a)
            except (TypeError, ValueError):
                raise IllegalActionError(f"an action is an int 0..{top}, got {a!r}") from None
        if not 0 <= a <= top:
            raise IllegalActionError(f"action must be 0..{top}, got {a}")
        if hand.actor is None:
            raise IllegalActionError(f"action {a}: the hand is over")
        if (a >= DISCARD_OFFSET) != hand.in_draw or (
            a == BET_RAISE and not hand.can_bet_or_raise()
        ):
            legal = np.flatnonzero(self.action_mask(hand)).tolist()
            raise IllegalActionError(f"illegal action {a} for seat {hand.actor}; legal: {legal}")
        return int(a)

    def to_action(self, hand: Any, a: Any) -> Action:
        """The engine :class:`Action` of action number ``a`` for the hand's actor.

        Raises :class:`IllegalActionError` if ``a`` is not an int 0 .. ``n_actions - 1``
        legal now."""
        a = self._check(hand, a)
        if a >= DISCARD_OFFSET:
            return discard_action(self.discard_cards(hand.hole_ids(hand.actor), a - 3))
        if a == FOLD:
            return _FOLD
        if a == CHECK_CALL:
            return _CALL if hand.facing_bet else _CHECK
        return _BET if hand.bet_level == 0 else _RAISE

    def apply(self, hand: Any, a: Any) -> tuple[int, ...] | None:
        """Play action number ``a`` for the hand's actor with the engine's fast calls;
        returns the cards thrown for a discard, else ``None``. Checks ``a`` first
        (:class:`IllegalActionError`; the hand is unchanged)."""
        a = self._check(hand, a)
        if a >= DISCARD_OFFSET:
            cards = self.discard_cards(hand.hole_ids(hand.actor), a - 3)
            hand.discard(cards)
            return cards
        if a == CHECK_CALL:
            hand.check_or_call()
        elif a == FOLD:
            hand.fold()
        else:
            hand.bet_or_raise()
        return None

    def from_action(self, hand: Any, action: Action) -> int:
        """The action number of an engine :class:`Action` for the hand's actor."""
        if action.kind == "discard":
            held = sorted(hand.hole_ids(hand.actor))
            return DISCARD_OFFSET + sum(1 << held.index(c) for c in action.cards or ())
        if action.kind == "fold":
            return FOLD
        if action.kind in ("check", "call"):
            return CHECK_CALL
        return BET_RAISE


@functools.cache
def _layout(deck_ranks: int, deck_suits: int, hand_size: int, draws: int) -> Layout:
    return Layout(deck_ranks, deck_suits, hand_size, draws)


#: The real game's layout: the module's constants and functions.
FULL = _layout(13, 4, 5, 3)


def layout_of(rules: Rules) -> Layout:
    """The layout of the game of ``rules`` (the real game's: :data:`FULL`), shared."""
    return _layout(rules.deck_ranks, rules.deck_suits, rules.hand_size, rules.draws)


def observation_size(n_players: int) -> int:
    """Length of the observation vector for a table of ``n_players`` (the real game)."""
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
    """:meth:`Layout.features` of the real game's layout (see the module docs): the
    non-zero entries of seat ``seat``'s observation."""
    FULL.features(ones, vi, vv, hand, seat, discards, draws, scale, cards)


def encode(
    hand: Any,
    seat: int,
    discards: Sequence[int] | None = None,
    draws: Sequence[Sequence[int]] | None = None,
) -> np.ndarray:
    """The observation vector of ``seat`` in the real game's layout (see the module docs;
    :meth:`Layout.encode` for a reduced game's). ``discards`` (the seat's own discards)
    and ``draws`` (every seat's draw counts) default to what the hand recorded;
    environments pass the discards they track to save the look-up."""
    return FULL._encode(hand, seat, discards, draws)


class _ViewState:
    """The public state of a :meth:`Hand.view` document, with the names
    :meth:`Layout.features` reads."""

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
    """The observation vector of a :meth:`Hand.view` document (see the module docs), in
    the real game's layout (:meth:`Layout.encode_view`: a reduced game's).

    The seat's own discards come from the view (``own_draws``, view schema 2); for a
    version 1 view, which does not list them, pass them as ``discards`` (ids or text).
    The raises entry counts the bets and raises of the round in the view's history
    (plus the big blind in round 1), which is ``hand.raises`` unless a short all-in raise
    or the rules' blind counting make them differ: use :func:`encode` where the hand is
    at hand."""
    return FULL.encode_view(view, total_chips, discards)


def action_mask(hand: Any) -> np.ndarray:
    """The legal actions of the hand's actor as a 0/1 int8 vector of 35 (all zero when
    over): the real game's (:meth:`Layout.action_mask`: a reduced game's)."""
    return FULL.action_mask(hand)


def discard_cards(held: Sequence[int], m: int) -> tuple[int, ...]:
    """The cards discard number ``m`` (0..31) throws from ``held`` (bit i: the i-th lowest
    card by id)."""
    return FULL.discard_cards(held, m)


def to_action(hand: Any, a: Any) -> Action:
    """The engine :class:`Action` of action number ``a`` for the hand's actor.

    Raises :class:`IllegalActionError` if ``a`` is not an int 0..34 legal now."""
    return FULL.to_action(hand, a)


def apply(hand: Any, a: Any) -> tuple[int, ...] | None:
    """Play action number ``a`` for the hand's actor with the engine's fast calls; returns
    the cards thrown for a discard, else ``None``. Checks ``a`` first
    (:class:`IllegalActionError`; the hand is unchanged)."""
    return FULL.apply(hand, a)


def from_action(hand: Any, action: Action) -> int:
    """The action number of an engine :class:`Action` for the hand's actor."""
    return FULL.from_action(hand, action)


def env_rules(
    n_players: int,
    rules: Any,
    variant: Any,
    component: str,
    fields: dict[str, Any] | None = None,
) -> Rules:
    """The rules of an environment of ``n_players`` (``component`` names it in errors)
    from its ``rules``, ``variant`` and reduced-game ``fields`` arguments, the parameters
    of the OpenSpiel game:

    - neither: ``Rules(max_players=max(6, n_players))``, the real game;
    - ``variant`` (a name of :data:`~triple_draw.game.rules.VARIANTS`): that member,
      ``Rules.variant(variant, max_players=max(6, n_players))``;
    - ``rules`` (a :class:`~triple_draw.Rules`, any member): those rules;
    - both: ``rules``, which must be of the variant's member (the same ``deck_ranks``,
      ``deck_suits``, ``hand_size`` and ``draws``; its other fields are the caller's);
    - ``fields`` (``deck_ranks``, ``deck_suits``, ``hand_size``, ``draws``; ``None``: not
      given): each one given overrides what the rules or the variant set, as the
      OpenSpiel game's parameters of those names override its variant's.

    Raises :class:`~triple_draw.errors.ArgumentError` for an unknown variant, rules of
    another member than the variant's, more players than ``rules.max_players`` or than
    the deck serves (``(n + 1) * hand_size`` cards: the hands and one more, so that every
    draw can be served), and :class:`~triple_draw.errors.ArgumentTypeError` for rules
    that are not a ``Rules``."""
    if rules is not None and type(rules) is not Rules:
        raise ArgumentTypeError(f"{component}: rules must be a Rules, got {type(rules).__name__}")
    given = {k: v for k, v in (fields or {}).items() if v is not None}
    if rules is not None and given:
        rules = rules.replace(**given)
    if variant is not None:
        try:
            member = Rules.variant(variant, max_players=max(6, n_players), **given)
        except ArgumentError as e:
            raise ArgumentError(f"{component}: {e}") from None
        if rules is None:
            rules = member
        else:
            other = [k for k in FAMILY_DEFAULTS if getattr(rules, k) != getattr(member, k)]
            if other:
                mine = ", ".join(f"{k}={getattr(member, k)}" for k in other)
                theirs = ", ".join(f"{k}={getattr(rules, k)}" for k in other)
                raise ArgumentError(
                    f"{component}: variant {variant!r} has {mine} but the rules given have "
                    f"{theirs}: give the variant, or rules of its member (Rules.variant("
                    f"{variant!r}, ...))"
                )
    elif rules is None and given:
        rules = Rules(max_players=max(6, n_players), **given)
    out: Rules = table_rules(n_players, rules, component, reduced=True)
    check_deck_holds(out, n_players, component)
    return out


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


def default_opponent(rules: Rules) -> str:
    """The bot the environments seat when no ``opponents`` are given: the heuristic bot,
    or in a reduced game of fewer than five cards in hand, which it cannot play, the
    calling station (:func:`~triple_draw.bots.plays_rules`)."""
    return "heuristic" if plays_rules(HeuristicBot, rules) else "call"


def opponent_specs(opponents: Any, n_players: int) -> list[Any]:
    """The bots of the seats other than the learner's: one spec (a bot or a bot's name)
    for all of them, or one per other seat (:class:`ArgumentError` for another count)."""
    if isinstance(opponents, (str, bytes)) or not isinstance(opponents, Sequence):
        return [opponents] * (n_players - 1)
    specs = list(opponents)
    if len(specs) != n_players - 1:
        raise ArgumentError(
            f"opponents: give one bot, or {n_players - 1} (one per other seat), "
            f"got {len(specs)}"
        )
    return specs
