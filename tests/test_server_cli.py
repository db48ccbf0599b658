"""``triple-draw serve`` options and errors, the storage's guarantees, and the checks the
other server tests rely on (the leak detector must catch a leak)."""

from __future__ import annotations

import asyncio
import socket
import threading
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from server_util import ServerProcess, hidden_leaks

from triple_draw.cli import main
from triple_draw.server import cli as serve_cli
from triple_draw.server.store import DuplicateActionError, SQLiteStore, StoreError
from triple_draw.server.tables import check_chips


def test_serve_help_names_the_extra(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--help"]) == 0
    out = " ".join(capsys.readouterr().out.split())  # argparse wraps lines
    assert "pip install 'triple_draw[server]'" in out and "--clock" in out


def test_serve_without_the_extra_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(serve_cli, "REQUIRED", ("starlette", "no_such_module_for_this_test"))
    assert main(["serve"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "no_such_module_for_this_test" in err and "pip install 'triple_draw[server]'" in err


@pytest.mark.parametrize(
    ("argv", "why"),
    [
        (["--seats", "9"], "--seats must be 2..8"),
        (["--bots", "6", "--seats", "6"], "leaves no seat"),
        (["--bot", "genius"], "unknown bot"),
        (["--buy-in", "1"], "less than the big blind"),
        (["--tables", "0"], "at least 1"),
        (["--port", "999999"], "a port is 0..65535"),
        (["--port", "http"], "expected a port number"),
        (["--min-buy-in", "0"], "--min-buy-in must be 1..200"),
        (["--buy-in", "100", "--min-buy-in", "101"], "--min-buy-in must be 1..100"),
        (["--accounts", "--session-days", "0"], "--session-days must be > 0"),
        (["--accounts", "--login-rate", "-1"], "must be >= 0"),
    ],
)
def test_serve_refuses_bad_options_in_one_line(
    argv: list[str], why: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["serve", "--db", str(tmp_path / "x.sqlite3"), *argv]) == 2
    err = capsys.readouterr().err
    assert why in err and err.count("\n") == 1 and "Traceback" not in err


def test_serve_port_in_use_is_an_error_not_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        assert main(["serve", "--port", str(port), "--db", str(tmp_path / "x.sqlite3")]) == 2
    assert "cannot listen" in capsys.readouterr().err


def test_store_refuses_the_same_action_number_twice(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "s.sqlite3")
    state = {"version": 1}
    hid = store.begin_hand("t1", [("k", 0, 0, "Ann"), ("j", 1, 1, "Bob")], lambda h: {"hand": h})
    store.record_action("t1", hid, 0, 0, {"kind": "call"}, state)
    with pytest.raises(DuplicateActionError):
        store.record_action("t1", hid, 0, 1, {"kind": "fold"}, {"version": 2})
    # nothing of the refused write is kept
    assert store.load_tables()["t1"] == state
    assert store.actions_since(hid, 0) == [(0, 0, {"kind": "call"})]
    store.close()


def test_store_on_an_unusable_path_is_a_store_error(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="cannot open the database"):
        SQLiteStore(tmp_path / "no" / "such" / "dir" / "x.sqlite3")


def test_chip_check_catches_a_lost_chip() -> None:
    seat = {"name": "a", "key": "", "pending": 0, "bot": False, "sitting_out": False}
    at_table = {"stack": 100, "status": "active", "owes": None, "post": False}
    state = {
        "seats": [seat, dict(seat, pending=20)],  # the second one joined during a hand
        "table": {"seats": [at_table, dict(at_table, stack=80)]},
        "chips_in": 200,
        "chips_out": 0,
        "hand": None,
    }
    assert check_chips(state) == 200
    state["chips_in"] = 201
    with pytest.raises(StoreError, match="table holds 200 chips"):
        check_chips(state)


def test_leak_detector_catches_another_seats_card() -> None:
    hand = {
        "id": 1, "seq": 0, "phase": "bet", "street": 0, "actor": 0, "button": 0,
        "small_blind_seat": 0, "big_blind_seat": 1, "pot": 3, "bet_level": 2,
        "hole_cards": ["7h", "5d", "4c", "3s", "2h"], "players": [], "legal_actions": [],
        "result": None,
    }  # fmt: skip
    frame = {"type": "state", "hand": hand, "events": []}
    own = {"7h", "5d", "4c", "3s", "2h"}
    assert hidden_leaks(frame, own) == []
    assert hidden_leaks(frame, own - {"2h"}) == ["2h", "2h"]
    frame["events"] = [{"kind": "discard", "seat": 1, "cards": ["Kd"]}]
    assert "Kd" in hidden_leaks(frame, own)
    frame["events"] = [{"kind": "show", "seat": 1, "cards": ["8d"]}]  # shown before the end
    assert "8d" in hidden_leaks(frame, own)
    hand["phase"] = "over"
    assert hidden_leaks(frame, own) == []
    hand["deck"] = {"key": "00"}
    assert "deck" in hidden_leaks(frame, own)


def test_tokens_never_reach_the_server_log(tmp_path: Path) -> None:
    """Seat tokens travel in frames and in the history download's header; the server's
    output - at debug level - never holds one."""
    from triple_draw.server.botclient import BotClient

    args = ("--tables", "1", "--seats", "2", "--bots", "0", "--hand-pause", "0")
    server = ServerProcess(tmp_path / "t.sqlite3", *args, "--log-level", "debug")
    out: list[str] = []
    assert server.proc.stdout is not None
    reader = threading.Thread(target=lambda: out.append(server.proc.stdout.read()))  # type: ignore[union-attr]
    reader.start()

    async def play() -> list[BotClient]:
        clients = [BotClient(server.ws_url, "t1", f"p{i}", seat=i) for i in range(2)]
        stop = asyncio.Event()
        tasks = [asyncio.create_task(c.run(stop)) for c in clients]
        for _ in range(100):
            await asyncio.sleep(0.05)
            if all(c.stats.actions for c in clients):
                break
        await asyncio.sleep(0.5)
        stop.set()
        await asyncio.gather(*tasks)
        return clients

    try:
        clients = asyncio.run(play())
        tokens = [c.token for c in clients]
        assert all(tokens)
        req = urllib.request.Request(
            server.url + "/api/history", headers={"Authorization": f"Bearer {tokens[0]}"}
        )
        try:
            urllib.request.urlopen(req, timeout=10).close()
        except urllib.error.HTTPError as e:  # 404 if no hand finished yet: still a request
            assert e.code == 404
    finally:
        server.stop()
        reader.join(10)
    log = out[0]
    assert "WebSocket /ws/t1" in log and "/api/history" in log  # it did log at debug level
    for token in tokens:
        assert token not in log  # type: ignore[operator]


CLIENT_MESSAGES = [
    {"v": 1, "type": "hello"},
    {"v": 1, "type": "hello", "token": "a" * 43},
    {"v": 1, "type": "hello", "token": "short"},
    {"v": 1, "type": "hello", "token": "a" * 43, "x": 1},
    {"v": 1, "type": "join", "name": "Ann"},
    {"v": 1, "type": "join", "name": "Ann", "seat": 3},
    {"v": 1, "type": "join", "name": "Ann", "seat": 8},
    {"v": 1, "type": "join", "name": ""},
    {"v": 1, "type": "join", "name": "x" * 25},
    {"v": 1, "type": "join", "name": "a<b"},
    {"v": 1, "type": "join", "name": "tab\there"},
    {"v": 1, "type": "join"},
    {"v": 1, "type": "act", "hand": 1, "seq": 0, "action": {"kind": "fold"}},
    {"v": 1, "type": "act", "hand": 1, "seq": 0, "action": {"kind": "call", "amount": 4}},
    {"v": 1, "type": "act", "hand": 1, "seq": 0, "action": {"kind": "call", "amount": -1}},
    {"v": 1, "type": "act", "hand": 0, "seq": 0, "action": {"kind": "fold"}},
    {"v": 1, "type": "act", "hand": 1, "seq": -1, "action": {"kind": "fold"}},
    {"v": 1, "type": "act", "hand": "1", "seq": 0, "action": {"kind": "fold"}},
    {"v": 1, "type": "act", "hand": 1, "seq": 0, "action": {"kind": "shove"}},
    {"v": 1, "type": "act", "hand": 1, "seq": 0, "action": {"kind": "discard", "cards": []}},
    {
        "v": 1,
        "type": "act",
        "hand": 1,
        "seq": 0,
        "action": {"kind": "discard", "cards": ["Kd", "2c"]},
    },
    {
        "v": 1,
        "type": "act",
        "hand": 1,
        "seq": 0,
        "action": {"kind": "discard", "cards": ["Kd", "Kd"]},
    },
    {"v": 1, "type": "act", "hand": 1, "seq": 0, "action": {"kind": "discard", "cards": ["1x"]}},
    {
        "v": 1,
        "type": "act",
        "hand": 1,
        "seq": 0,
        "action": {"kind": "discard", "cards": ["2c"] * 6},
    },
    {"v": 1, "type": "act", "hand": 1, "seq": 0, "action": {"kind": "fold", "why": "x"}},
    {"v": 1, "type": "act", "hand": 1, "seq": 0},
    {"v": 1, "type": "ping"},
    {"v": 1, "type": "ping", "pad": 1},
    {"v": 1, "type": "sit_out"},
    {"v": 1, "type": "leave", "now": True},
    {"v": 1, "type": "dance"},
    {"v": 1},
]


@pytest.mark.parametrize("doc", CLIENT_MESSAGES, ids=range(len(CLIENT_MESSAGES)))
def test_fast_validator_agrees_with_the_reference_validator(doc: dict[str, object]) -> None:
    """The server validates with fastjsonschema (compiled); jsonschema, the reference
    implementation, must reach the same verdict on the published schema."""
    import jsonschema

    from triple_draw.server.protocol import ProtocolError, load_schema, validate_client

    reference = jsonschema.Draft202012Validator(load_schema("client")).is_valid(doc)
    try:
        validate_client(doc)
        fast = True
    except ProtocolError:
        fast = False
    assert fast == reference
