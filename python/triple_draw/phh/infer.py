"""The quick choice of the unknown cards: who held which card when, and cards for every
``??`` (if it gets stuck, the loader searches: :mod:`triple_draw.phh.solve`).

Pass 1 of loading a history (:class:`Cards`) reads the actions into holdings of
:class:`~triple_draw.phh.timing.Slot`\\ s; the unknown ones are then resolved from later
evidence or chosen so that every card is one the deal could give at that moment."""

from __future__ import annotations

import random
from collections.abc import Iterable
from itertools import permutations

from triple_draw.errors import HistoryError
from triple_draw.phh.actions import Act
from triple_draw.phh.base import Bad, Locator, cards_text
from triple_draw.phh.timing import NEVER, Slot, Timing

#: Draws a player may make in a hand (triple draw).
MAX_DRAWS = 3


class Cards:
    """The cards of a history, per player: the deal, and for every discard the cards
    thrown and the replacements.

    Unknown cards (``??``) are resolved from later evidence first: a known card discarded
    or shown from a holding with unknown cards is one of them (preferably one the deal
    could have given then). The rest get cards chosen (:meth:`fill`) so that no card is
    ever in two places at once and every card is one the deal could give at that moment
    under the hand's rules: a card thrown away or folded comes back only through the pool
    of a reshuffle (the points where the stub runs out: :func:`find_reshuffles`).
    """

    def __init__(
        self,
        acts: list[Act],
        n: int,
        loc: Locator,
        timing: Timing,
        throw_rng: random.Random | None = None,
    ) -> None:
        self.n = n
        self.timing = timing
        self.throw_rng = throw_rng
        self.deal: list[list[Slot]] = [[] for _ in range(n)]
        self.hold: list[list[Slot]] = [[] for _ in range(n)]
        self.dealt_done = [False] * n
        self.draws = [0] * n
        self.pending: list[Act | None] = [None] * n
        self.receive: dict[int, list[Slot]] = {}
        self.discards: dict[int, list[Slot]] = {}
        self.slots: list[Slot] = []
        self._entries: dict[tuple[int, int], int | None] = {}
        self.mucked: list[list[Slot]] = []  # hands mucked at showdown
        #: whether a card named later was put into an unknown slot (the history has ``??``)
        self.revealed = False
        self._acts = acts
        # set by start(), for choosing the unknown cards
        self.busy: list[list[Slot]] = []
        self.rng = random.Random(0)
        self.prefer_unnamed = True
        for a in acts:
            try:
                self._step(a)
            except Bad as e:
                raise HistoryError(f"{loc.where(a.i, a.text)}: {e}") from None
        # replacements the history never deals but the hand goes on after: unknown cards
        # (only a draw the history ends in - nothing but declarations after it - is left
        # to the engine's deck, as it is in a hand saved in the middle of a draw)
        for k, p in enumerate(self.pending):
            if p is not None and any(a.verb not in ("noop", "sd", "dh") for a in acts[p.i + 1 :]):
                self._settle(k)
        for k in range(n):
            if self.deal[k] and not self.dealt_done[k]:
                raise HistoryError(
                    f"{loc.prefix()}p{k + 1} was dealt {len(self.deal[k])} hole cards; "
                    "triple draw deals five"
                )

    # .. reading the actions ..

    def _new(self, card: int | None, start: int, k: int, epoch: int = 0) -> Slot:
        s = Slot(card, start, k)
        s.epoch = epoch
        self.slots.append(s)
        return s

    def _replacements(self, p: Act, cards: list[int | None]) -> list[Slot]:
        k = p.player
        return [self._new(c, p.i, k, self.timing.epoch(p.i, x)) for x, c in enumerate(cards)]

    def _step(self, a: Act) -> None:
        k = a.player
        if a.verb == "dh":
            p = self.pending[k]
            if p is not None:
                need = len(self.discards[p.i])
                if len(a.cards) != need:
                    raise Bad(f"p{k + 1} discarded {need} cards but is dealt {len(a.cards)}")
                ids = self._replacements(p, a.cards)
                self.receive[p.i] = ids
                self.hold[k].extend(ids)
                self.pending[k] = None
            elif not self.dealt_done[k]:
                ids = [self._new(c, -1, k) for c in a.cards]
                self.deal[k].extend(ids)
                self.hold[k].extend(ids)
                if len(self.deal[k]) > 5:
                    raise Bad(
                        f"p{k + 1} is dealt {len(self.deal[k])} hole cards; triple draw deals five"
                    )
                self.dealt_done[k] = len(self.deal[k]) == 5
            else:
                raise Bad(f"p{k + 1} is dealt cards but has no discard waiting for replacements")
        elif a.verb in ("sd", "show", "muck"):
            self._settle(k)
            if a.verb == "sd":
                self._discard(k, a)
            elif a.verb == "muck":
                self.mucked.append(list(self.hold[k]))
            elif a.verb == "show" and a.cards is not None:
                # each shown card is checked and reveals an unknown one; all stay held
                hold = list(self.hold[k])
                self._take(k, [c for c in a.cards if c is not None], "shows")
                self.hold[k] = hold
        else:  # f, cc, cbr
            self._settle(k)
            if a.verb == "f":
                for s in self.hold[k]:
                    s.end = a.i + 1
                self.hold[k] = []

    def _close_deal(self, k: int) -> None:
        """A player with no deal line was dealt five unknown cards."""
        if not self.dealt_done[k]:
            if self.deal[k]:
                raise Bad(
                    f"p{k + 1} was dealt {len(self.deal[k])} hole cards; triple draw deals five"
                )
            self.deal[k] = [self._new(None, -1, k) for _ in range(5)]
            self.hold[k] = list(self.deal[k])
            self.dealt_done[k] = True

    def _settle(self, k: int) -> None:
        """Close the deal, and give unknown replacements to a discard never dealt to."""
        self._close_deal(k)
        p = self.pending[k]
        if p is not None:
            ids = self._replacements(p, [None] * len(self.discards[p.i]))
            self.receive[p.i] = ids
            self.hold[k].extend(ids)
            self.pending[k] = None

    def _take(self, k: int, cards: list[int], what: str) -> list[Slot]:
        """Take ``cards`` out of p(k+1)'s holding. A card he does not hold as known is one
        of his unknown cards - one dealt after that card was last thrown or folded, and
        preferably one the deal could give then (:meth:`_comes_back`); among the ways to
        place them, the one that fits best (earliest slots on a tie)."""
        hold = self.hold[k]
        out = []
        rest = []
        for c in cards:
            j = next((j for j, s in enumerate(hold) if s.card == c), None)
            if j is None:
                rest.append(c)
            else:
                out.append(hold.pop(j))
        if not rest:
            return out
        last: dict[int, Slot | None] = {}
        held: dict[int, list[Slot]] = {}
        for c in rest:
            held[c] = [s for s in self.slots if s.card == c]
            before = [s for s in held[c] if s.end != NEVER]
            last[c] = max(before, key=lambda s: s.end) if before else None
        free = [s for s in hold if s.card is None]
        best: tuple[Slot, ...] | None = None
        best_key: tuple[int, int] | None = None
        for placing in permutations(free, len(rest)):
            score = 0
            for c, s in zip(rest, placing, strict=True):
                prev = last[c]
                if prev is not None and s.start < prev.end:
                    break
                score += self._comes_back(prev, s, held[c])
            else:
                key = (score, -sum(s.start for s in placing))
                if best_key is None or key > best_key:
                    best, best_key = placing, key
        if best is None:
            if len(free) < len(rest):
                raise Bad(f"p{k + 1} {what} {cards_text(rest)}, which he does not hold")
            # no place fits the times of the cards placed so far (themselves a choice):
            # the search (phh.solve) decides whether some choice fits
            best = tuple(free[: len(rest)])
        for c, s in zip(rest, best, strict=True):
            self.revealed = True
            s.card = c
            hold.remove(s)
            out.append(s)
        return out

    def _comes_back(self, prev: Slot | None, s: Slot, history: list[Slot]) -> int:
        """How well the deal can give a card in slot ``s`` after it was last held in
        ``prev`` (``history``: its other holdings): 2 surely (never held, dealt before
        the stub first runs out; or back in the pool of the reshuffle just before
        ``s``), 1 with help (it has to go through other hands first), 0 not at all (no
        reshuffle between)."""
        if prev is None:
            return 2 if s.epoch == 0 else 1
        if self.timing.pokerstars and any(
            t is not s and t.player == s.player and t.end <= s.start for t in history
        ):
            return 0  # "pokerstars" never deals a player a card he threw
        e = self._entry(prev, history)
        if e is None or e > s.epoch:
            return 0
        # in the pool of an earlier reshuffle it would be in the stub too early (the
        # default rule deals it again before the stub re-forms; "pokerstars" keeps it in
        # the stub, but a small stub is better kept for the cards it must deal)
        return 2 if e == s.epoch else 1

    def _entry(self, prev: Slot, history: list[Slot]) -> int | None:
        """The reshuffle (1..) whose pool a card let go from ``prev`` goes into."""
        timing = self.timing
        if not timing.pokerstars:  # the pool depends on when the card was let go only
            key = (prev.epoch, prev.end)
            if key in self._entries:
                return self._entries[key]
        found = None
        for e in range(prev.epoch + 1, len(timing.reshuffles) + 1):
            if timing.into_pool(prev, e):
                found = e
                break
        if not timing.pokerstars:
            self._entries[key] = found
        return found

    def _discard(self, k: int, a: Act) -> None:
        self.draws[k] += 1
        if self.draws[k] > MAX_DRAWS:
            raise Bad(f"p{k + 1} draws a fourth time; triple draw has three draws")
        thrown = self._take(k, [c for c in a.cards if c is not None], "discards")
        need = len(a.cards) - len(thrown)
        if need:
            hold = self.hold[k]
            unknown = [s for s in hold if s.card is None]
            if len(unknown) < need:
                raise Bad(
                    f"p{k + 1} discards an unknown card '??' but every card he holds is known"
                )
            # which of his unknown cards he threw: the oldest, or (later attempts) any
            rng = self.throw_rng
            for s in unknown[:need] if rng is None else rng.sample(unknown, need):
                hold.remove(s)
                thrown.append(s)
        self.discards[a.i] = thrown
        for s in thrown:  # free again from the next action
            s.end = a.i + 1
        if a.cards:
            self.pending[k] = a

    # .. choosing the unknown cards ..

    def start(self, rng: random.Random, attempt: int) -> None:
        """Forget the cards chosen before and set how to choose in this attempt."""
        for s in self.slots:
            if s.chosen:
                s.card = None
                s.chosen = False
        self.rng = rng
        self.prefer_unnamed = attempt % 2 == 0
        self.busy = [[] for _ in range(52)]
        for s in self.slots:
            if s.card is not None:
                self.busy[s.card].append(s)

    def assign(self) -> None:
        """Before the replay: the unknown cards dealt before the stub first runs out (the
        hole cards among them) - at the deal every card is in the stub."""
        self.fill(0, range(52), -1)

    def fill(self, epoch: int, stub: Iterable[int], now: int) -> None:
        """Give a card of ``stub`` to every unknown slot dealt from it: the slots of
        ``epoch`` dealt from action ``now`` on (until the stub runs out).

        A card the history deals again from this stub stays for that deal. A card it
        names again later must go through a hand into the pool of the reshuffle before
        that (the default rule deals every card of the stub before it re-forms the
        stub): such cards are matched to slots that lead there (augmenting paths), the
        direct ones first; the other slots get cards the history no longer needs (never
        named ones first if ``prefer_unnamed``; a hand mucked unseen the worst)."""
        slots = [s for s in self.slots if s.card is None and s.epoch == epoch and s.start >= now]
        if not slots:
            return
        rng = self.rng
        rng.shuffle(slots)
        neutral: list[int] = []
        demand: dict[int, Slot] = {}
        for c in stub:
            nxt = min(
                (t for t in self.busy[c] if t.start >= now), key=lambda t: t.start, default=None
            )
            if nxt is None:
                neutral.append(c)
            elif nxt.epoch > epoch:
                demand[c] = nxt
            # else: dealt again from this stub by the history
        routes: dict[int, list[tuple[Slot, int]]] = {}
        # the unknown slots of each epoch, and (default rule: the pools depend on the
        # epochs only) whether some slot of epoch e leads on to a slot
        open_by_epoch: dict[int, list[Slot]] = {}
        for t in self.slots:
            if t.card is None:
                open_by_epoch.setdefault(t.epoch, []).append(t)
        leads: dict[tuple[int | None, int], bool] = {}
        for c, nxt in demand.items():
            ways = []
            for s in slots:
                if s.end > nxt.start or self._own_throw(c, s):
                    continue
                history = [*self.busy[c], s]
                how = self._comes_back(s, nxt, history)
                if how == 1:
                    # into an earlier pool: the default rule deals it again from that
                    # stub, so some hand dealt from there must lead on to its pool
                    e = self._entry(s, history)
                    key = (e, id(nxt))
                    onward = leads.get(key)
                    if onward is None:
                        onward = any(
                            t.end <= nxt.start and self._comes_back(t, nxt, [*history, t]) == 2
                            for t in (open_by_epoch.get(e, ()) if e is not None else ())
                        )
                        leads[key] = onward
                    if not onward:
                        how = 0
                if how:
                    ways.append((s, how))
            routes[c] = ways
        card_of: dict[int, int] = {}  # id(slot) -> card

        def place(c: int, least: int, seen: set[int]) -> bool:
            for s, how in routes[c]:
                if how < least or id(s) in seen:
                    continue
                seen.add(id(s))
                other = card_of.get(id(s))
                if other is None or place(other, least, seen):
                    card_of[id(s)] = c
                    return True
            return False

        # "pokerstars", an epoch that ends while the stub still holds cards: all that is
        # left then is the served player's own discards, so every other card is dealt
        own: set[int] = set()
        crowd = self.timing.crowded.get(epoch)
        if crowd is not None:
            time = self.timing.reshuffles[epoch][0]
            own = {
                c
                for c in range(52)
                if any(t.player == crowd and t.end <= time for t in self.busy[c])
            }
        order = list(demand)
        rng.shuffle(order)
        # the most constrained first: no way round, then the fewest direct ways
        order.sort(key=lambda c: (c in own, any(h == 1 for _s, h in routes[c]), len(routes[c])))
        # straight into the right pool
        placed = {c for c in order if c not in own and place(c, 2, set())}
        last = epoch >= len(self.timing.reshuffles)
        # the default rule deals the whole stub before the next reshuffle; otherwise the
        # cards not needed here may stay in the stub as long as the other slots are full
        must = len(demand) if not (self.timing.pokerstars or last) else len(slots) - len(neutral)
        if crowd is not None:
            must = max(must, len([c for c in demand if c not in own]))
        for c in order:
            if len(placed) >= must:
                break
            if c not in placed and place(c, 1, set()):
                placed = set(card_of.values())
        if crowd is not None and (
            any(c not in placed for c in demand if c not in own)
            or len(slots) - len(card_of) < len([c for c in neutral if c not in own])
        ):
            raise Bad(
                "the unknown cards of this history cannot be dealt without a card being "
                "in two places"
            )
        if len(placed) < must:
            raise Bad(
                "the unknown cards of this history cannot be dealt without a card being "
                "in two places"
            )
        # the other slots: cards no longer needed
        free = [s for s in slots if id(s) not in card_of]
        rng.shuffle(neutral)
        if self.prefer_unnamed:
            neutral.sort(key=lambda c: bool(self.busy[c]))
        neutral.sort(key=lambda c: c in own)  # the others' cards first (stable)
        for hold in self.mucked:  # a hand mucked unseen: as bad as possible
            for s in [t for t in free if any(t is h for h in hold)]:
                if not neutral:
                    break
                others = [
                    (card_of.get(id(t)) if t.card is None else t.card) for t in hold if t is not s
                ]
                ranks = [c // 4 for c in others if c is not None]
                allowed = [c for c in neutral if not self._own_throw(c, s)] or neutral
                c = max(allowed, key=lambda c: (ranks.count(c // 4), c // 4))
                neutral.remove(c)
                card_of[id(s)] = c
                free.remove(s)
        # the rest: a matching of slots and cards ("pokerstars": no card to a player who
        # threw it), each slot trying the preferred cards first
        slot_of: dict[int, Slot] = {}  # card -> slot

        def match(s: Slot, seen: set[int]) -> bool:
            for c in neutral:
                if c in seen or self._own_throw(c, s):
                    continue
                seen.add(c)
                t = slot_of.get(c)
                if t is None or match(t, seen):
                    slot_of[c] = s
                    taken.add(c)
                    return True
            return False

        taken: set[int] = set()
        for s in free:
            # the first free card he may get (the greedy choice); else an augmenting path
            pick = next((c for c in neutral if c not in taken and not self._own_throw(c, s)), None)
            if pick is not None:
                slot_of[pick] = s
                taken.add(pick)
                continue
            if not match(s, set()):
                if not self.timing.pokerstars:  # too few cards are left for the slots
                    raise Bad(
                        "the unknown cards of this history cannot be dealt without a card "
                        "being in two places"
                    )
                raise Bad(
                    f"p{s.player + 1} cannot be dealt a card he has not thrown before "
                    '(the "pokerstars" reshuffle never gives a player his own discards)'
                )
        for c, s in slot_of.items():
            card_of[id(s)] = c
        for s in slots:
            c = card_of[id(s)]
            s.card = c
            s.chosen = True
            self.busy[c].append(s)

    def own_in_stub(self, s: Slot) -> list[int]:
        """Under "pokerstars", the cards the player of slot ``s`` threw earlier that are
        in the stub when ``s`` is dealt: let go before the reshuffle that formed the
        stub of ``s``'s epoch, and not dealt since."""
        if s.epoch == 0:
            return []
        time = self.timing.reshuffles[s.epoch - 1][0]
        found = []
        for c in range(52):
            before = [t for t in self.busy[c] if t.start < s.start]
            if not before:
                continue
            last = max(before, key=lambda t: t.start)
            if last.end <= time and any(t.player == s.player for t in before):
                found.append(c)
        return found

    def _own_throw(self, c: int, s: Slot) -> bool:
        """Under "pokerstars", whether the player of slot ``s`` threw ``c`` before it: the
        deal never gives a player back a card he has thrown."""
        return self.timing.pokerstars and any(
            t.player == s.player and t.end <= s.start for t in self.busy[c]
        )
