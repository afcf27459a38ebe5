//! Retry storms: a discrete-event simulation of layers that retry in front
//! of a server of fixed capacity.
//!
//! Why: retries help when failures are few and scattered. When many requests
//! fail together for lack of capacity, they do the opposite: they multiply
//! the load just when the system has the least room. With every layer
//! retrying, a short trigger (an outage of a few seconds, a spike of load)
//! can leave the system overloaded long after the trigger is gone: the
//! attempts that time out bring more attempts, the server spends its capacity
//! on answers whose callers already left, and nothing new gets through. That
//! is a *metastable failure* (Bronson et al., "Metastable Failures in
//! Distributed Systems", HotOS 2021): the system stays in the bad state by
//! itself, and only shedding the extra load gets it out. With retries in one
//! layer under a budget, or with a circuit breaker, the same trigger passes.
//!
//! The model:
//!
//! * fresh requests arrive as a Poisson process (seeded);
//! * a chain of `layers` callers sits above the server; each may retry a
//!   failed call (full jitter on an exponential backoff), and a retry of an
//!   upper layer starts the whole chain below again, so one request can make
//!   up to `(1 + retries)^layers` attempts (the lesson's 4³ = 64);
//! * the server is one FIFO queue with a fixed capacity per second. It never
//!   drops an attempt: one whose caller has given up is still served (zombie
//!   work), which is what keeps a storm going;
//! * an attempt fails when its answer does not arrive within `timeout_ms`;
//!   the caller learns it then;
//! * a budget (per layer, over 1 s) refuses retries above its share of the
//!   requests, and a layer out of budget answers "overloaded; don't retry",
//!   so the layers above it do not retry either;
//! * a breaker in the bottom caller (the lesson's: 10 s window, more than
//!   50 % failures with at least 20 calls, 5 probes; open 10 s by default
//!   instead of 30, so that a short run shows it closing) answers the
//!   fallback at once while open, and an answer that says "don't retry".
//!
//! Work is bounded: a run plays at most [`MAX_ATTEMPTS`] attempts. A storm
//! can grow without end, so a run that reaches the budget stops there and
//! says so (`truncated`, `cut_at_s`): its timeline ends where the data end,
//! and no conclusion (recovered, metastable, tipping point) is drawn from it.
//!
//! ```
//! use sensei_lab::sim::storm::{simulate, StormParams, RetryIn};
//! let storm = simulate(&StormParams::default());
//! assert!(!storm.recovered()); // every layer retries: the overload outlives the outage
//! let calm = simulate(&StormParams { retry_in: RetryIn::Bottom, budget_pct: Some(10), ..StormParams::default() });
//! assert!(calm.recovered());
//! ```

use crate::sim::breaker::{Breaker, BreakerConfig};
use crate::sim::params::ON_OFF;
use crate::sim::params::{ChoiceKey, Injected, Maybe, Toggle};
use crate::sim::policy::backoff::{Backoff, Jitter};
use crate::sim::policy::budget::RetryBudget;
use crate::sim::policy::retry_queue::{RetryQueue, TimeQueue};
use crate::sim::policy::rng::{PyRandom, UnitRng};
use crate::sim::policy::time::{Ms, Secs};
use rand_core::SeedableRng;
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

/// Where the retries are.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RetryIn {
    /// Every layer retries (each one "being resilient").
    #[default]
    All,
    /// Only the layer just above the server retries.
    Bottom,
}

impl ChoiceKey for RetryIn {
    const KEYS: &'static [(Self, &'static str)] = &[(RetryIn::All, "all"), (RetryIn::Bottom, "bottom")];
}

/// What sets the storm off.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Trigger {
    /// The server stops for a while (a pause, a restart); its queue waits.
    #[default]
    Outage,
    /// More fresh requests than usual for a while.
    Spike,
}

impl ChoiceKey for Trigger {
    const KEYS: &'static [(Self, &'static str)] = &[(Trigger::Outage, "outage"), (Trigger::Spike, "spike")];
}

crate::params! {
    /// A retry storm. Defaults: the lesson's chain (three callers that retry 3
    /// times each) in front of a server at two thirds of its capacity, which
    /// stops for 3 s at t = 5 s.
    #[derive(Eq)]
    pub struct StormParams {
        /// Fresh requests per second
        rps: u32 = 50 => int("Requests nuevas por segundo", "/s", 1, 2_000),
        /// Attempts the server answers per second
        capacity: u32 = 75 => int("Capacidad del servidor", "/s", 1, 5_000),
        /// Callers in the chain above the server (each may retry)
        layers: u32 = 3 => int("Capas que llaman (y pueden reintentar)", "", 1, 4),
        /// Retries per layer
        retries: u32 = 3 => int("Reintentos por capa", "", 0, 5),
        /// Which layers retry: all, or only the bottom one
        retry_in: RetryIn = RetryIn::All => choice("Reintentan", RETRY_IN_OPTIONS),
        /// Retry budget per layer, percent of its requests; none = no budget (the lesson's: 10)
        budget_pct: Maybe = None => optional("Presupuesto por capa", "%", "sin presupuesto", "con presupuesto", 0, 100),
        /// A circuit breaker in the caller just above the server (the lesson's numbers)
        breaker: Toggle = Toggle::Off => choice("Circuit breaker abajo", ON_OFF),
        /// How long the breaker stays open, in s (the lesson's example says 30; shorter here so that a
        /// short run shows it closing)
        breaker_open_s: u32 = 10 => int("Breaker: abierto durante", "s", 1, 600),
        /// What sets it off: an outage of the server or a spike of fresh requests
        trigger: Trigger = Trigger::Outage => choice("Disparador", TRIGGER_OPTIONS),
        /// When the trigger starts, in ms (the player's «Tirar el servidor ahora» and «Llega un pico»
        /// set it to the moment shown)
        trigger_at_ms: u32 = 5_000 => int("Empieza a los", "ms", 0, 300_000),
        /// How long the trigger lasts, in ms
        trigger_ms: u32 = 3_000 => int("Dura", "ms", 0, 120_000),
        /// During a spike, extra fresh requests, percent of the usual
        spike_pct: u32 = 100 => int("Pico: carga extra", "%", 0, 1_000),
        /// Faults injected while it plays («Tirar el servidor ahora», «Llega un pico»), each added from its
        /// moment on, the run before it kept: KIND@MS+MS, when (ms from the start) and for how long; none by
        /// default. A spike during another adds nothing to it.
        inject: Injected<Trigger> = Injected::default() => events("Fallas inyectadas", TRIGGER_OPTIONS, INJECT_MAX, 300_000, Some((3_000, 120_000))),
        /// Each caller's timeout for one attempt, in ms
        timeout_ms: u32 = 1_000 => int("Timeout de cada intento", "ms", 10, 60_000),
        /// Backoff base (full jitter, wait before retry n at most base × 2ⁿ, capped at 10 s), in ms
        base_ms: u32 = 100 => int("Base del backoff", "ms", 1, 10_000),
        /// Seconds simulated
        duration_s: u32 = 40 => int("Segundos simulados", "s", 10, 300),
        /// Seed of the arrivals and the jitter
        seed: u32 = 7 => int("Semilla", "", 0, u32::MAX as i64),
        /// The moment shown, in ms from the start; none = the run's end (the player's time)
        t_ms: Maybe = None => optional("Momento", "ms", "el final", "un momento", 0, crate::sim::playback::MAX_T_MS),
    }
}

/// What the command line says of it (`sensei-lab storm --help`).
#[cfg(not(target_arch = "wasm32"))]
impl crate::sim::scenario::Scenario for StormParams {
    const ABOUT: &'static str =
        "A retry storm: layers that retry in front of a server of fixed capacity, and a trigger.";
    const BUDGET: &'static str = "at most 650,000 attempts to the server (room for the largest calm run, 2,000 × 300 s). A storm can grow without end, so a run that reaches the budget stops there and says so (\"truncated\": true, \"cut_at_s\", a note): its timeline ends where the data end, and it concludes nothing (outcome \"cut\", recovered null; the tipping point \"unknown\").";
    const SWITCHES: &'static [(&'static str, &'static str)] = &[(
        "tipping",
        "Also search the shortest trigger after which the system no longer recovers.",
    )];

    fn report(p: &Self, ctx: &mut impl crate::sim::scenario::Session) -> crate::sim::scenario::Run {
        use crate::sim::scenario::Run;
        use serde_json::json;
        let tipping = ctx.on("tipping");
        let (r, outcome, tip) = ctx.time(|| {
            let r = simulate(p);
            let outcome = assess(p, &r);
            (r, outcome, tipping.then(|| tipping_point(p)))
        });
        let mut notes = r.notes();
        if let Some(Tipping::Unknown { trigger_ms, cut: true }) = tip {
            notes.push(tipping_unknown_note(trigger_ms));
        }
        let mut lines = storm_lines(&r, outcome, tip);
        // A moment: the run so far (the buckets finished by then).
        use crate::sim::playback::{moment_within, say, Playback};
        let at = moment_within(p.t_ms, r.span().end_ms(), say, &mut notes).map(|t| {
            let m = r.at(t);
            lines.push(m.line());
            m
        });
        let recovered = match outcome {
            Outcome::Recovered { .. } => Some(true),
            Outcome::Metastable | Outcome::Overloaded => Some(false),
            _ => None, // the run cannot tell
        };
        Run {
            result: json!({ "requests": r.requests, "attempts": r.attempts, "succeeded": r.succeeded,
                "amplification": r.amplification, "outcome": outcome, "recovered": recovered,
                "recovered_at_s": r.recovered_at_s, "trigger_end_s": r.trigger_end_s, "cut_at_s": r.cut_at_s,
                "tipping": tip, "buckets": r.buckets, "at": at }),
            truncated: r.truncated,
            notes,
            lines,
        }
    }
}

/// The storm's result in the learner's words.
#[cfg(not(target_arch = "wasm32"))]
fn storm_lines(r: &StormRun, outcome: Outcome, tip: Option<Tipping>) -> Vec<String> {
    use crate::fmt::{es_dec, es_int};
    let mut out = vec![
        format!(
            "requests: {}, intentos al servidor: {} ({} por request), a tiempo: {}",
            es_int(r.requests as i64),
            es_int(r.attempts as i64),
            es_dec(r.amplification, 1),
            es_int(r.succeeded as i64)
        ),
        verdict(r, outcome),
    ];
    if let Some(t) = tip {
        out.push(format!("punto de quiebre: {}", tipping_sentence(t)));
    }
    out
}

const RETRY_IN_OPTIONS: &[(&str, &str)] = &[("all", "todas las capas"), ("bottom", "solo la de abajo")];
const TRIGGER_OPTIONS: &[(&str, &str)] = &[("outage", "el servidor se detiene"), ("spike", "un pico de carga")];

/// Most faults injected into one run.
pub const INJECT_MAX: usize = 20;
/// Most attempts one run plays; past it the run stops early (`truncated`).
/// (The largest calm run, 2,000 new requests a second for 300 s, is
/// 600,000 attempts give or take the arrivals' noise: the budget leaves room
/// for it, so only a storm reaches it.)
pub const MAX_ATTEMPTS: u64 = 650_000;
/// Buckets of the timeline.
pub const BUCKETS: usize = 120;
/// A bucket counts as healthy when its answers in time reach this share of
/// its fresh requests.
pub const HEALTHY_SHARE: f64 = 0.8;
/// The wait before a retry never passes this, in ms.
pub const BACKOFF_CAP_MS: f64 = 10_000.0;

/// One stretch of the timeline. Counts are per second.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Bucket {
    /// Start of the bucket, in s.
    pub t: f64,
    /// Fresh requests arriving.
    pub fresh: f64,
    /// Attempts reaching the server (first attempts and retries).
    pub offered: f64,
    /// Of those, retries.
    pub retries: f64,
    /// Attempts answered within their timeout (the goodput).
    pub goodput: f64,
    /// Attempts the server served after their caller gave up (zombie work).
    pub zombie: f64,
    /// Requests that got the fallback at once from an open breaker.
    pub fallbacks: f64,
    /// Requests that failed in the end (out of retries, out of budget).
    pub failed: f64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StormRun {
    pub bucket_s: f64,
    pub buckets: Vec<Bucket>,
    pub requests: u64,
    pub attempts: u64,
    /// Requests that got an answer in time.
    pub succeeded: u64,
    /// Attempts per request, on average.
    pub amplification: f64,
    /// When the triggers start and end, in s: the first start and the last
    /// end (the one set's, if none lasts).
    pub trigger_start_s: f64,
    pub trigger_end_s: f64,
    /// Each trigger that lasts, the one set and then the injected ones, `[from, to)` in s.
    pub triggers: Vec<(f64, f64)>,
    /// From when on every bucket was healthy again (None: it never was, to
    /// the end, or the run was cut).
    pub recovered_at_s: Option<f64>,
    /// The run stopped at [`MAX_ATTEMPTS`]: `buckets` holds only the ones
    /// played whole, up to `cut_at_s`.
    pub truncated: bool,
    /// When the run stopped, if it was cut.
    pub cut_at_s: Option<f64>,
    /// The simulated time asked for, in s (the buckets may stop earlier).
    pub duration_s: f64,
}

/// What a run says about the storm.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Outcome {
    /// Healthy again from `at_s` on, early enough before the end to count.
    Recovered { at_s: f64 },
    /// Healthy again only in the last seconds: too late to tell.
    TooLate { at_s: f64 },
    /// The trigger ends after the run, or too close to its end to see what
    /// follows (or starts after it: nothing happens to see).
    NoRoom { trigger_start_s: f64, trigger_end_s: f64 },
    /// At the end an open breaker answers most requests with its plan B:
    /// whether the server itself is well again cannot be seen.
    BreakerOpen,
    /// Still behind at the end, but no retries feed it: the backlog the
    /// trigger left is still being served (a longer run would tell).
    Draining,
    /// Still overloaded at the end, though the same load without the
    /// trigger keeps up: a metastable failure.
    Metastable,
    /// Overloaded at the end, and the same load without any trigger is too:
    /// the normal load alone is more than the server keeps up with.
    Overloaded,
    /// The run was cut by the work budget: nothing can be concluded.
    Cut { at_s: f64 },
}

impl StormRun {
    /// Healthy again before the end (and at least 5 s before it, so a
    /// last lucky bucket does not count), in a run played to the end.
    pub fn recovered(&self) -> bool {
        let end = self.duration_s;
        self.recovered_at_s.is_some_and(|t| t <= end - margin(end)) && !self.truncated
    }

    /// What this run alone says (a run that does not recover is `Metastable`
    /// here; [`assess`] tells it from plain overload).
    pub fn outcome_alone(&self) -> Outcome {
        let end = self.duration_s;
        match (self.cut_at_s, self.recovered_at_s) {
            (Some(at_s), _) => return Outcome::Cut { at_s },
            (None, Some(at_s)) if self.recovered() => return Outcome::Recovered { at_s },
            (None, Some(at_s)) => return Outcome::TooLate { at_s },
            (None, None) => {}
        }
        if self.trigger_end_s > end - margin(end) {
            return Outcome::NoRoom {
                trigger_start_s: self.trigger_start_s,
                trigger_end_s: self.trigger_end_s,
            };
        }
        // The last 2 s (at least a bucket): who answers, and what feeds the load.
        let span = ((2.0 / self.bucket_s).round() as usize).clamp(1, self.buckets.len().max(1));
        let last = &self.buckets[self.buckets.len().saturating_sub(span)..];
        let sum = |f: fn(&Bucket) -> f64| last.iter().map(f).sum::<f64>();
        let (fresh, offered, retries, fallbacks) = (
            sum(|b| b.fresh),
            sum(|b| b.offered),
            sum(|b| b.retries),
            sum(|b| b.fallbacks),
        );
        if fallbacks >= 0.5 * fresh && fallbacks > 0.0 {
            Outcome::BreakerOpen
        } else if retries < 0.05 * offered {
            Outcome::Draining
        } else {
            Outcome::Metastable
        }
    }

    /// The notes a reader must see beside the figures (a cut run).
    pub fn notes(&self) -> Vec<String> {
        use crate::fmt::{es_dec, es_int};
        self.cut_at_s
            .map(|t| {
                format!(
                    "El tope de trabajo de esta simulación es de {} intentos al servidor, y esta tormenta lo alcanzó a los {} s de {} s: la gráfica y las cifras llegan hasta ahí.",
                    es_int(MAX_ATTEMPTS as i64),
                    es_dec(t, 1),
                    es_int(self.duration_s as i64)
                )
            })
            .into_iter()
            .collect()
    }
}

/// The run so far at a moment: the buckets finished by then, summed.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct StormMoment {
    /// The moment, in ms from the start.
    pub t_ms: f64,
    /// Buckets finished (the chart's lines reach their end).
    pub buckets: usize,
    pub requests: u64,
    pub attempts: u64,
    pub retries: u64,
    pub succeeded: u64,
    pub zombie: u64,
    pub fallbacks: u64,
    pub failed: u64,
}

impl StormMoment {
    /// The run so far, in the learner's words.
    pub fn line(&self) -> String {
        use crate::fmt::es_int;
        format!(
            "a los {}: {} requests nuevas, {} intentos al servidor ({} reintentos), {} a tiempo",
            crate::sim::playback::say(self.t_ms),
            es_int(self.requests as i64),
            es_int(self.attempts as i64),
            es_int(self.retries as i64),
            es_int(self.succeeded as i64)
        )
    }
}

impl StormRun {
    /// The run as the player steps it: one bucket a step, to where its data end.
    pub fn span(&self) -> crate::sim::playback::Steps {
        crate::sim::playback::Steps {
            step_ms: self.bucket_s * 1000.0,
            count: self.buckets.len(),
        }
    }

    /// The run so far at `t_ms` (counts of the buckets finished by then).
    pub fn at(&self, t_ms: f64) -> StormMoment {
        let k = self.span().done_at(t_ms);
        // Buckets hold rates per second; a count is the rate times the bucket.
        let sum = |f: fn(&Bucket) -> f64| (self.buckets[..k].iter().map(f).sum::<f64>() * self.bucket_s).round() as u64;
        StormMoment {
            t_ms,
            buckets: k,
            requests: sum(|b| b.fresh),
            attempts: sum(|b| b.offered),
            retries: sum(|b| b.retries),
            succeeded: sum(|b| b.goodput),
            zombie: sum(|b| b.zombie),
            fallbacks: sum(|b| b.fallbacks),
            failed: sum(|b| b.failed),
        }
    }
}

/// The last stretch of a run that does not count as «before the end» (5 s,
/// or a quarter of a short run).
fn margin(end: f64) -> f64 {
    5.0_f64.min(end / 4.0)
}

/// What the run says about the storm. A run that ends overloaded is run again
/// without its trigger, to tell a metastable failure (fine without the
/// trigger) from a load that is too much anyway.
pub fn assess(params: &StormParams, run: &StormRun) -> Outcome {
    match run.outcome_alone() {
        o @ (Outcome::Metastable | Outcome::Draining) => {
            let (p, _) = crate::sim::params::clamp(params);
            if p.trigger_ms == 0 && p.inject.0.is_empty() {
                return Outcome::Overloaded;
            }
            let calm = simulate(&p.calm());
            match calm.outcome_alone() {
                // Without the trigger it comes back (if only late): the trigger did it.
                Outcome::Recovered { .. } | Outcome::TooLate { .. } => o,
                Outcome::Cut { at_s } => Outcome::Cut { at_s },
                _ => Outcome::Overloaded,
            }
        }
        o => o,
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    /// A caller sends an attempt to the server.
    Send,
    /// An attempt's outcome reaches its caller.
    Answer { ok: bool },
}

const MAX_LAYERS: usize = 4;

struct Request {
    /// Retries used by each layer (0 = the bottom one) in its current call.
    used: [u8; MAX_LAYERS],
}

impl StormParams {
    /// The same load without any trigger: neither the one set nor any injected.
    pub fn calm(&self) -> StormParams {
        StormParams {
            trigger_ms: 0,
            inject: Injected::default(),
            ..self.clone()
        }
    }

    /// Every trigger's kind and stretch `[from, to)` in ms: the one set (even
    /// if it lasts nothing), then the injected ones in order of time.
    pub fn triggers(&self) -> Vec<(Trigger, f64, f64)> {
        let set = (
            self.trigger,
            self.trigger_at_ms as f64,
            self.trigger_at_ms as f64 + self.trigger_ms as f64,
        );
        std::iter::once(set)
            .chain(
                self.inject
                    .0
                    .iter()
                    .map(|i| (i.kind, i.at_ms as f64, i.at_ms as f64 + i.for_ms as f64)),
            )
            .collect()
    }
}

/// Plays the storm.
pub fn simulate(params: &StormParams) -> StormRun {
    simulate_from(params, &mut PyRandom::seed_from_u64(params.seed.into()))
}

/// [`simulate`], drawing from `rng` (any `rand_core` generator; [`simulate`]
/// seeds Python's with the scenario's `seed`).
pub fn simulate_from<R: UnitRng>(params: &StormParams, rng: &mut R) -> StormRun {
    play::<RetryQueue, R>(params, RetryQueue::default(), rng)
}

/// Plays the storm with `retries` as the queue of retries (the calendar, or
/// in the tests the binary heap it replaced).
fn play<Q: TimeQueue, R: UnitRng>(params: &StormParams, mut retries: Q, rng: &mut R) -> StormRun {
    let (p, _) = crate::sim::params::clamp(params);
    let layers = (p.layers as usize).clamp(1, MAX_LAYERS);
    let allowed = |k: usize| -> u8 {
        match p.retry_in {
            RetryIn::All => p.retries as u8,
            RetryIn::Bottom if k == 0 => p.retries as u8,
            RetryIn::Bottom => 0,
        }
    };
    let end_ms = p.duration_s as f64 * 1000.0;
    let bucket_ms = end_ms / BUCKETS as f64;
    let service_ms = 1000.0 / p.capacity as f64;
    let timeout = p.timeout_ms as f64;
    let triggers = p.triggers();
    let stretches = |kind: Trigger| -> Vec<(f64, f64)> {
        triggers
            .iter()
            .filter(|(k, a, b)| *k == kind && b > a)
            .map(|(_, a, b)| (*a, *b))
            .collect()
    };
    let (outages, spikes) = (stretches(Trigger::Outage), stretches(Trigger::Spike));
    // The triggers' span, for the verdict: from the first start to the last end
    // (only the one set, lasting nothing, if no trigger lasts).
    let lasting: Vec<&(Trigger, f64, f64)> = triggers.iter().filter(|(_, a, b)| b > a).collect();
    let (trig_a, trig_b) = if lasting.is_empty() {
        (triggers[0].1, triggers[0].2)
    } else {
        (
            lasting.iter().map(|t| t.1).fold(f64::INFINITY, f64::min),
            lasting.iter().map(|t| t.2).fold(f64::NEG_INFINITY, f64::max),
        )
    };
    let backoff = Backoff {
        base_ms: p.base_ms as f64,
        cap_ms: Some(BACKOFF_CAP_MS),
        jitter: Jitter::Full,
    };
    let mut budgets: Vec<RetryBudget> = (0..layers)
        .map(|_| RetryBudget::new(p.budget_pct.unwrap_or(0) as f64 / 100.0, 1_000.0))
        .collect();
    let mut breaker = p.breaker.is_on().then(|| {
        Breaker::new(BreakerConfig {
            open: Secs(p.breaker_open_s as f64),
            ..BreakerConfig::default()
        })
    });
    let mut buckets: Vec<Bucket> = (0..BUCKETS)
        .map(|i| Bucket {
            t: i as f64 * bucket_ms / 1000.0,
            ..Bucket::default()
        })
        .collect();
    let at = |t: f64| ((t / bucket_ms) as usize).min(BUCKETS - 1);
    let mut reqs: Vec<Request> = Vec::new();
    // Retries wait a random backoff, so they need a queue in time order
    // (`retries`). Answers do not: a failure is known `timeout` after its
    // send and sends are played in time order, and a success comes at the
    // server's finish time, which only grows; so each kind of answer comes
    // out of a FIFO already in order.
    let mut failed_answers: VecDeque<(f64, u32)> = VecDeque::new();
    let mut ok_answers: VecDeque<(f64, u32)> = VecDeque::new();
    let mut busy_until = 0.0f64;
    let (mut attempts, mut succeeded) = (0u64, 0u64);
    let mut truncated = false;
    let mut cut_ms = f64::INFINITY;

    // Fresh arrivals, merged with the other events as they come.
    let base_rate = p.rps as f64 / 1000.0;
    let rate_at = |t: f64| -> f64 {
        if spikes.iter().any(|(a, b)| t >= *a && t < *b) {
            base_rate * (1.0 + p.spike_pct as f64 / 100.0)
        } else {
            base_rate
        }
    };
    // Thinning against the largest rate keeps one exponential draw per
    // candidate. The trigger set bounds the rate from the start; an injected
    // spike raises the bound only over its own stretch: at each end of one the
    // next arrival is drawn afresh from there (the arrivals have no memory),
    // so nothing before it changes: a fork keeps its past.
    let set_bound = match p.trigger {
        Trigger::Spike if p.trigger_ms > 0 => base_rate * (1.0 + p.spike_pct as f64 / 100.0),
        _ => base_rate,
    };
    let bound_at = |t: f64| set_bound.max(rate_at(t));
    let mut edges: Vec<f64> = p
        .inject
        .0
        .iter()
        .filter(|i| i.kind == Trigger::Spike && i.for_ms > 0)
        .flat_map(|i| [i.at_ms as f64, (i.at_ms + i.for_ms) as f64])
        .filter(|t| *t > 0.0)
        .collect();
    edges.sort_by(f64::total_cmp);
    edges.dedup();
    let mut edges = edges.into_iter().peekable();
    let mut max_rate = bound_at(0.0);
    let mut next_fresh = -(1.0 - rng.random()).ln() / max_rate;

    loop {
        // The earliest of: a retry's send, a failure, a success, a fresh arrival
        // (at equal times in that order).
        let failed_at = failed_answers.front().map_or(f64::INFINITY, |a| a.0);
        let ok_at = ok_answers.front().map_or(f64::INFINITY, |a| a.0);
        let edge = edges.peek().copied().unwrap_or(f64::INFINITY);
        let other = failed_at.min(ok_at).min(next_fresh).min(edge);
        let (now, kind, id) = match retries.pop_until(other) {
            Some((t, id)) => (t, Kind::Send, id),
            None if failed_at <= ok_at && failed_at <= next_fresh.min(edge) => {
                let (t, id) = failed_answers.pop_front().expect("a failure is due");
                (t, Kind::Answer { ok: false }, id)
            }
            None if ok_at <= next_fresh.min(edge) => {
                let (t, id) = ok_answers.pop_front().expect("a success is due");
                (t, Kind::Answer { ok: true }, id)
            }
            // An injected spike starts or ends: the arrivals' bound changes here.
            None if edge <= next_fresh => {
                if edge >= end_ms {
                    break;
                }
                edges.next();
                max_rate = bound_at(edge);
                next_fresh = edge - (1.0 - rng.random()).ln() / max_rate;
                continue;
            }
            None => {
                let t = next_fresh;
                if t >= end_ms {
                    break;
                }
                next_fresh = t - (1.0 - rng.random()).ln() / max_rate;
                if rng.random() * max_rate >= rate_at(t) {
                    continue;
                }
                reqs.push(Request { used: [0; MAX_LAYERS] });
                buckets[at(t)].fresh += 1.0;
                for b in budgets.iter_mut() {
                    b.request(t);
                }
                (t, Kind::Send, (reqs.len() - 1) as u32)
            }
        };
        if now >= end_ms {
            break;
        }
        match kind {
            Kind::Send => {
                if let Some(b) = breaker.as_mut() {
                    if !b.allow(Ms(now).into()) {
                        buckets[at(now)].fallbacks += 1.0;
                        continue;
                    }
                }
                if attempts >= MAX_ATTEMPTS {
                    truncated = true;
                    cut_ms = now;
                    break;
                }
                attempts += 1;
                let bk = &mut buckets[at(now)];
                bk.offered += 1.0;
                if reqs[id as usize].used[..layers].iter().any(|u| *u > 0) {
                    bk.retries += 1.0;
                }
                // The server stopped: it starts on this attempt when every
                // outage it falls into is over.
                let mut start = busy_until.max(now);
                while let Some(&(_, b)) = outages.iter().find(|(a, b)| start >= *a && start < *b) {
                    start = b;
                }
                let finish = start + service_ms;
                busy_until = finish;
                let ok = finish - now <= timeout;
                if ok {
                    // Counted where it is answered, within the run (as `succeeded`).
                    if finish < end_ms {
                        buckets[at(finish)].goodput += 1.0;
                    }
                    ok_answers.push_back((finish, id));
                } else {
                    if finish < end_ms {
                        buckets[at(finish)].zombie += 1.0;
                    }
                    failed_answers.push_back((now + timeout, id));
                }
            }
            Kind::Answer { ok } => {
                if let Some(b) = breaker.as_mut() {
                    b.record(Ms(now).into(), ok); // the breaker counts in seconds
                }
                if ok {
                    succeeded += 1;
                    continue;
                }
                // The lowest layer with a retry left (and budget) retries; a
                // retry of layer k starts the calls below it afresh.
                let r = &mut reqs[id as usize];
                let mut retried = false;
                for k in 0..layers {
                    if r.used[k] >= allowed(k) {
                        continue;
                    }
                    if p.budget_pct.is_some() && !budgets[k].try_retry(now) {
                        break; // out of budget: "overloaded; don't retry" upwards
                    }
                    r.used[k] += 1;
                    r.used[..k].fill(0);
                    for b in budgets.iter_mut().take(k) {
                        b.request(now);
                    }
                    let wait = backoff.wait(r.used[k] as u32, backoff.base_ms, rng);
                    retries.push((now + wait).max(0.0), id);
                    retried = true;
                    break;
                }
                if !retried {
                    buckets[at(now)].failed += 1.0;
                }
            }
        }
    }

    let per_s = 1000.0 / bucket_ms;
    for b in buckets.iter_mut() {
        for v in [
            &mut b.fresh,
            &mut b.offered,
            &mut b.retries,
            &mut b.goodput,
            &mut b.zombie,
            &mut b.fallbacks,
            &mut b.failed,
        ] {
            *v *= per_s;
        }
    }
    // A cut run keeps only the buckets played whole: the ones after the cut
    // would show counts of attempts sent before it and nothing else.
    if truncated {
        let whole = (0..BUCKETS)
            .take_while(|&i| (i + 1) as f64 * bucket_ms <= cut_ms)
            .count();
        buckets.truncate(whole);
    }
    let trigger_end_s = trig_b / 1000.0;
    let recovered_at_s = if truncated {
        None
    } else {
        recovery(&buckets, bucket_ms / 1000.0, trigger_end_s)
    };
    let requests = reqs.len() as u64;
    StormRun {
        bucket_s: bucket_ms / 1000.0,
        buckets,
        requests,
        attempts,
        succeeded,
        amplification: if requests == 0 {
            0.0
        } else {
            attempts as f64 / requests as f64
        },
        trigger_start_s: trig_a / 1000.0,
        trigger_end_s,
        triggers: lasting.iter().map(|t| (t.1 / 1000.0, t.2 / 1000.0)).collect(),
        recovered_at_s,
        truncated,
        cut_at_s: truncated.then_some(cut_ms / 1000.0),
        duration_s: p.duration_s as f64,
    }
}

/// «el disparador», or «el último disparador» when faults were injected too.
fn the_trigger(r: &StormRun) -> &'static str {
    if r.triggers.len() > 1 {
        "el último disparador"
    } else {
        "el disparador"
    }
}

/// One Spanish sentence: did it recover, and when (or why it cannot say).
pub fn verdict(r: &StormRun, o: Outcome) -> String {
    use crate::fmt::es_dec;
    match o {
        Outcome::Recovered { at_s } => format!(
            "se recupera: a los {} s ya contesta a tiempo, {} s después de que terminó {}",
            es_dec(at_s, 1),
            es_dec((at_s - r.trigger_end_s).max(0.0), 1),
            the_trigger(r)
        ),
        Outcome::TooLate { at_s } => format!(
            "vuelve a contestar a tiempo a los {} s, demasiado cerca del final para saber si se recupera: alarga la corrida",
            es_dec(at_s, 1)
        ),
        Outcome::Metastable => format!(
            "no se recupera: {} terminó a los {} s y la sobrecarga sigue hasta el final, aunque sin disparador la misma carga se atiende (falla metaestable)",
            the_trigger(r),
            es_dec(r.trigger_end_s, 1)
        ),
        Outcome::Overloaded => {
            "no se recupera, pero no es por el disparador: aun sin él, la carga normal es más de lo que el servidor contesta a tiempo".to_string()
        }
        Outcome::Cut { at_s } => format!(
            "la corrida se cortó a los {} s por el tope de trabajo: con estos datos no se puede decir si se recupera",
            es_dec(at_s, 1)
        ),
        Outcome::NoRoom { trigger_start_s, .. } if trigger_start_s >= r.duration_s => format!(
            "el disparador empieza a los {} s, después del final de la corrida ({} s): no hay nada que ver; muévelo antes o alarga la corrida",
            es_dec(trigger_start_s, 1),
            es_dec(r.duration_s, 1)
        ),
        Outcome::NoRoom { trigger_end_s, .. } => format!(
            "el disparador termina a los {} s y la corrida a los {} s: no queda tiempo para ver si se recupera; alarga la corrida",
            es_dec(trigger_end_s, 1),
            es_dec(r.duration_s, 1)
        ),
        Outcome::BreakerOpen => {
            "al final, el breaker sigue abierto y contesta el plan B a casi todas: no deja ver si el servidor ya se recuperó".to_string()
        }
        Outcome::Draining => format!(
            "todavía no se recupera, pero no por reintentos: sin reintentos que la alimenten, la fila que dejó el disparador (terminó a los {} s) se sigue vaciando; alarga la corrida para verlo",
            es_dec(r.trigger_end_s, 1)
        ),
    }
}

/// From when on (after the trigger) the answers in time keep up with the
/// fresh requests, both summed over 2 s (so that the noise of the arrivals
/// does not count as a relapse).
fn recovery(buckets: &[Bucket], bucket_s: f64, trigger_end_s: f64) -> Option<f64> {
    let span = ((2.0 / bucket_s).round() as usize).max(1);
    let healthy = |i: usize| {
        let lo = i.saturating_sub(span - 1);
        let good: f64 = buckets[lo..=i].iter().map(|b| b.goodput).sum();
        let fresh: f64 = buckets[lo..=i].iter().map(|b| b.fresh).sum();
        good >= HEALTHY_SHARE * fresh
    };
    let first = buckets.iter().position(|b| b.t + bucket_s > trigger_end_s)?;
    let mut from = None;
    for i in first..buckets.len() {
        if healthy(i) {
            from.get_or_insert(i);
        } else {
            from = None;
        }
    }
    from.map(|i| buckets[i].t)
}

/// What the search for the tipping point found.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Tipping {
    /// The shortest trigger (in ms, a multiple of 100) after which it no
    /// longer recovers.
    At { ms: u32 },
    /// It recovers even after the longest trigger whose run can tell.
    Never { up_to_ms: u32 },
    /// It does not recover even without a trigger: the load alone is too much.
    Overloaded,
    /// Somewhere after `from_ms` (it recovers) and by `to_ms` (it does not):
    /// a run in between cannot tell.
    Between { from_ms: u32, to_ms: u32 },
    /// A run of the search (at this trigger, in ms) was cut by the work
    /// budget (`cut`), or leaves no room to tell: no tipping point is drawn.
    Unknown { trigger_ms: u32, cut: bool },
}

/// The tipping point in the learner's words (the page and the command line).
pub fn tipping_sentence(t: Tipping) -> String {
    use crate::fmt::es_dec;
    let s = |ms: u32| es_dec(ms as f64 / 1000.0, 1);
    match t {
        Tipping::At { ms } => format!("con un disparador de {} s o más, la sobrecarga ya no se apaga sola", s(ms)),
        Tipping::Never { up_to_ms } => format!(
            "se recupera aun con un disparador de {} s: con estos números no hay punto de quiebre hasta ahí (uno más largo no deja ver el final en esta corrida)",
            s(up_to_ms)
        ),
        Tipping::Overloaded => "no se recupera ni sin disparador: la carga normal ya lo satura".into(),
        Tipping::Between { from_ms, to_ms } => format!(
            "está entre {} s y {} s de disparador; en medio, la corrida no alcanza para saber si se recupera (alárgala para precisarlo)",
            s(from_ms),
            s(to_ms)
        ),
        Tipping::Unknown { trigger_ms, cut: true } => format!(
            "no se puede calcular: la corrida con un disparador de {} s se cortó por el tope de trabajo",
            s(trigger_ms)
        ),
        Tipping::Unknown { trigger_ms, cut: false } => format!(
            "no se puede calcular: con un disparador de {} s la corrida no alcanza para saber si se recupera; alárgala",
            s(trigger_ms)
        ),
    }
}

/// The note beside a search that a cut run stopped.
pub fn tipping_unknown_note(trigger_ms: u32) -> String {
    use crate::fmt::{es_dec, es_int};
    format!(
        "La búsqueda del punto de quiebre se detuvo: la corrida con un disparador de {} s llegó al tope de {} intentos antes del final.",
        es_dec(trigger_ms as f64 / 1000.0, 1),
        es_int(MAX_ATTEMPTS as i64)
    )
}

/// The shortest trigger (in steps of 100 ms, up to 60 s and to the longest
/// that leaves the run room to tell) after which the system does not
/// recover with these settings. Assumes that a longer trigger never helps
/// (true in this model, up to the noise of the arrivals). A run that is cut,
/// or that cannot tell, stops the search: it answers `Unknown` rather than
/// guess. A backlog still draining without retries counts as recovering.
pub fn tipping_point(params: &StormParams) -> Tipping {
    // The trigger set, alone: the injected faults are left out.
    let (p, _) = crate::sim::params::clamp(params);
    let p = StormParams {
        inject: Injected::default(),
        ..p
    };
    let end = p.duration_s as f64;
    let room_s = end - margin(end) - p.trigger_at_ms as f64 / 1000.0;
    // In tenths of a second.
    let hi = ((room_s * 10.0).floor() as i64).clamp(0, 600) as u32;
    // Ok(true): it tips; Ok(false): it recovers; Err(cut): cannot tell.
    let tips = |ms: u32| -> Result<bool, bool> {
        match simulate(&StormParams {
            trigger_ms: ms,
            ..p.clone()
        })
        .outcome_alone()
        {
            // Back to health, even in the last seconds: it did come back.
            Outcome::Recovered { .. } | Outcome::TooLate { .. } | Outcome::Draining => Ok(false),
            Outcome::Metastable | Outcome::Overloaded => Ok(true),
            Outcome::Cut { .. } => Err(true),
            Outcome::NoRoom { .. } | Outcome::BreakerOpen => Err(false),
        }
    };
    let unknown = |trigger_ms: u32, cut: bool| Tipping::Unknown { trigger_ms, cut };
    // Without any trigger it must come back: a calm run still behind at its
    // end (draining or not) means the load alone is too much.
    match simulate(&StormParams {
        trigger_ms: 0,
        ..p.clone()
    })
    .outcome_alone()
    {
        Outcome::Recovered { .. } | Outcome::TooLate { .. } => {}
        Outcome::Cut { .. } => return unknown(0, true),
        Outcome::NoRoom { .. } | Outcome::BreakerOpen => return unknown(0, false),
        Outcome::Draining | Outcome::Metastable | Outcome::Overloaded => return Tipping::Overloaded,
    }
    if hi == 0 {
        return unknown(0, false);
    }
    // The longest trigger whose run can tell: a run that cannot (its end
    // comes too soon after the trigger, a breaker still open) is tried again
    // with a trigger a quarter shorter.
    let mut hi = hi;
    loop {
        match tips(hi * 100) {
            Err(true) => return unknown(hi * 100, true),
            Err(false) if hi > 1 => hi = hi * 3 / 4,
            Err(false) => return unknown(hi * 100, false),
            Ok(false) => return Tipping::Never { up_to_ms: hi * 100 },
            Ok(true) => break,
        }
    }
    let mut lo = 0u32;
    while hi - lo > 1 {
        let mid = (lo + hi) / 2;
        match tips(mid * 100) {
            Err(true) => return unknown(mid * 100, true),
            Err(false) => {
                return Tipping::Between {
                    from_ms: lo * 100,
                    to_ms: hi * 100,
                }
            }
            Ok(true) => hi = mid,
            Ok(false) => lo = mid,
        }
    }
    Tipping::At { ms: hi * 100 }
}

impl crate::sim::figures::TaskFigures for StormParams {
    const RESULTS: &'static [crate::sim::figures::Figure] = &[
        crate::fig!("recovers", "si se recupera", YesNo),
        crate::fig!(
            "tipping-ms",
            "la caída más corta después de la cual ya no se recupera",
            Ms
        ),
    ];
    fn figure(&self, key: &str) -> Option<f64> {
        match key {
            // As the tipping point's search reads a run: back to health, even
            // late or still draining, is recovered.
            "recovers" => match simulate(self).outcome_alone() {
                Outcome::Recovered { .. } | Outcome::TooLate { .. } | Outcome::Draining => {
                    crate::sim::figures::yes(true)
                }
                Outcome::Metastable | Outcome::Overloaded => crate::sim::figures::yes(false),
                _ => None,
            },
            "tipping-ms" => match tipping_point(self) {
                Tipping::At { ms } => Some(ms as f64),
                _ => None,
            },
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calm_before_the_trigger() {
        let r = simulate(&StormParams::default());
        // Before t = 5 s the server keeps up: goodput ≈ the fresh requests, no retries.
        let before: Vec<&Bucket> = r.buckets.iter().filter(|b| b.t >= 1.0 && b.t < 4.9).collect();
        let fresh: f64 = before.iter().map(|b| b.fresh).sum();
        let good: f64 = before.iter().map(|b| b.goodput).sum();
        assert!((good / fresh - 1.0).abs() < 0.05, "{good} vs {fresh}");
        assert!(before.iter().all(|b| b.retries == 0.0));
    }

    #[test]
    fn every_layer_retrying_stays_overloaded() {
        let r = simulate(&StormParams::default());
        assert!(!r.recovered(), "{:?}", r.recovered_at_s);
        let last = &r.buckets[BUCKETS - 10..];
        let offered = last.iter().map(|b| b.offered).sum::<f64>() / 10.0;
        let good = last.iter().map(|b| b.goodput).sum::<f64>() / 10.0;
        assert!(offered > 2.0 * 75.0, "offered {offered}");
        assert!(good < 10.0, "goodput {good}");
    }

    #[test]
    fn one_layer_with_a_budget_recovers() {
        let r = simulate(&StormParams {
            retry_in: RetryIn::Bottom,
            budget_pct: Some(10),
            ..StormParams::default()
        });
        assert!(r.recovered(), "{:?}", r.recovered_at_s);
    }

    #[test]
    fn a_breaker_recovers() {
        let r = simulate(&StormParams {
            breaker: Toggle::On,
            ..StormParams::default()
        });
        assert!(r.recovered(), "{:?}", r.recovered_at_s);
        assert!(r.buckets.iter().any(|b| b.fallbacks > 0.0));
    }

    #[test]
    fn no_trigger_no_storm() {
        let r = simulate(&StormParams {
            trigger_ms: 0,
            ..StormParams::default()
        });
        assert!(r.recovered());
        assert!(r.amplification < 1.01, "{}", r.amplification);
    }

    #[test]
    fn worst_case_attempts_per_request() {
        // A server that never answers in time: every request makes (1 + 3)³ = 64 attempts.
        let r = simulate(&StormParams {
            rps: 1,
            capacity: 1,
            timeout_ms: 10,
            base_ms: 1,
            trigger_at_ms: 0,
            trigger_ms: 120_000,
            duration_s: 300,
            ..StormParams::default()
        });
        let done: f64 = r.buckets.iter().map(|b| b.failed).sum::<f64>() * r.bucket_s;
        assert!(done > 10.0);
        // All but the requests still going at the end made exactly 64 attempts.
        assert!(r.attempts as f64 >= 64.0 * done.round());
    }

    #[test]
    fn there_is_a_tipping_point() {
        let Tipping::At { ms: t } = tipping_point(&StormParams::default()) else {
            panic!("it tips")
        };
        assert!(t > 0 && t <= 3_000, "{t}");
        let below = simulate(&StormParams {
            trigger_ms: t - 100,
            ..StormParams::default()
        });
        assert!(below.recovered());
    }

    #[test]
    fn the_calendar_plays_what_one_heap_played() {
        use std::collections::BinaryHeap;
        // The lesson's storm and its variants, then random ones across the bounds.
        let mut cases = vec![
            StormParams::default(),
            StormParams {
                layers: 4,
                retries: 5,
                duration_s: 120,
                ..StormParams::default()
            },
            StormParams {
                retry_in: RetryIn::Bottom,
                budget_pct: Some(10),
                ..StormParams::default()
            },
            StormParams {
                breaker: Toggle::On,
                ..StormParams::default()
            },
            StormParams {
                trigger: Trigger::Spike,
                spike_pct: 300,
                ..StormParams::default()
            },
            StormParams {
                base_ms: 1,
                timeout_ms: 10,
                ..StormParams::default()
            },
            StormParams {
                base_ms: 10_000,
                retries: 5,
                ..StormParams::default()
            },
            StormParams {
                rps: 2_000,
                capacity: 5_000,
                duration_s: 30,
                ..StormParams::default()
            },
        ];
        let mut rng = PyRandom::new(11);
        let mut pick = |lo: u32, hi: u32| crate::sim::policy::rng::pick(&mut rng, lo, hi);
        for seed in 0..40 {
            cases.push(StormParams {
                rps: pick(1, 400),
                capacity: pick(1, 600),
                layers: pick(1, 4),
                retries: pick(0, 5),
                retry_in: if pick(0, 1) == 0 { RetryIn::All } else { RetryIn::Bottom },
                budget_pct: (pick(0, 2) == 0).then(|| pick(0, 100)),
                breaker: if pick(0, 3) == 0 { Toggle::On } else { Toggle::Off },
                breaker_open_s: pick(1, 30),
                trigger: if pick(0, 1) == 0 {
                    Trigger::Outage
                } else {
                    Trigger::Spike
                },
                trigger_at_ms: pick(0, 20_000),
                trigger_ms: pick(0, 20_000),
                spike_pct: pick(0, 1_000),
                inject: Injected(
                    (0..pick(0, 2))
                        .map(|_| crate::sim::params::Injection {
                            kind: if pick(0, 1) == 0 {
                                Trigger::Outage
                            } else {
                                Trigger::Spike
                            },
                            at_ms: pick(0, 30_000),
                            for_ms: pick(0, 5_000),
                        })
                        .fold(Injected::default(), |all: Injected<Trigger>, i| all.with(i))
                        .0,
                ),
                timeout_ms: pick(10, 5_000),
                base_ms: [1, 10, 100, 1_000, 10_000][pick(0, 4) as usize],
                duration_s: pick(10, 60),
                seed,
                t_ms: None,
            });
        }
        let mut retried = 0;
        for p in &cases {
            let calendar = simulate(p);
            let heap = play(p, BinaryHeap::new(), &mut PyRandom::new(p.seed));
            assert_eq!(calendar, heap, "{p:?}");
            retried += usize::from(calendar.attempts > calendar.requests);
        }
        assert!(retried > cases.len() / 2, "{retried} of {} runs retried", cases.len());
    }

    #[test]
    fn bounded() {
        let r = simulate(&StormParams {
            rps: 2_000,
            capacity: 1,
            layers: 4,
            retries: 5,
            duration_s: 300,
            ..StormParams::default()
        });
        assert!(r.attempts <= MAX_ATTEMPTS);
        assert!(r.truncated);
        let cut = r.cut_at_s.expect("a cut run says when");
        // Only the buckets played whole are kept, and no conclusion is drawn.
        assert!(r.buckets.len() as f64 * r.bucket_s <= cut + 1e-9);
        assert!(r.buckets.len() < BUCKETS);
        assert_eq!(r.recovered_at_s, None);
        assert!(matches!(assess(&StormParams::default(), &r), Outcome::Cut { .. }));
        assert_eq!(r.notes().len(), 1);
    }

    #[test]
    fn the_largest_calm_run_is_played_to_the_end() {
        // Issue 22: 2,000 new requests per second for 300 s, every attempt
        // answered in time, was cut by the budget and called metastable. The
        // budget now has room for it: it recovers, and says so.
        let p = StormParams {
            rps: 2_000,
            capacity: 5_000,
            layers: 4,
            retries: 5,
            duration_s: 300,
            trigger_ms: 0,
            ..StormParams::default()
        };
        let r = simulate(&p);
        assert!(!r.truncated);
        assert_eq!(r.succeeded, r.attempts);
        assert!(
            matches!(assess(&p, &r), Outcome::Recovered { .. }),
            "{:?}",
            assess(&p, &r)
        );
        // A storm that reaches the budget is cut, and concludes nothing.
        let storm = StormParams {
            rps: 2_000,
            capacity: 1_000,
            duration_s: 300,
            ..StormParams::default()
        };
        let r = simulate(&storm);
        assert!(r.truncated);
        assert!(matches!(assess(&storm, &r), Outcome::Cut { .. }));
        assert!(!verdict(&r, assess(&storm, &r)).contains("metaestable"));
        assert!(matches!(
            tipping_point(&storm),
            Tipping::Unknown { cut: true, .. } | Tipping::Overloaded
        ));
    }

    #[test]
    fn no_verdict_the_run_cannot_support() {
        // Found by exploring: a run that ends 2 s after its trigger, a trigger
        // past the end, a breaker still open at the end, and no retries.
        let short = StormParams {
            duration_s: 10,
            retries: 0,
            ..StormParams::default()
        };
        assert!(matches!(assess(&short, &simulate(&short)), Outcome::NoRoom { .. }));
        for at in [39_000, 40_000, 300_000] {
            let late = StormParams {
                trigger_at_ms: at,
                ..StormParams::default()
            };
            let o = assess(&late, &simulate(&late));
            assert!(matches!(o, Outcome::NoRoom { .. }), "{at}: {o:?}");
        }
        let open = StormParams {
            breaker: Toggle::On,
            breaker_open_s: 600,
            ..StormParams::default()
        };
        assert_eq!(assess(&open, &simulate(&open)), Outcome::BreakerOpen);
        let none = StormParams {
            retries: 0,
            trigger_ms: 30_000,
            duration_s: 60,
            ..StormParams::default()
        };
        let o = assess(&none, &simulate(&none));
        assert!(!matches!(o, Outcome::Metastable | Outcome::Overloaded), "{o:?}");
        // A healthy setting has no tipping point (found reviewing: it was «unknown»).
        let healthy = StormParams {
            layers: 1,
            retries: 1,
            capacity: 5_000,
            ..StormParams::default()
        };
        assert!(
            matches!(tipping_point(&healthy), Tipping::Never { .. }),
            "{:?}",
            tipping_point(&healthy)
        );
        // Without retries there is no storm to tip into.
        assert!(matches!(
            tipping_point(&StormParams {
                retries: 0,
                ..StormParams::default()
            }),
            Tipping::Never { .. }
        ));
    }

    #[test]
    fn overload_without_a_trigger_is_not_metastable() {
        let p = StormParams {
            rps: 200,
            capacity: 100,
            ..StormParams::default()
        };
        let r = simulate(&p);
        assert_eq!(assess(&p, &r), Outcome::Overloaded);
        assert_eq!(tipping_point(&p), Tipping::Overloaded);
        let lesson = StormParams::default();
        assert_eq!(assess(&lesson, &simulate(&lesson)), Outcome::Metastable);
    }
}
