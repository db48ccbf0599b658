"""Card text at the edges of the engine: ids to text, and lenient parsing that allows ``??``.

Inside the engine a card is its int id (``rank * 4 + suit``). This module converts to and
from text for views, documents and user input; it never runs in the hot path.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from triple_draw._core import Card as _Card
from triple_draw.errors import CardError

__all__ = ["CARD_TEXT", "UNKNOWN", "card_text", "cards_text", "to_id", "to_ids", "to_maybe_ids"]

RANKS = "23456789TJQKA"
SUITS = "cdhs"
#: The id of a card nobody has seen, in a hand replayed from a record (a placeholder: it
#: is never evaluated, never dealt by identity, and says nothing of which card it is).
UNKNOWN = 52
#: CARD_TEXT[id] is the canonical text of card ``id`` (and ``CARD_TEXT[UNKNOWN]`` is ``??``).
CARD_TEXT = (*(r + s for r in RANKS for s in SUITS), "??")
_TEXT_ID = {t: i for i, t in enumerate(CARD_TEXT[:52])}


def card_text(card_id: int) -> str:
    return CARD_TEXT[card_id]


def cards_text(ids: Iterable[int]) -> list[str]:
    return [CARD_TEXT[i] for i in ids]


def _tokens(text: str) -> list[str]:
    """Split lenient card text into 2-char tokens (``10`` for ``T``; ``??`` hidden)."""
    s = "".join(text.split()).replace(",", "")
    out = []
    i = 0
    while i < len(s):
        if s.startswith("??", i):
            out.append("??")
            i += 2
            continue
        if s.startswith("10", i):
            tok, rank, i = s[i : i + 3], "T", i + 2
        else:
            tok, rank, i = s[i : i + 2], s[i].upper(), i + 1
        if i >= len(s):
            raise CardError(f"malformed card {tok!r} in {text!r}")
        suit = s[i].lower()
        i += 1
        if rank not in RANKS or suit not in SUITS:
            raise CardError(f"malformed card {tok!r} in {text!r}")
        out.append(rank + suit)
    return out


def to_id(card: Any) -> int | None:
    """One card (id, text, Card object) as an id; ``None``/``"??"`` give ``None``."""
    if card is None:
        return None
    if type(card) is int:
        if 0 <= card < 52:
            return card
        raise CardError(f"card id {card} is out of range 0..51")
    if isinstance(card, str):
        toks = _tokens(card)
        if len(toks) != 1:
            raise CardError(f"expected one card, got {card!r}")
        return None if toks[0] == "??" else _TEXT_ID[toks[0]]
    cid = getattr(card, "id", None)  # Card objects of either core
    if type(cid) is int:
        return to_id(cid)
    raise CardError(f"not a card: {card!r}")


def to_maybe_ids(cards: Any) -> list[int | None]:
    """Cards given as text (lenient, ``??`` allowed) or a sequence of cards/``None``."""
    if cards is None:
        return []
    kind = type(cards)
    if kind is list or kind is tuple:  # ids or the compiled core's Cards: read directly
        out: list[int | None] = []
        for c in cards:
            t = type(c)
            if t is int and 0 <= c < 52:
                out.append(c)
            elif t is _Card:
                out.append(c.id)
            else:
                break
        else:
            return out
    if isinstance(cards, str):
        return [None if t == "??" else _TEXT_ID[t] for t in _tokens(cards)]
    if isinstance(cards, (bytes, dict)) or not hasattr(cards, "__iter__"):
        raise CardError(f"not a sequence of cards: {cards!r}")
    return [to_id(c) for c in cards]



def to_ids(cards: Any) -> list[int]:
    """Like :func:`to_maybe_ids` but every card must be known."""
    ids = to_maybe_ids(cards)
    if None in ids:
        raise CardError(f"hidden card '??' not allowed here: {cards!r}")
    return ids  # type: ignore[return-value]


def to_record_ids(cards: Any) -> list[int]:
    """Cards of a hand replayed from a record: known ones as ids, ``??``/``None`` (and
    :data:`UNKNOWN` itself) as :data:`UNKNOWN`."""
    if cards is None or isinstance(cards, str):
        return [UNKNOWN if c is None else c for c in to_maybe_ids(cards)]
    kind = type(cards)
    if kind is list or kind is tuple:  # ids already (replays): nothing to convert
        for c in cards:
            if type(c) is not int or not 0 <= c <= UNKNOWN:
                break
        else:
            return list(cards)
    if isinstance(cards, (bytes, dict)) or not hasattr(cards, "__iter__"):
        raise CardError(f"not a sequence of cards: {cards!r}")
    out = []
    for c in cards:
        cid = None if c is None or (type(c) is int and c == UNKNOWN) else to_id(c)
        out.append(UNKNOWN if cid is None else cid)
    return out
