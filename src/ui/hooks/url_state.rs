//! A widget's state in the page's URL query, with the same keys as the
//! command-line flags, so that a link reproduces what its sender saw.

/// The current query string (`?a=1&b=2`, or empty).
pub fn current_query() -> String {
    crate::ui::host::search()
}

/// Replaces the query of the current URL without adding a history entry
/// (each slider step would otherwise be one "back").
pub fn replace_query(query: &str) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let query = if query.is_empty() {
        String::new()
    } else {
        format!("?{query}")
    };
    let url = if crate::ui::host::package().is_some() {
        // In a package, the lab's path and query are in the fragment.
        crate::ui::host::address(&format!("{}{query}", crate::ui::host::pathname()))
    } else {
        let Ok(path) = window.location().pathname() else {
            return;
        };
        let hash = window.location().hash().unwrap_or_default();
        format!("{path}{query}{hash}")
    };
    if let Ok(history) = window.history() {
        let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url));
    }
}

/// The path the lab is served under (`""` at a site's root, `"/cursos/lab"`
/// under a sub-path), from the page's `<base href>` that Trunk writes.
pub fn base_path() -> String {
    base_of(&crate::ui::host::base_href())
}

/// The path of a `<base href>` (`/cursos/lab/`, or a whole URL), without its last `/`.
pub fn base_of(href: &str) -> String {
    let href = href.to_string();
    let path = if let Some(rest) = href.split_once("://").map(|x| x.1) {
        rest.find('/').map_or("/".to_string(), |i| rest[i..].to_string())
    } else {
        href
    };
    path.trim_end_matches('/').to_string()
}

/// A path of the lab as a link: with the base in front.
pub fn href(path: &str) -> String {
    crate::ui::host::address(&format!("{}{}", base_path(), path))
}

/// `https://host` of this page.
pub fn origin() -> String {
    crate::ui::host::origin()
}

/// The value of `key` in the current query, if any.
pub fn query_value(key: &str) -> Option<String> {
    value_in(&current_query(), key)
}

/// The value of `key` in `query`, if any.
pub fn value_in(query: &str, key: &str) -> Option<String> {
    query.trim_start_matches('?').split('&').find_map(|kv| {
        kv.split_once('=')
            .filter(|(k, _)| *k == key)
            .map(|(_, v)| v.to_string())
    })
}

/// Widget `id`'s part of the current query, with its own keys
/// ([`crate::route::widget_query`]).
pub fn widget_query(id: &str) -> String {
    crate::route::widget_query(&current_query(), id)
}

/// Writes widget `id`'s state (`own`: its pairs, with its own keys) in the
/// URL: alone on its page, the whole query; on a page with every widget,
/// beside the others' and as the one a link lands on ([`crate::route::with_widget`]).
pub fn write_widget(id: &str, own: &str) {
    // A widget's page, on its own or embedded.
    let alone = matches!(
        crate::ui::router::current().piece(),
        Some((_, crate::route::Piece::Widget(_)))
    );
    replace_query(&if alone {
        own.to_string()
    } else {
        crate::route::with_widget(&current_query(), id, own)
    });
}

/// A piece's own URL, whole (`https://host/base/lecciones/l/widgets/herd?clients=2000`),
/// with its state in the current query: on its page, or embedded.
pub fn piece_url(slug: &str, piece: &crate::route::Piece, embed: bool) -> String {
    let q = crate::route::piece_query(&current_query(), piece);
    let q = if q.is_empty() { q } else { format!("?{q}") };
    format!("{}{}{q}", origin(), href(&piece.path(slug, embed)))
}
