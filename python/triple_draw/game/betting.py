"""The betting rounds (rules: *Betting*), as functions of a :class:`HandState`.

- :func:`raise_refusal`: the one rule of whether the actor may bet or raise, and why not
  (``Hand.can_bet_or_raise``, ``legal_actions``, ``apply``, ``bet_or_raise`` and the views
  all ask it, PokerKit's verify/can/do pattern);
- :func:`betting_choices`: the one list of the actor's legal betting actions (``Hand.
  legal_actions`` and ``view`` build their objects or dicts from it);
- the flow: :func:`next_actor`, :func:`seek`, :func:`end_round`, :func:`start_round`.

The actions themselves (``fold``, ``check_or_call``, ``bet_or_raise``) are the hot path and
live in ``hand.py``; they use :func:`may_raise`, the same condition as
:func:`raise_refusal` written inline.
"""

from __future__ import annotations

from triple_draw.game.events import BEGIN_ROUND, CALL, CHECK, FOLD, RAISE
from triple_draw.game.events import BET as BET_KIND
from triple_draw.game.drawing import start_draw
from triple_draw.game.phase import BET, MAY_RAISE
from triple_draw.game.rules import UNCAPPED
from triple_draw.game.showdown import finish
from triple_draw.game.state import HandState

__all__ = [
    "may_raise",
    "raise_refusal",
    "raise_target",
    "betting_choices",
    "next_actor",
    "seek",
    "end_round",
    "start_round",
]


def may_raise(st: HandState, s: int) -> bool:
    """Whether seat ``s`` (the actor of a betting round) may bet or raise: he has not
    acted since the last full bet or raise, the cap is not reached, his chips exceed the
    call, and somebody else can still bet."""
    return (
        st._to_act[s] == MAY_RAISE
        and st._full_bets < st._max_full_bets
        and st._stacks[s] > st._level - st._bet[s]
        and st._n_active > 1
    )


def raise_refusal(st: HandState, s: int) -> str:
    """Why seat ``s`` may not bet or raise now, or ``""`` if he may (:func:`may_raise`)."""
    verb = "bet" if st._level == 0 else "raise"
    if st._full_bets >= st._max_full_bets:
        over = "the big blind" if st._street == 0 and not st._rc.big_blind_is_bet else "the bet"
        raises = st._max_full_bets - (1 if over == "the bet" else 0)
        return (
            f"seat {s} cannot {verb}: the betting is capped "
            f"({raises} raises over {over}) this round"
        )
    if st._to_act[s] != MAY_RAISE:
        return (
            f"seat {s} cannot {verb}: the betting was not reopened by the short all-in "
            "(he may only call or fold)"
        )
    if st._stacks[s] <= st._level - st._bet[s]:
        return f"seat {s} cannot {verb}: his {st._stacks[s]} chips do not exceed the call"
    if st._n_active < 2:
        return f"seat {s} cannot {verb}: every other player is all-in"
    return ""


def raise_target(st: HandState, s: int) -> int:
    """The round total a bet or raise by seat ``s`` reaches: one unit over the last full
    bet or raise, or all his chips if that is less."""
    target = st._full_level + st._unit
    cap = st._bet[s] + st._stacks[s]
    return target if target < cap else cap


def betting_choices(st: HandState, s: int) -> list[tuple[str, int | None]]:
    """The legal actions of seat ``s``, the actor of a betting round, as ``(kind,
    amount)``: fold (always allowed), check or call (to the amount he reaches, less if
    all-in), and bet or raise when :func:`may_raise`."""
    out: list[tuple[str, int | None]] = [(FOLD, None)]
    mine = st._bet[s]
    level = st._level
    owe = level - mine
    if owe > 0:
        x = st._stacks[s]
        out.append((CALL, mine + (owe if owe < x else x)))
    else:
        out.append((CHECK, None))
    if may_raise(st, s):
        out.append((BET_KIND if level == 0 else RAISE, raise_target(st, s)))
    return out


# -- the flow of a round -------------------------------------------------------------------


def next_actor(st: HandState, s: int) -> None:
    """After seat ``s`` acted: hand the action to the next seat that must act, or end the
    betting round."""
    a = seek(st, s + 1 if s + 1 < st._n else 0)
    if a >= 0:
        st._actor = a
    else:
        end_round(st)


def seek(st: HandState, j: int) -> int:
    """The first seat from ``j`` clockwise that must act in this betting round, or -1.

    A lone player who can still bet is not asked to act unless he faces a bet."""
    to_act = st._to_act
    n = st._n
    for _ in range(n):
        if to_act[j]:
            if st._n_active > 1 or st._bet[j] < st._level:
                return j
            return -1
        j += 1
        if j == n:
            j = 0
    return -1


def end_round(st: HandState) -> None:
    """The betting round is over: the next draw, or the showdown after round 4."""
    st._actor = None
    if st._street == 3:
        finish(st)
    else:
        start_draw(st)


def start_round(st: HandState, r: int) -> None:
    """Betting round ``r`` (1..3) after a draw: the first active seat left of the button
    acts (the round ends at once when fewer than two can still bet)."""
    n = st._n
    rc = st._rc
    st._phase = BET
    st._in_draw = False
    st._street = r
    st._unit = rc.units[r]
    st._bet = [0] * n
    st._level = 0
    st._full_level = 0
    st._full_bets = 0
    st._max_full_bets = UNCAPPED if (rc.heads_up_uncapped and st._n_live == 2) else rc.max_full_bets
    active = st._active
    st._to_act = active[:]
    st._last_aggr = None
    st._log.append((BEGIN_ROUND, None, r, None))
    if st._n_active < 2:
        end_round(st)
        return
    for j in st._cw:
        if active[j]:
            st._actor = j
            return
