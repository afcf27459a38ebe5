//! Sensei Lab: an interactive teaching lab for the lesson
//! «Timeouts, reintentos e idempotencia».
//!
//! * [`sim`]: the simulation core (pure, deterministic, no browser).
//! * [`lesson`]: the lessons as data: markdown, front matter and directives.
//! * [`exercise`]: the nine exercises as data: statements, variants, answers
//!   read as people type them, marks, solutions, progress.
//! * [`chart`]: charts drawn on any plotters backend.
//! * [`fmt`]: numbers as the lesson writes them.
//! * [`route`]: the lab's URLs, as paths and back.
//! * [`scenario`]: the one list of the live pieces (widgets, subcommands, their parameters).
//! * [`text`]: letters as the lessons write them (lower-casing Spanish without Unicode's tables, for size).
//! * [`ui`]: the Yew front end, the only part that knows the browser; natively,
//!   it prerenders every page (`sensei-lab prerender`).
//! * `cli` (native only): the `sensei-lab` command line.

pub mod chart;
pub mod exercise;
pub mod fmt;
pub mod lesson;
pub mod route;
pub mod scenario;
pub mod sim;
pub mod text;

#[cfg(not(target_arch = "wasm32"))]
pub mod cli;
pub mod ui;
