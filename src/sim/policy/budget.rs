//! A retry budget over a sliding window: retries may not pass a share of
//! the requests.
//!
//! Why: a cap per request ("at most 3 attempts") still lets every request
//! retry at once when a dependency is in trouble, and the load multiplies
//! just when the dependency has the least room. Google's SRE book adds a cap
//! per client: retries may not pass ≈ 10 % of its requests. When failures
//! are few and scattered, 10 % is plenty; when many requests fail together,
//! the budget runs out and the extra load stays at 10 % instead of
//! multiplying. Once spent, the client does not retry: it fails at once.
//!
//! [`RetryBudget`] counts requests and retries in a window of simulated time
//! (ten slots, so the window slides in tenths); a retry is allowed only if,
//! with it, retries stay within `ratio × requests`.
//!
//! ```
//! use sensei_lab::sim::policy::budget::RetryBudget;
//! let mut b = RetryBudget::new(0.1, 1_000.0);
//! for i in 0..500 { b.request(i as f64 * 2.0); } // 500 requests in one second
//! let allowed = (0..100).filter(|_| b.try_retry(999.0)).count();
//! assert_eq!(allowed, 50); // 100 wanted, 0.1 × 500 = 50 allowed
//! ```

const SLOTS: usize = 10;

/// Counts of events in a sliding window of simulated time.
#[derive(Clone, Debug)]
struct Sliding {
    slot_ms: f64,
    /// The slot number (time / slot_ms) each cell holds, and its count.
    cells: [(i64, u64); SLOTS],
}

impl Sliding {
    fn new(window_ms: f64) -> Self {
        Sliding {
            slot_ms: (window_ms / SLOTS as f64).max(1e-9),
            cells: [(i64::MIN, 0); SLOTS],
        }
    }

    fn slot(&self, now: f64) -> i64 {
        (now / self.slot_ms).floor() as i64
    }

    fn add(&mut self, now: f64) {
        let s = self.slot(now);
        let cell = &mut self.cells[s.rem_euclid(SLOTS as i64) as usize];
        if cell.0 != s {
            *cell = (s, 0);
        }
        cell.1 += 1;
    }

    fn total(&self, now: f64) -> u64 {
        let s = self.slot(now);
        self.cells
            .iter()
            .filter(|(slot, _)| *slot > s - SLOTS as i64 && *slot <= s)
            .map(|(_, n)| n)
            .sum()
    }
}

/// The budget's state: requests and retries in the last window.
#[derive(Clone, Debug)]
pub struct RetryBudget {
    ratio: f64,
    requests: Sliding,
    retries: Sliding,
}

impl RetryBudget {
    /// `ratio`: retries allowed per request (0.1 for the SRE book's 10 %);
    /// `window_ms`: how far back requests and retries are counted.
    pub fn new(ratio: f64, window_ms: f64) -> Self {
        RetryBudget {
            ratio: if ratio.is_finite() { ratio.max(0.0) } else { 0.0 },
            requests: Sliding::new(window_ms),
            retries: Sliding::new(window_ms),
        }
    }

    /// A first attempt went out at `now`.
    pub fn request(&mut self, now: f64) {
        self.requests.add(now);
    }

    /// Asks for a retry at `now`; counts it if allowed.
    pub fn try_retry(&mut self, now: f64) -> bool {
        let allowed = (self.retries.total(now) + 1) as f64 <= self.ratio * self.requests.total(now) as f64;
        if allowed {
            self.retries.add(now);
        }
        allowed
    }

    /// Requests and retries counted in the window ending at `now`.
    pub fn counts(&self, now: f64) -> (u64, u64) {
        (self.requests.total(now), self.retries.total(now))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nothing_is_allowed_without_requests() {
        let mut b = RetryBudget::new(0.1, 1_000.0);
        assert!(!b.try_retry(0.0));
    }

    #[test]
    fn the_window_slides() {
        let mut b = RetryBudget::new(0.5, 1_000.0);
        for i in 0..10 {
            b.request(i as f64);
        }
        assert_eq!((0..10).filter(|_| b.try_retry(50.0)).count(), 5);
        // Two seconds later the old requests no longer count.
        assert!(!b.try_retry(2_050.0));
        assert_eq!(b.counts(2_050.0), (0, 0));
    }
}
