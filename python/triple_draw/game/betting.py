"""The betting rounds (docs/rules.md: *Betting*), as functions of a :class:`HandState`.

- :func:`betting_options`: the one rule of what the actor of a betting round may do
  (check or call to what amount, bet or raise to what amount, if at all);
  ``Hand.legal_actions`` and the views (:func:`betting_choices`) list it;
- :func:`raise_refusal`: why a bet or raise is not allowed (the error messages of
  ``apply`` and ``bet_or_raise``: PokerKit's verify/can/do pattern);
- the flow: :func:`next_actor`, :func:`seek`, :func:`end_round`, :func:`start_round`.

The actions themselves (``fold``, ``check_or_call``, ``bet_or_raise``) and
``can_bet_or_raise`` are the hot path and live in ``hand.py``, with the raise condition of
:func:`betting_options` written inline; tests/test_hand_api.py holds them equal at every
decision of many hands.
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
    "raise_refusal",
    "raise_target",
    "betting_options",
    "betting_choices",
    "choices_of",
    "next_actor",
    "seek",
    "end_round",
    "start_round",
]


def raise_refusal(st: HandState, s: int) -> str:
    """Why seat ``s`` may not bet or raise now, or ``""`` if he may: he has acted since the
    last full bet or raise (a short all-in did not reopen the betting), the cap is
    reached, his chips do not exceed the call, or nobody else can still bet."""
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


def betting_options(st: HandState, s: int) -> tuple[int, int, bool]:
    """What seat ``s``, the actor of a betting round, may do, as ``(call_to, raise_to,
    opening)``: the round total a call reaches (0: nothing to call, he may check; less
    than the bet if he is all-in), the round total of a bet or raise (0: not allowed,
    see :func:`raise_refusal`), and whether it would be a bet (no bet yet this round) rather than
    a raise. Folding is always allowed. The one rule behind ``Hand.legal_actions`` and
    the views' legal actions (:func:`betting_choices`); the hot path's
    ``Hand.can_bet_or_raise`` / ``bet_or_raise`` write the raise condition inline and
    :func:`raise_refusal` says why it fails (a test holds the three equal)."""
    mine = st._bet[s]
    level = st._level
    owe = level - mine
    x = st._stacks[s]
    call_to = (mine + (owe if owe < x else x)) if owe > 0 else 0
    if (
        st._to_act[s] == MAY_RAISE
        and st._full_bets < st._max_full_bets
        and x > owe
        and st._n_active > 1
    ):
        target = st._full_level + st._unit
        cap = mine + x
        raise_to = target if target < cap else cap
    else:
        raise_to = 0
    return call_to, raise_to, level == 0


def choices_of(options: tuple[int, int, bool]) -> list[tuple[str, int | None]]:
    """The legal betting actions of :func:`betting_options` as ``(kind, amount)``: fold,
    check or call, and bet or raise when allowed."""
    call_to, raise_to, opening = options
    out: list[tuple[str, int | None]] = [(FOLD, None)]
    out.append((CALL, call_to) if call_to else (CHECK, None))
    if raise_to:
        out.append((BET_KIND if opening else RAISE, raise_to))
    return out


def betting_choices(st: HandState, s: int) -> list[tuple[str, int | None]]:
    """The legal actions of seat ``s``, the actor of a betting round, as ``(kind,
    amount)`` (:func:`betting_options`)."""
    return choices_of(betting_options(st, s))


# -- the flow of a round -------------------------------------------------------------------


def next_actor(st: HandState, s: int) -> None:
    """After seat ``s`` acted: hand the action to the next seat that must act, or end the
    betting round."""
    # seek(st, s + 1), inline: the hot path
    to_act = st._to_act
    n = st._n
    j = s + 1 if s + 1 < n else 0
    for _ in range(n):
        if to_act[j]:
            if st._n_active > 1 or st._bet[j] < st._level:
                st._actor = j
                return
            break
        j += 1
        if j == n:
            j = 0
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
