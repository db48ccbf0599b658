"""The Hand API: illegal actions (each kind leaves the state unchanged), legal actions,
actions as values, views, persistence (to_dict/from_dict, copy, pickle), history."""

from __future__ import annotations

import copy
import json
import pickle
import random
from typing import Any

import pytest

from triple_draw import ArgumentError, IllegalActionError, SchemaError, Table, TripleDrawError
from triple_draw.errors import ArgumentTypeError
from triple_draw.game.view import FrozenDict, FrozenList
from triple_draw.game import Action, Bet, Call, Check, Discard, Fold, Hand, Raise, Rules
from conftest import also_on, emptied, play_randomly, random_action, to_draw

R = Rules()


def unchanged(h: Hand, fn, match: str) -> None:
    before = h.to_dict()
    with pytest.raises(IllegalActionError, match=match):
        fn()
    assert h.to_dict() == before


# -- illegal actions ------------------------------------------------------------------------


def test_illegal_out_of_turn():
    h = Hand(R, [100] * 3, seed=1)
    unchanged(h, lambda: h.apply(Call(), seat=1), "out of turn")


def test_illegal_check_facing_a_bet():
    h = Hand(R, [100] * 3, seed=1)
    unchanged(h, lambda: h.apply(Check()), "cannot check: facing a bet")


def test_illegal_call_with_nothing_to_call():
    h = Hand(R, [100] * 2, seed=1)
    h.check_or_call()
    unchanged(h, lambda: h.apply(Call()), "nothing to call")


def test_illegal_bet_when_there_is_a_bet_and_raise_when_there_is_none():
    h = Hand(R, [100] * 2, seed=1)
    unchanged(h, lambda: h.apply(Bet()), "raise instead")
    h.check_or_call()
    h.check_or_call()
    h.discard([])
    h.discard([])
    unchanged(h, lambda: h.apply(Raise()), "bet instead")


def test_illegal_wrong_amounts():
    h = Hand(R, [100] * 3, seed=1)
    unchanged(h, lambda: h.apply(Raise(5)), "exactly 4")
    unchanged(h, lambda: h.apply(Call(1)), "calls to 2")
    h.apply(Raise(4))
    h.apply(Call(4))


def test_illegal_raise_past_the_cap():
    h = Hand(R, [100] * 4, seed=1)
    for _ in range(3):
        h.bet_or_raise()
    unchanged(h, h.bet_or_raise, "capped")
    unchanged(h, lambda: h.apply(Raise()), "capped")


def test_illegal_raise_without_chips_beyond_the_call():
    h = Hand(R, [100, 100, 3], button=0, seed=1)  # seat 2 big blind, 1 behind
    h.bet_or_raise()  # raise to 4
    h.check_or_call()
    unchanged(h, h.bet_or_raise, "do not exceed the call")


def test_illegal_betting_during_the_draw_and_discard_during_betting():
    h = Hand(R, [100] * 2, seed=1)
    unchanged(h, lambda: h.discard([]), "betting round 1")
    to_draw(h)
    unchanged(h, h.check_or_call, "must discard")
    unchanged(h, h.fold, "must discard")
    unchanged(h, lambda: h.apply(Bet()), "must discard")


def test_illegal_discards_not_held_duplicate_more_than_five_bad_text():
    h = Hand(R, [100] * 2, seed=1)
    to_draw(h)
    s = h.actor
    mine = h.hole_ids(s)
    other = h.hole_ids(1 - s)[0]
    unchanged(h, lambda: h.discard([other]), "does not hold")
    unchanged(h, lambda: h.discard([mine[0], mine[0]]), "same card twice")
    unchanged(h, lambda: h.discard([*list(mine), mine[0]]), "at most five")
    unchanged(h, lambda: h.discard("Xx"), "bad discard")
    unchanged(h, lambda: h.discard([99]), "out of range")
    unchanged(h, lambda: h.discard([5.0]), "not a card")
    unchanged(h, lambda: h.apply(Discard([other])), "does not hold")


def test_illegal_any_action_after_the_hand_is_over():
    h = Hand(R, [100] * 2, seed=1)
    h.fold()
    assert h.is_over
    for fn in (
        h.fold,
        h.check_or_call,
        h.bet_or_raise,
        lambda: h.discard([]),
        lambda: h.apply(Fold()),
    ):
        unchanged(h, fn, "the hand is over")
    unchanged(h, lambda: h.apply(Fold(), seat=0), "the hand is over")
    assert h.legal_actions() == []


def test_illegal_not_an_action():
    h = Hand(R, [100] * 2, seed=1)
    unchanged(h, lambda: h.apply("call"), "not an Action")  # type: ignore[arg-type]


def test_illegal_action_error_is_a_value_error():
    assert issubclass(IllegalActionError, ValueError)


# -- construction errors --------------------------------------------------------------------


@pytest.mark.parametrize(
    "stacks,button,match",
    [
        ([100], 0, "2..6"),
        ([100] * 7, 0, "2..6"),
        ([100, 0], 0, "> 0"),
        ([100, True], 0, "> 0"),
        ([100, 100], 2, "button"),
    ],
)
def test_bad_hand_arguments(stacks, button, match):
    with pytest.raises(ValueError, match=match):
        Hand(R, stacks, button=button, seed=1)


def test_seven_and_eight_players_with_option():
    Hand(Rules(max_players=8), [100] * 8, seed=1)
    with pytest.raises(TypeError):
        Hand({"small_blind": 1}, [100, 100])  # type: ignore[arg-type]


# -- legal actions and values ---------------------------------------------------------------


def test_legal_actions_are_applicable_and_fully_specified():
    rnd = random.Random(5)
    for seed in range(30):
        h = Hand(R, [rnd.randint(1, 40) for _ in range(4)], seed=seed)
        while not h.is_over:
            a = random_action(h, rnd)
            if a.kind in ("call", "bet", "raise"):
                assert a.amount is not None
            h.apply(a, seat=h.actor)


def test_actions_are_frozen_values_with_round_tripping_repr():
    a = Raise(8)
    assert a == Action("raise", 8) and hash(a) == hash(Action("raise", 8))
    with pytest.raises(AttributeError):
        a.amount = 4  # type: ignore[misc]
    for x in (Fold(), Check(), Call(4), Bet(), Raise(8), Discard("7h 2c"), Discard()):
        assert eval(repr(x)) == x
        assert pickle.loads(pickle.dumps(x)) == x
        assert Action.from_dict(x.to_dict()) == x
    assert Discard("7h 2c").cards == (0, 22) and Discard("7h 2c").card_text == ("2c", "7h")
    assert str(Discard()) == "stand pat" and str(Call(4)) == "call 4"
    with pytest.raises(ValueError):
        Action("shove")
    with pytest.raises(ValueError):
        Action("fold", 3)


def test_queries_for_policies():
    h = Hand(R, [100] * 3, seed=1)
    assert h.facing_bet and h.can_bet_or_raise() and h.to_call == 2 and h.bet_or_raise_amount() == 4
    assert not h.in_draw and h.phase == "bet" and h.street == 0
    to_draw(h)
    assert h.in_draw and not h.facing_bet and not h.can_bet_or_raise() and h.to_call == 0


def test_hole_cards_as_card_objects():
    from triple_draw import Card

    h = Hand(R, [100] * 2, hole_cards=["7h 5d 4c 3s 2h", None], seed=1)
    assert h.hole_cards(0) == tuple(Card(x) for x in ("7h", "5d", "4c", "3s", "2h"))


@pytest.mark.parametrize("core", ["compiled", "reference"])
def test_hole_cards_are_the_cores_shared_cards_first_time_and_after(core: str) -> None:
    """hole_cards reads a table of the core's 52 shared Cards, made at its first call for
    that core: the first call and the later ones give the same objects, and a record's
    unknown card raises UnknownCardsError on both paths."""
    from triple_draw.errors import UnknownCardsError
    from triple_draw.game import hand as hand_module
    from triple_draw.game.core import resolve_core

    c = resolve_core(core)
    hand_module._CARD_TABLES.pop(c, None)
    h = Hand(R, [100] * 2, hole_cards=["7h 5d 4c 3s 2h", None], seed=1, core=core)
    first = h.hole_cards(0)
    assert c in hand_module._CARD_TABLES
    again = h.hole_cards(0)
    assert [str(x) for x in first] == ["7h", "5d", "4c", "3s", "2h"]
    assert all(a is b and type(a) is c.Card for a, b in zip(first, again, strict=True))
    assert first == tuple(c.parse_cards("7h 5d 4c 3s 2h"))
    rec = Hand(R, [100] * 2, record=True, hole_cards=["7h 5d 4c 3s 2h", None], core=core)
    for _ in range(2):
        hand_module._CARD_TABLES.pop(c, None)
        with pytest.raises(UnknownCardsError, match="seat 1 holds 5 unknown cards"):
            rec.hole_cards(1)
        assert rec.hole_cards(0) == first  # and the table is made now
        with pytest.raises(UnknownCardsError, match="seat 1 holds 5 unknown cards"):
            rec.hole_cards(1)
    with pytest.raises(ArgumentError, match="seat"):
        h.hole_cards(2)


def test_hole_cards_of_a_core_without_parse_cards_or_a_hash() -> None:
    """A user's core without parse_cards gets a Card of its own per call; one that cannot
    be hashed is not remembered, and still works."""
    import types

    from triple_draw.game import hand as hand_module
    from triple_draw.game.core import resolve_core

    compiled = resolve_core("compiled")
    made: list[int] = []

    class Bare:  # hashable (by identity), without parse_cards
        def __getattr__(self, name: str) -> Any:
            if name == "parse_cards":
                raise AttributeError(name)
            return getattr(compiled, name)

        @staticmethod
        def Card(cid: int) -> Any:  # noqa: N802 - the core's attribute
            made.append(cid)
            return compiled.Card(cid)

    bare = Bare()
    unhashable = types.SimpleNamespace(**{k: getattr(compiled, k) for k in dir(compiled)})
    for core in (bare, unhashable):
        h = Hand(R, [100] * 2, hole_cards=["7h 5d 4c 3s 2h", None], seed=1, core=core)
        for _ in range(2):
            assert [str(x) for x in h.hole_cards(0)] == ["7h", "5d", "4c", "3s", "2h"]
    assert len(made) == 10  # five Cards made by the bare core at each of its two calls
    assert not any(k is bare or k is unhashable for k in hand_module._CARD_TABLES)


@pytest.mark.usefixtures("empty_discard_cache")
def test_discard_actions_are_shared_values() -> None:
    """Discard() gives the shared discard action of its cards (what legal_actions lists),
    whatever form the cards come in; actions are values all the same."""
    from triple_draw import Card

    h = Hand(R, [100] * 2, hole_cards=["7h 5d 4c 3s 2h", "Kd Qs Jh 9s 8c"], seed=1)
    to_draw(h)
    s = h.actor
    assert s == 1
    listed = h.legal_actions()[0b11]  # the two lowest ids held: 8c and 9s
    assert Discard("8c 9s") is listed
    assert Discard([Card("9s"), Card("8c")]) is listed
    assert Discard((31, 24)) is listed and Discard([24, 31]) is listed
    assert Discard([]) is Discard() is h.legal_actions()[0]
    held = [Card("8c")]
    Discard(held)
    assert held == [Card("8c")]  # the caller's list is not sorted in place
    assert Discard([Card("8c"), Card("8c")]).cards == (24, 24)  # refused when applied
    unchanged(h, lambda: h.apply(Discard([Card("8c"), Card("8c")])), "same card twice")


def test_a_junk_observation_never_makes_a_shared_action(empty_discard_cache: dict) -> None:
    """The shared discard actions are keyed by their cards, and ``(False, True)`` or
    ``(0.0, 5.0)`` equal ``(0, 1)`` and ``(0, 5)``: a bot given a junk observation built
    such a discard and every later discard of those cards - the one ``legal_actions``
    lists, ``Discard``, the bots' - was that action, its cards bools or floats (the hand
    then refused its own listed action). A discard not built yet is shared only if its
    cards are ascending card ids; the amount of the bots' shared calls and raises is
    checked too (``("call", 4.0)`` equals ``("call", 4)``)."""
    from triple_draw.bots import CallingStationBot, Observation, RandomBot
    from triple_draw.game.actions import discard_action

    cache = empty_discard_cache
    h = Hand(R, [100] * 2, seed=3)
    to_draw(h)
    obs = Observation.from_view(h.view(h.actor))
    for junk in [(False, True), (0.0, 5.0, 9.0, 13.0, 51.0), (True, 2.0, 7.0, 9.0, 12.0)]:
        for seed in range(8):
            for bot in (RandomBot(seed), CallingStationBot(seed, core="reference")):
                try:
                    bot.decide(obs._replace(hole=junk))
                except TripleDrawError:
                    pass
    assert all(type(c) is int for key in cache for c in key)
    assert all(type(c) is int for a in cache.values() for c in a.cards or ())
    assert Discard([0, 1]).cards == (0, 1) and Discard([0, 5]).cards == (0, 5)
    assert discard_action((False, True)) is Discard([0, 1])  # equal keys: the real one
    for bad in [(True, 2.0, 44.0), (5, 3), (7, 7), (52,), (-1,), ("7h",)]:
        a = discard_action(bad)  # type: ignore[arg-type]
        assert a.cards == bad and bad not in cache  # as given, unshared
        if bad != (5, 3):  # (a legal discard if 2d and 3d are held)
            unchanged(h, lambda a=a: h.apply(a), "discard")  # for the hand to refuse
    to_draw(h2 := Hand(R, [100] * 2, seed=3))
    for a in h2.legal_actions():
        assert all(type(c) is int for c in a.cards or ())
    h2.apply(h2.legal_actions()[3])
    # the bots' shared betting actions likewise (a call or raise to 4.0 chips)
    from triple_draw.bots import _ACTIONS

    to_bet = Hand(R, [100] * 2, seed=3)
    bet_obs = Observation.from_view(to_bet.view(to_bet.actor))
    with emptied(_ACTIONS):
        for field in ("to_call", "raise_to"):
            for junk in (True, 4.0, 2.0, -1):
                for seed in range(8):
                    try:
                        a = RandomBot(seed).decide(bet_obs._replace(**{field: junk}))
                    except TripleDrawError:
                        continue
                    assert a.amount is None or type(a.amount) is int
        assert all(k[1] is None or type(k[1]) is int for k in _ACTIONS)
        assert all(a.amount is None or type(a.amount) is int for a in _ACTIONS.values())


# -- views ----------------------------------------------------------------------------------


def test_view_holds_own_cards_only_and_is_json_ready():
    h = Hand(R, [100] * 3, seed=1)
    v = h.view(1)
    json.dumps(v)
    assert v["hole_cards"] == list(h.hole_text(1))
    for other in (0, 2):
        for c in h.hole_text(other):
            assert c not in json.dumps(v)
    assert [p["cards"] for p in v["players"]] == [5, 5, 5]
    assert v["actor"] == 0 and v["legal_actions"] == []
    assert [d["kind"] for d in h.view(0)["legal_actions"]] == ["fold", "call", "raise"]


def test_view_after_showdown_shows_shown_hands():
    h = Hand(R, [100] * 2, seed=1)
    while not h.is_over:
        if h.in_draw:
            h.discard([])
        else:
            h.check_or_call()
    v = h.view(0)
    assert v["players"][1]["shown"] == list(h.hole_text(1))
    assert v["result"]["net"] == list(h.result.net)


def test_view_of_a_folded_seat_holds_no_cards():
    h = Hand(R, [100] * 3, seed=1)
    h.fold()
    assert h.view(0)["hole_cards"] == []


def _reference_view(h: Hand, seat: int) -> dict:
    """The view built from scratch, the straightforward way (no cache): what
    ``Hand.view`` returned before it was made incremental."""
    from triple_draw.game.cards import CARD_TEXT

    n = h.n_players
    betting = h.phase == "bet"
    over = h.is_over
    shown = {j: [CARD_TEXT[c] for c in h._hands[j]] for j, ok in h._showdown or () if ok}
    live = [not f for f in h.folded]
    players = [
        {
            "seat": j,
            "stack": h.stacks[j],
            "bet": h.bets[j] if betting else 0,
            "committed": h.committed[j],
            "folded": not live[j],
            "all_in": live[j] and h.stacks[j] == 0 and not over,
            "cards": len(h.hole_ids(j)) if live[j] else 0,
            "draws": list(h.draws(j)),
            "shown": shown.get(j),
        }
        for j in range(n)
    ]
    history = []
    own_draws: list[dict] = []
    for event in h.history:
        kind, who, amount, cards = event.kind, event.seat, event.amount, event.cards
        e: dict = {"kind": kind}
        if who is not None:
            e["seat"] = who
        if amount is not None:
            e["amount"] = amount
        if cards is not None:
            if kind in ("deal", "discard", "draw", "burn"):
                e["count"] = len(cards)
                if kind in ("discard", "draw") and who == seat:  # his own
                    e["cards"] = list(cards)
                    if kind == "discard":
                        own_draws.append(
                            {"discarded": list(cards), "received": None if cards else []}
                        )
                    else:
                        own_draws[-1]["received"] = list(cards)
            else:
                e["cards"] = list(cards)
        history.append(e)
    res = h.result
    return {
        "schema_version": 2,
        "seat": seat,
        "n_players": n,
        "button": h.button,
        "small_blind_seat": h.small_blind_seat,
        "big_blind_seat": h.big_blind_seat,
        "stakes": {
            k: getattr(h.rules, k)
            for k in ("small_blind", "big_blind", "small_bet", "big_bet", "ante")
        },
        "phase": h.phase,
        "street": h.street,
        "actor": h.actor,
        "pot": h.pot,
        "bet_level": h.bet_level,
        "hole_cards": list(h.hole_text(seat)) if live[seat] else [],
        "own_draws": own_draws,
        "players": players,
        "history": history,
        "legal_actions": [a.to_dict() for a in h.legal_actions()]
        if h.actor == seat and betting
        else ([{"kind": "discard", "max_cards": 5}] if h.actor == seat else []),
        "result": None
        if res is None
        else {
            "pots": [p.to_dict() for p in res.pots],
            "showdown": [e.to_dict() for e in res.showdown],
            "returned": None if res.returned is None else list(res.returned),
            "net": list(res.net),
        },
    }


def _same(a: object, b: object) -> bool:
    """Equal with the same types throughout (``True`` is not ``1``, a tuple not a list)
    and the same key order."""
    plain = {FrozenDict: dict, FrozenList: list}  # a view's read-only containers
    if plain.get(type(a), type(a)) is not plain.get(type(b), type(b)):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)  # type: ignore[index]
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))  # type: ignore[arg-type]
    return a == b


def _mutations(obj: object) -> list[Any]:
    """Every way to change every container of a view, as callables."""
    out: list[Any] = []
    if isinstance(obj, dict):
        for k in list(obj):
            out += _mutations(obj[k])
        out += [
            lambda: obj.__setitem__("extra", 1),
            lambda: obj.__delitem__(next(iter(obj))),
            lambda: obj.update(extra=1),
            lambda: obj.setdefault("extra", 1),
            lambda: obj.pop(next(iter(obj))),
            obj.popitem,
            obj.clear,
            lambda: obj.__ior__({"extra": 1}),
        ]
    elif isinstance(obj, list):
        for x in obj:
            out += _mutations(x)
        out += [
            lambda: obj.append("junk"),
            lambda: obj.extend(["junk"]),
            lambda: obj.insert(0, "junk"),
            lambda: obj.__setitem__(slice(None), []),
            lambda: obj.__delitem__(slice(None)),
            lambda: obj.__iadd__(["junk"]),
            lambda: obj.__imul__(0),
            obj.pop,
            lambda: obj.remove("junk"),
            obj.clear,
            obj.sort,
            obj.reverse,
        ]
    return out


@pytest.mark.parametrize(
    "rules",
    [
        Rules(max_players=8),
        Rules.online().replace(max_players=8),
        Rules.wsop().replace(max_players=8, ante=1, muck_beaten_hands=True),
    ],
    ids=["live", "online", "wsop-ante-muck"],
)
def test_incremental_view_equals_the_view_built_from_scratch(rules: Rules) -> None:
    """The view is built incrementally (cached public history, draw counts); at every step
    of random hands - short stacks, reshuffles with 8 players, copies and restored hands
    mid-way - every seat's view equals the one built from scratch."""
    rnd = random.Random(7)
    for i in range(30):
        n = 2 + i % 7
        stacks = [rnd.choice([1, 3, 10, 40, 200]) for _ in range(n)]
        h = Hand(rules, stacks, i % n, i)
        while True:
            if rnd.random() < 0.6 or h.is_over:
                for s in range(n):
                    assert _same(h.view(s), _reference_view(h, s))
            if h.is_over:
                break
            h.apply(random_action(h, rnd))
            r = rnd.random()
            if r < 0.05:
                h = h.copy()
            elif r < 0.08:
                h = Hand.from_dict(h.to_dict())


def test_views_are_read_only_and_copy_into_plain_containers() -> None:
    """Views are shared and read-only (docs/engine.md, *Views*): every attempt to change any
    of its containers raises ArgumentTypeError and changes nothing; copy.deepcopy gives
    plain dicts and lists to change freely; views at the same point are the same object."""
    h = Hand(R, [100] * 3, seed=4)
    while True:  # to the showdown: every part of the view is filled in
        for s in range(3):
            v = h.view(s)
            assert h.view(s) is v
            expected = json.loads(json.dumps(v))
            assert v == expected and isinstance(v, dict)
            for change in _mutations(v):
                with pytest.raises(ArgumentTypeError, match="read-only"):
                    change()
            assert v == expected and json.loads(json.dumps(h.view(s))) == expected
            mine = copy.deepcopy(v)
            assert type(mine) is dict and type(mine["players"]) is list
            assert type(mine["players"][0]) is dict and mine == expected
            mine["players"][0]["stack"] = -1
            mine["history"].append("junk")
            assert h.view(s) == expected
            assert pickle.loads(pickle.dumps(v)) == expected
        if h.is_over:
            break
        if h.in_draw:
            h.discard(h.hole_ids(h.actor)[:1])
        else:
            h.check_or_call()
    assert expected["result"] is not None and expected["players"][0]["shown"]


def test_views_of_copies_and_restored_hands_are_independent() -> None:
    h = Hand(R, [100] * 3, seed=5)
    h.bet_or_raise()
    first = h.view(1)
    c = h.copy()
    d = Hand.from_dict(h.to_dict())
    c.fold()
    d.check_or_call()
    assert h.view(1) == first
    assert c.view(1) != first and d.view(1) != first
    assert c.view(1)["history"][-1] == {"kind": "fold", "seat": 1}
    assert d.view(1)["history"][-1] == {"kind": "call", "seat": 1, "amount": 4}
    assert _same(h.view(1), _reference_view(h, 1))


# -- persistence ----------------------------------------------------------------------------


def test_to_dict_is_plain_json_with_schema_version():
    h = Hand(R, [100] * 3, seed=1)
    d = h.to_dict()
    assert d["schema_version"] == 1
    assert json.loads(json.dumps(d)) == d
    assert d["hands"][0] == list(h.hole_text(0))


def test_from_dict_continues_identically():
    rnd = random.Random(3)
    h = play_randomly(Hand(Rules.online(), [30, 50, 20, 100], seed=8), rnd, steps=9)
    saved = json.loads(json.dumps(h.to_dict()))
    h2 = Hand.from_dict(saved)
    h3 = h.copy()
    h4 = pickle.loads(pickle.dumps(h))
    assert h2.to_dict() == h.to_dict()
    play_randomly(h, rnd, each=also_on(h2, h3, h4))
    for x in (h2, h3, h4):
        assert x.to_dict() == h.to_dict()
        assert x.result == h.result


def test_copy_is_independent():
    h = Hand(R, [100] * 3, seed=1)
    c = h.copy()
    c.fold()
    assert not h.folded[0] and c.folded[0]
    assert h._deck is not c._deck


@pytest.mark.parametrize(
    "rules",
    [
        R,
        Rules(draw_procedure="declare-then-deal", reshuffle="pokerkit"),
        Rules(reshuffle="pokerstars", max_players=8),
    ],
)
def test_a_copy_shares_no_list_with_its_original_at_any_decision(rules: Rules) -> None:
    """``copy_state_into`` copies a list field as a new list, and the lists inside the
    ``NESTED`` fields too: every other list field holds no list (so sharing its items is
    safe), checked here at every decision; a copy equals its original and nothing a copy
    holds in a list is the original's list."""
    from triple_draw.game.state import FIELDS, NESTED

    rng = random.Random(11)
    for k in range(40):
        n = 2 + k % (rules.max_players - 1)
        h = Hand(rules, [60 + 7 * (j % 3) for j in range(n)], button=k % n, seed=k)

        def check(h: Hand, _a: object = None) -> None:
            c = h.copy()
            assert c.to_dict() == h.to_dict()
            for name in FIELDS:
                v = getattr(h, name)
                if type(v) is not list:
                    continue
                w = getattr(c, name)
                assert w is not v and w == v, name
                inner = [x for x in v if type(x) is list]
                if name in NESTED:
                    pairs = zip(v, w, strict=True)
                    assert all(a is not b for a, b in pairs if type(a) is list), name
                else:
                    assert not inner, f"{name} holds lists: add it to NESTED"

        check(h)
        play_randomly(h, rng, each=check, draw_heavy=0.5)


def test_from_dict_rejects_bad_documents():
    d = Hand(R, [100] * 3, seed=1).to_dict()
    with pytest.raises(SchemaError, match="schema_version"):
        Hand.from_dict({**d, "schema_version": 2})
    with pytest.raises(SchemaError, match="missing"):
        Hand.from_dict({k: v for k, v in d.items() if k != "hands"})
    bad = json.loads(json.dumps(d))
    bad["hands"][0][0] = bad["hands"][1][0]
    with pytest.raises(SchemaError, match=r"\$\.hands\[0\]\[0\]: the document has"):
        Hand.from_dict(bad)
    bad = json.loads(json.dumps(d))
    bad["stacks"][0] += 1
    with pytest.raises(SchemaError, match=r"\$\.stacks\[0\]: the document has 101"):
        Hand.from_dict(bad)
    with pytest.raises(SchemaError):
        Hand.from_dict("nope")  # type: ignore[arg-type]


# -- history ----------------------------------------------------------------------------------


def test_history_records_every_action_and_deal_immutably():
    h = Hand(R, [100] * 2, seed=1)
    to_draw(h)
    s = h.actor
    thrown = h.hole_text(s)[:2]
    h.discard(h.hole_ids(s)[:2])
    h.discard([])
    hist = h.history
    kinds = [e.kind for e in hist]
    assert kinds[:5] == ["post_small_blind", "post_big_blind", "deal", "deal", "begin_round"]
    disc = next(e for e in hist if e.kind == "discard" and e.seat == s)
    assert set(disc.cards) == set(thrown)
    drawn = [e for e in hist if e.kind == "draw"]
    assert len(drawn) == 1 and len(drawn[0].cards) == 2
    with pytest.raises(AttributeError):
        hist[0].seat = 3  # type: ignore[misc]
    assert [e.to_dict() for e in hist] == h.to_dict()["history"]


# -- card text at the edges (docs/cards.md) ----------------------------------------------------


def test_card_text_parsed_leniently_hidden_cards_allowed_where_unknown():
    from triple_draw import CardError
    from triple_draw.game.cards import to_ids, to_maybe_ids

    assert to_ids("7h5d4c3s2h") == to_ids("7H, 5d 4C,3s 2h") == [22, 13, 8, 7, 2]
    assert to_ids("10s Td") == [35, 33]
    assert to_maybe_ids("7h ?? 2c") == [22, None, 0]
    for bad in ("7x", "1h", "7", "Zz"):
        with pytest.raises(CardError, match="malformed"):
            to_ids(bad)
    with pytest.raises(CardError, match="hidden"):
        to_ids("7h ??")
    h = Hand(R, [100] * 2, hole_cards=["7H 5d,4c 3S 2h", "10s 9s 8s 7s 6s"], seed=1)
    assert h.hole_text(1) == ("Ts", "9s", "8s", "7s", "6s")


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda: Hand(Rules(), [100]), "2..6 players"),
        (lambda: Hand(Rules(), [100, -5]), "int > 0"),
        (lambda: Hand(Rules(), [100, 100], button=5), "button"),
        (lambda: Action("shove"), "unknown action kind"),
        (lambda: Table(Rules(), {9: 100}), "not a seat"),
    ],
)
def test_bad_setups_raise_the_package_argument_error(make, message) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ArgumentError, match=message) as info:
        make()
    assert isinstance(info.value, TripleDrawError) and isinstance(info.value, ValueError)


def may_raise_by_the_rules(h: Hand, s: int) -> bool:
    """The raise rule of docs/rules.md (*Betting*, *All-in for less*) worked out afresh
    from the hand's record, not read from the entry the engine keeps for it: the round is
    not capped, the betting is open to him (a short all-in he has answered did not
    reopen it), his chips exceed the call, and somebody else in the hand has chips."""
    from triple_draw.game.phase import CALL_ONLY

    capped = h._full_bets >= h._max_full_bets
    not_reopened = h._to_act[s] == CALL_ONLY  # set by the short all-in itself
    short = h._stacks[s] <= h._level - h._bet[s]
    alone = not any(h._live[j] and h._stacks[j] > 0 for j in range(h._n) if j != s)
    return not (capped or not_reopened or short or alone)


def test_the_bet_or_raise_rule_is_one_rule() -> None:
    """The raise rule the engine keeps (each seat's to-act entry, betting.close_raises)
    is the rule of docs/rules.md at every betting decision of many hands - short stacks,
    all-ins for less, every cap, heads-up uncapped in both forms, a reduced game - and
    every reader agrees with it: the listed legal actions, Hand.can_bet_or_raise /
    bet_or_raise_amount / facing_bet / to_call, raise_refusal (which only words why)
    and the view's legal actions."""
    from triple_draw.game.betting import raise_refusal

    def one_rule(h: Hand, *_: object) -> None:
        s = h.actor
        if s is None or h.in_draw:  # a betting decision only
            return
        legal = h.legal_actions()
        raise_to = legal[2].amount if len(legal) == 3 else None
        assert h.can_bet_or_raise() == may_raise_by_the_rules(h, s)
        assert h.can_bet_or_raise() == bool(raise_to) == (raise_refusal(h, s) == "")
        assert h.bet_or_raise_amount() == raise_to
        assert (legal[1].kind == "call") == h.facing_bet
        if h.facing_bet:
            assert legal[1].amount == h.bets[s] + h.to_call
        assert h.view(s)["legal_actions"] == [a.to_dict() for a in legal]
        why = raise_refusal(h, s)
        reasons.update(r for r in every_reason if r in why)

    every_reason = ("capped", "not reopened", "do not exceed the call", "every other player")
    reasons: set[str] = set()
    rnd = random.Random(3)
    for i in range(400):
        n = 2 + i % 5
        rules = Rules(
            raise_cap=1 + i % 4,
            short_all_in=("half-bet", "full-raise")[i % 2],
            heads_up_uncapped=(False, True, "action")[i % 3],
            big_blind_is_bet=i % 7 != 3,
        )
        if i % 11 == 5:  # a reduced game: at most three players
            rules = Rules.variant("medium", heads_up_uncapped=rules.heads_up_uncapped)
            n = 2 + i % 2
        h = Hand(rules, [rnd.choice([1, 2, 3, 7, 30, 100]) for _ in range(n)], i % n, i)
        one_rule(h)
        play_randomly(h, rnd, each=one_rule)  # at every betting decision
    assert reasons == set(every_reason)  # every reason a raise is refused was met


def test_apply_checks_an_action_listed_at_an_earlier_decision_again() -> None:
    """apply() performs the actions legal_actions() just listed without checking them again
    (docs/engine.md); an action listed at an earlier decision, of this hand or of another,
    is checked field by field: a stale one raises IllegalActionError and changes nothing."""
    h = Hand(R, [100] * 3, seed=2)
    first = h.legal_actions()
    raise_to_4 = first[2]
    assert (raise_to_4.kind, raise_to_4.amount) == ("raise", 4)
    h.apply(raise_to_4)  # listed at this decision: performed at once
    before = h.to_dict()
    for stale in (raise_to_4, first[1]):  # raise to 4 and call 2, now both wrong
        with pytest.raises(IllegalActionError):
            h.apply(stale)
        assert h.to_dict() == before
    h.legal_actions()  # listing again does not make an older action legal
    with pytest.raises(IllegalActionError):
        h.apply(raise_to_4)
    assert h.to_dict() == before
    other = Hand(R, [100] * 3, seed=3)
    while not other.in_draw:
        other.check_or_call()
    h.fold()
    h.check_or_call()
    assert h.in_draw
    mine = h.legal_actions()
    theirs = other.legal_actions()[0b11]  # two of another hand's cards
    before = h.to_dict()
    with pytest.raises(IllegalActionError):
        h.apply(theirs)
    assert h.to_dict() == before
    h.apply(mine[0b11], seat=h.actor)
    assert h.to_dict() != before


def test_an_action_listed_before_a_direct_call_is_checked_again() -> None:
    """The fast methods end the decision too: after ``check_or_call()`` (or ``fold()``,
    ``bet_or_raise()``) an action listed before it is no longer taken on trust."""
    for act in ("check_or_call", "fold", "bet_or_raise"):
        h = Hand(R, [100] * 4, seed=5)
        listed = h.legal_actions()
        getattr(h, act)()
        before = h.to_dict()
        stale_call = listed[1]  # call 2: the next seat faces the same bet only after a call
        if act == "bet_or_raise":
            with pytest.raises(IllegalActionError):
                h.apply(stale_call)
            assert h.to_dict() == before
        else:  # still legal for the next seat: performed, after being checked
            h.apply(stale_call)
            assert h.history[-1].kind == "call"
    h = Hand(R, [100] * 3, seed=5)
    listed = h.legal_actions()
    c = h.copy()  # a copy starts with nothing listed: the action is checked, and legal
    c.apply(listed[2])
    assert c.history[-1].kind == "raise" and h.history[-1].kind != "raise"
