"""Between hands (docs/rules.md: *Between hands*; docs/table.md): the Table moves the
button, carries stacks over, removes busted players, switches to heads-up order, seats and
unseats players between hands."""

from __future__ import annotations

import random

import pytest

from triple_draw import IllegalActionError
from triple_draw.game import Hand, Rules, Table
from conftest import play_randomly

R = Rules()


def fold_to_big_blind(h: Hand) -> None:
    while not h.is_over:
        h.fold()


def test_button_moves_one_seat_clockwise_and_stacks_carry_over():
    t = Table(R, [100, 100, 100], seed=1)
    h = t.new_hand()
    assert t.button == 0 and h.button == 0
    fold_to_big_blind(h)  # seat 2 (big blind) wins the small blind
    assert t.seats[:3] == (100, 99, 101) and t.seats[3:] == (None,) * 3
    h = t.new_hand()
    assert t.button == 1 and h.button == 1
    assert h.starting_stacks == (100, 99, 101)


def test_button_skips_empty_seats():
    t = Table(R, {0: 100, 3: 100, 5: 100}, seed=1)
    h = t.new_hand()
    assert t.seat_map == (0, 3, 5) and t.button == 0 and h.button == 0
    fold_to_big_blind(h)
    t.new_hand()
    assert t.button == 3 and t.hand.button == 1
    assert t.hand_seat(5) == 2 and t.hand_seat(1) is None


def test_busted_players_leave_and_two_left_play_heads_up():
    t = Table(R, [100, 100, 3], button=1, seed=1)
    h = t.new_hand(hole_cards={0: "7c 5d 4h 3s 2c", 2: "Kh Qh Jh Th 9h"})
    h.fold()
    h.bet_or_raise()
    h.check_or_call()
    while not h.is_over:
        if h.in_draw:
            h.discard([])
        else:
            h.check_or_call()
    assert h.stacks[2] == 0
    assert t.seats[:3] == (103, 100, None)
    h2 = t.new_hand()
    assert t.seat_map == (0, 1) and t.button == 0
    assert h2.button == 0 and h2.small_blind_seat == 0 and h2.big_blind_seat == 1


def test_sit_down_and_leave_between_hands_only():
    t = Table(R, [100, 100], seed=1)
    h = t.new_hand()
    with pytest.raises(IllegalActionError):
        t.sit(2, 50)
    with pytest.raises(IllegalActionError):
        t.leave(0)
    with pytest.raises(IllegalActionError):
        t.new_hand()
    fold_to_big_blind(h)  # the button (small blind) folds to the big blind
    t.sit(2, 50)
    assert t.leave(1) == 101
    assert t.seats[:3] == (99, None, 50)
    h = t.new_hand()
    assert t.seat_map == (0, 2) and h.n_players == 2
    fold_to_big_blind(h)
    with pytest.raises(ValueError, match="taken"):
        t.sit(0, 10)
    with pytest.raises(ValueError, match="> 0"):
        t.sit(3, 0)


def test_table_needs_two_players():
    t = Table(R, [100, None, None], seed=1)
    with pytest.raises(IllegalActionError, match="two players"):
        t.new_hand()


def test_table_seeded_hands_are_reproducible_and_chips_conserved():
    def run() -> tuple:
        t = Table(R, [30, 30, 30, 30], seed=5)
        rnd = random.Random(9)
        for _ in range(40):
            if len(t.players) < 2:
                break
            play_randomly(t.new_hand(), rnd)
            assert sum(x for x in t.seats if x) == 120
        return t.seats, t.hands_played

    assert run() == run()


def test_table_with_seven_and_eight_seats_option():
    t = Table(Rules(max_players=8), [50] * 8, seed=2)
    h = t.new_hand()
    assert h.n_players == 8
    with pytest.raises(ValueError):
        Table(R, [50] * 7)
