//! A lesson: header, table of contents and the whole text, with its
//! widgets in place. With a section in the URL, it scrolls there.

use crate::lesson::Section;
use crate::ui::hooks::url_state;
use crate::ui::islands::island_host::IslandHost;
use crate::ui::islands::IslandPiece;
use crate::ui::pages::block::Blocks;
use crate::ui::pages::not_found::NotFound;
use crate::ui::route::{LessonSlug, Route};
use crate::ui::router::Link;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct LessonPageProps {
    pub slug: String,
    pub section: Option<String>,
}

#[component]
pub fn LessonPage(props: &LessonPageProps) -> Html {
    let lesson = crate::lesson::find(&props.slug);
    {
        // A link with a widget's (or an exercise's) state lands on it; the
        // lab's own links to a section carry no query.
        let section = props.section.clone();
        use_effect_with(section, |section| {
            let target = crate::route::landing(&url_state::current_query());
            scroll_to(target.as_deref(), section.as_deref());
            // A target whose code was still on its way (a split build): once the pieces are
            // shown, if the learner is still where this put them.
            let missing = target.clone().filter(|t| element(t).is_none());
            if let (Some(target), Some(window)) = (missing, web_sys::window()) {
                let (path, y) = (window.location().pathname().ok(), window.scroll_y().ok());
                crate::ui::islands::island_root::after_arrivals(move || {
                    let here = window.location().pathname().ok() == path && window.scroll_y().ok() == y;
                    if let (true, Some(el)) = (here, element(&target)) {
                        el.scroll_into_view();
                    }
                });
            }
        });
    }
    let Some(lesson) = lesson else {
        return html! { <NotFound /> };
    };
    if let Some(id) = &props.section {
        if lesson.section(id).is_none() {
            return html! { <NotFound /> };
        }
    }
    let slug = lesson.slug.clone();
    html! {
        <ContextProvider<LessonSlug> context={LessonSlug(slug.clone())}>
        <div class="page">
            <header class="site-header">
                <Link classes="brand" to={Route::Home}>{ "Sensei Lab" }</Link>
                <span class="crumb">{ "Lección interactiva" }</span>
                // (Not inside a SCORM package: that page is for instructors, with the keys.)
                if crate::ui::host::package().is_none() {
                    <Link classes="for-teachers" to={Route::Teachers { lesson: slug.clone() }}>{ "Para docentes" }</Link>
                }
            </header>
            <div class="layout">
                <IslandHost slug={slug.clone()} piece={IslandPiece::Toc(props.section.clone())} />
                <main class="lesson" id="contenido">
                    { for lesson.sections.iter().map(|s| section_view(&slug, s)) }
                    <footer class="lesson-footer">
                        <p>{ "Cada cifra de esta página la calcula el núcleo de simulación del laboratorio, escrito en Rust." }</p>
                    </footer>
                </main>
            </div>
        </div>
        </ContextProvider<LessonSlug>>
    }
}

fn section_view(slug: &str, s: &Section) -> Html {
    let to = Route::Section {
        lesson: slug.to_string(),
        section: s.id.clone(),
    };
    let heading = match s.level {
        1 => html! { <h1 class="lesson-title">{ &s.title }</h1> },
        2 => html! {
            <div class="section-head">
                <h2>{ &s.title }{ " " }<Link classes="anchor" to={to}>{ "#" }</Link></h2>
                <IslandHost slug={slug.to_string()} piece={IslandPiece::Embed(s.id.clone())} />
            </div>
        },
        _ => html! {
            <h3>{ &s.title }{ " " }<Link classes="anchor" to={to}>{ "#" }</Link></h3>
        },
    };
    html! {
        <section id={s.id.clone()} class={classes!("section", format!("level-{}", s.level))}>
            { heading }
            <Blocks slug={slug.to_string()} blocks={s.blocks.clone()} />
        </section>
    }
}

/// The element of this page with the id `id`.
fn element(id: &str) -> Option<web_sys::Element> {
    web_sys::window()?.document()?.get_element_by_id(id)
}

/// Scrolls to the element `target`, or else to the section, or else to the top.
fn scroll_to(target: Option<&str>, section: Option<&str>) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let find = |id: Option<&str>| window.document()?.get_element_by_id(id?);
    match find(target).or_else(|| find(section)) {
        Some(el) => el.scroll_into_view(),
        None => window.scroll_to_with_x_and_y(0.0, 0.0),
    }
}
