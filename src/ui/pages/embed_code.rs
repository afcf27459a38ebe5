//! «Insertar»: a piece's own link and its `<iframe>` code, in its current
//! state (its part of the page's query, [`crate::route::piece_query`]),
//! ready to copy into a course page, with the resize script.

use crate::ui::hooks::url_state;
use crate::ui::route::{LessonSlug, Piece, Route};
use web_sys::HtmlTextAreaElement;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct EmbedCodeProps {
    pub piece: Piece,
}

/// The `<iframe>` and the resize script for `piece`; an exercise `without`
/// its worked solution if asked (`solutions=0`, as in the print view).
pub fn iframe_code(slug: &str, piece: &Piece, without: bool) -> String {
    let mut src = url_state::piece_url(slug, piece, true);
    if without && matches!(piece, Piece::Exercise(_)) {
        let sep = if src.contains('?') { '&' } else { '?' };
        src.push_str(&format!("{sep}{}=0", crate::route::SOLUTIONS_KEY));
    }
    // What the lesson calls it (the iframe's accessible name), without a `"` to end the attribute.
    let name = piece.name(slug).unwrap_or_default();
    let title: String = name.chars().filter(|c| *c != '"').collect();
    format!(
        "<iframe src=\"{src}\" title=\"Sensei Lab: {title}\" width=\"100%\" height=\"640\" style=\"border:0\" loading=\"lazy\" data-sensei-lab></iframe>\n<script src=\"{}{}/sensei-embed.js\" defer></script>",
        url_state::origin(),
        url_state::base_path()
    )
}

#[component]
pub fn EmbedCode(props: &EmbedCodeProps) -> Html {
    // In a SCORM package the pieces live in the course platform, and inside
    // an embed the learner is on the course's page: nothing to link or embed
    // from there (either is so for the page's whole life).
    let embedded = matches!(
        crate::ui::router::current(),
        Route::EmbedSection { .. } | Route::EmbedWidget { .. } | Route::EmbedExercise { .. }
    );
    if crate::ui::host::package().is_some() || embedded {
        return Html::default();
    }
    let slug = use_context::<LessonSlug>().map(|s| s.0).unwrap_or_default();
    let code = use_state(|| None::<String>);
    // An exercise without its worked solution.
    let without = use_state(|| false);
    let is_exercise = matches!(props.piece, Piece::Exercise(_));
    // What was copied last: 1 the link, 2 the code.
    let copied = use_state(|| 0u32);
    let toggle = {
        let code = code.clone();
        let copied = copied.clone();
        let piece = props.piece.clone();
        let slug = slug.clone();
        let without = without.clone();
        Callback::from(move |_: MouseEvent| {
            copied.set(0);
            code.set(if code.is_some() {
                None
            } else {
                Some(iframe_code(&slug, &piece, *without))
            });
        })
    };
    let on_without = {
        let (code, copied, without, piece, slug) = (
            code.clone(),
            copied.clone(),
            without.clone(),
            props.piece.clone(),
            slug.clone(),
        );
        Callback::from(move |e: Event| {
            let on = e.target_unchecked_into::<web_sys::HtmlInputElement>().checked();
            without.set(on);
            copied.set(0);
            code.set(Some(iframe_code(&slug, &piece, on)));
        })
    };
    let area = use_node_ref();
    // The link is read when the panel is drawn: when it opens.
    let link = code.is_some().then(|| url_state::piece_url(&slug, &props.piece, false));
    let copy = {
        let (area, copied, code, link) = (area.clone(), copied.clone(), code.clone(), link.clone());
        Callback::from(move |which: u32| {
            let text = if which == 1 { link.as_ref() } else { code.as_ref() };
            if let Some(a) = area.cast::<HtmlTextAreaElement>().filter(|_| which == 2) {
                a.select();
            }
            if let (Some(w), Some(text)) = (web_sys::window(), text) {
                let _ = w.navigator().clipboard().write_text(text);
                copied.set(which);
            }
        })
    };
    let label = |which: u32, text: &'static str| if *copied == which { "Copiado" } else { text };
    html! {
        <div class="embed-code">
            <button type="button" class="insert" aria-expanded={code.is_some().to_string()} onclick={toggle}>{ "Insertar" }</button>
            if let (Some(c), Some(link)) = (&*code, link) {
                <div class="embed-panel">
                    <label>{ "Enlace (en el estado que ves ahora):" }
                        <input class="embed-link" type="url" readonly=true value={link} />
                    </label>
                    <button type="button" class="copy-link" onclick={copy.reform(|_| 1)}>{ label(1, "Copiar enlace") }</button>
                    if is_exercise {
                        <label class="toggle"><input type="checkbox" class="without-solution" checked={*without} onchange={on_without} />
                            { " Sin la solución paso a paso (para una tarea)" }</label>
                    }
                    <label>{ "Código para tu página (en el estado que ves ahora):" }
                        <textarea ref={area} readonly=true rows="4" value={c.clone()} />
                    </label>
                    <button type="button" class="copy-code" onclick={copy.reform(|_| 2)}>{ label(2, "Copiar") }</button>
                </div>
            }
        </div>
    }
}
