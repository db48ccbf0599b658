"""Many tournaments between bots: finishing places and return on investment per bot.

:func:`simulate_tournaments` plays ``tournaments`` complete tournaments of a
:class:`~triple_draw.Structure` between one bot per entrant and returns a
:class:`TournamentSimulationResult`: for each entrant (bot), how often it finished in each
place, its prizes, its ROI (return on investment: prizes less buy-ins and fees, per
buy-in and fee paid) with a 95% confidence interval, and the run's throughput.

Reproducibility: tournament ``i`` is played from its own seed, derived from ``(seed, i)``
alone, and its bots are fresh copies re-seeded from it; the tallies are integers added in
tournament order. The same arguments give the same result in this process, on worker
processes or as Ray tasks, with any number of workers and any ``chunk_size``.

>>> r = simulate_tournaments("sng2", ["heuristic", "random"], tournaments=4, seed=1)
>>> r.tournaments, sum(b.prizes for b in r.bots) == 4 * r.prize_pool
(4, True)
"""

from __future__ import annotations

import copy
import math
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from triple_draw._executors import run_chunks
from triple_draw._text import format_table
from triple_draw.bots import (
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
    as_action,
    new_observation,
    observation_fields,
)
from triple_draw.errors import ArgumentError, ArgumentTypeError, IllegalActionError
from triple_draw.game.betting import round_action
from triple_draw.game.core import portable_core, resolve_core
from triple_draw.structure import MAX_ENTRIES, Structure
from triple_draw.tournament import Tournament, derive_seed

__all__ = [
    "simulate_tournaments",
    "TournamentSimulationResult",
    "BotTournamentResult",
    "MAX_TOURNAMENTS",
    "default_entrants",
]

#: The most tournaments one run plays.
MAX_TOURNAMENTS = 10**9
_Z95 = 1.959963984540054
_SEED_LIMIT = 1 << 256
#: The most hands one simulated tournament may last (a bot that never loses a chip).
MAX_HANDS_PER_TOURNAMENT = 1_000_000


@dataclass(frozen=True)
class BotTournamentResult:
    """What one entrant (one bot) did over the run; counts are exact integers."""

    entrant: int
    bot: str
    tournaments: int
    #: ``places[p - 1]``: tournaments finished in place ``p`` (a tie counts at its best place)
    places: tuple[int, ...]
    #: total prize money won, and the sum of the squared prizes (for the variance)
    prizes: int
    prizes_sq: int
    #: tournaments finished in the money (a prize above 0)
    in_the_money: int
    #: what one tournament costs (buy-in and fee)
    cost: int

    @property
    def average_place(self) -> float:
        n = sum(self.places)
        return sum((p + 1) * k for p, k in enumerate(self.places)) / n if n else 0.0

    @property
    def itm_rate(self) -> float:
        return self.in_the_money / self.tournaments if self.tournaments else 0.0

    def place_rate(self, place: int) -> float:
        """Share of the tournaments finished in ``place`` (1-based)."""
        if not 1 <= place <= len(self.places) or not self.tournaments:
            return 0.0
        return self.places[place - 1] / self.tournaments

    @property
    def profit(self) -> int:
        """Prizes less what the tournaments cost."""
        return self.prizes - self.cost * self.tournaments

    @property
    def roi(self) -> float:
        """Return on investment: profit per money paid in (0.1 = +10%)."""
        paid = self.cost * self.tournaments
        return self.profit / paid if paid else 0.0

    @property
    def roi_ci95(self) -> tuple[float, float]:
        """95% confidence interval of :attr:`roi` (normal approximation)."""
        n = self.tournaments
        if n < 2 or not self.cost:
            return (-math.inf, math.inf)
        var = (self.prizes_sq - self.prizes * self.prizes / n) / (n - 1)
        half = _Z95 * math.sqrt(max(0.0, var) / n) / self.cost
        return (self.roi - half, self.roi + half)

    def to_dict(self) -> dict[str, Any]:
        lo, hi = self.roi_ci95
        return {
            "entrant": self.entrant,
            "bot": self.bot,
            "tournaments": self.tournaments,
            "places": list(self.places),
            "average_place": self.average_place,
            "in_the_money": self.in_the_money,
            "itm_rate": self.itm_rate,
            "prizes": self.prizes,
            "profit": self.profit,
            "roi": self.roi,
            "roi_ci95": [lo, hi],
        }


@dataclass(frozen=True)
class TournamentSimulationResult:
    """The outcome of :func:`simulate_tournaments`. Two results compare equal when every
    count is equal (the timing fields are not compared)."""

    structure: Structure
    seed: int
    tournaments: int
    entrants: int
    #: tournaments per work item (the result does not depend on it: not compared)
    chunk_size: int = field(compare=False)
    bots: tuple[BotTournamentResult, ...] = ()
    #: hands played in all the tournaments
    hands: int = 0
    #: the prize pool of one tournament, and the prizes by place
    prize_pool: int = 0
    prizes: tuple[int, ...] = ()
    elapsed: float = field(default=0.0, compare=False)
    worker_seconds: float = field(default=0.0, compare=False)
    executor: str = field(default="serial", compare=False)

    @property
    def tournaments_per_second(self) -> float:
        return self.tournaments / self.elapsed if self.elapsed > 0 else math.inf

    @property
    def tournaments_per_worker_second(self) -> float:
        return self.tournaments / self.worker_seconds if self.worker_seconds > 0 else math.inf

    @property
    def hands_per_tournament(self) -> float:
        return self.hands / self.tournaments if self.tournaments else 0.0

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data (what ``triple-draw simulate --tournament ... --json``
        prints)."""
        st = self.structure
        return {
            "tournament": st.name,
            "structure": st.to_dict(),
            "seed": self.seed,
            "tournaments": self.tournaments,
            "entrants": self.entrants,
            "chunk_size": self.chunk_size,
            "buy_in": st.buy_in,
            "fee": st.fee,
            "prize_pool": self.prize_pool,
            "prizes": list(self.prizes),
            "hands": self.hands,
            "hands_per_tournament": self.hands_per_tournament,
            "bots": [b.to_dict() for b in self.bots],
            "elapsed": self.elapsed,
            "tournaments_per_second": self.tournaments_per_second,
            "tournaments_per_worker_second": self.tournaments_per_worker_second,
            "executor": self.executor,
        }

    def summary(self) -> str:
        st = self.structure
        head = (
            f"{self.tournaments} tournaments {st.name!r}, {self.entrants} entrants, seed "
            f"{self.seed}: buy-in {st.buy_in} + {st.fee}, prizes "
            + "/".join(str(p) for p in self.prizes)
            + f"; {self.hands_per_tournament:.1f} hands a tournament"
        )
        shown = min(3, self.entrants)
        rows = [
            (
                "entrant",
                "bot",
                *(f"{_ordinal(p)}%" for p in range(1, shown + 1)),
                "ITM%",
                "avg place",
                "ROI%",
                "95% CI",
            )
        ]
        for b in self.bots:
            lo, hi = b.roi_ci95
            rows.append(
                (
                    str(b.entrant),
                    b.bot,
                    *(f"{100 * b.place_rate(p):.1f}" for p in range(1, shown + 1)),
                    f"{100 * b.itm_rate:.1f}",
                    f"{b.average_place:.2f}",
                    f"{100 * b.roi:+.1f}",
                    f"[{100 * lo:+.1f}, {100 * hi:+.1f}]",
                )
            )
        right = [i for i in range(len(rows[0])) if i != 1]
        lines = [head, "", *format_table(rows, right), ""]
        lines.append(
            f"{self.tournaments_per_second:,.1f} tournaments/s ({self.elapsed:.2f} s on "
            f"{self.executor}; {self.tournaments_per_worker_second:,.1f} per worker second)"
        )
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.summary()


def _ordinal(n: int) -> str:
    return f"{n}{'st' if n == 1 else 'nd' if n == 2 else 'rd' if n == 3 else 'th'}"


def default_entrants(structure: Structure) -> int:
    """How many entrants a simulation of ``structure`` has by default: its
    ``max_entries``, or three tables' worth (at least ``min_entries``)."""
    if structure.max_entries is not None:
        return structure.max_entries
    return max(structure.min_entries, 3 * structure.table_size)


# -- one chunk of tournaments (runs in a worker) -------------------------------------------


def play_tournament(
    structure: Structure, bots: Sequence[Any], seed: int, core: Any = None
) -> tuple[list[tuple[int, int]], int]:
    """One tournament between ``bots`` (entrant ``k`` is ``bots[k]``, already seeded), all
    registered before the start: returns each entrant's ``(place, prize)`` and the hands
    played. Tables deal in turn, each hand played to its end before the next."""
    from triple_draw.bots import decide_method

    t = Tournament(structure, seed=seed, core=core, record=False)
    for k in range(len(bots)):
        t.register(str(k))
    if t.status == "registering":
        t.start()
    acts = [b.act for b in bots]
    decides = [decide_method(b) for b in bots]
    hands = 0
    while not t.is_over:
        ready = t.ready_tables()
        if not ready:  # pragma: no cover - the engine always leaves a table to deal
            raise IllegalActionError(f"no table can deal: {t!r}")
        for tid in ready:
            if t.is_over or tid not in t.tables or t.why_not_deal(tid) is not None:
                continue
            hand = t.deal(tid)
            hands += 1
            if hands > MAX_HANDS_PER_TOURNAMENT:
                raise IllegalActionError(
                    f"a tournament lasted over {MAX_HANDS_PER_TOURNAMENT} hands: the bots "
                    "never lose chips"
                )
            seats = [int(t.player_at(tid, i)) for i in range(hand.n_players)]
            play_hand(t, tid, hand, [acts[k] for k in seats], [decides[k] for k in seats])
    out = []
    for e in t.entries():
        assert e.place is not None and e.prize is not None
        out.append((e.place, e.prize))
    return out, hands


def play_hand(
    t: Tournament, tid: int, hand: Any, acts: Sequence[Any], decides: Sequence[Any]
) -> None:
    """Play a tournament's hand to its end: each hand seat's bot decides from an
    :class:`~triple_draw.bots.Observation` built from the hand's public state (its
    ``decide``, when it has one: what :meth:`Observation.from_view` of the seat's view
    gives, without the view) or from the seat's view (its ``act``); the actions go
    through :meth:`Tournament.act`."""
    n = hand.n_players
    zeros = (0,) * n
    button, sb, bb = hand.button, hand.small_blind_seat, hand.big_blind_seat
    while not hand.is_over:
        a = hand.actor
        decide = decides[a]
        if decide is None:
            action = as_action(acts[a](hand.view(a)))
        else:
            in_draw, street = hand.in_draw, hand.street
            # the round's bets and calls, the draws: the hand's public record
            round_bets, voluntary = round_action(hand)
            f = observation_fields()  # (by name: the one factory of bots.py)
            f[F_SEAT] = a
            f[F_HOLE] = hand.hole_ids(a)
            f[F_PHASE] = "draw" if in_draw else "bet"
            f[F_STREET] = street
            f[F_N_PLAYERS] = n
            f[F_BUTTON] = button
            f[F_SMALL_BLIND_SEAT] = sb
            f[F_BIG_BLIND_SEAT] = bb
            f[F_FOLDED] = hand.folded
            f[F_STACKS] = hand.stacks
            f[F_BETS] = zeros if in_draw else hand.bets
            f[F_DRAWS] = tuple(hand._draws)
            f[F_POT] = hand.pot
            f[F_TO_CALL] = hand.to_call
            f[F_RAISE_TO] = hand.bet_or_raise_amount()
            f[F_BET_LEVEL] = hand.bet_level
            f[F_ROUND_BETS] = round_bets
            f[F_ROUND_VOLUNTARY] = voluntary
            obs = new_observation(f)
            action = as_action(decide(obs))
        t.act(tid, action)


def _play_chunk(
    index: int,
    first: int,
    count: int,
    seed: int,
    structure: Structure,
    bots: list[Any],
    core: Any,
) -> tuple[Any, ...]:
    t0 = time.perf_counter()
    core = resolve_core(core)
    n = len(bots)
    places = [[0] * n for _ in range(n)]
    prizes = [0] * n
    prizes_sq = [0] * n
    itm = [0] * n
    hands = 0
    for i in range(first, first + count):
        tseed = derive_seed(seed, "simulate", i)
        copies = [copy.deepcopy(b) for b in bots]
        for k, b in enumerate(copies):
            if getattr(b, "core", None) is not None and hasattr(b, "_bind"):
                b.core = core
            reseed = getattr(b, "reseed", None)
            if callable(reseed):
                reseed(derive_seed(tseed, "bot", k) & ((1 << 64) - 1))
        result, h = play_tournament(structure, copies, tseed, core)
        hands += h
        for k, (place, prize) in enumerate(result):
            places[k][place - 1] += 1
            prizes[k] += prize
            prizes_sq[k] += prize * prize
            if prize > 0:
                itm[k] += 1
    return index, count, places, prizes, prizes_sq, itm, hands, time.perf_counter() - t0


# -- the entry point -------------------------------------------------------------------------


def simulate_tournaments(
    structure: Structure | str | Mapping[str, Any],
    bots: Sequence[Any] | Any = None,
    tournaments: int = 100,
    *,
    entrants: int | None = None,
    seed: int | None = None,
    chunk_size: int = 10,
    executor: Any = None,
    workers: int | None = None,
    progress: bool | Callable[[int, int], None] = False,
    core: Any = None,
) -> TournamentSimulationResult:
    """Play ``tournaments`` tournaments of ``structure`` (a :class:`Structure`, a preset
    name, a document or a file) between bots and tally the finishing places and prizes of
    each entrant.

    - ``bots``: one bot per entrant, or one bot (or name) for all, or ``None``
      (heuristic bots); names as for :func:`triple_draw.simulate`.
    - ``entrants``: how many enter each tournament (default :func:`default_entrants`:
      a sit & go's seats, three tables of a multi-table event); everyone registers
      before the start (no late entries or re-entries in a simulation).
    - ``seed``: int ``0 <= seed < 2**256`` (``None``: from the OS, kept in the result).
    - ``chunk_size``: tournaments per work item (the result does not depend on it).
    - ``executor``, ``workers``, ``progress``, ``core``: as for
      :func:`triple_draw.simulate` (``"processes"``, ``"ray"``, an Executor...).
    """
    from triple_draw.bots import HeuristicBot, make_bot
    from triple_draw.simulation import _bot_label, run_seed

    st = Structure.of(structure)
    if st.level_by != "hand" and st.level_by != "hands":
        raise ArgumentError(
            f"the structure {st.name!r} has levels by time: a simulation needs levels by hands"
        )
    if type(tournaments) is not int or not 1 <= tournaments <= MAX_TOURNAMENTS:
        raise ArgumentError(f"tournaments must be an int 1..{MAX_TOURNAMENTS}, got {tournaments!r}")
    if type(chunk_size) is not int or not 1 <= chunk_size <= MAX_TOURNAMENTS:
        raise ArgumentError(f"chunk_size must be an int >= 1, got {chunk_size!r}")
    seed = run_seed(seed)
    run_core = portable_core(resolve_core(core))
    if bots is None or isinstance(bots, str) or callable(getattr(bots, "act", None)):
        one = bots
        n = entrants if entrants is not None else default_entrants(st)
        _check_entrants(st, n)
        base = HeuristicBot(core=run_core) if one is None else make_bot(one, core=run_core)
        bot_list = [base] + [copy.deepcopy(base) for _ in range(n - 1)]
    else:
        if isinstance(bots, Mapping) or not isinstance(bots, Sequence):
            raise ArgumentTypeError(f"bots must be a list of bots (one per entrant), got {bots!r}")
        bot_list = [make_bot(b, core=run_core) for b in bots]
        if len(bot_list) == 1:
            n = entrants if entrants is not None else default_entrants(st)
            bot_list += [copy.deepcopy(bot_list[0]) for _ in range(n - 1)]
        elif entrants is not None and entrants != len(bot_list):
            raise ArgumentError(
                f"{len(bot_list)} bots for {entrants} entrants: give one, or one per entrant"
            )
        _check_entrants(st, len(bot_list))
    n = len(bot_list)
    n_chunks = -(-tournaments // chunk_size)

    def specs() -> Iterator[tuple[Any, ...]]:
        for index in range(n_chunks):
            first = index * chunk_size
            yield (index, first, min(chunk_size, tournaments - first), seed, st, bot_list, run_core)

    places = [[0] * n for _ in range(n)]
    prizes = [0] * n
    prizes_sq = [0] * n
    itm = [0] * n
    totals = {"hands": 0, "done": 0, "worker": 0.0}
    report = progress if callable(progress) else None
    if not (callable(progress) or progress in (True, False, None)):
        raise ArgumentTypeError(f"progress must be a bool or a callable, got {progress!r}")

    def on_done(i: int, part: Any) -> int:
        index, count, p_places, p_prizes, p_sq, p_itm, p_hands, secs = part
        if index != i:  # pragma: no cover - run_ordered keeps the order
            raise RuntimeError(f"chunk {index} arrived in place {i}")
        for k in range(n):
            for p in range(n):
                places[k][p] += p_places[k][p]
            prizes[k] += p_prizes[k]
            prizes_sq[k] += p_sq[k]
            itm[k] += p_itm[k]
        totals["hands"] += p_hands
        totals["done"] += count
        totals["worker"] += secs
        if report is not None:
            report(int(totals["done"]), tournaments)
        return int(totals["done"])

    desc, elapsed = run_chunks(
        _play_chunk,
        specs(),
        executor,
        workers,
        n_chunks,
        on_done,
        progress=progress,
        total=tournaments,
        unit="tournament",
    )
    cost = st.buy_in + st.fee
    return TournamentSimulationResult(
        structure=st,
        seed=seed,
        tournaments=tournaments,
        entrants=n,
        chunk_size=chunk_size,
        bots=tuple(
            BotTournamentResult(
                entrant=k,
                bot=_bot_label(bot_list[k]),
                tournaments=tournaments,
                places=tuple(places[k]),
                prizes=prizes[k],
                prizes_sq=prizes_sq[k],
                in_the_money=itm[k],
                cost=cost,
            )
            for k in range(n)
        ),
        hands=int(totals["hands"]),
        prize_pool=st.buy_in * n,
        prizes=st.prizes(n),
        elapsed=elapsed,
        worker_seconds=float(totals["worker"]),
        executor=desc,
    )


def _check_entrants(st: Structure, n: Any) -> None:
    hi = st.max_entries if st.max_entries is not None else MAX_ENTRIES
    if type(n) is not int or not st.min_entries <= n <= hi:
        raise ArgumentError(
            f"entrants must be an int {st.min_entries}..{hi} for the structure {st.name!r}, "
            f"got {n!r}"
        )
