"""The Independent Chip Model (``analysis.icm``): Malmuth-Harville, exact and sampled,
checked against values computed by hand and by enumerating every finishing order."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import pytest

from triple_draw.analysis import ICMResult, icm, icm_result
from triple_draw.errors import AnalysisError


def brute_force(stacks: list[int], payouts: list[int]) -> list[Fraction]:
    """Every finishing order with its Malmuth-Harville probability (each place goes to a
    player with his share of the chips still in play), in exact fractions."""
    n = len(stacks)
    eq = [Fraction(0)] * n
    for order in itertools.permutations(range(n)):
        p = Fraction(1)
        left = sum(stacks)
        for i in order:
            p *= Fraction(stacks[i], left)
            left -= stacks[i]
        for place, i in enumerate(order):
            if place < len(payouts):
                eq[i] += p * payouts[place]
    return eq


def test_the_classic_three_player_example() -> None:
    """Stacks 5000/3000/2000 (10,000 chips), payouts 50/30/20 - computed by hand:

    - 1st: A 5000/10000 = 1/2, B 3/10, C 1/5.
    - A 2nd: B wins then A takes 5000/7000, or C wins then A takes 5000/8000:
      3/10 * 5/7 + 1/5 * 5/8 = 3/14 + 1/8 = 19/56; A 3rd = 1 - 1/2 - 19/56 = 9/56.
      A's equity: 50/2 + 30 * 19/56 + 20 * 9/56 = 25 + 570/56 + 180/56 = 2150/56 = 38.3929.
    - B 2nd: 1/2 * 3/5 + 1/5 * 3/8 = 3/10 + 3/40 = 3/8; B 3rd = 1 - 3/10 - 3/8 = 13/40.
      B's equity: 50 * 3/10 + 30 * 3/8 + 20 * 13/40 = 15 + 11.25 + 6.5 = 32.75.
    - C takes the rest of the 100: 100 - 38.3929 - 32.75 = 28.8571 (= 1616/56).
    """
    eq = icm([5000, 3000, 2000], [50, 30, 20])
    assert eq == pytest.approx([2150 / 56, 32.75, 1616 / 56], abs=1e-12)
    assert [float(x) for x in brute_force([5000, 3000, 2000], [50, 30, 20])] == pytest.approx(
        eq, abs=1e-12
    )
    assert sum(eq) == pytest.approx(100)


@pytest.mark.parametrize(
    ("stacks", "payouts"),
    [
        ([1, 2, 3, 4, 5, 6, 7], [50, 30, 20]),
        ([1500, 1500, 1500, 1500, 1500, 1500], [65, 35]),
        ([9000, 300, 150, 50], [65, 35]),
        ([7, 11, 13, 17, 19, 23], [40, 25, 15, 10, 6, 4]),
        ([100, 200], [100]),
    ],
)
def test_exact_equals_every_finishing_order_enumerated(stacks, payouts) -> None:
    r = icm_result(stacks, payouts)
    assert r.method == "exact" and r.errors == (0.0,) * len(stacks)
    assert r.equities == pytest.approx([float(x) for x in brute_force(stacks, payouts)], abs=1e-9)


def test_heads_up_is_the_chip_share() -> None:
    """Two players: the second prize is sure, the difference goes with the chip share."""
    assert icm([3000, 1000], [70, 30]) == pytest.approx((30 + 40 * 0.75, 30 + 40 * 0.25))


def test_equal_stacks_equal_equities_and_the_prizes_add_up() -> None:
    eq = icm([1000] * 9, [50, 30, 20])
    assert eq == pytest.approx([100 / 9] * 9)
    eq = icm([5, 1, 9, 2], [60, 40, 10, 5, 3])  # places beyond the players are not reached
    assert sum(eq) == pytest.approx(115)


def test_sampled_figures_agree_with_the_exact_sum_within_their_error() -> None:
    stacks, payouts = [1, 2, 3, 4, 5, 6, 7], [50, 30, 20]
    exact = icm_result(stacks, payouts).equities
    r = icm_result(stacks, payouts, method="sample", trials=100_000, seed=3)
    assert r.method == "sample" and r.trials == 100_000
    for x, y, se in zip(exact, r.equities, r.errors, strict=True):
        assert 0 < se < 0.1
        assert abs(x - y) < 5 * se
    again = icm_result(stacks, payouts, method="sample", trials=100_000, seed=3)
    assert again == r  # seeded: reproducible
    assert icm_result(stacks, payouts, method="sample", trials=1000, seed=4) != r


def test_large_fields_are_sampled_and_keep_the_pool() -> None:
    stacks = list(range(100, 4100, 100))  # 40 players, 8 paid: too many sets to sum
    payouts = [32, 20, 14, 10, 8, 6, 5, 5]
    r = icm_result(stacks, payouts, trials=20_000, seed=1)
    assert r.method == "sample"
    assert sum(r.equities) == pytest.approx(100)
    assert r.equities[-1] > r.equities[20] > r.equities[0]  # more chips, more money
    d = r.to_dict()
    assert d["method"] == "sample" and len(d["errors"]) == 40
    assert isinstance(r, ICMResult)


@pytest.mark.parametrize(
    ("stacks", "payouts", "match"),
    [
        ([], [1], "1..10000 players"),
        ([0, 5], [1], "> 0"),
        ([-1, 5], [1], "> 0"),
        ([1, math.nan], [1], "finite"),
        ([1, True], [1], "finite number"),
        ("12", [1], "list of numbers"),
        ([1, 2], [-1], ">= 0"),
    ],
)
def test_bad_arguments_are_analysis_errors(stacks, payouts, match) -> None:
    with pytest.raises(AnalysisError, match=match):
        icm(stacks, payouts)


def test_bad_options_are_analysis_errors() -> None:
    with pytest.raises(AnalysisError, match="method"):
        icm([1, 2], [1], method="guess")
    with pytest.raises(AnalysisError, match="trials"):
        icm([1, 2], [1], trials=0)
    with pytest.raises(AnalysisError, match="seed"):
        icm([1, 2], [1], seed=-1)
    with pytest.raises(AnalysisError, match="method='sample'"):
        icm_result(list(range(1, 60)), list(range(59, 0, -1)), method="exact")
