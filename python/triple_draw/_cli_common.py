"""What every subcommand module of the command line shares (``cli.py`` and the
``_cli_*.py`` modules it loads on demand import it; it imports none of them)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

__all__ = ["JSON_SCHEMA_VERSION", "UsageError", "_int_range", "_print_json"]

#: The version of the JSON documents ``--json`` prints (see docs/cli.md).
JSON_SCHEMA_VERSION = 1


class UsageError(Exception):
    """A bad argument found after parsing (exit status 2)."""


def _print_json(data: dict[str, Any]) -> None:
    """Print a JSON object, ``schema_version`` first (the shapes: docs/cli.md)."""
    data = {"schema_version": JSON_SCHEMA_VERSION, **data}
    sys.stdout.write(json.dumps(data, indent=2) + "\n")


def _int_range(lo: int, hi: int | None = None, what: str = "an integer") -> Any:
    """An argparse ``type``: a whole number from ``lo`` to ``hi`` (no upper bound if
    ``None``); ``what`` names it in the message for text that is not one."""

    def parse(text: str) -> int:
        try:
            v = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {what}, got {text!r}") from None
        if v < lo or (hi is not None and v > hi):
            bound = f"between {lo} and {hi}" if hi is not None else f"at least {lo}"
            raise argparse.ArgumentTypeError(f"{v} is not {bound}")
        return v

    return parse
