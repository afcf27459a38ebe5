//! For any parameters and seed, the herd simulation gives exactly what the
//! lesson's Python program gives: a few hundred parameter sets, drawn from a
//! seeded generator over the whole parameter space (every jitter, with and
//! without a cap, odd windows and seeds), run through
//! `tests/python/herd_reference.py` (the lesson's `simular`, generalised) and
//! through the core, compared window by window.

#![cfg(not(target_arch = "wasm32"))]

use sensei_lab::sim::herd::{simulate, HerdParams};
use sensei_lab::sim::policy::backoff::Jitter;
use sensei_lab::sim::policy::rng::PyRandom;
use serde_json::{json, Value};
use std::io::Write;
use std::process::{Command, Stdio};

fn python(cases: &[Value]) -> Vec<Value> {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/python/herd_reference.py");
    let mut child = Command::new("python3")
        .arg(script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3 is part of the test set-up");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(serde_json::to_string(cases).unwrap().as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    serde_json::from_slice(&out.stdout).unwrap()
}

fn random_params(rng: &mut PyRandom) -> HerdParams {
    let mut pick = |lo: u32, hi: u32| lo + (rng.next_u32() % (hi - lo + 1));
    let jitter = Jitter::ALL[pick(0, 3) as usize];
    let cap_ms = if pick(0, 2) == 0 { None } else { Some(pick(1, 5000)) };
    HerdParams {
        clients: pick(1, 2500),
        capacity: pick(1, 120),
        window_ms: [1, 3, 7, 10, 10, 25, 100][pick(0, 6) as usize],
        base_ms: pick(1, 400),
        cap_ms,
        retries: pick(1, 6),
        jitter,
        seed: if pick(0, 1) == 0 { 7 } else { pick(0, u32::MAX - 1) },
        t_ms: None,
    }
}

#[test]
fn matches_the_python_program_for_random_parameters() {
    let mut rng = PyRandom::new(2024);
    let params: Vec<HerdParams> = (0..300).map(|_| random_params(&mut rng)).collect();
    let cases: Vec<Value> = params.iter().map(|p| serde_json::to_value(p).unwrap()).collect();
    let expected = python(&cases);
    for (p, e) in params.iter().zip(expected) {
        let r = simulate(p);
        let got = json!({
            "served": r.served, "gave_up": r.gave_up, "peak": r.peak, "attempts": r.attempts,
            "windows": r.windows,
        });
        assert_eq!(got, e, "parameters: {p:?}");
    }
}

#[test]
fn matches_python_at_the_edges() {
    let edges = [
        HerdParams {
            clients: 1,
            capacity: 1,
            window_ms: 1,
            base_ms: 1,
            retries: 1,
            ..HerdParams::default()
        },
        HerdParams {
            capacity: 100_000,
            ..HerdParams::default()
        },
        HerdParams {
            window_ms: 1000,
            jitter: Jitter::None,
            ..HerdParams::default()
        },
        HerdParams {
            base_ms: 10_000,
            retries: 10,
            jitter: Jitter::Decorrelated,
            ..HerdParams::default()
        },
        HerdParams {
            cap_ms: Some(1),
            jitter: Jitter::Equal,
            ..HerdParams::default()
        },
        HerdParams {
            seed: 0,
            ..HerdParams::default()
        },
        HerdParams {
            seed: u32::MAX,
            retries: 10,
            capacity: 3,
            ..HerdParams::default()
        },
    ];
    let cases: Vec<Value> = edges.iter().map(|p| serde_json::to_value(p).unwrap()).collect();
    for (p, e) in edges.iter().zip(python(&cases)) {
        let r = simulate(p);
        assert_eq!(
            json!({"served": r.served, "gave_up": r.gave_up, "peak": r.peak, "attempts": r.attempts, "windows": r.windows}),
            e,
            "{p:?}"
        );
    }
}

/// The table of characters CPython's `repr` escapes is this python3's own.
#[test]
fn printable_table_is_cpythons() {
    let out = std::process::Command::new("python3")
        .arg("-c")
        .arg("import sys\nfor c in range(0x110000):\n    sys.stdout.write('0' if chr(c).isprintable() else '1')")
        .output()
        .expect("python3");
    let flags = out.stdout;
    assert_eq!(flags.len(), 0x110000);
    for (c, f) in flags.iter().enumerate() {
        let Some(ch) = char::from_u32(c as u32) else {
            assert_eq!(*f, b'1', "surrogate {c:#x}");
            continue;
        };
        assert_eq!(
            sensei_lab::sim::printable::is_printable(ch),
            *f == b'0',
            "{c:#x}: regenerate with scripts/gen-printable.py"
        );
    }
}

/// The generator through `rand_core`'s traits is CPython's `random.Random`:
/// `seed_from_u64(n)` is `random.Random(n)` for every `u64` (one key word
/// below 2³², two above), and `next_u32`, `next_u64`, `fill_bytes` are
/// `getrandbits(32)`, `getrandbits(64)`, `randbytes(len)`.
#[test]
fn rand_core_traits_are_cpythons_random() {
    use rand_core::{Rng, SeedableRng};
    let mut seeds: Vec<u64> = vec![
        0,
        1,
        7,
        42,
        u32::MAX as u64,
        1 << 32,
        (1 << 32) + 5,
        1 << 63,
        u64::MAX - 1,
        u64::MAX,
    ];
    let mut rng = PyRandom::new(2026);
    seeds.extend((0..40).map(|_| rng.next_u32() as u64 | (rng.next_u32() as u64) << (rng.next_u32() % 33)));
    let script = r#"
import random, sys
for line in sys.stdin:
    n = int(line)
    r = random.Random(n)
    a = r.getrandbits(32); b = r.getrandbits(64); c = r.randbytes(7).hex(); d = r.random()
    print(a, b, c, repr(d))
"#;
    let mut child = Command::new("python3")
        .args(["-c", script])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3 is part of the test set-up");
    let input: String = seeds.iter().map(|n| format!("{n}\n")).collect();
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let lines: Vec<String> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    assert_eq!(lines.len(), seeds.len());
    for (n, line) in seeds.iter().zip(&lines) {
        let mut r = PyRandom::seed_from_u64(*n);
        let a = Rng::next_u32(&mut r);
        let b = Rng::next_u64(&mut r);
        let mut bytes = [0u8; 7];
        r.fill_bytes(&mut bytes);
        let c: String = bytes.iter().map(|x| format!("{x:02x}")).collect();
        use sensei_lab::sim::policy::rng::UnitRng;
        let d = r.random();
        assert_eq!(format!("{a} {b} {c} {d:?}"), *line, "seed {n}");
        assert_eq!(PyRandom::from_seed(n.to_le_bytes()).next_u32(), a, "from_seed({n})");
    }
}
