"""The batched environment's outputs pinned as digests (issue #24: the learner mode made
faster without changing what it does).

Each case plays a few hundred random legal steps and hashes everything ``reset`` and
``step`` return (observations, rewards, terminations, truncations, every info key with its
``final_obs``/``final_info``) and every hand it finished or holds at the end (its
``to_dict()``). The constants were computed with the code before the learner mode's fast
path (commit ff0da8d): the same seeds must keep giving the same hands, bot decisions and
arrays. A change that is meant to change them must say so and update the constants.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import numpy as np
import pytest

pytest.importorskip("gymnasium", minversion="1.1")

from triple_draw.bots import Bot, HeuristicBot, Observation
from triple_draw.envs.vector import TripleDrawVectorEnv
from triple_draw.game import Action, Rules


class _DecideBot(Bot):
    """A bot outside the package's trusted ones (its actions go through ``Hand.apply``):
    raises when it may on even streets, calls otherwise, draws its two highest cards."""

    def decide(self, obs: Observation) -> Action:
        if obs.phase == "draw":
            return Action("discard", cards=tuple(sorted(obs.hole)[3:]))
        if obs.raise_to is not None and obs.street % 2 == 0:
            return Action("raise" if obs.bet_level else "bet", obs.raise_to)
        if obs.to_call:
            return Action("call", obs.bets[obs.seat] + obs.to_call)
        return Action("check")


class _ViewBot:
    """A bot that reads the full view (``act``): folds facing a raise after the first
    round, else calls or checks; stands pat."""

    def act(self, view: dict[str, Any]) -> Any:
        kinds = {a["kind"]: a for a in view["legal_actions"]}
        if "discard" in kinds:
            return {"kind": "discard", "cards": []}
        if "call" in kinds:
            if view["street"] > 0 and "fold" in kinds and view["bet_level"] > 4:
                return "fold"
            return kinds["call"]
        return "check"


def _feed(h: Any, x: Any) -> None:
    """Hash ``x`` (arrays, dicts, None, numbers) into ``h`` unambiguously."""
    if isinstance(x, np.ndarray):
        if x.dtype == object:
            h.update(b"O" + repr(x.shape).encode())
            for v in x.ravel():
                _feed(h, v)
        else:
            h.update(f"A{x.dtype.str}{x.shape}".encode())
            h.update(np.ascontiguousarray(x).tobytes())
    elif isinstance(x, dict):
        h.update(b"D%d" % len(x))
        for k in sorted(x):
            h.update(repr(k).encode())
            _feed(h, x[k])
    elif x is None:
        h.update(b"N")
    else:
        h.update(b"V" + repr(x).encode())


def _hand(h: Any, hand: Any) -> None:
    h.update(json.dumps(hand.to_dict(), sort_keys=True, default=str).encode())


def digest(
    steps: int = 300,
    seed: int = 7,
    reset_at: int | None = None,
    compiled: bool = True,
    **kwargs: Any,
) -> str:
    env = TripleDrawVectorEnv(**kwargs)
    env._compiled = compiled  # False: the learner mode's Python loop
    rng = np.random.default_rng(seed)
    h = hashlib.sha256()
    obs, info = env.reset(seed=seed)
    _feed(h, obs)
    _feed(h, info)
    for t in range(steps):
        if t == reset_at:  # a partial reset, then one slot reseeded on its own
            mask = np.arange(env.num_envs) % 2 == 0
            obs, info = env.reset(options={"reset_mask": mask})
            _feed(h, obs)
            _feed(h, info)
            seeds: list[int | None] = [None] * env.num_envs
            seeds[-1] = seed + 1
            obs, info = env.reset(seed=seeds)
            _feed(h, obs)
            _feed(h, info)
        before = list(env.hands)
        out = env.step(env.sample_actions(info["action_mask"], rng))
        for x in out:
            _feed(h, x)
        info = out[4]
        for i in np.flatnonzero(out[2]):
            _hand(h, before[i])
    for hand in env.hands:
        _hand(h, hand)
    return h.hexdigest()


#: name -> (digest arguments, sha256 with the code before the fast path)
CASES: dict[str, tuple[dict[str, Any], str]] = {
    "heads-up vs heuristic, same step": (
        dict(num_envs=16, learner=0, opponents="heuristic", autoreset_mode="same_step"),
        "50cd81c07cc327832de9ba7c3429395692612e5e6f859d41e4fd2fb976a58793",
    ),
    "heads-up vs heuristic, next step, learner 1, partial reset": (
        dict(num_envs=8, learner=1, opponents="heuristic", reset_at=100),
        "cc9e681e59ee5db9dce3a1dcd5d506068e1b8d90c85da6b399b53a3ad2d355d3",
    ),
    "heads-up vs heuristic, short stacks, fixed button, scaled": (
        dict(
            num_envs=8,
            learner=0,
            opponents="heuristic",
            stacks=[9, 14],
            button=1,
            reward_scale=2.0,
            autoreset_mode="same_step",
        ),
        "2a369a9613d8920543437ec1361c363af3dcd87712d603b3465fb1352f04a991",
    ),
    "heads-up vs heuristic, antes and a raise cap of 4": (
        dict(
            num_envs=8,
            learner=1,
            opponents="heuristic",
            autoreset_mode="same_step",
            rules=Rules(ante=1, raise_cap=4, heads_up_uncapped=True),
            stacks=40,
        ),
        "89830c340db700de61a4f73e4f2dbf8ea2bc87e9171f1dcef1b5515adcb8c65c",
    ),
    "heads-up vs a tuned HeuristicBot": (
        dict(
            num_envs=8,
            learner=0,
            autoreset_mode="same_step",
            opponents=[HeuristicBot(keep_max="9", bluff=0.5, aggression=1.7, pat={1: "T"})],
        ),
        "16f963bfa01a5a2eee0b937a9011d8e8bafbf0a8ebc9d616b88761e555bfd0c3",
    ),
    "heads-up vs random": (
        dict(num_envs=16, learner=0, opponents="random", autoreset_mode="same_step"),
        "4a6c71bf57847a7b1b2de24bebe02ed5febe3874617b4def7f943637667b7b72",
    ),
    "heads-up vs call, next step": (
        dict(num_envs=8, learner=1, opponents="call"),
        "e7f21ccb973e86ff81831e220502711262dc5474bda28f999de83274d3248354",
    ),
    "3 players vs random and call": (
        dict(
            num_envs=8,
            num_players=3,
            learner=2,
            opponents=["random", "call"],
            autoreset_mode="same_step",
            stacks=30,
        ),
        "4d9401c859963d4a59dee98576fcf694881f4e1d5f563c43f35e1c1684de1307",
    ),
    "6 players vs 5 heuristic, short stacks": (
        dict(
            num_envs=8,
            num_players=6,
            learner=3,
            opponents="heuristic",
            autoreset_mode="same_step",
            stacks=12,
        ),
        "3023aba47503dc188f3b62f3b6afc3358baaea6626b94bc89c53a270f1af6a39",
    ),
    "6 players vs 5 heuristic, next step, partial reset": (
        dict(num_envs=6, num_players=6, learner=0, opponents="heuristic", reset_at=50),
        "8d18bbb3d07069e02bef862c1434c058d3366e5277d88a8d941a50acd0c043cd",
    ),
    "4 players vs a decide bot, a view bot and heuristic": (
        dict(
            num_envs=6,
            num_players=4,
            learner=1,
            autoreset_mode="same_step",
            stacks=25,
            opponents=[_DecideBot(seed=1), _ViewBot(), "heuristic"],
        ),
        "96af2a33e2dad87abb9b3eea431a301d1ec70af49ca39bab952892ef1d2b1691",
    ),
    "heads-up vs heuristic on the reference core": (
        dict(
            steps=60,
            num_envs=4,
            learner=0,
            opponents="heuristic",
            core="reference",
            autoreset_mode="same_step",
        ),
        "2141cb01e1f11fa3462c61995608b2e4e0257b657b665d0500c46626268109d5",
    ),
    "heads-up vs equity": (
        dict(steps=12, num_envs=2, learner=0, opponents="equity", autoreset_mode="same_step"),
        "2c5f089ebcbfcd55a1075c0af864b4bf44223cb69ce3316d8909516deb966f9d",
    ),
    "self-play heads-up, same step": (
        dict(num_envs=16, autoreset_mode="same_step"),
        "c4d21d9f57f5440e84c4aab2f3752104a3e20175cc7c06d097b2be10fa3dd864",
    ),
    "self-play 6 players, next step, partial reset": (
        dict(num_envs=8, num_players=6, stacks=20, reset_at=80),
        "ff9c09d321146425c92ba2940c485aa0d0f400c7111cdd90246e41b489821ce0",
    ),
}


@pytest.mark.parametrize("name", list(CASES))
def test_vector_env_outputs_are_pinned(name: str) -> None:
    kwargs, expected = CASES[name]
    assert digest(**kwargs) == expected


@pytest.mark.parametrize("name", [k for k, (kw, _) in CASES.items() if "learner" in kw])
def test_the_learner_modes_python_loop_gives_the_same(name: str) -> None:
    """The learner mode's Python loop, the compiled loop's twin (the reference core's
    environment takes it), gives the same outputs."""
    kwargs, expected = CASES[name]
    assert digest(**kwargs, compiled=False) == expected


def test_the_compiled_loop_plays_the_bundled_bots_itself() -> None:
    """On the compiled core the learner mode runs in the compiled loop, which decides for
    the heuristic bot, the random bot and the calling station itself; other bots, and
    every bot on the reference core, are asked in Python."""
    env = TripleDrawVectorEnv(
        num_envs=2, num_players=5, learner=1, opponents=["heuristic", "random", "call", "equity"]
    )
    env.reset(seed=1)
    assert type(env._loop).__name__ == "VectorLearner"
    asked: list[int] = []
    turn = env._bot_turn

    def counted(i: int, h: Any, s: int, *args: Any) -> Any:
        asked.append(s)
        return turn(i, h, s, *args)

    env._loop = None  # a new loop over the counted callback
    env._bot_turn = counted  # type: ignore[method-assign]
    env._loop = env._compiled_loop()
    rng = np.random.default_rng(2)
    info = env.reset(seed=2)[1]
    for _ in range(8):
        info = env.step(env.sample_actions(info["action_mask"], rng))[4]
    assert asked and set(asked) == {0}  # the equity bot, 4 seats after the learner
    ref = TripleDrawVectorEnv(num_envs=2, learner=0, core="reference")
    ref.reset(seed=1)
    assert ref._loop is None


@pytest.mark.parametrize("compiled", [True, False])
@pytest.mark.parametrize("copier", ["pickle", "deepcopy"])
def test_a_copy_mid_run_plays_on_the_same(compiled: bool, copier: str) -> None:
    """A learner-mode environment pickled or deep-copied between steps (the compiled
    loop's record of every slot and its bots' random streams go with it) plays on as the
    original does."""
    import copy
    import pickle

    env = TripleDrawVectorEnv(
        num_envs=6, num_players=3, learner=0, opponents=["heuristic", "random"],
        autoreset_mode="same_step",
    )  # fmt: skip
    env._compiled = compiled
    rng = np.random.default_rng(5)
    info = env.reset(seed=5)[1]
    for _ in range(7):
        info = env.step(env.sample_actions(info["action_mask"], rng))[4]
    twin = pickle.loads(pickle.dumps(env)) if copier == "pickle" else copy.deepcopy(env)
    assert (twin._loop is None) == (not compiled) and twin.hands is not env.hands
    for _ in range(40):
        actions = env.sample_actions(info["action_mask"], rng)
        a, b = env.step(actions), twin.step(actions)
        ha, hb = hashlib.sha256(), hashlib.sha256()
        for x, y in zip(a, b, strict=True):
            _feed(ha, x)
            _feed(hb, y)
        assert ha.digest() == hb.digest()
        info = a[4]
    assert [h.to_dict() for h in env.hands] == [h.to_dict() for h in twin.hands]


def test_without_pythons_streams_the_loop_asks_the_random_bots_in_python(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """If the compiled loop's random streams did not give ``random.Random``'s numbers, it
    would leave the bots that draw them (heuristic, random) to Python: the same outputs."""
    from triple_draw.envs import vector

    monkeypatch.setattr(vector, "_streams_match", lambda loop: False)
    env = TripleDrawVectorEnv(
        num_envs=2, num_players=4, learner=0, opponents=["heuristic", "random", "call"]
    )
    assert env._native == [None, None, None, ("call", 6, 18)]
    for name in ("heads-up vs heuristic, same step", "3 players vs random and call"):
        kwargs, expected = CASES[name]
        assert digest(**kwargs) == expected


def test_an_environment_left_behind_is_collected() -> None:
    """The compiled loop and its environment refer to each other; the garbage collector
    sees through the loop and frees both."""
    import gc
    import weakref

    env = TripleDrawVectorEnv(num_envs=2, learner=0, opponents=["random"])
    env.reset(seed=1)
    assert env._loop is not None
    gone = weakref.ref(env)
    del env
    gc.collect()
    assert gone() is None
