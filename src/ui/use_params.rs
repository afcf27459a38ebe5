//! A widget's parameters as state: read from the URL on load, clamped with
//! notes on every change, written back to the URL.
//!
//! Changes are coalesced: a control's change is kept as the pending value and
//! applied in a task of its own (a zero-delay timeout), so when a slider sends
//! many `input` events while a heavy simulation runs (the storm at its largest
//! parameters takes a good part of a second), the browser handles them all
//! first and the widget runs once, with the latest value, instead of once per
//! event. The page keeps answering; at the lesson's values the timeout costs
//! well under a millisecond (see docs/PERFORMANCE.md).

use super::url_state;
use crate::sim::params::{self, Note, Params, Value};
use std::cell::RefCell;
use std::rc::Rc;
use yew::prelude::*;

/// The URL key that says which widget the query's values belong to.
pub const WIDGET_KEY: &str = "widget";

/// What a widget's controls need.
#[derive(Clone, PartialEq)]
pub struct ParamsHandle<P: Params> {
    pub widget: &'static str,
    pub params: P,
    pub notes: Vec<Note>,
    state: UseStateHandle<(P, Vec<Note>)>,
    /// The latest change not yet applied, if a task to apply it is scheduled.
    pending: Pending<P>,
}

/// Parameters and their notes, waiting to be applied.
type Pending<P> = Rc<RefCell<Option<(P, Vec<Note>)>>>;

impl<P: Params + 'static> ParamsHandle<P> {
    /// A callback that sets one parameter (clamping it, with a note if needed).
    pub fn setter(&self, key: &'static str) -> Callback<Value> {
        let state = self.state.clone();
        let pending = self.pending.clone();
        let widget = self.widget;
        Callback::from(move |v: Value| {
            let Some(spec) = P::specs().iter().find(|s| s.key == key) else {
                return;
            };
            let scheduled = pending.borrow().is_some();
            let (mut p, mut notes) = pending.borrow_mut().take().unwrap_or_else(|| (*state).clone());
            let (v, note) = spec.clamp(v);
            p.set(key, v);
            notes.retain(|n| n.key != key);
            if let Some(message) = note {
                notes.push(Note { key: spec.key, message });
            }
            *pending.borrow_mut() = Some((p, notes));
            if !scheduled {
                let (state, pending) = (state.clone(), pending.clone());
                gloo::timers::callback::Timeout::new(0, move || {
                    let latest = pending.borrow_mut().take();
                    if let Some(latest) = latest {
                        write_url(widget, &latest.0);
                        state.set(latest);
                    }
                })
                .forget();
            }
        })
    }

    /// A callback that puts back the lesson's values.
    pub fn reset(&self) -> Callback<MouseEvent> {
        let state = self.state.clone();
        let pending = self.pending.clone();
        Callback::from(move |_| {
            pending.borrow_mut().take();
            url_state::replace_query("");
            state.set((P::default(), Vec::new()));
        })
    }
}

fn write_url<P: Params>(widget: &str, p: &P) {
    let own = params::to_query(p);
    let query = if own.is_empty() {
        format!("{WIDGET_KEY}={widget}")
    } else {
        format!("{WIDGET_KEY}={widget}&{own}")
    };
    url_state::replace_query(&query);
}

/// Reads the page's query if it is this widget's (`widget=<id>`, or no
/// `widget` key at all), and keeps the parameters as state.
#[hook]
pub fn use_params<P: Params + 'static>(widget: &'static str) -> ParamsHandle<P> {
    let state = use_state(move || {
        let query = url_state::current_query();
        let owner = query
            .trim_start_matches('?')
            .split('&')
            .find_map(|kv| kv.strip_prefix(WIDGET_KEY).and_then(|r| r.strip_prefix('=')))
            .map(str::to_string);
        match owner {
            Some(o) if o != widget => (P::default(), Vec::new()),
            _ => params::from_query::<P>(&query),
        }
    });
    let pending = use_mut_ref(|| None);
    ParamsHandle {
        widget,
        params: state.0.clone(),
        notes: state.1.clone(),
        state,
        pending,
    }
}
