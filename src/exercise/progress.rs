//! What a student got right, kept in the browser between visits.
//!
//! The browser stores one JSON string (under [`STORAGE_KEY`]); this module
//! reads and writes it, so the rules (the schema version, what counts as
//! corrupt, how a check is merged in) are tested natively. Data that cannot
//! be read, or that has another version, is not used: the caller sets it
//! aside (under [`ASIDE_KEY`]) and says so, and nothing else is lost.
//!
//! ```
//! use sensei_lab::exercise::progress::{Progress, Loaded};
//! let mut p = Progress::default();
//! p.record(2, 0, &["w1".into(), "max".into()], 7);
//! let Loaded::Ok(back) = Progress::load(Some(&p.save())) else { panic!() };
//! assert_eq!(back.right(2, 0), 2);
//! ```

use super::json::{self, Json};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

pub const STORAGE_KEY: &str = "sensei-lab.progress";
pub const ASIDE_KEY: &str = "sensei-lab.progress.apartado";
pub const VERSION: u32 = 1;
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
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    pub right: Vec<String>,
    pub parts: u32,
    /// The answers that were right, as typed, to show them again.
    #[serde(default)]
    pub answers: BTreeMap<String, String>,
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
            Some(v) if v != VERSION => {
                return Loaded::SetAside(format!("Lo guardado es de otra versión del laboratorio ({v})."))
            }
            _ => {}
        }
        match doc.as_ref().and_then(Progress::from_json) {
            Some(p) if p.is_sane() => Loaded::Ok(p),
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
        let entry = |e: &Json| -> Option<Entry> {
            let right = match e.get("right")? {
                Json::Arr(items) => items
                    .iter()
                    .map(|i| i.as_str().map(str::to_string))
                    .collect::<Option<_>>()?,
                _ => return None,
            };
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
            })
        };
        Some(Progress {
            version: doc.get("version")?.as_u32()?,
            exercises: map(Some(doc.get("exercises")?), |vs| map(Some(vs), entry))?,
            review: map(doc.get("review"), |b| match b {
                Json::Bool(b) => Some(*b),
                _ => None,
            })?,
        })
    }

    fn to_json(&self) -> Json {
        fn map<V>(m: &BTreeMap<u32, V>, value: impl Fn(&V) -> Json) -> Json {
            Json::Obj(m.iter().map(|(k, v)| (k.to_string(), value(v))).collect())
        }
        let entry = |e: &Entry| {
            Json::Obj(vec![
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
            ])
        };
        Json::Obj(vec![
            ("version".into(), Json::Num(self.version.to_string())),
            ("exercises".into(), map(&self.exercises, |vs| map(vs, entry))),
            ("review".into(), map(&self.review, |b| Json::Bool(*b))),
        ])
    }

    fn is_sane(&self) -> bool {
        self.exercises.keys().all(|n| (1..=super::COUNT).contains(n))
            && self
                .exercises
                .values()
                .all(|vs| vs.values().all(|e| e.right.len() <= e.parts as usize && e.parts <= 50))
    }

    pub fn save(&self) -> String {
        let mut p = self.clone();
        p.version = VERSION;
        p.to_json().to_string()
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

    /// Like [`Progress::record`], keeping what was typed for each right part.
    pub fn record_answers(&mut self, n: u32, v: u32, right: &[(String, String)], parts: u32) {
        self.version = VERSION;
        let variants = self.exercises.entry(n).or_default();
        if !variants.contains_key(&v) && variants.len() >= MAX_VARIANTS {
            return;
        }
        let e = variants.entry(v).or_default();
        e.parts = parts;
        for (id, typed) in right {
            // Kept sorted as it grows.
            if let Err(at) = e.right.binary_search(id) {
                e.right.insert(at, id.clone());
            }
            if !typed.is_empty() {
                e.answers.insert(id.clone(), typed.chars().take(100).collect());
            }
        }
    }

    pub fn right(&self, n: u32, v: u32) -> usize {
        self.exercises
            .get(&n)
            .and_then(|m| m.get(&v))
            .map_or(0, |e| e.right.len())
    }

    /// What was typed for a part that was right, if kept.
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
        p.review.insert(3, true);
        p.review.insert(11, false);
        assert_eq!(p.save(), serde_json::to_string(&p).unwrap());
        assert_eq!(
            Progress::load(Some(&serde_json::to_string(&p).unwrap())),
            Loaded::Ok(p.clone())
        );
        // Without the optional fields, as the first version wrote it.
        let old = r#"{"version":1,"exercises":{"2":{"0":{"right":["w1"],"parts":7}}}}"#;
        let Loaded::Ok(back) = Progress::load(Some(old)) else {
            panic!()
        };
        assert_eq!(Some(back), serde_json::from_str::<Progress>(old).ok());
        // Wrong types are unreadable, not guessed at.
        for bad in [
            r#"{"version":1,"exercises":{"2":{"0":{"right":["w1"],"parts":"7"}}}}"#,
            r#"{"version":1,"exercises":{"dos":{}}}"#,
            r#"{"version":1,"exercises":[]}"#,
            r#"{"version":1}"#,
            r#"{"version":1,"exercises":{},"review":{"1":"sí"}}"#,
        ] {
            assert_eq!(
                Progress::load(Some(bad)),
                Loaded::SetAside("Lo guardado no se pudo leer.".into()),
                "{bad}"
            );
            assert!(serde_json::from_str::<Progress>(bad).is_err(), "{bad}");
        }
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
