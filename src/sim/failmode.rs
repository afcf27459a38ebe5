//! Fail-open or fail-closed: what a permission piece does when it cannot
//! answer, and HTTP's promises per method.
//!
//! Why: some pieces do not give an answer but a permission (a content
//! reviewer, a request limiter). If the reviewer fails, what happens must
//! have been decided before. Failing open lets everything through; failing
//! closed blocks everything. The choice is about which costs more: letting
//! something bad through for a while, or stopping everything good. In C06,
//! moderation fails open (blocking every post because a GPU is slow would be
//! an outage of the product); a payment or a login fails closed.
//!
//! ```
//! use sensei_lab::sim::failmode::{run, Case, FailModeParams, Mode};
//! let r = run(&FailModeParams { case: Case::Payment, mode: Mode::Open, ..FailModeParams::default() });
//! assert!(!r.matches_lesson);
//! ```

use crate::sim::params::ChoiceKey;
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Case {
    /// C06: the moderation of a posts site.
    #[default]
    Moderation,
    /// A payment that cannot be verified.
    Payment,
    /// A login that cannot be verified.
    Login,
}

impl ChoiceKey for Case {
    const KEYS: &'static [(Self, &'static str)] = &[
        (Case::Moderation, "moderation"),
        (Case::Payment, "payment"),
        (Case::Login, "login"),
    ];
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Mode {
    /// Let it through.
    #[default]
    Open,
    /// Block it.
    Closed,
}

impl ChoiceKey for Mode {
    const KEYS: &'static [(Self, &'static str)] = &[(Mode::Open, "open"), (Mode::Closed, "closed")];
}

/// What a case is about, in the lesson's words.
pub struct CaseText {
    pub case: Case,
    /// "C06 (la moderación de un sitio de publicaciones)".
    pub name: &'static str,
    /// What the items are ("posts", "pagos"), and one of them ("post").
    pub items: &'static str,
    pub item: &'static str,
    /// What the bad ones are ("posts que violan las reglas"), and one of them.
    pub bad: &'static str,
    pub bad_one: &'static str,
    /// What the lesson chooses, and why.
    pub lesson: Mode,
    pub why: &'static str,
}

pub const CASES: &[CaseText] = &[
    CaseText {
        case: Case::Moderation,
        name: "C06 (la moderación de un sitio de publicaciones)",
        items: "posts",
        item: "post",
        bad: "posts que violan las reglas",
        bad_one: "post que viola las reglas",
        lesson: Mode::Open,
        why: "si los modelos no contestan a tiempo, el post se publica y se revisa después: bloquear toda publicación porque una GPU tarda sería una caída del producto",
    },
    CaseText {
        case: Case::Payment,
        name: "un pago",
        items: "pagos",
        item: "pago",
        bad: "pagos fraudulentos",
        bad_one: "pago fraudulento",
        lesson: Mode::Closed,
        why: "si no se puede verificar, no pasa",
    },
    CaseText {
        case: Case::Login,
        name: "un inicio de sesión",
        items: "inicios de sesión",
        item: "inicio de sesión",
        bad: "intentos con credenciales de otra persona",
        bad_one: "intento con credenciales de otra persona",
        lesson: Mode::Closed,
        why: "si no se puede verificar, no pasa",
    },
];

pub fn case_text(c: Case) -> &'static CaseText {
    CASES.iter().find(|t| t.case == c).unwrap_or(&CASES[0])
}

const CASE_OPTIONS: &[(&str, &str)] = &[
    ("moderation", "C06: moderación"),
    ("payment", "un pago"),
    ("login", "un inicio de sesión"),
];
const MODE_OPTIONS: &[(&str, &str)] = &[
    ("open", "fallar abierto (dejar pasar)"),
    ("closed", "fallar cerrado (bloquear)"),
];

crate::params! {
    /// The checker is down for a while: what passes and what is stopped.
    #[derive(Eq)]
    pub struct FailModeParams {
        /// The case
        case: Case = Case::Moderation => choice("El caso", CASE_OPTIONS),
        /// What the piece does when the checker does not answer
        mode: Mode = Mode::Open => choice("Si el revisor no contesta", MODE_OPTIONS),
        /// How long the checker is down, in minutes
        outage_min: u32 = 10 => int("El revisor no contesta durante", "min", 1, 1_440),
        /// Items per minute
        per_min: u32 = 200 => int("Llegan por minuto", "", 1, 1_000_000),
        /// Bad items, in tenths of a percent (10 = 1 %)
        bad_permille: u32 = 10 => int("Violan las reglas", "de cada 1,000", 0, 1_000),
    }
}

/// What the command line says of it (`sensei-lab failmode --help`).
#[cfg(not(target_arch = "wasm32"))]
impl crate::sim::scenario::Scenario for FailModeParams {
    const ABOUT: &'static str = "Fail-open or fail-closed: what passes and what stops while a checker is down.";
    const BUDGET: &'static str = "none needed (closed form).";

    fn report(p: &Self, ctx: &mut impl crate::sim::scenario::Session) -> crate::sim::scenario::Run {
        use crate::sim::scenario::Run;
        use serde_json::json;
        let r = ctx.time(|| run(p));
        let line = r.sentence.clone();
        Run::plain(json!(r), vec![line])
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FailModeRun {
    /// Items that arrive while the checker is down.
    pub items: u64,
    /// Bad items let through (failing open).
    pub bad_through: u64,
    /// Good items stopped (failing closed).
    pub good_blocked: u64,
    pub matches_lesson: bool,
    /// What happened, in one sentence.
    pub what: String,
    /// What the lesson chooses for this case, and why.
    pub lesson: String,
    /// Both.
    pub sentence: String,
}

pub fn run(params: &FailModeParams) -> FailModeRun {
    let (p, _) = crate::sim::params::clamp(params);
    let t = case_text(p.case);
    let items = p.outage_min as u64 * p.per_min as u64;
    let bad = items * p.bad_permille as u64 / 1000;
    let (bad_through, good_blocked) = match p.mode {
        Mode::Open => (bad, 0),
        Mode::Closed => (0, items - bad),
    };
    let n = crate::fmt::es_int;
    // One item in one minute is said in the singular («pasa el único post de ese minuto»).
    let one = items == 1;
    let all = if one {
        format!("el único {}", t.item)
    } else {
        format!("los {} {}", n(items as i64), t.items)
    };
    let span = if p.outage_min == 1 {
        "ese minuto".to_string()
    } else {
        format!("esos {} min", p.outage_min)
    };
    let what = match p.mode {
        Mode::Open => format!(
            "Fallando abierto {} {all} de {span}, y con {} ≈ {} {}",
            if one { "pasa" } else { "pasan" },
            if one { "él" } else { "ellos" },
            n(bad as i64),
            if bad == 1 { t.bad_one } else { t.bad }
        ),
        Mode::Closed => format!(
            "Fallando cerrado {} {all} de {span}: ≈ {} {}",
            if one { "se detiene" } else { "se detienen" },
            n((items - bad) as i64),
            if items - bad == 1 {
                "bueno que no pasa"
            } else {
                "buenos que no pasan"
            }
        ),
    };
    let choice = match t.lesson {
        Mode::Open => "fallar abierto",
        Mode::Closed => "fallar cerrado",
    };
    let matches_lesson = p.mode == t.lesson;
    let lesson = format!("Para {}, la lección elige {choice}: {}.", t.name, t.why);
    let what = format!("{what}.");
    let sentence = format!("{what} {lesson}");
    FailModeRun {
        items,
        bad_through,
        good_blocked,
        matches_lesson,
        what,
        lesson,
        sentence,
    }
}

/// HTTP's promise for each method (RFC 9110, §9.2): safe (changes nothing)
/// and idempotent (repeating it leaves the same result).
pub const METHODS: &[(&str, bool, bool)] = &[
    ("GET", true, true),
    ("HEAD", true, true),
    ("OPTIONS", true, true),
    ("PUT", false, true),
    ("DELETE", false, true),
    ("POST", false, false),
    ("PATCH", false, false),
];

impl crate::sim::figures::TaskFigures for FailModeParams {
    const RESULTS: &'static [crate::sim::figures::Figure] = &[
        crate::fig!("good-blocked", "los posts buenos que no pasan", Count),
        crate::fig!("bad-through", "los posts malos que pasan", Count),
    ];
    fn figure(&self, key: &str) -> Option<f64> {
        let r = run(self);
        match key {
            "good-blocked" => Some(r.good_blocked as f64),
            "bad-through" => Some(r.bad_through as f64),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The lesson's choices, read from its section «¿Abierto o cerrado?»: C06's
    /// post «se publica» (open); «En un pago o en un inicio de sesión se elige
    /// lo contrario» (closed). Each case's name and reason are the lesson's
    /// words, and the run at that choice says it matches the lesson.
    #[test]
    fn the_lesson_choices() {
        let lesson = include_str!("../../lessons/timeouts-reintentos-idempotencia/leccion.md");
        let section = lesson
            .split("## ¿Abierto o cerrado?")
            .nth(1)
            .and_then(|s| s.split("\n## ").next())
            .expect("the lesson's section");
        let open_case = section
            .split("\n\n")
            .flat_map(|p| p.split(". "))
            .find(|s| s.contains("se publica y se revisa después"))
            .expect("the open case");
        let closed_cases = section
            .split("\n\n")
            .flat_map(|p| p.split(". "))
            .find(|s| s.contains("se elige lo contrario"))
            .expect("the closed cases");
        for c in CASES {
            let mode = if open_case.contains(c.name.split(" (").next().unwrap_or(c.name)) {
                Mode::Open
            } else {
                assert!(closed_cases.contains(c.name), "{} is in neither sentence", c.name);
                Mode::Closed
            };
            assert_eq!(c.lesson, mode, "{}", c.name);
            assert!(section.contains(c.why), "{}: its reason is the lesson's words", c.name);
            let p = FailModeParams {
                case: c.case,
                mode,
                ..FailModeParams::default()
            };
            assert!(run(&p).matches_lesson, "{}", c.name);
        }
        assert_eq!(CASES.iter().filter(|c| c.lesson == Mode::Open).count(), 1);
    }

    #[test]
    fn what_passes_and_what_stops() {
        let open = run(&FailModeParams::default());
        assert_eq!((open.items, open.bad_through, open.good_blocked), (2_000, 20, 0));
        let closed = run(&FailModeParams {
            mode: Mode::Closed,
            ..FailModeParams::default()
        });
        assert_eq!((closed.bad_through, closed.good_blocked), (0, 1_980));
        assert!(closed.sentence.contains("el post se publica y se revisa después"));
    }

    #[test]
    fn one_item_is_said_in_the_singular() {
        let one = |mode, bad_permille| {
            run(&FailModeParams {
                mode,
                outage_min: 1,
                per_min: 1,
                bad_permille,
                ..FailModeParams::default()
            })
            .what
        };
        assert!(one(Mode::Open, 1000)
            .starts_with("Fallando abierto pasa el único post de ese minuto, y con él ≈ 1 post que viola las reglas."));
        assert!(one(Mode::Closed, 0)
            .starts_with("Fallando cerrado se detiene el único post de ese minuto: ≈ 1 bueno que no pasa."));
        let lesson = run(&FailModeParams::default()).what;
        assert!(lesson.contains("pasan los 2,000 posts de esos "), "{lesson}");
    }

    #[test]
    fn safe_methods_are_idempotent() {
        assert!(METHODS.iter().all(|(_, safe, idem)| !safe || *idem));
        assert_eq!(METHODS.iter().filter(|m| m.2).count(), 5);
    }
}
