//! The nine exercises: the lesson's own text at variant 0, every expected
//! answer accepted in the forms people type, typical mistakes recognised,
//! and variants that stay sensible over thousands of seeds.

#![cfg(not(target_arch = "wasm32"))]

use sensei_lab::exercise::answer::Unit;
use sensei_lab::exercise::{
    build, check, check_part, has_variants, variant_from_text, Exercise, Expect, Mark, Part, COUNT,
};

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
    all_right(6, &["44 en vuelo", "36.4", "64", "C"]);
    all_right(6, &["44", "36 por segundo", "64%", "c)"]);
    all_right(7, &["12:00:05", "2,500", "15,000", "b"]);
    all_right(7, &["≈ 5 s", "≈ 2500", "15000", "la b"]);
    all_right(8, &["800 ms", "0.09 %", "90 ms", "5 %", "no", "94.5 %"]);
    all_right(8, &["0.8 s", "0.09", "≈ 90", "5", "No, que no", "94.5"]);
    all_right(9, &["b", "b", "c", "b"]);
}

fn wrong_with(n: u32, part: &str, answer: &str, says: &str) {
    let ex = build(n, 0).unwrap();
    let p = ex.parts.iter().find(|p| p.id == part).expect("part");
    match check_part(p, answer) {
        Mark::Wrong { hint: Some(m), .. } => assert!(m.contains(says), "exercise {n} ({part}) «{answer}»: {m}"),
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
    assert!(matches!(check_part(served, "44"), Mark::Wrong { .. }));
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

fn part(n: u32, id: &str) -> Part {
    build(n, 0)
        .unwrap()
        .parts
        .into_iter()
        .find(|p| p.id == id)
        .expect("part")
}

/// The mark of `answer` in exercise `n`'s part `id`, and what it says was read.
fn marked(n: u32, id: &str, answer: &str) -> (Mark, String) {
    let m = check_part(&part(n, id), answer);
    let read = m.read().unwrap_or_default().to_string();
    (m, read)
}

#[test]
fn powers_and_multipliers_as_people_type_them() {
    // Exercise 4: (a) 3² = 9 attempts, (b) 2⁴ = 16; 4,500 and 8,000 per second.
    for t in ["3^2", "3**2", "3 ^ 2", "3 ** 2", "3²", "≈ 3^2 intentos"] {
        let (m, read) = marked(4, "a1", t);
        assert!(m.is_right(), "«{t}»: {m:?}");
        assert_eq!(read, "9");
    }
    for t in ["2^4", "2**4", "2 ^ 4", "2⁴"] {
        assert!(marked(4, "b1", t).0.is_right(), "«{t}»");
    }
    for t in ["4.5k", "4.5 mil", "4.5 mil por segundo", "4.5K/s", "4,500"] {
        let (m, read) = marked(4, "a2", t);
        assert!(m.is_right(), "«{t}»: {m:?}");
        assert_eq!(read, "4,500 por segundo");
    }
    assert!(marked(4, "b2", "8 mil por segundo").0.is_right());
    // Exercise 7: (b) ≈ 2,500 requests, (c) 15,000.
    for t in ["15 mil", "15k", "15K", "15 k", "15 mil requests"] {
        let (m, read) = marked(7, "c", t);
        assert!(m.is_right(), "«{t}»: {m:?}");
        assert_eq!(read, "15,000");
    }
    for t in ["2.5k", "2.5 mil", "2,500 requests"] {
        assert!(marked(7, "b", t).0.is_right(), "«{t}»");
    }
    // Exercise 2: at most 2,500 ms in all.
    for t in ["2.5k ms", "2.5k", "2.5 s", "2.5 mil ms"] {
        let (m, read) = marked(2, "max", t);
        assert!(m.is_right(), "«{t}»: {m:?}");
        assert_eq!(read, "2,500 ms");
    }
}

#[test]
fn a_letter_is_never_dropped() {
    // «2500k» is 2,500,000, not 2,500.
    let (m, read) = marked(7, "b", "2500k");
    assert!(matches!(m, Mark::Wrong { .. }), "{m:?}");
    assert_eq!(read, "2,500,000");
    for (n, id, t, what) in [
        (7, "b", "2500x", "x"),
        (7, "c", "15 miles", "miles"),
        (2, "max", "2500 x", "x"),
        (4, "a2", "4,500 por hora", "por hora"),
        (6, "rejected", "64 % de las requests", "de las requests"),
        (4, "a1", "3^", "^"),
    ] {
        match marked(n, id, t).0 {
            Mark::Unreadable(s) => {
                assert!(
                    s.starts_with(&format!("No entendí «{what}»; se esperaba ")),
                    "«{t}»: {s}"
                )
            }
            other => panic!("«{t}»: {other:?}"),
        }
    }
}

#[test]
fn a_bare_number_in_a_percent_field_is_a_percentage() {
    // Exercise 8 (b): 0.09 % stay slow.
    for t in ["0.09", "0.09 %", "0.09%", "≈ 0.09"] {
        let (m, read) = marked(8, "b1", t);
        assert!(m.is_right(), "«{t}»: {m:?}");
        assert_eq!(read, "0.09 %");
    }
    // Exercise 6: 64 % rejected; 16 is 16 %.
    assert!(marked(6, "rejected", "64").0.is_right());
    assert_eq!(marked(6, "rejected", "16").1, "16 %");
    assert_eq!(marked(6, "rejected", "16 %").1, "16 %");
    // The same share written as a fraction is read as a percentage, and the hint says so.
    let (m, read) = marked(8, "b1", "0.0009");
    assert_eq!(read, "0.0009 %");
    assert_eq!(
        m.hint(),
        Some("¿Quisiste escribir 0.09 %? Aquí un número solo ya es un porcentaje.")
    );
    assert_eq!(
        marked(6, "rejected", "0.64").0.hint(),
        Some("¿Quisiste escribir 64 %? Aquí un número solo ya es un porcentaje.")
    );
    assert!(marked(8, "b3", "0.05").0.hint().unwrap().contains("5 %"));
}

#[test]
fn a_thousands_dot_is_a_decimal_point_and_the_hint_says_so() {
    let (m, read) = marked(7, "b", "2.500");
    assert_eq!(read, "2.5");
    assert_eq!(
        m.hint(),
        Some("¿Quisiste escribir 2,500? Aquí el punto separa decimales.")
    );
    let (m, read) = marked(2, "max", "2.500");
    assert_eq!(read, "2.5 ms");
    assert_eq!(
        m.hint(),
        Some("¿Quisiste escribir 2,500 ms? Aquí el punto separa decimales.")
    );
    assert!(marked(7, "c", "15.000")
        .0
        .hint()
        .unwrap()
        .starts_with("¿Quisiste escribir 15,000?"));
    // Where ×1000 is not right either, nothing is offered.
    assert_eq!(marked(7, "b", "3.500").0.hint(), None);
}

#[test]
fn each_answer_is_shown_as_read() {
    assert_eq!(marked(2, "w1", "100").1, "100 ms");
    assert_eq!(marked(2, "w1", "0.1 s").1, "100 ms");
    assert_eq!(marked(7, "a", "≈ 5 s").1, "12:00:05");
    assert_eq!(marked(7, "a", "12:00:05").1, "12:00:05");
    assert_eq!(marked(1, "a", "si, claro").1, "sí");
    assert_eq!(marked(9, "a", "(b)").1, "b");
    assert_eq!(marked(9, "a", "").0, Mark::Empty);
    match marked(9, "a", "f").0 {
        Mark::Unreadable(s) => assert_eq!(s, "No hay opción «f»; se esperaba una de las letras a, b o c."),
        other => panic!("{other:?}"),
    }
}

/// `x` written in `unit` to nine decimals (a learner's exact answer, not rounded as `format` rounds).
fn exact(x: f64, unit: Unit) -> String {
    use sensei_lab::fmt::es_dec;
    match unit {
        Unit::Share => format!("{} %", es_dec(x * 100.0, 9)),
        Unit::Clock => format!("{} s", es_dec(x, 9)),
        Unit::Ms => format!("{} ms", es_dec(x, 9)),
        Unit::Rate => format!("{} por segundo", es_dec(x, 9)),
        _ => es_dec(x, 9),
    }
}

fn typed(e: &Expect, unit: Unit) -> String {
    match e {
        Expect::Number(x) => exact(*x, unit),
        Expect::YesNo(b) => (if *b { "sí" } else { "no" }).to_string(),
        Expect::Choice(c) => c.to_string(),
    }
}

/// Over tens of thousands of variants, every hint is true: the right value
/// is right, a mistake's value is never right and gets that mistake's own
/// hint, and no answer gets the hints of two mistakes (between two mistakes'
/// values, an answer gets the nearer one's, or none) unless the two give the
/// very same value, when both are said. Those coincidences are printed
/// (`cargo test --release --test exercises every_hint -- --nocapture`).
#[test]
fn every_hint_belongs_to_its_own_mistake() {
    // All 21,000 variants in a release build; every 7th in a debug build (3,000 per exercise, ≈ 4 s; all take ≈ 25 s).
    let stride = if cfg!(debug_assertions) { 7 } else { 1 };
    let mut coincidences: Vec<(String, Vec<u32>)> = Vec::new();
    let mut checked = 0usize;
    for n in 1..=COUNT {
        let vs: Vec<u32> = if has_variants(n) {
            (0..21_000).step_by(stride).collect()
        } else {
            vec![0]
        };
        for v in vs {
            let ex = build(n, v).unwrap();
            for p in &ex.parts {
                let right = typed(&p.expect, p.unit);
                assert!(
                    check_part(p, &right).is_right(),
                    "exercise {n} v{v} part {}: «{right}» is right",
                    p.id
                );
                for m in &p.mistakes {
                    let text = typed(&m.answer, p.unit);
                    let mark = check_part(p, &text);
                    let at = |what: &str| format!("exercise {n} v{v} part {}: «{text}» {what}: {mark:?}", p.id);
                    assert!(!mark.is_right(), "{}", at("a mistake accepted as right"));
                    let same_value: Vec<&str> = p
                        .mistakes
                        .iter()
                        .filter(|o| o.message != m.message)
                        .filter(|o| match (&m.answer, &o.answer) {
                            (Expect::Number(a), Expect::Number(b)) => (a - b).abs() <= 1e-9,
                            (a, b) => a == b,
                        })
                        .map(|o| o.message.as_str())
                        .collect();
                    if same_value.is_empty() {
                        assert_eq!(
                            mark.hint(),
                            Some(m.message.as_str()),
                            "{}",
                            at("should say its own mistake")
                        );
                    } else {
                        let hint = mark.hint().unwrap_or_default();
                        assert!(
                            hint.contains(&m.message) && same_value.iter().all(|o| hint.contains(o)),
                            "{}",
                            at("should say every mistake that gives it")
                        );
                        let mut all = same_value.clone();
                        all.push(&m.message);
                        all.sort_unstable();
                        let key = format!("exercise {n} part {}: «{}»", p.id, all.join("» = «"));
                        match coincidences.iter_mut().find(|(k, _)| *k == key) {
                            Some((_, vs)) if vs.last() != Some(&v) => vs.push(v),
                            Some(_) => {}
                            None => coincidences.push((key, vec![v])),
                        }
                    }
                    checked += 1;
                    // Between this mistake's value and another's, never the hints of both.
                    let Expect::Number(a) = m.answer else { continue };
                    for o in p.mistakes.iter().filter(|o| o.message != m.message) {
                        let Expect::Number(b) = o.answer else { continue };
                        if (a - b).abs() <= 1e-9 {
                            continue;
                        }
                        for k in [1.0, 2.0, 3.0] {
                            let x = a + (b - a) * k / 8.0;
                            let mark = check_part(p, &exact(x, p.unit));
                            assert!(
                                !mark
                                    .hint()
                                    .is_some_and(|h| h.starts_with("Esa respuesta puede venir de")),
                                "exercise {n} v{v} part {}: {x} between {a} and {b}: {mark:?}",
                                p.id
                            );
                            // If anything, the nearest mistake's hint.
                            let nearest = p
                                .mistakes
                                .iter()
                                .filter_map(|o| match o.answer {
                                    Expect::Number(y) => Some(((y - x).abs(), o.message.as_str())),
                                    _ => None,
                                })
                                .fold((f64::INFINITY, ""), |a, b| if b.0 < a.0 { b } else { a });
                            if let Some(h) = mark.hint() {
                                assert_eq!(h, nearest.1, "exercise {n} v{v} part {}: {x} between {a} and {b}", p.id);
                            }
                        }
                    }
                }
            }
        }
    }
    assert!(checked > 60_000 / stride, "{checked} mistakes checked");
    for (k, vs) in &coincidences {
        eprintln!("{k}: {} variants, e.g. {:?}", vs.len(), &vs[..vs.len().min(8)]);
    }
}

/// Exercise 6's «parte que se atiende» answers only the share that is served,
/// not every rejected share from 0 % to 60 %; exercise 8 (b)'s «se multiplican»
/// answers only 3 % and 6 %.
#[test]
fn a_hint_is_not_given_to_answers_its_mistake_does_not_produce() {
    let rejected = part(6, "rejected");
    let Expect::Number(r) = rejected.expect else { panic!() };
    for pct in 0..=100 {
        let share = f64::from(pct) / 100.0;
        let hint = check_part(&rejected, &format!("{pct} %"));
        let served = ((1.0 - r) - share).abs() <= 0.02 + 1e-9;
        assert_eq!(
            hint.hint().is_some_and(|h| h.contains("se atiende")),
            served && !hint.is_right(),
            "{pct} %: {hint:?}"
        );
    }
    let slow = part(8, "b1");
    for t in ["1 %", "2 %", "4 %", "5 %", "10 %", "0.5 %"] {
        assert_eq!(check_part(&slow, t).hint(), None, "«{t}»");
    }
    assert!(check_part(&slow, "3 %").hint().unwrap().contains("se multiplican"));
    assert!(check_part(&slow, "6 %")
        .hint()
        .unwrap()
        .contains("se multiplican, no se suman"));
}

#[test]
fn a_variant_in_a_url_is_read_leniently_and_said_when_it_cannot_be() {
    let v = |t: &str| variant_from_text(t, "La versión");
    assert_eq!(v("17"), (17, None));
    assert_eq!(v("0"), (0, None));
    assert_eq!(v(""), (0, None));
    assert_eq!(v("999999"), (999_999, None));
    assert_eq!(v("1,000"), (1_000, None));
    assert_eq!(
        v("-1"),
        (
            0,
            Some("La versión «-1» no existe (van de 0 a 999,999); se muestran los números de la lección.".into())
        )
    );
    for big in ["2000000", "1e309", "99999999999999999999"] {
        let (n, note) = v(big);
        assert_eq!(n, 999_999, "{big}");
        assert_eq!(
            note.unwrap(),
            format!("La versión «{big}» no existe (van de 0 a 999,999); se muestra la 999,999.")
        );
    }
    for garbage in ["NaN", "abc", "diez", "1x"] {
        let (n, note) = v(garbage);
        assert_eq!(n, 0, "{garbage}");
        assert_eq!(
            note.unwrap(),
            format!(
                "La versión «{garbage}» no es un número (van de 0 a 999,999); se muestran los números de la lección."
            )
        );
    }
    assert!(v("2.5").1.unwrap().contains("sin decimales"));
    assert_eq!(v("%2D1").0, 0, "percent-encoded -1");
    assert!(v("%2D1").1.unwrap().contains("«-1»"));
    let (_, note) = variant_from_text("x", "La versión de la clase");
    assert!(note.unwrap().starts_with("La versión de la clase «x» no es un número"));
}
