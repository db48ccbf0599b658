"""Tournaments: sit & go and multi-table, played on :class:`~triple_draw.Table`.

A :class:`Tournament` takes entries, seats them at random, deals hand after hand at each
table with the levels of its :class:`~triple_draw.structure.Structure`, eliminates the
players who lose their chips (finishing places in order, simultaneous eliminations ranked
by the chips each started the hand with), moves players between tables by the TDA rules
(balancing, breaking tables in a fixed order, the final table draw), plays hand for hand
on the money bubble, and pays the places. The application drives it: who registers, when
it starts, when each table deals its next hand, and every player's action
(:meth:`Tournament.act`, through the table's :class:`~triple_draw.Hand`).

Every change is recorded, so :meth:`Tournament.to_dict` gives a document that
:meth:`Tournament.from_dict` trusts only by playing it again from the start - every
registration, every deal, every action - and comparing what it finds with what the
document says (docs/tournaments.md, *Saving a tournament*).

>>> t = Tournament("sng2", seed=1)
>>> t.register("ann"), t.register("bob")   # a sit & go starts when it is full
(0, 1)
>>> t.status, t.tables
('running', (1,))
>>> while not t.is_over:
...     hand = t.deal(1)
...     while not hand.is_over:        # both check or call, and stand pat
...         t.act(1, hand.legal_actions()[0 if hand.in_draw else 1])
>>> [(e.player, e.place, e.prize) for e in t.standings()]
[('ann', 1, 200), ('bob', 2, 0)]
"""

from __future__ import annotations

import hashlib
import math
import random
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from triple_draw.errors import (
    ArgumentError,
    ArgumentTypeError,
    IllegalActionError,
    SchemaError,
    TripleDrawError,
    shown,
)
from triple_draw.game.actions import Action
from triple_draw.game.hand import Hand
from triple_draw.game.rules import Rules
from triple_draw.game.table import Table
from triple_draw.structure import (
    MAX_ENTRIES,
    PRESETS,
    Break,
    Level,
    PayoutRow,
    Structure,
)

__all__ = [
    "Tournament",
    "Entry",
    "TournamentInvariantError",
    "TOURNAMENT_SCHEMA_VERSION",
    "Structure",
    "Level",
    "Break",
    "PayoutRow",
    "PRESETS",
    "ENTRY_STATUSES",
    "MAX_PLAYER_NAME",
]

#: The ``schema_version`` :meth:`Tournament.to_dict` writes and :meth:`Tournament.from_dict` reads.
TOURNAMENT_SCHEMA_VERSION = 1
#: An entry's status: registered (not started), playing (at a table), moving (between
#: tables, or waiting for a seat at a table whose hand is still running), busted, winner.
ENTRY_STATUSES = ("registered", "playing", "moving", "busted", "winner")
#: The longest player name (an id chosen by the application).
MAX_PLAYER_NAME = 64
_SEED_LIMIT = 1 << 256
# the kinds of the log's entries: [kind, arguments..., clock reading or None]
_LOG_KINDS = ("register", "unregister", "start", "deal", "end", "absent")
_STAKE_NAMES = ("small_blind", "big_blind", "small_bet", "big_bet", "ante")
_ACTION_CODES = {"fold": "f", "check": "x", "call": "c", "bet": "b", "raise": "r"}
_CODE_KINDS = {v: k for k, v in _ACTION_CODES.items()}


class TournamentInvariantError(TripleDrawError, RuntimeError):
    """An invariant of the tournament does not hold (:meth:`Tournament.check`): chips
    lost or created, an entry placed twice, places that do not add up. A bug, never the
    caller's mistake."""


@dataclass(frozen=True)
class Entry:
    """One entry as :meth:`Tournament.entries` shows it.

    ``place`` is the finishing place (1 = the winner; ``None`` while in play, and for an
    entry busted while registration is open, until it closes); ``places`` the range of
    places tied entries share (``(5, 6)``: tied for 5th-6th; ``(p, p)`` otherwise);
    ``prize`` what the entry won (``None`` until placed)."""

    id: int
    player: str
    #: 0 for a player's first entry, 1 for his first re-entry, ...
    number: int
    status: str
    stack: int
    table: int | None
    seat: int | None
    place: int | None
    places: tuple[int, int] | None
    prize: int | None


def derive_seed(seed: int, *parts: Any) -> int:
    """A 256-bit seed derived from ``seed`` and ``parts`` (SHA-256 of a fixed tag, the
    seed and the parts' text): the tournament's tables, seat draws and simulations each
    draw from their own stream."""
    h = hashlib.sha256(b"triple_draw.tournament/1\0" + seed.to_bytes(32, "little"))
    for p in parts:
        h.update(b"\0" + str(p).encode())
    return int.from_bytes(h.digest(), "little")


class _E:
    """An entry's mutable record."""

    __slots__ = (
        "id", "moves", "number", "place", "place_to", "player", "prize", "seat", "stack",
        "status", "table",
    )  # fmt: skip

    def __init__(self, id: int, player: str, number: int) -> None:
        self.id = id
        self.player = player
        self.number = number
        self.status = "registered"
        self.stack = 0  # chips held while not seated (moving); 0 once busted
        self.table: int | None = None
        self.seat: int | None = None
        self.place: int | None = None
        self.place_to: int | None = None
        self.prize: int | None = None
        self.moves = 0


class _H:
    """A hand dealt by the tournament: its table, the Hand, whether the tournament has
    settled it, and (once recorded) its actions."""

    __slots__ = ("actions", "entries", "hand", "number", "processed", "round", "table")

    def __init__(
        self, table: int, hand: Hand, entries: tuple[int, ...], round: int | None, number: int
    ) -> None:
        self.number = number  # 1-based, in the order the tournament dealt its hands
        self.table = table
        self.hand = hand
        self.processed = False
        self.actions: list[str] | None = None
        self.entries = entries  # entry id of each hand seat
        self.round = round  # the hand-for-hand round it was dealt in


class Tournament:
    """``Tournament(structure, *, seed=None, clock=None, core=None, record=True)``

    - ``structure``: a :class:`~triple_draw.structure.Structure`, a preset name
      (``"sng6"``, ``"sng2"``, ``"mtt"``), a structure document or a file path.
    - ``seed``: an int ``0 <= seed < 2**256`` from which every deck, seat draw and move
      derives (``None``: drawn from the OS; it is in :attr:`seed` and the document).
    - ``clock``: a function returning the time in seconds (``time.time``, or a fake clock
      in tests); it times levels by time and breaks. ``None``: no clock - a structure with
      levels by time is refused, and breaks take no time.
    - ``core``: the core that deals and ranks (see :class:`~triple_draw.Hand`).
    - ``record``: keep what :meth:`to_dict` needs (``False`` for simulations: a little
      faster, and :meth:`to_dict` is refused).

    Bad arguments raise :class:`~triple_draw.ArgumentError`, calls at the wrong time
    :class:`~triple_draw.IllegalActionError` saying why (nothing is changed then).
    """

    def __init__(
        self,
        structure: Structure | str | Mapping[str, Any],
        *,
        seed: int | None = None,
        clock: Callable[[], float] | None = None,
        core: Any = None,
        record: bool = True,
    ) -> None:
        st = Structure.of(structure)
        if seed is None:
            seed = random.SystemRandom().getrandbits(64)
        if type(seed) is not int or not 0 <= seed < _SEED_LIMIT:
            raise ArgumentError(f"seed must be an int 0 <= seed < 2**256, got {seed!r}")
        if clock is not None and not callable(clock):
            raise ArgumentTypeError(f"clock must be a function returning seconds, got {clock!r}")
        if st.level_by == "time" and clock is None:
            raise ArgumentError(
                f"the structure {st.name!r} has levels by time: give a clock (clock=time.time)"
            )
        if type(record) is not bool:
            raise ArgumentError(f"record must be True or False, got {record!r}")
        self.structure = st
        self.seed = seed
        self._clock = clock
        self._core = core
        self._record = record
        self._rng = random.Random(derive_seed(seed, "draws"))
        self._level_rules = [st.level_rules(i) for i in range(len(st.levels))]
        self._entries: list[_E] = []
        self._unregistered: set[int] = set()
        self._by_player: dict[str, list[int]] = {}
        self._tables: dict[int, Table] = {}
        self._seated: dict[int, dict[int, int]] = {}  # table -> {seat: entry id}
        self._arrivals: dict[int, list[tuple[int, str]]] = {}  # table -> [(entry, why)]
        self._current: dict[int, _H] = {}  # table -> its last hand dealt
        self._hands: list[_H] = []
        self._next_table = 1
        self._status = "registering"
        self._started_at: float | None = None
        self._level = 0
        self._level_hands = 0
        self._break_until: float | None = None  # a break under way (levels by hands)
        self._break_done = -1  # the level after which the last break was taken
        self._reg_open = True
        self._deferred: list[list[tuple[int, int]]] = []  # busted while registration is open
        self._chips = 0  # every chip given out
        self._live = 0  # entries still in play (playing or moving)
        self._placed_down_to: int | None = None  # the best place given so far
        self._breaking: int | None = None
        self._final_pending = False
        self._final_table: int | None = None
        self._round: set[int] | None = None  # hand for hand: tables yet to deal this round
        self._round_tables: set[int] = set()
        self._round_no = 0
        self._round_busts: list[tuple[int, int]] = []
        self._prize_list: tuple[int, ...] | None = None
        self._absent: set[str] = set()
        self._events: list[dict[str, Any]] = []
        self._log: list[list[Any]] = []
        self._replaying = False
        self._now: float | None = None

    # -- the clock and the log ------------------------------------------------------------

    def _read_clock(self) -> float | None:
        if self._replaying:
            return self._now
        if self._clock is None:
            return None
        t = self._clock()
        if isinstance(t, bool) or not isinstance(t, (int, float)) or not math.isfinite(t):
            raise ArgumentError(f"the clock must return a finite number of seconds, got {t!r}")
        return float(t)

    def _logged(self, *entry: Any) -> None:
        if not self._replaying:
            self._log.append(list(entry))

    def _event(self, kind: str, **fields: Any) -> None:
        self._events.append({"kind": kind, **fields})

    # -- queries ----------------------------------------------------------------------------

    @property
    def status(self) -> str:
        """``"registering"`` (not started), ``"running"`` or ``"over"``."""
        return self._status

    @property
    def is_over(self) -> bool:
        return self._status == "over"

    @property
    def tables(self) -> tuple[int, ...]:
        """The ids of the tables in play, in order (tables are numbered from 1; a broken
        table's number is not used again)."""
        return tuple(sorted(self._tables))

    def table(self, table_id: int) -> Table:
        """The :class:`~triple_draw.Table` of a table in play (read it; do not seat or
        remove players at it yourself)."""
        self._check_table(table_id)
        return self._tables[table_id]

    def hand(self, table_id: int) -> Hand | None:
        """The current (or last) hand of a table, ``None`` before its first."""
        self._check_table(table_id)
        h = self._current.get(table_id)
        return None if h is None else h.hand

    def hand_number(self, table_id: int) -> int | None:
        """The number of a table's current (or last) hand in the tournament (1 for the
        first hand dealt at any table, then 2, ...), ``None`` before its first."""
        self._check_table(table_id)
        h = self._current.get(table_id)
        return None if h is None else h.number

    @property
    def hands_dealt(self) -> int:
        """Hands dealt so far, at all tables."""
        return len(self._hands)

    def hand_actions(self, table_id: int) -> list[str]:
        """The players' actions of a table's current (or last) hand so far, as the codes
        of the document (``f``, ``x``, ``c``, ``b``, ``r``, ``d`` and the discarded
        cards: *Saving a tournament*); their number counts the decisions made."""
        self._check_table(table_id)
        h = self._current.get(table_id)
        return [] if h is None else _actions_of(h.hand)

    @property
    def final_table(self) -> int | None:
        """The id of the final table once it was drawn (multi-table), else ``None``."""
        return self._final_table

    @property
    def level(self) -> int:
        """The current level, 1-based (in a tournament with levels by time, the level of
        the clock now)."""
        if self._status == "running" and self.structure.level_by == "time":
            now = self._read_clock()
            if now is not None:
                return self._time_level(now)[0] + 1
        return self._level + 1

    @property
    def rules(self) -> Rules:
        """The :class:`~triple_draw.Rules` of the current level."""
        return self._level_rules[self.level - 1]

    @property
    def remaining(self) -> int:
        """Entries still in play."""
        return self._live

    @property
    def registration_open(self) -> bool:
        """Whether a player may enter now (levels by time: until the clock passes the end
        of the last level of late registration)."""
        if not self._reg_open or self._status == "over":
            return False
        return not self._late_registration_over(self._read_clock())

    @property
    def prize_pool(self) -> int:
        """The buy-ins of every entry so far."""
        return self.structure.buy_in * self._n_entries()

    @property
    def prizes(self) -> tuple[int, ...]:
        """The prize of each paid place (1st first) - final once registration closed,
        else for the entries so far."""
        if self._prize_list is not None:
            return self._prize_list
        n = self._n_entries()
        return self.structure.prizes(n) if n else ()

    @property
    def paid_places(self) -> int:
        return len(self.prizes)

    @property
    def hand_for_hand(self) -> bool:
        """Whether the tables play hand for hand now (a round under way, or about to
        begin)."""
        return self._round is not None or self._h4h_on()

    @property
    def on_break(self) -> bool:
        """Whether the tournament is on a break now (no table deals)."""
        if self._status != "running":
            return False
        now = self._read_clock()
        return self._break_ends(now) is not None

    @property
    def events(self) -> tuple[dict[str, Any], ...]:
        """What happened, in order: ``start``, ``seat`` (an entry took a seat: ``why``
        ``"start"``, ``"late"``, ``"balance"``, ``"break"`` or ``"final"``), ``move``
        (an entry leaves a table for another: ``from``/``to``), ``table_broken``,
        ``final_table``, ``level``, ``break``, ``registration_closed``, ``hand_for_hand``,
        ``eliminated`` (with place and prize, once known), ``winner``, ``over``. A server
        shows a moved player where he goes from these."""
        return tuple(dict(e) for e in self._events)

    def events_since(self, index: int) -> list[dict[str, Any]]:
        """The events from number ``index`` on (for a caller that keeps its place)."""
        return [dict(e) for e in self._events[index:]]

    def _n_entries(self) -> int:
        return len(self._entries) - len(self._unregistered)

    def _entry_view(self, e: _E) -> Entry:
        stack = e.stack
        if e.status == "playing" or (e.status == "winner" and e.table is not None):
            t = self._tables.get(e.table)  # type: ignore[arg-type]
            if t is not None and e.seat is not None:
                stack = self._seat_stack(e.table, e.seat)  # type: ignore[arg-type]
        return Entry(
            e.id,
            e.player,
            e.number,
            e.status,
            stack,
            e.table,
            e.seat,
            e.place,
            None if e.place is None else (e.place, e.place_to or e.place),
            e.prize,
        )

    def _seat_stack(self, table_id: int, seat: int) -> int:
        """The chips of a seat: its stack in the table's last settled hand, or what the
        hand in progress leaves it so far (committed chips not counted)."""
        h = self._current.get(table_id)
        t = self._tables[table_id]
        if h is not None and not h.hand.is_over:
            hs = t.hand_seat(seat)
            if hs is not None:
                return h.hand.stacks[hs]
        x = t.seats[seat]
        return 0 if x is None else x

    def entries(self) -> list[Entry]:
        """Every entry, in the order they came in (unregistered ones left out)."""
        return [self._entry_view(e) for e in self._entries if e.id not in self._unregistered]

    def entry(self, entry_id: int) -> Entry:
        if (
            type(entry_id) is not int
            or not 0 <= entry_id < len(self._entries)
            or (entry_id in self._unregistered)
        ):
            raise ArgumentError(f"no entry {entry_id!r}")
        return self._entry_view(self._entries[entry_id])

    def entry_of(self, player: str) -> Entry | None:
        """A player's last entry (``None``: he has none)."""
        ids = self._by_player.get(player)
        return None if not ids else self._entry_view(self._entries[ids[-1]])

    def standings(self) -> list[Entry]:
        """The entries in play by chips (most first), then the placed ones by place,
        then those busted while registration is open (latest first)."""
        es = self.entries()
        live = sorted(
            (e for e in es if e.status in ("playing", "moving", "registered")),
            key=lambda e: (-e.stack, e.id),
        )
        placed = sorted((e for e in es if e.place is not None), key=lambda e: (e.place, e.id))
        rest = sorted(
            (e for e in es if e.status == "busted" and e.place is None), key=lambda e: -e.id
        )
        return live + placed + rest

    def players_at(self, table_id: int) -> dict[int, str]:
        """``{seat: player}`` of a table."""
        self._check_table(table_id)
        return {s: self._entries[i].player for s, i in sorted(self._seated[table_id].items())}

    def player_at(self, table_id: int, hand_seat: int) -> str:
        """The player of a hand seat of the table's current hand."""
        self._check_table(table_id)
        h = self._current.get(table_id)
        if h is None or type(hand_seat) is not int or not 0 <= hand_seat < len(h.entries):
            raise ArgumentError(f"no hand seat {hand_seat!r} at table {table_id}")
        return self._entries[h.entries[hand_seat]].player

    def is_absent(self, player: str) -> bool:
        return player in self._absent

    def clock(self) -> dict[str, Any]:
        """The tournament clock: ``level`` (1-based), its stakes (``small_blind``,
        ``big_blind``, ``small_bet``, ``big_bet``, ``ante``), ``level_by``, what is left
        of the level (``hands_left`` or ``seconds_left``; ``None`` on the last level),
        ``on_break`` and ``break_seconds_left``, the ``next`` level's stakes, and
        ``elapsed`` seconds since the start (``None`` without a clock)."""
        st = self.structure
        now = self._read_clock() if self._status == "running" else None
        i = self._level
        left_hands = left_secs = None
        brk = self._break_ends(now) if self._status == "running" else None
        if st.level_by == "time" and now is not None and self._started_at is not None:
            i, left_secs = self._time_level(now)
        elif i < len(st.levels) - 1:
            quota = st.levels[i].duration * max(1, len(self._tables))
            left_hands = max(0, quota - self._level_hands)
        lv = st.levels[i]
        nxt = st.levels[i + 1] if i + 1 < len(st.levels) else None
        return {
            "level": i + 1,
            **{k: getattr(lv, k) for k in _STAKE_NAMES},
            "level_by": st.level_by,
            "hands_left": left_hands,
            "seconds_left": left_secs,
            "on_break": brk is not None,
            "break_seconds_left": None if brk is None or now is None else max(0.0, brk - now),
            "next": None if nxt is None else nxt.stakes_text(),
            "elapsed": None if now is None or self._started_at is None else now - self._started_at,
            "hand_for_hand": self.hand_for_hand,
            "remaining": self._live,
            "entries": self._n_entries(),
        }

    def _check_table(self, table_id: Any) -> None:
        if type(table_id) is not int or table_id not in self._tables:
            gone = type(table_id) is int and 0 < table_id < self._next_table
            why = " (it was broken)" if gone else ""
            raise ArgumentError(f"no table {table_id!r} in play{why}; tables: {list(self.tables)}")

    # -- registration -------------------------------------------------------------------------

    def register(self, player: str) -> int:
        """A player enters (before the start, or later while registration is open: he
        is dealt in at once, TDA rule *Alternates, Late Registrants, Re-Entries*); a
        player whose entries all busted re-enters while registration is open, as long as
        the structure allows re-entries. Returns the entry's id. A sit & go starts by
        itself when it is full."""
        if type(player) is not str or not 0 < len(player) <= MAX_PLAYER_NAME:
            raise ArgumentError(
                f"a player is a name of 1..{MAX_PLAYER_NAME} characters, got {shown(player)}"
            )
        now = self._read_clock()
        self._why_not_register(player, now)
        e = _E(len(self._entries), player, len(self._by_player.get(player, ())))
        self._entries.append(e)
        self._by_player.setdefault(player, []).append(e.id)
        self._logged("register", player, now)
        self._event("register", entry=e.id, player=player, number=e.number)
        st = self.structure
        if self._status == "running":
            e.status, e.stack = "moving", st.starting_stack
            self._chips += st.starting_stack
            self._live += 1
            self._seat_late(e)
            self._maintain(now)
        elif st.start_when_full and self._n_entries() == st.max_entries:
            self._start(now, logged=False)  # (replayed with the registration)
        return e.id

    def why_not_register(self, player: str) -> str | None:
        """Why :meth:`register` would refuse ``player`` now, or ``None``."""
        try:
            self._why_not_register(player, self._read_clock())
        except IllegalActionError as e:
            return str(e)
        return None

    def _why_not_register(self, player: str, now: float | None) -> None:
        st = self.structure
        if self._status == "over":
            raise IllegalActionError("the tournament is over")
        if not self._reg_open:
            raise IllegalActionError("registration is closed")
        if self._late_registration_over(now):
            raise IllegalActionError(
                f"registration is closed: late registration ended with level "
                f"{st.late_registration} (it closes at the next deal)"
            )
        ids = [i for i in self._by_player.get(player, ()) if i not in self._unregistered]
        if any(self._entries[i].status != "busted" for i in ids):
            raise IllegalActionError(f"{player} is already in the tournament")
        if ids and len(ids) > st.reentries:
            raise IllegalActionError(
                f"{player} busted and may not enter again ("
                + ("a freezeout: no re-entry" if not st.reentries else f"{st.reentries} re-entries")
                + ")"
            )
        if st.max_entries is not None and self._n_entries() >= st.max_entries:
            raise IllegalActionError(f"the tournament is full ({st.max_entries} entries)")
        if self._n_entries() >= MAX_ENTRIES:
            raise IllegalActionError(f"the tournament is full ({MAX_ENTRIES} entries)")

    def unregister(self, player: str) -> None:
        """A player registered for a tournament not started yet withdraws."""
        if self._status != "registering":
            raise IllegalActionError("a player may unregister only before the start")
        ids = [i for i in self._by_player.get(player, ()) if i not in self._unregistered]
        if not ids:
            raise IllegalActionError(f"{shown(player)} is not registered")
        now = self._read_clock()
        self._unregistered.add(ids[-1])
        self._by_player[player] = [i for i in self._by_player[player] if i != ids[-1]]
        if not self._by_player[player]:
            del self._by_player[player]
        self._logged("unregister", player, now)
        self._event("unregister", entry=ids[-1], player=player)

    def start(self) -> None:
        """Start the tournament: seats drawn at random (TDA rule *Random Seats*), the
        button of each table drawn at random. Needs ``min_entries`` entries."""
        if self._status != "registering":
            raise IllegalActionError(f"the tournament is {self._status}, it cannot start again")
        n = self._n_entries()
        if n < self.structure.min_entries:
            raise IllegalActionError(
                f"{n} entries: the tournament needs {self.structure.min_entries} to start"
            )
        self._start(self._read_clock())

    def _start(self, now: float | None, logged: bool = True) -> None:
        st = self.structure
        if logged:
            self._logged("start", now)
        self._status = "running"
        self._started_at = now
        live = [e for e in self._entries if e.id not in self._unregistered]
        self._rng.shuffle(live)
        k = -(-len(live) // st.table_size)
        groups = [live[j::k] for j in range(k)]
        for g in groups:
            tid = self._new_table_id()
            seats = self._rng.sample(range(st.table_size), len(g))
            stacks = {s: st.starting_stack for s in seats}
            button = self._rng.choice(seats)
            self._open_table(tid, stacks, button)
            for e, s in zip(g, seats, strict=True):
                e.status, e.table, e.seat, e.stack = "playing", tid, s, 0
                self._seated[tid][s] = e.id
                self._event("seat", entry=e.id, player=e.player, table=tid, seat=s, why="start")
        self._chips += st.starting_stack * len(live)
        self._live = len(live)
        self._event("start", entries=len(live), tables=k)
        self._event("level", level=1, stakes=st.levels[0].stakes_text())
        if self._closes_registration(0):
            self._close_registration()
        self._maintain(now)

    def _new_table_id(self) -> int:
        tid = self._next_table
        self._next_table += 1
        return tid

    def _open_table(self, tid: int, stacks: dict[int, int], button: int) -> None:
        rules = self._level_rules[self._level]
        self._tables[tid] = Table(
            rules,
            stacks,
            button=button,
            seed=derive_seed(self.seed, "table", tid),
            core=self._core,
        )
        self._seated[tid] = {}
        self._arrivals[tid] = []

    # -- absent players -----------------------------------------------------------------------

    def set_absent(self, player: str, absent: bool = True) -> None:
        """Mark a player absent (or back): an absent player stays in, is dealt every hand,
        posts his blinds and antes, and folds when it is his turn (stands pat in a draw),
        so he is blinded off rather than skipped (TDA rule *At Your Seat*)."""
        if type(absent) is not bool:
            raise ArgumentError(f"absent must be True or False, got {shown(absent)}")
        if player not in self._by_player:
            raise ArgumentError(f"{shown(player)} is not registered")
        if (player in self._absent) == absent:
            return
        now = self._read_clock()
        self._logged("absent", player, absent, now)
        if absent:
            self._absent.add(player)
        else:
            self._absent.discard(player)
        if absent and not self._replaying:
            for tid in sorted(self._current):
                self._auto(tid, now)

    # -- playing --------------------------------------------------------------------------------

    def ready_tables(self) -> list[int]:
        """The tables that :meth:`deal` would deal at now."""
        if self._status != "running":
            return []
        now = self._read_clock()
        self._sync(now)
        return [t for t in self.tables if self._deal_refusal(t, now) is None]

    def why_not_deal(self, table_id: int) -> str | None:
        """Why :meth:`deal` would refuse to deal at a table now, or ``None``."""
        self._check_table(table_id)
        if self._status != "running":
            return f"the tournament is {self._status}"
        now = self._read_clock()
        self._sync(now)
        return self._deal_refusal(table_id, now)

    def deal(self, table_id: int) -> Hand:
        """Deal the next hand at a table, at the current level, and return it. Refused
        (:class:`~triple_draw.IllegalActionError`, saying why) while the table plays a
        hand, on a break, while hand for hand waits for the other tables, while the final
        table is being drawn, or when fewer than two players sit there."""
        if self._status == "registering":
            raise IllegalActionError("the tournament has not started")
        if self._status == "over":
            raise IllegalActionError("the tournament is over")
        now = self._read_clock()
        self._sync(now)
        if (
            type(table_id) is int
            and 0 < table_id < self._next_table
            and (table_id not in self._tables)
        ):
            raise IllegalActionError(
                f"table {table_id} was broken; tables in play: {list(self.tables)}"
            )
        self._check_table(table_id)
        why = self._deal_refusal(table_id, now)
        if why is not None:
            raise IllegalActionError(f"table {table_id}: {why}")
        return self._deal(table_id, now)

    def _deal(self, tid: int, now: float | None) -> Hand:
        st = self.structure
        self._logged("deal", tid, now)
        i = self._deal_level(now)
        if i != self._level:
            if st.level_by == "hands":
                self._break_until = None
            self._set_level(i)
        if st.level_by == "hands":
            self._level_hands += 1
        if self._round is not None:
            self._round.discard(tid)
        elif self._h4h_on():
            self._round_no += 1
            self._round_tables = set(self._tables)
            self._round = set(self._tables) - {tid}
            self._round_busts = []
            self._event("hand_for_hand", round=self._round_no, tables=sorted(self._tables))
        t = self._tables[tid]
        rules = self._level_rules[self._level]
        hand = t.new_hand(rules=rules if t.rules is not rules else None)
        seated = self._seated[tid]
        h = _H(
            tid,
            hand,
            tuple(seated[s] for s in t.seat_map),
            self._round_no if self._round is not None else None,
            len(self._hands) + 1,
        )
        self._current[tid] = h
        self._hands.append(h)
        if not self._replaying:
            self._auto(tid, now)
        return hand

    def _deal_level(self, now: float | None) -> int:
        """The level a hand dealt now plays at: by time, the clock's; by hands, the next
        once this one is played out (a hand-for-hand round plays at one level)."""
        if self.structure.level_by == "time":
            return self._time_level(now)[0]  # type: ignore[arg-type]
        if self._level_done() and self._round is None:
            return self._level + 1
        return self._level

    def _set_level(self, i: int) -> None:
        self._level = i
        self._level_hands = 0
        self._event("level", level=i + 1, stakes=self.structure.levels[i].stakes_text())
        if self._reg_open and self._closes_registration(i):
            self._close_registration()

    def _level_done(self) -> bool:
        st = self.structure
        if self._level >= len(st.levels) - 1:
            return False
        return self._level_hands >= st.levels[self._level].duration * max(1, len(self._tables))

    def _break_after(self) -> dict[int, int]:
        """``{level index: break seconds}``: the breaks after each level (0-based)."""
        return {b.after_level - 1: b.seconds for b in self.structure.breaks}

    def _time_level(self, now: float) -> tuple[int, float | None]:
        """Levels by time: the level index at ``now`` and the seconds left in it (``None``
        on the last level). During a break, the level after it, with its full length."""
        st = self.structure
        elapsed = max(0.0, now - (self._started_at if self._started_at is not None else now))
        breaks = self._break_after()
        t = 0.0
        for i, lv in enumerate(st.levels):
            if i == len(st.levels) - 1:
                return i, None
            end = t + lv.duration
            if elapsed < end:
                return i, end - elapsed
            t = end + breaks.get(i, 0)
            if elapsed < t:
                return i + 1, float(st.levels[i + 1].duration)
        return len(st.levels) - 1, None  # pragma: no cover

    def _break_ends(self, now: float | None) -> float | None:
        """When the break under way ends (``None``: no break now)."""
        st = self.structure
        if self._status != "running":
            return None
        if st.level_by == "time":
            if now is None or self._started_at is None:
                return None
            elapsed = now - self._started_at
            breaks = self._break_after()
            t = 0.0
            for i, lv in enumerate(st.levels[:-1]):
                t += lv.duration
                b = breaks.get(i, 0)
                if t <= elapsed < t + b:
                    return self._started_at + t + b
                t += b
            return None
        if self._break_until is not None and now is not None and now < self._break_until:
            return self._break_until
        return None

    def _deal_refusal(self, tid: int, now: float | None) -> str | None:
        t = self._tables[tid]
        cur = self._current.get(tid)
        if cur is not None and not cur.processed:
            return "a hand is in progress"
        brk = self._break_ends(now)
        if brk is not None:
            return f"on a break for {max(0.0, brk - (now or 0.0)):.0f} more seconds"
        if self._round is not None:
            # hand for hand: the tables deal the round's hand together (what happens at one
            # table meanwhile - a level played out, a bust - does not stop the others)
            if tid in self._round:
                return self._seated_refusal(tid)
            waiting = sorted(self._round) or [x for x in self.tables if not self._idle(x)]
            return f"hand for hand: this table has played the round; waiting for tables {waiting}"
        st = self.structure
        if (
            st.level_by == "hands"
            and self._level_done()
            and self._level in self._break_after()
            and self._clock is not None
            and self._break_done != self._level
        ):
            busy = [x for x in self.tables if not self._idle(x)]
            return (
                f"level {self._level + 1} is over: the break begins when the hands in progress "
                f"end (tables {busy})"
            )
        if self._final_pending:
            busy = [x for x in self.tables if not self._idle(x)]
            return f"waiting for the final table draw (hands in progress at tables {busy})"
        # hand for hand begins once the hands in progress end, also when the bubble comes
        # with this deal (its new level closing registration)
        if self._h4h_on(at_deal=True, now=now):
            busy = [x for x in self.tables if not self._idle(x)]
            if busy:
                return f"hand for hand: the round begins when the hands at tables {busy} end"
        del t
        return self._seated_refusal(tid)

    def _seated_refusal(self, tid: int) -> str | None:
        n = len(self._seated[tid])
        if n < 2:
            return f"{n} player(s) seated: waiting for players to be moved here"
        return None

    def _idle(self, tid: int) -> bool:
        cur = self._current.get(tid)
        return cur is None or cur.processed

    def act(self, table_id: int, action: Action | str, seat: int | None = None) -> None:
        """Apply ``action`` (an :class:`~triple_draw.Action`, or a kind such as
        ``"call"``, ``"fold"``, ``"raise"``, ``"discard"`` for standing pat) for the player
        to act at a table (``seat``: a hand seat that must be his), through the table's
        :class:`~triple_draw.Hand`; then play the turns of absent players, and settle the
        hand if it is over (eliminations, moves)."""
        self._check_table(table_id)
        h = self._current.get(table_id)
        if h is None or h.hand.is_over:
            raise IllegalActionError(f"table {table_id} has no hand in progress")
        if isinstance(action, str):
            try:
                action = Action(action)
            except ArgumentError as e:
                raise IllegalActionError(str(e)) from None
        h.hand.apply(action, seat)
        now = self._read_clock()
        self._auto(table_id, now)

    def advance(self, table_id: int) -> None:
        """For an application that applies actions to the :class:`~triple_draw.Hand`
        itself: play the turns of absent players and settle the hand if it is over (what
        :meth:`act` does after each action)."""
        self._check_table(table_id)
        self._auto(table_id, self._read_clock())

    def _auto(self, tid: int, now: float | None) -> None:
        """Absent players' turns at a table, then the hand's settlement if it is over."""
        h = self._current.get(tid)
        if h is None or h.processed:
            return
        hand = h.hand
        if self._absent:
            while True:
                a = hand.actor
                if a is None or self._entries[h.entries[a]].player not in self._absent:
                    break
                if hand.in_draw:
                    hand.discard(())
                else:
                    hand.fold()
        if hand.is_over:
            self._process(tid, now)
            self._maintain(now)

    def _sync(self, now: float | None) -> None:
        """Settle the hands that ended behind the tournament's back (actions applied to
        the Hand directly)."""
        if self._replaying:
            return
        done = False
        for tid in sorted(self._current):
            h = self._current[tid]
            if not h.processed and h.hand.is_over:
                self._process(tid, now)
                done = True
        if done:
            self._maintain(now)

    # -- settling a hand: eliminations ------------------------------------------------------------

    def _process(self, tid: int, now: float | None) -> None:
        h = self._current[tid]
        hand = h.hand
        if not hand.is_over:  # pragma: no cover - callers check
            raise IllegalActionError(f"table {tid}: the hand is not over")
        self._logged("end", tid, now)
        h.processed = True
        if self._record:
            h.actions = _actions_of(hand)
        if sum(hand.stacks) != sum(hand.starting_stacks):
            raise TournamentInvariantError(f"table {tid}: the hand lost or made chips")
        t = self._tables[tid]
        smap = t.seat_map
        busted: list[tuple[int, int]] = []
        for i, st in enumerate(hand.stacks):
            if st == 0:
                seat = smap[i]
                eid = h.entries[i]
                e = self._entries[eid]
                t.leave(seat)  # the seat is free (a busted player's claim to it ends)
                del self._seated[tid][seat]
                e.status, e.stack, e.table, e.seat = "busted", 0, None, None
                busted.append((eid, hand.starting_stacks[i]))
                self._live -= 1
                self._event("busted", entry=eid, player=e.player, table=tid)
        if busted:
            if h.round is not None:
                self._round_busts.extend(busted)
            elif self._reg_open:
                self._deferred.append(busted)
            else:
                self._place(busted)
        if self._live <= 1 and self._reg_open and self._round is None:
            self._close_registration()
        self._check_winner()

    def _place(self, group: list[tuple[int, int]]) -> None:
        """Places for entries busted together (``(entry, chips at the start of the
        hand)``): the fewest chips finishes lowest, equal chips tie (TDA rule
        *Simultaneous Eliminations*); the places are the worst not given yet."""
        worst = self._live + len(group)  # the place of the first to go
        order = sorted(group, key=lambda x: (x[1], x[0]))
        i = 0
        while i < len(order):
            j = i
            while j + 1 < len(order) and order[j + 1][1] == order[i][1]:
                j += 1
            lo, hi = worst - j, worst - i
            tied = [order[k][0] for k in range(i, j + 1)]
            for eid in tied:
                e = self._entries[eid]
                e.place, e.place_to = lo, hi
            self._pay(tied, lo, hi)
            i = j + 1

    def _pay(self, tied: list[int], lo: int, hi: int) -> None:
        """Prizes of entries sharing places ``lo..hi``: the sum of those places' prizes
        split evenly, the units left over one each to the entries in order of id."""
        prizes = self._prize_list or ()
        total = sum(prizes[p - 1] for p in range(lo, hi + 1) if p - 1 < len(prizes))
        share, extra = divmod(total, len(tied))
        for k, eid in enumerate(sorted(tied)):
            e = self._entries[eid]
            e.prize = share + (1 if k < extra else 0)
            self._event(
                "eliminated" if e.status == "busted" else "winner",
                entry=eid,
                player=e.player,
                place=lo,
                places=[lo, hi],
                prize=e.prize,
            )

    def _close_registration(self) -> None:
        """Registration closes: the prize pool and payouts are final, and the entries
        that busted while it was open get the places below everyone still in, in the order
        they busted."""
        self._reg_open = False
        n = self._n_entries()
        self._prize_list = self.structure.prizes(n)
        self._event(
            "registration_closed",
            entries=n,
            prize_pool=self.prize_pool,
            prizes=list(self._prize_list),
        )
        deferred, self._deferred = self._deferred, []
        live = self._live
        for group in reversed(deferred):
            self._live = live
            self._place(group)
            live += len(group)
        self._live = sum(1 for e in self._entries if e.status in ("playing", "moving"))

    def _check_winner(self) -> None:
        if self._reg_open or self._live > 1 or self._round is not None:
            return
        live = [e for e in self._entries if e.status in ("playing", "moving")]
        if len(live) == 1:
            w = live[0]
            w.status, w.place, w.place_to = "winner", 1, 1
            self._pay([w.id], 1, 1)
        self._status = "over"
        self._event("over")

    # -- between hands: moving players ---------------------------------------------------------

    def _count(self, tid: int) -> int:
        return len(self._seated[tid]) + len(self._arrivals[tid])

    def _h4h_on(self, at_deal: bool = False, now: float | None = None) -> bool:
        """Whether the tables play hand for hand: on the money bubble, registration closed,
        two or more tables. ``at_deal``: as it will be once a deal at ``now`` begins its
        level, which may close registration."""
        st = self.structure
        if not st.hand_for_hand or len(self._tables) < 2:
            return False
        if self._reg_open:
            if not at_deal:
                return False
            level = self._deal_level(now)
            if level == self._level or not self._closes_registration(level):
                return False
        paid = self.paid_places
        return paid < self._live <= paid + 1

    def _maintain(self, now: float | None) -> None:
        """What happens between hands, as far as the tables' state allows: the end of a
        hand-for-hand round, the break, the final table, breaking a table, seating the
        players who arrive at a table, balancing."""
        st = self.structure
        while self._status == "running":
            tabs = sorted(self._tables)
            idle = [t for t in tabs if self._idle(t)]
            # a hand-for-hand round ends when every table of it has played it
            if self._round is not None:
                left = {t for t in self._round if t in self._tables and len(self._seated[t]) >= 2}
                idle_round = all(self._idle(t) for t in self._round_tables if t in self._tables)
                if not left and idle_round:
                    busts, self._round_busts = self._round_busts, []
                    self._round = None
                    if busts:
                        self._place(busts)
                    if self._live <= 1 and self._reg_open:
                        self._close_registration()
                    self._check_winner()
                    continue
            # the break (levels by hands): once the level's hands are all played
            if (
                st.level_by == "hands"
                and self._clock is not None
                and self._level_done()
                and self._level in self._break_after()
                and self._break_done != self._level
                and len(idle) == len(tabs)
                and self._round is None
            ):
                self._break_done = self._level
                self._break_until = (now or 0.0) + self._break_after()[self._level]
                self._event("break", after_level=self._level + 1, until=self._break_until)
                continue
            if len(tabs) > 1 and self._live <= st.table_size and not self._final_pending:
                self._final_pending = True
                continue
            if self._final_pending and self._live > st.table_size:
                self._final_pending = False  # late entries: more than one table's worth again
            if self._final_pending:
                if len(idle) == len(tabs) and self._round is None:
                    self._draw_final_table()
                    continue
                return
            can_break = len(tabs) > 1 and self._live <= (len(tabs) - 1) * st.table_size
            if self._breaking is None and can_break:
                self._breaking = tabs[-1]  # the highest number first (a fixed order)
            elif self._breaking is not None and not can_break:
                self._breaking = None  # late entries filled the seats it would have needed
            if self._breaking is not None and self._idle(self._breaking):
                self._break_table(self._breaking)
                self._breaking = None
                continue
            moved = False
            for t in idle:
                if self._arrivals[t]:
                    self._seat_arrivals(t)
                    moved = True
            if moved:
                continue
            if self._balance(idle):
                continue
            return

    def _balance(self, idle: list[int]) -> bool:
        """One balancing move, if an idle table has two players more than the shortest
        (TDA rule *Balancing Tables*: the player who would be the big blind next moves
        to the worst position at the short table)."""
        if len(self._tables) < 2:
            return False
        counts = {t: self._count(t) for t in self._tables if t != self._breaking}
        if len(counts) < 2:
            return False
        lo = min(counts.values())
        hi = max(counts.values())
        if hi - lo < 2:
            return False
        for src in idle:
            if src == self._breaking or counts.get(src) != hi or len(self._seated[src]) < 2:
                continue
            dst = min((t for t in counts if counts[t] == lo), key=lambda t: t)
            plan = self._tables[src].next_hand()
            seat = plan["big_blind"]
            self._move(src, seat, dst, "balance")
            return True
        return False

    def _move(self, src: int, seat: int, dst: int, why: str) -> None:
        t = self._tables[src]
        eid = self._seated[src].pop(seat)
        e = self._entries[eid]
        e.stack = t.leave(seat)
        e.status, e.table, e.seat = "moving", dst, None
        e.moves += 1
        self._arrivals[dst].append((eid, why))
        self._event("move", entry=eid, player=e.player, **{"from": src}, to=dst, why=why)
        if self._idle(dst):
            self._seat_arrivals(dst)

    def _seat_arrivals(self, tid: int) -> None:
        arrivals, self._arrivals[tid] = self._arrivals[tid], []
        for eid, why in arrivals:
            e = self._entries[eid]
            seat = self._worst_seat(tid) if why == "balance" else self._random_seat(tid)
            self._sit(tid, seat, e, why)

    def _sit(self, tid: int, seat: int, e: _E, why: str) -> None:
        t = self._tables[tid]
        t.sit(seat, e.stack, dealt_in=t.hands_played > 0)
        self._seated[tid][seat] = e.id
        e.status, e.table, e.seat, e.stack = "playing", tid, seat, 0
        self._event("seat", entry=e.id, player=e.player, table=tid, seat=seat, why=why)

    def _empty_seats(self, tid: int) -> list[int]:
        taken = self._seated[tid]
        return [s for s in range(self.structure.table_size) if s not in taken]

    def _random_seat(self, tid: int) -> int:
        return self._rng.choice(self._empty_seats(tid))

    def _worst_seat(self, tid: int) -> int:
        """The seat where a player would post the big blind soonest: the first empty seat
        after last hand's big blind - a single big blind at once when the seat before the
        next big blind is free - never the next small blind when another is free."""
        t = self._tables[tid]
        empty = self._empty_seats(tid)
        pbb = t.big_blind_seat
        if pbb is None:
            return self._rng.choice(empty)
        m = self.structure.table_size
        for k in range(1, m):
            s = (pbb + k) % m
            if s in empty:
                return s
        return pbb

    def _seat_late(self, e: _E) -> None:
        """A late entry or re-entry: a seat drawn at random among the tables with the
        fewest players (a new table when all are full); he is dealt in at once except
        between the button and the small blind (TDA rule *Alternates, Late
        Registrants, Re-Entries*)."""
        st = self.structure
        counts = {t: self._count(t) for t in self._tables if t != self._breaking}
        open_ = [t for t in counts if counts[t] < st.table_size]
        if not open_:
            tid = self._new_table_id()
            self._open_table(tid, {}, self._rng.randrange(st.table_size))
            self._event("table_opened", table=tid)
        else:
            lo = min(counts[t] for t in open_)
            tid = self._rng.choice(sorted(t for t in open_ if counts[t] == lo))
        e.table = tid
        self._arrivals[tid].append((e.id, "late"))
        if self._idle(tid):
            self._seat_arrivals(tid)

    def _break_table(self, tid: int) -> None:
        """Break a table: its players go to the other tables, each to a table with the
        most free seats and a seat there drawn at random (TDA rule *Breaking Tables*);
        each is dealt in at once except between the button and the small blind."""
        st = self.structure
        t = self._tables[tid]
        players = sorted(self._seated[tid].items())
        self._rng.shuffle(players)
        self._event("table_broken", table=tid)
        arrivals = self._arrivals.pop(tid)
        for seat, _eid in players:
            others = {x: self._count(x) for x in self._tables if x != tid}
            lo = min(others.values())
            dst = self._rng.choice(sorted(x for x in others if others[x] == lo))
            if others[dst] >= st.table_size:  # pragma: no cover - the break condition
                raise TournamentInvariantError("no seat left for a broken table's player")
            self._move(tid, seat, dst, "break")
        for eid, why in arrivals:  # players on their way here go elsewhere
            others = {x: self._count(x) for x in self._tables if x != tid}
            dst = min(others, key=lambda x: (others[x], x))
            self._entries[eid].table = dst
            self._arrivals[dst].append((eid, why))
            if self._idle(dst):
                self._seat_arrivals(dst)
        del self._tables[tid], self._seated[tid]
        self._current.pop(tid, None)
        if self._round is not None:
            self._round.discard(tid)
        del t

    def _draw_final_table(self) -> None:
        """Every table is idle and the players left fit one table: the final table, seats
        and button drawn at random."""
        st = self.structure
        live: list[_E] = []
        for tid in sorted(self._tables):
            t = self._tables[tid]
            for seat, eid in sorted(self._seated[tid].items()):
                e = self._entries[eid]
                e.stack = t.leave(seat)
                live.append(e)
            for eid, _why in self._arrivals[tid]:
                live.append(self._entries[eid])
        self._tables.clear()
        self._seated.clear()
        self._arrivals.clear()
        self._current.clear()
        self._breaking = None
        self._final_pending = False
        live.sort(key=lambda e: e.id)
        self._rng.shuffle(live)
        seats = self._rng.sample(range(st.table_size), len(live))
        tid = self._new_table_id()
        button = self._rng.choice(seats)
        self._open_table(tid, {s: e.stack for s, e in zip(seats, live, strict=True)}, button)
        self._final_table = tid
        self._event("final_table", table=tid, players=len(live))
        for e, s in zip(live, seats, strict=True):
            e.moves += 1
            came = {"from": e.table}
            self._event("move", entry=e.id, player=e.player, **came, to=tid, why="final")
            e.status, e.table, e.seat, e.stack = "playing", tid, s, 0
            self._seated[tid][s] = e.id
            self._event("seat", entry=e.id, player=e.player, table=tid, seat=s, why="final")

    def _late_registration_over(self, now: float | None) -> bool:
        """Levels by time: whether the clock has passed the end of late registration while
        registration is still open. Registration then closes at the next deal (the level
        changes between hands); a query or a refused entry changes nothing, so a replay of
        the log gives the same tournament."""
        st = self.structure
        return (
            st.level_by == "time"
            and self._status == "running"
            and self._reg_open
            and now is not None
            and self._closes_registration(self._time_level(now)[0])
        )

    def _closes_registration(self, level: int) -> bool:
        """Whether registration closes as level index ``level`` begins (late registration
        runs through level ``late_registration``; 0: it closes at the start)."""
        return level >= self.structure.late_registration

    # -- checking ------------------------------------------------------------------------------

    def chips_in_play(self) -> int:
        """Every chip at the tables (in the hands in progress too) and in the hands of the
        players moving between them."""
        total = 0
        for t in self._tables.values():
            total += sum(x for x in t.seats if x is not None)
        for e in self._entries:
            if e.status == "moving":
                total += e.stack
        return total

    def check(self) -> None:
        """Check the invariants (:class:`TournamentInvariantError` if one fails): chips are
        conserved - every chip given out is at a table or with a moving player; each seat
        holds the entry the tournament thinks; every entry is in play, or placed exactly
        once (places and ties covering the places given, the winner 1st), or busted
        waiting for registration to close; prizes add up to at most the pool (exactly, once
        over); and, between hands with every table idle, no table has two players more
        than another."""
        bad = TournamentInvariantError
        if self._status == "running":
            if self.chips_in_play() != self._chips:
                raise bad(f"chips: {self.chips_in_play()} in play, {self._chips} given out")
        live = 0
        seen: set[tuple[int, int]] = set()
        for tid, seated in self._seated.items():
            t = self._tables[tid]
            h = self._current.get(tid)
            pending = {} if h is None or h.processed else dict(enumerate(h.entries))
            for seat, eid in seated.items():
                e = self._entries[eid]
                if e.table != tid or e.seat != seat or e.status not in ("playing", "winner"):
                    raise bad(f"entry {eid}: the tournament seats it at table {tid} seat {seat}")
                if t.seats[seat] is None and seat not in [t.seat_map[i] for i in pending]:
                    raise bad(f"table {tid} seat {seat} is empty, entry {eid} sits there")
                seen.add((tid, seat))
        places: list[tuple[int, int]] = []
        for e in self._entries:
            if e.id in self._unregistered:
                continue
            if e.status in ("playing", "moving"):
                live += 1
                if e.place is not None:
                    raise bad(f"entry {e.id} in play has a place")
            elif e.status == "busted":
                if e.place is None and not (self._reg_open or self._round is not None):
                    raise bad(f"entry {e.id} busted with no place")
            elif e.status == "winner":
                live += 1
                if e.place != 1:
                    raise bad("the winner is not 1st")
            if e.place is not None:
                places.append((e.place, e.place_to or e.place))
        if live != self._live:
            raise bad(f"{live} entries in play, the tournament counts {self._live}")
        # tied entries share a range; the ranges tile the places given
        ranges: dict[tuple[int, int], int] = {}
        for r in places:
            ranges[r] = ranges.get(r, 0) + 1
        for (lo, hi), k in ranges.items():
            if k != hi - lo + 1:
                raise bad(f"places {lo}-{hi} are shared by {k} entries")
        covered = sorted(p for (lo, hi) in ranges for p in range(lo, hi + 1))
        if covered != sorted(set(covered)):
            raise bad("a place was given twice")
        if self._status == "over":
            if covered != list(range(1, self._n_entries() + 1)):
                raise bad("over, but the places do not run from 1 to the number of entries")
            paid = sum(e.prize or 0 for e in self._entries)
            if paid != self.prize_pool:
                raise bad(f"prizes {paid} != prize pool {self.prize_pool}")
        elif not self._reg_open and covered:
            n = self._n_entries()
            if covered != list(range(n - len(covered) + 1, n + 1)):
                raise bad(f"places given {covered[0]}..{covered[-1]} are not the last ones")
        if (
            self._status == "running"
            and len(self._tables) > 1
            and all(self._idle(t) for t in self._tables)
            and not self._final_pending
            and self._breaking is None
        ):
            counts = [self._count(t) for t in self._tables]
            if max(counts) - min(counts) > 1:
                raise bad(f"tables unbalanced: {counts}")

    # -- saving ---------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The whole tournament as JSON-ready data (``"schema_version": 1``): the
        structure, the seed, the log of every registration, deal and settlement with the
        clock's readings, every hand's actions, and a summary (each entry's status, chips,
        place and prize) that :meth:`from_dict` must find again by replaying the log."""
        if not self._record:
            raise IllegalActionError("this tournament was made with record=False: it keeps no log")
        hands = []
        for h in self._hands:
            actions = h.actions if h.actions is not None else _actions_of(h.hand)
            hands.append({"table": h.table, "actions": actions})
        return {
            "schema_version": TOURNAMENT_SCHEMA_VERSION,
            "structure": self.structure.to_dict(),
            "seed": str(self.seed),
            "log": [list(x) for x in self._log],
            "hands": hands,
            "summary": self._summary(),
        }

    def _summary(self) -> dict[str, Any]:
        return {
            "status": self._status,
            "level": self._level + 1,
            "tables": list(self.tables),
            "entries": [
                [e.player, e.status, e.stack, e.table, e.seat, e.places and list(e.places), e.prize]
                for e in (self._entry_view(x) for x in self._entries)
                if e.id not in self._unregistered
            ],
            "hands": len(self._hands),
        }

    @classmethod
    def from_dict(
        cls,
        data: Any,
        *,
        clock: Callable[[], float] | None = None,
        core: Any = None,
    ) -> Tournament:
        """Rebuild a tournament from :meth:`to_dict` by replaying it: every logged call is
        made again, every hand dealt again from the seed and its actions applied through
        the :class:`~triple_draw.Hand`, and the result compared with the document's
        summary. A malformed document, an illegal action, or a summary the replay does not
        give raises :class:`~triple_draw.SchemaError`. ``clock``: the clock to run on from
        here (levels by time need one)."""
        if clock is None and isinstance(data, dict):
            try:
                st = Structure.from_dict(data.get("structure"))
            except SchemaError:
                pass  # reported by the load
            else:
                if st.level_by == "time":
                    raise ArgumentError(
                        f"the structure {st.name!r} has levels by time: give from_dict a clock"
                    )
        try:
            return _load(cls, data, clock, core)
        except SchemaError:
            raise
        except TournamentInvariantError as e:
            raise SchemaError(f"tournament document: {e}") from None
        except (TripleDrawError, KeyError, TypeError, ValueError, IndexError) as e:
            raise SchemaError(f"tournament document: {type(e).__name__}: {e}") from None

    def __repr__(self) -> str:
        return (
            f"<Tournament {self.structure.name!r} {self._status} entries={self._n_entries()} "
            f"remaining={self._live} tables={list(self.tables)} level={self._level + 1}>"
        )


# -- actions as text ----------------------------------------------------------------------------


def _actions_of(hand: Hand) -> list[str]:
    """The players' actions of a hand, in order, as compact codes: ``f`` fold, ``x`` check,
    ``c`` call, ``b`` bet, ``r`` raise, ``d`` and the discarded cards (``d7h2c``; ``d``
    alone stands pat)."""
    out = []
    for e in hand.history:
        k = e.kind
        code = _ACTION_CODES.get(k)
        if code is not None:
            out.append(code)
        elif k == "discard":
            out.append("d" + "".join(e.cards or ()))
    return out


def _apply_code(hand: Hand, code: Any) -> None:
    if type(code) is not str or not code:
        raise SchemaError(f"an action is a code like 'c', 'r' or 'd7h2c', got {code!r}")
    if code[0] == "d":
        cards = code[1:]
        if len(cards) % 2 or len(cards) > 10:
            raise SchemaError(f"bad discard {code!r}")
        held: Any = tuple(cards[i : i + 2] for i in range(0, len(cards), 2))
        hand.apply(Action("discard", cards=held))
        return
    kind = _CODE_KINDS.get(code)
    if kind is None:
        raise SchemaError(f"unknown action code {code!r}")
    hand.apply(Action(kind))


# -- restoring -------------------------------------------------------------------------------


def _load(cls: Any, d: Any, clock: Any, core: Any) -> Tournament:
    if not isinstance(d, dict):
        raise SchemaError(f"a tournament document must be a dict, got {type(d).__name__}")
    got = d.get("schema_version")
    if got != TOURNAMENT_SCHEMA_VERSION:
        what = (
            f"an int of {got.bit_length()} bits"
            if type(got) is int and got.bit_length() > 64
            else repr(got)[:60]
        )
        raise SchemaError(f"schema_version must be {TOURNAMENT_SCHEMA_VERSION}, got {what}")
    keys = ["hands", "log", "schema_version", "seed", "structure", "summary"]
    if sorted(d) != keys:
        raise SchemaError(f"a tournament document holds exactly {keys}, got {sorted(d)}")
    st = Structure.from_dict(d["structure"])
    seed_text = d["seed"]
    if type(seed_text) is not str or not seed_text.isdigit() or len(seed_text) > 80:
        raise SchemaError("seed must be a decimal integer as text")
    seed = int(seed_text)
    if seed >= _SEED_LIMIT:
        raise SchemaError("seed must be below 2**256")
    log, hands = d["log"], d["hands"]
    if not isinstance(log, list) or not isinstance(hands, list):
        raise SchemaError("log and hands must be lists")
    times = [x[-1] for x in log if isinstance(x, list) and x]
    t: Tournament = cls(st, seed=seed, clock=clock, core=core)
    if clock is None and any(x is not None for x in times):
        t._clock = _NoClock()  # breaks were timed: replay them so; no clock afterwards
    t._replaying = True
    hand_iter = iter(hands)
    try:
        for i, x in enumerate(log):
            _replay_entry(t, x, i, hand_iter)
        if next(hand_iter, None) is not None:
            raise SchemaError("hands: more hands than the log deals")
    except IllegalActionError as e:
        raise SchemaError(f"log: the replay refused a step: {e}") from None
    finally:
        t._replaying = False
        t._now = None
    t._clock = clock
    t._log = [list(x) for x in log]
    if t._summary() != d["summary"]:
        raise SchemaError("summary: the replay of the log does not give the document's summary")
    t.check()
    return t


class _NoClock:
    """Stands in for the clock while replaying (the log's readings are used)."""

    def __call__(self) -> float:  # pragma: no cover - never read while replaying
        raise SchemaError("no clock")


def _replay_entry(t: Tournament, x: Any, i: int, hands: Iterable[Any]) -> None:
    if not isinstance(x, list) or not x or x[0] not in _LOG_KINDS:
        raise SchemaError(f"log[{i}] must be [kind, ..., time] with a kind of {_LOG_KINDS}")
    now = x[-1]
    if now is not None and (isinstance(now, bool) or not isinstance(now, (int, float))):
        raise SchemaError(f"log[{i}]: the time must be a number or null")
    if t._clock is None and now is not None:
        raise SchemaError(f"log[{i}]: a time without a clock")
    t._now = None if now is None else float(now)
    kind, args = x[0], x[1:-1]
    arity = {"register": 1, "unregister": 1, "start": 0, "deal": 1, "end": 1, "absent": 2}[kind]
    if len(args) != arity:
        raise SchemaError(f"log[{i}]: {kind} takes {arity} argument(s)")
    if kind == "register":
        t.register(args[0])
    elif kind == "unregister":
        t.unregister(args[0])
    elif kind == "start":
        t.start()
    elif kind == "absent":
        if type(args[1]) is not bool:
            raise SchemaError(f"log[{i}]: absent takes a player and a bool")
        t.set_absent(args[0], args[1])
    elif kind == "deal":
        tid = args[0]
        rec = next(iter(hands), None)
        if not isinstance(rec, dict) or sorted(rec) != ["actions", "table"]:
            raise SchemaError(f"log[{i}]: no hand {{table, actions}} for this deal")
        if rec["table"] != tid:
            raise SchemaError(f"log[{i}]: the next hand was dealt at table {rec['table']!r}")
        if t._status != "running":
            raise SchemaError(f"log[{i}]: a deal while the tournament is {t._status}")
        t._check_table(tid)
        why = t._deal_refusal(tid, t._now)
        if why is not None:
            raise SchemaError(f"log[{i}]: table {tid}: {why}")
        hand = t._deal(tid, t._now)
        acts = rec["actions"]
        if not isinstance(acts, list):
            raise SchemaError(f"log[{i}]: actions must be a list")
        for code in acts:
            if hand.is_over:
                raise SchemaError(f"log[{i}]: actions after the end of the hand")
            _apply_code(hand, code)
    elif kind == "end":
        tid = args[0]
        t._check_table(tid)
        h = t._current.get(tid)
        if h is None or h.processed or not h.hand.is_over:
            raise SchemaError(f"log[{i}]: table {tid} has no finished hand to settle")
        t._process(tid, t._now)
        t._maintain(t._now)
