//! Numbers as the lesson writes them: thousands with a comma, decimals with
//! a point (1,000 · 0.5 · 2,500 ms · 16 %).

/// `1000` → `"1,000"`, `-2500` → `"−2,500"` is not used: a plain hyphen.
pub fn es_int(v: i64) -> String {
    let digits = v.unsigned_abs().to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3 + 1);
    if v < 0 {
        out.push('-');
    }
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

/// A count and its noun, singular for exactly one: «1 pedazo», «3 pedazos»,
/// «1,000 requests».
pub fn es_count(n: i64, one: &str, many: &str) -> String {
    format!("{} {}", es_int(n), if n == 1 { one } else { many })
}

/// A figure with the decimals its size needs: two significant digits
/// below 10 (`0.038`, `2.5`), one decimal up to 1,000, none above, so that
/// a small figure is never shown as `0`.
pub fn es_num(v: f64) -> String {
    let a = v.abs();
    let d = if a == 0.0 || !a.is_finite() {
        0
    } else if a < 10.0 {
        // Two significant digits.
        (1 - a.log10().floor() as i32).max(0) as usize
    } else if a < 1_000.0 {
        1
    } else {
        0
    };
    es_dec(v, d)
}

/// A figure written after «≈»: whole when it is 10 or more, two
/// significant digits below (`≈ 36`, `≈ 0.2`), never `≈ 0` for a small one.
pub fn es_approx(v: f64) -> String {
    if v.abs() >= 10.0 {
        es_dec(v, 0)
    } else {
        es_num(v)
    }
}

/// A decimal with at most `decimals` digits after the point, trailing zeros
/// dropped: `es_dec(0.5, 2)` → `"0.5"`, `es_dec(1250.0, 1)` → `"1,250"`.
///
/// Rounded exactly as `format!("{:.*}", decimals, v)` rounds (the binary
/// value's exact decimal expansion, ties to even), for `decimals` up to 19
/// and magnitudes below 2^63 (larger ones are written as whole numbers,
/// saturated). Why not `format!`: the standard float printing is ≈ 9.5 KB of
/// the browser build before compression, and this was the lab's only use of it.
pub fn es_dec(v: f64, decimals: usize) -> String {
    if !v.is_finite() {
        return if v.is_nan() {
            "—".into()
        } else if v > 0.0 {
            "∞".into()
        } else {
            "−∞".into()
        };
    }
    let d = decimals.min(19) as u32;
    let (int_val, frac) = fixed(v.abs(), d);
    let mut digits = [b'0'; 19];
    let mut f = frac;
    for i in (0..d as usize).rev() {
        digits[i] = b'0' + (f % 10) as u8;
        f /= 10;
    }
    let mut n = d as usize;
    while n > 0 && digits[n - 1] == b'0' {
        n -= 1;
    }
    let neg = v < 0.0 && (int_val != 0 || n > 0);
    let mut out = if neg { "-".to_string() } else { String::new() };
    out.push_str(&es_int(int_val.min(i64::MAX as u64) as i64));
    if n > 0 {
        out.push('.');
        out.extend(digits[..n].iter().map(|b| *b as char));
    }
    out
}

/// `v` (finite, not negative) rounded to `d` ≤ 19 decimals, as its whole
/// part and its `d` decimal digits.
fn fixed(v: f64, d: u32) -> (u64, u64) {
    let bits = v.to_bits();
    let exp = ((bits >> 52) & 0x7ff) as i32;
    let mant = bits & ((1 << 52) - 1);
    // v = m × 2^e exactly.
    let (m, e) = if exp == 0 {
        (mant, -1074)
    } else {
        (mant | 1 << 52, exp - 1075)
    };
    if e >= 0 {
        // A whole number (≥ 2^52): nothing after the point.
        let whole = if e >= 11 { u64::MAX } else { m << e };
        return (whole, 0);
    }
    let scale = 10u128.pow(d);
    // m × 10^d < 2^53 × 2^64: fits; then divide by 2^k, rounding ties to even.
    let p = m as u128 * scale;
    let k = (-e) as u32;
    let n = if k >= 128 {
        0 // below 2^-11 of a unit of the last decimal: rounds to zero
    } else {
        let q = p >> k;
        let r = p & ((1u128 << k) - 1);
        let half = 1u128 << (k - 1);
        q + u128::from(r > half || (r == half && q & 1 == 1))
    };
    let whole = n / scale;
    ((whole.min(u64::MAX as u128)) as u64, (n % scale) as u64)
}

/// Reads a number as people and URLs write it: `[+-]digits[.digits][(e|E)[+-]digits]`
/// (`.5` and `5.` too), and nothing else (no `inf`, no `nan`, no spaces).
///
/// Why not `str::parse::<f64>`: its tables for the exact conversion of any
/// decimal were ≈ 8 KB of the gzipped browser build, and nothing here needs
/// them: the result is exact (correctly rounded) when the digits fit in 15
/// significant digits and the power of ten in ±22, which covers whatever a
/// learner types, and within about 10⁻¹⁴ of it otherwise.
///
/// ```
/// use sensei_lab::fmt::parse_decimal;
/// assert_eq!(parse_decimal("2.5"), Some(2.5));
/// assert_eq!(parse_decimal("-1e3"), Some(-1000.0));
/// assert_eq!(parse_decimal("0.1"), "0.1".parse().ok());
/// assert_eq!(parse_decimal("inf"), None);
/// ```
pub fn parse_decimal(s: &str) -> Option<f64> {
    let b = s.as_bytes();
    let mut i = 0;
    let neg = match b.first() {
        Some(b'-') => {
            i = 1;
            true
        }
        Some(b'+') => {
            i = 1;
            false
        }
        _ => false,
    };
    let (mut mant, mut exp10, mut digits) = (0u64, 0i64, 0usize);
    let mut fraction = false;
    while let Some(&c) = b.get(i) {
        match c {
            b'0'..=b'9' => {
                digits += 1;
                if mant < 100_000_000_000_000_000 {
                    mant = mant * 10 + u64::from(c - b'0');
                    exp10 -= i64::from(fraction);
                } else if !fraction {
                    exp10 += 1; // a digit beyond the precision kept
                }
            }
            b'.' if !fraction => fraction = true,
            _ => break,
        }
        i += 1;
    }
    if digits == 0 {
        return None;
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        let eneg = match b.get(i) {
            Some(b'-') => {
                i += 1;
                true
            }
            Some(b'+') => {
                i += 1;
                false
            }
            _ => false,
        };
        let (mut e, start) = (0i64, i);
        while let Some(c @ b'0'..=b'9') = b.get(i) {
            e = (e * 10 + i64::from(c - b'0')).min(100_000);
            i += 1;
        }
        if i == start {
            return None;
        }
        exp10 += if eneg { -e } else { e };
    }
    if i != b.len() {
        return None;
    }
    const POW10: [f64; 23] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
        1e20, 1e21, 1e22,
    ];
    // With a mantissa below 2^53 and |exp10| ≤ 22 both factors are exact as
    // f64, so there is one rounding, the correct one; beyond, one per 10^22.
    let mut v = mant as f64;
    if mant != 0 {
        let mut e = exp10.clamp(-400, 400);
        while e > 22 {
            v *= 1e22;
            e -= 22;
        }
        while e < -22 {
            v /= 1e22;
            e += 22;
        }
        v = if e >= 0 {
            v * POW10[e as usize]
        } else {
            v / POW10[(-e) as usize]
        };
    }
    Some(if neg { -v } else { v })
}

/// A share as the lesson writes it: `0.16` → `"16 %"`.
pub fn es_percent(share: f64, decimals: usize) -> String {
    format!("{} %", es_dec(share * 100.0, decimals))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimals_as_the_standard_library_reads_them() {
        for s in [
            "0",
            "7",
            "-0",
            "+3",
            "2.5",
            ".5",
            "5.",
            "0.1",
            "0.3",
            "1e3",
            "1E-3",
            "12.0",
            "123456.789",
            "3.14159265358979",
            "9007199254740993",
            "1e22",
            "1e23",
            "2e-22",
            "123456789012345678901234",
            "0.000001",
            "1e308",
            "1e-300",
        ] {
            let want: f64 = s.parse().unwrap();
            let got = parse_decimal(s).unwrap();
            assert!((got - want).abs() <= want.abs() * 1e-14, "{s}: {got} against {want}");
        }
        // Typed values (up to 15 digits, small powers of ten) come out exact.
        for (int, frac) in [
            (0u64, "5"),
            (2, "25"),
            (1250, "75"),
            (86_400_000, "0"),
            (999_999_999, "999999"),
        ] {
            let s = format!("{int}.{frac}");
            assert_eq!(parse_decimal(&s), s.parse().ok(), "{s}");
        }
        assert_eq!(parse_decimal("1e999"), Some(f64::INFINITY));
        for bad in [
            "", "-", ".", "e3", "1e", "1.2.3", "inf", "NaN", " 1", "1 ", "1,5", "0x10",
        ] {
            assert_eq!(parse_decimal(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn lesson_style() {
        assert_eq!(es_int(1000), "1,000");
        assert_eq!(es_int(150), "150");
        assert_eq!(es_int(2_500), "2,500");
        assert_eq!(es_int(1_000_000), "1,000,000");
        assert_eq!(es_int(-15000), "-15,000");
        assert_eq!(es_dec(0.5, 2), "0.5");
        assert_eq!(es_dec(1250.0, 1), "1,250");
        assert_eq!(es_dec(0.01, 2), "0.01");
        assert_eq!(es_percent(0.16, 0), "16 %");
        assert_eq!(es_dec(-0.001, 1), "0");
    }

    #[test]
    fn rounds_as_the_standard_float_printing() {
        use crate::sim::policy::rng::{PyRandom, UnitRng};
        let std = |v: f64, d: usize| {
            let s = format!("{:.*}", d, v.abs());
            let (i, f) = s.split_once('.').unwrap_or((s.as_str(), ""));
            let f = f.trim_end_matches('0');
            let neg = v < 0.0 && (!i.trim_start_matches('0').is_empty() || !f.is_empty());
            let mut out = if neg { "-".to_string() } else { String::new() };
            out.push_str(&es_int(i.parse().unwrap()));
            if !f.is_empty() {
                out.push('.');
                out.push_str(f);
            }
            out
        };
        let mut rng = PyRandom::new(7);
        let mut values = vec![
            0.0,
            -0.0,
            0.5,
            1.5,
            2.5,
            0.125,
            0.375,
            1e-300,
            5e-324,
            0.05,
            0.15,
            2.675,
            1e15,
            4503599627370495.5,
        ];
        for _ in 0..10_000 {
            let mag = 10f64.powf(rng.uniform(-12.0, 17.0));
            let v = if rng.random() < 0.5 { -mag } else { mag };
            values.push(v);
            // Halves and short decimals, where ties happen.
            values.push((v * 1000.0).round() / 1000.0);
            values.push((v * 8.0).round() / 8.0);
        }
        for v in values {
            if v.abs() >= 9.2e18 {
                continue;
            }
            for d in 0..=19 {
                assert_eq!(es_dec(v, d), std(v, d), "{v:e} with {d}");
            }
        }
    }
}
