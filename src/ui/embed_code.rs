//! «Insertar»: the `<iframe>` code of a piece in its current state, ready
//! to copy into a course page, with the resize script.

use super::route::{LessonSlug, Piece};
use super::url_state;
use web_sys::HtmlTextAreaElement;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct EmbedCodeProps {
    pub piece: Piece,
}

/// The part of the current query that belongs to this piece.
fn own_query(piece: &Piece) -> String {
    let q = url_state::current_query();
    let q = q.trim_start_matches('?');
    let mine = match piece {
        Piece::Widget(id) => url_state::query_value("widget").is_none_or(|w| w == *id),
        Piece::Exercise(n) => {
            url_state::query_value("exercise").is_some_and(|e| e == n.to_string())
                || url_state::query_value("class").is_some()
        }
        Piece::Section(_) => true,
    };
    if mine && !q.is_empty() {
        format!("?{q}")
    } else {
        String::new()
    }
}

pub fn iframe_code(slug: &str, piece: &Piece) -> String {
    let base = format!("{}{}", url_state::origin(), url_state::base_path());
    let src = format!("{base}{}{}", piece.path(slug, true), own_query(piece));
    let title = match piece {
        Piece::Widget(id) => format!("Sensei Lab: {id}"),
        Piece::Exercise(n) => format!("Sensei Lab: ejercicio {n}"),
        Piece::Section(s) => format!("Sensei Lab: {s}"),
    };
    format!(
        "<iframe src=\"{src}\" title=\"{title}\" width=\"100%\" height=\"640\" style=\"border:0\" loading=\"lazy\" data-sensei-lab></iframe>\n<script src=\"{base}/sensei-embed.js\" defer></script>"
    )
}

#[component]
pub fn EmbedCode(props: &EmbedCodeProps) -> Html {
    let slug = use_context::<LessonSlug>().map(|s| s.0).unwrap_or_default();
    let code = use_state(|| None::<String>);
    let copied = use_state(|| false);
    let toggle = {
        let code = code.clone();
        let copied = copied.clone();
        let piece = props.piece.clone();
        let slug = slug.clone();
        Callback::from(move |_: MouseEvent| {
            copied.set(false);
            code.set(if code.is_some() {
                None
            } else {
                Some(iframe_code(&slug, &piece))
            });
        })
    };
    let area = use_node_ref();
    let copy = {
        let area = area.clone();
        let copied = copied.clone();
        let code = code.clone();
        Callback::from(move |_: MouseEvent| {
            if let Some(a) = area.cast::<HtmlTextAreaElement>() {
                a.select();
            }
            if let (Some(w), Some(text)) = (web_sys::window(), (*code).clone()) {
                let _ = w.navigator().clipboard().write_text(&text);
                copied.set(true);
            }
        })
    };
    html! {
        <div class="embed-code">
            <button type="button" class="insert" aria-expanded={code.is_some().to_string()} onclick={toggle}>{ "Insertar" }</button>
            if let Some(c) = &*code {
                <div class="embed-panel">
                    <label>{ "Código para tu página (en el estado que ves ahora):" }
                        <textarea ref={area} readonly=true rows="4" value={c.clone()} />
                    </label>
                    <button type="button" onclick={copy}>{ if *copied { "Copiado" } else { "Copiar" } }</button>
                </div>
            }
        </div>
    }
}
