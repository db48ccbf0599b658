"""Bad input of every shape gets a clear Python exception, never a Rust panic.

PyO3 turns a panic into ``pyo3_runtime.PanicException``, which derives from
``BaseException``: these tests would see it escape ``except Exception`` and fail.
"""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import triple_draw as td
from triple_draw import analysis

#: every error the package raises is a TripleDrawError (docs/development.md, *Errors*):
#: a bare ValueError or TypeError escaping here fails the test like a panic does
EXPECTED = (td.TripleDrawError,)

ids = st.integers(min_value=-3, max_value=300)
tokens = st.sampled_from(["7h", "Td", "10s", "??", "x", "", "As", "2c", "ah", "1", "7h7h"])
cardish = st.one_of(
    st.lists(st.one_of(ids, tokens, st.none(), st.booleans()), max_size=8),
    st.text(max_size=20),
    st.lists(tokens, max_size=7).map(" ".join),
)
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))


def _call(f, *args, **kwargs):  # type: ignore[no-untyped-def]
    try:
        return f(*args, **kwargs)
    except EXPECTED:
        return None


@SETTINGS
@given(cardish)
def test_card_parsing_and_evaluation(cards: object) -> None:
    for f in (td.evaluate, td.rank_ids, td.card_ids, td.parse_cards, td.Card):
        _call(f, cards)


@SETTINGS
@given(
    st.lists(st.lists(st.integers(0, 255), min_size=5, max_size=5), max_size=40),
    st.one_of(st.sampled_from([1, 2, None, True]), st.integers(-(2**70), 2**70)),
)
def test_batches(rows: list[list[int]], threads: int | None) -> None:
    arr = np.array(rows, dtype=np.uint8).reshape(-1, 5)
    _call(td.evaluate_batch, arr, threads=threads)
    _call(td.evaluate_batch, arr[::-1], threads=threads, copy=True)
    _call(td.evaluate_batch, arr.astype(np.int16))
    _call(td.evaluate_batch, arr.T)


@SETTINGS
@given(
    st.one_of(st.integers(-5, 2**300), st.none(), st.text(max_size=3)),
    st.lists(ids, max_size=60),
    st.integers(-3, 100),
)
def test_decks(seed: object, cards: list[int], n: int) -> None:
    deck = _call(td.Deck, seed) or td.Deck(1)
    _call(deck.deal_ids, n)
    _call(deck.reshuffle, cards)
    _call(td.Deck.stacked, cards, seed=1)
    state = deck.get_state()
    for field, value in (("stub", cards), ("word_pos", n * 2**70), ("key", str(seed))):
        _call(td.Deck.from_state, dict(state, **{field: value}))


@SETTINGS
@given(st.one_of(st.integers(-(2**300), 2**300), st.text(max_size=6), st.none(), st.booleans()))
def test_hand_ranks_and_threads_of_any_value(value: object) -> None:
    _call(td.HandRank, value)
    _call(analysis.draw_odds, "7c5d4h3sKd", "Kd", threads=value, seed=1)
    _call(td.Deck, value)


@SETTINGS
@given(cardish, cardish, st.integers(-1, 5), cardish, st.sampled_from([None, 1, 100, 0, -5]))
def test_analysis_kernels(
    cards: object, discard: object, draws: int, dead: object, trials: int | None
) -> None:
    _call(analysis.draw_odds, cards, discard, draws=draws, dead=dead, trials=trials, seed=1)
    _call(analysis.best_discard, cards, draws_left=draws, dead=dead, trials=trials, seed=1)
    _call(analysis.equity, [cards, discard], draws_left=draws, dead=dead, trials=trials, seed=1)


deals = st.permutations(range(52)).map(lambda p: list(p[:20]))


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(deals, st.integers(0, 5), st.integers(0, 4), st.integers(0, 15), st.integers(2, 7))
def test_analysis_kernels_on_real_hands(
    deal: list[int], k: int, draws: int, n_dead: int, players: int
) -> None:
    hand, rest = deal[:5], deal[5:]
    _call(analysis.draw_odds, hand, hand[:k], draws=draws, dead=rest[:n_dead], trials=200, seed=2)
    _call(analysis.best_discard, hand, draws_left=draws, dead=rest[:n_dead], trials=50, seed=2)
    hands = [hand] + [None] * (players - 1)
    _call(analysis.equity, hands, draws_left=draws, dead=rest[:n_dead], trials=200, seed=2)
    _call(
        analysis.equity,
        [hand, rest[:5], rest[5:10]],
        draws_left=draws,
        dead=hand[:1],
        trials=200,
        seed=2,
    )


@SETTINGS
@given(cardish, st.one_of(st.integers(), st.none(), st.text(max_size=3), st.slices(40)))
def test_discard_choices(held: object, index: object) -> None:
    from triple_draw import _core

    for make in (_core.DiscardChoices, _core.discard_choices):
        d = _call(make, held)
        if d is not None:
            try:
                d[index]
            except (IndexError, TypeError):  # a sequence's own errors
                pass
            try:
                d.index(index)
            except ValueError as e:  # a sequence's own error: "x is not in it"
                assert "not a legal discard" in str(e)
            assert d.count(index) == 0
            assert (index in d) is False
