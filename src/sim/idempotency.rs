//! The idempotency key: a retried POST that does not publish twice.
//!
//! Why: when a call times out, the caller cannot tell whether the request
//! never arrived, is still running, or was done and only the answer was
//! lost. Retrying is safe only if doing the operation twice leaves the same
//! result as doing it once. For a POST that creates something, the client
//! makes it so: it generates one key per *operation* (not per attempt) and
//! sends it with every attempt; the server stores each key with the answer
//! it gave and, when a key comes back, returns that answer without doing the
//! work again.
//!
//! ```
//! use sensei_lab::sim::idempotency::Server;
//! let mut s = Server::default();
//! let first = s.publish("Tenis naranjas", Some("k-1"));
//! let retry = s.publish("Tenis naranjas", Some("k-1"));
//! assert_eq!(first, retry);
//! assert_eq!(s.stored().len(), 1);
//! ```

use crate::sim::params::ChoiceKey;
use crate::sim::policy::rng::PyRandom;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The lesson's server: what it stored, and the answer given for each key.
#[derive(Clone, Debug, Default)]
pub struct Server {
    posts: Vec<String>,
    /// Python's dict `ya_hechas`; only looked up, never listed, so an ordered
    /// map does the same (and the browser build carries no second hash map).
    done: BTreeMap<String, String>,
}

impl Server {
    /// `publicar(titulo, llave)`: publishes unless the key was seen before.
    pub fn publish(&mut self, title: &str, key: Option<&str>) -> String {
        if let Some(answer) = key.and_then(|k| self.done.get(k)) {
            return answer.clone();
        }
        self.posts.push(title.to_string());
        let answer = format!("publicación #{}", self.posts.len());
        if let Some(k) = key {
            self.done.insert(k.to_string(), answer.clone());
        }
        answer
    }

    pub fn stored(&self) -> &[String] {
        &self.posts
    }

    pub fn clear(&mut self) {
        self.posts.clear();
    }
}

/// A version-4 UUID drawn from the seeded RNG (the lesson's program uses
/// `uuid.uuid4()`; it never prints it, so any fresh key will do).
pub fn uuid4(rng: &mut PyRandom) -> String {
    let mut b = [0u8; 16];
    for chunk in b.chunks_mut(4) {
        chunk.copy_from_slice(&rng.next_u32().to_le_bytes());
    }
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    let h: String = b.iter().map(|x| format!("{x:02x}")).collect();
    format!(
        "{}-{}-{}-{}-{}",
        &h[0..8],
        &h[8..12],
        &h[12..16],
        &h[16..20],
        &h[20..32]
    )
}

/// `cliente(titulo, con_llave)`: publishes, the answer is lost, and the
/// client retries with the same key (or with none).
pub fn client(server: &mut Server, title: &str, with_key: bool, rng: &mut PyRandom) -> String {
    let key = with_key.then(|| uuid4(rng));
    server.publish(title, key.as_deref()); // published, but the answer is lost
    server.publish(title, key.as_deref()) // the retry carries the same key
}

/// Python's `repr` of a list of strings: `['a', 'b']`.
pub fn py_repr_list(items: &[String]) -> String {
    let parts: Vec<String> = items.iter().map(|s| py_repr_str(s)).collect();
    format!("[{}]", parts.join(", "))
}

/// Whether CPython's `repr` shows `c` as is (`str.isprintable()`).
#[cfg(not(target_arch = "wasm32"))]
fn printable(c: char) -> bool {
    crate::sim::printable::is_printable(c)
}

/// In the browser only the lesson's own title is shown (ASCII letters and a
/// space), so the control characters are enough there and the Unicode table
/// stays out of the download.
#[cfg(target_arch = "wasm32")]
fn printable(c: char) -> bool {
    !c.is_control()
}

/// Python's `repr` of a string (quote choice and escapes as CPython does).
pub fn py_repr_str(s: &str) -> String {
    let quote = if s.contains('\'') && !s.contains('"') {
        '"'
    } else {
        '\''
    };
    let mut out = String::new();
    out.push(quote);
    for ch in s.chars() {
        match ch {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c if !printable(c) => {
                let n = c as u32;
                out.push_str(&if n < 0x100 {
                    format!("\\x{n:02x}")
                } else if n < 0x10000 {
                    format!("\\u{n:04x}")
                } else {
                    format!("\\U{n:08x}")
                })
            }
            c => out.push(c),
        }
    }
    out.push(quote);
    out
}

/// The title of the post the lesson's program publishes.
pub const LESSON_TITLE: &str = "Tenis naranjas";
/// The seed the lab draws the lesson program's (never printed) UUID from.
pub const LESSON_SEED: u32 = 7;

/// The lesson's program, run by the core: its two printed lines.
pub fn lesson_program_output(title: &str, seed: u32) -> [String; 2] {
    let mut rng = PyRandom::new(seed);
    let mut server = Server::default();
    let without = client(&mut server, title, false, &mut rng);
    let a = format!("sin llave: {} · guardadas: {}", without, py_repr_list(server.stored()));
    server.clear();
    let with = client(&mut server, title, true, &mut rng);
    let b = format!("con llave: {} · guardadas: {}", with, py_repr_list(server.stored()));
    [a, b]
}

// ------------------------------------------------------------ the store

pub use crate::sim::policy::idempotency_store::{Begin, Entry, InProgress, Store};

// The store's setting as the command line and the URL write it.
impl ChoiceKey for InProgress {
    const KEYS: &'static [(Self, &'static str)] = &[(InProgress::Conflict, "conflict"), (InProgress::Wait, "wait")];
}

/// What an operation does, for the answer's wording.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Op {
    /// Publish a post (the lesson's program).
    Publish,
    /// Refund an order (exercise 9's tool).
    Refund,
}

impl Op {
    fn done(self, n: usize) -> String {
        match self {
            Op::Publish => format!("publicación #{n}"),
            Op::Refund => format!("reembolso #{n}"),
        }
    }
}

/// One attempt a client sends.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Attempt {
    pub op: Op,
    /// The idempotency key it carries, if any.
    pub key: Option<String>,
    /// What it asks for: a title, an amount.
    pub body: String,
    /// How long the server works on it, in ms.
    pub work_ms: f64,
    /// The answer is lost on its way back (the client sees a timeout).
    pub lose_reply: bool,
}

/// A step of a script: an attempt arrives now, or the clock moves on.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Action {
    Send(Attempt),
    Advance {
        ms: f64,
    },
    /// The clock moves on as with `Advance`, and the script says so in a
    /// line of its own (the learner's «avanzar»: each of the learner's steps
    /// is at least one line of the script the player plays).
    Wait {
        ms: f64,
    },
}

/// One line of a played script.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Row {
    pub t_ms: f64,
    /// "intento 2", "servidor".
    pub who: String,
    /// What happened, in Spanish.
    pub what: String,
    /// The answer the client gets, if one arrives now (None if lost or not yet).
    pub reply: Option<String>,
    /// The store after this line: `(key, state in Spanish)`.
    pub store: Vec<(String, String)>,
    /// Operations performed so far (posts published, refunds paid).
    pub performed: usize,
}

/// A played script: its lines, and every operation performed, with its key.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Played {
    pub rows: Vec<Row>,
    /// `(key, body)` of each operation performed, in order.
    pub performed: Vec<(Option<String>, String)>,
    pub now_ms: f64,
    /// The script had more than [`MAX_ACTIONS`] actions: only the first
    /// ones were played.
    pub truncated: bool,
}

impl Played {
    /// How many times the operation was done, and why, in one sentence:
    /// `(tone, sentence)` with tone `ok`, `warn` or `bad`. The reason named
    /// is a fact of `performed` (tests/relations.rs checks it).
    pub fn verdict(&self) -> (&'static str, String) {
        verdict_of(&self.performed)
    }
}

/// The verdict on these operations (the first ones of a played script: the
/// verdict at one of its lines).
fn verdict_of(performed: &[(Option<String>, String)]) -> (&'static str, String) {
    let n = performed.len();
    if n == 0 {
        return ("warn", "Todavía no se hizo ninguna operación.".to_string());
    }
    if n == 1 {
        return ("ok", "La operación se hizo una sola vez.".to_string());
    }
    let keys: Vec<&Option<String>> = performed.iter().map(|(k, _)| k).collect();
    let repeated_key = keys
        .iter()
        .enumerate()
        .any(|(i, k)| k.is_some() && keys[..i].contains(k));
    let why = if repeated_key {
        "la llave venció y se borró antes del reintento, así que el servidor ya no la recordaba"
    } else if keys.iter().any(|k| k.is_none()) {
        "cada reintento sin llave fue otra operación"
    } else {
        "cada reintento con una llave nueva fue otra operación"
    };
    ("bad", format!("La operación se hizo {n} veces: {why}."))
}

/// A played script after its first lines: the store as it was then.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlayedMoment {
    /// Lines played.
    pub rows: usize,
    /// The script's clock at the last of them, in ms.
    pub t_ms: f64,
    /// Operations performed by then.
    pub performed: usize,
    /// The store then: `(key, state in Spanish)`.
    pub store: Vec<(String, String)>,
    /// The verdict on the operations performed by then ([`Played::verdict`]
    /// at this line): what the page says beside the table, of the same line.
    pub verdict: (&'static str, String),
}

impl PlayedMoment {
    /// The moment in the learner's words.
    pub fn line(&self) -> String {
        format!(
            "hasta la línea {} ({}): {}; el registro guarda {}",
            self.rows,
            clock(self.t_ms),
            crate::fmt::es_count(self.performed as i64, "operación hecha", "operaciones hechas"),
            crate::fmt::es_count(self.store.len() as i64, "llave", "llaves")
        )
    }
}

/// The most lines a played script has (every action makes at most 3: an
/// attempt's arrival, its work's end or its wait for another's, its key's expiry).
pub const MAX_LINES: usize = 3 * MAX_ACTIONS;

impl Played {
    /// The script as the player steps it: a line at a time (its moment
    /// counts lines, a second of the player's time each: many lines happen
    /// at the same instant of the script's clock).
    pub fn span(&self) -> crate::sim::playback::Steps {
        crate::sim::playback::Steps {
            step_ms: 1000.0,
            count: self.rows.len(),
        }
    }

    /// The script after the lines played by `t` (the player's time).
    pub fn at(&self, t: f64) -> PlayedMoment {
        let k = self.span().done_at(t);
        let last = k.checked_sub(1).map(|i| &self.rows[i]);
        PlayedMoment {
            rows: k,
            t_ms: last.map_or(0.0, |r| r.t_ms),
            performed: last.map_or(0, |r| r.performed),
            store: last.map(|r| r.store.clone()).unwrap_or_default(),
            verdict: verdict_of(&self.performed[..last.map_or(0, |r| r.performed).min(self.performed.len())]),
        }
    }
}

/// Most actions one script plays.
pub const MAX_ACTIONS: usize = 200;

/// Plays a script against a fresh store: attempts arrive at the script's
/// clock, work finishes `work_ms` later, answers are kept for the TTL.
pub fn play(actions: &[Action], ttl_ms: f64, in_progress: InProgress) -> Played {
    struct Job {
        at: f64,
        n: usize,
        a: Attempt,
        waiters: Vec<usize>,
    }
    let mut store = Store::new(ttl_ms.clamp(0.0, 1e15), in_progress);
    let mut rows = Vec::new();
    let mut performed: Vec<(Option<String>, String)> = Vec::new();
    let mut jobs: Vec<Job> = Vec::new();
    let mut now = 0.0f64;
    let mut n_attempt = 0usize;
    let snapshot = |store: &Store| -> Vec<(String, String)> {
        store
            .entries()
            .iter()
            .map(|(k, e)| {
                let state = match e {
                    Entry::Running { body, .. } => format!("en curso · {body}"),
                    Entry::Done { body, reply, .. } => format!("hecha · {body} → {reply}"),
                };
                (k.clone(), state)
            })
            .collect()
    };
    // Finishes the work due by `until` (and drops expired keys), in time order.
    let settle = |until: f64,
                  store: &mut Store,
                  jobs: &mut Vec<Job>,
                  rows: &mut Vec<Row>,
                  performed: &mut Vec<(Option<String>, String)>| loop {
        let next_job = jobs
            .iter()
            .enumerate()
            .filter(|(_, j)| j.at <= until)
            .min_by(|a, b| a.1.at.total_cmp(&b.1.at))
            .map(|(i, j)| (i, j.at));
        let next_expiry = store
            .entries()
            .iter()
            .filter_map(|(k, e)| match e {
                Entry::Done { expires_ms, .. } if *expires_ms <= until => Some((k.clone(), *expires_ms)),
                _ => None,
            })
            .min_by(|a, b| a.1.total_cmp(&b.1));
        match (next_job, next_expiry) {
            (Some((i, t)), e) if e.as_ref().is_none_or(|e| t <= e.1) => {
                let job = jobs.remove(i);
                performed.push((job.a.key.clone(), job.a.body.clone()));
                let reply = job.a.op.done(performed.len());
                store.finish(t, job.a.key.as_deref(), &job.a.body, &reply);
                let what = if job.a.lose_reply {
                    format!("el servidor termina ({reply}), pero el cliente no recibe la respuesta: se perdió en la red o ya se rindió")
                } else {
                    format!("el servidor termina: {reply}")
                };
                rows.push(Row {
                    t_ms: t,
                    who: format!("intento {}", job.n),
                    what,
                    reply: (!job.a.lose_reply).then(|| format!("200 · {reply}")),
                    store: snapshot(store),
                    performed: performed.len(),
                });
                for w in job.waiters {
                    rows.push(Row {
                        t_ms: t,
                        who: format!("intento {w}"),
                        what: format!("recibe la respuesta del intento {}, sin repetir la operación", job.n),
                        reply: Some(format!("200 · {reply}")),
                        store: snapshot(store),
                        performed: performed.len(),
                    });
                }
            }
            (_, Some((k, t))) => {
                store.expire(t);
                rows.push(Row {
                    t_ms: t,
                    who: "servidor".into(),
                    what: format!("la llave {} vence y se borra", short(&k)),
                    reply: None,
                    store: snapshot(store),
                    performed: performed.len(),
                });
            }
            _ => break,
        }
    };
    let truncated = actions.len() > MAX_ACTIONS;
    for action in actions.iter().take(MAX_ACTIONS) {
        match action {
            Action::Advance { ms } | Action::Wait { ms } => {
                let ms = if ms.is_finite() { ms.clamp(0.0, 1e12) } else { 0.0 };
                settle(now + ms, &mut store, &mut jobs, &mut rows, &mut performed);
                now += ms;
                if let Action::Wait { .. } = action {
                    rows.push(Row {
                        t_ms: now,
                        who: "reloj".into(),
                        what: format!("el reloj avanza {}", duration(ms)),
                        reply: None,
                        store: snapshot(&store),
                        performed: performed.len(),
                    });
                }
            }
            Action::Send(a) => {
                settle(now, &mut store, &mut jobs, &mut rows, &mut performed);
                n_attempt += 1;
                let key_text = a
                    .key
                    .as_deref()
                    .map_or("sin llave".to_string(), |k| format!("llave {}", short(k)));
                let arrives = format!("llega ({key_text}, {})", a.body);
                let mut row = |what: String, reply: Option<String>, store: &Store, performed: usize| {
                    rows.push(Row {
                        t_ms: now,
                        who: format!("intento {n_attempt}"),
                        what,
                        reply,
                        store: snapshot(store),
                        performed,
                    })
                };
                match store.begin(now, a.key.as_deref(), &a.body) {
                    Begin::Execute => {
                        let what = if a.key.is_some() {
                            format!("{arrives}: llave nueva; se guarda «en curso» y el servidor empieza")
                        } else {
                            format!("{arrives}: sin llave no hay cómo reconocerlo; el servidor empieza")
                        };
                        row(what, None, &store, performed.len());
                        let work = if a.work_ms.is_finite() {
                            a.work_ms.clamp(0.0, 1e12)
                        } else {
                            0.0
                        };
                        jobs.push(Job {
                            at: now + work,
                            n: n_attempt,
                            a: a.clone(),
                            waiters: Vec::new(),
                        });
                    }
                    Begin::Replay(reply) => {
                        let lost = if a.lose_reply {
                            " (y esta también se pierde)"
                        } else {
                            ""
                        };
                        row(
                            format!(
                                "{arrives}: ya se hizo; devuelve la misma respuesta sin repetir la operación{lost}"
                            ),
                            (!a.lose_reply).then(|| format!("200 · {reply}")),
                            &store,
                            performed.len(),
                        );
                    }
                    Begin::Conflict => row(
                        format!("{arrives}: la misma llave sigue en curso; no la repite: contesta un conflicto"),
                        Some("409 · en curso, vuelve a preguntar".into()),
                        &store,
                        performed.len(),
                    ),
                    Begin::Wait => {
                        row(
                            format!("{arrives}: la misma llave sigue en curso; espera su resultado"),
                            None,
                            &store,
                            performed.len(),
                        );
                        let k = a.key.as_deref();
                        if let Some(j) = jobs.iter_mut().find(|j| j.a.key.as_deref() == k) {
                            j.waiters.push(n_attempt);
                        }
                    }
                    Begin::Mismatch { stored } => row(
                        format!("{arrives}: la llave ya se usó con «{stored}»; es un error del cliente"),
                        Some("422 · la llave no corresponde a esta operación".into()),
                        &store,
                        performed.len(),
                    ),
                }
            }
        }
    }
    // Whatever is due at the end (work that takes no time) finishes too.
    settle(now, &mut store, &mut jobs, &mut rows, &mut performed);
    Played {
        rows,
        performed,
        now_ms: now,
        truncated,
    }
}

/// Simulated time as the table shows it: `0 s`, `5 s`, `25 h 0 min 13 s`.
pub fn clock(ms: f64) -> String {
    let s = (ms / 1000.0).round().max(0.0) as u64;
    let (h, m, sec) = (s / 3600, (s / 60) % 60, s % 60);
    match (h, m) {
        (0, 0) => format!("{sec} s"),
        (0, _) => format!("{m} min {sec} s"),
        _ => format!("{h} h {m} min {sec} s"),
    }
}

/// A stretch of the script's clock: `500 ms`, `1,500 ms`, `5 s`, `24 h 0 min 0 s`.
fn duration(ms: f64) -> String {
    if ms < 60_000.0 && ms % 1000.0 != 0.0 {
        format!("{} ms", crate::fmt::es_int(ms.round() as i64))
    } else {
        clock(ms)
    }
}

/// The first 8 characters of a key, for the table.
pub fn short(key: &str) -> String {
    key.chars().take(8).collect()
}

/// The scripts the widget and the command line offer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Scenario {
    /// The lesson's program, without a key: published twice.
    #[default]
    NoKey,
    /// The lesson's program, with a key: published once.
    WithKey,
    /// A new key on each attempt (exercise 9 a): two refunds.
    KeyPerAttempt,
    /// A retry while the first attempt still runs (exercise 9 b).
    InProgress,
    /// The same key with another amount (exercise 9 c).
    OtherAmount,
    /// A retry after the key expired (exercise 9 d).
    Expired,
}

impl ChoiceKey for Scenario {
    const KEYS: &'static [(Self, &'static str)] = &[
        (Scenario::NoKey, "no-key"),
        (Scenario::WithKey, "with-key"),
        (Scenario::KeyPerAttempt, "key-per-attempt"),
        (Scenario::InProgress, "in-progress"),
        (Scenario::OtherAmount, "other-amount"),
        (Scenario::Expired, "expired"),
    ];
}

const SCENARIO_OPTIONS: &[(&str, &str)] = &[
    ("no-key", "publicar sin llave, se pierde la respuesta"),
    ("with-key", "publicar con llave, se pierde la respuesta"),
    ("key-per-attempt", "reembolso: una llave nueva por intento"),
    ("in-progress", "reembolso: reintento mientras sigue el primero"),
    ("other-amount", "reembolso: la misma llave con otro monto"),
    ("expired", "reembolso: reintento después de que vence la llave"),
];
const IN_PROGRESS_OPTIONS: &[(&str, &str)] = &[
    ("conflict", "contestar conflicto (409)"),
    ("wait", "esperar el resultado"),
];

crate::params! {
    /// The idempotency store's scenario. Defaults: the lesson's program, and
    /// for exercise 9 the orchestrator's 5 s timeout and Stripe's 24 h.
    #[derive(Eq)]
    pub struct StoreParams {
        /// The script to play
        scenario: Scenario = Scenario::NoKey => choice("Caso", SCENARIO_OPTIONS),
        /// A retry of a key still running: conflict or wait
        in_progress: InProgress = InProgress::Conflict => choice("Si la llave sigue en curso", IN_PROGRESS_OPTIONS),
        /// How long the server keeps each key, in hours (Stripe: at least 24)
        ttl_h: u32 = 24 => int("Cada llave se guarda", "h", 1, 720),
        /// In "expired": when the late retry arrives, in hours after the first
        late_retry_h: u32 = 25 => int("Reintento tardío después de", "h", 1, 1_000),
        /// The orchestrator's timeout, in s (exercise 9: 5)
        timeout_s: u32 = 5 => int("Timeout del orquestador", "s", 1, 60),
        /// How long the refund takes in the in-progress case, in s (longer than the timeout: the retry finds it running; shorter: the answer comes in time and nothing is retried); the other cases take 1 s
        work_s: u32 = 8 => int("En el caso «en curso», el reembolso tarda", "s", 1, 60),
        /// Seed of the keys (UUIDs)
        seed: u32 = 7 => int("Semilla de las llaves", "", 0, u32::MAX as i64),
        /// The learner's own steps after the case's script, in order, separated by dots: another attempt like the
        /// last one with the same key (same-key), none (no-key), a new one (new-key), or the same key with another
        /// body (other-body); or the clock moved on (wait-5s, wait-1h, wait-24h: ms, s, min or h)
        steps: String = String::new() => text("Tus pasos", STEPS_MAX_CHARS),
        /// The lines of the table shown (the player's moment: a script is played a line at a time, and
        /// many of its lines happen at the same instant); none = all of them
        line: crate::sim::params::Maybe = None => optional("Líneas mostradas", "", "todas", "hasta una línea", 0, MAX_LINES as i64),
    }
}

// ------------------------------------------------------------ the learner's own steps

/// A step the learner adds after a case's script («Sigue tú»): another
/// attempt like the last one sent (the same operation, its answer not lost),
/// or the clock moved on. The steps are a parameter (`steps`), so the page,
/// its URL and the command line play the same script, and a link replays them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// With the last key sent (none if none was ever sent).
    SameKey,
    /// Without a key.
    NoKey,
    /// With a key never used.
    NewKey,
    /// With the last key sent, and another body.
    OtherBody,
    /// The clock moves on this many ms (1 to [`MAX_WAIT_MS`]).
    Wait(u64),
}

/// The most steps of their own a learner adds (the page says so when reached).
pub const MAX_STEPS: usize = 40;

/// The longest wait a step may be: 1,000 h, in ms.
pub const MAX_WAIT_MS: u64 = 1_000 * 3_600_000;

/// The longest `steps` text: [`MAX_STEPS`] of the longest step (`wait-3600000000ms`) and their dots.
pub const STEPS_MAX_CHARS: usize = MAX_STEPS * 18;

/// A wait's units, the largest first (a wait is written in the largest that divides it).
const WAIT_UNITS: &[(&str, u64)] = &[("h", 3_600_000), ("min", 60_000), ("s", 1_000), ("ms", 1)];

impl Step {
    /// The step as the parameter writes it: `same-key`, `wait-5s`.
    pub fn key(self) -> String {
        match self {
            Step::SameKey => "same-key".into(),
            Step::NoKey => "no-key".into(),
            Step::NewKey => "new-key".into(),
            Step::OtherBody => "other-body".into(),
            Step::Wait(ms) => {
                let (unit, size) = WAIT_UNITS
                    .iter()
                    .find(|(_, size)| ms % size == 0)
                    .copied()
                    .unwrap_or(("ms", 1));
                format!("wait-{}{unit}", ms / size)
            }
        }
    }

    /// A step as the parameter writes it; `None` if it is not one.
    pub fn parse(word: &str) -> Option<Step> {
        match word {
            "same-key" => return Some(Step::SameKey),
            "no-key" => return Some(Step::NoKey),
            "new-key" => return Some(Step::NewKey),
            "other-body" => return Some(Step::OtherBody),
            _ => {}
        }
        let rest = word.strip_prefix("wait-")?;
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        let (n, unit) = rest.split_at(digits);
        let size = WAIT_UNITS.iter().find(|(u, _)| *u == unit)?.1;
        let ms = n.parse::<u64>().ok()?.checked_mul(size)?;
        (1..=MAX_WAIT_MS).contains(&ms).then_some(Step::Wait(ms))
    }
}

/// Steps as the parameter writes them: their keys, separated by dots.
pub fn steps_text(steps: &[Step]) -> String {
    steps.iter().map(|s| s.key()).collect::<Vec<_>>().join(".")
}

/// The steps a `steps` text names (dots, commas or spaces between them), and
/// a note for what could not be used: a word that is not a step, or steps
/// past [`MAX_STEPS`].
pub fn steps_of(text: &str) -> (Vec<Step>, Vec<String>) {
    let mut steps = Vec::new();
    let mut notes = Vec::new();
    let mut past = 0usize;
    for word in text
        .split(|c: char| c == '.' || c == ',' || c.is_whitespace())
        .filter(|w| !w.is_empty())
    {
        match Step::parse(word) {
            Some(_) if steps.len() == MAX_STEPS => past += 1,
            Some(step) => steps.push(step),
            None => notes.push(format!(
                "Tus pasos: no se entiende «{}»; se deja fuera.",
                word.chars().take(24).collect::<String>()
            )),
        }
    }
    if past > 0 {
        notes.push(format!(
            "Tus pasos: son más de {MAX_STEPS}; se usan los primeros {MAX_STEPS}."
        ));
    }
    (steps, notes)
}

/// The action a step adds after `actions` (`None` before any attempt: there
/// is no attempt to repeat). `seed` draws a new key.
fn extend(actions: &[Action], step: Step, seed: u32) -> Option<Action> {
    let last = actions.iter().rev().find_map(|a| match a {
        Action::Send(a) => Some(a),
        Action::Advance { .. } | Action::Wait { .. } => None,
    })?;
    let key = actions.iter().rev().find_map(|a| match a {
        Action::Send(a) => a.key.clone(),
        Action::Advance { .. } | Action::Wait { .. } => None,
    });
    let attempt = |key: Option<String>, body: String| {
        Some(Action::Send(Attempt {
            key,
            body,
            lose_reply: false,
            ..last.clone()
        }))
    };
    match step {
        Step::SameKey => attempt(key, last.body.clone()),
        Step::NoKey => attempt(None, last.body.clone()),
        Step::NewKey => {
            let mut rng = PyRandom::new(seed.wrapping_add(actions.len() as u32).wrapping_add(1));
            attempt(Some(uuid4(&mut rng)), last.body.clone())
        }
        Step::OtherBody => attempt(key, format!("{} (otro)", last.body.trim_end_matches(" (otro)"))),
        Step::Wait(ms) => Some(Action::Wait { ms: ms as f64 }),
    }
}

/// What the learner does to the script on the page.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Edit {
    /// A step after the others (none past [`MAX_STEPS`]).
    Add(Step),
    /// The last step taken away.
    Undo,
    /// Every step taken away (another case starts afresh).
    Clear,
}

impl StoreParams {
    /// The learner's steps ([`steps_of`] its `steps`).
    pub fn steps(&self) -> (Vec<Step>, Vec<String>) {
        steps_of(&self.steps)
    }

    /// The parameters after an edit of the script. A script that changes is
    /// shown at its end (`line` none): a step added is seen at once, and
    /// no moment is left past the end of a shorter one. An edit that
    /// changes nothing (a step past the most, nothing to undo) leaves all as it was.
    pub fn edited(&self, edit: Edit) -> StoreParams {
        let (mut steps, _) = self.steps();
        let before = steps.len();
        match edit {
            Edit::Add(step) if before < MAX_STEPS => steps.push(step),
            Edit::Add(_) => {}
            Edit::Undo => {
                steps.pop();
            }
            Edit::Clear => steps.clear(),
        }
        if steps.len() == before {
            return self.clone();
        }
        StoreParams {
            steps: steps_text(&steps),
            line: None,
            ..self.clone()
        }
    }
}

/// What the command line says of it (`sensei-lab store --help`).
#[cfg(not(target_arch = "wasm32"))]
impl crate::sim::scenario::Scenario for StoreParams {
    const ABOUT: &'static str =
        "The idempotency store: keys, retries, a retry while the first runs, another body, expiry (exercise 9).";
    const BUDGET: &'static str = "scripts of at most 200 actions (the cases have a handful).";

    fn report(p: &Self, ctx: &mut impl crate::sim::scenario::Session) -> crate::sim::scenario::Run {
        use crate::sim::scenario::Run;
        use serde_json::json;
        let r = ctx.time(|| run(p));
        let mut lines: Vec<String> = r
            .rows
            .iter()
            .map(|row| {
                format!(
                    "{:>9}  {}: {}{}",
                    clock(row.t_ms),
                    row.who,
                    row.what,
                    row.reply.as_ref().map_or(String::new(), |x| format!(" → {x}"))
                )
            })
            .collect();
        lines.push(format!("operaciones hechas: {}", r.performed.len()));
        lines.push(r.verdict().1);
        // A moment: the lines played by then, and the store as it was.
        let mut notes = Vec::new();
        use crate::sim::playback::{moment_within, Playback};
        let said = |t: f64| crate::fmt::es_count((t / 1000.0).round() as i64, "línea", "líneas");
        let kept = p.line.map(|l| l.saturating_mul(1000));
        let at = moment_within(kept, r.span().end_ms(), said, &mut notes).map(|t| {
            let m = r.at(t);
            lines.push(m.line());
            lines.push(m.verdict.1.clone());
            m
        });
        notes.extend(p.steps().1);
        Run {
            result: json!({ "rows": r.rows, "performed": r.performed, "verdict": r.verdict().1, "at": at }),
            truncated: r.truncated,
            notes,
            lines,
        }
    }
}

pub const HOUR_MS: f64 = 3_600_000.0;

/// The script of a scenario: its case's, then the learner's own steps.
pub fn script(p: &StoreParams) -> Vec<Action> {
    let (p, _) = crate::sim::params::clamp(p);
    let mut actions = case_script(&p);
    for step in p.steps().0 {
        if let Some(a) = extend(&actions, step, p.seed) {
            actions.push(a);
        }
    }
    actions
}

/// The script of a scenario's case (`p` within its bounds).
fn case_script(p: &StoreParams) -> Vec<Action> {
    let mut rng = PyRandom::new(p.seed);
    let publish = |key: Option<String>, lose: bool| {
        Action::Send(Attempt {
            op: Op::Publish,
            key,
            body: LESSON_TITLE.into(),
            work_ms: 0.0,
            lose_reply: lose,
        })
    };
    let refund = |key: &Option<String>, amount: u32, work_s: u32, lose: bool| {
        Action::Send(Attempt {
            op: Op::Refund,
            key: key.clone(),
            body: format!("pedido 42, ${} MXN", crate::fmt::es_int(amount as i64)),
            work_ms: work_s as f64 * 1000.0,
            lose_reply: lose,
        })
    };
    let timeout = Action::Advance {
        ms: p.timeout_s as f64 * 1000.0,
    };
    let done = Action::Advance {
        ms: p.work_s as f64 * 1000.0 + 1000.0,
    };
    match p.scenario {
        Scenario::NoKey => vec![publish(None, true), publish(None, false)],
        Scenario::WithKey => {
            let k = Some(uuid4(&mut rng));
            vec![publish(k.clone(), true), publish(k, false)]
        }
        Scenario::KeyPerAttempt => {
            let (a, b) = (Some(uuid4(&mut rng)), Some(uuid4(&mut rng)));
            vec![refund(&a, 500, 1, true), timeout, refund(&b, 500, 1, false), done]
        }
        Scenario::InProgress if p.work_s < p.timeout_s => {
            // The refund answers before the orchestrator's timeout: it has
            // its answer, and nothing is retried.
            let k = Some(uuid4(&mut rng));
            vec![refund(&k, 500, p.work_s, false), done]
        }
        Scenario::InProgress => {
            let k = Some(uuid4(&mut rng));
            vec![
                refund(&k, 500, p.work_s, p.work_s > p.timeout_s), // the orchestrator gave up: nobody reads it
                timeout.clone(),
                refund(&k, 500, p.work_s, false),
                done,
                refund(&k, 500, p.work_s, false),
            ]
        }
        Scenario::OtherAmount => {
            let k = Some(uuid4(&mut rng));
            vec![refund(&k, 500, 1, true), timeout, refund(&k, 800, 1, false), done]
        }
        Scenario::Expired => {
            let k = Some(uuid4(&mut rng));
            vec![
                refund(&k, 500, 1, true),
                timeout,
                refund(&k, 500, 1, false),
                Action::Advance {
                    ms: p.late_retry_h as f64 * HOUR_MS - p.timeout_s as f64 * 1000.0,
                },
                refund(&k, 500, 1, false),
                Action::Advance { ms: 2_000.0 },
            ]
        }
    }
}

/// Plays a scenario.
pub fn run(p: &StoreParams) -> Played {
    let (p, _) = crate::sim::params::clamp(p);
    play(&script(&p), p.ttl_h as f64 * HOUR_MS, p.in_progress)
}

impl crate::sim::figures::TaskFigures for StoreParams {
    const RESULTS: &'static [crate::sim::figures::Figure] =
        &[crate::fig!("performed", "las veces que se hizo la operación", Count)];
    fn figure(&self, key: &str) -> Option<f64> {
        match key {
            "performed" => Some(run(self).performed.len() as f64),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_answer_in_time_is_not_retried() {
        // Found exploring: with the refund faster than the timeout, the
        // orchestrator has its answer and retries nothing.
        let r = run(&StoreParams {
            scenario: Scenario::InProgress,
            timeout_s: 60,
            work_s: 1,
            ..StoreParams::default()
        });
        assert_eq!(r.performed.len(), 1);
        assert!(r.rows.iter().all(|row| row.who != "intento 2"), "{:?}", r.rows);
    }

    #[test]
    fn lesson_lines() {
        let [a, b] = lesson_program_output("Tenis naranjas", 7);
        assert_eq!(
            a,
            "sin llave: publicación #2 · guardadas: ['Tenis naranjas', 'Tenis naranjas']"
        );
        assert_eq!(b, "con llave: publicación #1 · guardadas: ['Tenis naranjas']");
    }

    #[test]
    fn repr_like_python() {
        // python3 -c "print(repr(\"it's\"), repr('a\"b'), repr('x\\\\y'))"
        assert_eq!(py_repr_str("it's"), "\"it's\"");
        assert_eq!(py_repr_str("a\"b"), "'a\"b'");
        assert_eq!(py_repr_str("x\\y"), "'x\\\\y'");
    }

    #[test]
    fn a_key_per_attempt_does_not_help() {
        let mut s = Server::default();
        s.publish("x", Some("k1"));
        s.publish("x", Some("k2"));
        assert_eq!(s.stored().len(), 2);
    }

    #[test]
    fn the_store_plays_the_lesson() {
        // The lesson's program: the reply of the first attempt is lost, the retry goes out.
        let no = run(&StoreParams::default());
        assert_eq!(no.performed.len(), 2);
        assert_eq!(no.rows.last().unwrap().reply.as_deref(), Some("200 · publicación #2"));
        let with = run(&StoreParams {
            scenario: Scenario::WithKey,
            ..StoreParams::default()
        });
        assert_eq!(with.performed.len(), 1);
        assert_eq!(with.rows.last().unwrap().reply.as_deref(), Some("200 · publicación #1"));
    }

    #[test]
    fn exercise_9() {
        let s = |scenario, in_progress| {
            run(&StoreParams {
                scenario,
                in_progress,
                ..StoreParams::default()
            })
        };
        // (a) a key per attempt: every retry is another refund.
        assert_eq!(s(Scenario::KeyPerAttempt, InProgress::Conflict).performed.len(), 2);
        // (b) a retry while the first still runs: conflict, or wait for its answer; one refund.
        let c = s(Scenario::InProgress, InProgress::Conflict);
        assert_eq!(c.performed.len(), 1);
        assert!(c
            .rows
            .iter()
            .any(|r| r.reply.as_deref() == Some("409 · en curso, vuelve a preguntar")));
        let w = s(Scenario::InProgress, InProgress::Wait);
        assert_eq!(w.performed.len(), 1);
        assert!(w
            .rows
            .iter()
            .any(|r| r.what.starts_with("recibe la respuesta del intento 1")));
        // (c) the same key with another amount: an error, never the old answer.
        let m = s(Scenario::OtherAmount, InProgress::Conflict);
        assert_eq!(m.performed.len(), 1);
        assert!(m
            .rows
            .iter()
            .any(|r| r.reply.as_deref().is_some_and(|x| x.starts_with("422"))));
        assert!(!m
            .rows
            .iter()
            .skip(2)
            .any(|r| r.reply.as_deref() == Some("200 · reembolso #1")));
        // (d) kept 24 h, a retry at 25 h pays again; kept 48 h, it does not.
        assert_eq!(s(Scenario::Expired, InProgress::Conflict).performed.len(), 2);
        let kept = run(&StoreParams {
            scenario: Scenario::Expired,
            ttl_h: 48,
            ..StoreParams::default()
        });
        assert_eq!(kept.performed.len(), 1);
    }

    #[test]
    fn the_learners_steps_are_lines_of_the_one_script() {
        // Issue 42, the first finding: the lesson's first case and «otro
        // intento, misma llave» (no key was ever sent: none). Six lines, and
        // a step added shows the end.
        let p = StoreParams {
            line: Some(2),
            ..StoreParams::default()
        }
        .edited(Edit::Add(Step::SameKey));
        assert_eq!((p.steps.as_str(), p.line), ("same-key", None));
        let r = run(&p);
        assert_eq!(r.rows.len(), 6);
        assert!(r.at(6000.0).verdict.1.starts_with("La operación se hizo 3 veces"));
        // ◁: the 5th line of the same script, two operations by then.
        let back = StoreParams {
            line: Some(5),
            ..p.clone()
        };
        assert_eq!(run(&back).rows.len(), 6);
        let m = run(&back).at(5000.0);
        assert_eq!((m.rows, m.performed), (5, 2));
        assert!(
            m.verdict.1.starts_with("La operación se hizo 2 veces"),
            "{}",
            m.verdict.1
        );
        // The second: played to its end (line 4), then «otro intento, sin llave»: its end at once.
        let more = StoreParams {
            line: Some(4),
            ..StoreParams::default()
        }
        .edited(Edit::Add(Step::NoKey));
        assert_eq!(more.line, None);
        // Undone: the case's script, at its end.
        let undone = StoreParams { line: Some(6), ..more }.edited(Edit::Undo);
        assert_eq!((undone.steps.as_str(), undone.line), ("", None));
        // Nothing to undo, or no room for one more: nothing changes.
        let kept = StoreParams {
            line: Some(3),
            ..StoreParams::default()
        };
        assert_eq!(kept.edited(Edit::Undo), kept);
        let full = StoreParams {
            steps: steps_text(&[Step::NoKey; MAX_STEPS]),
            line: Some(3),
            ..StoreParams::default()
        };
        assert_eq!(full.edited(Edit::Add(Step::NoKey)), full);
    }

    #[test]
    fn steps_as_the_url_and_the_command_line_write_them() {
        let steps = [
            Step::SameKey,
            Step::Wait(5_000),
            Step::Wait(3_600_000),
            Step::Wait(1_500),
            Step::NewKey,
        ];
        assert_eq!(steps_text(&steps), "same-key.wait-5s.wait-1h.wait-1500ms.new-key");
        assert_eq!(Step::Wait(86_400_000).key(), "wait-24h");
        assert_eq!(Step::Wait(120_000).key(), "wait-2min");
        assert_eq!(steps_of("same-key, wait-5s wait-1h.wait-1500ms,new-key").0, steps);
        for bad in [
            "wait-0s",
            "wait-",
            "wait-5",
            "wait-5d",
            "wait-1001h",
            "wait--5s",
            "Same-key",
            "wait-99999999999999999999ms",
        ] {
            assert_eq!(Step::parse(bad), None, "{bad}");
        }
        let (s, notes) = steps_of("no-key.saltar");
        assert_eq!(s, [Step::NoKey]);
        assert_eq!(notes, ["Tus pasos: no se entiende «saltar»; se deja fuera."]);
        let (s, notes) = steps_of(&["no-key"; MAX_STEPS + 2].join("."));
        assert_eq!(s.len(), MAX_STEPS);
        assert_eq!(notes.len(), 1);
        // A wait is a line of its own, at the clock it reaches.
        let r = run(&StoreParams {
            steps: "wait-5s".into(),
            ..StoreParams::default()
        });
        let last = r.rows.last().unwrap();
        assert_eq!(
            (last.who.as_str(), last.what.as_str(), last.t_ms),
            ("reloj", "el reloj avanza 5 s", 5_000.0)
        );
    }

    #[test]
    fn uuid_shape() {
        let u = uuid4(&mut PyRandom::new(1));
        assert_eq!(u.len(), 36);
        assert_eq!(&u[14..15], "4");
    }
}
