//! One live piece of a lesson page with what it needs around it: the
//! lesson's slug and a [`Navigator`] (the app's, under the app; else one
//! that goes on from a page of islands, [`super::wake::navigate`]). The same
//! markup under the app and hydrated alone into its host.

use super::{code, IslandPiece};
use crate::ui::route::LessonSlug;
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
    #[cfg(all(target_arch = "wasm32", feature = "split"))]
    let piece = use_arrived(&slug, &props.piece);
    #[cfg(not(all(target_arch = "wasm32", feature = "split")))]
    let piece = code::render(&slug, &props.piece).unwrap_or_default();
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

/// `piece`'s view once its code is here: until then (the app rendered it
/// before it arrived) its code is fetched, and the place says so.
#[cfg(all(target_arch = "wasm32", feature = "split"))]
#[hook]
fn use_arrived(slug: &str, piece: &IslandPiece) -> Html {
    let arrived = use_state(|| code::ready(piece));
    let failed = use_state(|| false);
    {
        let (arrived, failed) = (arrived.clone(), failed.clone());
        use_effect_with((piece.clone(), *failed), move |(piece, was_failed)| {
            if !*arrived && !*was_failed {
                let piece = piece.clone();
                yew::platform::spawn_local(async move {
                    match code::load(&piece).await {
                        Ok(()) => arrived.set(true),
                        Err(code::Failed) => failed.set(true),
                    }
                });
            }
        });
    }
    if *arrived {
        return code::render(slug, piece).unwrap_or_default();
    }
    let was_failed = *failed;
    let retry = Callback::from(move |_| failed.set(false));
    html! { <Arriving failed={was_failed} {retry} /> }
}

#[cfg(all(target_arch = "wasm32", feature = "split"))]
#[derive(Properties, PartialEq)]
struct ArrivingProps {
    failed: bool,
    retry: Callback<MouseEvent>,
}

#[cfg(all(target_arch = "wasm32", feature = "split"))]
/// The place of a piece whose code is on its way, or did not arrive.
#[component]
fn Arriving(props: &ArrivingProps) -> Html {
    if props.failed {
        html! {
            <p class="piece-arriving" role="alert">
                { "No llegó el código de esta pieza (¿se cortó la red?). " }
                <button type="button" onclick={props.retry.clone()}>{ "Reintentar" }</button>
            </p>
        }
    } else {
        html! { <p class="piece-arriving" role="status">{ "Cargando esta pieza…" }</p> }
    }
}
