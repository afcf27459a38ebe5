//! The `sensei-lab` command line, as authors and scripts use it.

#![cfg(not(target_arch = "wasm32"))]

use serde_json::Value;
use std::process::{Command, Output};

fn lab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sensei-lab"))
        .args(args)
        .output()
        .unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn herd_prints_the_lessons_line() {
    let o = lab(&[
        "herd",
        "--clients",
        "1000",
        "--capacity",
        "50",
        "--window-ms",
        "10",
        "--base-ms",
        "100",
        "--retries",
        "3",
        "--jitter",
        "full",
        "--seed",
        "7",
    ]);
    assert!(o.status.success());
    assert_eq!(
        stdout(&o),
        "con jitter: 1000 atendidos, 0 se rinden, pico de 61 en 10 ms, 1061 intentos\n"
    );
    let o = lab(&["herd", "--jitter", "none"]);
    assert_eq!(
        stdout(&o),
        "sin jitter: 150 atendidos, 850 se rinden, pico de 1000 en 10 ms, 2850 intentos\n"
    );
}

#[test]
fn every_flag_defaults_to_the_lessons_value() {
    assert_eq!(
        stdout(&lab(&["herd"])),
        stdout(&lab(&["herd", "--jitter", "full", "--seed", "7", "--clients", "1000"]))
    );
}

#[test]
fn json_has_the_integer_fields() {
    let o = lab(&["herd", "--jitter", "none", "--json"]);
    assert!(o.status.success());
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["result"]["served"], 150);
    assert_eq!(v["result"]["gave_up"], 850);
    assert_eq!(v["result"]["peak"], 1000);
    assert_eq!(v["result"]["attempts"], 2850);
    assert_eq!(v["params"]["window-ms"], 10);
    assert_eq!(v["result"]["windows"][0], serde_json::json!([20, 1000]));
}

#[test]
fn out_of_range_is_refused_with_status_2() {
    for (args, needle) in [
        (
            vec!["herd", "--clients", "0"],
            "--clients must be between 1 and 100000 (got 0)",
        ),
        (
            vec!["herd", "--retries", "11"],
            "--retries must be between 1 and 10 (got 11)",
        ),
        (
            vec!["herd", "--cap-ms", "0"],
            "--cap-ms must be between 1 and 600000 (got 0)",
        ),
        (
            vec!["herd", "--window-ms", "5000", "--base-ms", "0"],
            "--base-ms must be between 1 and 10000 (got 0)",
        ),
    ] {
        let o = lab(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(needle), "{args:?}: {err}");
        assert!(o.stdout.is_empty());
    }
    // Values that are not numbers at all are refused by the parser, also with status 2.
    for args in [
        vec!["herd", "--clients", "-5"],
        vec!["herd", "--jitter", "mucho"],
        vec!["herd", "--seed", "99999999999"],
    ] {
        assert_eq!(lab(&args).status.code(), Some(2), "{args:?}");
    }
}

#[test]
fn idempotency_prints_the_two_lines() {
    let o = lab(&["idempotency"]);
    assert_eq!(
        stdout(&o),
        "sin llave: publicación #2 · guardadas: ['Tenis naranjas', 'Tenis naranjas']\ncon llave: publicación #1 · guardadas: ['Tenis naranjas']\n"
    );
}

#[test]
fn lessons_lists_and_checks() {
    let o = lab(&["lessons", "--json"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v[0]["slug"], "timeouts-reintentos-idempotencia");
}

#[test]
fn timeouts_and_capacity_subcommands() {
    let o = lab(&["clocks", "--total-timeout-ms", "none"]);
    assert_eq!(
        stdout(&o),
        "Ningún reloj se dispara y la espera no tiene fin.\nLos pedazos siguen llegando sin fin: no hay un final antes del cual contarlos.\n"
    );
    // At the lesson's values: connected at 1 ms, a piece every 9 s (9.001, 18.001, 27.001 s), cut by
    // the total timeout at 30 s: 3 pieces (the page's line under the chart).
    assert!(stdout(&lab(&["clocks"])).ends_with("\nPedazos recibidos antes del final: 3.\n"));
    let v: Value = serde_json::from_str(&stdout(&lab(&["clocks", "--json"]))).unwrap();
    assert_eq!(v["result"]["outcome"]["kind"], "total_timeout");
    assert_eq!(v["result"]["outcome"]["at_ms"], 30_000);

    let text = stdout(&lab(&["inflight", "--timeout-ms", "400"]));
    assert!(
        text.contains("100 por segundo × 0.44 s = 44 en vuelo, contra 16 lugares"),
        "{text}"
    );
    assert!(text.contains("≈ 64 %"), "{text}");
    let text = stdout(&lab(&["inflight", "--timeout-ms", "400", "--max-inflight", "none"]));
    assert!(text.contains("= 44 en vuelo (sin tope)"), "{text}");
    let v: Value = serde_json::from_str(&stdout(&lab(&["inflight", "--json"]))).unwrap();
    assert_eq!(v["result"]["formula"]["service_inflight"], 75.0);
    assert_eq!(v["result"]["table"][1]["timeout_ms"], 5000);
    assert!(stdout(&lab(&["inflight", "--max-inflight", "none", "--json"])).contains("\"max-inflight\":null"));

    let text = stdout(&lab(&["chain", "--prep-ms", "160"]));
    assert!(text.contains("min(150, 90) = 90 ms"), "{text}");
    let v: Value = serde_json::from_str(&stdout(&lab(&["chain", "--json"]))).unwrap();
    assert_eq!(v["result"]["call_timeout_ms"], 150);

    for args in [
        vec!["inflight", "--rps", "0"],
        vec!["chain", "--prep-ms", "70000"],
        vec!["clocks", "--gap-ms", "999999999"],
    ] {
        let o = lab(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(
            String::from_utf8_lossy(&o.stderr).contains("must be between"),
            "{args:?}"
        );
    }
    assert_eq!(lab(&["clocks", "--read-timeout-ms", "soon"]).status.code(), Some(2));
}

#[test]
fn hedging_and_shedding_subcommands() {
    let text = stdout(&lab(&["hedging"]));
    assert!(text.contains("p99 800 ms"), "{text}");
    assert!(text.contains("≈ 94.5 %"), "{text}");
    let v: Value = serde_json::from_str(&stdout(&lab(&["hedging", "--hedge-pct", "none", "--json"]))).unwrap();
    assert_eq!(v["result"]["extra_load"], 0.0);
    let v: Value = serde_json::from_str(&stdout(&lab(&["shedding", "--json"]))).unwrap();
    assert_eq!(v["result"]["capacity_rps"], 100.0);
    assert_eq!(v["result"]["shedding"]["late"], 0);
    assert_eq!(lab(&["shedding", "--workers", "0"]).status.code(), Some(2));
    assert_eq!(lab(&["hedging", "--hedge-pct", "100"]).status.code(), Some(2));
}

#[test]
fn retry_calculators() {
    assert!(stdout(&lab(&["backoff"])).contains("total: como máximo 2,500 ms, en promedio 1,250 ms"));
    assert!(stdout(&lab(&["layers"])).contains("1 → 4 → 16 → 64"));
    assert!(stdout(&lab(&["layers", "--layers", "2", "--retries", "2"])).contains("al fondo: 4,500 por segundo"));
    // «Para reintentarlas todas mandaría 100 reintentos por segundo; el presupuesto permite 0.1 × 500 = 50.»
    assert!(stdout(&lab(&["budget"]))
        .contains("mandaría 100 reintentos por segundo; el presupuesto permite 0.1 × 500 = 50."));
    // Issue 22: one attempt has no retries (not «-0.0»), and 0.1 is not «0».
    let one = stdout(&lab(&["budget", "--attempts", "1", "--json"]));
    assert!(!one.contains("-0.0"), "{one}");
    let tiny = stdout(&lab(&["budget", "--rps", "1", "--failing-pct", "100"]));
    assert!(tiny.contains("= 0.1."), "{tiny}");
    let v: Value = serde_json::from_str(&stdout(&lab(&["backoff", "--json", "--cap-ms", "none"]))).unwrap();
    assert_eq!(v["result"]["rows"][4]["max_ms"], 1600.0);
    assert_eq!(lab(&["layers", "--layers", "9"]).status.code(), Some(2));
}

#[test]
fn storm_says_whether_it_recovers() {
    let o = lab(&["storm"]);
    assert!(o.status.success());
    assert!(stdout(&o).contains("no se recupera"), "{}", stdout(&o));
    let o = lab(&["storm", "--retry-in", "bottom", "--budget-pct", "10", "--json"]);
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["result"]["recovered"], true);
    assert_eq!(v["params"]["budget-pct"], 10);
    let o = lab(&["storm", "--layers", "9"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--layers must be between 1 and 4"));
}

#[test]
fn store_plays_exercise_9() {
    let o = lab(&["store", "--scenario", "in-progress", "--in-progress", "wait"]);
    assert!(o.status.success());
    let out = stdout(&o);
    assert!(out.contains("recibe la respuesta del intento 1"), "{out}");
    assert!(
        out.contains("operaciones hechas: 1\nLa operación se hizo una sola vez."),
        "{out}"
    );
    let o = lab(&["store", "--scenario", "expired", "--json"]);
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["result"]["performed"].as_array().unwrap().len(), 2);
    assert!(
        v["result"]["verdict"].as_str().unwrap().contains("la llave venció"),
        "{v}"
    );
    assert_eq!(
        (&v["truncated"], &v["notes"]),
        (&Value::Bool(false), &serde_json::json!([]))
    );
    assert_eq!(lab(&["store", "--ttl-h", "0"]).status.code(), Some(2));
}

#[test]
fn store_plays_the_learners_steps_as_its_page_does() {
    // The page's first case, «otro intento, misma llave», then ◁ (issue 42):
    // the link `?steps=same-key&line=5`. The script is 6 lines; at its 5th,
    // the table and the verdict say 2 operations, at its end 3.
    let o = lab(&["store", "--steps", "same-key", "--line", "5", "--json"]);
    assert!(o.status.success());
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["result"]["rows"].as_array().unwrap().len(), 6);
    assert_eq!(v["result"]["at"]["rows"], 5);
    assert_eq!(v["result"]["at"]["performed"], 2);
    let said = |x: &Value| x.as_str().unwrap().to_string();
    assert!(
        said(&v["result"]["at"]["verdict"][1]).contains("se hizo 2 veces"),
        "{v}"
    );
    assert!(said(&v["result"]["verdict"]).contains("se hizo 3 veces"), "{v}");
    assert_eq!(v["notes"], serde_json::json!([]));
    // A wait is a line of its own; a word that is not a step is left out, and said.
    let o = lab(&["store", "--steps", "wait-5s.jump.no-key"]);
    assert!(o.status.success());
    let out = stdout(&o);
    assert!(out.contains("reloj: el reloj avanza 5 s"), "{out}");
    assert!(out.contains("operaciones hechas: 3"), "{out}");
    let o = lab(&["store", "--steps", "wait-5s.jump.no-key", "--json"]);
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert!(v["notes"].to_string().contains("no se entiende «jump»"), "{v}");
}

#[test]
fn degradation_and_failmode() {
    let o = lab(&["degradation", "--metric", "off"]);
    assert!(stdout(&o).contains("nadie se entera"));
    let o = lab(&["failmode", "--case", "payment", "--mode", "closed", "--json"]);
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["result"]["matches_lesson"], true);
    assert_eq!(lab(&["failmode", "--per-min", "0"]).status.code(), Some(2));
}

#[test]
fn exercise_for_paper() {
    let o = lab(&["exercise", "2"]);
    assert!(o.status.success());
    let out = stdout(&o);
    assert!(out.starts_with("Ejercicio 2 · Fácil"));
    assert!(out.contains("base de 50 ms y tope de 1 s hace 5 reintentos"));
    assert!(!out.contains("2,500"), "no answers without --solutions");
    let o = lab(&["exercise", "2", "--solutions"]);
    assert!(stdout(&o).contains("Máximo total: 100 + 200 + 400 + 800 + 1,000 = 2,500 ms."));
    let a = stdout(&lab(&["exercise", "4", "--variant", "17"]));
    assert_eq!(
        a,
        stdout(&lab(&["exercise", "4", "--variant", "17"])),
        "a variant is reproducible"
    );
    assert!(a.contains("(versión 17)"));
    let v: Value = serde_json::from_str(&stdout(&lab(&["exercise", "6", "--json"]))).unwrap();
    assert_eq!(v["parts"].as_array().unwrap().len(), 4);
    assert!(
        v["parts"][0].get("expect").is_none(),
        "no answers in the JSON without --solutions"
    );
    assert_eq!(lab(&["exercise", "12"]).status.code(), Some(2));
}

/// Every optional flag of every scenario, `--key`, from the registry.
fn optional_flags() -> Vec<(&'static str, &'static str)> {
    use sensei_lab::sim::params::Kind;
    sensei_lab::scenario::ALL
        .iter()
        .flat_map(|s| (s.specs)().iter().map(move |spec| (s.id, spec)))
        .filter(|(_, spec)| matches!(spec.kind, Kind::Int { optional: true, .. }))
        .map(|(id, spec)| (id, spec.key))
        .collect()
}

/// Every scenario of the registry, every parameter: the flag, its help, its
/// default and its bounds on the command line are the spec's; the URL reads
/// the same key and bounds; the JSON's params are the lesson's values.
#[test]
fn every_parameter_is_one_name_with_one_default_and_one_range_everywhere() {
    use sensei_lab::sim::params::{self, Kind};
    let list: Value = serde_json::from_str(&stdout(&lab(&["scenarios", "--json"]))).unwrap();
    assert_eq!(list.as_array().unwrap().len(), sensei_lab::scenario::ALL.len());
    for (s, listed) in sensei_lab::scenario::ALL.iter().zip(list.as_array().unwrap()) {
        let specs = (s.specs)();
        let defaults = (s.defaults)();
        assert_eq!(listed["id"], s.id);
        assert_eq!(listed["params"].as_array().unwrap().len(), specs.len(), "{}", s.id);
        // (clap wraps long help: compared with its spaces and line breaks as one space.)
        let help = stdout(&lab(&[s.id, "--help"]))
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        let budget = s.budget.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(help.contains(&budget), "{}: the work budget in --help", s.id);
        let run: Value = serde_json::from_str(&stdout(&lab(&[s.id, "--json"]))).unwrap();
        assert_eq!(run["scenario"], s.id);
        for key in ["params", "result", "truncated", "notes"] {
            assert!(run.get(key).is_some(), "{}: no «{key}»", s.id);
        }
        assert!(run.get("timing").is_none(), "{}: timing only under --repeat", s.id);
        for (spec, default) in specs.iter().zip(&defaults) {
            let flag = format!("--{}", spec.key);
            let shown = spec.format(default);
            assert!(
                spec.key
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'),
                "{}",
                spec.key
            );
            assert!(!spec.doc.is_empty(), "{} {flag}: no doc", s.id);
            let said = if shown.is_empty() { "empty" } else { shown.as_str() };
            assert!(
                help.contains(&flag) && help.contains(&format!("default: {said}]")),
                "{} {flag}:\n{help}",
                s.id
            );
            // The JSON's params are the lesson's values, under the flag's name.
            let json_value = match default {
                params::Value::Int(i) => serde_json::json!(i),
                params::Value::Unset => Value::Null,
                params::Value::Choice(c) => serde_json::json!(c),
                params::Value::Text(t) => serde_json::json!(t),
            };
            assert_eq!(run["params"][spec.key], json_value, "{} {flag}", s.id);
            // The URL: the same key; the default's query is empty.
            let (v, notes) = params::values_from_query(specs, defaults.clone(), &format!("{}={shown}", spec.key));
            assert_eq!((&v, notes.len()), (&defaults, 0), "{} {flag}", s.id);
            if let Kind::Int { min, max, .. } = spec.kind {
                assert!(
                    matches!(default, params::Value::Unset)
                        || matches!(default, params::Value::Int(d) if (min..=max).contains(d)),
                    "{} {flag}: the lesson's value within its bounds",
                    s.id
                );
                assert!(
                    help.contains(&format!("{min}–{max}")),
                    "{} {flag}: bounds in --help",
                    s.id
                );
                for outside in [min - 1, max + 1] {
                    let o = lab(&[s.id, &flag, &outside.to_string()]);
                    assert_eq!(o.status.code(), Some(2), "{} {flag} {outside}", s.id);
                    assert!(
                        String::from_utf8_lossy(&o.stderr).contains(&format!("{flag} must be between {min} and {max}"))
                    );
                    // The page clamps the same value to the same bound, with a note.
                    let (v, notes) =
                        params::values_from_query(specs, defaults.clone(), &format!("{}={outside}", spec.key));
                    let i = specs.iter().position(|x| x.key == spec.key).unwrap();
                    assert_eq!(v[i], params::Value::Int(outside.clamp(min, max)), "{} {flag}", s.id);
                    assert_eq!(notes.len(), 1, "{} {flag}", s.id);
                }
            } else if let Kind::Choice { options } = spec.kind {
                for (k, _) in options {
                    assert!(help.contains(k), "{} {flag}: «{k}» in --help", s.id);
                }
                assert_eq!(lab(&[s.id, &flag, "nada"]).status.code(), Some(2), "{} {flag}", s.id);
            } else if let Kind::Text { max_chars } = spec.kind {
                // Any text up to its length, a space and a comma too; longer is refused, and cut on the page.
                let fits = format!("a, b {}", "x".repeat(max_chars - 5));
                assert!(lab(&[s.id, &flag, &fits]).status.success(), "{} {flag}", s.id);
                let long = "x".repeat(max_chars + 1);
                let o = lab(&[s.id, &flag, &long]);
                assert_eq!(o.status.code(), Some(2), "{} {flag}", s.id);
                assert!(String::from_utf8_lossy(&o.stderr)
                    .contains(&format!("{flag} must be at most {max_chars} characters")));
                let (v, notes) = params::values_from_query(specs, defaults.clone(), &format!("{}={long}", spec.key));
                let i = specs.iter().position(|x| x.key == spec.key).unwrap();
                assert_eq!(v[i], params::Value::Text("x".repeat(max_chars)), "{} {flag}", s.id);
                assert_eq!(notes.len(), 1, "{} {flag}", s.id);
            } else if let Kind::Events {
                options,
                max_items,
                max_ms,
                lasting,
            } = spec.kind
            {
                // Faults injected while playing: the same list taken by the command line and the URL
                // (in order of time), a moment out of range or an unknown kind refused on the one and
                // clamped or left out, with a note, on the other.
                let i = specs.iter().position(|x| x.key == spec.key).unwrap();
                let k = options[0].0;
                let dur = if lasting.is_some() { "+100" } else { "" };
                let given = format!("{k}@2000{dur}, {k}@1000{dur}");
                let run: Value = serde_json::from_str(&stdout(&lab(&[s.id, &flag, &given, "--json"]))).unwrap();
                let sorted = format!("{k}@1000{dur},{k}@2000{dur}");
                assert_eq!(run["params"][spec.key], serde_json::json!(sorted), "{} {flag}", s.id);
                let (v, notes) = params::values_from_query(
                    specs,
                    defaults.clone(),
                    &format!("{}={}", spec.key, params::percent_encode(&given)),
                );
                assert_eq!(
                    (&v[i], notes.len()),
                    (&params::Value::Text(sorted.clone()), 0),
                    "{} {flag}",
                    s.id
                );
                for bad in [
                    format!("{k}@{}{dur}", max_ms + 1),
                    format!("nada@1000{dur}"),
                    format!("{k}1000"),
                ] {
                    let o = lab(&[s.id, &flag, &bad]);
                    assert_eq!(o.status.code(), Some(2), "{} {flag} {bad}", s.id);
                    let (_, notes) = params::values_from_query(
                        specs,
                        defaults.clone(),
                        &format!("{}={}", spec.key, params::percent_encode(&bad)),
                    );
                    assert_eq!(notes.len(), 1, "{} {flag} {bad}", s.id);
                }
                let many = vec![format!("{k}@1000{dur}"); max_items + 1].join(",");
                assert_eq!(lab(&[s.id, &flag, &many]).status.code(), Some(2), "{} {flag}", s.id);
                assert!(help.contains(k), "{} {flag}: «{k}» in --help", s.id);
            }
        }
    }
}

#[test]
fn an_empty_optional_value_is_refused_and_none_is_taken_everywhere() {
    let flags = optional_flags();
    assert!(flags.len() >= 13, "{flags:?}");
    for (scenario, key) in flags {
        let empty = lab(&[scenario, &format!("--{key}=")]);
        assert_eq!(empty.status.code(), Some(2), "{scenario} --{key}= was accepted");
        let none = lab(&[scenario, &format!("--{key}"), "none"]);
        assert!(
            none.status.success(),
            "{scenario} --{key} none: {}",
            String::from_utf8_lossy(&none.stderr)
        );
    }
    // --cap-ms none is the lesson's herd.
    assert_eq!(stdout(&lab(&["herd", "--cap-ms", "none"])), stdout(&lab(&["herd"])));
}

#[test]
fn the_idempotency_program_prints_any_title_as_python_does() {
    let src = include_str!("../lessons/timeouts-reintentos-idempotencia/llave.py");
    for title in [
        "Tenis\u{a0}naranjas",
        "cero\u{200b}ancho",
        "línea\u{2028}separada",
        "párrafo\u{2029}",
        "tab\tnueva\nlínea\r",
        "it's",
        "dice \"hola\" y 'adiós'",
        "\u{7f}\u{80}\u{9f}\u{ad}",
        "emoji 😀 y \u{e0001}",
        "privado \u{e000} \u{f0000}",
        "sin asignar \u{378} \u{10ffff}",
        "barra \\ invertida",
        "ideográfico\u{3000}espacio",
    ] {
        // The lesson's program with this title, run by python3, UUIDs fixed
        // (the printed lines do not show them).
        let literal = format!("{:?}", title); // a Rust literal is a valid Python one for these
        let program = src.replace("\"Tenis naranjas\"", &json_string(title));
        let py = Command::new("python3")
            .arg("-c")
            .arg(&program)
            .output()
            .expect("python3");
        assert!(
            py.status.success(),
            "{literal}: {}",
            String::from_utf8_lossy(&py.stderr)
        );
        let ours = lab(&["idempotency", "--title", title]);
        assert_eq!(stdout(&ours), String::from_utf8_lossy(&py.stdout), "{literal}");
    }
}

/// A Python string literal for `s` (JSON's escapes are Python's).
fn json_string(s: &str) -> String {
    serde_json::to_string(s).unwrap()
}

#[test]
fn exercise_variant_states_its_bounds() {
    let help = stdout(&lab(&["exercise", "--help"]));
    assert!(help.contains("[0–999999"), "the bounds in --help: {help}");
    for bad in ["-1", "1000000", "99999999999", "abc", "2.5"] {
        let o = lab(&["exercise", "4", "--variant", bad]);
        assert_eq!(o.status.code(), Some(2), "--variant {bad}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains("--variant"), "--variant {bad}: {err}");
        if bad != "abc" && bad != "2.5" {
            assert!(err.contains("is not in 0..=999999"), "--variant {bad}: {err}");
        }
    }
    for good in ["0", "999999"] {
        assert!(
            lab(&["exercise", "4", "--variant", good]).status.success(),
            "--variant {good}"
        );
    }
}

/// A joint constraint (rate × duration within the work budget), at its edge
/// as the budget's words give it: refused past it on the command line, with
/// the largest duration that fits; in the page the same values are kept (each
/// is within its bounds) and the run plays what fits, with a note.
#[test]
fn a_joint_constraint_is_refused_here_and_cut_with_a_note_in_the_page() {
    use sensei_lab::sim::params;
    // (scenario, within: the edge, past: one more; the budget's largest duration)
    let cases: [(&str, &[&str], &[&str], &str); 4] = [
        // rps × duration-s ≤ 180,000: 9,000 × 20 fits, 9,001 × 20 does not (19 s do).
        (
            "shedding",
            &["--rps", "9000"],
            &["--rps", "9001"],
            "--duration-s at most 19",
        ),
        // 200,000 regular arrivals at 100,000 ÷ 50 = 2,000 a second per pod: 100 s.
        (
            "inflight",
            &["--rps", "100000", "--pods", "50", "--duration-s", "100"],
            &["--rps", "100000", "--pods", "50", "--duration-s", "101"],
            "--duration-s at most 100",
        ),
        // An exact fit counted in integers: 180,000 random arrivals × 7 pods ÷ 20,000 = 63 s
        // (as floats, 180,000 ÷ (20,000 ÷ 7) = 62.99999999999999).
        (
            "inflight",
            &[
                "--rps",
                "20000",
                "--pods",
                "7",
                "--duration-s",
                "63",
                "--arrivals",
                "poisson",
            ],
            &[
                "--rps",
                "20000",
                "--pods",
                "7",
                "--duration-s",
                "64",
                "--arrivals",
                "poisson",
            ],
            "--duration-s at most 63",
        ),
        // 180,000 random ones: 90 s.
        (
            "inflight",
            &[
                "--rps",
                "100000",
                "--pods",
                "50",
                "--duration-s",
                "90",
                "--arrivals",
                "poisson",
            ],
            &[
                "--rps",
                "100000",
                "--pods",
                "50",
                "--duration-s",
                "91",
                "--arrivals",
                "poisson",
            ],
            "--duration-s at most 90",
        ),
    ];
    for (id, within, past, most) in cases {
        let ok = lab(&[&[id, "--json"], within].concat());
        assert!(
            ok.status.success(),
            "{id} {within:?}: {}",
            String::from_utf8_lossy(&ok.stderr)
        );
        let v: Value = serde_json::from_str(&stdout(&ok)).unwrap();
        assert_eq!(v["truncated"], false, "{id} {within:?}");
        let o = lab(&[&[id], past].concat());
        assert_eq!(o.status.code(), Some(2), "{id} {past:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.contains("past the work budget") && err.contains(most),
            "{id} {past:?}: {err}"
        );
        // The page: the same query is taken as it is, and the run says it was cut.
        let query: String = past
            .chunks(2)
            .map(|kv| format!("{}={}", &kv[0][2..], kv[1]))
            .collect::<Vec<_>>()
            .join("&");
        // (The registry's entry: the scenario's own specs, lesson's values and run.)
        let scenario = sensei_lab::scenario::find(id).expect("a registered scenario");
        let (v, clamped) = params::values_from_query((scenario.specs)(), (scenario.defaults)(), &query);
        assert!(clamped.is_empty(), "{query}: {clamped:?}");
        let run = sensei_lab::scenario::run(id, &v, &mut sensei_lab::cli::Ctx::new(&[], None)).unwrap();
        let (cut, notes) = (run.truncated, run.notes);
        assert!(cut, "{id} {query}");
        // The note says what was played and what the command line would take.
        let note = notes
            .iter()
            .find(|n| n.contains(" s pedidos"))
            .expect("a note of the cut");
        let flag = format!("--duration-s {}", &most["--duration-s at most ".len()..]);
        assert!(note.contains(&flag), "{id} {query}: {note}");
    }
    // The lesson's values are within every scenario's budget.
    for s in sensei_lab::scenario::ALL {
        assert_eq!((s.beyond_budget)(&(s.defaults)()), None, "{}", s.id);
    }
}

/// A shell as Trunk writes it, for `base` and the build named `build`.
fn shell(base: &str, build: &str) -> String {
    format!(
        "<!doctype html>\n<html lang=\"es\">\n<head>\n  <title>Sensei Lab</title>\n  <base href=\"{base}\" />\n  <script type=\"module\">import init from '{base}{build}.js';</script>\n</head>\n<body>\n  <div id=\"app\"></div>\n</body>\n</html>\n"
    )
}

#[test]
fn prerender_puts_the_teachers_pages_in_the_instructors_build_and_keeps_them_there() {
    let dir = std::env::temp_dir().join(format!("sensei-lab-prerender-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("index.html"), shell("/", "sensei-lab-aaaa")).unwrap();
    let theirs = dir.with_extension("docentes.html");
    std::fs::write(&theirs, shell("/", "sensei-lab-bbbb")).unwrap();
    let slug = "timeouts-reintentos-idempotencia";
    let teachers = dir.join("docentes").join(slug).join("index.html");
    let widget = dir
        .join("lecciones")
        .join(slug)
        .join("widgets")
        .join("herd")
        .join("index.html");
    let run = |extra: &[&str]| {
        let mut args = vec!["prerender", dir.to_str().unwrap(), "--site", "https://cursos.example"];
        args.extend_from_slice(extra);
        lab(&args)
    };

    let o = run(&["--instructors", theirs.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let (t, w) = (
        std::fs::read_to_string(&teachers).unwrap(),
        std::fs::read_to_string(&widget).unwrap(),
    );
    assert!(
        t.contains("sensei-lab-bbbb.js") && !t.contains("sensei-lab-aaaa"),
        "«Para docentes» loads the instructors' build"
    );
    assert!(t.contains("Para docentes") && t.contains("data-route=\"/docentes/"));
    assert!(
        w.contains("sensei-lab-aaaa.js") && !w.contains("sensei-lab-bbbb"),
        "the learner's pages load theirs"
    );

    // Finished again without the instructors' build: their pages keep its shell.
    let o = run(&[]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(std::fs::read_to_string(&teachers).unwrap(), t);
    assert_eq!(std::fs::read_to_string(&widget).unwrap(), w);

    // An instructors' build for another site path is refused; none at all, too.
    std::fs::write(&theirs, shell("/cursos/lab/", "sensei-lab-bbbb")).unwrap();
    let o = run(&["--instructors", theirs.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("/cursos/lab/"));
    std::fs::remove_dir_all(dir.join("docentes")).unwrap();
    let o = run(&[]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--instructors"));
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_file(&theirs);
}
