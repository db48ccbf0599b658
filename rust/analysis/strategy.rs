//! Draw strategies: how a seat chooses its discards in a simulated draw, decided in Rust for
//! every trial (no callback into Python).
//!
//! * [`Plan::StandPat`]: never draw.
//! * [`Plan::Rule`], the standard rule with two parameters: `keep_max` (a card rank) and
//!   `pat_max` (a hand rank). Stand pat when the hand ranks `pat_max` or better. Otherwise keep
//!   one card of each distinct rank at or below `keep_max` (pairs are broken; of a pair the
//!   card whose suit is least used by the other kept cards stays, lowest id on a tie) and
//!   discard the rest; if that would keep all five cards (a straight, a flush, or a low hand
//!   rougher than `pat_max`), the highest card goes too.
//! * [`Strategy`]: an optional fixed discard (a set of cards) for the next draw, then a plan
//!   for every later draw.

use super::AnalysisError;
use crate::cards::RANK_CHARS;
use crate::eval::{tables, Category, Tables, NUM_CLASSES};

/// The standard rule's two thresholds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rule {
    /// Highest card rank kept when drawing (0 = deuce … 12 = ace).
    pub keep_max: u8,
    /// Stand pat with a hand ranked at most this (1 = 7-5-4-3-2 … 7462).
    pub pat_max: u16,
}

/// What a seat does at a draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Plan {
    StandPat,
    Rule(Rule),
}

/// A seat's strategy: `first` (a mask of card ids) is discarded at the next draw if given;
/// `then` decides every other draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Strategy {
    pub first: Option<u64>,
    pub then: Plan,
}

/// The worst rank of a no-pair hand topped by `top` (a rank index, 5 = seven … 12 = ace):
/// "any `top`-low or better" as a single rank threshold. Six-high and lower make no no-pair
/// hand (6-5-4-3-2 is a straight), so `top` must be at least 5.
pub fn worst_low(top: u8) -> Result<u16, AnalysisError> {
    worst_low_with(top, None)
}

/// Like [`worst_low`], with the second card too: `worst_low_with(7, Some(5))` is the worst
/// 9-7 low (9-7-6-5-4), the threshold of "any 9-7 or better".
pub fn worst_low_with(top: u8, second: Option<u8>) -> Result<u16, AnalysisError> {
    let ch = |r: u8| {
        RANK_CHARS
            .get(r as usize)
            .map(|&c| c as char)
            .unwrap_or('?')
    };
    let label = match second {
        None => format!("{}", ch(top)),
        Some(s) => format!("{}-{}", ch(top), ch(s)),
    };
    let t = tables();
    let key = (top, second.unwrap_or(top.saturating_sub(1)));
    let mut worst = 0;
    let mut found = false;
    for rank in 1..=NUM_CLASSES {
        let c = t.class(rank);
        if c.category != Category::NoPair || (c.ranks[0], c.ranks[1]) > key {
            break;
        }
        worst = rank;
        found |= c.ranks[0] == top && second.is_none_or(|s| c.ranks[1] == s);
    }
    if !found {
        return Err(AnalysisError::Invalid(format!(
            "there is no {label} low: the lowest no-pair hand is 7-5-4-3-2"
        )));
    }
    Ok(worst)
}

impl Rule {
    pub fn new(keep_max: u8, pat_max: u16) -> Result<Rule, AnalysisError> {
        if keep_max > 12 {
            return Err(AnalysisError::Invalid(format!(
                "keep_max must be a card rank 0 (deuce) to 12 (ace), got {keep_max}"
            )));
        }
        if !(1..=NUM_CLASSES).contains(&pat_max) {
            return Err(AnalysisError::Invalid(format!(
                "pat_max must be a hand rank 1 to {NUM_CLASSES}, got {pat_max}"
            )));
        }
        Ok(Rule { keep_max, pat_max })
    }

    /// Keep cards up to `keep_max` and stand pat with any no-pair hand topped by it
    /// (`keep_max` at least seven).
    pub fn keep_and_pat(keep_max: u8) -> Result<Rule, AnalysisError> {
        Rule::new(keep_max, worst_low(keep_max)?)
    }

    /// The positions (bit i = `hand[i]`) to discard, given the hand's rank. Depends only on
    /// the set of cards, not on their order in `hand`.
    #[inline(always)]
    pub fn discard(&self, hand: &[u8; 5], rank: u16) -> u8 {
        if rank <= self.pat_max {
            return 0;
        }
        let low: u16 = (2u16 << self.keep_max) - 1;
        // Rank masks: ranks seen once or more, ranks seen twice or more.
        let mut once: u16 = 0;
        let mut many: u16 = 0;
        for &c in hand {
            let b = 1u16 << (c >> 2);
            many |= once & b;
            once |= b;
        }
        let singles = once & !many & low;
        let mut keep: u8 = 0;
        for (i, &c) in hand.iter().enumerate() {
            keep |= (((singles >> (c >> 2)) & 1) as u8) << i;
        }
        let mut paired = many & low;
        if paired != 0 {
            self.keep_paired(hand, &mut keep, &mut paired);
        }
        if keep == 0b11111 {
            // All five distinct and low, yet not good enough: break it at the top card.
            let mut hi = 0;
            for i in 1..5 {
                if hand[i] > hand[hi] {
                    hi = i;
                }
            }
            keep &= !(1 << hi);
        }
        !keep & 0b11111
    }

    /// One card of each paired rank, lowest rank first: the card whose suit the cards kept
    /// so far use least (lowest id on a tie).
    #[inline]
    fn keep_paired(&self, hand: &[u8; 5], keep: &mut u8, paired: &mut u16) {
        let mut suits = [0u8; 4];
        for (i, &c) in hand.iter().enumerate() {
            if *keep >> i & 1 == 1 {
                suits[(c & 3) as usize] += 1;
            }
        }
        while *paired != 0 {
            let r = paired.trailing_zeros() as u8;
            *paired &= *paired - 1;
            let mut best: Option<usize> = None;
            for (i, &c) in hand.iter().enumerate() {
                if c >> 2 != r {
                    continue;
                }
                best = match best {
                    None => Some(i),
                    Some(b) => {
                        let (sb, sc) = (suits[(hand[b] & 3) as usize], suits[(c & 3) as usize]);
                        if sc < sb || (sc == sb && c < hand[b]) {
                            Some(i)
                        } else {
                            Some(b)
                        }
                    }
                };
            }
            if let Some(b) = best {
                *keep |= 1 << b;
                suits[(hand[b] & 3) as usize] += 1;
            }
        }
    }
}

impl Plan {
    #[inline]
    pub fn needs_rank(&self) -> bool {
        matches!(self, Plan::Rule(_))
    }
}

impl Strategy {
    pub const STAND_PAT: Strategy = Strategy {
        first: None,
        then: Plan::StandPat,
    };

    /// The default strategy: the standard rule keeping eights and better, pat on any 8-low.
    pub fn standard() -> Strategy {
        Strategy::rule(Rule::keep_and_pat(6).expect("eight is a valid keep rank"))
    }

    pub fn rule(rule: Rule) -> Strategy {
        Strategy {
            first: None,
            then: Plan::Rule(rule),
        }
    }

    /// Discard exactly `cards` at the next draw, then follow `then`.
    pub fn fixed(cards: &[u8], then: Plan) -> Strategy {
        Strategy {
            first: Some(super::mask_of(cards)),
            then,
        }
    }

    /// Whether the decision at draw `draw` (0 = the next one) needs the hand's rank.
    #[inline]
    pub fn needs_rank(&self, draw: usize) -> bool {
        !(draw == 0 && self.first.is_some()) && self.then.needs_rank()
    }

    /// The positions of `hand` to discard at draw `draw` (0 = the next draw). `rank` is the
    /// hand's rank when [`Strategy::needs_rank`] says so (ignored otherwise).
    #[inline(always)]
    pub fn discard(&self, draw: usize, hand: &[u8; 5], rank: u16) -> u8 {
        if draw == 0 {
            if let Some(mask) = self.first {
                let mut m = 0u8;
                for (i, &c) in hand.iter().enumerate() {
                    if mask >> c & 1 == 1 {
                        m |= 1 << i;
                    }
                }
                return m;
            }
        }
        match self.then {
            Plan::StandPat => 0,
            Plan::Rule(rule) => rule.discard(hand, rank),
        }
    }

    /// Convenience for callers that do not track ranks themselves.
    pub fn discard_with(&self, t: &Tables, draw: usize, hand: &[u8; 5]) -> u8 {
        let rank = if self.needs_rank(draw) {
            t.rank5(*hand)
        } else {
            0
        };
        self.discard(draw, hand, rank)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::parse_text;

    fn hand(s: &str) -> [u8; 5] {
        let v = parse_text(s).unwrap();
        [v[0], v[1], v[2], v[3], v[4]]
    }

    fn discards(s: &Strategy, h: &str) -> String {
        let h = hand(h);
        let m = s.discard_with(tables(), 0, &h);
        let v: Vec<u8> = (0..5).filter(|i| m >> i & 1 == 1).map(|i| h[i]).collect();
        crate::cards::cards_text(&v)
    }

    #[test]
    fn analysis_worst_low_thresholds() {
        assert_eq!(worst_low(5).unwrap(), 4); // 7-5-4-3-2 … 7-6-5-4-2
        let t = tables();
        let w8 = worst_low(6).unwrap();
        assert_eq!(crate::eval::name(w8), "8-7 low");
        assert_eq!(t.class(w8).ranks, [6, 5, 4, 3, 1]); // 8-7-6-5-3
        assert_eq!(t.class(w8 + 1).ranks[0], 7);
        assert_eq!(worst_low(12).unwrap(), 1278);
        assert!(worst_low(4).is_err());
        assert!(worst_low(13).is_err());
        let w97 = worst_low_with(7, Some(5)).unwrap();
        assert_eq!(t.class(w97).ranks, [7, 5, 4, 3, 2]); // 9-7-6-5-4
        assert_eq!(t.class(w97 + 1).ranks, [7, 6, 2, 1, 0]); // 9-8-4-3-2
                                                             // 8-5-4-3-2, the nut eight, is the only 8-5 low.
        assert_eq!(
            t.class(worst_low_with(6, Some(3)).unwrap()).ranks,
            [6, 3, 2, 1, 0]
        );
        assert_eq!(
            worst_low_with(5, Some(2)).unwrap_err().to_string(),
            "there is no 7-4 low: the lowest no-pair hand is 7-5-4-3-2"
        );
    }

    #[test]
    fn analysis_rule_keeps_low_cards_and_breaks_pairs() {
        let s = Strategy::standard();
        assert_eq!(discards(&s, "7c5d4h3sKd"), "Kd");
        assert_eq!(discards(&s, "7c5d4h3s2c"), ""); // made 7: pat
        assert_eq!(discards(&s, "8c7d6h5s3c"), ""); // worst 8: pat
        assert_eq!(discards(&s, "9c7d6h5s3c"), "9c");
        assert_eq!(discards(&s, "2c2d5h9sKd"), "2d 9s Kd"); // suits tie: the lower id stays
        assert_eq!(discards(&s, "AcAdAhAsKd"), "Ac Ad Ah As Kd");
        // Straights and flushes are broken at their top card.
        assert_eq!(discards(&s, "6c5d4h3s2c"), "6c");
        assert_eq!(discards(&s, "8h6h4h3h2h"), "8h");
        // Of a pair, the card whose suit the other kept cards use least stays.
        assert_eq!(discards(&s, "3h3c7h5h2h"), "3h");
        // The decision depends on the set, not the order.
        assert_eq!(discards(&s, "7h5h2h3c3h"), "3h");
    }

    #[test]
    fn analysis_fixed_first_then_plan() {
        let kd = parse_text("Kd").unwrap();
        let s = Strategy::fixed(&kd, Plan::StandPat);
        let h = hand("7c5d4h3sKd");
        let t = tables();
        assert_eq!(s.discard_with(t, 0, &h), 0b10000);
        assert_eq!(s.discard_with(t, 1, &h), 0);
        assert_eq!(Strategy::STAND_PAT.discard_with(t, 0, &h), 0);
    }
}
