"""The betting rounds (docs/rules.md: *Betting*), as functions of a :class:`HandState`.

- the raise rule: a seat may bet or raise exactly when his ``_to_act`` entry is
  ``MAY_RAISE``. :func:`close_raises` keeps the entries up to date where the betting
  changes (a bet or raise, an all-in, a fold, the blinds): it turns ``MAY_RAISE`` into
  ``CLOSED`` for every seat the cap, his chips or the lack of opponents who can still bet
  stop from raising (a short all-in's ``CALL_ONLY`` is set where it happens). The hot
  path (``Hand.can_bet_or_raise``, ``Hand.bet_or_raise``), :func:`legal_actions`, the
  compiled views and the documents all read that one entry;
- :func:`raise_target`: the round total a bet or raise reaches;
- :func:`legal_actions`: what the actor may do (check or call to what amount, bet or
  raise to what amount if at all; the discard choices in a draw), bound as
  ``Hand.legal_actions`` and used by the views;
- :func:`raise_refusal`: only words why a bet or raise is not allowed, ``""`` when it is
  (the error messages of ``apply`` and ``bet_or_raise``: PokerKit's verify/can/do
  pattern);
- :func:`round_action`: the bets, raises and calls of the round so far (the public
  record's account of it);
- the flow: :func:`next_actor`, :func:`seek`, :func:`end_round`, :func:`start_round`.

The actions themselves (``fold``, ``check_or_call``, ``bet_or_raise``) and
``can_bet_or_raise`` are the hot path and live in ``hand.py``.
"""

from __future__ import annotations

from collections.abc import Sequence

from triple_draw.errors import CardError
from triple_draw.game.actions import Action, discard_choices, make_action
from triple_draw.game.cards import UNKNOWN
from triple_draw.game.events import CALL, CHECK, FOLD, RAISE, ROUND_BEGINS
from triple_draw.game.events import BET as BET_KIND
from triple_draw.game.drawing import start_draw
from triple_draw.game.phase import BET, CLOCKWISE, CLOSED, MAY_RAISE, SHOWDOWN
from triple_draw.game.record import record_discard_choices
from triple_draw.game.rules import UNCAPPED
from triple_draw.game.showdown import finish
from triple_draw.game.state import HandState

__all__ = [
    "close_raises",
    "raise_refusal",
    "raise_target",
    "legal_actions",
    "round_action",
    "next_actor",
    "seek",
    "end_round",
    "start_round",
]


def close_raises(st: HandState) -> None:
    """The raise rule, applied: every seat still to act whose entry is ``MAY_RAISE`` but
    who may not bet or raise any more this round becomes ``CLOSED`` - all of them when the
    cap is reached or fewer than two players can still bet, else those whose chips do not
    exceed the call. Called where one of those can change (the blinds, a bet or raise,
    an all-in call, a fold), and only when it may have: the callers test a cheap
    necessary condition first (``_n_active < 2``, a level at ``_least_reach`` or over;
    the raise that reaches the cap closes the entries it makes itself). A ``CLOSED``
    entry stays closed for the round: the cap and the players who can still bet do not
    come back, and a seat's chips plus his bet are fixed in a round while the level only
    rises; a full raise makes the entries anew from ``_active`` and closes them again."""
    to_act = st._to_act
    if st._full_bets >= st._max_full_bets or st._n_active < 2:
        for j, t in enumerate(to_act):
            if t == MAY_RAISE:
                to_act[j] = CLOSED
        return
    level = st._level
    bet = st._bet
    stacks = st._stacks
    for j, t in enumerate(to_act):
        if t == MAY_RAISE and stacks[j] <= level - bet[j]:
            to_act[j] = CLOSED


def raise_refusal(st: HandState, s: int) -> str:
    """Why seat ``s`` may not bet or raise now, or ``""`` if he may (his ``_to_act`` entry
    is ``MAY_RAISE``: the raise rule, :func:`close_raises`). It only words the reason: the
    cap is reached, he has acted since the last full bet or raise (a short all-in did not
    reopen the betting), his chips do not exceed the call, or nobody else can still
    bet."""
    t = st._to_act[s]
    if t == MAY_RAISE:
        return ""
    verb = "bet" if st._level == 0 else "raise"
    if st._full_bets >= st._max_full_bets:
        over = "the big blind" if st._street == 0 and not st._rc.big_blind_is_bet else "the bet"
        raises = st._max_full_bets - (1 if over == "the bet" else 0)
        return (
            f"seat {s} cannot {verb}: the betting is capped "
            f"({raises} raises over {over}) this round"
        )
    if t != CLOSED:  # CALL_ONLY (or DONE: he has acted)
        return (
            f"seat {s} cannot {verb}: the betting was not reopened by the short all-in "
            "(he may only call or fold)"
        )
    if st._stacks[s] <= st._level - st._bet[s]:
        return f"seat {s} cannot {verb}: his {st._stacks[s]} chips do not exceed the call"
    return f"seat {s} cannot {verb}: every other player is all-in"


def raise_target(st: HandState, s: int) -> int:
    """The round total a bet or raise by seat ``s`` reaches: one unit over the last full
    bet or raise, or all his chips if that is less."""
    target = st._full_level + st._unit
    cap = st._bet[s] + st._stacks[s]
    return target if target < cap else cap


#: the betting actions of each situation seen, shared and immutable:
#: ``_BETTING_ACTIONS[call_to, raise_to]`` (``raise_to`` 0: no raise), with ``call_to`` -1
#: when nobody has bet this round (check or bet) and 0 when he may check a bet he matched
#: (check or raise). Bounded: the situations of the stakes in play.
_BETTING_ACTIONS: dict[tuple[int, int], tuple[Action, ...]] = {}


def legal_actions(st: HandState) -> Sequence[Action]:
    """Every legal action of the actor, fully specified and immutable - the one
    implementation behind ``Hand.legal_actions`` (bound to it as the method) and the
    views' legal actions.

    Betting: ``fold`` (always allowed), ``check`` or ``call`` (to the round total he
    reaches, less if all-in), and ``bet`` or ``raise`` (:func:`raise_target`) when the
    raise rule lets him (his ``_to_act`` entry is ``MAY_RAISE``; why not:
    :func:`raise_refusal`); a shared tuple per situation. Draw: the discard choices of his
    cards (:class:`~triple_draw.game.actions.DiscardChoices`). Over: ``[]``.

    The listing is remembered on the hand (``_legal``, a cache outside the hand's state:
    no copy, document or comparison sees it) so that ``Hand.apply`` performs a listed
    action without checking it again; any action clears it."""
    s: int = st._actor  # type: ignore[assignment]
    if st._phase:
        if s is None:  # over
            return []
        if st._phase == SHOWDOWN:  # a record's: Hand.show / Hand.muck
            return []
        d: Sequence[Action]
        try:  # the compiled core builds the sequence (not required of a core)
            d = st._core.discard_choices(st._hands[s])  # type: ignore[attr-defined]
        except AttributeError:  # a core without it (the reference): the game layer's own
            held = st._hands[s]
            d = record_discard_choices(held) if UNKNOWN in held else discard_choices(held)
        except CardError:  # a record's seat holding unknown cards
            d = record_discard_choices(st._hands[s])
        return d
    mine = st._bet[s]
    x = st._stacks[s]
    owe = st._level - mine
    if owe > 0:
        call_to = mine + owe if owe < x else mine + x
    else:
        call_to = 0 if st._level else -1
    if st._to_act[s] == MAY_RAISE:  # the raise rule
        raise_to = st._full_level + st._unit
        if raise_to > mine + x:
            raise_to = mine + x
    else:
        raise_to = 0
    acts = _BETTING_ACTIONS.get((call_to, raise_to))
    if acts is None:
        acts = _betting_actions(call_to, raise_to)
    st._legal = acts  # recognised by apply() until the next action (which clears it)
    return acts


def round_action(st: HandState) -> tuple[int, bool]:
    """The public account of the betting round under way: the bets and raises made in it
    (posts not counted) and whether anybody has called, bet or raised in it - read off
    the public record (state.py); ``(0, False)`` outside a betting round. What
    :class:`~triple_draw.bots.Observation` calls ``round_bets`` and ``round_voluntary``."""
    if st._phase != BET:
        return 0, False
    return st._full_bets + st._uncounted, sum(st._bet) > st._posted


def _betting_actions(call_to: int, raise_to: int) -> tuple[Action, ...]:
    """The shared actions of a betting situation seen for the first time (see
    :data:`_BETTING_ACTIONS`)."""
    acts: tuple[Action, ...] = (
        make_action(FOLD),
        make_action(CALL, call_to) if call_to > 0 else make_action(CHECK),
    )
    if raise_to:
        acts += (make_action(BET_KIND if call_to < 0 else RAISE, raise_to),)
    if len(_BETTING_ACTIONS) < 4096:
        _BETTING_ACTIONS[call_to, raise_to] = acts
    return acts


# -- the flow of a round -------------------------------------------------------------------


#: ``_AFTER[n][s]``: the other seats of a table of ``n`` after seat ``s``, clockwise
_AFTER = tuple(tuple(seats[1:] for seats in table) for table in CLOCKWISE)


def next_actor(st: HandState, s: int) -> None:
    """Seat ``s`` acted (his ``_to_act`` entry is ``DONE`` now): hand the action to the next
    seat that must act (:func:`seek` from ``s + 1``), or end the betting round."""
    to_act = st._to_act
    for j in _AFTER[st._n][s]:
        if to_act[j]:
            if st._n_active > 1 or st._bet[j] < st._level:
                st._actor = j
                return
            break
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
    """The betting round is over: the next draw, or the showdown after the last round (round
    4; ``draws + 1`` in a reduced game)."""
    st._actor = None
    if st._street == st._rc.last_round:
        finish(st)
    else:
        start_draw(st)


def start_round(st: HandState, r: int) -> None:
    """Betting round ``r`` (1..3; 1..``draws`` in a reduced game) after a draw: the first
    active seat left of the button acts (the round ends at once when fewer than two can
    still bet)."""
    n = st._n
    rc = st._rc
    # every seat put at most the last round's level in: the bound below each seat's chips
    # plus bet drops by it at most (recomputed when it reaches 0)
    least = st._least_reach - st._level
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
    st._uncounted = 0
    st._posted = 0
    st._log.append(ROUND_BEGINS[r])
    if st._n_active < 2:
        end_round(st)
        return
    if least <= 0:  # the seats with chips (somebody may be all-in)
        least = min([x for x in st._stacks if x])
    st._least_reach = least
    for j in st._cw:
        if active[j]:
            st._actor = j
            return
