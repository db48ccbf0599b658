"""Benchmark of the game engine: complete 6-max hands under a uniformly random policy.

The policy (the same one PokerKit was timed with): at a draw each card is discarded with
probability 0.4; at a betting decision pick uniformly among check-or-call, fold (only
when facing a bet) and bet-or-raise (when allowed). The policy code is inside the timing.

    pytest benches/bench_game.py                 # pytest-benchmark
    python benches/bench_game.py [hands]         # plain perf_counter loop, prints hands/s
    python benches/bench_game.py views [hands]   # cost of view(actor) at every decision

Target: >= 25,000 hands/s on one core (PokerKit 0.7.7: about 540 hands/s).
"""

from __future__ import annotations

import random
import sys
import time

from triple_draw.game import Hand, Rules

STACKS = [200] * 6  # 100 big blinds each, 1/2 blinds, 2/4 limits
BATCH = 2000


def play_hands(
    rules: Rules, n_hands: int, seed0: int = 0, policy_seed: int = 0, core: object = None
) -> int:
    """Play ``n_hands`` complete hands; returns the number of decisions made."""
    rnd = random.Random(policy_seed).random
    decisions = 0
    for i in range(seed0, seed0 + n_hands):
        h = Hand(rules, STACKS, i % 6, i, core=core)
        while True:
            s = h.actor
            if s is None:
                break
            if h.in_draw:
                h.discard([c for c in h.hole_ids(s) if rnd() < 0.4])
            else:
                facing = h.facing_bet
                can_raise = h.can_bet_or_raise()
                x = int(rnd() * (1 + facing + can_raise))
                if x == 0:
                    h.check_or_call()
                elif facing and x == 1:
                    h.fold()
                else:
                    h.bet_or_raise()
            decisions += 1
    return decisions


def play_hands_generic(
    rules: Rules, n_hands: int, seed0: int = 0, policy_seed: int = 0, core: object = None
) -> int:
    """The same policy through the generic agent API: ``legal_actions()``, pick one of the
    listed actions, ``apply()`` it. At a draw the policy draws one random bit per held
    card (thrown with probability 0.4) and takes the listed discard of that bit mask
    (item ``m`` of the discard choices throws the cards at the set bits of ``m``); at a
    betting decision it picks uniformly among check-or-call, fold (only facing a bet) and
    bet-or-raise (when listed). Returns the number of decisions made."""
    rnd = random.Random(policy_seed).random
    decisions = 0
    for i in range(seed0, seed0 + n_hands):
        h = Hand(rules, STACKS, i % 6, i, core=core)
        while h.actor is not None:
            legal = h.legal_actions()
            if h.in_draw:  # one random bit per held card: thrown with probability 0.4
                h.apply(
                    legal[
                        (rnd() < 0.4)
                        | (rnd() < 0.4) << 1
                        | (rnd() < 0.4) << 2
                        | (rnd() < 0.4) << 3
                        | (rnd() < 0.4) << 4
                    ]
                )
            else:
                facing = legal[1].kind == "call"
                x = int(rnd() * (len(legal) - 1 + facing))
                if x == 0:
                    h.apply(legal[1])
                elif facing and x == 1:
                    h.apply(legal[0])
                else:
                    h.apply(legal[2])
            decisions += 1
    return decisions


def _record_rate(benchmark, hands: int) -> None:  # type: ignore[no-untyped-def]
    if benchmark.stats:  # None under --benchmark-disable
        benchmark.extra_info["hands_per_second"] = round(hands / benchmark.stats.stats.min)


def test_bench_6max_random_hands_live_rules(benchmark):
    rules = Rules()
    benchmark.extra_info["hands_per_round"] = BATCH
    benchmark.pedantic(play_hands, args=(rules, BATCH), rounds=10, iterations=1, warmup_rounds=1)
    _record_rate(benchmark, BATCH)


def test_bench_6max_random_hands_online_rules(benchmark):
    rules = Rules.online()
    benchmark.pedantic(play_hands, args=(rules, BATCH), rounds=10, iterations=1, warmup_rounds=1)
    _record_rate(benchmark, BATCH)


def test_bench_6max_generic_agent_loop(benchmark):
    """legal_actions() + apply() with the same policy (issue target: >= 20,000 hands/s)."""
    rules = Rules()
    benchmark.pedantic(
        play_hands_generic, args=(rules, BATCH), rounds=10, iterations=1, warmup_rounds=1
    )
    _record_rate(benchmark, BATCH)


def _recorded_hands(n_hands: int) -> list[tuple[int, list[tuple[int, object]]]]:
    """The decisions of ``n_hands`` random 6-max hands, to replay: (seed, [(op, arg)])."""
    rnd = random.Random(1).random
    out = []
    for i in range(n_hands):
        h = Hand(Rules(), STACKS, i % 6, i)
        ops: list[tuple[int, object]] = []
        while h.actor is not None:
            if h.in_draw:
                cards = [c for c in h.hole_ids(h.actor) if rnd() < 0.4]
                ops.append((0, cards))
                h.discard(cards)
            elif rnd() < 0.7 or not h.can_bet_or_raise():
                ops.append((1, None))
                h.check_or_call()
            else:
                ops.append((2, None))
                h.bet_or_raise()
        out.append((i, ops))
    return out


def replay(recorded: list[tuple[int, list[tuple[int, object]]]], view: bool) -> int:
    """Replay the recorded hands; with ``view``, take the actor's ``view(seat)`` before each
    decision, as an agent loop does. Returns the number of decisions."""
    rules = Rules()
    n = 0
    for i, ops in recorded:
        h = Hand(rules, STACKS, i % 6, i)
        for op, arg in ops:
            if view:
                h.view(h.actor)
            if op == 0:
                h.discard(arg)
            elif op == 1:
                h.check_or_call()
            else:
                h.bet_or_raise()
        n += len(ops)
    return n


def view_cost_us(recorded: list[tuple[int, list[tuple[int, object]]]], runs: int = 5) -> float:
    """Microseconds per ``view(actor)`` in play: best replay with views minus best without
    (CPU time, interleaved)."""
    best = {False: float("inf"), True: float("inf")}
    n = 1
    for _ in range(runs):
        for v in (False, True):
            t = time.process_time()
            n = replay(recorded, v)
            best[v] = min(best[v], time.process_time() - t)
    return (best[True] - best[False]) / n * 1e6


def test_bench_view_6max(benchmark):
    """``view(seat)`` of the actor at every decision of 6-max random hands as they are
    played (target: <= 3 us on average; each view is of a new point of the hand, so no
    view is served from the per-point cache). Timed: the replay with the views; the cost
    per view (replay with views minus replay without) is in extra_info."""
    recorded = _recorded_hands(200)
    benchmark.pedantic(replay, args=(recorded, True), rounds=10, iterations=1, warmup_rounds=1)
    if benchmark.stats:
        benchmark.extra_info["us_per_view"] = round(view_cost_us(recorded), 2)


def test_bench_6max_random_hands_reference_core(benchmark):
    """The same hands on the pure-Python reference deck/evaluator, for scale."""
    rules = Rules()
    n = BATCH // 4
    benchmark.pedantic(
        play_hands, args=(rules, n), kwargs={"core": "reference"}, rounds=3, iterations=1
    )
    _record_rate(benchmark, n)


def main_views(n_hands: int = 1000) -> None:
    """The cost of ``view(actor)`` at every decision, in play (``python bench_game.py
    views``)."""
    recorded = _recorded_hands(n_hands)
    replay(recorded, True)
    n = sum(len(ops) for _, ops in recorded)
    print(f"{n} decisions in {n_hands} hands: view(actor) costs {view_cost_us(recorded):.2f} us")


def main(n_hands: int = 20000) -> None:
    """Best of 5 runs: wall-clock (perf_counter) and CPU time of this process (which a
    busy shared machine disturbs less)."""
    rules = Rules()
    play_hands(rules, 500)  # warm up
    runs = n_hands // 5
    wall = cpu = float("inf")
    for rep in range(5):
        t, c = time.perf_counter(), time.process_time()
        decisions = play_hands(rules, runs, seed0=rep * runs)
        wall = min(wall, time.perf_counter() - t)
        cpu = min(cpu, time.process_time() - c)
    print(
        f"{runs} hands x 5 runs, {decisions / runs:.1f} decisions per hand; best run: "
        f"{runs / wall:,.0f} hands/s wall ({wall / runs * 1e6:.1f} us per hand), "
        f"{runs / cpu:,.0f} hands/s CPU ({cpu / runs * 1e6:.1f} us per hand)"
    )


if __name__ == "__main__":
    if sys.argv[1:2] == ["views"]:
        main_views(*map(int, sys.argv[2:3]))
    else:
        main(int(sys.argv[1]) if len(sys.argv) > 1 else 20000)
