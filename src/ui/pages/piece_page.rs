//! One piece of a lesson (a section, a widget, an exercise) on its own page,
//! or alone in an iframe (`embed`): no navigation, a small link back to the
//! full lesson, and its height sent to the host page as it changes.

use crate::lesson::{Block, Directive, Lesson};
use crate::ui::hooks::url_state;
use crate::ui::pages::block::Blocks;
use crate::ui::pages::embed_messages;
use crate::ui::pages::not_found::NotFound;
use crate::ui::route::{LessonSlug, Piece, Route};
use crate::ui::router::Link;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct PiecePageProps {
    pub slug: String,
    pub piece: Piece,
    #[prop_or_default]
    pub embed: bool,
}

fn holds(blocks: &[Block], piece: &Piece) -> bool {
    blocks.iter().any(|b| match (b, piece) {
        (Block::Directive(d), Piece::Widget(id)) => d.name == "widget" && d.get("id") == Some(id.as_str()),
        (Block::Container { directive, .. }, Piece::Exercise(n)) if directive.name == "exercise" => {
            directive.get("n") == Some(n.to_string().as_str())
        }
        (Block::Container { body, .. }, _) => holds(body, piece),
        _ => false,
    })
}

/// The section a piece is in (to link back to it), and the blocks to show.
fn locate(lesson: &Lesson, piece: &Piece) -> Option<(String, Vec<Block>)> {
    match piece {
        Piece::Section(id) => lesson.section(id).map(|s| (s.id.clone(), s.blocks.clone())),
        Piece::Widget(id) => {
            let s = lesson.sections.iter().find(|s| holds(&s.blocks, piece))?;
            let d = Directive {
                name: "widget".into(),
                attrs: vec![("id".into(), id.clone())],
            };
            Some((s.id.clone(), vec![Block::Directive(d)]))
        }
        Piece::Exercise(n) => {
            let s = lesson.sections.iter().find(|s| holds(&s.blocks, piece))?;
            let d = Directive {
                name: "exercise".into(),
                attrs: vec![("n".into(), n.to_string())],
            };
            Some((
                s.id.clone(),
                vec![Block::Container {
                    directive: d,
                    body: Vec::new(),
                }],
            ))
        }
    }
}

/// Sends the page's height to the host while the page shows (`embed_messages::report_height`).
#[hook]
fn use_height_reporter(active: bool) {
    use_effect_with(active, |active| {
        let reporting = if *active { embed_messages::report_height() } else { None };
        move || drop(reporting)
    });
}

#[component]
pub fn PiecePage(props: &PiecePageProps) -> Html {
    use_height_reporter(props.embed);
    let Some(lesson) = crate::lesson::find(&props.slug) else {
        return html! { <NotFound /> };
    };
    let Some((section, blocks)) = locate(lesson, &props.piece) else {
        return html! { <NotFound /> };
    };
    let slug = lesson.slug.clone();
    let full = Route::Section {
        lesson: slug.clone(),
        section: section.clone(),
    };
    let title = lesson.section(&section).map(|s| s.title.clone()).unwrap_or_default();
    // The page's one h1: the section's title (a widget's page shows its own
    // title in its frame, so there the h1 is for screen readers only).
    let heading = match &props.piece {
        Piece::Section(_) | Piece::Exercise(_) => html! { <h1 class="piece-title">{ &title }</h1> },
        Piece::Widget(_) => html! { <h1 class="visually-hidden">{ format!("{}: {title}", lesson.title) }</h1> },
    };
    let content = html! {
        <ContextProvider<LessonSlug> context={LessonSlug(slug.clone())}>
            { heading }
            <Blocks slug={slug.clone()} blocks={blocks} />
        </ContextProvider<LessonSlug>>
    };
    if props.embed {
        return html! {
            <div class="embed-page" data-embed="true">
                <main class="lesson embed">{ content }</main>
                <p class="embed-back">
                    <a href={url_state::href(&full.link())}
                        target="_blank" rel="noopener">
                        { format!("{} · Sensei Lab ↗", lesson.title) }
                    </a>
                </p>
            </div>
        };
    }
    html! {
        <div class="page">
            <header class="site-header">
                <Link classes="brand" to={Route::Home}>{ "Sensei Lab" }</Link>
                <span class="crumb">{ &lesson.title }</span>
            </header>
            <main class="lesson piece-page">
                { content }
                <p class="back"><Link to={full}>{ format!("← En la lección: {title}") }</Link></p>
            </main>
        </div>
    }
}
