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
mod registry;

pub use directive::{parse_directive_line, Directive};
pub use registry::{all, errors, find, program_source};

/// A parsed lesson.
#[derive(Clone, Debug, PartialEq)]
pub struct Lesson {
    /// The folder name: the lesson's URL.
    pub slug: String,
    pub title: String,
    /// One line for the table of contents of the course.
    pub summary: String,
    /// The first section (level 1) is the text before any heading.
    pub sections: Vec<Section>,
}

/// A heading and what follows it, up to the next heading.
#[derive(Clone, Debug, PartialEq)]
pub struct Section {
    pub id: String,
    pub title: String,
    /// 1 for the opening text, 2 for a part, 3 for a subsection.
    pub level: u8,
    pub blocks: Vec<Block>,
}

/// A piece of a section.
#[derive(Clone, Debug, PartialEq)]
pub enum Block {
    /// CommonMark text.
    Markdown(String),
    /// A piece of the lab placed in the text.
    Directive(Directive),
    /// A container directive with markdown inside (e.g. a hidden solution).
    Container { directive: Directive, body: Vec<Block> },
}

/// What went wrong reading a lesson, with the line it happened on.
#[derive(Clone, Debug, PartialEq)]
pub struct LessonError {
    pub line: usize,
    pub message: String,
}

impl std::fmt::Display for LessonError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl Lesson {
    /// The parts (level 2) and subsections (level 3), for the table of contents.
    pub fn toc(&self) -> impl Iterator<Item = &Section> {
        self.sections.iter().filter(|s| s.level >= 2)
    }

    pub fn section(&self, id: &str) -> Option<&Section> {
        self.sections.iter().find(|s| s.id == id)
    }

    /// Every directive in the lesson, containers included, in order.
    pub fn directives(&self) -> Vec<&Directive> {
        fn walk<'a>(blocks: &'a [Block], out: &mut Vec<&'a Directive>) {
            for b in blocks {
                match b {
                    Block::Directive(d) => out.push(d),
                    Block::Container { directive, body } => {
                        out.push(directive);
                        walk(body, out);
                    }
                    Block::Markdown(_) => {}
                }
            }
        }
        let mut out = Vec::new();
        for s in &self.sections {
            walk(&s.blocks, &mut out);
        }
        out
    }
}

/// Splits `---` front matter (`key: value` lines) from the body.
fn front_matter(src: &str) -> (Vec<(String, String)>, &str, usize) {
    let Some(rest) = src.strip_prefix("---\n") else {
        return (Vec::new(), src, 0);
    };
    let Some(end) = rest
        .find("\n---\n")
        .or_else(|| rest.strip_suffix("\n---").map(|r| r.len()))
    else {
        return (Vec::new(), src, 0);
    };
    let meta = rest[..end]
        .lines()
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_string(), v.trim().trim_matches('"').to_string()))
        .collect();
    let body = rest.get(end + 5..).unwrap_or("");
    let lines = rest[..end].lines().count() + 2;
    (meta, body, lines)
}

/// A heading's id: lower case, accents removed, words joined by hyphens.
pub fn slugify(title: &str) -> String {
    let mut out = String::new();
    for ch in title.chars().flat_map(|c| c.to_lowercase()) {
        let c = match ch {
            'á' | 'à' | 'ä' | 'â' => 'a',
            'é' | 'è' | 'ë' | 'ê' => 'e',
            'í' | 'ì' | 'ï' | 'î' => 'i',
            'ó' | 'ò' | 'ö' | 'ô' => 'o',
            'ú' | 'ù' | 'ü' | 'û' => 'u',
            'ñ' => 'n',
            c => c,
        };
        if c.is_ascii_alphanumeric() {
            out.push(c);
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
    }
    while out.ends_with('-') {
        out.pop();
    }
    if out.is_empty() {
        "seccion".into()
    } else {
        out
    }
}

/// `## Título {#id}` → `(2, "Título", Some("id"))`.
fn heading(line: &str) -> Option<(u8, String, Option<String>)> {
    let level = line.chars().take_while(|c| *c == '#').count();
    if !(2..=3).contains(&level) || !line[level..].starts_with(' ') {
        return None;
    }
    let text = line[level..].trim();
    if let Some(open) = text.rfind("{#") {
        if text.ends_with('}') {
            let id = text[open + 2..text.len() - 1].trim().to_string();
            return Some((level as u8, text[..open].trim().to_string(), Some(id)));
        }
    }
    Some((level as u8, text.to_string(), None))
}

/// Parses a lesson's `leccion.md`.
pub fn parse(slug: &str, src: &str) -> Result<Lesson, LessonError> {
    let (meta, body, offset) = front_matter(src);
    let get = |k: &str| meta.iter().find(|(mk, _)| mk == k).map(|(_, v)| v.clone());
    // An empty title is no title (found by the fuzz test: a heading pasted into the front matter).
    let title = get("title").filter(|t| !t.trim().is_empty()).ok_or(LessonError {
        line: 1,
        message: "front matter has no title".into(),
    })?;
    let mut sections = vec![Section {
        id: "inicio".into(),
        title: title.clone(),
        level: 1,
        blocks: Vec::new(),
    }];
    let mut lines: Vec<(usize, &str)> = Vec::new();
    let mut in_fence = false;
    let flush = |lines: &mut Vec<(usize, &str)>, sections: &mut Vec<Section>| -> Result<(), LessonError> {
        let blocks = blocks(lines)?;
        sections.last_mut().expect("a section").blocks.extend(blocks);
        lines.clear();
        Ok(())
    };
    for (i, line) in body.lines().enumerate() {
        let n = i + 1 + offset;
        if line.trim_start().starts_with("```") {
            in_fence = !in_fence;
        }
        if !in_fence {
            if let Some((level, title, id)) = heading(line) {
                flush(&mut lines, &mut sections)?;
                let id = id.unwrap_or_else(|| slugify(&title));
                if sections.iter().any(|s| s.id == id) {
                    return Err(LessonError {
                        line: n,
                        message: format!("duplicate section id «{id}»"),
                    });
                }
                sections.push(Section {
                    id,
                    title,
                    level,
                    blocks: Vec::new(),
                });
                continue;
            }
        }
        lines.push((n, line));
    }
    flush(&mut lines, &mut sections)?;
    Ok(Lesson {
        slug: slug.into(),
        title,
        summary: get("summary").unwrap_or_default(),
        sections,
    })
}

/// Groups a section's lines into markdown runs, directives and containers.
fn blocks(lines: &[(usize, &str)]) -> Result<Vec<Block>, LessonError> {
    let mut out: Vec<Block> = Vec::new();
    let mut text = String::new();
    let mut i = 0;
    let mut in_fence = false;
    let push_text = |text: &mut String, out: &mut Vec<Block>| {
        if !text.trim().is_empty() {
            out.push(Block::Markdown(std::mem::take(text)));
        }
        text.clear();
    };
    while i < lines.len() {
        let (n, line) = lines[i];
        if line.trim_start().starts_with("```") {
            in_fence = !in_fence;
        }
        let trimmed = line.trim();
        let colons = trimmed.chars().take_while(|c| *c == ':').count();
        if !in_fence && colons >= 3 && trimmed.len() > colons {
            // A container closes at a line of as many colons as opened it, so
            // `::::exercise{…}` can hold a `:::details{…}`.
            let fence = &trimmed[..colons];
            let directive =
                parse_directive_line(&trimmed[colons - 2..]).map_err(|m| LessonError { line: n, message: m })?;
            let close = lines[i + 1..]
                .iter()
                .position(|(_, l)| l.trim() == fence)
                .ok_or(LessonError {
                    line: n,
                    message: format!("«{fence}{}» is never closed with «{fence}»", directive.name),
                })?;
            push_text(&mut text, &mut out);
            let body = blocks(&lines[i + 1..i + 1 + close])?;
            out.push(Block::Container { directive, body });
            i += close + 2;
            continue;
        }
        if !in_fence && trimmed.starts_with("::") && !trimmed.starts_with(":::") {
            let directive = parse_directive_line(trimmed).map_err(|m| LessonError { line: n, message: m })?;
            push_text(&mut text, &mut out);
            out.push(Block::Directive(directive));
        } else {
            text.push_str(line);
            text.push('\n');
        }
        i += 1;
    }
    push_text(&mut text, &mut out);
    Ok(out)
}

/// The widgets a `::widget{id=…}` directive can place.
pub const WIDGETS: &[&str] = &[
    "herd",
    "clocks",
    "inflight",
    "chain",
    "hedging",
    "shedding",
    "backoff",
    "layers",
    "budget",
    "failure",
    "breaker",
    "storm",
    "store",
    "degradation",
    "failmode",
];
/// The tables of numbers the core computes (`::table{id=…}`).
pub const TABLES: &[&str] = &["inflight", "layers", "failures", "methods"];
/// The programs whose output the core computes (`::program{output=…}`).
pub const OUTPUTS: &[&str] = &["herd", "idempotency"];

/// What is wrong with a directive, if anything: unknown names, missing
/// attributes, files that are not in the lesson's folder.
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
        "progress" | "cards" => None,
        "knew" => need("n").or_else(|| {
            let n = d.get("n").unwrap_or_default();
            (!matches!(n.parse::<u32>(), Ok(1..=50))).then(|| format!("«::knew» needs a question number, got «{n}»"))
        }),
        "exercise" => need("n").or_else(|| {
            let n = d.get("n").unwrap_or_default();
            n.parse::<u32>()
                .ok()
                .filter(|n| crate::exercise::build(*n, 0).is_some())
                .is_none()
                .then(|| format!("unknown exercise «{n}»"))
        }),
        other => Some(format!("unknown directive «::{other}»")),
    }
}

/// Every problem in every embedded lesson (empty when all is well).
pub fn check_all() -> Vec<String> {
    let mut out: Vec<String> = errors().iter().map(|(s, e)| format!("{s}: {e}")).collect();
    for l in all() {
        for d in l.directives() {
            if let Some(p) = check_directive(&l.slug, d) {
                out.push(format!("{}: {p}", l.slug));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

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
