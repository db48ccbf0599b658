"""Player actions as frozen value objects.

An :class:`Action` has a ``kind`` (``fold``, ``check``, ``call``, ``bet``, ``raise`` or
``discard``), an ``amount`` for ``call``/``bet``/``raise`` and ``cards`` for ``discard``.

``amount`` is always a *to* amount: the actor's total contribution to the current
betting round once the action is done (a raise from 2 to 4 has amount 4; a call of a 4
bet by a player who has 2 in has amount 4; an all-in call for less has the smaller total
the player reaches). In fixed limit the amount is determined by the state, so it may be
left ``None`` when applying an action; if given it must be exactly right.

``cards`` of a discard is a sorted tuple of card ids (``rank * 4 + suit``); the empty
tuple is standing pat.

>>> Discard("7h 2c")
Action('discard', cards=(0, 22))
>>> str(Raise(8))
'raise to 8'
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, overload

from triple_draw.game.cards import CARD_TEXT, to_ids
from triple_draw.errors import ArgumentError, CardError

__all__ = [
    "Action",
    "ACTION_KINDS",
    "DiscardChoices",
    "Fold",
    "Check",
    "Call",
    "Bet",
    "Raise",
    "Discard",
]

ACTION_KINDS = ("fold", "check", "call", "bet", "raise", "discard")
_BETTING = frozenset(("call", "bet", "raise"))


@dataclass(frozen=True, slots=True)
class Action:
    kind: str
    amount: int | None = None
    cards: tuple[int, ...] | None = None

    def __post_init__(self) -> None:
        if type(self.kind) is not str or self.kind not in ACTION_KINDS:
            raise ArgumentError(
                f"unknown action kind {self.kind!r}; expected one of {ACTION_KINDS}"
            )
        if self.amount is not None:
            if self.kind not in _BETTING:
                raise ArgumentError(f"a {self.kind} action takes no amount")
            if type(self.amount) is not int:
                raise ArgumentError(f"action amount must be an int, got {self.amount!r}")
        if self.kind == "discard":
            cards = () if self.cards is None else self.cards
            if type(cards) is not tuple or not all(type(c) is int and 0 <= c < 52 for c in cards):
                cards = tuple(to_ids(cards))
            object.__setattr__(self, "cards", tuple(sorted(cards)))
        elif self.cards is not None:
            raise ArgumentError(f"a {self.kind} action takes no cards")

    @property
    def card_text(self) -> tuple[str, ...]:
        """The discarded cards as text, e.g. ``('2c', '7h')``."""
        return tuple(CARD_TEXT[c] for c in self.cards or ())

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"kind": self.kind}
        if self.amount is not None:
            d["amount"] = self.amount
        if self.kind == "discard":
            d["cards"] = list(self.card_text)
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Action:
        """Inverse of :meth:`to_dict` (:class:`ArgumentError` if malformed)."""
        if not isinstance(d, dict) or "kind" not in d:
            raise ArgumentError(f"an action document is a dict with a 'kind', got {d!r}")
        extra = set(d) - {"kind", "amount", "cards"}
        if extra:
            raise ArgumentError(f"unknown action field(s): {sorted(map(str, extra))}")
        cards = tuple(to_ids(d["cards"])) if "cards" in d else None
        return cls(d["kind"], d.get("amount"), cards)

    def __repr__(self) -> str:
        if self.kind == "discard":
            return f"Action('discard', cards={self.cards!r})"
        if self.amount is not None:
            return f"Action({self.kind!r}, {self.amount!r})"
        return f"Action({self.kind!r})"

    def __str__(self) -> str:
        if self.kind == "discard":
            return "discard " + " ".join(self.card_text) if self.cards else "stand pat"
        if self.amount is None:
            return self.kind
        return (
            f"{self.kind} {self.amount}" if self.kind == "call" else f"{self.kind} to {self.amount}"
        )


_new = object.__new__
# the slots' own setters: they skip the frozen class's __setattr__ and the lookup by name
# that object.__setattr__ makes (236 ns an action against 342, timeit)
_set_kind = Action.__dict__["kind"].__set__
_set_amount = Action.__dict__["amount"].__set__
_set_cards = Action.__dict__["cards"].__set__


def make_action(
    kind: str, amount: int | None = None, cards: tuple[int, ...] | None = None
) -> Action:
    """Build an action the engine already knows to be well-formed (no validation; cards
    must be a sorted tuple of ids for a discard)."""
    a = _new(Action)
    _set_kind(a, kind)
    _set_amount(a, amount)
    _set_cards(a, cards)
    return a


def Fold() -> Action:  # noqa: N802 - action constructors read like classes
    return Action("fold")


def Check() -> Action:  # noqa: N802
    return Action("check")


def Call(amount: int | None = None) -> Action:  # noqa: N802
    return Action("call", amount)


def Bet(amount: int | None = None) -> Action:  # noqa: N802
    return Action("bet", amount)


def Raise(amount: int | None = None) -> Action:  # noqa: N802
    return Action("raise", amount)


def Discard(cards: Any = ()) -> Action:  # noqa: N802
    """A draw: discard ``cards`` (text like ``"7h 2c"``, ids or Card objects); none = pat.

    The same discard is the same shared object while the cache of discards has room, as
    the listed discard choices are (actions are immutable)."""
    ids = to_ids(cards)
    ids.sort()
    key = tuple(ids)
    a = _DISCARDS.get(key)
    return _new_discard(key) if a is None else a


def _picker(pos: tuple[int, ...]) -> Any:
    """A function taking a hand (tuple) to the tuple of its cards at positions ``pos``."""
    if not pos:
        return lambda held: ()
    if len(pos) == 1:
        j = pos[0]
        return lambda held: (held[j],)
    return operator.itemgetter(*pos)


#: _PICK[n][m]: takes a sorted hand of n cards to its cards at the set bits of m
_PICK = [
    [_picker(tuple(j for j in range(n) if m >> j & 1)) for m in range(1 << n)] for n in range(6)
]
#: discard actions already built, by their cards (bounded: the common small draws)
_DISCARDS: dict[tuple[int, ...], Action] = {}
_DISCARDS_MAX = 1 << 15


def discard_action(cards: tuple[int, ...]) -> Action:
    """The discard of ``cards`` (ascending distinct card ids), shared when already built.

    A discard not built yet is shared only if its cards are such ids: the shared actions
    are keyed by their cards, and a key such as ``(False, True)`` or ``(0.0, 1.0)`` -
    equal to ``(0, 1)`` - would hand its action to everyone who asks for that discard (a
    bot given a junk observation built one). Anything else comes back unshared, as given,
    for the hand to refuse."""
    a = _DISCARDS.get(cards)
    if a is None:
        a = make_action("discard", None, cards)
        if len(_DISCARDS) < _DISCARDS_MAX:
            low = -1
            for c in cards:
                if type(c) is not int or not low < c < 52:
                    return a
                low = c
            _DISCARDS[cards] = a
    return a


def _new_discard(cards: tuple[int, ...]) -> Action:
    """The discard of ``cards`` (ids: checked, or from checked held cards), built and
    shared while the cache has room."""
    a = make_action("discard", None, cards)
    if len(_DISCARDS) < _DISCARDS_MAX:
        _DISCARDS[cards] = a
    return a


class DiscardChoices(Sequence[Action]):
    """The legal draws of a hand: an immutable sequence of the ``2 ** len(held)`` discard
    actions (32 for five cards), built on demand.

    ``choices[m]`` discards the held cards (in ascending id order) at the set bits of
    ``m``: ``choices[0]`` stands pat, ``choices[-1]`` throws all five, ``choices[0b101]``
    throws the lowest and the third lowest card. An agent with a 32-way discard output
    indexes it directly; iterating, ``in``, ``index`` and ``==`` (with any sequence of
    actions) work as on a list.

    >>> d = DiscardChoices([12, 0, 51, 30, 7])
    >>> len(d), d[0], d[0b101]
    (32, Action('discard', cards=()), Action('discard', cards=(0, 12)))
    """

    __slots__ = ("_held", "_pick")

    def __init__(self, held: Iterable[int]) -> None:
        cards = list(held)
        for c in cards:
            if type(c) is not int or not 0 <= c < 52:
                raise CardError(f"held cards must be card ids 0..51, got {c!r}")
        if len(cards) > 5:
            raise CardError("a hand holds at most 5 cards")
        if len(set(cards)) != len(cards):
            c = next(c for c in cards if cards.count(c) > 1)
            raise CardError(f"card id {c} is held twice")
        self._held: list[int] = sorted(cards)  # never changed
        self._pick = _PICK[len(self._held)]

    def __len__(self) -> int:
        return 1 << len(self._held)

    @overload
    def __getitem__(self, i: int) -> Action: ...
    @overload
    def __getitem__(self, i: slice) -> list[Action]: ...
    def __getitem__(self, i: int | slice) -> Action | list[Action]:
        if type(i) is not int:
            if isinstance(i, slice):
                return [self[k] for k in range(*i.indices(len(self)))]
            i = operator.index(i)
        try:
            cards = self._pick[i](self._held)
        except IndexError:
            raise IndexError("discard choice index out of range") from None
        a = _DISCARDS.get(cards)
        return _new_discard(cards) if a is None else a

    def __iter__(self) -> Iterator[Action]:
        held = self._held
        get = _DISCARDS.get
        for pick in self._pick:
            cards = pick(held)
            a = get(cards)
            yield _new_discard(cards) if a is None else a

    def __contains__(self, x: object) -> bool:
        if type(x) is not Action or x.kind != "discard":
            return False
        cards = x.cards or ()
        return len(set(cards)) == len(cards) and all(c in self._held for c in cards)

    def index(self, x: object, start: int = 0, stop: int | None = None) -> int:
        if x not in self:
            raise ValueError(f"{x!r} is not a legal discard")
        assert type(x) is Action
        m = sum(1 << self._held.index(c) for c in x.cards or ())
        if not start <= m < (len(self) if stop is None else stop):
            raise ValueError(f"{x!r} is not in the range")
        return m

    def __eq__(self, other: object) -> bool:
        if isinstance(other, DiscardChoices):
            return self._held == other._held
        if isinstance(other, (list, tuple)):
            return len(other) == len(self) and all(a == b for a, b in zip(self, other, strict=True))
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self._held))

    def __repr__(self) -> str:
        return f"DiscardChoices({list(self._held)!r})"

    def __reduce__(self) -> tuple[type[DiscardChoices], tuple[list[int]]]:
        return (DiscardChoices, (list(self._held),))


_new_choices = object.__new__


def discard_choices(held: list[int]) -> DiscardChoices:
    """The :class:`DiscardChoices` of a hand holding ``held`` (distinct card ids), made
    without checking them: what ``Hand.legal_actions`` lists at a draw with a core that
    does not build the sequence itself (the compiled core's ``discard_choices`` builds
    the same sequence in Rust)."""
    d = _new_choices(DiscardChoices)
    d._held = cards = sorted(held)
    d._pick = _PICK[len(cards)]
    return d


def _held_of(choices: DiscardChoices) -> list[int]:
    """The held cards of a reference :class:`DiscardChoices`, ascending (a new list)."""
    return list(choices._held)


class CompiledSupport(NamedTuple):
    """What the compiled core's ``DiscardChoices`` (rust/python/choices.rs: the same
    sequence, which the parity tests hold to :class:`DiscardChoices`) takes from this
    module, by name: the action class, the shared discard actions and their bound, this
    reference class and how to read its held cards."""

    action: type[Action]
    discards: dict[tuple[int, ...], Action]
    discards_max: int
    reference: type[DiscardChoices]
    held_of: Callable[[DiscardChoices], list[int]]


_COMPILED_SUPPORT = CompiledSupport(Action, _DISCARDS, _DISCARDS_MAX, DiscardChoices, _held_of)
