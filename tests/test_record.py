"""Hands replayed from a record with unknown cards (docs/engine.md: *Records with unknown
cards*): betting and chips exactly, known cards checked wherever they appear, unknown
cards never invented, the showdown decided by the cards shown."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

import pytest

from triple_draw import Hand, Rules
from triple_draw.errors import (
    ArgumentError,
    IllegalActionError,
    TripleDrawError,
    UnknownCardsError,
)
from triple_draw.game import Action
from triple_draw.game.cards import UNKNOWN
from conftest import play_randomly

HERO = "7c5d4h3s2c"


def snapshot(h: Hand) -> Any:
    """Everything a record hand holds (its state document is refused)."""
    return (
        [tuple(h._hands[s]) for s in range(h.n_players)],
        h.history,
        h.stacks,
        h.phase,
        h.actor,
        h.street,
        h._deck.stub_ids(),
        list(h._out),
    )


def refused(h: Hand, call: Any, match: str) -> None:
    before = snapshot(h)
    with pytest.raises(TripleDrawError, match=match):
        call()
    assert snapshot(h) == before


def three_way(rules: Rules | None = None, hole: Any = None) -> Hand:
    """Seat 1 (the small blind) is the hero; seat 0 is the button, seat 2 the big blind."""
    return Hand(
        rules or Rules(), [100] * 3, 0, hole_cards=hole or [None, HERO, None], record=True
    )


def to_draw(h: Hand) -> None:
    while h.phase == "bet":
        h.check_or_call()


def stand_pat_to_showdown(h: Hand) -> None:
    while h.phase in ("bet", "draw"):
        if h.phase == "draw":
            h.discard([])
        else:
            h.check_or_call()


def test_unknown_cards_are_placeholders_and_the_stub_is_counted() -> None:
    h = three_way()
    assert h.is_record
    assert h.hole_text(0) == ("??",) * 5
    assert h.hole_text(1) == tuple(HERO[i : i + 2] for i in range(0, 10, 2))
    assert len(h._deck) == 52 - 15
    to_draw(h)
    h.discard(["7c"], receive=["8d"])  # the hero: known cards in and out
    h.discard(["??", "??"])  # seat 2 throws two unknown cards
    h.discard([UNKNOWN] * 5)  # seat 0, as ids
    assert h.hole_text(1) == ("5d", "4h", "3s", "2c", "8d")
    assert h.hole_text(2) == ("??",) * 5
    assert len(h._deck) == 52 - 15 - 8
    assert sorted(h._out) == sorted([20] + [UNKNOWN] * 7)  # 7c and seven unknown cards
    with pytest.raises(UnknownCardsError):
        h.hole_cards(2)
    with pytest.raises(UnknownCardsError, match="no state document"):
        h.to_dict()


def test_a_record_deals_nothing_at_random() -> None:
    with pytest.raises(ArgumentError, match="nothing at random"):
        Hand(Rules(), [100] * 3, record=True, seed=1)
    with pytest.raises(ArgumentError, match="record=True"):
        Hand(Rules(), [100] * 3, rake=1)
    with pytest.raises(TripleDrawError, match="duplicate"):
        Hand(Rules(), [100] * 3, hole_cards=[None, HERO, "7c8c9cTcJc"], record=True)


def test_discards_of_unknown_cards_are_counted() -> None:
    h = three_way()
    to_draw(h)
    h.discard([])  # the hero
    refused(h, lambda: h.discard(["7c"]), "cannot hold 7c: seat 1 holds it")
    refused(h, lambda: h.discard(["??"] * 6), "at most five|does not hold|unknown")
    refused(h, lambda: h.discard("junk"), "bad discard")
    choices = h.legal_actions()
    assert len(choices) == 6  # 0..5 unknown cards
    h.apply(choices[3])
    assert h.draws(2) == (3,)


def test_a_known_card_is_never_in_two_places() -> None:
    h = three_way()
    to_draw(h)
    # the hero cannot receive a card he holds, nor one he throws in this draw
    refused(h, lambda: h.discard(["7c"], receive=["5d"]), "holds it")
    refused(h, lambda: h.discard(["7c"], receive=["7c"]), "discarded it in this draw")
    h.discard(["7c"], receive=["8d"])
    h.discard(["??"])
    h.discard([])
    to_draw(h)
    # 7c is out of play until a reshuffle brings it back
    refused(h, lambda: h.discard(["8d"], receive=["7c"]), "out of play")
    h.discard(["8d"], receive=["9d"])
    h.discard([])
    h.discard([])
    to_draw(h)
    h.discard([])
    h.discard([])
    h.discard([])
    to_draw(h)
    assert h.phase == "showdown" and h.actor == 1
    h.show()
    # seat 2 cannot show a card the hero holds, nor one out of play
    refused(h, lambda: h.show("5d Kc Qc Jc 9c"), "seat 1 holds it")
    refused(h, lambda: h.show("7c Kc Qc Jc 9c"), "out of play")
    refused(h, lambda: h.show("Kc Qc Jc 9c"), "five different cards")
    refused(h, lambda: h.show(None), "must name the cards")
    h.show("Kc Qc Jc 9c 6d")
    refused(h, lambda: h.show("Kc Qd Jd 9d 6h"), "seat 2 holds it")
    h.muck()
    res = h.result
    assert res is not None and res.winners == (1,)
    assert [e.shown for e in res.showdown] == [True, True, False]


def test_a_discard_comes_back_only_through_a_reshuffle() -> None:
    # heads-up, both drawing five: the stub (42) runs out in the second draw
    h = Hand(Rules(), [100, 100], 0, hole_cards=[HERO, None], record=True)
    to_draw(h)
    h.discard(["??"] * 5)  # seat 1 (the big blind) first
    thrown = list(h.hole_text(0))
    h.discard(thrown, receive="KcKdKhKsQc")
    to_draw(h)
    h.discard(["??"] * 5)
    h.discard(["Kc", "Kd", "Kh", "Ks", "Qc"], receive="QdQhQsJcJd")
    to_draw(h)
    assert len(h._deck) == 42 - 20
    h.discard(["??"] * 5)
    h.discard(["Qd", "Qh", "Qs", "Jc", "Jd"], receive="JhJsTcTdTh")
    assert len(h._deck) == 42 - 30
    to_draw(h)
    # no reshuffle yet: seat 1 (first to show heads-up) cannot show the hero's discards
    assert h.actor == 1
    refused(h, lambda: h.show("7c 5d 4h 3s 2c"), "out of play")
    h.show("9c 8c 6h 5h 4d")


def test_reshuffled_cards_are_known_in_the_stub_until_an_unknown_card_is_dealt() -> None:
    rules = Rules(reshuffle="served-discards")
    h = Hand(rules, [100] * 2, 0, hole_cards=[HERO, None], record=True)
    hero = "7c 5d 4h 3s 2c".split()
    news = ["KcKdKhKsQc", "QdQhQsJcJd", "JhJsTcTdTh"]
    for d in range(3):
        to_draw(h)
        h.discard(["??"] * 5)
        h.discard(hero, receive=news[d])
        hero = [news[d][i : i + 2] for i in range(0, 10, 2)]
    # 42 - 30 = 12 left; everything thrown is out of play
    assert len(h._deck) == 12
    assert h._deck.stub_ids() == [UNKNOWN] * 12


def test_pokerstars_never_gives_a_player_a_known_card_he_threw() -> None:
    # six players all drawing five: the stub (22) runs out in the first draw
    rules = Rules.online(2)
    hole: list[Any] = [None] * 6
    hole[1] = HERO  # the small blind: first to draw
    h = Hand(rules, [100] * 6, 0, hole_cards=hole, record=True)
    to_draw(h)
    h.discard(list(h.hole_text(1)), receive="KcKdKhKsQc")
    for _ in range(4):
        h.discard(["??"] * 5)
    assert h._reshuffled
    h.discard(["??"] * 5)
    to_draw(h)
    # the hero's first discards are back in play, but never for him
    refused(h, lambda: h.discard(["Kc"], receive=["7c"]), "pokerstars")
    h.discard(["Kc"], receive=["9c"])


def test_the_served_discards_rule_gives_a_player_back_an_earlier_discard() -> None:
    rules = Rules(draw_procedure="immediate")
    hole: list[Any] = [None] * 6
    hole[1] = HERO
    h = Hand(rules, [100] * 6, 0, hole_cards=hole, record=True)
    to_draw(h)
    h.discard(list(h.hole_text(1)), receive="KcKdKhKsQc")
    for _ in range(5):
        h.discard(["??"] * 5)
    to_draw(h)
    assert h._reshuffled
    h.discard(["Kc"], receive=["7c"])  # 7c went into the new stub: it may come back
    assert "7c" in h.hole_text(1)


def test_showdown_order_muck_and_winning_without_showing() -> None:
    h = three_way()
    to_draw(h)
    stand_pat_to_showdown(h)
    assert h.phase == "showdown" and h.actor == 1
    assert h.view(1)["legal_actions"] == [{"kind": "show"}, {"kind": "muck"}]
    assert h.legal_actions() == []
    refused(h, lambda: h.check_or_call(), "showdown")
    refused(h, lambda: h.discard([]), "showdown")
    h.muck()
    h.muck()
    # everybody else mucked: seat 0 wins without showing
    assert h.is_over
    res = h.result
    assert res is not None and res.winners == (0,)
    assert [(e.seat, e.shown) for e in res.showdown] == [(1, False), (2, False), (0, False)]
    refused(h, lambda: h.muck(), "over")


def test_side_pot_nobody_shows_for_goes_to_its_last_player() -> None:
    h = Hand(Rules(), [10, 100, 100], 0, hole_cards=[None, HERO, None], record=True)
    h.bet_or_raise()  # seat 0 raises to 4
    h.check_or_call()
    h.check_or_call()
    while not h.phase == "showdown":
        if h.phase == "draw":
            h.discard([])
        elif h.actor == 0 and h.to_call == 0 and h.stacks[0]:
            h.bet_or_raise()
        else:
            h.bet_or_raise() if h.can_bet_or_raise() and h.actor == 1 else h.check_or_call()
    order = []
    while h.phase == "showdown":
        order.append(h.actor)
        if h.actor == 0:
            h.show("Kc Qc Jc 9c 6d")
        else:
            h.muck()
    res = h.result
    assert res is not None
    assert res.pots[0].winners == (0,)
    if len(res.pots) > 1:  # the side pot of seats 1 and 2: both mucked, the last takes it
        last = [s for s in order if s in res.pots[1].eligible][-1]
        assert res.pots[1].winners == (last,)
    assert sum(res.stacks) == 210


def test_views_show_what_the_record_knows() -> None:
    h = three_way()
    v = h.view(1)
    assert v["hole_cards"] == ["7c", "5d", "4h", "3s", "2c"]
    assert h.view(0)["hole_cards"] == ["??"] * 5
    to_draw(h)
    h.discard(["7c"], receive=["8d"])
    h.discard(["??", "??"])
    h.discard([])
    v = h.view(2)
    assert all(e.get("cards") in (None, ["??"] * 5, ["??", "??"]) for e in v["history"])
    assert h.view(1)["own_draws"][0]["received"] == ["8d"]


def test_the_rake_a_record_took() -> None:
    h = Hand(Rules(), [100] * 3, 0, hole_cards=[None, HERO, None], record=True, rake=1)
    to_draw(h)
    stand_pat_to_showdown(h)
    h.show()
    h.muck()
    h.muck()
    res = h.result
    assert res is not None and res.rake == 1
    assert res.pots[0].shares == ((1, 5),)
    assert sum(res.stacks) + res.rake == 300
    with pytest.raises(ArgumentError, match="rake"):
        Hand(Rules(), [100] * 3, hole_cards=[None, HERO, None], record=True, rake=-1)


def test_a_hand_won_before_the_showdown() -> None:
    h = three_way()
    h.fold()
    h.fold()
    assert h.is_over
    res = h.result
    assert res is not None and res.winners == (2,) and res.net == (0, -1, 1)


def test_a_discard_shown_face_up_names_one_of_his_unknown_cards() -> None:
    h = three_way()
    to_draw(h)
    h.discard([])
    h.discard(["Kd", "??"])  # seat 2 shows one of his discards
    assert h.hole_text(2) == ("??",) * 3  # (declared: his replacements come after seat 0's)
    h.discard([])
    assert h.hole_text(2) == ("??",) * 5
    assert "Kd" in [c for e in h.history if e.kind == "discard" for c in e.cards or ()]
    to_draw(h)
    refused(h, lambda: h.discard(["5d"], receive=["Kd"]), "out of play")


RULE_SETS = [
    Rules(max_players=8),
    Rules.online(2, max_players=8),
    Rules.pokerkit(max_players=8),
    Rules(burn_cards=True, max_players=8),
    Rules.online(2, burn_cards=True, max_players=8),
    Rules(rake_percent="5", rake_cap=3, max_players=8),
]


def draws_heavily(rng: random.Random) -> Callable[[Sequence[Action]], Action]:
    """A draw of five cards, twice as often as of four, three or none: the stub runs out."""
    return lambda choices: choices[rng.choice((0, 31, 31, 15, 7))]


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: f"{r.reshuffle}-{r.burn_cards}")
def test_every_players_view_replays_as_a_record(rules: Rules) -> None:
    from triple_draw import phh

    for n in range(2, 9):
        for seed in range(4):
            h = Hand(rules, [200] * n, seed=seed)
            rng = random.Random(seed)
            play_randomly(h, rng, fold_chance=0.15, draw=draws_heavily(rng))
            for viewer in range(n):
                back = phh.loads(phh.dumps(h, viewer=viewer))
                assert back.is_record
                assert back.stacks == h.stacks
                assert back.result.rake == h.result.rake
                assert back.hole_text(viewer) == h.hole_text(viewer)
                again = phh.loads(phh.dumps(back))  # a record writes back as itself
                assert again.stacks == h.stacks and again.history == back.history


def test_the_errors_of_a_record_name_the_problem() -> None:
    from triple_draw.errors import ArgumentTypeError

    with pytest.raises(ArgumentTypeError, match="record must be a bool"):
        Hand(Rules(), [100] * 3, record=1)  # type: ignore[arg-type]
    dealt = Hand(Rules(), [100] * 3, seed=1)
    with pytest.raises(IllegalActionError, match="automatic"):
        dealt.show()
    h = Hand(Rules(), [100] * 3, 0, hole_cards=[None, "7c5d??3s??", None], record=True)
    refused(h, lambda: h.show(), "not at its showdown")
    refused(h, lambda: h.muck(), "not at its showdown")
    to_draw(h)
    refused(h, lambda: h.discard(["??", "??", "??"]), "3 unknown cards: he holds 2")
    # a recorded rake larger than the pot it comes from takes the pot, and says so
    h = Hand(Rules(), [100] * 3, 0, hole_cards=[None, HERO, None], record=True, rake=50)
    h.fold()
    h.fold()
    assert h.result.rake == 2 and sum(h.stacks) + h.result.rake == 300
