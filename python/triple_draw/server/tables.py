"""A live table: seats, continuous hands, bots, the action clock, and each client's frames.

A :class:`TableRunner` lives on the server's event loop; every method runs there, so the
state changes of one table never interleave. Each change is committed to the
:class:`~triple_draw.server.store.Store` before anybody is told about it: an action is
applied to the hand and stored, and only then acknowledged and sent out. The table's
whole state is stored when a hand starts, when it ends (with its last action, in one
transaction) and when the seating changes; loading it applies the hand's later actions
again. If a write fails the table reloads its last committed state.

Between hands the engine's :class:`~triple_draw.game.Table` applies the card room's
rules (docs/table.md): stacks carry over, the dead button, a player who joins waits for
the big blind (or posts, per the table's option), a player who sits out owes the blinds
that pass him and posts them or waits for the big blind when he comes back, heads-up
nobody gets the big blind twice in a row. Its ``to_dict`` is the stored table state; the
runner keeps beside it who sits where (name, token digest, bot) and what a player asked
for during a hand - to join, sit out, sit in, leave - which it hands to the table once
the hand is over. A player who leaves takes his chips (at the end of the hand if one is
running); a player with no chips left sits out until he leaves. The action clock checks
or folds - and stands pat in a draw - for a player who does not act in time; two
timeouts in a row sit him out. A player who sits out, leaves or has timed out has his
turns played the same way at once. Seats kept for bots are refilled with a new bot (and
a new buy-in) when a bot goes broke.

Chips are accounted: ``chips_in`` (every buy-in) minus ``chips_out`` (every cash-out)
minus ``rake`` (the chips the house took, when the rules take a rake) is always the sum of
the stacks at the table (see :func:`check_chips`).

With accounts (``serve --accounts``, a runner made with ``accounts=True``) every person's
seat belongs to an account: sitting down needs the connection's account (its session), the
buy-in comes out of the account's balance and every cash-out goes back into it. Each is an
:class:`~triple_draw.server.store.AccountMove` stored in the very transaction that stores
the table's state with those chips arrived or gone, so the balances plus the chips at the
tables only change by an admin's credits (and the house's: bots, rake). A seat token is then
taken back only by a connection of the seat's own account.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import re
import secrets
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from triple_draw.bots import make_bot
from triple_draw.errors import IllegalActionError, TripleDrawError
from triple_draw.game import Action, Hand, Rules, Table
from triple_draw.server import engine
from triple_draw.server.protocol import PROTOCOL_VERSION, ProtocolError, error_frame, hand_frame
from triple_draw.server.store import (
    AccountError,
    AccountMove,
    InsufficientFundsError,
    Store,
    StoreError,
)

__all__ = ["Client", "Seat", "TableConfig", "TableRunner", "check_chips", "token_key"]

log = logging.getLogger("triple_draw.server")

#: 2: the seating is the engine Table's document (version 1 kept its own record)
STATE_VERSION = 2
#: Consecutive timeouts after which a player is sat out.
TIMEOUTS_TO_SIT_OUT = 2
#: Seconds a player to act gets after a restart when his time ran out while the server
#: was down (at most the clock), to reconnect.
RESTART_GRACE = 10.0
#: Unicode categories a name may not hold: control, format (zero-width and direction
#: marks), surrogates, private use, unassigned, line and paragraph separators.
_NAME_REFUSED_CATEGORIES = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}
#: Letters that print as nothing (Hangul fillers, the blank Braille pattern).
_BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")
#: A name (as :func:`name_key` folds it) that poses as a bot: "Bot", "Bot 3", "bot3x",
#: "Ann (bot)", "[bot] Ann", "Ann bot"; "Abbott" and "Robota" are fine.
_BOT_LIKE = re.compile(r"^bot(\b|\d)|[(\[{<]\s*bot\s*[)\]}>]|\bbot$")


def name_key(name: str) -> str:
    """What two names that look alike have in common (compatibility forms folded, case
    folded, runs of spaces as one): two players at a table may not share it."""
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


def check_name(name: str) -> str:
    """A player's name as shown (spaces trimmed and collapsed), or :class:`ProtocolError`
    ``bad_name``: no control or invisible characters (zero-width, direction marks), at
    least one visible character, and nothing that poses as a bot ("Bot 3", "x (bot)")."""
    for ch in name:
        cat = unicodedata.category(ch)
        blank = ch in _BLANK_LETTERS or (cat.startswith("Z") and ch != " ")
        if cat in _NAME_REFUSED_CATEGORIES or blank:
            raise ProtocolError(
                "bad_name",
                f"a name may not hold the invisible or control character U+{ord(ch):04X}",
            )
    shown = " ".join(name.split())
    key = name_key(shown)
    if not key:
        raise ProtocolError("bad_name", "a name needs a visible character")
    if _BOT_LIKE.search(key):
        raise ProtocolError("bad_name", f"{shown!r} poses as a bot: bots are named by the table")
    return shown


def token_key(token: str) -> str:
    """What the server keeps of a seat token: its SHA-256 digest."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class Client(Protocol):
    """A connection as the table sees it."""

    seat: int | None
    #: hand id and number of history events already sent (incremental events)
    sent_hand: int
    sent_events: int
    #: the client's network address (the per-address limits count by it)
    address: str

    def send(self, frame: dict[str, Any]) -> None: ...

    def send_text(self, text: str) -> None: ...

    def close(self) -> None:
        """Send what is queued, then close the connection."""


@dataclass
class TableConfig:
    id: str
    name: str
    rules: Rules = field(default_factory=Rules)
    buy_in: int = 200
    #: action clock, seconds
    clock: float = 30.0
    #: seats the server keeps filled with bots
    bots: int = 0
    bot: str = "heuristic"
    #: seconds a bot waits before acting (so people can follow), and between hands
    bot_delay: float = 0.8
    hand_pause: float = 3.0
    #: deal hands when only bots are seated (otherwise they wait for a person)
    bots_alone: bool = False
    #: a player who sits down after the first hand: "wait" for the big blind or "post"
    new_players: str = "wait"
    #: a player back from sitting out who missed blinds: "post" them or "wait"
    missed_blinds: str = "post"
    #: seconds a player may stay disconnected before his seat is freed and his chips
    #: cashed out (0: never)
    seat_timeout: float = 120.0
    #: seconds a player may sit out (by choice, by the clock or broke) before his seat is
    #: freed and his chips cashed out (0: never)
    sit_out_timeout: float = 600.0
    #: seconds of time bank each player gets when he sits down: used, as far as needed,
    #: when his action clock runs out (0: none)
    time_bank: float = 0.0
    #: turns in a row the clock may play for a player before his seat is freed and his
    #: chips cashed out (0: instead, two in a row sit him out)
    missed_turns: int = 0
    #: the fewest chips a player may sit down with (``buy_in`` is the most); ``None``: a
    #: fifth of ``buy_in``, at least the big blind
    min_buy_in: int | None = None

    @property
    def buy_in_range(self) -> tuple[int, int]:
        """The fewest and the most chips a player may sit down with."""
        lo = self.min_buy_in
        if lo is None:
            lo = max(self.rules.big_blind, -(-self.buy_in // 5))
        return min(max(lo, 1), self.buy_in), self.buy_in

    def info(self) -> dict[str, Any]:
        r = self.rules
        return {
            "id": self.id,
            "name": self.name,
            "max_players": r.max_players,
            "stakes": {
                "small_blind": r.small_blind,
                "big_blind": r.big_blind,
                "small_bet": r.small_bet,
                "big_bet": r.big_bet,
                "ante": r.ante,
            },
            "buy_in": self.buy_in,
            "min_buy_in": self.buy_in_range[0],
            "clock_seconds": self.clock,
            # only at a table that takes a rake (docs/rules.md: *The rake*)
            **(
                {
                    "rake": {
                        "percent": r.rake_percent,
                        "cap": r.rake_cap,
                        "rounding": r.rake_rounding,
                        "no_draw_no_drop": r.rake_no_draw_no_drop,
                    }
                }
                if r.compiled.rake
                else {}
            ),
        }


@dataclass
class Seat:
    """Who sits in a table seat and what he asked for; his chips are the Table's."""

    name: str
    key: str  # token digest; "" for a bot
    #: chips bought in and not yet at the Table (a player who joined during a hand)
    pending: int = 0
    bot: bool = False
    #: the player wants to sit out (applied to the Table between hands)
    sitting_out: bool = False
    #: the player has left (applied at the end of the hand he is in)
    leaving: bool = False
    #: the address the player joined from (kept in memory only: the per-address limit)
    address: str = field(default="", compare=False)
    #: the account whose seat it is (``serve --accounts``): its chips came from, and go
    #: back to, that account's balance
    account: int | None = None
    #: why he leaves, for the ledger's cash-out (in memory only)
    why: str = field(default="", compare=False)

    def to_doc(self) -> dict[str, Any]:
        doc = {
            "name": self.name,
            "key": self.key,
            "pending": self.pending,
            "bot": self.bot,
            "sitting_out": self.sitting_out,
            "leaving": self.leaving,
        }
        if self.account is not None:  # (a table without accounts stores what it did)
            doc["account"] = self.account
        return doc

    @classmethod
    def from_doc(cls, d: dict[str, Any]) -> Seat:
        return cls(
            d["name"],
            d["key"],
            d["pending"],
            d["bot"],
            d["sitting_out"],
            d["leaving"],
            account=d.get("account"),
        )


def _dumps(x: Any) -> str:
    return json.dumps(x, separators=(",", ":"))


class _Broadcast:
    """One moment of a table as JSON pieces shared by every connection's frame."""

    def __init__(self, runner: TableRunner) -> None:
        self.runner = runner
        self.seats = _dumps(runner._seats_frame())
        self.button = "null" if runner.button is None else str(runner.button)
        self.clock = _dumps(runner._clock_frame())
        self.hand_rest = ""
        self.events: list[dict[str, Any]] = []
        self._own: dict[int | None, str] = {}
        self._events: dict[int, str] = {}

    def hand_json(self, hs: int | None) -> str:
        """The hand object for hand seat ``hs`` (``None``: a spectator's, no cards)."""
        text = self._own.get(hs)
        if text is None:
            hole, legal, thrown = "[]", "[]", "[]"
            if hs is not None:
                hand = self.runner.hand
                assert hand is not None
                view = hand.view(hs)
                hole, legal = _dumps(view["hole_cards"]), _dumps(view["legal_actions"])
                thrown = _dumps(engine.own_discards(hand, hs))
            text = (
                f'{{"hole_cards":{hole},"legal_actions":{legal},"discards":{thrown},'
                f"{self.hand_rest}"
            )
            self._own[hs] = text
        return text

    def events_json(self, start: int) -> str:
        text = self._events.get(start)
        if text is None:
            text = self._events[start] = _dumps(self.events[start:])
        return text


def check_chips(state: dict[str, Any]) -> int:
    """Check a stored table state's chip accounting; returns the chips at the table.

    Raises :class:`StoreError` if the stacks (plus a running hand's chips and buy-ins not
    yet at the table) differ from the chips bought in minus the chips cashed out, or a
    hand lost or made chips. The rake a hand took counts as taken out (``rake``: every
    settled hand's; a paid-out hand not settled yet: its own)."""
    seats = state["table"]["seats"]  # while a hand runs: the stacks it started with
    total: int = sum(s["stack"] for s in seats if s is not None)
    total += sum(p["pending"] for p in state["seats"] if p is not None)
    hand = state["hand"]
    if hand is not None and not hand["settled"]:
        doc = hand["state"]
        start = sum(doc["starting_stacks"])
        now = sum(doc["stacks"]) + sum(doc["committed"])
        outcome = doc.get("outcome")
        if outcome is not None:  # paid out: the stacks hold everything but the rake
            now = sum(doc["stacks"]) + outcome.get("rake", 0)
        if now != start:
            raise StoreError(f"hand {hand['id']}: started with {start} chips, holds {now}")
        dealt = [seats[ts]["stack"] for ts in hand["seat_map"]]
        if sum(dealt) != start:
            raise StoreError(f"hand {hand['id']}: seats hold {sum(dealt)}, the hand {start}")
    rake = state.get("rake", 0)  # (absent: none taken, as in documents without rake)
    expected = state["chips_in"] - state["chips_out"] - rake
    if total != expected:
        raked = f" - raked {rake}" if rake else ""
        raise StoreError(
            f"table holds {total} chips; bought in {state['chips_in']} - cashed out "
            f"{state['chips_out']}{raked} = {expected}"
        )
    return total


class TableRunner:
    """One table on the event loop (see the module docstring)."""

    def __init__(
        self,
        config: TableConfig,
        store: Store,
        state: dict[str, Any] | None,
        *,
        accounts: bool = False,
    ) -> None:
        self.config = config
        self.store = store
        #: people sit down with the chips of their accounts (``serve --accounts``)
        self.accounts = accounts
        #: the accounts' buy-ins and cash-outs not stored yet: they go with the next
        #: write of the table's state, in its transaction
        self._moves: list[AccountMove] = []
        m = config.rules.max_players
        self.table: Table = engine.new_table(config.rules, config.new_players, config.missed_blinds)
        self.seats: list[Seat | None] = [None] * m
        self.chips_in = 0
        self.chips_out = 0
        #: the chips the house took from the hands settled at this table
        self.rake = 0
        self.hand_id = 0
        self.seq = 0
        self.settled = True
        self.clients: set[Client] = set()
        self._bots: dict[int, Any] = {}
        self._timeouts: dict[int, int] = {}
        self._timer: asyncio.TimerHandle | None = None
        self._timer_for: tuple[Any, ...] | None = None
        self._deadline: float | None = None
        self._bot_names = 0
        #: since when (loop time) a seat's player is disconnected / sitting out
        self._away: dict[int, float] = {}
        self._out: dict[int, float] = {}
        self._sweeper: asyncio.TimerHandle | None = None
        #: the decision waited for when the table was loaded, and the seconds its clock
        #: has left (a restart gives no fresh clock)
        self._resume: tuple[tuple[Any, ...], float] | None = None
        #: seconds of time bank each seat has left (in memory: a restart fills them), and
        #: the decision whose player is using his: (key, table seat, loop time it began)
        self._bank: dict[int, float] = {}
        self._banking: tuple[tuple[Any, ...], int, float] | None = None
        #: the tables of the server (the per-address seat limit counts over all of them)
        self.room: list[TableRunner] = [self]
        #: seats one address may hold over the room, spectators this table takes (0: no
        #: limit); the app sets them
        self.seats_per_address = 0
        self.max_spectators = 0
        if state is not None:
            self._restore(state)

    @property
    def hand(self) -> Hand | None:
        """The current (or last) hand."""
        return self.table.hand

    @property
    def seat_map(self) -> tuple[int, ...]:
        """Table seat of each hand seat of the current (or last) hand."""
        return self.table.seat_map

    @property
    def button(self) -> int | None:
        """Table seat of the current (or last) hand's button (``None`` before a hand)."""
        hand = self.table.hand
        return None if hand is None else self.table.seat_map[hand.button]

    # -- persistence ------------------------------------------------------------------------

    def state_doc(self) -> dict[str, Any]:
        """The stored state: the Table's document (its hand's state moved to ``hand``),
        who sits where, the chip accounting (``rake`` only once a hand was raked) and the
        hand's id and action count."""
        tdoc = engine.table_to_doc(self.table)
        hand = None
        if tdoc["hand"] is not None:
            hand = {
                "id": self.hand_id,
                "seq": self.seq,
                "seat_map": list(self.seat_map),
                "settled": self.settled,
                "state": tdoc["hand"].pop("state"),
            }
        return {
            "version": STATE_VERSION,
            "seats": [None if s is None else s.to_doc() for s in self.seats],
            "table": tdoc,
            "chips_in": self.chips_in,
            "chips_out": self.chips_out,
            **({"rake": self.rake} if self.rake else {}),
            "bot_names": self._bot_names,
            "hand": hand,
        }

    def _restore(self, state: dict[str, Any]) -> None:
        if state.get("version") != STATE_VERSION:
            raise StoreError(
                f"table {self.config.id}: unknown state version {state.get('version')!r}"
            )
        seats = [None if d is None else Seat.from_doc(d) for d in state["seats"]]
        if not self.accounts and any(s is not None and s.account is not None for s in seats):
            raise StoreError(
                f"table {self.config.id}: players of accounts are seated (the database was "
                "served with --accounts): serve it with --accounts, or their chips would "
                "never go back to their accounts"
            )
        m = self.config.rules.max_players
        if len(seats) != m:
            raise StoreError(
                f"table {self.config.id}: stored with {len(seats)} seats, configured with {m}"
            )
        hand = state["hand"]
        tdoc = dict(state["table"])
        if hand is not None:
            tdoc["hand"] = dict(tdoc["hand"], state=hand["state"])
        try:
            self.table = engine.table_from_doc(tdoc)
        except TripleDrawError as e:
            raise StoreError(f"table {self.config.id}: stored table: {e}") from None
        self.seats = seats
        self.chips_in = state["chips_in"]
        self.chips_out = state["chips_out"]
        self.rake = state.get("rake", 0)
        self._bot_names = state.get("bot_names", 0)
        if hand is None:
            self.hand_id = self.seq = 0
            self.settled = True
        else:
            self.hand_id = hand["id"]
            self.seq = hand["seq"]
            self.settled = hand["settled"]
            if not self.settled:
                self._replay()
        self._bots = {}
        self._moves = []

    def _replay(self) -> None:
        """Apply again the actions stored after the hand's stored state: the state holds
        the deck, so every card dealt is the one dealt before."""
        hand = self.hand
        assert hand is not None
        for seq, ts, action in self.store.actions_since(self.hand_id, self.seq):
            if seq != self.seq:
                raise StoreError(f"hand {self.hand_id}: action {self.seq} is missing")
            try:
                hand.apply(engine.action_from_message(action), self.seat_map.index(ts))
            except (TripleDrawError, ValueError) as e:
                raise StoreError(f"hand {self.hand_id}: stored action {seq}: {e}") from None
            self.seq += 1

    def _reload(self) -> None:
        """Back to the last committed state (after a failed write)."""
        state = self.store.load_tables().get(self.config.id)
        if state is not None:
            self._restore(state)
            return
        # never stored: back to the empty table it started as
        cfg = self.config
        self.table = engine.new_table(cfg.rules, cfg.new_players, cfg.missed_blinds)
        self.seats = [None] * cfg.rules.max_players
        self.chips_in = self.chips_out = self.rake = 0
        self.hand_id = self.seq = 0
        self.settled = True
        self._bot_names = 0
        self._bots = {}
        self._moves = []

    def _take_moves(self) -> list[AccountMove]:
        """The accounts' moves to store with the state being written (a failed write
        reloads the table, which drops them with the changes that made them)."""
        moves, self._moves = self._moves, []
        return moves

    def _save_seating(self) -> None:
        try:
            self.store.save_table(self.config.id, self.state_doc(), self._take_moves())
        except (StoreError, AccountError):
            self._reload()
            raise

    # -- what clients receive ----------------------------------------------------------------

    @property
    def in_progress(self) -> bool:
        return self.hand is not None and not self.hand.is_over

    def _in_hand(self, ts: int | None) -> int | None:
        if ts is None or self.hand is None:
            return None
        try:
            return self.seat_map.index(ts)
        except ValueError:
            return None

    def _seats_frame(self) -> list[dict[str, Any] | None]:
        connected = {c.seat for c in self.clients}
        live: dict[int, int] = {}
        if self.in_progress:
            assert self.hand is not None
            live = dict(zip(self.seat_map, self.hand.stacks, strict=True))
        stacks = self.table.seats
        frame: list[dict[str, Any] | None] = []
        for ts, s in enumerate(self.seats):
            if s is None:
                frame.append(None)
                continue
            at_table = stacks[ts] is not None
            status = self.table.status(ts)
            frame.append(
                {
                    "name": s.name,
                    "stack": live.get(ts, s.pending if stacks[ts] is None else stacks[ts]),
                    "bot": s.bot,
                    # a player with no chips left (not at the table) sits out
                    "sitting_out": s.sitting_out or s.leaving or not (at_table or s.pending),
                    # not dealt in yet: waiting for the big blind or to post
                    "waiting": not s.sitting_out
                    and (status == "waiting" or (s.pending > 0 and not at_table)),
                    "connected": s.bot or ts in connected,
                }
            )
        return frame

    def _clock_frame(self) -> dict[str, Any] | None:
        if self._deadline is None or not self.in_progress:
            return None
        assert self.hand is not None
        loop = asyncio.get_running_loop()
        ts = self.seat_map[self.hand.actor]
        banking = self._banking is not None
        return {
            "seat": ts,
            "remaining": round(max(0.0, self._deadline - loop.time()), 2),
            "total": self.config.clock,
            # the actor's time bank: running now (remaining is what is left of it), or
            # the seconds it holds for when the clock runs out
            "in_time_bank": banking,
            "time_bank": 0.0 if banking else round(self.bank_left(ts), 2),
        }

    def _shared(self) -> _Broadcast:
        """What every connection's frame of this moment has in common, serialized once."""
        b = _Broadcast(self)
        if self.hand is not None:
            public, events = hand_frame(
                self.hand.view(0), self.hand_id, self.seq, self.seat_map, own=False
            )
            del public["hole_cards"], public["legal_actions"]  # the seat's own, added per seat
            b.hand_rest = _dumps(public)[1:]  # '"id":...}': the seat's own parts go first
            b.events = events
        return b

    def frame_text(self, client: Client, shared: _Broadcast | None = None) -> str:
        """The state frame for ``client`` as JSON text: only what its seat may see - its
        own hole cards and legal actions come from ``Hand.view`` of its own seat, the rest
        from the public view every connection gets."""
        b = shared or self._shared()
        hand_json = "null"
        events_from = 0
        events_json = "[]"
        if self.hand is not None:
            hand_json = b.hand_json(self._in_hand(client.seat))
            n = len(b.events)
            if client.sent_hand == self.hand_id and client.sent_events <= n:
                events_from = client.sent_events
            events_json = b.events_json(events_from)
            client.sent_hand = self.hand_id
            client.sent_events = n
        seat = "null" if client.seat is None else str(client.seat)
        return (
            f'{{"v":{PROTOCOL_VERSION},"type":"state","seat":{seat},"seats":{b.seats},'
            f'"button":{b.button},"hand":{hand_json},"events":{events_json},'
            f'"events_from":{events_from},"clock":{b.clock}}}'
        )

    def broadcast(self) -> None:
        if not self.clients:
            return
        shared = self._shared()
        for c in list(self.clients):
            c.send_text(self.frame_text(c, shared))

    # -- clients -----------------------------------------------------------------------------

    def attach(self, client: Client, token: str | None) -> None:
        """A connection says hello: with a seat token it takes its seat back."""
        was_connected = False
        account = getattr(client, "account", None) if self.accounts else None
        if token is not None and self.accounts and account is None:
            raise ProtocolError(
                "login_required",
                "log in to take your seat back: at this table a seat token alone is not "
                "enough (the cashier: /cashier)",
            )
        if token is not None:
            key = token_key(token)
            seat = next(
                (
                    ts
                    for ts, s in enumerate(self.seats)
                    if s is not None
                    and not s.bot
                    and not s.leaving
                    and secrets.compare_digest(s.key, key)
                ),
                None,
            )
            if seat is None:
                raise ProtocolError("bad_token", "no seat at this table has that token")
            held = self.seats[seat]
            assert held is not None
            if self.accounts and (account is None or held.account != account[0]):
                raise ProtocolError("bad_token", "that seat is not your account's")
            for c in list(self.clients):
                if c.seat == seat and c is not client:
                    # the token moved to another client: the one that held it is told
                    # and closed (it no longer plays the seat)
                    was_connected = True
                    c.seat = None
                    self.clients.discard(c)
                    c.send(
                        error_frame(
                            "replaced",
                            f"another connection took seat {seat} with its token; this one "
                            "is closed",
                        )
                    )
                    c.close()
            client.seat = seat
            self._timeouts.pop(seat, None)
        elif self.max_spectators and self.spectators() >= self.max_spectators:
            raise ProtocolError(
                "limit_reached",
                f"this table already has {self.max_spectators} spectators; try again later",
            )
        self.clients.add(client)
        client.sent_hand = 0
        client.sent_events = 0
        client.send(
            {
                "v": PROTOCOL_VERSION,
                "type": "welcome",
                "table": self.config.info(),
                "seat": client.seat,
            }
        )
        if client.seat is not None and not was_connected:
            self.broadcast()  # the seat shows as connected again
        else:  # nobody else's view changed: only the newcomer gets the table
            client.send_text(self.frame_text(client))

    def account_seats(self, account_id: int) -> list[tuple[int, int]]:
        """The seats of an account at this table, each with the chips it holds (as the
        table shows them: a running hand's stack, or what is waiting to be dealt in)."""
        mine = [ts for ts, s in enumerate(self.seats) if s is not None and s.account == account_id]
        if not mine:
            return []
        frame = self._seats_frame()
        return [(ts, int(f["stack"])) for ts in mine if (f := frame[ts]) is not None]

    def spectators(self) -> int:
        """Connections of this table that hold no seat."""
        return sum(1 for c in self.clients if c.seat is None)

    def detach(self, client: Client) -> None:
        """A connection ended. Only when it was the last connection of a seat does anybody
        else's view change (the seat shows as disconnected): spectators come and go
        without a frame to anybody."""
        if client not in self.clients:
            return
        self.clients.discard(client)
        if client.seat is not None and all(c.seat != client.seat for c in self.clients):
            self.broadcast()

    def join(
        self, client: Client, name: str | None, seat: int | None, buy_in: int | None = None
    ) -> str:
        """Sit ``client`` down with ``buy_in`` chips (``None``: the table's buy-in, the
        most it takes); returns the seat token (given to this client only). His buy-in
        goes to the table between hands (at once if no hand is running).

        With accounts the connection needs an account (``client.account``: its id and
        name, from its session); the seat takes the account's name (``name``, if given,
        must be it), one seat an account at a table, and the buy-in comes out of the
        account's balance (``insufficient_funds`` if it holds less)."""
        if client.seat is not None:
            raise ProtocolError("not_allowed", f"you already sit in seat {client.seat}")
        account: tuple[int, str] | None = None
        if self.accounts:
            account = getattr(client, "account", None)
            if account is None:
                raise ProtocolError(
                    "login_required",
                    "log in to sit down: this table plays for the chips of accounts "
                    "(the cashier: /cashier)",
                )
            if name is not None and name_key(name) != name_key(account[1]):
                raise ProtocolError(
                    "bad_name", f"you sit down under your account's name, {account[1]!r}"
                )
            name = account[1]
            if any(s is not None and s.account == account[0] for s in self.seats):
                raise ProtocolError("not_allowed", "your account already has a seat at this table")
        elif name is None:
            raise ProtocolError("bad_message", "$.name: a join needs a name")
        name = check_name(name)
        key = name_key(name)
        if any(s is not None and name_key(s.name) == key for s in self.seats):
            raise ProtocolError("bad_name", f"somebody at this table is already named {name!r}")
        if self.seats_per_address:
            held = sum(
                1
                for r in self.room
                for s in r.seats
                if s is not None and not s.bot and not s.leaving and s.address == client.address
            )
            if held >= self.seats_per_address:
                raise ProtocolError(
                    "limit_reached",
                    f"your address already holds {held} seats, the most it may hold here",
                )
        m = len(self.seats)
        if seat is None:
            seat = next((ts for ts in range(m) if self._free(ts)), None)
            if seat is None:
                raise ProtocolError("table_full", "every seat is taken")
        elif seat >= m:
            raise ProtocolError("bad_message", f"seat must be 0..{m - 1}, got {seat}")
        elif not self._free(seat):
            raise ProtocolError("seat_taken", f"seat {seat} is taken")
        lo, hi = self.config.buy_in_range
        chips = hi if buy_in is None else buy_in
        if not lo <= chips <= hi:
            raise ProtocolError(
                "bad_buy_in", f"a buy-in at this table is {lo} to {hi} chips; got {chips}"
            )
        if account is not None:
            self._check_balance(account[0], chips, "the buy-in")
        if seat in self.table.busted and not self.in_progress:
            # a player who went broke there and left (a table saved by an older version):
            # the newcomer is a new player, not him buying back in
            self.table.leave(seat)
        token = secrets.token_urlsafe(32)
        self._bank[seat] = self.config.time_bank
        key = token_key(token)
        self.seats[seat] = Seat(
            name,
            key,
            chips,
            address=client.address,
            account=None if account is None else account[0],
        )
        self.chips_in += chips
        if account is not None:
            self._moves.append(AccountMove(account[0], -chips, "buy_in", self.config.id, "", key))
        self._between_hands()
        self._save_funded()
        client.seat = seat
        client.send({"v": PROTOCOL_VERSION, "type": "joined", "seat": seat, "token": token})
        self._changed()
        return token

    def _check_balance(self, account_id: int, chips: int, what: str) -> None:
        """``insufficient_funds`` unless the account's balance holds ``chips``."""
        found = self.store.account_by_id(account_id)
        balance = 0 if found is None else found.balance
        if balance < chips:
            raise ProtocolError(
                "insufficient_funds",
                f"your balance holds {balance} chips, short of {what} ({chips}): buy in for "
                "less, or have your account credited",
            )

    def _save_funded(self) -> None:
        """Store the seating with a buy-in: a balance that fell short meanwhile (an
        admin's debit) is ``insufficient_funds``, and nothing changed."""
        try:
            self._save_seating()
        except InsufficientFundsError as e:
            raise ProtocolError(
                "insufficient_funds", f"your balance holds {e.balance} chips, short of the buy-in"
            ) from None

    def _free(self, ts: int) -> bool:
        """Nobody sits there, and the Table holds no player there (one who left during
        the hand still plays it out)."""
        return self.seats[ts] is None and self.table.status(ts) is None

    def _seat_of(self, client: Client) -> Seat:
        if client.seat is None or self.seats[client.seat] is None:
            raise ProtocolError("not_seated", "you have no seat at this table (join first)")
        s = self.seats[client.seat]
        assert s is not None
        return s

    def sit_out(self, client: Client) -> None:
        s = self._seat_of(client)
        if not s.sitting_out:
            s.sitting_out = True
            self._between_hands()
            self._save_seating()
        self._changed()

    def sit_in(self, client: Client) -> None:
        s = self._seat_of(client)
        ts = client.seat
        assert ts is not None
        # (the hand he went broke in is still the table's last one until the next deal)
        playing = self.in_progress and self._in_hand(ts) is not None
        if self.table.seats[ts] is None and not s.pending and not playing:
            raise ProtocolError("not_allowed", "you have no chips left: buy in again (rebuy)")
        if s.sitting_out:
            s.sitting_out = False
            self._timeouts.pop(ts, None)
            self._between_hands()
            self._save_seating()
        self._changed()

    def rebuy(self, client: Client) -> None:
        """Chips up to the table's buy-in, outside the hands the player is in: a player with
        no chips left buys in again (``Table.rebuy``: he is not a new player, and makes
        up the blinds that passed his seat since he went broke, or waits for the big
        blind, as the table's ``missed_blinds`` option says), one with fewer chips than
        the buy-in is topped up to it (added at once, or when the running hand ends)."""
        s = self._seat_of(client)
        ts = client.seat
        assert ts is not None
        if s.leaving:
            raise ProtocolError("not_allowed", "you are leaving this table")
        if self.in_progress and self._in_hand(ts) is not None:
            raise ProtocolError(
                "not_allowed", "chips are added between hands: wait for the end of this one"
            )
        stack = self.table.seats[ts]
        held = (stack or 0) + s.pending
        if held >= self.config.buy_in:
            raise ProtocolError(
                "not_allowed",
                f"you have {held} chips; a rebuy tops up to the buy-in, {self.config.buy_in}",
            )
        need = self.config.buy_in - held
        broke = stack is None and not s.pending
        if s.account is not None:
            self._check_balance(s.account, need, "a top-up to the buy-in")
            kind = "buy_in" if broke else "top_up"
            self._moves.append(AccountMove(s.account, -need, kind, self.config.id))
        if broke:  # he plays again
            s.sitting_out = False
            self._timeouts.pop(ts, None)
        s.pending += need
        self.chips_in += need
        self._between_hands()
        self._save_funded()
        self._changed()

    def leave(self, client: Client) -> None:
        """The player leaves: at once between hands, at the end of the hand if one is
        running (his turns are folded meanwhile)."""
        s = self._seat_of(client)
        ts = client.seat
        assert ts is not None
        s.leaving = True
        s.why = "left the table"
        self._between_hands()
        self._save_seating()
        for c in list(self.clients):
            if c.seat == ts:
                c.seat = None
                c.send({"v": PROTOCOL_VERSION, "type": "left"})
        self._changed()

    def _between_hands(self) -> None:
        """Hand what the players asked for to the Table, if no hand is running: leavers
        cash out, new players sit down (and wait or post per the table's options), sit
        out and sit in; a busted bot goes, a busted person sits out until he leaves."""
        if self.in_progress:
            return
        t = self.table
        for ts, s in enumerate(self.seats):
            if s is None:
                continue
            at_table = t.status(ts) is not None
            if s.leaving or (s.bot and not at_table and not s.pending):
                # (a player who went broke leaves for good: t.leave forgets his claim)
                busted = not at_table and ts in t.busted
                out = (t.leave(ts) if at_table or busted else 0) + s.pending
                self.chips_out += out
                if s.account is not None and out:  # back to his account, with this state
                    why = s.why or "left the table"
                    self._moves.append(AccountMove(s.account, out, "cash_out", self.config.id, why))
                self.seats[ts] = None
                self._bots.pop(ts, None)
                continue
            if not at_table:
                if not s.pending:  # no chips left
                    s.sitting_out = True
                    continue
                if ts in t.busted:  # he went broke here: he buys back in, and owes
                    t.rebuy(ts, s.pending)  # the blinds that passed his seat meanwhile
                else:
                    t.sit(ts, s.pending)
                s.pending = 0
            elif s.pending:  # chips added (a top-up): now that no hand runs
                t.rebuy(ts, s.pending)
                s.pending = 0
            status = t.status(ts)
            if s.sitting_out and status != "sitting_out":
                t.sit_out(ts)
            elif not s.sitting_out and status == "sitting_out":
                t.sit_in(ts)

    def act(self, client: Client, hand_id: int, seq: int, message: dict[str, Any]) -> None:
        """A player's action answering action number ``seq`` of hand ``hand_id``."""
        self._seat_of(client)
        ts = client.seat
        if self.hand is None or hand_id != self.hand_id or not self.in_progress:
            raise ProtocolError("stale", f"hand {hand_id} is not the hand in progress")
        if seq != self.seq:
            raise ProtocolError(
                "stale", f"action {seq} of hand {hand_id} was already played (now {self.seq})"
            )
        hs = self._in_hand(ts)
        if hs is None:
            raise ProtocolError("not_allowed", "you are not in this hand")
        if self.hand.actor != hs:
            raise ProtocolError("illegal", "it is not your turn")
        try:
            action = engine.action_from_message(message)
        except (TripleDrawError, ValueError) as e:
            raise ProtocolError("illegal", str(e)) from None
        assert ts is not None
        self._timeouts.pop(ts, None)
        self._apply(ts, action)
        client.send({"v": PROTOCOL_VERSION, "type": "ack", "hand": hand_id, "seq": seq})
        self._changed()

    # -- playing -------------------------------------------------------------------------------

    def _apply(self, ts: int, action: Action) -> None:
        """Apply and commit an action of table seat ``ts`` (the actor)."""
        hand = self.hand
        assert hand is not None
        try:
            hand.apply(action, self.seat_map.index(ts))
        except IllegalActionError as e:
            raise ProtocolError("illegal", str(e)) from None
        seq = self.seq
        self.seq += 1
        # the action alone is enough to resume (it is applied again to the stored state);
        # the state itself is written when the hand ends, settled, with its last action
        state = finish = None
        if hand.is_over:
            finish = self._settle()
        if hand.is_over or self._moves:  # (the accounts' moves go with the state only)
            state = self.state_doc()
        try:
            self.store.record_action(
                self.config.id,
                self.hand_id,
                seq,
                ts,
                action.to_dict(),
                state,
                finish,
                self._take_moves(),
            )
        except (StoreError, AccountError):
            self._reload()
            raise

    def _settle(self) -> tuple[str, dict[str, Any]]:
        """The hand is over: its record, then the seating changes asked for meanwhile."""
        hand = self.hand
        assert hand is not None
        names = []
        for ts in self.seat_map:
            s = self.seats[ts]
            assert s is not None
            names.append(s.name)
        result = hand.result
        assert result is not None
        self.rake += result.rake
        self._between_hands()
        self.settled = True
        text = engine.history_text(hand, None, self.hand_id, names, self.config.name)
        return text, engine.hand_to_doc(hand)

    def _refill_bots(self) -> bool:
        want = self.config.bots - sum(1 for s in self.seats if s is not None and s.bot)
        changed = False
        for ts in range(len(self.seats)):
            if want <= 0:
                break
            if self._free(ts):
                self._bot_names += 1
                self.seats[ts] = Seat(f"Bot {self._bot_names}", "", self.config.buy_in, bot=True)
                self.chips_in += self.config.buy_in
                want -= 1
                changed = True
        if changed:
            self._between_hands()
        return changed

    def _next_hand(self) -> None:
        if self.in_progress:
            return
        changed = self._refill_bots()
        dealt = engine.dealt_next(self.table)
        people = [ts for ts in dealt if (s := self.seats[ts]) is not None and not s.bot]
        if len(dealt) < 2 or (not people and not self.config.bots_alone):
            if changed:
                self._save_seating()
            self.broadcast()
            return
        hand = engine.deal(self.table)
        assert hand is not None
        self.seq, self.settled = 0, False
        entries = [
            (s.key or f"bot:{s.name}", hs, ts, s.name)
            for hs, ts in enumerate(self.seat_map)
            if (s := self.seats[ts]) is not None
        ]

        def state(hand_id: int) -> dict[str, Any]:
            self.hand_id = hand_id
            return self.state_doc()

        try:
            self.store.begin_hand(self.config.id, entries, state, self._take_moves())
        except (StoreError, AccountError):
            self._reload()
            raise
        self._changed()

    def _auto(self, key: tuple[Any, ...], timed_out: bool) -> None:
        """The clock ran out, or the actor sits out / leaves: check or fold, stand pat."""
        if key != (self.hand_id, self.seq) or not self.in_progress:
            return
        hand = self.hand
        assert hand is not None
        ts = self.seat_map[hand.actor]
        sat_out = False
        missed = 0
        if timed_out:
            n = self._timeouts[ts] = self._timeouts.get(ts, 0) + 1
            s = self.seats[ts]
            if self.config.missed_turns:
                if n >= self.config.missed_turns:
                    missed = n
            elif n >= TIMEOUTS_TO_SIT_OUT and s is not None and not s.sitting_out:
                s.sitting_out = sat_out = True
        self._apply(ts, engine.timeout_action(hand))
        if missed:
            self._timeouts.pop(ts, None)
            self._free_seat(ts, f"the clock played {missed} turns in a row for you")
            return
        if sat_out and self.in_progress:  # (a finished hand stored the seating already)
            self._save_seating()
        self._changed()

    def _bot_act(self, key: tuple[Any, ...]) -> None:
        if key != (self.hand_id, self.seq) or not self.in_progress:
            return
        hand = self.hand
        assert hand is not None
        hs = hand.actor
        ts = self.seat_map[hs]
        bot = self._bots.get(ts)
        if bot is None:
            bot = self._bots[ts] = make_bot(self.config.bot, seed=secrets.randbits(64))
        action = bot.act(hand.view(hs))
        if not isinstance(action, Action):
            action = Action.from_dict(action) if isinstance(action, dict) else Action(action)
        self._apply(ts, action)
        self._changed()

    def _guard(self, fn: Callable[..., None], *args: Any) -> None:
        try:
            fn(*args)
        except Exception:  # a timer must never kill the loop; the table keeps its state
            log.exception("table %s: %s failed; retrying in a second", self.config.id, fn.__name__)
            self._timer_for = None
            self._timer = asyncio.get_running_loop().call_later(1.0, self._changed)
            self.broadcast()

    def _schedule(
        self, key: tuple[Any, ...], delay: float, fn: Callable[..., None], *args: Any
    ) -> None:
        if self._timer_for == key:
            return  # already waiting for this very decision: keep its clock
        if self._timer is not None:
            self._timer.cancel()
        loop = asyncio.get_running_loop()
        self._timer_for = key
        self._timer = loop.call_later(delay, self._guard, fn, *args)

    def bank_left(self, ts: int) -> float:
        """Seconds of time bank table seat ``ts`` has left."""
        return self._bank.get(ts, self.config.time_bank)

    def _clock_out(self, key: tuple[Any, ...]) -> None:
        """The action clock ran out: the player's time bank runs, if he has some left."""
        if key != (self.hand_id, self.seq) or not self.in_progress:
            return
        hand = self.hand
        assert hand is not None
        ts = self.seat_map[hand.actor]
        if self.bank_left(ts) < 0.05:
            self._auto(key, True)
            return
        self._banking = (key, ts, asyncio.get_running_loop().time())
        self._changed()

    def _changed(self) -> None:
        """Plan what happens next (bot move, clock, next hand), then tell everybody."""
        self._deadline = None
        key_now = (self.hand_id, self.seq)
        if self._banking is not None and (self._banking[0] != key_now or not self.in_progress):
            # the decision that used the time bank is over: what it used is gone
            _, ts, began = self._banking
            used = asyncio.get_running_loop().time() - began
            self._bank[ts] = max(0.0, self.bank_left(ts) - used)
            self._banking = None
        if self.in_progress:
            hand = self.hand
            assert hand is not None
            ts = self.seat_map[hand.actor]
            s = self.seats[ts]
            assert s is not None
            key = (self.hand_id, self.seq)
            if s.bot:
                self._schedule(("bot", *key), self.config.bot_delay, self._bot_act, key)
            elif s.sitting_out or s.leaving:
                self._schedule(("auto", *key), 0.0, self._auto, key, False)
            elif self._banking is not None:
                self._schedule(("bank", *key), self.bank_left(ts), self._auto, key, True)
                assert self._timer is not None
                self._deadline = self._timer.when()
            else:
                clock = self.config.clock
                if self._resume is not None and self._resume[0] == key:
                    clock = self._resume[1]
                self._schedule(("clock", *key), clock, self._clock_out, key)
                assert self._timer is not None
                self._deadline = self._timer.when()
        else:
            delay = self.config.hand_pause if self.hand is not None else 0.0
            dealt = tuple(engine.dealt_next(self.table))
            self._schedule(("next", self.hand_id, dealt), delay, self._next_hand)
        self.broadcast()

    def clock_left(self) -> tuple[int, int, float | None]:
        """The decision waited for and the seconds its player's clock has left (``None``:
        no player's clock runs - a bot's turn, between hands; 0 while his time bank runs),
        as the server stores it every second (:meth:`Store.save_clocks`)."""
        left: float | None = None
        if self.in_progress and self._deadline is not None and self._timer_for is not None:
            if self._timer_for[0] == "clock":
                left = max(0.0, self._deadline - asyncio.get_running_loop().time())
            elif self._timer_for[0] == "bank":
                left = 0.0
        return self.hand_id, self.seq, None if left is None else round(left, 3)

    def start(self, saved: tuple[int, int, float | None, float] | None = None) -> None:
        """Begin running (on the event loop): resume the hand in progress or deal, and
        watch the seats of absent players (a restart counts their absence from now).

        The clock of a decision waited for keeps the time it had left: ``saved``, what
        :meth:`clock_left` gave when the server last stored it (``(hand id, seq, left,
        at)``), so the time the server was down does not count; without it, the clock goes
        on from when the decision began (as stored). If it ran out, the player gets
        :data:`RESTART_GRACE` seconds to reconnect."""
        if self.in_progress:
            key = (self.hand_id, self.seq)
            clock = self.config.clock
            left: float | None = None
            if saved is not None and saved[:2] == key and saved[2] is not None:
                left = saved[2]
            else:
                began = self.store.decision_started(self.hand_id, self.seq)
                if began is not None:
                    # it began after the last time the clocks were stored: the server
                    # stopped within a second of it
                    end = began if saved is not None and saved[3] < began else time.time()
                    left = clock - max(0.0, end - began)
            if left is not None:
                self._resume = (key, max(left, min(clock, RESTART_GRACE)))
        self._changed()
        self._sweep_later()

    def cash_out_accounts(self, why: str = "server shutdown") -> int:
        """Cash out every seat of an account, between hands (the server stops): their
        chips go back to their accounts with the table's state. A table in the middle of a
        hand keeps its seats: the hand resumes after a restart, and its players leave or
        are freed then. Returns the seats cashed out."""
        if self.in_progress:
            return 0
        leaving = [
            s for s in self.seats if s is not None and s.account is not None and not s.leaving
        ]
        for s in leaving:
            s.leaving = True
            s.why = why
        if leaving:
            self._between_hands()
            self._save_seating()
        return len(leaving)

    def stop(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self._timer = None
        self._timer_for = None
        if self._sweeper is not None:
            self._sweeper.cancel()
        self._sweeper = None

    # -- seats nobody uses ---------------------------------------------------------------------

    def _sweep_interval(self) -> float | None:
        limits = [t for t in (self.config.seat_timeout, self.config.sit_out_timeout) if t > 0]
        return None if not limits else max(0.05, min(1.0, min(limits) / 4))

    def _sweep_later(self) -> None:
        interval = self._sweep_interval()
        if interval is not None:
            loop = asyncio.get_running_loop()
            self._sweeper = loop.call_later(interval, self._guard, self._sweep)

    def _sweep(self) -> None:
        """Free the seat of each player disconnected for longer than ``seat_timeout`` or
        sitting out for longer than ``sit_out_timeout``: he leaves as if he had asked to
        (his turns are folded, his chips cashed out at the end of a running hand)."""
        self._sweeper = None
        try:
            now = asyncio.get_running_loop().time()
            connected = {c.seat for c in self.clients}
            cfg = self.config
            freed: list[tuple[int, str]] = []
            for ts, s in enumerate(self.seats):
                if s is None or s.bot or s.leaving:
                    self._away.pop(ts, None)
                    self._out.pop(ts, None)
                    continue
                if ts in connected:
                    self._away.pop(ts, None)
                else:
                    self._away.setdefault(ts, now)
                broke = self.table.seats[ts] is None and not s.pending and self._in_hand(ts) is None
                if s.sitting_out or broke:
                    self._out.setdefault(ts, now)
                else:
                    self._out.pop(ts, None)
                if 0 < cfg.seat_timeout <= now - self._away.get(ts, now):
                    freed.append((ts, f"disconnected for more than {cfg.seat_timeout:g} s"))
                elif 0 < cfg.sit_out_timeout <= now - self._out.get(ts, now):
                    freed.append((ts, f"sitting out for more than {cfg.sit_out_timeout:g} s"))
            for ts, why in freed:
                self._free_seat(ts, why)
        finally:
            self._sweep_later()

    def _free_seat(self, ts: int, why: str) -> None:
        s = self.seats[ts]
        assert s is not None
        log.info("table %s: seat %d freed (%s)", self.config.id, ts, why)
        s.leaving = True
        s.why = f"seat freed: {why}"
        self._away.pop(ts, None)
        self._out.pop(ts, None)
        self._between_hands()
        self._save_seating()
        for c in list(self.clients):
            if c.seat == ts:
                c.seat = None
                c.send(error_frame("seat_freed", f"your seat was freed: {why}; chips cashed out"))
                c.send({"v": PROTOCOL_VERSION, "type": "left"})
        self._changed()
