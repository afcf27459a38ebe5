//! A run played in time: what every player needs of a scenario's trace.
//!
//! A scenario that unfolds in time records its run once as a trace (each
//! module's own, e.g. [`crate::sim::herd::trace`]); what is seen at a moment
//! `t` is then a pure function of the trace and `t`, whether `t` was reached
//! by playing, stepping or dragging the time slider. A trace keeps
//! checkpoints (the herd: one per window), so that the moment at any `t` is
//! found by a search and at most one interval's events, never by replaying
//! the run from its start.
//!
//! Time is simulated time in ms, as everywhere in the core; the player's
//! clock only chooses which `t` to show. A moment that is kept (in the URL,
//! `t-ms=`, or on pause) is a whole number of ms ([`snap`]).
//!
//! `MOMENT_KEY` names that parameter everywhere (URL, command line); the
//! widgets' generic controls leave it to the player.

/// The moment's parameter (`t_ms` in a scenario's struct).
pub const MOMENT_KEY: &str = "t-ms";

/// What the player asks of a trace. (The figures and marks of a moment are
/// each scenario's own: the widget says which it shows.)
pub trait Playback {
    /// Where the run ends, in ms: the last moment anything happens. A widget
    /// opens there, at its end state.
    fn end_ms(&self) -> f64;
    /// The next stop strictly after `t` (one window, one event), at most the end.
    fn next_stop(&self, t: f64) -> f64;
    /// The stop before, strictly before `t`, at least 0.
    fn prev_stop(&self, t: f64) -> f64;
    /// Simulated ms played per real second at 1×: the whole run in
    /// [`SECONDS_AT_1X`] s, so a run of 2 s and one of 20 min both read.
    fn pace_ms_per_s(&self) -> f64 {
        (self.end_ms() / SECONDS_AT_1X).max(1.0)
    }
}

/// A run seen in equal steps (the storm's buckets, the breaker's seconds):
/// a step is one of them, and a moment shows the steps finished by then.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Steps {
    /// One step, in ms (more than 0).
    pub step_ms: f64,
    /// How many steps the run holds.
    pub count: usize,
}

impl Steps {
    /// Where step `k` ends, as a stop: whole ms (a kept moment is whole ms,
    /// and a step of 333.33… ms must still be reached by it).
    pub fn stop(&self, k: usize) -> f64 {
        (k as f64 * self.step_ms - 1e-9).ceil().max(0.0)
    }

    /// The steps finished at `t` (all of them at the end or past it).
    pub fn done_at(&self, t: f64) -> usize {
        if t.is_nan() || t <= 0.0 {
            return 0;
        }
        let mut k = ((t / self.step_ms + 1e-9).floor() as usize).min(self.count);
        while k > 0 && self.stop(k) > t {
            k -= 1;
        }
        k
    }
}

impl Playback for Steps {
    fn end_ms(&self) -> f64 {
        self.stop(self.count)
    }
    fn next_stop(&self, t: f64) -> f64 {
        self.stop((self.done_at(t) + 1).min(self.count))
    }
    fn prev_stop(&self, t: f64) -> f64 {
        let k = self.done_at(t);
        // On a stop, the one before; between two, the one behind.
        self.stop(if self.stop(k) >= t { k.saturating_sub(1) } else { k })
    }
}

/// The latest moment a link or the command line may name (`t-ms`), in ms
/// (about 50 days: every accepted run ends before it; the herd's longest,
/// decorrelated jitter from a 10 s base over 10 retries, within 886 million
/// ms). A moment past a run's end shows its end, and says so.
pub const MAX_T_MS: i64 = u32::MAX as i64;

/// How long a whole run plays at 1×.
pub const SECONDS_AT_1X: f64 = 8.0;

/// The speeds a learner can choose: `(factor, label)`.
pub const SPEEDS: &[(f64, &str)] = &[
    (0.25, "¼×"),
    (0.5, "½×"),
    (1.0, "1×"),
    (2.0, "2×"),
    (4.0, "4×"),
    (8.0, "8×"),
];

/// A run seen at its events (a timeline's, a curve's samples): each is a
/// stop, in whole ms, the last one the end.
#[derive(Clone, Debug, PartialEq)]
pub struct Stops {
    /// Sorted, whole ms, more than 0, without repeats; the last is the end.
    stops: Vec<f64>,
}

impl Stops {
    /// The stops at `times` (ms; each rounded up to whole ms, those past
    /// `end` or not after 0 left out) and at `end`.
    pub fn new(times: impl IntoIterator<Item = f64>, end: f64) -> Self {
        let end = if end.is_finite() { end.max(0.0).ceil() } else { 0.0 };
        let mut stops: Vec<f64> = times
            .into_iter()
            .map(|t| (t - 1e-9).ceil())
            .filter(|t| *t > 0.0 && *t < end)
            .chain((end > 0.0).then_some(end))
            .collect();
        stops.sort_unstable_by(f64::total_cmp);
        stops.dedup();
        Stops { stops }
    }

    /// How many stops are at or before `t`.
    pub fn done_at(&self, t: f64) -> usize {
        self.stops.partition_point(|s| *s <= t)
    }
}

impl Playback for Stops {
    fn end_ms(&self) -> f64 {
        self.stops.last().copied().unwrap_or(0.0)
    }
    fn next_stop(&self, t: f64) -> f64 {
        self.stops.get(self.done_at(t)).copied().unwrap_or(self.end_ms())
    }
    fn prev_stop(&self, t: f64) -> f64 {
        let before = self.stops.partition_point(|s| *s < t);
        before.checked_sub(1).map_or(0.0, |i| self.stops[i])
    }
}

/// A moment as the player says it: «350 ms», or in seconds past 10 s («12.5 s»).
pub fn say(t: f64) -> String {
    if t >= 10_000.0 {
        format!("{} s", crate::fmt::es_dec(t / 1000.0, 1))
    } else {
        format!("{} ms", crate::fmt::es_int(t.round() as i64))
    }
}

/// A moment of a run that ends at `end`, with the end, in one unit for the
/// whole run, so that a readout keeps its unit as it plays: in ms for a run
/// under 10 s («350 ms de 1,410 ms»), else in s to the ms («7.833 s de 40 s»,
/// «10.333 s de 40 s»; never «7,833 ms» then «10.3 s»).
pub fn say_of(t: f64, end: f64) -> String {
    if end >= 10_000.0 {
        let s = |v: f64| format!("{} s", crate::fmt::es_dec(v / 1000.0, 3));
        format!("{} de {}", s(t), s(end))
    } else {
        format!("{} de {}", say(t), say(end))
    }
}

/// What a page and the command line say of a moment past the run's end
/// (`moment` and `end` as the scenario says them), in lower case.
pub fn past_end_note(moment: &str, end: &str) -> String {
    format!("el momento ({moment}) pasa del final de la corrida ({end}): se muestra el final")
}

/// The command line's moment (`--t-ms`) in a run that ends at `end`: within
/// the run, with a note in `notes` when it was past the end.
pub fn moment_within(t: Option<u32>, end: f64, said: impl Fn(f64) -> String, notes: &mut Vec<String>) -> Option<f64> {
    let t = t? as f64;
    if t > end {
        notes.push(past_end_note(&said(t), &said(end)));
    }
    Some(t.min(end))
}

/// A moment as it is kept (the URL's `t-ms`, a pause): whole ms within the run.
pub fn snap(t: f64, end_ms: f64) -> f64 {
    if t.is_finite() {
        t.round().clamp(0.0, end_ms.ceil().max(0.0))
    } else {
        end_ms.ceil().max(0.0)
    }
}

/// The moment a played widget shows (`ui::hooks::use_moment`): the live one
/// (while playing or dragging, or one kept that has not arrived yet), else
/// the kept parameter, `kept` in units of `unit` ms; within the run, which
/// ends at `end`. `None` at the end, where a widget opens.
pub fn shown(live: Option<f64>, kept: Option<u32>, unit: f64, end: f64) -> Option<f64> {
    live.or(kept.map(|k| k as f64 * unit)).map(|t| t.min(end))
}

/// A moment `t` as its parameter keeps it, in whole units of `unit` ms (the
/// store's `line`: a line is 1,000 of the player's ms).
pub fn kept_in(t: f64, unit: f64) -> i64 {
    let whole = (t / unit).floor();
    if whole.is_finite() {
        whole.clamp(0.0, MAX_T_MS as f64) as i64
    } else {
        0
    }
}

/// The moment `dt_ms` of real time after `t` at `speed`, stopping at the end.
pub fn advance(p: &dyn Playback, t: f64, dt_ms: f64, speed: f64) -> f64 {
    (t + dt_ms.max(0.0) / 1000.0 * p.pace_ms_per_s() * speed).min(p.end_ms())
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Ten;
    impl Playback for Ten {
        fn end_ms(&self) -> f64 {
            10.0
        }
        fn next_stop(&self, t: f64) -> f64 {
            (t.floor() + 1.0).min(10.0)
        }
        fn prev_stop(&self, t: f64) -> f64 {
            (t.ceil() - 1.0).max(0.0)
        }
    }

    #[test]
    fn a_readout_keeps_one_unit_as_the_run_plays() {
        // The storm's 40 s, a bucket at a time: seconds all along.
        assert_eq!(say_of(7_833.0, 40_000.0), "7.833 s de 40 s");
        assert_eq!(say_of(10_333.0, 40_000.0), "10.333 s de 40 s");
        assert_eq!(say_of(0.0, 40_000.0), "0 s de 40 s");
        assert_eq!(say_of(1.0, 10_001.0), "0.001 s de 10.001 s");
        // The herd's 1,410 ms: milliseconds.
        assert_eq!(say_of(350.0, 1_410.0), "350 ms de 1,410 ms");
        for end in [500.0, 9_999.0, 10_000.0, 40_000.0, 600_000.0] {
            for k in 0..=20 {
                let said = say_of(end * k as f64 / 20.0, end);
                let unit = |x: &str| x.split(' ').nth(1).unwrap_or_default().to_string();
                let (a, b) = said.split_once(" de ").unwrap();
                assert_eq!(unit(a), unit(b), "{said}");
            }
        }
    }

    #[test]
    fn steps_go_one_bucket_at_a_time_both_ways() {
        // The storm's defaults: 120 buckets over 40 s.
        let s = Steps {
            step_ms: 40_000.0 / 120.0,
            count: 120,
        };
        assert_eq!(s.end_ms(), 40_000.0);
        assert_eq!(s.done_at(1000.0), 3);
        assert_eq!(s.done_at(999.0), 2);
        assert_eq!(s.done_at(-5.0), 0);
        assert_eq!(s.done_at(1e12), 120);
        // Stops are whole ms: a bucket of 333.33… ms ends, as a stop, at 334.
        assert_eq!(s.next_stop(0.0), 334.0);
        assert_eq!(s.done_at(333.0), 0);
        assert_eq!(s.done_at(334.0), 1);
        assert_eq!(s.next_stop(333.0), 334.0);
        assert_eq!(s.next_stop(1000.0), 1334.0);
        assert_eq!(s.next_stop(40_000.0), 40_000.0);
        assert_eq!(s.prev_stop(1000.0), 667.0);
        assert_eq!(s.prev_stop(1100.0), 1000.0);
        assert_eq!(s.prev_stop(0.0), 0.0);
        // Every stop forward, then back, visits each step's end once.
        let mut t = 0.0;
        let mut n = 0;
        while t < s.end_ms() {
            let next = s.next_stop(t);
            assert!(next > t && next == snap(next, s.end_ms()));
            t = next;
            n += 1;
        }
        assert_eq!(n, 120);
        while t > 0.0 {
            let prev = s.prev_stop(t);
            assert!(prev < t);
            t = prev;
            n -= 1;
        }
        assert_eq!(n, 0);
    }

    #[test]
    fn stops_are_a_runs_events_in_whole_ms() {
        let s = Stops::new([300.0, 0.0, 12.5, 300.0, 2_000.0, f64::NAN], 1_000.0);
        assert_eq!(s.end_ms(), 1_000.0);
        assert_eq!(s.next_stop(0.0), 13.0);
        assert_eq!(s.next_stop(13.0), 300.0);
        assert_eq!(s.next_stop(299.0), 300.0);
        assert_eq!(s.next_stop(300.0), 1_000.0);
        assert_eq!(s.next_stop(1_000.0), 1_000.0);
        assert_eq!(s.prev_stop(1_000.0), 300.0);
        assert_eq!(s.prev_stop(300.0), 13.0);
        assert_eq!(s.prev_stop(13.0), 0.0);
        assert_eq!(s.done_at(299.0), 1);
        assert_eq!(s.done_at(300.0), 2);
        // A run with nothing in it ends at 0.
        assert_eq!(Stops::new([], 0.0).end_ms(), 0.0);
        assert_eq!(Stops::new([5.0], f64::INFINITY).end_ms(), 0.0);
    }

    #[test]
    fn a_moment_is_kept_in_whole_ms_within_the_run() {
        assert_eq!(snap(3.4, 10.0), 3.0);
        assert_eq!(snap(-1.0, 10.0), 0.0);
        assert_eq!(snap(11.0, 9.5), 10.0);
        assert_eq!(snap(f64::NAN, 9.5), 10.0);
        // At 1× the whole run plays in SECONDS_AT_1X; it stops at the end.
        assert_eq!(advance(&Ten, 0.0, 1000.0 * SECONDS_AT_1X, 1.0), 10.0);
        assert_eq!(advance(&Ten, 9.0, 60_000.0, 8.0), 10.0);
        assert!(advance(&Ten, 0.0, 1000.0, 0.25) < advance(&Ten, 0.0, 1000.0, 1.0));
    }
}
