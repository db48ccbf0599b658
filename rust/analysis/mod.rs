//! Draw and equity analysis for 2-7 triple draw: exact enumeration where it is small, seeded
//! Monte Carlo otherwise. Pure Rust (no PyO3); the bindings are in `py_analysis.rs`.
//!
//! * [`strategy`]: the draw strategies (stand pat, a fixed discard, the standard rule).
//! * [`engine`]: one generic model of "some seats, some known cards, some draws left", run
//!   either by exhaustive enumeration or by seeded sampling in fixed-size chunks.
//! * [`draw_odds`], [`equity`], [`best_discard`]: the three kernels built on it.
//!
//! Conventions (documented in the README, analysis section):
//! * The cards a seat can receive are the 52 minus every known hand, minus dead cards, minus
//!   whatever has been dealt or discarded earlier in the simulated hand. Discards of earlier
//!   draws come back only if the stub runs out (the default reshuffle rule, README:
//!   *Running out of cards*); dead cards never come back. For a single seat this is "52
//!   minus my cards, minus every card I discarded, minus dead cards".
//! * Seats draw in the order they are given.
//! * Sampling is split into chunks of [`CHUNK`] trials; chunk `i` uses the ChaCha12 stream
//!   keyed by the 32-byte seed with stream id `i` (`set_stream`). Every tally is an integer
//!   count, so the result is bit-identical for any number of threads.

pub mod best_discard;
pub mod combos;
pub mod draw_odds;
pub mod engine;
pub mod equity;
pub mod strategy;

pub use best_discard::{best_discard, DiscardChoice, Objective};
pub use draw_odds::{draw_odds, one_draw_counts, DrawOdds};
pub use engine::{Method, RunOptions, Seat};
pub use equity::{equity, Equity, SeatEquity};
pub use strategy::{worst_low, worst_low_with, Plan, Rule, Strategy};

use crate::pool::PoolError;
use std::fmt;

/// Trials per sampling chunk. Part of the reproducibility contract: changing it changes
/// which stream each trial uses.
pub const CHUNK: u64 = 4096;

/// The most draws a hand can still have.
pub const MAX_DRAWS: u8 = 3;

/// Why an analysis request is impossible. The message names the problem.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AnalysisError {
    /// A card given twice (in a hand, between hands, or between a hand and the dead cards).
    Duplicate {
        card: String,
        first: String,
        second: String,
    },
    /// A hand with the wrong number of cards.
    HandSize { what: String, got: usize },
    /// A discard that is not part of the hand.
    NotInHand { card: String, what: String },
    /// More draws than the game has.
    TooManyDraws(u32),
    /// Fewer or more seats than allowed.
    Seats { got: usize, min: usize, max: usize },
    /// More cards needed than the deck holds.
    NotEnoughCards {
        needed: usize,
        available: usize,
        what: String,
    },
    /// Any other bad argument.
    Invalid(String),
    /// A bad `threads` value, or worker threads that could not start.
    Pool(PoolError),
}

impl fmt::Display for AnalysisError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnalysisError::Duplicate { card, first, second } => {
                if first == second {
                    write!(f, "duplicate card {card} in {first}")
                } else {
                    write!(f, "card {card} is both in {first} and in {second}")
                }
            }
            AnalysisError::HandSize { what, got } => {
                write!(f, "{what} must have 5 cards, got {got}")
            }
            AnalysisError::NotInHand { card, what } => {
                write!(f, "cannot discard {card}: it is not in {what}")
            }
            AnalysisError::TooManyDraws(n) => {
                write!(f, "at most {MAX_DRAWS} draws are left in triple draw, got {n}")
            }
            AnalysisError::Seats { got, min, max } => {
                write!(f, "expected {min} to {max} hands, got {got}")
            }
            AnalysisError::NotEnoughCards { needed, available, what } => write!(
                f,
                "more cards than the deck holds: {what} needs {needed} cards but only {available} are left"
            ),
            AnalysisError::Invalid(s) => f.write_str(s),
            AnalysisError::Pool(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for AnalysisError {}

impl AnalysisError {
    /// [`AnalysisError::NotInHand`] for card id `c` (written `id N` when it is no card at all).
    pub(crate) fn not_in_hand(c: u8, what: impl Into<String>) -> AnalysisError {
        let card = if c < 52 {
            crate::cards::card_text(c)
        } else {
            format!("id {c}")
        };
        AnalysisError::NotInHand {
            card,
            what: what.into(),
        }
    }
}

/// Card mask helpers.
#[inline]
pub(crate) fn mask_of(cards: &[u8]) -> u64 {
    cards.iter().fold(0u64, |m, &c| m | 1u64 << c)
}

pub(crate) fn cards_of_mask(mask: u64) -> Vec<u8> {
    let mut v = Vec::with_capacity(mask.count_ones() as usize);
    let mut m = mask;
    while m != 0 {
        v.push(m.trailing_zeros() as u8);
        m &= m - 1;
    }
    v
}

/// Binomial coefficient C(n, k) for the small sizes used here.
pub fn choose(n: u64, k: u64) -> u64 {
    if k > n {
        return 0;
    }
    let k = k.min(n - k);
    let mut r: u64 = 1;
    for i in 0..k {
        r = r * (n - i) / (i + 1);
    }
    r
}

/// Runs `f(threads)` with `threads` resolved (`None` = every core) for the parallel helpers
/// of [`crate::pool`] (one shared pool, at most `threads` of its workers busy per call).
pub(crate) fn in_pool<R>(
    threads: Option<usize>,
    f: impl FnOnce(usize) -> Result<R, PoolError>,
) -> Result<R, AnalysisError> {
    let n = threads.unwrap_or_else(crate::pool::default_threads);
    f(n).map_err(AnalysisError::Pool)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn analysis_choose_small_values() {
        assert_eq!(choose(47, 1), 47);
        assert_eq!(choose(47, 5), 1_533_939);
        assert_eq!(choose(52, 5), 2_598_960);
        assert_eq!(choose(3, 5), 0);
        assert_eq!(choose(5, 0), 1);
    }
}
