//! The core's cost, scenario by scenario: at the lesson's values (scale 1)
//! and with the quantity that drives the work (clients, requests per second,
//! duration, reads) ten and a hundred times larger, clamped to the bounds the
//! widgets and the command line accept (so a scale the bounds cut short is
//! measured at the bound, and says so in `docs/PERFORMANCE.md`).
//!
//! `cargo bench --bench core` (release profile: opt-level 3, LTO). Divan
//! prints the median and the spread of each; the figures in
//! `docs/PERFORMANCE.md` come from here.

// Natively only: divan is not built for wasm32 (the wasm build runs the
// core in the browser benchmark, benches/browser.mjs, instead).
#[cfg(target_arch = "wasm32")]
fn main() {}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    native::main();
}

#[cfg(not(target_arch = "wasm32"))]
mod native {
    use divan::{black_box, Bencher};
    use sensei_lab::sim::params::{self, Params, Value};
    use sensei_lab::sim::{
        breaker, chain, clocks, degradation, failmode, hedging, herd, idempotency, inflight, retries, shedding, storm,
    };

    pub fn main() {
        // What each scale means, and where the bounds cut it short.
        describe::<herd::HerdParams>("herd", &["clients"]);
        describe::<storm::StormParams>("storm", &["rps", "capacity"]);
        describe::<inflight::InflightParams>("inflight", &["rps", "duration-s"]);
        describe::<shedding::SheddingParams>("shedding", &["rps", "workers", "duration-s"]);
        describe::<hedging::HedgingParams>("hedging", &["reads"]);
        describe::<breaker::BreakerParams>("breaker", &["rps", "duration-s"]);
        describe::<degradation::DegradationParams>("degradation", &["rps", "duration-min"]);
        describe::<failmode::FailModeParams>("failmode", &["per-min", "outage-min"]);
        describe::<retries::BudgetParams>("retry_budget", &["rps"]);
        describe::<retries::LayersParams>("layers", &["rps"]);
        describe::<retries::BackoffParams>("backoff_table", &["retries"]);
        divan::main();
    }

    fn describe<P: Params>(name: &str, keys: &[&str]) {
        for k in SCALES {
            let p: P = scaled(keys, k);
            let values: Vec<String> = keys
                .iter()
                .map(|key| match p.get(key) {
                    Value::Int(v) => {
                        let wanted = match P::default().get(key) {
                            Value::Int(d) => d.saturating_mul(k),
                            _ => v,
                        };
                        if wanted == v {
                            format!("{key}={v}")
                        } else {
                            format!("{key}={v} (bound; ×{k} would be {wanted})")
                        }
                    }
                    other => format!("{key}={other:?}"),
                })
                .collect();
            eprintln!("{name} ×{k}: {}", values.join(", "));
        }
    }

    const SCALES: [i64; 3] = [1, 10, 100];

    /// The lesson's (default) parameters with each of `keys` multiplied by `k`,
    /// then brought within bounds.
    fn scaled<P: Params>(keys: &[&str], k: i64) -> P {
        let mut p = P::default();
        for key in keys {
            if let Value::Int(v) = p.get(key) {
                p.set(key, Value::Int(v.saturating_mul(k)));
            }
        }
        params::clamp(&p).0
    }

    fn bench<P: Params + Sync, R>(b: Bencher, keys: &[&str], k: i64, run: fn(&P) -> R) {
        let p: P = scaled(keys, k);
        b.bench(|| run(black_box(&p)));
    }

    /// Every scenario of the registry (`scenario::ALL`, so a new one is
    /// measured without a line here), whole: the core's run at the lesson's
    /// values, its result as JSON values and its words (what `sensei-lab <id>
    /// --json` builds before it adds the params and prints).
    #[divan::bench(args = sensei_lab::lesson::WIDGETS)]
    fn every_scenario_with_its_report(b: Bencher, id: &str) {
        let s = sensei_lab::scenario::find(id).expect("a registered scenario");
        let values = (s.defaults)();
        b.bench(|| {
            let mut ctx = sensei_lab::cli::Ctx::new(&[], None);
            sensei_lab::scenario::run(s.id, black_box(&values), &mut ctx)
        });
    }

    #[divan::bench(args = SCALES)]
    fn herd_with_jitter(b: Bencher, k: i64) {
        bench::<herd::HerdParams, _>(b, &["clients"], k, herd::simulate);
    }

    #[divan::bench(args = SCALES)]
    fn herd_without_jitter(b: Bencher, k: i64) {
        let mut p: herd::HerdParams = scaled(&["clients"], k);
        p.jitter = sensei_lab::sim::policy::backoff::Jitter::None;
        b.bench(|| herd::simulate(black_box(&p)));
    }

    #[divan::bench(args = SCALES, sample_count = 20)]
    fn storm(b: Bencher, k: i64) {
        bench::<storm::StormParams, _>(b, &["rps", "capacity"], k, storm::simulate);
    }

    #[divan::bench(args = SCALES, sample_count = 10)]
    fn storm_tipping_point(b: Bencher, k: i64) {
        bench::<storm::StormParams, _>(b, &["rps", "capacity"], k, storm::tipping_point);
    }

    #[divan::bench(args = SCALES)]
    fn inflight(b: Bencher, k: i64) {
        bench::<inflight::InflightParams, _>(b, &["rps", "duration-s"], k, inflight::simulate);
    }

    #[divan::bench(args = SCALES)]
    fn shedding(b: Bencher, k: i64) {
        bench::<shedding::SheddingParams, _>(b, &["rps", "workers", "duration-s"], k, shedding::simulate);
    }

    #[divan::bench(args = SCALES)]
    fn hedging(b: Bencher, k: i64) {
        bench::<hedging::HedgingParams, _>(b, &["reads"], k, hedging::simulate);
    }

    #[divan::bench(args = SCALES)]
    fn breaker(b: Bencher, k: i64) {
        bench::<breaker::BreakerParams, _>(b, &["rps", "duration-s"], k, breaker::simulate);
    }

    #[divan::bench(args = SCALES)]
    fn degradation(b: Bencher, k: i64) {
        bench::<degradation::DegradationParams, _>(b, &["rps", "duration-min"], k, degradation::run);
    }

    #[divan::bench(args = SCALES)]
    fn failmode(b: Bencher, k: i64) {
        bench::<failmode::FailModeParams, _>(b, &["per-min", "outage-min"], k, failmode::run);
    }

    #[divan::bench(args = SCALES)]
    fn retry_budget(b: Bencher, k: i64) {
        bench::<retries::BudgetParams, _>(b, &["rps"], k, retries::budget);
    }

    #[divan::bench(args = SCALES)]
    fn layers(b: Bencher, k: i64) {
        bench::<retries::LayersParams, _>(b, &["rps"], k, retries::layers);
    }

    #[divan::bench(args = SCALES)]
    fn backoff_table(b: Bencher, k: i64) {
        bench::<retries::BackoffParams, _>(b, &["retries"], k, retries::backoff);
    }

    #[divan::bench]
    fn clocks(b: Bencher) {
        bench::<clocks::ClocksParams, _>(b, &[], 1, clocks::run);
    }

    #[divan::bench]
    fn chain(b: Bencher) {
        bench::<chain::ChainParams, _>(b, &[], 1, chain::run);
    }

    #[divan::bench]
    fn idempotency_store(b: Bencher) {
        bench::<idempotency::StoreParams, _>(b, &[], 1, idempotency::run);
    }
}
