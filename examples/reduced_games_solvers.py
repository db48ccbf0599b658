"""Solve the smallest reduced game (``variant = "tiny"``) with three OpenSpiel solvers.

Prints the members of the family of reduced games (their parameters, and the exact
number of information sets and histories of each, counted by
:func:`triple_draw.envs.game_size.game_size` without walking the trees), then runs CFR+
(OpenSpiel's C++ solver), external-sampling MCCFR and CFR (vanilla, C++) on tiny,
printing the exploitability of each solver's average policy (chips, and big blinds:
tiny's big blind is 2 chips) at a few iterations with the seconds spent solving (the
evaluations not counted), and writes a plot of exploitability against iterations (a
PNG)::

    python examples/reduced_games_solvers.py [--out docs/img/reduced_games_exploitability.png]
        [--iterations 50] [--mccfr-iterations 50000]

Needs OpenSpiel and matplotlib: ``pip install 'triple_draw[solvers]'`` (matplotlib is
imported only to draw the plot). A full run takes about nine minutes on one core: each
exploitability evaluation walks tiny's whole tree (~9 s), and counting the full game's
information sets takes ~25 s.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

try:
    import matplotlib
    import pyspiel
    from open_spiel.python.algorithms import exploitability as pyexploitability
    from open_spiel.python.algorithms import external_sampling_mccfr
except ModuleNotFoundError as e:  # pragma: no cover - only without the extra
    sys.exit(
        f"reduced_games_solvers.py needs OpenSpiel and matplotlib ({e.name} is missing): "
        "pip install 'triple_draw[solvers]'"
    )

import triple_draw.envs.openspiel as tdo
from triple_draw.envs.game_size import game_size

GAME = "python_triple_draw"


def short(x: int) -> str:
    """``x`` in at most 10 characters: exact up to 10^9, else to three figures."""
    return f"{x:,}" if x < 10**9 else f"{x:.2e}".replace("e+", "e")


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
    ap.add_argument("--iterations", type=int, default=50, help="CFR+ and CFR iterations")
    ap.add_argument("--mccfr-iterations", type=int, default=50000)
    args = ap.parse_args()

    print("member   deck_ranks deck_suits hand_size draws raise_cap  info sets  histories")
    exact = []
    for v, p in tdo.VARIANTS.items():
        g = pyspiel.load_game(GAME, {"variant": v})
        size = game_size(g.rules, g.n, stacks=g.stacks, button=g.button, num_draws=g.num_draws)
        print(
            f"{v:<8} {p['deck_ranks']:>10} {p['deck_suits']:>10} {p['hand_size']:>9} "
            f"{p['draws']:>5} {p['raise_cap']:>9} {short(size.information_sets):>10} "
            f"{short(size.histories):>10}",
            flush=True,
        )
        exact.append(f"{v}: {size.information_sets} information sets, {size.histories} histories")
    print("exactly:", *exact, sep="\n  ")

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
