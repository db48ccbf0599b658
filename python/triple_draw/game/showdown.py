"""The end of a hand (uncalled bets, showdown and pots; rules: *Showdown*), as functions
of a :class:`HandState`.

The showdown is automatic: players show in the rules' order (the last bettor or raiser of
round 4 first, else the first player left of the button, then clockwise). With the
``muck_beaten_hands`` option a player mucks exactly when, in every pot he is eligible
for, a hand shown before him is strictly better - so mucking never changes who wins.
"""

from __future__ import annotations


from typing import Any

from triple_draw.errors import CardError, IllegalActionError
from triple_draw.game.cards import CARD_TEXT, UNKNOWN, to_ids
from triple_draw.game import events as ev
from triple_draw.game.phase import BET, CLOCKWISE, DONE, OVER, SHOWDOWN
from triple_draw.game.record import RecordStub, known_place, outside_deck
from triple_draw.game.pots import make_pots, split_pot
from triple_draw.game.result import HandResult, Pot, ShowdownEntry
from triple_draw.game.state import HandState, PotRecord

__all__ = ["finish", "hand_result", "show_at_showdown", "muck_at_showdown", "rake_of"]


def finish(st: HandState) -> None:
    """The hand is over: the uncalled bet goes back, then the last player wins, or the
    showdown decides each pot."""
    n = st._n
    total = st._total
    stacks = st._stacks
    live = st._live
    log = st._log
    # the bet nobody matched goes back first; a dead post is matched by nobody, so it is
    # set aside to find it (and then builds the pots like an ante)
    dead = st._dead
    bets = total if dead is None else [t - d for t, d in zip(total, dead, strict=True)]
    srt = sorted(bets)
    top = srt[-1]
    if top != srt[-2]:
        seat = bets.index(top)
        amount = top - srt[-2]
        total[seat] -= amount
        stacks[seat] += amount
        st._returned = (seat, amount)
        log.append((ev.RETURN, seat, amount, None))
    phase = st._phase
    st._phase = OVER
    st._in_draw = False
    st._actor = None
    st._active = [DONE] * n  # nobody bets any more
    st._n_active = 0
    if st._n_live == 1:
        # everyone else folded: the last player wins everything, no showdown
        w = live.index(True)
        amt = sum(total)
        rake = 0
        if st._rc.rake or st._rake_given is not None:  # (the hand reached the first draw?)
            rake = rake_of(st, amt, phase != BET or st._street > 0)
        if rake:
            st._rake = rake
            log.append((ev.RAKE, None, rake, None))
        stacks[w] += amt - rake
        st._pots = [(amt, (w,), (w,), ((w, amt - rake),))]
        st._showdown = []
        log.append((ev.WIN, w, amt - rake, None))
        return
    first = st._last_aggr
    if first is None or not live[first]:
        order = [j for j in st._cw if live[j]]
    else:
        order = [j for j in CLOCKWISE[n][first] if live[j]]
    level = total[order[0]]
    for j in order:
        if total[j] != level:
            pots = make_pots(total, live)
            break
    else:  # nobody all-in for less: one pot
        pots = [(sum(total), tuple(sorted(order)))]
    if type(st._deck) is RecordStub:
        # a record: the players show or muck in turn (show_at_showdown, muck_at_showdown)
        st._phase = SHOWDOWN
        st._layers = pots
        st._sd_order = tuple(order)
        st._showdown = []
        _next_to_show(st)
        return
    rank_ids = st._rc.rank or st._core.rank_ids  # (a reduced game's hands of < 5 cards)
    hands = st._hands
    ranks = [0] * n
    for j in order:
        ranks[j] = rank_ids(hands[j])
    muck = st._rc.muck_beaten_hands
    showdown: list[tuple[int, bool]] = []
    shown: list[int] = []
    for j in order:
        if muck and shown and _beaten(j, ranks, shown, pots):
            showdown.append((j, False))
            log.append((ev.MUCK, j, None, None))
        else:
            showdown.append((j, True))
            shown.append(j)
            log.append((ev.SHOW, j, None, tuple(hands[j])))
    st._showdown = showdown
    _pay(st, pots, ranks)


def _pay(st: HandState, pots: list[tuple[int, tuple[int, ...]]], ranks: list[int]) -> None:
    """Take the rake, then pay each pot to its best hand (``ranks[seat]``; 0 for a seat
    that did not show, which then wins only a pot nobody eligible showed for: see
    :func:`show_at_showdown`)."""
    n = st._n
    stacks = st._stacks
    log = st._log
    button = st._button
    rake = 0
    if st._rc.rake or st._rake_given is not None:
        rake = rake_of(st, sum(a for a, _ in pots), True)
    if rake:
        st._rake = rake
        log.append((ev.RAKE, None, rake, None))
    left = rake  # taken from the main pot first, then from each side pot in turn
    done: list[PotRecord] = []
    for amt, elig in pots:
        take = left if left < amt else amt
        left -= take
        shown = [j for j in elig if ranks[j]]
        if shown:
            best = min([ranks[j] for j in shown])
            winners = [j for j in shown if ranks[j] == best]
        else:  # a record: nobody eligible showed; the last of them in turn to muck takes it
            order = st._sd_order or ()
            winners = [max(elig, key=order.index)]
        shares = split_pot(amt - take, winners, button, n)
        for j, x in shares:
            stacks[j] += x
            log.append((ev.WIN, j, x, None))
        done.append((amt, elig, tuple(winners), tuple(shares)))
    st._pots = done


def rake_of(st: HandState, pot: int, drew: bool) -> int:
    """The chips the house takes from a pot of ``pot`` chips (the uncalled bet already
    returned): the record's rake (at most the pot: a reader of a record compares what
    was taken with what the record says), else the rules' percentage rounded down to the chip and
    capped - nothing from a hand that ended before the first draw under "no draw, no
    drop" (docs/rules.md: *The rake*)."""
    if st._rake_given is not None:  # (never more than the pot: the hand still ends)
        return st._rake_given if st._rake_given < pot else pot
    rc = st._rc
    if not rc.rake or (not drew and rc.rake_no_draw_no_drop):
        return 0
    r = round(pot * rc.rake) if rc.rake_half_even else int(pot * rc.rake)
    return r if not rc.rake_cap or r < rc.rake_cap else rc.rake_cap


def _next_to_show(st: HandState) -> None:
    """A record's showdown: the next seat that must show or muck; a seat whose every
    opponent in the pots he is eligible for has mucked wins them without showing. Once
    every seat is done, the pots are paid and the hand is over."""
    order = st._sd_order
    layers = st._layers
    assert order is not None and layers is not None
    done = dict(st._showdown or ())
    mucked = {j for j, shown in done.items() if not shown}
    for j in order:
        if j in done:
            continue
        alone = True  # every opponent in each pot he is eligible for has mucked
        for _a, e in layers:
            if j in e:
                for x in e:
                    if x != j and x not in mucked:
                        alone = False
                        break
                if not alone:
                    break
        if alone:
            done[j] = False
            assert st._showdown is not None
            st._showdown.append((j, False))
            continue
        st._actor = j
        return
    st._actor = None
    st._phase = OVER
    rank_ids = st._rc.rank or st._core.rank_ids
    ranks = [0] * st._n
    for j, shown in st._showdown or ():
        if shown:
            ranks[j] = rank_ids(st._hands[j])
    _pay(st, layers, ranks)
    st._layers = None


def show_at_showdown(st: HandState, cards: Any) -> None:
    """A record's showdown: the actor shows (``Hand.show``)."""
    j: int = st._actor  # type: ignore[assignment]
    held = st._hands[j]
    if cards is None:
        if UNKNOWN in held:
            raise IllegalActionError(
                f"seat {j} must name the cards he shows: the record does not know "
                f"{held.count(UNKNOWN)} of them"
            )
        ids = list(held)
    else:
        try:
            ids = to_ids(cards)
        except CardError as e:
            raise IllegalActionError(f"seat {j} shows bad cards: {e}") from None
        k = st._rc.hand_size
        if len(ids) != k or len(set(ids)) != k:
            what = "one card" if k == 1 else f"{_COUNT[k]} different cards"
            raise IllegalActionError(f"seat {j} must show {what}, got {len(ids)}")
        why = outside_deck(st, ids)
        if why is not None:
            raise IllegalActionError(f"seat {j} cannot show {why}")
        known = [c for c in held if c != UNKNOWN]
        missing = [c for c in known if c not in ids]
        if missing:
            raise IllegalActionError(
                f"seat {j} shows {_text(ids)} but holds {_text(missing)}, which he does not show"
            )
        new = [c for c in ids if c not in known]
        if not _unplaced(st, new, j):
            for c in new:
                where = known_place(st, c, j)
                if where is not None:
                    raise IllegalActionError(f"seat {j} cannot show {CARD_TEXT[c]}: {where}")
        it = iter(new)
        ids = [next(it) if c == UNKNOWN else c for c in held]
    st._hands[j] = ids
    assert st._showdown is not None
    st._showdown.append((j, True))
    st._log.append((ev.SHOW, j, None, tuple(ids)))
    _next_to_show(st)


def _unplaced(st: HandState, cards: list[int], j: int) -> bool:
    """Whether none of ``cards`` has a known place (:func:`known_place` of each is
    ``None``), in one pass over the places (a showdown has no declared draw)."""
    if st._declared:
        return False
    placed = set(st._out)
    live = st._live
    hands = st._hands
    for x in range(st._n):
        if x != j and live[x]:
            placed.update(hands[x])
    if not placed.isdisjoint(cards):
        return False
    deck = st._deck
    if type(deck) is RecordStub and not deck._known:  # (a stub of unknown cards only)
        return True
    return not any(c in deck for c in cards)


def muck_at_showdown(st: HandState) -> None:
    """A record's showdown: the actor mucks (``Hand.muck``)."""
    j: int = st._actor  # type: ignore[assignment]
    assert st._showdown is not None
    st._showdown.append((j, False))
    st._log.append((ev.MUCK, j, None, None))
    _next_to_show(st)


_COUNT = ("no", "one", "two", "three", "four", "five")


def _text(ids: Any) -> str:
    return " ".join(CARD_TEXT[c] for c in ids)


def hand_result(st: HandState) -> HandResult | None:
    """The :class:`HandResult` once the hand is over (built once), else ``None``."""
    if st._pots is None:
        return None
    r = st._result
    if r is None:
        evaluate = st._rc.evaluate or st._core.evaluate  # (hands of < 5 cards: short_hands)
        entries = []
        for j, shown in st._showdown or ():
            if shown:
                cards = st._hands[j]
                hr = evaluate(list(cards))
                entries.append(
                    ShowdownEntry(j, True, tuple(CARD_TEXT[c] for c in cards), hr.rank, hr.name)
                )
            else:
                entries.append(ShowdownEntry(j, False, None, None, None))
        pots = tuple(
            Pot(a, tuple(e), tuple(w), tuple((j, x) for j, x in sh)) for a, e, w, sh in st._pots
        )
        r = HandResult(
            pots,
            tuple(entries),
            st._returned,
            tuple(x - y for x, y in zip(st._stacks, st._start, strict=True)),
            tuple(st._stacks),
            st._rake,
        )
        st._result = r
    return r


def _beaten(
    j: int, ranks: list[int], shown: list[int], pots: list[tuple[int, tuple[int, ...]]]
) -> bool:
    """True if in every pot seat ``j`` is eligible for, a shown hand beats his."""
    mine = ranks[j]
    for _amt, elig in pots:
        if j in elig and not any(ranks[t] < mine for t in shown if t in elig):
            return False
    return True
