//! The lessons embedded at build time (see `build.rs`).

use super::{parse, Lesson, LessonError};
use std::sync::OnceLock;

include!(concat!(env!("OUT_DIR"), "/lessons.rs"));

struct Registry {
    lessons: Vec<Lesson>,
    errors: Vec<(String, LessonError)>,
}

fn registry() -> &'static Registry {
    static R: OnceLock<Registry> = OnceLock::new();
    R.get_or_init(|| {
        let mut lessons = Vec::new();
        let mut errors = Vec::new();
        for (slug, md, _) in EMBEDDED {
            match parse(slug, md) {
                Ok(l) => lessons.push(l),
                Err(e) => errors.push((slug.to_string(), e)),
            }
        }
        Registry { lessons, errors }
    })
}

/// Every lesson that parsed, in folder order.
pub fn all() -> &'static [Lesson] {
    &registry().lessons
}

/// Lessons that failed to parse (a test keeps this empty).
pub fn errors() -> &'static [(String, LessonError)] {
    &registry().errors
}

pub fn find(slug: &str) -> Option<&'static Lesson> {
    all().iter().find(|l| l.slug == slug)
}

/// A file of a lesson's folder, such as the Python program `manada.py`.
pub fn program_source(slug: &str, file: &str) -> Option<&'static str> {
    EMBEDDED
        .iter()
        .find(|(s, _, _)| *s == slug)?
        .2
        .iter()
        .find(|(f, _)| *f == file)
        .map(|(_, src)| *src)
}
