//! Load shedding: turn away at once what cannot be served in time.
//!
//! Why: when more arrives than can be served, something has to give. The
//! worst is to queue without limit: the queue grows, the wait grows with it,
//! and in the end every request runs out its deadline inside the queue — the
//! server stays busy and its goodput (answers delivered before their
//! deadline) falls to nothing. Load shedding rejects at once, with a 503, what
//! it will not be able to serve in time: C01 caps the requests in flight
//! (`MAX_INFLIGHT`) and its queue rejects what waited more than 100 ms. When
//! something must go, batch callers go before interactive ones.
//!
//! [`simulate`] plays the same arrivals through both servers: one with an
//! unbounded FIFO queue, one that sheds.
//!
//! ```
//! use sensei_lab::sim::shedding::{simulate, SheddingParams};
//! let r = simulate(&SheddingParams::default());
//! assert!(r.unbounded.goodput_share < 0.1);
//! assert!(r.shedding.goodput_share > 0.6);
//! ```

use crate::sim::params::Maybe;
use crate::sim::policy::rng::{PyRandom, UnitRng};
use rand_core::SeedableRng;
use serde::{Deserialize, Serialize};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

crate::params! {
    /// A server above its capacity. Defaults: 150 requests per second against
    /// 4 workers of 40 ms each (100 per second), callers with a 300 ms deadline.
    #[derive(Eq)]
    pub struct SheddingParams {
        /// Requests per second arriving
        rps: u32 = 150 => int("Llegan por segundo", "/s", 1, 10_000),
        /// Requests the server works on at once
        workers: u32 = 4 => int("Workers", "", 1, 256),
        /// Time to serve one request, in ms
        service_ms: u32 = 40 => int("Cada request toma", "ms", 1, 10_000),
        /// The callers' deadline, in ms
        deadline_ms: u32 = 300 => int("Deadline del caller", "ms", 1, 60_000),
        /// Shedding: most requests in the server (queue + work); none = no cap
        max_inflight: Maybe = Some(16) => optional("MAX_INFLIGHT", "", "sin tope", "con tope", 1, 100_000),
        /// Shedding: reject what waited longer than this in the queue, in ms; none = no limit
        queue_timeout_ms: Maybe = Some(100) => optional("La fila rechaza después de", "ms", "sin límite", "con límite", 1, 60_000),
        /// Percent of requests from batch callers, shed first
        batch_pct: u32 = 30 => int("Requests de callers batch", "%", 0, 100),
        /// Seconds simulated
        duration_s: u32 = 20 => int("Segundos simulados", "s", 1, 120),
        /// Seed of the (Poisson) arrivals
        seed: u32 = 7 => int("Semilla", "", 0, u32::MAX as i64),
        /// The moment shown, in ms from the start; none = the run's end (the player's time)
        t_ms: Maybe = None => optional("Momento", "ms", "el final", "un momento", 0, crate::sim::playback::MAX_T_MS),
    }
}

/// What the command line says of it (`sensei-lab shedding --help`).
#[cfg(not(target_arch = "wasm32"))]
impl crate::sim::scenario::Scenario for SheddingParams {
    const ABOUT: &'static str = "Load shedding: an unbounded queue against a server that sheds, above its capacity.";
    const BUDGET: &'static str = "at most 200,000 arrivals, with room for their noise: rps × duration-s ≤ 180,000, or refused here (the page plays the whole seconds that fit and says so).";

    fn beyond_budget(p: &Self) -> Option<String> {
        let most = longest_fit_s(p);
        (p.duration_s as u64 > most).then(|| {
            format!(
                "--duration-s {} is past the work budget: --rps {} × --duration-s must stay within {} arrivals, so --duration-s at most {}",
                p.duration_s,
                p.rps,
                crate::fmt::es_int(PLANNED_ARRIVALS as i64),
                most
            )
        })
    }

    fn report(p: &Self, ctx: &mut impl crate::sim::scenario::Session) -> crate::sim::scenario::Run {
        use crate::fmt::{es_int, es_percent};
        use crate::sim::scenario::Run;
        use serde_json::json;
        let r = ctx.time(|| simulate(p));
        let line = |name: &str, s: &ServerRun| {
            format!(
                "{name}: {} a tiempo, {} tarde, {} rechazadas con 503, {} sin respuesta al terminar; interactivas a tiempo {}, batch {}; última latencia {} ms",
                es_percent(s.goodput_share, 0),
                es_int(s.late as i64),
                es_int(s.rejected as i64),
                es_int(s.unfinished as i64),
                kind_share_text(s.interactive_goodput_share),
                kind_share_text(s.batch_goodput_share),
                es_int(s.final_latency_ms.round() as i64)
            )
        };
        let mut lines = vec![
            verdict(p, &r),
            line("fila sin tope", &r.unbounded),
            line("con load shedding", &r.shedding),
        ];
        let mut notes = r.notes();
        // A moment: both servers so far (the seconds finished by then).
        let mut result = json!(r);
        use crate::sim::playback::{moment_within, say, Playback};
        if let Some(t) = moment_within(p.t_ms, r.span().end_ms(), say, &mut notes) {
            let m = r.at(t);
            lines.push(m.line());
            result["at"] = json!(m);
        }
        Run {
            result,
            truncated: r.truncated,
            notes,
            lines,
        }
    }
}

/// One second of one server.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Second {
    /// Answers delivered this second before their deadline.
    pub goodput: u32,
    /// Answers delivered this second after their deadline (work for nobody).
    pub late: u32,
    /// 503s given this second.
    pub rejected: u32,
    /// Mean latency of the answers delivered this second, in ms.
    pub mean_latency_ms: f64,
    /// Longest queue seen this second.
    pub max_queue: u32,
}

/// One server over the whole run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ServerRun {
    pub seconds: Vec<Second>,
    pub arrivals: u64,
    /// Answers before the deadline, over all arrivals.
    pub goodput_share: f64,
    pub late: u64,
    pub rejected: u64,
    /// Still queued or being served when the run ends (no answer yet):
    /// answered in time + `late` + `rejected` + `unfinished` = `arrivals`.
    pub unfinished: u64,
    /// Of the interactive requests, the share answered in time; same for
    /// batch (`None` when there are none of that kind).
    pub interactive_goodput_share: Option<f64>,
    pub batch_goodput_share: Option<f64>,
    /// Latency of the last answers delivered, in ms (how far behind the queue is).
    pub final_latency_ms: f64,
}

/// One server's run so far at a moment: the seconds finished by then.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct ServerSoFar {
    pub goodput: u64,
    pub late: u64,
    pub rejected: u64,
    /// The longest queue in the last second finished.
    pub queue: u32,
    /// The mean latency of that second's answers, in ms.
    pub latency_ms: f64,
}

impl ServerRun {
    /// This server's first `k` seconds, summed.
    pub fn so_far(&self, k: usize) -> ServerSoFar {
        let done = &self.seconds[..k.min(self.seconds.len())];
        let sum = |f: fn(&Second) -> u32| done.iter().map(|s| f(s) as u64).sum::<u64>();
        ServerSoFar {
            goodput: sum(|s| s.goodput),
            late: sum(|s| s.late),
            rejected: sum(|s| s.rejected),
            queue: done.last().map_or(0, |s| s.max_queue),
            latency_ms: done.last().map_or(0.0, |s| s.mean_latency_ms),
        }
    }
}

/// Both servers so far at a moment.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct SheddingMoment {
    /// The moment, in ms from the start.
    pub t_ms: f64,
    /// Seconds finished.
    pub seconds: usize,
    pub unbounded: ServerSoFar,
    pub shedding: ServerSoFar,
}

impl SheddingMoment {
    /// The moment in the learner's words.
    pub fn line(&self) -> String {
        use crate::fmt::es_int;
        let one = |name: &str, s: &ServerSoFar| {
            format!(
                "{name}, {} a tiempo, {} tarde, {} con 503 y una fila de {}",
                es_int(s.goodput as i64),
                es_int(s.late as i64),
                es_int(s.rejected as i64),
                es_int(s.queue as i64)
            )
        };
        format!(
            "a los {}: {}; {}",
            crate::sim::playback::say(self.t_ms),
            one("fila sin tope", &self.unbounded),
            one("con load shedding", &self.shedding)
        )
    }
}

impl SheddingRun {
    /// The run as the player steps it: one second a step, to where it was played.
    pub fn span(&self) -> crate::sim::playback::Steps {
        crate::sim::playback::Steps {
            step_ms: 1000.0,
            count: self.unbounded.seconds.len().max(self.shedding.seconds.len()),
        }
    }

    /// Both servers so far at `t_ms`.
    pub fn at(&self, t_ms: f64) -> SheddingMoment {
        let k = self.span().done_at(t_ms);
        SheddingMoment {
            t_ms,
            seconds: k,
            unbounded: self.unbounded.so_far(k),
            shedding: self.shedding.so_far(k),
        }
    }
}

/// Both servers, on the same arrivals.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SheddingRun {
    pub unbounded: ServerRun,
    pub shedding: ServerRun,
    /// Requests per second the workers can serve.
    pub capacity_rps: f64,
    /// Simulated seconds played: the asked duration, or less if cut.
    pub played_s: f64,
    /// Seconds asked for.
    pub asked_s: u32,
    /// The run was cut to [`MAX_ARRIVALS`] arrivals (`played_s < asked_s`).
    pub truncated: bool,
    /// The shedding server has neither a cap nor a queue limit: it sheds
    /// nothing, only serves interactive requests first.
    pub same_rules: bool,
    /// Arrivals per second asked (for the notes).
    pub rps: f64,
}

impl SheddingRun {
    /// What a reader must know beside the figures: the run was cut.
    pub fn notes(&self) -> Vec<String> {
        use crate::fmt::{es_dec, es_int};
        let mut out = Vec::new();
        if self.same_rules {
            out.push("Sin tope de requests en vuelo ni límite de espera en la fila, el servidor «con load shedding» no rechaza nada: solo atiende antes las interactivas. Las dos columnas difieren solo por ese orden.".to_string());
        }
        if !self.truncated {
            return out;
        }
        out.push(format!(
            "Se simularon {} s de los {} s pedidos: en {} s llegarían ≈ {} requests, y el tope de trabajo de la simulación es de {} (con margen para el azar de las llegadas). La gráfica y las cifras son de esos {} s. En la terminal, sensei-lab no corre estos valores: pide --duration-s {} o menos.",
            es_dec(self.played_s, 2),
            es_int(self.asked_s as i64),
            es_int(self.asked_s as i64),
            es_int((self.rps * self.asked_s as f64).round() as i64),
            es_int(PLANNED_ARRIVALS as i64),
            es_dec(self.played_s, 2),
            es_dec(self.played_s, 0)
        ));
        out
    }
}

/// More arrive than the workers can serve (the verdict's tone on the page).
pub fn over_capacity(p: &SheddingParams, r: &SheddingRun) -> bool {
    p.rps as f64 > r.capacity_rps
}

/// The verdict, the page's and the command line's: arrivals against
/// capacity, and what each server does about it.
pub fn verdict(p: &SheddingParams, r: &SheddingRun) -> String {
    use crate::fmt::{es_dec, es_int};
    let s = &r.shedding;
    let over = over_capacity(p, r);
    if over && r.same_rules {
        format!(
            "Llegan {} por segundo y caben {}: sin tope la fila crece hasta que todas vencen su deadline adentro, y sin tope ni límite de espera el otro servidor tampoco suelta nada.",
            es_int(p.rps as i64),
            es_dec(r.capacity_rps, 2)
        )
    } else if over {
        format!(
            "Llegan {} por segundo y caben {}: sin tope la fila crece hasta que todas vencen su deadline adentro; soltando carga, el servidor entrega ≈ {} por segundo a tiempo.",
            es_int(p.rps as i64),
            es_dec(r.capacity_rps, 2),
            es_dec(s.seconds.iter().skip(1).map(|x| x.goodput as f64).sum::<f64>() / (s.seconds.len().max(2) - 1) as f64, 0)
        )
    } else {
        format!(
            "Llegan {} por segundo y caben {}: no hace falta soltar nada.",
            es_int(p.rps as i64),
            es_dec(r.capacity_rps, 2)
        )
    }
}

/// A kind's share answered in time, or that there were none of that kind
/// (the page and the command line).
pub fn kind_share_text(share: Option<f64>) -> String {
    share.map_or("no hubo".to_string(), |x| crate::fmt::es_percent(x, 0))
}

/// Most arrivals one run plays: the work budget. A longer run is cut to fit
/// (`truncated`, with a note).
pub const MAX_ARRIVALS: u64 = 200_000;

#[derive(Clone, Copy)]
struct Req {
    at: f64,
    batch: bool,
}

struct Tally {
    seconds: Vec<Second>,
    lat_sum: Vec<f64>,
    arrivals: u64,
    good: [u64; 2],
    total: [u64; 2],
    late: u64,
    rejected: u64,
    last_latency: f64,
}

impl Tally {
    fn new(n: usize) -> Self {
        Tally {
            seconds: vec![Second::default(); n],
            lat_sum: vec![0.0; n],
            arrivals: 0,
            good: [0; 2],
            total: [0; 2],
            late: 0,
            rejected: 0,
            last_latency: 0.0,
        }
    }
    fn bucket(&self, t: f64) -> usize {
        (t.max(0.0) as usize).min(self.seconds.len() - 1)
    }
    fn answer(&mut self, r: Req, done: f64, deadline: f64) {
        let b = self.bucket(done);
        let latency = (done - r.at) * 1000.0;
        self.last_latency = latency;
        if latency <= deadline {
            self.seconds[b].goodput += 1;
            self.good[r.batch as usize] += 1;
        } else {
            self.seconds[b].late += 1;
            self.late += 1;
        }
        self.lat_sum[b] += latency;
    }
    fn reject(&mut self, t: f64) {
        let b = self.bucket(t);
        self.seconds[b].rejected += 1;
        self.rejected += 1;
    }
    fn queue(&mut self, t: f64, len: usize) {
        let b = self.bucket(t);
        self.seconds[b].max_queue = self.seconds[b].max_queue.max(len as u32);
    }
    fn finish(mut self) -> ServerRun {
        for (s, sum) in self.seconds.iter_mut().zip(&self.lat_sum) {
            let n = s.goodput + s.late;
            s.mean_latency_ms = if n > 0 { sum / n as f64 } else { 0.0 };
        }
        let share = |g: u64, t: u64| if t == 0 { 1.0 } else { g as f64 / t as f64 };
        let of_kind = |g: u64, t: u64| (t > 0).then(|| g as f64 / t as f64);
        ServerRun {
            arrivals: self.arrivals,
            goodput_share: share(self.good[0] + self.good[1], self.arrivals),
            late: self.late,
            rejected: self.rejected,
            unfinished: self.arrivals - (self.good[0] + self.good[1] + self.late + self.rejected),
            interactive_goodput_share: of_kind(self.good[0], self.total[0]),
            batch_goodput_share: of_kind(self.good[1], self.total[1]),
            final_latency_ms: self.last_latency,
            seconds: self.seconds,
        }
    }
}

/// Plays one server. `shed` turns on MAX_INFLIGHT, the queue's time limit
/// and batch-before-interactive; without it the queue is one unbounded FIFO.
fn play(p: &SheddingParams, arrivals: &[Req], played: f64, shed: bool) -> ServerRun {
    let service = p.service_ms as f64 / 1000.0;
    let deadline = p.deadline_ms as f64;
    let cap = if shed {
        p.max_inflight.map_or(usize::MAX, |c| c as usize)
    } else {
        usize::MAX
    };
    let max_wait = if shed {
        p.queue_timeout_ms.map(|q| q as f64 / 1000.0)
    } else {
        None
    };
    let mut tally = Tally::new(played.ceil().max(1.0) as usize);
    // Worker completions: (time, request). f64 times wrapped for ordering.
    let mut busy: BinaryHeap<Reverse<(Time, usize)>> = BinaryHeap::new();
    let mut queues: [VecDeque<usize>; 2] = [VecDeque::new(), VecDeque::new()]; // [interactive, batch]
    let mut next = 0usize;
    let free_workers = |busy: &BinaryHeap<Reverse<(Time, usize)>>| p.workers as usize - busy.len();

    // Starts queued work on idle workers at time `t`, interactive first
    // (when shedding), dropping what waited too long.
    let start = |t: f64,
                 busy: &mut BinaryHeap<Reverse<(Time, usize)>>,
                 queues: &mut [VecDeque<usize>; 2],
                 tally: &mut Tally| {
        while free_workers(busy) > 0 {
            let pick = if shed {
                if !queues[0].is_empty() {
                    0
                } else {
                    1
                }
            } else {
                0
            };
            let Some(i) = queues[pick].pop_front() else { break };
            let r = arrivals[i];
            if let Some(w) = max_wait {
                if t - r.at > w {
                    tally.reject(r.at + w);
                    continue;
                }
            }
            busy.push(Reverse((Time(t + service), i)));
        }
    };

    loop {
        let next_done = busy.peek().map(|Reverse((Time(t), _))| *t);
        let next_arrival = arrivals.get(next).map(|r| r.at);
        let take_done = match (next_done, next_arrival) {
            (Some(d), Some(a)) => d <= a,
            (Some(_), None) => true,
            (None, Some(_)) => false,
            (None, None) => break,
        };
        if take_done {
            if next_done.is_some_and(|d| d > played) {
                break; // the run ends here; what is still queued is not answered in time either
            }
            let Reverse((Time(d), i)) = busy.pop().expect("a worker is busy");
            tally.answer(arrivals[i], d, deadline);
            start(d, &mut busy, &mut queues, &mut tally);
            continue;
        }
        let r = arrivals[next];
        let (i, t) = (next, r.at);
        next += 1;
        tally.arrivals += 1;
        tally.total[r.batch as usize] += 1;
        // Drop from the fronts what has already waited too long.
        if let Some(w) = max_wait {
            for q in queues.iter_mut() {
                while q.front().is_some_and(|&j| t - arrivals[j].at > w) {
                    let j = q.pop_front().expect("a front");
                    tally.reject(arrivals[j].at + w);
                }
            }
        }
        let inflight = busy.len() + queues[0].len() + queues[1].len();
        if inflight >= cap {
            // Full: an interactive request takes the place of the newest batch one.
            tally.reject(t);
            if r.batch || queues[1].pop_back().is_none() {
                continue;
            }
        }
        queues[if shed && r.batch { 1 } else { 0 }].push_back(i);
        start(t, &mut busy, &mut queues, &mut tally);
        tally.queue(t, queues[0].len() + queues[1].len());
    }
    tally.finish()
}

/// An `f64` time with a total order, for the heap.
#[derive(Clone, Copy, PartialEq, PartialOrd)]
struct Time(f64);
impl Eq for Time {}
#[allow(clippy::derive_ord_xor_partial_ord)]
impl Ord for Time {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.total_cmp(&other.0)
    }
}

/// Arrivals one run's budget plans for: [`MAX_ARRIVALS`] with room for the
/// arrivals' noise (0.9 of it).
pub const PLANNED_ARRIVALS: u64 = MAX_ARRIVALS / 10 * 9;

/// The longest whole `duration_s` within the work budget at this rate:
/// rps × seconds ≤ [`PLANNED_ARRIVALS`] (180,000), counted in integers.
pub fn longest_fit_s(p: &SheddingParams) -> u64 {
    (PLANNED_ARRIVALS / p.rps.max(1) as u64).max(1)
}

/// The simulated seconds played: all of `duration_s` when it fits in the
/// work budget, else the whole seconds that fit ([`longest_fit_s`]; the last
/// second's figures stay whole). A longer `duration_s` is cut to this on the
/// page (with a note) and refused on the command line.
pub fn played_s(p: &SheddingParams) -> f64 {
    (p.duration_s as u64).min(longest_fit_s(p)) as f64
}

/// Plays the same Poisson arrivals through both servers.
pub fn simulate(params: &SheddingParams) -> SheddingRun {
    simulate_from(params, &mut PyRandom::seed_from_u64(params.seed.into()))
}

/// [`simulate`], drawing the arrivals from `rng` (any `rand_core` generator;
/// [`simulate`] seeds Python's with the scenario's `seed`).
pub fn simulate_from<R: UnitRng>(params: &SheddingParams, rng: &mut R) -> SheddingRun {
    let (p, _) = crate::sim::params::clamp(params);
    let rate = p.rps as f64;
    // The arrival count is still capped at MAX_ARRIVALS, in case.
    let played = played_s(&p);
    let mut arrivals = Vec::with_capacity((rate * played) as usize + 16);
    let mut t = 0.0;
    let mut played = played;
    loop {
        t += -(1.0 - rng.random()).ln() / rate;
        if t >= played {
            break;
        }
        if arrivals.len() as u64 >= MAX_ARRIVALS {
            played = t; // the budget is spent before the asked end: cut here
            break;
        }
        let batch = rng.random() * 100.0 < p.batch_pct as f64;
        arrivals.push(Req { at: t, batch });
    }
    SheddingRun {
        unbounded: play(&p, &arrivals, played, false),
        shedding: play(&p, &arrivals, played, true),
        capacity_rps: p.workers as f64 * 1000.0 / p.service_ms as f64,
        played_s: played,
        asked_s: p.duration_s,
        truncated: played < p.duration_s as f64,
        same_rules: p.max_inflight.is_none() && p.queue_timeout_ms.is_none(),
        rps: p.rps as f64,
    }
}

impl crate::sim::figures::TaskFigures for SheddingParams {
    const RESULTS: &'static [crate::sim::figures::Figure] = &[
        crate::fig!(
            "fifo-in-time",
            "la parte que llega a tiempo con la fila sin tope",
            Share
        ),
        crate::fig!("shed-in-time", "la parte que llega a tiempo soltando carga", Share),
        crate::fig!(
            "interactive-in-time",
            "la parte de las interactivas que llega a tiempo soltando carga",
            Share
        ),
    ];
    fn figure(&self, key: &str) -> Option<f64> {
        let r = simulate(self);
        match key {
            "fifo-in-time" => Some(r.unbounded.goodput_share),
            "shed-in-time" => Some(r.shedding.goodput_share),
            "interactive-in-time" => r.shedding.interactive_goodput_share,
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_unbounded_queue_ends_with_every_request_late() {
        let r = simulate(&SheddingParams::default());
        assert_eq!(r.capacity_rps, 100.0);
        let last = r.unbounded.seconds.last().unwrap();
        assert_eq!(last.goodput, 0, "{last:?}");
        assert!(last.late > 80, "the server is busy, for nobody: {last:?}");
        assert!(r.unbounded.final_latency_ms > 5_000.0);
        assert_eq!(r.unbounded.rejected, 0);
    }

    #[test]
    fn shedding_keeps_goodput_near_capacity() {
        let r = simulate(&SheddingParams::default());
        let s = &r.shedding;
        let steady: Vec<&Second> = s.seconds[1..].iter().collect();
        let mean_goodput = steady.iter().map(|x| x.goodput as f64).sum::<f64>() / steady.len() as f64;
        assert!(mean_goodput > 90.0, "{mean_goodput}");
        assert_eq!(s.late, 0);
        // The rest get a 503 at once, batch callers first.
        assert!(s.rejected > 0);
        let (i, b) = (s.interactive_goodput_share.unwrap(), s.batch_goodput_share.unwrap());
        assert!(i > b + 0.3, "{i} vs {b}");
        assert!(i > 0.9);
    }

    #[test]
    fn below_capacity_both_answer_everything() {
        let r = simulate(&SheddingParams {
            rps: 60,
            ..SheddingParams::default()
        });
        assert!(r.unbounded.goodput_share > 0.99);
        assert!(r.shedding.goodput_share > 0.99);
    }
}
