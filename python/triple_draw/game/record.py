"""Hands replayed from a record: one seat's view, with the cards nobody saw unknown.

A site's hand history, a viewer's PHH file or the web table's download shows the cards of
one player and those shown at the showdown; every other card is unknown. ``Hand(...,
record=True)`` replays such a record without inventing a card: an unknown card is the
placeholder :data:`~triple_draw.game.cards.UNKNOWN` (``??``), and the stub is a
:class:`RecordStub` that knows how many cards it holds, and which known cards a reshuffle
put into it, but deals nothing by identity.

What is checked, for every known card (docs/engine.md: *Records with unknown cards*):

- no known card is in two places: a card a player is dealt or shows must not be in
  another hand, among the cards out of play (a discard or a folded hand comes back only
  through a reshuffle), or thrown in the current draw;
- a card put into the stub by a reshuffle keeps its place there until an unknown card is
  dealt from the stub: from then on it may be anywhere the unknown cards are;
- under ``"pokerstars"`` a player is never dealt a known card he threw; under every rule a
  player is never dealt back a card he threw in the same draw (``"pokerkit"`` aside);
- the cards shown at the showdown decide it: a player who mucks gives up the pot.

The stub's size follows the rules exactly (burn cards, reshuffles, the draw procedure), so
the reshuffles happen where they happened at the table. One thing a record cannot show is
when the ``"pokerstars"`` deal gathers the cards out of play because the stub holds only
the served player's own earlier discards: that depends on cards nobody saw, so the replay
never assumes it (docs/engine.md).
"""

from __future__ import annotations

from typing import Any

from triple_draw.errors import DeckError
from triple_draw.game.cards import UNKNOWN

__all__ = [
    "RecordStub",
    "is_record",
    "record_discard_choices",
    "known_place",
    "with_named",
    "outside_deck",
]


class RecordStub:
    """The stub of a hand replayed from a record: its cards in no particular order, each
    :data:`UNKNOWN` or a known card a reshuffle put there. It has the interface of a
    core's ``Deck`` that the draws use (``len``, ``deal_ids``, ``stub_ids``,
    ``reshuffle``, ``copy``, ``get_state``/``from_state``), and no random stream: an
    unknown card dealt is :data:`UNKNOWN`, and since it may be any card of the stub, the
    known cards in the stub become unknown too (their place is no longer known)."""

    __slots__ = ("_cards", "_known")

    def __init__(self, cards: Any) -> None:
        self._cards: list[int] = list(cards)
        #: how many of them are known cards (none until a reshuffle puts some there)
        self._known = len(self._cards) - self._cards.count(UNKNOWN)

    def __len__(self) -> int:
        return len(self._cards)

    def __contains__(self, card: int) -> bool:
        return self._known > 0 and card in self._cards

    def __repr__(self) -> str:
        return f"<RecordStub {len(self._cards)} cards, {self._known} known>"

    def deal_ids(self, k: int) -> list[int]:
        """Deal ``k`` unknown cards from the top."""
        cards = self._cards
        if not 0 <= k <= len(cards):
            raise DeckError(f"cannot deal {k} cards from a stub of {len(cards)}")
        del cards[:k]
        if self._known:
            forget(cards)
            self._known = 0
        return [UNKNOWN] * k

    def stub_ids(self) -> list[int]:
        return list(self._cards)

    def reshuffle(self, pool: Any) -> None:
        """The pool joins the stub (its order is unknown; nothing is dealt by identity)."""
        pool = list(pool)
        self._cards.extend(pool)
        self._known += len(pool) - pool.count(UNKNOWN)

    def copy(self) -> RecordStub:
        return RecordStub(self._cards)

    def get_state(self) -> dict[str, Any]:
        return {"stub": list(self._cards)}

    @classmethod
    def from_state(cls, state: dict[str, Any]) -> RecordStub:
        return cls(state["stub"])


def forget(cards: list[int]) -> None:
    """The known cards of a stub from which an unknown card was dealt become unknown."""
    for i, c in enumerate(cards):
        if c != UNKNOWN:
            cards[i] = UNKNOWN


def record_discard_choices(held: list[int]) -> tuple[Any, ...]:
    """The legal draws of a seat of a record holding unknown cards: every set of his
    known cards, each with 0 .. all of his unknown cards (``Discard`` actions, the
    unknown cards as :data:`UNKNOWN`)."""
    from triple_draw.game.actions import make_action

    known = sorted(c for c in held if c != UNKNOWN)
    unknown = len(held) - len(known)
    out = []
    for m in range(1 << len(known)):
        chosen = tuple(c for i, c in enumerate(known) if m >> i & 1)
        for k in range(unknown + 1):
            out.append(make_action("discard", None, chosen + (UNKNOWN,) * k))
    return tuple(out)


def known_place(st: Any, c: int, j: int) -> str | None:
    """Where known card ``c``, named for one of seat ``j``'s unknown cards, is known to be
    (``None``: nowhere, so it may be one of his)."""
    for x in range(st._n):  # (a folded hand's cards are out of play, in st._out)
        if x != j and st._live[x] and c in st._hands[x]:
            return f"seat {x} holds it"
    if c in st._out:
        return "it is out of play (a discard or a folded hand no reshuffle has brought back)"
    for x, t in st._declared:
        if c in t:
            return f"seat {x} discarded it in this draw"
    if c in st._deck:
        return "it is in the stub (a reshuffle put it there, and nobody drew from it since)"
    return None


def with_named(st: Any, j: int, held: list[int], cards: list[int]) -> list[int]:
    """Seat ``j``'s cards with the known ``cards`` he is said to hold (a discard shown
    face up) in place of as many of his unknown cards, each checked to be a card nobody
    else is known to hold (``IllegalActionError`` if not); the rest unchanged."""
    from triple_draw.errors import IllegalActionError
    from triple_draw.game.cards import CARD_TEXT

    out = list(held)
    for c in cards:
        if c == UNKNOWN or c in out or UNKNOWN not in out:
            continue
        where = known_place(st, c, j)
        if where is not None:
            raise IllegalActionError(f"seat {j} cannot hold {CARD_TEXT[c]}: {where}")
        out[out.index(UNKNOWN)] = c
    return out


def outside_deck(st: Any, cards: Any) -> str | None:
    """Why one of ``cards`` (ids, ``None`` or :data:`UNKNOWN` for a card not named) cannot
    be in a reduced game's hand: it is not in the game's deck (``None``: all may be)."""
    outside = st._rc.outside
    if outside:
        for c in cards:
            if c in outside:
                from triple_draw.game.cards import CARD_TEXT

                return (
                    f"{CARD_TEXT[c]} is not in this game's deck (the lowest "
                    f"{st.rules.deck_ranks} ranks in {st.rules.deck_suits} suits)"
                )
    return None


def is_record(st: Any) -> bool:
    """Whether a hand state is a hand replayed from a record (its stub is unknown)."""
    return type(st._deck) is RecordStub
