//! The browser front end (Yew). The only part of the crate that knows the
//! browser: everything it shows is computed by [`crate::sim`] and laid out
//! from [`crate::lesson`]. One component per file.

mod app;
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
        yew::Renderer::<App>::new().render();
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
            // A lesson's page: each live piece wakes on its own, the text is left as it is.
            let _ = root.set_attribute(prerender_attr::START, "islands");
            islands::wake::start(root, &route);
        } else {
            let _ = root.set_attribute(prerender_attr::START, "hydrate");
            yew::Renderer::<App>::with_root(root).hydrate();
        }
    } else {
        root.set_inner_html("");
        let _ = root.set_attribute(prerender_attr::START, "render");
        yew::Renderer::<App>::with_root(root).render();
    }
}

/// What a prerendered page says about itself.
pub mod prerender_attr {
    /// The attribute of the app's root that holds the path of the route
    /// prerendered in it (`/lecciones/l/widgets/herd`; `/404` for the page of
    /// a missing one).
    pub const ROUTE: &str = "data-route";
    /// How the browser began on the page: `islands` (a lesson's prerendered
    /// page kept, each live piece hydrated on its own: `ui::islands`),
    /// `hydrate` (the prerendered page kept, hydrated whole) or `render`
    /// (built anew).
    pub const START: &str = "data-start";
}
