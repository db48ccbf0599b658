"""The compiled core builds views (rust/python/view.rs); the pure-Python ``ViewCache``
(game/view.py) is its reference. Both follow the same hand's log, so at every decision of
many random hands, under every rule set, each seat's view from the compiled core must be
exactly the Python one: equal, with the keys in the same order (the JSON text is compared),
read-only and shared the same way."""

from __future__ import annotations

import json
import random
import re
import threading
from pathlib import Path
from collections.abc import Callable

import pytest

from triple_draw import ArgumentError, _core
from triple_draw.game import Hand, Rules
from triple_draw.game.view import FrozenDict, FrozenList, ViewCache
from conftest import play_randomly

RULES = {
    "live": Rules(max_players=8),
    "online": Rules.online().replace(max_players=8),
    "wsop-ante-muck": Rules.wsop().replace(max_players=8, ante=1, muck_beaten_hands=True),
    "pokerkit-burns": Rules.pokerkit().replace(max_players=8),
    "immediate": Rules(max_players=8, draw_procedure="immediate"),
}


def _frozen_all_the_way(x: object) -> bool:
    if isinstance(x, dict):
        return type(x) is FrozenDict and all(_frozen_all_the_way(v) for v in x.values())
    if isinstance(x, list):
        return type(x) is FrozenList and all(map(_frozen_all_the_way, x))
    return True


def views_as_the_reference(h: Hand, rnd: random.Random, where: object) -> Callable[..., None]:
    """A check at each point of ``h``: every seat's compiled view (half the time only the
    actor's) equals the one of a Python ``ViewCache`` following the hand."""
    reference = ViewCache(h)

    def check(*_: object) -> None:
        n = h.n_players
        seats = range(n) if rnd.random() < 0.5 or h.is_over else [h.actor]
        for s in seats:
            got = h.view(s)
            want = reference.view(h, s)
            assert type(h._view_cache) is _core.ViewCache
            assert json.dumps(got) == json.dumps(want), (where, s)
            assert _frozen_all_the_way(got)
            assert h.view(s) is got  # the same point: the same object

    return check


@pytest.mark.parametrize("name", list(RULES))
def test_compiled_views_equal_the_python_reference_at_every_step(name: str) -> None:
    rules = RULES[name]
    rnd = random.Random(name)
    for i in range(40):
        n = 2 + i % 7
        stacks = [rnd.choice([1, 3, 10, 40, 200]) for _ in range(n)]
        h = Hand(rules, stacks, i % n, i)
        check = views_as_the_reference(h, rnd, (name, i))
        check()
        play_randomly(h, rnd, draw_heavy=0.4, each=check)


@pytest.mark.parametrize("name", list(RULES))
def test_the_lists_the_compiled_views_read_in_place_are_never_replaced(name: str) -> None:
    """The compiled cache keeps the hand's ``_live``, ``_stacks``, ``_total``, ``_hands``
    and ``_draws`` lists from the first view on (HandState: never replaced during a
    hand)."""
    rnd = random.Random(name)
    for i in range(30):
        n = 2 + i % 7
        h = Hand(RULES[name], [rnd.choice([3, 10, 40, 200]) for _ in range(n)], i % n, i)
        lists = [h._live, h._stacks, h._total, h._hands, h._draws]

        def same_lists(h: Hand, *_: object, lists: list[object] = lists) -> None:
            now = [h._live, h._stacks, h._total, h._hands, h._draws]
            assert all(a is b for a, b in zip(now, lists, strict=True))

        play_randomly(h, rnd, draw_heavy=0.4, each=same_lists)


def test_a_copy_and_a_restored_hand_get_their_own_views() -> None:
    h = Hand(Rules(), [100] * 4, seed=3)
    for _ in range(6):
        h.apply(h.legal_actions()[1])
    before = h.view(h.actor)
    c = h.copy()
    r = Hand.from_dict(h.to_dict())
    c.apply(c.legal_actions()[1])
    assert json.dumps(r.view(h.actor)) == json.dumps(before)
    assert h.view(h.actor) is before  # the original did not move
    assert c.view(h.actor)["history"] != before["history"]
    assert json.dumps(c.view(0)) == json.dumps(ViewCache(c).view(c, 0))


@pytest.mark.parametrize("seat", [-1, 4, True, 1.0, "0", None, 2**70])
def test_a_bad_seat_is_an_argument_error_naming_it(seat: object) -> None:
    h = Hand(Rules(), [100] * 4, seed=3)
    with pytest.raises(ArgumentError, match=r"seat must be 0\.\.3, got "):
        h.view(seat)  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match=r"seat must be 0\.\.3, got "):
        ViewCache(h).view(h, seat)  # type: ignore[arg-type]
    assert h.view(0)["seat"] == 0  # the cache still works


def test_views_of_one_hand_from_several_threads_at_once() -> None:
    """The compiled cache serialises its updates (a thread that finds it busy waits with
    the GIL released): views taken from many threads while the hand is played equal the
    reference."""
    h = Hand(Rules(max_players=8), [200] * 8, seed=11)
    errors: list[BaseException] = []
    stop = threading.Event()

    def viewer(seat: int) -> None:
        try:
            while not stop.is_set():
                v = h.view(seat)
                assert v["seat"] == seat and _frozen_all_the_way(v)
        except BaseException as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=viewer, args=(s,)) for s in range(8)]
    for t in threads:
        t.start()

    def as_from_scratch(h: Hand, *_: object) -> None:
        for s in range(8):
            assert json.dumps(h.view(s)) == json.dumps(ViewCache(h).view(h, s))

    try:
        play_randomly(h, 5, each=as_from_scratch)
    finally:
        stop.set()
        for t in threads:
            t.join()
    assert not errors, errors


def test_a_corrupt_log_entry_is_refused_and_the_cache_recovers() -> None:
    """The compiled cache checks what it reads from the hand: an entry naming a seat
    beyond the table is an ArgumentError (no panic), and once the entry is gone the next
    view is built from scratch, equal to the reference."""
    h = Hand(Rules(), [100] * 3, seed=1)
    h.view(0)
    h._log.append(("call", 99, 4, None))
    with pytest.raises(ArgumentError, match="seat 99"):
        h.view(0)
    h._log.pop()
    h.apply(h.legal_actions()[1])
    assert json.dumps(h.view(1)) == json.dumps(ViewCache(h).view(h, 1))


def test_the_compiled_views_read_the_hand_through_its_declared_fields() -> None:
    """The compiled core names none of the hand's private fields: it reads those that
    ``view.HandFields`` lists (each a declared field of ``HandState``), and takes the
    phase codes, the to-act state and the log's kinds it compares with from Python
    (``view.CompiledSupport``, read by name)."""
    from triple_draw.game import events as ev
    from triple_draw.game import phase
    from triple_draw.game.state import FIELDS
    from triple_draw.game.view import _COMPILED_SUPPORT

    sup = _COMPILED_SUPPORT

    assert set(sup.fields) <= set(FIELDS), set(sup.fields) - set(FIELDS)
    assert len(set(sup.fields)) == len(sup.fields)
    assert (sup.bet, sup.over, sup.may_raise) == (phase.BET, phase.OVER, phase.MAY_RAISE)
    assert set(sup.phase_marks) | set(sup.count_only) <= set(ev.EVENT_KINDS)
    assert {sup.discard, sup.draw} <= set(sup.count_only)
    # the views, and the batched environment's compiled learner loop (which reads the
    # hand through the same declared names)
    for module in ("view.rs", "vector.rs"):
        source = (Path(__file__).resolve().parents[1] / "rust" / "python" / module).read_text()
        for name in FIELDS:
            if name.startswith("_"):  # (a private field; ``rules`` is public)
                assert f'"{name}"' not in source, (module, name)
        # and no position in a log entry's tuple: the layout comes from events.LogLayout
        assert module != "view.rs" or not re.search(r"get_item\([0-9]\)", source)


def test_the_log_layout_the_compiled_views_read_is_where_the_engine_writes() -> None:
    """``events.LOG_LAYOUT`` (passed to the compiled views as
    ``CompiledSupport.log_layout``) puts each field where every entry of a played hand
    holds it: the kind a known kind, the seat a seat or None, the cards ids or None, and
    :func:`events.stored` writes an :class:`events.Entry` at those positions."""
    from triple_draw.game import events as ev
    from triple_draw.game.view import _COMPILED_SUPPORT

    at = _COMPILED_SUPPORT.log_layout
    assert at is ev.LOG_LAYOUT
    assert at._fields == ("kind", "seat", "amount", "cards") and sorted(at) == [0, 1, 2, 3]
    e = ev.Entry(ev.DISCARD, seat=2, cards=(4, 9))
    raw = ev.stored(e)
    assert (raw[at.kind], raw[at.seat], raw[at.cards]) == (ev.DISCARD, 2, (4, 9))
    assert ev.stored(ev.Entry(ev.CALL, seat=1, chips=6))[at.amount] == 6
    h = Hand(Rules(), [100] * 4, seed=3)
    while h.actor is not None:
        h.apply(h.legal_actions()[1] if not h.in_draw else h.legal_actions()[0])
    for raw in h._log:
        assert raw[at.kind] in ev.EVENT_KINDS
        assert raw[at.seat] is None or 0 <= raw[at.seat] < 4
        assert raw[at.cards] is None or all(0 <= c < 52 for c in raw[at.cards])
        assert ev.stored(ev.read(raw)) == raw
