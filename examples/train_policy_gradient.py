"""A small policy-gradient agent trained by self-play on the batched environment, then
scored against every package bot on the scoreboard (:func:`triple_draw.evaluation.match`).

The policy is a linear softmax over the legal actions of the observation vector
(:mod:`triple_draw.envs.encoding`), trained with REINFORCE: after each hand, every decision
of a seat is pushed toward or away from its action in proportion to the chips that seat
won or lost. One policy plays both seats (self-play); nothing about poker is built in.

    python examples/train_policy_gradient.py                 # a few minutes
    python examples/train_policy_gradient.py --hands 20000 --eval-hands 2000

It prints, in big blinds per 100 hands with 95% confidence intervals on duplicate deals,
the trained policy, the untrained (uniform) policy and a constant policy that always bets
or raises and never draws, each against ``RandomBot``, ``CallingStationBot``,
``HeuristicBot`` and ``EquityBot``. Only numpy is needed.

What it shows: the example runs end to end (the batched environment, the encoding, a
policy trained on it and scored through :class:`~triple_draw.evaluation.PolicyBot`), and
training moves the policy far from uniform play. What it does not show: that the policy
learned poker. Beating ``RandomBot`` is no evidence - the constant always-raise policy
beats it by more - and the trained policy loses to the bots that play sensibly
(docs/simulation.md, *The scoreboard*, has the figures).
"""

from __future__ import annotations

import argparse
import math
import time
from dataclasses import dataclass, field

import numpy as np

from triple_draw.bots import RandomBot
from triple_draw.envs import encoding
from triple_draw.evaluation import PolicyBot, match
from triple_draw.envs.vector import TripleDrawVectorEnv
from triple_draw.game import Rules

STACK = 100
RULES = Rules()
BB = RULES.big_blind


@dataclass
class Policy:
    """Linear softmax policy: logits = obs @ w + b over the 35 actions, illegal ones
    masked out."""

    size: int
    w: np.ndarray = field(init=False)
    b: np.ndarray = field(init=False)

    def __post_init__(self) -> None:
        self.w = np.zeros((self.size, encoding.N_ACTIONS), dtype=np.float64)
        self.b = np.zeros(encoding.N_ACTIONS, dtype=np.float64)

    def probs(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        logits = obs @ self.w + self.b
        logits = np.where(mask != 0, logits, -np.inf)
        logits -= logits.max(axis=1, keepdims=True)
        p = np.exp(logits)
        return p / p.sum(axis=1, keepdims=True)  # type: ignore[no-any-return]

    def act(self, obs: np.ndarray, mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        cum = self.probs(obs, mask).cumsum(axis=1)
        u = rng.random((len(cum), 1)) * cum[:, -1:]
        return (cum < u).sum(axis=1)  # the first action whose cumulative p reaches u


class Adam:
    def __init__(self, shapes: list[tuple[int, ...]], lr: float) -> None:
        self.lr = lr
        self.m = [np.zeros(s) for s in shapes]
        self.v = [np.zeros(s) for s in shapes]
        self.t = 0

    def step(self, params: list[np.ndarray], grads: list[np.ndarray]) -> None:
        self.t += 1
        for p, g, m, v in zip(params, grads, self.m, self.v, strict=True):
            m *= 0.9
            m += 0.1 * g
            v *= 0.999
            v += 0.001 * g * g
            mh = m / (1 - 0.9**self.t)
            vh = v / (1 - 0.999**self.t)
            p += self.lr * mh / (np.sqrt(vh) + 1e-8)  # ascent: maximise the return


def train(
    hands: int, num_envs: int = 256, lr: float = 0.01, seed: int = 0, log: bool = True
) -> Policy:
    """Self-play REINFORCE for about ``hands`` hands."""
    env = TripleDrawVectorEnv(
        num_envs=num_envs, num_players=2, stacks=STACK, rules=RULES,
        reward_scale=float(BB), autoreset_mode="same_step",
    )  # fmt: skip
    policy = Policy(env.obs_size)
    opt = Adam([policy.w.shape, policy.b.shape], lr)
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    # the decisions of the hands in progress: per slot, (obs, mask, action, seat) rows
    pending: list[list[tuple[np.ndarray, np.ndarray, int, int]]] = [[] for _ in range(num_envs)]
    done_rows: list[tuple[np.ndarray, np.ndarray, int, float]] = []
    played = 0
    baseline_scale = 1.0
    t0 = time.perf_counter()
    while played < hands:
        mask = info["action_mask"]
        actions = policy.act(obs, mask, rng)
        seats = info["seat"]
        for i in range(num_envs):
            pending[i].append((obs[i], mask[i], int(actions[i]), int(seats[i])))
        obs, rewards, term, _trunc, info = env.step(actions)
        for i in np.flatnonzero(term):
            for o, m, a, s in pending[i]:
                done_rows.append((o, m, a, float(rewards[i, s])))
            pending[i] = []
            played += 1
        if len(done_rows) >= 4096:
            o = np.stack([r[0] for r in done_rows])
            m = np.stack([r[1] for r in done_rows])
            a = np.array([r[2] for r in done_rows])
            ret = np.array([r[3] for r in done_rows])
            done_rows = []
            baseline_scale = 0.99 * baseline_scale + 0.01 * float(np.abs(ret).mean() + 1e-6)
            adv = ret / baseline_scale
            p = policy.probs(o, m)
            g = -p
            g[np.arange(len(a)), a] += 1.0
            g *= adv[:, None] / len(a)
            opt.step([policy.w, policy.b], [o.T @ g, g.sum(axis=0)])
    if log:
        print(f"trained on {played} hands in {time.perf_counter() - t0:.1f} s")
    return policy


def evaluate(policy: Policy, hands: int, num_envs: int = 256, seed: int = 1) -> tuple[float, float]:
    """Mean and standard error (bb/hand) of the policy against ``RandomBot``, playing each
    seat in turn (the policy is seat 0 in even slots, seat 1 in odd ones)."""
    env = TripleDrawVectorEnv(
        num_envs=num_envs, num_players=2, stacks=STACK, rules=RULES,
        reward_scale=float(BB), autoreset_mode="same_step",
    )  # fmt: skip
    rng = np.random.default_rng(seed)
    bots = [RandomBot(seed=seed * 1000 + i) for i in range(num_envs)]
    obs, info = env.reset(seed=seed + 10_000)
    me = np.arange(num_envs) % 2
    results: list[float] = []
    while len(results) < hands:
        actions = policy.act(obs, info["action_mask"], rng)
        for i in np.flatnonzero(info["seat"] != me):
            h = env.hands[i]
            actions[i] = encoding.from_action(h, bots[i].act(h.view(h.actor)))
        obs, rewards, term, _trunc, info = env.step(actions)
        for i in np.flatnonzero(term):
            results.append(float(rewards[i, me[i]]))
    r = np.array(results[:hands])
    return float(r.mean()), float(r.std(ddof=1) / math.sqrt(len(r)))


def as_bot(policy: Policy, name: str, seed: int) -> PolicyBot:
    """The policy as a bot for the scoreboard (it samples its actions, seeded)."""
    rng = np.random.default_rng(seed)

    def choose(obs: np.ndarray, mask: np.ndarray) -> int:
        return int(policy.act(obs[None, :], mask[None, :], rng)[0])

    return PolicyBot(choose, name=name)


def always_raise(obs: np.ndarray, mask: np.ndarray) -> int:
    """Bet or raise whenever allowed, else check or call; never draw (stand pat)."""
    if mask[encoding.BET_RAISE]:
        return encoding.BET_RAISE
    return encoding.DISCARD_OFFSET if mask[encoding.DISCARD_OFFSET] else encoding.CHECK_CALL


OPPONENTS = ("random", "call", "heuristic", "equity")


def scoreboard(players: list[PolicyBot], hands: int, seed: int) -> None:
    """Each player against every package bot, on the same duplicate deals."""
    print(f"bb/100 with 95% CI, {hands} hands a match on duplicate deals (seed {seed})")
    print(f"{'':>14}" + "".join(f"{o:>20}" for o in OPPONENTS))
    for p in players:
        cells = []
        for o in OPPONENTS:
            e = match([p, o], hands, seed=seed)[0]
            cells.append(f"{e.bb_per_100:+8.1f} ± {e.ci95_half_width:5.1f}")
        print(f"{p.name:>14}" + "".join(f"{c:>20}" for c in cells), flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=30_000, help="training hands")
    ap.add_argument("--eval-hands", type=int, default=4_000, help="hands per scoreboard match")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    untrained = Policy(encoding.observation_size(2))
    mean, se = evaluate(untrained, args.eval_hands, seed=args.seed + 1)
    print(f"untrained (uniform) vs RandomBot: {mean:+.2f} +- {1.96 * se:.2f} bb/hand")
    policy = train(args.hands, seed=args.seed)
    mean, se = evaluate(policy, args.eval_hands, seed=args.seed + 1)
    print(f"trained vs RandomBot:             {mean:+.2f} +- {1.96 * se:.2f} bb/hand")
    print()
    scoreboard(
        [
            as_bot(policy, "trained", args.seed),
            as_bot(untrained, "uniform", args.seed),
            PolicyBot(always_raise, name="always-raise"),
        ],
        args.eval_hands,
        args.seed + 2,
    )


if __name__ == "__main__":
    main()
