//! The storm's retries waiting for their send: a calendar queue.
//!
//! Why: in a storm most of the work is retries, and each one waits a random
//! backoff before its send, so the simulation needs them back in time order.
//! A binary heap does it in O(log n) per retry, but each pop is a chain of
//! unpredictable comparisons; with tens of thousands of retries in flight
//! that was over a third of a storm's run. The waits are bounded (the
//! backoff's cap, 10 s), and the simulation asks for retries in time order,
//! so a calendar is enough: a ring of buckets of [`BUCKET_MS`], where a
//! retry is dropped unsorted into the bucket of its time, and a bucket is
//! sorted only when the simulation reaches it (a handful of retries).
//!
//! The order is exactly the heap's: by time, then by request, so a storm
//! plays the same events and gives the same figures with either (the tests
//! run both on random storms and random sequences).
//!
//! The one subtlety is *when* the calendar may move on. The simulation asks
//! "is the earliest retry due by `until`?" ([`TimeQueue::pop_until`]), with
//! `until` the time of its next other event; the calendar never moves its
//! cursor past `until`'s bucket, so a retry pushed afterwards (at `until` or
//! later) never lands in a bucket already passed. If one does (a push in the
//! past), it is inserted in order among those of the bucket being played, so
//! the order holds for any sequence; only the speed assumes the simulation's.
//!
//! ```
//! use sensei_lab::sim::policy::retry_queue::{RetryQueue, TimeQueue};
//! let mut q = RetryQueue::default();
//! q.push(250.0, 1);
//! q.push(20.0, 2);
//! q.push(250.0, 0);
//! assert_eq!(q.pop_until(10.0), None); // nothing due by 10 ms
//! assert_eq!(q.pop_until(300.0), Some((20.0, 2)));
//! assert_eq!(q.pop_until(300.0), Some((250.0, 0))); // equal times: the lower request first
//! assert_eq!(q.pop_until(300.0), Some((250.0, 1)));
//! assert_eq!(q.pop_until(f64::INFINITY), None);
//! ```

use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Retries in time order: what the storm needs of its queue.
pub trait TimeQueue {
    /// Adds request `id`'s retry at `t` ms (`t ≥ 0`).
    fn push(&mut self, t: f64, id: u32);
    /// Takes out the earliest retry (by time, then request) if it is due at
    /// or before `until`.
    fn pop_until(&mut self, until: f64) -> Option<(f64, u32)>;
}

/// A retry as the queue orders it: its time's bits (for times ≥ 0 they
/// order as the times do), then its request.
type Key = (u64, u32);

/// Width of a bucket, in ms (a power of two, so a bucket is found exactly).
pub const BUCKET_MS: f64 = 8.0;
/// Buckets in the ring: 16.4 s ahead of the cursor, more than the longest
/// backoff (10 s). Retries further ahead wait in a heap.
const RING: usize = 2_048;
const MASK: u64 = RING as u64 - 1;

/// The calendar. See the module's documentation.
pub struct RetryQueue {
    /// The retries of the buckets before `cursor`, sorted from last to
    /// first: the next out is at the end.
    now: Vec<Key>,
    /// Bucket `b` (`cursor ≤ b < cursor + RING`) is `ring[b % RING]`, unsorted.
    ring: Vec<Vec<Key>>,
    /// Which of `ring` hold retries, one bit per bucket.
    occupied: [u64; RING / 64],
    /// Retries in `ring`.
    in_ring: usize,
    /// The first bucket not yet taken into `now`.
    cursor: u64,
    /// Retries further than the ring reaches (never with the storm's waits).
    far: BinaryHeap<Reverse<Key>>,
}

impl Default for RetryQueue {
    fn default() -> Self {
        RetryQueue {
            now: Vec::new(),
            ring: (0..RING).map(|_| Vec::new()).collect(),
            occupied: [0; RING / 64],
            in_ring: 0,
            cursor: 0,
            far: BinaryHeap::new(),
        }
    }
}

/// The bucket of a time: monotonic in `t` (a product by a power of two is
/// exact, the conversion rounds down and saturates), so a bucket before
/// another holds only earlier times.
#[inline(always)]
fn bucket(t: f64) -> u64 {
    (t * (1.0 / BUCKET_MS)) as u64
}

impl RetryQueue {
    /// Moves the first occupied bucket up to `until`'s into `now`, sorted,
    /// or, if there is none, the cursor just past `until`'s bucket.
    fn load(&mut self, until: f64) {
        let last = bucket(until);
        if last < self.cursor {
            return;
        }
        if self.in_ring > 0 {
            // Every retry in the ring is within RING buckets of the cursor.
            let span = (last - self.cursor).min(MASK);
            if let Some(k) = self.first_occupied(span) {
                let b = self.cursor + k;
                let slot = (b & MASK) as usize;
                std::mem::swap(&mut self.now, &mut self.ring[slot]);
                self.occupied[slot / 64] &= !(1 << (slot % 64));
                self.in_ring -= self.now.len();
                self.now.sort_unstable_by(|a, b| b.cmp(a));
                self.cursor = b + 1;
                return;
            }
        }
        self.cursor = last.saturating_add(1);
    }

    /// The distance from the cursor to the first occupied bucket, if it is
    /// at most `span`.
    fn first_occupied(&self, span: u64) -> Option<u64> {
        let mut k = 0u64;
        while k <= span {
            let slot = ((self.cursor + k) & MASK) as usize;
            // The bits of this word from `slot` on.
            let bits = self.occupied[slot / 64] >> (slot % 64);
            if bits != 0 {
                let k = k + bits.trailing_zeros() as u64;
                return (k <= span).then_some(k);
            }
            k += 64 - (slot % 64) as u64;
        }
        None
    }
}

impl TimeQueue for RetryQueue {
    #[inline]
    fn push(&mut self, t: f64, id: u32) {
        let key = (t.to_bits(), id);
        let b = bucket(t);
        if b < self.cursor {
            // A bucket already taken: among those waiting in `now`, in order.
            let at = self.now.partition_point(|x| *x > key);
            self.now.insert(at, key);
        } else if b - self.cursor <= MASK {
            let slot = (b & MASK) as usize;
            self.ring[slot].push(key);
            self.occupied[slot / 64] |= 1 << (slot % 64);
            self.in_ring += 1;
        } else {
            self.far.push(Reverse(key));
        }
    }

    #[inline]
    fn pop_until(&mut self, until: f64) -> Option<(f64, u32)> {
        if self.now.is_empty() {
            self.load(until);
        }
        // `now` holds the ring's earliest; a far retry may be earlier still.
        let near = self.now.last().copied();
        let key = match (near, self.far.peek()) {
            (Some(n), Some(Reverse(f))) if *f < n => *f,
            (Some(n), _) => n,
            (None, Some(Reverse(f))) => *f,
            (None, None) => return None,
        };
        let t = f64::from_bits(key.0);
        if t > until {
            return None;
        }
        if near == Some(key) {
            self.now.pop();
        } else {
            self.far.pop();
        }
        Some((t, key.1))
    }
}

/// The reference: one binary heap (what the storm used before the
/// calendar), for the tests.
#[cfg(test)]
impl TimeQueue for BinaryHeap<Reverse<Key>> {
    fn push(&mut self, t: f64, id: u32) {
        BinaryHeap::push(self, Reverse((t.to_bits(), id)));
    }

    fn pop_until(&mut self, until: f64) -> Option<(f64, u32)> {
        let Reverse((t, _)) = self.peek()?;
        if f64::from_bits(*t) > until {
            return None;
        }
        self.pop().map(|Reverse((t, id))| (f64::from_bits(t), id))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::policy::rng::{PyRandom, UnitRng};

    /// Random pushes and pops, played on the calendar and on one heap.
    fn play(seed: u32, steps: usize, wild: bool) {
        let mut rng = PyRandom::new(seed);
        let mut cal = RetryQueue::default();
        let mut heap: BinaryHeap<Reverse<Key>> = BinaryHeap::new();
        let mut now = 0.0f64;
        let mut id = 0u32;
        let (mut pushed, mut popped) = (0usize, 0usize);
        for step in 0..steps {
            let r = rng.random();
            if r < 0.45 {
                // A retry after a wait: mostly short, some up to the cap, a
                // few beyond the ring (far), some at the same time as another.
                let wait = match (rng.random() * 10.0) as u32 {
                    0 => 0.0,
                    1..=5 => rng.random() * 50.0,
                    6..=8 => rng.random() * 10_000.0,
                    _ => 16_000.0 + rng.random() * 30_000.0,
                };
                // Wild: also pushes in the past and equal times for other requests.
                let t = if wild && rng.random() < 0.2 {
                    (now - rng.random() * 100.0).max(0.0)
                } else {
                    now + wait
                };
                let t = if rng.random() < 0.1 { t.floor() } else { t };
                id = id.wrapping_add(1 + (rng.random() * 3.0) as u32);
                let who = if wild { (rng.random() * 50.0) as u32 } else { id };
                cal.push(t, who);
                TimeQueue::push(&mut heap, t, who);
                pushed += 1;
            } else {
                // The next other event: soon, or far, or never.
                let until = match (rng.random() * 10.0) as u32 {
                    0 => f64::INFINITY,
                    1 => now + rng.random() * 40_000.0,
                    2 if wild => now - rng.random() * 500.0,
                    _ => now + rng.random() * 30.0,
                };
                let a = cal.pop_until(until);
                let b = heap.pop_until(until);
                assert_eq!(a, b, "seed {seed}, step {step}, until {until}");
                match a {
                    Some((t, _)) => {
                        popped += 1;
                        now = now.max(t);
                    }
                    None if until.is_finite() => now = now.max(until),
                    None => {}
                }
            }
        }
        while let Some(b) = heap.pop_until(f64::INFINITY) {
            assert_eq!(cal.pop_until(f64::INFINITY), Some(b));
        }
        assert_eq!(cal.pop_until(f64::INFINITY), None);
        assert!(popped > steps / 10 && pushed > steps / 10);
    }

    #[test]
    fn the_same_order_as_one_heap() {
        for seed in 0..40 {
            play(seed, 20_000, false);
        }
    }

    #[test]
    fn the_same_order_as_one_heap_for_any_sequence() {
        // Pushes in the past, `until` going back, one request twice.
        for seed in 100..140 {
            play(seed, 20_000, true);
        }
    }

    #[test]
    fn bucket_is_monotonic() {
        let mut rng = PyRandom::new(3);
        for _ in 0..100_000 {
            let a = rng.random() * 400_000.0;
            let b = f64::from_bits(a.to_bits() + 1);
            assert!(bucket(a) <= bucket(b));
            assert_eq!(bucket(a), (a / BUCKET_MS).floor() as u64);
        }
    }
}
