"""Burn cards, the "pokerkit" reshuffle, and a seat's own discards in its view
(docs/rules.md: *Draws*, *Running out of cards*, *Burn cards*; docs/engine.md: views).

Scenario tests with stacked decks under both draw procedures, and a property test: no
view ever shows a card its seat may not know, and each seat's own draws are shown
exactly, under every reshuffle rule, with and without burns."""

from __future__ import annotations

import random
import re
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from triple_draw import Deck, IllegalActionError
from triple_draw.errors import RulesError
from triple_draw.envs import encoding
from triple_draw.game import Hand, Rules
from triple_draw.game.cards import CARD_TEXT
from conftest import partition_ok, play_randomly, to_draw

PROCEDURES = ["declare-then-deal", "immediate"]


def stacked(rules: Rules, n: int = 3, seed: int = 1) -> tuple[Hand, list[int]]:
    order = list(range(52))
    random.Random(seed).shuffle(order)
    h = Hand(rules, [100] * n, button=n - 1, deck=Deck.stacked(order, seed=9))
    return h, order


# -- the option ---------------------------------------------------------------------------


def test_burn_cards_is_off_by_default_and_on_in_the_pokerkit_preset() -> None:
    assert Rules().burn_cards is False
    assert Rules.live().burn_cards is Rules.online().burn_cards is Rules.wsop().burn_cards is False
    r = Rules.pokerkit()
    assert (r.burn_cards, r.reshuffle) == (True, "pokerkit")
    assert Rules.pokerkit(burn_cards=False, reshuffle="served-discards").burn_cards is False
    with pytest.raises(RulesError, match="burn_cards must be a bool"):
        Rules(burn_cards=1)  # type: ignore[arg-type]
    with pytest.raises(RulesError, match="reshuffle must be one of"):
        Rules(reshuffle="pokerkits")
    assert Rules.from_dict(Rules.pokerkit().to_dict()) == Rules.pokerkit()
    # documents written before the option existed read as "no burns"
    d = Rules().to_dict()
    del d["burn_cards"]
    assert Rules.from_dict(d) == Rules()


def test_no_burn_without_the_option() -> None:
    h, order = stacked(Rules())
    to_draw(h)
    for _ in range(3):
        h.discard(h.hole_ids(h.actor)[:2])
    assert not any(e.kind == "burn" for e in h.history)
    assert h.hole_ids(0)[3:] == tuple(order[15:17])  # straight from the top of the stub


# -- when the card is burned ------------------------------------------------------------------


def test_burn_declare_then_deal_one_card_after_the_last_declaration() -> None:
    """The top card of the stub is burned once everyone has declared, before the first
    replacement; it is out of play at once."""
    h, order = stacked(Rules(burn_cards=True))
    to_draw(h)
    h.discard(h.hole_ids(0)[:2])
    h.discard(h.hole_ids(1)[:1])
    assert not any(e.kind == "burn" for e in h.history)  # not before the last declaration
    h.discard(h.hole_ids(2)[:3])
    kinds = [e.kind for e in h.history if e.kind in ("discard", "burn", "draw")]
    assert kinds == ["discard"] * 3 + ["burn"] + ["draw"] * 3
    burn = next(e for e in h.history if e.kind == "burn")
    assert burn.cards == (CARD_TEXT[order[15]],) and burn.amount == 0 and burn.seat is None
    assert h.hole_ids(0)[3:] == tuple(order[16:18])  # the replacements start after it
    assert h.hole_ids(1)[4:] == (order[18],)
    assert order[15] in h._card_partition()["out_of_play"]
    assert partition_ok(h)


def test_burn_immediate_before_the_first_players_replacements() -> None:
    h, order = stacked(Rules(burn_cards=True, draw_procedure="immediate"))
    to_draw(h)
    h.discard(h.hole_ids(0)[:2])
    kinds = [e.kind for e in h.history if e.kind in ("discard", "burn", "draw")]
    assert kinds == ["discard", "burn", "draw"]
    assert h.hole_ids(0)[3:] == tuple(order[16:18])
    h.discard(h.hole_ids(1)[:1])
    assert h.hole_ids(1)[4:] == (order[18],)  # one burn per draw only
    assert sum(e.kind == "burn" for e in h.history) == 1


@pytest.mark.parametrize("procedure", PROCEDURES)
def test_burn_at_every_draw_even_when_everyone_stands_pat(procedure: str) -> None:
    """PokerKit burns at each draw whatever the players do; so do we, so the stub runs
    out at the same point."""
    h, order = stacked(Rules(burn_cards=True, draw_procedure=procedure))
    while h.actor is not None:
        h.discard(()) if h.in_draw else h.check_or_call()
    burns = [e for e in h.history if e.kind == "burn"]
    assert [e.amount for e in burns] == [0, 1, 2]
    assert [e.cards for e in burns] == [(CARD_TEXT[c],) for c in order[15:18]]
    assert partition_ok(h)


@pytest.mark.parametrize("procedure", PROCEDURES)
def test_a_document_restores_after_a_draw_where_only_the_burn_card_was_dealt(
    procedure: str,
) -> None:
    """When everybody stands pat, the draw's burn card is the last card the deck gave:
    the document of the hand restores (it was refused: "$.deck.stub: does not hold the
    cards legal play leaves in the stub", the replay taking the document's deck before
    the burn), during the next betting round and once the hand is over, with or without
    a fold."""
    for fold in (False, True):
        h = Hand(Rules(burn_cards=True, draw_procedure=procedure), [100, 9, 13], 0, seed=3)
        while h.in_draw is False:
            h.check_or_call()
        while h.in_draw:
            h.discard(())
        kinds = [e.kind for e in h.history]
        assert "burn" in kinds and "draw" not in kinds  # the burn card alone was dealt
        assert Hand.from_dict(h.to_dict()).to_dict() == h.to_dict()
        h.bet_or_raise()
        h.fold() if fold else h.check_or_call()
        while h.actor is not None:
            h.discard(()) if h.in_draw else h.check_or_call()
        assert Hand.from_dict(h.to_dict()).to_dict() == h.to_dict()


@pytest.mark.parametrize("procedure", PROCEDURES)
def test_burned_cards_join_the_reshuffle_pool(procedure: str) -> None:
    """Six players throw five at every draw: the burned cards are dead cards, shuffled
    into the new stub like the folded hands and the earlier discards, and dealt again."""
    dealt_again = 0
    for seed in range(20):
        h = Hand(Rules(burn_cards=True, draw_procedure=procedure), [100] * 6, button=5, seed=seed)
        burned: set[str] = set()
        while h.actor is not None:
            if h.in_draw:
                h.discard(h.hole_ids(h.actor))
            else:
                h.check_or_call()
            assert partition_ok(h)
        for e in h.history:
            if e.kind == "burn":
                burned.update(e.cards or ())
            elif e.kind == "draw" and burned & set(e.cards or ()):
                dealt_again += 1
        assert any(e.kind == "reshuffle" for e in h.history)
    assert dealt_again >= 5


# -- the "pokerkit" reshuffle --------------------------------------------------------------------


def pokerkit_example(procedure: str) -> tuple[Hand, list[int]]:
    """The rules' worked example (A, B, C draw 3, 2, 1 with 4 cards left in the stub)."""
    from conftest import reshuffle_example

    return reshuffle_example(Rules(reshuffle="pokerkit", draw_procedure=procedure))


@pytest.mark.parametrize("procedure", PROCEDURES)
def test_reshuffle_pokerkit_takes_every_discard_of_the_draw(procedure: str) -> None:
    """PokerKit's refill (not a card room's rule): the pool is every card out of play,
    the discards of this draw included - the served player's own and, under
    declare-then-deal, those of the players not served yet."""
    h, order = pokerkit_example(procedure)
    out_before = list(h._out)
    a_throw, b_throw, c_throw = h.hole_ids(0)[:3], h.hole_ids(1)[:2], h.hole_ids(2)[:1]
    a_keep, b_keep, c_keep = h.hole_ids(0)[3:], h.hole_ids(1)[2:], h.hole_ids(2)[1:]
    h.discard(a_throw)
    h.discard(b_throw)
    h.discard(c_throw)
    if procedure == "immediate":  # C has not declared when B is served
        pool = out_before + list(a_throw) + list(b_throw)
    else:
        pool = out_before + list(a_throw) + list(b_throw) + list(c_throw)
    ref = Deck.stacked([], seed=99)
    ref.reshuffle(pool)
    new_stub = ref.stub_ids()
    assert h.hole_ids(0) == a_keep + tuple(order[48:51])
    assert h.hole_ids(1) == (*b_keep, order[51], new_stub[0])
    assert h.hole_ids(2) == (*c_keep, new_stub[1])
    assert [(e.seat, e.amount) for e in h.history if e.kind == "reshuffle"] == [(1, len(pool))]
    assert partition_ok(h)


def test_reshuffle_pokerkit_may_give_a_player_his_own_discard_of_this_draw() -> None:
    """What no rule book allows and PokerKit does: B can be dealt back the card he has
    just thrown (a given card the "served-discards" rule refuses)."""
    h, _ = pokerkit_example("declare-then-deal")
    b_throw = h.hole_ids(1)[:2]
    h.discard(h.hole_ids(0)[:3])
    stub_last = h._deck.stub_ids()[-1]
    h.discard(b_throw, receive=[stub_last, b_throw[0]])
    h.discard(h.hole_ids(2)[:1])
    assert b_throw[0] in h.hole_ids(1)
    from conftest import reshuffle_example

    live, _ = reshuffle_example(Rules())
    live.discard(live.hole_ids(0)[:3])
    t = live.hole_ids(1)[:2]
    with pytest.raises(IllegalActionError, match="he discarded it in this draw"):
        live.discard(t, receive=[live._deck.stub_ids()[-1], t[0]])


# -- given burn cards (replays) ------------------------------------------------------------------


def test_given_burn_card_is_checked_and_changes_nothing_when_refused() -> None:
    h, order = stacked(Rules(burn_cards=True))
    to_draw(h)
    h.discard(h.hole_ids(0)[:2])
    before = h.to_dict()
    with pytest.raises(IllegalActionError, match="not followed by the burn card"):
        h.discard(h.hole_ids(1)[:1], burn=order[20])  # the burn comes with the last one
    assert h.to_dict() == before
    h.discard(h.hole_ids(1)[:1])
    mid = h.to_dict()
    with pytest.raises(IllegalActionError, match=r"cannot burn .*: it is not in the stub"):
        h.discard(h.hole_ids(2)[:1], burn=h.hole_ids(0)[0])
    assert h.to_dict() == mid
    h.discard(h.hole_ids(2)[:1], burn=order[30])
    burn = next(e for e in h.history if e.kind == "burn")
    assert burn.cards == (CARD_TEXT[order[30]],)
    assert h.hole_ids(0)[3:] == tuple(order[15:17])  # the top of the stub is dealt
    assert partition_ok(h)


def test_burn_card_given_without_burns_is_refused() -> None:
    h = Hand(Rules(), [100] * 3, seed=1)
    to_draw(h)
    a = h.actor
    with pytest.raises(IllegalActionError, match="these rules burn no cards"):
        h.discard((), burn="2c")
    assert h.actor == a and not h.discards(a)


# -- a seat's own information --------------------------------------------------------------------

_CARD = re.compile(r"^[2-9TJQKA][cdhs]$")


def card_texts(node: Any) -> set[str]:
    if isinstance(node, str):
        return {node} if _CARD.match(node) else set()
    if isinstance(node, dict):
        return set().union(*(card_texts(v) for v in node.values()))
    if isinstance(node, list):
        return set().union(*(card_texts(v) for v in node))
    return set()


def check_views(h: Hand) -> None:
    """Every card in a seat's view is one it may know, and its own draws are exact."""
    shown = {c for e in h.history if e.kind == "show" for c in e.cards or ()}
    for s in range(h.n_players):
        v = h.view(s)
        mine = {
            e_c
            for e in h.history
            if e.seat == s and e.kind in ("deal", "discard", "draw")
            for e_c in e.cards or ()
        }
        assert card_texts(v) <= mine | shown, s
        # own draws, as the log has them
        want: list[dict[str, Any]] = []
        for e in h.history:
            if e.seat != s or e.kind not in ("discard", "draw"):
                continue
            if e.kind == "discard":
                want.append(
                    {"discarded": list(e.cards or ()), "received": [] if not e.cards else None}
                )
            else:
                want[-1]["received"] = list(e.cards or ())
        assert v["own_draws"] == want, s
        for e in v["history"]:
            if e["kind"] in ("discard", "draw"):
                assert ("cards" in e) == (e["seat"] == s)
            if e["kind"] in ("deal", "burn"):
                assert "cards" not in e
        # the observation vector's own discards agree with the view
        a = encoding.encode(h, s)
        b = encoding.encode_view(v, sum(h.starting_stacks))
        sl = slice(encoding.OBS_DISCARDS, encoding.OBS_DISCARDS + 52)
        assert np.array_equal(a[sl], b[sl]), s


RULE_SETS = [
    Rules(reshuffle=r, draw_procedure=p, burn_cards=b, max_players=8)
    for r in ("served-discards", "pokerstars", "pokerkit")
    for p in PROCEDURES
    for b in (False, True)
]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32 - 1),
    rules=st.sampled_from(RULE_SETS),
    n=st.integers(2, 8),
    heavy=st.floats(0.3, 1.0),
)
def test_views_never_leak_and_show_each_seat_its_own_draws(
    seed: int, rules: Rules, n: int, heavy: float
) -> None:
    rng = random.Random(seed)
    h = Hand(
        rules, [rng.choice([5, 30, 500]) for _ in range(n)], button=rng.randrange(n), seed=seed
    )
    check_views(h)

    def after_each_action(h: Hand, _: object) -> None:
        check_views(h)
        assert partition_ok(h)

    play_randomly(h, rng, weight=5, discard_each=heavy, each=after_each_action)


def test_the_server_never_broadcasts_a_seats_own_discards() -> None:
    """The table server builds the public history shared by every connection from one
    seat's view: that seat's own discard and draw cards are dropped from it."""
    from triple_draw.server.protocol import hand_frame

    h = Hand(Rules(burn_cards=True), [100] * 3, seed=2)
    to_draw(h)
    for _ in range(3):
        h.discard(h.hole_ids(h.actor)[:2])
    view = h.view(0)
    assert any("cards" in e for e in view["history"] if e["kind"] in ("discard", "draw"))
    _, events = hand_frame(view, 1, 1, (0, 1, 2), own=False)
    assert not any("cards" in e for e in events if e["kind"] in ("discard", "draw", "burn"))
    assert any(e["kind"] == "burn" for e in events)
