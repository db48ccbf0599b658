"""The card room's rules between hands (docs/table.md), each as a scenario over a sequence
of hands: who has the button, who posts which blind, who is dealt in."""

from __future__ import annotations

import itertools
import random

import pytest

from triple_draw import ArgumentError, IllegalActionError, Rules, SchemaError
from triple_draw.game import Hand, Table
from conftest import play_randomly

R = Rules()  # blinds 1/2


def fold_out(h: Hand) -> None:
    while not h.is_over:
        h.fold()


def deal(t: Table) -> tuple:
    """Start a hand, note (button, small blind, big blind, dealt seats, posts), fold it."""
    h = t.new_hand()
    seen = (t.button, t.small_blind_seat, t.big_blind_seat, t.seat_map, t.posts)
    # the hand agrees with the table about the blinds
    assert t.seat_map[h.big_blind_seat] == t.big_blind_seat
    if t.small_blind_seat is None:
        assert h.small_blind_seat is None
    else:
        assert t.seat_map[h.small_blind_seat] == t.small_blind_seat  # type: ignore[index]
    fold_out(h)
    return seen


def posted(h: Hand) -> list[tuple[str, int, int]]:
    return [(e.kind, e.seat, e.amount) for e in h.history if e.kind.startswith("post")]


# -- the button and the blinds -------------------------------------------------------------


def test_dead_button_every_player_pays_each_blind_once_per_orbit():
    t = Table(R, [100] * 5, seed=1)
    seq = [deal(t)[:3] for _ in range(10)]
    assert seq[:5] == [(0, 1, 2), (1, 2, 3), (2, 3, 4), (3, 4, 0), (4, 0, 1)]
    for orbit in (seq[:5], seq[5:]):
        assert sorted(sb for _, sb, _ in orbit) == [0, 1, 2, 3, 4]
        assert sorted(bb for _, _, bb in orbit) == [0, 1, 2, 3, 4]


def test_dead_button_when_the_big_blind_leaves_there_is_no_small_blind_next_hand():
    t = Table(R, [100] * 4, seed=1)
    assert deal(t)[:3] == (0, 1, 2)
    t.leave(2)
    # the big blind moves on to seat 3; seat 2 would owe the small blind but has gone: no
    # small blind this hand; the button moves to seat 1 (last hand's small blind)
    assert deal(t) == (1, None, 3, (0, 1, 3), {})
    # next the button is dead on the empty seat 2; seat 3 posts the small blind
    h = t.new_hand()
    assert (t.button, t.small_blind_seat, t.big_blind_seat) == (2, 3, 0)
    assert h.button == t.hand_seat(1)  # the hand is played as if seat 1 had the button
    assert h.actor == t.hand_seat(1)  # first left of the big blind
    fold_out(h)
    assert deal(t)[:3] == (3, 0, 1)
    assert deal(t)[:3] == (0, 1, 3)


def test_dead_button_when_the_small_blind_leaves_the_button_is_dead_on_his_seat():
    t = Table(R, [100] * 4, seed=1)
    assert deal(t)[:3] == (0, 1, 2)
    t.leave(1)
    h = t.new_hand()
    assert (t.button, t.small_blind_seat, t.big_blind_seat) == (1, 2, 3)
    assert t.seat_map == (0, 2, 3) and h.button == 0  # seat 0 is last before the button
    assert posted(h) == [("post_small_blind", 1, 1), ("post_big_blind", 2, 2)]
    h.fold()
    h.fold()  # the small blind folds to the big blind
    # after a draw the first player left of the (dead) button acts first: seat 2
    assert h.is_over


def test_dead_button_first_left_of_the_dead_button_acts_first_after_the_draw():
    t = Table(R, [100] * 4, seed=1)
    fold_out(t.new_hand())
    t.leave(2)
    h = t.new_hand()  # button 1, no small blind, big blind 3
    while not h.in_draw:
        h.check_or_call()
    while h.in_draw:
        h.discard([])
    assert t.seat_map[h.actor] == 3  # the big blind, first left of the button


def test_moving_button_option_moves_to_the_next_player_and_can_skip_a_blind():
    t = Table(R, [100] * 4, seed=1, button_rule="moving")
    assert deal(t)[:3] == (0, 1, 2)
    t.leave(2)
    seq = [deal(t)[:3] for _ in range(3)]
    # seat 3 posts the small blind and then has the button: he skipped the big blind
    assert seq == [(1, 3, 0), (3, 0, 1), (0, 1, 3)]


def test_button_skips_empty_seats_on_the_first_hand():
    t = Table(R, {1: 50, 4: 50, 5: 50}, button=2, seed=3)
    assert deal(t)[:3] == (4, 5, 1)


# -- heads-up ------------------------------------------------------------------------------


@pytest.mark.parametrize("rule", ["dead", "moving"])
@pytest.mark.parametrize("gone", [0, 1, 2])
def test_move_to_heads_up_nobody_posts_the_big_blind_twice_in_a_row(rule, gone):
    t = Table(R, [100] * 3, seed=2, button_rule=rule)
    assert deal(t)[:3] == (0, 1, 2)
    t.leave(gone)
    bbs = [2]
    for _ in range(6):
        btn, sb, bb, seats, _ = deal(t)
        assert btn == sb and len(seats) == 2  # heads-up: the button posts the small blind
        bbs.append(bb)
    assert all(a != b for a, b in itertools.pairwise(bbs))


def test_a_busted_player_leaves_and_heads_up_the_big_blind_moves_on():
    t = Table(R, [100, 100, 2], button=1, seed=1)  # button 1, small blind 2, big blind 0
    h = t.new_hand(hole_cards={2: "KhQhJhTh9h", 0: "7c5d4h3s2c"})
    assert (t.small_blind_seat, t.big_blind_seat) == (2, 0)
    h.fold()  # seat 1
    h.check_or_call()  # seat 2 calls all-in
    while not h.is_over:
        h.discard([]) if h.in_draw else h.check_or_call()
    assert t.seats == (102, 100, None, None, None, None)
    assert t.status(2) is None
    # seat 0 was the big blind: heads-up he now has the button and the small blind
    assert deal(t) == (0, 0, 1, (0, 1), {})
    assert deal(t) == (1, 1, 0, (0, 1), {})


def test_heads_up_table_gains_a_third_player_who_waits_for_the_big_blind():
    t = Table(R, {0: 100, 2: 100}, seed=4)
    assert deal(t) == (0, 0, 2, (0, 2), {})
    t.sit(1, 100)  # between the button and the big blind
    assert t.status(1) == "waiting"
    assert deal(t) == (2, 2, 0, (0, 2), {})  # seat 1 is not reached by the big blind yet
    assert deal(t) == (2, 0, 1, (0, 1, 2), {})  # now he is: the big blind, dealt in
    assert t.status(1) == "active" and t.owes(1) == (0, 0)
    assert deal(t)[:3] == (0, 1, 2)


# -- new players ---------------------------------------------------------------------------


def test_new_player_waits_for_the_big_blind_by_default():
    t = Table(R, [100, 100, 100, 100], seed=1)
    assert deal(t)[:3] == (0, 1, 2)
    t.sit(4, 80)
    assert (t.status(4), t.owes(4), t.wants_to_post(4)) == ("waiting", (2, 0), False)
    assert deal(t) == (1, 2, 3, (0, 1, 2, 3), {})
    h = t.new_hand()  # the big blind reaches seat 4: he posts it and is dealt in
    assert (t.button, t.small_blind_seat, t.big_blind_seat) == (2, 3, 4)
    assert t.seat_map == (0, 1, 2, 3, 4) and t.posts == {}
    assert posted(h) == [("post_small_blind", 3, 1), ("post_big_blind", 4, 2)]


def test_new_player_may_post_a_big_blind_to_be_dealt_in_at_once():
    t = Table(R, [100, 100, 100, 100], seed=1)
    assert deal(t)[:3] == (0, 1, 2)
    t.sit(5, 80, post=True)
    h = t.new_hand()  # button 1, blinds 2 and 3; seat 5 sits after the big blind
    assert (t.button, t.small_blind_seat, t.big_blind_seat) == (1, 2, 3)
    assert t.seat_map == (0, 1, 2, 3, 5) and t.posts == {5: (2, 0)}
    me = t.hand_seat(5)
    assert posted(h)[-1] == ("post_big_blind", me, 2)
    assert h.bets[me] == 2 and h.stacks[me] == 78
    # first to act, left of the big blind: his blind is live, he may check or raise
    assert h.actor == me and h.to_call == 0 and h.can_bet_or_raise()
    h.check_or_call()
    assert h.to_call == 2  # seat 0 must still call the big blind
    assert t.status(5) == "active" and t.owes(5) == (0, 0)


def test_new_players_option_post_is_the_table_default_for_sit():
    t = Table(R, [100, 100, 100], seed=1, new_players="post")
    fold_out(t.new_hand())
    t.sit(4, 50)
    assert t.wants_to_post(4)
    t.sit(5, 50, post=False)  # his own choice
    assert not t.wants_to_post(5)


def test_new_player_between_the_button_and_the_big_blind_waits_until_the_button_passes():
    t = Table(R, {0: 100, 2: 100, 4: 100}, seed=1)
    assert deal(t)[:3] == (0, 2, 4)
    t.sit(3, 100, post=True)  # next hand the button is on 2 and the small blind on 4
    assert deal(t) == (2, 4, 0, (0, 2, 4), {})
    assert t.status(3) == "waiting"
    assert deal(t) == (4, 0, 2, (0, 2, 3, 4), {3: (2, 0)})  # behind the button: he posts


def test_players_seated_before_the_first_hand_are_dealt_in_without_posting():
    t = Table(R, [100, 100], seed=1)
    t.sit(2, 100)
    assert t.status(2) == "active"
    assert deal(t) == (0, 1, 2, (0, 1, 2), {})


# -- sitting out and coming back -----------------------------------------------------------


def test_sitting_out_player_owes_both_blinds_and_posts_them_on_return():
    t = Table(R, [100] * 4, seed=1)
    assert deal(t)[:3] == (0, 1, 2)
    t.sit_out(3)  # the next big blind
    assert deal(t) == (1, 2, 0, (0, 1, 2), {})  # the big blind passes him
    assert t.owes(3) == (2, 1)
    t.sit_in(3)
    assert t.status(3) == "waiting" and t.wants_to_post(3)
    # between the button (2) and the small blind (0): he waits until the button passes
    assert deal(t) == (2, 0, 1, (0, 1, 2), {})
    h = t.new_hand()
    assert (t.button, t.small_blind_seat, t.big_blind_seat) == (0, 1, 2)
    assert t.seat_map == (0, 1, 2, 3) and t.posts == {3: (2, 1)}
    # the big blind live (his bet), the small blind dead (in the pot, not a bet)
    assert posted(h)[-2:] == [("post_big_blind", 3, 2), ("post_ante", 3, 1)]
    assert h.bets == (0, 1, 2, 2) and h.committed == (0, 1, 2, 3) and h.pot == 6
    assert h.stacks[3] == 97
    fold_out(h)
    assert t.owes(3) == (0, 0) and t.status(3) == "active"
    assert sum(x for x in t.seats if x) == 400


def test_sitting_out_player_may_wait_for_the_big_blind_instead():
    t = Table(R, [100] * 4, seed=1, missed_blinds="wait")
    deal(t)
    t.sit_out(3)
    deal(t)
    t.sit_in(3)
    assert t.status(3) == "waiting" and not t.wants_to_post(3)
    assert deal(t)[3] == (0, 1, 2)
    assert deal(t)[3] == (0, 1, 2)
    h = t.new_hand()  # the big blind reaches him: only the big blind, nothing dead
    assert (t.big_blind_seat, t.posts) == (3, {})
    assert posted(h) == [("post_small_blind", 2, 1), ("post_big_blind", 3, 2)]


def test_missing_only_the_small_blind_owes_it_dead():
    t = Table(R, [100] * 4, seed=1)
    assert deal(t)[:3] == (0, 1, 2)
    t.sit_out(2)  # he paid the big blind; the small blind is his next
    assert deal(t) == (1, None, 3, (0, 1, 3), {})  # no small blind: he is out
    assert t.owes(2) == (0, 1)
    t.sit_in(2, post=True)
    assert deal(t) == (2, 3, 0, (0, 1, 3), {})  # the button is on his seat: he waits
    h = t.new_hand()
    assert (t.button, t.small_blind_seat, t.big_blind_seat) == (3, 0, 1)
    assert t.posts == {2: (0, 1)}
    assert posted(h)[-1] == ("post_ante", t.hand_seat(2), 1) and h.bets[t.hand_seat(2)] == 0


def test_sit_out_and_back_before_any_blind_passes_owes_nothing():
    t = Table(R, [100] * 5, seed=1)
    assert deal(t)[:3] == (0, 1, 2)
    t.sit_out(4)
    assert deal(t)[3] == (0, 1, 2, 3)
    t.sit_in(4)
    assert t.status(4) == "active" and t.owes(4) == (0, 0)
    assert deal(t) == (2, 3, 4, (0, 1, 2, 3, 4), {})


def test_a_long_absence_owes_one_big_and_one_small_blind():
    t = Table(R, [100] * 4, seed=1)
    deal(t)
    t.sit_out(3)
    for _ in range(7):
        deal(t)
    assert t.owes(3) == (2, 1)


def test_moving_button_sitting_out_player_owes_the_blinds_that_pass_him():
    t = Table(R, [100] * 4, seed=1, button_rule="moving")
    assert deal(t)[:3] == (0, 1, 2)
    t.sit_out(3)
    assert deal(t)[:3] == (1, 2, 0)
    assert t.owes(3) == (2, 1)


# -- only between hands --------------------------------------------------------------------


def test_join_leave_sit_out_and_sit_in_only_between_hands():
    t = Table(R, [100, 100, 100], seed=1)
    fold_out(t.new_hand())
    t.sit_out(2)
    h = t.new_hand()
    before = t.to_dict()
    for call in (
        lambda: t.sit(4, 50),
        lambda: t.leave(0),
        lambda: t.sit_out(1),
        lambda: t.sit_in(2),
        lambda: t.new_hand(),
    ):
        with pytest.raises(IllegalActionError, match="during a hand"):
            call()
    assert t.to_dict() == before
    fold_out(h)
    t.sit_in(2)


def test_bad_seat_calls_are_refused():
    t = Table(R, [100, 100, None], seed=1)
    with pytest.raises(ArgumentError):
        t.sit_out(2)
    with pytest.raises(ArgumentError):
        t.sit_out(9)
    with pytest.raises(IllegalActionError, match="not sitting out"):
        t.sit_in(0)
    t.sit_out(0)
    with pytest.raises(IllegalActionError, match="already"):
        t.sit_out(0)
    with pytest.raises(ArgumentError):
        t.sit(2, 10, post="yes")
    with pytest.raises(IllegalActionError, match="two players"):
        t.new_hand()
    with pytest.raises(ArgumentError, match="button_rule"):
        Table(R, [1, 1], button_rule="floating")
    with pytest.raises(ArgumentError, match="new_players"):
        Table(R, [1, 1], new_players="maybe")


def test_a_game_that_runs_short_of_players_restarts_without_posts():
    t = Table(R, [100, 100], seed=1)
    deal(t)  # button 0, big blind 1
    t.sit(2, 100)  # waits for the big blind, which goes to seat 0 next
    t.leave(1)
    # only seat 0 could be dealt in by the rules: the game restarts with both players
    assert deal(t)[3] == (0, 2)
    assert t.posts == {} and t.status(2) == "active"


# -- whole sessions --------------------------------------------------------------------------


@pytest.mark.parametrize("rule", ["dead", "moving"])
def test_random_sessions_conserve_chips_and_keep_the_rules(rule):
    rnd = random.Random(11)
    for session in range(25):
        t = Table(
            R,
            [rnd.choice([None, 5, 30, 100]) for _ in range(6)],
            button=rnd.randrange(6),
            seed=session,
            button_rule=rule,
            new_players=rnd.choice(["wait", "post"]),
            missed_blinds=rnd.choice(["wait", "post"]),
        )
        chips = sum(x for x in t.seats if x)
        last_bb = None
        for _ in range(40):
            if last_bb is not None and t.status(last_bb) is None:
                last_bb = None  # he busted: a new player there is another player
            for s in range(6):  # the players' moves between hands
                r = rnd.random()
                st = t.status(s)
                if st is None and r < 0.08:
                    t.sit(s, 40, post=rnd.choice([None, True, False]))
                    chips += 40
                elif st is not None and r < 0.04:
                    chips -= t.leave(s)
                    last_bb = None if s == last_bb else last_bb
                elif st == "sitting_out" and r < 0.3:
                    t.sit_in(s, post=rnd.choice([None, True, False]))
                elif st in ("active", "waiting") and r < 0.1:
                    t.sit_out(s)
            try:
                h = t.new_hand()
            except IllegalActionError:
                assert sum(st in ("active", "waiting") for st in map(t.status, range(6))) < 2
                continue
            dealt = t.seat_map
            assert all(t.status(s) == "active" for s in dealt)
            assert t.big_blind_seat in dealt
            if last_bb in dealt and (rule == "dead" or len(dealt) == 2):
                # never the big blind twice in a row (a moving button only promises it
                # when the table goes heads-up)
                assert t.big_blind_seat != last_bb
            last_bb = t.big_blind_seat
            play_randomly(h, rnd)
            assert sum(x for x in t.seats if x) == chips


def test_a_busted_player_who_rebuys_at_once_keeps_his_place_without_posting():
    t = Table(R, [100, 100, 2, 100], button=1, seed=1)  # blinds 2 and 3
    h = t.new_hand(hole_cards={2: "KhQhJhTh9h", 3: "7c5d4h3s2c"})
    h.fold()  # seat 0
    h.fold()  # seat 1
    h.check_or_call()  # seat 2 all-in
    while not h.is_over:
        h.discard([]) if h.in_draw else h.check_or_call()
    assert t.status(2) is None
    t.rebuy(2, 50)
    assert t.status(2) == "active" and t.owes(2) == (0, 0)
    assert deal(t) == (2, 3, 0, (0, 1, 2, 3), {})
    had = t.seats[0]
    t.rebuy(0, 10)  # a top-up
    assert t.seats[0] == had + 10
    t.leave(1)
    with pytest.raises(ArgumentError, match="nobody busted there"):
        t.rebuy(1, 50)


def bust_seat(t: Table, loser: int, winner: int) -> None:
    """Play the first hand: everyone else folds, ``loser`` (short, in a blind) is all-in
    and loses to ``winner``."""
    h = t.new_hand(hole_cards={loser: "KhQhJhTh9h", winner: "7c5d4h3s2c"})
    while not h.is_over:
        seat = t.seat_map[h.actor]  # type: ignore[index]
        if h.in_draw:
            h.discard([])
        elif seat in (loser, winner):
            h.check_or_call()
        else:
            h.fold()
    assert t.status(loser) is None and t.busted == (loser,)


def test_robert_busted_player_rebuying_after_the_big_blind_passed_him_owes_both_blinds():
    """Robert's Rules of Poker (Button and Blind Use): a player who goes all in and loses
    makes up the blinds that pass him before he buys back in - he is not a new player."""
    t = Table(R, [100, 100, 2, 100], button=1, seed=1)  # seat 2 small blind, short
    bust_seat(t, 2, 3)
    assert deal(t) == (2, 3, 0, (0, 1, 3), {})  # the dead button on his empty seat
    assert deal(t) == (3, 0, 1, (0, 1, 3), {})
    assert t.owes(2) == (0, 0)  # no blind has passed him yet
    assert deal(t) == (0, 1, 3, (0, 1, 3), {})  # the big blind skips his empty seat
    assert t.owes(2) == (2, 1) and t.busted == (2,)
    t.rebuy(2, 50)  # the table's default, missed_blinds="post"
    assert t.status(2) == "waiting" and t.wants_to_post(2)
    assert deal(t) == (1, 3, 0, (0, 1, 3), {})  # between the button and the big blind
    # posts the big blind live and the small blind dead, as a player back from sitting out
    assert deal(t) == (3, 0, 1, (0, 1, 2, 3), {2: (2, 1)})
    assert t.status(2) == "active" and t.owes(2) == (0, 0) and t.busted == ()


def test_robert_busted_big_blind_owes_the_small_blind_that_passed_his_empty_seat():
    t = Table(R, [100, 100, 100, 2], button=1, seed=1)  # seat 3 big blind, short
    bust_seat(t, 3, 2)
    assert deal(t) == (2, None, 0, (0, 1, 2), {})  # the dead small blind was his
    assert t.owes(3) == (0, 1)
    assert t.to_dict()["busted"] == [[3, "small"]]
    t.rebuy(3, 40, post=False)  # his own choice: wait for the big blind
    assert t.status(3) == "waiting" and not t.wants_to_post(3)
    assert deal(t) == (3, 0, 1, (0, 1, 2), {})
    assert deal(t) == (0, 1, 2, (0, 1, 2), {})
    assert deal(t) == (1, 2, 3, (0, 1, 2, 3), {})  # the big blind, and nothing more
    assert t.owes(3) == (0, 0) and t.status(3) == "active"


def test_a_busted_seat_taken_by_someone_else_is_a_new_player():
    t = Table(R, [100, 100, 2, 100], button=1, seed=1)
    bust_seat(t, 2, 3)
    for _ in range(3):
        deal(t)
    assert t.owes(2) == (2, 1)
    t.sit(2, 60)  # another player: he owes a new player's big blind only
    assert t.owes(2) == (2, 0) and t.busted == ()
    t.leave(2)
    with pytest.raises(ArgumentError, match="nobody busted there"):
        t.rebuy(2, 10)


def test_table_documents_keep_what_a_busted_player_owes():
    t = Table(R, [100, 100, 2, 100], button=1, seed=1)
    bust_seat(t, 2, 3)
    doc = t.to_dict()
    assert doc["busted"] == [2]  # just busted: owes nothing, the form of older documents
    for _ in range(3):
        deal(t)
    doc = t.to_dict()
    assert doc["busted"] == [[2, "big"]]
    u = Table.from_dict(doc)
    assert u.to_dict() == doc and u.owes(2) == (2, 1) and u.busted == (2,)
    for bad in ([[2, "new"]], [[2]], [2, 2], ["2"], [[0, "big"]]):
        with pytest.raises(SchemaError, match="busted"):
            Table.from_dict({**doc, "busted": bad})


def test_next_hand_tells_what_new_hand_will_do():
    t = Table(R, [100] * 4, seed=1)
    deal(t)
    t.sit_out(3)
    t.sit(5, 40, post=True)
    plan = t.next_hand()
    before = t.to_dict()
    assert t.next_hand() == plan and t.to_dict() == before  # no side effects
    assert plan == {
        "button": 1,
        "small_blind": 2,
        "big_blind": 5,
        "dealt": [0, 1, 2, 5],
        "posts": {},
    }
    t.new_hand()
    assert (t.button, t.small_blind_seat, t.big_blind_seat, list(t.seat_map), t.posts) == (
        1,
        2,
        5,
        [0, 1, 2, 5],
        {},
    )
    with pytest.raises(IllegalActionError):
        t.next_hand()


def test_a_busted_player_who_leaves_for_good_gives_up_his_seat():
    t = Table(R, [100, 100, 2, 100], button=1, seed=1)
    bust_seat(t, 2, 3)
    assert t.leave(2) == 0 and t.busted == ()
    with pytest.raises(ArgumentError, match="nobody busted there"):
        t.rebuy(2, 50)
    with pytest.raises(ArgumentError, match="seat 2 is empty"):
        t.leave(2)
