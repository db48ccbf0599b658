"""A player's own hands reviewed: each of his draws against :func:`best_discard`, his equity
at each street of each showdown, and his results by position and number of opponents.

>>> from triple_draw.review import review
>>> r = review(["tests/data/histories/pokerstars/cash.txt"], "hero")   # doctest: +SKIP
>>> r.decisions[0].discarded, r.decisions[0].best, r.decisions[0].cost  # doctest: +SKIP

**The measure.** A draw is judged by one number: the probability of finishing with the
``target`` hand or better (default ``"8"``: any 8-low) after the draws left, the draws
after this one following the standard rule (:meth:`Strategy.rule`, keep eights, stand
pat on an 8-low) - :func:`~triple_draw.analysis.best_discard`'s target objective. The
cost of a draw is the best choice's probability minus the player's, in probability (0.05
= five finishes in a hundred lost). It ignores the betting, the pot and the opponents'
hands: a draw that keeps a made nine against a single pat eight, or breaks a hand to
bluff, may be right at the table and still cost here.

**What he knew.** His five cards before the draw; the draws left; his own earlier
discards, dead (they cannot come back to him) under PokerStars' reshuffle and, under the
other reshuffle rules, until a reshuffle of the replay (``Hand.history``) gathers them
back into the stub, one made before he is served included; the cards the opponents drew
so far (reported with each decision; the others' unknown cards do not change the odds of
the cards he draws).

**Exact or sampled.** One draw left: every replacement set is enumerated (exact). Two or
three draws left: each of the 32 choices is sampled with ``trials`` trials on the same
random streams (``seed``), so that they compare fairly; the standard errors are reported.
Decisions are cached by equivalent holdings: the suits relabelled, and the ranks above
both the target's top card and the eight (which can only be thrown, and never finish in a
target hand) treated as one, so one analysis answers every hand of the same shape.

**Showdowns.** For each showdown with a shown hand of an opponent: the player's equity
(pot share) before each of his draws and at the end, against the hand(s) shown at the end
held pat; his draw at that street is the discard he made, the draws after it the standard
rule. Exact where :func:`~triple_draw.analysis.equity` enumerates (always for two hands).
"""

from __future__ import annotations

import itertools
import os
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path
from typing import Any

from triple_draw.analysis import Strategy, as_rank, best_discard, draw_odds, equity
from triple_draw.errors import AnalysisError, TripleDrawError
from triple_draw.game.cards import CARD_TEXT

__all__ = [
    "REVIEW_SCHEMA_VERSION",
    "DEFAULT_TRIALS",
    "Decision",
    "Showdown",
    "StreetEquity",
    "HandReview",
    "Review",
    "ReviewError",
    "finishes",
    "iter_records",
    "load_hands",
    "phh_records",
    "position_name",
    "reference_frequencies",
    "review",
    "review_hands",
    "validate_review",
]

#: The ``schema_version`` of :meth:`Review.to_dict` (``schema/review.v1.json``).
REVIEW_SCHEMA_VERSION = 1
#: Trials per choice for the sampled (two or three draws left) decisions.
DEFAULT_TRIALS = 2000
#: Hands of the reference bots behind :func:`reference_frequencies`.
REFERENCE_HANDS = 1000
#: Showdown equities with at most this many outcomes are enumerated, else sampled.
_SHOWDOWN_EXACT_LIMIT = 50_000
#: How many of the costliest decisions the summary lists.
COSTLIEST = 10

_SUIT_PERMS = tuple(itertools.permutations(range(4)))
_RANKS = "23456789TJQKA"
#: The standard rule's kept ranks (eights and below: rank index 6).
_RULE_TOP = 6


class ReviewError(TripleDrawError, ValueError):
    """A review that cannot be made: no hand of the hero in the files, an unknown hero, a
    bad option."""


def _text(ids: Iterable[int]) -> list[str]:
    return [CARD_TEXT[c] for c in ids]


# ----------------------------------------------------------------------------- positions


def position_name(seat: int, n: int, button: int, sb: int | None, bb: int) -> str:
    """The seat's position: ``BTN``, ``SB``, ``BB``, then counting back from the button
    ``CO``, ``HJ``, and ``UTG`` for the first to act before the draw (``MP`` between)."""
    if seat == bb:
        return "BB"
    if seat == button:
        return "BTN"
    if seat == sb:
        return "SB"
    k = (button - seat) % n
    if k == 1:
        return "CO"
    if k == n - 3:
        return "UTG"
    return "HJ" if k == 2 else "MP"


POSITIONS = ("UTG", "MP", "HJ", "CO", "BTN", "SB", "BB")


def _position(hand: Any, seat: int) -> str:
    return position_name(
        seat, hand.n_players, hand.button, hand.small_blind_seat, hand.big_blind_seat
    )


# ----------------------------------------------------------------------------- results


@dataclass(frozen=True)
class Decision:
    """One draw of the hero, judged (see the module's text for the measure)."""

    hand_id: str
    site: str
    #: 1, 2 or 3
    draw: int
    draws_left: int
    position: str
    #: his five cards before the draw
    cards: tuple[str, ...]
    discarded: tuple[str, ...]
    #: his earlier discards taken as dead
    dead: tuple[str, ...]
    #: the draws of each opponent still in the hand so far (this draw's when he was
    #: served before the hero), by position
    opponents: tuple[tuple[str, tuple[int, ...]], ...]
    #: the probability of finishing at the target or better with his discard ...
    score: float
    stderr: float
    #: ... and with the best discard (``best``; his own when he chose a best one)
    best: tuple[str, ...]
    best_score: float
    best_stderr: float
    #: best_score - score (0 when his choice is a best one)
    cost: float
    exact: bool
    #: outcomes enumerated (exact) or trials run per choice (sampled)
    outcomes: int
    #: for the costliest decisions (:meth:`Review.costliest`): the distribution of the
    #: final hand with his discard and with the best one (:func:`finishes`)
    finishes: dict[str, dict[str, float]] | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "hand_id": self.hand_id,
            "site": self.site,
            "draw": self.draw,
            "draws_left": self.draws_left,
            "position": self.position,
            "cards": list(self.cards),
            "discarded": list(self.discarded),
            "dead": list(self.dead),
            "opponents": [{"position": p, "draws": list(d)} for p, d in self.opponents],
            "score": self.score,
            "stderr": self.stderr,
            "best": list(self.best),
            "best_score": self.best_score,
            "best_stderr": self.best_stderr,
            "cost": self.cost,
            "exact": self.exact,
            "outcomes": self.outcomes,
            "finishes": self.finishes,
        }


@dataclass(frozen=True)
class StreetEquity:
    """The hero's equity before a draw (``draws_left`` 3, 2, 1) or at the end (0)."""

    draws_left: int
    cards: tuple[str, ...]
    #: None when it cannot be computed (a card of his came back to an opponent after a
    #: reshuffle), with ``note`` saying so
    equity: float | None
    exact: bool
    note: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "draws_left": self.draws_left,
            "cards": list(self.cards),
            "equity": self.equity,
            "exact": self.exact,
            "note": self.note,
        }


@dataclass(frozen=True)
class Showdown:
    hand_id: str
    #: the shown hands of the opponents at the showdown
    against: tuple[tuple[str, ...], ...]
    streets: tuple[StreetEquity, ...]
    #: his net in big bets in this hand
    net_big_bets: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "hand_id": self.hand_id,
            "against": [list(h) for h in self.against],
            "streets": [s.to_dict() for s in self.streets],
            "net_big_bets": self.net_big_bets,
        }


@dataclass(frozen=True)
class HandReview:
    hand_id: str
    site: str
    position: str
    opponents: int
    net_big_bets: float
    #: his draw counts at each draw he made
    draws: tuple[int, ...]


@dataclass
class Review:
    """What :func:`review` found; :meth:`to_dict` is the ``--json`` document."""

    hero: str
    target: str
    trials: int
    hands: list[HandReview] = field(default_factory=list)
    decisions: list[Decision] = field(default_factory=list)
    showdowns: list[Showdown] = field(default_factory=list)
    #: hands skipped: the hero's cards not in the record
    hands_without_cards: int = 0
    refused: int = 0
    #: analyses run (distinct holdings) for the decisions
    analyses: int = 0
    reference: dict[str, Any] = field(default_factory=dict)
    #: the files reviewed
    files: list[str] = field(default_factory=list)

    # -- summaries

    def net_by(self, key: Callable[[HandReview], Any]) -> list[dict[str, Any]]:
        groups: dict[Any, list[float]] = defaultdict(list)
        for h in self.hands:
            groups[key(h)].append(h.net_big_bets)
        return [
            {
                "key": k,
                "hands": len(v),
                "net_big_bets": round(sum(v), 4),
                "big_bets_per_100": round(100 * sum(v) / len(v), 2),
            }
            for k, v in sorted(groups.items(), key=lambda kv: _order(kv[0]))
        ]

    def frequencies(self) -> list[dict[str, Any]]:
        """Per draw and position: how often the hero stood pat, drew one, two..., next to
        the reference bots at the same draw and position."""
        counts: dict[tuple[int, str], Counter[int]] = defaultdict(Counter)
        for h in self.hands:
            for i, count in enumerate(h.draws):
                counts[(i + 1, h.position)][count] += 1
        ref = self.reference.get("frequencies", {})
        rows = []
        for (draw, pos), c in sorted(counts.items(), key=lambda kv: (kv[0][0], _order(kv[0][1]))):
            n = sum(c.values())
            rows.append(
                {
                    "draw": draw,
                    "position": pos,
                    "draws": n,
                    "hero": [round(c[k] / n, 4) for k in range(6)],
                    "reference": ref.get(f"{draw}:{pos}"),
                }
            )
        return rows

    def cost_by_draw(self) -> list[dict[str, Any]]:
        rows = []
        for d in (1, 2, 3):
            ds = [x for x in self.decisions if x.draw == d]
            if ds:
                rows.append(
                    {
                        "draw": d,
                        "decisions": len(ds),
                        "best_chosen": sum(1 for x in ds if x.cost == 0),
                        "total_cost": round(sum(x.cost for x in ds), 4),
                        "mean_cost": round(sum(x.cost for x in ds) / len(ds), 5),
                    }
                )
        return rows

    def costliest(self, n: int = COSTLIEST) -> list[Decision]:
        """The ``n`` draws that cost most (those that cost something), each with the
        distribution of his finishes and the best choice's (:func:`finishes`)."""
        return sorted(
            (d for d in self.decisions if d.cost > 0),
            key=lambda d: (-d.cost, d.hand_id, d.draw),
        )[:n]

    def measure(self) -> str:
        return (
            f"probability of finishing with {_article(self.target)} {self.target}-low or better "
            "after the draws "
            "left, later draws by the standard rule (keep eights, stand pat on an 8-low); "
            "it ignores the betting, the pot and the opponents' hands"
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "schema_version": REVIEW_SCHEMA_VERSION,
            "files": list(self.files),
            "hero": self.hero,
            "measure": {
                "objective": "target",
                "target": self.target,
                "later_draws": "Strategy.rule()",
                "text": self.measure(),
                "ignores_betting": True,
                "one_draw": "exact",
                "more_draws": f"sampled, {self.trials} trials per choice",
            },
            "totals": {
                "hands": len(self.hands),
                "hands_without_cards": self.hands_without_cards,
                "refused": self.refused,
                "decisions": len(self.decisions),
                "analyses": self.analyses,
                "showdowns": len(self.showdowns),
                "net_big_bets": round(sum(h.net_big_bets for h in self.hands), 4),
            },
            "net_by_position": [
                {"position": r.pop("key"), **r} for r in self.net_by(lambda h: h.position)
            ],
            "net_by_opponents": [
                {"opponents": r.pop("key"), **r} for r in self.net_by(lambda h: h.opponents)
            ],
            "net_over_hands": _cumulative([h.net_big_bets for h in self.hands]),
            "frequencies": self.frequencies(),
            "reference": {
                "bots": self.reference.get("bots"),
                "hands": self.reference.get("hands"),
            },
            "cost_by_draw": self.cost_by_draw(),
            "costliest": [d.to_dict() for d in self.costliest()],
            "decisions": [d.to_dict() for d in self.decisions],
            "showdowns": [s.to_dict() for s in self.showdowns],
        }

    def lines(self) -> list[str]:
        """The terminal report."""
        from triple_draw._text import format_table

        d = self.to_dict()
        t = d["totals"]
        missing = t["hands_without_cards"]
        out = [
            f"Review of {self.hero}: {t['hands']} hand{'' if t['hands'] == 1 else 's'}, net "
            f"{t['net_big_bets']:+.2f} big bets"
            + (f" ({missing} more without his cards)" if missing else ""),
            f"Draws judged by: {self.measure()}.",
            f"One draw left: exact; two or three: sampled, {self.trials} trials a choice.",
            "",
        ]
        for title, rows, key in (
            ("Net by position", d["net_by_position"], "position"),
            ("Net by opponents dealt in", d["net_by_opponents"], "opponents"),
        ):
            out.append(f"{title}:")
            table = [[key, "hands", "big bets", "bb/100"]] + [
                [
                    str(r[key]),
                    str(r["hands"]),
                    f"{r['net_big_bets']:+.2f}",
                    f"{r['big_bets_per_100']:+.2f}",
                ]
                for r in rows
            ]
            out += ["  " + x for x in format_table(table, right={1, 2, 3})]
            out.append("")
        out.append(
            "Draw frequencies (pat / 1 / 2 / 3 / 4 / 5 cards), hero vs reference bots "
            f"({self.reference.get('bots')}, {self.reference.get('hands')} 6-max hands):"
        )
        table = [["draw", "position", "n", "hero", "reference"]]
        for r in d["frequencies"]:
            ref = r["reference"]
            table.append(
                [
                    str(r["draw"]),
                    r["position"],
                    str(r["draws"]),
                    _pcts(r["hero"]),
                    _pcts(ref) if ref else "-",
                ]
            )
        out += ["  " + x for x in format_table(table, right={2})]
        out.append("")
        out.append("Cost of the draws (probability of the target lost):")
        table = [["draw", "decisions", "best chosen", "total cost", "mean cost"]] + [
            [
                str(r["draw"]),
                str(r["decisions"]),
                str(r["best_chosen"]),
                f"{r['total_cost']:.3f}",
                f"{r['mean_cost']:.4f}",
            ]
            for r in d["cost_by_draw"]
        ]
        out += ["  " + x for x in format_table(table, right={1, 2, 3, 4})]
        out.append("")
        worst = self.costliest()
        out.append(f"Costliest draws ({len(worst)}):")
        for x in worst:
            err = "" if x.exact else f" ±{max(x.stderr, x.best_stderr):.3f}"
            out.append(
                f"  #{x.hand_id} draw {x.draw} ({x.position}): {' '.join(x.cards)}, threw "
                f"{' '.join(x.discarded) or 'nothing'} ({x.score:.3f}); better "
                f"{' '.join(x.best) or 'stand pat'} ({x.best_score:.3f}): -{x.cost:.3f}{err}"
            )
        if self.showdowns:
            out.append("")
            out.append(f"Showdowns ({len(self.showdowns)}): equity before draw 1 / 2 / 3 / end")
            for s in self.showdowns[:COSTLIEST]:
                eq = " / ".join("-" if x.equity is None else f"{x.equity:.2f}" for x in s.streets)
                vs = ", ".join(" ".join(h) for h in s.against)
                out.append(f"  #{s.hand_id} vs {vs}: {eq} ({s.net_big_bets:+.2f} BB)")
            if len(self.showdowns) > COSTLIEST:
                out.append(f"  ... {len(self.showdowns) - COSTLIEST} more (--json lists them all)")
        return out


def _article(target: str) -> str:
    return "an" if target.strip()[:1].upper() in ("8", "A") else "a"


def _pcts(v: Sequence[float]) -> str:
    return " ".join(f"{round(100 * x):d}" for x in v)


def _cumulative(values: Sequence[float]) -> list[float]:
    out, s = [], 0.0
    for v in values:
        s += v
        out.append(round(s, 4))
    return out


def _order(key: Any) -> tuple[int, Any]:
    if isinstance(key, str) and key in POSITIONS:
        return (POSITIONS.index(key), key)
    return (len(POSITIONS), key)


def validate_review(doc: Any) -> None:
    """Check a :meth:`Review.to_dict` document against the published schema
    (``triple_draw/schema/review.v1.json``; needs ``jsonschema``, the ``schema`` extra):
    :class:`~triple_draw.errors.SchemaError` names the path and the problem."""
    from triple_draw.schema import validate

    validate(doc, f"review.v{REVIEW_SCHEMA_VERSION}.json")


# ----------------------------------------------------------------------------- reading


@dataclass(frozen=True)
class _Record:
    site: str
    hand_id: str
    players: tuple[str, ...]
    hand: Any


def load_hands(paths: Sequence[str | os.PathLike[str]]) -> tuple[list[_Record], int]:
    """Every hand of the files (site hand histories; PHH ``.phh`` / ``.phhs`` files, the
    names from their ``players`` field), and the number of refused site hands."""
    counts = {"refused": 0}
    out = list(iter_records(paths, counts))
    return out, counts["refused"]


def iter_records(
    paths: Sequence[str | os.PathLike[str]], counts: dict[str, int] | None = None
) -> Iterator[_Record]:
    """The hands of :func:`load_hands` one at a time (a site file is read as a stream);
    ``counts["refused"]`` counts the refused site hands."""
    from triple_draw import histories

    counts = counts if counts is not None else {}
    counts.setdefault("refused", 0)
    for p in paths:
        path = Path(p)
        if path.suffix.lower() in (".phh", ".phhs"):
            yield from _load_phh(path)
            continue
        for item in histories.iter_load(path):
            if isinstance(item, histories.SiteHand):
                yield _Record(item.site, item.hand_id, item.players, item.hand)
            elif isinstance(item, histories.Refused):
                counts["refused"] += 1


def _load_phh(path: Path) -> list[_Record]:
    from triple_draw.histories._text import check_path

    check_path(path)
    return phh_records(path.read_text(encoding="utf-8"), path.name)


def phh_records(text: str, label: str = "phh") -> list[_Record]:
    """The hands of a PHH text (one hand, or a ``.phhs`` of many), each with the players'
    names of its ``players`` field (in PHH order: mapped to the hand's seats by its
    ``seats`` field) and its hand number (``label:k`` when it has none)."""
    from triple_draw import phh
    from triple_draw.phh.base import parse_toml

    data = parse_toml(text)
    tables = [data] if "variant" in data else [t for t in data.values() if isinstance(t, dict)]
    hands = phh.loads_all(text)
    out = []
    for i, (t, h) in enumerate(zip(tables, hands, strict=True)):
        names = t.get("players")
        if not isinstance(names, list) or len(names) != h.n_players:
            names = [f"p{j + 1}" for j in range(h.n_players)]
        # PHH lists the players from the small blind; the hand's seats are its own
        seats = t.get("seats")
        if isinstance(seats, list) and len(seats) == h.n_players:
            order = sorted(range(h.n_players), key=lambda j: seats[j])
            names = [names[j] for j in order]
        # (``_hand_id``: the number ``triple-draw serve`` gives its hands)
        hand_id = str(t.get("hand", t.get("_site_hand", t.get("_hand_id", f"{label}:{i + 1}"))))
        out.append(_Record("phh", hand_id, tuple(str(n) for n in names), h))
    return out


# ----------------------------------------------------------------------------- one hand


@dataclass
class _Pending:
    """A decision waiting for its analysis (the hand itself is not kept)."""

    hand_id: str
    site: str
    draw: int
    position: str
    hand: list[int]
    discard: list[int]
    dead: list[int]
    opponents: tuple[tuple[str, tuple[int, ...]], ...]


@dataclass
class _PendingShowdown:
    hand_id: str
    against: list[list[int]]
    #: (draws_left, hand, discard or None at the end, dead)
    streets: list[tuple[int, list[int], list[int] | None, list[int]]]
    net: float


def _walk(rec: _Record, seat: int) -> tuple[list[_Pending], _PendingShowdown | None] | None:
    """The hero's decisions in the hand, and its showdown; None when his cards are not
    in the record."""
    hand = rec.hand
    rules = hand.rules
    n = hand.n_players
    positions = [_position(hand, s) for s in range(n)]
    held: list[int] | None = None
    folded = [False] * n
    draws: list[list[int]] = [[] for _ in range(n)]
    # his discards that cannot come back to him: all of them under PokerStars' rule; under
    # the others, those thrown since the last reshuffle the record shows (a reshuffle
    # gathers his earlier discards into the new stub)
    gone: list[int] = []
    pending: list[_Pending] = []
    before: list[tuple[int, list[int], list[int] | None, list[int]]] = []
    shown: dict[int, list[int]] = {}
    draw_no = -1
    mine: list[int] = []
    waiting: _Pending | None = None  # his decision until he is served
    pokerstars = rules.reshuffle == "pokerstars"
    for e in hand.history:
        k = e.kind
        if k == "deal" and e.seat == seat:
            held = _ids(e.cards)
            if held is None:
                return None
        elif k == "begin_draw":
            draw_no = e.amount
        elif k == "fold":
            folded[e.seat] = True
        elif k == "reshuffle" and not pokerstars:
            gone = []
            if waiting is not None:  # before he was served: his draw could take them
                waiting.dead.clear()
        elif k == "discard":
            draws[e.seat].append(len(e.cards))
            if e.seat == seat:
                assert held is not None
                thrown = _ids(e.cards)
                if thrown is None:
                    return None
                opp = tuple(
                    (positions[s], tuple(draws[s])) for s in range(n) if s != seat and not folded[s]
                )
                dead = [c for c in gone if c not in held]
                waiting = _Pending(
                    rec.hand_id,
                    rec.site,
                    draw_no + 1,
                    positions[seat],
                    list(held),
                    thrown,
                    dead,
                    opp,
                )
                pending.append(waiting)
                before.append((3 - draw_no, list(held), thrown, waiting.dead))
                mine = thrown
                if not thrown:
                    waiting = None
        elif k == "draw" and e.seat == seat:
            got = _ids(e.cards)
            if got is None or held is None:
                return None
            held = [c for c in held if c not in mine] + got
            gone += mine
            mine = []
            waiting = None
        elif k == "show" and e.seat is not None:
            ids = _ids(e.cards)
            if ids is not None:
                shown[e.seat] = ids
    if held is None:
        return None
    net = hand.result.net[seat] / rules.big_bet
    against = [c for s, c in sorted(shown.items()) if s != seat]
    sd = None
    if against and not folded[seat]:
        final_dead = [c for c in gone if c not in held]
        before.append((0, list(held), None, final_dead))
        sd = _PendingShowdown(rec.hand_id, against, before, net)
    return pending, sd


def _ids(cards: Any) -> list[int] | None:
    if cards is None:
        return []
    out = []
    for c in cards:
        if c == "??":
            return None
        out.append(_TEXT_ID[c])
    return out


_TEXT_ID = {t: i for i, t in enumerate(CARD_TEXT[:52])}


# ----------------------------------------------------------------------------- analyses


def _canonical(
    hand: Sequence[int], dead: Sequence[int], top: int
) -> tuple[tuple[Any, ...], dict[int, int]]:
    """The key of equivalent holdings, and the map of the real cards to the key's cards:
    the suits relabelled to the smallest form, the cards above rank ``top`` (they can
    only be thrown) mapped to the top cards of the deck in order."""
    low_h = [c for c in hand if c >> 2 <= top]
    low_d = [c for c in dead if c >> 2 <= top]
    high = [c for c in hand if c >> 2 > top] + [c for c in dead if c >> 2 > top]
    if len(high) > 4 * (12 - top):  # (cannot happen with a target of 8 or lower)
        low_h, low_d, high = list(hand), list(dead), []
    best: tuple[Any, ...] | None = None
    best_perm = _SUIT_PERMS[0]
    for perm in _SUIT_PERMS:
        k = (
            tuple(sorted((c & ~3) | perm[c & 3] for c in low_h)),
            tuple(sorted((c & ~3) | perm[c & 3] for c in low_d)),
        )
        if best is None or k < best:
            best, best_perm = k, perm
    assert best is not None
    mapping = {c: (c & ~3) | best_perm[c & 3] for c in (*low_h, *low_d)}
    for i, c in enumerate(high):
        mapping[c] = 51 - i
    n_high_hand = sum(1 for c in hand if c in high)
    return (best[0], n_high_hand, best[1], len(high) - n_high_hand), mapping


#: the scores by discard (a frozenset of the key's cards): (score, stderr); the best
#: discard and its score; exact; outcomes (trials per choice when sampled, the hero's
#: choice's replacement sets when exact)
_Rows = tuple[dict[frozenset[int], tuple[float, float]], list[int], float, bool, int]


def _analyse(
    hand: list[int],
    dead: list[int],
    draws_left: int,
    target: str,
    trials: int,
    seed: int,
    discard: list[int] | None = None,
) -> _Rows:
    """``best_discard``'s scores of the holding: sampled for two or three draws left;
    exact for one draw left (:func:`_one_draw`)."""
    if draws_left == 1:
        assert discard is not None
        return _one_draw(hand, dead, discard, target)
    rows = best_discard(
        hand,
        draws_left=draws_left,
        target=target,
        dead=dead,
        method="sample",
        trials=trials,
        seed=seed,
        threads=1,
    )
    table = {frozenset(c.id for c in r.discard): (r.score, r.stderr) for r in rows}
    best = rows[0]
    return table, [c.id for c in best.discard], best.score, best.exact, best.outcomes


def _one_draw(hand: list[int], dead: list[int], discard: list[int], target: str) -> _Rows:
    """The exact one-draw choice of :func:`best_discard` (target objective) and the exact
    score of ``discard``, without enumerating the choices that cannot be best.

    A choice that keeps a pair or a card above the target's top card never finishes at
    the target (score 0). Every other choice has an upper bound: the chance that the new
    cards are of distinct ranks at or below the top card and not among the kept ranks
    (straights, flushes and the target's lower cards only take from it). The choices are
    enumerated exactly (``draw_odds``, as ``best_discard`` does) in the order of their
    bounds, until the best exact score found is above every bound left; ``discard`` is
    always enumerated. Ties go as in ``best_discard``: fewer cards thrown first, then the
    lower card ids."""
    from fractions import Fraction
    from math import comb

    top = _target_top(target)
    rank = as_rank(target)
    known = set(hand) | set(dead)
    avail = Counter(c >> 2 for c in range(52) if c not in known)
    unseen = sum(avail.values())
    bounds: list[tuple[Fraction, tuple[int, ...], tuple[int, ...]]] = []
    exact_zero: list[tuple[int, ...]] = []
    for k in range(6):
        for thrown in itertools.combinations(sorted(hand), k):
            kept = [c for c in hand if c not in thrown]
            ranks = {c >> 2 for c in kept}
            if len(ranks) < len(kept) or any(r > top for r in ranks):
                exact_zero.append(thrown)
                continue
            free = [avail[r] for r in range(top + 1) if r not in ranks]
            ways = sum(_product(sub) for sub in itertools.combinations(free, k)) if k else 1
            bounds.append((Fraction(ways, comb(unseen, k)), thrown, tuple(kept)))
    bounds.sort(key=lambda b: (-b[0], len(b[1]), b[1]))
    table: dict[frozenset[int], tuple[float, float]] = {}
    scores: dict[tuple[int, ...], Fraction] = {}

    def score_of(thrown: tuple[int, ...]) -> Fraction:
        if thrown not in scores:
            odds = draw_odds(hand, list(thrown), dead=dead, threads=1)
            scores[thrown] = odds.fraction_at_most(rank)
        return scores[thrown]

    best: tuple[Fraction, int, tuple[int, ...]] | None = None
    for bound, thrown, _ in bounds:
        if best is not None and bound < best[0]:
            break
        sc = score_of(thrown)
        cand = (sc, len(thrown), thrown)
        if best is None or sc > best[0] or (sc == best[0] and (len(thrown), thrown) < best[1:]):
            best = cand
    mine = tuple(sorted(discard))
    zero = Fraction(0)
    if best is None:  # no choice can finish at the target
        best = (zero, 0, ())
    my_score = zero if mine in exact_zero else score_of(mine)
    for t, sc in scores.items():
        table[frozenset(t)] = (float(sc), 0.0)
    for t in exact_zero:
        table[frozenset(t)] = (0.0, 0.0)
    table[frozenset(mine)] = (float(my_score), 0.0)
    return table, list(best[2]), float(best[0]), True, comb(unseen, len(mine))


def _product(values: Iterable[int]) -> int:
    out = 1
    for v in values:
        out *= v
    return out


def _target_top(target: str) -> int:
    """The rank index of the target's top card; ReviewError for anything but a low."""
    bad = ReviewError(f"target must be a low like '8' or '9-7', got {target!r}")
    if not isinstance(target, str):
        raise bad
    t = target.strip().upper().removesuffix("LOW").strip().split("-")[0]
    t = "T" if t == "10" else t
    if len(t) != 1 or t not in _RANKS:
        raise bad
    try:
        as_rank(target)
    except AnalysisError:
        raise bad from None
    return _RANKS.index(t)


def _pool(threads: int | None) -> int:
    if threads is None:
        return 1
    if isinstance(threads, bool) or not isinstance(threads, int):
        raise ReviewError(f"threads must be an int, got {type(threads).__name__}")
    if not 1 <= threads <= 256:
        raise ReviewError(f"threads must be 1 to 256, got {threads}")
    return threads


def review(
    files: Sequence[str | os.PathLike[str]],
    hero: str,
    *,
    target: str = "8",
    trials: int = DEFAULT_TRIALS,
    seed: int = 0,
    threads: int | None = None,
    progress: bool = False,
    reference: bool = True,
) -> Review:
    """Review ``hero``'s hands in ``files`` (site hand histories of any of the three
    sites, PHH files): see the module's text for what is measured and how.

    Raises :class:`ReviewError` when the files hold no hand of ``hero`` (naming the
    players they do hold when they are few), or when an option is bad."""
    if not isinstance(hero, str) or not hero.strip():
        raise ReviewError("hero: give a player's name")
    _pool(threads)
    _target_top(target)
    counts = {"refused": 0}
    out = review_hands(
        iter_records(files, counts),
        hero,
        target=target,
        trials=trials,
        seed=seed,
        threads=threads,
        progress=progress,
        reference=reference,
        files=[str(f) for f in files],
    )
    out.refused = counts["refused"]
    return out


def review_hands(
    records: Iterable[_Record],
    hero: str,
    *,
    target: str = "8",
    trials: int = DEFAULT_TRIALS,
    seed: int = 0,
    threads: int | None = None,
    progress: bool = False,
    refused: int = 0,
    reference: bool = True,
    files: Sequence[str] = (),
) -> Review:
    """:func:`review` of records already read (:func:`load_hands`, or a stream of
    :func:`iter_records`: each hand is walked as it comes and not kept)."""
    workers = _pool(threads)
    top = max(_target_top(target), _RULE_TOP)
    if isinstance(trials, bool) or not isinstance(trials, int) or not 1 <= trials <= 10**7:
        raise ReviewError(f"trials must be 1 to 10,000,000, got {trials!r}")
    where = ", ".join(files) if files else "the records"
    out = Review(hero=hero, target=target, trials=trials, refused=refused, files=list(files))
    pending: list[_Pending] = []
    showdowns: list[_PendingShowdown] = []
    everyone: set[str] = set()
    mine = 0
    bar: Any = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(desc="review: reading", unit="hand", leave=False)
    try:
        for rec in records:
            if bar is not None:
                bar.update(1)
            if hero not in rec.players:
                everyone.update(rec.players)
                continue
            mine += 1
            seat = rec.players.index(hero)
            walked = _walk(rec, seat)
            if walked is None:
                out.hands_without_cards += 1
                continue
            decisions, sd = walked
            pending += decisions
            if sd is not None:
                showdowns.append(sd)
            hand = rec.hand
            out.hands.append(
                HandReview(
                    hand_id=rec.hand_id,
                    site=rec.site,
                    position=_position(hand, seat),
                    opponents=hand.n_players - 1,
                    net_big_bets=hand.result.net[seat] / hand.rules.big_bet,
                    draws=tuple(hand.draws(seat)),
                )
            )
    finally:
        if bar is not None:
            bar.close()
    if not mine:
        names = sorted(everyone)
        if 0 < len(names) <= 12:
            known = f" (players: {', '.join(names)})"
        else:
            from difflib import get_close_matches

            close = get_close_matches(hero, names, n=3)
            known = f" (did you mean {', '.join(map(repr, close))}?)" if close else ""
        raise ReviewError(f"no hand of {hero!r} in {where}{known}")
    if not out.hands:
        raise ReviewError(f"{hero!r} is in {mine} hands of {where}, none showing his cards")
    # the distinct holdings, analysed once each (with one draw left: with the discard)
    keyed = []
    jobs: dict[tuple[Any, ...], tuple[Any, ...]] = {}
    for p in pending:
        key, mapping = _canonical(p.hand, p.dead, top)
        draws_left = 4 - p.draw
        thrown = tuple(sorted(mapping[c] for c in p.discard)) if draws_left == 1 else None
        full = (draws_left, thrown, *key)
        keyed.append((full, mapping))
        if full not in jobs:
            jobs[full] = (
                sorted(mapping[c] for c in p.hand),
                sorted(mapping[c] for c in p.dead),
                draws_left,
                target,
                trials,
                seed,
                None if thrown is None else list(thrown),
            )
    results = _run_jobs(jobs, _analyse, workers, progress, "review: draws")
    out.analyses = len(jobs)
    for p, (full, mapping) in zip(pending, keyed, strict=True):
        out.decisions.append(_decision(p, results[full], mapping))
    worst = {id(d) for d in out.costliest()}
    out.decisions = [
        replace(
            d,
            finishes={
                "choice": finishes(d.cards, d.discarded, d.draws_left, d.dead, trials, seed),
                "best": finishes(d.cards, d.best, d.draws_left, d.dead, trials, seed),
            },
        )
        if id(d) in worst
        else d
        for d in out.decisions
    ]
    sd_jobs = {i: (s,) for i, s in enumerate(showdowns)}
    sd_results = _run_jobs(
        sd_jobs,
        lambda s: _showdown(s, trials, seed),
        workers,
        progress,
        "review: showdowns",
    )
    out.showdowns = [sd_results[i] for i in range(len(showdowns))]
    if reference:
        out.reference = reference_frequencies()
    return out


def _run_jobs(
    jobs: dict[Any, tuple[Any, ...]],
    fn: Callable[..., Any],
    workers: int,
    progress: bool,
    desc: str,
) -> dict[Any, Any]:
    bar: Any = None
    if progress and jobs:
        from tqdm import tqdm

        bar = tqdm(total=len(jobs), desc=desc, unit="job", leave=False)
    results: dict[Any, Any] = {}
    try:
        if workers == 1:
            for k, args in jobs.items():
                results[k] = fn(*args)
                if bar is not None:
                    bar.update(1)
        else:
            with ThreadPoolExecutor(max_workers=workers) as ex:
                futures = {k: ex.submit(fn, *args) for k, args in jobs.items()}
                for k, f in futures.items():
                    results[k] = f.result()
                    if bar is not None:
                        bar.update(1)
    finally:
        if bar is not None:
            bar.close()
    return results


def finishes(
    cards: Sequence[str],
    discard: Sequence[str],
    draws_left: int,
    dead: Sequence[str],
    trials: int = DEFAULT_TRIALS,
    seed: int = 0,
) -> dict[str, float]:
    """How a discard finishes (:func:`~triple_draw.analysis.draw_odds`, the later draws
    by the standard rule): the probability of a 7-, 8- and 9-low or better, and of each
    category (no pair, one pair, ...). Exact for one draw, sampled with ``trials``
    otherwise."""
    odds = draw_odds(
        list(cards),
        list(discard),
        draws=draws_left,
        dead=list(dead),
        method="exact" if draws_left == 1 else "sample",
        trials=trials,
        seed=seed,
        threads=1,
    )
    out = {f"{low}-low or better": round(odds.p_at_most(low), 6) for low in ("7", "8", "9")}
    out.update({k: round(v, 6) for k, v in odds.categories.items()})
    return out


def _decision(p: _Pending, rows: _Rows, mapping: dict[int, int]) -> Decision:
    table, best_ids, best_score, exact, outcomes = rows
    back = {v: k for k, v in mapping.items()}
    score, stderr = table[frozenset(mapping[c] for c in p.discard)]
    if best_score <= score + 1e-12:  # his choice is a best one
        best, best_score, best_stderr, cost = p.discard, score, stderr, 0.0
    else:
        best = sorted(back[c] for c in best_ids)
        best_stderr = table[frozenset(best_ids)][1]
        cost = best_score - score
    return Decision(
        hand_id=p.hand_id,
        site=p.site,
        draw=p.draw,
        draws_left=4 - p.draw,
        position=p.position,
        cards=tuple(_text(p.hand)),
        discarded=tuple(_text(p.discard)),
        dead=tuple(_text(p.dead)),
        opponents=p.opponents,
        score=score,
        stderr=stderr,
        best=tuple(_text(best)),
        best_score=best_score,
        best_stderr=best_stderr,
        cost=cost,
        exact=exact,
        outcomes=outcomes,
    )


def _showdown(s: _PendingShowdown, trials: int, seed: int) -> Showdown:
    streets = []
    theirs = {c for h in s.against for c in h}
    for draws_left, hand, discard, dead in s.streets:
        clash = theirs & set(hand)
        if clash:
            streets.append(
                StreetEquity(
                    draws_left,
                    tuple(_text(hand)),
                    None,
                    False,
                    f"{' '.join(_text(sorted(clash)))} of his came back to an opponent",
                )
            )
            continue
        first = Strategy.stand_pat()
        if discard is not None:
            first = Strategy.discard(discard, then=Strategy.rule())
        try:
            r = equity(
                [hand, *s.against],
                draws_left=draws_left,
                strategies=[first] + [Strategy.stand_pat()] * len(s.against),
                dead=[c for c in dead if c not in theirs],
                trials=trials,
                seed=seed,
                threads=1,
                exact_limit=_SHOWDOWN_EXACT_LIMIT,
            )
        except AnalysisError as e:  # pragma: no cover - a record the analysis refuses
            streets.append(StreetEquity(draws_left, tuple(_text(hand)), None, False, str(e)))
            continue
        streets.append(StreetEquity(draws_left, tuple(_text(hand)), r[0].equity, r.exact))
    return Showdown(
        hand_id=s.hand_id,
        against=tuple(tuple(_text(h)) for h in s.against),
        streets=tuple(streets),
        net_big_bets=s.net,
    )


# ----------------------------------------------------------------------------- reference


@cache
def reference_frequencies(hands: int = REFERENCE_HANDS, seed: int = 0) -> dict[str, Any]:
    """How the package's reference bot (``HeuristicBot`` at six seats) draws: per draw
    and position (``"1:BTN"``), the share of pat, one-card ... five-card draws, over
    ``hands`` hands of a seeded 6-max game."""
    import random

    from triple_draw.bots import HeuristicBot
    from triple_draw.game.hand import Hand
    from triple_draw.game.rules import Rules

    bots = [HeuristicBot(seed=seed * 7 + i) for i in range(6)]
    rules = Rules.online(10, small_blind=5)
    counts: dict[str, Counter[int]] = defaultdict(Counter)
    rng = random.Random(seed)
    for i in range(hands):
        h = Hand(rules, [rng.randint(400, 2500) for _ in range(6)], i % 6, seed * 1_000_003 + i)
        while not h.is_over:
            s = h.actor
            h.apply(bots[s].act(h.view(s)))
        for s in range(6):
            pos = _position(h, s)
            for j, c in enumerate(h.draws(s)):
                counts[f"{j + 1}:{pos}"][c] += 1
    freqs = {
        k: [round(c[x] / sum(c.values()), 4) for x in range(6)] for k, c in sorted(counts.items())
    }
    return {"bots": "HeuristicBot x6", "hands": hands, "frequencies": freqs}
