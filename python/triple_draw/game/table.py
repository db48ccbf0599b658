"""A table: a sequence of hands over the same seats, with the card room's rules between
hands (docs/table.md).

Table seats are numbered ``0 .. max_players-1`` clockwise; a seat is empty or holds a
player with a stack and a status:

- ``"active"``: dealt into every hand;
- ``"waiting"``: a new player, or one coming back after missing blinds, who is not dealt
  in yet: he waits for the big blind, or (when he chose to post) until he may post his
  way in;
- ``"sitting_out"``: keeps his seat and chips, is not dealt in, and owes the blinds
  that pass him.

Each hand is played by the dealt-in seats in clockwise order, so hand seat ``i`` is the
``i``-th table seat of :attr:`Table.seat_map`. Between hands the table settles the hand
(stacks carry over, busted players leave), moves the button and blinds - by default with
the dead-button rule, so that every player pays each blind once per orbit - and collects
the posts of players coming in.

>>> from triple_draw import Rules
>>> t = Table(Rules(), [100, 100, None, 100], seed=7)
>>> h = t.new_hand()
>>> t.seat_map, t.button, t.small_blind_seat, t.big_blind_seat
((0, 1, 3), 0, 1, 3)
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from triple_draw.errors import (
    ArgumentError,
    ArgumentTypeError,
    IllegalActionError,
    SchemaError,
    TripleDrawError,
)
from triple_draw.game import state_io
from triple_draw.game.hand import Hand
from triple_draw.game.rules import MAX_CHIPS, Rules

__all__ = ["Table", "TABLE_SCHEMA_VERSION", "BUTTON_RULES", "ENTRY_CHOICES", "STATUSES"]

#: The ``schema_version`` that :meth:`Table.to_dict` writes and :meth:`Table.from_dict` reads.
TABLE_SCHEMA_VERSION = 1
#: ``button_rule`` values: the dead button (default) or a simple moving button.
BUTTON_RULES = ("dead", "moving")
#: ``new_players`` / ``missed_blinds`` values: wait for the big blind, or post to come in.
ENTRY_CHOICES = ("wait", "post")
#: A seated player's status.
STATUSES = ("active", "waiting", "sitting_out")

# what a waiting or sitting-out player owes: nothing, a new player's big blind, the small
# blind he missed (posted dead), or both blinds (the big blind live, the small blind dead);
# or "deal": a new player seated to be dealt in at once wherever the button puts him,
# posting nothing but the blinds that reach him (sit(..., dealt_in=True): tournaments)
_OWES = (None, "new", "small", "big", "deal")
_KEYS = (
    "schema_version",
    "rules",
    "options",
    "seats",
    "button",
    "last_blinds",
    "hands_played",
    "busted",
    "rng",
    "hand",
)

# who is dealt in, hand button, small blind, big blind, posts, (positions, marks)
_Plan = tuple[list[int], int, int | None, int, dict[int, tuple[int, int]], Any]


class Table:
    """``Table(rules, stacks, button=0, seed=None, *, core=None, button_rule="dead",
    new_players="wait", missed_blinds="post")``

    - ``stacks``: a list of stacks by table seat (``None`` = empty seat) or a dict
      ``{seat: stack}``; these players are all dealt into the first hand.
    - ``button``: the table seat of the first hand's button (or the next player after it).
    - ``seed``: seeds every hand's deck deterministically (``None``: OS entropy).
    - ``button_rule``: ``"dead"`` (the big blind moves one player each hand, the small
      blind and button follow it, so the button may be on an empty seat and a hand may
      have no small blind) or ``"moving"`` (the button moves to the next player and the
      next two post the blinds).
    - ``new_players``: what a player who sits down after the first hand does by default:
      ``"wait"`` for the big blind, or ``"post"`` a big blind to be dealt in sooner.
    - ``missed_blinds``: what a player coming back from sitting out with missed blinds
      does by default: ``"post"`` them (the big blind live, the small blind dead), or
      ``"wait"`` for the big blind.

    :meth:`sit` and :meth:`sit_in` take a ``post=`` argument for one player's own choice.
    Players join, leave, sit out and come back only between hands
    (:class:`~triple_draw.IllegalActionError` otherwise).
    """

    def __init__(
        self,
        rules: Rules,
        stacks: Sequence[int | None] | Mapping[int, int],
        button: int = 0,
        seed: int | None = None,
        *,
        core: Any = None,
        button_rule: str = "dead",
        new_players: str = "wait",
        missed_blinds: str = "post",
    ) -> None:
        if type(rules) is not Rules:
            raise ArgumentTypeError(f"rules must be a Rules, got {type(rules).__name__}")
        _check_options(button_rule, new_players, missed_blinds, ArgumentError)
        self.rules = rules
        self.button_rule = button_rule
        self.new_players = new_players
        self.missed_blinds = missed_blinds
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
        if seed is not None and type(seed) is not int:
            raise ArgumentError(f"seed must be an int or None, got {seed!r}")
        self._seats = seats
        self._status: list[str | None] = ["active" if s is not None else None for s in seats]
        self._owes: list[str | None] = [None] * m
        self._post: list[bool] = [False] * m
        self._button = button
        # (button seat, small blind seat, big blind seat) of the last hand, or None
        self._last: tuple[int, int, int] | None = None
        self._core = core
        self._rng = None if seed is None else random.Random(seed)
        self.hand: Hand | None = None
        self._map: tuple[int, ...] = ()
        self._sb: int | None = None
        self._bb: int | None = None
        self._posts: dict[int, tuple[int, int]] = {}
        self._settled = True
        self._busted: set[int] = set()
        self.hands_played = 0

    # -- seats -----------------------------------------------------------------------------

    @property
    def seats(self) -> tuple[int | None, ...]:
        """Stack of every table seat (``None`` = empty), as of the last finished hand."""
        self._settle()
        return tuple(self._seats)

    @property
    def players(self) -> tuple[int, ...]:
        """Occupied table seats (whatever their status)."""
        self._settle()
        return tuple(s for s, x in enumerate(self._seats) if x is not None)

    def status(self, seat: int) -> str | None:
        """``"active"``, ``"waiting"``, ``"sitting_out"``, or ``None`` for an empty seat."""
        self._check_seat(seat)
        self._settle()
        return self._status[seat]

    def owes(self, seat: int) -> tuple[int, int]:
        """``(live, dead)``: the chips the seat's player must post to be dealt in before
        the big blind reaches him - ``(big_blind, 0)`` for a new player, ``(big_blind,
        small_blind)`` after missing the big blind, ``(0, small_blind)`` after missing only
        the small blind, ``(0, 0)`` otherwise."""
        self._check_seat(seat)
        self._settle()
        return self._owed(seat)

    def wants_to_post(self, seat: int) -> bool:
        """Whether a waiting player will post his way in as soon as he may (else he waits
        for the big blind)."""
        self._check_seat(seat)
        return self._status[seat] == "waiting" and self._post[seat]

    @property
    def button(self) -> int:
        """Table seat of the button of the current (or last) hand; before the first hand,
        the starting button. Under the dead-button rule it may be an empty seat."""
        return self._button

    @property
    def small_blind_seat(self) -> int | None:
        """Table seat that posted the small blind in the current (or last) hand (``None``
        before the first hand and in a hand with a dead small blind)."""
        return self._sb

    @property
    def big_blind_seat(self) -> int | None:
        """Table seat that posted the big blind in the current (or last) hand."""
        return self._bb

    @property
    def posts(self) -> dict[int, tuple[int, int]]:
        """``{table seat: (live, dead)}``: what players coming in posted in the current
        (or last) hand, besides the blinds."""
        return dict(self._posts)

    @property
    def busted(self) -> tuple[int, ...]:
        """Empty seats whose players busted and may buy back in there with :meth:`rebuy`
        (until someone else sits down); :meth:`owes` says what each owes by then."""
        self._settle()
        return tuple(sorted(self._busted))

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

    def _check_seat(self, seat: Any) -> None:
        if type(seat) is not int or not 0 <= seat < len(self._seats):
            raise ArgumentError(f"seat must be 0..{len(self._seats) - 1}, got {seat!r}")

    def _between_hands(self, what: str) -> None:
        if self.hand is not None and not self.hand.is_over:
            raise IllegalActionError(f"cannot {what} during a hand")
        self._settle()

    def _occupied(self, seat: Any) -> None:
        self._check_seat(seat)
        if self._seats[seat] is None:
            raise ArgumentError(f"seat {seat} is empty")

    def _owed(self, seat: int) -> tuple[int, int]:
        o = self._owes[seat]
        r = self.rules
        if o == "new":
            return (r.big_blind, 0)
        if o == "big":
            return (r.big_blind, r.small_blind)
        if o == "small":
            return (0, r.small_blind)
        return (0, 0)

    def sit(
        self, seat: int, stack: int, *, post: bool | None = None, dealt_in: bool = False
    ) -> None:
        """A player sits down in an empty seat between hands.

        Before the first hand he is simply dealt in. Later he waits for the big blind, or
        with ``post=True`` posts a big blind (live) to be dealt in as soon as he is not
        between the button and the big blind; ``post=None`` follows the table's
        ``new_players`` option. Sitting down in the seat of a player who busted there
        (:attr:`busted`) ends his claim to it: whoever sits down is a new player (the
        busted player himself comes back with :meth:`rebuy`).

        ``dealt_in=True`` (the tournament rule for a player moved from another table or
        registering late: TDA rules *Alternates, Late Registrants, Re-Entries*, *Breaking
        Tables*): he posts nothing to come in and is dealt into the next hand wherever
        the button and blinds put him - the big blind, the small blind or the button
        included - except between the button and the small blind, where he waits one
        hand. Until he is dealt in his status is ``"waiting"`` and :meth:`owes` is
        ``(0, 0)``; ``post`` must then be ``None``."""
        self._between_hands("sit down")
        self._check_seat(seat)
        if self._seats[seat] is not None:
            raise ArgumentError(f"seat {seat} is taken")
        _check_stack(stack)
        _check_post(post)
        if type(dealt_in) is not bool:
            raise ArgumentError(f"dealt_in must be True or False, got {dealt_in!r}")
        if dealt_in and post is not None:
            raise ArgumentError("a player dealt in at once posts nothing: give post or dealt_in")
        self._busted.discard(seat)
        self._seats[seat] = stack
        if self._last is None:
            self._status[seat], self._owes[seat], self._post[seat] = "active", None, False
        elif dealt_in:
            self._status[seat], self._owes[seat], self._post[seat] = "waiting", "deal", True
        else:
            self._status[seat], self._owes[seat] = "waiting", "new"
            self._post[seat] = self.new_players == "post" if post is None else post

    def leave(self, seat: int) -> int:
        """The player of ``seat`` leaves between hands; returns his chips. What he owed
        leaves with him. A player who busted there (see :attr:`busted`) leaves for good:
        his seat is no longer his to buy back into (returns 0)."""
        self._between_hands("leave")
        self._check_seat(seat)
        if self._seats[seat] is None and seat in self._busted:
            self._busted.discard(seat)
            self._owes[seat] = None
            return 0
        self._occupied(seat)
        chips = self._seats[seat]
        self._clear(seat)
        return chips  # type: ignore[return-value]

    def _clear(self, seat: int) -> None:
        self._seats[seat] = None
        self._status[seat], self._owes[seat], self._post[seat] = None, None, False

    def rebuy(self, seat: int, chips: int, *, post: bool | None = None) -> None:
        """Between hands, add ``chips`` to a seated player's stack (a top-up), or bring
        back with ``chips`` the player who busted in ``seat`` (as long as nobody else has
        sat down there). He keeps his place and is not a new player (Robert's Rules of
        Poker, *Button and Blind Use*): buying back in before the next hand he is dealt in
        without posting; once blinds have passed his empty seat he owes them as a player
        who sat out does - the big blind live and the small blind dead, or only the small
        blind - and posts them (``post=True``) or waits for the big blind (``post=False``);
        ``post=None`` follows the table's ``missed_blinds`` option."""
        self._between_hands("rebuy")
        self._check_seat(seat)
        _check_stack(chips)
        _check_post(post)
        held = self._seats[seat]
        if held is not None and held + chips > MAX_CHIPS:
            raise ArgumentError(
                f"rebuy: seat {seat} would have {held + chips} chips, more than {MAX_CHIPS}"
            )
        if self._seats[seat] is not None:
            self._seats[seat] += chips  # type: ignore[operator]
        elif seat in self._busted:
            self._seats[seat] = chips
            self._busted.discard(seat)
            if self._owes[seat] is None:
                self._status[seat], self._post[seat] = "active", False
            else:
                self._status[seat] = "waiting"
                self._post[seat] = self.missed_blinds == "post" if post is None else post
        else:
            raise ArgumentError(
                f"seat {seat} is empty and nobody busted there: a new player sits down (sit)"
            )

    def sit_out(self, seat: int) -> None:
        """The player of ``seat`` sits out from the next hand on (between hands only). He
        keeps his seat and chips; every blind that passes him is owed when he comes back."""
        self._between_hands("sit out")
        self._occupied(seat)
        if self._status[seat] == "sitting_out":
            raise IllegalActionError(f"seat {seat} is already sitting out")
        self._status[seat] = "sitting_out"
        self._post[seat] = False

    def sit_in(self, seat: int, *, post: bool | None = None) -> None:
        """The player of ``seat`` comes back (between hands only).

        If no blind passed him (or before the first hand) he is dealt into the next hand.
        Otherwise he posts what he missed - the big blind live and the small blind dead,
        or only the small blind, dead - as soon as he is not between the button and the
        big blind (``post=True``), or waits for the big blind (``post=False``);
        ``post=None`` follows the table's ``missed_blinds`` option (a player who sat down
        and sat out before playing follows ``new_players``)."""
        self._between_hands("sit in")
        self._occupied(seat)
        if self._status[seat] != "sitting_out":
            raise IllegalActionError(f"seat {seat} is not sitting out")
        _check_post(post)
        owes = self._owes[seat]
        if owes is None or self._last is None:
            self._status[seat], self._owes[seat], self._post[seat] = "active", None, False
            return
        if owes == "deal":  # seated to be dealt in at once, and no blind passed him since
            self._status[seat], self._post[seat] = "waiting", True
            return
        default = self.new_players if owes == "new" else self.missed_blinds
        self._status[seat] = "waiting"
        self._post[seat] = default == "post" if post is None else post

    # -- hands -----------------------------------------------------------------------------

    def _settle(self) -> None:
        if self._settled or self.hand is None or not self.hand.is_over:
            return
        for i, st in enumerate(self.hand.stacks):
            if st > 0:
                self._seats[self._map[i]] = st
            else:  # busted players leave (they may buy back in: rebuy)
                self._clear(self._map[i])
                self._busted.add(self._map[i])
        self._settled = True

    def _after(self, start: int, ok: Any) -> int | None:
        """The first seat clockwise after ``start`` whose status passes ``ok``."""
        m = len(self._seats)
        for k in range(1, m + 1):
            s = (start + k) % m
            if ok(self._status[s]):
                return s
        return None

    def _after_seat(self, start: int, ok: Any) -> int | None:
        """The first seat clockwise after ``start`` that passes ``ok(seat)``."""
        m = len(self._seats)
        for k in range(1, m + 1):
            s = (start + k) % m
            if ok(s):
                return s
        return None

    def _plan(self) -> _Plan:
        """Who is dealt into the next hand and where the button and blinds go.

        Returns ``(dealt seats in order, hand button seat, small blind seat or None, big
        blind seat, posts, (positions kept for the next hand, missed-blind marks))``."""
        m = len(self._seats)
        status = self._status
        last = self._last

        owes = self._owes

        def dealable(s: int) -> bool:  # active, or seated to be dealt in at once
            return status[s] == "active" or (status[s] == "waiting" and owes[s] == "deal")

        def eligible(x: str | None) -> bool:  # may take the big blind
            return x in ("active", "waiting")

        def between(a: int, b: int, s: int) -> bool:  # a < s < b clockwise
            return 0 < (s - a) % m < (b - a) % m

        if last is None:
            return self._fresh_plan()
        pbtn, psb, pbb = last
        if self.button_rule == "dead":
            bb_d = self._after(pbb, eligible)
            if bb_d is None:
                return self._fresh_plan()
            bb, sb_pos, btn = bb_d, pbb, psb
            if not between(bb, sb_pos, btn):
                # after a heads-up hand (the button was the small blind) whose button has
                # gone: the button is dead on the seat before the small blind
                btn = (sb_pos - 1) % m
        else:
            btn_ = self._after_seat(pbtn, dealable)
            sb_ = None if btn_ is None else self._after_seat(btn_, dealable)
            bb_ = None if sb_ is None else self._after(sb_, eligible)
            if btn_ is None or sb_ is None or bb_ is None or sb_ == btn_:
                return self._fresh_plan()
            btn, sb_pos, bb = btn_, sb_, bb_
        sb = sb_pos if dealable(sb_pos) and sb_pos != bb else None
        dealt = {bb}
        if sb is not None:
            dealt.add(sb)
        posts: dict[int, tuple[int, int]] = {}
        if btn != bb:
            for s in range(m):
                if s in dealt:
                    continue
                if dealable(s) and (s == btn or between(bb, btn, s)):
                    dealt.add(s)
                elif status[s] == "waiting" and self._post[s] and between(bb, btn, s):
                    dealt.add(s)
                    owed = self._owed(s)
                    if sum(owed):
                        posts[s] = owed
        order = sorted(dealt)
        marks = []
        for s in range(m):  # sitting-out and busted players owe the blinds that pass them
            if status[s] == "sitting_out" or s in self._busted:
                if between(pbb, bb, s):
                    marks.append((s, "big"))
                elif (s == sb_pos or between(psb, sb_pos, s)) and s != sb:
                    marks.append((s, "small"))
        if len(order) == 2:
            # heads-up: the big blind goes to the player after last hand's big blind, so
            # nobody posts it twice in a row; the other player has the button and posts
            # the small blind
            bb = next(s for s in ((pbb + k) % m for k in range(1, m + 1)) if s in dealt)
            sb = btn = order[0] if order[1] == bb else order[1]
            posts = {}
            return order, btn, sb, bb, posts, ((btn, sb, bb), marks)
        if len(order) < 2:
            return self._fresh_plan()
        # the hand's button: the last dealt-in player at or before the button seat
        hbtn = next(s for s in ((btn - k) % m for k in range(m)) if s in dealt)
        return order, hbtn, sb, bb, posts, ((btn, sb_pos, bb), marks)

    def _fresh_plan(self) -> _Plan:
        """A game (re)starting: every player who is not sitting out is dealt in without
        posting, the button goes to the next player and the next two post the blinds."""
        m = len(self._seats)
        inn = [s for s in range(m) if self._status[s] in ("active", "waiting")]
        if len(inn) < 2:
            raise IllegalActionError(f"a hand needs two players, the table has {len(inn)}")
        k = len(inn)
        if self._last is None:
            btn = next(s for s in ((self._button + j) % m for j in range(m)) if s in inn)
            i = inn.index(btn) + (1 if k == 2 else 2)
        else:  # the big blind still moves on from last hand's
            i = inn.index(
                next(s for s in ((self._last[2] + j) % m for j in range(1, m + 1)) if s in inn)
            )
        bb = inn[i % k]
        sb = inn[(i - 1) % k]
        btn = sb if k == 2 else inn[(i - 2) % k]
        return inn, btn, sb, bb, {}, ((btn, sb, bb), "fresh")

    def next_hand(self) -> dict[str, Any]:
        """What :meth:`new_hand` would do now, without doing it: ``{"button", "small_blind",
        "big_blind", "dealt", "posts"}`` in table seats (``small_blind`` ``None`` for a dead
        small blind; ``posts`` as in :attr:`posts`). Raises :class:`IllegalActionError`
        while a hand is in progress or when fewer than two players can be dealt in."""
        self._between_hands("plan the next hand")
        order, _hbtn, sb, bb, posts, (positions, _marks) = self._plan()
        return {
            "button": positions[0],
            "small_blind": sb,
            "big_blind": bb,
            "dealt": list(order),
            "posts": dict(posts),
        }

    def new_hand(
        self,
        *,
        seed: int | None = None,
        hole_cards: Mapping[int, Any] | None = None,
        deck: Any = None,
        rules: Rules | None = None,
    ) -> Hand:
        """Start the next hand (the previous one must be over) with the rules between
        hands applied: settle the last hand, move the button and blinds, deal in the
        players coming in (with their posts). Raises :class:`IllegalActionError` when
        fewer than two players can be dealt in.

        ``hole_cards``: optional ``{table seat: cards}`` given cards (see :class:`Hand`).
        ``seed``/``deck``: override this hand's deck (default: the table's seed stream).
        ``rules``: deal this hand, and the next ones, under these rules instead (a
        tournament's next level: other stakes; the same ``max_players``); they become
        :attr:`rules` only if the hand is dealt."""
        self._between_hands("start a hand")
        old_rules = self.rules
        if rules is not None:
            if type(rules) is not Rules:
                raise ArgumentTypeError(f"rules must be a Rules, got {type(rules).__name__}")
            if rules.max_players != old_rules.max_players:
                raise ArgumentError(
                    f"rules: the table has {old_rules.max_players} seats, the new rules "
                    f"{rules.max_players} (max_players must stay the same)"
                )
            self.rules = rules  # what the players coming in owe is in the new stakes
        try:
            order, hbtn, sb, bb, posts, (positions, marks) = self._plan()
        except BaseException:
            self.rules = old_rules
            raise
        idx = {s: i for i, s in enumerate(order)}
        hseed = seed
        rng_state = None if self._rng is None else self._rng.getstate()
        if seed is None and deck is None and self._rng is not None:
            hseed = self._rng.getrandbits(256)
        given = None
        if hole_cards is not None:
            if not isinstance(hole_cards, Mapping):
                raise ArgumentError("hole_cards must be a dict {table seat: cards}")
            given = [hole_cards.get(s) for s in order]
        try:
            hand = Hand(
                self.rules,
                [self._seats[s] for s in order],  # type: ignore[misc]
                idx[hbtn],
                hseed,
                hole_cards=given,
                deck=deck,
                core=self._core,
                no_small_blind=sb is None,
                posts={idx[s]: v for s, v in posts.items()} or None,
            )
        except BaseException:
            if rng_state is not None:
                self._rng.setstate(rng_state)  # type: ignore[union-attr]
            self.rules = old_rules
            raise
        # the hand is dealt: record positions, clear what was posted, mark missed blinds
        if marks == "fresh":
            for s in range(len(self._seats)):
                if self._status[s] == "waiting":
                    self._status[s] = "active"
                if self._status[s] is not None and self._status[s] != "sitting_out":
                    self._owes[s], self._post[s] = None, False
        else:
            for s, mark in marks:
                if mark == "big" or self._owes[s] in (None, "small"):
                    self._owes[s] = mark if self._owes[s] != "new" else "new"
        for s in order:
            self._status[s], self._owes[s], self._post[s] = "active", None, False
        self._last = positions
        self._button = positions[0]
        self._sb, self._bb = sb, bb
        self._posts = dict(posts)
        self.hand = hand
        self._map = tuple(order)
        self._settled = False
        self.hands_played += 1
        return hand

    # -- saving ----------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The whole table as plain JSON-ready data (``"schema_version": 1``): rules,
        options, seats, positions, the seed stream and the current hand (its
        :meth:`Hand.to_dict`), so that a table saved mid-session - even mid-hand - and
        restored with :meth:`from_dict` carries on identically."""
        self._settle()
        hand = None
        if self.hand is not None:
            hand = {
                "state": self.hand.to_dict(),
                "seat_map": list(self._map),
                "small_blind": self._sb,
                "big_blind": self._bb,
                "posts": [[s, live, dead] for s, (live, dead) in sorted(self._posts.items())],
            }
        rng = None
        if self._rng is not None:
            version, words, gauss = self._rng.getstate()
            rng = {"version": version, "state": list(words), "gauss_next": gauss}
        return {
            "schema_version": TABLE_SCHEMA_VERSION,
            "rules": self.rules.to_dict(),
            "options": {
                "button_rule": self.button_rule,
                "new_players": self.new_players,
                "missed_blinds": self.missed_blinds,
            },
            "seats": [
                None
                if x is None
                else {
                    "stack": x,
                    "status": self._status[s],
                    "owes": self._owes[s],
                    "post": self._post[s],
                }
                for s, x in enumerate(self._seats)
            ],
            "button": self._button,
            "last_blinds": None if self._last is None else list(self._last),
            "hands_played": self.hands_played,
            # a busted player who may buy back in: his seat, or [seat, the blinds he owes]
            # once blinds have passed his empty seat
            "busted": [
                s if self._owes[s] is None else [s, self._owes[s]] for s in sorted(self._busted)
            ],
            "rng": rng,
            "hand": hand,
        }

    @classmethod
    def from_dict(cls, data: Any, core: Any = None) -> Table:
        """Rebuild a table from :meth:`to_dict` output. A malformed or inconsistent
        document raises :class:`~triple_draw.SchemaError` naming the problem."""
        try:
            return _load(cls, data, core)
        except SchemaError:
            raise
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as e:
            raise SchemaError(f"malformed table document: {type(e).__name__}: {e}") from None

    def __repr__(self) -> str:
        return f"<Table seats={list(self.seats)} button={self._button} hands={self.hands_played}>"


def _check_stack(stack: Any) -> None:
    if type(stack) is not int or not 0 < stack <= MAX_CHIPS:
        raise ArgumentError(f"a stack must be an int > 0 and at most {MAX_CHIPS}, got {stack!r}")


def _check_post(post: Any) -> None:
    if post is not None and type(post) is not bool:
        raise ArgumentError(f"post must be True, False or None, got {post!r}")


def _check_options(button_rule: Any, new_players: Any, missed_blinds: Any, err: Any) -> None:
    if button_rule not in BUTTON_RULES:
        raise err(f"button_rule must be one of {BUTTON_RULES}, got {button_rule!r}")
    if new_players not in ENTRY_CHOICES:
        raise err(f"new_players must be one of {ENTRY_CHOICES}, got {new_players!r}")
    if missed_blinds not in ENTRY_CHOICES:
        raise err(f"missed_blinds must be one of {ENTRY_CHOICES}, got {missed_blinds!r}")


def _int(x: Any, what: str, lo: int, hi: int | None = None) -> int:
    if type(x) is not int or x < lo or (hi is not None and x > hi):
        rng = f"{lo}..{hi}" if hi is not None else f">= {lo}"
        raise SchemaError(f"{what} must be an int {rng}, got {x!r}")
    return x


def _load(cls: Any, d: Any, core: Any) -> Table:
    if not isinstance(d, dict):
        raise SchemaError(f"a table document must be a dict, got {type(d).__name__}")
    if d.get("schema_version") != TABLE_SCHEMA_VERSION:
        raise SchemaError(
            f"schema_version must be {TABLE_SCHEMA_VERSION}, got {d.get('schema_version')!r}"
        )
    missing = [k for k in _KEYS if k not in d]
    extra = [k for k in d if k not in _KEYS]
    if missing or extra:
        raise SchemaError(f"table document: missing fields {missing}, unknown fields {extra}")
    try:
        rules = Rules.from_dict(d["rules"])
    except SchemaError:
        raise
    except Exception as e:  # RulesError and friends: the document is bad
        raise SchemaError(f"rules: {e}") from None
    opts = d["options"]
    names = ["button_rule", "missed_blinds", "new_players"]
    if not isinstance(opts, dict) or sorted(opts) != names:
        raise SchemaError("options must hold button_rule, new_players and missed_blinds")
    _check_options(opts["button_rule"], opts["new_players"], opts["missed_blinds"], SchemaError)
    m = rules.max_players
    seats = d["seats"]
    if not isinstance(seats, list) or len(seats) != m:
        raise SchemaError(f"seats must be a list of {m} entries (rules.max_players)")
    t = object.__new__(cls)
    t.rules = rules
    t.button_rule = opts["button_rule"]
    t.new_players = opts["new_players"]
    t.missed_blinds = opts["missed_blinds"]
    t._seats, t._status, t._owes, t._post = [None] * m, [None] * m, [None] * m, [False] * m
    for s, x in enumerate(seats):
        if x is None:
            continue
        if not isinstance(x, dict) or sorted(x) != ["owes", "post", "stack", "status"]:
            raise SchemaError(f"seats[{s}] must be null or hold stack, status, owes and post")
        t._seats[s] = _int(x["stack"], f"seats[{s}].stack", 1, MAX_CHIPS)
        if x["status"] not in STATUSES:
            raise SchemaError(f"seats[{s}].status must be one of {STATUSES}, got {x['status']!r}")
        if x["owes"] not in _OWES:
            raise SchemaError(f"seats[{s}].owes must be one of {_OWES}, got {x['owes']!r}")
        if type(x["post"]) is not bool:
            raise SchemaError(f"seats[{s}].post must be a bool")
        if x["status"] == "active" and (x["owes"] is not None or x["post"]):
            raise SchemaError(f"seats[{s}]: an active player owes nothing and posts nothing")
        t._status[s], t._owes[s], t._post[s] = x["status"], x["owes"], x["post"]
    t._button = _int(d["button"], "button", 0, m - 1)
    last = d["last_blinds"]
    if last is None:
        t._last = None
    else:
        if not isinstance(last, list) or len(last) != 3:
            raise SchemaError("last_blinds must be null or [button, small blind, big blind] seats")
        t._last = tuple(_int(v, "last_blinds[]", 0, m - 1) for v in last)
        if t._last[0] != t._button:
            raise SchemaError("last_blinds[0] must be the button")
    t.hands_played = _int(d["hands_played"], "hands_played", 0)
    if (t._last is None) != (t.hands_played == 0):
        raise SchemaError("last_blinds must be null exactly when no hand was played")
    busted = d["busted"]
    if not isinstance(busted, list):
        raise SchemaError("busted must be a list of seats")
    seen = []
    for b in busted:
        s, owes = (b, None) if type(b) is int else (b, "?")
        if isinstance(b, list) and len(b) == 2 and b[1] in ("small", "big"):
            s, owes = b
        if owes == "?" or type(s) is not int or not 0 <= s < m or t._seats[s] is not None:
            raise SchemaError(
                "busted must list empty seats whose players busted, each a seat or "
                f"[seat, 'small' or 'big'] (the blinds he owes), got {b!r}"
            )
        seen.append(s)
        t._owes[s] = owes
    if seen != sorted(set(seen)):
        raise SchemaError("busted must list each seat once, in order")
    t._busted = set(seen)
    rng = d["rng"]
    if rng is None:
        t._rng = None
    else:
        if not isinstance(rng, dict) or sorted(rng) != ["gauss_next", "state", "version"]:
            raise SchemaError("rng must be null or hold version, state and gauss_next")
        words = rng["state"]
        if (
            rng["version"] != 3
            or not isinstance(words, list)
            or len(words) != 625
            or any(type(w) is not int or not 0 <= w < 2**32 for w in words)
            or words[-1] > 624
            or not (rng["gauss_next"] is None or type(rng["gauss_next"]) is float)
        ):
            raise SchemaError("rng is not a saved random.Random state")
        t._rng = random.Random()
        t._rng.setstate((3, tuple(words), rng["gauss_next"]))
    t._core = core
    t.hand, t._map, t._sb, t._bb, t._posts = None, (), None, None, {}
    t._settled = True
    hd = d["hand"]
    if hd is not None:
        _load_hand(t, hd, core, m)
    elif t.hands_played:
        raise SchemaError("a table that played hands has its last hand")
    return t  # type: ignore[no-any-return]


def _check_hand_agrees(
    t: Any, hand: Hand, smap: list[int], sb: int | None, posts: dict[int, tuple[int, int]], m: int
) -> None:
    """What a table's document says of its current hand must be what the table's rules
    make of it (docs/security.md): the same rules, the hand's button where the table's
    button puts it, its small blind where the table's positions say, the entry posts the
    hand's history opens with, and - once the hand is over - no chips lost since."""
    if hand.rules != t.rules:
        raise SchemaError("hand.state.rules: the hand is played under other rules than the table's")
    btn = t._last[0]
    dealt = set(smap)
    hbtn = next(x for x in ((btn - k) % m for k in range(m)) if x in dealt)
    if smap[hand.button] != hbtn:
        raise SchemaError(
            f"hand.state.button: the table's button (seat {btn}) gives the hand's button to "
            f"table seat {hbtn}, not {smap[hand.button]}"
        )
    if sb is not None and t._last[1] != sb:
        raise SchemaError("last_blinds[1] must be the current hand's small blind")
    # the entry posts: the hand opens with the forced bets that these posts make
    idx = {x: i for i, x in enumerate(smap)}
    try:
        again = Hand(
            t.rules,
            hand.starting_stacks,
            hand.button,
            seed=0,
            no_small_blind=hand.small_blind_seat is None,
            posts={idx[x]: v for x, v in posts.items()} or None,
        )
    except TripleDrawError as e:
        raise SchemaError(f"hand.posts: {e}") from None
    forced = ("post_ante", "post_small_blind", "post_big_blind")
    mine = [e for e in hand.history if e.kind in forced]
    if [e for e in again.history if e.kind in forced] != mine:
        raise SchemaError("hand.posts: the hand's forced bets are not what these posts make")
    if not hand.is_over:
        return
    # between hands chips only come in (rebuys): a seat still held by the hand's player
    # (not a new player, who owes "new" or "deal") holds at least what the hand left him
    final = hand.stacks
    for i, x in enumerate(smap):
        held = t._seats[x]
        if held is None:
            if x in t._busted and final[i]:
                raise SchemaError(f"busted: seat {x} ended the hand with {final[i]} chips")
            continue
        if t._owes[x] not in ("new", "deal") and held < final[i]:
            raise SchemaError(
                f"seats[{x}].stack: {held} chips, but the hand left its player {final[i]} "
                "(chips only come in between hands)"
            )


def _forced_options(hd: dict[str, Any], smap: Any) -> dict[str, Any] | None:
    """The ``Hand`` options the table's record of the hand says it was dealt with
    (``no_small_blind``, ``posts`` by hand seat), or ``None`` if the record is not of a
    shape to say (the checks that follow refuse it)."""
    if not isinstance(smap, list) or not isinstance(hd["posts"], list):
        return None
    idx = {s: i for i, s in enumerate(smap) if type(s) is int}
    options: dict[str, Any] = {}
    if hd["small_blind"] is None and len(smap) > 2:
        options["no_small_blind"] = True
    posts = {}
    for p in hd["posts"]:
        if not isinstance(p, list) or len(p) != 3 or p[0] not in idx:
            return None
        if type(p[1]) is not int or type(p[2]) is not int:
            return None
        posts[idx[p[0]]] = (p[1], p[2])
    if posts:
        options["posts"] = posts
    return options


def _load_hand(t: Any, hd: Any, core: Any, m: int) -> None:
    keys = ["big_blind", "posts", "seat_map", "small_blind", "state"]
    if not isinstance(hd, dict) or sorted(hd) != keys:
        raise SchemaError(f"hand must be null or hold {keys}")
    smap = hd["seat_map"]
    # the blinds and posts the table dealt the hand with: the hand's own document does
    # not always tell them apart (state_io.from_dict), and they are checked below
    forced = _forced_options(hd, smap)
    hand = state_io.from_dict(Hand, hd["state"], core, forced)
    n = hand.n_players
    if (
        not isinstance(smap, list)
        or len(smap) != n
        or any(type(s) is not int or not 0 <= s < m for s in smap)
        or smap != sorted(set(smap))
    ):
        raise SchemaError(f"hand.seat_map must list the {n} hand seats' table seats in order")
    sb, bb = hd["small_blind"], hd["big_blind"]
    hsb, hbb = hand.small_blind_seat, hand.big_blind_seat
    if sb != (None if hsb is None else smap[hsb]) or bb != smap[hbb]:
        raise SchemaError("hand.small_blind/big_blind do not match the hand's blinds")
    posts: dict[int, tuple[int, int]] = {}
    if not isinstance(hd["posts"], list):
        raise SchemaError("hand.posts must be a list of [seat, live, dead]")
    for p in hd["posts"]:
        if not isinstance(p, list) or len(p) != 3 or p[0] not in smap or p[0] in posts:
            raise SchemaError("hand.posts must be a list of [seat, live, dead] of dealt seats")
        posts[p[0]] = (_int(p[1], "hand.posts live", 0), _int(p[2], "hand.posts dead", 0))
    if t._last is None or (t._last[2] != bb):
        raise SchemaError("last_blinds must hold the current hand's big blind")
    _check_hand_agrees(t, hand, smap, sb, posts, m)
    over = hand.is_over
    # a finished hand is settled: its players may have left, rebought or sat out since,
    # and others may have sat down; while it runs its players' chips are in it
    for i, s in enumerate(smap if not over else ()):
        if t._seats[s] != hand.starting_stacks[i]:
            raise SchemaError(f"seats[{s}] does not hold the chips of hand seat {i}")
        if t._status[s] != "active":
            raise SchemaError(f"seats[{s}] is in the hand, so its player is active")
    t.hand, t._map, t._sb, t._bb, t._posts = hand, tuple(smap), sb, bb, posts
    t._settled = over
