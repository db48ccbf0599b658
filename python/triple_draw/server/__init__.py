"""``triple-draw serve``: a table server and a web table (the optional ``server`` extra).

A Starlette (ASGI) application served by uvicorn: tables play continuously on the
engine's :class:`~triple_draw.Table`, people play in the browser over a WebSocket, bots
fill empty seats, and every action is committed to SQLite before it is acknowledged.
See docs/server.md.

Modules, one job each: ``protocol`` (the versioned JSON protocol and its schemas),
``engine`` (the one place that calls the engine), ``tables`` (a live table), ``store``
(storage), ``app`` (HTTP and WebSocket), ``accounts`` (the optional accounts: passwords,
sessions, the cashier's API), ``cli`` (the ``serve`` command), ``accounts_cli`` (the
``accounts`` command).
"""

from __future__ import annotations

__all__ = ["create_app", "ServerSettings", "TableConfig", "SQLiteStore", "Store"]

from typing import Any

from triple_draw.server.store import SQLiteStore, Store
from triple_draw.server.tables import TableConfig


def __getattr__(name: str) -> Any:
    # the app needs Starlette (the extra): imported only when asked for, so that the
    # command line can say which extra is missing instead of failing at import
    if name in ("create_app", "ServerSettings"):
        from triple_draw.server import app

        return getattr(app, name)
    raise AttributeError(f"module 'triple_draw.server' has no attribute {name!r}")
