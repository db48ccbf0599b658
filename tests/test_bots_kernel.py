"""The heuristic bot's compiled decisions against the Python heuristic they replaced
(the reference below is that code, kept as the test oracle): the same discards, the same
betting decision for the same random number, over observations of real hands with every
rules preset and many table sizes, and the standard discard rule over a large sample of
hands. Same decisions keep seeded simulations reproducible across the change."""

from __future__ import annotations

import random
from itertools import pairwise
from math import comb
from collections.abc import Mapping
from typing import Any, ClassVar

import pytest

from triple_draw import HandRank
from triple_draw._core import rank_ids
from triple_draw.bots import (
    CallingStationBot,
    HeuristicBot,
    Observation,
    RandomBot,
    standard_discard,
    worst_low,
)
from triple_draw.game import Hand, Rules
from triple_draw.game.cards import RANKS
from triple_draw.simulation import simulate

_TEXT_ID = {r + s: i for i, (r, s) in enumerate((r, s) for r in RANKS for s in "cdhs")}

# -- the reference: the Python heuristic as it was ---------------------------------------------

_WORST_LOW: dict[int, int] = {}
_acc = 0
for _top in range(5, 13):
    _acc += comb(_top, 4) - 1
    _WORST_LOW[_top] = _acc
_NO_PAIR_WORST = 1278


def make_action(kind: str, amount: Any = None, cards: Any = None) -> tuple[Any, ...]:
    return (kind, amount, cards)


def _betting_action(kind: str, amount: Any = None) -> tuple[Any, ...]:
    return (kind, amount, None)


def _discard_action(cards: tuple[int, ...]) -> tuple[Any, ...]:
    return ("discard", None, tuple(sorted(cards)))


def _discard_rule(ids: list[int], rank: int, keep_max: int, pat_max: int) -> tuple[int, ...]:
    if rank <= pat_max:
        return ()
    if len(ids) == 5 and len({c >> 2 for c in ids}) == 5:
        # five distinct ranks (no pair, straight, flush): nothing to break, throw what is
        # above keep_max, or the top card if all five are at or below it
        throw = [c for c in ids if c >> 2 > keep_max]
        if not throw:
            return (max(ids),)
        throw.sort()
        return tuple(throw)
    # by ascending id, so the cards of one rank are adjacent and in id order
    srt = sorted(ids)
    count = [0] * 13
    for c in srt:
        count[c >> 2] += 1
    keep: list[int] = []
    suits = [0, 0, 0, 0]
    for c in srt:
        r = c >> 2
        if r <= keep_max and count[r] == 1:
            keep.append(c)
            suits[c & 3] += 1
    # then one card of each pair (trips, quads), lowest rank first: the one whose suit
    # the kept cards use least, the lowest id on a tie
    i = 0
    m = len(srt)
    while i < m:
        best = srt[i]
        if best >> 2 > keep_max:
            break
        k = count[best >> 2]
        if k > 1:
            low = suits[best & 3]
            for c in srt[i + 1 : i + k]:
                if suits[c & 3] < low:
                    best = c
                    low = suits[c & 3]
            keep.append(best)
            suits[best & 3] += 1
        i += k
    if len(keep) == 5:
        keep.remove(max(ids))
    return tuple([c for c in srt if c not in keep])


# A heads-up equity guess for a finished hand, by rank: linear between these anchors.
_MADE_ANCHORS = (
    (1, 0.97),
    (4, 0.93),
    (18, 0.81),
    (52, 0.66),
    (121, 0.52),
    (246, 0.40),
    (455, 0.30),
    (784, 0.22),
    (1278, 0.15),
    (1279, 0.07),
    (7462, 0.0),
)
# ... and for a draw of k cards with one draw to come; each extra draw adds _DRAW_EXTRA[k].
_DRAW_BASE = (0.0, 0.50, 0.36, 0.24, 0.15, 0.10)
_DRAW_EXTRA = (0.0, 0.08, 0.07, 0.06, 0.04, 0.03)


def _made_equity(rank: int) -> float:
    prev_r, prev_e = _MADE_ANCHORS[0]
    if rank <= prev_r:
        return prev_e
    for r, e in _MADE_ANCHORS[1:]:
        if rank <= r:
            return prev_e + (e - prev_e) * (rank - prev_r) / (r - prev_r)
        prev_r, prev_e = r, e
    return 0.0


#: _MADE_EQUITY[rank] == _made_equity(rank) for every rank 1..7462 (a table lookup in the
#: bots' hot path; built with the same expression, so the floats are identical)
_MADE_EQUITY = [_MADE_ANCHORS[0][1]] * (_MADE_ANCHORS[0][0] + 1)
for (_pr, _pe), (_r, _e) in pairwise(_MADE_ANCHORS):
    _MADE_EQUITY += [_pe + (_e - _pe) * (_k - _pr) / (_r - _pr) for _k in range(_pr + 1, _r + 1)]
del _pr, _pe, _r, _e


def _my_bet(view: Mapping[str, Any]) -> int:
    me = view["seat"]
    for p in view["players"]:
        if p["seat"] == me:
            return int(p["bet"])
    return 0  # pragma: no cover


def _round_action(history: list[dict[str, Any]]) -> tuple[int, bool]:
    """Bets and raises in the current betting round, and whether anybody has acted
    voluntarily in it (called, bet or raised)."""
    raises = 0
    voluntary = False
    for h in reversed(history):
        k = h["kind"]
        if k == "begin_round":
            break
        if k in ("bet", "raise"):
            raises += 1
            voluntary = True
        elif k == "call":
            voluntary = True
    return raises, voluntary


def _seats_behind(me: int, view: Mapping[str, Any]) -> int:
    """Players still in who act after ``me`` up to the big blind in the first round."""
    n = view["n_players"]
    bb = view["big_blind_seat"]
    players = view["players"]
    count = 0
    j = me
    while j != bb:
        j = (j + 1) % n
        if not players[j]["folded"] and not players[j]["all_in"]:
            count += 1
    return count


def _last_to_act(me: int, button: int, view: Mapping[str, Any]) -> bool:
    """After the first draw the order starts left of the button: is ``me`` the last live
    player in it (in position)?"""
    n = view["n_players"]
    players = view["players"]
    j = button
    for _ in range(n):
        if not players[j]["folded"]:
            return bool(j == me)
        j = (j - 1) % n
    return False  # pragma: no cover


class RefHeuristic:
    def __init__(self, rng: random.Random, keep_max: int, pat_max: dict[int, int],
                 bluff: float, aggression: float) -> None:  # fmt: skip
        self.rng = rng
        self.keep_max = keep_max
        self.pat_max = pat_max
        self.bluff = bluff
        self.aggression = aggression

    def _pat_max(self, draws_left: int, opp_last: list[int]) -> int:
        pm = self.pat_max[draws_left]
        if draws_left == 1 and opp_last and min(opp_last) >= 2:
            pm = max(pm, _WORST_LOW[8])  # they are far behind: a ten-low is good enough
        return pm

    def discard(
        self, ids: list[int], rank: int, draws_left: int, opp_last: list[int]
    ) -> tuple[int, ...]:
        """The ids this bot throws with ``draws_left`` draws to come (this one included)."""
        return _discard_rule(ids, rank, self.keep_max, self._pat_max(draws_left, opp_last))

    def _equity(self, ids: list[int], rank: int, draws_left: int, opp_last: list[int]) -> float:
        """Heads-up equity guess against one typical opponent."""
        if draws_left == 0:
            e = _MADE_EQUITY[rank]
        else:
            throw = self.discard(ids, rank, draws_left, opp_last)
            k = len(throw)
            if k == 0:
                e = _MADE_EQUITY[rank] + 0.02 * draws_left
            else:
                kept = [c >> 2 for c in ids if c not in throw]
                e = _DRAW_BASE[k] + _DRAW_EXTRA[k] * (draws_left - 1)
                if kept and max(kept) <= 5:  # drawing to a seven
                    e += 0.05
                if rank <= _NO_PAIR_WORST:
                    e = max(e, 0.85 * _MADE_EQUITY[rank])  # a rough made hand is a draw too
            if opp_last:
                mine = len(throw)
                for d in opp_last:
                    if d == 0 and mine > 0:
                        e -= 0.10  # he stood pat and we still draw
                    elif d > mine:
                        e += 0.05  # he draws more than we do
                    elif d < mine:
                        e -= 0.04
        if draws_left == 0 and opp_last:
            for d in opp_last:
                if d == 0:
                    e -= 0.06
                elif d >= 2:
                    e += 0.06  # he drew two or more to the end: often a miss
        return min(0.98, max(0.01, e))

    def act(self, view: dict[str, Any]) -> tuple[Any, ...]:
        ids = [_TEXT_ID[t] for t in view["hole_cards"]]
        rank = rank_ids(ids)
        street = view["street"]
        me = view["seat"]
        # the live opponents, and how many cards each drew at the last draw so far
        # (``_opponents``, inlined)
        n_opps = 0
        opp_last = []
        for pl in view["players"]:
            if pl["seat"] != me and not pl["folded"]:
                n_opps += 1
                d = pl["draws"]
                if d:
                    opp_last.append(d[-1])
        draws_left = 3 - street
        if view["phase"] == "draw":
            return _discard_action(self.discard(ids, rank, draws_left, opp_last))
        legal = {d["kind"]: d for d in view["legal_actions"]}
        rng = self.rng
        e = self._equity(ids, rank, draws_left, opp_last) + rng.uniform(-0.03, 0.03)
        e = min(0.98, max(0.01, e))
        n = max(1, n_opps)
        # chance to win against n opponents: e = 0.5 gives the fair share 1/(n+1)
        p = min(0.97, (2.0 * e) ** n / (n + 1))
        fair = 1.0 / (n + 1)
        agg = self.aggression
        # (the position and the round's action are read from the view only where needed)
        call = legal.get("call")
        if call is not None:
            to_call = call["amount"] - _my_bet(view)
            odds = to_call / (view["pot"] + to_call)
            if "raise" in legal:
                raises, voluntary = _round_action(view["history"])
                # late: button, blinds (fewer players behind)
                if street == 0 and not voluntary and _seats_behind(me, view) <= 2:
                    # first in from late position: raise or fold, do not limp
                    if p >= fair * 1.15 / agg:
                        return _betting_action("raise", legal["raise"]["amount"])
                    if view["big_blind_seat"] != me and view["small_blind_seat"] != me:
                        return make_action("fold")
                if p >= fair * (1.6 + 0.3 * max(0, raises - 1)) / agg and p > 0.4:
                    return _betting_action("raise", legal["raise"]["amount"])
            # drawing hands get implied odds while there are draws left
            if p >= odds * (0.75 if draws_left else 1.0):
                return _betting_action("call", call["amount"])
            return make_action("fold")
        # nothing to call: check, bet (or the big blind's raise option)
        kind = "bet" if "bet" in legal else "raise" if "raise" in legal else None
        if kind is not None:
            if street == 0:
                late = _seats_behind(me, view) <= 2
            else:
                late = _last_to_act(me, view["button"], view)
            threshold = fair * (1.35 if late else 1.55) / agg
            if p >= threshold and p > 0.3:
                return _betting_action(kind, legal[kind]["amount"])
            if (
                street > 0
                and late
                and n == 1
                and opp_last
                and opp_last[0] > 0
                and rng.random() < self.bluff
            ):
                return _betting_action(kind, legal[kind]["amount"])
        return make_action("check")


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


def _reference(bot: HeuristicBot, view: dict[str, Any], seed: int) -> tuple[Any, ...]:
    ref = RefHeuristic(
        random.Random(seed), bot.keep_max, dict(bot.pat_max), bot.bluff, bot.aggression
    )
    return ref.act(view)


def test_compiled_heuristic_decides_as_the_python_reference() -> None:
    checked = 0
    for view in _situations(6000):
        for k, bot in enumerate(BOTS):
            seed = checked * 7 + k
            want = _reference(bot, view, seed)
            bot.reseed(seed)
            got = bot.act(view)
            assert (got.kind, got.amount, got.cards) == want, (view, bot)
            checked += 1
    assert checked >= 18000


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


def test_reference_discard_rule_equals_the_kernel_on_many_hands() -> None:
    rng = random.Random(5)
    for i in range(40_000):
        ids = rng.sample(range(52), 5)
        rank = rank_ids(ids)
        keep = (6, 7, 5, 8, 12)[i % 5]
        pat = (_WORST_LOW[keep] if keep >= 5 else 0) if i % 3 else rng.choice([0, 1, 18, 300])
        assert standard_discard(ids, keep, pat) == _discard_rule(ids, rank, keep, pat), ids


@pytest.mark.parametrize("top", range(5, 13))
def test_worst_low_is_the_core_threshold(top: int) -> None:
    assert worst_low(top) == _WORST_LOW[top]
    assert HandRank(worst_low(top)).category == "no pair"


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
