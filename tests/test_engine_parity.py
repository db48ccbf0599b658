"""The same seeded hands played on the compiled core and on the pure-Python reference
give identical deals, reshuffles, histories, states and results."""

from __future__ import annotations

import random

import pytest

from triple_draw.game import Hand, Rules, Table, set_default_core
from triple_draw.game.core import default_core
from conftest import also_on, play_randomly

RULESETS = [
    Rules(),
    Rules.online(),
    Rules(max_players=8, muck_beaten_hands=True),
    Rules.online(max_players=8, short_all_in="full-raise", ante=1),
]


def play(rules: Rules, n: int, seed: int, core: str, p_discard: float) -> Hand:
    rnd = random.Random(seed)
    stacks = [rnd.randint(1, 80) for _ in range(n)]
    h = Hand(rules, stacks, seed % n, seed, core=core)
    return play_randomly(h, rnd, discard_each=p_discard)  # thrown in the order held


@pytest.mark.parametrize("rules", RULESETS, ids=["live", "online", "live8", "online8"])
def test_same_seeded_hands_identical_on_compiled_core_and_reference(rules):
    reshuffles = 0
    for seed in range(25):
        n = 2 + seed % (rules.max_players - 1)
        p = 0.4 if seed % 2 else 0.9
        a = play(rules, n, seed, "compiled", p)
        b = play(rules, n, seed, "reference", p)
        assert a.to_dict() == b.to_dict()
        assert a.result == b.result
        reshuffles += sum(e.kind == "reshuffle" for e in a.history)
    if rules.max_players == 8:
        assert reshuffles > 0  # the parity covers the reshuffle stream too


def test_mid_hand_state_moves_between_cores():
    a = play(Rules(), 4, 3, "compiled", 0.5)
    h = Hand(Rules(), [50] * 4, seed=77, core="compiled")
    rnd = random.Random(1)
    play_randomly(h, rnd, steps=8)
    ref = Hand.from_dict(h.to_dict(), core="reference")
    play_randomly(h, rnd, each=also_on(ref))
    assert ref.to_dict() == h.to_dict()
    assert a.is_over


def test_default_core_switch():
    before = default_core()
    try:
        set_default_core("reference")
        assert Hand(Rules(), [10, 10], seed=1)._core.__name__.endswith("reference")
        set_default_core("compiled")
        assert not Hand(Rules(), [10, 10], seed=1)._core.__name__.endswith("reference")
    finally:
        set_default_core(before)


def test_table_parity():
    def run(core: str) -> list:
        t = Table(Rules(), [40] * 5, seed=3, core=core)
        rnd = random.Random(4)
        out = []
        for _ in range(15):
            if len(t.players) < 2:
                break
            out.append(play_randomly(t.new_hand(), rnd).to_dict())
        return out

    assert run("compiled") == run("reference")


class _CustomCore:
    """A user's core: the reference's functions under another object (it pickles by
    reference to this module-level class)."""

    def __getattr__(self, name: str):  # type: ignore[no-untyped-def]
        from triple_draw import reference

        return getattr(reference, name)

    def __reduce__(self):  # type: ignore[no-untyped-def]
        return (_CustomCore, ())


def test_a_pickled_hand_keeps_its_core_whichever_it_is() -> None:
    """A hand on the reference, the compiled or a custom core comes back from pickle on
    the same core (a custom one used to come back on the compiled core)."""
    import pickle

    from triple_draw.game.core import resolve_core

    for core in ("reference", "compiled", _CustomCore()):
        h = Hand(Rules(), [50] * 3, seed=5, core=core)
        h.check_or_call()
        back = pickle.loads(pickle.dumps(h))
        assert back.to_dict() == h.to_dict()
        if isinstance(core, str):
            assert back._core is resolve_core(core)
        else:
            assert type(back._core) is _CustomCore
