//! Bindings of the analysis kernels (`rust/analysis/`). Thin: `triple_draw.analysis` (the
//! typed public API) converts cards to ids and checks every argument first; the kernels run
//! with the GIL released, and `AnalysisError`s become `triple_draw.errors.AnalysisError`.
//!
//! Each kernel takes its request positionally and its run options as one typed structure,
//! [`RunArgs`]: a dict `{"method", "trials", "key", "threads", "exact_limit"}`. The earlier
//! call form, with those five values as the last five positional arguments, is still
//! accepted.
//!
//! A strategy crosses the boundary as a tuple `(first, keep_max, pat_max)`: `first` is the
//! list of card ids to discard at the next draw or None; `keep_max < 0` means stand pat,
//! otherwise the standard rule with `keep_max` (card rank 0..12) and `pat_max` (hand rank).

use super::args::{count_arg, Threads};
use super::errors::{analysis_error, guarded};
use crate::analysis::{self, Method, Objective, Plan, Rule, RunOptions, Seat, Strategy};
use crate::deck::Stream;
use numpy::PyArray1;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyTuple};

/// A plan for the later draws, `(keep_max, pat_max)`: `keep_max < 0` stands pat.
#[derive(FromPyObject)]
struct PlanArg(i64, i64);

impl PlanArg {
    fn plan(&self) -> PyResult<Plan> {
        let PlanArg(keep_max, pat_max) = *self;
        if keep_max < 0 {
            return Ok(Plan::StandPat);
        }
        let keep = u8::try_from(keep_max)
            .map_err(|_| analysis_error(format!("bad keep rank {keep_max}")))?;
        let pat = u16::try_from(pat_max)
            .map_err(|_| analysis_error(format!("bad pat rank {pat_max}")))?;
        Ok(Plan::Rule(Rule::new(keep, pat)?))
    }
}

/// A strategy, `(first discard ids or None, keep_max, pat_max)`.
#[derive(FromPyObject)]
struct StrategyArg(Option<Vec<u8>>, i64, i64);

impl StrategyArg {
    fn strategy(&self) -> PyResult<Strategy> {
        let then = PlanArg(self.1, self.2).plan()?;
        Ok(match &self.0 {
            None => Strategy { first: None, then },
            Some(cards) => {
                if let Some(&bad) = cards.iter().find(|&&c| c >= 52) {
                    return Err(analysis_error(format!("invalid card id {bad}")));
                }
                Strategy::fixed(cards, then)
            }
        })
    }
}

/// One seat: `(known card ids, strategy)`.
#[derive(FromPyObject)]
struct SeatArg(Vec<u8>, StrategyArg);

fn seats_of(hands: &[SeatArg], label: &str) -> PyResult<Vec<Seat>> {
    hands
        .iter()
        .enumerate()
        .map(|(i, SeatArg(known, st))| {
            Ok(Seat::new(
                format!("{label} {}", i + 1),
                known,
                st.strategy()?,
            ))
        })
        .collect()
}

/// The run options every kernel takes, as a dict (see the module documentation). Its
/// fields are read one by one (not by `#[derive(FromPyObject)]`, which would turn a
/// `threads` error into a bare `TypeError`), so each keeps its package error.
struct RunArgs<'py> {
    method: String,
    trials: Bound<'py, PyAny>,
    key: Option<Bound<'py, PyBytes>>,
    threads: Option<Threads>,
    exact_limit: Bound<'py, PyAny>,
}

impl RunArgs<'_> {
    /// The options of a call: one dict, or the five values of the earlier call form.
    fn of<'py>(run: &Bound<'py, PyTuple>) -> PyResult<RunArgs<'py>> {
        match run.len() {
            1 => {
                let item = run.get_item(0)?;
                if !item.is_instance_of::<PyDict>() {
                    return Err(PyTypeError::new_err(
                        "the run options must be a dict with method, trials, key, threads \
                         and exact_limit",
                    ));
                }
                let d = item.cast::<PyDict>()?;
                let field = |name: &str| -> PyResult<Bound<'py, PyAny>> {
                    d.get_item(name)?.ok_or_else(|| {
                        PyTypeError::new_err(format!("the run options lack {name:?}"))
                    })
                };
                Ok(RunArgs {
                    method: field("method")?.extract()?,
                    trials: field("trials")?,
                    key: field("key")?.extract()?,
                    threads: field("threads")?.extract()?,
                    exact_limit: field("exact_limit")?,
                })
            }
            5 => Ok(RunArgs {
                method: run.get_item(0)?.extract()?,
                trials: run.get_item(1)?,
                key: run.get_item(2)?.extract()?,
                threads: run.get_item(3)?.extract()?,
                exact_limit: run.get_item(4)?,
            }),
            n => Err(PyTypeError::new_err(format!(
                "expected the run options as one dict (or 5 values), got {n} arguments"
            ))),
        }
    }

    fn options(&self) -> PyResult<RunOptions> {
        let method = match self.method.as_str() {
            "auto" => Method::Auto,
            "exact" => Method::Exact,
            "sample" => Method::Sample,
            other => {
                return Err(analysis_error(format!(
                    "method must be 'auto', 'exact' or 'sample', got {other:?}"
                )))
            }
        };
        let trials = count_arg(&self.trials, "trials", 1, u64::MAX)?;
        let exact_limit = count_arg(&self.exact_limit, "exact_limit", 1, u64::MAX)?;
        let key = match &self.key {
            None => Stream::entropy_key()?,
            Some(b) => <[u8; 32]>::try_from(b.as_bytes())
                .map_err(|_| analysis_error("the key must be 32 bytes"))?,
        };
        Ok(RunOptions {
            method,
            trials,
            key,
            threads: Some(
                self.threads
                    .as_ref()
                    .map_or_else(crate::pool::default_threads, |t| t.0),
            ),
            exact_limit,
        })
    }
}

/// `(probabilities, categories, counts or None, exact, outcomes)`.
type DrawOddsOut<'py> = (
    Bound<'py, PyArray1<f64>>,
    Vec<f64>,
    Option<Bound<'py, PyArray1<u64>>>,
    bool,
    u64,
);

/// Kernel of ``triple_draw.analysis.draw_odds`` (use that function: it checks and converts
/// every argument).
///
/// The distribution of the final rank of ``hand`` (5 card ids) after discarding
/// ``discard`` now and drawing ``draws`` times, later draws by the plan ``later``
/// (``(keep_max, pat_max)``, ``keep_max < 0`` = stand pat), with ``dead`` cards out of
/// play. ``options`` is a dict with ``method`` (``"auto"``, ``"exact"``, ``"sample"``),
/// ``trials``, ``key`` (32 bytes or None for OS entropy), ``threads`` (1-256 or None) and
/// ``exact_limit``; the five values may also be passed as five positional arguments.
/// Returns ``(probabilities, categories, counts or None, exact, outcomes)``.
#[pyfunction]
#[pyo3(signature = (hand, discard, draws, later, dead, *options))]
fn analysis_draw_odds<'py>(
    py: Python<'py>,
    hand: Vec<u8>,
    discard: Vec<u8>,
    draws: u32,
    later: PlanArg,
    dead: Vec<u8>,
    options: &Bound<'py, PyTuple>,
) -> PyResult<DrawOddsOut<'py>> {
    let plan = later.plan()?;
    let opts = RunArgs::of(options)?.options()?;
    let r =
        py.detach(|| guarded(|| analysis::draw_odds(&hand, &discard, draws, plan, &dead, &opts)))??;
    Ok((
        PyArray1::from_vec(py, r.probs),
        r.categories.to_vec(),
        r.counts.map(|c| PyArray1::from_vec(py, c)),
        r.exact,
        r.outcomes,
    ))
}

/// Per seat ``(win, tie, share, win_stderr, tie_stderr, share_stderr)``.
type EquityRow = (f64, f64, f64, f64, f64, f64);

/// Kernel of ``triple_draw.analysis.equity`` (use that function).
///
/// ``hands`` is a list of ``(known card ids, strategy)`` per seat (a strategy is
/// ``(first discard ids or None, keep_max, pat_max)``), ``dead`` the cards out of play,
/// ``draws`` the draws left; ``options`` as for :func:`analysis_draw_odds`. Returns
/// ``([(win, tie, share, win_stderr, tie_stderr, share_stderr), ...], exact, outcomes)``.
#[pyfunction]
#[pyo3(signature = (hands, dead, draws, *options))]
fn analysis_equity(
    py: Python<'_>,
    hands: Vec<SeatArg>,
    dead: Vec<u8>,
    draws: u32,
    options: &Bound<'_, PyTuple>,
) -> PyResult<(Vec<EquityRow>, bool, u64)> {
    let seats = seats_of(&hands, "hand")?;
    let opts = RunArgs::of(options)?.options()?;
    let r = py.detach(|| guarded(|| analysis::equity(&seats, &dead, draws, &opts)))??;
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

/// One discard choice: `(discard, keep, score, stderr, exact, outcomes)`.
type ChoiceRow = (Vec<u8>, Vec<u8>, f64, f64, bool, u64);

/// Kernel of ``triple_draw.analysis.best_discard`` (use that function).
///
/// Every discard choice of ``hand`` (5 card ids), best first, as ``(discard, keep, score,
/// stderr, exact, outcomes)``. ``target`` (a hand rank) or ``opponents`` (a list of
/// ``(known card ids, strategy)``) sets the objective; ``later``, ``dead`` and ``options``
/// as for :func:`analysis_draw_odds`.
#[pyfunction]
#[pyo3(signature = (hand, draws, later, target, opponents, dead, *options))]
#[allow(clippy::too_many_arguments)]
fn analysis_best_discard(
    py: Python<'_>,
    hand: Vec<u8>,
    draws: u32,
    later: PlanArg,
    target: Option<u16>,
    opponents: Vec<SeatArg>,
    dead: Vec<u8>,
    options: &Bound<'_, PyTuple>,
) -> PyResult<Vec<ChoiceRow>> {
    let plan = later.plan()?;
    let objective = match target {
        Some(t) => Objective::Target(t),
        None => Objective::Equity {
            opponents: seats_of(&opponents, "opponent")?,
        },
    };
    let opts = RunArgs::of(options)?.options()?;
    let r = py.detach(|| {
        guarded(|| analysis::best_discard(&hand, draws, plan, &objective, &dead, &opts))
    })??;
    Ok(r.into_iter()
        .map(|c| (c.discard, c.keep, c.score, c.stderr, c.exact, c.outcomes))
        .collect())
}

/// The worst rank of a no-pair hand topped by card rank ``top`` (5 = seven ... 12 = ace),
/// and by ``second`` next when given ("9-7": top 7, second 5). Raises ``AnalysisError`` for
/// ranks that top no low.
#[pyfunction]
#[pyo3(signature = (top, second=None))]
fn analysis_worst_low(top: &Bound<'_, PyAny>, second: Option<&Bound<'_, PyAny>>) -> PyResult<u16> {
    let rank = |obj: &Bound<'_, PyAny>, name: &str| -> PyResult<u8> {
        count_arg(obj, name, 0, 255)
            .map(|v| v as u8)
            .map_err(|_| analysis_error(format!("{name} must be a card rank from 0 to 12")))
    };
    let top = rank(top, "top")?;
    let second = second.map(|s| rank(s, "second")).transpose()?;
    Ok(analysis::worst_low_with(top, second)?)
}

/// Adds the analysis functions to `triple_draw._core`.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(analysis_draw_odds, m)?)?;
    m.add_function(wrap_pyfunction!(analysis_equity, m)?)?;
    m.add_function(wrap_pyfunction!(analysis_best_discard, m)?)?;
    m.add_function(wrap_pyfunction!(analysis_worst_low, m)?)?;
    Ok(())
}
