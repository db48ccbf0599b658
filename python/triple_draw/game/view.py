"""What one seat may see (``Hand.view``): a JSON-ready dict.

A view holds the seat's own current cards (none once he has folded), his own discards
and the cards he received at each draw (``own_draws``, and the ``cards`` of his own
``discard``/``draw`` events), the public betting, how many cards each player drew, and the
hands shown at showdown. It never holds another seat's unshown cards or discards, burned
cards, mucked hands, or the stub.

Speed: the public part of the history is the same for every seat, and the engine only
ever appends to its log. So the first ``view()`` of a hand creates a :class:`_ViewCache`
holding the public history as already-built JSON-ready entries and every seat's draw
counts, and each later ``view()`` only converts the log entries appended since. The
engine itself never touches the cache: a hand nobody views pays nothing for it. Every
call returns fresh containers (shallow copies of the cached entries), so a caller that
mutates a view cannot change the next one.
"""

from __future__ import annotations

from threading import Lock
from typing import Any

from triple_draw.game import events as ev
from triple_draw.game.betting import legal_actions
from triple_draw.game.cards import CARD_TEXT
from triple_draw.game.events import LogEntry
from triple_draw.game.phase import BET, OVER, PHASES
from triple_draw.game.showdown import hand_result
from triple_draw.game.state import HandState
from triple_draw.schema import VIEW_VERSION

__all__ = ["ViewCache", "build_view"]

# events whose cards are private: the view keeps only how many there were
_COUNT_ONLY = frozenset((ev.DEAL, ev.DISCARD, ev.DRAW, ev.BURN))
# of these, the seat's own are shown to him
_OWN = frozenset((ev.DISCARD, ev.DRAW))
_STAKES = ("small_blind", "big_blind", "small_bet", "big_bet", "ante")
_DISCARD_PHASE = {"kind": "discard", "max_cards": 5}
_copy = dict.copy


class ViewCache:
    """The public history of one hand as JSON-ready entries, built incrementally.

    ``log`` is the hand's log list this cache was built from and ``pos`` how many of its
    entries have been converted: if the hand's ``_log`` is another list, or shorter than
    ``pos`` (or its ``rules`` another object), the cache is stale and rebuilt from
    scratch."""

    __slots__ = (
        "draws",
        "history",
        "lock",
        "log",
        "nested",
        "own",
        "pos",
        "rules",
        "seats",
        "stakes",
    )

    def __init__(self, h: HandState) -> None:
        n = h._n
        self.log: list[LogEntry] = h._log
        self.pos = 0
        #: the public history entries (never handed out: views get copies)
        self.history: list[dict[str, Any]] = []
        #: indices of ``history`` entries holding a list (shown cards): copied one level
        #: deeper
        self.nested: list[int] = []
        #: draws[seat]: cards drawn at each draw so far
        self.draws: list[list[int]] = [[] for _ in range(n)]
        #: own[seat]: indices of the seat's own discard and draw entries (shown to him)
        self.own: list[list[int]] = [[] for _ in range(n)]
        self.seats = range(n)
        self.rules = rules = h.rules
        self.stakes = {k: getattr(rules, k) for k in _STAKES}
        #: held while converting, so that views read from several threads at once never
        #: convert an entry twice (``pos`` moves only once the entries are in)
        self.lock = Lock()

    def update(self) -> None:
        """Convert the log entries appended since the last call."""
        log = self.log
        end = len(log)
        history = self.history
        append = history.append
        for i in range(self.pos, end):
            kind, who, amount, cards = log[i]
            e: dict[str, Any] = {"kind": kind}
            if who is not None:
                e["seat"] = who
            if amount is not None:
                e["amount"] = amount
            if cards is not None:
                if kind in _COUNT_ONLY:
                    e["count"] = len(cards)
                    if kind in _OWN and who is not None:
                        self.own[who].append(i)
                        if kind == ev.DISCARD:
                            self.draws[who].append(len(cards))
                else:  # "show": public
                    e["cards"] = [CARD_TEXT[c] for c in cards]
                    self.nested.append(len(history))
            append(e)
        self.pos = end


def build_view(h: HandState, vc: ViewCache, seat: int) -> dict[str, Any]:
    """The view of ``seat`` (``Hand.view``), with ``vc`` the hand's cache (up to date or
    not: it converts what the log gained since)."""
    n = h._n
    if type(seat) is not int or not 0 <= seat < n:
        raise ValueError(f"seat must be 0..{n - 1}, got {seat!r}")
    log = h._log
    if vc.pos != len(log):
        with vc.lock:
            vc.update()
    history = list(map(_copy, vc.history))
    for i in vc.nested:
        e = history[i]
        e["cards"] = e["cards"][:]
    # the seat's own discards and the cards he received: his own information
    own_draws: list[dict[str, Any]] = []
    for i in vc.own[seat]:
        kind, _, _, cards = log[i]
        assert cards is not None
        history[i]["cards"] = [CARD_TEXT[c] for c in cards]
        if kind == ev.DISCARD:
            own_draws.append(
                {"discarded": [CARD_TEXT[c] for c in cards], "received": [] if not cards else None}
            )
        else:
            own_draws[-1]["received"] = [CARD_TEXT[c] for c in cards]
    phase = h._phase
    live = h._live
    stacks = h._stacks
    total = h._total
    hands = h._hands
    draws = vc.draws
    betting = phase == BET
    bet = h._bet if betting else [0] * n
    not_over = phase != OVER
    shown: dict[int, list[str]] = {}
    for j, is_shown in h._showdown or ():
        if is_shown:
            shown[j] = [CARD_TEXT[c] for c in hands[j]]
    players = [
        {
            "seat": j,
            "stack": stacks[j],
            "bet": bet[j],
            "committed": total[j],
            "folded": not live[j],
            "all_in": live[j] and stacks[j] == 0 and not_over,
            "cards": len(hands[j]) if live[j] else 0,
            "draws": draws[j][:],
            "shown": shown.get(j),
        }
        for j in range(n)
    ]
    actor = h._actor
    if actor != seat:
        legal: list[dict[str, Any]] = []
    elif betting:
        legal = _betting_actions(h, seat)
    else:
        legal = [_DISCARD_PHASE.copy()]
    d: dict[str, Any] = {
        "schema_version": VIEW_VERSION,
        "seat": seat,
        "n_players": n,
        "button": h._button,
        "small_blind_seat": h._sb,
        "big_blind_seat": h._bb,
        "stakes": vc.stakes.copy(),
        "phase": PHASES[phase],
        "street": h._street,
        "actor": actor,
        "pot": sum(total),
        "bet_level": h._level if betting else 0,
        "hole_cards": [CARD_TEXT[c] for c in hands[seat]] if live[seat] else [],
        "own_draws": own_draws,
        "players": players,
        "history": history,
        "legal_actions": legal,
        "result": None,
    }
    res = hand_result(h)
    if res is not None:
        d["result"] = {
            "pots": [p.to_dict() for p in res.pots],
            "showdown": [e.to_dict() for e in res.showdown],
            "returned": None if res.returned is None else list(res.returned),
            "net": list(res.net),
        }
    return d


def _betting_actions(h: HandState, s: int) -> list[dict[str, Any]]:
    """The actor's legal betting actions as dicts (:func:`legal_actions`)."""
    return [a.to_dict() for a in legal_actions(h)]
