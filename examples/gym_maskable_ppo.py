"""MaskablePPO on ``triple_draw/TripleDraw-v0``, then the trained model on the scoreboard.

The single-agent environment (:mod:`triple_draw.envs.gym_env`) has ``action_masks()``, so
sb3-contrib's ``MaskablePPO`` takes it as it is - no wrapper::

    pip install sb3-contrib          # brings PyTorch; triple_draw does not depend on it
    python examples/gym_maskable_ppo.py --steps 200000 --opponent heuristic

Without sb3-contrib, ``--random`` runs the same loop with a masked uniform-random policy
(a CleanRL-style rollout: arrays of observations, masks, actions, rewards and dones,
where ``reset``'s ``info["skipped_reward"]`` - the chips of hands that ended before the
learner acted - is added to the return), and scores it the same way.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

import gymnasium as gym
import numpy as np

import triple_draw.envs  # noqa: F401 - registers triple_draw/TripleDraw-v0
from triple_draw.evaluation import PolicyBot, match

OPPONENTS = ("random", "call", "heuristic", "equity")


def make_env(opponent: str) -> Any:
    """Heads-up against ``opponent``, rewards in big blinds (the blinds are 1/2)."""
    return gym.make(
        "triple_draw/TripleDraw-v0", num_players=2, opponents=opponent, reward_scale=2.0
    )


def rollout(
    env: Any, choose: Callable[[np.ndarray, np.ndarray], int], steps: int, seed: int
) -> dict[str, np.ndarray]:
    """``steps`` decisions of ``choose(obs, mask)`` as arrays (what a PPO update eats),
    plus the return of every finished hand (skipped hands' chips included)."""
    obs, info = env.reset(seed=seed)
    ret = float(info["skipped_reward"])
    out: dict[str, list[Any]] = {k: [] for k in ("obs", "mask", "action", "reward", "done")}
    returns: list[float] = []
    for _ in range(steps):
        mask = env.unwrapped.action_masks()
        a = choose(obs, mask)
        out["obs"].append(obs)
        out["mask"].append(mask)
        out["action"].append(a)
        obs, r, done, trunc, info = env.step(a)
        out["reward"].append(r)
        out["done"].append(done or trunc)
        ret += r
        if done or trunc:
            returns.append(ret)
            obs, info = env.reset()
            ret = float(info["skipped_reward"])
    arrays = {k: np.asarray(v) for k, v in out.items()}
    arrays["returns"] = np.asarray(returns)
    return arrays


def model_bot(model: Any, name: str) -> PolicyBot:
    """A model with SB3's ``predict(obs, action_masks=..., deterministic=...)`` as a bot
    for :func:`triple_draw.evaluation.match`."""

    def choose(obs: np.ndarray, mask: np.ndarray) -> int:
        action, _ = model.predict(obs, action_masks=mask.astype(bool), deterministic=True)
        return int(action)

    return PolicyBot(choose, name=name)


def masked_random(seed: int) -> Callable[[np.ndarray, np.ndarray], int]:
    rng = np.random.default_rng(seed)
    return lambda obs, mask: int(rng.choice(np.flatnonzero(mask)))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--steps", type=int, default=100_000, help="training steps (decisions)")
    ap.add_argument("--opponent", default="heuristic", choices=OPPONENTS)
    ap.add_argument("--eval-hands", type=int, default=2_000, help="hands per scoreboard match")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--random", action="store_true", help="a masked random policy, no training")
    args = ap.parse_args()
    env = make_env(args.opponent)
    if args.random:
        choose = masked_random(args.seed)
        data = rollout(env, choose, args.steps, args.seed)
        r = data["returns"]
        print(f"{len(r)} hands, {r.mean():+.3f} bb/hand against {args.opponent}")
        bot = PolicyBot(choose, name="masked-random")
    else:
        try:
            from sb3_contrib import MaskablePPO
        except ModuleNotFoundError:
            raise SystemExit(
                "this example trains with sb3-contrib: pip install sb3-contrib (or run --random)"
            ) from None
        model = MaskablePPO("MlpPolicy", env, seed=args.seed, verbose=1)
        model.learn(total_timesteps=args.steps)
        bot = model_bot(model, "maskable-ppo")
    for o in OPPONENTS:
        e = match([bot, o], args.eval_hands, seed=args.seed + 1)[0]
        print(f"{bot.name} vs {o:>9}: {e.bb_per_100:+8.1f} ± {e.ci95_half_width:.1f} bb/100")


if __name__ == "__main__":
    main()
