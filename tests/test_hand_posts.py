"""The forced-bet hook of a hand that a table deals (docs/table.md): a hand with no small
blind (dead small blind under the dead-button rule) and extra posts of players coming into
the game (a live big blind, a dead small blind)."""

from __future__ import annotations

import json
import pickle

import pytest

from triple_draw import ArgumentError, Rules
from triple_draw.game import Hand
from conftest import play_randomly

R = Rules()


def test_no_small_blind_the_first_seat_left_of_the_button_posts_the_big_blind():
    h = Hand(R, [100, 100, 100, 100], button=1, seed=3, no_small_blind=True)
    assert h.small_blind_seat is None and h.big_blind_seat == 2
    assert h.bets == (0, 0, 2, 0) and h.pot == 2
    assert h.actor == 3  # first left of the big blind
    kinds = [(e.kind, e.seat) for e in h.history if e.kind.startswith("post")]
    assert kinds == [("post_big_blind", 2)]
    # the deal starts with the first seat left of the button
    assert [e.seat for e in h.history if e.kind == "deal"] == [2, 3, 0, 1]
    # after the draw the first seat left of the button acts first
    while h.street == 0 and not h.in_draw:
        h.check_or_call()
    assert h.actor == 2


def test_live_post_is_a_big_blind_with_the_option_and_dead_money_is_in_the_pot():
    # seat 4 posts a live big blind and a dead small blind (a returning player)
    h = Hand(R, [100] * 5, button=0, seed=1, posts={4: (2, 1)})
    assert h.bets == (0, 1, 2, 0, 2)
    assert h.committed == (0, 1, 2, 0, 3) and h.pot == 6
    assert h.stacks[4] == 97
    posts = [(e.kind, e.seat, e.amount) for e in h.history if e.kind.startswith("post")]
    assert posts == [
        ("post_small_blind", 1, 1),
        ("post_big_blind", 2, 2),
        ("post_big_blind", 4, 2),
        ("post_ante", 4, 1),
    ]
    h.check_or_call()  # seat 3 calls 2
    assert h.actor == 4 and h.to_call == 0 and h.can_bet_or_raise()  # his option
    h.check_or_call()  # seat 4 checks
    h.check_or_call()  # seat 0 calls
    h.check_or_call()  # seat 1 completes
    assert h.actor == 2 and h.to_call == 0  # the big blind's option
    h.check_or_call()
    assert h.in_draw and sum(h.stacks) + h.pot == 500


def test_chips_conserved_with_posts_through_a_whole_hand():
    import random

    rnd = random.Random(4)
    for k in range(200):
        n = rnd.randint(3, 6)
        stacks = [rnd.randint(1, 30) for _ in range(n)]
        button = rnd.randrange(n)
        nosb = rnd.random() < 0.5
        bb = (button + 1) % n if nosb else (button + 2) % n
        others = [s for s in range(n) if s != bb and (nosb or s != (button + 1) % n)]
        posts = {s: (rnd.choice([0, 2]), rnd.choice([0, 1])) for s in rnd.sample(others, 1)}
        posts = {s: v for s, v in posts.items() if sum(v)}
        h = play_randomly(Hand(R, stacks, button, seed=k, no_small_blind=nosb, posts=posts), rnd)
        assert sum(h.stacks) == sum(stacks)


def test_save_restore_keeps_the_blind_seats():
    h = Hand(R, [50, 60, 70, 80], button=3, seed=9, no_small_blind=True, posts={2: (2, 1)})
    h.check_or_call()
    d = json.loads(json.dumps(h.to_dict()))
    g = Hand.from_dict(d)
    assert g.small_blind_seat is None and g.big_blind_seat == 0
    assert g.to_dict() == h.to_dict()
    assert g.view(1)["small_blind_seat"] is None
    p = pickle.loads(pickle.dumps(h))
    assert p.small_blind_seat is None and p.big_blind_seat == 0
    from triple_draw.schema import validate_view

    validate_view(g.view(1))


@pytest.mark.parametrize(
    "kwargs",
    [
        {"no_small_blind": 1},
        {"posts": {1: (2, 0)}},  # the small blind's seat
        {"posts": {2: (2, 0)}},  # the big blind's seat
        {"posts": {7: (2, 0)}},
        {"posts": {3: (3, 0)}},  # more than a big blind live
        {"posts": {3: (0, -1)}},
        {"posts": {3: (0, 0)}},
        {"posts": {3: 2}},
        {"posts": [3]},
    ],
)
def test_bad_forced_bets_are_refused(kwargs):
    with pytest.raises(ArgumentError):
        Hand(R, [100] * 4, button=0, seed=1, **kwargs)


def test_heads_up_always_has_a_small_blind():
    with pytest.raises(ArgumentError, match="heads-up"):
        Hand(R, [100, 100], no_small_blind=True)


# -- PHH: a table's forced bets are written as each player's antes and blinds ------------


def _random_table_hand(rnd, k):
    n = rnd.randint(3, 6)
    stacks = [rnd.randint(1, 40) for _ in range(n)]
    button = rnd.randrange(n)
    nosb = rnd.random() < 0.5
    bb = (button + 1) % n if nosb else (button + 2) % n
    others = [s for s in range(n) if s != bb and (nosb or s != (button + 1) % n)]
    seats = rnd.sample(others, min(2, len(others)))
    posts = {s: (rnd.choice([0, 1, 2]), rnd.choice([0, 1])) for s in seats}
    posts = {s: v for s, v in posts.items() if sum(v)}
    rules = Rules(ante=rnd.choice([0, 0, 1]))
    h = Hand(rules, stacks, button, seed=k, no_small_blind=nosb, posts=posts)
    return play_randomly(h, rnd, until=lambda _: rnd.random() >= 0.97)  # some stop mid-hand


def test_phh_of_a_table_hand_loads_back_to_the_same_hand():
    import random

    from triple_draw import phh

    rnd = random.Random(11)
    for k in range(150):
        h = _random_table_hand(rnd, k)
        text = phh.dumps(h)
        g = phh.loads(text, seed=k)
        assert g.small_blind_seat == h.small_blind_seat
        assert g.big_blind_seat == h.big_blind_seat
        assert g.history == h.history
        assert g.to_dict() == h.to_dict()
        assert phh.dumps(g) == text
        # a player's view (other players' cards unknown) loads to the same chips
        v = phh.loads(phh.dumps(h, viewer=h.big_blind_seat), seed=k)
        assert v.stacks == h.stacks and v.committed == h.committed


def test_phh_forced_bets_are_each_players_dead_and_live_chips():
    from triple_draw import phh
    from triple_draw.phh.base import parse_toml

    h = Hand(R, [50, 60, 70, 80, 90], button=3, seed=9, no_small_blind=True, posts={2: (2, 1)})
    doc = parse_toml(phh.dumps(h))
    # PHH order starts left of the button: p1 = seat 4 (the big blind), p4 = seat 2
    assert doc["blinds_or_straddles"] == [2, 0, 0, 2, 0]
    assert doc["antes"] == [0, 0, 0, 1, 0]
    assert doc["_triple_draw_forced_bets"] == {
        "small_blind": 1,
        "big_blind": 2,
        "ante": 0,
        "no_small_blind": True,
    }
    # a hand with the usual blinds only is written as before, without the field
    assert "_triple_draw_forced_bets" not in parse_toml(phh.dumps(Hand(R, [50] * 5, seed=1)))


def test_phh_with_table_forced_bets_builds_the_hand_with_posts():
    from triple_draw import phh

    text = """
variant = "F2L3D"
antes = [0, 0, 1, 0]
blinds_or_straddles = [1, 2, 2, 0]
small_bet = 2
big_bet = 4
starting_stacks = [100, 100, 100, 100]
actions = []
[_triple_draw_forced_bets]
small_blind = 1
big_blind = 2
ante = 0
no_small_blind = false
"""
    h = phh.loads(text, seed=1)
    # p1..p4 are seats 0..3 with the button at seat 3: p3 = seat 2 posts 2 live, 1 dead
    assert h.small_blind_seat == 0 and h.big_blind_seat == 1
    assert h.committed == (1, 2, 3, 0) and h.bets == (1, 2, 2, 0)
    assert h.actor == 2


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"blinds_or_straddles": "[0, 2, 0, 0]"}, "posts less than"),
        ({"blinds_or_straddles": "[1, 3, 0, 0]"}, "posts a blind"),
        ({"blinds_or_straddles": "[1, 2, 3, 0]"}, "at most the big blind"),
        ({"antes": "[0, 0, -1, 0]"}, ">= 0"),
        ({"no_small_blind": "1"}, "true or false"),
        ({"ante": '"x"'}, "number of chips"),
        ({"colour": "1"}, "must be a table of"),
    ],
)
def test_phh_bad_forced_bets_are_refused(change, message):
    from triple_draw import HistoryError, phh

    fields = {"antes": "[0, 0, 0, 0]", "blinds_or_straddles": "[1, 2, 0, 0]"}
    forced = {"small_blind": "1", "big_blind": "2", "ante": "0", "no_small_blind": "false"}
    for k, v in change.items():
        (fields if k in fields else forced)[k] = v
    text = (
        'variant = "F2L3D"\n'
        + "".join(f"{k} = {v}\n" for k, v in fields.items())
        + "small_bet = 2\nbig_bet = 4\nstarting_stacks = [100, 100, 100, 100]\nactions = []\n"
        + "[_triple_draw_forced_bets]\n"
        + "".join(f"{k} = {v}\n" for k, v in forced.items())
    )
    with pytest.raises(HistoryError, match=message):
        phh.loads(text)


def test_phh_heads_up_cannot_lack_the_small_blind():
    from triple_draw import HistoryError, phh

    text = (
        'variant = "F2L3D"\nantes = [0, 0]\nblinds_or_straddles = [2, 0]\nsmall_bet = 2\n'
        "big_bet = 4\nstarting_stacks = [100, 100]\nactions = []\n"
        "[_triple_draw_forced_bets]\nsmall_blind = 1\nbig_blind = 2\nante = 0\n"
        "no_small_blind = true\n"
    )
    with pytest.raises(HistoryError, match="heads-up"):
        phh.loads(text)
