//! Retry arithmetic: the backoff calculator, layers that multiply, and the
//! retry budget.
//!
//! Why: a retry is cheap for the one who sends it and expensive for the one
//! who receives it. The wait before each retry grows (backoff) and is spread
//! (jitter); when several layers retry on their own, their attempts multiply
//! on the way down (three layers retrying 3 times each: 4³ = 64 attempts at
//! the bottom); and a budget caps retries as a share of the normal requests,
//! so that when many fail, the extra load stays at ≈ 10 % instead of
//! multiplying.
//!
//! ```
//! use sensei_lab::sim::retries::{layers, LayersParams};
//! let l = layers(&LayersParams::default());
//! assert_eq!(l.reaching, [1.0, 4.0, 16.0, 64.0]);
//! ```

use crate::sim::params::{Maybe, Toggle};
use crate::sim::policy::backoff::{Backoff, Jitter};
use crate::sim::policy::rng::{PyRandom, UnitRng};
use serde::{Deserialize, Serialize};

use crate::sim::params::ON_OFF;

// ---------------------------------------------------------------- backoff

crate::params! {
    /// The backoff calculator. Defaults are exercise 2's.
    #[derive(Eq)]
    pub struct BackoffParams {
        /// Base in ms: the wait before retry n is at most base × 2^n (exercise 2: 50)
        base_ms: u32 = 50 => int("Base", "ms", 1, 10_000),
        /// Cap on each wait in ms; none = no cap (exercise 2: 1000)
        cap_ms: Maybe = Some(1000) => optional("Tope de cada espera", "ms", "sin tope", "con tope", 1, 600_000),
        /// Retries (exercise 2: 5)
        retries: u32 = 5 => int("Reintentos", "", 1, 20),
        /// Jitter (exercise 2: full)
        jitter: Jitter = Jitter::Full => choice("Jitter", crate::sim::policy::backoff::JITTER_OPTIONS),
        /// Seed of the sampled waits
        seed: u32 = 7 => int("Semilla", "", 0, u32::MAX as i64),
    }
}

/// What the command line says of it (`sensei-lab backoff --help`).
#[cfg(not(target_arch = "wasm32"))]
impl crate::sim::scenario::Scenario for BackoffParams {
    const ABOUT: &'static str =
        "The backoff calculator: the wait before each retry, at most and on average (exercise 2).";
    const BUDGET: &'static str = "4,000 sampled runs of the waits, always.";

    fn report(p: &Self, ctx: &mut impl crate::sim::scenario::Session) -> crate::sim::scenario::Run {
        use crate::fmt::es_dec;
        use crate::sim::scenario::Run;
        use serde_json::json;
        let t = ctx.time(|| backoff(p));
        let mut lines: Vec<String> = t
            .rows
            .iter()
            .map(|r| {
                format!(
                    "reintento {}: hasta {} ms, en promedio {} ms",
                    r.retry,
                    es_dec(r.max_ms, 1),
                    es_dec(r.mean_ms, 1)
                )
            })
            .collect();
        lines.push(format!(
            "total: como máximo {} ms, en promedio {} ms",
            es_dec(t.total_max_ms, 1),
            es_dec(t.total_mean_ms, 1)
        ));
        Run::plain(
            json!({ "rows": t.rows, "total_max_ms": t.total_max_ms, "total_mean_ms": t.total_mean_ms }),
            lines,
        )
    }
}

/// The wait before one retry.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WaitRow {
    pub retry: u32,
    /// The smallest and largest wait it can be.
    pub min_ms: f64,
    pub max_ms: f64,
    /// Its mean (exact for none, full and equal; measured for decorrelated).
    pub mean_ms: f64,
    /// The wait without the cap (base × 2ⁿ), to show what the cap cut.
    pub uncapped_ms: f64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BackoffTable {
    pub rows: Vec<WaitRow>,
    pub total_max_ms: f64,
    pub total_mean_ms: f64,
    /// Sampled totals, sorted, for the distribution chart.
    pub sampled_totals: Vec<f64>,
}

/// Samples drawn for the distribution (and the decorrelated means).
pub const BACKOFF_SAMPLES: usize = 4_000;

pub fn backoff(params: &BackoffParams) -> BackoffTable {
    let (p, _) = crate::sim::params::clamp(params);
    let b = Backoff {
        base_ms: p.base_ms as f64,
        cap_ms: p.cap_ms.map(f64::from),
        jitter: p.jitter,
    };
    let mut rng = PyRandom::new(p.seed);
    let n = p.retries as usize;
    let mut sums = vec![0.0f64; n];
    let mut mins = vec![f64::INFINITY; n];
    let mut sampled_totals = Vec::with_capacity(BACKOFF_SAMPLES);
    for _ in 0..BACKOFF_SAMPLES {
        let mut prev = b.base_ms;
        let mut total = 0.0;
        for (k, (sum, mn)) in sums.iter_mut().zip(mins.iter_mut()).enumerate() {
            let (lo, _) = b.bounds(k as u32 + 1, prev);
            *mn = mn.min(lo);
            let w = b.wait(k as u32 + 1, prev, &mut rng);
            *sum += w;
            total += w;
            prev = w;
        }
        sampled_totals.push(total);
    }
    sampled_totals.sort_unstable_by(f64::total_cmp);
    let decorrelated_max: Vec<f64> = (0..n)
        .scan(b.base_ms, |prev, k| {
            let (_, hi) = b.bounds(k as u32 + 1, *prev);
            *prev = hi;
            Some(hi)
        })
        .collect();
    let rows: Vec<WaitRow> = (0..n)
        .map(|k| {
            let retry = k as u32 + 1;
            let v = b.ceiling(retry);
            let mean_ms = match p.jitter {
                Jitter::None => v,
                Jitter::Full => v / 2.0,
                Jitter::Equal => v * 0.75,
                Jitter::Decorrelated => sums[k] / BACKOFF_SAMPLES as f64,
            };
            let (min_ms, max_ms) = match p.jitter {
                // The largest wait possible, not the largest drawn: each can
                // reach three times the largest before it, within the cap.
                Jitter::Decorrelated => (mins[k], decorrelated_max[k]),
                _ => b.bounds(retry, b.base_ms),
            };
            WaitRow {
                retry,
                min_ms,
                max_ms,
                mean_ms,
                uncapped_ms: p.base_ms as f64 * 2f64.powi(retry as i32),
            }
        })
        .collect();
    BackoffTable {
        total_max_ms: rows.iter().map(|r| r.max_ms).sum(),
        total_mean_ms: rows.iter().map(|r| r.mean_ms).sum(),
        rows,
        sampled_totals,
    }
}

// ----------------------------------------------------------------- layers

crate::params! {
    /// Layers that retry on their own. Defaults are the lesson's chain of four
    /// pieces: app → API → service → model server, the three callers retrying 3 times.
    #[derive(Eq)]
    pub struct LayersParams {
        /// Layers that call another one and retry
        layers: u32 = 3 => int("Capas que reintentan", "", 1, 8),
        /// Retries in each layer
        retries: u32 = 3 => int("Reintentos por capa", "", 0, 10),
        /// Requests per second entering the top (C01: 500)
        rps: u32 = 500 => int("Requests por segundo arriba", "/s", 1, 1_000_000),
        /// Only the layer just above the failing one retries
        one_layer: Toggle = Toggle::Off => choice("Reintenta solo la capa de abajo (las de arriba reciben «no reintentes»)", ON_OFF),
        /// Retry budget per layer, percent of its requests; none = no budget
        budget_pct: Maybe = None => optional("Presupuesto de reintentos por capa", "%", "sin presupuesto", "con presupuesto", 1, 100),
    }
}

/// What the command line says of it (`sensei-lab layers --help`).
#[cfg(not(target_arch = "wasm32"))]
impl crate::sim::scenario::Scenario for LayersParams {
    const ABOUT: &'static str = "Layers that retry multiply: the attempts reaching each piece (exercise 4).";
    const BUDGET: &'static str = "none needed (closed form).";

    fn report(p: &Self, ctx: &mut impl crate::sim::scenario::Session) -> crate::sim::scenario::Run {
        use crate::fmt::es_dec;
        use crate::sim::scenario::Run;
        use serde_json::json;
        let r = ctx.time(|| layers(p));
        let bottom = r.reaching.last().copied().unwrap_or(1.0);
        let lines = vec![
            format!(
                "intentos por request, de arriba al fondo: {}",
                r.reaching.iter().map(|x| es_dec(*x, 2)).collect::<Vec<_>>().join(" → ")
            ),
            format!("al fondo: {} por segundo", es_dec(bottom * p.rps as f64, 0)),
        ];
        Run::plain(json!(r), lines)
    }
}

/// Worst case (everything below fails): the attempts reaching each piece.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LayersResult {
    /// Per request entering the top: 1 at the top, then each layer below.
    pub reaching: Vec<f64>,
    /// The same per second.
    pub per_second: Vec<f64>,
    /// What each retrying layer multiplies by.
    pub factors: Vec<f64>,
}

pub fn layers(params: &LayersParams) -> LayersResult {
    let (p, _) = crate::sim::params::clamp(params);
    let r = p.retries as f64;
    let n = p.layers as usize;
    let factors: Vec<f64> = (0..n)
        .map(|k| {
            let retrying = !p.one_layer.is_on() || k == n - 1;
            let retries = if retrying { r } else { 0.0 };
            // A budget lets a layer's retries be at most that share of its requests.
            let retries = p.budget_pct.map_or(retries, |b| retries.min(b as f64 / 100.0));
            1.0 + retries
        })
        .collect();
    let mut reaching = vec![1.0];
    for f in &factors {
        let next = reaching.last().unwrap() * f;
        reaching.push(next);
    }
    let per_second = reaching.iter().map(|x| x * p.rps as f64).collect();
    LayersResult {
        reaching,
        per_second,
        factors,
    }
}

// ----------------------------------------------------------------- budget

crate::params! {
    /// The retry budget. Defaults are the lesson's gateway.
    #[derive(Eq)]
    pub struct BudgetParams {
        /// Requests per second
        rps: u32 = 500 => int("Requests por segundo", "/s", 1, 1_000_000),
        /// Percent of attempts that fail
        failing_pct: u32 = 20 => int("Intentos que fallan", "%", 0, 100),
        /// Attempts per request at most (1 + retries)
        attempts: u32 = 3 => int("Intentos por request, como mucho", "", 1, 10),
        /// Retries allowed, percent of the requests
        budget_pct: u32 = 10 => int("Presupuesto (reintentos / requests)", "%", 0, 100),
        /// Token bucket (gRPC retry throttling): tokens at the start and at most
        max_tokens: u32 = 10 => int("Cubeta: fichas máximas", "", 1, 1_000),
        /// Token bucket: tokens a success gives back, in thousandths (100 = 0.1)
        token_ratio_milli: u32 = 100 => int("Cubeta: fichas por éxito (milésimas)", "", 1, 1_000),
        /// Seed of the token-bucket simulation
        seed: u32 = 7 => int("Semilla", "", 0, u32::MAX as i64),
    }
}

/// What the command line says of it (`sensei-lab budget --help`).
#[cfg(not(target_arch = "wasm32"))]
impl crate::sim::scenario::Scenario for BudgetParams {
    const ABOUT: &'static str = "The retry budget: retries wanted against allowed, and the extra load.";
    const BUDGET: &'static str = "2,000 requests per point of the token bucket's curve, 51 points, and 2,000 more at the chosen failing share, always.";

    fn report(p: &Self, ctx: &mut impl crate::sim::scenario::Session) -> crate::sim::scenario::Run {
        use crate::sim::scenario::Run;
        use serde_json::json;
        let r = ctx.time(|| budget(p));
        Run::plain(json!(r), vec![budget_sentence(p, &r), extra_sentence(&r)])
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BudgetResult {
    /// First retries wanted per second: the requests that failed once.
    pub wanted_per_s: f64,
    /// Retries the budget allows per second.
    pub allowed_per_s: f64,
    /// `(failing share, extra load without budget, with the budget, with the token bucket)`,
    /// extra load as a share of the requests.
    pub curve: Vec<(f64, f64, f64, f64)>,
    /// The same four at the chosen failing share itself (the curve's points
    /// are 2 % apart): what the sentence under the chart says. Its token
    /// bucket is a draw of its own, after the curve's (the curve is the same
    /// with or without it), so on the grid it may differ from the curve's
    /// point by the noise of 2,000 requests.
    pub here: (f64, f64, f64, f64),
}

/// Extra load without a budget: a failed attempt is retried while attempts
/// remain, each failing with the same probability: f + f² + … (attempts − 1 terms).
fn extra_without(f: f64, attempts: u32) -> f64 {
    // A fold from +0.0: an empty `sum()` of floats is −0.0 (one attempt, no retries).
    (1..attempts).map(|k| f.powi(k as i32)).fold(0.0, |a, x| a + x)
}

/// The budget's sentence, the same in the page and on the command line.
pub fn budget_sentence(p: &BudgetParams, r: &BudgetResult) -> String {
    use crate::fmt::es_dec;
    let allowed = format!(
        "{} × {} = {}",
        es_dec(p.budget_pct as f64 / 100.0, 2),
        es_dec(p.rps as f64, 0),
        es_dec(r.allowed_per_s, 2)
    );
    if p.attempts <= 1 {
        format!(
            "Con 1 intento por request no hay reintentos que frenar; el presupuesto permitiría {allowed} por segundo."
        )
    } else {
        let first = format!(
            "Para reintentar todas, el cliente mandaría {} {} por segundo; el presupuesto permite {allowed}.",
            es_dec(r.wanted_per_s, 2),
            if es_dec(r.wanted_per_s, 2) == "1" {
                "reintento"
            } else {
                "reintentos"
            }
        );
        // The lesson counts the first retries; the retries of retries that
        // fail too come on top (rps × (f + f² + …)).
        let all = p.rps as f64 * extra_without(p.failing_pct as f64 / 100.0, p.attempts);
        if es_dec(all, 2) != es_dec(r.wanted_per_s, 2) {
            format!(
                "{first} Esos son los primeros reintentos: con los reintentos de los que vuelven a fallar, serían {} por segundo.",
                es_dec(all, 2)
            )
        } else {
            first
        }
    }
}

/// The extra load at the chosen failing share, three ways: the page's line
/// under the chart and the command line's.
pub fn extra_sentence(r: &BudgetResult) -> String {
    use crate::fmt::es_percent;
    let (f, without, with, bucket) = r.here;
    format!(
        "Con {} de fallas: carga extra {} sin presupuesto, {} con él, ≈ {} con la cubeta de fichas ({} requests simuladas).",
        es_percent(f, 0),
        es_percent(without, 0),
        es_percent(with, 0),
        es_percent(bucket, 0),
        crate::fmt::es_int(BUCKET_REQUESTS as i64)
    )
}

/// The token bucket of gRPC's retry throttling, simulated on `n` requests:
/// tokens start at the maximum; a failure takes 1, a success gives back
/// `ratio`; retries are allowed only while tokens are above half the maximum.
fn extra_bucket(f: f64, p: &BudgetParams, rng: &mut PyRandom, n: u32) -> f64 {
    let max = p.max_tokens as f64;
    let ratio = p.token_ratio_milli as f64 / 1000.0;
    let mut tokens = max;
    let mut retries = 0u64;
    for _ in 0..n {
        for attempt in 1..=p.attempts {
            let failed = rng.random() < f;
            if failed {
                tokens = (tokens - 1.0).max(0.0);
            } else {
                tokens = (tokens + ratio).min(max);
            }
            if !failed || attempt == p.attempts || tokens <= max / 2.0 {
                break;
            }
            retries += 1;
        }
    }
    retries as f64 / n as f64
}

/// Points of the curve, from 0 to 100 % failing.
pub const BUDGET_POINTS: u32 = 50;
/// Requests simulated per point of the token bucket's curve.
pub const BUCKET_REQUESTS: u32 = 2_000;

pub fn budget(params: &BudgetParams) -> BudgetResult {
    let (p, _) = crate::sim::params::clamp(params);
    let f = p.failing_pct as f64 / 100.0;
    let b = p.budget_pct as f64 / 100.0;
    let mut rng = PyRandom::new(p.seed);
    let curve = (0..=BUDGET_POINTS)
        .map(|k| {
            let f = k as f64 / BUDGET_POINTS as f64;
            let without = extra_without(f, p.attempts);
            (
                f,
                without,
                without.min(b),
                extra_bucket(f, &p, &mut rng, BUCKET_REQUESTS),
            )
        })
        .collect();
    // Drawn after the curve, so the curve is the same with or without it.
    let without = extra_without(f, p.attempts);
    let here = (
        f,
        without,
        without.min(b),
        extra_bucket(f, &p, &mut rng, BUCKET_REQUESTS),
    );
    BudgetResult {
        wanted_per_s: if p.attempts > 1 { p.rps as f64 * f } else { 0.0 },
        allowed_per_s: p.rps as f64 * b,
        curve,
        here,
    }
}

impl crate::sim::figures::TaskFigures for BackoffParams {
    const RESULTS: &'static [crate::sim::figures::Figure] =
        &[crate::fig!("total-max-ms", "la espera total más larga", Ms)];
    fn figure(&self, key: &str) -> Option<f64> {
        match key {
            "total-max-ms" => Some(backoff(self).total_max_ms),
            _ => None,
        }
    }
}

impl crate::sim::figures::TaskFigures for LayersParams {
    const RESULTS: &'static [crate::sim::figures::Figure] = &[crate::fig!(
        "bottom",
        "los intentos que llegan al fondo por request",
        Count
    )];
    fn figure(&self, key: &str) -> Option<f64> {
        match key {
            "bottom" => layers(self).reaching.last().copied(),
            _ => None,
        }
    }
}

impl crate::sim::figures::TaskFigures for BudgetParams {
    const RESULTS: &'static [crate::sim::figures::Figure] = &[
        crate::fig!("allowed", "los reintentos por segundo que deja el presupuesto", Rate),
        crate::fig!("wanted", "los reintentos por segundo que se querrían", Rate),
    ];
    fn figure(&self, key: &str) -> Option<f64> {
        let r = budget(self);
        match key {
            "allowed" => Some(r.allowed_per_s),
            "wanted" => Some(r.wanted_per_s),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exercise_2() {
        let t = backoff(&BackoffParams::default());
        let maxes: Vec<f64> = t.rows.iter().map(|r| r.max_ms).collect();
        assert_eq!(maxes, [100.0, 200.0, 400.0, 800.0, 1000.0]);
        assert_eq!(t.rows[4].uncapped_ms, 1600.0);
        assert_eq!(t.total_max_ms, 2500.0);
        assert_eq!(t.total_mean_ms, 1250.0);
        let sampled_mean = t.sampled_totals.iter().sum::<f64>() / t.sampled_totals.len() as f64;
        assert!((sampled_mean - 1250.0).abs() < 25.0, "{sampled_mean}");
        assert!(t.sampled_totals.iter().all(|x| *x <= 2500.0));
    }

    #[test]
    fn layers_multiply() {
        assert_eq!(layers(&LayersParams::default()).reaching, [1.0, 4.0, 16.0, 64.0]);
        let a = layers(&LayersParams {
            layers: 2,
            retries: 2,
            ..LayersParams::default()
        });
        assert_eq!((a.reaching[2], a.per_second[2]), (9.0, 4500.0));
        let b = layers(&LayersParams {
            layers: 4,
            retries: 1,
            ..LayersParams::default()
        });
        assert_eq!((b.reaching[4], b.per_second[4]), (16.0, 8000.0));
        let one = layers(&LayersParams {
            one_layer: super::super::params::Toggle::On,
            ..LayersParams::default()
        });
        assert_eq!(one.reaching, [1.0, 1.0, 1.0, 4.0]);
        let budget = layers(&LayersParams {
            budget_pct: Some(10),
            ..LayersParams::default()
        });
        assert!((budget.reaching[3] - 1.1f64.powi(3)).abs() < 1e-12);
    }

    #[test]
    fn the_budget() {
        let r = budget(&BudgetParams::default());
        assert_eq!(r.wanted_per_s, 100.0);
        assert_eq!(r.allowed_per_s, 50.0);
        for (f, without, with, bucket) in &r.curve {
            assert!(*with <= 0.1 + 1e-12 && with <= without);
            assert!(*bucket <= *without + 0.05, "f = {f}");
        }
        // When everything fails, without a budget every request becomes 3 attempts.
        let last = r.curve.last().unwrap();
        assert_eq!((last.1, last.2), (2.0, 0.1));
        assert!(last.3 < 0.01, "the bucket stops retrying: {}", last.3);
    }
}
