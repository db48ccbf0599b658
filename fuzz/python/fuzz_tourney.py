"""Fuzz target: the tournament server's message handler (``server.tourney.handle``).

An input is a session of one small served tournament (three-seat tables, 20 chips, a
random bot entered, no waiting anywhere): lines of ``<client byte><message>``. The client
byte picks what the line is, by its value modulo 8:

- 0, 1, 2: the message bytes of that connection, given to ``handle`` exactly as a
  WebSocket frame would be;
- 3: a tick that lets the tournament's timers run (the start, the bots, the deals, and
  the action clock, zero here, which makes a person absent);
- 4, 5, 6: an ``act`` of connection 0, 1 or 2 at its own table with the hand and action
  numbers in play and the legal action the message bytes pick (so that sessions get deep
  into the tournament; the message still goes through the parser).

Each message must be handled or refused with the protocol's error (``ProtocolError``, a
``TripleDrawError`` with a code), and after each line:

- the tournament's invariants hold (``Tournament.check``: chips conserved, seats, places,
  prizes);
- the stored state restores to the very same tournament (a ``TournamentRunner`` from the
  store) - what a restart does;
- every frame a connection got showed it only its own seat's hole cards, and never the
  tournament's document (which holds the seed).

Needs the ``server`` extra. Run: ``python fuzz/python/fuzz_tourney.py`` or
``python fuzz/python/run.py tourney``.
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

from triple_draw import Level, Structure, TripleDrawError
from triple_draw.server.protocol import ProtocolError
from triple_draw.server.store import SQLiteStore
from triple_draw.server.tourney import TournamentConfig, TournamentRunner, handle

__all__ = ["check", "mutate", "test_one_input"]

#: lines (messages and ticks) of one input at most: a session stays short
MAX_LINES = 60
TICK = 3
SMART = (4, 5, 6)

_NAMES = ("Ann", "Bob", "Cy", " ", "Bot 1", "ann", "\u00e9" * 24, "x" * 25)


def config() -> TournamentConfig:
    structure = Structure(
        name="fuzz",
        starting_stack=20,
        levels=(Level(1, 2, 2, 4, 0, 4), Level(2, 4, 4, 8, 1, 1000)),
        table_size=3,
        min_entries=3,
        hand_for_hand=True,
        late_registration=2,
        reentries=1,
        rules={"raise_cap": 4},
    )
    return TournamentConfig(
        structure=structure,
        id="fuzz",
        bots=1,
        bot="random",
        clock=0.0,
        bot_delay=0.0,
        hand_pause=0.0,
        start_delay=0.0,
        seed=7,
    )


class _Conn:
    """A connection as the server sees it: each frame is checked as it is sent."""

    def __init__(self, runner: TournamentRunner) -> None:
        self.runner = runner
        self.player: str | None = None

    def send(self, frame: dict[str, Any]) -> None:
        assert frame.get("v") == 1 and frame.get("type"), "a frame without version or type"
        text = json.dumps(frame)
        assert '"seed"' not in text and "tournament_document" not in text, (
            "a frame shows the tournament's document"
        )
        if frame["type"] == "tournament":
            _check_frame(self.runner, self, frame)


def _check_frame(runner: TournamentRunner, conn: _Conn, f: dict[str, Any]) -> None:
    """The hand in a frame shows the connection's own hole cards only (none to a player
    not in that hand, or to a spectator)."""
    table = f.get("table")
    if not table or not table.get("hand"):
        return
    t = runner.t
    tid = table["id"]
    hand = t.hand(tid)
    assert hand is not None, "a frame shows a hand the table does not have"
    own: list[str] = []
    entry = t.entry_of(conn.player) if conn.player is not None else None
    if entry is not None and entry.table == tid and entry.seat is not None:
        hs = t.table(tid).hand_seat(entry.seat)
        if hs is not None:
            own = list(hand.view(hs)["hole_cards"])
    assert table["hand"]["hole_cards"] == own, "a frame shows cards that are not its seat's"


def _smart_act(runner: TournamentRunner, conn: _Conn, pick: bytes) -> bytes:
    """The act message of ``conn`` at its table, for the hand and action in play, with the
    legal action ``pick`` chooses (or a plain fold when it has no table)."""
    t = runner.t
    msg: dict[str, Any] = {"v": 1, "type": "act", "table": 1, "hand": 1, "seq": 0}
    entry = t.entry_of(conn.player) if conn.player is not None else None
    action: dict[str, Any] = {"kind": "fold"}
    if entry is not None and entry.table in t.tables:
        tid = entry.table
        hand = t.hand(tid)
        msg["table"] = tid
        if hand is not None:
            msg["hand"] = t.hand_number(tid) or 0
            msg["seq"] = len(t.hand_actions(tid))
            legal = list(hand.legal_actions())
            if legal:
                k = pick[0] if pick else 0
                action = legal[k % len(legal)].to_dict()
    msg["action"] = action
    return json.dumps(msg).encode()


def _message(rnd: random.Random) -> dict[str, Any]:
    kind = rnd.choice(("hello", "hello", "register", "register", "act", "back", "ping", "x"))
    msg: dict[str, Any] = {"v": 1, "type": kind}
    if kind == "hello" and rnd.random() < 0.3:
        msg["token"] = "t" * rnd.choice((19, 43, 101))
    elif kind == "register" and rnd.random() < 0.9:
        msg["name"] = rnd.choice(_NAMES)
    elif kind == "act":
        msg.update(table=rnd.randint(0, 3), hand=rnd.randint(0, 4), seq=rnd.randint(0, 9))
        msg["action"] = rnd.choice(
            ({"kind": "fold"}, {"kind": "call"}, {"kind": "discard", "cards": ["2c"]},
             {"kind": "raise", "amount": 4}, {"kind": "shove"}, {"kind": "bet", "x": 1})
        )  # fmt: skip
    return msg


def mutate(data: bytes, rnd: random.Random) -> bytes:
    """Insert, replace or drop whole lines: messages (most of them well-formed), smart
    acts and ticks."""
    lines = [x for x in data.split(b"\n") if x]
    for _ in range(rnd.randint(1, 4)):
        i = rnd.randrange(len(lines) + 1)
        op = rnd.randrange(5)
        if op == 3:
            line = bytes([TICK])
        elif op == 4:
            line = bytes([rnd.choice(SMART), rnd.randrange(256)])
        else:
            line = bytes([rnd.randrange(3)]) + json.dumps(_message(rnd)).encode()
        if op in (0, 3, 4) or not lines:
            lines.insert(i, line)
        elif op == 1:
            lines[min(i, len(lines) - 1)] = line
        else:
            del lines[min(i, len(lines) - 1)]
    return b"\n".join(lines[:MAX_LINES])


def _check_state(runner: TournamentRunner, store: SQLiteStore, before: Any) -> Any:
    """Check the state after a line; returns the stored state (restored again only when
    the line changed it: a restore replays the whole tournament)."""
    runner.t.check()
    doc = runner.state_doc()
    stored = store.load_tables().get("fuzz")
    assert stored is not None, "the tournament is not stored"
    assert stored == json.loads(json.dumps(doc)), "the stored state is not the state"
    if stored != before:
        again = TournamentRunner(config(), store, stored)
        assert again.state_doc() == doc, "the stored state does not restore to the same one"
    return stored


class _VirtualClockLoop(asyncio.SelectorEventLoop):
    """An event loop whose clock moves only at a tick (:data:`TICK_SECONDS`): the
    server's timers (the first deal's pause, hand for hand's second) fire when the
    session says, with no real waiting."""

    def __init__(self) -> None:
        super().__init__()
        self.now = 0.0

    def time(self) -> float:
        return self.now


#: how far a tick moves the clock
TICK_SECONDS = 2.0


async def _session(data: bytes, path: str) -> None:
    store = SQLiteStore(path)
    runner = TournamentRunner(config(), store, None)
    try:
        runner.start()
        conns = [_Conn(runner), _Conn(runner), _Conn(runner)]
        hello = [False, False, False]
        stored = None
        for line in data.split(b"\n")[:MAX_LINES]:
            if not line:
                continue
            what = line[0] % 8
            if what == TICK or what == 7:
                loop = asyncio.get_running_loop()
                assert isinstance(loop, _VirtualClockLoop)
                loop.now += TICK_SECONDS
                for _ in range(8):
                    await asyncio.sleep(0)
            else:
                who = what - 4 if what in SMART else what
                body = _smart_act(runner, conns[who], line[1:]) if what in SMART else line[1:]
                try:
                    hello[who] = handle(runner, conns[who], body, hello[who])
                except ProtocolError as e:
                    assert isinstance(e, TripleDrawError) and e.code, "an error without a code"
            stored = _check_state(runner, store, stored)
    finally:
        runner.stop()
        store.close()


def check(data: bytes) -> None:
    with tempfile.TemporaryDirectory() as d:
        loop = _VirtualClockLoop()
        try:
            loop.run_until_complete(_session(data, str(Path(d) / "fuzz.sqlite3")))
        finally:
            loop.close()


def sessions() -> list[bytes]:
    """The seed corpus: three people say hello and register (one twice, one with a name
    taken), the tournament starts with the bot, and they play by smart acts and ticks - to
    busts, re-entries and the end in the longer ones."""
    out = []
    for seed in range(10):
        rnd = random.Random(seed)
        lines = []
        for who, name in zip(range(3), ("Ann", "Bob", "Cy"), strict=True):
            lines.append(bytes([who]) + json.dumps({"v": 1, "type": "hello"}).encode())
            lines.append(
                bytes([who]) + json.dumps({"v": 1, "type": "register", "name": name}).encode()
            )
        if seed % 3 == 0:
            lines.append(b"\x01" + json.dumps({"v": 1, "type": "register", "name": "ann"}).encode())
        for _ in range(MAX_LINES - len(lines)):
            r = rnd.random()
            if r < 0.25:
                lines.append(bytes([TICK]))
            elif r < 0.9:
                lines.append(bytes([rnd.choice(SMART), rnd.randrange(256)]))
            else:
                msg = {"v": 1, "type": rnd.choice(("back", "ping", "register"))}
                lines.append(bytes([rnd.randrange(3)]) + json.dumps(msg).encode())
        out.append(b"\n".join(lines))
    return out


test_one_input = guarded(check, "tourney")

if __name__ == "__main__":
    fuzz_one(sys.modules[__name__], sys.argv)
