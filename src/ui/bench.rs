//! The cores, callable from JavaScript, for the benchmarks: the herd for the
//! side-by-side measurement of the wasm core against the lesson's CPython
//! (`benches/browser.mjs --only herd`), the storm and hedging for their
//! widgets' share of a change (`--only cores`). Not a component: two
//! exported functions, reached through Trunk's `window.wasmBindings`.
//!
//! It reads the parameters with the same decoder as a widget's URL, runs
//! the simulation in timed batches and answers with the figures and the
//! time of a run (the mean of the fastest batch), in JSON. It shows nothing
//! and changes nothing on the page.

use crate::sim::hedging::{self, HedgingParams};
use crate::sim::herd::{self, HerdParams};
use crate::sim::params::from_query;
use crate::sim::storm::{self, StormParams};
use wasm_bindgen::prelude::wasm_bindgen;

/// At most this many batches per call, and runs per batch, so a call cannot
/// hold the tab for long.
const MAX_BATCHES: u32 = 50;
const MAX_BATCH: u32 = 200;

/// A batch lasts at least this long: the browser's clock is coarse (0.1 ms
/// without cross-origin isolation), so a batch of short runs is timed together.
const BATCH_MS: f64 = 5.0;

#[wasm_bindgen(js_name = senseiLabHerd)]
pub fn herd_bench(query: &str, batches: u32) -> String {
    let (params, _notes): (HerdParams, _) = from_query(query);
    let Some((r, per_batch, best)) = time(batches, || herd::simulate(&params)) else {
        return "{}".into();
    };
    format!(
        r#"{{"served":{},"gave_up":{},"peak":{},"attempts":{},"runs":{},"elapsed_ms":{}}}"#,
        r.served,
        r.gave_up,
        r.peak,
        r.attempts,
        per_batch,
        decimal_ms(best)
    )
}

/// The time of one run of a widget's core in the page, as its widget runs it
/// (the storm; hedging replaying its draws, made once), for
/// `benches/browser.mjs --only cores`: `{"runs":…,"elapsed_ms":…}`, or `{}`
/// for another scenario.
#[wasm_bindgen(js_name = senseiLabTime)]
pub fn core_bench(scenario: &str, query: &str, batches: u32) -> String {
    let timed = match scenario {
        "storm" => {
            let (p, _notes): (StormParams, _) = from_query(query);
            time(batches, || storm::simulate(&p)).map(|(_, n, t)| (n, t))
        }
        "hedging" => {
            let (p, _notes): (HedgingParams, _) = from_query(query);
            let draws = hedging::Draws::new(p.seed, p.reads);
            time(batches, || hedging::simulate_with(&draws, &p)).map(|(_, n, t)| (n, t))
        }
        _ => None,
    };
    match timed {
        Some((runs, best)) => format!(r#"{{"runs":{runs},"elapsed_ms":{}}}"#, decimal_ms(best)),
        None => "{}".into(),
    }
}

/// One run to warm up and size the batches, then `batches` batches: the
/// time of a run is the mean of the fastest batch (as the native side and
/// CPython report their fastest run). Gives the first run's result, the runs
/// per batch and that time in ms.
fn time<R>(batches: u32, mut run: impl FnMut() -> R) -> Option<(R, u32, f64)> {
    let perf = web_sys::window().and_then(|w| w.performance())?;
    let t = perf.now();
    let r = run();
    let once = (perf.now() - t).max(0.001);
    let per_batch = ((BATCH_MS / once).ceil() as u32).clamp(1, MAX_BATCH);
    let mut best = f64::INFINITY;
    for _ in 0..batches.clamp(1, MAX_BATCHES) {
        let t = perf.now();
        for _ in 0..per_batch {
            std::hint::black_box(run());
        }
        best = best.min((perf.now() - t) / per_batch as f64);
    }
    Some((r, per_batch, best))
}

/// Milliseconds to the nanosecond, written with integers: no float printing
/// in the build.
fn decimal_ms(ms: f64) -> String {
    let ns = (ms * 1e6).round() as u64;
    format!("{}.{:06}", ns / 1_000_000, ns % 1_000_000)
}
