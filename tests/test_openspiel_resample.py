"""TripleDrawState.resample_from_infostate: the hand as the player sees it, completed by
phh.complete, replayed as a state of the game. The player's information state, his
observations, the chips and the betting are the original's; the cards he has not seen
are new; chance nodes and finished hands resample as documented."""

from __future__ import annotations

import random

import numpy as np
import pytest
from conftest import deal_randomly

pyspiel = pytest.importorskip("pyspiel")

from triple_draw.envs import encoding  # noqa: E402
from triple_draw.envs import openspiel as tos  # noqa: E402
from triple_draw.errors import ArgumentError  # noqa: E402

#: 2 and 3 players under every reshuffle rule and both draw procedures; 6 players, whose
#: draws run the stub out (reshuffles), and a reduced game with antes and short stacks
CONFIGS = [
    {"players": 2},
    {"players": 2, "reshuffle": "pokerstars", "draw_procedure": "immediate"},
    {"players": 3, "stacks": 60},
    {"players": 3, "stacks": 60, "reshuffle": "pokerstars"},
    {"players": 3, "stacks": 60, "reshuffle": "pokerkit", "draw_procedure": "immediate"},
    {"players": 6, "stacks": 50},
    {"players": 6, "stacks": 50, "reshuffle": "pokerstars", "draw_procedure": "immediate"},
    {"players": 6, "stacks": 50, "reshuffle": "pokerkit"},
    {"players": 3, "seat_stacks": "3 10 40", "ante": 1, "num_draws": 2},
    {"players": 4, "stacks": 30, "muck_beaten_hands": True},
]


def load(params: dict) -> tos.TripleDrawGame:
    return pyspiel.load_game("python_triple_draw", params)


def play(game, rng: random.Random, stop=None) -> tos.TripleDrawState:
    """A random hand (folds rare), stopped where ``stop(state)`` first holds."""
    state = game.new_initial_state()
    while not state.is_terminal() and not (stop is not None and stop(state)):
        if state.is_chance_node():
            deal_randomly(state, rng)
        else:
            legal = state.legal_actions()
            if legal[0] == encoding.FOLD and len(legal) > 1 and rng.random() < 0.9:
                legal = legal[1:]
            state.apply_action(legal[rng.randrange(len(legal))])
    return state


def random_point(game, rng: random.Random) -> tos.TripleDrawState:
    """A state at a random point (chance node, decision or end) of a random hand."""
    full = play(game, rng).history()
    state = game.new_initial_state()
    for a in full[: rng.randrange(len(full) + 1)]:
        state.apply_action(a)
    return state


def others_cards(state, seat: int) -> tuple:
    """Every card the other seats were dealt, in order (the chance outcomes not his)."""
    probe = state.get_game().new_initial_state()
    out = []
    for a in state.history():
        if probe.is_chance_node() and probe._next_card_seat() != seat:
            out.append(a)
        probe.apply_action(a)
    return tuple(out)


def assert_same_for(state, other, p: int) -> None:
    """What seat ``p`` knows, the chips and the betting are the same in both states."""
    assert other.information_state_string(p) == state.information_state_string(p)
    assert other.information_state_tensor(p) == state.information_state_tensor(p)
    assert other.observation_string(p) == state.observation_string(p)
    assert other.observation_tensor(p) == state.observation_tensor(p)
    assert other.current_player() == state.current_player()
    assert other.is_terminal() == state.is_terminal()
    assert other.returns() == state.returns()
    assert len(other.history()) == len(state.history())
    if not state.is_chance_node():
        assert other.legal_actions() == state.legal_actions()
    h, g = state.hand, other.hand
    assert (h is None) == (g is None)
    if h is not None:
        for name in ("phase", "street", "actor", "stacks", "bets", "committed", "folded"):
            assert getattr(g, name) == getattr(h, name), name
        for name in ("bet_level", "raises", "pot"):
            assert getattr(g, name) == getattr(h, name), name
        for s in range(h.n_players):
            assert g.draws(s) == h.draws(s)
        assert list(g.hole_ids(p)) == list(h.hole_ids(p))
        assert g.discards(p) == h.discards(p)


def test_the_information_state_is_kept_over_many_random_states() -> None:
    """200 states at random points of random hands, each resampled for every seat."""
    rng = random.Random(1)
    kinds: dict[str, int] = {}
    reshuffled = new_deal = 0
    for k in range(200):
        game = load(CONFIGS[k % len(CONFIGS)])
        state = random_point(game, rng)
        h = state.hand
        if state.is_terminal():
            kind = "end"
        elif state.is_chance_node():
            kind = "deal" if h is None else "serve"
        else:
            kind = "draw" if h.in_draw else "bet"
        kinds[kind] = kinds.get(kind, 0) + 1
        reshuffled += h is not None and any(e.kind == "reshuffle" for e in h.history)
        for p in range(game.num_players()):
            other = state.resample_from_infostate(p, rng.random)
            assert_same_for(state, other, p)
            new_deal += others_cards(other, p) != others_cards(state, p)
    assert set(kinds) == {"deal", "serve", "bet", "draw", "end"}, kinds
    assert reshuffled >= 5
    resamples = sum(CONFIGS[k % len(CONFIGS)].get("players", 2) for k in range(200))
    assert new_deal > 0.8 * resamples


def test_the_other_seats_cards_vary_and_never_take_his() -> None:
    game = load({"players": 2, "stacks": 100})
    state = play(game, random.Random(3), lambda s: s.hand is not None and s.hand.street == 2)
    assert not state.is_chance_node()
    p = state.current_player()
    q = 1 - p
    # every card he held, threw or received is his: nobody else may be dealt it
    kinds = ("deal", "discard", "draw")
    his = {c for e in state.hand.history if e.seat == p and e.kind in kinds for c in e.cards or ()}
    rng = random.Random(4)
    hands = set()
    for _ in range(60):
        other = state.resample_from_infostate(p, rng.random)
        seen = {encoding.CARD_TEXT[c] for c in others_cards(other, p)}
        assert not seen & his
        hands.add(tuple(sorted(other.hand.hole_ids(q))))
    assert len(hands) > 50


def test_resampling_after_a_reshuffle_deals_anew() -> None:
    """Six players drawing many cards run the stub out: the completion still finds new
    deals (the rejection sampler it replaces gave up there and returned the original)."""
    game = load({"players": 6, "stacks": 100})
    rng = random.Random(7)
    done = 0
    while done < 5:
        state = play(
            game,
            rng,
            lambda s: (
                s.hand is not None
                and s.hand.street == 3
                and not s.is_chance_node()
                and any(e.kind == "reshuffle" for e in s.hand.history)
            ),
        )
        if state.is_terminal():
            continue
        p = state.current_player()
        others = {others_cards(state.resample_from_infostate(p, rng.random), p) for _ in range(5)}
        assert others_cards(state, p) not in others and len(others) == 5
        done += 1


def test_chips_and_returns_are_kept_and_the_new_state_plays_on() -> None:
    rng = random.Random(5)
    for params in ({"players": 2, "stacks": 20}, {"players": 3, "seat_stacks": "5 20 40"}):
        game = load(params)
        for _ in range(10):
            state = random_point(game, rng)
            p = rng.randrange(game.num_players())
            other = state.resample_from_infostate(p, rng.random)
            assert_same_for(state, other, p)
            end = play_on(other, rng)
            assert sum(end.returns()) == 0
            assert sum(end.hand.stacks) == sum(game.stacks)
            # finished hands: the same returns, the same showdown
            final = play_on(state, rng)
            again = final.resample_from_infostate(p, rng.random)
            assert again.returns() == final.returns()
            assert again.hand.result.net == final.hand.result.net
            assert [e.seat for e in again.hand.result.showdown] == [
                e.seat for e in final.hand.result.showdown
            ]


def play_on(state, rng: random.Random):
    state = state.clone()
    while not state.is_terminal():
        if state.is_chance_node():
            deal_randomly(state, rng)
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
    return state


def test_at_a_chance_node_of_the_deal() -> None:
    """The initial state resamples to itself; during the deal he keeps the cards he was
    dealt so far and the state is at the same chance node."""
    game = load({"players": 3})
    state = game.new_initial_state()
    assert state.resample_from_infostate(0, random.random).history() == []
    rng = random.Random(2)
    for dealt in (1, 4, 9, 14):
        state = game.new_initial_state()
        for _ in range(dealt):
            deal_randomly(state, rng)
        for p in range(3):
            other = state.resample_from_infostate(p, rng.random)
            assert other.is_chance_node() and other.hand is None
            assert_same_for(state, other, p)
            assert other._own_cards(p) == state._own_cards(p)
            assert len(other.chance_outcomes()) == len(state.chance_outcomes())


def test_at_a_chance_node_while_a_discard_is_served() -> None:
    """Mid-serve: the new state waits for the same seat's next replacement; his own
    replacements dealt so far are kept, another seat's are new."""
    for procedure in ("declare-then-deal", "immediate"):
        game = load({"players": 3, "draw_procedure": procedure})
        rng = random.Random(6)
        checked = {"his": 0, "other": 0}
        while min(checked.values()) < 4:
            state = play(
                game,
                rng,
                lambda s: s.is_chance_node() and s._pending is not None and len(s._pending[2]) > 0,
            )
            if state.is_terminal():
                continue
            seat, cards, got = state._pending
            for p in range(3):
                other = state.resample_from_infostate(p, rng.random)
                assert_same_for(state, other, p)
                o_seat, o_cards, o_got = other._pending
                assert o_seat == seat and len(o_cards) == len(cards) and len(o_got) == len(got)
                if p == seat:
                    assert o_cards == cards and o_got == got
                checked["his" if p == seat else "other"] += 1
                # the state plays on: its chance outcomes are the engine's
                end = play_on(other, rng)
                assert sum(end.returns()) == 0


def test_at_the_end_of_a_hand() -> None:
    """A finished hand keeps its returns and the hands shown; a folded hand is new."""
    game = load({"players": 3, "stacks": 100})
    rng = random.Random(8)
    showdowns = 0
    for _ in range(20):
        state = play(game, rng)
        assert state.is_terminal()
        shown = {e.seat: sorted(e.cards) for e in state.hand.result.showdown if e.cards}
        showdowns += bool(shown)
        for p in range(3):
            other = state.resample_from_infostate(p, rng.random)
            assert other.is_terminal()
            assert_same_for(state, other, p)
            assert other.hand.result.net == state.hand.result.net
            got = {e.seat: sorted(e.cards) for e in other.hand.result.showdown if e.cards}
            assert got == shown
    assert showdowns > 5


def test_the_sampler_seeds_the_choice() -> None:
    game = load({"players": 3})
    state = play(game, random.Random(9), lambda s: s.hand is not None and s.hand.street == 1)
    p = state.current_player()
    a = state.resample_from_infostate(p, random.Random(5).random)
    b = state.resample_from_infostate(p, random.Random(5).random)
    assert a.history() == b.history()
    # OpenSpiel's sampler, and Python's random without one
    c = state.resample_from_infostate(p, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert_same_for(state, c, p)
    random.seed(11)
    d = state.resample_from_infostate(p)
    random.seed(11)
    assert state.resample_from_infostate(p).history() == d.history()
    assert_same_for(state, d, p)
    for bad in (-1, 3, "0", 1.0, True):
        with pytest.raises(ArgumentError):
            state.resample_from_infostate(bad, random.random)


def test_ismcts_uses_the_resampler_by_default() -> None:
    """OpenSpiel's ISMCTS calls resample_from_infostate with its own sampler."""
    from open_spiel.python.algorithms import ismcts, mcts

    game = load({"players": 2, "stacks": 20})
    rng = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 2.0, 6, random_state=rng)
    state = play(game, random.Random(1), lambda s: s.hand is not None and not s.is_chance_node())
    assert bot.step(state) in state.legal_actions()


def test_a_completion_the_game_cannot_deal_is_refused_not_replaced_by_the_truth() -> None:
    """Declare-then-deal under the "pokerkit" reshuffle: the game deals a declaration's
    replacements before the later declarations, whose discards the engine's new stub (and
    so phh.complete) may still give. Some views of 8-player hands get no completion the
    game can deal: the resample raises instead of returning the state's own deal."""
    from triple_draw.errors import TripleDrawError

    game = load({"players": 8, "stacks": 100, "reshuffle": "pokerkit"})
    rng = random.Random(3)
    refused = dealt = 0
    for _ in range(12):
        state = play(game, rng)
        for p in range(8):
            try:
                other = state.resample_from_infostate(p, rng.random)
            except TripleDrawError as e:
                assert "fits this game's chance nodes" in str(e)
                refused += 1
                continue
            assert_same_for(state, other, p)
            assert others_cards(other, p) != others_cards(state, p)
            dealt += 1
    assert refused and dealt
