"""A bot that plays on a table server over the WebSocket protocol, like a person would.

It turns each state frame back into the :meth:`Hand.view` shape (hand seats, the
history it has gathered), asks a bot from :mod:`triple_draw.bots`, and sends the answer
tagged with the hand id and sequence number. It records the time from each action to its
acknowledgement, and every error frame. If the connection drops (a restarted server), it
reconnects with its seat token and carries on; an action whose acknowledgement never came
is simply offered again by the state it finds - a repeat is refused as stale by the
server, never applied twice.

Used by the load benchmark and the fault test; also a template for a bot of one's own::

    client = BotClient("ws://127.0.0.1:8000", "t1", "Robo")
    asyncio.run(client.run(stop_event))

At a server with accounts (``serve --accounts``) it plays for an account: give it the
session cookie (``headers={"Cookie": "td_session=..."}``, what ``POST /api/login``
set), the account's name (or ``None``) and, if you like, a ``buy_in``.
"""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass, field
from typing import Any

from triple_draw.bots import make_bot
from triple_draw.game import Action

__all__ = ["BotClient", "ClientStats", "frame_to_view"]


def frame_to_view(
    state: dict[str, Any], events: list[dict[str, Any]], stakes: dict[str, int]
) -> dict[str, Any]:
    """A :meth:`Hand.view`-shaped dict (hand seats) from a state frame's hand, for bots."""
    h = state["hand"]
    seat_map = [p["seat"] for p in h["players"]]
    inv = {ts: hs for hs, ts in enumerate(seat_map)}

    def hs(ts: int | None) -> int | None:
        return None if ts is None else inv[ts]

    history = [dict(e, seat=inv[e["seat"]]) if "seat" in e else dict(e) for e in events]
    return {
        "schema_version": 1,
        "seat": inv[state["seat"]],
        "n_players": len(seat_map),
        "button": inv[h["button"]],
        "small_blind_seat": hs(h["small_blind_seat"]),
        "big_blind_seat": inv[h["big_blind_seat"]],
        "stakes": dict(stakes),
        "phase": h["phase"],
        "street": h["street"],
        "actor": hs(h["actor"]),
        "pot": h["pot"],
        "bet_level": h["bet_level"],
        "hole_cards": list(h["hole_cards"]),
        "players": [dict(p, seat=inv[p["seat"]]) for p in h["players"]],
        "history": history,
        "legal_actions": list(h["legal_actions"]),
        "result": None,
    }


@dataclass
class ClientStats:
    latencies: list[float] = field(default_factory=list)
    errors: list[dict[str, Any]] = field(default_factory=list)
    actions: int = 0
    reconnects: int = 0
    frames: int = 0


class BotClient:
    """One seat played by ``bot`` (a name for :func:`make_bot`, or a bot object)."""

    def __init__(
        self,
        url: str,
        table_id: str,
        name: str | None,
        bot: Any = "heuristic",
        *,
        seed: int | None = None,
        seat: int | None = None,
        token: str | None = None,
        headers: dict[str, str] | None = None,
        buy_in: int | None = None,
    ) -> None:
        self.url = url.rstrip("/") + "/ws/" + table_id
        #: headers of the WebSocket handshake (an account's session cookie)
        self.headers = dict(headers or {})
        self.buy_in = buy_in
        self.name = name
        self.bot = make_bot(bot, seed=seed)
        self.want_seat = seat
        self.token = token
        self.seat: int | None = None
        self.stats = ClientStats()
        self.state: dict[str, Any] | None = None
        self.events: list[dict[str, Any]] = []
        self.stakes: dict[str, int] = {}
        self._sent: tuple[int, int] | None = None
        self._sent_at = 0.0

    async def run(self, stop: asyncio.Event, *, retry: float = 0.2) -> None:
        """Play until ``stop`` is set, reconnecting whenever the connection drops."""
        import websockets

        kw: dict[str, Any] = {}
        if self.headers:  # (websockets 14 renamed extra_headers)
            major = int(str(getattr(websockets, "__version__", "14")).split(".")[0])
            kw["additional_headers" if major >= 14 else "extra_headers"] = self.headers
        first = True
        while not stop.is_set():
            try:
                async with websockets.connect(self.url, max_size=2**22, **kw) as ws:
                    if not first:
                        self.stats.reconnects += 1
                    first = False
                    await self._session(ws, stop)
            except (OSError, websockets.ConnectionClosed, asyncio.TimeoutError):
                pass
            if not stop.is_set():
                try:
                    await asyncio.wait_for(stop.wait(), retry)
                except asyncio.TimeoutError:
                    pass

    async def _session(self, ws: Any, stop: asyncio.Event) -> None:
        self._sent = None
        hello: dict[str, Any] = {"v": 1, "type": "hello"}
        if self.token:
            hello["token"] = self.token
        await ws.send(json.dumps(hello))
        stopper = asyncio.ensure_future(stop.wait())
        try:
            while True:
                recv = asyncio.ensure_future(ws.recv())
                done, _ = await asyncio.wait({recv, stopper}, return_when=asyncio.FIRST_COMPLETED)
                if stopper in done:
                    recv.cancel()
                    return
                await self._on_frame(ws, json.loads(recv.result()))
        finally:
            stopper.cancel()

    async def _on_frame(self, ws: Any, f: dict[str, Any]) -> None:
        self.stats.frames += 1
        kind = f["type"]
        if kind == "welcome":
            self.stakes = f["table"]["stakes"]
            self.seat = f["seat"]
            if self.seat is None:
                msg: dict[str, Any] = {"v": 1, "type": "join"}
                if self.name is not None:
                    msg["name"] = self.name
                if self.want_seat is not None:
                    msg["seat"] = self.want_seat
                if self.buy_in is not None:
                    msg["buy_in"] = self.buy_in
                await ws.send(json.dumps(msg))
        elif kind == "joined":
            self.token = f["token"]
            self.seat = f["seat"]
        elif kind == "ack":
            if self._sent == (f["hand"], f["seq"]):
                self.stats.latencies.append(time.perf_counter() - self._sent_at)
                self.stats.actions += 1
        elif kind == "error":
            self.stats.errors.append(f)
            self._sent = None
            if f["code"] == "bad_token":
                self.token = None
        elif kind == "state":
            if f["events_from"] == 0:
                self.events = []
            self.events = self.events[: f["events_from"]] + f["events"]
            self.state = f
            await self._maybe_act(ws)

    async def _maybe_act(self, ws: Any) -> None:
        f = self.state
        assert f is not None
        h = f["hand"]
        if h is None or f["seat"] is None or h["actor"] != f["seat"] or not h["legal_actions"]:
            return
        if f["seats"][f["seat"]]["sitting_out"]:
            await ws.send(json.dumps({"v": 1, "type": "sit_in"}))
        key = (h["id"], h["seq"])
        if self._sent == key:
            return  # already answered this decision; waiting for the ack
        action = self.bot.act(frame_to_view(f, self.events, self.stakes))
        if not isinstance(action, Action):
            action = Action.from_dict(action) if isinstance(action, dict) else Action(action)
        self._sent = key
        self._sent_at = time.perf_counter()
        msg = {"v": 1, "type": "act", "hand": h["id"], "seq": h["seq"], "action": action.to_dict()}
        await ws.send(json.dumps(msg))
