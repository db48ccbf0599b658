"""docs/rules.md, *The rake*: a percentage of the pot rounded down to the chip, capped,
nothing from a hand that ends before the first draw ("no draw, no drop"), taken from the
main pot first; chips: final stacks + rake = starting stacks."""

from __future__ import annotations

import random

import pytest

from triple_draw import Hand, Rules
from triple_draw.errors import RulesError
from conftest import play_randomly


def test_no_rake_by_default_and_the_documents_are_unchanged() -> None:
    r = Rules()
    assert r.rake_percent == "0" and r.rake_cap == 0 and r.rake_no_draw_no_drop
    assert "rake_percent" not in r.to_dict()
    h = Hand(r, [100] * 3, seed=3)
    play_randomly(h, 1, fold=False)
    assert h.result.rake == 0
    assert "rake" not in h.to_dict()["outcome"]
    assert "rake" not in h.result.to_dict()


def test_percentage_rounded_down_and_capped() -> None:
    rng = random.Random(7)
    for rules in (Rules(rake_percent="5"), Rules(rake_percent=10, rake_cap=3)):
        for seed in range(40):
            h = Hand(rules, [60] * 4, seed=seed)
            play_randomly(h, rng, fold=False)
            res = h.result
            pot = sum(h.committed)
            drew = any(e.kind == "begin_draw" for e in h.history)
            want = (pot * int(rules.rake_percent)) // 100 if drew else 0
            if rules.rake_cap:
                want = min(want, rules.rake_cap)
            assert res.rake == want
            assert sum(res.stacks) + res.rake == 240
            assert sum(x for p in res.pots for _, x in p.shares) == pot - res.rake
            # the main pot pays the rake first
            if res.rake and len(res.pots) > 1 and res.pots[0].amount >= res.rake:
                assert sum(x for _, x in res.pots[1].shares) == res.pots[1].amount
            back = Hand.from_dict(h.to_dict())
            assert back.to_dict() == h.to_dict()


def test_rounding_half_to_even() -> None:
    from fractions import Fraction

    from triple_draw.game.showdown import rake_of

    h = Hand(Rules(rake_percent="5", rake_rounding="half-even"), [100] * 3, seed=1)
    # 5% of 10 is 0.5 (to 0), of 30 is 1.5 (to 2), of 29 is 1.45 (to 1), of 31 is 1.55 (2)
    assert [rake_of(h, pot, True) for pot in (10, 30, 29, 31)] == [0, 2, 1, 2]
    h = Hand(Rules(rake_percent="5"), [100] * 3, seed=1)
    assert [rake_of(h, pot, True) for pot in (10, 30, 29, 31)] == [0, 1, 1, 1]
    assert Rules(rake_percent="5").compiled.rake == Fraction(1, 20)
    with pytest.raises(RulesError, match="rake_rounding"):
        Rules(rake_rounding="up")


def test_no_draw_no_drop() -> None:
    h = Hand(Rules(rake_percent="5"), [100] * 3, seed=1)
    h.bet_or_raise()
    h.fold()
    h.fold()
    assert h.result.rake == 0
    h = Hand(Rules(rake_percent="50", rake_no_draw_no_drop=False), [100] * 3, seed=1)
    h.bet_or_raise()
    h.fold()
    h.fold()
    # 4 + 1 + 2 = 7 in the pot, the uncalled 2 returned first: 50% of 5
    assert h.result.rake == 2
    assert h.result.net == (1, -1, -2)


def test_bad_rake_options() -> None:
    for bad in ("x", "-1", "100", "1.23456", 1.5, True, None):
        with pytest.raises(RulesError, match="rake_percent"):
            Rules(rake_percent=bad)  # type: ignore[arg-type]
    with pytest.raises(RulesError, match="rake_cap"):
        Rules(rake_cap=-1)
    assert Rules(rake_percent="4.50") == Rules(rake_percent="4.5")
    assert eval(repr(Rules(rake_percent="4.5")), {"Rules": Rules}) == Rules(rake_percent="4.5")
