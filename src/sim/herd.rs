//! The thundering herd: many clients fail at once and retry with backoff.
//!
//! Why: backoff alone does not separate clients that failed together. If a
//! thousand clients fail at t = 0 and all wait 200 ms, they come back in the
//! same 10 ms window, the server takes its 50 and the other 950 fail again,
//! together. Jitter spreads the same retries over time, so the server sees
//! a drizzle instead of a wave.
//!
//! This is the lesson's Python program (`simular`) in Rust, generalised to a
//! chosen window length, seed, cap and jitter, and exact to it: same RNG
//! (CPython's MT19937), same order of draws, same float arithmetic, same
//! event order (time, then client, then attempt number). For any parameters
//! it gives what the Python program gives.
//!
//! ```
//! use sensei_lab::sim::herd::{simulate, HerdParams};
//! use sensei_lab::sim::backoff::Jitter;
//! let r = simulate(&HerdParams::default()); // full jitter, the lesson's "con jitter"
//! assert_eq!((r.served, r.gave_up, r.peak, r.attempts), (1000, 0, 61, 1061));
//! ```

use super::backoff::{Backoff, Jitter};
use super::params::{Kind, Spec};
use super::pyfloat;
use super::rng::PyRandom;
use serde::{Deserialize, Serialize};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Parameters of the herd simulation. Defaults are the lesson's values.
///
/// Bounds (also in [`HerdParams::specs`]): clients 1–100,000; capacity
/// 1–100,000 per window; window 1–1,000 ms; base 1–10,000 ms; cap none or
/// 1–600,000 ms; retries 1–10; seed 0–4,294,967,295. The work is at most
/// clients × retries attempts (one million).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(not(target_arch = "wasm32"), derive(clap::Args))]
#[serde(rename_all = "kebab-case", default)]
pub struct HerdParams {
    /// Clients that fail together at t = 0 [1–100000; lesson: 1000]
    #[cfg_attr(not(target_arch = "wasm32"), arg(long, default_value_t = 1000))]
    pub clients: u32,
    /// Requests the server serves in each window; it rejects the rest [1–100000; lesson: 50]
    #[cfg_attr(not(target_arch = "wasm32"), arg(long, default_value_t = 50))]
    pub capacity: u32,
    /// Length of the server's window in ms [1–1000; lesson: 10]
    #[cfg_attr(not(target_arch = "wasm32"), arg(long, default_value_t = 10))]
    pub window_ms: u32,
    /// Backoff base in ms: the wait before retry n is at most base × 2^n [1–10000; lesson: 100]
    #[cfg_attr(not(target_arch = "wasm32"), arg(long, default_value_t = 100))]
    pub base_ms: u32,
    /// Optional cap on any wait, in ms [1–600000; lesson: none]
    #[cfg_attr(not(target_arch = "wasm32"), arg(long))]
    pub cap_ms: Option<u32>,
    /// Retries per client; a client gives up when its last one is rejected [1–10; lesson: 3]
    #[cfg_attr(not(target_arch = "wasm32"), arg(long, default_value_t = 3))]
    pub retries: u32,
    /// Jitter applied to each wait; the widget compares it with none [lesson: full, beside none]
    #[cfg_attr(not(target_arch = "wasm32"), arg(long, value_enum, default_value_t = Jitter::Full))]
    pub jitter: Jitter,
    /// Seed of Python's random.Random [0–4294967295; lesson: 7]
    #[cfg_attr(not(target_arch = "wasm32"), arg(long, default_value_t = 7))]
    pub seed: u32,
}

impl Default for HerdParams {
    fn default() -> Self {
        Self {
            clients: 1000,
            capacity: 50,
            window_ms: 10,
            base_ms: 100,
            cap_ms: None,
            retries: 3,
            jitter: Jitter::Full,
            seed: 7,
        }
    }
}

const SPECS: &[Spec] = &[
    Spec {
        key: "clients",
        label: "Clientes",
        unit: "",
        unset: "",
        toggle: "",
        kind: Kind::Int {
            min: 1,
            max: 100_000,
            optional: false,
        },
    },
    Spec {
        key: "capacity",
        label: "Capacidad por ventana",
        unit: "",
        unset: "",
        toggle: "",
        kind: Kind::Int {
            min: 1,
            max: 100_000,
            optional: false,
        },
    },
    Spec {
        key: "window-ms",
        label: "Ventana",
        unit: "ms",
        unset: "",
        toggle: "",
        kind: Kind::Int {
            min: 1,
            max: 1_000,
            optional: false,
        },
    },
    Spec {
        key: "base-ms",
        label: "Base del backoff",
        unit: "ms",
        unset: "",
        toggle: "",
        kind: Kind::Int {
            min: 1,
            max: 10_000,
            optional: false,
        },
    },
    Spec {
        key: "cap-ms",
        label: "Tope de la espera",
        unit: "ms",
        unset: "sin tope",
        toggle: "con tope",
        kind: Kind::Int {
            min: 1,
            max: 600_000,
            optional: true,
        },
    },
    Spec {
        key: "retries",
        label: "Reintentos por cliente",
        unit: "",
        unset: "",
        toggle: "",
        kind: Kind::Int {
            min: 1,
            max: 10,
            optional: false,
        },
    },
    Spec {
        key: "jitter",
        label: "Jitter",
        unit: "",
        unset: "",
        toggle: "",
        kind: Kind::Choice {
            options: super::backoff::JITTER_OPTIONS,
        },
    },
    Spec {
        key: "seed",
        label: "Semilla",
        unit: "",
        unset: "",
        toggle: "",
        kind: Kind::Int {
            min: 0,
            max: u32::MAX as i64,
            optional: false,
        },
    },
];

crate::impl_params!(HerdParams, SPECS, {
    "clients" => clients,
    "capacity" => capacity,
    "window-ms" => window_ms,
    "base-ms" => base_ms,
    "cap-ms" => cap_ms,
    "retries" => retries,
    "jitter" => jitter,
    "seed" => seed,
});

/// What one run of the simulation produced.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HerdResult {
    /// Clients whose attempt the server accepted.
    pub served: u32,
    /// Clients whose last retry was rejected too.
    pub gave_up: u32,
    /// Most attempts that arrived in one window.
    pub peak: u32,
    /// Attempts that arrived in all (every retry of every client).
    pub attempts: u64,
    /// Window length the counts refer to.
    pub window_ms: u32,
    /// Attempts per window, as `(window index, count)`, in time order; only
    /// windows where something arrived. Window `i` spans
    /// `[i × window_ms, (i + 1) × window_ms)`.
    pub windows: Vec<(u64, u32)>,
}

impl HerdResult {
    /// The line the lesson's program prints for this run, e.g.
    /// `sin jitter: 150 atendidos, 850 se rinden, pico de 1000 en 10 ms, 2850 intentos`.
    pub fn lesson_line(&self, jitter: Jitter) -> String {
        let label = match jitter {
            Jitter::None => "sin jitter",
            Jitter::Full => "con jitter",
            Jitter::Equal => "con equal jitter",
            Jitter::Decorrelated => "con decorrelated jitter",
        };
        format!(
            "{label}: {} atendidos, {} se rinden, pico de {} en {} ms, {} intentos",
            self.served, self.gave_up, self.peak, self.window_ms, self.attempts
        )
    }
}

/// A pending attempt: `(time, client, attempt number)`, ordered as Python
/// orders the tuples in its heap. The key is two integers: times here are
/// never negative, and the bits of a non-negative `f64` order as its value,
/// so comparing `(t.to_bits(), client << 32 | n)` is Python's tuple order,
/// and a comparison is two integer compares (the heap's hot path).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Key(u64, u64);

impl Key {
    fn new(t: f64, client: u32, n: u32) -> Self {
        debug_assert!(t >= 0.0 && t.is_sign_positive());
        Key(t.to_bits(), ((client as u64) << 32) | n as u64)
    }
    fn t(self) -> f64 {
        f64::from_bits(self.0)
    }
    fn client(self) -> u32 {
        (self.1 >> 32) as u32
    }
    fn n(self) -> u32 {
        self.1 as u32
    }
}

/// The attempts still to come, by window: a calendar queue. Attempts leave
/// in exactly the order of a single heap (time, then client, then attempt
/// number), but each window's attempts are put in order once, when the
/// window comes up, instead of going through a heap of everything one by one.
///
/// Putting a window in order is a bucket sort: the window is cut into about
/// as many buckets as it has attempts, each attempt goes to its bucket by its
/// time (a monotone function of the time, so bucket order is time order), and
/// only attempts sharing a bucket are compared. Without jitter every attempt
/// of a window has the same time: one bucket, already in client order, which
/// the sort sees in one pass.
struct Calendar {
    window: f64,
    inv_window: f64,
    /// The last time whose window was computed, and that window: without
    /// jitter, whole runs of attempts share a time.
    last: (u64, u64),
    /// The window being played, in order; `next` is the first not yet played …
    cur: u64,
    sorted: Vec<Key>,
    next: usize,
    /// … and those added to it while it is played (a wait shorter than what is left of it).
    late: BinaryHeap<Reverse<Key>>,
    /// Windows `cur + 1 ..= cur + ring.len()`, at `w & mask`, unsorted.
    ring: Vec<Vec<Key>>,
    mask: u64,
    in_ring: usize,
    /// Windows further away.
    far: std::collections::BTreeMap<u64, Vec<Key>>,
    /// Scratch space of the bucket sort, kept between windows.
    unsorted: Vec<Key>,
    buckets: Vec<u32>,
    starts: Vec<u32>,
}

/// The most windows the ring holds; waits beyond it go to `far`.
const MAX_RING: u64 = 4_096;

impl Calendar {
    /// A calendar for windows of `window` ms whose waits are at most `longest` ms.
    fn new(window: f64, longest: f64) -> Self {
        let span = (longest / window).min(MAX_RING as f64) as u64 + 2;
        let len = span.next_power_of_two().clamp(8, MAX_RING);
        Calendar {
            window,
            inv_window: 1.0 / window,
            last: (f64::NAN.to_bits(), 0),
            cur: 0,
            sorted: Vec::new(),
            next: 0,
            late: BinaryHeap::new(),
            ring: (0..len).map(|_| Vec::new()).collect(),
            mask: len - 1,
            in_ring: 0,
            far: std::collections::BTreeMap::new(),
            unsorted: Vec::new(),
            buckets: Vec::new(),
            starts: Vec::new(),
        }
    }

    #[inline]
    fn window_of(&self, t: f64) -> u64 {
        pyfloat::floor_div_recip(t, self.window, self.inv_window) as i64 as u64
    }

    #[inline]
    fn push(&mut self, k: Key) {
        let w = if k.0 == self.last.0 {
            self.last.1
        } else {
            let w = self.window_of(k.t());
            self.last = (k.0, w);
            w
        };
        if w <= self.cur {
            self.late.push(Reverse(k));
        } else if w - self.cur <= self.mask + 1 {
            self.ring[(w & self.mask) as usize].push(k);
            self.in_ring += 1;
        } else {
            self.far.entry(w).or_default().push(k);
        }
    }

    /// The next attempt and its window.
    fn pop(&mut self) -> Option<(Key, u64)> {
        loop {
            let a = self.sorted.get(self.next).copied();
            let b = self.late.peek().map(|r| r.0);
            match (a, b) {
                (Some(x), Some(y)) if y < x => return self.pop_late(),
                (Some(x), _) => {
                    self.next += 1;
                    return Some((x, self.cur));
                }
                (None, Some(_)) => return self.pop_late(),
                (None, None) => {
                    if !self.advance() {
                        return None;
                    }
                }
            }
        }
    }

    fn pop_late(&mut self) -> Option<(Key, u64)> {
        let k = self.late.pop()?.0;
        Some((k, self.window_of(k.t())))
    }

    /// Moves to the next window that has attempts; false when none is left.
    fn advance(&mut self) -> bool {
        let len = self.mask + 1;
        let next = if self.in_ring > 0 {
            (1..=len)
                .map(|d| self.cur + d)
                .find(|w| !self.ring[(w & self.mask) as usize].is_empty())
        } else {
            None
        };
        let next = match (next, self.far.keys().next().copied()) {
            (Some(a), Some(b)) => a.min(b),
            (a, b) => match a.or(b) {
                Some(w) => w,
                None => return false,
            },
        };
        self.cur = next;
        self.unsorted.clear();
        // This window's slot first: once drained, the slot belongs to window cur + len.
        let slot = &mut self.ring[(self.cur & self.mask) as usize];
        if !slot.is_empty() {
            self.in_ring -= slot.len();
            // A swap, not a copy: buffers go round between the slots and the sort.
            std::mem::swap(slot, &mut self.unsorted);
        }
        // Far windows that the ring now reaches move into it.
        while let Some((&w, _)) = self.far.iter().next() {
            if w - self.cur > len {
                break;
            }
            let v = self.far.remove(&w).unwrap_or_default();
            if w == self.cur {
                self.unsorted.extend(v);
            } else {
                self.in_ring += v.len();
                self.ring[(w & self.mask) as usize].extend(v);
            }
        }
        self.sort_window();
        true
    }

    /// Puts the current window's attempts in order, into `sorted`.
    fn sort_window(&mut self) {
        let n = self.unsorted.len();
        self.next = 0;
        self.sorted.clear();
        if self.unsorted.is_sorted() {
            // Without jitter, the usual case: nothing to do.
            std::mem::swap(&mut self.sorted, &mut self.unsorted);
            return;
        }
        if n <= 32 {
            self.sorted.extend_from_slice(&self.unsorted);
            self.sorted.sort_unstable();
            return;
        }
        let nb = n.next_power_of_two();
        let start = self.cur as f64 * self.window;
        let scale = nb as f64 / self.window;
        // Monotone in t (each step rounds monotonically), so bucket order is time order.
        let bucket = |k: &Key| (((k.t() - start) * scale) as i64).clamp(0, nb as i64 - 1) as u32;
        self.buckets.clear();
        self.buckets.extend(self.unsorted.iter().map(bucket));
        // starts[b + 1] counts bucket b, then becomes where bucket b + 1 begins.
        self.starts.clear();
        self.starts.resize(nb + 1, 0);
        for &b in &self.buckets {
            self.starts[b as usize + 1] += 1;
        }
        let mut sum = 0;
        for s in self.starts.iter_mut() {
            sum += *s;
            *s = sum;
        }
        self.sorted.resize(n, Key(0, 0));
        for (k, &b) in self.unsorted.iter().zip(&self.buckets) {
            let at = &mut self.starts[b as usize];
            self.sorted[*at as usize] = *k;
            *at += 1;
        }
        // Now starts[b] is where bucket b ends; each holds a few attempts.
        let mut from = 0;
        for &to in &self.starts[..nb] {
            let to = to as usize;
            if to - from > 1 {
                insertion_sort(&mut self.sorted[from..to]);
            }
            from = to;
        }
    }
}

/// Sorts a few keys (a bucket holds about one); many, and it hands over.
fn insertion_sort(v: &mut [Key]) {
    if v.len() > 24 {
        v.sort_unstable();
        return;
    }
    for i in 1..v.len() {
        let k = v[i];
        let mut j = i;
        while j > 0 && v[j - 1] > k {
            v[j] = v[j - 1];
            j -= 1;
        }
        v[j] = k;
    }
}

/// Runs the simulation. Parameters outside their bounds are clamped first
/// (see [`crate::sim::params::clamp`]), so the work is always bounded.
pub fn simulate(params: &HerdParams) -> HerdResult {
    let (p, _) = super::params::clamp(params);
    let mut rng = PyRandom::new(p.seed);
    let backoff = Backoff {
        base_ms: p.base_ms as f64,
        cap_ms: p.cap_ms.map(f64::from),
        jitter: p.jitter,
    };
    let window = p.window_ms as f64;
    let clients = p.clients as usize;
    // Only decorrelated jitter reads the previous wait of each client.
    let mut prev = vec![backoff.base_ms; if p.jitter == Jitter::Decorrelated { clients } else { 0 }];

    let longest = match p.jitter {
        Jitter::Decorrelated => backoff.base_ms * 3f64.powi(p.retries as i32),
        _ => backoff.ceiling(p.retries),
    }
    .min(p.cap_ms.map_or(f64::INFINITY, f64::from));
    let mut queue = Calendar::new(window, longest);
    for c in 0..p.clients {
        let w = backoff.wait(1, backoff.base_ms, &mut rng);
        if let Some(slot) = prev.get_mut(c as usize) {
            *slot = w;
        }
        queue.push(Key::new(w, c, 1));
    }

    let mut windows: Vec<(u64, u32)> = Vec::new();
    let (mut served, mut gave_up) = (0u32, 0u32);
    // Attempts leave the queue in time order, so windows only grow.
    while let Some((key, w)) = queue.pop() {
        let (t, client, n) = (key.t(), key.client(), key.n());
        let count = match windows.last_mut() {
            Some((idx, count)) if *idx == w => {
                *count += 1;
                *count
            }
            _ => {
                windows.push((w, 1));
                1
            }
        };
        if count <= p.capacity {
            served += 1;
        } else if n < p.retries {
            let last = prev.get(client as usize).copied().unwrap_or(backoff.base_ms);
            let wait = backoff.wait(n + 1, last, &mut rng);
            if let Some(slot) = prev.get_mut(client as usize) {
                *slot = wait;
            }
            queue.push(Key::new(t + wait, client, n + 1));
        } else {
            gave_up += 1;
        }
    }

    HerdResult {
        served,
        gave_up,
        peak: windows.iter().map(|(_, c)| *c).max().unwrap_or(0),
        attempts: windows.iter().map(|(_, c)| *c as u64).sum(),
        window_ms: p.window_ms,
        windows,
    }
}

/// The lesson's program: both runs at the lesson's values, as it prints them.
pub fn lesson_program_output() -> [String; 2] {
    [Jitter::None, Jitter::Full].map(|jitter| {
        let p = HerdParams {
            jitter,
            ..HerdParams::default()
        };
        simulate(&p).lesson_line(jitter)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The calendar gives attempts in exactly the order of one heap, also
    /// when waits reach past its ring (1 ms windows, waits of seconds).
    #[test]
    fn the_calendar_pops_as_one_heap_would() {
        for longest in [100.0, 1e9] {
            pops_as_one_heap(longest);
        }
    }

    fn pops_as_one_heap(longest: f64) {
        for (window, base, jitter, seed) in [
            (1.0, 641.0, Jitter::Decorrelated, 940_819_969),
            (1.0, 3_000.0, Jitter::Full, 7),
            (10.0, 100.0, Jitter::None, 7),
            (3.0, 9_000.0, Jitter::Equal, 11),
        ] {
            let b = Backoff {
                base_ms: base,
                cap_ms: None,
                jitter,
            };
            let mut rng = PyRandom::new(seed);
            let mut cal = Calendar::new(window, longest);
            let mut heap = BinaryHeap::new();
            let mut prev = 0.0;
            for c in 0..3_000u32 {
                let k = Key::new(b.wait(1 + c % 4, base, &mut rng), c, 1);
                cal.push(k);
                heap.push(Reverse(k));
            }
            let mut n = 0;
            while let Some(Reverse(k)) = heap.pop() {
                assert_eq!(cal.pop(), Some((k, cal.window_of(k.t()))), "pop {n}");
                assert!(k.t() >= prev);
                prev = k.t();
                n += 1;
                // Some attempts come back later, a few into the window being played.
                if n % 3 == 0 {
                    let again = Key::new(
                        k.t() + b.wait(2, base, &mut rng) * (n % 2) as f64,
                        k.client(),
                        k.n() + 1,
                    );
                    cal.push(again);
                    heap.push(Reverse(again));
                }
            }
            assert_eq!(cal.pop(), None);
        }
    }

    #[test]
    fn lesson_figures_to_the_character() {
        let [a, b] = lesson_program_output();
        assert_eq!(
            a,
            "sin jitter: 150 atendidos, 850 se rinden, pico de 1000 en 10 ms, 2850 intentos"
        );
        assert_eq!(
            b,
            "con jitter: 1000 atendidos, 0 se rinden, pico de 61 en 10 ms, 1061 intentos"
        );
    }
}
