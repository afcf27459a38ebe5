//! The idempotency store, as a state machine: an attempt with a key begins
//! (`Execute`, `Replay`, `Conflict`, `Wait` or `Mismatch`), its work
//! finishes (the answer kept for the TTL), answers expire. Played by the
//! idempotency scenario (`sim::idempotency::play`), with simulated time in ms.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// What the server does with a retry that arrives while the first attempt
/// with its key is still running.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum InProgress {
    /// Answer at once with a conflict (409): "in progress; ask again".
    #[default]
    Conflict,
    /// Hold the retry and give it the first attempt's answer when it is ready.
    Wait,
}

/// What the store holds for a key.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Entry {
    /// Saved before the work starts, so that a second copy cannot start it too.
    Running { body: String, since_ms: f64 },
    /// The answer given, kept until `expires_ms`.
    Done {
        body: String,
        reply: String,
        expires_ms: f64,
    },
}

/// What the server decides when an attempt arrives.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Begin {
    /// New operation (or no key): do the work.
    Execute,
    /// Seen and done: the same answer again, without doing the work.
    Replay(String),
    /// Seen and still running: a conflict answer.
    Conflict,
    /// Seen and still running: wait for its answer.
    Wait,
    /// The same key with another body: an error, never the old answer.
    Mismatch { stored: String },
}

/// The server's idempotency store: keys, their state, and expiry.
#[derive(Clone, Debug)]
pub struct Store {
    pub ttl_ms: f64,
    pub in_progress: InProgress,
    entries: BTreeMap<String, Entry>,
}

impl Store {
    pub fn new(ttl_ms: f64, in_progress: InProgress) -> Self {
        Store {
            ttl_ms,
            in_progress,
            entries: BTreeMap::new(),
        }
    }

    /// Forgets the answers kept past their time; returns the keys dropped.
    pub fn expire(&mut self, now: f64) -> Vec<String> {
        let gone: Vec<String> = self
            .entries
            .iter()
            .filter(|(_, e)| matches!(e, Entry::Done { expires_ms, .. } if *expires_ms <= now))
            .map(|(k, _)| k.clone())
            .collect();
        for k in &gone {
            self.entries.remove(k);
        }
        gone
    }

    /// An attempt arrives at `now`. With `Execute` and a key, the key is
    /// saved as running before any work is done.
    pub fn begin(&mut self, now: f64, key: Option<&str>, body: &str) -> Begin {
        self.expire(now);
        let Some(key) = key else {
            return Begin::Execute;
        };
        match self.entries.get(key) {
            None => {
                self.entries.insert(
                    key.to_string(),
                    Entry::Running {
                        body: body.to_string(),
                        since_ms: now,
                    },
                );
                Begin::Execute
            }
            Some(Entry::Running { body: b, .. } | Entry::Done { body: b, .. }) if b != body => {
                Begin::Mismatch { stored: b.clone() }
            }
            Some(Entry::Running { .. }) => match self.in_progress {
                InProgress::Conflict => Begin::Conflict,
                InProgress::Wait => Begin::Wait,
            },
            Some(Entry::Done { reply, .. }) => Begin::Replay(reply.clone()),
        }
    }

    /// The work for `key` finished at `now` with `reply`: keep it for the TTL.
    pub fn finish(&mut self, now: f64, key: Option<&str>, body: &str, reply: &str) {
        if let Some(k) = key {
            self.entries.insert(
                k.to_string(),
                Entry::Done {
                    body: body.to_string(),
                    reply: reply.to_string(),
                    expires_ms: now + self.ttl_ms,
                },
            );
        }
    }

    pub fn entries(&self) -> &BTreeMap<String, Entry> {
        &self.entries
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The store alone: no key always executes; a key executes once, then
    /// replays its answer; a second attempt while the first runs conflicts or
    /// waits as configured; another body under the same key is a mismatch,
    /// never the old answer; an answer expires at its TTL (at, not after).
    #[test]
    fn begin_finish_expire() {
        let mut s = Store::new(1_000.0, InProgress::Conflict);
        assert_eq!(s.begin(0.0, None, "a"), Begin::Execute);
        assert_eq!(s.begin(0.0, None, "a"), Begin::Execute, "no key: every attempt is new");
        assert_eq!(s.begin(0.0, Some("k"), "a"), Begin::Execute);
        assert_eq!(s.begin(1.0, Some("k"), "a"), Begin::Conflict, "still running");
        assert_eq!(s.begin(1.0, Some("k"), "b"), Begin::Mismatch { stored: "a".into() });
        s.finish(10.0, Some("k"), "a", "hecho");
        assert_eq!(s.begin(20.0, Some("k"), "a"), Begin::Replay("hecho".into()));
        assert_eq!(s.begin(20.0, Some("k"), "b"), Begin::Mismatch { stored: "a".into() });
        assert!(s.expire(1_009.0).is_empty(), "kept until its TTL");
        assert_eq!(s.expire(1_010.0), vec!["k".to_string()], "gone at its TTL");
        assert_eq!(s.begin(1_011.0, Some("k"), "b"), Begin::Execute, "a new operation");

        let mut w = Store::new(1_000.0, InProgress::Wait);
        assert_eq!(w.begin(0.0, Some("k"), "a"), Begin::Execute);
        assert_eq!(w.begin(1.0, Some("k"), "a"), Begin::Wait);
        assert!(matches!(w.entries().get("k"), Some(Entry::Running { since_ms, .. }) if *since_ms == 0.0));
    }
}
