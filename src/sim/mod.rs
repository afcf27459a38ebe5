//! The resilience and simulation core.
//!
//! Pure Rust: no browser, no clock, no OS randomness. Simulated time is a
//! value (milliseconds as `f64`), and every random draw comes from an RNG
//! that the caller passes in, seeded. Each policy is a small function or
//! state machine that can be tested alone; each scenario has one parameter
//! struct (see [`params`]) shared by the widget, the URL and the CLI.

pub mod breaker;
pub mod chain;
pub mod clocks;
pub mod degradation;
pub mod failmode;
pub mod failures;
pub mod figures;
pub mod hedging;
pub mod herd;
pub mod idempotency;
pub mod inflight;
pub mod params;
pub mod playback;
pub mod policy;
/// CPython's printable characters (native only: the browser reprs only the lesson's own title).
#[cfg(not(target_arch = "wasm32"))]
pub mod printable;
pub mod retries;
/// What a scenario is on the command line (native only).
#[cfg(not(target_arch = "wasm32"))]
pub mod scenario;
pub mod shedding;
pub mod storm;
