"""The public record of a hand (state.py: ``_draws``, ``_uncounted``, ``_posted``, with
``_live`` and ``_bet``), kept up to date where the events happen, holds what the log
says at every decision: each seat's draw counts, and the bets, raises and calls of the
betting round (``betting.round_action``) - under every rule that changes how a round is
counted, in hands the engine deals and in records replayed from hand histories."""

from __future__ import annotations

import random

import pytest

from conftest import bot_hands, bot_hands_as_pokerstars, play_randomly
from triple_draw import Hand, Rules, histories
from triple_draw.game import events as ev
from triple_draw.game.betting import round_action


def _draws_in_log(h: Hand, seat: int) -> tuple[int, ...]:
    return tuple(len(e[3] or ()) for e in h._log if e[0] == ev.DISCARD and e[1] == seat)


def _round_in_log(h: Hand) -> tuple[int, bool]:
    """The bets and raises of the round under way and whether anybody called, bet or
    raised in it, scanned from the log (what the views' history says)."""
    if h._phase != 0:
        return 0, False
    bets = 0
    voluntary = False
    for kind, *_ in reversed(h._log):
        if kind == ev.BEGIN_ROUND:
            break
        if kind in (ev.BET, ev.RAISE):
            bets += 1
            voluntary = True
        elif kind == ev.CALL:
            voluntary = True
    return bets, voluntary


def _check(h: Hand, _action: object = None) -> None:
    for j in range(h.n_players):
        assert h.draws(j) == _draws_in_log(h, j), j
        assert type(h._draws[j]) is tuple
    assert round_action(h) == _round_in_log(h)
    folded = {e[1] for e in h._log if e[0] == ev.FOLD}
    assert h.folded == tuple(j in folded for j in range(h.n_players))


RULES = [
    Rules(),
    Rules.online(),
    Rules(big_blind_is_bet=False),
    Rules(short_all_in="full-raise"),
    Rules(heads_up_uncapped=True),
    Rules(heads_up_uncapped="action"),
    Rules(ante=1, raise_cap=4),
    Rules(draw_procedure="immediate", burn_cards=True),
    Rules(draw_procedure="declare-then-deal", reshuffle="pokerkit"),
    Rules(reshuffle="pokerstars", max_players=8),
    # reduced games (docs/rules.md *Reduced games*): fewer cards in hand, fewer draws
    Rules(deck_ranks=3, deck_suits=2, hand_size=1, draws=1, raise_cap=1, max_players=2),
    Rules(deck_ranks=6, deck_suits=2, hand_size=3, draws=2, reshuffle="pokerstars", max_players=3),
]


@pytest.mark.parametrize("rules", RULES, ids=range(len(RULES)))
def test_the_record_holds_what_the_log_says_at_every_decision(rules: Rules) -> None:
    rng = random.Random(21)
    for k in range(30):
        n = 2 + k % (rules.max_players - 1)
        # short stacks: all-ins for less (short raises, short calls, short blinds)
        stacks = [rng.choice((1, 3, 5, 9, 40, 200)) for _ in range(n)]
        h = Hand(rules, stacks, button=k % n, seed=k)
        _check(h)
        play_randomly(h, rng, each=_check, draw_heavy=0.3)
        _check(h)


def test_the_record_of_a_hand_with_posts_and_no_small_blind() -> None:
    """Posts (blinds, live and dead entry posts, antes) are no bets, raises or calls."""
    rng = random.Random(5)
    for k in range(40):
        button = k % 5
        no_sb = k % 2 == 0
        blinds = {(button + 1) % 5} if no_sb else {(button + 1) % 5, (button + 2) % 5}
        posts = {s: (2, 1) for s in range(5) if s not in blinds and s != button}
        h = Hand(
            Rules(ante=1),
            [50, 3, 60, 70, 2],
            button=button,
            seed=k,
            no_small_blind=no_sb,
            posts=dict(list(posts.items())[: k % 3]),
        )
        _check(h)
        play_randomly(h, rng, each=_check)


def test_a_copy_and_a_restored_hand_carry_the_record() -> None:
    rng = random.Random(8)
    for k in range(20):
        h = Hand(Rules(), [30, 60, 90, 120], button=k % 4, seed=k)

        def both(h: Hand, _a: object = None) -> None:
            for other in (h.copy(), Hand.from_dict(h.to_dict())):
                assert other._draws == h._draws
                assert round_action(other) == round_action(h)
                _check(other)

        play_randomly(h, rng, each=both, draw_heavy=0.2)


def test_records_replayed_from_a_site_history_keep_the_record() -> None:
    """Hands replayed from a site's history (``record=True``: unknown cards, given draws)
    end with the record their logs say."""
    imported = histories.load(bot_hands_as_pokerstars(bot_hands(25)))
    assert len(imported.hands) == 25
    for site in imported.hands:
        assert site.hand.is_record
        _check(site.hand)
        assert any(site.hand.draws(j) for j in range(site.hand.n_players))


# -- the log's entries read by meaning (events.Entry) --------------------------------------


@pytest.mark.parametrize("rules", RULES, ids=range(len(RULES)))
def test_every_log_entry_reads_as_a_record_of_its_meanings(rules: Rules) -> None:
    """Each stored entry reads as an ``Entry`` with its amount in the field of its meaning
    (chips, a round, a draw, a stub size) and is stored back unchanged; the rounds and
    draws it names are the ones the hand is in."""
    rng = random.Random(3)
    for k in range(25):
        n = 2 + k % (rules.max_players - 1)
        h = Hand(rules, [rng.choice((5, 40, 200)) for _ in range(n)], button=k % n, seed=k)
        play_randomly(h, rng, draw_heavy=0.5)
        rounds: list[int] = []
        draws: list[int] = []
        for raw in h._log:
            e = ev.read(raw)
            assert ev.stored(e) == raw
            means = ev.AMOUNT_MEANS[e.kind]
            for name in ("chips", "round", "draw", "stub"):
                assert (getattr(e, name) is not None) == (name == means and raw[2] is not None)
            if e.chips is not None:
                assert e.chips >= 0
            if e.kind == ev.BEGIN_ROUND:
                rounds.append(e.round)  # type: ignore[arg-type]
            elif e.kind == ev.BEGIN_DRAW:
                draws.append(e.draw)  # type: ignore[arg-type]
            elif e.kind == ev.BURN:
                assert e.draw == draws[-1] and e.cards is not None and len(e.cards) == 1
            elif e.kind == ev.RESHUFFLE:
                assert e.stub is not None and 0 < e.stub <= 52
        assert rounds == list(range(len(rounds)))
        assert draws == list(range(len(draws)))


def test_the_meanings_cover_every_kind_and_the_public_history_keeps_amount() -> None:
    assert set(ev.AMOUNT_MEANS) == set(ev.EVENT_KINDS)
    assert set(ev.AMOUNT_MEANS.values()) == {None, "chips", "round", "draw", "stub"}
    h = Hand(Rules(burn_cards=True), [100, 100, 100], seed=4)
    play_randomly(h, 4)
    for raw, event in zip(h._log, h.history, strict=True):
        assert event.amount == raw[2]  # the public format: one "amount", as before
