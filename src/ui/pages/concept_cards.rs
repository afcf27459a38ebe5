//! The concept cards of a lesson: the glossary, one card per concept.

use crate::lesson::concepts::cards;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct ConceptCardsProps {
    pub slug: String,
}

#[component]
pub fn ConceptCards(props: &ConceptCardsProps) -> Html {
    let cards = cards(&props.slug);
    html! {
        <div class="concept-cards">
            { for cards.iter().map(|c| html! {
                <article class="concept-card" id={format!("concepto-{}", c.id)}>
                    <h3>{ &c.term }</h3>
                    <p>{ &c.definition }</p>
                </article>
            }) }
        </div>
    }
}
