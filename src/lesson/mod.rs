//! Lessons as data.
//!
//! A lesson is a folder under `lessons/`: a `leccion.md` with front matter,
//! and any files its directives name (the Python programs). `build.rs` finds
//! every folder and embeds it, so adding the next lesson of the course means
//! adding files, not editing the renderer.
//!
//! The markdown is CommonMark plus two kinds of directive, each on lines of
//! its own:
//!
//! * a leaf directive, `::name{key="value" other=value}`, which places a
//!   piece of the lab: `::widget{id="herd"}`, `::program{src="manada.py"
//!   output="herd"}`;
//! * a container, `:::name{…}` … `:::`, whose body is markdown:
//!   `:::details{summary="Ver la solución paso a paso"}`. A container closes
//!   at a line of as many colons as opened it, so `::::exercise{n="2"}` …
//!   `::::` can hold a `:::details` (the exercise's text as the lesson wrote
//!   it; the page shows the core's version of it, which a test keeps equal).
//!
//! `##` headings start the lesson's parts and `###` their subsections; each
//! becomes a [`Section`] with a stable id (`{#id}` after the title, or the
//! title without accents), which is its URL.
//!
//! ```
//! use sensei_lab::lesson::{parse, Block};
//! let l = parse("x", "---\ntitle: T\n---\nHola.\n\n## Uno {#uno}\n\n::widget{id=\"herd\"}\n").unwrap();
//! assert_eq!(l.title, "T");
//! assert_eq!(l.sections[1].id, "uno");
//! assert!(matches!(&l.sections[1].blocks[0], Block::Directive(d) if d.name == "widget"));
//! ```

pub mod concepts;
mod directive;
pub mod markup;
mod parse;
mod registry;

pub use directive::{parse_directive_line, Directive};
pub use parse::{drop_exercise_texts, parse, run_index, skeleton, slugify, Block, Lesson, LessonError, Section};
pub use registry::{
    all, compiled, errors, exists, find, first_slug, program_source, section_title, task_sources, TaskSource,
};

/// The widgets a `::widget{id=…}` directive can place: the registry's ids
/// ([`crate::scenario::ALL`]), in its order.
pub const WIDGETS: [&str; crate::scenario::ALL.len()] = {
    let mut ids = [""; crate::scenario::ALL.len()];
    let mut i = 0;
    while i < ids.len() {
        ids[i] = crate::scenario::ALL[i].id;
        i += 1;
    }
    ids
};

/// A widget's name, as the lesson and the widget's frame call it (the frame
/// adds what follows it: «La manada» … «: mil clientes que fallan juntos»),
/// for its frame, page titles and embed code.
///
/// A match over the registry's names, not [`crate::scenario::find`]: a
/// widget's frame that names itself reaches no other scenario's code (the
/// registry's entries point at every scenario's parameters).
pub fn widget_name(id: &str) -> Option<&'static str> {
    macro_rules! names {
        ($(($rid:ident, $name:literal, $m:ident :: $p:ident, $w:ident :: $c:ident)),* $(,)?) => {
            match id {
                $( stringify!($rid) => Some($name), )*
                _ => None,
            }
        };
    }
    crate::registry!(names)
}
/// The tables of numbers the core computes (`::table{id=…}`).
pub const TABLES: &[&str] = &["inflight", "layers", "failures", "methods"];
/// The programs whose output the core computes (`::program{output=…}`).
pub const OUTPUTS: &[&str] = &["herd", "idempotency"];

/// Whether `id` is in `list`, at compile time: the build checks every id a
/// lesson places with it (`build.rs`), so an unknown one does not compile.
pub const fn is_listed(list: &[&str], id: &str) -> bool {
    let mut i = 0;
    while i < list.len() {
        let (a, b) = (list[i].as_bytes(), id.as_bytes());
        if a.len() == b.len() {
            let mut j = 0;
            while j < a.len() && a[j] == b[j] {
                j += 1;
            }
            if j == a.len() {
                return true;
            }
        }
        i += 1;
    }
    false
}

/// What is wrong with a directive, if anything: unknown names, missing
/// attributes, files that are not in the lesson's folder. A task's and an
/// exercise's are the exercises' to check (`exercise::check_directive`,
/// which asks this for the rest): the lessons know nothing of exercises.
pub fn check_directive(slug: &str, d: &Directive) -> Option<String> {
    let need = |k: &str| d.get(k).is_none().then(|| format!("«::{}» needs «{k}»", d.name));
    match d.name.as_str() {
        "widget" => need("id").or_else(|| {
            let id = d.get("id").unwrap_or_default();
            (!WIDGETS.contains(&id)).then(|| format!("unknown widget «{id}»"))
        }),
        "program" => need("src").or_else(|| need("output")).or_else(|| {
            let src = d.get("src").unwrap_or_default();
            let out = d.get("output").unwrap_or_default();
            if program_source(slug, src).is_none() {
                Some(format!("program «{src}» is not in lessons/{slug}/"))
            } else if !OUTPUTS.contains(&out) {
                Some(format!("unknown program output «{out}»"))
            } else {
                None
            }
        }),
        "table" => need("id").or_else(|| {
            let id = d.get("id").unwrap_or_default();
            (!TABLES.contains(&id)).then(|| format!("unknown table «{id}»"))
        }),
        "details" => need("summary"),
        "task" | "exercise" => None,
        "progress" | "cards" => None,
        "knew" => need("n").or_else(|| {
            let n = d.get("n").unwrap_or_default();
            (!matches!(n.parse::<u32>(), Ok(1..=50))).then(|| format!("«::knew» needs a question number, got «{n}»"))
        }),
        other => Some(format!("unknown directive «::{other}»")),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn is_listed_compares_whole_ids() {
        use super::{is_listed, WIDGETS};
        assert!(WIDGETS.iter().all(|id| is_listed(&WIDGETS, id)));
        for id in ["", "her", "herds", "Herd", "nada"] {
            assert!(!is_listed(&WIDGETS, id), "{id}");
        }
        assert!(!is_listed(&[], "herd"));
    }

    use super::*;

    #[test]
    fn every_widget_has_a_name() {
        for id in WIDGETS {
            assert!(widget_name(id).is_some_and(|n| !n.is_empty()), "{id}");
        }
        assert_eq!(widget_name("herd"), Some("La manada"));
        assert_eq!(widget_name("nada"), None);
    }

    #[test]
    fn slugs_drop_accents() {
        assert_eq!(slugify("¿Qué dice cada falla?"), "que-dice-cada-falla");
        assert_eq!(
            slugify("Retry-After: cuando el servidor dice cuánto esperar"),
            "retry-after-cuando-el-servidor-dice-cuanto-esperar"
        );
        assert_eq!(slugify("¡!"), "seccion");
    }

    #[test]
    fn containers_and_fences() {
        let src = "---\ntitle: T\n---\n## A\n\n```python\n## no es título\n::tampoco\n```\n\n:::details{summary=\"Ver\"}\n- uno\n:::\n";
        let l = parse("t", src).unwrap();
        assert_eq!(l.sections.len(), 2);
        let blocks = &l.sections[1].blocks;
        assert!(matches!(&blocks[0], Block::Markdown(m) if m.contains("## no es título")));
        assert!(
            matches!(&blocks[1], Block::Container { directive, body } if directive.get("summary") == Some("Ver") && body.len() == 1)
        );
    }

    #[test]
    fn errors_name_the_line() {
        let err = parse("t", "---\ntitle: T\n---\n\n:::details{summary=\"x\"}\nsin cerrar\n").unwrap_err();
        assert_eq!(err.line, 5);
        let err = parse("t", "---\ntitle: T\n---\n## A\n## A\n").unwrap_err();
        assert_eq!(err.line, 5);
        assert!(parse("t", "sin front matter").is_err());
    }
}
