//! The messages an embedded piece exchanges with the page that holds its
//! iframe (documented in the README).
//!
//! Out:
//! * `{ type: "sensei-lab:height", version: 1, height }` — the piece's height in CSS px;
//! * `{ type: "sensei-lab:score", version: 2, lesson, exercise, variant, right, total, revealed }` —
//!   after the student checks an exercise (version 1's fields, unchanged);
//! * `{ type: "sensei-lab:score", version: 2, lesson, task, right, total, revealed }` —
//!   after the student checks a widget's task (`task`: `widget/id`; `right`
//!   0 or 1 of `total` 1).
//!
//! `right` counts only what was found: a part right after its worked
//! solution was opened, or a task right after its answer was shown, is not
//! in it but in `revealed` (the parts right in this check that earn nothing;
//! there only when there are some).
//!
//! In, the only one read: `{ type: "sensei-lab:hello", version: 1 }` from the
//! parent window, answered with the height (a host script that loads after
//! the iframe asks for it).
//!
//! And the conventions of hosts that resize iframes with scripts of their own:
//! * Canvas: `{ subject: "lti.frameResize", height }`, beside each height;
//! * H5P's resizer (`h5p-resizer.js`), all messages `{ context: "h5p", action, … }`:
//!   the piece says `hello` when it starts and when the host says `ready`; once
//!   the host answers `hello`, each change of height is `prepareResize`
//!   (`scrollHeight`, `clientHeight`), the host's `resizePrepared` is answered
//!   with `resize` (`scrollHeight`), and the host's `resize` (its window
//!   resized) with `prepareResize` again.
//!
//! Nothing a message says ever changes what the student sees.

use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use yew::prelude::{hook, use_effect_with, use_state};

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

/// The piece's height, in our words and in Canvas's.
pub fn post_height(height: f64) {
    let height = height.ceil();
    post(&[
        ("type", "sensei-lab:height".into()),
        ("version", VERSION.into()),
        ("height", height.into()),
    ]);
    post(&[("subject", "lti.frameResize".into()), ("height", height.into())]);
}

/// A message of H5P's resizer protocol: `action` and its heights, if any.
pub fn post_h5p(action: &str, heights: &[(&str, f64)]) {
    let mut fields: Vec<(&str, JsValue)> = vec![("context", "h5p".into()), ("action", action.into())];
    fields.extend(heights.iter().map(|(k, v)| (*k, JsValue::from(v.ceil()))));
    post(&fields);
}

/// Whether a score goes anywhere: to a course platform that launched the
/// lab, or to the page around an embed (this page is in an iframe). Known
/// after the first render, which a prerendered page shares: `false` until then.
#[hook]
pub fn use_scored() -> bool {
    let scored = use_state(|| false);
    {
        let scored = scored.clone();
        use_effect_with((), move |_| scored.set(crate::ui::lms::active() || parent().is_some()));
    }
    *scored
}

/// An exercise checked: `right`, the parts right that earn credit; `revealed`,
/// those right only after the solution was opened.
pub fn post_score(lesson: &str, exercise: u32, variant: u32, right: usize, revealed: usize, total: usize) {
    let mut fields: Vec<(&str, JsValue)> = vec![
        ("type", "sensei-lab:score".into()),
        ("version", SCORE_VERSION.into()),
        ("lesson", lesson.into()),
        ("exercise", exercise.into()),
        ("variant", variant.into()),
        ("right", (right as u32).into()),
        ("total", (total as u32).into()),
    ];
    if revealed > 0 {
        fields.push(("revealed", (revealed as u32).into()));
    }
    post(&fields);
}

/// A widget's task checked: `task` is `widget/id`; `right` only when it
/// earns credit, `revealed` when it is right after its answer was shown.
pub fn post_task_score(lesson: &str, task: &str, right: bool, revealed: bool) {
    let mut fields: Vec<(&str, JsValue)> = vec![
        ("type", "sensei-lab:score".into()),
        ("version", SCORE_VERSION.into()),
        ("lesson", lesson.into()),
        ("task", task.into()),
        ("right", u32::from(right).into()),
        ("total", 1u32.into()),
    ];
    if revealed {
        fields.push(("revealed", 1u32.into()));
    }
    post(&fields);
}

/// A message from the parent window that asks for the height.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Asked {
    /// Our host script's `sensei-lab:hello`: the height.
    Hello,
    /// H5P's `ready`: our `hello`.
    H5pReady,
    /// H5P's `hello`: the host resizes; `prepareResize` from now on.
    H5pHello,
    /// H5P's `resizePrepared`: `resize` with the height.
    H5pPrepared,
    /// H5P's `resize` (the host's window changed): `prepareResize`.
    H5pResize,
}

/// What a `message` event from the parent window asks, if it is one of the above.
pub fn asked(e: &web_sys::MessageEvent) -> Option<Asked> {
    let from_parent = match (e.source(), parent()) {
        (Some(src), Some(p)) => js_sys::Object::is(&src, &p),
        _ => false,
    };
    let data = e.data();
    if !from_parent || !data.is_object() {
        return None;
    }
    let text = |k: &str| {
        js_sys::Reflect::get(&data, &JsValue::from_str(k))
            .ok()
            .and_then(|t| t.as_string())
    };
    if text("type").as_deref() == Some("sensei-lab:hello")
        && js_sys::Reflect::get(&data, &JsValue::from_str("version"))
            .ok()
            .and_then(|v| v.as_f64())
            == Some(VERSION as f64)
    {
        return Some(Asked::Hello);
    }
    if text("context").as_deref() != Some("h5p") {
        return None;
    }
    match text("action")?.as_str() {
        "ready" => Some(Asked::H5pReady),
        "hello" => Some(Asked::H5pHello),
        "resizePrepared" => Some(Asked::H5pPrepared),
        "resize" => Some(Asked::H5pResize),
        _ => None,
    }
}

/// An embed's height being reported (`report_height`): stops when dropped.
pub struct Reporting {
    resize: (web_sys::ResizeObserver, Closure<dyn FnMut()>),
    _hello: Option<gloo::events::EventListener>,
    _again: Vec<gloo::timers::callback::Timeout>,
}

impl Drop for Reporting {
    fn drop(&mut self) {
        self.resize.0.disconnect();
    }
}

/// Sends the page's height to the host whenever it changes, and when the
/// host's script says hello (it may load after this page); in Canvas's words
/// too, and by H5P's resizer protocol once its host answers. Used by an
/// embed's page, hydrated whole or woken as islands. `None` where the page
/// has no body to observe.
pub fn report_height() -> Option<Reporting> {
    use std::cell::Cell;
    use std::rc::Rc;
    fn height() -> f64 {
        web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.document_element())
            .map_or(0.0, |el| el.scroll_height() as f64)
    }
    fn prepare() {
        let client = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.body())
            .map_or(0.0, |b| b.client_height() as f64);
        post_h5p("prepareResize", &[("scrollHeight", height()), ("clientHeight", client)]);
    }
    // Whether an H5P host answered our hello.
    let h5p = Rc::new(Cell::new(false));
    let send = {
        let h5p = h5p.clone();
        move || {
            post_height(height());
            if h5p.get() {
                prepare();
            }
        }
    };
    post_h5p("hello", &[]);
    let body = web_sys::window().and_then(|w| w.document()).and_then(|d| d.body())?;
    let report = Closure::<dyn FnMut()>::new(send.clone());
    let observer = web_sys::ResizeObserver::new(report.as_ref().unchecked_ref()).ok()?;
    observer.observe(&body);
    // Also a few times while the page settles, for a host that was not listening yet.
    let again = [200, 1_000, 3_000]
        .into_iter()
        .map(|ms| gloo::timers::callback::Timeout::new(ms, send.clone()))
        .collect();
    let hello = web_sys::window().map(|w| {
        gloo::events::EventListener::new(&w, "message", move |e| {
            match e.dyn_ref::<web_sys::MessageEvent>().and_then(asked) {
                Some(Asked::Hello) => send(),
                Some(Asked::H5pReady) => post_h5p("hello", &[]),
                Some(Asked::H5pHello) => {
                    h5p.set(true);
                    prepare();
                }
                Some(Asked::H5pPrepared) => post_h5p("resize", &[("scrollHeight", height())]),
                Some(Asked::H5pResize) => prepare(),
                None => {}
            }
        })
    });
    Some(Reporting {
        resize: (observer, report),
        _hello: hello,
        _again: again,
    })
}
