"""The draws (RULES §5) and running out of cards (§5.1), as a mixin of :class:`Hand`.

Card bookkeeping: every card is at all times in exactly one of
- a hand (``_hands[seat]`` of a seat still in the hand),
- the stub (the deck object; ``_stub_n`` mirrors its length),
- out of play: ``_out`` (the reshuffle pool: folded hands, discards of earlier draws and
  of players already served in this draw), ``_declared`` (``(seat, discards)`` declared
  and not yet served under declare-then-deal) or ``_reserved[seat]`` (given
  replacement cards waiting for their player, replays only) or ``_withheld`` (cards a
  replay will deal later as given cards, never dealt at random).

So ``_out`` is exactly the pool the default rule reshuffles: the discards of the player
being served and of the players not yet served are never in it.
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
        ones, one per discarded card, ``None``/``"??"`` for a random one. Each given card
        must be available: in the stub, or out of play and not one he may not get back."""
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
        if receive is None:
            given = None
        else:
            given = self._check_receive(s, ids, receive)
            self._reserve(s, given)
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
        if need <= self._stub_n and self._reserved is None:
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
        """Deal seat ``s`` his replacements, then put his discards into the pool."""
        k = len(ids)
        if k:
            if k <= self._stub_n and (self._reserved is None or self._reserved[s] is None):
                new = self._deck.deal_ids(k)
                self._stub_n -= k
            else:
                new = self._deal_slow(s, k)
            self._hands[s].extend(new)
            self._log.append(("draw", s, None, tuple(new)))
            self._out.extend(ids)

    def _deal_slow(self, s: int, k: int) -> list[int]:
        res = self._reserved
        given = None if res is None else res[s]
        if given is None:
            return self._deal_random(s, k)
        res[s] = None  # type: ignore[index]
        if not any(res):  # type: ignore[arg-type]
            self._reserved = None
        rnd = iter(self._deal_random(s, given.count(None)))
        return [next(rnd) if cid is None else cid for cid in given]

    def _deal_random(self, s: int, k: int) -> list[int]:
        """``k`` cards from the stub, reshuffling per the rules when it runs short."""
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
        if k > self._stub_n:  # pragma: no cover - impossible up to 9 players (RULES §3)
            raise RuntimeError("the deck cannot complete the draw")
        got += deck.deal_ids(k)
        self._stub_n -= k
        return got

    # -- given replacement cards (replays) ----------------------------------------------

    def _check_receive(self, s: int, ids: tuple[int, ...], receive: Any) -> list[int | None]:
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
        if known:
            stub = set(self._deck.stub_ids())
            out = set(self._out)
            out.update(self._withheld or ())
            mine = set(ids)
            if self._c[4]:
                mine.update(self.discards(s))  # type: ignore[attr-defined]
            for cid in known:
                if cid in mine:
                    raise IllegalActionError(
                        f"seat {s} cannot receive {CARD_TEXT[cid]}: he discarded it"
                    )
                if cid not in stub and cid not in out:
                    raise IllegalActionError(
                        f"card {CARD_TEXT[cid]} is not available: it is in a hand or on the table"
                    )
        return given

    def _reserve(self, s: int, given: list[int | None]) -> None:
        if not given:
            return
        known = {cid for cid in given if cid is not None}
        if known:
            deck = self._deck
            stub = deck.stub_ids()
            if any(cid in known for cid in stub):
                state = deck.get_state()
                state["stub"] = [cid for cid in stub if cid not in known]
                self._deck = type(deck).from_state(state)
                self._stub_n = len(state["stub"])
            self._out = [cid for cid in self._out if cid not in known]
            if self._withheld:
                self._withheld = [cid for cid in self._withheld if cid not in known] or None
        if self._reserved is None:
            self._reserved = [None] * self._n
        self._reserved[s] = given


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
