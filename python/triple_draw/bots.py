"""Bots: plain objects that choose an action from what one seat may see.

A bot is any object with one decision method, asked only when its seat is the actor::

    def act(self, view: dict) -> Action          # or
    def decide(self, obs: Observation) -> Action

``view`` is ``hand.view(seat)`` (JSON-ready: the seat's ``hole_cards`` as text, the
public ``players`` table, ``phase``, ``street``, ``pot``, ``legal_actions``, ...);
``obs`` an :class:`Observation`, the same information as a compact named tuple that
:func:`triple_draw.simulate` builds much more cheaply. The method returns a
:class:`~triple_draw.game.Action` (a dict such as ``{"kind": "call"}`` or a bare kind
string like ``"check"`` is accepted too). Bots never see the
:class:`~triple_draw.game.Hand`, so a bot cannot cheat. The bundled bots implement
``decide``; :class:`Bot`'s ``act`` turns a view into an observation for it. The heuristic
bot's decisions and the standard discard are computed by the core the bot is given
(``core=``: the compiled kernels of ``rust/bots.rs`` by default, or their pure-Python twin
with ``core="reference"``; see :mod:`triple_draw.game.core`).

Bots that use randomness own a ``random.Random`` and expose ``reseed(seed)``;
:func:`triple_draw.simulate` re-seeds every seat's bot at the start of each chunk, so the
results depend only on the simulation seed. Bots pickle (they are sent to worker
processes and Ray tasks).

>>> from triple_draw.game import Hand, Rules
>>> hand = Hand(Rules(), [100, 100], seed=3)
>>> bot = HeuristicBot(seed=1)
>>> bot.act(hand.view(hand.actor)).kind in ("fold", "call", "raise")
True
>>> standard_discard("7c 5d 4h 3s Kd")  # keep eights and better: throw the king
(45,)
"""

from __future__ import annotations

import copy
import importlib
import random
from enum import IntEnum
from collections.abc import Callable, Mapping, Sequence
from types import MethodType
from typing import Any, NamedTuple

from triple_draw.errors import (
    ArgumentError,
    ArgumentTypeError,
    IllegalActionError,
    ReducedGameError,
    TripleDrawError,
)
from triple_draw.game.actions import Action, discard_action, make_action
from triple_draw.game.cards import RANKS, to_ids
from triple_draw.game.core import Core, portable_core, resolve_core

__all__ = [
    "Decision",
    "Bot",
    "RandomBot",
    "HeuristicBot",
    "CallingStationBot",
    "EquityBot",
    "BOTS",
    "Observation",
    "decide_method",
    "make_bot",
    "parse_bot_specs",
    "plays_rules",
    "require_plays",
    "as_action",
    "standard_discard",
    "worst_low",
    "view_hole_ids",
]

#: What a kernel raises on input of the wrong shape (a Python or PyO3 type/value error):
#: re-raised as ArgumentError.
_BAD_INPUT = (TypeError, ValueError, IndexError, KeyError, AttributeError, OverflowError)

_TEXT_ID = {r + s: i for i, (r, s) in enumerate((r, s) for r in RANKS for s in "cdhs")}


def worst_low(top: int | str, *, core: Any = None) -> int:
    """The rank of the worst no-pair hand topped by ``top`` (``"8"`` or rank index 6):
    "an eight-low or better" is ``rank <= worst_low("8")`` (= 18). That hand is the top
    card, the three ranks below it and the next one that makes no straight, in mixed
    suits; ``core`` ranks it.

    >>> worst_low("7"), worst_low("8"), worst_low("9"), worst_low("A")
    (4, 18, 52, 1278)
    """
    t = _rank_index(top)
    if t < RANKS.index("7"):
        raise ArgumentError(f"no five-card no-pair hand is topped by a {RANKS[t]} (use 7 .. A)")
    ranks = (t, t - 1, t - 2, t - 3, t - 5)
    return int(resolve_core(core).rank_ids([r * 4 + (i & 1) for i, r in enumerate(ranks)]))


def _rank_index(r: int | str) -> int:
    if isinstance(r, str):
        s = r.strip().upper()
        if s == "10":
            s = "T"
        if len(s) != 1 or s not in RANKS:
            raise ArgumentError(f"not a card rank: {r!r} (use one of {RANKS})")
        return RANKS.index(s)
    if type(r) is not int or not 0 <= r <= 12:
        raise ArgumentError(f"a card rank index must be an int 0 (deuce) .. 12 (ace), got {r!r}")
    return r


def _pat_for_keep(keep_max: int, core: Core) -> int:
    """Stand pat on any no-pair hand topped by ``keep_max`` (never below a seven: there is
    no six-low)."""
    return worst_low(keep_max, core=core) if keep_max >= RANKS.index("7") else 0


def standard_discard(
    cards: Any, keep_max: int | str = "8", pat_max: int | None = None, *, core: Any = None
) -> tuple[int, ...]:
    """The standard draw rule: the card ids to throw from a five-card hand.

    Stand pat (``()``) when the hand ranks ``pat_max`` or better (default: any no-pair hand
    topped by ``keep_max``). Otherwise keep one card of each distinct rank at or below
    ``keep_max`` (pairs are broken: of a pair the card whose suit is least used by the
    other kept cards stays, the lowest id on a tie) and throw the rest; if that would keep
    all five (a straight, a flush, or a low hand rougher than ``pat_max``) the highest card
    goes too. This is the analysis kernels' standard strategy (one implementation in the
    compiled core, its twin in the reference core: ``core=`` chooses).

    >>> from triple_draw.game.cards import cards_text
    >>> cards_text(standard_discard("8c 7d 6h 5s 4c"))  # a straight: break it at the top
    ['8c']
    >>> cards_text(standard_discard("7c 7d 4h 3s 2c"))  # break the pair
    ['7c']
    >>> standard_discard("8c 6d 4h 3s 2c")  # an eight-low: stand pat
    ()
    """
    ids = cards if type(cards) is list and all(type(c) is int for c in cards) else to_ids(cards)
    if len(ids) != 5:
        raise ArgumentError(f"standard_discard needs five cards, got {len(ids)}")
    c = resolve_core(core)
    keep_r = _rank_index(keep_max)
    if pat_max is None:
        pat_max = _pat_for_keep(keep_r, c)
    return tuple(c.bots_standard_discard(ids, keep_r, _pat_rank(pat_max, c)))


def _pat_rank(v: Any, core: Core) -> int:
    if type(v) is not int or not 0 <= v <= core.NUM_CLASSES:
        raise ArgumentError(
            f"a stand-pat threshold is a hand rank 1..{core.NUM_CLASSES} (0: never), got {v!r}"
        )
    return v


# -- what a seat sees ---------------------------------------------------------------------------


class Decision(IntEnum):
    """The bots' decision codes, shared with the compiled core (``_core.DECISION_NAMES``
    names each code; a test holds them equal): what :meth:`HeuristicBot.choose` returns
    and :func:`triple_draw.simulate` applies to the engine directly."""

    FOLD = 0
    CHECK = 1
    CALL = 2
    BET_OR_RAISE = 3
    #: bet or raise if the bot's own bluff roll says so, else check (the kernel's answer;
    #: ``choose`` resolves it)
    BLUFF_OR_CHECK = 4
    #: throw the cards that come with the code (none: stand pat)
    DISCARD = 5


#: the codes as plain ints, for the hot paths (an int compares faster than an enum member)
FOLD, CHECK, CALL, BET_OR_RAISE, BLUFF_OR_CHECK, DISCARD = (int(d) for d in Decision)


class Observation(NamedTuple):
    """What one seat may see when it must act, as a compact immutable record: the seat's
    own cards and the public state, never another seat's cards, anybody's discards or the
    stub. :func:`triple_draw.simulate` hands one to every bot that has a
    ``decide(obs)`` method (much cheaper than a full ``hand.view(seat)``);
    :meth:`from_view` builds the same record from a view.
    """

    #: the seat to act
    seat: int
    #: its cards, as ids
    hole: tuple[int, ...]
    #: ``"bet"`` or ``"draw"``
    phase: str
    #: betting round 0..3, or the draw's index 0..2
    street: int
    n_players: int
    button: int
    #: ``None`` in a hand dealt with no small blind (a dead small blind at a table)
    small_blind_seat: int | None
    big_blind_seat: int
    #: per seat: has folded
    folded: tuple[bool, ...]
    #: per seat: chips behind
    stacks: tuple[int, ...]
    #: per seat: chips in the current betting round (zeros during a draw)
    bets: tuple[int, ...]
    #: per seat: how many cards it drew at each draw so far
    draws: tuple[tuple[int, ...], ...]
    #: every chip put in this hand
    pot: int
    #: chips the seat needs to call (0: it may check; always 0 during a draw)
    to_call: int
    #: the round total a bet or raise would reach, or None if it may not bet or raise
    raise_to: int | None
    #: the amount to match in this round (0: a bet opens the round, otherwise a raise)
    bet_level: int
    #: bets and raises made so far in this betting round (blinds not counted)
    round_bets: int
    #: whether anybody has called, bet or raised in this betting round
    round_voluntary: bool

    @property
    def draws_left(self) -> int:
        """Draws still to come (during a draw: this one included)."""
        return 3 - self.street

    @classmethod
    def from_view(cls, view: Mapping[str, Any]) -> Observation:
        """The observation of ``view`` (``hand.view(seat)`` of the seat to act); anything
        else is an :class:`~triple_draw.errors.ArgumentError`."""
        try:
            return cls._of_view(view)
        except TripleDrawError:
            raise
        except _BAD_INPUT as e:
            raise ArgumentError(f"not a view of the seat to act: {e!r}") from None

    @classmethod
    def _of_view(cls, view: Mapping[str, Any]) -> Observation:
        seat = view["seat"]
        players = view["players"]
        betting = view["phase"] == "bet"
        bets = tuple([int(p["bet"]) for p in players])
        to_call = 0
        raise_to = None
        for d in view["legal_actions"]:
            k = d["kind"]
            if k == "call":
                to_call = d["amount"] - bets[seat]
            elif k in ("bet", "raise"):
                raise_to = d["amount"]
        round_bets, voluntary = _round_action(view["history"]) if betting else (0, False)
        f = observation_fields()
        f[F_SEAT] = seat
        f[F_HOLE] = tuple([_TEXT_ID[t] for t in view["hole_cards"]])
        f[F_PHASE] = view["phase"]
        f[F_STREET] = view["street"]
        f[F_N_PLAYERS] = view["n_players"]
        f[F_BUTTON] = view["button"]
        f[F_SMALL_BLIND_SEAT] = view["small_blind_seat"]
        f[F_BIG_BLIND_SEAT] = view["big_blind_seat"]
        f[F_FOLDED] = tuple([bool(p["folded"]) for p in players])
        f[F_STACKS] = tuple([int(p["stack"]) for p in players])
        f[F_BETS] = bets
        f[F_DRAWS] = tuple([tuple(p["draws"]) for p in players])
        f[F_POT] = view["pot"]
        f[F_TO_CALL] = to_call
        f[F_RAISE_TO] = raise_to
        f[F_BET_LEVEL] = view["bet_level"]
        f[F_ROUND_BETS] = round_bets
        f[F_ROUND_VOLUNTARY] = voluntary
        return new_observation(f) if cls is Observation else tuple.__new__(cls, f)


# -- building an Observation: its fields by name -----------------------------------------------
#
# The class above is the one place that orders the fields. Every builder of an Observation
# (from_view, HeuristicBot.discard, triple_draw.simulate, the vector environment's bots) puts
# the values in a list from observation_fields(), each at its F_* position (taken from the
# class by name), and makes the named tuple of it with new_observation. So a field added,
# removed, renamed or moved cannot shift the others: an unknown name fails here at import,
# and a field a builder leaves unset holds UNSET, which tests/test_observation_builders.py
# looks for. simulate keeps one such list along a hand and sets only what changes.


def _position(name: str) -> int:
    """The position of the field ``name`` in an :class:`Observation`."""
    return Observation._fields.index(name)


F_SEAT = _position("seat")
F_HOLE = _position("hole")
F_PHASE = _position("phase")
F_STREET = _position("street")
F_N_PLAYERS = _position("n_players")
F_BUTTON = _position("button")
F_SMALL_BLIND_SEAT = _position("small_blind_seat")
F_BIG_BLIND_SEAT = _position("big_blind_seat")
F_FOLDED = _position("folded")
F_STACKS = _position("stacks")
F_BETS = _position("bets")
F_DRAWS = _position("draws")
F_POT = _position("pot")
F_TO_CALL = _position("to_call")
F_RAISE_TO = _position("raise_to")
F_BET_LEVEL = _position("bet_level")
F_ROUND_BETS = _position("round_bets")
F_ROUND_VOLUNTARY = _position("round_voluntary")


class _Unset:
    """The value of a field nobody set (never a valid one)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "UNSET"


#: what :data:`observation_fields` holds until a builder sets each field
UNSET: Any = _Unset()


_UNSET_FIELDS: list[Any] = [UNSET] * len(Observation._fields)
#: A new list for the fields of one :class:`Observation`, each ``UNSET`` (a copy of a list
#: nobody changes, without a Python-level call): a builder sets them through the ``F_*``
#: positions and makes the observation with :data:`new_observation`.
observation_fields: Callable[[], list[Any]] = _UNSET_FIELDS.copy


#: The :class:`Observation` of ``fields`` (a list from :data:`observation_fields`, every
#: field set): ``tuple.__new__`` bound to the class, which costs what a bare
#: ``tuple.__new__(Observation, ...)`` costs and skips the named tuple's Python-level
#: ``__new__``. No checks (the builders are tested).
new_observation: Callable[[list[Any]], Observation] = MethodType(tuple.__new__, Observation)


def _round_action(history: Sequence[Mapping[str, Any]]) -> tuple[int, bool]:
    """Bets and raises in the current betting round, and whether anybody has acted
    voluntarily in it (called, bet or raised)."""
    raises = 0
    voluntary = False
    for h in reversed(history):
        k = h["kind"]
        if k == "begin_round":
            break
        if k in ("bet", "raise"):
            raises += 1
            voluntary = True
        elif k == "call":
            voluntary = True
    return raises, voluntary


_FOLD = make_action("fold")
_CHECK = make_action("check")


#: Betting actions by (kind, amount), shared (actions are immutable); bounded.
_ACTIONS: dict[tuple[str, int | None], Action] = {}


def _action(kind: str, amount: int | None) -> Action:
    a = _ACTIONS.get((kind, amount))
    if a is None:
        # checked before it is shared: ("call", 4.0) or ("call", True) is an equal key
        if amount is not None and (type(amount) is not int or amount < 0):
            raise ArgumentError(f"not an Observation: a {kind} to {amount!r} chips")
        a = make_action(kind, amount)
        if len(_ACTIONS) < 4096:
            _ACTIONS[kind, amount] = a
    return a


def _call(obs: Observation) -> Action:
    return _action("call", obs.bets[obs.seat] + obs.to_call)


def _bet_or_raise(obs: Observation) -> Action:
    return _action("bet" if obs.bet_level == 0 else "raise", obs.raise_to)


def as_action(x: Any) -> Action:
    """What a bot returned as an :class:`~triple_draw.game.Action`: an Action as is, a dict
    (``{"kind": "call"}``) or a bare kind (``"check"``); anything else is an
    :class:`~triple_draw.errors.IllegalActionError`."""
    if type(x) is Action:
        return x
    try:
        if isinstance(x, Mapping):
            return Action.from_dict(dict(x))
        if isinstance(x, str):
            return Action(x)
    except TripleDrawError:
        raise
    except (KeyError, TypeError, ValueError) as e:
        raise IllegalActionError(f"not an action: {x!r} ({e})") from None
    raise IllegalActionError(f"a bot must return an Action, got {x!r}")


def view_hole_ids(view: Mapping[str, Any]) -> list[int]:
    """The seat's own cards of a view as ids."""
    return [_TEXT_ID[t] for t in view["hole_cards"]]


class Bot:
    """Base class of the bundled bots (subclassing it is optional: any object with an
    ``act(view) -> Action`` method is a bot).

    A subclass implements either ``act(view)`` (the full JSON view) or ``decide(obs)``
    (an :class:`Observation`, the lean record :func:`triple_draw.simulate` builds cheaply);
    the base class's ``act`` turns the view into an observation for ``decide``.

    ``seed``: seeds the bot's own ``random.Random`` (``None``: OS entropy). ``core``: the
    core that computes the bot's decisions (``"compiled"``, ``"reference"`` or a
    :class:`~triple_draw.game.core.Core`; default: the default core);
    :func:`triple_draw.simulate` sets it to the run's core."""

    name = "bot"
    #: whether the bot plays hands of fewer than five cards (the reduced games with
    #: ``hand_size < 5``: docs/rules.md, *Reduced games*); :func:`plays_rules` reads it,
    #: and a bot without the attribute is trusted to
    plays_short_hands = True
    #: attributes :meth:`_bind` derives from the core (not pickled: rebound on load)
    _derived: tuple[str, ...] = ()

    def __init__(self, seed: int | None = None, *, core: Any = None) -> None:
        self.rng = random.Random(_seed(seed))
        self._bind(resolve_core(core))

    @property
    def core(self) -> Core:
        """The core that computes this bot's decisions."""
        return self._core

    @core.setter
    def core(self, core: Any) -> None:
        self._bind(resolve_core(core))

    def _bind(self, core: Core) -> None:
        """Use ``core`` from now on (subclasses take what they need from it here)."""
        self._core = core

    def __getstate__(self) -> dict[str, Any]:
        # a core module does not pickle: send its name
        state = self.__dict__.copy()
        if "_core" in state:
            state["_core"] = portable_core(state["_core"])
            for k in self._derived:
                state.pop(k, None)
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        if "_core" in state:
            self._bind(resolve_core(state["_core"]))

    def __deepcopy__(self, memo: dict[int, Any]) -> Bot:
        # what copy.deepcopy does through __getstate__/__setstate__, without copying the
        # random stream's state word by word in Python (simulate copies every bot for
        # every chunk) and without unbinding and rebinding the core
        cls = type(self)
        new = cls.__new__(cls)
        memo[id(self)] = new
        state = self.__dict__.copy()
        shared = {k: state.pop(k) for k in ("_core", *self._derived) if k in state}
        rng = state.pop("rng", None)
        new.__dict__.update(copy.deepcopy(state, memo))
        new.__dict__.update(shared)  # the core and what it gave: shared, as modules are
        if type(rng) is random.Random:
            new.rng = random.Random()
            new.rng.setstate(rng.getstate())
        elif rng is not None:
            new.rng = copy.deepcopy(rng, memo)
        return new

    def reseed(self, seed: int | None) -> None:
        """Restart the bot's random stream (``simulate`` calls this for every chunk)."""
        self.rng.seed(_seed(seed))

    def act(self, view: dict[str, Any]) -> Action:
        """The action for ``view`` (``hand.view(seat)`` of the seat to act)."""
        return self.decide(Observation.from_view(view))

    def decide(self, obs: Observation) -> Action:
        """The action for an :class:`Observation` (what the seat to act may see)."""
        raise NotImplementedError(f"{type(self).__name__} implements neither act nor decide")

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


def _refuse_short_hand(bot: Any, obs: Any) -> None:
    """A bot that reads five-card hands, asked to act on fewer cards (a reduced game:
    docs/rules.md, *Reduced games*), refuses with :class:`ReducedGameError` (called where
    its decision failed, so the real game's decisions pay nothing for it)."""
    hole = getattr(obs, "hole", None)
    if type(hole) is tuple and 0 < len(hole) < 5:
        raise ReducedGameError(
            f"{type(bot).__name__} is for the real game only (five cards in hand), not a "
            f"reduced game's hand of {len(hole)} card{'s' if len(hole) > 1 else ''}"
        ) from None


def plays_rules(bot: Any, rules: Any) -> bool:
    """Whether ``bot`` can play the game of ``rules`` (a :class:`~triple_draw.Rules`):
    every bot plays a game of five cards in hand (the real game, and the reduced games
    that keep five cards, where the bots that read five-card hands play as in the real
    game); a game of fewer cards only a bot whose ``plays_short_hands`` is true
    (:class:`RandomBot`, :class:`CallingStationBot`, and any bot without the attribute),
    not :class:`HeuristicBot` or :class:`EquityBot`."""
    return bool(rules.hand_size == 5 or getattr(bot, "plays_short_hands", True))


def require_plays(bot: Any, rules: Any, component: str) -> None:
    """Refuse ``bot`` for the game of ``rules`` if it cannot play it (:func:`plays_rules`):
    :class:`~triple_draw.errors.ReducedGameError` naming ``component``, the bot and the
    game, raised where the bot is given rather than in the middle of a hand."""
    if not plays_rules(bot, rules):
        raise ReducedGameError(
            f"{component}: {type(bot).__name__} reads five-card hands and cannot play a "
            f"reduced game of {rules.hand_size} card{'s' if rules.hand_size > 1 else ''} in "
            "hand; RandomBot ('random') and CallingStationBot ('call') play every member"
        )


def _short_discard(hole: Sequence[int], keep_max: int) -> tuple[int, ...]:
    """The calling station's draw with fewer than five cards in hand (a reduced game, where
    such a hand ranks by its pairing only, lower ranks better: no straights or flushes):
    keep one card of each distinct rank at or below ``keep_max`` (of a pair, the lowest
    id) and throw the rest, so a hand without a pair topped by ``keep_max`` stands pat."""
    kept: set[int] = set()
    thrown: list[int] = []
    for c in sorted(hole):
        r = c >> 2
        if r <= keep_max and r not in kept:
            kept.add(r)
        else:
            thrown.append(c)
    return tuple(thrown)


def _seed(seed: Any) -> int | None:
    if seed is not None and type(seed) is not int:
        raise ArgumentTypeError(f"a bot's seed is an int or None, got {seed!r}")
    return seed


def decide_method(bot: Any) -> Any:
    """``bot.decide`` when the bot decides from an :class:`Observation` (it has a ``decide``
    method and does not override :meth:`Bot.act`), else ``None`` (ask ``bot.act(view)``)."""
    decide = getattr(bot, "decide", None)
    if not callable(decide):
        return None
    cls = type(bot)
    if issubclass(cls, Bot):
        if cls.decide is Bot.decide or cls.act is not Bot.act:
            return None
    elif callable(getattr(bot, "act", None)):
        return None
    return decide


class RandomBot(Bot):
    """Chooses uniformly among the legal betting actions and discards a uniformly random
    subset of its cards (each of the 32 choices equally likely; with ``k`` cards in hand,
    as in a reduced game, each of the ``2 ** k``). It plays every reduced game.

    ``fold_when_free``: also consider folding when a check is possible (off by default:
    even a random player checks rather than throwing a free hand away)."""

    name = "random"

    def __init__(
        self, seed: int | None = None, *, fold_when_free: bool = False, core: Any = None
    ) -> None:
        super().__init__(seed, core=core)
        self.fold_when_free = fold_when_free

    def decide(self, obs: Observation) -> Action:
        rng = self.rng
        try:
            if obs.phase == "draw":
                rnd = rng.random
                return discard_action(tuple(sorted([c for c in obs.hole if rnd() < 0.5])))
            # the legal actions in the order Hand.legal_actions lists them
            facing = obs.to_call > 0
            k = 0 if facing or self.fold_when_free else 1  # index of the first option
            m = 3 if obs.raise_to is not None else 2
            pick = k + rng.randrange(m - k)
            if pick == 0:
                return _FOLD
            if pick == 1:
                return _call(obs) if facing else _CHECK
            return _bet_or_raise(obs)
        except TripleDrawError:
            raise
        except _BAD_INPUT as e:
            raise ArgumentError(f"not an Observation: {obs!r} ({e})") from None

    def __repr__(self) -> str:
        return "RandomBot(fold_when_free=True)" if self.fold_when_free else "RandomBot()"


class CallingStationBot(Bot):
    """Never bets, never folds: checks or calls every street and draws by the standard
    rule. A baseline that shows whether another bot value-bets.

    It plays every reduced game: with five cards in hand it draws by the standard rule
    (:func:`standard_discard`, as in the real game); with fewer (``hand_size < 5``,
    where hands rank by their pairing only) it keeps one card of each distinct rank at
    or below ``keep_max`` (of a pair, the lowest card id) and throws the rest, so it
    stands pat on a hand without a pair topped by ``keep_max``."""

    name = "call"

    def __init__(
        self, seed: int | None = None, *, keep_max: int | str = "8", core: Any = None
    ) -> None:
        c = resolve_core(core)
        self.keep_max = _rank_index(keep_max)
        self._pat = _pat_for_keep(self.keep_max, c)
        super().__init__(seed, core=c)

    _derived = ("_discard",)

    def _bind(self, core: Core) -> None:
        super()._bind(core)
        self._discard = core.bots_standard_discard

    def decide(self, obs: Observation) -> Action:
        try:
            if obs.phase == "draw":
                hole = obs.hole
                if 0 < len(hole) < 5:  # a reduced game's short hand
                    return discard_action(_short_discard(hole, self.keep_max))
                return discard_action(self._discard(hole, self.keep_max, self._pat))
            return _call(obs) if obs.to_call > 0 else _CHECK
        except TripleDrawError:
            raise
        except _BAD_INPUT as e:
            raise ArgumentError(f"not an Observation: {obs!r} ({e})") from None


class HeuristicBot(Bot):
    """A sensible fixed-limit 2-7 triple draw player.

    Drawing: the standard rule (:func:`standard_discard`): keep the distinct cards at or
    below ``keep_max`` (default eight), break pairs, straights and flushes, and stand pat
    with a no-pair hand topped by ``pat`` for the number of draws left (default: an
    eight-low with 3 or 2 draws left, a nine-low on the last draw, a ten-low on the last
    draw when every opponent still in the hand drew two or more last time).

    Betting: estimates its chance to win from its made hand or its draw (cards to draw,
    draws left, the roughest card it keeps), the opponents' last draws (a pat opponent is
    feared, a drawing one is not) and how many opponents are left, then bets or raises
    for value, calls when the price is right and folds otherwise. Position matters before
    the draw (fewer opponents left to act behind a late opener) and after it (bluffs and
    semi-bluffs are only made in position, heads-up, with probability ``bluff``).
    Thresholds are jittered by a few percent with the bot's own RNG so it is not
    trivially exploitable. The decisions are computed from the bot's :class:`Observation`
    by its core (``core=``).
    """

    name = "heuristic"
    #: it reads five-card hands: a reduced game of fewer cards is refused
    plays_short_hands = False

    def __init__(
        self,
        seed: int | None = None,
        *,
        keep_max: int | str = "8",
        pat: Mapping[int, int | str] | None = None,
        bluff: float = 0.12,
        aggression: float = 1.0,
        core: Any = None,
    ) -> None:
        c = resolve_core(core)
        self.keep_max = _rank_index(keep_max)
        pats: dict[int, int | str] = {3: "8", 2: "8", 1: "9"}
        if pat is not None:
            if not isinstance(pat, Mapping):
                raise ArgumentError(f"pat must map draws left (1..3) to a low, got {pat!r}")
            for k, v in pat.items():
                if k not in (1, 2, 3):
                    raise ArgumentError(f"pat: keys are draws left 1..3, got {k!r}")
                pats[k] = v
        # stored as ranks: stand pat with a hand ranked at most pat_max[draws_left]
        self.pat_max = {
            k: (worst_low(v, core=c) if isinstance(v, str) else _pat_rank(v, c))
            for k, v in pats.items()
        }
        if (
            isinstance(bluff, bool)
            or not isinstance(bluff, (int, float))
            or not 0.0 <= bluff <= 1.0
        ):
            raise ArgumentError(f"bluff must be a probability 0..1, got {bluff!r}")
        if (
            isinstance(aggression, bool)
            or not isinstance(aggression, (int, float))
            or not 0 < aggression < float("inf")
        ):
            raise ArgumentError(f"aggression must be a number > 0, got {aggression!r}")
        self.bluff = float(bluff)
        self.aggression = float(aggression)
        pm = self.pat_max
        self._params = (self.keep_max, pm[1], pm[2], pm[3], self.aggression)
        super().__init__(seed, core=c)

    _derived = ("_heuristic",)

    def _bind(self, core: Core) -> None:
        super()._bind(core)
        self._heuristic = core.bots_heuristic

    def __repr__(self) -> str:
        return (
            f"HeuristicBot(keep_max={RANKS[self.keep_max]!r}, bluff={self.bluff}, "
            f"aggression={self.aggression})"
        )

    def discard(
        self, ids: Sequence[int], draws_left: int, opp_last: Sequence[int]
    ) -> tuple[int, ...]:
        """The ids this bot throws with ``draws_left`` (1..3) draws to come (this one
        included), when the live opponents drew ``opp_last`` cards at the last draw (the
        core ranks the five cards itself)."""
        if type(draws_left) is not int or not 1 <= draws_left <= 3:
            raise ArgumentError(f"draws_left must be 1..3, got {draws_left!r}")
        if not isinstance(opp_last, Sequence) or not all(
            type(d) is int and 0 <= d <= 5 for d in opp_last
        ):
            raise ArgumentError(
                f"opp_last must be cards drawn (0..5) per opponent, got {opp_last!r}"
            )
        if not isinstance(ids, Sequence):
            raise ArgumentError(f"ids must be a sequence of five card ids, got {ids!r}")
        opps = tuple((d,) for d in opp_last) or ((),)
        n = len(opps) + 1
        # seat 0 to draw, with one chip behind each and nothing to call: only the cards, the
        # draws left and the opponents' last draws weigh on a discard
        f = observation_fields()
        f[F_SEAT] = 0
        f[F_HOLE] = tuple(ids)
        f[F_PHASE] = "draw"
        f[F_STREET] = 3 - draws_left
        f[F_N_PLAYERS] = n
        f[F_BUTTON] = 0
        f[F_SMALL_BLIND_SEAT] = 0
        f[F_BIG_BLIND_SEAT] = min(1, n - 1)
        f[F_FOLDED] = (False,) * n
        f[F_STACKS] = (1,) * n
        f[F_BETS] = (0,) * n
        f[F_DRAWS] = ((), *opps)
        f[F_POT] = 0
        f[F_TO_CALL] = 0
        f[F_RAISE_TO] = None
        f[F_BET_LEVEL] = 0
        f[F_ROUND_BETS] = 0
        f[F_ROUND_VOLUNTARY] = False
        obs = new_observation(f)
        return tuple(self._heuristic(self._params, obs, 0.0)[1])

    def choose(self, obs: Observation) -> tuple[int, tuple[int, ...]]:
        """The decision as ``(code, cards)`` (a :class:`Decision`: fold, check, call, bet or
        raise, or discard ``cards``, sorted ids) - what :meth:`decide` turns into an
        action, and what :func:`triple_draw.simulate` applies to the engine directly."""
        try:
            if obs.phase == "draw":
                return self._heuristic(self._params, obs, 0.0)
            rng = self.rng
            code, cards = self._heuristic(self._params, obs, rng.random())
        except TripleDrawError:
            _refuse_short_hand(self, obs)
            raise
        except _BAD_INPUT as e:
            raise ArgumentError(f"not an Observation: {obs!r} ({e})") from None
        if code == BLUFF_OR_CHECK:  # a bluff, if the bot's own roll says so
            code = BET_OR_RAISE if rng.random() < self.bluff else CHECK
        return code, cards

    def decide(self, obs: Observation) -> Action:
        code, cards = self.choose(obs)
        if code == FOLD:
            return _FOLD
        if code == CHECK:
            return _CHECK
        try:
            if code == CALL:
                return _call(obs)
            if code == BET_OR_RAISE:
                return _bet_or_raise(obs)
        except _BAD_INPUT as e:
            raise ArgumentError(f"not an Observation: {obs!r} ({e})") from None
        return discard_action(cards)


_LOW_RANKS = tuple(range(RANKS.index("8") + 1))  # deuce .. eight, as rank indices


#: _target_discard's answers: (canonical hand, draws left, trials) -> canonical discard
_TARGET_DISCARDS: dict[tuple[tuple[int, ...], int, int], tuple[int, ...]] = {}


def _target_discard(hole: tuple[int, ...], draws_left: int, trials: int) -> tuple[int, ...]:
    """The discard :func:`~triple_draw.analysis.best_discard` ranks best for an eight-low
    or better with ``draws_left`` draws, sampled with ``trials`` trials. The suits are
    relabelled in order of appearance first (the odds do not depend on their names) and
    the sampling seed comes from that canonical hand, so the answer is a function of the
    hand alone and is remembered (bounded)."""
    from triple_draw.analysis import best_discard

    ids = sorted(hole)
    rename: dict[int, int] = {}
    for c in ids:
        rename.setdefault(c & 3, len(rename))
    back = {v: k for k, v in rename.items()}
    canon = tuple(sorted((c & ~3) | rename[c & 3] for c in ids))
    key = (canon, draws_left, trials)
    thrown = _TARGET_DISCARDS.get(key)
    if thrown is None:
        best = best_discard(
            list(canon), draws_left=draws_left, target="8", trials=trials,
            seed=hash(key) & 0x7FFF_FFFF_FFFF_FFFF, threads=1, method="sample",
        )[0]  # fmt: skip
        thrown = tuple(to_ids([str(c) for c in best.discard]))
        if len(_TARGET_DISCARDS) < 200_000:
            _TARGET_DISCARDS[key] = thrown
    return tuple(sorted((c & ~3) | back[c & 3] for c in thrown))


class EquityBot(Bot):
    """A stronger reference player built on the analysis kernels
    (:mod:`triple_draw.analysis`).

    Drawing: with two or three draws to come it stands pat on an eight-low or better and
    otherwise throws what :func:`~triple_draw.analysis.best_discard` ranks best for
    finishing with an eight-low or better; before the last draw it throws what
    ``best_discard`` ranks best by *equity* against its model of the opponents still in
    the hand (so it stands pat on a nine or breaks it depending on what they drew).

    The opponents' model: an opponent who drew ``k`` cards at the last draw holds
    ``5 - k`` random distinct cards of eight or lower and ``k`` unknown cards, and draws by
    the standard rule; before the first draw an opponent's hand is unknown. Its equity
    (:func:`~triple_draw.analysis.equity`) is the mean over ``samples`` sampled models of
    ``trials`` trials each: a share ``trust`` of them that model, the rest the same except
    that an opponent who stood pat at the first draw - a pat hand from the deal, which is
    rare (under 1% of deals are an eight-low), or a bluff - holds an unknown hand. It bets
    and raises on its equity against the model, and calls on its equity against the
    mixture: a player who stands pat on anything cannot bluff it off every pot.

    Betting, with ``e`` its equity and ``f = 1 / players left`` a fair share: facing a bet
    it raises when ``e >= raise_at * f``, calls when ``e`` covers the pot odds (times
    ``draw_discount`` with draws to come), and folds otherwise; unopposed it bets when
    ``e >= bet_at * f``. In position (nobody still in the hand acts after it in the
    round) both thresholds drop by ``position``; heads-up, in position, after the last
    draw against an opponent who drew two or more cards, it bluffs with probability
    ``bluff``. Its random stream seeds the kernels, so its play is reproducible (``seed``,
    :meth:`reseed`). About a millisecond a decision: a few hundred hands a second.
    """

    name = "equity"
    #: it reads five-card hands: a reduced game of fewer cards is refused
    plays_short_hands = False

    def __init__(
        self,
        seed: int | None = None,
        *,
        trials: int = 300,
        samples: int = 4,
        trust: float = 0.5,
        bet_at: float = 1.0,
        raise_at: float = 1.45,
        position: float = 0.08,
        draw_discount: float = 1.0,
        bluff: float = 0.25,
        draw_for: str = "eight",
        core: Any = None,
    ) -> None:
        if draw_for not in ("eight", "equity"):
            raise ArgumentError(f"draw_for must be 'eight' or 'equity', got {draw_for!r}")
        self.draw_for = draw_for
        for nm, v, lo, hi in (("trials", trials, 10, 100_000), ("samples", samples, 1, 100)):
            if type(v) is not int or not lo <= v <= hi:
                raise ArgumentError(f"{nm} must be an int {lo}..{hi}, got {v!r}")
        for nm, x in (
            ("bet_at", bet_at),
            ("raise_at", raise_at),
            ("position", position),
            ("draw_discount", draw_discount),
            ("bluff", bluff),
            ("trust", trust),
        ):
            if isinstance(x, bool) or not isinstance(x, (int, float)) or not 0 <= x < 10:
                raise ArgumentError(f"{nm} must be a number 0..10, got {x!r}")
        for nm, x in (("bluff", bluff), ("trust", trust)):
            if x > 1:
                raise ArgumentError(f"{nm} must be a probability 0..1, got {x!r}")
        self.trust = float(trust)
        self.trials = trials
        self.samples = samples
        self.bet_at = float(bet_at)
        self.raise_at = float(raise_at)
        self.position = float(position)
        self.draw_discount = float(draw_discount)
        self.bluff = float(bluff)
        super().__init__(seed, core=core)

    def __repr__(self) -> str:
        return f"EquityBot(trials={self.trials}, samples={self.samples}, trust={self.trust})"

    # -- the model ------------------------------------------------------------------------

    def _opponents(self, obs: Observation) -> list[int]:
        return [s for s in range(obs.n_players) if s != obs.seat and not obs.folded[s]]

    def _model(self, obs: Observation, opps: list[int], honest: bool = True) -> list[Any]:
        """One sampled model of the opponents' hands (see the class docs); ``honest=False``:
        the hand of an opponent who stood pat at the first draw is unknown."""
        if obs.street == 0 and all(not obs.draws[s] for s in opps):
            return [None] * len(opps)
        rng = self.rng
        used = set(obs.hole)
        out: list[Any] = []
        for s in opps:
            if not honest and obs.draws[s] and obs.draws[s][0] == 0:
                out.append(None)
                continue
            drawn = obs.draws[s][-1] if obs.draws[s] else 5
            kept: list[int | None] = []
            for r in rng.sample(_LOW_RANKS, 5 - drawn):
                suits = [r * 4 + k for k in range(4) if r * 4 + k not in used]
                if suits:
                    c = rng.choice(suits)
                    used.add(c)
                    kept.append(c)
            out.append(kept + [None] * (5 - len(kept)))
        return out

    def _equity(self, obs: Observation, opps: list[int], draws_left: int) -> tuple[float, float]:
        """The equity against the draw-count model and against the mixture of it with
        unknown hands (``trust``)."""
        from triple_draw.analysis import equity

        sums = [0.0, 0.0]
        hole = list(obs.hole)
        honest = max(1, round(self.trust * self.samples))
        for i in range(self.samples):
            r = equity(
                [hole, *self._model(obs, opps, i < honest)],
                draws_left=draws_left,
                trials=self.trials,
                seed=self.rng.getrandbits(63),
                threads=1,
                method="sample",
            )
            sums[i >= honest] += r[0].equity
        return sums[0] / honest, (sums[0] + sums[1]) / self.samples

    def _in_position(self, obs: Observation) -> bool:
        n = obs.n_players
        last = obs.big_blind_seat if obs.street == 0 and obs.phase == "bet" else obs.button
        s = obs.seat
        while s != last:
            s = (s + 1) % n
            if not obs.folded[s] and obs.stacks[s] > 0:
                return False
        return True

    # -- decisions ------------------------------------------------------------------------

    def _discard(self, obs: Observation, opps: list[int]) -> tuple[int, ...]:
        from triple_draw.analysis import best_discard

        draws_left = 3 - obs.street
        hole = list(obs.hole)
        if draws_left >= 2 and self.draw_for == "eight":
            if self._core.rank_ids(hole) <= self._pat8:
                return ()
            return _target_discard(tuple(hole), draws_left, self.trials)
        else:
            model = self._model(obs, opps)[:5]
            best = best_discard(
                hole, draws_left=draws_left, opponents=model, trials=self.trials * self.samples,
                seed=self.rng.getrandbits(63), threads=1, method="sample",
            )[0]  # fmt: skip
        return tuple(sorted(to_ids([str(c) for c in best.discard])))

    def _bind(self, core: Core) -> None:
        super()._bind(core)
        self._pat8 = worst_low("8", core=core)

    _derived = ("_pat8",)

    def decide(self, obs: Observation) -> Action:
        try:
            opps = self._opponents(obs)
            if obs.phase == "draw":
                return discard_action(self._discard(obs, opps))
            if not opps:  # pragma: no cover - the engine asks nobody alone in the hand
                return _call(obs) if obs.to_call > 0 else _CHECK
            draws_left = 3 - obs.street
            e, e_call = self._equity(obs, opps, draws_left)
            fair = 1.0 / (len(opps) + 1)
            ip = self.position if self._in_position(obs) else 0.0
            if obs.to_call > 0:
                if obs.raise_to is not None and e >= (self.raise_at - ip) * fair:
                    return _bet_or_raise(obs)
                odds = obs.to_call / (obs.pot + obs.to_call)
                if draws_left:
                    odds *= self.draw_discount
                return _call(obs) if e_call >= odds else _FOLD
            if obs.raise_to is not None:
                if e >= (self.bet_at - ip) * fair:
                    return _bet_or_raise(obs)
                if (
                    ip
                    and draws_left == 0
                    and len(opps) == 1
                    and obs.draws[opps[0]]
                    and obs.draws[opps[0]][-1] >= 2
                    and self.rng.random() < self.bluff
                ):
                    return _bet_or_raise(obs)
            return _CHECK
        except TripleDrawError:
            _refuse_short_hand(self, obs)
            raise
        except _BAD_INPUT as e:
            raise ArgumentError(f"not an Observation: {obs!r} ({e})") from None


#: Bot names understood by :func:`make_bot` and the command line.
BOTS: dict[str, type[Bot]] = {
    "heuristic": HeuristicBot,
    "random": RandomBot,
    "call": CallingStationBot,
    "equity": EquityBot,
}


def parse_bot_specs(text: str, seats: int | None = None) -> list[str]:
    """The bot specs of a comma-separated list (``"heuristic,random*2,call"``; ``NAME*K``
    repeats a bot for K seats). One spec alone is repeated for every seat when ``seats`` is
    given; otherwise there must be exactly ``seats`` of them.

    >>> parse_bot_specs("heuristic, random*2")
    ['heuristic', 'random', 'random']
    """
    if not isinstance(text, str):
        raise ArgumentError(f"bot specs must be a string, got {text!r}")
    names: list[str] = []
    for part in text.split(","):
        part = part.strip()
        if not part:
            raise ArgumentError(f"empty bot name in {text!r}")
        name, star, k = part.partition("*")
        name = name.strip()
        if not name:
            raise ArgumentError(f"empty bot name in {part!r}")
        if star:
            k = k.strip()
            if not k.isdigit() or len(k) > 2 or int(k) < 1:
                raise ArgumentError(f"bad repeat count in {part!r} (use NAME*K, K >= 1)")
            names.extend([name] * int(k))
        else:
            names.append(name)
    if seats is not None:
        if len(names) == 1:
            names = names * seats
        elif len(names) != seats:
            raise ArgumentError(
                f"{len(names)} bots given for {seats} seats: give one, or one per seat"
            )
    return names


def make_bot(spec: str | Any, seed: int | None = None, *, core: Any = None) -> Any:
    """A bot from a name (``"heuristic"``, ``"random"``, ``"call"``, ``"equity"``), an import path
    ``"package.module:ClassName"`` of a bot class (a :class:`Bot` subclass, or a class
    with an ``act`` or ``decide`` method; constructed with ``seed=`` if it takes one, else
    with no arguments), or an existing bot object (returned as is). Anything that is not a
    bot is refused with :class:`~triple_draw.errors.ArgumentError` before it is called.
    ``core`` goes to the bundled bots (see :class:`Bot`).

    >>> make_bot("random")
    RandomBot()
    """
    if not isinstance(spec, str):
        if not _is_bot(spec):
            raise ArgumentTypeError(f"a bot needs an act(view) or decide(obs) method, got {spec!r}")
        return spec
    name = spec.strip()
    cls = BOTS.get(name.lower())
    if cls is not None:
        return cls(seed, core=core)
    if ":" not in name:
        raise ArgumentError(f"unknown bot {name!r}: use one of {', '.join(BOTS)} or 'module:Class'")
    mod_name, _, attr = name.partition(":")
    try:
        obj: Any = importlib.import_module(mod_name.strip())
        for part in attr.strip().split("."):
            obj = getattr(obj, part)
    except (ImportError, AttributeError, ValueError) as e:
        raise ArgumentError(f"cannot load bot {name!r}: {e}") from None
    if not isinstance(obj, type) or not _is_bot_class(obj):
        raise ArgumentError(
            f"{name!r} is not a bot class (a triple_draw.bots.Bot subclass or a class with "
            "an act(view) or decide(obs) method)"
        )
    try:
        bot = obj(seed=seed)
    except TypeError:
        try:
            bot = obj()
        except Exception as e:
            raise ArgumentError(f"cannot create bot {name!r}: {e}") from None
    except TripleDrawError:
        raise
    except Exception as e:
        raise ArgumentError(f"cannot create bot {name!r}: {e}") from None
    return bot


def _is_bot_class(cls: type) -> bool:
    if issubclass(cls, Bot):
        return True
    return callable(getattr(cls, "act", None)) or callable(getattr(cls, "decide", None))


def _is_bot(obj: Any) -> bool:
    if isinstance(obj, type):
        return False
    return callable(getattr(obj, "act", None)) or callable(getattr(obj, "decide", None))
