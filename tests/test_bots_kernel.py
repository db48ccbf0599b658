"""The bots' kernels of the two cores against each other: the heuristic bot's compiled
decisions (``rust/bots.rs``) and their pure-Python reference (``triple_draw.reference.bots``)
give the same discards and the same betting decision for the same random number, over
observations of real hands with every rules preset and many table sizes; the standard
discard rule agrees over a large sample of hands. Equal decisions keep a seeded
simulation identical on either core."""

from __future__ import annotations

import random
from math import comb
from typing import Any, ClassVar

import pytest

from triple_draw import HandRank, _core, reference
from triple_draw.bots import (
    CallingStationBot,
    HeuristicBot,
    Observation,
    RandomBot,
    standard_discard,
    worst_low,
)
from triple_draw.errors import TripleDrawError
from triple_draw.game import Hand, Rules
from triple_draw.simulation import simulate

# -- the comparisons ---------------------------------------------------------------------------

PRESETS = [
    Rules(),
    Rules.online(2, max_players=8),
    Rules.wsop(2, max_players=8),
    Rules.pokerkit(2),
    Rules(short_all_in="full-raise", raise_cap=4, ante=1, max_players=8),
]
BOTS = [
    HeuristicBot(seed=1),
    HeuristicBot(seed=2, keep_max="9", bluff=0.6, aggression=1.7, pat={1: "T", 2: 30}),
    HeuristicBot(seed=3, keep_max="7", bluff=0.0, aggression=0.6, pat={3: "7"}),
]


def _situations(count: int) -> list[dict[str, Any]]:
    """Views of the seat to act in hands played by mixed bots (short stacks too, so that
    all-ins and side pots occur)."""
    rng = random.Random(11)
    views: list[dict[str, Any]] = []
    while len(views) < count:
        rules = rng.choice(PRESETS)
        n = rng.randint(2, min(8, rules.max_players))
        stacks = [rng.choice([3, 9, 25, 80, 400]) for _ in range(n)]
        hand = Hand(rules, stacks, button=rng.randrange(n), seed=rng.getrandbits(64))
        players = [
            rng.choice([HeuristicBot, RandomBot, CallingStationBot])(seed=s) for s in range(n)
        ]
        while hand.actor is not None:
            a = hand.actor
            view = hand.view(a)
            views.append(view)
            hand.apply(players[a].act(view))
    return views


def test_the_heuristic_kernels_of_both_cores_decide_alike() -> None:
    """The same (code, cards) from the compiled and the reference kernel, for every
    observation, bot and a spread of random numbers (the jitter of the betting thresholds)."""
    rng = random.Random(3)
    checked = 0
    for view in _situations(6000):
        obs = Observation.from_view(view)
        for bot in BOTS:
            for r in (rng.random(), 0.0, 0.999999):
                want = _core.bots_heuristic(bot._params, obs, r)
                assert reference.bots_heuristic(bot._params, obs, r) == want, (obs, bot)
                checked += 1
    assert checked >= 54000


def test_heuristic_bots_on_either_core_act_alike() -> None:
    """Whole bots (their own random stream, the bluff roll) act the same on both cores."""
    for i, view in enumerate(_situations(3000)):
        for k, bot in enumerate(BOTS):
            twin = HeuristicBot(
                keep_max=bot.keep_max,
                pat=dict(bot.pat_max),
                bluff=bot.bluff,
                aggression=bot.aggression,
                core="reference",
            )
            bot.reseed(i * 7 + k)
            twin.reseed(i * 7 + k)
            assert bot.act(view) == twin.act(view), (view, bot)


class _RecordDecide(HeuristicBot):
    """Decides from the observation simulate builds, and records it."""

    seen: ClassVar[list[Observation]] = []

    def decide(self, obs: Observation) -> Any:
        type(self).seen.append(obs)
        return super().decide(obs)


class _RecordView(HeuristicBot):
    """Decides from the full view, and records the observation of that view."""

    seen: ClassVar[list[Observation]] = []

    def act(self, view: dict[str, Any]) -> Any:
        type(self).seen.append(Observation.from_view(view))
        return super().act(view)


@pytest.mark.parametrize("mode", ["independent", "table"])
@pytest.mark.parametrize("rules", PRESETS[:4], ids=["live", "online", "wsop", "pokerkit"])
def test_simulate_observations_equal_the_observations_of_the_views(rules: Rules, mode: str) -> None:
    """What simulate hands a bot is exactly what the seat's view shows, nothing more."""
    n = 7 if rules.max_players >= 7 else 5
    _RecordDecide.seen = []
    _RecordView.seen = []
    kw: dict[str, Any] = dict(hands=120, seed=9, chunk_size=60, rules=rules, stack=40, mode=mode)
    a = simulate([_RecordDecide(), *[RandomBot() for _ in range(n - 1)]], **kw)
    b = simulate([_RecordView(), *[RandomBot() for _ in range(n - 1)]], **kw)
    assert a == b
    assert len(_RecordDecide.seen) > 200
    assert _RecordDecide.seen == _RecordView.seen


def test_standard_discard_of_both_cores_agrees_on_many_hands() -> None:
    rng = random.Random(5)
    for i in range(40_000):
        ids = rng.sample(range(52), 5)
        keep = (6, 7, 5, 8, 12, 0, 3)[i % 7]
        pat = (worst_low(keep) if keep >= 5 else 0) if i % 3 else rng.choice([0, 1, 18, 300, 7462])
        want = standard_discard(ids, keep, pat)
        assert standard_discard(ids, keep, pat, core="reference") == want, ids


#: The worst no-pair hand topped by rank index ``top`` (5 = seven .. 12 = ace), counted
#: from the rules: each lower top adds C(top, 4) four-card sets below it, less the straight.
_WORST_LOW = {top: sum(comb(t, 4) - 1 for t in range(5, top + 1)) for top in range(5, 13)}


@pytest.mark.parametrize("top", range(5, 13))
@pytest.mark.parametrize("core", ["compiled", "reference"])
def test_worst_low_is_the_count_of_lows_on_either_core(top: int, core: str) -> None:
    assert worst_low(top, core=core) == _WORST_LOW[top]
    assert HandRank(worst_low(top)).category == "no pair"


@pytest.mark.parametrize("top", ["2", "6", 4, 13, "X"])
def test_worst_low_refuses_a_top_card_below_a_seven(top: Any) -> None:
    with pytest.raises(TripleDrawError):
        worst_low(top)


@pytest.mark.parametrize(
    "args",
    [
        ((1, 2, 3, 4), 6, 18),
        ((1, 2, 3, 4, 4), 6, 18),
        ((1, 2, 3, 4, 52), 6, 18),
        ((1, 2, 3, 4, "5"), 6, 18),
        ((1, 2, 3, 4, 5), 13, 18),
        ((1, 2, 3, 4, 5), 6, 7463),
        ((1, 2, 3, 4, 5), -1, 0),
        ("1 2 3 4 5", 6, 18),
    ],
)
def test_bad_discard_kernel_input_is_refused_alike_by_both_cores(args: Any) -> None:
    for kernel in (_core.bots_standard_discard, reference.bots_standard_discard):
        with pytest.raises(TripleDrawError):
            kernel(*args)


def test_bad_observations_are_refused_alike_by_both_cores() -> None:
    good = Observation.from_view(_situations(1)[0])
    params = BOTS[0]._params
    bad = [
        good._replace(seat=9),
        good._replace(phase="showdown"),
        good._replace(street=7),
        good._replace(n_players=1),
        good._replace(folded=(False,)),
        good._replace(hole=(1, 1, 2, 3, 4)),
        good[:5],
    ]
    for obs in bad:
        for kernel in (_core.bots_heuristic, reference.bots_heuristic):
            with pytest.raises(TripleDrawError):
                kernel(params, obs, 0.5)
    for kernel in (_core.bots_heuristic, reference.bots_heuristic):
        with pytest.raises(TripleDrawError):
            kernel((13, 1, 1, 1, 1.0), good, 0.5)


class _HeuristicViaDecide(HeuristicBot):
    """The same bot; as a subclass it is played through decide() and Hand.apply."""


@pytest.mark.parametrize("mode", ["independent", "table"])
@pytest.mark.parametrize("rules", PRESETS, ids=["live", "online", "wsop", "pokerkit", "opts"])
def test_simulate_applies_the_heuristic_codes_as_decide_would(rules: Rules, mode: str) -> None:
    """simulate applies HeuristicBot.choose's codes straight to the engine; the results
    equal those of the same bots played through decide() and Hand.apply."""
    n = min(6, rules.max_players)
    kw: dict[str, Any] = dict(hands=150, seed=21, chunk_size=50, rules=rules, stack=30, mode=mode)
    params: dict[str, Any] = dict(keep_max="9", bluff=0.5, aggression=1.4)
    fast = simulate([HeuristicBot(**params) for _ in range(n)], **kw)
    slow = simulate([_HeuristicViaDecide(**params) for _ in range(n)], **kw)
    assert [s.to_dict() | {"bot": ""} for s in fast.seats] == [
        s.to_dict() | {"bot": ""} for s in slow.seats
    ]
    assert fast.showdowns == slow.showdowns and fast.pot_total == slow.pot_total


def test_heuristic_decides_in_a_hand_without_a_small_blind() -> None:
    # a table under the dead-button rule deals hands with no small blind (the seat left of
    # the button posts the big blind): both cores decide, and decide alike
    for seed in range(40):
        h = Hand(Rules(), [60, 80, 100, 120], button=seed % 4, seed=seed, no_small_blind=True)
        bots = [HeuristicBot(seed=seed, core="compiled"), HeuristicBot(seed=seed, core="reference")]
        while h.actor is not None:
            obs = Observation.from_view(h.view(h.actor))
            assert obs.small_blind_seat is None
            compiled, reference_ = (b.decide(obs) for b in bots)
            assert compiled == reference_
            h.apply(compiled)
