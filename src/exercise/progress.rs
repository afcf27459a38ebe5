//! What a student got right, kept in the browser between visits.
//!
//! The browser stores one JSON string (under [`STORAGE_KEY`]); this module
//! reads and writes it, so the rules (the schema version, what counts as
//! corrupt, how a check is merged in) are tested natively. Data that cannot
//! be read, or that has a version this lab does not know, is not used: the
//! caller sets it aside (under [`ASIDE_KEY`]) and says so, and nothing else
//! is lost.
//!
//! Version 2 adds the widgets' tasks (`tasks`: right or not, and what was
//! typed), each entry's recency (`at`), and room for the typed answers of
//! every part (`answers`); a version-1 text loads as version 2 (its entries
//! numbered oldest first in the order of their exercise and variant). What is
//! saved stays within [`MAX_BYTES`] (SCORM 1.2's `cmi.suspend_data` holds
//! 4,096 characters): past it, typed texts go first, oldest first, then the
//! least recent variants other than the lesson's, never the latest check.
//!
//! What was revealed is kept too (`revealed`, optional, written only when
//! there is some, so a text without it is unchanged and an older lab, which
//! ignores fields it does not know, still reads the rest): the parts of an
//! exercise whose worked solution was opened before they were right, and
//! the tasks whose answer was shown after a wrong prediction or finding. A
//! later right answer there is right on the page, but earns nothing
//! ([`Progress::credited`], [`Progress::task_credited`]); what was right
//! before the solution opened keeps its credit.
//!
//! ```
//! use sensei_lab::exercise::progress::{Progress, Loaded};
//! let mut p = Progress::default();
//! p.record(2, 0, &["w1".into(), "max".into()], 7);
//! let Loaded::Ok(back) = Progress::load(Some(&p.save())) else { panic!() };
//! assert_eq!(back.right(2, 0), 2);
//! ```

use super::json::{self, Json};

/// An optional count: absent is 0, anything but a count is unreadable.
fn optional_u32(v: Option<&Json>) -> Option<u32> {
    match v {
        None => Some(0),
        Some(v) => v.as_u32(),
    }
}
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

pub const STORAGE_KEY: &str = "sensei-lab.progress";
pub const ASIDE_KEY: &str = "sensei-lab.progress.apartado";
pub const VERSION: u32 = 2;
/// The versions [`Progress::load`] reads (1 is migrated).
pub const READS: [u32; 2] = [1, 2];
/// The most a saved text may take, in bytes (all ASCII but typed accents).
pub const MAX_BYTES: usize = 4_000;
/// Most tasks remembered, and the longest key and typed text kept.
pub const MAX_TASKS: usize = 64;
pub const MAX_TYPED: usize = 40;
/// Most variants remembered per exercise (a student clicking «Otra versión» all day stays bounded).
pub const MAX_VARIANTS: usize = 200;

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Progress {
    pub version: u32,
    /// Exercise → variant → (ids of the parts answered right, parts in all).
    pub exercises: BTreeMap<u32, BTreeMap<u32, Entry>>,
    /// Review question → whether the student knew it.
    #[serde(default)]
    pub review: BTreeMap<u32, bool>,
    /// A widget's task (`widget/id`) → whether it was met, and what was typed.
    #[serde(default)]
    pub tasks: BTreeMap<String, TaskEntry>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TaskEntry {
    pub right: bool,
    /// The prediction or finding as typed (empty for a goal).
    pub answer: String,
    /// When it was last checked: a count over every entry, larger is later.
    pub at: u32,
    /// Its answer was shown (a wrong prediction or finding) before it was
    /// right: right later, it earns nothing.
    #[serde(default, skip_serializing_if = "is_false")]
    pub revealed: bool,
}

fn is_false(b: &bool) -> bool {
    !*b
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    pub right: Vec<String>,
    pub parts: u32,
    /// The answers as typed, to show them again.
    #[serde(default)]
    pub answers: BTreeMap<String, String>,
    /// When it was last checked: a count over every entry, larger is later.
    #[serde(default)]
    pub at: u32,
    /// The parts whose worked solution was opened before they were right
    /// (sorted): right later, they earn nothing.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub revealed: Vec<String>,
}

/// What was found in storage.
#[derive(Clone, Debug, PartialEq)]
pub enum Loaded {
    /// Nothing stored yet.
    Empty,
    Ok(Progress),
    /// Unreadable or of another version: start afresh, set the text aside, and say so.
    SetAside(String),
}

impl Progress {
    pub fn new() -> Self {
        Progress {
            version: VERSION,
            ..Progress::default()
        }
    }

    pub fn load(stored: Option<&str>) -> Loaded {
        let Some(text) = stored else {
            return Loaded::Empty;
        };
        if text.len() > 1_000_000 {
            return Loaded::SetAside("Lo guardado es demasiado grande para ser de este laboratorio.".into());
        }
        let doc = json::parse(text).ok();
        match doc.as_ref().and_then(|d| d.get("version")?.as_u32()) {
            Some(v) if !READS.contains(&v) => {
                return Loaded::SetAside(format!("Lo guardado es de otra versión del laboratorio ({v})."))
            }
            _ => {}
        }
        match doc.as_ref().and_then(Progress::from_json) {
            Some(p) if p.is_sane() => Loaded::Ok(p.migrated()),
            _ => Loaded::SetAside("Lo guardado no se pudo leer.".into()),
        }
    }

    /// The stored document, read strictly: every field of the right type
    /// (`review` and `answers` may be missing; unknown fields are ignored).
    fn from_json(doc: &Json) -> Option<Progress> {
        fn members(v: &Json) -> Option<&[(String, Json)]> {
            match v {
                Json::Obj(m) => Some(m),
                _ => None,
            }
        }
        // Maps are filled by `insert`, not collected: `collect` into a `BTreeMap`
        // sorts first, and each sort is code of its own in the browser build.
        fn map<V>(v: Option<&Json>, value: impl Fn(&Json) -> Option<V>) -> Option<BTreeMap<u32, V>> {
            let mut out = BTreeMap::new();
            if let Some(v) = v {
                for (k, v) in members(v)? {
                    out.insert(k.parse().ok()?, value(v)?);
                }
            }
            Some(out)
        }
        // A list of texts (absent: none, when `optional`).
        fn texts(v: Option<&Json>, optional: bool) -> Option<Vec<String>> {
            match v {
                None if optional => Some(Vec::new()),
                Some(Json::Arr(items)) => items.iter().map(|i| i.as_str().map(str::to_string)).collect(),
                _ => None,
            }
        }
        let entry = |e: &Json| -> Option<Entry> {
            let right = texts(e.get("right"), false)?;
            let mut revealed = texts(e.get("revealed"), true)?;
            // Kept sorted (a hand-edited text may not be).
            revealed.sort_unstable();
            revealed.dedup();
            let mut answers = BTreeMap::new();
            if let Some(a) = e.get("answers") {
                for (k, v) in members(a)? {
                    answers.insert(k.clone(), v.as_str()?.to_string());
                }
            }
            Some(Entry {
                right,
                parts: e.get("parts")?.as_u32()?,
                answers,
                at: optional_u32(e.get("at"))?,
                revealed,
            })
        };
        let mut tasks = BTreeMap::new();
        if let Some(t) = doc.get("tasks") {
            for (k, v) in members(t)? {
                let right = match v.get("right")? {
                    Json::Bool(b) => *b,
                    _ => return None,
                };
                let answer = v.get("answer")?.as_str()?.to_string();
                let revealed = match v.get("revealed") {
                    None => false,
                    Some(Json::Bool(b)) => *b,
                    _ => return None,
                };
                tasks.insert(
                    k.clone(),
                    TaskEntry {
                        right,
                        answer,
                        at: optional_u32(v.get("at"))?,
                        revealed,
                    },
                );
            }
        }
        Some(Progress {
            version: doc.get("version")?.as_u32()?,
            exercises: map(Some(doc.get("exercises")?), |vs| map(Some(vs), entry))?,
            review: map(doc.get("review"), |b| match b {
                Json::Bool(b) => Some(*b),
                _ => None,
            })?,
            tasks,
        })
    }

    /// A version-1 text as version 2: its entries get their recency in the
    /// order of their exercise and variant (it kept none).
    fn migrated(mut self) -> Progress {
        if self.version == 1 {
            let mut at = 0;
            for e in self.exercises.values_mut().flat_map(|vs| vs.values_mut()) {
                at += 1;
                e.at = at;
            }
            self.version = VERSION;
        }
        self
    }

    /// The next recency count.
    fn next_at(&self) -> u32 {
        let exercises = self.exercises.values().flat_map(|vs| vs.values()).map(|e| e.at);
        let tasks = self.tasks.values().map(|t| t.at);
        exercises.chain(tasks).max().unwrap_or(0).saturating_add(1)
    }

    fn to_json(&self) -> Json {
        let num = |n: u32| Json::Num(n.to_string());
        fn map<V>(m: &BTreeMap<u32, V>, value: impl Fn(&V) -> Json) -> Json {
            Json::Obj(m.iter().map(|(k, v)| (k.to_string(), value(v))).collect())
        }
        let entry = |e: &Entry| {
            let mut fields = vec![
                (
                    "right".into(),
                    Json::Arr(e.right.iter().cloned().map(Json::Str).collect()),
                ),
                ("parts".into(), Json::Num(e.parts.to_string())),
                (
                    "answers".into(),
                    Json::Obj(
                        e.answers
                            .iter()
                            .map(|(k, v)| (k.clone(), Json::Str(v.clone())))
                            .collect(),
                    ),
                ),
                ("at".into(), num(e.at)),
            ];
            if !e.revealed.is_empty() {
                fields.push((
                    "revealed".into(),
                    Json::Arr(e.revealed.iter().cloned().map(Json::Str).collect()),
                ));
            }
            Json::Obj(fields)
        };
        let task = |t: &TaskEntry| {
            let mut fields = vec![
                ("right".into(), Json::Bool(t.right)),
                ("answer".into(), Json::Str(t.answer.clone())),
                ("at".into(), num(t.at)),
            ];
            if t.revealed {
                fields.push(("revealed".into(), Json::Bool(true)));
            }
            Json::Obj(fields)
        };
        Json::Obj(vec![
            ("version".into(), num(self.version)),
            ("exercises".into(), map(&self.exercises, |vs| map(vs, entry))),
            ("review".into(), map(&self.review, |b| Json::Bool(*b))),
            (
                "tasks".into(),
                Json::Obj(self.tasks.iter().map(|(k, t)| (k.clone(), task(t))).collect()),
            ),
        ])
    }

    fn is_sane(&self) -> bool {
        // Bounded, so that a saved text (at most 1 MB) is forgotten down to
        // MAX_BYTES in a bounded number of steps.
        self.tasks.len() <= MAX_TASKS
            && self.tasks.iter().all(|(k, t)| k.len() <= 100 && t.answer.len() <= 400)
            && self.review.len() <= 200
            && self.exercises.values().all(|vs| vs.len() <= MAX_VARIANTS)
            && self
                .exercises
                .values()
                .flat_map(|vs| vs.values())
                .all(|e| e.answers.len() <= 50 && e.answers.iter().all(|(k, a)| k.len() <= 100 && a.len() <= 400))
            && self.exercises.keys().all(|n| (1..=super::COUNT).contains(n))
            && self
                .exercises
                .values()
                .all(|vs| vs.values().all(|e| e.right.len() <= e.parts as usize && e.parts <= 50))
            && self
                .exercises
                .values()
                .flat_map(|vs| vs.values())
                .all(|e| e.revealed.len() <= e.parts as usize && e.revealed.iter().all(|r| r.len() <= 100))
    }

    /// The text to store, within [`MAX_BYTES`]: past it, the least recent
    /// variants other than the lesson's are forgotten first, then typed
    /// texts, oldest first (a part or task once right stays right).
    pub fn save(&self) -> String {
        let mut p = self.clone();
        p.version = VERSION;
        loop {
            let text = p.to_json().to_string();
            if text.len() <= MAX_BYTES {
                return text;
            }
            // Forget about as much as is over (each thing's own size), then measure again:
            // a long text is not written whole once per thing forgotten.
            let (mut freed, over) = (0, text.len() - MAX_BYTES);
            while freed < over {
                match p.forget_one() {
                    Some(bytes) => freed += bytes.max(1),
                    None => return p.to_json().to_string(),
                }
            }
        }
    }

    /// Forgets the least needed thing, first to last: the oldest typed text
    /// (an exercise's or a task's), then the least recent variant other than
    /// the lesson's (never the latest check), then the oldest task, a review
    /// answer, the least recent exercise. Gives about how many bytes that
    /// took in the saved text; `None` when nothing is left.
    fn forget_one(&mut self) -> Option<usize> {
        let json_len = |s: &str| Json::Str(s.to_string()).to_string().len();
        let typed_ex = self
            .exercises
            .iter()
            .flat_map(|(n, vs)| {
                vs.iter()
                    .filter(|(_, e)| !e.answers.is_empty())
                    .map(move |(v, e)| (e.at, *n, *v))
            })
            .min();
        let typed_task = self
            .tasks
            .iter()
            .filter(|(_, t)| !t.answer.is_empty())
            .map(|(k, t)| (t.at, k.clone()))
            .min();
        match (typed_ex, typed_task) {
            (Some((a, n, v)), t) if t.as_ref().is_none_or(|(b, _)| a <= *b) => {
                let e = self.exercises.get_mut(&n)?.get_mut(&v)?;
                let bytes = e.answers.iter().map(|(k, a)| json_len(k) + json_len(a) + 2).sum();
                e.answers.clear();
                return Some(bytes);
            }
            (_, Some((_, k))) => {
                let t = self.tasks.get_mut(&k)?;
                let bytes = json_len(&t.answer) - 2;
                t.answer.clear();
                return Some(bytes);
            }
            _ => {}
        }
        let latest = self.next_at() - 1;
        let entry_len = |e: &Entry| {
            40 + e
                .right
                .iter()
                .chain(&e.revealed)
                .map(|r| json_len(r) + 1)
                .sum::<usize>()
                + if e.revealed.is_empty() { 0 } else { 14 }
        };
        let oldest = self
            .exercises
            .iter()
            .flat_map(|(n, vs)| {
                vs.iter()
                    .filter(|(v, e)| **v != 0 && e.at != latest)
                    .map(move |(v, e)| (e.at, *n, *v))
            })
            .min();
        if let Some((_, n, v)) = oldest {
            let vs = self.exercises.get_mut(&n)?;
            let bytes = vs.remove(&v).map_or(0, |e| entry_len(&e) + 8);
            if vs.is_empty() {
                self.exercises.remove(&n);
            }
            return Some(bytes);
        }
        if let Some(k) = self.tasks.iter().min_by_key(|(_, t)| t.at).map(|(k, _)| k.clone()) {
            let revealed = self.tasks.remove(&k).is_some_and(|t| t.revealed);
            return Some(json_len(&k) + 30 + if revealed { 16 } else { 0 });
        }
        if let Some(k) = self.review.keys().next_back().copied() {
            self.review.remove(&k);
            return Some(10);
        }
        let n = self
            .exercises
            .iter()
            .min_by_key(|(_, vs)| vs.values().map(|e| e.at).max())
            .map(|(n, _)| *n)?;
        let bytes = self
            .exercises
            .remove(&n)
            .map_or(0, |vs| vs.values().map(entry_len).sum());
        Some(bytes)
    }

    /// A check of a widget's task (`key`: `widget/id`): once met, it stays met;
    /// what was typed is kept (cut to [`MAX_TYPED`] characters).
    pub fn record_task(&mut self, key: &str, right: bool, typed: &str) {
        self.version = VERSION;
        if !self.tasks.contains_key(key) && self.tasks.len() >= MAX_TASKS {
            return;
        }
        let at = self.next_at();
        let t = self.tasks.entry(key.chars().take(100).collect()).or_default();
        // Once met, what is kept is the answer that met it.
        if right || !t.right {
            t.answer = typed.trim().chars().take(MAX_TYPED).collect();
        }
        t.right |= right;
        t.at = at;
    }

    /// A task's entry, if it was ever checked.
    pub fn task(&self, key: &str) -> Option<&TaskEntry> {
        self.tasks.get(key)
    }

    /// A task's answer was shown (after a wrong prediction or finding): if
    /// it is not right yet, a later right check earns nothing. A task not
    /// checked yet has nothing shown.
    pub fn reveal_task(&mut self, key: &str) {
        if let Some(t) = self.tasks.get_mut(key) {
            t.revealed |= !t.right;
        }
    }

    /// Whether a task earns its credit: right, and not after its answer was shown.
    pub fn task_credited(&self, key: &str) -> bool {
        self.tasks.get(key).is_some_and(|t| t.right && !t.revealed)
    }

    /// The worked solution of exercise `n`, variant `v`, was opened: each of
    /// its parts (`parts`, their ids) not right yet is revealed, and earns
    /// nothing when right later; the parts right already keep their credit.
    /// A solution opens only after a check, which made the entry (without
    /// one, nothing is right to keep and nothing is kept).
    pub fn reveal(&mut self, n: u32, v: u32, parts: &[String]) {
        let Some(e) = self.exercises.get_mut(&n).and_then(|vs| vs.get_mut(&v)) else {
            return;
        };
        for id in parts.iter().filter(|id| id.len() <= 100) {
            if e.right.binary_search(id).is_err() && e.revealed.len() < e.parts as usize {
                if let Err(at) = e.revealed.binary_search(id) {
                    e.revealed.insert(at, id.clone());
                }
            }
        }
    }

    /// Whether a part's solution was opened before it was right.
    pub fn is_revealed(&self, n: u32, v: u32, part: &str) -> bool {
        self.exercises
            .get(&n)
            .and_then(|m| m.get(&v))
            .is_some_and(|e| e.revealed.iter().any(|r| r == part))
    }

    /// The parts of exercise `n`, variant `v`, that earn their credit: right,
    /// and not after their solution was opened.
    pub fn credited(&self, n: u32, v: u32) -> usize {
        self.exercises.get(&n).and_then(|m| m.get(&v)).map_or(0, |e| {
            e.right.iter().filter(|r| e.revealed.binary_search(r).is_err()).count()
        })
    }

    /// A check of exercise `n`, variant `v`: the parts right now are kept
    /// (a part once right stays right).
    pub fn record(&mut self, n: u32, v: u32, right: &[String], parts: u32) {
        self.record_answers(
            n,
            v,
            &right.iter().map(|r| (r.clone(), String::new())).collect::<Vec<_>>(),
            parts,
        );
    }

    /// A check of exercise `n`, variant `v`: each part checked (its id, what
    /// was typed, whether it was right). The parts right are kept (a part
    /// once right stays right); so is the last text typed in each part,
    /// right or not, to show it again (a part checked empty forgets it).
    pub fn record_check(&mut self, n: u32, v: u32, checked: &[(String, String, bool)], parts: u32) {
        let right: Vec<(String, String)> = checked
            .iter()
            .filter(|c| c.2)
            .map(|(id, typed, _)| (id.clone(), typed.clone()))
            .collect();
        self.record_answers(n, v, &right, parts);
        if let Some(e) = self.exercises.get_mut(&n).and_then(|vs| vs.get_mut(&v)) {
            for (id, typed, _) in checked {
                let typed = typed.trim();
                if typed.is_empty() {
                    e.answers.remove(id);
                } else {
                    e.answers.insert(id.clone(), typed.chars().take(MAX_TYPED).collect());
                }
            }
        }
    }

    /// The parts answered wrong and never right (in any variant of their
    /// exercise: «Repasar lo que fallé» opens another one, where getting it
    /// right clears the miss), per exercise and variant, most recent first.
    pub fn missed(&self) -> Vec<(u32, u32, Vec<String>)> {
        // Each put in its place as it comes (a few entries: no sort's code in the wasm).
        let (mut out, mut ats) = (Vec::new(), Vec::new());
        for (n, vs) in &self.exercises {
            let right_somewhere = |id: &String| vs.values().any(|e| e.right.binary_search(id).is_ok());
            for (v, e) in vs {
                let ids: Vec<String> = e.answers.keys().filter(|id| !right_somewhere(id)).cloned().collect();
                if !ids.is_empty() {
                    let at = ats.partition_point(|t| *t >= e.at);
                    ats.insert(at, e.at);
                    out.insert(at, (*n, *v, ids));
                }
            }
        }
        out
    }

    /// Like [`Progress::record`], keeping what was typed for each right part.
    pub fn record_answers(&mut self, n: u32, v: u32, right: &[(String, String)], parts: u32) {
        self.version = VERSION;
        let at = self.next_at();
        let variants = self.exercises.entry(n).or_default();
        if !variants.contains_key(&v) && variants.len() >= MAX_VARIANTS {
            return;
        }
        let e = variants.entry(v).or_default();
        e.parts = parts;
        e.at = at;
        for (id, typed) in right {
            // Kept sorted as it grows.
            if let Err(at) = e.right.binary_search(id) {
                e.right.insert(at, id.clone());
            }
            if !typed.is_empty() {
                e.answers.insert(id.clone(), typed.chars().take(MAX_TYPED).collect());
            }
        }
    }

    pub fn right(&self, n: u32, v: u32) -> usize {
        self.exercises
            .get(&n)
            .and_then(|m| m.get(&v))
            .map_or(0, |e| e.right.len())
    }

    /// What was typed last in a part, if kept.
    pub fn answer(&self, n: u32, v: u32, part: &str) -> Option<&str> {
        self.exercises.get(&n)?.get(&v)?.answers.get(part).map(String::as_str)
    }

    pub fn is_right(&self, n: u32, v: u32, part: &str) -> bool {
        self.exercises
            .get(&n)
            .and_then(|m| m.get(&v))
            .is_some_and(|e| e.right.iter().any(|r| r == part))
    }

    /// Exercises with every part right in some variant.
    pub fn solved(&self) -> usize {
        self.exercises
            .values()
            .filter(|vs| vs.values().any(|e| e.parts > 0 && e.right.len() == e.parts as usize))
            .count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corrupt_or_other_versions_are_set_aside() {
        assert_eq!(Progress::load(None), Loaded::Empty);
        assert!(matches!(Progress::load(Some("{no es json")), Loaded::SetAside(_)));
        assert!(
            matches!(Progress::load(Some(r#"{"version":99,"exercises":{}}"#)), Loaded::SetAside(m) if m.contains("99"))
        );
        assert!(matches!(
            Progress::load(Some(r#"{"version":1,"exercises":{"42":{}}}"#)),
            Loaded::SetAside(_)
        ));
    }

    #[test]
    fn a_part_once_right_stays_right() {
        let mut p = Progress::new();
        p.record(4, 0, &["a1".into()], 4);
        p.record(4, 0, &["b1".into()], 4);
        assert_eq!(p.right(4, 0), 2);
        assert!(p.is_right(4, 0, "a1"));
        assert_eq!(p.solved(), 0);
        p.record(4, 0, &["a2".into(), "b2".into()], 4);
        assert_eq!(p.solved(), 1);
    }

    /// What serde_json wrote before (and the command line still reads) loads the same.
    #[test]
    #[cfg(not(target_arch = "wasm32"))]
    fn same_text_as_serde_json() {
        let mut p = Progress::new();
        p.record_answers(
            2,
            0,
            &[("w1".into(), "0.5 s".into()), ("max\"\n".into(), String::new())],
            7,
        );
        p.record(6, 3, &["a".into()], 4);
        p.reveal(6, 3, &["a".into(), "b".into()]);
        p.record_task("herd/x", false, "1");
        p.reveal_task("herd/x");
        p.record_task("herd/y", true, "2");
        p.review.insert(3, true);
        p.review.insert(11, false);
        assert!(p.is_revealed(6, 3, "b"));
        assert_eq!(p.save(), serde_json::to_string(&p).unwrap());
        assert_eq!(
            Progress::load(Some(&serde_json::to_string(&p).unwrap())),
            Loaded::Ok(p.clone())
        );
        // Without the optional fields, as the first version wrote it: read, and migrated.
        let old = r#"{"version":1,"exercises":{"2":{"0":{"right":["w1"],"parts":7}}}}"#;
        let Loaded::Ok(back) = Progress::load(Some(old)) else {
            panic!()
        };
        let mut by_serde = serde_json::from_str::<Progress>(old).unwrap();
        by_serde.version = 2;
        by_serde.exercises.get_mut(&2).unwrap().get_mut(&0).unwrap().at = 1;
        assert_eq!(back, by_serde);
        // Wrong types are unreadable, not guessed at.
        for bad in [
            r#"{"version":1,"exercises":{"2":{"0":{"right":["w1"],"parts":"7"}}}}"#,
            r#"{"version":1,"exercises":{"dos":{}}}"#,
            r#"{"version":1,"exercises":[]}"#,
            r#"{"version":1}"#,
            r#"{"version":1,"exercises":{},"review":{"1":"sí"}}"#,
            r#"{"version":2,"exercises":{},"tasks":{"herd/x":{"right":"sí","answer":""}}}"#,
            r#"{"version":2,"exercises":{},"tasks":{"herd/x":{"right":true}}}"#,
            r#"{"version":2,"exercises":{"2":{"0":{"right":[],"parts":7,"at":-1}}}}"#,
        ] {
            assert_eq!(
                Progress::load(Some(bad)),
                Loaded::SetAside("Lo guardado no se pudo leer.".into()),
                "{bad}"
            );
            assert!(serde_json::from_str::<Progress>(bad).is_err(), "{bad}");
        }
    }

    /// A version-1 text, as the lab wrote it before tasks, loads whole as version 2.
    #[test]
    fn version_one_is_migrated() {
        let v1 = r#"{"version":1,"exercises":{"2":{"0":{"right":["max","w1"],"parts":7,"answers":{"w1":"0.5 s"}},"17":{"right":["a"],"parts":7,"answers":{}}},"6":{"3":{"right":["a"],"parts":4,"answers":{}}}},"review":{"3":true}}"#;
        let Loaded::Ok(p) = Progress::load(Some(v1)) else {
            panic!("{:?}", Progress::load(Some(v1)))
        };
        assert_eq!(p.version, 2);
        assert_eq!(p.right(2, 0), 2);
        assert_eq!(p.answer(2, 0, "w1"), Some("0.5 s"));
        assert_eq!(p.right(2, 17), 1);
        assert_eq!(p.right(6, 3), 1);
        assert_eq!(p.review.get(&3), Some(&true));
        assert!(p.tasks.is_empty());
        // Saved as version 2, and read back the same.
        let saved = p.save();
        assert!(saved.starts_with(r#"{"version":2,"#), "{saved}");
        assert_eq!(Progress::load(Some(&saved)), Loaded::Ok(p));
        // A version the lab does not know is set aside, not guessed at.
        assert!(
            matches!(Progress::load(Some(r#"{"version":3,"exercises":{}}"#)), Loaded::SetAside(m) if m.contains('3'))
        );
    }

    #[test]
    fn the_last_text_typed_is_kept_right_or_not_and_the_misses_are_listed() {
        let mut p = Progress::new();
        let c = |id: &str, typed: &str, right| (id.to_string(), typed.to_string(), right);
        p.record_check(
            4,
            0,
            &[c("a1", "7", false), c("a2", "4,500", true), c("b", "", false)],
            4,
        );
        assert_eq!(p.answer(4, 0, "a1"), Some("7"));
        assert_eq!(p.answer(4, 0, "a2"), Some("4,500"));
        assert_eq!(p.answer(4, 0, "b"), None);
        assert_eq!(p.right(4, 0), 1);
        p.record_check(2, 17, &[c("w1", "100", false)], 7);
        // Most recent first; a part left empty is not a miss.
        assert_eq!(
            p.missed(),
            vec![(2, 17, vec!["w1".to_string()]), (4, 0, vec!["a1".to_string()])]
        );
        // Right in another variant (the review's): no longer a miss.
        let mut q = p.clone();
        q.record_check(2, 400, &[c("w1", "100", true)], 7);
        assert_eq!(q.missed(), vec![(4, 0, vec!["a1".to_string()])]);
        // Right at last: no longer a miss, and its text is the right one.
        p.record_check(4, 0, &[c("a1", "9", true), c("a2", "", false)], 4);
        assert_eq!(p.missed(), vec![(2, 17, vec!["w1".to_string()])]);
        assert_eq!(p.answer(4, 0, "a1"), Some("9"));
        // Once right, a part stays right; emptied, its text is forgotten.
        assert_eq!(p.right(4, 0), 2);
        assert_eq!(p.answer(4, 0, "a2"), None);
        let Loaded::Ok(back) = Progress::load(Some(&p.save())) else {
            panic!()
        };
        assert_eq!(back.missed(), p.missed());
    }

    #[test]
    fn a_task_once_met_stays_met_and_keeps_what_was_typed() {
        let mut p = Progress::new();
        p.record_task("herd/el-doble", false, "850");
        assert_eq!(
            p.task("herd/el-doble").map(|t| (t.right, t.answer.as_str())),
            Some((false, "850"))
        );
        p.record_task("herd/el-doble", true, " 700 ");
        p.record_task("herd/el-doble", false, "¿cuántos?");
        let t = p.task("herd/el-doble").unwrap();
        assert!(t.right);
        assert_eq!(t.answer, "700", "the answer that met it");
        let Loaded::Ok(back) = Progress::load(Some(&p.save())) else {
            panic!()
        };
        assert_eq!(back, p);
        // Bounded: a long text is cut, and no more than MAX_TASKS are kept.
        p.record_task("x/y", true, &"9".repeat(1_000));
        assert_eq!(p.task("x/y").unwrap().answer.len(), MAX_TYPED);
        for i in 0..200 {
            p.record_task(&format!("w/t{i}"), true, "1");
        }
        assert_eq!(p.tasks.len(), MAX_TASKS);
    }

    /// Whatever a student does (checks, solutions opened, tasks' answers
    /// shown), what is saved fits in SCORM 1.2's suspend data (4,096
    /// characters), keeps the latest check and what it revealed, loads back,
    /// and never credits a part or a task that was revealed before it was right.
    #[test]
    fn saved_text_stays_within_max_bytes() {
        use crate::sim::policy::rng::{PyRandom, UnitRng};
        use std::collections::BTreeSet;
        for seed in 0..60u32 {
            let mut rng = PyRandom::new(seed);
            let mut p = Progress::new();
            // What was revealed before it was right, as the student did it (not
            // as the progress keeps it): exercise, variant, part; and tasks.
            let mut seen: BTreeSet<(u32, u32, String)> = BTreeSet::new();
            let mut seen_tasks: BTreeSet<String> = BTreeSet::new();
            let steps = 1 + (rng.random() * 400.0) as usize;
            for _ in 0..steps {
                let long = |rng: &mut PyRandom| -> String {
                    let n = (rng.random() * 120.0) as usize;
                    // Accents and quotes: more bytes, and escapes, per character.
                    (0..n).map(|i| ['á', '"', '7', 'ñ', '\\', 'x'][(i + n) % 6]).collect()
                };
                let last = if rng.random() < 0.7 {
                    let n = 1 + (rng.random() * 9.0) as u32;
                    let v = if rng.random() < 0.3 {
                        0
                    } else {
                        (rng.random() * 999_999.0) as u32
                    };
                    let mut parts: Vec<(String, String)> = Vec::new();
                    for i in 0..7 {
                        if rng.random() < 0.6 {
                            parts.push((format!("p{i}"), long(&mut rng)));
                        }
                    }
                    p.record_answers(n, v, &parts, 7);
                    // Then, sometimes, the worked solution opened.
                    if rng.random() < 0.3 {
                        let all: Vec<String> = (0..7).map(|i| format!("p{i}")).collect();
                        for id in &all {
                            if p.exercises.get(&n).is_some_and(|vs| vs.contains_key(&v)) && !p.is_right(n, v, id) {
                                seen.insert((n, v, id.clone()));
                            }
                        }
                        p.reveal(n, v, &all);
                    }
                    Some((n, v, parts.len()))
                } else {
                    let k = format!("widget/tarea-{}", (rng.random() * 80.0) as u32);
                    let right = rng.random() < 0.5;
                    p.record_task(&k, right, &long(&mut rng));
                    // A wrong prediction shows the answer.
                    if !right && rng.random() < 0.7 {
                        if p.task(&k).is_some_and(|t| !t.right) {
                            seen_tasks.insert(k.clone());
                        }
                        p.reveal_task(&k);
                    }
                    None
                };
                let saved = p.save();
                assert!(saved.len() <= MAX_BYTES, "seed {seed}: {} bytes", saved.len());
                let Loaded::Ok(back) = Progress::load(Some(&saved)) else {
                    panic!("seed {seed}: {saved}")
                };
                // The latest check, when it was an exercise's, is never forgotten, nor what it revealed.
                if let Some((n, v, right)) = last {
                    assert_eq!(back.right(n, v), p.right(n, v), "seed {seed}");
                    assert_eq!(back.credited(n, v), p.credited(n, v), "seed {seed}");
                    assert_eq!(
                        back.exercises[&n][&v].revealed, p.exercises[&n][&v].revealed,
                        "seed {seed}"
                    );
                    assert!(right == 0 || back.right(n, v) > 0, "seed {seed}");
                }
                // Nothing revealed before it was right earns credit, in what is kept.
                for (n, vs) in &back.exercises {
                    for (v, e) in vs {
                        assert!(back.credited(*n, *v) <= e.right.len());
                        for id in &e.right {
                            if seen.contains(&(*n, *v, id.clone())) {
                                assert!(back.is_revealed(*n, *v, id), "seed {seed}: {n}/{v}/{id}");
                            }
                        }
                    }
                }
                for (k, t) in &back.tasks {
                    if t.right && seen_tasks.contains(k) {
                        assert!(!back.task_credited(k), "seed {seed}: {k}");
                    }
                }
                // What is forgotten goes with its entry: a new entry starts with nothing seen.
                seen.retain(|(n, v, _)| back.exercises.get(n).is_some_and(|vs| vs.contains_key(v)));
                seen_tasks.retain(|k| back.tasks.contains_key(k));
                p = back;
            }
        }
    }

    #[test]
    fn a_part_right_after_its_solution_was_opened_earns_nothing() {
        let mut p = Progress::new();
        let c = |id: &str, typed: &str, right| (id.to_string(), typed.to_string(), right);
        let ids: Vec<String> = ["a1", "a2", "b1", "b2"].map(String::from).to_vec();
        // All wrong, then the solution: nothing right, nothing credited.
        p.record_check(4, 0, &[c("a1", "7", false), c("a2", "1", true), c("b1", "", false)], 4);
        assert_eq!((p.right(4, 0), p.credited(4, 0)), (1, 1));
        p.reveal(4, 0, &ids);
        // a2 was right before the opening: it keeps its credit.
        assert!(!p.is_revealed(4, 0, "a2"));
        assert!(p.is_revealed(4, 0, "a1") && p.is_revealed(4, 0, "b1") && p.is_revealed(4, 0, "b2"));
        // The solution's answers typed: right on the page, no credit.
        p.record_check(
            4,
            0,
            &[
                c("a1", "9", true),
                c("a2", "4,500", true),
                c("b1", "4", true),
                c("b2", "8,000", true),
            ],
            4,
        );
        assert_eq!((p.right(4, 0), p.credited(4, 0)), (4, 1));
        assert_eq!(p.solved(), 1, "solved on the page");
        // Opened again: nothing changes; another variant is its own.
        p.reveal(4, 0, &ids);
        assert_eq!(p.credited(4, 0), 1);
        p.record_check(4, 9, &[c("a1", "9", true)], 4);
        assert_eq!(p.credited(4, 9), 1);
        // No entry (never checked): nothing kept.
        p.reveal(5, 0, &ids);
        assert!(!p.exercises.contains_key(&5));
        // Kept through a save, and through forgetting typed texts.
        let Loaded::Ok(back) = Progress::load(Some(&p.save())) else {
            panic!()
        };
        assert_eq!(back, p);
        let mut q = p.clone();
        while !q.exercises[&4][&0].answers.is_empty() {
            q.forget_one();
        }
        assert_eq!(q.credited(4, 0), 1);
        // Hand-edited or older texts: an unsorted list is read sorted; a wrong type is unreadable.
        let text = r#"{"version":2,"exercises":{"4":{"0":{"right":["a1"],"parts":4,"revealed":["b1","a1"]}}}}"#;
        let Loaded::Ok(r) = Progress::load(Some(text)) else {
            panic!()
        };
        assert_eq!(r.exercises[&4][&0].revealed, vec!["a1".to_string(), "b1".into()]);
        assert_eq!(r.credited(4, 0), 0);
        for bad in [
            r#"{"version":2,"exercises":{"4":{"0":{"right":[],"parts":4,"revealed":"a1"}}}}"#,
            r#"{"version":2,"exercises":{"4":{"0":{"right":[],"parts":1,"revealed":["a1","b1"]}}}}"#,
            r#"{"version":2,"exercises":{},"tasks":{"herd/x":{"right":true,"answer":"","revealed":1}}}"#,
        ] {
            assert_eq!(
                Progress::load(Some(bad)),
                Loaded::SetAside("Lo guardado no se pudo leer.".into()),
                "{bad}"
            );
        }
    }

    #[test]
    fn a_task_right_after_its_answer_was_shown_earns_nothing() {
        let mut p = Progress::new();
        // Not checked yet: nothing to show.
        p.reveal_task("herd/el-doble");
        assert!(p.task("herd/el-doble").is_none());
        // Wrong, the answer shown, then right: right on the page, no credit.
        p.record_task("herd/el-doble", false, "425");
        p.reveal_task("herd/el-doble");
        p.record_task("herd/el-doble", true, "700");
        let t = p.task("herd/el-doble").unwrap();
        assert!(t.right && t.revealed);
        assert!(!p.task_credited("herd/el-doble"));
        // Right first: a later wrong one shows the answer, but the credit stays.
        p.record_task("layers/cuatro-capas", true, "4^4");
        p.record_task("layers/cuatro-capas", false, "64");
        p.reveal_task("layers/cuatro-capas");
        assert!(p.task_credited("layers/cuatro-capas"));
        let Loaded::Ok(back) = Progress::load(Some(&p.save())) else {
            panic!()
        };
        assert_eq!(back, p);
        assert!(p.save().contains(r#""revealed":true"#));
    }

    /// A long stored text (within the 1 MB read, sane) is saved within
    /// MAX_BYTES, with what was right in the lesson's numbers kept.
    #[test]
    fn a_large_stored_text_is_saved_small() {
        let mut p = Progress::new();
        for n in 1..=9 {
            for v in 0..MAX_VARIANTS as u32 {
                let typed: Vec<(String, String)> = (0..7).map(|i| (format!("p{i}"), "x".repeat(40))).collect();
                p.record_answers(n, v, &typed, 7);
            }
        }
        let big = p.to_json().to_string();
        assert!(big.len() > 500_000, "{}", big.len());
        let Loaded::Ok(back) = Progress::load(Some(&big)) else {
            panic!()
        };
        let saved = back.save();
        assert!(saved.len() <= MAX_BYTES);
        let Loaded::Ok(small) = Progress::load(Some(&saved)) else {
            panic!()
        };
        for n in 1..=9 {
            assert_eq!(small.right(n, 0), 7, "exercise {n}");
        }
        assert_eq!(small.right(9, MAX_VARIANTS as u32 - 1), 7, "the latest check");
    }

    #[test]
    fn variants_are_bounded() {
        let mut p = Progress::new();
        for v in 0..1_000 {
            p.record(2, v, &["w1".into()], 7);
        }
        assert_eq!(p.exercises[&2].len(), MAX_VARIANTS);
    }
}
