"""Bad input to the engine's public API raises a TripleDrawError (errors.py: every error of
the package is one, with the matching builtin base), never a bare builtin exception, and
leaves the hand as it was. Hypothesis feeds junk to ``Rules``, ``Hand`` and ``Table``."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from triple_draw import TripleDrawError
from triple_draw.game import Action, Hand, Rules, Table

junk_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=True),
    st.text(max_size=12),
    st.sampled_from(["7h", "??", "7h 5d", "Zz", "draw", "fold", "compiled", "reference"]),
    st.binary(max_size=4),
)
junk = st.recursive(
    junk_scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=6),
        st.tuples(inner, inner),
        st.dictionaries(st.text(max_size=6), inner, max_size=3),
    ),
    max_leaves=8,
)
SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def only_package_errors(call: Any, *args: Any, **kwargs: Any) -> None:
    """Run the call; any exception it raises must be a TripleDrawError."""
    try:
        call(*args, **kwargs)
    except TripleDrawError:
        pass
    except RecursionError:  # pragma: no cover - not an input check
        raise
    except Exception as e:  # the point of the test: anything else is a bug
        raise AssertionError(f"{call.__qualname__}: {type(e).__name__}: {e}") from e


def a_hand(seed: int) -> Hand:
    """A hand some random steps in (betting or drawing)."""
    rnd = random.Random(seed)
    h = Hand(Rules(), [rnd.choice([3, 20, 100])] * rnd.randint(2, 6), 0, seed)
    for _ in range(rnd.randint(0, 25)):
        if h.is_over:
            break
        h.apply(rnd.choice(h.legal_actions()))
    return h


@SETTINGS
@given(st.sampled_from([f.name for f in Rules.__dataclass_fields__.values() if f.init]), junk)
def test_rules_fields(field, value):
    only_package_errors(Rules, **{field: value})
    only_package_errors(Rules.from_dict, {field: value})


@SETTINGS
@given(junk)
def test_rules_documents(doc):
    only_package_errors(Rules.from_dict, doc)


@SETTINGS
@given(junk, junk, junk, junk)
def test_hand_setup(rules, stacks, button, seed):
    only_package_errors(Hand, rules, stacks, button, seed)
    only_package_errors(Hand, Rules(), stacks, button, seed)
    only_package_errors(Hand, Rules(), [100, 100], button, seed)


@SETTINGS
@given(junk, junk, junk, junk)
def test_hand_given_cards_deck_core(hole_cards, deck, core, withhold):
    only_package_errors(Hand, Rules(), [100, 100, 100], hole_cards=hole_cards)
    only_package_errors(Hand, Rules(), [100, 100, 100], deck=deck)
    only_package_errors(Hand, Rules(), [100, 100, 100], 1, core=core)
    only_package_errors(Hand, Rules(), [100, 100, 100], 1, withhold=withhold)


@SETTINGS
@given(st.integers(0, 10_000), junk, junk, st.sampled_from(["bet", "draw", "any"]))
def test_hand_actions_and_queries(seed, x, y, _phase):
    h = a_hand(seed)
    before = h.to_dict()
    for call, args in (
        (h.apply, (x,)),
        (h.apply, (x, y)),
        (h.discard, (x,)),
        (h.discard, (x, y)),
        (h.receivable, (x,)),
        (h.receivable, (x, y)),
        (h.view, (x,)),
        (h.hole_ids, (x,)),
        (h.hole_text, (x,)),
        (h.hole_cards, (x,)),
        (h.draws, (x,)),
        (h.discards, (x,)),
    ):
        only_package_errors(call, *args)
    # junk never changes the hand (only a legal action would, and junk is never one)
    if isinstance(x, (list, tuple, str)) or x is None:
        return  # a list/str/None may be a legal discard
    assert h.to_dict() == before


@SETTINGS
@given(st.integers(0, 10_000), junk)
def test_actions_from_junk(seed, kind):
    h = a_hand(seed)
    only_package_errors(Action, kind)
    only_package_errors(Action, "discard", None, kind)
    only_package_errors(Action, "call", kind)
    only_package_errors(Action.from_dict, kind)
    if not h.is_over:
        only_package_errors(h.apply, Action("discard", cards=()))


@SETTINGS
@given(junk)
def test_hand_documents(doc):
    only_package_errors(Hand.from_dict, doc)


@SETTINGS
@given(
    st.integers(0, 10_000), st.sampled_from(["betting", "draw", "deck", "hands", "history"]), junk
)
def test_hand_documents_with_one_junk_field(seed, key, value):
    doc = a_hand(seed).to_dict()
    doc[key] = value
    only_package_errors(Hand.from_dict, doc)


@SETTINGS
@given(junk, junk, junk, junk)
def test_table(stacks, button, seat, stack):
    only_package_errors(Table, Rules(), stacks, button)
    only_package_errors(Table, stacks, [100, 100], button)
    t = Table(Rules(), [100, 100, None, 100], seed=1)
    only_package_errors(t.sit, seat, stack)
    only_package_errors(t.leave, seat)
    only_package_errors(t.hand_seat, seat)
