"""Scenario tests of the showdown and the pot (docs/rules.md: *Showdown*): showing order, mucking
option, lowest hand wins, ties, side pots, odd chips, conservation; worked examples of
the showing order, side pots and an odd chip."""

from __future__ import annotations

from triple_draw.game import Hand, Rules
from triple_draw.game.pots import make_pots, split_pot, uncalled
from conftest import play_randomly

R = Rules()
BEST = "7c 5d 4h 3s 2c"  # number one
SECOND = "7d 6h 4s 3c 2d"  # number two
THIRD = "8c 6d 4c 3d 2h"
WORST = "Kh Qh Jh Th 9h"  # king-high straight flush
PAIR = "2s 5c 5h 6c 8d"  # pair of fives


def play_out(h: Hand) -> None:
    """Stand pat and check/call to the end."""
    while not h.is_over:
        if h.in_draw:
            h.discard([])
        else:
            h.check_or_call()


def to_round(h: Hand, r: int) -> None:
    while not (h.phase == "bet" and h.street == r):
        if h.in_draw:
            h.discard([])
        else:
            h.check_or_call()


# -- showdown order ---------------------------------------------------------------------------


def test_showdown_order_last_aggressor_of_round_four_shows_first():
    # A=0 SB, B=1 BB, C=2, D=3 button
    h = Hand(R, [100] * 4, button=3, hole_cards=[BEST, SECOND, THIRD, PAIR], seed=1)
    to_round(h, 3)
    assert h.actor == 0
    h.check_or_call()  # A checks
    h.bet_or_raise()  # B bets
    h.bet_or_raise()  # C raises
    h.check_or_call()  # D calls
    h.check_or_call()  # A calls
    h.check_or_call()  # B calls
    assert [e.seat for e in h.result.showdown] == [2, 3, 0, 1]  # C first, then clockwise


def test_showdown_order_checked_through_first_left_of_button_shows_first():
    h = Hand(R, [100] * 4, button=1, hole_cards=[BEST, SECOND, THIRD, PAIR], seed=1)
    play_out(h)
    assert [e.seat for e in h.result.showdown] == [2, 3, 0, 1]
    assert all(e.shown for e in h.result.showdown)


def test_showdown_order_skips_folded_players():
    h = Hand(R, [100] * 4, button=1, hole_cards=[BEST, SECOND, THIRD, PAIR], seed=1)
    to_round(h, 3)
    h.fold()  # seat 2
    play_out(h)
    assert [e.seat for e in h.result.showdown] == [3, 0, 1]


def test_showdown_last_aggressor_all_in_bet_of_round_four_shows_first():
    h = Hand(R, [100, 100, 7], button=2, hole_cards=[BEST, SECOND, THIRD], seed=1)
    to_round(h, 3)
    h.check_or_call()  # A
    h.check_or_call()  # B
    h.bet_or_raise()  # C all-in for 3 (at least half a bet)
    play_out(h)
    assert [e.seat for e in h.result.showdown] == [2, 0, 1]


def test_muck_option_beaten_hands_are_not_shown_winner_shows():
    rules = Rules(muck_beaten_hands=True)
    h = Hand(rules, [100] * 4, button=3, hole_cards=[SECOND, BEST, PAIR, THIRD], seed=1)
    play_out(h)  # A (seat 0) shows first
    sd = [(e.seat, e.shown) for e in h.result.showdown]
    assert sd == [(0, True), (1, True), (2, False), (3, False)]
    assert h.result.showdown[2].cards is None and h.result.showdown[2].rank is None
    assert h.result.pots[0].winners == (1,)
    for viewer in range(4):
        v = h.view(viewer)
        assert v["players"][2]["shown"] is None
        if viewer != 2:
            assert "2s" not in repr(v)  # the mucked pair of fives stays hidden
    assert [e.kind for e in h.history if e.kind in ("show", "muck")] == [
        "show",
        "show",
        "muck",
        "muck",
    ]


def test_muck_option_off_everyone_shows():
    h = Hand(R, [100] * 4, button=3, hole_cards=[SECOND, BEST, PAIR, THIRD], seed=1)
    play_out(h)
    assert all(e.shown for e in h.result.showdown)


def test_muck_option_tied_hand_must_show():
    rules = Rules(muck_beaten_hands=True)
    h = Hand(rules, [100] * 3, button=2, hole_cards=[BEST, "7h 5s 4d 3h 2h", PAIR], seed=1)
    play_out(h)
    assert [e.shown for e in h.result.showdown] == [True, True, False]
    assert h.result.pots[0].winners == (0, 1)


def test_muck_option_side_pot_contender_still_shows():
    """B is beaten by A's shown hand for the main pot but may still win the side pot."""
    rules = Rules(muck_beaten_hands=True, small_blind=5, big_blind=10, small_bet=10, big_bet=20)
    h = Hand(rules, [10, 100, 100], button=2, hole_cards=[BEST, SECOND, THIRD], seed=1)
    h.bet_or_raise()  # C raises to 20
    h.check_or_call()  # A all-in for 10
    h.check_or_call()  # B calls 20
    play_out(h)
    sd = {e.seat: e.shown for e in h.result.showdown}
    assert sd[1] is True  # B shows: he wins the side pot against C
    assert [p.winners for p in h.result.pots] == [(0,), (1,)]


# -- lowest hand wins, ties ----------------------------------------------------------------


def test_lowest_hand_wins():
    h = Hand(R, [100] * 3, hole_cards=[WORST, BEST, PAIR], seed=1)
    play_out(h)
    assert h.result.pots[0].winners == (1,)
    assert h.result.net == (-2, 4, -2)
    shown = {e.seat: e for e in h.result.showdown}
    assert shown[1].name == "7-5 low" and shown[1].rank == 1


def test_equal_ranks_split_the_pot_suits_never_break_ties():
    h = Hand(R, [100] * 2, hole_cards=["8c 6d 4h 3s 2c", "8h 6s 4c 3d 2h"], seed=1)
    play_out(h)
    assert h.result.pots[0].winners == (0, 1)
    assert h.result.net == (0, 0)


# -- side pots ---------------------------------------------------------------------------------


def test_side_pots():
    """A (10 chips) and B (30) all-in, C covers both: main pot 30 (A, B, C), side pot 40
    (B, C); A best, B second: A wins 30, B wins 40."""
    rules = Rules(small_blind=5, big_blind=10, small_bet=10, big_bet=20)
    h = Hand(rules, [10, 30, 100], button=2, hole_cards=[BEST, SECOND, THIRD], seed=1)
    h.bet_or_raise()  # C raises to 20
    h.check_or_call()  # A calls all-in for 10
    h.bet_or_raise()  # B raises all-in to 30
    h.check_or_call()  # C calls 30
    play_out(h)
    pots = h.result.pots
    assert [(p.amount, p.eligible, p.winners) for p in pots] == [
        (30, (0, 1, 2), (0,)),
        (40, (1, 2), (1,)),
    ]
    assert h.stacks == (30, 40, 70)
    assert h.result.returned is None


def test_side_pots_bet_nobody_could_call_is_returned():
    rules = Rules(small_blind=5, big_blind=10, small_bet=10, big_bet=20)
    hole = [BEST, SECOND, THIRD, WORST]
    h = Hand(rules, [10, 30, 100, 100], button=3, hole_cards=hole, seed=1)
    h.bet_or_raise()  # C 20
    h.check_or_call()  # D calls 20
    h.check_or_call()  # A all-in 10
    h.bet_or_raise()  # B all-in 30
    h.check_or_call()  # C calls 30
    h.check_or_call()  # D calls 30
    while h.in_draw:
        h.discard([])
    h.bet_or_raise()  # C bets 10
    h.fold()  # D folds: nobody can call C's bet
    play_out(h)
    assert h.result.returned == (2, 10)
    assert [(p.amount, p.eligible, p.winners) for p in h.result.pots] == [
        (40, (0, 1, 2), (0,)),
        (60, (1, 2), (1,)),
    ]
    assert h.stacks == (40, 60, 70, 70)


def test_side_pots_three_all_ins_of_different_sizes_and_a_fold():
    """A 10, B 20, C 35 all-in, D covers, E folds after putting in 30."""
    rules = Rules(small_blind=5, big_blind=10, small_bet=10, big_bet=20)
    hole = [BEST, THIRD, SECOND, WORST, PAIR]
    h = Hand(rules, [10, 20, 35, 100, 100], button=4, hole_cards=hole, seed=1)
    h.bet_or_raise()  # C raises to 20
    h.bet_or_raise()  # D re-raises to 30
    h.check_or_call()  # E calls 30
    h.check_or_call()  # A calls all-in (10)
    h.check_or_call()  # B calls all-in (20)
    h.bet_or_raise()  # C all-in for 35 (5 over 30 = half a unit: the cap)
    assert h.all_in[:3] == (True, True, True) and not h.can_bet_or_raise()
    h.check_or_call()  # D calls 35
    h.fold()  # E folds: his 30 stays in the pots
    assert h.in_draw
    play_out(h)
    res = h.result
    assert [(p.amount, p.eligible) for p in res.pots] == [
        (50, (0, 1, 2, 3)),
        (40, (1, 2, 3)),
        (40, (2, 3)),
    ]
    assert [p.winners for p in res.pots] == [(0,), (2,), (2,)]
    assert h.stacks == (50, 0, 80, 65, 70)
    assert sum(h.stacks) == 10 + 20 + 35 + 100 + 100


def test_make_pots_merges_layers_and_keeps_folded_money():
    assert make_pots([10, 20, 35, 35, 30], [True, True, True, True, False]) == [
        (50, (0, 1, 2, 3)),
        (40, (1, 2, 3)),
        (40, (2, 3)),
    ]
    assert make_pots([8, 8, 3], [True, True, False]) == [(19, (0, 1))]
    assert uncalled([4, 12, 8]) == (1, 4)
    assert uncalled([8, 8, 3]) == (-1, 0)


# -- odd chips ---------------------------------------------------------------------------------


def test_odd_chip_small_blind_gets_3_button_2():
    """A pot of 5 split between the button and the small blind: the small blind (first
    left of the button) gets 3, the button 2. (The big blind, all-in for 1, loses.)"""
    h = Hand(R, [100, 1, 100], button=2, hole_cards=[BEST, WORST, "7h 5s 4c 3d 2h"], seed=1)
    # A=0 SB, B=1 BB all-in for 1, C=2 button
    h.check_or_call()  # C calls 2
    h.check_or_call()  # A completes
    play_out(h)
    assert sum(p.amount for p in h.result.pots) == 5
    assert h.result.net == (1, -1, 0)  # A: +3 - 2, C: +2 - 2
    assert split_pot(5, [2, 0], button=2, n=3) == [(0, 3), (2, 2)]


def test_odd_chips_one_at_a_time_in_seat_order_from_left_of_button():
    rules = Rules(ante=1)
    hole = ["7c 5d 4h 3s 2c", "7d 5h 4s 3c 2d", "7h 5s 4c 3d 2h", WORST]
    h = Hand(rules, [100] * 4, button=1, hole_cards=hole, seed=1)  # SB 2, BB 3, first 0
    h.check_or_call()  # 0 calls
    h.check_or_call()  # 1 (button) calls
    h.check_or_call()  # 2 completes
    h.fold()  # 3, the big blind, folds: pot 3*3 + 3 = 12 ... plus his ante
    play_out(h)
    pot = h.result.pots[0]
    assert pot.amount == 3 * 3 + 3 and pot.winners == (0, 1, 2)
    # 12 / 3 = 4 each: even; make it odd with split_pot directly
    assert split_pot(11, [0, 1, 2], button=1, n=4) == [(2, 4), (0, 4), (1, 3)]


def test_odd_chip_heads_up_goes_to_big_blind():
    assert split_pot(5, [0, 1], button=0, n=2) == [(1, 3), (0, 2)]


# -- conservation -----------------------------------------------------------------------------


def test_chips_conserved_after_the_hand():
    h = play_randomly(Hand(R, [37, 5, 100, 12], button=2, seed=3), 1)
    assert sum(h.stacks) == 37 + 5 + 100 + 12
    assert sum(h.result.net) == 0
