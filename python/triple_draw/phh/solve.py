"""The search for the unknown cards: a card for every ``??`` of a history, such that the
deal could have given every card at its moment under the hand's rules (the loader runs it
when its quick choice, :mod:`triple_draw.phh.infer`, gets stuck).

The solver follows the 52 physical cards through the hand, in the order the engine serves
the draws (:func:`triple_draw.phh.timing.find_serves`): each card is in the stub, in a
player's hand, among the declared discards of the draw still on the table, or out of play
(folded, served discards, burned). A card the history never names before it matters is a
*joker*: its identity is chosen only when the history names it (a card dealt face up,
discarded face up or shown), or at the end. Dealing, discarding unknown cards and burning
are choices; every other move (folds, the pool entering the stub at a reshuffle, under
"pokerstars" the gathers when the stub holds too few cards or only the served player's
own discards) follows from the rules, exactly as :mod:`triple_draw.game.drawing` plays
them with given cards.

The search is a depth-first search over those choices, complete up to symmetry: cards
that no later line of the history tells apart (jokers, and named cards the history never
names again, with the same players having thrown them) are one choice, and a position
(the step and where every card is) that failed once is not searched again. Before a
choice is taken it is checked that every card the history names later can still get
there, on its own (:meth:`Solver._allowed`; under "pokerstars", where new stubs can
form depends on the position: :meth:`Solver._forward`), and that a player who shows his
whole hand later can let go of the named cards he will not show.

Under "pokerstars" a history may record where each new stub formed (a player's view
does: :func:`recorded_stubs`). A solver given that record follows it exactly - a new stub
forms there and nowhere else - so the size of the stub is known at every step and more
is checked (:meth:`Solver._spares_fit`: where the cards nobody names again can end, never
dealt back to a player who threw them; :meth:`Solver._left_fits`: which named cards the
stub must keep where each new stub forms; :meth:`Solver._jokers_suffice`; a thrown card
not dealt back to the thrower, the stub's last card dealt); its failure proves only that
the record does not fit, and the loader then searches without it.

The dearest checks are matchings (Hall's condition, by augmenting paths), made after a
short search without them (:data:`QUICK_NODES`): the named cards a player shows and does
not hold to the deals to him (:meth:`Solver._shown_dealt`); under the default rule and
"pokerkit", whose stub runs out where the counts say, the cards of the stub now and those
sure to form the next ones to the deals each stub serves, over every stub to the end of
the hand; under "pokerstars" with the record, the same with the cards a stub keeps where
the next one forms (:meth:`Solver._stubs_fit`).

Every check is a necessary condition, so a search that runs out of choices proves that no
choice of the unknown cards fits (:class:`Bad`, naming where the deepest choice failed);
the tests step the real cards of hands through every check (``walk_the_truth``). The
search's work is bounded by :data:`MAX_NODES`; past it, :class:`Unsolved` - not a proof.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterator
from typing import Any, NamedTuple

from triple_draw.game.cards import CARD_TEXT
from triple_draw.phh.actions import Act
from triple_draw.phh.base import Bad, Locator
from triple_draw.phh.timing import Serves

#: The work of the search before it gives up, in positions visited: each costs 1, under
#: "pokerstars" 6 (its checks of when new stubs can form are dearer), more with the
#: matchings; about 1 s for an 8-player hand (docs: PHH).
MAX_NODES = 36_000
#: The part of the bound searched first without the dearest checks (whether the cards of
#: the stubs, and the cards a player shows, can be matched to their deals).
QUICK_NODES = 2_000
#: The cost of a position under "pokerstars".
POKERSTARS_COST = 6
#: ... and where the history records where the new stubs formed (its checks of when they
#: form are looked up, not worked out).
FIXED_COST = 2
#: The cost of a position with the matchings of the stubs' cards to their deals (after
#: :data:`QUICK_NODES`): where the stub runs out by the counts, and under "pokerstars"
#: following the record (which matches every stub to the end of the hand).
MATCHING_COST = 2
MATCHING_FIXED_COST = 16

STUB = 0
OUT = 1

# the kinds of steps (:class:`Step`)
FOLD = "fold"
DISCARD = "discard"
BURN = "burn"
DEAL = "deal"
SERVED = "served"
SHOW = "show"


class Step(NamedTuple):
    """One step of the hand that moves cards, in the order the engine plays them."""

    #: FOLD, DISCARD, BURN, DEAL (one card to a player), SERVED (a player's draw is
    #: complete: his discards go out of play) or SHOW
    kind: str
    #: the player (-1 for a burn)
    player: int
    #: the history action the step comes from: the declaration of a discard, of the draw
    #: a deal or a served step belongs to; the fold; the show (-1: none)
    act: int
    #: the cards the history names (``None`` for a card it does not name): a discard's
    #: thrown cards, the dealt card, the shown cards; ``()`` for the others
    cards: tuple[int | None, ...]
    #: how many cards the step's action moves: thrown by a discard, dealt by the draw of a
    #: deal or a served step, one for a burn; 0 for a fold or a show
    moved: int
    #: a deal: which of its draw's replacements it deals (0 = the first); else 0
    nth: int


class Unsolved(Bad):
    """The search needs more work than :data:`MAX_NODES`."""


class Plan:
    """The solution: every card of the history. ``hole`` per PHH player (five cards or
    none), per declaration (action index) the cards ``thrown`` (in the order of the
    action) and ``received`` (in the order they are dealt), and the ``burns`` in order."""

    def __init__(self) -> None:
        self.hole: list[list[int]] = []
        self.thrown: dict[int, list[int]] = {}
        self.received: dict[int, list[int]] = {}
        self.burns: list[int] = []
        self.nodes = 0


#: the choices made on the way to a position: (the previous ones, step, tokens moved)
Rec = tuple[Any, int, tuple[int, ...]]


class _State:
    __slots__ = ("ident", "loc", "mask", "rec", "tok")

    def __init__(
        self,
        loc: list[int],
        ident: list[int],
        mask: list[int],
        tok: list[int],
        rec: Rec | None,
    ) -> None:
        self.loc = loc  # per token: STUB, OUT, 2 + k (hand), 2 + n + k (table)
        self.ident = ident  # per token: the card, or -1 (a joker)
        self.mask = mask  # per token: the players who threw it ("pokerstars")
        self.tok = tok  # per card: its token, or -1 (not placed yet: one of the jokers)
        self.rec = rec  # the choices made so far: (previous, step, tokens)

    def copy(self) -> _State:
        return _State(self.loc[:], self.ident[:], self.mask[:], self.tok[:], self.rec)


def named(acts: list[Act], n: int) -> tuple[list[list[int | None]], dict[int, list[int | None]]]:
    """The cards the history deals as it writes them (``None``: ``??``): the hole cards
    per player (five unknown cards if it has no deal line for him), and the replacements
    per declaration (action index) that it deals."""
    hole: list[list[int | None]] = [[] for _ in range(n)]
    receive: dict[int, list[int | None]] = {}
    pending: dict[int, int] = {}
    for a in acts:
        k = a.player
        if a.verb == "dh":
            if k in pending:
                receive[pending.pop(k)] = list(a.cards)
            elif len(hole[k]) < 5:
                hole[k].extend(a.cards)
        elif a.verb == "sd":
            pending[k] = a.i
        elif k >= 0:
            pending.pop(k, None)
    return [h if len(h) == 5 else [None] * 5 for h in hole], receive


_STUB_NOTE = re.compile(r"#\s*new stub of (\d{1,2}) cards\s*$")


def recorded_stubs(acts: list[Act]) -> dict[int, int]:
    """Where the history records that a new stub formed (the comment
    :data:`~triple_draw.phh.base.STUB_NOTE` on a player's replacements): per declaration
    (action index), the size of the new stub formed while he was served."""
    stubs: dict[int, int] = {}
    pending: dict[int, int] = {}
    for a in acts:
        k = a.player
        if a.verb == "sd":
            pending[k] = a.i
        elif a.verb == "dh" and k in pending:
            i = pending.pop(k)
            m = _STUB_NOTE.search(a.text)
            if m is not None:
                stubs[i] = int(m.group(1))
        elif k >= 0:
            pending.pop(k, None)
    return stubs


#: the steps that move cards between a hand, the table and the cards out of play
_MOVES = (FOLD, DISCARD, SERVED)
#: the steps that choose nothing: the matchings are left to the next step that does
_FORCED = (FOLD, SERVED)


def _count_move(kind: str, k: int, cards: Any, hand: list[int], table: list[int]) -> int:
    """A fold, a discard or a served draw of player ``k`` on the counts of the cards in
    each hand and on each player's table: the number of cards it puts out of play."""
    if kind == FOLD:
        x = hand[k]
        hand[k] = 0
        return x
    if kind == DISCARD:
        hand[k] -= len(cards)
        table[k] += len(cards)
        return 0
    x = table[k]  # served: his discards join the cards out of play
    table[k] = 0
    return x


class Solver:
    """Chooses the unknown cards of one history (see the module's documentation)."""

    def __init__(
        self,
        acts: list[Act],
        n: int,
        hole: list[list[int | None]],
        receive: dict[int, list[int | None]],
        serves: Serves,
        *,
        pokerstars: bool,
        pool_all: bool,
        loc: Locator | None = None,
        stubs: dict[int, int] | None = None,
    ) -> None:
        self.n = n
        self.loc = loc
        self.pokerstars = pokerstars
        self.pool_all = pool_all
        #: the order of the choices: a card a player shows later is rather kept in the
        #: stub than sent through a hand that throws it (the second order tried)
        self.keep_in_stub = False
        #: whether the search makes its dearest checks, the matchings of cards to deals
        #: (after a short search without them: :meth:`solve`)
        self.matching = False
        self.hole = hole
        self.acts = {a.i: a for a in acts}
        self.steps: list[Step] = []
        self._build_steps(acts, receive, serves)
        #: "pokerstars", where the history records where each new stub formed (per
        #: declaration, the size of the new stub formed while he was served): the deal
        #: steps before which one forms, exactly (None: not recorded, or not consistent
        #: with the counts - then a new stub may form wherever the rules allow)
        self.fixed: set[int] | None = None
        self.stubs = stubs if pokerstars and stubs else None
        #: with the new stubs known (:meth:`_stubs_fit`; "pokerstars": the record): per
        #: step where a new stub forms, the cards left in the old one, and the size of
        #: the new one; the steps where the stub holds only the served player's own
        #: discards, and per player the deal steps where he may be dealt one of them
        self.left: dict[int, int] = {}
        self.new_size: dict[int, int] = {}
        self.crowd: dict[int, int] = {}
        self.own_ok: list[list[int]] = []
        #: the deepest step where a choice failed, and why
        self.deepest = (-1, "")
        #: how often a matching found the places and the cards not to add up (never)
        self.unbalanced = 0
        self._wheres: dict[int, str] = {}
        self._fwd: dict[tuple[int, int, tuple[int, str, int]], bool] = {}
        self._outs: dict[tuple[int, int], list[tuple[int, int]]] = {}
        self._requirements()

    # .. the steps ..

    def _build_steps(
        self, acts: list[Act], receive: dict[int, list[int | None]], serves: Serves
    ) -> None:
        steps = self.steps
        order = iter(serves.declared)
        latest: dict[int, int] = {}
        folds: dict[int, int] = {}
        for a in acts:
            if a.verb == "f":
                folds.setdefault(a.player, a.i)
        for kind, k, count in serves.events:
            if kind == "fold":
                steps.append(Step(FOLD, k, folds.get(k, -1), (), 0, 0))
            elif kind == "burn":
                steps.append(Step(BURN, -1, -1, (), 1, 0))
            elif kind == "discard":
                i = next(order)
                latest[k] = i
                cards = tuple(self.acts[i].cards)
                steps.append(Step(DISCARD, k, i, cards, count, 0))
            else:  # draw
                i = latest[k]
                got = receive.get(i)
                for x in range(count):
                    c = got[x] if got is not None and x < len(got) else None
                    steps.append(Step(DEAL, k, i, (c,), count, x))
                steps.append(Step(SERVED, k, i, (), count, 0))
        if serves.complete:
            for a in acts:
                if a.verb == "show" and a.cards is not None:
                    steps.append(Step(SHOW, a.player, a.i, tuple(a.cards), 0, 0))
        #: per step, the players dealt cards from there on (who threw a card matters only
        #: to them)
        self.drawing = [0] * (len(steps) + 1)
        for j in range(len(steps) - 1, -1, -1):
            kind, k = steps[j].kind, steps[j].player
            self.drawing[j] = self.drawing[j + 1] | (1 << k if kind == DEAL else 0)
        #: per step, how many cards are dealt (burns included) before it
        self.cum = [0]
        for st in steps:
            self.cum.append(self.cum[-1] + (st.kind in (DEAL, BURN)))

    def _requirements(self) -> None:
        """Per named card, the steps that name it: (step, 'deal' or 'hold', player)."""
        req: dict[int, list[tuple[int, str, int]]] = {}
        self.exits: list[list[int]] = [[] for _ in range(self.n)]
        self.gets: list[list[int]] = [[] for _ in range(self.n)]
        for j, (kind, k, _i, cards, _count, _nth) in enumerate(self.steps):
            if kind == DEAL:
                c = cards[0]
                if c is None:
                    self.gets[k].append(j)
                else:
                    req.setdefault(c, []).append((j, "deal", k))
            elif kind in (DISCARD, SHOW):
                for c in cards:
                    if c is not None:
                        req.setdefault(c, []).append((j, "hold", k))
                if kind == DISCARD and any(c is None for c in cards):
                    self.exits[k].append(j)
            elif kind == FOLD:
                self.exits[k].append(j)
        self.req = req
        self.req_steps = {c: [j for j, _, _ in r] for c, r in req.items()}
        #: per card, the last step that names it (-1: none)
        self.last_req = [-1] * 52
        for c, r in req.items():
            self.last_req[c] = r[-1][0]
        #: per player, the step where he shows five named cards (his whole hand)
        self.shows: dict[int, int] = {}
        for j, (kind, k, _i, cards, _count, _nth) in enumerate(self.steps):
            if kind == SHOW and all(c is not None for c in cards):
                self.shows.setdefault(k, j)
        #: per step, per player, his next discard at or after it: (step, cards he keeps)
        self.next_discard: list[list[tuple[int, int]]] = [[]] * (len(self.steps) + 1)
        nxt = [(len(self.steps), 5)] * self.n
        self.next_discard[len(self.steps)] = nxt
        for j in range(len(self.steps) - 1, -1, -1):
            kind, k, _i, cards, _count, _nth = self.steps[j]
            if kind == DISCARD:
                nxt = nxt[:]
                nxt[k] = (j, 5 - len(cards))
            self.next_discard[j] = nxt
        #: per player who shows his whole hand, per step: the cards he throws from there
        #: until then, and the cards he shows
        self.throws: dict[int, list[int]] = {}
        self.shown: dict[int, frozenset[int]] = {}
        for k, show in self.shows.items():
            row = [0] * (len(self.steps) + 1)
            for j in range(show - 1, -1, -1):
                kind, p, _i, cards, _count, _nth = self.steps[j]
                row[j] = row[j + 1] + (len(cards) if kind == DISCARD and p == k else 0)
            self.throws[k] = row
            self.shown[k] = frozenset(c for c in self.steps[show].cards if c is not None)
        #: per player, per step: how many face-down deals to him come before it
        self.udeal = [[0] * (len(self.steps) + 1) for _ in range(self.n)]
        #: per player, the face-down deals to him
        self.face_down: list[list[int]] = [[] for _ in range(self.n)]
        for j, (kind, p, _i, cards, _count, _nth) in enumerate(self.steps):
            if kind == DEAL and cards[0] is None:
                self.face_down[p].append(j)
        for k in range(self.n):
            row = self.udeal[k]
            for j, (kind, p, _i, cards, _count, _nth) in enumerate(self.steps):
                row[j + 1] = row[j] + (kind == DEAL and p == k and cards[0] is None)
        self._dealt: dict[tuple[int, ...], bool] = {}
        self._reshuffles()
        self._reach: dict[tuple[int, str, int], list[int]] = {}

    def _reshuffles(self) -> None:
        """Where the stub runs out (the default rule and "pokerkit": by the counts): the
        deal and burn steps before which the pool forms a new stub."""
        n = self.n
        self.resh = [False] * len(self.steps)
        if self.pokerstars:
            if self.stubs is not None:
                self.fixed = set()
                #: the steps where the stub holds only the served player's own discards
                self.crowd = {}
                self.g_fixed = self._fixed_gathers()
                if self.fixed is None:
                    return
                #: per step, the next step at or after it where a new stub forms
                self.next_g = [len(self.steps)] * (len(self.steps) + 1)
                #: ... and where one forms early (the stub holds only the served
                #: player's own discards)
                self.next_crowd = self.next_g[:]
                for d in range(len(self.steps) - 1, -1, -1):
                    self.next_g[d] = d if self.g_fixed[d] else self.next_g[d + 1]
                    self.next_crowd[d] = d if d in self.crowd else self.next_crowd[d + 1]
            return
        stub = 52 - 5 * n
        out = 0
        table = [0] * n
        #: per step before which the stub runs out: the size of the new stub
        self.pool_size: dict[int, int] = {}
        for j, (kind, k, _i, _cards, _count, _nth) in enumerate(self.steps):
            if kind == FOLD:
                out += 5
            elif kind == DISCARD:
                table[k] += len(_cards)
            elif kind == SERVED:
                out += table[k]
                table[k] = 0
            elif kind in (DEAL, BURN):
                if not stub:
                    self.resh[j] = True
                    stub, out = out, 0
                    if self.pool_all:
                        stub += sum(table)
                        table = [0] * n
                    self.pool_size[j] = stub
                stub -= 1
                if kind == BURN:
                    out += 1
        #: the cards left in the stub when the hand ends
        self.stub_end = stub

    def _out_rows(self) -> None:
        """Per player, per step: the step from which a card on his table (``table_out``)
        or in his hand (``hand_out``: he folds or throws all five) is surely out of play,
        and (``hand_thrown``) from which a card in his hand is surely out of play or on
        his table."""
        size = len(self.steps)
        self.table_out = [[size] * (size + 1) for _ in range(self.n)]
        self.hand_out = [[size] * (size + 1) for _ in range(self.n)]
        self.hand_thrown = [[size] * (size + 1) for _ in range(self.n)]
        for k in range(self.n):
            t_row = self.table_out[k]
            h_row = self.hand_out[k]
            g_row = self.hand_thrown[k]
            for d in range(size - 1, -1, -1):
                kind, p, _i, cards, _count, _nth = self.steps[d]
                t_row[d] = d if kind == SERVED and p == k else t_row[d + 1]
                h_row[d] = h_row[d + 1]
                g_row[d] = g_row[d + 1]
                if p == k and (kind == FOLD or (kind == DISCARD and len(cards) == 5)):
                    h_row[d] = d if kind == FOLD else t_row[d]
                    g_row[d] = d

    def _closed_deals(self) -> list[bool]:
        """Per step, whether it is a face-down deal to a player who keeps the card until
        he shows his whole hand."""
        closed = [False] * len(self.steps)
        for d, (kind, k, _i, cards, _count, _nth) in enumerate(self.steps):
            show = self.shows.get(k)
            closed[d] = (
                kind == DEAL
                and cards[0] is None
                and show is not None
                and not self._between(self.exits[k], d, show)
            )
        return closed

    def _prepare_matching(self) -> None:
        """Turns on the dearest checks (:attr:`matching`), and prepares what
        :meth:`_stubs_fit` needs."""
        self.matching = True
        if self.pokerstars and self.fixed is None:
            return  # where new stubs form is not known: no stub is matched
        steps = self.steps
        size = len(steps)
        n = self.n
        if not self.pokerstars:
            # the stub runs out where the counts say, and is formed from the pool alone
            self._out_rows()
            self.next_g = [size] * (size + 1)
            for d in range(size - 1, -1, -1):
                self.next_g[d] = d if self.resh[d] else self.next_g[d + 1]
            self.left = {d: 0 for d in self.pool_size}
            self.new_size = dict(self.pool_size)
            self.crowd = {}
            self.own_ok = [[] for _ in range(n)]
        self.own_set = [set(row) for row in self.own_ok]
        self.deal_steps = [d for d, step in enumerate(steps) if step.kind in (DEAL, BURN)]
        self.discard_steps = [d for d, step in enumerate(steps) if step.kind == DISCARD]
        #: per player, the deals to him
        self.deals_to: list[list[int]] = [[] for _ in range(n)]
        for d, step in enumerate(steps):
            if step.kind == DEAL:
                self.deals_to[step.player].append(d)
        self.closed = self._closed_deals()
        self._matched: dict[tuple[Any, ...], bool] = {}
        self._stub_plans: dict[int, Any] = {}
        #: per player, his bit in the players who threw a card ("pokerstars"; else 0)
        self.bits = [1 << k if self.pokerstars else 0 for k in range(n)]
        self._options: dict[tuple[int, int, int, int], list[int]] = {}

    def _allowed(self, c: int, x: int) -> list[int]:
        """For requirement ``x`` of card ``c``: per step ``j`` up to it, the places (bits of
        the location codes) from which the card can get there, ignoring the other cards,
        before step ``j``."""
        return self._reach_of(self.req[c][x])

    def _reach_of(self, req: tuple[int, str, int]) -> list[int]:
        """:meth:`_allowed` for a requirement ``(step, 'deal' or 'hold', player)``."""
        got = self._reach.get(req)
        if got is not None:
            return got
        n = self.n
        at, kind, p = req
        steps = self.steps
        stub, out = 1 << STUB, 1 << OUT
        tables = ((1 << n) - 1) << (2 + n)
        allowed = [0] * (at + 1)
        if kind == "hold":
            a = 1 << (2 + p)
        else:
            a = stub
            a = self._before_deal(at, a, stub, out, tables)
        allowed[at] = a
        for j in range(at - 1, -1, -1):
            kind_j, k, _i, cards, _count, _nth = steps[j]
            b = a
            if kind_j == FOLD:
                hand = 1 << (2 + k)
                b &= ~hand
                if a & out:
                    b |= hand
            elif kind_j == SERVED:
                table = 1 << (2 + n + k)
                b &= ~table
                if a & out:
                    b |= table
            elif kind_j == DISCARD:
                hand = 1 << (2 + k)
                if len(cards) == 5:  # he throws his whole hand
                    b &= ~hand
                if any(cd is None for cd in cards) and a & (1 << (2 + n + k)):
                    b |= hand
            elif kind_j in (DEAL, BURN):
                if self.fixed is not None and j in self.last_card:
                    b &= ~stub  # the stub's last card is dealt
                if kind_j == BURN or cards[0] is None:
                    dest = out if kind_j == BURN else 1 << (2 + k)
                    if a & dest:
                        b |= stub
                b = self._before_deal(j, b, stub, out, tables)
            allowed[j] = b
            a = b
        self._reach[req] = allowed
        return allowed

    def _before_deal(self, j: int, a: int, stub: int, out: int, tables: int) -> int:
        """The places before the reshuffle (if any) at deal step ``j`` from which a card
        gets to the places ``a`` after it."""
        if self.pokerstars:
            if self.fixed is not None:
                # the pool joins the stub exactly where a new stub forms
                if not self.g_fixed[j]:
                    return a
                return (a & ~out) | out if a & stub else a & ~out
            # a gather may come at any deal: the pool joins the stub
            return a | out if a & stub else a
        if not self.resh[j]:
            return a
        b = 0
        if a & stub:
            b |= out | (tables if self.pool_all else 0)
        # the stub is empty then, and the pool is taken whole
        keep = a & ~stub & ~out
        if self.pool_all:
            keep &= ~tables
        return b | keep

    def _next_req(self, c: int, step: int) -> tuple[int, str, int] | None:
        """The first requirement of card ``c`` at a step after ``step``."""
        steps = self.req_steps.get(c)
        if steps is None:
            return None
        x = bisect_right(steps, step)
        return self.req[c][x] if x < len(steps) else None

    @staticmethod
    def _between(lst: list[int], a: int, b: int) -> bool:
        """Whether ``lst`` (sorted) has a value in ``(a, b)``."""
        x = bisect_right(lst, a)
        return x < len(lst) and lst[x] < b

    # .. the search ..

    def solve(self) -> Plan:
        """Every card of the history. A short search without the dearest checks (the
        matchings of the stubs' cards to their deals, :meth:`_stubs_fit`, and of the
        cards a player shows to the deals to him, :meth:`_shown_dealt`) comes first:
        most histories need no more. Then two orders of the choices share the rest of
        the bound (:attr:`keep_in_stub`): the order does not change what a search that
        runs out of choices proves, only how soon a search finds cards that fit."""
        quick = min(QUICK_NODES, MAX_NODES // 2)
        try:
            return self._search(quick)
        except Unsolved:
            self._prepare_matching()
        rest = MAX_NODES - quick
        try:
            return self._search(rest // 2)
        except Unsolved:
            self.keep_in_stub = True
            return self._search(rest - rest // 2)

    def _root(self) -> _State:
        """The position before the first step: the hole cards dealt, the rest in the stub."""
        loc: list[int] = []
        ident: list[int] = []
        tok = [-1] * 52
        for k in range(self.n):
            for c in self.hole[k]:
                if c is not None:
                    tok[c] = len(loc)
                ident.append(-1 if c is None else c)
                loc.append(2 + k)
        while len(loc) < 52:
            loc.append(STUB)
            ident.append(-1)
        return _State(loc, ident, [0] * 52, tok, None)

    def _search(self, bound: int) -> Plan:
        root = self._root()
        steps = self.steps
        nodes = 0
        cost = MATCHING_COST if self.matching else 1
        if self.pokerstars:
            cost = POKERSTARS_COST
            if self.fixed is not None:
                cost = MATCHING_FIXED_COST if self.matching else FIXED_COST
        failed: set[tuple[int, ...]] = set()
        self.deepest = (-1, "")
        if not steps:
            return self._plan(root, 0)
        stack: list[tuple[int, Iterator[_State], tuple[int, ...]]] = [
            (0, self._expand(root, 0), ())
        ]
        while stack:
            j, it, key = stack[-1]
            child = next(it, None)
            if child is None:
                stack.pop()
                failed.add(key)
                continue
            nodes += cost
            if nodes > bound:
                raise Unsolved(
                    f"the unknown cards of this history need more than {MAX_NODES} choices "
                    "to be searched"
                )
            if j + 1 == len(steps):
                return self._plan(child, nodes)
            ck = self._key(child, j + 1)
            if ck in failed:
                continue
            stack.append((j + 1, self._expand(child, j + 1), ck))
        _step, why = self.deepest
        raise Bad(why or "no choice of the unknown cards is consistent with the deal")

    def _key(self, st: _State, j: int) -> tuple[int, ...]:
        """The position before step ``j``, the same for positions that differ only in
        cards no later step tells apart."""
        last = self.last_req
        drawing = self.drawing[j]
        mask = st.mask
        loc = st.loc
        cls = []
        for t, c in enumerate(st.ident):
            if c >= 0 and last[c] < j:
                c = -2  # never named again: like any other such card
            cls.append((loc[t] << 16) | ((c + 2) << 8) | (mask[t] & drawing))
        cls.sort()
        cls.append(j)
        return tuple(cls)

    def _fail(self, j: int, why: str) -> None:
        if j > self.deepest[0]:
            self.deepest = (j, why)

    def _where(self, j: int) -> str:
        got = self._wheres.get(j)
        if got is not None:
            return got
        i = self.steps[j].act
        a = self.acts.get(i)
        if a is None:
            got = ""
        else:
            got = f"{self.loc.where(a.i, a.text)}: " if self.loc else f"action {a.i + 1}: "
        self._wheres[j] = got
        return got

    def _viable(self, st: _State, j: int) -> bool:
        """Every card the history names later can still get where it is named (each on
        its own: :meth:`_allowed`), and a player who shows his whole hand later can still
        let go of the named cards he holds that he does not show."""
        loc = st.loc
        n = self.n
        if self.fixed is not None:
            d = self.next_crowd[j + 1]
            k = self.crowd.get(d, -1)
            if k >= 0:
                # the stub must hold only his own discards by then: the others (in the
                # stub now, or joining it at a new stub before then) are dealt before
                bit = 1 << k
                mask = st.mask
                others = 0
                next_g = self.next_g
                for t in range(52):
                    w = loc[t]
                    if mask[t] & bit or w == 2 + k:
                        continue  # he threw it, or may throw it
                    if w == STUB:
                        others += 1
                        continue
                    if w == OUT:
                        gone = j
                    elif w < 2 + n:
                        gone = self.hand_out[w - 2][j + 1]
                    else:
                        gone = self.table_out[w - 2 - n][j + 1]
                    others += gone < d and next_g[gone + 1] < d
                # ... and what is left of it then is cards he threw, in the stub now (if no
                # new stub forms before then) and free to stay there
                mine = 0
                if next_g[j + 1] == d:
                    for t in range(52):
                        if loc[t] != STUB or not mask[t] & bit:
                            continue
                        c = st.ident[t]
                        named_at = self.req_steps.get(c) if c >= 0 else None
                        if named_at is not None:
                            x = bisect_right(named_at, j)
                            if x < len(named_at) and (
                                named_at[x] < d or not self._allowed(c, x)[d] & 1 << STUB
                            ):
                                continue  # it must leave the stub before then
                        mine += 1
                if others > self.cum[d] - self.cum[j + 1] or (
                    next_g[j + 1] == d and mine < self.left[d]
                ):
                    self._fail(
                        j,
                        f"{self._where(j)}the stub cannot hold only p{k + 1}'s own discards "
                        "where a new stub forms",
                    )
                    return False
        # each named card a player must hold that he does not hold now needs a deal of its
        # own to him (face down) before then; with the new stubs recorded, a player keeps
        # at most so many cards through his next discard: the named cards he must hold
        # after it must fit (he is never dealt back a card he threw, unless the stub may
        # hold nothing but his own discards then)
        keep = [0] * n
        extra = [0] * n  # named cards in his hand that a player who shows later must throw
        need: list[list[int]] | None = None
        nd = self.next_discard[j + 1]
        for c, t in enumerate(st.tok):
            if t < 0:
                continue
            where = loc[t]
            if 2 <= where < 2 + n and where - 2 in self.shown:
                k = where - 2
                if c not in self.shown[k] and self.shows[k] > j:
                    extra[k] += 1
                    if extra[k] > self.throws[k][j + 1]:
                        self._fail(
                            j,
                            f"{self._where(j)}p{k + 1} cannot throw every card he does not show",
                        )
                        return False
            r = self._next_req(c, j)
            if r is not None and r[1] == "hold" and where != 2 + r[2]:
                if need is None:
                    need = [[] for _ in range(n)]
                need[r[2]].append(r[0])
            if self.fixed is None or not 2 <= where < 2 + n:
                continue
            k = where - 2
            d = nd[k][0]
            after = self._next_req(c, d)
            if (
                after is not None
                and after == r
                and after[1] == "hold"
                and after[2] == k
                and not self._between(self.own_ok[k], d, after[0] + 1)
            ):
                keep[k] += 1
                if keep[k] > nd[k][1]:
                    self._fail(
                        j,
                        f"{self._where(j)}p{k + 1} cannot keep {CARD_TEXT[c]} through "
                        "his next discard",
                    )
                    return False
        if self.fixed is not None and not self._left_fits(st, j):
            self._fail(
                j,
                f"{self._where(j)}the stub cannot keep every card the history names after "
                "the next new stub",
            )
            return False
        if self.fixed is not None and not self._spares_fit(st, j):
            self._fail(j, f"{self._where(j)}the cards nobody shows cannot all be let go")
            return False
        if (
            self.matching
            and (self.fixed is not None or not self.pokerstars)
            and self.steps[j].kind not in _FORCED
            and not self._stubs_fit(st, j)
        ):
            self._fail(
                j, f"{self._where(j)}the stub cannot hold the cards the history deals from it"
            )
            return False
        if self.fixed is not None and not self._jokers_suffice(st, j):
            self._fail(j, f"{self._where(j)}the stub cannot hold every card the players show")
            return False
        # the named cards a player cannot keep past his next discard are thrown there:
        # at most its unknown cards
        throw: list[int] | None = None
        nd = self.next_discard[j + 1]
        for c, t in enumerate(st.tok):
            w = loc[t] if t >= 0 else -1
            if not 2 <= w < 2 + n:
                continue
            k = w - 2
            d = nd[k][0]
            named_at = self.req_steps.get(c)
            if d >= len(self.steps) or named_at is None:
                continue
            x = bisect_right(named_at, j)
            if x == len(named_at):
                continue
            if (
                self.fixed is not None
                and named_at[x] == self._next_req_hold(c, x, k)
                and self.hand_out[k][j + 1] < named_at[x]
                and not self._between(self.own_ok[k], j, named_at[x] + 1)
            ):
                # he lets go of it before he holds it next: never dealt back to him
                self._fail(j, f"{self._where(j)}{CARD_TEXT[c]} cannot reach p{k + 1}")
                return False
            if named_at[x] <= d or self._allowed(c, x)[d + 1] >> w & 1:
                continue
            if throw is None:
                throw = [0] * n
            throw[k] += 1
            if throw[k] > self.steps[d].cards.count(None):
                self._fail(
                    j, f"{self._where(j)}p{k + 1} cannot throw {CARD_TEXT[c]} at his next discard"
                )
                return False
        for k, shows_at in self.shows.items():
            # a player who shows his whole hand holds then every named card he shows:
            # each he does not hold now is dealt to him before then
            if shows_at <= j:
                continue
            missing: list[int] = []
            for c in self.shown[k]:
                t = st.tok[c]
                if t >= 0 and loc[t] != 2 + k and not self._dealt_up(c, k, j):
                    missing.append(c)
            if missing and (
                len(missing) > self.udeal[k][shows_at] - self.udeal[k][j + 1]
                or (self.matching and not self._shown_dealt(st, j, k, missing))
            ):
                self._fail(j, f"{self._where(j)}p{k + 1} cannot be dealt every card he shows")
                return False
        if need is not None:
            for k, ats in enumerate(need):
                if not ats:
                    continue
                ats.sort()
                row = self.udeal[k]
                for x, at in enumerate(ats):
                    if row[at] - row[j + 1] <= x:
                        self._fail(
                            j, f"{self._where(j)}p{k + 1} cannot be dealt every card he shows"
                        )
                        return False
        gather: list[int] | None = None
        for c, t in enumerate(st.tok):
            if t < 0:
                continue
            steps = self.req_steps.get(c)
            x = 0 if steps is None else bisect_right(steps, j)
            where = loc[t]
            if steps is None or x == len(steps):
                show = self.shows.get(where - 2) if 2 <= where < 2 + n else None
                if (
                    show is not None
                    and show > j
                    and not self._between(self.exits[where - 2], j, show)
                ):
                    self._fail(
                        j,
                        f"{self._where(j)}p{where - 1} cannot hold {CARD_TEXT[c]} at the showdown",
                    )
                    return False
                continue
            req = self.req[c][x]
            if self.fixed is not None and st.mask[t]:
                # a player who threw it is never dealt it again while the stub holds
                # other cards
                mk = st.mask[t]
                for at, _kind, p in self.req[c][x:]:
                    if (
                        mk >> p & 1
                        and where != 2 + p
                        and not self._between(self.own_ok[p], j, at + 1)
                    ):
                        self._fail(j, f"{self._where(j)}{CARD_TEXT[c]} cannot reach p{p + 1}")
                        return False
            if not self._allowed(c, x)[j + 1] >> where & 1:
                _at, kind, p = req
                what = (
                    "be in the stub when the history deals it"
                    if kind == "deal"
                    else (f"reach p{p + 1}")
                )
                self._fail(j, f"{self._where(j)}{CARD_TEXT[c]} cannot {what}")
                return False
            if self.pokerstars and where != (STUB if req[1] == "deal" else 2 + req[2]):
                # on its way: when new stubs can form depends on this position
                if gather is None:
                    gather = self._gathers(st, j)
                if self.fixed is not None:  # the same for every position: looked up
                    key = (j, where, req)
                    ok = self._fwd.get(key)
                    if ok is None:
                        ok = self._fwd[key] = self._forward(gather, j, where, req)
                else:
                    ok = self._forward(gather, j, where, req)
                if not ok:
                    self._fail(
                        j,
                        f"{self._where(j)}{CARD_TEXT[c]} cannot get where the history "
                        "names it next",
                    )
                    return False
        return True

    def _fixed_gathers(self) -> list[int]:
        """Under "pokerstars" with the new stubs recorded: per step, 2 where a new stub
        forms (by the counts or where the history records one), else 0. Sets
        :attr:`fixed` to None if the record does not fit the counts."""
        n = self.n
        fixed = self.fixed
        stubs = self.stubs
        assert fixed is not None and stubs is not None
        used: set[int] = set()
        unfit = False
        stub = 52 - 5 * n
        out = 0
        hand = [5] * n
        table = [0] * n
        steps = self.steps
        g = [0] * (len(steps) + 1)
        threw = [0] * n
        #: per player, the deal steps where the stub may hold nothing but cards he threw
        #: (with nothing out of play: he is dealt one of them)
        self.own_ok = [[] for _ in range(n)]
        #: the deal and burn steps that take the last card of the stub
        self.last_card: set[int] = set()
        #: per step where a new stub forms, the cards left in the old one, and the size
        #: of the new one
        self.left = {}
        self.new_size = {}
        for d, (kind, k, act, cards, count, nth) in enumerate(steps):
            if kind in _MOVES:
                out += _count_move(kind, k, cards, hand, table)
                if kind == DISCARD:
                    threw[k] += len(cards)
            elif kind in (DEAL, BURN):
                counted = not stub or (kind == DEAL and nth == 0 and count > stub)
                if counted and kind == DEAL:
                    used.add(act)
                    if stubs.get(act, stub + out) != stub + out:
                        unfit = True  # the record gives another size
                elif kind == DEAL and out and stubs.get(act) == stub + out and act not in used:
                    # the stub holds only his own discards here: a new stub forms
                    used.add(act)
                    fixed.add(d)
                if counted or d in fixed:
                    g[d] = 2
                    self.left[d] = stub
                    if not counted:
                        self.crowd[d] = k
                    stub += out
                    out = 0
                    self.new_size[d] = stub
                if kind == DEAL and not out and stub <= threw[k] - table[k]:
                    self.own_ok[k].append(d)
                if stub == 1:
                    self.last_card.add(d)
                stub -= 1
                if kind == BURN:
                    out += 1
                else:
                    hand[k] += 1
        if unfit or not used >= set(stubs):
            self.fixed = None  # a recorded new stub the counts do not allow: not used
        #: the cards left in the stub when the hand ends
        self.stub_end = stub
        self._out_rows()
        # per step, the face-down deals and burns from it on that can take a card nobody
        # names again: to a player who throws or folds after it, or shows no whole hand
        self.sinks = [0] * (len(steps) + 1)
        #: ... per player: those that deal to him
        self.sinks_to = [[0] * (len(steps) + 1) for _ in range(n)]
        for d in range(len(steps) - 1, -1, -1):
            kind, k, _i, cards, _count, _nth = steps[d]
            sink = kind == BURN
            if kind == DEAL and cards[0] is None:
                show = self.shows.get(k)
                sink = show is None or self._between(self.exits[k], d, show)
            self.sinks[d] = self.sinks[d + 1] + sink
            for p, row in enumerate(self.sinks_to):
                row[d] = row[d + 1] + (sink and kind == DEAL and p == k)
        return g

    def _spares_fit(self, st: _State, j: int) -> bool:
        """With the new stubs recorded: the cards in the stub, or on their way into it,
        that the history never names again end the hand in the last stub, out of play
        after the last new stub, or dealt to a player who lets them go or shows no whole
        hand (they cannot be in a hand shown whole)."""
        n = self.n
        loc = st.loc
        mask = st.mask
        # the cards in the stub or out of play that nobody names again end the hand
        # in the last stub, out of play, or dealt to a player who lets them go
        size = len(self.steps)
        # such cards per (the players who threw them so far, and all who threw them by
        # the time they join the stub, -1 if not known yet)
        spare: dict[tuple[int, int], int] = {}
        joins: dict[int, dict[tuple[int, int], int]] = {}  # gather step -> cards joining there
        last = self.last_req
        next_g = self.next_g
        steps = self.steps
        for c, t in enumerate(st.tok):
            mk = mask[t] if t >= 0 else 0
            final = mk
            at_last = last[c]
            if at_last > j:
                # named later for the last time: where it goes from there is known (who
                # else throws it before then is not)
                kind, p = steps[at_last].kind, steps[at_last].player
                final = -1
                if kind == DISCARD:
                    gone = self.table_out[p][at_last]
                    mk |= 1 << p
                    if t >= 0 and loc[t] == 2 + p and self.next_discard[j + 1][p][0] == at_last:
                        final = mk  # he holds it until then
                elif kind == DEAL:
                    gone = self._let_go(c, p, at_last)
                else:
                    continue
            elif t < 0:
                continue
            else:
                w = loc[t]
                if w == STUB:
                    spare[mk, mk] = spare.get((mk, mk), 0) + 1
                    continue
                if w == OUT:
                    gone = j
                elif w < 2 + n:
                    gone = self._let_go(c, w - 2, j)
                    final |= 1 << (w - 2)  # he may throw it
                else:
                    gone = self.table_out[w - 2 - n][j + 1]
            if gone < size:
                d = next_g[gone + 1]
                if d < size:
                    at = joins.setdefault(d, {})
                    at[mk, final] = at.get((mk, final), 0) + 1
        # out of play, they join the stub where the next new stub forms; in the stub
        # they are dealt to players who let them go (never to one who threw them), or
        # stay in it: at most what is left of it where the next new stub forms, and at
        # the end
        cards = spare
        carry = 0  # cards kept from the stub before (whichever they are)
        start = j + 1
        d = next_g[j + 1]
        while True:
            k = self.crowd.get(d, -1)
            if k >= 0:
                # the stub then holds only p(k+1)'s own discards: the others are dealt
                mine: dict[int, int] = {}
                for (mk, final), v in cards.items():
                    if final >= 0 and not final >> k & 1:
                        mine[mk] = mine.get(mk, 0) + v
                if mine and self._kept(mine, 0, start, d):
                    return False
            by_mask: dict[int, int] = {}
            for (mk, _final), v in cards.items():
                by_mask[mk] = by_mask.get(mk, 0) + v
            carry = self._kept(by_mask, carry, start, d)
            if d == size:
                return carry <= self.stub_end
            if carry > self.left[d]:
                return False
            cards = joins.get(d, {})
            start = d
            d = next_g[d + 1]

    def _left_fits(self, st: _State, j: int) -> bool:
        """With the new stubs recorded: a named card in the stub that the history names
        next only after the next new stub forms, and that no deal before then can send
        on its way, is left in the stub until then; the same for each new stub after it,
        with the cards joining it (out of play, on a table, in a hand thrown or folded
        whole, or held until the holder's next discard, which names it: followed from
        there). Where each new stub forms, they fit in what is left of the old one."""
        size = len(self.steps)
        next_g = self.next_g
        if next_g[j + 1] >= size:
            return True
        stay: dict[int, int] = {}
        loc = st.loc
        n = self.n
        for c, t in enumerate(st.tok):
            if t < 0:
                continue
            at = self.req_steps.get(c)
            if at is None:
                continue
            x = bisect_right(at, j)
            if x == len(at):
                continue
            r = at[x]
            w = loc[t]
            mk = st.mask[t]  # the players who threw it when it is in the stub
            if w == STUB:
                s = j + 1
            else:
                if w == OUT:
                    gone = j
                elif w < 2 + n:
                    k = w - 2
                    mk |= 1 << k
                    gone = self._hand_gone(k, j)
                    d = self.next_discard[j + 1][k][0]
                    if d == r and self.steps[d].kind == DISCARD and c in self.steps[d].cards:
                        # his next discard names it: its way from there is known
                        x += 1
                        if x == len(at):
                            continue
                        r = at[x]
                        gone = self.table_out[k][d]
                    elif d < min(gone, r) and not self._allowed(c, x)[d + 1] >> w & 1:
                        gone = self.table_out[k][d]  # he must throw it then
                else:
                    gone = self.table_out[w - 2 - n][j + 1]
                if gone >= r:
                    continue
                s = next_g[gone + 1]  # it joins the stub there
                if s >= size:
                    continue
            allowed = self._allowed(c, x)
            # the stub's next new stub: from the next step (in it now), or after the
            # new stub it joins
            e = next_g[s] if w == STUB else next_g[s + 1]
            while e < size and r >= e:
                if any(allowed[d + 1] >> p & 1 for d, p in self._outlets(s, e)):
                    break
                stay[e] = stay.get(e, 0) + 1
                if stay[e] > self.left[e]:
                    return False
                k = self.crowd.get(e, -1)
                if k >= 0 and not mk >> k & 1:
                    return False  # the stub then holds only p(k+1)'s own discards
                s = e
                e = next_g[s + 1]
        return True

    def _shown_dealt(self, st: _State, j: int, k: int, cards: list[int]) -> bool:
        """The named cards p(k+1) shows (his whole hand) that he does not hold after step
        ``j`` each take a face-down deal of their own to him before then: one after the
        card's last requirement before the show (if it is another player's), from which
        it can get into his hand (Hall's condition, by matching)."""
        places = tuple(st.loc[st.tok[c]] for c in cards)
        key = (j, k, *cards, *places)
        got = self._dealt.get(key)
        if got is not None:
            return got
        show = self.shows[k]
        deals = self.face_down[k]
        mine = deals[bisect_right(deals, j) : bisect_right(deals, show)]
        wants: list[list[int]] = []
        n = self.n
        got = True
        for c, place in zip(cards, places, strict=True):
            reqs = self.req[c]
            x = bisect_right(self.req_steps[c], j)
            y = x
            while reqs[y][0] < show:
                y += 1
            start = j + 1
            if y > x:
                at, kind, p = reqs[y - 1]
                if p == k:
                    continue  # he gets it on the way
                start = at + 1
                step = self.steps[at]
                thrown = kind == "hold" and step.kind == DISCARD and c in step.cards
                place = 2 + n + p if thrown else 2 + p
            ok = [
                i
                for i, d in enumerate(mine)
                if d >= start and self._reach_of((d + 1, "hold", k))[start] >> place & 1
            ]
            if not ok:
                got = False
                break
            wants.append(ok)
        if got:
            owner = [-1] * len(mine)
            got = all(_augment(v, wants, owner, [False] * len(mine)) for v in range(len(wants)))
        self._dealt[key] = got
        return got

    def _next_req_hold(self, c: int, x: int, k: int) -> int:
        """The step of requirement ``x`` of card ``c`` if p(k+1) must hold it then, else -1."""
        at, kind, p = self.req[c][x]
        return at if kind == "hold" and p == k else -1

    def _dealt_up(self, c: int, k: int, j: int) -> bool:
        """Whether the history deals card ``c`` to p(k+1) face up after step ``j``."""
        return any(at > j and kind == "deal" and p == k for at, kind, p in self.req[c])

    def _outlets(self, start: int, end: int) -> list[tuple[int, int]]:
        """The face-down deals and burns from step ``start`` to ``end``: (step, where the
        card goes)."""
        key = (start, end)
        got = self._outs.get(key)
        if got is None:
            got = []
            for e in range(start, end):
                kind, p, _i, cards, _count, _nth = self.steps[e]
                if kind == BURN:
                    got.append((e, OUT))
                elif kind == DEAL and cards[0] is None:
                    got.append((e, 2 + p))
            self._outs[key] = got
        return got

    def _hand_gone(self, k: int, j: int) -> int:
        """The step from which a card in p(k+1)'s hand after step ``j`` is surely out of
        play, if he cannot let go of it before then (he folds or throws all five at his
        next discard that may throw it); else the number of steps."""
        gone = self.hand_out[k][j + 1]
        exits = self.exits[k]
        x = bisect_right(exits, j)
        if x < len(exits) and exits[x] != self.hand_thrown[k][j + 1]:
            return len(self.steps)  # he may throw it before then, and it joins a stub earlier
        return gone

    def _let_go(self, c: int, k: int, j: int) -> int:
        """The step from which card ``c``, in p(k+1)'s hand after step ``j`` and never
        named again, is surely out of play, not before: he folds or throws all five
        (:meth:`_hand_gone`); or he shows his whole hand without it and has one discard
        left before then, which throws it (the number of steps if not known)."""
        gone = self._hand_gone(k, j)
        show = self.shows.get(k)
        if gone < len(self.steps) or show is None or show <= j or c in self.shown[k]:
            return gone
        d = self.next_discard[j + 1][k][0]
        if d < show and self.next_discard[d + 1][k][0] > show:
            return self.table_out[k][d]
        return gone

    def _kept(self, cards: dict[int, int], carry: int, start: int, end: int) -> int:
        """How many of the cards nobody names again (``cards`` per mask of the players who
        threw them, and ``carry`` others) the stub must keep from step ``start`` to step
        ``end``, at least: those that the deals to players who let them go cannot take,
        a player never taking a card he threw (Hall's condition)."""
        total = carry + sum(cards.values())
        free = self.sinks[start] - self.sinks[end]
        kept = total - free
        if not cards:
            return max(0, kept)
        # the players a card he threw cannot be dealt to between these steps
        takes = [row[start] - row[end] for row in self.sinks_to]
        strict = 0
        for k, m in enumerate(takes):
            if m and not self._between(self.own_ok[k], start - 1, end):
                strict |= 1 << k
        groups: dict[int, int] = {}
        for mk, count in cards.items():
            mk &= strict
            if mk:
                groups[mk] = groups.get(mk, 0) + count
        # every intersection of the masks (the sets whose neighbours Hall's condition
        # counts)
        meets = set(groups)
        todo = list(meets)
        while todo:
            a = todo.pop()
            for b in list(meets):
                m = a & b
                if m and m not in meets:
                    meets.add(m)
                    todo.append(m)
        for a in meets:
            count = sum(v for mk, v in groups.items() if mk & a == a)
            barred = sum(takes[k] for k in range(self.n) if a >> k & 1)
            kept = max(kept, count - (free - barred))
        return max(0, kept)

    def _stubs_fit(self, st: _State, j: int) -> bool:
        """Where the new stubs form is known (the default rule and "pokerkit": where the
        stub runs out; "pokerstars": as recorded): the cards in the stub now are the
        cards the deals and burns take until the next new stub forms and the cards left
        in it then (as many as the counts say: none where it runs out); with the pool
        then, those left are the cards of the new stub, which the deals take until the
        one after it forms, or are left in it then; and so on to the end of the hand. Of
        the cards joining each new stub, those sure to join it are known (out of play
        now, on a table that joins the pool then, in a hand whose holder surely lets go
        of them at a known discard or fold); the unknown cards a player throws at his
        next discard are some of his cards now; the rest are placeholders (under
        "pokerstars", those thrown at a discard never dealt back to the player who threw
        them unless the stub may hold only his own discards then). There is a way to
        give each card one of those places (Hall's condition, by matching:
        :meth:`_places`)."""
        plan = self._stub_plans.get(j)
        if plan is None:
            plan = self._stub_plans[j] = self._stub_plan(j)
        ends, joins, hands, whole, choose, draws, bases, discards = plan
        loc = st.loc
        ident = st.ident
        mask = st.mask
        last = self.last_req
        n = self.n
        steps = self.steps
        stubs = len(ends)
        toks: list[tuple[int, int, int]] = []  # (segment, card or -1/-2, mask)
        optional: list[list[tuple[int, int, int]]] = [[] for _ in range(n)]
        counts = [0] * (stubs + 1)
        leave: dict[int, int] = {}  # per discard: the cards counted here that it throws
        for t in range(52):
            w = loc[t]
            c = ident[t]
            mk = mask[t]
            if w == STUB:
                e = 0
            elif 2 <= w < 2 + n:
                k = w - 2
                e, gone, e_joker = hands[k]
                at = whole[k]
                if c < 0:
                    e = e_joker
                elif last[c] > j:
                    nxt = self.req_steps[c][bisect_right(self.req_steps[c], j)]
                    if nxt < gone:
                        e = 0  # named before then: it may leave his hand there
                        if steps[nxt].kind == DISCARD and c in steps[nxt].cards:
                            # his discard names it: it joins the pool from there
                            e = self._segment_at(ends, self._join(k, nxt))
                            at = nxt
                if e == 0:
                    d, e_d, _m = choose[k]
                    if d >= 0 and c not in steps[d].cards:
                        # one he may throw at his next discard
                        c = -2 if c >= 0 and last[c] < ends[e_d - 1] else c
                        optional[k].append((e_d, c, (mk | self.bits[k]) & draws[e_d]))
                    continue
                if e >= stubs:
                    continue  # it joins no stub (the hand ends first)
                if at >= 0:  # he throws it
                    leave[at] = leave.get(at, 0) + 1
                    mk |= self.bits[k]
            else:
                e = joins[w]
                if e == 0 or e >= stubs:
                    continue  # not known where it joins, or no stub it joins
            start = j if e == 0 else ends[e - 1] - 1
            toks.append((e, -2 if c >= 0 and last[c] <= start else c, mk & draws[e]))
            counts[e] += 1
        # the placeholders per stub: first those thrown at the discards before it forms
        held: list[tuple[int, int, int]] = []  # (stub, player who threw it, how many)
        slack = [0, *(bases[e] - counts[e] for e in range(1, stubs))]
        if min(slack) < 0:
            return False
        chosen: list[tuple[int, int, list[tuple[int, int, int]]]] = []  # (player, throws, cards)
        for d, k, e, size in discards:
            thrown = size - leave.get(d, 0)
            if choose[k][0] == d and len(optional[k]) >= choose[k][2]:
                # the unknown cards he throws are some of his cards now
                m = choose[k][2]
                if m > slack[e]:
                    return False
                chosen.append((k, m, sorted(optional[k])))
                thrown -= m
                slack[e] -= m
            m = min(thrown, slack[e]) if self.pokerstars else 0
            if m > 0:
                held.append((e, k, m))
                slack[e] -= m
        toks.sort()
        key = (j, *slack, *held, *toks, *((k, m, *cards) for k, m, cards in chosen))
        got = self._matched.get(key)
        if got is None:
            got = self._matched[key] = self._match_stubs(st, j, ends, toks, slack, held, chosen)
        return got

    def _stub_plan(self, j: int) -> tuple[Any, ...]:
        """What :meth:`_stubs_fit` knows after step ``j`` whatever the position: the steps
        where the next new stubs form (the number of steps last); per place, the new stub
        (index in them, plus 1) the cards there surely join (0: not known); per player,
        for the cards in his hand (a card nobody names again, then the step he surely
        lets go of them, then for a joker, which a discard naming cards may name too),
        his discard that throws his whole hand (-1: none), and his next discard of
        unknown cards if it throws some of his cards now (nobody deals him a card before
        then): (the step, the stub they join, how many; -1 if none); per stub, the
        players dealt from its start on and how many cards join it; the discards whose
        cards join a stub."""
        size = len(self.steps)
        n = self.n
        next_g = self.next_g
        ends = [next_g[j + 1]]
        while ends[-1] < size:
            ends.append(next_g[ends[-1] + 1])
        joins = [0] * (2 + 2 * n)
        joins[OUT] = 1
        hands: list[tuple[int, int, int]] = []
        whole: list[int] = []
        for k in range(n):
            if self.pool_all:
                joins[2 + n + k] = 1  # the pool takes the tables too
            else:
                served = self.table_out[k][j + 1]
                if served < size:
                    joins[2 + n + k] = self._segment_at(ends, next_g[served + 1])
            gone = self._hand_gone(k, j)
            at = self.hand_thrown[k][j + 1]
            by_discard = at < size and self.steps[at].kind == DISCARD
            whole.append(at if by_discard else -1)
            e = 0
            if gone < size:
                e = self._segment_at(ends, self._join(k, at) if by_discard else next_g[gone + 1])
            sure = self.next_discard[j + 1][k][0] >= at
            hands.append((e, gone, e if sure else 0))
        choose: list[tuple[int, int, int]] = []
        for k in range(n):
            d = self.next_discard[j + 1][k][0]
            if d < size and d != whole[k] and not self._between(self.deals_to[k], j, d):
                m = self.steps[d].cards.count(None)
                e = self._segment_at(ends, self._join(k, d))
                if m and 0 < e < len(ends):
                    choose.append((d, e, m))
                    continue
            choose.append((-1, 0, 0))
        # per stub: the players dealt from its start on (who threw a card matters only
        # to them), and how many cards join it
        draws = [self.drawing[j + 1], *(self.drawing[g] for g in ends[:-1])]
        bases = [0, *(self.new_size[g] - self.left[g] for g in ends[:-1])]
        # the discards whose cards join a stub: (step, player, stub, how many cards)
        discards: list[tuple[int, int, int, int]] = []
        for d in self._discards_from(j + 1, ends[-1]):
            k = self.steps[d].player
            e = self._segment_at(ends, self._join(k, d))
            if 0 < e < len(ends):
                discards.append((d, k, e, len(self.steps[d].cards)))
        return ends, joins, hands, whole, choose, draws, bases, discards

    def _join(self, k: int, d: int) -> int:
        """The step where the cards p(k+1) throws at discard step ``d`` join a new stub
        (the number of steps if none forms after)."""
        if self.pool_all:
            return self.next_g[d + 1]  # from his table
        served = self.table_out[k][d]
        return self.next_g[served + 1] if served < len(self.steps) else served

    @staticmethod
    def _segment_at(ends: list[int], g: int) -> int:
        """The index (plus 1) in ``ends`` of the new stub forming at step ``g`` (0 if it
        is not one of them)."""
        for e, end in enumerate(ends):
            if end == g:
                return e + 1
        return 0

    def _deals_from(self, start: int, end: int) -> list[int]:
        """The deal and burn steps from ``start`` to ``end``."""
        cum = self.cum
        return self.deal_steps[cum[start] : cum[end]]

    def _discards_from(self, start: int, end: int) -> list[int]:
        """The discard steps from ``start`` to ``end``."""
        steps = self.discard_steps
        return steps[bisect_left(steps, start) : bisect_left(steps, end)]

    def _match_stubs(
        self,
        st: _State,
        j: int,
        ends: list[int],
        toks: list[tuple[int, int, int]],
        slack: list[int],
        held: list[tuple[int, int, int]],
        chosen: list[tuple[int, int, list[tuple[int, int, int]]]],
    ) -> bool:
        # the places: per stub, its deals; then the cards left in the last stub
        firsts: list[int] = []  # per stub, its first place
        segs: list[list[int]] = []
        start = j + 1
        places = 0
        for end in ends:
            firsts.append(places)
            deals = self._deals_from(start, end)
            segs.append(deals)
            places += len(deals)
            start = end
        firsts.append(places)
        places += self.stub_end
        thrown = sum(m for _k, m, _cards in chosen)
        if len(toks) + sum(slack) + sum(m for _e, _k, m in held) + thrown != places:
            # the counts fix the stubs' sizes: a bookkeeping error if this happens (the
            # check is skipped, never failed; the tests assert it never happens)
            self.unbalanced += 1
            return True
        # then, per player who throws some of his cards now, places for those he keeps
        kept: list[range] = []
        for _k, m, cards in chosen:
            kept.append(range(places, places + len(cards) - m))
            places += len(cards) - m
        wants: list[list[int]] = []
        seen: dict[tuple[int, int, int], list[int]] = {}
        for cls in toks:
            ok = seen.get(cls)
            if ok is None:
                ok = seen[cls] = self._places(st, cls, j, ends, segs, firsts)
            if not ok:
                return False
            wants.append(ok)
        for e, k, m in held:
            ok = []
            for x in range(e, len(ends)):
                for y, d in enumerate(segs[x]):
                    kind, p = self.steps[d].kind, self.steps[d].player
                    if kind != DEAL or p != k or d in self.own_set[k]:
                        ok.append(firsts[x] + y)
            ok.extend(range(firsts[-1], firsts[-1] + self.stub_end))
            wants.extend([ok] * m)
        for (_k, _m, cards), keep in zip(chosen, kept, strict=True):
            for cls in cards:
                wants.append([*self._places(st, cls, j, ends, segs, firsts), *keep])
        real = firsts[-1] + self.stub_end
        for e in range(1, len(ends)):
            wants.extend([list(range(firsts[e], real))] * slack[e])
        return _matches_all(wants, places)

    def _places(
        self,
        st: _State,
        cls: tuple[int, int, int],
        j: int,
        ends: list[int],
        segs: list[list[int]],
        firsts: list[int],
    ) -> list[int]:
        """The places (:meth:`_match_stubs`) a card can take, in the stub from stub
        ``cls[0]`` on (``cls``: also the card, -1 a joker, -2 a card nobody names again;
        the players dealt later who threw it): a deal or burn - never a deal to a player
        who threw it unless the stub may hold only his own discards then, for a named
        card one from which it can still get where the history names it next, for a
        card nobody names again none to a player who keeps it until he shows his whole
        hand without it - or, left in the stub where the next new stub forms (where the
        stub holds only a player's own discards, only one he threw; a named card only if
        it can be in the stub then), the places of the new stub. Kept per step and card:
        the same for every position."""
        key = (j, *cls)
        ok = self._options.get(key)
        if ok is not None:
            return ok
        ok = self._options[key] = []
        steps = self.steps
        size = len(steps)
        e, c, mk = cls
        allowed = None
        at = size
        if c >= 0:
            x = bisect_right(self.req_steps[c], j if e == 0 else ends[e - 1] - 1)
            at = self.req[c][x][0]
            allowed = self._allowed(c, x)
        while True:
            for y, d in enumerate(segs[e]):
                kind, k, _i, cards, _count, _nth = steps[d]
                if kind == DEAL and cards[0] is not None:
                    named = cards[0]
                    if named == c or (
                        c == -1
                        and st.tok[named] < 0
                        and not (mk >> k & 1 and d not in self.own_set[k])
                    ):
                        ok.append(firsts[e] + y)
                    continue
                if kind == DEAL and mk >> k & 1 and d not in self.own_set[k]:
                    continue  # he threw it
                if c == -2 and self.closed[d]:
                    continue
                if allowed is not None:
                    dest = OUT if kind == BURN else 2 + k
                    if d >= at or not allowed[d + 1] >> dest & 1:
                        continue
                ok.append(firsts[e] + y)
            g = ends[e]
            crowd = self.crowd.get(g, -1)
            if crowd >= 0 and not mk >> crowd & 1:
                return ok  # the stub then holds only p(crowd+1)'s own discards
            if allowed is not None and not (g < size and g <= at and allowed[g] & 1 << STUB):
                return ok
            e += 1
            if e == len(ends):
                ok.extend(
                    range(firsts[e], firsts[e] + (self.left[g] if g < size else self.stub_end))
                )
                return ok

    def _jokers_suffice(self, st: _State, j: int) -> bool:
        """With the new stubs recorded: a player who keeps every card he is dealt until
        he shows his whole hand is dealt only cards he shows; those dealt before the next
        new stub forms are in the stub now, and those the history has not placed yet are
        placeholders there that he did not throw (Hall's condition over such players)."""
        n = self.n
        steps = len(self.steps)
        loc = st.loc
        start = j + 1
        d_end = self.next_g[start]
        pool = [False] * (2 + 2 * n)  # the places the stub draws on then
        pool[STUB] = True
        if d_end < steps and all(row[d_end] == row[start] for row in self.udeal):
            # no deal before the next new stub forms: the deals after it, from a stub that
            # holds the cards in the stub or out of play now, and those let go before it
            start = d_end
            d_end = self.next_g[start + 1]
            pool[OUT] = True
            for k in range(n):
                pool[2 + n + k] = self.table_out[k][j + 1] < start
                pool[2 + k] = self.hand_out[k][j + 1] < start
        want: list[tuple[int, int]] = []  # (player bit, placeholders he needs)
        for p, show in self.shows.items():
            if self._between(self.exits[p], j, show):
                continue
            deals = self.udeal[p][d_end] - self.udeal[p][start]
            if not deals or self._between(self.own_ok[p], j, d_end):
                continue
            for c in self.steps[show].cards:
                assert c is not None
                t = st.tok[c]
                if t >= 0 and pool[loc[t]]:
                    deals -= 1
            if deals > 0:
                want.append((1 << p, deals))
        if not want:
            return True
        masks = [st.mask[t] for t in range(52) if pool[loc[t]] and st.ident[t] < 0]
        for sub in range(1, 1 << len(want)):
            bits = need = 0
            for x, (bit, deals) in enumerate(want):
                if sub >> x & 1:
                    bits |= bit
                    need += deals
            if need > sum(1 for m in masks if m & bits != bits):
                return False
        return True

    def _gathers(self, st: _State, j: int) -> list[int]:
        """Under "pokerstars", from this position: per step after ``j``, 2 where a new stub
        surely forms (the stub holds fewer cards than the draw needs, or none), 1 where
        it may (it may hold nothing but the served player's own discards; the counts are
        not known past such a step), 0 where it cannot."""
        if self.fixed is not None:
            return self.g_fixed
        n = self.n
        loc = st.loc
        mask = st.mask
        stub = out = 0
        table = [0] * n
        hand = [0] * n
        mine = [0] * n  # at most this many of a player's own discards in the stub
        every = [0] * n  # the cards a player threw
        for t in range(52):
            w = loc[t]
            if w == STUB:
                stub += 1
            elif w == OUT:
                out += 1
            elif w < 2 + n:
                hand[w - 2] += 1
            else:
                table[w - 2 - n] += 1
            m = mask[t]
            k = 0
            while m:
                if m & 1:
                    mine[k] += w == STUB
                    every[k] += 1
                m >>= 1
                k += 1
        steps = self.steps
        g = [0] * (len(steps) + 1)
        for d in range(j + 1, len(steps)):
            kind, k, _i, cards, count, nth = steps[d]
            if kind in _MOVES:
                out += _count_move(kind, k, cards, hand, table)
                if kind == DISCARD:
                    every[k] += len(cards)  # they may join the stub at a new stub
            elif kind in (DEAL, BURN):
                if not stub or (kind == DEAL and nth == 0 and count > stub):
                    g[d] = 2
                    stub += out
                    out = 0
                    mine = every
                elif kind == DEAL and out and stub <= mine[k]:
                    for e in range(d, len(steps)):
                        g[e] = 1
                    return g
                stub -= 1
                if kind == BURN:
                    out += 1
                else:
                    hand[k] += 1
        return g

    def _forward(self, g: list[int], j: int, where: int, req: tuple[int, str, int]) -> bool:
        """Under "pokerstars": whether a card at ``where`` after step ``j`` can get to where
        ``req`` names it (on its own), with new stubs only where ``g`` allows them."""
        n = self.n
        at, kind, p = req
        a = 1 << where
        stub, out = 1 << STUB, 1 << OUT
        steps = self.steps
        for d in range(j + 1, at + 1):
            kind_d, k, _i, cards, _count, _nth = steps[d]
            if kind_d in (DEAL, BURN):
                if g[d] == 2 and a & out:
                    a = (a & ~out) | stub
                elif g[d] == 1 and a & out:
                    a |= stub
                if d == at:
                    break
                if a & stub and (kind_d == BURN or cards[0] is None):
                    a |= out if kind_d == BURN else 1 << (2 + k)
                if self.fixed is not None and d in self.last_card:
                    a &= ~stub  # the stub's last card is dealt
            elif d == at:
                break
            elif kind_d == FOLD:
                hand = 1 << (2 + k)
                if a & hand:
                    a = (a & ~hand) | out
            elif kind_d == SERVED:
                table = 1 << (2 + n + k)
                if a & table:
                    a = (a & ~table) | out
            elif kind_d == DISCARD:
                hand = 1 << (2 + k)
                if a & hand and any(cd is None for cd in cards):
                    a |= 1 << (2 + n + k)
                if len(cards) == 5:
                    a &= ~hand
        if kind == "hold":
            return bool(a >> (2 + p) & 1)
        return bool(a & stub)

    def _cls(self, st: _State, t: int, j: int) -> tuple[int, int]:
        c = st.ident[t]
        if c >= 0 and self.last_req[c] <= j:
            c = -2
        return (c, st.mask[t] & self.drawing[j])

    def _classes(self, st: _State, where: int, j: int) -> dict[tuple[int, int], int]:
        """The tokens at ``where``, one per class (the lowest)."""
        out: dict[tuple[int, int], int] = {}
        loc = st.loc
        for t in range(52):
            if loc[t] == where:
                key = self._cls(st, t, j)
                if key not in out:
                    out[key] = t
        return out

    def _expand(self, st: _State, j: int) -> Iterator[_State]:
        kind, k, _i, cards, _count, nth = self.steps[j]
        n = self.n
        if kind == FOLD:
            s = st.copy()
            for t in range(52):
                if s.loc[t] == 2 + k:
                    s.loc[t] = OUT
            if self._viable(s, j):
                yield s
        elif kind == SERVED:
            s = st.copy()
            for t in range(52):
                if s.loc[t] == 2 + n + k:
                    s.loc[t] = OUT
            if self._viable(s, j):
                yield s
        elif kind == BURN:
            s = st.copy()
            if not self._stub_count(s):
                self._reshuffle(s)
            for t in self._deal_order(s, j, -1, self._classes(s, STUB, j)):
                c = s.copy()
                c.loc[t] = OUT
                c.rec = (c.rec, j, (t,))
                if self._viable(c, j):
                    yield c
        elif kind == DEAL:
            yield from self._deal(st, j, k, cards[0], nth)
        elif kind == DISCARD:
            yield from self._discard(st, j, k, cards)
        else:  # SHOW
            yield from self._show(st, j, k, cards)

    def _stub_count(self, st: _State) -> int:
        return st.loc.count(STUB)

    def _reshuffle(self, st: _State) -> None:
        """The stub is empty: the pool (and under "pokerkit" the discards still on the
        table) forms a new stub."""
        n = self.n
        loc = st.loc
        for t in range(52):
            w = loc[t]
            if w == OUT or (self.pool_all and w >= 2 + n):
                loc[t] = STUB

    def _gather(self, st: _State) -> None:
        loc = st.loc
        for t in range(52):
            if loc[t] == OUT:
                loc[t] = STUB

    def _deal(self, st: _State, j: int, k: int, card: int | None, x: int) -> Iterator[_State]:
        s = st.copy()
        loc = s.loc
        bit = 1 << k
        counted = self.pokerstars and x == 0 and self.steps[j].moved > self._stub_count(s)
        if counted:
            self._gather(s)
        if not self._stub_count(s):
            self._reshuffle(s)
        others = 0
        if self.pokerstars:
            others = sum(1 for t in range(52) if loc[t] == STUB and not s.mask[t] & bit)
            crowded = not others and OUT in loc
            if self.fixed is not None and crowded != (j in self.fixed and not counted):
                self._fail(
                    j,
                    f"{self._where(j)}p{k + 1}: "
                    + (
                        "the stub holds only cards he threw, yet no new stub forms"
                        if crowded
                        else "the stub holds cards he may get, yet a new stub forms"
                    ),
                )
                return
            if crowded:
                self._gather(s)
                others = sum(1 for t in range(52) if loc[t] == STUB and not s.mask[t] & bit)
        if card is not None:
            t = s.tok[card]
            if t >= 0:
                if loc[t] != STUB:
                    self._fail(
                        j,
                        f"{self._where(j)}p{k + 1} cannot receive {CARD_TEXT[card]}: "
                        "it is not in the stub then",
                    )
                    return
                if others and s.mask[t] & bit:
                    self._fail(
                        j,
                        f"{self._where(j)}p{k + 1} cannot receive {CARD_TEXT[card]}: "
                        "he threw it earlier in this hand",
                    )
                    return
                c = s
                c.loc[t] = 2 + k
                c.rec = (c.rec, j, (t,))
                if self._viable(c, j):
                    yield c
                return
            # one of the jokers in the stub is this card
            jokers: dict[int, int] = {}
            for t in range(52):
                if loc[t] == STUB and s.ident[t] < 0:
                    mk = s.mask[t]
                    if others and mk & bit:
                        continue
                    jokers.setdefault(mk, t)
            if not jokers:
                self._fail(
                    j,
                    f"{self._where(j)}p{k + 1} cannot receive {CARD_TEXT[card]}: "
                    "it cannot be in the stub then",
                )
            for t in jokers.values():
                c = s.copy()
                c.ident[t] = card
                c.tok[card] = t
                c.loc[t] = 2 + k
                c.rec = (c.rec, j, (t,))
                if self._viable(c, j):
                    yield c
            return
        classes = self._classes(s, STUB, j)
        if others:
            classes = {key: t for key, t in classes.items() if not s.mask[t] & bit}
        for t in self._deal_order(s, j, k, classes):
            c = s.copy()
            c.loc[t] = 2 + k
            c.rec = (c.rec, j, (t,))
            if self._viable(c, j):
                yield c

    def _deal_order(
        self, st: _State, j: int, k: int, classes: dict[tuple[int, int], int]
    ) -> list[int]:
        """The cards to try for a deal to p(k+1) (``k`` -1: the burn), best first: a card
        he must hold later; a card the history deals later from a stub that runs out
        before then (if he can throw it in time); any other card; a card the history
        deals later from this stub (kept there) last."""
        ranked: list[tuple[int, int, int]] = []
        keep = self._gather_wanted(st, j) if self.pokerstars and self.fixed is None else 0
        for (c, mk), t in classes.items():
            rank = 2
            if c >= 0:
                r = self._next_req(c, j)
                assert r is not None
                at, kind, p = r
                if kind == "hold" and p == k:
                    rank = 0
                elif kind == "hold":
                    # through a hand that throws it; the second order rather keeps it
                    # in the stub
                    rank = 1 if k >= 0 and self._between(self.exits[k], j, at) else 4
                    if self.keep_in_stub:
                        rank = 3
                elif k < 0 or self._between(self.exits[k], j, at):
                    rank = 1 if self._runs_out(st, j, at) else 3
                else:
                    rank = 4
            elif c == -2 and self.fixed is not None and self.sinks[j] > self.sinks[j + 1]:
                rank = 1  # a card nobody names again, to a player who lets it go
            if c < 0 and mk & keep:
                rank = 3  # left in the stub for a new stub to form early
            # the cards most players threw first: fewer players find the stub holding
            # only their own discards later
            ranked.append((rank, -bin(mk).count("1"), t))
        ranked.sort()
        return [t for _r, _b, t in ranked]

    def _gather_wanted(self, st: _State, j: int) -> int:
        """Under "pokerstars": the player (a bit) for whom the stub should hold nothing but his
        own discards when he is served next - a new stub then forms early - because a
        card out of play is needed before the stub runs out by the counts; else 0."""
        g = self._gathers(st, j)
        first = next((d for d in range(j + 1, len(self.steps)) if g[d] == 1), None)
        if first is None:
            return 0
        sure = [x if x == 2 else 0 for x in g]
        n = self.n
        for c, t in enumerate(st.tok):
            if t < 0 or not (st.loc[t] == OUT or st.loc[t] >= 2 + n):
                continue
            r = self._next_req(c, j)
            if r is not None and r[0] > first and not self._forward(sure, j, st.loc[t], r):
                return 1 << self.steps[first].player
        return 0

    def _runs_out(self, st: _State, j: int, at: int) -> bool:
        """Whether the stub may run out between steps ``j`` and ``at`` (by the counts;
        never under "pokerstars", whose new stubs keep what is left of the old one)."""
        if self.fixed is not None:
            return self.next_g[j + 1] <= at
        if self.pokerstars:
            return False
        return self.cum[at] - self.cum[j + 1] >= self._stub_count(st) - 1

    def _discard(
        self, st: _State, j: int, k: int, cards: tuple[int | None, ...]
    ) -> Iterator[_State]:
        n = self.n
        bit = 1 << k
        base = st.copy()
        thrown: list[int] = []
        # the named cards first: each his own, or one of his jokers
        for c in cards:
            if c is None:
                continue
            t = base.tok[c]
            if t >= 0:
                if base.loc[t] != 2 + k:
                    self._fail(
                        j,
                        f"{self._where(j)}p{k + 1} discards {CARD_TEXT[c]}, "
                        "which he cannot hold then",
                    )
                    return
                thrown.append(t)
        named = [c for c in cards if c is not None and base.tok[c] < 0]
        unknown = sum(1 for c in cards if c is None)
        yield from self._throw(base, j, k, named, thrown, unknown, bit, n)

    def _throw(
        self,
        base: _State,
        j: int,
        k: int,
        named: list[int],
        thrown: list[int],
        unknown: int,
        bit: int,
        n: int,
    ) -> Iterator[_State]:
        if named:
            c = named[0]
            jokers: dict[int, int] = {}
            for t in range(52):
                if base.loc[t] == 2 + k and base.ident[t] < 0 and t not in thrown:
                    jokers.setdefault(base.mask[t], t)
            if not jokers:
                self._fail(
                    j,
                    f"{self._where(j)}p{k + 1} discards {CARD_TEXT[c]}, which he cannot hold then",
                )
            for t in jokers.values():
                s = base.copy()
                s.ident[t] = c
                s.tok[c] = t
                yield from self._throw(s, j, k, named[1:], [*thrown, t], unknown, bit, n)
            return
        # the unknown cards thrown: a choice of classes among the rest of his hand
        rest: dict[tuple[int, int], list[int]] = {}
        for t in range(52):
            if base.loc[t] == 2 + k and t not in thrown:
                rest.setdefault(self._cls(base, t, j), []).append(t)
        if sum(len(v) for v in rest.values()) < unknown:
            self._fail(j, f"{self._where(j)}p{k + 1} discards more cards than he holds")
            return
        ranked = sorted(rest.items(), key=lambda kv: self._keep_rank(kv[0], j, k))
        for pick in _multisets([len(v) for _key, v in ranked], unknown):
            s = base.copy()
            out = list(thrown)
            for (_key, toks), m in zip(ranked, pick, strict=True):
                out.extend(toks[:m])
            for t in out:
                s.loc[t] = 2 + n + k
                s.mask[t] |= bit if self.pokerstars else 0
            s.rec = (s.rec, j, tuple(out))
            if self._viable(s, j):
                yield s

    def _keep_rank(self, key: tuple[int, int], j: int, k: int) -> int:
        """How much p(k+1) should throw a card of class ``key`` (low: throw first)."""
        c = key[0]
        if c < 0:
            return 1
        r = self._next_req(c, j)
        assert r is not None
        _at, kind, p = r
        if kind == "hold" and p == k:
            return 3  # he shows or throws it later
        return 0  # it is needed elsewhere

    def _show(self, st: _State, j: int, k: int, cards: tuple[int | None, ...]) -> Iterator[_State]:
        s = st.copy()
        for c in cards:
            if c is None:
                continue
            t = s.tok[c]
            if t >= 0:
                if s.loc[t] != 2 + k:
                    self._fail(
                        j,
                        f"{self._where(j)}p{k + 1} shows {CARD_TEXT[c]}, which he cannot hold then",
                    )
                    return
                continue
            t = next((t for t in range(52) if s.loc[t] == 2 + k and s.ident[t] < 0), -1)
            if t < 0:
                self._fail(
                    j, f"{self._where(j)}p{k + 1} shows {CARD_TEXT[c]}, which he cannot hold then"
                )
                return
            s.ident[t] = c
            s.tok[c] = t
        if self._viable(s, j):
            yield s

    # .. the solution ..

    def _plan(self, st: _State, nodes: int) -> Plan:
        """The cards of every step, the jokers left given the cards nobody named."""
        ident = st.ident[:]
        free = [c for c in range(52) if st.tok[c] < 0]
        # a hand mucked unseen must lose at the showdown: its jokers get pairs, high ranks
        mucked = [a.player for a in self.acts.values() if a.verb == "muck"]
        for k in mucked:
            mine = [t for t in range(52) if st.loc[t] == 2 + k]
            for t in mine:
                if ident[t] >= 0 or not free:
                    continue
                ranks = [ident[u] // 4 for u in mine if ident[u] >= 0]
                c = max(free, key=lambda c: (ranks.count(c // 4), c // 4))
                free.remove(c)
                ident[t] = c
        it = iter(free)
        for t in range(52):
            if ident[t] < 0:
                ident[t] = next(it)
        plan = Plan()
        plan.nodes = nodes
        hole_tok: list[list[int]] = []
        t = 0
        for k in range(self.n):
            hole_tok.append(list(range(t, t + len(self.hole[k]))))
            t += len(self.hole[k])
        plan.hole = [[ident[t] for t in toks] for toks in hole_tok]
        recs: list[tuple[int, tuple[int, ...]]] = []
        rec = st.rec
        while rec is not None:
            prev, j, toks = rec
            recs.append((j, toks))
            rec = prev
        recs.reverse()
        for j, toks in recs:
            kind, _k, i, cards, _count, _nth = self.steps[j]
            cs = [ident[t] for t in toks]
            if kind == BURN:
                plan.burns.append(cs[0])
            elif kind == DEAL:
                plan.received.setdefault(i, []).append(cs[0])
            elif kind == DISCARD:
                # in the order of the action: the named cards where they are
                named = [c for c in cards if c is not None]
                others = iter([c for c in cs if c not in named])
                plan.thrown[i] = [c if c is not None else next(others) for c in cards]
        return plan


def _matches_all(wants: list[list[int]], places: int) -> bool:
    """Whether every item can have a place of its own among those it wants (``wants``:
    per item; items wanting the very same list are alike): a greedy choice, the items
    with the fewest places first, then Kuhn's augmenting paths for those left over."""
    owner = [-1] * places
    cursor: dict[int, int] = {}  # per list of places: where the alike items stopped
    left: list[int] = []
    for v in sorted(range(len(wants)), key=lambda v: len(wants[v])):
        ok = wants[v]
        x = cursor.get(id(ok), 0)
        while x < len(ok) and owner[ok[x]] >= 0:
            x += 1
        cursor[id(ok)] = x
        if x < len(ok):
            owner[ok[x]] = v
        else:
            left.append(v)
    return all(_augment(v, wants, owner, [False] * places) for v in left)


def _augment(v: int, wants: list[list[int]], owner: list[int], seen: list[bool]) -> bool:
    """Kuhn's step: give ``v`` one of the places it wants, moving others on (``owner``:
    per place, who has it)."""
    for y in wants[v]:
        if seen[y]:
            continue
        seen[y] = True
        if owner[y] < 0 or _augment(owner[y], wants, owner, seen):
            owner[y] = v
            return True
    return False


def _multisets(sizes: list[int], total: int) -> Iterator[list[int]]:
    """Every way to take ``total`` items from groups of ``sizes`` (at most each size),
    taking from the first groups first."""
    if not sizes:
        if total == 0:
            yield []
        return
    first = sizes[0]
    rest_cap = sum(sizes[1:])
    for m in range(min(first, total), -1, -1):
        if total - m > rest_cap:
            break
        for tail in _multisets(sizes[1:], total - m):
            yield [m, *tail]
