//! The distribution of a hand's final rank after discarding and drawing.
//!
//! One draw is always computed exactly, by enumerating every set of replacements from the
//! unseen cards (52 minus the hand, minus dead cards; the discards were part of the hand).
//! With more draws, the later draws follow a [`Plan`] and the result is enumerated when the
//! number of outcomes is small, else sampled.

use super::engine::{HistSink, HistTally, Method, Model, RunOptions, Seat};
use super::strategy::{Plan, Strategy};
use super::{choose, mask_of, AnalysisError, MAX_DRAWS};
use crate::cards::card_text;
use crate::eval::{tables, Category, NUM_CLASSES};

/// The distribution of the final rank.
#[derive(Clone, Debug)]
pub struct DrawOdds {
    /// `probs[r]` = probability of finishing with rank `r` (index 0 unused).
    pub probs: Vec<f64>,
    /// The probability of each category, best first ([`Category::ALL`] order).
    pub categories: [f64; 9],
    /// For one draw (exact): how many of the equally likely replacement sets give each rank.
    pub counts: Option<Vec<u64>>,
    /// Whether the result was enumerated (exact) rather than sampled.
    pub exact: bool,
    /// Outcomes enumerated (exact) or trials run (sampled).
    pub outcomes: u64,
}

impl DrawOdds {
    /// Probability of finishing at `rank` or better.
    pub fn p_at_most(&self, rank: u16) -> f64 {
        self.probs[1..=rank.min(NUM_CLASSES) as usize].iter().sum()
    }

    fn from_probs(probs: Vec<f64>, counts: Option<Vec<u64>>, exact: bool, outcomes: u64) -> Self {
        let t = tables();
        let mut categories = [0.0; 9];
        for (r, &p) in probs.iter().enumerate().skip(1) {
            categories[t.class(r as u16).category as usize] += p;
        }
        for c in &mut categories {
            *c = c.min(1.0); // (sums of probabilities: rounding must not carry one past 1)
        }
        DrawOdds {
            probs,
            categories,
            counts,
            exact,
            outcomes,
        }
    }

    pub fn category(&self, c: Category) -> f64 {
        self.categories[c as usize]
    }
}

/// Nested loops putting every combination of `$u[$from..]` (in order) into the listed slots
/// of the hand `$h`, innermost slot last, and counting each final rank into `$counts`. A
/// macro so that each depth compiles to plain nested loops: this is the hot loop of one exact
/// draw, and a recursive function (~7% slower) or `combos::for_each_combo` (~5x) cost more.
macro_rules! fill_and_count {
    ($t:ident, $h:ident, $counts:ident, $u:ident, $from:expr; $slot:literal) => {
        for &c in &$u[$from..] {
            $h[$slot] = c;
            $counts[$t.rank5($h) as usize] += 1;
        }
    };
    ($t:ident, $h:ident, $counts:ident, $u:ident, $from:expr; $slot:literal $($rest:literal)+) => {
        for i in $from..$u.len() {
            $h[$slot] = $u[i];
            fill_and_count!($t, $h, $counts, $u, i + 1; $($rest)+);
        }
    };
}

/// Counts the final rank of every way to fill `kept` (0 to 5 cards) up to five cards from
/// `unseen` into `counts` (indexed by rank); returns the number of ways.
pub fn one_draw_counts(kept: &[u8], unseen: &[u8], counts: &mut [u64]) -> u64 {
    let t = tables();
    let mut h = [0u8; 5];
    h[..kept.len()].copy_from_slice(kept);
    match 5 - kept.len() {
        0 => counts[t.rank5(h) as usize] += 1,
        1 => fill_and_count!(t, h, counts, unseen, 0; 4),
        2 => fill_and_count!(t, h, counts, unseen, 0; 3 4),
        3 => fill_and_count!(t, h, counts, unseen, 0; 2 3 4),
        4 => fill_and_count!(t, h, counts, unseen, 0; 1 2 3 4),
        _ => fill_and_count!(t, h, counts, unseen, 0; 0 1 2 3 4),
    }
    choose(unseen.len() as u64, (5 - kept.len()) as u64)
}

/// Checks a five-card hand and a discard from it; returns the kept cards and the unseen
/// cards (52 minus the hand, minus `dead`).
pub(crate) fn split_hand(
    hand: &[u8],
    discard: &[u8],
    dead: &[u8],
) -> Result<(Vec<u8>, Vec<u8>), AnalysisError> {
    if hand.len() != 5 {
        return Err(AnalysisError::HandSize {
            what: "the hand".into(),
            got: hand.len(),
        });
    }
    // Model::new does the full duplicate / dead-card validation with good messages.
    Model::new(&[Seat::new("the hand", hand, Strategy::STAND_PAT)], dead, 1)?;
    let hm = mask_of(hand);
    let mut dm = 0u64;
    for &c in discard {
        if c >= 52 || hm >> c & 1 == 0 {
            return Err(AnalysisError::not_in_hand(c, "the hand"));
        }
        if dm >> c & 1 == 1 {
            return Err(AnalysisError::Duplicate {
                card: card_text(c),
                first: "the discard".into(),
                second: "the discard".into(),
            });
        }
        dm |= 1 << c;
    }
    let kept: Vec<u8> = hand.iter().copied().filter(|&c| dm >> c & 1 == 0).collect();
    let out = hm | mask_of(dead);
    let unseen: Vec<u8> = (0..52u8).filter(|&c| out >> c & 1 == 0).collect();
    Ok((kept, unseen))
}

/// The final rank of one hand, as found by [`rank_hist`].
pub(crate) enum RankHist {
    /// One draw, enumerated: how many of the `outcomes` replacement sets give each rank.
    Counted { counts: Vec<u64>, outcomes: u64 },
    /// Enumerated over several draws: the probability of each rank.
    Exact { probs: Vec<f64>, outcomes: u64 },
    /// Sampled: how many of the `trials` trials ended at each rank.
    Sampled { counts: Vec<u64>, trials: u64 },
}

/// The final rank of `hand` drawing by `strategy` with `draws` draws left (1 to 3); `kept` and
/// `unseen` are what [`split_hand`] gives for the strategy's first discard. One draw is counted
/// exactly (unless `opts` asks for sampling); more draws are enumerated when small, else
/// sampled.
pub(crate) fn rank_hist(
    hand: &[u8],
    kept: &[u8],
    unseen: &[u8],
    strategy: Strategy,
    draws: u32,
    dead: &[u8],
    opts: &RunOptions,
) -> Result<RankHist, AnalysisError> {
    if draws == 1 && opts.method != Method::Sample {
        let mut counts = vec![0u64; NUM_CLASSES as usize + 1];
        let outcomes = one_draw_counts(kept, unseen, &mut counts);
        return Ok(RankHist::Counted { counts, outcomes });
    }
    let model = Model::new(&[Seat::new("the hand", hand, strategy)], dead, draws)?;
    let mut sink = HistSink::new();
    if let Some(outcomes) = model.try_exact(opts, &mut sink)? {
        return Ok(RankHist::Exact {
            probs: sink.probs,
            outcomes,
        });
    }
    let tally = model.sample(&opts.key, opts.trials, opts.threads, 0, HistTally::new)?;
    Ok(RankHist::Sampled {
        counts: tally.counts,
        trials: opts.trials,
    })
}

/// The distribution of the final hand after discarding `discard` from `hand` and drawing,
/// with `draws` draws left (1 to 3); draws after the first follow `later`.
pub fn draw_odds(
    hand: &[u8],
    discard: &[u8],
    draws: u32,
    later: Plan,
    dead: &[u8],
    opts: &RunOptions,
) -> Result<DrawOdds, AnalysisError> {
    if draws > MAX_DRAWS as u32 {
        return Err(AnalysisError::TooManyDraws(draws));
    }
    if draws == 0 {
        return Err(AnalysisError::Invalid(
            "draw_odds needs at least one draw".into(),
        ));
    }
    let (kept, unseen) = split_hand(hand, discard, dead)?;
    let need = 5 - kept.len();
    if need > unseen.len() {
        return Err(AnalysisError::NotEnoughCards {
            needed: need,
            available: unseen.len(),
            what: "the draw".into(),
        });
    }
    let strategy = Strategy {
        first: Some(mask_of(discard)),
        then: later,
    };
    let share = |counts: &[u64], of: u64| counts.iter().map(|&c| c as f64 / of as f64).collect();
    Ok(
        match rank_hist(hand, &kept, &unseen, strategy, draws, dead, opts)? {
            RankHist::Counted { counts, outcomes } => {
                let probs = share(&counts, outcomes);
                DrawOdds::from_probs(probs, Some(counts), true, outcomes)
            }
            RankHist::Exact { probs, outcomes } => {
                DrawOdds::from_probs(probs, None, true, outcomes)
            }
            RankHist::Sampled { counts, trials } => {
                DrawOdds::from_probs(share(&counts, trials), None, false, trials)
            }
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::strategy::Rule;
    use crate::cards::parse_text;

    fn ids(s: &str) -> Vec<u8> {
        parse_text(s).unwrap()
    }

    #[test]
    fn analysis_one_card_to_the_wheel_is_4_in_47() {
        let r = draw_odds(
            &ids("7c5d4h3sKd"),
            &ids("Kd"),
            1,
            Plan::StandPat,
            &[],
            &RunOptions::default(),
        )
        .unwrap();
        assert!(r.exact);
        assert_eq!(r.outcomes, 47);
        assert_eq!(r.counts.as_ref().unwrap()[1], 4);
        assert!((r.p_at_most(1) - 4.0 / 47.0).abs() < 1e-15);
        // Any 8-low: deuces and eights (a six makes the straight 7-6-5-4-3).
        assert!((r.p_at_most(crate::analysis::worst_low(6).unwrap()) - 8.0 / 47.0).abs() < 1e-15);
        assert!((r.p_at_most(crate::analysis::worst_low(5).unwrap()) - 4.0 / 47.0).abs() < 1e-15);
        let total: f64 = r.categories.iter().sum();
        assert!((total - 1.0).abs() < 1e-12);
        // Dead deuces: 2 of 43 left.
        let r = draw_odds(
            &ids("7c5d4h3sKd"),
            &ids("Kd"),
            1,
            Plan::StandPat,
            &ids("2c 2d"),
            &RunOptions::default(),
        )
        .unwrap();
        assert_eq!(r.outcomes, 45);
        assert_eq!(r.counts.unwrap()[1], 2);
    }

    #[test]
    fn analysis_one_draw_counts_cover_every_replacement() {
        let hand = ids("7c5d4h3sKd");
        for discard in ["", "Kd", "Kd 7c", "Kd 7c 5d", "Kd 7c 5d 4h", "7c5d4h3sKd"] {
            let r = draw_odds(
                &hand,
                &ids(discard),
                1,
                Plan::StandPat,
                &[],
                &RunOptions::default(),
            )
            .unwrap();
            let k = ids(discard).len() as u64;
            assert_eq!(r.outcomes, choose(47, k));
            assert_eq!(r.counts.unwrap().iter().sum::<u64>(), choose(47, k));
        }
    }

    #[test]
    fn analysis_two_draws_exact_matches_sampling() {
        let hand = ids("7c5d4h3sKd");
        let rule = Plan::Rule(Rule::keep_and_pat(5).unwrap());
        let exact = draw_odds(&hand, &ids("Kd"), 2, rule, &[], &RunOptions::default()).unwrap();
        assert!(exact.exact);
        // The wheel on the first draw (4/47), else (the rule keeps 7-5-4-3) a second try.
        let p1 = exact.p_at_most(1);
        assert!(p1 > 4.0 / 47.0 && p1 < 8.0 / 47.0, "{p1}");
        let opts = RunOptions {
            method: Method::Sample,
            trials: 100_000,
            key: [9; 32],
            ..Default::default()
        };
        let mc = draw_odds(&hand, &ids("Kd"), 2, rule, &[], &opts).unwrap();
        assert!(!mc.exact);
        let se = (p1 * (1.0 - p1) / 100_000.0).sqrt();
        assert!((mc.p_at_most(1) - p1).abs() < 5.0 * se);
        // Reproducible for any thread count.
        for threads in [Some(1), Some(2), Some(3)] {
            let again = draw_odds(
                &hand,
                &ids("Kd"),
                2,
                rule,
                &[],
                &RunOptions {
                    threads,
                    ..opts.clone()
                },
            )
            .unwrap();
            assert_eq!(again.probs, mc.probs);
        }
    }

    #[test]
    fn analysis_draw_odds_errors() {
        let hand = ids("7c5d4h3sKd");
        let o = RunOptions::default();
        let e = draw_odds(&hand, &ids("2c"), 1, Plan::StandPat, &[], &o).unwrap_err();
        assert_eq!(e.to_string(), "cannot discard 2c: it is not in the hand");
        let e = draw_odds(&hand, &ids("Kd"), 4, Plan::StandPat, &[], &o).unwrap_err();
        assert_eq!(e, AnalysisError::TooManyDraws(4));
        let e = draw_odds(&hand[..4], &[], 1, Plan::StandPat, &[], &o).unwrap_err();
        assert_eq!(e.to_string(), "the hand must have 5 cards, got 4");
        let dead: Vec<u8> = (0..52u8).filter(|c| !hand.contains(c)).skip(2).collect();
        let e = draw_odds(&hand, &hand, 1, Plan::StandPat, &dead, &o).unwrap_err();
        assert!(
            e.to_string().starts_with("more cards than the deck holds"),
            "{e}"
        );
    }
}
