"""The end of a hand (uncalled bets, showdown and pots; README: *Showdown*), a mixin of
Hand.

The showdown is automatic: players show in the rules' order (the last bettor or raiser of
round 4 first, else the first player left of the button, then clockwise). With the
``muck_beaten_hands`` option a player mucks exactly when, in every pot he is eligible
for, a hand shown before him is strictly better - so mucking never changes who wins.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from triple_draw.game.cards import CARD_TEXT
from triple_draw.game.phase import OVER
from triple_draw.game.pots import make_pots, split_pot
from triple_draw.game.result import HandResult, Pot, ShowdownEntry

__all__ = ["ShowdownMixin"]


class ShowdownMixin:
    if not TYPE_CHECKING:  # the attributes live in Hand.__slots__
        __slots__ = ()

    _n: int
    _button: int
    _live: list[bool]
    _n_live: int
    _hands: list[list[int]]
    _stacks: list[int]
    _total: list[int]
    _start: tuple[int, ...]
    _last_aggr: int
    _log: list[tuple[Any, ...]]
    _c: tuple[Any, ...]
    _core: Any
    _phase: int
    _in_draw: bool
    _actor: Any
    _returned: tuple[int, int] | None
    _pots: list[tuple[Any, ...]] | None
    _showdown: list[tuple[int, bool]] | None
    _cw: tuple[int, ...]
    _result: HandResult | None

    def _finish(self) -> None:
        n = self._n
        total = self._total
        st = self._stacks
        live = self._live
        log = self._log
        srt = sorted(total)
        top = srt[-1]
        if top != srt[-2]:  # the bet nobody matched goes back first
            seat = total.index(top)
            amount = top - srt[-2]
            total[seat] = srt[-2]
            st[seat] += amount
            self._returned = (seat, amount)
            log.append(("return", seat, amount, None))
        self._phase = OVER
        self._in_draw = False
        self._actor = None
        if self._n_live == 1:
            # everyone else folded: the last player wins everything, no showdown
            w = live.index(True)
            amt = sum(total)
            st[w] += amt
            self._pots = [(amt, (w,), (w,), ((w, amt),))]
            self._showdown = []
            log.append(("win", w, amt, None))
            return
        first = self._last_aggr
        if first < 0 or not live[first]:
            first = -1
            order = [j for j in self._cw if live[j]]
        else:
            order = [j % n for j in range(first, first + n) if live[j % n]]
        level = total[first if first >= 0 else order[0]]
        for j in order:
            if total[j] != level:
                pots = make_pots(total, live)
                break
        else:  # nobody all-in for less: one pot
            pots = [(sum(total), tuple(sorted(order)))]
        rank_ids = self._core.rank_ids
        hands = self._hands
        ranks = [0] * n
        for j in order:
            ranks[j] = rank_ids(hands[j])
        muck = self._c[5]
        showdown: list[tuple[int, bool]] = []
        shown: list[int] = []
        for j in order:
            if muck and shown and _beaten(j, ranks, shown, pots):
                showdown.append((j, False))
                log.append(("muck", j, None, None))
            else:
                showdown.append((j, True))
                shown.append(j)
                log.append(("show", j, None, tuple(hands[j])))
        button = self._button
        done: list[tuple[Any, ...]] = []
        for amt, elig in pots:
            best = min([ranks[j] for j in elig])
            winners = [j for j in elig if ranks[j] == best]
            shares = split_pot(amt, winners, button, n)
            for j, x in shares:
                st[j] += x
                log.append(("win", j, x, None))
            done.append((amt, elig, tuple(winners), tuple(shares)))
        self._pots = done
        self._showdown = showdown

    @property
    def result(self) -> HandResult | None:
        """The :class:`HandResult` once the hand is over, else ``None``."""
        if self._pots is None:
            return None
        r = self._result
        if r is None:
            evaluate = self._core.evaluate
            entries = []
            for j, shown in self._showdown or ():
                if shown:
                    cards = self._hands[j]
                    hr = evaluate(list(cards))
                    entries.append(
                        ShowdownEntry(j, True, tuple(CARD_TEXT[c] for c in cards), hr.rank, hr.name)
                    )
                else:
                    entries.append(ShowdownEntry(j, False, None, None, None))
            pots = tuple(
                Pot(a, tuple(e), tuple(w), tuple(tuple(x) for x in sh))
                for a, e, w, sh in self._pots
            )
            r = HandResult(
                pots,
                tuple(entries),
                self._returned,
                tuple(x - y for x, y in zip(self._stacks, self._start, strict=True)),
                tuple(self._stacks),
            )
            self._result = r
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
