//! The herd simulation, callable from JavaScript, for the side-by-side
//! measurement of the wasm core against the lesson's CPython
//! (`benches/browser.mjs --only herd`). Not a component: one exported
//! function, reached through Trunk's `window.wasmBindings`.
//!
//! It reads the parameters with the same decoder as a widget's URL, runs
//! the simulation in timed batches and answers with the figures and the
//! time of a run (the mean of the fastest batch), in JSON. It shows nothing
//! and changes nothing on the page.

use crate::sim::herd::{self, HerdParams};
use crate::sim::params::from_query;
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
    let Some(perf) = web_sys::window().and_then(|w| w.performance()) else {
        return "{}".into();
    };
    // One run to warm up and size the batches, then `batches` batches: the
    // time of a run is the mean of the fastest batch (as the native side and
    // CPython report their fastest run).
    let t = perf.now();
    let r = herd::simulate(&params);
    let once = (perf.now() - t).max(0.001);
    let per_batch = ((BATCH_MS / once).ceil() as u32).clamp(1, MAX_BATCH);
    let mut best = f64::INFINITY;
    for _ in 0..batches.clamp(1, MAX_BATCHES) {
        let t = perf.now();
        for _ in 0..per_batch {
            std::hint::black_box(herd::simulate(std::hint::black_box(&params)));
        }
        best = best.min((perf.now() - t) / per_batch as f64);
    }
    // In whole nanoseconds, written with integers: no float printing in the build.
    let ns = (best * 1e6).round() as u64;
    format!(
        r#"{{"served":{},"gave_up":{},"peak":{},"attempts":{},"runs":{},"elapsed_ms":{}.{:06}}}"#,
        r.served,
        r.gave_up,
        r.peak,
        r.attempts,
        per_batch,
        ns / 1_000_000,
        ns % 1_000_000
    )
}
