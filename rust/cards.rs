//! Cards as `u8` ids (`rank * 4 + suit`, 2c = 0 … As = 51) and their lenient text form.
//!
//! Text is only an edge format: everything inside the crate works on ids.

use std::fmt;

/// Rank characters, index = rank (0 = deuce … 12 = ace).
pub const RANK_CHARS: &[u8; 13] = b"23456789TJQKA";
/// Suit characters, index = suit (clubs, diamonds, hearts, spades).
pub const SUIT_CHARS: &[u8; 4] = b"cdhs";
/// Number of cards in the deck.
pub const DECK_SIZE: usize = 52;

/// What went wrong while reading cards. Each variant carries the offending token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CardError {
    /// A token that is not a card.
    Malformed(String),
    /// The hidden-card marker `??` where a real card is needed.
    Hidden(String),
    /// A card given twice.
    Duplicate(String),
    /// An integer id outside 0..=51.
    BadId(i128),
    /// The wrong number of cards.
    Count { expected: usize, got: usize },
}

impl fmt::Display for CardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CardError::Malformed(t) => write!(
                f,
                "invalid card {t:?}: expected a rank (2-9, T or 10, J, Q, K, A) followed by a suit (c, d, h, s)"
            ),
            CardError::Hidden(t) => write!(f, "hidden card {t:?} where a known card is required"),
            CardError::Duplicate(t) => write!(f, "duplicate card {t:?}"),
            CardError::BadId(i) => write!(f, "invalid card id {i}: ids run from 0 (2c) to 51 (As)"),
            CardError::Count { expected, got } => {
                write!(f, "expected {expected} cards, got {got}")
            }
        }
    }
}

impl std::error::Error for CardError {}

/// The canonical text of a card id, e.g. `"7h"`. `id` must be < 52.
pub fn card_text(id: u8) -> String {
    let mut s = String::with_capacity(2);
    s.push(RANK_CHARS[(id >> 2) as usize] as char);
    s.push(SUIT_CHARS[(id & 3) as usize] as char);
    s
}

/// Canonical text of several cards, space separated.
pub fn cards_text(ids: &[u8]) -> String {
    ids.iter()
        .map(|&c| card_text(c))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Checks an integer id.
pub fn check_id(id: i128) -> Result<u8, CardError> {
    if (0..DECK_SIZE as i128).contains(&id) {
        Ok(id as u8)
    } else {
        Err(CardError::BadId(id))
    }
}

fn rank_of_char(c: u8) -> Option<u8> {
    let up = c.to_ascii_uppercase();
    RANK_CHARS.iter().position(|&r| r == up).map(|p| p as u8)
}

fn suit_of_char(c: u8) -> Option<u8> {
    let low = c.to_ascii_lowercase();
    SUIT_CHARS.iter().position(|&s| s == low).map(|p| p as u8)
}

/// Reads one card token such as `7h`, `TD`, `10s`.
pub fn parse_token(tok: &str) -> Result<u8, CardError> {
    if !tok.is_ascii() {
        return Err(CardError::Malformed(tok.to_string()));
    }
    let mut ids = parse_chunk(tok)?;
    if ids.len() != 1 {
        return Err(CardError::Malformed(tok.to_string()));
    }
    Ok(ids.pop().unwrap_or(0))
}

/// Reads a run of concatenated cards (`7h5d4c`), naming the first bad two-card piece.
fn parse_chunk(chunk: &str) -> Result<Vec<u8>, CardError> {
    let b = chunk.as_bytes();
    let mut out = Vec::with_capacity(b.len() / 2);
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'?' {
            let end = (i + 2).min(b.len());
            return Err(CardError::Hidden(chunk[i..end].to_string()));
        }
        let (rank, width) = if b[i] == b'1' && i + 1 < b.len() && b[i + 1] == b'0' {
            (Some(8u8), 2)
        } else {
            (rank_of_char(b[i]), 1)
        };
        let end = (i + width + 1).min(b.len());
        let piece = || String::from_utf8_lossy(&b[i..end]).into_owned();
        let rank = rank.ok_or_else(|| CardError::Malformed(piece()))?;
        if i + width >= b.len() {
            return Err(CardError::Malformed(piece()));
        }
        let suit = suit_of_char(b[i + width]).ok_or_else(|| CardError::Malformed(piece()))?;
        out.push(rank * 4 + suit);
        i += width + 1;
    }
    Ok(out)
}

/// Reads cards from text: concatenated and/or separated by spaces or commas, either case,
/// `10` for `T`. Rejects duplicates.
pub fn parse_text(s: &str) -> Result<Vec<u8>, CardError> {
    let mut out = Vec::new();
    for chunk in s.split(|c: char| c.is_whitespace() || c == ',') {
        if chunk.is_empty() {
            continue;
        }
        if !chunk.is_ascii() {
            return Err(CardError::Malformed(chunk.to_string()));
        }
        out.extend(parse_chunk(chunk)?);
    }
    check_distinct(&out)?;
    Ok(out)
}

/// Fails on the first card that appears twice.
pub fn check_distinct(ids: &[u8]) -> Result<u64, CardError> {
    let mut seen = 0u64;
    for &c in ids {
        let bit = 1u64 << c;
        if seen & bit != 0 {
            return Err(CardError::Duplicate(card_text(c)));
        }
        seen |= bit;
    }
    Ok(seen)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_follow_rank_times_four_plus_suit() {
        assert_eq!(parse_token("2c").unwrap(), 0);
        assert_eq!(parse_token("2d").unwrap(), 1);
        assert_eq!(parse_token("As").unwrap(), 51);
        assert_eq!(parse_token("7h").unwrap(), 5 * 4 + 2);
        for id in 0..52u8 {
            assert_eq!(parse_token(&card_text(id)).unwrap(), id);
        }
    }

    #[test]
    fn parsing_is_lenient() {
        let want = vec![parse_token("Th").unwrap(), parse_token("9s").unwrap()];
        assert_eq!(parse_text("10h9s").unwrap(), want);
        assert_eq!(parse_text("tH, 9S").unwrap(), want);
        assert_eq!(parse_text("  th   9s ").unwrap(), want);
        assert_eq!(parse_text("7c5d4h3s2c").unwrap().len(), 5);
    }

    #[test]
    fn errors_name_the_token() {
        assert_eq!(
            parse_text("7h 5x 3c"),
            Err(CardError::Malformed("5x".into()))
        );
        assert_eq!(parse_text("7h5x3c"), Err(CardError::Malformed("5x".into())));
        assert_eq!(parse_text("7h 7H"), Err(CardError::Duplicate("7h".into())));
        assert_eq!(parse_text("7h ??"), Err(CardError::Hidden("??".into())));
        assert_eq!(parse_text("7"), Err(CardError::Malformed("7".into())));
        assert_eq!(parse_text("1h"), Err(CardError::Malformed("1h".into())));
        assert!(parse_text("7hé").is_err());
        // Non-ASCII tokens are refused before any byte slicing (`?é` once split a char).
        assert_eq!(parse_token("?é"), Err(CardError::Malformed("?é".into())));
        assert_eq!(parse_token("7é"), Err(CardError::Malformed("7é".into())));
        assert_eq!(check_id(52), Err(CardError::BadId(52)));
        assert_eq!(check_id(-1), Err(CardError::BadId(-1)));
    }
}
