"""PettingZoo AEC environment: one hand of Deuce-to-Seven Triple Draw per episode.

>>> from triple_draw.envs import triple_draw_v0
>>> env = triple_draw_v0.env(num_players=3)
>>> env.reset(seed=7)
>>> for agent in env.agent_iter():
...     obs, reward, termination, truncation, info = env.last()
...     done = termination or truncation
...     env.step(None if done else env.action_space(agent).sample(obs["action_mask"]))

- Agents ``player_0`` ... ``player_{n-1}``: agent ``player_i`` plays seat ``i``.
- Games: the real game (default), or any member of the family of reduced games
  (docs/rules.md, *Reduced games*), with the OpenSpiel game's parameters: ``variant=``
  (``"tiny"``, ``"small"``, ``"medium"``, ``"full"``) or ``rules=Rules(deck_ranks=...,
  deck_suits=..., hand_size=..., draws=...)``; the spaces take the member's sizes
  (:class:`~triple_draw.envs.encoding.Layout`).
- Actions: ``Discrete(35)`` (see :mod:`triple_draw.envs.encoding`): 0 fold, 1 check/call,
  2 bet/raise, 3 + m the 32 discards (bit i of m throws the i-th lowest card by id); a
  reduced game: ``Discrete(3 + 2 ** hand_size)``. ``obs["action_mask"]`` marks the
  legal ones (all zero for an agent not to act).
- Observations: ``{"observation": float32 vector, "action_mask": int8 vector}``; the
  vector (:mod:`triple_draw.envs.encoding`) holds only what that seat may know: what
  ``hand.view(seat)`` shows plus the seat's own discards.
- Rewards: at the end of the hand, each agent gets the chips it won or lost
  (``hand.result.net``), divided by ``reward_scale``; 0 before.
- ``reset(seed=...)`` seeds the deck (and the button, unless fixed); ``reset()`` continues
  the seeded stream, so a seeded sequence of episodes replays exactly.
- ``state()`` (float32, ``state_space``: ``Box(0, 1, (104 * n + observation size,))``) is
  the full state for a centralised critic, and it is **privileged**: every seat's cards.
  Layout: for each seat 0..n-1 a 52-card one-hot of the cards it holds (a folded seat:
  the cards it folded), then for each seat the 52 cards it has thrown, then the
  observation of seat 0 (the public state: chips, bets, folds, draws, button, actor).
  In a reduced game of ``D`` cards each one-hot has ``D`` entries (by index in the deck):
  ``2 * D * n + observation size``. Train a critic on it; never let a policy that acts
  read it.

``env()`` wraps ``raw_env`` the PettingZoo way: an illegal action ends the episode with
``illegal_reward`` for the offender (TerminateIllegalWrapper), an out-of-range action
raises :class:`~triple_draw.errors.IllegalActionError`, and the API order is enforced.
``raw_env`` raises :class:`~triple_draw.errors.IllegalActionError` (a ``ValueError``)
for an illegal or out-of-range action and leaves the hand as it was.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np

from triple_draw.errors import MissingExtraError

try:
    from gymnasium import spaces
    from gymnasium.utils import EzPickle, seeding
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ModuleNotFoundError as e:  # pragma: no cover - only without the extra
    raise MissingExtraError(
        "triple_draw.envs needs pettingzoo and gymnasium: pip install 'triple_draw[pettingzoo]'"
    ) from e

from triple_draw.envs.encoding import env_rules, layout_of, render_as
from triple_draw.errors import ArgumentError, IllegalActionError
from triple_draw.game.cards import CARD_TEXT
from triple_draw.game.hand import Hand
from triple_draw.game.rules import MAX_PLAYERS, Rules

__all__ = ["env", "raw_env"]


def env(illegal_reward: float = -1.0, **kwargs: Any) -> Any:
    """The wrapped environment (see the module docs); ``kwargs`` go to :class:`raw_env`."""
    e: Any = raw_env(**kwargs)
    e = _TerminateIllegal(e, illegal_reward=illegal_reward)
    e = _AssertOutOfBounds(e)
    e = _OrderEnforcing(e)
    return e


class _Forward:
    """Reads the attributes the AEC loop touches on every step (``last()``,
    ``agent_iter()``, the wrappers' own ``step``) straight from the wrapped env: PettingZoo's
    wrappers find them through ``__getattr__``, a string check and ``getattr`` per wrapper
    level, which cost more than the hand itself. Same values, same behaviour."""

    env: Any

    @property
    def agent_selection(self) -> Any:
        return self.env.agent_selection

    @property
    def rewards(self) -> Any:
        return self.env.rewards

    @property
    def _cumulative_rewards(self) -> Any:
        return self.env._cumulative_rewards

    @property
    def terminations(self) -> Any:
        return self.env.terminations

    @property
    def truncations(self) -> Any:
        return self.env.truncations

    @property
    def infos(self) -> Any:
        return self.env.infos

    @property
    def agents(self) -> Any:
        return self.env.agents


class _TerminateIllegal(_Forward, wrappers.TerminateIllegalWrapper):  # type: ignore[misc]
    pass


class _AssertOutOfBounds(_Forward, wrappers.AssertOutOfBoundsWrapper):  # type: ignore[misc]
    """PettingZoo's out-of-bounds check, raising the package's error: an action outside
    ``Discrete(35)``, a bool, or ``None`` for an agent still to act raises
    :class:`IllegalActionError` and changes nothing."""

    def __init__(self, env: Any) -> None:
        super().__init__(env)
        #: the size of the action space (35; a reduced game: ``3 + 2 ** hand_size``)
        self._n_actions: int = env.unwrapped.n_actions

    def step(self, action: Any) -> None:
        k = self._n_actions
        if isinstance(action, (bool, np.bool_)):
            # a bool passes Discrete.contains (it is an int) and then indexes the action
            # mask as a boolean array: refuse it here, with the package's error
            raise IllegalActionError(
                f"action {action!r} of {self.agent_selection} is a bool, not an action: "
                f"use an int 0..{k - 1} (Discrete({k}))"
            )
        if not (type(action) is int and 0 <= action < k):
            agent = self.agent_selection
            dead = self.terminations[agent] or self.truncations[agent]
            if not ((action is None and dead) or self.action_space(agent).contains(action)):
                raise IllegalActionError(
                    f"action {action!r} of {agent} is not in the action space Discrete({k})"
                )
        self.env.step(action)


class _OrderEnforcing(wrappers.OrderEnforcingWrapper):  # type: ignore[misc]
    """PettingZoo's order enforcing, with the hot attributes read directly once the env
    has been reset (before that, its ``__getattr__`` raises as usual)."""

    @property
    def agent_selection(self) -> Any:
        if self._has_reset:
            return self.env.agent_selection
        raise AttributeError("agent_selection cannot be accessed before reset")

    @property
    def rewards(self) -> Any:
        if self._has_reset:
            return self.env.rewards
        raise AttributeError("rewards cannot be accessed before reset")

    @property
    def terminations(self) -> Any:
        if self._has_reset:
            return self.env.terminations
        raise AttributeError("terminations cannot be accessed before reset")

    @property
    def truncations(self) -> Any:
        if self._has_reset:
            return self.env.truncations
        raise AttributeError("truncations cannot be accessed before reset")

    @property
    def infos(self) -> Any:
        if self._has_reset:
            return self.env.infos
        raise AttributeError("infos cannot be accessed before reset")

    @property
    def agents(self) -> Any:
        if self._has_reset:
            return self.env.agents
        raise AttributeError("agents cannot be accessed before reset")

    @property
    def _cumulative_rewards(self) -> Any:
        return self.env._cumulative_rewards


class raw_env(AECEnv, EzPickle):  # type: ignore[misc]  # noqa: N801 - PettingZoo's naming
    """``raw_env(num_players=2, stacks=100, rules=None, button=None, reward_scale=1.0,
    render_mode=None, core=None, variant=None, deck_ranks=None, deck_suits=None,
    hand_size=None, draws=None)``

    - ``stacks``: every seat's stack at the start of each hand (an int, or one per seat).
    - ``rules``: a :class:`Rules` (default ``Rules()``: blinds 1/2, limits 2/4), of the
      real game or of any reduced game; ``variant``: the name of a member of the family
      (:meth:`Rules.variant <triple_draw.Rules.variant>`), as the OpenSpiel game takes it.
      Given both, the rules must be of the variant's member
      (:func:`~triple_draw.envs.encoding.env_rules`).
    - ``deck_ranks``, ``deck_suits``, ``hand_size``, ``draws`` (``None``: not given): each
      one given overrides the rules' or the variant's value, as the OpenSpiel game's
      parameters of those names do.
    - ``button``: the button's seat, or ``None`` for a seat drawn from the seeded stream.
    - ``render_mode``: ``None``, ``"human"`` (print) or ``"ansi"`` (return the text).
    """

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["human", "ansi"],
        "name": "triple_draw_v0",
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self,
        num_players: int = 2,
        stacks: int | Sequence[int] = 100,
        rules: Rules | None = None,
        button: int | None = None,
        reward_scale: float = 1.0,
        render_mode: str | None = None,
        core: Any = None,
        variant: str | None = None,
        deck_ranks: int | None = None,
        deck_suits: int | None = None,
        hand_size: int | None = None,
        draws: int | None = None,
    ) -> None:
        EzPickle.__init__(
            self, num_players, stacks, rules, button, reward_scale, render_mode, core, variant,
            deck_ranks, deck_suits, hand_size, draws,
        )  # fmt: skip
        super().__init__()
        if type(num_players) is not int or not 2 <= num_players <= MAX_PLAYERS:
            raise ArgumentError(f"num_players must be 2..{MAX_PLAYERS}, got {num_players!r}")
        # (None: Rules(max_players=max(6, num_players)), or the variant's member; else
        # rules that seat them all, and a deck that serves them)
        fields = dict(
            deck_ranks=deck_ranks, deck_suits=deck_suits, hand_size=hand_size, draws=draws
        )  # (the OpenSpiel game's parameters of these names)
        rules = env_rules(num_players, rules, variant, "the PettingZoo environment", fields)
        st = [stacks] * num_players if isinstance(stacks, int) else list(stacks)
        if len(st) != num_players or any(type(x) is not int or x <= 0 for x in st):
            raise ArgumentError(
                f"stacks must be an int > 0 or {num_players} of them, got {stacks!r}"
            )
        if button is not None and (type(button) is not int or not 0 <= button < num_players):
            raise ArgumentError(
                f"button must be a seat 0..{num_players - 1} or None, got {button!r}"
            )
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ArgumentError(
                f"render_mode must be one of {self.metadata['render_modes']} or None"
            )
        if not reward_scale > 0:
            raise ArgumentError(f"reward_scale must be > 0, got {reward_scale!r}")
        self.rules = rules
        self.n = num_players
        self.stacks = st
        self.fixed_button = button
        self.reward_scale = float(reward_scale)
        self.render_mode = render_mode
        self._core = core
        self._total = sum(st)
        self._scale = 1.0 / self._total
        #: the layout of the observations and actions (the real game's, or the member's)
        self.layout = lay = layout_of(rules)
        #: the number of actions (35 in the real game, ``3 + 2 ** hand_size``)
        self.n_actions = lay.n_actions
        self._size = size = lay.observation_size(num_players)
        self._features = lay.features
        self._discards: list[list[int]] = [[] for _ in range(num_players)]
        self.possible_agents = [f"player_{i}" for i in range(num_players)]
        self.agents = self.possible_agents[:]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(low=0.0, high=1.0, shape=(size,), dtype=np.float32),
                    "action_mask": spaces.Box(
                        low=0, high=1, shape=(self.n_actions,), dtype=np.int8
                    ),
                }
            )
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(self.n_actions) for a in self.possible_agents}
        #: the space of :meth:`state` (privileged: every seat's cards)
        self.state_space = spaces.Box(
            low=0.0, high=1.0, shape=(2 * lay.deck_size * num_players + size,), dtype=np.float32
        )
        self.np_random: np.random.Generator | None = None
        self.hand: Hand | None = None
        self.hand_args: tuple[int, int] | None = None
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.agents[0]

    # -- spaces ------------------------------------------------------------------------------

    def observation_space(self, agent: str) -> Any:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        return self.action_spaces[agent]

    # -- episode -----------------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None or self.np_random is None:
            self.np_random, _ = seeding.np_random(seed)
        rng = self.np_random
        button = self.fixed_button if self.fixed_button is not None else int(rng.integers(self.n))
        deck_seed = int(rng.integers(0, 2**63))
        #: ``(button, deck_seed)`` of the current hand: ``Hand(rules, stacks, *hand_args)``
        #: deals it again
        self.hand_args = (button, deck_seed)
        self.hand = Hand(self.rules, self.stacks, button, deck_seed, core=self._core)
        self._discards = [[] for _ in range(self.n)]
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._skip_agent_selection = None
        self._settle()
        if self.render_mode == "human":
            self.render()

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        hand = self._hand()
        if action is None:
            raise IllegalActionError(
                f"{agent} is to act: None is only for agents whose episode is over"
            )
        seat = hand.actor
        thrown = self.layout.apply(hand, action)  # IllegalActionError before anything changes
        if thrown is not None:
            self._discards[seat].extend(thrown)
        self._cumulative_rewards[agent] = 0.0
        for a in self.agents:
            self.rewards[a] = 0.0
        self._settle()
        if self.render_mode == "human":
            self.render()

    def _settle(self) -> None:
        """After a reset or an action: select the next actor, or pay out at the end."""
        hand = self._hand()
        actor = hand.actor
        if actor is None:
            res = hand.result
            assert res is not None
            for a in self.agents:
                r = res.net[self._seat[a]] / self.reward_scale
                self.rewards[a] = r
                self._cumulative_rewards[a] += r
                self.terminations[a] = True
        else:
            self.agent_selection = self.possible_agents[actor]

    def _hand(self) -> Hand:
        if self.hand is None:
            raise ArgumentError("call reset() first")
        return self.hand

    # -- observations ------------------------------------------------------------------------

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        hand = self._hand()
        seat = self._seat[agent]
        ones: list[int] = []
        vi: list[int] = []
        vv: list[float] = []
        # every seat's draw counts: the hand's public record
        self._features(ones, vi, vv, hand, seat, self._discards[seat], hand._draws, self._scale)
        obs = np.zeros(self._size, dtype=np.float32)
        obs[ones] = 1.0
        obs[vi] = vv
        if agent == self.agent_selection and hand.actor == seat:
            mask = self.layout.action_mask(hand)
        else:
            mask = np.zeros(self.n_actions, dtype=np.int8)
        return {"observation": obs, "action_mask": mask}

    def state(self) -> np.ndarray:
        """The full state, for a centralised critic: **privileged**, it holds every
        seat's cards (the layout is in the module docs)."""
        hand = self._hand()
        n = self.n
        d = self.layout.deck_size
        index = self.layout.index
        out = np.zeros(self.state_space.shape, dtype=np.float32)
        for s in range(n):
            out[d * s + np.array([index[c] for c in hand.hole_ids(s)], dtype=np.int64)] = 1.0
            thrown = self._discards[s]
            if thrown:
                out[d * (n + s) + np.array([index[c] for c in thrown], dtype=np.int64)] = 1.0
        out[2 * d * n :] = self.observe(self.possible_agents[0])["observation"]
        return out

    # -- rendering ---------------------------------------------------------------------------

    def render(self) -> str | None:
        return render_as(self.render_mode, self._text)

    def _text(self) -> str:
        hand = self.hand
        if hand is None:
            return "(no hand: call reset())"
        head = "over" if hand.is_over else f"{hand.phase} {hand.street + 1}"
        head += f", pot {hand.pot}"
        lines = [head]
        for s in range(self.n):
            mark = ">" if hand.actor == s else " "
            cards = " ".join(CARD_TEXT[c] for c in hand.hole_ids(s))
            if hand.folded[s]:
                state = "folded"
            else:
                state = "in" if hand.is_over else f"bet {hand.bets[s]}"
            button = " (button)" if s == hand.button else ""
            lines.append(f"{mark} player_{s}{button}: stack {hand.stacks[s]}, {state}, [{cards}]")
        if hand.is_over and hand.result is not None:
            lines.append(
                "net: " + ", ".join(f"player_{s} {x:+d}" for s, x in enumerate(hand.result.net))
            )
        return "\n".join(lines)

    def close(self) -> None:
        pass
