"""One hand of Triple Draw as a state machine: forced bets, deal, four betting rounds,
three draws, showdown and payout (README: *The rules triple_draw implements*).

The state is kept as plain lists indexed by seat (stacks, round bets, totals, cards as
int ids) so that the hot path - ``check_or_call``, ``bet_or_raise``, ``fold``,
``discard`` - is a handful of list operations. Every action is fully validated before
anything changes, so an :class:`~triple_draw.errors.IllegalActionError` leaves the hand
exactly as it was. The draw and showdown logic live in the mixins of ``drawing.py`` and
``showdown.py``; persistence and views in ``state_io.py`` and ``view.py``.

Seats are ``0 .. n-1`` in clockwise order. Heads-up the button posts the small blind.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import combinations
from operator import attrgetter
from typing import Any

from triple_draw.errors import ArgumentError, CardError, IllegalActionError
from triple_draw.game import core as _coremod
from triple_draw.game.actions import Action, make_action
from triple_draw.game.cards import CARD_TEXT, to_ids
from triple_draw.game.drawing import DrawMixin
from triple_draw.game.events import Event, expand_log, to_event
from triple_draw.game.phase import BET, DRAW, OVER, PHASES
from triple_draw.game.rules import UNCAPPED, Rules
from triple_draw.game.showdown import ShowdownMixin
from triple_draw.game.state_io import StateMixin
from triple_draw.game.view import ViewMixin

__all__ = ["Hand", "BET", "DRAW", "OVER", "PHASES"]


#: _CW[n][button]: the seats clockwise starting left of the button
_CW = [
    [tuple((button + 1 + k) % n for k in range(n)) for button in range(n)] if n else []
    for n in range(10)
]


class Hand(DrawMixin, ShowdownMixin, StateMixin, ViewMixin):
    """A hand of Deuce-to-Seven Triple Draw.

    ``Hand(rules, stacks, button=0, seed=None, *, hole_cards=None, deck=None, core=None,
    withhold=None)``

    - ``stacks``: chips of seats ``0..n-1`` (clockwise), ints > 0, ``2 <= n <= max_players``.
    - ``seed``: int seed of the deck (``None``: OS entropy).
    - ``hole_cards``: optional per-seat given cards for replays and tests: a list of ``n``
      entries, each ``None`` (all random) or five cards (text like ``"7h5d??3s2c"``, ids,
      Card objects; ``None``/``"??"`` = dealt at random from what is left). Each given
      card must be in the deck, else :class:`CardError`.
    - ``deck``: a ready deck of the chosen core (e.g. ``Deck.stacked(order, seed)``) to
      deal from instead of ``Deck(seed)``; cards missing from it count as out of play.
    - ``core``: ``"compiled"``, ``"reference"`` or a module with ``Deck``/``rank_ids``
      (default: the compiled core).
    - ``withhold``: cards a replay will deal later as given cards (``discard(...,
      receive=...)``): cards of the stub that a random deal takes only once the rest of
      the stub is used up.
    - ``no_small_blind``: nobody posts the small blind this hand (the player who owed it
      has left: a dead small blind under the dead-button rule); the first seat left of
      the button posts the big blind and :attr:`small_blind_seat` is ``None``. 3+ players.
    - ``posts``: extra forced bets of players coming into the game, ``{seat: (live,
      dead)}`` (not the blinds' seats): ``live`` chips (``0 <= live <= big_blind``) are
      the seat's bet of round 1, as a big blind is (the seat still acts in turn and may
      check or raise); ``dead`` chips go into the pot without counting as a bet, like an
      ante. A short stack posts what it has (live first). They appear in the history as
      ``post_big_blind`` and ``post_ante`` events after the blinds. :class:`Table` uses
      both for the card room's rules between hands.

    Drive it with :meth:`apply` or :meth:`fold`, :meth:`check_or_call`,
    :meth:`bet_or_raise`, :meth:`discard` while :attr:`actor` is not ``None``.

    >>> from triple_draw import Rules
    >>> h = Hand(Rules(), [100, 100, 100], seed=1)
    >>> h.actor, h.phase, h.to_call
    (0, 'bet', 2)
    """

    __slots__ = (
        "_active",
        "_actor",
        "_bb",
        "_bet",
        "_button",
        "_c",
        "_core",
        "_cw",
        "_deck",
        "_declared",
        "_draw_order",
        "_draw_pos",
        "_full",
        "_hands",
        "_in_draw",
        "_last_aggr",
        "_level",
        "_live",
        "_log",
        "_maxbets",
        "_n",
        "_n_active",
        "_n_live",
        "_nbets",
        "_need",
        "_out",
        "_phase",
        "_pots",
        "_reserved",
        "_result",
        "_returned",
        "_sb",
        "_showdown",
        "_stacks",
        "_start",
        "_street",
        "_stub_n",
        "_todo",
        "_total",
        "_unit",
        "_withheld",
        "rules",
    )

    def __init__(
        self,
        rules: Rules,
        stacks: Sequence[int],
        button: int = 0,
        seed: int | None = None,
        *,
        hole_cards: Sequence[Any] | None = None,
        deck: Any = None,
        core: Any = None,
        withhold: Any = None,
        no_small_blind: bool = False,
        posts: Mapping[int, tuple[int, int]] | None = None,
    ) -> None:
        if type(rules) is not Rules:
            raise TypeError(f"rules must be a Rules, got {type(rules).__name__}")
        c = rules._c
        n = len(stacks)
        if not 2 <= n <= rules.max_players:
            raise ArgumentError(f"stacks: a hand needs 2..{rules.max_players} players, got {n}")
        for x in stacks:
            if type(x) is not int or x <= 0:
                raise ArgumentError(f"stacks: every stack must be an int > 0, got {x!r}")
        if type(button) is not int or not 0 <= button < n:
            raise ArgumentError(f"button must be a seat 0..{n - 1}, got {button!r}")
        if core is None:
            core = _coremod._default or _coremod.default_core()
        else:
            core = _coremod.resolve_core(core)
        self.rules = rules
        self._c = c
        self._core = core
        self._n = n
        self._button = button
        sb: int | None
        if n == 2:
            sb = button
            bb = 1 - button
        else:
            sb = button + 1
            if sb >= n:
                sb -= n
            bb = sb + 1
            if bb >= n:
                bb -= n
        extra: list[tuple[int, int, int]] = []
        if no_small_blind or posts:
            sb, bb, extra = _forced_bets(n, button, no_small_blind, posts, rules)
        first = bb if sb is None else sb  # the deal starts left of the button
        self._sb = sb
        self._bb = bb
        self._start = tuple(stacks)
        st = list(stacks)
        bet = [0] * n
        log: list[tuple[Any, ...]] = []
        ante = rules.ante
        if ante:
            total = [0] * n
            for p in range(n):
                s = (first + p) % n
                a = ante if st[s] > ante else st[s]
                st[s] -= a
                total[s] = a
                log.append(("post_ante", s, a, None))
        x = rules.small_blind
        if x and sb is not None:
            if x > st[sb]:  # a short blind posts what he has and is all-in
                x = st[sb]
            st[sb] -= x
            bet[sb] = x
            log.append(("post_small_blind", sb, x, None))
        x = rules.big_blind
        if x > st[bb]:
            x = st[bb]
        if x:
            st[bb] -= x
            bet[bb] = x
            log.append(("post_big_blind", bb, x, None))
        if ante:
            if sb is not None:
                total[sb] += bet[sb]
            total[bb] += bet[bb]
        else:
            total = bet[:]
        for s, live, dead in extra:
            for x, kind in ((live, "post_big_blind"), (dead, "post_ante")):
                x = x if x < st[s] else st[s]
                if x:
                    st[s] -= x
                    total[s] += x
                    if kind == "post_big_blind":
                        bet[s] = x
                    log.append((kind, s, x, None))
        self._stacks = st
        self._bet = bet
        self._total = total
        self._live = [True] * n
        self._n_live = n
        self._out: list[int] = []
        self._reserved: list[list[int | None] | None] | None = None
        self._withheld: list[int] | None = None
        if deck is None and hole_cards is None and withhold is None:
            d = core.Deck(seed)
            ids = d.deal_ids(5 * n)
            hands: list[list[int]] = [ids] * n
            p = 0
            for s in range(first, n):
                hands[s] = ids[p::n]
                p += 1
            for s in range(first):
                hands[s] = ids[p::n]
                p += 1
            log.append(("deal_all", -1, None, ids))
            self._deck = d
            self._stub_n = 52 - 5 * n
            self._hands = hands
        else:
            self._deal_given(seed, hole_cards, deck, log, withhold)
        self._declared: list[tuple[int, tuple[int, ...]]] = []
        self._need = 0
        self._draw_order: list[int] = []
        self._draw_pos = 0
        self._log = log
        self._returned: tuple[int, int] | None = None
        self._pots: list[tuple[Any, ...]] | None = None
        self._showdown: list[tuple[int, bool]] | None = None
        self._result = None
        # round 1: the big blind is the bet (its full size, even if posted short)
        self._phase = BET
        self._in_draw = False
        self._street = 0
        self._unit = c[0][0]
        self._level = rules.big_blind
        if c[7]:
            self._full = rules.big_blind
            self._nbets = 1 if c[8] else 0
        else:
            self._full = 0
            self._nbets = 0
        self._maxbets = UNCAPPED if (c[6] and n == 2) else c[1]
        # _active[j]: 2 if seat j can still bet (in the hand, chips behind), else 0.
        # _todo[j]: 0 nothing to do this round, 1 must act (call or fold only),
        # 2 must act and may raise (has not acted since the last full bet or raise).
        if 0 in st:
            active = [2 if v else 0 for v in st]
            na = n - active.count(0)
        else:
            active = [2] * n
            na = n
        self._active = active
        self._todo = active[:]
        self._n_active = na
        self._cw = _CW[n][button]
        self._last_aggr = -1
        log.append(("begin_round", -1, 0, None))
        if na == n:  # nobody all-in from the blinds: first left of the big blind acts
            self._actor = bb + 1 if bb + 1 < n else 0
        else:
            a = self._seek(bb + 1 if bb + 1 < n else 0)
            if a < 0:
                self._actor = None
                self._end_round()
            else:
                self._actor = a

    # -- dealing given cards (replays, tests): the slow, general path -------------------

    def _deal_given(
        self, seed: Any, hole_cards: Any, deck: Any, log: list[Any], withhold: Any
    ) -> None:
        n = self._n
        core = self._core
        if deck is None:
            deck = core.Deck(seed)
        else:
            if seed is not None:
                raise ArgumentError("give either seed or deck, not both")
            if not hasattr(deck, "deal_ids") or not hasattr(deck, "get_state"):
                raise TypeError(f"deck must be a Deck, got {type(deck).__name__}")
            deck = deck.copy()
        given: list[list[int | None]] = [[None] * 5 for _ in range(n)]
        seen: set[int] = set()
        if hole_cards is not None:
            if len(hole_cards) != n:
                raise CardError(
                    f"hole_cards: expected {n} entries (one per seat), got {len(hole_cards)}"
                )
            from triple_draw.game.cards import to_maybe_ids

            for s, cards in enumerate(hole_cards):
                if cards is None:
                    continue
                ids = to_maybe_ids(cards)
                if len(ids) != 5:
                    raise CardError(f"hole_cards[{s}]: expected 5 cards, got {len(ids)}")
                for cid in ids:
                    if cid is not None:
                        if cid in seen:
                            raise CardError(f"hole_cards[{s}]: duplicate card {CARD_TEXT[cid]}")
                        seen.add(cid)
                given[s] = ids
        held_back: list[int] = []
        if withhold is not None:
            for cid in to_ids(withhold):
                if cid in seen:
                    raise CardError(f"withhold: card {CARD_TEXT[cid]} is also a given hole card")
                if cid not in held_back:
                    held_back.append(cid)
        remove = seen | set(held_back)
        if remove:
            stub = deck.stub_ids()
            stub_set = set(stub)
            for cid in remove:
                if cid not in stub_set:
                    raise CardError(f"card {CARD_TEXT[cid]} is not available in the deck")
            state = deck.get_state()
            state["stub"] = [cid for cid in stub if cid not in remove]
            deck = type(deck).from_state(state)
        if held_back:
            self._withheld = held_back
        need = sum(v is None for g in given for v in g)
        if need > len(deck):
            raise CardError(f"the deck holds {len(deck)} cards, {need} more needed for the deal")
        rnd = iter(deck.deal_ids(need))
        hands: list[list[int]] = [[] for _ in range(n)]
        order = self._deal_order()
        deal: list[int] = []
        for k in range(5):
            for s in order:
                v = given[s][k]
                cid = next(rnd) if v is None else v
                hands[s].append(cid)
        for k in range(5):
            for s in order:
                deal.append(hands[s][k])
        log.append(("deal_all", -1, None, tuple(deal)))
        stub_ids = deck.stub_ids()
        held = {cid for h in hands for cid in h}
        stub_set = set(stub_ids)
        # cards that a supplied (stacked) deck lacks are out of play: they join the
        # reshuffle pool, so the 52 cards stay partitioned
        held.update(held_back)
        self._out.extend(cid for cid in range(52) if cid not in held and cid not in stub_set)
        self._deck = deck
        self._stub_n = len(stub_ids)
        self._hands = hands

    # -- queries -------------------------------------------------------------------------

    @property
    def n_players(self) -> int:
        return self._n

    @property
    def button(self) -> int:
        return self._button

    @property
    def small_blind_seat(self) -> int | None:
        """The seat that posts the small blind (``None`` in a hand with ``no_small_blind``)."""
        return self._sb

    @property
    def big_blind_seat(self) -> int:
        return self._bb

    _actor: Any  # int while somebody must act, None once the hand is over

    actor = property(
        attrgetter("_actor"),
        doc="The seat whose decision it is, or ``None`` once the hand is over.",
    )

    @property
    def phase(self) -> str:
        """``"bet"``, ``"draw"`` or ``"over"``."""
        return PHASES[self._phase]

    in_draw = property(attrgetter("_in_draw"), doc="True while the actor must discard.")

    @property
    def is_over(self) -> bool:
        return self._phase == OVER

    @property
    def street(self) -> int:
        """Betting round 0..3 while betting; during a draw, the draw's index 0..2 (the
        draw after betting round ``street``)."""
        return self._street

    @property
    def stacks(self) -> tuple[int, ...]:
        """Chips behind of every seat (final stacks once the hand is over)."""
        return tuple(self._stacks)

    @property
    def starting_stacks(self) -> tuple[int, ...]:
        return self._start

    @property
    def bets(self) -> tuple[int, ...]:
        """Each seat's chips in the current betting round (blinds included in round 0)."""
        return tuple(self._bet)

    @property
    def committed(self) -> tuple[int, ...]:
        """Each seat's chips put in this hand (antes, blinds, bets)."""
        return tuple(self._total)

    @property
    def pot(self) -> int:
        return sum(self._total)

    @property
    def folded(self) -> tuple[bool, ...]:
        return tuple(not v for v in self._live)

    @property
    def in_hand(self) -> tuple[int, ...]:
        """Seats that have not folded."""
        return tuple(s for s in range(self._n) if self._live[s])

    @property
    def all_in(self) -> tuple[bool, ...]:
        return tuple(v and x == 0 for v, x in zip(self._live, self._stacks, strict=True))

    @property
    def bet_level(self) -> int:
        """The amount to match in the current betting round (0 during draws)."""
        return self._level if self._phase == BET else 0

    @property
    def raises(self) -> int:
        """Full bets and raises made in the current round (the big blind counts when
        :attr:`Rules.big_blind_is_bet`)."""
        return self._nbets

    @property
    def facing_bet(self) -> bool:
        """True when the actor must call (or fold/raise) rather than check."""
        if self._phase:
            return False
        s: int = self._actor
        return self._level > self._bet[s]

    @property
    def to_call(self) -> int:
        """Chips the actor needs to call (capped by his stack); 0 if none or not betting."""
        if self._phase:
            return 0
        s: int = self._actor
        owe = self._level - self._bet[s]
        x = self._stacks[s]
        return owe if owe < x else x

    def can_bet_or_raise(self) -> bool:
        """Whether the actor may bet or raise now (cap, reopening, chips, opponents)."""
        if self._phase:
            return False
        s: int = self._actor
        return (
            self._todo[s] == 2
            and self._nbets < self._maxbets
            and self._stacks[s] > self._level - self._bet[s]
            and self._n_active > 1
        )

    def bet_or_raise_amount(self) -> int | None:
        """The round total a bet or raise by the actor would reach, or ``None``."""
        if not self.can_bet_or_raise():
            return None
        s: int = self._actor
        target = self._full + self._unit
        cap = self._bet[s] + self._stacks[s]
        return target if target < cap else cap

    def hole_ids(self, seat: int) -> tuple[int, ...]:
        """The seat's current cards as ids (for a folded seat, the cards he folded)."""
        return tuple(self._hands[seat])

    def hole_cards(self, seat: int) -> tuple[Any, ...]:
        """The seat's current cards as ``Card`` objects (engine-level, not a player view)."""
        card = self._core.Card
        return tuple(card(c) for c in self._hands[seat])

    def hole_text(self, seat: int) -> tuple[str, ...]:
        return tuple(CARD_TEXT[c] for c in self._hands[seat])

    def draws(self, seat: int) -> tuple[int, ...]:
        """How many cards the seat drew at each draw so far (public information)."""
        return tuple(len(e[3]) for e in self._log if e[0] == "discard" and e[1] == seat)

    def discards(self, seat: int) -> tuple[int, ...]:
        """Every card id the seat has discarded this hand (engine-level, private)."""
        return tuple(c for e in self._log if e[0] == "discard" and e[1] == seat for c in e[3])

    @property
    def history(self) -> tuple[Event, ...]:
        """Every event so far as immutable :class:`Event` records (omniscient)."""
        return tuple(to_event(e) for e in expand_log(self._log, self._deal_order()))

    def _deal_order(self) -> list[int]:
        first = self._bb if self._sb is None else self._sb
        return [(first + p) % self._n for p in range(self._n)]

    # -- legal actions ---------------------------------------------------------------------

    def legal_actions(self) -> list[Action]:
        """Every legal action of the actor, fully specified (amounts, cards).

        Betting: ``fold`` (allowed even when a check is possible), ``check`` or
        ``call``, and ``bet``/``raise`` when allowed. Draw: the 32 discard choices of the
        actor's five cards (standing pat first). Over: ``[]``."""
        ph = self._phase
        if ph == OVER:
            return []
        s = self._actor
        if ph == DRAW:
            held = sorted(self._hands[s])
            return [
                make_action("discard", None, combo)
                for k in range(len(held) + 1)
                for combo in combinations(held, k)
            ]
        out = [make_action("fold")]
        owe = self._level - self._bet[s]
        if owe > 0:
            x = self._stacks[s]
            out.append(make_action("call", self._bet[s] + (owe if owe < x else x)))
        else:
            out.append(make_action("check"))
        amount = self.bet_or_raise_amount()
        if amount is not None:
            out.append(make_action("bet" if self._level == 0 else "raise", amount))
        return out

    # -- applying actions -------------------------------------------------------------------

    def apply(self, action: Action, seat: int | None = None) -> None:
        """Apply ``action`` for the actor (``seat``, if given, must be the actor).

        Raises :class:`IllegalActionError` saying what was wrong; the hand is unchanged."""
        if type(action) is not Action:
            raise IllegalActionError(f"not an Action: {action!r}")
        if seat is not None and seat != self.actor:
            if self._phase == OVER:
                raise IllegalActionError(f"seat {seat} cannot act: the hand is over")
            raise IllegalActionError(
                f"out of turn: seat {seat} tried to act but the actor is seat {self._actor}"
            )
        kind = action.kind
        if kind == "discard":
            self.discard(action.cards)
            return
        if self._phase != BET:
            raise self._not_betting(kind)
        s = self._actor
        owe = self._level - self._bet[s]
        if kind == "fold":
            self.fold()
        elif kind == "check":
            if owe > 0:
                raise IllegalActionError(
                    f"seat {s} cannot check: facing a bet of {self._level} ({self.to_call} to call)"
                )
            self.check_or_call()
        elif kind == "call":
            if owe <= 0:
                raise IllegalActionError(
                    f"seat {s} cannot call: there is nothing to call (check instead)"
                )
            want = self._bet[s] + self.to_call
            if action.amount is not None and action.amount != want:
                raise IllegalActionError(f"seat {s} calls to {want}, not {action.amount}")
            self.check_or_call()
        else:  # bet / raise
            if kind == "bet" and self._level > 0:
                raise IllegalActionError(
                    f"seat {s} cannot bet: there is already a bet of {self._level} (raise instead)"
                )
            if kind == "raise" and self._level == 0:
                raise IllegalActionError(
                    f"seat {s} cannot raise: there is no bet this round (bet instead)"
                )
            why = self._why_no_raise(s)
            if why:
                raise IllegalActionError(why)
            target = self._full + self._unit
            cap = self._bet[s] + self._stacks[s]
            want = target if target < cap else cap
            if action.amount is not None and action.amount != want:
                raise IllegalActionError(
                    f"seat {s} can only {kind} to exactly {want} (fixed limit), not {action.amount}"
                )
            self.bet_or_raise()

    def _not_betting(self, what: str) -> IllegalActionError:
        if self._phase == OVER:
            return IllegalActionError(f"cannot {what}: the hand is over")
        return IllegalActionError(
            f"cannot {what}: seat {self._actor} must discard or stand pat (draw {self._street + 1})"
        )

    def _why_no_raise(self, s: int) -> str:
        verb = "bet" if self._level == 0 else "raise"
        if self._nbets >= self._maxbets:
            over = "the big blind" if self._street == 0 and not self._c[8] else "the bet"
            raises = self._maxbets - (1 if over == "the bet" else 0)
            return (
                f"seat {s} cannot {verb}: the betting is capped "
                f"({raises} raises over {over}) this round"
            )
        if self._todo[s] != 2:
            return (
                f"seat {s} cannot {verb}: the betting was not reopened by the short all-in "
                "(he may only call or fold)"
            )
        if self._stacks[s] <= self._level - self._bet[s]:
            return f"seat {s} cannot {verb}: his {self._stacks[s]} chips do not exceed the call"
        if self._n_active < 2:
            return f"seat {s} cannot {verb}: every other player is all-in"
        return ""

    def fold(self) -> None:
        """The actor folds (allowed even when he could check)."""
        if self._phase:
            raise self._not_betting("fold")
        s = self._actor
        self._live[s] = False
        self._active[s] = 0
        self._n_live -= 1
        self._n_active -= 1
        pending = self._todo
        pending[s] = 0
        self._out.extend(self._hands[s])
        self._log.append(("fold", s, None, None))
        if self._n_live == 1:
            self._finish()
            return
        self._next_actor(s)

    def check_or_call(self) -> None:
        """The actor checks, or calls (all-in for less if short)."""
        if self._phase:
            raise self._not_betting("check or call")
        s = self._actor
        bet = self._bet
        level = self._level
        owe = level - bet[s]
        if owe > 0:
            st = self._stacks
            x = st[s]
            if owe >= x:
                owe = x
                self._n_active -= 1
                self._active[s] = 0
            st[s] = x - owe
            bet[s] += owe
            self._total[s] += owe
            self._log.append(("call", s, bet[s], None))
        else:
            self._log.append(("check", s, None, None))
        self._todo[s] = 0
        self._next_actor(s)

    def bet_or_raise(self) -> None:
        """The actor bets or raises one unit above the last full bet/raise (all-in for
        less if short; whether that reopens the betting: README *All-in for less*)."""
        if self._phase:
            raise self._not_betting("bet or raise")
        s = self._actor
        bet = self._bet
        st = self._stacks
        level = self._level
        x = st[s]
        if not (
            self._todo[s] == 2
            and self._nbets < self._maxbets
            and x > level - bet[s]
            and self._n_active > 1
        ):
            raise IllegalActionError(self._why_no_raise(s))
        unit = self._unit
        full = self._full
        put = full + unit - bet[s]
        if put >= x:
            put = x
            self._n_active -= 1
            self._active[s] = 0
        st[s] = x - put
        new = bet[s] + put
        bet[s] = new
        self._total[s] += put
        raised = new - full
        n = self._n
        if raised >= unit or (self._c[2] and 2 * raised >= unit):
            # a full bet or raise: it reopens the betting and counts toward the cap
            self._full = new
            self._nbets += 1
            pending = self._active[:]
            pending[s] = 0
            self._todo = pending
        else:
            # a short all-in: the others must answer it, but only those who have not
            # acted since the last full bet may raise
            pending = self._todo
            active = self._active
            for j in range(n):
                if active[j] and bet[j] < new and not pending[j]:
                    pending[j] = 1
            pending[s] = 0
        self._level = new
        self._last_aggr = s
        self._log.append(("bet" if level == 0 else "raise", s, new, None))
        self._next_actor(s)

    # -- round flow ------------------------------------------------------------------------

    def _next_actor(self, s: int) -> None:
        """After seat ``s`` acted: hand the action to the next seat that must act, or end
        the betting round."""
        a = self._seek(s + 1 if s + 1 < self._n else 0)
        if a >= 0:
            self._actor = a
        else:
            self._end_round()

    def _seek(self, j: int) -> int:
        """The first seat from ``j`` clockwise that must act in this betting round, or -1.

        A lone player who can still bet is not asked to act unless he faces a bet."""
        pending = self._todo
        n = self._n
        for _ in range(n):
            if pending[j]:
                if self._n_active > 1 or self._bet[j] < self._level:
                    return j
                return -1
            j += 1
            if j == n:
                j = 0
        return -1

    def _end_round(self) -> None:
        self._actor = None
        if self._street == 3:
            self._finish()
        else:
            self._start_draw()

    def _start_round(self, r: int) -> None:
        n = self._n
        self._phase = BET
        self._in_draw = False
        self._street = r
        self._unit = self._c[0][r]
        self._bet = [0] * n
        self._level = 0
        self._full = 0
        self._nbets = 0
        self._maxbets = UNCAPPED if (self._c[6] and self._n_live == 2) else self._c[1]
        active = self._active
        self._todo = active[:]
        self._last_aggr = -1
        self._log.append(("begin_round", -1, r, None))
        if self._n_active < 2:
            self._end_round()
            return
        for j in self._cw:
            if active[j]:
                self._actor = j
                return

    # -- misc --------------------------------------------------------------------------------

    def __repr__(self) -> str:
        return (
            f"<Hand {self._n} players, {PHASES[self._phase]} {self._street}, actor={self.actor}, "
            f"pot={self.pot}, stacks={list(self._stacks)}>"
        )

    def _card_partition(self) -> dict[str, list[int]]:
        """Where all 52 cards are: ``hands`` (seats still in), ``stub`` (the deck, then
        any withheld cards of a replay), ``out_of_play`` (folded hands, discards, declared
        discards awaiting replacement). Given cards reserved for a declared player stay
        where they are until dealt. For tests: the three lists always partition
        ``range(52)``."""
        hands = [c for s in range(self._n) if self._live[s] for c in self._hands[s]]
        out = list(self._out)
        for _j, t in self._declared:
            out.extend(t)
        stub = list(self._deck.stub_ids())
        stub.extend(self._withheld or ())
        return {"hands": hands, "stub": stub, "out_of_play": out}


def _forced_bets(
    n: int, button: int, no_small_blind: Any, posts: Any, rules: Rules
) -> tuple[int | None, int, list[tuple[int, int, int]]]:
    """Blind seats and extra posts of a hand built with ``no_small_blind``/``posts``."""
    if type(no_small_blind) is not bool:
        raise ArgumentError(f"no_small_blind must be a bool, got {no_small_blind!r}")
    sb: int | None = button if n == 2 else (button + 1) % n
    bb = 1 - button if n == 2 else (button + 2) % n
    if no_small_blind:
        if n == 2:
            raise ArgumentError("no_small_blind: heads-up the button always posts the small blind")
        sb, bb = None, (button + 1) % n
    extra: list[tuple[int, int, int]] = []
    if posts is not None:
        if not isinstance(posts, Mapping):
            raise ArgumentError(f"posts must be a dict {{seat: (live, dead)}}, got {posts!r}")
        for s, v in posts.items():
            if type(s) is not int or not 0 <= s < n or s in (sb, bb):
                raise ArgumentError(
                    f"posts: {s!r} is not a seat 0..{n - 1} other than the blinds' seats"
                )
            if (
                not isinstance(v, (tuple, list))
                or len(v) != 2
                or any(type(x) is not int for x in v)
                or not 0 <= v[0] <= rules.big_blind
                or v[1] < 0
                or v[0] + v[1] == 0
            ):
                raise ArgumentError(
                    f"posts[{s}] must be (live, dead) chips with 0 <= live <= "
                    f"{rules.big_blind}, dead >= 0 and something posted, got {v!r}"
                )
            extra.append((s, v[0], v[1]))
        extra.sort(key=lambda e: (e[0] - bb) % n)  # clockwise from the big blind
    return sb, bb, extra
