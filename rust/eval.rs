//! The 2-7 lowball evaluator: five cards -> rank 1 (7-5-4-3-2 offsuit) … 7,462 (royal flush).
//!
//! Two lookup tables, built once (well under a millisecond) on first use:
//! * `noflush`: indexed by the sum of one key per card rank. The keys are chosen so that
//!   every multiset of five ranks (each rank at most four times) has its own sum, which makes
//!   the sum a perfect hash of the ranks (max sum 360,918, a 705 KiB `u16` table).
//! * `flush`: indexed by the 13-bit mask of the ranks, used when all five suits agree.
//!
//! The class order itself is not written down by hand: every class is enumerated and sorted
//! by the rules (category, then the grouped ranks from the most significant down), so the
//! table is the rules.

use std::sync::OnceLock;

/// Number of distinct 2-7 hand classes.
pub const NUM_CLASSES: u16 = 7462;

/// Per-rank keys whose five-card multiset sums are all distinct (found by a greedy search).
pub const RANK_KEYS: [u32; 13] = [
    0, 1, 5, 22, 94, 312, 992, 2422, 5624, 12522, 19998, 43258, 79415,
];
/// The noflush table is sized for any five ids (even five aces from a corrupt row), so
/// the batch kernel can look up unvalidated rows without a bounds failure.
const KEY_SUM_SLOTS: usize = 5 * 79415 + 1;

/// Hand categories, best (for the lowball player) first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Category {
    NoPair = 0,
    OnePair,
    TwoPair,
    ThreeOfAKind,
    Straight,
    Flush,
    FullHouse,
    FourOfAKind,
    StraightFlush,
}

impl Category {
    pub const ALL: [Category; 9] = [
        Category::NoPair,
        Category::OnePair,
        Category::TwoPair,
        Category::ThreeOfAKind,
        Category::Straight,
        Category::Flush,
        Category::FullHouse,
        Category::FourOfAKind,
        Category::StraightFlush,
    ];

    /// The category's name as the API spells it.
    pub fn as_str(self) -> &'static str {
        match self {
            Category::NoPair => "no pair",
            Category::OnePair => "one pair",
            Category::TwoPair => "two pair",
            Category::ThreeOfAKind => "three of a kind",
            Category::Straight => "straight",
            Category::Flush => "flush",
            Category::FullHouse => "full house",
            Category::FourOfAKind => "four of a kind",
            Category::StraightFlush => "straight flush",
        }
    }
}

/// What a rank stands for: its category and its ranks from the most significant down
/// (grouped by count, larger groups first; a straight by all five cards, top first).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClassInfo {
    pub category: Category,
    pub ranks: [u8; 5],
}

pub struct Tables {
    noflush: Box<[u16]>,
    flush: Box<[u16; 8192]>,
    /// Rank key of each byte value taken as a card id (0 for ids >= 52).
    key_by_id: [u32; 256],
    /// Rank bit of each byte value taken as a card id (0 for ids >= 52).
    bit_by_id: [u16; 256],
    /// The batch kernel's tables, see [`Tables::rank5_batch`].
    both_by_sum: Box<[u32]>,
    batch_key: [u64; 256],
    one_hot: [u64; 256],
    classes: Vec<ClassInfo>,
}

/// In [`Tables::rank5_batch`] keys, suit counts sit in 4-bit fields from bit 32, biased by
/// 3 so that a count of 5 (a flush) sets the field's top bit.
const SUIT_FIELDS: u32 = 32;
const SUIT_BIAS: u64 = 0x3333 << SUIT_FIELDS;
const FLUSH_BITS: u64 = 0x8888 << SUIT_FIELDS;

static TABLES: OnceLock<Tables> = OnceLock::new();

/// The evaluator's tables (built on first call).
#[inline]
pub fn tables() -> &'static Tables {
    TABLES.get_or_init(build_tables)
}

/// Whether five distinct ranks (as a bit mask) are consecutive. A-5-4-3-2 is not a
/// straight in 2-7: aces are only high.
fn is_straight(mask: u16) -> bool {
    let low = mask.trailing_zeros();
    mask >> low == 0b11111
}

fn build_tables() -> Tables {
    // Every class: (sort key, info, lookup slot).
    enum Slot {
        NoFlush(usize),
        Flush(usize),
    }
    let mut classes: Vec<(ClassInfo, Slot)> = Vec::with_capacity(NUM_CLASSES as usize);
    let mut counts = [0u8; 13];
    fn visit(i: usize, left: u8, counts: &mut [u8; 13], out: &mut Vec<(ClassInfo, Slot)>) {
        if i == 13 {
            if left == 0 {
                emit(counts, out);
            }
            return;
        }
        for c in 0..=left.min(4) {
            counts[i] = c;
            visit(i + 1, left - c, counts, out);
        }
        counts[i] = 0;
    }
    fn emit(counts: &[u8; 13], out: &mut Vec<(ClassInfo, Slot)>) {
        // Ranks grouped by count (desc) then rank (desc).
        let mut order: Vec<(u8, u8)> = (0..13u8)
            .filter(|&r| counts[r as usize] > 0)
            .map(|r| (counts[r as usize], r))
            .collect();
        order.sort_by(|a, b| b.cmp(a));
        let mut ranks = [0u8; 5];
        let mut k = 0;
        for &(c, r) in &order {
            for _ in 0..c {
                ranks[k] = r;
                k += 1;
            }
        }
        let key_sum: usize = (0..13)
            .map(|r| counts[r] as usize * RANK_KEYS[r] as usize)
            .sum();
        let shape: Vec<u8> = order.iter().map(|&(c, _)| c).collect();
        let category = match shape.as_slice() {
            [1, 1, 1, 1, 1] => None,
            [2, 1, 1, 1] => Some(Category::OnePair),
            [2, 2, 1] => Some(Category::TwoPair),
            [3, 1, 1] => Some(Category::ThreeOfAKind),
            [3, 2] => Some(Category::FullHouse),
            [4, 1] => Some(Category::FourOfAKind),
            _ => unreachable!("five cards make one of six shapes"),
        };
        match category {
            Some(category) => out.push((ClassInfo { category, ranks }, Slot::NoFlush(key_sum))),
            None => {
                let mask: u16 = (0..13).filter(|&r| counts[r] > 0).map(|r| 1u16 << r).sum();
                let straight = is_straight(mask);
                let (plain, suited) = if straight {
                    (Category::Straight, Category::StraightFlush)
                } else {
                    (Category::NoPair, Category::Flush)
                };
                out.push((
                    ClassInfo {
                        category: plain,
                        ranks,
                    },
                    Slot::NoFlush(key_sum),
                ));
                out.push((
                    ClassInfo {
                        category: suited,
                        ranks,
                    },
                    Slot::Flush(mask as usize),
                ));
            }
        }
    }
    visit(0, 5, &mut counts, &mut classes);
    assert_eq!(classes.len(), NUM_CLASSES as usize);
    // Lower is better: category first, then the grouped ranks compared from the top.
    classes.sort_by_key(|a| (a.0.category, a.0.ranks));

    let mut noflush = vec![0u16; KEY_SUM_SLOTS].into_boxed_slice();
    let mut flush = Box::new([0u16; 8192]);
    let mut infos = Vec::with_capacity(classes.len());
    for (i, (info, slot)) in classes.into_iter().enumerate() {
        let rank = (i + 1) as u16;
        match slot {
            Slot::NoFlush(s) => {
                debug_assert_eq!(noflush[s], 0, "rank keys must give distinct sums");
                noflush[s] = rank;
            }
            Slot::Flush(m) => flush[m] = rank,
        }
        infos.push(info);
    }
    let mut key_by_id = [0u32; 256];
    let mut bit_by_id = [0u16; 256];
    let mut batch_key = [0u64; 256];
    let mut one_hot = [1u64 << 63; 256];
    for id in 0..52usize {
        key_by_id[id] = RANK_KEYS[id >> 2];
        bit_by_id[id] = 1 << (id >> 2);
        batch_key[id] = RANK_KEYS[id >> 2] as u64 | 1u64 << (SUIT_FIELDS as usize + 4 * (id & 3));
        one_hot[id] = 1 << id;
    }
    // Each key sum's two outcomes side by side: offsuit in the low half, suited in the high.
    let mut both_by_sum = vec![0u32; KEY_SUM_SLOTS].into_boxed_slice();
    for (slot, &r) in noflush.iter().enumerate() {
        both_by_sum[slot] = r as u32;
    }
    for mask in 0..8192usize {
        if flush[mask] != 0 {
            let sum: usize = (0..13)
                .filter(|r| mask >> r & 1 == 1)
                .map(|r| RANK_KEYS[r] as usize)
                .sum();
            both_by_sum[sum] |= (flush[mask] as u32) << 16;
        }
    }
    Tables {
        noflush,
        flush,
        key_by_id,
        bit_by_id,
        both_by_sum,
        batch_key,
        one_hot,
        classes: infos,
    }
}

impl Tables {
    /// The rank of five distinct valid card ids (not checked: see [`rank5_checked`]).
    ///
    /// Any five bytes are safe to look up (the batch kernel validates rows separately and
    /// discards the result of a bad one); only valid rows give meaningful ranks.
    #[inline(always)]
    pub fn rank5(&self, c: [u8; 5]) -> u16 {
        let same_suit = ((c[0] ^ c[1]) | (c[0] ^ c[2]) | (c[0] ^ c[3]) | (c[0] ^ c[4])) & 3 == 0;
        if same_suit {
            let b = &self.bit_by_id;
            let mask = b[c[0] as usize]
                | b[c[1] as usize]
                | b[c[2] as usize]
                | b[c[3] as usize]
                | b[c[4] as usize];
            self.flush[(mask & 0x1fff) as usize]
        } else {
            let k = &self.key_by_id;
            let sum = k[c[0] as usize]
                + k[c[1] as usize]
                + k[c[2] as usize]
                + k[c[3] as usize]
                + k[c[4] as usize];
            self.noflush[sum as usize]
        }
    }

    /// The batch kernel's evaluation of any five bytes: `(rank, valid)`, where `valid` says
    /// whether the bytes are five distinct ids below 52 (the rank is meaningless otherwise).
    ///
    /// Branch-free: one key per card carries the rank key (low 32 bits) and a count per
    /// suit; the key sum indexes a table holding both the offsuit and the suited rank, and
    /// the flush bit picks the half. Validity: distinct one-hot bits add up to their OR.
    #[inline(always)]
    pub fn rank5_batch(&self, c: [u8; 5]) -> (u16, bool) {
        let k = &self.batch_key;
        let total = k[c[0] as usize]
            + k[c[1] as usize]
            + k[c[2] as usize]
            + k[c[3] as usize]
            + k[c[4] as usize]
            + SUIT_BIAS;
        let flush = (total & FLUSH_BITS != 0) as u32;
        let both = self.both_by_sum[(total as u32) as usize];
        let h = &self.one_hot;
        let b = [
            h[c[0] as usize],
            h[c[1] as usize],
            h[c[2] as usize],
            h[c[3] as usize],
            h[c[4] as usize],
        ];
        let or = b[0] | b[1] | b[2] | b[3] | b[4];
        let sum = b[0]
            .wrapping_add(b[1])
            .wrapping_add(b[2])
            .wrapping_add(b[3])
            .wrapping_add(b[4]);
        ((both >> (16 * flush)) as u16, (or == sum) & (or >> 52 == 0))
    }

    /// The category and significant ranks of a rank (1..=7462).
    pub fn class(&self, rank: u16) -> ClassInfo {
        self.classes[rank as usize - 1]
    }
}

/// The rank of five distinct valid card ids. Unchecked: ids must be < 52 and distinct.
#[inline]
pub fn rank5(c: [u8; 5]) -> u16 {
    tables().rank5(c)
}

/// Why a row of cards cannot be evaluated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HandError {
    BadId(u8),
    Duplicate(u8),
}

/// The rank of five card ids, checking range and distinctness.
pub fn rank5_checked(c: [u8; 5]) -> Result<u16, HandError> {
    let mut seen = 0u64;
    for &x in &c {
        if x >= 52 {
            return Err(HandError::BadId(x));
        }
        if seen & (1 << x) != 0 {
            return Err(HandError::Duplicate(x));
        }
        seen |= 1 << x;
    }
    Ok(rank5(c))
}

/// Branch-free validity test used by the batch kernel: true when all ids are < 52 and
/// distinct. Distinct single bits add up to their OR; a repeated bit carries and does not.
#[inline(always)]
pub fn row_is_valid(c: [u8; 5]) -> bool {
    let small = (c[0] | c[1] | c[2] | c[3] | c[4]) < 64;
    let b = c.map(|x| 1u64 << (x & 63));
    let or = b[0] | b[1] | b[2] | b[3] | b[4];
    let sum = b[0]
        .wrapping_add(b[1])
        .wrapping_add(b[2])
        .wrapping_add(b[3])
        .wrapping_add(b[4]);
    small & (or >> 52 == 0) & (or == sum)
}

const WORDS: [&str; 13] = [
    "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen",
    "king", "ace",
];
const PLURALS: [&str; 13] = [
    "deuces", "treys", "fours", "fives", "sixes", "sevens", "eights", "nines", "tens", "jacks",
    "queens", "kings", "aces",
];

/// The category of a rank.
pub fn category(rank: u16) -> Category {
    tables().class(rank).category
}

/// A readable name: "7-5 low", "nut 8", "pair of deuces", "eight-high straight", …
pub fn name(rank: u16) -> String {
    let ClassInfo { category, ranks: r } = tables().class(rank);
    let ch = |x: u8| crate::cards::RANK_CHARS[x as usize] as char;
    match category {
        Category::NoPair => {
            if r[1..] == [3, 2, 1, 0] && r[0] >= 6 {
                format!("nut {}", ch(r[0]))
            } else {
                format!("{}-{} low", ch(r[0]), ch(r[1]))
            }
        }
        Category::OnePair => format!("pair of {}", PLURALS[r[0] as usize]),
        Category::TwoPair => {
            format!(
                "two pair, {} and {}",
                PLURALS[r[0] as usize], PLURALS[r[2] as usize]
            )
        }
        Category::ThreeOfAKind => format!("three {}", PLURALS[r[0] as usize]),
        Category::Straight => format!("{}-high straight", WORDS[r[0] as usize]),
        Category::Flush => format!("{}-high flush", WORDS[r[0] as usize]),
        Category::FullHouse => {
            format!(
                "{} full of {}",
                PLURALS[r[0] as usize], PLURALS[r[3] as usize]
            )
        }
        Category::FourOfAKind => format!("four {}", PLURALS[r[0] as usize]),
        Category::StraightFlush if r[0] == 12 => "royal flush".to_string(),
        Category::StraightFlush => format!("{}-high straight flush", WORDS[r[0] as usize]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::parse_text;

    fn r(s: &str) -> u16 {
        let v = parse_text(s).unwrap();
        rank5_checked([v[0], v[1], v[2], v[3], v[4]]).unwrap()
    }

    #[test]
    fn extremes() {
        assert_eq!(r("7c5d4h3s2c"), 1);
        assert_eq!(r("AsKsQsJsTs"), 7462);
        assert_eq!(name(1), "7-5 low");
        assert_eq!(name(7462), "royal flush");
    }

    #[test]
    fn ordering_vectors_of_the_rules() {
        let lines = [
            "Jh7h4h3h2h",
            "8c7d6h5s4c",
            "7c6d5h4s3c",
            "5c5d5h6s3c",
            "2c2d7h6s5c",
            "Ac9d6h4s2c",
            "Ac8d7h4s2c",
            "Ac5d4h3s2c",
            "KcJd8h7s4c",
            "Tc7d5h4s3c",
            "Tc6d5h4s3c",
            "Tc6d5h4s2c",
            "9c7d6h4s3c",
            "8c6d4h3s2c",
            "7c6d4h3s2c",
            "7c5d4h3s2c",
        ];
        for w in lines.windows(2) {
            assert!(r(w[1]) < r(w[0]), "{} should beat {}", w[1], w[0]);
        }
        assert!(r("AcKdQhJs9c") < r("2c3d4h5s6c"));
        assert_eq!(r("2c2d3h4s5c"), r("AcKdQhJs9c") + 1);
        assert_eq!(name(r("8c5d4h3s2c")), "nut 8");
        assert_eq!(name(r("Ac5d4h3s2c")), "nut A");
        assert_eq!(category(r("Ac5d4h3s2c")), Category::NoPair);
        assert_eq!(category(r("Ac5c4c3c2c")), Category::Flush);
        assert_eq!(name(r("8c7d6h5s4c")), "eight-high straight");
    }

    #[test]
    fn category_counts_over_all_hands() {
        let t = tables();
        let mut hands = [0u32; 9];
        let mut seen = vec![false; NUM_CLASSES as usize + 1];
        for a in 0..52u8 {
            for b in a + 1..52 {
                for c in b + 1..52 {
                    for d in c + 1..52 {
                        for e in d + 1..52 {
                            let rank = t.rank5([a, b, c, d, e]);
                            assert_eq!(t.rank5_batch([a, b, c, d, e]), (rank, true));
                            hands[t.class(rank).category as usize] += 1;
                            seen[rank as usize] = true;
                        }
                    }
                }
            }
        }
        assert_eq!(
            hands,
            [1_303_560, 1_098_240, 123_552, 54_912, 9_180, 5_112, 3_744, 624, 36]
        );
        assert!(seen[1..].iter().all(|&s| s));
        for (a, b) in [
            ([0u8, 4, 8, 12, 20], true),
            ([0, 4, 8, 12, 21], true),
            ([51, 47, 43, 39, 35], true),
            ([0, 1, 2, 3, 51], true),
            ([0, 1, 2, 3, 3], false),
            ([0, 1, 2, 3, 52], false),
            ([255, 0, 1, 2, 3], false),
            ([255, 255, 0, 1, 2], false),
        ] {
            let (rank, valid) = t.rank5_batch(a);
            assert_eq!(valid, b, "{a:?}");
            if valid {
                assert_eq!(rank, t.rank5(a));
            }
        }
        assert!(row_is_valid([0, 1, 2, 3, 51]));
        assert!(!row_is_valid([0, 1, 2, 3, 52]));
        assert!(!row_is_valid([0, 1, 2, 3, 3]));
        assert!(!row_is_valid([0, 1, 2, 3, 64 + 4]));
        assert!(!row_is_valid([255, 255, 255, 255, 255]));
        let mut classes = [0u32; 9];
        for rank in 1..=NUM_CLASSES {
            classes[t.class(rank).category as usize] += 1;
        }
        assert_eq!(classes, [1278, 2860, 858, 858, 9, 1278, 156, 156, 9]);
    }
}
