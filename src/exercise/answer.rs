//! Reading answers as people type them, in the lesson's Spanish.
//!
//! Numbers: `2,500` · `2500` · `2 500` · `2.5` · `2,5` · `≈ 36` · `~36` ·
//! `4³`. Units are converted to the part's base unit: milliseconds (`ms`,
//! `s`, `min`, `h`), requests per second (`/s`, `por segundo`, `por
//! minuto`), shares (`64 %`, `64%`, `0.64`, and a bare `64` read as
//! percent), counts, and clock times after 12:00:00 (`12:00:05`, `5 s`).
//! Yes/no: `sí`, `si`, `no`, also at the start of a sentence. Choices: a
//! letter, `c`, `(c)` or `c)`.
//!
//! Nothing here panics: text that cannot be read comes back as a message
//! that says what was expected.
//!
//! ```
//! use sensei_lab::exercise::answer::{read, Unit, Read};
//! assert_eq!(read("2.5 s", Unit::Ms), Read::Number(2_500.0));
//! assert_eq!(read("2,500", Unit::Ms), Read::Number(2_500.0));
//! assert_eq!(read("64 %", Unit::Share), Read::Number(0.64));
//! assert_eq!(read("", Unit::Ms), Read::Empty);
//! ```

use serde::{Deserialize, Serialize};

/// What a part's answer is measured in (and converted to).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Unit {
    /// Milliseconds.
    Ms,
    /// Requests (or attempts) per second.
    Rate,
    /// A share in [0, 1].
    Share,
    /// A plain count.
    Count,
    /// Seconds after 12:00:00.
    Clock,
    /// Sí or no.
    YesNo,
    /// A letter among the options.
    Choice,
}

impl Unit {
    /// What the learner is told when the text cannot be read.
    pub fn expected(self) -> &'static str {
        match self {
            Unit::Ms => "un número de milisegundos, por ejemplo 150 (o con su unidad: 150 ms, 0.15 s)",
            Unit::Rate => "un número por segundo, por ejemplo 4,500",
            Unit::Share => "un porcentaje, por ejemplo 16 % (o 0.16)",
            Unit::Count => "un número, por ejemplo 64",
            Unit::Clock => "una hora, por ejemplo 12:00:05 (o 5 s después de las 12:00:00)",
            Unit::YesNo => "sí o no",
            Unit::Choice => "la letra de una opción, por ejemplo b",
        }
    }

    /// The unit written after a value in feedback and solutions.
    pub fn suffix(self) -> &'static str {
        match self {
            Unit::Ms => " ms",
            Unit::Rate => " por segundo",
            _ => "",
        }
    }
}

/// An answer, read.
#[derive(Clone, Debug, PartialEq)]
pub enum Read {
    Empty,
    /// In the part's base unit.
    Number(f64),
    YesNo(bool),
    Choice(char),
    /// What was expected instead.
    Unreadable(&'static str),
}

/// Longest answer read; the rest is ignored (nobody types more for a number).
const MAX_LEN: usize = 200;

pub fn read(text: &str, unit: Unit) -> Read {
    let t: String = text.chars().take(MAX_LEN).collect();
    let t = crate::text::lower(t.trim());
    if t.is_empty() {
        return Read::Empty;
    }
    match unit {
        Unit::YesNo => read_yes_no(&t).map_or(Read::Unreadable(unit.expected()), Read::YesNo),
        Unit::Choice => read_choice(&t).map_or(Read::Unreadable(unit.expected()), Read::Choice),
        Unit::Clock => read_clock(&t).map_or(Read::Unreadable(unit.expected()), Read::Number),
        _ => read_quantity(&t, unit).map_or(Read::Unreadable(unit.expected()), Read::Number),
    }
}

fn first_word(t: &str) -> &str {
    t.split(|c: char| !crate::text::is_alnum(c))
        .find(|w| !w.is_empty())
        .unwrap_or("")
}

fn read_yes_no(t: &str) -> Option<bool> {
    match first_word(t) {
        "sí" | "si" | "s" | "yes" | "y" | "claro" | "sip" => Some(true),
        "no" | "n" | "nope" => Some(false),
        _ => None,
    }
}

fn read_choice(t: &str) -> Option<char> {
    let w = t
        .trim_start_matches(['(', '[', ' '])
        .trim_end_matches([')', ']', '.', ' ']);
    let mut chars = w.chars();
    match (chars.next(), chars.next()) {
        (Some(c @ 'a'..='h'), None) => Some(c),
        _ => {
            // «la c», «opción c», «c) …»
            let letter = t
                .split(|c: char| !crate::text::is_alnum(c))
                .filter(|w| w.len() == 1)
                .find_map(|w| w.chars().next().filter(|c| ('a'..='h').contains(c)));
            let starts = t.trim_start_matches('(').chars().next();
            match starts {
                Some(c @ 'a'..='h') if t.trim_start_matches('(').chars().nth(1) == Some(')') => Some(c),
                _ if t.starts_with("la ") || t.starts_with("opción") || t.starts_with("opcion") => letter,
                _ => None,
            }
        }
    }
}

/// Seconds after 12:00:00 from `12:00:05`, `00:05`, or a duration (`5 s`, `5`).
fn read_clock(t: &str) -> Option<f64> {
    let t = strip_approx(t);
    if t.contains(':') {
        let parts: Vec<&str> = t.split(|c: char| c.is_whitespace()).next()?.split(':').collect();
        let nums: Option<Vec<f64>> = parts.iter().map(|p| crate::fmt::parse_decimal(p)).collect();
        let nums = nums?;
        let secs = match nums.as_slice() {
            [h, m, s] => h * 3600.0 + m * 60.0 + s - 12.0 * 3600.0,
            [m, s] => m * 60.0 + s,
            _ => return None,
        };
        return secs.is_finite().then_some(secs);
    }
    read_quantity(t, Unit::Ms).map(|ms| ms / 1000.0).map(|s| {
        // A bare number here means seconds, not milliseconds.
        if t.chars()
            .all(|c| c.is_ascii_digit() || c == '.' || c == ',' || c == ' ')
        {
            s * 1000.0
        } else {
            s
        }
    })
}

fn strip_approx(t: &str) -> &str {
    let mut t = t.trim();
    for p in [
        "≈",
        "~",
        "aprox.",
        "aprox",
        "aproximadamente",
        "unos",
        "unas",
        "cerca de",
        "como",
        "=",
    ] {
        if let Some(r) = t.strip_prefix(p) {
            t = r.trim_start();
        }
    }
    t
}

const SUPERSCRIPTS: [char; 10] = ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'];

/// Splits `"2,500 ms"` into the number and what follows it.
fn split_number(t: &str) -> Option<(f64, &str)> {
    let t = strip_approx(t);
    let end = t
        .char_indices()
        .find(|(i, c)| {
            !(c.is_ascii_digit()
                || *c == '.'
                || *c == ','
                || *c == '-'
                || *c == '+'
                || *c == '\u{a0}'
                || *c == '\u{202f}'
                || (*c == ' ' && t[i + 1..].starts_with(|d: char| d.is_ascii_digit())))
        })
        .map_or(t.len(), |(i, _)| i);
    let (num, rest) = t.split_at(end);
    let mut value = parse_plain(num)?;
    let mut rest = rest.trim_start();
    // 4³ = 64
    let sup: String = rest.chars().take_while(|c| SUPERSCRIPTS.contains(c)).collect();
    if !sup.is_empty() {
        let e: i32 = sup
            .chars()
            .map(|c| SUPERSCRIPTS.iter().position(|s| *s == c).unwrap_or(0) as i32)
            .fold(0, |a, d| a.saturating_mul(10).saturating_add(d));
        value = value.powi(e.min(308));
        rest = rest[sup.len()..].trim_start();
    }
    value.is_finite().then_some((value, rest))
}

/// `2,500` · `2500` · `2 500` · `2.5` · `2,5` (a decimal comma) · `1,000,000.5`.
fn parse_plain(s: &str) -> Option<f64> {
    let s: String = s
        .chars()
        .filter(|c| !matches!(c, ' ' | '\u{a0}' | '\u{202f}'))
        .collect();
    if s.is_empty() || s.len() > 40 {
        return None;
    }
    let (sign, body) = match s.strip_prefix('-') {
        Some(b) => (-1.0, b),
        None => (1.0, s.strip_prefix('+').unwrap_or(&s)),
    };
    let commas = body.matches(',').count();
    let dots = body.matches('.').count();
    let normal = if commas == 0 {
        body.to_string()
    } else {
        let (int, frac) = body.split_once('.').unwrap_or((body, ""));
        let groups: Vec<&str> = int.split(',').collect();
        let thousands = groups.len() > 1
            && !groups[0].is_empty()
            && groups[0].len() <= 3
            && groups[1..].iter().all(|g| g.len() == 3);
        if thousands && dots <= 1 {
            format!("{}{}{}", groups.concat(), if dots == 1 { "." } else { "" }, frac)
        } else if commas == 1 && dots == 0 {
            body.replace(',', ".") // 2,5: a decimal comma
        } else {
            return None;
        }
    };
    if !normal.chars().all(|c| c.is_ascii_digit() || c == '.') || normal.matches('.').count() > 1 || normal == "." {
        return None;
    }
    crate::fmt::parse_decimal(&normal).map(|v| sign * v)
}

fn read_quantity(t: &str, unit: Unit) -> Option<f64> {
    let (v, rest) = split_number(t)?;
    let rest = rest.trim().trim_end_matches('.');
    let word = rest.split_whitespace().next().unwrap_or("");
    match unit {
        Unit::Ms => {
            let factor = match word {
                "" | "ms" | "milisegundos" | "milisegundo" | "msec" => 1.0,
                "s" | "seg" | "segundos" | "segundo" | "sec" => 1_000.0,
                "min" | "minutos" | "minuto" => 60_000.0,
                "h" | "horas" | "hora" => 3_600_000.0,
                _ => return None,
            };
            Some(v * factor)
        }
        Unit::Rate => {
            let r = rest.replace(' ', "");
            let factor = if r.is_empty()
                || r.starts_with("/s")
                || r.contains("porsegundo")
                || r.contains("pors")
                || r == "rps"
                || r.starts_with("intentos")
                || r.starts_with("requests")
                || r.starts_with("llamadas")
            {
                if r.contains("minuto") {
                    1.0 / 60.0
                } else {
                    1.0
                }
            } else if r.starts_with("/min") || r.contains("porminuto") {
                1.0 / 60.0
            } else {
                return None;
            };
            Some(v * factor)
        }
        Unit::Share => {
            if word.starts_with('%') || rest.starts_with('%') || word == "por" && rest.contains("ciento") {
                Some(v / 100.0)
            } else if rest.is_empty() {
                // 0.64 is a share; 64 (more than 1) means 64 %.
                Some(if v > 1.0 { v / 100.0 } else { v })
            } else {
                None
            }
        }
        Unit::Count => {
            // «9 intentos», «44 en vuelo»: words may follow, but not a unit of time or a percent.
            let bad = ["ms", "s", "seg", "segundos", "min", "h", "%"];
            (!bad.contains(&word) && !rest.starts_with('%')).then_some(v)
        }
        Unit::Clock | Unit::YesNo | Unit::Choice => None,
    }
}

/// A value written as the lesson writes it, in the part's unit.
pub fn format(v: f64, unit: Unit) -> String {
    use crate::fmt::{es_dec, es_percent};
    match unit {
        Unit::Ms => format!("{} ms", es_dec(v, 1)),
        Unit::Rate => format!("{} por segundo", es_dec(v, 1)),
        Unit::Share => es_percent(v, 2),
        Unit::Count => es_dec(v, 2),
        Unit::Clock => {
            let s = (12.0 * 3600.0 + v).round().max(0.0) as i64;
            format!("{:02}:{:02}:{:02}", s / 3600, (s / 60) % 60, s % 60)
        }
        Unit::YesNo => (if v != 0.0 { "sí" } else { "no" }).into(),
        Unit::Choice => char::from_u32(v as u32).map(String::from).unwrap_or_default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_as_people_type_them() {
        for t in [
            "2,500",
            "2500",
            "2 500",
            "2.5 s",
            "2,500 ms",
            "≈ 2,500 ms",
            "2.5 segundos",
            "2,5 s",
        ] {
            assert_eq!(read(t, Unit::Ms), Read::Number(2_500.0), "{t}");
        }
        for t in ["250 ms", "0.25 s", "250"] {
            assert_eq!(read(t, Unit::Ms), Read::Number(250.0), "{t}");
        }
        for t in ["64 %", "64%", "0.64", "64"] {
            assert_eq!(read(t, Unit::Share), Read::Number(0.64), "{t}");
        }
        assert_eq!(read("≈ 36", Unit::Rate), Read::Number(36.0));
        assert_eq!(read("4,500 por segundo", Unit::Rate), Read::Number(4_500.0));
        assert_eq!(read("4,500/s", Unit::Rate), Read::Number(4_500.0));
        assert_eq!(read("4³", Unit::Count), Read::Number(64.0));
        assert_eq!(read("9 intentos", Unit::Count), Read::Number(9.0));
        assert_eq!(read("24 h", Unit::Ms), Read::Number(86_400_000.0));
    }

    #[test]
    fn words() {
        assert_eq!(read("Sí", Unit::YesNo), Read::YesNo(true));
        assert_eq!(read("si, después de 2 s", Unit::YesNo), Read::YesNo(true));
        assert_eq!(read("No.", Unit::YesNo), Read::YesNo(false));
        for t in ["c", "C", "(c)", "c)", "la c", "opción c"] {
            assert_eq!(read(t, Unit::Choice), Read::Choice('c'), "{t}");
        }
    }

    #[test]
    fn clocks() {
        assert_eq!(read("12:00:05", Unit::Clock), Read::Number(5.0));
        assert_eq!(read("≈ 12:00:05", Unit::Clock), Read::Number(5.0));
        assert_eq!(read("5 s", Unit::Clock), Read::Number(5.0));
        assert_eq!(read("5", Unit::Clock), Read::Number(5.0));
    }

    #[test]
    fn what_cannot_be_read_says_what_was_expected() {
        assert!(matches!(read("mucho", Unit::Ms), Read::Unreadable(m) if m.contains("milisegundos")));
        assert!(matches!(read("9 s", Unit::Count), Read::Unreadable(_)));
        assert!(matches!(read("1,2,3", Unit::Ms), Read::Unreadable(_)));
        assert!(matches!(read("quizá", Unit::YesNo), Read::Unreadable(_)));
        assert_eq!(read("   ", Unit::Ms), Read::Empty);
    }
}
