//! A widget's state in the page's URL query, with the same keys as the
//! command-line flags, so that a link reproduces what its sender saw.

/// The current query string (`?a=1&b=2`, or empty).
pub fn current_query() -> String {
    web_sys::window()
        .and_then(|w| w.location().search().ok())
        .unwrap_or_default()
}

/// Replaces the query of the current URL without adding a history entry
/// (each slider step would otherwise be one "back").
pub fn replace_query(query: &str) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let Ok(path) = window.location().pathname() else {
        return;
    };
    let hash = window.location().hash().unwrap_or_default();
    let url = if query.is_empty() {
        format!("{path}{hash}")
    } else {
        format!("{path}?{query}{hash}")
    };
    if let Ok(history) = window.history() {
        let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url));
    }
}

/// The path the lab is served under (`""` at a site's root, `"/cursos/lab"`
/// under a sub-path), from the page's `<base href>` that Trunk writes.
pub fn base_path() -> String {
    let href = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.query_selector("base[href]").ok().flatten())
        .and_then(|b| b.get_attribute("href"))
        .unwrap_or_default();
    let path = if let Some(rest) = href.split_once("://").map(|x| x.1) {
        rest.find('/').map_or("/".to_string(), |i| rest[i..].to_string())
    } else {
        href
    };
    path.trim_end_matches('/').to_string()
}

/// A path of the lab as a link: with the base in front.
pub fn href(path: &str) -> String {
    format!("{}{}", base_path(), path)
}

/// `https://host` of this page.
pub fn origin() -> String {
    web_sys::window()
        .and_then(|w| w.location().origin().ok())
        .unwrap_or_default()
}

/// The value of `key` in the current query, if any.
pub fn query_value(key: &str) -> Option<String> {
    current_query().trim_start_matches('?').split('&').find_map(|kv| {
        kv.split_once('=')
            .filter(|(k, _)| *k == key)
            .map(|(_, v)| v.to_string())
    })
}
