"""docs/security.md, *Bounds*: every chip count and count enters the engine within what
the whole engine carries (a stack or stake at most ``MAX_CHIPS`` = 2**50 - 1, so a full
table's chips stay below 2**53; ``raise_cap`` at most 100; a round without a cap at most
``UNCAPPED`` full bets), refused with a ``TripleDrawError`` naming the field, never an
``OverflowError`` later."""

from __future__ import annotations

import json

import pytest

from triple_draw import Hand, Rules, Table, phh
from triple_draw.errors import TripleDrawError
from triple_draw.game.rules import MAX_CHIPS, MAX_RAISE_CAP, UNCAPPED
from triple_draw.game.state_io import MAX_TEXT


@pytest.mark.parametrize(
    ("make", "field"),
    [
        (lambda: Hand(Rules(), [2**63] * 3), "stacks"),
        (lambda: Hand(Rules(), [MAX_CHIPS + 1, 5]), "stacks"),
        (lambda: Rules(raise_cap=2**63), "raise_cap"),
        (lambda: Rules(raise_cap=MAX_RAISE_CAP + 1), "raise_cap"),
        (lambda: Rules(big_bet=10**400), "big_bet"),
        (lambda: Rules(rake_cap=2**60), "rake_cap"),
        (lambda: Table(Rules(), [100, 100]).rebuy(0, 2**64), "stack"),
        (lambda: Table(Rules(), [100, 100]).rebuy(0, MAX_CHIPS - 50), "rebuy"),
        (lambda: Table(Rules(), [100, None]).sit(1, 2**60), "stack"),
        (lambda: Hand(Rules(), [10, 10, 10], posts={0: (0, 2**60)}), "posts"),
    ],
)
def test_numbers_out_of_range_are_refused_where_they_enter(make, field: str) -> None:
    with pytest.raises(TripleDrawError, match=field):
        make()


def test_a_table_document_with_a_huge_stack_is_refused() -> None:
    t = Table(Rules(), [100, 100, 100], seed=1)
    d = t.to_dict()
    d["seats"][0]["stack"] = 10**400
    with pytest.raises(TripleDrawError, match="stack"):
        Table.from_dict(d)


def test_a_phh_amount_out_of_range_is_refused() -> None:
    h = Hand(Rules(), [100, 100, 100], button=2, seed=3)
    h.fold()
    h.fold()
    text = phh.dumps(h).replace("100,", f"{2**60},", 1)
    with pytest.raises(TripleDrawError, match="at most"):
        phh.loads(text)


def test_the_biggest_stacks_play_and_view_without_overflow() -> None:
    h = Hand(Rules(), [MAX_CHIPS] * 6, seed=1)
    while not h.is_over:
        h.view(h.actor)
        if h.in_draw:
            h.discard([])
        elif h.can_bet_or_raise():
            h.bet_or_raise()
        else:
            h.check_or_call()
    assert sum(h.stacks) == 6 * MAX_CHIPS
    assert sum(h.stacks) < 2**53
    h.view(0)
    assert Hand.from_dict(h.to_dict()).stacks == h.stacks


def test_the_longest_legal_documents_fit_the_readers_limit() -> None:
    # eight players raising to the cap in every round, everyone calling: the most events
    rules = Rules(raise_cap=MAX_RAISE_CAP, max_players=8)
    h = Hand(rules, [MAX_CHIPS] * 8, seed=1)
    while not h.is_over:
        if h.in_draw:
            h.discard(list(h.hole_ids(h.actor)))  # throw five: the longest histories
        elif h.can_bet_or_raise():
            h.bet_or_raise()
        else:
            h.check_or_call()
    text = json.dumps(h.to_dict())
    assert len(text) < MAX_TEXT
    assert Hand.from_json(text).stacks == h.stacks
    # heads-up without a cap: a round holds at most UNCAPPED full bets
    h = Hand(Rules(heads_up_uncapped=True), [MAX_CHIPS] * 2, seed=1)
    while not h.is_over:
        if h.in_draw:
            h.discard(list(h.hole_ids(h.actor)))
        elif h.can_bet_or_raise():
            h.bet_or_raise()
        else:
            h.check_or_call()
    per_round = [0]
    for e in h.history:
        if e.kind == "begin_round":
            per_round.append(0)
        elif e.kind in ("bet", "raise"):
            per_round[-1] += 1
    assert max(per_round) == UNCAPPED  # the bound, reached
    text = json.dumps(h.to_dict())
    assert len(text) < MAX_TEXT
    assert Hand.from_json(text).stacks == h.stacks
