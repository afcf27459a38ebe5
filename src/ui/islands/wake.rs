//! Waking a page's islands, in the browser (see [`super`]): a lesson's page,
//! and one piece's (a widget's, an exercise's, an embed's).
//!
//! - **Order.** The hosts near the screen (an `IntersectionObserver` with a
//!   screen's margin) and a host the learner touched before it woke
//!   (`static/sensei-wake.js` sends it `sensei-lab:wake`) come first; the
//!   others follow one heavy piece (a widget, an exercise) or a few light
//!   ones (a term, a section's «Insertar») per idle moment
//!   (`requestIdleCallback`, or a short timer where the browser has none, as
//!   Safari), so the page keeps answering between them. With the split, a
//!   piece off screen starts fetching its code only while no other piece's
//!   code is on its way (or has been for 10 s: a network that hangs keeps
//!   nothing asleep): on a slow network the pieces in view, and one the
//!   learner scrolls to, have the bandwidth to themselves (issue 43).
//! - **Awake.** Each host gets `data-awake` once its piece has rendered, and
//!   the app's root `data-ready` once every host has (`ui::app::READY`).
//! - **Going on.** On a lesson's page, a link to another place of the same
//!   lesson (a section, the lesson's top) moves there in the page; a link
//!   elsewhere in the lab, and back or forward to another page, renders the
//!   app for it in the root, as any later page is (the islands are let go
//!   first). Nothing is reloaded. On a piece's page the links are the
//!   browser's: the next page is prerendered, and the worker keeps it.
//! - **An embed** tells the page around it its height
//!   (`embed_messages::report_height`), as the app's piece page does.

use super::island_root::{IslandRoot, IslandRootProps};
use super::{IslandPiece, AWAKE, KEY, LESSON};
use crate::ui::route::Route;
use crate::ui::{prerender_attr, router};
use gloo::events::{EventListener, EventListenerOptions};
use std::cell::RefCell;
use std::collections::VecDeque;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{Element, HtmlAnchorElement, IntersectionObserver, IntersectionObserverEntry, IntersectionObserverInit};
use yew::prelude::*;
use yew::AppHandle;

/// The observer of the hosts near the screen, and its callback (kept alive with it).
type Watch = (IntersectionObserver, Closure<dyn FnMut(js_sys::Array)>);

/// A page of islands while it is one.
struct Islands {
    root: Element,
    /// The lesson the page is (its sections are moved to in the page);
    /// empty on a piece's page.
    lesson: String,
    /// Hosts not yet woken, in the page's order.
    asleep: Vec<Element>,
    /// Hosts to wake first (near the screen, touched), in the order seen.
    soon: VecDeque<Element>,
    awake: usize,
    total: usize,
    handles: Vec<AppHandle<IslandRoot>>,
    /// Whether a task to wake the next host is already on its way: at once, or at an idle moment.
    scheduled_now: bool,
    scheduled_idle: bool,
    /// Pieces whose code is on its way (see the module's «Order»).
    arriving: usize,
    observer: Option<Watch>,
    listeners: Vec<EventListener>,
}

thread_local! {
    static PAGE: RefCell<Option<Islands>> = const { RefCell::new(None) };
    /// An embed's height reporting, for as long as the page lives.
    static REPORTING: RefCell<Option<crate::ui::pages::embed_messages::Reporting>> = const { RefCell::new(None) };
}

/// The lesson a lesson route shows (the home page shows the first lesson).
fn lesson_of(route: &Route) -> Option<String> {
    match route {
        Route::Home => Some(crate::lesson::first_slug().to_string()),
        Route::Lesson { lesson } | Route::Section { lesson, .. } => Some(lesson.clone()),
        _ => None,
    }
}

/// Whether `route` is one piece's page (a widget or an exercise on its own
/// page or embedded, a section embedded), and whether for an iframe.
fn piece_page(route: &Route) -> Option<bool> {
    match route {
        Route::Widget { .. } | Route::Exercise { .. } => Some(false),
        Route::EmbedSection { .. } | Route::EmbedWidget { .. } | Route::EmbedExercise { .. } => Some(true),
        _ => None,
    }
}

/// Whether the prerendered page at `route` wakes as islands: a lesson's page
/// (its whole text) that has its hosts, or one piece's (a section embedded
/// may have none: nothing to wake). The rest of such a page is the
/// browser's: it needs no app.
pub fn applies(route: &Route, root: &Element) -> bool {
    piece_page(route).is_some()
        || (lesson_of(route).is_some() && root.query_selector(&format!("[{KEY}]")).ok().flatten().is_some())
}

/// Starts waking the islands of the prerendered page in `root`.
pub fn start(root: Element, route: &Route) {
    mark("islands-start");
    // A piece's page is not a place of the lesson's: its links are the browser's.
    let lesson = lesson_of(route).unwrap_or_default();
    let mut asleep = Vec::new();
    if let Ok(list) = root.query_selector_all(&format!("[{KEY}]")) {
        for i in 0..list.length() {
            if let Some(el) = list.item(i).and_then(|n| n.dyn_into::<Element>().ok()) {
                // A host inside another wakes with it.
                let nested = el
                    .parent_element()
                    .and_then(|p| p.closest(&format!("[{KEY}]")).ok().flatten());
                if nested.is_none() {
                    asleep.push(el);
                }
            }
        }
    }
    let total = asleep.len();
    let mut listeners = Vec::new();
    // A piece touched before it woke: now.
    listeners.push(EventListener::new(&root, "sensei-lab:wake", |e| {
        if let Some(host) = e.target().and_then(|t| t.dyn_into::<Element>().ok()) {
            soon(host, true);
        }
    }));
    if let (Some(window), false) = (web_sys::window(), lesson.is_empty()) {
        let options = EventListenerOptions::enable_prevent_default();
        listeners.push(EventListener::new_with_options(&window, "click", options, on_click));
        listeners.push(EventListener::new(&window, "popstate", |_| on_popstate()));
    }
    // An embed tells the page around it its height, as it changes.
    if piece_page(route) == Some(true) {
        if let Some(reporting) = crate::ui::pages::embed_messages::report_height() {
            REPORTING.with(|r| *r.borrow_mut() = Some(reporting));
        }
    }
    let observer = observe(&asleep);
    PAGE.with(|p| {
        *p.borrow_mut() = Some(Islands {
            root,
            lesson,
            asleep,
            soon: VecDeque::new(),
            awake: 0,
            total,
            handles: Vec::new(),
            scheduled_now: false,
            scheduled_idle: false,
            arriving: 0,
            observer,
            listeners,
        })
    });
    if total == 0 {
        all_awake();
    }
    schedule(false);
    mark("islands-started");
}

/// A performance mark, for the benchmarks (`benches/phone.mjs`).
fn mark(name: &str) {
    if let Some(p) = web_sys::window().and_then(|w| w.performance()) {
        let _ = p.mark(name);
    }
}

/// Watches the hosts: one near the screen is woken soon.
fn observe(hosts: &[Element]) -> Option<Watch> {
    let on_seen = Closure::<dyn FnMut(js_sys::Array)>::new(|entries: js_sys::Array| {
        let screen = web_sys::window()
            .and_then(|w| w.inner_height().ok())
            .and_then(|h| h.as_f64())
            .unwrap_or(0.0);
        let (mut shown, mut near) = (Vec::new(), Vec::new());
        for entry in entries.iter() {
            let entry: IntersectionObserverEntry = entry.unchecked_into();
            if entry.is_intersecting() {
                // On the screen itself, or only within the margin around it.
                let r = entry.bounding_client_rect();
                if r.bottom() > 0.0 && r.top() < screen {
                    shown.push(entry.target());
                } else {
                    near.push(entry.target());
                }
            }
        }
        // What is on the screen first, in the page's order; then what is near.
        for el in shown.into_iter().rev() {
            soon(el, true);
        }
        for el in near {
            soon(el, false);
        }
    });
    let init = IntersectionObserverInit::new();
    // A screen above and below: what a flick of the thumb brings.
    init.set_root_margin("100% 0px 100% 0px");
    let observer = IntersectionObserver::new_with_options(on_seen.as_ref().unchecked_ref(), &init).ok()?;
    for h in hosts {
        // A host is `display: contents`: it has no box; its piece's first element has.
        match h.first_element_child() {
            Some(child) => observer.observe(&child),
            None => observer.observe(h),
        }
    }
    Some((observer, on_seen))
}

/// Puts the host of `el` (or `el`, a host) first in line; `now`: before
/// anything already waiting (the learner touched it).
fn soon(el: Element, now: bool) {
    let host = if el.has_attribute(KEY) {
        Some(el)
    } else {
        el.closest(&format!("[{KEY}]")).ok().flatten()
    };
    let Some(host) = host else { return };
    PAGE.with(|p| {
        if let Some(page) = p.borrow_mut().as_mut() {
            if let Some(i) = page.asleep.iter().position(|h| *h == host) {
                let h = page.asleep.remove(i);
                if now {
                    page.soon.push_front(h);
                } else {
                    page.soon.push_back(h);
                }
            } else if now {
                if let Some(i) = page.soon.iter().position(|h| *h == host) {
                    if let Some(h) = page.soon.remove(i) {
                        page.soon.push_front(h);
                    }
                }
            }
        }
    });
    schedule(true);
}

/// Makes sure a task will wake the next host: at once for one in line
/// (even while an idle moment is awaited), else when the browser is idle.
fn schedule(urgent: bool) {
    let Some(window) = web_sys::window() else { return };
    let idle = js_sys::Reflect::get(&window, &JsValue::from_str("requestIdleCallback"))
        .ok()
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok());
    // Which kind of task to ask for, if one of that kind is not already on its way.
    let ask = PAGE.with(|p| {
        let mut p = p.borrow_mut();
        let page = p.as_mut()?;
        let now = urgent || !page.soon.is_empty();
        if page.soon.is_empty() && page.asleep.is_empty() {
            return None;
        }
        if now && !page.scheduled_now {
            page.scheduled_now = true;
            Some(true)
        } else if !now && !page.scheduled_now && !page.scheduled_idle && page.arriving == 0 {
            page.scheduled_idle = true;
            Some(false)
        } else {
            None
        }
    });
    let Some(now) = ask else { return };
    let run = Closure::once_into_js(move |deadline: JsValue| {
        PAGE.with(|p| {
            if let Some(page) = p.borrow_mut().as_mut() {
                if now {
                    page.scheduled_now = false;
                } else {
                    page.scheduled_idle = false;
                }
            }
        });
        // An idle moment's time left (`IdleDeadline.timeRemaining()`), if it is one.
        let left = || {
            js_sys::Reflect::get(&deadline, &"timeRemaining".into())
                .ok()
                .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
                .and_then(|f| f.call0(&deadline).ok())
                .and_then(|v| v.as_f64())
        };
        // A heavy piece alone, in a task of its own; light ones (a term, a section's
        // «Insertar», «Lo sabía») several in a row while the moment lasts and for at
        // most LIGHT_BUDGET_MS (issue 43: light ones woken before a heavy one in the
        // same task made it long).
        let now = || web_sys::window().and_then(|w| w.performance()).map_or(0.0, |p| p.now());
        let started = now();
        for i in 0..LIGHT_IN_A_ROW {
            if i > 0 && !next_is_light() {
                break;
            }
            if !wake_next() || left().is_some_and(|ms| ms < 8.0) || now() - started > LIGHT_BUDGET_MS {
                break;
            }
        }
        schedule(false);
    });
    match idle {
        Some(idle) if !now => {
            let options = js_sys::Object::new();
            let _ = js_sys::Reflect::set(&options, &"timeout".into(), &JsValue::from_f64(1_000.0));
            let _ = idle.call2(&window, &run, &options);
        }
        _ => {
            let delay = if now { 0 } else { 50 };
            let _ = window.set_timeout_with_callback_and_timeout_and_arguments_0(run.unchecked_ref(), delay);
        }
    }
}

/// How many light pieces one idle moment may wake.
const LIGHT_IN_A_ROW: usize = 12;
/// How long one task may go on waking light pieces, in ms (a long task is
/// one over 50 ms; on a phone's slow CPU a light piece takes a few).
const LIGHT_BUDGET_MS: f64 = 20.0;

/// Whether the next host in line is a light piece.
fn next_is_light() -> bool {
    PAGE.with(|p| {
        let p = p.borrow();
        let Some(page) = p.as_ref() else { return false };
        page.soon
            .front()
            .or_else(|| page.asleep.first())
            .and_then(|host| host.get_attribute(KEY))
            .as_deref()
            .and_then(IslandPiece::from_key)
            .is_some_and(|piece| piece.light())
    })
}

/// Hydrates the next host in line into its piece; whether the one after
/// it may come in the same task (it was light: see [`IslandPiece::light`]).
fn wake_next() -> bool {
    let next = PAGE.with(|p| {
        let mut p = p.borrow_mut();
        let page = p.as_mut()?;
        page.soon.pop_front().or_else(|| {
            // The next one off screen: not while another piece's code is on its
            // way, unless its own code is already here.
            let first = page.asleep.first()?;
            let go = page.arriving == 0
                || first
                    .get_attribute(KEY)
                    .as_deref()
                    .and_then(IslandPiece::from_key)
                    .is_none_or(|piece| super::code::ready(&piece));
            go.then(|| page.asleep.remove(0))
        })
    });
    let Some(host) = next else { return false };
    let slug = host.get_attribute(LESSON).unwrap_or_default();
    let Some(piece) = host.get_attribute(KEY).as_deref().and_then(IslandPiece::from_key) else {
        // Not a piece this build knows: it stays as the page has it.
        woke(&host);
        return true;
    };
    let light = piece.light();
    if super::code::SPLIT && !super::code::ready(&piece) {
        // Its code first (its own module): the page goes on meanwhile.
        let waiting = host.clone();
        // Counted as on its way until it arrives, fails, or has taken SLOW_CODE_MS
        // (a network that hangs does not keep the other pieces asleep).
        let counted = std::rc::Rc::new(std::cell::Cell::new(true));
        arriving(1);
        let slow = counted.clone();
        gloo::timers::callback::Timeout::new(SLOW_CODE_MS, move || {
            if slow.replace(false) {
                arriving(-1);
            }
        })
        .forget();
        yew::platform::spawn_local(async move {
            let code = super::code::load(&piece).await;
            if counted.replace(false) {
                arriving(-1);
            }
            match code {
                Ok(()) => hydrate(waiting, slug, piece),
                Err(super::code::Failed) => {
                    let again = waiting.clone();
                    not_arrived(&waiting, move || {
                        PAGE.with(|p| {
                            if let Some(page) = p.borrow_mut().as_mut() {
                                page.soon.push_front(again.clone());
                            }
                        });
                        schedule(true);
                    })
                }
            }
        });
        return false;
    }
    hydrate(host, slug, piece);
    light
}

/// How long a piece's code may be on its way before the pieces off screen
/// go on waking anyway, in ms.
const SLOW_CODE_MS: u32 = 10_000;

/// One more (`1`) or one fewer (`-1`) piece's code on its way; when none is
/// left, the pieces off screen go on waking.
fn arriving(change: isize) {
    let none_left = PAGE.with(|p| {
        let mut p = p.borrow_mut();
        let page = p.as_mut()?;
        page.arriving = page.arriving.saturating_add_signed(change);
        Some(page.arriving == 0)
    });
    if change < 0 && none_left == Some(true) {
        schedule(false);
    }
}

/// Hydrates `host` into its piece, whose code is here.
fn hydrate(host: Element, slug: String, piece: IslandPiece) {
    if PAGE.with(|p| p.borrow().is_none()) {
        return; // The page was let go meanwhile.
    }
    // Named by its piece: the benchmark finds which piece a long task woke.
    mark(&format!("island-wake {}", host.get_attribute(KEY).unwrap_or_default()));
    let marked = host.clone();
    let props = IslandRootProps {
        slug,
        piece,
        on_awake: Some(Callback::from(move |_| woke(&marked))),
    };
    let handle = yew::Renderer::<IslandRoot>::with_root_and_props(host, props).hydrate();
    PAGE.with(|p| {
        if let Some(page) = p.borrow_mut().as_mut() {
            page.handles.push(handle);
        }
    });
}

/// Code for `place` did not arrive: said just before it, with «Reintentar»,
/// which takes the note away and calls `retry`.
#[cfg_attr(not(feature = "split"), allow(dead_code))]
pub(crate) fn not_arrived(place: &Element, retry: impl FnOnce() + 'static) {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let Ok(note) = doc.create_element("p") else { return };
    note.set_class_name("piece-arriving");
    let _ = note.set_attribute("role", "alert");
    note.set_text_content(Some(
        "No llegó el código de esta parte de la página (¿se cortó la red?). ",
    ));
    let Ok(button) = doc.create_element("button") else {
        return;
    };
    let _ = button.set_attribute("type", "button");
    button.set_text_content(Some("Reintentar"));
    let _ = note.append_child(&button);
    let _ = place.before_with_node_1(&note);
    EventListener::once(&button, "click", move |_| {
        note.remove();
        retry();
    })
    .forget();
}

/// `host`'s piece has rendered.
fn woke(host: &Element) {
    if host.has_attribute(AWAKE) {
        return;
    }
    let _ = host.set_attribute(AWAKE, "");
    let done = PAGE.with(|p| {
        let mut p = p.borrow_mut();
        let page = p.as_mut()?;
        page.awake += 1;
        Some(page.awake >= page.total)
    });
    if done == Some(true) {
        all_awake();
    }
}

fn all_awake() {
    PAGE.with(|p| {
        if let Some(page) = p.borrow().as_ref() {
            let _ = page.root.set_attribute(crate::ui::app::READY, "");
            if let Some((observer, _)) = &page.observer {
                observer.disconnect();
            }
        }
    });
}

/// Whether `to` is a place of the lesson this page shows (a piece's page shows none).
fn in_this_lesson(to: &Route) -> bool {
    let lesson = PAGE.with(|p| p.borrow().as_ref().map(|page| page.lesson.clone()));
    lesson.as_ref().is_some_and(|l| !l.is_empty()) && lesson_of(to) == lesson
}

/// A link followed from a piece (its [`crate::ui::router::Navigator`]) or
/// from the page's text.
pub fn navigate(to: Route) {
    go(&to, None);
}

/// Goes to `to`; `anchor`: the element a link's `#id` names in it (a
/// concept's card in the cards' section), kept in the address and scrolled to.
fn go(to: &Route, anchor: Option<String>) {
    let Some(window) = web_sys::window() else { return };
    let hash = anchor.as_deref().map(|a| format!("#{a}")).unwrap_or_default();
    let url = format!("{}{hash}", crate::ui::hooks::url_state::href(&to.path()));
    // From a piece's page, the browser goes (its page is prerendered, the worker keeps it).
    if PAGE.with(|p| p.borrow().as_ref().is_some_and(|page| page.lesson.is_empty())) {
        let _ = window.location().set_href(&url);
        return;
    }
    if let Ok(history) = window.history() {
        let _ = history.push_state_with_url(&JsValue::NULL, "", Some(&url));
    }
    if in_this_lesson(to) {
        show(to);
        let target = anchor.and_then(|a| window.document()?.get_element_by_id(&a));
        if let Some(el) = target {
            el.scroll_into_view();
        }
    } else {
        into_app();
    }
}

/// A place of this lesson's page: its title, and the page scrolled to its
/// section (or to the top), as the app's lesson page does.
fn show(to: &Route) {
    let Some(window) = web_sys::window() else { return };
    let section = match to {
        Route::Section { section, .. } => window.document().and_then(|d| d.get_element_by_id(section)),
        _ => None,
    };
    crate::ui::host::set_title(&page_title(section.as_ref()));
    match section {
        Some(el) => el.scroll_into_view(),
        None => window.scroll_to_with_x_and_y(0.0, 0.0),
    }
}

/// The title of this lesson's page at `section` (none: the lesson), as
/// [`Route::title`] says it, read from the page's headings (the waking code
/// has no lesson's text).
fn page_title(section: Option<&Element>) -> String {
    let heading_text = |h: Element| {
        let text = h.text_content().unwrap_or_default();
        let anchor = h
            .query_selector("a.anchor")
            .ok()
            .flatten()
            .and_then(|a| a.text_content())
            .unwrap_or_default();
        text.trim().trim_end_matches(anchor.as_str()).trim().to_string()
    };
    let root = PAGE.with(|p| p.borrow().as_ref().map(|page| page.root.clone()));
    let lesson = root
        .and_then(|r| r.query_selector("h1").ok().flatten())
        .map(heading_text)
        .unwrap_or_default();
    let part = section
        .and_then(|s| s.query_selector("h1, h2, h3, h4, h5, h6").ok().flatten())
        .map(heading_text);
    match part {
        Some(p) => format!("{p} · {lesson} · Sensei Lab"),
        None => format!("{lesson} · Sensei Lab"),
    }
}

/// A plain click on a link of the lab (same site, under its base, to a
/// page the lab has): followed without reloading.
fn on_click(e: &web_sys::Event) {
    let Some(click) = e.dyn_ref::<web_sys::MouseEvent>() else {
        return;
    };
    if click.default_prevented()
        || click.button() != 0
        || click.ctrl_key()
        || click.meta_key()
        || click.shift_key()
        || click.alt_key()
    {
        return;
    }
    let Some(a) = e
        .target()
        .and_then(|t| t.dyn_into::<Element>().ok())
        .and_then(|t| t.closest("a[href]").ok().flatten())
        .and_then(|a| a.dyn_into::<HtmlAnchorElement>().ok())
    else {
        return;
    };
    // A link with a query (a variant, a part to go over: «Repasar lo que fallé») is
    // a state its page reads as it loads: the browser follows it.
    if !a.target().is_empty()
        || a.has_attribute("download")
        || a.origin() != crate::ui::host::origin()
        || !a.search().is_empty()
    {
        return;
    }
    let base = crate::ui::hooks::url_state::base_path();
    let path = a.pathname();
    let route = match path.strip_prefix(base.as_str()) {
        Some("") => Route::Home,
        Some(rest) if rest.starts_with('/') => Route::from_path(rest),
        _ => return,
    };
    // Not found, or a page the learner's build leaves to another (`app::renders`): the browser's.
    if route == Route::NotFound || !crate::ui::app::renders(&route) {
        return;
    }
    e.prevent_default();
    let hash = a.hash();
    go(
        &route,
        hash.strip_prefix('#').filter(|h| !h.is_empty()).map(str::to_string),
    );
}

/// Back or forward: within the lesson, to that place of the page; to
/// another page, the app renders it.
fn on_popstate() {
    let route = router::current();
    if in_this_lesson(&route) {
        show(&route);
    } else {
        into_app();
    }
}

/// Lets the islands go and renders the app in the root for the address the
/// page is at now (it follows the history from there).
fn into_app() {
    let Some(page) = PAGE.with(|p| p.borrow_mut().take()) else {
        return;
    };
    let Islands {
        root,
        handles,
        observer,
        listeners,
        ..
    } = page;
    drop(listeners);
    if let Some((o, _)) = &observer {
        o.disconnect();
    }
    for h in handles {
        h.destroy();
    }
    root.set_inner_html("");
    let _ = root.remove_attribute(crate::ui::app::READY);
    let _ = root.set_attribute(prerender_attr::START, "render");
    crate::ui::run_app(root, false);
}
