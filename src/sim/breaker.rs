//! The circuit breaker: stop calling a dependency that is down.
//!
//! Why: when a dependency stops answering for minutes, calling it anyway is
//! doubly bad: every request waits its full timeout, and the dependency gets
//! load just as it tries to come back. A breaker counts failures in a recent
//! window; above a share (with a minimum of calls, so that 2 failures out of
//! 3 at 4 a.m. do not count) it opens, and every request gets the fallback at
//! once. After a while it lets a few probe calls through (half-open): if they
//! succeed it closes, if they fail it opens again.
//!
//! [`Breaker`] is the state machine (in `sim::policy::breaker`, tested
//! alone), fed with simulated time; [`simulate`]
//! plays C01's numbers (M15's example): 500 requests per second, a 150 ms
//! timeout, a 10 s window, above 50 % with at least 20 calls, 30 s open, 5 probes.
//!
//! ```
//! use sensei_lab::sim::breaker::{Breaker, BreakerConfig, State};
//! use sensei_lab::sim::policy::time::Secs;
//! let mut b = Breaker::new(BreakerConfig::default());
//! for t in [0.0, 0.1, 0.2] { b.record(Secs(t), t == 0.0); } // 2 failures of 3 calls at 4 a.m.
//! assert_eq!(b.state(Secs(0.3)), State::Closed);
//! ```

use crate::sim::params::{ChoiceKey, Injected, Maybe};
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

pub use crate::sim::policy::breaker::{Breaker, BreakerConfig, State};
use crate::sim::policy::time::Secs;

crate::params! {
    /// Exercise 7's scenario. Times in seconds from 12:00:00, when Triton falls.
    #[derive(Eq)]
    pub struct BreakerParams {
        /// Requests per second
        rps: u32 = 500 => int("Requests por segundo", "/s", 1, 10_000),
        /// Each call to the fallen dependency waits this timeout, in ms
        timeout_ms: u32 = 150 => int("Timeout de cada llamada", "ms", 1, 60_000),
        /// Window of the failure count, in s
        window_s: u32 = 10 => int("Ventana de conteo", "s", 1, 120),
        /// Opens above this share of failures, in percent
        threshold_pct: u32 = 50 => int("Se abre con más de", "% de fallas", 1, 99),
        /// ... with at least this many calls in the window
        min_calls: u32 = 20 => int("… con al menos", "llamadas", 1, 100_000),
        /// Stays open this long, in s
        open_s: u32 = 30 => int("Se queda abierto", "s", 1, 600),
        /// Probe calls when half-open
        probes: u32 = 5 => int("Llamadas de prueba", "", 1, 100),
        /// When Triton falls, in ms after 12:00:00 (the lesson's: at 12:00:00; the player's «Tirar a Triton
        /// ahora» sets it to the moment shown)
        fall_ms: u32 = 0 => int("Triton se cae (después de las 12:00:00)", "ms", 0, 600_000),
        /// When the dependency comes back, in s after 12:00:00; none = it stays down
        recover_s: Maybe = None => optional("Triton vuelve a los", "s", "sigue caído", "vuelve", 1, 600),
        /// Falls injected while it plays (the player's «Tirar a Triton ahora»), each from its moment on, the run
        /// before it kept: fall@MS, in ms from the run's start (as t-ms); Triton stays down until recover-s if
        /// that comes later, else to the end; none by default
        inject: Injected<Fault> = Injected::default() => events("Caídas inyectadas", FAULT_OPTIONS, INJECT_MAX, 720_000, None),
        /// Seconds shown after 12:00:00
        duration_s: u32 = 80 => int("Segundos mostrados", "s", 10, 600),
        /// The moment shown, in ms from the run's start (window-s before 12:00:00); none = its end (the player's time)
        t_ms: Maybe = None => optional("Momento", "ms", "el final", "un momento", 0, crate::sim::playback::MAX_T_MS),
    }
}

/// What can be injected into the breaker's run: Triton falls.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Fault {
    #[default]
    Fall,
}

impl ChoiceKey for Fault {
    const KEYS: &'static [(Self, &'static str)] = &[(Fault::Fall, "fall")];
}

const FAULT_OPTIONS: &[(&str, &str)] = &[("fall", "Triton se cae")];

/// Most falls injected into one run.
pub const INJECT_MAX: usize = 20;

/// When Triton is down (see [`BreakerParams::downtime`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Downtime {
    /// The fall set and the injected ones, in s from 12:00:00.
    falls: Vec<f64>,
    recover: Option<f64>,
    fall: f64,
}

impl Downtime {
    /// Whether Triton is down at `t` (s from 12:00:00): after the fall set
    /// until it comes back; after an injected one until it comes back, if that
    /// comes later, else to the end.
    pub fn at(&self, t: f64) -> bool {
        let back = |f: f64| self.recover.is_none_or(|r| r <= f || t < r);
        (t >= self.fall && self.recover.is_none_or(|r| t < r)) || self.falls.iter().any(|&f| t >= f && back(f))
    }
}

impl BreakerParams {
    /// When Triton is down: from `fall-ms`, and from each injected fall (at
    /// its moment, counted from the run's start a window before 12:00:00).
    pub fn downtime(&self) -> Downtime {
        let start = -(self.window_s as f64);
        Downtime {
            falls: self.inject.0.iter().map(|i| start + i.at_ms as f64 / 1000.0).collect(),
            recover: self.recover_s.map(f64::from),
            fall: self.fall_ms as f64 / 1000.0,
        }
    }
}

/// What the command line says of it (`sensei-lab breaker --help`).
#[cfg(not(target_arch = "wasm32"))]
impl crate::sim::scenario::Scenario for BreakerParams {
    const ABOUT: &'static str = "The circuit breaker when Triton falls at 12:00:00 (exercise 7).";
    const BUDGET: &'static str = "every request is played, at most rps × (window-s + duration-s) = 10,000 × 720 = 7,200,000; every accepted run plays to the end.";

    fn report(p: &Self, ctx: &mut impl crate::sim::scenario::Session) -> crate::sim::scenario::Run {
        use crate::fmt::es_dec;
        use crate::sim::scenario::Run;
        use serde_json::json;
        let r = ctx.time(|| simulate(p));
        let mut lines: Vec<String> = r
            .transitions
            .iter()
            .map(|(t, s)| format!("{} s: {}", es_dec(*t, 2), s.label()))
            .collect();
        lines.extend(
            figures(p, &r)
                .into_iter()
                .skip(1)
                .map(|(label, value)| format!("{label}: {value}")),
        );
        let mut notes = Vec::new();
        // A moment: the run so far (the seconds finished by then).
        use crate::sim::playback::{moment_within, Playback};
        let said = |t: f64| clock(r.start_s() + t / 1000.0);
        let at = moment_within(p.t_ms, r.span().end_ms(), said, &mut notes).map(|t| {
            let m = r.at(t);
            lines.push(m.line());
            m
        });
        Run {
            notes,
            ..Run::plain(
                json!({ "transitions": r.transitions, "waited_before_open": r.waited_before_open,
                    "fallbacks_first_open": r.fallbacks_first_open, "at": at }),
                lines,
            )
        }
    }
}

/// One second of the timeline.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Second {
    /// Seconds from 12:00:00 (negative: before the fall).
    pub t: i64,
    pub state: Option<State>,
    /// Calls that reached the dependency.
    pub calls: u32,
    /// Requests that waited their full timeout and failed.
    pub timeouts: u32,
    /// Requests that got the fallback at once, without calling.
    pub fallbacks: u32,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BreakerRun {
    pub seconds: Vec<Second>,
    /// Every change of state: `(time in s from 12:00:00, new state)`.
    pub transitions: Vec<(f64, State)>,
    /// Requests that waited their timeout before the breaker first opened.
    pub waited_before_open: u64,
    /// Requests answered with the fallback during the first open period.
    pub fallbacks_first_open: u64,
}

/// The run so far at a moment: the seconds finished by then.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct BreakerMoment {
    /// The moment, in ms from the run's start.
    pub t_ms: f64,
    /// The same moment on the clock, in s from 12:00:00.
    pub clock_s: f64,
    /// Seconds finished (the chart's lines reach them).
    pub seconds: usize,
    /// The breaker's state at the moment.
    pub state: State,
    /// Requests so far, each a call or a fallback.
    pub requests: u64,
    pub calls: u64,
    pub timeouts: u64,
    pub fallbacks: u64,
}

impl BreakerMoment {
    /// The moment in the learner's words.
    pub fn line(&self) -> String {
        use crate::fmt::es_int;
        // The counts are the seconds finished: said as of the last whole one.
        let whole = self.clock_s - (self.t_ms / 1000.0 - self.seconds as f64);
        let upto = if (whole - self.clock_s).abs() < 1e-9 {
            String::new()
        } else {
            format!("; hasta las {}", clock(whole))
        };
        format!(
            "a las {}, el breaker está {}{upto}: {} requests, {} llegan a Triton ({} esperan su timeout), {} con plan B al instante",
            clock(self.clock_s),
            self.state.label(),
            es_int(self.requests as i64),
            es_int(self.calls as i64),
            es_int(self.timeouts as i64),
            es_int(self.fallbacks as i64)
        )
    }
}

impl BreakerRun {
    /// Where the run starts on the clock, in s from 12:00:00 (a window before the fall).
    pub fn start_s(&self) -> f64 {
        self.seconds.first().map_or(0.0, |s| s.t as f64)
    }

    /// The run as the player steps it: one second a step.
    pub fn span(&self) -> crate::sim::playback::Steps {
        crate::sim::playback::Steps {
            step_ms: 1000.0,
            count: self.seconds.len(),
        }
    }

    /// The run so far at `t_ms` from its start.
    pub fn at(&self, t_ms: f64) -> BreakerMoment {
        let k = self.span().done_at(t_ms);
        let clock_s = self.start_s() + t_ms / 1000.0;
        let sum = |f: fn(&Second) -> u32| self.seconds[..k].iter().map(|s| f(s) as u64).sum::<u64>();
        let (calls, fallbacks) = (sum(|s| s.calls), sum(|s| s.fallbacks));
        BreakerMoment {
            t_ms,
            clock_s,
            seconds: k,
            state: self
                .transitions
                .iter()
                .take_while(|(t, _)| *t <= clock_s)
                .last()
                .map_or(State::Closed, |x| x.1),
            requests: calls + fallbacks,
            calls,
            timeouts: sum(|s| s.timeouts),
            fallbacks,
        }
    }
}

/// Most requests one run plays.
/// The most requests one run plays: the largest rate for the longest run,
/// window before the fall included (10,000 × (120 + 600)). Every accepted
/// run plays all its requests; nothing is cut.
pub const MAX_REQUESTS: u64 = 10_000 * (120 + 600);

/// Plays the breaker from a window before the fall to `duration` after it.
pub fn simulate(params: &BreakerParams) -> BreakerRun {
    let (p, _) = crate::sim::params::clamp(params);
    let cfg = BreakerConfig {
        window: Secs(p.window_s as f64),
        threshold_pct: p.threshold_pct as f64,
        min_calls: p.min_calls as usize,
        open: Secs(p.open_s as f64),
        probes: p.probes as usize,
    };
    let start = -(p.window_s as i64);
    let rate = p.rps as f64;
    let timeout = p.timeout_ms as f64 / 1000.0;
    let healthy_s = 0.02; // a healthy call takes ≈ 20 ms
    let downtime = p.downtime();
    let down = |t: f64| downtime.at(t);
    let mut b = Breaker::new(cfg);
    let mut seconds: Vec<Second> = (start..p.duration_s as i64)
        .map(|t| Second { t, ..Second::default() })
        .collect();
    let mut transitions: Vec<(f64, State)> = Vec::new();
    // Calls in flight, finishing in time order (all of one kind take equally long, and
    // a failing call always outlasts a healthy one started before it, so a small sort suffices).
    let mut pending: VecDeque<(f64, bool)> = VecDeque::new();
    let (mut waited_before_open, mut fallbacks_first_open) = (0u64, 0u64);
    let mut first_open: Option<(f64, f64)> = None;
    let mut last_state = State::Closed;
    let total = ((p.duration_s as i64 - start) as f64 * rate) as u64;
    let note = |t: f64,
                b: &mut Breaker,
                transitions: &mut Vec<(f64, State)>,
                last: &mut State,
                first: &mut Option<(f64, f64)>| {
        let s = b.state(Secs(t));
        if s != *last {
            transitions.push((t, s));
            if s == State::Open && first.is_none() {
                *first = Some((t, t + cfg.open.0));
            }
            *last = s;
        }
    };
    let at = |k: u64| start as f64 + k as f64 / rate;
    let mut k = 0u64;
    while k < total {
        let t = at(k);
        k += 1;
        while pending.front().is_some_and(|(end, _)| *end <= t) {
            let (end, ok) = pending.pop_front().expect("a front");
            b.record(Secs(end), ok);
            note(end, &mut b, &mut transitions, &mut last_state, &mut first_open);
        }
        note(t, &mut b, &mut transitions, &mut last_state, &mut first_open);
        let last_second = seconds.len() - 1;
        if let Some(Secs(until)) = b.open_until() {
            // Open: every request until `until` gets the fallback, and the calls
            // still out change nothing (an open breaker ignores them). Played
            // in one tight loop, with the same times as one by one.
            let mut t = t;
            loop {
                let sec = &mut seconds[((t.floor() as i64 - start) as usize).min(last_second)];
                sec.state.get_or_insert(State::Open);
                sec.fallbacks += 1;
                if first_open.is_some_and(|(a, z)| t >= a && t < z) {
                    fallbacks_first_open += 1;
                }
                if k >= total || at(k) >= until {
                    break;
                }
                t = at(k);
                k += 1;
            }
            while pending.front().is_some_and(|(end, _)| *end <= t) {
                pending.pop_front();
            }
            continue;
        }
        let sec = &mut seconds[((t.floor() as i64 - start) as usize).min(last_second)];
        sec.state.get_or_insert(last_state);
        if b.allow(Secs(t)) {
            sec.calls += 1;
            let fails = down(t);
            if fails {
                sec.timeouts += 1;
                if first_open.is_none() {
                    waited_before_open += 1;
                }
            }
            let end = t + if fails { timeout } else { healthy_s };
            let at = pending.iter().rposition(|(e, _)| *e <= end).map_or(0, |i| i + 1);
            pending.insert(at, (end, !fails));
        } else {
            sec.fallbacks += 1;
            if first_open.is_some_and(|(a, z)| t >= a && t < z) {
                fallbacks_first_open += 1;
            }
        }
    }
    BreakerRun {
        seconds,
        transitions,
        waited_before_open,
        fallbacks_first_open,
    }
}

/// `5.07` → `"12:00:05.07"`, `35.0` → `"12:00:35"` (seconds from 12:00:00,
/// to the hundredth, as the command line says them: 35.08 and 35.23 s are
/// two moments, not one).
pub fn clock(t: f64) -> String {
    let cs = ((12 * 3600) as f64 + t).max(0.0) * 100.0;
    let cs = cs.round() as i64;
    let s = cs / 100;
    let hms = format!("{:02}:{:02}:{:02}", s / 3600, (s / 60) % 60, s % 60);
    match cs % 100 {
        0 => hms,
        h if h % 10 == 0 => format!("{hms}.{}", h / 10),
        h => format!("{hms}.{h:02}"),
    }
}

/// The run's three figures as `(label, value)`, the same in the page and on
/// the command line. Each label says what its count covers: a breaker that
/// never opens, or a first open stretch that lasts past the end of the run.
pub fn figures(p: &BreakerParams, r: &BreakerRun) -> [(String, String); 3] {
    use crate::fmt::es_int;
    let opened = r.transitions.iter().find(|t| t.1 == State::Open).map(|t| t.0);
    let end = p.duration_s as f64;
    [
        (
            "se abre".to_string(),
            opened.map_or("no se abre en lo simulado".to_string(), clock),
        ),
        (
            match opened {
                Some(_) => "esperaron su timeout antes de que se abriera".to_string(),
                None => format!("esperaron su timeout (hasta las {}, sin abrirse)", clock(end)),
            },
            es_int(r.waited_before_open as i64),
        ),
        (
            match opened {
                Some(t) if t + p.open_s as f64 > end => format!(
                    "plan B en su primer tramo abierto (sigue abierto al final, a las {})",
                    clock(end)
                ),
                Some(_) => "plan B mientras estuvo abierto la primera vez".to_string(),
                None => "plan B (nunca se abre)".to_string(),
            },
            es_int(r.fallbacks_first_open as i64),
        ),
    ]
}

impl crate::sim::figures::TaskFigures for BreakerParams {
    const RESULTS: &'static [crate::sim::figures::Figure] = &[crate::fig!("opens-at", "la hora en que se abre", Clock)];
    fn figure(&self, key: &str) -> Option<f64> {
        match key {
            "opens-at" => simulate(self)
                .transitions
                .iter()
                .find(|(_, s)| *s == crate::sim::policy::breaker::State::Open)
                .map(|(t, _)| *t),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_clock_says_the_hundredth() {
        assert_eq!(clock(0.0), "12:00:00");
        assert_eq!(clock(5.08), "12:00:05.08");
        assert_eq!(clock(35.2), "12:00:35.2");
        assert_eq!(clock(65.239), "12:01:05.24");
        assert_eq!(clock(59.999), "12:01:00");
        // The lesson's run: it opens, then opens again, at two moments the page tells apart.
        let r = simulate(&BreakerParams::default());
        let said: Vec<String> = r
            .transitions
            .iter()
            .take(3)
            .map(|(t, s)| format!("{}: {}", clock(*t), s.label()))
            .collect();
        assert_eq!(
            said,
            [
                "12:00:05.08: abierto",
                "12:00:35.08: semiabierto",
                "12:00:35.23: abierto"
            ]
        );
    }

    #[test]
    fn exercise_7() {
        let r = simulate(&BreakerParams::default());
        let (opened, state) = r.transitions[0];
        assert_eq!(state, State::Open);
        // (a) «≈ 5 s después, a las 12:00:05»
        assert!((opened - 5.0).abs() < 0.2, "opened at {opened}");
        // (b) «500 × 5 = ≈ 2,500 requests, cada una con su 504 a los ≈ 150 ms»
        assert!(
            (r.waited_before_open as f64 - 2_500.0).abs() < 100.0,
            "{}",
            r.waited_before_open
        );
        // (c) «500 × 30 = 15,000, cada una con su plan B»
        assert!(
            (r.fallbacks_first_open as f64 - 15_000.0).abs() < 10.0,
            "{}",
            r.fallbacks_first_open
        );
        // (d) «A las 12:00:35 pasa a semiabierto … Fallan, y se abre otros 30 s.»
        assert_eq!(r.transitions[1].1, State::HalfOpen);
        assert!((r.transitions[1].0 - 35.0).abs() < 0.3, "{:?}", r.transitions);
        assert_eq!(r.transitions[2].1, State::Open);
    }

    #[test]
    fn it_closes_when_the_dependency_is_back() {
        let r = simulate(&BreakerParams {
            recover_s: Some(20),
            ..BreakerParams::default()
        });
        assert_eq!(
            r.transitions.iter().map(|t| t.1).collect::<Vec<_>>(),
            [State::Open, State::HalfOpen, State::Closed]
        );
    }
}
