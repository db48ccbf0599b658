"""Pot arithmetic (uncalled bets, side pots and odd chips; docs/rules.md: *Showdown*), as pure
functions.

Everything works on the per-seat totals a hand has put in (antes, blinds and bets) and on
which seats are still in the hand; no floats, and the sum of what goes out always equals
the sum of what came in.
"""

from __future__ import annotations

__all__ = ["uncalled", "make_pots", "split_pot", "odd_chip_order"]


def uncalled(total: list[int]) -> tuple[int, int]:
    """``(seat, amount)`` of the bet nobody matched: the top contributor's excess over the
    second highest contribution (folded players' money counts); ``(-1, 0)`` if none."""
    top = -1
    first = second = 0
    for seat, t in enumerate(total):
        if t > first:
            second = first
            first = t
            top = seat
        elif t > second:
            second = t
    if top < 0 or first == second:
        return -1, 0
    return top, first - second


def make_pots(total: list[int], live: list[bool]) -> list[tuple[int, tuple[int, ...]]]:
    """Main pot and side pots as ``(amount, eligible seats)``, main pot first.

    Layers are cut at the totals of the players still in the hand; folded players' money
    stays in the layers it reached. Adjacent layers with the same eligible seats merge.
    Money of folded players above every live player's total (possible only when a player
    folds although he could check) joins the last pot.
    """
    levels = sorted({t for t, alive in zip(total, live, strict=True) if alive})
    pots: list[tuple[int, tuple[int, ...]]] = []
    prev = 0
    n = len(total)
    for level in levels:
        amount = 0
        for t in total:
            if t > prev:
                amount += (level if t > level else t) - prev
        eligible = tuple(s for s in range(n) if live[s] and total[s] >= level)
        if pots and pots[-1][1] == eligible:
            pots[-1] = (pots[-1][0] + amount, eligible)
        elif amount:
            pots.append((amount, eligible))
        prev = level
    rest = sum(t - prev for t in total if t > prev)
    if rest:
        if pots:
            pots[-1] = (pots[-1][0] + rest, pots[-1][1])
        else:  # nobody live put anything in: cannot happen in a dealt hand
            pots.append((rest, tuple(s for s in range(n) if live[s])))
    return pots


def odd_chip_order(seats: tuple[int, ...] | list[int], button: int, n: int) -> list[int]:
    """Seats sorted clockwise starting with the first seat left of the button."""
    return sorted(seats, key=lambda s: (s - button - 1) % n)


def split_pot(amount: int, winners: list[int], button: int, n: int) -> list[tuple[int, int]]:
    """``[(seat, chips)]``: equal shares, the odd chips one at a time to the winners in seat
    order from the first seat left of the button (heads-up: the big blind)."""
    k = len(winners)
    if k == 1:
        return [(winners[0], amount)]
    share, odd = divmod(amount, k)
    order = odd_chip_order(winners, button, n)
    return [(s, share + (1 if i < odd else 0)) for i, s in enumerate(order)]
