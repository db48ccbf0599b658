"""The compiled core through the public API: cards, evaluate, evaluate_batch, Deck."""

from __future__ import annotations

import copy
import itertools
import pickle

import numpy as np
import pytest

import triple_draw as td
from triple_draw import (
    BatchError,
    BatchTypeError,
    Card,
    CardError,
    Deck,
    DeckError,
    HandRank,
    TripleDrawError,
)


# ------------------------------------------------------------ cards (docs/cards.md)


def test_card_ids_are_rank_times_four_plus_suit() -> None:
    assert Card("2c").id == 0
    assert Card("2d").id == 1
    assert Card("As").id == 51
    assert Card("7h").id == 5 * 4 + 2
    assert [str(Card(i)) for i in (0, 51, 22)] == ["2c", "As", "7h"]


def test_cards_parse_leniently_and_print_canonically() -> None:
    assert [str(c) for c in td.parse_cards("10H, 9s  tc,7D")] == ["Th", "9s", "Tc", "7d"]
    assert td.card_ids("7h5d4c3s2h") == [22, 13, 8, 7, 2]
    assert td.card_ids(["7h", 13, Card("4c")]) == [22, 13, 8]
    assert repr(Card("td")) == "Card('Td')"
    assert Card(Card("Ah")) == Card("ah")


def test_card_objects_are_values() -> None:
    c = Card("Qs")
    assert int(c) == 43 and c.rank == 10 and c.suit == 3
    assert pickle.loads(pickle.dumps(c)) == c
    assert hash(c) == hash(Card(43))
    assert sorted([Card("As"), Card("2c")]) == [Card("2c"), Card("As")]
    assert [0, 1, 2][Card("2h")] == 2  # __index__


@pytest.mark.parametrize(
    "text, token",
    [("7h 5x 3c", "5x"), ("7h5x3c", "5x"), ("Zh", "Zh"), ("7", "7"), ("1h", "1h"), ("7h ??", "??")],
)
def test_malformed_card_names_the_token(text: str, token: str) -> None:
    with pytest.raises(CardError, match=repr(token).replace("'", '"').replace("?", r"\?")):
        td.parse_cards(text)


def test_duplicate_card_is_named() -> None:
    with pytest.raises(CardError, match='duplicate card "7h"'):
        td.parse_cards("7h 5d 7H")
    with pytest.raises(CardError, match="duplicate"):
        td.card_ids([22, "7h"])


def test_bad_ids_and_types() -> None:
    for bad in (52, -1, 10**30):
        with pytest.raises(CardError):
            Card(bad)
    with pytest.raises(TypeError):
        Card(1.5)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        td.card_ids([True, 1])  # bool is not a card id
    with pytest.raises(TypeError):
        td.card_ids(3)  # type: ignore[arg-type]


def test_errors_share_the_package_base_and_builtin_classes() -> None:
    pairs = [
        (CardError, ValueError),
        (DeckError, ValueError),
        (BatchError, ValueError),
        (BatchTypeError, TypeError),
    ]
    for cls, builtin in pairs:
        assert issubclass(cls, TripleDrawError) and issubclass(cls, builtin)


# ------------------------------------------------------- evaluation (docs/cards.md)


def test_rank_scale_ends() -> None:
    assert td.evaluate("7c5d4h3s2c").rank == 1
    assert td.evaluate("AsKsQsJsTs").rank == 7462
    assert td.NUM_CLASSES == 7462


ORDER = """Jh7h4h3h2h 8c7d6h5s4c 7c6d5h4s3c 5c5d5h6s3c 2c2d7h6s5c Ac9d6h4s2c Ac8d7h4s2c
Ac5d4h3s2c KcJd8h7s4c Tc7d5h4s3c Tc6d5h4s3c Tc6d5h4s2c 9c7d6h4s3c 8c6d4h3s2c 7c6d4h3s2c
7c5d4h3s2c""".split()


def test_ordering_vectors_each_line_beats_the_one_above() -> None:
    ranks = [td.evaluate(h) for h in ORDER]
    for worse, better in itertools.pairwise(ranks):
        assert better < worse and better.beats(worse) and not worse.beats(better)


def test_wheel_is_ace_high_and_six_four_is_a_straight() -> None:
    wheel = td.evaluate("Ac5d4h3s2c")
    assert wheel.category == "no pair" and wheel.name == "nut A"
    assert td.evaluate("Ac5c4c3c2c").category == "flush"
    assert td.evaluate("6c5d4h3s2c").category == "straight"
    assert td.evaluate("AcKdQhJs9c") < td.evaluate("2c3d4h5s6c")
    assert td.evaluate("2c2d3h4s5c").rank == td.evaluate("AcKdQhJs9c").rank + 1


@pytest.mark.parametrize(
    "hand, category, name",
    [
        ("7c5d4h3s2c", "no pair", "7-5 low"),
        ("8c5d4h3s2c", "no pair", "nut 8"),
        ("8c6d4h3s2c", "no pair", "8-6 low"),
        ("2c2d7h6s5c", "one pair", "pair of deuces"),
        ("KcKd2h2s5c", "two pair", "two pair, kings and deuces"),
        ("3c3d3h6s5c", "three of a kind", "three treys"),
        ("8c7d6h5s4c", "straight", "eight-high straight"),
        ("Jh7h4h3h2h", "flush", "jack-high flush"),
        ("2c2d2h3s3c", "full house", "deuces full of treys"),
        ("2c2d2h2s3c", "four of a kind", "four deuces"),
        ("6h5h4h3h2h", "straight flush", "six-high straight flush"),
        ("AhKhQhJhTh", "straight flush", "royal flush"),
    ],
)
def test_categories_and_names(hand: str, category: str, name: str) -> None:
    r = td.evaluate(hand)
    assert (r.category, r.name) == (category, name)


def test_suits_never_break_ties() -> None:
    assert td.evaluate("9c7d6h4s3c") == td.evaluate("9d7h6s4c3h")


def test_evaluate_accepts_every_card_form() -> None:
    want = td.evaluate("7c5d4h3s2c")
    ids = td.card_ids("7c5d4h3s2c")
    assert td.evaluate(ids) == want
    assert td.evaluate(tuple(ids)) == want
    assert td.evaluate(td.parse_cards("7c 5d 4h 3s 2c")) == want
    assert td.evaluate(["7c", "5d", "4h", "3s", "2c"]) == want
    assert td.evaluate(iter(ids)) == want
    assert td.rank_ids(ids) == 1


def test_evaluate_wrong_count() -> None:
    with pytest.raises(CardError, match="expected 5 cards, got 4"):
        td.evaluate("7c5d4h3s")
    with pytest.raises(CardError, match="expected 5 cards, got 6"):
        td.evaluate("7c5d4h3s2c9h")


def test_hand_rank_value_semantics() -> None:
    r = td.evaluate("8c5d4h3s2c")
    assert HandRank(r.rank) == r and hash(HandRank(r.rank)) == hash(r)
    assert repr(r) == f"HandRank({r.rank})"
    assert eval(repr(r), {"HandRank": HandRank}) == r
    assert pickle.loads(pickle.dumps(r)) == r
    assert min(td.evaluate(h) for h in ORDER) == td.evaluate("7c5d4h3s2c")
    for bad in (0, 7463, -5):
        with pytest.raises(ValueError):
            HandRank(bad)


# ---------------------------------------------------------------- evaluate_batch


def _random_hands(n: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.argpartition(rng.random((n, 52)), 5, axis=1)[:, :5].astype(np.uint8)


def test_batch_matches_single_evaluation() -> None:
    hands = _random_hands(2000, 1)
    out = td.evaluate_batch(hands)
    assert out.dtype == np.uint16 and out.shape == (2000,)
    assert out.tolist() == [td.rank_ids(row.tolist()) for row in hands]


def test_batch_same_result_for_any_thread_count_and_layout() -> None:
    hands = _random_hands(300_000, 2)
    one = td.evaluate_batch(hands, threads=1)
    for threads in (2, 3, None):
        assert np.array_equal(td.evaluate_batch(hands, threads=threads), one)
    fortran = np.asfortranarray(hands)
    assert np.array_equal(td.evaluate_batch(fortran), one)
    assert np.array_equal(td.evaluate_batch(hands[::2]), one[::2])


def test_batch_of_zero_rows() -> None:
    assert td.evaluate_batch(np.zeros((0, 5), np.uint8)).shape == (0,)


@pytest.mark.parametrize("threads", [1, 2])
def test_batch_bad_rows_are_named(threads: int) -> None:
    hands = _random_hands(200_000, 3)
    bad = hands.copy()
    bad[150_001] = [0, 4, 8, 12, 52]
    with pytest.raises(BatchError, match="row 150001: card id 52"):
        td.evaluate_batch(bad, threads=threads)
    bad = hands.copy()
    bad[7] = [0, 4, 8, 12, 12]
    bad[150_001] = [0, 4, 8, 12, 12]
    with pytest.raises(BatchError, match="row 7: duplicate card 5c"):
        td.evaluate_batch(bad, threads=threads)
    strided = hands.copy()
    strided[10] = [1, 1, 2, 3, 4]
    with pytest.raises(BatchError, match="row 5: duplicate card 2d"):
        td.evaluate_batch(strided[::2], threads=threads)


def test_batch_wrong_types_and_shapes() -> None:
    with pytest.raises(BatchTypeError, match="dtype uint8, got int64"):
        td.evaluate_batch(np.zeros((3, 5), np.int64))
    with pytest.raises(BatchTypeError, match="shape \\(N, 5\\), got \\(3, 4\\)"):
        td.evaluate_batch(np.zeros((3, 4), np.uint8))
    with pytest.raises(BatchTypeError, match="2-dimensional"):
        td.evaluate_batch(np.zeros(5, np.uint8))
    with pytest.raises(BatchTypeError, match="got list"):
        td.evaluate_batch([[0, 1, 2, 3, 4]])  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="threads"):
        td.evaluate_batch(np.zeros((1, 5), np.uint8), threads=0)


# ---------------------------------------------------------------- deck


def test_seeded_deck_is_reproducible_and_a_permutation() -> None:
    a, b = Deck(7), Deck(7)
    assert a.deal_ids(52) == b.deal_ids(52)
    assert sorted(Deck(8).deal_ids(52)) == list(range(52))
    assert Deck(7).deal_ids(5) != Deck(8).deal_ids(5)


def test_deal_returns_cards_and_shrinks_the_stub() -> None:
    d = Deck(1)
    cards = d.deal(5)
    assert all(isinstance(c, Card) and len(str(c)) == 2 for c in cards)
    assert len(d) == 47
    assert d.deal(0) == [] and len(d) == 47


def test_unseeded_decks_differ() -> None:
    assert Deck().deal_ids(52) != Deck().deal_ids(52)
    assert Deck(None).get_state()["key"] != Deck(None).get_state()["key"]


def test_bad_seeds() -> None:
    with pytest.raises(DeckError, match=">= 0"):
        Deck(-1)
    with pytest.raises(DeckError, match="2\\*\\*256"):
        Deck(2**256)
    Deck(2**256 - 1)
    for bad in (True, 1.0, "1"):
        with pytest.raises(TypeError, match="seed"):
            Deck(bad)  # type: ignore[arg-type]


def test_errors_leave_the_deck_unchanged() -> None:
    d = Deck(3)
    d.deal(10)
    before = d.get_state()
    with pytest.raises(DeckError, match="cannot deal 43 cards: the stub holds 42"):
        d.deal(43)
    with pytest.raises(DeckError, match="negative"):
        d.deal_ids(-1)
    top = d.stub_ids()[0]
    with pytest.raises(CardError, match="duplicate"):
        d.reshuffle([top])
    with pytest.raises(CardError):
        d.reshuffle([60])
    assert d.get_state() == before


def test_reshuffle_gathers_given_cards_with_the_stub() -> None:
    d = Deck(4)
    dealt = d.deal_ids(50)
    d.reshuffle(dealt[:10])
    assert len(d) == 12 and sorted(d.stub_ids()) == sorted(dealt[:10] + Deck(4).deal_ids(52)[50:])


def test_stacked_deck_deals_in_the_given_order() -> None:
    d = Deck.stacked("As Kd 2c", seed=1)
    assert [str(c) for c in d.deal(3)] == ["As", "Kd", "2c"]
    with pytest.raises(CardError):
        Deck.stacked("As As")


def test_state_round_trip_continues_identically() -> None:
    d = Deck(11)
    d.deal(20)
    d.reshuffle(d.deal_ids(5))
    state = d.get_state()
    assert set(state) == {"key", "word_pos", "stub"} and isinstance(state["stub"], list)
    e = Deck.from_state(state)
    for deck in (d, e):
        deck.reshuffle(deck.deal_ids(7))
    assert d.get_state() == e.get_state()
    assert pickle.loads(pickle.dumps(d)).get_state() == d.get_state()
    assert copy.deepcopy(d).get_state() == d.get_state()
    c = d.copy()
    c.deal(1)
    assert len(c) == len(d) - 1


@pytest.mark.parametrize(
    "mutate, message",
    [
        (lambda s: s.pop("key"), 'lacks the field "key"'),
        (lambda s: s.update(key="zz" * 32), "64 hex digits"),
        (lambda s: s.update(word_pos=-1), "word_pos"),
        (lambda s: s.update(stub=[1, 1]), "stub"),
        (lambda s: s.update(extra=1), "unknown field"),
    ],
)
def test_corrupt_deck_state_is_rejected(mutate, message) -> None:  # type: ignore[no-untyped-def]
    state = Deck(1).get_state()
    mutate(state)
    with pytest.raises(DeckError, match=message):
        Deck.from_state(state)


def test_numpy_integers_are_card_ids() -> None:
    row = np.array([20, 13, 10, 7, 0], dtype=np.uint8)
    assert td.rank_ids(row) == td.rank_ids(row.tolist())
    assert Card(np.uint8(5)) == Card(5)
    assert td.card_ids([np.int64(51)]) == [51]


def test_deal_counts_must_be_sane_ints() -> None:
    d = Deck(2)
    with pytest.raises(DeckError, match="stub holds 52"):
        d.deal_ids(2**70)
    with pytest.raises(TypeError):
        d.deal_ids(True)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        d.deal(1.0)  # type: ignore[arg-type]
    assert len(d) == 52


@pytest.mark.parametrize(
    "field, value, message",
    [("word_pos", True, "word_pos"), ("stub", ["7h"], "stub"), ("stub", (1, 2), "stub")],
)
def test_deck_state_fields_have_strict_types(field: str, value: object, message: str) -> None:
    state = Deck(1).get_state()
    state[field] = value
    with pytest.raises(DeckError, match=message):
        Deck.from_state(state)
