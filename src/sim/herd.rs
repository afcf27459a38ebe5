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

/// The attempts still to come, by window: a calendar queue. The simulation
/// takes them a whole window at a time ([`Calendar::advance`]), unsorted, and
/// asks for order only where order matters ([`Calendar::order_from`]).
///
/// Order matters less than one might think. In a window the server serves the
/// first `capacity` attempts in (time, client, attempt) order and rejects the
/// rest; a rejected attempt draws its wait from the one random stream, so the
/// rejected ones must be taken in exactly Python's order, but which of the
/// served is first does not change a figure. A window with no more attempts
/// than capacity needs no order at all, and one with more needs its order only
/// from rank `capacity` on.
///
/// Putting a window in order is a bucket sort: the window is cut into about
/// as many buckets as it has attempts, each attempt goes to its bucket by its
/// time (a monotone function of the time, so bucket order is time order), and
/// only attempts sharing a bucket are compared. Without jitter every attempt
/// of a window has the same time and they arrive in client order: already
/// sorted, which one pass sees.
///
/// A client has at most one attempt pending, so the calendar keeps each
/// client's pending time and attempt number by client, and the windows hold
/// only client numbers (4 bytes an attempt instead of 16): less memory to
/// fill, and in a run of 300,000 attempts fresh memory is a large part of the
/// cost (every page is faulted in once).
struct Calendar {
    window: f64,
    inv_window: f64,
    /// The last time whose window was computed, and that window: without
    /// jitter, whole runs of attempts share a time.
    last: (u64, u64),
    /// The window being played (none before the first [`Calendar::advance`]) …
    cur: u64,
    started: bool,
    /// … its attempts' clients, as they came (see [`Calendar::advance`]) …
    batch: Vec<u32>,
    /// … those added to it while it is played (a wait shorter than what is left of it).
    late: BinaryHeap<Reverse<Key>>,
    /// Windows `cur + 1 ..= horizon`, at `w & mask`, unsorted (before the
    /// first window is played, `0 ..= horizon`): a slot holds one window.
    ring: Vec<Vec<u32>>,
    mask: u64,
    horizon: u64,
    in_ring: usize,
    /// Windows further away.
    far: std::collections::BTreeMap<u64, Vec<u32>>,
    /// Each client's pending attempt: its time and number.
    at: Vec<f64>,
    tries: Vec<u8>,
    /// The bucket sort's input, output and scratch space, kept between windows.
    keys: Vec<Key>,
    sorted: Vec<Key>,
    buckets: Vec<u32>,
    starts: Vec<u32>,
}

/// The most windows the ring holds; waits beyond it go to `far`.
const MAX_RING: u64 = 4_096;

impl Calendar {
    /// A calendar for `clients` clients (numbered from 0; at most 10 attempts
    /// each), windows of `window` ms and waits of at most `longest` ms.
    fn new(clients: usize, window: f64, longest: f64) -> Self {
        let span = (longest / window).min(MAX_RING as f64) as u64 + 2;
        let len = span.next_power_of_two().clamp(8, MAX_RING);
        Calendar {
            window,
            inv_window: 1.0 / window,
            last: (f64::NAN.to_bits(), 0),
            cur: 0,
            started: false,
            batch: Vec::new(),
            late: BinaryHeap::new(),
            ring: (0..len).map(|_| Vec::new()).collect(),
            mask: len - 1,
            horizon: len - 1,
            in_ring: 0,
            far: std::collections::BTreeMap::new(),
            at: vec![0.0; clients],
            tries: vec![0; clients],
            keys: Vec::new(),
            sorted: Vec::new(),
            buckets: Vec::new(),
            starts: Vec::new(),
        }
    }

    #[inline(always)]
    fn window_of(&self, t: f64) -> u64 {
        pyfloat::floor_div_recip(t, self.window, self.inv_window) as i64 as u64
    }

    #[inline(always)]
    fn push(&mut self, k: Key) {
        let w = if k.0 == self.last.0 {
            self.last.1
        } else {
            let w = self.window_of(k.t());
            self.last = (k.0, w);
            w
        };
        if w <= self.cur && self.started {
            self.late.push(Reverse(k));
            return;
        }
        let c = k.client();
        self.at[c as usize] = k.t();
        self.tries[c as usize] = k.n() as u8;
        if w <= self.horizon {
            self.ring[(w & self.mask) as usize].push(c);
            self.in_ring += 1;
        } else {
            self.far.entry(w).or_default().push(c);
        }
    }

    /// Moves to the next window that has attempts and puts them, unsorted, in
    /// `batch`; false when none is left. Attempts added to the window being
    /// played (`late`) must all have been taken.
    fn advance(&mut self) -> bool {
        debug_assert!(self.late.is_empty());
        let len = self.mask + 1;
        let first = if self.started { 1 } else { 0 };
        self.started = true;
        let next = if self.in_ring > 0 {
            (first..=len)
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
        self.horizon = next + len;
        self.batch.clear();
        // This window's slot first: once drained, the slot belongs to window cur + len.
        let slot = &mut self.ring[(self.cur & self.mask) as usize];
        if !slot.is_empty() {
            self.in_ring -= slot.len();
            // A swap, not a copy: buffers go round between the slots and the batch.
            std::mem::swap(slot, &mut self.batch);
        }
        // Far windows that the ring now reaches move into it.
        while let Some((&w, _)) = self.far.iter().next() {
            if w > self.horizon {
                break;
            }
            let v = self.far.remove(&w).unwrap_or_default();
            if w == self.cur {
                self.batch.extend(v);
            } else {
                self.in_ring += v.len();
                self.ring[(w & self.mask) as usize].extend(v);
            }
        }
        true
    }

    /// Puts the window's attempts of rank `from` on (counting from 0, in
    /// (time, client, attempt) order) in order, at `sorted[at..]`; returns
    /// `at`. Those of lower rank are left out or left unsorted before `at`.
    fn order_from(&mut self, from: usize) -> usize {
        let n = self.batch.len();
        // Each client's key, and whether they came in order, in one pass.
        self.keys.clear();
        self.keys.reserve(n);
        let (mut in_order, mut prev) = (true, Key(0, 0));
        for &c in &self.batch {
            let k = Key::new(self.at[c as usize], c, self.tries[c as usize] as u32);
            in_order &= prev <= k;
            prev = k;
            self.keys.push(k);
        }
        if in_order {
            // Without jitter, the usual case: nothing to do.
            std::mem::swap(&mut self.sorted, &mut self.keys);
            return from;
        }
        self.sorted.clear();
        if n <= 32 {
            self.sorted.extend_from_slice(&self.keys);
            self.sorted.sort_unstable();
            return from;
        }
        let nb = n.next_power_of_two();
        let start = self.cur as f64 * self.window;
        let scale = nb as f64 / self.window;
        // Monotone in t (each step rounds monotonically), so bucket order is time order.
        let bucket = |k: &Key| (((k.t() - start) * scale) as i64).clamp(0, nb as i64 - 1) as u32;
        // starts[b + 1] counts bucket b, then becomes where bucket b + 1 begins.
        self.starts.clear();
        self.starts.resize(nb + 1, 0);
        self.buckets.clear();
        self.buckets.extend(self.keys.iter().map(|k| {
            let b = bucket(k);
            self.starts[b as usize + 1] += 1;
            b
        }));
        let mut sum = 0;
        for s in self.starts.iter_mut() {
            sum += *s;
            *s = sum;
        }
        // The bucket holding rank `from`: the buckets before it are all of lower
        // rank, so they are neither placed nor sorted.
        let first = self.starts[1..].partition_point(|&s| s as usize <= from);
        let skip = self.starts[first];
        self.sorted.resize(n - skip as usize, Key(0, 0));
        for (k, &b) in self.keys.iter().zip(&self.buckets) {
            if b as usize >= first {
                let at = &mut self.starts[b as usize];
                self.sorted[(*at - skip) as usize] = *k;
                *at += 1;
            }
        }
        // Now starts[b] is where bucket b ends; each holds a few attempts.
        let mut lo = 0;
        for &to in &self.starts[first..nb] {
            let to = (to - skip) as usize;
            if to - lo > 1 {
                insertion_sort(&mut self.sorted[lo..to]);
            }
            lo = to;
        }
        from - skip as usize
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
    let mut queue = Calendar::new(clients, window, longest);
    for c in 0..p.clients {
        let w = backoff.wait(1, backoff.base_ms, &mut rng);
        if let Some(slot) = prev.get_mut(c as usize) {
            *slot = w;
        }
        queue.push(Key::new(w, c, 1));
    }

    let capacity = p.capacity as usize;
    let mut windows: Vec<(u64, u32)> = Vec::new();
    let (mut served, mut gave_up) = (0u32, 0u32);
    // Python pops one attempt at a time; here a window at a time, which gives
    // the same figures (see `Calendar`): the first `capacity` are served, the
    // rest rejected in order.
    let mut sorted = Vec::new();
    while queue.advance() {
        let arrived = queue.batch.len();
        let rejected = arrived.saturating_sub(capacity);
        served += (arrived - rejected) as u32;
        if rejected == 0 {
            windows.push((queue.cur, arrived as u32));
            continue;
        }
        let at = queue.order_from(capacity);
        // Taken out while the queue takes this window's retries.
        std::mem::swap(&mut sorted, &mut queue.sorted);
        let (mut i, mut late) = (at, 0u32);
        loop {
            // The next rejected attempt: the earlier of the window's next and the
            // earliest added to it while it is played (rare: a wait shorter than
            // what is left of the window).
            let key = match queue.late.peek() {
                None if i < sorted.len() => {
                    i += 1;
                    sorted[i - 1]
                }
                None => break,
                Some(&Reverse(b)) if i < sorted.len() && sorted[i] < b => {
                    i += 1;
                    sorted[i - 1]
                }
                Some(_) => {
                    late += 1;
                    queue.late.pop().expect("peeked").0
                }
            };
            let (client, n) = (key.client(), key.n());
            if n < p.retries {
                let last = prev.get(client as usize).copied().unwrap_or(backoff.base_ms);
                let wait = backoff.wait(n + 1, last, &mut rng);
                if let Some(slot) = prev.get_mut(client as usize) {
                    *slot = wait;
                }
                queue.push(Key::new(key.t() + wait, client, n + 1));
            } else {
                gave_up += 1;
            }
        }
        std::mem::swap(&mut sorted, &mut queue.sorted);
        windows.push((queue.cur, arrived as u32 + late));
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

    /// The lesson's program as it is written: one heap, one attempt at a time.
    fn one_heap(p: &HerdParams) -> HerdResult {
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
            } else if n < p.retries {
                prev[client] = b.wait(n + 1, prev[client], &mut rng);
                heap.push(Reverse(Key::new(k.t() + prev[client], client as u32, n + 1)));
            } else {
                gave_up += 1;
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

    /// Taking a window at a time from the calendar gives what one heap gives:
    /// dense and sparse windows, retries into the window being played (1 ms
    /// windows, waits of a few ms), waits past the ring (seconds on 1 ms
    /// windows), every jitter.
    #[test]
    fn a_window_at_a_time_gives_what_one_heap_gives() {
        let mut rng = PyRandom::new(99);
        for i in 0..400 {
            let mut pick = |lo: u32, hi: u32| lo + rng.next_u32() % (hi - lo + 1);
            let p = HerdParams {
                clients: pick(1, 3_000),
                capacity: pick(1, 200),
                window_ms: [1, 1, 2, 10, 50][pick(0, 4) as usize],
                base_ms: [1, 3, 100, 2_000, 9_000][pick(0, 4) as usize],
                cap_ms: [None, Some(pick(1, 50_000))][pick(0, 1) as usize],
                retries: pick(1, 10),
                jitter: Jitter::ALL[(i % 4) as usize],
                seed: pick(0, 1_000),
            };
            assert_eq!(simulate(&p), one_heap(&p), "{p:?}");
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
