"""Any hand written as a site's hand history (``histories.dumps``): PokerStars, Full Tilt
Poker or Winamax.

The text has the shape the site prints for fixed-limit 2-7 Triple Draw: the header, the
table and seats, the posts, the deal, the three draws with the viewer's thrown, kept and
new cards, the showdown with the shown hands, the collections, and the summary with the
total pot and the rake. One walk over the hand's events writes every site; a site's
*voice* (:class:`_PokerStars` and its subclasses) words each line. Tools that read the
site's histories read it; :func:`triple_draw.histories.load` reads it back to the same
hand.
"""

from __future__ import annotations

import re
from collections import Counter
from decimal import Decimal
from typing import Any, ClassVar, NamedTuple

from triple_draw.errors import ArgumentError, ArgumentTypeError, shown
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
    """Chips as a site prints money: ``unit`` a chip's worth; the currency's sign before
    the amount (``$0.10``) or after it (``0.10€``); thousands grouped or not."""

    __slots__ = ("after", "group", "places", "sign", "unit")

    def __init__(
        self, unit: Decimal, currency: str | None, *, after: bool = False, group: bool = False
    ) -> None:
        self.unit = unit
        self.sign = _SIGNS.get(currency or "", "")
        self.after = after
        self.group = group
        e = unit.normalize().as_tuple().exponent
        self.places = max(0, -e) if isinstance(e, int) else 0

    def __call__(self, chips: int) -> str:
        if self.unit == 1:
            text = f"{chips:,}" if self.group else f"{chips}"
        else:
            amount = chips * self.unit
            g = "," if self.group else ""
            if amount == amount.to_integral_value():
                text = f"{int(amount):{g}}"
            else:
                text = f"{amount:{g}.{max(2, self.places)}f}"
        return f"{text}{self.sign}" if self.after else f"{self.sign}{text}"


def dumps(
    hand: Hand,
    site: str = "pokerstars",
    *,
    viewer: int | None = None,
    players: Any = None,
    hand_id: str | int = 1,
    table: str = "triple_draw",
    date: str | None = None,
    chip_unit: Decimal | str | int = 1,
    currency: str | None = None,
    seat_numbers: Any = None,
    tournament_id: str | int | None = None,
    buy_in: str | None = None,
    level: str | None = None,
    max_seats: int | None = None,
) -> str:
    """The hand history of the finished ``hand`` as ``site`` prints it: ``"pokerstars"``
    (the default), ``"fulltilt"`` (Full Tilt Poker) or ``"winamax"``.

    - ``viewer``: the seat whose cards the history shows ("Dealt to", his thrown and new
      cards); the others' cards appear only where shown at the showdown. ``None`` shows
      every seat's cards (full information: a "Dealt to" line for each player). A hand
      replayed from a record shows its known cards either way.
    - ``players``: the names by seat (default ``Player1`` ...); ``seat_numbers``: the
      printed seat numbers by seat (default 1..n).
    - ``chip_unit`` and ``currency``: the money of a chip (``Decimal("0.01")`` and
      ``"USD"`` write ``$0.10/$0.20 USD``); by default amounts are written as chips, as in
      a play-money game. Winamax plays in euros: its ``currency`` is ``"EUR"`` or
      ``None``. ``tournament_id`` (with ``buy_in`` and ``level``, default PokerStars'
      ``"I"``, none at Full Tilt Poker) writes a tournament's header, its amounts in
      chips.
    - ``max_seats``: the table's size (default 6, or the number of players if more);
      2 prints a heads-up table.
    - ``hand_id`` (digits; Winamax's may hold dashes), ``table``, ``date``: the header's,
      ``date`` as the site prints it (default: PokerStars ``2026/01/01 12:00:00 ET``,
      Full Tilt ``12:00:00 ET - 2026/01/01``, Winamax ``2026/01/01 12:00:00 UTC``).

    A site has no words for some of the engine's hands: a hand in progress, and more than
    eight players, raise :class:`~triple_draw.errors.ArgumentError`. The rules are not
    written (a site's header names only the stakes): read back a hand of other rules with
    ``load(..., rules=...)``.
    """
    if not isinstance(hand, Hand):
        raise ArgumentTypeError(f"dumps expects a Hand, got {type(hand).__name__}")
    voice = _VOICES.get(site) if isinstance(site, str) else None
    if voice is None:
        raise ArgumentError(f"site must be one of {sorted(_VOICES)}, got {site!r}")
    real_game_only(hand.rules, "site histories")
    if not hand.is_over:
        raise ArgumentError(f"only a finished hand can be written as a {voice.name} hand history")
    n = hand.n_players
    if n > 8:
        raise ArgumentError(f"a {voice.name} hand history seats at most 8 players, not {n}")
    if viewer is not None and (type(viewer) is not int or not 0 <= viewer < n):
        raise ArgumentError(f"viewer must be a seat 0..{n - 1} or None, got {viewer!r}")
    names = _names(players, n, voice.sep)
    numbers = _numbers(seat_numbers, n)
    try:
        unit = Decimal(str(chip_unit))
    except ArithmeticError:
        raise ArgumentError(f"chip_unit must be an amount of money, got {chip_unit!r}") from None
    if not unit.is_finite() or unit <= 0:
        raise ArgumentError(f"chip_unit must be > 0, got {chip_unit!r}")
    if currency is not None and currency not in voice.currencies:
        raise ArgumentError(
            f"currency must be one of {sorted(voice.currencies)} or None for {voice.name}, "
            f"got {currency!r}"
        )
    if date is None:
        date = voice.date
    number: object = hand_id
    if type(hand_id) is int and 0 <= hand_id < 10**30:
        number = str(hand_id)
    texts = [(number, "hand_id"), (table, "table"), (date, "date")]
    texts += [(x, what) for x, what in ((buy_in, "buy_in"), (level, "level")) if x is not None]
    for text, what in texts:
        if type(text) is not str or not text or "\n" in text or "\r" in text:
            raise ArgumentError(f"{what} must be a one-line text, got {shown(text)}")
    assert isinstance(number, str)
    if not voice.hand_ids.fullmatch(number):
        raise ArgumentError(f"hand_id must be {voice.hand_id_words}, got {shown(hand_id)}")
    if max_seats is None:
        max_seats = max(6, n)
    elif type(max_seats) is not int or not n <= max_seats <= 10:
        raise ArgumentError(
            f"max_seats must be an int from {n} (the players) to 10, got {max_seats!r}"
        )
    if tournament_id is not None and not (
        (type(tournament_id) is int and 0 <= tournament_id < 10**30)
        or (type(tournament_id) is str and _DIGITS.fullmatch(tournament_id))
    ):
        raise ArgumentError(f"tournament_id must be digits, got {shown(tournament_id)}")
    real = currency is not None and tournament_id is None
    money = _Money(
        unit,
        currency if real else None,
        after=voice.sign_after,
        group=voice.group_money if real else voice.group_chips,
    )
    w = voice(hand, names, numbers, money, viewer)
    w.head(_Head(number, table, date, currency, tournament_id, buy_in, level, max_seats))
    w.walk()
    return "\n".join(w.out) + "\n"


_DIGITS = re.compile(r"[0-9]+")


class _Head(NamedTuple):
    """What the header of a history says beyond the hand (``dumps``' arguments)."""

    hand_id: str
    table: str
    date: str
    currency: str | None
    tournament_id: str | int | None
    buy_in: str | None
    level: str | None
    max_seats: int


class _PokerStars:
    """How PokerStars words a hand; the other sites' voices override what differs. One
    object writes one hand (:meth:`head`, then :meth:`walk`, into :attr:`out`)."""

    name = "PokerStars"
    #: between a player's name and his action
    sep = ": "
    all_in = " and is all-in"
    currencies = frozenset(_SIGNS)
    sign_after = False
    #: thousands grouped in money (``$1,004.50``), in chips (``1,520``)
    group_money = True
    group_chips = False
    date = "2026/01/01 12:00:00 ET"
    hand_ids = re.compile(r"[0-9]+")
    hand_id_words = "digits"
    buy_in = "$1+$0.10 USD"

    def __init__(
        self, hand: Hand, names: list[str], numbers: list[int], m: _Money, viewer: int | None
    ) -> None:
        self.hand = hand
        self.names = names
        self.numbers = numbers
        self.m = m
        self.shown = set(range(hand.n_players)) if viewer is None else {viewer}
        self.out: list[str] = []
        self.pots = hand.result.pots
        self.returned = hand.result.returned
        self.log = hand.history
        #: the draws done when each player who folded folded (filled by :meth:`walk`)
        self.folded_at: dict[int, int] = {}
        #: the button, the small blind (``None`` if none was posted: a heads-up button
        #: all-in from his ante) and the big blind; :meth:`walk` finds who posted
        self.seats: tuple[int, int | None, int] = (hand.button, None, hand.big_blind_seat)
        #: PokerStars' collections, by pot
        self.collections: list[tuple[int, str]] = []

    # -- the head: header, table, seats ----------------------------------------------------

    #: after a seat's stack, in its seat line
    in_chips = " in chips"
    #: the lines between the seats and the posts
    before_posts: tuple[str, ...] = ()

    def head(self, h: _Head) -> None:
        out = self.out
        out.extend(self.header(h))
        for s in range(self.hand.n_players):
            stack = self.m(self.hand.starting_stacks[s])
            out.append(f"Seat {self.numbers[s]}: {self.names[s]} ({stack}{self.in_chips})")
        out.extend(self.before_posts)

    def header(self, h: _Head) -> list[str]:
        """The lines above the seats."""
        hand_id, table, date, currency, tournament_id, buy_in, level, seats = h
        m, rules, out = self.m, self.hand.rules, []
        stakes = f"{m(rules.small_bet)}/{m(rules.big_bet)}"
        if tournament_id is not None:
            out.append(
                f"PokerStars Hand #{hand_id}: Tournament #{tournament_id}, "
                f"{buy_in or self.buy_in} Triple Draw 2-7 Lowball Limit - Level {level or 'I'} "
                f"({stakes}) - {date}"
            )
        else:
            cur = f" {currency}" if currency else ""
            out.append(
                f"PokerStars Hand #{hand_id}:  Triple Draw 2-7 Lowball Limit ({stakes}{cur}) "
                f"- {date}"
            )
        play = " (Play Money)" if currency is None and tournament_id is None else ""
        out.append(
            f"Table '{table}' {seats}-max{play} "
            f"Seat #{self.numbers[self.hand.button]} is the button"
        )
        return out

    # -- the posts --------------------------------------------------------------------------

    #: a post's words, ``{}`` the amount: ``ante``, ``sb``, ``bb``; a player coming in:
    #: ``live`` (his big blind), ``dead`` (a dead small blind), ``both`` (the two at once)
    posts: ClassVar[dict[str, str]] = {
        "ante": "posts the ante {}",
        "sb": "posts small blind {}",
        "bb": "posts big blind {}",
        "live": "posts big blind {}",
        "dead": "posts small blind {}",
        "both": "posts small & big blinds {}",
    }
    #: a player coming in who posts both blinds: one line (``both``), or his two posts
    #: in this order
    both: tuple[str, ...] = ("both",)

    def post(self, s: int, what: str, amount: int, all_in: bool) -> None:
        self.line(s, self.posts[what].format(self.m(amount)) + (self.all_in if all_in else ""))

    def post_both(self, s: int, live: int, dead: int, all_in: bool) -> None:
        """A player coming in posts his live big blind and his dead small blind."""
        if self.both == ("both",):
            self.post(s, "both", live + dead, all_in)
            return
        for j, what in enumerate(self.both):
            last = j == len(self.both) - 1
            self.post(s, what, live if what == "live" else dead, all_in and last)

    def deal(self) -> None:
        self.out.append("*** DEALING HANDS ***")

    # -- a player's line --------------------------------------------------------------------

    def line(self, s: int, text: str) -> None:
        self.out.append(f"{self.names[s]}{self.sep}{text}")

    def bet(self, kind: str, s: int, added: int, to: int, level: int, all_in: bool) -> None:
        """A call, bet or raise of ``added`` chips to ``to`` (the round's level was
        ``level``)."""
        tail = self.all_in if all_in else ""
        if kind == ev.CALL:
            self.line(s, f"calls {self.m(added)}{tail}")
        elif kind == ev.BET or level == 0:
            self.line(s, f"bets {self.m(added)}{tail}")
        else:
            self.raise_(s, to - level, to, tail)

    def raise_(self, s: int, by: int, to: int, tail: str) -> None:
        self.line(s, f"raises {self.m(by)} to {self.m(to)}{tail}")

    def begin_draw(self, k: int, pot: int) -> None:
        self.out.append(f"*** {_NTH[k]} DRAW ***")

    def begin_round(self, k: int) -> None:
        """Betting round ``k`` (1..3) after a draw: PokerStars prints no line."""

    #: the words of a draw: ``discards 2 cards [...]``, ``stands pat on [...]``
    discards = "discards"
    stands_pat_on = "stands pat on"

    def discard(self, s: int, cards: tuple[str, ...] | None, count: int) -> None:
        word = "card" if count == 1 else "cards"
        shown = "" if cards is None else f" [{' '.join(cards)}]"
        self.line(s, f"{self.discards} {count} {word}{shown}")

    def pat(self, s: int, held: list[str] | None) -> None:
        self.line(s, "stands pat" if held is None else f"{self.stands_pat_on} [{' '.join(held)}]")

    def new_cards(self, s: int, kept: list[str], new: tuple[str, ...] | None, count: int) -> None:
        """Seat ``s`` is dealt his ``count`` replacements: ``new`` when the history shows
        them."""
        if new is not None:
            self.out.append(f"Dealt to {self.names[s]} [{' '.join(kept)}] [{' '.join(new)}]")

    def uncalled(self, s: int, amount: int) -> None:
        self.out.append(f"Uncalled bet ({self.m(amount)}) returned to {self.names[s]}")

    def show(self, s: int, cards: tuple[str, ...]) -> None:
        self.line(s, f"shows [{self.shown_text(cards)}] ({self.describe(list(cards))})")

    def shown_text(self, cards: Any) -> str:
        """A shown hand's cards as the site prints them: PokerStars in the order held."""
        return " ".join(cards)

    def muck(self, s: int) -> None:
        self.line(s, "mucks hand")

    def win(self, s: int, amount: int, pot: int) -> None:
        """Seat ``s`` collects ``amount`` from pot number ``pot``: PokerStars prints the
        side pots' collections first, the last side pot first (:meth:`wins_done`)."""
        line = f"{self.names[s]} collected {self.m(amount)} from {self.pot_name(pot)}"
        self.collections.append((pot, line))

    #: the name of side pot ``j`` of several (``{}``: ``j``)
    side_pot = "side pot-{}"

    def pot_name(self, j: int) -> str:
        count = len(self.pots)
        if count == 1:
            return "pot"
        if j == 0:
            return "main pot"
        return "side pot" if count == 2 else self.side_pot.format(j)

    def wins_done(self) -> None:
        """After the last collection."""
        self.collections.sort(key=lambda c: -c[0])
        self.out.extend(line for _pot, line in self.collections)

    def describe(self, cards: list[str]) -> str:
        return describe(cards)

    # -- the summary ------------------------------------------------------------------------

    def total(self) -> str:
        res, m = self.hand.result, self.m
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
        return f"{pot_text} | Rake {m(res.rake)}"

    def summary(self, collected: dict[int, int]) -> None:
        self.out.append("*** SUMMARY ***")
        self.out.append(self.total())
        self.out.extend(self.seat_lines(collected))

    def seat_lines(self, collected: dict[int, int]) -> list[str]:
        hand, names, m = self.hand, self.names, self.m
        res = hand.result
        showed = {e.seat: e for e in res.showdown}
        folded_at = self.folded_at
        out = []
        for s in range(hand.n_players):
            won = collected.get(s, 0)
            if s in folded_at:
                d = folded_at[s]
                when = "before the Draw" if d == 0 else f"after the {_ORDINAL[d]} Draw"
                text = f"folded {when}{self.folded_tail(s)}"
            elif s in showed and showed[s].shown:
                cards = showed[s].cards or ()
                desc = self.describe(list(cards))
                text = f"showed [{self.shown_text(cards)}] and " + (
                    f"won ({m(won)}) with {desc}" if won else f"lost with {desc}"
                )
            elif s in showed:
                text = "mucked"
                held = hand.hole_text(s)
                if s in self.shown and "??" not in held:  # his own mucked hand
                    text += f" [{' '.join(held)}]"
            else:
                text = f"collected ({m(won)})"
            out.append(f"Seat {self.numbers[s]}: {names[s]}{self.position(s)} {text}")
        return out

    def folded_tail(self, s: int) -> str:
        """After "folded before the Draw": a player who folded without putting a chip
        in "didn't bet"."""
        return " (didn't bet)" if self.hand.result.net[s] == 0 else ""

    def position(self, s: int) -> str:
        button, small_blind, big_blind = self.seats
        tags = " (button)" if s == button else ""
        if s == small_blind:
            tags += " (small blind)"
        elif s == big_blind:
            tags += " (big blind)"
        return tags

    # -- the walk over the hand's events ----------------------------------------------------

    def walk(self) -> None:
        hand, out, names = self.hand, self.out, self.names
        n = hand.n_players
        log = self.log
        shown = self.shown
        # the posts, up to the deal
        i = 0
        blinds_seen = bb_seen = False
        extra: dict[int, list[int]] = {}
        order: list[int] = []
        stacks = list(hand.starting_stacks)
        pot = 0
        while i < len(log) and log[i].kind in (
            ev.POST_ANTE,
            ev.POST_SMALL_BLIND,
            ev.POST_BIG_BLIND,
        ):
            e = log[i]
            i += 1
            seat, a = e.seat, e.amount or 0
            assert seat is not None
            s = seat
            stacks[s] -= a
            pot += a
            if e.kind == ev.POST_ANTE and not blinds_seen:
                self.post(s, "ante", a, stacks[s] == 0)
            elif e.kind == ev.POST_SMALL_BLIND:
                blinds_seen = True
                if s == hand.small_blind_seat:
                    self.seats = (hand.button, s, hand.big_blind_seat)
                self.post(s, "sb", a, stacks[s] == 0)
            elif e.kind == ev.POST_BIG_BLIND and not bb_seen:
                blinds_seen = bb_seen = True
                self.post(s, "bb", a, stacks[s] == 0)
            else:  # a player coming in: live (big blind) and dead (small blind) parts
                blinds_seen = True
                if s not in extra:
                    extra[s] = [0, 0]
                    order.append(s)
                extra[s][0 if e.kind == ev.POST_BIG_BLIND else 1] += a
        for s in order:
            live, dead = extra[s]
            all_in = stacks[s] == 0
            if live and dead:
                self.post_both(s, live, dead, all_in)
            elif live:
                self.post(s, "live", live, all_in)
            else:
                self.post(s, "dead", dead, all_in)
        self.deal()
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
        level = 0
        for e in log[:i]:
            if e.kind in (ev.POST_SMALL_BLIND, ev.POST_BIG_BLIND) and e.seat is not None:
                bets[e.seat] += e.amount or 0
                level = max(level, bets[e.seat])
        thrown_by: dict[int, tuple[str, ...]] = {}
        collected: dict[int, int] = {}
        showdown = False
        draws_done = 0
        pots = self.pots
        win_pot = 0
        for e in log[i:]:
            k = e.kind
            if e.seat is None:
                if k == ev.BEGIN_ROUND and e.amount:  # (round 1's bets are the blinds)
                    bets = [0] * n
                    level = 0
                    self.begin_round(e.amount)
                elif k == ev.BEGIN_DRAW:
                    draws_done = (e.amount or 0) + 1
                    self.begin_draw(e.amount or 0, pot)
                continue
            s = e.seat
            if k == ev.FOLD:
                self.folded_at[s] = draws_done
                self.line(s, "folds")
            elif k == ev.CHECK:
                self.line(s, "checks")
            elif k in (ev.CALL, ev.BET, ev.RAISE):
                assert e.amount is not None
                added = e.amount - bets[s]
                stacks[s] -= added
                pot += added
                self.bet(k, s, added, e.amount, level, stacks[s] == 0)
                bets[s] = e.amount
                level = max(level, e.amount)
            elif k == ev.DISCARD:
                assert e.cards is not None
                cnt = len(e.cards)
                known = s in shown and "??" not in e.cards and "??" not in holding[s]
                if cnt == 0:
                    self.pat(s, holding[s] if known else None)
                    continue
                self.discard(s, e.cards if known else None, cnt)
                if known:
                    thrown_by[s] = e.cards
                kept = list(holding[s])
                for c in e.cards:
                    if c in kept:
                        kept.remove(c)
                    elif "??" in kept:
                        kept.remove("??")
                holding[s] = kept
            elif k == ev.DRAW:
                assert e.cards is not None
                kept = holding[s]
                holding[s] = kept + list(e.cards)
                known_new = s in thrown_by and "??" not in e.cards
                self.new_cards(s, kept, e.cards if known_new else None, len(e.cards))
                thrown_by.pop(s, None)
            elif k == ev.RETURN:
                assert e.amount is not None
                self.uncalled(s, e.amount)
            elif k == ev.SHOW:
                if not showdown:
                    showdown = True
                    out.append("*** SHOW DOWN ***")
                assert e.cards is not None
                self.show(s, e.cards)
                holding[s] = list(e.cards)
            elif k == ev.MUCK:
                if not showdown:
                    showdown = True
                    out.append("*** SHOW DOWN ***")
                self.muck(s)
            elif k == ev.WIN:
                assert e.amount is not None
                while win_pot < len(pots) - 1 and not _in_pot(pots[win_pot], s, e.amount):
                    win_pot += 1
                self.win(s, e.amount, win_pot)
                collected[s] = collected.get(s, 0) + e.amount
        self.wins_done()
        self.summary(collected)


class _FullTilt(_PokerStars):
    """Full Tilt Poker's words (its files were UTF-16 with a byte-order mark)."""

    name = "Full Tilt Poker"
    sep = " "
    all_in = ", and is all in"
    group_chips = True
    date = "12:00:00 ET - 2026/01/01"
    buy_in = "$10 Sit & Go"

    in_chips = ""
    posts: ClassVar[dict[str, str]] = {
        "ante": "antes {}",
        "sb": "posts the small blind of {}",
        "bb": "posts the big blind of {}",
        "live": "posts {}",
        "dead": "posts a dead small blind of {}",
    }
    both = ("dead", "live")

    def header(self, h: _Head) -> list[str]:
        hand_id, table, date, _currency, tournament_id, buy_in, level, seats = h
        m, rules = self.m, self.hand.rules
        stakes = f"{m(rules.small_bet)}/{m(rules.big_bet)}"
        if rules.ante:
            stakes += f" Ante {m(rules.ante)}"
        if tournament_id is not None:
            where = f"{buy_in or self.buy_in} ({tournament_id}), Table {table}"
            if level is not None:
                where += f" - Level {level}"
        else:
            size = "heads up" if seats == 2 else f"{seats} max"
            where = f"Table {table} ({size})"
        return [
            f"Full Tilt Poker Game #{hand_id}: {where} - {stakes} - Limit 2-7 Triple Draw - {date}"
        ]

    def deal(self) -> None:
        self.out.append(f"The button is in seat #{self.numbers[self.hand.button]}")
        self.out.append("*** HOLE CARDS ***")

    def raise_(self, s: int, by: int, to: int, tail: str) -> None:
        self.line(s, f"raises to {self.m(to)}{tail}")

    def begin_draw(self, k: int, pot: int) -> None:
        self.out.append(f"*** {_NTH[k]} DRAW *** (Pot: {self.m(pot)})")

    def new_cards(self, s: int, kept: list[str], new: tuple[str, ...] | None, count: int) -> None:
        if new is not None:
            super().new_cards(s, kept, new, count)
        elif count:
            self.line(s, f"is dealt {count} card{'' if count == 1 else 's'}")

    def uncalled(self, s: int, amount: int) -> None:
        self.out.append(f"Uncalled bet of {self.m(amount)} returned to {self.names[s]}")

    def show(self, s: int, cards: tuple[str, ...]) -> None:
        self.line(s, f"shows [{self.shown_text(cards)}] {self.describe(list(cards))}")

    def shown_text(self, cards: Any) -> str:
        return _high_first(cards)

    def position(self, s: int) -> str:
        if self.hand.n_players == 2 and s == self.hand.button:  # heads-up: the small blind
            return " (small blind)"
        return super().position(s)

    def muck(self, s: int) -> None:
        self.line(s, "mucks")

    def win(self, s: int, amount: int, pot: int) -> None:
        verb = "ties for" if len(self.pots[pot].winners) > 1 else "wins"
        shown = [e.cards for e in self.hand.result.showdown if e.seat == s and e.shown]
        with_ = f" with {self.describe(list(shown[0] or ()))}" if shown else ""
        self.line(s, f"{verb} the {self.pot_name(pot)} ({self.m(amount)}){with_}")

    side_pot = "side pot #{}"

    def describe(self, cards: list[str]) -> str:
        return describe(cards)[len("Lo: ") :]

    def total(self) -> str:
        res, m = self.hand.result, self.m
        return f"Total pot {m(sum(p.amount for p in res.pots))} | Rake {m(res.rake)}"


class _Winamax(_PokerStars):
    """Winamax's words: amounts with the euro sign after them, a section for each betting
    round and draw, no uncalled-bet line (the winner's collection holds it)."""

    name = "Winamax"
    sep = " "
    currencies = frozenset({"EUR"})
    sign_after = True
    group_money = False
    date = "2026/01/01 12:00:00 UTC"
    hand_ids = re.compile(r"[0-9]+(?:-[0-9]+)*")
    hand_id_words = "digits, with dashes between them"
    buy_in = "0.90€ + 0.10€"

    in_chips = ""
    before_posts = ("*** ANTE/BLINDS ***",)
    posts: ClassVar[dict[str, str]] = {
        "ante": "posts ante {}",
        "sb": "posts small blind {}",
        "bb": "posts big blind {}",
        "live": "posts big blind {} out of position",
        "dead": "posts small blind {} out of position",
    }
    both = ("live", "dead")
    discards = "discard"
    stands_pat_on = "stands pat"

    def header(self, h: _Head) -> list[str]:
        hand_id, table, date, currency, tournament_id, buy_in, level, seats = h
        m, rules, hand = self.m, self.hand.rules, self.hand
        stakes = f"{m(rules.small_bet)}/{m(rules.big_bet)}"
        if rules.ante:
            stakes = f"{m(rules.ante)}/{stakes}"
        real = currency is not None or tournament_id is not None
        if tournament_id is not None:
            # the table is named after the tournament: "Draw Sunday(812345678)#002"
            name = table.split(f"({tournament_id})", 1)[0]
            if name == table:
                table = f"{table}({tournament_id})#001"
            kind = f'Tournament "{name}" buyIn: {buy_in or self.buy_in} level: {level or 1}'
            hand_id = f"{tournament_id}-{hand_id}"
        else:
            kind = "CashGame"
        game = "2-7 Triple Draw" if real else "Lowball27"
        money = "real money" if real else "play money"
        return [
            f"Winamax Poker - {kind} - HandId: #{hand_id} - {game} fixed limit ({stakes}) - {date}",
            f"Table: '{table}' {seats}-max ({money}) "
            f"Seat #{self.numbers[hand.button]} is the button",
        ]

    def deal(self) -> None:
        self.out.append("*** FIRST-BET ***")

    def begin_draw(self, k: int, pot: int) -> None:
        self.out.append(f"*** {_NTH[k]}-DRAW ***")

    def begin_round(self, k: int) -> None:
        self.out.append(f"*** {_NTH[k]}-BET ***")

    def uncalled(self, s: int, amount: int) -> None:
        """Winamax prints no line: the bet comes back in the player's collection."""

    def shown_text(self, cards: Any) -> str:
        return _high_first(cards)

    def win(self, s: int, amount: int, pot: int) -> None:
        ret = self.returned
        if ret is not None and ret[0] == s:  # his uncalled bet, in his first collection
            amount += ret[1]
            self.returned = None
        self.line(s, f"collected {self.m(amount)} from {self.pot_name(pot)}")

    def wins_done(self) -> None:
        ret = self.returned
        if ret is not None:  # returned to a player who won no pot
            self.line(ret[0], f"collected {self.m(ret[1])} from pot")

    def pot_name(self, j: int) -> str:
        if len(self.pots) == 1:
            return "pot"
        return "main pot" if j == 0 else f"side pot {j}"

    def describe(self, cards: list[str]) -> str:
        return _winamax_words(cards)

    def total(self) -> str:
        res, m = self.hand.result, self.m
        # what was collected: the pots less the rake, and the uncalled bet
        paid = sum(p.amount for p in res.pots) - res.rake + (res.returned[1] if res.returned else 0)
        return f"Total pot {m(paid)} | " + (f"Rake {m(res.rake)}" if res.rake else "No rake")

    def seat_lines(self, collected: dict[int, int]) -> list[str]:
        res = self.hand.result
        ret = res.returned
        won = dict(collected)
        if ret is not None:
            won[ret[0]] = won.get(ret[0], 0) + ret[1]
        out = []
        for s in range(self.hand.n_players):
            shown = [e.cards for e in res.showdown if e.seat == s and e.shown]
            head = f"Seat {self.numbers[s]}: {self.names[s]}{self.position(s)}"
            if shown:
                cards = list(shown[0] or ())
                desc = self.describe(cards)
                result = f"won {self.m(won[s])}" if won.get(s) else "lost"
                out.append(f"{head} showed [{self.shown_text(cards)}] and {result} with {desc}")
            elif won.get(s):
                out.append(f"{head} won {self.m(won[s])}")
        return out


_VOICES: dict[str, type[_PokerStars]] = {
    "pokerstars": _PokerStars,
    "fulltilt": _FullTilt,
    "winamax": _Winamax,
}
_NTH = ("FIRST", "SECOND", "THIRD", "FOURTH")
_WINAMAX_RANKS = {"T": "10", "J": "Jack", "Q": "Queen", "K": "King", "A": "Ace"}


def _high_first(cards: Any) -> str:
    """Cards from the highest rank down (ties in the order held), as Full Tilt Poker and
    Winamax print a shown hand."""
    return " ".join(sorted(cards, key=lambda c: -_ORDER.index(c[0])))


def _winamax_words(cards: list[str]) -> str:
    """A five-card hand in the words of Winamax's showdown lines (``High card : 8``,
    ``One pair : 5``...): informational, no reader reads them back."""
    ranks = sorted((c[0] for c in cards), key=_ORDER.index, reverse=True)
    counts = Counter(ranks)
    groups = sorted(counts.items(), key=lambda kv: (-kv[1], -_ORDER.index(kv[0])))
    flush = len({c[1] for c in cards}) == 1
    idx = sorted({_ORDER.index(r) for r in ranks})
    straight = len(idx) == 5 and idx[-1] - idx[0] == 4

    def word(r: str) -> str:
        return _WINAMAX_RANKS.get(r, r)

    top, second = groups[0], groups[1] if len(groups) > 1 else ("", 0)
    if straight:
        return f"{'Straight flush' if flush else 'Straight'} : {word(_ORDER[idx[-1]])} high"
    if top[1] == 4:
        return f"Four of a kind : {word(top[0])}"
    if top[1] == 3 and second[1] == 2:
        return f"Full house : {word(top[0])} full of {word(second[0])}"
    if flush:
        return f"Flush : {word(ranks[0])} high"
    if top[1] == 3:
        return f"Trips : {word(top[0])}"
    if top[1] == 2 and second[1] == 2:
        return f"Two pairs : {word(top[0])} and {word(second[0])}"
    if top[1] == 2:
        return f"One pair : {word(top[0])}"
    return f"High card : {word(ranks[0])}"


def _in_pot(pot: Any, s: int, amount: int) -> bool:
    return any(j == s and x == amount for j, x in pot.shares)


def _names(players: Any, n: int, sep: str = ": ") -> list[str]:
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
    if sep == ": ":
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
