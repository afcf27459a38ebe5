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
    pub fn next_u32(&mut self) -> u32 {
        self.mt.next_u32()
    }
}

impl UnitRng for PyRandom {
    /// `genrand_res53`: 27 bits from one draw, 26 from the next.
    fn random(&mut self) -> f64 {
        let a = (self.mt.next_u32() >> 5) as f64;
        let b = (self.mt.next_u32() >> 6) as f64;
        (a * 67_108_864.0 + b) * (1.0 / 9_007_199_254_740_992.0)
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
    fn uniform_matches_python() {
        // python3 -c "import random; r=random.Random(123); print(repr(r.uniform(0, 200)), repr(r.uniform(100, 900)))"
        let mut rng = PyRandom::new(123);
        assert_eq!(rng.uniform(0.0, 200.0), 10.472719770188865);
        assert_eq!(rng.uniform(100.0, 900.0), 169.74934201810584);
    }
}
