"""The versioned JSON Schemas of Hand.to_dict() and Hand.view(): the files are valid
JSON Schema, real states (random hands, mid-hand and finished) follow them, and documents
of another version or with missing or extra fields are refused with a clear SchemaError."""

from __future__ import annotations

import copy
import json
import random

import pytest

from triple_draw import schema
from triple_draw.errors import SchemaError
from triple_draw.game import Hand, Rules
from conftest import random_action

jsonschema = pytest.importorskip("jsonschema")

RULE_SETS = [
    Rules(max_players=8),
    Rules.online(max_players=8, ante=1),
    Rules(muck_beaten_hands=True, raise_cap=4, max_players=8, heads_up_uncapped="action"),
    Rules.online(5, heads_up_uncapped=True, short_all_in="full-raise", max_players=8),
]


def states(count: int, every: float = 0.25):
    """(hand, to_dict document, view documents) at random points of random hands, short
    stacks included (all-ins, side pots), and at the end of each."""
    for seed in range(count):
        rng = random.Random(seed)
        n = 2 + seed % 7
        rules = RULE_SETS[seed % len(RULE_SETS)]
        stacks = [rng.choice([3, 11, 40, 300]) for _ in range(n)]
        h = Hand(rules, stacks, button=rng.randrange(n), seed=seed)
        while True:
            if h.actor is None or rng.random() < every:
                yield h
            if h.actor is None:
                break
            h.apply(random_action(h, rng, weight=4))


def test_schema_files_are_valid_draft_2020_12() -> None:
    for name in schema.SCHEMAS:
        doc = schema.load_schema(name)
        jsonschema.Draft202012Validator.check_schema(doc)
        assert doc["$schema"] == "https://json-schema.org/draft/2020-12/schema"
        assert schema.SCHEMAS[name] in doc["$id"]


def test_schema_files_ship_in_the_package() -> None:
    assert schema.SCHEMAS == {
        "hand_state": "hand_state.v1.json",
        "view": "view.v2.json",
        "import": "import.v1.json",
        "review": "review.v1.json",
        "tournament": "tournament.v1.json",
        "structure": "structure.v1.json",
    }
    assert json.loads(schema.schema_text("view"))["properties"]["schema_version"] == {"const": 2}
    # the earlier view schema still ships: validate_view accepts version 1 documents
    v1 = json.loads(schema.schema_text("view.v1.json"))
    assert v1["properties"]["schema_version"] == {"const": 1}
    jsonschema.Draft202012Validator.check_schema(v1)
    assert json.loads(schema.schema_text("hand_state"))["properties"]["schema_version"] == {
        "const": 1
    }
    assert schema.HAND_STATE_VERSION == 1
    with pytest.raises(ValueError, match="no schema"):
        schema.load_schema("nothing")


def test_real_states_and_views_follow_the_schemas() -> None:
    hand_v = jsonschema.Draft202012Validator(schema.load_schema("hand_state"))
    view_v = jsonschema.Draft202012Validator(schema.load_schema("view"))
    checked = 0
    for i, h in enumerate(states(100)):
        doc = h.to_dict()
        schema.validate_hand_state(doc)
        views = [h.view(s) for s in range(h.n_players)]
        for v in views:
            schema.validate_view(v)
        if i % 10 == 0:  # the reference validator on a sample (it is slower)
            hand_v.validate(json.loads(json.dumps(doc)))
            for v in views:
                view_v.validate(json.loads(json.dumps(v)))
        checked += 1
    assert checked > 300


def test_to_dict_documents_load_back() -> None:
    for h in states(40, every=0.2):
        doc = h.to_dict()
        h2 = Hand.from_dict(json.loads(json.dumps(doc)))
        assert h2.to_dict() == doc


def sample_doc() -> dict:
    h = Hand(Rules(), [100, 100, 100], seed=1)
    h.check_or_call()
    return h.to_dict()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.pop("schema_version"), r"missing field 'schema_version'"),
        (
            lambda d: d.update(schema_version=2),
            r"schema_version 2; this version of triple_draw reads schema version 1",
        ),
        (lambda d: d.update(schema_version="1"), r"schema_version '1'"),
        (lambda d: d.update(schema_version=True), r"schema_version True"),
        (lambda d: d.pop("stacks"), r"\$: missing field 'stacks'"),
        (lambda d: d.update(colour="red"), r"\$: unknown field 'colour'"),
        (lambda d: d["betting"].pop("unit"), r"\$\.betting: missing field 'unit'"),
        (lambda d: d["betting"].update(extra=1), r"\$\.betting: unknown field 'extra'"),
        (lambda d: d["rules"].update(raise_cap="3"), r"\$\.rules\.raise_cap: expected integer"),
        (lambda d: d["rules"].update(reshuffle="random"), r"\$\.rules\.reshuffle: must be one of"),
        (
            lambda d: d["hands"][0].__setitem__(0, "1x"),
            r"\$\.hands\[0\]\[0\]: \"1x\" does not match",
        ),
        (lambda d: d.update(stacks=[100, -1, 100]), r"\$\.stacks\[1\]: must be >= 0"),
        (lambda d: d.update(actor=9), r"\$\.actor: must be <= 7"),
        (
            lambda d: d.update(phase="river"),
            r"\$\.phase: must be one of \"bet\", \"draw\", \"over\"",
        ),
        (
            lambda d: d["history"].append({"kind": "dance"}),
            r"\$\.history\[\d+\]\.kind: must be one of",
        ),
        (lambda d: d["deck"].update(key="xyz"), r"\$\.deck\.key"),
        (lambda d: d.update(folded=[0, 1, 0]), r"\$\.folded\[[02]\]: expected boolean, got 0"),
    ],
)
def test_bad_documents_are_refused_with_the_path_and_reason(change, message: str) -> None:
    doc = sample_doc()
    change(doc)
    with pytest.raises(SchemaError, match=message):
        schema.validate_hand_state(doc)
    # the reference validator agrees the document is invalid
    if "schema_version" in doc and doc["schema_version"] == 1:
        assert not jsonschema.Draft202012Validator(schema.load_schema("hand_state")).is_valid(doc)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(schema_version=2), r"schema_version"),
        (lambda d: d.pop("schema_version"), r"schema_version"),
        (lambda d: d.pop("history"), r"history"),
        (lambda d: d.update(colour="red"), r"colour"),
        (lambda d: d["betting"].update(extra=1), r"\$\.betting: unknown field 'extra'"),
        (lambda d: d["rules"].pop("ante"), r"\$\.rules: missing field 'ante'"),
        (lambda d: d["deck"].update(stub="12"), r"\$\.deck: .*\"stub\" must be a list"),
    ],
)
def test_from_dict_refuses_other_versions_missing_and_extra_fields(change, message: str) -> None:
    doc = sample_doc()
    change(doc)
    with pytest.raises(SchemaError, match=message):
        Hand.from_dict(doc)


def test_not_a_document() -> None:
    with pytest.raises(SchemaError, match="must be a JSON object"):
        schema.validate_hand_state([1, 2])
    with pytest.raises(SchemaError, match="a view document must be a JSON object"):
        schema.validate_view("view")


def test_views_carry_their_schema_version() -> None:
    view = Hand(Rules(), [100, 100, 100], seed=3).view(0)
    assert view["schema_version"] == schema.VIEW_VERSION == 2
    schema.validate_view(view)
    for bad, message in ((3, "schema_version 3"), (None, "schema_version None")):
        doc = dict(view, schema_version=bad)
        with pytest.raises(SchemaError, match=message):
            schema.validate_view(doc)
    doc = dict(view)
    del doc["schema_version"]
    with pytest.raises(SchemaError, match="missing field 'schema_version'"):
        schema.validate_view(doc)


def test_a_version_1_view_is_still_accepted() -> None:
    """Views stored by an earlier version (schema 1: no own discards) still validate,
    against the version 1 schema; a version 1 document with version 2 fields does not."""
    view = Hand(Rules(), [100, 100, 100], seed=3).view(0)
    old = {k: v for k, v in view.items() if k != "own_draws"}
    old["schema_version"] = 1
    schema.validate_view(old)
    with pytest.raises(SchemaError, match="unknown field 'own_draws'"):
        schema.validate_view(dict(view, schema_version=1))
    with pytest.raises(SchemaError, match="missing field 'own_draws'"):
        schema.validate_view(dict(old, schema_version=2))


def test_views_never_show_hidden_cards() -> None:
    """The schema has no place for them: other players appear by card counts only; a
    seat's own discards and received cards only on its own events."""
    view_schema = schema.load_schema("view")
    player = view_schema["$defs"]["player"]["properties"]
    assert player["cards"]["type"] == "integer"
    for h in states(30):
        for s in range(h.n_players):
            v = h.view(s)
            for e in v["history"]:
                if e["kind"] in ("deal", "burn") or (
                    e["kind"] in ("discard", "draw") and e["seat"] != s
                ):
                    assert "cards" not in e
            bad = copy.deepcopy(v)
            bad["history"].append({"kind": "deal", "seat": 0, "cards": ["7h"], "count": 1})
            schema.validate_view(bad)  # a shown-cards list is allowed on any event ...
            bad["players"][0]["hole_cards"] = ["7h"]
            with pytest.raises(SchemaError, match="unknown field 'hole_cards'"):
                schema.validate_view(bad)


# -- the document is held to the one declaration of a hand's state (game/state.py) ---------


def _plain(v: object) -> object:
    """Tuples as lists, recursively (documents hold lists), for comparing fields."""
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    return v


def test_every_declared_field_survives_to_dict_and_from_dict() -> None:
    """Each field of ``HandState`` (state.py: FIELDS) equals the original's in a hand
    restored from its document, at random points of many hands: a field added to the
    declaration but forgotten in ``to_dict``/``from_dict`` fails here."""
    from triple_draw.game.state import FIELDS

    derived = {"_result"}  # built on request from the other fields
    checked = 0
    for h in states(60, every=0.5):
        r = Hand.from_dict(json.loads(json.dumps(h.to_dict())))
        for name in FIELDS:
            if name in derived:
                continue
            a, b = getattr(h, name), getattr(r, name)
            if name == "_deck":
                a, b = a.get_state(), b.get_state()
            elif name == "_core":
                a, b = a.__name__, b.__name__
            assert _plain(a) == _plain(b), name
            checked += 1
        assert r.result == h.result
    assert checked > 1000


def test_the_schema_lists_exactly_the_document_keys() -> None:
    from triple_draw.game.state_io import DOCUMENT_KEYS

    s = schema.load_schema("hand_state")
    assert set(s["properties"]) == set(DOCUMENT_KEYS)
    assert set(s["required"]) == set(DOCUMENT_KEYS)
