//! One live piece of a lesson page with what it needs around it: the
//! lesson's slug and a [`Navigator`] (the app's, under the app; else one
//! that goes on from a page of islands, [`super::wake::navigate`]). The same
//! markup under the app and hydrated alone into its host.

use super::IslandPiece;
use crate::ui::exercise::exercise_block::ExerciseBlock;
use crate::ui::exercise::knew_it::KnewIt;
use crate::ui::exercise::progress_summary::ProgressSummary;
use crate::ui::pages::embed_code::EmbedCode;
use crate::ui::pages::term::Term;
use crate::ui::pages::toc::Toc;
use crate::ui::route::{LessonSlug, Piece};
use crate::ui::router::Navigator;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct IslandRootProps {
    pub slug: String,
    pub piece: IslandPiece,
    /// Called once the piece has rendered (hydrated alone: its host is marked awake).
    #[prop_or_default]
    pub on_awake: Option<Callback<()>>,
}

#[component]
pub fn IslandRoot(props: &IslandRootProps) -> Html {
    let navigator = use_context::<Navigator>().unwrap_or_else(island_navigator);
    {
        let on_awake = props.on_awake.clone();
        use_effect_with((), move |_| {
            if let Some(f) = on_awake {
                f.emit(());
            }
        });
    }
    let slug = props.slug.clone();
    let piece = match &props.piece {
        IslandPiece::Widget(id) => crate::ui::pages::block::widget(id).unwrap_or_default(),
        IslandPiece::Exercise(n) => html! { <ExerciseBlock n={*n} /> },
        IslandPiece::Knew(n) => html! { <KnewIt n={*n} /> },
        IslandPiece::Progress => html! { <ProgressSummary /> },
        IslandPiece::Toc(active) => html! { <Toc lesson={slug.clone()} active={active.clone()} /> },
        IslandPiece::Embed(section) => html! { <EmbedCode piece={Piece::Section(section.clone())} /> },
        IslandPiece::Term { card, text } => {
            match crate::lesson::concepts::cards(&slug)
                .into_iter()
                .find(|c| c.id == *card)
            {
                Some(card) => html! { <Term slug={slug.clone()} card={card} text={text.clone()} /> },
                None => html! { { text.clone() } },
            }
        }
    };
    html! {
        <ContextProvider<Navigator> context={navigator}>
            <ContextProvider<LessonSlug> context={LessonSlug(slug)}>
                { piece }
            </ContextProvider<LessonSlug>>
        </ContextProvider<Navigator>>
    }
}

/// Where a link of a piece goes when no app is around it.
fn island_navigator() -> Navigator {
    #[cfg(target_arch = "wasm32")]
    {
        Navigator::new(Callback::from(super::wake::navigate))
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        Navigator::new(Callback::noop())
    }
}
