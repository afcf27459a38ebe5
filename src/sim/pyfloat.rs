//! Float arithmetic exactly as CPython does it, where the lesson's programs
//! depend on it.

/// `x // w` for floats, as CPython's `float_floor_div` computes it (through
/// `fmod`, not `floor(x / w)`, which can differ by one at window edges).
pub fn floor_div(x: f64, w: f64) -> f64 {
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
}
