"""Saving and restoring a tournament: the document (``Tournament.to_dict``, schema
``tournament.v1.json``) is trusted only through replay - every registration, deal and
action made again - and any document that does not replay to its own summary is refused
with a ``SchemaError``; structures as documents and files; refused calls change nothing."""

from __future__ import annotations

import copy
import json
import random

import pytest
from conftest import fold_around, tiny_structure, tournament_step

from triple_draw import Structure, Tournament, schema
from triple_draw.errors import ArgumentError, IllegalActionError, SchemaError
from triple_draw.tournament import TOURNAMENT_SCHEMA_VERSION


def _mtt_in_play(seed: int = 3, steps: int = 150) -> Tournament:
    t = Tournament(tiny_structure(late_registration=1, reentries=1, hand_for_hand=True), seed=seed)
    for i in range(15):
        t.register(f"p{i}")
    t.start()
    rng = random.Random(seed)
    for _ in range(steps):
        if t.is_over:
            break
        tournament_step(t, rng, late=0.05, absent=0.03)
    return t


def test_a_tournament_restored_mid_hand_equals_the_original() -> None:
    t = _mtt_in_play()
    assert any(h is not None and not h.is_over for h in map(t.hand, t.tables))
    doc = json.loads(json.dumps(t.to_dict()))
    assert doc["schema_version"] == TOURNAMENT_SCHEMA_VERSION == 1
    u = Tournament.from_dict(doc)
    assert u.to_dict() == doc
    assert u.events == t.events and u.standings() == t.standings()
    for x in t.tables:
        assert u.hand(x).to_dict() == t.hand(x).to_dict()  # the very same cards
        assert u.table(x).to_dict() == t.table(x).to_dict()


def test_documents_follow_the_published_schemas() -> None:
    t = _mtt_in_play(seed=5, steps=400)
    schema.validate(json.loads(json.dumps(t.to_dict())), "tournament")
    for name in ("sng6", "sng2", "mtt"):
        schema.validate(Structure.preset(name).to_dict(), "structure")
    done = Tournament("sng2", seed=1)
    done.register("a")
    done.register("b")
    while not done.is_over:
        h = done.deal(1)
        while not h.is_over:
            done.act(1, h.legal_actions()[-1 if not h.in_draw else 0])
    d = json.loads(json.dumps(done.to_dict()))
    schema.validate(d, "tournament")
    assert d["summary"]["status"] == "over"
    with pytest.raises(SchemaError, match="tournament document"):
        schema.validate({**d, "extra": 1}, "tournament")


def _tampered(doc: dict, change) -> dict:  # type: ignore[no-untyped-def]
    d = copy.deepcopy(doc)
    change(d)
    return d


def _first_bet(d: dict) -> None:
    for h in d["hands"]:
        for i, a in enumerate(h["actions"]):
            if a == "f":
                h["actions"][i] = "r"
                return


@pytest.mark.parametrize(
    ("change", "match"),
    [
        (lambda d: d.update(schema_version=2), "schema_version"),
        (lambda d: d.update(schema_version=10**5000), "got an int of 16610 bits"),
        (lambda d: d.update(extra=1), "holds exactly"),
        (lambda d: d.update(seed=str(int(d["seed"]) + 1)), "replay|summary"),
        (lambda d: d.update(seed="-5"), "decimal"),
        (lambda d: d["summary"]["entries"][0].__setitem__(2, 10**6), "summary"),
        (lambda d: d["summary"].__setitem__("status", "over"), "summary"),
        (lambda d: d["hands"][0]["actions"].append("f"), "after the end|refused|summary"),
        (lambda d: d["hands"][1]["actions"].__setitem__(0, "z"), "unknown action code"),
        (_first_bet, "refused|summary"),
        (lambda d: d["hands"].pop(), "no hand"),
        (lambda d: d["hands"].append({"table": 1, "actions": []}), "more hands"),
        (lambda d: d["log"].insert(0, ["deal", 1, None]), "deal while|dealt at table"),
        (lambda d: d["log"].append(["start", None]), "refused"),
        (lambda d: d["log"].append(["register", "p0", None]), "refused"),
        (lambda d: d["log"].append(["bogus", None]), "kind"),
        (lambda d: d["log"].append(["end", 99, None]), "table 99|no table"),
        (lambda d: d["structure"].update(starting_stack=0), "structure"),
        (lambda d: d["structure"]["levels"][0].update(big_bet=1), "structure"),
        (lambda d: d["log"][0].__setitem__(-1, "noon"), "time must be a number"),
    ],
)
def test_a_document_that_does_not_replay_is_refused(change, match) -> None:
    t = _mtt_in_play(seed=8, steps=120)
    doc = json.loads(json.dumps(t.to_dict()))
    with pytest.raises(SchemaError, match=match):
        Tournament.from_dict(_tampered(doc, change))
    with pytest.raises(SchemaError, match="must be a dict"):
        Tournament.from_dict([doc])


def test_record_false_keeps_no_log_and_levels_by_time_need_a_clock() -> None:
    t = Tournament("sng2", seed=1, record=False)
    with pytest.raises(IllegalActionError, match="record=False"):
        t.to_dict()
    timed = Structure.from_dict({**tiny_structure().to_dict(), "level_by": "time"})
    now = [0.0]
    u = Tournament(timed, seed=2, clock=lambda: now[0])
    u.register("a")
    u.register("b")
    u.start()
    fold_around(u, 1)
    doc = u.to_dict()
    with pytest.raises(ArgumentError, match="give from_dict a clock"):
        Tournament.from_dict(doc)
    assert Tournament.from_dict(doc, clock=lambda: now[0]).to_dict() == doc


def test_refused_calls_change_nothing() -> None:
    t = Tournament(tiny_structure(), seed=4)
    for i in range(8):
        t.register(f"p{i}")
    t.start()
    hand = t.deal(1)
    before = json.dumps(t.to_dict())
    with pytest.raises(IllegalActionError, match="in progress"):
        t.deal(1)
    with pytest.raises(IllegalActionError, match="registration is closed"):
        t.register("late")
    with pytest.raises(IllegalActionError, match="unregister only before"):
        t.unregister("p0")
    with pytest.raises(IllegalActionError, match="cannot check"):
        t.act(1, "check")
    with pytest.raises(IllegalActionError, match="out of turn"):
        t.act(1, "call", seat=(hand.actor + 1) % hand.n_players)
    with pytest.raises(IllegalActionError, match="unknown action kind"):
        t.act(1, "shove")
    with pytest.raises(ArgumentError, match="no table 7"):
        t.deal(7)
    with pytest.raises(IllegalActionError, match="cannot start again"):
        t.start()
    assert json.dumps(t.to_dict()) == before
    t.check()


def test_registration_rules_before_the_start() -> None:
    t = Tournament(tiny_structure(max_entries=3), seed=1)
    t.register("a")
    with pytest.raises(IllegalActionError, match="needs 2 to start"):
        t.start()
    with pytest.raises(IllegalActionError, match="already in"):
        t.register("a")
    t.register("b")
    t.unregister("a")
    assert [e.player for e in t.entries()] == ["b"]
    t.register("a")
    t.register("c")
    with pytest.raises(IllegalActionError, match="full"):
        t.register("d")
    with pytest.raises(ArgumentError, match="1\\.\\.64 characters"):
        t.register("")
    with pytest.raises(IllegalActionError, match="has not started"):
        t.deal(1)
    doc = t.to_dict()
    assert Tournament.from_dict(doc).to_dict() == doc
    t.start()
    assert t.status == "running"
    assert [e.player for e in t.entries()] == ["b", "a", "c"]


def test_bad_constructor_arguments() -> None:
    with pytest.raises(ArgumentError, match="seed"):
        Tournament("sng6", seed=-1)
    with pytest.raises(ArgumentError, match="clock"):
        Tournament("sng6", clock=5)  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match="preset"):
        Tournament("nope")
    with pytest.raises(ArgumentError, match="record"):
        Tournament("sng6", record=1)  # type: ignore[arg-type]


# -- structures as documents and files ------------------------------------------------------------


def test_structure_files_json_and_toml(tmp_path) -> None:
    st = Structure.preset("mtt")
    j = tmp_path / "mtt.json"
    j.write_text(json.dumps(st.to_dict()))
    assert Structure.load(j) == st == Structure.of(str(j))
    toml = tmp_path / "nightly.toml"
    toml.write_text(
        'name = "nightly"\nstarting_stack = 5000\nlevel_by = "time"\ntable_size = 6\n'
        "late_registration = 2\nreentries = 1\nbuy_in = 100\nfee = 10\n"
        "payouts = [{min_entries = 2, shares = [100]},\n"
        "           {min_entries = 7, shares = [50, 30, 20]}]\n"
        "breaks = [{after_level = 2, seconds = 600}]\n"
        "[rules]\nraise_cap = 4\n"
        "[[levels]]\nsmall_blind = 25\nbig_blind = 50\nsmall_bet = 50\nbig_bet = 100\n"
        "duration = 1200\n"
        "[[levels]]\nsmall_blind = 50\nbig_blind = 100\nsmall_bet = 100\nbig_bet = 200\n"
        "duration = 1200\n"
        "[[levels]]\nsmall_blind = 100\nbig_blind = 200\nsmall_bet = 200\nbig_bet = 400\n"
        "ante = 25\n"
    )
    s = Structure.load(toml)
    assert s.level_by == "time" and s.fee == 10 and s.levels[2].ante == 25
    assert s.level_rules(0).raise_cap == 4 and s.prizes(7) == (350, 210, 140)
    schema.validate(s.to_dict(), "structure")


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ('{"name": "x"}', "missing field 'starting_stack'"),
        ('{"name": "x", "starting_stack": 10, "levels": [], "bogus": 1}', "unknown fields"),
        ('{"name": "x", "starting_stack": 10, "levels": []}', "at least one level"),
        ('{"name": "x", "starting_stack": 10, "levels": [{"small_blind": 1}]}', "levels\\[0\\]"),
        (
            '{"name": "x", "starting_stack": 10, "levels": [{"small_blind": 1, "big_blind": 2, '
            '"small_bet": 2, "big_bet": 4, "speed": 3}]}',
            "unknown fields",
        ),
        (
            '{"name": "x", "starting_stack": 10, "schema_version": 9, "levels": []}',
            "schema_version",
        ),
        ("[1, 2]", "JSON object"),
        ("{not json", "structure file"),
    ],
)
def test_bad_structure_files_name_the_problem(tmp_path, text, match) -> None:
    f = tmp_path / "s.json"
    f.write_text(text)
    with pytest.raises(SchemaError, match=match):
        Structure.load(f)


@pytest.mark.parametrize("suffix", [".json", ".toml"])
def test_a_structure_file_nested_too_deeply_is_refused(tmp_path, suffix: str) -> None:
    # far below the file size limit, far past what either parser's recursion allows
    deep = "[" * 20_000 + "]" * 20_000
    f = tmp_path / f"s{suffix}"
    f.write_text('{"levels": ' + deep + "}" if suffix == ".json" else "levels = " + deep + "\n")
    with pytest.raises(SchemaError, match="nested too deeply"):
        Structure.load(f)


def test_missing_structure_file() -> None:
    with pytest.raises(ArgumentError, match="cannot read"):
        Structure.load("/nonexistent/s.toml")


def test_restored_tournament_plays_on_to_the_end() -> None:
    t = Tournament(tiny_structure(), seed=9)
    for i in range(7):
        t.register(f"p{i}")
    t.start()
    rng = random.Random(2)
    for _ in range(40):
        tournament_step(t, rng, late=0, absent=0)
    u = Tournament.from_dict(json.loads(json.dumps(t.to_dict())))
    while not u.is_over:
        tournament_step(u, rng, late=0, absent=0)
        u.check()
    assert sorted(e.place for e in u.entries()) == list(range(1, 8))
