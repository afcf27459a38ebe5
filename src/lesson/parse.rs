//! The lesson parser: front matter, sections, directives and markdown runs.
//!
//! Plain Rust with no dependency but [`super::directive`], so that `build.rs`
//! can include it (`#[path]`) and parse the lessons at build time: the browser
//! build embeds each lesson with its markdown already compiled (see
//! [`super::markup`]).

use super::directive::{parse_directive_line, Directive};

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
    // Only ASCII letters and digits are kept, so no Unicode case tables are needed.
    for ch in title.chars() {
        let c = match ch {
            'á' | 'à' | 'ä' | 'â' | 'Á' | 'À' | 'Ä' | 'Â' => 'a',
            'é' | 'è' | 'ë' | 'ê' | 'É' | 'È' | 'Ë' | 'Ê' => 'e',
            'í' | 'ì' | 'ï' | 'î' | 'Í' | 'Ì' | 'Ï' | 'Î' => 'i',
            'ó' | 'ò' | 'ö' | 'ô' | 'Ó' | 'Ò' | 'Ö' | 'Ô' => 'o',
            'ú' | 'ù' | 'ü' | 'û' | 'Ú' | 'Ù' | 'Ü' | 'Û' => 'u',
            'ñ' | 'Ñ' => 'n',
            c => c.to_ascii_lowercase(),
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

/// Starts the line that stands for a markdown run in a [`skeleton`]; the
/// run's index follows.
pub const RUN: char = '\u{1}';

/// The lesson written back as a `leccion.md` in which each markdown run is a
/// line holding the marker `RUN` (U+0001) and an index, its text moved to
/// `runs[index]`. Parsing the
/// skeleton gives the same lesson with those lines in place of the runs
/// (a test checks it on every lesson): `build.rs` embeds this form in the
/// browser build, with the runs compiled (see [`super::markup`]).
pub fn skeleton(lesson: &Lesson, runs: &mut Vec<String>) -> String {
    fn directive(d: &Directive, out: &mut String) {
        out.push_str(&d.name);
        if !d.attrs.is_empty() {
            out.push('{');
            for (i, (k, v)) in d.attrs.iter().enumerate() {
                if i > 0 {
                    out.push(' ');
                }
                out.push_str(k);
                out.push_str("=\"");
                out.push_str(&v.replace('\\', "\\\\").replace('"', "\\\""));
                out.push('"');
            }
            out.push('}');
        }
        out.push('\n');
    }
    /// How many containers deep `blocks` go.
    fn depth(blocks: &[Block]) -> usize {
        blocks
            .iter()
            .map(|b| match b {
                Block::Container { body, .. } => 1 + depth(body),
                _ => 0,
            })
            .max()
            .unwrap_or(0)
    }
    fn write(blocks: &[Block], out: &mut String, runs: &mut Vec<String>) {
        for b in blocks {
            match b {
                Block::Markdown(text) => {
                    out.push(RUN);
                    out.push_str(&runs.len().to_string());
                    out.push('\n');
                    runs.push(text.clone());
                }
                Block::Directive(d) => {
                    out.push_str("::");
                    directive(d, out);
                }
                Block::Container { directive: d, body } => {
                    // An outer container has more colons than any inside it.
                    let fence = ":".repeat(3 + depth(body));
                    out.push_str(&fence);
                    directive(d, out);
                    write(body, out, runs);
                    out.push_str(&fence);
                    out.push('\n');
                }
            }
        }
    }
    let mut out = format!("---\ntitle: {}\nsummary: {}\n---\n", lesson.title, lesson.summary);
    for s in &lesson.sections {
        if s.level >= 2 {
            out.push_str(&format!("{} {} {{#{}}}\n", "#".repeat(s.level as usize), s.title, s.id));
        }
        write(&s.blocks, &mut out, runs);
    }
    out
}

/// Empties the text of each `exercise` container that places no piece of the
/// lab, and of each `task`: the page shows an exercise as the core computes
/// it (`exercise::bank`, kept equal to the lesson's text by a test), and a
/// task's text as the build read it beside its widget
/// (`registry::task_sources`), so the browser build need not carry the
/// lesson's copy.
pub fn drop_exercise_texts(lesson: &mut Lesson) {
    fn places_a_piece(blocks: &[Block]) -> bool {
        blocks.iter().any(|b| match b {
            Block::Directive(_) => true,
            Block::Container { body, .. } => places_a_piece(body),
            Block::Markdown(_) => false,
        })
    }
    fn walk(blocks: &mut [Block]) {
        for b in blocks {
            if let Block::Container { directive, body } = b {
                // A task's text is read from what the build took of it
                // (`registry::task_sources`), not from the skeleton.
                if (directive.name == "exercise" && !places_a_piece(body)) || directive.name == "task" {
                    body.clear();
                } else {
                    walk(body);
                }
            }
        }
    }
    for s in &mut lesson.sections {
        walk(&mut s.blocks);
    }
}

/// Whether `text` is a markdown run of a [`skeleton`], and which.
pub fn run_index(text: &str) -> Option<usize> {
    text.strip_prefix(RUN)?.trim_end().parse().ok()
}
