//! The whole text of the lesson is in `lessons/`: every line of the source
//! export (in `../shared/lesson/`) is found in the markdown or in the
//! programs, and the parts NOTES.md lists come in order as sections.

#![cfg(not(target_arch = "wasm32"))]

use sensei_lab::lesson;

const SLUG: &str = "timeouts-reintentos-idempotencia";

fn normalise(s: &str) -> String {
    s.replace("**", "")
        .replace("> ", "")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn every_line_of_the_source_is_in_the_lesson() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../shared/lesson/timeouts-reintentos-idempotencia.txt"
    );
    let Ok(source) = std::fs::read_to_string(path) else {
        // CI has the source beside the clone (and says `CI=true`): there its absence is a failure,
        // not a test that passes for want of something to compare.
        assert!(
            std::env::var_os("CI").is_none(),
            "{path} is not here: the lesson's source must be beside the clone in CI"
        );
        eprintln!("note: {path} is not here (it is beside the clone in CI and in sessions); nothing to compare");
        return;
    };
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/lessons/timeouts-reintentos-idempotencia");
    let mut ours = String::new();
    for f in ["leccion.md", "manada.py", "llave.py"] {
        ours.push_str(&std::fs::read_to_string(format!("{dir}/{f}")).unwrap());
        ours.push('\n');
    }
    // The two printed outputs are computed by the core, not copied.
    ours.push_str(&sensei_lab::sim::herd::lesson_program_output().join("\n"));
    ours.push('\n');
    ours.push_str(&sensei_lab::sim::idempotency::lesson_program_output("Tenis naranjas", 7).join("\n"));
    let ours = normalise(&ours);
    let exercise_head = |l: &str| {
        let b = l.as_bytes();
        b.len() > 4 && b[0].is_ascii_digit() && &l[1..3] == ". " && b[3] == b[0]
    };
    let mut missing = Vec::new();
    for line in source.lines().skip(1) {
        let mut l = line.trim().trim_start_matches("• ").to_string();
        if l.is_empty() || l == "Ver la solución paso a paso" {
            continue;
        }
        if exercise_head(&l) {
            // «1. 1Fácil» became «### Ejercicio 1 · Fácil»; «1. 1¿Por qué…?Ver respuesta» a question heading.
            l = l[4..].trim_end_matches("Ver respuesta").to_string();
            if ["Fácil", "Medio", "Reto"].contains(&l.as_str()) {
                continue;
            }
        }
        if !ours.contains(&normalise(&l)) {
            missing.push(l);
        }
    }
    assert!(missing.is_empty(), "lines of the lesson not in lessons/: {missing:#?}");
}

#[test]
fn the_parts_are_sections_in_order() {
    let l = lesson::find(SLUG).expect("the lesson is embedded");
    let parts: Vec<&str> = l.toc().filter(|s| s.level == 2).map(|s| s.id.as_str()).collect();
    let expected = [
        "timeouts",
        "deadlines",
        "trabajo-zombi",
        "reintentos",
        "que-dice-cada-falla",
        "problema-del-timeout",
        "c01-sin-reintentos",
        "backoff-y-jitter",
        "retry-after",
        "tormentas",
        "presupuesto",
        "idempotencia",
        "caida-larga",
        "load-shedding",
        "hedging",
        "degradacion",
        "abierto-o-cerrado",
        "errores-comunes",
        "ejercicios",
        "a-donde-seguir",
        "conceptos",
        "repaso",
    ];
    assert_eq!(parts, expected);
    let subs = |prefix: &str| l.toc().filter(|s| s.id.starts_with(prefix)).count();
    assert_eq!(subs("error-"), 6);
    assert_eq!(subs("ejercicio-"), 9);
    assert_eq!(subs("pregunta-"), 6);
}

#[test]
fn directives_are_valid_and_placed() {
    assert!(
        sensei_lab::exercise::check_lessons().is_empty(),
        "{:#?}",
        sensei_lab::exercise::check_lessons()
    );
    let l = lesson::find(SLUG).unwrap();
    let herd = l.section("la-manada").unwrap();
    let text = format!("{:?}", herd.blocks);
    let said = text.find("Esta simulación lo muestra").unwrap();
    let widget = text.find("name: \"widget\"").unwrap();
    assert!(said < widget, "the widget follows «Esta simulación lo muestra»");
    // Each solution and answer is behind a «Ver …» container.
    let containers = l.directives().into_iter().filter(|d| d.name == "details").count();
    assert_eq!(containers, 9 + 6);
}
