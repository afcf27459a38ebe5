//! What the lab reports to a course platform (an LMS) that launched it from a
//! SCORM 1.2 package, as values: the lesson's status, its score, one
//! interaction per part checked, the times, and the package's manifest. The
//! browser's calls to the LMS's API are in `ui::lms`; the rules are here, so
//! they are tested natively.
//!
//! * The score is the parts right over every part: each exercise's parts in
//!   the package's variant (the lesson's numbers, or a class's), and each
//!   widget's task as one part; `cmi.core.score.raw` is that share in percent
//!   (`min` 0, `max` 100: the range SCORM 1.2 gives a score). Only what was
//!   found counts: a part right after its worked solution was opened, or a
//!   task right after its answer was shown, is right on the page and in its
//!   interaction, but adds nothing ([`Progress::credited`]).
//! * A package's worked solutions open as its instructor chose
//!   ([`Solutions`]): after a check (as on the site), only once every part
//!   has an answer checked, or never.
//! * The status is `incomplete` until every exercise (in that variant) and
//!   every task has been checked once; then `passed` or `failed` against the
//!   mastery score (`passed` as soon as the score reaches it), or
//!   `completed` for a package built without one.
//! * Interactions use SCORM 1.2's words (`correct`, `wrong`, `unanticipated`)
//!   and its types (`fill-in` for what is typed, `choice`, `true-false`); a
//!   response is cut to SCORM 1.2's 255 characters, an identifier to letters,
//!   digits, `-` and `_`.

use crate::exercise::answer::Unit;
use crate::exercise::progress::Progress;
use crate::exercise::{Mark, Part};

/// SCORM 1.2's longest `student_response` (CMIFeedback is a CMIString255).
pub const MAX_RESPONSE: usize = 255;
/// SCORM 1.2's longest `cmi.suspend_data` (a CMIString4096).
pub const MAX_SUSPEND: usize = 4_096;
/// The mastery score of a package built without another one, in percent.
pub const DEFAULT_MASTERY: u32 = 80;

/// Everything a learner checks in a lesson's package.
#[derive(Clone, Debug, PartialEq)]
pub struct Checkable {
    /// The package's variant of every exercise with numbers (0: the lesson's).
    pub class: u32,
    /// Each exercise: its number, the variant it is counted in, and its parts.
    pub exercises: Vec<(u32, u32, u32)>,
    /// Each widget's task, `widget/id`.
    pub tasks: Vec<String>,
}

impl Checkable {
    /// The lesson's exercises in `class`'s variant (those without variants in
    /// theirs) and its tasks.
    pub fn of_lesson(lesson: &crate::lesson::Lesson, class: u32) -> Self {
        let exercises = (1..=super::COUNT)
            .filter_map(|n| {
                let v = if super::has_variants(n) {
                    class
                } else {
                    super::LESSON_VARIANT
                };
                super::build(n, v).map(|e| (n, v, e.parts.len() as u32))
            })
            .collect();
        let tasks = super::task::of_lesson(lesson)
            .into_iter()
            .map(|(t, _)| t.key())
            .collect();
        Checkable {
            class,
            exercises,
            tasks,
        }
    }

    /// The variant exercise `n` is counted in.
    pub fn variant(&self, n: u32) -> Option<u32> {
        self.exercises.iter().find(|e| e.0 == n).map(|e| e.1)
    }
}

/// Where a learner stands: parts right, parts in all, and whether each
/// exercise and task has been checked at least once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Standing {
    pub right: usize,
    pub total: usize,
    pub all_checked: bool,
}

pub fn standing(progress: &Progress, c: &Checkable) -> Standing {
    let mut s = Standing {
        right: 0,
        total: 0,
        all_checked: true,
    };
    for &(n, v, parts) in &c.exercises {
        s.total += parts as usize;
        s.right += progress.credited(n, v).min(parts as usize);
        s.all_checked &= progress.exercises.get(&n).is_some_and(|vs| vs.contains_key(&v));
    }
    for key in &c.tasks {
        s.total += 1;
        let t = progress.task(key);
        s.right += usize::from(progress.task_credited(key));
        s.all_checked &= t.is_some();
    }
    s
}

/// When a package's worked solutions open (`data-solutions` on its page,
/// `scripts/scorm.mjs --solutions`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Solutions {
    /// After the exercise was checked once, as on the site.
    #[default]
    Always,
    /// Only once every part has an answer checked (right or wrong).
    Checked,
    /// Never: the package has no worked solutions.
    Never,
}

impl Solutions {
    /// The package's word (`always`, `checked`, `never`); anything else is `always`.
    pub fn from_word(word: &str) -> Self {
        match word {
            "checked" => Solutions::Checked,
            "never" => Solutions::Never,
            _ => Solutions::Always,
        }
    }

    /// Why the solution does not open now, for the learner; `None`: it opens.
    /// `checked`: the exercise was checked at least once; `tried`: every part
    /// has an answer checked (right or wrong).
    pub fn closed_because(self, checked: bool, tried: bool) -> Option<&'static str> {
        match self {
            Solutions::Never => Some(
                "En este curso no hay solución paso a paso: tu docente la dejó fuera para que resuelvas por tu cuenta.",
            ),
            Solutions::Checked if !tried => {
                Some("La solución se abre cuando hayas comprobado una respuesta en cada parte.")
            }
            _ if !checked && !tried => Some("Primero intenta y comprueba tus respuestas."),
            _ => None,
        }
    }
}

/// What the page says before a solution opens, when a score is sent.
pub const REVEAL_WARNING: &str = "Si abres la solución, lo que aún no tienes bien ya no sumará a tu calificación.";

/// `cmi.core.score.raw`: the share right in percent, with at most one
/// decimal, never rounded up to a mark not reached (99.96 % is «99.9»).
pub fn raw_score(s: &Standing) -> String {
    if s.total == 0 {
        return "0".into();
    }
    let tenths = (s.right * 1000) / s.total;
    if tenths.is_multiple_of(10) {
        format!("{}", tenths / 10)
    } else {
        format!("{}.{}", tenths / 10, tenths % 10)
    }
}

/// The LMS's `cmi.student_data.mastery_score` (a CMIDecimal, 0 to 100; empty
/// when the manifest names none) as a whole percentage, rounded up, so that
/// 79.5 asks for 80. Read without the float parser, which would cost the
/// page ≈ 20 KB for this one number.
pub fn mastery_of(text: &str) -> Option<u32> {
    let (whole, part) = text.trim().split_once('.').unwrap_or((text.trim(), ""));
    if whole.is_empty() || !whole.bytes().all(|b| b.is_ascii_digit()) || !part.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let whole: u32 = whole.parse().ok()?;
    let up = u32::from(part.bytes().any(|b| b != b'0'));
    Some((whole + up).min(100))
}

/// `cmi.core.lesson_status`.
pub fn status(s: &Standing, mastery: Option<u32>) -> &'static str {
    let reached = |m: u32| s.total > 0 && s.right * 100 >= m as usize * s.total;
    match mastery {
        Some(m) if reached(m) => "passed",
        Some(_) if s.all_checked => "failed",
        None if s.all_checked => "completed",
        _ => "incomplete",
    }
}

/// One `cmi.interactions.n`, without its time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Interaction {
    pub id: String,
    pub kind: &'static str,
    pub response: String,
    pub result: &'static str,
}

/// A SCORM 1.2 identifier: ASCII letters, digits, `-` and `_` (anything else
/// becomes `_`), never empty, at most 255 characters.
pub fn identifier(s: &str) -> String {
    let id: String = s
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .take(255)
        .collect();
    if id.is_empty() {
        "_".into()
    } else {
        id
    }
}

/// `text` cut to `max` characters (not bytes: an accent is one).
pub fn cut(text: &str, max: usize) -> String {
    text.chars().take(max).collect()
}

/// The interaction for a part of exercise `n` (variant `v`) checked with
/// `typed` and marked `mark`; none for a part left empty.
pub fn part_interaction(n: u32, v: u32, part: &Part, typed: &str, mark: &Mark) -> Option<Interaction> {
    let typed = typed.trim();
    if typed.is_empty() || *mark == Mark::Empty {
        return None;
    }
    let (kind, response) = match part.unit {
        // SCORM 1.2's true-false takes `t` or `f`.
        Unit::YesNo => (
            "true-false",
            if typed.starts_with('s') {
                "t".to_string()
            } else {
                "f".to_string()
            },
        ),
        Unit::Choice => ("choice", identifier(typed)),
        _ => ("fill-in", cut(typed, MAX_RESPONSE)),
    };
    Some(Interaction {
        id: identifier(&format!("ej{n}-v{v}-{}", part.id)),
        kind,
        response,
        result: match mark {
            Mark::Right { .. } => "correct",
            Mark::Wrong { .. } => "wrong",
            _ => "unanticipated",
        },
    })
}

/// The interaction for a widget's task (`key`, `widget/id`): what was typed,
/// or for a goal the state it was checked at (`state`, as in a link).
pub fn task_interaction(key: &str, typed: &str, state: &str, right: bool) -> Interaction {
    let response = if typed.trim().is_empty() { state } else { typed.trim() };
    Interaction {
        id: identifier(&format!("tarea-{key}")),
        kind: "fill-in",
        response: cut(response, MAX_RESPONSE),
        result: if right { "correct" } else { "wrong" },
    }
}

/// `cmi.core.session_time`, a CMITimespan: `HHHH:MM:SS.SS`.
pub fn timespan(ms: f64) -> String {
    let cs = (ms.max(0.0) / 10.0).floor() as u64;
    let (h, rest) = (cs / 360_000, cs % 360_000);
    let (m, rest) = (rest / 6_000, rest % 6_000);
    format!("{:04}:{:02}:{:02}.{:02}", h.min(9_999), m, rest / 100, rest % 100)
}

/// An interaction's `time`, a CMITime: `HH:MM:SS` of the learner's clock.
pub fn clock(h: u32, m: u32, s: u32) -> String {
    format!("{:02}:{:02}:{:02}", h % 24, m % 60, s % 60)
}

/// Text for XML: `&`, `<`, `>` and `"` escaped.
#[cfg(not(target_arch = "wasm32"))]
fn xml(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The package's `imsmanifest.xml` (SCORM 1.2): one organization with one
/// item, launching `index.html`, one resource (a SCO) listing every file.
/// Written at build time by the command line (`sensei-lab scorm-manifest`).
#[cfg(not(target_arch = "wasm32"))]
pub fn manifest(slug: &str, title: &str, files: &[String], mastery: Option<u32>) -> String {
    let id = identifier(slug);
    let mastery = mastery.map_or(String::new(), |m| {
        format!("\n        <adlcp:masteryscore>{m}</adlcp:masteryscore>")
    });
    let mut listed: Vec<&String> = files.iter().collect();
    listed.sort();
    listed.dedup();
    let files: String = listed
        .iter()
        .map(|f| format!("      <file href=\"{}\"/>\n", xml(f)))
        .collect();
    format!(
        r#"<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="sensei-lab-{id}" version="1.0"
    xmlns="http://www.imsproject.org/xsd/imscp_rootv1p1p2"
    xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2"
    xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
    xsi:schemaLocation="http://www.imsproject.org/xsd/imscp_rootv1p1p2 imscp_rootv1p1p2.xsd http://www.imsglobal.org/xsd/imsmd_rootv1p2p1 imsmd_rootv1p2p1.xsd http://www.adlnet.org/xsd/adlcp_rootv1p2 adlcp_rootv1p2.xsd">
  <metadata>
    <schema>ADL SCORM</schema>
    <schemaversion>1.2</schemaversion>
  </metadata>
  <organizations default="org-{id}">
    <organization identifier="org-{id}">
      <title>{title}</title>
      <item identifier="item-{id}" identifierref="res-{id}" isvisible="true">
        <title>{title}</title>{mastery}
      </item>
    </organization>
  </organizations>
  <resources>
    <resource identifier="res-{id}" type="webcontent" adlcp:scormtype="sco" href="index.html">
{files}    </resource>
  </resources>
</manifest>
"#,
        title = xml(title),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lesson() -> &'static crate::lesson::Lesson {
        crate::lesson::find("timeouts-reintentos-idempotencia").unwrap()
    }

    #[test]
    fn the_lesson_counts_nine_exercises_and_a_task_per_widget() {
        let c = Checkable::of_lesson(lesson(), 0);
        assert_eq!(c.exercises.len(), 9);
        assert_eq!(c.tasks.len(), 15);
        assert!(c.exercises.iter().all(|e| e.1 == 0 && e.2 > 0));
        // A class's variant counts only where an exercise has variants (1, 3 and 9 have none).
        let k = Checkable::of_lesson(lesson(), 17);
        for (n, v, _) in &k.exercises {
            assert_eq!(*v, if [1, 3, 9].contains(n) { 0 } else { 17 }, "exercise {n}");
        }
    }

    #[test]
    fn status_goes_from_incomplete_to_passed_or_failed() {
        let c = Checkable::of_lesson(lesson(), 0);
        let mut p = Progress::new();
        let s = standing(&p, &c);
        assert_eq!((s.right, s.all_checked), (0, false));
        assert_eq!(status(&s, Some(80)), "incomplete");
        assert_eq!(raw_score(&s), "0");
        // Every exercise checked with nothing right, every task missed: failed.
        for &(n, v, parts) in &c.exercises {
            p.record(n, v, &[], parts);
        }
        for t in &c.tasks {
            p.record_task(t, false, "x");
        }
        let s = standing(&p, &c);
        assert!(s.all_checked);
        assert_eq!(status(&s, Some(80)), "failed");
        assert_eq!(status(&s, None), "completed");
        // Every part right: passed, 100.
        for (i, &(n, v, parts)) in c.exercises.iter().enumerate() {
            let ids: Vec<String> = crate::exercise::build(n, v)
                .unwrap()
                .parts
                .iter()
                .map(|p| p.id.clone())
                .collect();
            assert_eq!(ids.len() as u32, parts, "exercise {}", i + 1);
            p.record(n, v, &ids, parts);
        }
        for t in &c.tasks {
            p.record_task(t, true, "y");
        }
        let s = standing(&p, &c);
        assert_eq!((s.right, s.total), (s.total, s.total));
        assert_eq!(raw_score(&s), "100");
        assert_eq!(status(&s, Some(80)), "passed");
        // Parts right in another variant do not count for this package.
        let mut other = Progress::new();
        other.record(2, 5, &["w1".into()], 7);
        assert_eq!(standing(&other, &c).right, 0);
    }

    /// Exercise 4 all wrong, its solution opened, its answers typed: the
    /// score does not move, though every part is right on the page and the
    /// status (which counts checks) goes on; a task likewise.
    #[test]
    fn what_was_revealed_adds_nothing_to_the_score() {
        let c = Checkable::of_lesson(lesson(), 0);
        let ex = crate::exercise::build(4, 0).unwrap();
        let ids: Vec<String> = ex.parts.iter().map(|p| p.id.clone()).collect();
        let parts = ids.len() as u32;
        let mut p = Progress::new();
        let wrong: Vec<(String, String, bool)> = ids.iter().map(|id| (id.clone(), "1".into(), false)).collect();
        p.record_check(4, 0, &wrong, parts);
        let before = standing(&p, &c);
        assert_eq!((before.right, raw_score(&before).as_str()), (0, "0"));
        p.reveal(4, 0, &ids);
        // The solution's answers, typed: each part checked with the lesson's own value.
        let right: Vec<(String, String, bool)> = ex
            .parts
            .iter()
            .map(|part| {
                let typed = crate::exercise::expected_text(part);
                let mark = crate::exercise::check_part(part, &typed);
                (part.id.clone(), typed, mark.is_right())
            })
            .collect();
        assert!(right.iter().all(|r| r.2), "{right:?}");
        p.record_check(4, 0, &right, parts);
        assert_eq!(p.right(4, 0), ids.len());
        assert_eq!(standing(&p, &c), before);
        // The interaction is still recorded as right.
        let i = part_interaction(4, 0, &ex.parts[0], &right[0].1, &Mark::Right { read: "9".into() }).unwrap();
        assert_eq!(i.result, "correct");
        // Right before the opening: the credit stays. Exercise 2, one part right, then the solution.
        let two = crate::exercise::build(2, 0).unwrap();
        let first = two.parts[0].id.clone();
        p.record_check(2, 0, &[(first.clone(), "x".into(), true)], two.parts.len() as u32);
        let with_one = standing(&p, &c);
        assert_eq!(with_one.right, 1);
        p.reveal(2, 0, &two.parts.iter().map(|q| q.id.clone()).collect::<Vec<_>>());
        assert_eq!(standing(&p, &c), with_one);
        // The herd's task: a wrong 425 shows «700»; 700 then earns nothing.
        p.record_task("herd/el-doble", false, "425");
        p.reveal_task("herd/el-doble");
        p.record_task("herd/el-doble", true, "700");
        assert_eq!(standing(&p, &c).right, 1);
        // Another task right at once: it counts.
        p.record_task("layers/cuatro-capas", true, "4^4");
        assert_eq!(standing(&p, &c).right, 2);
    }

    #[test]
    fn solutions_open_as_the_package_says() {
        use Solutions::*;
        assert_eq!(Solutions::from_word("checked"), Checked);
        assert_eq!(Solutions::from_word("never"), Never);
        assert_eq!(Solutions::from_word("always"), Always);
        assert_eq!(Solutions::from_word("¿?"), Always);
        assert_eq!(Solutions::default(), Always);
        // Always: after one check (or parts right from before).
        assert!(Always.closed_because(false, false).is_some());
        assert_eq!(Always.closed_because(true, false), None);
        // Checked: only once every part was answered and checked.
        assert!(Checked.closed_because(true, false).unwrap().contains("cada parte"));
        assert_eq!(Checked.closed_because(true, true), None);
        assert_eq!(Checked.closed_because(false, true), None);
        // Never: never, and it says why.
        assert!(Never.closed_because(true, true).unwrap().contains("docente"));
    }

    #[test]
    fn passed_as_soon_as_the_mastery_score_is_reached() {
        let s = |right, total| Standing {
            right,
            total,
            all_checked: false,
        };
        assert_eq!(status(&s(8, 10), Some(80)), "passed");
        assert_eq!(status(&s(79, 100), Some(80)), "incomplete");
        assert_eq!(status(&s(0, 0), Some(0)), "incomplete");
        assert_eq!(raw_score(&s(1, 3)), "33.3");
        assert_eq!(raw_score(&s(2, 3)), "66.6");
        assert_eq!(raw_score(&s(9_999, 10_000)), "99.9");
    }

    #[test]
    fn the_lms_mastery_score_is_read_as_a_whole_percentage() {
        assert_eq!(mastery_of("80"), Some(80));
        assert_eq!(mastery_of(" 79.5 "), Some(80));
        assert_eq!(mastery_of("25.0"), Some(25));
        assert_eq!(mastery_of("100"), Some(100));
        assert_eq!(mastery_of("250"), Some(100));
        for bad in ["", "-5", "abc", "8a", ".5", "1e2"] {
            assert_eq!(mastery_of(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn times_in_scorm_formats() {
        assert_eq!(timespan(0.0), "0000:00:00.00");
        assert_eq!(timespan(3_723_456.0), "0001:02:03.45");
        assert_eq!(timespan(-5.0), "0000:00:00.00");
        assert_eq!(clock(9, 5, 7), "09:05:07");
    }

    #[test]
    fn identifiers_and_responses_fit_scorm_1_2() {
        assert_eq!(identifier("tarea-herd/el-doble"), "tarea-herd_el-doble");
        assert_eq!(identifier("año 2"), "a_o_2");
        assert_eq!(identifier(""), "_");
        assert_eq!(identifier(&"x".repeat(400)).len(), 255);
        let long = "é".repeat(300);
        assert_eq!(cut(&long, MAX_RESPONSE).chars().count(), 255);
        let t = task_interaction("hedging/cola-corta", "", "hedge-pct=50", true);
        assert_eq!((t.response.as_str(), t.result), ("hedge-pct=50", "correct"));
    }

    #[test]
    fn a_part_checked_is_an_interaction_in_scorm_1_2_words() {
        let ex = crate::exercise::build(4, 0).unwrap();
        let p = &ex.parts[0];
        let right = Mark::Right { read: "9".into() };
        let wrong = Mark::Wrong {
            read: "7".into(),
            hint: None,
        };
        let i = part_interaction(4, 0, p, " 9 ", &right).unwrap();
        assert_eq!(i.id, format!("ej4-v0-{}", p.id));
        assert_eq!((i.kind, i.response.as_str(), i.result), ("fill-in", "9", "correct"));
        assert_eq!(part_interaction(4, 0, p, "7", &wrong).unwrap().result, "wrong");
        assert_eq!(
            part_interaction(4, 0, p, "zzz", &Mark::Unreadable("zzz".into()))
                .unwrap()
                .result,
            "unanticipated"
        );
        assert_eq!(part_interaction(4, 0, p, "  ", &Mark::Empty), None);
    }

    #[test]
    #[cfg(not(target_arch = "wasm32"))]
    fn the_manifest_lists_every_file_once_under_one_sco() {
        let files = vec!["index.html".to_string(), "a&b.js".into(), "index.html".into()];
        let m = manifest(
            "timeouts-reintentos-idempotencia",
            "Timeouts <y> reintentos",
            &files,
            Some(80),
        );
        assert!(m.contains("<schemaversion>1.2</schemaversion>"));
        assert!(m.contains(r#"adlcp:scormtype="sco" href="index.html""#));
        assert!(m.contains("<adlcp:masteryscore>80</adlcp:masteryscore>"));
        assert!(m.contains("<title>Timeouts &lt;y&gt; reintentos</title>"));
        assert_eq!(m.matches("<file href=\"index.html\"/>").count(), 1);
        assert!(m.contains("<file href=\"a&amp;b.js\"/>"));
        assert!(!manifest("x", "t", &files, None).contains("masteryscore"));
    }
}
