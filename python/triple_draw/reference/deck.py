"""The reference deck: a stub of card ids driven by the ChaCha12 stream.

This module owns :class:`Deck` of :mod:`triple_draw.reference`, with exactly the
methods and semantics of the contract's ``Deck`` so that the parity tests can run the
same script against both implementations:

- ``Deck(seed)``: the key is ``seed.to_bytes(32, "little")`` (or 32 bytes of OS entropy
  for ``None``); the stub is the ids 0..51 ascending, shuffled once.
- Cards are dealt from the front of the stub.
- ``reshuffle(cards)``: the union of ``cards`` and the remaining stub, sorted by id, is
  shuffled with the continuing stream and becomes the new stub.
- ``Deck.stacked(order, seed)``: the stub is exactly ``order``; the stream is only used
  by later reshuffles.
- ``get_state()``/``from_state()``: the key, the stream's word position and the stub,
  as a JSON-ready dict.

Every failing call raises before changing anything, so a deck is never left half-dealt.
"""

from __future__ import annotations

import operator
import os
import re
from collections.abc import Iterable, Mapping
from typing import Any, SupportsIndex

from triple_draw.errors import CardError, DeckError
from triple_draw.reference.cards import Card, CardLike, card_ids, card_text
from triple_draw.reference.chacha import MAX_WORD_POS, ChaCha12Stream

__all__ = ["Deck", "key_from_seed"]

_SEED_LIMIT = 1 << 256
_HEX_KEY = re.compile(r"[0-9a-fA-F]{64}")
_STATE_FIELDS = ("key", "word_pos", "stub")


def key_from_seed(seed: int | None) -> bytes:
    """The 32-byte ChaCha12 key of a seed: little-endian bytes, or OS entropy for None."""
    if seed is None:
        return os.urandom(32)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(f"seed must be an int or None, got {type(seed).__name__}")
    if not 0 <= seed < _SEED_LIMIT:
        raise DeckError(f"seed must satisfy 0 <= seed < 2**256, got {seed}")
    return seed.to_bytes(32, "little")


def _check_count(n: SupportsIndex) -> int:
    if isinstance(n, bool):
        raise TypeError("number of cards must be an int, got bool")
    try:
        count = operator.index(n)
    except TypeError:
        raise TypeError(f"number of cards must be an int, got {type(n).__name__}") from None
    if count < 0:
        raise DeckError(f"cannot deal a negative number of cards: {count}")
    return count


class Deck:
    """A 52-card deck whose order comes from the seeded ChaCha12 stream."""

    __slots__ = ("_stream", "_stub")

    def __init__(self, seed: int | None = None) -> None:
        self._stream = ChaCha12Stream(key_from_seed(seed))
        stub = list(range(52))
        self._stream.shuffle(stub)
        self._stub = stub

    @classmethod
    def _assemble(cls, stream: ChaCha12Stream, stub: list[int]) -> Deck:
        deck = cls.__new__(cls)
        deck._stream = stream
        deck._stub = stub
        return deck

    @classmethod
    def stacked(cls, order: str | Iterable[CardLike], seed: int | None = None) -> Deck:
        """A deck that deals exactly ``order``; ``seed`` keys the stream of later reshuffles."""
        stub = card_ids(order)
        return cls._assemble(ChaCha12Stream(key_from_seed(seed)), stub)

    def __len__(self) -> int:
        return len(self._stub)

    def __repr__(self) -> str:
        return f"<reference Deck: {len(self._stub)} cards in the stub>"

    def deal_ids(self, n: SupportsIndex) -> list[int]:
        """Take ``n`` card ids from the front of the stub."""
        count = _check_count(n)
        if count > len(self._stub):
            raise DeckError(f"cannot deal {count} cards: the stub holds {len(self._stub)}")
        dealt = self._stub[:count]
        del self._stub[:count]
        return dealt

    def deal(self, n: SupportsIndex) -> list[Card]:
        """Take ``n`` cards from the front of the stub."""
        return [Card(i) for i in self.deal_ids(n)]

    def reshuffle(self, cards: str | Iterable[CardLike]) -> None:
        """Form a new stub from ``cards`` plus the rest of the stub, shuffled."""
        ids = card_ids(cards)
        in_stub = set(self._stub)
        for i in ids:
            if i in in_stub:
                raise CardError(f"card {card_text(i)!r} is already in the stub")
        # Sorting first makes the result depend only on which cards are gathered, not
        # on the order in which the caller happened to list them.
        stub = sorted(ids + self._stub)
        self._stream.shuffle(stub)
        self._stub = stub

    def stub_ids(self) -> list[int]:
        """The stub in deal order (for tests and persistence, never for player views)."""
        return list(self._stub)

    def get_state(self) -> dict[str, Any]:
        """``{"key": 64 hex chars, "word_pos": int, "stub": [ids]}``, JSON-ready."""
        return {
            "key": self._stream.key.hex(),
            "word_pos": self._stream.word_pos,
            "stub": list(self._stub),
        }

    @classmethod
    def from_state(cls, state: Mapping[str, Any]) -> Deck:
        """The deck saved by :meth:`get_state`; a bad document raises DeckError naming the field."""
        if not isinstance(state, Mapping):
            raise DeckError(f"deck state must be a mapping, got {type(state).__name__}")
        for name in _STATE_FIELDS:
            if name not in state:
                raise DeckError(f"deck state is missing the field {name!r}")
        extra = sorted(str(name) for name in state if name not in _STATE_FIELDS)
        if extra:
            raise DeckError(f"deck state has unknown field(s) {', '.join(map(repr, extra))}")

        key = state["key"]
        if not isinstance(key, str) or not _HEX_KEY.fullmatch(key):
            raise DeckError(f"deck state field 'key' must be 64 hex characters, got {key!r}")

        word_pos = state["word_pos"]
        if isinstance(word_pos, bool) or not isinstance(word_pos, int):
            raise DeckError(f"deck state field 'word_pos' must be an int, got {word_pos!r}")
        if not 0 <= word_pos < MAX_WORD_POS:
            raise DeckError(f"deck state field 'word_pos' out of range: {word_pos}")

        raw_stub = state["stub"]
        if isinstance(raw_stub, (str, bytes)) or not isinstance(raw_stub, Iterable):
            raise DeckError(f"deck state field 'stub' must be a list of card ids, got {raw_stub!r}")
        stub: list[int] = []
        for item in raw_stub:
            if isinstance(item, bool) or not isinstance(item, int) or not 0 <= item <= 51:
                raise DeckError(f"deck state field 'stub' holds a bad card id {item!r}")
            if item in stub:
                raise DeckError(f"deck state field 'stub' holds {card_text(item)!r} twice")
            stub.append(item)

        return cls._assemble(ChaCha12Stream(bytes.fromhex(key), word_pos), stub)

    def copy(self) -> Deck:
        """An independent deck in the same state (same stub, same stream position)."""
        return self._assemble(self._stream.copy(), list(self._stub))

    def __copy__(self) -> Deck:
        return self.copy()

    def __deepcopy__(self, memo: dict[int, object]) -> Deck:
        return self.copy()
