//! The thundering herd: many clients fail at once and retry with backoff.
//!
//! Why: backoff alone does not separate clients that failed together. If a
//! thousand clients fail at t = 0 and all wait 200 ms, they come back in the
//! same 10 ms window, the server takes its 50 and the other 950 fail again,
//! together. Jitter spreads the same retries over time, so the server sees
//! a drizzle instead of a wave.
//!
//! This is the lesson's Python program (`simular`) in Rust, generalised to a
//! chosen window length, seed, cap and jitter, and exact to it: same RNG
//! (CPython's MT19937), same order of draws, same float arithmetic, same
//! event order (time, then client, then attempt number). For any parameters
//! it gives what the Python program gives.
//!
//! In two parts. [`reference`] is the lesson's algorithm as it is written —
//! one heap, one attempt at a time — short, to be read first, and the tests'
//! oracle. `fast` is the engine the lab runs: the same figures, a window at
//! a time, over 100 times faster than CPython (docs/PERFORMANCE.md); its
//! invariants are at its top, and its speed goal is met: it is not to be
//! tuned further.
//!
//! ```
//! use sensei_lab::sim::herd::{simulate, HerdParams};
//! use sensei_lab::sim::policy::backoff::Jitter;
//! let r = simulate(&HerdParams::default()); // full jitter, the lesson's "con jitter"
//! assert_eq!((r.served, r.gave_up, r.peak, r.attempts), (1000, 0, 61, 1061));
//! ```

use super::params::Maybe;
use crate::sim::policy::backoff::Jitter;
use serde::{Deserialize, Serialize};

mod fast;
pub mod reference;
pub mod trace;

pub use fast::{simulate, simulate_reusing, HerdScratch};

crate::params! {
    /// Parameters of the herd simulation. Defaults are the lesson's values.
    /// The work is at most clients × retries attempts (one million).
    #[derive(Eq)]
    pub struct HerdParams {
        /// Clients that fail together at t = 0
        clients: u32 = 1000 => int("Clientes", "", 1, 100_000),
        /// Requests the server serves in each window; it rejects the rest
        capacity: u32 = 50 => int("Capacidad por ventana", "", 1, 100_000),
        /// Length of the server's window in ms
        window_ms: u32 = 10 => int("Ventana", "ms", 1, 1_000),
        /// Backoff base in ms: the wait before retry n is at most base × 2^n
        base_ms: u32 = 100 => int("Base del backoff", "ms", 1, 10_000),
        /// Optional cap on any wait, in ms; none = no cap
        cap_ms: Maybe = None => optional("Tope de la espera", "ms", "sin tope", "con tope", 1, 600_000),
        /// Retries per client; a client gives up when its last one is rejected
        retries: u32 = 3 => int("Reintentos por cliente", "", 1, MAX_RETRIES as i64),
        /// Jitter applied to each wait; the widget compares it with none
        jitter: Jitter = Jitter::Full => choice("Jitter", crate::sim::policy::backoff::JITTER_OPTIONS),
        /// Seed of Python's random.Random
        seed: u32 = 7 => int("Semilla", "", 0, u32::MAX as i64),
        /// The moment shown, in ms from the failure; none = the run's end (the player's time)
        t_ms: Maybe = None => optional("Momento", "ms", "el final", "un momento", 0, crate::sim::playback::MAX_T_MS),
    }
}

/// What the command line says of it (`sensei-lab herd --help`).
#[cfg(not(target_arch = "wasm32"))]
impl crate::sim::scenario::Scenario for HerdParams {
    const ABOUT: &'static str = "The thundering herd: clients fail together and retry with backoff (and jitter).";
    const BUDGET: &'static str =
        "at most clients × retries = 100,000 × 10 = 1,000,000 attempts; every accepted run plays to the end.";

    fn report(p: &Self, ctx: &mut impl crate::sim::scenario::Session) -> crate::sim::scenario::Run {
        use crate::sim::scenario::Run;
        use serde_json::json;
        // One scratch for every run, as the widget re-runs.
        let mut scratch = HerdScratch::default();
        let r = ctx.time(|| simulate_reusing(p, &mut scratch));
        let line = r.lesson_line(p.jitter);
        let mut out = json!({ "served": r.served, "gave_up": r.gave_up, "peak": r.peak, "attempts": r.attempts,
            "window_ms": r.window_ms, "windows": r.windows, "line": line });
        let mut lines = vec![line];
        let mut notes = Vec::new();
        // A moment: the run so far, from its trace (the reference algorithm, attempt by attempt).
        if p.t_ms.is_some() {
            use crate::sim::playback::{moment_within, say, Playback};
            let tr = trace::HerdTrace::record(p);
            let t = moment_within(p.t_ms, tr.end_ms(), say, &mut notes).unwrap_or_default();
            let m = tr.at(t);
            lines.push(m.line(p.window_ms));
            out["at"] = json!({ "t_ms": m.t_ms, "served": m.served, "gave_up": m.gave_up, "waiting": m.waiting,
                "peak": m.peak, "attempts": m.attempts });
        }
        Run {
            notes,
            ..Run::plain(out, lines)
        }
    }
}

/// The most retries a client may make (the bound of [`HerdParams::retries`]).
const MAX_RETRIES: usize = 10;

/// What one run of the simulation produced.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HerdResult {
    /// Clients whose attempt the server accepted.
    pub served: u32,
    /// Clients whose last retry was rejected too.
    pub gave_up: u32,
    /// Most attempts that arrived in one window.
    pub peak: u32,
    /// Attempts that arrived in all (every retry of every client).
    pub attempts: u64,
    /// Window length the counts refer to.
    pub window_ms: u32,
    /// Attempts per window, as `(window index, count)`, in time order; only
    /// windows where something arrived. Window `i` spans
    /// `[i × window_ms, (i + 1) × window_ms)`.
    pub windows: Vec<(u64, u32)>,
}

impl HerdResult {
    /// The line the lesson's program prints for this run, e.g.
    /// `sin jitter: 150 atendidos, 850 se rinden, pico de 1000 en 10 ms, 2850 intentos`.
    pub fn lesson_line(&self, jitter: Jitter) -> String {
        let label = match jitter {
            Jitter::None => "sin jitter",
            Jitter::Full => "con jitter",
            Jitter::Equal => "con equal jitter",
            Jitter::Decorrelated => "con decorrelated jitter",
        };
        format!(
            "{label}: {} atendidos, {} se rinden, pico de {} en {} ms, {} intentos",
            self.served, self.gave_up, self.peak, self.window_ms, self.attempts
        )
    }
}

/// The lesson's program: both runs at the lesson's values, as it prints them.
pub fn lesson_program_output() -> [String; 2] {
    [Jitter::None, Jitter::Full].map(|jitter| {
        let p = HerdParams {
            jitter,
            ..HerdParams::default()
        };
        simulate(&p).lesson_line(jitter)
    })
}

impl crate::sim::figures::TaskFigures for HerdParams {
    const RESULTS: &'static [crate::sim::figures::Figure] = &[
        crate::fig!("gave-up", "los clientes que se rinden", Count),
        crate::fig!("served", "los clientes atendidos", Count),
        crate::fig!("attempts", "los intentos", Count),
        crate::fig!("peak", "el pico por ventana", Count),
    ];
    fn figure(&self, key: &str) -> Option<f64> {
        let r = simulate(self);
        match key {
            "gave-up" => Some(r.gave_up as f64),
            "served" => Some(r.served as f64),
            "attempts" => Some(r.attempts as f64),
            "peak" => Some(r.peak as f64),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The lesson's program at 10 and 100 times its clients, as CPython runs it
    /// (`python3 scripts/herd-vs-python.py --python-only`), and as the reference.
    #[test]
    fn ten_and_a_hundred_times_the_clients_as_python() {
        for (clients, jitter, figures) in [
            (10_000, Jitter::None, (150, 9_850, 10_000, 29_850)),
            (10_000, Jitter::Full, (5_939, 4_061, 781, 26_826)),
            (100_000, Jitter::None, (150, 99_850, 100_000, 299_850)),
            (100_000, Jitter::Full, (6_723, 93_277, 7_725, 296_887)),
        ] {
            let p = HerdParams {
                clients,
                jitter,
                ..HerdParams::default()
            };
            let r = simulate(&p);
            assert_eq!((r.served, r.gave_up, r.peak, r.attempts), figures, "{p:?}");
            assert_eq!(r, reference::simulate(&p), "{p:?}");
        }
    }

    #[test]
    fn lesson_figures_to_the_character() {
        let [a, b] = lesson_program_output();
        assert_eq!(
            a,
            "sin jitter: 150 atendidos, 850 se rinden, pico de 1000 en 10 ms, 2850 intentos"
        );
        assert_eq!(
            b,
            "con jitter: 1000 atendidos, 0 se rinden, pico de 61 en 10 ms, 1061 intentos"
        );
        // The reference, read first, says the same.
        for (jitter, line) in [(Jitter::None, a), (Jitter::Full, b)] {
            let p = HerdParams {
                jitter,
                ..HerdParams::default()
            };
            assert_eq!(reference::simulate(&p).lesson_line(jitter), line);
        }
    }
}
