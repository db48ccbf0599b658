//! `Deck`: the seeded stub, its deals, reshuffles and saved state.

use super::args::{describe, exact_int};
use super::cards::{card_object, id_list, ids_of, Card, Count};
use super::errors::{argument_type_error, deck_error};
use crate::cards::DECK_SIZE;
use crate::deck::{self, key_from_hex, key_to_hex};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyInt, PyList, PyString};

/// The key of an integer seed (little-endian, 0 <= seed < 2**256) or OS entropy for None.
/// An int subclass is read by value: none of its methods is called.
pub(crate) fn key_of_seed(seed: Option<&Bound<'_, PyAny>>) -> PyResult<[u8; 32]> {
    let seed = match seed {
        None => return Ok(deck::Stream::entropy_key()?),
        Some(s) if s.is_none() => return Ok(deck::Stream::entropy_key()?),
        Some(s) => s,
    };
    let Some(value) = exact_int(seed)? else {
        return Err(argument_type_error(format!(
            "seed must be an int or None, got {}",
            seed.get_type().name()?
        )));
    };
    if let Ok(small) = value.extract::<u64>() {
        return Ok(deck::key_from_u64(small));
    }
    if value.lt(0)? {
        return Err(deck_error(format!(
            "seed must be >= 0, got {}",
            describe(&value)
        )));
    }
    // `value` is an exact int, so `to_bytes` is int's own.
    let bytes = value
        .call_method1("to_bytes", (32, "little"))
        .map_err(|_| deck_error(format!("seed must be < 2**256, got {}", describe(&value))))?;
    let bytes: Vec<u8> = bytes.extract()?;
    <[u8; 32]>::try_from(bytes.as_slice())
        .map_err(|_| deck_error(format!("seed must be < 2**256, got {}", describe(&value))))
}

/// A deck of cards shuffled by a seeded ChaCha12 stream.
///
/// ``Deck(seed)`` (an int, 0 <= seed < 2**256) deals the same cards on every platform and in
/// every release; ``Deck()`` or ``Deck(None)`` draws its key from the operating system.
/// Cards are dealt from the front of the stub; ``len(deck)`` is the number left. Raises
/// ``DeckError`` for a negative or too large seed and ``TypeError`` for a seed that is not
/// an int.
#[pyclass(module = "triple_draw", name = "Deck")]
pub struct Deck {
    inner: deck::Deck,
}

#[pymethods]
impl Deck {
    #[new]
    #[pyo3(signature = (seed=None), text_signature = "(seed=None)")]
    fn new(seed: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        Ok(Deck {
            inner: deck::Deck::new(key_of_seed(seed)?),
        })
    }

    /// A deck whose stub is exactly ``order`` (dealt first to last); the seeded stream is
    /// used only by later reshuffles. Raises ``CardError`` for bad or duplicate cards.
    #[staticmethod]
    #[pyo3(signature = (order, seed=None))]
    fn stacked(order: &Bound<'_, PyAny>, seed: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        let ids = ids_of(order, Count::AtMost(DECK_SIZE))?;
        Ok(Deck {
            inner: deck::Deck::stacked(&ids, key_of_seed(seed)?)?,
        })
    }

    /// Deals ``n`` cards from the stub as ``Card`` objects. Raises ``DeckError`` when the
    /// stub holds fewer than ``n`` (the deck is then unchanged).
    #[pyo3(signature = (n))]
    fn deal(&mut self, py: Python<'_>, n: &Bound<'_, PyAny>) -> PyResult<Vec<Py<Card>>> {
        self.deal_slice(n)?
            .iter()
            .map(|&id| card_object(py, id))
            .collect()
    }

    /// Deals ``n`` cards from the stub as int ids (the fast form of :meth:`deal`).
    #[pyo3(signature = (n))]
    fn deal_ids<'py>(
        &mut self,
        py: Python<'py>,
        n: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyList>> {
        id_list(py, self.deal_slice(n)?)
    }

    /// Shuffles ``cards`` together with the rest of the stub into a new stub (the union,
    /// sorted by id, shuffled with the continuing stream). Raises ``CardError`` when a card
    /// is already in the stub or given twice; the deck is then unchanged.
    #[pyo3(signature = (cards))]
    fn reshuffle(&mut self, cards: &Bound<'_, PyAny>) -> PyResult<()> {
        let ids = ids_of(cards, Count::AtMost(DECK_SIZE))?;
        Ok(self.inner.reshuffle(&ids)?)
    }

    /// The stub in deal order, as int ids (for tests and persistence; never show it to
    /// players).
    fn stub_ids<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        id_list(py, self.inner.stub())
    }

    /// The full state as a JSON-ready dict: ``key`` (64 lowercase hex digits), ``word_pos``
    /// (the position in the random stream) and ``stub`` (card ids in deal order).
    fn get_state<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("key", key_to_hex(&self.inner.stream().key()))?;
        d.set_item("word_pos", self.inner.stream().word_pos())?;
        d.set_item("stub", id_list(py, self.inner.stub())?)?;
        Ok(d)
    }

    /// Rebuilds a deck from :meth:`get_state`. Only a dict with exactly the fields ``key``
    /// (the canonical 64 lowercase hex digits), ``word_pos`` (an int, 0 <= word_pos < 2**68)
    /// and ``stub`` (a list of distinct int ids) is accepted; anything else raises
    /// ``DeckError`` (or ``CardError`` for a bad card in the stub).
    #[staticmethod]
    #[pyo3(signature = (state))]
    fn from_state(state: &Bound<'_, PyAny>) -> PyResult<Self> {
        let d = state
            .cast::<PyDict>()
            .map_err(|_| deck_error("deck state must be a dict with key, word_pos and stub"))?;
        for k in d.keys() {
            let name = k
                .cast::<PyString>()
                .ok()
                .map(|s| s.to_string_lossy().into_owned());
            if !matches!(name.as_deref(), Some("key" | "word_pos" | "stub")) {
                return Err(deck_error(format!(
                    "deck state has an unknown field {}",
                    describe(&k)
                )));
            }
        }
        let field = |name: &str| -> PyResult<Bound<'_, PyAny>> {
            d.get_item(name)?
                .ok_or_else(|| deck_error(format!("deck state lacks the field {name:?}")))
        };
        let key_obj = field("key")?;
        let bad_key =
            || deck_error("deck state field \"key\" must be a str of 64 hex digits in lowercase");
        let key_s = key_obj.cast::<PyString>().map_err(|_| bad_key())?;
        let key = key_from_hex(&key_s.to_cow().map_err(|_| bad_key())?).map_err(|_| bad_key())?;
        let word_pos_obj = field("word_pos")?;
        let bad_pos = || deck_error("deck state field \"word_pos\" must be an int >= 0");
        if !word_pos_obj.is_exact_instance_of::<PyInt>() {
            return Err(bad_pos());
        }
        let word_pos: u128 = word_pos_obj.extract().map_err(|_| bad_pos())?;
        let stub_obj = field("stub")?;
        let bad_stub = |why: String| {
            deck_error(format!(
                "deck state field \"stub\" must be a list of distinct card ids: {why}"
            ))
        };
        let stub_list = stub_obj
            .cast::<PyList>()
            .map_err(|_| bad_stub("not a list".into()))?;
        if let Some(item) = stub_list
            .iter()
            .find(|x| !x.is_exact_instance_of::<PyInt>())
        {
            return Err(bad_stub(format!("{} is not an int", describe(&item))));
        }
        let stub =
            ids_of(&stub_obj, Count::AtMost(DECK_SIZE)).map_err(|e| bad_stub(e.to_string()))?;
        Ok(Deck {
            inner: deck::Deck::from_state(key, word_pos, &stub)?,
        })
    }

    /// An independent copy (same stub, same stream position).
    fn copy(&self) -> Self {
        Deck {
            inner: self.inner.clone(),
        }
    }

    fn __copy__(&self) -> Self {
        self.copy()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Self {
        self.copy()
    }

    fn __len__(&self) -> usize {
        self.inner.len()
    }

    fn __repr__(&self) -> String {
        format!("<Deck: {} cards in the stub>", self.inner.len())
    }

    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, (Bound<'py, PyDict>,))> {
        let from_state = slf.get_type().getattr("from_state")?;
        Ok((from_state, (slf.borrow().get_state(slf.py())?,)))
    }
}

impl Deck {
    fn deal_slice(&mut self, n: &Bound<'_, PyAny>) -> PyResult<&[u8]> {
        let Some(value) = exact_int(n)? else {
            return Err(argument_type_error(format!(
                "the number of cards to deal must be an int, got {}",
                n.get_type().name()?
            )));
        };
        if value.lt(0)? {
            return Err(deck_error(format!(
                "cannot deal a negative number of cards ({})",
                describe(&value)
            )));
        }
        // Anything beyond usize is certainly more than the stub holds.
        let n: usize = value.extract().unwrap_or(usize::MAX);
        Ok(self.inner.deal(n)?)
    }
}
