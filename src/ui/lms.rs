//! The course platform (LMS) that launched a SCORM 1.2 package of the lab
//! (`./lab build --scorm`): its API found, the learner's progress read from
//! it and written to it, and each check reported. What is reported is
//! computed by [`crate::exercise::scorm`]; this file only makes the calls.
//!
//! * The API is found as the standard says: `window.API` up the
//!   `window.parent` chain (at most 7 steps), then the opener's.
//! * `cmi.suspend_data` holds the progress (the same text the browser's
//!   storage holds elsewhere) and wins over the browser's storage, which a
//!   launched lab does not touch: progress follows the student, not the
//!   computer.
//! * Each call's `LMSGetLastError()` is read: a refused value is reported in
//!   the console, and the lab goes on.
//! * Commits: one per «Comprobar» (`LMSCommit`), one when a worked solution
//!   opens (what it revealed is then kept: a right answer after it earns
//!   nothing, `exercise::scorm`), and on leaving the one `LMSFinish` makes.
//!
//! Without an LMS (or outside a package) nothing here does anything. Only the
//! instructors' build has it (`cfg(instructors)`, which the package loads);
//! elsewhere `ui::lms` is a stand-in whose `active()` is `false`.

use crate::exercise::progress::Progress;
use crate::exercise::scorm::{self, Checkable, Interaction};
use js_sys::{Function, Reflect};
use std::cell::RefCell;
use wasm_bindgen::{JsCast, JsValue};

struct Session {
    api: JsValue,
    /// `performance.now()` when the session began.
    began: f64,
    checkable: Checkable,
    mastery: Option<u32>,
    /// The progress as the LMS keeps it (`cmi.suspend_data`).
    stored: String,
    /// The next `cmi.interactions.n`.
    next: u32,
    /// The status last set, so that leaving says `suspend` while not done.
    status: &'static str,
    left: bool,
}

thread_local! {
    static SESSION: RefCell<Option<Session>> = const { RefCell::new(None) };
}

/// Whether an LMS launched the lab (and its API answered).
pub fn active() -> bool {
    SESSION.with(|s| s.try_borrow().map_or(true, |s| s.is_some()))
}

/// The progress the LMS keeps for the learner (`""`: none yet), if an LMS launched the lab.
pub fn stored() -> Option<String> {
    SESSION.with(|s| s.try_borrow().ok()?.as_ref().map(|s| s.stored.clone()))
}

fn api_in(w: &JsValue) -> Option<JsValue> {
    // A window of another origin throws on any property but a few: not there.
    let api = Reflect::get(w, &"API".into()).ok()?;
    (api.is_object() && Reflect::get(&api, &"LMSInitialize".into()).ok()?.is_function()).then_some(api)
}

/// `API` in `w` or up its parents, at most 7 steps up, as the standard's `findAPI`.
fn find_from(w: web_sys::Window) -> Option<JsValue> {
    let mut w = w;
    for _ in 0..=7 {
        if let Some(api) = api_in(&w) {
            return Some(api);
        }
        let parent = w.parent().ok().flatten()?;
        if js_sys::Object::is(&parent, &w) {
            return None;
        }
        w = parent;
    }
    None
}

fn find_api() -> Option<JsValue> {
    let w = web_sys::window()?;
    find_from(w.clone()).or_else(|| {
        let opener = w.opener().ok().filter(|o| o.is_object())?;
        find_from(opener.unchecked_into())
    })
}

fn call(api: &JsValue, name: &str, args: &[&str]) -> Option<JsValue> {
    let f: Function = Reflect::get(api, &name.into()).ok()?.dyn_into().ok()?;
    let args: js_sys::Array = args.iter().map(|a| JsValue::from_str(a)).collect();
    f.apply(api, &args).ok()
}

/// The LMS's last error, as `(code, words)`, if there was one.
fn last_error(api: &JsValue) -> Option<(String, String)> {
    let code = call(api, "LMSGetLastError", &[])?
        .as_string()
        .unwrap_or_else(|| "0".into());
    if code == "0" || code.is_empty() {
        return None;
    }
    let words = call(api, "LMSGetErrorString", &[&code])
        .and_then(|v| v.as_string())
        .unwrap_or_default();
    Some((code, words))
}

fn warn(what: &str, api: &JsValue) {
    if let Some((code, words)) = last_error(api) {
        web_sys::console::warn_1(&format!("Sensei Lab: la plataforma no aceptó {what} (error {code}: {words})").into());
    }
}

fn get(api: &JsValue, key: &str) -> String {
    let v = call(api, "LMSGetValue", &[key])
        .and_then(|v| v.as_string())
        .unwrap_or_default();
    warn(&format!("leer {key}"), api);
    v
}

fn set(api: &JsValue, key: &str, value: &str) {
    let ok = call(api, "LMSSetValue", &[key, value]).and_then(|v| v.as_string());
    if ok.as_deref() != Some("true") {
        warn(&format!("{key} = «{value}»"), api);
    }
}

fn commit(api: &JsValue) {
    if call(api, "LMSCommit", &[""]).and_then(|v| v.as_string()).as_deref() != Some("true") {
        warn("guardar (LMSCommit)", api);
    }
}

fn now() -> f64 {
    web_sys::window().and_then(|w| w.performance()).map_or(0.0, |p| p.now())
}

/// At start, before anything is shown: in a package launched by an LMS,
/// begins the session, reads the learner's progress and marks the lesson
/// `incomplete` if it was not attempted (committed with the first check or on leaving).
pub fn launch() {
    let Some(package) = crate::ui::host::package() else {
        return;
    };
    let Some(api) = find_api() else {
        return;
    };
    if call(&api, "LMSInitialize", &[""])
        .and_then(|v| v.as_string())
        .as_deref()
        != Some("true")
    {
        warn("empezar (LMSInitialize)", &api);
        return;
    }
    let Some(lesson) = crate::lesson::find(&package.lesson) else {
        return;
    };
    let checkable = Checkable::of_lesson(lesson, package.class);
    // The LMS's mastery score (from the manifest) first, then the package's own.
    let mastery = crate::exercise::scorm::mastery_of(&get(&api, "cmi.student_data.mastery_score")).or(package.mastery);
    let stored = get(&api, "cmi.suspend_data");
    let next = get(&api, "cmi.interactions._count").trim().parse().unwrap_or(0);
    let status = match get(&api, "cmi.core.lesson_status").as_str() {
        "passed" => "passed",
        "failed" => "failed",
        "completed" => "completed",
        _ => "incomplete",
    };
    set(&api, "cmi.core.lesson_status", status);
    let session = Session {
        api,
        began: now(),
        checkable,
        mastery,
        stored,
        next,
        status,
        left: false,
    };
    SESSION.with(|s| *s.borrow_mut() = Some(session));
    if let Some(w) = web_sys::window() {
        // `pagehide` is the last event a page is sure to get (also on phones, where `unload` may not come).
        gloo::events::EventListener::once(&w, "pagehide", |_| leave()).forget();
        gloo::events::EventListener::once(&w, "beforeunload", |_| leave()).forget();
    }
}

/// Keeps the learner's progress in the LMS (`cmi.suspend_data`), committed
/// with the next check or on leaving.
pub fn keep(text: &str) {
    SESSION.with(|s| {
        let Ok(mut s) = s.try_borrow_mut() else {
            return;
        };
        if let Some(s) = s.as_mut().filter(|s| !s.left) {
            s.stored = text.to_string();
            set(&s.api, "cmi.suspend_data", text);
        }
    });
}

/// A check: its interactions, the progress, the score and the status, in one commit.
pub fn checked(progress: &Progress, interactions: &[Interaction]) {
    SESSION.with(|s| {
        // (An LMS that unloads the page inside a call would reach `leave`: it finds the session busy.)
        let Ok(mut s) = s.try_borrow_mut() else {
            return;
        };
        // Nothing after `LMSFinish` (a page kept in the back-forward cache and shown again).
        let Some(s) = s.as_mut().filter(|s| !s.left) else {
            return;
        };
        let time = {
            let d = js_sys::Date::new_0();
            scorm::clock(d.get_hours(), d.get_minutes(), d.get_seconds())
        };
        for i in interactions {
            let n = format!("cmi.interactions.{}", s.next);
            set(&s.api, &format!("{n}.id"), &i.id);
            set(&s.api, &format!("{n}.type"), i.kind);
            set(&s.api, &format!("{n}.student_response"), &i.response);
            set(&s.api, &format!("{n}.result"), i.result);
            set(&s.api, &format!("{n}.time"), &time);
            s.next += 1;
        }
        let text = progress.save();
        s.stored = text.clone();
        set(&s.api, "cmi.suspend_data", &text);
        report(s, progress);
        commit(&s.api);
    });
}

/// The score and the status for `progress`.
fn report(s: &mut Session, progress: &Progress) {
    let standing = scorm::standing(progress, &s.checkable);
    set(&s.api, "cmi.core.score.min", "0");
    set(&s.api, "cmi.core.score.max", "100");
    set(&s.api, "cmi.core.score.raw", &scorm::raw_score(&standing));
    s.status = scorm::status(&standing, s.mastery);
    set(&s.api, "cmi.core.lesson_status", s.status);
}

/// On leaving: the session's time, how it was left, and the last commit.
fn leave() {
    SESSION.with(|s| {
        let Ok(mut s) = s.try_borrow_mut() else {
            return;
        };
        let Some(s) = s.as_mut().filter(|s| !s.left) else {
            return;
        };
        s.left = true;
        set(&s.api, "cmi.core.session_time", &scorm::timespan(now() - s.began));
        set(
            &s.api,
            "cmi.core.exit",
            // `suspend` unless done for good: a `failed` learner may come back and pass.
            if matches!(s.status, "passed" | "completed") {
                ""
            } else {
                "suspend"
            },
        );
        // LMSFinish saves what was set (an LMS commits on it): the one commit on leaving.
        if call(&s.api, "LMSFinish", &[""]).and_then(|v| v.as_string()).as_deref() != Some("true") {
            warn("terminar (LMSFinish)", &s.api);
        }
    });
}
