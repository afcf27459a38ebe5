//! The policies the scenarios are made of, each small and tested alone:
//! the wait before a retry (`backoff`), a retry budget (`budget`), the
//! calendar of pending retries (`retry_queue`), and what every random draw
//! and Python-exact float goes through (`rng`, `pyfloat`). (Two policies
//! live beside the scenario that plays them: the circuit breaker's state
//! machine in `breaker`, the idempotency store in `idempotency`.)

pub mod backoff;
pub mod budget;
pub mod pyfloat;
pub mod retry_queue;
pub mod rng;
