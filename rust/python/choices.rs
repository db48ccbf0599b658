//! `DiscardChoices`: the legal draws of a held hand, the sequence `Hand.legal_actions()`
//! returns at a draw decision, built in the compiled core.
//!
//! The same sequence as the pure-Python `triple_draw.game.actions.DiscardChoices` (the
//! reference the parity tests hold this one to, and a virtual superclass of this one, so
//! `isinstance` checks against it hold): item `m` throws the held cards, in ascending id
//! order, at the set bits of `m`. Items are the Python layer's shared `Action` objects:
//! looked up in its cache of discard actions (`_DISCARDS`) and, when missing, made here
//! as its `make_action` makes them (`object.__new__`, then each field set past the frozen
//! dataclass's `__setattr__` and its checks: the cards are known to be a sorted tuple of
//! held ids) and
//! put into the cache while it has room. What the Python layer provides comes from
//! `_COMPILED_SUPPORT` in `triple_draw.game.actions`.

use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyInt, PyList, PySlice, PyString, PyTuple, PyType};
use pyo3::{intern, PyTypeInfo};

use super::errors::card_error;

/// The most cards a hand holds.
const MAX_HELD: usize = 5;

/// What the Python layer provides (see the module docs).
struct Support {
    action: Py<PyType>,
    cache: Py<PyDict>,
    cache_max: usize,
    reference: Py<PyType>,
    held_of: Py<PyAny>,
    discard: Py<PyString>,
}

static SUPPORT: PyOnceLock<Support> = PyOnceLock::new();

fn support(py: Python<'_>) -> PyResult<&'static Support> {
    SUPPORT.get_or_try_init(py, || {
        // a named record (`CompiledSupport`): read by field name, never by position
        let t = py
            .import("triple_draw.game.actions")?
            .getattr("_COMPILED_SUPPORT")?;
        let get = |name: &str| t.getattr(name);
        Ok::<_, PyErr>(Support {
            action: get("action")?.cast_into::<PyType>()?.unbind(),
            cache: get("discards")?.cast_into::<PyDict>()?.unbind(),
            cache_max: get("discards_max")?.extract()?,
            reference: get("reference")?.cast_into::<PyType>()?.unbind(),
            held_of: get("held_of")?.unbind(),
            discard: PyString::intern(py, "discard").unbind(),
        })
    })
}

/// `object.__setattr__(obj, name, value)`: sets a slot of a frozen dataclass without its
/// `__setattr__` (which refuses).
fn set_field(
    obj: &Bound<'_, PyAny>,
    name: &Bound<'_, PyString>,
    value: *mut pyo3::ffi::PyObject,
) -> PyResult<()> {
    // SAFETY: `obj` and `name` are live objects, `value` a live object borrowed from the
    // caller; `PyObject_GenericSetAttr` is `object.__setattr__` and takes its own
    // reference to the value. The GIL is held.
    if unsafe { pyo3::ffi::PyObject_GenericSetAttr(obj.as_ptr(), name.as_ptr(), value) } < 0 {
        return Err(PyErr::fetch(obj.py()));
    }
    Ok(())
}

impl Support {
    /// The shared discard action of `cards` (a sorted tuple of held ids): from the cache,
    /// or made and cached (while the cache has room), as `discard_action` does.
    fn action<'py>(
        &self,
        py: Python<'py>,
        cards: Bound<'py, PyTuple>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let cache = self.cache.bind(py);
        if let Some(a) = cache.get_item(&cards)? {
            return Ok(a);
        }
        let ty = self.action.bind(py);
        // SAFETY: `object.__new__(Action)`: the base object type's `tp_new` slot (a static
        // type: `PyType_GetSlot` accepts it from Python 3.10, the ABI floor), called with
        // the live type `Action` and an empty argument tuple; it returns a new reference
        // or NULL with an exception set. The GIL is held.
        let a = unsafe {
            let base = std::ptr::addr_of_mut!(pyo3::ffi::PyBaseObject_Type);
            let slot = pyo3::ffi::PyType_GetSlot(base, pyo3::ffi::Py_tp_new);
            if slot.is_null() {
                return Err(PyValueError::new_err("object has no __new__"));
            }
            let new: pyo3::ffi::newfunc = std::mem::transmute(slot);
            let args = PyTuple::empty(py);
            Bound::from_owned_ptr_or_err(
                py,
                new(ty.as_ptr().cast(), args.as_ptr(), std::ptr::null_mut()),
            )?
        };
        set_field(&a, intern!(py, "kind"), self.discard.as_ptr())?;
        set_field(&a, intern!(py, "amount"), py.None().as_ptr())?;
        set_field(&a, intern!(py, "cards"), cards.as_ptr())?;
        if cache.len() < self.cache_max {
            cache.set_item(cards, &a)?;
        }
        Ok(a)
    }
}

/// The legal draws of a held hand: an immutable sequence of the `2 ** len(held)` discard
/// actions (32 for five cards), built when read. `choices[m]` discards the held cards (in
/// ascending id order) at the set bits of `m`.
#[pyclass(
    module = "triple_draw._core",
    name = "DiscardChoices",
    frozen,
    sequence
)]
pub struct DiscardChoices {
    held: [u8; MAX_HELD],
    n: u8,
}

impl DiscardChoices {
    /// The choices of a hand holding `held` (up to five distinct card ids, any order):
    /// what the class does when called.
    fn of(held: &Bound<'_, PyAny>) -> PyResult<Self> {
        if let Ok(list) = held.cast::<PyList>() {
            // a hand's own list (the common case): read in place
            return Self::of_items(list.iter().map(Ok));
        }
        Self::of_items(held.try_iter()?)
    }

    fn of_items<'py>(items: impl Iterator<Item = PyResult<Bound<'py, PyAny>>>) -> PyResult<Self> {
        let mut cards = [0u8; MAX_HELD];
        let mut n = 0usize;
        for c in items {
            let c = c?;
            let id = match c.cast::<PyInt>() {
                Ok(i) if c.is_exact_instance_of::<PyInt>() => i.extract::<i64>().ok(),
                _ => None,
            };
            let id = match id {
                Some(v @ 0..=51) => v as u8,
                _ => {
                    return Err(card_error(format!(
                        "held cards must be card ids 0..51, got {}",
                        c.repr()?
                    )))
                }
            };
            if n == MAX_HELD {
                return Err(card_error("a hand holds at most 5 cards"));
            }
            if cards[..n].contains(&id) {
                return Err(card_error(format!("card id {id} is held twice")));
            }
            cards[n] = id;
            n += 1;
        }
        cards[..n].sort_unstable();
        Ok(DiscardChoices {
            held: cards,
            n: n as u8,
        })
    }

    fn held(&self) -> &[u8] {
        &self.held[..self.n as usize]
    }

    fn len(&self) -> usize {
        1 << self.n
    }

    /// The cards item `m` throws (`m` in range).
    fn cards<'py>(&self, py: Python<'py>, m: usize) -> PyResult<Bound<'py, PyTuple>> {
        let mut thrown = [0u8; MAX_HELD];
        let mut k = 0;
        for (j, &c) in self.held().iter().enumerate() {
            if m >> j & 1 == 1 {
                thrown[k] = c;
                k += 1;
            }
        }
        PyTuple::new(py, &thrown[..k])
    }

    fn item<'py>(&self, py: Python<'py>, sup: &Support, m: usize) -> PyResult<Bound<'py, PyAny>> {
        sup.action(py, self.cards(py, m)?)
    }

    fn all<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let sup = support(py)?;
        let items = (0..self.len())
            .map(|m| self.item(py, sup, m))
            .collect::<PyResult<Vec<_>>>()?;
        PyList::new(py, items)
    }

    /// The item number of `x` if it is one of these discards (`None` otherwise): a
    /// discard action whose cards are distinct held cards.
    fn position(&self, py: Python<'_>, x: &Bound<'_, PyAny>) -> PyResult<Option<usize>> {
        let sup = support(py)?;
        if !x.get_type().is(sup.action.bind(py)) {
            return Ok(None);
        }
        let kind = x.getattr(intern!(py, "kind"))?;
        if !kind.eq(sup.discard.bind(py))? {
            return Ok(None);
        }
        let cards = x.getattr(intern!(py, "cards"))?;
        if cards.is_none() {
            return Ok(Some(0));
        }
        let held = self.held();
        let mut m = 0usize;
        for c in cards.try_iter()? {
            let c = c?;
            let Some(j) = held.iter().position(|&h| {
                c.is_exact_instance_of::<PyInt>()
                    && c.extract::<i64>().is_ok_and(|v| v == i64::from(h))
            }) else {
                return Ok(None);
            };
            if m >> j & 1 == 1 {
                return Ok(None); // a card twice
            }
            m |= 1 << j;
        }
        Ok(Some(m))
    }

    /// The held cards of another `DiscardChoices`, compiled or the reference.
    fn held_of(py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<Option<Vec<i64>>> {
        if let Ok(o) = other.cast::<DiscardChoices>() {
            return Ok(Some(o.get().held().iter().map(|&c| i64::from(c)).collect()));
        }
        let sup = support(py)?;
        if other.is_instance(sup.reference.bind(py))? {
            return Ok(Some(sup.held_of.bind(py).call1((other,))?.extract()?));
        }
        Ok(None)
    }
}

#[pymethods]
impl DiscardChoices {
    /// The choices of a hand holding `held` (up to five distinct card ids, any order).
    #[new]
    fn new(held: &Bound<'_, PyAny>) -> PyResult<Self> {
        Self::of(held)
    }

    fn __len__(&self) -> usize {
        self.len()
    }

    fn __getitem__<'py>(&self, i: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let py = i.py();
        let sup = support(py)?;
        let len = self.len() as isize;
        if let Ok(s) = i.cast::<PySlice>() {
            let ix = s.indices(len)?;
            let mut items = Vec::with_capacity(ix.slicelength);
            let mut k = ix.start;
            for _ in 0..ix.slicelength {
                items.push(self.item(py, sup, k as usize)?);
                k += ix.step;
            }
            return Ok(PyList::new(py, items)?.into_any());
        }
        // an int, or anything with __index__ (as a list takes it)
        let m = if i.is_exact_instance_of::<PyInt>() {
            i.extract::<isize>().unwrap_or(isize::MAX)
        } else {
            // SAFETY: `i` is a live object; `PyNumber_Index` returns a new reference to an
            // int or NULL with a TypeError set. The GIL is held.
            let ix =
                unsafe { Bound::from_owned_ptr_or_err(py, pyo3::ffi::PyNumber_Index(i.as_ptr()))? };
            ix.extract::<isize>().unwrap_or(isize::MAX)
        };
        let m = if m < 0 { m.saturating_add(len) } else { m };
        if !(0..len).contains(&m) {
            return Err(PyIndexError::new_err("discard choice index out of range"));
        }
        self.item(py, sup, m as usize)
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.all(py)?.try_iter().map(Bound::into_any)
    }

    fn __reversed__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let all = self.all(py)?;
        all.reverse()?;
        all.try_iter().map(Bound::into_any)
    }

    fn __contains__(&self, x: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(self.position(x.py(), x)?.is_some())
    }

    /// The item number of `x` (a `ValueError` if it is not one of these discards, or not
    /// within `start`..`stop`).
    #[pyo3(signature = (x, start = 0, stop = None))]
    fn index(&self, x: &Bound<'_, PyAny>, start: isize, stop: Option<isize>) -> PyResult<usize> {
        let Some(m) = self.position(x.py(), x)? else {
            return Err(PyValueError::new_err(format!(
                "{} is not a legal discard",
                x.repr()?
            )));
        };
        let stop = stop.unwrap_or(self.len() as isize);
        if !(start <= m as isize && (m as isize) < stop) {
            return Err(PyValueError::new_err(format!(
                "{} is not in the range",
                x.repr()?
            )));
        }
        Ok(m)
    }

    /// How many items equal `x`: 1 for one of these discards, else 0 (they are distinct).
    fn count(&self, x: &Bound<'_, PyAny>) -> PyResult<usize> {
        Ok(usize::from(self.position(x.py(), x)?.is_some()))
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let py = other.py();
        if let Some(held) = Self::held_of(py, other)? {
            let mine: Vec<i64> = self.held().iter().map(|&c| i64::from(c)).collect();
            return Ok(py_bool(py, mine == held));
        }
        if other.is_instance_of::<PyList>() || other.is_instance_of::<PyTuple>() {
            if other.len()? != self.len() {
                return Ok(py_bool(py, false));
            }
            for (a, b) in self.all(py)?.iter().zip(other.try_iter()?) {
                if !a.eq(b?)? {
                    return Ok(py_bool(py, false));
                }
            }
            return Ok(py_bool(py, true));
        }
        Ok(py.NotImplemented())
    }

    fn __ne__(&self, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let py = other.py();
        let eq = self.__eq__(other)?;
        if eq.is(py.NotImplemented()) {
            return Ok(eq);
        }
        Ok(py_bool(py, !eq.bind(py).is_truthy()?))
    }

    /// The hash of the tuple of held ids (as the reference's).
    fn __hash__(&self, py: Python<'_>) -> PyResult<isize> {
        PyTuple::new(py, self.held())?.hash()
    }

    fn __repr__(&self) -> String {
        let ids: Vec<String> = self.held().iter().map(u8::to_string).collect();
        format!("DiscardChoices([{}])", ids.join(", "))
    }

    /// Pickles as the class and the held ids.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyType>, (Vec<i64>,))> {
        Ok((slf.get_type(), (slf.get()._held(),)))
    }

    /// The held card ids in ascending order (a new list).
    #[getter]
    fn _held(&self) -> Vec<i64> {
        self.held().iter().map(|&c| i64::from(c)).collect()
    }
}

fn py_bool(py: Python<'_>, b: bool) -> Py<PyAny> {
    pyo3::types::PyBool::new(py, b)
        .to_owned()
        .into_any()
        .unbind()
}

/// `discard_choices(held)`: `DiscardChoices(held)` through a plain function call, which
/// costs less than calling the class (`Hand.legal_actions` makes one at every draw).
#[pyfunction]
fn discard_choices(py: Python<'_>, held: &Bound<'_, PyAny>) -> PyResult<Py<DiscardChoices>> {
    Py::new(py, DiscardChoices::of(held)?)
}

pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<DiscardChoices>()?;
    m.add_function(wrap_pyfunction!(discard_choices, m)?)?;
    let _ = DiscardChoices::type_object(m.py());
    Ok(())
}
