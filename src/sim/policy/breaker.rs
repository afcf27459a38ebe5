//! The circuit breaker's state machine, fed with simulated time in seconds
//! ([`Secs`]: a caller counting in ms converts, `Secs::from(Ms(now))`):
//! closed, it counts the failures of the last `window`; above
//! `threshold_pct` with at least `min_calls` it opens for `open`; then
//! half-open, `probes` calls decide whether it closes or opens again. Played
//! by the breaker's scenario (`sim::breaker`) and the storm's breaker.

use crate::sim::policy::time::Secs;
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct BreakerConfig {
    /// How far back failures count.
    pub window: Secs,
    pub threshold_pct: f64,
    pub min_calls: usize,
    /// How long it stays open.
    pub open: Secs,
    pub probes: usize,
}

impl Default for BreakerConfig {
    fn default() -> Self {
        BreakerConfig {
            window: Secs(10.0),
            threshold_pct: 50.0,
            min_calls: 20,
            open: Secs(30.0),
            probes: 5,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum State {
    Closed,
    Open,
    HalfOpen,
}

impl State {
    /// How the lesson names it.
    pub fn label(self) -> &'static str {
        match self {
            State::Closed => "cerrado",
            State::Open => "abierto",
            State::HalfOpen => "semiabierto",
        }
    }

    /// The moves a breaker may make.
    pub fn may_become(self, next: State) -> bool {
        matches!(
            (self, next),
            (State::Closed, State::Open)
                | (State::Open, State::HalfOpen)
                | (State::HalfOpen, State::Closed)
                | (State::HalfOpen, State::Open)
        )
    }
}

/// The breaker's state machine. Times are simulated seconds.
#[derive(Clone, Debug)]
pub struct Breaker {
    cfg: BreakerConfig,
    mode: Mode,
    /// Closed: outcomes in the window, `(finish time, success)`.
    window: VecDeque<(Secs, bool)>,
    failures: usize,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Mode {
    Closed,
    Open { until: Secs },
    HalfOpen { sent: usize, ok: usize },
}

impl Breaker {
    pub fn new(cfg: BreakerConfig) -> Self {
        Breaker {
            cfg,
            mode: Mode::Closed,
            window: VecDeque::new(),
            failures: 0,
        }
    }

    /// The state at `now` (an open breaker becomes half-open when its time is up).
    pub fn state(&mut self, now: Secs) -> State {
        if let Mode::Open { until } = self.mode {
            if now >= until {
                self.mode = Mode::HalfOpen { sent: 0, ok: 0 };
            }
        }
        match self.mode {
            Mode::Closed => State::Closed,
            Mode::Open { .. } => State::Open,
            Mode::HalfOpen { .. } => State::HalfOpen,
        }
    }

    /// Until when an open breaker stays open (`None` unless open).
    pub fn open_until(&self) -> Option<Secs> {
        match self.mode {
            Mode::Open { until } => Some(until),
            _ => None,
        }
    }

    /// Whether a call may go out at `now` (half-open: only the probes).
    pub fn allow(&mut self, now: Secs) -> bool {
        match self.state(now) {
            State::Closed => true,
            State::Open => false,
            State::HalfOpen => match &mut self.mode {
                Mode::HalfOpen { sent, .. } if *sent < self.cfg.probes => {
                    *sent += 1;
                    true
                }
                _ => false,
            },
        }
    }

    /// A call that went out finished at `now`.
    pub fn record(&mut self, now: Secs, success: bool) {
        match self.mode {
            Mode::Closed => {
                self.window.push_back((now, success));
                self.failures += (!success) as usize;
                while self.window.front().is_some_and(|(t, _)| *t <= now - self.cfg.window) {
                    let (_, ok) = self.window.pop_front().expect("a front");
                    self.failures -= (!ok) as usize;
                }
                let total = self.window.len();
                if total >= self.cfg.min_calls && self.failures as f64 * 100.0 > self.cfg.threshold_pct * total as f64 {
                    self.trip(now);
                }
            }
            Mode::HalfOpen { sent, ok } => {
                if !success {
                    self.trip(now);
                } else if ok + 1 >= self.cfg.probes {
                    self.mode = Mode::Closed;
                    self.window.clear();
                    self.failures = 0;
                } else {
                    self.mode = Mode::HalfOpen { sent, ok: ok + 1 };
                }
            }
            // A call that went out before the breaker opened: nothing to change.
            Mode::Open { .. } => {}
        }
    }

    fn trip(&mut self, now: Secs) {
        self.mode = Mode::Open {
            until: now + self.cfg.open,
        };
        self.window.clear();
        self.failures = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn four_a_m() {
        let mut b = Breaker::new(BreakerConfig::default());
        b.record(Secs(0.0), true);
        b.record(Secs(1.0), false);
        b.record(Secs(2.0), false);
        assert_eq!(b.state(Secs(3.0)), State::Closed);
    }
}
