"""Solve the smallest reduced game (``variant = "tiny"``) with three OpenSpiel solvers.

Prints the members of the family of reduced games (their parameters, and the information
sets and histories of those small enough to walk in full), then runs CFR+ (OpenSpiel's
C++ solver), external-sampling MCCFR and CFR (vanilla, C++) on tiny, printing the
exploitability of each solver's average policy (chips, and big blinds: tiny's big blind
is 2 chips) at a few iterations with the seconds spent solving (the evaluations not
counted), and writes a plot of exploitability against iterations (a PNG)::

    python examples/reduced_games_solvers.py [--out docs/img/reduced_games_exploitability.png]
        [--iterations 60] [--mccfr-iterations 20000] [--count small]

Needs the OpenSpiel extra and matplotlib (``pip install 'triple_draw[openspiel]'
matplotlib``; matplotlib is imported only to draw the plot). A full run takes a few
minutes on one core: each exploitability evaluation walks tiny's whole tree (~8 s).
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import pyspiel
from open_spiel.python.algorithms import exploitability as pyexploitability
from open_spiel.python.algorithms import external_sampling_mccfr

import triple_draw.envs.openspiel as tdo

GAME = "python_triple_draw"


def count(game: Any) -> tuple[int, int, int]:
    """(information sets, decision histories, all histories: chance and terminal
    included) of ``game``, by a walk of its whole tree."""
    infos: set[str] = set()
    decisions = histories = 0
    stack = [game.new_initial_state()]
    while stack:
        s = stack.pop()
        histories += 1
        if s.is_terminal():
            continue
        if s.is_chance_node():
            actions = [a for a, _p in s.chance_outcomes()]
        else:
            decisions += 1
            infos.add(s.information_state_string())
            actions = s.legal_actions()
        for a in actions:
            stack.append(s.child(a))
    return len(infos), decisions, histories


def checkpoints(n: int) -> list[int]:
    """The iterations at which a run is evaluated: about ten, spread on a log scale."""
    out = sorted({max(1, round(n ** (k / 9))) for k in range(10)} | {n})
    return [i for i in out if i <= n]


def run(
    name: str, step: Any, average: Any, game: Any, n: int, evaluate: Any = None
) -> list[tuple[int, float, float]]:
    """Iterate ``step`` ``n`` times; at each checkpoint the exploitability (chips) of
    ``average()`` and the seconds spent solving so far."""
    rows = []
    spent = 0.0
    done = 0
    for it in checkpoints(n):
        t = time.perf_counter()
        while done < it:
            step()
            done += 1
        spent += time.perf_counter() - t
        e = (evaluate or pyspiel.exploitability)(game, average())
        rows.append((it, spent, e))
        print(f"{name:>8} {it:>7} {spent:>8.1f} s {e:>10.5f} chips {e / 2:>9.5f} bb", flush=True)
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default="docs/img/reduced_games_exploitability.png")
    ap.add_argument("--iterations", type=int, default=60, help="CFR+ and CFR iterations")
    ap.add_argument("--mccfr-iterations", type=int, default=20000)
    ap.add_argument(
        "--count",
        default="tiny",
        help="the members to count by a full walk, separated by commas (default tiny; "
        "small takes minutes)",
    )
    args = ap.parse_args()

    walk = set(args.count.split(","))
    print("member   deck_ranks deck_suits hand_size draws raise_cap  info sets  histories")
    for v, p in tdo.VARIANTS.items():
        g = pyspiel.load_game(GAME, {"variant": v})
        sizes = "too many to count"
        if v in walk:
            infos, _decisions, histories = count(g)
            sizes = f"{infos:>9} {histories:>10}"
        print(
            f"{v:<8} {p['deck_ranks']:>10} {p['deck_suits']:>10} {p['hand_size']:>9} "
            f"{p['draws']:>5} {p['raise_cap']:>9}  {sizes}"
        )

    game = pyspiel.load_game(GAME, {"variant": "tiny"})
    uniform = pyspiel.exploitability(game, pyspiel.UniformRandomPolicy(game))
    print(f"\ntiny: uniform random play is exploitable by {uniform:.4f} chips "
          f"({uniform / 2:.4f} bb); 0.01 bb = 0.02 chips")
    print("  solver    iter   solving   exploitability")
    results: dict[str, list[tuple[int, float, float]]] = {}
    cfrp = pyspiel.CFRPlusSolver(game)
    results["CFR+"] = run(
        "CFR+", cfrp.evaluate_and_update_policy, cfrp.average_policy, game, args.iterations
    )
    below = [r for r in results["CFR+"] if r[2] / 2 < 0.01]
    if below:
        print(f"CFR+ below 0.01 bb at checkpoint {below[0][0]} ({below[0][1]:.1f} s solving)")
    cfr = pyspiel.CFRSolver(game)
    results["CFR"] = run(
        "CFR", cfr.evaluate_and_update_policy, cfr.average_policy, game, args.iterations
    )
    es = external_sampling_mccfr.ExternalSamplingSolver(game)

    results["ES-MCCFR"] = run(
        "ES-MCCFR", es.iteration, es.average_policy, game, args.mccfr_iterations,
        pyexploitability.exploitability,
    )

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.5))
    for name, rows in results.items():
        ax.loglog([r[0] for r in rows], [r[2] / 2 for r in rows], marker="o", label=name)
    ax.axhline(0.01, color="grey", linestyle="--", label="0.01 bb")
    ax.axhline(uniform / 2, color="grey", linestyle=":", label="uniform random")
    ax.set_xlabel("iterations")
    ax.set_ylabel("exploitability (big blinds)")
    ax.set_title('python_triple_draw, variant "tiny"')
    ax.legend()
    fig.tight_layout()
    fig.savefig(args.out, dpi=100)
    print(f"\nplot written to {args.out}")


if __name__ == "__main__":
    main()
