"""Pass 2 of loading a history: the replay through the engine's public methods, with
every card of the history given, so the engine checks each one as it is dealt."""

from __future__ import annotations

import re
from typing import Any

from triple_draw.errors import CardError, DeckError, HistoryError, IllegalActionError
from triple_draw.game.hand import Hand
from triple_draw.game.rules import Rules
from triple_draw.game.cards import to_ids
from triple_draw.game.state_io import card_partition
from triple_draw.phh.actions import Act
from triple_draw.phh.base import Bad, Locator, cards_text
from triple_draw.phh.infer import Cards
from triple_draw.phh.solve import Plan
from triple_draw.phh.timing import Slot


def replay(
    rules: Rules,
    stacks_phh: list[int],
    seat_of: list[int],
    button: int,
    acts: list[Act],
    cards: Cards,
    seed: int | None,
    core: Any,
    loc: Locator,
    finishing: list[int] | None,
    *,
    forced: dict[str, Any] | None = None,
    plan: Plan | None = None,
) -> Hand:
    """Replay the history with its cards: the named ones and those chosen for its unknown
    cards (``cards``), or every card the search chose (``plan``, burn cards included)."""
    n = len(stacks_phh)
    pl = {seat: k for k, seat in enumerate(seat_of)}
    stacks = [0] * n
    hole: list[Any] = [None] * n
    for k, seat in enumerate(seat_of):
        stacks[seat] = stacks_phh[k]
        if plan is not None:
            hole[seat] = plan.hole[k]
        elif cards.deal[k]:
            hole[seat] = [s.card for s in cards.deal[k]]
    # Every card of the history is given (the unknown ones chosen by Cards.fill),
    # and the engine checks each one at the moment it is dealt, under the hand's own
    # rules - so the replay reshuffles where the original did.
    withhold = None
    burns = None if plan is None else iter(plan.burns)
    if plan is None and rules.burn_cards and all(s.card is not None for s in cards.slots):
        # every card is named: a burn card before the first reshuffle must not be one the
        # history deals from the first stub, so those are dealt only as given cards (a
        # card named only after the stub ran out was burned or thrown before)
        first = {c for h in hole if h is not None for c in h}
        later = {s.card for r in cards.receive.values() for s in r if s.epoch == 0}
        withhold = sorted(c for c in later if c is not None and c not in first) or None
    try:
        if withhold is not None or any(h is not None for h in hole):
            hand = Hand(
                rules,
                stacks,
                button,
                seed,
                hole_cards=hole,
                core=core,
                withhold=withhold,
                **(forced or {}),
            )
        else:
            hand = Hand(rules, stacks, button, seed, core=core, **(forced or {}))
    except (CardError, DeckError, ValueError) as e:
        raise HistoryError(f"{loc.prefix()}the dealt hole cards are impossible: {e}") from None
    shows: list[Act] = []
    draw_start = 0
    for a in acts:
        if a.verb in ("noop", "dh"):
            continue
        k = a.player
        seat = seat_of[k]

        def fail(why: str, a: Act = a, cls: type[HistoryError] = HistoryError) -> HistoryError:
            return cls(f"{loc.where(a.i, a.text)}: {why}")

        def wrong(why: str, a: Act = a) -> HistoryError:
            return fail(why, a, OrderError)

        if a.verb in ("show", "muck"):
            if not hand.is_over:
                raise wrong(f"p{k + 1} shows or mucks before the showdown ({_situation(hand, pl)})")
            shows.append(a)
            continue
        if a.verb == "cc" and idle_check(hand, seat):
            continue
        if hand.is_over:
            raise wrong("the hand is already over")
        if hand.actor != seat:
            raise wrong(f"p{k + 1} acts out of turn: {_situation(hand, pl)}")
        try:
            if a.verb == "sd":
                if not hand.in_draw:
                    raise wrong(f"p{k + 1} cannot draw: {_situation(hand, pl)}")
                thrown: list[Any]
                got: list[Any] | None
                if plan is not None:
                    if a.i not in plan.thrown:  # pragma: no cover - the search follows every draw
                        raise fail("this draw is not in the order the engine serves the draws")
                    thrown = plan.thrown[a.i]
                    got = plan.received.get(a.i)
                else:
                    thrown = [s.card for s in cards.discards[a.i]]
                    r = cards.receive.get(a.i)
                    if r is not None and any(s.card is None for s in r):
                        try:
                            _choose_replacements(hand, cards, thrown, r)
                        except Bad as e:
                            raise fail(str(e)) from None
                    got = None if r is None else [s.card for s in r]
                declared = _declared(hand)
                if not declared:
                    draw_start = a.i
                if rules.burn_cards and _deals_first(hand, rules, declared):
                    if burns is not None:
                        burn = next(burns, None)
                    else:
                        burn = _burn_card(hand, cards, draw_start, thrown, rules)
                    hand.discard(thrown, receive=got, burn=burn)
                else:
                    hand.discard(thrown, receive=got)
            elif hand.in_draw:
                raise wrong(f"p{k + 1} must draw now, not bet ({_situation(hand, pl)})")
            else:
                why = bet(hand, a)
                if why is not None:
                    raise wrong(why)
        except IllegalActionError as e:
            # the engine names seats; the history names players
            cls = HistoryError if a.verb == "sd" else OrderError
            raise fail(players_named(e, pl), a, cls) from None
    if shows:
        _check_showdown(hand, shows, seat_of, cards, loc)
    check_finishing(hand, seat_of, finishing, loc)
    return hand


def idle_check(hand: Hand, seat: int) -> bool:
    """Whether a check or call by ``seat`` where a draw begins is the check PokerKit asks of a
    lone player who can still bet (every other player still in is all-in) at the end of
    the betting round, before anybody draws: ours does not ask him (nothing is left to
    bet), so the check changes nothing and is passed over."""
    if not hand.in_draw or hand.history[-1].kind != "begin_draw":
        return False
    stacks = hand.stacks
    return (
        seat in hand.in_hand
        and stacks[seat] > 0
        and all(stacks[x] == 0 for x in hand.in_hand if x != seat)
    )


def bet(hand: Hand, a: Act) -> str | None:
    """The betting action ``a`` (``f``, ``cc``, ``cbr``) of a history on ``hand``. Returns
    why it is wrong if a bet or raise is not to the amount fixed limit gives (nothing
    changes then); the engine's :class:`IllegalActionError` if it is not allowed."""
    if a.verb == "f":
        hand.fold()
    elif a.verb == "cc":
        hand.check_or_call()
    else:  # cbr
        want = hand.bet_or_raise_amount()
        if want is None:
            hand.bet_or_raise()  # raises IllegalActionError saying why not
        if a.amount != want:
            kind = "bet" if hand.bet_level == 0 else "raise"
            return (
                f"p{a.player + 1} can only {kind} to exactly {want} (fixed limit), "
                f"not {a.amount}"
            )
        hand.bet_or_raise()
    return None


def players_named(e: Exception, pl: dict[int, int]) -> str:
    """An engine error's message with its seats named as the history's players."""
    return re.sub(r"\bseat (\d+)", lambda m: f"p{pl[int(m.group(1))] + 1}", str(e))


def check_finishing(
    hand: Hand, seat_of: list[int], finishing: list[int] | None, loc: Locator
) -> None:
    """A finished hand ends with the history's ``finishing_stacks`` (if it gives them)."""
    if finishing is not None and hand.is_over:
        got = [hand.stacks[seat] for seat in seat_of]
        if got != finishing:
            raise HistoryError(
                f"{loc.prefix()}finishing_stacks {finishing} disagree with the replayed hand, "
                f"which ends with {got}"
            )


def _choose_replacements(hand: Hand, cards: Cards, thrown: list[Any], r: list[Slot]) -> None:
    """Choose the unknown replacements ``r`` of the actor's discard of ``thrown`` - and
    with them every unknown card dealt from the same stub - among the cards the engine
    could deal him."""
    while True:
        todo = [x for x, s in enumerate(r) if s.card is None]
        if not todo:
            return
        first = todo[0]
        given = [s.card for s in r]
        stub = [c for c in hand.receivable(thrown, given[:first]) if c not in given]
        if cards.timing.pokerstars:
            # his own earlier discards in the stub are passed over for him, but the stub
            # holds them for the others
            stub += cards.own_in_stub(r[first])
        cards.fill(r[first].epoch, stub, r[first].start)
        if r[first].card is None:  # pragma: no cover - its epoch was misjudged
            raise Bad(
                "the unknown cards of this history cannot be dealt without a card being "
                "in two places"
            )


def _declared(hand: Hand) -> int:
    """How many players have declared in the current draw."""
    declared = 0
    for e in reversed(hand.history):
        if e.kind == "begin_draw":
            break
        declared += e.kind == "discard"
    return declared


def _deals_first(hand: Hand, rules: Rules, declared: int) -> bool:
    """Whether the actor's discard deals the first replacements of the draw (so the burn
    card comes before it)."""
    if rules.draw_procedure == "immediate":
        return declared == 0
    live = sum(1 for s in range(hand.n_players) if not hand.folded[s])
    return declared == live - 1


def _burn_card(hand: Hand, cards: Cards, i: int, thrown: list[Any], rules: Rules) -> int | None:
    """The burn card of a replay (burns are never named in a history): a card of the stub
    that the history does not deal from the same stub in this draw (its declarations
    start at action ``i``) or later; ``None`` (the engine's own choice) if there is none.
    If the stub is empty there, the burn comes from the new stub the reshuffle forms
    first: the cards out of play (under "pokerkit" with every discard of this draw,
    ``thrown`` included; else without the discards of this draw)."""
    where = card_partition(hand)
    stub = where["stub"]
    epoch = sum(1 for e in hand.history if e.kind == "reshuffle")
    if not stub:
        epoch += 1
        this_draw: set[Any] = set(thrown)
        for e in reversed(hand.history):
            if e.kind == "begin_draw":
                break
            if e.kind == "discard":
                this_draw.update(to_ids(e.cards or ()))
        if rules.reshuffle == "pokerkit":
            stub = [*where["out_of_play"], *thrown]
        else:
            stub = [c for c in where["out_of_play"] if c not in this_draw]
    later = {s.card for j, r in cards.receive.items() if j >= i for s in r if s.epoch == epoch}
    return next((c for c in stub if c not in later), None)


def _situation(hand: Hand, pl: dict[int, int]) -> str:
    if hand.is_over:
        return "the hand is over"
    assert hand.actor is not None
    who = f"p{pl[hand.actor] + 1}"
    if hand.in_draw:
        return f"{who} is to draw (draw {hand.street + 1})"
    return f"{who} is to act (betting round {hand.street + 1})"


class OrderError(HistoryError):
    """An action out of turn, or a bet the rules do not allow: the same whatever the
    unknown cards are, so no other choice of them is tried."""


class MuckWins(HistoryError):  # noqa: N818
    def __init__(self, message: str, chosen: bool) -> None:
        super().__init__(message)
        self.chosen = chosen


def _check_showdown(
    hand: Hand, shows: list[Act], seat_of: list[int], cards: Cards, loc: Locator
) -> None:
    res = hand.result
    assert res is not None
    at_showdown = {e.seat for e in res.showdown}
    seen: set[int] = set()
    for a in shows:
        k = a.player
        seat = seat_of[k]

        def fail(why: str, a: Act = a) -> HistoryError:
            return HistoryError(f"{loc.where(a.i, a.text)}: {why}")

        if seat not in at_showdown:
            raise fail(f"p{k + 1} is not in a showdown (folded, or the hand was won without one)")
        if seat in seen:
            raise fail(f"p{k + 1} already showed or mucked")
        seen.add(seat)
        held = set(hand.hole_ids(seat))
        if a.verb == "show" and a.cards is not None:
            shown = {c for c in a.cards if c is not None}
            if not shown <= held:
                raise fail(
                    f"p{k + 1} shows {cards_text(sorted(shown - held))}, "
                    f"but holds {cards_text(sorted(held))}"
                )
        if a.verb == "muck":
            contested = any(seat in p.winners and len(p.eligible) > 1 for p in res.pots)
            if contested:
                raise MuckWins(
                    f"{loc.where(a.i, a.text)}: p{k + 1} mucks, but his hand wins a pot at the "
                    "showdown: triple_draw has no voluntary muck of a winning hand",
                    chosen=any(s.player == k and s.chosen for s in cards.slots),
                )
