//! What a scenario is on the command line, declared by each core module
//! beside its parameters (natively only: the browser's build carries none of
//! it): `Scenario` (what `--help` says of it, its work budget, its run as
//! the JSON's `result` and `notes` and as Spanish lines), the `Session` a
//! run gets from the command line, and the `Run` it gives back.
//!
//! The list of scenarios (`crate::scenario`, above the core) names every core
//! module; the core names only this, never the list.

use crate::sim::params::Params;

/// A scenario on the command line, declared beside its parameters in its
/// core module (natively only: the browser's build carries none of it).
pub trait Scenario: Params {
    /// What it is: `--help`'s first line, `sensei-lab scenarios`.
    const ABOUT: &'static str;
    /// The most work one run may do and what happens past it: its joint
    /// constraint (rate × duration within the budget, and so on), listed in
    /// `--help`.
    const BUDGET: &'static str;
    /// Why these parameters, each within its bounds, together ask more than
    /// [`Scenario::BUDGET`] allows, when that is known before the run (rate ×
    /// duration): the command line refuses them with exit status 2 and this
    /// message; the page plays what fits and says so in a note (the same
    /// core function decides both). A budget only a run can reach (a storm
    /// that grows) is not here: that run stops and says it was cut.
    fn beyond_budget(_p: &Self) -> Option<String> {
        None
    }
    /// Switches of the command line only (name, help).
    const SWITCHES: &'static [(&'static str, &'static str)] = &[];
    /// One run: the core's call through `session.time` (so `--repeat` times
    /// the core alone), its figures as the JSON's `result`, its notes, and the
    /// run in the lesson's words.
    fn report(p: &Self, session: &mut impl Session) -> Run;
}

/// What a scenario's run gets from the command line: its switches, and a
/// clock around the core's call (the core has none; `cli::Ctx` keeps it).
pub trait Session {
    /// Whether a switch of [`Scenario::SWITCHES`] was given.
    fn on(&self, switch: &str) -> bool;
    /// Runs `core` (timed under `--repeat`) and gives its result.
    fn time<T>(&mut self, core: impl FnMut() -> T) -> T;
}

/// What one run gives the command line.
pub struct Run {
    /// The scenario's figures (the JSON's `result`).
    pub result: serde_json::Value,
    /// Whether its work budget cut it (the JSON's `truncated`).
    pub truncated: bool,
    /// What a reader must see beside the figures, in Spanish (`notes`; `nota:` lines).
    pub notes: Vec<String>,
    /// The run in the lesson's words.
    pub lines: Vec<String>,
}

impl Run {
    /// A whole run with nothing to note.
    pub fn plain(result: serde_json::Value, lines: Vec<String>) -> Self {
        Run {
            result,
            truncated: false,
            notes: Vec::new(),
            lines,
        }
    }
}
