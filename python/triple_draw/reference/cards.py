"""Cards of the pure-Python reference: ids, text, and lenient parsing (docs/cards.md).

This module owns the card vocabulary of :mod:`triple_draw.reference`: the rank and
suit alphabets, the id scheme ``id = rank * 4 + suit`` (2c = 0 … As = 51), a small
immutable :class:`Card`, and the lenient text parser shared by the evaluator and the
deck. It is written from the rules alone and never imports the compiled core, so that
the parity tests compare two independent implementations.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Iterable
from typing import SupportsIndex

from triple_draw.errors import CardError

__all__ = [
    "RANKS",
    "SUITS",
    "Card",
    "CardLike",
    "card_id",
    "card_ids",
    "card_text",
    "cards_text",
    "parse_cards",
]

RANKS = "23456789TJQKA"
SUITS = "cdhs"

# Text of every id, built once: printing is on the hot path of error messages and deals.
_TEXT: tuple[str, ...] = tuple(r + s for r in RANKS for s in SUITS)
_ID_OF_TEXT: dict[str, int] = {text: i for i, text in enumerate(_TEXT)}

# One card token inside a chunk of text: "10" or a rank character, then one character
# for the suit. The suit is matched loosely (any character) so that a bad suit is
# reported as part of the token it belongs to ("7x"), not as a stray character.
_TOKEN = re.compile(r"10.|..|.", re.DOTALL)
# Cards may be separated by whitespace and/or commas, or not at all.
_SEPARATORS = re.compile(r"[\s,]+")


def card_text(card_id_: int) -> str:
    """Canonical text (``"7h"``, ``"Td"``) of a card id 0..51."""
    return _TEXT[card_id_]


def cards_text(ids: Iterable[int]) -> str:
    """Canonical concatenated text of several ids, e.g. ``"7c5d4h3s2c"``."""
    return "".join(_TEXT[i] for i in ids)


def _id_of_token(token: str) -> int:
    """Id of one text token such as ``"7h"``, ``"TD"`` or ``"10s"``."""
    if token == "??":
        raise CardError(f"hidden card {token!r} has no identity and cannot be used here")
    normalized = token.upper()
    if normalized.startswith("10"):
        normalized = "T" + normalized[2:]
    # Upper-casing turned the suit into "C"/"D"/"H"/"S"; the canonical table is lower case.
    normalized = normalized[:-1] + normalized[-1:].lower()
    found = _ID_OF_TEXT.get(normalized)
    if found is None:
        raise CardError(f"unknown card {token!r}")
    return found


def _ids_of_text(text: str) -> list[int]:
    ids: list[int] = []
    for chunk in _SEPARATORS.split(text.strip()):
        if chunk:
            ids.extend(_id_of_token(token) for token in _TOKEN.findall(chunk))
    return ids


class Card:
    """One playing card of the reference implementation, identified by its id 0..51.

    ``Card("7h")``, ``Card("10H")`` and ``Card(22)`` are the same card. Cards are
    immutable, hashable, ordered by id, and print canonically (``str(card) == "7h"``).
    """

    __slots__ = ("_id",)
    _id: int

    def __init__(self, value: CardLike) -> None:
        object.__setattr__(self, "_id", card_id(value))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Card is immutable")

    @property
    def id(self) -> int:
        return self._id

    @property
    def rank(self) -> int:
        """Rank index 0..12 (deuce .. ace)."""
        return self._id >> 2

    @property
    def suit(self) -> int:
        """Suit index 0..3 (clubs, diamonds, hearts, spades)."""
        return self._id & 3

    def __int__(self) -> int:
        return self._id

    def __index__(self) -> int:
        return self._id

    def __str__(self) -> str:
        return _TEXT[self._id]

    def __repr__(self) -> str:
        return f"Card({_TEXT[self._id]!r})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Card):
            return self._id == other._id
        return NotImplemented

    def __hash__(self) -> int:
        return hash(("Card", self._id))

    def __lt__(self, other: Card) -> bool:
        if isinstance(other, Card):
            return self._id < other._id
        return NotImplemented

    def __le__(self, other: Card) -> bool:
        if isinstance(other, Card):
            return self._id <= other._id
        return NotImplemented

    def __gt__(self, other: Card) -> bool:
        if isinstance(other, Card):
            return self._id > other._id
        return NotImplemented

    def __ge__(self, other: Card) -> bool:
        if isinstance(other, Card):
            return self._id >= other._id
        return NotImplemented

    def __reduce__(self) -> tuple[type[Card], tuple[int]]:
        return (Card, (self._id,))


# Anything naming one card: text ("7h"), an id (an int or any integer type such as
# numpy.uint8), or a Card.
CardLike = str | int | SupportsIndex | Card


def card_id(value: CardLike) -> int:
    """Id of one card given as text (exactly one card), an integer id 0..51, or a Card.

    A value of the wrong type (a float, None, a bool) raises ``TypeError``, as the
    compiled core does; a value of the right type that names no card raises CardError.
    """
    if isinstance(value, Card):
        return value.id
    if isinstance(value, str):
        ids = _ids_of_text(value)
        if len(ids) != 1:
            raise CardError(f"expected exactly one card, got {len(ids)} in {value!r}")
        return ids[0]
    # bool is an int subclass, but True as "card 1" is almost certainly a mistake.
    if not isinstance(value, bool):
        try:
            # Any integer type (int, numpy integers) is accepted through __index__.
            index = operator.index(value)
        except TypeError:
            pass
        else:
            if not 0 <= index <= 51:
                raise CardError(f"card id out of range 0..51: {index}")
            return index
    raise TypeError(
        f"expected a card as text like '7h', an int id 0..51 or a Card, got {type(value).__name__}"
    )


def card_ids(cards: str | Iterable[CardLike]) -> list[int]:
    """Ids of cards given as lenient text or as a sequence of text/ids/Cards.

    Text may be concatenated (``"7h5d4c3s2h"``) or separated by spaces and/or commas,
    in either case, with ``10`` accepted for ``T``. Duplicates are an error. There is no
    count limit here; callers that need exactly five cards check that themselves.
    """
    if isinstance(cards, str):
        ids = _ids_of_text(cards)
    else:
        try:
            items = iter(cards)
        except TypeError:
            raise TypeError(
                f"expected cards as text or a sequence of cards, got {type(cards).__name__}"
            ) from None
        ids = [card_id(item) for item in items]
    seen = 0
    for i in ids:
        if seen >> i & 1:
            raise CardError(f"duplicate card {_TEXT[i]!r}")
        seen |= 1 << i
    return ids


def parse_cards(cards: str | Iterable[CardLike]) -> list[Card]:
    """Like :func:`card_ids`, returning :class:`Card` objects."""
    return [Card(i) for i in card_ids(cards)]
