//! Python's `random.Random`, number for number: the Mersenne Twister (MT19937) seeded from
//! an int as CPython seeds it (`init_by_array` of the int's 32-bit words, least
//! significant first), `random()` (53 bits from two outputs), `getrandbits(k)` for
//! `k <= 32` and `randrange(n)` (`_randbelow_with_getrandbits`: `n.bit_length()` bits,
//! redrawn while `>= n`).
//!
//! The batched environment's learner mode (`rust/python/vector.rs`) draws the bundled
//! bots' random numbers here instead of in their `random.Random`: every bot is reseeded
//! at each hand, so a bot's stream within a hand is the first numbers of a fresh
//! generator, and these are the very numbers Python would give. Two savings over
//! `random.Random.seed`: the state of `init_genrand(19650218)`, which every seed starts
//! from, is computed once; and the state is twisted one word at a time as outputs are
//! drawn (a hand uses a handful), not 624 words at the first draw.

use std::sync::OnceLock;

const N: usize = 624;
const M: usize = 397;
const MATRIX_A: u32 = 0x9908_b0df;
const UPPER: u32 = 0x8000_0000;
const LOWER: u32 = 0x7fff_ffff;

/// `init_genrand(19650218)`: where every `init_by_array` starts.
fn base() -> &'static [u32; N] {
    static BASE: OnceLock<[u32; N]> = OnceLock::new();
    BASE.get_or_init(|| {
        let mut mt = [0u32; N];
        mt[0] = 19_650_218;
        for i in 1..N {
            let p = mt[i - 1];
            mt[i] = 1_812_433_253u32
                .wrapping_mul(p ^ (p >> 30))
                .wrapping_add(i as u32);
        }
        mt
    })
}

/// A `random.Random` seeded with an int (see the module docs).
#[derive(Clone)]
pub struct PyRandom {
    mt: [u32; N],
    /// the next word to twist and return
    idx: usize,
}

impl std::fmt::Debug for PyRandom {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "PyRandom {{ idx: {} }}", self.idx)
    }
}

impl PyRandom {
    /// `random.Random(seed)` for an int `0 <= seed < 2**64`.
    pub fn new(seed: u64) -> PyRandom {
        let mut r = PyRandom { mt: [0; N], idx: 0 };
        r.seed(seed);
        r
    }

    /// `self.seed(seed)`: restart the stream.
    pub fn seed(&mut self, seed: u64) {
        // the int's 32-bit words, least significant first (one word for 0)
        let lo = seed as u32;
        let hi = (seed >> 32) as u32;
        let key: &[u32] = if hi == 0 { &[lo] } else { &[lo, hi] };
        let mt = &mut self.mt;
        *mt = *base();
        let mut i = 1usize;
        let mut j = 0usize;
        for _ in 0..N.max(key.len()) {
            let p = mt[i - 1];
            mt[i] = (mt[i] ^ (p ^ (p >> 30)).wrapping_mul(1_664_525))
                .wrapping_add(key[j])
                .wrapping_add(j as u32);
            i += 1;
            j += 1;
            if i >= N {
                mt[0] = mt[N - 1];
                i = 1;
            }
            if j >= key.len() {
                j = 0;
            }
        }
        for _ in 0..N - 1 {
            let p = mt[i - 1];
            mt[i] = (mt[i] ^ (p ^ (p >> 30)).wrapping_mul(1_566_083_941)).wrapping_sub(i as u32);
            i += 1;
            if i >= N {
                mt[0] = mt[N - 1];
                i = 1;
            }
        }
        mt[0] = 0x8000_0000;
        // CPython marks the state used up (index N), so the first draw twists it: word by
        // word here, the same words in the same order
        self.idx = 0;
    }

    /// The state: the 624 words and the index of the next one to twist.
    pub fn state(&self) -> (&[u32; N], usize) {
        (&self.mt, self.idx)
    }

    /// Restore a [`PyRandom::state`]; false (and no change) if it is not one.
    pub fn set_state(&mut self, words: &[u32], idx: usize) -> bool {
        if words.len() != N || idx >= N {
            return false;
        }
        self.mt.copy_from_slice(words);
        self.idx = idx;
        true
    }

    /// The next 32-bit output (`genrand_uint32`).
    #[inline]
    pub fn next_u32(&mut self) -> u32 {
        let i = self.idx;
        let mt = &mut self.mt;
        let next = if i + 1 < N { i + 1 } else { 0 };
        let far = if i + M < N { i + M } else { i + M - N };
        let y = (mt[i] & UPPER) | (mt[next] & LOWER);
        let mut v = mt[far] ^ (y >> 1);
        if y & 1 != 0 {
            v ^= MATRIX_A;
        }
        mt[i] = v;
        self.idx = next;
        let mut y = v;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c_5680;
        y ^= (y << 15) & 0xefc6_0000;
        y ^ (y >> 18)
    }

    /// `random()`: a float in [0, 1) with 53 random bits.
    pub fn random(&mut self) -> f64 {
        let a = self.next_u32() >> 5;
        let b = self.next_u32() >> 6;
        (f64::from(a) * 67_108_864.0 + f64::from(b)) * (1.0 / 9_007_199_254_740_992.0)
    }

    /// `getrandbits(k)` for `k <= 32`.
    pub fn getrandbits(&mut self, k: u32) -> u32 {
        debug_assert!(k <= 32);
        if k == 0 {
            return 0;
        }
        self.next_u32() >> (32 - k)
    }

    /// `randrange(n)` for `n >= 1`.
    pub fn randrange(&mut self, n: u32) -> u32 {
        debug_assert!(n >= 1);
        let k = 32 - n.leading_zeros();
        loop {
            let r = self.getrandbits(k);
            if r < n {
                return r;
            }
        }
    }
}

/// Seed every generator of `rs` with the seed of the same index (`seeds`): what
/// [`PyRandom::seed`] does to each, computed for several at once. Seeding is a chain of
/// 1,247 dependent steps (about 5 µs, as long as CPython's own); [`LANES`] chains run side
/// by side in one loop fill the processor's idle units, so a batch costs little more
/// than one generator.
pub fn seed_many(rs: &mut [&mut PyRandom], seeds: &[u64]) {
    assert_eq!(rs.len(), seeds.len());
    for (rs, seeds) in rs.chunks_mut(LANES).zip(seeds.chunks(LANES)) {
        if rs.len() == 1 {
            rs[0].seed(seeds[0]);
            continue;
        }
        let mut lanes = [0u64; LANES];
        lanes[..seeds.len()].copy_from_slice(seeds);
        let st = seed_lanes(&lanes);
        for (l, r) in rs.iter_mut().enumerate() {
            for (w, row) in r.mt.iter_mut().zip(st.iter()) {
                *w = row[l];
            }
            r.idx = 0;
        }
    }
}

/// Generators seeded side by side by [`seed_many`].
pub const LANES: usize = 8;

/// The states of [`LANES`] generators seeded with `seeds`, word-major (`st[i][lane]`).
fn seed_lanes(seeds: &[u64; LANES]) -> Box<[[u32; LANES]; N]> {
    // per lane, what step t adds: key[t % len] + t % len (a one-word key: key[0] always)
    let mut add = [[0u32; LANES]; 2];
    for (l, &s) in seeds.iter().enumerate() {
        let (lo, hi) = (s as u32, (s >> 32) as u32);
        add[0][l] = lo;
        add[1][l] = if hi == 0 { lo } else { hi.wrapping_add(1) };
    }
    let b = base();
    let mut st = Box::new([[0u32; LANES]; N]);
    for (row, &w) in st.iter_mut().zip(b.iter()) {
        *row = [w; LANES];
    }
    let mut i = 1usize;
    for t in 0..N {
        let a = &add[t & 1];
        let p = st[i - 1];
        let mut row = st[i];
        for l in 0..LANES {
            row[l] = (row[l] ^ (p[l] ^ (p[l] >> 30)).wrapping_mul(1_664_525)).wrapping_add(a[l]);
        }
        st[i] = row;
        i += 1;
        if i >= N {
            st[0] = st[N - 1];
            i = 1;
        }
    }
    for _ in 0..N - 1 {
        let p = st[i - 1];
        let mut row = st[i];
        for l in 0..LANES {
            row[l] =
                (row[l] ^ (p[l] ^ (p[l] >> 30)).wrapping_mul(1_566_083_941)).wrapping_sub(i as u32);
        }
        st[i] = row;
        i += 1;
        if i >= N {
            st[0] = st[N - 1];
            i = 1;
        }
    }
    st[0] = [0x8000_0000; LANES];
    st
}

#[cfg(test)]
mod tests {
    use super::*;

    // The values below are CPython 3.11's: random.Random(seed).getrandbits(32) three times,
    // .random() twice, .randrange(3) six times then .randrange(2) three times and
    // .randrange(1) twice, and the 701st getrandbits(32).
    #[allow(clippy::type_complexity)]
    const CASES: &[(u64, [u32; 3], [u32; 11], u32)] = &[
        (
            0,
            [3_626_764_237, 1_654_615_998, 3_255_389_356],
            [1, 1, 0, 1, 2, 1, 1, 1, 1, 0, 0],
            2_140_787_315,
        ),
        (
            1,
            [577_090_037, 2_444_712_010, 3_639_700_191],
            [0, 2, 0, 1, 0, 1, 1, 1, 1, 0, 0],
            1_357_504_633,
        ),
        (
            12345,
            [1_789_368_711, 3_146_859_322, 43_676_229],
            [1, 2, 0, 1, 1, 0, 1, 1, 0, 0, 0],
            2_438_648_334,
        ),
        (
            4_294_967_295,
            [2_728_839_433, 2_661_025_012, 872_737_089],
            [2, 2, 0, 0, 2, 2, 1, 1, 1, 0, 0],
            2_019_932_776,
        ),
        (
            4_294_967_296,
            [485_306_839, 1_508_871_100, 1_794_561_286],
            [0, 1, 1, 0, 0, 2, 1, 1, 0, 0, 0],
            3_189_475_354,
        ),
        (
            9_223_372_036_854_775_807,
            [1_359_979_423, 2_819_855_560, 2_711_238_091],
            [1, 2, 2, 0, 1, 1, 0, 1, 1, 0, 0],
            2_170_203_288,
        ),
        (
            3_384_287_115_487_584_947,
            [1_752_070_265, 748_147_265, 210_905_095],
            [1, 0, 0, 1, 1, 1, 1, 0, 1, 0, 0],
            708_841_060,
        ),
    ];

    #[test]
    fn pyrandom_gives_cpythons_numbers() {
        for &(seed, words, ranges, late) in CASES {
            let mut r = PyRandom::new(seed);
            assert_eq!(
                [r.next_u32(), r.next_u32(), r.next_u32()],
                words,
                "seed {seed}"
            );
            let mut r = PyRandom::new(seed);
            let got: Vec<u32> = (0..11)
                .map(|k| {
                    r.randrange(if k < 6 {
                        3
                    } else if k < 9 {
                        2
                    } else {
                        1
                    })
                })
                .collect();
            assert_eq!(got, ranges, "seed {seed}");
            let mut r = PyRandom::new(seed);
            for _ in 0..700 {
                r.next_u32();
            }
            assert_eq!(r.getrandbits(32), late, "seed {seed}");
        }
    }

    #[test]
    fn pyrandom_random_is_cpythons_float() {
        for (seed, want) in [
            (0u64, [0.844_421_851_525_048_1, 0.757_954_402_940_302_5]),
            (12345, [0.416_619_872_545_341_16, 0.010_169_169_457_068_361]),
            (
                4_294_967_296,
                [0.112_994_300_956_364_09, 0.417_828_864_862_928_36],
            ),
            (
                3_384_287_115_487_584_947,
                [0.407_935_643_003_818_46, 0.049_105_170_008_981_07],
            ),
        ] {
            let mut r = PyRandom::new(seed);
            assert_eq!([r.random(), r.random()], want, "seed {seed}");
        }
    }

    #[test]
    fn pyrandom_reseeding_restarts_the_stream() {
        let mut r = PyRandom::new(5);
        let first: Vec<u32> = (0..1000).map(|_| r.next_u32()).collect();
        r.seed(5);
        let again: Vec<u32> = (0..1000).map(|_| r.next_u32()).collect();
        assert_eq!(first, again);
        assert_eq!(r.getrandbits(0), 0);
    }

    #[test]
    fn pyrandom_seed_many_seeds_each_as_seed_does() {
        for n in [1usize, 2, 3, LANES, LANES + 1, 2 * LANES + 3] {
            let seeds: Vec<u64> = (0..n as u64)
                .map(|k| match k % 4 {
                    0 => k,
                    1 => 1 << 32,
                    2 => (1 << 63) - k,
                    _ => k.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 1,
                })
                .collect();
            let mut rs: Vec<PyRandom> = (0..n).map(|_| PyRandom::new(99)).collect();
            rs[0].next_u32(); // a used generator is restarted too
            let mut refs: Vec<&mut PyRandom> = rs.iter_mut().collect();
            seed_many(&mut refs, &seeds);
            for (r, &s) in rs.iter_mut().zip(&seeds) {
                let mut one = PyRandom::new(s);
                for _ in 0..1300 {
                    assert_eq!(r.next_u32(), one.next_u32(), "seed {s}");
                }
            }
        }
    }
}
