"""Deuce-to-Seven Triple Draw as an OpenSpiel game (optional extra ``triple_draw[openspiel]``).

Importing this module registers ``python_triple_draw`` with ``pyspiel``:

>>> import pyspiel
>>> import triple_draw.envs.openspiel
>>> game = pyspiel.load_game("python_triple_draw", {"players": 2, "stacks": 20})
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 52)
>>> game.num_distinct_actions(), game.max_chance_outcomes()
(35, 52)

The engine plays the hand: every betting action, draw, reshuffle, showdown and payout is
:class:`~triple_draw.game.hand.Hand`'s; this module only turns its cards into chance
nodes and its decisions into OpenSpiel actions.

- **Parameters** (all optional): ``players`` (2..8), ``stacks`` (every seat's stack,
  default 100) or ``seat_stacks`` (one stack per seat separated by spaces, e.g.
  ``"50 100 200"``), ``button`` (the button's seat, default 0),
  the stakes and options of :class:`~triple_draw.game.rules.Rules` under their own names
  (``small_blind``, ``big_blind``, ``small_bet``, ``big_bet``, ``ante``, ``raise_cap``,
  ``big_blind_is_bet``, ``heads_up_uncapped``, ``short_all_in``, ``draw_procedure``,
  ``reshuffle``, ``muck_beaten_hands``), the rules of the reduced games (``deck_ranks``,
  ``deck_suits``, ``hand_size``, ``draws``: docs/rules.md, *Reduced games*), the
  ``variant`` naming a member of that family, and one reduction, ``num_draws``.
- **Variants** (:data:`VARIANTS`): ``"full"`` (the default: the real game), ``"medium"``,
  ``"small"`` and ``"tiny"`` (6 cards, ranks 2-3-4 in clubs and diamonds, one card in
  hand, one draw, one raise after the bet: the member CFR solves). A variant sets
  ``deck_ranks``, ``deck_suits``, ``hand_size``, ``draws`` and ``raise_cap``, whose
  defaults are 0 ("the variant's"); any of them given explicitly overrides the variant's
  value (``{"variant": "tiny", "raise_cap": 2}``). The other parameters keep their
  defaults in every variant (heads-up, stacks 100, blinds 1-2, bets 2-4).
- **Reduction** ``num_draws`` (1..3, default 3 = every draw): a smaller game for
  solvers, not a rule. With ``num_draws = k`` the hand is decided after the betting round
  that follows draw ``k``: the engine still plays the remaining draws and rounds, every
  player standing pat and checking automatically (no decision, no chance node), so the
  showdown and payout are the engine's. ``draws`` is the rule (how many draws the hand
  has); ``num_draws`` cuts the decisions short of it: it must not exceed ``draws``
  (refused), but the default 3 means "every draw" whatever ``draws`` is.
- **Chance nodes**: the deal, one card at a time in dealing order (outcomes: every card
  not yet dealt), and each replacement card, one at a time, right after the player
  declares his discard (outcomes: ``Hand.receivable``: the stub, or - when it runs out -
  the new stub the reshuffle rule forms). All outcomes of a node are equally likely, as
  they are in a shuffled deck. Under declare-then-deal a player's replacements are
  chosen when he declares, before the next player declares: nobody sees them earlier, so
  nothing a player may know changes.
- **Actions** (35, :mod:`triple_draw.envs.encoding`): 0 fold, 1 check/call, 2 bet/raise,
  3 + m discard (bit i of m throws the i-th lowest card). With ``hand_size`` cards in
  hand only the ``2 ** hand_size`` discards 3 .. 3 + 2 ** hand_size - 1 are legal (the
  action space stays 35 in every variant). Chance outcomes are card ids, those of the
  52-card deck in every variant (so ``max_chance_outcomes`` is the highest id in the
  deck + 1, e.g. 10 for tiny's 2c 2d 3c 3d 4c 4d: ids 0 1 4 5 8 9), and the tensors keep
  their 52-card sizes.
- **Reduced games and search**: :meth:`TripleDrawState.resample_from_infostate` goes
  through PHH, which plays the real game only: in a reduced variant it raises
  :class:`~triple_draw.errors.ReducedGameError`.
- **Returns**: the chips each seat won or lost (``hand.result.net``), zero-sum.
- **Observations**: the observation tensor is the vector of
  :mod:`triple_draw.envs.encoding` (what ``hand.view(seat)`` holds but the hands shown at
  the showdown, plus the seat's own discards). The information state (perfect recall)
  adds the seat's own cards after the deal and after each draw, and every decision in
  order as the seat saw it (another player's discard as a count only). Each string says
  what its tensor holds in words, and nothing more: two states give a seat the same
  string exactly when they give him the same tensor. So neither tells how many cards the
  others have been dealt so far at a chance node, the order in which the seat got his own
  cards, or the hands shown at the showdown. Neither ever holds another seat's cards or
  discards, nor the stub.
- **Serialisation**: OpenSpiel's (the history of actions): every card comes from a
  chance outcome, so replaying the history rebuilds the state exactly.
- **Speed**: ``state.clone()`` costs about one :meth:`Hand.copy` (pyspiel deep-copies a
  Python state's attributes, here one whose copy is cheap), and the state answers
  ``information_state_tensor`` and ``observation_tensor`` itself (the values of pyspiel's
  path, which builds a new initial state at every call to learn the size).
- :meth:`TripleDrawState.resample_from_infostate` deals the unseen cards anew
  consistently with what the player saw (for ISMCTS): his view of the hand, written as
  PHH with the cards he did not see ``??``, is dealt in full by
  :func:`triple_draw.phh.complete` and replayed as a state of the game.
"""

from __future__ import annotations

import random
from array import array
from collections.abc import Sequence
from typing import Any

import numpy as np

from triple_draw.errors import MissingExtraError

try:
    import pyspiel
except ModuleNotFoundError as e:  # pragma: no cover - only without the extra
    raise MissingExtraError(
        "triple_draw.envs.openspiel needs OpenSpiel: pip install 'triple_draw[openspiel]'"
    ) from e

from triple_draw import phh
from triple_draw.envs import encoding as enc
from triple_draw.errors import ArgumentError, HistoryError, IllegalActionError, TripleDrawError
from triple_draw.game.cards import CARD_TEXT
from triple_draw.game.hand import Hand, check_deck_holds
from triple_draw.game.rules import VARIANTS as _VARIANTS
from triple_draw.game.rules import Rules
from triple_draw.phh.base import phh_order

__all__ = [
    "DEFAULT_PARAMS",
    "TripleDrawGame",
    "TripleDrawObserver",
    "TripleDrawState",
    "VARIANTS",
    "bot_action",
]

#: Every game parameter and its default.
DEFAULT_PARAMS: dict[str, Any] = {
    "players": 2,
    "stacks": 100,
    "seat_stacks": "",
    "button": 0,
    "small_blind": 1,
    "big_blind": 2,
    "small_bet": 2,
    "big_bet": 4,
    "ante": 0,
    "raise_cap": 0,
    "big_blind_is_bet": True,
    "heads_up_uncapped": False,
    "short_all_in": "half-bet",
    "draw_procedure": "declare-then-deal",
    "reshuffle": "served-discards",
    "muck_beaten_hands": False,
    "num_draws": 3,
    "variant": "full",
    "deck_ranks": 0,
    "deck_suits": 0,
    "hand_size": 0,
    "draws": 0,
}
#: The members of the family of reduced games by name (``variant``): the values of the
#: parameters a variant sets (a parameter left at 0 takes its variant's value; one given
#: overrides it). "full" is the real game. The one table of the package
#: (:data:`triple_draw.game.rules.VARIANTS`, which the environments read too).
VARIANTS = _VARIANTS
#: the parameters a variant sets (0 in DEFAULT_PARAMS: "the variant's")
_VARIANT_KEYS = ("deck_ranks", "deck_suits", "hand_size", "draws", "raise_cap")
_RULE_KEYS = (
    "small_blind",
    "big_blind",
    "small_bet",
    "big_bet",
    "ante",
    "raise_cap",
    "big_blind_is_bet",
    "heads_up_uncapped",
    "short_all_in",
    "draw_procedure",
    "reshuffle",
    "muck_beaten_hands",
)
_BET_WORDS = ("f", "c", "r")
_CARD_ID = {t: i for i, t in enumerate(CARD_TEXT[:52])}
#: the seeds of phh.complete a resample draws from (one float of the sampler each)
_SEEDS = 1 << 53
#: completions of a player's view a resample tries: one that the game's chance nodes
#: cannot deal (declare-then-deal under the "pokerkit" reshuffle, see resample_from_infostate)
#: is drawn again
_RESAMPLE_ATTEMPTS = 3
_GAME_TYPE = pyspiel.GameType(
    short_name="python_triple_draw",
    long_name="Python Deuce-to-Seven Triple Draw (triple_draw)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=8,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=DEFAULT_PARAMS,
)


def _parse(params: dict[str, Any]) -> tuple[Rules, int, tuple[int, ...], int, int]:
    unknown = sorted(set(params) - set(DEFAULT_PARAMS))
    if unknown:
        raise ArgumentError(f"unknown python_triple_draw parameter(s): {unknown}")
    p = {**DEFAULT_PARAMS, **params}
    n = p["players"]
    if type(n) is not int or not 2 <= n <= 8:
        raise ArgumentError(f"players must be 2..8, got {n!r}")
    variant = VARIANTS.get(p["variant"])
    if variant is None:
        raise ArgumentError(f"variant must be one of {sorted(VARIANTS)}, got {p['variant']!r}")
    for key in _VARIANT_KEYS:
        if type(p[key]) is not int or p[key] < 0:
            raise ArgumentError(f"{key} must be an int (0: the variant's), got {p[key]!r}")
        if p[key] == 0:
            p[key] = variant[key]
    try:
        rules = Rules(
            max_players=max(6, n),
            **{k: p[k] for k in _RULE_KEYS},
            **{k: p[k] for k in _VARIANT_KEYS if k != "raise_cap"},
        )
    except TripleDrawError as e:
        raise ArgumentError(f"python_triple_draw: {e}") from e
    check_deck_holds(rules, n, "python_triple_draw: players")
    if p["seat_stacks"]:
        try:
            stacks = tuple(int(x) for x in str(p["seat_stacks"]).split())
        except ValueError:
            raise ArgumentError(
                f"seat_stacks must be ints separated by spaces, got {p['seat_stacks']!r}"
            ) from None
        if len(stacks) != n or min(stacks) <= 0:
            raise ArgumentError(f"seat_stacks must hold {n} stacks > 0, got {p['seat_stacks']!r}")
    else:
        if type(p["stacks"]) is not int or p["stacks"] <= 0:
            raise ArgumentError(f"stacks must be an int > 0, got {p['stacks']!r}")
        stacks = (p["stacks"],) * n
    button = p["button"]
    if type(button) is not int or not 0 <= button < n:
        raise ArgumentError(f"button must be a seat 0..{n - 1}, got {button!r}")
    k = p["num_draws"]
    if type(k) is not int or not 1 <= k <= 3:
        raise ArgumentError(f"num_draws must be 1..3, got {k!r}")
    if k != 3 and k > rules.draws:
        raise ArgumentError(
            f"num_draws ({k}) cannot exceed the game's draws ({rules.draws}): num_draws "
            "decides the hand after an earlier draw of the game's"
        )
    return rules, n, stacks, button, k


def _max_bets(rules: Rules, n: int, stacks: tuple[int, ...]) -> int:
    """An upper bound on the bets and raises of one betting round: the full ones (at most
    ``raise_cap + 1``, or as many as the chips allow when uncapped: each adds at least
    half a unit) and the short all-ins (one per player)."""
    by_chips = 2 * sum(stacks) // rules.small_bet + n + 1
    return by_chips if rules.heads_up_uncapped else min(rules.raise_cap + 1 + n, by_chips)


class TripleDrawGame(pyspiel.Game):  # type: ignore[misc]
    """The game ``python_triple_draw`` (see the module docs for its parameters)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        rules, n, stacks, button, k = _parse(params)
        self.rules = rules
        self.n = n
        self.stacks = stacks
        self.button = button
        #: the draws decided by the players (the ``num_draws`` reduction: the later ones
        #: are played automatically); ``rules.draws`` when every draw is decided
        self.num_draws = min(k, rules.draws)
        #: the cards in the deck (card ids of the 52-card deck), in hand, and the number
        #: of legal discard actions (``2 ** hand_size``: masks of ``hand_size`` bits)
        self.deck = tuple(rules.compiled.deck)
        self.hand_size = rules.hand_size
        self.n_discards = 1 << rules.hand_size
        draws = rules.draws
        #: an upper bound on the decisions of one hand: draws + 1 betting rounds (each
        #: seat acts once, and each bet or raise is answered at most once by every other
        #: seat), the draws
        self.max_decisions = (draws + 1) * n * (_max_bets(rules, n, stacks) + 2) + draws * n
        chance = self.hand_size * n * (1 + draws)
        total = sum(stacks)
        info = pyspiel.GameInfo(
            num_distinct_actions=enc.N_ACTIONS,
            max_chance_outcomes=max(self.deck) + 1,  # card ids of the 52-card deck
            num_players=n,
            min_utility=float(-max(stacks)),
            max_utility=float(total - min(stacks)),
            utility_sum=0.0,
            max_game_length=self.max_decisions + chance,
        )
        full = {**DEFAULT_PARAMS, **params}
        super().__init__(_GAME_TYPE, info, full)
        self.key = tuple(sorted(full.items()))
        _GAMES.setdefault(self.key, self)
        template = self._template()
        sb = template.small_blind_seat
        assert sb is not None  # the template deals the usual blinds
        self.deal_order = tuple((sb + p) % n for p in range(n))
        #: the public state of the table during the deal (read only)
        self.deal_public = _DealPublic(template)
        self.scale = 1.0 / total
        #: the information state tensor: the observation, the own hands (4 x 52), the
        #: decisions (max_decisions rows of ``dec_width``)
        self.obs_size = enc.observation_size(n)
        self.dec_width = n + 3 + 6
        self.dec_base = self.obs_size + 4 * 52
        self.info_size = self.dec_base + self.max_decisions * self.dec_width
        #: the core of every new initial state, shared until its first action (a clone
        #: starts from a new initial state, whose core it replaces at once)
        self.initial_core = _Core(self)

    def _template(self) -> Hand:
        """A hand of this game before any card is seen: its public state is the state of
        the table during the deal."""
        return Hand(self.rules, list(self.stacks), self.button, 0)

    def new_initial_state(self) -> TripleDrawState:
        return TripleDrawState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> TripleDrawObserver:
        return TripleDrawObserver(self, iig_obs_type, params)


_GAMES: dict[tuple[tuple[str, Any], ...], TripleDrawGame] = {}
_CHANCE = int(pyspiel.PlayerId.CHANCE)
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)


def _game_for(key: tuple[tuple[str, Any], ...]) -> TripleDrawGame:
    g = _GAMES.get(key)
    return TripleDrawGame(dict(key)) if g is None else g


class _DealPublic:
    """The public state of the table while the cards are dealt (blinds posted, nobody to
    act yet), with the names :func:`encoding.features` reads."""

    def __init__(self, template: Hand) -> None:
        self.phase = "bet"
        self.n_players = template.n_players
        self.actor = None
        self.street = 0
        self.button = template.button
        self.folded = template.folded
        self.stacks = template.stacks
        self.committed = template.committed
        self.bets = template.bets
        self.bet_level = template.bet_level
        self.raises = template.raises


class _Core:
    """Everything a state holds, as the state's one attribute.

    OpenSpiel clones a Python state by deep-copying each attribute of its ``__dict__``
    into a new initial state (``PyState::Clone``): with one attribute whose
    ``__deepcopy__`` copies the hand with :meth:`Hand.copy`, copies the few lists that
    grow in place and shares the rest (tuples, strings: replaced, never changed), a
    clone costs little more than ``Hand.copy``. It pickles (OpenSpiel's serialisation)
    as the game's parameters and the actions, replayed when loaded.

    Besides the hand it keeps what the engine does not tell a seat, and, for the
    information state tensor, the positions of the ones that the seats' own hands and
    the decisions set, kept up to date as actions are applied."""

    __slots__ = (
        "actions",
        "dealt",
        "dec_ones",
        "decisions",
        "discards",
        "game",
        "hand",
        "held",
        "held_ones",
        "outcomes",
        "pending",
    )

    def __init__(self, game: TripleDrawGame) -> None:
        n = game.n
        self.game = game
        self.hand: Hand | None = None
        #: every action applied, chance outcomes included
        self.actions: list[int] = []
        #: the cards dealt so far, in dealing order (until the hand exists)
        self.dealt: tuple[int, ...] = ()
        #: (seat, discarded cards, replacements dealt so far) while replacements are dealt
        self.pending: tuple[int, tuple[int, ...], tuple[int, ...]] | None = None
        #: (pending, the cards it may receive next): the engine's answer, asked once per
        #: replacement card (the chance outcomes, then the check of the one applied)
        self.outcomes: tuple[Any, tuple[int, ...]] | None = None
        #: per seat: every card he threw; his cards after the deal and after each of his
        #: draws (how many cards each seat drew is the hand's public record: _draw_counts)
        self.discards: list[tuple[int, ...]] = [()] * n
        self.held: list[tuple[tuple[int, ...], ...]] = [()] * n
        #: the decisions in order as every seat sees them, ``seat:word`` separated by
        #: spaces (f, c, r, or x and the number of cards thrown)
        self.decisions = ""
        #: per seat, the positions of the ones of the information state tensor: his own
        #: hands (the first four), and the decisions as he sees them
        self.held_ones: list[tuple[int, ...]] = [()] * n
        self.dec_ones: list[list[int]] = [[] for _ in range(n)]

    def __deepcopy__(self, memo: Any) -> _Core:
        new = _Core.__new__(_Core)
        new.game = self.game
        h = self.hand
        new.hand = None if h is None else h.copy()
        new.actions = self.actions.copy()
        new.dealt = self.dealt
        new.pending = self.pending
        new.outcomes = self.outcomes
        new.discards = self.discards.copy()
        new.held = self.held.copy()
        new.decisions = self.decisions
        new.held_ones = self.held_ones.copy()
        new.dec_ones = [x.copy() for x in self.dec_ones]
        return new

    def __reduce__(self) -> tuple[Any, ...]:
        return (_replayed, (self.game.key, tuple(self.actions)))


def _replayed(key: tuple[tuple[str, Any], ...], actions: tuple[int, ...]) -> _Core:
    state = TripleDrawState(_game_for(key))
    for a in actions:
        state._apply_action(a)
    return state._s


class TripleDrawState(pyspiel.State):  # type: ignore[misc]
    """A state of ``python_triple_draw``: the dealt cards while dealing, then the engine's
    :class:`Hand` (``state.hand``)."""

    def __init__(self, game: TripleDrawGame) -> None:
        super().__init__(game)
        self._s = game.initial_core  # shared: _apply_action copies it first

    @property
    def _g(self) -> TripleDrawGame:
        return self._s.game

    @property
    def hand(self) -> Hand | None:
        """The engine's hand once the cards are dealt (read it; do not drive it)."""
        return self._s.hand

    @property
    def _pending(self) -> tuple[int, tuple[int, ...], tuple[int, ...]] | None:
        """(seat, discarded cards, replacements dealt so far) while a discard is served."""
        return self._s.pending

    def __copy__(self) -> TripleDrawState:
        return self.clone()  # type: ignore[no-any-return]

    def __deepcopy__(self, memo: Any) -> TripleDrawState:
        return self.clone()  # type: ignore[no-any-return]

    # -- the game tree -----------------------------------------------------------------------

    def current_player(self) -> int:
        s = self._s
        h = s.hand
        if h is None or s.pending is not None:
            return _CHANCE
        a = h.actor
        return _TERMINAL if a is None else a

    def is_terminal(self) -> bool:
        h = self._s.hand
        return h is not None and h.actor is None

    def _legal_actions(self, player: int) -> list[int]:
        s = self._s
        h = s.hand
        if h is None or s.pending is not None or h.actor != player:
            return []
        if h.in_draw:
            return list(range(enc.DISCARD_OFFSET, enc.DISCARD_OFFSET + s.game.n_discards))
        return np.flatnonzero(enc.action_mask(h)).tolist()  # type: ignore[no-any-return]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        outs = self._chance_cards()
        p = 1.0 / len(outs)
        return [(c, p) for c in outs]

    def _chance_cards(self) -> list[int]:
        s = self._s
        if s.hand is None:
            dealt = set(s.dealt)
            return [c for c in s.game.deck if c not in dealt]
        if s.pending is None:
            return []
        return list(self._receivable())

    def _receivable(self) -> tuple[int, ...]:
        """The cards the discard being served may receive next, sorted."""
        s = self._s
        known = s.outcomes
        if known is not None and known[0] is s.pending:
            return known[1]
        assert s.pending is not None and s.hand is not None
        _seat, cards, got = s.pending
        outs = tuple(sorted(s.hand.receivable(cards, got)))
        s.outcomes = (s.pending, outs)
        return outs

    def _apply_action(self, action: int) -> None:
        a = int(action)
        s = self._s
        if s is s.game.initial_core:  # shared: a core changes only in _apply, below
            self._s = s.__deepcopy__(None)
        self._apply(a)
        self._s.actions.append(a)

    def _apply(self, a: int) -> None:
        s = self._s
        g = s.game
        n = g.n
        h = s.hand
        if h is None:  # the deal
            if a not in g.deck or a in s.dealt:
                raise IllegalActionError(f"card {a} cannot be dealt now")
            s.dealt += (a,)
            if len(s.dealt) == g.hand_size * n:
                hole: list[list[int]] = [[] for _ in range(n)]
                for i, c in enumerate(s.dealt):
                    hole[g.deal_order[i % n]].append(c)
                s.hand = Hand(g.rules, list(g.stacks), g.button, 0, hole_cards=hole)
                for seat in range(n):
                    self._holds(seat, hole[seat])
                self._auto()
            return
        if s.pending is not None:  # a replacement card
            seat, cards, got = s.pending
            if a not in self._receivable():
                raise IllegalActionError(f"seat {seat} cannot receive card {a} now")
            got += (a,)
            if len(got) < len(cards):
                s.pending = (seat, cards, got)
                return
            # his cards after the draw (under declare-then-deal the engine holds the
            # replacements back until the last player has declared)
            kept = [c for c in h.hole_ids(seat) if c not in cards]
            h.discard(cards, receive=list(got))
            s.pending = None
            self._holds(seat, kept + list(got))
            self._auto()
            return
        seat = h.actor
        if a >= enc.DISCARD_OFFSET:
            if a >= enc.DISCARD_OFFSET + g.n_discards:
                raise IllegalActionError(
                    f"illegal action {a}: discards are {enc.DISCARD_OFFSET}.."
                    f"{enc.DISCARD_OFFSET + g.n_discards - 1} with {g.hand_size} cards in hand"
                )
            if not h.in_draw:
                raise IllegalActionError(f"illegal action {a}: seat {seat} is betting")
            cards = tuple(enc.discard_cards(h.hole_ids(seat), a - enc.DISCARD_OFFSET))
            k = len(cards)
            s.discards[seat] += cards
            self._decided(seat, 3 + k, f"x{k}")
            if cards:
                s.pending = (seat, cards, ())
            else:
                h.discard(())
                self._holds(seat, h.hole_ids(seat))
                self._auto()
            return
        enc.apply(h, a)
        self._decided(seat, a, _BET_WORDS[a])
        self._auto()

    def _holds(self, seat: int, cards: Any) -> None:
        """Record ``seat``'s cards after the deal or after one of his draws."""
        s = self._s
        held = tuple(sorted(cards))
        k = len(s.held[seat])
        s.held[seat] += (held,)
        if k < 4:
            base = s.game.obs_size + 52 * k
            s.held_ones[seat] += tuple(base + c for c in held)

    def _decided(self, seat: int, column: int, word: str) -> None:
        """Record a decision of ``seat`` (``column``: its action column in a row of the
        information state tensor's decisions, after the seat's)."""
        s = self._s
        g = s.game
        n = g.n
        ones = s.dec_ones
        row = g.dec_base + (len(ones[0]) >> 1) * g.dec_width
        act = row + n + column
        for p in range(n):
            mine = ones[p]
            mine.append(row + (seat - p) % n)
            mine.append(act)
        s.decisions = f"{s.decisions} {seat}:{word}" if s.decisions else f"{seat}:{word}"

    def _auto(self) -> None:
        """The ``num_draws`` reduction: past its last draw's betting round every player
        stands pat and checks."""
        s = self._s
        h = s.hand
        assert h is not None
        k = s.game.num_draws
        if k == s.game.rules.draws:
            return
        while h.actor is not None and h.street >= k:
            if h.in_draw:
                h.discard(())
            elif h.street > k:
                h.check_or_call()  # nobody bets in these rounds: always a check
            else:
                break

    def _action_to_string(self, player: int, action: int) -> str:
        a = int(action)
        if player == pyspiel.PlayerId.CHANCE:
            return CARD_TEXT[a] if 0 <= a < 52 else f"card {a}"
        if a == enc.FOLD:
            return "fold"
        if a == enc.CHECK_CALL:
            return "check/call"
        if a == enc.BET_RAISE:
            return "bet/raise"
        h = self.hand
        m = a - enc.DISCARD_OFFSET
        if m == 0:
            return "stand pat"
        if h is not None and h.actor == player and h.in_draw and self._s.pending is None:
            return "discard " + " ".join(
                CARD_TEXT[c] for c in enc.discard_cards(h.hole_ids(player), m)
            )
        return "discard cards " + ",".join(str(i + 1) for i in range(5) if m >> i & 1)

    def returns(self) -> list[float]:
        h = self.hand
        if h is None or h.actor is not None:
            return [0.0] * self._g.n
        res = h.result
        assert res is not None
        return [float(x) for x in res.net]

    def __str__(self) -> str:
        h = self.hand
        if h is None:
            return "dealing: " + " ".join(CARD_TEXT[c] for c in self._s.dealt)
        cards = " | ".join(
            " ".join(CARD_TEXT[c] for c in sorted(h.hole_ids(s))) for s in range(self._g.n)
        )
        return f"{h!r} [{cards}]"

    # -- what a seat knows -------------------------------------------------------------------

    def _public(self) -> Any:
        h = self._s.hand
        return h if h is not None else self._s.game.deal_public

    def _own_cards(self, seat: int) -> list[int]:
        s = self._s
        h = s.hand
        if h is None:
            order = s.game.deal_order
            n = s.game.n
            return [c for i, c in enumerate(s.dealt) if order[i % n] == seat]
        if h.folded[seat]:
            return []
        if s.pending is not None and s.pending[0] == seat:
            _seat, cards, got = s.pending
            return [c for c in h.hole_ids(seat) if c not in cards] + list(got)
        return list(h.hole_ids(seat))

    def _features(
        self, seat: int, ones: list[int], vi: list[int], vv: list[float], private: bool = True
    ) -> None:
        s = self._s
        g = s.game
        h = s.hand
        if private:
            cards = self._own_cards(seat)
            discards: tuple[int, ...] = s.discards[seat]
        else:
            cards, discards = [], ()
        pub = h if h is not None else g.deal_public
        # (_draw_counts, inline for the common case)
        draws = h._draws if h is not None and s.pending is None else self._draw_counts()
        enc.features(ones, vi, vv, pub, seat, discards, draws, g.scale, cards)

    def _draw_counts(self) -> Sequence[tuple[int, ...]]:
        """How many cards each seat drew at each draw: the hand's public record of it, and
        the discard being served (announced; its replacements are chance outcomes still,
        so the engine has not been told yet)."""
        s = self._s
        h = s.hand
        if h is None:
            return ((),) * s.game.n
        if s.pending is None:
            return h._draws
        seat, cards, _got = s.pending
        counts = h._draws[:]
        counts[seat] += (len(cards),)
        return counts

    def _sparse(
        self, seat: int, private: bool, recall: bool
    ) -> tuple[list[int], list[int], list[float]]:
        """The non-zero entries of ``seat``'s observation tensor (``recall``: information
        state tensor): the positions of the ones, and the positions and values of the
        others. The entries of the own hands (``private``) and of the decisions are kept
        up to date as actions are applied; the observation's are the encoding's."""
        ones: list[int] = []
        vi: list[int] = []
        vv: list[float] = []
        self._features(seat, ones, vi, vv, private)
        if recall:
            s = self._s
            if private:
                ones.extend(s.held_ones[seat])
            ones.extend(s.dec_ones[seat])
        return ones, vi, vv

    def _tensor(self, seat: int, recall: bool, size: int) -> list[float]:
        """The tensor as pyspiel returns it: a list of ``size`` floats (float32 values)."""
        ones, vi, vv = self._sparse(seat, True, recall)
        out = [0.0] * size
        for i in ones:
            out[i] = 1.0
        for i, v in zip(vi, array("f", vv), strict=True):
            out[i] = v
        return out

    def information_state_tensor(self, player: Any = None) -> list[float]:
        """pyspiel's ``information_state_tensor`` (of ``player``, default the player to
        act), made here: the same values, without pyspiel's round trip, which builds a
        new initial state and writes its tensor to learn the size at every call."""
        p = self.current_player() if player is None else player
        g = self._s.game
        if type(p) is not int or not 0 <= p < g.n:
            if isinstance(p, np.integer) and 0 <= p < g.n:
                return self._tensor(int(p), True, g.info_size)
            # pyspiel's own checks and errors
            return super().information_state_tensor(*(() if player is None else (player,)))  # type: ignore[no-any-return]
        return self._tensor(p, True, g.info_size)

    def observation_tensor(self, player: Any = None) -> list[float]:
        """pyspiel's ``observation_tensor`` (of ``player``, default the player to act),
        made here like :meth:`information_state_tensor`."""
        p = self.current_player() if player is None else player
        g = self._s.game
        if type(p) is not int or not 0 <= p < g.n:
            if isinstance(p, np.integer) and 0 <= p < g.n:
                return self._tensor(int(p), False, g.obs_size)
            return super().observation_tensor(*(() if player is None else (player,)))  # type: ignore[no-any-return]
        return self._tensor(p, False, g.obs_size)

    def _observation_string(self, seat: int, private: bool = True) -> str:
        """The observation tensor's facts in words, and no others: two states give a seat
        the same string exactly when they give it the same tensor."""
        s = self._s
        h = s.hand
        pub = h if h is not None else s.game.deal_public
        head = "deal" if h is None else f"{pub.phase} {pub.street + 1}"
        actor = "-" if pub.actor is None else str(pub.actor)
        betting = pub.phase == "bet"
        out = f"p{seat} {head} actor {actor} pot {sum(pub.committed)}"
        if betting:
            r = pub.raises
            out += f" level {pub.bet_level} raises {r if r < 5 else '5+'}"
        parts = [out]
        if private:
            parts.append("cards " + "".join([CARD_TEXT[c] for c in sorted(self._own_cards(seat))]))
            # the tensor marks each card thrown once, however often
            parts.append("thrown " + "".join([CARD_TEXT[c] for c in sorted(set(s.discards[seat]))]))
        folded = pub.folded
        button = pub.button
        stacks = pub.stacks
        committed = pub.committed
        bets = pub.bets if betting else None
        for j, drew in enumerate(self._draw_counts()):
            flags = ("F" if folded[j] else "") + ("B" if j == button else "")
            bet = bets[j] if bets is not None else 0
            draws = ",".join([str(k) for k in drew])
            parts.append(f"s{j}{flags} {stacks[j]}/{bet}/{committed[j]} d[{draws}]")
        return " | ".join(parts)

    def _info_string(self, seat: int, private: bool = True) -> str:
        """The information state tensor's facts in words, and no others: the observation,
        the seat's own cards after the deal and after each draw (``private``), and every
        decision in order (a discard as its count)."""
        s = self._s
        text = self._observation_string(seat, private)
        if private:
            held = " ".join(["".join([CARD_TEXT[c] for c in h]) for h in s.held[seat][:4]])
            return f"{text} | hands {held} | {s.decisions}"
        return f"{text} | {s.decisions}"

    # -- search ------------------------------------------------------------------------------

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Any = None
    ) -> TripleDrawState:
        """A state with the same information state for ``player_id`` whose cards he has
        not seen - the others' cards, discards and replacements, and so the stub - are
        dealt anew, consistently with everything he saw (for ISMCTS).

        The hand as he sees it (:func:`triple_draw.phh.dumps` with ``viewer``: the
        others' cards are ``??`` unless shown at the showdown) is dealt in full by
        :func:`triple_draw.phh.complete` under the game's rules, reshuffles included:
        every unknown card is one the deal could have given at that moment. The deal is
        one of those consistent with what he saw, not necessarily drawn uniformly among
        them, nor weighed by how likely the others' decisions make it (and where
        ``complete`` has to search, the same one for every seed). The new state replays
        this state's history with the completed hand's cards as the other seats' chance
        outcomes and its discards as theirs (as many cards as here): his own cards and
        decisions, the chips, the betting, every seat's draw counts and the showdown
        stay this state's, and so do his information state string and tensor and his
        observations.

        ``probability_sampler`` (a callable returning floats in [0, 1), e.g. OpenSpiel's
        ``UniformProbabilitySampler``; without one, Python's ``random``) draws the seed of
        the completion. Any state may be resampled, for any seat: at a chance node the
        new state is at the same chance node (during the deal he keeps the cards he was
        dealt so far; while a discard is served, the replacements dealt so far are his
        if it is his discard, else new ones), and a finished hand keeps the hands shown
        at its showdown and its returns.

        Under declare-then-deal with the "pokerkit" reshuffle the game deals a
        declaration's replacements before the later declarations, so a new stub formed
        there cannot give him their discards, as the engine's deal (and so ``complete``)
        may: a completion that does so cannot be replayed and another seed is drawn (up
        to three in all; with 7 or 8 players some views get none that fits). Raises
        :class:`~triple_draw.errors.ArgumentError` for a ``player_id`` that is not a
        seat, and :class:`~triple_draw.errors.TripleDrawError` if no completion fits -
        never the state's own deal in its place, which would show a search the cards it
        must not see."""
        g = self._g
        n = g.n
        if isinstance(player_id, bool) or not isinstance(player_id, (int, np.integer)):
            raise ArgumentError(f"player_id must be a seat 0..{n - 1}, got {player_id!r}")
        p = int(player_id)
        if not 0 <= p < n:
            raise ArgumentError(f"player_id must be a seat 0..{n - 1}, got {player_id!r}")
        draw = probability_sampler if callable(probability_sampler) else random.random
        text = self._view_phh(p)
        why: TripleDrawError | None = None
        for _attempt in range(_RESAMPLE_ATTEMPTS):
            seed = int(float(draw()) * _SEEDS) % _SEEDS
            try:
                return self._replay_dealt(phh.complete(text, rules=g.rules, seed=seed), p)
            except (HistoryError, IllegalActionError) as e:
                why = e
        raise TripleDrawError(
            f"no deal of the cards seat {p} has not seen was found that fits this game's "
            f"chance nodes ({_RESAMPLE_ATTEMPTS} completions of his view tried): {why}"
        ) from why

    def _view_phh(self, seat: int) -> str:
        """The PHH text of the hand as ``seat`` sees it (unseen cards ``??``). During the
        deal: a record of the cards he was dealt so far. During a draw: the hand with the
        draw played out (the discard being served gets its other replacements from the
        deck, unknown if it is his; the players still to declare stand pat, which names no
        card), so that the replacements of every declaration so far are written even
        where the engine deals them only after the last one (declare-then-deal)."""
        g = self._g
        h = self.hand
        if h is None:
            mine = "".join(CARD_TEXT[c] for c in self._own_cards(seat))
            hole: list[str | None] = [None] * g.n
            hole[seat] = mine + "??" * (5 - len(mine) // 2)
            rec = Hand(g.rules, list(g.stacks), g.button, hole_cards=hole, record=True)
            return phh.dumps(rec, viewer=seat)
        if not h.in_draw:
            return phh.dumps(h, viewer=seat)
        h = h.copy()
        served = self._s.pending
        if served is not None:
            s, cards, got = served
            h.discard(cards, receive=[*got, *[None] * (len(cards) - len(got))])
        while h.in_draw:
            h.discard(())
        text = phh.dumps(h, viewer=seat)
        if served is None or s != seat or len(got) == len(cards):
            return text
        # his replacements not dealt yet are unknown to him
        full = next(e.cards for e in reversed(h.history) if e.kind == "draw" and e.seat == s)
        k = phh_order(h.button, g.n).index(s) + 1
        line = f'"d dh p{k} {"".join(full or ())}'
        i = text.rindex(line)
        seen = "".join(CARD_TEXT[c] for c in got)
        unseen = "??" * (len(cards) - len(got))
        return f'{text[:i]}"d dh p{k} {seen}{unseen}{text[i + len(line) :]}'

    def _replay_dealt(self, dealt: Hand, seat: int) -> TripleDrawState:
        """This state's history replayed with ``dealt``'s cards for every seat but
        ``seat``: their chance outcomes are the cards ``dealt`` deals them (in order),
        their discards the cards it throws."""
        g = self._g
        n = g.n
        cards: list[list[int]] = [[] for _ in range(n)]
        thrown: list[list[tuple[int, ...]]] = [[] for _ in range(n)]
        for e in dealt.history:
            if e.kind in ("deal", "draw"):
                cards[e.seat].extend(_CARD_ID[c] for c in e.cards)  # type: ignore[index, union-attr]
            elif e.kind == "discard":
                thrown[e.seat].append(tuple(_CARD_ID[c] for c in e.cards))  # type: ignore[index, union-attr]
        dealt_n = [0] * n
        drawn_n = [0] * n
        new = g.new_initial_state()
        for a in self._s.actions:
            if new._s.hand is None or new._s.pending is not None:  # a chance node
                s = new._next_card_seat()
                if s != seat:
                    a = cards[s][dealt_n[s]]
                dealt_n[s] += 1
            elif a >= enc.DISCARD_OFFSET:
                h = new.hand
                assert h is not None and h.actor is not None
                s = h.actor
                if s != seat:
                    held = sorted(h.hole_ids(s))
                    a = enc.DISCARD_OFFSET + sum(1 << held.index(c) for c in thrown[s][drawn_n[s]])
                drawn_n[s] += 1
            new.apply_action(a)
        return new

    def _next_card_seat(self) -> int:
        """The seat the next chance card goes to."""
        s = self._s
        if s.hand is None:
            return s.game.deal_order[len(s.dealt) % s.game.n]
        assert s.pending is not None
        return s.pending[0]


class TripleDrawObserver:
    """OpenSpiel's observer of ``python_triple_draw`` (``perfect_recall``: the information
    state; else the observation). ``private_info`` NONE leaves out the seat's cards and
    discards (the public observation)."""

    def __init__(self, game: TripleDrawGame, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ArgumentError(f"observation parameters are not supported, got {params!r}")
        if iig_obs_type is None:
            iig_obs_type = pyspiel.IIGObservationType(perfect_recall=False)
        self.game = game
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        n = game.n
        pieces: list[tuple[str, int, tuple[int, ...]]] = [
            ("observation", enc.observation_size(n), (enc.observation_size(n),))
        ]
        if self.perfect_recall:
            width = n + 3 + 6
            pieces += [
                ("own_hands", 4 * 52, (4, 52)),
                ("decisions", game.max_decisions * width, (game.max_decisions, width)),
            ]
        size = sum(s for _name, s, _shape in pieces)
        self.tensor = np.zeros(size, np.float32)
        self.dict: dict[str, np.ndarray] = {}
        i = 0
        for name, s, shape in pieces:
            self.dict[name] = self.tensor[i : i + s].reshape(shape)
            i += s

    def set_from(self, state: TripleDrawState, player: int) -> None:
        ones, vi, vv = state._sparse(player, self.private, self.perfect_recall)
        t = self.tensor
        t.fill(0.0)
        t[ones] = 1.0
        t[vi] = vv

    def string_from(self, state: TripleDrawState, player: int) -> str:
        if self.perfect_recall:
            return state._info_string(player, self.private)
        return state._observation_string(player, self.private)


pyspiel.register_game(_GAME_TYPE, TripleDrawGame)


def bot_action(state: TripleDrawState, bot: Any) -> int:
    """The OpenSpiel action for what a package bot (``bot.act(view) -> Action``) plays at
    ``state``: the bot sees only ``hand.view(seat)``."""
    h = state.hand
    if h is None or state.is_chance_node() or h.actor is None:
        raise TripleDrawError("bot_action needs a state where a player is to act")
    return enc.from_action(h, bot.act(h.view(h.actor)))
