"""A table: a sequence of hands over the same seats (README: *Between hands*).

Table seats are numbered ``0 .. max_players-1`` clockwise; a seat is empty (``None``)
or holds a stack. Each hand is played by the occupied seats in clockwise order, so
hand seat ``i`` is the ``i``-th occupied table seat (``Table.seat_map``). Between hands:
stacks carry over, players with no chips leave, the button moves clockwise to the next
player with chips, players may sit down in empty seats or leave; with two players left
the hand plays heads-up (the button posts the small blind).

New players are dealt in at the next hand without posting (the rule books are silent;
see README: *Choices where the rule books are silent*).

>>> from triple_draw import Rules
>>> t = Table(Rules(), [100, 100, None, 100], seed=7)
>>> h = t.new_hand()
>>> t.seat_map, h.button
((0, 1, 3), 0)
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from triple_draw.errors import ArgumentError, ArgumentTypeError, IllegalActionError
from triple_draw.game.hand import Hand
from triple_draw.game.rules import Rules

__all__ = ["Table"]


class Table:
    """``Table(rules, stacks, button=0, seed=None, *, core=None)``

    ``stacks``: a list of stacks by table seat (``None`` = empty seat) or a dict
    ``{seat: stack}``. ``button``: the table seat of the first hand's button (or the next
    occupied seat after it). ``seed``: seeds every hand's deck deterministically (``None``:
    OS entropy).
    """

    def __init__(
        self,
        rules: Rules,
        stacks: Sequence[int | None] | Mapping[int, int],
        button: int = 0,
        seed: int | None = None,
        *,
        core: Any = None,
    ) -> None:
        if type(rules) is not Rules:
            raise ArgumentTypeError(f"rules must be a Rules, got {type(rules).__name__}")
        self.rules = rules
        m = rules.max_players
        seats: list[int | None] = [None] * m
        if not isinstance(stacks, (Sequence, Mapping)) or isinstance(stacks, (str, bytes)):
            raise ArgumentTypeError(f"stacks must be a list or a dict of stacks, got {stacks!r}")
        items = stacks.items() if isinstance(stacks, Mapping) else enumerate(stacks)
        for seat, stack in items:
            if type(seat) is not int or not 0 <= seat < m:
                raise ArgumentError(f"stacks: seat {seat!r} is not a seat 0..{m - 1}")
            if stack is not None:
                _check_stack(stack)
            seats[seat] = stack
        if type(button) is not int or not 0 <= button < m:
            raise ArgumentError(f"button must be a table seat 0..{m - 1}, got {button!r}")
        self._seats = seats
        self._button = button
        self._started = False
        self._core = core
        self._rng = None if seed is None else random.Random(seed)
        self.hand: Hand | None = None
        self._map: tuple[int, ...] = ()
        self._settled = True
        self.hands_played = 0

    # -- seating -------------------------------------------------------------------------

    @property
    def seats(self) -> tuple[int | None, ...]:
        """Stack of every table seat (``None`` = empty), as of the last finished hand."""
        self._settle()
        return tuple(self._seats)

    @property
    def players(self) -> tuple[int, ...]:
        """Occupied table seats."""
        self._settle()
        return tuple(s for s, x in enumerate(self._seats) if x is not None)

    @property
    def button(self) -> int:
        """Table seat of the current (or, before the first hand, the starting) button."""
        return self._button

    @property
    def seat_map(self) -> tuple[int, ...]:
        """Table seat of each hand seat of the current hand."""
        return self._map

    def hand_seat(self, table_seat: int) -> int | None:
        """The current hand's seat of a table seat (``None`` if not in the hand)."""
        try:
            return self._map.index(table_seat)
        except ValueError:
            return None

    def _between_hands(self, what: str) -> None:
        if self.hand is not None and not self.hand.is_over:
            raise IllegalActionError(f"cannot {what} during a hand")
        self._settle()

    def sit(self, seat: int, stack: int) -> None:
        """A player sits down in an empty seat between hands."""
        self._between_hands("sit down")
        if type(seat) is not int or not 0 <= seat < len(self._seats):
            raise ArgumentError(f"seat must be 0..{len(self._seats) - 1}, got {seat!r}")
        if self._seats[seat] is not None:
            raise ArgumentError(f"seat {seat} is taken")
        _check_stack(stack)
        self._seats[seat] = stack

    def leave(self, seat: int) -> int:
        """The player of ``seat`` leaves between hands; returns his chips."""
        self._between_hands("leave")
        if type(seat) is not int or not 0 <= seat < len(self._seats) or self._seats[seat] is None:
            raise ArgumentError(f"seat {seat!r} is empty")
        chips = self._seats[seat]
        self._seats[seat] = None
        return chips  # type: ignore[return-value]

    # -- hands -----------------------------------------------------------------------------

    def _settle(self) -> None:
        if self._settled or self.hand is None or not self.hand.is_over:
            return
        for i, st in enumerate(self.hand.stacks):
            self._seats[self._map[i]] = st if st > 0 else None  # busted players leave
        self._settled = True

    def _next_occupied(self, start: int) -> int:
        m = len(self._seats)
        for k in range(m):
            s = (start + k) % m
            if self._seats[s] is not None:
                return s
        raise IllegalActionError("no player at the table")

    def new_hand(
        self,
        *,
        seed: int | None = None,
        hole_cards: Mapping[int, Any] | None = None,
        deck: Any = None,
    ) -> Hand:
        """Start the next hand (the previous one must be over).

        ``hole_cards``: optional ``{table seat: cards}`` given cards (see :class:`Hand`).
        ``seed``/``deck``: override this hand's deck (default: the table's seed stream)."""
        self._between_hands("start a hand")
        occupied = [s for s, x in enumerate(self._seats) if x is not None]
        if len(occupied) < 2:
            raise IllegalActionError(f"a hand needs two players, the table has {len(occupied)}")
        if len(occupied) > self.rules.max_players:  # pragma: no cover - seats list bounds it
            raise IllegalActionError("too many players")
        if self._started:
            button = self._next_occupied(self._button + 1)
        else:
            button = self._next_occupied(self._button)
        self._button = button
        if seed is None and deck is None and self._rng is not None:
            seed = self._rng.getrandbits(256)
        given = None
        if hole_cards is not None:
            given = [hole_cards.get(s) for s in occupied]
        hand = Hand(
            self.rules,
            [self._seats[s] for s in occupied],  # type: ignore[misc]
            occupied.index(button),
            seed,
            hole_cards=given,
            deck=deck,
            core=self._core,
        )
        self.hand = hand
        self._map = tuple(occupied)
        self._settled = False
        self._started = True
        self.hands_played += 1
        return hand

    def __repr__(self) -> str:
        return f"<Table seats={list(self.seats)} button={self._button} hands={self.hands_played}>"


def _check_stack(stack: Any) -> None:
    if type(stack) is not int or stack <= 0:
        raise ArgumentError(f"a stack must be an int > 0, got {stack!r}")
