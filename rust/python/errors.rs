//! The one mapping from the core's errors to the exception classes of
//! `triple_draw.errors`, and the guard that keeps panics on the Rust side.
//!
//! Every Rust error enum becomes a Python exception through a `From` impl here, so `?`
//! does the conversion everywhere. Each class derives from `TripleDrawError` and from the
//! builtin base users already catch (`ValueError`, `TypeError`).

use crate::analysis::AnalysisError;
use crate::cards::CardError;
use crate::deck::DeckError;
use crate::pool::PoolError;
use pyo3::exceptions::{PyMemoryError, PyRuntimeError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyType;
use std::panic::{catch_unwind, AssertUnwindSafe};

macro_rules! error_classes {
    ($($fn_name:ident => $class:literal),* $(,)?) => {
        $(
            #[doc = concat!("A new `triple_draw.errors.", $class, "` with `msg`.")]
            pub(crate) fn $fn_name(msg: impl Into<String>) -> PyErr {
                static CLS: PyOnceLock<Py<PyType>> = PyOnceLock::new();
                let msg = msg.into();
                Python::attach(|py| match CLS.import(py, "triple_draw.errors", $class) {
                    Ok(cls) => PyErr::from_type(cls.clone(), msg),
                    Err(e) => e,
                })
            }
        )*
    };
}

error_classes! {
    card_error => "CardError",
    card_type_error => "CardTypeError",
    deck_error => "DeckError",
    batch_error => "BatchError",
    batch_type_error => "BatchTypeError",
    analysis_error => "AnalysisError",
    argument_error => "ArgumentError",
    argument_type_error => "ArgumentTypeError",
}

impl From<CardError> for PyErr {
    fn from(e: CardError) -> PyErr {
        card_error(e.to_string())
    }
}

impl From<DeckError> for PyErr {
    fn from(e: DeckError) -> PyErr {
        match e {
            DeckError::Card(c) => c.into(),
            other => deck_error(other.to_string()),
        }
    }
}

impl From<PoolError> for PyErr {
    fn from(e: PoolError) -> PyErr {
        match e {
            PoolError::BadThreads(_) => argument_error(e.to_string()),
            PoolError::Spawn { .. } => PyRuntimeError::new_err(e.to_string()),
        }
    }
}

impl From<AnalysisError> for PyErr {
    fn from(e: AnalysisError) -> PyErr {
        match e {
            AnalysisError::Pool(p) => p.into(),
            other => analysis_error(other.to_string()),
        }
    }
}

/// The error of a failed numpy allocation: numpy's own exception (a `MemoryError`) when it
/// set one, else a new `MemoryError` naming the request.
pub(crate) fn allocation_error(py: Python<'_>, what: impl Into<String>) -> PyErr {
    PyErr::take(py).unwrap_or_else(|| PyMemoryError::new_err(what.into()))
}

/// Runs `f`, turning a panic (a bug: none is known) into a `RuntimeError` that names it,
/// so that even then no `PanicException` (a `BaseException`) reaches Python.
pub(crate) fn guarded<R>(f: impl FnOnce() -> R) -> PyResult<R> {
    catch_unwind(AssertUnwindSafe(f)).map_err(|payload| {
        let what = payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown panic".into());
        PyRuntimeError::new_err(format!(
            "internal error in triple_draw's compiled core (please report it): {what}"
        ))
    })
}
