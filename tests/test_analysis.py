"""Tests of triple_draw.analysis: draw_odds, equity, best_discard and the draw strategies.

Exact results are checked against brute-force enumerations written here, in plain Python,
on the pure-Python reference evaluator (``triple_draw.reference.rank_ids``) and a
re-implementation of the documented standard rule; sampled results must fall within a few
standard errors of the exact values; seeded results must not depend on the thread count.
Dead cards keep the brute-force decks small so the whole file runs in seconds.
"""

from __future__ import annotations

import doctest
import itertools
from collections import Counter
from collections.abc import Iterable, Sequence
from fractions import Fraction
from math import comb

import numpy as np
import pytest

import triple_draw.analysis as analysis
from triple_draw import AnalysisError, CardError, HandRank, card_ids
from triple_draw.analysis import Strategy, as_rank, best_discard, draw_odds, equity
from triple_draw.reference import rank_ids as ref_rank

# ----------------------------------------------------------------------------- brute force


def ids(text: str) -> list[int]:
    return card_ids(text)


def unseen(excluded: Iterable[int]) -> list[int]:
    out = set(excluded)
    return [c for c in range(52) if c not in out]


def worst_low(top: str) -> int:
    """The worst no-pair hand topped by ``top``, found by scanning the reference ranks."""
    order = "23456789TJQKA"
    t = order.index(top)
    worst = 0
    for four in itertools.combinations(range(t), 4):
        ranks = [*four, t]
        if ranks == list(range(ranks[0], ranks[0] + 5)):
            continue  # a straight
        # Use clubs and one diamond: never a flush.
        cards = [r * 4 for r in ranks[:4]] + [t * 4 + 1]
        worst = max(worst, ref_rank(cards))
    return worst


def rule_discard(hand: Sequence[int], keep_max: int, pat_max: int) -> list[int]:
    """The standard rule as documented: pat at ``pat_max`` or better; else keep one card of
    each distinct rank <= ``keep_max`` (of a pair, the suit least used by the other kept
    cards, then the lower id); never keep all five."""
    if ref_rank(list(hand)) <= pat_max:
        return []
    counts = Counter(c // 4 for c in hand)
    kept = [c for c in hand if c // 4 <= keep_max and counts[c // 4] == 1]
    suits = Counter(c % 4 for c in kept)
    for r in sorted({c // 4 for c in hand if c // 4 <= keep_max and counts[c // 4] > 1}):
        best = min((c for c in hand if c // 4 == r), key=lambda c: (suits[c % 4], c))
        kept.append(best)
        suits[best % 4] += 1
    if len(kept) == 5:
        kept.remove(max(kept))
    return [c for c in hand if c not in kept]


def brute_distribution(
    hand: list[int],
    excluded: set[int],
    draws: int,
    first: list[int] | None,
    rule: tuple[int, int] | None,
) -> dict[int, Fraction]:
    """Final-rank distribution of one hand: ``first`` thrown at the next draw, then ``rule``
    (None = stand pat). ``excluded``: cards that cannot come (hand, discards, dead)."""
    if draws == 0:
        return {ref_rank(hand): Fraction(1)}
    if first is not None:
        throw = first
    elif rule is not None:
        throw = rule_discard(hand, *rule)
    else:
        throw = []
    if not throw:
        return brute_distribution(hand, excluded, draws - 1, None, rule)
    kept = [c for c in hand if c not in throw]
    deck = unseen(excluded)
    w = Fraction(1, comb(len(deck), len(throw)))
    out: dict[int, Fraction] = Counter()
    for combo in itertools.combinations(deck, len(throw)):
        sub = brute_distribution(kept + list(combo), excluded | set(combo), draws - 1, None, rule)
        for r, p in sub.items():
            out[r] += w * p
    return out


def p_at_most(dist: dict[int, Fraction], rank: int) -> Fraction:
    return sum((p for r, p in dist.items() if r <= rank), Fraction(0))


def showdown(ranks: Sequence[int]) -> list[tuple[int, int, Fraction]]:
    """(win, tie, share) per seat of one showdown."""
    best = min(ranks)
    n = ranks.count(best)
    return [
        (int(r == best and n == 1), int(r == best and n > 1), Fraction(int(r == best), n))
        for r in ranks
    ]


RULE8 = (6, worst_low("8"))  # keep eights and better, stand pat on any 8-low
DEAD30 = ids(
    "Ac Ad Ah As Kc Kh Ks Qc Qd Qh Qs Jc Jd Jh Js Tc Td Th Ts 9c 9d 9h 9s 8s 8h 6c 6h 6s 5s 4c"
)


# ----------------------------------------------------------------------------- draw_odds


def test_one_card_draw_to_seven_five_is_exactly_4_in_47() -> None:
    odds = draw_odds("7c5d4h3sKd", "Kd")
    assert odds.exact and odds.outcomes == 47
    assert odds.fraction_at_most("7c5d4h3s2c") == Fraction(4, 47)
    assert odds.p_at_most(1) == pytest.approx(4 / 47, abs=1e-15)
    assert odds.stderr(1) == 0.0


def test_the_deck_convention_is_52_minus_hand_minus_dead() -> None:
    odds = draw_odds("7c5d4h3sKd", "Kd", dead="2c 2d Qs")
    assert odds.outcomes == 44
    assert odds.fraction_at_most(1) == Fraction(2, 44)


@pytest.mark.parametrize(
    ("hand", "discard"),
    [
        ("7c5d4h3sKd", "Kd"),
        ("7c5d4h3sKd", "7c Kd"),
        ("8h6h4h3h2h", "8h"),  # one-card draw to a flush draw
        ("2c2d5h9sKd", "2d 9s Kd"),
        ("9c8d6h4s2c", ""),  # pat
    ],
)
def test_one_draw_matches_brute_force(hand: str, discard: str) -> None:
    h, d = ids(hand), ids(discard)
    kept = [c for c in h if c not in d]
    deck = unseen(h)
    want = Counter(ref_rank(kept + list(c)) for c in itertools.combinations(deck, len(d)))
    odds = draw_odds(hand, discard)
    assert odds.exact and odds.outcomes == comb(47, len(d))
    assert odds.counts is not None
    got = {r: int(n) for r, n in enumerate(odds.counts) if n}
    assert got == dict(want)
    cats = Counter()
    for r, n in want.items():
        cats[HandRank(r).category] += n
    for name, p in odds.categories.items():
        assert p == pytest.approx(cats[name] / odds.outcomes, abs=1e-12)
    assert sum(odds.categories.values()) == pytest.approx(1.0)


def test_one_draw_of_five_cards_with_dead_cards_matches_brute_force() -> None:
    hand = "7c5d4h3sKd"
    deck = unseen(ids(hand) + DEAD30)
    want = Counter(ref_rank(list(c)) for c in itertools.combinations(deck, 5))
    odds = draw_odds(hand, hand, dead=DEAD30)
    assert odds.outcomes == comb(17, 5) == sum(want.values())
    assert odds.counts is not None
    assert {r: int(n) for r, n in enumerate(odds.counts) if n} == dict(want)


@pytest.mark.parametrize(
    ("hand", "discard", "draws"),
    [
        ("7c5d4h3sKd", "Kd", 2),
        ("7c5d4h3sKd", "Kd", 3),
        ("6c5d4h3s2c", "", 2),  # stand pat once, then the rule breaks the straight
        ("8h6h4h3h2h", "", 2),  # ... and the flush
        ("3h3c7h5h2h", "", 2),  # of the pair of treys, the club stays (fewer hearts)
        ("2c2d5h9sKd", "", 2),  # of the deuces, the lower id stays
        ("9c8d6h4s2c", "9c", 2),
    ],
)
def test_more_draws_by_the_rule_match_brute_force(hand: str, discard: str, draws: int) -> None:
    h = ids(hand)
    want = brute_distribution(h, set(h), draws, ids(discard), RULE8)
    odds = draw_odds(hand, discard, draws=draws, strategy=Strategy.rule(keep="8"))
    assert odds.exact
    for r in range(1, 7463):
        p = want.get(r, Fraction(0))
        assert odds.probabilities[r] == pytest.approx(float(p), abs=1e-12), HandRank(r).name
    assert odds.p_at_most("8") == pytest.approx(float(p_at_most(want, RULE8[1])), abs=1e-12)


def test_later_draws_can_stand_pat() -> None:
    h = ids("9c8d6h4s2c")
    want = brute_distribution(h, set(h), 3, ids("9c"), None)
    odds = draw_odds(h, "9c", draws=3, strategy=Strategy.stand_pat())
    assert odds.exact and odds.outcomes == 47
    assert odds.p_at_most("8") == pytest.approx(float(p_at_most(want, RULE8[1])), abs=1e-12)


def test_sampled_draw_odds_are_within_standard_errors_of_exact() -> None:
    exact = draw_odds("7c5d4h3sKd", "7c Kd", draws=2, method="exact")
    sampled = draw_odds("7c5d4h3sKd", "7c Kd", draws=2, method="sample", trials=100_000, seed=3)
    assert exact.exact and not sampled.exact and sampled.trials == 100_000
    for target in (1, "7", "8", "9", "T", "9-7"):
        se = sampled.stderr(target)
        assert se > 0
        assert abs(sampled.p_at_most(target) - exact.p_at_most(target)) < 4 * se, target
    assert exact.trials is None


def test_one_draw_can_be_sampled_too() -> None:
    sampled = draw_odds("7c5d4h3sKd", "Kd", method="sample", trials=50_000, seed=1)
    assert not sampled.exact and sampled.counts is None
    assert abs(sampled.p_at_most(1) - 4 / 47) < 4 * sampled.stderr(1)
    with pytest.raises(AnalysisError, match="one exact draw"):
        sampled.fraction_at_most(1)


def test_draw_odds_results_are_read_only() -> None:
    odds = draw_odds("7c5d4h3sKd", "Kd")
    with pytest.raises(ValueError):
        odds.probabilities[1] = 1.0


# ----------------------------------------------------------------------------- equity


def brute_equity_one_draw(
    hands: list[list[int]], throws: list[list[int]], dead: Sequence[int] = ()
) -> list[tuple[Fraction, Fraction, Fraction]]:
    """Every seat draws once (its ``throws``) from one stub, in seat order."""
    totals = [[Fraction(0)] * 3 for _ in hands]

    def rec(i: int, stub: list[int], finals: list[list[int]], w: Fraction) -> None:
        if i == len(hands):
            for s, res in enumerate(showdown([ref_rank(f) for f in finals])):
                for j in range(3):
                    totals[s][j] += w * res[j]
            return
        k = len(throws[i])
        kept = [c for c in hands[i] if c not in throws[i]]
        combos = list(itertools.combinations(stub, k))
        for combo in combos:
            rest = [c for c in stub if c not in combo]
            rec(i + 1, rest, [*finals, kept + list(combo)], w / len(combos))

    rec(0, unseen([c for h in hands for c in h] + list(dead)), [], Fraction(1))
    return [(t[0], t[1], t[2]) for t in totals]


def assert_equity(
    result: analysis.EquityResult, want: list[tuple[Fraction, Fraction, Fraction]]
) -> None:
    assert len(result) == len(want)
    for got, (w, t, e) in zip(result, want, strict=True):
        assert got.win == pytest.approx(float(w), abs=1e-12)
        assert got.tie == pytest.approx(float(t), abs=1e-12)
        assert got.equity == pytest.approx(float(e), abs=1e-12)


def test_equity_with_no_draws_is_the_showdown() -> None:
    r = equity(["7c5d4h3s2c", "7d5h4s3c2d", "8c6d4c3d2s"], draws_left=0)
    assert r.exact and r.outcomes == 1
    assert [p.equity for p in r] == [0.5, 0.5, 0.0]
    assert [p.tie for p in r] == [1.0, 1.0, 0.0]
    assert r[2].win == 0.0 and r[0].stderr == 0.0


def test_equity_one_draw_each_with_ties_matches_brute_force() -> None:
    a, b = "7c5d4h3sKd", "7d5h4s3cQc"
    want = brute_equity_one_draw([ids(a), ids(b)], [ids("Kd"), ids("Qc")])
    r = equity([a, b], draws_left=1, strategies=[Strategy.discard("Kd"), Strategy.discard("Qc")])
    assert r.exact and r.outcomes == 42 * 41
    assert r[0].tie > 0
    assert_equity(r, want)


def test_equity_by_the_rule_matches_brute_force() -> None:
    a, b = "7c5d4h3sKd", "9c8d6h4s2d"
    throws = [rule_discard(ids(h), *RULE8) for h in (a, b)]
    assert throws == [ids("Kd"), ids("9c")]
    want = brute_equity_one_draw([ids(a), ids(b)], throws)
    assert_equity(equity([a, b], draws_left=1), want)  # the default strategy is the rule


def test_equity_against_unknown_hands_matches_brute_force() -> None:
    hero, villain = "8c6d4h3s2c", "7c5d3c2dJd"
    dead = [c for c in DEAD30 if c not in ids(hero + villain)]
    deck = unseen(ids(hero + villain) + dead)
    totals = [[Fraction(0)] * 3 for _ in range(3)]
    combos = list(itertools.combinations(deck, 5))
    for third in combos:
        res = showdown([ref_rank(ids(hero)), ref_rank(ids(villain)), ref_rank(list(third))])
        for s in range(3):
            for j in range(3):
                totals[s][j] += Fraction(res[s][j], len(combos))
    r = equity([hero, villain, None], draws_left=0, dead=dead)
    assert r.exact and r.outcomes == len(combos)
    assert_equity(r, [(t[0], t[1], t[2]) for t in totals])
    # Hidden cards may also be mixed with known ones.
    part = equity([hero, "7c 5d 3c ?? ??"], draws_left=0, dead=dead)
    assert part.exact and part.outcomes == comb(len(deck) + 2, 2)


def test_sampled_equity_is_within_standard_errors_of_exact() -> None:
    hands = ["7c5d4h3sKd", "7d5h4s3cQc"]
    strategies = [Strategy.discard("Kd"), Strategy.discard("Qc")]
    exact = equity(hands, draws_left=1, strategies=strategies)
    sampled = equity(
        hands, draws_left=1, strategies=strategies, method="sample", trials=100_000, seed=5
    )
    assert not sampled.exact and sampled.trials == 100_000
    for e, s in zip(exact, sampled, strict=True):
        assert abs(s.equity - e.equity) < 4 * s.stderr
        assert abs(s.win - e.win) < 4 * s.win_stderr
        assert abs(s.tie - e.tie) < 4 * s.tie_stderr
    assert sum(sampled.equities) == pytest.approx(1.0)


def test_seeded_results_do_not_depend_on_the_thread_count() -> None:
    runs = [
        equity(["7c5d4h3sKd", None, "8c6d5h2s2c"], draws_left=3, seed=11, trials=30_000, threads=t)
        for t in (1, 2, 4)
    ]
    assert runs[0] == runs[1] == runs[2]
    assert not runs[0].exact
    other = equity(["7c5d4h3sKd", None, "8c6d5h2s2c"], draws_left=3, seed=12, trials=30_000)
    assert other != runs[0]
    odds = [
        draw_odds("7c5d4h3sKd", "7c Kd", draws=3, seed=2, trials=20_000, threads=t)
        for t in (1, 2, 4)
    ]
    assert all(np.array_equal(o.probabilities, odds[0].probabilities) for o in odds)
    best = [
        best_discard("9c8d6h4s2c", draws_left=2, opponents=[None], seed=4, trials=4096, threads=t)
        for t in (1, 2, 4)
    ]
    assert best[0] == best[1] == best[2]


def test_unseeded_runs_use_fresh_entropy() -> None:
    a = equity(["7c5d4h3sKd", None], draws_left=2, trials=5000)
    b = equity(["7c5d4h3sKd", None], draws_left=2, trials=5000)
    assert not a.exact and a != b


def test_six_hands_that_run_the_stub_out_still_complete_every_draw() -> None:
    # Six unknown hands drawing hard with dead cards: the default reshuffle rule refills
    # the stub from earlier discards.
    r = equity(
        [None] * 6,
        draws_left=3,
        strategies=Strategy.rule(keep="3", pat=1),
        dead="Ac Ad Ah As",
        trials=5000,
        seed=1,
    )
    assert sum(r.equities) == pytest.approx(1.0)
    assert all(0 < p.equity < 1 for p in r)


# ----------------------------------------------------------------------------- best_discard


def test_best_discard_matches_brute_force_for_all_32_choices() -> None:
    hand = ids("7c5d4h3sKd")
    dead = DEAD30
    target = as_rank("8")
    deck = unseen(hand + dead)
    want = []
    for k in range(6):
        for throw in itertools.combinations(hand, k):
            kept = [c for c in hand if c not in throw]
            combos = list(itertools.combinations(deck, k))
            hits = sum(ref_rank(kept + list(c)) <= target for c in combos)
            want.append((Fraction(hits, len(combos)), sorted(throw)))
    want.sort(key=lambda x: (-x[0], len(x[1]), x[1]))
    got = best_discard(hand, target="8", dead=dead)
    assert len(got) == 32
    for choice, (p, throw) in zip(got, want, strict=True):
        assert sorted(c.id for c in choice.discard) == throw
        assert choice.score == pytest.approx(float(p), abs=1e-12)
        assert choice.exact and choice.stderr == 0.0 and choice.objective == "target"
        assert sorted(c.id for c in choice.discard + choice.keep) == sorted(hand)
    assert [str(c) for c in got[0].discard] == ["Kd"]


def test_best_discard_by_equity_matches_brute_force() -> None:
    hand, villain = ids("7c5d4h3sKd"), ids("9c8d6h4s2d")
    dead = [c for c in DEAD30 if c not in villain][:25]
    deck = unseen(hand + villain + dead)
    vr = ref_rank(villain)
    want = {}
    for k in range(6):
        for throw in itertools.combinations(hand, k):
            kept = [c for c in hand if c not in throw]
            combos = list(itertools.combinations(deck, k))
            share = Fraction(0)
            for c in combos:
                r = ref_rank(kept + list(c))
                share += 1 if r < vr else Fraction(1, 2) if r == vr else 0
            want[tuple(sorted(throw))] = share / len(combos)
    got = best_discard(
        hand, opponents=[villain], opponent_strategies=Strategy.stand_pat(), dead=dead
    )
    assert all(c.exact and c.objective == "equity" for c in got)
    for c in got:
        assert c.score == pytest.approx(
            float(want[tuple(sorted(x.id for x in c.discard))]), abs=1e-12
        )
    assert [c.score for c in got] == sorted((c.score for c in got), reverse=True)


def test_best_discard_with_more_draws_samples_fairly() -> None:
    got = best_discard("7c5d4h3sKd", draws_left=3, target="8", trials=20_000, seed=1)
    assert [str(c) for c in got[0].discard] == ["Kd"]
    # Later draws follow the rule; choices with many outcomes are sampled, with errors.
    sampled = [c for c in got if not c.exact]
    assert sampled and all(c.stderr > 0 and c.outcomes == 20_000 for c in sampled)
    exact = draw_odds("7c5d4h3sKd", "Kd", draws=3)
    assert got[0].score == pytest.approx(exact.p_at_most("8"), abs=1e-12)


def test_best_discard_defaults_to_any_eight_low() -> None:
    a = best_discard("9c8d6h4s2c")
    b = best_discard("9c8d6h4s2c", target="8")
    assert a == b and [str(c) for c in a[0].discard] == ["9c"]


# ----------------------------------------------------------------------------- strategies


def test_strategy_constructors_and_reprs() -> None:
    s = Strategy.rule()
    assert s.keep_max == 6 and s.pat_max == worst_low("8") and s.first_discard is None
    assert repr(s) == "Strategy.rule(keep='8', pat=18)"
    assert Strategy.rule(keep=8) == s == Strategy.rule(keep="8", pat="8")
    assert Strategy.rule(keep="T", pat="9-7").pat_max == as_rank("9c7d6h5s4c")
    d = Strategy.discard("Kd 7c", then=Strategy.rule(keep="7"))
    assert d.first_discard == tuple(ids("Kd 7c"))
    assert repr(d) == "Strategy.discard('Kd 7c', then=Strategy.rule(keep='7', pat=4))"
    assert repr(Strategy.stand_pat()) == "Strategy.stand_pat()"
    assert repr(Strategy.discard("Kd")) == "Strategy.discard('Kd')"


def test_as_rank_accepts_ranks_hands_and_lows() -> None:
    assert as_rank(1) == as_rank("7c5d4h3s2c") == as_rank(HandRank(1)) == 1
    assert as_rank("7") == worst_low("7") == 4
    assert as_rank("8") == as_rank("8 low") == worst_low("8")
    assert as_rank("10") == worst_low("T")
    assert HandRank(as_rank("9-7")).name == "9-7 low"
    assert as_rank(["7c", "5d", "4h", "3s", "2c"]) == 1


# ----------------------------------------------------------------------------- errors


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: draw_odds("7c5d4h3sKd", "2c"), "cannot discard 2c: it is not in the hand"),
        (lambda: draw_odds("7c5d4h3sKd", "Kd", draws=4), "at most 3 draws"),
        (lambda: draw_odds("7c5d4h3sKd", "Kd", draws=0), "draws must be 1 to 3"),
        (lambda: draw_odds("7c5d4h3s", "3s"), "the hand must have 5 cards, got 4"),
        (
            lambda: draw_odds("7c5d4h3sKd", "Kd", dead="Kd"),
            "card Kd is both in the hand and in the dead cards",
        ),
        (
            lambda: draw_odds("7c5d4h3sKd", "7c5d4h3sKd", dead=unseen(ids("7c5d4h3sKd"))[2:]),
            "more cards than the deck holds",
        ),
        (
            lambda: draw_odds("7c5d4h3sKd", "Kd", strategy=Strategy.discard("7c")),
            "not a fixed discard",
        ),
        (lambda: draw_odds("7c5d4h3sKd", "Kd", method="fast"), "method must be"),
        (lambda: draw_odds("7c5d4h3sKd", "Kd", trials=0), "trials must be at least 1"),
        (lambda: draw_odds("7c5d4h3sKd", "Kd", threads=0), "threads must be at least 1"),
        (lambda: draw_odds("7c5d4h3sKd", "Kd", seed=-1), "seed must satisfy"),
        (lambda: equity(["7c5d4h3sKd"], draws_left=1), "2 to 6 hands, got 1"),
        (lambda: equity([None] * 7, draws_left=1), "2 to 6 hands, got 7"),
        (
            lambda: equity(["7c5d4h3sKd", "7c6d5h4s2c"], draws_left=1),
            "card 7c is both in hand 1 and in hand 2",
        ),
        (lambda: equity(["7c5d4h3sKd", None], draws_left=4), "at most 3 draws"),
        (lambda: equity(["7c5d4h3sKd", "8c6d5h"], draws_left=1), "hand 2 has 3 cards"),
        (
            lambda: equity(
                ["7c5d4h3sKd", None], draws_left=1, strategies=[Strategy.discard("2c"), None]
            ),
            "cannot discard 2c: it is not in hand 1",
        ),
        (
            lambda: equity([None, None], draws_left=1, strategies=[None]),
            "strategies has 1 entries for 2 hands",
        ),
        (
            lambda: equity([None] * 6, draws_left=0, dead=unseen([])[:30]),
            "more cards than the deck holds",
        ),
        (lambda: best_discard("7c5d4h3sKd", target="8", opponents=[None]), "not both"),
        (lambda: best_discard("7c5d4h3sKd", draws_left=0), "draws_left must be 1 to 3"),
        (lambda: best_discard("7c5d4h3sKd", opponents=[]), "1 to 5 opponents"),
        (
            lambda: best_discard("7c5d4h3sKd", opponents=["7c6d5h4s2c"]),
            "card 7c is both in the hand and in opponent 1",
        ),
        (lambda: best_discard("7c5d4h3sKd", target=0), "hand rank runs from 1"),
        (lambda: Strategy.rule(keep="6"), "needs an explicit pat"),
        (lambda: Strategy.rule(keep="X"), "keep must be a card rank"),
        (lambda: Strategy.discard("Kd", then=Strategy.discard("7c")), "not another fixed discard"),
        (lambda: as_rank("7-4"), "there is no 7-4 low"),
        (lambda: as_rank("5-7"), "not a low"),
    ],
)
def test_impossible_requests_raise_analysis_error(call, message: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(AnalysisError, match=message) as info:
        call()
    assert isinstance(info.value, ValueError)


def test_bad_cards_and_types() -> None:
    with pytest.raises(CardError):
        draw_odds("7c5d4h3sKx", "Kd")
    with pytest.raises(CardError):
        draw_odds("7c5d4h3sKd", "Kd Kd")
    with pytest.raises(TypeError):
        draw_odds("7c5d4h3sKd", "Kd", seed=True)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        equity("7c5d4h3sKd", draws_left=1)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        equity(["7c5d4h3sKd", None], draws_left=1, strategies=["rule", None])  # type: ignore[list-item]


def test_examples_in_the_docstrings() -> None:
    failures, tried = doctest.testmod(analysis, optionflags=doctest.ELLIPSIS)
    assert tried > 10 and failures == 0


def test_probabilities_of_a_sure_thing_are_exactly_one() -> None:
    """A hand that wins every outcome has equity 1, not 1.0000000000000007: the exact
    enumeration sums the outcomes' weights, and rounding carried the sum past 1 (the hand
    review's documents were then refused by their own schema: equity must be <= 1). Found
    by reviewing random hands. The same holds for a target every outcome reaches."""
    for discard in ("Qd", "Ac", "8d", "6c", "2s"):
        r = analysis.equity(
            ["2sQdAc8d6c", "4h2hQs2c4d"],
            draws_left=1,
            strategies=[
                analysis.Strategy.discard(discard, then=analysis.Strategy.rule()),
                analysis.Strategy.stand_pat(),
            ],
        )
        assert r.exact and (r[0].win, r[0].equity, r[1].equity) == (1.0, 1.0, 0.0)
    for draws in (1, 2):
        for choice in analysis.best_discard("2sQdAc8d6c", draws_left=draws, target="A"):
            assert 0.0 <= choice.score <= 1.0
        odds = analysis.draw_odds("2sQdAc8d6c", "Qd", draws=draws)
        assert odds.exact and 1 - 1e-12 < odds.p_at_most(7462) <= 1.0  # (any hand at all)
