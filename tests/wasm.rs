//! The same core, compiled to wasm32 and run by `wasm-bindgen-test-runner`
//! (in Node.js): the figures must not depend on the target. Natively this
//! file runs as ordinary tests too.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use sensei_lab::sim::herd::{self, simulate, HerdParams};
use sensei_lab::sim::policy::backoff::Jitter;
use sensei_lab::sim::policy::rng::{PyRandom, UnitRng};
use sensei_lab::sim::{idempotency, params};

mod common;

#[test]
fn python_random_7_digit_for_digit() {
    let mut rng = PyRandom::new(7);
    assert_eq!(rng.random(), 0.32383276483316237);
    assert_eq!(rng.random(), 0.15084917392450192);
}

#[test]
fn lesson_lines() {
    assert_eq!(herd::lesson_program_output(), common::HERD_LINES);
    let idem = idempotency::lesson_program_output("Tenis naranjas", 7);
    assert_eq!(idem, common::IDEMPOTENCY_LINES);
}

#[test]
fn other_parameters_as_python() {
    // From the lesson's simular (see tests/lesson_figures.rs) and tests/python/herd_reference.py.
    let cases = [
        (
            HerdParams {
                clients: 5000,
                ..HerdParams::default()
            },
            (4508, 492, 375, 11754),
        ),
        (
            HerdParams {
                clients: 2000,
                capacity: 10,
                base_ms: 200,
                retries: 2,
                ..HerdParams::default()
            },
            (1104, 896, 83, 3666),
        ),
        (
            HerdParams {
                jitter: Jitter::Equal,
                ..HerdParams::default()
            },
            (1000, 0, 120, 1500),
        ),
        (
            HerdParams {
                jitter: Jitter::Decorrelated,
                cap_ms: Some(1000),
                ..HerdParams::default()
            },
            (1000, 0, 61, 1059),
        ),
    ];
    for (p, expected) in cases {
        let r = simulate(&p);
        assert_eq!((r.served, r.gave_up, r.peak, r.attempts), expected, "{p:?}");
    }
}

#[test]
fn url_state_is_clamped_on_wasm_too() {
    let (p, notes) = params::from_query::<HerdParams>("clients=999999999999&jitter=none");
    assert_eq!(p.clients, 100_000);
    assert_eq!(p.jitter, Jitter::None);
    assert_eq!(notes.len(), 1);
}

#[test]
fn lessons_are_embedded() {
    assert!(sensei_lab::exercise::check_lessons().is_empty());
    assert!(sensei_lab::lesson::find("timeouts-reintentos-idempotencia").is_some());
}

#[test]
fn storms_keys_and_fallbacks_on_every_target() {
    use sensei_lab::sim::storm::{self, RetryIn, StormParams};
    // The same run natively and as wasm: identical counts.
    let r = storm::simulate(&StormParams::default());
    assert!(!r.recovered());
    let calm = storm::simulate(&StormParams {
        retry_in: RetryIn::Bottom,
        budget_pct: Some(10),
        ..StormParams::default()
    });
    assert!(calm.recovered());
    let store = idempotency::run(&idempotency::StoreParams {
        scenario: idempotency::Scenario::WithKey,
        ..Default::default()
    });
    assert_eq!(store.performed.len(), 1);
    let d = sensei_lab::sim::degradation::run(&Default::default());
    assert_eq!(d.alert_at_min, Some(11));
}
