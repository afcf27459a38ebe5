//! The one list of the lab's live pieces. Every widget a lesson can place
//! (`::widget{id=…}`) is here, once: its id (the widget's, the URL's
//! `?widget=`, the command line's subcommand), its Spanish name, what the
//! command line says of it and the work it may do, and its parameters.
//!
//! From [`ALL`] come the command line's subcommands (`cli`), the lesson's
//! directive check (an unknown id fails `sensei-lab lessons` and the release
//! build's prerender), the fuzz and property loops over every scenario, and
//! the browser tests' widget list (`sensei-lab scenarios --json`). The
//! browser's dispatch from an id to its component is `ui::pages::block`, checked
//! against this list by a test; natively, each entry also names its runner
//! (`cli::scenarios`), which turns the core's result into the one JSON shape
//! and the Spanish lines.
//!
//! Adding a scenario: its core module (its `params!` struct and, beside
//! it, what `--help` says of it: `Described`), its widget and chart, its
//! place in the lesson, its runner in `cli::scenarios`, one `entry!` line
//! here and one arm in `ui::pages::block::widget` (a test fails until both
//! are there).

use crate::sim::params::{Params, Spec, Values};
use crate::sim::{
    breaker, chain, clocks, degradation, failmode, failures, hedging, herd, idempotency, inflight, retries, shedding,
    storm,
};

/// What the command line says of a scenario, declared beside its parameters
/// (natively only: the browser's build does not carry it).
#[cfg(not(target_arch = "wasm32"))]
pub trait Described {
    /// What it is: `--help`'s first line, `sensei-lab scenarios`.
    const ABOUT: &'static str;
    /// The most work one run may do and what happens past it: its joint
    /// constraint (rate × duration within the budget, and so on), listed in
    /// `--help`; past it, a run says it was cut (page and JSON alike).
    const BUDGET: &'static str;
    /// Switches of the command line only (name, help).
    const SWITCHES: &'static [(&'static str, &'static str)] = &[];
}

/// One live piece of the lab.
pub struct Scenario {
    /// Widget id, URL `?widget=` value and subcommand.
    pub id: &'static str,
    /// Its name as the lesson and the widget's frame say it.
    pub name: &'static str,
    /// What it is, for `--help` (first line) and `sensei-lab scenarios`.
    /// (This and `budget` are the command line's: natively only, so the
    /// browser's build does not carry them.)
    #[cfg(not(target_arch = "wasm32"))]
    pub about: &'static str,
    /// The most work one run may do, and what happens past it: listed in
    /// `--help`, the same rule the page follows (a cut run says so).
    #[cfg(not(target_arch = "wasm32"))]
    pub budget: &'static str,
    /// Its parameters (empty for a widget whose state is not numbers).
    pub specs: fn() -> &'static [Spec],
    /// The lesson's values of them.
    pub defaults: fn() -> Values,
    /// Switches of the command line only (name, help): extra work a widget
    /// does not do on every change.
    #[cfg(not(target_arch = "wasm32"))]
    pub switches: &'static [(&'static str, &'static str)],
    /// Runs it from the command line's values (native only).
    #[cfg(not(target_arch = "wasm32"))]
    pub run: crate::cli::scenarios::Runner,
}

/// `entry!(id, "Spanish name", module::ParamsType)`: the scenario's id (its
/// runner in `cli::scenarios` has the same name), its name, and its parameter
/// struct, which says its specs, its defaults and (natively) what `--help`
/// says of it (`Described`, natively only).
macro_rules! entry {
    ($id:ident, $name:literal, $m:ident :: $p:ident) => {
        Scenario {
            id: stringify!($id),
            name: $name,
            #[cfg(not(target_arch = "wasm32"))]
            about: <$m::$p as Described>::ABOUT,
            #[cfg(not(target_arch = "wasm32"))]
            budget: <$m::$p as Described>::BUDGET,
            specs: $m::$p::specs,
            defaults: $m::$p::lesson_values,
            #[cfg(not(target_arch = "wasm32"))]
            switches: <$m::$p as Described>::SWITCHES,
            #[cfg(not(target_arch = "wasm32"))]
            run: crate::cli::scenarios::$id,
        }
    };
}

/// Every scenario, in the lesson's order of first appearance.
pub const ALL: &[Scenario] = &[
    entry!(herd, "La manada", herd::HerdParams),
    entry!(clocks, "Tres relojes", clocks::ClocksParams),
    entry!(inflight, "Lo que cuesta esperar de más", inflight::InflightParams),
    entry!(chain, "La cadena de C01", chain::ChainParams),
    entry!(hedging, "Hedging", hedging::HedgingParams),
    entry!(shedding, "Load shedding", shedding::SheddingParams),
    entry!(backoff, "Calculadora de backoff", retries::BackoffParams),
    entry!(layers, "Cada capa multiplica", retries::LayersParams),
    entry!(budget, "El presupuesto de reintentos", retries::BudgetParams),
    entry!(failure, "¿Reintentarías?", failures::FailureParams),
    entry!(breaker, "Circuit breaker", breaker::BreakerParams),
    entry!(storm, "Tormenta de reintentos", storm::StormParams),
    entry!(store, "La llave de idempotencia", idempotency::StoreParams),
    entry!(degradation, "Degradación", degradation::DegradationParams),
    entry!(failmode, "¿Abierto o cerrado?", failmode::FailModeParams),
];

/// The scenario with this id.
pub fn find(id: &str) -> Option<&'static Scenario> {
    ALL.iter().find(|s| s.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_and_names_are_unique_and_present() {
        for (i, s) in ALL.iter().enumerate() {
            assert!(!s.name.is_empty(), "{}", s.id);
            #[cfg(not(target_arch = "wasm32"))]
            assert!(!s.about.is_empty() && !s.budget.is_empty(), "{}", s.id);
            assert!(
                ALL[i + 1..].iter().all(|t| t.id != s.id && t.name != s.name),
                "{}",
                s.id
            );
        }
        assert_eq!(find("herd").map(|s| s.name), Some("La manada"));
        assert!(find("nada").is_none());
    }
}
