//! Every one of the 32 ways to discard from a five-card hand, scored by an objective and
//! ranked best first.
//!
//! Objectives: the probability of finishing at a target rank or better, or the equity
//! against given opponents (known or unknown hands, each drawing by its own strategy). A
//! target with one draw left is enumerated exactly for every choice; otherwise each choice is
//! enumerated when small and sampled when not. Sampled choices share the same random streams (common random numbers),
//! which makes the comparison between choices much sharper than independent samples.

use super::draw_odds::{rank_hist, split_hand, RankHist};
use super::engine::{Model, RunOptions, Seat};
use super::equity::equity_of_model;
use super::strategy::{Plan, Strategy};
use super::{in_pool, AnalysisError, MAX_DRAWS};
use crate::eval::NUM_CLASSES;

/// What to maximise.
#[derive(Clone, Debug)]
pub enum Objective {
    /// The probability of finishing at this rank or better.
    Target(u16),
    /// The equity (expected pot share) against these opponents (1 to 5).
    Equity { opponents: Vec<Seat> },
}

/// One discard choice and its score (higher is better).
#[derive(Clone, Debug, PartialEq)]
pub struct DiscardChoice {
    pub discard: Vec<u8>,
    pub keep: Vec<u8>,
    pub score: f64,
    /// Standard error of `score` (0 when exact).
    pub stderr: f64,
    pub exact: bool,
    /// Outcomes enumerated (exact) or trials run (sampled).
    pub outcomes: u64,
}

fn p_target(probs: &[f64], target: u16) -> f64 {
    // (a sum of probabilities: rounding must not carry it past 1)
    probs[1..=target as usize].iter().sum::<f64>().min(1.0)
}

/// All 32 discard choices from `hand` with `draws` draws left (1 to 3; draws after the first
/// follow `later`), best first. Ties: fewer discards first, then the discards' card ids in
/// ascending order compared lexicographically.
pub fn best_discard(
    hand: &[u8],
    draws: u32,
    later: Plan,
    objective: &Objective,
    dead: &[u8],
    opts: &RunOptions,
) -> Result<Vec<DiscardChoice>, AnalysisError> {
    if draws > MAX_DRAWS as u32 {
        return Err(AnalysisError::TooManyDraws(draws));
    }
    if draws == 0 {
        return Err(AnalysisError::Invalid(
            "best_discard needs at least one draw left".into(),
        ));
    }
    let (_, unseen) = split_hand(hand, &[], dead)?;
    if let Objective::Target(t) = objective {
        if !(1..=NUM_CLASSES).contains(t) {
            return Err(AnalysisError::Invalid(format!(
                "target must be a hand rank 1 to {NUM_CLASSES}, got {t}"
            )));
        }
    }
    let seats_for = |mask: u64| -> Vec<Seat> {
        let mut v = vec![Seat::new(
            "the hand",
            hand,
            Strategy {
                first: Some(mask),
                then: later,
            },
        )];
        if let Objective::Equity { opponents } = objective {
            v.extend(opponents.iter().cloned());
        }
        v
    };
    if let Objective::Equity { opponents } = objective {
        if opponents.is_empty() || opponents.len() > 5 {
            return Err(AnalysisError::Invalid(format!(
                "expected 1 to 5 opponents, got {}",
                opponents.len()
            )));
        }
    }
    // Validates opponents and dead cards once, with the hand standing pat.
    Model::new(&seats_for(0), dead, draws)?;
    let one = |pos_mask: u32| -> Result<DiscardChoice, AnalysisError> {
        let discard: Vec<u8> = (0..5)
            .filter(|i| pos_mask >> i & 1 == 1)
            .map(|i| hand[i])
            .collect();
        let keep: Vec<u8> = (0..5)
            .filter(|i| pos_mask >> i & 1 == 0)
            .map(|i| hand[i])
            .collect();
        let card_mask = super::mask_of(&discard);
        let (score, stderr, exact, outcomes) = match objective {
            Objective::Equity { .. } => {
                let model = Model::new(&seats_for(card_mask), dead, draws)?;
                let e = equity_of_model(&model, opts, 0)?;
                (
                    e.seats[0].share,
                    e.seats[0].share_stderr,
                    e.exact,
                    e.outcomes,
                )
            }
            &Objective::Target(target) => {
                let hits = |counts: &[u64]| counts[1..=target as usize].iter().sum::<u64>() as f64;
                let strategy = Strategy {
                    first: Some(card_mask),
                    then: later,
                };
                match rank_hist(hand, &keep, &unseen, strategy, draws, dead, opts)? {
                    RankHist::Counted { counts, outcomes } => {
                        (hits(&counts) / outcomes as f64, 0.0, true, outcomes)
                    }
                    RankHist::Exact { probs, outcomes } => {
                        (p_target(&probs, target), 0.0, true, outcomes)
                    }
                    RankHist::Sampled { counts, trials } => {
                        let p = hits(&counts) / trials as f64;
                        (p, (p * (1.0 - p) / trials as f64).sqrt(), false, trials)
                    }
                }
            }
        };
        Ok(DiscardChoice {
            discard,
            keep,
            score,
            stderr,
            exact,
            outcomes,
        })
    };
    let mut choices: Vec<DiscardChoice> =
        in_pool(opts.threads, |t| crate::pool::map(t, 32, |i| one(i as u32)))?
            .into_iter()
            .collect::<Result<Vec<_>, _>>()?;
    let sorted = |v: &[u8]| {
        let mut v = v.to_vec();
        v.sort_unstable();
        v
    };
    choices.sort_by(|a, b| {
        b.score
            .total_cmp(&a.score)
            .then(a.discard.len().cmp(&b.discard.len()))
            .then_with(|| sorted(&a.discard).cmp(&sorted(&b.discard)))
    });
    Ok(choices)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::strategy::{worst_low, Rule};
    use crate::cards::{cards_text, parse_text};

    fn ids(s: &str) -> Vec<u8> {
        parse_text(s).unwrap()
    }

    #[test]
    fn analysis_best_discard_throws_the_king() {
        let hand = ids("7c5d4h3sKd");
        let target = Objective::Target(worst_low(6).unwrap()); // any 8-low
        let r = best_discard(
            &hand,
            1,
            Plan::StandPat,
            &target,
            &[],
            &RunOptions::default(),
        )
        .unwrap();
        assert_eq!(r.len(), 32);
        assert_eq!(cards_text(&r[0].discard), "Kd");
        assert!((r[0].score - 8.0 / 47.0).abs() < 1e-15);
        assert!(r.iter().all(|c| c.exact));
        assert!(r.windows(2).all(|w| w[0].score >= w[1].score));
        // Pat 7-5-4-3-2 scores 1 for "any 8".
        let r = best_discard(
            &ids("7c5d4h3s2d"),
            1,
            Plan::StandPat,
            &target,
            &[],
            &RunOptions::default(),
        )
        .unwrap();
        assert!(r[0].discard.is_empty() && r[0].score == 1.0);
    }

    #[test]
    fn analysis_best_discard_more_draws_and_equity() {
        let hand = ids("7c5d4h3sKd");
        let later = Plan::Rule(Rule::keep_and_pat(6).unwrap());
        let opts = RunOptions {
            trials: 20_000,
            key: [1; 32],
            threads: Some(2),
            ..Default::default()
        };
        let target = Objective::Target(worst_low(6).unwrap());
        let r = best_discard(&hand, 3, later, &target, &[], &opts).unwrap();
        assert_eq!(cards_text(&r[0].discard), "Kd");
        let again = best_discard(
            &hand,
            3,
            later,
            &target,
            &[],
            &RunOptions {
                threads: Some(1),
                ..opts.clone()
            },
        )
        .unwrap();
        assert_eq!(r, again);
        let villain = Seat::new("opponent 1", &ids("9c8d6h4s2c"), Strategy::STAND_PAT);
        let eq = Objective::Equity {
            opponents: vec![villain],
        };
        let r = best_discard(&hand, 1, later, &eq, &[], &opts).unwrap();
        assert_eq!(cards_text(&r[0].discard), "Kd");
        // Every one-card draw is 42 outcomes against a pat hand: exact.
        assert!(r[0].exact && r[0].outcomes == 42);
    }
}
