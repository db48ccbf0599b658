"""What one seat may see (``Hand.view``): a JSON-ready dict.

A view holds the seat's own current cards (none once he has folded), the public betting,
how many cards each player drew, and the hands shown at showdown. It never holds another
seat's unshown cards, anyone's discards (not even the seat's own: they may be reshuffled
and dealt to somebody else), mucked hands, or the stub.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from triple_draw.game.cards import CARD_TEXT
from triple_draw.game.events import expand_log
from triple_draw.game.phase import BET, OVER, PHASES

__all__ = ["ViewMixin"]

# events whose cards are private: the view keeps only how many there were
_COUNT_ONLY = frozenset(("deal", "discard", "draw"))


class ViewMixin:
    if not TYPE_CHECKING:  # the attributes live in Hand.__slots__
        __slots__ = ()

    def view(self, seat: int) -> dict[str, Any]:
        """Everything ``seat`` is allowed to know, as plain JSON-ready data."""
        h: Any = self
        n = h._n
        if type(seat) is not int or not 0 <= seat < n:
            raise ValueError(f"seat must be 0..{n - 1}, got {seat!r}")
        live = h._live
        betting = h._phase == BET
        shown: dict[int, list[str]] = {}
        for j, is_shown in h._showdown or ():
            if is_shown:
                shown[j] = [CARD_TEXT[c] for c in h._hands[j]]
        players = []
        for j in range(n):
            players.append(
                {
                    "seat": j,
                    "stack": h._stacks[j],
                    "bet": h._bet[j] if betting else 0,
                    "committed": h._total[j],
                    "folded": not live[j],
                    "all_in": live[j] and h._stacks[j] == 0 and h._phase != OVER,
                    "cards": len(h._hands[j]) if live[j] else 0,
                    "draws": list(h.draws(j)),
                    "shown": shown.get(j),
                }
            )
        history = []
        for kind, who, amount, cards in expand_log(h._log, h._deal_order()):
            e: dict[str, Any] = {"kind": kind}
            if who is not None and who >= 0:
                e["seat"] = who
            if amount is not None:
                e["amount"] = amount
            if cards is not None:
                if kind in _COUNT_ONLY:
                    e["count"] = len(cards)
                else:  # "show": public
                    e["cards"] = [CARD_TEXT[c] for c in cards]
            history.append(e)
        d: dict[str, Any] = {
            "seat": seat,
            "n_players": n,
            "button": h._button,
            "small_blind_seat": h._sb,
            "big_blind_seat": h._bb,
            "stakes": {
                k: getattr(h.rules, k)
                for k in ("small_blind", "big_blind", "small_bet", "big_bet", "ante")
            },
            "phase": PHASES[h._phase],
            "street": h._street,
            "actor": h.actor,
            "pot": sum(h._total),
            "bet_level": h._level if betting else 0,
            "hole_cards": [CARD_TEXT[c] for c in h._hands[seat]] if live[seat] else [],
            "players": players,
            "history": history,
            "legal_actions": [a.to_dict() for a in h.legal_actions()]
            if h._actor == seat and betting
            else ([{"kind": "discard", "max_cards": 5}] if h._actor == seat else []),
            "result": None,
        }
        res = h.result
        if res is not None:
            d["result"] = {
                "pots": [p.to_dict() for p in res.pots],
                "showdown": [e.to_dict() for e in res.showdown],
                "returned": None if res.returned is None else list(res.returned),
                "net": list(res.net),
            }
        return d
