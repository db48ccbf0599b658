"""Bots: plain objects that choose an action from what one seat may see.

A bot is any object with one decision method::

    def act(self, view: dict) -> Action

``view`` is ``hand.view(seat)`` (JSON-ready: the seat's ``hole_cards`` as text, the
public ``players`` table, ``phase``, ``street``, ``pot``, ``legal_actions``, ...), asked
only when the seat is the actor. The method returns a :class:`~triple_draw.game.Action`
(a dict such as ``{"kind": "call"}`` or a bare kind string like ``"check"`` is accepted
too by :func:`triple_draw.simulate`). Bots never see the :class:`~triple_draw.game.Hand`,
so a bot cannot cheat, and a bot written for the view works with every engine path.

Bots that use randomness own a ``random.Random`` and expose ``reseed(seed)``;
:func:`triple_draw.simulate` re-seeds every seat's bot at the start of each chunk, so the
results depend only on the simulation seed. Bots pickle (they are sent to worker
processes and Ray tasks).

>>> from triple_draw.game import Hand, Rules
>>> hand = Hand(Rules(), [100, 100], seed=3)
>>> bot = HeuristicBot(seed=1)
>>> bot.act(hand.view(hand.actor)).kind in ("fold", "call", "raise")
True
>>> standard_discard("7c 5d 4h 3s Kd")  # keep eights and better: throw the king
(45,)
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from itertools import pairwise
from math import comb
from typing import Any

from triple_draw._core import rank_ids
from triple_draw.game.actions import Action, make_action
from triple_draw.game.cards import RANKS, to_ids

__all__ = [
    "Bot",
    "RandomBot",
    "HeuristicBot",
    "CallingStationBot",
    "BOTS",
    "make_bot",
    "standard_discard",
    "worst_low",
    "view_hole_ids",
]

_TEXT_ID = {r + s: i for i, (r, s) in enumerate((r, s) for r in RANKS for s in "cdhs")}

#: Ranks of no-pair hands: ``_WORST_LOW[top]`` is the rank of the worst no-pair hand whose
#: top card has rank index ``top`` (5 = seven .. 12 = ace), e.g. 18 for "any eight-low".
_WORST_LOW: dict[int, int] = {}
_acc = 0
for _top in range(5, 13):
    # every 4 lower ranks under the top card make a no-pair hand, except the straight
    _acc += comb(_top, 4) - 1
    _WORST_LOW[_top] = _acc
del _acc, _top

_NO_PAIR_WORST = 1278


def worst_low(top: int | str) -> int:
    """The rank of the worst no-pair hand topped by ``top`` (``"8"`` or rank index 6):
    "an eight-low or better" is ``rank <= worst_low("8")`` (= 18).

    >>> worst_low("7"), worst_low("8"), worst_low("9"), worst_low("A")
    (4, 18, 52, 1278)
    """
    t = _rank_index(top)
    if t not in _WORST_LOW:
        raise ValueError(f"there is no {RANKS[t]}-low hand: the lowest no-pair hand is 7-5-4-3-2")
    return _WORST_LOW[t]


def _rank_index(r: int | str) -> int:
    if isinstance(r, str):
        s = r.strip().upper()
        if s == "10":
            s = "T"
        if len(s) != 1 or s not in RANKS:
            raise ValueError(f"not a card rank: {r!r} (use one of {RANKS})")
        return RANKS.index(s)
    if type(r) is not int or not 0 <= r <= 12:
        raise ValueError(f"a card rank index must be an int 0 (deuce) .. 12 (ace), got {r!r}")
    return r


def standard_discard(
    cards: Any, keep_max: int | str = "8", pat_max: int | None = None
) -> tuple[int, ...]:
    """The standard draw rule: the card ids to throw from a five-card hand.

    Stand pat (``()``) when the hand ranks ``pat_max`` or better (default: any no-pair hand
    topped by ``keep_max``). Otherwise keep one card of each distinct rank at or below
    ``keep_max`` (pairs are broken: of a pair the card whose suit is least used by the
    other kept cards stays, the lowest id on a tie) and throw the rest; if that would keep
    all five (a straight, a flush, or a low hand rougher than ``pat_max``) the highest card
    goes too. This is the rule of the analysis kernels' standard strategy.

    >>> from triple_draw.game.cards import cards_text
    >>> cards_text(standard_discard("8c 7d 6h 5s 4c"))  # a straight: break it at the top
    ['8c']
    >>> cards_text(standard_discard("7c 7d 4h 3s 2c"))  # break the pair
    ['7c']
    >>> standard_discard("8c 6d 4h 3s 2c")  # an eight-low: stand pat
    ()
    """
    ids = cards if type(cards) is list and all(type(c) is int for c in cards) else to_ids(cards)
    if len(ids) != 5:
        raise ValueError(f"standard_discard needs five cards, got {len(ids)}")
    keep_r = _rank_index(keep_max)
    if pat_max is None:
        pat_max = _WORST_LOW.get(keep_r, 0)
    return _discard_rule(ids, rank_ids(ids), keep_r, pat_max)


def _discard_rule(ids: list[int], rank: int, keep_max: int, pat_max: int) -> tuple[int, ...]:
    if rank <= pat_max:
        return ()
    if len(ids) == 5 and len({c >> 2 for c in ids}) == 5:
        # five distinct ranks (no pair, straight, flush): nothing to break, throw what is
        # above keep_max, or the top card if all five are at or below it
        throw = [c for c in ids if c >> 2 > keep_max]
        if not throw:
            return (max(ids),)
        throw.sort()
        return tuple(throw)
    # by ascending id, so the cards of one rank are adjacent and in id order
    srt = sorted(ids)
    count = [0] * 13
    for c in srt:
        count[c >> 2] += 1
    keep: list[int] = []
    suits = [0, 0, 0, 0]
    for c in srt:
        r = c >> 2
        if r <= keep_max and count[r] == 1:
            keep.append(c)
            suits[c & 3] += 1
    # then one card of each pair (trips, quads), lowest rank first: the one whose suit
    # the kept cards use least, the lowest id on a tie
    i = 0
    m = len(srt)
    while i < m:
        best = srt[i]
        if best >> 2 > keep_max:
            break
        k = count[best >> 2]
        if k > 1:
            low = suits[best & 3]
            for c in srt[i + 1 : i + k]:
                if suits[c & 3] < low:
                    best = c
                    low = suits[c & 3]
            keep.append(best)
            suits[best & 3] += 1
        i += k
    if len(keep) == 5:
        keep.remove(max(ids))
    return tuple([c for c in srt if c not in keep])


_NO_AMOUNT = frozenset(("fold", "check", "call", "bet", "raise"))
_WITH_AMOUNT = frozenset(("call", "bet", "raise"))


def _betting_action(kind: Any, amount: Any = None) -> Action:
    """``Action(kind, amount)`` without re-validating what is known to be valid (the
    common case: an entry of the view's ``legal_actions``); anything else goes through
    ``Action`` itself, which raises as before."""
    if type(kind) is str:
        if amount is None:
            if kind in _NO_AMOUNT:
                return make_action(kind)
        elif type(amount) is int and kind in _WITH_AMOUNT:
            return make_action(kind, amount)
    return Action(kind, amount)


def _discard_action(cards: Any) -> Action:
    """``Action("discard", None, cards)`` for a tuple of card ids, without the checks."""
    if type(cards) is tuple:
        for c in cards:
            if type(c) is not int or not 0 <= c < 52:
                break
        else:
            return make_action("discard", None, tuple(sorted(cards)))
    return Action("discard", None, cards)


def view_hole_ids(view: Mapping[str, Any]) -> list[int]:
    """The seat's own cards of a view as ids."""
    return [_TEXT_ID[t] for t in view["hole_cards"]]


def _legal(view: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    return {d["kind"]: d for d in view["legal_actions"]}


class Bot:
    """Base class of the bundled bots (subclassing it is optional: any object with an
    ``act(view) -> Action`` method is a bot).

    ``seed``: seeds the bot's own ``random.Random`` (``None``: OS entropy)."""

    name = "bot"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def reseed(self, seed: int | None) -> None:
        """Restart the bot's random stream (``simulate`` calls this for every chunk)."""
        self.rng.seed(seed)

    def act(self, view: dict[str, Any]) -> Action:
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


class RandomBot(Bot):
    """Chooses uniformly among the legal betting actions and discards a uniformly random
    subset of its cards (each of the 32 choices equally likely).

    ``fold_when_free``: also consider folding when a check is possible (off by default:
    even a random player checks rather than throwing a free hand away)."""

    name = "random"

    def __init__(self, seed: int | None = None, *, fold_when_free: bool = False) -> None:
        super().__init__(seed)
        self.fold_when_free = fold_when_free

    def act(self, view: dict[str, Any]) -> Action:
        rng = self.rng
        if view["phase"] == "draw":
            rnd = rng.random
            return _discard_action(tuple([c for c in view_hole_ids(view) if rnd() < 0.5]))
        legal = view["legal_actions"]
        if not self.fold_when_free:
            for d in legal:
                if d["kind"] == "check":
                    legal = [d for d in legal if d["kind"] != "fold"]
                    break
        d = legal[rng.randrange(len(legal))]
        return _betting_action(d["kind"], d.get("amount"))

    def __repr__(self) -> str:
        return "RandomBot(fold_when_free=True)" if self.fold_when_free else "RandomBot()"


class CallingStationBot(Bot):
    """Never bets, never folds: checks or calls every street and draws by the standard
    rule. A baseline that shows whether another bot value-bets."""

    name = "call"

    def __init__(self, seed: int | None = None, *, keep_max: int | str = "8") -> None:
        super().__init__(seed)
        self.keep_max = _rank_index(keep_max)

    def act(self, view: dict[str, Any]) -> Action:
        if view["phase"] == "draw":
            ids = view_hole_ids(view)
            return _discard_action(
                _discard_rule(ids, rank_ids(ids), self.keep_max, _WORST_LOW.get(self.keep_max, 0))
            )
        legal = _legal(view)
        if "check" in legal:
            return make_action("check")
        return _betting_action("call", legal["call"]["amount"])


# A heads-up equity guess for a finished hand, by rank: linear between these anchors.
_MADE_ANCHORS = (
    (1, 0.97),
    (4, 0.93),
    (18, 0.81),
    (52, 0.66),
    (121, 0.52),
    (246, 0.40),
    (455, 0.30),
    (784, 0.22),
    (1278, 0.15),
    (1279, 0.07),
    (7462, 0.0),
)
# ... and for a draw of k cards with one draw to come; each extra draw adds _DRAW_EXTRA[k].
_DRAW_BASE = (0.0, 0.50, 0.36, 0.24, 0.15, 0.10)
_DRAW_EXTRA = (0.0, 0.08, 0.07, 0.06, 0.04, 0.03)


def _made_equity(rank: int) -> float:
    prev_r, prev_e = _MADE_ANCHORS[0]
    if rank <= prev_r:
        return prev_e
    for r, e in _MADE_ANCHORS[1:]:
        if rank <= r:
            return prev_e + (e - prev_e) * (rank - prev_r) / (r - prev_r)
        prev_r, prev_e = r, e
    return 0.0


#: _MADE_EQUITY[rank] == _made_equity(rank) for every rank 1..7462 (a table lookup in the
#: bots' hot path; built with the same expression, so the floats are identical)
_MADE_EQUITY = [_MADE_ANCHORS[0][1]] * (_MADE_ANCHORS[0][0] + 1)
for (_pr, _pe), (_r, _e) in pairwise(_MADE_ANCHORS):
    _MADE_EQUITY += [_pe + (_e - _pe) * (_k - _pr) / (_r - _pr) for _k in range(_pr + 1, _r + 1)]
del _pr, _pe, _r, _e


class HeuristicBot(Bot):
    """A sensible fixed-limit 2-7 triple draw player.

    Drawing: the standard rule (:func:`standard_discard`): keep the distinct cards at or
    below ``keep_max`` (default eight), break pairs, straights and flushes, and stand pat
    with a no-pair hand topped by ``pat`` for the number of draws left (default: an
    eight-low with 3 or 2 draws left, a nine-low on the last draw, a ten-low on the last
    draw when every opponent still in the hand drew two or more last time).

    Betting: estimates its chance to win from its made hand or its draw (cards to draw,
    draws left, the roughest card it keeps), the opponents' last draws (a pat opponent is
    feared, a drawing one is not) and how many opponents are left, then bets or raises
    for value, calls when the price is right and folds otherwise. Position matters before
    the draw (fewer opponents left to act behind a late opener) and after it (bluffs and
    semi-bluffs are only made in position, heads-up, with probability ``bluff``).
    Thresholds are jittered by a few percent with the bot's own RNG so it is not
    trivially exploitable.
    """

    name = "heuristic"

    def __init__(
        self,
        seed: int | None = None,
        *,
        keep_max: int | str = "8",
        pat: Mapping[int, int | str] | None = None,
        bluff: float = 0.12,
        aggression: float = 1.0,
    ) -> None:
        super().__init__(seed)
        self.keep_max = _rank_index(keep_max)
        pats = {3: "8", 2: "8", 1: "9"}
        if pat is not None:
            for k, v in pat.items():
                if k not in (1, 2, 3):
                    raise ValueError(f"pat: keys are draws left 1..3, got {k!r}")
                pats[k] = v  # type: ignore[assignment]
        # stored as ranks: stand pat with a hand ranked at most pat_max[draws_left]
        self.pat_max = {
            k: (worst_low(v) if isinstance(v, str) else int(v)) for k, v in pats.items()
        }
        if not 0.0 <= bluff <= 1.0:
            raise ValueError(f"bluff must be a probability 0..1, got {bluff!r}")
        if not aggression > 0:
            raise ValueError(f"aggression must be > 0, got {aggression!r}")
        self.bluff = float(bluff)
        self.aggression = float(aggression)

    def __repr__(self) -> str:
        return (
            f"HeuristicBot(keep_max={RANKS[self.keep_max]!r}, bluff={self.bluff}, "
            f"aggression={self.aggression})"
        )

    # -- drawing ---------------------------------------------------------------------------

    def _pat_max(self, draws_left: int, opp_last: list[int]) -> int:
        pm = self.pat_max[draws_left]
        if draws_left == 1 and opp_last and min(opp_last) >= 2:
            pm = max(pm, _WORST_LOW[8])  # they are far behind: a ten-low is good enough
        return pm

    def discard(
        self, ids: list[int], rank: int, draws_left: int, opp_last: list[int]
    ) -> tuple[int, ...]:
        """The ids this bot throws with ``draws_left`` draws to come (this one included)."""
        return _discard_rule(ids, rank, self.keep_max, self._pat_max(draws_left, opp_last))

    # -- reading the view ------------------------------------------------------------------

    @staticmethod
    def _opponents(view: Mapping[str, Any]) -> tuple[list[int], list[int]]:
        """Live opponents, and the number of cards each drew at the last draw so far."""
        me = view["seat"]
        opps = []
        last = []
        for p in view["players"]:
            if p["seat"] != me and not p["folded"]:
                opps.append(p["seat"])
                d = p["draws"]
                if d:
                    last.append(d[-1])
        return opps, last

    def _equity(self, ids: list[int], rank: int, draws_left: int, opp_last: list[int]) -> float:
        """Heads-up equity guess against one typical opponent."""
        if draws_left == 0:
            e = _MADE_EQUITY[rank]
        else:
            throw = self.discard(ids, rank, draws_left, opp_last)
            k = len(throw)
            if k == 0:
                e = _MADE_EQUITY[rank] + 0.02 * draws_left
            else:
                kept = [c >> 2 for c in ids if c not in throw]
                e = _DRAW_BASE[k] + _DRAW_EXTRA[k] * (draws_left - 1)
                if kept and max(kept) <= 5:  # drawing to a seven
                    e += 0.05
                if rank <= _NO_PAIR_WORST:
                    e = max(e, 0.85 * _MADE_EQUITY[rank])  # a rough made hand is a draw too
            if opp_last:
                mine = len(throw)
                for d in opp_last:
                    if d == 0 and mine > 0:
                        e -= 0.10  # he stood pat and we still draw
                    elif d > mine:
                        e += 0.05  # he draws more than we do
                    elif d < mine:
                        e -= 0.04
        if draws_left == 0 and opp_last:
            for d in opp_last:
                if d == 0:
                    e -= 0.06
                elif d >= 2:
                    e += 0.06  # he drew two or more to the end: often a miss
        return min(0.98, max(0.01, e))

    # -- the decision ------------------------------------------------------------------------

    def act(self, view: dict[str, Any]) -> Action:
        ids = [_TEXT_ID[t] for t in view["hole_cards"]]
        rank = rank_ids(ids)
        street = view["street"]
        me = view["seat"]
        # the live opponents, and how many cards each drew at the last draw so far
        # (``_opponents``, inlined)
        n_opps = 0
        opp_last = []
        for pl in view["players"]:
            if pl["seat"] != me and not pl["folded"]:
                n_opps += 1
                d = pl["draws"]
                if d:
                    opp_last.append(d[-1])
        draws_left = 3 - street
        if view["phase"] == "draw":
            return _discard_action(self.discard(ids, rank, draws_left, opp_last))
        legal = {d["kind"]: d for d in view["legal_actions"]}
        rng = self.rng
        e = self._equity(ids, rank, draws_left, opp_last) + rng.uniform(-0.03, 0.03)
        e = min(0.98, max(0.01, e))
        n = max(1, n_opps)
        # chance to win against n opponents: e = 0.5 gives the fair share 1/(n+1)
        p = min(0.97, (2.0 * e) ** n / (n + 1))
        fair = 1.0 / (n + 1)
        agg = self.aggression
        # (the position and the round's action are read from the view only where needed)
        call = legal.get("call")
        if call is not None:
            to_call = call["amount"] - _my_bet(view)
            odds = to_call / (view["pot"] + to_call)
            if "raise" in legal:
                raises, voluntary = _round_action(view["history"])
                # late: button, blinds (fewer players behind)
                if street == 0 and not voluntary and _seats_behind(me, view) <= 2:
                    # first in from late position: raise or fold, do not limp
                    if p >= fair * 1.15 / agg:
                        return _betting_action("raise", legal["raise"]["amount"])
                    if view["big_blind_seat"] != me and view["small_blind_seat"] != me:
                        return make_action("fold")
                if p >= fair * (1.6 + 0.3 * max(0, raises - 1)) / agg and p > 0.4:
                    return _betting_action("raise", legal["raise"]["amount"])
            # drawing hands get implied odds while there are draws left
            if p >= odds * (0.75 if draws_left else 1.0):
                return _betting_action("call", call["amount"])
            return make_action("fold")
        # nothing to call: check, bet (or the big blind's raise option)
        kind = "bet" if "bet" in legal else "raise" if "raise" in legal else None
        if kind is not None:
            if street == 0:
                late = _seats_behind(me, view) <= 2
            else:
                late = _last_to_act(me, view["button"], view)
            threshold = fair * (1.35 if late else 1.55) / agg
            if p >= threshold and p > 0.3:
                return _betting_action(kind, legal[kind]["amount"])
            if (
                street > 0
                and late
                and n == 1
                and opp_last
                and opp_last[0] > 0
                and rng.random() < self.bluff
            ):
                return _betting_action(kind, legal[kind]["amount"])
        return make_action("check")


def _my_bet(view: Mapping[str, Any]) -> int:
    me = view["seat"]
    for p in view["players"]:
        if p["seat"] == me:
            return int(p["bet"])
    return 0  # pragma: no cover


def _round_action(history: list[dict[str, Any]]) -> tuple[int, bool]:
    """Bets and raises in the current betting round, and whether anybody has acted
    voluntarily in it (called, bet or raised)."""
    raises = 0
    voluntary = False
    for h in reversed(history):
        k = h["kind"]
        if k == "begin_round":
            break
        if k in ("bet", "raise"):
            raises += 1
            voluntary = True
        elif k == "call":
            voluntary = True
    return raises, voluntary


def _seats_behind(me: int, view: Mapping[str, Any]) -> int:
    """Players still in who act after ``me`` up to the big blind in the first round."""
    n = view["n_players"]
    bb = view["big_blind_seat"]
    players = view["players"]
    count = 0
    j = me
    while j != bb:
        j = (j + 1) % n
        if not players[j]["folded"] and not players[j]["all_in"]:
            count += 1
    return count


def _last_to_act(me: int, button: int, view: Mapping[str, Any]) -> bool:
    """After the first draw the order starts left of the button: is ``me`` the last live
    player in it (in position)?"""
    n = view["n_players"]
    players = view["players"]
    j = button
    for _ in range(n):
        if not players[j]["folded"]:
            return bool(j == me)
        j = (j - 1) % n
    return False  # pragma: no cover


#: Bot names understood by :func:`make_bot` and the command line.
BOTS: dict[str, type[Bot]] = {
    "heuristic": HeuristicBot,
    "random": RandomBot,
    "call": CallingStationBot,
}


def make_bot(spec: str | Any, seed: int | None = None) -> Any:
    """A bot from a name (``"heuristic"``, ``"random"``, ``"call"``), an import path
    ``"package.module:ClassName"`` (constructed with no arguments, or ``seed=`` if it takes
    one), or an existing bot object (returned as is).

    >>> make_bot("random")
    RandomBot()
    """
    if not isinstance(spec, str):
        if not callable(getattr(spec, "act", None)):
            raise TypeError(f"a bot needs an act(view) method, got {spec!r}")
        return spec
    name = spec.strip()
    cls = BOTS.get(name.lower())
    if cls is not None:
        return cls(seed)
    if ":" in name:
        import importlib

        mod_name, _, attr = name.partition(":")
        try:
            obj: Any = importlib.import_module(mod_name)
            for part in attr.split("."):
                obj = getattr(obj, part)
        except (ImportError, AttributeError) as e:
            raise ValueError(f"cannot load bot {name!r}: {e}") from None
        try:
            bot = obj(seed=seed)
        except TypeError:
            bot = obj()
        if not callable(getattr(bot, "act", None)):
            raise ValueError(f"bot {name!r} has no act(view) method")
        return bot
    raise ValueError(f"unknown bot {name!r}: use one of {', '.join(BOTS)} or 'module:Class'")
