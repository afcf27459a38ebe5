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

/// A decimal with at most `decimals` digits after the point, trailing zeros
/// dropped: `es_dec(0.5, 2)` → `"0.5"`, `es_dec(1250.0, 1)` → `"1,250"`.
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
    let s = format!("{:.*}", decimals, v.abs());
    let (int_part, frac) = match s.split_once('.') {
        Some((i, f)) => (i, f.trim_end_matches('0')),
        None => (s.as_str(), ""),
    };
    let int_val: i64 = int_part.parse().unwrap_or(0);
    let neg = v < 0.0 && (int_val != 0 || !frac.is_empty());
    let mut out = if neg { "-".to_string() } else { String::new() };
    out.push_str(&es_int(int_val));
    if !frac.is_empty() {
        out.push('.');
        out.push_str(frac);
    }
    out
}

/// A share as the lesson writes it: `0.16` → `"16 %"`.
pub fn es_percent(share: f64, decimals: usize) -> String {
    format!("{} %", es_dec(share * 100.0, decimals))
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
