"""Golden deals: the first cards of fixed seeds, pinned as text (contract, deck stream).

A seed must deal the same cards forever: saved games, hand histories and published
examples depend on it. These literals were produced by the pure-Python reference and
confirmed equal with the compiled core when they were pinned; if either implementation
changes its stream, bounded integers or shuffle, these tests fail. Never "update" a
literal to make a test pass: a changed deal is a breaking change.
"""

from __future__ import annotations

from typing import Any

import pytest

import triple_draw as core
from triple_draw import reference as ref

IMPLEMENTATIONS = [pytest.param(core, id="core"), pytest.param(ref, id="reference")]

FIRST_TEN_CARDS = {
    0: "KcQh5h3dAs3c5d4s2c2h",
    1: "5sQd4c9cTd6s4h5h2s8c",
    42: "8hKcAd6c5dKh7sTdTcJc",
    2**64 - 1: "9d2sTc9sKd2c5d7d6d9c",
    2**256 - 1: "9c4h8d6c7sAd7c8h5h2c",
}


@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
@pytest.mark.parametrize("seed", list(FIRST_TEN_CARDS))
def test_first_ten_cards_of_a_seed_never_change(implementation: Any, seed: int) -> None:
    deck = implementation.Deck(seed)
    assert "".join(str(card) for card in deck.deal(10)) == FIRST_TEN_CARDS[seed]
    # The initial shuffle draws one word per position 52..2 (no rejection for these).
    assert deck.get_state()["word_pos"] == 51


@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
def test_seed_zero_full_order_never_changes(implementation: Any) -> None:
    assert implementation.Deck(0).stub_ids() == [
        44, 42, 14, 5, 51, 4, 13, 11, 0, 2, 12, 48, 41, 28, 45, 36, 23, 10, 30, 47, 26, 25,
        17, 18, 33, 15, 1, 31, 43, 38, 24, 22, 37, 39, 34, 9, 27, 7, 46, 6, 19, 8, 32, 20,
        50, 29, 49, 35, 40, 3, 16, 21,
    ]  # fmt: skip


@pytest.mark.parametrize("implementation", IMPLEMENTATIONS)
def test_deal_after_a_reshuffle_never_changes(implementation: Any) -> None:
    # Seed 42: deal 30, return the first 10 dealt, then deal 10 from the new stub.
    deck = implementation.Deck(42)
    dealt = deck.deal_ids(30)
    deck.reshuffle(dealt[:10])
    assert "".join(str(card) for card in deck.deal(10)) == "Kc3c2h7d8sKh7hJh4hTd"
    assert deck.get_state()["word_pos"] == 82
    assert len(deck) == 22
