//! CommonMark to Yew nodes, without ever passing HTML through: raw HTML in
//! a lesson is shown as text, so nothing in a lesson can inject markup.

use super::term::Term;
use pulldown_cmark::{Alignment, CodeBlockKind, Event, Options, Parser, Tag, TagEnd};
use yew::prelude::*;
use yew::virtual_dom::{VTag, VText};

#[derive(Properties, PartialEq)]
pub struct MarkdownProps {
    pub source: String,
    /// The lesson: its concept cards are linked from the terms in the text.
    #[prop_or_default]
    pub slug: String,
}

#[component]
pub fn Markdown(props: &MarkdownProps) -> Html {
    let nodes = use_memo((props.source.clone(), props.slug.clone()), |(src, slug)| {
        let cards = crate::lesson::concepts::cards(slug);
        render_with(src, slug, &cards)
    });
    (*nodes).clone()
}

/// Text with the first mention (in this block) of each concept turned into
/// a term that opens its card.
fn text_with_terms(
    text: &str,
    slug: &str,
    cards: &[crate::lesson::concepts::Card],
    linked: &mut Vec<String>,
) -> Vec<Html> {
    let mut out = Vec::new();
    let mut at = 0;
    for (a, b, id) in crate::lesson::concepts::find_terms(cards, text) {
        if linked.iter().any(|l| l == id) {
            continue;
        }
        linked.push(id.to_string());
        if a > at {
            out.push(VText::new(text[at..a].to_string()).into());
        }
        let card = cards.iter().find(|c| c.id == id).cloned();
        if let Some(card) = card {
            out.push(html! { <Term slug={slug.to_string()} card={card} text={text[a..b].to_string()} /> });
        }
        at = b;
    }
    if at < text.len() {
        out.push(VText::new(text[at..].to_string()).into());
    }
    out
}

struct Frame {
    tag: VTag,
    in_table_head: bool,
}

/// Renders `src`, linking the terms of `cards`.
pub fn render_with(src: &str, slug: &str, cards: &[crate::lesson::concepts::Card]) -> Html {
    let mut linked: Vec<String> = Vec::new();
    let opts = Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH;
    let mut root: Vec<Html> = Vec::new();
    let mut stack: Vec<Frame> = Vec::new();
    let mut alignments: Vec<Alignment> = Vec::new();
    let mut cell = 0usize;
    let mut in_head = false;

    fn push(stack: &mut [Frame], root: &mut Vec<Html>, node: Html) {
        match stack.last_mut() {
            Some(f) => f.tag.add_child(node),
            None => root.push(node),
        }
    }

    for ev in Parser::new_ext(src, opts) {
        match ev {
            Event::Start(tag) => {
                let mut t = match &tag {
                    Tag::Paragraph => VTag::new("p"),
                    Tag::Heading { level, .. } => VTag::new(format!("h{}", (*level as usize + 1).min(6))),
                    Tag::BlockQuote(_) => VTag::new("blockquote"),
                    Tag::CodeBlock(kind) => {
                        let mut pre = VTag::new("pre");
                        if let CodeBlockKind::Fenced(lang) = kind {
                            if !lang.is_empty() {
                                pre.add_attribute("data-lang", lang.to_string());
                            }
                        }
                        pre
                    }
                    Tag::List(Some(start)) => {
                        let mut ol = VTag::new("ol");
                        if *start != 1 {
                            ol.add_attribute("start", start.to_string());
                        }
                        ol
                    }
                    Tag::List(None) => VTag::new("ul"),
                    Tag::Item => VTag::new("li"),
                    Tag::Table(a) => {
                        alignments = a.clone();
                        VTag::new("table")
                    }
                    Tag::TableHead => {
                        in_head = true;
                        cell = 0;
                        VTag::new("thead")
                    }
                    Tag::TableRow => {
                        cell = 0;
                        VTag::new("tr")
                    }
                    Tag::TableCell => {
                        let mut c = VTag::new(if in_head { "th" } else { "td" });
                        let align = match alignments.get(cell) {
                            Some(Alignment::Right) => Some("right"),
                            Some(Alignment::Center) => Some("center"),
                            _ => None,
                        };
                        if let Some(a) = align {
                            c.add_attribute("class", format!("align-{a}"));
                        }
                        cell += 1;
                        c
                    }
                    Tag::Emphasis => VTag::new("em"),
                    Tag::Strong => VTag::new("strong"),
                    Tag::Strikethrough => VTag::new("del"),
                    Tag::Link { dest_url, title, .. } => {
                        let mut a = VTag::new("a");
                        let url = dest_url.to_string();
                        // Only ordinary links: no javascript: or data: URLs.
                        let safe = url.starts_with("http://")
                            || url.starts_with("https://")
                            || url.starts_with('/')
                            || url.starts_with('#');
                        // A path of the lab gets the base the lab is served under.
                        let url = if url.starts_with('/') {
                            super::url_state::href(&url)
                        } else {
                            url
                        };
                        a.add_attribute("href", if safe { url } else { "#".to_string() });
                        if !title.is_empty() {
                            a.add_attribute("title", title.to_string());
                        }
                        a
                    }
                    _ => VTag::new("span"),
                };
                if matches!(tag, Tag::CodeBlock(_)) {
                    // Text goes into a <code> inside the <pre>.
                    t.add_attribute("class", "code-block");
                }
                stack.push(Frame {
                    tag: t,
                    in_table_head: matches!(tag, Tag::TableHead),
                });
                if matches!(tag, Tag::CodeBlock(_)) {
                    stack.push(Frame {
                        tag: VTag::new("code"),
                        in_table_head: false,
                    });
                }
                if matches!(tag, Tag::TableHead) {
                    stack.push(Frame {
                        tag: VTag::new("tr"),
                        in_table_head: false,
                    });
                }
            }
            Event::End(end) => {
                let pops = match end {
                    TagEnd::CodeBlock => 2,
                    TagEnd::TableHead => 2,
                    _ => 1,
                };
                for _ in 0..pops {
                    if let Some(f) = stack.pop() {
                        if f.in_table_head {
                            in_head = false;
                        }
                        push(&mut stack, &mut root, Html::from(f.tag));
                    }
                }
                if matches!(end, TagEnd::Table) {
                    // Wrap tables so that they scroll sideways on a phone.
                    if let Some(table) = match stack.last_mut() {
                        Some(_) => None,
                        None => root.pop(),
                    } {
                        let mut wrap = VTag::new("div");
                        wrap.add_attribute("class", "table-wrap");
                        wrap.add_child(table);
                        root.push(wrap.into());
                    }
                }
            }
            Event::Text(t) => {
                // Terms are linked in running text only: not in headings, links, code or table heads.
                let plain = stack.iter().all(|f| {
                    !matches!(
                        f.tag.tag(),
                        "h1" | "h2" | "h3" | "h4" | "h5" | "h6" | "a" | "code" | "pre" | "th"
                    )
                });
                if plain && !cards.is_empty() {
                    for node in text_with_terms(&t, slug, cards, &mut linked) {
                        push(&mut stack, &mut root, node);
                    }
                } else {
                    push(&mut stack, &mut root, VText::new(t.to_string()).into());
                }
            }
            Event::Code(t) => {
                let mut c = VTag::new("code");
                c.add_child(VText::new(t.to_string()).into());
                push(&mut stack, &mut root, c.into());
            }
            // Raw HTML is shown as text, never parsed.
            Event::Html(t) | Event::InlineHtml(t) => push(&mut stack, &mut root, VText::new(t.to_string()).into()),
            Event::SoftBreak => push(&mut stack, &mut root, VText::new(" ").into()),
            Event::HardBreak => push(&mut stack, &mut root, VTag::new("br").into()),
            Event::Rule => push(&mut stack, &mut root, VTag::new("hr").into()),
            _ => {}
        }
    }
    while let Some(f) = stack.pop() {
        push(&mut stack, &mut root, Html::from(f.tag));
    }
    html! { <>{ for root }</> }
}
