//! Float arithmetic exactly as CPython does it, where the lesson's programs
//! depend on it.

/// `x // w` for floats, as CPython's `float_floor_div` computes it (through
/// `fmod`, not `floor(x / w)`, which can differ by one at window edges).
#[inline]
pub fn floor_div(x: f64, w: f64) -> f64 {
    // Fast path: away from an integer, the rounded quotient floors the same
    // as the exact one (the rounding error of x / w is at most half an ulp).
    let q = x / w;
    if let Some(i) = floor_if_clear(q) {
        return i;
    }
    // Negative quotients, likewise (floor through libm).
    if (-1e15..0.0).contains(&q) && (q - q.round()).abs() > -q * 1e-12 + 1e-12 {
        return q.floor();
    }
    // Whole numbers below 2^52 (a time in whole ms, a window of whole ms):
    // x = k·w + r; if r = 0 the quotient is exact, and otherwise it lies at least
    // 1/w from an integer while its rounding error is below x·2⁻⁵³/w < 1/(2w),
    // so truncating the rounded quotient is the exact floor.
    const LIMIT: f64 = 4_503_599_627_370_496.0; // 2^52
    if (0.0..LIMIT).contains(&x) && (1.0..LIMIT).contains(&w) && x as i64 as f64 == x && w as i64 as f64 == w {
        return q as i64 as f64;
    }
    floor_div_exact(x, w)
}

/// The floor of a non-negative quotient `q` (exact or within a few ulps of
/// exact) when `q` is clearly away from an integer, so that its rounding
/// cannot change the floor; `None` near an integer, or out of range.
/// Truncation through i64 is the floor here and needs no libm call.
#[inline(always)]
fn floor_if_clear(q: f64) -> Option<f64> {
    if !(0.0..1e15).contains(&q) {
        return None;
    }
    let i = q as i64 as f64;
    let frac = q - i; // exact
    let tol = q * 1e-12 + 1e-12;
    (frac > tol && 1.0 - frac > tol).then_some(i)
}

/// CPython's `float_floor_div`, step by step (the path `floor_div` takes near an integer).
pub fn floor_div_exact(x: f64, w: f64) -> f64 {
    let m = x % w; // C fmod
    let mut div = (x - m) / w;
    if m != 0.0 && ((w < 0.0) != (m < 0.0)) {
        div -= 1.0;
    }
    if div != 0.0 {
        let mut fl = div.floor();
        if div - fl > 0.5 {
            fl += 1.0;
        }
        fl
    } else {
        0.0_f64.copysign(x / w)
    }
}

#[cfg(test)]
mod tests {
    use super::floor_div;

    #[test]
    fn matches_python_floor_div() {
        // python3 -c "print(0.3//0.1, 29.999999999999996//10, 30.0//10, 1e-300//10, 7//10)"
        assert_eq!(floor_div(0.3, 0.1), 2.0);
        assert_eq!(floor_div(29.999999999999996, 10.0), 2.0);
        assert_eq!(floor_div(30.0, 10.0), 3.0);
        assert_eq!(floor_div(1e-300, 10.0), 0.0);
        assert_eq!(floor_div(7.0, 10.0), 0.0);
    }

    #[test]
    fn whole_numbers_agree_with_fmod() {
        for x in (0..5_000u64).chain([1 << 40, (1 << 53) - 1, 123_456_789_012]) {
            for w in [1u64, 2, 3, 7, 10, 1_000, 1 << 20] {
                let (x, w) = (x as f64, w as f64);
                assert_eq!(floor_div(x, w), super::floor_div_exact(x, w), "{x} // {w}");
            }
        }
    }

    #[test]
    fn the_fast_path_agrees_with_fmod() {
        let mut rng = crate::sim::policy::rng::PyRandom::new(3);
        use crate::sim::policy::rng::UnitRng;
        for i in 0..200_000 {
            let w = [1.0, 3.0, 7.0, 10.0, 0.1, 13.0][i % 6];
            let x = match i % 4 {
                0 => rng.uniform(0.0, 1e7),
                3 => -rng.uniform(0.0, 1e7),
                1 => (rng.random() * 1e5).round() * w, // exactly on an edge, or a hair off
                _ => (rng.random() * 1e5).round() * w * (1.0 + (rng.random() - 0.5) * 1e-15),
            };
            assert_eq!(floor_div(x, w), super::floor_div_exact(x, w), "{x} // {w}");
        }
    }
}
