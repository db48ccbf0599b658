//! The only PyO3 code of the crate: conversions, GIL release and error mapping for the
//! `triple_draw._core` module. Every Rust error becomes one of the exception classes of
//! `triple_draw.errors`; nothing here can panic on user input.

use crate::cards::{self, card_text, check_distinct, check_id, CardError};
use crate::deck::{self, DeckError};
use crate::eval;
use numpy::{PyArray1, PyArray2, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::pyclass::CompareOp;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBool, PyDict, PyInt, PyList, PyString, PyTuple, PyType};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

// ---------------------------------------------------------------- errors

macro_rules! error_classes {
    ($($fn_name:ident => $class:literal),* $(,)?) => {
        $(
            fn $fn_name(msg: impl Into<String>) -> PyErr {
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
    deck_error => "DeckError",
    batch_error => "BatchError",
    batch_type_error => "BatchTypeError",
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

// ---------------------------------------------------------------- cards

/// A playing card: an id `rank * 4 + suit` (2c = 0 … As = 51). Immutable.
#[pyclass(frozen, module = "triple_draw", name = "Card")]
pub struct Card {
    id: u8,
}

fn card_objects(py: Python<'_>) -> &'static [Py<Card>] {
    static CARDS: PyOnceLock<Vec<Py<Card>>> = PyOnceLock::new();
    CARDS.get_or_init(py, || {
        (0..52u8)
            .map(|id| Py::new(py, Card { id }).expect("allocating a Card"))
            .collect()
    })
}

fn card_object(py: Python<'_>, id: u8) -> Py<Card> {
    card_objects(py)[id as usize].clone_ref(py)
}

/// One card from a Card, an int id or a text token.
fn card_id_of(obj: &Bound<'_, PyAny>) -> PyResult<u8> {
    // Plain ints first: they are the hot path of the batch-like callers.
    if obj.is_exact_instance_of::<PyInt>() {
        let v: i64 = obj
            .extract()
            .map_err(|_| card_error(format!("invalid card id {obj}")))?;
        return Ok(check_id(v as i128)?);
    }
    if let Ok(c) = obj.cast_exact::<Card>() {
        return Ok(c.get().id);
    }
    if let Ok(s) = obj.cast::<PyString>() {
        return Ok(cards::parse_token(s.to_str()?.trim())?);
    }
    if !obj.is_instance_of::<PyBool>() && obj.hasattr("__index__")? {
        // Other integers (int subclasses, numpy.uint8, ...) through the index protocol.
        let v: i128 = obj
            .call_method0("__index__")?
            .extract()
            .map_err(|_| card_error(format!("invalid card id {obj}")))?;
        return Ok(check_id(v)?);
    }
    Err(PyTypeError::new_err(format!(
        "expected a card as a str like '7h', an int id 0-51 or a Card, got {}",
        obj.get_type().name()?
    )))
}

/// Card ids from text or from a sequence of cards; duplicates rejected.
fn ids_of(obj: &Bound<'_, PyAny>) -> PyResult<Vec<u8>> {
    if let Ok(s) = obj.cast::<PyString>() {
        return Ok(cards::parse_text(s.to_str()?)?);
    }
    let mut out = Vec::with_capacity(8);
    if let Ok(l) = obj.cast::<PyList>() {
        for item in l.iter() {
            out.push(card_id_of(&item)?);
        }
    } else if let Ok(t) = obj.cast::<PyTuple>() {
        for item in t.iter() {
            out.push(card_id_of(&item)?);
        }
    } else if let Ok(c) = obj.cast::<Card>() {
        out.push(c.get().id);
    } else {
        let iter = obj.try_iter().map_err(|_| {
            PyTypeError::new_err(format!(
                "expected cards as a str or a sequence of cards, got {}",
                obj.get_type()
                    .name()
                    .map(|n| n.to_string())
                    .unwrap_or_default()
            ))
        })?;
        for item in iter {
            out.push(card_id_of(&item?)?);
        }
    }
    check_distinct(&out)?;
    Ok(out)
}

fn five_of(obj: &Bound<'_, PyAny>) -> PyResult<[u8; 5]> {
    let ids = ids_of(obj)?;
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
    fn new(card: &Bound<'_, PyAny>) -> PyResult<Self> {
        Ok(Card {
            id: card_id_of(card)?,
        })
    }

    /// The id, `rank * 4 + suit`.
    #[getter]
    fn id(&self) -> u8 {
        self.id
    }

    /// Rank index: 0 = deuce … 12 = ace.
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

/// Parses cards (text, or a sequence of str/int/Card) into Card objects; rejects duplicates.
#[pyfunction]
fn parse_cards(py: Python<'_>, cards: &Bound<'_, PyAny>) -> PyResult<Vec<Py<Card>>> {
    Ok(ids_of(cards)?
        .into_iter()
        .map(|id| card_object(py, id))
        .collect())
}

/// Card ids as a Python list of ints (a `Vec<u8>` would become `bytes`).
pub(crate) fn id_list<'py>(py: Python<'py>, ids: &[u8]) -> PyResult<Bound<'py, PyList>> {
    PyList::new(py, ids)
}

/// Parses cards (text, or a sequence of str/int/Card) into ids; rejects duplicates.
#[pyfunction]
fn card_ids<'py>(py: Python<'py>, cards: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyList>> {
    id_list(py, &ids_of(cards)?)
}

// ---------------------------------------------------------------- hand ranks

/// A 2-7 hand rank: 1 (7-5-4-3-2 offsuit, the best) … 7462 (royal flush, the worst).
///
/// Ordered like its rank number: `a < b` means `a` beats `b`; equal ranks tie.
#[pyclass(frozen, module = "triple_draw", name = "HandRank")]
pub struct HandRank {
    rank: u16,
}

fn check_rank(rank: i64) -> PyResult<u16> {
    if (1..=eval::NUM_CLASSES as i64).contains(&rank) {
        Ok(rank as u16)
    } else {
        Err(argument_error(format!(
            "hand rank {rank} is out of range 1..=7462"
        )))
    }
}

#[pymethods]
impl HandRank {
    /// A rank is an int (not a bool); anything else, or an int out of 1..=7462, is a
    /// package error (ArgumentTypeError / ArgumentError), never a plain ValueError,
    /// TypeError or OverflowError.
    #[new]
    fn new(rank: &Bound<'_, PyAny>) -> PyResult<Self> {
        let not_int = || -> PyResult<PyErr> {
            Ok(argument_type_error(format!(
                "a hand rank must be an int, got {}",
                rank.get_type().name()?
            )))
        };
        if rank.is_instance_of::<PyBool>() {
            return Err(not_int()?);
        }
        let value = match rank.extract::<i64>() {
            Ok(v) => v,
            Err(_) if rank.is_instance_of::<PyInt>() => {
                return Err(argument_error(
                    "hand rank out of range 1..=7462 (a huge int)",
                ))
            }
            Err(_) => return Err(not_int()?),
        };
        Ok(HandRank {
            rank: check_rank(value)?,
        })
    }

    #[getter]
    fn rank(&self) -> u16 {
        self.rank
    }

    /// "no pair", "one pair", …, "straight flush".
    #[getter]
    fn category(&self) -> &'static str {
        eval::category(self.rank).as_str()
    }

    /// A readable name such as "7-5 low", "nut 8" or "pair of deuces".
    #[getter]
    fn name(&self) -> String {
        eval::name(self.rank)
    }

    /// True when this hand wins against `other` (strictly lower rank).
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
fn hand_rank_object(py: Python<'_>, rank: u16) -> Py<HandRank> {
    static RANKS: PyOnceLock<Vec<Py<HandRank>>> = PyOnceLock::new();
    RANKS.get_or_init(py, || {
        (1..=eval::NUM_CLASSES)
            .map(|rank| Py::new(py, HandRank { rank }).expect("allocating a HandRank"))
            .collect()
    })[rank as usize - 1]
        .clone_ref(py)
}

/// Evaluates exactly five cards.
#[pyfunction]
fn evaluate(py: Python<'_>, cards: &Bound<'_, PyAny>) -> PyResult<Py<HandRank>> {
    Ok(hand_rank_object(py, eval::rank5(five_of(cards)?)))
}

/// The rank (int) of exactly five cards; the fast path for card ids.
#[pyfunction]
fn rank_ids(ids: &Bound<'_, PyAny>) -> PyResult<u16> {
    Ok(eval::rank5(five_of(ids)?))
}

fn thread_pool(n: usize) -> PyResult<Arc<rayon::ThreadPool>> {
    static POOLS: Mutex<Option<HashMap<usize, Arc<rayon::ThreadPool>>>> = Mutex::new(None);
    let mut guard = POOLS.lock().unwrap_or_else(|p| p.into_inner());
    let pools = guard.get_or_insert_with(HashMap::new);
    if let Some(p) = pools.get(&n) {
        return Ok(p.clone());
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(n)
        .build()
        .map_err(|e| pyo3::exceptions::PyRuntimeError::new_err(format!("thread pool: {e}")))?;
    let pool = Arc::new(pool);
    pools.insert(n, pool.clone());
    Ok(pool)
}

/// Checks a `threads` argument: None means every core.
pub(crate) fn resolve_threads(threads: Option<i64>) -> PyResult<usize> {
    match threads {
        None => Ok(std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)),
        Some(n) if (1..=1024).contains(&n) => Ok(n as usize),
        Some(n) => Err(pyo3::exceptions::PyValueError::new_err(format!(
            "threads must be between 1 and 1024, got {n}"
        ))),
    }
}

/// Runs `f` on a pool of `threads` threads (inline when 1).
pub(crate) fn with_threads<R: Send>(threads: usize, f: impl FnOnce() -> R + Send) -> PyResult<R> {
    if threads == 1 {
        Ok(f())
    } else {
        Ok(thread_pool(threads)?.install(f))
    }
}

const BATCH_CHUNK: usize = 1 << 16;

/// Ranks every row of a `(N, 5)` uint8 array of card ids; returns a uint16 array.
#[pyfunction]
#[pyo3(signature = (hands, threads=None))]
fn evaluate_batch<'py>(
    py: Python<'py>,
    hands: &Bound<'py, PyAny>,
    threads: Option<i64>,
) -> PyResult<Bound<'py, PyArray1<u16>>> {
    use rayon::prelude::*;
    let threads = resolve_threads(threads)?;
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
    let ro = arr.readonly();
    let view = ro.as_array();
    let out = PyArray1::<u16>::zeros(py, n, false);
    // SAFETY: `out` was just created here and nothing else can reach it yet.
    let out_slice = unsafe { out.as_slice_mut() }.map_err(|e| batch_type_error(e.to_string()))?;
    let t = eval::tables();
    let contiguous = view.as_slice();
    let first_bad: Option<usize> = py.detach(|| {
        with_threads(threads, || match contiguous {
            Some(flat) => {
                let work = |(k, (rows, outs)): (usize, (&[u8], &mut [u16]))| -> Option<usize> {
                    let mut ok = true;
                    for (row, o) in rows.chunks_exact(5).zip(outs.iter_mut()) {
                        // A bad row still looks up safely; the batch is rejected below.
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
                let chunks = flat
                    .chunks(BATCH_CHUNK * 5)
                    .zip(out_slice.chunks_mut(BATCH_CHUNK));
                if threads == 1 {
                    chunks.enumerate().filter_map(work).next()
                } else {
                    let v: Vec<usize> = flat
                        .par_chunks(BATCH_CHUNK * 5)
                        .zip(out_slice.par_chunks_mut(BATCH_CHUNK))
                        .enumerate()
                        .filter_map(work)
                        .collect();
                    v.into_iter().min()
                }
            }
            None => {
                let mut bad = None;
                for (i, (row, o)) in view.outer_iter().zip(out_slice.iter_mut()).enumerate() {
                    let c = [row[0], row[1], row[2], row[3], row[4]];
                    if !eval::row_is_valid(c) {
                        bad = Some(i / BATCH_CHUNK);
                        break;
                    }
                    *o = t.rank5(c);
                }
                bad
            }
        })
    })?;
    if let Some(chunk) = first_bad {
        // Find and describe the first bad row of the first bad chunk.
        let start = chunk * BATCH_CHUNK;
        for i in start..n.min(start + BATCH_CHUNK) {
            let row = view.row(i);
            let c = [row[0], row[1], row[2], row[3], row[4]];
            if let Err(e) = eval::rank5_checked(c) {
                let what = match e {
                    eval::HandError::BadId(x) => format!("card id {x} is out of range 0..51"),
                    eval::HandError::Duplicate(x) => format!("duplicate card {}", card_text(x)),
                };
                return Err(batch_error(format!("row {i}: {what}: {:?}", c)));
            }
        }
    }
    Ok(out)
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

// ---------------------------------------------------------------- deck

/// The key of an integer seed (little-endian, 0 <= seed < 2**256) or OS entropy for None.
pub(crate) fn key_of_seed(seed: Option<&Bound<'_, PyAny>>) -> PyResult<[u8; 32]> {
    let seed = match seed {
        None => return Ok(deck::Stream::entropy_key()?),
        Some(s) if s.is_none() => return Ok(deck::Stream::entropy_key()?),
        Some(s) => s,
    };
    if seed.is_instance_of::<PyBool>() || !seed.is_instance_of::<PyInt>() {
        return Err(PyTypeError::new_err(format!(
            "seed must be an int or None, got {}",
            seed.get_type().name()?
        )));
    }
    if seed.lt(0)? {
        return Err(deck_error(format!("seed must be >= 0, got {seed}")));
    }
    let bytes = seed
        .call_method1("to_bytes", (32, "little"))
        .map_err(|_| deck_error(format!("seed must be < 2**256, got {seed}")))?;
    let bytes: Vec<u8> = bytes.extract()?;
    let mut key = [0u8; 32];
    key.copy_from_slice(&bytes);
    Ok(key)
}

/// A deck of cards shuffled by a seeded ChaCha12 stream (see the README for the exact
/// algorithm). `Deck(seed)` is reproducible everywhere; `Deck()` uses OS entropy.
#[pyclass(module = "triple_draw", name = "Deck")]
pub struct Deck {
    inner: deck::Deck,
}

fn hex(key: &[u8; 32]) -> String {
    key.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(s: &str) -> Option<[u8; 32]> {
    if s.len() != 64 || !s.is_ascii() {
        return None;
    }
    let mut key = [0u8; 32];
    for (i, k) in key.iter_mut().enumerate() {
        *k = u8::from_str_radix(&s[2 * i..2 * i + 2], 16).ok()?;
    }
    Some(key)
}

#[pymethods]
impl Deck {
    #[new]
    #[pyo3(signature = (seed=None))]
    fn new(seed: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        Ok(Deck {
            inner: deck::Deck::new(key_of_seed(seed)?),
        })
    }

    /// A deck whose stub is exactly `order` (dealt first to last); the seeded stream is
    /// used only by later reshuffles.
    #[staticmethod]
    #[pyo3(signature = (order, seed=None))]
    fn stacked(order: &Bound<'_, PyAny>, seed: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        let ids = ids_of(order)?;
        Ok(Deck {
            inner: deck::Deck::stacked(&ids, key_of_seed(seed)?)?,
        })
    }

    /// Deals `n` cards from the stub.
    fn deal(&mut self, py: Python<'_>, n: &Bound<'_, PyAny>) -> PyResult<Vec<Py<Card>>> {
        Ok(self
            .deal_slice(n)?
            .iter()
            .map(|&id| card_object(py, id))
            .collect())
    }

    /// Deals `n` card ids from the stub.
    fn deal_ids<'py>(
        &mut self,
        py: Python<'py>,
        n: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyList>> {
        id_list(py, self.deal_slice(n)?)
    }

    /// Shuffles `cards` together with the rest of the stub into a new stub.
    fn reshuffle(&mut self, cards: &Bound<'_, PyAny>) -> PyResult<()> {
        let ids = ids_of(cards)?;
        Ok(self.inner.reshuffle(&ids)?)
    }

    /// The stub in deal order (for tests and persistence; never show it to players).
    fn stub_ids<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        id_list(py, self.inner.stub())
    }

    /// The full state as a JSON-ready dict: key (hex), stream word position and stub.
    fn get_state<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("key", hex(&self.inner.stream().key()))?;
        d.set_item("word_pos", self.inner.stream().word_pos())?;
        d.set_item("stub", id_list(py, self.inner.stub())?)?;
        Ok(d)
    }

    /// Rebuilds a deck from `get_state()`.
    #[staticmethod]
    fn from_state(state: &Bound<'_, PyAny>) -> PyResult<Self> {
        let d = state
            .cast::<PyDict>()
            .map_err(|_| deck_error("deck state must be a dict with key, word_pos and stub"))?;
        for k in d.keys() {
            let k: String = k.extract().unwrap_or_default();
            if !matches!(k.as_str(), "key" | "word_pos" | "stub") {
                return Err(deck_error(format!("deck state has an unknown field {k:?}")));
            }
        }
        let field = |name: &str| -> PyResult<Bound<'_, PyAny>> {
            d.get_item(name)?
                .ok_or_else(|| deck_error(format!("deck state lacks the field {name:?}")))
        };
        let key_s: String = field("key")?
            .extract()
            .map_err(|_| deck_error("deck state field \"key\" must be a str of 64 hex digits"))?;
        let key = unhex(&key_s)
            .ok_or_else(|| deck_error("deck state field \"key\" must be a str of 64 hex digits"))?;
        let word_pos_obj = field("word_pos")?;
        let bad_pos = || deck_error("deck state field \"word_pos\" must be an int >= 0");
        if word_pos_obj.is_instance_of::<PyBool>() {
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
            return Err(bad_stub(format!("{item:?} is not an int")));
        }
        let stub = ids_of(&stub_obj).map_err(|e| bad_stub(e.to_string()))?;
        Ok(Deck {
            inner: deck::Deck::from_state(key, word_pos, &stub)?,
        })
    }

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
        if n.is_instance_of::<PyBool>() || !n.is_instance_of::<PyInt>() {
            return Err(PyTypeError::new_err(format!(
                "the number of cards to deal must be an int, got {}",
                n.get_type().name()?
            )));
        }
        if n.lt(0)? {
            return Err(deck_error(format!(
                "cannot deal a negative number of cards ({n})"
            )));
        }
        // Anything beyond usize is certainly more than the stub holds.
        let n: usize = n.extract().unwrap_or(usize::MAX);
        Ok(self.inner.deal(n)?)
    }
}

// ---------------------------------------------------------------- module

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("NUM_CLASSES", eval::NUM_CLASSES)?;
    let categories: Vec<&str> = eval::Category::ALL.iter().map(|c| c.as_str()).collect();
    m.add("CATEGORIES", PyTuple::new(m.py(), categories)?)?;
    m.add_class::<Card>()?;
    m.add_class::<HandRank>()?;
    m.add_class::<Deck>()?;
    m.add_function(wrap_pyfunction!(parse_cards, m)?)?;
    m.add_function(wrap_pyfunction!(card_ids, m)?)?;
    m.add_function(wrap_pyfunction!(evaluate, m)?)?;
    m.add_function(wrap_pyfunction!(rank_ids, m)?)?;
    m.add_function(wrap_pyfunction!(evaluate_batch, m)?)?;
    crate::py_analysis::register(m)?;
    crate::py_bots::register(m)?;
    // Build the evaluator tables at import, not inside the first timed call.
    let _ = eval::tables();
    let _ = hand_rank_object(m.py(), 1);
    let _ = card_object(m.py(), 0);
    Ok(())
}
