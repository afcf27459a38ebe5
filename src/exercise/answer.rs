//! Reading answers as people type them, in the lesson's Spanish.
//!
//! Numbers: `2,500` · `2500` · `2 500` · `2.5` · `2,5` · `≈ 36` · `~36`.
//! Powers: `4³`, `4^3`, `4 ^ 3`, `4**3`. Multipliers: `15k`, `15 K`,
//! `2.5k`, `15 mil`, `2 millones`, `2M` (a capital M alone). Units are
//! converted to the part's base unit: milliseconds (`ms`, `s`, `min`, `h`),
//! requests per second (`/s`, `por segundo`, `por minuto`), shares (`64 %`,
//! `64%`, and a bare number, which in a «%» field *is* a percentage: `0.09`
//! is 0.09 %), counts (words like «intentos» may follow), and clock times
//! after 12:00:00 (`12:00:05`, `5 s`). Yes/no: `sí`, `si`, `no`, also at
//! the start of a sentence. Choices: a letter, `c`, `(c)` or `c)`.
//!
//! A dot followed by exactly three digits (`2.500`) is a decimal point, as in
//! the lesson; [`other_reading`] offers 2,500 to the hint when that would be
//! right. Nothing is dropped silently: what is not understood comes back as
//! [`Read::Unreadable`], with the words that were not understood and what was
//! expected; [`shown`] writes back what was read («Leí: 2.5 ms»).
//!
//! Nothing here panics.
//!
//! ```
//! use sensei_lab::exercise::answer::{read, Unit, Read};
//! assert_eq!(read("2.5 s", Unit::Ms), Read::Number(2_500.0));
//! assert_eq!(read("2,500", Unit::Ms), Read::Number(2_500.0));
//! assert_eq!(read("2.5k ms", Unit::Ms), Read::Number(2_500.0));
//! assert_eq!(read("2^4", Unit::Count), Read::Number(16.0));
//! assert_eq!(read("64 %", Unit::Share), Read::Number(0.64));
//! assert_eq!(read("16", Unit::Share), Read::Number(0.16));
//! assert_eq!(read("", Unit::Ms), Read::Empty);
//! assert!(matches!(read("2500x", Unit::Count), Read::Unreadable { .. }));
//! ```

use crate::fmt::es_dec;
use serde::{Deserialize, Serialize};

/// What a part's answer is measured in (and converted to).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Unit {
    /// Milliseconds.
    Ms,
    /// Requests (or attempts) per second.
    Rate,
    /// A share in [0, 1], typed as a percentage.
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
            Unit::Rate => "un número por segundo, por ejemplo 4,500 (o 4.5 mil, 4.5k)",
            Unit::Share => "un porcentaje, por ejemplo 16 (se lee 16 %)",
            Unit::Count => "un número, por ejemplo 64 (o 4³, 4^3)",
            Unit::Clock => "una hora, por ejemplo 12:00:05 (o 5 s después de las 12:00:00)",
            Unit::YesNo => "sí o no",
            Unit::Choice => "la letra de una opción, por ejemplo b",
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
    /// The text could not be read: the part not understood (as typed; the
    /// whole text if nothing was), and what was expected instead.
    Unreadable {
        not_understood: String,
        expected: &'static str,
    },
}

impl Read {
    /// What the learner is told about an unreadable answer:
    /// «No entendí «x»; se esperaba un número, por ejemplo 64 (o 4³, 4^3).»
    pub fn message(&self) -> Option<String> {
        match self {
            Read::Unreadable {
                not_understood,
                expected,
            } => Some(format!("No entendí «{not_understood}»; se esperaba {expected}.")),
            _ => None,
        }
    }
}

/// Longest answer read; the rest is ignored (nobody types more for a number).
const MAX_LEN: usize = 200;
/// Longest piece of the text quoted back as not understood.
const QUOTE_LEN: usize = 40;

pub fn read(text: &str, unit: Unit) -> Read {
    read_as(text, unit, "")
}

/// [`read`], for a question that names what it counts (`question`: its
/// words, «los clientes que se rinden»): a count or a rate may then be
/// followed by a word of it, «700 clientes», as well as by the words every
/// count may carry («intentos», «veces»).
pub fn read_as(text: &str, unit: Unit, question: &str) -> Read {
    let orig: String = text.chars().take(MAX_LEN).collect();
    let orig = orig.trim();
    if orig.is_empty() {
        return Read::Empty;
    }
    // `lower` keeps every character's length in bytes: an offset in `t` is one in `orig`.
    let lower = crate::text::lower(orig);
    let t = lower.as_str();
    let result = match unit {
        Unit::YesNo => read_yes_no(t).map(Read::YesNo).ok_or(t),
        Unit::Choice => read_choice(t).map(Read::Choice).ok_or(t),
        Unit::Clock => read_clock(t, orig).map(Read::Number),
        _ => read_quantity(t, orig, unit, question).map(Read::Number),
    };
    result.unwrap_or_else(|bad| {
        let at = offset(t, bad);
        let quoted: String = orig.get(at..).unwrap_or(orig).trim().chars().take(QUOTE_LEN).collect();
        Read::Unreadable {
            not_understood: if quoted.is_empty() {
                orig.chars().take(QUOTE_LEN).collect()
            } else {
                quoted
            },
            expected: unit.expected(),
        }
    })
}

/// Byte offset of `part` (a piece of `whole`) in `whole`.
fn offset(whole: &str, part: &str) -> usize {
    (part.as_ptr() as usize)
        .saturating_sub(whole.as_ptr() as usize)
        .min(whole.len())
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
/// On failure, the piece of `t` not understood.
fn read_clock<'a>(t: &'a str, orig: &str) -> Result<f64, &'a str> {
    let s = strip_approx(t);
    if s.contains(':') {
        let (time, after) = s.split_once(char::is_whitespace).unwrap_or((s, ""));
        let after = after.trim().trim_end_matches('.');
        if !matches!(after, "" | "h" | "hs" | "hrs" | "horas") {
            return Err(after);
        }
        let nums: Option<Vec<f64>> = time
            .split(':')
            .map(|p| {
                crate::fmt::parse_decimal(p).filter(|v| v.is_finite() && *v >= 0.0 && !p.contains(['e', '+', '-']))
            })
            .collect();
        let secs = match nums.as_deref() {
            Some([h, m, s]) => h * 3600.0 + m * 60.0 + s - 12.0 * 3600.0,
            Some([m, s]) => m * 60.0 + s,
            _ => return Err(s),
        };
        return if secs.is_finite() { Ok(secs) } else { Err(s) };
    }
    // `t` itself (not `s`): offsets in it are offsets in `orig`.
    let (ms, unit_given) = read_ms(t, orig)?;
    // A bare number here means seconds, not milliseconds.
    Ok(if unit_given { ms / 1000.0 } else { ms })
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

/// A number as typed, with its power and multipliers applied.
struct Number<'a> {
    value: f64,
    /// What follows it (a unit, words), trimmed at the start.
    rest: &'a str,
    /// Only the digits as typed, read as written (before power and multipliers).
    typed: f64,
    /// Written `2.500`: a dot followed by exactly three digits, as a
    /// thousands dot would be (read as a decimal point all the same).
    dot_thousands: bool,
    /// Digits typed after the decimal point (`2.50`: 2).
    decimals: u32,
    /// Written as a power (`4³`): no last digit to round at.
    power: bool,
}

/// The leading run of letters of `s` (`"k ms"` → `"k"`, `"mil/s"` → `"mil"`).
fn letters(s: &str) -> &str {
    let end = s
        .char_indices()
        .find(|(_, c)| !crate::text::is_alnum(*c) || c.is_ascii_digit())
        .map_or(s.len(), |(i, _)| i);
    &s[..end]
}

/// Reads `2,500`, `2.5k`, `15 mil`, `4³`, `2^4`, `2 ** 4` at the start of
/// `t` (lower case; `orig` is the same text as typed, for a capital `M`).
/// On failure, the piece of `t` not understood.
fn number<'a>(t: &'a str, orig: &str) -> Result<Number<'a>, &'a str> {
    let s = strip_approx(t);
    let end = s
        .char_indices()
        .find(|(i, c)| {
            !(c.is_ascii_digit()
                || *c == '.'
                || *c == ','
                || (*i == 0 && (*c == '-' || *c == '+'))
                || *c == '\u{a0}'
                || *c == '\u{202f}'
                || (*c == ' ' && s[i + 1..].starts_with(|d: char| d.is_ascii_digit())))
        })
        .map_or(s.len(), |(i, _)| i);
    let (num, rest) = s.split_at(end);
    let (typed, decimals) = parse_plain(num).ok_or(s)?;
    let mut value = typed;
    let mut rest = rest.trim_start();
    // 4³ = 4^3 = 4 ^ 3 = 4**3 = 64
    let sup: String = rest.chars().take_while(|c| SUPERSCRIPTS.contains(c)).collect();
    let exponent = if !sup.is_empty() {
        rest = rest[sup.len()..].trim_start();
        Some(
            sup.chars()
                .map(|c| SUPERSCRIPTS.iter().position(|s| *s == c).unwrap_or(0) as i32)
                .fold(0i32, |a, d| a.saturating_mul(10).saturating_add(d)),
        )
    } else if let Some(after) = rest.strip_prefix("**").or_else(|| rest.strip_prefix('^')) {
        let after = after.trim_start();
        let (neg, digits) = match after.strip_prefix('-') {
            Some(d) => (true, d),
            None => (false, after.strip_prefix('+').unwrap_or(after)),
        };
        let n = digits.bytes().take_while(u8::is_ascii_digit).count();
        if n == 0 {
            return Err(rest);
        }
        let e = digits[..n]
            .bytes()
            .fold(0i32, |a, d| a.saturating_mul(10).saturating_add(i32::from(d - b'0')));
        rest = digits[n..].trim_start();
        Some(if neg { -e } else { e })
    } else {
        None
    };
    if let Some(e) = exponent {
        value = value.powi(e.clamp(-400, 400));
    }
    // 15k, 15 K, 15 mil, 2 millones, 2M; «mil millones» too.
    for _ in 0..2 {
        let w = letters(rest);
        let capital_m = orig.as_bytes().get(offset(t, rest)) == Some(&b'M');
        let factor = match w {
            "k" | "mil" => 1e3,
            "millón" | "millon" | "millones" => 1e6,
            "m" if capital_m => 1e6,
            _ => break,
        };
        value *= factor;
        rest = rest[w.len()..].trim_start();
    }
    if !value.is_finite() {
        return Err(s);
    }
    let digits: String = num
        .chars()
        .filter(|c| c.is_ascii_digit() || *c == '.' || *c == ',')
        .collect();
    let dot_thousands = match digits.split_once('.') {
        Some((int, frac)) => {
            (1..=3).contains(&int.len())
                && !int.starts_with('0')
                && !int.contains(',')
                && frac.len() == 3
                && !frac.contains(['.', ','])
        }
        None => false,
    };
    Ok(Number {
        value,
        rest,
        typed,
        dot_thousands,
        decimals,
        power: exponent.is_some(),
    })
}

/// `2,500` · `2500` · `2 500` · `2.5` · `2,5` (a decimal comma) · `1,000,000.5`,
/// and how many digits follow the decimal point.
fn parse_plain(s: &str) -> Option<(f64, u32)> {
    // A space may only separate thousands (`2 500`): «4 3» or «1 50» are
    // two numbers, not 43 or 150.
    let spaced: Vec<&str> = s
        .trim()
        .split([' ', '\u{a0}', '\u{202f}'])
        .filter(|g| !g.is_empty())
        .collect();
    if spaced.len() > 1 {
        let first = spaced[0].trim_start_matches(['-', '+']);
        let int_digits = |g: &str| g.split(['.', ',']).next().map_or(0, str::len);
        let ok = !first.is_empty()
            && int_digits(first) <= 3
            && !first.contains(['.', ','])
            && spaced[1..spaced.len() - 1]
                .iter()
                .all(|g| g.len() == 3 && g.chars().all(|c| c.is_ascii_digit()))
            && spaced.last().is_some_and(|g| int_digits(g) == 3);
        if !ok {
            return None;
        }
    }
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
    let decimals = normal.split_once('.').map_or(0, |(_, f)| f.len() as u32);
    crate::fmt::parse_decimal(&normal).map(|v| (sign * v, decimals))
}

/// `rest` is only a closing dot, or nothing.
fn done(rest: &str) -> bool {
    rest.trim().trim_end_matches('.').trim_end().is_empty()
}

/// Milliseconds, and whether a unit was written.
fn read_ms<'a>(t: &'a str, orig: &str) -> Result<(f64, bool), &'a str> {
    let n = number(t, orig)?;
    let w = letters(n.rest);
    let factor = match w {
        "" => 1.0,
        "ms" | "milisegundos" | "milisegundo" | "msec" | "mseg" => 1.0,
        "s" | "seg" | "segs" | "segundos" | "segundo" | "sec" | "secs" => 1_000.0,
        "min" | "mins" | "minutos" | "minuto" => 60_000.0,
        "h" | "hr" | "hrs" | "horas" | "hora" => 3_600_000.0,
        _ => return Err(n.rest),
    };
    let after = &n.rest[w.len()..];
    if !done(after) {
        return Err(if w.is_empty() { n.rest } else { after.trim() });
    }
    Ok((n.value * factor, !w.is_empty()))
}

/// Words a count or a rate may carry: «9 intentos», «2,500 requests».
const NOUNS: [&str; 12] = [
    "intento",
    "reintento",
    "request",
    "peticion",
    "petición",
    "llamada",
    "solicitud",
    "consulta",
    "vez",
    "veces",
    "lugar",
    "copia",
];

/// Words of a question that are not what it counts.
const NOT_NOUNS: [&str; 40] = [
    "los",
    "las",
    "del",
    "que",
    "con",
    "sin",
    "por",
    "para",
    "una",
    "uno",
    "unos",
    "unas",
    "sus",
    "ese",
    "esa",
    "eso",
    "esos",
    "esas",
    "este",
    "esta",
    "antes",
    "después",
    "despues",
    "cada",
    "más",
    "mas",
    "menos",
    "hasta",
    "cuando",
    "cuántos",
    "cuantos",
    "cuántas",
    "cuantas",
    "segundo",
    "segundos",
    "minuto",
    "minutos",
    "hora",
    "horas",
    "milisegundos",
];

/// Whether `word` (typed after a number, lower case) is a word `question`
/// names, as it is or in the singular or plural: «cliente», «clientes».
fn named_in(word: &str, question: &str) -> bool {
    if word.chars().count() < 3 || NOT_NOUNS.contains(&word) || question.is_empty() {
        return false;
    }
    let q = crate::text::lower(question);
    q.split(|c: char| !crate::text::is_alnum(c)).any(|w| {
        !w.is_empty()
            && (w == word
                || w.strip_suffix('s') == Some(word)
                || w.strip_suffix("es") == Some(word)
                || word.strip_suffix('s') == Some(w)
                || word.strip_suffix("es") == Some(w))
    })
}

fn read_quantity<'a>(t: &'a str, orig: &str, unit: Unit, question: &str) -> Result<f64, &'a str> {
    if unit == Unit::Ms {
        return read_ms(t, orig).map(|(ms, _)| ms);
    }
    let n = number(t, orig)?;
    let rest = n.rest;
    match unit {
        Unit::Rate => {
            // «4,500 intentos por segundo», «4,500/s», «270 por minuto»; what follows may say where.
            let w = letters(rest);
            let mut r: String =
                if NOUNS.iter().any(|p| w.starts_with(p)) || w == "req" || w == "reqs" || named_in(w, question) {
                    &rest[w.len()..]
                } else {
                    rest
                }
                .chars()
                .filter(|c| !c.is_whitespace())
                .collect();
            for tail in ["alfondo", "enelfondo", "porpod", "cadapod"] {
                if let Some(head) = r.strip_suffix(tail) {
                    r = head.to_string();
                }
            }
            let r = r.trim_end_matches('.');
            let factor = match r {
                "" | "/s" | "/seg" | "/segundo" | "porsegundo" | "pors" | "porseg" | "alsegundo" | "cadasegundo"
                | "rps" => 1.0,
                "/min" | "/minuto" | "porminuto" | "pormin" | "alminuto" | "cadaminuto" | "rpm" => 1.0 / 60.0,
                _ => return Err(rest),
            };
            Ok(n.value * factor)
        }
        Unit::Share => {
            let after = if let Some(a) = rest.strip_prefix('%') {
                a
            } else if let Some(a) = rest
                .strip_prefix("por ciento")
                .or_else(|| rest.strip_prefix("porciento"))
            {
                a
            } else {
                // In a «%» field a bare number is a percentage: 0.09 is 0.09 %.
                rest
            };
            if !done(after) {
                return Err(after.trim());
            }
            Ok(n.value / 100.0)
        }
        Unit::Count => {
            // «9 intentos», «44 en vuelo», «64 por request»: words may follow, but not a unit.
            let w = letters(rest);
            let next = letters(rest[w.len()..].trim_start());
            let noun = NOUNS.iter().any(|p| w.starts_with(p))
                || named_in(w, question)
                || w.starts_with("req")
                || (w == "en" && next == "vuelo")
                || (w == "por" && (next.starts_with("req") || next == "pod"));
            if done(rest) || noun {
                Ok(n.value)
            } else {
                Err(rest)
            }
        }
        Unit::Ms | Unit::Clock | Unit::YesNo | Unit::Choice => Err(t),
    }
}

/// A reading the learner may have meant instead, when the text allows one,
/// in the part's base unit, with why it was not read so: `2.500` is read
/// 2.5, but a thousands dot (as in Spain) would make it 2,500; a bare `0.64`
/// in a «%» field is read 0.64 %, but as a fraction it would be 64 %. The
/// hint offers it when it would be right.
pub fn other_reading(text: &str, unit: Unit) -> Option<(f64, &'static str)> {
    let Read::Number(v) = read(text, unit) else {
        return None;
    };
    let orig: String = text.chars().take(MAX_LEN).collect();
    let orig = orig.trim();
    let lower = crate::text::lower(orig);
    let n = number(&lower, orig).ok()?;
    if n.dot_thousands {
        Some((v * 1000.0, "Aquí el punto separa decimales."))
    } else if unit == Unit::Share && done(n.rest) && n.typed.abs() <= 1.0 && n.value == n.typed {
        Some((v * 100.0, "Aquí un número solo ya es un porcentaje."))
    } else {
        None
    }
}

/// How finely `text` was written: one unit of its last typed digit, in the
/// part's base unit («2.5 s» as ms: 100; «17 %»: 0.01; «700»: 1; «12:00:05»:
/// 1 s); 0 for a power («4³»), which has no last digit to round at. `None`
/// when the text is not a number (read as [`read_as`] reads it).
pub fn resolution(text: &str, unit: Unit, question: &str) -> Option<f64> {
    let Read::Number(v) = read_as(text, unit, question) else {
        return None;
    };
    let orig: String = text.chars().take(MAX_LEN).collect();
    let orig = orig.trim();
    let lower = crate::text::lower(orig);
    if unit == Unit::Clock && lower.contains(':') {
        let secs = lower.rsplit(':').next().unwrap_or_default();
        let digits = secs.split_whitespace().next().unwrap_or_default();
        let decimals = digits.split_once(['.', ',']).map_or(0, |(_, f)| f.len() as i32);
        return Some(10f64.powi(-decimals));
    }
    let n = number(&lower, orig).ok()?;
    if n.power {
        return Some(0.0);
    }
    let ulp = 10f64.powi(-(n.decimals.min(30) as i32));
    let scale = if n.typed != 0.0 {
        (v / n.typed).abs()
    } else if unit == Unit::Share {
        0.01
    } else {
        1.0
    };
    Some(ulp * scale).filter(|r| r.is_finite())
}

/// Words a question may count, to name in its example: «un número de
/// clientes». The first of them the question names is the one.
const COUNTED: [&str; 14] = [
    "clientes",
    "intentos",
    "reintentos",
    "requests",
    "llamadas",
    "peticiones",
    "veces",
    "fallbacks",
    "posts",
    "lugares",
    "copias",
    "respuestas",
    "pods",
    "consultas",
];

/// What the question counts, as it names it («clientes»), if it names one of [`COUNTED`].
fn counted_in(question: &str) -> Option<&'static str> {
    let q = crate::text::lower(question);
    q.split(|c: char| !crate::text::is_alnum(c)).find_map(|w| {
        COUNTED
            .iter()
            .find(|c| **c == w || c.strip_suffix('s') == Some(w))
            .copied()
    })
}

/// A round number of the size of `near` (in the unit's base), for an
/// example: the same power of ten, another first digit (300 near 700, 2,000
/// near 3,500), so that it shows the size without giving a value away.
fn example_near(near: f64) -> Option<f64> {
    let a = near.abs();
    if !a.is_finite() || a < 1e-9 {
        return None;
    }
    let m = 10f64.powi(a.log10().floor() as i32);
    let lead = (a / m).floor();
    Some(m * if lead == 3.0 { 2.0 } else { 3.0 })
}

/// What the learner is told was expected, when an answer cannot be read,
/// for this question: in its unit, naming what it counts («un número de
/// clientes, por ejemplo 300 (o 300 clientes)»), with an example of the
/// size of `near` (the expected value, in the unit's base) when given.
pub fn expected_for(unit: Unit, question: &str, near: Option<f64>) -> String {
    let ex = near.and_then(example_near);
    let noun = counted_in(question);
    let int = |v: f64| es_dec(v, 4);
    match unit {
        Unit::Count => {
            let v = ex.unwrap_or(300.0);
            let v = if v < 1.0 { 3.0 } else { v };
            match noun {
                Some(n) => format!("un número de {n}, por ejemplo {} (o {} {n})", int(v), int(v)),
                None => format!("un número, por ejemplo {}", int(v)),
            }
        }
        Unit::Rate => {
            let v = ex.unwrap_or(4_500.0);
            let per = match noun {
                Some(n) => format!("un número de {n} por segundo"),
                None => "un número por segundo".to_string(),
            };
            if v >= 1_000.0 {
                let k = int(v / 1_000.0);
                format!("{per}, por ejemplo {} (o {k} mil, {k}k)", int(v))
            } else {
                format!("{per}, por ejemplo {} (o {} por segundo)", int(v), int(v))
            }
        }
        Unit::Ms => {
            let v = ex.unwrap_or(150.0);
            format!(
                "un número de milisegundos, por ejemplo {} (o con su unidad: {} ms, {} s)",
                int(v),
                int(v),
                int(v / 1_000.0)
            )
        }
        Unit::Share => {
            let pct = ex.map_or(16.0, |v| v * 100.0);
            let pct = if pct > 100.0 { 30.0 } else { pct };
            format!("un porcentaje, por ejemplo {} (se lee {} %)", int(pct), int(pct))
        }
        Unit::Clock => {
            let secs = near.filter(|v| *v >= 0.0).and_then(example_near).unwrap_or(5.0);
            let secs = secs.min(3_000.0);
            format!(
                "una hora, por ejemplo {} (o {} s después de las 12:00:00)",
                clock(secs, 3),
                int(secs)
            )
        }
        Unit::YesNo | Unit::Choice => unit.expected().to_string(),
    }
}

/// What the learner is told when `got` could not be read, for this
/// question: [`Read::message`] with [`expected_for`]'s example.
pub fn message_for(got: &Read, unit: Unit, question: &str, near: Option<f64>) -> Option<String> {
    match got {
        Read::Unreadable { not_understood, .. } => Some(format!(
            "No entendí «{not_understood}»; se esperaba {}.",
            expected_for(unit, question, near)
        )),
        _ => None,
    }
}

/// What was read, written the lesson's way, to show before the mark
/// («Leí: 2.5 ms», «Leí: 0.09 %», «Leí: 12:00:05», «Leí: sí», «Leí: b»).
/// `None` when nothing was read.
pub fn shown(r: &Read, unit: Unit) -> Option<String> {
    Some(match r {
        Read::Number(v) => match unit {
            Unit::Ms => format!("{} ms", es_dec(*v, 3)),
            Unit::Rate => format!("{} por segundo", es_dec(*v, 3)),
            Unit::Share => format!("{} %", es_dec(v * 100.0, 4)),
            Unit::Clock => clock(*v, 3),
            _ => es_dec(*v, 3),
        },
        Read::YesNo(b) => (if *b { "sí" } else { "no" }).into(),
        Read::Choice(c) => c.to_string(),
        Read::Empty | Read::Unreadable { .. } => return None,
    })
}

/// 12:00:00 plus `secs` as `hh:mm:ss` (seconds to `decimals` places; before
/// noon as the time of day, from 00:00:00 on; before that, in seconds).
fn clock(secs: f64, decimals: usize) -> String {
    let total = 12.0 * 3600.0 + secs;
    if !(0.0..1e12).contains(&total) {
        return format!("{} s después de las 12:00:00", es_dec(secs, decimals));
    }
    let whole = total.floor();
    let (h, m) = ((whole / 3600.0).floor(), ((whole / 60.0).floor() % 60.0));
    let s = total - h * 3600.0 - m * 60.0;
    let s_text = es_dec(s, decimals);
    // 59.9996 written with 3 decimals is «60»: keep it within the minute.
    let s_text = if s_text.starts_with("60") {
        es_dec(s.floor(), 0)
    } else {
        s_text
    };
    let pad = if s_text.split('.').next().is_some_and(|i| i.len() < 2) {
        "0"
    } else {
        ""
    };
    format!("{:02}:{:02}:{pad}{s_text}", h as u64, m as u64)
}

/// A value written as the lesson writes it, in the part's unit.
pub fn format(v: f64, unit: Unit) -> String {
    use crate::fmt::es_percent;
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

    fn number(t: &str, unit: Unit) -> f64 {
        match read(t, unit) {
            Read::Number(v) => v,
            other => panic!("«{t}» ({unit:?}): {other:?}"),
        }
    }

    fn not_understood(t: &str, unit: Unit) -> String {
        match read(t, unit) {
            Read::Unreadable { not_understood, .. } => not_understood,
            other => panic!("«{t}» ({unit:?}) should not be read: {other:?}"),
        }
    }

    #[test]
    fn a_space_only_separates_thousands() {
        assert_eq!(read("2 500", Unit::Count), Read::Number(2_500.0));
        assert_eq!(read("1 000 000", Unit::Count), Read::Number(1_000_000.0));
        for t in ["4 3", "1 50", "12 3456"] {
            assert!(matches!(read(t, Unit::Count), Read::Unreadable { .. }), "{t}");
        }
    }

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
            "2.5k",
            "2.5k ms",
            "2.5 K ms",
            "2.5 mil ms",
            "2.5 mil",
        ] {
            assert_eq!(read(t, Unit::Ms), Read::Number(2_500.0), "{t}");
        }
        for t in ["250 ms", "0.25 s", "250"] {
            assert_eq!(read(t, Unit::Ms), Read::Number(250.0), "{t}");
        }
        for t in ["64 %", "64%", "64", "64 por ciento", "≈ 64 %"] {
            assert_eq!(read(t, Unit::Share), Read::Number(0.64), "{t}");
        }
        assert_eq!(read("≈ 36", Unit::Rate), Read::Number(36.0));
        assert_eq!(read("4,500 por segundo", Unit::Rate), Read::Number(4_500.0));
        assert_eq!(read("4,500/s", Unit::Rate), Read::Number(4_500.0));
        assert_eq!(
            read("4,500 intentos por segundo al fondo", Unit::Rate),
            Read::Number(4_500.0)
        );
        assert_eq!(read("270 por minuto", Unit::Rate), Read::Number(4.5));
        assert_eq!(read("9 intentos", Unit::Count), Read::Number(9.0));
        assert_eq!(read("44 en vuelo", Unit::Count), Read::Number(44.0));
        assert_eq!(read("24 h", Unit::Ms), Read::Number(86_400_000.0));
    }

    #[test]
    fn powers_with_or_without_spaces() {
        for t in [
            "4³",
            "4 ³",
            "4^3",
            "4 ^ 3",
            "4 ^3",
            "4**3",
            "4 ** 3",
            "≈ 4^3",
            "4^3 intentos",
        ] {
            assert_eq!(number(t, Unit::Count), 64.0, "{t}");
        }
        for t in ["3^2", "3²", "3**2"] {
            assert_eq!(number(t, Unit::Count), 9.0, "{t}");
        }
        for t in ["2^4", "2**4", "2⁴", "2 ^ 4"] {
            assert_eq!(number(t, Unit::Count), 16.0, "{t}");
        }
        assert_eq!(number("10^3 ms", Unit::Ms), 1_000.0);
        assert_eq!(number("10^-3 s", Unit::Ms), 1.0);
        // Arithmetic beyond a power is not read (nor silently cut short).
        assert_eq!(not_understood("500 × 2^4", Unit::Rate), "× 2^4");
    }

    #[test]
    fn thousands_and_millions_as_words_and_letters() {
        for t in ["15 mil", "15k", "15K", "15 k", "15,000", "15 000"] {
            assert_eq!(number(t, Unit::Count), 15_000.0, "{t}");
        }
        for t in [
            "15 mil por segundo",
            "15k/s",
            "15 K por segundo",
            "15 mil requests por segundo",
        ] {
            assert_eq!(number(t, Unit::Rate), 15_000.0, "{t}");
        }
        assert_eq!(number("2.5k", Unit::Count), 2_500.0);
        assert_eq!(
            number("2500k", Unit::Count),
            2_500_000.0,
            "the k is a multiplier, never dropped"
        );
        assert_eq!(number("2 millones", Unit::Count), 2e6);
        assert_eq!(number("1 millón", Unit::Count), 1e6);
        assert_eq!(number("2M", Unit::Count), 2e6);
        assert_eq!(number("2 M por segundo", Unit::Rate), 2e6);
        assert_eq!(number("3 mil millones", Unit::Count), 3e9);
        assert_eq!(number("≈ 2M", Unit::Count), 2e6);
        assert_eq!(number("≈ 2M", Unit::Clock), 2e6, "a bare number of seconds");
        // A lower-case m alone is not a million (nor minutes): not understood.
        assert_eq!(not_understood("2m", Unit::Count), "m");
        assert_eq!(not_understood("2 MS", Unit::Count), "MS");
        assert_eq!(number("150 MS", Unit::Ms), 150.0);
    }

    #[test]
    fn a_bare_number_in_a_percent_field_is_a_percentage() {
        assert_eq!(number("0.09", Unit::Share), 0.0009);
        assert_eq!(number("0.09 %", Unit::Share), 0.0009);
        assert_eq!(number("16", Unit::Share), 0.16);
        assert_eq!(number("16 %", Unit::Share), 0.16);
        assert_eq!(
            other_reading("0.64", Unit::Share),
            Some((0.64, "Aquí un número solo ya es un porcentaje."))
        );
        assert_eq!(
            other_reading("0.64 %", Unit::Share),
            None,
            "written with %: meant as typed"
        );
        assert_eq!(other_reading("64", Unit::Share), None, "more than 1: no fraction");
        assert_eq!(
            other_reading("1", Unit::Share).map(|r| r.0),
            Some(1.0),
            "offered; taken only if right"
        );
    }

    #[test]
    fn a_dot_and_three_digits_is_a_decimal_point_with_a_second_reading() {
        assert_eq!(number("2.500", Unit::Count), 2.5);
        assert_eq!(number("2.500", Unit::Ms), 2.5);
        let (v, why) = other_reading("2.500", Unit::Count).unwrap();
        assert_eq!(v, 2_500.0);
        assert!(why.contains("punto separa decimales"));
        assert_eq!(other_reading("12.500 ms", Unit::Ms).map(|r| r.0), Some(12_500.0));
        for t in ["2.5", "2.50", "2.5000", "0.500", "2,500", "1,250.500"] {
            assert_eq!(other_reading(t, Unit::Count), None, "{t}");
        }
    }

    #[test]
    fn a_word_the_question_names_follows_a_count() {
        let q = "los clientes que se rinden";
        for t in [
            "700 clientes",
            "700 cliente",
            "700 CLIENTES",
            "700 clientes se rinden",
            "≈ 700 clientes.",
        ] {
            assert_eq!(read_as(t, Unit::Count, q), Read::Number(700.0), "{t}");
        }
        // Not without the question, nor a word it does not name, nor its little words.
        assert!(matches!(read("700 clientes", Unit::Count), Read::Unreadable { .. }));
        for t in ["700 manzanas", "700 que", "700 los", "700 ms", "700 segundos"] {
            assert!(matches!(read_as(t, Unit::Count, q), Read::Unreadable { .. }), "{t}");
        }
        // A rate: «4,500 fallbacks por segundo» where the question counts fallbacks.
        assert_eq!(
            read_as("4,500 fallbacks por segundo", Unit::Rate, "fallbacks por segundo"),
            Read::Number(4_500.0)
        );
    }

    #[test]
    fn how_finely_a_number_was_typed() {
        let r = |t: &str, u: Unit| resolution(t, u, "").unwrap();
        assert_eq!(r("700", Unit::Count), 1.0);
        assert!((r("2.5 s", Unit::Ms) - 100.0).abs() < 1e-9);
        assert!((r("17 %", Unit::Share) - 0.01).abs() < 1e-12);
        assert!((r("15.79", Unit::Share) - 0.0001).abs() < 1e-12);
        assert!((r("2.85k", Unit::Count) - 10.0).abs() < 1e-9);
        assert_eq!(r("4³", Unit::Count), 0.0);
        assert_eq!(r("12:00:05", Unit::Clock), 1.0);
        assert!((r("12:00:05.5", Unit::Clock) - 0.1).abs() < 1e-12);
        assert_eq!(resolution("mucho", Unit::Count, ""), None);
    }

    #[test]
    fn examples_fit_the_question() {
        assert_eq!(
            expected_for(Unit::Count, "los clientes que se rinden", Some(700.0)),
            "un número de clientes, por ejemplo 300 (o 300 clientes)"
        );
        assert_eq!(
            expected_for(Unit::Count, "(b) Requests que esperaron sus 150 ms", Some(2_500.0)),
            "un número de requests, por ejemplo 3,000 (o 3,000 requests)"
        );
        // The same first digit as the answer is never the example's.
        assert_eq!(expected_for(Unit::Count, "", Some(350.0)), "un número, por ejemplo 200");
        assert_eq!(
            expected_for(Unit::Rate, "", Some(4_500.0)),
            "un número por segundo, por ejemplo 3,000 (o 3 mil, 3k)"
        );
        assert_eq!(
            expected_for(Unit::Share, "", Some(0.0009)),
            "un porcentaje, por ejemplo 0.03 (se lee 0.03 %)"
        );
        assert_eq!(
            expected_for(Unit::Clock, "", Some(5.0)),
            "una hora, por ejemplo 12:00:03 (o 3 s después de las 12:00:00)"
        );
        // Without a value to size it: the unit's own example.
        assert!(expected_for(Unit::Ms, "", None).contains("por ejemplo 150"));
        assert_eq!(expected_for(Unit::YesNo, "", Some(1.0)), "sí o no");
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
        assert_eq!(read("12:00:05 h", Unit::Clock), Read::Number(5.0));
        assert_eq!(read("5 s", Unit::Clock), Read::Number(5.0));
        assert_eq!(read("5", Unit::Clock), Read::Number(5.0));
        assert_eq!(read("5,000 ms", Unit::Clock), Read::Number(5.0));
        assert_eq!(not_understood("12:00:05 pm", Unit::Clock), "pm");
    }

    #[test]
    fn what_is_shown_as_read() {
        let shows = |t: &str, u: Unit| shown(&read(t, u), u).unwrap_or_else(|| panic!("«{t}»"));
        assert_eq!(shows("2.5", Unit::Ms), "2.5 ms");
        assert_eq!(shows("2.5 s", Unit::Ms), "2,500 ms");
        assert_eq!(shows("0.09", Unit::Share), "0.09 %");
        assert_eq!(shows("16", Unit::Share), "16 %");
        assert_eq!(shows("12:00:05", Unit::Clock), "12:00:05");
        assert_eq!(shows("5.5 s", Unit::Clock), "12:00:05.5");
        assert_eq!(shows("11:59:00", Unit::Clock), "11:59:00");
        assert_eq!(shows("si, claro", Unit::YesNo), "sí");
        assert_eq!(shows("(b)", Unit::Choice), "b");
        assert_eq!(shows("15 mil por segundo", Unit::Rate), "15,000 por segundo");
        assert_eq!(shows("2^4", Unit::Count), "16");
        assert_eq!(shown(&read("nada", Unit::Count), Unit::Count), None);
    }

    #[test]
    fn what_cannot_be_read_says_what_and_what_was_expected() {
        let m = read("mucho", Unit::Ms).message().unwrap();
        assert!(
            m.starts_with("No entendí «mucho»; se esperaba un número de milisegundos"),
            "{m}"
        );
        assert_eq!(not_understood("2500x", Unit::Count), "x");
        assert_eq!(not_understood("2500 x", Unit::Ms), "x");
        assert_eq!(not_understood("100 ms en total", Unit::Ms), "en total");
        assert_eq!(not_understood("2^", Unit::Count), "^");
        assert_eq!(not_understood("2 * 4", Unit::Count), "* 4");
        assert_eq!(not_understood("15 miles", Unit::Count), "miles");
        assert_eq!(not_understood("15 KM", Unit::Count), "KM");
        assert_eq!(not_understood("9 s", Unit::Count), "s");
        assert_eq!(not_understood("64 % de las requests", Unit::Share), "de las requests");
        assert_eq!(not_understood("1,2,3", Unit::Ms), "1,2,3");
        assert_eq!(not_understood("10^400", Unit::Count), "10^400");
        assert_eq!(not_understood("quizá", Unit::YesNo), "quizá");
        assert_eq!(read("   ", Unit::Ms), Read::Empty);
    }

    // proptest is a native dev-dependency only.
    #[cfg(not(target_arch = "wasm32"))]
    mod properties {
        use super::super::*;
        use proptest::prelude::*;

        fn unit() -> impl Strategy<Value = Unit> {
            prop_oneof![
                Just(Unit::Ms),
                Just(Unit::Rate),
                Just(Unit::Share),
                Just(Unit::Count),
                Just(Unit::Clock),
                Just(Unit::YesNo),
                Just(Unit::Choice)
            ]
        }

        /// Each numeric unit, a value in its range and how close reading its
        /// formatted text must come (half the last digit `format` writes).
        fn value_in_range() -> impl Strategy<Value = (Unit, f64, f64)> {
            prop_oneof![
                (0.0f64..1e9).prop_map(|v| (Unit::Ms, v, 0.05)),
                (0.0f64..1e7).prop_map(|v| (Unit::Rate, v, 0.05)),
                (0.0f64..=1.0).prop_map(|v| (Unit::Share, v, 0.00005)),
                (0.0f64..1e9).prop_map(|v| (Unit::Count, v, 0.005)),
                (0.0f64..43_000.0).prop_map(|v| (Unit::Clock, v, 0.5)),
            ]
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(3_000))]

            /// Any text, in any unit: read or refused, never a panic, never a non-finite number.
            #[test]
            fn read_never_panics(t in "\\PC{0,60}", u in unit()) {
                match read(&t, u) {
                    Read::Number(v) => prop_assert!(v.is_finite()),
                    Read::Unreadable { not_understood, .. } => prop_assert!(!not_understood.is_empty()),
                    _ => {}
                }
                let _ = other_reading(&t, u);
            }

            /// Text made of what numbers are made of (digits, separators, powers, multipliers, units).
            #[test]
            fn number_like_text_never_panics(
                t in "[-+≈~ 0-9.,%:³²^*kKM]{0,14}( ?(mil|millones|ms|s|min|h|%|por segundo|/s|intentos))?",
                u in unit(),
            ) {
                if let Read::Number(v) = read(&t, u) {
                    prop_assert!(v.is_finite());
                    let again = shown(&Read::Number(v), u).unwrap();
                    prop_assert!(!again.is_empty());
                }
            }

            /// Formatting a value as the lesson writes it and reading it back gives the value.
            #[test]
            fn format_then_read((u, v, close) in value_in_range()) {
                let text = format(v, u);
                match read(&text, u) {
                    // A clock is written to the second: it reads back as the rounded second.
                    Read::Number(back) if u == Unit::Clock => prop_assert!((back - v.round()).abs() < 1e-9, "{} → {} → {}", v, text, back),
                    Read::Number(back) => prop_assert!((back - v).abs() <= close + 1e-12 * v, "{} → {} → {}", v, text, back),
                    other => prop_assert!(false, "{} → {} → {:?}", v, text, other),
                }
                // And what the page shows as read is read back the same (to its 3 decimals).
                let echo = shown(&Read::Number(v), u).unwrap();
                match read(&echo, u) {
                    Read::Number(back) => prop_assert!((back - v).abs() <= 0.0005 + 1e-12 * v, "{} → {} → {}", v, echo, back),
                    other => prop_assert!(false, "{} → {} → {:?}", v, echo, other),
                }
            }

            /// Sí and no, and the letters of choices, come back as themselves.
            #[test]
            fn words_round_trip(yes in any::<bool>(), c in proptest::char::range('a', 'h')) {
                prop_assert_eq!(read(&format(f64::from(u8::from(yes)), Unit::YesNo), Unit::YesNo), Read::YesNo(yes));
                prop_assert_eq!(read(&format(f64::from(c as u32), Unit::Choice), Unit::Choice), Read::Choice(c));
            }
        }
    }
}
