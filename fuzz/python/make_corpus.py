"""Write the seed corpus of the Python fuzz targets (``fuzz/python/corpus/``).

``python fuzz/python/make_corpus.py``: saved hands at every stage for ``from_dict``, card
texts for ``cards``, command lines for ``cli``, table and tournament server sessions, the
sites' records for ``histories``, saved tables and tournaments, and discard plays
(``phh``'s seeds are written by ``make_phh_corpus.py``). The files are committed; rerun
this only when the documents' format changes. It replaces the files it wrote before and
keeps the regression seeds (``regress_*``: inputs of fixed findings, committed by hand).
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

from triple_draw import Hand, Rules

CORPUS = Path(__file__).resolve().parent / "corpus"
HISTORIES = Path(__file__).resolve().parents[2] / "tests" / "data" / "histories"


def hands() -> dict[str, Hand]:
    out: dict[str, Hand] = {}
    out["fresh_3"] = Hand(Rules(), [100, 100, 100], seed=1)
    h = Hand(Rules(), [100, 100, 100, 100], button=2, seed=2)
    h.bet_or_raise()
    h.check_or_call()
    out["round1_raised"] = h
    h = Hand(Rules(), [60, 60, 60], seed=3)
    while not h.in_draw:
        h.check_or_call()
    h.discard(h.hole_ids(h.actor)[:2])
    out["declared_discards"] = h
    h = Hand(Rules.online(), [80, 80, 80, 80, 80, 80], seed=4)
    rnd = random.Random(4)
    while not h.is_over and h.street < 3:
        if h.in_draw:
            h.discard(h.hole_ids(h.actor)[: rnd.randint(3, 5)])
        else:
            h.check_or_call()
    out["online_heavy_draws"] = h
    h = Hand(Rules(ante=1), [5, 40, 3], seed=5)
    while not h.is_over:
        if h.in_draw:
            h.discard([])
        elif h.can_bet_or_raise():
            h.bet_or_raise()
        else:
            h.check_or_call()
    out["all_in_side_pots_over"] = h
    h = Hand(Rules(), [100, 100], button=1, seed=6)
    h.fold()
    out["heads_up_folded"] = h
    h = Hand(Rules(max_players=8), [50] * 8, seed=7)
    rnd = random.Random(7)
    for _ in range(30):
        if h.is_over:
            break
        h.apply(rnd.choice(h.legal_actions()))
    out["eight_players_mid"] = h
    h = Hand(Rules(), [100] * 5, button=0, seed=8, no_small_blind=True, posts={4: (2, 1)})
    h.check_or_call()
    out["table_posts"] = h
    return out


def fresh(target: str) -> Path:
    """The corpus folder of ``target``, emptied of what this script wrote there before
    (the regression seeds, ``regress_*``, stay)."""
    d = CORPUS / target
    d.mkdir(parents=True, exist_ok=True)
    for p in d.iterdir():
        if p.is_file() and not p.name.startswith("regress_"):
            p.unlink()
    return d


def main() -> None:
    d = fresh("from_dict")
    for name, h in hands().items():
        (d / f"{name}.json").write_text(json.dumps(h.to_dict(), separators=(",", ":")))
    d = fresh("cards")
    texts = ["7h5d4c3s2h", "7c 5d 4h 3s 2c", "As,Kd,Qh,Jc,9s", "10h 9h 8h 7h 6h",
             "TD 3S 2C 4H 5D", "??", "7h5d", "7h7h5d4c3s", "Xx", "Ac5d4h3s2c6c",
             "2c 3c 4c 5c 6c 7c", "\u00a07h"]  # fmt: skip
    for i, t in enumerate(texts):
        (d / f"text_{i:02d}").write_bytes(t.encode())
    d = fresh("cli")
    lines = [
        ["eval", "7c5d4h3s2c", "8c6d4h3s2c"],
        ["eval", "--json", "Ac5d4h3s2c"],
        ["equity", "7c5d4h3sKd", "8c6d5h4s2c", "--draws", "1", "--trials", "50"],
        ["equity", "7c5d4h3sKd", "?", "--seed", "3", "--strategy", "keep:8"],
        ["discard", "7c5d4h3sKd", "--draws", "2", "--target", "8", "--top", "3"],
        ["discard", "7c5d4h3sKd", "--opponent", "8c6d5h4s2c", "--trials", "40"],
        ["simulate", "--players", "3", "--hands", "5", "--seed", "1", "--json"],
        ["simulate", "--bots", "random*2,call", "--hands", "4", "--mode", "table"],
        ["simulate", "--rules", "online", "--hands", "3", "--stack", "10", "--small-bet", "4"],
        ["play", "--players", "2", "--seed", "1", "--hands", "1"],
        ["--version"],
        ["simulate", "--help"],
        ["nonsense", "--players", "x"],
    ]
    for i, argv in enumerate(lines):
        (d / f"argv_{i:02d}").write_bytes(b"\0".join(a.encode() for a in argv))
    d = fresh("server")
    for i, session in enumerate(server_sessions()):
        (d / f"session_{i:02d}").write_bytes(session)
    d = fresh("histories")
    for path in sorted(HISTORIES.rglob("*.txt")):
        (d / f"{path.parent.name}_{path.name}").write_bytes(path.read_bytes())
    for name, text in written_histories().items():
        (d / f"written_{name}.txt").write_bytes(text.encode())
    d = fresh("table")
    for i, doc in enumerate(table_documents()):
        (d / f"table_{i:02d}.json").write_text(json.dumps(doc, separators=(",", ":")))
    d = fresh("discard")
    for i in range(12):  # players, draw procedure, reshuffle, burns, ante, seed
        seed = bytes([i % 7, i % 2, i % 3, (i // 2) % 2, (i // 3) % 2, i, 7, 1])
        (d / f"hand_{i:02d}").write_bytes(seed)
    d = fresh("tourney")
    from fuzz_tourney import sessions

    for i, session in enumerate(sessions()):
        (d / f"session_{i:02d}").write_bytes(session)
    d = fresh("tournament")
    for i, doc in enumerate(tournament_documents()):
        (d / f"tournament_{i:02d}.json").write_text(json.dumps(doc, separators=(",", ":")))


def written_histories() -> dict[str, str]:
    """Each site's history, as ``histories.dumps`` writes it, of short-stacked hands (side
    pots, all-ins, uncalled bets) in money, in a tournament and with every card known."""
    from triple_draw import histories

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tests"))
    from conftest import play_randomly

    out = {}
    for i, site in enumerate(("pokerstars", "fulltilt", "winamax") * 2):
        rng = random.Random(i)
        hand = Hand(Rules(ante=i % 2), [3, 9, 40, 200][: 2 + i % 3], 0, i)
        play_randomly(hand, rng, fold_chance=0.1)
        money = {"winamax": "EUR"}.get(site, "USD")
        kwargs = [
            {"viewer": 0, "chip_unit": "0.05", "currency": money},
            {"viewer": 1, "tournament_id": 77},
            {"viewer": None},
        ][i % 3]
        out[f"{site}_{i}"] = histories.dumps(hand, site, **kwargs)  # type: ignore[arg-type]
    return out


def tournament_documents() -> list[dict]:
    """Tournaments' documents: registering, in play (mid-hand, between deals), a
    multi-table one with late entries, re-entries, absent players and hand-for-hand play,
    a heads-up one played to its end, and a preset's."""
    from fuzz_tournament import play_on

    from triple_draw import Level, Structure, Tournament
    from triple_draw.errors import IllegalActionError

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tests"))
    from conftest import tiny_structure  # the tests' structure for scripted tournaments

    def tiny(**fields: object) -> Structure:  # its levels, the first one six hands long
        levels = (Level(1, 2, 2, 4, 0, 6), Level(2, 4, 4, 8, 1, 1000))
        return tiny_structure(levels=levels, **fields)  # type: ignore[no-any-return]

    out = []
    t = Tournament(tiny(), seed=1)
    for p in ("ann", "bob", "cy"):
        t.register(p)
    out.append(t.to_dict())  # registering
    t.start()
    play_on(t, random.Random(1), 12)
    out.append(t.to_dict())  # a hand in progress
    play_on(t, random.Random(2), 200)
    out.append(t.to_dict())
    t = Tournament(tiny(late_registration=1, reentries=1, hand_for_hand=True), seed=3)
    for i in range(15):
        t.register(f"p{i}")
    t.start()
    rnd = random.Random(3)
    for step in range(400):
        if t.is_over:
            break
        play_on(t, rnd, 1)
        if t.registration_open and rnd.random() < 0.05:
            busted = [e.player for e in t.entries() if e.status == "busted"]
            try:
                t.register(rnd.choice(busted) if busted else f"late{step}")
            except IllegalActionError:
                pass
        if rnd.random() < 0.03:
            seated = [e.player for e in t.entries() if e.status in ("playing", "moving")]
            if seated:
                p = rnd.choice(seated)
                t.set_absent(p, not t.is_absent(p))
        if step in (60, 250):
            out.append(t.to_dict())
    t = Tournament(tiny(table_size=2), seed=4)
    t.register("hu1")
    t.register("hu2")
    t.start()
    while not t.is_over:
        play_on(t, random.Random(len(out)), 50)
    out.append(t.to_dict())  # over
    t = Tournament("sng6", seed=5)
    for i in range(6):
        t.register(f"s{i}")  # a sit & go: it starts when full
    play_on(t, random.Random(5), 40)
    out.append(t.to_dict())
    t = Tournament("sng2", seed=6)
    t.register("h1")
    t.register("h2")
    play_on(t, random.Random(6), 25)
    out.append(t.to_dict())
    t = Tournament(tiny(table_size=4), seed=7)  # two tables: players move to balance them
    for i in range(8):
        t.register(f"m{i}")
    t.start()
    play_on(t, random.Random(7), 120)
    out.append(t.to_dict())
    return out


def table_documents() -> list[dict]:
    """A table's documents through a session: between hands, in hands, with players
    coming in with a post, sitting out and rebuying, under both button rules."""
    from triple_draw import IllegalActionError
    from triple_draw.game import Table

    out = []
    for rule in ("dead", "moving"):
        rnd = random.Random(11)
        rules = Rules(ante=1 if rule == "moving" else 0)
        t = Table(rules, [40, 5, 60, None, 12, 60], seed=5, button_rule=rule)
        for k in range(14):
            for s in range(6):
                st = t.status(s)
                r = rnd.random()
                if st is None and r < 0.3:
                    t.sit(s, rnd.choice([3, 20, 60]), post=rnd.random() < 0.5)
                elif st == "sitting_out" and r < 0.4:
                    t.sit_in(s)
                elif st == "active" and r < 0.1:
                    t.sit_out(s)
            try:
                h = t.new_hand()
            except IllegalActionError:  # fewer than two players: the next round
                continue
            for _ in range(rnd.randint(0, 12)):
                if h.is_over:
                    break
                h.apply(rnd.choice(h.legal_actions()))
            if k % 2:
                out.append(t.to_dict())
            while not h.is_over:
                h.apply(rnd.choice(h.legal_actions()))
            if k % 3 == 0:
                out.append(t.to_dict())
    return out


def server_sessions() -> list[bytes]:
    """Sessions at the server's table: lines of a client byte (0-2; 3 lets the timers
    run) and a message."""

    def m(who: int, **msg: object) -> bytes:
        return bytes([who]) + json.dumps({"v": 1, **msg}).encode()

    tick = bytes([3])
    hello = [m(k, type="hello") for k in range(3)]
    two = [hello[0], m(0, type="join", name="Ann", seat=0), hello[1], m(1, type="join", name="Bob")]
    acts = [
        m(k, type="act", hand=h, seq=q, action={"kind": kind})
        for k in range(2)
        for h in (1, 2)
        for q in range(3)
        for kind in ("call", "check")
    ]
    return [
        b"\n".join([*two, tick]),
        b"\n".join(two + acts[:8] + [tick] + acts[8:16]),
        b"\n".join([*two, tick, hello[2], m(2, type="join", name="Cy"), tick, tick]),
        b"\n".join([*two, tick, m(1, type="sit_out"), tick, tick, m(1, type="sit_in"), tick]),
        b"\n".join([*two, tick, m(0, type="leave"), tick, hello[2], m(2, type="join", name="Di")]),
        b"\n".join(
            [*two, m(1, type="act", hand=1, seq=0, action={"kind": "discard", "cards": []})]
        ),
        b"\n".join([hello[0], hello[0], m(0, type="ping"), m(1, type="join", name="x")]),
        b"\n".join([*two, hello[2], m(2, type="hello", token="x" * 43), b"\x02{", tick]),
    ]


if __name__ == "__main__":
    main()
