"""Loading a history with unknown cards (one player's view) as it is: a hand replayed
from a record (``Hand(..., record=True)``), with no search and no invented card.

Every action is replayed through the engine's public methods: the bets exactly, each
draw with the cards the history names (thrown and received; ``??`` stays unknown), and
the showdown in the engine's order with the cards the history shows. The engine checks
each known card wherever it appears (``game/record.py``); a card the history names for a
player whose cards were unknown (a discard shown face up, a hand shown at the showdown)
must be one nobody else is known to hold or to have thrown.
"""

from __future__ import annotations

from typing import Any

from triple_draw.errors import HistoryError, TripleDrawError
from triple_draw.game.hand import Hand
from triple_draw.game.rules import Rules
from triple_draw.phh.actions import Act
from triple_draw.phh.base import Locator
from triple_draw.phh.replay import bet, check_finishing, idle_check, players_named

__all__ = ["has_unknown", "replay_record"]


def has_unknown(acts: list[Act]) -> bool:
    """Whether a history leaves a card unknown (``??`` in a deal or a discard)."""
    for a in acts:
        if a.verb in ("dh", "sd") and a.cards and None in a.cards:
            return True
    return False


def replay_record(
    rules: Rules,
    stacks_phh: list[int],
    seat_of: list[int],
    button: int,
    acts: list[Act],
    core: Any,
    loc: Locator,
    finishing: list[int] | None,
    *,
    forced: dict[str, Any] | None = None,
    rake: int | None = None,
) -> Hand:
    """The hand of a history with unknown cards, replayed as a record."""
    n = len(stacks_phh)
    pl = {seat: k for k, seat in enumerate(seat_of)}
    stacks = [0] * n
    for k, seat in enumerate(seat_of):
        stacks[seat] = stacks_phh[k]
    hole: list[Any] = [None] * n
    k0 = 0
    while k0 < len(acts) and acts[k0].verb == "dh":
        a = acts[k0]
        if hole[seat_of[a.player]] is not None:
            break
        hole[seat_of[a.player]] = a.cards
        k0 += 1
    # (a player the history deals no cards holds five unknown ones)
    # each discard's replacements: the player's next "d dh" after it
    receive: dict[int, list[Any]] = {}
    waiting: dict[int, int] = {}
    for a in acts[k0:]:
        if a.verb == "sd":
            waiting[a.player] = a.i
        elif a.verb == "dh":
            i = waiting.pop(a.player, None)
            if i is None:
                raise HistoryError(
                    f"{loc.where(a.i, a.text)}: p{a.player + 1} is dealt cards he did not draw"
                )
            receive[i] = a.cards
    try:
        hand = Hand(
            rules, stacks, button, hole_cards=hole, core=core, record=True, rake=rake,
            **(forced or {}),
        )
    except TripleDrawError as e:
        raise HistoryError(f"{loc.prefix()}the dealt hole cards are impossible: {e}") from None

    def fail(a: Act, why: str) -> HistoryError:
        return HistoryError(f"{loc.where(a.i, a.text)}: {why}")

    def name(e: TripleDrawError) -> str:  # the engine names seats; the history players
        return players_named(e, pl)

    shows: dict[int, Act] = {}
    for a in acts[k0:]:
        if a.verb in ("noop", "dh"):
            continue
        seat = seat_of[a.player]
        if a.verb in ("show", "muck"):
            if seat in shows:
                raise fail(a, f"p{a.player + 1} already showed or mucked")
            shows[seat] = a
            continue
        if shows:
            raise fail(a, "an action after the showdown began")
        if hand.is_over or hand.phase == "showdown":
            raise fail(a, "the hand is already over" if hand.is_over else "it is the showdown")
        if a.verb == "cc" and idle_check(hand, seat):
            continue
        if hand.actor != seat:
            raise fail(a, f"p{a.player + 1} acts out of turn: p{pl[hand.actor] + 1} is to act")
        try:
            if a.verb == "sd":
                if not hand.in_draw:
                    if hand.street == 3:
                        raise fail(a, f"p{a.player + 1} cannot draw a fourth time")
                    raise fail(a, f"p{a.player + 1} cannot draw during a betting round")
                got = receive.get(a.i)
                if got is not None and len(got) != len(a.cards):
                    raise fail(
                        a, f"p{a.player + 1} draws {len(a.cards)} cards but is dealt {len(got)}"
                    )
                hand.discard(list(a.cards), receive=got)
            elif hand.in_draw:
                raise fail(a, f"p{a.player + 1} must draw now, not bet")
            else:
                why = bet(hand, a)
                if why is not None:
                    raise fail(a, why)
        except TripleDrawError as e:
            if isinstance(e, HistoryError):
                raise
            raise fail(a, name(e)) from None
    while hand.phase == "showdown":
        seat = hand.actor
        assert seat is not None
        said: Act | None = shows.pop(seat) if seat in shows else None
        try:
            if said is None or said.verb == "muck":
                hand.muck()
            else:
                hand.show(said.cards)
        except TripleDrawError as e:
            raise fail(said, name(e)) if said is not None else HistoryError(name(e)) from None
    for seat, a in shows.items():
        if not hand.is_over:
            raise fail(a, f"p{a.player + 1} shows or mucks before the showdown")
        if hand.result is None or seat not in {e.seat for e in hand.result.showdown}:
            raise fail(
                a, f"p{a.player + 1} is not in a showdown (folded, or the hand was won "
                "without one)"
            )
    check_finishing(hand, seat_of, finishing, loc)
    return hand
