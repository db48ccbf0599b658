//! One model of an analysis request — up to six seats, each with 0 to 5 known cards and a
//! strategy, some dead cards, 0 to 3 draws left — and the two ways to run it:
//!
//! * [`Model::enumerate`]: every outcome, weighted by its probability (exact). Events run in a
//!   fixed order: the unknown cards of each seat are dealt (seat order), then each draw, seat
//!   by seat. A seat's replacements are a uniformly random subset of the stub.
//! * [`Model::sample`]: seeded Monte Carlo, in chunks of [`CHUNK`] trials; chunk `i` uses the
//!   ChaCha12 stream of the key with stream id `i`. Tallies are integer counts merged by
//!   addition, so results do not depend on the number of threads.
//!
//! The stub starts as every card that is not known and not dead. Discards go to a pool that
//! is shuffled into a new stub only when a seat needs more cards than the stub holds
//! (the default rule, README: *Running out of cards*: the pool never holds the discards of
//! the seat being served);
//! an exact enumeration that would need a reshuffle is refused and the request is sampled.
//! Only this default rule is modelled: the analysis API has no rules option, so the
//! "pokerstars" variant (a player never receives any card he threw earlier in the hand) is
//! not a mode of this model. Under the default rule a seat may get back its discards of
//! *earlier* draws once the pool is reshuffled, never those of the draw being served.

use super::strategy::Strategy;
use super::{choose, combos::for_each_combo, in_pool, mask_of, AnalysisError, CHUNK, MAX_DRAWS};
use crate::cards::card_text;
use crate::deck::below;
use crate::eval::{tables, Tables};
use rand_chacha::ChaCha12Rng;
use rand_core::SeedableRng;

/// Most seats a model holds.
pub const MAX_SEATS: usize = 6;

/// How to compute a result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// Enumerate when the number of outcomes is at most `exact_limit`, else sample.
    Auto,
    /// Always enumerate (fails only when a reshuffle would be needed).
    Exact,
    /// Always sample `trials` trials.
    Sample,
}

/// Options shared by every kernel.
#[derive(Clone, Debug)]
pub struct RunOptions {
    pub method: Method,
    /// Trials when sampling.
    pub trials: u64,
    /// The 32-byte key of the random stream.
    pub key: [u8; 32],
    /// Worker threads (`None` = every core; at most [`crate::pool::MAX_THREADS`]).
    pub threads: Option<usize>,
    /// `Auto` enumerates when there are at most this many outcomes.
    pub exact_limit: u64,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            method: Method::Auto,
            trials: 200_000,
            key: [0; 32],
            threads: None,
            exact_limit: 2_000_000,
        }
    }
}

/// One seat: its known cards (0 to 5; the rest are dealt at random) and its strategy.
#[derive(Clone, Debug)]
pub struct Seat {
    pub name: String,
    pub known: Vec<u8>,
    pub strategy: Strategy,
}

impl Seat {
    pub fn new(name: impl Into<String>, known: &[u8], strategy: Strategy) -> Seat {
        Seat {
            name: name.into(),
            known: known.to_vec(),
            strategy,
        }
    }
}

/// A validated request, ready to run.
#[derive(Clone)]
pub struct Model {
    pub(crate) n: usize,
    pub(crate) hands: [[u8; 5]; MAX_SEATS],
    pub(crate) known: [u8; MAX_SEATS],
    pub(crate) strategies: [Strategy; MAX_SEATS],
    pub(crate) stub: [u8; 52],
    pub(crate) stub_len: usize,
    pub(crate) draws: u8,
    reshuffle_possible: bool,
    names: Vec<String>,
    t: &'static Tables,
}

impl std::fmt::Debug for Model {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Model")
            .field("seats", &self.names)
            .field("hands", &&self.hands[..self.n])
            .field("known", &&self.known[..self.n])
            .field("strategies", &&self.strategies[..self.n])
            .field("stub", &&self.stub[..self.stub_len])
            .field("draws", &self.draws)
            .finish()
    }
}

/// Something that receives the final ranks of every outcome.
pub trait Sink {
    fn leaf(&mut self, ranks: &[u16], weight: f64);
}

/// Something that counts sampled trials.
pub trait Tally: Send {
    fn record(&mut self, ranks: &[u16]);
    fn merge(&mut self, other: Self);
}

#[derive(Clone, Copy, Debug)]
enum Event {
    Deal { seat: usize },
    Draw { draw: usize, seat: usize },
}

impl Model {
    /// Validates seats, dead cards and the number of draws.
    pub fn new(seats: &[Seat], dead: &[u8], draws: u32) -> Result<Model, AnalysisError> {
        if draws > MAX_DRAWS as u32 {
            return Err(AnalysisError::TooManyDraws(draws));
        }
        if seats.is_empty() || seats.len() > MAX_SEATS {
            return Err(AnalysisError::Seats {
                got: seats.len(),
                min: 1,
                max: MAX_SEATS,
            });
        }
        let mut owner: [Option<usize>; 52] = [None; 52];
        let dead_owner = seats.len();
        let name_of = |i: usize| -> String {
            if i == dead_owner {
                "the dead cards".to_string()
            } else {
                seats[i].name.clone()
            }
        };
        let mut claim = |c: u8, who: usize| -> Result<(), AnalysisError> {
            if c >= 52 {
                return Err(AnalysisError::Invalid(format!(
                    "invalid card id {c} in {}: ids run from 0 (2c) to 51 (As)",
                    name_of(who)
                )));
            }
            if let Some(prev) = owner[c as usize] {
                return Err(AnalysisError::Duplicate {
                    card: card_text(c),
                    first: name_of(prev),
                    second: name_of(who),
                });
            }
            owner[c as usize] = Some(who);
            Ok(())
        };
        let mut m = Model {
            n: seats.len(),
            hands: [[0; 5]; MAX_SEATS],
            known: [0; MAX_SEATS],
            strategies: [Strategy::STAND_PAT; MAX_SEATS],
            stub: [0; 52],
            stub_len: 0,
            draws: draws as u8,
            reshuffle_possible: false,
            names: seats.iter().map(|s| s.name.clone()).collect(),
            t: tables(),
        };
        for (i, s) in seats.iter().enumerate() {
            if s.known.len() > 5 {
                return Err(AnalysisError::Invalid(format!(
                    "{} has {} cards: a hand has at most 5",
                    s.name,
                    s.known.len()
                )));
            }
            for &c in &s.known {
                claim(c, i)?;
            }
            m.hands[i][..s.known.len()].copy_from_slice(&s.known);
            m.known[i] = s.known.len() as u8;
            m.strategies[i] = s.strategy;
            if let Some(first) = s.strategy.first {
                let known = mask_of(&s.known);
                if first & !known != 0 {
                    let c = (first & !known).trailing_zeros() as u8;
                    return Err(AnalysisError::not_in_hand(c, s.name.clone()));
                }
                if draws == 0 && first != 0 {
                    return Err(AnalysisError::Invalid(format!(
                        "{} has a discard but no draw is left",
                        s.name
                    )));
                }
            }
        }
        for &c in dead {
            claim(c, dead_owner)?;
        }
        let in_hands = 5 * seats.len();
        let available = 52 - dead.len();
        if in_hands > available {
            return Err(AnalysisError::NotEnoughCards {
                needed: in_hands,
                available,
                what: format!("dealing {} hands", seats.len()),
            });
        }
        for c in 0..52u8 {
            if owner[c as usize].is_none() {
                m.stub[m.stub_len] = c;
                m.stub_len += 1;
            }
        }
        let unknown: usize = (0..m.n).map(|i| 5 - m.known[i] as usize).sum();
        m.reshuffle_possible = m.stub_len - unknown < 5 * m.n * draws as usize;
        Ok(m)
    }

    pub fn seats(&self) -> usize {
        self.n
    }

    fn events(&self) -> Vec<Event> {
        let mut ev = Vec::new();
        for s in 0..self.n {
            if self.known[s] < 5 {
                ev.push(Event::Deal { seat: s });
            }
        }
        for d in 0..self.draws as usize {
            for s in 0..self.n {
                ev.push(Event::Draw { draw: d, seat: s });
            }
        }
        ev
    }

    fn stub_mask(&self) -> u64 {
        mask_of(&self.stub[..self.stub_len])
    }

    #[inline(always)]
    fn decide(&self, draw: usize, seat: usize, hand: &[u8; 5]) -> u8 {
        let s = &self.strategies[seat];
        let rank = if s.needs_rank(draw) {
            self.t.rank5(*hand)
        } else {
            0
        };
        s.discard(draw, hand, rank)
    }

    /// The number of outcomes an exact enumeration visits, or `None` when it exceeds `limit`
    /// or would need a reshuffle.
    pub fn count_outcomes(&self, limit: u64) -> Option<u64> {
        let events = self.events();
        let mut hands = self.hands;
        let mut total = 0u64;
        if self.count_rec(&events, 0, &mut hands, self.stub_mask(), limit, &mut total) {
            Some(total)
        } else {
            None
        }
    }

    fn count_rec(
        &self,
        events: &[Event],
        e: usize,
        hands: &mut [[u8; 5]; MAX_SEATS],
        stub: u64,
        limit: u64,
        total: &mut u64,
    ) -> bool {
        if e == events.len() {
            *total += 1;
            return *total <= limit;
        }
        let n = stub.count_ones() as u64;
        let (seat, slots) = match events[e] {
            Event::Deal { seat } => (seat, ((1u8 << 5) - 1) & !((1u8 << self.known[seat]) - 1)),
            Event::Draw { draw, seat } => (seat, self.decide(draw, seat, &hands[seat])),
        };
        let k = slots.count_ones() as u64;
        if k > n {
            return false; // needs a reshuffle
        }
        if e + 1 == events.len() {
            *total = total.saturating_add(choose(n, k));
            return *total <= limit;
        }
        if k == 0 {
            return self.count_rec(events, e + 1, hands, stub, limit, total);
        }
        let cards = super::cards_of_mask(stub);
        let saved = hands[seat];
        let mut ok = true;
        for_each_combo(&cards, k as usize, |combo| {
            if !ok {
                return;
            }
            place(&mut hands[seat], slots, combo);
            ok = self.count_rec(events, e + 1, hands, stub & !mask_of(combo), limit, total);
        });
        hands[seat] = saved;
        ok
    }

    /// Visits every outcome with its probability. Call [`Model::count_outcomes`] first: this
    /// assumes no reshuffle is needed.
    pub fn enumerate<S: Sink>(&self, sink: &mut S) {
        let events = self.events();
        let mut hands = self.hands;
        self.enum_rec(&events, 0, &mut hands, self.stub_mask(), 1.0, sink);
    }

    fn enum_rec<S: Sink>(
        &self,
        events: &[Event],
        e: usize,
        hands: &mut [[u8; 5]; MAX_SEATS],
        stub: u64,
        w: f64,
        sink: &mut S,
    ) {
        let mut ranks = [0u16; MAX_SEATS];
        if e == events.len() {
            for s in 0..self.n {
                ranks[s] = self.t.rank5(hands[s]);
            }
            sink.leaf(&ranks[..self.n], w);
            return;
        }
        let (seat, slots) = match events[e] {
            Event::Deal { seat } => (seat, ((1u8 << 5) - 1) & !((1u8 << self.known[seat]) - 1)),
            Event::Draw { draw, seat } => (seat, self.decide(draw, seat, &hands[seat])),
        };
        let k = slots.count_ones() as usize;
        if k == 0 {
            self.enum_rec(events, e + 1, hands, stub, w, sink);
            return;
        }
        let cards = super::cards_of_mask(stub);
        let w = w / choose(cards.len() as u64, k as u64) as f64;
        let saved = hands[seat];
        if e + 1 == events.len() {
            // Last event: only this seat's rank changes.
            for s in 0..self.n {
                ranks[s] = self.t.rank5(hands[s]);
            }
            let t = self.t;
            let n = self.n;
            for_each_combo(&cards, k, |combo| {
                let mut h = saved;
                place(&mut h, slots, combo);
                ranks[seat] = t.rank5(h);
                sink.leaf(&ranks[..n], w);
            });
        } else {
            for_each_combo(&cards, k, |combo| {
                place(&mut hands[seat], slots, combo);
                self.enum_rec(events, e + 1, hands, stub & !mask_of(combo), w, sink);
            });
        }
        hands[seat] = saved;
    }

    /// Runs `trials` sampled trials split into chunks; chunk `i` uses stream `stream0 + i`.
    pub fn sample<T, F>(
        &self,
        key: &[u8; 32],
        trials: u64,
        threads: Option<usize>,
        stream0: u64,
        new: F,
    ) -> Result<T, AnalysisError>
    where
        T: Tally,
        F: Fn() -> T + Sync + Send,
    {
        if trials == 0 {
            // Zero trials would divide by zero into NaN results.
            return Err(AnalysisError::Invalid("trials must be at least 1".into()));
        }
        let chunks = trials.div_ceil(CHUNK);
        let run = |ci: u64, acc: &mut T| -> Result<(), AnalysisError> {
            let n = CHUNK.min(trials - ci * CHUNK);
            let mut rng = ChaCha12Rng::from_seed(*key);
            rng.set_stream(stream0.wrapping_add(ci));
            let mut work = [0u8; 52];
            let mut ranks = [0u16; MAX_SEATS];
            for _ in 0..n {
                self.trial(&mut rng, &mut work, &mut ranks)?;
                acc.record(&ranks[..self.n]);
            }
            Ok(())
        };
        let chunks = usize::try_from(chunks)
            .map_err(|_| AnalysisError::Invalid(format!("too many trials: {trials}")))?;
        let tallies = in_pool(threads, |t| {
            crate::pool::fold(t, chunks, &new, |acc, ci| run(ci as u64, acc))
        })??;
        // Integer tallies: the sum does not depend on which lane counted which chunk.
        let mut total = new();
        for t in tallies {
            total.merge(t);
        }
        Ok(total)
    }

    /// One random playout ranked: every seat's final rank into `ranks`.
    #[inline(always)]
    fn trial(
        &self,
        rng: &mut ChaCha12Rng,
        work: &mut [u8; 52],
        ranks: &mut [u16; MAX_SEATS],
    ) -> Result<(), AnalysisError> {
        self.play(rng, work, ranks).map(|_| ())
    }

    /// One random playout: deal the unknown cards, run every draw; the final hands, and
    /// their ranks in `ranks`.
    #[inline(always)]
    #[allow(clippy::needless_range_loop)]
    fn play(
        &self,
        rng: &mut ChaCha12Rng,
        work: &mut [u8; 52],
        ranks: &mut [u16; MAX_SEATS],
    ) -> Result<[[u8; 5]; MAX_SEATS], AnalysisError> {
        let mut end = self.stub_len;
        work[..end].copy_from_slice(&self.stub[..end]);
        let mut pos = 0usize;
        let mut hands = self.hands;
        macro_rules! deal {
            () => {{
                let j = pos + below(rng, (end - pos) as u32) as usize;
                work.swap(pos, j);
                pos += 1;
                work[pos - 1]
            }};
        }
        for s in 0..self.n {
            for slot in self.known[s] as usize..5 {
                hands[s][slot] = deal!();
            }
        }
        let mut pool = [0u8; 52];
        let mut pool_len = 0usize;
        // ranks[s] is the rank of hands[s] when known, else 0. A seat whose rule stands pat
        // is settled: the same hand stands pat at every later draw.
        *ranks = [0; MAX_SEATS];
        let mut settled: u8 = 0;
        for d in 0..self.draws as usize {
            for s in 0..self.n {
                if settled >> s & 1 == 1 {
                    continue;
                }
                let strategy = &self.strategies[s];
                let need = strategy.needs_rank(d);
                if need && ranks[s] == 0 {
                    ranks[s] = self.t.rank5(hands[s]);
                }
                let mut m = strategy.discard(d, &hands[s], ranks[s]);
                if m == 0 {
                    if need {
                        settled |= 1 << s;
                    }
                    continue;
                }
                ranks[s] = 0;
                if !self.reshuffle_possible {
                    while m != 0 {
                        let i = m.trailing_zeros() as usize;
                        m &= m - 1;
                        hands[s][i] = deal!();
                    }
                } else {
                    let mut thrown = [0u8; 5];
                    let mut nt = 0;
                    while m != 0 {
                        let i = m.trailing_zeros() as usize;
                        m &= m - 1;
                        thrown[nt] = hands[s][i];
                        nt += 1;
                        if pos == end {
                            if pool_len == 0 {
                                return Err(AnalysisError::NotEnoughCards {
                                    needed: nt,
                                    available: nt - 1,
                                    what: format!("the draw of {}", self.names[s]),
                                });
                            }
                            work[..pool_len].copy_from_slice(&pool[..pool_len]);
                            pos = 0;
                            end = pool_len;
                            pool_len = 0;
                        }
                        hands[s][i] = deal!();
                    }
                    pool[pool_len..pool_len + nt].copy_from_slice(&thrown[..nt]);
                    pool_len += nt;
                }
            }
        }
        for s in 0..self.n {
            if ranks[s] == 0 {
                ranks[s] = self.t.rank5(hands[s]);
            }
        }
        Ok(hands)
    }

    /// Runs the model exactly or by sampling according to `opts`: `Ok(Some(outcomes))` after
    /// an enumeration into `sink`, `Ok(None)` when the caller must sample instead.
    pub fn try_exact<S: Sink>(
        &self,
        opts: &RunOptions,
        sink: &mut S,
    ) -> Result<Option<u64>, AnalysisError> {
        let limit = match opts.method {
            Method::Sample => return Ok(None),
            Method::Auto => opts.exact_limit,
            Method::Exact => u64::MAX,
        };
        match self.count_outcomes(limit) {
            Some(n) => {
                self.enumerate(sink);
                Ok(Some(n))
            }
            None if opts.method == Method::Exact => Err(AnalysisError::Invalid(
                "cannot enumerate exactly: the stub would run out and need a reshuffle; \
                 sample instead"
                    .into(),
            )),
            None => Ok(None),
        }
    }
}

/// Writes `combo` into the positions of `hand` whose bits are set in `slots`.
#[inline(always)]
fn place(hand: &mut [u8; 5], slots: u8, combo: &[u8]) {
    let mut m = slots;
    let mut j = 0;
    while m != 0 {
        let i = m.trailing_zeros() as usize;
        m &= m - 1;
        hand[i] = combo[j];
        j += 1;
    }
}

/// The distribution of seat 0's final rank.
#[derive(Clone, Debug)]
pub struct HistSink {
    pub probs: Vec<f64>,
}

impl HistSink {
    pub fn new() -> Self {
        HistSink {
            probs: vec![0.0; crate::eval::NUM_CLASSES as usize + 1],
        }
    }
}

impl Default for HistSink {
    fn default() -> Self {
        Self::new()
    }
}

impl Sink for HistSink {
    #[inline]
    fn leaf(&mut self, ranks: &[u16], w: f64) {
        self.probs[ranks[0] as usize] += w;
    }
}

/// Counts of seat 0's final rank.
#[derive(Clone, Debug)]
pub struct HistTally {
    pub counts: Vec<u64>,
}

impl HistTally {
    pub fn new() -> Self {
        HistTally {
            counts: vec![0; crate::eval::NUM_CLASSES as usize + 1],
        }
    }
}

impl Default for HistTally {
    fn default() -> Self {
        Self::new()
    }
}

impl Tally for HistTally {
    #[inline]
    fn record(&mut self, ranks: &[u16]) {
        self.counts[ranks[0] as usize] += 1;
    }
    fn merge(&mut self, other: Self) {
        for (a, b) in self.counts.iter_mut().zip(other.counts) {
            *a += b;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::parse_text;

    fn seat(name: &str, cards: &str, s: Strategy) -> Seat {
        Seat::new(name, &parse_text(cards).unwrap(), s)
    }

    #[test]
    fn analysis_model_rejects_bad_requests() {
        let pat = Strategy::STAND_PAT;
        let a = seat("hand 1", "7c5d4h3sKd", pat);
        let b = seat("hand 2", "7c6d5h4s2c", pat);
        let e = Model::new(&[a.clone(), b], &[], 1).unwrap_err();
        assert_eq!(e.to_string(), "card 7c is both in hand 1 and in hand 2");
        let e = Model::new(std::slice::from_ref(&a), &parse_text("Kd").unwrap(), 1).unwrap_err();
        assert_eq!(
            e.to_string(),
            "card Kd is both in hand 1 and in the dead cards"
        );
        assert_eq!(
            Model::new(std::slice::from_ref(&a), &[], 4).unwrap_err(),
            AnalysisError::TooManyDraws(4)
        );
        let s = Strategy::fixed(&parse_text("2c").unwrap(), super::super::Plan::StandPat);
        let e = Model::new(&[seat("hand 1", "7c5d4h3sKd", s)], &[], 1).unwrap_err();
        assert_eq!(e.to_string(), "cannot discard 2c: it is not in hand 1");
        let dead: Vec<u8> = (9..52).collect();
        let e = Model::new(
            &[seat("hand 1", "", pat), seat("hand 2", "", pat)],
            &dead,
            0,
        );
        assert!(e
            .unwrap_err()
            .to_string()
            .starts_with("more cards than the deck holds"));
    }

    #[test]
    fn analysis_reshuffle_keeps_cards_distinct() {
        // Six unknown hands with heavy draws and dead cards: the stub must run out and the
        // reshuffled pool must never hand out a card that is in play.
        struct Check;
        impl Tally for Check {
            fn record(&mut self, _: &[u16]) {}
            fn merge(&mut self, _: Self) {}
        }
        let rule = Strategy::rule(super::super::Rule::new(1, 1).unwrap());
        let seats: Vec<Seat> = (0..6)
            .map(|i| Seat::new(format!("hand {i}"), &[], rule))
            .collect();
        let m = Model::new(&seats, &[48, 49, 50, 51], 3).unwrap();
        assert!(m.reshuffle_possible);
        let mut rng = ChaCha12Rng::from_seed([3; 32]);
        let mut work = [0u8; 52];
        let mut ranks = [0u16; MAX_SEATS];
        for _ in 0..2000 {
            let hands = m.play(&mut rng, &mut work, &mut ranks).unwrap();
            for s in 0..6 {
                assert_eq!(ranks[s], crate::eval::rank5(hands[s]));
            }
            let all: Vec<u8> = hands.iter().flatten().copied().collect();
            let mask = mask_of(&all);
            assert_eq!(mask.count_ones(), 30, "{all:?}");
            assert_eq!(mask >> 48, 0, "a dead card was dealt: {all:?}");
        }
        let r: Result<Check, _> = m.sample(&[1; 32], 5000, Some(2), 0, || Check);
        assert!(r.is_ok());
    }
    #[test]
    fn analysis_sampled_reshuffle_follows_the_default_rule() {
        use super::super::{Plan, Rule};
        let ids = |s: &str| crate::cards::parse_text(s).unwrap();
        let mut rng = ChaCha12Rng::from_seed([9; 32]);
        let mut work = [0u8; 52];
        let mut ranks = [0u16; MAX_SEATS];
        // Two seats throw all five; the stub holds five. A empties it; the pool then holds
        // A's discards but not B's own, so B receives exactly A's five discards.
        let a = "7c5d4h3sKd";
        let b = "8c6d5h2s2c";
        let stub = ids("9s9h9d9cTs");
        let known: u64 = mask_of(&ids(&format!("{a}{b}"))) | mask_of(&stub);
        let dead: Vec<u8> = (0..52u8).filter(|&c| known >> c & 1 == 0).collect();
        let all_five = |h: &str| Strategy::fixed(&ids(h), Plan::StandPat);
        let m = Model::new(
            &[seat("A", a, all_five(a)), seat("B", b, all_five(b))],
            &dead,
            1,
        )
        .unwrap();
        for _ in 0..50 {
            let hands = m.play(&mut rng, &mut work, &mut ranks).unwrap();
            assert_eq!(mask_of(&hands[0]), mask_of(&stub));
            assert_eq!(mask_of(&hands[1]), mask_of(&ids(a)));
        }
        // One seat alone: its own discards of this draw are never reshuffled for it, so a
        // draw that empties the stub cannot complete.
        let three = mask_of(&ids(a)) | mask_of(&ids("9s9h9d"));
        let dead3: Vec<u8> = (0..52u8).filter(|&c| three >> c & 1 == 0).collect();
        let m = Model::new(&[seat("A", a, all_five(a))], &dead3, 1).unwrap();
        assert!(m.play(&mut rng, &mut work, &mut ranks).is_err());
        // But the discards of an earlier draw do come back (the default rule; the
        // "pokerstars" rule would forbid it and is not modelled here).
        let redraw = Strategy {
            first: Some(mask_of(&ids(a))),
            then: Plan::Rule(Rule::new(0, 1).unwrap()),
        };
        let dead1: Vec<u8> = (0..52u8)
            .filter(|&c| (mask_of(&ids(a)) | mask_of(&stub)) >> c & 1 == 0)
            .collect();
        let m = Model::new(&[seat("A", a, redraw)], &dead1, 2).unwrap();
        let mut got_back = 0;
        for _ in 0..50 {
            let hands = m.play(&mut rng, &mut work, &mut ranks).unwrap();
            let h = mask_of(&hands[0]);
            assert_eq!(h & !(mask_of(&ids(a)) | mask_of(&stub)), 0);
            got_back += (h & mask_of(&ids(a))).count_ones();
        }
        assert!(got_back > 0);
    }
}
