//! A concept named in the text: a click opens its card in place, with a
//! link to all the cards.

use crate::lesson::concepts::Card;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct TermProps {
    pub slug: String,
    pub card: Card,
    /// The words as the text writes them.
    pub text: String,
}

#[component]
pub fn Term(props: &TermProps) -> Html {
    let open = use_state(|| false);
    let toggle = {
        let open = open.clone();
        Callback::from(move |_: MouseEvent| open.set(!*open))
    };
    let card_id = format!("tarjeta-{}-{}", props.card.id, props.text.len());
    html! {
        <span class="term-wrap">
            <button type="button" class="term" aria-expanded={open.to_string()} aria-controls={card_id.clone()} onclick={toggle}
                data-concept={props.card.id.clone()}>{ &props.text }</button>
            if *open {
                <span class="term-card" id={card_id} role="note">
                    <strong>{ &props.card.term }</strong>{ ": " }{ &props.card.definition }{ " " }
                    <a href={crate::ui::hooks::url_state::href(&format!("/lecciones/{}/conceptos#concepto-{}", props.slug, props.card.id))}>{ "Todas las tarjetas" }</a>
                </span>
            }
        </span>
    }
}
