//! Three clocks in one call: connect, read and total timeouts.
//!
//! Why: a call over the network goes through stages, and each can stall in
//! its own way. The connect timeout bounds the wait for the other machine to
//! accept; the read timeout, in most libraries, bounds the *silence between
//! pieces* of the answer, not the whole; only the total timeout bounds the
//! call from start to end. A server that sends one byte every 9 s never trips
//! a 10 s read timeout.
//!
//! ```
//! use sensei_lab::sim::clocks::{run, ClocksParams, Outcome};
//! // The lesson's case: a byte every 9 s, forever, a read timeout of 10 s.
//! let p = ClocksParams { total_timeout_ms: None, ..ClocksParams::default() };
//! assert_eq!(run(&p).outcome, Outcome::NeverEnds);
//! let p = ClocksParams { total_timeout_ms: Some(30_000), ..ClocksParams::default() };
//! assert_eq!(run(&p).outcome, Outcome::TotalTimeout { at_ms: 30_000 });
//! ```

use crate::sim::params::Maybe;
use serde::{Deserialize, Serialize};

crate::params! {
    /// One call: what the server does and which clocks the caller set.
    /// Bounds in [`Params::specs`](crate::sim::params::Params::specs); `None` is "sin límite" (a clock not
    /// set, or a server that never accepts / never finishes).
    #[derive(Eq)]
    pub struct ClocksParams {
        /// Time until the server accepts the connection, in ms; none = never
        connect_ms: Maybe = Some(1) => optional("El servidor acepta la conexión a los", "ms", "nunca acepta", "acepta", 0, 600_000),
        /// Silence before each piece of the answer, in ms
        gap_ms: u32 = 9_000 => int("Silencio antes de cada pedazo", "ms", 0, 600_000),
        /// Pieces the answer comes in; none = it never ends (one byte at a time)
        chunks: Maybe = None => optional("Pedazos de la respuesta", "", "no termina nunca", "termina", 1, 10_000),
        /// Connect timeout in ms; none = not set
        connect_timeout_ms: Maybe = Some(100) => optional("Timeout de conexión", "ms", "sin timeout", "activar", 1, 600_000),
        /// Read timeout (longest silence between pieces) in ms; none = not set
        read_timeout_ms: Maybe = Some(10_000) => optional("Timeout de lectura", "ms", "sin timeout", "activar", 1, 600_000),
        /// Total timeout of the whole call in ms; none = not set
        total_timeout_ms: Maybe = Some(30_000) => optional("Timeout total", "ms", "sin timeout", "activar", 1, 3_600_000),
        /// The moment shown, in ms from the call's start; none = its end (the player's time)
        t_ms: Maybe = None => optional("Momento", "ms", "el final", "un momento", 0, crate::sim::playback::MAX_T_MS),
    }
}

/// What the command line says of it (`sensei-lab clocks --help`).
#[cfg(not(target_arch = "wasm32"))]
impl crate::sim::scenario::Scenario for ClocksParams {
    const ABOUT: &'static str = "Three clocks in one call: connect, read (silence between pieces) and total timeouts.";
    const BUDGET: &'static str = "none needed (closed form, no loop over pieces); at most 2,000 pieces are listed for the chart, the count is exact. A call that never ends has no count of pieces (null).";

    fn report(p: &Self, ctx: &mut impl crate::sim::scenario::Session) -> crate::sim::scenario::Run {
        use crate::sim::scenario::Run;
        use serde_json::json;
        let r = ctx.time(|| run(p));
        let sentence = r.outcome.sentence();
        let mut lines = vec![sentence.clone(), received_text(&r)];
        let mut notes = Vec::new();
        // A moment: the call so far (the pieces in, each clock's time left).
        use crate::sim::playback::{moment_within, say, Playback};
        let at = moment_within(p.t_ms, r.span(p).end_ms(), say, &mut notes).map(|t| {
            let m = r.at(p, t);
            lines.push(m.line());
            m
        });
        Run {
            notes,
            ..Run::plain(
                json!({ "outcome": r.outcome, "connected_ms": r.connected_ms, "chunks_received": r.chunks_received,
                    "sentence": sentence, "at": at }),
                lines,
            )
        }
    }
}

/// How the call ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Outcome {
    /// The whole answer arrived.
    Completed {
        at_ms: u64,
    },
    ConnectTimeout {
        at_ms: u64,
    },
    /// The silence after `after_chunks` pieces outlasted the read timeout.
    ReadTimeout {
        at_ms: u64,
        after_chunks: u64,
    },
    TotalTimeout {
        at_ms: u64,
    },
    /// No clock bounds the wait: it has no end.
    NeverEnds,
}

impl Outcome {
    pub fn at_ms(&self) -> Option<u64> {
        match *self {
            Outcome::Completed { at_ms }
            | Outcome::ConnectTimeout { at_ms }
            | Outcome::ReadTimeout { at_ms, .. }
            | Outcome::TotalTimeout { at_ms } => Some(at_ms),
            Outcome::NeverEnds => None,
        }
    }

    /// One Spanish sentence for the learner.
    pub fn sentence(&self) -> String {
        use crate::fmt::es_int;
        let s = |ms: u64| crate::fmt::es_dec(ms as f64 / 1000.0, 3);
        match *self {
            Outcome::Completed { at_ms } => format!(
                "La respuesta llega completa a los {} s ({} ms): ningún reloj se dispara.",
                s(at_ms),
                es_int(at_ms as i64)
            ),
            Outcome::ConnectTimeout { at_ms } => format!(
                "Se dispara el timeout de conexión a los {} ms: la request nunca llegó.",
                es_int(at_ms as i64)
            ),
            Outcome::ReadTimeout { at_ms, after_chunks: 0 } => {
                format!("Se dispara el timeout de lectura a los {} s, antes del primer pedazo: el silencio duró más que el reloj.", s(at_ms))
            }
            Outcome::ReadTimeout { at_ms, after_chunks } => format!(
                "Se dispara el timeout de lectura a los {} s, después de {}: el silencio duró más que el reloj.",
                s(at_ms),
                crate::fmt::es_count(after_chunks as i64, "pedazo", "pedazos")
            ),
            Outcome::TotalTimeout { at_ms } => format!(
                "Se dispara el timeout total a los {} s: es el único que acota la llamada completa.",
                s(at_ms)
            ),
            Outcome::NeverEnds => "Ningún reloj se dispara y la espera no tiene fin.".to_string(),
        }
    }
}

/// What happened, with the moments the chart draws.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ClocksResult {
    pub outcome: Outcome,
    /// When the connection was accepted, if it was before the end.
    pub connected_ms: Option<u64>,
    /// Arrival of each piece before the end (at most [`MAX_MARKS`]).
    pub chunks_ms: Vec<u64>,
    /// Pieces that arrived in all before the end; `None` for a call that
    /// never ends while its pieces keep coming (they have no count).
    pub chunks_received: Option<u64>,
    /// The longest silence the read timeout allows, for the chart.
    pub read_timeout_ms: Option<u64>,
}

/// Most chunk arrivals kept for drawing; the count is always exact.
pub const MAX_MARKS: usize = 2_000;

/// Plays the call out. Closed-form: no loop over chunks, so any value is cheap.
pub fn run(params: &ClocksParams) -> ClocksResult {
    let (p, _) = crate::sim::params::clamp(params);
    let total = p.total_timeout_ms.map(u64::from);
    let read = p.read_timeout_ms.map(u64::from);
    let gap = p.gap_ms as u64;

    // 1. Connecting.
    let connect = p.connect_ms.map(u64::from);
    let connect_limit = match (p.connect_timeout_ms.map(u64::from), total) {
        // The earlier of the two fires (the connect clock on a tie).
        (Some(a), Some(b)) => Some((a.min(b), a <= b)),
        (Some(a), None) => Some((a, true)),
        (None, Some(b)) => Some((b, false)),
        (None, None) => None,
    };
    let connected = match (connect, connect_limit) {
        (Some(c), Some((limit, _))) if c <= limit => c,
        (Some(c), None) => c,
        (_, Some((limit, is_connect))) => {
            let outcome = if is_connect {
                Outcome::ConnectTimeout { at_ms: limit }
            } else {
                Outcome::TotalTimeout { at_ms: limit }
            };
            return ClocksResult {
                outcome,
                connected_ms: None,
                chunks_ms: Vec::new(),
                chunks_received: Some(0),
                read_timeout_ms: read,
            };
        }
        (None, None) => {
            return ClocksResult {
                outcome: Outcome::NeverEnds,
                connected_ms: None,
                chunks_ms: Vec::new(),
                chunks_received: Some(0),
                read_timeout_ms: read,
            };
        }
    };

    // 2. Reading: piece k (1-based) arrives at connected + k × gap.
    let read_fires = read.filter(|r| gap > *r);
    // The read clock fires `r` ms into the first silence, after 0 pieces.
    let read_end = read_fires.map(|r| connected + r);
    let complete = p.chunks.map(|n| connected + n as u64 * gap);
    let mut end: Option<(u64, Outcome)> = None;
    let mut consider = |at: Option<u64>, o: &dyn Fn(u64) -> Outcome| {
        if let Some(at) = at {
            if end.as_ref().is_none_or(|(e, _)| at < *e) {
                end = Some((at, o(at)));
            }
        }
    };
    consider(complete, &|at| Outcome::Completed { at_ms: at });
    consider(read_end, &|at| Outcome::ReadTimeout {
        at_ms: at,
        after_chunks: 0,
    });
    consider(total, &|at| Outcome::TotalTimeout { at_ms: at });
    let (end_ms, outcome) = match end {
        Some(e) => e,
        None => (u64::MAX, Outcome::NeverEnds),
    };
    // Pieces that arrived before the end (a piece arriving at the very moment
    // the call completes counts; one arriving as a clock fires does not).
    let upto = if matches!(outcome, Outcome::Completed { .. }) {
        end_ms - connected
    } else {
        end_ms.saturating_sub(connected).saturating_sub(1)
    };
    // With no silence between pieces, all of them arrive at once.
    let received = match (upto.checked_div(gap), p.chunks) {
        (_, _) if outcome == Outcome::NeverEnds && p.chunks.is_none() && gap > 0 => None,
        (Some(n), chunks) => Some(chunks.map_or(n, |c| n.min(c as u64))),
        (None, Some(c)) => Some(c as u64),
        // An endless answer with no silence between its pieces: it cannot
        // be sent (every piece at the same instant); count none.
        (None, None) => Some(0),
    };
    let shown = received.unwrap_or(u64::MAX).min(MAX_MARKS as u64);
    let chunks_ms = (1..=shown).map(|k| connected + k * gap).collect();
    ClocksResult {
        outcome,
        connected_ms: Some(connected),
        chunks_ms,
        chunks_received: received,
        read_timeout_ms: read,
    }
}

/// The call at a moment: connected or not, the pieces in, and the time left
/// on each clock that is set and running (none once the call is over).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct ClocksMoment {
    pub t_ms: u64,
    pub connected: bool,
    pub pieces: u64,
    pub connect_left_ms: Option<u64>,
    pub read_left_ms: Option<u64>,
    pub total_left_ms: Option<u64>,
    /// The call is over (completed, or a clock fired).
    pub over: bool,
}

impl ClocksMoment {
    /// The moment in the learner's words.
    pub fn line(&self) -> String {
        use crate::sim::playback::say;
        let mut out = format!(
            "a los {}: {}, {}",
            say(self.t_ms as f64),
            if self.connected { "conectada" } else { "conectando" },
            crate::fmt::es_count(self.pieces as i64, "pedazo recibido", "pedazos recibidos")
        );
        if self.over {
            out.push_str("; la llamada terminó");
        }
        for (name, left) in [
            ("de conexión", self.connect_left_ms),
            ("de lectura", self.read_left_ms),
            ("total", self.total_left_ms),
        ] {
            if let Some(l) = left {
                out.push_str(&format!("; al reloj {name} le quedan {}", say(l as f64)));
            }
        }
        out
    }
}

impl ClocksResult {
    /// Where the call's timeline ends: its end, or for an endless wait a
    /// horizon (a few silences, or past every clock set).
    pub fn horizon_ms(&self, p: &ClocksParams) -> f64 {
        self.outcome.at_ms().map_or_else(
            || {
                let clocks = [p.connect_timeout_ms, p.read_timeout_ms, p.total_timeout_ms]
                    .iter()
                    .flatten()
                    .map(|v| *v as f64)
                    .fold(0.0, f64::max);
                (self.connected_ms.unwrap_or(0) as f64 + 4.0 * p.gap_ms as f64)
                    .max(clocks * 1.2)
                    .max(1_000.0)
            },
            |e| e as f64,
        )
    }

    /// The call as the player steps it: the connection, each piece, the end.
    pub fn span(&self, p: &ClocksParams) -> crate::sim::playback::Stops {
        let events = self.connected_ms.iter().chain(&self.chunks_ms).map(|t| *t as f64);
        crate::sim::playback::Stops::new(events, self.horizon_ms(p))
    }

    /// The call at `t_ms` from its start.
    pub fn at(&self, p: &ClocksParams, t_ms: f64) -> ClocksMoment {
        let t = t_ms.max(0.0).round() as u64;
        let over = self.outcome.at_ms().is_some_and(|e| t >= e);
        let connected = self.connected_ms.filter(|c| *c <= t);
        let gap = p.gap_ms as u64;
        // Piece k arrives at connected + k × gap; none past those received in all.
        let pieces = connected.map_or(0, |c| {
            let arrived = (t - c).checked_div(gap).unwrap_or(u64::MAX);
            arrived.min(self.chunks_received.unwrap_or(u64::MAX))
        });
        let running = |left: Option<u64>| left.filter(|_| !over);
        ClocksMoment {
            t_ms: t,
            connected: connected.is_some(),
            pieces,
            connect_left_ms: running(
                p.connect_timeout_ms
                    .filter(|_| connected.is_none())
                    .map(|ct| (ct as u64).saturating_sub(t)),
            ),
            read_left_ms: running(p.read_timeout_ms.zip(connected).map(|(rt, c)| {
                // With no silence between pieces, one is always arriving.
                let last = if gap == 0 { t } else { c + pieces.saturating_mul(gap) };
                (rt as u64).saturating_sub(t.saturating_sub(last))
            })),
            total_left_ms: running(p.total_timeout_ms.map(|tt| (tt as u64).saturating_sub(t))),
            over,
        }
    }
}

/// The pieces received, in the learner's words.
pub fn received_text(r: &ClocksResult) -> String {
    match r.chunks_received {
        Some(n) => format!("Pedazos recibidos antes del final: {}.", crate::fmt::es_int(n as i64)),
        None => "Los pedazos siguen llegando sin fin: no hay un final antes del cual contarlos.".to_string(),
    }
}

impl crate::sim::figures::TaskFigures for ClocksParams {
    const RESULTS: &'static [crate::sim::figures::Figure] = &[crate::fig!("end-ms", "cuándo termina la llamada", Ms)];
    fn figure(&self, key: &str) -> Option<f64> {
        match key {
            "end-ms" => run(self).outcome.at_ms().map(|v| v as f64),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_byte_every_9_s_never_trips_a_10_s_read_timeout() {
        let p = ClocksParams {
            total_timeout_ms: None,
            ..ClocksParams::default()
        };
        assert_eq!(run(&p).outcome, Outcome::NeverEnds);
        // Issue 22: a call that never ends has no count of pieces (not ≈ 2 × 10¹⁵).
        assert_eq!(run(&p).chunks_received, None);
        let p = ClocksParams::default();
        let r = run(&p);
        assert_eq!(r.outcome, Outcome::TotalTimeout { at_ms: 30_000 });
        assert_eq!(r.chunks_received, Some(3)); // at 9,001, 18,001 and 27,001 ms
    }

    #[test]
    fn a_total_shorter_than_the_connect_timeout_fires_first() {
        // Found by the moment's property test (#33): the total clock at 1 ms
        // fired at the connect timeout's 100 ms.
        let p = ClocksParams {
            connect_ms: None,
            total_timeout_ms: Some(40),
            ..ClocksParams::default()
        };
        assert_eq!(run(&p).outcome, Outcome::TotalTimeout { at_ms: 40 });
    }

    #[test]
    fn a_longer_silence_trips_the_read_timeout() {
        let p = ClocksParams {
            gap_ms: 11_000,
            ..ClocksParams::default()
        };
        assert_eq!(
            run(&p).outcome,
            Outcome::ReadTimeout {
                at_ms: 10_001,
                after_chunks: 0
            }
        );
    }

    #[test]
    fn connect_and_completion() {
        let p = ClocksParams {
            connect_ms: None,
            ..ClocksParams::default()
        };
        assert_eq!(run(&p).outcome, Outcome::ConnectTimeout { at_ms: 100 });
        let p = ClocksParams {
            connect_ms: None,
            connect_timeout_ms: None,
            total_timeout_ms: None,
            ..ClocksParams::default()
        };
        assert_eq!(run(&p).outcome, Outcome::NeverEnds);
        let p = ClocksParams {
            chunks: Some(2),
            gap_ms: 50,
            ..ClocksParams::default()
        };
        let r = run(&p);
        assert_eq!(r.outcome, Outcome::Completed { at_ms: 101 });
        assert_eq!(r.chunks_ms, [51, 101]);
    }

    #[test]
    fn huge_values_are_cheap() {
        let p = ClocksParams {
            gap_ms: 0,
            chunks: Some(10_000),
            total_timeout_ms: Some(3_600_000),
            ..ClocksParams::default()
        };
        assert_eq!(run(&p).outcome, Outcome::Completed { at_ms: 1 });
        let p = ClocksParams {
            gap_ms: 1,
            chunks: None,
            read_timeout_ms: None,
            total_timeout_ms: Some(3_600_000),
            ..ClocksParams::default()
        };
        let r = run(&p);
        assert_eq!(r.chunks_received, Some(3_599_998));
        assert_eq!(r.chunks_ms.len(), MAX_MARKS);
    }
}
