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
  the server was down against him;
- the accounts of ``triple-draw serve --accounts`` (docs/server.md, *Accounts*): each
  account's name, argon2 password hash, balance in chips and creation time; its sessions
  (the SHA-256 digest of each session token, and when it expires); the ledger of every
  change of a balance (an admin's credit or debit, a buy-in, a cash-out) with the balance
  after it; and which account each seat token's seat belongs to. A buy-in or a cash-out
  is written in the very transaction that stores the table's state with the chips
  arrived or gone (the ``moves`` of :meth:`Store.save_table`, :meth:`Store.begin_hand`
  and :meth:`Store.record_action`), so a crash at any moment neither loses nor
  duplicates chips.

Tokens themselves - seat tokens, session tokens - are never stored: only their SHA-256
digest.

The database's schema version is SQLite's ``user_version`` (:data:`SCHEMA_VERSION`):
opening a database of an earlier version adds what the new version keeps (version 0,
before accounts, gains the account tables, empty); one of a later version is refused.

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

__all__ = [
    "Account",
    "AccountError",
    "AccountMove",
    "DuplicateActionError",
    "InsufficientFundsError",
    "LedgerEntry",
    "NameTakenError",
    "PlayedHand",
    "SCHEMA_VERSION",
    "SQLiteStore",
    "Store",
    "StoreError",
    "UnknownAccountError",
]

#: The database's schema (SQLite's ``user_version``): 0, the tables, hands and clocks;
#: 1, and the accounts, their sessions, the ledger and the seats of accounts.
SCHEMA_VERSION = 1
#: The most chips one credit may move, and the most an account may hold.
MAX_CREDIT = 10**12
MAX_BALANCE = 10**15


class StoreError(TripleDrawError, RuntimeError):
    """The storage failed or holds something unreadable."""


class DuplicateActionError(StoreError):
    """An action with this (hand id, sequence number) is already stored."""


class AccountError(TripleDrawError, ValueError):
    """An account operation refused (nothing was written): the message says why."""


class NameTakenError(AccountError):
    """An account of that name (case and compatibility forms folded) exists already."""


class UnknownAccountError(AccountError):
    """No account of that name (or id)."""


class InsufficientFundsError(AccountError):
    """The balance is short of a buy-in or a debit; ``balance`` is what it holds."""

    def __init__(self, message: str, balance: int) -> None:
        super().__init__(message)
        self.balance = balance


class Account(NamedTuple):
    """An account as the store keeps it (``password_hash``: argon2's encoded hash)."""

    id: int
    name: str
    balance: int
    created: float
    password_hash: str


class AccountMove(NamedTuple):
    """A change of an account's balance to store with a table's state: ``amount`` chips
    (negative: a buy-in leaving the balance for the table; positive: a cash-out coming
    back), of ``kind`` ``"buy_in"``, ``"top_up"`` or ``"cash_out"``, at table
    ``table_id``; ``seat_key``: the digest of the seat token a buy-in gave (the seat is
    the account's)."""

    account: int
    amount: int
    kind: str
    table_id: str
    note: str = ""
    seat_key: str = ""


class LedgerEntry(NamedTuple):
    """One change of a balance: when, what (``credit``, ``debit``, ``buy_in``,
    ``top_up``, ``cash_out``), by how many chips (signed), the balance after it, the table
    (``""``: none) and a note."""

    at: float
    kind: str
    amount: int
    balance: int
    table_id: str
    note: str


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
    def save_table(
        self, table_id: str, state: dict[str, Any], moves: Sequence[AccountMove] = ()
    ) -> None:
        """Replace a table's state (seating changes between actions); with it, in the
        same transaction, apply ``moves`` to the accounts (buy-ins, cash-outs).
        :class:`InsufficientFundsError` if a balance is short of its move: nothing is
        written then."""

    @abstractmethod
    def begin_hand(
        self,
        table_id: str,
        players: Sequence[tuple[str, int, int, str]],
        state: Callable[[int], dict[str, Any]],
        moves: Sequence[AccountMove] = (),
    ) -> int:
        """Allocate a new hand id, record ``players`` as ``(player key, hand seat, table
        seat, name)`` and store ``state(hand_id)`` as the table's state (and ``moves``,
        as :meth:`save_table` does); returns the hand id."""

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
        moves: Sequence[AccountMove] = (),
    ) -> None:
        """Store action number ``seq`` of a hand - with, if given, the table's state
        after it, the finished hand it ended and the accounts' ``moves`` (the cash-outs
        of the players who left when it ended; only with a state).
        :class:`DuplicateActionError` if that action number is already stored; nothing
        is written then."""

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

    # -- accounts (``serve --accounts``): a store that keeps none refuses them -------------

    def _no_accounts(self) -> StoreError:
        return StoreError(f"{type(self).__name__} keeps no accounts")

    def create_account(
        self,
        name: str,
        key: str,
        password_hash: str,
        session: tuple[str, float, str | None] | None = None,
    ) -> Account:
        """A new account with a balance of 0 - and, in the same transaction, its first
        session, ``(digest, expires, replaces)`` as :meth:`create_session` takes them;
        :class:`NameTakenError` if an account's name has the key ``key`` already
        (``tables.name_key``): nothing is written then."""
        raise self._no_accounts()

    def account_by_name(self, key: str) -> Account | None:
        """The account whose name has the key ``key``."""
        raise self._no_accounts()

    def account_by_id(self, account_id: int) -> Account | None:
        raise self._no_accounts()

    def accounts(self) -> list[Account]:
        """Every account, by name."""
        raise self._no_accounts()

    def set_password_hash(self, account_id: int, password_hash: str) -> None:
        """Replace an account's hash (rehashed with the current parameters)."""
        raise self._no_accounts()

    def create_session(
        self,
        digest: str,
        account_id: int,
        expires: float,
        replaces: str | None = None,
        keep: int = 20,
    ) -> None:
        """Store a session (``digest``: its token's SHA-256) of an account until
        ``expires`` (``time.time()``); in the same transaction delete the session
        ``replaces`` (the one the client presented, whoever's it was), every expired
        session, and the account's oldest sessions beyond ``keep``."""
        raise self._no_accounts()

    def session(self, digest: str, now: float) -> tuple[Account, float] | None:
        """The account of a session not expired at ``now``, and when it expires."""
        raise self._no_accounts()

    def delete_session(self, digest: str) -> None:
        raise self._no_accounts()

    def credit(self, key: str, amount: int, note: str = "") -> int:
        """Credit (``amount`` > 0) or debit (< 0) the account whose name has the key
        ``key``, recorded in the ledger; returns the new balance.
        :class:`UnknownAccountError`, or :class:`InsufficientFundsError` for a debit
        beyond the balance (nothing written)."""
        raise self._no_accounts()

    def ledger(self, account_id: int, limit: int = 50) -> list[LedgerEntry]:
        """An account's latest ledger entries, newest first."""
        raise self._no_accounts()

    def seat_account(self, seat_key: str) -> int | None:
        """The account whose buy-in gave the seat token of digest ``seat_key``."""
        raise self._no_accounts()


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
CREATE TABLE IF NOT EXISTS accounts (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    name_key TEXT NOT NULL UNIQUE,
    password_hash TEXT NOT NULL,
    balance INTEGER NOT NULL CHECK (balance >= 0),
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS sessions (
    digest TEXT PRIMARY KEY,
    account_id INTEGER NOT NULL REFERENCES accounts(id),
    created REAL NOT NULL,
    expires REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS sessions_account ON sessions(account_id);
CREATE TABLE IF NOT EXISTS ledger (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    account_id INTEGER NOT NULL REFERENCES accounts(id),
    at REAL NOT NULL,
    kind TEXT NOT NULL,
    amount INTEGER NOT NULL,
    balance INTEGER NOT NULL,
    table_id TEXT NOT NULL DEFAULT '',
    note TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS ledger_account ON ledger(account_id, id);
CREATE TABLE IF NOT EXISTS account_seats (
    seat_key TEXT PRIMARY KEY,
    account_id INTEGER NOT NULL REFERENCES accounts(id),
    table_id TEXT NOT NULL,
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
            version = db.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                db.close()
                raise StoreError(
                    f"the database {self.path!r} has schema version {version}, written by a "
                    f"newer triple_draw; this one knows versions up to {SCHEMA_VERSION}"
                )
            # (every statement of the schema is "IF NOT EXISTS": an earlier version's
            # database gains what it lacks, and keeps everything it has)
            db.executescript(_SCHEMA)
            if version < SCHEMA_VERSION:
                db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
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

    @staticmethod
    def _move(
        db: sqlite3.Connection,
        account_id: int,
        amount: int,
        kind: str,
        table_id: str = "",
        note: str = "",
    ) -> int:
        """Change a balance by ``amount`` and record it in the ledger (inside a
        transaction); returns the balance after it."""
        row = db.execute("SELECT balance FROM accounts WHERE id = ?", (account_id,)).fetchone()
        if row is None:
            raise UnknownAccountError(f"no account #{account_id}")
        balance = int(row[0]) + amount
        if balance < 0:
            raise InsufficientFundsError(
                f"the balance holds {row[0]} chips, short of the {-amount} needed", int(row[0])
            )
        if balance > MAX_BALANCE:
            raise AccountError(f"a balance may hold at most {MAX_BALANCE} chips")
        db.execute("UPDATE accounts SET balance = ? WHERE id = ?", (balance, account_id))
        db.execute(
            "INSERT INTO ledger (account_id, at, kind, amount, balance, table_id, note) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            (account_id, time.time(), kind, amount, balance, table_id, note),
        )
        return balance

    @classmethod
    def _moves(cls, db: sqlite3.Connection, moves: Sequence[AccountMove]) -> None:
        for m in moves:
            cls._move(db, m.account, m.amount, m.kind, m.table_id, m.note)
            if m.seat_key:
                db.execute(
                    "INSERT OR REPLACE INTO account_seats (seat_key, account_id, table_id, at) "
                    "VALUES (?, ?, ?, ?)",
                    (m.seat_key, m.account, m.table_id, time.time()),
                )

    def save_table(
        self, table_id: str, state: dict[str, Any], moves: Sequence[AccountMove] = ()
    ) -> None:
        def work(db: sqlite3.Connection) -> None:
            self._moves(db, moves)
            self._put_state(db, table_id, state)

        self._tx(work)

    def begin_hand(
        self,
        table_id: str,
        players: Sequence[tuple[str, int, int, str]],
        state: Callable[[int], dict[str, Any]],
        moves: Sequence[AccountMove] = (),
    ) -> int:
        def work(db: sqlite3.Connection) -> int:
            self._moves(db, moves)
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
        moves: Sequence[AccountMove] = (),
    ) -> None:
        if moves and state is None:
            raise StoreError("the accounts' moves are stored with the table's state only")

        def work(db: sqlite3.Connection) -> None:
            now = time.time()
            db.execute(
                "INSERT INTO actions (hand_id, seq, table_seat, action, at) VALUES (?, ?, ?, ?, ?)",
                (hand_id, seq, table_seat, json.dumps(action), now),
            )
            if state is not None:
                self._moves(db, moves)
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

    # -- accounts ---------------------------------------------------------------------------

    _ACCOUNT = "SELECT id, name, balance, created, password_hash FROM accounts"

    @staticmethod
    def _account(row: Any) -> Account | None:
        return None if row is None else Account(int(row[0]), row[1], int(row[2]), row[3], row[4])

    def create_account(
        self,
        name: str,
        key: str,
        password_hash: str,
        session: tuple[str, float, str | None] | None = None,
    ) -> Account:
        def work(db: sqlite3.Connection) -> Account:
            if db.execute("SELECT 1 FROM accounts WHERE name_key = ?", (key,)).fetchone():
                raise NameTakenError(f"the name {name!r} is taken")
            now = time.time()
            cur = db.execute(
                "INSERT INTO accounts (name, name_key, password_hash, balance, created) "
                "VALUES (?, ?, ?, 0, ?)",
                (name, key, password_hash, now),
            )
            assert cur.lastrowid is not None
            if session is not None:
                digest, expires, replaces = session
                self._put_session(db, digest, cur.lastrowid, expires, replaces)
            return Account(cur.lastrowid, name, 0, now, password_hash)

        account: Account = self._tx(work)
        return account

    def account_by_name(self, key: str) -> Account | None:
        with self._lock:
            row = self._db.execute(f"{self._ACCOUNT} WHERE name_key = ?", (key,)).fetchone()
        return self._account(row)

    def account_by_id(self, account_id: int) -> Account | None:
        with self._lock:
            row = self._db.execute(f"{self._ACCOUNT} WHERE id = ?", (account_id,)).fetchone()
        return self._account(row)

    def accounts(self) -> list[Account]:
        with self._lock:
            rows = self._db.execute(f"{self._ACCOUNT} ORDER BY name_key").fetchall()
        return [a for a in map(self._account, rows) if a is not None]

    def set_password_hash(self, account_id: int, password_hash: str) -> None:
        self._tx(
            lambda db: db.execute(
                "UPDATE accounts SET password_hash = ? WHERE id = ?", (password_hash, account_id)
            )
        )

    def create_session(
        self,
        digest: str,
        account_id: int,
        expires: float,
        replaces: str | None = None,
        keep: int = 20,
    ) -> None:
        self._tx(lambda db: self._put_session(db, digest, account_id, expires, replaces, keep))

    @staticmethod
    def _put_session(
        db: sqlite3.Connection,
        digest: str,
        account_id: int,
        expires: float,
        replaces: str | None,
        keep: int = 20,
    ) -> None:
        now = time.time()
        if replaces is not None:
            db.execute("DELETE FROM sessions WHERE digest = ?", (replaces,))
        db.execute("DELETE FROM sessions WHERE expires <= ?", (now,))
        db.execute(
            "INSERT INTO sessions (digest, account_id, created, expires) VALUES (?, ?, ?, ?)",
            (digest, account_id, now, expires),
        )
        db.execute(
            "DELETE FROM sessions WHERE account_id = ? AND digest NOT IN (SELECT digest "
            "FROM sessions WHERE account_id = ? ORDER BY created DESC, rowid DESC LIMIT ?)",
            (account_id, account_id, keep),
        )

    def session(self, digest: str, now: float) -> tuple[Account, float] | None:
        with self._lock:
            row = self._db.execute(
                "SELECT a.id, a.name, a.balance, a.created, a.password_hash, s.expires "
                "FROM sessions s JOIN accounts a ON a.id = s.account_id "
                "WHERE s.digest = ? AND s.expires > ?",
                (digest, now),
            ).fetchone()
        account = self._account(row)
        return None if account is None else (account, float(row[5]))

    def delete_session(self, digest: str) -> None:
        self._tx(lambda db: db.execute("DELETE FROM sessions WHERE digest = ?", (digest,)))

    def credit(self, key: str, amount: int, note: str = "") -> int:
        if not isinstance(amount, int) or isinstance(amount, bool) or amount == 0:
            raise AccountError(f"the amount must be a whole number of chips, not 0; got {amount!r}")
        if abs(amount) > MAX_CREDIT:
            raise AccountError(f"one credit moves at most {MAX_CREDIT} chips; got {amount}")

        def work(db: sqlite3.Connection) -> int:
            row = db.execute("SELECT id, name FROM accounts WHERE name_key = ?", (key,)).fetchone()
            if row is None:
                raise UnknownAccountError(f"no account named {key!r}")
            try:
                return self._move(db, row[0], amount, "credit" if amount > 0 else "debit", "", note)
            except InsufficientFundsError as e:
                raise InsufficientFundsError(
                    f"{row[1]} has {e.balance} chips: a debit of {-amount} would leave "
                    f"{e.balance + amount}",
                    e.balance,
                ) from None

        balance: int = self._tx(work)
        return balance

    def ledger(self, account_id: int, limit: int = 50) -> list[LedgerEntry]:
        with self._lock:
            rows = self._db.execute(
                "SELECT at, kind, amount, balance, table_id, note FROM ledger "
                "WHERE account_id = ? ORDER BY id DESC LIMIT ?",
                (account_id, limit),
            ).fetchall()
        return [LedgerEntry(*r) for r in rows]

    def seat_account(self, seat_key: str) -> int | None:
        with self._lock:
            row = self._db.execute(
                "SELECT account_id FROM account_seats WHERE seat_key = ?", (seat_key,)
            ).fetchone()
        return None if row is None else int(row[0])

    def close(self) -> None:
        self._closed.set()
        with self._lock:
            self._db.close()
        if self._checkpointer is not threading.current_thread():
            self._checkpointer.join(timeout=5)
