"""The batched environment triple_draw.envs.vector: observations equal to the per-hand
encoding (only what the acting seat may know), Gymnasium's autoreset modes and info
conventions, seeded hands that do not depend on the number of hands or the order of
steps, the same hands driven through Hand, and refused bad actions."""

from __future__ import annotations

import random
import sys

import numpy as np
import pytest

pytest.importorskip("gymnasium", minversion="1.1")

from triple_draw.bots import RandomBot
from triple_draw.envs import encoding
from triple_draw.envs.vector import TripleDrawVectorEnv, hand_seed
from triple_draw.errors import BatchTypeError, IllegalActionError, TripleDrawError
from triple_draw.game import Hand, Rules


def policy(mask: np.ndarray, keys: list[tuple[int, ...]]) -> np.ndarray:
    """A legal action per hand chosen from a key of the hand alone (slot, episode, step),
    so that a hand is played the same whatever else is in the batch."""
    out = np.zeros(len(mask), dtype=np.int64)
    for i, key in enumerate(keys):
        legal = np.flatnonzero(mask[i])
        if legal.size:
            out[i] = legal[random.Random(repr(key)).randrange(legal.size)]
    return out


def run(env: TripleDrawVectorEnv, seed: int, steps: int, record=None):
    """Play ``steps`` steps; returns {(slot, episode): final hand}."""
    obs, info = env.reset(seed=seed)
    n_in_hand = [0] * env.num_envs
    finished = {}
    for _ in range(steps):
        keys = [(i, int(info["episode"][i]), n_in_hand[i]) for i in range(env.num_envs)]
        actions = policy(info["action_mask"], keys)
        if record is not None:
            record(env, obs, info)
        hands = list(env.hands)
        episodes = info["episode"].copy()
        obs, rewards, term, trunc, info = env.step(actions)
        assert not trunc.any()
        for i in range(env.num_envs):
            n_in_hand[i] += 1
            if term[i]:
                h = hands[i]
                assert h.is_over
                net = np.array(h.result.net, dtype=np.float32) / env.reward_scale
                assert np.array_equal(rewards[i], net)
                finished[(i, int(episodes[i]))] = h
            else:
                assert not rewards[i].any()
            if info["episode"][i] != episodes[i]:
                n_in_hand[i] = 0
    return finished


def check_observations(env, obs, info) -> None:
    """Each row is encode(hand, seat) of the seat named in info["seat"]."""
    assert env.observation_space.contains(obs)
    for i, h in enumerate(env.hands):
        seat = int(info["seat"][i])
        assert np.array_equal(obs[i], encoding.encode(h, seat)), (i, seat)
        if h.actor is None:
            assert info["actor"][i] == -1 and not info["action_mask"][i].any()
        else:
            assert info["actor"][i] == seat == h.actor
            assert np.array_equal(info["action_mask"][i], encoding.action_mask(h))


@pytest.mark.parametrize(
    "n_players, rules, stacks",
    [
        (2, Rules(), 100),
        (3, Rules.online(ante=1), [20, 40, 60]),
        (6, Rules(), 30),
        (8, Rules(max_players=8, raise_cap=4), 50),
        (2, Rules(heads_up_uncapped=True), 7),
    ],
)
@pytest.mark.parametrize("mode", ["next_step", "same_step"])
def test_observations_are_the_encoding_of_the_acting_seat(n_players, rules, stacks, mode):
    env = TripleDrawVectorEnv(
        num_envs=5, num_players=n_players, rules=rules, stacks=stacks, autoreset_mode=mode
    )
    finished = run(env, seed=1, steps=60, record=check_observations)
    assert finished


def test_hands_do_not_depend_on_the_batch_size_or_step_order() -> None:
    small = run(TripleDrawVectorEnv(num_envs=2, num_players=3), seed=9, steps=80)
    big = run(TripleDrawVectorEnv(num_envs=5, num_players=3), seed=9, steps=80)
    same = run(
        TripleDrawVectorEnv(num_envs=5, num_players=3, autoreset_mode="same_step"),
        seed=9,
        steps=80,
    )
    common = set(small) & set(big) & set(same)
    assert len(common) >= 4
    for key in common:
        docs = {x[key].to_dict()["history"].__repr__() for x in (small, big, same)}
        assert len(docs) == 1, key
    other = run(TripleDrawVectorEnv(num_envs=2, num_players=3), seed=10, steps=80)
    assert other[(0, 0)].to_dict()["history"] != small[(0, 0)].to_dict()["history"]


def test_the_same_hands_through_hand() -> None:
    """Every hand is Hand(rules, stacks, *hand_args(slot, episode)) played with the same
    action numbers: same history, same result."""
    rules = Rules.online()
    env = TripleDrawVectorEnv(num_envs=4, num_players=4, rules=rules, stacks=40)
    log: dict[tuple[int, int], list[int]] = {}
    played: dict[tuple[int, int], Hand] = {}
    _obs, info = env.reset(seed=123)
    rng = np.random.default_rng(0)
    for _ in range(150):
        actions = env.sample_actions(info["action_mask"], rng)
        for i in range(4):
            key = (i, int(info["episode"][i]))
            played[key] = env.hands[i]
            if info["actor"][i] >= 0:
                log.setdefault(key, []).append(int(actions[i]))
        _obs, _rewards, _term, _trunc, info = env.step(actions)
    finished = 0
    for (i, e), actions in log.items():
        button, key = env.hand_args(i, e)
        assert key == hand_seed(123, i, e)
        h = Hand(rules, [40] * 4, button, key)
        for a in actions:
            encoding.apply(h, a)
        assert h.to_dict() == played[(i, e)].to_dict()
        if h.is_over:
            finished += 1
            assert h.result.to_dict() == played[(i, e)].result.to_dict()
    assert finished >= 8


def test_next_step_autoreset() -> None:
    env = TripleDrawVectorEnv(num_envs=3, num_players=2, stacks=3, reward_scale=2.0)
    _obs, info = env.reset(seed=0)
    assert env.metadata["autoreset_mode"].value == "NextStep"
    rng = np.random.default_rng(1)
    for _ in range(40):
        _obs, rewards, term, _trunc, info = env.step(env.sample_actions(info["action_mask"], rng))
        if term.any():
            break
    i = int(np.flatnonzero(term)[0])
    assert info["actor"][i] == -1 and not info["action_mask"][i].any()
    assert rewards[i].sum() == 0 and rewards[i].any()
    episode = info["episode"][i]
    # the next step deals the next hand in that slot, whatever its action
    actions = env.sample_actions(info["action_mask"], rng)
    actions[i] = 34
    _obs, rewards, term, _trunc, info = env.step(actions)
    assert info["episode"][i] == episode + 1 and info["actor"][i] >= 0
    assert not term[i] and not rewards[i].any()
    assert (
        env.hands[i].to_dict()["history"]
        == Hand(Rules(), [3, 3], *env.hand_args(i, int(episode) + 1)).to_dict()["history"]
    )


def test_same_step_autoreset_returns_the_final_observation() -> None:
    env = TripleDrawVectorEnv(num_envs=4, num_players=2, stacks=5, autoreset_mode="same_step")
    _obs, info = env.reset(seed=2)
    rng = np.random.default_rng(2)
    seen = 0
    for _ in range(30):
        before = list(env.hands)
        _obs, _rewards, term, _trunc, info = env.step(env.sample_actions(info["action_mask"], rng))
        assert (info["actor"] >= 0).all()  # every slot has a hand to play
        if term.any():
            assert np.array_equal(info["_final_obs"], term)
            for i in np.flatnonzero(term):
                h = before[i]
                assert h.is_over and env.hands[i] is not h
                assert any(
                    np.array_equal(info["final_obs"][i], encoding.encode(h, s)) for s in range(2)
                )
                assert info["final_info"][i]["net"].tolist() == list(h.result.net)
                seen += 1
    assert seen


def test_reset_without_seed_continues_and_seeds_replay() -> None:
    a = TripleDrawVectorEnv(num_envs=2)
    b = TripleDrawVectorEnv(num_envs=2)
    a.reset(seed=5)
    b.reset(seed=5)
    a.reset()
    b.reset()
    assert [h.to_dict() for h in a.hands] == [h.to_dict() for h in b.hands]
    assert list(a._info()["episode"]) == [1, 1]
    c = TripleDrawVectorEnv(num_envs=2)
    c.reset()  # a seed from the OS
    assert c.seed_value is not None


def test_bad_actions_are_refused_and_change_nothing() -> None:
    env = TripleDrawVectorEnv(num_envs=3, num_players=2)
    _obs, _info = env.reset(seed=4)
    before = [h.to_dict() for h in env.hands]
    with pytest.raises(BatchTypeError, match="shape"):
        env.step(np.zeros(2, dtype=np.int64))
    with pytest.raises(BatchTypeError, match="dtype"):
        env.step(np.zeros(3, dtype=np.float32))
    with pytest.raises(IllegalActionError, match=r"0\.\.34"):
        env.step(np.array([1, 1, 35]))
    with pytest.raises(IllegalActionError, match="hand 1: illegal action 5"):
        env.step(np.array([1, 5, 1]))
    assert [h.to_dict() for h in env.hands] == before
    assert issubclass(BatchTypeError, TripleDrawError)
    _obs2, *_ = env.step(np.array([1, 1, 1]))
    assert [h.to_dict() for h in env.hands] != before


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"num_envs": 0}, "num_envs"),
        ({"num_players": 9}, "num_players"),
        ({"stacks": [10, 20, 30]}, "stacks"),
        ({"button": 2}, "button"),
        ({"reward_scale": 0}, "reward_scale"),
        ({"autoreset_mode": "never"}, "autoreset_mode"),
    ],
)
def test_bad_options(kwargs, match) -> None:
    with pytest.raises(TripleDrawError, match=match):
        TripleDrawVectorEnv(**kwargs)


def test_gymnasium_spaces() -> None:
    env = TripleDrawVectorEnv(num_envs=4, num_players=3)
    obs, info = env.reset(seed=0)
    assert env.single_observation_space.shape == (encoding.observation_size(3),)
    assert env.observation_space.contains(obs)
    assert env.action_space.shape == (4,)
    assert all(info[f"_{k}"].all() for k in ("actor", "seat", "action_mask", "episode"))
    env.close()
    assert env.closed


def test_policy_gradient_example_beats_the_random_bot() -> None:
    """A short run of examples/train_policy_gradient.py: after self-play training the
    policy beats RandomBot by more than three standard errors of the hands played (an
    untrained policy, uniform over the legal actions, does not)."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).parent.parent / "examples" / "train_policy_gradient.py"
    spec = importlib.util.spec_from_file_location("train_policy_gradient", path)
    assert spec is not None and spec.loader is not None
    example = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = example  # its dataclass looks its module up
    spec.loader.exec_module(example)
    untrained = example.Policy(encoding.observation_size(2))
    mean0, se0 = example.evaluate(untrained, 1000, num_envs=128, seed=3)
    assert mean0 < 3 * se0
    policy = example.train(4000, num_envs=128, seed=0, log=False)
    mean, se = example.evaluate(policy, 1500, num_envs=128, seed=3)
    assert mean > 3 * se, (mean, se)
    assert mean > mean0


def test_reset_mask_re_deals_only_the_masked_slots() -> None:
    env = TripleDrawVectorEnv(num_envs=4, num_players=2)
    obs, info = env.reset(seed=6)
    rng = np.random.default_rng(6)
    obs, *_rest, info = env.step(env.sample_actions(info["action_mask"], rng))
    before = [h.to_dict() for h in env.hands]
    kept = [env.hands[1], env.hands[3]]
    mask = np.array([True, False, True, False])
    obs2, info2 = env.reset(options={"reset_mask": mask})
    assert env.hands[1] is kept[0] and env.hands[3] is kept[1]
    assert [env.hands[i].to_dict() for i in (1, 3)] == [before[i] for i in (1, 3)]
    assert np.array_equal(obs2[[1, 3]], obs[[1, 3]])
    assert info2["episode"].tolist() == [1, 0, 1, 0]
    for i in (0, 2):
        assert env.hands[i].to_dict() == Hand(Rules(), [100, 100], *env.hand_args(i, 1)).to_dict()
    with pytest.raises(TripleDrawError, match="reset_mask"):
        env.reset(options={"reset_mask": np.array([1, 0, 1, 0])})


def test_reset_with_a_list_of_seeds() -> None:
    env = TripleDrawVectorEnv(num_envs=3, num_players=2)
    env.reset(seed=[7, 8, 9])
    for i, s in enumerate((7, 8, 9)):
        assert env.hand_args(i, 0)[1] == hand_seed(s, i, 0)
        single = TripleDrawVectorEnv(num_envs=3, num_players=2)
        single.reset(seed=s)
        assert env.hands[i].to_dict() == single.hands[i].to_dict()
    env.reset(seed=[None, 8, None])  # None: that slot continues
    assert env._info()["episode"].tolist() == [1, 0, 1]
    assert env.hand_args(0, 1)[1] == hand_seed(7, 0, 1)
    with pytest.raises(TripleDrawError, match="seed"):
        env.reset(seed=[1, 2])
    with pytest.raises(TripleDrawError, match="seed"):
        env.reset(seed=[1, 2, "x"])


def test_close_closes() -> None:
    from triple_draw.envs.vector import ClosedEnvError

    env = TripleDrawVectorEnv(num_envs=2)
    env.reset(seed=1)
    env.close()
    with pytest.raises(ClosedEnvError, match="closed"):
        env.reset(seed=1)
    with pytest.raises(ClosedEnvError, match="closed"):
        env.step(np.ones(2, dtype=np.int64))
    assert issubclass(ClosedEnvError, TripleDrawError)
    env.close()  # closing twice is fine


# -- the learner mode: one seat learns, package bots play the others ------------------------


def learner_run(env: TripleDrawVectorEnv, seed: int, steps: int):
    """Play ``steps`` random legal learner steps, checking every observation against the
    encoding of the learner's seat; returns {(slot, hand number): (final hand, reward)}."""
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    finished = {}
    for _ in range(steps):
        for i, h in enumerate(env.hands):
            assert np.array_equal(obs[i], encoding.encode(h, env.learner)), i
            if h.actor is None:
                assert not info["action_mask"][i].any()
            else:
                assert h.actor == env.learner
                assert np.array_equal(info["action_mask"][i], encoding.action_mask(h))
        hands = list(env.hands)
        numbers = info["hand"].copy()
        obs, rewards, term, trunc, info = env.step(env.sample_actions(info["action_mask"], rng))
        assert rewards.shape == (env.num_envs,) and not trunc.any()
        for i in np.flatnonzero(term):
            h = hands[i]
            assert h.is_over
            assert rewards[i] == h.result.net[env.learner] / env.reward_scale
            finished[(int(i), int(numbers[i]))] = (h, float(rewards[i]))
        assert not rewards[~term].any()
    return finished


@pytest.mark.parametrize("mode", ["next_step", "same_step"])
@pytest.mark.parametrize(
    "n_players, learner, opponents", [(2, 0, "heuristic"), (3, 2, ["random", "call"])]
)
def test_learner_mode_observes_the_learner_and_pays_its_net(mode, n_players, learner, opponents):
    env = TripleDrawVectorEnv(
        num_envs=4, num_players=n_players, learner=learner, opponents=opponents,
        reward_scale=2.0, autoreset_mode=mode,
    )  # fmt: skip
    finished = learner_run(env, seed=3, steps=40)
    assert len(finished) >= 8
    assert any(r > 0 for _h, r in finished.values()) and any(r < 0 for _h, r in finished.values())


def test_learner_mode_hands_do_not_depend_on_the_batch() -> None:
    """Each slot has its own bots, reseeded from each hand's key: slot 0 plays the same
    hands (the bots' random choices too) alone or in a batch of three."""

    def histories(num_envs):
        env = TripleDrawVectorEnv(
            num_envs=num_envs, num_players=3, learner=1, opponents="random",
            autoreset_mode="same_step",
        )  # fmt: skip
        env.reset(seed=11)
        out = []
        for _ in range(30):
            mask = env._mask.copy()
            acts = np.array([int(np.flatnonzero(m)[0]) if m.any() else 0 for m in mask])
            hands = list(env.hands)
            _obs, _r, term, _t, _info = env.step(acts)
            if term[0]:
                out.append(hands[0].to_dict()["history"])
        return out

    alone, batched = histories(1), histories(3)
    assert len(alone) >= 3 and alone == batched


def test_learner_mode_works_with_gymnasium_reward_wrappers() -> None:
    """RecordEpisodeStatistics and NormalizeReward take the (num_envs,) rewards; the
    returns they record are the learner's nets."""
    from gymnasium.wrappers.vector import NormalizeReward, RecordEpisodeStatistics

    for mode in ("next_step", "same_step"):
        base = TripleDrawVectorEnv(num_envs=3, learner=0, opponents="call", autoreset_mode=mode)
        env = NormalizeReward(RecordEpisodeStatistics(base))
        _obs, info = env.reset(seed=5)
        rng = np.random.default_rng(5)
        nets = []
        for _ in range(40):
            hands = list(base.hands)
            _obs, rewards, term, _trunc, info = env.step(
                base.sample_actions(info["action_mask"], rng)
            )
            assert rewards.shape == (3,)
            if term.any():
                assert np.array_equal(info["_episode"], term)
                for i in np.flatnonzero(term):
                    nets.append(hands[i].result.net[0])
                    assert info["episode"]["r"][i] == hands[i].result.net[0]
        assert nets and list(env.env.return_queue)[-len(nets) :] == nets


def test_learner_mode_same_step_final_info_layout() -> None:
    """Gymnasium 1.x same-step layout: final_obs an object array (None where no hand
    ended), final_info a dict of arrays with their _key masks."""
    env = TripleDrawVectorEnv(
        num_envs=4, learner=1, opponents="random", stacks=6, autoreset_mode="same_step"
    )
    _obs, info = env.reset(seed=8)
    rng = np.random.default_rng(8)
    seen = 0
    for _ in range(30):
        before = list(env.hands)
        numbers = info["hand"].copy()
        _obs, rewards, term, _trunc, info = env.step(env.sample_actions(info["action_mask"], rng))
        assert all(h.actor == 1 for h in env.hands)
        if not term.any():
            assert "final_obs" not in info
            continue
        assert info["final_obs"].dtype == object
        assert np.array_equal(info["_final_obs"], term) and np.array_equal(
            info["_final_info"], term
        )
        fi = info["final_info"]
        for i in range(4):
            if term[i]:
                assert np.array_equal(info["final_obs"][i], encoding.encode(before[i], 1))
                assert fi["net"][i] == before[i].result.net[1] == rewards[i]
                assert fi["hand"][i] == numbers[i] and fi["_net"][i]
                assert info["hand"][i] > numbers[i]
                seen += 1
            else:
                assert info["final_obs"][i] is None and not fi["_net"][i]
    assert seen >= 3


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"opponents": "random"}, "learner"),
        ({"learner": 2}, "learner"),
        ({"learner": 0, "opponents": ["random", "call"]}, "opponents"),
        ({"learner": 0, "opponents": "nobody"}, "nobody"),
    ],
)
def test_learner_mode_bad_options(kwargs, match) -> None:
    with pytest.raises(TripleDrawError, match=match):
        TripleDrawVectorEnv(num_envs=2, num_players=2, **kwargs)


class FoldBot:
    """Folds whenever it may (checks when folding is not listed)."""

    def act(self, view):
        from triple_draw.game import Action

        kinds = {a["kind"] for a in view["legal_actions"]}
        if "fold" in kinds:
            return Action("fold")
        if "check" in kinds:
            return Action("check")
        return Action("discard", cards=())


def test_learner_mode_counts_the_hands_that_end_without_a_learner_decision() -> None:
    """Heads-up against a bot that folds at once, every hand where the bot has the button
    (the small blind) ends before the learner acts: it is skipped and reported in
    skipped_hands/skipped_reward (the small blind won, 1 chip per hand)."""
    env = TripleDrawVectorEnv(num_envs=8, learner=0, opponents=FoldBot(), reward_scale=0.5)
    _obs, info = env.reset(seed=2)
    assert all(h.actor == 0 for h in env.hands)
    assert info["skipped_hands"].sum() > 0
    assert np.array_equal(info["skipped_reward"], info["skipped_hands"] * 2.0)
    for i in range(8):  # the skipped hands are the slot's first ones
        skipped = int(info["skipped_hands"][i])
        assert info["hand"][i] == skipped
        assert all(env.hand_args(i, e)[0] == 1 for e in range(skipped))
        assert env.hand_args(i, skipped)[0] == 0


@pytest.mark.parametrize(
    "n_players, opponents", [(2, "heuristic"), (3, ["random", "call"]), (6, "heuristic")]
)
def test_learner_mode_bots_see_what_their_view_shows(n_players, opponents) -> None:
    """The bots' Observations are built from the engine's state and the slot's record
    (no hand.view, for speed): every one equals Observation.from_view(hand.view(seat))."""
    from triple_draw.bots import Observation

    env = TripleDrawVectorEnv(
        num_envs=6, num_players=n_players, learner=1, opponents=opponents, stacks=12,
        autoreset_mode="same_step",
    )  # fmt: skip
    env._compiled = False  # the Python loop's observations (the compiled loop's, below)
    built = env._bot_obs
    checked = []

    def checked_obs(i, h, s):
        obs = built(i, h, s)
        assert obs == Observation.from_view(h.view(s)), (i, s)
        checked.append(obs.phase)
        return obs

    env._bot_obs = checked_obs
    _obs, info = env.reset(seed=4)
    rng = np.random.default_rng(4)
    for _ in range(60):
        _obs, _r, _term, _trunc, info = env.step(env.sample_actions(info["action_mask"], rng))
    assert checked.count("bet") > 100 and checked.count("draw") > 20


class _SubclassedRandomBot(RandomBot):
    """Not the bundled class itself: the compiled loop asks it in Python."""


def test_learner_mode_compiled_loop_gives_python_bots_what_their_view_shows() -> None:
    """The compiled loop asks the bots it does not play itself (here the heuristic bot on
    the reference core and a subclass of the random bot) in Python, with an Observation
    built from the hand and the loop's record: every one equals
    Observation.from_view(hand.view(seat))."""
    from triple_draw.bots import HeuristicBot, Observation

    env = TripleDrawVectorEnv(
        num_envs=6, num_players=4, learner=2, stacks=12, autoreset_mode="same_step",
        opponents=[HeuristicBot(core="reference"), _SubclassedRandomBot(), "heuristic"],
    )  # fmt: skip
    built = env._observation
    checked = []

    def checked_obs(h, s, *record):
        obs = built(h, s, *record)
        assert obs == Observation.from_view(h.view(s)), s
        checked.append(obs.phase)
        return obs

    env._observation = checked_obs
    _obs, info = env.reset(seed=4)
    assert env._loop is not None
    rng = np.random.default_rng(4)
    for _ in range(60):
        _obs, _r, _term, _trunc, info = env.step(env.sample_actions(info["action_mask"], rng))
    assert checked.count("bet") > 100 and checked.count("draw") > 20


def test_learner_mode_reset_mask_and_close() -> None:
    env = TripleDrawVectorEnv(num_envs=3, learner=1, opponents="random")
    obs, info = env.reset(seed=[4, 5, 6])
    kept = env.hands[1]
    obs2, info2 = env.reset(options={"reset_mask": np.array([True, False, True])})
    assert env.hands[1] is kept and np.array_equal(obs2[1], obs[1])
    assert info2["hand"][1] == info["hand"][1]
    assert (info2["hand"][[0, 2]] > info["hand"][[0, 2]]).all()
    assert all(h.actor == 1 for h in env.hands)
    env.close()
    from triple_draw.envs.vector import ClosedEnvError

    with pytest.raises(ClosedEnvError):
        env.step(np.ones(3, dtype=np.int64))


def test_up_to_eight_players_without_rules_and_rules_that_do_not_seat_them_refused():
    """The docs promise 2-8 players: without ``rules`` the env takes
    ``Rules(max_players=max(6, n))``; rules of 6 seats for 8 players, or rules that are
    not a ``Rules``, are refused with a TripleDrawError that says why."""
    from triple_draw.errors import ArgumentError, ArgumentTypeError

    envs = TripleDrawVectorEnv(num_envs=2, num_players=8)
    obs, info = envs.reset(seed=5)
    assert obs.shape == (2, encoding.observation_size(8))
    assert envs.rules.max_players == 8
    for _ in range(300):
        obs, _r, _t, _tr, info = envs.step(envs.sample_actions(info["action_mask"]))
    with pytest.raises(ArgumentError, match="8 players do not fit: the rules allow at most 6"):
        TripleDrawVectorEnv(num_envs=1, num_players=8, rules=Rules())
    with pytest.raises(ArgumentTypeError, match="rules must be a Rules"):
        TripleDrawVectorEnv(num_envs=1, num_players=2, rules="online")  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match=r"num_players must be 2\.\.8, got 9"):
        TripleDrawVectorEnv(num_envs=1, num_players=9)
