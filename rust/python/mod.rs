//! The PyO3 bindings of `triple_draw._core`, split by what they bind:
//!
//! * [`errors`] — the one mapping from the core's error enums to `triple_draw.errors`
//!   (`From` impls) and the panic guard;
//! * [`args`] — shared argument checks (ints read by value, the `threads` argument);
//! * [`cards`] — `Card`, `parse_cards`, `card_ids`;
//! * [`eval`] — `HandRank`, `evaluate`, `rank_ids`, `evaluate_batch`;
//! * [`deck`] — `Deck`;
//! * [`analysis`] — the analysis kernels;
//! * [`bots`] — the heuristic bot's decisions;
//! * [`view`] — `ViewCache`, what one seat may see of a hand (`Hand.view`);
//! * [`choices`] — `DiscardChoices`, the legal draws of a hand (`Hand.legal_actions`);
//! * [`vector`] — `VectorLearner`, the batched environment's learner mode.
//!
//! Promises (see docs/security.md): every error on bad input is a `TripleDrawError`
//! subclass (or `TypeError` for a wrong type, `MemoryError` when an allocation fails); no
//! Rust panic reaches Python; every parallel kernel runs on the bounded pools of
//! [`crate::pool`].

mod analysis;
mod args;
mod bots;
mod cards;
mod choices;
mod deck;
mod errors;
mod eval;
mod vector;
mod view;

use pyo3::prelude::*;
use pyo3::types::PyTuple;

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("NUM_CLASSES", crate::eval::NUM_CLASSES)?;
    m.add("MAX_THREADS", crate::pool::MAX_THREADS)?;
    let categories: Vec<&str> = crate::eval::Category::ALL
        .iter()
        .map(|c| c.as_str())
        .collect();
    m.add("CATEGORIES", PyTuple::new(m.py(), categories)?)?;
    m.add_class::<cards::Card>()?;
    m.add_class::<eval::HandRank>()?;
    m.add_class::<deck::Deck>()?;
    m.add_function(wrap_pyfunction!(cards::parse_cards, m)?)?;
    m.add_function(wrap_pyfunction!(cards::card_ids, m)?)?;
    m.add_function(wrap_pyfunction!(eval::evaluate, m)?)?;
    m.add_function(wrap_pyfunction!(eval::rank_ids, m)?)?;
    m.add_function(wrap_pyfunction!(eval::evaluate_batch, m)?)?;
    analysis::register(m)?;
    bots::register(m)?;
    view::register(m)?;
    choices::register(m)?;
    vector::register(m)?;
    // Build the evaluator tables and the shared objects at import, not inside the first
    // timed call.
    let _ = crate::eval::tables();
    eval::hand_rank_object(m.py(), 1)?;
    cards::card_object(m.py(), 0)?;
    Ok(())
}
