//! The herd simulation, callable from JavaScript, for the side-by-side
//! measurement of the wasm core against the lesson's CPython
//! (`scripts/herd-wasm-vs-python.mjs`). Not a component: one exported
//! function, reached through Trunk's `window.wasmBindings`.
//!
//! It reads the parameters with the same decoder as a widget's URL, runs
//! the simulation `repeat` times and answers with the figures and the
//! mean time of a run, in JSON. It shows nothing and changes nothing on the page.

use crate::sim::herd::{self, HerdParams};
use crate::sim::params::from_query;
use wasm_bindgen::prelude::wasm_bindgen;

/// At most this many runs per call, so a call cannot hold the tab for long.
const MAX_REPEAT: u32 = 50;

#[wasm_bindgen(js_name = senseiLabHerd)]
pub fn herd_bench(query: &str, repeat: u32) -> String {
    let (params, _notes): (HerdParams, _) = from_query(query);
    let Some(perf) = web_sys::window().and_then(|w| w.performance()) else {
        return "{}".into();
    };
    // One run to warm up, then the mean of `repeat` runs timed together: the
    // browser's clock is coarse (0.1 ms without cross-origin isolation).
    let r = herd::simulate(&params);
    let n = repeat.clamp(1, MAX_REPEAT);
    let t = perf.now();
    for _ in 0..n {
        std::hint::black_box(herd::simulate(std::hint::black_box(&params)));
    }
    // In whole nanoseconds, written with integers: no float printing in the build.
    let ns = ((perf.now() - t) * 1e6 / n as f64).round() as u64;
    format!(
        r#"{{"served":{},"gave_up":{},"peak":{},"attempts":{},"elapsed_ms":{}.{:06}}}"#,
        r.served,
        r.gave_up,
        r.peak,
        r.attempts,
        ns / 1_000_000,
        ns % 1_000_000
    )
}
