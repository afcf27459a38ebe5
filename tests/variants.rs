//! Every exercise with numbers, over tens of thousands of variants: the
//! relations its statement implies hold (the service it describes is
//! possible), its keys are what its worked solution computes, and the
//! solution's own numbers pass its check. Expected values come from the
//! statement's numbers by the lesson's arithmetic, never from the core.

#![cfg(not(target_arch = "wasm32"))]

use sensei_lab::exercise::answer::Unit;
use sensei_lab::exercise::{build, check_part, Exercise, Expect, Part};

/// Variants checked per exercise (the lesson's, then 1..N).
const N: u32 = 20_000;

/// The number right after `prefix` in `s` (digits, thousands commas, a decimal point).
fn num_after(s: &str, prefix: &str) -> f64 {
    let i = s.find(prefix).unwrap_or_else(|| panic!("«{prefix}» in «{s}»")) + prefix.len();
    let t: String = s[i..]
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == ',' || *c == '.')
        .filter(|c| *c != ',')
        .collect();
    t.trim_end_matches('.')
        .parse()
        .unwrap_or_else(|_| panic!("a number after «{prefix}» in «{s}»"))
}

fn key(p: &Part) -> f64 {
    match p.expect {
        Expect::Number(x) => x,
        _ => panic!("{} is not a number", p.id),
    }
}

fn part<'a>(ex: &'a Exercise, id: &str) -> &'a Part {
    ex.parts
        .iter()
        .find(|p| p.id == id)
        .unwrap_or_else(|| panic!("part {id}"))
}

/// What holds for every part of every variant.
fn common(ex: &Exercise) {
    let v = ex.variant;
    for p in &ex.parts {
        if let Expect::Number(x) = p.expect {
            assert!(x.is_finite() && x >= 0.0, "ex {} v{v} {}: {x}", ex.n, p.id);
            if p.unit == Unit::Share {
                assert!(x <= 1.0, "ex {} v{v} {}: a share of {x}", ex.n, p.id);
            }
        }
        for m in &p.mistakes {
            if let (Expect::Number(k), Expect::Number(w)) = (&p.expect, &m.answer) {
                assert!(
                    !p.tol.accepts(*k, *w),
                    "ex {} v{v} {}: mistake {w} is accepted",
                    ex.n,
                    p.id
                );
            }
        }
    }
    for s in ex.solution.iter().chain([&ex.statement]) {
        assert!(
            !s.contains("NaN") && !s.contains('—') && !s.contains("-0"),
            "ex {} v{v}: {s}",
            ex.n
        );
    }
}

/// Builds every checked variant of exercise `n` (the lesson's, then 1 to
/// N), checks what holds for all, and hands each to `check` with its
/// statement and number.
fn each_variant(n: u32, check: impl Fn(&Exercise, &str, u32)) {
    for v in 0..=N {
        let ex = build(n, v).unwrap();
        common(&ex);
        check(&ex, &ex.statement, v);
    }
}

#[test]
fn exercise_2_backoff() {
    each_variant(2, |ex, s, v| {
        let base = num_after(s, "base de ");
        let retries = num_after(s, "hace ") as i32;
        let cap_text = &s[s.find("tope de ").unwrap() + 8..];
        let cap = num_after(cap_text, "")
            * if cap_text.contains(" ms ") && cap_text.find(" ms ") < cap_text.find(" hace") {
                1.0
            } else {
                1_000.0
            };
        let waits: Vec<f64> = (1..=retries).map(|n| (base * 2f64.powi(n)).min(cap)).collect();
        for (i, w) in waits.iter().enumerate() {
            assert_eq!(key(part(ex, &format!("w{}", i + 1))), *w, "v{v}: {s}");
        }
        let total: f64 = waits.iter().sum();
        assert_eq!(key(part(ex, "max")), total, "v{v}");
        assert_eq!(key(part(ex, "mean")), total / 2.0, "v{v}");
        // The cap matters (some wait is cut), and the first wait is under it.
        assert!(base * 2.0 < cap && base * 2f64.powi(retries) > cap, "v{v}: {s}");
    });
}

#[test]
fn exercise_4_layers() {
    each_variant(4, |ex, s, v| {
        let rps = if v == 0 {
            500.0
        } else {
            num_after(s, "por segundo con ")
        };
        let la = num_after(s, "(a) ") as i32;
        let ra = num_after(s, &format!("(a) {la} capas que reintentan ")) as f64;
        let lb = num_after(s, "(b) ") as i32;
        let rb = num_after(s, &format!("(b) {lb} capas que reintentan ")) as f64;
        let (a, b) = ((1.0 + ra).powi(la), (1.0 + rb).powi(lb));
        assert_eq!(key(part(ex, "a1")), a, "v{v}: {s}");
        assert_eq!(key(part(ex, "a2")), a * rps, "v{v}: {s}");
        assert_eq!(key(part(ex, "b1")), b, "v{v}: {s}");
        assert_eq!(key(part(ex, "b2")), b * rps, "v{v}: {s}");
    });
}

#[test]
fn exercise_5_deadlines() {
    each_variant(5, |ex, s, v| {
        let deadline = num_after(s, "deadline del gateway es de ");
        let cap = num_after(s, "llamada a Triton, ");
        let (pa, pb) = (num_after(s, "(a) "), num_after(s, "(b) "));
        let queue = num_after(s, "rechaza a los ");
        // The statement's premises: (a) leaves more than the cap, (b) less but
        // something, and the two clocks of (b) differ.
        assert!(
            deadline - pa > cap && deadline - pb > 0.0 && deadline - pb < cap,
            "v{v}: {s}"
        );
        assert_ne!(deadline - pb, queue, "v{v}: {s}");
        assert_eq!(key(part(ex, "a")), cap.min(deadline - pa), "v{v}");
        assert_eq!(key(part(ex, "b")), cap.min(deadline - pb), "v{v}");
        let gateway_first = deadline - pb < queue;
        assert_eq!(
            part(ex, "who").expect,
            Expect::Choice(if gateway_first { 'a' } else { 'b' }),
            "v{v}: {s}"
        );
    });
}

#[test]
fn exercise_6_little() {
    each_variant(6, |ex, s, v| {
        let timeout = num_after(s, "Triton a ");
        let rps = if v == 0 { 500.0 } else { num_after(s, "con ") };
        let pods = num_after(s, "repartidas en ");
        let cap = num_after(s, "MAX_INFLIGHT = ");
        let other = num_after(s, "tomando ≈ ");
        let rate = rps / pods;
        let dur = (timeout + other) / 1000.0;
        let demand = rate * dur;
        // The premise: the pods cannot hold what Little asks.
        assert!(demand > cap, "v{v}: {s}");
        assert!((key(part(ex, "demand")) - demand).abs() < 1e-9, "v{v}");
        let served = rate.min(cap / dur);
        assert!((key(part(ex, "served")) - served).abs() < 1e-9, "v{v}");
        assert!((key(part(ex, "rejected")) - (1.0 - served / rate)).abs() < 1e-9, "v{v}");
        let after = timeout + other > 300.0;
        assert_eq!(
            part(ex, "caller").expect,
            Expect::Choice(if after { 'c' } else { 'a' }),
            "v{v}: {s}"
        );
        // The solution's own figures pass the check: «≈ 36 por segundo», «≈ 64 %».
        let sol = &ex.solution[1];
        let shown_served = num_after(sol, " ≈ ");
        assert!(
            check_part(part(ex, "served"), &format!("{shown_served}")).is_right(),
            "v{v}: {sol}"
        );
        let pct = &sol[sol.rfind("≈ ").unwrap()..];
        assert!(
            check_part(part(ex, "rejected"), pct.trim_end_matches('.')).is_right(),
            "v{v}: {sol}"
        );
    });
}

#[test]
fn exercise_7_breaker() {
    each_variant(7, |ex, s, v| {
        let rps = num_after(s, ", a ");
        let window = num_after(s, "en los últimos ");
        let timeout = num_after(s, "esperaron sus ");
        let open = num_after(s, "no tocan a Triton en los ");
        let half = window / 2.0;
        // (b) and (c) are the solution's products, exactly.
        assert_eq!(key(part(ex, "b")), (rps * half).round(), "v{v}: {s}");
        assert_eq!(key(part(ex, "c")), rps * open, "v{v}: {s}");
        let c_sol = num_after(&ex.solution[2], " = ");
        assert_eq!(c_sol, rps * open, "v{v}: {}", ex.solution[2]);
        // (a) opens about half a window after the fall (and after the first timeouts).
        let opened = key(part(ex, "a"));
        assert!(
            (opened - half).abs() <= 1.0 && opened > timeout / 1000.0,
            "v{v}: {opened} vs {half}"
        );
        // (d) at half + open s.
        let d = &part(ex, "d").label;
        let at = half + open;
        let clock = format!("12:{:02}:{:02}", (at as u32) / 60, (at as u32) % 60);
        assert!(d.contains(&clock), "v{v}: {d} vs {clock}");
        assert_eq!(part(ex, "d").expect, Expect::Choice('b'), "v{v}");
    });
}

#[test]
fn exercise_8_hedging() {
    each_variant(8, |ex, s, v| {
        let slow = num_after(s, "El ");
        let pause = num_after(s, "se pausa ≈ ");
        let p95 = num_after(s, "su p95 es de ");
        let copy = num_after(s, "una copia tarda ≈ ");
        let gpu = num_after(s, "inferencia al ");
        // A possible service: the slow share leaves the p95 among the normal
        // reads, a normal read (a copy) is faster than the p95, a rescued read
        // beats a pause, and the GPU stays under 100 % even with the copies.
        assert!(slow < 5.0 && slow > 1.0, "v{v}: {s}");
        assert!(copy < p95, "v{v}: {s}");
        assert!(p95 + copy < pause, "v{v}: {s}");
        assert!(gpu * 1.05 < 100.0, "v{v}: {s}");
        assert_eq!(key(part(ex, "a")), pause, "v{v}");
        assert!((key(part(ex, "b1")) - (slow / 100.0).powi(2)).abs() < 1e-12, "v{v}");
        assert_eq!(key(part(ex, "b2")), p95 + copy, "v{v}");
        assert!((key(part(ex, "b3")) - 0.05).abs() < 1e-12, "v{v}");
        assert!((key(part(ex, "c2")) - gpu * 1.05 / 100.0).abs() < 1e-9, "v{v}");
    });
}

/// The variants pinned by `tests/golden/variants.jsonl`: every variant from 0
/// to 40 (the first class numbers an instructor hands out) and a spread of
/// larger ones, for each exercise with numbers.
fn pinned() -> Vec<(u32, u32)> {
    let spread = [
        97, 256, 1_000, 4_321, 12_345, 65_536, 107_875, 153_557, 500_000, 999_999,
    ];
    [2, 4, 5, 6, 7, 8]
        .into_iter()
        .flat_map(|n| (0..=40).chain(spread).map(move |v| (n, v)))
        .collect()
}

fn golden_line(n: u32, v: u32) -> String {
    let ex = build(n, v).unwrap();
    let keys: serde_json::Map<String, serde_json::Value> = ex
        .parts
        .iter()
        .map(|p| (p.id.clone(), serde_json::to_value(&p.expect).unwrap()))
        .collect();
    serde_json::json!({ "exercise": n, "variant": v, "statement": ex.statement, "keys": keys }).to_string()
}

/// Variants are a promise: a class's printed sheet, its `?class=K` link and
/// saved progress name a variant. This pins a few hundred of them (already
/// checked by the relations above), so that no change of draw order silently
/// changes a sheet already handed out. A deliberate change regenerates the
/// file with `SENSEI_BLESS=1 cargo test --test variants` and says why.
#[test]
fn pinned_variants_do_not_change() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden/variants.jsonl");
    let now: Vec<String> = pinned().into_iter().map(|(n, v)| golden_line(n, v)).collect();
    if std::env::var_os("SENSEI_BLESS").is_some() {
        std::fs::write(path, now.join("\n") + "\n").unwrap();
        return;
    }
    let pinned = std::fs::read_to_string(path).expect("tests/golden/variants.jsonl");
    let pinned: Vec<&str> = pinned.lines().collect();
    assert_eq!(pinned.len(), now.len(), "the pinned variants' list changed");
    assert!(pinned.len() >= 300);
    for (old, new) in pinned.iter().zip(&now) {
        assert_eq!(*old, new, "a pinned variant changed");
    }
}
