//! Markdown compiled ahead of time into a tiny markup the page turns into
//! elements.
//!
//! Why: a CommonMark parser is the largest thing a learner would download
//! that does nothing but re-derive, on every visit, the same tree from the
//! same text. So the parser runs at build time instead: `build.rs` parses each
//! lesson (with [`super::parse`]), compiles each markdown run with
//! [`compile`] (pulldown-cmark, which the browser build does not link), and
//! embeds the lesson with each run replaced by a reference to its compiled
//! form ([`super::parse::skeleton`]). The page reads it back with [`events`].
//!
//! The markup is a string of tokens, each a control character and a payload
//! that runs to the next control character:
//!
//! | token            | meaning                                         |
//! |------------------|-------------------------------------------------|
//! | `\u{2}name`      | open an element                                 |
//! | `\u{3}key=value` | an attribute of the element just opened         |
//! | `\u{5}`          | close the innermost open element                |
//! | `\u{6}text`      | text                                            |
//!
//! Nothing in it is HTML: raw HTML in a lesson becomes text, link targets
//! other than `http(s)://`, `/…` and `#…` become `#`, and control characters
//! in the text are replaced, so the markup cannot be forged from a lesson.
//!
//! ```
//! use sensei_lab::lesson::markup::{compile, events, to_html};
//! let m = compile("Un *jitter* de `100 ms`.");
//! assert_eq!(to_html(&m), "<p>Un <em>jitter</em> de <code>100 ms</code>.</p>");
//! assert_eq!(events(&m).count(), 11);
//! ```

/// Opens an element; its name follows.
pub const OPEN: char = '\u{2}';
/// An attribute, `key=value`, of the element just opened.
pub const ATTR: char = '\u{3}';
/// Closes the innermost open element.
pub const CLOSE: char = '\u{5}';
/// Text follows.
pub const TEXT: char = '\u{6}';

fn is_marker(c: char) -> bool {
    matches!(c, '\u{1}'..='\u{6}')
}

/// One token of the markup.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event<'a> {
    Open(&'a str),
    Attr(&'a str, &'a str),
    Close,
    Text(&'a str),
}

/// The tokens of `markup`, in order. Anything malformed is skipped.
pub fn events(markup: &str) -> impl Iterator<Item = Event<'_>> {
    let mut rest = markup;
    std::iter::from_fn(move || loop {
        let mut chars = rest.chars();
        let marker = chars.next()?;
        let body = chars.as_str();
        let end = body.find(is_marker).unwrap_or(body.len());
        let payload = &body[..end];
        rest = &body[end..];
        match marker {
            OPEN if !payload.is_empty() => return Some(Event::Open(payload)),
            ATTR => {
                if let Some((k, v)) = payload.split_once('=') {
                    return Some(Event::Attr(k, v));
                }
            }
            CLOSE => return Some(Event::Close),
            TEXT => return Some(Event::Text(payload)),
            _ => {}
        }
    })
}

/// The markup as HTML (escaped): for tests, and for reading a compiled run.
pub fn to_html(markup: &str) -> String {
    let esc = |s: &str| {
        s.replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;")
            .replace('"', "&quot;")
    };
    let mut out = String::new();
    let mut open: Vec<&str> = Vec::new();
    let mut in_tag = false;
    for e in events(markup) {
        if in_tag && !matches!(e, Event::Attr(..)) {
            out.push('>');
            in_tag = false;
        }
        match e {
            Event::Open(name) => {
                out.push('<');
                out.push_str(name);
                open.push(name);
                in_tag = true;
            }
            Event::Attr(k, v) => {
                out.push_str(&format!(" {k}=\"{}\"", esc(v)));
            }
            Event::Close => {
                if let Some(name) = open.pop() {
                    if !matches!(name, "br" | "hr") {
                        out.push_str(&format!("</{name}>"));
                    }
                }
            }
            Event::Text(t) => out.push_str(&esc(t)),
        }
    }
    if in_tag {
        out.push('>');
    }
    out
}

/// Compiles CommonMark (with tables and strikethrough) into the markup.
#[cfg(not(target_arch = "wasm32"))]
pub fn compile(src: &str) -> String {
    use pulldown_cmark::{Alignment, CodeBlockKind, Event as Md, Options, Parser, Tag, TagEnd};

    fn clean(s: &str) -> String {
        s.chars().map(|c| if is_marker(c) { '\u{fffd}' } else { c }).collect()
    }
    struct Out {
        s: String,
        depth: usize,
    }
    impl Out {
        fn open(&mut self, name: &str) {
            self.s.push(OPEN);
            self.s.push_str(name);
            self.depth += 1;
        }
        fn attr(&mut self, k: &str, v: &str) {
            self.s.push(ATTR);
            self.s.push_str(k);
            self.s.push('=');
            self.s.push_str(&clean(v));
        }
        fn close(&mut self) {
            self.s.push(CLOSE);
            self.depth -= 1;
        }
        fn text(&mut self, t: &str) {
            self.s.push(TEXT);
            self.s.push_str(&clean(t));
        }
        fn leaf(&mut self, name: &str) {
            self.open(name);
            self.close();
        }
    }

    let mut out = Out {
        s: String::new(),
        depth: 0,
    };
    let mut alignments: Vec<Alignment> = Vec::new();
    let mut cell = 0usize;
    let mut in_head = false;
    let mut wrap_table = false;
    // Body rows go in a `<tbody>`, as a browser's HTML parser would put them
    // (a prerendered page must have the structure the app hydrates).
    let mut in_body = false;
    for ev in Parser::new_ext(src, Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH) {
        match ev {
            Md::Start(tag) => match tag {
                Tag::Paragraph => out.open("p"),
                Tag::Heading { level, .. } => out.open(&format!("h{}", (level as usize + 1).min(6))),
                Tag::BlockQuote(_) => out.open("blockquote"),
                Tag::CodeBlock(kind) => {
                    out.open("pre");
                    out.attr("class", "code-block");
                    if let CodeBlockKind::Fenced(lang) = kind {
                        if !lang.is_empty() {
                            out.attr("data-lang", &lang);
                        }
                    }
                    out.open("code");
                }
                Tag::List(Some(start)) => {
                    out.open("ol");
                    if start != 1 {
                        out.attr("start", &start.to_string());
                    }
                }
                Tag::List(None) => out.open("ul"),
                Tag::Item => out.open("li"),
                Tag::Table(a) => {
                    alignments = a;
                    // A table of the text scrolls sideways on a phone.
                    wrap_table = out.depth == 0;
                    if wrap_table {
                        out.open("div");
                        out.attr("class", "table-wrap");
                    }
                    out.open("table");
                }
                Tag::TableHead => {
                    in_head = true;
                    cell = 0;
                    out.open("thead");
                    out.open("tr");
                }
                Tag::TableRow => {
                    cell = 0;
                    if !in_body {
                        out.open("tbody");
                        in_body = true;
                    }
                    out.open("tr");
                }
                Tag::TableCell => {
                    out.open(if in_head { "th" } else { "td" });
                    match alignments.get(cell) {
                        Some(Alignment::Right) => out.attr("class", "align-right"),
                        Some(Alignment::Center) => out.attr("class", "align-center"),
                        _ => {}
                    }
                    cell += 1;
                }
                Tag::Emphasis => out.open("em"),
                Tag::Strong => out.open("strong"),
                Tag::Strikethrough => out.open("del"),
                Tag::Link { dest_url, title, .. } => {
                    out.open("a");
                    // Only ordinary links: no javascript: or data: URLs.
                    let safe = ["http://", "https://", "/", "#"]
                        .iter()
                        .any(|p| dest_url.starts_with(p));
                    out.attr("href", if safe { &dest_url } else { "#" });
                    if !title.is_empty() {
                        out.attr("title", &title);
                    }
                }
                _ => out.open("span"),
            },
            Md::End(end) => {
                if matches!(end, TagEnd::Table) && in_body {
                    out.close();
                    in_body = false;
                }
                out.close();
                if matches!(end, TagEnd::CodeBlock | TagEnd::TableHead) {
                    out.close();
                }
                if matches!(end, TagEnd::TableHead) {
                    in_head = false;
                }
                if matches!(end, TagEnd::Table) && wrap_table {
                    out.close();
                }
            }
            Md::Text(t) => out.text(&t),
            Md::Code(t) => {
                out.open("code");
                out.text(&t);
                out.close();
            }
            // Raw HTML is shown as text, never parsed.
            Md::Html(t) | Md::InlineHtml(t) => out.text(&t),
            Md::SoftBreak => out.text(" "),
            Md::HardBreak => out.leaf("br"),
            Md::Rule => out.leaf("hr"),
            _ => {}
        }
    }
    while out.depth > 0 {
        out.close();
    }
    out.s
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;

    #[test]
    fn blocks_and_inlines() {
        let html = |s: &str| to_html(&compile(s));
        assert_eq!(html("## Título\n\nUno  \ndos"), "<h3>Título</h3><p>Uno<br>dos</p>");
        assert_eq!(html("- a\n- **b**\n"), "<ul><li>a</li><li><strong>b</strong></li></ul>");
        assert_eq!(html("3. a\n4. b\n"), "<ol start=\"3\"><li>a</li><li>b</li></ol>");
        assert_eq!(
            html("```python\nx = 1\n```\n"),
            "<pre class=\"code-block\" data-lang=\"python\"><code>x = 1\n</code></pre>"
        );
        assert_eq!(
            html("> ~~no~~\n\n---\n"),
            "<blockquote><p><del>no</del></p></blockquote><hr>"
        );
    }

    #[test]
    fn tables_are_wrapped_and_aligned() {
        let m = compile("| a | b |\n|---|--:|\n| 1 | 2 |\n\ndespués");
        assert_eq!(
            to_html(&m),
            "<div class=\"table-wrap\"><table><thead><tr><th>a</th><th class=\"align-right\">b</th></tr></thead>\
             <tbody><tr><td>1</td><td class=\"align-right\">2</td></tr></tbody></table></div><p>después</p>"
        );
        // A table inside a list is not wrapped.
        assert!(!to_html(&compile("- x\n\n  | a |\n  |---|\n  | 1 |\n")).contains("table-wrap"));
    }

    #[test]
    fn nothing_unsafe_gets_through() {
        assert_eq!(
            to_html(&compile("[x](javascript:alert(1)) [y](/leccion \"t\") <b>z</b>")),
            "<p><a href=\"#\">x</a> <a href=\"/leccion\" title=\"t\">y</a> &lt;b&gt;z&lt;/b&gt;</p>"
        );
        // Control characters in the text cannot open elements.
        let m = compile("a\u{2}script\u{5}b");
        assert_eq!(events(&m).filter(|e| matches!(e, Event::Open(_))).count(), 1);
    }

    #[test]
    fn malformed_markup_is_skipped() {
        let e: Vec<_> = events("\u{2}\u{3}novalue\u{3}k=v=w\u{1}junk\u{6}t\u{5}").collect();
        assert_eq!(e, vec![Event::Attr("k", "v=w"), Event::Text("t"), Event::Close]);
    }
}
