//! Criterion benchmarks of the pure Rust core: evaluation and the seeded shuffle.
use _core::deck::{key_from_u64, Deck};
use _core::eval::tables;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;

fn random_hands(n: usize, seed: u64) -> Vec<[u8; 5]> {
    let mut out = Vec::with_capacity(n);
    let mut d = Deck::new(key_from_u64(seed));
    for _ in 0..n {
        if d.len() < 5 {
            d = Deck::new(key_from_u64(seed ^ out.len() as u64));
        }
        let h = d.deal(5).unwrap();
        out.push([h[0], h[1], h[2], h[3], h[4]]);
    }
    out
}

fn bench_eval(c: &mut Criterion) {
    let hands = random_hands(1 << 20, 9);
    let t = tables();
    let mut g = c.benchmark_group("evaluate");
    g.throughput(Throughput::Elements(hands.len() as u64));
    g.bench_function("rank5 over 1M random hands", |b| {
        b.iter(|| {
            let mut acc = 0u32;
            for h in &hands {
                acc = acc.wrapping_add(t.rank5(*h) as u32);
            }
            black_box(acc)
        })
    });
    g.finish();
}

fn bench_shuffle(c: &mut Criterion) {
    let mut seed = 0u64;
    c.bench_function("seeded 52-card shuffle + deal", |b| {
        b.iter(|| {
            seed = seed.wrapping_add(1);
            let mut d = Deck::new(key_from_u64(black_box(seed)));
            black_box(d.deal(52).unwrap()[51])
        })
    });
}

criterion_group!(benches, bench_eval, bench_shuffle);
criterion_main!(benches);
