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
//! assert!(marks.iter().all(|m| *m == Mark::Right));
//! ```

pub mod answer;
mod bank;
pub mod json;
pub mod progress;

use answer::{read, Read, Unit};
use serde::{Deserialize, Serialize};

/// How many exercises the lesson has.
pub const COUNT: u32 = 9;

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

/// What a checked part gets.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mark {
    /// Nothing typed: «sin respuesta», not wrong.
    Empty,
    Right,
    /// With what a known mistake says, if it is one.
    Wrong(Option<String>),
    /// The text could not be read; what was expected.
    Unreadable(String),
}

impl Mark {
    pub fn is_right(&self) -> bool {
        *self == Mark::Right
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

fn same(e: &Expect, got: &Read, tol: Tol) -> bool {
    match (e, got) {
        (Expect::Number(x), Read::Number(y)) => tol.accepts(*x, *y),
        (Expect::YesNo(x), Read::YesNo(y)) => x == y,
        (Expect::Choice(x), Read::Choice(y)) => x == y,
        _ => false,
    }
}

/// Marks one part's answer.
pub fn check_part(part: &Part, text: &str) -> Mark {
    let got = read(text, part.unit);
    match got {
        Read::Empty => Mark::Empty,
        Read::Unreadable(what) => Mark::Unreadable(format!("Se esperaba {what}.")),
        ref g if same(&part.expect, g, part.tol) => Mark::Right,
        ref g => {
            // A mistake is recognised within the part's tolerance (at least a hair, for exact answers).
            let tol = match part.tol {
                Tol::Abs(a) => Tol::Abs(a.max(0.5)),
                t => t,
            };
            let hint = part
                .mistakes
                .iter()
                .find(|m| same(&m.answer, g, tol))
                .map(|m| m.message.clone());
            if let (Read::Choice(c), true) = (g, !part.options.is_empty()) {
                if !part.options.iter().any(|(l, _)| l == c) {
                    return Mark::Unreadable(format!(
                        "Se esperaba una de las letras {}.",
                        part.options
                            .iter()
                            .map(|(l, _)| l.to_string())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ));
                }
            }
            Mark::Wrong(hint)
        }
    }
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
        out.push_str(&format!("  {}: ______", p.label));
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
