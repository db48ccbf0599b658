"""An honest scoreboard: bots and policies measured against each other on duplicate deals.

:func:`match` plays a head-to-head or ring game between 2 to 8 players (package bots by
name, ``module:Class`` paths, or any object with ``act(view)`` or ``decide(obs)``) and
reports each player's result in **big blinds per 100 hands** with a 95% confidence
interval.

Duplicate deals: every deal is played once per rotation of the seats - with ``n``
players, ``n`` times, player ``p`` sitting in seat ``(p + r) % n`` in rotation ``r`` - so
every player holds every seat's cards, with the same draws coming, exactly once. The luck
of the cards cancels out of the sum over the rotations, and what is left is the difference
in play. The confidence interval is computed from the per-deal sums (the rotations of one
deal are not independent, the deals are), so it is honest. Each seat's bot is reseeded
from the deal's chunk seed *by seat*, so a deterministic bot, or a bot against a copy of
itself, scores exactly zero.

:func:`round_robin` plays every pair of a list of bots (every pair on the same deals) and
prints the table of scores the docs show (``scripts/scoreboard.py`` produces it).

>>> r = match(["call", "random"], hands=400, seed=1)
>>> r.deals, r.hands, r.rotations           # 200 deals, each played in both seatings
(200, 400, 2)
>>> sum(e.net for e in r.entries)           # chips are conserved
0
>>> match(["heuristic", "heuristic"], hands=200, seed=3)[0].bb_per_100  # self-play: 0
0.0
"""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from triple_draw._text import format_table
from triple_draw.bots import make_bot, view_hole_ids
from triple_draw.errors import ArgumentError, ArgumentTypeError, IllegalActionError
from triple_draw.game.actions import Action, discard_action, make_action
from triple_draw.game.core import portable_core, resolve_core
from triple_draw.game.rules import MAX_PLAYERS, Rules
from triple_draw.simulation import (
    MAX_HANDS,
    _bot_label,
    _play_chunk,
    chunk_seed,
    run_seed,
    run_settings,
)

__all__ = ["match", "MatchResult", "MatchEntry", "round_robin", "RoundRobin", "PolicyBot", "Z95"]

#: The two-sided 95% quantile of the normal distribution.
Z95 = 1.959963984540054


class PolicyBot:
    """A bot made of a policy over the numbers the environments use: ``policy(obs, mask)``
    gets the seat's observation vector (:func:`triple_draw.envs.encoding.encode_view` of
    the view, the vector the environments give) and its 0/1 mask of legal actions, and
    returns an action number 0..34. So a policy trained in
    :class:`~triple_draw.envs.gym_env.TripleDrawEnv`, the vector environment or the
    PettingZoo environment takes a seat in :func:`match` as it is. A number that is not
    legal is an :class:`~triple_draw.errors.IllegalActionError` naming the policy.

    >>> pat_caller = PolicyBot(lambda obs, mask: 1 if mask[1] else 3, name="pat-caller")
    >>> r = match([pat_caller, "call"], hands=100, seed=1)   # calls down, never draws
    >>> r[0].bot, r[0].bb_per_100 < 0
    ('pat-caller', True)
    """

    def __init__(self, policy: Callable[[Any, Any], Any], name: str = "policy") -> None:
        if not callable(policy):
            raise ArgumentTypeError(f"policy must be callable as policy(obs, mask), got {policy!r}")
        if not isinstance(name, str) or not name:
            raise ArgumentError(f"name must be a non-empty string, got {name!r}")
        self.policy = policy
        self.name = name

    def __repr__(self) -> str:
        return f"PolicyBot({self.name!r})"

    def act(self, view: dict[str, Any]) -> Action:
        import numpy as np

        from triple_draw.envs import encoding

        total = sum(p["stack"] + p["committed"] for p in view["players"])
        obs = encoding.encode_view(view, total)
        kinds = {a["kind"] for a in view["legal_actions"]}
        mask = np.zeros(encoding.N_ACTIONS, dtype=np.int8)
        if view["phase"] == "draw":
            mask[encoding.DISCARD_OFFSET :] = 1
        else:
            mask[encoding.FOLD] = mask[encoding.CHECK_CALL] = 1
            mask[encoding.BET_RAISE] = 1 if kinds & {"bet", "raise"} else 0
        raw = self.policy(obs, mask)
        try:
            a = int(raw)
            if a != raw or isinstance(raw, bool) or not 0 <= a < encoding.N_ACTIONS:
                raise ValueError
        except (TypeError, ValueError):
            raise IllegalActionError(
                f"policy {self.name!r} returned {raw!r}, not an action number 0..34"
            ) from None
        if not mask[a]:
            raise IllegalActionError(
                f"policy {self.name!r} chose action {a}, not legal now "
                f"(legal: {np.flatnonzero(mask).tolist()})"
            )
        if a >= encoding.DISCARD_OFFSET:
            held = view_hole_ids(view)
            return discard_action(encoding.discard_cards(held, a - 3))
        if a == encoding.FOLD:
            return make_action("fold")
        if a == encoding.CHECK_CALL:
            return make_action("call" if "call" in kinds else "check")
        return make_action("raise" if "raise" in kinds else "bet")


@dataclass(frozen=True)
class MatchEntry:
    """One player's result in a :class:`MatchResult`. ``net`` and ``deal_sq`` are exact
    integers; everything else is derived from them."""

    #: the player's place in the list given to :func:`match`
    player: int
    #: its label (the bot's name; a repeated name gets ``#2``, ``#3``, ...)
    bot: str
    #: deals played (each in every rotation)
    deals: int
    #: rotations of each deal (the number of players with duplicate deals)
    rotations: int
    #: chips won over all the hands (negative: lost)
    net: int
    #: the sum over the deals of the square of the chips won in a deal (all its rotations)
    deal_sq: int
    #: the big blind of the rules, in chips
    big_blind: int

    @property
    def hands(self) -> int:
        """Hands played (every player plays every hand of the match)."""
        return self.deals * self.rotations

    @property
    def chips_per_hand(self) -> float:
        return self.net / self.hands if self.hands else 0.0

    @property
    def bb_per_100(self) -> float:
        """Big blinds won per 100 hands."""
        return 100.0 * self.chips_per_hand / self.big_blind

    @property
    def deal_std(self) -> float:
        """Sample standard deviation of the chips won in one deal (all its rotations)."""
        d = self.deals
        if d < 2:
            return 0.0
        var = (self.deal_sq - self.net * self.net / d) / (d - 1)
        return math.sqrt(max(0.0, var))

    @property
    def ci95_half_width(self) -> float:
        """Half the width of the 95% interval of :attr:`bb_per_100`: 1.96 standard errors
        of the mean deal, divided by the rotations (hands per deal), in big blinds per 100
        hands (infinite with fewer than two deals)."""
        if self.deals < 2:
            return math.inf
        se_hand = self.deal_std / math.sqrt(self.deals) / self.rotations
        return 100.0 * Z95 * se_hand / self.big_blind

    @property
    def ci95(self) -> tuple[float, float]:
        """95% confidence interval of :attr:`bb_per_100` (normal approximation over the
        independent deals)."""
        m, h = self.bb_per_100, self.ci95_half_width
        return (m - h, m + h)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data; the interval is ``null`` with fewer than two deals."""
        half = self.ci95_half_width
        finite = math.isfinite(half)
        lo, hi = self.ci95
        return {
            "player": self.player,
            "bot": self.bot,
            "hands": self.hands,
            "net": self.net,
            "deal_sq": self.deal_sq,
            "bb_per_100": self.bb_per_100,
            "ci95": [lo, hi] if finite else None,
            "ci95_half_width": half if finite else None,
            "deal_std": self.deal_std,
        }


@dataclass(frozen=True)
class MatchResult:
    """The outcome of :func:`match`: one :class:`MatchEntry` per player (``result[i]``
    is player ``i``). Two results compare equal when every count is equal (``elapsed``
    is not compared)."""

    seed: int
    #: hands played in all (``deals * rotations``)
    hands: int
    deals: int
    rotations: int
    players: int
    duplicate: bool
    rules: Rules
    stack: int
    chunk_size: int
    entries: tuple[MatchEntry, ...]
    #: chips the house took (0 without rake): ``sum(e.net) + rake == 0``
    rake: int = 0
    elapsed: float = field(default=0.0, compare=False)

    def __getitem__(self, i: int) -> MatchEntry:
        return self.entries[i]

    def __len__(self) -> int:
        return len(self.entries)

    def entry(self, bot: str) -> MatchEntry:
        """The entry labelled ``bot`` (``"heuristic"``, ``"heuristic#2"``, ...)."""
        for e in self.entries:
            if e.bot == bot:
                return e
        raise ArgumentError(
            f"no player {bot!r} in this match (players: {', '.join(e.bot for e in self.entries)})"
        )

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data (what ``triple-draw match --json`` prints)."""
        return {
            "seed": self.seed,
            "hands": self.hands,
            "deals": self.deals,
            "rotations": self.rotations,
            "players": self.players,
            "duplicate": self.duplicate,
            "rules": self.rules.to_dict(),
            "stack": self.stack,
            "chunk_size": self.chunk_size,
            **({"rake": self.rake} if self.rake else {}),
            "entries": [e.to_dict() for e in self.entries],
            "elapsed": self.elapsed,
        }

    def summary(self) -> str:
        """A table of the players' results, for people."""
        r = self.rules
        how = (
            f"{self.deals} duplicate deals x {self.rotations} seatings"
            if self.duplicate
            else f"{self.hands} hands, seats rotated, no duplicate deals"
        )
        head = (
            f"{self.hands} hands ({how}), {self.players} players, seed {self.seed}, "
            f"blinds {r.small_blind}/{r.big_blind}, limit {r.small_bet}/{r.big_bet}, "
            f"stacks {self.stack}"
        )
        rows = [("player", "bot", "bb/100", "95% CI", "net chips")]
        for e in self.entries:
            lo, hi = e.ci95
            rows.append(
                (
                    str(e.player),
                    e.bot,
                    f"{e.bb_per_100:+.2f}",
                    f"[{lo:+.2f}, {hi:+.2f}]",
                    str(e.net),
                )
            )
        lines = [head, "", *format_table(rows, [0, 2, 3, 4])]
        if self.rake:
            lines.append(f"rake: {self.rake} chips")
        secs = self.elapsed
        lines.append(f"{self.hands / secs if secs > 0 else math.inf:,.0f} hands/s ({secs:.2f} s)")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.summary()


def _labels(bots: Sequence[Any]) -> list[str]:
    seen: dict[str, int] = {}
    out = []
    for b in bots:
        name = _bot_label(b)
        k = seen[name] = seen.get(name, 0) + 1
        out.append(name if k == 1 else f"{name}#{k}")
    return out


def match(
    bots: Sequence[Any],
    hands: int = 10_000,
    *,
    seed: int | None = None,
    duplicate: bool = True,
    rules: Rules | None = None,
    stack: int | None = None,
    chunk_size: int = 500,
    core: Any = None,
    progress: bool | Callable[[int, int], None] = False,
) -> MatchResult:
    """Play ``bots`` against each other and score each in big blinds per 100 hands.

    - ``bots``: 2 to 8 players (names for :func:`triple_draw.bots.make_bot` such as
      ``"heuristic"``, ``"equity"``, ``"pkg.module:Class"``, or objects with
      ``act(view)`` or ``decide(obs)``); two make a head-to-head match, more a ring game.
    - ``hands``: hands to play in all, rounded up to a whole number of deals: each deal is
      played ``len(bots)`` times (:attr:`MatchResult.hands` says how many were played).
    - ``duplicate``: play each deal in every rotation of the seats (default). ``False``
      deals every rotation fresh cards (the seats still rotate): the same estimator, for
      comparing the width of the intervals.
    - ``seed``: int ``0 <= seed < 2**256`` (``None``: from OS entropy; it is in the
      result). The same arguments give the same result.
    - ``rules``, ``stack``, ``core``: as for :func:`triple_draw.simulate` (default
      ``Rules()`` with room for the players, stacks of 100 big bets, the default core).
    - ``chunk_size``: deals per seeded chunk (the deals of chunk ``i`` come from
      ``chunk_seed(seed, i)``: rotation 0 of a match is ``simulate(bots, seed=seed,
      chunk_size=...)``'s play).
    - ``progress``: ``True`` shows a tqdm bar on stderr; a callable is called as
      ``progress(hands_done, hands)`` after each chunk.

    Each player's score is the mean over the deals of the chips it won in the deal's
    rotations, per hand and in big blinds; the 95% interval is 1.96 standard errors of
    that mean (the deals are independent; the rotations of one deal are not).
    """
    if isinstance(bots, (str, bytes)) or not isinstance(bots, Sequence):
        raise ArgumentTypeError(f"bots must be a list of 2..{MAX_PLAYERS} players, got {bots!r}")
    n = len(bots)
    if not 2 <= n <= MAX_PLAYERS:
        raise ArgumentError(f"a match needs 2..{MAX_PLAYERS} players, got {n}")
    if type(hands) is not int or not 1 <= hands <= MAX_HANDS:
        raise ArgumentError(f"hands must be an int 1..{MAX_HANDS:.0e}, got {hands!r}")
    if type(chunk_size) is not int or not 1 <= chunk_size <= MAX_HANDS:
        raise ArgumentError(f"chunk_size must be an int >= 1, got {chunk_size!r}")
    if type(duplicate) is not bool:
        raise ArgumentTypeError(f"duplicate must be True or False, got {duplicate!r}")
    seed = run_seed(seed)
    run_core = portable_core(resolve_core(core))
    players = [make_bot(b, core=run_core) for b in bots]
    rules, stack, report = run_settings(n, rules, stack, progress, "match")

    deals = -(-hands // n)
    net = [0] * n
    deal_sq = [0] * n
    rake = 0
    bar: Any = None
    if progress is True:
        from tqdm import tqdm

        bar = tqdm(total=deals * n, unit="hand", file=sys.stderr, desc="match", leave=False)
    t0 = time.perf_counter()
    try:
        for index, first in enumerate(range(0, deals, chunk_size)):
            count = min(chunk_size, deals - first)
            cs = chunk_seed(seed, index)
            per_deal = [[0] * n for _ in range(count)]
            for r in range(n):
                # player p sits in seat (p + r) % n: seat s holds player (s - r) % n
                seated = [players[(s - r) % n] for s in range(n)]
                nets: list[tuple[int, ...]] = []
                part = _play_chunk(
                    index, cs if duplicate or r == 0 else chunk_seed(cs, r), first, count,
                    seated, rules, stack, "independent", run_core, nets,
                )  # fmt: skip
                rake += part[11]
                for d, row in enumerate(nets):
                    acc = per_deal[d]
                    for p in range(n):
                        acc[p] += row[(p + r) % n]
            for acc in per_deal:
                for p in range(n):
                    x = acc[p]
                    net[p] += x
                    deal_sq[p] += x * x
            done = (first + count) * n
            if bar is not None:
                bar.update(done - bar.n)
            if report is not None:
                report(done, deals * n)
    finally:
        if bar is not None:
            bar.close()
    elapsed = time.perf_counter() - t0
    entries = tuple(
        MatchEntry(
            player=p,
            bot=label,
            deals=deals,
            rotations=n,
            net=net[p],
            deal_sq=deal_sq[p],
            big_blind=rules.big_blind,
        )
        for p, label in enumerate(_labels(players))
    )
    return MatchResult(
        seed=seed,
        hands=deals * n,
        deals=deals,
        rotations=n,
        players=n,
        duplicate=duplicate,
        rules=rules,
        stack=stack,
        chunk_size=chunk_size,
        entries=entries,
        rake=rake,
        elapsed=elapsed,
    )


@dataclass(frozen=True)
class RoundRobin:
    """Every pair of a list of bots, head-to-head on the same deals (:func:`round_robin`).
    ``matches[(i, j)]`` (``i < j``) is the :class:`MatchResult` of bot ``i`` against bot
    ``j``; :meth:`score` reads it from either side."""

    bots: tuple[str, ...]
    hands: int
    seed: int
    matches: dict[tuple[int, int], MatchResult]

    def score(self, i: int, j: int) -> MatchEntry:
        """Bot ``i``'s entry in its match against bot ``j``."""
        if i == j:
            raise ArgumentError("a bot does not play itself in a round robin")
        if i < j:
            return self.matches[i, j][0]
        return self.matches[j, i][1]

    def table(self) -> str:
        """The scores as a Markdown table: row bot's big blinds per 100 hands against the
        column bot, with the 95% interval's half width."""
        head = "| bb/100 (row vs column) | " + " | ".join(f"`{b}`" for b in self.bots) + " |"
        rule = "|---" + "|---:" * len(self.bots) + "|"
        lines = [head, rule]
        for i, b in enumerate(self.bots):
            cells = []
            for j in range(len(self.bots)):
                if i == j:
                    cells.append("")
                else:
                    e = self.score(i, j)
                    cells.append(f"{e.bb_per_100:+.1f} ± {e.ci95_half_width:.1f}")
            lines.append(f"| `{b}` | " + " | ".join(cells) + " |")
        return "\n".join(lines)


def round_robin(
    bots: Sequence[Any],
    hands: int = 10_000,
    *,
    seed: int = 0,
    progress: Callable[[str, MatchResult], None] | None = None,
    **options: Any,
) -> RoundRobin:
    """Every pair of ``bots`` (2 or more) in a head-to-head :func:`match` of ``hands``
    hands, every pair on the same deals (the same ``seed``). ``options`` go to
    :func:`match`; ``progress(label, result)`` is called after each match."""
    if isinstance(bots, (str, bytes)) or not isinstance(bots, Sequence) or len(bots) < 2:
        raise ArgumentError(f"a round robin needs a list of 2 or more bots, got {bots!r}")
    labels = tuple(_labels([make_bot(b) for b in bots]))
    matches: dict[tuple[int, int], MatchResult] = {}
    for i in range(len(bots)):
        for j in range(i + 1, len(bots)):
            m = match([bots[i], bots[j]], hands, seed=seed, **options)
            matches[i, j] = m
            if progress is not None:
                progress(f"{labels[i]} vs {labels[j]}", m)
    return RoundRobin(bots=labels, hands=hands, seed=seed, matches=matches)
