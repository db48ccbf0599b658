"""``triple-draw replay FILE``: the hand replayer (``replayer.py``) on a local server with
that file, its URL printed. Imports only the standard library at import time."""

from __future__ import annotations

import argparse
from typing import Any

__all__ = ["add_replay_parser", "run"]


def add_replay_parser(sub: Any) -> argparse.ArgumentParser:
    from triple_draw.server.cli import EXTRA_HINT, _port

    p: argparse.ArgumentParser = sub.add_parser(
        "replay",
        help="step through a hand history in the browser (extra: server)",
        description="Start a local server with the hand replayer on FILE (a PokerStars, "
        "Full Tilt Poker or Winamax hand history, or PHH) and print its URL: step through "
        "each hand action by action, with the review's verdict on each draw of the player "
        f"whose cards the record shows. Needs {EXTRA_HINT}.",
        epilog="Example: triple-draw replay HH20260304.txt",
    )
    p.add_argument("file", metavar="FILE", help="a hand-history or PHH file")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=_port, default=8001, help="port (default 8001; 0: any free)")
    p.add_argument(
        "--allow-host",
        action="append",
        metavar="NAME",
        help="a host name the replayer answers to besides localhost and IP addresses "
        "(repeatable; refuses others, against DNS rebinding)",
    )
    p.add_argument("--log-level", default="warning", choices=("debug", "info", "warning", "error"))
    p.set_defaults(func=run)
    return p


def run(args: argparse.Namespace) -> int:
    from triple_draw.server.cli import allowed_hosts, extra_installed, listening_socket

    if not extra_installed("replay", "the replayer"):
        return 2
    from pathlib import Path

    import uvicorn

    from triple_draw.histories._text import check_path
    from triple_draw.server.replayer import create_replay_app, replay_document

    check_path(args.file)
    doc = replay_document(Path(args.file).read_bytes())  # its errors before the server starts
    # the names it answers to: --allow-host, and --host given as a name (as for serve)
    app = create_replay_app(args.file, allowed_hosts(args))
    sock, shown = listening_socket(args.host, args.port)
    n = len(doc["hands"])
    print(
        f"triple-draw replay: open http://{shown}/replay?source=file "
        f"({n} hand{'' if n == 1 else 's'} of {args.file})",
        flush=True,
    )
    config = uvicorn.Config(app, log_level=args.log_level, server_header=False)
    uvicorn.Server(config).run(sockets=[sock])
    return 0
