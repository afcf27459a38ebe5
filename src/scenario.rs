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
//! Adding a scenario: its core module (with its `params!` struct), its widget
//! and chart, its place in the lesson, its runner, and one entry here.

use crate::sim::params::{Params, Spec, Values};
use crate::sim::{
    breaker, chain, clocks, degradation, failmode, hedging, herd, idempotency, inflight, retries, shedding, storm,
};

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

fn none() -> &'static [Spec] {
    &[]
}

/// Every scenario, in the lesson's order of first appearance.
pub const ALL: &[Scenario] = &[
    Scenario {
        id: "herd",
        name: "La manada",
        #[cfg(not(target_arch = "wasm32"))]
        about: "The thundering herd: clients fail together and retry with backoff (and jitter).",
        #[cfg(not(target_arch = "wasm32"))]
        budget: "at most clients × retries = 100,000 × 10 = 1,000,000 attempts; every accepted run plays to the end.",
        specs: herd::HerdParams::specs,
        defaults: herd::HerdParams::lesson_values,
        #[cfg(not(target_arch = "wasm32"))]
        switches: &[],
        #[cfg(not(target_arch = "wasm32"))]
        run: crate::cli::scenarios::herd,
    },
    Scenario {
        id: "clocks",
        name: "Tres relojes",
        #[cfg(not(target_arch = "wasm32"))]
        about: "Three clocks in one call: connect, read (silence between pieces) and total timeouts.",
        #[cfg(not(target_arch = "wasm32"))]
        budget: "none needed (closed form, no loop over pieces); at most 2,000 pieces are listed for the chart, the count is exact. A call that never ends has no count of pieces (null).",
        specs: clocks::ClocksParams::specs,
        defaults: clocks::ClocksParams::lesson_values,
        #[cfg(not(target_arch = "wasm32"))]
        switches: &[],
        #[cfg(not(target_arch = "wasm32"))]
        run: crate::cli::scenarios::clocks,
    },
    Scenario {
        id: "inflight",
        name: "Lo que cuesta esperar de más",
        #[cfg(not(target_arch = "wasm32"))]
        about: "Little's law and MAX_INFLIGHT: what waiting too long costs a pod (formula and simulation).",
        #[cfg(not(target_arch = "wasm32"))]
        budget: "the simulation of one pod plays at most 200,000 arrivals (180,000 when they are random); a longer run is cut to fit and says so (\"truncated\": true, a note). With no steady state in what was played (each request holds its place longer than the run), it gives no steady-state share or mean.",
        specs: inflight::InflightParams::specs,
        defaults: inflight::InflightParams::lesson_values,
        #[cfg(not(target_arch = "wasm32"))]
        switches: &[],
        #[cfg(not(target_arch = "wasm32"))]
        run: crate::cli::scenarios::inflight,
    },
    Scenario {
        id: "chain",
        name: "La cadena de C01",
        #[cfg(not(target_arch = "wasm32"))]
        about: "C01's chain of deadlines (300 → 250 → 150 → 100 ms) and the zombie work.",
        #[cfg(not(target_arch = "wasm32"))]
        budget: "none needed (one request, closed form).",
        specs: chain::ChainParams::specs,
        defaults: chain::ChainParams::lesson_values,
        #[cfg(not(target_arch = "wasm32"))]
        switches: &[],
        #[cfg(not(target_arch = "wasm32"))]
        run: crate::cli::scenarios::chain,
    },
    Scenario {
        id: "hedging",
        name: "Hedging",
        #[cfg(not(target_arch = "wasm32"))]
        about: "Hedged requests: a second copy at a percentile, by Monte Carlo (exercise 8).",
        #[cfg(not(target_arch = "wasm32"))]
        budget: "--reads itself (at most 200,000); every run plays all of them. Where the lesson's arithmetic does not describe the run, a note says so and gives the simulation's figure.",
        specs: hedging::HedgingParams::specs,
        defaults: hedging::HedgingParams::lesson_values,
        #[cfg(not(target_arch = "wasm32"))]
        switches: &[],
        #[cfg(not(target_arch = "wasm32"))]
        run: crate::cli::scenarios::hedging,
    },
    Scenario {
        id: "shedding",
        name: "Load shedding",
        #[cfg(not(target_arch = "wasm32"))]
        about: "Load shedding: an unbounded queue against a server that sheds, above its capacity.",
        #[cfg(not(target_arch = "wasm32"))]
        budget: "at most 200,000 arrivals; a longer run plays the whole seconds that fit (rps × seconds ≤ 180,000) and says so (\"truncated\": true, a note).",
        specs: shedding::SheddingParams::specs,
        defaults: shedding::SheddingParams::lesson_values,
        #[cfg(not(target_arch = "wasm32"))]
        switches: &[],
        #[cfg(not(target_arch = "wasm32"))]
        run: crate::cli::scenarios::shedding,
    },
    Scenario {
        id: "backoff",
        name: "Calculadora de backoff",
        #[cfg(not(target_arch = "wasm32"))]
        about: "The backoff calculator: the wait before each retry, at most and on average (exercise 2).",
        #[cfg(not(target_arch = "wasm32"))]
        budget: "4,000 sampled runs of the waits, always.",
        specs: retries::BackoffParams::specs,
        defaults: retries::BackoffParams::lesson_values,
        #[cfg(not(target_arch = "wasm32"))]
        switches: &[],
        #[cfg(not(target_arch = "wasm32"))]
        run: crate::cli::scenarios::backoff,
    },
    Scenario {
        id: "layers",
        name: "Cada capa multiplica",
        #[cfg(not(target_arch = "wasm32"))]
        about: "Layers that retry multiply: the attempts reaching each piece (exercise 4).",
        #[cfg(not(target_arch = "wasm32"))]
        budget: "none needed (closed form).",
        specs: retries::LayersParams::specs,
        defaults: retries::LayersParams::lesson_values,
        #[cfg(not(target_arch = "wasm32"))]
        switches: &[],
        #[cfg(not(target_arch = "wasm32"))]
        run: crate::cli::scenarios::layers,
    },
    Scenario {
        id: "budget",
        name: "El presupuesto de reintentos",
        #[cfg(not(target_arch = "wasm32"))]
        about: "The retry budget: retries wanted against allowed, and the extra load.",
        #[cfg(not(target_arch = "wasm32"))]
        budget: "2,000 requests per point of the token bucket's curve, 51 points, always.",
        specs: retries::BudgetParams::specs,
        defaults: retries::BudgetParams::lesson_values,
        #[cfg(not(target_arch = "wasm32"))]
        switches: &[],
        #[cfg(not(target_arch = "wasm32"))]
        run: crate::cli::scenarios::budget,
    },
    Scenario {
        id: "failure",
        name: "¿Reintentarías?",
        #[cfg(not(target_arch = "wasm32"))]
        about: "Would you retry? What each failure says, on each of C01's paths (the lesson's table and rules).",
        #[cfg(not(target_arch = "wasm32"))]
        budget: "none needed (a table).",
        specs: none,
        defaults: Vec::new,
        #[cfg(not(target_arch = "wasm32"))]
        switches: &[],
        #[cfg(not(target_arch = "wasm32"))]
        run: crate::cli::scenarios::failure,
    },
    Scenario {
        id: "breaker",
        name: "Circuit breaker",
        #[cfg(not(target_arch = "wasm32"))]
        about: "The circuit breaker when Triton falls at 12:00:00 (exercise 7).",
        #[cfg(not(target_arch = "wasm32"))]
        budget: "every request is played, at most rps × (window-s + duration-s) = 10,000 × 720 = 7,200,000; every accepted run plays to the end.",
        specs: breaker::BreakerParams::specs,
        defaults: breaker::BreakerParams::lesson_values,
        #[cfg(not(target_arch = "wasm32"))]
        switches: &[],
        #[cfg(not(target_arch = "wasm32"))]
        run: crate::cli::scenarios::breaker,
    },
    Scenario {
        id: "storm",
        name: "Tormenta de reintentos",
        #[cfg(not(target_arch = "wasm32"))]
        about: "A retry storm: layers that retry in front of a server of fixed capacity, and a trigger.",
        #[cfg(not(target_arch = "wasm32"))]
        budget: "at most 650,000 attempts to the server (room for the largest calm run, 2,000 × 300 s). A storm can grow without end, so a run that reaches the budget stops there and says so (\"truncated\": true, \"cut_at_s\", a note): its timeline ends where the data end, and it concludes nothing (outcome \"cut\", recovered null; the tipping point \"unknown\").",
        specs: storm::StormParams::specs,
        defaults: storm::StormParams::lesson_values,
        #[cfg(not(target_arch = "wasm32"))]
        switches: &[("tipping", "Also search the shortest trigger after which the system no longer recovers.")],
        #[cfg(not(target_arch = "wasm32"))]
        run: crate::cli::scenarios::storm,
    },
    Scenario {
        id: "store",
        name: "La llave de idempotencia",
        #[cfg(not(target_arch = "wasm32"))]
        about: "The idempotency store: keys, retries, a retry while the first runs, another body, expiry (exercise 9).",
        #[cfg(not(target_arch = "wasm32"))]
        budget: "scripts of at most 200 actions (the cases have a handful).",
        specs: idempotency::StoreParams::specs,
        defaults: idempotency::StoreParams::lesson_values,
        #[cfg(not(target_arch = "wasm32"))]
        switches: &[],
        #[cfg(not(target_arch = "wasm32"))]
        run: crate::cli::scenarios::store,
    },
    Scenario {
        id: "degradation",
        name: "Degradación",
        #[cfg(not(target_arch = "wasm32"))]
        about: "Graceful degradation: fallbacks counted by reason, and the alert on their share.",
        #[cfg(not(target_arch = "wasm32"))]
        budget: "none needed (one figure per simulated minute, at most 1,440 minutes).",
        specs: degradation::DegradationParams::specs,
        defaults: degradation::DegradationParams::lesson_values,
        #[cfg(not(target_arch = "wasm32"))]
        switches: &[],
        #[cfg(not(target_arch = "wasm32"))]
        run: crate::cli::scenarios::degradation,
    },
    Scenario {
        id: "failmode",
        name: "¿Abierto o cerrado?",
        #[cfg(not(target_arch = "wasm32"))]
        about: "Fail-open or fail-closed: what passes and what stops while a checker is down.",
        #[cfg(not(target_arch = "wasm32"))]
        budget: "none needed (closed form).",
        specs: failmode::FailModeParams::specs,
        defaults: failmode::FailModeParams::lesson_values,
        #[cfg(not(target_arch = "wasm32"))]
        switches: &[],
        #[cfg(not(target_arch = "wasm32"))]
        run: crate::cli::scenarios::failmode,
    },
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
