"""A single-agent Gymnasium environment: one learner seat against the package's bots.

Registered as ``triple_draw/TripleDraw-v0`` when :mod:`triple_draw.envs` is imported
(extra ``triple_draw[gymnasium]``)::

    import gymnasium as gym
    import triple_draw.envs  # registers triple_draw/TripleDraw-v0

    env = gym.make("triple_draw/TripleDraw-v0", num_players=3, opponents="heuristic")
    obs, info = env.reset(seed=1)
    mask = info["action_mask"]            # or env.unwrapped.action_masks()

One episode is one hand. The learner plays one seat; every other seat is played by a
bot (``opponents``). Between two decisions of the learner the bots play, so every
``step`` returns the learner's next decision, or the end of the hand.

- Games: the real game (default), or any member of the family of reduced games
  (docs/rules.md, *Reduced games*), with the OpenSpiel game's parameters: ``variant=``
  (``"tiny"``, ``"small"``, ``"medium"``, ``"full"``) or ``rules=Rules(deck_ranks=...,
  deck_suits=..., hand_size=..., draws=...)``.
- Actions: ``Discrete(35)`` as in every environment of the package
  (:mod:`triple_draw.envs.encoding`): 0 fold, 1 check/call, 2 bet/raise, 3 + m the 32
  discards (a reduced game: ``Discrete(3 + 2 ** hand_size)``).
  :meth:`TripleDrawEnv.action_masks` (what sb3-contrib's ``MaskablePPO`` calls) and
  ``info["action_mask"]`` give the legal ones.
- Observations: the learner seat's float32 vector of :func:`~triple_draw.envs.encoding.encode`
  (``Box(0, 1)``; a reduced game's: :meth:`~triple_draw.envs.encoding.Layout.encode`, the
  same layout with the member's sizes): what ``hand.view(seat)`` shows plus its own
  discards; never another seat's cards.
- Reward: 0 until the hand ends, then the learner's net chips divided by
  ``reward_scale``.
- Hands that end without a decision of the learner (everybody folds to its big blind)
  are not episodes: :meth:`~TripleDrawEnv.reset` plays them out and deals again, and
  reports them in ``info["skipped_hands"]`` and their chips (already divided by
  ``reward_scale``) in ``info["skipped_reward"]``; add that to the episode returns when
  measuring a win rate.
- An action outside the action space (a bool, a float, 35) raises
  :class:`~triple_draw.errors.IllegalActionError`. A legal-looking number that is not
  legal now ends the episode with reward ``illegal_reward`` and
  ``info["illegal_action"] = True`` (as the PettingZoo ``env()`` does; the hand is
  abandoned), or raises :class:`~triple_draw.errors.IllegalActionError` with
  ``illegal_reward=None``.

>>> env = TripleDrawEnv(num_players=2, opponents="call")
>>> obs, info = env.reset(seed=3)
>>> obs.shape, int(info["action_mask"].sum()) > 0
((223,), True)
>>> tiny = TripleDrawEnv(variant="tiny", opponents="random")
>>> obs, info = tiny.reset(seed=3)
>>> obs.shape, tiny.action_space
((45,), Discrete(5))
"""

from __future__ import annotations

import copy
from typing import Any

import numpy as np

from triple_draw.errors import MissingExtraError

try:
    import gymnasium
    from gymnasium import spaces
except ModuleNotFoundError as e:  # pragma: no cover - only without the extra
    raise MissingExtraError(
        "triple_draw.envs.gym_env needs gymnasium: pip install 'triple_draw[gymnasium]'"
    ) from e

from triple_draw.bots import Observation, as_action, decide_method, make_bot, require_plays
from triple_draw.envs.encoding import (
    default_opponent,
    env_rules,
    layout_of,
    opponent_specs,
    render_as,
)
from triple_draw.errors import ArgumentError, IllegalActionError
from triple_draw.game.cards import CARD_TEXT
from triple_draw.game.hand import Hand
from triple_draw.game.rules import MAX_PLAYERS, Rules
from triple_draw.simulation import _bot_label

__all__ = ["TripleDrawEnv", "ENV_ID"]

#: The id the environment is registered under.
ENV_ID = "triple_draw/TripleDraw-v0"
#: The most hands :meth:`TripleDrawEnv.reset` deals looking for a decision of the learner.
_MAX_SKIPS = 10_000


class TripleDrawEnv(gymnasium.Env[np.ndarray, np.int64]):
    """``TripleDrawEnv(num_players=2, opponents=None, rules=None, seat=None,
    stacks=100, button=None, reward_scale=1.0, illegal_reward=-1.0, render_mode=None,
    core=None, variant=None, deck_ranks=None, deck_suits=None, hand_size=None, draws=None)``

    - ``num_players``: 2 to 8 (the rules get room for them; a reduced game's deck serves
      ``deck_ranks * deck_suits // hand_size - 1`` at most).
    - ``opponents``: one bot for every other seat, or a list of ``num_players - 1``:
      names for :func:`~triple_draw.bots.make_bot` (``"heuristic"``, ``"random"``,
      ``"call"``, ``"equity"``, ``"module:Class"``) or bot objects (copied per seat).
      ``opponents[i]`` sits ``i + 1`` seats after the learner, wherever the learner sits.
      They are reseeded from the environment's seeded stream at every reset. Default
      (``None``): ``"heuristic"``, or ``"call"`` in a reduced game of fewer than five
      cards in hand, which the heuristic bot cannot play: a bot that cannot play the
      game is refused here (:class:`~triple_draw.errors.ReducedGameError`,
      :func:`~triple_draw.bots.plays_rules`), not in the middle of a hand.
    - ``seat``: the learner's seat, or ``None`` (default) to move it one seat on every
      hand (it starts at a seat drawn from the seeded stream).
    - ``stacks``: every seat's stack at the start of each hand; ``button``: a fixed
      button, or ``None`` for one drawn from the seeded stream each hand.
    - ``rules``: a :class:`~triple_draw.Rules` (default ``Rules()``, 1/2 blinds, 2/4),
      of the real game or of any reduced game; ``variant``: the name of a member of the
      family (:meth:`Rules.variant <triple_draw.Rules.variant>`), as the OpenSpiel game
      takes it. Given both, the rules must be of the variant's member
      (:func:`~triple_draw.envs.encoding.env_rules`).
    - ``deck_ranks``, ``deck_suits``, ``hand_size``, ``draws`` (``None``: not given): each
      one given overrides the rules' or the variant's value, as the OpenSpiel game's
      parameters of those names do.
    """

    metadata: dict[str, Any] = {"render_modes": ["human", "ansi"], "render_fps": 1}  # noqa: RUF012

    def __init__(
        self,
        num_players: int = 2,
        opponents: Any = None,
        rules: Rules | None = None,
        seat: int | None = None,
        stacks: int = 100,
        button: int | None = None,
        reward_scale: float = 1.0,
        illegal_reward: float | None = -1.0,
        render_mode: str | None = None,
        core: Any = None,
        variant: str | None = None,
        deck_ranks: int | None = None,
        deck_suits: int | None = None,
        hand_size: int | None = None,
        draws: int | None = None,
    ) -> None:
        if type(num_players) is not int or not 2 <= num_players <= MAX_PLAYERS:
            raise ArgumentError(f"num_players must be an int 2..{MAX_PLAYERS}, got {num_players!r}")
        n = num_players
        fields = dict(
            deck_ranks=deck_ranks, deck_suits=deck_suits, hand_size=hand_size, draws=draws
        )  # (the OpenSpiel game's parameters of these names)
        rules = env_rules(n, rules, variant, "TripleDrawEnv", fields)
        if seat is not None and (type(seat) is not int or not 0 <= seat < n):
            raise ArgumentError(f"seat must be a seat 0..{n - 1} or None, got {seat!r}")
        if button is not None and (type(button) is not int or not 0 <= button < n):
            raise ArgumentError(f"button must be a seat 0..{n - 1} or None, got {button!r}")
        if type(stacks) is not int or stacks < 1:
            raise ArgumentError(f"stacks must be an int >= 1, got {stacks!r}")
        if (
            isinstance(reward_scale, bool)
            or not isinstance(reward_scale, (int, float))
            or not (reward_scale > 0)
        ):
            raise ArgumentError(f"reward_scale must be a number > 0, got {reward_scale!r}")
        if illegal_reward is not None and (
            isinstance(illegal_reward, bool) or not isinstance(illegal_reward, (int, float))
        ):
            raise ArgumentError(f"illegal_reward must be a number or None, got {illegal_reward!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ArgumentError(f"render_mode must be 'human', 'ansi' or None, got {render_mode!r}")
        if opponents is None:
            opponents = default_opponent(rules)
        bots = [make_bot(s, core=core) for s in opponent_specs(opponents, n)]
        for b in bots:
            require_plays(b, rules, "TripleDrawEnv")
        self.opponents = [
            copy.deepcopy(b) if any(b is c for c in bots[:i]) else b for i, b in enumerate(bots)
        ]
        self.num_players = n
        self.rules = rules
        self.fixed_seat = seat
        self.stacks = stacks
        self.fixed_button = button
        self.reward_scale = float(reward_scale)
        self.illegal_reward = None if illegal_reward is None else float(illegal_reward)
        self.render_mode = render_mode
        self._core = core
        #: the layout of the observations and actions (the real game's, or the member's)
        self.layout = layout_of(rules)
        self._n_actions = self.layout.n_actions
        self.observation_space = spaces.Box(
            low=0.0, high=1.0, shape=(self.layout.observation_size(n),), dtype=np.float32
        )
        self.action_space = spaces.Discrete(self._n_actions)
        self.hand: Hand | None = None
        #: the learner's seat in the current hand
        self.seat = 0 if seat is None else seat
        self._next_seat: int | None = None
        self._over = True

    # -- the hand ----------------------------------------------------------------------------

    def _deal(self) -> Hand:
        rng = self.np_random
        n = self.num_players
        if self.fixed_seat is not None:
            self.seat = self.fixed_seat
        else:
            if self._next_seat is None:
                self._next_seat = int(rng.integers(n))
            self.seat = self._next_seat
            self._next_seat = (self.seat + 1) % n
        button = self.fixed_button if self.fixed_button is not None else int(rng.integers(n))
        for b in self.opponents:
            reseed = getattr(b, "reseed", None)
            if callable(reseed):
                reseed(int(rng.integers(0, 2**63)))
        deck_seed = int(rng.integers(0, 2**63))
        return Hand(self.rules, [self.stacks] * n, button, deck_seed, core=self._core)

    def _bot_of(self, seat: int) -> Any:
        return self.opponents[(seat - self.seat) % self.num_players - 1]

    def _play_bots(self, hand: Hand) -> None:
        """Let the bots act until it is the learner's turn or the hand is over."""
        while True:
            a = hand.actor
            if a is None or a == self.seat:
                return
            bot = self._bot_of(a)
            decide = decide_method(bot)
            view = hand.view(a)
            act = as_action(decide(Observation.from_view(view)) if decide else bot.act(view))
            try:
                hand.apply(act)
            except IllegalActionError as e:
                raise IllegalActionError(
                    f"bot {_bot_label(bot)} in seat {a} chose {act}: {e}"
                ) from None

    def _obs(self) -> np.ndarray:
        assert self.hand is not None
        return self.layout.encode(self.hand, self.seat)

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions as a bool vector of 35 (a reduced game: of
        ``3 + 2 ** hand_size``; all False once the hand is over): what sb3-contrib's
        ``MaskablePPO`` asks for."""
        if self.hand is None or self._over:
            return np.zeros(self._n_actions, dtype=bool)
        return self.layout.action_mask(self.hand).astype(bool)

    def _info(self, **extra: Any) -> dict[str, Any]:
        return {"action_mask": self.action_masks().astype(np.int8), "seat": self.seat, **extra}

    # -- the Gymnasium API ----------------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self._next_seat = None
        skipped = 0
        skipped_reward = 0.0
        while True:
            hand = self._deal()
            self._play_bots(hand)
            if hand.actor == self.seat:
                break
            res = hand.result
            assert res is not None
            skipped += 1
            skipped_reward += res.net[self.seat] / self.reward_scale
            if skipped >= _MAX_SKIPS:  # pragma: no cover - bots that never let it act
                raise ArgumentError(
                    f"{_MAX_SKIPS} hands in a row ended before the learner's first decision"
                )
        self.hand = hand
        self._over = False
        if self.render_mode == "human":
            self.render()
        return self._obs(), self._info(skipped_hands=skipped, skipped_reward=skipped_reward)

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        hand = self.hand
        if hand is None or self._over:
            raise IllegalActionError("the hand is over: call reset()")
        k = self._n_actions
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            raise IllegalActionError(
                f"an action is an int 0..{k - 1} (Discrete({k})), got {action!r}"
            )
        if not 0 <= action < k:
            raise IllegalActionError(f"action must be 0..{k - 1}, got {action!r}")
        mask = self.layout.action_mask(hand)
        if not mask[action]:
            penalty = self.illegal_reward
            if penalty is None:
                legal = np.flatnonzero(mask).tolist()
                raise IllegalActionError(
                    f"illegal action {int(action)} for the learner (seat {self.seat}); "
                    f"legal: {legal}"
                )
            self._over = True
            return self._obs(), penalty, True, False, self._info(illegal_action=True)
        self.layout.apply(hand, action)
        self._play_bots(hand)
        reward = 0.0
        if hand.actor is None:
            self._over = True
            res = hand.result
            assert res is not None
            reward = res.net[self.seat] / self.reward_scale
        if self.render_mode == "human":
            self.render()
        return self._obs(), reward, self._over, False, self._info()

    def render(self) -> str | None:
        return render_as(self.render_mode, self._text)

    def _text(self) -> str:
        hand = self.hand
        if hand is None:
            return "(no hand: call reset())"
        head = "over" if hand.is_over else f"{hand.phase} {hand.street + 1}"
        lines = [f"{head}, pot {hand.pot}"]
        for s in range(self.num_players):
            mark = ">" if hand.actor == s else " "
            who = "learner" if s == self.seat else _bot_label(self._bot_of(s))
            cards = " ".join(CARD_TEXT[c] for c in hand.hole_ids(s)) if s == self.seat else "*"
            state = "folded" if hand.folded[s] else f"stack {hand.stacks[s]}"
            button = " (button)" if s == hand.button else ""
            lines.append(f"{mark} seat {s} {who}{button}: {state} [{cards}]")
        if hand.is_over and hand.result is not None:
            lines.append(f"learner net {hand.result.net[self.seat]:+d}")
        return "\n".join(lines)
