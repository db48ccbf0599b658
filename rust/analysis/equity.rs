//! Showdown equity of 2 to 6 hands with 0 to 3 draws left, each seat drawing by its own
//! strategy: the chance to win outright, to tie for the best hand, and the expected share of
//! the pot (a tie between k hands gives each 1/k).

use super::engine::{Model, RunOptions, Seat, Sink, Tally, MAX_SEATS};
use super::AnalysisError;

/// One seat's result. Standard errors are 0 for exact results.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SeatEquity {
    pub win: f64,
    pub tie: f64,
    pub share: f64,
    pub win_stderr: f64,
    pub tie_stderr: f64,
    pub share_stderr: f64,
}

#[derive(Clone, Debug)]
pub struct Equity {
    pub seats: Vec<SeatEquity>,
    pub exact: bool,
    /// Outcomes enumerated (exact) or trials run (sampled).
    pub outcomes: u64,
}

/// A tie between k hands pays 1/k: counted in sixtieths (60 = lcm(1..=6)), so every tally is
/// an exact integer.
const UNIT: u64 = 60;

#[derive(Clone, Debug, Default)]
pub(crate) struct EquityTally {
    pub trials: u64,
    pub win: [u64; MAX_SEATS],
    pub tie: [u64; MAX_SEATS],
    pub share: [u64; MAX_SEATS],
    pub share_sq: [u64; MAX_SEATS],
}

/// Calls `credit(seat, winners, part)` for every seat holding the best (lowest) rank: it wins
/// alone when `winners == 1`, else it ties; `part` is its share of the pot in [`UNIT`]s.
#[inline(always)]
fn for_each_winner(ranks: &[u16], mut credit: impl FnMut(usize, usize, u64)) {
    let best = ranks.iter().copied().min().unwrap_or(0);
    let winners = ranks.iter().filter(|&&r| r == best).count();
    let part = UNIT / winners as u64;
    for (s, &r) in ranks.iter().enumerate() {
        if r == best {
            credit(s, winners, part);
        }
    }
}

impl Tally for EquityTally {
    #[inline]
    fn record(&mut self, ranks: &[u16]) {
        self.trials += 1;
        for_each_winner(ranks, |s, winners, part| {
            if winners == 1 {
                self.win[s] += 1;
            } else {
                self.tie[s] += 1;
            }
            self.share[s] += part;
            self.share_sq[s] += part * part;
        });
    }

    fn merge(&mut self, o: Self) {
        self.trials += o.trials;
        for s in 0..MAX_SEATS {
            self.win[s] += o.win[s];
            self.tie[s] += o.tie[s];
            self.share[s] += o.share[s];
            self.share_sq[s] += o.share_sq[s];
        }
    }
}

impl EquityTally {
    pub(crate) fn result(&self, seats: usize) -> Vec<SeatEquity> {
        let n = self.trials as f64;
        let binom = |p: f64| (p * (1.0 - p) / n).max(0.0).sqrt();
        (0..seats)
            .map(|s| {
                let win = self.win[s] as f64 / n;
                let tie = self.tie[s] as f64 / n;
                let u = UNIT as f64;
                let share = self.share[s] as f64 / u / n;
                let mean_sq = self.share_sq[s] as f64 / (u * u) / n;
                let var = if n > 1.0 {
                    (mean_sq - share * share).max(0.0) * n / (n - 1.0)
                } else {
                    0.0
                };
                SeatEquity {
                    win,
                    tie,
                    share,
                    win_stderr: binom(win),
                    tie_stderr: binom(tie),
                    share_stderr: (var / n).sqrt(),
                }
            })
            .collect()
    }
}

#[derive(Clone, Debug, Default)]
pub(crate) struct EquitySink {
    pub win: [f64; MAX_SEATS],
    pub tie: [f64; MAX_SEATS],
    pub share: [f64; MAX_SEATS],
}

impl Sink for EquitySink {
    #[inline]
    fn leaf(&mut self, ranks: &[u16], w: f64) {
        for_each_winner(ranks, |s, winners, _| {
            if winners == 1 {
                self.win[s] += w;
            } else {
                self.tie[s] += w;
            }
            self.share[s] += w / winners as f64;
        });
    }
}

/// Equity of 2 to 6 seats with `draws` draws left (0 to 3). Exact when no draws are left and
/// every hand is known, or when the number of outcomes is small (see [`RunOptions`]); sampled
/// otherwise.
pub fn equity(
    seats: &[Seat],
    dead: &[u8],
    draws: u32,
    opts: &RunOptions,
) -> Result<Equity, AnalysisError> {
    if !(2..=MAX_SEATS).contains(&seats.len()) {
        return Err(AnalysisError::Seats {
            got: seats.len(),
            min: 2,
            max: MAX_SEATS,
        });
    }
    let model = Model::new(seats, dead, draws)?;
    equity_of_model(&model, opts, 0)
}

pub(crate) fn equity_of_model(
    model: &Model,
    opts: &RunOptions,
    stream0: u64,
) -> Result<Equity, AnalysisError> {
    let mut sink = EquitySink::default();
    if let Some(n) = model.try_exact(opts, &mut sink)? {
        let seats = (0..model.seats())
            // probabilities summed over the outcomes' weights: rounding may carry a sum a
            // few ulps past 1 (a hand that wins every outcome), which no probability is
            .map(|s| SeatEquity {
                win: sink.win[s].min(1.0),
                tie: sink.tie[s].min(1.0),
                share: sink.share[s].min(1.0),
                ..Default::default()
            })
            .collect();
        return Ok(Equity {
            seats,
            exact: true,
            outcomes: n,
        });
    }
    let tally = model.sample(
        &opts.key,
        opts.trials,
        opts.threads,
        stream0,
        EquityTally::default,
    )?;
    Ok(Equity {
        seats: tally.result(model.seats()),
        exact: false,
        outcomes: opts.trials,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::engine::Method;
    use crate::analysis::strategy::Strategy;
    use crate::cards::parse_text;
    use crate::eval::rank5;

    fn seat(name: &str, cards: &str, s: Strategy) -> Seat {
        Seat::new(name, &parse_text(cards).unwrap(), s)
    }

    #[test]
    fn analysis_zero_trials_or_threads_are_refused_not_nan() {
        // Found by the analysis_options fuzz target: zero sampled trials gave NaN shares.
        let std = Strategy::standard();
        let seats = [
            Seat::new("a", &parse_text("7c5d4h3sKd").unwrap(), std),
            Seat::new("b", &[], std),
        ];
        let opts = RunOptions {
            method: Method::Sample,
            trials: 0,
            threads: Some(1),
            ..Default::default()
        };
        assert_eq!(
            equity(&seats, &[], 1, &opts).unwrap_err(),
            AnalysisError::Invalid("trials must be at least 1".into())
        );
        let opts = RunOptions {
            trials: 10,
            threads: Some(0),
            ..opts
        };
        assert!(matches!(
            equity(&seats, &[], 1, &opts),
            Err(AnalysisError::Pool(crate::pool::PoolError::BadThreads(_)))
        ));
    }

    #[test]
    fn analysis_equity_no_draws_is_a_showdown() {
        let pat = Strategy::STAND_PAT;
        let e = equity(
            &[
                seat("a", "7c5d4h3s2c", pat),
                seat("b", "7d5h4s3c2d", pat),
                seat("c", "8h6h4c3d2s", pat),
            ],
            &[],
            0,
            &RunOptions::default(),
        )
        .unwrap();
        assert!(e.exact);
        assert_eq!(e.outcomes, 1);
        assert_eq!(e.seats[0].tie, 1.0);
        assert_eq!(e.seats[0].share, 0.5);
        assert_eq!(e.seats[2].share, 0.0);
    }

    #[test]
    fn analysis_equity_one_draw_by_brute_force() {
        // Hero 7-5-4-3 draws one to a king-less hand; villain pats 8-6-4-3-2.
        let hero = parse_text("7c5d4h3s").unwrap();
        let villain = parse_text("8c6d4c3c2h").unwrap();
        let vr = rank5([villain[0], villain[1], villain[2], villain[3], villain[4]]);
        let used: Vec<u8> = parse_text("7c5d4h3sKd8c6d4c3c2h").unwrap();
        let (mut win, mut tie, mut n) = (0, 0, 0);
        for c in 0..52u8 {
            if used.contains(&c) {
                continue;
            }
            n += 1;
            let r = rank5([hero[0], hero[1], hero[2], hero[3], c]);
            if r < vr {
                win += 1;
            } else if r == vr {
                tie += 1;
            }
        }
        let kd = parse_text("Kd").unwrap();
        let e = equity(
            &[
                seat(
                    "hero",
                    "7c5d4h3sKd",
                    Strategy::fixed(&kd, super::super::Plan::StandPat),
                ),
                seat("villain", "8c6d4c3c2h", Strategy::standard()),
            ],
            &[],
            1,
            &RunOptions::default(),
        )
        .unwrap();
        assert!(e.exact);
        assert_eq!(e.outcomes, n);
        assert!((e.seats[0].win - win as f64 / n as f64).abs() < 1e-12);
        assert!((e.seats[0].tie - tie as f64 / n as f64).abs() < 1e-12);
        assert!((e.seats[0].share + e.seats[1].share - 1.0).abs() < 1e-12);
    }

    #[test]
    fn analysis_equity_of_a_hand_that_always_wins_is_exactly_one() {
        // Any card keeps A-Q-8-6-2 (or a pair) ahead of two pair: 1 in every outcome, where
        // the summed weights came to 1.0000000000000007 (found by the hand review).
        let qd = parse_text("Qd").unwrap();
        let e = equity(
            &[
                seat(
                    "hero",
                    "2sQdAc8d6c",
                    Strategy::fixed(&qd, super::super::Plan::StandPat),
                ),
                seat("villain", "4h2hQs2c4d", Strategy::STAND_PAT),
            ],
            &[],
            1,
            &RunOptions::default(),
        )
        .unwrap();
        assert!(e.exact);
        assert_eq!(e.outcomes, 42);
        assert_eq!((e.seats[0].win, e.seats[0].share), (1.0, 1.0));
        assert_eq!(e.seats[1].share, 0.0);
    }

    #[test]
    fn analysis_equity_sampling_is_seeded_and_near_exact() {
        let std = Strategy::standard();
        let seats = [seat("a", "7c5d4h3sKd", std), seat("b", "8c6d5h2s2c", std)];
        let exact = equity(
            &seats,
            &[],
            1,
            &RunOptions {
                method: Method::Exact,
                ..Default::default()
            },
        )
        .unwrap();
        assert!(exact.exact);
        let opts = RunOptions {
            method: Method::Sample,
            trials: 60_000,
            key: [5; 32],
            ..Default::default()
        };
        let mc = equity(&seats, &[], 1, &opts).unwrap();
        assert!(!mc.exact);
        for s in 0..2 {
            let d = (mc.seats[s].share - exact.seats[s].share).abs();
            assert!(d < 5.0 * mc.seats[s].share_stderr, "{d} {:?}", mc.seats[s]);
        }
        for threads in [Some(1), Some(2), Some(4)] {
            let again = equity(
                &seats,
                &[],
                1,
                &RunOptions {
                    threads,
                    ..opts.clone()
                },
            )
            .unwrap();
            assert_eq!(again.seats, mc.seats);
        }
        // A random opponent: the same distribution from every thread count, too.
        let seats3 = [
            seat("a", "7c5d4h3sKd", std),
            Seat::new("b", &[], std),
            Seat::new("c", &[], std),
        ];
        let a = equity(
            &seats3,
            &[],
            3,
            &RunOptions {
                threads: Some(1),
                ..opts.clone()
            },
        )
        .unwrap();
        let b = equity(
            &seats3,
            &[],
            3,
            &RunOptions {
                threads: Some(3),
                ..opts.clone()
            },
        )
        .unwrap();
        assert_eq!(a.seats, b.seats);
        let total: f64 = a.seats.iter().map(|s| s.share).sum();
        assert!((total - 1.0).abs() < 1e-9);
    }

    #[test]
    fn analysis_equity_needs_two_to_six_seats() {
        let pat = Strategy::STAND_PAT;
        let one = [seat("a", "7c5d4h3s2c", pat)];
        assert!(equity(&one, &[], 0, &RunOptions::default()).is_err());
        let seven: Vec<Seat> = (0..7)
            .map(|i| Seat::new(format!("h{i}"), &[], pat))
            .collect();
        assert_eq!(
            equity(&seven, &[], 0, &RunOptions::default())
                .unwrap_err()
                .to_string(),
            "expected 2 to 6 hands, got 7"
        );
    }
}
