//! The student's progress in the browser's localStorage. The rules (schema
//! version, corrupt data, merging) are in [`crate::exercise::progress`];
//! this file only moves the JSON in and out, and survives a browser that
//! refuses storage, a full one, or a corrupt value. When an LMS launched the
//! lab (`ui::lms`), the JSON goes to and from the LMS instead.

use crate::exercise::progress::{Loaded, Progress, ASIDE_KEY, STORAGE_KEY};
use web_sys::Storage;

/// The event every exercise and the summary listen to after a change.
pub const EVENT: &str = "sensei-progress";

fn storage() -> Option<Storage> {
    // `localStorage` itself may throw (storage blocked): that is `Err`, not a panic.
    web_sys::window()?.local_storage().ok().flatten()
}

thread_local! {
    /// What went wrong on this page load, so that every reader can say it
    /// (the first one to read sets corrupt data aside; the others find none).
    static NOTICE: std::cell::RefCell<Option<String>> = const { std::cell::RefCell::new(None) };
}

/// The stored progress, and a notice for the student if something was wrong.
pub fn load() -> (Progress, Option<String>) {
    let (p, notice) = load_once();
    if notice.is_some() {
        NOTICE.with(|n| *n.borrow_mut() = notice.clone());
    }
    (p, notice.or_else(|| NOTICE.with(|n| n.borrow().clone())))
}

fn load_once() -> (Progress, Option<String>) {
    // Launched by an LMS: what it keeps for the learner, never this browser's.
    if let Some(text) = crate::ui::lms::stored() {
        return match Progress::load(Some(text.as_str()).filter(|t| !t.trim().is_empty())) {
            Loaded::Ok(p) => (p, None),
            Loaded::Empty => (Progress::new(), None),
            Loaded::SetAside(why) => (Progress::new(), Some(format!("{why} Empezamos de nuevo."))),
        };
    }
    let Some(s) = storage() else {
        return (
            Progress::new(),
            Some("Este navegador no deja guardar: tu avance se pierde al cerrar la página.".into()),
        );
    };
    let stored = s.get_item(STORAGE_KEY).ok().flatten();
    match Progress::load(stored.as_deref()) {
        Loaded::Empty => (Progress::new(), None),
        Loaded::Ok(p) => (p, None),
        Loaded::SetAside(why) => {
            if let Some(text) = stored {
                let _ = s.set_item(ASIDE_KEY, &text);
            }
            let _ = s.remove_item(STORAGE_KEY);
            (
                Progress::new(),
                Some(format!(
                    "{why} Lo apartamos y empezamos de nuevo; lo demás sigue igual."
                )),
            )
        }
    }
}

/// Saves; on failure (storage full or blocked) says so, and the page goes on.
pub fn save(p: &Progress) -> Result<(), String> {
    if crate::ui::lms::active() {
        crate::ui::lms::keep(&p.save());
        notify();
        return Ok(());
    }
    let s = storage().ok_or("Este navegador no deja guardar: tu avance se pierde al cerrar la página.")?;
    s.set_item(STORAGE_KEY, &p.save()).map_err(|_| {
        "No se pudo guardar tu avance (el almacenamiento del navegador está lleno o bloqueado).".to_string()
    })?;
    notify();
    Ok(())
}

/// Forgets everything saved.
pub fn reset() {
    NOTICE.with(|n| *n.borrow_mut() = None);
    if crate::ui::lms::active() {
        crate::ui::lms::keep("");
    } else if let Some(s) = storage() {
        let _ = s.remove_item(STORAGE_KEY);
    }
    notify();
}

fn notify() {
    if let Some(w) = web_sys::window() {
        if let Ok(e) = web_sys::Event::new(EVENT) {
            let _ = w.dispatch_event(&e);
        }
    }
}
