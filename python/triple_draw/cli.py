"""The ``triple-draw`` command line (also ``python -m triple_draw``).

Subcommands: ``simulate`` (bots play many hands), ``match`` (bots scored against each
other on duplicate deals), ``equity`` (win/tie/equity of hands with
draws to come), ``discard`` (all 32 discard choices ranked), ``eval`` (rank, category and
name of five-card hands), ``import`` (the sites' hand histories: nets, rake, refused hands,
a PHH file), ``review`` (a player's hands judged: ``_cli_review``), ``play`` (a game
against bots in the terminal), ``serve`` (the table server and web table:
``triple_draw.server``, the ``server`` extra), ``replay`` (its hand replayer) and
``accounts`` (the accounts of ``serve --accounts``: list, credit, ledger).

Every bad argument - an unknown option, a malformed card, an impossible analysis request -
ends with exit status 2 and one line on stderr saying why; never a traceback.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

from triple_draw._cli_common import JSON_SCHEMA_VERSION, UsageError, _int_range, _print_json

__all__ = ["main", "build_parser", "JSON_SCHEMA_VERSION", "UsageError"]

PROG = "triple-draw"
# the documented bounds of the numeric options (their owners check them too)
MAX_HANDS = 10**12  # = triple_draw.simulation.MAX_HANDS
MAX_WORKERS = 256  # = triple_draw._executors.MAX_WORKERS
MAX_THREADS = 256  # = triple_draw.analysis.MAX_THREADS
MAX_TRIALS = 10**10  # = triple_draw.analysis.MAX_TRIALS
MAX_TOURNAMENTS = 10**9  # = triple_draw.tournament_sim.MAX_TOURNAMENTS
MAX_ENTRIES = 10_000  # = triple_draw.structure.MAX_ENTRIES


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        # one line, no usage dump: the reason and where to look
        sys.stderr.write(f"{self.prog}: error: {message} (see '{self.prog} --help')\n")
        raise SystemExit(2)


def _seed(text: str) -> int:
    try:
        v = int(text, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer seed, got {text!r}") from None
    if not 0 <= v < 1 << 256:
        raise argparse.ArgumentTypeError(f"seed must be 0 <= seed < 2**256, got {v}")
    return v


def _rake_percent(text: str) -> str:
    """A ``--rake`` value: a percentage of the pot, 0 <= p < 100 with at most 4 decimals,
    checked by the rules themselves (``Rules.rake_percent``)."""
    from triple_draw.errors import RulesError
    from triple_draw.game.rules import Rules

    try:
        return Rules(rake_percent=text).rake_percent
    except RulesError:
        raise argparse.ArgumentTypeError(
            f"expected a percentage of the pot 0 <= p < 100 with at most 4 decimals "
            f"(e.g. 5 or 4.5), got {text!r}"
        ) from None



def _add_table_options(p: argparse.ArgumentParser) -> None:
    """--stack, --small-bet and --rules (simulate and match; :func:`_table_rules`)."""
    p.add_argument(
        "--stack", type=_int_range(1), default=None, help="starting stack (default 100 big bets)"
    )
    p.add_argument(
        "--small-bet",
        type=_int_range(1),
        default=2,
        help="small bet; blinds and big bet follow conventionally (default 2: 1/2 blinds, 2/4)",
    )
    p.add_argument(
        "--rules",
        choices=("live", "wsop", "online", "pokerkit"),
        default="live",
        help="rules preset (default live: 3 raises, declare-then-deal)",
    )


def _table_rules(args: argparse.Namespace, n: int, **fields: Any) -> Any:
    """The ``Rules`` of ``--rules`` at ``--small-bet`` for ``n`` players (at least six
    seats), with ``fields`` (the rake)."""
    from triple_draw.game.rules import Rules

    preset = {
        "live": Rules.live,
        "wsop": Rules.wsop,
        "online": Rules.online,
        "pokerkit": Rules.pokerkit,
    }[args.rules]
    return preset(args.small_bet, max_players=max(6, n), **fields)

def add_rake_options(p: argparse.ArgumentParser) -> None:
    """--rake, --rake-cap, --rake-rounding and --rake-always (simulate and serve; the
    ``Rules`` rake fields, docs/rules.md: *The rake*)."""
    p.add_argument(
        "--rake",
        type=_rake_percent,
        default=None,
        metavar="PERCENT",
        help="the house takes this percentage of each pot, e.g. 5 or 4.5 (default: no rake)",
    )
    p.add_argument(
        "--rake-cap",
        type=_int_range(0),
        default=None,
        metavar="CHIPS",
        help="the most chips the rake takes from one hand (default 0: no cap)",
    )
    p.add_argument(
        "--rake-rounding",
        choices=("down", "half-even"),
        default=None,
        help="round the rake down to the chip (default) or to the nearest, halves to even",
    )
    p.add_argument(
        "--rake-always",
        action="store_true",
        help="rake a hand that ends before the first draw too (default: no draw, no drop)",
    )


def rake_fields(args: argparse.Namespace) -> dict[str, Any]:
    """The ``Rules`` rake fields of the rake options (empty without ``--rake``;
    ArgumentError when another rake option comes without it)."""
    from triple_draw.errors import ArgumentError

    if args.rake is None:
        given = [
            name
            for name, v in (
                ("--rake-cap", args.rake_cap),
                ("--rake-rounding", args.rake_rounding),
                ("--rake-always", args.rake_always or None),
            )
            if v is not None
        ]
        if given:
            raise ArgumentError(f"{', '.join(given)} needs --rake PERCENT")
        return {}
    fields: dict[str, Any] = {
        "rake_percent": args.rake,
        "rake_no_draw_no_drop": not args.rake_always,
    }
    if args.rake_cap is not None:
        fields["rake_cap"] = args.rake_cap
    if args.rake_rounding is not None:
        fields["rake_rounding"] = args.rake_rounding
    return fields


def _add_sampling_options(
    p: argparse.ArgumentParser, *, trials_help: str, threads_help: str
) -> None:
    """--dead, --trials, --seed and --threads of the analysis commands (equity, discard)."""
    p.add_argument("--dead", default="", metavar="CARDS", help="cards known to be out of play")
    p.add_argument(
        "--trials",
        type=_int_range(1, MAX_TRIALS),
        default=None,
        help=f"{trials_help} (1 to {MAX_TRIALS:.0e})",
    )
    p.add_argument("--seed", type=_seed, default=None, help="seed for sampling")
    p.add_argument(
        "--threads",
        type=_int_range(1, MAX_THREADS),
        default=None,
        help=f"{threads_help} (1 to {MAX_THREADS})",
    )
    p.add_argument(
        "--method",
        choices=("auto", "exact", "sample"),
        default="auto",
        help="enumerate every outcome (exact), sample (sample), or enumerate when small "
        "(auto, the default)",
    )
    p.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog=PROG,
        description="Deuce-to-Seven Lowball Triple Draw: simulate bots, analyse draws, play.",
        epilog="Run 'triple-draw COMMAND --help' for the options of a command.",
    )
    from triple_draw import __version__
    from triple_draw.game.core import default_core

    NUM_CLASSES = default_core().NUM_CLASSES  # noqa: N806 - the core's constant
    p.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True

    # -- simulate ---------------------------------------------------------------------------
    s = sub.add_parser(
        "simulate",
        help="bots play many hands, or many tournaments; per-seat win rates, per-bot ROI",
        description="Play many complete hands between bots and report what each seat won "
        "(chips and big bets per 100 hands with 95 percent confidence intervals, showdowns); "
        "or, with --tournament, many tournaments and each bot's finishing places and return "
        "on investment.",
        epilog="Examples: triple-draw simulate --players 6 --hands 100000 --seed 1 --workers 2; "
        "triple-draw simulate --tournament sng6 --tournaments 1000 --seed 1",
    )
    s.add_argument("--players", type=_int_range(2, 8), default=None, help="seats (2-8; default 6)")
    s.add_argument(
        "--hands",
        type=_int_range(1, MAX_HANDS),
        default=None,
        help=f"hands to play, 1 to {MAX_HANDS:.0e} (default 10000)",
    )
    s.add_argument("--seed", type=_seed, default=None, help="seed (default: random, printed)")
    s.add_argument(
        "--bots",
        default=None,
        help="comma-separated bots, one for all seats or one per seat: heuristic, random, call, "
        "equity, "
        "NAME*K (K seats), or module:Class naming a bot class (default: heuristic)",
    )
    s.add_argument(
        "--workers",
        type=_int_range(1, MAX_WORKERS),
        default=None,
        help=f"workers, 1 to {MAX_WORKERS} and at most one per chunk (default 1: this "
        "process; with --executor threads/processes: all cores)",
    )
    s.add_argument(
        "--executor",
        choices=("serial", "threads", "processes", "ray"),
        default=None,
        help="where the chunks run (default: processes when --workers > 1)",
    )
    s.add_argument(
        "--chunk-size",
        type=_int_range(1, MAX_HANDS),
        default=None,
        help="hands per seeded chunk (default 1000); with --tournament, tournaments per "
        "work item (default 10; the results do not depend on it)",
    )
    _add_core_option(s)
    _add_table_options(s)
    s.add_argument(
        "--mode",
        choices=("independent", "table"),
        default="independent",
        help="independent hands from equal stacks, or table sessions (stacks carry over)",
    )
    add_rake_options(s)
    s.add_argument(
        "--tournament",
        default=None,
        metavar="PRESET_OR_FILE",
        help="play tournaments instead of hands: a preset (sng6, sng2, mtt) or a structure "
        "file (.json or .toml)",
    )
    s.add_argument(
        "--tournaments",
        type=_int_range(1, MAX_TOURNAMENTS),
        default=None,
        help=f"with --tournament: tournaments to play, 1 to {MAX_TOURNAMENTS:.0e} (default 100)",
    )
    s.add_argument(
        "--entrants",
        type=_int_range(2, MAX_ENTRIES),
        default=None,
        help="with --tournament: entrants of each tournament (default: a sit & go's seats, "
        "three tables of a multi-table event)",
    )
    s.add_argument("--json", action="store_true", help="print the results as JSON on stdout")
    s.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    s.set_defaults(func=_cmd_simulate)

    # -- match ------------------------------------------------------------------------------
    mt = sub.add_parser(
        "match",
        help="bots against each other on duplicate deals; big blinds per 100 hands",
        description="Score 2 to 8 bots against each other (head-to-head or a ring game): every "
        "deal is played once per rotation of the seats (duplicate deals), and each bot's result "
        "is reported in big blinds per 100 hands with a 95 percent confidence interval.",
        epilog="Example: triple-draw match equity heuristic --hands 20000 --seed 1",
    )
    mt.add_argument(
        "bots",
        nargs="+",
        metavar="BOT",
        help="a package bot (heuristic, random, call, equity) or module:Class naming a bot "
        "class; two or more (up to 8)",
    )
    mt.add_argument(
        "--hands",
        type=_int_range(1, MAX_HANDS),
        default=10_000,
        help="hands to play in all, rounded up to whole deals (one hand per player per deal; "
        "default 10000)",
    )
    mt.add_argument("--seed", type=_seed, default=None, help="seed (default: random, printed)")
    mt.add_argument(
        "--no-duplicate",
        action="store_true",
        help="fresh cards for every rotation of the seats (to compare the intervals)",
    )
    mt.add_argument(
        "--chunk-size",
        type=_int_range(1, MAX_HANDS),
        default=500,
        help="deals per seeded chunk (default 500)",
    )
    _add_core_option(mt)
    _add_table_options(mt)
    mt.add_argument("--json", action="store_true", help="print the results as JSON on stdout")
    mt.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    mt.set_defaults(func=_cmd_match)

    # -- equity -----------------------------------------------------------------------------
    e = sub.add_parser(
        "equity",
        help="win/tie/equity of 2-6 hands with draws to come",
        description="Win, tie and equity of each hand (2 to 6 players), everyone drawing by a "
        "strategy for the draws left. A hand of '?' (or '??????????') is unknown: random cards.",
        epilog="Example: triple-draw equity 7c5d4h3sKd 8c6d5h4s2c --draws 1",
    )
    e.add_argument(
        "hands",
        nargs="+",
        metavar="HAND",
        help="five cards, e.g. 7c5d4h3sKd, or ? for a random hand",
    )
    e.add_argument("--draws", type=_int_range(0, 3), default=1, help="draws left, 0-3 (default 1)")
    e.add_argument(
        "--strategy",
        action="append",
        default=None,
        metavar="STRATEGY",
        help="draw strategy, once for everyone or once per hand: 'standard', 'pat', "
        "'keep:8' (keep eights and better), 'keep:8:9' (... stand pat on a nine-low), "
        "or 'discard:Kd' (throw these cards at the next draw, then standard)",
    )
    _add_sampling_options(
        e,
        trials_help="Monte Carlo trials (default: automatic)",
        threads_help="threads (default: all cores)",
    )
    e.add_argument("--json", action="store_true", help="print JSON")
    e.set_defaults(func=_cmd_equity)

    # -- discard ----------------------------------------------------------------------------
    d = sub.add_parser(
        "discard",
        help="the 32 discard choices of a hand, best first",
        description="Rank all 32 ways to discard from a hand by the probability of finishing "
        "at TARGET or better (default), or by equity against --opponent hands.",
        epilog="Example: triple-draw discard 7c5d4h3sKd --draws 3 --target 8",
    )
    d.add_argument("hand", metavar="HAND", help="five cards, e.g. 7c5d4h3sKd")
    d.add_argument("--draws", type=_int_range(1, 3), default=1, help="draws left, 1-3 (default 1)")
    d.add_argument(
        "--target",
        default=None,
        help=f"finish at this or better: a rank 1-{NUM_CLASSES}, a low like '8' or '9-7', "
        "or five cards (default: an eight-low)",
    )
    d.add_argument(
        "--opponent",
        action="append",
        default=None,
        metavar="HAND",
        help="rank by equity against this hand (five cards or ?; repeatable)",
    )
    d.add_argument(
        "--strategy",
        default=None,
        metavar="STRATEGY",
        help="how the later draws (and opponents) draw (default standard)",
    )
    _add_sampling_options(d, trials_help="Monte Carlo trials per choice", threads_help="threads")
    d.add_argument("--top", type=_int_range(1, 32), default=32, help="show only the best N choices")
    d.add_argument("--json", action="store_true", help="print JSON")
    d.set_defaults(func=_cmd_discard)

    # -- eval -------------------------------------------------------------------------------
    v = sub.add_parser(
        "eval",
        help="rank, category and name of five-card hands",
        description=f"Evaluate 2-7 lowball hands: rank (1 = 7-5-4-3-2, best .. {NUM_CLASSES}), "
        "category, name.",
        epilog="Example: triple-draw eval 7c5d4h3s2c 8c6d4h3s2c",
    )
    v.add_argument(
        "hands", nargs="+", metavar="HAND", help="five cards, e.g. 7c5d4h3s2c or '7c 5d 4h 3s 2c'"
    )
    v.add_argument("--json", action="store_true", help="print JSON")
    v.set_defaults(func=_cmd_eval)

    # -- play -------------------------------------------------------------------------------
    g = sub.add_parser(
        "play",
        help="play against bots in the terminal",
        description="An interactive game of 2-7 triple draw against bots (1/2 blinds, 2/4 limit). "
        "Type 'help' at any prompt.",
        epilog="Example: triple-draw play --players 3 --seed 1",
    )
    g.add_argument(
        "--players", type=_int_range(2, 6), default=3, help="players including you (2-6; default 3)"
    )
    g.add_argument("--seed", type=_seed, default=None, help="seed of the deal")
    g.add_argument("--stack", type=_int_range(1), default=200, help="starting stacks (default 200)")
    g.add_argument(
        "--bots",
        default="heuristic",
        help="opponents: one bot for all, or comma-separated (as for simulate --bots)",
    )
    g.add_argument("--hands", type=_int_range(1), default=None, help="stop after this many hands")
    _add_core_option(g)
    g.set_defaults(func=_cmd_play)

    # -- import -----------------------------------------------------------------------------
    m = sub.add_parser(
        "import",
        help="read PokerStars, Full Tilt Poker and Winamax hand histories; nets and rake",
        description="Read the sites' hand-history files of Triple Draw 2-7 (fixed limit) and "
        "report, per site, the hands imported, refused and skipped, each player's hands and "
        "net (in money and in big bets), the rake, and why each refused hand was refused.",
        epilog="Example: triple-draw import HH*.txt --hero alice --phh hands.phhs",
    )
    m.add_argument("files", nargs="+", metavar="FILE", help="a hand-history file of a site")
    m.add_argument(
        "--phh",
        default=None,
        metavar="OUT",
        help="write every imported hand to OUT as one PHH file (.phhs: tables [1], [2], ...)",
    )
    m.add_argument(
        "--hero",
        default=None,
        metavar="NAME",
        help="report only this player, over the hands he is in (an error if he is in none)",
    )
    m.add_argument("--json", action="store_true", help="print the report as JSON on stdout")
    m.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    m.set_defaults(func=_cmd_import)

    # -- review (a player's hands judged: triple_draw.review) ---------------------------------
    from triple_draw._cli_review import add_review_parser

    add_review_parser(sub, _int_range, _seed)

    # -- serve (the table server: triple_draw.server, optional extra) ------------------------
    from triple_draw.server.cli import add_serve_parser

    add_serve_parser(sub)
    from triple_draw.server.replay_cli import add_replay_parser

    add_replay_parser(sub)
    from triple_draw.server.accounts_cli import add_accounts_parser

    add_accounts_parser(sub)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (0 ok, 2 bad arguments)."""
    from triple_draw.errors import TripleDrawError

    parser = build_parser()
    try:
        args = parser.parse_args(None if argv is None else list(argv))
    except SystemExit as e:  # --help, --version, or a parse error already reported
        return e.code if isinstance(e.code, int) else (0 if e.code is None else 2)
    prog = f"{PROG} {args.command}"
    try:
        return int(args.func(args))
    except UsageError as e:
        sys.stderr.write(f"{prog}: error: {e}\n")
        return 2
    except TripleDrawError as e:
        # every bad-input error of the package (CardError, AnalysisError, ArgumentError,
        # MissingExtraError, ...) is a TripleDrawError
        sys.stderr.write(f"{prog}: error: {_one_line(e)}\n")
        return 2
    except KeyboardInterrupt:
        # Ctrl-C: stop cleanly, the conventional status of a SIGINT
        sys.stderr.write(f"{prog}: interrupted\n")
        return 130
    except BrokenPipeError:  # piped into e.g. head: stop quietly
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0


def _one_line(e: BaseException) -> str:
    text = str(e).strip() or type(e).__name__
    return " ".join(text.split())


# -- simulate ---------------------------------------------------------------------------------


def _make_bots(
    spec: str | None, seats: int | None, who: str = "players", *, core: str | None = None
) -> list[Any]:
    """The bots of a ``--bots`` value, parsed once, each created once: one bot for every
    seat, or one per seat (``seats`` of them; ``None``: 2 to 8, one alone plays 6)."""
    from triple_draw.bots import make_bot, parse_bot_specs
    from triple_draw.errors import ArgumentError

    try:
        names = parse_bot_specs(spec if spec is not None else "heuristic")
        if len(names) == 1:
            names = names * (seats or 6)
        elif seats is not None and len(names) != seats:
            raise ArgumentError(f"{len(names)} bots for {seats} {who}: give one, or one per seat")
        if not 2 <= len(names) <= 8 and seats is None:
            raise ArgumentError(f"a game needs 2 to 8 players, got {len(names)}")
        return [make_bot(n, core=core) for n in names]
    except ArgumentError as e:
        raise UsageError(f"--bots: {e}") from None


def _add_core_option(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--core",
        choices=("compiled", "reference"),
        default=None,
        help="what deals, ranks and computes the bots' decisions: the compiled core "
        "(default) or its pure-Python reference twin (same results, much slower)",
    )


def _cmd_simulate(args: argparse.Namespace) -> int:
    from triple_draw.simulation import simulate

    if args.tournament is not None:
        return _cmd_simulate_tournaments(args)
    if args.tournaments is not None or args.entrants is not None:
        raise UsageError(
            f"{'--tournaments' if args.tournaments is not None else '--entrants'} needs "
            "--tournament PRESET_OR_FILE"
        )
    if args.hands is None:
        args.hands = 10_000
    if args.chunk_size is None:
        args.chunk_size = 1000
    bots = _make_bots(args.bots, args.players, core=args.core)
    n = len(bots)
    chunks = -(-args.hands // args.chunk_size)
    if args.workers is not None and args.workers > chunks:
        raise UsageError(
            f"--workers {args.workers} for {chunks} chunk{'s' if chunks > 1 else ''} of "
            f"--chunk-size {args.chunk_size}: at most {chunks} worker(s) would have work"
        )
    if args.executor == "ray":
        from triple_draw._executors import _require_ray

        _require_ray()
    rules = _table_rules(args, n, **rake_fields(args))
    bar = (not args.no_progress) and sys.stderr.isatty()
    progress: bool | _Status = bar
    if args.hands >= CALIBRATE_FROM:
        rate = _measure_rate(bots, rules, args)
        seconds = _check_duration(args, rate, chunks)
        if seconds >= ESTIMATE_FROM:
            sys.stderr.write(
                f"{PROG} simulate: {args.hands:,} hands will take about {_duration(seconds)} "
                f"(about {rate:,.0f} hands/s a worker, measured just now); Ctrl-C stops the run\n"
            )
            if not bar:
                progress = _Status(args.hands)
    result = simulate(
        bots,
        args.hands,
        seed=args.seed,
        rules=rules,
        stack=args.stack,
        mode=args.mode,
        chunk_size=args.chunk_size,
        executor=args.executor,
        workers=args.workers,
        progress=progress,
        core=args.core,
    )
    if args.json:
        _print_json(result.to_dict())
    else:
        sys.stdout.write(result.summary() + "\n")
        sys.stdout.write(
            f"(repeat with --seed {result.seed}; results depend on the seed and --chunk-size, "
            "never on --workers)\n"
        )
    return 0


def _cmd_simulate_tournaments(args: argparse.Namespace) -> int:
    """``simulate --tournament``: many tournaments between bots (triple_draw.tournament_sim)."""
    from triple_draw.structure import Structure
    from triple_draw.tournament_sim import default_entrants, simulate_tournaments

    # the options of hands played at a cash table do not apply to a tournament
    cash = [
        name
        for name, given in (
            ("--hands", args.hands is not None),
            ("--players", args.players is not None),
            ("--stack", args.stack is not None),
            ("--small-bet", args.small_bet != 2),
            ("--rules", args.rules != "live"),
            ("--mode", args.mode != "independent"),
            ("--rake", args.rake is not None),
        )
        if given
    ]
    if cash:
        raise UsageError(
            f"{', '.join(cash)} {'does' if len(cash) == 1 else 'do'} not apply to "
            "--tournament (the structure sets the stakes and stacks; --entrants sets the field)"
        )
    st = Structure.of(args.tournament)
    n = args.entrants if args.entrants is not None else default_entrants(st)
    if args.bots is not None:
        from triple_draw.bots import make_bot, parse_bot_specs
        from triple_draw.errors import ArgumentError

        try:
            names = parse_bot_specs(args.bots)
            if len(names) == 1:
                names = names * n
            elif len(names) != n:
                raise ArgumentError(
                    f"{len(names)} bots for {n} entrants: give one, or one per entrant"
                )
            bots: Any = [make_bot(x, core=args.core) for x in names]
        except ArgumentError as e:
            raise UsageError(f"--bots: {e}") from None
    else:
        bots = None
    tournaments = args.tournaments if args.tournaments is not None else 100
    chunk = args.chunk_size if args.chunk_size is not None else 10
    chunks = -(-tournaments // chunk)
    if args.workers is not None and args.workers > chunks:
        raise UsageError(
            f"--workers {args.workers} for {chunks} work item{'s' if chunks > 1 else ''} of "
            f"--chunk-size {chunk} tournaments: at most {chunks} worker(s) would have work"
        )
    if args.executor == "ray":
        from triple_draw._executors import _require_ray

        _require_ray()
    result = simulate_tournaments(
        st,
        bots,
        tournaments,
        entrants=n,
        seed=args.seed,
        chunk_size=chunk,
        executor=args.executor,
        workers=args.workers,
        progress=(not args.no_progress) and sys.stderr.isatty(),
        core=args.core,
    )
    if args.json:
        _print_json(result.to_dict())
    else:
        sys.stdout.write(result.summary() + "\n")
        sys.stdout.write(
            f"(repeat with --seed {result.seed}; results depend on the seed, never on "
            "--workers or --chunk-size)\n"
        )
    return 0


#: ``simulate`` measures the bots' speed first when asked for this many hands or more.
CALIBRATE_FROM = 1_000_000
#: ... and says how long the run will take when that is this long or longer (seconds).
ESTIMATE_FROM = 60.0
#: The longest run the command line starts (seconds): 7 days at the measured speed, every
#: worker busy. Longer runs are refused up front (the library's ``simulate`` has no limit).
MAX_RUN_SECONDS = 7 * 24 * 3600
#: Seconds between the status lines of a long run shown without a progress bar.
STATUS_EVERY = 600.0


def _measure_rate(bots: list[Any], rules: Any, args: argparse.Namespace) -> float:
    """Hands a second one worker plays with these bots, rules and ``--chunk-size`` (its
    per-chunk cost included), from about 0.2 s of play in this process."""
    from triple_draw.simulation import simulate

    def play(k: int) -> int:
        simulate(
            bots,
            k,
            seed=k,
            rules=rules,
            stack=args.stack,
            mode=args.mode,
            chunk_size=min(args.chunk_size, k),
            core=args.core,
        )
        return k

    return _rate_of(play)


def _rate_of(play: Callable[[int], int]) -> float:
    """Hands a second of ``play(k)`` (which plays about ``k`` hands and returns how many
    it played), from about 0.2 s of play in this process."""
    import time

    played, elapsed, k = 0, 0.0, 8
    while elapsed < 0.2 and k <= 1 << 20:
        t0 = time.perf_counter()
        played += play(k)
        elapsed += time.perf_counter() - t0
        k *= 2
    return played / max(elapsed, 1e-9)


def _parallel(args: argparse.Namespace, chunks: int) -> int:
    """The most workers the run can keep busy (for Ray without ``--workers``: as many as
    the command line allows, the cluster's size being unknown here)."""
    n: int
    if args.workers is not None:
        n = int(args.workers)
    elif args.executor in ("threads", "processes"):
        n = os.cpu_count() or 1
    elif args.executor == "ray":
        n = MAX_WORKERS
    else:
        n = 1
    return max(1, min(n, chunks))


def _check_duration(
    args: argparse.Namespace,
    rate: float,
    chunks: int,
    instead: str = "fewer --hands, more --workers, a larger --chunk-size",
) -> float:
    """The run's expected seconds at ``rate`` hands/s a worker, every worker busy; a
    ``UsageError`` if that exceeds :data:`MAX_RUN_SECONDS` (``instead``: what the user
    can do about it)."""
    workers = _parallel(args, chunks)
    seconds: float = args.hands / (max(rate, 1e-9) * workers)
    if seconds > MAX_RUN_SECONDS:
        raise UsageError(
            f"--hands {args.hands}: at the {rate:,.0f} hands/s a worker measured just now, "
            f"{workers} worker{'s' if workers > 1 else ''} would take about "
            f"{_duration(seconds)}; the command line refuses runs over "
            f"{_duration(MAX_RUN_SECONDS)} ({instead}, or the library's function in a "
            "program)"
        )
    return seconds


def _duration(seconds: float) -> str:
    for unit, size in (("years", 365.25 * 86400), ("days", 86400), ("hours", 3600)):
        if seconds >= size:
            return f"{seconds / size:.1f} {unit}"
    return f"{seconds / 60:.0f} minutes" if seconds >= 60 else f"{seconds:.0f} s"


class _Status:
    """Progress of a long run without a bar: a line on stderr every :data:`STATUS_EVERY`
    seconds (checked as chunks finish): hands done, speed, time left."""

    def __init__(self, hands: int, clock: Any = None, out: Any = None) -> None:
        import time

        self.hands = hands
        self.clock = clock or time.monotonic
        self.out = out or sys.stderr
        self.t0 = self.last = self.clock()

    def __call__(self, done: int, total: int) -> None:
        now = self.clock()
        if now - self.last < STATUS_EVERY or done >= total:
            return
        self.last = now
        rate = done / max(now - self.t0, 1e-9)
        left = (total - done) / max(rate, 1e-9)
        self.out.write(
            f"{PROG} simulate: {done:,} of {total:,} hands ({100 * done / total:.1f}%), "
            f"{rate:,.0f} hands/s, about {_duration(left)} left\n"
        )
        self.out.flush()


def _cmd_match(args: argparse.Namespace) -> int:
    from triple_draw.bots import make_bot
    from triple_draw.errors import ArgumentError
    from triple_draw.evaluation import match

    n = len(args.bots)
    if not 2 <= n <= 8:
        raise UsageError(f"a match needs 2 to 8 bots, got {n}")
    try:
        bots = [make_bot(b, core=args.core) for b in args.bots]
    except ArgumentError as e:
        raise UsageError(f"BOT: {e}") from None
    rules = _table_rules(args, n)
    if args.hands >= CALIBRATE_FROM:  # (a match plays in this one process)

        def play(k: int) -> int:
            return match(
                bots, k, seed=k, rules=rules, stack=args.stack, chunk_size=args.chunk_size,
                core=args.core,
            ).hands  # fmt: skip

        rate = _rate_of(play)
        one = argparse.Namespace(hands=args.hands, workers=1, executor=None)
        seconds = _check_duration(one, rate, 1, instead="fewer --hands")
        if seconds >= ESTIMATE_FROM:
            sys.stderr.write(
                f"{PROG} match: {args.hands:,} hands will take about {_duration(seconds)} "
                f"(about {rate:,.0f} hands/s, measured just now); Ctrl-C stops the run\n"
            )
    result = match(
        bots,
        args.hands,
        seed=args.seed,
        duplicate=not args.no_duplicate,
        rules=rules,
        stack=args.stack,
        chunk_size=args.chunk_size,
        core=args.core,
        progress=(not args.no_progress) and sys.stderr.isatty(),
    )
    if args.json:
        _print_json(result.to_dict())
    else:
        sys.stdout.write(result.summary() + "\n")
        sys.stdout.write(f"(repeat with --seed {result.seed})\n")
    return 0


# -- eval -------------------------------------------------------------------------------------


def _five(text: str, what: str = "hand") -> list[int]:
    from triple_draw.game.cards import to_ids

    ids = to_ids(text)
    if len(ids) != 5:
        raise UsageError(f"{what} {text!r} has {len(ids)} cards, a hand has 5")
    if len(set(ids)) != 5:
        raise UsageError(f"{what} {text!r} holds a card twice")
    return ids


def _cmd_eval(args: argparse.Namespace) -> int:
    from triple_draw.game.cards import cards_text
    from triple_draw.game.core import default_core

    core = default_core()
    rows: list[dict[str, Any]] = []
    for h in args.hands:
        ids = _five(h)
        hr = core.HandRank(core.rank_ids(ids))
        rows.append(
            {"cards": cards_text(ids), "rank": hr.rank, "category": hr.category, "name": hr.name}
        )
    best = min(r["rank"] for r in rows)
    if args.json:
        for r in rows:
            r["best"] = r["rank"] == best
        _print_json({"hands": rows})
        return 0
    w = max(len(r["name"]) for r in rows)
    for r in rows:
        mark = "  <- best" if len(rows) > 1 and r["rank"] == best else ""
        sys.stdout.write(
            f"{' '.join(r['cards'])}  rank {r['rank']:>4}  {r['category']:<15}  "
            f"{r['name']:<{w}}{mark}".rstrip()
            + "\n"
        )
    return 0


# -- equity and discard (the analysis kernels) ---------------------------------------------------


def _cmd_equity(args: argparse.Namespace) -> int:
    from triple_draw import _cli_analysis

    return _cli_analysis.equity_command(args)


def _cmd_discard(args: argparse.Namespace) -> int:
    from triple_draw import _cli_analysis

    return _cli_analysis.discard_command(args)


# -- import (the sites' hand histories) ---------------------------------------------------------


def _cmd_import(args: argparse.Namespace) -> int:
    from triple_draw import _cli_histories

    return _cli_histories.import_command(args)


# -- play -------------------------------------------------------------------------------------


def _cmd_play(args: argparse.Namespace) -> int:
    from triple_draw._play import TerminalGame

    bots = _make_bots(args.bots, args.players - 1, "opponents", core=args.core)
    game = TerminalGame(
        players=args.players,
        seed=args.seed,
        stack=args.stack,
        bots=bots,
        max_hands=args.hands,
        core=args.core,
    )
    return game.run()


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
