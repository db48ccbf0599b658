"""The PettingZoo AEC environment triple_draw.envs.triple_draw_v0: PettingZoo's own API
and seed tests, the action encoding and mask, observations that hold only what the seat
may see, rewards equal to the chips won or lost, and seeding."""

from __future__ import annotations

import pickle
import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test

from triple_draw.envs import encoding, triple_draw_v0
from triple_draw.errors import TripleDrawError
from triple_draw.game import Action, Hand, Rules

# PettingZoo's checker prefers flat observations; dict observations with an action mask
# (as in its own classic games) draw these two warnings
EXPECTED_WARNINGS = (
    "Observation is not a NumPy array",
    "Observation space for each agent probably",
)


def run_api_test(env) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env, num_cycles=300)
    unexpected = [
        str(w.message) for w in caught if not str(w.message).startswith(EXPECTED_WARNINGS)
    ]
    assert not unexpected, unexpected


@pytest.mark.parametrize("n", [2, 3, 6])
def test_pettingzoo_api_test(n: int) -> None:
    run_api_test(triple_draw_v0.env(num_players=n))


def test_pettingzoo_api_test_raw_env_with_options() -> None:
    run_api_test(
        triple_draw_v0.raw_env(
            num_players=4, stacks=[20, 30, 40, 50], rules=Rules.online(ante=1), render_mode="ansi"
        )
    )


@pytest.mark.parametrize("n", [2, 5])
def test_pettingzoo_seed_test(n: int) -> None:
    seed_test(lambda: triple_draw_v0.env(num_players=n), num_cycles=300)


def play_episode(env, rng: np.random.Generator, seed: int | None = None) -> dict[str, float]:
    env.reset(seed=seed)
    rewards: dict[str, float] = {}
    for agent in env.agent_iter():
        obs, reward, termination, truncation, _info = env.last()
        assert env.observation_space(agent).contains(obs)
        if termination or truncation:
            rewards[agent] = reward
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        assert legal.size > 0
        env.step(int(rng.choice(legal)))
    return rewards


def test_rewards_are_the_chips_won_or_lost() -> None:
    env = triple_draw_v0.env(num_players=4, stacks=[50, 80, 100, 200])
    rng = np.random.default_rng(0)
    for ep in range(60):
        rewards = play_episode(env, rng, seed=ep)
        hand = env.unwrapped.hand
        assert rewards == {f"player_{s}": float(x) for s, x in enumerate(hand.result.net)}
        assert sum(rewards.values()) == 0


def test_reward_scale() -> None:
    env = triple_draw_v0.env(num_players=2, reward_scale=2.0)
    rewards = play_episode(env, np.random.default_rng(1), seed=3)
    assert rewards == {f"player_{s}": x / 2 for s, x in enumerate(env.unwrapped.hand.result.net)}


def test_the_mask_is_the_engines_legal_actions() -> None:
    env = triple_draw_v0.raw_env(num_players=3)
    rng = np.random.default_rng(2)
    for ep in range(30):
        env.reset(seed=ep)
        while not env.hand.is_over:
            agent = env.agent_selection
            hand = env.hand
            assert agent == f"player_{hand.actor}"
            mask = env.observe(agent)["action_mask"]
            for other in env.agents:
                if other != agent:
                    assert not env.observe(other)["action_mask"].any()
            legal = hand.legal_actions()
            if hand.in_draw:
                assert mask.tolist() == [0, 0, 0] + [1] * 32
                assert {encoding.from_action(hand, a) for a in legal} == set(range(3, 35))
            else:
                assert {encoding.to_action(hand, a) for a in np.flatnonzero(mask)} == {
                    Action(a.kind) for a in legal
                }
            env.step(int(rng.choice(np.flatnonzero(mask))))


def test_discard_actions_throw_the_cards_of_their_bits() -> None:
    hand = Hand(Rules(), [100, 100], button=0, seed=4)
    hand.check_or_call()
    hand.check_or_call()
    assert hand.in_draw
    held = sorted(hand.hole_ids(hand.actor))
    assert encoding.to_action(hand, 3) == Action("discard", None, ())
    assert encoding.to_action(hand, 3 + 0b10101) == Action(
        "discard", None, (held[0], held[2], held[4])
    )
    for a in range(3, 35):
        assert encoding.from_action(hand, encoding.to_action(hand, a)) == a
    with pytest.raises(ValueError):
        encoding.to_action(hand, 35)


def test_observations_hold_only_what_the_seat_may_see() -> None:
    env = triple_draw_v0.raw_env(num_players=3)
    env.reset(seed=11)
    size = encoding.observation_size(3)
    assert env.observation_space("player_0")["observation"].shape == (size,)
    for agent in env.agents:
        seat = int(agent.split("_")[1])
        obs = env.observe(agent)["observation"]
        assert obs.dtype == np.float32 and obs.min() >= 0 and obs.max() <= 1
        cards = set(np.flatnonzero(obs[:52]).tolist())
        assert cards == set(env.hand.hole_ids(seat))
    # the same public state with other private cards for the others: same observation
    h1 = Hand(
        Rules(), [100, 100, 100], button=0, hole_cards=["7h5d4c3s2h", "KdQsJh9s8c", "AsAdKsKhTc"]
    )
    h2 = Hand(
        Rules(), [100, 100, 100], button=0, hole_cards=["7h5d4c3s2h", "6c6d6h6s9c", "2c2d3c3d4d"]
    )
    v1, v2 = h1.view(0), h2.view(0)
    assert np.array_equal(encoding.encode_view(v1, 300), encoding.encode_view(v2, 300))
    assert not np.array_equal(
        encoding.encode_view(h1.view(1), 300), encoding.encode_view(h2.view(1), 300)
    )


def test_reset_with_a_seed_replays_the_same_hands() -> None:
    a = triple_draw_v0.raw_env(num_players=4)
    b = triple_draw_v0.raw_env(num_players=4)
    a.reset(seed=123)
    b.reset(seed=123)
    assert a.hand.to_dict() == b.hand.to_dict()
    a.reset()
    b.reset()
    assert a.hand.to_dict() == b.hand.to_dict()  # the seeded stream continues alike
    first = a.hand.to_dict()
    a.reset(seed=124)
    assert a.hand.to_dict() != first


def test_fixed_button_and_validation() -> None:
    env = triple_draw_v0.raw_env(num_players=3, button=2)
    for seed in range(5):
        env.reset(seed=seed)
        assert env.hand.button == 2
    with pytest.raises(ValueError, match="num_players"):
        triple_draw_v0.raw_env(num_players=9)
    with pytest.raises(ValueError, match="stacks"):
        triple_draw_v0.raw_env(num_players=2, stacks=[1, 2, 3])
    with pytest.raises(ValueError, match="button"):
        triple_draw_v0.raw_env(num_players=2, button=2)
    with pytest.raises(ValueError, match="render_mode"):
        triple_draw_v0.raw_env(render_mode="rgb_array")


def test_illegal_actions() -> None:
    raw = triple_draw_v0.raw_env(num_players=2)
    raw.reset(seed=0)
    with pytest.raises(ValueError, match="illegal action 5"):
        raw.step(5)  # a discard during betting
    wrapped = triple_draw_v0.env(num_players=2, illegal_reward=-10)
    wrapped.reset(seed=0)
    agent = wrapped.agent_selection
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the wrapper warns about the illegal move
        wrapped.step(5)
    assert all(wrapped.terminations.values())
    assert wrapped.rewards[agent] == -10


def test_render_and_pickle() -> None:
    env = triple_draw_v0.raw_env(num_players=2, render_mode="ansi")
    env.reset(seed=5)
    text = env.render()
    assert "player_0" in text and "pot 3" in text
    clone = pickle.loads(pickle.dumps(env))
    clone.reset(seed=5)
    assert clone.hand.to_dict() == env.hand.to_dict()


def test_the_same_hands_through_hand_and_observations_are_the_encoding() -> None:
    """Each episode is Hand(rules, stacks, *hand_args) played with the same action
    numbers; every observation is encoding.encode(hand, seat) of the observing seat."""
    rules = Rules.online(ante=1)
    env = triple_draw_v0.env(num_players=4, stacks=[30, 60, 90, 120], rules=rules)
    rng = np.random.default_rng(7)
    for ep in range(25):
        env.reset(seed=ep)
        raw = env.unwrapped
        actions = []
        for agent in env.agent_iter():
            obs, _reward, termination, truncation, _info = env.last()
            seat = int(agent.split("_")[1])
            assert np.array_equal(obs["observation"], encoding.encode(raw.hand, seat))
            if termination or truncation:
                env.step(None)
                continue
            a = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            actions.append(a)
            env.step(a)
        replay = Hand(rules, [30, 60, 90, 120], *raw.hand_args)
        for a in actions:
            encoding.apply(replay, a)
        assert replay.to_dict() == raw.hand.to_dict()
        assert replay.result.to_dict() == raw.hand.result.to_dict()


def test_raw_env_refuses_bad_actions_and_changes_nothing() -> None:
    raw = triple_draw_v0.raw_env(num_players=3)
    raw.reset(seed=1)
    before = raw.hand.to_dict()
    for bad in (35, -1, 3, 1.5, "1", None):
        with pytest.raises(TripleDrawError):
            raw.step(bad)
    assert raw.hand.to_dict() == before
    raw.step(1)
    assert raw.hand.to_dict() != before


def test_wrapped_env_refuses_out_of_range_actions() -> None:
    env = triple_draw_v0.env(num_players=2)
    env.reset(seed=3)
    before = env.unwrapped.hand.to_dict()
    for bad in (35, -1, None, 2.5):
        with pytest.raises(TripleDrawError, match="not in the action space"):
            env.step(bad)
    assert env.unwrapped.hand.to_dict() == before
    assert not any(env.terminations.values())


@pytest.mark.parametrize("bad", [True, False, np.bool_(True), np.bool_(False), 1.0, np.float32(1)])
def test_wrapped_env_refuses_non_integer_actions_with_the_packages_error(bad: object) -> None:
    # step(True) used to reach PettingZoo's TerminateIllegalWrapper (a bool is an int to
    # Discrete.contains) and index the mask with it: a NumPy "truth value is ambiguous"
    from triple_draw.errors import IllegalActionError

    env = triple_draw_v0.env(num_players=2)
    env.reset(seed=3)
    before = env.unwrapped.hand.to_dict()
    with pytest.raises(IllegalActionError, match=r"bool|not in the action space"):
        env.step(bad)
    assert env.unwrapped.hand.to_dict() == before
    assert not any(env.terminations.values())
    env.step(np.int64(1))  # an integer of NumPy's is an action
    assert env.unwrapped.hand.to_dict() != before


@pytest.mark.parametrize("n", [2, 3, 6])
def test_state_passes_pettingzoos_state_tests(n: int) -> None:
    from pettingzoo.test.state_test import test_state, test_state_space

    env = triple_draw_v0.env(num_players=n)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        test_state_space(env)
        test_state(env, num_cycles=200)
    assert not [str(w.message) for w in caught]
    assert env.state_space.shape == (104 * n + encoding.observation_size(n),)


def test_state_is_the_full_privileged_state() -> None:
    """state(): every seat's cards and discards (which no observation shows to the other
    seats), then seat 0's observation; it follows the hand."""
    env = triple_draw_v0.raw_env(num_players=3)
    env.reset(seed=12)
    rng = np.random.default_rng(12)
    n = 3
    checked = 0
    thrown: dict[int, set[int]] = {s: set() for s in range(n)}
    while True:
        hand = env.hand
        state = env.state()
        assert env.state_space.contains(state)
        for s in range(n):
            assert set(np.flatnonzero(state[52 * s : 52 * (s + 1)])) == set(hand.hole_ids(s))
            assert set(np.flatnonzero(state[52 * (n + s) : 52 * (n + s + 1)])) == thrown[s]
        assert np.array_equal(state[104 * n :], env.observe("player_0")["observation"])
        checked += 1
        if hand.is_over:
            break
        agent = env.agent_selection
        seat = hand.actor
        mask = env.observe(agent)["action_mask"]
        legal = np.flatnonzero(mask)
        # prefer draws (to see discards) and calls over folds
        a = int(legal[-1]) if legal[-1] >= 3 else int(legal[1] if len(legal) > 1 else legal[0])
        if a >= 3 and rng.random() < 0.5:
            a = int(rng.choice(legal))
        if a >= 3:
            thrown[seat] |= set(encoding.discard_cards(sorted(hand.hole_ids(seat)), a - 3))
        env.step(a)
    assert checked > 10 and any(thrown.values())


def test_eight_players_without_rules_play_to_the_end():
    """``num_players`` up to 8 without ``Rules(max_players=8)`` (the docs promise 2-8);
    rules that cannot seat them are refused with a TripleDrawError."""
    from triple_draw.errors import ArgumentError

    env = triple_draw_v0.env(num_players=8)
    env.reset(seed=3)
    steps = 0
    for _agent in env.agent_iter(2000):
        obs, _rew, term, trunc, _info = env.last()
        env.step(None if term or trunc else int(np.flatnonzero(obs["action_mask"])[0]))
        steps += 1
    assert not env.agents and steps > 8
    with pytest.raises(ArgumentError, match="8 players do not fit"):
        triple_draw_v0.env(num_players=8, rules=Rules())
