//! A piece's own code, loaded with the piece (issue 43).
//!
//! Built with the `split` feature for the browser, each widget (with its
//! player and task) and the exercises are split points of the one module:
//! the splitter (`wasm_split_cli`, run by the build between linking and
//! wasm-bindgen) moves what only a split point reaches into a module of its
//! own, which the browser fetches the first time [`load`] asks for it; code
//! two pieces share goes into a chunk both fetch. Everything else (natively,
//! the prerender; a build without the feature) has every piece in the one
//! module, and [`load`] has nothing to wait for.
//!
//! A piece is rendered only once its code is here ([`render`]): the waking
//! of a page loads a host's code before hydrating it, and a piece rendered
//! by the app before its code arrived shows its prerendered place until it
//! does ([`super::island_root::IslandRoot`]).

use super::IslandPiece;
use yew::prelude::*;

/// Whether this build loads a piece's code with the piece.
pub const SPLIT: bool = cfg!(all(target_arch = "wasm32", feature = "split"));

/// A piece's code did not arrive (a network that dropped it): it can be asked again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Failed;

#[cfg(all(target_arch = "wasm32", feature = "split"))]
impl From<wasm_split_helpers::SplitLoaderError> for Failed {
    fn from(_: wasm_split_helpers::SplitLoaderError) -> Self {
        Failed
    }
}

/// The module a piece's code is in: a widget's own, the exercises', or none
/// beyond the runtime (the light pieces: terms, «Lo sabía», the table of
/// contents, «Insertar», the progress).
pub fn module_of(piece: &IslandPiece) -> Option<String> {
    match piece {
        IslandPiece::Widget(id) => Some(id.clone()),
        IslandPiece::Exercise(_) => Some("exercises".into()),
        _ => Some("page".into()),
    }
}

/// A light piece's view (a term, «Lo sabía», the table of contents,
/// «Insertar», the progress): what [`render`] shows for it, from the
/// `page` module in a split build.
fn light(slug: &str, piece: &IslandPiece) -> Html {
    use crate::ui::exercise::knew_it::KnewIt;
    use crate::ui::exercise::progress_summary::ProgressSummary;
    use crate::ui::pages::embed_code::EmbedCode;
    use crate::ui::pages::term::Term;
    use crate::ui::pages::toc::Toc;
    use crate::ui::route::Piece;
    let slug = slug.to_string();
    match piece {
        IslandPiece::Knew(n) => html! { <KnewIt n={*n} /> },
        IslandPiece::Progress => html! { <ProgressSummary /> },
        IslandPiece::Toc(active) => html! { <Toc lesson={slug} active={active.clone()} /> },
        IslandPiece::Embed(section) => html! { <EmbedCode piece={Piece::Section(section.clone())} /> },
        IslandPiece::Term { card, text } => {
            match crate::lesson::concepts::cards(&slug)
                .into_iter()
                .find(|c| c.id == *card)
            {
                Some(card) => html! { <Term {slug} {card} text={text.clone()} /> },
                None => html! { { text.clone() } },
            }
        }
        IslandPiece::Widget(_) | IslandPiece::Exercise(_) => Html::default(),
    }
}

/// Renders the app (every page that is not a lesson's islands) into `root`,
/// hydrating what is there if `hydrate`, once its code (the pages, the
/// lesson's text and its renderer) is here.
#[cfg(all(target_arch = "wasm32", feature = "split"))]
pub async fn start_app(root: web_sys::Element, hydrate: bool) -> Result<(), Failed> {
    split::app(root, hydrate).await
}

/// Renders the app into `root`, hydrating what is there if `hydrate`.
#[cfg(target_arch = "wasm32")]
pub fn app(root: web_sys::Element, hydrate: bool) {
    let renderer = yew::Renderer::<crate::ui::App>::with_root(root);
    if hydrate {
        renderer.hydrate();
    } else {
        renderer.render();
    }
}

#[cfg(all(target_arch = "wasm32", feature = "split"))]
mod split {
    use super::{Failed, IslandPiece};
    use std::cell::RefCell;
    use std::collections::HashMap;
    use yew::prelude::*;

    /// The pieces whose code is here: a widget's view, the exercises' and
    /// the light pieces' makers.
    #[derive(Default)]
    pub(super) struct Loaded {
        pub widgets: HashMap<String, Html>,
        pub exercise: Option<fn(u32) -> Html>,
        pub light: Option<fn(&str, &IslandPiece) -> Html>,
    }

    thread_local! {
        pub(super) static LOADED: RefCell<Loaded> = RefCell::default();
    }

    macro_rules! split_widgets {
        ($(($id:ident, $name:literal, $m:ident :: $p:ident, $w:ident :: $c:ident)),* $(,)?) => {
            $(
                #[wasm_split_helpers::wasm_split($id, fallible)]
                fn $id() -> Result<Html, Failed> {
                    use crate::ui::widgets::$w::$c as W;
                    use crate::ui::widgets::task_scope::TaskScope;
                    Ok(html! { <TaskScope figures={crate::exercise::task::Figures::of::<crate::sim::$m::$p>(stringify!($id))}><W /></TaskScope> })
                }
            )*
            /// Fetches a registry widget's module (once) and keeps its view.
            pub(super) async fn widget(id: &str) -> Result<(), Failed> {
                if LOADED.with(|l| l.borrow().widgets.contains_key(id)) {
                    return Ok(());
                }
                let view = match id {
                    $( stringify!($id) => $id().await?, )*
                    _ => return Ok(()),
                };
                LOADED.with(|l| l.borrow_mut().widgets.insert(id.to_string(), view));
                Ok(())
            }
        };
    }
    crate::registry!(split_widgets);

    #[wasm_split_helpers::wasm_split(exercises, fallible)]
    fn exercises() -> Result<fn(u32) -> Html, Failed> {
        fn block(n: u32) -> Html {
            use crate::ui::exercise::exercise_block::ExerciseBlock;
            html! { <ExerciseBlock {n} /> }
        }
        Ok(block)
    }

    #[wasm_split_helpers::wasm_split(page, fallible)]
    fn page() -> Result<fn(&str, &IslandPiece) -> Html, Failed> {
        Ok(super::light)
    }

    pub(super) async fn light() -> Result<(), Failed> {
        if LOADED.with(|l| l.borrow().light.is_some()) {
            return Ok(());
        }
        let make = page().await?;
        LOADED.with(|l| l.borrow_mut().light = Some(make));
        Ok(())
    }

    #[wasm_split_helpers::wasm_split(app, fallible)]
    fn app_split(root: web_sys::Element, hydrate: bool) -> Result<(), Failed> {
        super::app(root, hydrate);
        Ok(())
    }

    pub(super) async fn app(root: web_sys::Element, hydrate: bool) -> Result<(), Failed> {
        app_split(root, hydrate).await
    }

    pub(super) async fn exercise() -> Result<(), Failed> {
        if LOADED.with(|l| l.borrow().exercise.is_some()) {
            return Ok(());
        }
        let make = exercises().await?;
        LOADED.with(|l| l.borrow_mut().exercise = Some(make));
        Ok(())
    }
}

/// Makes sure `piece`'s code is here: fetched and instantiated the first
/// time, at once after.
pub async fn load(piece: &IslandPiece) -> Result<(), Failed> {
    #[cfg(all(target_arch = "wasm32", feature = "split"))]
    match piece {
        IslandPiece::Widget(id) => split::widget(id).await?,
        IslandPiece::Exercise(_) => split::exercise().await?,
        _ => split::light().await?,
    }
    let _ = piece;
    Ok(())
}

/// Whether `piece` can be rendered now ([`render`] gives it).
pub fn ready(piece: &IslandPiece) -> bool {
    #[cfg(all(target_arch = "wasm32", feature = "split"))]
    {
        split::LOADED.with(|l| {
            let l = l.borrow();
            match piece {
                IslandPiece::Widget(id) => l.widgets.contains_key(id),
                IslandPiece::Exercise(_) => l.exercise.is_some(),
                _ => l.light.is_some(),
            }
        })
    }
    #[cfg(not(all(target_arch = "wasm32", feature = "split")))]
    {
        let _ = piece;
        true
    }
}

/// `piece`'s view (`None`: its code is not here yet, or it is not a piece this build has).
pub fn render(slug: &str, piece: &IslandPiece) -> Option<Html> {
    #[cfg(all(target_arch = "wasm32", feature = "split"))]
    {
        split::LOADED.with(|l| {
            let l = l.borrow();
            match piece {
                IslandPiece::Widget(id) => l.widgets.get(id).cloned(),
                IslandPiece::Exercise(n) => l.exercise.map(|make| make(*n)),
                _ => l.light.map(|make| make(slug, piece)),
            }
        })
    }
    #[cfg(not(all(target_arch = "wasm32", feature = "split")))]
    {
        match piece {
            IslandPiece::Widget(id) => crate::ui::pages::block::widget(id),
            IslandPiece::Exercise(n) => {
                use crate::ui::exercise::exercise_block::ExerciseBlock;
                Some(html! { <ExerciseBlock n={*n} /> })
            }
            _ => Some(light(slug, piece)),
        }
    }
}
