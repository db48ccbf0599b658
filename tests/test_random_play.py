"""The tests' random-play driver (conftest.py: ``play_randomly``, ``random_action``) keeps
its promise that each option is one fixed sequence of calls on the generator. Seeded tests
count on it - thresholds such as "50 of these hands reshuffle" were met by these very
hands - so a change of the driver that changes its choices fails here, by name, rather
than as a shortfall somewhere else. The digests cover the choices only (each action's
kind, seat and amount, and how many cards a draw throws), not the cards: a change of the
deal leaves them alone."""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

import pytest

from triple_draw.game import Hand, Rules
from conftest import also_on, play_randomly, random_action

ACTIONS = {"fold", "check", "call", "bet", "raise", "discard"}

#: the option sets the suite uses (``draw`` names a function of the generator), and the
#: digest of the choices they make in :func:`digest`'s hands
POLICIES: dict[str, tuple[dict[str, Any], str]] = {
    "any action": ({}, "c9d3425e2fc86b8c"),
    "never fold": ({"fold": False}, "daf9d3c531f98b1c"),
    "weight 4": ({"weight": 4}, "bbf112e2b1046a40"),
    "weight 5, fold 2, any draw": (
        {"weight": 5, "fold_weight": 2, "draw": "any"},
        "2374f3f9b0fdff5d",
    ),
    "weight 5, heavy 0.3": ({"weight": 5, "draw_heavy": 0.3}, "0172c79e9f8e4544"),
    "weight 8, heavy 0.7": ({"weight": 8, "draw_heavy": 0.7}, "2ead574c4a1c2809"),
    "weight 4, heavy 0.6": ({"weight": 4, "draw_heavy": 0.6}, "c77b528d437a662e"),
    "heavy 0.4": ({"draw_heavy": 0.4}, "95935b519f72f4f9"),
    "weight 6, each card 0.8": ({"weight": 6, "discard_each": 0.8}, "27945ade20776027"),
    "each card 0.5": ({"discard_each": 0.5}, "c943e665912700de"),
    "fold chance 0.15, sizes": ({"fold_chance": 0.15, "draw": "sizes"}, "689c413d31a6028b"),
}
#: :func:`random_action` alone (a loop of the test's own, applying its actions)
ACTION_POLICIES = {
    "each card 0.4, fold chance 0.2": (
        {"discard_each": 0.4, "fold_chance": 0.2},
        "e38810305572e0b9",
    ),
}
DRAWS = {
    "any": lambda rng: rng.choice,
    "sizes": lambda rng: lambda c: c[rng.choice((0, 31, 31, 15, 7))],  # test_record's
}


def digest(play: Any) -> str:
    out = []
    for seed in range(30):
        rng = random.Random(seed)
        n = 2 + seed % 7
        stacks = [rng.choice([3, 9, 40, 200]) for _ in range(n)]
        h = Hand(Rules(max_players=8), stacks, rng.randrange(n), seed)
        play(h, rng)
        out.append(
            [
                (e.kind, e.seat, e.amount, len(e.cards or ()) if e.kind == "discard" else None)
                for e in h.history
                if e.kind in ACTIONS
            ]
        )
    return hashlib.sha256(json.dumps(out).encode()).hexdigest()[:16]


def _options(options: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    if "draw" in options:
        return dict(options, draw=DRAWS[options["draw"]](rng))
    return options


@pytest.mark.parametrize("name", list(POLICIES))
def test_each_option_of_the_driver_makes_the_same_choices(name: str) -> None:
    options, want = POLICIES[name]
    got = digest(lambda h, rng: play_randomly(h, rng, **_options(options, rng)))
    assert got == want, f"play_randomly's choices changed: {name}"


@pytest.mark.parametrize("name", list(ACTION_POLICIES))
def test_each_option_of_random_action_makes_the_same_choices(name: str) -> None:
    options, want = ACTION_POLICIES[name]

    def play(h: Hand, rng: random.Random) -> None:
        while h.actor is not None:
            h.apply(random_action(h, rng, **options))

    assert digest(play) == want, f"random_action's choices changed: {name}"


def test_steps_until_and_each() -> None:
    h = play_randomly(Hand(Rules(), [100] * 4, seed=1), 1, steps=3)
    assert sum(e.kind in ACTIONS for e in h.history) == 3
    h = play_randomly(Hand(Rules(), [100] * 4, seed=1), 1, until=lambda h: h.in_draw)
    assert h.in_draw and h.street == 0
    seen: list[int] = []
    twin = Hand(Rules(), [100] * 4, seed=1)
    h = Hand(Rules(), [100] * 4, seed=1)
    play_randomly(h, 1, each=lambda h, a: seen.append(len(h.history)))
    assert h.is_over and len(seen) == sum(e.kind in ACTIONS for e in h.history)
    play_randomly(Hand(Rules(), [100] * 4, seed=1), 1, each=also_on(twin))
    assert twin.to_dict() == h.to_dict()


def test_options_that_exclude_each_other_are_refused() -> None:
    h = Hand(Rules(), [100] * 3, seed=1)
    with pytest.raises(TypeError, match="at most one"):
        play_randomly(h, 1, weight=4, fold=False)
    with pytest.raises(TypeError, match="at most one"):
        play_randomly(h, 1, draw_heavy=0.3, discard_each=0.5)
    assert h.history == Hand(Rules(), [100] * 3, seed=1).history  # refused before any action
