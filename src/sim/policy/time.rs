//! Simulated time as a typed value where two units meet. Most scenarios
//! keep one unit throughout (milliseconds, the lesson's), as bare `f64`;
//! the circuit breaker counts in seconds (its window and open time are the
//! lesson's seconds, and link keys: `window-s`, `open-s`), and the storm,
//! which counts in ms, feeds it. The breaker's clock therefore takes
//! [`Secs`], and a caller in ms says so with [`Ms`]: passing ms where
//! seconds are meant does not compile.

use serde::{Deserialize, Serialize};
use std::ops::{Add, Sub};

/// Simulated seconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, PartialOrd, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Secs(pub f64);

/// Simulated milliseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, PartialOrd, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Ms(pub f64);

impl From<Ms> for Secs {
    fn from(ms: Ms) -> Secs {
        Secs(ms.0 / 1000.0)
    }
}

impl From<Secs> for Ms {
    fn from(s: Secs) -> Ms {
        Ms(s.0 * 1000.0)
    }
}

impl Add for Secs {
    type Output = Secs;
    fn add(self, other: Secs) -> Secs {
        Secs(self.0 + other.0)
    }
}

impl Sub for Secs {
    type Output = Secs;
    fn sub(self, other: Secs) -> Secs {
        Secs(self.0 - other.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units_convert_and_add_as_their_floats() {
        assert_eq!(Secs::from(Ms(1_500.0)), Secs(1.5));
        assert_eq!(Ms::from(Secs(0.25)), Ms(250.0));
        // The same division the storm made by hand: bit for bit.
        for ms in [0.0, 1.0, 7.3, 123_456.789, 299_999.999] {
            assert_eq!(Secs::from(Ms(ms)).0.to_bits(), (ms / 1000.0).to_bits());
        }
        assert_eq!(Secs(10.0) + Secs(30.0), Secs(40.0));
        assert_eq!(Secs(3.0) - Secs(10.0), Secs(-7.0));
        assert!(Secs(1.0) < Secs(2.0));
    }
}
