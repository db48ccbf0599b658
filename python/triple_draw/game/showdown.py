"""The end of a hand (uncalled bets, showdown and pots; rules: *Showdown*), as functions
of a :class:`HandState`.

The showdown is automatic: players show in the rules' order (the last bettor or raiser of
round 4 first, else the first player left of the button, then clockwise). With the
``muck_beaten_hands`` option a player mucks exactly when, in every pot he is eligible
for, a hand shown before him is strictly better - so mucking never changes who wins.
"""

from __future__ import annotations


from triple_draw.game.cards import CARD_TEXT
from triple_draw.game import events as ev
from triple_draw.game.phase import DONE, OVER
from triple_draw.game.pots import make_pots, split_pot
from triple_draw.game.result import HandResult, Pot, ShowdownEntry
from triple_draw.game.state import HandState, PotRecord

__all__ = ["finish", "hand_result"]


def finish(st: HandState) -> None:
    """The hand is over: the uncalled bet goes back, then the last player wins, or the
    showdown decides each pot."""
    n = st._n
    total = st._total
    stacks = st._stacks
    live = st._live
    log = st._log
    srt = sorted(total)
    top = srt[-1]
    if top != srt[-2]:  # the bet nobody matched goes back first
        seat = total.index(top)
        amount = top - srt[-2]
        total[seat] = srt[-2]
        stacks[seat] += amount
        st._returned = (seat, amount)
        log.append((ev.RETURN, seat, amount, None))
    st._phase = OVER
    st._in_draw = False
    st._actor = None
    st._active = [DONE] * n  # nobody bets any more
    st._n_active = 0
    if st._n_live == 1:
        # everyone else folded: the last player wins everything, no showdown
        w = live.index(True)
        amt = sum(total)
        stacks[w] += amt
        st._pots = [(amt, (w,), (w,), ((w, amt),))]
        st._showdown = []
        log.append((ev.WIN, w, amt, None))
        return
    first = st._last_aggr
    if first is None or not live[first]:
        order = [j for j in st._cw if live[j]]
    else:
        order = [j % n for j in range(first, first + n) if live[j % n]]
    level = total[order[0]]
    for j in order:
        if total[j] != level:
            pots = make_pots(total, live)
            break
    else:  # nobody all-in for less: one pot
        pots = [(sum(total), tuple(sorted(order)))]
    rank_ids = st._core.rank_ids
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
    button = st._button
    done: list[PotRecord] = []
    for amt, elig in pots:
        best = min([ranks[j] for j in elig])
        winners = [j for j in elig if ranks[j] == best]
        shares = split_pot(amt, winners, button, n)
        for j, x in shares:
            stacks[j] += x
            log.append((ev.WIN, j, x, None))
        done.append((amt, elig, tuple(winners), tuple(shares)))
    st._pots = done
    st._showdown = showdown


def hand_result(st: HandState) -> HandResult | None:
    """The :class:`HandResult` once the hand is over (built once), else ``None``."""
    if st._pots is None:
        return None
    r = st._result
    if r is None:
        evaluate = st._core.evaluate
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
