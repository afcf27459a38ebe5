//! A widget's parameters as state: read from the URL on load, clamped with
//! notes on every change, written back to the URL.
//!
//! Changes are coalesced: a control's change is kept as the pending value and
//! applied in a task of its own (a zero-delay timeout), so when a slider sends
//! many `input` events while a heavy simulation runs (the storm at its largest
//! parameters takes a good part of a second), the browser handles them all
//! first and the widget runs once, with the latest value, instead of once per
//! event. The page keeps answering; at the lesson's values the timeout costs
//! well under a millisecond (see docs/PERFORMANCE.md). The URL is written in
//! the task after, once the chart is redrawn.

//!
//! The state is the parameters as [`Values`] (one per spec), so that the
//! setter, the reset and the URL code exist once in the build, not once per
//! scenario; only [`use_params`] turns them into the scenario's struct.

use super::url_state;
use crate::sim::params::{self, Note, Params, Spec, Value, Values};
use std::cell::RefCell;
use std::rc::Rc;
use yew::prelude::*;

/// What a widget's controls need.
#[derive(Clone, PartialEq)]
pub struct ParamsHandle<P: Params> {
    pub params: P,
    pub values: Values,
    pub notes: Vec<Note>,
    pub state: ValuesState,
}

/// A widget's parameters as state, whatever the scenario.
#[derive(Clone, PartialEq)]
pub struct ValuesState {
    pub widget: &'static str,
    pub specs: &'static [Spec],
    defaults: Rc<Values>,
    state: UseStateHandle<(Values, Vec<Note>)>,
    /// The latest change not yet applied, if a task to apply it is scheduled.
    pending: Pending,
}

/// Parameters and their notes, waiting to be applied.
type Pending = Rc<RefCell<Option<(Values, Vec<Note>)>>>;

impl ValuesState {
    /// A callback that sets one parameter (clamping it, with a note if needed).
    pub fn setter(&self, key: &'static str) -> Callback<Value> {
        let this = self.clone();
        Callback::from(move |v: Value| {
            let Some(i) = this.specs.iter().position(|s| s.key == key) else {
                return;
            };
            let spec = &this.specs[i];
            let scheduled = this.pending.borrow().is_some();
            let (mut values, mut notes) = this
                .pending
                .borrow_mut()
                .take()
                .unwrap_or_else(|| (*this.state).clone());
            let (v, note) = spec.clamp(v);
            values[i] = v;
            notes.retain(|n| n.key != key);
            if let Some(message) = note {
                notes.push(Note { key: spec.key, message });
            }
            *this.pending.borrow_mut() = Some((values, notes));
            if !scheduled {
                let this = this.clone();
                gloo::timers::callback::Timeout::new(0, move || {
                    let latest = this.pending.borrow_mut().take();
                    if let Some((values, notes)) = latest {
                        this.state.set((values.clone(), notes));
                        // The URL in a task after the redraw: `replaceState` costs about
                        // a millisecond, which the learner waits for only if it comes first.
                        let this = this.clone();
                        gloo::timers::callback::Timeout::new(0, move || this.write_url(&values)).forget();
                    }
                })
                .forget();
            }
        })
    }

    /// A callback that puts back the lesson's values.
    pub fn reset(&self) -> Callback<MouseEvent> {
        let this = self.clone();
        Callback::from(move |_| {
            this.pending.borrow_mut().take();
            url_state::write_widget(this.widget, "");
            this.state.set(((*this.defaults).clone(), Vec::new()));
        })
    }

    /// The query that reproduces `values` (only what differs from the lesson).
    pub fn query(&self, values: &[Value]) -> String {
        params::values_to_query(self.specs, values, &self.defaults)
    }

    fn write_url(&self, values: &[Value]) {
        url_state::write_widget(self.widget, &self.query(values));
    }
}

/// Reads this widget's part of the page's query ([`url_state::widget_query`]),
/// and keeps the parameters as state.
#[hook]
pub fn use_params<P: Params + 'static>(widget: &'static str) -> ParamsHandle<P> {
    let state = use_values(widget, P::specs(), params::values(&P::default()));
    let (values, notes) = (*state.state).clone();
    ParamsHandle {
        params: params::from_values(&values),
        values,
        notes,
        state,
    }
}

#[hook]
fn use_values(widget: &'static str, specs: &'static [Spec], defaults: Values) -> ValuesState {
    let defaults = use_memo((), move |_| defaults);
    let d = defaults.clone();
    let state = use_state(move || params::values_from_query(specs, (*d).clone(), &url_state::widget_query(widget)));
    let pending = use_mut_ref(|| None);
    ValuesState {
        widget,
        specs,
        defaults,
        state,
        pending,
    }
}
