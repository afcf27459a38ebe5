//! No blank page: when the Rust code panics, the learner gets a panel in
//! Spanish (what happened, a way to reload, the message for a bug report)
//! instead of a page that silently stopped answering.
//!
//! The panel is built with plain DOM calls from the panic hook, not with Yew
//! (whose state may be what broke), and it needs no script afterwards: the
//! reload is a link to the page itself, because after a panic the wasm module
//! (built with `panic = "abort"`) must not be called again. Every text is set
//! as text, never as HTML.

use wasm_bindgen::prelude::wasm_bindgen;
#[cfg(target_arch = "wasm32")]
use wasm_bindgen::JsCast;

/// Installs the hook: console first (for the browser tests and developers),
/// then the panel. Through Yew, which otherwise puts its own hook in place
/// when the app starts.
#[cfg(target_arch = "wasm32")]
pub fn install() {
    yew::set_custom_panic_hook(Box::new(|info| {
        let message = format!("panic: {info}");
        web_sys::console::error_1(&message.clone().into());
        show(&message);
    }));
}

#[cfg(target_arch = "wasm32")]
fn show(message: &str) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let Some(document) = window.document() else {
        return;
    };
    let Some(body) = document.body() else {
        return;
    };
    if document.get_element_by_id("panic-panel").is_some() {
        return; // one panel is enough
    }
    let href = window.location().href().unwrap_or_default();
    let agent = window.navigator().user_agent().unwrap_or_default();
    let el = |tag: &str, class: &str, text: &str| -> Option<web_sys::Element> {
        let e = document.create_element(tag).ok()?;
        if !class.is_empty() {
            e.set_class_name(class);
        }
        if !text.is_empty() {
            e.set_text_content(Some(text));
        }
        Some(e)
    };
    let build = || -> Option<()> {
        let panel = el("section", "panic-panel", "")?;
        panel.set_id("panic-panel");
        panel.set_attribute("role", "alert").ok()?;
        panel.set_attribute("aria-labelledby", "panic-title").ok()?;
        let title = el("h2", "", "Algo salió mal en el laboratorio")?;
        title.set_id("panic-title");
        let what = el(
            "p",
            "",
            "Una parte del laboratorio falló y dejó de responder. Lo que ya guardaste \
             (tus respuestas y tu avance) sigue guardado en este navegador.",
        )?;
        let reload = el("a", "button", "Recargar la página")?;
        reload.set_attribute("href", &href).ok()?;
        let details = el("details", "", "")?;
        let summary = el("summary", "", "Datos para reportar el error")?;
        let how = el(
            "p",
            "",
            "Si vuelve a pasar, copia estos datos y compártelos con quien te dio el enlace.",
        )?;
        let report = el(
            "pre",
            "panic-report",
            &format!("{message}\npágina: {href}\nnavegador: {agent}"),
        )?;
        for child in [&summary, &how, &report] {
            details.append_child(child).ok()?;
        }
        for child in [&title, &what, &reload, &details] {
            panel.append_child(child).ok()?;
        }
        body.prepend_with_node_1(&panel).ok()?;
        reload.dyn_ref::<web_sys::HtmlElement>()?.focus().ok()
    };
    let _ = build();
}

/// For the browser test of this panel: panics on purpose. Harmless to anyone
/// else (it only stops the tab that calls it).
#[wasm_bindgen(js_name = senseiLabPanicTest)]
pub fn panic_test() {
    panic!("prueba del panel de error (llamada a propósito)");
}
