//! C01's chain of deadlines, and zombie work.
//!
//! Why: a timeout on every call is not enough; they have to fit. If the
//! caller waits 300 ms and the gateway gives Triton 5 s, when Triton stalls
//! the gateway keeps waiting long after the caller left. The cure is a
//! deadline: the moment the whole request stops mattering. Each hop waits at
//! most `min(its own cap, what is left of the deadline)`, so every layer
//! gives up before the one above it. C01's chain is 300 → 250 → 150 → 100 ms:
//! the caller, the gateway's deadline, the call to Triton, Triton's queue.
//!
//! Work done after everyone upstream gave up is zombie work: the GPU computes
//! an answer nobody will read. Cancelling downwards when a hop gives up
//! removes it.
//!
//! ```
//! use sensei_lab::sim::chain::{run, ChainParams};
//! // Exercise 5 (b): 160 ms receiving and preparing the photo.
//! let r = run(&ChainParams { prep_ms: 160, ..ChainParams::default() });
//! assert_eq!(r.call_timeout_ms, 90);
//! ```

use crate::sim::params::Maybe;
use crate::sim::params::{Toggle, ON_OFF};
use serde::{Deserialize, Serialize};

crate::params! {
    /// One request through C01's chain. Defaults are the lesson's numbers, with
    /// a healthy Triton (20 ms in the queue, 60 ms computing).
    #[derive(Eq)]
    pub struct ChainParams {
        /// Time spent receiving and preparing the photo, in ms (exercise 5: 70 and 160)
        prep_ms: u32 = 70 => int("Recibir y preparar la foto", "ms", 0, 60_000),
        /// How long the request actually waits in Triton's queue, in ms
        queue_ms: u32 = 20 => int("Espera real en la fila de Triton", "ms", 0, 60_000),
        /// How long Triton computes, in ms
        compute_ms: u32 = 60 => int("Cómputo de Triton", "ms", 0, 60_000),
        /// When the caller (the marketplace backend) gives up, in ms
        caller_ms: u32 = 300 => int("El caller se rinde a los", "ms", 1, 60_000),
        /// The gateway's deadline, in ms
        deadline_ms: u32 = 250 => int("Deadline del gateway", "ms", 1, 60_000),
        /// The gateway's own cap on the call to Triton, in ms
        triton_cap_ms: u32 = 150 => int("Tope de la llamada a Triton", "ms", 1, 60_000),
        /// Triton rejects what waited longer than this in its queue, in ms
        queue_cap_ms: u32 = 100 => int("La fila rechaza después de", "ms", 1, 60_000),
        /// Each hop waits min(own cap, what is left of the deadline); off = only its own cap
        deadline: Toggle = Toggle::On => choice("Cada salto usa lo que queda del deadline", ON_OFF),
        /// A hop that gives up cancels the work below it
        cancel: Toggle = Toggle::On => choice("Cancelar hacia abajo", ON_OFF),
        /// The moment shown, in ms from the request's start; none = its end (the player's time)
        t_ms: Maybe = None => optional("Momento", "ms", "el final", "un momento", 0, crate::sim::playback::MAX_T_MS),
    }
}

/// What the command line says of it (`sensei-lab chain --help`).
#[cfg(not(target_arch = "wasm32"))]
impl crate::sim::scenario::Scenario for ChainParams {
    const ABOUT: &'static str = "C01's chain of deadlines (300 → 250 → 150 → 100 ms) and the zombie work.";
    const BUDGET: &'static str = "none needed (one request, closed form).";

    fn report(p: &Self, ctx: &mut impl crate::sim::scenario::Session) -> crate::sim::scenario::Run {
        use crate::sim::scenario::Run;
        use serde_json::json;
        let r = ctx.time(|| run(p));
        // The widget's words: its verdict, then its figures, then the mistake if made.
        let said = said(p, &r);
        let mut lines = vec![said.verdict.to_string()];
        lines.extend(said.rows.iter().map(|(label, _, value)| format!("{label}: {value}")));
        lines.extend(said.warning.map(String::from));
        let mut result = json!(r);
        result["zombie_compute_ms"] = json!(r.zombie_compute_ms());
        result["zombie_ms"] = json!(said.zombie_ms);
        // A moment: each hop then, the deadline left, the zombie work so far.
        let mut notes = Vec::new();
        use crate::sim::playback::{moment_within, say, Playback};
        if let Some(t) = moment_within(p.t_ms, r.span(p).end_ms(), say, &mut notes) {
            let m = r.at(p, t);
            lines.push(m.line());
            result["at"] = json!(m);
        }
        Run {
            notes,
            ..Run::plain(result, lines)
        }
    }
}

/// Who gave up first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FirstToGiveUp {
    /// Nobody: the answer arrived in time.
    Nobody,
    /// Triton's queue rejected the request (REJECT).
    Queue,
    /// The gateway's call to Triton timed out.
    Gateway,
    /// The caller left before the gateway answered.
    Caller,
}

/// What the caller ends up with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CallerGets {
    /// The suggested category.
    Answer,
    /// A 504 from the gateway in time, so it shows the category selector.
    GatewayTimeout,
    /// A 503 (Triton's queue said no) in time: the selector too.
    Overloaded,
    /// Nothing in time: it gave up and shows the selector.
    OwnTimeout,
}

/// The chain played out.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ChainResult {
    /// What is left of the gateway's deadline when it calls Triton
    /// (negative: the deadline passed while the photo was being prepared).
    pub left_ms: i64,
    /// Whether the gateway calls Triton at all: with the deadline on and
    /// nothing left of it, it answers at once instead (a 504, no call).
    pub called: bool,
    /// The timeout of the call to Triton.
    pub call_timeout_ms: u32,
    /// When the gateway stops waiting for Triton (from the request's start).
    pub gateway_gives_up_ms: u64,
    /// When Triton's queue would reject the request, if it waits that long.
    pub queue_rejects_ms: Option<u64>,
    /// When Triton would finish computing, if its queue lets it through.
    pub triton_done_ms: Option<u64>,
    /// When the caller has its outcome.
    pub caller_done_ms: u64,
    pub first: FirstToGiveUp,
    pub caller_gets: CallerGets,
    /// From when on nobody upstream reads the answer (if that happens).
    pub abandoned_ms: Option<u64>,
    /// Triton's work after that moment: `(start, end)` spans in the queue and computing.
    pub zombie_queue: Option<(u64, u64)>,
    pub zombie_compute: Option<(u64, u64)>,
    /// A hop waits longer than the one above it: the first common mistake.
    pub misconfigured: bool,
}

impl ChainResult {
    /// GPU time spent on an answer nobody reads, in ms.
    pub fn zombie_compute_ms(&self) -> u64 {
        self.zombie_compute.map_or(0, |(a, b)| b - a)
    }

    /// When the gateway stops waiting: when the caller gets its outcome, or,
    /// if the caller left first, at its own timeout or Triton's answer.
    pub fn gateway_done_ms(&self) -> u64 {
        match self.caller_gets {
            CallerGets::OwnTimeout => self.gateway_gives_up_ms.min(self.triton_done_ms.unwrap_or(u64::MAX)),
            _ => self.caller_done_ms,
        }
    }

    /// Where the timeline ends: the last thing that happens, or the caller's limit.
    pub fn end_ms(&self, p: &ChainParams) -> u64 {
        [
            p.caller_ms as u64,
            self.caller_done_ms,
            self.triton_done_ms.unwrap_or(0),
            self.zombie_compute.map_or(0, |z| z.1),
            self.zombie_queue.map_or(0, |z| z.1),
        ]
        .into_iter()
        .max()
        .unwrap_or(300)
    }

    /// The request as the player steps it: each hop's changes, each limit, the end.
    pub fn span(&self, p: &ChainParams) -> crate::sim::playback::Stops {
        let events = [
            Some(p.prep_ms as u64),
            self.called.then_some(p.prep_ms as u64 + p.queue_ms as u64),
            self.queue_rejects_ms,
            self.triton_done_ms,
            Some(self.gateway_gives_up_ms),
            Some(self.gateway_done_ms()),
            Some(self.caller_done_ms),
            self.abandoned_ms,
            Some(p.deadline_ms as u64),
        ];
        crate::sim::playback::Stops::new(events.into_iter().flatten().map(|t| t as f64), self.end_ms(p) as f64)
    }

    /// The request at `t_ms` from its start.
    pub fn at(&self, p: &ChainParams, t_ms: f64) -> ChainMoment {
        let t = t_ms.max(0.0).round() as u64;
        let prep = p.prep_ms as u64;
        let caller = if t < self.caller_done_ms {
            "espera"
        } else {
            match self.caller_gets {
                CallerGets::Answer => "tiene la categoría sugerida",
                CallerGets::GatewayTimeout => "recibió un 504 y muestra el selector",
                CallerGets::Overloaded => "recibió un 503 y muestra el selector",
                CallerGets::OwnTimeout => "se rindió y muestra el selector",
            }
        };
        let gateway = if t < prep {
            "prepara la foto"
        } else if self.called && t < self.gateway_done_ms() {
            "espera a Triton"
        } else {
            "ya no espera"
        };
        let queue_end = prep + p.queue_ms as u64;
        let in_queue = t >= prep && t < self.queue_rejects_ms.unwrap_or(queue_end);
        let computing = self.triton_done_ms.is_some_and(|d| t >= queue_end && t < d);
        // With cancellation, Triton stops where it is abandoned, if it was still at work.
        let triton_end = self.triton_done_ms.or(self.queue_rejects_ms).unwrap_or(queue_end);
        let cancelled = self
            .abandoned_ms
            .filter(|a| p.cancel.is_on() && *a < triton_end)
            .is_some_and(|a| t >= a);
        let zombie = |a: u64, b: u64| t.min(b).saturating_sub(a);
        let triton = if !self.called {
            "no recibe nada"
        } else if t < prep {
            "aún no recibe la request"
        } else if cancelled {
            "canceló la request"
        } else if in_queue {
            "la tiene en su fila"
        } else if computing {
            "la computa"
        } else if self.queue_rejects_ms.is_some() {
            "la rechazó (REJECT)"
        } else {
            "terminó"
        };
        ChainMoment {
            t_ms: t,
            caller,
            gateway,
            triton,
            deadline_left_ms: p.deadline_ms as i64 - t as i64,
            zombie_ms: self.zombie_queue.map_or(0, |(a, b)| zombie(a, b))
                + self.zombie_compute.map_or(0, |(a, b)| zombie(a, b)),
            for_nobody: self.abandoned_ms.is_some_and(|a| t >= a) && !cancelled && (in_queue || computing),
        }
    }
}

/// The request at a moment: what each hop is doing, the deadline left, and
/// the work done for nobody so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct ChainMoment {
    pub t_ms: u64,
    pub caller: &'static str,
    pub gateway: &'static str,
    pub triton: &'static str,
    /// What is left of the gateway's deadline (negative: passed).
    pub deadline_left_ms: i64,
    /// Triton's work after nobody reads it, so far, in ms.
    pub zombie_ms: u64,
    /// Triton is working right now for nobody.
    pub for_nobody: bool,
}

impl ChainMoment {
    /// The moment in the learner's words.
    pub fn line(&self) -> String {
        format!(
            "a los {}: el caller {}, el gateway {}, Triton {}{}; del deadline {}; trabajo zombi hasta ahí: {} ms",
            crate::sim::playback::say(self.t_ms as f64),
            self.caller,
            self.gateway,
            self.triton,
            if self.for_nobody { " (para nadie)" } else { "" },
            self.deadline_left(),
            crate::fmt::es_int(self.zombie_ms as i64)
        )
    }

    /// What is left of the deadline, in words.
    pub fn deadline_left(&self) -> String {
        let ms = crate::fmt::es_int(self.deadline_left_ms.abs());
        match self.deadline_left_ms {
            0 => "no queda nada".to_string(),
            l if l > 0 => format!("quedan {ms} ms"),
            _ => format!("se pasó por {ms} ms"),
        }
    }
}

/// How a verdict reads: fine, a degraded answer, or a failure.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tone {
    Ok,
    Warn,
    Bad,
}

/// The run in the lesson's words, one text for the widget and the command
/// line alike: the figures (label, key, value), the verdict and its tone, and
/// the first common mistake when the chain makes it.
#[derive(Clone, Debug, PartialEq)]
pub struct Said {
    pub rows: Vec<(&'static str, &'static str, String)>,
    pub verdict: &'static str,
    pub tone: Tone,
    /// Who gives up first, in words.
    pub first: &'static str,
    /// Triton's work nobody reads, in the queue and on the GPU, in ms.
    pub zombie_ms: u64,
    pub warning: Option<&'static str>,
}

/// The first common mistake, as the widget and the command line say it.
pub const MISCONFIGURED: &str =
    "Un salto espera más que el de arriba: es el primer error común. Cada número de la cadena tiene que ser más chico que el de arriba.";

/// [`Said`] of a run.
pub fn said(p: &ChainParams, r: &ChainResult) -> Said {
    let ms = |v: i64| format!("{} ms", crate::fmt::es_int(v));
    let first = match r.first {
        FirstToGiveUp::Nobody => "nadie",
        FirstToGiveUp::Queue => "la fila de Triton (REJECT)",
        FirstToGiveUp::Gateway => "el gateway",
        FirstToGiveUp::Caller => "el caller",
    };
    let (tone, gets, verdict) = match r.caller_gets {
        CallerGets::Answer => (
            Tone::Ok,
            "la categoría sugerida",
            "El caller recibe la categoría sugerida.",
        ),
        CallerGets::GatewayTimeout => (
            Tone::Warn,
            "un 504, y muestra el selector",
            "El caller recibe un 504 a tiempo y muestra el selector de categorías.",
        ),
        CallerGets::Overloaded => (
            Tone::Warn,
            "un 503, y muestra el selector",
            "El caller recibe un 503 a tiempo y muestra el selector de categorías.",
        ),
        CallerGets::OwnTimeout => (
            Tone::Bad,
            "nada a tiempo: se rinde y muestra el selector",
            "El caller no recibe nada a tiempo: se rinde y muestra el selector de categorías.",
        ),
    };
    let queue_ms = r.zombie_queue.map_or(0, |(a, b)| b - a);
    let zombie_ms = r.zombie_compute_ms() + queue_ms;
    let left = if r.left_ms > 0 {
        ms(r.left_ms)
    } else if r.left_ms == 0 {
        "nada".to_string()
    } else {
        format!("nada (se pasó por {})", ms(-r.left_ms))
    };
    let zombie = match (queue_ms, r.zombie_compute_ms()) {
        (0, 0) => "ninguno".to_string(),
        (0, _) | (_, 0) => ms(zombie_ms as i64),
        (q, c) => format!(
            "{} ({} en la fila, {} en la GPU)",
            ms(zombie_ms as i64),
            ms(q as i64),
            ms(c as i64)
        ),
    };
    Said {
        rows: vec![
            ("queda del deadline al llamar a Triton", "left", left),
            (
                "timeout de la llamada a Triton",
                "call_timeout",
                call_timeout_text(p, r),
            ),
            ("se rinde primero", "first", first.to_string()),
            (
                "el caller recibe",
                "caller_gets",
                format!("{gets} (a los {})", ms(r.caller_done_ms as i64)),
            ),
            ("trabajo zombi de Triton", "zombie", zombie),
        ],
        verdict,
        tone,
        first,
        zombie_ms,
        warning: r.misconfigured.then_some(MISCONFIGURED),
    }
}

/// Plays one request through the chain.
pub fn run(params: &ChainParams) -> ChainResult {
    let (p, _) = crate::sim::params::clamp(params);
    let prep = p.prep_ms as u64;
    let left_ms = p.deadline_ms as i64 - p.prep_ms as i64;
    // With the deadline spent, a call would have no time at all: the gateway
    // makes none and answers its 504 as soon as it sees it.
    let called = !p.deadline.is_on() || left_ms > 0;
    let call_timeout_ms = if !called {
        0
    } else if p.deadline.is_on() {
        (p.triton_cap_ms as i64).min(left_ms) as u32
    } else {
        p.triton_cap_ms
    };
    let gateway_gives_up_ms = prep + call_timeout_ms as u64;
    let queue_end = prep + p.queue_ms as u64;
    let queue_rejects_ms = (called && p.queue_ms > p.queue_cap_ms).then(|| prep + p.queue_cap_ms as u64);
    let triton_done_ms = (called && queue_rejects_ms.is_none()).then(|| queue_end + p.compute_ms as u64);
    let caller = p.caller_ms as u64;

    // What the gateway sees first: Triton's answer, the queue's refusal, or its own timeout.
    let (gateway_done, gateway_outcome) = match (triton_done_ms, queue_rejects_ms) {
        (Some(done), _) if done <= gateway_gives_up_ms => (done, CallerGets::Answer),
        (_, Some(rej)) if rej < gateway_gives_up_ms => (rej, CallerGets::Overloaded),
        _ => (gateway_gives_up_ms, CallerGets::GatewayTimeout),
    };
    let (caller_gets, caller_done_ms, first) = if gateway_done <= caller {
        let first = match gateway_outcome {
            CallerGets::Answer => FirstToGiveUp::Nobody,
            CallerGets::Overloaded => FirstToGiveUp::Queue,
            _ => FirstToGiveUp::Gateway,
        };
        (gateway_outcome, gateway_done, first)
    } else {
        (CallerGets::OwnTimeout, caller, FirstToGiveUp::Caller)
    };

    // Nobody reads Triton's work once the gateway stopped waiting or the caller left.
    let abandoned_ms = match gateway_outcome {
        CallerGets::Answer if gateway_done <= caller => None,
        CallerGets::Overloaded if gateway_done <= caller => None,
        _ => Some(gateway_gives_up_ms.min(caller)),
    };
    let triton_end = if called {
        triton_done_ms.or(queue_rejects_ms).unwrap_or(queue_end)
    } else {
        0 // Triton never sees the request
    };
    let overlap = |a: u64, b: u64, from: u64| (b > from.max(a)).then(|| (from.max(a), b));
    let (mut zombie_queue, mut zombie_compute) = (None, None);
    if let Some(from) = abandoned_ms {
        if !p.cancel.is_on() && triton_end > from {
            let q_end = queue_rejects_ms.unwrap_or(queue_end);
            zombie_queue = overlap(prep, q_end, from);
            if let Some(done) = triton_done_ms {
                zombie_compute = overlap(queue_end, done, from);
            }
        }
    }
    // The chain as configured: each hop gives up before the one above it.
    // (A call not made waits for nothing.)
    let misconfigured = (called && prep + call_timeout_ms as u64 > (p.deadline_ms as u64).min(caller))
        || p.deadline_ms >= p.caller_ms
        || p.queue_cap_ms >= p.triton_cap_ms;
    ChainResult {
        left_ms,
        called,
        call_timeout_ms,
        gateway_gives_up_ms,
        queue_rejects_ms,
        triton_done_ms,
        caller_done_ms,
        first,
        caller_gets,
        abandoned_ms,
        zombie_queue,
        zombie_compute,
        misconfigured,
    }
}

/// The timeout of the call to Triton, worked out in the learner's words
/// (the page and the command line say the same).
pub fn call_timeout_text(p: &ChainParams, r: &ChainResult) -> String {
    use crate::fmt::es_int;
    if !r.called {
        format!(
            "ninguna llamada: recibir y preparar la foto tomó {} ms, {} del deadline de {} ms, así que el gateway contesta un 504 sin llamar a Triton",
            es_int(p.prep_ms as i64),
            if r.left_ms == 0 { "justo lo que quedaba".to_string() } else { format!("{} ms más", es_int(-r.left_ms)) },
            es_int(p.deadline_ms as i64)
        )
    } else if p.deadline.is_on() {
        format!(
            "min({}, {}) = {} ms",
            es_int(p.triton_cap_ms as i64),
            es_int(r.left_ms),
            es_int(r.call_timeout_ms as i64)
        )
    } else {
        format!("su propio tope, {} ms (sin deadline)", es_int(r.call_timeout_ms as i64))
    }
}

impl crate::sim::figures::TaskFigures for ChainParams {
    const RESULTS: &'static [crate::sim::figures::Figure] = &[
        crate::fig!("zombie-ms", "el trabajo zombi", Ms),
        crate::fig!("caller-done-ms", "cuándo tiene el caller su respuesta", Ms),
    ];
    fn figure(&self, key: &str) -> Option<f64> {
        let r = run(self);
        match key {
            "zombie-ms" => Some(r.at(self, r.end_ms(self) as f64).zombie_ms as f64),
            "caller-done-ms" => Some(r.caller_done_ms as f64),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exercise_5() {
        // (a) 70 ms: 250 − 70 = 180 left, min(150, 180) = 150.
        let a = run(&ChainParams {
            prep_ms: 70,
            ..ChainParams::default()
        });
        assert_eq!((a.left_ms, a.call_timeout_ms), (180, 150));
        // (b) 160 ms: 90 left, min(150, 90) = 90; with Triton stuck in its queue,
        // the gateway gives up at 90 ms, before the queue's 100.
        let b = run(&ChainParams {
            prep_ms: 160,
            queue_ms: 5_000,
            cancel: Toggle::Off,
            ..ChainParams::default()
        });
        assert_eq!((b.left_ms, b.call_timeout_ms), (90, 90));
        assert_eq!(b.first, FirstToGiveUp::Gateway);
        assert_eq!(b.gateway_gives_up_ms, 250);
        assert_eq!(b.queue_rejects_ms, Some(260));
        assert_eq!(b.caller_gets, CallerGets::GatewayTimeout);
        // Still in the queue after the gateway left: zombie work, which cancelling removes.
        assert_eq!(b.zombie_queue, Some((250, 260)));
        let cancelled = run(&ChainParams {
            cancel: Toggle::On,
            ..ChainParams {
                prep_ms: 160,
                queue_ms: 5_000,
                ..ChainParams::default()
            }
        });
        assert_eq!(cancelled.zombie_queue, None);
    }

    #[test]
    fn a_spent_deadline_makes_no_call() {
        // Issue 22: 260 ms preparing the photo, past the gateway's 250 ms
        // deadline. The chain 300 → 250 → 150 → 100 is right; the gateway
        // calls nobody and answers its 504 at once.
        let r = run(&ChainParams {
            prep_ms: 260,
            ..ChainParams::default()
        });
        assert_eq!(r.left_ms, -10);
        assert!(!r.called);
        assert_eq!(r.call_timeout_ms, 0);
        assert!(!r.misconfigured);
        assert_eq!(
            (r.first, r.caller_gets, r.caller_done_ms),
            (FirstToGiveUp::Gateway, CallerGets::GatewayTimeout, 260)
        );
        assert_eq!(
            (r.queue_rejects_ms, r.triton_done_ms, r.zombie_queue, r.zombie_compute),
            (None, None, None, None)
        );
        // Exactly spent (250 ms) is spent too.
        assert!(
            !run(&ChainParams {
                prep_ms: 250,
                ..ChainParams::default()
            })
            .called
        );
        assert!(
            run(&ChainParams {
                prep_ms: 249,
                ..ChainParams::default()
            })
            .called
        );
    }

    #[test]
    fn a_healthy_chain_answers() {
        let r = run(&ChainParams::default());
        assert_eq!(r.caller_gets, CallerGets::Answer);
        assert_eq!(r.first, FirstToGiveUp::Nobody);
        assert!(!r.misconfigured);
    }

    #[test]
    fn the_misconfigured_chain() {
        // The gateway gives Triton 5 s while the caller leaves at 300 ms, and Triton stalls.
        let p = ChainParams {
            triton_cap_ms: 5_000,
            deadline: Toggle::Off,
            cancel: Toggle::Off,
            compute_ms: 2_000,
            ..ChainParams::default()
        };
        let r = run(&p);
        assert!(r.misconfigured);
        assert_eq!(r.first, FirstToGiveUp::Caller);
        assert_eq!(r.caller_gets, CallerGets::OwnTimeout);
        assert_eq!(r.abandoned_ms, Some(300));
        // Triton computes from 90 to 2,090 ms; everything after 300 is for nobody.
        assert_eq!(r.zombie_compute, Some((300, 2_090)));
        assert_eq!(r.zombie_compute_ms(), 1_790);
        // With the deadline, the same stall ends at the gateway's 150 ms cap, in time.
        let fixed = run(&ChainParams {
            deadline: Toggle::On,
            triton_cap_ms: 150,
            ..p
        });
        assert_eq!(fixed.caller_gets, CallerGets::GatewayTimeout);
        assert!(!fixed.misconfigured);
    }

    #[test]
    fn the_queue_can_say_no_first() {
        let r = run(&ChainParams {
            queue_ms: 120,
            ..ChainParams::default()
        });
        assert_eq!(r.first, FirstToGiveUp::Queue);
        assert_eq!(r.caller_gets, CallerGets::Overloaded);
        assert_eq!(r.caller_done_ms, 170);
    }

    /// One text for both: the widget's figures and the command line's lines
    /// come from `said`. At the lesson's values: the answer arrives, nobody
    /// gives up, no zombie work; with 160 ms of preparation and a 100 ms
    /// deadline (exercise 5's (b) pushed past it), the gateway answers a 504
    /// without calling; without cancelling, the zombie work is counted in the
    /// queue and on the GPU.
    #[test]
    fn said_in_the_lesson_words() {
        let p = ChainParams::default();
        let s = said(&p, &run(&p));
        assert_eq!((s.tone, s.first, s.zombie_ms, s.warning), (Tone::Ok, "nadie", 0, None));
        assert_eq!(s.rows[1].2, "min(150, 180) = 150 ms");
        assert_eq!(s.rows[4].2, "ninguno");
        let late = ChainParams {
            prep_ms: 160,
            deadline_ms: 100,
            ..ChainParams::default()
        };
        let s = said(&late, &run(&late));
        assert_eq!((s.tone, s.first), (Tone::Warn, "el gateway"));
        assert_eq!(s.rows[0].2, "nada (se pasó por 60 ms)");
        assert_eq!(s.rows[3].2, "un 504, y muestra el selector (a los 160 ms)");
        for p in [ChainParams::default(), late] {
            let r = run(&p);
            let s = said(&p, &r);
            let queue = r.zombie_queue.map_or(0, |(a, b)| b - a);
            assert_eq!(s.zombie_ms, queue + r.zombie_compute_ms());
            assert_eq!(s.warning.is_some(), r.misconfigured);
        }
    }
}
