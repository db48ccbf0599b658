//! The analysis kernels on arbitrary requests: bad cards, counts, strategies and run
//! options are refused with an `AnalysisError`, never a panic; `threads` is checked by
//! `pool::check_threads`. Trials and enumeration sizes are kept small so each input runs
//! in milliseconds.
#![no_main]
use _core::analysis::{
    best_discard, draw_odds, equity, worst_low_with, Method, Objective, Plan, Rule, RunOptions,
    Seat, Strategy,
};
use _core::pool::check_threads;
use libfuzzer_sys::fuzz_target;

struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    fn byte(&mut self) -> u8 {
        match self.0.split_first() {
            Some((&b, rest)) => {
                self.0 = rest;
                b
            }
            None => 0,
        }
    }
    fn cards(&mut self, max: u8) -> Vec<u8> {
        let n = self.byte() % (max + 1);
        (0..n).map(|_| self.byte() % 56).collect()
    }
    fn plan(&mut self) -> Plan {
        match Rule::new(self.byte() % 16, u16::from_le_bytes([self.byte(), self.byte()])) {
            Ok(r) if self.byte() & 1 == 0 => Plan::Rule(r),
            _ => Plan::StandPat,
        }
    }
    fn strategy(&mut self) -> Strategy {
        let then = self.plan();
        if self.byte() & 1 == 0 {
            let first: Vec<u8> = self.cards(5).into_iter().filter(|&c| c < 52).collect();
            Strategy::fixed(&first, then)
        } else {
            Strategy { first: None, then }
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let mut b = Bytes(data);
    let threads = check_threads(b.byte() as i128 - 2);
    let opts = RunOptions {
        method: match b.byte() % 3 {
            0 => Method::Auto,
            1 => Method::Sample,
            _ => Method::Exact,
        },
        trials: (b.byte() % 40) as u64,
        key: [b.byte(); 32],
        threads: Some(threads.map_or(1, |t| t.min(3))),
        exact_limit: 1 + (b.byte() as u64) * 8,
    };
    let draws = (b.byte() % 5) as u32;
    let kernel = b.byte() % 4;
    let hand = b.cards(6);
    let dead = b.cards(8);
    // Exact enumeration only where it is small: one draw.
    let opts = if opts.method == Method::Exact && draws > 1 {
        RunOptions { method: Method::Sample, ..opts }
    } else {
        opts
    };
    match kernel {
        0 => {
            let discard = b.cards(5);
            let plan = b.plan();
            if let Ok(r) = draw_odds(&hand, &discard, draws, plan, &dead, &opts) {
                let total: f64 = r.probs.iter().sum();
                assert!(r.probs.iter().all(|p| p.is_finite() && *p >= 0.0));
                assert!(total == 0.0 || (total - 1.0).abs() < 1e-9, "{total}");
            }
        }
        1 => {
            let n = (b.byte() % 8) as usize;
            let seats: Vec<Seat> = (0..n)
                .map(|i| {
                    let known = b.cards(5);
                    Seat::new(format!("s{i}"), &known, b.strategy())
                })
                .collect();
            let opts = RunOptions { method: if opts.method == Method::Exact { Method::Sample } else { opts.method }, ..opts };
            if let Ok(r) = equity(&seats, &dead, draws, &opts) {
                for s in &r.seats {
                    assert!(s.share.is_finite() && (0.0..=1.0 + 1e-9).contains(&s.share));
                }
            }
        }
        2 => {
            let plan = b.plan();
            let objective = if b.byte() & 1 == 0 {
                Objective::Target(u16::from_le_bytes([b.byte(), b.byte()]))
            } else {
                let known = b.cards(5);
                Objective::Equity { opponents: vec![Seat::new("o", &known, b.strategy())] }
            };
            // an exact enumeration against an opponent's draw takes seconds (a real request,
            // not a finding): sample it instead
            let method = match (&objective, opts.method) {
                (Objective::Equity { .. }, Method::Exact | Method::Auto) => Method::Sample,
                (_, m) => m,
            };
            let opts = RunOptions { trials: opts.trials.min(8), method, ..opts };
            let _ = best_discard(&hand, draws, plan, &objective, &dead, &opts);
        }
        _ => {
            let second = b.byte();
            let _ = worst_low_with(b.byte(), (second & 1 == 0).then_some(second >> 1));
        }
    }
});
