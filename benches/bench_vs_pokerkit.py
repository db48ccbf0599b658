"""triple_draw against PokerKit, both timed in the same run (the machine is shared and noisy:
quote the RATIOS of one run, not figures from different runs).

    python benches/bench_vs_pokerkit.py                   # prints the table (~30-60 s)
    pytest benches/bench_vs_pokerkit.py --benchmark-only  # pytest-benchmark (CPU-time timer)

1. 2-7 evaluation of five-card hands, on the same random hands: PokerKit's deuce-to-seven
   low hand class (``StandardLowHand``, the hand type of its
   ``FixedLimitDeuceToSevenLowballTripleDraw``) built from card strings, reading the
   hand's strength (``.entry``, what its comparisons use) - against ``triple_draw.evaluate``
   on the same strings, on id lists, ``rank_ids`` and ``evaluate_batch`` (1 thread).
   Both engines must ORDER those hands identically (asserted: PokerKit through its own
   ``<``/``==`` on hand objects).
2. Complete 6-max hands (stacks 200, blinds 1/2, limits 2/4) under the uniform random
   policy of benches/bench_game.py: at a draw each card is discarded with probability 0.4;
   at a betting decision uniformly among check-or-call, fold (only when facing a bet) and
   bet-or-raise (when allowed). PokerKit deals, burns, collects, shows down and pushes
   chips with its automations (as in tests/test_pokerkit_roundtrip.py); the policy code is
   inside the timing for both. Ours plays PokerKit's betting rules (4 raises counted
   without the big blind, only a full raise reopens: the round-trip test's POKERKIT_LIKE),
   and the default ``Rules()`` for reference.

Timing: CPU time of this process (``time.process_time``), best of N runs, the engines
interleaved run by run so both see the same machine conditions.
"""

from __future__ import annotations

import itertools
import random
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

import triple_draw as td
from triple_draw import Discard, Hand
from triple_draw.game import Rules

# The random policy and our side of the game loop are bench_game's own (same directory).
sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_game import STACKS, play_hands, play_hands_generic

try:  # PokerKit is the bar, not a dependency: the module is skipped without it
    from pokerkit import Automation, Mode, StandardLowHand
    from pokerkit import FixedLimitDeuceToSevenLowballTripleDraw as PkTripleDraw
except ImportError:  # pragma: no cover
    if __name__ == "__main__":
        sys.exit("PokerKit is not installed (pip install pokerkit)")
    pytest.skip("PokerKit is not installed", allow_module_level=True)

RANKS, SUITS = "23456789TJQKA", "cdhs"

N_EVAL = 10_000  # random hands for the evaluation benchmark (PokerKit: ~12 us each)
PK_HANDS = 500  # complete hands per PokerKit run (PokerKit: ~2 ms a hand)
OUR_HANDS = 5_000  # complete hands per run of ours
RUNS = 7  # best of

#: Our rules matching PokerKit's fixed-limit betting (docs/interop-phh.md: *Where
#: PokerKit's rules differ from ours*)
POKERKIT_LIKE = Rules.pokerkit()

PK_AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.CARD_BURNING,
    Automation.HOLE_DEALING,
    Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
)
PK_GAME = PkTripleDraw(PK_AUTOMATIONS, True, 0, (1, 2), 2, 4, mode=Mode.CASH_GAME)


# -- the hands to evaluate -----------------------------------------------------------------------


def random_hands(n: int, seed: int = 1) -> tuple[list[str], list[list[int]], np.ndarray]:
    """``n`` random five-card hands: as strings ("7h5d4c3s2h"), id lists, uint8 (n, 5)."""
    rng = random.Random(seed)
    ids = [rng.sample(range(52), 5) for _ in range(n)]
    strs = ["".join(RANKS[c >> 2] + SUITS[c & 3] for c in h) for h in ids]
    return strs, ids, np.array(ids, dtype=np.uint8)


def check_same_order(strs: list[str], ids: list[list[int]], batch: np.ndarray) -> int:
    """Assert both engines order the hands identically (PokerKit: its own comparisons of
    hand objects, stronger = greater; ours: rank, smaller = stronger), ties included.
    Also that our three entry points agree. Returns the number of distinct classes seen."""
    ours = [td.evaluate(s).rank for s in strs]
    assert ours == [td.evaluate(h).rank for h in ids] == [td.rank_ids(h) for h in ids]
    assert ours == td.evaluate_batch(batch, threads=1).tolist()
    pk = [StandardLowHand(s) for s in strs]
    order = sorted(range(len(strs)), key=lambda i: pk[i], reverse=True)  # strongest first
    for a, b in itertools.pairwise(order):
        assert pk[a] != pk[b] or ours[a] == ours[b], (strs[a], strs[b])
        assert pk[a] == pk[b] or ours[a] < ours[b], (strs[a], strs[b])
    return len(set(ours))


# -- evaluation loops (one call = every hand once) -----------------------------------------------


def eval_pokerkit(strs: list[str]) -> list[object]:
    return [StandardLowHand(s).entry for s in strs]


def eval_ours_str(strs: list[str]) -> list[td.HandRank]:
    ev = td.evaluate
    return [ev(s) for s in strs]


def eval_ours_ids(ids: list[list[int]]) -> list[td.HandRank]:
    ev = td.evaluate
    return [ev(h) for h in ids]


def eval_ours_rank_ids(ids: list[list[int]]) -> list[int]:
    rk = td.rank_ids
    return [rk(h) for h in ids]


def eval_ours_batch(batch: np.ndarray, repeat: int = 1) -> np.ndarray:
    for _ in range(repeat):
        out = td.evaluate_batch(batch, threads=1)
    return out


# -- complete hands ------------------------------------------------------------------------------


def play_pokerkit(n_hands: int, policy_seed: int = 0) -> int:
    """PokerKit plays ``n_hands`` complete hands; returns the number of decisions."""
    random.seed(policy_seed)  # PokerKit shuffles its deck with the random module
    rnd = random.Random(policy_seed).random
    decisions = 0
    with warnings.catch_warnings():
        # "Returning reserved (mucked, etc.) cards as dealable": its reshuffle, informational
        warnings.simplefilter("ignore")
        for _ in range(n_hands):
            st = PK_GAME(STACKS, 6)
            while st.status:
                d = st.stand_patter_or_discarder_index
                if d is not None:
                    st.stand_pat_or_discard([c for c in st.hole_cards[d] if rnd() < 0.4])
                else:
                    facing = bool(st.checking_or_calling_amount)
                    can_raise = st.can_complete_bet_or_raise_to()
                    x = int(rnd() * (1 + facing + can_raise))
                    if x == 0:
                        st.check_or_call()
                    elif facing and x == 1:
                        st.fold()
                    else:
                        st.complete_bet_or_raise_to()
                decisions += 1
    return decisions


def play_ours(
    n_hands: int, rules: Rules = POKERKIT_LIKE, seed0: int = 0, policy_seed: int = 0
) -> int:
    """Ours plays ``n_hands`` complete hands with bench_game's policy; returns decisions."""
    return play_hands(rules, n_hands, seed0, policy_seed)


def play_ours_generic(
    n_hands: int, rules: Rules = POKERKIT_LIKE, seed0: int = 0, policy_seed: int = 0
) -> int:
    """Ours through the generic agent API (``legal_actions()`` + ``apply()``), the same
    policy chosen from the listed actions; returns decisions."""
    return play_hands_generic(rules, n_hands, seed0, policy_seed)


def play_ours_natural(
    n_hands: int, rules: Rules = POKERKIT_LIKE, seed0: int = 0, policy_seed: int = 0
) -> int:
    """Ours driven as a user writes a random agent (issue #21 §6): at a draw a
    ``Discard`` of the ``Card`` objects of ``hole_cards`` kept with probability 0.6, else
    ``rng.choice`` among ``legal_actions()`` (without the fold when not facing a bet);
    returns decisions."""
    rng = random.Random(policy_seed)
    rnd = rng.random
    choice = rng.choice
    decisions = 0
    for i in range(seed0, seed0 + n_hands):
        hand = Hand(rules, STACKS, i % 6, i)
        while (seat := hand.actor) is not None:
            if hand.in_draw:
                hand.apply(Discard([c for c in hand.hole_cards(seat) if rnd() < 0.4]))
            else:
                legal = hand.legal_actions()
                if not hand.facing_bet:
                    legal = [a for a in legal if a.kind != "fold"]
                hand.apply(choice(legal))
            decisions += 1
    return decisions


# -- pytest-benchmark ----------------------------------------------------------------------------
# Every benchmark of a group does the same work per round (all N_EVAL hands; GAME_ROUND
# complete hands), so pytest-benchmark's relative figures in parentheses are the ratios.

GAME_ROUND = 100
cpu_eval = pytest.mark.benchmark(group="2-7 evaluation, 10k hands", timer=time.process_time)
cpu_game = pytest.mark.benchmark(
    group=f"6-max random hands, {GAME_ROUND} hands", timer=time.process_time
)


@pytest.fixture(scope="module")
def hands() -> tuple[list[str], list[list[int]], np.ndarray]:
    h = random_hands(N_EVAL)
    check_same_order(*h)  # here too, so --benchmark-only still cross-checks
    return h


def test_both_engines_order_the_hands_identically(hands) -> None:  # type: ignore[no-untyped-def]
    assert check_same_order(*hands) > 1000


@cpu_eval
def test_eval_pokerkit_standard_low_hand_str(benchmark, hands) -> None:  # type: ignore[no-untyped-def]
    benchmark.pedantic(eval_pokerkit, args=(hands[0],), rounds=3, iterations=1)


@cpu_eval
def test_eval_ours_evaluate_str(benchmark, hands) -> None:  # type: ignore[no-untyped-def]
    benchmark.pedantic(eval_ours_str, args=(hands[0],), rounds=20, iterations=1)


@cpu_eval
def test_eval_ours_evaluate_ids(benchmark, hands) -> None:  # type: ignore[no-untyped-def]
    benchmark.pedantic(eval_ours_ids, args=(hands[1],), rounds=20, iterations=1)


@cpu_eval
def test_eval_ours_rank_ids(benchmark, hands) -> None:  # type: ignore[no-untyped-def]
    benchmark.pedantic(eval_ours_rank_ids, args=(hands[1],), rounds=20, iterations=1)


@cpu_eval
def test_eval_ours_evaluate_batch_1_thread(benchmark, hands) -> None:  # type: ignore[no-untyped-def]
    benchmark.pedantic(eval_ours_batch, args=(hands[2],), rounds=200, iterations=1)


@cpu_game
def test_game_pokerkit(benchmark) -> None:  # type: ignore[no-untyped-def]
    benchmark.pedantic(play_pokerkit, args=(GAME_ROUND,), rounds=3, iterations=1)


@cpu_game
def test_game_ours_pokerkit_like_rules(benchmark) -> None:  # type: ignore[no-untyped-def]
    benchmark.pedantic(play_ours, args=(GAME_ROUND,), rounds=20, iterations=1, warmup_rounds=1)


@cpu_game
def test_game_ours_generic_agent_loop(benchmark) -> None:  # type: ignore[no-untyped-def]
    benchmark.pedantic(
        play_ours_generic, args=(GAME_ROUND,), rounds=20, iterations=1, warmup_rounds=1
    )


@cpu_game
def test_game_ours_natural_agent_loop(benchmark) -> None:  # type: ignore[no-untyped-def]
    """The random agent as a user writes it: ``Discard`` of ``hole_cards``, ``rng.choice``
    among ``legal_actions()`` (issue target: at least 40x PokerKit in one run)."""
    benchmark.pedantic(
        play_ours_natural, args=(GAME_ROUND,), rounds=20, iterations=1, warmup_rounds=1
    )


@cpu_game
def test_game_ours_default_rules(benchmark) -> None:  # type: ignore[no-untyped-def]
    benchmark.pedantic(
        play_ours, args=(GAME_ROUND, Rules()), rounds=20, iterations=1, warmup_rounds=1
    )


# -- script: one table ---------------------------------------------------------------------------


def best_cpu(runs: dict[str, Callable[[], object]], n: int) -> dict[str, float]:
    """Best-of-``n`` CPU seconds of each callable, the callables interleaved run by run."""
    best = dict.fromkeys(runs, float("inf"))
    for _ in range(n):
        for name, f in runs.items():
            t = time.process_time()
            f()
            best[name] = min(best[name], time.process_time() - t)
    return best


def main() -> None:
    t_start = time.process_time()
    w_start = time.perf_counter()
    strs, ids, batch = random_hands(N_EVAL)
    classes = check_same_order(strs, ids, batch)

    rep = 50  # evaluate_batch: the same 10k hands 50 times per run (0.5 M evaluations)
    ev = best_cpu(
        {
            "pk": lambda: eval_pokerkit(strs),
            "str": lambda: eval_ours_str(strs),
            "ids": lambda: eval_ours_ids(ids),
            "rank_ids": lambda: eval_ours_rank_ids(ids),
            "batch": lambda: eval_ours_batch(batch, rep),
        },
        n=RUNS,
    )
    eval_rate = {k: N_EVAL / v for k, v in ev.items()}
    eval_rate["batch"] *= rep

    decisions = {
        "pk": play_pokerkit(PK_HANDS, policy_seed=99) / PK_HANDS,  # also a warm-up
        "ours": play_ours(OUR_HANDS, policy_seed=99) / OUR_HANDS,
        "ours_default": play_ours(OUR_HANDS, Rules(), policy_seed=99) / OUR_HANDS,
        "ours_generic": play_ours_generic(OUR_HANDS, policy_seed=99) / OUR_HANDS,
        "ours_natural": play_ours_natural(OUR_HANDS, policy_seed=99) / OUR_HANDS,
    }
    runs = iter(range(10**6))
    gm = best_cpu(
        {
            "pk": lambda: play_pokerkit(PK_HANDS, policy_seed=next(runs)),
            "ours": lambda: play_ours(OUR_HANDS, seed0=next(runs) * OUR_HANDS),
            "ours_default": lambda: play_ours(OUR_HANDS, Rules(), seed0=next(runs) * OUR_HANDS),
            "ours_generic": lambda: play_ours_generic(OUR_HANDS, seed0=next(runs) * OUR_HANDS),
            "ours_natural": lambda: play_ours_natural(OUR_HANDS, seed0=next(runs) * OUR_HANDS),
        },
        n=RUNS,
    )
    game_rate = {
        "pk": PK_HANDS / gm["pk"],
        "ours": OUR_HANDS / gm["ours"],
        "ours_default": OUR_HANDS / gm["ours_default"],
        "ours_generic": OUR_HANDS / gm["ours_generic"],
        "ours_natural": OUR_HANDS / gm["ours_natural"],
    }

    from importlib.metadata import version

    pk_v, td_v = version("pokerkit"), td.__version__
    lines = [
        f"triple_draw {td_v} vs PokerKit {pk_v}, Python {sys.version.split()[0]}; CPU time "
        f"(time.process_time) of this process, best of {RUNS} runs, engines interleaved",
        "",
        f"1. 2-7 evaluation, {N_EVAL:,} random 5-card hands (same hands for all rows)",
        f"   {'engine / call':<52}{'evals/s':>14}{'ns/eval':>10}{'vs PokerKit':>13}",
    ]
    rows = [
        ("pk", "PokerKit StandardLowHand(str).entry"),
        ("str", "triple_draw.evaluate(str)"),
        ("ids", "triple_draw.evaluate(id list)"),
        ("rank_ids", "triple_draw.rank_ids(id list)"),
        ("batch", "triple_draw.evaluate_batch(uint8 (N,5), threads=1)"),
    ]
    for key, label in rows:
        r = eval_rate[key]
        lines.append(f"   {label:<52}{r:>14,.0f}{1e9 / r:>10.1f}{r / eval_rate['pk']:>12,.0f}x")
    lines += [
        f"   order cross-check: both engines order the {N_EVAL:,} hands identically "
        f"({classes:,} distinct classes, ties included) - asserted",
        "",
        "2. complete 6-max hands, uniform random policy (discard p=0.4; check-call / fold "
        "if facing / bet-raise if allowed),",
        "   stacks 200, blinds 1/2, limits 2/4; policy inside the timing; PokerKit with its "
        "dealing/collecting/showdown automations",
        f"   {'engine':<52}{'hands/s':>14}{'us/hand':>10}{'vs PokerKit':>13}{'decisions/hand':>16}",
    ]
    grows = [
        ("pk", f"PokerKit State ({PK_HANDS} hands/run)"),
        ("ours", f"triple_draw Hand, PokerKit-like rules ({OUR_HANDS:,}/run)"),
        ("ours_default", f"triple_draw Hand, default Rules() ({OUR_HANDS:,}/run)"),
        ("ours_generic", f"triple_draw legal_actions()+apply(), PokerKit-like ({OUR_HANDS:,})"),
        ("ours_natural", f"triple_draw natural agent loop, PokerKit-like ({OUR_HANDS:,})"),
    ]
    for key, label in grows:
        r = game_rate[key]
        lines.append(
            f"   {label:<52}{r:>14,.0f}{1e6 / r:>10.1f}{r / game_rate['pk']:>12,.1f}x"
            f"{decisions[key]:>16.1f}"
        )
    lines += [
        "",
        f"total: {time.perf_counter() - w_start:.1f} s wall, "
        f"{time.process_time() - t_start:.1f} s CPU",
    ]
    print("\n".join(lines))


if __name__ == "__main__":
    main()
