//! The lesson's nine exercises as data: statement, parts, expected answers
//! with their tolerance, known mistakes, and the worked solution — all
//! computed by the simulation core, for the lesson's numbers (variant 0) or
//! for other numbers drawn from a seed (variant k).
//!
//! Why: a student who answers in the page should be told, part by part,
//! whether they are right, and when they are wrong in a known way (adding
//! instead of multiplying, forgetting the cap, reading Little's law upside
//! down), what that way is. The numbers of a variant, its answers and its
//! solution come from the same core that runs the widgets, so a variant can
//! never say one thing in the statement and check another.
//!
//! ```
//! use sensei_lab::exercise::{build, check, Mark};
//! let ex = build(2, 0).unwrap();
//! let marks = check(&ex, &["100", "200", "400", "800", "1 s", "2.5 s", "1,250 ms"].map(String::from));
//! assert!(marks.iter().all(Mark::is_right));
//! // What was read comes with the mark: «Leí: 2,500 ms».
//! assert_eq!(marks[5].read(), Some("2,500 ms"));
//! ```

pub mod answer;
mod bank;
pub mod json;
pub mod progress;
pub mod scorm;
pub mod task;

use answer::{Read, Unit};
use serde::{Deserialize, Serialize};

/// How many exercises the lesson has.
pub const COUNT: u32 = 9;

/// The variant with the lesson's own numbers.
pub const LESSON_VARIANT: u32 = 0;
/// Largest variant number (the seed of its numbers).
pub const MAX_VARIANT: u32 = 999_999;

/// How close a number must be.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Tol {
    Abs(f64),
    /// A share of the expected value.
    Rel(f64),
}

impl Tol {
    pub fn accepts(self, expected: f64, got: f64) -> bool {
        let d = (expected - got).abs();
        match self {
            Tol::Abs(a) => d <= a + 1e-9,
            Tol::Rel(r) => d <= r * expected.abs() + 1e-9,
        }
    }
}

/// The right answer of a part.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Expect {
    Number(f64),
    YesNo(bool),
    Choice(char),
}

/// A known wrong answer and what it says about the reasoning.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Mistake {
    pub answer: Expect,
    pub message: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Part {
    /// `a`, `b`, `b2`…: stable within an exercise.
    pub id: String,
    /// What the field asks, in Spanish.
    pub label: String,
    pub unit: Unit,
    pub expect: Expect,
    pub tol: Tol,
    /// For a choice: `(letter, text)`.
    pub options: Vec<(char, String)>,
    pub mistakes: Vec<Mistake>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Exercise {
    pub n: u32,
    /// «Fácil», «Medio», «Reto».
    pub level: String,
    pub variant: u32,
    pub statement: String,
    pub parts: Vec<Part>,
    /// The worked solution, one step per item.
    pub solution: Vec<String>,
}

/// What a checked part gets. A part that was read carries what was read,
/// written the lesson's way («2.5 ms», «0.09 %», «12:00:05», «sí», «b»), so
/// that the page can show it beside the mark and an ambiguity is visible.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mark {
    /// Nothing typed: «sin respuesta», not wrong.
    Empty,
    Right {
        read: String,
    },
    /// With what a known mistake (or a likelier reading of the text) says, if any.
    Wrong {
        read: String,
        hint: Option<String>,
    },
    /// The text could not be read: what was not understood, and what was expected.
    Unreadable(String),
}

impl Mark {
    pub fn is_right(&self) -> bool {
        matches!(self, Mark::Right { .. })
    }

    /// What was read, as the page shows it after «Leí:».
    pub fn read(&self) -> Option<&str> {
        match self {
            Mark::Right { read } | Mark::Wrong { read, .. } => Some(read),
            Mark::Empty | Mark::Unreadable(_) => None,
        }
    }

    /// What a wrong answer's hint says.
    pub fn hint(&self) -> Option<&str> {
        match self {
            Mark::Wrong { hint, .. } => hint.as_deref(),
            _ => None,
        }
    }
}

/// Whether numbered variants exist (the exercises with numbers in them).
pub fn has_variants(n: u32) -> bool {
    matches!(n, 2 | 4 | 5 | 6 | 7 | 8)
}

/// Exercise `n` (1–9), variant `variant` (0 = the lesson's numbers).
/// Exercises without numbers have only variant 0 and ignore the rest.
pub fn build(n: u32, variant: u32) -> Option<Exercise> {
    let v = if has_variants(n) { variant.min(MAX_VARIANT) } else { 0 };
    bank::build(n, v)
}

/// A variant as a URL gives it (`variant=…`, or `class=…` for a whole
/// class), read leniently: the variant to show and, when the text was not
/// one, the note that says so (`whose` is «La versión» or «La versión de la
/// clase»). A number out of range is brought within 0 to [`MAX_VARIANT`];
/// anything else (text, `NaN`, a fraction) is ignored: the lesson's numbers.
///
/// ```
/// use sensei_lab::exercise::variant_from_text;
/// assert_eq!(variant_from_text("17", "La versión"), (17, None));
/// let (v, note) = variant_from_text("-1", "La versión");
/// assert_eq!(v, 0);
/// assert_eq!(note.unwrap(), "La versión «-1» no existe (van de 0 a 999,999); se muestran los números de la lección.");
/// ```
pub fn variant_from_text(raw: &str, whose: &str) -> (u32, Option<String>) {
    let text = crate::sim::params::percent_decode(raw);
    let t = text.trim();
    if t.is_empty() {
        return (0, None);
    }
    // 1,000 as the lesson writes it; 1_000 as a programmer might.
    let plain: String = t.chars().filter(|c| !matches!(c, ',' | '_')).collect();
    let quoted: String = t.chars().take(24).collect();
    let quoted = if t.chars().count() > 24 { quoted + "…" } else { quoted };
    let range = format!("van de 0 a {}", crate::fmt::es_int(i64::from(MAX_VARIANT)));
    let lesson = "se muestran los números de la lección";
    let digits = plain.strip_prefix(['+', '-']).unwrap_or(&plain);
    let value = if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        // Any number of digits: a huge one is just out of range.
        let v = digits.trim_start_matches('0');
        let big = v.len() > 7 || v.parse::<u32>().is_ok_and(|v| v > MAX_VARIANT);
        Some(match (t.starts_with('-') && !v.is_empty(), big) {
            (true, _) => -1.0,
            (false, true) => f64::INFINITY,
            (false, false) => v.parse::<u32>().map_or(0.0, f64::from),
        })
    } else {
        crate::fmt::parse_decimal(&plain)
    };
    match value {
        Some(v) if v < 0.0 => (0, Some(format!("{whose} «{quoted}» no existe ({range}); {lesson}."))),
        Some(v) if v > f64::from(MAX_VARIANT) => (
            MAX_VARIANT,
            Some(format!(
                "{whose} «{quoted}» no existe ({range}); se muestra la {}.",
                crate::fmt::es_int(i64::from(MAX_VARIANT))
            )),
        ),
        Some(v) if v.fract() == 0.0 => (v as u32, None),
        Some(_) => (
            0,
            Some(format!(
                "{whose} «{quoted}» no existe ({range}, sin decimales); {lesson}."
            )),
        ),
        None => (
            0,
            Some(format!("{whose} «{quoted}» no es un número ({range}); {lesson}.")),
        ),
    }
}

fn same(e: &Expect, got: &Read, tol: Tol) -> bool {
    match (e, got) {
        (Expect::Number(x), Read::Number(y)) => tol.accepts(*x, *y),
        (Expect::YesNo(x), Read::YesNo(y)) => x == y,
        (Expect::Choice(x), Read::Choice(y)) => x == y,
        _ => false,
    }
}

/// How far `got` is from the answer a mistake produces, if it is within the
/// part's own tolerance around the mistake's value, on the part's own scale.
/// A whole count (or whole milliseconds) keeps half a unit, so that 8.4 is
/// still «8»; a share or a clock keeps exactly its tolerance.
pub fn mistake_distance(part: &Part, mistake: &Mistake, got: &Read) -> Option<f64> {
    match (&mistake.answer, got) {
        (Expect::Number(x), Read::Number(y)) => {
            let d = (x - y).abs();
            let floor = matches!(part.unit, Unit::Count | Unit::Ms | Unit::Rate) && d < 0.5;
            (floor || part.tol.accepts(*x, *y)).then_some(d)
        }
        (e, g) => same(e, g, part.tol).then_some(0.0),
    }
}

/// What the mistakes of `part` say about `got`: the hint of the mistake it
/// is, the nearest if the tolerances of two reach it (so that no two
/// mistakes answer the same text); both, if two mistakes give the very same
/// value.
pub fn mistake_hint(part: &Part, got: &Read) -> Option<String> {
    let near: Vec<(f64, &str)> = part
        .mistakes
        .iter()
        .filter_map(|m| mistake_distance(part, m, got).map(|d| (d, m.message.as_str())))
        .collect();
    let best = near.iter().map(|(d, _)| *d).fold(f64::INFINITY, f64::min);
    let mut says: Vec<&str> = Vec::new();
    for (_, m) in near.iter().filter(|(d, _)| *d <= best + 1e-9) {
        if !says.contains(m) {
            says.push(m);
        }
    }
    match says.as_slice() {
        [] => None,
        [one] => Some(one.to_string()),
        [first, rest @ ..] => {
            let mut hint = format!(
                "Esa respuesta puede venir de {} errores. {first}",
                if rest.len() == 1 { "dos" } else { "varios" }
            );
            for m in rest {
                hint.push_str(" O bien: ");
                hint.push_str(m);
            }
            Some(hint)
        }
    }
}

/// Marks one part's answer.
/// A word the part's question names may follow a count («700 clientes»); a
/// text that cannot be read is told an example that fits the question.
pub fn check_part(part: &Part, text: &str) -> Mark {
    let got = answer::read_as(text, part.unit, &part.label);
    let shown = answer::shown(&got, part.unit).unwrap_or_default();
    let near = match part.expect {
        Expect::Number(v) => Some(v),
        _ => None,
    };
    match got {
        Read::Empty => Mark::Empty,
        Read::Unreadable { .. } => {
            Mark::Unreadable(answer::message_for(&got, part.unit, &part.label, near).unwrap_or_default())
        }
        Read::Choice(c) if !part.options.is_empty() && !part.options.iter().any(|(l, _)| *l == c) => {
            Mark::Unreadable(format!(
                "No hay opción «{c}»; se esperaba una de las letras {}.",
                letters_list(&part.options)
            ))
        }
        ref g if same(&part.expect, g, part.tol) => Mark::Right { read: shown },
        ref g => {
            // «2.500» where 2,500 is right; «0.64» in a % field where 64 % is right.
            let likelier = answer::other_reading(text, part.unit)
                .filter(|(v, _)| same(&part.expect, &Read::Number(*v), part.tol))
                .map(|(v, why)| format!("¿Quisiste escribir {}? {why}", answer::format(v, part.unit)));
            let hint = likelier.or_else(|| mistake_hint(part, g));
            Mark::Wrong { read: shown, hint }
        }
    }
}

/// `['a', 'b', 'c']` → `"a, b o c"`.
fn letters_list(letters: &[(char, String)]) -> String {
    let mut out = String::new();
    for (i, (l, _)) in letters.iter().enumerate() {
        if i > 0 {
            out.push_str(if i + 1 == letters.len() { " o " } else { ", " });
        }
        out.push(*l);
    }
    out
}

/// Marks every part (missing answers count as empty).
pub fn check(ex: &Exercise, answers: &[String]) -> Vec<Mark> {
    ex.parts
        .iter()
        .enumerate()
        .map(|(i, p)| check_part(p, answers.get(i).map_or("", String::as_str)))
        .collect()
}

/// The expected answer as the solution writes it.
pub fn expected_text(p: &Part) -> String {
    match &p.expect {
        Expect::Number(v) => answer::format(*v, p.unit),
        Expect::YesNo(b) => (if *b { "sí" } else { "no" }).into(),
        Expect::Choice(c) => p
            .options
            .iter()
            .find(|(l, _)| l == c)
            .map_or(c.to_string(), |(l, t)| format!("{l}) {t}")),
    }
}

/// The exercise as plain text, for paper (with its solution if asked).
pub fn to_text(ex: &Exercise, solutions: bool) -> String {
    let mut out = format!("Ejercicio {} · {}", ex.n, ex.level);
    if ex.variant > 0 {
        out.push_str(&format!(" (versión {})", ex.variant));
    }
    out.push_str("\n\n");
    out.push_str(&ex.statement);
    out.push_str("\n\n");
    for p in &ex.parts {
        let blank = if p.unit == Unit::Share { "______ %" } else { "______" };
        out.push_str(&format!("  {}: {blank}", p.label));
        if !p.options.is_empty() {
            for (l, t) in &p.options {
                out.push_str(&format!("\n      {l}) {t}"));
            }
        }
        out.push('\n');
    }
    if solutions {
        out.push_str("\nSolución paso a paso:\n");
        for s in &ex.solution {
            out.push_str(&format!("- {s}\n"));
        }
        out.push_str("\nRespuestas:\n");
        for p in &ex.parts {
            out.push_str(&format!("  {}: {}\n", p.label, expected_text(p)));
        }
    }
    out.trim_end().to_string()
}

/// What is wrong with a lesson's directive, if anything: a task's (it must
/// read as [`task::parse`] reads it) and an exercise's (one the bank has)
/// here, every other by the lesson's own check (`lesson::check_directive`).
pub fn check_directive(slug: &str, d: &crate::lesson::Directive) -> Option<String> {
    match d.name.as_str() {
        "task" => task::parse(d).err(),
        "exercise" => match d.get("n") {
            None => Some("«::exercise» needs «n»".into()),
            Some(n) => n
                .parse::<u32>()
                .ok()
                .filter(|n| build(*n, 0).is_some())
                .is_none()
                .then(|| format!("unknown exercise «{n}»")),
        },
        _ => crate::lesson::check_directive(slug, d),
    }
}

/// Every problem in every embedded lesson: those that did not parse, and
/// every directive [`check_directive`] refuses (empty when all is well).
pub fn check_lessons() -> Vec<String> {
    let mut out: Vec<String> = crate::lesson::errors()
        .iter()
        .map(|(s, e)| format!("{s}: {e}"))
        .collect();
    for l in crate::lesson::all() {
        for d in l.directives() {
            if let Some(p) = check_directive(&l.slug, d) {
                out.push(format!("{}: {p}", l.slug));
            }
        }
    }
    out
}
