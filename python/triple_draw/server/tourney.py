"""``triple-draw serve --tournament``: one tournament served to the browser.

A :class:`TournamentRunner` lives on the server's event loop and drives a
:class:`~triple_draw.Tournament`: players register in the lobby (a name; they get a
token, as a seat token, that takes their place back after a reconnection), bots fill the
entries the configuration gives them, the tables deal by themselves, bots act after a
delay, and a person who lets his action clock run out is marked absent - he stays in,
dealt every hand and blinded off (TDA *At Your Seat*) - until he says he is back.

Every change is stored before anybody is told: the tournament's whole document
(:meth:`Tournament.to_dict`, trusted on restart only by replaying it) with the players'
token digests, in the store's ``tables`` row of the tournament's id. A server killed at
any moment (SIGKILL) comes back with every registration, hand and action committed
before it died; a decision that was waited for gets a fresh action clock.

What a client gets (one ``tournament`` frame after every change): the lobby (structure,
entries, prizes), the clock (level, stakes, what is left of the level, breaks), the
standings, the player's own entry with the notices of his moves between tables, and his
table - seats, stacks and the hand as :meth:`Hand.view` of his own seat shows it (a
spectator's: the public part only). The document itself, which holds the seed, never
leaves the server.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from dataclasses import dataclass
from typing import Any

from triple_draw.bots import make_bot
from triple_draw.errors import IllegalActionError, TripleDrawError
from triple_draw.game import Action
from triple_draw.server import engine
from triple_draw.server.protocol import (
    PROTOCOL_VERSION,
    ProtocolError,
    decode_object,
    error_frame,
    hand_frame,
)
from triple_draw.server.store import Store, StoreError
from triple_draw.server.tables import check_name, name_key, token_key
from triple_draw.structure import Structure
from triple_draw.tournament import Tournament

__all__ = ["TournamentConfig", "TournamentRunner", "TOURNAMENT_STATE_VERSION", "parse_message"]

log = logging.getLogger("triple_draw.server")

#: The version of the stored row (the tournament's own document has its own).
TOURNAMENT_STATE_VERSION = 1
#: Client message types and the fields each may have.
_MESSAGES: dict[str, dict[str, type | tuple[type, ...]]] = {
    "hello": {"token": str},
    "register": {"name": str},
    "act": {"table": int, "hand": int, "seq": int, "action": dict},
    "back": {},
    "ping": {},
}
_CARD = frozenset(r + s for r in "23456789TJQKA" for s in "cdhs")
#: Events a player is told about himself (``notices`` of his frame).
_NOTICE_KINDS = ("seat", "move", "busted", "eliminated", "winner")


@dataclass
class TournamentConfig:
    """A served tournament: its structure, the bots that enter it (``bots`` entries named
    Bot 1, Bot 2, ... registered when the server first starts, playing ``bot``), the
    action ``clock`` of a person, a bot's ``bot_delay``, the ``hand_pause`` between two
    hands at a table, and - for an event that is not a sit & go - ``start_delay`` seconds
    after it has ``min_entries`` entries before it starts."""

    structure: Structure
    id: str = "tournament"
    bots: int = 0
    bot: str = "heuristic"
    clock: float = 30.0
    bot_delay: float = 0.8
    hand_pause: float = 2.0
    start_delay: float = 60.0
    seed: int | None = None

    def info(self) -> dict[str, Any]:
        st = self.structure
        return {
            "id": self.id,
            "name": st.name,
            "table_size": st.table_size,
            "starting_stack": st.starting_stack,
            "level_by": st.level_by,
            "levels": [lv.to_dict() for lv in st.levels],
            "buy_in": st.buy_in,
            "fee": st.fee,
            "max_entries": st.max_entries,
            "min_entries": st.min_entries,
            "late_registration": st.late_registration,
            "reentries": st.reentries,
            "clock_seconds": self.clock,
        }


def parse_message(data: str | bytes) -> dict[str, Any]:
    """A client message, checked: a JSON object as the table server decodes it
    (:func:`~triple_draw.server.protocol.decode_object`: at most ``MAX_MESSAGE_BYTES``,
    nested at most ``MAX_DEPTH`` deep, valid Unicode) with ``"v": 1``, a known ``type``
    and only its fields, each of its type (:class:`ProtocolError` otherwise)."""
    doc = decode_object(data)  # (the table server's decoder: size, depth, JSON, Unicode)
    if doc.get("v") != PROTOCOL_VERSION:
        raise ProtocolError("bad_message", f"$.v must be {PROTOCOL_VERSION}")
    kind = doc.get("type")
    fields = _MESSAGES.get(kind) if isinstance(kind, str) else None
    if fields is None:
        raise ProtocolError("bad_message", f"$.type: {kind!r} is not one of {sorted(_MESSAGES)}")
    for k, v in doc.items():
        if k in ("v", "type"):
            continue
        want = fields.get(k)
        if want is None:
            raise ProtocolError("bad_message", f"$.{k}: unknown field")
        if not isinstance(v, want) or isinstance(v, bool):
            raise ProtocolError("bad_message", f"$.{k}: wrong type")
    if kind == "hello" and "token" in doc and not 20 <= len(doc["token"]) <= 100:
        raise ProtocolError("bad_token", "a token is 20 to 100 characters")
    if kind == "register" and not 1 <= len(doc.get("name", "")) <= 24:
        raise ProtocolError("bad_name", "a name is 1 to 24 characters")
    if kind == "act":
        for k in ("table", "hand", "seq", "action"):
            if k not in doc:
                raise ProtocolError("bad_message", f"$.{k}: missing")
        a = doc["action"]
        if set(a) - {"kind", "amount", "cards"} or a.get("kind") not in (
            "fold", "check", "call", "bet", "raise", "discard",
        ):  # fmt: skip
            raise ProtocolError(
                "bad_message", "$.action: kind fold, check, call, bet, raise, discard"
            )
        cards = a.get("cards")
        if cards is not None and (
            not isinstance(cards, list)
            or len(cards) > 5
            or any(not isinstance(c, str) or c not in _CARD for c in cards)
        ):
            raise ProtocolError("bad_message", "$.action.cards: up to five cards like '7h'")
        amount = a.get("amount")
        if amount is not None and (type(amount) is not int or not 0 <= amount <= 2**50):
            raise ProtocolError("bad_message", "$.action.amount: a whole number of chips")
    return doc


class TournamentRunner:
    """The served tournament on the event loop (see the module docstring)."""

    def __init__(
        self, config: TournamentConfig, store: Store, state: dict[str, Any] | None
    ) -> None:
        self.config = config
        self.store = store
        #: player name -> digest of his token ("" for a bot)
        self.players: dict[str, str] = {}
        self.clients: set[Any] = set()
        self._bots: dict[str, Any] = {}
        self._timers: dict[str, asyncio.TimerHandle] = {}
        self._timer_keys: dict[str, tuple[Any, ...]] = {}
        self._deadlines: dict[int, float] = {}
        self._start_at: float | None = None
        #: the last state committed (what a failed write goes back to)
        self._saved: dict[str, Any] | None = state
        if state is not None:
            self._restore(state)
        else:
            self.t = Tournament(config.structure, seed=config.seed, clock=time.time)
            for k in range(config.bots):
                name = f"Bot {k + 1}"
                self.players[name] = ""
                self.t.register(name)
            self._save()

    # -- storage ---------------------------------------------------------------------------

    def state_doc(self) -> dict[str, Any]:
        return {
            "version": TOURNAMENT_STATE_VERSION,
            "kind": "tournament",
            "players": dict(self.players),
            "tournament": self.t.to_dict(),
        }

    def _restore(self, state: dict[str, Any]) -> None:
        if state.get("version") != TOURNAMENT_STATE_VERSION or state.get("kind") != "tournament":
            raise StoreError(
                f"{self.config.id}: the stored row is not a tournament of this version "
                "(was the database served with tables?)"
            )
        try:
            self.t = Tournament.from_dict(state["tournament"], clock=time.time)
        except TripleDrawError as e:
            raise StoreError(f"{self.config.id}: stored tournament: {e}") from None
        players = state["players"]
        if not isinstance(players, dict) or any(
            not isinstance(k, str) or not isinstance(v, str) for k, v in players.items()
        ):
            raise StoreError(f"{self.config.id}: stored players are unreadable")
        self.players = dict(players)

    def _save(self) -> None:
        doc = self.state_doc()
        self.store.save_table(self.config.id, doc)
        self._saved = doc

    def _commit(self, undo: dict[str, Any] | None) -> None:
        """Store the new state; if that fails, go back to ``undo`` (the last committed
        document) and raise."""
        try:
            self._save()
        except StoreError:
            if undo is not None:
                self._restore(undo)
            raise

    # -- frames ------------------------------------------------------------------------------

    def _player_of(self, client: Any) -> str | None:
        return getattr(client, "player", None)

    def lobby(self) -> dict[str, Any]:
        """The public summary of ``GET /api/tournament``."""
        t = self.t
        return {
            "v": PROTOCOL_VERSION,
            "tournament": self.config.info(),
            "status": t.status,
            "registration_open": t.registration_open,
            "entries": [e.player for e in t.entries()],
            "remaining": t.remaining,
            "prize_pool": t.prize_pool,
            "prizes": list(t.prizes),
            "clock": t.clock(),
            "tables": list(t.tables),
        }

    def frame(self, client: Any) -> dict[str, Any]:
        """Everything ``client`` may see now (only his own cards)."""
        t = self.t
        player = self._player_of(client)
        entry = t.entry_of(player) if player is not None else None
        you = None
        if entry is not None:
            you = {
                "player": player,
                "entry": entry.id,
                "status": entry.status,
                "stack": entry.stack,
                "table": entry.table,
                "seat": entry.seat,
                "place": entry.place,
                "places": None if entry.places is None else list(entry.places),
                "prize": entry.prize,
                "absent": t.is_absent(player),  # type: ignore[arg-type]
                "may_reenter": t.registration_open and entry.status == "busted",
            }
        watch = entry.table if entry is not None and entry.table in t.tables else None
        if watch is None and t.tables:
            watch = t.tables[0]
        notices = []
        if player is not None:
            for e in t.events:
                if e.get("player") == player and e["kind"] in _NOTICE_KINDS:
                    notices.append(e)
        standings = [
            {
                "player": e.player,
                "entry": e.id,
                "status": e.status,
                "stack": e.stack,
                "table": e.table,
                "place": e.place,
                "places": None if e.places is None else list(e.places),
                "prize": e.prize,
            }
            for e in t.standings()
        ]
        news = [
            e
            for e in t.events
            if e["kind"] in ("level", "break", "table_broken", "final_table", "hand_for_hand",
                             "eliminated", "registration_closed", "winner", "start")
        ][-12:]  # fmt: skip
        return {
            "v": PROTOCOL_VERSION,
            "type": "tournament",
            "status": t.status,
            "registration_open": t.registration_open,
            "clock": t.clock(),
            "prize_pool": t.prize_pool,
            "prizes": list(t.prizes),
            "entries": len(t.entries()),
            "remaining": t.remaining,
            "standings": standings,
            "you": you,
            "notices": notices[-8:],
            "news": news,
            "table": None if watch is None else self._table_frame(watch, entry),
        }

    def _table_frame(self, tid: int, entry: Any) -> dict[str, Any]:
        t = self.t
        table = t.table(tid)
        hand = t.hand(tid)
        seats = []
        names = t.players_at(tid)
        stacks = {e.seat: e.stack for e in t.entries() if e.table == tid and e.seat is not None}
        for s in range(t.structure.table_size):
            name = names.get(s)
            seats.append(
                None
                if name is None
                else {
                    "seat": s,
                    "player": name,
                    "stack": stacks.get(s, 0),
                    "absent": t.is_absent(name),
                }
            )
        out: dict[str, Any] = {"id": tid, "seats": seats, "final": tid == t.final_table}
        if hand is None:
            out.update(hand=None, events=[], hand_no=None, seq=0)
            return out
        number = t.hand_number(tid)
        seq = len(t.hand_actions(tid))
        own = (
            entry is not None
            and entry.table == tid
            and entry.seat is not None
            and table.hand_seat(entry.seat) is not None
        )
        hs = table.hand_seat(entry.seat) if own else 0
        view = hand.view(hs)  # type: ignore[arg-type]
        h, events = hand_frame(view, number or 0, seq, table.seat_map, own=own)
        if own:
            h["discards"] = engine.own_discards(hand, hs)  # type: ignore[arg-type]
        out.update(hand=h, events=events, hand_no=number, seq=seq)
        dl = self._deadlines.get(tid)
        if dl is not None and not hand.is_over:
            left = dl - asyncio.get_running_loop().time()
            out["clock"] = {
                "seat": table.seat_map[hand.actor],
                "remaining": round(max(0.0, left), 2),
            }
        return out

    def broadcast(self) -> None:
        for c in list(self.clients):
            c.send(self.frame(c))

    # -- clients -------------------------------------------------------------------------------

    def attach(self, client: Any, token: str | None) -> None:
        """A connection says hello: with a token it is the player it was given to (and, if
        he was absent, he is back)."""
        client.player = None
        if token is not None:
            key = token_key(token)
            name = next(
                (p for p, k in self.players.items() if k and secrets.compare_digest(k, key)), None
            )
            if name is None:
                raise ProtocolError("bad_token", "no player of this tournament has that token")
            client.player = name
            if self.t.is_absent(name):
                self._back(name)
        self.clients.add(client)
        client.send(
            {
                "v": PROTOCOL_VERSION,
                "type": "welcome",
                "tournament": self.config.info(),
                "player": client.player,
            }
        )
        client.send(self.frame(client))

    def detach(self, client: Any) -> None:
        self.clients.discard(client)

    def register(self, client: Any, name: str) -> None:
        """Register (or, for a player whose entries busted, re-enter while registration is
        open): the token of the name comes back to this connection only."""
        current = self._player_of(client)
        undo = self._saved
        if current is not None:  # a re-entry
            try:
                self.t.register(current)
            except IllegalActionError as e:
                raise ProtocolError("not_allowed", str(e)) from None
            self._commit(undo)
            client.send({"v": PROTOCOL_VERSION, "type": "registered", "player": current})
            self._changed()
            return
        shown = check_name(name)
        key = name_key(shown)
        if any(name_key(p) == key for p in self.players):
            raise ProtocolError("bad_name", f"somebody is already registered as {shown!r}")
        why = self.t.why_not_register(shown)  # (refused before the token is made)
        if why is not None:
            raise ProtocolError("not_allowed", why)
        token = secrets.token_urlsafe(32)
        self.players[shown] = token_key(token)
        try:
            self.t.register(shown)
            self._commit(undo)
        except (IllegalActionError, StoreError):
            self.players.pop(shown, None)
            raise
        client.player = shown
        client.send({"v": PROTOCOL_VERSION, "type": "registered", "player": shown, "token": token})
        self._changed()

    def act(self, client: Any, table: int, hand_no: int, seq: int, message: dict[str, Any]) -> None:
        player = self._player_of(client)
        if player is None:
            raise ProtocolError("not_registered", "register first")
        t = self.t
        entry = t.entry_of(player)
        if entry is None or entry.table != table or entry.seat is None or table not in t.tables:
            raise ProtocolError("not_allowed", f"you do not play at table {table}")
        hand = t.hand(table)
        if hand is None or hand.is_over or t.hand_number(table) != hand_no:
            raise ProtocolError("stale", f"hand {hand_no} is not the hand in progress there")
        if seq != len(t.hand_actions(table)):
            raise ProtocolError("stale", f"action {seq} of hand {hand_no} was already played")
        hs = t.table(table).hand_seat(entry.seat)
        if hs is None or hand.actor != hs:
            raise ProtocolError("illegal", "it is not your turn")
        try:
            action = engine.action_from_message(message)
        except (TripleDrawError, ValueError) as e:
            raise ProtocolError("illegal", str(e)) from None
        undo = self._saved
        try:
            t.act(table, action, hs)
        except IllegalActionError as e:
            raise ProtocolError("illegal", str(e)) from None
        self._commit(undo)
        client.send({"v": PROTOCOL_VERSION, "type": "ack", "hand": hand_no, "seq": seq})
        self._changed()

    def back(self, client: Any) -> None:
        player = self._player_of(client)
        if player is None:
            raise ProtocolError("not_registered", "register first")
        self._back(player)
        self._changed()

    def _back(self, player: str) -> None:
        if self.t.is_absent(player):
            undo = self._saved
            self.t.set_absent(player, False)
            self._commit(undo)

    # -- the tournament plays ---------------------------------------------------------------------

    def start(self) -> None:
        self._changed()

    def stop(self) -> None:
        for h in self._timers.values():
            h.cancel()
        self._timers.clear()
        self._timer_keys.clear()

    def _schedule(self, slot: str, key: tuple[Any, ...], delay: float, fn: Any, *args: Any) -> None:
        if self._timer_keys.get(slot) == key:
            return
        old = self._timers.pop(slot, None)
        if old is not None:
            old.cancel()
        self._timer_keys[slot] = key
        self._timers[slot] = asyncio.get_running_loop().call_later(
            max(0.0, delay), self._guard, slot, fn, *args
        )

    def _cancel(self, slot: str) -> None:
        old = self._timers.pop(slot, None)
        if old is not None:
            old.cancel()
        self._timer_keys.pop(slot, None)

    def _guard(self, slot: str, fn: Any, *args: Any) -> None:
        self._timers.pop(slot, None)
        self._timer_keys.pop(slot, None)
        try:
            fn(*args)
        except Exception:  # a timer must never kill the loop: retry in a second
            log.exception("tournament %s: %s failed; retrying", self.config.id, fn.__name__)
            with_undo = self.store.load_tables().get(self.config.id)
            if with_undo is not None:
                try:
                    self._restore(with_undo)
                except StoreError:
                    log.exception("tournament %s: reloading failed", self.config.id)
            asyncio.get_running_loop().call_later(1.0, self._changed)

    def _changed(self) -> None:
        """Plan what happens next at each table (a bot's move, a person's clock, the next
        deal), the start of an event that is not a sit & go, then tell everybody."""
        t = self.t
        loop = asyncio.get_running_loop()
        if t.status == "registering":
            st = t.structure
            n = len(t.entries())
            if not st.start_when_full and n >= st.min_entries:
                if self._start_at is None:
                    self._start_at = loop.time() + self.config.start_delay
                self._schedule("start", ("start",), self._start_at - loop.time(), self._start)
            else:
                self._start_at = None
                self._cancel("start")
        live = set(t.tables)
        for slot in [s for s in self._timers if s.startswith("table:")]:
            if int(slot.split(":")[1]) not in live:
                self._cancel(slot)
        self._deadlines = {k: v for k, v in self._deadlines.items() if k in live}
        if t.status == "running":
            for tid in t.tables:
                self._plan_table(tid)
        self.broadcast()

    def _plan_table(self, tid: int) -> None:
        t = self.t
        hand = t.hand(tid)
        slot = f"table:{tid}"
        if hand is not None and not hand.is_over:
            number = t.hand_number(tid)
            seq = len(t.hand_actions(tid))
            player = t.player_at(tid, hand.actor)
            key = (number, seq)
            if self.players.get(player) == "":
                self._deadlines.pop(tid, None)
                self._schedule(slot, ("bot", *key), self.config.bot_delay, self._bot_act, tid, key)
            else:
                if self._timer_keys.get(slot) != ("clock", *key):
                    self._deadlines[tid] = asyncio.get_running_loop().time() + self.config.clock
                self._schedule(slot, ("clock", *key), self.config.clock, self._timeout, tid, key)
            return
        self._deadlines.pop(tid, None)
        why = t.why_not_deal(tid)
        n = t.hand_number(tid) or 0
        if why is None:
            pause = self.config.hand_pause if hand is not None else 0.2
            self._schedule(slot, ("deal", n), pause, self._deal, tid)
        else:  # a break, hand for hand, the final table...: look again in a second
            self._schedule(slot, ("wait", n, why), 1.0, self._changed)

    def _key_now(self, tid: int) -> tuple[Any, ...] | None:
        t = self.t
        if tid not in t.tables:
            return None
        hand = t.hand(tid)
        if hand is None or hand.is_over:
            return None
        return (t.hand_number(tid), len(t.hand_actions(tid)))

    def _start(self) -> None:
        if self.t.status != "registering":
            return
        undo = self._saved
        self.t.start()
        self._commit(undo)
        self._changed()

    def _deal(self, tid: int) -> None:
        t = self.t
        if t.status != "running" or tid not in t.tables or t.why_not_deal(tid) is not None:
            self._changed()
            return
        undo = self._saved
        t.deal(tid)
        self._commit(undo)
        self._changed()

    def _bot_act(self, tid: int, key: tuple[Any, ...]) -> None:
        if self._key_now(tid) != key:
            self._changed()
            return
        t = self.t
        hand = t.hand(tid)
        assert hand is not None and hand.actor is not None
        name = t.player_at(tid, hand.actor)
        bot = self._bots.get(name)
        if bot is None:
            bot = self._bots[name] = make_bot(self.config.bot, seed=secrets.randbits(64))
        action = bot.act(hand.view(hand.actor))
        if not isinstance(action, Action):
            action = Action.from_dict(action) if isinstance(action, dict) else Action(action)
        undo = self._saved
        t.act(tid, action)
        self._commit(undo)
        self._changed()

    def _timeout(self, tid: int, key: tuple[Any, ...]) -> None:
        """A person's clock ran out: he is absent from now on (his hand is folded, he is
        dealt in and blinded off until he says he is back)."""
        if self._key_now(tid) != key:
            self._changed()
            return
        t = self.t
        hand = t.hand(tid)
        assert hand is not None and hand.actor is not None
        name = t.player_at(tid, hand.actor)
        undo = self._saved
        t.set_absent(name, True)
        self._commit(undo)
        self._changed()


def handle(runner: TournamentRunner, conn: Any, data: str | bytes, hello: bool) -> bool:
    """One message of a connection (see :func:`parse_message`); returns whether it has
    said hello."""
    doc = parse_message(data)
    kind = doc["type"]
    if kind == "ping":
        conn.send({"v": PROTOCOL_VERSION, "type": "pong"})
        return hello
    if kind == "hello":
        if hello:
            raise ProtocolError("not_allowed", "hello was already said")
        runner.attach(conn, doc.get("token"))
        return True
    if not hello:
        raise ProtocolError("not_allowed", "say hello first")
    if kind == "register":
        runner.register(conn, doc.get("name", ""))
    elif kind == "act":
        runner.act(conn, doc["table"], doc["hand"], doc["seq"], doc["action"])
    elif kind == "back":
        runner.back(conn)
    return hello


def error(e: ProtocolError) -> dict[str, Any]:
    return error_frame(e.code, str(e))
