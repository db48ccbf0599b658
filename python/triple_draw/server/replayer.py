"""The hand replayer: a page that steps through a record action by action (next,
previous, play, jump to a street), showing what the viewer saw - the table, the cards,
the pot, the draws - with the review's verdict on each draw of the viewer.

The records are read here, never in the browser: a site hand history (PokerStars, Full
Tilt Poker, Winamax) or PHH text is replayed by :mod:`triple_draw.histories` /
:mod:`triple_draw.phh` and sent to the page as *frames*, one per event of the hand, each
the whole table after that event. Routes (:func:`replayer_routes`, mounted by
``triple-draw serve`` and by ``triple-draw replay FILE``):

- ``GET /replay``: the page (``static/replayer.html`` and ``replayer.js``);
- ``POST /api/replay``: the body is a record's text (at most :data:`MAX_UPLOAD` bytes, at
  most :data:`MAX_HANDS` hands); the answer its hands as frames, or 400 with the reason.
  Replaying and reviewing 500 hands takes seconds of CPU: it runs in a worker thread, one
  record at a time (:data:`MAX_WAITING` more wait their turn, beyond that 503), so the
  event loop - the tables - goes on; ``triple-draw serve`` also limits the uploads of
  each client address (``--replay-rate``: 429 with ``Retry-After`` beyond it);
- ``GET /api/replay/file``: the file ``triple-draw replay`` was started with (404 without).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from importlib import resources
from pathlib import Path
from typing import Any

from triple_draw.errors import TripleDrawError

__all__ = ["MAX_HANDS", "MAX_UPLOAD", "frames", "replay_document", "replayer_routes"]

#: The largest record text the page may send.
MAX_UPLOAD = 4 * 1024 * 1024
#: The most hands one document replays (the first ones of the text).
MAX_HANDS = 500
#: Records waiting for the one being replayed (more: 503, the replayer is busy).
MAX_WAITING = 4

STATIC_DIR = Path(str(resources.files("triple_draw.server").joinpath("static")))

_STREETS = ("Deal", "Draw 1", "Draw 2", "Draw 3")


def _seen_seat(hand: Any) -> int | None:
    """The seat whose dealt cards the record shows, when exactly one does."""
    known = [e.seat for e in hand.history if e.kind == "deal" and e.cards and "??" not in e.cards]
    return known[0] if len(known) == 1 else None


def frames(
    hand: Any, names: list[str], verdicts: dict[int, dict[str, Any]] | None = None
) -> list[dict[str, Any]]:
    """The table after each event of ``hand`` as the record shows it: ``text`` (the
    event), ``street``, ``pot`` (every chip in the middle), and per seat its name,
    position, stack, round bet, cards (``??`` unknown), draws so far, folded. A discard of
    draw ``k`` carries ``verdicts[k]`` when given."""
    from triple_draw.review import _position

    n = hand.n_players
    stacks = list(hand.starting_stacks)
    bets = [0] * n
    pot = 0
    cards: list[list[str]] = [[] for _ in range(n)]
    draws: list[list[int]] = [[] for _ in range(n)]
    folded = [False] * n
    positions = [_position(hand, s) for s in range(n)]
    street = _STREETS[0]
    draw_no = 0
    out: list[dict[str, Any]] = []
    for e in hand.history:
        k, s = e.kind, e.seat
        who = names[s] if s is not None else ""
        if k in ("show", "muck", "rake", "win"):  # the betting is over: all in the pot
            bets = [0] * n
        verdict = None
        if k in ("post_small_blind", "post_big_blind", "call", "bet", "raise"):
            delta = e.amount - bets[s]
            stacks[s] -= delta
            pot += delta
            bets[s] = e.amount
            text = {
                "post_small_blind": f"{who} posts the small blind {e.amount}",
                "post_big_blind": f"{who} posts the big blind {e.amount}",
                "call": f"{who} calls {delta}",
                "bet": f"{who} bets {e.amount}",
                "raise": f"{who} raises to {e.amount}",
            }[k]
        elif k == "post_ante":
            stacks[s] -= e.amount
            pot += e.amount
            text = f"{who} posts an ante of {e.amount}"
        elif k == "deal":
            cards[s] = list(e.cards)
            text = f"{who} is dealt {' '.join(e.cards)}"
        elif k == "begin_round":  # (the bets of a round end at the draw after it)
            text = "Betting before the first draw" if e.amount == 0 else f"Betting, {street}"
        elif k == "begin_draw":
            bets = [0] * n
            draw_no = e.amount + 1
            street = _STREETS[draw_no]
            text = f"*** {street} ***"
        elif k == "fold":
            folded[s] = True
            cards[s] = []
            text = f"{who} folds"
        elif k == "check":
            text = f"{who} checks"
        elif k == "discard":
            thrown = list(e.cards)
            draws[s].append(len(thrown))
            for c in thrown:
                cards[s].remove(c)
            text = (
                f"{who} stands pat"
                if not thrown
                else f"{who} throws {' '.join(thrown)}"
                if "??" not in thrown
                else f"{who} draws {len(thrown)}"
            )
            if verdicts and draw_no in verdicts and s == verdicts[draw_no]["seat"]:
                verdict = verdicts[draw_no]
        elif k == "draw":
            cards[s] += list(e.cards)
            text = f"{who} receives {' '.join(e.cards)}"
        elif k == "return":
            stacks[s] += e.amount
            pot -= e.amount
            bets[s] -= e.amount
            text = f"{e.amount} returned to {who} (uncalled)"
        elif k == "show":
            cards[s] = list(e.cards)
            street = "Showdown"
            text = f"{who} shows {' '.join(e.cards)}"
        elif k == "muck":
            street = "Showdown"
            text = f"{who} mucks"
        elif k == "rake":
            pot -= e.amount
            text = f"rake {e.amount}"
        elif k == "win":
            stacks[s] += e.amount
            pot -= e.amount
            text = f"{who} wins {e.amount}"
        else:  # burn, reshuffle: the table does not change
            text = k
        out.append(
            {
                "text": text,
                "kind": k,
                "street": street,
                "pot": pot,
                "verdict": verdict,
                "seats": [
                    {
                        "name": names[i],
                        "position": positions[i],
                        "stack": stacks[i],
                        "bet": bets[i],
                        "cards": list(cards[i]),
                        "draws": list(draws[i]),
                        "folded": folded[i],
                    }
                    for i in range(n)
                ],
            }
        )
    return out


def replay_document(source: str | bytes) -> dict[str, Any]:
    """Every hand of a record's ``text`` (site hand history or PHH) as the page shows it:
    ``{"hands": [{"id", "site", "players", "viewer", "frames", "result"}], "refused": n}``.
    Raises :class:`~triple_draw.errors.TripleDrawError` naming the problem when the text
    holds no hand that can be replayed."""
    from triple_draw.histories._text import read_source
    from triple_draw.review import _Record, phh_records, review_hands

    text = source if isinstance(source, str) else read_source(source)[0]
    records: list[Any] = []
    refused = 0
    stripped = text.lstrip("\ufeff \t\r\n")
    if stripped.startswith(("[", "variant", "#")) or "variant =" in text[:2000]:
        records = phh_records(text)
    else:
        from triple_draw import histories

        # as bytes: a str that does not look like a record would be taken for a path
        for item in histories.iter_load(text.encode("utf-8")):
            if isinstance(item, histories.SiteHand):
                records.append(_Record(item.site, item.hand_id, item.players, item.hand))
            elif isinstance(item, histories.Refused):
                refused += 1
            if len(records) >= MAX_HANDS:
                break
    if not records:
        raise TripleDrawError(f"no hand could be replayed ({refused} refused)")
    hands = []
    for rec in records[:MAX_HANDS]:
        hand = rec.hand
        viewer = _seen_seat(hand)
        verdicts: dict[int, dict[str, Any]] = {}
        if viewer is not None:
            try:
                r = review_hands([rec], rec.players[viewer], reference=False, trials=1000)
            except TripleDrawError:
                r = None
            for d in r.decisions if r is not None else []:
                verdicts[d.draw] = {"seat": viewer, **d.to_dict()}
        hands.append(
            {
                "id": rec.hand_id,
                "site": rec.site,
                "players": list(rec.players),
                "viewer": viewer,
                "frames": frames(hand, list(rec.players), verdicts),
                "result": {"stacks": list(hand.stacks), "net": list(hand.result.net)},
            }
        )
    return {"hands": hands, "refused": refused}


def _replay_json(source: bytes) -> bytes:
    """:func:`replay_document` as the JSON the page gets (tens of MB for 500 hands:
    encoded in the worker thread too, not in the event loop)."""
    doc = replay_document(source)
    return json.dumps(doc, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode()


def replayer_routes(
    file: str | Path | None = None, *, limit: Callable[[str], float] | None = None
) -> list[Any]:
    """The replayer's routes (see the module's text); ``file``: the record that
    ``GET /api/replay/file`` serves. ``limit``: called with the client's address before
    an upload is read; it returns 0 to let it in, else the seconds until it may come
    (the upload is refused with 429)."""
    from starlette.requests import Request
    from starlette.responses import FileResponse, JSONResponse, Response
    from starlette.routing import Route

    # one record replayed at a time, in a thread of its own: a client that goes away
    # does not free the turn before its record is done
    worker: list[ThreadPoolExecutor] = []
    pending = 0  # records submitted and not done (changed in the event loop only)

    async def page(request: Request) -> Response:
        return FileResponse(STATIC_DIR / "replayer.html", media_type="text/html")

    async def _answer(source: bytes) -> Response:
        nonlocal pending
        if pending > MAX_WAITING:
            return JSONResponse(
                {"error": "the replayer is busy with other records: try again in a few seconds"},
                status_code=503,
                headers={"retry-after": "5"},
            )
        if not worker:
            worker.append(ThreadPoolExecutor(1, thread_name_prefix="triple-draw-replay"))
        loop = asyncio.get_running_loop()

        def done() -> None:
            nonlocal pending
            pending -= 1

        pending += 1
        job = worker[0].submit(_replay_json, source)
        job.add_done_callback(lambda _: loop.call_soon_threadsafe(done))
        try:
            body = await asyncio.wrap_future(job)
        except TripleDrawError as e:
            why = " ".join(str(e).split()).replace("<bytes>", "the record")
            return JSONResponse({"error": why[:500]}, status_code=400)
        return Response(body, media_type="application/json")

    async def upload(request: Request) -> Response:
        if limit is not None:
            client = request.client
            wait = limit(str(client.host) if client is not None else "")
            if wait:
                return JSONResponse(
                    {
                        "error": f"too many records replayed from your address: retry in "
                        f"{max(1, round(wait))} s"
                    },
                    status_code=429,
                    headers={"retry-after": str(max(1, round(wait)))},
                )
        body = bytearray()
        async for chunk in request.stream():
            body += chunk
            if len(body) > MAX_UPLOAD:
                return JSONResponse(
                    {"error": f"a record of at most {MAX_UPLOAD} bytes"}, status_code=413
                )
        return await _answer(bytes(body))

    async def from_file(request: Request) -> Response:
        if file is None:
            return JSONResponse({"error": "no file: upload a record"}, status_code=404)
        return await _answer(Path(file).read_bytes())

    return [
        Route("/replay", page),
        Route("/api/replay", upload, methods=["POST"]),
        Route("/api/replay/file", from_file),
    ]


def create_replay_app(file: str | Path, allowed_hosts: Sequence[str] = ()) -> Any:
    """The app of ``triple-draw replay FILE``: the replayer with that file, and its
    static files, behind the table server's Host check and security headers
    (``allowed_hosts``: host names it answers to besides ``localhost`` and IP addresses,
    which it always does)."""
    from starlette.applications import Starlette
    from starlette.responses import RedirectResponse
    from starlette.routing import Mount, Route
    from starlette.staticfiles import StaticFiles

    from triple_draw.server.app import _SecurityHeaders

    async def root(request: Any) -> Any:
        return RedirectResponse("/replay?source=file")

    app = Starlette(
        routes=[
            Route("/", root),
            *replayer_routes(file),
            Mount("/static", StaticFiles(directory=STATIC_DIR), name="static"),
        ]
    )
    app.add_middleware(
        _SecurityHeaders, allowed_hosts={h.lower().rstrip(".") for h in allowed_hosts}
    )
    return app
