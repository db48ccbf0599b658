"""Fuzz target: the table server's message handler (``server.app.handle_message``).

An input is a session at one three-seat table: lines of ``<client byte><message>``. The
client byte picks one of three connections (its value modulo 4; 3 instead lets the
table's timers run: the action clock, which is zero here, the bots and the next hand).
The message bytes go to ``handle_message`` exactly as a WebSocket frame would. Each
message must be handled or refused with the protocol's error (``ProtocolError``, a
``TripleDrawError``), and after each one:

- the chips add up (``check_chips``), in the table and in its stored state;
- the stored state restores to the very same table (``TableRunner`` from the store:
  seats, the engine's Table, the hand with its deck, the action count) - what a restart
  does;
- every state frame a connection got shows it only its own seat's hole cards.

Needs the ``server`` extra (starlette, fastjsonschema). Run:
``python fuzz/python/fuzz_server.py`` or ``python fuzz/python/run.py server``.
"""

from __future__ import annotations

import asyncio
import json
import random
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _harness import fuzz_one, guarded

from triple_draw import Rules, TripleDrawError
from triple_draw.server.app import handle_message
from triple_draw.server.protocol import ProtocolError
from triple_draw.server.store import SQLiteStore
from triple_draw.server.tables import TableConfig, TableRunner, check_chips

#: lines (messages and timer ticks) of one input at most: a session stays short
MAX_LINES = 40
TICK = 3

_ACTIONS = (
    {"kind": "fold"},
    {"kind": "check"},
    {"kind": "call"},
    {"kind": "bet"},
    {"kind": "raise"},
    {"kind": "discard", "cards": []},
    {"kind": "discard", "cards": ["2c", "3d"]},
    {"kind": "raise", "amount": 4},
    {"kind": "pass"},
)


def _config() -> TableConfig:
    # small stacks so players bust; a bot so hands run; no waiting anywhere
    return TableConfig(
        "t1",
        "Fuzz",
        rules=Rules(max_players=3),
        buy_in=12,
        clock=0.0,
        bots=1,
        bot="random",
        bot_delay=0.0,
        hand_pause=0.0,
    )


class _Conn:
    """A connection as the table sees it: each state frame is checked as it is sent."""

    def __init__(self, runner: TableRunner) -> None:
        self.runner = runner
        self.seat: int | None = None
        self.sent_hand = 0
        self.sent_events = 0
        self.address = "127.0.0.1"
        self.closed = False

    def close(self) -> None:  # (a connection whose seat token another one presented)
        self.closed = True

    def send(self, frame: dict[str, Any]) -> None:
        assert frame.get("v") == 1 and frame.get("type"), "a frame without version or type"

    def send_text(self, text: str) -> None:
        _check_frame(self.runner, json.loads(text))


def _message(rnd: random.Random, hand: int, seq: int, tokens: list[str]) -> Any:
    kinds = ("hello", "join", "act", "act", "act", "sit_out", "sit_in", "rebuy", "leave", "ping")
    kind = rnd.choice(kinds)
    msg: dict[str, Any] = {"v": 1, "type": kind}
    if kind == "hello" and rnd.random() < 0.5:
        msg["token"] = rnd.choice(tokens) if tokens and rnd.random() < 0.7 else "x" * 43
    elif kind == "join":
        msg["name"] = rnd.choice(("Ann", " ", "Bob", "\u00e9" * 24))
        if rnd.random() < 0.6:
            msg["seat"] = rnd.choice((0, 1, 2, 3, 7))
    elif kind == "act":
        msg["hand"] = hand + rnd.choice((0, 0, 0, 1, -1))
        msg["seq"] = seq + rnd.choice((0, 0, 0, 1, -1))
        msg["action"] = rnd.choice(_ACTIONS)
    return msg


def mutate(data: bytes, rnd: random.Random) -> bytes:
    """Insert, replace or drop whole messages (most of them well-formed), or ticks."""
    lines = [x for x in data.split(b"\n") if x] or []
    tokens = ["x" * 43]
    for _ in range(rnd.randint(1, 4)):
        i = rnd.randrange(len(lines) + 1)
        op = rnd.randrange(4)
        who = bytes([rnd.randrange(4)])
        if op == 3:
            line = bytes([TICK])
        else:
            msg = _message(rnd, rnd.randint(0, 3), rnd.randint(0, 12), tokens)
            line = who + json.dumps(msg).encode()
        if op in (0, 3) or not lines:
            lines.insert(i, line)
        elif op == 1:
            lines[min(i, len(lines) - 1)] = line
        else:
            del lines[min(i, len(lines) - 1)]
    return b"\n".join(lines[:MAX_LINES])


def _check_frame(runner: TableRunner, f: dict[str, Any]) -> None:
    """A state frame shows its seat's own hole cards only (none to a seat not in the
    hand, or to a spectator)."""
    hand = runner.hand
    if f.get("type") != "state" or f.get("hand") is None:
        return
    assert hand is not None and f["hand"]["id"] == runner.hand_id, "a frame of another hand"
    hs = runner._in_hand(f["seat"])
    own = [] if hs is None else list(hand.view(hs)["hole_cards"])
    assert f["hand"]["hole_cards"] == own, "a frame shows cards that are not its seat's"


def _check_state(runner: TableRunner, store: SQLiteStore) -> None:
    doc = runner.state_doc()
    check_chips(doc)
    stored = store.load_tables().get("t1")
    if stored is None:
        return
    check_chips(stored)
    again = TableRunner(_config(), store, stored)
    assert again.state_doc() == doc, "the stored state does not restore to the same table"


async def _session(data: bytes, path: str) -> None:
    store = SQLiteStore(path)
    runner = TableRunner(_config(), store, None)
    try:
        runner.start()
        conns = [_Conn(runner), _Conn(runner), _Conn(runner)]
        hello = [False, False, False]
        for line in data.split(b"\n")[:MAX_LINES]:
            if not line:
                continue
            who = line[0] % 4
            if who == TICK:
                for _ in range(6):
                    await asyncio.sleep(0)
            else:
                try:
                    hello[who] = handle_message(runner, conns[who], line[1:], hello[who])
                except ProtocolError as e:
                    assert isinstance(e, TripleDrawError) and e.code, "an error without a code"
            _check_state(runner, store)
    finally:
        runner.stop()
        store.close()


def check(data: bytes) -> None:
    with tempfile.TemporaryDirectory() as d:
        asyncio.run(_session(data, str(Path(d) / "fuzz.sqlite3")))


test_one_input = guarded(check, "server")

if __name__ == "__main__":
    fuzz_one(sys.modules[__name__], sys.argv)
