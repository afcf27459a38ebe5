//! The controls of a widget, built from its parameter specs, with the reset
//! button and the notes about clamped values.

use super::param_control::ParamControl;
use super::use_params::ParamsHandle;
use crate::sim::params::Params;
use yew::prelude::*;

/// One control per parameter (in `only`, if given), then "Volver a los valores de la lección".
pub fn controls<P: Params + 'static>(h: &ParamsHandle<P>, only: Option<&[&str]>) -> Html {
    html! {
        <div class="controls">
            { for P::specs().iter().filter(|s| only.is_none_or(|o| o.contains(&s.key))).map(|spec| html! {
                <ParamControl widget={h.widget} spec={*spec} value={h.params.get(spec.key)} on_change={h.setter(spec.key)} />
            }) }
            <button type="button" class="reset" onclick={h.reset()}>{ "Volver a los valores de la lección" }</button>
        </div>
    }
}

/// Further controls, folded under «Más parámetros» (no reset button of their own).
pub fn more_controls<P: Params + 'static>(h: &ParamsHandle<P>, keys: &[&str]) -> Html {
    html! {
        <details class="more-controls">
            <summary>{ "Más parámetros" }</summary>
            <div class="controls">
                { for P::specs().iter().filter(|s| keys.contains(&s.key)).map(|spec| html! {
                    <ParamControl widget={h.widget} spec={*spec} value={h.params.get(spec.key)} on_change={h.setter(spec.key)} />
                }) }
            </div>
        </details>
    }
}

/// The notes about values that were clamped or not understood.
pub fn notes<P: Params>(h: &ParamsHandle<P>) -> Html {
    if h.notes.is_empty() {
        return html! {};
    }
    html! {
        <ul class="notes" role="status">
            { for h.notes.iter().map(|n| html! { <li>{ &n.message }</li> }) }
        </ul>
    }
}

/// The same run on the command line, for instructors and authors.
pub fn command_line<P: Params>(scenario: &str, p: &P) -> Html {
    let mut cmd = format!("sensei-lab {scenario}");
    for pair in crate::sim::params::to_query(p).split('&').filter(|s| !s.is_empty()) {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        cmd.push_str(&format!(" --{k} {v}"));
    }
    html! { <p class="cli"><span>{ "En la terminal: " }</span><code>{ cmd }</code></p> }
}
