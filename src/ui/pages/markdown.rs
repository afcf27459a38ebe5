//! A lesson's markdown as Yew nodes. The markdown was compiled at build time
//! ([`crate::lesson::markup`]): here its tokens become elements, without ever
//! passing HTML through, and the first mention of each concept becomes a term
//! that opens its card.

use crate::lesson::markup::{events, Event};
use crate::ui::islands::island_host::IslandHost;
use crate::ui::islands::IslandPiece;
use yew::prelude::*;
use yew::virtual_dom::{VTag, VText};

#[derive(Properties, PartialEq)]
pub struct MarkdownProps {
    pub source: String,
    /// The lesson: its concept cards are linked from the terms in the text.
    #[prop_or_default]
    pub slug: String,
    /// No terms (a widget's task: a term would be an island inside its island).
    #[prop_or_default]
    pub plain: bool,
}

#[component]
pub fn Markdown(props: &MarkdownProps) -> Html {
    let nodes = use_memo(
        (props.source.clone(), props.slug.clone(), props.plain),
        |(src, slug, plain)| {
            let cards = if *plain {
                Vec::new()
            } else {
                crate::lesson::concepts::cards(slug)
            };
            match crate::lesson::compiled(slug, src) {
                Some(markup) => render_with(markup, slug, &cards),
                // Natively (prerendering the pages), the lesson keeps its markdown:
                // compiled here, by the function that compiled the browser's.
                #[cfg(not(target_arch = "wasm32"))]
                None => render_with(compiled_natively(src), slug, &cards),
                // Not a compiled run (cannot happen with the embedded lessons): the text as it is.
                #[cfg(target_arch = "wasm32")]
                None => html! { <p>{ src.clone() }</p> },
            }
        },
    );
    (*nodes).clone()
}

/// A run of the lesson compiled natively, once per run for the whole
/// process (its elements' names are kept as `&'static str`, as the browser
/// build's compiled runs are).
#[cfg(not(target_arch = "wasm32"))]
fn compiled_natively(src: &str) -> &'static str {
    use std::collections::HashMap;
    use std::sync::{Mutex, OnceLock};
    static RUNS: OnceLock<Mutex<HashMap<String, &'static str>>> = OnceLock::new();
    let mut runs = RUNS
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    runs.entry(src.to_string())
        .or_insert_with(|| Box::leak(crate::lesson::markup::compile(src).into_boxed_str()))
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
        if cards.iter().any(|c| c.id == id) {
            let piece = IslandPiece::Term {
                card: id.to_string(),
                text: text[a..b].to_string(),
            };
            out.push(html! { <IslandHost slug={slug.to_string()} {piece} /> });
        }
        at = b;
    }
    if at < text.len() {
        out.push(VText::new(text[at..].to_string()).into());
    }
    out
}

/// Renders compiled `markup`, linking the terms of `cards`.
pub fn render_with(markup: &'static str, slug: &str, cards: &[crate::lesson::concepts::Card]) -> Html {
    let mut linked: Vec<String> = Vec::new();
    build(markup, |t, running| {
        if running && !cards.is_empty() {
            text_with_terms(t, slug, cards, &mut linked)
        } else {
            vec![VText::new(t.to_string()).into()]
        }
    })
}

/// Renders compiled `markup` as it is, no term linked (a widget's task: a
/// term would be an island inside its island, and its code the lesson's).
pub fn plain(markup: &'static str) -> Html {
    build(markup, |t, _| vec![VText::new(t.to_string()).into()])
}

/// The elements of compiled `markup`, each text's nodes made by `text`
/// (told whether the text is running text: not in a heading, a link, code
/// or a table's head).
fn build(markup: &'static str, mut text: impl FnMut(&str, bool) -> Vec<Html>) -> Html {
    let mut root: Vec<Html> = Vec::new();
    let mut stack: Vec<VTag> = Vec::new();

    fn push(stack: &mut [VTag], root: &mut Vec<Html>, node: Html) {
        match stack.last_mut() {
            Some(t) => t.add_child(node),
            None => root.push(node),
        }
    }

    for ev in events(markup) {
        match ev {
            Event::Open(name) => stack.push(VTag::new(name)),
            Event::Attr(key, value) => {
                if let Some(t) = stack.last_mut() {
                    // A path of the lab gets the base the lab is served under.
                    if key == "href" && value.starts_with('/') {
                        t.add_attribute(key, crate::ui::hooks::url_state::href(value));
                    } else {
                        t.add_attribute(key, value);
                    }
                }
            }
            Event::Close => {
                if let Some(t) = stack.pop() {
                    push(&mut stack, &mut root, t.into());
                }
            }
            Event::Text(t) => {
                let running = stack.iter().all(|f| {
                    !matches!(
                        f.tag(),
                        "h1" | "h2" | "h3" | "h4" | "h5" | "h6" | "a" | "code" | "pre" | "th"
                    )
                });
                for node in text(t, running) {
                    push(&mut stack, &mut root, node);
                }
            }
        }
    }
    while let Some(t) = stack.pop() {
        push(&mut stack, &mut root, t.into());
    }
    html! { <>{ for root }</> }
}
