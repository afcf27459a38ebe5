//! The one list of the lab's live pieces. Every widget a lesson can place
//! (`::widget{id=…}`) is here, once: its id (the widget's, the URL's
//! `?widget=`, the command line's subcommand), its Spanish name, its
//! parameters, and its component.
//!
//! From that one list ([`registry!`]) come: [`ALL`] (the command line's
//! subcommands and their runs, the lesson's directive check — a lesson that
//! places an unknown id does not compile (`build.rs`) —, the fuzz
//! and bench loops over every scenario, the browser tests' widget list through
//! `sensei-lab scenarios --json`) and, in the browser's part, the dispatch
//! from an id to its component (`ui::pages::block::widget`).
//!
//! What a scenario is on the command line is declared beside its parameters,
//! in its core module: [`Scenario`] (what `--help` says of it, its work
//! budget, and its run as the one JSON shape's `result` and `notes` and as
//! Spanish lines), natively only.
//!
//! Adding a scenario: its core module (its `params!` struct and its
//! `impl Scenario`), its widget (`ui/widgets/`) and chart, its place in the
//! lesson, and one line in [`registry!`].

#[cfg(not(target_arch = "wasm32"))]
use crate::sim::params;
use crate::sim::params::{Spec, Values};

/// Every scenario, in the lesson's order of first appearance: `(id, "Spanish
/// name", core_module::ParamsType, widget_module::Component)`. The id is the
/// widget's, the URL's `?widget=` and the subcommand; the parameter struct
/// gives its specs, defaults and (natively) its [`Scenario`] impl; the
/// component is under `ui::widgets`. Expanded by `$then!` (here into
/// [`ALL`]; in `ui::pages::block` into the id → component dispatch).
#[macro_export]
macro_rules! registry {
    ($then:ident) => {
        $then! {
            (herd, "La manada", herd::HerdParams, herd_widget::HerdWidget),
            (clocks, "Tres relojes", clocks::ClocksParams, clocks_widget::ClocksWidget),
            (inflight, "Lo que cuesta esperar de más", inflight::InflightParams, inflight_widget::InflightWidget),
            (chain, "La cadena de C01", chain::ChainParams, chain_widget::ChainWidget),
            (hedging, "Hedging", hedging::HedgingParams, hedging_widget::HedgingWidget),
            (shedding, "Load shedding", shedding::SheddingParams, shedding_widget::SheddingWidget),
            (backoff, "Calculadora de backoff", retries::BackoffParams, backoff_widget::BackoffWidget),
            (layers, "Cada capa multiplica", retries::LayersParams, layers_widget::LayersWidget),
            (budget, "El presupuesto de reintentos", retries::BudgetParams, budget_widget::BudgetWidget),
            (failure, "¿Reintentarías?", failures::FailureParams, failure_widget::FailureWidget),
            (breaker, "Circuit breaker", breaker::BreakerParams, breaker_widget::BreakerWidget),
            (storm, "Tormenta de reintentos", storm::StormParams, storm_widget::StormWidget),
            (store, "La llave de idempotencia", idempotency::StoreParams, store_widget::StoreWidget),
            (degradation, "Degradación", degradation::DegradationParams, degradation_widget::DegradationWidget),
            (failmode, "¿Abierto o cerrado?", failmode::FailModeParams, failmode_widget::FailModeWidget),
        }
    };
}

/// What a scenario is on the command line: declared in the core, beside
/// each scenario's parameters (`crate::sim::scenario`), so that the core
/// never imports this list.
#[cfg(not(target_arch = "wasm32"))]
pub use crate::sim::scenario::{Run, Scenario, Session};

/// One live piece of the lab, as [`ALL`] lists it.
pub struct Entry {
    /// Widget id, URL `?widget=` value and subcommand.
    pub id: &'static str,
    /// Its name as the lesson and the widget's frame say it.
    pub name: &'static str,
    /// What it is, for `--help` (first line) and `sensei-lab scenarios`.
    #[cfg(not(target_arch = "wasm32"))]
    pub about: &'static str,
    /// The most work one run may do ([`Scenario::BUDGET`]).
    #[cfg(not(target_arch = "wasm32"))]
    pub budget: &'static str,
    /// Its parameters (empty for a widget whose state is not numbers).
    pub specs: fn() -> &'static [Spec],
    /// The lesson's values of them.
    pub defaults: fn() -> Values,
    /// Switches of the command line only ([`Scenario::SWITCHES`]).
    #[cfg(not(target_arch = "wasm32"))]
    pub switches: &'static [(&'static str, &'static str)],
    /// [`Scenario::beyond_budget`] of values within their bounds.
    #[cfg(not(target_arch = "wasm32"))]
    pub beyond_budget: fn(&Values) -> Option<String>,
}

/// Runs scenario `id` from values already checked against its specs, in a
/// session of the command line's (`cli::Ctx`, or any other): what
/// `sensei-lab <id>` prints. `None`: no such scenario. (Generic over the
/// session, so this list does not know the command line above it.)
#[cfg(not(target_arch = "wasm32"))]
pub fn run(id: &str, values: &Values, session: &mut impl Session) -> Option<Run> {
    macro_rules! runs {
        ($(($rid:ident, $name:literal, $m:ident :: $p:ident, $w:ident :: $c:ident)),* $(,)?) => {
            match id {
                $( stringify!($rid) => Some(<crate::sim::$m::$p as Scenario>::report(&params::from_values(values), session)), )*
                _ => None,
            }
        };
    }
    registry!(runs)
}

/// [`Scenario::beyond_budget`] from the command line's values.
#[cfg(not(target_arch = "wasm32"))]
fn beyond_from<P: Scenario>(values: &Values) -> Option<String> {
    P::beyond_budget(&params::from_values(values))
}

macro_rules! entries {
    ($(($id:ident, $name:literal, $m:ident :: $p:ident, $w:ident :: $c:ident)),* $(,)?) => {
        /// Every scenario, in the lesson's order of first appearance.
        pub const ALL: &[Entry] = &[$(
            Entry {
                id: stringify!($id),
                name: $name,
                #[cfg(not(target_arch = "wasm32"))]
                about: <crate::sim::$m::$p as Scenario>::ABOUT,
                #[cfg(not(target_arch = "wasm32"))]
                budget: <crate::sim::$m::$p as Scenario>::BUDGET,
                specs: <crate::sim::$m::$p as crate::sim::params::Params>::specs,
                defaults: <crate::sim::$m::$p as crate::sim::params::Params>::lesson_values,
                #[cfg(not(target_arch = "wasm32"))]
                switches: <crate::sim::$m::$p as Scenario>::SWITCHES,
                #[cfg(not(target_arch = "wasm32"))]
                beyond_budget: beyond_from::<crate::sim::$m::$p>,
            },
        )*];
    };
}
registry!(entries);

/// The scenario with this id.
pub fn find(id: &str) -> Option<&'static Entry> {
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
