"""Benchmark of the learning environments under uniformly random legal actions.

- batched env (``triple_draw.envs.vector``): 256 hands per batch, actions drawn uniformly
  among each row's legal actions with numpy (``sample_actions``); an agent step is one
  hand's decision, so a batch step is 256 agent steps. Target: >= 100,000 agent steps/s on
  one core.
- the same in its learner mode (``learner=0, opponents=BOT``, same-step autoreset):
  a step is one learner decision, the bots' decisions up to the next one are inside it.
- PettingZoo AEC env (``triple_draw_v0.env()``, with PettingZoo's wrappers): the usual
  ``agent_iter()`` / ``last()`` / ``step()`` loop, a uniformly random action among the
  ones the mask allows (``env.step(None)`` for finished agents counts as a step, as
  PettingZoo counts it). Target: >= 30,000 steps/s.
- OpenSpiel game: random playouts (chance nodes included), for scale; and what
  OpenSpiel's algorithms pay for: ``state.clone()`` (every ``state.child()`` of a tree
  walk) and ``state.information_state_tensor(player)`` at 200 states taken at random
  points of random heads-up hands (decisions and chance nodes), OpenSpiel's Python
  external-sampling MCCFR (``open_spiel.python.algorithms.external_sampling_mccfr``,
  simple averaging) and its C++ ``ExternalSamplingMCCFRSolver`` on the reduced game of
  ``examples/openspiel_solvers.py`` (heads-up, 4-chip stacks, one draw), and
  ``rl_environment.Environment`` (information state tensors of every seat at each step)
  under uniformly random legal actions.

The policy is inside the timing. ``python benches/bench_envs.py`` prints the best of 5
runs as wall-clock and CPU time (which a busy shared machine disturbs less), with the
engine's own fast path (``bench_game``) measured in the same run for comparison.
"""

from __future__ import annotations

import os
import random
import sys
import time
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("gymnasium", minversion="1.1")

from triple_draw.envs.vector import TripleDrawVectorEnv

BATCH = 256
#: the test suite's smoke run (tests/conftest.py): tiny sizes
SMOKE = os.environ.get("TD_BENCH_SMOKE") == "1"
#: the reduced game of examples/openspiel_solvers.py, small enough for MCCFR
MCCFR_GAME = {"players": 2, "stacks": 4, "num_draws": 1}


def run_vector(n_players: int, batch_steps: int, num_envs: int = BATCH, seed: int = 0) -> int:
    """Step a batched env ``batch_steps`` times; returns the agent steps taken."""
    env = TripleDrawVectorEnv(num_envs=num_envs, num_players=n_players)
    rng = np.random.default_rng(seed)
    _obs, info = env.reset(seed=seed)
    sample = env.sample_actions
    for _ in range(batch_steps):
        _obs, _r, _term, _trunc, info = env.step(sample(info["action_mask"], rng))
    return batch_steps * num_envs


def run_vector_learner(
    n_players: int, batch_steps: int, opponents: str = "heuristic", seed: int = 0
) -> int:
    """Step a batched env in its learner mode (seat 0 learns, ``opponents`` play the other
    seats) ``batch_steps`` times; returns the learner steps taken (the bots' decisions
    between them are inside the timing, not counted)."""
    env = TripleDrawVectorEnv(
        num_envs=BATCH, num_players=n_players, learner=0, opponents=opponents,
        autoreset_mode="same_step",
    )  # fmt: skip
    rng = np.random.default_rng(seed)
    _obs, info = env.reset(seed=seed)
    sample = env.sample_actions
    for _ in range(batch_steps):
        _obs, _r, _term, _trunc, info = env.step(sample(info["action_mask"], rng))
    return batch_steps * BATCH


def run_aec(n_players: int, steps: int, seed: int = 0) -> int:
    """Run the wrapped PettingZoo env for ``steps`` steps; returns the steps taken."""
    from triple_draw.envs import triple_draw_v0

    env = triple_draw_v0.env(num_players=n_players)
    rnd = random.Random(seed)
    env.reset(seed=seed)
    done = 0
    while done < steps:
        for _agent in env.agent_iter():
            obs, _reward, termination, truncation, _info = env.last()
            if termination or truncation:
                env.step(None)
            else:
                legal = obs["action_mask"].nonzero()[0]
                env.step(int(legal[rnd.randrange(len(legal))]))
            done += 1
        env.reset()
    return done


def run_openspiel(n_players: int, games: int, seed: int = 0) -> int:
    """Random playouts of the OpenSpiel game; returns the actions applied."""
    import pyspiel

    import triple_draw.envs.openspiel  # noqa: F401 - registers the game

    game = pyspiel.load_game("python_triple_draw", {"players": n_players})
    rnd = random.Random(seed)
    actions = 0
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rnd.randrange(len(outcomes))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rnd.randrange(len(legal))])
            actions += 1
    return actions


def openspiel_states(n_players: int, count: int, seed: int = 0) -> list:
    """``count`` states at random points of random hands of the OpenSpiel game (chance
    nodes and decisions, no finished hand), each with the seat whose information state
    tensor a benchmark reads (the actor, or a random seat at a chance node)."""
    import pyspiel

    import triple_draw.envs.openspiel  # noqa: F401 - registers the game

    game = pyspiel.load_game("python_triple_draw", {"players": n_players})
    rnd = random.Random(seed)
    out = []
    while len(out) < count:
        state = game.new_initial_state()
        history = []
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                a = outcomes[rnd.randrange(len(outcomes))][0]
            else:
                legal = state.legal_actions()
                a = legal[rnd.randrange(len(legal))]
            state.apply_action(a)
            history.append(a)
        state = game.new_initial_state()
        for a in history[: rnd.randrange(len(history))]:
            state.apply_action(a)
        p = state.current_player()
        out.append((state, p if p >= 0 else rnd.randrange(n_players)))
    return out


def run_openspiel_clones(states: list, rounds: int) -> int:
    """``state.clone()`` of every state, ``rounds`` times; returns the clones made."""
    for _ in range(rounds):
        for state, _p in states:
            state.clone()
    return rounds * len(states)


def run_openspiel_tensors(states: list, rounds: int) -> int:
    """``state.information_state_tensor(p)`` of every state, ``rounds`` times; returns
    the tensors made."""
    for _ in range(rounds):
        for state, p in states:
            state.information_state_tensor(p)
    return rounds * len(states)


def run_mccfr(iterations: int, seed: int = 0) -> int:
    """Iterations of OpenSpiel's Python external-sampling MCCFR on the reduced game."""
    import pyspiel
    from open_spiel.python.algorithms import external_sampling_mccfr as es

    import triple_draw.envs.openspiel  # noqa: F401 - registers the game

    np.random.seed(seed)
    solver = es.ExternalSamplingSolver(
        pyspiel.load_game("python_triple_draw", MCCFR_GAME), es.AverageType.SIMPLE
    )
    for _ in range(iterations):
        solver.iteration()
    return iterations


def run_mccfr_cpp(iterations: int, seed: int = 0) -> int:
    """Iterations of OpenSpiel's C++ external-sampling MCCFR on the reduced game."""
    import pyspiel

    import triple_draw.envs.openspiel  # noqa: F401 - registers the game

    game = pyspiel.load_game("python_triple_draw", MCCFR_GAME)
    solver = pyspiel.ExternalSamplingMCCFRSolver(game, seed=seed)
    for _ in range(iterations):
        solver.run_iteration()
    return iterations


def run_rl_environment(n_players: int, steps: int, seed: int = 0) -> int:
    """Steps of OpenSpiel's ``rl_environment`` (chance nodes sampled inside it, every
    seat's information state tensor at each step) under random legal actions."""
    from open_spiel.python import rl_environment

    import triple_draw.envs.openspiel  # noqa: F401 - registers the game

    env = rl_environment.Environment("python_triple_draw", players=n_players)
    env.seed(seed)
    rnd = random.Random(seed)
    ts = env.reset()
    for _ in range(steps):
        if ts.last():
            ts = env.reset()
        legal = ts.observations["legal_actions"][ts.observations["current_player"]]
        ts = env.step([legal[rnd.randrange(len(legal))]])
    return steps


def _rate(benchmark, key: str, count: int) -> None:  # type: ignore[no-untyped-def]
    if benchmark.stats:  # None under --benchmark-disable
        benchmark.extra_info[key] = round(count / benchmark.stats.stats.min)


@pytest.mark.parametrize("n_players", [2, 6])
def test_bench_vector_env_random_actions(benchmark, n_players: int) -> None:
    steps = benchmark.pedantic(run_vector, args=(n_players, 40), rounds=5, iterations=1)
    _rate(benchmark, "agent_steps_per_second", steps)


@pytest.mark.parametrize("opponents", ["heuristic", "random"])
def test_bench_vector_env_learner_mode(benchmark, opponents: str) -> None:
    steps = benchmark.pedantic(run_vector_learner, args=(2, 20, opponents), rounds=5, iterations=1)
    _rate(benchmark, "learner_steps_per_second", steps)


@pytest.mark.parametrize("n_players", [2, 6])
def test_bench_pettingzoo_aec_random_actions(benchmark, n_players: int) -> None:
    pytest.importorskip("pettingzoo")
    steps = benchmark.pedantic(run_aec, args=(n_players, 5000), rounds=5, iterations=1)
    _rate(benchmark, "steps_per_second", steps)


def test_bench_openspiel_random_playouts(benchmark) -> None:
    pytest.importorskip("pyspiel")
    actions = benchmark.pedantic(run_openspiel, args=(2, 20), rounds=3, iterations=1)
    _rate(benchmark, "actions_per_second", actions)


def _per_call(benchmark, key: str, count: int) -> None:  # type: ignore[no-untyped-def]
    if benchmark.stats:  # None under --benchmark-disable
        benchmark.extra_info[key] = round(benchmark.stats.stats.min / count * 1e6, 2)


@pytest.fixture(scope="module")
def heads_up_states() -> list:
    pytest.importorskip("pyspiel")
    return openspiel_states(2, 20 if SMOKE else 200)


def test_bench_openspiel_clone(benchmark, heads_up_states: list) -> None:
    clones = benchmark.pedantic(
        run_openspiel_clones, args=(heads_up_states, 1 if SMOKE else 10), rounds=5, iterations=1
    )
    _per_call(benchmark, "us_per_clone", clones)


def test_bench_openspiel_information_state_tensor(benchmark, heads_up_states: list) -> None:
    tensors = benchmark.pedantic(
        run_openspiel_tensors, args=(heads_up_states, 1 if SMOKE else 10), rounds=5, iterations=1
    )
    _per_call(benchmark, "us_per_tensor", tensors)


def test_bench_openspiel_external_sampling_mccfr(benchmark) -> None:
    pytest.importorskip("pyspiel")
    done = benchmark.pedantic(run_mccfr, args=(1 if SMOKE else 20,), rounds=3, iterations=1)
    _rate(benchmark, "iterations_per_second", done)


def test_bench_openspiel_cpp_external_sampling_mccfr(benchmark) -> None:
    pytest.importorskip("pyspiel")
    done = benchmark.pedantic(run_mccfr_cpp, args=(1 if SMOKE else 20,), rounds=3, iterations=1)
    _rate(benchmark, "iterations_per_second", done)


def test_bench_openspiel_rl_environment(benchmark) -> None:
    pytest.importorskip("pyspiel")
    steps = benchmark.pedantic(
        run_rl_environment, args=(2, 100 if SMOKE else 5000), rounds=3, iterations=1
    )
    _rate(benchmark, "steps_per_second", steps)


def _best(fn, *args) -> tuple[float, float, int]:  # type: ignore[no-untyped-def]
    fn(*args)  # warm up
    wall = cpu = float("inf")
    count = 0
    for _ in range(5):
        t, c = time.perf_counter(), time.process_time()
        count = fn(*args)
        wall = min(wall, time.perf_counter() - t)
        cpu = min(cpu, time.process_time() - c)
    return count / wall, count / cpu, count


def main() -> None:
    sys.path.insert(0, str(Path(__file__).parent))
    from bench_game import play_hands

    from triple_draw.game import Rules

    rows = []
    w, c, decisions = _best(play_hands, Rules(), 2000)
    rows.append(
        (
            "engine fast path, 6-max hands (bench_game)",
            "hands/s",
            w / decisions * 2000,
            c / decisions * 2000,
        )
    )
    rows.append(("  the same, as decisions", "decisions/s", w, c))
    for n in (2, 6):
        w, c, _ = _best(run_vector, n, 100)
        rows.append((f"batched env, {n} players, 256 hands", "agent steps/s", w, c))
    for n, bot in ((2, "heuristic"), (2, "random"), (6, "heuristic")):
        w, c, _ = _best(run_vector_learner, n, 40, bot)
        rows.append((f"batched env, learner vs {n - 1} {bot}, 256 hands", "learner steps/s", w, c))
    for n in (2, 6):
        w, c, _ = _best(run_aec, n, 20000)
        rows.append((f"PettingZoo AEC env(), {n} players", "steps/s", w, c))
    try:
        w, c, _ = _best(run_openspiel, 2, 30)
        rows.append(("OpenSpiel game, 2 players, random playouts", "actions/s", w, c))
        states = openspiel_states(2, 200)
        w, c, _ = _best(run_openspiel_clones, states, 10)
        rows.append(("OpenSpiel state.clone(), heads-up", "us/clone", 1e6 / w, 1e6 / c))
        w, c, _ = _best(run_openspiel_tensors, states, 10)
        rows.append(("OpenSpiel information_state_tensor, heads-up", "us/tensor", 1e6 / w, 1e6 / c))
        w, c, _ = _best(run_mccfr, 20)
        rows.append(("OpenSpiel Python ES-MCCFR, reduced game", "iterations/s", w, c))
        w, c, _ = _best(run_mccfr_cpp, 20)
        rows.append(("OpenSpiel C++ ES-MCCFR, reduced game", "iterations/s", w, c))
        w, c, _ = _best(run_rl_environment, 2, 5000)
        rows.append(("OpenSpiel rl_environment, heads-up", "steps/s", w, c))
    except ImportError:  # pragma: no cover - without open-spiel
        pass
    for name, unit, wall, cpu in rows:
        digits = 1 if unit.startswith("us/") else 0
        print(f"{name:48s} {wall:>10,.{digits}f} {unit} wall {cpu:>10,.{digits}f} {unit} CPU")


if __name__ == "__main__":
    main()
