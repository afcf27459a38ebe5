//! Graceful degradation, measured: fallback answers counted by reason, and
//! an alert when their share passes a threshold.
//!
//! Why: a good plan B is cheaper than the normal path and does not depend on
//! what failed. But a fallback is an answer that works (C01's category
//! selector comes back as a 200), so a fallback used in silence hides an
//! outage: nobody notices that half the requests have used it for a week.
//! C01 counts each fallback answer by reason (timeout, 503, invalid photo);
//! with that metric and an alert on its share, the outage shows.
//!
//! The model is minute by minute and exact (expected counts, no noise): a
//! steady rate of requests, a small everyday share of fallbacks per reason,
//! and an incident that raises one reason's share for a while. Optionally the
//! plan B shares the dependency that failed (the lesson's common mistake 6):
//! then, during the incident, its answers fail too.
//!
//! ```
//! use sensei_lab::sim::degradation::{run, DegradationParams};
//! let r = run(&DegradationParams::default());
//! assert_eq!(r.alert_at_min, Some(11)); // the incident starts at minute 10
//! ```

use crate::sim::params::ON_OFF;
use crate::sim::params::{ChoiceKey, Toggle};
use serde::{Deserialize, Serialize};

/// Why a request got the plan B.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Reason {
    /// Triton did not answer in time.
    #[default]
    Timeout,
    /// Triton (or the gateway) said it was saturated.
    Unavailable,
    /// The photo could not be read.
    Invalid,
}

impl Reason {
    pub const ALL: [Reason; 3] = [Reason::Timeout, Reason::Unavailable, Reason::Invalid];
    pub fn label(self) -> &'static str {
        match self {
            Reason::Timeout => "timeout",
            Reason::Unavailable => "503",
            Reason::Invalid => "foto inválida",
        }
    }
}

impl ChoiceKey for Reason {
    const KEYS: &'static [(Self, &'static str)] = &[
        (Reason::Timeout, "timeout"),
        (Reason::Unavailable, "unavailable"),
        (Reason::Invalid, "invalid"),
    ];
}

const REASON_OPTIONS: &[(&str, &str)] = &[
    ("timeout", "timeout"),
    ("unavailable", "503"),
    ("invalid", "foto inválida"),
];

crate::params! {
    /// A day of C01's fallbacks, minute by minute.
    #[derive(Eq)]
    pub struct DegradationParams {
        /// Requests per second
        rps: u32 = 500 => int("Requests por segundo", "/s", 1, 100_000),
        /// Everyday fallbacks for timeouts, in tenths of a percent (5 = 0.5 %)
        timeout_permille: u32 = 5 => int("Plan B normal por timeout", "de cada 1,000", 0, 1_000),
        /// Everyday fallbacks for 503s, in tenths of a percent (2 = 0.2 %)
        unavailable_permille: u32 = 2 => int("Plan B normal por 503", "de cada 1,000", 0, 1_000),
        /// Everyday fallbacks for invalid photos, in tenths of a percent (10 = 1 %)
        invalid_permille: u32 = 10 => int("Plan B normal por foto inválida", "de cada 1,000", 0, 1_000),
        /// The incident: which reason grows
        incident: Reason = Reason::Timeout => choice("El incidente sube", REASON_OPTIONS),
        /// The incident starts at this minute
        incident_at_min: u32 = 10 => int("Empieza en el minuto", "", 0, 1_440),
        /// ... and lasts this many minutes
        incident_min: u32 = 30 => int("Dura", "min", 0, 1_440),
        /// Share of the requests that get that fallback during the incident, percent
        incident_pct: u32 = 40 => int("Plan B durante el incidente", "%", 0, 100),
        /// Fallbacks are counted and alerted on
        metric: Toggle = Toggle::On => choice("Contar el plan B y alertar", ON_OFF),
        /// Alert when the fallbacks' share over the window passes this, percent
        alert_pct: u32 = 5 => int("Alerta arriba de", "%", 1, 100),
        /// Window of the alert, in minutes
        window_min: u32 = 5 => int("Ventana de la alerta", "min", 1, 60),
        /// The plan B depends on what failed (common mistake 6)
        shared_dependency: Toggle = Toggle::Off => choice("El plan B depende de lo que falló", ON_OFF),
        /// Minutes shown
        duration_min: u32 = 60 => int("Minutos mostrados", "min", 10, 1_440),
    }
}

/// What the command line says of it (`sensei-lab degradation --help`).
#[cfg(not(target_arch = "wasm32"))]
impl crate::sim::scenario::Scenario for DegradationParams {
    const ABOUT: &'static str = "Graceful degradation: fallbacks counted by reason, and the alert on their share.";
    const BUDGET: &'static str = "none needed (one figure per simulated minute, at most 1,440 minutes).";

    fn report(p: &Self, ctx: &mut impl crate::sim::scenario::Session) -> crate::sim::scenario::Run {
        use crate::sim::scenario::Run;
        use serde_json::json;
        let r = ctx.time(|| run(p));
        let mut lines: Vec<String> = reason_rows(p, &r)
            .into_iter()
            .map(|(label, value)| format!("{label}: {value}"))
            .collect();
        if !p.metric.is_on() {
            lines.push(format!("respuestas 200 en el tablero: {}", dashboard(&r)));
        }
        lines.push(verdict(&r, p));
        Run {
            result: json!(r),
            truncated: false,
            notes: notes(p),
            lines,
        }
    }
}

/// The fallbacks by reason, as the page's rows and the command line's
/// lines say them: counted with the metric, «sin contar» without it (the
/// lesson's point: nobody sees them).
pub fn reason_rows(p: &DegradationParams, r: &DegradationRun) -> Vec<(String, String)> {
    Reason::ALL
        .iter()
        .zip(r.totals)
        .map(|(reason, n)| {
            let value = if p.metric.is_on() {
                crate::fmt::es_int(n.round() as i64)
            } else {
                "sin contar".to_string()
            };
            (format!("plan B por {}", reason.label()), value)
        })
        .collect()
}

/// What the dashboard shows without the metric: the share of 200 answers.
pub fn dashboard(r: &DegradationRun) -> String {
    crate::fmt::es_percent(r.share_ok_status, 0)
}

/// One minute.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Minute {
    pub minute: u32,
    pub requests: f64,
    /// Fallback answers by reason, in the order of [`Reason::ALL`].
    pub fallbacks: [f64; 3],
    /// Requests that got an error: the plan B itself failed.
    pub errors: f64,
    /// Share of fallbacks over the alert's window ending here.
    pub window_share: f64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DegradationRun {
    pub minutes: Vec<Minute>,
    /// Fallbacks by reason over the whole run, in the order of [`Reason::ALL`].
    pub totals: [f64; 3],
    pub requests: f64,
    pub errors: f64,
    /// The minute the alert fires (None: it never does, or nothing is measured).
    pub alert_at_min: Option<u32>,
    /// What a dashboard of HTTP status codes shows: answers that were 200.
    pub share_ok_status: f64,
}

pub fn run(params: &DegradationParams) -> DegradationRun {
    let (p, _) = crate::sim::params::clamp(params);
    let per_min = p.rps as f64 * 60.0;
    let everyday = [p.timeout_permille, p.unavailable_permille, p.invalid_permille].map(|x| x as f64 / 1000.0);
    let incident = |m: u32| m >= p.incident_at_min && m < p.incident_at_min.saturating_add(p.incident_min);
    let which = Reason::ALL.iter().position(|r| *r == p.incident).unwrap_or(0);
    let mut minutes: Vec<Minute> = Vec::with_capacity(p.duration_min as usize);
    for m in 0..p.duration_min {
        let mut shares = everyday;
        if incident(m) {
            shares[which] = shares[which].max(p.incident_pct as f64 / 100.0);
        }
        // Shares above 100 % in total are scaled down: a request gets one plan B at most.
        let total: f64 = shares.iter().sum();
        if total > 1.0 {
            shares = shares.map(|s| s / total);
        }
        let fallbacks = shares.map(|s| s * per_min);
        // A plan B that depends on what failed fails with it during the incident
        // (an invalid photo does not take a dependency down).
        let errors = if p.shared_dependency.is_on() && incident(m) && p.incident != Reason::Invalid {
            fallbacks[which]
        } else {
            0.0
        };
        minutes.push(Minute {
            minute: m,
            requests: per_min,
            fallbacks,
            errors,
            window_share: 0.0,
        });
    }
    let w = p.window_min as usize;
    for i in 0..minutes.len() {
        let lo = (i + 1).saturating_sub(w);
        let fb: f64 = minutes[lo..=i].iter().map(|m| m.fallbacks.iter().sum::<f64>()).sum();
        let req: f64 = minutes[lo..=i].iter().map(|m| m.requests).sum();
        minutes[i].window_share = fb / req;
    }
    // The alert fires at the end of the first minute whose window passes the threshold.
    let alert_at_min = p
        .metric
        .is_on()
        .then(|| {
            minutes
                .iter()
                .find(|m| m.window_share * 100.0 > p.alert_pct as f64 + 1e-9)
                .map(|m| m.minute + 1)
        })
        .flatten();
    let mut totals = [0.0; 3];
    for m in &minutes {
        for (t, f) in totals.iter_mut().zip(m.fallbacks) {
            *t += f;
        }
    }
    let requests: f64 = minutes.iter().map(|m| m.requests).sum();
    let errors: f64 = minutes.iter().map(|m| m.errors).sum();
    DegradationRun {
        minutes,
        totals,
        requests,
        errors,
        alert_at_min,
        share_ok_status: if requests > 0.0 { 1.0 - errors / requests } else { 1.0 },
    }
}

/// One Spanish sentence: who finds out, and when.
/// What a reader must know beside the figures: an incident outside the
/// minutes shown.
pub fn notes(p: &DegradationParams) -> Vec<String> {
    use crate::fmt::es_int;
    if p.incident_min > 0 && p.incident_at_min >= p.duration_min {
        vec![format!(
            "El incidente empieza en el minuto {}, después de {}: la gráfica no lo alcanza.",
            es_int(p.incident_at_min as i64),
            if p.duration_min == 1 {
                "el único minuto mostrado".to_string()
            } else {
                format!("los {} minutos mostrados", es_int(p.duration_min as i64))
            }
        )]
    } else {
        Vec::new()
    }
}

pub fn verdict(r: &DegradationRun, p: &DegradationParams) -> String {
    let base = verdict_alone(r, p);
    // Errors are said whatever the metric: a plan B that fails too is news.
    if r.errors > 0.0 && p.metric.is_on() {
        format!(
            "{base}; además, {} en error porque su plan B dependía de lo mismo que falló",
            crate::fmt::es_count(r.errors.round() as i64, "request terminó", "requests terminaron")
        )
    } else {
        base
    }
}

fn verdict_alone(r: &DegradationRun, p: &DegradationParams) -> String {
    let share = crate::fmt::es_percent((r.totals.iter().sum::<f64>()) / r.requests.max(1.0), 1);
    match (p.metric.is_on(), r.alert_at_min) {
        (true, Some(m)) => format!(
            "alerta en el minuto {m}: más de {} % de plan B en los últimos {} min; en total, {share} de las requests usó el plan B",
            p.alert_pct, p.window_min
        ),
        (true, None) => format!("sin alerta: el plan B nunca pasa de {} % en {} min ({share} en total)", p.alert_pct, p.window_min),
        (false, _) if r.errors > 0.0 => format!(
            "nadie cuenta el plan B, y el plan B también falla: {} con error, y nadie sabe por qué",
            crate::fmt::es_count(r.errors.round() as i64, "request", "requests")
        ),
        (false, _) => format!(
            "nadie se entera: el plan B contesta 200, el tablero muestra {} de respuestas 200, y {share} de las requests usó el plan B",
            crate::fmt::es_percent(r.share_ok_status, 0)
        ),
    }
}

impl crate::sim::figures::TaskFigures for DegradationParams {
    const RESULTS: &'static [crate::sim::figures::Figure] = &[
        crate::fig!(
            "timeouts-per-min",
            "los fallbacks por timeout por minuto en el incidente",
            Count
        ),
        crate::fig!("alert", "si suena la alerta", YesNo),
    ];
    fn figure(&self, key: &str) -> Option<f64> {
        let r = run(self);
        match key {
            "alert" => crate::sim::figures::yes(r.alert_at_min.is_some()),
            // The incident's first whole minute.
            "timeouts-per-min" => r.minutes.get(self.incident_at_min as usize).map(|m| m.fallbacks[0]),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counted_by_reason() {
        let r = run(&DegradationParams::default());
        // 500/s × 60 s = 30,000 requests a minute; 30 minutes of 40 % timeouts, 30 of 0.5 %.
        assert_eq!(r.requests, 30_000.0 * 60.0);
        assert!((r.totals[0] - (30.0 * 12_000.0 + 30.0 * 150.0)).abs() < 1e-6);
        assert!((r.totals[2] - 60.0 * 300.0).abs() < 1e-6);
        // A fallback is an answer: every request got a 200.
        assert_eq!(r.share_ok_status, 1.0);
        // The window of 5 min passes 5 % in the incident's first minutes:
        // minute 10 alone: (12,000 + 60 + 300 + 4 × 510) / 150,000 = 9.6 %.
        assert_eq!(r.alert_at_min, Some(11));
    }

    #[test]
    fn in_silence_nobody_knows() {
        let r = run(&DegradationParams {
            metric: Toggle::Off,
            ..DegradationParams::default()
        });
        assert_eq!(r.alert_at_min, None);
        assert_eq!(r.share_ok_status, 1.0);
    }

    #[test]
    fn a_plan_b_that_shares_the_dependency_fails_with_it() {
        let r = run(&DegradationParams {
            shared_dependency: Toggle::On,
            ..DegradationParams::default()
        });
        assert!((r.errors - 30.0 * 12_000.0).abs() < 1e-6);
        assert!(r.share_ok_status < 0.81);
    }
}
