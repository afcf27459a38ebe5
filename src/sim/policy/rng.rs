//! Random numbers, passed in and seeded.
//!
//! Every random draw in the core comes from a generator handed to the
//! simulation by its caller: any `rand_core` generator (`rand_core::Rng`),
//! seen through [`UnitRng`], which adds Python's floats. The Monte Carlo
//! scenarios take one as a type parameter (`simulate_from`); their
//! `simulate` seeds [`PyRandom`] with the scenario's `seed`, so a seeded
//! link shows the run it always showed. Nothing in the core reads a clock or
//! an OS entropy source, so the same seed always gives the same run,
//! natively and in the browser.
//!
//! [`PyRandom`] is the Mersenne Twister exactly as CPython's `random.Random`
//! uses it: seeded with `init_by_array` (what `random.Random(7)` does for a
//! non-negative integer seed below 2³²) and producing floats with
//! `genrand_res53`, two 32-bit draws per float. That is what lets the herd
//! simulation reproduce the lesson's Python program digit for digit.
//!
//! ```
//! use sensei_lab::sim::policy::rng::{PyRandom, UnitRng};
//! let mut rng = PyRandom::new(7);
//! // Python: random.Random(7).random() == 0.32383276483316237
//! assert_eq!(rng.random(), 0.32383276483316237);
//! ```

/// A `rand_core` generator's uniform floats in `[0, 1)`, as Python makes them.
pub trait UnitRng: rand_core::Rng {
    /// The next float in `[0, 1)`, like Python's `random.random()`: from two
    /// 32-bit draws (`genrand_res53`), so any Mersenne Twister gives CPython's
    /// floats, and any other generator floats of the same kind.
    #[inline]
    fn random(&mut self) -> f64 {
        let a = self.next_u32();
        res53(a, self.next_u32())
    }

    /// A float between `a` and `b`, computed as Python's `random.uniform`
    /// computes it: `a + (b - a) * random()`.
    #[inline]
    fn uniform(&mut self, a: f64, b: f64) -> f64 {
        scale_unit(a, b, self.random())
    }
}

/// Python's `random.uniform` from its `random()` draw `r`: `a + (b - a) × r`.
#[inline(always)]
fn scale_unit(a: f64, b: f64, r: f64) -> f64 {
    a + (b - a) * r
}

/// CPython-compatible MT19937, 624 words at a time.
///
/// The generator is CPython's (`_randommodule.c`: `init_by_array`,
/// `genrand_uint32`, `genrand_res53`), checked against the `rand_mt` crate
/// and against Python's own digits. It twists its whole state and tempers
/// the 624 outputs in one go (`PyRandom::refill`), loops the compiler can
/// vectorise, and a draw is then a read from that block: the herd makes tens
/// of thousands of draws per run, and drawing them one by one through
/// `rand_mt` cost about 4 ns each here against 2.5 this way.
#[derive(Clone)]
pub struct PyRandom {
    words: Box<Words>,
    /// The next output in `words.out`; `N` when the block is used up.
    pos: usize,
}

#[derive(Clone)]
struct Words {
    state: [u32; N],
    out: [u32; N],
}

const N: usize = 624;
const M: usize = 397;

impl PyRandom {
    /// Same state as Python's `random.Random(seed)` for `0 <= seed < 2**32`
    /// (`init_by_array` with the one-word key `[seed]`).
    pub fn new(seed: u32) -> Self {
        let mut rng = PyRandom {
            words: Box::new(Words {
                state: [0; N],
                out: [0; N],
            }),
            pos: N,
        };
        rng.reseed(seed);
        rng
    }

    /// This generator seeded again, as [`PyRandom::new`] seeds it (in the
    /// same memory).
    pub fn reseed(&mut self, seed: u32) {
        // `init_genrand(19650218)`, the same for every seed: computed once.
        static START: std::sync::OnceLock<[u32; N]> = std::sync::OnceLock::new();
        let mt = &mut self.words.state;
        *mt = *START.get_or_init(|| {
            let mut mt = [0u32; N];
            mt[0] = 19_650_218;
            for i in 1..N {
                mt[i] = 1_812_433_253u32
                    .wrapping_mul(mt[i - 1] ^ (mt[i - 1] >> 30))
                    .wrapping_add(i as u32);
            }
            mt
        });
        // One pass per word of the key (N of them: the key is shorter), then
        // N - 1. Each word depends on the one before (`prev`, kept in a
        // register: the chain is the whole cost); at the end of the array the
        // last word is copied to the first and the passes go on from the second.
        let mut prev = mt[0];
        let mut i = 1;
        for _ in 0..N {
            prev = (mt[i] ^ (prev ^ (prev >> 30)).wrapping_mul(1_664_525)).wrapping_add(seed);
            mt[i] = prev;
            i += 1;
            if i >= N {
                mt[0] = prev;
                i = 1;
            }
        }
        for _ in 0..N - 1 {
            prev = (mt[i] ^ (prev ^ (prev >> 30)).wrapping_mul(1_566_083_941)).wrapping_sub(i as u32);
            mt[i] = prev;
            i += 1;
            if i >= N {
                mt[0] = prev;
                i = 1;
            }
        }
        mt[0] = 0x8000_0000;
        self.pos = N;
    }

    /// The next 624 outputs: the twist of the whole state, then the tempering.
    #[cold]
    #[inline(never)]
    fn refill(&mut self) {
        const UPPER: u32 = 0x8000_0000;
        const LOWER: u32 = 0x7fff_ffff;
        const MATRIX_A: u32 = 0x9908_b0df;
        let twist = |a: u32, b: u32, c: u32| {
            let y = (a & UPPER) | (b & LOWER);
            c ^ (y >> 1) ^ ((y & 1).wrapping_neg() & MATRIX_A)
        };
        let s = &mut self.words.state;
        for i in 0..N - M {
            s[i] = twist(s[i], s[i + 1], s[i + M]);
        }
        for i in N - M..N - 1 {
            s[i] = twist(s[i], s[i + 1], s[i + M - N]);
        }
        s[N - 1] = twist(s[N - 1], s[0], s[M - 1]);
        let Words { state, out } = &mut *self.words;
        for (o, &x) in out.iter_mut().zip(state.iter()) {
            let mut y = x ^ (x >> 11);
            y ^= (y << 7) & 0x9d2c_5680;
            y ^= (y << 15) & 0xefc6_0000;
            *o = y ^ (y >> 18);
        }
        self.pos = 0;
    }

    /// The raw 32-bit output (`genrand_uint32`).
    #[inline(always)]
    pub fn next_u32(&mut self) -> u32 {
        if self.pos >= N {
            self.refill();
        }
        let x = self.words.out[self.pos];
        self.pos += 1;
        x
    }

    /// Fills `out` with `uniform(a, b)` draws, in order: the same values as
    /// that many calls, computed a block at a time (a loop the compiler
    /// vectorises) rather than one call each. For the herd's first wave, a
    /// draw for every client.
    pub fn fill_uniform(&mut self, mut out: &mut [f64], a: f64, b: f64) {
        while !out.is_empty() {
            let k = ((N - self.pos) / 2).min(out.len());
            if k == 0 {
                // Fewer than two words left: this draw reads the next block too.
                out[0] = self.uniform(a, b);
                out = &mut std::mem::take(&mut out)[1..];
                continue;
            }
            let words = &self.words.out[self.pos..self.pos + 2 * k];
            for (o, w) in out.iter_mut().zip(words.chunks_exact(2)) {
                *o = scale_unit(a, b, res53(w[0], w[1]));
            }
            self.pos += 2 * k;
            out = &mut std::mem::take(&mut out)[k..];
        }
    }
}

/// The design's random-number traits (`rand_core`) on the same generator, so
/// that anything written for `rand` can draw from it, with Python's meaning
/// kept: `seed_from_u64(n)` is `random.Random(n)`, `next_u32` is
/// `getrandbits(32)`, `next_u64` is `getrandbits(64)`, `fill_bytes` is
/// `randbytes` (checked against CPython in `tests/python_reference.rs`).
impl PyRandom {
    /// Same state as Python's `random.Random(n)` for any whole `n ≥ 0`, given
    /// as its 32-bit words, least significant first (CPython's `init_by_array`
    /// key: `0` is the one word `[0]`, as is an empty key).
    pub fn from_key(key: &[u32]) -> Self {
        let key: &[u32] = if key.is_empty() { &[0] } else { key };
        let mut rng = PyRandom::new(0);
        let mt = &mut rng.words.state;
        mt[0] = 19_650_218;
        for i in 1..N {
            mt[i] = 1_812_433_253u32
                .wrapping_mul(mt[i - 1] ^ (mt[i - 1] >> 30))
                .wrapping_add(i as u32);
        }
        let (mut i, mut j) = (1, 0);
        for _ in 0..N.max(key.len()) {
            let prev = mt[i - 1];
            mt[i] = (mt[i] ^ (prev ^ (prev >> 30)).wrapping_mul(1_664_525))
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
            let prev = mt[i - 1];
            mt[i] = (mt[i] ^ (prev ^ (prev >> 30)).wrapping_mul(1_566_083_941)).wrapping_sub(i as u32);
            i += 1;
            if i >= N {
                mt[0] = mt[N - 1];
                i = 1;
            }
        }
        mt[0] = 0x8000_0000;
        rng.pos = N;
        rng
    }
}

impl rand_core::TryRng for PyRandom {
    type Error = core::convert::Infallible;

    fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
        Ok(PyRandom::next_u32(self))
    }

    /// `getrandbits(64)`: the first word is the low half.
    fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
        let lo = PyRandom::next_u32(self) as u64;
        Ok(lo | (PyRandom::next_u32(self) as u64) << 32)
    }

    /// `randbytes(len)`: each word's bytes in order, least significant
    /// first; of a last, partial word, its high bytes (as `getrandbits`
    /// shifts it right).
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
        let mut words = dst.chunks_exact_mut(4);
        for w in &mut words {
            w.copy_from_slice(&PyRandom::next_u32(self).to_le_bytes());
        }
        let rest = words.into_remainder();
        if !rest.is_empty() {
            let bits = 8 * rest.len() as u32;
            let w = PyRandom::next_u32(self) >> (32 - bits);
            rest.copy_from_slice(&w.to_le_bytes()[..rest.len()]);
        }
        Ok(())
    }
}

impl rand_core::SeedableRng for PyRandom {
    /// A whole number's bytes, least significant first: `from_seed(n.to_le_bytes())`
    /// is `seed_from_u64(n)`.
    type Seed = [u8; 8];

    fn from_seed(seed: [u8; 8]) -> Self {
        Self::seed_from_u64(u64::from_le_bytes(seed))
    }

    /// `random.Random(n)`: `n`'s 32-bit words, low first (one word below 2³²).
    fn seed_from_u64(n: u64) -> Self {
        let (lo, hi) = (n as u32, (n >> 32) as u32);
        if hi == 0 {
            PyRandom::new(lo)
        } else {
            PyRandom::from_key(&[lo, hi])
        }
    }
}

/// `genrand_res53`'s float from its two words.
#[inline(always)]
fn res53(a: u32, b: u32) -> f64 {
    ((a >> 5) as f64 * 67_108_864.0 + (b >> 6) as f64) * (1.0 / 9_007_199_254_740_992.0)
}

impl UnitRng for PyRandom {
    /// `genrand_res53`: 27 bits from one draw, 26 from the next, read from
    /// the block at once when both are there (the herd's hot path).
    #[inline(always)]
    fn random(&mut self) -> f64 {
        let (a, b) = match self.words.out.get(self.pos..self.pos + 2) {
            Some(&[a, b]) => {
                self.pos += 2;
                (a, b)
            }
            _ => (self.next_u32(), self.next_u32()),
        };
        res53(a, b)
    }

    #[inline(always)]
    fn uniform(&mut self, a: f64, b: f64) -> f64 {
        scale_unit(a, b, self.random())
    }
}

/// A whole number in `lo..=hi` from one draw, for the tests' random cases
/// (not Python's `randint`, which draws bits).
#[cfg(test)]
pub(crate) fn pick<R: UnitRng + ?Sized>(rng: &mut R, lo: u32, hi: u32) -> u32 {
    lo + ((hi - lo + 1) as f64 * rng.random()) as u32
}

/// A uniform draw in (0, 1) from 32 random bits: enough resolution for a
/// Monte Carlo's decisions, at half the cost of [`UnitRng::random`].
pub fn unit_from_u32(bits: u32) -> f64 {
    (bits as f64 + 0.5) * (1.0 / 4_294_967_296.0)
}

/// The standard normal quantile of `p` in (0, 1): a normal draw from one
/// uniform draw. Acklam's rational approximation (relative error below
/// 1.2 × 10⁻⁹): no trigonometry, and a logarithm only in the outer 5 %, so
/// it is several times cheaper than Box–Muller, above all in the browser.
pub fn normal_quantile(p: f64) -> f64 {
    const A: [f64; 6] = [
        -3.969683028665376e1,
        2.209460984245205e2,
        -2.759285104469687e2,
        1.38357751867269e2,
        -3.066479806614716e1,
        2.506628277459239,
    ];
    const B: [f64; 5] = [
        -5.447609879822406e1,
        1.615858368580409e2,
        -1.556989798598866e2,
        6.680131188771972e1,
        -1.328068155288572e1,
    ];
    const C: [f64; 6] = [
        -7.784894002430293e-3,
        -3.223964580411365e-1,
        -2.400758277161838,
        -2.549732539343734,
        4.374664141464993,
        2.938163982698783,
    ];
    const D: [f64; 4] = [
        7.784695709041462e-3,
        3.224671290700398e-1,
        2.445134137142996,
        3.754408661907416,
    ];
    const LOW: f64 = 0.02425;
    let tail = |q: f64| {
        (((((C[0] * q + C[1]) * q + C[2]) * q + C[3]) * q + C[4]) * q + C[5])
            / ((((D[0] * q + D[1]) * q + D[2]) * q + D[3]) * q + 1.0)
    };
    let p = p.clamp(f64::MIN_POSITIVE, 1.0 - f64::EPSILON);
    if p < LOW {
        tail((-2.0 * p.ln()).sqrt())
    } else if p > 1.0 - LOW {
        -tail((-2.0 * (1.0 - p).ln()).sqrt())
    } else {
        let q = p - 0.5;
        let r = q * q;
        (((((A[0] * r + A[1]) * r + A[2]) * r + A[3]) * r + A[4]) * r + A[5]) * q
            / (((((B[0] * r + B[1]) * r + B[2]) * r + B[3]) * r + B[4]) * r + 1.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reproduces_python_random_7() {
        // python3 -c "import random; r=random.Random(7); print([repr(r.random()) for _ in range(5)])"
        let expected = [
            0.32383276483316237,
            0.15084917392450192,
            0.6509344730398537,
            0.07243628666754276,
            0.5358820043066892,
        ];
        let mut rng = PyRandom::new(7);
        for e in expected {
            assert_eq!(rng.random(), e);
        }
    }

    /// The same words and floats as the `rand_mt` crate, seeded as Python seeds,
    /// over several blocks, drawing words and floats in turn.
    #[test]
    fn same_stream_as_rand_mt() {
        for seed in [0, 1, 7, 99, 2024, 123_456_789, u32::MAX] {
            let mut ours = PyRandom::new(seed);
            let mut theirs = rand_mt::Mt::new_with_key([seed]);
            for i in 0..5_000 {
                if i % 3 == 0 {
                    assert_eq!(ours.next_u32(), theirs.next_u32(), "seed {seed}, draw {i}");
                } else {
                    let a = (theirs.next_u32() >> 5) as f64;
                    let b = (theirs.next_u32() >> 6) as f64;
                    let f = (a * 67_108_864.0 + b) * (1.0 / 9_007_199_254_740_992.0);
                    assert_eq!(ours.random(), f, "seed {seed}, draw {i}");
                }
            }
        }
    }

    #[test]
    fn normal_quantiles() {
        // python3 -c "from statistics import NormalDist as N; print([N().inv_cdf(p) for p in (0.001, 0.02, 0.3, 0.5, 0.975, 0.9999)])"
        for (p, z) in [
            (0.001, -3.090232306167813),
            (0.02, -2.053748910631823),
            (0.3, -0.5244005127080407),
            (0.5, 0.0),
            (0.975, 1.959963984540054),
            (0.9999, 3.7190164854556804),
        ] {
            let got = normal_quantile(p);
            assert!((got - z).abs() <= 1.2e-9 * z.abs().max(1e-12), "{p}: {got} against {z}");
        }
        // Drawn through it, a million uniforms give mean 0 and variance 1.
        let mut rng = PyRandom::new(7);
        let n = 1_000_000;
        let zs: Vec<f64> = (0..n).map(|_| normal_quantile(unit_from_u32(rng.next_u32()))).collect();
        let mean = zs.iter().sum::<f64>() / n as f64;
        let var = zs.iter().map(|z| (z - mean).powi(2)).sum::<f64>() / n as f64;
        assert!(mean.abs() < 0.005 && (var - 1.0).abs() < 0.005, "{mean} {var}");
        assert!(zs.iter().all(|z| z.is_finite()));
        assert!(normal_quantile(0.0).is_finite() && normal_quantile(1.0).is_finite());
    }

    /// A block at a time, the same draws as one at a time: across block
    /// boundaries, from odd and even positions, for short and long runs.
    #[test]
    fn fill_uniform_is_uniform_in_turn() {
        for (skip, len) in [
            (0, 0),
            (0, 1),
            (0, 311),
            (0, 312),
            (0, 313),
            (1, 312),
            (1, 5_000),
            (623, 3),
            (7, 2_000),
        ] {
            let (mut one, mut many) = (PyRandom::new(11), PyRandom::new(11));
            for _ in 0..skip {
                assert_eq!(one.next_u32(), many.next_u32());
            }
            let expected: Vec<f64> = (0..len).map(|_| one.uniform(3.0, 800.0)).collect();
            let mut got = vec![f64::NAN; len];
            many.fill_uniform(&mut got, 3.0, 800.0);
            assert_eq!(got, expected, "skip {skip}, len {len}");
            assert_eq!(
                many.next_u32(),
                one.next_u32(),
                "skip {skip}, len {len}: the draws after"
            );
        }
    }

    #[test]
    fn uniform_matches_python() {
        // python3 -c "import random; r=random.Random(123); print(repr(r.uniform(0, 200)), repr(r.uniform(100, 900)))"
        let mut rng = PyRandom::new(123);
        assert_eq!(rng.uniform(0.0, 200.0), 10.472719770188865);
        assert_eq!(rng.uniform(100.0, 900.0), 169.74934201810584);
    }

    /// Any `rand_core` generator drives the Monte Carlo scenarios: a small
    /// SplitMix64 here. Seeded Python's, `simulate_from` is `simulate`; from
    /// another generator, a run of the same kind (its counts add up).
    #[test]
    fn any_rand_core_generator_drives_the_scenarios() {
        use crate::sim::{inflight, shedding, storm};
        use rand_core::SeedableRng;
        struct SplitMix(u64);
        impl rand_core::TryRng for SplitMix {
            type Error = core::convert::Infallible;
            fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
                Ok((self.try_next_u64()? >> 32) as u32)
            }
            fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
                self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
                let mut z = self.0;
                z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
                z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
                Ok(z ^ (z >> 31))
            }
            fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
                for b in dst {
                    *b = self.try_next_u32()? as u8;
                }
                Ok(())
            }
        }
        impl UnitRng for SplitMix {}

        let sp = shedding::SheddingParams::default();
        let py = |seed: u32| PyRandom::seed_from_u64(seed.into());
        assert_eq!(shedding::simulate_from(&sp, &mut py(sp.seed)), shedding::simulate(&sp));
        let other = shedding::simulate_from(&sp, &mut SplitMix(1));
        assert_ne!(other, shedding::simulate(&sp));
        for s in [&other.unbounded, &other.shedding] {
            let on_time = (s.goodput_share * s.arrivals as f64).round() as u64;
            assert_eq!(on_time + s.late + s.rejected + s.unfinished, s.arrivals);
        }
        assert_eq!(other.unbounded.arrivals, other.shedding.arrivals);

        let ip = inflight::InflightParams {
            arrivals: inflight::Arrivals::Poisson,
            ..Default::default()
        };
        assert_eq!(inflight::simulate_from(&ip, &mut py(ip.seed)), inflight::simulate(&ip));
        let other = inflight::simulate_from(&ip, &mut SplitMix(2));
        assert_eq!(other.served + other.rejected, other.arrivals);

        let st = storm::StormParams::default();
        assert_eq!(storm::simulate_from(&st, &mut py(st.seed)), storm::simulate(&st));
        let other = storm::simulate_from(&st, &mut SplitMix(3));
        assert!(other.succeeded <= other.requests && other.requests <= other.attempts);
    }
}
