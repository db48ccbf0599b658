//! Criterion benchmarks of the analysis kernels (one thread each, so the figures are per
//! core): heads-up equity with three draws left, both seats drawing by the standard rule,
//! and best_discard over all 32 choices for one draw, exactly.
use _core::analysis::{
    best_discard, draw_odds, equity, worst_low, Method, Objective, Plan, RunOptions, Seat, Strategy,
};
use _core::cards::parse_text;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;
use std::time::Duration;

fn ids(s: &str) -> Vec<u8> {
    parse_text(s).unwrap()
}

fn bench_equity(c: &mut Criterion) {
    let std = Strategy::standard();
    let seats = [
        Seat::new("a", &ids("7c5d4h3sKd"), std),
        Seat::new("b", &ids("8c6d5h2s2c"), std),
    ];
    let trials = 1_000_000;
    let opts = RunOptions {
        method: Method::Sample,
        trials,
        key: [7; 32],
        threads: Some(1),
        ..Default::default()
    };
    let mut g = c.benchmark_group("equity");
    g.sample_size(10).measurement_time(Duration::from_secs(4));
    g.throughput(Throughput::Elements(trials));
    g.bench_function(
        "heads-up, 3 draws, standard rule, 1M trials, 1 thread",
        |b| b.iter(|| black_box(equity(&seats, &[], 3, &opts).unwrap().seats[0].share)),
    );
    let random = [
        Seat::new("a", &ids("7c5d4h3sKd"), std),
        Seat::new("b", &[], std),
    ];
    g.bench_function("hand vs random hand, 3 draws, 1M trials, 1 thread", |b| {
        b.iter(|| black_box(equity(&random, &[], 3, &opts).unwrap().seats[0].share))
    });
    g.finish();
}

fn bench_discard(c: &mut Criterion) {
    let hand = ids("7c5d4h3sKd");
    let target = Objective::Target(worst_low(6).unwrap());
    let mut g = c.benchmark_group("best_discard");
    g.sample_size(10).measurement_time(Duration::from_secs(3));
    for threads in [Some(1), None] {
        let opts = RunOptions {
            threads,
            ..Default::default()
        };
        let label = match threads {
            Some(n) => format!("1 draw, exact, 32 choices, {n} thread"),
            None => "1 draw, exact, 32 choices, all cores".to_string(),
        };
        g.bench_function(label, |b| {
            b.iter(|| {
                black_box(best_discard(&hand, 1, Plan::StandPat, &target, &[], &opts).unwrap())
            })
        });
    }
    g.bench_function("draw_odds, 1 draw, 5 cards (1,533,939 hands)", |b| {
        let opts = RunOptions::default();
        b.iter(|| {
            black_box(
                draw_odds(&hand, &hand, 1, Plan::StandPat, &[], &opts)
                    .unwrap()
                    .outcomes,
            )
        })
    });
    g.finish();
}

criterion_group!(benches, bench_equity, bench_discard);
criterion_main!(benches);
