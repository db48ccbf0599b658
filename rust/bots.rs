//! The decisions of the bundled heuristic bot, in Rust: the standard discard rule (the
//! analysis kernels' [`Rule`], so bots and analysis draw by one implementation) and the
//! betting heuristic of `triple_draw.bots.HeuristicBot`, computed from what one seat may see.
//!
//! Every floating-point expression is written in the order of the Python definition it
//! replaced, so seeded simulations give the very same results as before.

use crate::analysis::{worst_low, Rule};
use crate::eval::{tables, NUM_CLASSES};
use std::sync::OnceLock;

/// The bot's parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Heuristic {
    /// Highest card rank kept when drawing (0 = deuce … 12 = ace).
    pub keep_max: u8,
    /// `pat_max[k]`: stand pat with a hand ranked at most this with `k` draws left (1..=3).
    pub pat_max: [u16; 4],
    /// Divides every betting threshold (> 0).
    pub aggression: f64,
}

/// What the seat sees, as the heuristic reads it.
#[derive(Clone, Copy, Debug)]
pub struct Seen<'a> {
    /// The seat's five cards and their rank.
    pub hole: [u8; 5],
    pub rank: u16,
    /// Draws still to come (during a draw: this one included).
    pub draws_left: u8,
    /// The betting round (0..=3) or the draw's index (0..=2).
    pub street: u8,
    /// The number of live opponents.
    pub n_opps: u32,
    /// The cards each live opponent drew at the last draw so far, in seat order (opponents
    /// who have not drawn yet are left out).
    pub opp_last: &'a [u8],
}

/// The betting situation of the seat (its turn in a betting round).
#[derive(Clone, Copy, Debug)]
pub struct Betting {
    /// Chips to call (0: nothing to call, a check is possible).
    pub to_call: i64,
    pub pot: i64,
    /// A bet or raise is allowed.
    pub can_raise: bool,
    /// Bets and raises made in this betting round (blinds not counted).
    pub round_bets: u32,
    /// Somebody called, bet or raised in this round.
    pub voluntary: bool,
    /// Live players who are not all-in acting after the seat, up to the big blind.
    pub seats_behind: u32,
    /// The seat posted a blind.
    pub blind: bool,
    /// The seat is the last live player in the order of the later rounds (in position).
    pub last_to_act: bool,
}

/// A betting decision. Its discriminant is the decision's code, which the Python layer
/// shares (`triple_draw.bots.Decision`; [`DECISION_NAMES`] names each code, and a test
/// holds the two equal): 0..4 here, [`DISCARD_CODE`] for a draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Decision {
    Fold = 0,
    Check = 1,
    Call = 2,
    BetOrRaise = 3,
    /// Bet (or raise) with the bot's bluffing probability, otherwise check: the caller
    /// draws the random number, so the bot's random stream stays in Python.
    BluffOrCheck = 4,
}

/// The code of a draw decision (the cards to throw come with it).
pub const DISCARD_CODE: u8 = 5;

/// The name of each decision code, indexed by code (`triple_draw.bots.Decision`).
pub const DECISION_NAMES: [&str; 6] = [
    "fold",
    "check",
    "call",
    "bet_or_raise",
    "bluff_or_check",
    "discard",
];

impl Decision {
    /// The decision's code.
    pub fn code(self) -> u8 {
        self as u8
    }
}

/// `worst_lows()[top]`: [`worst_low`] of each top card from seven (5) to ace (12), computed
/// once (0 below seven).
fn worst_lows() -> &'static [u16; 13] {
    static TABLE: OnceLock<[u16; 13]> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = [0u16; 13];
        for (top, w) in t.iter_mut().enumerate().skip(5) {
            *w = worst_low(top as u8).expect("seven to ace make no-pair hands");
        }
        t
    })
}

// A heads-up equity guess for a made hand, by rank: linear between anchors at the worst
// seven-low, eight-low, ... ace-low, the best pair and the worst hand.
fn anchors() -> [(u16, f64); 11] {
    let wl = |top: usize| worst_lows()[top];
    [
        (1, 0.97),
        (wl(5), 0.93),
        (wl(6), 0.81),
        (wl(7), 0.66),
        (wl(8), 0.52),
        (wl(9), 0.40),
        (wl(10), 0.30),
        (wl(11), 0.22),
        (wl(12), 0.15),
        (wl(12) + 1, 0.07),
        (NUM_CLASSES, 0.0),
    ]
}

/// `made_equity()[rank]`: the equity guess of a finished hand of rank `rank` (1..=7462).
pub fn made_equity() -> &'static [f64] {
    static TABLE: OnceLock<Vec<f64>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let a = anchors();
        let mut t = vec![a[0].1; a[0].0 as usize + 1];
        for w in a.windows(2) {
            let ((pr, pe), (r, e)) = (w[0], w[1]);
            for k in pr + 1..=r {
                t.push(pe + (e - pe) * f64::from(k - pr) / f64::from(r - pr));
            }
        }
        t
    })
}

const DRAW_BASE: [f64; 6] = [0.0, 0.50, 0.36, 0.24, 0.15, 0.10];
const DRAW_EXTRA: [f64; 6] = [0.0, 0.08, 0.07, 0.06, 0.04, 0.03];

/// The positions (bit i = `hole[i]`) the standard rule throws.
pub fn standard_discard(hole: &[u8; 5], rank: u16, keep_max: u8, pat_max: u16) -> u8 {
    Rule { keep_max, pat_max }.discard(hole, rank)
}

fn clamp(e: f64) -> f64 {
    e.clamp(0.01, 0.98)
}

impl Heuristic {
    fn pat_for(&self, draws_left: u8, opp_last: &[u8]) -> u16 {
        let mut pm = self.pat_max[draws_left as usize];
        if draws_left == 1 && !opp_last.is_empty() && opp_last.iter().all(|&d| d >= 2) {
            // they are far behind: a ten-low is good enough
            pm = pm.max(worst_lows()[8]);
        }
        pm
    }

    /// The positions to throw with `s.draws_left` draws to come.
    pub fn discard(&self, s: &Seen) -> u8 {
        standard_discard(
            &s.hole,
            s.rank,
            self.keep_max,
            self.pat_for(s.draws_left, s.opp_last),
        )
    }

    /// Heads-up equity guess against one typical opponent.
    pub fn equity(&self, s: &Seen) -> f64 {
        let me = made_equity();
        let rank = s.rank as usize;
        let dl = s.draws_left;
        let mut e;
        if dl == 0 {
            e = me[rank];
        } else {
            let throw = self.discard(s);
            let k = throw.count_ones() as usize;
            if k == 0 {
                e = me[rank] + 0.02 * f64::from(dl);
            } else {
                e = DRAW_BASE[k] + DRAW_EXTRA[k] * f64::from(dl - 1);
                let kept_top = (0..5)
                    .filter(|i| throw >> i & 1 == 0)
                    .map(|i| s.hole[i] >> 2)
                    .max();
                if matches!(kept_top, Some(t) if t <= 5) {
                    e += 0.05; // drawing to a seven
                }
                if s.rank <= worst_lows()[12] {
                    e = f64::max(e, 0.85 * me[rank]); // a rough made hand is a draw too
                }
            }
            let mine = k as u8;
            for &d in s.opp_last {
                if d == 0 && mine > 0 {
                    e -= 0.10; // he stood pat and we still draw
                } else if d > mine {
                    e += 0.05; // he draws more than we do
                } else if d < mine {
                    e -= 0.04;
                }
            }
        }
        if dl == 0 {
            for &d in s.opp_last {
                if d == 0 {
                    e -= 0.06;
                } else if d >= 2 {
                    e += 0.06; // he drew two or more to the end: often a miss
                }
            }
        }
        clamp(e)
    }

    /// The betting decision. `r` is a uniform random number in [0, 1) from the bot's
    /// stream (it jitters the equity by up to three percent either way).
    pub fn bet(&self, s: &Seen, b: &Betting, r: f64) -> Decision {
        let (lo, hi) = (-0.03f64, 0.03f64);
        let e = clamp(self.equity(s) + (lo + (hi - lo) * r));
        let n = s.n_opps.max(1);
        // chance to win against n opponents: e = 0.5 gives the fair share 1/(n+1)
        let p = f64::min(0.97, (2.0 * e).powf(f64::from(n)) / f64::from(n + 1));
        let fair = 1.0 / f64::from(n + 1);
        let agg = self.aggression;
        if b.to_call > 0 {
            let odds = b.to_call as f64 / b.pot.saturating_add(b.to_call) as f64;
            if b.can_raise {
                if s.street == 0 && !b.voluntary && b.seats_behind <= 2 {
                    // first in from late position: raise or fold, do not limp
                    if p >= fair * 1.15 / agg {
                        return Decision::BetOrRaise;
                    }
                    if !b.blind {
                        return Decision::Fold;
                    }
                }
                let more = f64::from(b.round_bets.max(1) - 1);
                if p >= fair * (1.6 + 0.3 * more) / agg && p > 0.4 {
                    return Decision::BetOrRaise;
                }
            }
            // drawing hands get implied odds while there are draws left
            let f = if s.draws_left > 0 { 0.75 } else { 1.0 };
            if p >= odds * f {
                return Decision::Call;
            }
            return Decision::Fold;
        }
        if b.can_raise {
            let late = if s.street == 0 {
                b.seats_behind <= 2
            } else {
                b.last_to_act
            };
            let threshold = fair * (if late { 1.35 } else { 1.55 }) / agg;
            if p >= threshold && p > 0.3 {
                return Decision::BetOrRaise;
            }
            if s.street > 0 && late && n == 1 && s.opp_last.first().is_some_and(|&d| d > 0) {
                return Decision::BluffOrCheck;
            }
        }
        Decision::Check
    }
}

/// The most seats a [`Spot`] may have.
pub const MAX_SEATS: usize = 16;

/// One seat's decision as the heuristic reads it from what that seat may see: the
/// fields of `triple_draw.bots.Observation` it looks at, read by the Observation binding
/// (`rust/python/bots.rs`) or straight from a hand (the batched environment,
/// `rust/python/vector.rs`), so both decide by [`Heuristic::choose`].
#[derive(Clone, Copy, Debug)]
pub struct Spot<'a> {
    /// The seat to act, and the number of seats (2..=[`MAX_SEATS`]).
    pub me: usize,
    pub n: usize,
    /// Its five cards, in the order the hand holds them.
    pub hole: [u8; 5],
    /// A draw (else a betting round).
    pub draw: bool,
    /// The betting round, or the draw's index.
    pub street: u8,
    /// Per seat: folded.
    pub folded: &'a [bool],
    /// Per seat: the cards drawn at the seat's last draw so far (`None`: not drawn yet).
    /// Read for live opponents only.
    pub last_drawn: &'a [Option<u8>],
    // -- betting only
    pub to_call: i64,
    pub pot: i64,
    pub can_raise: bool,
    pub round_bets: u32,
    pub voluntary: bool,
    pub big_blind: usize,
    pub small_blind: Option<usize>,
    /// Per seat: chips behind. Read only when a raise is allowed in the first round.
    pub stacks: &'a [i64],
    /// Read only when a raise is allowed with nothing to call in a later round.
    pub button: usize,
}

impl<'a> Spot<'a> {
    /// A spot with its betting fields empty (nothing to call, no raise, no stacks): all a
    /// draw needs; a betting decision sets the rest.
    pub fn new(
        me: usize,
        n: usize,
        hole: [u8; 5],
        draw: bool,
        street: u8,
        folded: &'a [bool],
        last_drawn: &'a [Option<u8>],
    ) -> Spot<'a> {
        Spot {
            me,
            n,
            hole,
            draw,
            street,
            folded,
            last_drawn,
            to_call: 0,
            pot: 0,
            can_raise: false,
            round_bets: 0,
            voluntary: false,
            big_blind: 0,
            small_blind: None,
            stacks: &[],
            button: 0,
        }
    }

    /// Whether [`Heuristic::choose`] reads [`Spot::stacks`].
    pub fn reads_stacks(&self) -> bool {
        !self.draw && self.can_raise && self.street == 0
    }

    /// Whether [`Heuristic::choose`] reads [`Spot::button`].
    pub fn reads_button(&self) -> bool {
        !self.draw && self.can_raise && self.street != 0 && self.to_call == 0
    }
}

/// What [`Heuristic::choose`] decides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choice {
    /// A betting decision.
    Bet(Decision),
    /// Throw the cards at these positions of [`Spot::hole`] (bit i: `hole[i]`).
    Discard(u8),
}

impl Heuristic {
    /// The decision at `spot`; `r` as in [`Heuristic::bet`] (unused in a draw).
    pub fn choose(&self, spot: &Spot, r: f64) -> Choice {
        let (n, me) = (spot.n, spot.me);
        let mut opp_last = [0u8; MAX_SEATS];
        let mut n_last = 0;
        let mut n_opps = 0u32;
        for j in 0..n {
            if j != me && !spot.folded[j] {
                n_opps += 1;
                if let Some(d) = spot.last_drawn[j] {
                    opp_last[n_last] = d;
                    n_last += 1;
                }
            }
        }
        let s = Seen {
            hole: spot.hole,
            rank: rank_of(&spot.hole),
            draws_left: 3 - spot.street,
            street: spot.street,
            n_opps,
            opp_last: &opp_last[..n_last],
        };
        if spot.draw {
            return Choice::Discard(self.discard(&s));
        }
        // the position, read only where the heuristic looks at it: live players who are
        // not all-in acting after me up to the big blind (first round), and whether I am
        // the last live player counting back from the button (later rounds)
        let mut seats_behind = 0;
        let mut last_to_act = false;
        if spot.reads_stacks() {
            let mut j = me;
            while j != spot.big_blind {
                j = (j + 1) % n;
                if !spot.folded[j] && spot.stacks[j] != 0 {
                    seats_behind += 1;
                }
            }
        } else if spot.reads_button() {
            let mut j = spot.button;
            for _ in 0..n {
                if !spot.folded[j] {
                    last_to_act = j == me;
                    break;
                }
                j = (j + n - 1) % n;
            }
        }
        let b = Betting {
            to_call: spot.to_call,
            pot: spot.pot,
            can_raise: spot.can_raise,
            round_bets: spot.round_bets,
            voluntary: spot.voluntary,
            seats_behind,
            blind: me == spot.big_blind || spot.small_blind == Some(me),
            last_to_act,
        };
        Choice::Bet(self.bet(&s, &b, r))
    }
}

/// The rank of a seat's five cards (any order).
pub fn rank_of(hole: &[u8; 5]) -> u16 {
    tables().rank5(*hole)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bots_made_equity_runs_through_the_anchors() {
        let t = made_equity();
        assert_eq!(t.len(), NUM_CLASSES as usize + 1);
        assert_eq!(t[1], 0.97);
        assert_eq!(t[18], 0.81);
        assert_eq!(t[NUM_CLASSES as usize], 0.0);
        assert!(t[1..].windows(2).all(|w| w[0] >= w[1]));
    }

    #[test]
    fn bots_stand_pat_on_the_threshold_and_draw_behind_it() {
        let h = Heuristic {
            keep_max: 6,
            pat_max: [0, 52, 18, 18],
            aggression: 1.0,
        };
        let hole = [24, 17, 10, 5, 1]; // 8c 6d 4h 3d 2d: an eight-low
        let s = Seen {
            hole,
            rank: rank_of(&hole),
            draws_left: 3,
            street: 0,
            n_opps: 1,
            opp_last: &[],
        };
        assert_eq!(h.discard(&s), 0);
        let hole = [44, 17, 10, 5, 1]; // Kc 6d 4h 3d 2d
        let s = Seen {
            hole,
            rank: rank_of(&hole),
            ..s
        };
        assert_eq!(h.discard(&s), 1);
    }
}
