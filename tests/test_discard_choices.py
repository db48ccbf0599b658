"""The compiled core's ``DiscardChoices`` (rust/python/choices.rs) against the game layer's
pure-Python one: the same sequence of the same shared actions, the same answers to every
sequence operation, the same errors."""

from __future__ import annotations

import collections.abc
import copy
import pickle
import random

import pytest

import triple_draw as td
from triple_draw.errors import CardError, TripleDrawError
from triple_draw.game.actions import Action, Discard, DiscardChoices, discard_choices

compiled = pytest.importorskip("triple_draw._core")
# the tests expect discards to be shared: the cache must have room (conftest.py)
pytestmark = pytest.mark.usefixtures("empty_discard_cache")

# the compiled class is registered as a DiscardChoices when the compiled core is loaded
td.game.core.resolve_core("compiled")


def _helds(n_cases: int = 300) -> list[list[int]]:
    rnd = random.Random(7)
    helds = [[], [0], [51], [0, 51], list(range(5)), list(range(47, 52))]
    helds += [rnd.sample(range(52), rnd.randint(0, 5)) for _ in range(n_cases)]
    return helds


@pytest.mark.parametrize("make", [compiled.DiscardChoices, compiled.discard_choices])
def test_same_items_as_the_reference_and_the_same_shared_objects(make) -> None:  # type: ignore[no-untyped-def]
    for held in _helds():
        c = make(held)
        r = DiscardChoices(held)
        assert type(c) is compiled.DiscardChoices
        assert len(c) == len(r) == 1 << len(held)
        for m in range(-len(r), len(r)):
            assert c[m] == r[m]
            assert c[m] is r[m] or len(c[m].cards) > 3  # shared while the cache has room
        assert list(c) == list(r)
        assert list(reversed(c)) == list(reversed(r))
        assert c._held == r._held == sorted(held)
        assert repr(c) == repr(r) == f"DiscardChoices({sorted(held)!r})"
        assert hash(c) == hash(r)
        assert c == r and r == c and not (c != r) and not (r != c)
        assert c == list(r) and c == tuple(r) and list(r) == c
        assert c != list(r)[:-1]
        assert c != object() and (c == 5) is False


def test_item_m_throws_the_cards_at_the_set_bits_of_m() -> None:
    c = compiled.discard_choices([12, 0, 51, 30, 7])  # held in order: 0, 7, 12, 30, 51
    assert c[0] == Discard() and c[0].cards == ()
    assert c[0b101].cards == (0, 12)
    assert c[31].cards == (0, 7, 12, 30, 51)
    assert c[-1] is c[31]
    assert all(type(a) is Action and a.kind == "discard" for a in c)


def test_slices_index_count_and_membership_as_the_reference() -> None:
    held = [3, 44, 17, 29, 8]
    c, r = compiled.discard_choices(held), DiscardChoices(held)
    for sl in (slice(None), slice(3, 9), slice(None, None, -1), slice(-5, None, 2), slice(40, 50)):
        assert c[sl] == r[sl]
        assert type(c[sl]) is list
    for m, a in enumerate(r):
        assert a in c and c.index(a) == r.index(a) == m and c.count(a) == r.count(a) == 1
    for x in (Discard("2c"), Action("fold"), "discard", None, 3, Action("discard", cards=(3, 3))):
        assert (x in c) is (x in r) is False
        assert c.count(x) == r.count(x) == 0
        with pytest.raises(ValueError):
            c.index(x)
        with pytest.raises(ValueError):
            r.index(x)
    a = c[0b11000]
    assert c.index(a, 24) == r.index(a, 24) == 24
    for start, stop in ((25, None), (0, 24)):
        with pytest.raises(ValueError):
            c.index(a, start, stop)
        with pytest.raises(ValueError):
            r.index(a, start, stop)


def test_is_an_immutable_sequence_and_pickles() -> None:
    c = compiled.discard_choices([5, 9, 40])
    assert isinstance(c, DiscardChoices)
    assert isinstance(c, collections.abc.Sequence)
    for obj in (c, DiscardChoices([5, 9, 40])):
        back = pickle.loads(pickle.dumps(obj))
        assert type(back) is type(obj) and back == obj and list(back) == list(obj)
        assert copy.deepcopy(obj) == obj
    with pytest.raises((AttributeError, TypeError)):
        c[0] = c[1]  # type: ignore[index]
    with pytest.raises((AttributeError, TypeError)):
        c.held = [1]  # type: ignore[attr-defined]


@pytest.mark.parametrize("index", [32, -33, 2**70, -(2**70)])
def test_index_out_of_range(index: int) -> None:
    for d in (compiled.discard_choices([1, 2, 3, 4, 5]), DiscardChoices([1, 2, 3, 4, 5])):
        with pytest.raises(IndexError, match="out of range"):
            d[index]


@pytest.mark.parametrize("index", ["0", 1.0, None, [1]])
def test_index_of_a_wrong_type(index: object) -> None:
    for d in (compiled.discard_choices([1, 2]), DiscardChoices([1, 2])):
        with pytest.raises(TypeError):
            d[index]  # type: ignore[index]


def test_index_by_anything_with_index_as_a_list_takes_it() -> None:
    import numpy as np

    c, r = compiled.discard_choices([1, 2, 3]), DiscardChoices([1, 2, 3])
    assert c[np.int64(5)] is r[np.int64(5)] is c[5]
    assert c[True] is r[True] is c[1]


@pytest.mark.parametrize(
    ("held", "match"),
    [
        ([52], "card ids 0..51"),
        ([-1], "card ids 0..51"),
        (["7h"], "card ids 0..51"),
        ([1.0], "card ids 0..51"),
        ([True], "card ids 0..51"),
        ([2**70], "card ids 0..51"),
        ([1, 2, 3, 4, 5, 6], "at most 5"),
        ([4, 4], "held twice"),
    ],
)
def test_bad_held_cards_are_refused_alike(held: list[object], match: str) -> None:
    for make in (compiled.DiscardChoices, compiled.discard_choices, DiscardChoices):
        with pytest.raises(CardError, match=match) as e:
            make(held)
        assert isinstance(e.value, TripleDrawError)
    with pytest.raises(TypeError):
        compiled.discard_choices(5)


def test_each_core_lists_its_own_sequence_at_a_draw() -> None:
    for core, kind in (("compiled", compiled.DiscardChoices), ("reference", DiscardChoices)):
        h = td.Hand(td.Rules(), [100] * 3, seed=3, core=core)
        while not h.in_draw:
            h.check_or_call()
        legal = h.legal_actions()
        assert type(legal) is kind
        assert legal == DiscardChoices(h.hole_ids(h.actor))
        h.apply(legal[0b110])
    assert discard_choices([3, 1]) == DiscardChoices([1, 3])


def test_a_core_without_discard_choices_gets_the_game_layers_own() -> None:
    class Core:  # the compiled core's interface, less discard_choices
        def __getattr__(self, name: str) -> object:
            if name == "discard_choices":
                raise AttributeError(name)
            return getattr(compiled, name)

    h = td.Hand(td.Rules(), [100] * 3, seed=3, core=Core())
    while not h.in_draw:
        h.check_or_call()
    legal = h.legal_actions()
    assert type(legal) is DiscardChoices
    h.apply(legal[3])
    assert h.actor is not None
