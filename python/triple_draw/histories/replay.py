"""A site's record of one hand (:class:`SiteRecord`) replayed as a :class:`Hand` with
unknown cards, every line checked against the engine.

- The players dealt in take seats ``0..n-1`` in the order of their seat numbers (the
  site's clockwise order). The blinds come from the posts: the first small blind posted
  is the small blind, the big blind the next player's; the engine's button is the seat
  before the small blind (heads-up: the small blind), or before the big blind when nobody
  posts a small blind (a dead small blind: ``no_small_blind``). Every other post - a new
  player's big blind out of position, a returning player's small and big blinds, a dead
  small blind - is a post of the player coming in (``posts``: the big blind part live,
  the small blind part dead).
- Amounts become chips with the record's chip unit (the money of one chip: a cent for
  real money, a chip in tournaments and play money - finer when the record prints finer
  amounts); every amount must be a whole number of chips.
- Each betting line must be the engine's next action, with its amount; each draw the
  actor's, with the hero's thrown, kept and new cards when the record shows them; the
  showdown shows and mucks in the engine's order, the shown cards becoming known there.
- At the end the engine's payout must be the record's: each player's collected amount,
  the uncalled bet, the rake (the record's rake is taken as given), the total pot.
"""

from __future__ import annotations

from decimal import Decimal
from collections.abc import Callable
from typing import Any

from triple_draw.errors import TripleDrawError
from triple_draw.game.cards import CARD_TEXT, UNKNOWN
from triple_draw.game.hand import Hand
from triple_draw.game.phase import BET, DRAW, OVER, SHOWDOWN
from triple_draw.game.rules import MAX_PLAYERS, Rules
from triple_draw.histories._common import _PLACES, places
from triple_draw.histories._record import Line, RecordError, SiteRecord

__all__ = ["replay", "SITE_RULES", "chip_unit", "site_rules"]

#: How each site deals Triple Draw, as :class:`Rules` fields beyond the stakes
#: (docs/sites.md): PokerStars deals each player's replacements as he declares and
#: reshuffles by its own rule; Full Tilt Poker's records show every declaration before
#: the replacements (declare-then-deal); Winamax deals as it goes. Every site caps a
#: round at a bet and three raises (the big blind counting as the bet), with no cap in
#: cash games once a round starts heads-up.
SITE_RULES: dict[str, dict[str, Any]] = {
    "pokerstars": {"draw_procedure": "immediate", "reshuffle": "pokerstars"},
    "fulltilt": {"draw_procedure": "declare-then-deal", "reshuffle": "served-discards"},
    "winamax": {"draw_procedure": "immediate", "reshuffle": "served-discards"},
}
_RULES_CACHE: dict[tuple[Any, ...], Rules] = {}
_UNKNOWN = [[UNKNOWN] * k for k in range(6)]


def site_rules(
    site: str,
    small_blind: int,
    big_blind: int,
    small_bet: int,
    big_bet: int,
    ante: int,
    tournament: bool,
    options: Rules | None = None,
) -> Rules:
    """The :class:`Rules` a site deals at these stakes (in chips); with ``options``, that
    game's rules at these stakes instead of the site's."""
    key = (site, small_blind, big_blind, small_bet, big_bet, ante, tournament, options)
    rules = _RULES_CACHE.get(key)
    if rules is None:
        stakes: dict[str, Any] = {
            "small_blind": small_blind,
            "big_blind": big_blind,
            "small_bet": small_bet,
            "big_bet": big_bet,
            "ante": ante,
            "max_players": MAX_PLAYERS,
        }
        try:
            if options is not None:
                rules = options.replace(**stakes)
            else:
                rules = Rules(
                    raise_cap=3, heads_up_uncapped=not tournament, **stakes, **SITE_RULES[site]
                )
        except TripleDrawError as e:
            raise RecordError(f"the stakes are impossible: {e}") from None
        if len(_RULES_CACHE) < 4096:
            _RULES_CACHE[key] = rules
    return rules


def chip_unit(rec: SiteRecord) -> Decimal:
    """The money one chip is worth: a cent for real money (finer if the record prints
    finer amounts), one for chips and play money unless the record prints decimals."""
    most = 2 if rec.currency not in ("chips", "play") else 0
    for a in (rec.small_bet, rec.big_bet, rec.total_pot, rec.rake):
        if a is not None and places(a) > most:
            most = places(a)
    for s in rec.seats:
        if places(s.stack) > most:
            most = places(s.stack)
    known = _PLACES.get  # (places() of the amounts read so far, without the call)
    for ln in rec.lines:
        a = ln.amount
        if a is not None:
            p = known(a)
            if p is None:
                p = places(a)
            if p > most:
                most = p
        a = ln.to
        if a is not None and places(a) > most:
            most = places(a)
    return _UNITS[most] if most < len(_UNITS) else Decimal(1).scaleb(-most)


_UNITS = [Decimal(1).scaleb(-k) for k in range(8)]


#: amount -> chips, with the line (if any) an amount that is not whole is refused on
_Chips = Callable[..., int]


#: unit -> amount -> chips, for :func:`_chips` (a whole number of chips only)
_CHIPS: dict[Decimal, dict[Decimal, int]] = {}


def _chips(unit: Decimal) -> _Chips:
    """The converter of a record's amounts into chips of ``unit`` (a closure: it runs
    for nearly every line of every hand imported). The amounts converted are kept per
    unit across hands (a file repeats its stakes and most of its stacks)."""
    cache = _CHIPS.get(unit)
    if cache is None or len(cache) >= 65536:
        cache = _CHIPS[unit] = {}
    get = cache.get

    def chips(amount: Decimal, ln: Line | None = None) -> int:
        c = get(amount)
        if c is not None:
            return c
        q = amount / unit
        c = int(q)
        if c != q:
            raise RecordError(
                f"{amount} is not a whole number of chips of {unit}",
                ln.lineno if ln else 0,
                ln.text if ln else "",
            )
        cache[amount] = c
        return c

    return chips


def replay(
    rec: SiteRecord, *, collected_includes_uncalled: bool = False, options: Rules | None = None
) -> tuple[Hand, list[str], Decimal]:
    """The finished hand of ``rec``, the players' names by seat of the hand, and the chip
    unit. Raises :class:`RecordError` naming the line and the problem."""
    dealt = [s for s in rec.seats if s.dealt]
    if len(dealt) < 2:
        raise RecordError("a dead hand: fewer than two players are dealt in")
    if len(dealt) > MAX_PLAYERS:
        raise RecordError(
            f"{len(dealt)} players are dealt in; the engine plays at most {MAX_PLAYERS}"
        )
    n = len(dealt)
    unit = chip_unit(rec)
    chips = _chips(unit)
    seat_of = {s.name: k for k, s in enumerate(dealt)}
    names = [s.name for s in dealt]
    stacks = [chips(s.stack) for s in dealt]
    lines = rec.lines

    def seat(ln: Line) -> int:
        k = seat_of.get(ln.name)  # type: ignore[arg-type]
        if k is None:
            raise RecordError(f"{ln.name} is not dealt in", ln.lineno, ln.text)
        return k

    # -- the forced bets -----------------------------------------------------------------
    sb = bb = None
    sb_amt = bb_amt = None
    ante = 0
    posts: dict[int, list[int]] = {}
    posted = [0] * n  # every seat's live post, to check against the hand's bets
    first = -1
    for j, ln in enumerate(lines):
        if ln.kind == "street":
            first = j + 1
            break
        if not ln.kind.startswith("post_"):
            raise RecordError("an action before the cards are dealt", ln.lineno, ln.text)
        k = seat(ln)
        a = chips(ln.amount, ln)
        if ln.kind == "post_ante":
            ante = max(ante, a)
            continue
        if ln.kind == "post_sb" and sb is None and bb is None:
            sb, sb_amt = k, (None if ln.all_in else a)
            posted[k] += a
            continue
        if ln.kind == "post_bb" and bb is None and (sb is None or k == _next(sb, n)):
            bb, bb_amt = k, (None if ln.all_in else a)
            posted[k] += a
            continue
        p = posts.setdefault(k, [0, 0])
        if ln.kind == "post_bb":
            p[0] += a
            posted[k] += a
        elif ln.kind == "post_sb_bb":
            live = bb_amt if bb_amt is not None else chips(rec.small_bet)
            p[0] += min(live, a)
            p[1] += a - min(live, a)
            posted[k] += min(live, a)
        else:  # a small blind out of position, or a dead small blind
            p[1] += a
    if first < 0:
        raise RecordError("the record deals no cards")
    # a player all-in from his ante posts no blind
    broke = [ante > 0 and st <= ante for st in stacks]
    b = None  # the button's seat of the hand, if he is dealt in
    for k, s in enumerate(dealt):
        if s.number == rec.button:
            b = k
            break
    if sb is not None and bb is None:
        if not broke[_next(sb, n)]:
            raise RecordError("the small blind is posted but not the big blind after it")
        bb = _next(sb, n)
    elif sb is None and bb is not None and broke[(bb - 1) % n] and (n == 2 or b != (bb - 1) % n):
        # the small blind all-in from his ante: heads-up he is the button; with more
        # players, unless the button is just before the big blind (no small blind)
        sb = (bb - 1) % n
    elif sb is None and bb is None:
        if b is None or not ante:
            raise RecordError("nobody posts the big blind")
        sb = b if n == 2 else _next(b, n)
        bb = _next(sb, n)
        if not (broke[sb] and broke[bb]):
            if n == 2 or not broke[_next(b, n)]:
                raise RecordError("nobody posts the blinds")
            sb, bb = None, _next(b, n)  # no small blind, the big blind all-in from his ante
    assert bb is not None
    small_bet, big_bet = chips(rec.small_bet), chips(rec.big_bet)
    big_blind = bb_amt if bb_amt is not None else small_bet
    small_blind = sb_amt if sb_amt is not None else big_blind // 2
    if sb is None:
        if n == 2:
            raise RecordError("heads-up, somebody must post the small blind")
        button = (bb - 1) % n
    elif n == 2:
        button = sb
    else:
        button = (sb - 1) % n
    rules = site_rules(
        rec.site,
        small_blind,
        big_blind,
        small_bet,
        big_bet,
        ante,
        rec.tournament_id is not None,
        options,
    )
    hole: list[Any] = [None] * n
    for who, dealt_cards in rec.dealt.items():
        if who not in seat_of:
            raise RecordError(f"{who} is dealt cards but is not dealt in (sitting out)")
        hole[seat_of[who]] = dealt_cards
    try:
        hand = Hand(
            rules,
            stacks,
            button,
            hole_cards=hole,
            record=True,
            rake=chips(rec.rake) if rec.rake is not None else 0,
            no_small_blind=sb is None,
            posts={k: (v[0], v[1]) for k, v in posts.items()} or None,
        )
    except TripleDrawError as e:
        raise RecordError(f"the hand cannot start: {_named(e, names)}") from None
    got = list(hand.bets)
    if got != posted:
        raise RecordError(
            f"the posts do not make the engine's forced bets (posted {posted}, "
            f"the engine has {got})"
        )

    # -- the actions ---------------------------------------------------------------------
    shows: dict[int, Line] = {}
    uncalled: tuple[int, int] | None = None
    collected = [0] * n
    collects = False
    # (the hand's own state is read directly here: this loop runs for every line of
    # every hand imported)
    for ln in lines[first:]:
        kind = ln.kind
        if kind == "street":
            continue
        if kind == "collect":
            collected[seat(ln)] += chips(ln.amount, ln)
            collects = True
            continue
        if kind == "uncalled":
            if uncalled is not None:
                raise RecordError("a second uncalled bet", ln.lineno, ln.text)
            uncalled = (seat(ln), chips(ln.amount, ln))
            continue
        k = seat_of.get(ln.name, -1)  # type: ignore[arg-type]
        if k < 0:
            raise RecordError(f"{ln.name} is not dealt in", ln.lineno, ln.text)
        phase = hand._phase
        if kind == "show" or kind == "muck":
            if phase == OVER:
                continue  # a winner without a showdown shows or throws away his hand
            if phase != SHOWDOWN:
                raise RecordError(
                    f"{ln.name} shows or mucks before the showdown", ln.lineno, ln.text
                )
            if k in shows:
                raise RecordError(f"{ln.name} already showed or mucked", ln.lineno, ln.text)
            shows[k] = ln
            continue
        actor = hand._actor
        if actor != k:
            if kind.startswith("post_"):
                raise RecordError("a post after the cards are dealt", ln.lineno, ln.text)
            if phase == OVER:
                raise RecordError("an action after the hand is over", ln.lineno, ln.text)
            if phase == SHOWDOWN:
                raise RecordError("an action at the showdown", ln.lineno, ln.text)
            raise RecordError(
                f"{ln.name} acts out of turn: {names[actor]} is to act",  # type: ignore[index]
                ln.lineno,
                ln.text,
            )
        try:
            if kind == "draw":
                if phase == DRAW and ln.cards is None and ln.kept is None:
                    hand.discard(_unseen(ln, ln.count or 0))  # another player's draw
                else:
                    _draw(hand, ln)
            elif phase != BET:
                raise RecordError(f"{ln.name} must draw now, not bet", ln.lineno, ln.text)
            elif kind == "fold":
                hand.fold()
            elif kind == "check" or kind == "call":
                _call(hand, ln, chips, actor)
            else:
                _bet(hand, ln, chips)
        except TripleDrawError as e:
            raise RecordError(_named(e, names), ln.lineno, ln.text) from None
    while hand.phase == "showdown":
        k = hand.actor
        assert k is not None
        said = shows.pop(k, None)
        try:
            if said is None or said.kind == "muck":
                hand.muck()
            else:
                hand.show(said.cards)
        except TripleDrawError as e:
            raise RecordError(
                _named(e, names), said.lineno if said else 0, said.text if said else ""
            ) from None
    if not hand.is_over:
        who = names[hand.actor] if hand.actor is not None else "nobody"
        raise RecordError(f"the record ends before the hand does ({who} is to act)")
    for ln in shows.values():
        raise RecordError(f"{ln.name} is not in the showdown", ln.lineno, ln.text)
    _check_result(
        rec, hand, names, chips, collected, collects, uncalled, collected_includes_uncalled
    )
    return hand, names, unit


def _next(k: int, n: int) -> int:
    return (k + 1) % n


def _draw(hand: Hand, ln: Line) -> None:
    count = ln.count or 0
    if not hand.in_draw:
        raise RecordError(f"{ln.name} draws during a betting round", ln.lineno, ln.text)
    if ln.cards is not None:  # the hero's draw
        if len(ln.cards) != count:
            raise RecordError(
                f"{ln.name} throws {len(ln.cards)} cards, not {count}", ln.lineno, ln.text
            )
        new = ln.new
        if new is not None and len(new) != count:
            raise RecordError(
                f"{ln.name} throws {count} cards but is dealt {len(new)}", ln.lineno, ln.text
            )
        if ln.kept is not None and len(ln.kept) + count != 5:
            raise RecordError(
                f"{ln.name} keeps {len(ln.kept)} cards of five after throwing {count}",
                ln.lineno,
                ln.text,
            )
        seat = hand.actor
        assert seat is not None
        if ln.kept is not None:
            _same_cards(hand, seat, ln, set(ln.kept) | set(ln.cards))
        hand.discard(ln.cards, receive=new)
        return
    if ln.kept is not None:  # the hero stands pat on his five
        seat = hand.actor
        assert seat is not None
        _same_cards(hand, seat, ln, set(ln.kept))
    hand.discard(_unseen(ln, count))


def _unseen(ln: Line, count: int) -> list[int]:
    """The ``count`` unknown cards of a draw nobody saw (a line may claim any number)."""
    if count < len(_UNKNOWN):
        return _UNKNOWN[count]
    raise RecordError(
        f"{ln.name} discards {count} cards: a player holds {len(_UNKNOWN) - 1}",
        ln.lineno,
        ln.text,
    )


def _same_cards(hand: Hand, seat: int, ln: Line, shown: set[int]) -> None:
    held = set(hand.hole_ids(seat))
    if shown != held:
        raise RecordError(f"{ln.name} holds {_text(held)}, not {_text(shown)}", ln.lineno, ln.text)


def _text(ids: set[int]) -> str:
    return " ".join(CARD_TEXT[c] for c in sorted(ids, reverse=True))


def _call(hand: Hand, ln: Line, chips: _Chips, s: int) -> None:
    """A check or a call (in a betting round, by the actor ``s``)."""
    owe = hand._level - hand._bet[s]
    x = hand._stacks[s]
    if owe > x:
        owe = x  # (a call all-in for less)
    if ln.kind == "check":
        if owe > 0:
            raise RecordError(
                f"{ln.name} checks facing a bet of {owe} chips to call", ln.lineno, ln.text
            )
    else:
        a = chips(ln.amount, ln)
        if owe <= 0:
            raise RecordError(f"{ln.name} calls with nothing to call", ln.lineno, ln.text)
        if a != owe:
            raise RecordError(f"{ln.name} calls {a} chips; the call is {owe}", ln.lineno, ln.text)
    hand.check_or_call()


def _bet(hand: Hand, ln: Line, chips: _Chips) -> None:
    """A bet or a raise (or a post where none may be)."""
    kind = ln.kind
    if kind.startswith("post_"):
        raise RecordError("a post after the cards are dealt", ln.lineno, ln.text)
    # bet or raise: the round total it makes
    want = hand.bet_or_raise_amount()
    if want is None:
        hand.bet_or_raise()  # raises IllegalActionError saying why not
        return
    if ln.to is not None:
        to = chips(ln.to, ln)
    else:  # a bet: the chips put in
        seat = hand.actor
        assert seat is not None
        to = hand._bet[seat] + chips(ln.amount, ln)
    if to != want:
        what = "bet" if kind == "bet" else "raise"
        raise RecordError(
            f"{ln.name} can only {what} to {want} chips (fixed limit), not {to}", ln.lineno, ln.text
        )
    hand.bet_or_raise()


def _check_result(
    rec: SiteRecord,
    hand: Hand,
    names: list[str],
    chips: _Chips,
    collected: list[int],
    collects: bool,
    uncalled: tuple[int, int] | None,
    with_uncalled: bool,
) -> None:
    # (the hand's own pot records: its HandResult is built when somebody asks for it)
    pots = hand._pots
    assert pots is not None
    paid = [0] * len(names)
    for _amount, _eligible, _winners, shares in pots:
        for s, x in shares:
            paid[s] += x
    ret = hand._returned
    if with_uncalled and ret is not None:
        paid[ret[0]] += ret[1]
    elif (uncalled is None) != (ret is None) or (uncalled is not None and uncalled != ret):
        said = "none" if uncalled is None else f"{uncalled[1]} chips to {names[uncalled[0]]}"
        eng = "none" if ret is None else f"{ret[1]} chips to {names[ret[0]]}"
        raise RecordError(f"the uncalled bet returned is {said}; the engine returns {eng}")
    if collects and paid != collected:
        diff = [
            f"{names[s]} {collected[s]} (the engine pays {paid[s]})"
            for s in range(len(names))
            if collected[s] != paid[s]
        ]
        raise RecordError("the record pays " + ", ".join(diff) + " chips")
    if not collects:
        raise RecordError("the record says nobody collected the pot")
    if rec.rake is not None and hand._rake != chips(rec.rake):
        raise RecordError(f"the rake is {chips(rec.rake)} chips; the pot holds only {hand._rake}")
    if rec.total_pot is not None and not with_uncalled:
        total = sum(p[0] for p in pots)
        if chips(rec.total_pot) != total:
            raise RecordError(
                f"the total pot is {chips(rec.total_pot)} chips; the engine's is {total}"
            )


def _named(e: Exception, names: list[str]) -> str:
    import re

    return re.sub(r"\bseat (\d+)", lambda m: names[int(m.group(1))], str(e))
