"""The rules of a game: stakes and every option the rules allow, frozen and validated.

A :class:`Rules` value is immutable, hashable, picklable and its ``repr`` round-trips. The
engine reads the options it needs in the hot path from :attr:`Rules.compiled`, a
:class:`CompiledRules` built once here, so that starting a hand costs no per-hand
validation or string comparison.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from collections.abc import Callable, Sequence
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import Any

from triple_draw.errors import ArgumentError, ReducedGameError, RulesError, shown

__all__ = [
    "Rules",
    "CompiledRules",
    "SHORT_ALL_IN",
    "DRAW_PROCEDURES",
    "RESHUFFLES",
    "UNCAPPED",
    "HEADS_UP_UNCAPPED",
    "MAX_CHIPS",
    "MAX_RAISE_CAP",
    "FAMILY_DEFAULTS",
    "FAMILY_LIMITS",
    "VARIANTS",
    "real_game_only",
]

SHORT_ALL_IN = ("half-bet", "full-raise")
#: ``Rules.heads_up_uncapped`` values: capped; no cap in a round that starts heads-up
#: (``True``, also spelled ``"round"``); or also no cap once the action becomes heads-up
#: before the cap is reached (``"action"``, Robert's Rules of Poker)
HEADS_UP_UNCAPPED = (False, True, "round", "action")
DRAW_PROCEDURES = ("declare-then-deal", "immediate")
RESHUFFLES = ("served-discards", "pokerstars", "pokerkit")
MIN_PLAYERS = 2
#: The largest table the rules allow ("option: up to 8").
MAX_PLAYERS = 8
#: The most chips a stack or a stake holds: 2**50 - 1, so that all the chips of a full
#: table together stay below 2**53 and every count is exact as a JSON number, in a double
#: and in the compiled core's 64-bit integers (docs/security.md).
MAX_CHIPS = 2**50 - 1
#: The most raises after the bet a round may allow (``Rules.raise_cap``): card rooms
#: allow 3 or 4; the bound keeps every hand's document within the reader's limit.
MAX_RAISE_CAP = 100
#: Stands in for "no cap" in the engine's count of full bets and raises: the most full
#: bets and raises a round without a cap (heads-up, ``heads_up_uncapped``) holds - a
#: bound no real hand reaches, so that every hand's document is bounded too.
UNCAPPED = 250

_INT_FIELDS = (
    "small_blind",
    "big_blind",
    "small_bet",
    "big_bet",
    "ante",
    "raise_cap",
    "max_players",
    "rake_cap",
    "deck_ranks",
    "deck_suits",
    "hand_size",
    "draws",
)
_BOOL_FIELDS = (
    "big_blind_is_bet",
    "muck_beaten_hands",
    "burn_cards",
    "rake_no_draw_no_drop",
)
#: The rake fields and their defaults (no rake): a document leaves them out at these
#: values, so the documents of hands without rake are those of earlier versions.
RAKE_DEFAULTS: dict[str, Any] = {
    "rake_percent": "0",
    "rake_cap": 0,
    "rake_no_draw_no_drop": True,
    "rake_rounding": "down",
}
#: The fields of the reduced games and their defaults (the real game): a document leaves
#: them out at these values, and so does the ``repr`` (docs/rules.md: *Reduced games*).
FAMILY_DEFAULTS: dict[str, int] = {"deck_ranks": 13, "deck_suits": 4, "hand_size": 5, "draws": 3}
#: Their allowed values, ``(lowest, highest)``.
FAMILY_LIMITS: dict[str, tuple[int, int]] = {
    "deck_ranks": (2, 13),
    "deck_suits": (1, 4),
    "hand_size": (1, 5),
    "draws": (1, 3),
}
#: The fields a document leaves out at their defaults.
_OMITTED_AT_DEFAULT: dict[str, Any] = {**RAKE_DEFAULTS, **FAMILY_DEFAULTS}
#: The members of the family of reduced games by name: the fields each one sets
#: (:meth:`Rules.variant`; the OpenSpiel game's ``variant`` parameter and the
#: environments' ``variant=`` read this one table). "full" is the real game.
VARIANTS: dict[str, dict[str, int]] = {
    "tiny": {"deck_ranks": 3, "deck_suits": 2, "hand_size": 1, "draws": 1, "raise_cap": 1},
    "small": {"deck_ranks": 4, "deck_suits": 2, "hand_size": 2, "draws": 1, "raise_cap": 1},
    "medium": {"deck_ranks": 6, "deck_suits": 2, "hand_size": 3, "draws": 2, "raise_cap": 2},
    "full": {"deck_ranks": 13, "deck_suits": 4, "hand_size": 5, "draws": 3, "raise_cap": 3},
}
#: The 52 card ids (rank * 4 + suit): the real game's deck.
FULL_DECK: tuple[int, ...] = tuple(range(52))
#: How the rake is rounded to the chip: down (the old incremental schedules: "one chip per
#: twenty in the pot"), or to the nearest chip with halves to even (PokerStars' "true
#: percentage" rake)
RAKE_ROUNDINGS = ("down", "half-even")


@dataclass(frozen=True, slots=True)
class CompiledRules:
    """The options of a :class:`Rules` as the engine reads them (derived, never given)."""

    #: the betting unit of each round: the small bet in the first half of the rounds, the
    #: big bet in the second (small, small, big, big in the real game's four)
    units: tuple[int, ...]
    #: full bets and raises allowed per round (``raise_cap + 1``)
    max_full_bets: int
    #: an all-in raise of at least half a unit counts as a full raise ("half-bet")
    half_bet_reopens: bool
    #: replacements are dealt right after each declaration ("immediate" draws)
    immediate_draw: bool
    #: the "pokerstars" reshuffle (else "served-discards")
    pokerstars: bool
    #: the "pokerkit" reshuffle: the pool also takes every discard of the current draw
    pool_all_discards: bool
    #: one card is burned before the replacements of each draw
    burn: bool
    #: a player beaten by a hand shown before him mucks at showdown
    muck_beaten_hands: bool
    #: no cap in a round that starts with exactly two players (both forms of the option)
    heads_up_uncapped: bool
    #: the big blind is a full bet (it would be one as an opening all-in of that size)
    big_blind_is_full: bool
    #: the big blind counts toward the round-1 cap
    big_blind_is_bet: bool
    #: the share of the pot the house takes (0: no rake), its cap in chips (0: none), and
    #: whether a hand that ends before the first draw is raked
    rake: Fraction = Fraction(0)
    rake_cap: int = 0
    rake_no_draw_no_drop: bool = True
    rake_half_even: bool = False
    #: the cap is also lifted when a fold leaves two players before it is reached
    #: (``heads_up_uncapped="action"``)
    uncap_when_heads_up: bool = False
    #: -- the reduced games (docs/rules.md: *Reduced games*); the defaults are the real game's
    #: a reduced game: any of ``deck_ranks``, ``deck_suits``, ``hand_size``, ``draws`` changed
    reduced: bool = False
    #: the ids of the deck's cards, ascending (all 52 in the real game)
    deck: tuple[int, ...] = FULL_DECK
    #: the ids of the 52 that the deck does not hold (none in the real game): outside play
    outside: tuple[int, ...] = ()
    #: the cards each player holds
    hand_size: int = 5
    #: the index of the last betting round (``draws``: 3 in the real game)
    last_round: int = 3
    #: the deal of the real game: the 52 cards and five to each player (``Hand``'s fast path)
    standard_deal: bool = True
    #: a hand's rank and its evaluation (rank, category, name) when the game's hands are of
    #: fewer than five cards (``short_hands.py``); ``None``: the core's five-card evaluator
    rank: Callable[[Sequence[int]], int] | None = None
    evaluate: Callable[[Sequence[int]], Any] | None = None


def _check_int(name: str, value: object) -> int:
    if type(value) is not int:  # bool is an int subclass but is not a stake
        raise RulesError(f"Rules.{name} must be an int, got {shown(value)}")
    if value > MAX_CHIPS:
        limits = FAMILY_LIMITS.get(name)  # (a field of the reduced games: its own range)
        bound = f"{limits[0]}..{limits[1]}" if limits else f"at most {MAX_CHIPS}"
        raise RulesError(f"Rules.{name} must be {bound}, got {value}")
    return value


def _check_names(cls: type, data: dict[str, Any]) -> None:
    names = {f.name for f in dataclasses.fields(cls) if f.init}
    extra = set(data) - names
    if extra:
        raise RulesError(f"unknown Rules field(s): {sorted(map(str, extra))}")


@dataclass(frozen=True)
class Rules:
    """Stakes and options of a Deuce-to-Seven Triple Draw game (docs/rules.md: *Defaults and
    options*).

    Chips are integers. Defaults are the rules of live cardroom play:
    3 raises after the bet, the half-bet short all-in rule, declare-then-deal draws and
    the served-discards reshuffle.

    Fields:
        small_blind, big_blind: forced bets (``0 <= small_blind <= big_blind``,
            ``1 <= big_blind <= small_bet``).
        small_bet, big_bet: the betting unit of rounds 1-2 and of rounds 3-4
            (``small_bet <= big_bet``).
        ante: posted by every player before the blinds (default 0, dead money).
        raise_cap: raises allowed after the bet in each round (3; WSOP/TDA use 4).
        big_blind_is_bet: in round 1 the big blind counts as the bet (True, the live rule:
            ``raise_cap`` raises over it); False counts only what is put in over the blind
            (``raise_cap + 1`` raises over it, PokerKit's counting).
        heads_up_uncapped: ``False`` (capped), ``True`` (also spelled ``"round"``, kept
            as ``True``): no cap in a round that starts with exactly two players in the
            hand; ``"action"``: also no cap from the moment a fold leaves two players in
            the hand before the cap is reached (Robert's Rules of Poker; a capped round
            stays capped).
        short_all_in: ``"half-bet"`` (an all-in raise of at least half a unit is a full
            raise: Robert's Rules, WSOP, TDA) or ``"full-raise"`` (only a full unit reopens).
        draw_procedure: ``"declare-then-deal"`` (everyone declares, then the replacements
            are dealt in the same order) or ``"immediate"`` (dealt right after declaring).
        reshuffle: ``"served-discards"`` (default), ``"pokerstars"`` or ``"pokerkit"``
            (PokerKit's behaviour, not a card room's) (docs/rules.md: *Running out of cards*).
        burn_cards: one card is burned (out of play, never seen) before the replacements of
            each draw (default False: the rules' reshuffle example counts no burns).
        max_players: the table's player limit, 2..8 (default 6, the usual limit; 7-8 is an option).
        muck_beaten_hands: at showdown a player already beaten by a shown hand mucks.
        rake_percent: the rake, a percentage of the pot as a decimal number (``"5"``,
            ``"4.5"``; an int or :class:`~decimal.Decimal` is accepted and kept as its
            text); default ``"0"``: no rake (docs/rules.md: *The rake*).
        rake_cap: the most chips the rake takes from one hand (0: no cap).
        rake_no_draw_no_drop: no rake from a hand that ends before the first draw
            (True, as card rooms and sites do).
        rake_rounding: ``"down"`` (to the chip below) or ``"half-even"`` (to the
            nearest chip, halves to the even one).

    The reduced games (docs/rules.md: *Reduced games*): smaller games of the same
    structure, down to one small enough to solve exactly; the defaults are the real game,
    and a document or ``repr`` leaves these fields out at their defaults.

        deck_ranks: the deck holds the lowest ``deck_ranks`` ranks, deuce upward (2..13;
            13: deuce to ace).
        deck_suits: ... of the first ``deck_suits`` suits in the order clubs, diamonds,
            hearts, spades (1..4). Card ids stay those of the 52-card deck.
        hand_size: the cards each player holds (1..5); a draw discards 0..``hand_size``
            of them. Hands of fewer than five cards rank by their pairing only
            (``short_hands.py``).
        draws: the draws (1..3); the hand has ``draws + 1`` betting rounds, the first
            half of them at the small bet and the rest at the big bet (two rounds:
            small, big; three: small, small, big).

    The deck must hold three hands of ``hand_size`` cards (two players and their
    draws); a hand of ``n`` players needs ``(n + 1) * hand_size`` cards (``Hand``
    refuses more players). :meth:`Rules.variant` names the members (``"tiny"``,
    ``"small"``, ``"medium"``, ``"full"``). The environments, ``RandomBot`` and
    ``CallingStationBot`` play every member; the bots that read five-card hands refuse
    fewer cards, and :func:`~triple_draw.simulate`, PHH and site histories and the table
    server play the real game only: they refuse a reduced game
    (:class:`~triple_draw.errors.ReducedGameError`).

    >>> Rules().raise_cap, Rules().reshuffle
    (3, 'served-discards')
    >>> Rules.online(10).reshuffle
    'pokerstars'
    >>> tiny = Rules(deck_ranks=3, deck_suits=2, hand_size=1, draws=1, raise_cap=1)
    >>> len(tiny.compiled.deck), tiny.compiled.units
    (6, (2, 4))
    """

    small_blind: int = 1
    big_blind: int = 2
    small_bet: int = 2
    big_bet: int = 4
    ante: int = 0
    raise_cap: int = 3
    big_blind_is_bet: bool = True
    heads_up_uncapped: bool | str = False
    short_all_in: str = "half-bet"
    draw_procedure: str = "declare-then-deal"
    reshuffle: str = "served-discards"
    max_players: int = 6
    muck_beaten_hands: bool = False
    burn_cards: bool = False
    rake_percent: str = "0"
    rake_cap: int = 0
    rake_no_draw_no_drop: bool = True
    rake_rounding: str = "down"
    deck_ranks: int = 13
    deck_suits: int = 4
    hand_size: int = 5
    draws: int = 3
    #: the options as the engine reads them (derived from the fields above)
    compiled: CompiledRules = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        rake = _rake_fraction(self.rake_percent)
        object.__setattr__(self, "rake_percent", _rake_text(self.rake_percent))
        for name in _INT_FIELDS:
            _check_int(name, getattr(self, name))
        for name in _BOOL_FIELDS:
            if type(getattr(self, name)) is not bool:
                raise RulesError(f"Rules.{name} must be a bool, got {shown(getattr(self, name))}")
        hu = self.heads_up_uncapped
        if type(hu) is str and hu == "round":
            object.__setattr__(self, "heads_up_uncapped", True)  # one spelling: documents
        elif not (type(hu) is bool or (type(hu) is str and hu == "action")):
            raise RulesError(
                "Rules.heads_up_uncapped must be False, True (or \"round\") or \"action\", "
                f"got {shown(hu)}"
            )
        if self.small_blind < 0:
            raise RulesError(f"Rules.small_blind must be >= 0, got {self.small_blind}")
        if self.big_blind < 1:
            raise RulesError(f"Rules.big_blind must be >= 1, got {self.big_blind}")
        if self.small_blind > self.big_blind:
            raise RulesError(
                f"Rules.small_blind ({self.small_blind}) must not exceed "
                f"big_blind ({self.big_blind})"
            )
        if self.small_bet < self.big_blind:
            raise RulesError(
                f"Rules.small_bet ({self.small_bet}) must be >= big_blind ({self.big_blind})"
            )
        if self.big_bet < self.small_bet:
            raise RulesError(
                f"Rules.big_bet ({self.big_bet}) must be >= small_bet ({self.small_bet})"
            )
        if self.ante < 0:
            raise RulesError(f"Rules.ante must be >= 0, got {self.ante}")
        if self.rake_cap < 0:
            raise RulesError(f"Rules.rake_cap must be >= 0 (0: no cap), got {self.rake_cap}")
        if not 1 <= self.raise_cap <= MAX_RAISE_CAP:
            raise RulesError(
                f"Rules.raise_cap must be 1..{MAX_RAISE_CAP}, got {self.raise_cap}"
            )
        for name, allowed in (
            ("short_all_in", SHORT_ALL_IN),
            ("draw_procedure", DRAW_PROCEDURES),
            ("reshuffle", RESHUFFLES),
            ("rake_rounding", RAKE_ROUNDINGS),
        ):
            value = getattr(self, name)
            if value not in allowed or type(value) is not str:
                raise RulesError(f"Rules.{name} must be one of {allowed}, got {shown(value)}")
        if not MIN_PLAYERS <= self.max_players <= MAX_PLAYERS:
            raise RulesError(
                f"Rules.max_players must be between {MIN_PLAYERS} and {MAX_PLAYERS}, "
                f"got {self.max_players}"
            )
        for name, (low, high) in FAMILY_LIMITS.items():
            value = getattr(self, name)
            if not low <= value <= high:
                raise RulesError(f"Rules.{name} must be {low}..{high}, got {value}")
        size = self.deck_ranks * self.deck_suits
        if size < 3 * self.hand_size:
            raise RulesError(
                f"Rules.hand_size: a deck of {size} cards (deck_ranks={self.deck_ranks} x "
                f"deck_suits={self.deck_suits}) cannot hold {self.hand_size} cards for two "
                f"players and their draws: it needs at least {3 * self.hand_size} "
                "(three hands' worth)"
            )
        half = self.short_all_in == "half-bet"
        # Does the big blind count as the round-1 bet? Only if it would as an opening
        # all-in bet of that size (always, when big_blind == small_bet).
        bb_full = (
            (2 * self.big_blind >= self.small_bet) if half else (self.big_blind >= self.small_bet)
        )
        rounds = self.draws + 1
        big_from = (rounds + 1) // 2  # round r uses the big bet when r >= ceil(rounds / 2)
        family = _family(self)
        compiled = CompiledRules(
            units=tuple(self.small_bet if r < big_from else self.big_bet for r in range(rounds)),
            max_full_bets=self.raise_cap + 1,
            half_bet_reopens=half,
            immediate_draw=self.draw_procedure == "immediate",
            pokerstars=self.reshuffle == "pokerstars",
            pool_all_discards=self.reshuffle == "pokerkit",
            burn=self.burn_cards,
            muck_beaten_hands=self.muck_beaten_hands,
            heads_up_uncapped=bool(self.heads_up_uncapped),
            big_blind_is_full=bb_full,
            big_blind_is_bet=self.big_blind_is_bet,
            rake=rake,
            rake_cap=self.rake_cap,
            rake_no_draw_no_drop=self.rake_no_draw_no_drop,
            rake_half_even=self.rake_rounding == "half-even",
            uncap_when_heads_up=self.heads_up_uncapped == "action",
            **family,
        )
        object.__setattr__(self, "compiled", compiled)

    def __repr__(self) -> str:
        # the dataclass's repr, leaving out the fields of the reduced games at their
        # defaults: the real game's repr is the one it always had
        parts = [
            f"{f.name}={getattr(self, f.name)!r}"
            for f in dataclasses.fields(self)
            if f.repr and FAMILY_DEFAULTS.get(f.name, _NO_DEFAULT) != getattr(self, f.name)
        ]
        return f"{type(self).__qualname__}({', '.join(parts)})"

    def __hash__(self) -> int:
        # the dataclass's hash of the compared fields, leaving out the fields of the
        # reduced games at their defaults: the real game's rules hash as they always did
        return hash(
            tuple(
                getattr(self, f.name)
                for f in dataclasses.fields(self)
                if f.compare and FAMILY_DEFAULTS.get(f.name, _NO_DEFAULT) != getattr(self, f.name)
            )
        )

    @property
    def reduced(self) -> bool:
        """Whether these are the rules of a reduced game (a smaller deck, fewer cards in
        hand or fewer draws than the real game: docs/rules.md, *Reduced games*)."""
        return self.compiled.reduced

    # -- presets -----------------------------------------------------------------------

    @classmethod
    def _conventional(cls, small_bet: int, overrides: dict[str, Any]) -> Rules:
        _check_int("small_bet", small_bet)
        stakes: dict[str, Any] = {
            "small_blind": small_bet // 2,
            "big_blind": small_bet,
            "small_bet": small_bet,
            "big_bet": 2 * small_bet,
        }
        stakes.update(overrides)
        return cls.from_dict(stakes)

    @classmethod
    def live(cls, small_bet: int = 2, **overrides: Any) -> Rules:
        """The live cardroom rules (all defaults), with conventional stakes:
        big blind = small bet, big bet = 2 x small bet, small blind = half the big blind.

        >>> Rules.live(10).big_bet
        20
        """
        return cls._conventional(small_bet, overrides)

    @classmethod
    def wsop(cls, small_bet: int = 2, **overrides: Any) -> Rules:
        """Live (WSOP/TDA) rules: declare-then-deal, served-discards, 4 raises after the bet."""
        overrides.setdefault("raise_cap", 4)
        return cls._conventional(small_bet, overrides)

    @classmethod
    def online(cls, small_bet: int = 2, **overrides: Any) -> Rules:
        """The online rules (PokerStars): replacements dealt right after each
        declaration and the "pokerstars" reshuffle."""
        overrides.setdefault("draw_procedure", "immediate")
        overrides.setdefault("reshuffle", "pokerstars")
        return cls._conventional(small_bet, overrides)

    pokerstars = online

    @classmethod
    def variant(cls, name: str, **overrides: Any) -> Rules:
        """The rules of the member of the family of reduced games called ``name``
        (:data:`VARIANTS`: ``"tiny"``, ``"small"``, ``"medium"``, ``"full"``, the real
        game): its ``deck_ranks``, ``deck_suits``, ``hand_size``, ``draws`` and
        ``raise_cap``, and the defaults for every other field. ``overrides`` sets any
        field, the variant's too (``Rules.variant("tiny", raise_cap=2)``). An unknown
        name raises :class:`~triple_draw.errors.ArgumentError` listing the names.

        >>> tiny = Rules.variant("tiny", max_players=2)
        >>> tiny.deck_ranks, tiny.deck_suits, tiny.hand_size, tiny.draws, tiny.raise_cap
        (3, 2, 1, 1, 1)
        >>> Rules.variant("full") == Rules()
        True
        """
        fields = VARIANTS.get(name) if type(name) is str else None
        if fields is None:
            raise ArgumentError(f"variant must be one of {sorted(VARIANTS)}, got {shown(name)}")
        return cls.from_dict({**fields, **overrides})

    @classmethod
    def pokerkit(cls, small_bet: int = 2, **overrides: Any) -> Rules:
        """The betting of PokerKit's fixed-limit 2-7 triple draw, for hands exchanged with
        it: four bets and raises per round with the big blind not counted (so four raises
        over the blind before the first draw, a bet and three raises after each draw), and
        only a full raise reopens the betting; and its deck: a card burned before the
        replacements of each draw and its reshuffle (``"pokerkit"``), so the stub runs out
        where PokerKit's does. The other differences (raise size after a short all-in, odd
        chips) are listed in docs/interop.md.

        >>> r = Rules.pokerkit()
        >>> r.raise_cap, r.big_blind_is_bet, r.short_all_in, r.burn_cards, r.reshuffle
        (3, False, 'full-raise', True, 'pokerkit')
        """
        overrides.setdefault("burn_cards", True)
        overrides.setdefault("reshuffle", "pokerkit")
        overrides.setdefault("big_blind_is_bet", False)
        overrides.setdefault("short_all_in", "full-raise")
        return cls._conventional(small_bet, overrides)

    # -- plain data --------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """Every field as plain JSON-ready data (the rake fields only when they differ from
        "no rake", and the fields of the reduced games only when they differ from the real
        game, so a game without rake has the document it always had)."""
        return {
            f.name: getattr(self, f.name)
            for f in dataclasses.fields(self)
            if f.init and _OMITTED_AT_DEFAULT.get(f.name, _NO_DEFAULT) != getattr(self, f.name)
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rules:
        """Inverse of :meth:`to_dict` (unknown keys raise :class:`RulesError`; so do the
        presets' and :meth:`replace`'s unknown keyword arguments, which come through here)."""
        if not isinstance(data, dict):
            raise RulesError(f"Rules document must be a dict, got {type(data).__name__}")
        _check_names(cls, data)
        return cls(**data)

    def replace(self, **changes: Any) -> Rules:
        """A copy with some fields changed (validated again)."""
        _check_names(type(self), changes)
        return dataclasses.replace(self, **changes)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rules_from_kwargs, (self.to_dict(),))


_NO_DEFAULT = object()


def _rake_fraction(value: object) -> Fraction:
    """The rake percentage (a decimal number 0 <= p < 100) as a share of the pot."""
    if isinstance(value, bool) or not isinstance(value, (str, int, Decimal)):
        raise RulesError(
            f"Rules.rake_percent must be a decimal number as text, an int or a Decimal, "
            f"got {shown(value)}"
        )
    try:
        d = Decimal(value.strip() if isinstance(value, str) else value)
    except (InvalidOperation, ValueError):
        raise RulesError(
            f"Rules.rake_percent must be a decimal number, got {shown(value)}"
        ) from None
    if not d.is_finite() or not 0 <= d < 100 or d.as_tuple().exponent < -4:  # type: ignore[operator]
        raise RulesError(
            f"Rules.rake_percent must be a percentage 0 <= p < 100 with at most 4 decimals, "
            f"got {shown(value)}"
        )
    return Fraction(d) / 100


def _rake_text(value: str | int | Decimal) -> str:
    """The canonical text of a rake percentage: ``"5"``, ``"4.5"``."""
    d = Decimal(value.strip() if isinstance(value, str) else value)
    text = format(d.normalize(), "f")
    return text if text != "-0" else "0"


def _rules_from_kwargs(kwargs: dict[str, Any]) -> Rules:
    return Rules(**kwargs)


def _family(rules: Rules) -> dict[str, Any]:
    """The :class:`CompiledRules` fields of a reduced game (none for the real game)."""
    if all(getattr(rules, k) == v for k, v in FAMILY_DEFAULTS.items()):
        return {}
    deck = tuple(
        c for c in FULL_DECK if c >> 2 < rules.deck_ranks and c & 3 < rules.deck_suits
    )
    out: dict[str, Any] = {
        "reduced": True,
        "deck": deck,
        "outside": tuple(c for c in FULL_DECK if c not in deck),
        "hand_size": rules.hand_size,
        "last_round": rules.draws,
        "standard_deal": len(deck) == 52 and rules.hand_size == 5,
    }
    if rules.hand_size < 5:
        from triple_draw.game.short_hands import evaluator, ranker

        out["rank"] = ranker(rules.hand_size)
        out["evaluate"] = evaluator(rules.hand_size)
    return out


def real_game_only(rules: Rules, component: str) -> None:
    """Refuse the rules of a reduced game for ``component``, which plays the real game
    only (:class:`~triple_draw.errors.ReducedGameError` naming it and the game)."""
    if rules.compiled.reduced:
        changed = ", ".join(
            f"{k}={getattr(rules, k)}"
            for k, v in FAMILY_DEFAULTS.items()
            if getattr(rules, k) != v
        )
        raise ReducedGameError(
            f"{component} is for the real game only (52 cards, five in hand, three draws), "
            f"not a reduced game ({changed}); a reduced game is played with Hand"
        )
