//! The herd as the lesson's program runs it (`simular` in `manada.py`): one
//! heap of pending attempts, ordered as Python orders its tuples (time,
//! client, attempt number), popped one at a time. The server serves the
//! first `capacity` attempts of each window; a rejected client draws its next
//! wait from the one random stream and goes back in the heap, until its last
//! retry. Read this first: the engine the lab runs (`fast.rs`) must give
//! exactly what this gives, and the tests compare them over random
//! parameters of every kind.

use super::{HerdParams, HerdResult};
use crate::sim::policy::backoff::Backoff;
use crate::sim::policy::pyfloat;
use crate::sim::policy::rng::PyRandom;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// A pending attempt: `(time, client, attempt number)`, ordered as Python
/// orders the tuples in its heap. The key is two integers: times here are
/// never negative, and the bits of a non-negative `f64` order as its value,
/// so comparing `(t.to_bits(), client << 32 | n)` is Python's tuple order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Key(u64, u64);

impl Key {
    pub(super) fn new(t: f64, client: u32, n: u32) -> Self {
        debug_assert!(t >= 0.0 && t.is_sign_positive());
        Key(t.to_bits(), ((client as u64) << 32) | n as u64)
    }
    pub(super) fn t(self) -> f64 {
        f64::from_bits(self.0)
    }
    pub(super) fn client(self) -> u32 {
        (self.1 >> 32) as u32
    }
    pub(super) fn n(self) -> u32 {
        self.1 as u32
    }
}

/// What became of one attempt, as the reference decides it on arrival.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fate {
    /// Within the window's capacity: the client is served.
    Served,
    /// Rejected; the client will retry.
    Rejected,
    /// Rejected, and it was the client's last retry: it gives up.
    GaveUp,
}

/// The lesson's algorithm, for any parameters (within their bounds).
pub fn simulate(p: &HerdParams) -> HerdResult {
    simulate_observed(p, |_, _, _, _| {})
}

/// [`simulate`], telling `on_attempt(time ms, client, attempt number from 1,
/// fate)` of every attempt in the order the heap pops them (time order):
/// what the herd's player plays ([`super::trace`]).
pub fn simulate_observed(p: &HerdParams, mut on_attempt: impl FnMut(f64, u32, u32, Fate)) -> HerdResult {
    let mut rng = PyRandom::new(p.seed);
    let b = Backoff {
        base_ms: p.base_ms as f64,
        cap_ms: p.cap_ms.map(f64::from),
        jitter: p.jitter,
    };
    let mut prev = vec![b.base_ms; p.clients as usize];
    let mut heap = BinaryHeap::new();
    for c in 0..p.clients {
        prev[c as usize] = b.wait(1, b.base_ms, &mut rng);
        heap.push(Reverse(Key::new(prev[c as usize], c, 1)));
    }
    let mut windows: Vec<(u64, u32)> = Vec::new();
    let (mut served, mut gave_up) = (0, 0);
    while let Some(Reverse(k)) = heap.pop() {
        let w = pyfloat::floor_div(k.t(), p.window_ms as f64) as u64;
        match windows.last_mut() {
            Some((i, count)) if *i == w => *count += 1,
            _ => windows.push((w, 1)),
        }
        let (client, n) = (k.client() as usize, k.n());
        if windows.last().unwrap().1 <= p.capacity {
            served += 1;
            on_attempt(k.t(), client as u32, n, Fate::Served);
        } else if n < p.retries {
            on_attempt(k.t(), client as u32, n, Fate::Rejected);
            prev[client] = b.wait(n + 1, prev[client], &mut rng);
            heap.push(Reverse(Key::new(k.t() + prev[client], client as u32, n + 1)));
        } else {
            gave_up += 1;
            on_attempt(k.t(), client as u32, n, Fate::GaveUp);
        }
    }
    HerdResult {
        served,
        gave_up,
        peak: windows.iter().map(|w| w.1).max().unwrap_or(0),
        attempts: windows.iter().map(|w| w.1 as u64).sum(),
        window_ms: p.window_ms,
        windows,
    }
}
