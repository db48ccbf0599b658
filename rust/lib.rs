//! triple_draw's compiled core: cards, the 2-7 lowball evaluator, the seeded deck and the
//! simulation kernels. Pure Rust; the PyO3 bindings are in `python.rs`, behind the `python`
//! feature, so `cargo test` needs no Python.

pub mod analysis;
pub mod bots;
pub mod cards;
pub mod deck;
pub mod eval;

#[cfg(feature = "python")]
mod py_analysis;
#[cfg(feature = "python")]
mod py_bots;
#[cfg(feature = "python")]
mod python;
