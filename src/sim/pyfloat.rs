//! Float arithmetic exactly as CPython does it, where the lesson's programs
//! depend on it.

/// `x // w` for floats, as CPython's `float_floor_div` computes it (through
/// `fmod`, not `floor(x / w)`, which can differ by one at window edges).
pub fn floor_div(x: f64, w: f64) -> f64 {
    // Fast path: away from an integer, the rounded quotient floors the same
    // as the exact one (the rounding error of x / w is at most half an ulp).
    let q = x / w;
    if q.is_finite() && q.abs() < 1e15 && (q - q.round()).abs() > q.abs() * 1e-12 + 1e-12 {
        return q.floor();
    }
    floor_div_exact(x, w)
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
    fn the_fast_path_agrees_with_fmod() {
        let mut rng = crate::sim::rng::PyRandom::new(3);
        use crate::sim::rng::UnitRng;
        for i in 0..200_000 {
            let w = [1.0, 3.0, 7.0, 10.0, 0.1, 13.0][i % 6];
            let x = match i % 3 {
                0 => rng.uniform(0.0, 1e7),
                1 => (rng.random() * 1e5).round() * w, // exactly on an edge, or a hair off
                _ => (rng.random() * 1e5).round() * w * (1.0 + (rng.random() - 0.5) * 1e-15),
            };
            assert_eq!(floor_div(x, w), super::floor_div_exact(x, w), "{x} // {w}");
        }
    }
}
