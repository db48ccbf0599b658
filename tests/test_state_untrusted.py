"""Saved hand states are untrusted input (docs/security.md, "Saved hand states").

``Hand.from_dict`` accepts a document only if legal play reaches it: it replays the
document's history from its starting state through the public constructor and actions,
and checks every other field against the replay. Everything else is refused with
``SchemaError`` (naming the first problem) and never with another exception; an
accepted document plays on to a valid end."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest
from conftest import also_on, partition_ok, play_randomly, random_action
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from triple_draw import HandRank
from triple_draw.errors import ArgumentError, ArgumentTypeError, SchemaError, TripleDrawError
from triple_draw.game import Hand, Rules
from triple_draw.game.core import resolve_core
from triple_draw.game.state_io import MAX_DEPTH

RULE_SETS = [
    Rules(max_players=8),
    Rules.online(max_players=8, ante=1),
    Rules(draw_procedure="immediate", max_players=8),
    Rules(reshuffle="pokerstars", max_players=8),
    Rules(reshuffle="pokerstars", draw_procedure="immediate", max_players=8, ante=2),
    Rules.online(5, heads_up_uncapped=True, short_all_in="full-raise", max_players=8),
    Rules.pokerkit(max_players=8, draw_procedure="immediate"),
    Rules(burn_cards=True, reshuffle="pokerstars", draw_procedure="immediate", max_players=8),
]


def _start(seed: int) -> Hand:
    """A hand of one of three kinds: a seeded deck; a stacked deck missing cards; a replay
    that withholds cards to give them later as replacements."""
    rng = random.Random(seed)
    n = 2 + seed % 7
    rules = RULE_SETS[seed % len(RULE_SETS)]
    stacks = [rng.choice([3, 11, 40, 300]) for _ in range(n)]
    button = rng.randrange(n)
    kind = seed % 3
    if kind == 0:
        return Hand(rules, stacks, button, seed=seed)
    if kind == 1:
        order = list(range(52))
        rng.shuffle(order)
        deck = resolve_core(None).Deck.stacked(order[: 5 * n + rng.randrange(0, 52 - 5 * n)], seed)
        return Hand(rules, stacks, button, deck=deck)
    held = rng.sample(range(52), 4)
    h = Hand(rules, stacks, button, seed=seed, withhold=held)
    return h


def _step(h: Hand, rng: random.Random) -> None:
    """One random legal action; in draws mostly big ones (reshuffles), sometimes with
    given replacement cards (``receive=``)."""
    a = random_action(h, rng, weight=4, draw_heavy=0.6)
    if a.cards and rng.random() < 0.3:  # a discard (of one card or more)
        given: list[int | None] = []
        for _ in a.cards:
            ok = h.receivable(list(a.cards), given)
            given.append(rng.choice(ok) if rng.random() < 0.7 else None)
        h.discard(list(a.cards), receive=given)
        return
    h.apply(a)


def saved_states(count: int):
    """(hand, document) at every decision of ``count`` random hands, and at the end."""
    for seed in range(count):
        rng = random.Random(seed)
        h = _start(seed)
        while True:
            yield h, json.loads(json.dumps(h.to_dict()))
            if h.actor is None:
                break
            _step(h, rng)


def test_every_reachable_state_loads_back_and_plays_on_identically() -> None:
    kinds = set()
    for k, (h, doc) in enumerate(saved_states(120)):
        h2 = Hand.from_dict(doc)
        assert h2.to_dict() == doc
        kinds.add((doc["withheld"] is not None, doc["reserved"] is not None))
        kinds.add(any(e["kind"] == "reshuffle" for e in doc["history"]))
        if k % 7 == 0 and h.actor is not None:  # the same actions give the same hand
            a, b = h.copy(), h2
            play_randomly(a, k, each=also_on(b))
            assert a.to_dict() == b.to_dict()
    # replays holding cards back, given cards waiting for their seat, reshuffles
    assert {(True, False), (False, True), True} <= kinds


def _doc(seed: int = 3, stop: Any = None) -> dict[str, Any]:
    """A document of a three-handed hand, saved at the first state ``stop`` accepts."""
    h = Hand(Rules(), [100, 100, 100], seed=seed)
    while stop is not None and not stop(h) and h.actor is not None:
        h.check_or_call() if not h.in_draw else h.discard(h.hole_ids(h.actor)[:2])
    return h.to_dict()


def _refused(doc: dict[str, Any], match: str | None = None) -> None:
    before = copy.deepcopy(doc)
    with pytest.raises(SchemaError, match=match):
        Hand.from_dict(doc)
    assert doc == before  # the caller's document is left as it was


def test_a_fourth_draw_is_refused() -> None:
    # issue 10.4: phase "draw" with street 3 was accepted, then a discard raised IndexError
    doc = _doc(stop=lambda h: h.street == 3)
    assert doc["phase"] == "bet"
    doc["phase"] = "draw"
    _refused(doc, r"\$\.phase")
    doc = _doc(stop=lambda h: h.street == 2 and h.in_draw)
    doc["street"] = 3
    _refused(doc, r"\$\.street")


def test_a_draw_phase_over_a_betting_round_is_refused() -> None:
    doc = _doc(stop=lambda h: h.street == 1 and not h.in_draw)
    doc["phase"] = "draw"
    _refused(doc, r"\$\.phase: the document has 'draw', legal play from its start gives 'bet'")


def test_chips_moved_between_seats_are_refused() -> None:
    doc = _doc(stop=lambda h: h.street == 1)
    doc["stacks"][0] -= 10
    doc["stacks"][1] += 10  # the total is unchanged
    _refused(doc, r"\$\.stacks\[0\]")


def test_a_folded_actor_is_refused() -> None:
    h = Hand(Rules(), [100, 100, 100], seed=3)
    h.fold()
    doc = h.to_dict()
    doc["actor"] = 0
    _refused(doc, r"\$\.actor")


def test_a_live_seat_without_cards_is_refused() -> None:
    doc = _doc()
    out = doc["hands"][1]
    doc["hands"][1] = []
    doc["out_of_play"] += out  # the 52 cards still partition
    _refused(doc, r"\$\.(hands|history)")


def test_a_round_bet_above_the_committed_chips_is_refused() -> None:
    doc = _doc()
    doc["round_bets"][2] = 50
    _refused(doc, r"\$\.round_bets\[2\]")


def test_seats_beyond_the_table_are_refused() -> None:
    doc = _doc(stop=lambda h: h.street == 1)
    fold = next(i for i, e in enumerate(doc["history"]) if e["kind"] in ("check", "call"))
    doc["history"][fold]["seat"] = 6
    _refused(doc, r"\$\.history\[\d+\]: seat 6")
    h = Hand(Rules(), [100, 100, 100], seed=3)
    while h.actor is not None:
        h.check_or_call() if not h.in_draw else h.discard(())
    doc = h.to_dict()
    doc["outcome"]["showdown"][0][0] = 7
    _refused(doc, r"\$\.outcome")


def test_a_history_that_was_not_played_is_refused() -> None:
    doc = _doc(stop=lambda h: h.street == 1)
    doc["history"] = [e for e in doc["history"] if e["kind"] != "begin_draw"]
    _refused(doc, r"\$\.history\[\d+\]")
    doc = _doc(stop=lambda h: h.street == 1)
    draw = next(e for e in doc["history"] if e["kind"] == "draw")
    draw["cards"] = list(reversed(draw["cards"]))
    _refused(doc)


def _nested(depth: int) -> Any:
    x: Any = 0
    for _ in range(depth):
        x = [x]
    return x


@pytest.mark.parametrize("depth", [MAX_DEPTH, 300, 100_000])
def test_documents_nested_too_deep_are_refused_before_they_are_read(depth: int) -> None:
    # issue 10.4: hundreds of levels raised RecursionError
    doc = _doc()
    doc["stacks"] = _nested(depth)
    with pytest.raises(SchemaError, match="nested deeper than"):
        Hand.from_dict(doc)
    doc = _doc()
    doc["colour"] = {"a": _nested(depth)}
    with pytest.raises(SchemaError, match="nested deeper than"):
        Hand.from_dict(doc)


def test_a_self_referencing_document_is_refused() -> None:
    doc = _doc()
    doc["history"].append(doc["history"])
    with pytest.raises(SchemaError, match="nested deeper than"):
        Hand.from_dict(doc)


def test_the_deepest_real_document_is_well_within_the_bound() -> None:
    def depth(x: Any) -> int:
        if isinstance(x, dict):
            return 1 + max(map(depth, x.values()), default=0)
        if isinstance(x, list):
            return 1 + max(map(depth, x), default=0)
        return 0

    h = Hand(Rules(), [100, 100, 100], seed=3)
    while h.actor is not None:
        h.check_or_call() if not h.in_draw else h.discard(())
    assert depth(h.to_dict()) < MAX_DEPTH - 4


# -- fuzzing: mutated documents are refused or play on to a valid end ----------------------

_DOCS = [doc for k, (_h, doc) in enumerate(saved_states(30)) if k % 5 == 0]

_LEAVES = st.one_of(
    st.integers(-3, 120),
    st.sampled_from([0, 1, 2, 3, 7, 8, 52, 2**63, -(2**70)]),
    st.booleans(),
    st.none(),
    st.sampled_from(["bet", "draw", "over", "7h", "As", "??", "fold", "discard", "x" * 70]),
    st.lists(st.sampled_from(["2c", "3d", "7h", "As", "Kd"]), max_size=6),
    st.lists(st.integers(0, 300), min_size=2, max_size=8),
    st.lists(st.booleans(), min_size=2, max_size=8),
)


def _paths(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path]
    if isinstance(node, dict):
        for k, v in node.items():
            out += _paths(v, (*path, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += _paths(v, (*path, i))
    return out


def _mutate(doc: dict[str, Any], data: st.DataObject) -> dict[str, Any]:
    doc = copy.deepcopy(doc)
    for _ in range(data.draw(st.integers(1, 3))):
        paths = _paths(doc)[1:]
        path = data.draw(st.sampled_from(paths))
        parent = doc
        for p in path[:-1]:
            parent = parent[p]
        how = data.draw(st.sampled_from(["set", "delete", "swap", "nudge"]))
        last = path[-1]
        if how == "delete":
            del parent[last]
        elif how == "nudge" and type(parent[last]) is int:
            parent[last] += data.draw(st.sampled_from([-2, -1, 1, 2]))
        elif how == "swap" and isinstance(parent, list) and len(parent) > 1:
            j = data.draw(st.integers(0, len(parent) - 1))
            parent[last], parent[j] = parent[j], parent[last]
        else:
            parent[last] = data.draw(_LEAVES)
    return doc


def _play_to_the_end(h: Hand, rng: random.Random) -> None:
    total = sum(h.starting_stacks)

    def sound(h: Hand, *_: object) -> None:
        if h.actor is not None:  # at a decision the chips are in the stacks or the pot
            assert sum(h.stacks) + h.pot == total
        assert partition_ok(h)

    sound(h)
    play_randomly(h, rng, each=sound)
    assert sum(h.stacks) == total
    assert partition_ok(h)
    assert h.result is not None


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(_DOCS), st.data())
def test_mutated_documents_are_refused_or_play_on_to_a_valid_end(doc: Any, data: Any) -> None:
    bad = _mutate(doc, data)
    try:
        h = Hand.from_dict(bad)
    except SchemaError:
        return
    except TripleDrawError as e:
        raise AssertionError(f"not a SchemaError: {e!r}") from e
    _play_to_the_end(h, random.Random(0))


# -- JSON text: size and depth are checked before parsing ----------------------------------


def test_from_json_reads_the_text_of_a_document() -> None:
    doc = _doc(stop=lambda h: h.street == 1)
    text = json.dumps(doc)
    assert Hand.from_json(text).to_dict() == doc
    assert Hand.from_json(text.encode()).to_dict() == doc


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("[" * 100_000 + "]" * 100_000, "nested deeper than"),  # json.loads: RecursionError
        ('{"a": ' * 5000 + "1" + "}" * 5000, "nested deeper than"),
        ('"' + '\\"' * 200_000, "not valid JSON"),  # an unterminated string, read once
        ("1" * 5000, "not valid JSON"),  # Python's digit limit: a plain ValueError
        ("[1,", "not valid JSON"),
        (b"\xff", "not UTF-8"),
        (5, "must be str or bytes"),
        (" " * 1_000_001, "longer than"),
        ('{"stacks": "[[[[[[[[[[[[[[[[[[[[[[[[[[[["}', "schema_version"),  # brackets in a string
    ],
)
def test_from_json_refuses_bad_text_with_schema_error(text: Any, match: str) -> None:
    with pytest.raises(SchemaError, match=match):
        Hand.from_json(text)


# -- issue 10.7: every error of the game layer is the package's ----------------------------


@pytest.mark.parametrize(
    "value",
    [0, 7463, -1, 2**70, True, "1", 1.0],  # 2**70 was OverflowError, "1" a plain TypeError
)
def test_hand_rank_out_of_range_or_not_an_int_is_a_package_error(value: Any) -> None:
    with pytest.raises(ArgumentError, match="hand rank"):
        HandRank(value)


def test_hand_rank_takes_the_ranks_1_to_7462() -> None:
    assert HandRank(1).rank == 1 and HandRank(7462).rank == 7462


@pytest.mark.parametrize("seat", [True, False, 1.0, "0", None, -1, 3, 2**70])
def test_a_seat_must_be_an_int_of_the_table(seat: Any) -> None:
    h = Hand(Rules(), [100, 100, 100], seed=1)
    for ask in (h.view, h.hole_ids, h.hole_text, h.draws, h.discards):
        with pytest.raises(ArgumentError, match=r"seat must be 0\.\.2"):
            ask(seat)


def test_a_bad_core_is_the_callers_error_not_the_documents() -> None:
    doc = _doc()
    with pytest.raises(ArgumentTypeError, match="core must be"):
        Hand.from_dict(doc, core=5)
    assert Hand.from_dict(doc, core="reference").to_dict() == doc
