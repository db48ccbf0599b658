//! `ViewCache`: what one seat may see of a hand (`Hand.view`), built in the compiled core.
//!
//! The same algorithm as the pure-Python `triple_draw.game.view.ViewCache` (the reference
//! the parity tests hold this one to): the engine only appends to its log, so the cache
//! follows the log and takes in only the entries appended since the last view — the
//! public history entries (entries without cards shared across hands), the player record
//! of each seat an entry names (and of the seats whose shown bet changed with the phase),
//! each seat's own discards and draws — and keeps each seat's view until the log grows.
//!
//! The views are the Python layer's read-only containers (`FrozenDict`, `FrozenList`),
//! filled through the C API (their Python-level mutators, which raise, are not called).
//! What the Python layer owns — those classes, the card texts, the shared entry cache,
//! the betting actions and the hand's result — comes from `_COMPILED_SUPPORT` in
//! `triple_draw.game.view`.
//!
//! Threads: the state sits behind a mutex; a thread that finds it held waits with the GIL
//! released, so views of one hand may be taken from several threads at once.

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBool, PyDict, PyInt, PyList, PyString, PyTuple, PyType};
use pyo3::{intern, PyTypeInfo};
use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard};

use super::errors::{argument_error, guarded};

/// The names of the hand's fields the views read, as the Python layer declares them
/// (`HandFields` in `triple_draw.game.view`): no private name of the hand is written here.
pub(crate) struct Fields {
    n: Py<PyString>,
    rules: Py<PyString>,
    button: Py<PyString>,
    pub(crate) small_blind: Py<PyString>,
    pub(crate) big_blind: Py<PyString>,
    log: Py<PyString>,
    pub(crate) live: Py<PyString>,
    pub(crate) stacks: Py<PyString>,
    pub(crate) total: Py<PyString>,
    pub(crate) hands: Py<PyString>,
    pub(crate) draws: Py<PyString>,
    phase: Py<PyString>,
    pub(crate) street: Py<PyString>,
    pub(crate) bets: Py<PyString>,
    showdown: Py<PyString>,
    pub(crate) actor: Py<PyString>,
    pub(crate) level: Py<PyString>,
    to_act: Py<PyString>,
    pub(crate) full_bets: Py<PyString>,
    full_level: Py<PyString>,
    unit: Py<PyString>,
    pub(crate) in_draw: Py<PyString>,
}

impl Fields {
    fn of(f: &Bound<'_, PyAny>) -> PyResult<Self> {
        let py = f.py();
        // each name interned: the hand's attributes are looked up by these very strings
        let name = |role: &str| -> PyResult<Py<PyString>> {
            let v = f.getattr(role)?;
            Ok(PyString::intern(py, v.cast::<PyString>()?.to_str()?).unbind())
        };
        Ok(Fields {
            n: name("n")?,
            rules: name("rules")?,
            button: name("button")?,
            small_blind: name("small_blind")?,
            big_blind: name("big_blind")?,
            log: name("log")?,
            live: name("live")?,
            stacks: name("stacks")?,
            total: name("total")?,
            hands: name("hands")?,
            draws: name("draws")?,
            phase: name("phase")?,
            street: name("street")?,
            bets: name("bets")?,
            showdown: name("showdown")?,
            actor: name("actor")?,
            level: name("level")?,
            to_act: name("to_act")?,
            full_bets: name("full_bets")?,
            full_level: name("full_level")?,
            unit: name("unit")?,
            in_draw: name("in_draw")?,
        })
    }
}

/// Where each field of a log entry sits in its tuple, as the Python layer declares it
/// (`LogLayout` in `triple_draw.game.events`): no position is written here.
struct LogLayout {
    kind: usize,
    seat: usize,
    amount: usize,
    cards: usize,
}

impl LogLayout {
    fn of(l: &Bound<'_, PyAny>) -> PyResult<Self> {
        let at = |field: &str| -> PyResult<usize> { l.getattr(field)?.extract() };
        Ok(LogLayout {
            kind: at("kind")?,
            seat: at("seat")?,
            amount: at("amount")?,
            cards: at("cards")?,
        })
    }
}

/// What the Python layer provides (see the module docs).
struct Support {
    frozen_dict: Py<PyType>,
    frozen_list: Py<PyType>,
    card_text: Vec<Py<PyAny>>,
    phases: Vec<Py<PyAny>>,
    version: Py<PyAny>,
    entries: Py<PyDict>,
    legal_dicts: Py<PyAny>,
    result_of: Py<PyAny>,
    stakes_of: Py<PyAny>,
    discard_actions: Py<PyAny>,
    empty: Py<PyAny>,
    entries_max: usize,
    /// the phase codes of a betting round and of a hand that is over, and the to-act
    /// state of a seat that may still raise
    bet: i64,
    over: i64,
    may_raise: i64,
    /// the log's kinds: those that start a round or a draw, those whose cards are
    /// counted only, and of these the seat's own (his discards and draws)
    phase_marks: Vec<String>,
    count_only: Vec<String>,
    discard: String,
    draw: String,
    /// where a log entry's kind, seat, amount and cards sit in its tuple (`LogLayout`)
    at: LogLayout,
    /// the names of the hand's fields
    f: Fields,
    round_action: Py<PyAny>,
    /// plain dicts with the keys of a view and of a player record, in order: a new one is
    /// a copy of these (one block copy, no resizing) with the values set
    view_keys: Py<PyDict>,
    record_keys: Py<PyDict>,
}

static SUPPORT: PyOnceLock<Support> = PyOnceLock::new();

/// The names of the hand's fields as the Python layer declares them (`HandFields`), for
/// the other compiled code that reads a hand (the batched environment's learner loop).
pub(crate) fn hand_fields(py: Python<'_>) -> PyResult<&'static Fields> {
    Ok(&support(py)?.f)
}

/// `betting.round_action`, the reader of the hand's public record of the round's bets,
/// for the batched environment's learner loop.
pub(crate) fn round_action(py: Python<'_>) -> PyResult<&'static Py<PyAny>> {
    Ok(&support(py)?.round_action)
}

fn support(py: Python<'_>) -> PyResult<&'static Support> {
    SUPPORT.get_or_try_init(py, || {
        // a named record (`CompiledSupport`): read by field name, never by position
        let t = py
            .import("triple_draw.game.view")?
            .getattr("_COMPILED_SUPPORT")?;
        let get = |name: &str| t.getattr(name);
        Ok::<_, PyErr>(Support {
            frozen_dict: get("frozen_dict")?.cast_into::<PyType>()?.unbind(),
            frozen_list: get("frozen_list")?.cast_into::<PyType>()?.unbind(),
            card_text: get("card_text")?.extract()?,
            phases: get("phases")?.extract()?,
            version: get("version")?.unbind(),
            entries: get("entries")?.cast_into::<PyDict>()?.unbind(),
            legal_dicts: get("legal_dicts")?.unbind(),
            result_of: get("result_of")?.unbind(),
            stakes_of: get("stakes_of")?.unbind(),
            discard_actions: get("discard_actions")?.unbind(),
            empty: get("empty")?.unbind(),
            entries_max: get("entries_max")?.extract()?,
            bet: get("bet")?.extract()?,
            over: get("over")?.extract()?,
            may_raise: get("may_raise")?.extract()?,
            phase_marks: get("phase_marks")?.extract()?,
            count_only: get("count_only")?.extract()?,
            discard: get("discard")?.extract()?,
            draw: get("draw")?.extract()?,
            at: LogLayout::of(&get("log_layout")?)?,
            f: Fields::of(&get("fields")?)?,
            round_action: get("round_action")?.unbind(),
            view_keys: keys(py, VIEW_KEYS)?,
            record_keys: keys(py, RECORD_KEYS)?,
        })
    })
}

const VIEW_KEYS: &[&str] = &[
    "schema_version",
    "seat",
    "n_players",
    "button",
    "small_blind_seat",
    "big_blind_seat",
    "stakes",
    "phase",
    "street",
    "actor",
    "pot",
    "bet_level",
    "hole_cards",
    "own_draws",
    "players",
    "history",
    "legal_actions",
    "result",
];
const RECORD_KEYS: &[&str] = &[
    "seat",
    "stack",
    "bet",
    "committed",
    "folded",
    "all_in",
    "cards",
    "draws",
    "shown",
];

fn keys(py: Python<'_>, names: &[&str]) -> PyResult<Py<PyDict>> {
    let d = PyDict::new(py);
    for k in names {
        d.set_item(PyString::intern(py, k), py.None())?;
    }
    Ok(d.unbind())
}

/// A new, empty instance of `ty` (a subclass of dict or list that adds no state and no
/// `__init__`) made by its `tp_new` alone: what calling the class does, without the
/// call's argument tuple and `__init__` (which would only fill it from arguments).
fn empty_of<'py>(py: Python<'py>, ty: &Py<PyType>) -> PyResult<Bound<'py, PyAny>> {
    // SAFETY: `ty` is a live type object; its `tp_new` slot (inherited from dict or list)
    // takes (type, args tuple, kwargs or NULL) and returns a new reference or NULL with an
    // exception set. The GIL is held.
    unsafe {
        let t = ty.as_ptr().cast::<pyo3::ffi::PyTypeObject>();
        let slot = pyo3::ffi::PyType_GetSlot(t, pyo3::ffi::Py_tp_new);
        if slot.is_null() {
            return ty.bind(py).call0();
        }
        let new: pyo3::ffi::newfunc = std::mem::transmute(slot);
        let args = PyTuple::empty(py);
        Bound::from_owned_ptr_or_err(py, new(t, args.as_ptr(), std::ptr::null_mut()))
    }
}

impl Support {
    /// A new frozen dict with the keys and values of `keys` (a clean plain dict: copied
    /// as one block), values to be set with [`put`].
    fn dict_of<'py>(&self, py: Python<'py>, keys: &Py<PyDict>) -> PyResult<Bound<'py, PyDict>> {
        let d = empty_of(py, &self.frozen_dict)?.cast_into::<PyDict>()?;
        // SAFETY: both are live dicts; the GIL is held.
        if unsafe { pyo3::ffi::PyDict_Merge(d.as_ptr(), keys.as_ptr(), 1) } < 0 {
            return Err(PyErr::fetch(py));
        }
        Ok(d)
    }

    fn dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        Ok(empty_of(py, &self.frozen_dict)?.cast_into::<PyDict>()?)
    }

    /// A new frozen list holding the items of the plain list `items`.
    fn list_of<'py>(
        &self,
        py: Python<'py>,
        items: &Bound<'py, PyList>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let l = empty_of(py, &self.frozen_list)?;
        // SAFETY: `l` is a new, empty list (a subclass adding no state), `items` a live list.
        if unsafe { pyo3::ffi::PyList_SetSlice(l.as_ptr(), 0, 0, items.as_ptr()) } < 0 {
            return Err(PyErr::fetch(py));
        }
        Ok(l)
    }

    fn list<'py>(&self, py: Python<'py>, items: &[Py<PyAny>]) -> PyResult<Bound<'py, PyAny>> {
        self.list_of(py, &PyList::new(py, items)?)
    }

    /// The cards as a frozen list of their texts.
    fn text<'py>(&self, py: Python<'py>, cards: &[i64]) -> PyResult<Bound<'py, PyAny>> {
        let l = empty_of(py, &self.frozen_list)?;
        for &c in cards {
            let t = usize::try_from(c)
                .ok()
                .and_then(|c| self.card_text.get(c))
                .ok_or_else(|| argument_error(format!("not a card id in the hand's log: {c}")))?;
            // SAFETY: `l` is a list, `t` a live object; the GIL is held.
            if unsafe { pyo3::ffi::PyList_Append(l.as_ptr(), t.as_ptr()) } < 0 {
                return Err(PyErr::fetch(py));
            }
        }
        Ok(l)
    }
}

/// `d[k] = v` through the C API (borrowed references: no reference count changes here).
fn put(d: &Bound<'_, PyDict>, k: &Bound<'_, PyString>, v: &Bound<'_, PyAny>) -> PyResult<()> {
    // SAFETY: three live objects held by the caller, `d` a dict; the GIL is held.
    if unsafe { pyo3::ffi::PyDict_SetItem(d.as_ptr(), k.as_ptr(), v.as_ptr()) } < 0 {
        return Err(PyErr::fetch(d.py()));
    }
    Ok(())
}

/// `d[k] = n` for an int `n`.
fn put_int(d: &Bound<'_, PyDict>, k: &Bound<'_, PyString>, n: i64) -> PyResult<()> {
    put(d, k, n.into_pyobject(d.py())?.as_any())
}

/// The view dicts of the betting actions of each situation seen: `(call_to, raise_to)`
/// (`call_to` -1 when nobody has bet this round) to the frozen list (bounded).
static LEGAL: Mutex<Option<LegalCache>> = Mutex::new(None);
type LegalCache = HashMap<(i64, i64), Py<PyAny>>;
const LEGAL_MAX: usize = 4096;

/// One log entry, its fields read where `LogLayout` says they sit.
struct Entry<'py> {
    kind: Bound<'py, PyAny>,
    who: Option<usize>,
    amount: Bound<'py, PyAny>,
    cards: Option<Vec<i64>>,
}

/// The history entry of a log entry: its kind, seat and amount (a new frozen dict, to
/// which a count or cards may still be added).
fn entry_dict<'py>(py: Python<'py>, sup: &Support, e: &Entry<'py>) -> PyResult<Bound<'py, PyDict>> {
    let d = sup.dict(py)?;
    put(&d, intern!(py, "kind"), &e.kind)?;
    if let Some(w) = e.who {
        put_int(&d, intern!(py, "seat"), w as i64)?;
    }
    if !e.amount.is_none() {
        put(&d, intern!(py, "amount"), &e.amount)?;
    }
    Ok(d)
}

fn entry<'py>(at: &LogLayout, e: &Bound<'py, PyAny>) -> PyResult<Entry<'py>> {
    let t = e.cast::<PyTuple>()?;
    let who = t.get_item(at.seat)?;
    let cards = t.get_item(at.cards)?;
    Ok(Entry {
        kind: t.get_item(at.kind)?,
        who: if who.is_none() {
            None
        } else {
            Some(who.extract()?)
        },
        amount: t.get_item(at.amount)?,
        cards: if cards.is_none() {
            None
        } else {
            let c = cards.cast::<PyTuple>()?;
            let mut ids = Vec::with_capacity(c.len());
            for x in c.iter() {
                ids.push(x.extract::<i64>()?);
            }
            Some(ids)
        },
    })
}

/// The ints of a list (the hand's per-seat lists), item by item.
fn ints(obj: &Bound<'_, PyAny>) -> PyResult<Vec<i64>> {
    let l = obj.cast::<PyList>()?;
    let mut out = Vec::with_capacity(l.len());
    for i in 0..l.len() {
        out.push(l.get_item(i)?.extract()?);
    }
    Ok(out)
}

/// What a player record shows.
#[derive(Clone, Copy, PartialEq, Eq)]
struct RecordKey {
    stack: i64,
    bet: i64,
    committed: i64,
    live: bool,
    all_in: bool,
    cards: usize,
    draws: usize,
    shown: bool,
}

#[derive(Default)]
struct State {
    log: Option<Py<PyAny>>,
    rules: Option<Py<PyAny>>,
    n: usize,
    /// log entries taken in; -1: nothing yet (not even the empty log)
    pos: isize,
    /// the public history entries, frozen
    entries: Vec<Py<PyAny>>,
    /// per seat: the history as he sees it, brought up to date when he is viewed, and
    /// his own entries not yet put in it
    hist: Vec<Py<PyList>>,
    pending: Vec<Vec<(usize, Py<PyAny>)>>,
    /// per seat: how many draws the hand's record of his draw counts (`_draws[seat]`, a
    /// tuple replaced at each of his discards) held when `drawn[seat]`, its view list, was
    /// built from it, or `None` when it is to be read again (a discard of his since)
    draws: Vec<Option<usize>>,
    drawn: Vec<Py<PyAny>>,
    /// per seat: the player record, and the bet it shows
    records: Option<Py<PyList>>,
    /// per seat: the values his record was built from (rebuilt only when they change)
    record_key: Vec<Option<RecordKey>>,
    players: Option<Py<PyAny>>,
    phase: i64,
    street: i64,
    views: Vec<Option<Py<PyAny>>>,
    result: Option<Py<PyAny>>,
    /// per seat: his cards as ids and as the view's list
    hole: Vec<(Vec<i64>, Py<PyAny>)>,
    /// per seat: his draws so far as (discarded text, record), and as ``own_draws``
    own_raw: Vec<Vec<(Py<PyAny>, Py<PyAny>)>>,
    own_draws: Vec<Py<PyAny>>,
    /// the hand's per-seat lists that are never replaced during a hand (HandState:
    /// ``_live``, ``_stacks``, ``_total``, ``_hands``, ``_draws``), read in place
    lists: Option<[Py<PyList>; 5]>,
    /// per seat: the keys of his view with the values fixed for the hand set, and the
    /// keys of his player record with his seat set
    view_keys: Vec<Py<PyDict>>,
    record_keys: Vec<Py<PyDict>>,
}

impl State {
    fn reset(&mut self, py: Python<'_>, sup: &Support, h: &Bound<'_, PyAny>) -> PyResult<()> {
        let n: usize = h.getattr(sup.f.n.bind(py))?.extract()?;
        let rules = h.getattr(sup.f.rules.bind(py))?;
        let empty = || sup.empty.clone_ref(py);
        let stakes = sup.stakes_of.bind(py).call1((&rules,))?;
        let button = h.getattr(sup.f.button.bind(py))?;
        let sb = h.getattr(sup.f.small_blind.bind(py))?;
        let bb = h.getattr(sup.f.big_blind.bind(py))?;
        let list = |name: &Bound<'_, PyString>| -> PyResult<Py<PyList>> {
            Ok(h.getattr(name)?.cast_into::<PyList>()?.unbind())
        };
        let lists = [
            list(sup.f.live.bind(py))?,
            list(sup.f.stacks.bind(py))?,
            list(sup.f.total.bind(py))?,
            list(sup.f.hands.bind(py))?,
            list(sup.f.draws.bind(py))?,
        ];
        let mut view_keys = Vec::with_capacity(n);
        let mut record_keys = Vec::with_capacity(n);
        for seat in 0..n {
            let v = sup.view_keys.bind(py).copy()?;
            put(&v, intern!(py, "schema_version"), sup.version.bind(py))?;
            put_int(&v, intern!(py, "seat"), seat as i64)?;
            put_int(&v, intern!(py, "n_players"), n as i64)?;
            put(&v, intern!(py, "button"), &button)?;
            put(&v, intern!(py, "small_blind_seat"), &sb)?;
            put(&v, intern!(py, "big_blind_seat"), &bb)?;
            put(&v, intern!(py, "stakes"), &stakes)?;
            view_keys.push(v.unbind());
            let r = sup.record_keys.bind(py).copy()?;
            put_int(&r, intern!(py, "seat"), seat as i64)?;
            record_keys.push(r.unbind());
        }
        *self = State {
            log: Some(h.getattr(sup.f.log.bind(py))?.unbind()),
            view_keys,
            record_keys,
            lists: Some(lists),
            rules: Some(rules.unbind()),
            n,
            pos: -1,
            hist: (0..n).map(|_| PyList::empty(py).unbind()).collect(),
            pending: (0..n).map(|_| Vec::new()).collect(),
            draws: (0..n).map(|_| None).collect(),
            drawn: (0..n).map(|_| empty()).collect(),
            records: Some(PyList::new(py, (0..n).map(|_| empty()))?.unbind()),
            record_key: vec![None; n],
            players: Some(empty()),
            phase: -1,
            street: -1,
            views: (0..n).map(|_| None).collect(),
            hole: (0..n).map(|_| (Vec::new(), empty())).collect(),
            own_raw: (0..n).map(|_| Vec::new()).collect(),
            own_draws: (0..n).map(|_| empty()).collect(),
            ..State::default()
        };
        Ok(())
    }

    /// The hand's `_live`, `_stacks`, `_total`, `_hands` and `_draws` lists.
    fn lists<'py>(&self, py: Python<'py>) -> PyResult<[Bound<'py, PyList>; 5]> {
        let l = self
            .lists
            .as_ref()
            .ok_or_else(|| argument_error("view cache not set up"))?;
        Ok([
            l[0].bind(py).clone(),
            l[1].bind(py).clone(),
            l[2].bind(py).clone(),
            l[3].bind(py).clone(),
            l[4].bind(py).clone(),
        ])
    }

    /// Whether this state follows the hand `h` (its log list, not shorter than what was
    /// taken in, and its rules object).
    fn follows(
        &self,
        py: Python<'_>,
        sup: &Support,
        h: &Bound<'_, PyAny>,
        log: &Bound<'_, PyList>,
    ) -> PyResult<bool> {
        let (Some(mine), Some(rules)) = (&self.log, &self.rules) else {
            return Ok(false);
        };
        Ok(mine.bind(py).is(log)
            && self.pos <= log.len() as isize
            && rules.bind(py).is(&h.getattr(sup.f.rules.bind(py))?))
    }

    fn update(
        &mut self,
        py: Python<'_>,
        sup: &Support,
        h: &Bound<'_, PyAny>,
        log: &Bound<'_, PyList>,
    ) -> PyResult<()> {
        let n = self.n;
        let end = log.len();
        let mut every = self.pos < 0;
        let mut named: Vec<usize> = Vec::new();
        let start = self.pos.max(0) as usize;
        let cache = sup.entries.bind(py);
        for i in start..end {
            let raw = log.get_item(i)?;
            let e = entry(&sup.at, &raw)?;
            let kind_str = e.kind.cast::<PyString>()?;
            let kind: &str = kind_str.to_str()?;
            if let Some(w) = e.who {
                if w >= n {
                    return Err(argument_error(format!("seat {w} in the hand's log")));
                }
                named.push(w);
            } else if !sup.phase_marks.iter().any(|k| k == kind) {
                every = true;
            }
            let Some(cards) = e.cards.as_deref() else {
                // no cards: the same entry for every hand (shared)
                let fe = match cache.get_item(&raw)? {
                    Some(fe) => fe,
                    None => {
                        let d = entry_dict(py, sup, &e)?;
                        if cache.len() < sup.entries_max {
                            cache.set_item(&raw, &d)?;
                        }
                        d.into_any()
                    }
                };
                self.entries.push(fe.unbind());
                continue;
            };
            let d = entry_dict(py, sup, &e)?;
            let count_only = sup.count_only.iter().any(|k| k == kind);
            if count_only {
                put_int(&d, intern!(py, "count"), cards.len() as i64)?;
                self.entries.push(d.clone().into_any().unbind());
                let discard = kind == sup.discard;
                if let (Some(w), true) = (e.who, discard || kind == sup.draw) {
                    if discard {
                        self.draws[w] = None; // his record of draw counts grew
                    }
                    self.take_own(py, sup, i, discard, w, &d, cards)?;
                }
            } else {
                // "show": public
                put(&d, intern!(py, "cards"), &sup.text(py, cards)?)?;
                self.entries.push(d.into_any().unbind());
            }
        }
        let phase: i64 = h.getattr(sup.f.phase.bind(py))?.extract()?;
        let street: i64 = h.getattr(sup.f.street.bind(py))?.extract()?;
        if phase != self.phase || street != self.street {
            // a new round or draw changes the records only through the bets shown; the
            // end of the hand (or the first update) may change every field
            self.phase = phase;
            self.street = street;
            if phase == sup.over {
                every = true;
            } else if !every {
                let bets = ints(&h.getattr(sup.f.bets.bind(py))?)?;
                for (j, &b) in bets.iter().enumerate().take(n) {
                    let shown = if phase == sup.bet { b } else { 0 };
                    if self.record_key[j].is_none_or(|k| k.bet != shown) {
                        named.push(j);
                    }
                }
            }
        }
        if every || !named.is_empty() {
            // (the draw counts: the hand's public record of them)
            let [live, stacks, total, hands, draws] = self.lists(py)?;
            let bets = if phase == sup.bet {
                Some(h.getattr(sup.f.bets.bind(py))?.cast_into::<PyList>()?)
            } else {
                None
            };
            let not_over = phase != sup.over;
            let mut shown = vec![false; n];
            let showdown = if phase == sup.over {
                h.getattr(sup.f.showdown.bind(py))?
            } else {
                py.None().into_bound(py) // no showdown before the end
            };
            if !showdown.is_none() {
                for pair in showdown.try_iter()? {
                    let (j, ok): (usize, bool) = pair?.extract()?;
                    if j < n {
                        shown[j] = ok;
                    }
                }
            }
            let seats: Vec<usize> = if every { (0..n).collect() } else { named };
            let records = self.records.as_ref().map(|r| r.bind(py).clone());
            let records = records.ok_or_else(|| argument_error("view cache not set up"))?;
            let mut changed = false;
            for j in seats {
                let lv = live.get_item(j)?.is_truthy()?;
                let x: i64 = stacks.get_item(j)?.extract()?;
                let bet: i64 = match &bets {
                    Some(b) => b.get_item(j)?.extract()?,
                    None => 0,
                };
                let held = hands.get_item(j)?;
                let held_n = held.len()?;
                let committed: i64 = total.get_item(j)?.extract()?;
                let drew = match self.draws[j] {
                    Some(k) => k,
                    None => {
                        let d = draws.get_item(j)?.cast_into::<PyTuple>()?;
                        let counts: Vec<Py<PyAny>> = d.iter().map(Bound::unbind).collect();
                        self.drawn[j] = sup.list(py, &counts)?.unbind();
                        self.draws[j] = Some(d.len());
                        d.len()
                    }
                };
                let key = RecordKey {
                    stack: x,
                    bet,
                    committed,
                    live: lv,
                    all_in: lv && x == 0 && not_over,
                    cards: if lv { held_n } else { 0 },
                    draws: drew,
                    shown: shown[j],
                };
                if self.record_key[j] == Some(key) {
                    continue; // the same record (a check, say)
                }
                self.record_key[j] = Some(key);
                changed = true;
                let r = sup.dict_of(py, &self.record_keys[j])?;
                put_int(&r, intern!(py, "stack"), x)?;
                put_int(&r, intern!(py, "bet"), bet)?;
                put_int(&r, intern!(py, "committed"), committed)?;
                put(&r, intern!(py, "folded"), PyBool::new(py, !lv).as_any())?;
                put(
                    &r,
                    intern!(py, "all_in"),
                    PyBool::new(py, key.all_in).as_any(),
                )?;
                put_int(&r, intern!(py, "cards"), key.cards as i64)?;
                put(&r, intern!(py, "draws"), self.drawn[j].bind(py))?;
                if shown[j] {
                    put(&r, intern!(py, "shown"), &sup.text(py, &ints(&held)?)?)?;
                }
                records.set_item(j, r)?;
            }
            if changed {
                self.players = Some(sup.list_of(py, &records)?.unbind());
            }
        }
        if end as isize != self.pos {
            for v in self.views.iter_mut() {
                *v = None;
            }
            if phase == sup.over && self.result.is_none() {
                self.result = Some(sup.result_of.bind(py).call1((h,))?.unbind());
            }
        }
        self.pos = end as isize;
        Ok(())
    }

    /// Log entry `i`, a discard or draw of seat `who` (`d`: its public entry, with the
    /// count only): its cards are his own information.
    #[allow(clippy::too_many_arguments)]
    fn take_own(
        &mut self,
        py: Python<'_>,
        sup: &Support,
        i: usize,
        discard: bool,
        who: usize,
        d: &Bound<'_, PyDict>,
        cards: &[i64],
    ) -> PyResult<()> {
        let text = sup.text(py, cards)?;
        let fe = sup.dict(py)?;
        // SAFETY: both are live dicts; the GIL is held.
        if unsafe { pyo3::ffi::PyDict_Merge(fe.as_ptr(), d.as_ptr(), 1) } < 0 {
            return Err(PyErr::fetch(py));
        }
        put(&fe, intern!(py, "cards"), &text)?;
        self.pending[who].push((i, fe.into_any().unbind()));
        let raw = &mut self.own_raw[who];
        if discard {
            let r = sup.dict(py)?;
            put(&r, intern!(py, "discarded"), &text)?;
            if cards.is_empty() {
                put(&r, intern!(py, "received"), sup.empty.bind(py))?;
            } else {
                put(&r, intern!(py, "received"), py.None().bind(py))?;
            }
            raw.push((text.unbind(), r.into_any().unbind()));
        } else if let Some(last) = raw.last_mut() {
            let r = sup.dict(py)?;
            put(&r, intern!(py, "discarded"), last.0.bind(py))?;
            put(&r, intern!(py, "received"), &text)?;
            last.1 = r.into_any().unbind();
        }
        let records: Vec<Py<PyAny>> = raw.iter().map(|(_, r)| r.clone_ref(py)).collect();
        self.own_draws[who] = sup.list(py, &records)?.unbind();
        Ok(())
    }

    fn build(
        &mut self,
        py: Python<'_>,
        sup: &Support,
        h: &Bound<'_, PyAny>,
        seat: usize,
    ) -> PyResult<Py<PyAny>> {
        if let Some(v) = &self.views[seat] {
            return Ok(v.clone_ref(py));
        }
        let phase = self.phase;
        let actor = h.getattr(sup.f.actor.bind(py))?;
        let is_actor = !actor.is_none() && actor.extract::<usize>()? == seat;
        let legal = if !is_actor {
            sup.empty.bind(py).clone()
        } else if phase == sup.bet {
            legal_dicts(py, sup, h, seat)?
        } else {
            sup.discard_actions.bind(py).clone()
        };
        let [live, _, total, hands, _] = self.lists(py)?;
        let mut pot: i64 = 0;
        for x in total.iter() {
            pot += x.extract::<i64>()?;
        }
        let hole = if live.get_item(seat)?.is_truthy()? {
            let held = hands.get_item(seat)?;
            let held = held.cast::<PyList>()?;
            let cached = &self.hole[seat].0;
            let mut same = held.len() == cached.len();
            if same {
                for (i, &c) in cached.iter().enumerate() {
                    if held.get_item(i)?.extract::<i64>()? != c {
                        same = false;
                        break;
                    }
                }
            }
            if !same {
                let ids = ints(held.as_any())?;
                let text = sup.text(py, &ids)?.unbind();
                self.hole[seat] = (ids, text);
            }
            self.hole[seat].1.clone_ref(py)
        } else {
            sup.empty.clone_ref(py)
        };
        // his history: the public one, with his own discards and draws
        let mine = self.hist[seat].bind(py);
        if mine.len() != self.entries.len() {
            for e in &self.entries[mine.len()..] {
                mine.append(e.bind(py))?;
            }
            for (i, e) in self.pending[seat].drain(..) {
                mine.set_item(i, e)?;
            }
        }
        let history = sup.list_of(py, mine)?;
        let phase_name = usize::try_from(phase)
            .ok()
            .and_then(|p| sup.phases.get(p))
            .ok_or_else(|| argument_error(format!("not a phase: {phase}")))?;
        let v = sup.dict_of(py, &self.view_keys[seat])?;
        put(&v, intern!(py, "phase"), phase_name.bind(py))?;
        put_int(&v, intern!(py, "street"), self.street)?;
        put(&v, intern!(py, "actor"), &actor)?;
        put_int(&v, intern!(py, "pot"), pot)?;
        if phase == sup.bet {
            put(
                &v,
                intern!(py, "bet_level"),
                &h.getattr(sup.f.level.bind(py))?,
            )?;
        } else {
            put_int(&v, intern!(py, "bet_level"), 0)?;
        }
        put(&v, intern!(py, "hole_cards"), hole.bind(py))?;
        put(&v, intern!(py, "own_draws"), self.own_draws[seat].bind(py))?;
        if let Some(p) = &self.players {
            put(&v, intern!(py, "players"), p.bind(py))?;
        }
        put(&v, intern!(py, "history"), &history)?;
        put(&v, intern!(py, "legal_actions"), &legal)?;
        if let Some(r) = &self.result {
            put(&v, intern!(py, "result"), r.bind(py))?;
        }
        let v = v.into_any().unbind();
        self.views[seat] = Some(v.clone_ref(py));
        Ok(v)
    }
}

/// The view dicts of the betting actions of the actor `s` (what
/// `triple_draw.game.betting.legal_actions` lists, which builds them the first time a
/// situation is seen: a parity test holds the two equal at every decision).
fn legal_dicts<'py>(
    py: Python<'py>,
    sup: &Support,
    h: &Bound<'py, PyAny>,
    s: usize,
) -> PyResult<Bound<'py, PyAny>> {
    let int = |name: &Bound<'py, PyString>| -> PyResult<i64> { h.getattr(name)?.extract() };
    let at = |name: &Bound<'py, PyString>| -> PyResult<i64> {
        h.getattr(name)?
            .cast_into::<PyList>()?
            .get_item(s)?
            .extract()
    };
    let mine = at(sup.f.bets.bind(py))?;
    let level = int(sup.f.level.bind(py))?;
    let owe = level - mine;
    let x = at(sup.f.stacks.bind(py))?;
    let call_to = if owe > 0 { mine + owe.min(x) } else { 0 };
    // the raise rule: the engine keeps it in the seat's `_to_act` entry (betting.close_raises)
    let raise_to = if at(sup.f.to_act.bind(py))? == sup.may_raise {
        (int(sup.f.full_level.bind(py))? + int(sup.f.unit.bind(py))?).min(mine + x)
    } else {
        0
    };
    let key = (if level != 0 { call_to } else { -1 }, raise_to);
    {
        let cache = LEGAL.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(got) = cache.as_ref().and_then(|c| c.get(&key)) {
            return Ok(got.bind(py).clone());
        }
    }
    let got = sup.legal_dicts.bind(py).call1((h,))?;
    let mut cache = LEGAL.lock().unwrap_or_else(|p| p.into_inner());
    let cache = cache.get_or_insert_with(HashMap::new);
    if cache.len() < LEGAL_MAX {
        cache.insert(key, got.clone().unbind());
    }
    Ok(got)
}

/// The views of one hand (see the module docs). `Hand.view` makes one per hand on first
/// use; `view(hand, seat)` returns the view of `seat` (an `ArgumentError` for anything
/// but an int seat of the hand).
#[pyclass(module = "triple_draw._core", frozen)]
pub struct ViewCache {
    state: Mutex<State>,
}

impl ViewCache {
    fn lock<'a>(&'a self, py: Python<'_>) -> MutexGuard<'a, State> {
        loop {
            match self.state.try_lock() {
                Ok(g) => return g,
                Err(std::sync::TryLockError::Poisoned(p)) => return p.into_inner(),
                // held by another thread: wait for it with the GIL released
                Err(std::sync::TryLockError::WouldBlock) => py.detach(|| {
                    drop(self.state.lock());
                }),
            }
        }
    }
}

#[pymethods]
impl ViewCache {
    #[new]
    fn new(h: &Bound<'_, PyAny>) -> PyResult<Self> {
        let py = h.py();
        let sup = support(py)?;
        let mut state = State::default();
        state.reset(py, sup, h)?;
        Ok(ViewCache {
            state: Mutex::new(state),
        })
    }

    /// The view of `seat` of hand `h` (the hand this cache follows: another hand, or this
    /// one after a change of its log list or rules, starts the cache again).
    fn view(&self, h: &Bound<'_, PyAny>, seat: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let py = h.py();
        let sup = support(py)?;
        let mut st = self.lock(py);
        let log = h.getattr(sup.f.log.bind(py))?.cast_into::<PyList>()?;
        if !st.follows(py, sup, h, &log)? {
            st.reset(py, sup, h)?;
        }
        let n = st.n;
        let seat = match seat.extract::<usize>() {
            Ok(s) if s < n && seat.is_exact_instance_of::<PyInt>() => s,
            _ => {
                return Err(argument_error(format!(
                    "seat must be 0..{}, got {}",
                    n.saturating_sub(1),
                    seat.repr()?
                )))
            }
        };
        guarded(|| -> PyResult<Py<PyAny>> {
            if st.pos != log.len() as isize {
                if let Err(e) = st.update(py, sup, h, &log) {
                    // half taken in: start again at the next view
                    st.log = None;
                    return Err(e);
                }
            }
            st.build(py, sup, h, seat)
        })?
    }
}

pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<ViewCache>()?;
    let _ = ViewCache::type_object(m.py());
    Ok(())
}
