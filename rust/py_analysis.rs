//! PyO3 bindings of the analysis kernels (`rust/analysis/`), registered into
//! `triple_draw._core` by `python.rs`. Thin: arguments arrive already converted to card ids
//! by `triple_draw.analysis` (the typed public API), the kernels run with the GIL released,
//! and `AnalysisError`s become `triple_draw.errors.AnalysisError`.
//!
//! A strategy crosses the boundary as a tuple `(first, keep_max, pat_max)`: `first` is the
//! list of card ids to discard at the next draw or None; `keep_max < 0` means stand pat,
//! otherwise the standard rule with `keep_max` (card rank 0..12) and `pat_max` (hand rank).

use crate::analysis::{
    self, AnalysisError, Method, Objective, Plan, Rule, RunOptions, Seat, Strategy,
};
use crate::deck::Stream;
use numpy::PyArray1;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBytes, PyType};

fn analysis_error(msg: impl Into<String>) -> PyErr {
    static CLS: PyOnceLock<Py<PyType>> = PyOnceLock::new();
    let msg = msg.into();
    Python::attach(
        |py| match CLS.import(py, "triple_draw.errors", "AnalysisError") {
            Ok(cls) => PyErr::from_type(cls.clone(), msg),
            Err(e) => e,
        },
    )
}

fn err(e: AnalysisError) -> PyErr {
    analysis_error(e.to_string())
}

type StrategyTuple = (Option<Vec<u8>>, i64, i64);

fn plan_of(keep_max: i64, pat_max: i64) -> PyResult<Plan> {
    if keep_max < 0 {
        return Ok(Plan::StandPat);
    }
    let keep =
        u8::try_from(keep_max).map_err(|_| analysis_error(format!("bad keep rank {keep_max}")))?;
    let pat =
        u16::try_from(pat_max).map_err(|_| analysis_error(format!("bad pat rank {pat_max}")))?;
    Ok(Plan::Rule(Rule::new(keep, pat).map_err(err)?))
}

fn strategy_of(t: &StrategyTuple) -> PyResult<Strategy> {
    let then = plan_of(t.1, t.2)?;
    Ok(match &t.0 {
        None => Strategy { first: None, then },
        Some(cards) => {
            if let Some(&bad) = cards.iter().find(|&&c| c >= 52) {
                return Err(analysis_error(format!("invalid card id {bad}")));
            }
            Strategy::fixed(cards, then)
        }
    })
}

fn options(
    method: &str,
    trials: u64,
    key: Option<&Bound<'_, PyBytes>>,
    threads: Option<usize>,
    exact_limit: u64,
) -> PyResult<RunOptions> {
    let method = match method {
        "auto" => Method::Auto,
        "exact" => Method::Exact,
        "sample" => Method::Sample,
        other => {
            return Err(analysis_error(format!(
                "method must be 'auto', 'exact' or 'sample', got {other:?}"
            )))
        }
    };
    if trials == 0 {
        return Err(analysis_error("trials must be at least 1"));
    }
    if threads == Some(0) {
        return Err(analysis_error("threads must be at least 1"));
    }
    let key = match key {
        None => Stream::entropy_key().map_err(|e| analysis_error(e.to_string()))?,
        Some(b) => {
            let bytes = b.as_bytes();
            let mut k = [0u8; 32];
            if bytes.len() != 32 {
                return Err(PyValueError::new_err("the key must be 32 bytes"));
            }
            k.copy_from_slice(bytes);
            k
        }
    };
    Ok(RunOptions {
        method,
        trials,
        key,
        threads,
        exact_limit,
    })
}

fn seats_of(hands: &[(Vec<u8>, StrategyTuple)], label: &str) -> PyResult<Vec<Seat>> {
    hands
        .iter()
        .enumerate()
        .map(|(i, (known, st))| {
            Ok(Seat::new(
                format!("{label} {}", i + 1),
                known,
                strategy_of(st)?,
            ))
        })
        .collect()
}

/// `(probabilities, categories, counts or None, exact, outcomes)`.
type DrawOddsOut<'py> = (
    Bound<'py, PyArray1<f64>>,
    Vec<f64>,
    Option<Bound<'py, PyArray1<u64>>>,
    bool,
    u64,
);

/// The distribution of the final rank after `discard` and `draws` draws (see
/// `triple_draw.analysis.draw_odds`).
#[pyfunction]
#[pyo3(signature = (hand, discard, draws, later, dead, method, trials, key, threads, exact_limit))]
#[allow(clippy::too_many_arguments)]
fn analysis_draw_odds<'py>(
    py: Python<'py>,
    hand: Vec<u8>,
    discard: Vec<u8>,
    draws: u32,
    later: (i64, i64),
    dead: Vec<u8>,
    method: &str,
    trials: u64,
    key: Option<&Bound<'py, PyBytes>>,
    threads: Option<usize>,
    exact_limit: u64,
) -> PyResult<DrawOddsOut<'py>> {
    let plan = plan_of(later.0, later.1)?;
    let opts = options(method, trials, key, threads, exact_limit)?;
    let r = py
        .detach(|| analysis::draw_odds(&hand, &discard, draws, plan, &dead, &opts))
        .map_err(err)?;
    Ok((
        PyArray1::from_vec(py, r.probs),
        r.categories.to_vec(),
        r.counts.map(|c| PyArray1::from_vec(py, c)),
        r.exact,
        r.outcomes,
    ))
}

/// Per seat `(win, tie, share, win_stderr, tie_stderr, share_stderr)`, then `exact`,
/// `outcomes` (see `triple_draw.analysis.equity`).
#[pyfunction]
#[pyo3(signature = (hands, dead, draws, method, trials, key, threads, exact_limit))]
#[allow(clippy::too_many_arguments, clippy::type_complexity)]
fn analysis_equity(
    py: Python<'_>,
    hands: Vec<(Vec<u8>, StrategyTuple)>,
    dead: Vec<u8>,
    draws: u32,
    method: &str,
    trials: u64,
    key: Option<&Bound<'_, PyBytes>>,
    threads: Option<usize>,
    exact_limit: u64,
) -> PyResult<(Vec<(f64, f64, f64, f64, f64, f64)>, bool, u64)> {
    let seats = seats_of(&hands, "hand")?;
    let opts = options(method, trials, key, threads, exact_limit)?;
    let r = py
        .detach(|| analysis::equity(&seats, &dead, draws, &opts))
        .map_err(err)?;
    let per = r
        .seats
        .iter()
        .map(|s| {
            (
                s.win,
                s.tie,
                s.share,
                s.win_stderr,
                s.tie_stderr,
                s.share_stderr,
            )
        })
        .collect();
    Ok((per, r.exact, r.outcomes))
}

/// Every discard choice, best first: `(discard, keep, score, stderr, exact, outcomes)` (see
/// `triple_draw.analysis.best_discard`). `target` (a rank) or `opponents` (known cards and a
/// strategy each) sets the objective.
#[pyfunction]
#[pyo3(signature = (hand, draws, later, target, opponents, dead, method, trials, key, threads, exact_limit))]
#[allow(clippy::too_many_arguments, clippy::type_complexity)]
fn analysis_best_discard(
    py: Python<'_>,
    hand: Vec<u8>,
    draws: u32,
    later: (i64, i64),
    target: Option<u16>,
    opponents: Vec<(Vec<u8>, StrategyTuple)>,
    dead: Vec<u8>,
    method: &str,
    trials: u64,
    key: Option<&Bound<'_, PyBytes>>,
    threads: Option<usize>,
    exact_limit: u64,
) -> PyResult<Vec<(Vec<u8>, Vec<u8>, f64, f64, bool, u64)>> {
    let plan = plan_of(later.0, later.1)?;
    let objective = match target {
        Some(t) => Objective::Target(t),
        None => Objective::Equity {
            opponents: seats_of(&opponents, "opponent")?,
        },
    };
    let opts = options(method, trials, key, threads, exact_limit)?;
    let r = py
        .detach(|| analysis::best_discard(&hand, draws, plan, &objective, &dead, &opts))
        .map_err(err)?;
    Ok(r.into_iter()
        .map(|c| (c.discard, c.keep, c.score, c.stderr, c.exact, c.outcomes))
        .collect())
}

/// The worst rank of a no-pair hand topped by card rank `top` (5 = seven … 12 = ace), and by
/// `second` next when given ("9-7": top 7, second 5).
#[pyfunction]
#[pyo3(signature = (top, second=None))]
fn analysis_worst_low(top: u8, second: Option<u8>) -> PyResult<u16> {
    analysis::worst_low_with(top, second).map_err(err)
}

/// Adds the analysis functions to `triple_draw._core`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(analysis_draw_odds, m)?)?;
    m.add_function(wrap_pyfunction!(analysis_equity, m)?)?;
    m.add_function(wrap_pyfunction!(analysis_best_discard, m)?)?;
    m.add_function(wrap_pyfunction!(analysis_worst_low, m)?)?;
    Ok(())
}
