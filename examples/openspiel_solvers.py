"""OpenSpiel algorithms, unchanged, on the game ``python_triple_draw``.

1. External-sampling MCCFR on a small heads-up game (stacks of 4 chips with 1/2 blinds and
   2/4 limits, one draw: the ``num_draws`` reduction), then its average policy against a
   uniformly random policy over sampled hands.
2. An ISMCTS bot (random rollouts) playing full hands of the real game against the
   package's bots.

    python examples/openspiel_solvers.py                # a few minutes
    python examples/openspiel_solvers.py --iterations 50 --hands 10 --simulations 30

Needs ``pip install 'triple_draw[openspiel]'``.
"""

from __future__ import annotations

import argparse
import math
import random
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import external_sampling_mccfr, ismcts, mcts

import triple_draw.envs.openspiel as tos
from triple_draw.bots import HeuristicBot, RandomBot


def play(game, choose, rng: random.Random) -> list[float]:  # type: ignore[no-untyped-def]
    """One hand: ``choose(state)`` picks each decision, chance outcomes are sampled."""
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
        else:
            state.apply_action(choose(state))
    return state.returns()  # type: ignore[no-any-return]


def mean_se(xs: list[float]) -> tuple[float, float]:
    m = sum(xs) / len(xs)
    var = sum((x - m) ** 2 for x in xs) / max(1, len(xs) - 1)
    return m, math.sqrt(var / len(xs))


def run_mccfr(iterations: int, eval_hands: int, seed: int) -> None:
    game = pyspiel.load_game("python_triple_draw", {"players": 2, "stacks": 4, "num_draws": 1})
    np.random.seed(seed)
    solver = external_sampling_mccfr.ExternalSamplingSolver(game)
    t = time.perf_counter()
    for _ in range(iterations):
        solver.iteration()
    policy = solver.average_policy()
    print(
        f"MCCFR: {iterations} iterations in {time.perf_counter() - t:.1f} s, "
        f"{len(solver._infostates)} information states"
    )
    rng = random.Random(seed)

    def choose(me: int):  # type: ignore[no-untyped-def]
        def pick(state):  # type: ignore[no-untyped-def]
            legal = state.legal_actions()
            if state.current_player() != me:
                return legal[rng.randrange(len(legal))]
            probs = policy.action_probabilities(state)
            actions, weights = zip(*probs.items(), strict=True)
            return rng.choices(actions, weights)[0]

        return pick

    results = [play(game, choose(k % 2), rng)[k % 2] for k in range(eval_hands)]
    m, se = mean_se(results)
    print(f"MCCFR average policy vs uniform random: {m:+.3f} +- {1.96 * se:.3f} chips/hand")


def run_ismcts(hands: int, simulations: int, seed: int) -> None:
    game = pyspiel.load_game("python_triple_draw", {"players": 2, "stacks": 100})
    np_rng = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(1, np_rng)
    bot = ismcts.ISMCTSBot(game, evaluator, 2.0, simulations, random_state=np_rng)
    rng = random.Random(seed)
    bot.set_resampler(lambda state, p: state.resample_from_infostate(p, rng.random))
    for opponent in (RandomBot(seed=seed), HeuristicBot(seed=seed)):
        t = time.perf_counter()
        results = []
        for k in range(hands):
            me = k % 2

            def pick(state, me=me, opponent=opponent):  # type: ignore[no-untyped-def]
                if state.current_player() == me:
                    return bot.step(state)
                return tos.bot_action(state, opponent)

            results.append(play(game, pick, rng)[me])
        m, se = mean_se(results)
        print(
            f"ISMCTS ({simulations} simulations) vs {opponent!r}: {m:+.2f} +- {1.96 * se:.2f} "
            f"chips/hand over {hands} hands ({time.perf_counter() - t:.0f} s)"
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--iterations", type=int, default=200, help="MCCFR iterations")
    ap.add_argument("--eval-hands", type=int, default=2000, help="hands to evaluate MCCFR")
    ap.add_argument("--hands", type=int, default=20, help="ISMCTS hands per opponent")
    ap.add_argument("--simulations", type=int, default=50, help="ISMCTS simulations per move")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    run_mccfr(args.iterations, args.eval_hands, args.seed)
    run_ismcts(args.hands, args.simulations, args.seed)


if __name__ == "__main__":
    main()
