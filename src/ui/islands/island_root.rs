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
    // Counted among the pieces the app waits for (`after_arrivals`) from its first render.
    let waited = use_mut_ref(|| {
        let waits = !code::ready(piece);
        if waits {
            arrivals::wait();
        }
        waits
    });
    {
        let waited = waited.clone();
        use_effect_with((*arrived, *failed), move |(arrived, failed)| {
            // Shown (or said not arrived): the page answers for this piece.
            if (*arrived || *failed) && std::mem::take(&mut *waited.borrow_mut()) {
                arrivals::done();
            }
        });
    }
    {
        // Gone before its code arrived (the learner went on): not waited for any more.
        let waited = waited.clone();
        use_effect_with((), move |_| {
            move || {
                if std::mem::take(&mut *waited.borrow_mut()) {
                    arrivals::done();
                }
            }
        });
    }
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

/// Runs `f` once every piece the app rendered before its code arrived is
/// shown (or says its code did not arrive); at once if none waits. The app
/// marks itself ready so: a page answers once its pieces do.
pub fn after_arrivals(f: impl FnOnce() + 'static) {
    #[cfg(all(target_arch = "wasm32", feature = "split"))]
    arrivals::then(Box::new(f));
    #[cfg(not(all(target_arch = "wasm32", feature = "split")))]
    f();
}

#[cfg(all(target_arch = "wasm32", feature = "split"))]
mod arrivals {
    use std::cell::{Cell, RefCell};

    thread_local! {
        static WAITING: Cell<usize> = const { Cell::new(0) };
        static THEN: RefCell<Vec<Box<dyn FnOnce()>>> = const { RefCell::new(Vec::new()) };
    }

    pub fn wait() {
        WAITING.with(|w| w.set(w.get() + 1));
    }

    pub fn done() {
        let left = WAITING.with(|w| {
            w.set(w.get().saturating_sub(1));
            w.get()
        });
        if left == 0 {
            for f in THEN.with(|t| std::mem::take(&mut *t.borrow_mut())) {
                f();
            }
        }
    }

    pub fn then(f: Box<dyn FnOnce()>) {
        if WAITING.with(Cell::get) == 0 {
            f();
        } else {
            THEN.with(|t| t.borrow_mut().push(f));
        }
    }
}
