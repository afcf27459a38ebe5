//! The messages an embedded piece exchanges with the page that holds its
//! iframe (documented in the README).
//!
//! Out:
//! * `{ type: "sensei-lab:height", version: 1, height }` — the piece's height in CSS px;
//! * `{ type: "sensei-lab:score", version: 2, lesson, exercise, variant, right, total }` —
//!   after the student checks an exercise (version 1's fields, unchanged);
//! * `{ type: "sensei-lab:score", version: 2, lesson, task, right, total }` —
//!   after the student checks a widget's task (`task`: `widget/id`; `right`
//!   0 or 1 of `total` 1).
//!
//! In, the only one read: `{ type: "sensei-lab:hello", version: 1 }` from the
//! parent window, answered with the height (a host script that loads after
//! the iframe asks for it). Nothing a message says ever changes what the
//! student sees.

use wasm_bindgen::JsValue;

/// The version of `sensei-lab:height` and `sensei-lab:hello`.
pub const VERSION: u32 = 1;
/// The version of `sensei-lab:score`: 2 since tasks (`task` beside `exercise`).
pub const SCORE_VERSION: u32 = 2;

/// The window of the page holding this one, if this page is in an iframe.
fn parent() -> Option<web_sys::Window> {
    let w = web_sys::window()?;
    let p = w.parent().ok().flatten()?;
    // At the top, parent is the window itself.
    (!js_sys::Object::is(&p, &w)).then_some(p)
}

fn post(fields: &[(&str, JsValue)]) {
    let Some(p) = parent() else {
        return;
    };
    let msg = js_sys::Object::new();
    for (k, v) in fields {
        let _ = js_sys::Reflect::set(&msg, &JsValue::from_str(k), v);
    }
    // Heights and scores are not secrets, and the host's origin is not known in advance.
    let _ = p.post_message(&msg, "*");
}

pub fn post_height(height: f64) {
    post(&[
        ("type", "sensei-lab:height".into()),
        ("version", VERSION.into()),
        ("height", height.ceil().into()),
    ]);
}

pub fn post_score(lesson: &str, exercise: u32, variant: u32, right: usize, total: usize) {
    post(&[
        ("type", "sensei-lab:score".into()),
        ("version", SCORE_VERSION.into()),
        ("lesson", lesson.into()),
        ("exercise", exercise.into()),
        ("variant", variant.into()),
        ("right", (right as u32).into()),
        ("total", (total as u32).into()),
    ]);
}

/// A widget's task checked: `task` is `widget/id`.
pub fn post_task_score(lesson: &str, task: &str, right: bool) {
    post(&[
        ("type", "sensei-lab:score".into()),
        ("version", SCORE_VERSION.into()),
        ("lesson", lesson.into()),
        ("task", task.into()),
        ("right", u32::from(right).into()),
        ("total", 1u32.into()),
    ]);
}

/// Whether a `message` event is the documented «hello» from the parent window.
pub fn is_hello(e: &web_sys::MessageEvent) -> bool {
    let from_parent = match (e.source(), parent()) {
        (Some(src), Some(p)) => js_sys::Object::is(&src, &p),
        _ => false,
    };
    let data = e.data();
    let field = |k: &str| js_sys::Reflect::get(&data, &JsValue::from_str(k)).ok();
    from_parent
        && data.is_object()
        && field("type").and_then(|t| t.as_string()).as_deref() == Some("sensei-lab:hello")
        && field("version").and_then(|v| v.as_f64()) == Some(VERSION as f64)
}
