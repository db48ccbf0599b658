//! `VectorLearner`: the loop of the batched environment's learner mode
//! (`TripleDrawVectorEnv(learner=SEAT, opponents=BOT)`, `triple_draw/envs/vector.py`) in
//! the compiled core.
//!
//! The hands stay the Python engine's `Hand` objects: this loop applies the learner's
//! action to each hand and then the bots' actions up to the learner's next decision,
//! always through the engine's own calls (`check_or_call`, `bet_or_raise`, `fold`,
//! `discard`, and `can_bet_or_raise` for what the rules allow), and deals each new hand
//! with the `Hand` class. What it does itself is what the Python loop around those calls
//! did (`TripleDrawVectorEnv._step_learner` and its helpers, the pure-Python twin that
//! the reference core uses and the tests hold this one to):
//!
//! * the bundled bots' decisions: `HeuristicBot` by the kernel of `rust/bots.rs`
//!   ([`Heuristic::choose`], read straight from the hand instead of from an
//!   `Observation`), `CallingStationBot` by the standard discard, `RandomBot` as its
//!   Python code decides; their random numbers come from [`PyRandom`], the numbers the
//!   bot's own `random.Random` gives, seeded as the Python loop reseeds it at each hand
//!   (the bots' objects are not used). Any other bot is asked through a Python callback;
//! * the learner's own discards (what the hand's public record does not hold); each
//!   seat's draws and the round's bets and raises are read from the hand's public record
//!   (`_draws` through `view.HandFields`, and `betting.round_action`), as the Python loop
//!   reads them;
//! * the learner's observation and action mask, encoded as `_encode_batch` encodes them.
//!
//! The slots' hands, hand numbers, keys and "finished" flags are the Python environment's
//! own lists (`hands`, `_episode`, `_slot_keys`, `_done`), read and written here in place.

use crate::bots::{rank_of, standard_discard, Choice, Decision, Heuristic, Spot, DISCARD_CODE};
use crate::pyrandom::{seed_many, PyRandom};
use numpy::{PyArray1, PyArrayMethods, PyReadwriteArray2, PyUntypedArrayMethods};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyTuple};
use pyo3::{PyTraverseError, PyVisit};

use super::bots::check_rule;
use super::errors::argument_error;
use super::view::{hand_fields, round_action, Fields};

/// The most seats (the engine's `MAX_PLAYERS`).
const MAX: usize = 8;
/// Hands in a row that may end before the learner's first decision (`_MAX_SKIPS`).
const MAX_SKIPS: usize = 10_000;

// The decision codes of the one enum (`crate::bots::Decision`, `triple_draw.bots.Decision`),
// as the `u8` patterns the loop matches on.
const FOLD: u8 = Decision::Fold as u8;
const CHECK: u8 = Decision::Check as u8;
const CALL: u8 = Decision::Call as u8;
const BET_OR_RAISE: u8 = Decision::BetOrRaise as u8;
const BLUFF_OR_CHECK: u8 = Decision::BluffOrCheck as u8;

/// splitmix64 (`vector._mix`).
fn mix(x: u64) -> u64 {
    let mut x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// The bot of a seat.
#[derive(Clone, Copy, Debug)]
enum Bot {
    Learner,
    Heuristic {
        h: Heuristic,
        bluff: f64,
    },
    Random {
        fold_when_free: bool,
    },
    Call {
        keep_max: u8,
        pat: u16,
    },
    /// Asked through the Python callback.
    Python,
}

/// The positions of the observation's blocks (`triple_draw.envs.encoding`), and the
/// action masks of the row codes (0 betting, 1 betting with a raise allowed, 2 draw, 3
/// over).
#[derive(Clone, Debug)]
struct Layout {
    slots: usize,
    discards: usize,
    phase: usize,
    street: usize,
    to_act: usize,
    chips: usize,
    raises: usize,
    players: usize,
    per_player: usize,
    discard_offset: usize,
    size: usize,
    masks: Vec<Vec<i8>>,
}

/// What a slot keeps besides its hand: the learner's own discards (`_record`; what the
/// hand's public record does not hold), and its bots' random streams. The draws and the
/// round's bets are read from the hand's public record, as the Python loop reads them.
#[derive(Clone, Debug)]
struct Slot {
    button: usize,
    /// the learner's discards (bit c: card c)
    disc: u64,
    done: bool,
    /// one stream per seat of `VectorLearner::rng_seats`
    rngs: Vec<PyRandom>,
    /// the hand key the streams were seeded for ahead of the deal (`seed_ahead`)
    seeded_for: Option<u64>,
}

/// The learner mode's loop (see the module docs).
#[pyclass(module = "triple_draw._core")]
pub struct VectorLearner {
    n_envs: usize,
    n: usize,
    learner: usize,
    hand_cls: Py<PyAny>,
    rules: Py<PyAny>,
    stacks: Py<PyAny>,
    kwargs: Py<PyDict>,
    fixed_button: Option<usize>,
    start: i64,
    reward_scale: f64,
    scale: f64,
    bots: Vec<Bot>,
    /// the seats whose bots draw random numbers here, and each seat's index among them
    rng_seats: Vec<usize>,
    rng_index: [usize; MAX],
    /// the environment's `_bot_turn` (`None` once the collector has cleared the loop: the
    /// two refer to each other)
    turn: Option<Py<PyAny>>,
    /// per slot and seat, the `reseed` of a Python bot that has one
    reseeds: Vec<Vec<Option<Py<PyAny>>>>,
    hands: Py<PyList>,
    episode: Py<PyList>,
    keys: Py<PyList>,
    done: Py<PyList>,
    skipped: Py<PyArray1<i64>>,
    skipped_reward: Py<PyArray1<f32>>,
    layout: Layout,
    slots: Vec<Slot>,
}

fn bot_of(spec: &Bound<'_, PyAny>) -> PyResult<Bot> {
    if spec.is_none() {
        return Ok(Bot::Learner);
    }
    let t = spec.cast::<PyTuple>()?;
    let kind: String = t.get_item(0)?.extract()?;
    Ok(match kind.as_str() {
        "heuristic" => {
            let (_, keep, p1, p2, p3, aggression, bluff): (String, i64, i64, i64, i64, f64, f64) =
                t.extract()?;
            let (keep, pat1) = check_rule(keep, p1)?;
            let (_, pat2) = check_rule(i64::from(keep), p2)?;
            let (_, pat3) = check_rule(i64::from(keep), p3)?;
            Bot::Heuristic {
                h: Heuristic {
                    keep_max: keep,
                    pat_max: [0, pat1, pat2, pat3],
                    aggression,
                },
                bluff,
            }
        }
        "random" => {
            let (_, fold_when_free): (String, bool) = t.extract()?;
            Bot::Random { fold_when_free }
        }
        "call" => {
            let (_, keep, pat): (String, i64, i64) = t.extract()?;
            let (keep_max, pat) = check_rule(keep, pat)?;
            Bot::Call { keep_max, pat }
        }
        "python" => Bot::Python,
        other => return Err(argument_error(format!("unknown bot kind {other:?}"))),
    })
}

/// A list of Python ints.
fn int_list<'py>(py: Python<'py>, xs: &[u8]) -> PyResult<Bound<'py, PyList>> {
    PyList::new(py, xs)
}

/// The sorted card ids at the positions `mask` of `hole`.
fn thrown(hole: &[u8; 5], mask: u8) -> Vec<u8> {
    let mut ids: Vec<u8> = (0..5)
        .filter(|i| mask >> i & 1 == 1)
        .map(|i| hole[i])
        .collect();
    ids.sort_unstable();
    ids
}

/// A hand's state as the loop reads it (interned attribute names).
struct HandRead<'a, 'py> {
    h: &'a Bound<'py, PyAny>,
    /// the hand's field names, as the Python layer declares them (`view.HandFields`)
    f: &'static Fields,
}

impl<'py> HandRead<'_, 'py> {
    fn py(&self) -> Python<'py> {
        self.h.py()
    }
    fn attr(&self, name: &Bound<'py, pyo3::types::PyString>) -> PyResult<Bound<'py, PyAny>> {
        self.h.getattr(name)
    }
    fn actor(&self) -> PyResult<Option<usize>> {
        let a = self.attr(self.f.actor.bind(self.py()))?;
        if a.is_none() {
            Ok(None)
        } else {
            Ok(Some(a.extract()?))
        }
    }
    fn in_draw(&self) -> PyResult<bool> {
        self.attr(self.f.in_draw.bind(self.py()))?.extract()
    }
    fn street(&self) -> PyResult<i64> {
        self.attr(self.f.street.bind(self.py()))?.extract()
    }
    fn list(&self, name: &Bound<'py, pyo3::types::PyString>) -> PyResult<Bound<'py, PyList>> {
        Ok(self.attr(name)?.cast_into::<PyList>()?)
    }
    fn ints(&self, name: &Bound<'py, pyo3::types::PyString>, n: usize) -> PyResult<[i64; MAX]> {
        let l = self.list(name)?;
        let mut out = [0i64; MAX];
        for (j, x) in out.iter_mut().enumerate().take(n) {
            *x = l.get_item(j)?.extract()?;
        }
        Ok(out)
    }
    fn live(&self, n: usize) -> PyResult<[bool; MAX]> {
        let l = self.list(self.f.live.bind(self.py()))?;
        let mut out = [false; MAX];
        for (j, x) in out.iter_mut().enumerate().take(n) {
            *x = l.get_item(j)?.is_truthy()?;
        }
        Ok(out)
    }
    fn hole(&self, seat: usize) -> PyResult<[u8; 5]> {
        let hands = self.list(self.f.hands.bind(self.py()))?;
        let held = hands.get_item(seat)?;
        let held = held.cast::<PyList>()?;
        if held.len() != 5 {
            return Err(argument_error(format!(
                "seat {seat} holds {} cards, not five",
                held.len()
            )));
        }
        let mut out = [0u8; 5];
        for (k, c) in out.iter_mut().enumerate() {
            *c = held.get_item(k)?.extract()?;
        }
        Ok(out)
    }
    fn int(&self, name: &Bound<'py, pyo3::types::PyString>) -> PyResult<i64> {
        self.attr(name)?.extract()
    }
    /// Each seat's draw counts, from the hand's public record.
    fn draws(&self, n: usize) -> PyResult<Draws> {
        let l = self.list(self.f.draws.bind(self.py()))?;
        let mut out = Draws {
            made: [0; MAX],
            counts: [[0; 3]; MAX],
        };
        for j in 0..n {
            let d = l.get_item(j)?;
            let d = d.cast::<PyTuple>()?;
            out.made[j] = d.len().min(255) as u8;
            for (q, c) in out.counts[j].iter_mut().enumerate().take(d.len()) {
                *c = d.get_item(q)?.extract()?;
            }
        }
        Ok(out)
    }
    /// Per seat, the cards drawn at its last draw so far, from the hand's public record:
    /// of the seats the heuristic reads them of (the live ones but `me`; `None` for the
    /// others).
    fn last_draws(&self, me: usize, folded: &[bool]) -> PyResult<[Option<u8>; MAX]> {
        let l = self.list(self.f.draws.bind(self.py()))?;
        let mut out = [None; MAX];
        for (j, o) in out.iter_mut().enumerate().take(folded.len()) {
            if j == me || folded[j] {
                continue;
            }
            let d = l.get_item(j)?;
            let d = d.cast::<PyTuple>()?;
            if !d.is_empty() {
                *o = Some(d.get_item(d.len() - 1)?.extract()?);
            }
        }
        Ok(out)
    }
    /// The bets and raises of the round under way and whether anybody called, bet or
    /// raised in it: `betting.round_action`, the public record's reader.
    fn round_action(&self) -> PyResult<(u32, bool)> {
        round_action(self.py())?
            .bind(self.py())
            .call1((self.h,))?
            .extract()
    }
    fn call0(&self, name: &Bound<'py, pyo3::types::PyString>) -> PyResult<Bound<'py, PyAny>> {
        self.h.call_method0(name)
    }
    fn can_bet_or_raise(&self) -> PyResult<bool> {
        self.call0(intern!(self.py(), "can_bet_or_raise"))?
            .extract()
    }
    /// Apply a decision code (`discard`: `cards`).
    fn apply(&self, code: u8, cards: &[u8]) -> PyResult<()> {
        let py = self.py();
        match code {
            DISCARD_CODE => {
                self.h
                    .call_method1(intern!(py, "discard"), (PyTuple::new(py, cards)?,))?;
            }
            FOLD => {
                self.call0(intern!(py, "fold"))?;
            }
            BET_OR_RAISE => {
                self.call0(intern!(py, "bet_or_raise"))?;
            }
            _ => {
                self.call0(intern!(py, "check_or_call"))?;
            }
        }
        Ok(())
    }
}

impl Slot {
    fn clear(&mut self, button: usize) {
        self.button = button;
        self.disc = 0;
        self.done = false;
    }

    /// `_record`: the learner threw `cards`.
    fn record_discard(&mut self, cards: &[u8]) {
        for &c in cards {
            self.disc |= 1 << c;
        }
    }
}

/// Per seat, the cards drawn at each draw so far, from the hand's public record
/// (`_draws`): how many draws, and the counts of the first three.
struct Draws {
    made: [u8; MAX],
    counts: [[u8; 3]; MAX],
}

impl VectorLearner {
    fn hand<'py>(&self, py: Python<'py>, i: usize) -> PyResult<Bound<'py, PyAny>> {
        self.hands.bind(py).get_item(i)
    }

    fn set_done(&mut self, py: Python<'_>, i: usize, done: bool) -> PyResult<()> {
        self.slots[i].done = done;
        self.done.bind(py).set_item(i, done)
    }

    /// The key of hand `_episode[i] + ahead` of slot `i` (`hand_seed` before its shift).
    fn hand_key(&self, py: Python<'_>, i: usize, ahead: u64) -> PyResult<u64> {
        let key: u64 = self.keys.bind(py).get_item(i)?.extract()?;
        let e: u64 = self.episode.bind(py).get_item(i)?.extract()?;
        Ok(mix(key ^ (e + ahead)))
    }

    /// Seed the bots' streams of the hands `_episode[i] + ahead` of the slots `rows`
    /// (which they deal next), side by side ([`seed_many`]).
    fn seed_ahead(&mut self, py: Python<'_>, rows: &[usize], ahead: u64) -> PyResult<()> {
        if self.rng_seats.is_empty() || rows.is_empty() {
            return Ok(());
        }
        let mut want = vec![None; self.n_envs];
        for &i in rows {
            want[i] = Some(self.hand_key(py, i, ahead)?);
        }
        let mut gens: Vec<&mut PyRandom> = Vec::new();
        let mut seeds: Vec<u64> = Vec::new();
        let seats = &self.rng_seats;
        for (slot, key) in self.slots.iter_mut().zip(want) {
            if let Some(key) = key {
                slot.seeded_for = Some(key);
                for (r, &s) in slot.rngs.iter_mut().zip(seats) {
                    gens.push(r);
                    seeds.push(mix(key ^ (s as u64 + 1)) >> 1);
                }
            }
        }
        seed_many(&mut gens, &seeds);
        Ok(())
    }

    /// `_deal_learner`: deal the hand `episode[i]` of slot `i` and let the bots act up to
    /// the learner's first decision; a hand that ends before it is counted as skipped and
    /// the next one is dealt.
    fn deal_one(&mut self, py: Python<'_>, i: usize) -> PyResult<()> {
        for _ in 0..MAX_SKIPS {
            let key = self.hand_key(py, i, 0)?;
            let deck = key >> 1;
            let button = self.fixed_button.unwrap_or((deck % self.n as u64) as usize);
            let h = self.hand_cls.bind(py).call(
                (self.rules.bind(py), self.stacks.bind(py), button, deck),
                Some(self.kwargs.bind(py)),
            )?;
            self.hands.bind(py).set_item(i, &h)?;
            self.slots[i].clear(button);
            self.set_done(py, i, false)?;
            // the bots' streams restart at each hand (Bot.reseed)
            let slot = &mut self.slots[i];
            if slot.seeded_for != Some(key) {
                let mut gens: Vec<&mut PyRandom> = slot.rngs.iter_mut().collect();
                let seeds: Vec<u64> = self
                    .rng_seats
                    .iter()
                    .map(|&s| mix(key ^ (s as u64 + 1)) >> 1)
                    .collect();
                seed_many(&mut gens, &seeds);
            }
            slot.seeded_for = None;
            for (s, r) in self.reseeds[i].iter().enumerate() {
                if let Some(r) = r {
                    r.call1(py, (mix(key ^ (s as u64 + 1)) >> 1,))?;
                }
            }
            self.play_opponents(py, i, &h)?;
            let hr = HandRead {
                h: &h,
                f: hand_fields(py)?,
            };
            if hr.actor()?.is_some() {
                return Ok(());
            }
            let net = hr.ints(hr.f.stacks.bind(py), self.n)?[self.learner] - self.start;
            {
                let sk = self.skipped.bind(py);
                let mut sk = sk.readwrite();
                sk.as_slice_mut()?[i] += 1;
                let sr = self.skipped_reward.bind(py);
                let mut sr = sr.readwrite();
                let v = &mut sr.as_slice_mut()?[i];
                // (float32 += a Python float: the sum in float32, as numpy does it)
                *v += (net as f64 / self.reward_scale) as f32;
            }
            let ep = self.episode.bind(py);
            let e: u64 = ep.get_item(i)?.extract()?;
            ep.set_item(i, e + 1)?;
        }
        Err(argument_error(format!(
            "slot {i}: {MAX_SKIPS} hands in a row ended before the learner's first decision"
        )))
    }

    /// `_play_opponents`: the bots act until it is the learner's turn or the hand is over.
    fn play_opponents(&mut self, py: Python<'_>, i: usize, h: &Bound<'_, PyAny>) -> PyResult<()> {
        let hr = HandRead {
            h,
            f: hand_fields(py)?,
        };
        let n = self.n;
        loop {
            let s = match hr.actor()? {
                Some(s) if s != self.learner => s,
                _ => return Ok(()),
            };
            if s >= n {
                return Err(argument_error(format!("seat {s} of {n}")));
            }
            let in_draw = hr.in_draw()?;
            let street = hr.street()?;
            let bot = self.bots[s];
            if let Bot::Python = bot {
                // (it reads the hand's public record itself, as the Python loop does)
                let turn = self
                    .turn
                    .as_ref()
                    .ok_or_else(|| argument_error("the loop was cleared"))?;
                turn.bind(py).call1((i, h, s))?;
                continue;
            }
            let hole = hr.hole(s)?;
            let (code, cards) = if in_draw {
                let mask = match bot {
                    Bot::Heuristic { h: heur, .. } => {
                        let live = hr.live(n)?;
                        let mut folded = [false; MAX];
                        for j in 0..n {
                            folded[j] = !live[j];
                        }
                        let last = hr.last_draws(s, &folded[..n])?;
                        let spot =
                            Spot::new(s, n, hole, true, street as u8, &folded[..n], &last[..n]);
                        match heur.choose(&spot, 0.0) {
                            Choice::Discard(m) => m,
                            Choice::Bet(_) => unreachable!("a draw is a discard"),
                        }
                    }
                    Bot::Call { keep_max, pat } => {
                        standard_discard(&hole, rank_of(&hole), keep_max, pat)
                    }
                    Bot::Random { .. } => {
                        let rng = &mut self.slots[i].rngs[self.rng_index[s]];
                        let mut m = 0u8;
                        for k in 0..5 {
                            if rng.random() < 0.5 {
                                m |= 1 << k;
                            }
                        }
                        m
                    }
                    Bot::Learner | Bot::Python => unreachable!("handled above"),
                };
                (DISCARD_CODE, thrown(&hole, mask))
            } else {
                let stacks = hr.ints(hr.f.stacks.bind(py), n)?;
                let bets = hr.list(hr.f.bets.bind(py))?;
                let owe = hr.int(hr.f.level.bind(py))? - bets.get_item(s)?.extract::<i64>()?;
                let to_call = if owe > 0 { owe.min(stacks[s]) } else { 0 };
                let code = match bot {
                    Bot::Heuristic { h: heur, bluff } => {
                        let can_raise = hr.can_bet_or_raise()?;
                        let live = hr.live(n)?;
                        let mut folded = [false; MAX];
                        for j in 0..n {
                            folded[j] = !live[j];
                        }
                        let total = hr.ints(hr.f.total.bind(py), n)?;
                        let sb = hr.attr(hr.f.small_blind.bind(py))?;
                        // (nobody has drawn before the first draw)
                        let last = if street == 0 {
                            [None; MAX]
                        } else {
                            hr.last_draws(s, &folded[..n])?
                        };
                        let (round_bets, voluntary) = hr.round_action()?;
                        let spot = Spot {
                            to_call,
                            pot: total[..n].iter().sum(),
                            can_raise,
                            round_bets,
                            voluntary,
                            big_blind: hr.int(hr.f.big_blind.bind(py))? as usize,
                            small_blind: if sb.is_none() {
                                None
                            } else {
                                Some(sb.extract()?)
                            },
                            stacks: &stacks[..n],
                            button: self.slots[i].button,
                            ..Spot::new(s, n, hole, false, street as u8, &folded[..n], &last[..n])
                        };
                        let rng = &mut self.slots[i].rngs[self.rng_index[s]];
                        let r = rng.random();
                        let code = match heur.choose(&spot, r) {
                            Choice::Bet(d) => d.code(),
                            Choice::Discard(_) => unreachable!("a betting round is no draw"),
                        };
                        if code == BLUFF_OR_CHECK {
                            if rng.random() < bluff {
                                BET_OR_RAISE
                            } else {
                                CHECK
                            }
                        } else {
                            code
                        }
                    }
                    Bot::Random { fold_when_free } => {
                        let can_raise = hr.can_bet_or_raise()?;
                        let facing = to_call > 0;
                        let k = if facing || fold_when_free { 0 } else { 1 };
                        let m = if can_raise { 3 } else { 2 };
                        let rng = &mut self.slots[i].rngs[self.rng_index[s]];
                        match k + rng.randrange(m - k) {
                            0 => FOLD,
                            1 if facing => CALL,
                            1 => CHECK,
                            _ => BET_OR_RAISE,
                        }
                    }
                    Bot::Call { .. } => {
                        if to_call > 0 {
                            CALL
                        } else {
                            CHECK
                        }
                    }
                    Bot::Learner | Bot::Python => unreachable!("handled above"),
                };
                (code, Vec::new())
            };
            hr.apply(code, &cards)?;
        }
    }

    /// The learner's observation of slot `i` into `row` (zeros), as `_encode_batch`
    /// encodes it; returns the row's mask code.
    fn encode(&self, py: Python<'_>, i: usize, row: &mut [f32]) -> PyResult<usize> {
        let h = self.hand(py, i)?;
        let hr = HandRead {
            h: &h,
            f: hand_fields(py)?,
        };
        let (n, seat, lay, scale) = (self.n, self.learner, &self.layout, self.scale);
        let slot = &self.slots[i];
        let actor = hr.actor()?;
        let (code, phase) = match actor {
            None => (3, 2),
            Some(_) if hr.in_draw()? => (2, 1),
            Some(_) => (usize::from(hr.can_bet_or_raise()?), 0),
        };
        let street = hr.street()?;
        let live = hr.live(n)?;
        let stacks = hr.ints(hr.f.stacks.bind(py), n)?;
        let total = hr.ints(hr.f.total.bind(py), n)?;
        let draws = if phase == 0 && street == 0 {
            Draws {
                made: [0; MAX],
                counts: [[0; 3]; MAX],
            } // (nobody has drawn before the first draw)
        } else {
            hr.draws(n)?
        };
        let (bets, level, raises) = if phase == 0 {
            (
                hr.ints(hr.f.bets.bind(py), n)?,
                hr.int(hr.f.level.bind(py))?,
                hr.int(hr.f.full_bets.bind(py))?,
            )
        } else {
            ([0i64; MAX], 0, 0)
        };
        let chips = |x: i64| (x as f64 * scale).min(1.0) as f32;
        if live[seat] {
            let mut held = hr.hole(seat)?;
            held.sort_unstable();
            for (k, &c) in held.iter().enumerate() {
                let c = c as usize;
                row[c] = 1.0;
                row[lay.slots + 17 * k + c / 4] = 1.0;
                row[lay.slots + 17 * k + 13 + c % 4] = 1.0;
            }
        }
        let mut d = slot.disc;
        while d != 0 {
            row[lay.discards + d.trailing_zeros() as usize] = 1.0;
            d &= d - 1;
        }
        row[lay.phase + phase] = 1.0;
        row[lay.street + street as usize] = 1.0;
        if actor == Some(seat) {
            row[lay.to_act] = 1.0;
        }
        row[lay.chips] = chips(total[..n].iter().sum());
        row[lay.chips + 1] = chips(level);
        let owe = if !live[seat] || phase != 0 {
            0
        } else {
            (level - bets[seat]).max(0).min(stacks[seat])
        };
        row[lay.chips + 2] = chips(owe);
        row[lay.raises] = (raises as f64 / 5.0).min(1.0) as f32;
        for k in 0..n {
            let j = (seat + k) % n;
            let o = lay.players + lay.per_player * k;
            let folded = !live[j];
            row[o] = chips(stacks[j]);
            row[o + 1] = chips(bets[j]);
            row[o + 2] = chips(total[j]);
            if folded {
                row[o + 3] = 1.0;
            } else {
                row[o + 7] = 1.0;
                if stacks[j] == 0 && phase != 2 {
                    row[o + 4] = 1.0;
                }
            }
            if j == slot.button {
                row[o + 5] = 1.0;
            }
            if actor == Some(j) {
                row[o + 6] = 1.0;
            }
            for q in 0..(draws.made[j] as usize).min(3) {
                row[o + 8 + q] = ((f64::from(draws.counts[j][q]) + 1.0) / 6.0) as f32;
            }
        }
        Ok(code)
    }
}

#[pymethods]
impl VectorLearner {
    /// See `TripleDrawVectorEnv._compiled_loop`, which makes the one instance of an
    /// environment.
    #[new]
    #[pyo3(signature = (
        hand_cls, rules, stacks, core, learner, button, reward_scale, bots, turn, reseeds,
        hands, episode, keys, done, skipped, skipped_reward, layout, masks
    ))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        hand_cls: Py<PyAny>,
        rules: Py<PyAny>,
        stacks: Bound<'_, PyTuple>,
        core: Py<PyAny>,
        learner: usize,
        button: Option<usize>,
        reward_scale: f64,
        bots: Bound<'_, PyList>,
        turn: Py<PyAny>,
        reseeds: Vec<Vec<Option<Py<PyAny>>>>,
        hands: Bound<'_, PyList>,
        episode: Bound<'_, PyList>,
        keys: Bound<'_, PyList>,
        done: Bound<'_, PyList>,
        skipped: Bound<'_, PyArray1<i64>>,
        skipped_reward: Bound<'_, PyArray1<f32>>,
        layout: Vec<usize>,
        masks: Vec<Vec<i8>>,
    ) -> PyResult<Self> {
        let n = stacks.len();
        if !(2..=MAX).contains(&n) || learner >= n || button.is_some_and(|b| b >= n) {
            return Err(argument_error(format!(
                "VectorLearner: {n} seats, learner {learner}, button {button:?}"
            )));
        }
        let n_envs = hands.len();
        if n_envs == 0
            || [episode.len(), keys.len(), done.len(), reseeds.len()]
                .iter()
                .any(|&k| k != n_envs)
            || skipped.len() != n_envs
            || skipped_reward.len() != n_envs
            || reseeds.iter().any(|r| r.len() != n)
        {
            return Err(argument_error(
                "VectorLearner: per-slot lists of the wrong length",
            ));
        }
        let st: Vec<i64> = stacks.extract()?;
        let bots: Vec<Bot> = bots.iter().map(|b| bot_of(&b)).collect::<PyResult<_>>()?;
        if bots.len() != n
            || bots
                .iter()
                .enumerate()
                .any(|(s, b)| matches!(b, Bot::Learner) != (s == learner))
        {
            return Err(argument_error(
                "VectorLearner: one bot per seat but the learner's",
            ));
        }
        let [slots_at, discards, phase, street, to_act, chips, raises, players, per_player, discard_offset, n_actions] =
            layout[..]
        else {
            return Err(argument_error("VectorLearner: a layout of 11 positions"));
        };
        if masks.len() != 4 || masks.iter().any(|m| m.len() != n_actions) {
            return Err(argument_error("VectorLearner: 4 action masks"));
        }
        let rng_seats: Vec<usize> = (0..n)
            .filter(|&s| matches!(bots[s], Bot::Heuristic { .. } | Bot::Random { .. }))
            .collect();
        let mut rng_index = [0usize; MAX];
        for (k, &s) in rng_seats.iter().enumerate() {
            rng_index[s] = k;
        }
        let slot = Slot {
            button: 0,
            disc: 0,
            done: false,
            rngs: vec![PyRandom::new(0); rng_seats.len()],
            seeded_for: None,
        };
        let kwargs = PyDict::new(py);
        kwargs.set_item("core", core)?;
        Ok(VectorLearner {
            n_envs,
            n,
            learner,
            hand_cls,
            rules,
            stacks: stacks.into_any().unbind(),
            kwargs: kwargs.unbind(),
            fixed_button: button,
            start: st[learner],
            reward_scale,
            scale: 1.0 / st.iter().sum::<i64>() as f64,
            bots,
            rng_seats,
            rng_index,
            turn: Some(turn),
            reseeds,
            hands: hands.unbind(),
            episode: episode.unbind(),
            keys: keys.unbind(),
            done: done.unbind(),
            skipped: skipped.unbind(),
            skipped_reward: skipped_reward.unbind(),
            layout: Layout {
                slots: slots_at,
                discards,
                phase,
                street,
                to_act,
                chips,
                raises,
                players,
                per_player,
                discard_offset,
                size: players + per_player * n,
                masks,
            },
            slots: vec![slot; n_envs],
        })
    }

    /// Deal the current hand (`_episode[i]`) of every slot of `rows`, in order, each as
    /// `_deal_learner` does; `advance`: first move each of them to its next hand number.
    fn deal(&mut self, py: Python<'_>, rows: Vec<usize>, advance: bool) -> PyResult<()> {
        if rows.iter().any(|&i| i >= self.n_envs) {
            return Err(argument_error("deal: a row out of range"));
        }
        if advance {
            let ep = self.episode.bind(py);
            for &i in &rows {
                let e: u64 = ep.get_item(i)?.extract()?;
                ep.set_item(i, e + 1)?;
            }
        }
        self.seed_ahead(py, &rows, 0)?;
        for i in rows {
            self.deal_one(py, i)?;
        }
        Ok(())
    }

    /// One learner decision in every hand (`actions`, checked legal by the caller) and the
    /// bots' up to the next one, as `_step_learner`'s loop does (a finished slot deals its
    /// next hand instead): returns the learner's rewards, which hands ended, and their
    /// slots.
    #[allow(clippy::type_complexity)]
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: Vec<i64>,
    ) -> PyResult<(
        Bound<'py, PyArray1<f32>>,
        Bound<'py, PyArray1<bool>>,
        Vec<usize>,
    )> {
        let n_envs = self.n_envs;
        if actions.len() != n_envs {
            return Err(argument_error("step: one action per slot"));
        }
        {
            let sk = self.skipped.bind(py);
            sk.readwrite().as_slice_mut()?.fill(0);
            let sr = self.skipped_reward.bind(py);
            sr.readwrite().as_slice_mut()?.fill(0.0);
        }
        let mut rewards = vec![0f32; n_envs];
        let mut terminated = vec![false; n_envs];
        let mut ended = Vec::new();
        let finished: Vec<usize> = (0..n_envs).filter(|&i| self.slots[i].done).collect();
        // (the loop moves each to its next hand number before it deals)
        self.seed_ahead(py, &finished, 1)?;
        let learner = self.learner;
        let off = self.layout.discard_offset as i64;
        for (i, &a) in actions.iter().enumerate() {
            if self.slots[i].done {
                let ep = self.episode.bind(py);
                let e: u64 = ep.get_item(i)?.extract()?;
                ep.set_item(i, e + 1)?;
                self.deal_one(py, i)?;
                continue;
            }
            let h = self.hand(py, i)?;
            let hr = HandRead {
                h: &h,
                f: hand_fields(py)?,
            };
            if a >= off {
                let mut held = hr.hole(learner)?;
                held.sort_unstable();
                let m = (a - off) as u8;
                let cards: Vec<u8> = (0..5)
                    .filter(|k| m >> k & 1 == 1)
                    .map(|k| held[k])
                    .collect();
                h.call_method1(intern!(py, "discard"), (int_list(py, &cards)?,))?;
                self.slots[i].record_discard(&cards);
            } else if a == 1 {
                hr.call0(intern!(py, "check_or_call"))?;
            } else if a == 2 {
                hr.call0(intern!(py, "bet_or_raise"))?;
            } else {
                hr.call0(intern!(py, "fold"))?;
            }
            self.play_opponents(py, i, &h)?;
            if hr.actor()?.is_none() {
                self.set_done(py, i, true)?;
                ended.push(i);
                terminated[i] = true;
                let net = hr.ints(hr.f.stacks.bind(py), self.n)?[learner] - self.start;
                rewards[i] = (net as f64 / self.reward_scale) as f32;
            }
        }
        Ok((
            PyArray1::from_vec(py, rewards),
            PyArray1::from_vec(py, terminated),
            ended,
        ))
    }

    /// The learner's observations of the slots `rows` (`None`: every slot, and then each
    /// slot's action mask into `mask`) into `out` (zeros, one row per slot of `rows`).
    #[pyo3(signature = (rows, out, mask=None))]
    fn observe(
        &self,
        py: Python<'_>,
        rows: Option<Vec<usize>>,
        mut out: PyReadwriteArray2<'_, f32>,
        mask: Option<PyReadwriteArray2<'_, i8>>,
    ) -> PyResult<()> {
        let rows: Vec<usize> = rows.unwrap_or_else(|| (0..self.n_envs).collect());
        let size = self.layout.size;
        let shape = out.shape();
        if shape != [rows.len(), size] || rows.iter().any(|&i| i >= self.n_envs) {
            return Err(argument_error("observe: out must have one row per slot"));
        }
        let out = out.as_slice_mut()?;
        let mut codes = Vec::with_capacity(rows.len());
        for (k, &i) in rows.iter().enumerate() {
            codes.push(self.encode(py, i, &mut out[k * size..(k + 1) * size])?);
        }
        if let Some(mut mask) = mask {
            let n_actions = self.layout.masks[0].len();
            if mask.shape() != [self.n_envs, n_actions] || rows.len() != self.n_envs {
                return Err(argument_error("observe: a mask of every slot"));
            }
            let m = mask.as_slice_mut()?;
            for (row, &c) in m.chunks_mut(n_actions).zip(&codes) {
                row.copy_from_slice(&self.layout.masks[c]);
            }
        }
        Ok(())
    }

    /// Every slot's record and random streams, as plain values (the environment pickles
    /// and copies them: `TripleDrawVectorEnv.__getstate__`).
    fn get_state<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let out = PyList::empty(py);
        for slot in &self.slots {
            let rngs = PyList::empty(py);
            for r in &slot.rngs {
                let (words, idx) = r.state();
                let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
                rngs.append((PyBytes::new(py, &bytes), idx))?;
            }
            out.append((slot.button, slot.disc, slot.done, rngs, slot.seeded_for))?;
        }
        Ok(out)
    }

    /// Restore what [`VectorLearner::get_state`] gave (of a loop of the same shape).
    fn set_state(&mut self, state: Vec<Bound<'_, PyTuple>>) -> PyResult<()> {
        let bad = || argument_error("set_state: not the state of this loop's shape");
        if state.len() != self.n_envs {
            return Err(bad());
        }
        let mut slots = self.slots.clone();
        for (slot, t) in slots.iter_mut().zip(&state) {
            #[allow(clippy::type_complexity)]
            let (button, disc, done, rngs, seeded_for): (
                usize,
                u64,
                bool,
                Vec<(Vec<u8>, usize)>,
                Option<u64>,
            ) = t.extract()?;
            if rngs.len() != slot.rngs.len() || button >= self.n {
                return Err(bad());
            }
            slot.button = button;
            slot.disc = disc;
            slot.done = done;
            for (r, (bytes, idx)) in slot.rngs.iter_mut().zip(rngs) {
                let words: Vec<u32> = bytes
                    .chunks_exact(4)
                    .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                    .collect();
                if !r.set_state(&words, idx) {
                    return Err(bad());
                }
            }
            slot.seeded_for = seeded_for;
        }
        self.slots = slots;
        Ok(())
    }

    // The garbage collector's protocol: the loop refers to its environment (through
    // `turn`), which refers to the loop.
    fn __traverse__(&self, visit: PyVisit<'_>) -> Result<(), PyTraverseError> {
        visit.call(&self.hand_cls)?;
        visit.call(&self.rules)?;
        visit.call(&self.stacks)?;
        visit.call(&self.kwargs)?;
        visit.call(&self.turn)?;
        for r in self.reseeds.iter().flatten() {
            visit.call(r)?;
        }
        visit.call(&self.hands)?;
        visit.call(&self.episode)?;
        visit.call(&self.keys)?;
        visit.call(&self.done)?;
        visit.call(&self.skipped)?;
        visit.call(&self.skipped_reward)?;
        Ok(())
    }

    fn __clear__(&mut self) {
        self.turn = None;
        for r in self.reseeds.iter_mut().flatten() {
            *r = None;
        }
    }

    /// Sample values of the random streams (tests): `random()` twice, then
    /// `randrange(3)` and `getrandbits(32)` of a generator seeded with `seed` - what
    /// `random.Random(seed)` gives, which the environment checks before it trusts them.
    #[staticmethod]
    fn stream_sample(seed: u64) -> (f64, f64, u32, u32) {
        let mut r = PyRandom::new(seed);
        (r.random(), r.random(), r.randrange(3), r.getrandbits(32))
    }
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<VectorLearner>()?;
    Ok(())
}
