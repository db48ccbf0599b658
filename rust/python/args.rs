//! Checked conversions of Python arguments that every binding shares: integers read by
//! value (never through methods a subclass may override) and the `threads` argument.

use super::errors::argument_error;
use crate::pool::{check_threads, default_threads, PoolError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyInt};

/// The value of an `int` (or `int` subclass) as an exact `int`, read by value: an int
/// subclass's overridden methods (`__index__`, `to_bytes`, comparisons) are never called.
/// `None` for anything that is not an int, and for `bool`.
pub(crate) fn exact_int<'py>(obj: &Bound<'py, PyAny>) -> PyResult<Option<Bound<'py, PyInt>>> {
    if obj.is_instance_of::<PyBool>() || !obj.is_instance_of::<PyInt>() {
        return Ok(None);
    }
    if obj.is_exact_instance_of::<PyInt>() {
        return Ok(Some(obj.clone().cast_into::<PyInt>()?));
    }
    // PyNumber_Index returns a plain int holding the value of an int subclass, without
    // calling the subclass's `__index__` (CPython >= 3.10).
    let v =
        unsafe { Bound::from_owned_ptr_or_err(obj.py(), pyo3::ffi::PyNumber_Index(obj.as_ptr()))? };
    Ok(Some(v.cast_into::<PyInt>()?))
}

/// An int argument as `i128`, saturating beyond that range (callers check bounds), or
/// `None` when it is not an int (or is a bool).
pub(crate) fn int_value(obj: &Bound<'_, PyAny>) -> PyResult<Option<i128>> {
    let Some(v) = exact_int(obj)? else {
        return Ok(None);
    };
    // i64 first: one C call, where i128 goes through a slower conversion under abi3
    if let Ok(x) = v.extract::<i64>() {
        return Ok(Some(i128::from(x)));
    }
    if let Ok(x) = v.extract::<i128>() {
        return Ok(Some(x));
    }
    Ok(Some(if v.lt(0)? { i128::MIN } else { i128::MAX }))
}

/// A checked `threads` argument: an int from 1 to `MAX_THREADS`; `None` (Python `None`)
/// means every core. Every kernel takes `threads` through this type, so every kernel
/// refuses the same values with the same `ArgumentError`.
pub(crate) struct Threads(pub usize);

impl Threads {
    /// The number of threads for an optional argument (`None` = every core).
    pub(crate) fn resolve(t: Option<Threads>) -> usize {
        t.map_or_else(default_threads, |t| t.0)
    }
}

impl<'a, 'py> FromPyObject<'a, 'py> for Threads {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        let obj = obj.to_owned();
        match int_value(&obj)? {
            Some(n) => Ok(Threads(check_threads(n)?)),
            None => Err(PoolError::BadThreads(describe(&obj)).into()),
        }
    }
}

/// `repr(obj)` for an error message, shortened.
pub(crate) fn describe(obj: &Bound<'_, PyAny>) -> String {
    let r = obj
        .repr()
        .map(|r| r.to_string_lossy().into_owned())
        .unwrap_or_else(|_| "<unprintable>".into());
    if r.chars().count() > 60 {
        format!("{}...", r.chars().take(57).collect::<String>())
    } else {
        r
    }
}

/// A non-negative integer argument of at most `max`, refused with `ArgumentError` naming it.
pub(crate) fn count_arg(obj: &Bound<'_, PyAny>, name: &str, min: u64, max: u64) -> PyResult<u64> {
    match int_value(obj)? {
        Some(n) if (min as i128..=max as i128).contains(&n) => Ok(n as u64),
        _ => Err(argument_error(format!(
            "{name} must be an int from {min} to {max}, got {}",
            describe(obj)
        ))),
    }
}
