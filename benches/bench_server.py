"""Load on the table server: 120 WebSocket bot clients on 20 six-seat tables, on loopback.

The server runs as ``triple-draw serve`` in its own process (SQLite, every action
committed before its acknowledgement); the clients (:class:`BotClient`, heuristic bots)
run in this process. Reported: hands per second, the action latency from sending an
action to receiving its acknowledgement (p50, p99), the error frames (must be none), and
the chips of every table in the database (must be exactly what was bought in).

Run: ``TRIPLE_DRAW_BENCH_SECONDS=60 pytest benches/bench_server.py --benchmark-only -s``.
Collected as a smoke test (``--benchmark-disable``) it runs for a few seconds.
"""

from __future__ import annotations

import asyncio
import json
import os
import sqlite3
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import pytest


sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from server_util import ServerProcess

from triple_draw.server.botclient import BotClient
from triple_draw.server.tables import check_chips

TABLES = 20
SEATS = 6
BUY_IN = 400


def _seconds(benchmark: Any) -> float:
    env = os.environ.get("TRIPLE_DRAW_BENCH_SECONDS")
    if env:
        return float(env)
    return 3.0 if benchmark.disabled else 60.0


async def _play(url: str, seconds: float, tables: int = TABLES) -> tuple[list[BotClient], float]:
    clients = [
        # (names like "bot3-1" are refused: they pose as the table's bots)
        BotClient(url, f"t{t + 1}", f"p{t}-{s}", "heuristic", seed=t * 10 + s, seat=s)
        for t in range(tables)
        for s in range(SEATS)
    ]
    stop = asyncio.Event()
    tasks = [asyncio.create_task(c.run(stop)) for c in clients]
    t0 = time.perf_counter()
    await asyncio.sleep(seconds)
    stop.set()
    await asyncio.gather(*tasks)
    return clients, time.perf_counter() - t0


def _cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process (Linux; 0.0 elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _db_figures(db: Path) -> tuple[int, int]:
    con = sqlite3.connect(db)
    try:
        hands = con.execute("SELECT COUNT(*) FROM hands WHERE finished IS NOT NULL").fetchone()[0]
        total = 0
        for (state,) in con.execute("SELECT state FROM tables"):
            total += check_chips(json.loads(state))
        return hands, total
    finally:
        con.close()


@pytest.mark.parametrize("tables", [TABLES, 1], ids=["120-clients", "one-table"])
def test_server_load(benchmark: Any, tmp_path: Path, tables: int) -> None:
    """``tables`` six-seat tables full of WebSocket bots; the one-table run shows the
    latency of the protocol itself, with no other table waiting for the processor."""
    seconds = _seconds(benchmark)
    db = tmp_path / "load.sqlite3"
    server = ServerProcess(
        db,
        *("--tables", str(tables), "--seats", str(SEATS), "--bots", "0"),
        *("--hand-pause", "0", "--buy-in", str(BUY_IN), "--clock", "30", "--rate", "1000"),
        # every client is on 127.0.0.1: no per-address limit
        *("--max-seats-per-address", "0", "--max-connections-per-address", "0"),
    )
    result: dict[str, Any] = {}

    def run() -> None:
        cpu0, server0 = time.process_time(), _cpu_seconds(server.proc.pid)
        clients, elapsed = asyncio.run(_play(server.ws_url, seconds, tables))
        result["clients"] = clients
        result["elapsed"] = elapsed
        result["client_cpu"] = time.process_time() - cpu0
        result["server_cpu"] = _cpu_seconds(server.proc.pid) - server0

    try:
        benchmark.pedantic(run, rounds=1, iterations=1, warmup_rounds=0)
    finally:
        server.stop()
    clients: list[BotClient] = result["clients"]
    hands, chips = _db_figures(db)
    latencies = sorted(x for c in clients for x in c.stats.latencies)
    errors = [e for c in clients for e in c.stats.errors]
    assert errors == [], errors[:5]
    assert chips == tables * SEATS * BUY_IN  # no chip lost or made, over every table
    assert latencies  # actions were played (a 3 s smoke run may not finish a hand)
    assert hands > 0 or benchmark.disabled
    p50 = statistics.median(latencies) * 1000
    p99 = latencies[min(len(latencies) - 1, int(0.99 * len(latencies)))] * 1000
    rate = hands / result["elapsed"]
    figures = {
        "clients": len(clients),
        "tables": tables,
        "seconds": round(result["elapsed"], 1),
        "hands": hands,
        "hands_per_second": round(rate, 1),
        "actions": len(latencies),
        "actions_per_second": round(len(latencies) / result["elapsed"], 1),
        "latency_p50_ms": round(p50, 2),
        "latency_p99_ms": round(p99, 2),
        "errors": len(errors),
        "server_cpu_ms_per_action": round(1000 * result["server_cpu"] / len(latencies), 2),
        "client_cpu_ms_per_action": round(1000 * result["client_cpu"] / len(latencies), 2),
        "load_average": round(os.getloadavg()[0], 1),
    }
    benchmark.extra_info.update(figures)
    print("\nserver load:", json.dumps(figures))
