"""Batch play: many complete hands between bots, split into seeded chunks, on any executor.

:func:`simulate` plays ``hands`` hands between one bot per seat and returns a
:class:`SimulationResult`: per seat, the chips won per 100 hands with a 95% confidence
interval, how often the seat won, went to showdown and won there, and the hand categories
it showed down; plus the run's throughput.

Reproducibility: the hands are cut into chunks of ``chunk_size``. Chunk ``i`` is played
from its own seed, derived from ``(seed, i)`` alone; its bots are fresh copies, re-seeded
from that chunk seed (``bot.reseed``); every tally is an integer and the chunks are
reduced in chunk order. So the same ``(bots, hands, seed, chunk_size, rules, ...)`` give
the identical result in this process, on threads, on worker processes or as Ray tasks,
with any number of workers.

The core: ``core=`` (``"compiled"``, ``"reference"`` or a
:class:`~triple_draw.game.core.Core`; default: the default core) deals and ranks every
hand of the run and computes the bundled bots' decisions (every :class:`~triple_draw.bots.Bot`
plays on the run's core), in this process and in every worker process or Ray task. Both
cores give the identical result for the same arguments.

>>> from triple_draw.bots import HeuristicBot, RandomBot
>>> r = simulate([HeuristicBot(), RandomBot()], hands=200, seed=1)
>>> r.hands, sum(s.net for s in r.seats)   # chips are conserved
(200, 0)
>>> r == simulate([HeuristicBot(), RandomBot()], hands=200, seed=1, chunk_size=1000,
...                executor="threads", workers=2)
True
"""

from __future__ import annotations

import copy
import hashlib
import math
import random
import time
from bisect import bisect_left
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from triple_draw._executors import ExecutorStartError, RayExecutor, WorkersLostError, run_chunks
from triple_draw._text import format_table
from triple_draw.bots import (
    BET_OR_RAISE,
    CALL,
    DISCARD,
    FOLD,
    Bot,
    CallingStationBot,
    F_BET_LEVEL,
    F_BETS,
    F_BIG_BLIND_SEAT,
    F_BUTTON,
    F_DRAWS,
    F_FOLDED,
    F_HOLE,
    F_N_PLAYERS,
    F_PHASE,
    F_POT,
    F_RAISE_TO,
    F_ROUND_BETS,
    F_ROUND_VOLUNTARY,
    F_SEAT,
    F_SMALL_BLIND_SEAT,
    F_STACKS,
    F_STREET,
    F_TO_CALL,
    HeuristicBot,
    RandomBot,
    decide_method,
    new_observation,
    observation_fields,
)
from triple_draw.bots import as_action as _as_action
from triple_draw.errors import ArgumentError, ArgumentTypeError, IllegalActionError
from triple_draw.game.actions import Action
from triple_draw.game.core import Core, default_core, portable_core, resolve_core
from triple_draw.game.hand import Hand
from triple_draw.game.rules import MAX_PLAYERS, Rules, real_game_only
from triple_draw.game.table import Table

__all__ = [
    "simulate",
    "SimulationResult",
    "SeatResult",
    "RayExecutor",
    "ExecutorStartError",
    "WorkersLostError",
    "chunk_seed",
    "CATEGORIES",
    "MAX_HANDS",
]


def _category_last_ranks(core: Core) -> list[int]:
    """The last (worst) rank of each category, in ``core.CATEGORIES`` order, found by
    bisecting the core's ranks (each category is one contiguous run of ranks)."""
    cats = core.CATEGORIES
    out = []
    lo = 1
    for k in range(len(cats)):
        hi = core.NUM_CLASSES
        while lo < hi:  # the first rank whose category comes after category k
            mid = (lo + hi + 1) // 2
            if cats.index(core.HandRank(mid).category) <= k:
                lo = mid
            else:
                hi = mid - 1
        out.append(lo)
        lo += 1
    return out


#: _category_last_ranks of each core used so far
_CAT_LAST: dict[Any, list[int]] = {}


def _cat_last(core: Core) -> list[int]:
    last = _CAT_LAST.get(core)
    if last is None:
        last = _CAT_LAST[core] = _category_last_ranks(core)
    return last


#: The hand categories, best first (the keys of :attr:`SeatResult.categories`).
CATEGORIES: tuple[str, ...] = tuple(default_core().CATEGORIES)
_Z95 = 1.959963984540054
_SEED_LIMIT = 1 << 256
#: The largest ``hands`` a run accepts (about 3 years of play at 10,000 hands/s).
MAX_HANDS = 10**12


def chunk_seed(seed: int, index: int) -> int:
    """The seed of chunk ``index`` of a run seeded ``seed`` (a 256-bit int): SHA-256 of a
    fixed tag, the seed (32 bytes, little-endian) and the index (8 bytes)."""
    h = hashlib.sha256(
        b"triple_draw.simulate/1\0" + seed.to_bytes(32, "little") + index.to_bytes(8, "little")
    )
    return int.from_bytes(h.digest(), "little")


# -- results ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class SeatResult:
    """What one seat (one bot) did over the run. Counts are exact integers; the rates and
    intervals are derived from them."""

    seat: int
    bot: str
    hands: int
    #: total chips won (negative: lost)
    net: int
    #: sum of the squared per-hand results (for the variance)
    net_sq: int
    #: hands in which the seat gained chips
    won: int
    #: hands the seat played to the showdown (shown or mucked)
    showdowns: int
    #: showdowns at which the seat collected some pot
    showdowns_won: int
    #: hands shown down per category (``CATEGORIES`` order; only categories seen)
    categories: dict[str, int]
    #: the big bet of the rules (for big bets per 100 hands)
    big_bet: int
    #: table mode: times the seat busted and bought back in
    rebuys: int = 0

    @property
    def chips_per_hand(self) -> float:
        return self.net / self.hands if self.hands else 0.0

    @property
    def chips_per_100(self) -> float:
        """Chips won per 100 hands."""
        return 100.0 * self.chips_per_hand

    @property
    def std_per_hand(self) -> float:
        """Sample standard deviation of the chips won in one hand."""
        n = self.hands
        if n < 2:
            return 0.0
        var = (self.net_sq - self.net * self.net / n) / (n - 1)
        return math.sqrt(max(0.0, var))

    @property
    def ci95_per_100(self) -> tuple[float, float]:
        """95% confidence interval of :attr:`chips_per_100` (normal approximation)."""
        half = self.ci95_half_width
        m = self.chips_per_100
        return (m - half, m + half)

    @property
    def ci95_half_width(self) -> float:
        """Half the width of the 95% interval of chips per 100 hands."""
        if self.hands < 2:
            return math.inf
        return 100.0 * _Z95 * self.std_per_hand / math.sqrt(self.hands)

    @property
    def big_bets_per_100(self) -> float:
        """Big bets won per 100 hands (the usual fixed-limit win rate)."""
        return self.chips_per_100 / self.big_bet

    @property
    def win_rate(self) -> float:
        """Fraction of hands in which the seat gained chips."""
        return self.won / self.hands if self.hands else 0.0

    @property
    def showdown_frequency(self) -> float:
        """Fraction of hands the seat took to the showdown."""
        return self.showdowns / self.hands if self.hands else 0.0

    @property
    def showdown_win_rate(self) -> float:
        """Fraction of the seat's showdowns at which it collected a pot."""
        return self.showdowns_won / self.showdowns if self.showdowns else 0.0

    @property
    def category_frequencies(self) -> dict[str, float]:
        """Share of each hand category among the seat's showdowns."""
        n = self.showdowns
        return {k: v / n for k, v in self.categories.items()} if n else {}

    def to_dict(self) -> dict[str, Any]:
        lo, hi = self.ci95_per_100
        return {
            "seat": self.seat,
            "bot": self.bot,
            "hands": self.hands,
            "net": self.net,
            "chips_per_100": self.chips_per_100,
            "ci95_per_100": [lo, hi],
            "big_bets_per_100": self.big_bets_per_100,
            "std_per_hand": self.std_per_hand,
            "won": self.won,
            "win_rate": self.win_rate,
            "showdowns": self.showdowns,
            "showdown_frequency": self.showdown_frequency,
            "showdowns_won": self.showdowns_won,
            "showdown_win_rate": self.showdown_win_rate,
            "categories": dict(self.categories),
            "rebuys": self.rebuys,
        }


@dataclass(frozen=True)
class SimulationResult:
    """The outcome of :func:`simulate`. Two results compare equal when every count is
    equal; the timing fields (``elapsed``, ``executor``, ``worker_seconds``) are not
    compared."""

    seed: int
    hands: int
    players: int
    mode: str
    chunk_size: int
    rules: Rules
    stack: int
    seats: tuple[SeatResult, ...]
    #: hands that reached a showdown
    showdowns: int
    #: chips in all pots together (after uncalled bets were returned)
    pot_total: int
    #: chips the house took over all hands (the sum of ``HandResult.rake``; 0 without
    #: rake): ``sum(seat.net) + rake_total == 0``
    rake_total: int = 0
    elapsed: float = field(default=0.0, compare=False)
    worker_seconds: float = field(default=0.0, compare=False)
    executor: str = field(default="serial", compare=False)

    @property
    def chunks(self) -> int:
        return -(-self.hands // self.chunk_size)

    @property
    def hands_per_second(self) -> float:
        """Throughput of the whole run (wall clock, pool start-up included)."""
        return self.hands / self.elapsed if self.elapsed > 0 else math.inf

    @property
    def hands_per_worker_second(self) -> float:
        """Hands per second of one worker (the time spent inside the chunks)."""
        return self.hands / self.worker_seconds if self.worker_seconds > 0 else math.inf

    @property
    def average_pot(self) -> float:
        return self.pot_total / self.hands if self.hands else 0.0

    @property
    def showdown_frequency(self) -> float:
        return self.showdowns / self.hands if self.hands else 0.0

    @property
    def takes_rake(self) -> bool:
        """Do the rules take a rake (``Rules.rake_percent`` above 0)?"""
        return bool(self.rules.compiled.rake)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data (what ``triple-draw simulate --json`` prints)."""
        return {
            "seed": self.seed,
            "hands": self.hands,
            "players": self.players,
            "mode": self.mode,
            "chunk_size": self.chunk_size,
            "chunks": self.chunks,
            "rules": self.rules.to_dict(),
            "stack": self.stack,
            "showdowns": self.showdowns,
            "showdown_frequency": self.showdown_frequency,
            "average_pot": self.average_pot,
            # only when the rules take a rake: a run without one has the document it had
            **({"rake_total": self.rake_total} if self.takes_rake else {}),
            "seats": [s.to_dict() for s in self.seats],
            "elapsed": self.elapsed,
            "hands_per_second": self.hands_per_second,
            "hands_per_worker_second": self.hands_per_worker_second,
            "executor": self.executor,
        }

    def summary(self) -> str:
        """A table of the per-seat results, for people."""
        bb = self.rules.big_bet
        head = (
            f"{self.hands} hands, {self.players} players, seed {self.seed}, "
            f"stakes {self.rules.small_blind}/{self.rules.big_blind} blinds, "
            f"{self.rules.small_bet}/{bb} limit, stacks {self.stack}"
            + (" (table: stacks carry over, busted players rebuy)" if self.mode == "table" else "")
        )
        rows = [
            (
                "seat",
                "bot",
                "chips/100",
                "95% CI",
                "BB/100",
                "won%",
                "showdown%",
                "won at SD%",
                "SD no pair%",
            )
        ]
        for s in self.seats:
            lo, hi = s.ci95_per_100
            no_pair = s.category_frequencies.get("no pair", 0.0)
            top = f"{100 * no_pair:.1f}" if s.showdowns else "-"
            rows.append(
                (
                    str(s.seat),
                    s.bot,
                    f"{s.chips_per_100:+.1f}",
                    f"[{lo:+.1f}, {hi:+.1f}]",
                    f"{s.big_bets_per_100:+.2f}",
                    f"{100 * s.win_rate:.1f}",
                    f"{100 * s.showdown_frequency:.1f}",
                    f"{100 * s.showdown_win_rate:.1f}",
                    top,
                )
            )
        right = [i for i in range(len(rows[0])) if i != 1]
        lines = [head, "", *format_table(rows, right)]
        lines.append("")
        lines.append(
            f"showdowns {100 * self.showdown_frequency:.1f}% of hands, "
            f"average pot {self.average_pot:.1f} chips"
        )
        if self.takes_rake:
            r = self.rules
            terms = [f"{r.rake_percent}%", f"rounded {r.rake_rounding}"]
            if r.rake_cap:
                terms.append(f"cap {r.rake_cap}")
            if r.rake_no_draw_no_drop:
                terms.append("no draw, no drop")
            lines.append(
                f"rake ({', '.join(terms)}): {self.rake_total} chips taken, "
                f"{self.rake_total / self.hands:.2f} per hand"
            )
        lines.append(
            f"{self.hands_per_second:,.0f} hands/s ({self.elapsed:.2f} s on {self.executor}; "
            f"{self.hands_per_worker_second:,.0f} hands/s per worker)"
        )
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.summary()


# -- one chunk (runs in a worker) --------------------------------------------------------------


#: ``tuple(live)`` -> the seats' ``folded`` flags (``not`` of each), as one shared tuple
#: (bounded: at most 2**8 keys of each table size)
_FOLDED: dict[tuple[bool, ...], tuple[bool, ...]] = {}


def _folded_of(live: list[bool]) -> tuple[bool, ...]:
    """The folded flags of the seats of a hand's ``_live`` list (shared tuples: the folds
    of an Observation)."""
    key = tuple(live)
    got = _FOLDED.get(key)
    if got is None:
        got = _FOLDED[key] = tuple([not v for v in key])
    return got


#: The bundled bots: their decisions are legal actions by construction (built from the
#: observation's ``to_call`` and ``raise_to``), so the chunk loop applies them without
#: re-checking (subclasses may override ``decide``, so only these exact classes).
_BUNDLED = frozenset((HeuristicBot, RandomBot, CallingStationBot))


def _zero_tallies(
    n: int,
) -> tuple[list[int], list[int], list[int], list[int], list[int], list[list[int]], list[int]]:
    """Per-seat tallies of ``n`` seats, all zero: net, net squared, hands won, showdowns,
    showdowns won, showdowns per category, rebuys (the layout of :func:`_play_chunk`'s result)."""
    k = len(CATEGORIES)
    return [0] * n, [0] * n, [0] * n, [0] * n, [0] * n, [[0] * k for _ in range(n)], [0] * n


def _play_chunk(
    index: int,
    seed: int,
    first_hand: int,
    count: int,
    bots: list[Any],
    rules: Rules,
    stack: int,
    mode: str,
    core: Any,
    nets: list[tuple[int, ...]] | None = None,
) -> tuple[Any, ...]:
    """Play ``count`` hands on ``core`` (a core or its :func:`portable_core` name); return
    integer tallies (see :class:`_Tally`). ``nets``: a list that gets each hand's per-seat
    net appended, in order (:func:`triple_draw.evaluation.match` pairs the hands of its
    duplicate deals with it).

    Bots with a ``decide`` method get an :class:`~triple_draw.bots.Observation` built here
    from the hand's public state, its public record (the cards each seat drew, the folds,
    the bets and calls of the round) and the seat's own cards; the others get
    ``hand.view(seat)``."""
    t0 = time.perf_counter()
    n = len(bots)
    rng = random.Random(seed)
    core = resolve_core(core)
    rank_ids = core.rank_ids
    cat_last = _cat_last(core)
    bots = [copy.deepcopy(b) for b in bots]
    for b in bots:
        if isinstance(b, Bot) and b.core is not core:
            b.core = core
        reseed = getattr(b, "reseed", None)
        bot_seed = rng.getrandbits(64)
        if callable(reseed):
            reseed(bot_seed)
    decides = [decide_method(b) for b in bots]
    acts: list[Any] = [None if d is not None else b.act for b, d in zip(bots, decides, strict=True)]
    trusted = [type(b) in _BUNDLED and d is not None for b, d in zip(bots, decides, strict=True)]
    chooses = [b.choose if type(b) is HeuristicBot else None for b in bots]
    net, sq, won, sd, sdw, cats, rebuys = _zero_tallies(n)
    showdowns = 0
    pot_total = 0
    rake_total = 0
    table = (
        Table(rules, [stack] * n, button=index % n, seed=rng.getrandbits(128), core=core)
        if mode == "table"
        else None
    )
    stacks = [stack] * n
    no_draws: tuple[tuple[int, ...], ...] = ((),) * n
    zeros = (0,) * n
    # The observation of the seat to act: its fields, kept along each hand in a list and
    # set by name (bots.F_*, here as locals, which this loop reads faster than globals) -
    # the public record when it changes, the seat's own part at each decision. Each
    # decision's Observation is new_observation of the list.
    make_obs = new_observation
    folded_of = _folded_of
    fields = observation_fields()
    fields[F_N_PLAYERS] = n
    f_seat = F_SEAT
    f_hole = F_HOLE
    f_phase = F_PHASE
    f_street = F_STREET
    f_button = F_BUTTON
    f_small_blind_seat = F_SMALL_BLIND_SEAT
    f_big_blind_seat = F_BIG_BLIND_SEAT
    f_folded = F_FOLDED
    f_stacks = F_STACKS
    f_bets = F_BETS
    f_draws = F_DRAWS
    f_pot = F_POT
    f_to_call = F_TO_CALL
    f_raise_to = F_RAISE_TO
    f_bet_level = F_BET_LEVEL
    f_round_bets = F_ROUND_BETS
    f_round_voluntary = F_ROUND_VOLUNTARY
    for i in range(count):
        if table is None:
            hand = Hand(rules, stacks, (first_hand + i) % n, rng.getrandbits(128), core=core)
        else:
            seats = table.seats
            for s in range(n):
                if seats[s] is None:
                    table.rebuy(s, stack)
                    rebuys[s] += 1
            hand = table.new_hand()
        apply = hand.apply
        # read straight from the hand: the seats' cards (one tuple per decision), while
        # betting the listed actions (the call and the raise amounts), the button and blinds
        held = hand._hands
        legal = hand.legal_actions
        fields[f_button] = hand._button
        fields[f_small_blind_seat] = hand._sb
        fields[f_big_blind_seat] = hand._bb
        # the public record (the folds, the draw counts, the round's bets and calls) is
        # the hand's own (state.py), read here when it changes: after a fold, a discard, a
        # call, bet or raise
        live = hand._live
        draws = hand._draws
        fields[f_folded] = folded_of(live)
        fields[f_draws] = no_draws
        stage_draw: bool | None = None
        stage_street = -1
        # whether the fields' stacks, bets and pot, and the round's bets and calls, are the
        # hand's: they change only when chips move (a call, bet or raise) or a new round
        # starts
        chips_current = False
        while True:
            a = hand._actor
            if a is None:
                break
            in_draw = hand._in_draw
            street = hand._street
            if in_draw != stage_draw or street != stage_street:
                # a new betting round or draw: chips may have moved (uncalled chips
                # returned) and the round's bets start again
                stage_draw = in_draw
                stage_street = street
                chips_current = False
                fields[f_street] = street
                if in_draw:  # nothing to call, bet or raise
                    fields[f_phase] = "draw"
                    fields[f_bets] = zeros
                    fields[f_to_call] = 0
                    fields[f_raise_to] = None
                    fields[f_bet_level] = 0
                    fields[f_round_bets] = 0
                    fields[f_round_voluntary] = False
                else:
                    fields[f_phase] = "bet"
            decide = decides[a]
            if decide is not None:
                if not chips_current:
                    chips_current = True
                    fields[f_stacks] = tuple(hand._stacks)
                    fields[f_pot] = sum(hand._total)
                    if not in_draw:
                        fields[f_bets] = bets = tuple(hand._bet)
                        # betting.round_action, inline (after round 1 nobody calls
                        # before somebody bets: the bets' sum is read only in round 1)
                        fields[f_round_bets] = made = hand._full_bets + hand._uncounted
                        fields[f_round_voluntary] = made > 0 or (
                            not street and sum(bets) > hand._posted
                        )
                fields[f_seat] = a
                fields[f_hole] = tuple(held[a])
                if not in_draw:
                    listed = legal()  # fold, check or call, and bet or raise if allowed
                    call = listed[1].amount  # None: a check
                    fields[f_to_call] = 0 if call is None else call - bets[a]
                    fields[f_raise_to] = listed[2].amount if len(listed) > 2 else None
                    fields[f_bet_level] = hand._level
                obs = make_obs(fields)
                choose = chooses[a]
                if choose is not None:
                    # the heuristic bot's decision as a code, applied straight to the
                    # engine (HeuristicBot.decide makes the same code an Action)
                    code, cards = choose(obs)
                    if code == DISCARD:
                        hand.discard(cards)
                        fields[f_draws] = tuple(draws)
                    elif code == FOLD:
                        hand.fold()
                        fields[f_folded] = folded_of(live)
                    elif code == BET_OR_RAISE:
                        hand.bet_or_raise()
                        chips_current = False
                    else:
                        hand.check_or_call()
                        if code == CALL:
                            chips_current = False
                    continue
                act = decide(obs)
            else:
                act = acts[a](hand.view(a))
            if type(act) is not Action:
                act = _as_action(act)
            k = act.kind
            try:
                if trusted[a]:
                    # a bundled bot's action, legal by construction: straight to the engine
                    if k == "discard":
                        hand.discard(act.cards)
                    elif k == "fold":
                        hand.fold()
                    elif k == "check" or k == "call":
                        hand.check_or_call()
                    else:
                        hand.bet_or_raise()
                else:
                    apply(act)
            except IllegalActionError as e:
                raise IllegalActionError(
                    f"bot {_bot_label(bots[a])} in seat {a} chose {act}: {e}"
                ) from None
            if k == "discard":
                fields[f_draws] = tuple(draws)
            elif k == "fold":
                fields[f_folded] = folded_of(live)
            elif k != "check":  # a call, bet or raise
                chips_current = False
        res = hand.result
        assert res is not None
        if nets is not None:
            nets.append(tuple(res.net))
        for s, x in enumerate(res.net):
            net[s] += x
            sq[s] += x * x
            if x > 0:
                won[s] += 1
        pot_total += sum(p.amount for p in res.pots)
        rake_total += res.rake
        if res.showdown:
            showdowns += 1
            paid = {s for p in res.pots for s, x in p.shares if x > 0}
            for entry in res.showdown:
                s = entry.seat
                sd[s] += 1
                if s in paid:
                    sdw[s] += 1
                r = entry.rank if entry.rank is not None else rank_ids(hand.hole_ids(s))
                cats[s][bisect_left(cat_last, r)] += 1
    return (
        index,
        count,
        net,
        sq,
        won,
        sd,
        sdw,
        cats,
        rebuys,
        showdowns,
        pot_total,
        rake_total,
        time.perf_counter() - t0,
    )


def _bot_label(bot: Any) -> str:
    name = getattr(bot, "name", None)
    return name if isinstance(name, str) and name and name != "bot" else type(bot).__name__


# -- the public entry point ---------------------------------------------------------------------



def run_seed(seed: Any) -> int:
    """A run's seed: ``seed`` checked (an int ``0 <= seed < 2**256``), or a fresh one from
    the OS when it is ``None`` (for :func:`simulate` and the scoreboard's ``match``)."""
    if seed is None:
        return random.SystemRandom().getrandbits(64)
    if type(seed) is not int or not 0 <= seed < _SEED_LIMIT:
        raise ArgumentError(f"seed must be an int 0 <= seed < 2**256, got {seed!r}")
    return seed


def table_rules(
    n: int, rules: Any, component: str = "simulate", reduced: bool = False
) -> Rules:
    """``rules`` checked for ``n`` players (``None``: ``Rules(max_players=max(6, n))``),
    and to be the real game's unless ``reduced``: ``component`` (named in the error) plays
    no reduced game."""
    if rules is None:
        return Rules(max_players=max(6, n))
    if type(rules) is not Rules:
        raise ArgumentTypeError(f"rules must be a Rules, got {type(rules).__name__}")
    if not reduced:
        real_game_only(rules, component)
    if n > rules.max_players:
        raise ArgumentError(
            f"{n} players do not fit: the rules allow at most {rules.max_players} "
            "(Rules.max_players)"
        )
    return rules


def run_settings(
    n: int, rules: Any, stack: Any, progress: Any, component: str = "simulate"
) -> tuple[Rules, int, Callable[[int, int], None] | None]:
    """The rules, the starting stack and the progress callback of a run of ``n`` players,
    each checked (``None``: ``Rules(max_players=max(6, n))``, 100 big bets, none)."""
    rules = table_rules(n, rules, component)
    if stack is None:
        stack = 100 * rules.big_bet
    elif type(stack) is not int or stack < 1:
        raise ArgumentError(f"stack must be an int >= 1, got {stack!r}")
    report: Callable[[int, int], None] | None = None
    if callable(progress):
        report = progress
    elif progress not in (True, False, None):
        raise ArgumentTypeError(f"progress must be a bool or a callable, got {progress!r}")
    return rules, stack, report

def simulate(
    bots: Sequence[Any] | None = None,
    hands: int = 10_000,
    *,
    seed: int | None = None,
    players: int | None = None,
    rules: Rules | None = None,
    stack: int | None = None,
    mode: str = "independent",
    chunk_size: int = 1000,
    executor: Any = None,
    workers: int | None = None,
    progress: bool | Callable[[int, int], None] = False,
    core: Any = None,
) -> SimulationResult:
    """Play ``hands`` complete hands between ``bots`` and tally what every seat won.

    - ``bots``: one bot per seat (objects with ``act(view)`` or ``decide(obs)`` - those get
      a :class:`~triple_draw.bots.Observation`, much cheaper than a view - or names for
      :func:`triple_draw.bots.make_bot` such as ``"heuristic"``/``"random"``); a single bot
      is repeated for every seat; ``None``: heuristic bots. Each chunk plays with deep
      copies, re-seeded through ``bot.reseed(seed)`` when the bot has that method.
    - ``players``: number of seats (default ``len(bots)``, or 6).
    - ``seed``: int ``0 <= seed < 2**256``; ``None`` draws one from OS entropy (it is in
      the result, so the run can be repeated).
    - ``rules``: a :class:`~triple_draw.Rules` (default ``Rules()``: 1/2 blinds, 2/4 limit;
      with 7 or 8 players ``max_players`` is raised to fit).
    - ``stack``: every seat's starting stack (default 100 big bets).
    - ``mode``: ``"independent"`` - every hand starts from equal stacks, the button moving
      one seat per hand; or ``"table"`` - each chunk is a session at a
      :class:`~triple_draw.Table` (stacks carry over, the table moves the button; a busted
      player buys back in for ``stack`` before the next hand, counted in ``rebuys``).
    - ``chunk_size``: hands per chunk (part of the reproducibility contract: the result
      depends on it, never on the executor or the number of workers).
    - ``executor``: ``None`` (this process, or a process pool when ``workers > 1``), any
      ``concurrent.futures.Executor`` (left open), a pool with ``map``, a
      :class:`RayExecutor`, or one of ``"serial"``, ``"threads"``, ``"processes"``,
      ``"ray"`` (created for the run with ``workers`` workers and shut down after).
    - ``progress``: ``True`` shows a tqdm bar on stderr; a callable is called as
      ``progress(hands_done, hands)`` after each chunk.
    - ``core``: ``"compiled"``, ``"reference"`` or a :class:`~triple_draw.game.core.Core`
      (default: the default core, :func:`~triple_draw.game.set_default_core`): it deals and
      ranks every hand and computes the decisions of every :class:`~triple_draw.bots.Bot`,
      in worker processes and Ray tasks too (a custom core object must pickle for those).

    ``hands`` is at most :data:`MAX_HANDS`; the chunks are generated lazily, a few per
    worker in flight, and added up as they finish, so memory does not grow with
    ``hands``. A pool created here never gets more workers than there are chunks. Ctrl-C
    (``KeyboardInterrupt``) cancels the chunks not started yet and propagates.
    """
    if type(hands) is not int or not 1 <= hands <= MAX_HANDS:
        raise ArgumentError(f"hands must be an int 1..{MAX_HANDS:.0e}, got {hands!r}")
    if type(chunk_size) is not int or not 1 <= chunk_size <= MAX_HANDS:
        raise ArgumentError(f"chunk_size must be an int >= 1, got {chunk_size!r}")
    if mode not in ("independent", "table"):
        raise ArgumentError(f"mode must be 'independent' or 'table', got {mode!r}")
    seed = run_seed(seed)
    run_core = portable_core(resolve_core(core))
    bot_list = _seat_bots(bots, players, run_core)
    n = len(bot_list)
    rules, stack, report = run_settings(n, rules, stack, progress)
    n_chunks = -(-hands // chunk_size)

    def specs() -> Iterator[tuple[Any, ...]]:
        # generated lazily: a run of any length never holds the list of its chunks
        for index in range(n_chunks):
            first = index * chunk_size
            count = min(chunk_size, hands - first)
            yield (
                index, chunk_seed(seed, index), first, count, bot_list, rules, stack, mode,
                run_core,
            )  # fmt: skip

    tally = _Tally(n)

    def on_done(i: int, part: Any) -> int:
        tally.add(i, part)
        if report is not None:
            report(tally.hands, hands)
        return tally.hands

    desc, elapsed = run_chunks(
        _play_chunk,
        specs(),
        executor,
        workers,
        n_chunks,
        on_done,
        progress=progress,
        total=hands,
        unit="hand",
        unit_scale=True,
    )
    return tally.result(seed, hands, bot_list, rules, stack, mode, chunk_size, elapsed, desc)


def _seat_bots(bots: Sequence[Any] | None, players: int | None, core: Any) -> list[Any]:
    from triple_draw.bots import HeuristicBot, make_bot

    if players is not None and (type(players) is not int or not 2 <= players <= MAX_PLAYERS):
        raise ArgumentError(f"players must be an int 2..{MAX_PLAYERS}, got {players!r}")
    if bots is None:
        return [HeuristicBot(core=core) for _ in range(players or 6)]
    if (
        isinstance(bots, str)
        or callable(getattr(bots, "act", None))
        or callable(getattr(bots, "decide", None))
    ):
        bots = [bots]
    elif isinstance(bots, Mapping) or not isinstance(bots, Iterable):
        raise ArgumentTypeError(f"bots must be a list of bots (one per seat), got {bots!r}")
    out = [make_bot(b, core=core) for b in bots]
    if len(out) == 1 and players is not None:
        out = [out[0]] + [copy.deepcopy(out[0]) for _ in range(players - 1)]
    if players is not None and len(out) != players:
        raise ArgumentError(
            f"{len(out)} bots given for {players} players: give one bot, or one per seat"
        )
    if not 2 <= len(out) <= MAX_PLAYERS:
        raise ArgumentError(f"a game needs 2..{MAX_PLAYERS} bots (one per seat), got {len(out)}")
    return out


class _Tally:
    """The running sums of a run's chunks, added in chunk order (integers only, so the
    result does not depend on how the chunks were spread)."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.net, self.sq, self.won, self.sd, self.sdw, self.cats, self.rebuys = _zero_tallies(n)
        self.showdowns = 0
        self.pot_total = 0
        self.rake_total = 0
        self.worker = 0.0
        self.chunks = 0
        self.hands = 0

    def add(self, k: int, part: tuple[Any, ...]) -> None:
        index, count, p_net, p_sq, p_won, p_sd, p_sdw, p_cats, p_rebuys = part[:9]
        p_sds, p_pot, p_rake, secs = part[9:]
        if index != k or k != self.chunks:  # pragma: no cover - run_ordered keeps the order
            raise RuntimeError(f"chunk {index} arrived in place {k}")
        for s in range(self.n):
            self.net[s] += p_net[s]
            self.sq[s] += p_sq[s]
            self.won[s] += p_won[s]
            self.sd[s] += p_sd[s]
            self.sdw[s] += p_sdw[s]
            self.rebuys[s] += p_rebuys[s]
            cats = self.cats[s]
            for c, x in enumerate(p_cats[s]):
                cats[c] += x
        self.showdowns += p_sds
        self.pot_total += p_pot
        self.rake_total += p_rake
        self.worker += secs
        self.chunks += 1
        self.hands += count

    def result(
        self,
        seed: int,
        hands: int,
        bots: list[Any],
        rules: Rules,
        stack: int,
        mode: str,
        chunk_size: int,
        elapsed: float,
        desc: str,
    ) -> SimulationResult:
        k = len(CATEGORIES)
        seats = tuple(
            SeatResult(
                seat=s,
                bot=_bot_label(bots[s]),
                hands=hands,
                net=self.net[s],
                net_sq=self.sq[s],
                won=self.won[s],
                showdowns=self.sd[s],
                showdowns_won=self.sdw[s],
                categories={CATEGORIES[c]: self.cats[s][c] for c in range(k) if self.cats[s][c]},
                big_bet=rules.big_bet,
                rebuys=self.rebuys[s],
            )
            for s in range(self.n)
        )
        return SimulationResult(
            seed=seed,
            hands=hands,
            players=self.n,
            mode=mode,
            chunk_size=chunk_size,
            rules=rules,
            stack=stack,
            seats=seats,
            showdowns=self.showdowns,
            pot_total=self.pot_total,
            rake_total=self.rake_total,
            elapsed=elapsed,
            worker_seconds=self.worker,
            executor=desc,
        )
