//! Letters as the lessons write them: ASCII and Latin-1 (á, É, ñ, ü, ç…).
//!
//! Why not `char::to_lowercase` and `char::is_alphanumeric`: they carry the
//! whole of Unicode's case and letter tables into the browser build, to
//! lower-case Spanish (this module and `fmt::parse_decimal`, in one step,
//! took 22,248 bytes off the gzipped build: docs/PERFORMANCE.md, «First load»). These cover every letter of Spanish,
//! Portuguese, French, German and English, keep each character's length in
//! bytes (so a byte offset in the lower-cased text is one in the original),
//! and leave every other character as it is.
//!
//! ```
//! use sensei_lab::text::{lower, upper_first};
//! assert_eq!(lower("¿Qué PASÓ con ÑANDÚ?"), "¿qué pasó con ñandú?");
//! assert_eq!(upper_first("éxito"), "Éxito");
//! ```

/// `c` in lower case, if it is an ASCII or Latin-1 capital; otherwise `c`.
pub fn lower_char(c: char) -> char {
    match c {
        'A'..='Z' | 'À'..='Ö' | 'Ø'..='Þ' => char::from_u32(c as u32 + 32).unwrap_or(c),
        c => c,
    }
}

/// `c` in upper case, if it is an ASCII or Latin-1 small letter with a capital; otherwise `c`.
pub fn upper_char(c: char) -> char {
    match c {
        'a'..='z' | 'à'..='ö' | 'ø'..='þ' => char::from_u32(c as u32 - 32).unwrap_or(c),
        c => c,
    }
}

pub fn lower(s: &str) -> String {
    s.chars().map(lower_char).collect()
}

/// The text with its first character in upper case.
pub fn upper_first(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| upper_char(f).to_string() + c.as_str())
        .unwrap_or_default()
}

/// A letter or a digit: ASCII, or a Latin-1 letter (not × or ÷, nor ª º).
pub fn is_alnum(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, 'À'..='Ö' | 'Ø'..='ö' | 'ø'..='ÿ')
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Within what it covers, the same answers as the standard library's full tables.
    #[test]
    fn agrees_with_unicode_on_latin_1() {
        for c in (0u32..0x100).filter_map(char::from_u32) {
            let std_lower: String = c.to_lowercase().collect();
            assert_eq!(lower_char(c).to_string(), std_lower, "{c:?}");
            let std_upper: String = c.to_uppercase().collect();
            if std_upper.chars().count() == 1 && (std_upper.chars().next().unwrap() as u32) < 0x100 {
                assert_eq!(upper_char(c).to_string(), std_upper, "{c:?}");
            } else {
                assert_eq!(upper_char(c), c, "{c:?} (ß, ÿ, µ have no Latin-1 capital)");
            }
            let letter = c.is_alphanumeric() && !matches!(c, 'ª' | 'º' | 'µ' | '²' | '³' | '¹' | '¼' | '½' | '¾');
            assert_eq!(is_alnum(c), letter, "{c:?}");
            assert_eq!(lower_char(c).len_utf8(), c.len_utf8());
        }
        // Outside Latin-1, characters are left as they are.
        assert_eq!(lower("ΣΩ İ"), "ΣΩ İ");
    }
}
