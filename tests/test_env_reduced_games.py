"""The environments play the reduced games (issue #24 §1; docs/environments.md, *The
reduced games*): the single-agent Gymnasium environment, the PettingZoo environment and
the batched environment (self-play and the learner mode) take ``variant=`` and ``rules=``
as the OpenSpiel game does, size their spaces from the member's layout, keep another
seat's cards out of every observation, and refuse a bad variant, a table the deck cannot
serve and a bot that cannot play the member when they are made."""

from __future__ import annotations

import hashlib
import pickle
import warnings

import numpy as np
import pytest

pytest.importorskip("gymnasium")

import gymnasium
from gymnasium.utils.env_checker import check_env

import triple_draw.envs  # noqa: F401 - registers triple_draw/TripleDraw-v0
from triple_draw import Hand, Rules
from triple_draw.bots import (
    CallingStationBot,
    EquityBot,
    HeuristicBot,
    RandomBot,
    _short_discard,
    plays_rules,
)
from triple_draw.envs import encoding
from triple_draw.envs.encoding import FULL, Layout, layout_of
from triple_draw.envs.gym_env import TripleDrawEnv
from triple_draw.envs.vector import TripleDrawVectorEnv
from triple_draw.errors import ArgumentError, ArgumentTypeError, ReducedGameError, RulesError
from triple_draw.game.cards import to_ids
from triple_draw.game.rules import VARIANTS

REDUCED = ("tiny", "small", "medium")
#: a reduced game that keeps five cards in hand: every bot plays it
FIVE = Rules(deck_ranks=8, deck_suits=4, hand_size=5, draws=1)


def sizes(rules: Rules) -> tuple[int, int, int, int]:
    return rules.deck_ranks * rules.deck_suits, rules.hand_size, rules.draws, rules.deck_ranks


# -- the variants and the layout ---------------------------------------------------------------


def test_one_table_of_variants_for_the_openspiel_game_and_the_environments() -> None:
    assert Rules.variant("full") == Rules()
    for name, fields in VARIANTS.items():
        r = Rules.variant(name)
        assert {k: getattr(r, k) for k in fields} == fields
    pytest.importorskip("pyspiel")
    import triple_draw.envs.openspiel as tdo

    assert tdo.VARIANTS is VARIANTS


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_the_layout_has_the_members_sizes(name: str) -> None:
    rules = Rules.variant(name)
    lay = layout_of(rules)
    d, h, k, r = sizes(rules)
    s = rules.deck_suits
    assert lay.n_actions == 3 + 2**h
    want = [d, h * (r + s), d, 3, k + 1, 1, 3, 1, (8 + k) * 3]
    blocks = lay.blocks(3)
    assert [b[1] for b in blocks] == want
    assert [b[2] for b in blocks] == [sum(want[:i]) for i in range(len(want))]
    assert lay.observation_size(3) == sum(want)
    assert lay.deck == Rules.variant(name).compiled.deck
    assert pickle.loads(pickle.dumps(lay)) is lay
    assert (lay is FULL) == (name == "full")


def test_the_full_layout_is_the_modules_constants() -> None:
    assert (FULL.n_actions, FULL.obs_slots, FULL.obs_discards, FULL.obs_phase) == (
        encoding.N_ACTIONS, encoding.OBS_SLOTS, encoding.OBS_DISCARDS, encoding.OBS_PHASE,
    )  # fmt: skip
    assert (FULL.obs_street, FULL.obs_to_act, FULL.obs_chips, FULL.obs_raises) == (
        encoding.OBS_STREET, encoding.OBS_TO_ACT, encoding.OBS_CHIPS, encoding.OBS_RAISES,
    )  # fmt: skip
    assert (FULL.obs_players, FULL.per_player) == (encoding.OBS_PLAYERS, encoding.PER_PLAYER)
    assert FULL.index == tuple(range(52))
    assert layout_of(Rules()) is FULL is layout_of(Rules.variant("full"))


def test_a_layout_encodes_only_the_hands_of_its_game() -> None:
    with pytest.raises(ArgumentError, match="its own game"):
        layout_of(Rules.variant("tiny")).encode(Hand(Rules(), [20, 20], seed=1), 0)


# -- what an observation holds ------------------------------------------------------------------


def check_private(lay: Layout, obs: np.ndarray, hand: Hand, seat: int) -> None:
    """``obs`` holds the seat's own cards and own discards, and no other seat's cards."""
    mine = [] if hand.folded[seat] else sorted(hand.hole_ids(seat))
    assert lay.held_cards(obs) == mine
    # the card slots: the rank and suit of each own card, in order; nothing after them
    w = lay.slot_width
    for j in range(lay.hand_size):
        slot = obs[lay.obs_slots + w * j : lay.obs_slots + w * (j + 1)]
        if j < len(mine):
            c = mine[j]
            assert slot.nonzero()[0].tolist() == [c >> 2, lay.deck_ranks + (c & 3)]
        else:
            assert not slot.any()
    thrown = obs[lay.obs_discards : lay.obs_discards + lay.deck_size]
    assert sorted(lay.deck[i] for i in thrown.nonzero()[0]) == sorted(set(hand.discards(seat)))
    # (a folded seat's cards are mucked: a reshuffle may deal them to this seat)
    others = {
        c for s in range(hand.n_players) if s != seat and not hand.folded[s]
        for c in hand.hole_ids(s)
    }  # fmt: skip
    assert not others & set(lay.held_cards(obs))


@pytest.mark.parametrize("name", REDUCED)
def test_an_observation_decodes_to_the_seats_own_cards_only(name: str) -> None:
    rules = Rules.variant(name)
    lay = layout_of(rules)
    n = 3 if name == "medium" else 2
    rng = np.random.default_rng(1)
    for seed in range(15):
        h = Hand(rules, [40] * n, button=seed % n, seed=seed)
        while True:
            for s in range(n):
                obs = lay.encode(h, s)
                assert obs.shape == (lay.observation_size(n),) and obs.dtype == np.float32
                assert 0.0 <= obs.min() and obs.max() <= 1.0
                check_private(lay, obs, h, s)
            if h.actor is None:
                break
            mask = lay.action_mask(h)
            assert mask.shape == (lay.n_actions,)
            lay.apply(h, int(rng.choice(np.flatnonzero(mask))))


def test_the_doctest_of_the_module_for_a_reduced_game() -> None:
    h = Hand(Rules.variant("tiny"), [100, 100], button=0, seed=3)
    lay = layout_of(h.rules)
    obs = lay.encode(h, h.actor)
    assert lay.held_cards(obs) == sorted(h.hole_ids(h.actor))
    assert lay.action_mask(h).tolist() == [1, 1, 1, 0, 0]


# -- the single-agent Gymnasium environment -------------------------------------------------------


@pytest.mark.parametrize("name", REDUCED)
def test_gym_check_env(name: str) -> None:
    env = TripleDrawEnv(variant=name)
    rules = Rules.variant(name, max_players=6)
    assert env.rules == rules
    assert env.observation_space.shape == (layout_of(rules).observation_size(2),)
    assert env.action_space.n == 3 + 2**rules.hand_size
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env, skip_render_check=True)


def test_gym_make_with_a_variant() -> None:
    env = gymnasium.make("triple_draw/TripleDraw-v0", variant="tiny")
    check_env(env.unwrapped, skip_render_check=True)
    obs, info = env.reset(seed=1)
    assert obs.shape == (45,) and info["action_mask"].shape == (5,)
    assert type(env.unwrapped.opponents[0]) is CallingStationBot  # the default here


@pytest.mark.parametrize("name", ["tiny", "medium"])
def test_gym_episodes_of_a_member(name: str) -> None:
    env = TripleDrawEnv(num_players=3, variant=name, opponents=["random", "call"])
    lay = env.layout
    rng = np.random.default_rng(2)
    total = 0.0
    obs, info = env.reset(seed=5)
    for _ in range(40):
        total += info["skipped_reward"]
        done = False
        while not done:
            assert env.hand is not None
            check_private(lay, obs, env.hand, env.seat)
            mask = env.action_masks()
            assert mask.tolist() == lay.action_mask(env.hand).astype(bool).tolist()
            obs, r, done, _, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        total += r
        obs, info = env.reset()
    again = TripleDrawEnv(num_players=3, variant=name, opponents=["random", "call"])
    a, _ = again.reset(seed=5)
    b, _ = env.reset(seed=5)
    assert np.array_equal(a, b)


def test_gym_a_five_card_member_takes_every_bot() -> None:
    env = TripleDrawEnv(rules=FIVE.replace(max_players=3), num_players=3,
                        opponents=["heuristic", "equity"])  # fmt: skip
    assert env.action_space.n == 35
    assert env.observation_space.shape == (layout_of(FIVE).observation_size(3),)
    rng = np.random.default_rng(0)
    env.reset(seed=1)
    for _ in range(3):
        done = False
        while not done:
            _, _, done, _, _ = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
        env.reset()


# -- PettingZoo ---------------------------------------------------------------------------------

EXPECTED_WARNINGS = (
    "Observation is not a NumPy array",
    "Observation space for each agent probably",
)


@pytest.mark.parametrize("name", ["tiny", "medium"])
def test_pettingzoo_api_and_seed_tests(name: str) -> None:
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test, seed_test

    from triple_draw.envs import triple_draw_v0

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(triple_draw_v0.env(variant=name), num_cycles=200)
        api_test(triple_draw_v0.env(num_players=3, rules=Rules.variant(name)), num_cycles=200)
    unexpected = [
        str(w.message) for w in caught if not str(w.message).startswith(EXPECTED_WARNINGS)
    ]
    assert not unexpected, unexpected
    seed_test(lambda: triple_draw_v0.env(variant=name), num_cycles=200)


@pytest.mark.parametrize("name", ["tiny", "medium"])
def test_pettingzoo_observations_and_state_of_a_member(name: str) -> None:
    pytest.importorskip("pettingzoo")
    from triple_draw.envs import triple_draw_v0

    env = triple_draw_v0.raw_env(num_players=2, variant=name)
    lay = env.layout
    rules = Rules.variant(name)
    d = len(rules.compiled.deck)
    assert env.action_space("player_0").n == lay.n_actions == 3 + 2**rules.hand_size
    assert env.state_space.shape == (2 * d * 2 + lay.observation_size(2),)
    rng = np.random.default_rng(3)
    for seed in range(10):
        env.reset(seed=seed)
        for _agent in env.agent_iter():
            obs, _reward, term, trunc, _ = env.last()
            hand = env.hand
            assert hand is not None
            for a in env.possible_agents:
                check_private(lay, env.observe(a)["observation"], hand, env._seat[a])
            state = env.state()
            for s in range(2):
                held = state[d * s : d * (s + 1)].nonzero()[0]
                assert [lay.deck[i] for i in held] == sorted(hand.hole_ids(s))
            if term or trunc:
                env.step(None)
                continue
            mask = obs["action_mask"]
            assert np.array_equal(mask, lay.action_mask(hand))
            env.step(int(rng.choice(np.flatnonzero(mask))))
        assert sum(env._cumulative_rewards.values()) == 0


# -- the batched environment ----------------------------------------------------------------------


def digest(*arrays: np.ndarray) -> str:
    h = hashlib.sha256()
    for a in arrays:
        h.update(np.ascontiguousarray(a).tobytes())
    return h.hexdigest()


def run_vector(env: TripleDrawVectorEnv, steps: int, seed: int, check: bool = True) -> str:
    """Play ``steps`` random legal steps; check every row against the engine's hands."""
    lay = env.layout
    n = env.num_players
    total = sum(env.stacks)
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    out = [digest(obs, info["action_mask"])]
    for _ in range(steps):
        mask = info["action_mask"]
        assert obs.shape == (env.num_envs, lay.observation_size(n))
        assert mask.shape == (env.num_envs, lay.n_actions)
        if check:
            for i, h in enumerate(env.hands):
                seat = env.learner if env.learner is not None else int(info["seat"][i])
                if h.actor is not None:
                    assert np.array_equal(mask[i], lay.action_mask(h))
                    assert np.array_equal(obs[i], lay.encode(h, seat))
                    check_private(lay, obs[i], h, seat)
                # chips are conserved: behind or in the pot, and all behind once it is over
                assert sum(h.stacks) + (0 if h.actor is None else sum(h.committed)) == total
        actions = env.sample_actions(mask, rng)
        obs, rewards, term, _trunc, info = env.step(actions)
        if env.learner is None:
            assert rewards.shape == (env.num_envs, n)
            assert np.all(rewards.sum(axis=1) == 0)
            assert np.all(rewards[~term] == 0)
        else:
            assert rewards.shape == (env.num_envs,)
        out.append(digest(obs, rewards, term, info["action_mask"]))
    return digest(*(np.frombuffer(bytes.fromhex(x), dtype=np.uint8) for x in out))


@pytest.mark.parametrize("name", ["tiny", "medium"])
@pytest.mark.parametrize("mode", ["self-play", "learner"])
def test_vector_env_plays_a_member(name: str, mode: str) -> None:
    kw: dict = {} if mode == "self-play" else {"learner": 1}
    n = 3 if name == "medium" else 2
    for autoreset in ("next_step", "same_step"):
        env = TripleDrawVectorEnv(
            num_envs=6, num_players=n, variant=name, autoreset_mode=autoreset, **kw
        )
        rules = Rules.variant(name, max_players=6)
        assert env.rules == rules
        lay = layout_of(rules)
        assert env.single_observation_space.shape == (lay.observation_size(n),)
        assert env.single_action_space.n == lay.n_actions
        assert env.action_space.nvec.tolist() == [lay.n_actions] * 6
        a = run_vector(env, 60, seed=4)
        if mode == "learner":  # the Python loop, chosen when the env was made
            assert env._compiled is False and env._loop is None
            assert all(type(b) is CallingStationBot for b in env.opponents)
        b = run_vector(
            TripleDrawVectorEnv(
                num_envs=6, num_players=n, rules=rules, autoreset_mode=autoreset, **kw
            ),
            60,
            seed=4,
            check=False,
        )
        assert a == b  # reproducible from the seed (and variant= is rules=)


def test_vector_env_learner_mode_with_random_opponents_and_pickle() -> None:
    env = TripleDrawVectorEnv(num_envs=4, num_players=3, variant="medium", learner=0,
                              opponents=["random", "call"], autoreset_mode="same_step")  # fmt: skip
    run_vector(env, 30, seed=9)
    twin = pickle.loads(pickle.dumps(env))
    rng = np.random.default_rng(0)
    for _ in range(20):
        mask = env._mask.copy()
        actions = TripleDrawVectorEnv.sample_actions(mask, rng)
        a = env.step(actions)
        b = twin.step(actions)
        assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])


def test_vector_env_full_variant_is_the_default_game() -> None:
    a = run_vector(TripleDrawVectorEnv(num_envs=4), 30, seed=3, check=False)
    b = run_vector(TripleDrawVectorEnv(num_envs=4, variant="full"), 30, seed=3, check=False)
    assert a == b


# -- bad input ----------------------------------------------------------------------------------


def makers() -> list:
    pytest.importorskip("pettingzoo")
    from triple_draw.envs.triple_draw_v0 import raw_env

    return [
        lambda **kw: TripleDrawEnv(opponents="random", **kw),
        lambda **kw: raw_env(**kw),
        lambda **kw: TripleDrawVectorEnv(num_envs=2, **kw),
        lambda **kw: TripleDrawVectorEnv(num_envs=2, learner=0, opponents="random", **kw),
    ]


def test_an_unknown_variant_is_refused() -> None:
    for make in makers():
        with pytest.raises(ArgumentError, match=r"variant must be one of \['full', 'medium'"):
            make(variant="huge")
        with pytest.raises(ArgumentError, match="variant must be one of"):
            make(variant=3)


def test_a_variant_with_the_rules_of_another_member_is_refused() -> None:
    for make in makers():
        with pytest.raises(ArgumentError, match="variant 'tiny' has deck_ranks=3"):
            make(variant="tiny", rules=Rules())
        # the rules of the variant's member: taken as they are (a raise cap of 2 here)
        rules = Rules.variant("tiny", raise_cap=2, max_players=2)
        assert make(variant="tiny", rules=rules).rules == rules
        with pytest.raises(ArgumentTypeError, match="rules must be a Rules"):
            make(rules={"deck_ranks": 3})


def test_a_table_the_deck_cannot_serve_is_refused() -> None:
    for make in makers():
        # 6 cards serve 5 players with one card in hand (their hands and one more)
        with pytest.raises(ArgumentError, match="hands for at most 5 players"):
            make(variant="tiny", num_players=6)
        with pytest.raises(ArgumentError, match="hands for at most 3 players"):
            make(variant="medium", num_players=4)
        with pytest.raises(ArgumentError, match="at most 2"):
            make(rules=Rules.variant("medium", max_players=2), num_players=3)
        assert make(variant="tiny", num_players=5).rules.max_players == 6


def test_a_bot_that_cannot_play_the_member_is_refused_when_the_env_is_made() -> None:
    for name in REDUCED:
        for opponents in ("heuristic", "equity", HeuristicBot(seed=1)):
            with pytest.raises(ReducedGameError, match="reads five-card hands"):
                TripleDrawEnv(variant=name, opponents=opponents)
            with pytest.raises(ReducedGameError, match="reads five-card hands"):
                TripleDrawVectorEnv(num_envs=2, variant=name, learner=0, opponents=opponents)
    with pytest.raises(ReducedGameError, match="TripleDrawEnv: EquityBot"):
        TripleDrawEnv(num_players=3, variant="medium", opponents=["random", "equity"])
    # a member of five cards in hand: every bot plays it
    assert TripleDrawVectorEnv(num_envs=2, rules=FIVE, learner=0).rules == FIVE


# -- the bots -----------------------------------------------------------------------------------


def test_which_bots_play_which_member() -> None:
    for name in REDUCED:
        rules = Rules.variant(name)
        assert plays_rules(RandomBot(), rules) and plays_rules(CallingStationBot(), rules)
        assert not plays_rules(HeuristicBot(), rules) and not plays_rules(EquityBot(), rules)
    for bot in (RandomBot(), CallingStationBot(), HeuristicBot(), EquityBot(), object()):
        assert plays_rules(bot, Rules()) and plays_rules(bot, FIVE)


def test_the_calling_stations_draw_with_a_short_hand() -> None:
    eight = 6  # the rank index of the eight
    assert _short_discard(to_ids("2c"), eight) == ()
    assert _short_discard(to_ids("9c"), eight) == tuple(to_ids("9c"))
    assert _short_discard(to_ids("4d 4c"), eight) == tuple(to_ids("4d"))  # break the pair
    assert _short_discard(to_ids("7c 3d Kh"), eight) == tuple(to_ids("Kh"))
    assert _short_discard(to_ids("3c 3d 3h 2s"), eight) == tuple(to_ids("3d 3h"))
    h = Hand(Rules.variant("medium", max_players=2), [20, 20], seed=2)
    bot = CallingStationBot()
    while h.actor is not None:
        act = bot.act(h.view(h.actor))
        if act.kind == "discard":
            held = h.hole_ids(h.actor)
            assert tuple(act.cards or ()) == _short_discard(held, eight)
        assert act.kind not in ("fold", "bet", "raise")
        h.apply(act)


def test_the_four_fields_are_parameters_as_in_the_openspiel_game() -> None:
    """``deck_ranks``, ``deck_suits``, ``hand_size`` and ``draws`` are parameters of every
    environment, as of the OpenSpiel game: alone they make a member from the real game's
    defaults, and each one given overrides the variant's or the rules' value."""
    for make in makers():
        env = make(deck_ranks=3, deck_suits=2, hand_size=1, draws=1)
        assert (env.rules.deck_ranks, env.rules.hand_size, env.rules.draws) == (3, 1, 1)
        assert env.rules.raise_cap == Rules().raise_cap  # (the variant's cap: not given)
        env = make(variant="small", hand_size=1)
        assert env.rules == Rules.variant("small", hand_size=1, max_players=env.rules.max_players)
        env = make(rules=Rules.variant("medium", max_players=2), draws=1)
        assert (env.rules.deck_ranks, env.rules.draws, env.rules.max_players) == (6, 1, 2)
        with pytest.raises(RulesError, match=r"deck_ranks must be 2\.\.13"):
            make(variant="tiny", deck_ranks=99)
        with pytest.raises(RulesError, match="draws must be an int"):
            make(draws="2")


def test_the_field_parameters_reach_gymnasium_make_and_a_pickled_pettingzoo_env() -> None:
    pytest.importorskip("pettingzoo")
    from triple_draw.envs.triple_draw_v0 import raw_env

    env = gymnasium.make("triple_draw/TripleDraw-v0", variant="small", hand_size=1)
    assert env.action_space.n == 3 + 2
    aec = raw_env(variant="medium", draws=1)
    assert pickle.loads(pickle.dumps(aec)).rules == aec.rules
