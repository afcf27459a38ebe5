//! The browser front end (Yew). The only part of the crate that knows the
//! browser: everything it shows is computed by [`crate::sim`] and laid out
//! from [`crate::lesson`]. One component per file.

mod app;
/// The benchmark hook (`senseiLabTime`): not in a module that holds one widget.
#[cfg(not(feature = "solo"))]
mod bench;
mod canvas;
mod exercise;
mod hooks;
pub mod host;
pub mod islands;
#[cfg(all(target_arch = "wasm32", instructors))]
mod lms;
/// Where no course platform can have launched the page (the learner's build,
/// which leaves the SCORM runtime out, and natively): [`lms`]'s answers when
/// none did, so that the calls around it cost the wasm nothing.
#[cfg(not(all(target_arch = "wasm32", instructors)))]
mod lms {
    use crate::exercise::progress::Progress;
    use crate::exercise::scorm::Interaction;

    pub const fn active() -> bool {
        false
    }
    pub fn stored() -> Option<String> {
        None
    }
    pub fn keep(_: &str) {}
    pub fn checked(_: &Progress, _: &[Interaction]) {}
    #[cfg(target_arch = "wasm32")]
    pub fn launch() {}
}
mod pages;
mod panic_panel;
#[cfg(not(target_arch = "wasm32"))]
pub mod prerender;
mod route;
mod router;
mod tables;
mod widgets;

pub use app::App;
pub use route::Route;

/// The element the app lives in: `<div id="app">` in index.html, which
/// the build fills with each route's page ([`prerender`]).
pub const ROOT_ID: &str = "app";

/// Entry point of the wasm binary: hydrates the page the build prerendered
/// (its text is already there; hydration attaches the widgets to it), or,
/// when the page is not what this address shows at first (a query that sets
/// a widget or a variant, a host's fallback page serving another route, the
/// development server's empty page), renders the app in its place.
#[cfg(target_arch = "wasm32")]
pub fn start() {
    panic_panel::install();
    // The loader is `async` (scripts/csp.mjs): the wasm may be ready while the
    // page is still arriving. The app starts on the whole page.
    if let Some(doc) = web_sys::window().and_then(|w| w.document()) {
        if doc.ready_state() == "loading" {
            gloo::events::EventListener::once(&doc, "DOMContentLoaded", |_| begin()).forget();
            return;
        }
    }
    begin();
}

/// [`start`], once the page is all there.
#[cfg(target_arch = "wasm32")]
fn begin() {
    // A SCORM package launched by an LMS: its session, and the learner's progress, before anything is shown.
    lms::launch();
    let Some(root) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id(ROOT_ID))
    else {
        if let Some(body) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.body()) {
            run_app(body.into(), false);
        }
        return;
    };
    let prerendered = root.get_attribute(prerender_attr::ROUTE).map(|p| Route::from_path(&p));
    // Hydration finds components by the page's comments: a host that strips them gets a render.
    let marked = root.first_child().is_some_and(|n| {
        n.node_type() == web_sys::Node::COMMENT_NODE && n.node_value().is_some_and(|v| v.starts_with("<["))
    });
    // How the page began, on the root (not Yew's: hydration does not look at it), for the tests.
    let route = router::current();
    if marked && prerendered.as_ref() == Some(&route) && host::search().is_empty() {
        if islands::wake::applies(&route, &root) {
            // A lesson's page or a piece's: each live piece wakes on its own, the rest is left as it is.
            let _ = root.set_attribute(prerender_attr::START, "islands");
            islands::wake::start(root, &route);
        } else {
            let _ = root.set_attribute(prerender_attr::START, "hydrate");
            hydrate_app(root);
        }
    } else {
        root.set_inner_html("");
        let _ = root.set_attribute(prerender_attr::START, "render");
        run_app(root, false);
    }
}

/// Hydrates the whole page's app, once the code of every piece in it is here
/// (hydration must find each piece as the page has it); if some did not
/// arrive, the app renders anew, and says so where the piece goes.
#[cfg(all(target_arch = "wasm32", feature = "split"))]
fn hydrate_app(root: web_sys::Element) {
    use islands::{code, IslandPiece, KEY};
    use wasm_bindgen::JsCast;
    let mut pieces = Vec::new();
    if let Ok(hosts) = root.query_selector_all(&format!("[{KEY}]")) {
        for i in 0..hosts.length() {
            let key = hosts
                .item(i)
                .and_then(|n| n.dyn_into::<web_sys::Element>().ok())
                .and_then(|e| e.get_attribute(KEY));
            if let Some(piece) = key.as_deref().and_then(IslandPiece::from_key) {
                if !code::ready(&piece) {
                    pieces.push(piece);
                }
            }
        }
    }
    yew::platform::spawn_local(async move {
        for piece in &pieces {
            if code::load(piece).await.is_err() {
                root.set_inner_html("");
                let _ = root.set_attribute(prerender_attr::START, "render");
                run_app(root, false);
                return;
            }
        }
        run_app(root, true);
    });
}

/// Hydrates the whole page's app (every piece's code is in the one module).
#[cfg(all(target_arch = "wasm32", not(feature = "split")))]
fn hydrate_app(root: web_sys::Element) {
    run_app(root, true);
}

/// Starts the app in `root` ([`islands::code::start_app`]: its code first,
/// in a build that loads it apart); if it does not arrive, says so in the
/// page, with «Reintentar».
#[cfg(all(target_arch = "wasm32", feature = "split"))]
pub(crate) fn run_app(root: web_sys::Element, hydrate: bool) {
    yew::platform::spawn_local(async move {
        if islands::code::start_app(root.clone(), hydrate).await.is_err() {
            let again = root.clone();
            islands::wake::not_arrived(&root, move || run_app(again, hydrate));
        }
    });
}

/// Starts the app in `root`, hydrating what is there if `hydrate`.
#[cfg(all(target_arch = "wasm32", not(feature = "split")))]
pub(crate) fn run_app(root: web_sys::Element, hydrate: bool) {
    islands::code::app(root, hydrate);
}

/// What a prerendered page says about itself.
pub mod prerender_attr {
    /// The attribute of the app's root that holds the path of the route
    /// prerendered in it (`/lecciones/l/widgets/herd`; `/404` for the page of
    /// a missing one).
    pub const ROUTE: &str = "data-route";
    /// How the browser began on the page: `islands` (a lesson's or a piece's
    /// prerendered page kept, each live piece hydrated on its own: `ui::islands`),
    /// `hydrate` (the prerendered page kept, hydrated whole) or `render`
    /// (built anew).
    pub const START: &str = "data-start";
}

/// The entry point of the `solo` build (`scripts/solo.sh`): the herd's
/// widget with its tasks, as a widget's page has it, rendered into the
/// page's body, and nothing else reached. What it weighs is what one
/// widget's own module would (docs/PERFORMANCE.md); the script fails if it
/// holds another scenario's code.
#[cfg(all(target_arch = "wasm32", feature = "solo"))]
pub fn solo() {
    use crate::exercise::task::Figures;
    use crate::sim::herd::HerdParams;
    use crate::ui::widgets::herd_widget::HerdWidget;
    use crate::ui::widgets::task_scope::TaskScope;
    use yew::prelude::*;
    #[component]
    fn Solo() -> Html {
        let figures = Figures::of::<HerdParams>("herd");
        html! {
            <ContextProvider<route::LessonSlug> context={route::LessonSlug(crate::lesson::first_slug().into())}>
                <TaskScope {figures}><HerdWidget /></TaskScope>
            </ContextProvider<route::LessonSlug>>
        }
    }
    panic_panel::install();
    if let Some(body) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.body()) {
        yew::Renderer::<Solo>::with_root(body.into()).render();
    }
}
