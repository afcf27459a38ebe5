//! What each scenario offers to a widget's tasks («Predice y comprueba»):
//! its results a task may name by key, with their Spanish label and what
//! they measure, and the core's value of each at the scenario's parameters.
//! Declared beside each scenario's parameters (`impl TaskFigures for
//! HerdParams` in `sim/herd`), so a task reaches its own scenario's core and
//! no other; the exercises' layer (`exercise::task`) reads an answer in the
//! unit each measure is typed in.

use super::params::Params;

/// What a figure measures, as the learner types it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Measure {
    /// Milliseconds.
    Ms,
    /// Per second.
    Rate,
    /// A share in [0, 1] (typed as a percentage).
    Share,
    /// A count.
    Count,
    /// Seconds after 12:00:00.
    Clock,
    /// Sí (1) or no (0).
    YesNo,
}

/// One of the results a task may name.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Figure {
    pub key: &'static str,
    /// What it is, in Spanish, as feedback names it («el p99»).
    pub label: &'static str,
    pub measure: Measure,
}

/// A [`Figure`] in one line: `fig!("gave-up", "los clientes que se rinden", Count)`.
#[macro_export]
macro_rules! fig {
    ($key:literal, $label:literal, $measure:ident) => {
        $crate::sim::figures::Figure {
            key: $key,
            label: $label,
            measure: $crate::sim::figures::Measure::$measure,
        }
    };
}

/// A scenario's results for its tasks (its parameters are figures too, by
/// their keys: `exercise::task` reads those from the specs).
pub trait TaskFigures: Params {
    /// The results a task may name.
    const RESULTS: &'static [Figure];
    /// Result `key` at these parameters, computed by the core. `None`: not
    /// one of [`TaskFigures::RESULTS`], or it does not happen here (a
    /// breaker that never opens).
    fn figure(&self, key: &str) -> Option<f64>;
}

/// 1 for yes, 0 for no: a [`Measure::YesNo`] figure's value.
pub fn yes(b: bool) -> Option<f64> {
    Some(if b { 1.0 } else { 0.0 })
}
