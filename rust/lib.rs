//! triple_draw's compiled core: cards, the 2-7 lowball evaluator, the seeded deck, the
//! analysis kernels and the bounded worker pools. Pure Rust; the PyO3 bindings are in
//! `python/`, behind the `python` feature, so `cargo test` needs no Python.

pub mod analysis;
pub mod bots;
pub mod cards;
pub mod deck;
pub mod eval;
pub mod pool;
pub mod pyrandom;

#[cfg(feature = "python")]
mod python;
