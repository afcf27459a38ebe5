//! Navigation without reloading: the current [`Route`] from the address bar,
//! links that push a new entry on the browser's history, and back and
//! forward (`popstate`) that show the entry's page again. Each route shown
//! gives the page its title ([`Route::title`], pure, so that a page
//! prerendered at build time carries the same).
//!
//! Why not yew-router: for this one `enum` of paths it brought its route
//! matching and gloo-history, which reads each history entry's state through
//! serde (and with it the standard float printing of serde's error
//! messages): 34 KB gzipped of the browser's download. The paths themselves are read and written by
//! [`crate::route`], natively tested.

use crate::ui::app::renders;
use crate::ui::hooks::url_state;
use crate::ui::route::Route;
use gloo::events::EventListener;
use yew::prelude::*;

/// The route the address bar shows now (under the site's base).
pub fn current() -> Route {
    let path = crate::ui::host::pathname();
    let base = url_state::base_path();
    match path.strip_prefix(base.as_str()) {
        Some("") => Route::Home,
        Some(rest) if rest.starts_with('/') => Route::from_path(rest),
        _ => Route::NotFound,
    }
}

/// `route`, once the page's title is its own ([`Route::title`]): every
/// route the router shows goes through here.
fn titled(route: Route) -> Route {
    crate::ui::host::set_title(&route.title());
    route
}

/// How a [`Link`] goes to its route: given by the app to the pages below it.
#[derive(Clone, PartialEq)]
pub struct Navigator(Callback<Route>);

impl Navigator {
    /// A navigator that goes to a route by `go`.
    pub fn new(go: Callback<Route>) -> Self {
        Navigator(go)
    }
}

/// The current route, and the [`Navigator`] that changes it (to be given
/// to the pages as a context); the route follows the history's back and
/// forward.
#[hook]
pub fn use_router() -> (Route, Navigator) {
    let route = use_state(|| titled(current()));
    {
        let route = route.clone();
        use_effect_with((), move |_| {
            let listener =
                web_sys::window().map(|w| EventListener::new(&w, "popstate", move |_| route.set(titled(current()))));
            move || drop(listener)
        });
    }
    let navigate = {
        let route = route.clone();
        Callback::from(move |to: Route| {
            let url = url_state::href(&to.path());
            if let Some(history) = web_sys::window().and_then(|w| w.history().ok()) {
                let _ = history.push_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url));
            }
            route.set(titled(to));
        })
    };
    ((*route).clone(), Navigator(navigate))
}

#[derive(Properties, PartialEq)]
pub struct LinkProps {
    pub to: Route,
    #[prop_or_default]
    pub classes: Classes,
    #[prop_or_default]
    pub children: Html,
}

/// A link to a route of the lab: an ordinary `<a href>` (so it can be
/// opened in a new tab, copied, crawled) that, on a plain click, changes the
/// page without reloading it.
#[component]
pub fn Link(props: &LinkProps) -> Html {
    let navigator = use_context::<Navigator>();
    let onclick = {
        let to = props.to.clone();
        Callback::from(move |e: MouseEvent| {
            // A new tab, a new window, a download: the browser's business.
            // A page this build does not have (`app::renders`): the browser loads it.
            if e.button() != 0 || e.ctrl_key() || e.meta_key() || e.shift_key() || e.alt_key() || !renders(&to) {
                return;
            }
            if let Some(Navigator(go)) = &navigator {
                e.prevent_default();
                go.emit(to.clone());
            }
        })
    };
    // A section's link names its element too ([`Route::link`]).
    let href = url_state::href(&props.to.link());
    html! {
        <a class={props.classes.clone()} {href} {onclick}>
            { props.children.clone() }
        </a>
    }
}
