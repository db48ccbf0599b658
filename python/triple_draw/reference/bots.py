"""The bundled bots' decisions in plain Python: the standard discard rule and the
heuristic bot's drawing and betting, the reference twin of the compiled kernels
(``rust/bots.rs``).

The two functions have the signatures of the compiled ones, so the core switch
(:mod:`triple_draw.game.core`) can hand either to the bots:

- :func:`bots_standard_discard` ``(cards, keep_max, pat_max)``: the sorted ids the
  standard rule throws from five cards;
- :func:`bots_heuristic` ``(params, obs, r)``: the heuristic bot's decision for an
  :class:`~triple_draw.bots.Observation` as ``(code, cards)``.

Every floating-point expression is written in the same order as the compiled one, so a
seeded simulation on the reference core gives the very same results (the tests hold the
two equal decision by decision).

>>> bots_standard_discard([44, 17, 10, 5, 1], 6, 18)  # Kc 6d 4h 3d 2d: throw the king
(44,)
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import pairwise
from typing import Any

from triple_draw.errors import ArgumentError, CardError
from triple_draw.reference.evaluator import CLASS_COUNT, rank_ids

__all__ = ["bots_heuristic", "bots_standard_discard", "made_equity", "worst_low"]

#: Decision codes of :func:`bots_heuristic`: the contract's, ``triple_draw.bots.Decision``
#: (written out here, as the reference imports nothing of the package; a test holds the
#: three - this, the enum and the compiled core's ``DECISION_NAMES`` - equal).
FOLD, CHECK, CALL, BET_OR_RAISE, BLUFF_OR_CHECK, DISCARD = range(6)

_DRAW_BASE = (0.0, 0.50, 0.36, 0.24, 0.15, 0.10)
_DRAW_EXTRA = (0.0, 0.08, 0.07, 0.06, 0.04, 0.03)


def worst_low(top: int) -> int:
    """The rank of the worst no-pair hand topped by rank index ``top`` (5 = seven .. 12 =
    ace): the top card, the three ranks below it and the one below those that does not
    make a straight, in mixed suits."""
    if type(top) is not int or not 5 <= top <= 12:
        raise ArgumentError(f"no no-pair hand is topped by rank index {top!r} (use 5..12)")
    ranks = (top, top - 1, top - 2, top - 3, top - 5)
    return rank_ids([r * 4 + (i % 2) for i, r in enumerate(ranks)])


@lru_cache(maxsize=1)
def _worst_lows() -> tuple[int, ...]:
    return (0,) * 5 + tuple(worst_low(t) for t in range(5, 13))


@lru_cache(maxsize=1)
def made_equity() -> tuple[float, ...]:
    """``made_equity()[rank]``: the heads-up equity guess of a finished hand, linear between
    anchors at the worst seven-low, eight-low, ... ace-low, the best pair and the worst hand."""
    wl = _worst_lows()
    anchors = (
        (1, 0.97),
        (wl[5], 0.93),
        (wl[6], 0.81),
        (wl[7], 0.66),
        (wl[8], 0.52),
        (wl[9], 0.40),
        (wl[10], 0.30),
        (wl[11], 0.22),
        (wl[12], 0.15),
        (wl[12] + 1, 0.07),
        (CLASS_COUNT, 0.0),
    )
    table = [anchors[0][1]] * (anchors[0][0] + 1)
    for (pr, pe), (r, e) in pairwise(anchors):
        table += [pe + (e - pe) * (k - pr) / (r - pr) for k in range(pr + 1, r + 1)]
    return tuple(table)


def _hole(cards: Any) -> list[int]:
    if not isinstance(cards, (tuple, list)):
        raise CardError("cards must be a tuple or list of five card ids")
    if len(cards) != 5:
        raise CardError(f"a hand has five cards, got {len(cards)}")
    seen = 0
    for c in cards:
        if type(c) is not int:
            raise CardError("cards must be a tuple or list of five card ids")
        if not 0 <= c < 52:
            raise CardError(f"invalid card id {c}")
        if seen >> c & 1:
            raise CardError(f"card id {c} appears twice")
        seen |= 1 << c
    return list(cards)


def _check_rule(keep_max: Any, pat_max: Any) -> tuple[int, int]:
    if type(keep_max) is not int or not 0 <= keep_max <= 12:
        raise ArgumentError(f"keep_max must be a card rank 0 (deuce) to 12 (ace), got {keep_max}")
    if type(pat_max) is not int or not 0 <= pat_max <= CLASS_COUNT:
        raise ArgumentError(
            f"pat_max must be a hand rank 1 to {CLASS_COUNT} (0: never stand pat), got {pat_max}"
        )
    return keep_max, pat_max


def _discard(hole: Sequence[int], rank: int, keep_max: int, pat_max: int) -> list[int]:
    """The cards the standard rule throws (in hole order): stand pat with ``pat_max`` or
    better; else keep one card of each rank up to ``keep_max`` (of a pair, the card whose
    suit the cards kept so far use least, the lowest id on a tie; lower pairs first); if
    that keeps all five, throw the highest card."""
    if rank <= pat_max:
        return []
    count = [0] * 13
    for c in hole:
        count[c >> 2] += 1
    keep = [c for c in hole if c >> 2 <= keep_max and count[c >> 2] == 1]
    suits = [0] * 4
    for c in keep:
        suits[c & 3] += 1
    for r in range(keep_max + 1):
        if count[r] > 1:
            best = min((c for c in hole if c >> 2 == r), key=lambda c: (suits[c & 3], c))
            keep.append(best)
            suits[best & 3] += 1
    if len(keep) == 5:
        keep.remove(max(hole))
    return [c for c in hole if c not in keep]


def bots_standard_discard(cards: Any, keep_max: Any, pat_max: Any) -> tuple[int, ...]:
    """The card ids (sorted) the standard rule throws from five cards: stand pat with a hand
    ranked ``pat_max`` or better, otherwise keep one card of each rank up to ``keep_max``."""
    hole = _hole(cards)
    keep, pat = _check_rule(keep_max, pat_max)
    return tuple(sorted(_discard(hole, rank_ids(hole), keep, pat)))


def _equity(
    hole: list[int], rank: int, draws_left: int, opp_last: list[int], keep: int, pat: int
) -> float:
    """Heads-up equity guess against one typical opponent."""
    me = made_equity()
    if draws_left == 0:
        e = me[rank]
    else:
        throw = _discard(hole, rank, keep, pat)
        k = len(throw)
        if k == 0:
            e = me[rank] + 0.02 * draws_left
        else:
            e = _DRAW_BASE[k] + _DRAW_EXTRA[k] * (draws_left - 1)
            kept = [c >> 2 for c in hole if c not in throw]
            if kept and max(kept) <= 5:
                e += 0.05  # drawing to a seven
            if rank <= _worst_lows()[12]:
                e = max(e, 0.85 * me[rank])  # a rough made hand is a draw too
        for d in opp_last:
            if d == 0 and k > 0:
                e -= 0.10  # he stood pat and we still draw
            elif d > k:
                e += 0.05  # he draws more than we do
            elif d < k:
                e -= 0.04
    if draws_left == 0:
        for d in opp_last:
            if d == 0:
                e -= 0.06
            elif d >= 2:
                e += 0.06  # he drew two or more to the end: often a miss
    return min(0.98, max(0.01, e))


def _seat(v: Any, n: int, what: str) -> int:
    if type(v) is not int or not 0 <= v < n:
        raise ArgumentError(f"observation: {what} {v} is not a seat of {n}")
    return v


def bots_heuristic(params: Any, obs: Any, r: float) -> tuple[int, tuple[int, ...]]:
    """The heuristic bot's decision for an observation. ``params`` is ``(keep_max, pat_max
    with 1, 2 and 3 draws left, aggression)``; ``r`` a uniform random number in [0, 1)
    (betting only). Returns ``(code, cards)``: code 0 fold, 1 check, 2 call, 3 bet or
    raise, 4 bet or raise only if the bot's bluff roll says so (else check), 5 discard
    ``cards`` (sorted ids)."""
    if not isinstance(params, tuple) or len(params) != 5:
        raise ArgumentError(
            f"params must be (keep_max, pat1, pat2, pat3, aggression), got {params!r}"
        )
    keep, pat1 = _check_rule(params[0], params[1])
    pats = (0, pat1, _check_rule(keep, params[2])[1], _check_rule(keep, params[3])[1])
    agg = float(params[4])
    if not isinstance(obs, tuple) or len(obs) < 18:
        raise ArgumentError("not an Observation")
    n = obs[4]
    if type(n) is not int or not 2 <= n <= 16:
        raise ArgumentError(f"observation: {n} players")
    me = _seat(obs[0], n, "seat")
    hole = _hole(obs[1])
    phase = obs[2]
    if phase not in ("draw", "bet"):
        raise ArgumentError(f"observation: no decision in phase {phase!r}")
    draw = phase == "draw"
    street = obs[3]
    if type(street) is not int or not 0 <= street <= (2 if draw else 3):
        raise ArgumentError(f"observation: street {street}")
    folded, draws = obs[8], obs[11]
    if not isinstance(folded, tuple) or not isinstance(draws, tuple):
        raise ArgumentError("observation: per-seat fields must be tuples")
    if len(folded) != n or len(draws) != n:
        raise ArgumentError("observation: per-seat fields of the wrong length")
    n_opps = 0
    opp_last: list[int] = []
    for j in range(n):
        if type(folded[j]) is not bool:
            raise ArgumentError(f"observation: folded[{j}] is not a bool: {folded[j]!r}")
        if j != me and not folded[j]:
            n_opps += 1
            dj = draws[j]
            if not isinstance(dj, tuple):
                raise ArgumentError(f"observation: draws[{j}] is not a tuple: {dj!r}")
            if dj:
                if type(dj[-1]) is not int or not 0 <= dj[-1] <= 255:
                    raise ArgumentError(f"observation: draws[{j}] holds {dj[-1]!r}")
                opp_last.append(dj[-1])
    rank = rank_ids(hole)
    draws_left = 3 - street
    pat = pats[draws_left] if draws_left else 0
    if draws_left == 1 and opp_last and min(opp_last) >= 2:
        pat = max(pat, _worst_lows()[8])  # they are far behind: a ten-low is good enough
    if draw:
        return DISCARD, tuple(sorted(_discard(hole, rank, keep, pat)))
    to_call = obs[13]
    can_raise = obs[14] is not None
    bb = _seat(obs[7], n, "big blind seat")
    # a table's hand under the dead-button rule may have no small blind
    sb = None if obs[6] is None else _seat(obs[6], n, "small blind seat")
    seats_behind = 0
    last_to_act = False
    if can_raise and street == 0:
        stacks = obs[9]
        if not isinstance(stacks, tuple) or len(stacks) != n:
            raise ArgumentError("observation: per-seat fields of the wrong length")
        j = me
        while j != bb:
            j = (j + 1) % n
            if not folded[j] and stacks[j] != 0:
                seats_behind += 1
    elif can_raise and to_call == 0:
        j = _seat(obs[5], n, "button")
        for _ in range(n):
            if not folded[j]:
                last_to_act = j == me
                break
            j = (j - 1) % n
    e = min(0.98, max(0.01, _equity(hole, rank, draws_left, opp_last, keep, pat)
                      + (-0.03 + 0.06 * r)))  # fmt: skip
    m = max(1, n_opps)
    # chance to win against m opponents: e = 0.5 gives the fair share 1/(m+1)
    p = min(0.97, (2.0 * e) ** m / (m + 1))
    fair = 1.0 / (m + 1)
    if to_call > 0:
        odds = to_call / (obs[12] + to_call)
        if can_raise:
            if street == 0 and not obs[17] and seats_behind <= 2:
                # first in from late position: raise or fold, do not limp
                if p >= fair * 1.15 / agg:
                    return BET_OR_RAISE, ()
                if me != bb and me != sb:
                    return FOLD, ()
            more = max(obs[16], 1) - 1
            if p >= fair * (1.6 + 0.3 * more) / agg and p > 0.4:
                return BET_OR_RAISE, ()
        # drawing hands get implied odds while there are draws left
        if p >= odds * (0.75 if draws_left else 1.0):
            return CALL, ()
        return FOLD, ()
    if can_raise:
        late = seats_behind <= 2 if street == 0 else last_to_act
        threshold = fair * (1.35 if late else 1.55) / agg
        if p >= threshold and p > 0.3:
            return BET_OR_RAISE, ()
        if street > 0 and late and m == 1 and opp_last and opp_last[0] > 0:
            return BLUFF_OR_CHECK, ()
    return CHECK, ()
