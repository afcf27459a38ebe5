//! The cores, callable from JavaScript, for the benchmarks: the herd for the
//! side-by-side measurement of the wasm core against the lesson's CPython
//! (`benches/browser.mjs --only herd`), the storm and hedging for their
//! widgets' share of a change (`--only cores`). Not a component: one
//! exported function, reached through Trunk's `window.wasmBindings`.
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

/// The time of one run of a core in the page, as its widget runs it (hedging
/// replaying its draws, made once): `{…, "runs":…, "elapsed_ms":…}`, with the
/// herd's four figures first (checked against CPython's by
/// `benches/browser.mjs --only herd`); `{}` for another scenario.
#[cfg(not(feature = "split"))]
#[wasm_bindgen(js_name = senseiLabTime)]
pub fn time_core(scenario: &str, query: &str, batches: u32) -> String {
    timed(scenario, query, batches)
}

/// [`time_core`] in a build that loads each piece's code with it: the cores
/// are not the runtime's, so the hook fetches them first (its own split
/// point) and answers a promise of the same JSON.
#[cfg(feature = "split")]
#[wasm_bindgen(js_name = senseiLabTime)]
pub async fn time_core(scenario: String, query: String, batches: u32) -> String {
    #[wasm_split_helpers::wasm_split(bench, fallible)]
    fn bench(scenario: String, query: String, batches: u32) -> Result<String, crate::ui::islands::code::Failed> {
        Ok(timed(&scenario, &query, batches))
    }
    bench(scenario, query, batches).await.unwrap_or_else(|_| "{}".into())
}

fn timed(scenario: &str, query: &str, batches: u32) -> String {
    let timed = match scenario {
        "herd" => {
            let (p, _notes): (HerdParams, _) = from_query(query);
            // As the widget runs it, in one scratch.
            let mut scratch = herd::HerdScratch::default();
            time(batches, || herd::simulate_reusing(&p, &mut scratch)).map(|(r, n, t)| {
                let figures = format!(
                    r#""served":{},"gave_up":{},"peak":{},"attempts":{},"#,
                    r.served, r.gave_up, r.peak, r.attempts
                );
                (figures, n, t)
            })
        }
        "storm" => {
            let (p, _notes): (StormParams, _) = from_query(query);
            time(batches, || storm::simulate(&p)).map(|(_, n, t)| (String::new(), n, t))
        }
        "hedging" => {
            let (p, _notes): (HedgingParams, _) = from_query(query);
            let draws = hedging::Draws::new(p.seed, p.reads);
            time(batches, || hedging::simulate_with(&draws, &p)).map(|(_, n, t)| (String::new(), n, t))
        }
        _ => None,
    };
    match timed {
        Some((figures, runs, best)) => format!(r#"{{{figures}"runs":{runs},"elapsed_ms":{}}}"#, decimal_ms(best)),
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
