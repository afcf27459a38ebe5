//! The controls of a widget, built from its parameter specs, with the reset
//! button and the notes about clamped values.

//!
//! They take the parameters as values ([`crate::sim::params::Values`]), so
//! each exists once in the build whatever the scenario.

use crate::sim::params::{Note, Params, Value};
use crate::ui::hooks::use_params::{ParamsHandle, ValuesState};
use crate::ui::widgets::param_control::ParamControl;
use yew::prelude::*;

/// One control per parameter (in `only`, if given), then "Volver a los valores de la lección".
pub fn controls<P: Params>(h: &ParamsHandle<P>, only: Option<&[&str]>) -> Html {
    controls_of(&h.state, &h.values, only)
}

fn param_controls(state: &ValuesState, values: &[Value], keep: &dyn Fn(&str) -> bool) -> Html {
    html! {
        // (The moment is the player's: its slider, not a parameter's.)
        { for state.specs.iter().zip(values).filter(|(s, _)| keep(s.key) && s.key != crate::sim::playback::MOMENT_KEY).map(|(spec, value)| html! {
            <ParamControl widget={state.widget} spec={*spec} value={value.clone()} on_change={state.setter(spec.key)} />
        }) }
    }
}

fn controls_of(state: &ValuesState, values: &[Value], only: Option<&[&str]>) -> Html {
    html! {
        <div class="controls">
            { param_controls(state, values, &|k| only.is_none_or(|o| o.contains(&k))) }
            <button type="button" class="reset" onclick={state.reset()}>{ "Volver a los valores de la lección" }</button>
        </div>
    }
}

/// Further controls, folded under «Más parámetros» (no reset button of their own).
pub fn more_controls<P: Params>(h: &ParamsHandle<P>, keys: &[&str]) -> Html {
    html! {
        <details class="more-controls">
            <summary>{ "Más parámetros" }</summary>
            <div class="controls">{ param_controls(&h.state, &h.values, &|k| keys.contains(&k)) }</div>
        </details>
    }
}

/// The notes about values that were clamped or not understood.
pub fn notes<P: Params>(h: &ParamsHandle<P>) -> Html {
    notes_of(&h.notes)
}

/// What a run could not do as asked (cut by its work budget, an
/// approximation that does not hold here), said beside its figures.
pub fn run_notes(notes: &[String]) -> Html {
    if notes.is_empty() {
        return html! {};
    }
    html! {
        <ul class="notes run-notes" role="status" data-figure="run-notes">
            { for notes.iter().map(|n| html! { <li>{ n }</li> }) }
        </ul>
    }
}

fn notes_of(notes: &[Note]) -> Html {
    if notes.is_empty() {
        return html! {};
    }
    html! {
        <ul class="notes" role="status">
            { for notes.iter().map(|n| html! { <li>{ &n.message }</li> }) }
        </ul>
    }
}

/// The same run on the command line, for instructors and authors (the
/// widget's id is its scenario's subcommand).
pub fn command_line<P: Params>(h: &ParamsHandle<P>) -> Html {
    command_line_of(h.state.widget, &h.state.query(&h.values))
}

/// A value as a shell reads it back: as is if it is plain, else in single quotes.
fn shell_word(v: &str) -> String {
    if !v.is_empty() && v.chars().all(|c| c.is_ascii_alphanumeric() || "-_.,:/+@".contains(c)) {
        v.to_string()
    } else {
        format!("'{}'", v.replace('\'', "'\\''"))
    }
}

fn command_line_of(scenario: &str, query: &str) -> Html {
    let mut cmd = format!("sensei-lab {scenario}");
    for pair in query.split('&').filter(|s| !s.is_empty()) {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        cmd.push_str(&format!(
            " --{k} {}",
            shell_word(&crate::sim::params::percent_decode(v))
        ));
    }
    html! { <p class="cli"><span>{ "En la terminal: " }</span><code>{ cmd }</code></p> }
}
