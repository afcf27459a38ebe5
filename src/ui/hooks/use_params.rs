//! A widget's parameters as state: read from the URL on load, clamped with
//! notes on every change, written back to the URL.
//!
//! Changes are coalesced: a control's change is kept as pending and applied
//! in a task of its own (a zero-delay timeout), so when a slider sends many
//! `input` events while a heavy simulation runs (the storm at its largest
//! parameters takes a good part of a second), the browser handles them all
//! first and the widget runs once, with the latest values, instead of once per
//! event. The page keeps answering; at the lesson's values the timeout costs
//! well under a millisecond (see docs/PERFORMANCE.md). The URL is written in
//! the task after, once the chart is redrawn.
//!
//! The state is a reducer: a change is applied to the state as it is when the
//! change lands, never to the values a callback saw when it was made, so two
//! controls moved one after the other both count whenever the widget redraws.
//!
//! The state is the parameters as [`Values`] (one per spec), so that the
//! setter, the reset and the URL code exist once in the build, not once per
//! scenario; only [`use_params`] turns them into the scenario's struct.

use crate::sim::params::{self, Note, Params, Spec, Value, Values};
use crate::ui::hooks::url_state;
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
    state: UseReducerHandle<Current>,
    /// The changes not yet applied (spec index, value), if a task to apply them is scheduled.
    pending: Pending,
}

type Pending = Rc<RefCell<Option<Vec<(usize, Value)>>>>;

/// The values in use and their notes (one per clamped value).
#[derive(PartialEq)]
pub struct Current {
    specs: &'static [Spec],
    values: Values,
    notes: Vec<Note>,
}

pub enum Change {
    /// These parameters (by spec index) to these values, each clamped with a note if needed.
    Set(Vec<(usize, Value)>),
    /// Back to these values (the lesson's, or a preset's), without notes.
    Reset(Values),
    /// The values this function makes of the values as they are when the
    /// change lands (the store's own steps: one added to those already taken,
    /// however fast the clicks).
    Edit(ValuesEdit),
}

/// New values made of the values as they are ([`Change::Edit`]).
pub type ValuesEdit = Rc<dyn Fn(&[Value]) -> Values>;

impl Reducible for Current {
    type Action = Change;

    fn reduce(self: Rc<Self>, change: Change) -> Rc<Self> {
        let (mut values, mut notes) = (self.values.clone(), self.notes.clone());
        let change = match change {
            Change::Edit(edit) => {
                let edited = edit(&values);
                let changes = edited
                    .into_iter()
                    .enumerate()
                    .filter(|(i, v)| values.get(*i) != Some(v))
                    .collect();
                Change::Set(changes)
            }
            other => other,
        };
        match change {
            Change::Set(changes) => {
                for (i, v) in changes {
                    let spec = &self.specs[i];
                    let (v, note) = spec.clamp(v);
                    values[i] = v;
                    notes.retain(|n| n.key != spec.key);
                    if let Some(message) = note {
                        notes.push(Note { key: spec.key, message });
                    }
                }
            }
            Change::Reset(defaults) => {
                values = defaults;
                notes.clear();
            }
            Change::Edit(_) => {}
        }
        Rc::new(Current {
            specs: self.specs,
            values,
            notes,
        })
    }
}

impl ValuesState {
    /// A callback that sets one parameter (clamping it, with a note if needed).
    pub fn setter(&self, key: &'static str) -> Callback<Value> {
        let this = self.clone();
        Callback::from(move |v: Value| {
            let Some(i) = this.specs.iter().position(|s| s.key == key) else {
                return;
            };
            let mut pending = this.pending.borrow_mut();
            if let Some(changes) = pending.as_mut() {
                changes.push((i, v));
                return;
            }
            *pending = Some(vec![(i, v)]);
            let this = this.clone();
            gloo::timers::callback::Timeout::new(0, move || {
                let changes = this.pending.borrow_mut().take();
                if let Some(changes) = changes {
                    this.state.dispatch(Change::Set(changes));
                }
            })
            .forget();
        })
    }

    /// Changes the values as they are when the change lands, by `edit`
    /// (after the changes still pending, which land first).
    pub fn edit(&self, edit: ValuesEdit) {
        if let Some(changes) = self.pending.borrow_mut().take() {
            self.state.dispatch(Change::Set(changes));
        }
        self.state.dispatch(Change::Edit(edit));
    }

    /// A callback that puts back the lesson's values.
    pub fn reset(&self) -> Callback<MouseEvent> {
        let this = self.clone();
        Callback::from(move |_| {
            this.pending.borrow_mut().take();
            // The URL at once, even when the values were already the lesson's
            // (a link that named them, or one the page could not read).
            url_state::write_widget(this.widget, "");
            this.state.dispatch(Change::Reset((*this.defaults).clone()));
        })
    }

    /// A callback that sets every parameter at once (a preset), each valid for its spec.
    pub fn set_all(&self, values: Values) -> Callback<MouseEvent> {
        let this = self.clone();
        Callback::from(move |_| {
            this.pending.borrow_mut().take();
            this.state.dispatch(Change::Reset(values.clone()));
        })
    }

    /// The values in use (at the last render).
    pub fn values(&self) -> &Values {
        &self.state.values
    }

    /// The lesson's values.
    pub fn defaults(&self) -> Values {
        (*self.defaults).clone()
    }

    /// Puts these values at once (a task's start), each valid for its spec.
    pub fn put(&self, values: Values) {
        self.pending.borrow_mut().take();
        self.state.dispatch(Change::Reset(values));
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
    // A widget's tasks read and set its values (`ui::widgets::task_scope`).
    if let Some(tasks) = use_context::<crate::ui::widgets::task_scope::TaskCtx>() {
        *tasks.remote.borrow_mut() = Some(state.clone());
    }
    let (values, notes) = (state.state.values.clone(), state.state.notes.clone());
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
    let state = use_reducer_eq(move || {
        let (values, notes) = params::values_from_query(specs, (*d).clone(), &url_state::widget_query(widget));
        Current { specs, values, notes }
    });
    let pending = use_mut_ref(|| None);
    let this = ValuesState {
        widget,
        specs,
        defaults,
        state,
        pending,
    };
    // Each change of the values goes into the URL (not the values it opened with),
    // in a task after the redraw: `replaceState` costs about a millisecond, which
    // the learner waits for only if it comes first.
    let opened = use_mut_ref(|| true);
    {
        let this = this.clone();
        use_effect_with(this.state.values.clone(), move |values| {
            if !std::mem::replace(&mut *opened.borrow_mut(), false) {
                let values = values.clone();
                gloo::timers::callback::Timeout::new(0, move || this.write_url(&values)).forget();
            }
        });
    }
    this
}

/// The text a field shows: what the page holds (`committed`), unless the
/// learner is typing in it. Yew puts an `<input>`'s `value` back on every
/// render where it differs from the field's, so a widget redrawn for any
/// other reason (a control moved a moment before, a player's frame) would
/// wipe a number typed and not yet sent with Enter. While the field has the
/// focus and the page's value is the one it last showed, what was typed stays;
/// a new value from the page (a commit, a clamp, a reset) replaces it. Once
/// the field's text is sent (its `change`), the page's value is shown again,
/// even when it did not change (a number clamped back to the value it had).
#[hook]
pub fn use_draft(committed: String) -> (NodeRef, String) {
    let field = use_node_ref();
    let shown = use_mut_ref(|| None::<String>);
    {
        let (field, shown) = (field.clone(), shown.clone());
        use_effect_with((), move |_| {
            let listener = field.get().map(|el| {
                gloo::events::EventListener::new(&el, "change", move |_| {
                    *shown.borrow_mut() = None;
                })
            });
            move || drop(listener)
        });
    }
    let typed = field.cast::<web_sys::HtmlInputElement>().filter(|el| {
        let focused = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.active_element())
            .is_some_and(|a| a == ***el);
        focused && shown.borrow().as_deref() == Some(committed.as_str())
    });
    let text = match typed.map(|el| el.value()) {
        Some(t) if t != committed => t,
        _ => committed.clone(),
    };
    *shown.borrow_mut() = Some(committed);
    (field, text)
}
