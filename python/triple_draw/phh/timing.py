"""When the stub runs out in a history, and the cards' places in time.

A :class:`Slot` is one card in one holding, known or ``??``; :func:`find_reshuffles`
finds where the stub runs out (a :class:`Timing`), which the unknown-card solver
(:mod:`triple_draw.phh.infer`) needs to know which cards the deal could give when."""

from __future__ import annotations

import random
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


def find_reshuffles(
    rules: Rules,
    stacks_phh: list[int],
    seat_of: list[int],
    button: int,
    acts: list[Act],
    core: Any,
    rng: random.Random | None = None,
) -> Timing:
    """Where the stub runs out, for choosing the unknown cards.

    That depends only on how many cards are drawn and folded (under "pokerstars" also on
    which cards a player threw, so there it is an estimate), so the actions replayed with
    random cards find the points. A history that turns illegal is followed up to there.
    ``rng``: another estimate - a deck seeded from it, and random cards thrown where the
    history does not name them (by default the first cards held)."""
    n = len(stacks_phh)
    timing = Timing(rules.reshuffle == "pokerstars")
    stacks = [0] * n
    for k, seat in enumerate(seat_of):
        stacks[seat] = stacks_phh[k]
    declared: list[int] = []
    try:
        hand = Hand(rules, stacks, button, 0 if rng is None else rng.randrange(1 << 32), core=core)
        for a in acts:
            if a.verb not in ("sd", "f", "cc", "cbr"):
                continue
            seat = seat_of[a.player]
            if hand.actor != seat or (a.verb == "sd") != hand.in_draw:
                break
            if a.verb == "sd":
                held = list(hand.hole_ids(seat))
                if rng is not None:
                    named = [c for c in a.cards if c is not None and c in held]
                    rest = [c for c in held if c not in named]
                    rng.shuffle(rest)
                    held = named + rest
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
    except (IllegalActionError, ValueError):
        pass
    if not declared:
        return timing
    pl = {seat: k for k, seat in enumerate(seat_of)}
    stub = 52 - 5 * n
    epoch = 0
    latest: dict[int, int] = {}  # seat -> action index of his latest declaration
    order = iter(declared)
    pending: int | None = None
    # "pokerkit": a reshuffle takes every discard of the draw made so far
    pool_all = rules.reshuffle == "pokerkit"
    last_decl = 0
    for e in hand.history:
        if e.kind == "discard":
            latest[e.seat] = last_decl = next(order)  # type: ignore[index]
        elif e.kind == "burn":  # one card of the stub (of a new one if it ran out there)
            if pending is not None:
                epoch += 1
                stub = pending
                pending = None
            stub -= 1
        elif e.kind == "reshuffle":
            pending = e.amount
            time = last_decl if pool_all or e.seat is None else latest[e.seat]
            timing.reshuffles.append((time, pl.get(e.seat, 0)))  # type: ignore[arg-type]
        elif e.kind == "draw":
            k = len(e.cards or ())
            if pending is None:
                epochs = [epoch] * k
                stub -= k
            elif timing.pokerstars:
                epoch += 1
                epochs = [epoch] * k
                stub = pending - k
            else:  # he got the rest of the stub, then cards of the new one
                epochs = [epoch] * stub + [epoch + 1] * (k - stub)
                epoch += 1
                stub = pending - (k - epochs.count(epoch - 1))
            pending = None
            timing.epochs[latest[e.seat]] = epochs  # type: ignore[index]
    timing.last = epoch
    return timing
