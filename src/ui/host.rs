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

    #[cfg(instructors)]
    thread_local! {
        static PACKAGE: Option<super::Package> = read_package();
    }

    /// `<meta name="sensei-lab-package" content="scorm" data-lesson=… data-class=… data-mastery=… data-solutions=…>`,
    /// which only a package's page carries (`scripts/scorm.mjs`).
    #[cfg(instructors)]
    fn read_package() -> Option<super::Package> {
        let meta = web_sys::window()?
            .document()?
            .query_selector("meta[name=sensei-lab-package][content=scorm]")
            .ok()??;
        Some(super::Package {
            lesson: meta.get_attribute("data-lesson").unwrap_or_default(),
            class: meta
                .get_attribute("data-class")
                .and_then(|c| c.parse().ok())
                .unwrap_or(0),
            mastery: meta.get_attribute("data-mastery").and_then(|m| m.parse().ok()),
            solutions: crate::exercise::scorm::Solutions::from_word(
                &meta.get_attribute("data-solutions").unwrap_or_default(),
            ),
        })
    }

    /// The package this page is, if it is one: only the instructors' build
    /// (`cfg(instructors)`) runs in one; the learner's never does.
    pub fn package() -> Option<super::Package> {
        #[cfg(instructors)]
        return PACKAGE.with(Clone::clone);
        #[cfg(not(instructors))]
        None
    }

    /// In a package, the lab's own address is in the fragment
    /// (`index.html#/lecciones/l/widgets/herd?clients=2000`): its path and query.
    fn in_fragment() -> (String, String) {
        let hash = location().and_then(|l| l.hash().ok()).unwrap_or_default();
        let inner = hash.strip_prefix('#').unwrap_or_default();
        if !inner.starts_with('/') {
            return (String::new(), String::new());
        }
        let end = inner.find(['?', '#']).unwrap_or(inner.len());
        let (path, rest) = inner.split_at(end);
        let query = rest.split('#').next().unwrap_or_default();
        (path.to_string(), query.to_string())
    }

    pub fn pathname() -> String {
        if let Some(p) = package() {
            let (path, _) = in_fragment();
            return if path.is_empty() {
                format!("/lecciones/{}", p.lesson)
            } else {
                path
            };
        }
        location().and_then(|l| l.pathname().ok()).unwrap_or_default()
    }

    pub fn search() -> String {
        if package().is_some() {
            return in_fragment().1;
        }
        location().and_then(|l| l.search().ok()).unwrap_or_default()
    }

    /// The browser's own address for the lab's `path` (with its query): in a
    /// package, the launch page's with `path` in the fragment; elsewhere `path`.
    pub fn address(path: &str) -> String {
        if package().is_none() {
            return path.to_string();
        }
        let l = location();
        let page = l.as_ref().and_then(|l| l.pathname().ok()).unwrap_or_default();
        let query = l.as_ref().and_then(|l| l.search().ok()).unwrap_or_default();
        format!("{page}{query}#{path}")
    }

    pub fn origin() -> String {
        location().and_then(|l| l.origin().ok()).unwrap_or_default()
    }

    pub fn base_href() -> String {
        // A package's links are the launch page's, with the lab's path in the fragment.
        if package().is_some() {
            return String::new();
        }
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

    /// The package whose page is being prerendered (`sensei-lab scorm-page`), if it is one.
    pub fn package() -> Option<super::Package> {
        PAGE.with(|p| p.borrow().package.clone())
    }

    /// In a package's page, the lab's path in the fragment of the page's own
    /// address (`#/lecciones/l/widgets/herd`: wherever the LMS serves the
    /// page, and with its query, as the browser's [`address`] writes it out whole).
    pub fn address(path: &str) -> String {
        if package().is_some() {
            return format!("#{path}");
        }
        path.to_string()
    }
}

/// The page a prerender writes: its address (with the base), the
/// `<base href>` of the build it goes into, and the package it is the page
/// of, if it is one (whose base is none: its links are fragments).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Page {
    pub pathname: String,
    pub base_href: String,
    pub package: Option<Package>,
}

/// A SCORM package's page (`./lab build --scorm`): the lesson it holds, the
/// class variant it fixes (0: the lesson's numbers), its mastery score and
/// when its worked solutions open.
#[derive(Clone, Debug, PartialEq)]
pub struct Package {
    pub lesson: String,
    pub class: u32,
    pub mastery: Option<u32>,
    pub solutions: crate::exercise::scorm::Solutions,
}

/// Natively: the page the next renders are for.
#[cfg(not(target_arch = "wasm32"))]
pub use imp::set;
pub use imp::{address, base_href, origin, package, pathname, search, set_title};
