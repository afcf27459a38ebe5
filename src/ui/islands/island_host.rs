//! Where a live piece sits in a lesson's page: an element that names it
//! (`data-island`, `data-lesson`: [`super::KEY`], [`super::LESSON`]; `display: contents`, so the layout is the
//! piece's) with its [`IslandRoot`] as its only child, so the browser can
//! hydrate the piece alone into it (see [`super`]).

use super::island_root::IslandRoot;
use super::IslandPiece;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct IslandHostProps {
    pub slug: String,
    pub piece: IslandPiece,
}

#[component]
pub fn IslandHost(props: &IslandHostProps) -> Html {
    let root = html! { <IslandRoot slug={props.slug.clone()} piece={props.piece.clone()} /> };
    let key = props.piece.key();
    if props.piece.inline() {
        html! { <span class="island" data-island={key} data-lesson={props.slug.clone()}>{ root }</span> }
    } else {
        html! { <div class="island" data-island={key} data-lesson={props.slug.clone()}>{ root }</div> }
    }
}
