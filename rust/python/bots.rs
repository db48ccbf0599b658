//! PyO3 bindings of the bots' kernels (`rust/bots.rs`), registered into `triple_draw._core`.
//!
//! `bots_heuristic` reads a `triple_draw.bots.Observation` (a named tuple of what one seat
//! may see; the field positions are the `OBS_*` constants below and must follow the field
//! order of that class) and returns the heuristic bot's decision.

use crate::bots::{
    rank_of, standard_discard, Choice, Heuristic, Spot, DECISION_NAMES, DISCARD_CODE, MAX_SEATS,
};
use crate::eval::NUM_CLASSES;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString, PyTuple};

use super::errors::{argument_error, card_error};

/// Five distinct card ids (a tuple or a list of ints).
fn hole_of(obj: &Bound<'_, PyAny>) -> PyResult<[u8; 5]> {
    let bad = || card_error("cards must be a tuple or list of five card ids");
    let mut v = [0i64; 5];
    if let Ok(t) = obj.cast::<PyTuple>() {
        if t.len() != 5 {
            return Err(card_error(format!(
                "a hand has five cards, got {}",
                t.len()
            )));
        }
        for (i, x) in t.iter().enumerate() {
            v[i] = x.extract().map_err(|_| bad())?;
        }
    } else if let Ok(l) = obj.cast::<PyList>() {
        if l.len() != 5 {
            return Err(card_error(format!(
                "a hand has five cards, got {}",
                l.len()
            )));
        }
        for (i, x) in l.iter().enumerate() {
            v[i] = x.extract().map_err(|_| bad())?;
        }
    } else {
        return Err(bad());
    }
    let mut out = [0u8; 5];
    let mut seen = 0u64;
    for (i, &c) in v.iter().enumerate() {
        if !(0..52).contains(&c) {
            return Err(card_error(format!("invalid card id {c}")));
        }
        if seen >> c & 1 == 1 {
            return Err(card_error(format!("card id {c} appears twice")));
        }
        seen |= 1 << c;
        out[i] = c as u8;
    }
    Ok(out)
}

fn thrown<'py>(py: Python<'py>, hole: &[u8; 5], mask: u8) -> PyResult<Bound<'py, PyTuple>> {
    let mut ids: Vec<u8> = (0..5)
        .filter(|i| mask >> i & 1 == 1)
        .map(|i| hole[i])
        .collect();
    ids.sort_unstable();
    PyTuple::new(py, ids)
}

pub(crate) fn check_rule(keep_max: i64, pat_max: i64) -> PyResult<(u8, u16)> {
    if !(0..=12).contains(&keep_max) {
        return Err(argument_error(format!(
            "keep_max must be a card rank 0 (deuce) to 12 (ace), got {keep_max}"
        )));
    }
    if !(0..=i64::from(NUM_CLASSES)).contains(&pat_max) {
        return Err(argument_error(format!(
            "pat_max must be a hand rank 1 to {NUM_CLASSES} (0: never stand pat), got {pat_max}"
        )));
    }
    Ok((keep_max as u8, pat_max as u16))
}

/// The card ids (sorted) the standard rule throws from five cards: stand pat with a hand
/// ranked `pat_max` or better, otherwise keep one card of each rank up to `keep_max`.
#[pyfunction]
fn bots_standard_discard<'py>(
    py: Python<'py>,
    cards: &Bound<'py, PyAny>,
    keep_max: i64,
    pat_max: i64,
) -> PyResult<Bound<'py, PyTuple>> {
    let hole = hole_of(cards)?;
    let (keep, pat) = check_rule(keep_max, pat_max)?;
    thrown(
        py,
        &hole,
        standard_discard(&hole, rank_of(&hole), keep, pat),
    )
}

// Field positions of triple_draw.bots.Observation.
const OBS_SEAT: usize = 0;
const OBS_HOLE: usize = 1;
const OBS_PHASE: usize = 2;
const OBS_STREET: usize = 3;
const OBS_N: usize = 4;
const OBS_BUTTON: usize = 5;
const OBS_SB: usize = 6;
const OBS_BB: usize = 7;
const OBS_FOLDED: usize = 8;
const OBS_STACKS: usize = 9;
const OBS_DRAWS: usize = 11;
const OBS_POT: usize = 12;
const OBS_TO_CALL: usize = 13;
const OBS_RAISE_TO: usize = 14;
const OBS_ROUND_BETS: usize = 16;
const OBS_VOLUNTARY: usize = 17;

fn seat_of(v: i64, n: usize, what: &str) -> PyResult<usize> {
    if v < 0 || v as usize >= n {
        return Err(argument_error(format!(
            "observation: {what} {v} is not a seat of {n}"
        )));
    }
    Ok(v as usize)
}

/// The heuristic bot's decision for an observation. `params` is `(keep_max, pat_max with
/// 1, 2 and 3 draws left, aggression)`; `r` a uniform random number in [0, 1) (betting
/// only). Returns `(code, cards)`: code 0 fold, 1 check, 2 call, 3 bet or raise, 4 bet or
/// raise only if the bot's bluff roll says so (else check), 5 discard `cards` (sorted ids).
#[pyfunction]
fn bots_heuristic<'py>(
    py: Python<'py>,
    params: (i64, i64, i64, i64, f64),
    obs: &Bound<'py, PyTuple>,
    r: f64,
) -> PyResult<(u8, Bound<'py, PyTuple>)> {
    let (keep, pat1) = check_rule(params.0, params.1)?;
    let (_, pat2) = check_rule(params.0, params.2)?;
    let (_, pat3) = check_rule(params.0, params.3)?;
    let h = Heuristic {
        keep_max: keep,
        pat_max: [0, pat1, pat2, pat3],
        aggression: params.4,
    };
    if obs.len() <= OBS_VOLUNTARY {
        return Err(argument_error("not an Observation"));
    }
    let item = |i: usize| obs.get_item(i);
    let n: usize = item(OBS_N)?.extract()?;
    if !(2..=MAX_SEATS).contains(&n) {
        return Err(argument_error(format!("observation: {n} players")));
    }
    let me = seat_of(item(OBS_SEAT)?.extract()?, n, "seat")?;
    let hole = hole_of(&item(OBS_HOLE)?)?;
    let phase = item(OBS_PHASE)?;
    let phase = phase.cast::<PyString>()?.to_str()?;
    let draw = match phase {
        "draw" => true,
        "bet" => false,
        other => {
            return Err(argument_error(format!(
                "observation: no decision in phase {other:?}"
            )))
        }
    };
    let street: u8 = item(OBS_STREET)?.extract()?;
    if street > 3 || (draw && street > 2) {
        return Err(argument_error(format!("observation: street {street}")));
    }
    let folded_t = item(OBS_FOLDED)?;
    let folded_t = folded_t.cast::<PyTuple>()?;
    let draws = item(OBS_DRAWS)?;
    let draws = draws.cast::<PyTuple>()?;
    if n > MAX_SEATS || folded_t.len() != n || draws.len() != n {
        return Err(argument_error(
            "observation: per-seat fields of the wrong length",
        ));
    }
    let mut folded = [false; MAX_SEATS];
    let mut last_drawn = [None; MAX_SEATS];
    for (j, f) in folded.iter_mut().enumerate().take(n) {
        *f = folded_t.get_item(j)?.extract()?;
        if j != me && !*f {
            let dj = draws.get_item(j)?;
            let dj = dj.cast::<PyTuple>()?;
            if !dj.is_empty() {
                last_drawn[j] = Some(dj.get_item(dj.len() - 1)?.extract()?);
            }
        }
    }
    let mut spot = Spot::new(me, n, hole, draw, street, &folded[..n], &last_drawn[..n]);
    if draw {
        return match h.choose(&spot, 0.0) {
            Choice::Discard(mask) => Ok((DISCARD_CODE, thrown(py, &hole, mask)?)),
            Choice::Bet(_) => unreachable!("a draw is a discard"),
        };
    }
    spot.to_call = item(OBS_TO_CALL)?.extract()?;
    spot.can_raise = !item(OBS_RAISE_TO)?.is_none();
    spot.big_blind = seat_of(item(OBS_BB)?.extract()?, n, "big blind seat")?;
    // a table's hand under the dead-button rule may have no small blind
    let sb_item = item(OBS_SB)?;
    spot.small_blind = if sb_item.is_none() {
        None
    } else {
        Some(seat_of(sb_item.extract()?, n, "small blind seat")?)
    };
    // read only where the heuristic looks at them (Spot::reads_stacks, reads_button)
    let mut stacks = [0i64; MAX_SEATS];
    if spot.reads_stacks() {
        let st = item(OBS_STACKS)?;
        let st = st.cast::<PyTuple>()?;
        if st.len() != n {
            return Err(argument_error(
                "observation: per-seat fields of the wrong length",
            ));
        }
        for (j, x) in stacks.iter_mut().enumerate().take(n) {
            *x = st.get_item(j)?.extract()?;
        }
        spot.stacks = &stacks[..n];
    } else if spot.reads_button() {
        spot.button = seat_of(item(OBS_BUTTON)?.extract()?, n, "button")?;
    }
    spot.pot = item(OBS_POT)?.extract()?;
    spot.round_bets = item(OBS_ROUND_BETS)?.extract()?;
    spot.voluntary = item(OBS_VOLUNTARY)?.extract()?;
    match h.choose(&spot, r) {
        Choice::Bet(d) => Ok((d.code(), PyTuple::empty(py))),
        Choice::Discard(_) => unreachable!("a betting round is no draw"),
    }
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(bots_standard_discard, m)?)?;
    m.add_function(wrap_pyfunction!(bots_heuristic, m)?)?;
    m.add("DECISION_NAMES", DECISION_NAMES.to_vec())?;
    Ok(())
}
