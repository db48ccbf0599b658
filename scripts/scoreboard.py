"""The docs' table of reference scores: every package bot against every other, head-to-head
on duplicate deals (:func:`triple_draw.evaluation.round_robin`), in big blinds per 100
hands with the half width of the 95% interval.

    python scripts/scoreboard.py                      # the table in docs/simulation.md
    python scripts/scoreboard.py --hands 2000 --bots random,call,heuristic

Every pair plays the same deals (the same seed). Prints a Markdown table on stdout and
the progress on stderr; the equity bot plays a few hundred hands a second, the others
thousands.
"""

from __future__ import annotations

import argparse
import sys
import time

from triple_draw.bots import BOTS
from triple_draw.evaluation import MatchResult, round_robin


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=10_000, help="hands per match (default 10000)")
    ap.add_argument("--seed", type=int, default=1, help="the seed of every match (default 1)")
    ap.add_argument(
        "--bots",
        default=",".join(BOTS),
        help=f"comma-separated bots (default every package bot: {','.join(BOTS)})",
    )
    args = ap.parse_args()
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    t0 = time.perf_counter()

    def progress(label: str, m: MatchResult) -> None:
        e = m[0]
        sys.stderr.write(
            f"{label}: {e.bb_per_100:+.1f} ± {e.ci95_half_width:.1f} bb/100 "
            f"({m.hands} hands, {m.elapsed:.0f} s)\n"
        )

    rr = round_robin(bots, args.hands, seed=args.seed, progress=progress)
    print(rr.table())
    print()
    print(
        f"{args.hands} hands a match ({args.hands // 2} duplicate deals x 2 seatings), "
        f"seed {args.seed}: `python scripts/scoreboard.py --hands {args.hands} "
        f"--seed {args.seed}` ({time.perf_counter() - t0:.0f} s)"
    )


if __name__ == "__main__":
    main()
