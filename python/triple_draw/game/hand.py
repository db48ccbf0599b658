"""One hand of Triple Draw as a state machine: forced bets, deal, four betting rounds,
three draws, showdown and payout (docs/rules.md).

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
from operator import attrgetter
from typing import Any

from triple_draw.errors import (
    ArgumentError,
    ArgumentTypeError,
    CardError,
    IllegalActionError,
    UnknownCardsError,
)
from triple_draw.game import core as _coremod
from triple_draw.game import drawing, state_io
from triple_draw.game.events import (
    CALL,
    CHECK,
    DEAL,
    DISCARD,
    FOLD,
    POST_ANTE,
    POST_BIG_BLIND,
    POST_SMALL_BLIND,
    RAISE,
)
from triple_draw.game.events import BET as BET_KIND
from triple_draw.game.actions import Action
from triple_draw.game.betting import legal_actions as _legal_actions
from triple_draw.game.betting import (
    close_raises,
    end_round,
    next_actor,
    raise_refusal,
    raise_target,
    seek,
    start_round,
)
from triple_draw.game.cards import CARD_TEXT, UNKNOWN, to_ids, to_record_ids
from triple_draw.game.events import CHECKS, COUNTS, FOLDS, ROUND_BEGINS, Event, LogEntry, to_event
from triple_draw.game.phase import (
    BET,
    CALL_ONLY,
    CLOCKWISE,
    CLOSED,
    DONE,
    DRAW,
    MAY_RAISE,
    OVER,
    PHASES,
    SHOWDOWN,
)
from triple_draw.game.record import RecordStub, outside_deck, with_named
from triple_draw.game.rules import MAX_CHIPS, UNCAPPED, Rules
from triple_draw.game.showdown import finish, hand_result, muck_at_showdown, show_at_showdown
from triple_draw.game.state import FIELDS, HandState
from triple_draw.game.view import ViewCache

__all__ = ["Hand", "BET", "DRAW", "OVER", "SHOWDOWN", "PHASES"]


#: _CW[n][button]: the seats clockwise starting left of the button
_CW = [tuple(table[(button + 1) % n] for button in range(n)) for n, table in enumerate(CLOCKWISE)]


#: _BLINDS[n][button]: the seats of the small and the big blind (heads-up the button posts
#: the small blind)
_BLINDS = [
    [((b, 1 - b) if n == 2 else ((b + 1) % n, (b + 2) % n)) for b in range(n)] for n in range(10)
]


#: _DEAL[n][first]: ``(seat, slice)`` in dealing order: seat gets cards p, p + n, ... of
#: the deal (p = 0 for ``first``)
_DEAL = [
    [tuple(((sb + p) % n, slice(p, None, n)) for p in range(n)) for sb in range(n)] if n else []
    for n in range(10)
]


class Hand(HandState):
    """A hand of Deuce-to-Seven Triple Draw.

    ``Hand(rules, stacks, button=0, seed=None, *, hole_cards=None, deck=None, core=None,
    withhold=None, no_small_blind=False, posts=None)``

    - ``stacks``: chips of seats ``0..n-1`` (clockwise), ints > 0, ``2 <= n <= max_players``.
    - ``seed``: int seed of the deck (``None``: OS entropy).
    - ``hole_cards``: optional per-seat given cards for replays and tests: a list of ``n``
      entries, each ``None`` (all random) or five cards (``hand_size`` in a reduced game;
      text like ``"7h5d??3s2c"``, ids, Card objects; ``None``/``"??"`` = dealt at random
      from what is left). Each given card must be in the deck, else :class:`CardError`.
    - ``deck``: a ready deck of the chosen core (e.g. ``Deck.stacked(order, seed)``) to
      deal from instead of ``Deck(seed)``; cards missing from it count as out of play.
    - ``core``: ``"compiled"``, ``"reference"`` or an object with the
      :class:`~triple_draw.game.core.Core` interface (default: the default core).
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
    - ``record``: the hand is replayed from a record that shows only some cards (a site's
      hand history, a player's view): nothing is dealt at random, and every card not
      given - in ``hole_cards``, in ``discard(..., receive=...)``, at the showdown - is
      unknown (``??``, :data:`~triple_draw.game.cards.UNKNOWN`). Known cards are checked
      wherever they appear (``record.py``); the players show or muck in turn at the
      showdown (:meth:`show`, :meth:`muck`). docs/engine.md, *Records with unknown cards*.
    - ``rake``: with ``record``, the chips the record says the house took (``None``: the
      rake of ``rules``).

    Drive it with :meth:`apply` or :meth:`fold`, :meth:`check_or_call`,
    :meth:`bet_or_raise`, :meth:`discard` while :attr:`actor` is not ``None``.

    >>> from triple_draw import Rules
    >>> h = Hand(Rules(), [100, 100, 100], seed=1)
    >>> h.actor, h.phase, h.to_call
    (0, 'bet', 2)
    """

    # The fields are HandState's (declared once there); the view cache and the betting
    # actions last listed are the only other slots. They are left unset until the first
    # view() or legal_actions(): copy() and from_dict() set exactly HandState's fields, so a
    # copy or a restored hand never shares them.
    __slots__ = (*FIELDS, "_view_cache", "_legal")
    _view_cache: ViewCache

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
        record: bool = False,
        rake: int | None = None,
    ) -> None:
        if type(rules) is not Rules:
            raise ArgumentTypeError(f"rules must be a Rules, got {type(rules).__name__}")
        rc = rules.compiled
        try:
            n = len(stacks)
        except TypeError:
            raise ArgumentTypeError(f"stacks must be a list of ints, got {stacks!r}") from None
        if not 2 <= n <= rules.max_players:
            raise ArgumentError(f"stacks: a hand needs 2..{rules.max_players} players, got {n}")
        for x in stacks:
            if type(x) is not int or not 0 < x <= MAX_CHIPS:
                raise ArgumentError(
                    f"stacks: every stack must be an int > 0 and at most {MAX_CHIPS}, got {x!r}"
                )
        if type(button) is not int or not 0 <= button < n:
            raise ArgumentError(f"button must be a seat 0..{n - 1}, got {button!r}")
        if seed is not None and type(seed) is not int:
            raise ArgumentTypeError(f"seed must be an int or None, got {seed!r}")
        if record is not False:
            _check_record(record, rake, seed, deck, withhold)
        elif rake is not None:
            raise ArgumentError("rake= is the rake a record took: it needs record=True")
        core = _coremod.resolve_core(core)
        self.rules = rules
        self._rc = rc
        self._core = core
        self._n = n
        self._button = button
        # the forced bets: the blinds, then any posts of players coming into the game
        sb: int | None
        if no_small_blind is False and posts is None:
            sb, bb = _BLINDS[n][button]
            extra: tuple[tuple[int, int, int], ...] = ()
        else:
            sb, bb, extra = _forced_bets(n, button, no_small_blind, posts, rules)
        first = bb if sb is None else sb  # the first seat dealt and the first to post an ante
        self._sb = sb
        self._bb = bb
        self._start = tuple(stacks)
        st = list(stacks)
        bet = [0] * n
        log: list[LogEntry] = []
        ante = rules.ante
        if ante:
            total = [0] * n
            for p in range(n):
                s = (first + p) % n
                a = ante if st[s] > ante else st[s]
                st[s] -= a
                total[s] = a
                log.append((POST_ANTE, s, a, None))
        x = rules.small_blind
        if sb is not None:
            if x > st[sb]:  # a short blind posts what he has and is all-in
                x = st[sb]
            if x:
                st[sb] -= x
                bet[sb] = x
                log.append((POST_SMALL_BLIND, sb, x, None))
        x = rules.big_blind
        if x > st[bb]:
            x = st[bb]
        if x:
            st[bb] -= x
            bet[bb] = x
            log.append((POST_BIG_BLIND, bb, x, None))
        if ante:
            if sb is not None:
                total[sb] += bet[sb]
            total[bb] += bet[bb]
        else:
            total = bet[:]
        dead_chips: list[int] | None = None
        for s, live, dead in extra:  # live chips are a big blind, dead ones an ante
            x = live if live < st[s] else st[s]
            if x:
                st[s] -= x
                bet[s] = x
                total[s] += x
                log.append((POST_BIG_BLIND, s, x, None))
            x = dead if dead < st[s] else st[s]
            if x:
                st[s] -= x
                total[s] += x
                log.append((POST_ANTE, s, x, None))
                if dead_chips is None:
                    dead_chips = [0] * n
                dead_chips[s] = x
        self._dead = None if dead_chips is None else tuple(dead_chips)
        self._posted = sum(bet)
        self._stacks = st
        self._bet = bet
        self._total = total
        self._live = [True] * n
        self._n_live = n
        self._draws = [()] * n
        self._out = []
        self._reserved = None
        self._withheld = None
        self._reshuffled = False
        if record:
            self._deal_record(hole_cards, log)
        elif deck is None and hole_cards is None and withhold is None and rc.standard_deal:
            d = core.Deck(seed)
            ids = d.deal_ids(5 * n)
            t = tuple(ids)
            hands: list[list[int]] = [ids] * n
            for s, cards in _DEAL[n][first]:  # one card at a time from the first seat
                hands[s] = ids[cards]
                log.append((DEAL, s, None, t[cards]))
            self._deck = d
            self._stub_n = 52 - 5 * n
            self._hands = hands
        else:
            self._deal_given(seed, hole_cards, deck, log, withhold)
        self._declared = []
        self._need = 0
        self._draw_order = []
        self._draw_pos = 0
        self._log = log
        self._returned = None
        self._pots = None
        self._showdown = None
        self._result = None
        self._rake = 0
        self._rake_given = rake
        self._layers = None
        self._sd_order = None
        # round 1: the big blind is the bet (its full size, even if posted short)
        self._phase = BET
        self._in_draw = False
        self._street = 0
        self._unit = rc.units[0]
        self._level = rules.big_blind
        if rc.big_blind_is_full:
            self._full_level = rules.big_blind
            self._full_bets = 1 if rc.big_blind_is_bet else 0
        else:
            self._full_level = 0
            self._full_bets = 0
        self._uncounted = -self._full_bets
        self._max_full_bets = UNCAPPED if (rc.heads_up_uncapped and n == 2) else rc.max_full_bets
        # _active[j]: MAY_RAISE if seat j can still bet (in the hand, chips behind), else
        # DONE; a round starts with _to_act = _active (phase.py: what each seat must do)
        if 0 in st:
            active = [MAY_RAISE if v else DONE for v in st]
            na = n - active.count(DONE)
        else:
            active = [MAY_RAISE] * n
            na = n
        self._active = active
        self._to_act = active[:]
        self._n_active = na
        least = min(st)  # (his stack alone: a bound below his chips plus his blind)
        self._least_reach = least
        if na < 2 or least <= self._level:  # a blind may leave somebody unable to raise
            close_raises(self)
        self._cw = _CW[n][button]
        self._last_aggr = None
        log.append(ROUND_BEGINS[0])
        if na == n:  # nobody all-in from the blinds: first left of the big blind acts
            self._actor = bb + 1 if bb + 1 < n else 0
        else:
            a = seek(self, bb + 1 if bb + 1 < n else 0)
            if a < 0:
                self._actor = None
                end_round(self)
            else:
                self._actor = a

    # -- dealing given cards (replays, tests): the slow, general path -------------------

    def _deal_record(self, hole_cards: Any, log: list[LogEntry]) -> None:
        """A hand replayed from a record: the given cards, every other card unknown, and
        a stub of unknown cards (record.py)."""
        n = self._n
        rc = self._rc
        k = rc.hand_size
        if rc.reduced:
            check_deck_holds(self.rules, n)
        if hole_cards is None:
            hole_cards = [None] * n
        elif isinstance(hole_cards, (str, bytes, dict)) or not hasattr(hole_cards, "__len__"):
            raise CardError(f"hole_cards: expected a list of {n} entries, got {hole_cards!r}")
        if len(hole_cards) != n:
            raise CardError(
                f"hole_cards: expected {n} entries (one per seat), got {len(hole_cards)}"
            )
        hands: list[list[int]] = []
        seen: set[int] = set()
        for s, cards in enumerate(hole_cards):
            if cards is None:  # his cards nobody saw
                hands.append([UNKNOWN] * k)
                continue
            ids = to_record_ids(cards)
            if len(ids) != k:
                raise CardError(f"hole_cards[{s}]: expected {k} cards, got {len(ids)}")
            for cid in ids:
                if cid != UNKNOWN:
                    if cid in seen:
                        raise CardError(f"hole_cards[{s}]: duplicate card {CARD_TEXT[cid]}")
                    if rc.outside and cid in rc.outside:
                        raise CardError(f"hole_cards[{s}]: {_not_in_deck(self.rules, cid)}")
                    seen.add(cid)
            hands.append(ids)
        first = self._bb if self._sb is None else self._sb
        for p in range(n):
            s = (first + p) % n
            log.append((DEAL, s, None, tuple(hands[s])))
        self._deck = RecordStub([UNKNOWN] * (len(rc.deck) - k * n))
        self._stub_n = len(rc.deck) - k * n
        self._hands = hands

    def _deal_given(
        self, seed: Any, hole_cards: Any, deck: Any, log: list[LogEntry], withhold: Any
    ) -> None:
        n = self._n
        core = self._core
        rc = self._rc
        k = rc.hand_size
        if rc.reduced:
            check_deck_holds(self.rules, n)
        if deck is None:
            deck = core.Deck(seed) if not rc.outside else _reduced_deck(core, rc.deck, seed)
        else:
            if seed is not None:
                raise ArgumentError("give either seed or deck, not both")
            if not hasattr(deck, "deal_ids") or not hasattr(deck, "get_state"):
                raise ArgumentTypeError(f"deck must be a Deck, got {type(deck).__name__}")
            deck = deck.copy()
            if rc.outside:
                for cid in deck.stub_ids():
                    if cid in rc.outside:
                        raise CardError(f"deck: {_not_in_deck(self.rules, cid)}")
        given: list[list[int | None]] = [[None] * k for _ in range(n)]
        seen: set[int] = set()
        if hole_cards is not None:
            if isinstance(hole_cards, (str, bytes, dict)) or not hasattr(hole_cards, "__len__"):
                raise CardError(f"hole_cards: expected a list of {n} entries, got {hole_cards!r}")
            if len(hole_cards) != n:
                raise CardError(
                    f"hole_cards: expected {n} entries (one per seat), got {len(hole_cards)}"
                )
            from triple_draw.game.cards import to_maybe_ids

            for s, cards in enumerate(hole_cards):
                if cards is None:
                    continue
                ids = to_maybe_ids(cards)
                if len(ids) != k:
                    raise CardError(f"hole_cards[{s}]: expected {k} cards, got {len(ids)}")
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
                    if rc.outside and cid in rc.outside:
                        raise CardError(_not_in_deck(self.rules, cid))
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
        first = self._bb if self._sb is None else self._sb
        order = [(first + p) % n for p in range(n)]
        for i in range(k):
            for s in order:
                v = given[s][i]
                cid = next(rnd) if v is None else v
                hands[s].append(cid)
        for s in order:
            log.append((DEAL, s, None, tuple(hands[s])))
        stub_ids = deck.stub_ids()
        held = {cid for h in hands for cid in h}
        stub_set = set(stub_ids)
        # cards of the game's deck that a supplied (stacked) deck lacks are out of play:
        # they join the reshuffle pool, so the cards stay partitioned (a reduced game's
        # cards outside its deck are outside play, in no pool: rules.compiled.outside)
        held.update(held_back)
        self._out.extend(cid for cid in rc.deck if cid not in held and cid not in stub_set)
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
        draw after betting round ``street``); 0..``draws`` and 0..``draws - 1`` in a
        reduced game."""
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
        return self._full_bets

    @property
    def facing_bet(self) -> bool:
        """True when the actor must call (or fold/raise) rather than check."""
        if self._phase:
            return False
        s: int = self._actor  # type: ignore[assignment]
        return self._level > self._bet[s]

    @property
    def to_call(self) -> int:
        """Chips the actor needs to call (capped by his stack); 0 if none or not betting."""
        if self._phase:
            return 0
        s: int = self._actor  # type: ignore[assignment]
        owe = self._level - self._bet[s]
        x = self._stacks[s]
        return owe if owe < x else x

    def can_bet_or_raise(self) -> bool:
        """Whether the actor may bet or raise now (cap, reopening, chips, opponents; why
        not: the message of :class:`IllegalActionError` from :meth:`bet_or_raise`)."""
        if self._phase:
            return False
        return self._to_act[self._actor] == MAY_RAISE  # type: ignore[index]

    def bet_or_raise_amount(self) -> int | None:
        """The round total a bet or raise by the actor would reach, or ``None``."""
        if not self.can_bet_or_raise():
            return None
        return raise_target(self, self._actor)  # type: ignore[arg-type]

    def hole_ids(self, seat: int) -> tuple[int, ...]:
        """The seat's current cards as ids (for a folded seat, the cards he folded)."""
        if type(seat) is not int or not 0 <= seat < self._n:
            raise self._bad_seat(seat)
        return tuple(self._hands[seat])

    def hole_cards(self, seat: int) -> tuple[Any, ...]:
        """The seat's current cards as ``Card`` objects (engine-level, not a player view)."""
        if type(seat) is not int or not 0 <= seat < self._n:
            raise self._bad_seat(seat)
        held = self._hands[seat]
        try:
            table = _CARD_TABLES[self._core]
        except (KeyError, TypeError):  # the core's first time, or a core not hashable
            return _hole_cards(self._core, seat, held)
        try:
            if len(held) == 5:  # (the usual hand: no list built on the way)
                a, b, c, d, e = held
                return (table[a], table[b], table[c], table[d], table[e])
            return tuple([table[c] for c in held])
        except IndexError:  # UNKNOWN (52), past the table: a record's unknown card
            raise _unknown_cards(seat, held) from None

    def hole_text(self, seat: int) -> tuple[str, ...]:
        if type(seat) is not int or not 0 <= seat < self._n:
            raise self._bad_seat(seat)
        return tuple(CARD_TEXT[c] for c in self._hands[seat])

    def draws(self, seat: int) -> tuple[int, ...]:
        """How many cards the seat drew at each draw so far (public information)."""
        if type(seat) is not int or not 0 <= seat < self._n:
            raise self._bad_seat(seat)
        return self._draws[seat]

    def discards(self, seat: int) -> tuple[int, ...]:
        """Every card id the seat has discarded this hand (engine-level, private)."""
        if type(seat) is not int or not 0 <= seat < self._n:
            raise self._bad_seat(seat)
        return drawing.discards_of(self, seat)

    @property
    def history(self) -> tuple[Event, ...]:
        """Every event so far as immutable :class:`Event` records (omniscient)."""
        return tuple(map(to_event, self._log))

    @property
    def result(self) -> Any:
        """The :class:`~triple_draw.game.result.HandResult` once the hand is over, else
        ``None``."""
        return hand_result(self)

    def view(self, seat: int) -> dict[str, Any]:
        """Everything ``seat`` is allowed to know, as plain JSON-ready data (see
        ``view.py`` and the view schema).

        The view is read-only (a :class:`~triple_draw.game.view.FrozenDict` of frozen
        lists and dicts, which raise :class:`~triple_draw.errors.ArgumentTypeError` on
        any change) and shared: calls at the same point of the hand return the same
        object, and unchanged parts are shared with earlier views. To change one, copy
        it: ``copy.deepcopy(view)`` gives plain dicts and lists."""
        try:
            vc = self._view_cache
        except AttributeError:
            # the compiled core builds views itself; any other core (and a record, whose
            # unknown cards only the Python cache shows, and a reduced game, whose views
            # the compiled cache does not build) uses the Python cache
            make = (
                ViewCache
                if type(self._deck) is RecordStub or self._rc.reduced
                else getattr(self._core, "ViewCache", ViewCache)
            )
            vc = self._view_cache = make(self)
        return vc.view(self, seat)

    def _bad_seat(self, seat: object) -> ArgumentError:
        return ArgumentError(f"seat must be 0..{self._n - 1}, got {seat!r}")

    # -- persistence -------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The whole state as plain JSON-ready data (``"schema_version": 1``), deck and
        its random stream included: a hand saved mid-way and restored continues
        identically."""
        return state_io.to_dict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any], core: Any = None) -> Hand:
        """Rebuild a hand from :meth:`to_dict` output (:class:`SchemaError` if malformed)."""
        return state_io.from_dict(cls, data, core)

    @classmethod
    def from_json(cls, text: str | bytes, core: Any = None) -> Hand:
        """:meth:`from_dict` of the JSON text of a document, its size and nesting depth
        checked before it is parsed (:class:`SchemaError` if refused)."""
        return state_io.from_json(cls, text, core)

    def copy(self) -> Hand:
        """An independent copy (deck and RNG included) - cheap, for search and bots."""
        new = object.__new__(type(self))
        self.copy_state_into(new)
        return new

    def __reduce__(self) -> tuple[Any, ...]:
        # the bundled cores travel by name, a custom core as itself (it must pickle)
        return (_restore, (type(self), self.to_dict(), _coremod.portable_core(self._core)))

    def _card_partition(self) -> dict[str, list[int]]:
        """Where all 52 cards are (:func:`state_io.card_partition`; for tests)."""
        return state_io.card_partition(self)

    # -- legal actions ---------------------------------------------------------------------

    #: Every legal action of the actor (:func:`triple_draw.game.betting.legal_actions`):
    #: while betting a tuple of shared immutable actions - ``fold``, ``check`` or
    #: ``call``, and ``bet``/``raise`` when allowed; in a draw the 32 discard choices (``2
    #: ** hand_size`` in a reduced game) as a
    #: :class:`~triple_draw.game.actions.DiscardChoices` sequence (item ``m`` throws the
    #: held cards, in ascending id order, at the set bits of ``m``); over: ``[]``.
    legal_actions = _legal_actions

    # -- applying actions -------------------------------------------------------------------

    def apply(self, action: Action, seat: int | None = None) -> None:
        """Apply ``action`` for the actor (``seat``, if given, must be the actor).

        Raises :class:`IllegalActionError` saying what was wrong; the hand is unchanged.

        A betting action that :meth:`legal_actions` listed at this very decision is
        recognised by identity (the same shared object, from the tuple it returned last,
        while nothing has happened since) and performed without checking its fields
        again; any other action is checked field by field."""
        try:
            legal = self._legal  # the betting actions listed at this decision, or None
        except AttributeError:  # legal_actions() not called on this object yet
            legal = None
        if legal is not None and (seat is None or seat == self._actor):
            if action is legal[1]:
                self.check_or_call()
                return
            if action is legal[0]:
                self.fold()
                return
            if len(legal) > 2 and action is legal[2]:
                self.bet_or_raise()
                return
        if type(action) is not Action:
            raise IllegalActionError(f"not an Action: {action!r}")
        if seat is not None and seat != self._actor:
            if self._phase == OVER:
                raise IllegalActionError(f"seat {seat} cannot act: the hand is over")
            raise IllegalActionError(
                f"out of turn: seat {seat} tried to act but the actor is seat {self._actor}"
            )
        kind = action.kind
        if kind == DISCARD:
            self.discard(action.cards)
            return
        if self._phase:
            raise self._not_betting(kind)
        if kind == FOLD:
            self.fold()
            return
        s: int = self._actor  # type: ignore[assignment]
        owe = self._level - self._bet[s]
        if kind == CALL:
            if owe <= 0:
                raise IllegalActionError(
                    f"seat {s} cannot call: there is nothing to call (check instead)"
                )
            amount = action.amount
            if amount is not None:
                x = self._stacks[s]
                want = self._bet[s] + (owe if owe < x else x)
                if amount != want:
                    raise IllegalActionError(f"seat {s} calls to {want}, not {amount}")
            self.check_or_call()
        elif kind == CHECK:
            if owe > 0:
                raise IllegalActionError(
                    f"seat {s} cannot check: facing a bet of {self._level} ({self.to_call} to call)"
                )
            self.check_or_call()
        else:  # bet / raise
            if kind == BET_KIND and self._level > 0:
                raise IllegalActionError(
                    f"seat {s} cannot bet: there is already a bet of {self._level} (raise instead)"
                )
            if kind == RAISE and self._level == 0:
                raise IllegalActionError(
                    f"seat {s} cannot raise: there is no bet this round (bet instead)"
                )
            amount = action.amount
            if amount is not None:
                want = raise_target(self, s)
                if amount != want and not raise_refusal(self, s):
                    raise IllegalActionError(
                        f"seat {s} can only {kind} to exactly {want} (fixed limit), not {amount}"
                    )
            self.bet_or_raise()  # raises with raise_refusal's reason when not allowed

    def _not_betting(self, what: str) -> IllegalActionError:
        if self._phase == OVER:
            return IllegalActionError(f"cannot {what}: the hand is over")
        if self._phase == SHOWDOWN:
            return IllegalActionError(
                f"cannot {what}: it is the showdown (seat {self._actor} shows or mucks)"
            )
        return IllegalActionError(
            f"cannot {what}: seat {self._actor} must discard or stand pat (draw {self._street + 1})"
        )

    # The hot path: fold, check_or_call, bet_or_raise and discard read and write the
    # state's lists directly; each validates fully before changing anything.

    def fold(self) -> None:
        """The actor folds (allowed even when he could check)."""
        if self._phase:
            raise self._not_betting("fold")
        self._legal = None
        s: int = self._actor  # type: ignore[assignment]
        self._live[s] = False
        self._active[s] = DONE
        self._n_live -= 1
        self._n_active -= 1
        self._to_act[s] = DONE
        self._out.extend(self._hands[s])
        self._log.append(FOLDS[s])
        if self._n_live == 1:
            finish(self)
            return
        if self._n_live == 2 and self._rc.uncap_when_heads_up:
            # heads_up_uncapped="action": the action is heads-up now; a round not capped
            # yet is uncapped (a capped one stays capped)
            if self._full_bets < self._max_full_bets:
                self._max_full_bets = UNCAPPED
        if self._n_active < 2:  # the others are all-in: nobody may raise
            close_raises(self)
        next_actor(self, s)

    def check_or_call(self) -> None:
        """The actor checks, or calls (all-in for less if short)."""
        if self._phase:
            raise self._not_betting("check or call")
        self._legal = None
        s: int = self._actor  # type: ignore[assignment]
        bet = self._bet
        mine = bet[s]
        owe = self._level - mine
        if owe > 0:
            st = self._stacks
            x = st[s]
            if owe >= x:
                owe = x
                self._n_active -= 1
                self._active[s] = DONE
                if self._n_active < 2:
                    close_raises(self)
            st[s] = x - owe
            mine += owe
            bet[s] = mine
            self._total[s] += owe
            self._log.append((CALL, s, mine, None))
        else:
            self._log.append(CHECKS[s])
        self._to_act[s] = DONE
        next_actor(self, s)

    def bet_or_raise(self) -> None:
        """The actor bets or raises one unit above the last full bet/raise (all-in for
        less if short; whether that reopens the betting: rules, *All-in for less*)."""
        if self._phase:
            raise self._not_betting("bet or raise")
        s: int = self._actor  # type: ignore[assignment]
        bet = self._bet
        st = self._stacks
        level = self._level
        x = st[s]
        if self._to_act[s] != MAY_RAISE:  # the raise rule (betting.close_raises)
            raise IllegalActionError(raise_refusal(self, s))
        self._legal = None
        unit = self._unit
        full = self._full_level
        mine = bet[s]
        new = full + unit
        put = new - mine
        if put < x:  # a full bet or raise, chips left behind (the usual case)
            st[s] = x - put
            full_raise = True
        else:  # all-in: for less than a full raise, or for exactly one
            put = x
            new = mine + x
            st[s] = 0
            self._n_active -= 1
            self._active[s] = DONE
            raised = new - full
            full_raise = raised >= unit or (self._rc.half_bet_reopens and 2 * raised >= unit)
            # he may leave one player who can still bet: the rule is applied below (a
            # bound of 0 is below everybody's chips)
            self._least_reach = 0
        bet[s] = new
        self._total[s] += put
        if full_raise:
            # a full bet or raise: it reopens the betting and counts toward the cap
            self._full_level = new
            full_bets = self._full_bets + 1
            self._full_bets = full_bets
            if full_bets < self._max_full_bets:
                to_act = self._active[:]
            else:  # the cap: everybody answers, and nobody may raise again (the rule)
                to_act = [t and CLOSED for t in self._active]
            to_act[s] = DONE
            self._to_act = to_act
        else:
            # a short all-in: the others must answer it, but only those who have not
            # acted since the last full bet may raise
            to_act = self._to_act
            active = self._active
            for j in range(self._n):
                if active[j] and bet[j] < new and not to_act[j]:
                    to_act[j] = CALL_ONLY
            to_act[s] = DONE
            self._uncounted += 1
        self._level = new
        if new >= self._least_reach:  # somebody may be short of a raise now (or all-in)
            close_raises(self)
        self._last_aggr = s
        self._log.append((BET_KIND if level == 0 else RAISE, s, new, None))
        next_actor(self, s)

    def discard(self, cards: Any = (), receive: Any = None, burn: Any = None) -> None:
        """The actor discards ``cards`` (ids, text or Card objects; none = stand pat).

        ``receive`` (replays, tests): the replacement cards to deal him instead of random
        ones, one per discarded card in the order dealt, ``None``/``"??"`` for a random
        one. Each given card must be one the real deal could give him at the moment it
        is dealt (:meth:`receivable`): a card of the stub, or - when the stub runs out -
        of the new stub the reshuffle rule forms there (never a card in a hand, on the
        table, thrown by him in this draw, or out of play while the stub lasts; under
        "pokerstars" never one he threw earlier while the stub holds others). An illegal
        card raises :class:`IllegalActionError` naming it and why, and changes nothing.

        ``burn`` (replays, with ``Rules.burn_cards``): the card burned before this draw's
        replacements, given to the discard that deals them first (the first one under
        "immediate", the last declaration under declare-then-deal); it must be in the stub."""
        if self._phase != DRAW:
            raise drawing.not_drawing(self)
        s: int = self._actor  # type: ignore[assignment]
        held = self._hands[s]
        ids = cards
        keep: list[int] | None = None
        form = type(ids)
        if form is list or form is tuple:
            keep = held[:]
            try:
                for cid in ids:
                    if type(cid) is not int:
                        raise TypeError
                    keep.remove(cid)  # ValueError: not held, or a duplicate
            except (TypeError, ValueError):
                keep = None
        if keep is None:  # text, Card objects, or an error to explain
            if type(self._deck) is RecordStub:  # a record: known cards may be named
                try:
                    named = to_record_ids(cards)
                except CardError as e:
                    raise IllegalActionError(f"bad discard: {e}") from None
                why = outside_deck(self, named)
                if why is not None:
                    raise IllegalActionError(f"seat {s} cannot discard {why}")
                held = with_named(self, s, held, named)
                ids, keep = drawing.checked_discard(s, held, named, True)
            else:
                ids, keep = drawing.checked_discard(s, held, cards)
            form = list  # (checked_discard's ids)
        if form is not tuple:
            ids = tuple(ids)
        if receive is not None or self._reserved is not None or burn is not None:
            if drawing.discard_given(self, s, ids, keep, receive, burn):
                start_round(self, self._street + 1)
            return
        self._hands[s] = keep
        self._log.append((DISCARD, s, None, ids))
        k = len(ids)
        drawn = self._draws
        drawn[s] = drawn[s] + COUNTS[k]
        order = self._draw_order
        pos = self._draw_pos + 1
        last = pos == len(order)
        if self._rc.immediate_draw:  # dealt right after declaring (the burn card first)
            drawing.serve(self, s, ids, self._rc.burn and pos == 1)
        else:
            self._declared.append((s, ids))
            self._need += k
            if last:
                drawing.serve_all(self)
        if not last:
            self._draw_pos = pos
            self._actor = order[pos]
            return
        start_round(self, self._street + 1)

    def receivable(self, cards: Any, given: Any = ()) -> list[int]:
        """The cards the deal could give the actor as his replacement number
        ``len(given) + 1`` if he discards ``cards`` and his first replacements are
        ``given`` - under the hand's reshuffle rule, in no particular order (sorted).

        This is the engine's answer to "who may receive which card", for replays that
        choose unknown cards (the PHH loader); :meth:`discard` with ``receive=`` accepts
        exactly these cards. Raises :class:`IllegalActionError` like :meth:`discard`
        would. Changes nothing."""
        return drawing.receivable(self, cards, given)

    # -- the showdown of a record ----------------------------------------------------------

    @property
    def is_record(self) -> bool:
        """Whether the hand is replayed from a record with unknown cards (``record=True``)."""
        return type(self._deck) is RecordStub

    def show(self, cards: Any = None) -> None:
        """At the showdown of a hand replayed from a record, the actor shows his hand:
        ``cards`` are his five cards (``hand_size`` in a reduced game; text, ids or Card
        objects), needed when any of them is unknown; his known cards must be among them,
        and a card he shows that was unknown must be one nobody else is known to hold or
        to have thrown (else :class:`IllegalActionError`, and nothing changes)."""
        if self._phase != SHOWDOWN:
            raise self._no_showdown("show")
        show_at_showdown(self, cards)

    def muck(self) -> None:
        """At the showdown of a hand replayed from a record, the actor mucks: he gives up
        his claim to the pots (his cards stay as the record knows them)."""
        if self._phase != SHOWDOWN:
            raise self._no_showdown("muck")
        muck_at_showdown(self)

    def _no_showdown(self, what: str) -> IllegalActionError:
        if self._phase == OVER:
            return IllegalActionError(f"cannot {what}: the hand is over")
        if type(self._deck) is not RecordStub:
            return IllegalActionError(
                f"cannot {what}: the showdown of a hand the engine deals is automatic"
            )
        return IllegalActionError(f"cannot {what}: the hand is not at its showdown")

    # -- misc --------------------------------------------------------------------------------

    def __repr__(self) -> str:
        return (
            f"<Hand {self._n} players, {PHASES[self._phase]} {self._street}, actor={self._actor}, "
            f"pot={self.pot}, stacks={list(self._stacks)}>"
        )


#: The 52 ``Card`` objects of each core with a ``parse_cards`` (both bundled cores), by
#: core: :meth:`Hand.hole_cards` hands them out by id, the same object for the same card.
_CARD_TABLES: dict[Any, tuple[Any, ...]] = {}


def _hole_cards(core: Any, seat: int, held: list[int]) -> tuple[Any, ...]:
    """:meth:`Hand.hole_cards` for a core not in :data:`_CARD_TABLES` (yet)."""
    if UNKNOWN in held:
        raise _unknown_cards(seat, held)
    shared = getattr(core, "parse_cards", None)  # (not required of a core)
    if shared is None:  # a Card per call, as the core makes them
        return tuple(core.Card(c) for c in held)
    table = tuple(shared(range(52)))
    try:
        _CARD_TABLES[core] = table
    except TypeError:  # a core object that is not hashable: nothing to remember it by
        pass
    return tuple([table[c] for c in held])


def _unknown_cards(seat: int, held: list[int]) -> UnknownCardsError:
    return UnknownCardsError(
        f"seat {seat} holds {held.count(UNKNOWN)} unknown cards (a record): use "
        "hole_text, where they are '??'"
    )


def _restore(cls: type[Hand], data: dict[str, Any], core: Any) -> Hand:
    return cls.from_dict(data, core=core)


def _forced_bets(
    n: int, button: int, no_small_blind: Any, posts: Any, rules: Rules
) -> tuple[int | None, int, tuple[tuple[int, int, int], ...]]:
    """The blinds' seats and the extra posts ``(seat, live, dead)`` (clockwise from the big
    blind) of a hand built with ``no_small_blind`` or ``posts``, validated."""
    if type(no_small_blind) is not bool:
        raise ArgumentTypeError(f"no_small_blind must be a bool, got {no_small_blind!r}")
    sb: int | None
    sb, bb = _BLINDS[n][button]
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
                or not 0 <= v[1] <= MAX_CHIPS
                or v[0] + v[1] == 0
            ):
                raise ArgumentError(
                    f"posts[{s}] must be (live, dead) chips with 0 <= live <= "
                    f"{rules.big_blind}, dead >= 0 and something posted, got {v!r}"
                )
            extra.append((s, v[0], v[1]))
        extra.sort(key=lambda e: (e[0] - bb) % n)  # clockwise from the big blind
    return sb, bb, tuple(extra)


def check_deck_holds(rules: Rules, n: int, what: str = "stacks") -> None:
    """A reduced game's deck must hold the hands of ``n`` players and one more hand, so
    that every draw can be served (the real game's 52 cards hold nine); ``what`` (the
    argument or the component that asks) starts the error's message."""
    size = len(rules.compiled.deck)
    if (n + 1) * rules.hand_size > size:
        raise ArgumentError(
            f"{what}: a deck of {size} cards (deck_ranks={rules.deck_ranks} x deck_suits="
            f"{rules.deck_suits}) holds {rules.hand_size}-card hands for at most "
            f"{size // rules.hand_size - 1} players (their hands and one more, so that "
            f"every draw can be served), got {n}"
        )


def _not_in_deck(rules: Rules, cid: int) -> str:
    return (
        f"card {CARD_TEXT[cid]} is not in this game's deck (the lowest {rules.deck_ranks} "
        f"ranks in {rules.deck_suits} suits)"
    )


def _reduced_deck(core: Any, cards: tuple[int, ...], seed: int | None) -> Any:
    """A reduced game's seeded deck: ``cards`` in id order, shuffled once by the stream
    of ``seed`` - as ``Deck(seed)`` is the 52 in id order shuffled once by it."""
    stacked = getattr(core.Deck, "stacked", None)
    if stacked is None:
        raise ArgumentTypeError(
            "core: its Deck has no stacked(order, seed), which a reduced game's deck needs"
        )
    deck = stacked(list(cards), seed)
    deck.reshuffle(())
    return deck


def _check_record(record: Any, rake: Any, seed: Any, deck: Any, withhold: Any) -> None:
    """The arguments of a hand replayed from a record (``record=True``)."""
    if record is not True:
        raise ArgumentTypeError(f"record must be a bool, got {record!r}")
    if seed is not None or deck is not None or withhold is not None:
        raise ArgumentError(
            "a hand replayed from a record deals nothing at random: no seed, deck or withhold"
        )
    if rake is not None and (type(rake) is not int or rake < 0):
        raise ArgumentError(f"rake must be the chips the record took (an int >= 0), got {rake!r}")
