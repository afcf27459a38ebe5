//! What the page's host says while a page renders: the address (path and
//! query), the site's base and origin, and where the title goes.
//!
//! In the browser these are read from `window`. Natively, when the build
//! prerenders every page ([`crate::ui::prerender`]), there is no window: the
//! values are the page being written ([`Page`]), with no query and no origin,
//! which is also what the browser's first render must see to hydrate that
//! page (see `ui::start`). Everything else that reads the browser (storage,
//! the clock, the canvas) does it in effects and callbacks, which a server
//! render never runs.

#[cfg(target_arch = "wasm32")]
mod imp {
    fn location() -> Option<web_sys::Location> {
        web_sys::window().map(|w| w.location())
    }

    pub fn pathname() -> String {
        location().and_then(|l| l.pathname().ok()).unwrap_or_default()
    }

    pub fn search() -> String {
        location().and_then(|l| l.search().ok()).unwrap_or_default()
    }

    pub fn origin() -> String {
        location().and_then(|l| l.origin().ok()).unwrap_or_default()
    }

    pub fn base_href() -> String {
        web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.query_selector("base[href]").ok().flatten())
            .and_then(|b| b.get_attribute("href"))
            .unwrap_or_default()
    }

    pub fn set_title(title: &str) {
        if let Some(doc) = web_sys::window().and_then(|w| w.document()) {
            doc.set_title(title);
        }
    }
}

#[cfg(not(target_arch = "wasm32"))]
mod imp {
    use super::Page;
    use std::cell::RefCell;

    thread_local! {
        static PAGE: RefCell<Page> = RefCell::new(Page::default());
    }

    pub fn set(page: Page) {
        PAGE.with(|p| *p.borrow_mut() = page);
    }

    pub fn pathname() -> String {
        PAGE.with(|p| p.borrow().pathname.clone())
    }

    pub fn search() -> String {
        String::new()
    }

    pub fn origin() -> String {
        String::new()
    }

    pub fn base_href() -> String {
        PAGE.with(|p| p.borrow().base_href.clone())
    }

    pub fn set_title(_: &str) {}
}

/// The page a prerender writes: its address (with the base) and the
/// `<base href>` of the build it goes into.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Page {
    pub pathname: String,
    pub base_href: String,
}

/// Natively: the page the next renders are for.
#[cfg(not(target_arch = "wasm32"))]
pub use imp::set;
pub use imp::{base_href, origin, pathname, search, set_title};
