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

/// The same for a played widget, at the moment its player shows (`moment`,
/// in the player's ms; `None`: the run's end, where a widget opens), not
/// only the moment kept in the link: `--t-ms 485` while it stands at 485 ms.
pub fn command_line_at<P: Params>(h: &ParamsHandle<P>, moment: Option<f64>) -> Html {
    command_line_in(h, crate::sim::playback::MOMENT_KEY, 1.0, moment)
}

/// [`command_line_at`] for a moment kept as the parameter `key` in units of
/// `unit` of the player's ms (the idempotency store's `line`).
pub fn command_line_in<P: Params>(h: &ParamsHandle<P>, key: &str, unit: f64, moment: Option<f64>) -> Html {
    // As the player says it: a moment to the nearest ms, a line once reached.
    let moment = moment
        .filter(|t| t.is_finite())
        .map(|t| if unit == 1.0 { t.round() } else { (t / unit).floor() }.max(0.0) as i64);
    command_line_of(h.state.widget, &with_moment(&h.state.query(&h.values), key, moment))
}

/// `query` with its `key` (the moment) replaced by `moment`, or taken out.
fn with_moment(query: &str, key: &str, moment: Option<i64>) -> String {
    let mut pairs: Vec<String> = query
        .split('&')
        .filter(|p| !p.is_empty() && p.split('=').next() != Some(key))
        .map(str::to_string)
        .collect();
    if let Some(m) = moment {
        pairs.push(format!("{key}={m}"));
    }
    pairs.join("&")
}

/// A value as a shell reads it back: as is if it is plain, else in single quotes.
fn shell_word(v: &str) -> String {
    if !v.is_empty() && v.chars().all(|c| c.is_ascii_alphanumeric() || "-_.,:/+@".contains(c)) {
        v.to_string()
    } else {
        format!("'{}'", v.replace('\'', "'\\''"))
    }
}

/// Each `--flag value` is one piece that a narrow screen never breaks (at
/// its hyphens, `--jitter` as `-` and `-jitter`): the line wraps between
/// pieces, and copying it gives the command as typed, ASCII hyphens and all.
fn command_line_of(scenario: &str, query: &str) -> Html {
    let flags: Vec<String> = query
        .split('&')
        .filter(|s| !s.is_empty())
        .map(|pair| {
            let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
            format!("--{k} {}", shell_word(&crate::sim::params::percent_decode(v)))
        })
        .collect();
    html! {
        <p class="cli"><span>{ "En la terminal: " }</span><code>
            <span class="cli-word">{ format!("sensei-lab {scenario}") }</span>
            { for flags.into_iter().map(|f| html! { <>{ " " }<span class="cli-word">{ f }</span></> }) }
        </code></p>
    }
}

#[cfg(test)]
mod tests {
    use super::with_moment;

    #[test]
    fn the_moment_shown_replaces_the_one_kept() {
        assert_eq!(
            with_moment("jitter=none&t-ms=0", "t-ms", Some(485)),
            "jitter=none&t-ms=485"
        );
        assert_eq!(
            with_moment("t-ms=0&jitter=none", "t-ms", Some(485)),
            "jitter=none&t-ms=485"
        );
        assert_eq!(with_moment("jitter=none&t-ms=900", "t-ms", None), "jitter=none");
        assert_eq!(with_moment("", "t-ms", Some(7)), "t-ms=7");
        assert_eq!(with_moment("line=3", "line", Some(5)), "line=5");
        // Another key that starts the same is kept.
        assert_eq!(with_moment("t-ms-x=1", "t-ms", None), "t-ms-x=1");
    }
}
