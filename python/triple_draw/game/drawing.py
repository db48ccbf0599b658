"""The draws and running out of cards (README: *Draws*, *Running out of cards*), a mixin
of :class:`Hand`.

Card bookkeeping: every card is at all times in exactly one of
- a hand (``_hands[seat]`` of a seat still in the hand),
- the stub: the deck object (``_stub_n`` mirrors its length) and ``_withheld`` (replays
  only: cards of the stub that are never dealt at random, only as given cards),
- out of play: ``_out`` (the reshuffle pool: folded hands, discards of earlier draws and
  of players already served in this draw) or ``_declared`` (``(seat, discards)`` declared
  and not yet served under declare-then-deal).

So ``_out`` is exactly the pool the default rule reshuffles: the discards of the player
being served and of the players not yet served are never in it.

Given replacement cards (``discard(cards, receive=[...])``, replays) are checked one by
one at the moment each is dealt, against exactly the cards the real deal could produce
then: the stub, or - when the stub runs out - the new stub the rule forms at that point
(:meth:`DrawMixin._plan`). The check is a dry run on copies, so an illegal card changes
nothing; under declare-then-deal a declared player's given cards wait in
``_reserved[seat]`` (they stay where they are until dealt). A reshuffle happens in a
replay exactly where the engine would do it: the stub is re-formed from the same pool with
the deck's own stream, the event is logged, and the given cards are taken out of the new
stub - so a hand the engine played replays card for card to the same state.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from triple_draw.errors import CardError, IllegalActionError
from triple_draw.game.cards import CARD_TEXT, to_ids, to_maybe_ids
from triple_draw.game.phase import DRAW

__all__ = ["DrawMixin"]


class DrawMixin:
    if not TYPE_CHECKING:  # the attributes live in Hand.__slots__
        __slots__ = ()

    # attributes provided by Hand
    _n: int
    _button: int
    _live: list[bool]
    _hands: list[list[int]]
    _deck: Any
    _stub_n: int
    _out: list[int]
    _declared: list[tuple[int, tuple[int, ...]]]
    _need: int
    _cw: tuple[int, ...]
    _n_live: int
    _reserved: list[list[int | None] | None] | None
    _withheld: list[int] | None
    _draw_order: tuple[int, ...] | list[int]
    _draw_pos: int
    _phase: int
    _in_draw: bool
    _street: int
    _actor: Any
    _log: list[tuple[Any, ...]]
    _c: tuple[Any, ...]

    def _start_draw(self) -> None:
        if self._n_live == self._n:
            order = self._cw
        else:
            live = self._live
            order = [j for j in self._cw if live[j]]  # type: ignore[assignment]
        self._phase = DRAW
        self._in_draw = True
        self._draw_order = order
        self._draw_pos = 0
        self._actor = order[0]
        self._log.append(("begin_draw", -1, self._street, None))

    def discard(self, cards: Any = (), receive: Any = None) -> None:
        """The actor discards ``cards`` (ids, text or Card objects; none = stand pat).

        ``receive`` (replays, tests): the replacement cards to deal him instead of random
        ones, one per discarded card in the order dealt, ``None``/``"??"`` for a random
        one. Each given card must be one the real deal could give him at the moment it
        is dealt: a card of the stub, or - when the stub runs out - of the new stub the
        reshuffle rule forms there (never a card in a hand, on the table, thrown by him
        in this draw, or out of play while the stub lasts). An illegal card raises
        :class:`IllegalActionError` naming it and why, and changes nothing."""
        if self._phase != DRAW:
            raise self._not_drawing()
        s = self._actor
        held = self._hands[s]
        ids = cards
        keep: list[int] | None = None
        if type(ids) is list or type(ids) is tuple:
            keep = held[:]
            try:
                for cid in ids:
                    if type(cid) is not int:
                        raise TypeError
                    keep.remove(cid)  # ValueError: not held, or a duplicate
            except (TypeError, ValueError):
                keep = None
        if keep is None:  # text, Card objects, or an error to explain
            ids, keep = _checked_discard(s, held, cards)
        k = len(ids)
        ids = tuple(ids)
        if receive is not None or self._reserved is not None:
            self._discard_given(s, ids, keep, receive)
            return
        self._hands[s] = keep
        self._log.append(("discard", s, None, ids))
        order = self._draw_order
        pos = self._draw_pos + 1
        if self._c[3]:  # immediate: dealt right after declaring
            self._serve(s, ids)
        else:
            self._declared.append((s, ids))
            self._need += k
            if pos == len(order):
                self._serve_all()
        if pos < len(order):
            self._draw_pos = pos
            self._actor = order[pos]
            return
        self._start_round(self._street + 1)  # type: ignore[attr-defined]

    def _serve_all(self) -> None:
        """Declare-then-deal: deal every declared draw in order (one deck call when the
        stub covers them all)."""
        declared = self._declared
        need = self._need
        if need <= self._stub_n:
            if need:
                ids = self._deck.deal_ids(need)
                self._stub_n -= need
                hands = self._hands
                log = self._log
                out = self._out
                p = 0
                for j, t in declared:
                    if t:
                        k = p + len(t)
                        new = ids[p:k]
                        p = k
                        hands[j] += new
                        log.append(("draw", j, None, new))
                        out += t
        else:
            for j, t in declared:
                self._serve(j, t)
        self._declared = []
        self._need = 0

    def _not_drawing(self) -> IllegalActionError:
        if self._actor is None:
            return IllegalActionError("cannot discard: the hand is over")
        return IllegalActionError(
            f"cannot discard: it is betting round {self._street + 1} (seat {self._actor} to act)"
        )

    def _serve(self, s: int, ids: tuple[int, ...]) -> None:
        """Deal seat ``s`` his replacements at random, then put his discards into the pool."""
        k = len(ids)
        if k:
            if k <= self._stub_n:
                new = self._deck.deal_ids(k)
                self._stub_n -= k
            elif self._withheld is None:
                new = self._deal_random(s, k)
            else:  # a replay with withheld cards: they count as stub cards
                self._commit(self._plan([(s, ids, None)]))
                return
            self._hands[s].extend(new)
            self._log.append(("draw", s, None, tuple(new)))
            self._out.extend(ids)

    def _deal_random(self, s: int, k: int) -> list[int]:
        """``k`` cards from the stub, reshuffling per the rules when it runs short.

        (:meth:`_plan` deals the same way card by card, for given cards and withheld
        ones; the replay tests check that the two agree.)"""
        if k <= self._stub_n:
            self._stub_n -= k
            return self._deck.deal_ids(k) if k else []
        deck = self._deck
        if not self._c[4]:
            # served-discards: the rest of the stub first, then a new stub from the pool
            got: list[int] = deck.deal_ids(self._stub_n) if self._stub_n else []
            k -= self._stub_n
            pool = self._out
            self._out = []
            deck.reshuffle(pool)
            self._stub_n = len(pool)
            self._log.append(("reshuffle", s, len(pool), None))
        else:
            # pokerstars: stub + everything out of play, minus all his own discards; if
            # that cannot cover him (only possible with 7-8 players), exclude only the
            # discards of this draw, which are not in the pool (the default rule's
            # guarantee)
            got = []
            mine = set(self.discards(s))  # type: ignore[attr-defined]
            pool = [cid for cid in self._out if cid not in mine]
            if len(pool) + self._stub_n < k:
                pool = self._out
                self._out = []
            else:
                self._out = [cid for cid in self._out if cid in mine]
            deck.reshuffle(pool)
            self._stub_n += len(pool)
            self._log.append(("reshuffle", s, self._stub_n, None))
        if k > self._stub_n:  # pragma: no cover - impossible with 9 players or fewer
            raise RuntimeError("the deck cannot complete the draw")
        got += deck.deal_ids(k)
        self._stub_n -= k
        return got

    # -- given replacement cards (replays) ----------------------------------------------

    def _discard_given(self, s: int, ids: tuple[int, ...], keep: list[int], receive: Any) -> None:
        """``discard`` with given replacement cards, or while other declared players wait
        for given cards: every deal it causes is planned (and checked) on copies first."""
        given = None if receive is None else self._check_receive(s, ids, receive)
        if given is not None and all(cid is None for cid in given):
            given = None  # all random
        order = self._draw_order
        pos = self._draw_pos + 1
        last = pos == len(order)
        immediate = self._c[3]
        plan = None
        if immediate:
            plan = self._plan([(s, ids, given)], s, keep)
        elif last or given is not None:
            # declare-then-deal: his cards are dealt after those declared before him; a
            # dry run now checks them at the moment they will be dealt (the declarations
            # still to come cannot change that)
            plan = self._plan([*self._pending(), (s, ids, given)], s, keep)
        # -- nothing has changed up to here
        self._hands[s] = keep
        self._log.append(("discard", s, None, ids))
        if immediate:
            self._commit(plan)  # type: ignore[arg-type]
        elif last:
            self._commit(plan)  # type: ignore[arg-type]
            self._declared = []
            self._need = 0
            self._reserved = None
        else:
            self._declared.append((s, ids))
            self._need += len(ids)
            if given is not None:
                if self._reserved is None:
                    self._reserved = [None] * self._n
                self._reserved[s] = given
        if pos < len(order):
            self._draw_pos = pos
            self._actor = order[pos]
            return
        self._start_round(self._street + 1)  # type: ignore[attr-defined]

    def _pending(self) -> list[tuple[int, tuple[int, ...], list[int | None] | None]]:
        """The declared draws waiting to be dealt, with their given cards."""
        res = self._reserved
        return [(j, t, None if res is None else res[j]) for j, t in self._declared]

    def _check_receive(self, s: int, ids: tuple[int, ...], receive: Any) -> list[int | None]:
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

    def _plan(
        self,
        seq: list[tuple[int, tuple[int, ...], list[int | None] | None]],
        actor: int = -1,
        keep: list[int] | None = None,
        probe: int = -1,
    ) -> _Plan:
        """Deal ``seq`` (``(seat, discards, given or None)`` in serving order) card by card
        on copies of the stub, the withheld cards and the pool, exactly as the engine
        deals (:meth:`_deal_random`): a given card must be in the stub at its moment, a
        ``None`` takes the top card (a withheld card only when the deck is empty).
        ``actor``/``keep``: a declarer not yet recorded (his cards after the discard).
        ``probe``: stop at that card of the last entry and record the cards it could be.
        Raises :class:`IllegalActionError` at the first given card the deal cannot give."""
        state = self._deck.get_state()
        p = _Plan(state["key"], state["word_pos"], state["stub"], self._withheld, self._out)
        pokerstars = self._c[4]
        last = len(seq) - 1
        for q, (j, t, given) in enumerate(seq):
            k = len(t)
            if not k:
                continue
            excluded: set[int] | tuple[()] = ()
            if pokerstars and k > len(p.stub) + len(p.held):
                excluded = self._plan_pokerstars(p, j, t, k)
            new: list[int] = []
            for i in range(k):
                if not p.stub and not p.held:
                    # served-discards: he got the rest of the stub; a new one from the pool
                    pool = p.out
                    p.out = []
                    self._plan_reshuffle(p, pool)
                    p.log.append(("reshuffle", j, len(pool), None))
                    if not p.stub:  # pragma: no cover - impossible up to 9 players
                        raise RuntimeError("the deck cannot complete the draw")
                if q == last and i == probe:
                    p.probe = sorted(p.stub + p.held)
                    return p
                cid = None if given is None else given[i]
                stub = p.stub
                if cid is None:
                    cid = stub.pop(0) if stub else p.held.pop(0)
                elif stub and stub[0] == cid:
                    stub.pop(0)
                elif cid in stub:
                    stub.remove(cid)
                elif cid in p.held:
                    p.held.remove(cid)
                else:
                    raise IllegalActionError(self._why_not(p, seq, q, cid, excluded, actor, keep))
                new.append(cid)
            p.new.append((j, new))
            p.log.append(("draw", j, None, tuple(new)))
            p.out.extend(t)
        return p

    def _plan_pokerstars(
        self, p: _Plan, j: int, t: tuple[int, ...], k: int
    ) -> set[int] | tuple[()]:
        """The "pokerstars" reshuffle before serving seat ``j`` (as in :meth:`_deal_random`);
        returns his discards it kept out."""
        mine = set(self.discards(j))  # type: ignore[attr-defined]
        mine.update(t)
        pool = [cid for cid in p.out if cid not in mine]
        excluded: set[int] | tuple[()]
        if len(pool) + len(p.stub) + len(p.held) < k:
            pool = p.out
            p.out = []
            excluded = ()
        else:
            p.out = [cid for cid in p.out if cid in mine]
            excluded = set(p.out)
        self._plan_reshuffle(p, pool)
        n = len(p.stub) + len(p.held)
        p.log.append(("reshuffle", j, n, None))
        if k > n:  # pragma: no cover - impossible up to 9 players
            raise RuntimeError("the deck cannot complete the draw")
        return excluded

    def _plan_reshuffle(self, p: _Plan, pool: list[int]) -> None:
        """``deck.reshuffle(pool)`` on the planned stub, with the deck's own stream."""
        deck = type(self._deck).from_state({"key": p.key, "word_pos": p.word_pos, "stub": p.stub})
        deck.reshuffle(pool)
        state = deck.get_state()
        p.word_pos = state["word_pos"]
        p.stub = list(state["stub"])

    def _commit(self, p: _Plan) -> None:
        """Make a plan of :meth:`_plan` the hand's state (after its discard is recorded)."""
        self._deck = type(self._deck).from_state(
            {"key": p.key, "word_pos": p.word_pos, "stub": p.stub}
        )
        self._stub_n = len(p.stub)
        self._out = p.out
        self._withheld = p.held or None
        hands = self._hands
        for j, new in p.new:
            hands[j].extend(new)
        self._log.extend(p.log)

    def _why_not(
        self,
        p: _Plan,
        seq: list[tuple[int, tuple[int, ...], list[int | None] | None]],
        q: int,
        cid: int,
        excluded: Any,
        actor: int,
        keep: list[int] | None,
    ) -> str:
        j, t, _ = seq[q]
        head = f"seat {j} cannot receive {CARD_TEXT[cid]}"
        if cid in t:
            return f"{head}: he discarded it in this draw"
        if cid in excluded:
            return (
                f'{head}: he discarded it earlier in this hand (the "pokerstars" reshuffle '
                "never gives a player his own discards back)"
            )
        for x in range(self._n):
            if not self._live[x]:
                continue
            cards = keep if x == actor and keep is not None else self._hands[x]
            if cid in cards or any(cid in new for y, new in p.new if y == x):
                return f"{head}: {'he' if x == j else f'seat {x}'} holds it"
        for x, tx, _ in seq[q + 1 :]:
            if cid in tx:
                return f"{head}: seat {x} discarded it in this draw and is not served yet"
        n = len(p.stub) + len(p.held)
        if cid in p.out:
            return (
                f"{head}: it is out of play and the stub still holds {n} cards (cards out "
                "of play come back only in a reshuffle, when the stub runs out)"
            )
        return f"{head}: it is not available"  # pragma: no cover - the 52 are accounted for

    def receivable(self, cards: Any, given: Any = ()) -> list[int]:
        """The cards the deal could give the actor as his replacement number
        ``len(given) + 1`` if he discards ``cards`` and his first replacements are
        ``given`` - under the hand's reshuffle rule, in no particular order.

        This is the engine's answer to "who may receive which card", for replays that
        choose unknown cards (the PHH loader). Raises :class:`IllegalActionError` like
        :meth:`discard` would. Changes nothing."""
        if self._phase != DRAW:
            raise self._not_drawing()
        s = self._actor
        ids, keep = _checked_discard(s, self._hands[s], cards)
        t = tuple(ids)
        try:
            first = to_maybe_ids(given)
        except CardError as e:
            raise IllegalActionError(f"bad receive cards: {e}") from None
        if len(first) >= len(t):
            raise IllegalActionError(
                f"seat {s} discards {len(t)} cards: no replacement number {len(first) + 1}"
            )
        padded = first + [None] * (len(t) - len(first))
        seq = [] if self._c[3] else self._pending()
        seq.append((s, t, padded))
        return self._plan(seq, s, keep, probe=len(first)).probe  # type: ignore[return-value]


class _Plan:
    """Copies of the card state a slow-path deal works on (:meth:`DrawMixin._plan`)."""

    __slots__ = ("held", "key", "log", "new", "out", "probe", "stub", "word_pos")

    def __init__(
        self, key: str, word_pos: int, stub: list[int], held: list[int] | None, out: list[int]
    ) -> None:
        self.key = key
        self.word_pos = word_pos
        self.stub = list(stub)
        self.held = list(held or ())
        self.out = list(out)
        self.new: list[tuple[int, list[int]]] = []
        self.log: list[tuple[Any, ...]] = []
        self.probe: list[int] | None = None


def _checked_discard(s: int, held: list[int], cards: Any) -> tuple[list[int], list[int]]:
    """The slow path of a discard: parse the cards and say exactly what is wrong."""
    try:
        ids = to_ids(cards)
    except CardError as e:
        raise IllegalActionError(f"bad discard: {e}") from None
    for cid in ids:
        if cid not in held:
            raise IllegalActionError(
                f"seat {s} cannot discard {CARD_TEXT[cid]}: he does not hold it"
            )
    if len(ids) > 5:
        raise IllegalActionError(f"seat {s} cannot discard {len(ids)} cards: at most five")
    if len(set(ids)) != len(ids):
        raise IllegalActionError(f"seat {s} cannot discard the same card twice: {_text(ids)}")
    return ids, [cid for cid in held if cid not in ids]


def _text(ids: Any) -> str:
    return " ".join(CARD_TEXT[c] if type(c) is int and 0 <= c < 52 else repr(c) for c in ids)
