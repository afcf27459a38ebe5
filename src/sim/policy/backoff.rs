//! Exponential backoff and jitter.
//!
//! Why: a client that retries at once hits a server that is still in the
//! same trouble. Doubling the wait before each retry spaces the attempts out
//! when the trouble is long and costs little when it is short. But clients
//! that failed together and use the same backoff come back together: the
//! wave only moves. Jitter (randomness in the wait) spreads them out.
//!
//! The wait before retry `n` (n = 1, 2, 3, …) has a ceiling
//! `v = min(cap, base × 2ⁿ)`, and the jitter decides where in it to fall,
//! following Marc Brooker, "Exponential Backoff And Jitter" (2015):
//!
//! | jitter         | wait before retry n                         |
//! |----------------|---------------------------------------------|
//! | none           | `v`                                         |
//! | full           | `U(0, v)`                                   |
//! | equal          | `v/2 + U(0, v/2)`                           |
//! | decorrelated   | `min(cap, U(base, 3 × previous wait))`      |
//!
//! For decorrelated jitter the "previous wait" starts at `base`.
//! The wait before retry *n*:
//!
//! ```
//! use sensei_lab::sim::policy::backoff::{Backoff, Jitter};
//! use sensei_lab::sim::policy::rng::PyRandom;
//! let b = Backoff { base_ms: 100.0, cap_ms: Some(1_000.0), jitter: Jitter::None };
//! let mut rng = PyRandom::new(7);
//! let waits: Vec<f64> = (1..=4).map(|n| b.wait(n, b.base_ms, &mut rng)).collect();
//! assert_eq!(waits, [200.0, 400.0, 800.0, 1_000.0]);
//! ```

use crate::sim::policy::rng::UnitRng;
use serde::{Deserialize, Serialize};

/// Where in its ceiling a wait falls.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Jitter {
    /// Exactly the ceiling: every client waits the same.
    #[default]
    None,
    /// Uniform between 0 and the ceiling (the lesson's "full jitter").
    Full,
    /// Half the ceiling plus a uniform share of the other half.
    Equal,
    /// Uniform between the base and three times the previous wait, capped.
    Decorrelated,
}

impl Jitter {
    pub const ALL: [Jitter; 4] = [Jitter::None, Jitter::Full, Jitter::Equal, Jitter::Decorrelated];

    /// The name used in the URL, on the command line and in JSON.
    pub const fn key(self) -> &'static str {
        match self {
            Jitter::None => "none",
            Jitter::Full => "full",
            Jitter::Equal => "equal",
            Jitter::Decorrelated => "decorrelated",
        }
    }

    /// How the learner reads it (Spanish).
    pub const fn label(self) -> &'static str {
        match self {
            Jitter::None => "sin jitter",
            Jitter::Full => "full jitter",
            Jitter::Equal => "equal jitter",
            Jitter::Decorrelated => "decorrelated jitter",
        }
    }
}

impl crate::sim::params::ChoiceKey for Jitter {
    const KEYS: &'static [(Self, &'static str)] = &[
        (Jitter::None, Jitter::None.key()),
        (Jitter::Full, Jitter::Full.key()),
        (Jitter::Equal, Jitter::Equal.key()),
        (Jitter::Decorrelated, Jitter::Decorrelated.key()),
    ];
}

/// The jitter choice of a parameter spec: `(key, Spanish label)` for each jitter.
pub const JITTER_OPTIONS: &[(&str, &str)] = &[
    (Jitter::None.key(), Jitter::None.label()),
    (Jitter::Full.key(), Jitter::Full.label()),
    (Jitter::Equal.key(), Jitter::Equal.label()),
    (Jitter::Decorrelated.key(), Jitter::Decorrelated.label()),
];

/// A backoff policy. Times are simulated milliseconds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Backoff {
    pub base_ms: f64,
    pub cap_ms: Option<f64>,
    pub jitter: Jitter,
}

impl Backoff {
    #[inline]
    fn cap(&self) -> f64 {
        self.cap_ms.unwrap_or(f64::INFINITY)
    }

    /// `min(cap, base × 2ⁿ)`: the wait without jitter before retry `n`.
    #[inline]
    pub fn ceiling(&self, n: u32) -> f64 {
        // 2ⁿ exactly, from its bits (what `2f64.powi(n)` gives, without the call).
        let two_n = f64::from_bits((1023 + n.min(1023) as u64) << 52);
        let v = self.base_ms * two_n;
        v.min(self.cap())
    }

    /// The wait before retry `n` (1-based). `prev` is the previous wait
    /// (only decorrelated jitter reads it; pass `base_ms` before the first).
    /// Each jittered wait takes exactly one draw from `rng`, as the lesson's
    /// Python program does with `rng.uniform`.
    #[inline(always)]
    pub fn wait<R: UnitRng + ?Sized>(&self, n: u32, prev: f64, rng: &mut R) -> f64 {
        self.wait_within(self.ceiling(n), prev, rng)
    }

    /// [`Backoff::wait`] given `ceiling`, the wait's [`Backoff::ceiling`] for
    /// its retry: for a caller that draws many waits and looks the ceilings up
    /// (the herd computes them once a run). Same value, same draw.
    #[inline(always)]
    pub fn wait_within<R: UnitRng + ?Sized>(&self, ceiling: f64, prev: f64, rng: &mut R) -> f64 {
        match self.jitter {
            Jitter::None => ceiling,
            Jitter::Full => rng.uniform(0.0, ceiling),
            Jitter::Equal => {
                let half = ceiling / 2.0;
                half + rng.uniform(0.0, half)
            }
            Jitter::Decorrelated => rng.uniform(self.base_ms, prev * 3.0).min(self.cap()),
        }
    }

    /// The smallest and largest value [`Backoff::wait`] can return.
    pub fn bounds(&self, n: u32, prev: f64) -> (f64, f64) {
        match self.jitter {
            Jitter::None => (self.ceiling(n), self.ceiling(n)),
            Jitter::Full => (0.0, self.ceiling(n)),
            Jitter::Equal => (self.ceiling(n) / 2.0, self.ceiling(n)),
            Jitter::Decorrelated => (self.base_ms.min(self.cap()), (prev * 3.0).min(self.cap())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::policy::rng::PyRandom;

    #[test]
    fn ceiling_doubles_exactly() {
        let b = Backoff {
            base_ms: 1.0,
            cap_ms: None,
            jitter: Jitter::None,
        };
        for n in 0..1_100u32 {
            assert_eq!(b.ceiling(n), 2f64.powi(n.min(1023) as i32), "2^{n}");
        }
    }

    #[test]
    fn doubling_without_jitter() {
        let b = Backoff {
            base_ms: 100.0,
            cap_ms: None,
            jitter: Jitter::None,
        };
        // The lesson: 200 ms before the first retry, 400 before the second, 800 before the third.
        let mut rng = PyRandom::new(1);
        let waits: Vec<f64> = (1..=3).map(|n| b.wait(n, b.base_ms, &mut rng)).collect();
        assert_eq!(waits, [200.0, 400.0, 800.0]);
    }

    #[test]
    fn waits_stay_within_bounds() {
        for jitter in Jitter::ALL {
            for cap in [None, Some(300.0)] {
                let b = Backoff {
                    base_ms: 50.0,
                    cap_ms: cap,
                    jitter,
                };
                let mut rng = PyRandom::new(99);
                let mut prev = b.base_ms;
                for n in 1..=12 {
                    let (lo, hi) = b.bounds(n, prev);
                    let w = b.wait(n, prev, &mut rng);
                    assert!(lo <= w && w <= hi, "{jitter:?} n={n}: {lo} <= {w} <= {hi}");
                    prev = w;
                }
            }
        }
    }
}
