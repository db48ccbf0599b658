"""What every subcommand module of the command line shares (``cli.py`` and the
``_cli_*.py`` modules it loads on demand import it; it imports none of them)."""

from __future__ import annotations

import json
import sys
from typing import Any

__all__ = ["JSON_SCHEMA_VERSION", "UsageError", "_print_json"]

#: The version of the JSON documents ``--json`` prints (see docs/cli.md).
JSON_SCHEMA_VERSION = 1


class UsageError(Exception):
    """A bad argument found after parsing (exit status 2)."""


def _print_json(data: dict[str, Any]) -> None:
    """Print a JSON object, ``schema_version`` first (the shapes: docs/cli.md)."""
    data = {"schema_version": JSON_SCHEMA_VERSION, **data}
    sys.stdout.write(json.dumps(data, indent=2) + "\n")
