"""``triple-draw review``: a player's own hands reviewed (:mod:`triple_draw.review`): each
of his draws against ``best_discard``, his equity at each street of his showdowns, his
results by position and number of opponents, his draw frequencies next to the reference
bots'; as a terminal report, ``--json`` (schema ``triple_draw/schema/review.v1.json``) or
``--html OUT`` (one self-contained file with plots, the ``review`` extra)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

__all__ = ["add_review_parser", "review_command"]


def add_review_parser(sub: Any, int_range: Any, seed: Any) -> None:
    r = sub.add_parser(
        "review",
        help="review a player's hands: his draws against the best discard, his showdowns",
        description="Review one player's hands from site hand histories (PokerStars, Full "
        "Tilt Poker, Winamax) or PHH files: each of his draws against best_discard with "
        "what he knew (the cost in the chance of finishing with the target hand, which "
        "ignores the betting), his equity at each street of each showdown against the "
        "hands shown, his net in big bets per 100 hands by position and by number of "
        "opponents, his draw frequencies next to the reference bots', the costliest draws.",
        epilog="Example: triple-draw review HH*.txt --hero alice --html review.html",
    )
    r.add_argument("files", nargs="+", metavar="FILE", help="a hand-history or PHH file")
    r.add_argument("--hero", required=True, metavar="NAME", help="the player to review")
    r.add_argument("--json", action="store_true", help="print the review as JSON on stdout")
    r.add_argument(
        "--html", default=None, metavar="OUT", help="write a self-contained HTML report with plots"
    )
    r.add_argument(
        "--threads",
        type=int_range(1, 256),
        default=1,
        help="analyses run on this many threads (1 to 256; default 1)",
    )
    r.add_argument(
        "--target",
        default="8",
        help="the hand a draw aims at: a low like '8' (default) or '9-7', or better",
    )
    r.add_argument(
        "--trials",
        type=int_range(1, 10_000_000),
        default=None,
        help="trials per choice for the sampled decisions (two or three draws left; default 2000)",
    )
    r.add_argument("--seed", type=seed, default=0, help="seed of the sampling (default 0)")
    r.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    r.set_defaults(func=review_command)


def review_command(args: argparse.Namespace) -> int:
    from triple_draw._cli_common import UsageError
    from triple_draw.histories._text import check_path
    from triple_draw.review import DEFAULT_TRIALS, review

    if not args.hero.strip():
        raise UsageError("--hero: give a player's name")
    for f in args.files:  # every file is there before the first is read
        check_path(f)
    html = None
    if args.html is not None:
        html = Path(args.html)
        if html.is_dir():
            raise UsageError(f"--html {args.html}: is a directory")
        if not html.resolve().parent.is_dir():
            raise UsageError(f"--html {args.html}: no directory {str(html.parent)!r}")
        from triple_draw._review_html import require_plotting

        require_plotting()
    result = review(
        args.files,
        args.hero,
        target=args.target,
        trials=args.trials if args.trials is not None else DEFAULT_TRIALS,
        seed=args.seed,
        threads=args.threads,
        progress=not args.no_progress and sys.stderr.isatty(),
    )
    if html is not None:
        from triple_draw._review_html import write_html

        try:
            write_html(result, html)
        except OSError as e:
            raise UsageError(f"--html {args.html}: cannot be written ({e.strerror or e})") from None
    if args.json:
        sys.stdout.write(json.dumps(result.to_dict(), indent=2) + "\n")
    else:
        sys.stdout.write("\n".join(result.lines()) + "\n")
        if html is not None:
            sys.stdout.write(f"\nHTML report written to {html}\n")
    return 0
