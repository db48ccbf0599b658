"""Scenario tests of the draws and of running out of cards (docs/rules.md: *Draws*, *Running out
of cards*), including the reshuffle example of docs/rules.md (A, B and C draw 3, 2 and 1 with 4
cards left in the stub) card for card with a stacked deck, under both reshuffle rules
and both draw procedures."""

from __future__ import annotations

import random

import pytest

from triple_draw import Deck, IllegalActionError, SchemaError
from triple_draw.game import Hand, Rules
from conftest import partition_ok, play_randomly, reshuffle_example, to_draw

R = Rules()


# -- draws: order and procedure --------------------------------------------------------------


def test_draw_order_starts_left_of_button_and_includes_all_in_players():
    h = Hand(R, [100, 3, 100, 100], button=3, seed=2)  # SB 0, BB 1 (1 behind), 2, button 3
    h.check_or_call()  # 2
    h.fold()  # 3 (button) folds
    h.check_or_call()  # 0 completes
    h.bet_or_raise()  # 1 (big blind) raises all-in to 3
    h.check_or_call()  # 2
    h.check_or_call()  # 0
    assert h.in_draw and h.all_in[1]
    order = []
    while h.in_draw:
        order.append(h.actor)
        h.discard([])
    assert order == [0, 1, 2]


def test_declare_then_deal_replacements_dealt_after_everyone_declared():
    h = Hand(R, [100] * 3, button=2, seed=4)
    to_draw(h)
    stub = h._deck.stub_ids()
    a_cards = h.hole_ids(0)
    h.discard(a_cards[:2])
    assert len(h.hole_ids(0)) == 3  # declared, not yet served
    b_cards = h.hole_ids(1)
    h.discard(b_cards[:1])
    h.discard([])
    # dealt in the same order: A first from the top of the stub, then B
    assert h.hole_ids(0) == a_cards[2:] + tuple(stub[:2])
    assert h.hole_ids(1) == (*b_cards[1:], stub[2])
    assert h.phase == "bet" and h.street == 1


def test_immediate_option_deals_right_after_declaring():
    h = Hand(Rules(draw_procedure="immediate"), [100] * 3, button=2, seed=4)
    to_draw(h)
    stub = h._deck.stub_ids()
    a_cards = h.hole_ids(0)
    h.discard(a_cards[:2])
    assert h.hole_ids(0) == a_cards[2:] + tuple(stub[:2])


def test_draw_zero_to_five_cards_and_thirty_two_choices():
    h = Hand(R, [100] * 2, seed=4)
    to_draw(h)
    acts = h.legal_actions()
    assert len(acts) == 32 and all(a.kind == "discard" for a in acts)
    assert acts[0].cards == () and acts[-1].cards == tuple(sorted(h.hole_ids(h.actor)))
    h.discard(h.hole_ids(h.actor))  # all five
    assert h.draws(1) == (5,)


def test_standing_pat_keeps_the_right_to_draw_later():
    h = Hand(R, [100] * 2, seed=4)
    to_draw(h)
    h.discard([])
    h.discard([])
    to_draw(h)
    before = h.hole_ids(1)
    h.discard(before[:3])
    h.discard([])
    assert h.draws(1) == (0, 3)
    assert len(set(h.hole_ids(1)) & set(before)) == 2


def test_all_in_players_keep_drawing():
    h = Hand(R, [100, 100, 4], button=0, seed=9)  # seat 2 is the big blind, 2 behind
    h.bet_or_raise()  # 0 raises to 4
    h.check_or_call()  # 1 calls
    h.check_or_call()  # 2 calls all-in
    assert h.all_in[2]
    for _ in range(3):
        assert h.in_draw
        seats = []
        while h.in_draw:
            seats.append(h.actor)
            h.discard(h.hole_ids(h.actor)[:1])
        assert seats == [1, 2, 0]
        while h.phase == "bet":
            h.check_or_call()
    assert h.draws(2) == (1, 1, 1) and h.is_over


def test_number_drawn_is_public_cards_private():
    """rules.md *Draws*: how many cards each player drew is public; which cards he threw
    and got is his own information (his view shows them, nobody else's)."""
    from triple_draw.game.cards import CARD_TEXT

    h = Hand(R, [100] * 3, seed=4)
    to_draw(h)
    s = h.actor
    thrown = h.hole_ids(s)[:2]
    h.discard(thrown)
    h.discard([])
    h.discard([])
    got = [CARD_TEXT[c] for c in h.hole_ids(s)[-2:]]
    for viewer in range(3):
        v = h.view(viewer)
        assert v["players"][s]["draws"] == [2]
        text = repr(v)
        for c in (*[CARD_TEXT[c] for c in thrown], *got):
            assert (f"'{c}'" in text) == (viewer == s)
    mine = [CARD_TEXT[c] for c in thrown]
    evs = [e for e in h.view(s)["history"] if e["kind"] in ("discard", "draw") and e["seat"] == s]
    assert evs == [
        {"kind": "discard", "seat": s, "count": 2, "cards": mine},
        {"kind": "draw", "seat": s, "count": 2, "cards": got},
    ]
    assert h.view(s)["own_draws"] == [{"discarded": mine, "received": got}]
    other = (s + 1) % 3
    evs = [
        e for e in h.view(other)["history"] if e["kind"] in ("discard", "draw") and e["seat"] == s
    ]
    assert evs == [
        {"kind": "discard", "seat": s, "count": 2},
        {"kind": "draw", "seat": s, "count": 2},
    ]
    assert h.view(other)["own_draws"] == [{"discarded": [], "received": []}]


# -- running out of cards: the reshuffle example (draws of 3, 2, 1 from a stub of 4) -------


@pytest.mark.parametrize("procedure", ["declare-then-deal", "immediate"])
def test_reshuffle_default_rule_worked_reshuffle_example_card_for_card(procedure):
    h, order = reshuffle_example(Rules(draw_procedure=procedure))
    folded = [c for s in range(3, 8) for c in h.hole_ids(s)]
    earlier = list(h.discards(0) + h.discards(1) + h.discards(2))
    a_throw, b_throw, c_throw = h.hole_ids(0)[:3], h.hole_ids(1)[:2], h.hole_ids(2)[:1]
    a_keep, b_keep, c_keep = h.hole_ids(0)[3:], h.hole_ids(1)[2:], h.hole_ids(2)[1:]
    h.discard(a_throw)
    h.discard(b_throw)
    h.discard(c_throw)
    # the pool: folded cards, all earlier discards, A's 3 discards - not B's 2, not C's 1
    pool = folded + earlier + list(a_throw)
    assert not set(pool) & set(b_throw + c_throw)
    ref = Deck.stacked([], seed=99)
    ref.reshuffle(pool)
    new_stub = ref.stub_ids()
    assert h.hole_ids(0) == a_keep + tuple(order[48:51])  # A gets 3 from the stub
    assert h.hole_ids(1) == (*b_keep, order[51], new_stub[0])  # B: last stub card + 1
    assert h.hole_ids(2) == (*c_keep, new_stub[1])  # C's card from the new stub
    assert h._deck.stub_ids() == new_stub[2:]
    assert [(e.seat, e.amount) for e in h.history if e.kind == "reshuffle"] == [(1, 36)]
    assert partition_ok(h)


@pytest.mark.parametrize("procedure", ["declare-then-deal", "immediate"])
def test_reshuffle_pokerstars_option_same_situation_card_for_card(procedure):
    """docs/rules.md, *Running out of cards*, "pokerstars": the rest of the stub and every
    card out of play form the new stub; B's own discards in it are passed over for him
    and stay there, in order, for C."""
    h, order = reshuffle_example(Rules(reshuffle="pokerstars", draw_procedure=procedure))
    folded = [c for s in range(3, 8) for c in h.hole_ids(s)]
    earlier = list(h.discards(0) + h.discards(1) + h.discards(2))
    earlier_b, earlier_c = h.discards(1), h.discards(2)
    a_throw, b_throw, c_throw = h.hole_ids(0)[:3], h.hole_ids(1)[:2], h.hole_ids(2)[:1]
    a_keep, b_keep, c_keep = h.hole_ids(0)[3:], h.hole_ids(1)[2:], h.hole_ids(2)[1:]
    h.discard(a_throw)
    h.discard(b_throw)
    h.discard(c_throw)
    # A gets 3 from the stub; B (2 cards) cannot be covered by the 1 card left: the
    # rest of the stub and every card out of play (A's throw included) are shuffled
    assert h.hole_ids(0) == a_keep + tuple(order[48:51])
    ref = Deck.stacked([order[51]], seed=99)
    ref.reshuffle(folded + earlier + list(a_throw))
    new_stub = ref.stub_ids()
    assert len(new_stub) == 37
    b_gets = [c for c in new_stub if c not in earlier_b][:2]
    rest = [c for c in new_stub if c not in b_gets]
    c_gets = [c for c in rest if c not in earlier_c][:1]
    assert h.hole_ids(1) == (*b_keep, *b_gets)
    assert h.hole_ids(2) == (*c_keep, *c_gets)
    assert h._deck.stub_ids() == [c for c in rest if c not in c_gets]
    assert [(e.seat, e.amount) for e in h.history if e.kind == "reshuffle"] == [(1, 37)]
    assert not set(h.hole_ids(1)) & set(earlier_b + b_throw)
    assert not set(h.hole_ids(2)) & set(earlier_c + c_throw)
    assert partition_ok(h)


def test_pokerstars_later_player_passes_over_his_discards_in_a_stub_formed_for_another():
    """docs/rules.md, "pokerstars": C is dealt after B's reshuffle, from a stub formed for
    B. The stacked deck's stream (seed chosen so) puts one of C's earlier discards on top
    of that stub: C gets the first card that is not his, and his own card stays on top,
    in order, for the others."""
    rules = Rules.online()
    for seed in range(300):
        h, _order = reshuffle_example(rules, seed=seed)
        earlier_c = set(h.discards(2))
        h.discard(h.hole_ids(0)[:3])
        h.discard(h.hole_ids(1)[:2])  # B's reshuffle
        stub = h._deck.stub_ids()
        if stub[0] in earlier_c:
            break
    else:  # pragma: no cover - the seeds above hold such a stub
        raise AssertionError("no seed puts C's discard on top")
    c_keep = h.hole_ids(2)[1:]
    h.discard(h.hole_ids(2)[:1])
    first_other = next(c for c in stub if c not in earlier_c)
    assert h.hole_ids(2) == (*c_keep, first_other)
    assert h._deck.stub_ids() == [c for c in stub if c != first_other]
    assert partition_ok(h)


@pytest.mark.parametrize("procedure", ["declare-then-deal", "immediate"])
def test_pokerstars_served_player_passes_over_his_discards_on_top_of_the_stub(procedure):
    """docs/rules.md, "pokerstars": after a reshuffle, the stub is stacked (through the
    hand document) with the served player's own earlier discards on top: he gets the
    first cards that are not his, and his own stay on top, in order, for the others."""
    h, _order = reshuffle_example(Rules(reshuffle="pokerstars", draw_procedure=procedure))
    for s, k in ((0, 3), (1, 2), (2, 1)):
        h.discard(h.hole_ids(s)[:k])
    while h.phase == "bet":
        h.check_or_call()
    assert h.in_draw and any(e.kind == "reshuffle" for e in h.history)
    a_earlier = set(h.discards(0))
    doc = h.to_dict()
    stub = doc["deck"]["stub"]
    mine = [c for c in stub if c in a_earlier]
    assert len(mine) >= 2
    stacked = mine + [c for c in stub if c not in a_earlier]
    doc["deck"]["stub"] = stacked
    h = Hand.from_dict(doc)
    a_keep = h.hole_ids(0)[2:]
    h.discard(h.hole_ids(0)[:2])
    h.discard([])
    h.discard([])
    others = [c for c in stacked if c not in a_earlier]
    assert h.hole_ids(0) == (*a_keep, *others[:2])
    assert h._deck.stub_ids() == [c for c in stacked if c not in others[:2]]
    assert partition_ok(h)


def test_pokerstars_corner_case_only_his_own_discards_left_are_dealt_in_stub_order():
    """docs/rules.md, "pokerstars", the corner case: when, after the reshuffle has
    gathered everything out of play, the stub holds nothing but the served player's own
    discards, he is dealt them in stub order - the deal never fails. Heads-up; no legal
    play reaches this state (he would have to throw all 42 cards outside the two hands,
    and Hand.from_dict refuses it), so it is set up directly: the stub and the cards out
    of play are all his."""
    h = Hand(Rules.online(), [100, 100], seed=5)
    h.check_or_call()
    h.check_or_call()
    assert h.in_draw
    s = h.actor
    hands = set(h.hole_ids(0)) | set(h.hole_ids(1))
    outside = [c for c in range(52) if c not in hands]
    state = h._deck.get_state()
    state["stub"] = outside[:2]
    h._deck = type(h._deck).from_state(state)
    h._stub_n = 2
    h._out = outside[2:]
    # he threw every card outside the two hands earlier in this hand
    for i in range(0, len(outside), 5):
        h._log.append(("discard", s, None, tuple(outside[i : i + 5])))
    with pytest.raises(SchemaError):
        Hand.from_dict(h.to_dict())
    keep = h.hole_ids(s)[3:]
    h.discard(h.hole_ids(s)[:3])  # needs 3, the stub holds 2: a reshuffle of all 42
    assert [e.kind for e in h.history][-2:] == ["reshuffle", "draw"]
    new_stub = _reshuffled_stub(h)
    assert h.hole_ids(s) == (*keep, *new_stub[:3])
    assert partition_ok(h)


def _reshuffled_stub(h: Hand) -> list[int]:
    """The stub of ``h`` after its last reshuffle, rebuilt from its history: the stub now
    plus every card dealt since, in order (for the order checks above)."""
    events = list(h.history)
    last = max(i for i, e in enumerate(events) if e.kind == "reshuffle")
    dealt = [c for e in events[last:] if e.kind == "draw" for c in e.cards or ()]
    from triple_draw.game.cards import to_ids

    return [*to_ids(dealt), *h._deck.stub_ids()]


@pytest.mark.parametrize("reshuffle", ["served-discards", "pokerstars"])
@pytest.mark.parametrize("procedure", ["declare-then-deal", "immediate"])
def test_deck_runs_out_twice_in_one_draw_eight_players(reshuffle, procedure):
    rules = Rules(max_players=8, reshuffle=reshuffle, draw_procedure=procedure)
    h = Hand(rules, [100] * 8, button=7, seed=11)
    to_draw(h)
    thrown = {}
    while h.in_draw:
        s = h.actor
        thrown[s] = set(h.hole_ids(s))
        h.discard(h.hole_ids(s))  # everyone draws five
        assert partition_ok(h)
    for s in range(8):
        assert not set(h.hole_ids(s)) & thrown[s]  # nobody gets his own discards back
        assert len(h.hole_ids(s)) == 5
    assert sum(e.kind == "reshuffle" for e in h.history) >= 2
    assert partition_ok(h)


@pytest.mark.parametrize("reshuffle", ["served-discards", "pokerstars"])
def test_deal_never_fails_up_to_eight_players_drawing_five_every_draw(reshuffle):
    rules = Rules(max_players=8, reshuffle=reshuffle)
    for seed in range(20):
        h = Hand(rules, [200] * 8, button=seed % 8, seed=seed)
        while not h.is_over:
            if h.in_draw:
                s = h.actor
                before = set(h.hole_ids(s))
                h.discard(h.hole_ids(s))
                if rules.draw_procedure == "immediate":
                    assert not set(h.hole_ids(s)) & before
            else:
                h.check_or_call()
            assert partition_ok(h)
        assert len(h.result.showdown) == 8


def test_reshuffle_served_discards_can_return_a_card_thrown_in_an_earlier_draw():
    rules = Rules(max_players=8)
    for seed in range(40):
        h = Hand(rules, [200] * 8, seed=seed)
        got_back = False
        earlier: dict[int, set[int]] = {s: set() for s in range(8)}
        while not h.is_over:
            if h.in_draw:
                s = h.actor
                cards = h.hole_ids(s)
                h.discard(cards)
                earlier[s] |= set(cards)
            else:
                h.check_or_call()
        for s in range(8):
            if set(h.hole_ids(s)) & (earlier[s] - set(h.discards(s)[-5:])):
                got_back = True
        if got_back:
            return
    pytest.fail("no player ever got back a card from an earlier draw")


# -- given replacement cards (replays) ----------------------------------------------------


def recorded(h: Hand) -> tuple[list, dict[int, list[list[str]]]]:
    """The deal of a hand as given cards: each seat's hole cards, and per seat the
    replacements of each of his draws in the order dealt."""
    hole: list = [None] * h.n_players
    draws: dict[int, list[list[str]]] = {s: [] for s in range(h.n_players)}
    for e in h.history:
        if e.kind == "deal":
            hole[e.seat] = list(e.cards)
        elif e.kind == "draw":
            draws[e.seat].append(list(e.cards))
    return hole, draws


def replay(h: Hand, seed: int | None = None, deck: Deck | None = None) -> Hand:
    """Replay ``h`` action by action with its recorded cards given (hole cards, and
    ``receive=`` at every discard), under its own rules."""
    hole, draws = recorded(h)
    if deck is None:
        r = Hand(h.rules, list(h.starting_stacks), h.button, seed, hole_cards=hole)
    else:
        r = Hand(h.rules, list(h.starting_stacks), h.button, hole_cards=hole, deck=deck)
    for e in h.history:
        if e.kind == "fold":
            r.fold()
        elif e.kind in ("check", "call"):
            r.check_or_call()
        elif e.kind in ("bet", "raise"):
            r.bet_or_raise()
        elif e.kind == "discard":
            got = draws[e.seat].pop(0) if e.cards and draws[e.seat] else None
            r.discard(list(e.cards), receive=got if e.cards else [])
    return r


def test_discard_with_given_replacements_from_the_stub():
    h = Hand(R, [100] * 2, seed=4)
    to_draw(h)
    stub = h._deck.stub_ids()
    s = h.actor
    keep = h.hole_ids(s)[2:]
    h.discard(h.hole_ids(s)[:2], receive=[stub[10], None])
    h.discard([])
    assert h.hole_ids(s) == (*keep, stub[10], stub[0])
    assert partition_ok(h)


@pytest.mark.parametrize("reshuffle", ["served-discards", "pokerstars"])
@pytest.mark.parametrize("procedure", ["declare-then-deal", "immediate"])
def test_replay_of_worked_reshuffle_example_with_given_cards(reshuffle, procedure):
    """The reshuffle example played by the engine, then replayed with its recorded cards given: the
    reshuffle happens at the same point (B's service) from the same pool, so the hand
    ends in exactly the same state - deck stub and stream position included."""
    rules = Rules(draw_procedure=procedure, reshuffle=reshuffle)
    h, order = reshuffle_example(rules)
    for s, k in ((0, 3), (1, 2), (2, 1)):
        h.discard(h.hole_ids(s)[:k])
    shuffles = [(e.seat, e.amount) for e in h.history if e.kind == "reshuffle"]
    assert shuffles == [(1, 36 if reshuffle == "served-discards" else 37)]
    r = replay(h, deck=Deck.stacked(order, seed=99))
    assert r.history == h.history
    assert r.to_dict() == h.to_dict()


@pytest.mark.parametrize("procedure", ["declare-then-deal", "immediate"])
def test_given_card_from_the_reshuffle_pool_served_discards(procedure):
    """The default rule: B gets the last stub card, then a card of the new stub - which
    may be one A threw in this same draw (A was served before him); C cannot get B's
    discard (not in the pool) nor his own."""
    h, order = reshuffle_example(Rules(draw_procedure=procedure))
    a_throw, b_throw, c_throw = h.hole_ids(0)[:3], h.hole_ids(1)[:2], h.hole_ids(2)[:1]
    h.discard(a_throw)
    h.discard(b_throw, receive=[order[51], a_throw[0]])
    before = h.to_dict()
    for bad, why in ((b_throw[0], "out of play"), (c_throw[0], "he discarded it")):
        with pytest.raises(IllegalActionError, match=rf"seat 2 cannot receive \w\w: .*{why}"):
            h.discard(c_throw, receive=[bad])
        assert h.to_dict() == before
    h.discard(c_throw, receive=[a_throw[1]])
    assert h.hole_ids(1)[-2:] == (order[51], a_throw[0])
    assert h.hole_ids(2)[-1] == a_throw[1]
    assert [(e.seat, e.amount) for e in h.history if e.kind == "reshuffle"] == [(1, 36)]
    assert len(h._deck) == 34 and partition_ok(h)


@pytest.mark.parametrize("procedure", ["declare-then-deal", "immediate"])
def test_given_card_from_the_reshuffle_pool_pokerstars(procedure):
    """ "pokerstars": B cannot be covered by the one stub card, so the rest of the stub
    and everything out of play are shuffled before he is served: A's discards of this
    draw may come to him, his own discard of the first draw (in the new stub) may not."""
    h, order = reshuffle_example(Rules(reshuffle="pokerstars", draw_procedure=procedure))
    earlier_b = h.discards(1)
    a_throw, b_throw = h.hole_ids(0)[:3], h.hole_ids(1)[:2]
    h.discard(a_throw)
    before = h.to_dict()
    with pytest.raises(IllegalActionError, match="he discarded it earlier in this hand"):
        h.discard(b_throw, receive=[a_throw[0], earlier_b[0]])
    assert h.to_dict() == before
    h.discard(b_throw, receive=[a_throw[0], order[51]])
    h.discard(h.hole_ids(2)[:1])
    assert h.hole_ids(1)[-2:] == (a_throw[0], order[51])
    assert [(e.seat, e.amount) for e in h.history if e.kind == "reshuffle"] == [(1, 37)]
    assert partition_ok(h)


@pytest.mark.parametrize("procedure", ["declare-then-deal", "immediate"])
def test_illegal_given_cards_are_rejected_and_change_nothing(procedure):
    h = Hand(Rules(draw_procedure=procedure), [100] * 3, button=2, seed=4)
    h.fold()  # seat 2 folds: his cards are out of play, the stub covers every draw
    folded = h.hole_ids(2)
    h.check_or_call()
    h.check_or_call()
    assert h.in_draw and h.actor == 0
    stub = h._deck.stub_ids()
    mine, other = h.hole_ids(0), h.hole_ids(1)
    before = h.to_dict()
    cases = [
        (1, [other[0]], "seat 0 cannot receive .*: seat 1 holds it"),
        (1, [mine[4]], "seat 0 cannot receive .*: he holds it"),
        (1, [mine[0]], "seat 0 cannot receive .*: he discarded it in this draw"),
        (2, [stub[0], mine[1]], "seat 0 cannot receive .*: he discarded it in this draw"),
        (1, [folded[0]], "out of play and the stub still holds 37 cards"),
        (2, [stub[0], stub[0]], "receive lists a card twice"),
        (1, [stub[0], stub[1]], "discards 1 cards but receive lists 2"),
        (1, "Zz", "bad receive"),
    ]
    for k, receive, why in cases:
        with pytest.raises(IllegalActionError, match=why):
            h.discard(mine[:k], receive=receive)
        assert h.to_dict() == before
    # legal: any stub card, not only the top one
    h.discard(mine[:1], receive=[stub[5]])
    # the next player cannot get it too; nor the card the first one threw (out of play)
    before = h.to_dict()
    for receive in ([stub[5]], [mine[0]]):
        with pytest.raises(IllegalActionError, match="seat 1 cannot receive"):
            h.discard(other[:1], receive=receive)
        assert h.to_dict() == before
    h.discard(other[:1], receive=[stub[0]])
    assert h.hole_ids(0)[-1] == stub[5] and h.hole_ids(1)[-1] == stub[0]
    assert partition_ok(h)


def test_given_cards_wait_for_the_deal_and_survive_a_saved_state():
    """Declare-then-deal: a given card stays in the stub until the replacements are
    dealt (the partition holds meanwhile); a hand saved in between continues alike."""
    h = Hand(R, [100] * 3, button=2, seed=4)
    to_draw(h)
    stub = h._deck.stub_ids()
    h.discard(h.hole_ids(0)[:2], receive=[stub[7], stub[3]])
    assert stub[7] in h._deck.stub_ids() and partition_ok(h)
    saved = Hand.from_dict(h.to_dict())
    assert saved.to_dict() == h.to_dict()
    for x in (h, saved):
        x.discard(x.hole_ids(1)[:1])
        x.discard([])
    assert saved.to_dict() == h.to_dict()
    assert h.hole_ids(0)[-2:] == (stub[7], stub[3])
    assert h.hole_ids(1)[-1] == stub[0]  # the top card: the given ones were taken out


RULE_COMBOS = [
    Rules(max_players=8, draw_procedure=p, reshuffle=r)
    for p in ("declare-then-deal", "immediate")
    for r in ("served-discards", "pokerstars")
]


@pytest.mark.parametrize("rules", RULE_COMBOS, ids=lambda r: f"{r.draw_procedure}/{r.reshuffle}")
def test_every_engine_hand_replays_card_for_card_with_given_cards(rules):
    """Property: a hand the engine plays itself replays with its recorded deal given
    (hole cards, and ``receive=`` at every draw) to exactly the same state. With the
    same seed nothing differs, the deck included; with another seed only the deck state
    does (its key, stream position, and so the order of the stub after a reshuffle), the
    stub holding the same cards - the deck's stream is the only thing a given card does
    not decide."""
    reshuffled = 0
    for seed in range(150):
        n = 2 + seed % 7
        rng = random.Random(seed)
        h = Hand(rules, [rng.choice([30, 200]) for _ in range(n)], rng.randrange(n), seed)
        # some hands stop anywhere (mid-draw too): the state so far must match
        steps = None if seed % 4 else 5 + seed % 40
        play_randomly(h, rng, weight=6, discard_each=0.3 if seed % 3 else 0.8, steps=steps)
        reshuffled += any(e.kind == "reshuffle" for e in h.history)
        same = replay(h, seed)
        assert same.to_dict() == h.to_dict(), seed
        other = replay(h, seed + 1000).to_dict()
        mine = h.to_dict()
        assert sorted(other.pop("deck")["stub"]) == sorted(mine.pop("deck")["stub"])
        assert other == mine, seed
    assert reshuffled >= 50


@pytest.mark.parametrize("procedure", ["declare-then-deal", "immediate"])
def test_pokerstars_eight_players_drawing_five_and_the_replay(procedure):
    """8 players drawing five every time under "pokerstars": nobody is ever dealt a card
    he threw earlier in the hand, and a replay with the given cards accepts every deal."""
    rules = Rules(max_players=8, reshuffle="pokerstars", draw_procedure=procedure)
    for seed in range(4):
        h = Hand(rules, [200] * 8, button=seed, seed=seed)
        while not h.is_over:
            if h.in_draw:
                h.discard(h.hole_ids(h.actor))
            else:
                h.check_or_call()
        for s in range(8):
            assert not set(h.hole_ids(s)) & set(h.discards(s))
        assert sum(e.kind == "reshuffle" for e in h.history) >= 2
        assert replay(h, seed).to_dict() == h.to_dict()


def test_given_hole_cards_with_unknowns_dealt_from_the_rest():
    h = Hand(R, [100] * 3, hole_cards=["7h 5d 4c 3s 2h", None, "As ?? ?? Kd ??"], seed=3)
    assert h.hole_text(0) == ("7h", "5d", "4c", "3s", "2h")
    assert h.hole_text(2)[0] == "As" and h.hole_text(2)[3] == "Kd"
    assert partition_ok(h)
    given = {"7h", "5d", "4c", "3s", "2h", "As", "Kd"}
    assert not given & set(h.hole_text(1))


def test_given_hole_cards_must_be_available_and_distinct():
    from triple_draw import CardError

    with pytest.raises(CardError, match="7h"):
        Hand(R, [100] * 2, hole_cards=["7h 5d 4c 3s 2h", "7h 6d 8c 9s Th"], seed=3)
    with pytest.raises(CardError, match="5 cards"):
        Hand(R, [100] * 2, hole_cards=["7h 5d 4c 3s", None], seed=3)
    with pytest.raises(CardError, match="not available"):
        Hand(
            R,
            [100] * 2,
            hole_cards=["7h 5d 4c 3s 2h", None],
            deck=Deck.stacked(list(range(20)), seed=1),
        )


def test_withheld_cards_never_dealt_at_random_but_given_later():
    """A replay with unknown hole cards must not deal at random a card the record shows
    being drawn later: such cards are withheld until given."""
    later = ["As", "Ks", "Qs", "Js", "Ts", "9s", "8s"]
    for seed in range(30):
        h = Hand(R, [100] * 6, hole_cards=[None] * 6, withhold=" ".join(later), seed=seed)
        for s in range(6):
            assert not set(h.hole_text(s)) & set(later)
        assert partition_ok(h)
    to_draw(h)
    s = h.actor
    h.discard(h.hole_ids(s)[:2], receive=["As", "??"])
    while h.in_draw:  # 2 + 5 * 2 cards: the 15 not withheld cover them
        h.discard(h.hole_ids(h.actor)[:2])
    assert "As" in h.hole_text(s)
    assert partition_ok(h)
    for x in range(6):
        assert not set(h.hole_text(x)) & set(later[1:])
    assert Hand.from_dict(h.to_dict()).to_dict() == h.to_dict()


def test_pokerstars_player_gets_his_own_discards_back_at_eight_players() -> None:
    """docs/rules.md, *Reshuffles*: at eight players, seven standing pat and one throwing
    five at every draw, the new stub of the third draw holds only his own earlier
    discards, and he is dealt three of them back (7s 3h 8h)."""
    from triple_draw import Hand, Rules

    h = Hand(Rules(reshuffle="pokerstars", max_players=8), [100] * 8, button=7, seed=5)
    thrown: set[int] = set()
    while not h.is_over:
        if h.in_draw:
            mine = list(h.hole_ids(0)) if h.actor == 0 else []
            thrown |= set(mine)
            h.discard(mine)
        else:
            h.check_or_call()
    again = [c for c in h.hole_ids(0) if c in thrown]
    assert len(again) == 3
    assert {"7s", "3h", "8h"} <= set(h.hole_text(0))
