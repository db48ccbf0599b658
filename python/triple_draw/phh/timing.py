"""When the stub runs out in a history, and the cards' places in time.

A :class:`Slot` is one card in one holding, known or ``??``; :func:`find_reshuffles`
finds where the stub runs out (a :class:`Timing`), which the unknown-card solver
(:mod:`triple_draw.phh.infer`) needs to know which cards the deal could give when."""

from __future__ import annotations

from typing import Any

from triple_draw.errors import IllegalActionError
from triple_draw.game.hand import Hand
from triple_draw.game.rules import Rules
from triple_draw.phh.actions import Act

NEVER = 1 << 60  # "held to the end of the history"


class Slot:
    """One card in one holding: known (``card``) or written ``??`` (``card`` None until
    revealed or chosen). It occupies its card from ``start`` (the action index it was
    dealt or reserved at; -1 for the deal) to ``end`` (the first action index at which
    the card is free again). ``epoch``: how many times the stub ran out before it was
    dealt (see :func:`find_reshuffles`)."""

    __slots__ = ("card", "chosen", "end", "epoch", "player", "start")

    def __init__(self, card: int | None, start: int, player: int) -> None:
        self.card = card
        self.start = start
        self.end = NEVER
        self.player = player
        self.epoch = 0
        self.chosen = False  # the card was chosen (fill), not given by the history


class Timing:
    """When the stub runs out in a history (see :func:`find_reshuffles`)."""

    def __init__(self, pokerstars: bool) -> None:
        self.pokerstars = pokerstars
        #: per reshuffle: (action index of the served player's declaration, his PHH index)
        self.reshuffles: list[tuple[int, int]] = []
        #: per declaration (action index): the epoch of each of its replacements
        self.epochs: dict[int, list[int]] = {}
        self.last = 0  # the epoch after the last known reshuffle
        #: "pokerstars": per epoch that ends before its stub is empty, the player served
        #: then - what was left of the stub was only cards he threw earlier in the hand
        self.crowded: dict[int, int] = {}
        #: "pokerstars": the serves where the stub could hold only the served player's
        #: own discards before it runs out: (declaration, the cards he could get first)
        self.options: list[tuple[int, range]] = []

    def epoch(self, i: int, x: int) -> int:
        """How many reshuffles come before replacement ``x`` of declaration ``i``."""
        got = self.epochs.get(i)
        return got[x] if got is not None and x < len(got) else self.last

    def into_pool(self, s: Slot, e: int) -> bool:
        """Whether a card let go from slot ``s`` is in the pool of reshuffle ``e`` (1..)."""
        if not 1 <= e <= len(self.reshuffles):
            return False
        time, _player = self.reshuffles[e - 1]
        # let go before the declaration of the player served (so also before the
        # declarations after him, still on the table); "pokerstars" gathers every card
        # out of play, the served player's earlier discards included (he is never dealt
        # them: they are passed over for him, see Cards._own_throw)
        return s.end <= time


class Serves:
    """The draws of a history as the engine serves them, for counting the stub: per
    event ``("fold", seat, 0)``, ``("discard", seat, cards thrown)``, ``("draw", seat,
    cards dealt)`` or ``("burn", -1, 1)``, and the declarations (action indexes) in
    order."""

    def __init__(
        self,
        events: list[tuple[str, int, int]],
        declared: list[int],
        n: int,
        complete: bool = True,
    ) -> None:
        self.events = events
        self.declared = declared
        self.n = n
        #: whether every action of the history was followed (else it turns illegal)
        self.complete = complete


def find_serves(
    rules: Rules,
    stacks_phh: list[int],
    seat_of: list[int],
    button: int,
    acts: list[Act],
    core: Any,
    *,
    forced: dict[str, Any] | None = None,
) -> Serves:
    """Replay the actions (with any cards: the counts do not depend on them) to find the
    order in which the engine serves the draws. A history that turns illegal is followed
    up to there. ``forced``: the hand's ``no_small_blind`` and ``posts`` arguments (a hand
    a table dealt)."""
    n = len(stacks_phh)
    stacks = [0] * n
    for k, seat in enumerate(seat_of):
        stacks[seat] = stacks_phh[k]
    declared: list[int] = []
    events: list[tuple[str, int, int]] = []
    complete = False
    try:
        hand = Hand(rules, stacks, button, 0, core=core, **(forced or {}))
        for a in acts:
            if a.verb not in ("sd", "f", "cc", "cbr"):
                continue
            seat = seat_of[a.player]
            if hand.actor != seat or (a.verb == "sd") != hand.in_draw:
                break
            if a.verb == "sd":
                held = list(hand.hole_ids(seat))
                hand.discard(held[: len(a.cards)])
                declared.append(a.i)
            elif a.verb == "f":
                hand.fold()
            elif a.verb == "cc":
                hand.check_or_call()
            elif hand.bet_or_raise_amount() == a.amount:
                hand.bet_or_raise()
            else:
                break
        else:
            complete = True
    except (IllegalActionError, ValueError):
        pass
    pl = {seat: k for k, seat in enumerate(seat_of)}
    for e in hand.history:
        if e.kind in ("fold", "discard", "draw"):
            assert e.seat is not None
            events.append((e.kind, pl[e.seat], len(e.cards or ())))
        elif e.kind == "burn":
            events.append(("burn", -1, 1))
    return Serves(events, declared, n, complete)


def find_reshuffles(
    serves: Serves,
    pokerstars: bool,
    crowded: dict[int, int] | None = None,
    *,
    pool_all: bool = False,
) -> Timing:
    """Where the stub runs out, for choosing the unknown cards.

    The default rule re-forms the stub when it is empty: that depends on the counts of
    cards drawn and folded only. "pokerstars" re-forms it when it holds fewer cards than
    the served player needs (counts again), and also when all that is left of it is
    cards he threw earlier in the hand - which depends on the cards. ``crowded`` chooses
    those points: declaration (action index) -> how many cards the player gets before
    what is left of the stub is only his own discards; :attr:`Timing.options` lists the
    serves where that is possible by the counts.

    Burn cards take one card of the stub each (of a new stub if it is empty then) and go
    out of play. ``pool_all`` (the "pokerkit" reshuffle): a reshuffle also takes every
    discard of the draw declared so far, the served player's own included."""
    timing = Timing(pokerstars)
    crowded = crowded or {}
    stub = 52 - 5 * serves.n
    out = 0
    epoch = 0
    threw = [0] * serves.n  # cards thrown so far in the hand, per player
    latest: dict[int, int] = {}  # player -> action index of his latest declaration
    thrown: dict[int, int] = {}  # player -> how many cards his latest declaration threw
    order = iter(serves.declared)
    last_decl = 0
    for kind, k_pl, count in serves.events:
        if kind == "fold":
            out += 5
        elif kind == "burn":
            if not stub:  # the burn comes from a new stub
                epoch += 1
                timing.reshuffles.append((last_decl, 0))
                stub, out = out, 0
            stub -= 1
            out += 1
        elif kind == "discard":
            latest[k_pl] = last_decl = next(order)
            thrown[k_pl] = count
            if pool_all:  # on the table, and in the pool of a reshuffle from now on
                out += count
        else:  # draw
            k = count
            decl = latest[k_pl]
            pool_time = last_decl if pool_all else decl
            if k <= stub:
                first = crowded.get(decl)
                if pokerstars and out:
                    # his own earlier discards (at most) left in the stub, passed over
                    low = max(0, stub - threw[k_pl])
                    if low < k:
                        timing.options.append((decl, range(low, k)))
                if first is not None and pokerstars and out and first < k:
                    timing.crowded[epoch] = k_pl
                    epochs = [epoch] * first + [epoch + 1] * (k - first)
                    epoch += 1
                    timing.reshuffles.append((decl, k_pl))
                    stub = stub - first + out - (k - first)
                    out = 0
                else:
                    epochs = [epoch] * k
                    stub -= k
            elif pokerstars:  # the rest of the stub and the pool form a new stub
                epoch += 1
                timing.reshuffles.append((pool_time, k_pl))
                epochs = [epoch] * k
                stub = stub + out - k
                out = 0
            else:  # he gets the rest of the stub, then cards of the new one
                epoch += 1
                timing.reshuffles.append((pool_time, k_pl))
                epochs = [epoch - 1] * stub + [epoch] * (k - stub)
                stub = out - (k - stub)
                out = 0
            if not pool_all:
                out += thrown[k_pl]
            threw[k_pl] += thrown[k_pl]
            timing.epochs[decl] = epochs
    timing.last = epoch
    return timing
