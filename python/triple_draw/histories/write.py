"""Any hand written as a PokerStars hand history (``histories.dumps``).

The text has the shape PokerStars prints for Triple Draw 2-7 Lowball: the header, the
table and seats, the posts, ``*** DEALING HANDS ***``, the three draws with the viewer's
thrown, kept and new cards, ``*** SHOW DOWN ***`` with the shown hands, the collections,
and the summary with the total pot and the rake. Tools that read PokerStars histories
read it; :func:`triple_draw.histories.load` reads it back to the same hand.
"""

from __future__ import annotations

from collections import Counter
from decimal import Decimal
from typing import Any

from triple_draw.errors import ArgumentError, ArgumentTypeError
from triple_draw.game import events as ev
from triple_draw.game.hand import Hand
from triple_draw.game.rules import real_game_only

__all__ = ["dumps", "describe"]

_SIGNS = {"USD": "$", "EUR": "€", "GBP": "£"}
_RANK_WORDS = {
    "2": ("Deuce", "Deuces"),
    "3": ("Three", "Threes"),
    "4": ("Four", "Fours"),
    "5": ("Five", "Fives"),
    "6": ("Six", "Sixes"),
    "7": ("Seven", "Sevens"),
    "8": ("Eight", "Eights"),
    "9": ("Nine", "Nines"),
    "T": ("Ten", "Tens"),
    "J": ("Jack", "Jacks"),
    "Q": ("Queen", "Queens"),
    "K": ("King", "Kings"),
    "A": ("Ace", "Aces"),
}
_ORDER = "23456789TJQKA"
_ORDINAL = {1: "1st", 2: "2nd", 3: "3rd"}


def describe(cards: list[str]) -> str:
    """A five-card hand as PokerStars names it at a 2-7 showdown (``Lo: 8,6,5,3,2``, ``Lo: a
    pair of Fives``, ``Lo: a straight, Four to Eight``...)."""
    ranks = sorted((c[0] for c in cards), key=_ORDER.index, reverse=True)
    counts = Counter(ranks)
    flush = len({c[1] for c in cards}) == 1
    idx = sorted({_ORDER.index(r) for r in ranks})
    straight = len(idx) == 5 and idx[-1] - idx[0] == 4
    groups = sorted(counts.items(), key=lambda kv: (-kv[1], -_ORDER.index(kv[0])))
    top = groups[0]
    if straight:
        lo, hi = _RANK_WORDS[_ORDER[idx[0]]][0], _RANK_WORDS[_ORDER[idx[-1]]][0]
        return f"Lo: a straight{' flush' if flush else ''}, {lo} to {hi}"
    if top[1] == 4:
        return f"Lo: four of a kind, {_RANK_WORDS[top[0]][1]}"
    if top[1] == 3 and groups[1][1] == 2:
        return f"Lo: a full house, {_RANK_WORDS[top[0]][1]} full of {_RANK_WORDS[groups[1][0]][1]}"
    if flush:
        return f"Lo: a flush, {_RANK_WORDS[ranks[0]][0]} high"
    if top[1] == 3:
        return f"Lo: three of a kind, {_RANK_WORDS[top[0]][1]}"
    if top[1] == 2 and groups[1][1] == 2:
        return f"Lo: two pair, {_RANK_WORDS[top[0]][1]} and {_RANK_WORDS[groups[1][0]][1]}"
    if top[1] == 2:
        return f"Lo: a pair of {_RANK_WORDS[top[0]][1]}"
    return "Lo: " + ",".join(ranks)


class _Money:
    __slots__ = ("places", "sign", "unit")

    def __init__(self, unit: Decimal, currency: str | None) -> None:
        self.unit = unit
        self.sign = _SIGNS.get(currency or "", "")
        e = unit.normalize().as_tuple().exponent
        self.places = max(0, -e) if isinstance(e, int) else 0

    def __call__(self, chips: int) -> str:
        if self.unit == 1:
            return f"{self.sign}{chips}"
        amount = chips * self.unit
        if amount == amount.to_integral_value():
            return f"{self.sign}{int(amount)}"
        return f"{self.sign}{amount:.{max(2, self.places)}f}"


def dumps(
    hand: Hand,
    site: str = "pokerstars",
    *,
    viewer: int | None = None,
    players: Any = None,
    hand_id: str | int = 1,
    table: str = "triple_draw",
    date: str = "2026/01/01 12:00:00 ET",
    chip_unit: Decimal | str | int = 1,
    currency: str | None = None,
    seat_numbers: Any = None,
    tournament_id: str | int | None = None,
    buy_in: str = "$1+$0.10 USD",
    level: str = "I",
) -> str:
    """The PokerStars hand history of the finished ``hand``.

    - ``viewer``: the seat whose cards the history shows ("Dealt to", his thrown and new
      cards); the others' cards appear only where shown at the showdown. ``None`` shows
      every seat's cards (full information: a "Dealt to" line for each player). A hand
      replayed from a record shows its known cards either way.
    - ``players``: the names by seat (default ``Player1`` ...); ``seat_numbers``: the
      printed seat numbers by seat (default 1..n).
    - ``chip_unit`` and ``currency``: the money of a chip (``Decimal("0.01")`` and
      ``"USD"`` write ``$0.10/$0.20 USD``); by default amounts are written as chips, as in
      a play-money game. ``tournament_id`` (with ``buy_in`` and ``level``) writes a
      tournament's header and stacks "in chips".
    - ``hand_id``, ``table``, ``date``: the header's.

    PokerStars has no words for some of the engine's hands: a hand in progress, and more
    than eight players, raise :class:`~triple_draw.errors.ArgumentError`. The rules are not
    written (PokerStars' header names only the stakes): read back a hand of other rules
    with ``load(..., rules=...)``.
    """
    if not isinstance(hand, Hand):
        raise ArgumentTypeError(f"dumps expects a Hand, got {type(hand).__name__}")
    if site != "pokerstars":
        raise ArgumentError(f"histories.dumps writes site='pokerstars' only, got {site!r}")
    real_game_only(hand.rules, "site histories")
    if not hand.is_over:
        raise ArgumentError("only a finished hand can be written as a PokerStars hand history")
    n = hand.n_players
    if viewer is not None and (type(viewer) is not int or not 0 <= viewer < n):
        raise ArgumentError(f"viewer must be a seat 0..{n - 1} or None, got {viewer!r}")
    names = _names(players, n)
    numbers = _numbers(seat_numbers, n)
    try:
        unit = Decimal(str(chip_unit))
    except ArithmeticError:
        raise ArgumentError(f"chip_unit must be an amount of money, got {chip_unit!r}") from None
    if not unit.is_finite() or unit <= 0:
        raise ArgumentError(f"chip_unit must be > 0, got {chip_unit!r}")
    if currency is not None and currency not in _SIGNS:
        raise ArgumentError(f"currency must be one of {sorted(_SIGNS)} or None, got {currency!r}")
    for text, what in ((str(hand_id), "hand_id"), (table, "table"), (date, "date")):
        if not text or "\n" in text or "\r" in text:
            raise ArgumentError(f"{what} must be a one-line text, got {text!r}")
    m = _Money(unit, currency if tournament_id is None else None)
    rules = hand.rules
    out: list[str] = []
    stakes = f"{m(rules.small_bet)}/{m(rules.big_bet)}"
    if tournament_id is not None:
        out.append(
            f"PokerStars Hand #{hand_id}: Tournament #{tournament_id}, {buy_in} Triple Draw "
            f"2-7 Lowball Limit - Level {level} ({stakes}) - {date}"
        )
    else:
        cur = f" {currency}" if currency else ""
        out.append(
            f"PokerStars Hand #{hand_id}:  Triple Draw 2-7 Lowball Limit ({stakes}{cur}) - {date}"
        )
    button = hand.button
    out.append(f"Table '{table}' {max(6, n)}-max Seat #{numbers[button]} is the button")
    for s in range(n):
        out.append(f"Seat {numbers[s]}: {names[s]} ({m(hand.starting_stacks[s])} in chips)")
    log = hand.history
    shown = _shown(hand, viewer)
    # the posts, up to the deal
    i = 0
    blinds_seen = bb_seen = False
    extra: dict[int, list[int]] = {}
    order: list[int] = []
    stacks = list(hand.starting_stacks)
    while i < len(log) and log[i].kind in (ev.POST_ANTE, ev.POST_SMALL_BLIND, ev.POST_BIG_BLIND):
        e = log[i]
        i += 1
        seat, a = e.seat, e.amount or 0
        assert seat is not None
        s = seat
        stacks[s] -= a
        allin = " and is all-in" if stacks[s] == 0 else ""
        if e.kind == ev.POST_ANTE and not blinds_seen:
            out.append(f"{names[s]}: posts the ante {m(a)}{allin}")
        elif e.kind == ev.POST_SMALL_BLIND:
            blinds_seen = True
            out.append(f"{names[s]}: posts small blind {m(a)}{allin}")
        elif e.kind == ev.POST_BIG_BLIND and not bb_seen:
            blinds_seen = bb_seen = True
            out.append(f"{names[s]}: posts big blind {m(a)}{allin}")
        else:  # a player coming in: live (big blind) and dead (small blind) parts
            blinds_seen = True
            if s not in extra:
                extra[s] = [0, 0]
                order.append(s)
            extra[s][0 if e.kind == ev.POST_BIG_BLIND else 1] += a
    for s in order:
        live, dead = extra[s]
        allin = " and is all-in" if stacks[s] == 0 else ""
        if live and dead:
            out.append(f"{names[s]}: posts small & big blinds {m(live + dead)}{allin}")
        elif live:
            out.append(f"{names[s]}: posts big blind {m(live)}{allin}")
        else:
            out.append(f"{names[s]}: posts small blind {m(dead)}{allin}")
    out.append("*** DEALING HANDS ***")
    holding: list[list[str]] = [[] for _ in range(n)]
    for e in log[i:]:
        if e.kind != ev.DEAL:
            break
        i += 1
        assert e.seat is not None and e.cards is not None
        holding[e.seat] = list(e.cards)
        if e.seat in shown and "??" not in e.cards:
            out.append(f"Dealt to {names[e.seat]} [{' '.join(e.cards)}]")
    bets = [0] * n
    level_ = 0
    for e in log[:i]:
        if e.kind in (ev.POST_SMALL_BLIND, ev.POST_BIG_BLIND) and e.seat is not None:
            bets[e.seat] += e.amount or 0
            level_ = max(level_, bets[e.seat])
    thrown_by: dict[int, tuple[str, ...]] = {}
    collected: dict[int, int] = {}
    showdown = False
    pots = hand.result.pots
    win_pot = 0
    for e in log[i:]:
        k = e.kind
        if e.seat is None:
            if k == ev.BEGIN_ROUND and e.amount:  # (round 1's bets are the blinds)
                bets = [0] * n
                level_ = 0
            elif k == ev.BEGIN_DRAW:
                out.append(f"*** {('FIRST', 'SECOND', 'THIRD')[e.amount or 0]} DRAW ***")
            continue
        s = e.seat
        if k == ev.FOLD:
            out.append(f"{names[s]}: folds")
        elif k == ev.CHECK:
            out.append(f"{names[s]}: checks")
        elif k in (ev.CALL, ev.BET, ev.RAISE):
            assert s is not None and e.amount is not None
            added = e.amount - bets[s]
            stacks[s] -= added
            allin = " and is all-in" if stacks[s] == 0 else ""
            if k == ev.CALL:
                out.append(f"{names[s]}: calls {m(added)}{allin}")
            elif k == ev.BET or level_ == 0:
                out.append(f"{names[s]}: bets {m(added)}{allin}")
            else:
                out.append(f"{names[s]}: raises {m(e.amount - level_)} to {m(e.amount)}{allin}")
            bets[s] = e.amount
            level_ = max(level_, e.amount)
        elif k == ev.DISCARD:
            assert s is not None and e.cards is not None
            cnt = len(e.cards)
            known = s in shown and "??" not in e.cards and "??" not in holding[s]
            if cnt == 0:
                if known:
                    out.append(f"{names[s]}: stands pat on [{' '.join(holding[s])}]")
                else:
                    out.append(f"{names[s]}: stands pat")
                continue
            word = "card" if cnt == 1 else "cards"
            if known:
                out.append(f"{names[s]}: discards {cnt} {word} [{' '.join(e.cards)}]")
                thrown_by[s] = e.cards
            else:
                out.append(f"{names[s]}: discards {cnt} {word}")
            kept = list(holding[s])
            for c in e.cards:
                if c in kept:
                    kept.remove(c)
                elif "??" in kept:
                    kept.remove("??")
            holding[s] = kept
        elif k == ev.DRAW:
            assert s is not None and e.cards is not None
            kept = holding[s]
            holding[s] = kept + list(e.cards)
            if s in thrown_by and "??" not in e.cards:
                out.append(f"Dealt to {names[s]} [{' '.join(kept)}] [{' '.join(e.cards)}]")
            thrown_by.pop(s, None)
        elif k == ev.RETURN:
            assert s is not None and e.amount is not None
            out.append(f"Uncalled bet ({m(e.amount)}) returned to {names[s]}")
        elif k == ev.SHOW:
            if not showdown:
                showdown = True
                out.append("*** SHOW DOWN ***")
            assert s is not None and e.cards is not None
            out.append(f"{names[s]}: shows [{' '.join(e.cards)}] ({describe(list(e.cards))})")
            holding[s] = list(e.cards)
        elif k == ev.MUCK:
            if not showdown:
                showdown = True
                out.append("*** SHOW DOWN ***")
            out.append(f"{names[s]}: mucks hand")
        elif k == ev.WIN:
            assert s is not None and e.amount is not None
            while win_pot < len(pots) - 1 and not _in_pot(pots[win_pot], s, e.amount, collected):
                win_pot += 1
            name = _pot_name(win_pot, len(pots))
            out.append(f"{names[s]} collected {m(e.amount)} from {name}")
            collected[s] = collected.get(s, 0) + e.amount
    res = hand.result
    total = sum(p.amount for p in res.pots)
    pot_text = f"Total pot {m(total)}"
    if len(res.pots) > 1:
        pot_text += f" Main pot {m(res.pots[0].amount)}."
        if len(res.pots) == 2:
            pot_text += f" Side pot {m(res.pots[1].amount)}."
        else:
            pot_text += "".join(
                f" Side pot-{j} {m(p.amount)}." for j, p in enumerate(res.pots[1:], 1)
            )
    out.append("*** SUMMARY ***")
    out.append(f"{pot_text} | Rake {m(res.rake)}")
    out.extend(_summary(hand, names, numbers, m, collected))
    return "\n".join(out) + "\n"


def _in_pot(pot: Any, s: int, amount: int, collected: dict[int, int]) -> bool:
    return any(j == s and x == amount for j, x in pot.shares)


def _pot_name(j: int, count: int) -> str:
    if count == 1:
        return "pot"
    if j == 0:
        return "main pot"
    return "side pot" if count == 2 else f"side pot-{j}"


def _shown(hand: Hand, viewer: int | None) -> set[int]:
    """The seats whose own cards the history shows."""
    if viewer is None:
        return set(range(hand.n_players))
    return {viewer}


def _names(players: Any, n: int) -> list[str]:
    if players is None:
        return [f"Player{s + 1}" for s in range(n)]
    try:
        names = [str(p) for p in players]
    except TypeError:
        raise ArgumentError(f"players must be {n} names, got {players!r}") from None
    if len(names) != n:
        raise ArgumentError(f"players must be {n} names (one per seat), got {len(names)}")
    for p in names:
        if not p or p != p.strip() or any(c in p for c in "\r\n") or p.startswith("*"):
            raise ArgumentError(f"a player's name must be a one-line, trimmed text, got {p!r}")
    if len(set(names)) != n:
        raise ArgumentError(f"the players' names must differ, got {names}")
    for p in names:
        for q in names:
            if p != q and q.startswith(p + ":"):
                raise ArgumentError(f"the name {q!r} starts with another player's name {p!r}")
    return names


def _numbers(numbers: Any, n: int) -> list[int]:
    if numbers is None:
        return list(range(1, n + 1))
    try:
        out = [int(x) for x in numbers]
    except (TypeError, ValueError):
        raise ArgumentError(f"seat_numbers must be {n} ints, got {numbers!r}") from None
    if len(out) != n or out != sorted(set(out)) or out[0] < 1:
        raise ArgumentError(
            f"seat_numbers must be {n} increasing seat numbers from 1, got {numbers!r}"
        )
    return out


def _summary(
    hand: Hand, names: list[str], numbers: list[int], m: _Money, collected: dict[int, int]
) -> list[str]:
    res = hand.result
    n = hand.n_players
    sb, bb, btn = hand.small_blind_seat, hand.big_blind_seat, hand.button
    showed = {e.seat: e for e in res.showdown}
    folded_at: dict[int, int] = {}
    draws_done = 0
    for e in hand.history:
        if e.kind == ev.BEGIN_DRAW:
            draws_done = (e.amount or 0) + 1
        elif e.kind == ev.FOLD and e.seat is not None:
            folded_at[e.seat] = draws_done
    out = []
    for s in range(n):
        tags = []
        if s == btn:
            tags.append("button")
        if s == sb:
            tags.append("small blind")
        elif s == bb:
            tags.append("big blind")
        pos = "".join(f" ({t})" for t in tags)
        won = collected.get(s, 0)
        if s in folded_at:
            d = folded_at[s]
            when = "before the Draw" if d == 0 else f"after the {_ORDINAL[d]} Draw"
            text = f"folded {when}"
        elif s in showed and showed[s].shown:
            cards = showed[s].cards or ()
            desc = describe(list(cards))
            text = f"showed [{' '.join(cards)}] and " + (
                f"won ({m(won)}) with {desc}" if won else f"lost with {desc}"
            )
        elif s in showed:
            text = "mucked"
        else:
            text = f"collected ({m(won)})"
        out.append(f"Seat {numbers[s]}: {names[s]}{pos} {text}")
    return out
