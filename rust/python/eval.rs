//! `HandRank`, `evaluate`, `rank_ids` and `evaluate_batch`: the 2-7 evaluator.

use super::args::{describe, int_value, Threads};
use super::cards::five_of;
use super::errors::{allocation_error, argument_error, batch_error, batch_type_error, guarded};
use crate::cards::card_text;
use crate::eval;
use crate::pool;
use numpy::npyffi::PY_ARRAY_API;
use numpy::{
    Element, PyArray1, PyArray2, PyArrayDescrMethods, PyArrayMethods, PyUntypedArrayMethods,
};
use pyo3::prelude::*;
use pyo3::pyclass::CompareOp;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyType;

/// A 2-7 hand rank: 1 (7-5-4-3-2 offsuit, the best) ... 7462 (royal flush, the worst).
///
/// ``HandRank(rank)`` takes an int from 1 to 7462 (``ArgumentError`` otherwise). Ranks are
/// ordered like their numbers: ``a < b`` means ``a`` beats ``b``; equal ranks tie.
/// Immutable and hashable.
#[pyclass(frozen, module = "triple_draw", name = "HandRank")]
pub struct HandRank {
    rank: u16,
}

#[pymethods]
impl HandRank {
    #[new]
    #[pyo3(text_signature = "(rank)")]
    fn new(rank: &Bound<'_, PyAny>) -> PyResult<Self> {
        match int_value(rank)? {
            Some(r) if (1..=eval::NUM_CLASSES as i128).contains(&r) => {
                Ok(HandRank { rank: r as u16 })
            }
            _ => Err(argument_error(format!(
                "a hand rank is an int from 1 to {}, got {}",
                eval::NUM_CLASSES,
                describe(rank)
            ))),
        }
    }

    /// The rank number, 1 (best) ... 7462 (worst).
    #[getter]
    fn rank(&self) -> u16 {
        self.rank
    }

    /// The category: ``"no pair"``, ``"one pair"``, ..., ``"straight flush"``.
    #[getter]
    fn category(&self) -> &'static str {
        eval::category(self.rank).as_str()
    }

    /// A readable name such as ``"7-5 low"``, ``"nut 8"`` or ``"pair of deuces"``.
    #[getter]
    fn name(&self) -> String {
        eval::name(self.rank)
    }

    /// True when this hand wins against ``other`` (a strictly lower rank).
    #[pyo3(text_signature = "($self, other)")]
    fn beats(&self, other: &HandRank) -> bool {
        self.rank < other.rank
    }

    fn __repr__(&self) -> String {
        format!("HandRank({})", self.rank)
    }

    fn __str__(&self) -> String {
        format!("{} (rank {})", eval::name(self.rank), self.rank)
    }

    fn __hash__(&self) -> u64 {
        self.rank as u64
    }

    fn __richcmp__(&self, other: &Self, op: CompareOp) -> bool {
        op.matches(self.rank.cmp(&other.rank))
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyType>, (u16,))> {
        Ok((slf.get_type(), (slf.get().rank,)))
    }
}

/// One shared immutable HandRank object per rank, so that `evaluate` allocates nothing.
pub(crate) fn hand_rank_object(py: Python<'_>, rank: u16) -> PyResult<Py<HandRank>> {
    static RANKS: PyOnceLock<Vec<Py<HandRank>>> = PyOnceLock::new();
    let ranks = RANKS.get_or_try_init(py, || {
        (1..=eval::NUM_CLASSES)
            .map(|rank| Py::new(py, HandRank { rank }))
            .collect::<PyResult<Vec<_>>>()
    })?;
    Ok(ranks[rank as usize - 1].clone_ref(py))
}

/// Evaluates exactly five cards and returns their ``HandRank``.
///
/// ``cards`` is text (``"7h5d4c3s2h"``) or an iterable of five cards (str tokens, int ids,
/// ``Card`` objects). An iterable is read no further than its sixth item. Raises
/// ``CardError`` for a malformed or duplicate card or a count other than five.
#[pyfunction]
#[pyo3(signature = (cards))]
pub(crate) fn evaluate(py: Python<'_>, cards: &Bound<'_, PyAny>) -> PyResult<Py<HandRank>> {
    hand_rank_object(py, eval::rank5(five_of(cards)?))
}

/// The rank number (an int, 1 best ... 7462 worst) of exactly five cards.
///
/// The fast path of :func:`evaluate` for card ids; takes the same inputs and raises the same
/// errors.
#[pyfunction]
#[pyo3(signature = (ids))]
pub(crate) fn rank_ids(ids: &Bound<'_, PyAny>) -> PyResult<u16> {
    Ok(eval::rank5(five_of(ids)?))
}

const BATCH_CHUNK: usize = 1 << 16;

/// A new zeroed 1-d uint16 array of `n` items; a `MemoryError` when numpy cannot allocate it.
fn zeros_u16(py: Python<'_>, n: usize) -> PyResult<Bound<'_, PyArray1<u16>>> {
    let mut dims = [n as numpy::npyffi::npy_intp];
    if n > isize::MAX as usize / 2 {
        return Err(allocation_error(
            py,
            format!("cannot allocate the ranks of {n} hands"),
        ));
    }
    // SAFETY: PyArray_Zeros with a valid dtype reference (stolen) and a 1-d shape; a null
    // result (allocation failure) is turned into the Python error numpy set.
    unsafe {
        let ptr = PY_ARRAY_API.PyArray_Zeros(
            py,
            1,
            dims.as_mut_ptr(),
            u16::get_dtype(py).into_dtype_ptr(),
            0,
        );
        if ptr.is_null() {
            return Err(allocation_error(
                py,
                format!("cannot allocate the ranks of {n} hands"),
            ));
        }
        Ok(Bound::from_owned_ptr(py, ptr).cast_into_unchecked())
    }
}

/// Ranks every row of an ``(N, 5)`` uint8 array of card ids; returns a uint16 array of N
/// ranks (1 best ... 7462 worst).
///
/// ``threads``: worker threads, an int from 1 to 256; ``None`` (the default) uses every
/// core. The result does not depend on it.
///
/// Concurrency contract (as for numpy's own kernels): the array is read with the GIL
/// released, so it must not be modified by another thread during the call; if it is, the
/// ranks of the modified rows are unspecified (each is the rank of some five cards, or the
/// call raises ``BatchError``), never unsafe. Pass ``copy=True`` to have the rows copied
/// before the GIL is released: the result is then exactly that of the array as it was when
/// the call began, whatever other threads do.
///
/// Raises ``BatchTypeError`` for a non-array, a dtype other than uint8, or a shape other
/// than ``(N, 5)``; ``BatchError`` naming the first row with an id above 51 or a duplicate
/// card; ``ArgumentError`` for a bad ``threads``; ``MemoryError`` when the result cannot be
/// allocated.
#[pyfunction]
#[pyo3(signature = (hands, threads=None, *, copy=false))]
pub(crate) fn evaluate_batch<'py>(
    py: Python<'py>,
    hands: &Bound<'py, PyAny>,
    threads: Option<Threads>,
    copy: bool,
) -> PyResult<Bound<'py, PyArray1<u16>>> {
    let threads = Threads::resolve(threads);
    let arr = match hands.cast::<PyArray2<u8>>() {
        Ok(a) => a,
        Err(_) => return Err(describe_bad_array(hands)),
    };
    let shape = arr.shape();
    if shape[1] != 5 {
        return Err(batch_type_error(format!(
            "hands must have shape (N, 5), got ({}, {})",
            shape[0], shape[1]
        )));
    }
    let n = shape[0];
    let ro = arr
        .try_readonly()
        .map_err(|e| batch_type_error(format!("hands cannot be read: {e}")))?;
    let view = ro.as_array();
    // The rows as one contiguous slice: the array itself when it is C-contiguous and no copy
    // was asked for, else a copy made now, with the GIL held.
    let copied: Option<Vec<u8>> = if copy {
        let mut v = Vec::new();
        v.try_reserve_exact(n * 5)
            .map_err(|_| allocation_error(py, format!("cannot copy {n} hands")))?;
        v.extend(view.iter().copied());
        Some(v)
    } else {
        None
    };
    let flat: Option<&[u8]> = match &copied {
        Some(v) => Some(v.as_slice()),
        None => view.as_slice(),
    };
    // Allocated after the copy: numpy may release the GIL while it allocates.
    let out = zeros_u16(py, n)?;
    // SAFETY: `out` was just created here and nothing else can reach it yet.
    let out_slice = unsafe { out.as_slice_mut() }.map_err(|e| batch_type_error(e.to_string()))?;
    let first_bad: Option<usize> = py.detach(|| {
        guarded(|| match flat {
            Some(flat) => rank_rows(flat, out_slice, threads),
            None => {
                // A strided view: one pass on the calling thread.
                let t = eval::tables();
                let mut bad = None;
                for (i, (row, o)) in view.outer_iter().zip(out_slice.iter_mut()).enumerate() {
                    let c = [row[0], row[1], row[2], row[3], row[4]];
                    if !eval::row_is_valid(c) {
                        bad = Some(i / BATCH_CHUNK);
                        break;
                    }
                    *o = t.rank5(c);
                }
                Ok(bad)
            }
        })
    })??;
    if let Some(chunk) = first_bad {
        // Find and describe the first bad row of the first bad chunk.
        let start = chunk * BATCH_CHUNK;
        for i in start..n.min(start + BATCH_CHUNK) {
            let c = match flat {
                Some(f) => [
                    f[5 * i],
                    f[5 * i + 1],
                    f[5 * i + 2],
                    f[5 * i + 3],
                    f[5 * i + 4],
                ],
                None => {
                    let row = view.row(i);
                    [row[0], row[1], row[2], row[3], row[4]]
                }
            };
            if let Err(e) = eval::rank5_checked(c) {
                let what = match e {
                    eval::HandError::BadId(x) => format!("card id {x} is out of range 0..51"),
                    eval::HandError::Duplicate(x) => format!("duplicate card {}", card_text(x)),
                };
                return Err(batch_error(format!("row {i}: {what}: {:?}", c)));
            }
        }
        // The rows changed under us (the documented concurrent-mutation case).
        return Err(batch_error(format!(
            "rows {start}..{} held an invalid card while they were read, and no longer do: \
             the array was modified during the call (pass copy=True)",
            n.min(start + BATCH_CHUNK)
        )));
    }
    Ok(out)
}

/// Ranks contiguous rows into `out` on `threads` workers; the index of the first chunk that
/// holds an invalid row, if any.
fn rank_rows(
    flat: &[u8],
    out: &mut [u16],
    threads: usize,
) -> Result<Option<usize>, pool::PoolError> {
    let t = eval::tables();
    let work = |(k, (rows, outs)): (usize, (&[u8], &mut [u16]))| -> Option<usize> {
        let mut ok = true;
        for (row, o) in rows.chunks_exact(5).zip(outs.iter_mut()) {
            // A bad row still looks up safely; the batch is rejected afterwards.
            let (rank, valid) = t.rank5_batch([row[0], row[1], row[2], row[3], row[4]]);
            ok &= valid;
            *o = rank;
        }
        if ok {
            None
        } else {
            Some(k)
        }
    };
    if threads == 1 {
        return Ok(flat
            .chunks(BATCH_CHUNK * 5)
            .zip(out.chunks_mut(BATCH_CHUNK))
            .enumerate()
            .filter_map(work)
            .next());
    }
    // Fixed chunks whatever `threads` is; at most `threads` workers of the shared pool
    // take them in turn.
    let chunks: Vec<(&[u8], &mut [u16])> = flat
        .chunks(BATCH_CHUNK * 5)
        .zip(out.chunks_mut(BATCH_CHUNK))
        .collect();
    let bad = pool::map_items(threads, chunks, |k, c| work((k, c)))?;
    Ok(bad.into_iter().flatten().min())
}

fn describe_bad_array(obj: &Bound<'_, PyAny>) -> PyErr {
    let py = obj.py();
    let is_ndarray = py
        .import("numpy")
        .and_then(|np| np.getattr("ndarray"))
        .and_then(|t| obj.is_instance(&t))
        .unwrap_or(false);
    if !is_ndarray {
        let name = obj
            .get_type()
            .name()
            .map(|n| n.to_string())
            .unwrap_or_default();
        return batch_type_error(format!(
            "hands must be a numpy uint8 array of shape (N, 5), got {name}"
        ));
    }
    let dtype = obj
        .getattr("dtype")
        .map(|d| d.to_string())
        .unwrap_or_default();
    let ndim: usize = obj.getattr("ndim").and_then(|d| d.extract()).unwrap_or(0);
    if ndim != 2 {
        return batch_type_error(format!(
            "hands must be 2-dimensional with shape (N, 5), got {ndim} dimension(s)"
        ));
    }
    batch_type_error(format!(
        "hands must have dtype uint8, got {dtype} (use hands.astype(numpy.uint8))"
    ))
}
