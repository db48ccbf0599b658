"""The 2-7 ranking of hands of fewer than five cards: the showdown of the reduced games
(``Rules.hand_size`` 1..4; docs/rules.md, *Reduced games*).

A hand of ``k`` < 5 cards holds no five cards to make a straight or a flush, so only the
pairing counts. Aces are always high. A hand with fewer matched cards is better: no pair,
then one pair, two pair, three of a kind, four of a kind (the real game's order of the
categories that ``k`` cards can make). Within a category hands compare as in the real
game: the ranks of the groups, bigger groups first and higher ranks first within groups
of one size (a pair before its kickers), the lower hand winning at the first difference.
Suits never break ties.

Each hand size ``k`` has its own scale of rank numbers ``1 .. NUM_RANKS[k]`` (1 = the best
hand: ``4-3-2`` for three cards), one per class of equal hands - every multiset of ``k``
ranks out of the 13, whatever the game's deck (a reduced deck only deals some of them):
13, 91, 455 and 1,820 classes for 1..4 cards. A rank's name follows the real game's names
(``"7-5 low"``, ``"pair of fives"``, ``"two pair, fives and treys"``, ``"three fives"``,
``"four fives"``); a hand without a pair is named by its top card, or top two cards
(``"7 low"`` for one card, ``"7-5 low"`` for more).

The tables are built from the rule (:func:`class_key`) when first used; tests check them
against a brute-force ranking of every hand of 1..4 cards, and :func:`class_key` of five
cards with neither a straight nor a flush against the real game's evaluator.

>>> rank_ids([0, 4])  # 3-2: the best two-card hand
1
>>> evaluate([20, 12]).name, evaluate([12, 13]).name  # 7-5 low; a pair of fives
('7-5 low', 'pair of fives')
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache

from triple_draw.errors import CardError

__all__ = [
    "CATEGORIES",
    "NUM_RANKS",
    "ShortHandRank",
    "class_key",
    "evaluate",
    "rank_ids",
    "ranker",
    "evaluator",
]

#: The category names, in the real game's order (the index is a class key's first item:
#: the categories of five cards are kept in their places, so that :func:`class_key` of five
#: cards orders as the real game does when they make neither a straight nor a flush).
CATEGORIES: tuple[str, ...] = (
    "no pair",
    "one pair",
    "two pair",
    "three of a kind",
    "straight",
    "flush",
    "full house",
    "four of a kind",
)
_SHAPES = {
    (2,): 1,
    (2, 1): 1,
    (2, 1, 1): 1,
    (2, 1, 1, 1): 1,
    (2, 2): 2,
    (2, 2, 1): 2,
    (3,): 3,
    (3, 1): 3,
    (3, 1, 1): 3,
    (3, 2): 6,
    (4,): 7,
    (4, 1): 7,
}
#: The classes of each hand size ``k`` (1..4): the multisets of ``k`` ranks out of 13.
NUM_RANKS: dict[int, int] = {1: 13, 2: 91, 3: 455, 4: 1820}

_RANKS = "23456789TJQKA"
_PLURALS = (
    "deuces", "treys", "fours", "fives", "sixes", "sevens", "eights",
    "nines", "tens", "jacks", "queens", "kings", "aces",
)  # fmt: skip

ClassKey = tuple[int, tuple[int, ...]]


def class_key(ranks: Sequence[int]) -> ClassKey:
    """The comparison key of a hand of these rank indexes (0 = deuce ... 12 = ace), 1..5
    of them, read as making no straight and no flush: ``(category, group ranks)``, the
    smaller key the better hand."""
    counts = Counter(ranks)
    groups = tuple(sorted(counts, key=lambda r: (-counts[r], -r)))
    shape = tuple(sorted(counts.values(), reverse=True))
    if max(shape) == 1:
        return (0, groups)
    return (_SHAPES[shape], groups)


#: a rank multiset's code: the sum of 8 ** rank over its cards (a rank's count, at most
#: four, fits its own 3 bits), by card id
_CODE: tuple[int, ...] = tuple(8 ** (c >> 2) for c in range(52))


@cache
def _table(k: int) -> tuple[dict[int, int], tuple[ClassKey, ...]]:
    """(rank by multiset code, the class keys best first) of ``k``-card hands."""
    keys = sorted(
        (class_key(m), m) for m in itertools.combinations_with_replacement(range(13), k)
    )
    ranks = {sum(8**r for r in m): i + 1 for i, (_key, m) in enumerate(keys)}
    assert len(ranks) == NUM_RANKS[k]
    return ranks, tuple(key for key, _m in keys)


def ranker(k: int) -> Callable[[Sequence[int]], int]:
    """The rank 1..``NUM_RANKS[k]`` of ``k`` distinct card ids, unchecked: the showdown's
    function for a game of ``hand_size`` ``k`` (1..4)."""
    table = _table(k)[0]
    code = _CODE

    def rank(ids: Sequence[int]) -> int:
        s = 0
        for c in ids:
            s += code[c]
        return table[s]

    return rank


@dataclass(frozen=True, order=True)
class ShortHandRank:
    """The rank of a hand of fewer than five cards: 1 is the best hand of its size.
    Ordered by ``rank`` only (compare ranks of one hand size); ``category`` and ``name``
    follow from it."""

    rank: int
    category: str = field(compare=False)
    name: str = field(compare=False)


def _name(key: ClassKey) -> str:
    category, groups = key
    if category == 0:
        if len(groups) == 1:
            return f"{_RANKS[groups[0]]} low"
        return f"{_RANKS[groups[0]]}-{_RANKS[groups[1]]} low"
    if category == 1:
        return f"pair of {_PLURALS[groups[0]]}"
    if category == 2:
        return f"two pair, {_PLURALS[groups[0]]} and {_PLURALS[groups[1]]}"
    if category == 3:
        return f"three {_PLURALS[groups[0]]}"
    return f"four {_PLURALS[groups[0]]}"


def evaluator(k: int) -> Callable[[Sequence[int]], ShortHandRank]:
    """The rank, category and name of ``k`` distinct card ids, unchecked (a hand
    result's entries in a game of ``hand_size`` ``k``)."""
    rank = ranker(k)
    keys = _table(k)[1]

    def evaluate(ids: Sequence[int]) -> ShortHandRank:
        r = rank(ids)
        key = keys[r - 1]
        return ShortHandRank(r, CATEGORIES[key[0]], _name(key))

    return evaluate


def _checked(cards: Iterable[int]) -> list[int]:
    try:
        ids = list(cards)
    except TypeError:
        raise CardError(f"expected a list of card ids, got {cards!r}") from None
    for c in ids:
        if type(c) is not int or not 0 <= c < 52:
            raise CardError(f"card ids are ints 0..51, got {c!r}")
    if len(set(ids)) != len(ids):
        raise CardError(f"a card is listed twice: {ids!r}")
    if not 1 <= len(ids) <= 4:
        raise CardError(f"a short hand has 1..4 cards, got {len(ids)}")
    return ids


def rank_ids(cards: Iterable[int]) -> int:
    """The rank of 1..4 distinct card ids among the hands of their number (checked:
    :class:`~triple_draw.errors.CardError` otherwise)."""
    ids = _checked(cards)
    return ranker(len(ids))(ids)


def evaluate(cards: Iterable[int]) -> ShortHandRank:
    """The rank, category and name of 1..4 distinct card ids (checked)."""
    ids = _checked(cards)
    return evaluator(len(ids))(ids)
