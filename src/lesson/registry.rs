//! The lessons embedded at build time (see `build.rs`).
//!
//! Native builds parse each lesson's source. The browser build parses its
//! skeleton instead, whose markdown runs were compiled at build time
//! ([`compiled`] finds them), so it carries no markdown parser.

use super::{parse, Lesson, LessonError};
use std::sync::OnceLock;

include!(concat!(env!("OUT_DIR"), "/lessons.rs"));

/// A widget's task as a lesson places it (`:::task{…}`), read at build
/// time: a widget finds its tasks here without parsing any lesson.
#[derive(Debug)]
pub struct TaskSource {
    /// The lesson that places it.
    pub slug: &'static str,
    /// The directive's attributes, in order.
    pub attrs: &'static [(&'static str, &'static str)],
    /// Its text's markdown runs, compiled ([`super::markup`]).
    pub text: &'static [&'static str],
}

impl TaskSource {
    /// The `:::task` directive.
    pub fn directive(&self) -> super::Directive {
        super::Directive {
            name: "task".into(),
            attrs: self.attrs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect(),
        }
    }
}

/// Whether `slug` is a lesson's, without reading any lesson.
pub fn exists(slug: &str) -> bool {
    SLUGS.contains(&slug)
}

/// Every task of every lesson, in folder order and each lesson's order.
pub fn task_sources() -> &'static [TaskSource] {
    TASKS
}

/// The title of section `id` of lesson `slug`, without parsing the lesson.
pub fn section_title(slug: &str, id: &str) -> Option<&'static str> {
    let i = SLUGS.iter().position(|s| *s == slug)?;
    TITLES.get(i)?.iter().find(|(s, _)| *s == id).map(|(_, t)| *t)
}

struct Registry {
    lessons: Vec<Lesson>,
    errors: Vec<(String, LessonError)>,
}

fn registry() -> &'static Registry {
    static R: OnceLock<Registry> = OnceLock::new();
    R.get_or_init(|| {
        let mut lessons = Vec::new();
        let mut errors = Vec::new();
        for (i, (slug, _)) in EMBEDDED.iter().enumerate() {
            #[cfg(target_arch = "wasm32")]
            let md = SKELETONS[i];
            #[cfg(not(target_arch = "wasm32"))]
            let md = SOURCES[i];
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

/// The slug of the course's first lesson (the home page shows it), without
/// reading any lesson (a page's waking code needs no lesson's text).
pub fn first_slug() -> &'static str {
    FIRST
}

pub fn find(slug: &str) -> Option<&'static Lesson> {
    all().iter().find(|l| l.slug == slug)
}

/// A file of a lesson's folder, such as the Python program `manada.py`.
pub fn program_source(slug: &str, file: &str) -> Option<&'static str> {
    EMBEDDED
        .iter()
        .find(|(s, _)| *s == slug)?
        .1
        .iter()
        .find(|(f, _)| *f == file)
        .map(|(_, src)| *src)
}

/// The compiled form of a markdown run of `slug` (see [`super::markup`]), if
/// `text` is a run of the lesson's skeleton, as every run is in the browser
/// build. Native builds keep the source: there it is `None`.
pub fn compiled(slug: &str, text: &str) -> Option<&'static str> {
    let i = EMBEDDED.iter().position(|(s, _)| *s == slug)?;
    COMPILED.get(i)?.get(super::run_index(text)?).copied()
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    #[test]
    fn the_titles_and_tasks_read_at_build_time_are_the_lessons() {
        use crate::lesson::{markup, Block};
        let mut tasks = super::task_sources().iter();
        for l in super::all() {
            for s in &l.sections {
                assert_eq!(super::section_title(&l.slug, &s.id), Some(s.title.as_str()), "{}", s.id);
            }
            fn walk(slug: &str, blocks: &[Block], tasks: &mut std::slice::Iter<super::TaskSource>) {
                for b in blocks {
                    let Block::Container { directive, body } = b else {
                        continue;
                    };
                    if directive.name != "task" {
                        walk(slug, body, tasks);
                        continue;
                    }
                    let t = tasks.next().expect("a task the build did not read");
                    assert_eq!((t.slug, &t.directive()), (slug, directive));
                    let runs: Vec<String> = body
                        .iter()
                        .filter_map(|b| match b {
                            Block::Markdown(md) => Some(markup::compile(md)),
                            _ => None,
                        })
                        .collect();
                    assert_eq!(t.text, runs.iter().map(String::as_str).collect::<Vec<_>>());
                }
            }
            for s in &l.sections {
                walk(&l.slug, &s.blocks, &mut tasks);
            }
        }
        assert!(tasks.next().is_none(), "a task the lessons do not place");
        assert_eq!(
            super::SLUGS,
            super::all().iter().map(|l| l.slug.as_str()).collect::<Vec<_>>()
        );
        assert!(super::exists(&super::all()[0].slug) && !super::exists("nada"));
        assert!(super::task_sources().len() >= 10);
        assert_eq!(super::section_title(&super::all()[0].slug, "nada"), None);
    }

    #[test]
    fn the_first_slug_is_the_first_lesson() {
        assert_eq!(super::first_slug(), super::all()[0].slug);
    }

    use super::*;
    use crate::lesson::{drop_exercise_texts, markup, skeleton, Block};

    /// The browser's form of each lesson is the native one: the same
    /// sections and directives, and each run compiled from the same text.
    #[test]
    fn skeletons_and_compiled_runs_match_the_sources() {
        fn pair(native: &[Block], browser: &[Block], slug: &str, runs: &mut usize) {
            assert_eq!(native.len(), browser.len());
            for (n, b) in native.iter().zip(browser) {
                match (n, b) {
                    (Block::Markdown(src), Block::Markdown(placeholder)) => {
                        let c = compiled(slug, placeholder).expect("a compiled run");
                        assert_eq!(c, markup::compile(src));
                        *runs += 1;
                    }
                    (
                        Block::Container {
                            directive: d1,
                            body: b1,
                        },
                        Block::Container {
                            directive: d2,
                            body: b2,
                        },
                    ) => {
                        assert_eq!(d1, d2);
                        // An exercise is shown from the core, not from the lesson's copy of its
                        // text; a task's text from `task_sources` (checked below).
                        if d1.name == "task" {
                            assert!(b2.is_empty(), "a task's text left in the skeleton");
                        } else if !(d1.name == "exercise" && b2.is_empty()) {
                            pair(b1, b2, slug, runs);
                        }
                    }
                    (a, b) => assert_eq!(a, b),
                }
            }
        }
        assert_eq!(SOURCES.len(), EMBEDDED.len());
        for (i, (slug, _)) in EMBEDDED.iter().enumerate() {
            let native = parse(slug, SOURCES[i]).unwrap();
            let browser = parse(slug, SKELETONS[i]).unwrap();
            assert_eq!((&native.title, &native.summary), (&browser.title, &browser.summary));
            assert_eq!(native.sections.len(), browser.sections.len());
            let mut runs = 0;
            for (a, b) in native.sections.iter().zip(&browser.sections) {
                assert_eq!((&a.id, &a.title, a.level), (&b.id, &b.title, b.level));
                pair(&a.blocks, &b.blocks, slug, &mut runs);
            }
            assert_eq!(runs, COMPILED[i].len());
            // And the skeleton is what the parser writes back.
            let mut shown = native.clone();
            drop_exercise_texts(&mut shown);
            assert_ne!(shown, native, "the exercises' texts are left out");
            assert_eq!(skeleton(&shown, &mut Vec::new()), SKELETONS[i]);
        }
    }
}
