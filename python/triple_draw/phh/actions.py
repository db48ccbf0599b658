"""Reading one PHH action string (``d dh p1 7h6c4c3d2c``, ``p2 cbr 8``, ``p1 sd 7hQs``,
...) into an :class:`Act`. Nothing here knows the hand: the replay checks legality."""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from typing import Any

from triple_draw.errors import CardError, HistoryError
from triple_draw.game.cards import to_maybe_ids
from triple_draw.phh.base import MAX_NUMBER_CHARS, Locator, whole


class Act:
    """One parsed action. ``player`` is the 0-based PHH index (-1: the dealer); ``verb``
    one of ``noop dh f cc cbr sd show muck``."""

    __slots__ = ("amount", "cards", "i", "player", "text", "verb")

    def __init__(
        self,
        i: int,
        text: str,
        verb: str,
        player: int = -1,
        cards: Any = None,
        amount: int | None = None,
    ):
        self.i = i
        self.text = text
        self.verb = verb
        self.player = player
        self.cards = cards
        self.amount = amount


#: The most action strings read in one hand (a hand of 8 players with every raise allowed
#: has a few hundred; the bound keeps the repeated attempts of the solver cheap).
MAX_ACTIONS = 10_000

_PLAYER = re.compile(r"p([0-9]{1,3})")


def parse_actions(actions: Any, n: int, loc: Locator) -> list[Act]:
    """Every action of the ``actions`` field, parsed (not yet checked against the hand)."""
    if not isinstance(actions, list):
        raise HistoryError(f"{loc.prefix()}actions must be an array of strings")
    if len(actions) > MAX_ACTIONS:
        raise HistoryError(
            f"{loc.prefix()}{len(actions)} actions: a history has at most {MAX_ACTIONS}"
        )
    loc.actions = [a if isinstance(a, str) else "" for a in actions]
    out = []
    for i, text in enumerate(actions):
        if not isinstance(text, str):
            raise HistoryError(f"{loc.prefix()}action {i + 1} must be a string")
        act = parse_action(i, text, n, loc)
        if act.verb != "noop":  # commentary: nothing to replay
            out.append(act)
    return out


def parse_action(i: int, text: str, n: int, loc: Locator) -> Act:
    """Action number ``i`` (0-based) of a hand of ``n`` players."""

    def fail(why: str) -> HistoryError:
        return HistoryError(f"{loc.where(i, text)}: {why}")

    words = text.split("#", 1)[0].split()
    if not words:
        return Act(i, text, "noop")

    def player(word: str) -> int:
        m = _PLAYER.fullmatch(word)
        if m is None:
            raise fail(f"{word[:20]!r} is not a player (p1..p{n}) or the dealer (d)")
        k = int(m.group(1))
        if not 1 <= k <= n:
            raise fail(f"there is no player {word} in a hand of {n} players")
        return k - 1

    def cards(word: str) -> list[int | None]:
        if len(word) > 20:
            raise fail(f"bad cards: {word[:20]!r}... is more than five cards")
        try:
            ids = to_maybe_ids(word)
        except CardError as e:
            raise fail(f"bad cards: {e}") from None
        known = [c for c in ids if c is not None]
        if len(set(known)) != len(known):
            raise fail(f"a card is listed twice in {word!r}")
        return ids

    if words[0] == "d":
        if len(words) >= 2 and words[1] == "db":
            raise fail("triple draw has no board cards (d db)")
        if len(words) != 4 or words[1] != "dh":
            raise fail("a dealer action must be 'd dh pN CARDS'")
        k = player(words[2])
        ids = cards(words[3])
        if not ids:
            raise fail("no cards dealt")
        return Act(i, text, "dh", k, ids)
    k = player(words[0])
    verb = words[1] if len(words) > 1 else ""
    rest = words[2:]
    if verb in ("f", "cc") and not rest:
        return Act(i, text, verb, k)
    if verb == "cbr" and len(rest) == 1:
        if len(rest[0]) > MAX_NUMBER_CHARS:
            raise fail(f"an amount of {len(rest[0])} characters (at most {MAX_NUMBER_CHARS})")
        try:
            amount = whole(Decimal(rest[0]))
        except (InvalidOperation, ValueError):
            amount = None
        if amount is None or amount <= 0:
            shown = rest[0] if len(rest[0]) <= 30 else rest[0][:20] + "..."
            raise fail(f"the amount {shown!r} is not a positive whole number of chips")
        return Act(i, text, "cbr", k, amount=amount)
    if verb == "sd" and len(rest) <= 1:
        ids = cards(rest[0]) if rest else []
        if len(ids) > 5:
            raise fail(f"a player holds five cards; cannot discard {len(ids)}")
        return Act(i, text, "sd", k, ids)
    if verb == "sm" and len(rest) <= 1:
        if not rest:
            return Act(i, text, "muck", k)
        if rest[0] == "-":
            return Act(i, text, "show", k, None)
        ids = cards(rest[0])
        if len(ids) != 5:
            raise fail(f"a shown hand has five cards, got {len(ids)}")
        return Act(i, text, "show", k, ids)
    if verb == "pb":
        raise fail("triple draw has no bring-in (pb)")
    if verb in ("f", "cc", "cbr", "sd", "sm"):
        raise fail(f"wrong number of arguments for {verb!r}")
    raise fail(f"unknown action {verb[:20]!r} (expected f, cc, cbr, sd or sm)")
