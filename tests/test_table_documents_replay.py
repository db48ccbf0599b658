"""docs/security.md: a table document is believed only where legal play can give it -
its hand under the table's rules, the hand's button and blinds where the table's
positions put them, the posts the hand opens with, no chips lost between hands - and
every document a table writes restores, at every point of a long session with seat
changes, posts and busts."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable

import pytest

from triple_draw import IllegalActionError, Rules, SchemaError
from triple_draw.game import Table
from conftest import play_randomly


def doc_mid_hand(seed: int = 1, rule: str = "dead") -> dict:
    """A table in the middle of a hand into which a new player posted to come in."""
    rnd = random.Random(seed)
    t = Table(Rules(), [60, 60, 60, 60, None, 60], seed=seed, button_rule=rule)
    t.new_hand()
    for _ in range(20):
        h = t.hand
        if h is not None:
            play_randomly(h, rnd)
        if t.status(4) is None:
            t.sit(4, 80, post=True)
        h = t.new_hand()
        if t.posts:
            h.check_or_call()
            return t.to_dict()
    raise AssertionError("no hand with an entry post")


def restores(t: Table) -> Callable[..., None]:
    """A check for ``play_randomly(each=...)``: the table's document, through JSON,
    restores to itself."""

    def check(*_: object) -> None:
        d = t.to_dict()
        assert Table.from_dict(json.loads(json.dumps(d))).to_dict() == d

    return check


def test_every_document_of_a_long_session_restores() -> None:
    for rule in ("dead", "moving"):
        rnd = random.Random(7)
        t = Table(Rules(ante=1), [30, 5, 60, None, 12, 60], seed=3, button_rule=rule)
        for _ in range(60):
            for s in range(6):
                st = t.status(s)
                r = rnd.random()
                if st is None and r < 0.2:
                    t.sit(s, rnd.choice([3, 20, 60]), post=rnd.random() < 0.5)
                elif st == "sitting_out" and r < 0.4:
                    t.sit_in(s)
                elif st == "active" and r < 0.08:
                    t.sit_out(s)
                elif st == "active" and r < 0.12:
                    t.rebuy(s, 10)
            try:
                h = t.new_hand()
            except IllegalActionError:
                continue
            check = restores(t)
            check()
            play_randomly(h, rnd, each=check)  # at every decision
            d = t.to_dict()
            assert Table.from_dict(d).to_dict() == d


def test_a_hand_under_other_stakes_than_the_tables_is_refused() -> None:
    d = doc_mid_hand()
    d["rules"]["small_bet"] = d["rules"]["big_bet"] = 4
    d["rules"]["big_blind"] = 4
    with pytest.raises(SchemaError, match="other rules"):
        Table.from_dict(d)


def test_a_button_moved_away_from_the_hands_is_refused() -> None:
    d = doc_mid_hand()
    hand_btn = d["hand"]["seat_map"][d["hand"]["state"]["button"]]
    for btn in range(6):
        if btn == d["button"]:
            continue
        bad = copy.deepcopy(d)
        bad["button"] = bad["last_blinds"][0] = btn
        try:
            Table.from_dict(bad)
        except SchemaError:
            continue
        # accepted only where the table's rule gives the hand the same button
        smap = d["hand"]["seat_map"]
        assert next(x for x in ((btn - k) % 6 for k in range(6)) if x in smap) == hand_btn


def test_posts_that_disagree_with_the_hand_are_refused() -> None:
    d = doc_mid_hand()
    assert d["hand"]["posts"], "seat 4 posts to come in"
    bad = copy.deepcopy(d)
    bad["hand"]["posts"][0][1] += 1 if bad["hand"]["posts"][0][1] == 0 else -1
    with pytest.raises(SchemaError, match="posts"):
        Table.from_dict(bad)
    bad = copy.deepcopy(d)
    bad["hand"]["posts"] = []
    with pytest.raises(SchemaError, match="posts"):
        Table.from_dict(bad)


def test_chips_that_vanish_between_hands_are_refused() -> None:
    rnd = random.Random(2)
    t = Table(Rules(), [60, 60, 60], seed=2)
    play_randomly(t.new_hand(), rnd)
    d = t.to_dict()
    s = next(i for i, x in enumerate(d["seats"]) if x is not None and x["stack"] > 1)
    bad = copy.deepcopy(d)
    bad["seats"][s]["stack"] -= 1
    with pytest.raises(SchemaError, match="chips only come in"):
        Table.from_dict(bad)
    more = copy.deepcopy(d)
    more["seats"][s]["stack"] += 5  # a rebuy: legal
    assert Table.from_dict(more).seats[s] == d["seats"][s]["stack"] + 5
