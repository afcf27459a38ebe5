//! Hedged requests: a second copy for the slow tail.
//!
//! Why: when the slowness is one replica pausing now and then (a garbage
//! collection, a stuck disk), most reads are fast and a few are very slow,
//! and those few set the p99. Hedging sends a second copy to another replica
//! when the first has not answered by the p95, takes whichever answers first
//! and cancels the other. Only the slowest 5 % get a copy, so it costs about
//! 5 % extra load; a read stays slow only if both copies land on a pause
//! (0.03 × 0.03 = 0.09 %). It does not help when the slowness is saturation:
//! the copy is just as slow, and the extra load makes it worse.
//!
//! [`formula`] is exercise 8's arithmetic; [`simulate`] is a Monte Carlo of
//! the same reads, seeded. Its random draws ([`Draws`]) depend only on the
//! seed and the number of reads, so a widget draws them once and replays
//! them for every other change ([`simulate_with`]): arithmetic only, well
//! inside a frame for 100,000 reads.
//!
//! ```
//! use sensei_lab::sim::hedging::{formula, HedgingParams};
//! let f = formula(&HedgingParams::default());
//! assert!((f.still_slow - 0.0009).abs() < 1e-12);
//! assert_eq!(f.gpu_after_pct, 94.5);
//! ```

use crate::sim::params::Maybe;
use crate::sim::policy::rng::{normal_quantile, unit_from_u32, PyRandom};
use serde::{Deserialize, Serialize};

crate::params! {
    /// The reads and the hedge. Defaults are exercise 8's.
    #[derive(Eq)]
    pub struct HedgingParams {
        /// Percent of reads that land on a replica that pauses
        pause_pct: u32 = 3 => int("Lecturas que caen en una pausa", "%", 0, 50),
        /// How long a pause lasts, in ms
        pause_ms: u32 = 800 => int("Duración de la pausa", "ms", 1, 60_000),
        /// How long a normal copy takes on average, in ms
        copy_ms: u32 = 40 => int("Una copia normal tarda", "ms", 1, 10_000),
        /// Spread (standard deviation) of a normal copy, in ms
        spread_ms: u32 = 5 => int("Variación de una copia normal", "ms", 0, 5_000),
        /// Send the second copy at this percentile of the latency; none = no hedging
        hedge_pct: Maybe = Some(95) => optional("Mandar la copia en el percentil", "", "sin hedging", "hedging", 50, 99),
        /// Utilisation of the piece that would serve the copies, in percent (exercise 8: 90)
        utilization_pct: u32 = 90 => int("Uso de la pieza que atiende", "%", 1, 100),
        /// Reads simulated
        reads: u32 = 100_000 => int("Lecturas simuladas", "", 1_000, MAX_READS as i64),
        /// Seed of the Monte Carlo
        seed: u32 = 7 => int("Semilla", "", 0, u32::MAX as i64),
    }
}

/// What the command line says of it (`sensei-lab hedging --help`).
#[cfg(not(target_arch = "wasm32"))]
impl crate::sim::scenario::Scenario for HedgingParams {
    const ABOUT: &'static str = "Hedged requests: a second copy at a percentile, by Monte Carlo (exercise 8).";
    const BUDGET: &'static str = "--reads itself (at most 200,000); every run plays all of them. Where the lesson's arithmetic does not describe the run, a note says so and gives the simulation's figure.";

    fn report(p: &Self, ctx: &mut impl crate::sim::scenario::Session) -> crate::sim::scenario::Run {
        use crate::fmt::{es_int, es_percent};
        use crate::sim::scenario::Run;
        use serde_json::json;
        let (r, f) = ctx.time(|| (simulate(p), formula(p)));
        let notes = notes(p, &f, &r);
        let ms = |v: f64| format!("{} ms", es_int(v.round() as i64));
        let mut lines = vec![format!(
            "sin hedging: p50 {}, p95 {}, p99 {}, p99.9 {}; lentas {}",
            ms(r.without.p50),
            ms(r.without.p95),
            ms(r.without.p99),
            ms(r.without.p999),
            es_percent(r.slow_without, 2)
        )];
        if let Some(w) = &r.with {
            lines.push(format!(
                "con hedging: p50 {}, p95 {}, p99 {}, p99.9 {}; lentas {}; carga extra {}",
                ms(w.p50),
                ms(w.p95),
                ms(w.p99),
                ms(w.p999),
                es_percent(r.slow_with, 2),
                es_percent(r.extra_load, 1)
            ));
            lines.push(gpu_sentence(p, &f));
        }
        Run {
            result: json!({ "formula": f, "without": r.without, "with": r.with, "hedge_at_ms": r.hedge_at_ms,
                "extra_load": r.extra_load, "slow_without": r.slow_without, "slow_with": r.slow_with,
                "rescued_max_ms": r.rescued_max_ms }),
            truncated: false,
            notes,
            lines,
        }
    }
}

/// Exercise 8's last step, the page's and the command line's: the lesson's
/// extra load (the formula's, not the run's) on a piece at its utilization.
pub fn gpu_sentence(p: &HedgingParams, f: &Formula) -> String {
    use crate::fmt::{es_dec, es_percent};
    format!(
        "Carga extra ≈ {}: una pieza al {} % de uso {} {} × {} ≈ {} %.",
        es_percent(f.extra_load, 0),
        p.utilization_pct,
        if f.gpu_after_pct > 100.0 {
            "necesitaría"
        } else {
            "queda en"
        },
        es_dec(p.utilization_pct as f64 / 100.0, 2),
        es_dec(1.0 + f.extra_load, 2),
        es_dec(f.gpu_after_pct, 1)
    )
}

/// Exercise 8's arithmetic.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Formula {
    /// Share of reads still slow with hedging: both copies pause.
    pub still_slow: f64,
    /// Extra load: the reads slower than the hedging percentile get a copy.
    pub extra_load: f64,
    /// The piece's utilisation once it serves the copies too, in percent.
    pub gpu_after_pct: f64,
}

pub fn formula(params: &HedgingParams) -> Formula {
    let (p, _) = crate::sim::params::clamp(params);
    let pause = p.pause_pct as f64 / 100.0;
    let extra = p.hedge_pct.map_or(0.0, |h| (100 - h) as f64 / 100.0);
    Formula {
        still_slow: if p.hedge_pct.is_some() { pause * pause } else { pause },
        extra_load: extra,
        gpu_after_pct: (p.utilization_pct as f64 * (1.0 + extra) * 1e6).round() / 1e6,
    }
}

/// Where the lesson's arithmetic does not describe this run, said plainly,
/// with the simulation's figure as the one that holds (the page and the
/// command line show these beside the figures).
pub fn notes(params: &HedgingParams, f: &Formula, r: &HedgingRun) -> Vec<String> {
    use crate::fmt::es_percent;
    let (p, _) = crate::sim::params::clamp(params);
    let mut out = Vec::new();
    let Some(h) = p.hedge_pct else { return out };
    // The formula's «both copies pause» holds while the slow reads are fewer
    // than the tail that gets a copy; otherwise the hedging percentile falls
    // inside the pauses and the copy leaves too late. Beyond that, a
    // difference the Monte Carlo's noise cannot explain is said too.
    let n = p.reads.max(1) as f64;
    let noise = 4.0 * (f.still_slow * (1.0 - f.still_slow) / n).sqrt() + 0.002;
    // The hedging percentile falls inside the pauses: measured, not assumed.
    let inside = r
        .hedge_at_ms
        .is_some_and(|at| p.pause_pct > 0 && at >= p.pause_ms as f64);
    if inside || (r.slow_with - f.still_slow).abs() > noise {
        out.push(format!(
            "La cuenta de la lección ({} × {} = {} siguen lentas) supone que las lentas son menos que el {} que recibe copia. Aquí {}: la simulación mide {} lentas con hedging, y esa es la cifra que vale.",
            es_percent(p.pause_pct as f64 / 100.0, 0),
            es_percent(p.pause_pct as f64 / 100.0, 0),
            es_percent(f.still_slow, 2),
            es_percent((100 - h) as f64 / 100.0, 0),
            if inside {
                format!("el {} es lento y el p{h} cae dentro de las pausas, así que la copia sale tarde", es_percent(p.pause_pct as f64 / 100.0, 0))
            } else {
                "no se cumple".to_string()
            },
            es_percent(r.slow_with, 2)
        ));
    }
    let noise = 4.0 * (f.extra_load * (1.0 - f.extra_load) / n).sqrt() + 0.002;
    if (r.extra_load - f.extra_load).abs() > noise {
        out.push(format!(
            "La carga extra de la cuenta ({}, las que pasan del p{h}) no es la medida: la simulación manda copia al {} de las lecturas.",
            es_percent(f.extra_load, 0),
            es_percent(r.extra_load, 1)
        ));
    }
    // The piece's use with the copies the run actually sent.
    let gpu_measured = p.utilization_pct as f64 * (1.0 + r.extra_load);
    if gpu_measured > 100.0 {
        out.push(format!(
            "Con la carga extra que se mide ({}), la pieza necesitaría {} % de uso: más de lo que tiene. No llega a eso: se satura, su fila crece y todas sus respuestas se vuelven lentas.",
            es_percent(r.extra_load, 1),
            crate::fmt::es_dec(gpu_measured, 1)
        ));
    }
    out
}

/// Latency percentiles, in ms.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Percentiles {
    pub p50: f64,
    pub p95: f64,
    pub p99: f64,
    pub p999: f64,
}

/// What the Monte Carlo measured.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HedgingRun {
    pub without: Percentiles,
    pub with: Option<Percentiles>,
    /// When the second copy is sent (the measured percentile), in ms.
    pub hedge_at_ms: Option<f64>,
    /// Share of reads that got a second copy.
    pub extra_load: f64,
    /// Share of reads at least half a pause slow, without and with hedging.
    pub slow_without: f64,
    pub slow_with: f64,
    /// The slowest read a second copy rescued, in ms.
    pub rescued_max_ms: Option<f64>,
    /// `(ms, share of reads slower than that)`, without and with hedging, for the chart.
    pub ccdf_without: Vec<(f64, f64)>,
    pub ccdf_with: Vec<(f64, f64)>,
}

/// The random part of a run: for each read, what decides whether each of
/// its two copies lands on a pause, and the normal draw of each.
///
/// The draws of a seed are one stream, read after read, so the draws for
/// more reads begin with those for fewer: [`Draws::cover`] extends them, and
/// a run of `n` reads plays the first `n`.
#[derive(Clone)]
pub struct Draws {
    seed: u32,
    rng: PyRandom,
    /// Per read, four draws of 32 bits from `PyRandom::new(seed)`, in order:
    /// pause of copy 1, pause of copy 2, normal of copy 1, normal of copy 2.
    /// The first copy's, `[pause, normal]`, are read by every pass of a run;
    /// the second copy's, `[pause, uniform]`, only for the reads that get a
    /// copy (its uniform turned into a normal then), so they are kept apart.
    first: Vec<[f32; 2]>,
    second: Vec<[f32; 2]>,
}

impl Draws {
    pub fn new(seed: u32, reads: u32) -> Self {
        let mut d = Draws {
            seed,
            rng: PyRandom::new(seed),
            first: Vec::new(),
            second: Vec::new(),
        };
        d.cover(seed, reads);
        d
    }

    /// Makes these the draws of `seed` for at least `reads` reads: the same
    /// ones extended, or new ones for another seed.
    pub fn cover(&mut self, seed: u32, reads: u32) {
        if seed != self.seed {
            *self = Draws::new(seed, reads);
            return;
        }
        let want = reads.min(MAX_READS) as usize;
        let have = self.first.len();
        if want <= have {
            return;
        }
        let rng = &mut self.rng;
        let mut unit = move || unit_from_u32(rng.next_u32());
        self.first.reserve_exact(want - have);
        self.second.reserve_exact(want - have);
        for _ in have..want {
            let (a, b, z1, u2) = (unit(), unit(), normal_quantile(unit()), unit());
            self.first.push([a as f32, z1 as f32]);
            self.second.push([b as f32, u2 as f32]);
        }
    }

    /// How many reads these draws cover.
    fn len(&self) -> usize {
        self.first.len()
    }
}

/// The most reads a run plays (the bound of `--reads`).
pub const MAX_READS: u32 = 200_000;

/// One copy's latency: a pause, or a normal read (never under 1 ms).
fn copy(p: &HedgingParams, pause_draw: f32, z: f64) -> f64 {
    if pauses(p, pause_draw) {
        return p.pause_ms as f64;
    }
    normal_copy(p, z)
}

#[inline(always)]
fn pauses(p: &HedgingParams, pause_draw: f32) -> bool {
    (pause_draw as f64) < p.pause_pct as f64 / 100.0
}

#[inline(always)]
fn normal_copy(p: &HedgingParams, z: f64) -> f64 {
    (p.copy_ms as f64 + p.spread_ms as f64 * z).max(1.0)
}

/// The slowest first copy of `first` (at least 1 ms): a pause if any read
/// pauses, or the normal read of the largest normal draw among the others
/// (a normal copy's latency grows with its draw, the spread being ≥ 0), so
/// one pass of comparisons finds it.
fn slowest_first(p: &HedgingParams, first: &[[f32; 2]]) -> f64 {
    let (mut paused, mut z_max) = (false, f32::NEG_INFINITY);
    for &[pause_draw, z] in first {
        if pauses(p, pause_draw) {
            paused = true;
        } else if z > z_max {
            z_max = z;
        }
    }
    let mut slowest = 1.0f64;
    if paused {
        slowest = slowest.max(p.pause_ms as f64);
    }
    if z_max > f32::NEG_INFINITY {
        slowest = slowest.max(normal_copy(p, z_max as f64));
    }
    slowest
}

/// The latencies of a run, binned finely: percentiles and the tail in
/// O(n), without sorting (a sort of 100,000 floats is most of a frame in
/// the browser). Bins are logarithmic — 1,024 per doubling, read off the
/// float's bits — so a bin is at most 0.1 % of its latency wide whatever the
/// longest pause (even bins scaled to a 60 s pause were 3 ms wide, and moved
/// a 40 ms p50 to 43). Each bin keeps its largest sample, so a percentile
/// is a real sample, off from the exact order statistic by less than a bin.
struct Histogram {
    counts: Vec<u32>,
    max: Vec<f64>,
    n: usize,
}

/// Bins per doubling of the latency, as a power of two.
const SUB_BITS: u32 = 10;

/// The bin of a latency (every latency is at least 1 ms).
#[inline(always)]
fn bin(v: f64) -> usize {
    ((v.max(1.0).to_bits() - 1.0f64.to_bits()) >> (52 - SUB_BITS)) as usize
}

impl Histogram {
    /// An empty histogram for samples in `1..=top`.
    fn empty(top: f64) -> Self {
        let bins = bin(top) + 1;
        Histogram {
            counts: vec![0; bins],
            max: vec![f64::NEG_INFINITY; bins],
            n: 0,
        }
    }

    fn add(&mut self, v: f64) {
        let i = bin(v).min(self.counts.len() - 1);
        self.counts[i] += 1;
        // Samples are never NaN: a comparison is the max, without `f64::max`'s NaN handling.
        if v > self.max[i] {
            self.max[i] = v;
        }
        self.n += 1;
    }

    /// The smallest sample with at least a share `q` of samples at or below it.
    fn percentile(&self, q: f64) -> f64 {
        let k = ((q * self.n as f64).ceil() as usize).clamp(1, self.n.max(1));
        let mut seen = 0usize;
        for (i, c) in self.counts.iter().enumerate() {
            seen += *c as usize;
            if seen >= k {
                return self.max[i];
            }
        }
        0.0
    }

    fn percentiles(&self) -> Percentiles {
        Percentiles {
            p50: self.percentile(0.50),
            p95: self.percentile(0.95),
            p99: self.percentile(0.99),
            p999: self.percentile(0.999),
        }
    }

    fn ccdf(&self, max: f64) -> Vec<(f64, f64)> {
        // One pass from the top: cumulative counts above each bin.
        let bins = self.counts.len();
        let mut above = vec![0usize; bins + 1];
        for i in (0..bins).rev() {
            above[i] = above[i + 1] + self.counts[i] as usize;
        }
        (0..=CCDF_POINTS)
            .map(|k| {
                let x = max * k as f64 / CCDF_POINTS as f64;
                // Below 1 ms there is no latency: everything is above.
                let share = if x < 1.0 {
                    1.0
                } else {
                    above[(bin(x).min(bins - 1) + 1).min(bins)] as f64 / self.n.max(1) as f64
                };
                (x, share)
            })
            .collect()
    }
}

/// Points of the complementary distribution, evenly spaced in latency.
pub const CCDF_POINTS: usize = 240;

/// Plays `reads` reads: each first copy, and a second one at the hedging
/// percentile for those still waiting.
pub fn simulate(params: &HedgingParams) -> HedgingRun {
    let (p, _) = crate::sim::params::clamp(params);
    simulate_with(&Draws::new(p.seed, p.reads), &p)
}

/// [`simulate`] with the draws already made (they must be for `params`'s
/// seed and at least its reads, see [`Draws::cover`]; if not, they are made
/// again).
pub fn simulate_with(draws: &Draws, params: &HedgingParams) -> HedgingRun {
    let (p, _) = crate::sim::params::clamp(params);
    if draws.seed != p.seed || draws.len() < p.reads as usize {
        return simulate_with(&Draws::new(p.seed, p.reads), &p);
    }
    let n = p.reads as usize;
    let (first_draws, second_draws) = (&draws.first[..n], &draws.second[..n]);
    // Three passes over the draws, no sample kept: each latency is a few
    // operations to compute again, cheaper than storing 100,000 of them.
    let first = |d: &[f32; 2]| copy(&p, d[0], d[1] as f64);
    let slowest = slowest_first(&p, first_draws);
    // A slow read is one whose answer waited a pause (the lesson's «cae en
    // una pausa»), whatever the pause's length: not a latency threshold, which
    // short pauses would blur with normal reads.
    let paused = |d: &[f32; 2]| pauses(&p, d[0]);
    let max_x = slowest * 1.1;
    let mut h_without = Histogram::empty(max_x);
    let mut slow_count = 0usize;
    for d in first_draws {
        let v = first(d);
        h_without.add(v);
        slow_count += usize::from(paused(d));
    }
    let slow_without = slow_count as f64 / n as f64;
    let without = h_without.percentiles();
    let ccdf_without = h_without.ccdf(max_x);

    let Some(h) = p.hedge_pct else {
        return HedgingRun {
            without,
            with: None,
            hedge_at_ms: None,
            extra_load: 0.0,
            slow_without,
            slow_with: slow_without,
            rescued_max_ms: None,
            ccdf_with: ccdf_without.clone(),
            ccdf_without,
        };
    };
    let hedge_at = h_without.percentile(h as f64 / 100.0);
    let (mut hedged, mut rescued_max) = (0usize, None::<f64>);
    // The hedged latencies are never above the first ones, so the same bins fit.
    let mut h_with = Histogram::empty(max_x);
    let mut slow_count = 0usize;
    for (d, &[pause_draw, u]) in first_draws.iter().zip(second_draws) {
        let mut v = first(d);
        let mut rescued = false;
        if v > hedge_at {
            hedged += 1;
            let second = hedge_at + copy(&p, pause_draw, normal_quantile(u as f64));
            if second < v {
                rescued_max = Some(rescued_max.map_or(second, |m: f64| m.max(second)));
                v = second;
                rescued = true;
            }
        }
        h_with.add(v);
        slow_count += usize::from(paused(d) && !rescued);
    }
    HedgingRun {
        without,
        with: Some(h_with.percentiles()),
        hedge_at_ms: Some(hedge_at),
        extra_load: hedged as f64 / n as f64,
        slow_without,
        slow_with: slow_count as f64 / n as f64,
        rescued_max_ms: rescued_max,
        ccdf_with: h_with.ccdf(max_x),
        ccdf_without,
    }
}

impl crate::sim::figures::TaskFigures for HedgingParams {
    const RESULTS: &'static [crate::sim::figures::Figure] = &[
        crate::fig!("p99-ms", "el p99 con hedging", Ms),
        crate::fig!("extra", "la carga extra", Share),
    ];
    fn figure(&self, key: &str) -> Option<f64> {
        let r = simulate(self);
        match key {
            "extra" => Some(r.extra_load),
            "p99-ms" => r.with.map(|w| w.p99),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::policy::rng::pick;

    #[test]
    fn exercise_8() {
        let r = simulate(&HedgingParams::default());
        // (a) Without hedging the p99 falls in a pause.
        assert_eq!(r.without.p99, 800.0);
        assert!((r.without.p95 - 50.0).abs() < 3.0, "p95 {}", r.without.p95);
        // (b) ≈ 0.09 % stay slow; the p99 is ≈ 50 + 40 = 90 ms; ≈ 5 % extra load.
        let w = r.with.unwrap();
        assert!((r.slow_with - 0.0009).abs() < 0.0003, "{}", r.slow_with);
        assert!((w.p99 - 90.0).abs() < 6.0, "p99 {}", w.p99);
        assert!((r.extra_load - 0.05).abs() < 0.002, "{}", r.extra_load);
        let f = formula(&HedgingParams::default());
        assert_eq!(f.gpu_after_pct, 94.5);
    }

    /// Replaying the draws is the same run as drawing them again.
    #[test]
    fn replayed_draws_give_the_same_run() {
        let p = HedgingParams {
            reads: 20_000,
            ..HedgingParams::default()
        };
        let draws = Draws::new(p.seed, p.reads);
        for change in [
            HedgingParams {
                pause_pct: 10,
                ..p.clone()
            },
            HedgingParams {
                hedge_pct: Some(80),
                ..p.clone()
            },
            HedgingParams {
                spread_ms: 0,
                ..p.clone()
            },
        ] {
            assert_eq!(simulate_with(&draws, &change), simulate(&change));
        }
        // Draws for another seed are not used.
        let other = HedgingParams { seed: 8, ..p.clone() };
        assert_eq!(simulate_with(&draws, &other), simulate(&other));
        assert_ne!(simulate(&other), simulate(&p));
    }

    /// More reads extend the same stream: fewer reads play its beginning,
    /// and draws grown or made anew for a seed are the same draws.
    #[test]
    fn draws_cover_more_reads_and_other_seeds() {
        let p = HedgingParams {
            reads: 5_000,
            ..HedgingParams::default()
        };
        let mut draws = Draws::new(p.seed, 1_000);
        draws.cover(p.seed, 12_000);
        for reads in [1_000, 5_000, 12_000] {
            let q = HedgingParams { reads, ..p.clone() };
            assert_eq!(simulate_with(&draws, &q), simulate(&q), "{reads}");
        }
        draws.cover(9, 3_000);
        let q = HedgingParams {
            seed: 9,
            reads: 3_000,
            ..p.clone()
        };
        assert_eq!(simulate_with(&draws, &q), simulate(&q));
        // Beyond the bound, the bound.
        draws.cover(9, u32::MAX);
        assert_eq!(draws.len(), MAX_READS as usize);
    }

    /// The slowest first copy, found by comparisons, is the largest latency.
    #[test]
    fn slowest_first_is_the_largest_first_copy() {
        let draws = Draws::new(3, 20_000);
        let mut rng = PyRandom::new(5);
        for k in 0..200 {
            let p = HedgingParams {
                pause_pct: if k % 7 == 0 { 0 } else { pick(&mut rng, 0, 50) },
                pause_ms: pick(&mut rng, 1, 2_000),
                copy_ms: pick(&mut rng, 1, 300),
                spread_ms: if k % 5 == 0 { 0 } else { pick(&mut rng, 0, 400) },
                ..HedgingParams::default()
            };
            let n = [1, 10, 1_000, 20_000][k % 4];
            let reads = &draws.first[..n];
            let by_fold = reads.iter().map(|d| copy(&p, d[0], d[1] as f64)).fold(1.0, f64::max);
            assert_eq!(slowest_first(&p, reads), by_fold, "{p:?}, {n} reads");
        }
    }

    #[test]
    fn no_hedging_no_extra_load() {
        let r = simulate(&HedgingParams {
            hedge_pct: None,
            reads: 5_000,
            ..HedgingParams::default()
        });
        assert_eq!(r.extra_load, 0.0);
        assert!(r.with.is_none());
    }
}
