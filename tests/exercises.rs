//! The nine exercises: the lesson's own text at variant 0, every expected
//! answer accepted in the forms people type, typical mistakes recognised,
//! and variants that stay sensible over thousands of seeds.

#![cfg(not(target_arch = "wasm32"))]

use sensei_lab::exercise::{build, check, check_part, has_variants, Exercise, Expect, Mark, COUNT};

fn norm(s: &str) -> String {
    s.replace("**", "").split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The statement and the solution's steps of exercise `n`, as `leccion.md` writes them.
fn lesson_text(n: u32) -> (String, Vec<String>) {
    let md = include_str!("../lessons/timeouts-reintentos-idempotencia/leccion.md");
    let head = format!("### Ejercicio {n} ·");
    let start = md.find(&head).expect("heading");
    let rest = &md[start..];
    let body = &rest[rest.find('\n').unwrap() + 1..];
    let end = body.find(":::details").expect("solution");
    let statement = norm(
        &body[..end]
            .lines()
            .filter(|l| !l.starts_with("::::"))
            .collect::<Vec<_>>()
            .join("\n"),
    );
    let sol = &body[end..];
    let sol = &sol[sol.find('\n').unwrap() + 1..];
    let sol = &sol[..sol.find("\n:::").unwrap()];
    let steps = sol.lines().filter_map(|l| l.strip_prefix("- ")).map(norm).collect();
    (statement, steps)
}

#[test]
fn variant_0_is_the_lessons_text() {
    for n in 1..=COUNT {
        let ex = build(n, 0).unwrap();
        let (statement, steps) = lesson_text(n);
        assert_eq!(norm(&ex.statement), statement, "exercise {n}: statement");
        assert_eq!(
            ex.solution.iter().map(|s| norm(s)).collect::<Vec<_>>(),
            steps,
            "exercise {n}: solution"
        );
    }
}

fn marks(ex: &Exercise, answers: &[&str]) -> Vec<Mark> {
    check(ex, &answers.iter().map(|s| s.to_string()).collect::<Vec<_>>())
}

fn all_right(n: u32, answers: &[&str]) {
    let ex = build(n, 0).unwrap();
    assert_eq!(ex.parts.len(), answers.len(), "exercise {n}: parts");
    let m = marks(&ex, answers);
    assert!(m.iter().all(Mark::is_right), "exercise {n}: {answers:?} → {m:?}");
}

/// The answers of the lesson's worked solutions, in several typed forms.
#[test]
fn the_lessons_answers_are_accepted() {
    all_right(1, &["sí", "no", "si", "No", "no, no cabe"]);
    all_right(2, &["100", "200 ms", "0.4 s", "800", "1,000", "2,500", "1,250"]);
    all_right(2, &["100 ms", "200", "400", "800", "1 s", "2.5 s", "1.25 s"]);
    all_right(2, &["100", "200", "400", "800", "1000", "2 500", "≈ 1,250 ms"]);
    all_right(3, &["sí", "sí", "sí", "no", "sí"]);
    all_right(4, &["9", "4,500", "16", "8,000 por segundo"]);
    all_right(4, &["3²", "4500/s", "2⁴", "8000"]);
    all_right(5, &["150", "90 ms", "a"]);
    all_right(5, &["0.15 s", "0.09 s", "(a)"]);
    all_right(6, &["44", "≈ 36", "64 %", "c"]);
    all_right(6, &["44 en vuelo", "36.4", "0.64", "C"]);
    all_right(6, &["44", "36 por segundo", "64%", "c)"]);
    all_right(7, &["12:00:05", "2,500", "15,000", "b"]);
    all_right(7, &["≈ 5 s", "≈ 2500", "15000", "la b"]);
    all_right(8, &["800 ms", "0.09 %", "90 ms", "5 %", "no", "94.5 %"]);
    all_right(8, &["0.8 s", "0.0009", "≈ 90", "0.05", "No, que no", "0.945"]);
    all_right(9, &["b", "b", "c", "b"]);
}

fn wrong_with(n: u32, part: &str, answer: &str, says: &str) {
    let ex = build(n, 0).unwrap();
    let p = ex.parts.iter().find(|p| p.id == part).expect("part");
    match check_part(p, answer) {
        Mark::Wrong(Some(m)) => assert!(m.contains(says), "exercise {n} ({part}) «{answer}»: {m}"),
        other => panic!("exercise {n} ({part}) «{answer}»: {other:?}"),
    }
}

#[test]
fn typical_mistakes_say_what_they_are() {
    // Exercise 4: adding the retries of each layer instead of multiplying them.
    wrong_with(4, "a1", "6", "se multiplican");
    wrong_with(4, "b1", "8", "se multiplican");
    wrong_with(4, "a2", "3,000", "se multiplican");
    // Exercise 2: forgetting the cap.
    wrong_with(2, "max", "3,100", "tope");
    wrong_with(2, "w5", "1,600", "tope");
    wrong_with(2, "mean", "2,500", "la mitad");
    // Exercise 6: Little upside down, forgetting the other work.
    wrong_with(6, "demand", "227", "al revés");
    wrong_with(6, "demand", "40", "resto del trabajo");
    wrong_with(6, "rejected", "36 %", "se atiende");
    // Exercise 1: retrying a 422.
    wrong_with(1, "b", "sí", "422");
    wrong_with(3, "e", "no", "el efecto, no el método");
    wrong_with(5, "b", "150", "min(150, 90)");
    wrong_with(8, "b1", "3 %", "se multiplican");
    wrong_with(9, "a", "c", "2 reembolsos");
}

#[test]
fn empty_is_not_wrong_and_unreadable_says_what_was_expected() {
    let ex = build(6, 0).unwrap();
    let m = marks(&ex, &["", "mucho", "64 %"]);
    assert_eq!(m[0], Mark::Empty);
    assert!(
        matches!(&m[1], Mark::Unreadable(s) if s.contains("por segundo")),
        "{:?}",
        m[1]
    );
    assert!(m[2].is_right());
    assert_eq!(m[3], Mark::Empty, "a missing answer is empty");
    // «≈ 36 por segundo» accepts 36 and 36.4 but not 44.
    let served = &ex.parts[1];
    assert!(check_part(served, "36").is_right() && check_part(served, "36.4").is_right());
    assert!(matches!(check_part(served, "44"), Mark::Wrong(_)));
    // A letter that is not an option.
    assert!(matches!(check_part(&ex.parts[3], "f"), Mark::Unreadable(_)));
}

#[test]
fn variants_stay_sensible() {
    for n in (1..=COUNT).filter(|n| has_variants(*n)) {
        let lesson = build(n, 0).unwrap();
        let mut differ = 0;
        for v in 1..=1_500 {
            let ex = build(n, v).unwrap();
            assert!(ex.parts.len() >= 3);
            if ex.statement != lesson.statement {
                differ += 1;
            }
            // Every part's own expected answer, written as the solution writes it, is accepted.
            for p in &ex.parts {
                let text = sensei_lab::exercise::expected_text(p);
                let typed = match &p.expect {
                    Expect::Choice(c) => c.to_string(),
                    _ => text.clone(),
                };
                assert!(
                    check_part(p, &typed).is_right(),
                    "exercise {n} v{v} part {}: «{typed}» {:?}",
                    p.id,
                    p.expect
                );
                if let Expect::Number(x) = p.expect {
                    assert!(x.is_finite() && x >= 0.0, "exercise {n} v{v} part {}: {x}", p.id);
                }
                // No known mistake is accepted as right.
                for m in &p.mistakes {
                    assert_ne!(m.answer, p.expect, "exercise {n} v{v} part {}", p.id);
                }
            }
            assert!(
                ex.solution.iter().all(|s| !s.contains("NaN") && !s.contains('—')),
                "exercise {n} v{v}"
            );
        }
        assert!(
            differ > 1_000,
            "exercise {n}: variants should change the numbers ({differ})"
        );
    }
}

#[test]
fn variants_with_their_premises() {
    for v in 1..=2_000 {
        // Exercise 5: (a) leaves more than the cap, (b) less, and never a deadline shorter than the work.
        let ex = build(5, v).unwrap();
        let (Expect::Number(a), Expect::Number(b)) = (&ex.parts[0].expect, &ex.parts[1].expect) else {
            panic!()
        };
        assert!(a > b && *b > 0.0, "v{v}: {a} {b}");
        // Exercise 6: something is rejected, and not everything.
        let ex = build(6, v).unwrap();
        let Expect::Number(r) = ex.parts[2].expect else {
            panic!()
        };
        assert!(r > 0.05 && r < 0.95, "v{v}: {r}");
        // Exercise 7: the breaker opens, and about when the solution says.
        let ex = build(7, v).unwrap();
        let Expect::Number(opened) = ex.parts[0].expect else {
            panic!()
        };
        assert!(opened.is_finite() && opened > 0.0, "v{v}: {opened} {}", ex.statement);
    }
}

/// Exercise 7's worked solution uses the lesson's arithmetic (half the
/// window, rps × seconds); the check uses the breaker's simulation. The
/// solution's numbers must pass the check, in every variant.
#[test]
fn exercise_7s_arithmetic_passes_its_simulation() {
    let between = |s: &str, a: &str, b: &str| -> String {
        let i = s.find(a).unwrap_or_else(|| panic!("«{a}» in «{s}»")) + a.len();
        s[i..i + s[i..].find(b).unwrap()].to_string()
    };
    for v in 0..=300 {
        let ex = build(7, v).unwrap();
        let a = between(&ex.solution[0], "≈ ", " s después");
        let b = between(&ex.solution[1], "= ≈ ", " requests");
        let c = between(&ex.solution[2], " = ", ", cada una");
        for (part, text) in ex.parts.iter().zip([format!("{a} s"), b, c]) {
            assert!(
                check_part(part, &text).is_right(),
                "v{v} part {}: «{text}» vs {:?}",
                part.id,
                part.expect
            );
        }
    }
}
