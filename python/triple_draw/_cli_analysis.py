"""``triple-draw equity`` and ``triple-draw discard``: the analysis kernels
(:mod:`triple_draw.analysis`) on the command line.

Strategies are written as short specs (``--strategy``):

========================  ====================================================================
``standard`` / ``rule``   the standard rule: keep eights and better, stand pat on any 8-low
``keep:9``                the standard rule keeping nines and better (pat on any 9-low)
``keep:9:8``              ... keeping nines, but standing pat only on an 8-low or better
``pat``                   never draw
``discard:Kd``            throw exactly Kd at the next draw, then the standard rule
``discard:Kd:pat``        ... then stand pat (``discard::pat``: stand pat now and later)
========================  ====================================================================
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from triple_draw._core import NUM_CLASSES
from triple_draw._text import format_table
from triple_draw._cli_common import UsageError, _print_json

__all__ = [
    "parse_strategy",
    "parse_target",
    "strategy_text",
    "low_text",
    "equity_command",
    "discard_command",
]

T = TypeVar("T")


def parse_strategy(spec: str) -> Any:
    """A :class:`triple_draw.analysis.Strategy` from a command-line spec (see the module doc)."""
    from triple_draw.analysis import Strategy

    s = spec.strip()
    low = s.lower()
    if low in ("standard", "rule", "std", "default"):
        return Strategy.rule()
    if low in ("pat", "stand_pat", "stand-pat", "standpat"):
        return Strategy.stand_pat()
    kind, _, rest = s.partition(":")
    kind = kind.strip().lower()
    if kind == "keep":
        keep, _, pat = rest.partition(":")
        if not keep.strip():
            raise UsageError(f"--strategy {spec!r}: write keep:RANK, e.g. keep:8 or keep:9:8")
        return Strategy.rule(keep=keep.strip(), pat=parse_target(pat) if pat.strip() else None)
    if kind == "discard":
        cards, _, then = rest.partition(":")
        t = then.strip().lower()
        if t in ("", "standard", "rule"):
            after = Strategy.rule()
        elif t in ("pat", "stand_pat"):
            after = Strategy.stand_pat()
        else:
            after = parse_strategy(then)
        return Strategy.discard(cards.strip(), then=after)
    raise UsageError(
        f"unknown strategy {spec!r}: use standard, pat, keep:RANK[:PAT], or discard:CARDS[:pat]"
    )


def parse_target(text: str) -> Any:
    """A target for :func:`~triple_draw.analysis.as_rank`: a low (``8``, ``9-7``, ``T``),
    five cards, ``rank:N``, or a bare number of two or more digits (a rank, except ``10``)."""
    t = text.strip()
    if t.lower().startswith("rank:"):
        t = t[5:].strip()
        if not (t.isascii() and t.isdigit()) or len(t) > 10:
            shown = text if len(text) <= 30 else text[:24] + "..."
            raise UsageError(f"bad rank {shown!r}: write rank:N with N from 1 to {NUM_CLASSES}")
        return int(t)
    if t.isascii() and t.isdigit() and len(t) >= 2 and t != "10":
        if len(t) > 10:
            raise UsageError(f"bad rank {t[:24]}...: a rank is a number from 1 to {NUM_CLASSES}")
        return int(t)
    return t


def _is_low(text: str) -> bool:
    parts = text.strip().upper().removesuffix("LOW").strip().split("-")
    return 1 <= len(parts) <= 2 and all(
        p.strip() in ("10",) or (len(p.strip()) == 1 and p.strip() in "23456789TJQKA")
        for p in parts
    )


def _hand_arg(text: str) -> Any:
    t = text.strip()
    return None if t in ("?", "random", "x", "-") else t


def _seed(args: argparse.Namespace) -> int:
    # a seed is always used, and printed, so a sampled answer can be repeated exactly
    return args.seed if args.seed is not None else random.SystemRandom().getrandbits(63)


def _cards_text(cards: Any) -> str:
    return " ".join(str(c) for c in cards)


def low_text(rank: int) -> str:
    """A stand-pat threshold as players say it: ``"8"`` (any 8-low or better), ``"9-7"``
    (any 9-7 or better), or ``"rank:N"`` when no low has that worst hand."""
    from triple_draw._core import analysis_worst_low

    for top in range(5, 13):
        if analysis_worst_low(top, None) == rank:
            return _RANKS[top]
        for second in range(3, top):
            try:
                if analysis_worst_low(top, second) == rank:
                    return f"{_RANKS[top]}-{_RANKS[second]}"
            except ValueError:
                continue
    return f"rank:{rank}"


_RANKS = "23456789TJQKA"


def strategy_text(s: Any) -> str:
    """A strategy in the ``--strategy`` syntax, lows as players write them: ``keep:8``
    (the standard rule: keep eights, stand pat on any 8-low), ``keep:9:8``, ``pat``,
    ``discard:Kd`` (then the standard rule), ``discard:Kd:pat``, ``discard:Kd:keep:9``."""
    from triple_draw.analysis import Strategy

    def plan(p: Any) -> str:
        if p.plan == "stand_pat":
            return "pat"
        keep = _RANKS[p.keep_max]
        default = p.keep_max >= 5 and p.pat_max == Strategy.rule(keep=keep).pat_max
        return f"keep:{keep}" if default else f"keep:{keep}:{low_text(p.pat_max)}"

    if s.first_discard is None:
        return plan(s)
    from triple_draw.game.cards import cards_text

    cards = "".join(cards_text(list(s.first_discard)))
    then = plan(s)
    return f"discard:{cards}" if then == "keep:8" else f"discard:{cards}:{then}"


def _strategy_text(s: Any) -> str:
    return strategy_text(s)


def _pct(x: float) -> str:
    return f"{100 * x:6.2f}%"


def equity_command(args: argparse.Namespace) -> int:
    from triple_draw.analysis import Strategy, equity

    hands = [_hand_arg(h) for h in args.hands]
    if not 2 <= len(hands) <= 6:
        raise UsageError(f"equity needs 2 to 6 hands, got {len(hands)}")
    specs = args.strategy or ["standard"]
    strategies = [parse_strategy(s) for s in specs]
    if len(strategies) == 1:
        strategies = strategies * len(hands)
    elif len(strategies) != len(hands):
        raise UsageError(
            f"--strategy given {len(strategies)} times for {len(hands)} hands: "
            "give it once, or once per hand"
        )
    if args.draws == 0:
        strategies = [Strategy.stand_pat()] * len(hands)  # nothing to draw: strategies are moot
    seed = _seed(args)
    r = _interruptible(
        lambda: equity(
            hands,
            draws_left=args.draws,
            strategies=strategies,
            dead=args.dead,
            trials=args.trials,
            seed=seed,
            threads=args.threads,
            method=args.method,
        ),
        "equity",
        args,
    )
    labels = [h if h is not None else "?" for h in args.hands]
    if args.json:
        _print_json(
            {
                "draws_left": args.draws,
                "exact": r.exact,
                "outcomes": r.outcomes,
                "seed": None if r.exact else seed,
                "dead": args.dead,
                "hands": [
                    {
                        "hand": lab,
                        "strategy": _strategy_text(s),
                        "win": p.win,
                        "tie": p.tie,
                        "equity": p.equity,
                        "stderr": p.stderr,
                        "win_stderr": p.win_stderr,
                        "tie_stderr": p.tie_stderr,
                    }
                    for lab, s, p in zip(labels, strategies, r, strict=True)
                ],
            }
        )
        return 0
    rows = [("hand", "draws by", "win", "tie", "equity", "" if r.exact else "std err")]
    for lab, s, p in zip(labels, strategies, r, strict=True):
        err = "" if r.exact else f"+- {100 * p.stderr:.2f}%"
        rows.append((lab, _strategy_text(s), _pct(p.win), _pct(p.tie), _pct(p.equity), err))
    _table(rows, right=(2, 3, 4))
    how = (
        f"exact: {r.outcomes:,} outcomes enumerated"
        if r.exact
        else f"sampled: {r.outcomes:,} trials (seed {seed})"
    )
    left = {0: "no draws left", 1: "1 draw left"}.get(args.draws, f"{args.draws} draws left")
    sys.stdout.write(f"{left}; {how}\n")
    return 0


def discard_command(args: argparse.Namespace) -> int:
    from triple_draw._core import HandRank
    from triple_draw.analysis import as_rank, best_discard

    later = parse_strategy(args.strategy) if args.strategy else None
    opponents = None if not args.opponent else [_hand_arg(h) for h in args.opponent]
    if opponents is not None and args.target is not None:
        raise UsageError("give either --target or --opponent, not both")
    target = None if args.target is None else parse_target(args.target)
    seed = _seed(args)
    choices = _interruptible(
        lambda: best_discard(
            args.hand,
            draws_left=args.draws,
            target=target,
            opponents=opponents,
            strategy=later,
            opponent_strategies=later,
            dead=args.dead,
            trials=args.trials,
            seed=seed,
            threads=args.threads,
            method=args.method,
        ),
        "discard",
        args,
    )
    if opponents is None:
        rank = as_rank(target if target is not None else "8")
        if target is None or (isinstance(target, str) and _is_low(target)):
            low = "8" if target is None else target.strip().upper().removesuffix("LOW").strip()
            goal = f"P({low} low or better)"
        else:
            goal = f"P({HandRank(rank).name} or better)"
    else:
        goal = "equity vs " + ", ".join(h if h is not None else "?" for h in args.opponent)
    exact = all(c.exact for c in choices)
    shown = choices[: args.top]
    if args.json:
        _print_json(
            {
                "hand": args.hand,
                "draws_left": args.draws,
                "objective": choices[0].objective if choices else None,
                "goal": goal,
                "exact": exact,
                "seed": None if exact else seed,
                "choices": [
                    {
                        "discard": [str(c) for c in ch.discard],
                        "keep": [str(c) for c in ch.keep],
                        "score": ch.score,
                        "stderr": ch.stderr,
                        "exact": ch.exact,
                        "outcomes": ch.outcomes,
                    }
                    for ch in shown
                ],
            }
        )
        return 0
    rows = [("#", "discard", "keep", goal, "" if exact else "std err")]
    for i, ch in enumerate(shown, 1):
        err = "" if ch.exact else f"+- {100 * ch.stderr:.2f}%"
        rows.append(
            (
                str(i),
                _cards_text(ch.discard) or "(stand pat)",
                _cards_text(ch.keep) or "-",
                _pct(ch.score),
                err,
            )
        )
    _table(rows, right=(0, 3))
    left = {1: "1 draw left"}.get(args.draws, f"{args.draws} draws left")
    n_exact = sum(1 for c in choices if c.exact)
    if exact:
        how = "exact"
    elif n_exact == 0:
        how = f"sampled with common random numbers (seed {seed})"
    else:
        how = (
            f"{n_exact} choices exact (no std err), the others sampled with common random "
            f"numbers (seed {seed})"
        )
    sys.stdout.write(f"{left}; {how}; {len(choices)} choices, best first\n")
    return 0


def _interruptible(fn: Callable[[], T], desc: str, args: argparse.Namespace) -> T:
    """Run an analysis so that Ctrl-C stops it, with the progress display on a terminal."""
    from triple_draw.analysis import run_with_progress

    show = not args.no_progress and sys.stderr.isatty()
    return run_with_progress(fn, desc, progress=show)


def _table(rows: Sequence[tuple[str, ...]], right: tuple[int, ...] = ()) -> None:
    sys.stdout.writelines(line + "\n" for line in format_table(rows, right))
