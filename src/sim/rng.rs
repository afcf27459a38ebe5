//! Random numbers, passed in and seeded.
//!
//! Every random draw in the core comes from a value of a type that implements
//! [`UnitRng`], handed to the simulation by its caller. Nothing in the core
//! reads a clock or an OS entropy source, so the same seed always gives the
//! same run, natively and in the browser.
//!
//! [`PyRandom`] is the Mersenne Twister exactly as CPython's `random.Random`
//! uses it: seeded with `init_by_array` (what `random.Random(7)` does for a
//! non-negative integer seed below 2³²) and producing floats with
//! `genrand_res53`, two 32-bit draws per float. That is what lets the herd
//! simulation reproduce the lesson's Python program digit for digit.
//!
//! ```
//! use sensei_lab::sim::rng::{PyRandom, UnitRng};
//! let mut rng = PyRandom::new(7);
//! // Python: random.Random(7).random() == 0.32383276483316237
//! assert_eq!(rng.random(), 0.32383276483316237);
//! ```

use rand_mt::Mt;

/// A source of uniform floats in `[0, 1)`.
pub trait UnitRng {
    /// The next float in `[0, 1)`, like Python's `random.random()`.
    fn random(&mut self) -> f64;

    /// A float between `a` and `b`, computed as Python's `random.uniform`
    /// computes it: `a + (b - a) * random()`.
    #[inline]
    fn uniform(&mut self, a: f64, b: f64) -> f64 {
        a + (b - a) * self.random()
    }
}

/// CPython-compatible MT19937.
#[derive(Clone)]
pub struct PyRandom {
    mt: Mt,
}

impl PyRandom {
    /// Same state as Python's `random.Random(seed)` for `0 <= seed < 2**32`.
    pub fn new(seed: u32) -> Self {
        Self {
            mt: Mt::new_with_key([seed]),
        }
    }

    /// The raw 32-bit output (`genrand_uint32`).
    #[inline]
    pub fn next_u32(&mut self) -> u32 {
        self.mt.next_u32()
    }
}

impl UnitRng for PyRandom {
    /// `genrand_res53`: 27 bits from one draw, 26 from the next.
    #[inline]
    fn random(&mut self) -> f64 {
        let a = (self.mt.next_u32() >> 5) as f64;
        let b = (self.mt.next_u32() >> 6) as f64;
        (a * 67_108_864.0 + b) * (1.0 / 9_007_199_254_740_992.0)
    }
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

    #[test]
    fn uniform_matches_python() {
        // python3 -c "import random; r=random.Random(123); print(repr(r.uniform(0, 200)), repr(r.uniform(100, 900)))"
        let mut rng = PyRandom::new(123);
        assert_eq!(rng.uniform(0.0, 200.0), 10.472719770188865);
        assert_eq!(rng.uniform(100.0, 900.0), 169.74934201810584);
    }
}
