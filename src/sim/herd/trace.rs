//! The herd played in time: every attempt of a run, recorded from the
//! lesson's own algorithm ([`super::reference`]; the fast engine counts
//! windows and keeps no attempt), and what is seen at any moment.
//!
//! A moment `t` (ms) has seen every attempt that arrived at or before `t`.
//! Its figures come from sorted arrays by binary search; its windows from
//! the checkpoints, one per window that had arrivals (its first attempt's
//! index and the highest window before it), so no moment replays the run.
//! Each client is a mark: where it is between its last attempt and its next
//! ([`HerdTrace::marks`]), or which pile it ended in, at the place its turn
//! gives it. Past [`MAX_MARKS`] clients, one mark stands for several, and
//! the page says how many.
//!
//! Memory ([`HerdTrace::bytes`]): 16 bytes per attempt, 17 per client, 32 per window.
//! The largest accepted runs (100,000 clients, 10 retries, a capacity of 1:
//! about a million attempts) hold 18.0 MB (full jitter) and 17.7 MB (none),
//! so the widget's two stay within the 64 MB a page's player may use; a test
//! records them. (While recording, 4 bytes more per attempt, and the
//! reference's heap.)

use super::reference::{simulate_observed, Fate};
use super::{HerdParams, HerdResult};
use crate::sim::playback::Playback;

/// The most marks drawn: the lesson's 1,000 clients, each its own.
pub const MAX_MARKS: u32 = 1_000;

/// A whole run, attempt by attempt.
#[derive(Clone, Debug, PartialEq)]
pub struct HerdTrace {
    pub clients: u32,
    /// The run's figures as [`super::simulate`] reports them.
    pub result: HerdResult,
    /// Every attempt's arrival, in order.
    arrivals: Vec<f64>,
    /// When each served client was served, and each other gave up, in order.
    served_at: Vec<f64>,
    gave_up_at: Vec<f64>,
    /// Checkpoints, one per window in `result.windows`: the index in
    /// `arrivals` of its first attempt, and the highest count before it.
    first: Vec<u32>,
    peak_before: Vec<u32>,
    /// Each client's attempts: `times[starts[c]..starts[c + 1]]`.
    starts: Vec<u32>,
    times: Vec<f64>,
    /// Whether each client's last attempt was served (else it gave up), and
    /// its turn among the clients of the same fate.
    served: Vec<bool>,
    rank: Vec<u32>,
    /// Its steps and its end.
    span: HerdSpan,
}

/// The figures at one moment.
#[derive(Clone, Debug, PartialEq)]
pub struct HerdMoment {
    pub t_ms: f64,
    pub attempts: u64,
    pub served: u32,
    pub gave_up: u32,
    /// Clients neither served nor given up yet: waiting for their next try.
    pub waiting: u32,
    /// The most attempts in one window so far (the window under way counted so far).
    pub peak: u32,
    /// Attempts per window so far, as [`HerdResult::windows`].
    pub windows: Vec<(u64, u32)>,
}

impl HerdMoment {
    /// The moment as the command line says it: `a los 300 ms: 50 atendidos, …`.
    pub fn line(&self, window_ms: u32) -> String {
        use crate::fmt::es_int;
        format!(
            "a los {} ms: {} atendidos, {} se rinden, {} esperando, pico de {} en {} ms, {} intentos",
            es_int(self.t_ms.round() as i64),
            es_int(self.served as i64),
            es_int(self.gave_up as i64),
            es_int(self.waiting as i64),
            es_int(self.peak as i64),
            es_int(window_ms as i64),
            es_int(self.attempts as i64)
        )
    }

    /// The moment's figures as a result, for the chart.
    pub fn as_result(&self, window_ms: u32) -> HerdResult {
        HerdResult {
            served: self.served,
            gave_up: self.gave_up,
            peak: self.peak,
            attempts: self.attempts,
            window_ms,
            windows: self.windows.clone(),
        }
    }
}

/// Where a client is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MarkState {
    /// On its way to its first attempt (all failed together at t = 0).
    First,
    /// Rejected at least once, waiting for its next attempt.
    Retrying,
    /// Served; its turn among the served.
    Served,
    /// Its last retry was rejected too; its turn among those who gave up.
    GaveUp,
}

/// One client (or one of every `stride`) at a moment.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Mark {
    pub client: u32,
    pub state: MarkState,
    /// Waiting: how far along its wait, 0 (just failed) to 1 (arriving).
    pub progress: f32,
    /// Attempts made so far.
    pub tries: u32,
    /// Served or gave up: its place in its pile (0, 1, 2… in the order its clients got there).
    pub turn: u32,
}

/// The marks of a moment.
#[derive(Clone, Debug, PartialEq)]
pub struct Marks {
    /// Clients per mark: 1 up to [`MAX_MARKS`] clients.
    pub stride: u32,
    pub marks: Vec<Mark>,
}

fn upto(sorted: &[f64], t: f64) -> usize {
    sorted.partition_point(|x| *x <= t)
}

impl HerdTrace {
    /// Plays `p` with the reference algorithm, keeping every attempt.
    pub fn record(p: &HerdParams) -> Self {
        // Each attempt's time and client, in arrival order (12 bytes an attempt while recording).
        let mut arrivals = Vec::new();
        let mut who: Vec<u32> = Vec::new();
        let mut served_at = Vec::new();
        let mut gave_up_at = Vec::new();
        let mut fate = vec![(false, 0u32); p.clients as usize];
        let result = simulate_observed(p, |t, client, _n, f| {
            arrivals.push(t);
            who.push(client);
            match f {
                Fate::Served => {
                    fate[client as usize] = (true, served_at.len() as u32);
                    served_at.push(t);
                }
                Fate::GaveUp => {
                    fate[client as usize] = (false, gave_up_at.len() as u32);
                    gave_up_at.push(t);
                }
                Fate::Rejected => {}
            }
        });
        // Per client, in time order (the arrivals are).
        let mut starts = vec![0u32; p.clients as usize + 1];
        for c in &who {
            starts[*c as usize + 1] += 1;
        }
        for c in 0..p.clients as usize {
            starts[c + 1] += starts[c];
        }
        let mut fill = starts.clone();
        let mut times = vec![0.0; arrivals.len()];
        for (c, t) in who.iter().zip(&arrivals) {
            times[fill[*c as usize] as usize] = *t;
            fill[*c as usize] += 1;
        }
        let (mut first, mut peak_before) = (Vec::new(), Vec::new());
        let (mut at, mut peak) = (0u32, 0u32);
        for (_, count) in &result.windows {
            first.push(at);
            peak_before.push(peak);
            at += count;
            peak = peak.max(*count);
        }
        HerdTrace {
            clients: p.clients,
            span: HerdSpan::of(&[&result]),
            result,
            arrivals,
            served_at,
            gave_up_at,
            first,
            peak_before,
            starts,
            times,
            served: fate.iter().map(|f| f.0).collect(),
            rank: fate.iter().map(|f| f.1).collect(),
        }
    }

    /// The bytes the trace holds (its arrays' lengths; what a page pays to play it).
    pub fn bytes(&self) -> usize {
        use std::mem::size_of_val;
        size_of_val(&self.arrivals[..])
            + size_of_val(&self.served_at[..])
            + size_of_val(&self.gave_up_at[..])
            + size_of_val(&self.first[..])
            + size_of_val(&self.peak_before[..])
            + size_of_val(&self.starts[..])
            + size_of_val(&self.times[..])
            + size_of_val(&self.served[..])
            + size_of_val(&self.rank[..])
            + size_of_val(&self.result.windows[..])
            + size_of_val(&self.span.ends[..])
    }

    /// The figures at `t`.
    pub fn at(&self, t: f64) -> HerdMoment {
        let seen = upto(&self.arrivals, t);
        let served = upto(&self.served_at, t) as u32;
        let gave_up = upto(&self.gave_up_at, t) as u32;
        // The windows begun by `t`: those whose first attempt has arrived.
        let begun = self.first.partition_point(|f| (*f as usize) < seen);
        let mut windows: Vec<(u64, u32)> = self.result.windows[..begun].to_vec();
        let mut peak = 0;
        if let Some(last) = windows.last_mut() {
            // The last one, counted so far.
            last.1 = last.1.min(seen as u32 - self.first[begun - 1]);
            peak = self.peak_before[begun - 1].max(last.1);
        }
        HerdMoment {
            t_ms: t,
            attempts: seen as u64,
            served,
            gave_up,
            waiting: self.clients - served - gave_up,
            peak,
            windows,
        }
    }

    /// Every client (or one of every `stride`) at `t`.
    pub fn marks(&self, t: f64) -> Marks {
        let stride = self.clients.div_ceil(MAX_MARKS).max(1);
        let marks = (0..self.clients)
            .step_by(stride as usize)
            .map(|c| {
                let ts = &self.times[self.starts[c as usize] as usize..self.starts[c as usize + 1] as usize];
                let tries = upto(ts, t);
                let done = tries == ts.len();
                if done {
                    let state = if self.served[c as usize] {
                        MarkState::Served
                    } else {
                        MarkState::GaveUp
                    };
                    return Mark {
                        client: c,
                        state,
                        progress: 1.0,
                        tries: tries as u32,
                        // Its turn among all clients of its fate; made its turn among the marks below.
                        turn: self.rank[c as usize],
                    };
                }
                let from = if tries == 0 { 0.0 } else { ts[tries - 1] };
                let to = ts[tries];
                let progress = if to > from {
                    ((t - from) / (to - from)).clamp(0.0, 1.0)
                } else {
                    1.0
                };
                Mark {
                    client: c,
                    state: if tries == 0 {
                        MarkState::First
                    } else {
                        MarkState::Retrying
                    },
                    progress: progress as f32,
                    tries: tries as u32,
                    turn: 0,
                }
            })
            .collect::<Vec<Mark>>();
        // Each pile in the order its clients got there, with no gap: one of every
        // `stride` clients is drawn, so the marks' turns are their order among the drawn.
        let mut marks = marks;
        for fate in [MarkState::Served, MarkState::GaveUp] {
            let mut done: Vec<usize> = (0..marks.len()).filter(|i| marks[*i].state == fate).collect();
            done.sort_unstable_by_key(|i| marks[*i].turn);
            for (turn, i) in done.into_iter().enumerate() {
                marks[i].turn = turn as u32;
            }
        }
        Marks { stride, marks }
    }
}

/// The herd's runs as the player steps through them: the ends of the
/// windows that had attempts, in either run (the chosen jitter, «sin
/// jitter»). Built from the fast engine's results, so the player knows the
/// run's length before any trace is recorded; a trace ends where its run does.
#[derive(Clone, Debug, PartialEq)]
pub struct HerdSpan {
    ends: Vec<f64>,
}

impl HerdSpan {
    pub fn of(runs: &[&HerdResult]) -> Self {
        let mut ends: Vec<f64> = runs
            .iter()
            .flat_map(|r| r.windows.iter().map(move |(k, _)| (*k + 1) as f64 * r.window_ms as f64))
            .collect();
        ends.sort_unstable_by(f64::total_cmp);
        ends.dedup();
        HerdSpan { ends }
    }
}

impl Playback for HerdSpan {
    /// The end of the last window with an attempt: by then every client is served or gave up.
    fn end_ms(&self) -> f64 {
        self.ends.last().copied().unwrap_or(0.0)
    }
    /// The end of the next window that has attempts: each step shows one more column.
    fn next_stop(&self, t: f64) -> f64 {
        let i = self.ends.partition_point(|e| *e <= t);
        self.ends.get(i).copied().unwrap_or(self.end_ms())
    }
    fn prev_stop(&self, t: f64) -> f64 {
        let i = self.ends.partition_point(|e| *e < t);
        if i == 0 {
            0.0
        } else {
            self.ends[i - 1]
        }
    }
}

/// A trace plays as its run's span.
impl Playback for HerdTrace {
    fn end_ms(&self) -> f64 {
        self.span.end_ms()
    }
    fn next_stop(&self, t: f64) -> f64 {
        self.span.next_stop(t)
    }
    fn prev_stop(&self, t: f64) -> f64 {
        self.span.prev_stop(t)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::herd::simulate;
    use crate::sim::policy::backoff::Jitter;

    #[test]
    fn the_lessons_herd_at_its_end_and_on_its_way() {
        for (jitter, served, gave_up, peak, attempts) in
            [(Jitter::None, 150, 850, 1000, 2850), (Jitter::Full, 1000, 0, 61, 1061)]
        {
            let p = HerdParams {
                jitter,
                ..HerdParams::default()
            };
            let tr = HerdTrace::record(&p);
            let end = tr.at(tr.end_ms());
            assert_eq!(
                (end.served, end.gave_up, end.peak, end.attempts),
                (served, gave_up, peak, attempts)
            );
            assert_eq!(end.as_result(10), simulate(&p));
            assert_eq!(tr.at(0.0).attempts, 0);
            assert_eq!(tr.marks(0.0).marks.len(), 1000);
            assert_eq!(tr.marks(0.0).stride, 1);
        }
        // Without jitter the whole herd comes back at 200 ms (the lesson's «tope de 200»),
        // in the window [200, 210): the first wave, 50 served. The second at 200 + 400 ms.
        let p = HerdParams {
            jitter: Jitter::None,
            ..HerdParams::default()
        };
        let tr = HerdTrace::record(&p);
        assert_eq!(tr.at(199.0).attempts, 0);
        let wave = tr.at(200.0);
        assert_eq!(
            (wave.attempts, wave.served, wave.peak, wave.waiting),
            (1000, 50, 1000, 950)
        );
        assert_eq!(wave.windows, [(20, 1000)]);
        assert_eq!(tr.next_stop(0.0), 210.0);
        assert_eq!(tr.prev_stop(210.0), 0.0);
        assert_eq!(tr.next_stop(210.0), 610.0);
        assert_eq!(tr.at(610.0).attempts, 1950);
        assert_eq!(tr.end_ms(), 1410.0);
        assert_eq!(tr.at(1409.0).attempts, 2850);
        let m = tr.marks(300.0);
        assert_eq!(m.marks.iter().filter(|k| k.state == MarkState::Served).count(), 50);
        assert!(m
            .marks
            .iter()
            .filter(|k| k.state == MarkState::Retrying)
            .all(|k| (k.progress - 0.25).abs() < 1e-6));
    }

    #[test]
    fn every_run_ends_before_the_latest_moment_a_link_may_name() {
        use crate::sim::params::{Kind, Params};
        // The longest waits: decorrelated jitter draws up to 3 × the previous wait, so retry k
        // waits at most base × 3^k; no cap; the most retries and the largest base.
        let spec = |k: &str| match HerdParams::specs().iter().find(|s| s.key == k).map(|s| s.kind) {
            Some(Kind::Int { max, .. }) => max as f64,
            _ => unreachable!(),
        };
        let (base, retries) = (spec("base-ms"), spec("retries") as i32);
        let longest: f64 = (1..=retries).map(|k| base * 3f64.powi(k)).sum();
        assert!(longest < crate::sim::playback::MAX_T_MS as f64, "{longest}");
        assert_eq!(spec("t-ms") as i64, crate::sim::playback::MAX_T_MS);
    }

    #[test]
    fn the_largest_runs_fit_the_players_memory_and_keep_one_mark_of_a_hundred() {
        // The most attempts any accepted run makes: every client rejected up to its last retry.
        let p = HerdParams {
            clients: 100_000,
            retries: 10,
            capacity: 1,
            ..HerdParams::default()
        };
        let mut total = 0;
        for jitter in [Jitter::Full, Jitter::None] {
            let tr = HerdTrace::record(&HerdParams { jitter, ..p.clone() });
            assert!(tr.result.attempts > 900_000, "{}", tr.result.attempts);
            assert!(tr.bytes() <= 16 * tr.result.attempts as usize + 17 * 100_001 + 32 * tr.result.windows.len());
            total += tr.bytes();
            let m = tr.marks(tr.end_ms());
            assert_eq!((m.stride, m.marks.len()), (100, 1000));
            // Each pile is packed: its marks take the places 0, 1, 2…
            for fate in [MarkState::Served, MarkState::GaveUp] {
                let mut turns: Vec<u32> = m.marks.iter().filter(|k| k.state == fate).map(|k| k.turn).collect();
                turns.sort_unstable();
                assert!(turns.iter().enumerate().all(|(i, t)| *t == i as u32), "{fate:?}");
            }
        }
        // Both of the widget's runs, within the 64 MB the issue allows a page's player.
        assert!(total < 64 << 20, "{total}");
    }
}
