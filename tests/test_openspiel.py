"""The OpenSpiel game python_triple_draw: OpenSpiel's own consistency checks, chance nodes
that are the engine's deals, observations that hold only what a seat may know, replays
through Hand, serialisation, and OpenSpiel algorithms run unchanged (external-sampling
MCCFR, ISMCTS against the package's bots)."""

from __future__ import annotations

import pickle
import random

import numpy as np
import pytest
from conftest import deal_randomly

pyspiel = pytest.importorskip("pyspiel")

from triple_draw.bots import HeuristicBot, RandomBot  # noqa: E402
from triple_draw.envs import encoding  # noqa: E402
from triple_draw.envs import openspiel as tos  # noqa: E402
from triple_draw.errors import TripleDrawError  # noqa: E402
from triple_draw.game import Hand  # noqa: E402

CONFIGS = [
    {},
    {"players": 6, "stacks": 50},
    {"players": 6, "stacks": 50, "reshuffle": "pokerstars", "draw_procedure": "immediate"},
    {"players": 3, "seat_stacks": "3 10 40", "ante": 1, "num_draws": 1},
    {"players": 2, "stacks": 4, "num_draws": 1, "heads_up_uncapped": True},
    {"players": 8, "stacks": 30, "short_all_in": "full-raise", "raise_cap": 4},
]


def load(params: dict) -> object:
    return pyspiel.load_game("python_triple_draw", params)


def random_play(game, rng: random.Random, check=None, fold: bool = True):
    state = game.new_initial_state()
    while not state.is_terminal():
        if check is not None:
            check(state)
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=False)
            assert abs(sum(probs) - 1) < 1e-9
            state.apply_action(outcomes[rng.randrange(len(outcomes))])
        else:
            legal = state.legal_actions()
            if not fold and len(legal) > 1 and legal[0] == encoding.FOLD:
                legal = legal[1:]
            state.apply_action(legal[rng.randrange(len(legal))])
    return state


@pytest.mark.parametrize("params", CONFIGS)
def test_openspiel_random_sim_test_with_serialization(params: dict) -> None:
    pyspiel.random_sim_test(load(params), num_sims=3, serialize=True, verbose=False)


def test_game_parameters() -> None:
    game = load(
        {
            "players": 3,
            "seat_stacks": "20 30 40",
            "button": 2,
            "small_bet": 4,
            "big_bet": 8,
            "big_blind": 4,
            "small_blind": 2,
        }
    )
    assert game.num_players() == 3
    assert game.num_distinct_actions() == encoding.N_ACTIONS
    assert game.max_chance_outcomes() == 52
    assert game.min_utility() == -40 and game.max_utility() == 70
    assert game.observation_tensor_shape() == [encoding.observation_size(3)]
    state = random_play(game, random.Random(0))
    hand = state.hand
    assert hand.starting_stacks == (20, 30, 40) and hand.button == 2
    assert hand.rules.small_bet == 4
    assert sum(state.returns()) == 0
    # the game's string loads the same game back (OpenSpiel's serialisation relies on it)
    assert str(pyspiel.load_game(str(game))) == str(game)


@pytest.mark.parametrize(
    "params, match",
    [
        ({"players": 9}, "players"),
        ({"seat_stacks": "10 x"}, "seat_stacks"),
        ({"seat_stacks": "10 20 30"}, "seat_stacks"),
        ({"stacks": 0}, "stacks"),
        ({"button": 2}, "button"),
        ({"num_draws": 0}, "num_draws"),
        ({"reshuffle": "never"}, "reshuffle"),
        ({"big_blind": 5}, "small_bet"),
    ],
)
def test_bad_parameters_raise_the_packages_error(params: dict, match: str) -> None:
    with pytest.raises(TripleDrawError, match=match):
        tos.TripleDrawGame(params)


def test_illegal_actions_are_refused_and_change_nothing() -> None:
    game = load({})
    state = game.new_initial_state()
    state.apply_action(5)
    with pytest.raises(TripleDrawError):
        state.apply_action(5)  # already dealt
    rng = random.Random(3)
    while state.is_chance_node():
        deal_randomly(state, rng)
    before = state.hand.to_dict()
    history = state.history()
    for bad in (3, 34, 35, 99):  # discards while betting, out of range
        with pytest.raises(TripleDrawError):
            state.apply_action(bad)
    assert state.hand.to_dict() == before and state.history() == history
    while not state.hand.in_draw:
        state.apply_action(encoding.CHECK_CALL)
    before = state.hand.to_dict()
    history = state.history()
    for bad in (35, 99, 0, 2):  # out of range, betting actions in a draw
        with pytest.raises(TripleDrawError):
            state.apply_action(bad)
    assert state.hand.to_dict() == before and state.history() == history


def test_chance_nodes_are_the_engines_deals() -> None:
    """Replacement outcomes are exactly Hand.receivable, all equally likely; reshuffles
    (6 players, many draws) happen inside them."""
    game = load({"players": 6, "stacks": 200})
    seen_reshuffle = False
    rng = random.Random(5)

    def check(state) -> None:
        if state.is_chance_node() and state.hand is not None:
            _seat, cards, got = state._pending
            assert [a for a, _p in state.chance_outcomes()] == sorted(
                state.hand.receivable(cards, got)
            )

    for _ in range(6):
        state = random_play(game, rng, check)
        seen_reshuffle |= any(e.kind == "reshuffle" for e in state.hand.history)
    assert seen_reshuffle


def replay_through_hand(game, state) -> Hand:
    """Drive a Hand directly with the dealt cards and decisions of an OpenSpiel state."""
    g = game
    n = g.n
    history = state.history()
    deal = history[: 5 * n]
    hole = [[] for _ in range(n)]
    for i, c in enumerate(deal):
        hole[g.deal_order[i % n]].append(c)
    hand = Hand(g.rules, list(g.stacks), g.button, 0, hole_cards=hole)
    rest = iter(history[5 * n :])
    k = g.num_draws
    while hand.actor is not None:
        if hand.street >= k and (hand.in_draw or hand.street > k):
            if hand.in_draw:
                hand.discard(())
            else:
                hand.check_or_call()
            continue
        a = next(rest)
        if hand.in_draw:
            cards = encoding.discard_cards(hand.hole_ids(hand.actor), a - 3)
            hand.discard(cards, receive=[next(rest) for _ in cards])
        else:
            hand.apply(encoding.to_action(hand, a))
    assert next(rest, None) is None
    return hand


@pytest.mark.parametrize("params", CONFIGS)
def test_the_same_hands_through_hand_end_alike(params: dict) -> None:
    game = load(params)
    rng = random.Random(11)
    for _ in range(4):
        state = random_play(game, rng)
        hand = replay_through_hand(game, state)
        assert [e.to_dict() for e in hand.history] == [e.to_dict() for e in state.hand.history]
        assert hand.result.to_dict() == state.hand.result.to_dict()
        assert state.returns() == [float(x) for x in hand.result.net]


def test_observations_hold_only_what_the_seat_may_know() -> None:
    """Resampling the unseen cards keeps every string and tensor of the seat; the tensors
    are the encoding of the engine's state and match its view."""
    game = load({"players": 3, "stacks": 60})
    rng = random.Random(8)
    checked = 0
    for _ in range(3):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                deal_randomly(state, rng)
                continue
            p = state.current_player()
            hand = state.hand
            obs = np.array(state.observation_tensor(p), dtype=np.float32)
            assert np.array_equal(obs, encoding.encode(hand, p))
            view = hand.view(p)
            assert sorted(encoding._TEXT_ID[c] for c in view["hole_cards"]) == sorted(
                np.flatnonzero(obs[:52]).tolist()
            )
            other = state.resample_from_infostate(p, rng.random)
            assert other.information_state_string(p) == state.information_state_string(p)
            assert other.information_state_tensor(p) == state.information_state_tensor(p)
            assert other.observation_string(p) == state.observation_string(p)
            assert other.observation_tensor(p) == state.observation_tensor(p)
            assert other.legal_actions() == state.legal_actions()
            checked += 1
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
    assert checked > 10


def own_cards(hand, seat: int) -> set[str]:
    """Every card ``seat`` was dealt, threw or received (text)."""
    kinds = ("deal", "discard", "draw")
    return {c for e in hand.history if e.seat == seat and e.kind in kinds for c in e.cards or ()}


def test_information_state_never_shows_others_cards() -> None:
    """Another seat's cards appear in a seat's strings only once shown at the showdown."""
    game = load({"players": 3, "stacks": 100})
    rng = random.Random(2)
    shown_seen = False
    for _ in range(8):
        state = random_play(game, rng, fold=False)
        shown = {c for e in state.hand.result.showdown if e.cards for c in e.cards}
        shown_seen |= bool(shown)
        for p in range(3):
            own = own_cards(state.hand, p)
            for text in (state.information_state_string(p), state.observation_string(p)):
                for q in range(3):
                    for c in [*state.hand.hole_text(q), *state.hand.discards(q)]:
                        c = c if isinstance(c, str) else encoding.CARD_TEXT[c]
                        if c not in own and c not in shown:
                            assert c not in text, (p, q, c)
    assert shown_seen


def test_serialization_and_clones() -> None:
    game = load({"players": 3, "stacks": 40})
    state = random_play(game, random.Random(4))
    text = pyspiel.serialize_game_and_state(game, state)
    _game2, state2 = pyspiel.deserialize_game_and_state(text)
    assert state2.history() == state.history()
    assert state2.hand.to_dict() == state.hand.to_dict()
    clone = state.clone()
    assert clone.hand.to_dict() == state.hand.to_dict() and clone.hand is not state.hand
    # what OpenSpiel pickles (the state's attributes) replays the actions
    data = pickle.dumps(state._s)
    assert pickle.loads(data).hand.to_dict() == state.hand.to_dict()


def test_num_draws_reduction_stands_pat_and_checks() -> None:
    """num_draws=1: after the betting round that follows the first draw, everyone stands
    pat and checks (no decisions, no chance nodes) and the engine shows down."""
    game = load({"players": 2, "stacks": 40, "num_draws": 1})
    rng = random.Random(6)
    reached = 0
    for _ in range(8):
        state = random_play(game, rng, fold=False)
        events = state.hand.history
        for seat in range(2):
            assert all(k == 0 for k in state.hand.draws(seat)[1:])
        starts = [i for i, e in enumerate(events) if e.kind == "begin_round"]
        if len(starts) > 2:
            reached += 1
            tail = events[starts[2] :]
            assert all(e.kind not in ("bet", "raise", "call", "fold") for e in tail)
            assert sum(e.kind == "check" for e in tail) == 4
    assert reached


def test_external_sampling_mccfr_runs_unchanged() -> None:
    from open_spiel.python.algorithms import external_sampling_mccfr as es

    game = load({"players": 2, "stacks": 4, "num_draws": 1})
    np.random.seed(0)
    solver = es.ExternalSamplingSolver(game, es.AverageType.SIMPLE)
    for _ in range(2):
        solver.iteration()
    policy = solver.average_policy()
    state = game.new_initial_state()
    rng = random.Random(0)
    while state.is_chance_node():
        deal_randomly(state, rng)
    probs = policy.action_probabilities(state)
    assert set(probs) == set(state.legal_actions())
    assert abs(sum(probs.values()) - 1) < 1e-9
    assert len(solver._infostates) > 10


def test_openspiel_cpp_external_sampling_mccfr_runs_on_the_python_game() -> None:
    game = load({"players": 2, "stacks": 4, "num_draws": 1})
    solver = pyspiel.ExternalSamplingMCCFRSolver(game, seed=1)
    for _ in range(2):
        solver.run_iteration()
    state = game.new_initial_state()
    rng = random.Random(1)
    while state.is_chance_node():
        deal_randomly(state, rng)
    probs = dict(solver.average_policy().get_state_policy(state))
    assert set(probs) == set(state.legal_actions())
    assert abs(sum(probs.values()) - 1) < 1e-9


def test_ismcts_plays_full_hands_against_the_package_bots() -> None:
    from open_spiel.python.algorithms import ismcts, mcts

    game = load({"players": 2, "stacks": 40})
    rng = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 2.0, 8, random_state=rng)
    r = random.Random(1)
    bot.set_resampler(lambda st, p: st.resample_from_infostate(p, r.random))
    total = 0.0
    for k, opponent in enumerate([HeuristicBot(seed=1), RandomBot(seed=2)]):
        me = k % 2
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                deal_randomly(state, r)
            elif state.current_player() == me:
                action = bot.step(state)
                assert action in state.legal_actions()
                state.apply_action(action)
            else:
                state.apply_action(tos.bot_action(state, opponent))
        assert sum(state.returns()) == 0
        total += state.returns()[me]
    assert state.hand.is_over


def test_public_observation_holds_no_private_cards() -> None:
    from open_spiel.python.observation import make_observation

    game = load({"players": 2, "stacks": 30})
    public = make_observation(
        game,
        pyspiel.IIGObservationType(perfect_recall=True, private_info=pyspiel.PrivateInfoType.NONE),
    )
    checked = 0

    def check(state) -> None:
        nonlocal checked
        if state.hand is None:
            return
        for p in range(2):
            text = public.string_from(state, p)
            assert not any(c in text for s in range(2) for c in state.hand.hole_text(s))
            public.set_from(state, p)
            assert not public.dict["own_hands"].any()
            assert not public.dict["observation"][: encoding.OBS_PHASE].any()
            checked += 1

    random_play(game, random.Random(9), check, fold=False)
    assert checked > 20
