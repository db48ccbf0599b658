"""The exact size of the OpenSpiel game ``python_triple_draw`` of any rules, counted
without walking its tree and without OpenSpiel (docs/environments.md: *The reduced games
as OpenSpiel games*).

>>> from triple_draw import Rules
>>> from triple_draw.envs.game_size import game_size
>>> tiny = Rules(deck_ranks=3, deck_suits=2, hand_size=1, draws=1, raise_cap=1)
>>> game_size(tiny)
GameSize(information_sets=1374, histories=33457)

**What is counted**, as a walk of the whole tree with pyspiel counts it
(``tests/test_game_size.py`` walks small members and compares):

- ``histories``: every node of the tree - chance nodes (the deal, one card at a time;
  each replacement card, one at a time), decision nodes and finished hands;
- ``information_sets``: the distinct ``information_state_string`` of the decision nodes.

**How.** The betting and the draw counts a seat may choose never depend on the cards,
and the number of cards a chance node may deal depends on the cards only through where
they are: the stub, the pool a reshuffle gathers, a seat's hand, the discards in front of
the seat being served - and, under the ``"pokerstars"`` reshuffle, which seats have
thrown them. The cards are therefore counted by kind, not one by one: the tree is walked
once per public line (the game's own :class:`~triple_draw.game.hand.Hand` plays the
betting and the draws) with the cards' kinds, and every node stands for as many nodes of
the real tree as there are cards (or discards) of each kind, so the histories are a
sum of products of branching numbers (the deal alone has ``D! / (D - n h)!`` orders: ``D``
cards, ``n`` seats, ``h`` cards in hand).

An information state string is the public line (every decision, a discard as its count)
and what the acting seat saw: his hand after the deal and after each of his draws, and
the cards he threw. For each public line the count is the number of these private
histories he can have. Two private histories that differ only by a renaming of the cards
are both possible or both impossible (the game treats every card alike), so the count
is a sum over their patterns - which of his hands each card he saw was in, and whether
he threw it - of the number of ways to name the cards of a pattern: ``D! / (D - m)!``
for ``m`` cards, divided by ``c!`` for each group of ``c`` cards with the same pattern.
The patterns are followed by kind through the same walk, the other cards kept by kind
as well, so every possibility of the cards he did not see is accounted for.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Sequence
from math import comb, factorial, perm
from typing import NamedTuple

from triple_draw.errors import ArgumentError, ArgumentTypeError
from triple_draw.game.hand import Hand, check_deck_holds
from triple_draw.game.rules import Rules

__all__ = ["GameSize", "game_size"]


class GameSize(NamedTuple):
    """The size of a game tree, as OpenSpiel counts it."""

    #: the distinct information state strings of the decision nodes (every seat's)
    information_sets: int
    #: every node of the tree: chance, decision and terminal
    histories: int


#: a kind of card: (the seats that have thrown it, as bits - "pokerstars" only, else 0;
#: the counted seat's record of it - () if he never saw it, else (thrown, in hand 0,
#: in hand 1, ...): whether he threw it, and whether it was in his hand after the deal
#: and after each of his draws so far)
_Kind = tuple[int, tuple[int, ...]]
#: a multiset of kinds, sorted
_Zone = tuple[tuple[_Kind, int], ...]
#: the cards by kind: (stub, pool, the discards in front of the seat being served, the
#: seats' hands, the counted seat's hands recorded so far, the reshuffles of this draw so
#: far - read under "pokerkit" with declare-then-deal only)
_State = tuple[_Zone, _Zone, _Zone, tuple[_Zone, ...], int, int]

_TERMINAL, _BET, _DRAW = 0, 1, 2
_FOLD, _CALL, _RAISE = 0, 1, 2


def _add(zone: _Zone, kind: _Kind, m: int = 1) -> _Zone:
    d = dict(zone)
    d[kind] = d.get(kind, 0) + m
    return tuple(sorted(d.items()))


def _merge(a: _Zone, b: _Zone) -> _Zone:
    if not b:
        return a
    if not a:
        return b
    d = dict(a)
    for kind, m in b:
        d[kind] = d.get(kind, 0) + m
    return tuple(sorted(d.items()))


def _take(zone: _Zone, kind: _Kind, m: int = 1) -> _Zone:
    d = dict(zone)
    left = d[kind] - m
    if left:
        d[kind] = left
    else:
        del d[kind]
    return tuple(sorted(d.items()))


def _size(zone: _Zone) -> int:
    return sum(m for _kind, m in zone)


def _choices(zone: _Zone, k: int) -> Iterator[tuple[_Zone, int]]:
    """Every way to pick ``k`` cards of ``zone`` by kind, with the number of ways to
    pick the cards themselves."""
    items = list(zone)

    def rec(i: int, left: int) -> Iterator[tuple[list[tuple[_Kind, int]], int]]:
        if left == 0:
            yield [], 1
            return
        if i == len(items):
            return
        kind, m = items[i]
        for x in range(min(m, left), -1, -1):
            for rest, ways in rec(i + 1, left - x):
                yield ([(kind, x)] if x else []) + rest, comb(m, x) * ways

    for picked, ways in rec(0, k):
        yield tuple(picked), ways


class _Public:
    """A node of the public tree: the game's :class:`Hand` at one public line. Nodes
    whose futures are alike share one object: the same betting round (or draw) from the
    same chips, with the same decisions so far in it."""

    __slots__ = ("actor", "children", "first", "hand", "id", "kind", "line", "seg", "start")

    def __init__(
        self,
        ident: int,
        hand: Hand,
        seg: tuple[int, bool],
        start: object,
        line: tuple[int, ...],
        kind: int,
    ) -> None:
        self.id = ident
        self.hand: Hand | None = hand
        self.seg = seg
        self.start = start
        self.line = line
        self.kind = kind
        self.first = not line  # the first decision of its round or draw
        self.actor = -1 if hand.actor is None else hand.actor
        self.children: list[tuple[int, _Public]] | None = None


class _Counter:
    """The counts of one game; ``seat``: the seat whose information sets are counted (None:
    histories only, the cards by where they are)."""

    def __init__(
        self, rules: Rules, stacks: tuple[int, ...], button: int, num_draws: int,
        seat: int | None,
        max_states: int = 0,
    ) -> None:
        self.rules = rules
        self.n = len(stacks)
        self.stacks = stacks
        self.button = button
        self.num_draws = num_draws
        self.seat = seat
        #: the most states the memos may hold (0: no bound)
        self.max_states = max_states
        rc = rules.compiled
        self.deck = len(rc.deck)
        self.hand_size = rules.hand_size
        self.pokerstars = rc.pokerstars
        self.pokerkit = rc.pool_all_discards
        self.declare_first = not rc.immediate_draw
        self.nodes: dict[object, _Public] = {}
        self.hist_memo: dict[tuple[int, _State], int] = {}
        self.info_memo: dict[tuple[int, frozenset[_State]], int] = {}
        self.draw_memo: dict[tuple[_State, int, int], tuple[int, dict[_State, int]]] = {}
        self.lab_memo: dict[tuple[tuple[tuple[int, ...], int], ...], int] = {}

    def _check_size(self) -> None:
        """Refuse to go on once the memos hold more than ``max_states`` entries: a game
        too large to count in memory."""
        if self.max_states and (
            len(self.hist_memo) + len(self.info_memo) + len(self.draw_memo) > self.max_states
        ):
            raise ArgumentError(
                f"game_size: counting this game needs more than max_states="
                f"{self.max_states:,} remembered card states: it is "
                "too large to count in memory (the heads-up members and the real game's "
                "heads-up game count within the default; more seats grow it quickly)"
            )

    # -- the public tree ---------------------------------------------------------------------

    def root(self) -> _Public:
        return self._node(Hand(self.rules, list(self.stacks), self.button, 0), None, 0)

    def _node(self, h: Hand, parent: _Public | None, label: int) -> _Public:
        seg = (h.street, h.in_draw)
        if parent is not None and parent.seg == seg:
            start, line = parent.start, (*parent.line, label)
        else:
            start, line = (seg, h.stacks, h.committed, h.folded), ()
        key = (start, line)
        node = self.nodes.get(key)
        if node is not None:
            return node
        k = self.num_draws
        if h.actor is None or (
            k < self.rules.draws and (h.street > k or (h.street == k and h.in_draw))
        ):
            kind = _TERMINAL  # (the num_draws reduction: the rest is played automatically)
        else:
            kind = _DRAW if h.in_draw else _BET
        node = _Public(len(self.nodes), h, seg, start, line, kind)
        self.nodes[key] = node
        return node

    def children(self, node: _Public) -> list[tuple[int, _Public]]:
        if node.children is None:
            h = node.hand
            assert h is not None
            out = []
            if node.kind == _BET:
                for a in (_FOLD, _CALL, _RAISE):
                    if a == _RAISE and not h.can_bet_or_raise():
                        continue
                    c = h.copy()
                    if a == _FOLD:
                        c.fold()
                    elif a == _CALL:
                        c.check_or_call()
                    else:
                        c.bet_or_raise()
                    out.append((a, self._node(c, node, a)))
            elif node.kind == _DRAW:
                held = sorted(h.hole_ids(node.actor))
                for k in range(self.hand_size + 1):
                    c = h.copy()
                    c.discard(held[:k])
                    out.append((k, self._node(c, node, k)))
            node.children = out
            node.hand = None
        return node.children

    # -- the cards -----------------------------------------------------------------------

    def initial(self) -> _State:
        n, hs = self.n, self.hand_size
        other: _Zone = (((0, ()), hs),)
        mine: _Zone = (((0, (0, 1)), hs),)
        hands = tuple(mine if s == self.seat else other for s in range(n))
        stub: _Zone = (((0, ()), self.deck - n * hs),)
        return (stub, (), (), hands, 1, 0)

    def _fold(self, st: _State, s: int) -> _State:
        stub, pool, front, hands, snaps, resh = st
        pool = _merge(pool, hands[s])
        hands = (*hands[:s], (), *hands[s + 1 :])
        return (stub, pool, front, hands, snaps, resh)

    def _snapshot(self, st: _State) -> _State:
        """The counted seat's hand is recorded (after each of his draws)."""
        stub, pool, front, hands, snaps, resh = st
        p = self.seat
        assert p is not None

        def mark(zone: _Zone, bit: int) -> _Zone:
            if not any(kind[1] for kind, _m in zone):
                return zone
            d: dict[_Kind, int] = {}
            for (tb, pv), m in zone:
                k2 = (tb, (*pv, bit)) if pv else (tb, pv)
                d[k2] = d.get(k2, 0) + m
            return tuple(sorted(d.items()))

        hands = tuple(mark(z, 1 if s == p else 0) for s, z in enumerate(hands))
        return (mark(stub, 0), mark(pool, 0), mark(front, 0), hands, snaps + 1, resh)

    def _finish(self, st: _State, q: int) -> _State:
        """Seat ``q`` is served: his discards join the pool."""
        stub, pool, front, hands, snaps, resh = st
        st = (stub, _merge(pool, front), (), hands, snaps, resh)
        return self._snapshot(st) if q == self.seat else st

    def draw(self, st: _State, q: int, k: int) -> tuple[int, dict[_State, int]]:
        """Seat ``q`` throws ``k`` cards and gets ``k``: the chance nodes on the way (how
        many real nodes), and the states after it with how many real paths lead there."""
        key = (st, q, k)
        got = self.draw_memo.get(key)
        if got is not None:
            return got
        chance = 0
        ends: dict[_State, int] = {}
        stub0, pool0, _front, hands0, snaps, resh = st
        bit = 1 << q if self.pokerstars else 0
        mine = q == self.seat
        for picked, ways in _choices(hands0[q], k):
            hands = list(hands0)
            for kind, m in picked:
                hands[q] = _take(hands[q], kind, m)
            thrown: _Zone = ()
            for (tb, pv), m in picked:
                pv2 = (1, *pv[1:]) if pv else pv
                thrown = _add(thrown, (tb | bit, pv2), m)
            stub, pool, front = stub0, pool0, thrown
            if k and self.pokerkit and self.declare_first and resh:
                # a reshuffle of this draw took the discards of the seats still to declare
                # (the engine deals the draw once everybody has declared: the game's
                # chance nodes ask it with every declaration so far). The stub can then
                # not run out again in this draw: each seat's discards join it before he
                # is served.
                stub, front = _merge(stub, thrown), ()
            if k and self.pokerstars and k > _size(stub):
                stub, pool = _merge(stub, pool), ()
            layer = {(stub, pool, front, tuple(hands), snaps, resh): ways}
            for _i in range(k):
                chance += sum(layer.values())
                nxt: dict[_State, int] = {}
                for s, m in layer.items():
                    for s2, c in self._receive(s, q, mine):
                        nxt[s2] = nxt.get(s2, 0) + m * c
                layer = nxt
            for s, m in layer.items():
                e = self._finish(s, q)
                ends[e] = ends.get(e, 0) + m
        self.draw_memo[key] = (chance, ends)
        self._check_size()
        return chance, ends

    def _receive(self, st: _State, q: int, mine: bool) -> Iterator[tuple[_State, int]]:
        """One replacement card for seat ``q``: the states after it, with the number of
        cards that lead there."""
        stub, pool, front, hands, snaps, resh = st
        if not stub:  # the stub is out: the pool is shuffled into a new one
            if self.pokerkit:  # ... with his discards of this draw
                stub, pool, front, resh = _merge(pool, front), (), (), resh + 1
            else:
                stub, pool = pool, ()
            if not stub:  # pragma: no cover - Rules and Hand make it impossible
                raise ArgumentError("the deck cannot serve this draw")
        outs = stub
        if self.pokerstars:
            bit = 1 << q
            outs = tuple((kind, m) for kind, m in stub if not kind[0] & bit)
            if not outs and pool:  # only his own discards left: gather the pool too
                stub, pool = _merge(stub, pool), ()
                outs = tuple((kind, m) for kind, m in stub if not kind[0] & bit)
            if not outs:  # only his own: he gets them back
                outs = stub
        for kind, m in outs:
            tb, pv = kind
            got = kind
            if mine and not pv:
                got = (tb, (0,) + (0,) * snaps)  # a card he had not seen
            h2 = _add(hands[q], got)
            yield (_take(stub, kind), pool, front, (*hands[:q], h2, *hands[q + 1 :]), snaps,
                   resh), m

    # -- the counts ---------------------------------------------------------------------------

    def histories(self, node: _Public, st: _State) -> int:
        """The nodes of the subtree of a real node at ``node`` with cards ``st``."""
        if node.kind == _TERMINAL:
            return 1
        key = (node.id, st)
        got = self.hist_memo.get(key)
        if got is not None:
            return got
        total = 1
        if node.kind == _BET:
            for a, child in self.children(node):
                total += self.histories(child, self._fold(st, node.actor) if a == _FOLD else st)
        else:
            if node.first:
                st = (*st[:5], 0)
            for k, child in self.children(node):
                chance, ends = self.draw(st, node.actor, k)
                total += chance
                for e, m in ends.items():
                    total += m * self.histories(child, e)
        self.hist_memo[key] = total
        self._check_size()
        return total

    def information_sets(self, node: _Public, states: frozenset[_State]) -> int:
        """The counted seat's information sets in the subtree of the public line ``node``,
        whose cards may be any of ``states``."""
        if node.kind == _TERMINAL:
            return 0
        key = (node.id, states)
        got = self.info_memo.get(key)
        if got is not None:
            return got
        total = 0
        if node.actor == self.seat:
            total += sum(self._names(pattern) for pattern in {self._pattern(s) for s in states})
        if node.kind == _BET:
            for a, child in self.children(node):
                nxt = frozenset(self._fold(s, node.actor) for s in states) if a == _FOLD else states
                total += self.information_sets(child, nxt)
        else:
            if node.first:
                states = frozenset((*s[:5], 0) for s in states)
            for k, child in self.children(node):
                after: set[_State] = set()
                for s in states:
                    after.update(self.draw(s, node.actor, k)[1])
                total += self.information_sets(child, frozenset(after))
        self.info_memo[key] = total
        self._check_size()
        return total

    @staticmethod
    def _pattern(st: _State) -> tuple[tuple[tuple[int, ...], int], ...]:
        """What the counted seat saw: how many cards of each record."""
        d: dict[tuple[int, ...], int] = {}
        stub, pool, front, hands, _snaps, _resh = st
        for zone in (stub, pool, front, *hands):
            for (_tb, pv), m in zone:
                if pv:
                    d[pv] = d.get(pv, 0) + m
        return tuple(sorted(d.items()))

    def _names(self, pattern: tuple[tuple[tuple[int, ...], int], ...]) -> int:
        """The ways to name the cards of a pattern."""
        got = self.lab_memo.get(pattern)
        if got is None:
            got = perm(self.deck, sum(m for _pv, m in pattern))
            for _pv, m in pattern:
                got //= factorial(m)
            self.lab_memo[pattern] = got
        return got


def _args(
    rules: object, num_players: object, stacks: object, button: object, num_draws: object
) -> tuple[Rules, tuple[int, ...], int, int]:
    if not isinstance(rules, Rules):
        raise ArgumentTypeError(f"rules must be a triple_draw.Rules, got {type(rules).__name__}")
    n = num_players
    if type(n) is not int or not 2 <= n <= 8:
        raise ArgumentError(f"num_players must be an int 2..8, got {n!r}")
    if rules.burn_cards:
        raise ArgumentError(
            "game_size counts the OpenSpiel game, which burns no card: rules with "
            "burn_cards=True are not one of its games"
        )
    check_deck_holds(rules, n, "game_size")
    if isinstance(stacks, int) and not isinstance(stacks, bool):
        seat_stacks: tuple[int, ...] = (stacks,) * n
    elif isinstance(stacks, Sequence) and not isinstance(stacks, str):
        seat_stacks = tuple(stacks)
    else:
        raise ArgumentError(f"stacks must be an int or one int per seat, got {stacks!r}")
    if len(seat_stacks) != n or any(
        type(x) is not int or x <= 0 for x in seat_stacks
    ):
        raise ArgumentError(f"stacks must be {n} ints > 0 (or one int), got {stacks!r}")
    if type(button) is not int or not 0 <= button < n:
        raise ArgumentError(f"button must be a seat 0..{n - 1}, got {button!r}")
    if num_draws is None:
        k = rules.draws
    elif type(num_draws) is not int or not 1 <= num_draws <= rules.draws:
        raise ArgumentError(
            f"num_draws must be 1..{rules.draws} (the rules' draws) or None, got {num_draws!r}"
        )
    else:
        k = num_draws
    if rules.max_players < n:
        rules = dataclasses.replace(rules, max_players=n)
    return rules, seat_stacks, button, k


def game_size(
    rules: Rules,
    num_players: int = 2,
    *,
    stacks: int | Sequence[int] = 100,
    button: int = 0,
    num_draws: int | None = None,
    information_sets: bool = True,
    max_states: int = 2_000_000,
) -> GameSize:
    """The exact size of the OpenSpiel game ``python_triple_draw`` with these rules (the
    reduced games' fields included), ``num_players`` seats, ``stacks`` (one for every
    seat, or one per seat), the ``button`` and the ``num_draws`` reduction (None: every
    draw; the game's parameters of those names): its information sets and its histories
    (module docs). Needs no OpenSpiel.

    ``information_sets=False`` counts the histories only (0 information sets), which is
    much quicker. The integers are exact, however large.

    The cost grows quickly with the seats: the real game heads-up takes about 20 s and
    400 MB (its histories alone 0.1 s), three seats' histories about 3 s, but three
    seats' information sets or six seats' histories outgrow any machine's memory. The
    counter refuses to go on (:class:`~triple_draw.errors.ArgumentError`) once it
    remembers more than ``max_states`` card states (the default stops it below 1 GB of
    memory, after 15-30 s in those two cases); ``max_states=0`` lifts the bound.

    Raises :class:`~triple_draw.errors.ArgumentTypeError` for rules that are not a
    :class:`~triple_draw.Rules`, and :class:`~triple_draw.errors.ArgumentError` for a
    game OpenSpiel cannot load (too many players for the deck, a stack or button out of
    range, ``num_draws`` above the rules' draws, burn cards, which the game does not
    deal)."""
    if type(information_sets) is not bool:
        raise ArgumentTypeError(f"information_sets must be a bool, got {information_sets!r}")
    r, seat_stacks, button, k = _args(rules, num_players, stacks, button, num_draws)
    n = len(seat_stacks)
    if type(max_states) is not int or max_states < 0:
        raise ArgumentError(f"max_states must be an int >= 0 (0: no bound), got {max_states!r}")
    c = _Counter(r, seat_stacks, button, k, None, max_states)
    dealt = n * r.hand_size
    deck = c.deck
    deal_nodes = sum(perm(deck, i) for i in range(dealt))
    histories = deal_nodes + perm(deck, dealt) * c.histories(c.root(), c.initial())
    infos = 0
    if information_sets:
        for seat in range(n):
            cs = _Counter(r, seat_stacks, button, k, seat, max_states)
            infos += cs.information_sets(cs.root(), frozenset((cs.initial(),)))
    return GameSize(infos, histories)
