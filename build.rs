//! Embeds every lesson under `lessons/`: each folder with a `leccion.md`
//! becomes an entry, with all its other files (the programs its directives
//! name). Adding a lesson means adding a folder; no code changes.
//!
//! Each lesson is also parsed here, with the lab's own parser, and its
//! markdown runs compiled (`src/lesson/markup.rs`): the browser build embeds
//! that form (`SKELETONS`, `COMPILED`) and so links no markdown parser; native
//! builds parse the source (`SOURCES`), and a test checks both agree.

use std::fmt::Write as _;
use std::path::Path;

#[allow(dead_code)]
#[path = "src/lesson/directive.rs"]
mod directive;
#[allow(dead_code)]
#[path = "src/lesson/markup.rs"]
mod markup;
#[allow(dead_code)]
#[path = "src/lesson/parse.rs"]
mod parse;

fn main() {
    // `cfg(instructors)`: what only instructors and course platforms use («Para
    // docentes», the SCORM runtime). Natively always (the prerender writes their
    // pages; tests); in the browser only in the build with the `instructors`
    // feature, which those pages and the SCORM package load. The learner's
    // build leaves it out of its first load (docs/PERFORMANCE.md).
    println!("cargo::rustc-check-cfg=cfg(instructors)");
    if std::env::var("CARGO_CFG_TARGET_ARCH").as_deref() != Ok("wasm32")
        || std::env::var_os("CARGO_FEATURE_INSTRUCTORS").is_some()
    {
        println!("cargo::rustc-cfg=instructors");
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("lessons");
    println!("cargo:rerun-if-changed={}", root.display());
    for f in ["directive.rs", "markup.rs", "parse.rs"] {
        println!("cargo:rerun-if-changed=src/lesson/{f}");
    }
    let mut dirs: Vec<_> = std::fs::read_dir(&root)
        .map(|rd| {
            rd.filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.join("leccion.md").is_file())
                .collect()
        })
        .unwrap_or_default();
    dirs.sort();
    let mut out = String::from(
        "#[allow(clippy::type_complexity)]\npub(super) static EMBEDDED: &[(&str, &[(&str, &str)])] = &[\n",
    );
    let mut sources = String::from("#[cfg(not(target_arch = \"wasm32\"))]\npub(super) static SOURCES: &[&str] = &[\n");
    let mut skeletons =
        String::from("#[cfg(any(test, target_arch = \"wasm32\"))]\npub(super) static SKELETONS: &[&str] = &[\n");
    let mut compiled = String::from("pub(super) static COMPILED: &[&[&str]] = &[\n");
    let mut tables = Tables::default();
    let mut asserts = String::new();
    let first = dirs
        .first()
        .and_then(|d| d.file_name())
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    for dir in dirs {
        let slug = dir.file_name().unwrap().to_string_lossy().into_owned();
        println!("cargo:rerun-if-changed={}", dir.display());
        let md = dir.join("leccion.md");
        println!("cargo:rerun-if-changed={}", md.display());
        writeln!(sources, "    include_str!({:?}),", md.display().to_string()).unwrap();
        let text = std::fs::read_to_string(&md).unwrap_or_default();
        // A lesson that does not parse is embedded as it is: the lab reports its error.
        let parsed = parse::parse(&slug, &text);
        tables.add(&slug, parsed.as_ref().map_or(&[][..], |l| &l.sections[..]));
        let (skeleton, runs) = match parsed {
            Ok(mut lesson) => {
                for section in &lesson.sections {
                    checks(&format!("lessons/{slug}/leccion.md"), &section.blocks, &mut asserts);
                }
                parse::drop_exercise_texts(&mut lesson);
                let mut runs = Vec::new();
                (parse::skeleton(&lesson, &mut runs), runs)
            }
            Err(_) => (text.clone(), Vec::new()),
        };
        writeln!(skeletons, "    {skeleton:?},").unwrap();
        compiled.push_str("    &[");
        for run in runs {
            write!(compiled, "{:?}, ", markup::compile(&run)).unwrap();
        }
        compiled.push_str("],\n");
        embed_files(&slug, &dir, &md, &mut out);
    }
    out.push_str("];\n");
    // The course's first lesson (the home page's), apart from the texts.
    writeln!(out, "pub(super) static FIRST: &str = {first:?};").unwrap();
    for part in [sources, skeletons, compiled, tables.slugs, tables.titles, tables.tasks] {
        out.push_str(&part);
        out.push_str("];\n");
    }
    out.push_str(&asserts);
    let dest = Path::new(&std::env::var("OUT_DIR").unwrap()).join("lessons.rs");
    std::fs::write(dest, out).unwrap();
}

/// A compile-time check for every piece a lesson places by id: a widget
/// that is not in `src/scenario.rs`'s `registry!`, or a table or program
/// output the lab does not draw, is a build error naming the lesson.
fn checks(file: &str, blocks: &[parse::Block], out: &mut String) {
    for b in blocks {
        let d = match b {
            parse::Block::Directive(d) => d,
            parse::Block::Container { body, .. } => {
                checks(file, body, out);
                continue;
            }
            parse::Block::Markdown(_) => continue,
        };
        let (list, key, place) = match d.name.as_str() {
            "widget" => ("&crate::lesson::WIDGETS", "id", "src/scenario.rs's registry!"),
            "table" => ("crate::lesson::TABLES", "id", "lesson::TABLES"),
            "program" => ("crate::lesson::OUTPUTS", "output", "lesson::OUTPUTS"),
            _ => continue,
        };
        if let Some(id) = d.get(key) {
            // (An assert's message is a format string: its braces doubled.)
            let message = format!("{file} places ::{}{{{{{key}={id}}}}}, which is not in {place}", d.name);
            writeln!(
                out,
                "const _: () = assert!(crate::lesson::is_listed({list}, {id:?}), {message:?});"
            )
            .unwrap();
        }
    }
}

/// `(slug, &[(file, its text)])`: every file of a lesson's folder but its
/// `leccion.md` (the programs its directives name).
fn embed_files(slug: &str, dir: &Path, md: &Path, out: &mut String) {
    let mut files: Vec<_> = walk(dir).into_iter().filter(|p| p != md).collect();
    files.sort();
    write!(out, "    ({slug:?}, &[").unwrap();
    for f in files {
        println!("cargo:rerun-if-changed={}", f.display());
        let rel = f.strip_prefix(dir).unwrap().to_string_lossy().replace('\\', "/");
        write!(out, "({rel:?}, include_str!({:?})), ", f.display().to_string()).unwrap();
    }
    out.push_str("]),\n");
}

/// What a widget's page needs of the lessons without parsing one (its code
/// then holds neither a lesson's text nor its parser, only these small
/// tables): the lessons' slugs, the sections' titles, and every task with
/// its text compiled.
struct Tables {
    slugs: String,
    titles: String,
    tasks: String,
}

impl Default for Tables {
    fn default() -> Self {
        Tables {
            slugs: "pub(super) static SLUGS: &[&str] = &[\n".into(),
            titles: "pub(super) static TITLES: &[&[(&str, &str)]] = &[\n".into(),
            tasks: "pub(super) static TASKS: &[TaskSource] = &[\n".into(),
        }
    }
}

impl Tables {
    /// Lesson `slug`, with its sections (none if it did not parse).
    fn add(&mut self, slug: &str, sections: &[parse::Section]) {
        writeln!(self.slugs, "    {slug:?},").unwrap();
        self.titles.push_str("    &[");
        for section in sections {
            write!(self.titles, "({:?}, {:?}), ", section.id, section.title).unwrap();
            task_sources(slug, &section.blocks, &mut self.tasks);
        }
        self.titles.push_str("],\n");
    }
}

/// Every `:::task` of `blocks` (anywhere in them), as `TaskSource { … }`.
fn task_sources(slug: &str, blocks: &[parse::Block], out: &mut String) {
    for b in blocks {
        if let parse::Block::Container { directive, body } = b {
            if directive.name != "task" {
                task_sources(slug, body, out);
                continue;
            }
            write!(out, "    TaskSource {{ slug: {slug:?}, attrs: &[").unwrap();
            for (k, v) in &directive.attrs {
                write!(out, "({k:?}, {v:?}), ").unwrap();
            }
            out.push_str("], text: &[");
            for run in body {
                if let parse::Block::Markdown(md) = run {
                    write!(out, "{:?}, ", markup::compile(md)).unwrap();
                }
            }
            out.push_str("] },\n");
        }
    }
}

fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    if let Ok(rd) = std::fs::read_dir(dir) {
        for e in rd.filter_map(Result::ok) {
            let p = e.path();
            if p.is_dir() {
                println!("cargo:rerun-if-changed={}", p.display());
                out.extend(walk(&p));
            } else if p.extension().is_some_and(|x| x == "md" || x == "py" || x == "txt") {
                out.push(p);
            }
        }
    }
    out
}
