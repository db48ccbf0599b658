"""A batched environment: ``num_envs`` independent hands stepped together with numpy arrays,
following Gymnasium's vector-environment API (optional extra ``triple_draw[gymnasium]``).

>>> from triple_draw.envs.vector import TripleDrawVectorEnv
>>> envs = TripleDrawVectorEnv(num_envs=4, num_players=2)
>>> obs, info = envs.reset(seed=3)
>>> obs.shape, info["action_mask"].shape, info["actor"].tolist()
((4, 223), (4, 35), [1, 0, 1, 0])
>>> actions = envs.sample_actions(info["action_mask"])      # your policy here
>>> obs, rewards, terminations, truncations, info = envs.step(actions)
>>> rewards.shape
(4, 2)

Two modes. **Self-play** (the default): one policy acts for every seat, each observation
is the one of the seat to act in that hand, and the rewards are per seat (below).
**Learner** (``learner=SEAT, opponents=BOT``): the Gymnasium-conformant mode - package
bots play the other seats inside ``step``, every observation, mask and reward is the
learner's, rewards are ``(num_envs,)`` (so Gymnasium's vector wrappers such as
``RecordEpisodeStatistics`` and ``NormalizeReward`` take them), info has ``hand`` (not
``episode``, the wrappers' key), ``skipped_hands``/``skipped_reward`` (hands that ended
before the learner acted), and under same-step autoreset ``final_obs`` (an object array)
and ``final_info`` (a dict of arrays with ``_key`` masks) as Gymnasium 1.x lays them out.
The bullets below describe self-play.

**Games**: the real game (default), or any member of the family of reduced games
(docs/rules.md, *Reduced games*), with the OpenSpiel game's parameters: ``variant=``
(``"tiny"``, ``"small"``, ``"medium"``, ``"full"``) or ``rules=Rules(deck_ranks=...,
deck_suits=..., hand_size=..., draws=...)``, in both modes. The arrays take the member's
sizes (:class:`~triple_draw.envs.encoding.Layout`: ``layout.observation_size(n)``
columns of observations, ``layout.n_actions = 3 + 2 ** hand_size`` actions); the real
game's are those below. In the learner mode, a bot that cannot play the member is
refused when the environment is made (:class:`~triple_draw.errors.ReducedGameError`),
and the default opponent is the calling station where the heuristic bot cannot play.

- **Observations** ``(num_envs, observation_size(num_players))`` float32: row ``i`` is what
  the seat ``info["seat"][i]`` may know in hand ``i`` (layout:
  :mod:`triple_draw.envs.encoding`; the same information as ``hand.view(seat)`` plus the
  seat's own discards).
- **Actions** ``(num_envs,)`` ints 0..34 (:mod:`triple_draw.envs.encoding`); the legal ones
  are ``info["action_mask"]`` (int8, ``(num_envs, 35)``).
- **Rewards** ``(num_envs, num_players)`` float32: every seat's chips won or lost
  (``hand.result.net / reward_scale``) on the step that ends its hand, 0 otherwise. This
  is the multi-agent form of Gymnasium's ``(num_envs,)`` rewards: in self-play every
  seat's result matters. Each row sums to 0.
- **Terminations** ``(num_envs,)`` bool: the hand ended on this step. Truncations are
  always False (every hand ends).
- **info** (Gymnasium's dict of arrays, each with its ``_key`` mask): ``actor`` (seat to
  act, -1 once a hand is over), ``seat`` (whose observation the row is), ``action_mask``,
  ``episode`` (the hand's number in its slot) and, under same-step autoreset,
  ``final_obs``/``final_info`` for the hands that ended.
- **Autoreset** (``autoreset_mode``, as in ``metadata["autoreset_mode"]``):
  ``"next_step"`` (Gymnasium's default): a finished hand returns its final observation
  (from the seat that acted last) with ``actor`` -1 and an all-zero mask, and the next
  ``step`` deals the next hand in that slot, ignoring its action (any 0..34);
  ``"same_step"``: the next hand is dealt at once, its first observation returned, and
  the final observation is in ``info["final_obs"]``.
- **Seeding**: ``reset(seed=s)`` makes every hand reproducible: hand number ``e`` of slot
  ``i`` is ``Hand(rules, stacks, button, deck_seed)`` with ``(button, deck_seed) =
  envs.hand_args(i, e)``, derived from ``(s, i, e)`` only, so the same hands are dealt for
  any ``num_envs`` and any order of steps. ``reset()`` without a seed continues with the
  next hand of every slot; the first ``reset()`` without a seed draws ``s`` from the OS.
  ``reset(seed=[s0, s1, ...])`` seeds each slot on its own (slot ``i`` deals what it deals
  under ``reset(seed=si)``; ``None``: that slot continues).
- **Partial reset**: ``reset(options={"reset_mask": mask})`` deals a new hand only in the
  slots where the bool array ``mask`` is True; the others keep their hands.
- **Close**: after ``close()``, ``reset``/``step`` raise :class:`ClosedEnvError`.
- **Bad input**: an action array of the wrong shape or dtype raises
  :class:`~triple_draw.errors.BatchTypeError`; an out-of-range or illegal action raises
  :class:`~triple_draw.errors.IllegalActionError` naming the hand and the legal actions.
  Either way no hand changes.
"""

from __future__ import annotations

import copy
import functools
import random
import secrets
from collections.abc import Sequence
from typing import Any

import numpy as np

from triple_draw.errors import MissingExtraError

try:
    from gymnasium import spaces
    from gymnasium.vector import AutoresetMode, VectorEnv
except ImportError as e:  # pragma: no cover - only without the extra
    raise MissingExtraError(
        "triple_draw.envs.vector needs gymnasium >= 1.1: pip install 'triple_draw[gymnasium]'"
    ) from e

from triple_draw.envs.encoding import (
    _MASK_BITS,
    BET_RAISE,
    CHECK_CALL,
    DISCARD_OFFSET,
    FULL,
    N_ACTIONS,
    OBS_CHIPS,
    OBS_DISCARDS,
    OBS_PHASE,
    OBS_PLAYERS,
    OBS_RAISES,
    OBS_SLOTS,
    OBS_STREET,
    OBS_TO_ACT,
    PER_PLAYER,
    Layout,
    default_opponent,
    env_rules,
    layout_of,
    opponent_specs,
)
from triple_draw.bots import (
    BET_OR_RAISE,
    CALL,
    CHECK,
    DISCARD,
    FOLD,
    F_BET_LEVEL,
    F_BETS,
    F_BIG_BLIND_SEAT,
    F_BUTTON,
    F_DRAWS,
    F_FOLDED,
    F_HOLE,
    F_N_PLAYERS,
    F_PHASE,
    F_POT,
    F_RAISE_TO,
    F_ROUND_BETS,
    F_ROUND_VOLUNTARY,
    F_SEAT,
    F_SMALL_BLIND_SEAT,
    F_STACKS,
    F_STREET,
    F_TO_CALL,
    CallingStationBot,
    HeuristicBot,
    Observation,
    RandomBot,
    as_action,
    decide_method,
    make_bot,
    new_observation,
    observation_fields,
    require_plays,
)
from triple_draw.errors import ArgumentError, BatchTypeError, IllegalActionError, TripleDrawError
from triple_draw.game.actions import Action
from triple_draw.game.core import resolve_core
from triple_draw.game.hand import Hand
from triple_draw.game.rules import MAX_PLAYERS, Rules
from triple_draw.game.betting import round_action
from triple_draw.simulation import _bot_label, _folded_of

__all__ = ["ClosedEnvError", "TripleDrawVectorEnv", "hand_seed"]


class ClosedEnvError(TripleDrawError, RuntimeError):
    """``reset`` or ``step`` on an environment after its ``close()``: a closed environment
    stays closed (make a new one)."""


_M64 = (1 << 64) - 1


def _mix(x: int) -> int:
    """splitmix64: a bijective scrambler of 64-bit ints."""
    x = (x + 0x9E3779B97F4A7C15) & _M64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _M64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _M64
    return x ^ (x >> 31)


def hand_seed(seed: int, index: int, episode: int) -> int:
    """The 63-bit key of hand number ``episode`` of slot ``index`` under ``reset(seed=seed)``:
    ``splitmix64(splitmix64(splitmix64(seed) ^ index) ^ episode) >> 1``. The deck seed
    is this key; a button not fixed is ``key % num_players``."""
    return _mix(_mix(_mix(seed & _M64) ^ index) ^ episode) >> 1


def _masks(lay: Layout) -> np.ndarray:
    """The action mask of each row code of a layout's game: 0 betting, 1 betting with a
    raise allowed, 2 draw, 3 over."""
    return np.stack([lay.bet_mask, lay.raise_mask, lay.draw_mask, lay.no_mask])


#: the real game's masks of the row codes
_MASKS = _masks(FULL)


def _encode_batch(
    t: np.ndarray,
    discards: np.ndarray,
    draws: np.ndarray,
    n: int,
    scale: float,
    size: int,
    m: int,
    lay: Layout = FULL,
) -> np.ndarray:
    """Encode ``m`` hands from their rows of ints (``[seat, actor, phase, street, level,
    raises, button, H cards (or -1), stacks, bets, committed, live]``: live is the hand's
    ``_live``, 1 for a seat not folded; ``H`` the game's hand size), the seat's discards
    ``(m, D)`` (by index in the deck of ``D`` cards) and every seat's draws ``(m, n, K)``
    (-1: not drawn; ``K`` the game's draws), in the layout ``lay`` of the game (the
    real game's by default)."""
    out = np.zeros((m, size), dtype=np.float32)
    r = np.arange(m)
    seat = t[:, 0]
    actor = t[:, 1]
    phase = t[:, 2]
    h = lay.hand_size
    cards = t[:, 7 : 7 + h]
    live = cards[:, 0] >= 0
    lr = r[live]
    lc = cards[live]
    slots = lay.obs_slots
    w = lay.slot_width
    ranks = lay.deck_ranks
    for k in range(h):
        c = lc[:, k]
        rank = c // 4
        suit = c % 4
        out[lr, rank * lay.deck_suits + suit] = 1.0  # the card's index in the deck
        out[lr, slots + w * k + rank] = 1.0
        out[lr, slots + w * k + ranks + suit] = 1.0
    at = lay.obs_discards
    out[:, at : at + lay.deck_size] = discards
    out[r, lay.obs_phase + phase] = 1.0
    out[r, lay.obs_street + t[:, 3]] = 1.0
    out[:, lay.obs_to_act] = actor == seat
    chips = lay.obs_chips
    p = 7 + h
    stacks = t[:, p : p + n]
    bets = t[:, p + n : p + 2 * n]
    committed = t[:, p + 2 * n : p + 3 * n]
    folded = t[:, p + 3 * n : p + 4 * n] == 0
    level = t[:, 4]
    out[:, chips] = np.minimum(1.0, committed.sum(axis=1) * scale)
    out[:, chips + 1] = np.minimum(1.0, level * scale)
    owe = np.clip(level - bets[r, seat], 0, stacks[r, seat])
    owe[folded[r, seat] | (phase != 0)] = 0
    out[:, chips + 2] = np.minimum(1.0, owe * scale)
    out[:, lay.obs_raises] = np.minimum(1.0, t[:, 5] / 5)
    order = (seat[:, None] + np.arange(n)) % n
    rr = r[:, None]
    st = stacks[rr, order]
    fo = folded[rr, order]
    per = lay.per_player
    block = np.zeros((m, n, per), dtype=np.float32)
    block[:, :, 0] = np.minimum(1.0, st * scale)
    block[:, :, 1] = np.minimum(1.0, bets[rr, order] * scale)
    block[:, :, 2] = np.minimum(1.0, committed[rr, order] * scale)
    block[:, :, 3] = fo
    block[:, :, 4] = ~fo & (st == 0) & (phase != 2)[:, None]
    block[:, :, 5] = order == t[:, 6][:, None]
    block[:, :, 6] = order == actor[:, None]
    block[:, :, 7] = ~fo
    d = draws[rr, order]
    block[:, :, 8 : 8 + lay.draws] = np.where(d >= 0, (d + 1) / (h + 1), 0.0)
    out[:, lay.obs_players :] = block.reshape(m, n * per)
    return out


#: hands in a row that may end before the learner's first decision (bots that never let
#: the learner act)
_MAX_SKIPS = 10_000
#: bots whose actions are legal by construction: applied straight to the engine
_TRUSTED = frozenset((HeuristicBot, RandomBot, CallingStationBot))
#: an action's kind -> its decision code (bots.Decision)
_KIND_CODE = {
    "fold": FOLD,
    "check": CHECK,
    "call": CALL,
    "bet": BET_OR_RAISE,
    "raise": BET_OR_RAISE,
    "discard": DISCARD,
}

_MODES = {"next_step": AutoresetMode.NEXT_STEP, "same_step": AutoresetMode.SAME_STEP}
#: the observation's layout and the masks of the row codes, for the compiled loop
_LAYOUT = [
    OBS_SLOTS, OBS_DISCARDS, OBS_PHASE, OBS_STREET, OBS_TO_ACT, OBS_CHIPS, OBS_RAISES,
    OBS_PLAYERS, PER_PLAYER, DISCARD_OFFSET, N_ACTIONS,
]  # fmt: skip
_MASK_ROWS = _MASKS.tolist()


@functools.cache
def _streams_match(loop: Any) -> bool:
    """Whether the random streams of the compiled loop (the class ``loop``) give what
    ``random.Random`` gives (the bundled bots' numbers); if this Python's ``random`` ever
    changed, the loop would not play those bots itself."""
    for seed in (0, 12345, (1 << 63) - 25):
        r = random.Random(seed)
        want = (r.random(), r.random(), r.randrange(3), r.getrandbits(32))
        if loop.stream_sample(seed) != want:
            return False  # pragma: no cover - CPython's random has not changed
    return True


def _native_bot(bot: Any, compiled: Any) -> tuple[Any, ...]:
    """How the compiled learner loop plays ``bot`` (a slot's copy of a seat's bot): the
    parameters of a bundled bot it decides for itself (the heuristic bot and the calling
    station computing on the compiled core ``compiled``, the random bot), drawing the
    numbers the bot's own ``random.Random`` would draw; ``("python",)``: any other bot,
    asked through :meth:`TripleDrawVectorEnv._bot_turn`."""
    t = type(bot)
    if t not in _TRUSTED or decide_method(bot) is None:
        return ("python",)
    streams = type(bot.rng) is random.Random and _streams_match(compiled.VectorLearner)
    if t is HeuristicBot and bot.core is compiled and streams:
        return ("heuristic", *bot._params, bot.bluff)
    if t is RandomBot and streams:
        return ("random", bot.fold_when_free)
    if t is CallingStationBot and bot.core is compiled:
        return ("call", bot.keep_max, bot._pat)
    return ("python",)


def _perform(h: Hand, code: int, cards: Sequence[int] | None) -> None:
    """Play a bot's decision ``code`` (:class:`~triple_draw.bots.Decision`; ``cards`` the
    discards of a draw) through the engine's own calls: a decision a bundled bot made,
    which needs no checks of its fields."""
    if code == DISCARD:
        h.discard(cards or ())
    elif code == FOLD:
        h.fold()
    elif code == BET_OR_RAISE:
        h.bet_or_raise()
    else:
        h.check_or_call()


class TripleDrawVectorEnv(VectorEnv):
    """``TripleDrawVectorEnv(num_envs=64, num_players=2, stacks=100, rules=None,
    button=None, reward_scale=1.0, autoreset_mode="next_step", core=None, learner=None,
    opponents=None, variant=None, deck_ranks=None, deck_suits=None, hand_size=None,
    draws=None)``

    - ``stacks``: every seat's stack at the start of each hand (an int, or one per seat).
    - ``rules``: a :class:`Rules` (default ``Rules()``: blinds 1/2, limits 2/4), of the
      real game or of any reduced game; ``variant``: the name of a member of the family
      (:meth:`Rules.variant <triple_draw.Rules.variant>`), as the OpenSpiel game takes it.
      Given both, the rules must be of the variant's member
      (:func:`~triple_draw.envs.encoding.env_rules`).
    - ``deck_ranks``, ``deck_suits``, ``hand_size``, ``draws`` (``None``: not given): each
      one given overrides the rules' or the variant's value, as the OpenSpiel game's
      parameters of those names do.
    - ``button``: a fixed button seat, or ``None`` for one derived from each hand's seed.
    - ``reward_scale``: rewards are chips divided by it.
    - ``learner``: the learner's seat (the learner mode), or ``None`` for self-play.
    - ``opponents`` (learner mode): one bot for every other seat, or a list of
      ``num_players - 1`` (:func:`~triple_draw.bots.make_bot` names or bot objects; default
      ``"heuristic"``, or ``"call"`` in a reduced game of fewer than five cards in hand);
      ``opponents[k]`` sits ``k + 1`` seats after the learner. A bot that cannot play the
      game is refused here (:class:`~triple_draw.errors.ReducedGameError`).

    The learner mode's loop is chosen here, once: the compiled loop
    (``_core.VectorLearner``) for the real game on the compiled core, else the Python
    loop (:meth:`_step_learner`, the compiled loop's twin), which is the one that plays a
    reduced game (the compiled loop is built for the real game).

    See the module docs for the arrays ``reset``/``step`` return.
    """

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.NEXT_STEP}  # noqa: RUF012 - an instance attribute in VectorEnv

    def __init__(
        self,
        num_envs: int = 64,
        num_players: int = 2,
        stacks: int | Sequence[int] = 100,
        rules: Rules | None = None,
        button: int | None = None,
        reward_scale: float = 1.0,
        autoreset_mode: str = "next_step",
        core: Any = None,
        learner: int | None = None,
        opponents: Any = None,
        variant: str | None = None,
        deck_ranks: int | None = None,
        deck_suits: int | None = None,
        hand_size: int | None = None,
        draws: int | None = None,
    ) -> None:
        if type(num_envs) is not int or num_envs < 1:
            raise ArgumentError(f"num_envs must be an int >= 1, got {num_envs!r}")
        if type(num_players) is not int or not 2 <= num_players <= MAX_PLAYERS:
            raise ArgumentError(f"num_players must be 2..{MAX_PLAYERS}, got {num_players!r}")
        # (None: Rules(max_players=max(6, num_players)), or the variant's member; else
        # rules that seat them all, and a deck that serves them)
        fields = dict(
            deck_ranks=deck_ranks, deck_suits=deck_suits, hand_size=hand_size, draws=draws
        )  # (the OpenSpiel game's parameters of these names)
        rules = env_rules(num_players, rules, variant, "TripleDrawVectorEnv", fields)
        st = [stacks] * num_players if isinstance(stacks, int) else list(stacks)
        if len(st) != num_players or any(type(x) is not int or x <= 0 for x in st):
            raise ArgumentError(
                f"stacks must be an int > 0 or {num_players} of them, got {stacks!r}"
            )
        if button is not None and (type(button) is not int or not 0 <= button < num_players):
            raise ArgumentError(
                f"button must be a seat 0..{num_players - 1} or None, got {button!r}"
            )
        if not (isinstance(reward_scale, (int, float)) and reward_scale > 0):
            raise ArgumentError(f"reward_scale must be > 0, got {reward_scale!r}")
        if autoreset_mode not in _MODES:
            raise ArgumentError(
                f"autoreset_mode must be one of {sorted(_MODES)}, got {autoreset_mode!r}"
            )
        if learner is None:
            if opponents is not None:
                raise ArgumentError("opponents need a learner seat: pass learner=SEAT too")
        elif type(learner) is not int or not 0 <= learner < num_players:
            raise ArgumentError(
                f"learner must be a seat 0..{num_players - 1} or None, got {learner!r}"
            )
        #: the learner's seat (``None``: self-play, every seat acts through ``step``)
        self.learner = learner
        #: per slot, the bot of every seat (``None`` for the learner's): see _copy_bots
        self._bots: list[list[Any]] = [[None] * num_players for _ in range(num_envs)]
        self._decides: list[Any] = []
        #: per seat, how the compiled loop plays its bot itself (``_native_bot``; ``None``:
        #: the learner's seat, and the bots it asks in Python)
        self._native: list[tuple[Any, ...] | None] = [None] * num_players
        if learner is not None:
            if opponents is None:
                opponents = default_opponent(rules)
            proto = [make_bot(x, core=core) for x in opponent_specs(opponents, num_players)]
            for b in proto:
                require_plays(b, rules, "TripleDrawVectorEnv")
            #: ``opponents[k]`` sits ``k + 1`` seats after the learner
            self.opponents = proto
            compiled = resolve_core("compiled")
            if (
                not rules.reduced
                and resolve_core(core) is compiled
                and hasattr(compiled, "VectorLearner")
            ):
                for k, b in enumerate(proto):
                    spec = _native_bot(b, compiled)
                    if spec != ("python",):
                        self._native[(learner + k + 1) % num_players] = spec
        #: the fields of the Observation _bot_obs builds (bots.F_*), and the bets of a draw
        self._obs_fields = observation_fields()
        self._zeros = (0,) * num_players
        self.num_envs = num_envs
        self.num_players = num_players
        if learner is not None:
            self._copy_bots(every=False)
        self.rules = rules
        self.stacks = tuple(st)
        self.fixed_button = button
        self.reward_scale = float(reward_scale)
        self.autoreset_mode = autoreset_mode
        self.metadata = {"autoreset_mode": _MODES[autoreset_mode]}
        self._same_step = autoreset_mode == "same_step"
        self._core = core
        self._scale = 1.0 / sum(st)
        #: the layout of the observations and actions (the real game's, or the member's)
        self.layout = lay = layout_of(rules)
        #: the number of actions (35 in the real game, ``3 + 2 ** hand_size``)
        self.n_actions = n_actions = lay.n_actions
        self._masks = _masks(lay)
        #: card id -> its index in the deck (the id itself in the real game; -1 for the
        #: cards outside a reduced game's deck, which its hands never hold)
        self._index = tuple(-1 if i is None else i for i in lay.index)
        self._no_cards = (-1,) * lay.hand_size
        self.obs_size = size = lay.observation_size(num_players)
        self._skipped = np.zeros(num_envs, dtype=np.int64)
        self._skipped_reward = np.zeros(num_envs, dtype=np.float32)
        self.single_observation_space = spaces.Box(0.0, 1.0, (size,), np.float32)
        self.observation_space = spaces.Box(0.0, 1.0, (num_envs, size), np.float32)
        self.single_action_space = spaces.Discrete(n_actions)
        self.action_space = spaces.MultiDiscrete(np.full(num_envs, n_actions))
        self.closed = False
        self.seed_value: int | None = None
        #: the current hand of every slot (read them; drive them only through ``step``)
        self.hands: list[Hand] = []
        self._episode = [0] * num_envs
        self._disc_arr = np.zeros((num_envs, num_players, lay.deck_size), dtype=np.float32)
        self._draw_arr = np.full((num_envs, num_players, lay.draws), -1, dtype=np.int64)
        self._ndraws = [[0] * num_players for _ in range(num_envs)]
        self._done = [False] * num_envs
        self._slot_keys = [0] * num_envs
        #: the seed of each slot's stream (``reset(seed=s)`` gives every slot ``s``)
        self._slot_seeds: list[int] = []
        self._last_seat = [0] * num_envs
        #: per slot: the button
        self._button = [0] * num_envs
        self._seat = np.zeros(num_envs, dtype=np.int64)
        self._actor = np.zeros(num_envs, dtype=np.int64)
        self._mask = np.zeros((num_envs, n_actions), dtype=np.int8)
        self._arange = np.arange(num_envs)
        #: the learner mode's compiled loop (_core.VectorLearner), made at the first reset
        #: when the hands are of the real game on the compiled core; ``None``: the Python
        #: loop below (its twin, which the tests hold it to) - set ``_compiled = False``
        #: before the first reset to take it. A reduced game always takes the Python loop:
        #: the compiled one is built for the real game's layout (chosen here, once)
        self._loop: Any = None
        self._compiled = learner is not None and not rules.reduced

    def _copy_bots(self, every: bool) -> None:
        """Give each slot its own copy of the bot of every seat (``every``) or of the seats
        whose bots the compiled loop asks in Python: each slot's copies are reseeded from
        each hand's key, so a slot plays the same hands whatever else is in the batch. The
        bots the compiled loop plays itself are copied only for the Python loop (at the
        first reset)."""
        learner = self.learner
        assert learner is not None
        n = self.num_players
        for row in self._bots:
            for k, b in enumerate(self.opponents):
                s = (learner + k + 1) % n
                if row[s] is None and (every or self._native[s] is None):
                    row[s] = copy.deepcopy(b)
        self._decides = [
            [None if b is None else decide_method(b) for b in row] for row in self._bots
        ]
        # per seat, shared by the slots (the bots of a seat are of one class): applied
        # straight to the engine, and the heuristic bot's decision as a code
        row0 = self._bots[0]
        self._trusted = [
            b is not None and type(b) in _TRUSTED and self._decides[0][s] is not None
            for s, b in enumerate(row0)
        ]
        self._chooses = [
            [b.choose if type(b) is HeuristicBot else None for b in row] for row in self._bots
        ]

    # -- seeding -----------------------------------------------------------------------------

    def hand_args(self, index: int, episode: int) -> tuple[int, int]:
        """``(button, deck_seed)`` of hand number ``episode`` of slot ``index`` under the
        slot's seed (the last one a ``reset`` gave it: an int seed goes to every slot, a
        list one to each): ``Hand(rules, stacks, button, deck_seed)`` deals it.
        ``seed_value`` is that int seed, or ``None`` after a list of seeds."""
        if not self._slot_seeds:
            raise ArgumentError("call reset() first")
        key = hand_seed(self._slot_seeds[index], index, episode)
        button = self.fixed_button if self.fixed_button is not None else key % self.num_players
        return button, key

    def _deal(self, i: int) -> None:
        """Deal the hand ``self._episode[i]`` of slot ``i`` (the caller clears the slot's
        rows of the discard and draw arrays: :meth:`_clear`)."""
        key = _mix(self._slot_keys[i] ^ self._episode[i]) >> 1  # = hand_seed(seed, i, e)
        fixed = self.fixed_button
        button = fixed if fixed is not None else key % self.num_players
        self.hands[i] = Hand(self.rules, self.stacks, button, key, core=self._core)
        self._ndraws[i] = [0] * self.num_players
        self._button[i] = button
        self._done[i] = False

    def _clear(self, rows: list[int]) -> None:
        if rows:
            self._disc_arr[rows] = 0.0
            self._draw_arr[rows] = -1

    # -- the API -----------------------------------------------------------------------------

    def _seed_slot(self, i: int, seed: int) -> None:
        """Restart the seeded stream of slot ``i`` (its hand 0 is dealt next)."""
        self._slot_seeds[i] = seed
        self._slot_keys[i] = _mix(_mix(seed & _M64) ^ i)
        self._episode[i] = 0

    def _check_open(self) -> None:
        if self.closed:
            raise ClosedEnvError(f"{self!r} is closed: make a new environment")

    def reset(
        self,
        *,
        seed: int | Sequence[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Deal a new hand in every slot, or in the slots of ``options["reset_mask"]``
        (a bool array ``(num_envs,)``; the other slots keep their hands as they are).

        ``seed``: an int restarts the seeded stream of every slot (reset) at its hand 0;
        a list of ``num_envs`` ints or ``None`` seeds each slot on its own (slot ``i``
        under seed ``s`` deals the same hands as slot ``i`` under ``reset(seed=s)``;
        ``None``: that slot continues). Without a seed, the next hand of each slot."""
        self._check_open()
        n_envs = self.num_envs
        mask = None if options is None else options.get("reset_mask")
        if mask is not None:
            mask = np.asarray(mask)
            if mask.shape != (n_envs,) or mask.dtype != np.bool_:
                raise ArgumentError(
                    f"options['reset_mask'] must be a bool array of shape ({n_envs},), "
                    f"got {mask.dtype} {mask.shape}"
                )
            rows = np.flatnonzero(mask).tolist()
        else:
            rows = list(range(n_envs))
        if seed is None or type(seed) is int or isinstance(seed, np.integer):
            seeds: list[int | None] = [None if seed is None else int(seed)] * n_envs
        elif isinstance(seed, (list, tuple, np.ndarray)):
            seeds = list(seed)
            if len(seeds) != n_envs or any(
                x is not None and type(x) is not int and not isinstance(x, np.integer)
                for x in seeds
            ):
                raise ArgumentError(
                    f"seed must be an int, None or a list of {n_envs} ints or None, got {seed!r}"
                )
        else:
            raise ArgumentError(
                f"seed must be an int, None or a list of {n_envs} ints or None, got {seed!r}"
            )
        if not self._slot_seeds:  # the first reset: every slot needs a stream
            self._slot_seeds = [0] * n_envs
            os_seed = secrets.randbits(63)
            for i in range(n_envs):
                self._seed_slot(i, os_seed)
            self.seed_value = os_seed
            fresh = True
        else:
            fresh = False
        for i in rows:
            s = seeds[i]
            if s is not None:
                self._seed_slot(i, int(s))
            elif not fresh:
                self._episode[i] += 1
        if type(seed) is int or isinstance(seed, np.integer):
            self.seed_value = int(seed)
        elif seed is not None:
            self.seed_value = None  # one seed per slot: see hand_args
        if not self.hands:
            self.hands = [None] * n_envs  # type: ignore[list-item]
            rows = list(range(n_envs))
            self._loop = self._compiled_loop()
            if self.learner is not None and self._loop is None:
                self._copy_bots(every=True)  # the Python loop plays every bot
        if self.learner is None:
            for i in rows:
                self._deal(i)
            self._clear(rows)
        else:
            self._skipped[:] = 0
            self._skipped_reward[:] = 0.0
            if self._loop is not None:
                self._loop.deal(rows, False)
            else:
                for i in rows:
                    self._deal_learner(i)
        return self._observe_all(), self._info()

    def _observe_all(self) -> np.ndarray:
        """The observation of every slot (and the action masks)."""
        if self._loop is None:
            return self._observe(range(self.num_envs))
        obs = np.zeros((self.num_envs, self.obs_size), dtype=np.float32)
        self._loop.observe(None, obs, self._mask)
        return obs

    def step(
        self, actions: Any
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Play one action in every hand (see the module docs)."""
        self._check_open()
        if not self.hands:
            raise ArgumentError("call reset() before step()")
        acts = self._check(actions)
        if self.learner is not None:
            return self._step_learner(acts)
        n_envs = self.num_envs
        hands = self.hands
        done = self._done
        rewards = np.zeros((n_envs, self.num_players), dtype=np.float32)
        terminated = np.zeros(n_envs, dtype=bool)
        final_obs: np.ndarray | None = None
        ended: list[int] = []
        dealt: list[int] = []
        scale = self.reward_scale
        # the array updates of the loop, applied once after it
        d_env: list[int] = []
        d_seat: list[int] = []
        d_card: list[int] = []
        w_env: list[int] = []
        w_seat: list[int] = []
        w_pos: list[int] = []
        w_count: list[int] = []
        nets: list[tuple[int, ...]] = []
        ndraws = self._ndraws
        last_seat = self._last_seat
        episode = self._episode
        start = self.stacks
        index = self._index
        for i in range(n_envs):
            if done[i]:  # next-step autoreset: this step deals the next hand
                episode[i] += 1
                self._deal(i)
                dealt.append(i)
                continue
            h = hands[i]
            a = acts[i]
            s = h.actor
            if a >= DISCARD_OFFSET:
                held = sorted(h.hole_ids(s))
                cards = [held[k] for k in _MASK_BITS[a - DISCARD_OFFSET]]
                h.discard(cards)
                k = len(cards)
                if k:
                    d_env += [i] * k
                    d_seat += [s] * k
                    d_card += [index[c] for c in cards]
                d = ndraws[i]
                w_env.append(i)
                w_seat.append(s)
                w_pos.append(d[s])
                w_count.append(k)
                d[s] += 1
            elif a == 1:
                h.check_or_call()
            elif a == 2:
                h.bet_or_raise()
            else:
                h.fold()
            if h.actor is None:
                last_seat[i] = s
                done[i] = True
                ended.append(i)
                nets.append(h.stacks)
        if d_env:
            self._disc_arr[d_env, d_seat, d_card] = 1.0
        if w_env:
            self._draw_arr[w_env, w_seat, w_pos] = w_count
        if ended:
            terminated[ended] = True
            rewards[ended] = (np.array(nets, dtype=np.float64) - start) / scale
        if self._same_step and ended:
            final_obs = np.zeros((n_envs, self.obs_size), dtype=np.float32)
            final_obs[ended] = self._observe(ended, last=True)
            for i in ended:
                episode[i] += 1
                self._deal(i)
            dealt += ended
        self._clear(dealt)
        obs = self._observe(range(n_envs))
        info = self._info()
        if final_obs is not None:
            mask = np.zeros(n_envs, dtype=bool)
            mask[ended] = True
            info["final_obs"] = final_obs
            info["_final_obs"] = mask
            final_info = np.empty(n_envs, dtype=object)
            for i in ended:
                final_info[i] = {"net": rewards[i] * scale, "episode": self._episode[i] - 1}
            info["final_info"] = final_info
            info["_final_info"] = mask
        return obs, rewards, terminated, np.zeros(n_envs, dtype=bool), info

    # -- the learner mode ----------------------------------------------------------------------

    def _deal_learner(self, i: int) -> None:
        """Deal the hand ``self._episode[i]`` of slot ``i`` and let the bots act up to the
        learner's first decision; a hand that ends before it is counted in the slot's
        ``skipped_hands``/``skipped_reward`` and the next one is dealt."""
        learner = self.learner
        assert learner is not None
        bots = self._bots[i]
        for _ in range(_MAX_SKIPS):
            self._deal(i)
            self._disc_arr[i] = 0.0
            self._draw_arr[i] = -1
            key = _mix(self._slot_keys[i] ^ self._episode[i])
            for s, b in enumerate(bots):
                reseed = getattr(b, "reseed", None)
                if callable(reseed):
                    reseed(_mix(key ^ (s + 1)) >> 1)
            h = self.hands[i]
            self._play_opponents(i, h)
            if h.actor is not None:
                return
            self._skipped[i] += 1
            self._skipped_reward[i] += (
                h.stacks[learner] - self.stacks[learner]
            ) / self.reward_scale
            self._episode[i] += 1
        raise ArgumentError(  # pragma: no cover - bots that never let the learner act
            f"slot {i}: {_MAX_SKIPS} hands in a row ended before the learner's first decision"
        )

    def _compiled_loop(self) -> Any:
        """The learner mode's compiled loop (``_core.VectorLearner``) over this environment's
        lists (``hands``, ``_episode``, ``_slot_keys``, ``_done``, which it reads and writes
        in place), or ``None``: self-play, hands on another core than the compiled one (the
        reference core's environment never calls the compiled core), or ``_compiled``
        turned off."""
        if self.learner is None or not self._compiled or self.rules.reduced:
            return None
        compiled = resolve_core("compiled")
        loop = getattr(compiled, "VectorLearner", None)
        if loop is None or resolve_core(self._core) is not compiled:
            return None
        specs = [
            None if s == self.learner else self._native[s] or ("python",)
            for s in range(self.num_players)
        ]

        def reseed_of(bot: Any, spec: Any) -> Any:  # a bot the loop asks in Python
            r = getattr(bot, "reseed", None) if spec == ("python",) else None
            return r if callable(r) else None

        reseeds = [[reseed_of(b, x) for b, x in zip(row, specs, strict=True)] for row in self._bots]
        return loop(
            Hand, self.rules, self.stacks, self._core, self.learner, self.fixed_button,
            self.reward_scale, specs, self._bot_turn, reseeds, self.hands, self._episode,
            self._slot_keys, self._done, self._skipped, self._skipped_reward, _LAYOUT,
            _MASK_ROWS,
        )  # fmt: skip

    def _play_opponents(self, i: int, h: Hand) -> None:
        """Let the bots of slot ``i`` act until it is the learner's turn or the hand is
        over (the Python loop; :meth:`_bot_turn` asks each)."""
        learner = self.learner
        while True:
            s = h._actor
            if s is None or s == learner:
                return
            code, cards = self._bot_turn(i, h, s)
            self._record(i, s, code, cards)

    def _bot_turn(self, i: int, h: Hand, s: int) -> tuple[int, Sequence[int]]:
        """Seat ``s``'s bot acts in slot ``i``; returns its decision code
        (:class:`~triple_draw.bots.Decision`) and the cards of a discard. As
        :func:`triple_draw.simulate` does, a bot that decides from an
        :class:`Observation` gets one built from the engine's state and the hand's public
        record (no ``hand.view``). The compiled loop asks here the bots it does not play
        itself. The heuristic bot's decision comes from its kernels as a code, and the
        bundled bots' actions go straight to the engine."""
        bots = self._bots[i]
        decide = self._decides[i][s]
        if decide is None:
            act = as_action(bots[s].act(h.view(s)))
        else:
            obs = self._bot_obs(i, h, s)
            choose = self._chooses[i][s]
            if choose is not None:
                code, cards = choose(obs)
                _perform(h, code, cards)
                return code, cards
            act = decide(obs)
            if type(act) is not Action:
                act = as_action(act)
        code = _KIND_CODE[act.kind]
        try:
            if self._trusted[s]:
                _perform(h, code, act.cards)
            else:
                h.apply(act)
        except IllegalActionError as e:
            raise IllegalActionError(
                f"bot {_bot_label(bots[s])} in seat {s} of hand {i} chose {act}: {e}"
            ) from None
        return code, act.cards or ()

    def _record(self, i: int, s: int, code: int, cards: Sequence[int]) -> None:
        """Note seat ``s``'s action in slot ``i`` in the observation arrays: ``code`` a
        decision code (:class:`~triple_draw.bots.Decision`), ``cards`` those of a discard
        (what the public record does not hold: the seat's own discards, and the draws in
        the arrays' layout)."""
        if code == DISCARD:
            k = len(cards)
            if k:
                index = self._index
                self._disc_arr[i, s, [index[c] for c in cards]] = 1.0
            d = self._ndraws[i]
            self._draw_arr[i, s, d[s]] = k
            d[s] += 1

    def _bot_obs(self, i: int, h: Hand, s: int) -> Observation:
        """The :class:`Observation` of seat ``s`` (to act) in slot ``i`` from the hand's
        public record (``_live``, ``_draws``, :func:`~triple_draw.game.betting.round_action`):
        what ``Observation.from_view(h.view(s))`` gives (the tests compare them)."""
        bets, voluntary = round_action(h)
        return self._observation(h, s, _folded_of(h._live), tuple(h._draws), bets, voluntary)

    def _observation(
        self,
        h: Hand,
        s: int,
        folded: tuple[bool, ...],
        draws: tuple[tuple[int, ...], ...],
        round_bets: int,
        voluntary: bool,
    ) -> Observation:
        """The :class:`Observation` of seat ``s`` (to act) in ``h``, given the public record
        the hand does not keep: every seat's folds and draws, and the bets and raises of
        the round and whether anybody called, bet or raised in it (betting only)."""
        f = self._obs_fields  # every field is set again: one list serves every slot
        f[F_SEAT] = s
        f[F_HOLE] = tuple(h._hands[s])
        f[F_STREET] = h._street
        f[F_N_PLAYERS] = self.num_players
        f[F_BUTTON] = h._button
        f[F_SMALL_BLIND_SEAT] = h._sb
        f[F_BIG_BLIND_SEAT] = h._bb
        f[F_FOLDED] = folded
        f[F_STACKS] = tuple(h._stacks)
        f[F_DRAWS] = draws
        f[F_POT] = sum(h._total)
        if h._in_draw:  # nothing to call, bet or raise
            f[F_PHASE] = "draw"
            f[F_BETS] = self._zeros
            f[F_TO_CALL] = 0
            f[F_RAISE_TO] = None
            f[F_BET_LEVEL] = 0
            f[F_ROUND_BETS] = 0
            f[F_ROUND_VOLUNTARY] = False
        else:
            f[F_PHASE] = "bet"
            f[F_BETS] = bets = tuple(h._bet)
            listed = h.legal_actions()
            call = listed[1].amount
            f[F_TO_CALL] = 0 if call is None else call - bets[s]
            f[F_RAISE_TO] = listed[2].amount if len(listed) > 2 else None
            f[F_BET_LEVEL] = h._level
            f[F_ROUND_BETS] = round_bets
            f[F_ROUND_VOLUNTARY] = voluntary
        return new_observation(f)

    def _step_learner(
        self, acts: list[int]
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """One learner decision in every hand, then the bots' up to the next one."""
        if self._loop is not None:
            return self._step_compiled(acts)
        learner = self.learner
        assert learner is not None
        n_envs = self.num_envs
        hands = self.hands
        done = self._done
        rewards = np.zeros(n_envs, dtype=np.float32)
        terminated = np.zeros(n_envs, dtype=bool)
        ended: list[int] = []
        episode = self._episode
        start = self.stacks[learner]
        scale = self.reward_scale
        self._skipped[:] = 0
        self._skipped_reward[:] = 0.0
        for i in range(n_envs):
            if done[i]:  # next-step autoreset: this step deals the next hand
                episode[i] += 1
                self._deal_learner(i)
                continue
            h = hands[i]
            a = acts[i]
            if a >= DISCARD_OFFSET:
                held = sorted(h.hole_ids(learner))
                cards = [held[k] for k in _MASK_BITS[a - DISCARD_OFFSET]]
                h.discard(cards)
                self._record(i, learner, DISCARD, cards)
            elif a == CHECK_CALL:
                code = CALL if h._bet[learner] < h._level else CHECK
                h.check_or_call()
                self._record(i, learner, code, ())
            elif a == BET_RAISE:
                h.bet_or_raise()
                self._record(i, learner, BET_OR_RAISE, ())
            else:
                h.fold()
                self._record(i, learner, FOLD, ())
            self._play_opponents(i, h)
            if h.actor is None:
                self._last_seat[i] = learner
                done[i] = True
                ended.append(i)
                terminated[i] = True
                rewards[i] = (h.stacks[learner] - start) / scale
        info_final: dict[str, Any] | None = None
        final_obs: np.ndarray | None = None
        if self._same_step and ended:
            final_obs = self._observe(ended, last=True)
            info_final = self._learner_final_info(ended, rewards)
            for i in ended:
                episode[i] += 1
                self._deal_learner(i)
        obs = self._observe(range(n_envs))
        return self._learner_out(obs, rewards, terminated, ended, final_obs, info_final)

    def _step_compiled(
        self, acts: list[int]
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """:meth:`_step_learner` by the compiled loop (the same arrays)."""
        loop = self._loop
        rewards, terminated, ended = loop.step(acts)
        info_final: dict[str, Any] | None = None
        final_obs: np.ndarray | None = None
        if self._same_step and ended:
            final_obs = np.zeros((len(ended), self.obs_size), dtype=np.float32)
            loop.observe(ended, final_obs)
            info_final = self._learner_final_info(ended, rewards)
            loop.deal(ended, True)
        obs = np.zeros((self.num_envs, self.obs_size), dtype=np.float32)
        loop.observe(None, obs, self._mask)
        return self._learner_out(obs, rewards, terminated, ended, final_obs, info_final)

    def _learner_out(
        self,
        obs: np.ndarray,
        rewards: np.ndarray,
        terminated: np.ndarray,
        ended: list[int],
        final_obs: np.ndarray | None,
        info_final: dict[str, Any] | None,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """What a learner-mode ``step`` returns, its info with the same-step autoreset's
        ``final_obs``/``final_info`` of the hands that ended."""
        n_envs = self.num_envs
        info = self._info()
        if final_obs is not None and info_final is not None:
            mask = np.zeros(n_envs, dtype=bool)
            mask[ended] = True
            fo = np.full(n_envs, None, dtype=object)
            for k, i in enumerate(ended):
                fo[i] = final_obs[k]
            info["final_obs"] = fo
            info["_final_obs"] = mask
            info["final_info"] = info_final
            info["_final_info"] = mask
        return obs, rewards, terminated, np.zeros(n_envs, dtype=bool), info

    def _learner_final_info(self, ended: list[int], rewards: np.ndarray) -> dict[str, Any]:
        """The info of the hands that ended, as Gymnasium 1.x lays out ``final_info``
        under same-step autoreset: a dict of arrays, each key with its ``_key`` mask."""
        n_envs = self.num_envs
        mask = np.zeros(n_envs, dtype=bool)
        mask[ended] = True
        hand = np.zeros(n_envs, dtype=np.int64)
        net = np.zeros(n_envs, dtype=np.float64)
        for i in ended:
            hand[i] = self._episode[i]
            net[i] = rewards[i] * self.reward_scale
        action_mask = np.zeros((n_envs, self.n_actions), dtype=np.int8)
        return {
            "action_mask": action_mask, "_action_mask": mask,
            "hand": hand, "_hand": mask,
            "net": net, "_net": mask,
        }  # fmt: skip

    def _check(self, actions: Any) -> list[int]:
        """The actions as a list of ints, after checking every one (nothing changes on
        error)."""
        arr = np.asarray(actions)
        if arr.shape != (self.num_envs,):
            raise BatchTypeError(f"actions must have shape ({self.num_envs},), got {arr.shape}")
        if arr.dtype.kind not in "iu":
            raise BatchTypeError(f"actions must be integers, got dtype {arr.dtype}")
        top = self.n_actions
        bad = np.flatnonzero((arr < 0) | (arr >= top))
        if bad.size:
            i = int(bad[0])
            raise IllegalActionError(f"hand {i}: action must be 0..{top - 1}, got {int(arr[i])}")
        illegal = np.flatnonzero(self._mask[self._arange, arr] == 0)
        for i in illegal.tolist():
            if not self._done[i]:
                legal = np.flatnonzero(self._mask[i]).tolist()
                raise IllegalActionError(
                    f"hand {i}: illegal action {int(arr[i])} for seat {self.hands[i].actor}; "
                    f"legal: {legal}"
                )
        return arr.tolist()  # type: ignore[no-any-return]

    def _observe(self, rows: Any, last: bool = False) -> np.ndarray:
        """Observations of the hands ``rows`` (and, unless ``last``, the masks and actors
        of every hand): the public state of each hand is read into one row of ints, then
        the whole batch is encoded with numpy (the same values as
        :func:`triple_draw.envs.encoding.encode`; the tests compare them)."""
        rows = list(rows)
        n = self.num_players
        hands = self.hands
        last_seat = self._last_seat
        table: list[list[int]] = []
        zeros = (0,) * n
        no_cards = self._no_cards
        append = table.append
        button_of = self._button
        for i in rows:
            h = hands[i]
            a = h.actor
            if a is None:
                s = last_seat[i]
                code = 3
                a = -1
            else:
                s = last_seat[i] = a
                code = 2 if h.in_draw else 1 if h.can_bet_or_raise() else 0
            live = h._live  # the public record's folds, as they are (see _encode_batch)
            held = sorted(h.hole_ids(s)) if live[s] else no_cards
            if code < 2:
                append(
                    [s, a, 0, h.street, h.bet_level, h.raises, button_of[i], *held,
                     *h.stacks, *h.bets, *h.committed, *live, code]
                )  # fmt: skip
            else:
                ph = 1 if code == 2 else 2
                append(
                    [s, a, ph, h.street, 0, 0, button_of[i], *held,
                     *h.stacks, *zeros, *h.committed, *live, code]
                )  # fmt: skip
        t = np.array(table, dtype=np.int64)
        m = len(rows)
        idx = np.array(rows, dtype=np.int64)
        if not last:  # rows is every hand, in order
            self._seat = t[:, 0].copy()
            self._actor = t[:, 1].copy()
            self._mask = self._masks[t[:, -1]]
        return _encode_batch(
            t, self._disc_arr[idx, t[:, 0]], self._draw_arr[idx], n, self._scale, self.obs_size,
            m, self.layout,
        )  # fmt: skip

    def _info(self) -> dict[str, Any]:
        every = np.ones(self.num_envs, dtype=bool)
        if self.learner is not None:
            # no "episode" key: Gymnasium's RecordEpisodeStatistics writes its own there
            return {
                "action_mask": self._mask.copy(), "_action_mask": every,
                "hand": np.array(self._episode, dtype=np.int64), "_hand": every,
                "skipped_hands": self._skipped.copy(), "_skipped_hands": every,
                "skipped_reward": self._skipped_reward.copy(), "_skipped_reward": every,
            }  # fmt: skip
        return {
            "actor": self._actor.copy(),
            "_actor": every,
            "seat": self._seat.copy(),
            "_seat": every,
            "action_mask": self._mask.copy(),
            "_action_mask": every,
            "episode": np.array(self._episode, dtype=np.int64),
            "_episode": every,
        }

    @staticmethod
    def sample_actions(mask: np.ndarray, rng: np.random.Generator | None = None) -> np.ndarray:
        """A uniformly random legal action per row of ``mask`` (0 for a row with none)."""
        rng = np.random.default_rng() if rng is None else rng
        keys = rng.random(mask.shape) * (mask != 0)
        return keys.argmax(axis=1)  # type: ignore[no-any-return]

    def __getstate__(self) -> dict[str, Any]:
        # the compiled loop does not pickle: its record of every slot does
        state = self.__dict__.copy()
        loop = state.pop("_loop", None)
        state["_loop_state"] = None if loop is None else loop.get_state()
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        loop_state = state.pop("_loop_state", None)
        self.__dict__.update(state)
        self._loop = None
        if loop_state is not None:  # a new loop over this copy's lists
            self._loop = self._compiled_loop()
            self._loop.set_state(loop_state)

    def close_extras(self, **kwargs: Any) -> None:
        self.hands = []

    def __repr__(self) -> str:
        return (
            f"TripleDrawVectorEnv(num_envs={self.num_envs}, num_players={self.num_players}, "
            f"autoreset_mode={self.autoreset_mode!r})"
        )
