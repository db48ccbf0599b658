"""Storage of the tables: one small interface (:class:`Store`) and its SQLite implementation.

What is stored:

- every applied action, keyed by ``(hand id, sequence number)``: a primary key, so the
  same action can never be stored - or applied - twice. An action is committed before it
  is acknowledged or shown to anybody;
- one *state document* per table (JSON): the seats with names, token digests and stacks,
  the button, the chips bought in and cashed out, and the hand in progress as
  :meth:`Hand.to_dict` - the deck's state included - with the number of its actions
  applied so far. It is written when a hand starts and ends (with its last action, in one
  transaction), and whenever the seating changes; to resume, the hand's later actions are
  applied again to it, dealing from the stored deck state: the very same cards;
- every finished hand with its PHH text and final document, and who played it (by the
  digest of the seat token), for the history downloads;
- every second, the clock of each table's decision (:meth:`Store.save_clocks`): the
  seconds its player has left, so a restart gives him those and does not count the time
  the server was down against him.

Tokens themselves are never stored: only their SHA-256 digest.

Another database (a server shared by many processes, see docs/server.md) implements the
same seven abstract methods (and, optionally, the three with defaults).
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NamedTuple

from triple_draw.errors import TripleDrawError

__all__ = ["DuplicateActionError", "PlayedHand", "SQLiteStore", "Store", "StoreError"]


class StoreError(TripleDrawError, RuntimeError):
    """The storage failed or holds something unreadable."""


class DuplicateActionError(StoreError):
    """An action with this (hand id, sequence number) is already stored."""


#: A finished hand to store with the action that ended it: (PHH text, final document).
Finish = tuple[str, dict[str, Any]]


class PlayedHand(NamedTuple):
    """A finished hand someone played, as :meth:`Store.hands_of` gives it."""

    hand_id: int
    #: his seat in the hand (``0..n-1``, the hand's seats)
    hand_seat: int
    #: the hand's final document (:meth:`Hand.to_dict`: every card - for the server only)
    final: dict[str, Any]
    #: the players' names, by hand seat
    names: list[str]
    #: the table it was played at
    table_id: str = ""
    #: the players' table seats (``0..max_players-1``), by hand seat
    table_seats: tuple[int, ...] = ()
    #: when it started (seconds since the epoch, ``time.time()``); ``None``: not stored
    started: float | None = None


class Store(ABC):
    """Where tables live between restarts. Each method is one atomic transaction."""

    @abstractmethod
    def load_tables(self) -> dict[str, dict[str, Any]]:
        """Every table's last committed state document, by table id."""

    @abstractmethod
    def save_table(self, table_id: str, state: dict[str, Any]) -> None:
        """Replace a table's state (seating changes between actions)."""

    @abstractmethod
    def begin_hand(
        self,
        table_id: str,
        players: Sequence[tuple[str, int, int, str]],
        state: Callable[[int], dict[str, Any]],
    ) -> int:
        """Allocate a new hand id, record ``players`` as ``(player key, hand seat, table
        seat, name)`` and store ``state(hand_id)`` as the table's state; returns the hand
        id."""

    @abstractmethod
    def record_action(
        self,
        table_id: str,
        hand_id: int,
        seq: int,
        table_seat: int,
        action: dict[str, Any],
        state: dict[str, Any] | None = None,
        finish: Finish | None = None,
    ) -> None:
        """Store action number ``seq`` of a hand - with, if given, the table's state
        after it and the finished hand it ended. :class:`DuplicateActionError` if that
        action number is already stored; nothing is written then."""

    @abstractmethod
    def actions_since(self, hand_id: int, seq: int) -> list[tuple[int, int, dict[str, Any]]]:
        """The stored actions of a hand from number ``seq`` on: ``(seq, table seat,
        action)``, in order."""

    def decision_started(self, hand_id: int, seq: int) -> float | None:
        """When decision number ``seq`` of a hand began (``time.time()``): when its
        previous action was stored, or when the hand began. ``None``: not known (a store
        that keeps no times; a restarted clock then starts afresh)."""
        return None

    def save_clocks(self, at: float, clocks: dict[str, tuple[int, int, float | None]]) -> None:
        """Store, by table id, the decision each table waits for and the seconds its
        clock has left (``(hand id, seq, left)``; ``left`` ``None``: no player's clock is
        running), as of ``at`` (``time.time()``). The server calls it every second and
        when it stops. A store that keeps no clocks ignores it (a restart then counts the
        time from when the decision began)."""
        return None

    def load_clocks(self) -> dict[str, tuple[int, int, float | None, float]]:
        """What :meth:`save_clocks` stored last, by table id: ``(hand id, seq, left,
        at)``."""
        return {}

    @abstractmethod
    def hands_of(
        self, player: str, limit: int = 1000, offset: int = 0, hand_id: int | None = None
    ) -> list[PlayedHand]:
        """The finished hands ``player`` played, oldest first, at most ``limit`` of them
        after the first ``offset``: each a :class:`PlayedHand` (hand id, his hand seat,
        final document, the players' names and table seats by hand seat, the table, when
        it started). ``hand_id``: only that hand (none if he did not play it)."""

    @abstractmethod
    def close(self) -> None: ...


_SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    state TEXT NOT NULL,
    updated REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS hands (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    table_id TEXT NOT NULL,
    started REAL NOT NULL,
    finished REAL,
    phh TEXT,
    final TEXT
);
CREATE TABLE IF NOT EXISTS hand_players (
    hand_id INTEGER NOT NULL REFERENCES hands(id),
    player TEXT NOT NULL,
    hand_seat INTEGER NOT NULL,
    table_seat INTEGER NOT NULL,
    name TEXT NOT NULL,
    PRIMARY KEY (hand_id, hand_seat)
);
CREATE INDEX IF NOT EXISTS hand_players_player ON hand_players(player);
CREATE TABLE IF NOT EXISTS actions (
    hand_id INTEGER NOT NULL REFERENCES hands(id),
    seq INTEGER NOT NULL,
    table_seat INTEGER NOT NULL,
    action TEXT NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (hand_id, seq)
);
CREATE TABLE IF NOT EXISTS clocks (
    table_id TEXT PRIMARY KEY,
    hand_id INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    left_seconds REAL,
    at REAL NOT NULL
);
"""


class SQLiteStore(Store):
    """The store in one SQLite file (stdlib ``sqlite3``, WAL journal).

    ``synchronous``: ``"NORMAL"`` (default) makes every commit survive the server process
    being killed at any moment; ``"FULL"`` also survives the machine losing power, at the
    cost of an fsync per action.

    The write-ahead log is copied back into the database (a checkpoint, which fsyncs) by
    a background thread every ``checkpoint_every`` seconds rather than by whichever
    commit happens to fill it, so no action waits for a checkpoint."""

    def __init__(
        self, path: str | Path, *, synchronous: str = "NORMAL", checkpoint_every: float = 1.0
    ) -> None:
        if synchronous not in ("NORMAL", "FULL"):
            raise StoreError(f"synchronous must be 'NORMAL' or 'FULL', got {synchronous!r}")
        self.path = str(path)
        try:
            db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute(f"PRAGMA synchronous={synchronous}")
            db.execute("PRAGMA foreign_keys=ON")
            db.execute("PRAGMA wal_autocheckpoint=0")
            db.executescript(_SCHEMA)
        except sqlite3.Error as e:
            raise StoreError(f"cannot open the database {self.path!r}: {e}") from None
        self._db = db
        self._lock = threading.Lock()
        self._closed = threading.Event()
        self._checkpointer = threading.Thread(
            target=self._checkpoints,
            args=(checkpoint_every,),
            name="sqlite-checkpoint",
            daemon=True,
        )
        self._checkpointer.start()

    def _checkpoints(self, every: float) -> None:
        try:
            db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        except sqlite3.Error:  # pragma: no cover - the main connection just opened it
            return
        try:
            while not self._closed.wait(every):
                try:
                    db.execute("PRAGMA wal_checkpoint(PASSIVE)")
                except sqlite3.Error:  # busy: the next round does it
                    pass
        finally:
            db.close()

    def _tx(self, work: Callable[[sqlite3.Connection], Any]) -> Any:
        with self._lock:
            db = self._db
            try:
                db.execute("BEGIN IMMEDIATE")
                try:
                    out = work(db)
                except BaseException:
                    db.execute("ROLLBACK")
                    raise
                db.execute("COMMIT")
            except sqlite3.IntegrityError as e:
                raise DuplicateActionError(str(e)) from None
            except sqlite3.Error as e:
                raise StoreError(f"database error: {e}") from None
            return out

    @staticmethod
    def _put_state(db: sqlite3.Connection, table_id: str, state: dict[str, Any]) -> None:
        db.execute(
            "INSERT INTO tables (id, state, updated) VALUES (?, ?, ?) "
            "ON CONFLICT(id) DO UPDATE SET state = excluded.state, updated = excluded.updated",
            (table_id, json.dumps(state, separators=(",", ":")), time.time()),
        )

    def load_tables(self) -> dict[str, dict[str, Any]]:
        with self._lock:
            rows = self._db.execute("SELECT id, state FROM tables").fetchall()
        out = {}
        for tid, text in rows:
            try:
                out[tid] = json.loads(text)
            except ValueError as e:
                raise StoreError(f"table {tid!r}: unreadable state: {e}") from None
        return out

    def save_table(self, table_id: str, state: dict[str, Any]) -> None:
        self._tx(lambda db: self._put_state(db, table_id, state))

    def begin_hand(
        self,
        table_id: str,
        players: Sequence[tuple[str, int, int, str]],
        state: Callable[[int], dict[str, Any]],
    ) -> int:
        def work(db: sqlite3.Connection) -> int:
            cur = db.execute(
                "INSERT INTO hands (table_id, started) VALUES (?, ?)", (table_id, time.time())
            )
            hand_id = cur.lastrowid
            assert hand_id is not None
            db.executemany(
                "INSERT INTO hand_players (hand_id, player, hand_seat, table_seat, name) "
                "VALUES (?, ?, ?, ?, ?)",
                [(hand_id, key, hs, ts, name) for key, hs, ts, name in players],
            )
            self._put_state(db, table_id, state(hand_id))
            return hand_id

        result: int = self._tx(work)
        return result

    def record_action(
        self,
        table_id: str,
        hand_id: int,
        seq: int,
        table_seat: int,
        action: dict[str, Any],
        state: dict[str, Any] | None = None,
        finish: Finish | None = None,
    ) -> None:
        def work(db: sqlite3.Connection) -> None:
            now = time.time()
            db.execute(
                "INSERT INTO actions (hand_id, seq, table_seat, action, at) VALUES (?, ?, ?, ?, ?)",
                (hand_id, seq, table_seat, json.dumps(action), now),
            )
            if state is not None:
                self._put_state(db, table_id, state)
            if finish is not None:
                phh_text, final = finish
                db.execute(
                    "UPDATE hands SET finished = ?, phh = ?, final = ? WHERE id = ?",
                    (now, phh_text, json.dumps(final, separators=(",", ":")), hand_id),
                )

        self._tx(work)

    def hands_of(
        self, player: str, limit: int = 1000, offset: int = 0, hand_id: int | None = None
    ) -> list[PlayedHand]:
        one = "" if hand_id is None else "AND h.id = ? "
        with self._lock:
            rows = self._db.execute(
                "SELECT h.id, p.hand_seat, h.final, h.table_id, h.started "
                "FROM hand_players p JOIN hands h "
                f"ON h.id = p.hand_id WHERE p.player = ? AND h.final IS NOT NULL {one}"
                "ORDER BY h.id LIMIT ? OFFSET ?",
                (player, *(() if hand_id is None else (hand_id,)), limit, offset),
            ).fetchall()
            seats: dict[int, list[tuple[str, int]]] = {}
            if rows:  # the players of these hands only (not of every hand he played)
                for hid, name, ts in self._db.execute(
                    "SELECT p.hand_id, p.name, p.table_seat FROM hand_players p "
                    "JOIN hand_players me ON me.hand_id = p.hand_id "
                    "WHERE me.player = ? AND p.hand_id BETWEEN ? AND ? "
                    "ORDER BY p.hand_id, p.hand_seat",
                    (player, rows[0][0], rows[-1][0]),
                ):
                    seats.setdefault(hid, []).append((name, ts))
        return [
            PlayedHand(
                hid,
                hs,
                json.loads(final),
                [name for name, _ in seats[hid]],
                table_id,
                tuple(ts for _, ts in seats[hid]),
                started,
            )
            for hid, hs, final, table_id, started in rows
        ]

    def save_clocks(self, at: float, clocks: dict[str, tuple[int, int, float | None]]) -> None:
        def work(db: sqlite3.Connection) -> None:
            db.executemany(
                "INSERT INTO clocks (table_id, hand_id, seq, left_seconds, at) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT(table_id) DO UPDATE SET "
                "hand_id = excluded.hand_id, seq = excluded.seq, "
                "left_seconds = excluded.left_seconds, at = excluded.at",
                [(t, h, q, left, at) for t, (h, q, left) in clocks.items()],
            )

        self._tx(work)

    def load_clocks(self) -> dict[str, tuple[int, int, float | None, float]]:
        with self._lock:
            rows = self._db.execute(
                "SELECT table_id, hand_id, seq, left_seconds, at FROM clocks"
            ).fetchall()
        return {t: (h, q, left, at) for t, h, q, left, at in rows}

    def actions_since(self, hand_id: int, seq: int = 0) -> list[tuple[int, int, dict[str, Any]]]:
        with self._lock:
            rows = self._db.execute(
                "SELECT seq, table_seat, action FROM actions WHERE hand_id = ? AND seq >= ? "
                "ORDER BY seq",
                (hand_id, seq),
            ).fetchall()
        return [(s, ts, json.loads(a)) for s, ts, a in rows]

    def decision_started(self, hand_id: int, seq: int) -> float | None:
        with self._lock:
            if seq == 0:
                row = self._db.execute("SELECT started FROM hands WHERE id = ?", (hand_id,))
            else:
                row = self._db.execute(
                    "SELECT at FROM actions WHERE hand_id = ? AND seq = ?", (hand_id, seq - 1)
                )
            found = row.fetchone()
        return None if found is None else float(found[0])

    def close(self) -> None:
        self._closed.set()
        with self._lock:
            self._db.close()
        if self._checkpointer is not threading.current_thread():
            self._checkpointer.join(timeout=5)
