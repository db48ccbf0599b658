//! `Card`, `parse_cards`, `card_ids`: cards from text, ids or Card objects.

use super::args::{describe, exact_int};
use super::errors::{card_error, card_type_error};
use crate::cards::{self, card_text, check_distinct, check_id, CardError, DECK_SIZE};
use pyo3::prelude::*;
use pyo3::pyclass::CompareOp;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBool, PyInt, PyList, PyString, PyTuple, PyType};

/// A playing card, immutable and hashable.
///
/// ``Card(card)`` accepts a text token (``"7h"``, ``"Td"``, ``"10d"``, either case), an
/// int id ``rank * 4 + suit`` (``2c`` = 0 ... ``As`` = 51) or another ``Card``. Cards compare
/// and hash by id; ``str(card)`` is the canonical text.
///
/// Raises ``CardError`` for a malformed token, the hidden marker ``??`` or an id outside
/// 0-51, and ``TypeError`` for anything else.
#[pyclass(frozen, module = "triple_draw", name = "Card")]
pub struct Card {
    pub(crate) id: u8,
}

fn card_objects(py: Python<'_>) -> PyResult<&'static [Py<Card>]> {
    static CARDS: PyOnceLock<Vec<Py<Card>>> = PyOnceLock::new();
    CARDS
        .get_or_try_init(py, || {
            (0..DECK_SIZE as u8)
                .map(|id| Py::new(py, Card { id }))
                .collect::<PyResult<Vec<_>>>()
        })
        .map(|v| v.as_slice())
}

/// The shared `Card` object of id `id` (< 52).
pub(crate) fn card_object(py: Python<'_>, id: u8) -> PyResult<Py<Card>> {
    Ok(card_objects(py)?[id as usize].clone_ref(py))
}

/// The UTF-8 text of a str, or a `CardError` (a str holding a lone surrogate has none).
fn text_of<'a>(s: &'a Bound<'_, PyString>) -> PyResult<std::borrow::Cow<'a, str>> {
    s.to_cow().map_err(|_| {
        card_error(format!(
            "invalid card text {}: not valid Unicode (a lone surrogate)",
            describe(s.as_any())
        ))
    })
}

/// One card from a Card, an int id or a text token.
pub(crate) fn card_id_of(obj: &Bound<'_, PyAny>) -> PyResult<u8> {
    // Plain ints first: they are the hot path of the batch-like callers.
    if obj.is_exact_instance_of::<PyInt>() {
        return match obj.extract::<i64>() {
            Ok(v) => Ok(check_id(v as i128)?),
            Err(_) => Err(card_error(format!(
                "invalid card id {obj}: ids run from 0 (2c) to 51 (As)"
            ))),
        };
    }
    if let Ok(c) = obj.cast_exact::<Card>() {
        return Ok(c.get().id);
    }
    if let Ok(s) = obj.cast::<PyString>() {
        return Ok(cards::parse_token(text_of(s)?.trim())?);
    }
    if let Some(v) = exact_int(obj)? {
        // int subclasses, read by value.
        return match v.extract::<i64>() {
            Ok(v) => Ok(check_id(v as i128)?),
            Err(_) => Err(card_error(format!(
                "invalid card id {v}: ids run from 0 (2c) to 51 (As)"
            ))),
        };
    }
    if !obj.is_instance_of::<PyBool>() && obj.hasattr("__index__")? {
        // Other integers (numpy.uint8, ...) through the index protocol.
        let v = obj.call_method0("__index__")?;
        return match v.extract::<i64>() {
            Ok(v) => Ok(check_id(v as i128)?),
            Err(_) => Err(card_error(format!(
                "invalid card id {obj}: ids run from 0 (2c) to 51 (As)"
            ))),
        };
    }
    Err(card_type_error(format!(
        "expected a card as a str like '7h', an int id 0-51 or a Card, got {}",
        obj.get_type().name()?
    )))
}

/// How many cards a caller takes.
#[derive(Clone, Copy)]
pub(crate) enum Count {
    /// Up to this many (a deck's worth for most callers).
    AtMost(usize),
    /// Exactly this many (checked by the caller; more is refused while reading).
    Exactly(usize),
}

/// Card ids from text or from a sequence of cards; duplicates rejected. At most the counted
/// number of cards is read: an iterable is never consumed beyond the one card too many (so
/// an endless iterator cannot grow memory), and too many cards is a `CardError`.
pub(crate) fn ids_of(obj: &Bound<'_, PyAny>, count: Count) -> PyResult<Vec<u8>> {
    let (max, word) = match count {
        Count::AtMost(n) => (n, "at most "),
        Count::Exactly(n) => (n, ""),
    };
    let too_many = |got: Option<usize>| -> PyErr {
        match got {
            Some(got) => card_error(format!("expected {word}{max} cards, got {got}")),
            None => card_error(format!("expected {word}{max} cards, got more")),
        }
    };
    if let Ok(s) = obj.cast::<PyString>() {
        let ids = cards::parse_text(&text_of(s)?)?;
        if ids.len() > max {
            return Err(too_many(Some(ids.len())));
        }
        return Ok(ids);
    }
    let mut out = Vec::with_capacity(8);
    if let Ok(l) = obj.cast::<PyList>() {
        if l.len() > max {
            return Err(too_many(Some(l.len())));
        }
        for item in l.iter() {
            out.push(card_id_of(&item)?);
        }
    } else if let Ok(t) = obj.cast::<PyTuple>() {
        if t.len() > max {
            return Err(too_many(Some(t.len())));
        }
        for item in t.iter() {
            out.push(card_id_of(&item)?);
        }
    } else if let Ok(c) = obj.cast::<Card>() {
        out.push(c.get().id);
    } else {
        let iter = obj.try_iter().map_err(|_| {
            card_type_error(format!(
                "expected cards as a str or a sequence of cards, got {}",
                obj.get_type()
                    .name()
                    .map(|n| n.to_string())
                    .unwrap_or_default()
            ))
        })?;
        for item in iter {
            if out.len() == max {
                return Err(too_many(None));
            }
            out.push(card_id_of(&item?)?);
        }
    }
    check_distinct(&out)?;
    Ok(out)
}

/// Exactly five distinct cards (reads at most six items of an iterable).
pub(crate) fn five_of(obj: &Bound<'_, PyAny>) -> PyResult<[u8; 5]> {
    let ids = ids_of(obj, Count::Exactly(5))?;
    <[u8; 5]>::try_from(ids.as_slice()).map_err(|_| {
        CardError::Count {
            expected: 5,
            got: ids.len(),
        }
        .into()
    })
}

#[pymethods]
impl Card {
    #[new]
    #[pyo3(text_signature = "(card)")]
    fn new(card: &Bound<'_, PyAny>) -> PyResult<Self> {
        Ok(Card {
            id: card_id_of(card)?,
        })
    }

    /// The id, ``rank * 4 + suit`` (``2c`` = 0 ... ``As`` = 51).
    #[getter]
    fn id(&self) -> u8 {
        self.id
    }

    /// Rank index: 0 = deuce ... 12 = ace.
    #[getter]
    fn rank(&self) -> u8 {
        self.id >> 2
    }

    /// Suit index: 0 = clubs, 1 = diamonds, 2 = hearts, 3 = spades.
    #[getter]
    fn suit(&self) -> u8 {
        self.id & 3
    }

    fn __str__(&self) -> String {
        card_text(self.id)
    }

    fn __repr__(&self) -> String {
        format!("Card('{}')", card_text(self.id))
    }

    fn __int__(&self) -> u8 {
        self.id
    }

    fn __index__(&self) -> u8 {
        self.id
    }

    fn __hash__(&self) -> u64 {
        self.id as u64
    }

    fn __richcmp__(&self, other: &Self, op: CompareOp) -> bool {
        op.matches(self.id.cmp(&other.id))
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyType>, (String,))> {
        Ok((slf.get_type(), (card_text(slf.get().id),)))
    }
}

/// Reads cards into a list of ``Card`` objects.
///
/// ``cards`` is text (``"7h 5d 4c"``, ``"7h5d4c"``, commas allowed, either case, ``10`` for
/// ``T``) or an iterable of cards (str tokens, int ids, ``Card`` objects); at most 52 cards
/// are read. Raises ``CardError`` for a malformed token, a duplicate, an id outside 0-51 or
/// more than 52 cards.
#[pyfunction]
#[pyo3(signature = (cards))]
pub(crate) fn parse_cards(py: Python<'_>, cards: &Bound<'_, PyAny>) -> PyResult<Vec<Py<Card>>> {
    ids_of(cards, Count::AtMost(DECK_SIZE))?
        .into_iter()
        .map(|id| card_object(py, id))
        .collect()
}

/// Card ids as a Python list of ints (a `Vec<u8>` would become `bytes`).
pub(crate) fn id_list<'py>(py: Python<'py>, ids: &[u8]) -> PyResult<Bound<'py, PyList>> {
    PyList::new(py, ids)
}

/// Reads cards (as :func:`parse_cards` does) into a list of int ids ``rank * 4 + suit``.
#[pyfunction]
#[pyo3(signature = (cards))]
pub(crate) fn card_ids<'py>(
    py: Python<'py>,
    cards: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyList>> {
    id_list(py, &ids_of(cards, Count::AtMost(DECK_SIZE))?)
}
