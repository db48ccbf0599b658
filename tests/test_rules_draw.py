"""Scenario tests of RULES.md §5 (the draws) and §5.1 (running out of cards), including
the worked example §8.7 card for card with a stacked deck, under both reshuffle rules
and both draw procedures."""

from __future__ import annotations

import random

import pytest

from triple_draw import Deck, IllegalActionError
from triple_draw.game import Hand, Rules

R = Rules()


def partition_ok(h: Hand) -> bool:
    p = h._card_partition()
    return sorted(p["hands"] + p["stub"] + p["out_of_play"]) == list(range(52))


def to_draw(h: Hand) -> None:
    while not h.in_draw:
        h.check_or_call()


# -- §5 order and procedure ------------------------------------------------------------------


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
    h = Hand(R, [100] * 3, seed=4)
    to_draw(h)
    s = h.actor
    thrown = h.hole_ids(s)[:2]
    h.discard(thrown)
    h.discard([])
    h.discard([])
    for viewer in range(3):
        v = h.view(viewer)
        assert v["players"][s]["draws"] == [2]
        text = repr(v)
        for c in thrown:
            from triple_draw.game.cards import CARD_TEXT

            assert f"'{CARD_TEXT[c]}'" not in text
    evs = [e for e in h.view(0)["history"] if e["kind"] in ("discard", "draw") and e["seat"] == s]
    assert evs == [
        {"kind": "discard", "seat": s, "count": 2},
        {"kind": "draw", "seat": s, "count": 2},
    ]


# -- §5.1 running out of cards: the worked example §8.7 ------------------------------------


def example_8_7(rules: Rules):
    """Eight seats (option: up to 8): A=0 SB, B=1 BB, C=2; seats 3-7 fold before the draw.
    Draw 1: A, B, C throw 3, 3, 2, leaving 4 cards in the stub. Draw 2: A, B, C throw
    3, 2, 1. Returns the hand before draw 2 and the stacked order."""
    order = list(range(52))
    random.Random(3).shuffle(order)
    h = Hand(rules.replace(max_players=8), [100] * 8, button=7, deck=Deck.stacked(order, seed=99))
    h.check_or_call()  # C
    for _ in range(5):
        h.fold()
    h.check_or_call()  # A completes
    h.check_or_call()  # B checks
    for s, k in ((0, 3), (1, 3), (2, 2)):
        assert h.actor == s
        h.discard(h.hole_ids(s)[:k])
    while h.phase == "bet":
        h.check_or_call()
    assert h.in_draw and len(h._deck) == 4
    return h, order


@pytest.mark.parametrize("procedure", ["declare-then-deal", "immediate"])
def test_reshuffle_default_rule_worked_example_8_7_card_for_card(procedure):
    h, order = example_8_7(Rules(draw_procedure=procedure))
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
    h, order = example_8_7(Rules(reshuffle="pokerstars", draw_procedure=procedure))
    folded = [c for s in range(3, 8) for c in h.hole_ids(s)]
    earlier_a, earlier_b, earlier_c = h.discards(0), h.discards(1), h.discards(2)
    a_throw, b_throw, c_throw = h.hole_ids(0)[:3], h.hole_ids(1)[:2], h.hole_ids(2)[:1]
    b_keep, c_keep = h.hole_ids(1)[2:], h.hole_ids(2)[1:]
    h.discard(a_throw)
    h.discard(b_throw)
    h.discard(c_throw)
    # B cannot be covered by the 1 card left: the rest of the stub and every card out of
    # play are shuffled, without any card B discarded in this hand
    pool = folded + list(earlier_a) + list(earlier_c) + list(a_throw)
    ref = Deck.stacked([order[51]], seed=99)
    ref.reshuffle(pool)
    new_stub = ref.stub_ids()
    assert len(new_stub) == 34
    assert h.hole_ids(1) == b_keep + tuple(new_stub[:2])
    assert h.hole_ids(2) == (*c_keep, new_stub[2])
    assert h._deck.stub_ids() == new_stub[3:]
    assert not set(h.hole_ids(1)) & set(earlier_b + b_throw)
    assert set(earlier_b) <= set(h._card_partition()["out_of_play"])
    assert partition_ok(h)


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


def test_given_replacement_must_be_available():
    h = Hand(R, [100] * 2, seed=4)
    to_draw(h)
    s = h.actor
    other = 1 - s
    mine = h.hole_ids(s)
    before = h.to_dict()
    with pytest.raises(IllegalActionError, match="not available"):
        h.discard(mine[:1], receive=[h.hole_ids(other)[0]])
    with pytest.raises(IllegalActionError, match="discarded it"):
        h.discard(mine[:1], receive=[mine[0]])
    with pytest.raises(IllegalActionError, match="receive lists 2"):
        h.discard(mine[:1], receive=[None, None])
    with pytest.raises(IllegalActionError, match="bad receive"):
        h.discard(mine[:1], receive="Zz")
    assert h.to_dict() == before


def test_given_replacement_may_come_from_the_pool_out_of_play():
    h = Hand(R, [100] * 3, seed=4)
    h.fold()  # seat 0 folds: his cards are out of play
    folded = h.hole_ids(0)
    h.check_or_call()
    h.check_or_call()
    s = h.actor
    h.discard(h.hole_ids(s)[:1], receive=[folded[0]])
    h.discard([])
    assert folded[0] in h.hole_ids(s)
    assert partition_ok(h)


def test_given_replacement_pokerstars_never_returns_own_earlier_discard():
    rules = Rules.online()
    h = Hand(rules, [100] * 2, seed=4)
    to_draw(h)
    s = h.actor
    first = h.hole_ids(s)[0]
    h.discard([first])
    h.discard([])
    to_draw(h)
    with pytest.raises(IllegalActionError, match="discarded it"):
        h.discard(h.hole_ids(s)[:1], receive=[first])


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
    while h.in_draw:
        h.discard(h.hole_ids(h.actor)[:3])
    assert "As" in h.hole_text(s)
    assert partition_ok(h)
    for x in range(6):
        assert not set(h.hole_text(x)) & set(later[1:])
    assert Hand.from_dict(h.to_dict()).to_dict() == h.to_dict()
