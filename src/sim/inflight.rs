//! What waiting too long costs: Little's law and the in-flight cap.
//!
//! Why: Little's law says how many requests are inside on average — those
//! that arrive per second times how long each one takes. A timeout bounds how
//! long each takes when the piece below is stuck, and so bounds how many pile
//! up. C01's gateway keeps at most `MAX_INFLIGHT` = 16 requests in flight per
//! pod; request 17 gets a 503 at once. With Triton stuck and a 150 ms timeout
//! each request takes ≈ 40 + 150 = 190 ms, so a pod that receives 100 per
//! second would need 19 places: about 16 % are turned away, and every request
//! still gets its answer in time. Without the cap and with a 5 s timeout, 504
//! photos of up to 10 MB pile up in a pod of 1 GiB.
//!
//! [`formula`] is the arithmetic of the lesson; [`simulate`] plays one pod
//! out, arrival by arrival, and measures the same figures.
//!
//! ```
//! use sensei_lab::sim::inflight::{formula, InflightParams};
//! let f = formula(&InflightParams::default());
//! assert_eq!(f.service_inflight, 75.0);
//! assert_eq!(f.pod_demand, 19.0);
//! assert_eq!((f.rejected_share * 100.0).round(), 16.0);
//! ```

use crate::sim::params::Maybe;
use crate::sim::policy::rng::{PyRandom, UnitRng};
use rand_core::SeedableRng;
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

crate::params! {
    /// The service, the stuck backend, and the pod. Defaults are C01's.
    #[derive(Eq)]
    pub struct InflightParams {
        /// Requests per second to the whole service
        rps: u32 = 500 => int("Requests por segundo (servicio)", "/s", 1, 100_000),
        /// Pods (copies of the gateway) sharing them
        pods: u32 = 5 => int("Pods", "", 1, 1_000),
        /// Timeout of the call to Triton, which is stuck, in ms
        timeout_ms: u32 = 150 => int("Timeout hacia Triton", "ms", 1, 600_000),
        /// The rest of the work of each request, in ms
        other_ms: u32 = 40 => int("Resto del trabajo", "ms", 0, 60_000),
        /// MAX_INFLIGHT per pod; none = no cap
        max_inflight: Maybe = Some(16) => optional("MAX_INFLIGHT por pod", "", "sin tope", "con tope", 1, 100_000),
        /// Size of each photo, in MB
        photo_mb: u32 = 10 => int("Tamaño de la foto", "MB", 0, 1_000),
        /// Memory of a pod, in MiB
        pod_memory_mib: u32 = 1024 => int("Memoria del pod", "MiB", 1, 1_048_576),
        /// When the caller gives up, in ms
        caller_ms: u32 = 300 => int("El caller se rinde a los", "ms", 1, 600_000),
        /// Seconds of simulated traffic for one pod
        duration_s: u32 = 10 => int("Segundos simulados", "s", 1, 120),
        /// Arrivals: regular (evenly spaced, the lesson's arithmetic) or poisson (at random)
        arrivals: Arrivals = Arrivals::Regular => choice("Llegadas", ARRIVALS),
        /// Seed for poisson arrivals
        seed: u32 = 7 => int("Semilla", "", 0, u32::MAX as i64),
        /// The moment shown, in ms from the start; none = the run's end (the player's time)
        t_ms: Maybe = None => optional("Momento", "ms", "el final", "un momento", 0, crate::sim::playback::MAX_T_MS),
    }
}

/// What the command line says of it (`sensei-lab inflight --help`).
#[cfg(not(target_arch = "wasm32"))]
impl crate::sim::scenario::Scenario for InflightParams {
    const ABOUT: &'static str =
        "Little's law and MAX_INFLIGHT: what waiting too long costs a pod (formula and simulation).";
    const BUDGET: &'static str = "the simulation of one pod plays at most 200,000 arrivals (180,000 when they are random): (rps ÷ pods) × duration-s within it, or refused here (the page plays what fits and says so). With no steady state in what was played (each request holds its place longer than the run), it gives no steady-state share or mean.";

    fn beyond_budget(p: &Self) -> Option<String> {
        use crate::fmt::{es_dec, es_int};
        let most = longest_fit_s(p);
        (p.duration_s as u64 > most).then(|| {
            format!(
                "--duration-s {} is past the work budget: at {} arrivals per second per pod (--rps {} ÷ --pods {}), the simulation of one pod plays at most {} {}arrivals, so --duration-s at most {}",
                p.duration_s,
                es_dec(p.rps as f64 / p.pods as f64, 2),
                p.rps,
                p.pods,
                es_int(budget_arrivals(p) as i64),
                if p.arrivals == Arrivals::Poisson { "random " } else { "" },
                most
            )
        })
    }

    fn report(p: &Self, ctx: &mut impl crate::sim::scenario::Session) -> crate::sim::scenario::Run {
        use crate::fmt::{es_approx, es_count, es_dec, es_int, es_num, es_percent};
        use crate::sim::scenario::Run;
        use serde_json::json;
        let (f, s) = ctx.time(|| (formula(p), simulate(p)));
        let mut notes = s.notes();
        notes.extend(formula_notes(p, &f, &s));
        let cap = p.max_inflight.map_or(" (sin tope)".to_string(), |c| {
            format!(", contra {}", es_count(c as i64, "lugar", "lugares"))
        });
        let steady = match (s.rejected_share, s.mean_inflight) {
            (Some(share), Some(mean)) => format!(
                "; en régimen (después de {} s): {} rechazadas, {} en vuelo en promedio",
                es_dec(s.warmup_s, 3),
                es_percent(share, 1),
                es_dec(mean, 1)
            ),
            _ => "; sin régimen estable en lo simulado".to_string(),
        };
        let mut lines = vec![
            format!("en vuelo hacia Triton (todo el servicio): {}", service_text(p, &f)),
            format!(
                "por pod: {} por segundo × {} s = {} en vuelo{cap}",
                es_num(f.pod_rate),
                es_dec(f.duration_s, 3),
                es_num(f.pod_demand)
            ),
            format!(
                "se rechaza con 503: ≈ {} (se atienden ≈ {} por segundo por pod)",
                es_percent(f.rejected_share, 0),
                es_approx(f.served_per_s)
            ),
            format!(
                "fotos en memoria por pod: {} MB, en un pod de {}",
                es_approx(f.photos_mb),
                memory_label(p.pod_memory_mib)
            ),
            verdict(p, &f).1,
            format!(
                "simulación de un pod ({} s): {} rechazadas de {} llegadas ({}), máximo {} en vuelo{steady}",
                es_dec(s.played_s, 3),
                es_int(s.rejected as i64),
                es_int(s.arrivals as i64),
                es_percent(s.rejected as f64 / s.arrivals.max(1) as f64, 1),
                es_int(s.max_inflight as i64)
            ),
        ];
        // A moment: the pod so far (the curve's points reached by then).
        use crate::sim::playback::{moment_within, say, Playback};
        let at = moment_within(p.t_ms, s.span().end_ms(), say, &mut notes).map(|t| {
            let m = s.at(t);
            lines.push(m.line());
            m
        });
        Run {
            result: json!({ "formula": f, "at": at,
                "simulation": { "arrivals": s.arrivals, "served": s.served, "rejected": s.rejected,
                    "measured_arrivals": s.measured_arrivals, "measured_rejected": s.measured_rejected,
                    "rejected_share": s.rejected_share, "mean_inflight": s.mean_inflight,
                    "max_inflight": s.max_inflight, "warmup_s": s.warmup_s, "played_s": s.played_s,
                    "asked_s": s.asked_s },
                "table": lesson_table(p) }),
            truncated: s.truncated,
            notes,
            lines,
        }
    }
}

/// How requests arrive at the pod.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Arrivals {
    #[default]
    Regular,
    Poisson,
}

impl crate::sim::params::ChoiceKey for Arrivals {
    const KEYS: &'static [(Self, &'static str)] = &[(Arrivals::Regular, "regular"), (Arrivals::Poisson, "poisson")];
}

const ARRIVALS: &[(&str, &str)] = &[("regular", "parejas"), ("poisson", "al azar (Poisson)")];

/// The lesson's arithmetic.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Formula {
    /// Calls hanging towards Triton over the whole service: rps × timeout.
    pub service_inflight: f64,
    /// Requests per second reaching one pod.
    pub pod_rate: f64,
    /// How long one request takes, in s: other work + timeout.
    pub duration_s: f64,
    /// Places one pod would need (Little): pod rate × duration.
    pub pod_demand: f64,
    /// In flight in one pod, with the cap: min(demand, cap).
    pub pod_inflight: f64,
    /// Requests one pod finishes per second: min(rate, cap ÷ duration).
    pub served_per_s: f64,
    /// Share answered with a 503: 1 − served ÷ rate.
    pub rejected_share: f64,
    /// Memory the photos in flight take in one pod, in MB.
    pub photos_mb: f64,
    /// The pod's memory in MB (1 MiB = 1.048576 MB).
    pub pod_memory_mb: f64,
    /// The requests that get in are answered after the caller left.
    pub answers_after_caller_left: bool,
}

/// The lesson's formulas for these parameters.
pub fn formula(params: &InflightParams) -> Formula {
    let (p, _) = crate::sim::params::clamp(params);
    let timeout = p.timeout_ms as f64 / 1000.0;
    let duration_s = (p.other_ms + p.timeout_ms) as f64 / 1000.0;
    let pod_rate = p.rps as f64 / p.pods as f64;
    let pod_demand = pod_rate * duration_s;
    let cap = p.max_inflight.map_or(f64::INFINITY, f64::from);
    let pod_inflight = pod_demand.min(cap);
    let served_per_s = pod_rate.min(cap / duration_s);
    Formula {
        service_inflight: p.rps as f64 * timeout,
        pod_rate,
        duration_s,
        pod_demand,
        pod_inflight,
        served_per_s,
        rejected_share: 1.0 - served_per_s / pod_rate,
        photos_mb: pod_inflight * p.photo_mb as f64,
        pod_memory_mb: p.pod_memory_mib as f64 * 1.048_576,
        answers_after_caller_left: p.other_ms + p.timeout_ms > p.caller_ms,
    }
}

/// The widget's verdict on the formula's figures: `(good, sentence)`.
/// Each sentence's premise is a fact of `f` (tests/relations.rs checks it).
pub fn verdict(p: &InflightParams, f: &Formula) -> (bool, String) {
    use crate::fmt::es_int;
    let memory = memory_label(p.pod_memory_mib);
    if f.photos_mb > f.pod_memory_mb {
        let photos = es_int(f.photos_mb.round() as i64);
        return (
            false,
            match p.max_inflight {
                None => format!("Sin tope, las fotos en vuelo ({photos} MB) no caben en un pod de {memory}."),
                Some(c) => format!(
                    "Aun con el tope de {}, las fotos en vuelo ({photos} MB) no caben en un pod de {memory}.",
                    es_int(c as i64)
                ),
            },
        );
    }
    if f.answers_after_caller_left {
        return (
            false,
            format!(
                "Cada request dura {} ms y el caller se va a los {} ms: las que entran reciben su respuesta cuando nadie la espera.",
                es_int((f.duration_s * 1000.0).round() as i64),
                es_int(p.caller_ms as i64)
            ),
        );
    }
    if f.rejected_share > 0.0 {
        (true, "El tope hace su trabajo: las que no caben reciben un 503 al instante y cada una que entra recibe su respuesta a tiempo.".to_string())
    } else {
        (true, "Caben todas: nadie recibe un 503.".to_string())
    }
}

/// The whole service's calls in flight, as the page and the command line
/// write it: the lesson's figure (rps × timeout, no cap), and beside it
/// what the pods' caps allow when they allow less.
pub fn service_text(p: &InflightParams, f: &Formula) -> String {
    use crate::fmt::{es_int, es_num};
    match p.max_inflight {
        Some(c) if f.service_inflight > p.pods as f64 * c as f64 => format!(
            "{} sin tope; con el tope, a lo más {} × {} = {}",
            es_num(f.service_inflight),
            es_int(p.pods as i64),
            es_int(c as i64),
            es_int(p.pods as i64 * c as i64)
        ),
        _ => es_num(f.service_inflight),
    }
}

/// Erlang's loss formula: the share of arrivals turned away by `servers`
/// places when they arrive at random (Poisson) with `offered` = rate ×
/// duration in flight on average. The lesson's arithmetic is for arrivals
/// evenly spaced; random ones bunch up and lose more.
pub fn erlang_b(offered: f64, servers: u32) -> f64 {
    let mut b = 1.0;
    for k in 1..=servers {
        b = offered * b / (k as f64 + offered * b);
    }
    b
}

/// Where the lesson's arithmetic does not describe the simulated pod, said
/// with the figure that holds (the page and the command line).
pub fn formula_notes(p: &InflightParams, f: &Formula, s: &PodRun) -> Vec<String> {
    use crate::fmt::es_percent;
    let (p, _) = crate::sim::params::clamp(p);
    let mut out = Vec::new();
    if let (Arrivals::Poisson, Some(cap), Some(measured)) = (p.arrivals, p.max_inflight, s.rejected_share) {
        let erlang = erlang_b(f.pod_demand, cap);
        // Only where random arrivals change the answer (more than half a point).
        if erlang - f.rejected_share <= 0.005 {
            return out;
        }
        out.push(format!(
            "La cuenta de la lección ({} con 503) es para llegadas parejas; al azar se juntan y se rechazan más. La simulación mide {}, y la fórmula de Erlang para llegadas al azar da {}.",
            es_percent(f.rejected_share, 1),
            es_percent(measured, 1),
            es_percent(erlang, 1)
        ));
    }
    out
}

/// A pod's memory as the lesson writes it: `1024` → `"1 GiB"`, `1536` → `"1,536 MiB"`.
pub fn memory_label(mib: u32) -> String {
    if mib >= 1024 && mib.is_multiple_of(1024) {
        format!("{} GiB", crate::fmt::es_int((mib / 1024) as i64))
    } else {
        format!("{} MiB", crate::fmt::es_int(mib as i64))
    }
}

/// Most arrivals one simulation plays: the work budget. A run that would
/// take more is cut to fit (`truncated`, with a note saying so).
pub const MAX_ARRIVALS: u64 = 200_000;
/// Points of the in-flight curve kept for the chart.
pub const SAMPLES: usize = 400;

/// What the simulation of one pod measured.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PodRun {
    /// Every arrival of the run: `served + rejected`.
    pub arrivals: u64,
    pub served: u64,
    pub rejected: u64,
    /// The arrivals after the warm-up (the first request's duration), when
    /// the pod is in its steady state, and how many of them got a 503.
    pub measured_arrivals: u64,
    pub measured_rejected: u64,
    /// `measured_rejected ÷ measured_arrivals`; `None` if the run ends
    /// before the warm-up does (no steady state to measure).
    pub rejected_share: Option<f64>,
    /// Time-weighted mean of requests in flight after the warm-up (`None`
    /// likewise).
    pub mean_inflight: Option<f64>,
    pub max_inflight: u64,
    /// The warm-up, in s: one request's whole duration.
    pub warmup_s: f64,
    /// Simulated seconds actually played (less than asked if cut to fit).
    pub played_s: f64,
    /// Seconds asked for.
    pub asked_s: f64,
    /// The run was cut to [`MAX_ARRIVALS`]: `played_s < asked_s`.
    pub truncated: bool,
    /// The longest whole duration within the budget at this rate
    /// ([`longest_fit_s`]): what the command line would take.
    pub longest_fit_s: u64,
    /// Arrivals per second at the pod, and whether they are random (for the notes).
    pub rate: f64,
    pub random: bool,
    /// `(t in s, most in flight since the previous point)`, for the chart.
    pub curve: Vec<(f64, u64)>,
    /// At each point of `curve`: `(served, rejected)` of the arrivals before it.
    pub counts: Vec<(u64, u64)>,
}

/// Arrivals the work budget lets one pod's simulation play: [`MAX_ARRIVALS`]
/// regular ones exactly, random ones with room for their noise (0.9 of it:
/// ~45 standard deviations).
pub fn budget_arrivals(p: &InflightParams) -> u64 {
    match p.arrivals {
        Arrivals::Regular => MAX_ARRIVALS,
        Arrivals::Poisson => MAX_ARRIVALS / 10 * 9,
    }
}

/// The longest whole `duration_s` within the work budget at these
/// parameters' rate: (rps ÷ pods) × duration ≤ [`budget_arrivals`], counted
/// in integers, so a duration that fits exactly is taken.
pub fn longest_fit_s(p: &InflightParams) -> u64 {
    budget_arrivals(p) * p.pods as u64 / p.rps.max(1) as u64
}

/// The simulated seconds played: all of `duration_s` when it fits in the
/// work budget ([`longest_fit_s`]), else as much as fits. A longer
/// `duration_s` is cut to this on the page (with a note) and refused on the
/// command line.
pub fn played_s(p: &InflightParams) -> f64 {
    if p.duration_s as u64 <= longest_fit_s(p) {
        p.duration_s as f64
    } else {
        budget_arrivals(p) as f64 / (p.rps as f64 / p.pods as f64)
    }
}

/// Plays one pod out: arrivals, a slot each for `other + timeout` ms (the
/// backend is stuck, so every call waits its full timeout), 503 when full.
pub fn simulate(params: &InflightParams) -> PodRun {
    simulate_from(params, &mut PyRandom::seed_from_u64(params.seed.into()))
}

/// [`simulate`], drawing the random arrivals from `rng` (any `rand_core`
/// generator; [`simulate`] seeds Python's with the scenario's `seed`).
pub fn simulate_from<R: UnitRng>(params: &InflightParams, rng: &mut R) -> PodRun {
    let (p, _) = crate::sim::params::clamp(params);
    // Time in whole nanoseconds, so that a slot freed at 190 ms is free for
    // the arrival at 190 ms (floats would drift by an ulp and miss it).
    const NS: u64 = 1_000_000_000;
    let rate = p.rps as f64 / p.pods as f64; // per second
    let hold = (p.other_ms + p.timeout_ms) as u64 * 1_000_000;
    let played = (played_s(&p) * NS as f64) as u64;
    let cap = p.max_inflight.map_or(u64::MAX, u64::from);

    // Every request holds its slot equally long, so they end in start order.
    let mut ends: VecDeque<u64> = VecDeque::new();
    let (mut clock, mut area) = (0u64, 0u128);
    // Moves the clock to `to`, freeing the slots that ended on the way and
    // adding up in-flight × time over the measured span [hold, played].
    let mut advance = |to: u64, ends: &mut VecDeque<u64>| {
        let mut add = |from: u64, until: u64, n: usize| {
            let (a, b) = (from.max(hold), until.min(played));
            if b > a {
                area += n as u128 * (b - a) as u128;
            }
        };
        while let Some(&end) = ends.front() {
            if end > to {
                break;
            }
            add(clock, end, ends.len());
            clock = end;
            ends.pop_front();
        }
        add(clock, to, ends.len());
        clock = to;
    };

    let (mut arrivals, mut served, mut rejected) = (0u64, 0u64, 0u64);
    let (mut measured_arrivals, mut measured_rejected, mut max_inflight) = (0u64, 0u64, 0u64);
    let bucket = (played / SAMPLES as u64).max(1);
    let mut curve: Vec<(f64, u64)> = Vec::with_capacity(SAMPLES + 2);
    let mut counts: Vec<(u64, u64)> = Vec::with_capacity(SAMPLES + 2);
    let (mut bucket_max, mut bucket_end) = (0u64, bucket);
    let mut t = 0u64;
    loop {
        t = match p.arrivals {
            // The k-th arrival at exactly k × pods ÷ rps seconds.
            Arrivals::Regular => (arrivals as u128 * NS as u128 * p.pods as u128 / p.rps as u128) as u64,
            Arrivals::Poisson if arrivals == 0 => 0,
            Arrivals::Poisson => t + (-(1.0 - rng.random()).ln() / rate * NS as f64) as u64,
        };
        if t >= played {
            break;
        }
        advance(t, &mut ends);
        while t >= bucket_end {
            curve.push((bucket_end as f64 / NS as f64, bucket_max));
            counts.push((served, rejected));
            bucket_max = ends.len() as u64;
            bucket_end += bucket;
        }
        arrivals += 1;
        let measured = t >= hold;
        measured_arrivals += measured as u64;
        if (ends.len() as u64) < cap {
            ends.push_back(t + hold);
            served += 1;
        } else {
            rejected += 1;
            measured_rejected += measured as u64;
        }
        max_inflight = max_inflight.max(ends.len() as u64);
        bucket_max = bucket_max.max(ends.len() as u64);
    }
    advance(played, &mut ends);
    curve.push((played as f64 / NS as f64, bucket_max));
    counts.push((served, rejected));
    let span = played.saturating_sub(hold);
    PodRun {
        arrivals,
        served,
        rejected,
        measured_arrivals,
        measured_rejected,
        rejected_share: (span > 0 && measured_arrivals > 0)
            .then(|| measured_rejected as f64 / measured_arrivals as f64),
        mean_inflight: (span > 0).then(|| area as f64 / span as f64),
        max_inflight,
        warmup_s: hold as f64 / NS as f64,
        played_s: played as f64 / NS as f64,
        asked_s: p.duration_s as f64,
        truncated: played < p.duration_s as u64 * NS,
        longest_fit_s: longest_fit_s(&p),
        rate,
        random: p.arrivals == Arrivals::Poisson,
        curve,
        counts,
    }
}

/// One pod so far at a moment: the curve's points reached by then.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct PodMoment {
    /// The moment, in ms from the start.
    pub t_ms: f64,
    /// Points of the curve reached.
    pub points: usize,
    /// The most in flight over the last stretch reached.
    pub inflight: u64,
    pub served: u64,
    pub rejected: u64,
}

impl PodMoment {
    /// The moment in the learner's words.
    pub fn line(&self) -> String {
        use crate::fmt::es_int;
        format!(
            "a los {}: hasta {} en vuelo, {} atendidas y {} con 503",
            crate::sim::playback::say(self.t_ms),
            es_int(self.inflight as i64),
            es_int(self.served as i64),
            es_int(self.rejected as i64)
        )
    }
}

impl PodRun {
    /// The run as the player steps it: one point of the curve a step.
    pub fn span(&self) -> crate::sim::playback::Stops {
        crate::sim::playback::Stops::new(self.curve.iter().map(|c| c.0 * 1000.0), self.played_s * 1000.0)
    }

    /// The pod so far at `t_ms`: the points of the curve at or before it.
    pub fn at(&self, t_ms: f64) -> PodMoment {
        // A point is reached at its stop, its time rounded up to whole ms.
        let k = self.curve.partition_point(|c| (c.0 * 1000.0 - 1e-9).ceil() <= t_ms);
        let (served, rejected) = k.checked_sub(1).map_or((0, 0), |i| self.counts[i]);
        PodMoment {
            t_ms,
            points: k,
            inflight: k.checked_sub(1).map_or(0, |i| self.curve[i].1),
            served,
            rejected,
        }
    }
}

impl PodRun {
    /// What a reader must know beside the simulation's figures: the run was
    /// cut to the work budget, or it ends before the pod's steady state.
    pub fn notes(&self) -> Vec<String> {
        use crate::fmt::{es_dec, es_int};
        let mut out = Vec::new();
        if self.truncated {
            out.push(format!(
                "La simulación de un pod cubre {} s de los {} s pedidos: en {} s llegarían ≈ {} requests, y su tope de trabajo es de {}{}. En la terminal, sensei-lab no corre estos valores: con ellos caben a lo más {} s (--duration-s {}).",
                es_dec(self.played_s, 3),
                es_int(self.asked_s as i64),
                es_int(self.asked_s as i64),
                es_int((self.rate * self.asked_s).round() as i64),
                es_int(if self.random { (MAX_ARRIVALS / 10 * 9) as i64 } else { MAX_ARRIVALS as i64 }),
                if self.random { " con llegadas al azar" } else { "" },
                es_int(self.longest_fit_s as i64),
                self.longest_fit_s
            ));
        }
        if self.mean_inflight.is_none() {
            out.push(format!(
                "Cada request ocupa su lugar {} s y la simulación dura {} s: el pod no llega a su régimen estable, así que no hay promedio en vuelo ni porcentaje de rechazo en régimen; las cuentas son del arranque.",
                es_dec(self.warmup_s, 3),
                es_dec(self.played_s, 3)
            ));
        }
        out
    }
}

/// A row of the lesson's table (NOTES.md item 2): one pod, one timeout.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TableRow {
    pub timeout_ms: u32,
    /// Places needed (Little), with no cap.
    pub demand: f64,
    pub slots: u32,
    /// Share that gets a 503 with the cap.
    pub rejected_share: f64,
    /// Memory of the photos in flight without the cap, in MB.
    pub photos_uncapped_mb: f64,
}

/// The table after «recibe un 503, el código de «estoy saturado»»: 150 ms and 5 s.
pub fn lesson_table(params: &InflightParams) -> Vec<TableRow> {
    [150, 5_000]
        .into_iter()
        .map(|timeout_ms| {
            let capped = formula(&InflightParams {
                timeout_ms,
                ..params.clone()
            });
            let uncapped = formula(&InflightParams {
                timeout_ms,
                max_inflight: None,
                ..params.clone()
            });
            TableRow {
                timeout_ms,
                demand: uncapped.pod_demand,
                slots: params.max_inflight.unwrap_or(16),
                rejected_share: capped.rejected_share,
                photos_uncapped_mb: uncapped.photos_mb,
            }
        })
        .collect()
}

impl crate::sim::figures::TaskFigures for InflightParams {
    const RESULTS: &'static [crate::sim::figures::Figure] = &[
        crate::fig!("rejected", "la parte que recibe un 503", Share),
        crate::fig!("demand", "los lugares que harían falta por pod", Count),
    ];
    fn figure(&self, key: &str) -> Option<f64> {
        let r = formula(self);
        match key {
            "rejected" => Some(r.rejected_share),
            "demand" => Some(r.pod_demand),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lessons_arithmetic() {
        let f = formula(&InflightParams::default());
        assert_eq!(f.service_inflight, 75.0);
        assert!((f.pod_demand - 19.0).abs() < 1e-9);
        assert_eq!(f.pod_inflight, 16.0);
        assert_eq!((f.rejected_share * 100.0).round(), 16.0);
        assert!(!f.answers_after_caller_left);
        let five = formula(&InflightParams {
            timeout_ms: 5_000,
            max_inflight: None,
            ..InflightParams::default()
        });
        assert_eq!(five.service_inflight, 2_500.0);
        assert!((five.pod_demand - 504.0).abs() < 1e-9);
        assert!((five.photos_mb - 5_040.0).abs() < 1e-9);
        assert!(five.photos_mb > five.pod_memory_mb * 4.0);
    }

    #[test]
    fn exercise_6() {
        let f = formula(&InflightParams {
            timeout_ms: 400,
            ..InflightParams::default()
        });
        assert!((f.pod_demand - 44.0).abs() < 1e-9);
        assert_eq!(f.served_per_s.round(), 36.0);
        assert_eq!((f.rejected_share * 100.0).round(), 64.0);
        assert!(f.answers_after_caller_left);
    }

    #[test]
    fn the_simulation_agrees_with_the_formula() {
        for timeout_ms in [150, 400, 5_000] {
            for cap in [Some(16), None] {
                let p = InflightParams {
                    timeout_ms,
                    max_inflight: cap,
                    duration_s: 60,
                    ..InflightParams::default()
                };
                let (f, s) = (formula(&p), simulate(&p));
                assert!(
                    (s.rejected_share.expect("a steady state") - f.rejected_share).abs() < 0.02,
                    "{p:?}: {} vs {}",
                    s.rejected_share.expect("a steady state"),
                    f.rejected_share
                );
                assert!(
                    (s.mean_inflight.expect("a steady state") - f.pod_inflight).abs() / f.pod_inflight < 0.03,
                    "{p:?}: {} vs {}",
                    s.mean_inflight.expect("a steady state"),
                    f.pod_inflight
                );
                assert!(s.max_inflight as f64 <= f.pod_inflight.ceil());
                assert!(s.curve.len() <= SAMPLES + 2);
            }
        }
    }

    #[test]
    fn poisson_arrivals_turn_more_away_than_the_average_says() {
        // Random arrivals bunch up: more are rejected than the fluid formula (Erlang's loss).
        let p = InflightParams {
            arrivals: Arrivals::Poisson,
            duration_s: 120,
            ..InflightParams::default()
        };
        let (f, s) = (formula(&p), simulate(&p));
        assert!(
            s.rejected_share.expect("a steady state") > f.rejected_share,
            "{} vs {}",
            s.rejected_share.expect("a steady state"),
            f.rejected_share
        );
        assert!(s.rejected_share.expect("a steady state") < 0.3);
    }

    #[test]
    fn work_is_bounded() {
        let p = InflightParams {
            rps: 100_000,
            pods: 1,
            duration_s: 120,
            timeout_ms: 600_000,
            max_inflight: None,
            ..InflightParams::default()
        };
        let s = simulate(&p);
        assert!(s.arrivals <= MAX_ARRIVALS);
        assert!(s.played_s < 120.0);
        // Cut, and said so; each request holds its place 600 s, longer than
        // the 2 s played: no steady state, so no steady-state figures.
        assert!(s.truncated);
        assert_eq!((s.rejected_share, s.mean_inflight), (None, None));
        assert_eq!(s.notes().len(), 2);
        assert_eq!(s.served + s.rejected, s.arrivals);
    }
}
