//! The lesson's numbers are the contract: every figure it states about the
//! herd and the idempotency key is computed by the core and checked here,
//! against the lesson's text and against the lesson's own Python programs.

#![cfg(not(target_arch = "wasm32"))]

use sensei_lab::sim::herd::{self, simulate, HerdParams};
use sensei_lab::sim::idempotency;
use sensei_lab::sim::policy::backoff::Jitter;
use std::process::Command;

mod common;

const LESSON_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/lessons/timeouts-reintentos-idempotencia");

fn run_python(file: &str) -> String {
    let out = Command::new("python3")
        .arg(format!("{LESSON_DIR}/{file}"))
        .output()
        .expect("python3 runs the lesson's program (it is part of the test set-up)");
    assert!(out.status.success(), "{file}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn herd_output_is_the_lessons_to_the_character() {
    assert_eq!(herd::lesson_program_output(), common::HERD_LINES);
}

#[test]
fn herd_output_is_what_the_lessons_python_prints() {
    let python = run_python("manada.py");
    assert_eq!(python, herd::lesson_program_output().join("\n") + "\n");
}

#[test]
fn idempotency_output_is_what_the_lessons_python_prints() {
    let python = run_python("llave.py");
    let core = idempotency::lesson_program_output("Tenis naranjas", 7);
    assert_eq!(core, common::IDEMPOTENCY_LINES);
    assert_eq!(python, core.join("\n") + "\n");
}

#[test]
fn the_idempotency_store_plays_the_lessons_program() {
    // The store (with its running/done states, expiry and policies) gives the
    // program's two answers and what was published, as the Python prints them.
    use idempotency::{run, Scenario, StoreParams};
    let python = run_python("llave.py");
    for (scenario, line) in [(Scenario::NoKey, 0), (Scenario::WithKey, 1)] {
        let r = run(&StoreParams {
            scenario,
            ..StoreParams::default()
        });
        let reply = r.rows.last().unwrap().reply.clone().unwrap();
        let published: Vec<String> = r.performed.iter().map(|(_, b)| b.clone()).collect();
        let label = if line == 0 { "sin llave" } else { "con llave" };
        let expected = format!(
            "{label}: {} · guardadas: {}",
            reply.trim_start_matches("200 · "),
            idempotency::py_repr_list(&published)
        );
        assert_eq!(python.lines().nth(line).unwrap(), expected);
    }
}

#[test]
fn the_texts_figures_about_the_herd() {
    let none = simulate(&HerdParams {
        jitter: Jitter::None,
        ..HerdParams::default()
    });
    // «Sin jitter, los 1,000 llegan en la misma ventana: el servidor atiende 50 y rechaza 950.»
    assert_eq!(none.windows[0], (20, 1000), "all 1,000 arrive in the window of 200 ms");
    // «Los 950 vuelven juntos, se atienden 50, y así.» (at 200 + 400 = 600 ms)
    assert_eq!(none.windows[1], (60, 950));
    assert_eq!(none.windows[2], (140, 900));
    // «Al final, 850 clientes se rinden después de 2,850 intentos.»
    assert_eq!((none.served, none.gave_up, none.attempts), (150, 850, 2850));

    let full = simulate(&HerdParams::default());
    // «los mismos 1,000 se reparten en unos 200 ms: el pico baja a 61 por ventana,
    //  casi todos entran al primer reintento y nadie se rinde.»
    assert_eq!((full.peak, full.gave_up, full.served), (61, 0, 1000));
    let first_wave: u64 = full
        .windows
        .iter()
        .filter(|(w, _)| *w < 20)
        .map(|(_, c)| *c as u64)
        .sum();
    assert!(first_wave >= 1000, "every first retry lands within 0–200 ms");
    let retried_again = full.attempts - 1000;
    assert!(
        retried_again * 10 < 1000,
        "almost all get in at the first retry ({retried_again} retry again)"
    );
    // «El servidor atiende 50 requests en cada ventana de 10 ms (5,000 por segundo)»
    assert_eq!(
        HerdParams::default().capacity * 1000 / HerdParams::default().window_ms,
        5000
    );
}

/// Figures obtained by running the lesson's own `simular` (manada.py) with
/// other arguments: `python3 -c "exec(open('manada.py').read().split('\nfor jitter in')[0]);
/// print(simular(True, clientes=5000))"` and so on.
#[test]
fn matches_the_lessons_simular_for_other_arguments() {
    #[rustfmt::skip]
    type Case = (bool, u32, u32, u32, u32, (u32, u32, u32, u64));
    let cases: &[Case] = &[
        (false, 1000, 50, 100, 3, (150, 850, 1000, 2850)),
        (true, 1000, 50, 100, 3, (1000, 0, 61, 1061)),
        (true, 5000, 50, 100, 3, (4508, 492, 375, 11754)),
        (false, 5000, 50, 100, 3, (150, 4850, 5000, 14850)),
        (true, 1000, 20, 100, 3, (992, 8, 73, 1793)),
        (true, 1000, 50, 50, 5, (1000, 0, 134, 1650)),
        (false, 200, 50, 100, 3, (150, 50, 200, 450)),
        (true, 10000, 100, 100, 4, (9926, 74, 721, 24608)),
        (true, 2000, 10, 200, 2, (1104, 896, 83, 3666)),
        (false, 1000, 50, 100, 1, (50, 950, 1000, 1000)),
        (true, 1, 1, 1, 1, (1, 0, 1, 1)),
        (true, 3000, 7, 30, 10, (3000, 0, 725, 17598)),
    ];
    for &(jitter, clients, capacity, base_ms, retries, expected) in cases {
        let p = HerdParams {
            clients,
            capacity,
            base_ms,
            retries,
            jitter: if jitter { Jitter::Full } else { Jitter::None },
            ..HerdParams::default()
        };
        let r = simulate(&p);
        assert_eq!((r.served, r.gave_up, r.peak, r.attempts), expected, "{p:?}");
    }
}
