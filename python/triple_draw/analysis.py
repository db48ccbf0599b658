"""Draw odds, equity and discard advice for 2-7 triple draw, computed in Rust.

This module owns the typed public API of the analysis kernels (``rust/analysis/``): it
converts cards, checks arguments, and wraps the results. The kernels release the GIL, run on
``threads`` threads (``None`` = every core), and are reproducible: the same ``seed`` gives
the same result for any number of threads. ``seed=None`` draws a key from the OS.

* :func:`draw_odds` - the distribution of the final hand after a discard and 1 to 3 draws.
* :func:`equity` - win / tie / pot share of 2 to 6 hands with 0 to 3 draws left.
* :func:`best_discard` - all 32 discard choices of a hand, best first.
* :class:`Strategy` - how a hand draws in the simulated draws: stand pat, a fixed discard,
  or the standard rule.
* :func:`icm` - what tournament chips are worth in prize money (the Independent Chip
  Model, Malmuth-Harville: exact where feasible, sampled beyond; :func:`icm_result` gives
  the method and the sampling error).

Which cards can come: the 52 minus every known hand, minus ``dead`` cards, minus whatever
was dealt or thrown earlier in the simulated hand. For a single hand that is "52 minus my
five cards, minus every card I have discarded, minus the dead cards" (a one-card draw from
7-5-4-3-K sees 47 cards). Thrown cards come back only if the stub runs out (the default
reshuffle rule); dead cards never do.

Exact or sampled: one draw of :func:`draw_odds` and one draw of :func:`best_discard` with a
``target`` are always enumerated exactly. Everything else is enumerated when it has at most
``exact_limit`` outcomes (``method="auto"``), and sampled with ``trials`` trials otherwise;
``method="exact"`` or ``"sample"`` forces one way.

Long runs: with ``progress=True`` the kernel runs on a worker thread while the calling
thread waits; after a second a tqdm display on stderr shows that it is still running (as
:func:`triple_draw.simulate` shows its progress), and Ctrl-C (``KeyboardInterrupt``) stops
the wait at once. ``threads`` is at most :data:`MAX_THREADS`, ``trials`` at most
:data:`MAX_TRIALS`.

>>> from triple_draw.analysis import draw_odds, best_discard
>>> odds = draw_odds("7c 5d 4h 3s Kd", discard="Kd")
>>> odds.fraction_at_most(1)        # exactly 7-5-4-3-2: the four deuces of 47 cards
Fraction(4, 47)
>>> round(odds.p_at_most("8"), 4)   # any 8-low: deuces and eights
0.1702
>>> [str(c) for c in best_discard("7c 5d 4h 3s Kd", target="8")[0].discard]
['Kd']
"""

from __future__ import annotations

import math
import operator
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Literal, TypeVar

import numpy as np
import numpy.typing as npt

from triple_draw import _core
from triple_draw._icm import ICMResult, icm, icm_result
from triple_draw._core import CATEGORIES, Card, HandRank, card_ids, parse_cards
from triple_draw.errors import AnalysisError, ArgumentTypeError

__all__ = [
    "CATEGORIES",
    "DEFAULT_TRIALS",
    "MAX_THREADS",
    "MAX_TRIALS",
    "DiscardChoice",
    "DrawOdds",
    "EquityResult",
    "ICMResult",
    "PlayerEquity",
    "Strategy",
    "as_rank",
    "best_discard",
    "draw_odds",
    "equity",
    "icm",
    "icm_result",
]

CardsLike = str | Sequence[str | int | Card]
#: A hand strength: a rank 1-7462, a :class:`HandRank`, five cards, or a low such as
#: ``"8"`` (any 8-low or better) or ``"9-7"`` (any 9-7 low or better).
RankLike = int | HandRank | str | Sequence[str | int | Card]
Method = Literal["auto", "exact", "sample"]
T = TypeVar("T")


#: Trials used when a result is sampled and ``trials`` is not given.
DEFAULT_TRIALS = 200_000
#: With ``method="auto"``, results with at most this many outcomes are enumerated.
DEFAULT_EXACT_LIMIT = 2_000_000

#: The most threads an analysis may use.
MAX_THREADS = 256
#: The most trials a sampled analysis may run.
MAX_TRIALS = 10**10

_RANK_CHARS = "23456789TJQKA"
_NUM_CLASSES: int = _core.NUM_CLASSES


# ----------------------------------------------------------------------------- helpers


def run_with_progress(fn: Callable[[], T], desc: str, *, progress: bool = True) -> T:
    """``fn()`` on a worker thread (the kernels release the GIL) while this thread waits
    in short steps, so that Ctrl-C stops the wait at once with ``KeyboardInterrupt`` (the
    abandoned kernel finishes in the background and its result is dropped). With
    ``progress``, a run longer than a second shows a tqdm display on stderr, as
    :func:`triple_draw.simulate` does, until it ends."""
    box: dict[str, Any] = {}

    def work() -> None:
        try:
            box["result"] = fn()
        except BaseException as e:  # handed to the waiting thread
            box["error"] = e

    worker = threading.Thread(target=work, name="triple_draw-analysis", daemon=True)
    worker.start()
    bar: Any = None
    try:
        worker.join(1.0)
        if worker.is_alive() and progress:
            from tqdm import tqdm

            bar = tqdm(
                total=None,
                desc=desc,
                file=sys.stderr,
                leave=False,
                bar_format="{desc}: running for {elapsed} (Ctrl-C stops it)",
            )
        while worker.is_alive():
            worker.join(0.1)
            if bar is not None:
                bar.refresh()
    finally:
        if bar is not None:
            bar.close()
    if "error" in box:
        raise box["error"]
    result: T = box["result"]
    return result


def _run(fn: Callable[[], T], desc: str, progress: bool) -> T:
    if not isinstance(progress, bool):
        raise TypeError(f"progress must be a bool, got {type(progress).__name__}")
    return run_with_progress(fn, desc) if progress else fn()


def _rank_char(text: str) -> int | None:
    t = text.strip().upper()
    if t == "10":
        t = "T"
    return _RANK_CHARS.index(t) if len(t) == 1 and t in _RANK_CHARS else None


def as_rank(value: RankLike) -> int:
    """The rank (1 = 7-5-4-3-2 ... 7462) that ``value`` stands for.

    ``value`` is a rank, a :class:`~triple_draw.HandRank`, five cards, or a low written as
    its top card(s): ``"8"`` is the worst 8-low (8-7-6-5-3), so "at most ``"8"``" means any
    8-low or better; ``"9-7"`` is the worst 9-7 low (9-7-6-5-4).

    >>> as_rank(1), as_rank("7c5d4h3s2c"), as_rank("7")
    (1, 1, 4)
    >>> from triple_draw import HandRank
    >>> HandRank(as_rank("8")).name, HandRank(as_rank("9-7")).name
    ('8-7 low', '9-7 low')
    """
    if isinstance(value, HandRank):
        return value.rank
    if isinstance(value, bool):
        raise TypeError(
            "a hand rank must be an int, a HandRank, a low like '8', or five cards, not bool"
        )
    if isinstance(value, int):
        if not 1 <= value <= _NUM_CLASSES:
            raise AnalysisError(
                f"a hand rank runs from 1 (7-5-4-3-2) to {_NUM_CLASSES}, got {value}"
            )
        return value
    if isinstance(value, str):
        parts = value.strip().removesuffix("low").strip().split("-")
        ranks = [_rank_char(p) for p in parts]
        if 1 <= len(parts) <= 2 and all(r is not None for r in ranks):
            top, second = ranks[0], (ranks[1] if len(ranks) == 2 else None)
            assert top is not None
            if second is not None and second >= top:
                raise AnalysisError(f"not a low: {value!r} (write the top card first, e.g. '9-7')")
            return int(_core.analysis_worst_low(top, second))
    ids = card_ids(value)
    if len(ids) != 5:
        raise AnalysisError(f"a hand must have 5 cards, got {len(ids)} in {value!r}")
    return int(_core.rank_ids(ids))


def _key(seed: int | None) -> bytes | None:
    if seed is None:
        return None
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(f"seed must be an int or None, got {type(seed).__name__}")
    if not 0 <= seed < 2**256:
        raise AnalysisError(f"seed must satisfy 0 <= seed < 2**256, got {seed}")
    return seed.to_bytes(32, "little")


def _count(value: int | None, name: str, default: int, most: int | None = None) -> int:
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int):
        raise ArgumentTypeError(f"{name} must be an int, got {type(value).__name__}")
    if value < 1:
        raise AnalysisError(f"{name} must be at least 1, got {value}")
    if most is not None and value > most:
        raise AnalysisError(f"{name} must be at most {most:,}, got {value:,}")
    return value


def _threads(threads: int | None) -> int | None:
    return None if threads is None else _count(threads, "threads", 1, MAX_THREADS)


def _draws(value: int, name: str, low: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an int, got {type(value).__name__}")
    if value > 3:
        raise AnalysisError(f"at most 3 draws are left in triple draw, got {name}={value}")
    if value < low:
        raise AnalysisError(f"{name} must be {low} to 3, got {value}")
    return value


def _method(method: str) -> str:
    if method not in ("auto", "exact", "sample"):
        raise AnalysisError(f"method must be 'auto', 'exact' or 'sample', got {method!r}")
    return method


def _run_options(
    method: str, trials: int | None, seed: int | None, threads: int | None, exact_limit: int
) -> tuple[str, int, bytes | None, int | None, int]:
    """The checked options every kernel takes last: method, trials, key, threads, exact_limit."""
    return (
        _method(method),
        _count(trials, "trials", DEFAULT_TRIALS, MAX_TRIALS),
        _key(seed),
        _threads(threads),
        _count(exact_limit, "exact_limit", DEFAULT_EXACT_LIMIT),
    )


def _five(cards: CardsLike, what: str) -> list[int]:
    ids = card_ids(cards)
    if len(ids) != 5:
        raise AnalysisError(f"{what} must have 5 cards, got {len(ids)}")
    return ids


def _hand_spec(hand: CardsLike | None, what: str) -> list[int]:
    """Known card ids of a hand where ``None``, ``"?"`` or ``"??"`` tokens are unknown cards."""
    if hand is None:
        return []
    if isinstance(hand, str):
        text = hand.strip()
        if text in ("?", "random"):
            hidden, known = 5, []
        else:
            hidden = text.count("??")
            known = card_ids(text.replace("??", " "))
    else:
        items = list(hand)
        unknown = [c is None or c in ("?", "??") for c in items]
        hidden = sum(unknown)
        known = card_ids([c for c, u in zip(items, unknown, strict=True) if not u])
    if len(known) + hidden != 5:
        raise AnalysisError(
            f"{what} has {len(known) + hidden} cards: a hand has 5 (write ?? for an unknown card, "
            "or None / '?' for an unknown hand)"
        )
    return known


# ----------------------------------------------------------------------------- strategies


@dataclass(frozen=True)
class Strategy:
    """How a hand draws in the simulated draws, decided in Rust for every trial.

    Build one with :meth:`stand_pat`, :meth:`rule` or :meth:`discard`:

    * ``Strategy.stand_pat()`` never draws.
    * ``Strategy.rule(keep="8", pat=None)``, the standard rule: stand pat with a hand ranked
      ``pat`` or better (default: any no-pair hand topped by ``keep``, e.g. any 8-low);
      otherwise keep one card of each distinct rank at or below ``keep`` and throw the rest
      - pairs are broken (of a pair, the card whose suit the other kept cards use least
      stays, the lower card id on a tie), and a hand that would be kept whole but is not
      good enough to stand pat (a straight, a flush, a rough low) loses its highest card.
    * ``Strategy.discard("Kd", then=...)`` throws exactly these cards at the next draw and
      follows ``then`` (default: stand pat) at every later draw.

    >>> Strategy.rule()
    Strategy.rule(keep='8', pat=18)
    >>> Strategy.rule(keep="9", pat="8").pat_max == as_rank("8")
    True
    >>> Strategy.discard("Kd", then=Strategy.rule(keep="7"))
    Strategy.discard('Kd', then=Strategy.rule(keep='7', pat=4))
    """

    #: ``"stand_pat"`` or ``"rule"``: what happens at the draws after ``first_discard``.
    plan: Literal["stand_pat", "rule"] = "stand_pat"
    #: The rule's highest kept card rank, 0 (deuce) to 12 (ace).
    keep_max: int | None = None
    #: The rule's pat threshold, a hand rank.
    pat_max: int | None = None
    #: Card ids thrown at the next draw, or None.
    first_discard: tuple[int, ...] | None = field(default=None)

    @classmethod
    def stand_pat(cls) -> Strategy:
        """Never draw."""
        return cls()

    @classmethod
    def rule(cls, keep: str | int = "8", pat: RankLike | None = None) -> Strategy:
        """The standard rule. ``keep`` is a card rank (``"8"``, ``"T"``, ``"10"``, or 2-14);
        ``pat`` a hand strength (see :func:`as_rank`), default any no-pair hand topped by
        ``keep`` (``keep`` must then be at least a seven)."""
        if isinstance(keep, bool):
            raise TypeError("keep must be a card rank like '8', not bool")
        if isinstance(keep, int):
            if not 2 <= keep <= 14:
                raise AnalysisError(f"keep must be a card rank 2-14 (or '2'...'A'), got {keep}")
            k = keep - 2
        elif isinstance(keep, str):
            r = _rank_char(keep)
            if r is None:
                raise AnalysisError(f"keep must be a card rank like '8' or 'T', got {keep!r}")
            k = r
        else:
            raise TypeError(f"keep must be a card rank like '8', got {type(keep).__name__}")
        if pat is None:
            if k < 5:
                raise AnalysisError(
                    f"keep={_RANK_CHARS[k]!r} needs an explicit pat: there is no "
                    f"{_RANK_CHARS[k]}-low hand to stand pat on"
                )
            pat_max = int(_core.analysis_worst_low(k, None))
        else:
            pat_max = as_rank(pat)
        return cls(plan="rule", keep_max=k, pat_max=pat_max)

    @classmethod
    def discard(cls, cards: CardsLike, then: Strategy | None = None) -> Strategy:
        """Throw exactly ``cards`` at the next draw, then follow ``then`` (default: stand
        pat). ``cards`` may be empty (stand pat at the next draw only)."""
        then = then if then is not None else cls()
        if not isinstance(then, Strategy):
            raise TypeError(f"then must be a Strategy, got {type(then).__name__}")
        if then.first_discard is not None:
            raise AnalysisError(
                "then= must be a plan for every later draw, not another fixed discard"
            )
        ids = tuple(card_ids(cards))
        if len(ids) > 5:
            raise AnalysisError(f"a discard has at most 5 cards, got {len(ids)}")
        return cls(plan=then.plan, keep_max=then.keep_max, pat_max=then.pat_max, first_discard=ids)

    def _then_repr(self) -> str:
        if self.plan == "stand_pat":
            return "Strategy.stand_pat()"
        assert self.keep_max is not None
        return f"Strategy.rule(keep={_RANK_CHARS[self.keep_max]!r}, pat={self.pat_max})"

    def __repr__(self) -> str:
        if self.first_discard is None:
            return self._then_repr()
        cards = " ".join(str(c) for c in parse_cards(list(self.first_discard)))
        if self.plan == "stand_pat":
            return f"Strategy.discard({cards!r})"
        return f"Strategy.discard({cards!r}, then={self._then_repr()})"

    def _plan_tuple(self) -> tuple[int, int]:
        if self.plan == "rule":
            assert self.keep_max is not None and self.pat_max is not None
            return (self.keep_max, self.pat_max)
        return (-1, 0)

    def _tuple(self) -> tuple[list[int] | None, int, int]:
        first = None if self.first_discard is None else list(self.first_discard)
        return (first, *self._plan_tuple())


def _strategy(value: object, what: str) -> Strategy:
    if value is None:
        return Strategy.rule()
    if not isinstance(value, Strategy):
        raise TypeError(f"{what} must be a Strategy or None, got {type(value).__name__}")
    return value


def _later(value: object) -> tuple[int, int]:
    s = _strategy(value, "strategy")
    if s.first_discard is not None:
        raise AnalysisError(
            "strategy applies to the draws after the first: use Strategy.rule() or "
            "Strategy.stand_pat(), not a fixed discard"
        )
    return s._plan_tuple()


def _strategies(value: object, n: int, what: str) -> list[Strategy]:
    if value is None or isinstance(value, Strategy):
        return [_strategy(value, what)] * n
    if isinstance(value, (str, bytes)) or not isinstance(value, Sequence):
        raise TypeError(f"{what} must be a Strategy, a sequence of them, or None")
    if len(value) != n:
        raise AnalysisError(f"{what} has {len(value)} entries for {n} hands")
    return [_strategy(v, f"{what}[{i}]") for i, v in enumerate(value)]


# ----------------------------------------------------------------------------- draw_odds


@dataclass(frozen=True, eq=False)
class DrawOdds:
    """The distribution of the final hand (see :func:`draw_odds`)."""

    #: ``probabilities[r]`` = probability of finishing with rank ``r`` (index 0 unused).
    probabilities: npt.NDArray[np.float64] = field(repr=False)
    #: Probability of each category, best first (keys: :data:`CATEGORIES`).
    categories: dict[str, float]
    #: True when every outcome was enumerated, False when sampled.
    exact: bool
    #: Equally likely outcomes enumerated (exact) or trials run (sampled).
    outcomes: int
    #: For one exact draw: how many of the ``outcomes`` replacement sets give each rank.
    counts: npt.NDArray[np.uint64] | None = field(default=None, repr=False)

    @property
    def trials(self) -> int | None:
        """The number of trials when sampled, else None."""
        return None if self.exact else self.outcomes

    def p_at_most(self, hand: RankLike) -> float:
        """Probability of finishing at ``hand`` or better (see :func:`as_rank`)."""
        # (a sum of probabilities: rounding must not carry it past 1)
        return min(1.0, float(self.probabilities[1 : as_rank(hand) + 1].sum()))

    def stderr(self, hand: RankLike) -> float:
        """Standard error of :meth:`p_at_most` (0 when exact)."""
        if self.exact:
            return 0.0
        p = self.p_at_most(hand)
        return math.sqrt(max(p * (1 - p), 0.0) / self.outcomes)

    def fraction_at_most(self, hand: RankLike) -> Fraction:
        """:meth:`p_at_most` as an exact fraction (one exact draw only)."""
        if self.counts is None:
            raise AnalysisError("exact fractions are only available for one exact draw")
        return Fraction(int(self.counts[1 : as_rank(hand) + 1].sum()), self.outcomes)

    def p_category(self, category: str) -> float:
        """Probability of finishing in ``category`` (one of :data:`CATEGORIES`)."""
        if category not in self.categories:
            raise AnalysisError(
                f"unknown category {category!r}: expected one of {', '.join(CATEGORIES)}"
            )
        return self.categories[category]


def draw_odds(
    cards: CardsLike,
    discard: CardsLike = (),
    *,
    draws: int = 1,
    strategy: Strategy | None = None,
    dead: CardsLike = (),
    trials: int | None = None,
    seed: int | None = None,
    threads: int | None = None,
    method: Method = "auto",
    exact_limit: int = DEFAULT_EXACT_LIMIT,
    progress: bool = False,
) -> DrawOdds:
    """The distribution of the final hand after throwing ``discard`` from ``cards`` and
    drawing, with ``draws`` draws left (1 to 3).

    The first draw throws ``discard``; later draws follow ``strategy`` (default
    :meth:`Strategy.rule`). The replacements come from the 52 cards minus ``cards`` (the
    discards included), minus every card thrown earlier, minus ``dead``. One draw is
    enumerated exactly; more draws are enumerated when small, else sampled.

    >>> odds = draw_odds("7c5d4h3sKd", "Kd")
    >>> odds.exact, odds.outcomes, odds.fraction_at_most("7c5d4h3s2c")
    (True, 47, Fraction(4, 47))
    >>> round(odds.p_category("one pair"), 4)   # a 7, 5, 4 or 3 pairs the hand
    0.2553
    >>> three = draw_odds("7c5d4h3sKd", "Kd", draws=3)    # few outcomes: still exact
    >>> three.exact, three.outcomes, round(three.p_at_most(1), 4)
    (True, 67714, 0.1993)
    >>> two = draw_odds("7c5d4h3sKd", "7c Kd", draws=3, seed=1)  # sampled
    >>> two.exact, two.trials, round(two.p_at_most("8"), 2), round(two.stderr("8"), 3)
    (False, 200000, 0.28, 0.001)
    """
    hand = _five(cards, "the hand")
    args = (
        hand,
        card_ids(discard),
        _draws(draws, "draws", 1),
        _later(strategy),
        card_ids(dead),
        *_run_options(method, trials, seed, threads, exact_limit),
    )
    odds = _run(lambda: _core.analysis_draw_odds(*args), "draw_odds", progress)
    probs, cats, counts, exact, outcomes = odds
    probs.flags.writeable = False
    if counts is not None:
        counts.flags.writeable = False
    return DrawOdds(
        probabilities=probs,
        categories=dict(zip(CATEGORIES, cats, strict=True)),
        exact=exact,
        outcomes=outcomes,
        counts=counts,
    )


# ----------------------------------------------------------------------------- equity


@dataclass(frozen=True)
class PlayerEquity:
    """One hand's result. Standard errors are 0 when the result is exact."""

    #: Probability of winning alone.
    win: float
    #: Probability of tying for the best hand.
    tie: float
    #: Expected share of the pot (a k-way tie pays 1/k).
    equity: float
    #: Standard error of ``equity``.
    stderr: float = 0.0
    win_stderr: float = 0.0
    tie_stderr: float = 0.0


@dataclass(frozen=True)
class EquityResult:
    """Per-hand results in the order the hands were given (see :func:`equity`)."""

    players: tuple[PlayerEquity, ...]
    exact: bool
    #: Outcomes enumerated (exact) or trials run (sampled).
    outcomes: int

    @property
    def trials(self) -> int | None:
        return None if self.exact else self.outcomes

    @property
    def equities(self) -> tuple[float, ...]:
        return tuple(p.equity for p in self.players)

    def __len__(self) -> int:
        return len(self.players)

    def __getitem__(self, i: int) -> PlayerEquity:
        return self.players[operator.index(i)]

    def __iter__(self) -> Iterator[PlayerEquity]:
        return iter(self.players)


def equity(
    hands: Sequence[CardsLike | None],
    *,
    draws_left: int,
    strategies: Strategy | Sequence[Strategy | None] | None = None,
    dead: CardsLike = (),
    trials: int | None = None,
    seed: int | None = None,
    threads: int | None = None,
    method: Method = "auto",
    exact_limit: int = DEFAULT_EXACT_LIMIT,
    progress: bool = False,
) -> EquityResult:
    """Win, tie and equity of 2 to 6 hands with ``draws_left`` draws to come (0 to 3).

    Each hand is five cards, or ``None`` / ``"?"`` for an unknown (random) hand, or cards
    with ``??`` for the unknown ones (``"7c 5d ?? ?? ??"``). Every hand draws by its
    strategy: ``strategies`` is one :class:`Strategy` for all, a sequence with one per hand
    (``None`` = default), or ``None`` (:meth:`Strategy.rule` for all). Hands draw in the
    given order from one stub. Exact when the outcomes are few (always with no draws left
    and every hand known); sampled otherwise, with standard errors.

    >>> r = equity(["7c5d4h3sKd", "8c6d5h4s2c"], draws_left=1,
    ...            strategies=[Strategy.discard("Kd"), Strategy.stand_pat()])
    >>> r.exact, r.outcomes, round(r[0].equity, 4)   # 42 cards: the three deuces win
    (True, 42, 0.0714)
    >>> r = equity(["7c5d4h3sKd", None], draws_left=3, seed=7, trials=50_000)
    >>> r.exact, round(r[0].equity + r[1].equity, 6)
    (False, 1.0)
    """
    if isinstance(hands, (str, bytes)) or not isinstance(hands, Sequence):
        raise TypeError(
            "hands must be a sequence of hands (each five cards, or None for an unknown hand)"
        )
    if not 2 <= len(hands) <= 6:
        raise AnalysisError(f"equity needs 2 to 6 hands, got {len(hands)}")
    known = [_hand_spec(h, f"hand {i + 1}") for i, h in enumerate(hands)]
    strats = _strategies(strategies, len(hands), "strategies")
    args = (
        [(k, s._tuple()) for k, s in zip(known, strats, strict=True)],
        card_ids(dead),
        _draws(draws_left, "draws_left", 0),
        *_run_options(method, trials, seed, threads, exact_limit),
    )
    per, exact, outcomes = _run(lambda: _core.analysis_equity(*args), "equity", progress)
    players = tuple(
        PlayerEquity(win=w, tie=t, equity=e, stderr=se, win_stderr=wse, tie_stderr=tse)
        for (w, t, e, wse, tse, se) in per
    )
    return EquityResult(players=players, exact=exact, outcomes=outcomes)


# ----------------------------------------------------------------------------- best_discard


@dataclass(frozen=True)
class DiscardChoice:
    """One way to discard, with its score (higher is better)."""

    discard: tuple[Card, ...]
    keep: tuple[Card, ...]
    #: The objective: probability of finishing at the target or better, or equity.
    score: float
    #: Standard error of ``score`` (0 when exact).
    stderr: float
    exact: bool
    #: Outcomes enumerated (exact) or trials run (sampled).
    outcomes: int
    #: ``"target"`` or ``"equity"``.
    objective: str

    def __str__(self) -> str:
        what = " ".join(str(c) for c in self.discard) or "stand pat"
        err = "" if self.exact else f" ± {self.stderr:.4f}"
        return f"{what}: {self.score:.4f}{err}"


def best_discard(
    cards: CardsLike,
    *,
    draws_left: int = 1,
    target: RankLike | None = None,
    opponents: Sequence[CardsLike | None] | None = None,
    strategy: Strategy | None = None,
    opponent_strategies: Strategy | Sequence[Strategy | None] | None = None,
    dead: CardsLike = (),
    trials: int | None = None,
    seed: int | None = None,
    threads: int | None = None,
    method: Method = "auto",
    exact_limit: int = DEFAULT_EXACT_LIMIT,
    progress: bool = False,
) -> list[DiscardChoice]:
    """All 32 ways to discard from ``cards``, best first, with ``draws_left`` draws (1-3).

    The objective is the probability of finishing at ``target`` or better (a hand strength,
    see :func:`as_rank`; default ``"8"``, any 8-low), or - when ``opponents`` are given -
    the equity against them (each five cards, or ``None`` / ``"?"`` for an unknown hand,
    drawing by ``opponent_strategies``, default :meth:`Strategy.rule`). Draws after the
    first follow ``strategy`` (default :meth:`Strategy.rule`). One draw with a target is
    exact; otherwise each choice is exact when small and sampled when not, every choice
    with the same random streams so that they compare fairly. Equal scores list fewer
    discards first, then the discards with the lower card ids (sorted, compared in order).

    >>> best = best_discard("7c5d4h3sKd", target="7")
    >>> [str(c) for c in best[:2]]
    ['Kd: 0.0851', '3s Kd: 0.0259']
    >>> str(best_discard("9c8d6h4s2c", opponents=["7c5d4h3sKd"])[0])  # pat nine vs a draw
    'stand pat: 0.7857'
    """
    hand = _five(cards, "the hand")
    if target is not None and opponents is not None:
        raise AnalysisError("give either target or opponents, not both")
    target_rank: int | None = None
    opp: list[tuple[list[int], tuple[list[int] | None, int, int]]] = []
    if opponents is None:
        target_rank = as_rank(target if target is not None else "8")
    else:
        if isinstance(opponents, (str, bytes)) or not isinstance(opponents, Sequence):
            raise TypeError(
                "opponents must be a sequence of hands (five cards, or None for unknown)"
            )
        if not 1 <= len(opponents) <= 5:
            raise AnalysisError(f"best_discard takes 1 to 5 opponents, got {len(opponents)}")
        strats = _strategies(opponent_strategies, len(opponents), "opponent_strategies")
        opp = [
            (_hand_spec(h, f"opponent {i + 1}"), s._tuple())
            for i, (h, s) in enumerate(zip(opponents, strats, strict=True))
        ]
    args = (
        hand,
        _draws(draws_left, "draws_left", 1),
        _later(strategy),
        target_rank,
        opp,
        card_ids(dead),
        *_run_options(method, trials, seed, threads, exact_limit),
    )
    rows = _run(lambda: _core.analysis_best_discard(*args), "best_discard", progress)
    objective = "target" if target_rank is not None else "equity"
    return [
        DiscardChoice(
            discard=tuple(parse_cards(d)),
            keep=tuple(parse_cards(k)),
            score=score,
            stderr=se,
            exact=exact,
            outcomes=n,
            objective=objective,
        )
        for (d, k, score, se, exact, n) in rows
    ]
