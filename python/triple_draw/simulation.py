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
import sys
import time
from bisect import bisect_left
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from triple_draw._core import CATEGORIES, rank_ids
from triple_draw._executors import RayExecutor, resolve_executor, run_ordered
from triple_draw._text import format_table
from triple_draw.errors import ArgumentError, IllegalActionError
from triple_draw.game.actions import Action
from triple_draw.game.hand import Hand
from triple_draw.game.rules import MAX_PLAYERS, Rules
from triple_draw.game.table import Table

__all__ = ["simulate", "SimulationResult", "SeatResult", "RayExecutor", "chunk_seed", "CATEGORIES"]

# the last rank of each category (rank classes per category, best category first, cumulated)
_CAT_LAST = []
_acc = 0
for _k in (1278, 2860, 858, 858, 9, 1278, 156, 156, 9):
    _acc += _k
    _CAT_LAST.append(_acc)
del _acc, _k

_Z95 = 1.959963984540054
_SEED_LIMIT = 1 << 256


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
        lines.append(
            f"{self.hands_per_second:,.0f} hands/s ({self.elapsed:.2f} s on {self.executor}; "
            f"{self.hands_per_worker_second:,.0f} hands/s per worker)"
        )
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.summary()


# -- one chunk (runs in a worker) --------------------------------------------------------------


def _as_action(x: Any) -> Action:
    if type(x) is Action:
        return x
    if isinstance(x, dict):
        return Action.from_dict(x)
    if isinstance(x, str):
        return Action(x)
    raise IllegalActionError(f"a bot must return an Action, got {x!r}")


def _zero_tallies(
    n: int,
) -> tuple[list[int], list[int], list[int], list[int], list[int], list[list[int]], list[int]]:
    """Per-seat tallies of ``n`` seats, all zero: net, net squared, hands won, showdowns,
    showdowns won, showdowns per category, rebuys (the layout of :func:`_play_chunk`'s result)."""
    return [0] * n, [0] * n, [0] * n, [0] * n, [0] * n, [[0] * 9 for _ in range(n)], [0] * n


def _play_chunk(
    index: int,
    seed: int,
    first_hand: int,
    count: int,
    bots: list[Any],
    rules: Rules,
    stack: int,
    mode: str,
) -> tuple[Any, ...]:
    """Play ``count`` hands; return integer tallies (see :func:`_reduce`)."""
    t0 = time.perf_counter()
    n = len(bots)
    rng = random.Random(seed)
    bots = [copy.deepcopy(b) for b in bots]
    for b in bots:
        reseed = getattr(b, "reseed", None)
        bot_seed = rng.getrandbits(64)
        if callable(reseed):
            reseed(bot_seed)
    acts = [b.act for b in bots]
    net, sq, won, sd, sdw, cats, rebuys = _zero_tallies(n)
    showdowns = 0
    pot_total = 0
    table = (
        Table(rules, [stack] * n, button=index % n, seed=rng.getrandbits(128))
        if mode == "table"
        else None
    )
    stacks = [stack] * n
    for i in range(count):
        if table is None:
            hand = Hand(rules, stacks, (first_hand + i) % n, rng.getrandbits(128))
        else:
            seats = table.seats
            for s in range(n):
                if seats[s] is None:
                    table.rebuy(s, stack)
                    rebuys[s] += 1
            hand = table.new_hand()
        view = hand.view
        apply = hand.apply
        while True:
            a = hand.actor
            if a is None:
                break
            act = acts[a](view(a))
            if type(act) is not Action:
                act = _as_action(act)
            try:
                apply(act)
            except IllegalActionError as e:
                raise IllegalActionError(
                    f"bot {_bot_label(bots[a])} in seat {a} chose {act}: {e}"
                ) from None
        res = hand.result
        assert res is not None
        for s, x in enumerate(res.net):
            net[s] += x
            sq[s] += x * x
            if x > 0:
                won[s] += 1
        pot_total += sum(p.amount for p in res.pots)
        if res.showdown:
            showdowns += 1
            paid = {s for p in res.pots for s, x in p.shares if x > 0}
            for entry in res.showdown:
                s = entry.seat
                sd[s] += 1
                if s in paid:
                    sdw[s] += 1
                r = entry.rank if entry.rank is not None else rank_ids(hand.hole_ids(s))
                cats[s][bisect_left(_CAT_LAST, r)] += 1
    return (
        index,
        net,
        sq,
        won,
        sd,
        sdw,
        cats,
        rebuys,
        showdowns,
        pot_total,
        time.perf_counter() - t0,
    )


def _bot_label(bot: Any) -> str:
    name = getattr(bot, "name", None)
    return name if isinstance(name, str) and name and name != "bot" else type(bot).__name__


# -- the public entry point ---------------------------------------------------------------------


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
) -> SimulationResult:
    """Play ``hands`` complete hands between ``bots`` and tally what every seat won.

    - ``bots``: one bot per seat (objects with ``act(view)``, or names for
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
    """
    if type(hands) is not int or hands < 1:
        raise ArgumentError(f"hands must be an int >= 1, got {hands!r}")
    if type(chunk_size) is not int or chunk_size < 1:
        raise ArgumentError(f"chunk_size must be an int >= 1, got {chunk_size!r}")
    if mode not in ("independent", "table"):
        raise ArgumentError(f"mode must be 'independent' or 'table', got {mode!r}")
    if seed is None:
        seed = random.SystemRandom().getrandbits(64)
    elif type(seed) is not int or not 0 <= seed < _SEED_LIMIT:
        raise ArgumentError(f"seed must be an int 0 <= seed < 2**256, got {seed!r}")
    bot_list = _seat_bots(bots, players)
    n = len(bot_list)
    if rules is None:
        rules = Rules(max_players=max(6, n))
    elif type(rules) is not Rules:
        raise TypeError(f"rules must be a Rules, got {type(rules).__name__}")
    if n > rules.max_players:
        raise ArgumentError(
            f"{n} players do not fit: the rules allow at most {rules.max_players} "
            "(Rules.max_players)"
        )
    if stack is None:
        stack = 100 * rules.big_bet
    elif type(stack) is not int or stack < 1:
        raise ArgumentError(f"stack must be an int >= 1, got {stack!r}")

    specs = []
    for index, first in enumerate(range(0, hands, chunk_size)):
        count = min(chunk_size, hands - first)
        specs.append((index, chunk_seed(seed, index), first, count, bot_list, rules, stack, mode))

    bar: Any = None
    report: Callable[[int, int], None] | None = None
    if progress is True:
        from tqdm import tqdm

        bar = tqdm(
            total=hands, unit="hand", unit_scale=True, file=sys.stderr, desc="simulate", leave=False
        )
    elif callable(progress):
        report = progress
    elif progress not in (False, None):
        raise TypeError(f"progress must be a bool or a callable, got {progress!r}")
    done = 0

    def on_done(i: int, r: Any) -> None:
        nonlocal done
        done += specs[i][3]
        if bar is not None:
            bar.update(specs[i][3])
        if report is not None:
            report(done, hands)

    ex, owned, desc = resolve_executor(executor, workers)
    t0 = time.perf_counter()
    try:
        parts = run_ordered(_play_chunk, specs, ex, on_done)
    finally:
        if owned:
            ex.shutdown(wait=True, cancel_futures=True)
        if bar is not None:
            bar.close()
    elapsed = time.perf_counter() - t0
    return _reduce(parts, seed, hands, bot_list, rules, stack, mode, chunk_size, elapsed, desc)


def _seat_bots(bots: Sequence[Any] | None, players: int | None) -> list[Any]:
    from triple_draw.bots import HeuristicBot, make_bot

    if players is not None and (type(players) is not int or not 2 <= players <= MAX_PLAYERS):
        raise ArgumentError(f"players must be an int 2..{MAX_PLAYERS}, got {players!r}")
    if bots is None:
        return [HeuristicBot() for _ in range(players or 6)]
    if isinstance(bots, str) or callable(getattr(bots, "act", None)):
        bots = [bots]
    out = [make_bot(b) for b in bots]
    if len(out) == 1 and players is not None:
        out = [out[0]] + [copy.deepcopy(out[0]) for _ in range(players - 1)]
    if players is not None and len(out) != players:
        raise ArgumentError(
            f"{len(out)} bots given for {players} players: give one bot, or one per seat"
        )
    if not 2 <= len(out) <= MAX_PLAYERS:
        raise ArgumentError(f"a game needs 2..{MAX_PLAYERS} bots (one per seat), got {len(out)}")
    return out


def _reduce(
    parts: list[Any],
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
    n = len(bots)
    net, sq, won, sd, sdw, cats, rebuys = _zero_tallies(n)
    showdowns = 0
    pot_total = 0
    worker = 0.0
    for k, part in enumerate(parts):  # chunk order
        index, p_net, p_sq, p_won, p_sd, p_sdw, p_cats, p_rebuys, p_showdowns, p_pot, secs = part
        if index != k:  # pragma: no cover - run_ordered keeps the order
            raise RuntimeError(f"chunk {index} arrived in place {k}")
        for s in range(n):
            net[s] += p_net[s]
            sq[s] += p_sq[s]
            won[s] += p_won[s]
            sd[s] += p_sd[s]
            sdw[s] += p_sdw[s]
            rebuys[s] += p_rebuys[s]
            for c in range(9):
                cats[s][c] += p_cats[s][c]
        showdowns += p_showdowns
        pot_total += p_pot
        worker += secs
    seats = tuple(
        SeatResult(
            seat=s,
            bot=_bot_label(bots[s]),
            hands=hands,
            net=net[s],
            net_sq=sq[s],
            won=won[s],
            showdowns=sd[s],
            showdowns_won=sdw[s],
            categories={CATEGORIES[c]: cats[s][c] for c in range(9) if cats[s][c]},
            big_bet=rules.big_bet,
            rebuys=rebuys[s],
        )
        for s in range(n)
    )
    return SimulationResult(
        seed=seed,
        hands=hands,
        players=n,
        mode=mode,
        chunk_size=chunk_size,
        rules=rules,
        stack=stack,
        seats=seats,
        showdowns=showdowns,
        pot_total=pot_total,
        elapsed=elapsed,
        worker_seconds=worker,
        executor=desc,
    )
