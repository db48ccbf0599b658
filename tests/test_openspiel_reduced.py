"""The reduced games as OpenSpiel games: the variants, their parameters, and CFR+ solving
the smallest (issue #24, section 1)."""

from __future__ import annotations

import pytest

pyspiel = pytest.importorskip("pyspiel")

import triple_draw.envs.openspiel as tdo  # noqa: E402
from triple_draw.errors import ArgumentError, IllegalActionError, ReducedGameError  # noqa: E402

GAME = "python_triple_draw"
TINY_DECK = (0, 1, 4, 5, 8, 9)  # 2c 2d 3c 3d 4c 4d


def load(**params: object) -> tdo.TripleDrawGame:
    g = pyspiel.load_game(GAME, params)
    assert isinstance(g, tdo.TripleDrawGame)
    return g


@pytest.mark.parametrize("variant", sorted(tdo.VARIANTS))
def test_variants_load_with_their_rules(variant: str) -> None:
    g = load(variant=variant)
    want = tdo.VARIANTS[variant]
    for key, value in want.items():
        assert getattr(g.rules, key) == value
    assert g.rules.reduced == (variant != "full")
    assert g.n == 2 and g.num_distinct_actions() == 35


def test_default_is_the_real_game() -> None:
    g = load()
    assert not g.rules.reduced and g.rules.raise_cap == 3
    assert g.max_chance_outcomes() == 52


def test_tiny() -> None:
    g = load(variant="tiny")
    assert g.deck == TINY_DECK
    assert g.max_chance_outcomes() == 10  # card ids of the 52-card deck
    s = g.new_initial_state()
    assert [c for c, _p in s.chance_outcomes()] == list(TINY_DECK)
    s.apply_action(0)
    s.apply_action(9)
    assert not s.is_chance_node() and s.hand is not None
    assert [len(s.hand.hole_ids(p)) for p in range(2)] == [1, 1]
    with pytest.raises(IllegalActionError):
        g.new_initial_state().apply_action(12)  # 5c: not in tiny's deck


def test_explicit_parameters_override_the_variant() -> None:
    g = load(variant="tiny", raise_cap=2, deck_ranks=4, hand_size=2)
    assert (g.rules.raise_cap, g.rules.deck_ranks, g.rules.deck_suits) == (2, 4, 2)
    assert (g.rules.hand_size, g.rules.draws) == (2, 1)
    assert load(variant="full", draws=1).rules.draws == 1
    assert load(deck_ranks=5).rules.deck_ranks == 5  # a reduced game without a variant


def test_only_the_hand_size_discards_are_legal() -> None:
    g = load(variant="small")  # two cards in hand: 4 discards
    s = g.new_initial_state()
    while s.is_chance_node():
        s.apply_action(s.chance_outcomes()[0][0])
    while not (s.hand is not None and s.hand.in_draw):
        s.apply_action(1)  # call, check
    assert s.legal_actions() == [3, 4, 5, 6]
    with pytest.raises(IllegalActionError):
        s.apply_action(7)


def test_refused_parameters() -> None:
    with pytest.raises(ArgumentError, match="variant"):
        load(variant="huge")
    with pytest.raises(ArgumentError, match="num_draws"):
        load(variant="tiny", num_draws=2)
    with pytest.raises(ArgumentError, match="players"):
        load(variant="tiny", players=6)  # 6 cards serve 5 players with one in hand
    with pytest.raises(ArgumentError):
        load(deck_ranks=2, deck_suits=1)
    assert load(variant="medium", num_draws=1).num_draws == 1
    assert load(variant="tiny", num_draws=3).num_draws == 1  # 3: every draw


def test_resample_refuses_a_reduced_game() -> None:
    s = load(variant="tiny").new_initial_state()
    while s.is_chance_node():
        s.apply_action(s.chance_outcomes()[0][0])
    with pytest.raises(ReducedGameError):
        s.resample_from_infostate(0)


@pytest.mark.parametrize("variant", ["tiny", "small", "medium"])
def test_random_sim(variant: str) -> None:
    pyspiel.random_sim_test(load(variant=variant), num_sims=30, serialize=True, verbose=False)


def test_cfr_plus_solves_tiny() -> None:
    """CFR+ (OpenSpiel's C++ solver) on tiny: 10 iterations bring the average policy's
    exploitability (0.373 chips measured) below a fifth of uniform random play's (3.04
    chips = 1.52 big blinds) and below 0.2 big blind (0.4 chips); CFR+ is deterministic,
    so this passes by solving only. The full run (examples/reduced_games_solvers.py,
    docs/environments.md) goes below 0.01 big blind (0.02 chips) within 50 iterations,
    about a minute of solving: too long for the suite (each exploitability here walks
    tiny's whole tree, ~8 s)."""
    g = load(variant="tiny")
    uniform = pyspiel.exploitability(g, pyspiel.UniformRandomPolicy(g))
    assert uniform == pytest.approx(3.0407, abs=1e-3)
    solver = pyspiel.CFRPlusSolver(g)
    for _ in range(10):
        solver.evaluate_and_update_policy()
    e = pyspiel.exploitability(g, solver.average_policy())
    assert e < uniform / 5
    assert e < 0.2 * g.rules.big_blind
