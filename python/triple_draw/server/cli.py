"""``triple-draw serve``: its options, and starting uvicorn.

This module imports only the standard library at import time, so ``triple-draw --help``
works without the ``server`` extra; ``serve`` then says which package is missing.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
from typing import Any

from triple_draw.errors import ArgumentError

__all__ = ["add_serve_parser", "allowed_hosts", "build_tables", "run"]

EXTRA_HINT = "pip install 'triple_draw[server]'"
REQUIRED = ("starlette", "uvicorn", "websockets", "fastjsonschema")
PRESETS = ("live", "wsop", "online", "pokerkit")


def _port(text: str) -> int:
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a port number, got {text!r}") from None
    if not 0 <= v <= 65535:
        raise argparse.ArgumentTypeError(f"a port is 0..65535, got {text}")
    return v


def _positive(kind: type) -> Any:
    def parse(text: str) -> Any:
        try:
            v = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
        if v < 0:
            raise argparse.ArgumentTypeError(f"must be >= 0, got {text}")
        return v

    return parse


def add_serve_parser(sub: Any) -> argparse.ArgumentParser:
    """Add the ``serve`` subcommand to the ``triple-draw`` subparsers."""
    p: argparse.ArgumentParser = sub.add_parser(
        "serve",
        help="run a table server with a web table (extra: server)",
        description="Run the table server: tables play continuously, people play in the "
        "browser, bots fill empty seats, every action is stored in SQLite. Needs "
        f"{EXTRA_HINT}.",
        epilog="Example: triple-draw serve --tables 2 --bots 2 --clock 20",
    )
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=_port, default=8000, help="port (default 8000; 0: any free)")
    p.add_argument(
        "--db", default="triple_draw.sqlite3", help="SQLite file (default ./triple_draw.sqlite3)"
    )
    p.add_argument("--tables", type=_positive(int), default=3, help="number of tables (default 3)")
    p.add_argument("--seats", type=int, default=6, help="seats per table, 2-8 (default 6)")
    p.add_argument(
        "--small-bet", type=int, default=2, help="small bet (default 2: 1/2 blinds, 2/4)"
    )
    p.add_argument("--rules", choices=PRESETS, default="live", help="rules preset (default live)")
    from triple_draw.cli import add_rake_options  # (standard library only at import time)

    add_rake_options(p)
    p.add_argument(
        "--buy-in",
        type=int,
        default=None,
        help="the most chips a player sits down with, and what he gets unless he asks for "
        "less (default 50 big bets)",
    )
    p.add_argument(
        "--min-buy-in",
        type=int,
        default=None,
        help="the fewest chips a player may sit down with (default a fifth of the buy-in, "
        "at least the big blind)",
    )
    p.add_argument(
        "--bots", type=_positive(int), default=2, help="seats kept filled by bots (default 2)"
    )
    p.add_argument(
        "--bot", default="heuristic", help="bot kind: heuristic, random, call (default heuristic)"
    )
    p.add_argument(
        "--clock", type=_positive(float), default=30.0, help="action clock, seconds (default 30)"
    )
    p.add_argument(
        "--bot-delay", type=_positive(float), default=0.8, help="seconds a bot thinks (default 0.8)"
    )
    p.add_argument(
        "--hand-pause", type=_positive(float), default=3.0, help="seconds between hands (default 3)"
    )
    p.add_argument(
        "--allow-origin",
        action="append",
        default=None,
        metavar="ORIGIN",
        help="an Origin allowed to open the WebSocket, e.g. https://poker.example (repeatable; "
        "default: the server's own origin)",
    )
    p.add_argument(
        "--allow-host",
        action="append",
        default=None,
        metavar="NAME",
        help="a host name the server answers to, e.g. poker.example (repeatable; localhost "
        "and IP addresses always; any other Host is refused: DNS rebinding)",
    )
    p.add_argument(
        "--time-bank",
        type=_positive(float),
        default=30.0,
        help="seconds of time bank each player gets, used when his clock runs out "
        "(default 30; 0: none)",
    )
    p.add_argument(
        "--missed-turns",
        type=_positive(int),
        default=0,
        metavar="N",
        help="turns in a row the clock may play for a player before his seat is freed and "
        "his chips cashed out (default 0: two in a row sit him out instead)",
    )
    p.add_argument(
        "--seat-timeout",
        type=_positive(float),
        default=120.0,
        help="seconds a disconnected player keeps his seat before it is freed and his chips "
        "cashed out (default 120; 0: forever)",
    )
    p.add_argument(
        "--sit-out-timeout",
        type=_positive(float),
        default=600.0,
        help="seconds a player may sit out before his seat is freed and his chips cashed out "
        "(default 600; 0: forever)",
    )
    p.add_argument(
        "--max-connections-per-address",
        type=_positive(int),
        default=32,
        metavar="N",
        help="WebSockets one client address may have open (default 32; 0: no limit)",
    )
    p.add_argument(
        "--max-seats-per-address",
        type=_positive(int),
        default=4,
        metavar="N",
        help="seats one client address may hold over all tables (default 4; 0: no limit)",
    )
    p.add_argument(
        "--max-spectators",
        type=_positive(int),
        default=200,
        metavar="N",
        help="connections without a seat one table takes (default 200; 0: no limit)",
    )
    p.add_argument(
        "--history-rate",
        type=_positive(float),
        default=30.0,
        metavar="N",
        help="history downloads one client address may make a minute (default 30; 0: no limit)",
    )
    p.add_argument(
        "--replay-rate",
        type=_positive(float),
        default=12.0,
        metavar="N",
        help="records one client address may have the replayer replay a minute (default 12; "
        "0: no limit)",
    )
    p.add_argument(
        "--rate",
        type=_positive(float),
        default=50.0,
        help="messages per second one connection may send (default 50; burst: twice that)",
    )
    p.add_argument(
        "--accounts",
        action="store_true",
        help="players register and log in, and play for the chips of their accounts "
        "(a cashier page, 'triple-draw accounts' to credit them; default: anonymous play)",
    )
    p.add_argument(
        "--login-rate",
        type=_positive(float),
        default=30.0,
        metavar="N",
        help="with --accounts: logins and registrations one client address may try a minute "
        "(default 30; 0: no limit)",
    )
    p.add_argument(
        "--session-days",
        type=_positive(float),
        default=7.0,
        metavar="D",
        help="with --accounts: days a login lasts (default 7)",
    )
    p.add_argument(
        "--tournament",
        default=None,
        metavar="PRESET_OR_FILE",
        help="serve one tournament instead of tables: a preset (sng6, sng2, mtt) or a "
        "structure file (.json or .toml): a lobby to register, the clock and level at the "
        "table, moves between tables, final standings and payouts",
    )
    p.add_argument(
        "--tournament-bots",
        type=_positive(int),
        default=None,
        metavar="N",
        help="with --tournament: bots that enter it (default: every seat of a sit & go but "
        "one; none in an event with no entry limit)",
    )
    p.add_argument(
        "--start-delay",
        type=_positive(float),
        default=60.0,
        metavar="SECONDS",
        help="with --tournament: an event that is not a sit & go starts this long after it "
        "has its minimum of entries (default 60)",
    )
    p.add_argument(
        "--fsync", action="store_true", help="fsync every action (survives power loss; slower)"
    )
    p.add_argument("--log-level", default="info", choices=("debug", "info", "warning", "error"))
    p.set_defaults(func=run)
    return p


def build_tables(args: argparse.Namespace) -> list[Any]:
    """The table configurations the options describe (ArgumentError for a bad combination)."""
    from triple_draw.cli import rake_fields
    from triple_draw.game import Rules
    from triple_draw.server.tables import TableConfig

    if args.tables < 1:
        raise ArgumentError("--tables must be at least 1")
    if not 2 <= args.seats <= 8:
        raise ArgumentError(f"--seats must be 2..8, got {args.seats}")
    if args.bots >= args.seats:
        raise ArgumentError(f"--bots {args.bots} leaves no seat for a person at {args.seats} seats")
    rules = getattr(Rules, args.rules)(args.small_bet, max_players=args.seats, **rake_fields(args))
    buy_in = args.buy_in if args.buy_in is not None else 50 * rules.big_bet
    if buy_in < rules.big_blind:
        raise ArgumentError(f"--buy-in {buy_in} is less than the big blind {rules.big_blind}")
    min_buy_in = getattr(args, "min_buy_in", None)
    if min_buy_in is not None and not 1 <= min_buy_in <= buy_in:
        raise ArgumentError(f"--min-buy-in must be 1..{buy_in} (the buy-in), got {min_buy_in}")
    from triple_draw.bots import make_bot

    make_bot(args.bot)  # ValueError naming the bot if unknown
    return [
        TableConfig(
            id=f"t{k + 1}",
            name=f"Table {k + 1}",
            rules=rules,
            buy_in=buy_in,
            clock=args.clock,
            bots=args.bots,
            bot=args.bot,
            bot_delay=args.bot_delay,
            hand_pause=args.hand_pause,
            seat_timeout=args.seat_timeout,
            time_bank=args.time_bank,
            missed_turns=args.missed_turns,
            sit_out_timeout=args.sit_out_timeout,
            min_buy_in=min_buy_in,
        )
        for k in range(args.tables)
    ]


def allowed_hosts(args: argparse.Namespace) -> list[str]:
    """The host names the server answers to besides ``localhost`` and IP addresses: the
    ``--allow-host`` names, and ``--host`` when it is a name (not an address)."""
    import ipaddress

    names = list(args.allow_host or ())
    try:
        ipaddress.ip_address(args.host.strip("[]"))
    except ValueError:
        if args.host:
            names.append(args.host)
    return names


def listening_socket(host: str, port: int) -> tuple[Any, str]:
    """A TCP socket bound to ``host``:``port`` and listening (connections wait in its
    backlog from the moment the URL is printed), and its address as a URL shows it
    (``127.0.0.1:8000``, ``[::1]:8000``). :class:`ArgumentError` if it cannot bind."""
    import socket

    # IPPROTO_TCP spelled out: asyncio turns Nagle off (TCP_NODELAY) only on sockets that
    # say so, and small frames would otherwise wait for delayed ACKs (~40 ms)
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    try:
        sock.bind((host, port))
    except OSError as e:
        sock.close()
        raise ArgumentError(f"cannot listen on {host}:{port}: {e.strerror}") from None
    sock.listen(2048)
    bound, real_port = sock.getsockname()[:2]
    return sock, (f"[{bound}]" if ":" in bound else bound) + f":{real_port}"


def extra_installed(command: str, what: str) -> bool:
    """Whether the server extra's modules are there; if not, one error line on stderr
    naming those missing (``command``: ``serve`` or ``replay``; ``what`` needs them)."""
    missing = [m for m in REQUIRED if importlib.util.find_spec(m) is None]
    if missing:
        sys.stderr.write(
            f"triple-draw {command}: error: {what} needs {', '.join(missing)}: {EXTRA_HINT}\n"
        )
    return not missing


def _check_accounts_seated(store: Any, accounts: bool, db: str) -> None:
    """Without ``--accounts``, a database where players of accounts are seated is refused
    (their chips would never go back to their accounts); so is a tournament's database."""
    rows = store.load_tables()
    if any(isinstance(v, dict) and v.get("kind") == "tournament" for v in rows.values()):
        raise ArgumentError(
            f"{db} holds a tournament: serve it with --tournament, or use another --db"
        )
    if accounts:
        return
    for tid, state in sorted(rows.items()):
        if any(isinstance(s, dict) and "account" in s for s in state.get("seats") or ()):
            raise ArgumentError(
                f"players of accounts are seated at table {tid} of {db}: serve it with --accounts"
            )


def build_tournament(args: argparse.Namespace) -> Any:
    """The :class:`~triple_draw.server.tourney.TournamentConfig` of ``--tournament``
    (ArgumentError or SchemaError naming what is wrong)."""
    from triple_draw.bots import make_bot
    from triple_draw.server.tourney import TournamentConfig
    from triple_draw.structure import Structure

    if args.accounts:
        raise ArgumentError("--tournament does not take --accounts (entries are free here)")
    st = Structure.of(args.tournament)
    if args.tournament_bots is None:
        bots = st.max_entries - 1 if st.max_entries is not None else 0
    else:
        bots = args.tournament_bots
    if st.max_entries is not None and bots > st.max_entries:
        raise ArgumentError(
            f"--tournament-bots {bots}: the tournament {st.name!r} takes {st.max_entries} entries"
        )
    make_bot(args.bot)  # ArgumentError naming the bot if unknown
    return TournamentConfig(
        structure=st,
        bots=bots,
        bot=args.bot,
        clock=args.clock,
        bot_delay=args.bot_delay,
        hand_pause=args.hand_pause,
        start_delay=args.start_delay,
    )


def run(args: argparse.Namespace) -> int:
    if not extra_installed("serve", "the server"):
        return 2
    if getattr(args, "tournament", None) is not None:
        return _run_tournament(args)
    if getattr(args, "tournament_bots", None) is not None:
        raise ArgumentError("--tournament-bots needs --tournament PRESET_OR_FILE")

    if args.accounts:
        from triple_draw.server.accounts import require_argon2

        require_argon2()  # MissingExtraError: one line, exit status 2
    if args.session_days <= 0:
        raise ArgumentError(f"--session-days must be > 0, got {args.session_days:g}")

    import uvicorn

    from triple_draw.server.app import ServerSettings, create_app
    from triple_draw.server.store import SQLiteStore

    tables = build_tables(args)
    store = SQLiteStore(args.db, synchronous="FULL" if args.fsync else "NORMAL")
    try:
        _check_accounts_seated(store, args.accounts, args.db)
    except ArgumentError:
        store.close()
        raise
    app = create_app(
        tables,
        store,
        ServerSettings(
            allowed_origins=args.allow_origin,
            rate=args.rate,
            burst=max(1, int(2 * args.rate)),
            allowed_hosts=allowed_hosts(args),
            connections_per_address=args.max_connections_per_address,
            seats_per_address=args.max_seats_per_address,
            spectators_per_table=args.max_spectators,
            history_rate=args.history_rate,
            replay_rate=args.replay_rate,
            accounts=args.accounts,
            login_rate=args.login_rate,
            session_ttl=args.session_days * 86400.0,
        ),
    )
    try:
        sock, shown = listening_socket(args.host, args.port)
    except ArgumentError:
        store.close()
        raise
    print(f"triple-draw serve: open http://{shown}/ (database {args.db})", flush=True)
    config = uvicorn.Config(
        app,
        log_level=args.log_level,
        ws_max_size=64 * 1024,
        # frames are small and mostly sent on fast links: compression costs more CPU
        # than it saves
        ws_per_message_deflate=False,
        ws_ping_interval=20.0,
        ws_ping_timeout=20.0,
        server_header=False,
    )
    # the WebSocket library's debug log can print frames, and frames carry seat tokens
    import logging

    for name in ("websockets", "uvicorn.protocols.websockets"):
        logging.getLogger(name).setLevel(max(logging.INFO, logging.getLogger(name).level))
    uvicorn.Server(config).run(sockets=[sock])
    return 0


def _uvicorn_config(app: Any, args: argparse.Namespace) -> Any:
    import logging

    import uvicorn

    for name in ("websockets", "uvicorn.protocols.websockets"):
        logging.getLogger(name).setLevel(max(logging.INFO, logging.getLogger(name).level))
    return uvicorn.Config(
        app,
        log_level=args.log_level,
        ws_max_size=64 * 1024,
        ws_per_message_deflate=False,
        ws_ping_interval=20.0,
        ws_ping_timeout=20.0,
        server_header=False,
    )


def _run_tournament(args: argparse.Namespace) -> int:
    """``serve --tournament``: one tournament (``tourney.py``), in the same database
    file as tables would be (its row is the tournament's)."""
    import uvicorn

    from triple_draw.server.app import ServerSettings, create_tournament_app
    from triple_draw.server.store import SQLiteStore

    config = build_tournament(args)
    store = SQLiteStore(args.db, synchronous="FULL" if args.fsync else "NORMAL")
    rows = store.load_tables()
    other = sorted(k for k, v in rows.items() if v.get("kind") != "tournament")
    if other:
        store.close()
        raise ArgumentError(f"{args.db} holds tables ({', '.join(other)}): use another --db")
    app = create_tournament_app(
        config,
        store,
        ServerSettings(
            allowed_origins=args.allow_origin,
            rate=args.rate,
            burst=max(1, int(2 * args.rate)),
            allowed_hosts=allowed_hosts(args),
            connections_per_address=args.max_connections_per_address,
        ),
    )
    try:
        sock, shown = listening_socket(args.host, args.port)
    except ArgumentError:
        store.close()
        raise
    name = config.structure.name
    print(
        f"triple-draw serve: open http://{shown}/ (tournament {name}, database {args.db})",
        flush=True,
    )
    uvicorn.Server(_uvicorn_config(app, args)).run(sockets=[sock])
    return 0
