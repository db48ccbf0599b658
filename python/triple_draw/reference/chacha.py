"""The random stream of the reference deck: ChaCha12, Lemire's bounded integers, Fisher–Yates.

This module owns the pure-Python random stream that must reproduce the compiled core bit
for bit (contract "The deck and its random stream"):

- :func:`chacha_block` is the ChaCha block function on a 16-word state with the number of
  double rounds as a parameter (10 = ChaCha20, checked against RFC 7539 §2.3.2; 6 =
  ChaCha12, used by the deck);
- :class:`ChaCha12Stream` produces the u32 words of ChaCha12 in the DJB layout (64-bit
  block counter in words 12..13, 64-bit stream id 0 in words 14..15), which is the
  output of ``rand_chacha::ChaCha12Rng::from_seed(key)`` through ``next_u32``;
- :func:`lemire_below` and :func:`fisher_yates_shuffle` are the unbiased bounded integer
  and the back-to-front shuffle, written against an abstract word source so tests can
  drive them with scripted words.
"""

from __future__ import annotations

from collections.abc import Callable, MutableSequence
from typing import TypeVar

from triple_draw.errors import DeckError

__all__ = [
    "CHACHA12_DOUBLE_ROUNDS",
    "CONSTANTS",
    "MAX_WORD_POS",
    "ChaCha12Stream",
    "chacha_block",
    "fisher_yates_shuffle",
    "initial_state",
    "key_words",
    "lemire_below",
]

MASK32 = 0xFFFFFFFF
# "expand 32-byte k" as four little-endian words.
CONSTANTS = (0x61707865, 0x3320646E, 0x79622D32, 0x6B206574)
CHACHA12_DOUBLE_ROUNDS = 6
_WORDS_PER_BLOCK = 16
# The block counter is 64 bits wide, so a stream has 2**64 blocks of 16 words.
MAX_WORD_POS = (1 << 64) * _WORDS_PER_BLOCK

T = TypeVar("T")


def _rotl(x: int, n: int) -> int:
    return ((x << n) & MASK32) | (x >> (32 - n))


def _quarter_round(s: list[int], a: int, b: int, c: int, d: int) -> None:
    s[a] = (s[a] + s[b]) & MASK32
    s[d] = _rotl(s[d] ^ s[a], 16)
    s[c] = (s[c] + s[d]) & MASK32
    s[b] = _rotl(s[b] ^ s[c], 12)
    s[a] = (s[a] + s[b]) & MASK32
    s[d] = _rotl(s[d] ^ s[a], 8)
    s[c] = (s[c] + s[d]) & MASK32
    s[b] = _rotl(s[b] ^ s[c], 7)


def chacha_block(state: list[int], double_rounds: int) -> list[int]:
    """The 16 output words of one ChaCha block: ``rounds(state) + state`` word-wise.

    ``state`` is the full 16-word input (constants, key, counter/nonce words), so any
    layout (DJB's 64-bit counter or RFC 7539's 32-bit counter + 96-bit nonce) can be fed.
    """
    if len(state) != 16:
        raise ValueError(f"a ChaCha state has 16 words, got {len(state)}")
    working = list(state)
    for _ in range(double_rounds):
        # Column round, then diagonal round.
        _quarter_round(working, 0, 4, 8, 12)
        _quarter_round(working, 1, 5, 9, 13)
        _quarter_round(working, 2, 6, 10, 14)
        _quarter_round(working, 3, 7, 11, 15)
        _quarter_round(working, 0, 5, 10, 15)
        _quarter_round(working, 1, 6, 11, 12)
        _quarter_round(working, 2, 7, 8, 13)
        _quarter_round(working, 3, 4, 9, 14)
    return [(w + s) & MASK32 for w, s in zip(working, state, strict=True)]


def key_words(key: bytes) -> list[int]:
    """The 32-byte key as eight little-endian u32 words."""
    if len(key) != 32:
        raise ValueError(f"a ChaCha key has 32 bytes, got {len(key)}")
    return [int.from_bytes(key[i : i + 4], "little") for i in range(0, 32, 4)]


def initial_state(key: bytes, block_counter: int, stream_id: int = 0) -> list[int]:
    """The DJB-layout input state: constants, key, 64-bit counter, 64-bit stream id."""
    return [
        *CONSTANTS,
        *key_words(key),
        block_counter & MASK32,
        block_counter >> 32 & MASK32,
        stream_id & MASK32,
        stream_id >> 32 & MASK32,
    ]


class ChaCha12Stream:
    """The u32 words of ChaCha12 keyed by a 32-byte key, from a given word position.

    The word position is the index of the next word to be produced, counted from the
    first word of block 0; it is all the state there is besides the key, which is what
    makes a deck's state a small JSON document.
    """

    __slots__ = ("_block", "_block_index", "_key", "_word_pos")

    def __init__(self, key: bytes, word_pos: int = 0) -> None:
        if len(key) != 32:
            raise DeckError(f"a ChaCha12 key has 32 bytes, got {len(key)}")
        if not 0 <= word_pos < MAX_WORD_POS:
            raise DeckError(f"word_pos out of range 0..2**68-1: {word_pos}")
        self._key = bytes(key)
        self._word_pos = word_pos
        # The block holding the current word, computed lazily and kept while in use.
        self._block: list[int] = []
        self._block_index = -1

    @property
    def key(self) -> bytes:
        return self._key

    @property
    def word_pos(self) -> int:
        return self._word_pos

    def copy(self) -> ChaCha12Stream:
        twin = ChaCha12Stream(self._key, self._word_pos)
        twin._block = self._block
        twin._block_index = self._block_index
        return twin

    def next_u32(self) -> int:
        block_index, offset = divmod(self._word_pos, _WORDS_PER_BLOCK)
        if block_index != self._block_index:
            if block_index >= 1 << 64:
                raise DeckError("the ChaCha12 stream is exhausted (2**64 blocks used)")
            self._block = chacha_block(
                initial_state(self._key, block_index), CHACHA12_DOUBLE_ROUNDS
            )
            self._block_index = block_index
        self._word_pos += 1
        return self._block[offset]

    def below(self, n: int) -> int:
        """An unbiased integer in ``range(n)`` for ``1 <= n < 2**32``."""
        return lemire_below(n, self.next_u32)

    def shuffle(self, items: MutableSequence[T]) -> None:
        fisher_yates_shuffle(items, self.below)


def lemire_below(n: int, next_u32: Callable[[], int]) -> int:
    """Lemire's unbiased bounded integer in ``range(n)`` from a source of u32 words.

    The high word of ``word * n`` is the candidate; the low word tells whether ``word``
    fell in the short, over-represented tail of its bucket, in which case it is redrawn.
    The cheap test ``low < n`` filters nearly every draw before the modulo is needed.
    """
    if not 1 <= n <= MASK32:
        raise DeckError(f"below(n) needs 1 <= n < 2**32, got {n}")
    m = next_u32() * n
    low = m & MASK32
    if low < n:
        threshold = (1 << 32) - n
        threshold %= n
        while low < threshold:
            m = next_u32() * n
            low = m & MASK32
    return m >> 32


def fisher_yates_shuffle(items: MutableSequence[T], below: Callable[[int], int]) -> None:
    """Shuffle in place from the back: swap item ``i`` with item ``below(i + 1)``."""
    for i in range(len(items) - 1, 0, -1):
        j = below(i + 1)
        items[i], items[j] = items[j], items[i]
