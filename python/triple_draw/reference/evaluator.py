"""The 2-7 lowball hand ranking of the pure-Python reference (docs/cards.md).

This module owns the reference evaluator. It derives every rank from the rules
themselves rather than from any table shared with the compiled core:

1. :func:`class_key` turns a hand (five ranks and whether it is suited) into a
   comparison key ``(category, ranks grouped by count)``: the category index, best
   category first (0 = no pair … 8 = straight flush), then the ranks of the groups, bigger
   groups first and higher ranks first within equal sizes. For straights only the top
   card matters. Comparing keys as tuples is exactly the rule "lower category wins,
   then compare as in high poker, lower wins".
2. All 7,462 classes are enumerated once by the rules (every multiset of ranks with at
   most four of a rank, plus a suited twin for every five distinct ranks), their keys
   sorted, and the rank of a class is ``1 + its position``: rank 1 = 7-5-4-3-2 offsuit,
   rank 7,462 = the royal flush.
3. For speed, the rank of each class is stored in two dicts indexed by an additive code
   of the rank multiset (one for unsuited hands, one for flushes), so ranking a hand is
   five table reads, a sum and a dict lookup. :func:`rank_by_rules` keeps the direct
   path (compute the key, find its position) for tests to cross-check the tables.
"""

from __future__ import annotations

import bisect
import itertools
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from triple_draw.errors import BatchError, BatchTypeError, CardError
from triple_draw.reference.cards import RANKS, CardLike, card_ids, cards_text

__all__ = [
    "CATEGORIES",
    "CLASS_COUNT",
    "RefHandRank",
    "category_of_rank",
    "class_key",
    "class_keys",
    "evaluate",
    "evaluate_batch",
    "hand_key",
    "name_of_rank",
    "rank_by_rules",
    "rank_ids",
    "representative_ids",
]

CATEGORIES: tuple[str, ...] = (
    "no pair",
    "one pair",
    "two pair",
    "three of a kind",
    "straight",
    "flush",
    "full house",
    "four of a kind",
    "straight flush",
)
NO_PAIR, ONE_PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH = range(9)

CLASS_COUNT = 7462

_ACE = 12
# Rank words and plurals by rank index, as the contract spells them in names.
_WORDS = (
    "two", "three", "four", "five", "six", "seven", "eight",
    "nine", "ten", "jack", "queen", "king", "ace",
)  # fmt: skip
_PLURALS = (
    "deuces", "treys", "fours", "fives", "sixes", "sevens", "eights",
    "nines", "tens", "jacks", "queens", "kings", "aces",
)  # fmt: skip

ClassKey = tuple[int, tuple[int, ...]]


def class_key(ranks: Sequence[int], suited: bool) -> ClassKey:
    """Comparison key of a five-card hand with these rank indexes (0 = deuce … 12 = ace).

    Smaller keys are better hands. Aces are always high, so A-5-4-3-2 is no straight;
    the only straights are five consecutive ranks from 6-high to A-high.
    """
    if len(ranks) != 5:
        raise ValueError(f"a hand has five ranks, got {len(ranks)}")
    counts = Counter(ranks)
    # Bigger groups first, then higher ranks first: pairs before kickers, and the
    # highest kicker compared first, as in high poker.
    groups = tuple(sorted(counts, key=lambda r: (-counts[r], -r)))
    shape = sorted(counts.values(), reverse=True)
    if shape == [1, 1, 1, 1, 1]:
        is_straight = groups[0] - groups[4] == 4
        if is_straight and suited:
            return (STRAIGHT_FLUSH, groups[:1])
        if is_straight:
            return (STRAIGHT, groups[:1])
        return (FLUSH if suited else NO_PAIR, groups)
    if suited:
        raise ValueError("a hand with a repeated rank cannot be suited")
    category = {
        (2, 1, 1, 1): ONE_PAIR,
        (2, 2, 1): TWO_PAIR,
        (3, 1, 1): TRIPS,
        (3, 2): FULL_HOUSE,
        (4, 1): QUADS,
    }.get(tuple(shape))
    if category is None:
        raise ValueError(f"no five-card hand has the rank counts {shape}")
    return (category, groups)


def _all_rank_multisets() -> Iterable[tuple[int, ...]]:
    """Every multiset of five ranks that a 52-card deck can hold (at most four of a rank)."""
    for ranks in itertools.combinations_with_replacement(range(13), 5):
        if max(Counter(ranks).values()) <= 4:
            yield ranks


@lru_cache(maxsize=1)
def class_keys() -> tuple[ClassKey, ...]:
    """The keys of all 7,462 classes, best first: ``class_keys()[rank - 1]``."""
    keys: set[ClassKey] = set()
    for ranks in _all_rank_multisets():
        keys.add(class_key(ranks, suited=False))
        if len(set(ranks)) == 5:
            keys.add(class_key(ranks, suited=True))
    ordered = tuple(sorted(keys))
    if len(ordered) != CLASS_COUNT:
        raise AssertionError(f"enumerated {len(ordered)} classes, the rules say {CLASS_COUNT}")
    return ordered


def rank_by_rules(ranks: Sequence[int], suited: bool) -> int:
    """Rank 1..7462 straight from :func:`class_key` (slow path, for cross-checks)."""
    keys = class_keys()
    key = class_key(ranks, suited)
    position = bisect.bisect_left(keys, key)
    if position == len(keys) or keys[position] != key:
        raise AssertionError(f"key {key} is not among the enumerated classes")
    return position + 1


def hand_key(ids: Sequence[int]) -> ClassKey:
    """:func:`class_key` of five card ids."""
    return class_key([i >> 2 for i in ids], suited=len({i & 3 for i in ids}) == 1)


# --- the fast path ----------------------------------------------------------------------
#
# A rank multiset is coded as the sum of 8**rank over the five cards: each rank's count
# (at most 4) fits in its own 3-bit field, so the sum is unique per multiset and needs no
# sorting. _RANK_CODE[id] is 8**rank, so a hand's code is five list reads and a sum.

_RANK_CODE: tuple[int, ...] = tuple(8 ** (i >> 2) for i in range(52))
# 1 << suit for every id; the OR over a hand is a single bit exactly when it is suited.
_SUIT_BIT: tuple[int, ...] = tuple(1 << (i & 3) for i in range(52))
_SINGLE_SUIT = frozenset({1, 2, 4, 8})


def _multiset_code(ranks: Iterable[int]) -> int:
    return sum(8**r for r in ranks)


@lru_cache(maxsize=1)
def _tables() -> tuple[dict[int, int], dict[int, int]]:
    """(rank of unsuited hands by code, rank of suited hands by code), from the rules."""
    position = {key: i + 1 for i, key in enumerate(class_keys())}
    offsuit: dict[int, int] = {}
    suited: dict[int, int] = {}
    for ranks in _all_rank_multisets():
        code = _multiset_code(ranks)
        offsuit[code] = position[class_key(ranks, suited=False)]
        if len(set(ranks)) == 5:
            suited[code] = position[class_key(ranks, suited=True)]
    return offsuit, suited


def _rank_of_valid_ids(a: int, b: int, c: int, d: int, e: int) -> int:
    offsuit, suited = _tables()
    code = _RANK_CODE[a] + _RANK_CODE[b] + _RANK_CODE[c] + _RANK_CODE[d] + _RANK_CODE[e]
    if _SUIT_BIT[a] | _SUIT_BIT[b] | _SUIT_BIT[c] | _SUIT_BIT[d] | _SUIT_BIT[e] in _SINGLE_SUIT:
        return suited[code]
    return offsuit[code]


# --- names and categories ---------------------------------------------------------------


def category_of_rank(rank: int) -> str:
    """Category string of a rank 1..7462."""
    return CATEGORIES[class_keys()[_checked_rank(rank) - 1][0]]


def name_of_rank(rank: int) -> str:
    """Readable name of a rank 1..7462, exactly as the contract spells it."""
    category, groups = class_keys()[_checked_rank(rank) - 1]
    if category == NO_PAIR:
        # "nut 8" … "nut A": the four lower cards are the best possible, 5-4-3-2.
        if groups[1:] == (3, 2, 1, 0) and groups[0] >= RANKS.index("8"):
            return f"nut {RANKS[groups[0]]}"
        return f"{RANKS[groups[0]]}-{RANKS[groups[1]]} low"
    top = _WORDS[groups[0]]
    if category == ONE_PAIR:
        return f"pair of {_PLURALS[groups[0]]}"
    if category == TWO_PAIR:
        return f"two pair, {_PLURALS[groups[0]]} and {_PLURALS[groups[1]]}"
    if category == TRIPS:
        return f"three {_PLURALS[groups[0]]}"
    if category == STRAIGHT:
        return f"{top}-high straight"
    if category == FLUSH:
        return f"{top}-high flush"
    if category == FULL_HOUSE:
        return f"{_PLURALS[groups[0]]} full of {_PLURALS[groups[1]]}"
    if category == QUADS:
        return f"four {_PLURALS[groups[0]]}"
    if groups[0] == _ACE:
        return "royal flush"
    return f"{top}-high straight flush"


def _checked_rank(rank: int) -> int:
    if isinstance(rank, bool) or not isinstance(rank, int) or not 1 <= rank <= CLASS_COUNT:
        raise ValueError(f"rank must be an int 1..{CLASS_COUNT}, got {rank!r}")
    return rank


@lru_cache(maxsize=1)
def _representatives() -> tuple[tuple[int, ...], ...]:
    reps: dict[int, tuple[int, ...]] = {}
    for ranks in _all_rank_multisets():
        # Deal the k-th copy of a rank in suit k; five distinct ranks therefore get
        # all-clubs for the flush class and one diamond for the offsuit class.
        seen: Counter[int] = Counter()
        ids = []
        for r in ranks:
            ids.append(r * 4 + seen[r])
            seen[r] += 1
        if len(set(ranks)) == 5:
            reps[rank_by_rules(ranks, suited=True)] = tuple(r * 4 for r in ranks)
            ids[0] += 1
        reps[rank_by_rules(ranks, suited=False)] = tuple(sorted(ids))
    return tuple(reps[rank] for rank in range(1, CLASS_COUNT + 1))


def representative_ids(rank: int) -> tuple[int, ...]:
    """Five card ids (ascending) of one hand of the given rank 1..7462."""
    return _representatives()[_checked_rank(rank) - 1]


# --- the public API ---------------------------------------------------------------------


@dataclass(frozen=True, order=True)
class RefHandRank:
    """Rank of a five-card hand: 1 = 7-5-4-3-2 offsuit (best) … 7462 = royal flush.

    Ordered by ``rank`` only (``a < b`` means ``a`` beats ``b``); ``category`` and
    ``name`` follow from the rank.
    """

    rank: int
    category: str = field(compare=False)
    name: str = field(compare=False)

    @classmethod
    def of_rank(cls, rank: int) -> RefHandRank:
        return cls(rank, category_of_rank(rank), name_of_rank(rank))


def _five_ids(cards: str | Iterable[CardLike]) -> list[int]:
    ids = card_ids(cards)
    if len(ids) != 5:
        raise CardError(f"a hand has exactly 5 cards, got {len(ids)}: {cards_text(ids)!r}")
    return ids


def rank_ids(ids: str | Iterable[CardLike]) -> int:
    """Rank 1..7462 of exactly five distinct cards, usually int ids; no object is built.

    Accepts the same card forms as :func:`evaluate` (as the compiled core does).
    """
    a, b, c, d, e = _five_ids(ids)
    return _rank_of_valid_ids(a, b, c, d, e)


def evaluate(cards: str | Iterable[CardLike]) -> RefHandRank:
    """Rank, category and name of exactly five cards (text or a sequence of cards)."""
    a, b, c, d, e = _five_ids(cards)
    return RefHandRank.of_rank(_rank_of_valid_ids(a, b, c, d, e))


def evaluate_batch(hands: Iterable[str | Iterable[CardLike]]) -> list[int]:
    """Ranks of many five-card hands (each as text or a sequence of ids/cards/text).

    A row with a bad or duplicate card raises :class:`~triple_draw.errors.BatchError`,
    a row holding something that is not a card :class:`~triple_draw.errors.BatchTypeError`;
    both name the row.
    """
    offsuit, suited = _tables()
    rank_code, suit_bit, single_suit = _RANK_CODE, _SUIT_BIT, _SINGLE_SUIT
    ranks: list[int] = []
    append = ranks.append
    for row_number, hand in enumerate(hands):
        # Fast path for the common row of five distinct plain int ids 0..51 (the
        # exhaustive parity test ranks 2.6 million of them); anything else, including
        # numpy integers, text and Cards, goes through the validating path.
        if (type(hand) is tuple or type(hand) is list) and len(hand) == 5:
            a, b, c, d, e = hand
            if (
                type(a) is int
                and type(b) is int
                and type(c) is int
                and type(d) is int
                and type(e) is int
                and 0 <= a < 52
                and 0 <= b < 52
                and 0 <= c < 52
                and 0 <= d < 52
                and 0 <= e < 52
                and len({a, b, c, d, e}) == 5
            ):
                code = rank_code[a] + rank_code[b] + rank_code[c] + rank_code[d] + rank_code[e]
                bits = suit_bit[a] | suit_bit[b] | suit_bit[c] | suit_bit[d] | suit_bit[e]
                append(suited[code] if bits in single_suit else offsuit[code])
                continue
        try:
            append(_rank_of_valid_ids(*_five_ids(hand)))
        except CardError as exc:
            raise BatchError(f"row {row_number}: {exc}") from exc
        except TypeError as exc:
            raise BatchTypeError(f"row {row_number}: {exc}") from exc
    return ranks
