"""Scenario tests of the table, stakes and blinds and of fixed-limit betting (docs/rules.md: *Seats
and forced bets*, *Betting*, *All-in for less*), including worked examples of the cap and
of short all-ins. Seats are named A, B, C... clockwise from the small blind in the
comments."""

from __future__ import annotations

import random

import pytest

from triple_draw import IllegalActionError, RulesError, phh
from triple_draw.game import Action, Hand, Rules
from triple_draw.game.betting import raise_refusal
from conftest import random_action

R = Rules()  # 1/2 blinds, 2/4 limits


def kinds(h: Hand) -> list[tuple[str, int | None]]:
    return [(a.kind, a.amount) for a in h.legal_actions()]


def stand_pat_all(h: Hand) -> None:
    """Everyone stands pat in the current draw."""
    assert h.in_draw
    while h.in_draw:
        h.discard([])


def check_round(h: Hand) -> None:
    """Everyone checks (or calls) the current round through."""
    r = h.street
    while h.phase == "bet" and h.street == r:
        h.check_or_call()


def to_round(h: Hand, r: int) -> None:
    """Check/call and stand pat until betting round ``r`` starts."""
    while not (h.phase == "bet" and h.street == r):
        if h.in_draw:
            h.discard([])
        else:
            h.check_or_call()


# -- blinds and seats ------------------------------------------------------------------


def test_blinds_small_left_of_button_big_next():
    h = Hand(R, [100] * 4, button=1, seed=1)
    assert (h.small_blind_seat, h.big_blind_seat) == (2, 3)
    assert h.bets == (0, 0, 1, 2)
    assert h.actor == 0  # first left of the big blind
    assert h.to_call == 2


def test_heads_up_button_posts_small_blind_and_acts_first_before_draw():
    h = Hand(R, [100, 100], button=1, seed=1)
    assert (h.small_blind_seat, h.big_blind_seat) == (1, 0)
    assert h.bets == (2, 1)
    assert h.actor == 1  # the button acts first before the first draw
    h.check_or_call()
    assert h.actor == 0 and kinds(h) == [("fold", None), ("check", None), ("raise", 4)]
    h.check_or_call()
    # the big blind draws first, then acts first after every draw
    for r in (1, 2, 3):
        assert h.in_draw and h.actor == 0
        h.discard([])
        assert h.actor == 1
        h.discard([])
        assert h.phase == "bet" and h.street == r and h.actor == 0
        check_round(h)
    assert h.is_over


def test_deal_one_card_at_a_time_clockwise_from_small_blind():
    from triple_draw import Deck

    order = list(range(52))
    h = Hand(R, [100] * 3, button=0, deck=Deck.stacked(order, seed=1))
    # seat 1 is the small blind: he gets cards 0, 3, 6, 9, 12
    assert h.hole_ids(1) == (0, 3, 6, 9, 12)
    assert h.hole_ids(2) == (1, 4, 7, 10, 13)
    assert h.hole_ids(0) == (2, 5, 8, 11, 14)


def test_short_big_blind_all_in_does_not_lower_the_price():
    h = Hand(R, [100, 100, 1], button=0, seed=1)  # seat 2 is the big blind with 1 chip
    assert h.bets == (0, 1, 1) and h.all_in[2]
    assert h.actor == 0 and h.to_call == 2
    assert kinds(h) == [("fold", None), ("call", 2), ("raise", 4)]


def test_short_small_blind_posts_what_he_has():
    h = Hand(R, [100, 1, 100, 100], button=0, seed=1)
    assert h.bets[1] == 1 and h.stacks[1] == 0 and h.all_in[1]
    h2 = Hand(
        Rules(small_blind=2, big_blind=4, small_bet=4, big_bet=8), [100, 1, 100], button=0, seed=1
    )
    assert h2.bets == (0, 1, 4) and h2.all_in[1]


def test_ante_posted_by_everyone_short_ante_is_all_in():
    rules = Rules(ante=2)
    h = Hand(rules, [100, 1, 100, 100], button=0, seed=1)
    assert h.committed == (2, 1, 4, 2)  # seat 1 (small blind) is all-in for his ante
    assert h.all_in[1] and h.bets[1] == 0
    assert h.pot == 9
    assert h.actor == 3 and h.to_call == 2  # antes are dead money, not part of the bet


def test_stakes_are_integers_no_floats():
    with pytest.raises(ValueError):
        Hand(R, [100, 50.5], seed=1)  # type: ignore[list-item]


# -- betting: who acts first and the choices -------------------------------------------


def test_round_one_first_left_of_big_blind_rounds_two_to_four_first_left_of_button():
    h = Hand(R, [100] * 5, button=2, seed=1)  # SB 3, BB 4
    assert h.actor == 0
    check_round(h)
    stand_pat_all(h)
    assert h.street == 1 and h.actor == 3  # first left of the button


def test_first_to_act_after_draw_skips_folded_players():
    h = Hand(R, [100] * 4, button=0, seed=1)  # SB 1, BB 2, first 3
    h.check_or_call()  # 3
    h.check_or_call()  # 0 (button)
    h.fold()  # 1 (small blind) folds
    h.check_or_call()  # 2 checks
    assert h.in_draw and h.actor == 2  # the first player still in, left of the button
    stand_pat_all(h)
    assert h.actor == 2


def test_choices_check_or_bet_without_a_bet_and_fold_call_raise_facing_one():
    h = Hand(R, [100] * 3, seed=1)
    to_round(h, 1)
    assert kinds(h) == [("fold", None), ("check", None), ("bet", 2)]
    h.bet_or_raise()
    assert kinds(h) == [("fold", None), ("call", 2), ("raise", 4)]


def test_fold_allowed_when_check_possible():
    h = Hand(R, [100] * 3, seed=1)
    to_round(h, 1)
    s = h.actor
    h.apply(Action("fold"))
    assert h.folded[s]


def test_big_blind_option_to_raise_when_everyone_calls():
    h = Hand(R, [100] * 4, button=0, seed=1)
    h.check_or_call()
    h.check_or_call()
    h.check_or_call()  # small blind completes
    assert h.actor == 2 and h.phase == "bet" and h.street == 0
    assert kinds(h) == [("fold", None), ("check", None), ("raise", 4)]
    h.bet_or_raise()
    assert h.actor == 3 and h.to_call == 2


def test_round_ends_when_all_checked():
    h = Hand(R, [100] * 3, seed=1)
    to_round(h, 1)
    check_round(h)
    assert h.in_draw and h.street == 1


def test_bet_and_raise_are_exactly_one_unit_small_bet_then_big_bet():
    h = Hand(R, [100] * 2, seed=1)
    for r, unit in ((1, 2), (2, 4), (3, 4)):
        to_round(h, r)
        h.bet_or_raise()
        assert h.bet_level == unit
        h.bet_or_raise()
        assert h.bet_level == 2 * unit
        h.check_or_call()


# -- betting: the cap -------------------------------------------------------------------


def test_cap_before_the_draw():
    """Five players, big blind 2: raise to 4, re-raise to 6, cap at 8; the blinds may
    only call 6 or 7 more, or fold."""
    h = Hand(R, [100] * 5, button=4, seed=1)  # A=0 SB, B=1 BB, C, D, E
    h.bet_or_raise()  # C to 4
    h.bet_or_raise()  # D to 6
    h.bet_or_raise()  # E caps at 8
    assert h.bet_level == 8 and not h.can_bet_or_raise()
    assert h.actor == 0 and kinds(h) == [("fold", None), ("call", 8)] and h.to_call == 7
    before = h.to_dict()
    with pytest.raises(IllegalActionError, match="capped"):
        h.bet_or_raise()
    assert h.to_dict() == before
    h.check_or_call()
    assert h.actor == 1 and h.to_call == 6 and kinds(h) == [("fold", None), ("call", 8)]


@pytest.mark.parametrize("r,unit", [(1, 2), (2, 4), (3, 4)])
def test_cap_one_bet_and_three_raises_in_rounds_two_to_four(r, unit):
    h = Hand(R, [200] * 3, seed=1)
    to_round(h, r)
    for _ in range(4):  # bet, raise, re-raise, cap
        h.bet_or_raise()
    assert h.bet_level == 4 * unit and not h.can_bet_or_raise()
    assert [a.kind for a in h.legal_actions()] == ["fold", "call"]


def test_cap_option_big_blind_not_counted_as_the_bet():
    """PokerKit's counting: four raises over the big blind before the first draw, and
    still a bet and three raises after each draw."""
    rules = Rules(big_blind_is_bet=False)
    h = Hand(rules, [200] * 6, seed=1)
    for _ in range(4):
        h.bet_or_raise()
    assert h.bet_level == 10 and h.raises == 4 and not h.can_bet_or_raise()
    before = h.to_dict()
    with pytest.raises(IllegalActionError, match=r"capped \(4 raises over the big blind\)"):
        h.bet_or_raise()
    assert h.to_dict() == before
    to_round(h, 1)
    for _ in range(4):
        h.bet_or_raise()
    assert h.bet_level == 8 and not h.can_bet_or_raise()
    with pytest.raises(IllegalActionError, match=r"capped \(3 raises over the bet\)"):
        h.bet_or_raise()
    assert Rules.pokerkit() == Rules(
        big_blind_is_bet=False, short_all_in="full-raise", burn_cards=True, reshuffle="pokerkit"
    )


def test_cap_option_number_of_raises_wsop_four():
    rules = Rules.wsop()
    assert rules.raise_cap == 4
    h = Hand(rules, [200] * 5, seed=1)
    for _ in range(4):
        h.bet_or_raise()
    assert h.bet_level == 10 and not h.can_bet_or_raise()
    to_round(h, 1)
    for _ in range(5):
        h.bet_or_raise()
    assert h.bet_level == 10 and not h.can_bet_or_raise()


def test_cap_applies_heads_up_by_default():
    h = Hand(R, [200, 200], seed=1)
    for _ in range(3):
        h.bet_or_raise()
    assert h.bet_level == 8 and not h.can_bet_or_raise()


def test_cap_option_heads_up_uncapped():
    h = Hand(Rules(heads_up_uncapped=True), [200, 200], seed=1)
    for _ in range(20):
        h.bet_or_raise()
    assert h.bet_level == 42 and h.can_bet_or_raise()


def test_cap_option_heads_up_uncapped_when_round_starts_with_two_players():
    h = Hand(Rules(heads_up_uncapped=True), [300] * 3, seed=1)
    for _ in range(3):
        h.bet_or_raise()
    assert not h.can_bet_or_raise()  # three players: capped
    h.fold()
    h.check_or_call()
    stand_pat_all(h)
    for _ in range(10):  # the round started with two players: no cap
        h.bet_or_raise()
    assert h.can_bet_or_raise()


def test_robert_heads_up_action_lifts_the_cap_when_a_fold_leaves_two_players():
    """Robert's Rules of Poker: there is no cap on raises once the action becomes heads-up
    before the raising is capped - not only in a round that starts with two players."""
    for hu, raises in ((False, 2), (True, 2), ("round", 2), ("action", 12)):
        h = Hand(Rules(heads_up_uncapped=hu), [300] * 3, button=0, seed=1)
        h.bet_or_raise()  # the button raises the big blind (the bet) to 4
        h.fold()  # the small blind folds: heads-up, two full bets of four
        n = 0
        while h.can_bet_or_raise() and n < 12:
            h.bet_or_raise()
            n += 1
        assert n == raises, hu
    assert h.bet_level == 28 and h.can_bet_or_raise()


def test_robert_heads_up_action_a_capped_round_stays_capped():
    """... and a round capped while three were in stays capped when a fold leaves two."""
    h = Hand(Rules(heads_up_uncapped="action"), [300] * 3, button=0, seed=1)
    for _ in range(3):
        h.bet_or_raise()  # raises to 4, 6, 8: the big blind and three raises
    assert not h.can_bet_or_raise()
    h.fold()  # the button folds; the small blind faces the capped raise
    assert h.actor == 1 and not h.can_bet_or_raise()
    with pytest.raises(IllegalActionError, match="capped"):
        h.bet_or_raise()
    h.check_or_call()
    stand_pat_all(h)  # the next round starts with two players: no cap, as with True
    for _ in range(10):
        h.bet_or_raise()
    assert h.can_bet_or_raise()


def test_heads_up_uncapped_forms_and_documents():
    assert Rules(heads_up_uncapped="round") == Rules(heads_up_uncapped=True)
    assert Rules(heads_up_uncapped="round").heads_up_uncapped is True  # one spelling
    r = Rules(heads_up_uncapped="action")
    assert r.to_dict()["heads_up_uncapped"] == "action"
    assert Rules.from_dict(r.to_dict()) == r and eval(repr(r)) == r
    for bad in (1, 0, None, "yes", "Action"):
        with pytest.raises(RulesError, match="heads_up_uncapped"):
            Rules(heads_up_uncapped=bad)
    # a hand uncapped by a fold saves and loads (its document says the round is uncapped)
    h = Hand(r, [300] * 3, button=0, seed=1)
    h.bet_or_raise()
    h.fold()
    for _ in range(5):
        h.bet_or_raise()
    doc = h.to_dict()
    assert doc["betting"]["max_full_bets"] is None
    assert Hand.from_dict(doc).to_dict() == doc
    # and in PHH (the option in _triple_draw_rules), played to the end
    while not h.is_over:
        h.apply(h.legal_actions()[0] if h.in_draw else h.legal_actions()[1])
    text = phh.dumps(h)
    assert 'heads_up_uncapped = "action"' in text
    assert phh.loads(text, seed=1).to_dict() == h.to_dict()


def test_heads_up_action_over_random_play():
    """Random hands of 3-6 players under ``heads_up_uncapped="action"``: with two players
    in the hand a betting round is capped exactly when it was capped at the fold that left
    two, and never when it started with two."""
    rounds = {"started heads-up": 0, "uncapped by a fold": 0, "stayed capped": 0}
    for seed in range(200):
        rnd = random.Random(seed)
        n = rnd.randint(3, 6)
        rules = Rules(heads_up_uncapped="action", raise_cap=rnd.choice([1, 2, 3]))
        stacks = [rnd.choice([30, 100, 300]) for _ in range(n)]
        h = Hand(rules, stacks, button=rnd.randrange(n), seed=seed)
        betting_round = None
        capped_at_two: bool | None = None  # None: the round started with two players
        while h.actor is not None:
            if h.in_draw:
                betting_round = None
                h.apply(random_action(h, rnd))
                continue
            live = len(h.in_hand)
            if betting_round != h.street:  # a new betting round
                betting_round, capped_at_two, started = h.street, None, live
            capped = "capped" in raise_refusal(h, h.actor)
            if live == 2:
                assert capped == bool(capped_at_two), (seed, h.history)
                if capped_at_two is None:
                    assert started == 2
                    rounds["started heads-up"] += 1
                else:
                    rounds["stayed capped" if capped else "uncapped by a fold"] += 1
            act = random_action(h, rnd, weight=5, fold_weight=2)
            if act.kind == "fold" and live == 3:
                capped_at_two = capped  # the round, as the action becomes heads-up
            h.apply(act)
    assert all(k > 10 for k in rounds.values()), rounds


# -- all-in for less (docs/rules.md: *All-in for less*) ----------------------------------------


def round3_hand(rules: Rules, b_chips_at_round3: int, n: int = 3) -> Hand:
    """Players A (SB), B (BB), C (button) [, D]; everyone calls 2 and checks round 2, so B
    has ``b_chips_at_round3`` chips behind when round 3 (unit 4) starts; A acts first."""
    stacks = [100, 2 + b_chips_at_round3] + [100] * (n - 2)
    h = Hand(rules, stacks, button=n - 1, seed=5)
    to_round(h, 2)
    assert h.actor == 0 and h.stacks[1] == b_chips_at_round3
    return h


@pytest.mark.parametrize("option", ["half-bet", "full-raise"])
def test_short_all_in_under_half_a_bet_docs_example(option):
    h = round3_hand(Rules(short_all_in=option), 5)
    h.bet_or_raise()  # A bets 4
    h.bet_or_raise()  # B all-in for 5: 1 over, less than half a unit
    assert h.all_in[1] and h.bets[1] == 5 and h.raises == 1  # does not count toward the cap
    assert kinds(h) == [("fold", None), ("call", 5), ("raise", 8)]  # C: a full raise over A's 4
    h.check_or_call()  # C calls 5
    assert h.actor == 0 and kinds(h) == [("fold", None), ("call", 5)]  # A may not raise
    before = h.to_dict()
    with pytest.raises(IllegalActionError, match="not reopened"):
        h.apply(Action("raise"))
    assert h.to_dict() == before
    h.check_or_call()
    assert h.in_draw


@pytest.mark.parametrize("option", ["half-bet", "full-raise"])
def test_short_all_in_under_half_a_bet_players_to_act_may_complete(option):
    h = round3_hand(Rules(short_all_in=option), 5)
    h.bet_or_raise()
    h.bet_or_raise()
    h.bet_or_raise()  # C completes to 8: a full raise, A may re-raise
    assert h.bet_level == 8 and h.raises == 2
    assert h.actor == 0 and kinds(h) == [("fold", None), ("call", 8), ("raise", 12)]


def test_short_all_in_half_a_bet_is_a_full_raise_docs_example():
    h = round3_hand(Rules(short_all_in="half-bet"), 6)
    h.bet_or_raise()  # A bets 4
    h.bet_or_raise()  # B all-in for 6: 2 over = half a unit
    assert h.raises == 2  # counts toward the cap
    assert kinds(h) == [("fold", None), ("call", 6), ("raise", 10)]
    h.check_or_call()  # C calls 6
    assert h.actor == 0 and kinds(h) == [("fold", None), ("call", 6), ("raise", 10)]  # reopened


def test_short_all_in_half_a_bet_under_full_raise_option_does_not_reopen():
    h = round3_hand(Rules(short_all_in="full-raise"), 6)
    h.bet_or_raise()
    h.bet_or_raise()  # all-in for 6: 2 over, less than a full unit
    assert h.raises == 1
    assert kinds(h) == [("fold", None), ("call", 6), ("raise", 8)]
    h.check_or_call()
    assert h.actor == 0 and kinds(h) == [("fold", None), ("call", 6)]


def test_short_all_in_counts_toward_the_cap():
    h = round3_hand(Rules(short_all_in="half-bet"), 14)  # B: all-in raise to 14 = 2 over 12
    h.bet_or_raise()  # A 4
    h.bet_or_raise()  # B 8
    h.bet_or_raise()  # C 12
    h.check_or_call()  # A calls 12
    h.bet_or_raise()  # B all-in 14: half a unit over 12 -> the cap (bet + 3 raises)
    assert h.raises == 4 and h.actor == 2
    assert kinds(h) == [("fold", None), ("call", 14)]


def test_several_short_all_ins_count_together():
    """A bets 4, B all-in 5 (short), C all-in 6: 2 above the last full bet = half a unit,
    so together they make a full raise: it reopens the betting for A."""
    rules = Rules()
    h = Hand(rules, [100, 7, 8, 100], button=3, seed=5)  # A=0 SB, B=1 BB, C=2, D=3 button
    to_round(h, 2)
    assert h.actor == 0 and h.stacks[1:3] == (5, 6)
    h.bet_or_raise()  # A 4
    h.bet_or_raise()  # B all-in 5
    assert h.raises == 1
    h.bet_or_raise()  # C all-in 6
    assert h.raises == 2
    assert h.actor == 3 and kinds(h) == [("fold", None), ("call", 6), ("raise", 10)]
    h.check_or_call()
    assert h.actor == 0 and kinds(h) == [("fold", None), ("call", 6), ("raise", 10)]


def test_all_in_opening_bet():
    """A opens all-in for 3 (at least half of 4): a full bet; B may call 3 or raise to 7.
    Had A opened all-in for 1, B could call 1 or complete to 4."""
    h = Hand(R, [5, 100, 100], button=2, seed=5)  # A=0 SB, B=1 BB, C=2 button
    to_round(h, 2)
    assert h.stacks[0] == 3
    h.bet_or_raise()
    assert h.all_in[0] and h.raises == 1
    assert kinds(h) == [("fold", None), ("call", 3), ("raise", 7)]
    h = Hand(R, [3, 100, 100], button=2, seed=5)
    to_round(h, 2)
    h.bet_or_raise()  # A all-in for 1
    assert h.raises == 0
    assert kinds(h) == [("fold", None), ("call", 1), ("raise", 4)]
    h.bet_or_raise()  # B completes to 4: the bet
    assert h.raises == 1 and h.actor == 2
    assert kinds(h) == [("fold", None), ("call", 4), ("raise", 8)]


def test_all_in_opening_bet_under_full_raise_option():
    h = Hand(Rules(short_all_in="full-raise"), [5, 100, 100], button=2, seed=5)
    to_round(h, 2)
    h.bet_or_raise()  # all-in for 3 < 4: not a full bet
    assert h.raises == 0
    assert kinds(h) == [("fold", None), ("call", 3), ("raise", 4)]


def test_all_in_call_for_less():
    h = round3_hand(R, 3)
    h.bet_or_raise()  # A bets 4
    assert kinds(h) == [("fold", None), ("call", 3)]  # B cannot raise: 3 chips
    h.apply(Action("call", 3))
    assert h.all_in[1] and h.bets[1] == 3 and h.actor == 2
    assert h.to_call == 4


def test_no_raise_when_every_other_player_is_all_in():
    h = round3_hand(R, 3, n=3)
    h.fold()  # A folds
    h.bet_or_raise()  # B all-in for 3 (a full bet)
    assert h.actor == 2 and kinds(h) == [("fold", None), ("call", 3)]


# -- betting: round ends, uncalled bets, folds, skipped rounds --------------------------


def test_round_ends_when_all_matched_after_the_last_full_raise():
    h = Hand(R, [100] * 3, seed=1)
    to_round(h, 1)
    h.bet_or_raise()
    h.bet_or_raise()
    h.check_or_call()
    assert h.phase == "bet"
    h.check_or_call()
    assert h.in_draw


def test_uncalled_bet_returned_before_the_pot_is_awarded():
    h = Hand(R, [100, 100], button=0, seed=1)
    to_round(h, 3)
    h.bet_or_raise()  # big blind bets 4
    h.fold()
    res = h.result
    assert res.returned == (1, 4)
    assert res.pots[0].amount == 4 and res.pots[0].winners == (1,)
    assert h.stacks == (98, 102)


def test_uncalled_part_of_a_bet_called_all_in_for_less_is_returned():
    h = round3_hand(R, 3, n=3)
    h.fold()  # A
    h.check_or_call()  # B checks
    h.bet_or_raise()  # C bets 4
    h.check_or_call()  # B calls all-in for 3
    assert h.in_draw  # C alone can bet: the rest is drawing
    while not h.is_over:
        h.discard([])
    assert h.result.returned == (2, 1)
    assert sum(h.stacks) == 100 + 5 + 100


def test_all_fold_to_one_player_wins_without_showdown_or_more_cards():
    h = Hand(R, [100] * 3, seed=1)
    h.fold()
    h.fold()
    assert h.is_over and h.actor is None
    res = h.result
    assert res.showdown == () and res.net == (0, -1, 1)
    assert not any(e.kind in ("draw", "show") for e in h.history)


def test_betting_skipped_when_fewer_than_two_can_bet_but_draws_happen():
    h = Hand(R, [3, 100], button=0, seed=1)  # the button posts 1, has 2 behind
    h.bet_or_raise()  # button all-in: raise to 3 (a full raise: 1 over 2 = half of 2)
    h.check_or_call()
    assert h.in_draw
    seen = []
    while not h.is_over:
        assert h.in_draw  # no betting round asks anybody anything
        seen.append(h.actor)
        h.discard([])
    assert seen == [1, 0] * 3  # both players, the all-in one too, draw three times
    assert len(h.result.showdown) == 2


def test_lone_player_facing_an_all_in_bet_must_still_call_or_fold():
    h = Hand(R, [100, 100, 3], button=0, seed=1)  # seat 2 = big blind, 1 behind
    h.check_or_call()  # button calls 2
    h.fold()  # small blind folds
    h.bet_or_raise()  # big blind all-in for 3 (1 over 2 = half a unit)
    assert h.actor == 0 and kinds(h) == [("fold", None), ("call", 3)]


def test_posts_and_actions_recorded_in_history():
    h = Hand(R, [100] * 3, seed=1)
    h.bet_or_raise()
    h.check_or_call()
    h.fold()
    ev = [(e.kind, e.seat, e.amount) for e in h.history if e.kind not in ("deal",)]
    assert ev[:6] == [
        ("post_small_blind", 1, 1),
        ("post_big_blind", 2, 2),
        ("begin_round", None, 0),
        ("raise", 0, 4),
        ("call", 1, 4),
        ("fold", 2, None),
    ]


def test_big_blind_all_in_from_ante_posts_no_blind_price_stays_full():
    h = Hand(Rules(ante=1), [100, 100, 1], button=0, seed=1)  # big blind: 1 chip = the ante
    assert h.committed == (1, 2, 1) and h.bets == (0, 1, 0) and h.all_in[2]
    assert h.actor == 0 and h.to_call == 2
    assert not any(e.kind == "post_big_blind" for e in h.history)
