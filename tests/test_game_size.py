"""triple_draw.envs.game_size counts the OpenSpiel game's tree exactly: the same figures
as a walk of the whole tree with pyspiel, on members small enough to walk (each walk
here takes a few seconds), and the figures of the named members that docs/environments.md
gives."""

from __future__ import annotations

from typing import Any

import pytest

from triple_draw import Rules
from triple_draw.envs.game_size import GameSize, game_size
from triple_draw.errors import ArgumentError, ArgumentTypeError
from triple_draw.game.rules import VARIANTS

TINY = VARIANTS["tiny"]


def walk(game: Any) -> tuple[int, int]:
    """(information sets, histories) of ``game`` by a walk of its whole tree: every node,
    and the distinct information state strings of the decision nodes."""
    infos: set[str] = set()
    histories = 0
    stack = [game.new_initial_state()]
    while stack:
        s = stack.pop()
        histories += 1
        if s.is_terminal():
            continue
        if s.is_chance_node():
            actions = [a for a, _p in s.chance_outcomes()]
        else:
            infos.add(s.information_state_string())
            actions = s.legal_actions()
        stack.extend(s.child(a) for a in actions)
    return len(infos), histories


# Members small enough to walk, each testing something the count must follow: a 4-card
# deck with three draws runs out of cards (a reshuffle at nearly every draw) under each
# reshuffle rule and draw procedure; three players fold hands into the pool; two cards in
# hand throw and receive several cards across a reshuffle, passing over their own
# ("pokerstars"); short or uneven stacks, antes and the betting options change the
# betting; num_draws cuts it short. (A stack of 2 chips is all-in from the blinds: no
# betting, every draw.) The walk of small (18,646,721 histories) took 11 minutes and
# agrees too: too long for the suite.
FOUR = {**TINY, "deck_ranks": 2}
WALKED = {
    "tiny": {"variant": "tiny"},
    "4 cards, 3 draws": {**FOUR, "draws": 3, "stacks": 3},
    "4 cards, 3 draws, pokerstars": {**FOUR, "draws": 3, "stacks": 3, "reshuffle": "pokerstars"},
    "4 cards, 3 draws, pokerkit": {**FOUR, "draws": 3, "stacks": 3, "reshuffle": "pokerkit"},
    "4 cards, 3 draws, pokerkit, immediate": {  # (all-in from the blinds: draws only)
        **FOUR, "draws": 3, "stacks": 2, "reshuffle": "pokerkit", "draw_procedure": "immediate",
    },
    "4 cards, 3 players": {**FOUR, "players": 3},
    "2 cards in hand, pokerstars": {**TINY, "hand_size": 2, "stacks": 2, "reshuffle": "pokerstars"},
    "2 draws, num_draws 1": {**FOUR, "draws": 2, "num_draws": 1},
    "betting options": {
        **TINY, "big_blind_is_bet": False, "short_all_in": "full-raise",
        "seat_stacks": "5 8", "button": 1,
    },
    "ante, uncapped": {
        **TINY, "ante": 1, "stacks": 7, "small_bet": 3, "big_bet": 5, "heads_up_uncapped": True,
    },
}


@pytest.mark.parametrize("name", list(WALKED))
def test_the_count_is_the_walk(name: str) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    import triple_draw.envs.openspiel as tdo

    g = pyspiel.load_game("python_triple_draw", WALKED[name])
    assert isinstance(g, tdo.TripleDrawGame)
    got = game_size(g.rules, g.n, stacks=g.stacks, button=g.button, num_draws=g.num_draws)
    assert tuple(got) == walk(g)


def test_the_members() -> None:
    """The figures of docs/environments.md (the full game's information sets take ~25 s:
    its histories only here)."""
    rules = {name: Rules.variant(name) for name in VARIANTS}
    assert game_size(rules["tiny"]) == GameSize(1374, 33457)
    assert game_size(rules["small"]) == GameSize(42784, 18646721)
    assert game_size(rules["medium"]) == GameSize(37464708820, 20406686365626145)
    full = game_size(rules["full"], information_sets=False)
    assert full.histories == int(
        "22366640588364956031027504890138143762413696321810771310951592705"
    )
    assert full.information_sets == 0
    assert game_size(Rules(), information_sets=False) == full  # full is the real game


def test_refused() -> None:
    with pytest.raises(ArgumentTypeError, match="Rules"):
        game_size(TINY)  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match="hands for at most 5 players"):
        game_size(Rules(**TINY, max_players=6), 6)  # 6 cards serve 5 players with one in hand
    with pytest.raises(ArgumentError, match="num_players"):
        game_size(Rules(**TINY), 9)
    with pytest.raises(ArgumentError, match="burn"):
        game_size(Rules(**TINY, burn_cards=True))
    with pytest.raises(ArgumentError, match="num_draws"):
        game_size(Rules(**TINY), num_draws=2)
    with pytest.raises(ArgumentError, match="stacks"):
        game_size(Rules(**TINY), stacks=(10, 0))
    with pytest.raises(ArgumentError, match="button"):
        game_size(Rules(**TINY), button=2)
    with pytest.raises(ArgumentTypeError, match="information_sets must be a bool"):
        game_size(Rules(**TINY), information_sets="yes")  # type: ignore[arg-type]


def test_a_game_too_large_to_count_in_memory_is_refused() -> None:
    """The memo bound: medium needs a few thousand card states (within 20,000, over
    1,000); a bound below that refuses, in either count, and 0 lifts it."""
    medium = Rules.variant("medium")
    assert game_size(medium, max_states=20_000) == game_size(medium, max_states=0)
    with pytest.raises(ArgumentError, match="more than max_states=1,000 remembered"):
        game_size(medium, max_states=1_000)
    with pytest.raises(ArgumentError, match="more than max_states=100 remembered"):
        game_size(medium, information_sets=False, max_states=100)
    for bad in (-1, 1.5, "many", True):
        with pytest.raises(ArgumentError, match="max_states must be an int"):
            game_size(medium, max_states=bad)  # type: ignore[arg-type]
