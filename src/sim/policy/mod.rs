//! The policies the scenarios are made of, each small and tested alone:
//! the wait before a retry (`backoff`), a retry budget (`budget`), the
//! calendar of pending retries (`retry_queue`), and what every random draw
//! and Python-exact float goes through (`rng`, `pyfloat`), the circuit
//! breaker's state machine (`breaker`), the idempotency store
//! (`idempotency_store`), and simulated time where its units meet (`time`). The scenarios that play them re-export what their
//! callers name (`sim::breaker::Breaker`, `sim::idempotency::Store`).

pub mod backoff;
pub mod breaker;
pub mod budget;
pub mod idempotency_store;
pub mod pyfloat;
pub mod retry_queue;
pub mod rng;
pub mod time;
