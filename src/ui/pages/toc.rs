//! The table of contents: one link per part and subsection.

use crate::ui::route::Route;
use crate::ui::router::Link;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct TocProps {
    pub lesson: String,
    pub active: Option<String>,
}

#[component]
pub fn Toc(props: &TocProps) -> Html {
    let Some(lesson) = crate::lesson::find(&props.lesson) else {
        return html! {};
    };
    let open = use_state(|| false);
    let toggle = {
        let open = open.clone();
        Callback::from(move |_| open.set(!*open))
    };
    html! {
        <nav class={classes!("toc", open.then_some("open"))} aria-label="Contenido de la lección">
            <button class="toc-toggle" aria-expanded={open.to_string()} onclick={toggle}>{ "Contenido" }</button>
            <ol>
                { for lesson.toc().map(|s| {
                    let active = props.active.as_deref() == Some(s.id.as_str());
                    let to = Route::Section { lesson: lesson.slug.clone(), section: s.id.clone() };
                    html! {
                        <li class={classes!(format!("toc-level-{}", s.level), active.then_some("active"))}>
                            <Link to={to}>{ &s.title }</Link>
                        </li>
                    }
                }) }
            </ol>
        </nav>
    }
}
