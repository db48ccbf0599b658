"""Tests of the pure-Python reference implementation on its own (cards, hand ranking, contract).

These check the reference against the rules and against published test vectors, without
the compiled core: hand categories and their counts, ordering vectors of hands,
names, lenient parsing and its errors, the ChaCha block function, Lemire's bounded
integer, and the deck's dealing, reshuffling and saved state.
"""

from __future__ import annotations

import ast
import copy
import itertools
import json
import pickle
import random
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from triple_draw.errors import BatchError, BatchTypeError, CardError, DeckError, TripleDrawError
from triple_draw.reference import (
    Card,
    Deck,
    RefHandRank,
    card_ids,
    evaluate,
    evaluate_batch,
    parse_cards,
    rank_ids,
)
from triple_draw.reference.chacha import (
    CONSTANTS,
    MAX_WORD_POS,
    ChaCha12Stream,
    chacha_block,
    fisher_yates_shuffle,
    initial_state,
    key_words,
    lemire_below,
)
from triple_draw.reference.evaluator import (
    CATEGORIES,
    CLASS_COUNT,
    class_keys,
    hand_key,
    name_of_rank,
    rank_by_rules,
    representative_ids,
)

REFERENCE_DIR = Path(__file__).resolve().parent.parent / "python" / "triple_draw" / "reference"


def rank_of(text: str) -> int:
    return evaluate(text).rank


def name_category(rank: int) -> str:
    return CATEGORIES[class_keys()[rank - 1][0]]


# --- independence --------------------------------------------------------------------------


def test_reference_never_imports_the_compiled_core() -> None:
    # The parity tests are only worth something if the reference is a second,
    # independent implementation: it may use the exceptions, nothing else of the package.
    allowed = {"triple_draw.errors"}
    sources = sorted(REFERENCE_DIR.glob("*.py"))
    assert sources, f"no reference sources found under {REFERENCE_DIR}"
    for source in sources:
        tree = ast.parse(source.read_text(), filename=str(source))
        for node in ast.walk(tree):
            modules: list[str] = []
            if isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                modules = [node.module or ""]
                if node.level:
                    raise AssertionError(f"{source.name}: relative import of {node.module}")
            for module in modules:
                if module == "triple_draw" or module.startswith("triple_draw."):
                    assert module in allowed or module.startswith("triple_draw.reference"), (
                        f"{source.name} imports {module}"
                    )


# --- hand categories and their counts -----------------------------------------------------

# The nine categories, best first: category -> (classes, hands of 2,598,960, best, worst).
CATEGORY_TABLE = {
    "no pair": (1278, 1_303_560, "7c5d4h3s2c", "AcKdQhJs9c"),
    "one pair": (2860, 1_098_240, "2c2d5h4s3c", "AcAdKhQsJc"),
    "two pair": (858, 123_552, "3c3d2h2s4c", "AcAdKhKsQc"),
    "three of a kind": (858, 54_912, "2c2d2h4s3c", "AcAdAhKsQc"),
    "straight": (9, 9_180, "6c5d4h3s2c", "AcKdQhJsTc"),
    "flush": (1278, 5_112, "7c5c4c3c2c", "AcKcQcJc9c"),
    "full house": (156, 3_744, "2c2d2h3s3c", "AcAdAhKsKc"),
    "four of a kind": (156, 624, "2c2d2h2s3c", "AcAdAhAsKc"),
    "straight flush": (9, 36, "6c5c4c3c2c", "AcKcQcJcTc"),
}


@pytest.fixture(scope="module")
def all_hand_ranks() -> list[int]:
    """The rank of every five-card hand, in itertools.combinations order."""
    return evaluate_batch(itertools.combinations(range(52), 5))


def test_category_class_and_hand_counts_match_rules_table(all_hand_ranks: list[int]) -> None:
    assert len(all_hand_ranks) == 2_598_960
    per_rank = Counter(all_hand_ranks)
    hands: Counter[str] = Counter()
    for rank, count in per_rank.items():
        hands[name_category(rank)] += count
    classes = Counter(name_category(rank) for rank in per_rank)
    assert list(CATEGORIES) == list(CATEGORY_TABLE)
    for category, (n_classes, n_hands, _, _) in CATEGORY_TABLE.items():
        assert classes[category] == n_classes, category
        assert hands[category] == n_hands, category
    assert sum(classes.values()) == CLASS_COUNT == 7462


def test_every_rank_1_to_7462_is_reached_and_categories_are_contiguous(
    all_hand_ranks: list[int],
) -> None:
    assert set(all_hand_ranks) == set(range(1, CLASS_COUNT + 1))
    # Best category first: the category index never decreases as the rank grows.
    indexes = [class_keys()[rank - 1][0] for rank in range(1, CLASS_COUNT + 1)]
    assert indexes == sorted(indexes)


@pytest.mark.parametrize("category", list(CATEGORY_TABLE))
def test_best_and_worst_of_each_category_per_rules_table(category: str) -> None:
    _, _, best, worst = CATEGORY_TABLE[category]
    ranks = [r for r in range(1, CLASS_COUNT + 1) if name_category(r) == category]
    assert evaluate(best).category == category
    assert evaluate(worst).category == category
    assert rank_of(best) == min(ranks)
    assert rank_of(worst) == max(ranks)


# --- hand ordering -----------------------------------------------------------------------

# Ordering vectors: each line beats the line above it.
ORDERING_VECTORS = [
    "Jh7h4h3h2h",  # flush
    "8c7d6h5s4c",  # straight
    "7c6d5h4s3c",  # lower straight
    "5c5d5h6s3c",  # three of a kind
    "2c2d7h6s5c",  # one pair
    "Ac9d6h4s2c",
    "Ac8d7h4s2c",
    "Ac5d4h3s2c",  # not a straight: ace-high
    "KcJd8h7s4c",
    "Tc7d5h4s3c",
    "Tc6d5h4s3c",
    "Tc6d5h4s2c",
    "9c7d6h4s3c",
    "8c6d4h3s2c",
    "7c6d4h3s2c",  # "number two"
    "7c5d4h3s2c",  # the nuts
]


def test_each_ordering_vector_beats_the_line_above() -> None:
    ranks = [rank_of(hand) for hand in ORDERING_VECTORS]
    for above, below, rank_above, rank_below in zip(
        ORDERING_VECTORS, ORDERING_VECTORS[1:], ranks, ranks[1:], strict=False
    ):
        assert rank_below < rank_above, f"{below} should beat {above}"
    assert evaluate(ORDERING_VECTORS[-2]).rank == 2
    assert evaluate(ORDERING_VECTORS[-1]).rank == 1


def test_six_high_straight_loses_to_ace_king_queen_jack_nine() -> None:
    straight = evaluate("2c3d4h5s6c")
    assert straight.category == "straight"
    assert straight.rank > rank_of("AcKdQhJs9c")


def test_pair_of_deuces_with_5_4_3_is_the_next_hand_after_ace_king_queen_jack_nine() -> None:
    assert rank_of("AcKdQhJs9c") == 1278
    assert rank_of("2c2d3h4s5c") == rank_of("AcKdQhJs9c") + 1
    assert evaluate("2c2d3h4s5c").name == "pair of deuces"


def test_ace_five_four_three_two_is_not_a_straight_and_is_the_best_ace_high() -> None:
    wheel = evaluate("Ac5d4h3s2c")
    assert wheel.category == "no pair"
    assert wheel.name == "nut A"
    ace_high = [
        r
        for r in range(1, CLASS_COUNT + 1)
        if class_keys()[r - 1][0] == 0 and class_keys()[r - 1][1][0] == 12
    ]
    assert wheel.rank == min(ace_high)
    suited = evaluate("Ac5c4c3c2c")
    assert suited.category == "flush"
    assert suited.name == "ace-high flush"


def test_no_pair_compares_highest_card_first_then_next() -> None:
    # Highest card first, then the next, lower wins: 8-6-4-3-2 beats 8-6-5-3-2.
    assert rank_of("8c6d4h3s2c") < rank_of("8c6d5h3s2c")
    assert rank_of("9c2d3h4s5c") < rank_of("9c7d6h5s4c") < rank_of("Tc2d3h4s5c")


def test_pairs_compare_pair_rank_first_then_kickers_from_the_top() -> None:
    assert rank_of("2c2dAhKsQc") < rank_of("3c3d4h5s6c")
    assert rank_of("5c5d7h4s2c") < rank_of("5c5d7h4s3c") < rank_of("5c5d8h3s2c")
    assert rank_of("3c3d2h2sAc") < rank_of("4c4d2h2s3c")  # two pair: top pair first
    assert rank_of("KcKd2h2s3c") < rank_of("KcKd3h3s2c")  # then the second pair
    assert rank_of("2c2d2hAsKc") < rank_of("3c3d3h4s5c")  # trips: the trips first
    assert rank_of("2c2d2hAsAc") < rank_of("3c3d3h2s2d")  # full house: the trips first
    assert rank_of("2c2d2h2sAc") < rank_of("3c3d3h3s2c")  # quads: the quads first


def test_suits_never_break_ties() -> None:
    assert rank_of("7c5d4h3s2c") == rank_of("7s5h4d3c2s")
    assert rank_of("KcKdQhQs9c") == rank_of("KhKsQcQd9s")


def test_flushes_and_straights_count_against_the_player() -> None:
    assert rank_of("7c5c4c3c2c") > rank_of("AcAdAhKsQc")  # any flush loses to trips
    assert rank_of("7c5c4c3c2c") > rank_of("AcKdQhJsTc")  # and to every straight
    assert rank_of("6c5c4c3c2c") > rank_of("AcAdAhAsKc")  # straight flush below quads


def test_rank_1_is_seven_five_low_and_rank_7462_is_the_royal_flush() -> None:
    assert evaluate("7c5d4h3s2c") == RefHandRank(1, "no pair", "7-5 low")
    assert evaluate("AsKsQsJsTs") == RefHandRank(7462, "straight flush", "royal flush")


# --- names -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "name"),
    [
        ("7c5d4h3s2c", "7-5 low"),
        ("7c6d4h3s2c", "7-6 low"),
        ("8c5d4h3s2c", "nut 8"),
        ("8c6d4h3s2c", "8-6 low"),
        ("9c5d4h3s2c", "nut 9"),
        ("Tc5d4h3s2c", "nut T"),
        ("Jc5d4h3s2c", "nut J"),
        ("Qc5d4h3s2c", "nut Q"),
        ("Kc5d4h3s2c", "nut K"),
        ("Ac5d4h3s2c", "nut A"),
        ("9c8d4h3s2c", "9-8 low"),
        ("Tc9d4h3s2c", "T-9 low"),
        ("AcKdQhJs9c", "A-K low"),
        ("2c2d5h4s3c", "pair of deuces"),
        ("3c3d5h4s2c", "pair of treys"),
        ("AcAdKhQsJc", "pair of aces"),
        ("AcAdKhKsQc", "two pair, aces and kings"),
        ("3c3d2h2s4c", "two pair, treys and deuces"),
        ("2c2d2h4s3c", "three deuces"),
        ("6c6d6h4s3c", "three sixes"),
        ("6c5d4h3s2c", "six-high straight"),
        ("AcKdQhJsTc", "ace-high straight"),
        ("7c5c4c3c2c", "seven-high flush"),
        ("8c5c4c3c2c", "eight-high flush"),
        ("AcKcQcJc9c", "ace-high flush"),
        ("2c2d2h3s3c", "deuces full of treys"),
        ("AcAdAhKsKc", "aces full of kings"),
        ("2c2d2h2s3c", "four deuces"),
        ("TcTdThTs3c", "four tens"),
        ("6c5c4c3c2c", "six-high straight flush"),
        ("KcQcJcTc9c", "king-high straight flush"),
        ("AcKcQcJcTc", "royal flush"),
    ],
)
def test_hand_names_follow_the_contract(hand: str, name: str) -> None:
    assert evaluate(hand).name == name


def test_every_rank_has_a_name_and_names_group_ranks_as_the_contract_says() -> None:
    names = [name_of_rank(rank) for rank in range(1, CLASS_COUNT + 1)]
    assert all(names)
    # A name says only the top of a hand (kickers are left out), so several ranks share
    # one; the exact counts catch a name that says too much or too little.
    counts = Counter(names)
    assert counts["royal flush"] == 1
    assert counts["pair of deuces"] == 220  # C(12, 3) kicker sets
    assert counts["two pair, aces and kings"] == 11
    assert counts["aces full of kings"] == 1
    assert counts["nut 8"] == 1
    assert counts["7-6 low"] == 3  # 7-6-4-3-2, 7-6-5-3-2, 7-6-5-4-2 (7-6-5-4-3 is a straight)
    assert counts["six-high straight"] == counts["nine-high straight flush"] == 1


# --- fast path versus the rules ----------------------------------------------------------


def test_representative_of_every_rank_evaluates_to_that_rank() -> None:
    for rank in range(1, CLASS_COUNT + 1):
        ids = representative_ids(rank)
        assert len(set(ids)) == 5
        assert rank_ids(list(ids)) == rank


def test_lookup_tables_agree_with_the_rule_key_on_random_hands() -> None:
    rng = random.Random(20240601)
    for _ in range(20_000):
        ids = rng.sample(range(52), 5)
        ranks = [i >> 2 for i in ids]
        suited = len({i & 3 for i in ids}) == 1
        assert rank_ids(ids) == rank_by_rules(ranks, suited)
        assert class_keys()[rank_ids(ids) - 1] == hand_key(ids)


def test_hand_rank_orders_by_rank_only_and_is_frozen() -> None:
    best, second = evaluate("7c5d4h3s2c"), evaluate("7c6d4h3s2c")
    assert best < second and second > best and best != second
    assert best == evaluate("7s5s4s3s2d")
    assert hash(best) == hash(evaluate("7s5s4s3s2d"))
    assert sorted([second, best]) == [best, second]
    with pytest.raises(AttributeError):
        best.rank = 3  # type: ignore[misc]
    assert pickle.loads(pickle.dumps(best)) == best


# --- card parsing ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "7h5d4c3s2h",
        "7h 5d 4c 3s 2h",
        "7h,5d,4c,3s,2h",
        " 7H, 5d  4C,3s\t2h ",
        "7h5d 4c,3S2H",
        "7h,,5d , 4c3s 2h",
    ],
)
def test_lenient_parsing_accepts_case_spaces_commas_and_concatenation(text: str) -> None:
    assert card_ids(text) == [22, 13, 8, 7, 2]


def test_ten_may_be_written_10_or_t_in_either_case() -> None:
    assert card_ids("10h") == card_ids("Th") == card_ids("th") == card_ids("TH") == [34]
    assert card_ids("10c10d9h") == [32, 33, 30]


def test_sequences_of_text_ids_and_cards_parse_alike() -> None:
    assert card_ids(["7h", 13, Card("4c"), np.uint8(7), "2H"]) == [22, 13, 8, 7, 2]
    assert [str(card) for card in parse_cards("As 10d 2c")] == ["As", "Td", "2c"]
    assert card_ids("") == [] and card_ids([]) == []


def test_card_ids_follow_rank_times_four_plus_suit() -> None:
    assert card_ids("2c 2d 2h 2s 3c As") == [0, 1, 2, 3, 4, 51]
    for i in range(52):
        card = Card(i)
        assert card.id == int(card) == i == card.rank * 4 + card.suit
        assert Card(str(card)) == card


def test_card_value_semantics() -> None:
    card = Card("10H")
    assert str(card) == "Th" and repr(card) == "Card('Th')"
    assert card == Card(34) and hash(card) == hash(Card("th"))
    assert Card(0) < Card(1) <= Card(1) < Card(51)
    assert pickle.loads(pickle.dumps(card)) == card
    with pytest.raises(AttributeError):
        card.id = 3  # type: ignore[misc]


@pytest.mark.parametrize(
    ("cards", "token"),
    [
        ("7h5x4c3s2h", "5x"),
        ("7h 1h 4c", "1h"),
        ("Zc", "Zc"),
        ("7h5d4", "4"),
        ("7h 11c", "11"),
        ("??", "??"),
        (["7h", "Kq"], "Kq"),
        ("7h7H", "7h"),
        ("As,as", "As"),
        ([22, "7h"], "7h"),
        ([52], "52"),
        ([-1], "-1"),
    ],
)
def test_malformed_unknown_or_duplicate_cards_raise_card_error_naming_the_token(
    cards: object, token: str
) -> None:
    with pytest.raises(CardError, match=token.replace("?", r"\?")) as info:
        card_ids(cards)  # type: ignore[arg-type]
    assert isinstance(info.value, ValueError) and isinstance(info.value, TripleDrawError)


@pytest.mark.parametrize("cards", [[True], [1.0], [None], ["7h", 2.5], 5, None])
def test_values_that_are_not_cards_raise_type_error(cards: object) -> None:
    with pytest.raises(TypeError):
        card_ids(cards)  # type: ignore[arg-type]


@pytest.mark.parametrize("value", [True, 1.0, None, b"7h"])
def test_card_of_a_value_that_is_not_a_card_raises_type_error(value: object) -> None:
    with pytest.raises(TypeError):
        Card(value)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "cards", ["7h5d4c3s", "7h5d4c3s2h9c", "", ["7h", "5d", "4c", "3s", "2h", "Ac"]]
)
def test_evaluate_needs_exactly_five_cards(cards: object) -> None:
    with pytest.raises(CardError, match="exactly 5 cards, got"):
        evaluate(cards)  # type: ignore[arg-type]


def test_six_card_hand_error_names_the_cards() -> None:
    with pytest.raises(CardError, match="7h5d4c3s2h9c"):
        evaluate("7h 5d 4c 3s 2h 9c")


def test_rank_ids_validates_ids() -> None:
    assert rank_ids((20, 13, 10, 7, 0)) == 1
    assert rank_ids(np.array([20, 13, 10, 7, 0], dtype=np.uint8)) == 1
    assert rank_ids([Card(20), "5d", 10, 7, 0]) == 1
    for bad in (
        [0, 1, 2, 3],
        [0, 1, 2, 3, 4, 5],
        [0, 1, 2, 3, 3],
        [0, 1, 2, 3, 52],
        ["7c", 20, 1, 2, 3],
    ):
        with pytest.raises(CardError):
            rank_ids(bad)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        rank_ids([0, 1, 2, 3, True])


def test_evaluate_batch_accepts_ids_text_and_numpy_rows() -> None:
    rows = np.array([[20, 13, 10, 7, 0], [51, 47, 43, 39, 35]], dtype=np.uint8)
    assert evaluate_batch(rows) == [1, 7462]
    assert evaluate_batch(["7c5d4h3s2c", (51, 47, 43, 39, 35), [Card(0), 1, "2h", 3, 4]]) == [
        1,
        7462,
        rank_of("2c2d2h2s3c"),
    ]
    assert evaluate_batch([]) == []


@pytest.mark.parametrize("bad_row", [(0, 1, 2, 3), (0, 1, 2, 3, 3), (0, 1, 2, 3, 52), "7c5d4h3s2x"])
def test_evaluate_batch_error_names_the_row(bad_row: object) -> None:
    with pytest.raises(BatchError, match="row 1"):
        evaluate_batch([(0, 4, 8, 12, 17), bad_row])  # type: ignore[list-item]


@pytest.mark.parametrize("bad_row", [(0, 1, 2, 3, True), (0, 1, 2, 3, 4.0), 7])
def test_evaluate_batch_row_of_non_cards_raises_batch_type_error_naming_the_row(
    bad_row: object,
) -> None:
    with pytest.raises(BatchTypeError, match="row 1"):
        evaluate_batch([(0, 4, 8, 12, 17), bad_row])  # type: ignore[list-item]


# --- the ChaCha block function -----------------------------------------------------------

RFC7539_2_3_2_OUTPUT = [
    0xE4E7F110,
    0x15593BD1,
    0x1FDD0F50,
    0xC47120A3,
    0xC7F4D1C7,
    0x0368C033,
    0x9AAA2204,
    0x4E6CD4C3,
    0x466482D2,
    0x09AA9F07,
    0x05D7C214,
    0xA2028BD9,
    0xD19C12B5,
    0xB94E16DE,
    0xE883D0CB,
    0x4E3C50A2,
]


def test_chacha20_block_matches_rfc7539_section_2_3_2() -> None:
    # RFC layout: word 12 = 32-bit counter (1), words 13..15 = the 96-bit nonce
    # 00000009 0000004a 00000000 read as little-endian words.
    state = [*CONSTANTS, *key_words(bytes(range(32))), 1, 0x09000000, 0x4A000000, 0]
    output = chacha_block(state, double_rounds=10)
    assert output == RFC7539_2_3_2_OUTPUT
    serialized = b"".join(word.to_bytes(4, "little") for word in output)
    assert serialized[:16].hex() == "10f1e7e4d13b5915500fdd1fa32071c4"


def test_chacha12_zero_key_keystream_matches_published_first_block() -> None:
    # ChaCha12 with an all-zero key and nonce: the first 64 keystream bytes (published
    # with the ChaCha test vectors, and the first output of rand's StdRng::from_seed([0; 32])).
    stream = ChaCha12Stream(bytes(32))
    keystream = b"".join(stream.next_u32().to_bytes(4, "little") for _ in range(16))
    assert keystream.hex() == (
        "9bf49a6a0755f953811fce125f2683d50429c3bb49e074147e0089a52eae155f"
        "0564f879d27ae3c02ce82834acfa8c793a629f2ca0de6919610be82f411326be"
    )
    assert stream.word_pos == 16


def test_chacha_stream_block_counter_is_64_bits_low_word_first() -> None:
    key = bytes(range(100, 132))
    state = initial_state(key, block_counter=(1 << 32) + 5)
    assert state[12:16] == [5, 1, 0, 0]
    expected = chacha_block(state, double_rounds=6)
    stream = ChaCha12Stream(key, word_pos=((1 << 32) + 5) * 16 + 3)
    assert [stream.next_u32() for _ in range(13)] == expected[3:]
    # The next word comes from the following block.
    assert stream.next_u32() == chacha_block(initial_state(key, (1 << 32) + 6), 6)[0]


def test_chacha_stream_rejects_out_of_range_positions() -> None:
    with pytest.raises(DeckError):
        ChaCha12Stream(bytes(32), word_pos=MAX_WORD_POS)
    with pytest.raises(DeckError):
        ChaCha12Stream(bytes(32), word_pos=-1)
    with pytest.raises(DeckError):
        ChaCha12Stream(bytes(31))


# --- Lemire's bounded integer ------------------------------------------------------------


class ScriptedWords:
    """A source of u32 words that replays a script and counts how many were used."""

    def __init__(self, words: list[int]) -> None:
        self.words = list(words)
        self.used = 0

    def __call__(self) -> int:
        word = self.words[self.used]
        self.used += 1
        return word


@pytest.mark.parametrize("n", [1, 2, 3, 5, 6, 7, 10, 52, 1000, 2**31 - 1, 2**31 + 1, 2**32 - 1])
def test_below_rejects_exactly_the_surplus_word_of_each_bucket(n: int) -> None:
    # Every word w maps to bucket w*n >> 32. A bucket has floor(2**32/n) or one more
    # words; Lemire's method must reject exactly one word in each bigger bucket (its
    # first, whose low product is below (2**32 - n) % n) so every result has the same
    # number of words: floor(2**32/n).
    threshold = (2**32 - n) % n
    buckets = range(n) if n <= 52 else [0, 1, 2, n // 3, n // 2, n - 2, n - 1]
    for v in buckets:
        first = -((-v << 32) // n)  # smallest w with w*n >> 32 == v
        end = -((-(v + 1) << 32) // n)
        low = first * n - (v << 32)
        source = ScriptedWords([first, first + 1 if first + 1 < end else first])
        result = lemire_below(n, source)
        rejected = source.used == 2
        assert rejected == (low < threshold)
        if not rejected:
            assert result == v
        assert (end - first) - int(rejected) == 2**32 // n
        if first + 1 < end:
            # Only the first word of a bucket can ever be rejected.
            follower = ScriptedWords([first + 1])
            assert lemire_below(n, follower) == v and follower.used == 1


def test_below_top_word_gives_the_top_value_and_zero_word_is_rejected_unless_n_divides() -> None:
    assert lemire_below(52, ScriptedWords([0xFFFFFFFF])) == 51
    three = ScriptedWords([0, 0xFFFFFFFF])
    assert lemire_below(3, three) == 2 and three.used == 2  # 0*3 = 0 < (2**32 - 3) % 3 = 1
    four = ScriptedWords([0])
    assert lemire_below(4, four) == 0 and four.used == 1  # 4 divides 2**32: no rejection
    assert lemire_below(1, ScriptedWords([0xFFFFFFFF])) == 0


@pytest.mark.parametrize("n", [0, -1, 2**32])
def test_below_rejects_bounds_outside_1_to_2_pow_32(n: int) -> None:
    with pytest.raises(DeckError):
        lemire_below(n, ScriptedWords([1]))


def test_below_rejection_path_draws_another_word_from_the_real_stream() -> None:
    # Found by searching the zero-key stream: the word at this position, 82595525,
    # gives 82595525 * 52 mod 2**32 = 4 < (2**32 - 52) % 52 = 48, so below(52) redraws.
    position = 84_881_805
    stream = ChaCha12Stream(bytes(32), position)
    assert stream.next_u32() == 82_595_525
    stream = ChaCha12Stream(bytes(32), position)
    stream.below(52)
    assert stream.word_pos == position + 2


def test_below_is_roughly_uniform_on_the_seeded_stream() -> None:
    stream = ChaCha12Stream(bytes(range(32)))
    for n in (3, 52):
        draws = 600 * n
        counts = Counter(stream.below(n) for _ in range(draws))
        assert set(counts) == set(range(n))
        expected = draws / n
        chi_square = sum((counts[v] - expected) ** 2 / expected for v in range(n))
        # Fixed key, so deterministic; the bound is far beyond the 99.99th percentile.
        assert chi_square < n + 8 * (2 * n) ** 0.5


def test_fisher_yates_swaps_from_the_back_with_below_of_i_plus_1() -> None:
    calls: list[int] = []

    def always(value: Callable[[int], int]) -> Callable[[int], int]:
        def below(n: int) -> int:
            calls.append(n)
            return value(n)

        return below

    items = [0, 1, 2, 3]
    fisher_yates_shuffle(items, always(lambda n: 0))
    assert calls == [4, 3, 2]
    assert items == [1, 2, 3, 0]
    items = [0, 1, 2, 3]
    fisher_yates_shuffle(items, always(lambda n: n - 1))
    assert items == [0, 1, 2, 3]
    single: list[int] = [7]
    fisher_yates_shuffle(single, always(lambda n: 0))
    assert single == [7]


# --- the deck ----------------------------------------------------------------------------


def test_new_deck_is_the_shuffled_ascending_ids_keyed_by_the_little_endian_seed() -> None:
    seed = 0x0123456789ABCDEF
    stream = ChaCha12Stream(seed.to_bytes(32, "little"))
    expected = list(range(52))
    stream.shuffle(expected)
    deck = Deck(seed)
    assert deck.stub_ids() == expected
    assert deck.get_state() == {
        "key": seed.to_bytes(32, "little").hex(),
        "word_pos": stream.word_pos,
        "stub": expected,
    }
    assert Deck(2**256 - 1).get_state()["key"] == "ff" * 32


def test_deck_deals_every_card_once_from_the_front_of_the_stub() -> None:
    deck = Deck(7)
    stub = deck.stub_ids()
    assert sorted(stub) == list(range(52))
    first = deck.deal(5)
    assert [card.id for card in first] == stub[:5]
    assert all(isinstance(card, Card) and len(str(card)) == 2 for card in first)
    assert len(deck) == 47
    assert deck.deal_ids(47) == stub[5:]
    assert len(deck) == 0 and deck.deal_ids(0) == [] and deck.deal(0) == []


def test_same_seed_same_deal_and_different_seeds_differ() -> None:
    assert Deck(123).deal_ids(52) == Deck(123).deal_ids(52)
    deals = {tuple(Deck(seed).deal_ids(52)) for seed in range(30)}
    assert len(deals) == 30


def test_unseeded_decks_use_fresh_entropy() -> None:
    first, second = Deck(), Deck(None)
    assert first.get_state()["key"] != second.get_state()["key"]
    assert sorted(first.stub_ids()) == list(range(52))


@pytest.mark.parametrize("seed", [-1, 2**256, -(2**300)])
def test_seed_out_of_range_raises_deck_error(seed: int) -> None:
    with pytest.raises(DeckError, match="seed"):
        Deck(seed)


@pytest.mark.parametrize("seed", [True, False, 1.0, "1", b"\x00" * 32])
def test_seed_of_wrong_type_raises_type_error(seed: object) -> None:
    with pytest.raises(TypeError):
        Deck(seed)  # type: ignore[arg-type]


def test_reshuffle_shuffles_the_sorted_union_with_the_continuing_stream() -> None:
    deck = Deck(99)
    dealt = deck.deal_ids(40)
    returned = dealt[10:25]
    state = deck.get_state()
    expected = sorted(returned + state["stub"])
    stream = ChaCha12Stream(bytes.fromhex(state["key"]), state["word_pos"])
    stream.shuffle(expected)
    deck.reshuffle(returned)
    assert deck.stub_ids() == expected
    assert deck.get_state()["word_pos"] == stream.word_pos


def test_reshuffle_result_does_not_depend_on_the_order_cards_are_listed() -> None:
    deck = Deck(5)
    dealt = deck.deal(20)
    twin = deck.copy()
    deck.reshuffle(dealt[:8])
    twin.reshuffle(" ".join(str(card) for card in reversed(dealt[:8])))
    assert deck.get_state() == twin.get_state()


def test_reshuffle_of_an_empty_stub_and_of_nothing() -> None:
    deck = Deck(11)
    dealt = deck.deal_ids(52)
    deck.reshuffle([])
    assert deck.stub_ids() == []
    deck.reshuffle(dealt[:3])
    assert sorted(deck.stub_ids()) == sorted(dealt[:3])


@pytest.mark.parametrize(
    "cards",
    [
        ["a card still in the stub"],
        ["a dealt card", "the same dealt card"],
        "7h Zz",
        [52],
        [-3],
    ],
)
def test_reshuffle_errors_raise_card_error_and_leave_the_deck_unchanged(
    cards: str | list[object],
) -> None:
    deck = Deck(3)
    dealt = deck.deal_ids(10)
    placeholders = {
        "a card still in the stub": deck.stub_ids()[0],
        "a dealt card": dealt[0],
        "the same dealt card": dealt[0],
    }
    if isinstance(cards, list):
        cards = [placeholders.get(c, c) if isinstance(c, str) else c for c in cards]
    before = deck.get_state()
    with pytest.raises(CardError):
        deck.reshuffle(cards)  # type: ignore[arg-type]
    assert deck.get_state() == before


@pytest.mark.parametrize("n", [-1, 53, 43])
def test_dealing_too_many_or_negative_raises_deck_error_and_leaves_the_deck_unchanged(
    n: int,
) -> None:
    deck = Deck(4)
    deck.deal_ids(10)
    before = deck.get_state()
    with pytest.raises(DeckError):
        deck.deal(n)
    with pytest.raises(DeckError):
        deck.deal_ids(n)
    assert deck.get_state() == before


def test_deal_count_must_be_an_integer() -> None:
    deck = Deck(4)
    for bad in (1.0, "2", True, None):
        with pytest.raises(TypeError):
            deck.deal_ids(bad)  # type: ignore[arg-type]
    assert len(deck) == 52
    assert deck.deal_ids(np.int64(2)) == Deck(4).deal_ids(2)


def test_stacked_deck_deals_exactly_the_order_and_only_reshuffles_use_the_stream() -> None:
    deck = Deck.stacked("As Kd 2c 7h", seed=17)
    assert deck.get_state() == {
        "key": (17).to_bytes(32, "little").hex(),
        "word_pos": 0,
        "stub": [51, 45, 0, 22],
    }
    assert [str(card) for card in deck.deal(2)] == ["As", "Kd"]
    deck.reshuffle([51])
    expected = [0, 22, 51]
    ChaCha12Stream((17).to_bytes(32, "little")).shuffle(expected)
    assert deck.stub_ids() == expected
    assert Deck.stacked([]).stub_ids() == []
    assert len(Deck.stacked(range(52), seed=0)) == 52


@pytest.mark.parametrize("order", ["As As", ["7h", 22], "Xx", [60]])
def test_stacked_rejects_duplicate_or_bad_cards(order: object) -> None:
    with pytest.raises(CardError):
        Deck.stacked(order)  # type: ignore[arg-type]


def test_state_round_trip_through_json_continues_identically() -> None:
    deck = Deck(2024)
    dealt = deck.deal_ids(30)
    deck.reshuffle(dealt[:12])
    restored = Deck.from_state(json.loads(json.dumps(deck.get_state())))
    assert restored.get_state() == deck.get_state()
    for _ in range(3):
        assert restored.deal_ids(4) == deck.deal_ids(4)
        gone = [i for i in range(52) if i not in deck.stub_ids()][:6]
        restored.reshuffle(gone)
        deck.reshuffle(gone)
        assert restored.get_state() == deck.get_state()


def test_copy_module_copies_are_independent_decks() -> None:
    deck = Deck(8)
    for twin in (copy.copy(deck), copy.deepcopy(deck)):
        assert twin.get_state() == deck.get_state()
        twin.deal_ids(1)
        assert len(deck) == 52


def test_copy_is_independent() -> None:
    deck = Deck(8)
    twin = deck.copy()
    assert twin.deal_ids(5) == deck.deal_ids(5)
    twin.deal_ids(3)
    assert len(twin) == 44 and len(deck) == 47
    twin.reshuffle([])
    assert twin.get_state()["word_pos"] > deck.get_state()["word_pos"]
    assert deck.deal_ids(3) == Deck(8).deal_ids(8)[5:]


GOOD_STATE = {"key": "ab" * 32, "word_pos": 51, "stub": [3, 1, 4]}


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"key": "ab" * 31}, "key"),
        ({"key": "zz" * 32}, "key"),
        ({"key": 5}, "key"),
        ({"word_pos": -1}, "word_pos"),
        ({"word_pos": "51"}, "word_pos"),
        ({"word_pos": True}, "word_pos"),
        ({"word_pos": 2**68}, "word_pos"),
        ({"stub": [3, 3]}, "stub"),
        ({"stub": [52]}, "stub"),
        ({"stub": ["7h"]}, "stub"),
        ({"stub": "3,1,4"}, "stub"),
        ({"stub": None}, "stub"),
        ({"extra": 1}, "extra"),
    ],
)
def test_from_state_validates_each_field_and_names_it(
    change: dict[str, object], field: str
) -> None:
    with pytest.raises(DeckError, match=field):
        Deck.from_state({**GOOD_STATE, **change})


@pytest.mark.parametrize("missing", ["key", "word_pos", "stub"])
def test_from_state_names_a_missing_field(missing: str) -> None:
    state = {k: v for k, v in GOOD_STATE.items() if k != missing}
    with pytest.raises(DeckError, match=missing):
        Deck.from_state(state)


def test_from_state_rejects_non_mappings_and_accepts_a_good_state() -> None:
    with pytest.raises(DeckError):
        Deck.from_state([("key", "ab" * 32)])  # type: ignore[arg-type]
    deck = Deck.from_state(GOOD_STATE)
    assert deck.get_state() == GOOD_STATE
    assert deck.deal_ids(3) == [3, 1, 4]
