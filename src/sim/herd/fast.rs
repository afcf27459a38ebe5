//! The herd's engine: [`super::reference`]'s figures, a window at a time.
//!
//! Invariants (each checked by the tests below or the reference's):
//! * For every accepted parameter set it gives exactly what
//!   [`super::reference::simulate`] gives: the same served, gave up, peak,
//!   attempts and windows (`a_window_at_a_time_gives_what_one_heap_gives`,
//!   400 random sets of every jitter, 1 ms to 50 ms windows, up to 100,000
//!   clients; `tests/python_reference.rs` against CPython).
//! * The random stream is drawn in Python's order: the first wave in client
//!   order, then each rejected attempt in (time, client, attempt) order,
//!   windows in time order, and within a window the served first (they draw
//!   nothing) — so only the rejected need their exact order.
//! * A client has at most one attempt pending: its time and attempt number
//!   live by client (`Calendar::at`, `Calendar::tries`); an item is one
//!   `u32`, its step in its window above its client.
//! * An attempt's window is Python's (`pyfloat::floor_div`), and its step
//!   never decreases with its time inside a window (`place`); items of one
//!   step are ordered by their full keys (`settle`).
//! * A retry that lands in the window being played is played in it, in key
//!   order with the rest (`Calendar::late`).
//! * A [`HerdScratch`] carries nothing from one run to the next but buffers.
//!
//! Its speed goal (≥ 100× the lesson's CPython) is met: this part is not to
//! be tuned further; a change here is a correctness fix, checked against the
//! reference.

use super::reference::Key;
use super::{HerdParams, HerdResult, MAX_RETRIES};
use crate::sim::policy::backoff::{Backoff, Jitter};
use crate::sim::policy::pyfloat;
use crate::sim::policy::rng::PyRandom;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// An attempt in the calendar is one `u32`: where in its window it falls
/// (its *step*, the top [`STEP_BITS`] bits) and its client (the low
/// [`CLIENT_BITS`]). Its time and attempt number are kept by client
/// (`Calendar::at`, `Calendar::tries`): a client has at most one attempt
/// pending.
const CLIENT_BITS: u32 = 17;
const CLIENT_MASK: u32 = (1 << CLIENT_BITS) - 1;
/// A window is cut into 2^15 steps.
const STEP_BITS: u32 = 32 - CLIENT_BITS;
const STEPS: f64 = (1u64 << STEP_BITS) as f64;
const LAST_STEP: i64 = (1 << STEP_BITS) - 1;
// Every client number fits (the bounds allow 100,000).
const _: () = assert!(100_000 <= CLIENT_MASK);
/// The sort orders items by their top 16 bits, which hold the whole step;
/// items in the same step are then put in order by their keys
/// ([`Calendar::settle`]).
const RADIX_BITS: u32 = 16;
const _: () = assert!(STEP_BITS <= RADIX_BITS);

/// The attempts still to come, by window: a calendar queue. The simulation
/// takes them a whole window at a time ([`Calendar::advance`]), unsorted, and
/// puts them in order ([`Calendar::order`]) only when some are rejected.
///
/// Order matters less than one might think. In a window the server serves the
/// first `capacity` attempts in (time, client, attempt) order and rejects the
/// rest; a rejected attempt draws its wait from the one random stream, so the
/// rejected ones must be taken in exactly Python's order, but which of the
/// served is first does not change a figure, and a window with no more
/// attempts than capacity needs no order at all.
///
/// Ordering is cheap because most of it is done when an attempt is placed:
/// the one multiplication that finds its window ([`Calendar::place`]) also
/// gives its step in the window, a number that grows with its time, and the
/// item packs the step above the client. Sorting the items as plain integers
/// (two passes of a radix sort) orders them by step, then client; only items
/// in the same step (a few in a window of hundreds, or a whole window without
/// jitter, where every attempt has the same time) are compared by their
/// full keys. Without jitter the items also come in order, which one pass sees.
/// And a window only a few over capacity (the lesson's, with jitter: about 50
/// in each) is not sorted at all: its few rejected are picked out in one pass
/// ([`Calendar::pick_largest`]).
///
/// The slots' buffers go round: a window played gives its buffer back
/// ([`Calendar::spare`]) for the next window that needs one, so a run
/// allocates about as many buffers as windows are pending at once.
struct Calendar {
    window: f64,
    /// `(1 / window) × 2^STEP_BITS`: times to steps.
    scale: f64,
    /// The last time placed, and its window and step: without jitter, whole
    /// runs of attempts share a time.
    last: (u64, u64, u32),
    /// The window being played (none before the first [`Calendar::advance`]) …
    cur: u64,
    /// The first window of the ring: `cur + 1` (0 before the first is played).
    lo: u64,
    /// … its items, as they came …
    batch: Vec<u32>,
    /// … those added to it while it is played (a wait shorter than what is left of it).
    late: BinaryHeap<Reverse<Key>>,
    /// Windows `lo ..= lo + mask`, at `w & mask`, unsorted: a slot holds one window.
    ring: Vec<Vec<u32>>,
    mask: u64,
    in_ring: usize,
    /// Windows further away.
    far: std::collections::BTreeMap<u64, Vec<u32>>,
    /// Each client's pending attempt: its time and number.
    at: Vec<f64>,
    tries: Vec<u8>,
    /// The window's items in order ([`Calendar::order`]).
    sorted: Vec<u32>,
    /// Keys of a run of items in one step, when they must be sorted.
    run: Vec<Key>,
    /// Emptied buffers, for slots that need one, and the capacity of a new one.
    spare: Vec<Vec<u32>>,
    hint: usize,
}

/// The most windows the ring holds; waits beyond it go to `far`.
const MAX_RING: u64 = 4_096;

/// The largest capacity a new window buffer starts with (it grows past it
/// as any `Vec` does): 4 KB, so even a ring full of thin windows stays small.
const MAX_HINT: usize = 1_024;

impl Calendar {
    /// A calendar for `clients` clients (numbered from 0; at most 10 attempts
    /// each), windows of `window` ms and waits of at most `longest` ms; a
    /// window's first buffer holds `hint` items before it grows.
    fn new(clients: usize, window: f64, longest: f64, hint: usize) -> Self {
        // Empty, then made by `reset` (the one place that sizes a calendar).
        let mut calendar = Calendar {
            window: 0.0,
            scale: 0.0,
            last: (0, 0, 0),
            cur: 0,
            lo: 0,
            batch: Vec::new(),
            late: BinaryHeap::new(),
            ring: Vec::new(),
            mask: 0,
            in_ring: 0,
            far: std::collections::BTreeMap::new(),
            at: Vec::new(),
            tries: Vec::new(),
            sorted: Vec::new(),
            run: Vec::new(),
            spare: Vec::new(),
            hint: 0,
        };
        calendar.reset(clients, window, longest, hint);
        calendar
    }

    /// The calendar [`Calendar::new`] makes, in the buffers of this one: its
    /// slots' buffers are kept (emptied) and the spare ones too, so a run
    /// after another of the same size allocates nothing.
    fn reset(&mut self, clients: usize, window: f64, longest: f64, hint: usize) {
        let span = (longest / window).min(MAX_RING as f64) as u64 + 2;
        let len = span.next_power_of_two().clamp(8, MAX_RING);
        // A run played to the end leaves every window empty (and a run cut
        // short by a panic never comes back: the calendar is out of its scratch
        // during a run); a calendar left half-played, as a test may, is emptied.
        if self.in_ring > 0 || !self.late.is_empty() || !self.far.is_empty() {
            self.ring.iter_mut().for_each(Vec::clear);
            self.late.clear();
            self.far.clear();
            self.in_ring = 0;
        }
        // Slots beyond the new ring give their buffers back (as many as it has slots).
        let beyond = self.ring.drain(len.min(self.ring.len() as u64) as usize..);
        self.spare.extend(beyond.filter(|v| v.capacity() > 0));
        self.spare.truncate(len as usize);
        self.ring.resize_with(len as usize, Vec::new);
        self.mask = len - 1;
        self.window = window;
        self.scale = (1.0 / window) * STEPS;
        self.last = (f64::NAN.to_bits(), 0, 0);
        (self.cur, self.lo) = (0, 0);
        // Not cleared: a client's time and number are read only while it has an
        // attempt pending, and both are written before that (the first wave
        // fills `at`; `push_first` or `push` sets `tries`), so the last run's
        // values are never read. Clearing them cost ≈ 1.5 % of a run at 1,000.
        self.at.resize(clients, 0.0);
        self.tries.resize(clients, 0);
        self.hint = hint;
    }

    /// The window of time `t` (Python's `int(t // window)`) and its step in
    /// it, which never decreases as `t` grows within a window.
    ///
    /// `y = t × scale` is `q × 2^15` exactly, `q` being `t × (1 / window)`
    /// rounded, so its integer part holds `floor(q)` above the step. `q` is
    /// within `q × 2⁻⁵²` of the exact quotient, less than half a step while
    /// `q < 2^36`; so when `y`'s step is neither the first nor the last of the
    /// window, `floor(q)` is the exact floor, which is what Python's `//`
    /// gives away from an integer.
    ///
    /// `y` is rounded to the nearest integer rather than truncated: adding
    /// 2^52 does it, and the integer is then the float's low bits (cheaper
    /// than a conversion, which must saturate). The rounded `y` is `y`'s
    /// integer part or one more, so when its step is neither of the first two
    /// nor the last, `y`'s own is neither the first nor the last, and both are
    /// in the same window. The three edge steps (3 in 32,768 of all times) go
    /// the exact way.
    #[inline(always)]
    fn place(&self, t: f64) -> (u64, u32) {
        place_away_from_edges(t, self.scale).unwrap_or_else(|| self.place_exactly(t, t * self.scale))
    }

    /// [`Calendar::place`] at the edges of a window: the window by
    /// [`pyfloat::floor_div`], the step by the same formula (`y` rounded),
    /// held inside it.
    #[cold]
    #[inline(never)]
    fn place_exactly(&self, t: f64, y: f64) -> (u64, u32) {
        let w = pyfloat::floor_div(t, self.window) as i64 as u64;
        let step = (y.round_ties_even() - w as f64 * STEPS).clamp(0.0, LAST_STEP as f64) as u32;
        (w, step)
    }

    /// Adds an attempt. `same_times` says that attempts often share a time
    /// (without jitter), so the last time's window is worth remembering.
    /// Returns 1 when it went into the ring, 0 if not, for the caller to add
    /// to `in_ring` (once for many pushes: a count the compiler can keep in a
    /// register rather than in the calendar's memory).
    #[must_use]
    #[inline(always)]
    fn push(&mut self, t: f64, client: u32, n: u32, same_times: bool) -> usize {
        let (w, step) = if !same_times {
            self.place(t)
        } else if t.to_bits() == self.last.0 {
            (self.last.1, self.last.2)
        } else {
            let (w, step) = self.place(t);
            self.last = (t.to_bits(), w, step);
            (w, step)
        };
        // In the ring (windows lo ..= lo + mask) with one comparison.
        if w.wrapping_sub(self.lo) > self.mask {
            self.push_elsewhere(t, client, n, w, step);
            return 0;
        }
        self.at[client as usize] = t;
        self.tries[client as usize] = n as u8;
        let slot = &mut self.ring[(w & self.mask) as usize];
        push_to_slot(slot, &mut self.spare, self.hint, item(step, client));
        1
    }

    /// [`Calendar::push`] outside the ring: into the window being played
    /// (`late`), or beyond the ring (`far`).
    #[cold]
    #[inline(never)]
    fn push_elsewhere(&mut self, t: f64, client: u32, n: u32, w: u64, step: u32) {
        if w < self.lo {
            self.late.push(Reverse(Key::new(t, client, n)));
        } else {
            self.at[client as usize] = t;
            self.tries[client as usize] = n as u8;
            self.far.entry(w).or_default().push(item(step, client));
        }
    }

    /// Adds every client's first attempt (number 1), at the times already in
    /// `at`: what [`Calendar::push`] does for each in turn, but with the
    /// calendar's fields held apart in locals (kept in registers) and the
    /// rare cases (an edge step, a window beyond the ring) pushed after the
    /// others, which is the same: a window's items are put in order before
    /// they are played. Without jitter, every client's first time is the
    /// same, which `push` remembers.
    ///
    /// Before the first window is played the ring holds windows `0 ..= mask`,
    /// so one bounds check on the slot's index is also the check that the
    /// time is in the ring, and it covers the range [`place_away_from_edges`]
    /// checks as well: `y + 2⁵²` of a `y` below 0, above the range or not a
    /// number gives an index far beyond any ring (or the edge step 0), so such
    /// a time is pushed the exact way with the rare.
    fn push_first(&mut self, same_times: bool) {
        debug_assert_eq!((self.lo, self.in_ring), (0, 0), "before the first window");
        if same_times {
            for c in 0..self.at.len() {
                self.in_ring += self.push(self.at[c], c as u32, 1, true);
            }
            return;
        }
        self.tries.fill(1);
        let (scale, hint) = (self.scale, self.hint);
        let Calendar { at, ring, spare, .. } = self;
        let ring = ring.as_mut_slice();
        let mut rare = Vec::new();
        for (c, &t) in at.iter().enumerate() {
            let r = rounded_steps(t * scale);
            let step = r & LAST_STEP as u64;
            // On 32 bits, an index that does not fit is beyond the ring too.
            let w = usize::try_from(r >> STEP_BITS).unwrap_or(usize::MAX);
            match ring.get_mut(w) {
                Some(slot) if away_from_edges(step) => push_to_slot(slot, spare, hint, item(step as u32, c as u32)),
                _ => rare.push(c as u32),
            }
        }
        self.in_ring += at.len() - rare.len();
        for c in rare {
            self.in_ring += self.push(self.at[c as usize], c, 1, false);
        }
    }

    /// The key of an item.
    #[inline(always)]
    fn key(&self, item: u32) -> Key {
        let c = item & CLIENT_MASK;
        Key::new(self.at[c as usize], c, self.tries[c as usize] as u32)
    }

    /// Moves to the next window that has attempts and puts them, unsorted, in
    /// `batch`; false when none is left. Attempts added to the window being
    /// played (`late`) must all have been taken.
    fn advance(&mut self) -> bool {
        debug_assert!(self.late.is_empty());
        let next = if self.in_ring > 0 {
            (self.lo..=self.lo + self.mask).find(|w| !self.ring[(w & self.mask) as usize].is_empty())
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
        self.lo = next + 1;
        // The last window's buffer goes back for another.
        if self.batch.capacity() > 0 {
            self.batch.clear();
            self.spare.push(std::mem::take(&mut self.batch));
        }
        // This window's slot first: once drained, the slot belongs to window cur + len.
        let slot = &mut self.ring[(self.cur & self.mask) as usize];
        if !slot.is_empty() {
            self.in_ring -= slot.len();
            // A swap, not a copy; the slot is left without a buffer.
            std::mem::swap(slot, &mut self.batch);
        }
        // Far windows that the ring now reaches move into it.
        while let Some((&w, _)) = self.far.iter().next() {
            if w > self.lo + self.mask {
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

    /// Puts the window's items from rank `from` on in (time, client, attempt)
    /// order, in `sorted`, and says where in it they begin: at `from` (those
    /// before are the others, in any order) or, when the last few were picked
    /// out, at 0 (only they are there).
    fn order(&mut self, from: usize) -> usize {
        let n = self.batch.len();
        // A few over capacity: the last few picked out, the others left out.
        let m = n - from;
        let start = if m <= MAX_PICK && self.pick_largest(m) {
            0
        } else {
            if n <= 64 {
                self.batch.sort_unstable();
            } else if !self.batch.is_sorted() {
                self.sorted.resize(n, 0); // scratch space
                radix_sort(&mut self.batch, &mut self.sorted);
            } // else in order already (without jitter: one pass sees it)
            std::mem::swap(&mut self.sorted, &mut self.batch);
            from
        };
        // Runs of items in one step: by key. A run may begin before `start`.
        let mut i = start.max(1);
        while i < self.sorted.len() {
            let s = &self.sorted;
            // Eight neighbours at a time while none share a step (a loop the
            // compiler turns into a few vector instructions).
            if let Some(w) = s.get(i - 1..i + 8) {
                if w.windows(2)
                    .fold(true, |all, p| all & ((p[0] ^ p[1]) >> CLIENT_BITS != 0))
                {
                    i += 8;
                    continue;
                }
            }
            if (s[i] ^ s[i - 1]) >> CLIENT_BITS != 0 {
                i += 1;
                continue;
            }
            let mut lo = i - 1;
            while lo > 0 && (s[lo - 1] ^ s[i]) >> CLIENT_BITS == 0 {
                lo -= 1;
            }
            let mut hi = i + 1;
            while hi < s.len() && (s[hi] ^ s[i]) >> CLIENT_BITS == 0 {
                hi += 1;
            }
            self.settle(lo, hi);
            i = hi + 1;
        }
        start
    }

    /// Fills `sorted` with the window's `m` largest items, in order, when that
    /// is an order [`Calendar::order`] can finish: the smallest of them is in
    /// a step above every item left out, so that they are the last `m` by key
    /// too, and a run of items in one step is all among them. False, with
    /// nothing done, if not.
    ///
    /// One pass that keeps the largest `m` so far (few: a new one is rarely
    /// among them), against a sort of the whole window.
    fn pick_largest(&mut self, m: usize) -> bool {
        let mut top = [0u32; MAX_PICK];
        let (first, rest) = self.batch.split_at(m);
        let top = &mut top[..m];
        top.copy_from_slice(first);
        top.sort_unstable();
        // The largest item left out (-1: none yet).
        let mut below = -1i64;
        for &x in rest {
            if x > top[0] {
                below = below.max(top[0] as i64);
                let mut j = 1;
                while j < m && top[j] < x {
                    top[j - 1] = top[j];
                    j += 1;
                }
                top[j - 1] = x;
            } else {
                below = below.max(x as i64);
            }
        }
        if below >> CLIENT_BITS >= (top[0] >> CLIENT_BITS) as i64 {
            return false;
        }
        self.sorted.clear();
        self.sorted.extend_from_slice(top);
        true
    }

    /// Puts `sorted[lo..hi]`, items of one step, in order by their keys.
    fn settle(&mut self, lo: usize, hi: usize) {
        let mut prev = self.key(self.sorted[lo]);
        let mut in_order = true;
        for &v in &self.sorted[lo + 1..hi] {
            let k = self.key(v);
            in_order &= prev <= k;
            prev = k;
        }
        if in_order {
            return;
        }
        let mut run = std::mem::take(&mut self.run);
        run.clear();
        run.extend(self.sorted[lo..hi].iter().map(|&v| self.key(v)));
        run.sort_unstable();
        for (v, k) in self.sorted[lo..hi].iter_mut().zip(&run) {
            *v = (*v & !CLIENT_MASK) | k.client();
        }
        self.run = run;
    }
}

/// [`Calendar::place`] but for the edges (none: `None`), given the calendar's
/// `scale`.
#[inline(always)]
fn place_away_from_edges(t: f64, scale: f64) -> Option<(u64, u32)> {
    let y = t * scale;
    if (0.0..68_719_476_736.0 * STEPS).contains(&y) {
        let r = rounded_steps(y);
        let step = r & LAST_STEP as u64;
        if away_from_edges(step) {
            return Some((r >> STEP_BITS, step as u32));
        }
    }
    None
}

/// Whether a step is away from its window's edges: neither of the first two
/// nor the last (see [`Calendar::place`]).
#[inline(always)]
fn away_from_edges(step: u64) -> bool {
    step.wrapping_sub(2) < LAST_STEP as u64 - 2
}

/// The calendar's item for a client's attempt at `step` of its window.
#[inline(always)]
fn item(step: u32, client: u32) -> u32 {
    (step << CLIENT_BITS) | client
}

/// `y` rounded to a whole number of steps, for `0 <= y < 2⁵²`: adding 2⁵²
/// leaves the integer in the float's low bits. (Outside that range it is
/// not `y` rounded, but neither is it a ring's window away from its edge
/// steps: see [`Calendar::push_first`].)
#[inline(always)]
fn rounded_steps(y: f64) -> u64 {
    const TWO_52: f64 = 4_503_599_627_370_496.0;
    (y + TWO_52).to_bits().wrapping_sub(TWO_52.to_bits())
}

/// Adds `item` to a window's slot in the ring; a slot without a buffer gets
/// one (`fresh`).
#[inline(always)]
fn push_to_slot(slot: &mut Vec<u32>, spare: &mut Vec<Vec<u32>>, hint: usize, item: u32) {
    if slot.capacity() == 0 {
        *slot = fresh(spare, hint);
    }
    slot.push(item);
}

/// A buffer for a window: one given back, or a new one of `hint` items.
#[cold]
#[inline(never)]
fn fresh(spare: &mut Vec<Vec<u32>>, hint: usize) -> Vec<u32> {
    spare.pop().unwrap_or_else(|| Vec::with_capacity(hint))
}

/// The most items [`Calendar::pick_largest`] picks: beyond a few, each new
/// item is too often among them, and a sort is faster.
const MAX_PICK: usize = 16;

/// Sorts `v` by its top [`RADIX_BITS`] bits: two stable passes of eight bits,
/// the low digit first, through `scratch` (as long as `v`) and back.
fn radix_sort(v: &mut [u32], scratch: &mut [u32]) {
    const SHIFT: u32 = 32 - RADIX_BITS;
    let (mut lo, mut hi) = ([0u32; 256], [0u32; 256]);
    for &x in v.iter() {
        lo[((x >> SHIFT) & 255) as usize] += 1;
        hi[(x >> (SHIFT + 8)) as usize] += 1;
    }
    let (mut a, mut b) = (0, 0);
    for (l, h) in lo.iter_mut().zip(hi.iter_mut()) {
        (*l, a) = (a, a + *l);
        (*h, b) = (b, b + *h);
    }
    for &x in v.iter() {
        let d = &mut lo[((x >> SHIFT) & 255) as usize];
        scratch[*d as usize] = x;
        *d += 1;
    }
    for &x in scratch.iter() {
        let d = &mut hi[(x >> (SHIFT + 8)) as usize];
        v[*d as usize] = x;
        *d += 1;
    }
}

/// Runs the simulation. Parameters outside their bounds are clamped first
/// (see [`crate::sim::params::clamp`]), so the work is always bounded.
pub fn simulate(params: &HerdParams) -> HerdResult {
    simulate_reusing(params, &mut HerdScratch::default())
}

/// The buffers a run works in, for a caller that runs the simulation again
/// and again (a widget on each input, `sensei-lab herd --repeat`) to keep
/// between runs: the generator's state and the calendar's windows and
/// per-client arrays. Then a run allocates only its result (after a first
/// run of the same size). Nothing in it carries over from one run to the
/// next: the figures are those of [`simulate`].
#[derive(Default)]
pub struct HerdScratch {
    rng: Option<PyRandom>,
    calendar: Option<Calendar>,
}

/// [`simulate`], in the buffers of `scratch`.
///
/// ```
/// use sensei_lab::sim::herd::{simulate, simulate_reusing, HerdParams, HerdScratch};
/// let mut scratch = HerdScratch::default();
/// for clients in [1_000, 30, 5_000, 1_000] {
///     let p = HerdParams { clients, ..HerdParams::default() };
///     assert_eq!(simulate_reusing(&p, &mut scratch), simulate(&p));
/// }
/// ```
pub fn simulate_reusing(params: &HerdParams, scratch: &mut HerdScratch) -> HerdResult {
    let (p, _) = crate::sim::params::clamp(params);
    // The lesson's two runs get a loop each in which the wait's jitter is a
    // constant, so the per-attempt `match` on it is decided when compiling.
    // Each its own function, compiled alone whoever calls it.
    match p.jitter {
        Jitter::None => run_none(&p, scratch),
        Jitter::Full => run_full(&p, scratch),
        other => run_any(&p, other, scratch),
    }
}

/// [`run`] without jitter.
#[inline(never)]
fn run_none(p: &HerdParams, scratch: &mut HerdScratch) -> HerdResult {
    run(p, Jitter::None, scratch)
}

/// [`run`] with full jitter.
#[inline(never)]
fn run_full(p: &HerdParams, scratch: &mut HerdScratch) -> HerdResult {
    run(p, Jitter::Full, scratch)
}

/// [`run`] for the other jitters, once.
#[inline(never)]
fn run_any(p: &HerdParams, jitter: Jitter, scratch: &mut HerdScratch) -> HerdResult {
    run(p, jitter, scratch)
}

#[inline(always)]
fn run(p: &HerdParams, jitter: Jitter, scratch: &mut HerdScratch) -> HerdResult {
    // Taken out of the scratch for the run (and put back after it): a local
    // the compiler can keep its position in a register.
    let mut rng = match scratch.rng.take() {
        Some(mut rng) => {
            rng.reseed(p.seed);
            rng
        }
        None => PyRandom::new(p.seed),
    };
    let backoff = Backoff {
        base_ms: p.base_ms as f64,
        cap_ms: p.cap_ms.map(f64::from),
        jitter,
    };
    let window = p.window_ms as f64;
    let clients = p.clients as usize;
    // Only decorrelated jitter reads the previous wait of each client.
    let mut prev = vec![backoff.base_ms; if jitter == Jitter::Decorrelated { clients } else { 0 }];

    let longest = match jitter {
        Jitter::Decorrelated => backoff.base_ms * 3f64.powi(p.retries as i32),
        _ => backoff.ceiling(p.retries),
    }
    .min(p.cap_ms.map_or(f64::INFINITY, f64::from));
    // The first wave spreads over the first wait's range: so many per window,
    // give or take the square root of that (a window's count is about
    // Poisson), so a buffer for the mean and three deviations is not regrown.
    // At most MAX_HINT: every new buffer gets this capacity, and a run can
    // have thousands of windows pending, most of them thin.
    let (lo, hi) = backoff.bounds(1, backoff.base_ms);
    let per_window = clients as f64 / ((hi - lo) / window).max(1.0);
    let hint = (per_window + 3.0 * per_window.sqrt() + 1.0).clamp(16.0, MAX_HINT as f64);
    let mut queue = match scratch.calendar.take() {
        Some(mut queue) => {
            queue.reset(clients, window, longest, hint as usize);
            queue
        }
        None => Calendar::new(clients, window, longest, hint as usize),
    };
    // The ceiling of each retry's wait, looked up rather than computed per attempt.
    let ceilings: [f64; MAX_RETRIES + 1] = std::array::from_fn(|n| backoff.ceiling(n as u32));
    // The first wave: every client's first wait, in client order, drawn where
    // the queue keeps its clients' times (with full jitter, the lesson's, all
    // in one call: a loop the compiler vectorises) …
    if jitter == Jitter::Full {
        rng.fill_uniform(&mut queue.at, 0.0, ceilings[1]);
    } else {
        for (c, t) in queue.at.iter_mut().enumerate() {
            *t = backoff.wait_within(ceilings[1], backoff.base_ms, &mut rng);
            if jitter == Jitter::Decorrelated {
                prev[c] = *t;
            }
        }
    }
    // … then placed.
    queue.push_first(jitter == Jitter::None);

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
        let start = queue.order(capacity);
        // Taken out while the queue takes this window's retries.
        std::mem::swap(&mut sorted, &mut queue.sorted);
        let (mut i, mut late, mut in_ring) = (start, 0u32, 0);
        loop {
            // The next rejected attempt: the earlier of the window's next and the
            // earliest added to it while it is played (a wait shorter than what
            // is left of the window).
            let key = match queue.late.peek() {
                None if i < sorted.len() => {
                    i += 1;
                    queue.key(sorted[i - 1])
                }
                None => break,
                Some(&Reverse(b)) => match sorted.get(i).map(|&v| queue.key(v)) {
                    Some(k) if k < b => {
                        i += 1;
                        k
                    }
                    _ => {
                        late += 1;
                        queue.late.pop().expect("peeked").0
                    }
                },
            };
            let (client, n) = (key.client(), key.n());
            if n < p.retries {
                // `prev` is empty but for decorrelated jitter (known when compiling
                // the lesson's loops, so they skip it).
                let ceiling = ceilings[n as usize + 1];
                let wait = if jitter == Jitter::Decorrelated {
                    let slot = &mut prev[client as usize];
                    *slot = backoff.wait_within(ceiling, *slot, &mut rng);
                    *slot
                } else {
                    backoff.wait_within(ceiling, backoff.base_ms, &mut rng)
                };
                in_ring += queue.push(key.t() + wait, client, n + 1, jitter == Jitter::None);
            } else {
                gave_up += 1;
            }
        }
        queue.in_ring += in_ring;
        std::mem::swap(&mut sorted, &mut queue.sorted);
        windows.push((queue.cur, arrived as u32 + late));
    }
    scratch.rng = Some(rng);
    scratch.calendar = Some(queue);

    HerdResult {
        served,
        gave_up,
        peak: windows.iter().map(|(_, c)| *c).max().unwrap_or(0),
        attempts: windows.iter().map(|(_, c)| *c as u64).sum(),
        window_ms: p.window_ms,
        windows,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::policy::rng::UnitRng;

    /// Taking a window at a time from the calendar gives what one heap gives:
    /// dense and sparse windows, retries into the window being played (1 ms
    /// windows, waits of a few ms), waits past the ring (seconds on 1 ms
    /// windows), every jitter. And so does every run in one scratch, each
    /// after another of other parameters (rings longer and shorter, more and
    /// fewer clients, other seeds).
    #[test]
    fn a_window_at_a_time_gives_what_one_heap_gives() {
        let mut scratch = HerdScratch::default();
        // Without jitter every attempt of a run is at 200 ms: the next run,
        // with other windows, must not take the last one's window for it.
        for window_ms in [10, 7, 10] {
            let p = HerdParams {
                window_ms,
                retries: 1,
                jitter: Jitter::None,
                ..HerdParams::default()
            };
            assert_eq!(
                simulate_reusing(&p, &mut scratch),
                super::super::reference::simulate(&p),
                "{p:?}, reusing"
            );
        }
        let mut rng = PyRandom::new(99);
        for i in 0..400 {
            let mut pick = |lo: u32, hi: u32| lo + rng.next_u32() % (hi - lo + 1);
            let p = HerdParams {
                // Now and then many: all 17 bits of a client number in use.
                clients: if i % 40 == 0 {
                    pick(60_000, 100_000)
                } else {
                    pick(1, 3_000)
                },
                capacity: pick(1, 200),
                window_ms: [1, 1, 2, 10, 50][pick(0, 4) as usize],
                base_ms: [1, 3, 100, 2_000, 9_000][pick(0, 4) as usize],
                cap_ms: [None, Some(pick(1, 50_000))][pick(0, 1) as usize],
                retries: pick(1, 10),
                jitter: Jitter::ALL[(i % 4) as usize],
                seed: pick(0, 1_000),
                t_ms: None,
            };
            let expected = super::super::reference::simulate(&p);
            assert_eq!(simulate(&p), expected, "{p:?}");
            assert_eq!(simulate_reusing(&p, &mut scratch), expected, "{p:?}, reusing");
        }
    }

    /// A calendar reset after a run cut short (attempts left in the ring, far
    /// and in the window being played) is as empty as a new one.
    #[test]
    fn a_reset_forgets_a_run_cut_short() {
        let mut cal = Calendar::new(10, 10.0, 800.0, 16);
        cal.at.fill(5.0);
        cal.push_first(false);
        cal.in_ring += cal.push(60_000.0, 3, 2, false); // beyond the ring
        assert!(cal.advance());
        cal.in_ring += cal.push(cal.window * cal.cur as f64 + 1.0, 4, 2, false); // into the window played
        assert_eq!((cal.batch.len(), cal.late.len(), cal.far.len()), (10, 1, 1));
        cal.reset(7, 2.0, 100.0, 16);
        assert_eq!((cal.in_ring, cal.late.len(), cal.far.len(), cal.at.len()), (0, 0, 0, 7));
        assert!(cal.ring.iter().all(Vec::is_empty) && cal.ring.len() == 64);
        assert!(!cal.advance(), "nothing left to play");
    }

    /// `place` gives Python's window (`pyfloat::floor_div`) and a step that
    /// never decreases with time inside a window: on random times, on whole
    /// times (window edges), and one float either side of an edge.
    #[test]
    fn place_finds_pythons_window_and_a_growing_step() {
        let mut rng = PyRandom::new(5);
        for window in [1.0, 3.0, 10.0, 7.0, 1_000.0] {
            let cal = Calendar::new(1, window, 1_000.0, 16);
            let mut ts: Vec<f64> = (0..20_000)
                .map(|i| match i % 5 {
                    0 => rng.uniform(0.0, 5_000.0),
                    1 => (rng.next_u32() % 50_000) as f64,
                    2 => f64::from_bits(((rng.next_u32() % 5_000) as f64 * window).to_bits() + 1),
                    3 => f64::from_bits(((rng.next_u32() % 5_000 + 1) as f64 * window).to_bits() - 1),
                    // Around the edges of the first two steps and the last
                    // (whole and half steps, and a float either side).
                    _ => {
                        let at = [0.5, 1.0, 1.5, 2.0, STEPS - 1.5, STEPS - 1.0, STEPS - 0.5];
                        let s = at[(rng.next_u32() % 7) as usize];
                        let t = (rng.next_u32() % 5_000) as f64 * window + s * (window / STEPS);
                        f64::from_bits((t.to_bits() + (rng.next_u32() % 3) as u64).saturating_sub(1))
                    }
                })
                .collect();
            ts.push(0.0);
            ts.push(1e9);
            ts.sort_by(f64::total_cmp);
            let mut last = (0, 0);
            for t in ts {
                let (w, step) = cal.place(t);
                assert_eq!(w as f64, pyfloat::floor_div(t, window), "{t} // {window}");
                assert!((w, step) >= last, "{t}: {:?} after {last:?}", (w, step));
                last = (w, step);
            }
        }
    }

    /// `order(from)`: the `from` first attempts of the window in any order, the
    /// rest in (time, client) order, for windows sorted either way (up to 64
    /// attempts and more) and many attempts sharing a step with times that
    /// do not follow their clients.
    #[test]
    fn order_finds_the_first_and_sorts_the_rest() {
        use crate::sim::policy::rng::pick;
        let mut rng = PyRandom::new(3);
        let step = 10.0 / STEPS;
        // Windows where the last few could be picked out: [no, yes].
        let mut picked = [0; 2];
        for case in 0..3_000 {
            let n = pick(&mut rng, 2, if case % 2 == 0 { 64 } else { 200 }) as usize;
            let from = pick(&mut rng, 1, n as u32 - 1) as usize;
            // Window 3 ([30, 40) ms), in a few steps (or a few dozen, where
            // the largest few are often picked out), anywhere inside each.
            let steps = pick(&mut rng, 1, if case % 4 < 2 { 6 } else { 32 });
            let mut clients: Vec<u32> = (0..1_000).collect();
            let mut keys = Vec::new();
            let mut cal = Calendar::new(1_000, 10.0, 100.0, 16);
            for k in 0..n {
                let c = clients.swap_remove(pick(&mut rng, 0, 999 - k as u32) as usize);
                let s = 100 + 1_000 * pick(&mut rng, 0, steps - 1);
                let t = 30.0 + (s as f64 + rng.uniform(0.01, 0.99)) * step;
                cal.in_ring += cal.push(t, c, 1, false);
                keys.push(Key::new(t, c, 1));
            }
            assert!(cal.advance() && cal.cur == 3);
            let start = cal.order(from);
            keys.sort_unstable();
            let got: Vec<Key> = cal.sorted.iter().map(|&v| cal.key(v)).collect();
            assert_eq!(got[start..], keys[from..], "n {n}, from {from}");
            // The others before them, or (the last few picked out) left out.
            let mut first = got[..start].to_vec();
            first.sort_unstable();
            assert!(start == from || start == 0, "n {n}, from {from}: {start}");
            assert_eq!(first, keys[..start], "n {n}, from {from}");
            // The last few are picked out exactly when they are few and the
            // first of them has a step of its own: enough cases of both kinds.
            let m = n - from;
            let step_of = |k: &Key| cal.place(k.t()).1;
            let own = step_of(&keys[from]) != step_of(&keys[from - 1]);
            assert_eq!(start == 0, m <= MAX_PICK && own, "n {n}, from {from}");
            if m <= MAX_PICK {
                picked[own as usize] += 1;
            }
        }
        assert!(picked.iter().all(|&p| p > 100), "{picked:?}");
    }

    /// The radix sort orders by the top 16 bits and keeps the order of the rest.
    #[test]
    fn radix_sort_is_a_stable_sort_on_the_top_bits() {
        let mut rng = PyRandom::new(11);
        for n in [65, 300, 5_000] {
            let mut v: Vec<u32> = (0..n).map(|_| rng.next_u32() & 0xfff0_ffff).collect();
            let mut expected = v.clone();
            expected.sort_by_key(|x| x >> 16); // stable
            let mut scratch = vec![0; n];
            radix_sort(&mut v, &mut scratch);
            assert_eq!(v, expected);
        }
    }
}
