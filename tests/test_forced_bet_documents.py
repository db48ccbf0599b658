"""Every document the engine writes restores, whatever the forced bets: antes, dead and
live entry posts, short and all-in blinds, no small blind (docs/security.md: a document
is believed only through its replay, which must find the forced bets that posted it)."""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from triple_draw import Hand, Rules
from conftest import play_randomly

EXAMPLES = int(os.environ.get("TD_EXAMPLES", "150"))


def restores_at_every_decision(h: Hand, seed: int) -> None:
    """Play ``h`` out at random; its document restores to itself at every decision."""

    def restores(h: Hand, *_: object) -> None:
        doc = h.to_dict()
        assert Hand.from_dict(doc).to_dict() == doc

    restores(h)
    play_randomly(h, seed, each=restores)


@pytest.mark.parametrize(
    ("stacks", "button", "options"),
    [
        ([1, 1, 2], 0, {"no_small_blind": True}),  # the big blind all-in from the ante
        ([1, 1, 2], 2, {"posts": {2: (2, 0)}}),  # both blinds all-in from the ante, a post
        ([1, 234, 374, 100], 3, {"no_small_blind": True}),
        ([1, 1, 1], 1, {}),  # every blind all-in from the ante: nothing posted at all
        ([3, 1, 5, 1], 0, {"posts": {3: (0, 1)}}),  # a dead post the ante leaves nothing for
    ],
)
def test_the_engines_own_documents_restore(stacks: list[int], button: int, options: dict) -> None:
    restores_at_every_decision(Hand(Rules(ante=1), stacks, button=button, seed=1, **options), 1)


@st.composite
def forced_hands(draw: st.DrawFn) -> tuple[Rules, list[int], int, dict, int]:
    n = draw(st.integers(2, 8))
    ante = draw(st.sampled_from([0, 0, 1, 2]))
    rules = Rules(ante=ante, max_players=8)
    stacks = [draw(st.sampled_from([1, 2, 3, 4, 6, 11, 50])) for _ in range(n)]
    button = draw(st.integers(0, n - 1))
    options: dict = {}
    if n > 2 and draw(st.booleans()):
        options["no_small_blind"] = True
        sb, bb = None, (button + 1) % n
    elif n == 2:
        sb, bb = button, 1 - button
    else:
        sb, bb = (button + 1) % n, (button + 2) % n
    posts = {}
    for s in range(n):
        if s not in (sb, bb) and draw(st.integers(0, 3)) == 0:
            live = draw(st.sampled_from([0, 1, 2]))
            dead = draw(st.sampled_from([0, 1])) if live else 1
            posts[s] = (live, dead)
    if posts:
        options["posts"] = posts
    return rules, stacks, button, options, draw(st.integers(0, 2**32))


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(forced_hands())
def test_random_forced_bets_round_trip_at_every_decision(case: tuple) -> None:
    rules, stacks, button, options, seed = case
    restores_at_every_decision(Hand(rules, stacks, button=button, seed=seed, **options), seed)
