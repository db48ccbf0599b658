"""The draws and running out of cards (rules: *Draws*, *Running out of cards*), as
functions of a :class:`HandState`.

``_out`` is exactly the pool the reshuffle gathers: the discards of the player being
served and of the players not yet served are never in it (state.py lists where every
card is).

**One implementation of the deal from the stub.** :class:`Deal` deals a sequence of draws
card by card on copies of the stub, the withheld cards and the pool, reshuffling per the
rules (:meth:`Deal.serve`). Everything that asks "which card may this player get" goes
through it: the random deal whenever the stub cannot simply be dealt from the top (a
reshuffle, or a stub that may hold a player's own discards under "pokerstars"), the
checks of given cards (``discard(..., receive=...)``), and :func:`receivable` (the public
query ``Hand.receivable``). The common case - the stub covers the draw and holds nobody's
discards - deals straight from the deck (:func:`serve`, :func:`serve_all`), which is the
same deal.

The two reshuffle rules:

- ``served-discards`` (default): the player gets the rest of the stub; then the pool is
  shuffled into a new stub and he gets the rest from it.
- ``pokerstars``: a player is never dealt a card he threw at any point of the hand.
  When he is served, his own discards in the stub are passed over and stay there, in
  order, for the others. If the stub holds fewer cards he may receive than he needs, the
  rest of the stub and every card out of play are shuffled into a new stub first. If even
  then the stub holds nothing but his own discards, he is dealt them in stub order: the
  deal never fails.

Given replacement cards are checked one by one at the moment each is dealt, against
exactly the cards the real deal could produce then. The check is a dry run on copies, so
an illegal card changes nothing; under declare-then-deal a declared player's given cards
wait in ``_reserved[seat]`` (they stay where they are until dealt). A reshuffle happens
in a replay exactly where the engine would do it, with the deck's own stream, so a hand
the engine played replays card for card to the same state.
"""

from __future__ import annotations

from typing import Any

from triple_draw.errors import CardError, IllegalActionError
from triple_draw.game.events import COUNTS, DISCARD, DRAW_BEGINS, burn_entry, reshuffle_entry
from triple_draw.game.events import DRAW as DRAW_KIND
from triple_draw.game.cards import CARD_TEXT, UNKNOWN, to_ids, to_maybe_ids, to_record_ids
from triple_draw.game.events import LogEntry
from triple_draw.game.phase import DRAW, OVER, SHOWDOWN
from triple_draw.game.record import RecordStub, forget, outside_deck
from triple_draw.game.state import Given, HandState

__all__ = [
    "Deal",
    "start_draw",
    "serve",
    "serve_all",
    "discard_given",
    "receivable",
    "checked_discard",
    "discards_of",
    "not_drawing",
]

_NOBODY: frozenset[int] = frozenset()

#: ``(seat, discards, given cards or None)``: one draw to serve, in serving order
Draw = tuple[int, tuple[int, ...], Given | None]


def start_draw(st: HandState) -> None:
    """A draw begins: the seats still in, clockwise from the button's left, declare."""
    if st._n_live == st._n:
        order: list[int] | tuple[int, ...] = st._cw
    else:
        live = st._live
        order = [j for j in st._cw if live[j]]
    st._phase = DRAW
    st._in_draw = True
    st._draw_order = order
    st._draw_pos = 0
    st._actor = order[0]
    st._log.append(DRAW_BEGINS[st._street])


def discards_of(st: HandState, seat: int) -> tuple[int, ...]:
    """Every card ``seat`` has discarded this hand (from the log)."""
    return tuple(c for e in st._log if e[0] == DISCARD and e[1] == seat for c in e[3] or ())


def not_drawing(st: HandState) -> IllegalActionError:
    if st._phase == OVER:
        return IllegalActionError("cannot discard: the hand is over")
    if st._phase == SHOWDOWN:
        return IllegalActionError(
            f"cannot discard: it is the showdown (seat {st._actor} shows or mucks)"
        )
    return IllegalActionError(
        f"cannot discard: it is betting round {st._street + 1} (seat {st._actor} to act)"
    )


def serve(st: HandState, s: int, ids: tuple[int, ...], burn: bool = False) -> None:
    """Immediate draws: deal seat ``s`` his replacements (after the draw's burn card if
    ``burn``), then put his discards into the pool."""
    k = len(ids)
    if burn:
        if _top_covers(st, k + 1):  # the burn and his cards from the top of the stub
            new = st._deck.deal_ids(k + 1)
            st._stub_n -= k + 1
            st._out.append(new[0])
            st._log.append(burn_entry(st._street, new[0]))
            if k:
                st._hands[s].extend(new[1:])
                st._log.append((DRAW_KIND, s, None, tuple(new[1:])))
                st._out.extend(ids)
        else:
            commit(st, plan(st, [(s, ids, None)], burn=True))
    elif k:
        # from the top of the stub unless a replay withholds cards or, under
        # "pokerstars", the stub may hold his discards (after a reshuffle)
        if k <= st._stub_n and st._withheld is None and not (st._reshuffled and st._rc.pokerstars):
            new = st._deck.deal_ids(k)
            st._stub_n -= k
            st._hands[s].extend(new)
            st._log.append((DRAW_KIND, s, None, tuple(new)))
            st._out.extend(ids)
        else:
            commit(st, plan(st, [(s, ids, None)]))


def serve_all(st: HandState) -> None:
    """Declare-then-deal: deal every declared draw in order (one deck call when the stub
    covers them all)."""
    declared = st._declared
    need = st._need
    burn = st._rc.burn
    covers = _top_covers(st, need + burn)
    if not covers and (burn or st._rc.pool_all_discards):
        # one deal for the whole draw: the burn comes first, and the "pokerkit" pool
        # holds the discards of the players not served yet
        commit(st, plan(st, _pending(st), burn=st._rc.burn))
    elif covers:
        # no reshuffle: the burn card (if the rules burn) and every draw from the top of
        # the stub, in the order the one deal would give them
        if need or burn:
            ids = tuple(st._deck.deal_ids(need + burn))
            st._stub_n -= need + burn
            hands = st._hands
            log = st._log
            out = st._out
            p = 0
            if burn:
                out.append(ids[0])
                log.append(burn_entry(st._street, ids[0]))
                p = 1
            for j, t in declared:
                if t:
                    k = p + len(t)
                    new = ids[p:k]
                    p = k
                    hands[j] += new
                    log.append((DRAW_KIND, j, None, new))
                    out += t
    else:
        for j, t in declared:
            serve(st, j, t)
    st._declared = []
    st._reserved = None
    st._need = 0


def _top_covers(st: HandState, k: int) -> bool:
    """Whether the next ``k`` cards of the draw come from the top of the stub: it holds
    them, no replay withholds cards, and under "pokerstars" no reshuffle has put a
    player's own discards into it."""
    return k <= st._stub_n and st._withheld is None and not (st._reshuffled and st._rc.pokerstars)


# -- the one deal from the stub -------------------------------------------------------------


class Deal:
    """The card state :func:`plan` deals on: a copy of the deck (stub and random stream),
    the withheld cards, the pool, and what was dealt and logged. The stub is read as a
    list only when a card must be taken from inside it (given cards, cards passed over);
    dealing from the top and reshuffling go straight to the deck."""

    __slots__ = (
        "_deck",
        "_stub",
        "absorbed",
        "held",
        "log",
        "new",
        "out",
        "probe",
        "record",
        "reshuffled",
        "serving",
        "table",
        "was_out",
    )

    def __init__(self, deck: Any, held: list[int] | None, out: list[int]) -> None:
        self._deck = deck.copy()
        self._stub: list[int] | None = None
        self.held = list(held or ())
        self.out = list(out)
        self.new: list[tuple[int, list[int]]] = []
        self.log: list[LogEntry] = []
        self.probe: list[int] | None = None
        self.reshuffled = False
        #: a hand replayed from a record: an unknown card dealt may be any card of the
        #: stub, so the known cards in it become unknown (record.py)
        self.record = type(deck) is RecordStub
        #: "pokerkit": the discards of seq still on the table, in serving order
        self.table: list[int] = []
        #: the index in seq from which the discards went into a reshuffle
        self.absorbed = 1 << 30
        #: the index in seq of the draw being served
        self.serving = 0
        #: a record: known cards out of play whose places were forgotten (they come back
        #: only in a reshuffle, which empties this)
        self.was_out: set[int] = set()

    @property
    def stub(self) -> list[int]:
        """The stub in deal order, as a list that may be changed."""
        if self._stub is None:
            self._stub = self._deck.stub_ids()
        return self._stub

    def stub_len(self) -> int:
        return len(self._deck) if self._stub is None else len(self._stub)

    def top(self) -> int:
        """Take the top card of the stub."""
        if self._stub is None:
            cid: int = self._deck.deal_ids(1)[0]
            return cid
        if self.record:
            forget(self._stub)
        return self._stub.pop(0)

    def take_top(self, m: int) -> list[int]:
        """Take the top ``m`` cards of the stub."""
        if self._stub is None:
            cards: list[int] = self._deck.deal_ids(m)
            return cards
        if self.record:
            forget(self._stub)
        cards = self._stub[:m]
        del self._stub[:m]
        return cards

    def deck(self) -> Any:
        """The deck holding the current stub."""
        if self._stub is not None:
            state = self._deck.get_state()
            state["stub"] = self._stub
            self._deck = type(self._deck).from_state(state)
            self._stub = None
        return self._deck

    def reshuffle(self, pool: list[int]) -> None:
        """The pool and the rest of the stub, shuffled by the deck's own stream."""
        self.deck().reshuffle(pool)
        self.reshuffled = True


def plan(
    st: HandState,
    seq: list[Draw],
    actor: int | None = None,
    keep: list[int] | None = None,
    probe: int = -1,
    burn: bool = False,
    burn_card: int | None = None,
) -> Deal:
    """Deal ``seq`` (draws in serving order) card by card on copies: a given card must be
    one the deal could give at its moment, a ``None`` takes the next card the deal gives.
    ``actor``/``keep``: a declarer not yet recorded (his cards after the discard).
    ``probe``: stop at that card of the last draw and record the cards it could be.
    ``burn``: the draw's burn card comes first (``burn_card`` if given - a replay's -
    else the top card of the stub that no draw of ``seq`` is given).
    Raises :class:`IllegalActionError` at the first given card the deal cannot give."""
    p = Deal(st._deck, st._withheld, st._out)
    pokerstars = st._rc.pokerstars
    # "pokerkit": a reshuffle also takes the discards of this draw still on the table
    # (from ``absorbed`` on, seq's discards are in the stub: not added to the pool again)
    pool_all = st._rc.pool_all_discards
    p.absorbed = len(seq)
    if pool_all:
        p.table = [c for _, t, _ in seq for c in t]
    last = len(seq) - 1
    if burn:
        _burn(st, p, seq, burn_card)
    for q, (j, t, given) in enumerate(seq):
        k = len(t)
        if not k:
            continue
        p.serving = q
        # the cards he may not be dealt while others remain (pokerstars: all he threw)
        mine = _NOBODY
        earlier: tuple[int, ...] = ()
        if pokerstars:
            earlier = discards_of(st, j)
            mine = frozenset((*earlier, *t))
            if p.record:
                mine -= _UNKNOWN_SET
                if (
                    earlier
                    and p.out
                    and (st._reshuffled or p.reshuffled)
                    and p.stub_len() - k < len(earlier)
                ):
                    # what is left of the stub may be his own earlier discards at some
                    # card of his deal, and the cards out of play then gathered into it:
                    # which depends on cards nobody saw, so their places are forgotten
                    p.was_out.update(c for c in p.out if c != UNKNOWN)
                    forget(p.out)
                    forget(p.stub)
            if k > p.stub_len() + len(p.held):
                # the stub cannot cover him: it and every card out of play form a new one
                _gather(p, j)
        new: list[int] = []
        if given is None and not mine and (q != last or probe < 0):
            # the random deal, nobody passed over: the top cards, in bulk
            while len(new) < k:
                m = p.stub_len()
                want = k - len(new)
                if m:
                    new += p.take_top(want if want < m else m)
                elif p.held:
                    new += p.held[:want]
                    del p.held[:want]
                else:
                    _reshuffle_empty(p, j)
            k = 0
        for i in range(k):
            if not p.held and not p.stub_len():
                _reshuffle_empty(p, j)
            if mine and p.out and not _count_not_in(p.stub, mine) + _count_not_in(p.held, mine):
                # pokerstars: what is left of the stub is his own discards, passed over
                # for him; the cards out of play are gathered into it
                _gather(p, j)
            if q == last and i == probe:
                cards = [c for c in (*p.stub, *p.held) if c not in mine]
                p.probe = sorted(cards or (*p.stub, *p.held))
                return p
            cid = None if given is None else given[i]
            if cid is None:
                cid = _next_card(p, mine)
            elif cid in mine and (_count_not_in(p.stub, mine) or _count_not_in(p.held, mine)):
                if cid in t:
                    raise IllegalActionError(
                        f"seat {j} cannot receive {CARD_TEXT[cid]}: he discarded it in this draw"
                    )
                raise IllegalActionError(
                    f"seat {j} cannot receive {CARD_TEXT[cid]}: he discarded it earlier in this "
                    'hand (the "pokerstars" reshuffle never gives a player his own discards '
                    "back while the stub holds other cards)"
                )
            elif p.stub and p.stub[0] == cid:
                p.stub.pop(0)
            elif cid in p.stub:
                p.stub.remove(cid)
            elif cid in p.held:
                p.held.remove(cid)
            elif cid in p.was_out and p.stub_len() + len(p.held) <= len(earlier):
                # pokerstars, a record: a card that was out of play comes back only in a
                # new stub - what was left of the stub was his own earlier discards, and
                # the cards out of play were gathered into it (where, nobody saw)
                _gather(p, j)
                p.stub.remove(cid if cid in p.stub else UNKNOWN)
            elif p.record and UNKNOWN in p.stub and _loose(st, p, seq, q, cid, actor, keep):
                # a card nobody is known to hold: one of the stub's unknown cards
                p.stub.remove(UNKNOWN)
            else:
                raise IllegalActionError(_why_not(st, p, seq, q, cid, actor, keep))
            new.append(cid)
        p.new.append((j, new))
        p.log.append((DRAW_KIND, j, None, tuple(new)))
        if q < p.absorbed:
            p.out.extend(t)
        if pool_all:
            del p.table[: len(t)]
    return p


def _burn(st: HandState, p: Deal, seq: list[Draw], card: int | None = None) -> None:
    """The draw's burn card: ``card`` if given (a replay's), else the top card of the stub
    (passing over the cards given to the draws of ``seq``, which a replay names); out of
    play at once."""
    if not p.held and not p.stub_len():
        p.serving = 0
        _reshuffle_empty(p, seq[0][0] if seq else None)
    if card is not None:
        if card in p.stub:
            p.stub.remove(card)
        elif card in p.held:
            p.held.remove(card)
        else:
            raise IllegalActionError(f"cannot burn {CARD_TEXT[card]}: it is not in the stub")
        p.out.append(card)
        p.log.append(burn_entry(st._street, card))
        return
    if not p.stub_len():
        if p.held:
            cid = p.held.pop(0)
            p.out.append(cid)
            p.log.append(burn_entry(st._street, cid))
            return
        p.serving = 0
        _reshuffle_empty(p, seq[0][0] if seq else None)
    given = {c for _, _, g in seq if g is not None for c in g if c is not None}
    if given and not p.record:  # (a record's burn card is unknown: any card of the stub)
        stub = p.stub
        cid = next((c for c in stub if c not in given), stub[0])
        stub.remove(cid)
    else:
        cid = p.top()
    p.out.append(cid)
    p.log.append(burn_entry(st._street, cid))


def _reshuffle_empty(p: Deal, j: int | None) -> None:
    """Served-discards: seat ``j`` got the rest of the stub; a new one from the pool
    ("pokerkit": with every discard of this draw still on the table, his own included)."""
    pool = p.out
    p.out = []
    p.was_out.clear()
    if p.table:
        pool += p.table
        p.table = []
        p.absorbed = p.serving  # this draw's discards from here on are in the new stub
    p.reshuffle(pool)
    p.log.append(reshuffle_entry(j, len(pool)))
    if not p.stub_len():  # pragma: no cover - impossible up to 9 players
        raise RuntimeError("the deck cannot complete the draw")


def _gather(p: Deal, j: int) -> None:
    """Pokerstars, serving seat ``j``: the rest of the stub and every card out of play are
    shuffled into a new stub."""
    pool = p.out
    p.out = []
    p.was_out.clear()
    p.reshuffle(pool)
    p.log.append(reshuffle_entry(j, p.stub_len() + len(p.held)))


_UNKNOWN_SET = frozenset((UNKNOWN,))


def _loose(
    st: HandState,
    p: Deal,
    seq: list[Draw],
    q: int,
    cid: int,
    actor: int | None,
    keep: list[int] | None,
) -> bool:
    """A record: whether known card ``cid``, given to the draw ``seq[q]``, has no known
    place (it may then be one of the unknown cards of the stub)."""
    if cid in p.out:
        return False
    for x in range(st._n):  # (a folded hand's cards are out of play, in p.out)
        if st._live[x] and cid in (keep if x == actor and keep is not None else st._hands[x]):
            return False
    for k, (_j, t, g) in enumerate(seq):
        # a discard of this draw is out of play while it is in front of a player not
        # served yet (or of the player being served); a served player's discards went
        # out of play (in p.out, above) and are loose once a reshuffle took them into
        # the stub ("pokerkit": from ``absorbed`` on, the draw's discards went into the
        # new stub)
        if (cid in t and q <= k < p.absorbed) or (k != q and g is not None and cid in g):
            return False
    return not any(cid in new for _j, new in p.new)


def _count_not_in(cards: list[int], mine: frozenset[int]) -> int:
    if not mine:
        return len(cards)
    return sum(1 for c in cards if c not in mine)


def _next_card(p: Deal, mine: frozenset[int]) -> int:
    """The card the deal gives next: the first stub card not in ``mine`` (then the first
    such withheld card); if there is none, the top card."""
    if (not mine or p.record) and p.stub_len():
        return p.top()
    for pile in (p.stub, p.held):
        for i, c in enumerate(pile):
            if c not in mine:
                return pile.pop(i)
    return p.top() if p.stub_len() else p.held.pop(0)


def commit(st: HandState, p: Deal) -> None:
    """Make a :class:`Deal` the hand's state (after its discards are recorded)."""
    st._deck = p.deck()
    st._stub_n = len(st._deck)
    st._out = p.out
    st._withheld = p.held or None
    hands = st._hands
    for j, new in p.new:
        hands[j].extend(new)
    st._log.extend(p.log)
    if p.reshuffled:
        st._reshuffled = True


def _why_not(
    st: HandState,
    p: Deal,
    seq: list[Draw],
    q: int,
    cid: int,
    actor: int | None,
    keep: list[int] | None,
) -> str:
    j, t, _ = seq[q]
    head = f"seat {j} cannot receive {CARD_TEXT[cid]}"
    if cid in t:
        return f"{head}: he discarded it in this draw"
    for x in range(st._n):
        if not st._live[x]:
            continue
        cards = keep if x == actor and keep is not None else st._hands[x]
        if cid in cards or any(cid in new for y, new in p.new if y == x):
            return f"{head}: {'he' if x == j else f'seat {x}'} holds it"
    for x, tx, _ in seq[q + 1 :]:
        if cid in tx:
            return f"{head}: seat {x} discarded it in this draw and is not served yet"
    n = p.stub_len() + len(p.held)
    if cid in p.out:
        return (
            f"{head}: it is out of play and the stub still holds {n} cards (cards out "
            "of play come back only in a reshuffle, when the stub runs out)"
        )
    return f"{head}: it is not available"  # pragma: no cover - the 52 are accounted for


# -- given replacement cards (replays) ------------------------------------------------------


def discard_given(
    st: HandState, s: int, ids: tuple[int, ...], keep: list[int], receive: Any, burn: Any = None
) -> bool:
    """``discard`` with given replacement cards (or a given burn card), or while other
    declared players wait for given cards: every deal it causes is planned (and checked)
    on copies first. Returns True when the draw is over (the caller starts the next
    betting round)."""
    given = None if receive is None else _check_receive(s, ids, receive)
    if given is not None and all(cid is None for cid in given):
        given = None  # all random
    if given is not None and st._rc.outside:
        why = outside_deck(st, given)
        if why is not None:
            raise IllegalActionError(f"seat {s} cannot receive {why}")
    order = st._draw_order
    pos = st._draw_pos + 1
    last = pos == len(order)
    immediate = st._rc.immediate_draw
    if immediate and burn is None and given is not None and _record_top(st, s, ids, keep, given):
        # a record's player dealt known cards from the top of a stub of unknown cards
        # (the hero of a site's history): what plan() would find, without its copies
        st._hands[s] = keep + [UNKNOWN if c is None else c for c in given]
        st._deck.deal_ids(len(ids))
        st._stub_n -= len(ids)
        st._log.append((DISCARD, s, None, ids))
        st._draws[s] += COUNTS[len(ids)]
        st._log.append((DRAW_KIND, s, None, tuple(st._hands[s][len(keep) :])))
        st._out.extend(ids)
        if pos < len(order):
            st._draw_pos = pos
            st._actor = order[pos]
            return False
        return True
    p = None
    burns = st._rc.burn and (pos == 1 if immediate else last)
    card = None
    if burn is not None:
        if not burns:
            raise IllegalActionError(
                f"seat {s}'s discard is not followed by the burn card"
                + ("" if st._rc.burn else " (these rules burn no cards)")
            )
        try:
            (card,) = to_ids([burn] if isinstance(burn, int) else burn)
        except (CardError, ValueError):
            raise IllegalActionError(f"bad burn card: {burn!r} (one card)") from None
    if immediate:
        p = plan(st, [(s, ids, given)], s, keep, burn=burns, burn_card=card)
    elif last or (given is not None and not st._rc.pool_all_discards and not st._rc.burn):
        # declare-then-deal: his cards are dealt after those declared before him; a
        # dry run now checks them at the moment they will be dealt (the declarations
        # still to come cannot change that - except under "pokerkit", whose reshuffle
        # takes them too, and with burn cards, whose burn card is given with the last
        # declaration: there the given cards are checked when the last one declares)
        p = plan(st, [*_pending(st), (s, ids, given)], s, keep, burn=burns, burn_card=card)
    # -- nothing has changed up to here
    st._hands[s] = keep
    st._log.append((DISCARD, s, None, ids))
    st._draws[s] += COUNTS[len(ids)]
    if p is not None and (immediate or last):
        commit(st, p)
    if last and not immediate:
        st._declared = []
        st._need = 0
        st._reserved = None
    elif not immediate:
        st._declared.append((s, ids))
        st._need += len(ids)
        if given is not None:
            if st._reserved is None:
                st._reserved = [None] * st._n
            st._reserved[s] = given
    if pos < len(order):
        st._draw_pos = pos
        st._actor = order[pos]
        return False
    return True


def _record_top(
    st: HandState, s: int, ids: tuple[int, ...], keep: list[int], given: Given
) -> bool:
    """Whether seat ``s`` of a record, throwing ``ids``, can be dealt ``given`` from the
    top of the stub as :func:`plan` would deal them, without planning: an immediate draw
    with no burn card, no reshuffle yet and none needed, a stub of unknown cards only,
    and each known card given one that nobody holds, nobody threw (this draw or earlier:
    those are out of play) and no reshuffle put into the stub - so :func:`plan` would take
    one of the stub's unknown cards for it. ``False`` leaves it to :func:`plan` (which
    also words any refusal)."""
    deck = st._deck
    if (
        type(deck) is not RecordStub
        or deck._known
        or st._rc.burn
        or st._reshuffled
        or st._withheld is not None
        or st._reserved is not None
        or len(ids) > st._stub_n
    ):
        return False
    out = st._out
    hands = st._hands
    live = st._live
    for cid in given:
        if cid is None:
            continue
        if cid in ids or cid in out or cid in keep:
            return False
        for x in range(st._n):
            if x != s and live[x] and cid in hands[x]:
                return False
    return True


def _pending(st: HandState) -> list[Draw]:
    """The declared draws waiting to be dealt, with their given cards."""
    res = st._reserved
    return [(j, t, None if res is None else res[j]) for j, t in st._declared]


def _check_receive(s: int, ids: tuple[int, ...], receive: Any) -> Given:
    """The form of ``receive``: parsed, one card per discard, no card twice."""
    try:
        given = to_maybe_ids(receive)
    except CardError as e:
        raise IllegalActionError(f"bad receive cards: {e}") from None
    if len(given) != len(ids):
        raise IllegalActionError(
            f"seat {s} discards {len(ids)} cards but receive lists {len(given)}"
        )
    known = [cid for cid in given if cid is not None]
    if len(set(known)) != len(known):
        raise IllegalActionError(f"receive lists a card twice: {_text(known)}")
    return given


def receivable(st: HandState, cards: Any, given: Any = ()) -> list[int]:
    """The cards the deal could give the actor as his replacement number ``len(given) +
    1`` if he discards ``cards`` and his first replacements are ``given`` (``Hand.
    receivable``)."""
    if st._phase != DRAW:
        raise not_drawing(st)
    s = st._actor
    assert s is not None
    ids, keep = checked_discard(s, st._hands[s], cards)
    t = tuple(ids)
    try:
        first = to_maybe_ids(given)
    except CardError as e:
        raise IllegalActionError(f"bad receive cards: {e}") from None
    if len(first) >= len(t):
        raise IllegalActionError(
            f"seat {s} discards {len(t)} cards: no replacement number {len(first) + 1}"
        )
    why = outside_deck(st, first)
    if why is not None:
        raise IllegalActionError(f"seat {s} cannot receive {why}")
    padded = first + [None] * (len(t) - len(first))
    immediate = st._rc.immediate_draw
    seq = [] if immediate else _pending(st)
    seq.append((s, t, padded))
    burn = st._rc.burn and (not immediate or st._draw_pos == 0)
    probe = plan(st, seq, s, keep, probe=len(first), burn=burn).probe
    assert probe is not None
    return probe


def checked_discard(
    s: int, held: list[int], cards: Any, record: bool = False
) -> tuple[list[int], list[int]]:
    """The slow path of a discard: parse the cards and say exactly what is wrong. In a
    hand replayed from a record (``record``) an unknown card (``??``) stands for one of
    the seat's unknown cards."""
    try:
        ids = to_record_ids(cards) if record else to_ids(cards)
    except CardError as e:
        raise IllegalActionError(f"bad discard: {e}") from None
    for cid in ids:
        if cid not in held:
            what = "an unknown card" if cid == UNKNOWN else CARD_TEXT[cid]
            raise IllegalActionError(f"seat {s} cannot discard {what}: he does not hold it")
    if len(ids) > len(held):
        most = ("none", "one", "two", "three", "four", "five")[len(held)]
        raise IllegalActionError(f"seat {s} cannot discard {len(ids)} cards: at most {most}")
    keep = list(held)
    for cid in ids:
        if cid in keep:
            keep.remove(cid)
        elif cid == UNKNOWN:
            raise IllegalActionError(
                f"seat {s} cannot discard {ids.count(UNKNOWN)} unknown cards: "
                f"he holds {held.count(UNKNOWN)}"
            )
        else:
            raise IllegalActionError(f"seat {s} cannot discard the same card twice: {_text(ids)}")
    return ids, keep


def _text(ids: Any) -> str:
    return " ".join(CARD_TEXT[c] if type(c) is int and 0 <= c < 52 else repr(c) for c in ids)
