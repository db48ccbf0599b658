"""The single-agent Gymnasium environment (triple_draw.envs.gym_env, registered as
triple_draw/TripleDraw-v0): Gymnasium's own checker, seeding, the learner's seat, hands
that end before the learner acts, illegal actions and the masks."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

gym = pytest.importorskip("gymnasium")

import triple_draw.envs  # noqa: E402,F401 - registers the id
from gymnasium.utils.env_checker import check_env  # noqa: E402

from triple_draw.envs import encoding  # noqa: E402
from triple_draw.envs.gym_env import ENV_ID, TripleDrawEnv  # noqa: E402
from triple_draw.errors import ArgumentError, IllegalActionError, TripleDrawError  # noqa: E402
from triple_draw.game import Rules  # noqa: E402


class FoldBot:
    def act(self, view: dict[str, Any]) -> str:
        return "fold"


@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"num_players": 3, "opponents": ["random", "call"]},
        {"num_players": 8, "opponents": "heuristic", "seat": 5},  # 8 without Rules(max_players=8)
        {"num_players": 2, "opponents": FoldBot(), "seat": 0},  # many hands without a decision
        {"render_mode": "ansi"},
    ],
)
def test_gymnasium_check_env_passes_without_warnings(kwargs: dict[str, Any]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        env = gym.make(ENV_ID, **kwargs)
        check_env(env.unwrapped)


def test_registered_on_import_with_its_keywords() -> None:
    env = gym.make(ENV_ID, num_players=3, opponents="call", rules=Rules.online(2))
    assert env.spec is not None and env.spec.id == ENV_ID
    u = env.unwrapped
    assert isinstance(u, TripleDrawEnv)
    assert u.num_players == 3 and u.rules == Rules.online(2)
    obs, _ = env.reset(seed=0)
    assert obs.shape == (encoding.observation_size(3),)


def _rollout(env: TripleDrawEnv, seed: int, hands: int) -> list[Any]:
    rng = np.random.default_rng(seed)
    trace: list[Any] = []
    obs, info = env.reset(seed=seed)
    for k in range(hands):
        if k:
            obs, info = env.reset()
        trace.append((obs.tobytes(), info["seat"], info["skipped_hands"]))
        done = False
        while not done:
            a = rng.choice(np.flatnonzero(env.action_masks()))
            obs, r, done, trunc, info = env.step(a)
            assert not trunc
            trace.append((obs.tobytes(), r))
    return trace


def test_seeded_episodes_replay_exactly_bots_included() -> None:
    kw: dict[str, Any] = {"num_players": 3, "opponents": ["random", "heuristic"]}
    a = _rollout(TripleDrawEnv(**kw), 5, 30)
    assert a == _rollout(TripleDrawEnv(**kw), 5, 30)
    assert a != _rollout(TripleDrawEnv(**kw), 6, 30)


def test_observation_is_the_shared_encoding_of_the_learner_seat_at_its_turn() -> None:
    env = TripleDrawEnv(num_players=4, opponents="heuristic")
    obs, info = env.reset(seed=2)
    for _ in range(50):
        hand = env.hand
        assert hand is not None and hand.actor == env.seat == info["seat"]
        assert np.array_equal(obs, encoding.encode(hand, env.seat))
        mask = env.action_masks()
        assert mask.dtype == bool and mask.shape == (35,)
        assert np.array_equal(mask, encoding.action_mask(hand).astype(bool))
        assert np.array_equal(info["action_mask"], mask.astype(np.int8))
        obs, r, done, _, info = env.step(int(np.flatnonzero(mask)[-1]))
        if done:
            assert env.hand.is_over and not env.action_masks().any()
            assert r == env.hand.result.net[env.seat]
            obs, info = env.reset()


def test_the_learner_seat_rotates_or_stays() -> None:
    env = TripleDrawEnv(num_players=3, opponents="call")
    seats = []
    _, info = env.reset(seed=1)
    for _ in range(6):
        seats.append(info["seat"])
        _, info = env.reset()
    assert seats[1:] == [(s + 1) % 3 for s in seats[:-1]]
    fixed = TripleDrawEnv(num_players=3, opponents="call", seat=2)
    _, info = fixed.reset(seed=1)
    assert info["seat"] == 2


def test_hands_that_end_before_the_learner_acts_are_played_out_and_reported() -> None:
    # heads-up against a bot that folds at once: when the learner has the big blind the
    # bot (first to act) folds it the small blind (+1 chip) and the learner never acts;
    # when the learner has the small blind it acts first, and folding costs it 1 chip
    env = TripleDrawEnv(num_players=2, opponents=FoldBot(), seat=0, reward_scale=0.5)
    total_skipped = 0
    _, info = env.reset(seed=3)
    for _ in range(40):
        total_skipped += info["skipped_hands"]
        assert info["skipped_reward"] == info["skipped_hands"] * 2.0  # 1 chip / 0.5
        hand = env.hand
        assert hand is not None and hand.small_blind_seat == 0  # it acts only as small blind
        _, r, done, _, _ = env.step(encoding.FOLD)
        assert done and r == -2.0
        _, info = env.reset()
    assert total_skipped > 5


def test_an_illegal_action_ends_the_episode_or_raises() -> None:
    env = TripleDrawEnv(num_players=2, opponents="call")
    env.reset(seed=1)
    assert env.hand is not None and not env.hand.in_draw
    _, r, done, trunc, info = env.step(np.int64(encoding.DISCARD_OFFSET))  # a discard now
    assert (r, done, trunc, info["illegal_action"]) == (-1.0, True, False, True)
    with pytest.raises(IllegalActionError, match="reset"):
        env.step(1)
    strict = TripleDrawEnv(num_players=2, opponents="call", illegal_reward=None)
    strict.reset(seed=1)
    assert strict.hand is not None
    before = strict.hand.to_dict()
    with pytest.raises(IllegalActionError, match="legal"):
        strict.step(encoding.DISCARD_OFFSET)
    assert strict.hand.to_dict() == before
    strict.step(encoding.CHECK_CALL)  # still playable


@pytest.mark.parametrize("action", [True, np.bool_(False), 1.0, "1", None, 35, -1])
def test_actions_outside_the_action_space_are_refused(action: Any) -> None:
    env = TripleDrawEnv(num_players=2, opponents="call")
    env.reset(seed=1)
    with pytest.raises(IllegalActionError):
        env.step(action)


@pytest.mark.parametrize(
    ("kwargs", "word"),
    [
        ({"num_players": 9}, "num_players"),
        ({"num_players": 3, "opponents": ["call"]}, "opponents"),
        ({"opponents": "nobody"}, "unknown bot"),
        ({"seat": 2}, "seat"),
        ({"rules": "live"}, "Rules"),
        ({"num_players": 7, "rules": Rules()}, "do not fit"),
        ({"stacks": 0}, "stacks"),
        ({"reward_scale": 0}, "reward_scale"),
        ({"render_mode": "rgb_array"}, "render_mode"),
    ],
)
def test_bad_arguments_are_refused(kwargs: dict[str, Any], word: str) -> None:
    with pytest.raises(TripleDrawError, match=word):
        TripleDrawEnv(**kwargs)
    assert issubclass(ArgumentError, TripleDrawError)


def test_a_learner_that_always_folds_loses_its_blinds() -> None:
    # against the calling station: -1 as small blind; as big blind the station calls and
    # the learner folds its 2 chips
    env = TripleDrawEnv(num_players=2, opponents="call")
    total = 0.0
    hands = 0
    _, info = env.reset(seed=4)
    for _ in range(100):
        assert info["skipped_hands"] == 0
        _, r, done, _, _ = env.step(encoding.FOLD)
        assert done and r in (-1.0, -2.0)
        total += r
        hands += 1
        _, info = env.reset()
    assert -2.0 < total / hands < -1.0


def _example() -> Any:
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "examples" / "gym_maskable_ppo.py"
    spec = importlib.util.spec_from_file_location("gym_maskable_ppo", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_maskable_ppo_example_loop_and_its_scoreboard_glue() -> None:
    # the parts of examples/gym_maskable_ppo.py that need no deep-learning framework: the
    # CleanRL-style rollout and the adapter of an SB3-style model to the scoreboard
    ex = _example()
    env = ex.make_env("call")
    data = ex.rollout(env, ex.masked_random(1), 300, seed=1)
    assert data["obs"].shape == (300, encoding.observation_size(2))
    assert all(m[a] for m, a in zip(data["mask"], data["action"], strict=True))
    assert len(data["returns"]) == int(data["done"].sum()) > 10

    class FakeModel:  # SB3's predict signature; always the first legal action
        def predict(self, obs: np.ndarray, action_masks: np.ndarray, deterministic: bool) -> Any:
            assert obs.shape == (encoding.observation_size(2),) and action_masks.dtype == bool
            return np.int64(np.flatnonzero(action_masks)[0]), None

    from triple_draw.evaluation import match

    # the first legal action: fold at every bet, so it loses its blinds to the station
    e = match([ex.model_bot(FakeModel(), "fake"), "call"], hands=100, seed=1)[0]
    assert e.bot == "fake" and e.bb_per_100 == pytest.approx(-75.0)


def test_an_opponent_with_only_decide_obs_plays_too() -> None:
    class CheckCall:  # the other bot form: decide(obs) on an Observation
        def decide(self, obs: Any) -> str:
            return "call" if obs.to_call else ("check" if obs.phase == "bet" else "discard")

    env = TripleDrawEnv(num_players=2, opponents=CheckCall(), seat=0)
    env.reset(seed=1)
    done = False
    while not done:
        _, _, done, _, _ = env.step(int(np.flatnonzero(env.action_masks())[0] or 1))
    assert env.hand is not None and env.hand.is_over
