"""Hostile and careless input at the edges of the compiled core (docs/security.md).

Each test names the promise it holds: a package error (or ``MemoryError`` for an allocation
that cannot be made), never a ``PanicException``, an ``OverflowError`` or a
``UnicodeEncodeError``; bounded memory and threads whatever the arguments.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import threading

import numpy as np
import pytest
from numpy.lib.stride_tricks import as_strided

import triple_draw as td
from triple_draw import _core, analysis
from triple_draw.errors import (
    AnalysisError,
    ArgumentError,
    CardError,
    DeckError,
    TripleDrawError,
)

HAND = np.array([[22, 13, 8, 7, 2]], dtype=np.uint8)  # 7h5d4c3s2h, rank 1

# ---------------------------------------------------------------- panics and memory


def test_batch_result_that_cannot_be_allocated_is_a_memory_error() -> None:
    # A zero-stride view of 2**40 rows takes no memory; its 2**40 ranks cannot be allocated.
    huge = as_strided(HAND, shape=(2**40, 5), strides=(0, 1))
    with pytest.raises(MemoryError):
        td.evaluate_batch(huge, threads=1)
    with pytest.raises(MemoryError):
        td.evaluate_batch(huge, copy=True)


class _BadBytes(int):
    def to_bytes(self, *args: object, **kwargs: object) -> bytes:  # type: ignore[override]
        return b"\x01"


class _Liar(int):
    def __index__(self) -> int:
        return 7

    def __lt__(self, other: object) -> bool:
        return True

    def to_bytes(self, *args: object, **kwargs: object) -> bytes:  # type: ignore[override]
        raise RuntimeError("not called")


@pytest.mark.parametrize("cls", [_BadBytes, _Liar])
@pytest.mark.parametrize("value", [0, 5, 2**64 + 3, 2**256 - 1])
def test_int_subclass_seed_is_read_by_value(cls: type[int], value: int) -> None:
    assert td.Deck(cls(value)).get_state() == td.Deck(value).get_state()


def test_int_subclass_counts_and_ids_are_read_by_value() -> None:
    assert td.Deck(1).deal_ids(_Liar(3)) == td.Deck(1).deal_ids(3)
    assert td.card_ids([_Liar(51)]) == [51]
    with pytest.raises(DeckError, match="2\\*\\*256"):
        td.Deck(_BadBytes(2**256))


def test_endless_iterable_is_read_no_further_than_the_sixth_card() -> None:
    taken = []

    def endless():  # type: ignore[no-untyped-def]
        i = 0
        while True:
            taken.append(i)
            yield i
            i += 1

    with pytest.raises(CardError, match="expected 5 cards, got more"):
        td.evaluate(endless())
    assert len(taken) == 6
    taken.clear()
    with pytest.raises(CardError, match="expected 5 cards, got more"):
        td.rank_ids(endless())
    assert len(taken) == 6
    taken.clear()
    with pytest.raises(CardError, match="at most 52 cards"):
        td.card_ids(endless())
    assert len(taken) == 53
    with pytest.raises(CardError, match="at most 52 cards"):
        td.Deck(1).reshuffle(range(10**12))


@pytest.mark.parametrize("text", ["7h5d4c3s\ud800", "\udfff", "7h 5d 4c 3s 2\ud800"])
def test_lone_surrogates_are_card_errors(text: str) -> None:
    for f in (td.evaluate, td.card_ids, td.parse_cards, td.Card, td.rank_ids):
        with pytest.raises(CardError, match="not valid Unicode"):
            f(text)
    with pytest.raises(CardError, match="not valid Unicode"):
        td.evaluate(["7h", "5d", "4c", "3s", text])


@pytest.mark.parametrize("token", ["?\u00e9", "7\u00e9", "\u00e9\u00e9", "1\u00e9"])
def test_non_ascii_tokens_are_card_errors(token: str) -> None:
    # "?é" once sliced the token inside the "é" and panicked.
    with pytest.raises(CardError):
        td.Card(token)
    with pytest.raises(CardError):
        td.evaluate(["7h", "5d", "4c", "3s", token])


# ---------------------------------------------------------------- every error is the package's


@pytest.mark.parametrize("bad", [0, 7463, -5, 2**63, 2**200, -(2**70), True, "1", 1.0, None])
def test_hand_rank_out_of_range_is_an_argument_error(bad: object) -> None:
    with pytest.raises(ArgumentError, match="hand rank is an int from 1 to 7462"):
        td.HandRank(bad)  # type: ignore[arg-type]
    assert td.HandRank(_Liar(5)).rank == 5


BAD_THREADS = [0, -1, 257, 2**31, 2**63, 2**64, 10**100, True, False, 1.0, "2", b"2"]


@pytest.mark.parametrize("threads", BAD_THREADS)
def test_every_threads_argument_is_checked_the_same_way(threads: object) -> None:
    with pytest.raises(ArgumentError, match="threads must be an int from 1 to 256"):
        td.evaluate_batch(HAND, threads=threads)  # type: ignore[arg-type]
    run = {"method": "sample", "trials": 10, "key": b"k" * 32, "threads": threads}
    run["exact_limit"] = 10
    with pytest.raises(ArgumentError, match="threads must be an int from 1 to 256"):
        _core.analysis_draw_odds([22, 13, 8, 7, 2], [2], 1, (-1, 0), [], run)
    with pytest.raises(ArgumentError, match="threads must be an int from 1 to 256"):
        _core.analysis_equity([([22, 13, 8, 7, 2], (None, -1, 0)), ([], (None, -1, 0))], [], 1, run)
    with pytest.raises(ArgumentError, match="threads must be an int from 1 to 256"):
        _core.analysis_best_discard([22, 13, 8, 7, 2], 1, (-1, 0), 1, [], [], run)


@pytest.mark.parametrize("threads", [2**63, 10**6])
def test_public_analysis_refuses_absurd_thread_counts(threads: int) -> None:
    with pytest.raises(TripleDrawError, match="threads"):
        analysis.draw_odds("7c5d4h3sKd", "Kd", threads=threads)
    with pytest.raises(TripleDrawError, match="threads"):
        analysis.equity(["7c5d4h3sKd", None], draws_left=1, threads=threads, seed=1)


def test_kernel_numbers_beyond_their_type_are_package_errors() -> None:
    run = {"method": "sample", "trials": 2**64, "key": None, "threads": 1, "exact_limit": 1}
    with pytest.raises(ArgumentError, match="trials"):
        _core.analysis_draw_odds([22, 13, 8, 7, 2], [2], 1, (-1, 0), [], run)
    with pytest.raises(AnalysisError):
        _core.analysis_worst_low(300)
    with pytest.raises(AnalysisError):
        _core.analysis_worst_low(5, -1)


def test_analysis_kernels_take_typed_options_and_the_earlier_positional_form() -> None:
    run = {"method": "exact", "trials": 1, "key": None, "threads": 1, "exact_limit": 10**6}
    new = _core.analysis_draw_odds([22, 13, 8, 7, 2], [2], 1, (-1, 0), [], run)
    old = _core.analysis_draw_odds([22, 13, 8, 7, 2], [2], 1, (-1, 0), [], *run.values())
    assert new[1] == old[1] and new[3:] == old[3:]
    assert np.array_equal(new[0], old[0]) and np.array_equal(new[2], old[2])
    with pytest.raises(TypeError, match="lack"):
        _core.analysis_draw_odds([22, 13, 8, 7, 2], [2], 1, (-1, 0), [], {"method": "auto"})
    with pytest.raises(TypeError, match="got 2 arguments"):
        _core.analysis_draw_odds([22, 13, 8, 7, 2], [2], 1, (-1, 0), [], run, run)


# ---------------------------------------------------------------- saved deck states


def _key(state: dict[str, object]) -> str:
    key = state["key"]
    assert isinstance(key, str)
    return key


def test_deck_state_accepts_only_the_canonical_key() -> None:
    state = td.Deck(int("abcdef0123456789" * 4, 16)).get_state()
    key = _key(state)
    assert len(key) == 64 and key == key.lower() != key.upper()
    assert td.Deck.from_state(dict(state)).get_state() == state
    for bad in (
        key.upper(),
        "+" + key[1:],
        "+f" * 32,
        " " + key[1:],
        key[:63] + "\n",
        key[:62],
        key + "00",
        "\u0660" + key[1:],  # an Arabic-Indic digit zero
        key[:63] + "\ud800",
        key.encode(),
        int(key, 16),
    ):
        with pytest.raises(DeckError, match="64 hex digits in lowercase"):
            td.Deck.from_state(dict(state, key=bad))


def test_deck_state_with_non_str_field_names_is_refused() -> None:
    state = td.Deck(1).get_state()
    with pytest.raises(DeckError, match="unknown field"):
        td.Deck.from_state({**state, 1: 2})
    with pytest.raises(DeckError, match="word_pos"):
        td.Deck.from_state(dict(state, word_pos=_Liar(3)))


# ---------------------------------------------------------------- threads


def test_one_pool_holds_at_most_the_largest_threads_asked_for() -> None:
    # Run in a fresh process so that the count is this sweep's alone. With a pool per
    # distinct value (kept in a cache of up to 256 workers) threads=2..65 left 266 OS
    # threads alive; with one pool grown to the largest value asked for, never more than
    # that value, after every call and whatever the order of the values.
    code = textwrap.dedent(
        """
        import json, os
        import numpy as np
        import triple_draw as td
        from triple_draw import analysis

        def tasks():
            return len(os.listdir("/proc/self/task"))

        rng = np.random.default_rng(1)
        hands = np.argsort(rng.random((70_000, 52)), axis=1)[:, :5].astype(np.uint8)
        hands = np.tile(hands, (66, 1))  # 70 chunks of 65,536 rows: work for 65 threads

        def calls(t):
            return [
                td.evaluate_batch(hands, threads=t).tobytes(),
                analysis.draw_odds("7c5d4h3sKd", "Kd", draws=2, method="sample",
                                   trials=20_000, seed=1, threads=t).categories,
                [p.equity for p in analysis.equity(["7c5d4h3sKd", None], draws_left=1,
                                                   trials=20_000, seed=2, threads=t).players],
                [str(c) for c in analysis.best_discard("7c5d4h3sKd", target="8", threads=t)],
            ]

        want = calls(1)
        base = tasks()  # threads=1 runs on the calling thread: no worker yet
        extra = []
        same = True
        for t in [*range(2, 66), *range(65, 0, -7), 3, 64, 65]:
            same &= calls(t) == want
            extra.append([t, tasks() - base])
        print(json.dumps({"base": base, "extra": extra, "same": same}))
        """
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=600, check=True
    )
    got = json.loads(out.stdout)
    assert got["same"], "a result depended on the number of threads"
    largest = 0
    for t, extra in got["extra"]:
        largest = max(largest, t)
        assert extra <= largest, (t, extra, got)
    assert got["extra"][-1][1] == 65, got  # the pool did grow to the largest value
    # (a call uses no more workers than it has chunks: best_discard's 32 choices, 70
    # chunks of the batch)


# ---------------------------------------------------------------- concurrent mutation


def test_batch_copy_mode_reads_the_array_as_it_was_when_the_call_began() -> None:
    # Every row is 2c 4c 5c 6c 7c (a flush); a writer thread flips 2c <-> 2d in column 0 as
    # fast as it can while the kernel runs with the GIL released. With copy=True the rows
    # are copied before the GIL is released, so the result is that of the array at the
    # start of the call.
    n = 2_000_000
    arr = np.tile(np.array([0, 12, 16, 20, 24], np.uint8), (n, 1))
    start = threading.Event()
    stop = threading.Event()

    def writer() -> None:
        start.wait()
        col = arr[:, 0]
        while not stop.is_set():
            np.bitwise_xor(col, 1, out=col)

    old = sys.getswitchinterval()
    sys.setswitchinterval(60.0)  # nothing runs between the snapshot and the call
    t = threading.Thread(target=writer)
    t.start()
    try:
        snapshot = arr.copy()
        start.set()
        out = td.evaluate_batch(arr, threads=1, copy=True)
        assert np.array_equal(out, td.evaluate_batch(snapshot))
    finally:
        stop.set()
        start.set()
        sys.setswitchinterval(old)
        t.join()


@pytest.mark.parametrize("threads", [1, 2])
def test_batch_copy_mode_gives_the_same_ranks_for_every_layout(threads: int) -> None:
    rng = np.random.default_rng(5)
    hands = np.argpartition(rng.random((70_000, 52)), 5, axis=1)[:, :5].astype(np.uint8)
    want = td.evaluate_batch(hands, threads=1)
    layouts = [
        (hands, want),
        (np.asfortranarray(hands), want),
        (hands[::-1], want[::-1]),
        (hands[:, ::-1], want),  # the order of a row's cards never matters
    ]
    for layout, expected in layouts:
        assert np.array_equal(td.evaluate_batch(layout, threads=threads, copy=True), expected)
    bad = hands.copy()
    bad[66_000] = [3, 3, 4, 5, 6]
    with pytest.raises(td.BatchError, match="row 66000: duplicate card 2s"):
        td.evaluate_batch(np.asfortranarray(bad), threads=threads, copy=True)
