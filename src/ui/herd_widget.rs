//! The herd simulation, live: every change re-runs the core and redraws.

use super::canvas_chart::HerdCanvas;
use super::param_control::ParamControl;
use super::url_state;
use crate::chart::herd::HerdChart;
use crate::fmt::es_int;
use crate::sim::backoff::Jitter;
use crate::sim::herd::{simulate, HerdParams, HerdResult};
use crate::sim::params::{self, Note, Params, Value};
use std::rc::Rc;
use yew::prelude::*;

struct Run {
    chosen: HerdResult,
    /// "sin jitter" with the same parameters (absent when that is the choice).
    reference: Option<HerdResult>,
    chart: Rc<HerdChart>,
}

fn run(p: &HerdParams) -> Run {
    let chosen = simulate(p);
    let reference = (p.jitter != Jitter::None).then(|| {
        simulate(&HerdParams {
            jitter: Jitter::None,
            ..p.clone()
        })
    });
    let chart = HerdChart::new(
        p.capacity,
        (p.jitter.label(), &chosen),
        reference.as_ref().map(|r| (Jitter::None.label(), r)),
    );
    Run {
        chosen,
        reference,
        chart: Rc::new(chart),
    }
}

/// The same run on the command line, for instructors and authors.
fn command_line(p: &HerdParams) -> String {
    let mut cmd = String::from("sensei-lab herd");
    for pair in params::to_query(p).split('&').filter(|s| !s.is_empty()) {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        cmd.push_str(&format!(" --{k} {v}"));
    }
    cmd
}

#[component]
pub fn HerdWidget() -> Html {
    let state = use_state(|| params::from_query::<HerdParams>(&url_state::current_query()));
    let (p, notes) = (*state).clone();
    let result = use_memo(p.clone(), run);
    let log_y = use_state(|| false);
    let chart = {
        let base = result.chart.clone();
        use_memo((base, *log_y), |(base, log_y)| {
            Rc::new(HerdChart {
                log_y: *log_y,
                ..(**base).clone()
            })
        })
    };
    let toggle_log = {
        let log_y = log_y.clone();
        Callback::from(move |e: Event| {
            let input: web_sys::HtmlInputElement = e.target_unchecked_into();
            log_y.set(input.checked());
        })
    };

    let set = |key: &'static str| {
        let state = state.clone();
        Callback::from(move |v: Value| {
            let (mut p, mut notes): (HerdParams, Vec<Note>) = (*state).clone();
            let spec = HerdParams::specs()
                .iter()
                .find(|s| s.key == key)
                .expect("known key");
            let (v, note) = spec.clamp(v);
            p.set(key, v);
            notes.retain(|n| n.key != key);
            if let Some(message) = note {
                notes.push(Note {
                    key: spec.key,
                    message,
                });
            }
            url_state::replace_query(&params::to_query(&p));
            state.set((p, notes));
        })
    };
    let reset = {
        let state = state.clone();
        Callback::from(move |_| {
            url_state::replace_query("");
            state.set((HerdParams::default(), Vec::new()));
        })
    };

    let columns: Vec<(&str, &HerdResult)> = match &result.reference {
        Some(r) => vec![
            (Jitter::None.label(), r),
            (p.jitter.label(), &result.chosen),
        ],
        None => vec![(p.jitter.label(), &result.chosen)],
    };
    let figure_row = |label: &str, f: &dyn Fn(&HerdResult) -> u64, field: &str| {
        html! {
            <tr>
                <th scope="row">{ label.to_string() }</th>
                { for columns.iter().map(|(_, r)| html! { <td data-figure={field.to_string()}>{ es_int(f(r) as i64) }</td> }) }
            </tr>
        }
    };
    let summary = format!(
        "Intentos por ventana de {} ms: {}. Capacidad: {} por ventana.",
        p.window_ms,
        columns
            .iter()
            .map(|(l, r)| format!(
                "{l}, pico de {} y {} intentos",
                es_int(r.peak as i64),
                es_int(r.attempts as i64)
            ))
            .collect::<Vec<_>>()
            .join("; "),
        es_int(p.capacity as i64)
    );

    html! {
        <figure class="widget" id="widget-herd" data-widget="herd">
            <figcaption class="widget-title">
                <span class="badge">{ "Simulación en vivo" }</span>
                { "La manada: mil clientes que fallan juntos" }
            </figcaption>
            <div class="widget-grid">
                <div class="controls">
                    { for HerdParams::specs().iter().map(|spec| html! {
                        <ParamControl widget="herd" spec={*spec} value={p.get(spec.key)} on_change={set(spec.key)} />
                    }) }
                    <button type="button" class="reset" onclick={reset}>{ "Volver a los valores de la lección" }</button>
                </div>
                <div class="results">
                    if !notes.is_empty() {
                        <ul class="notes" role="status">
                            { for notes.iter().map(|n| html! { <li>{ &n.message }</li> }) }
                        </ul>
                    }
                    <HerdCanvas chart={(*chart).clone()} label={summary} />
                    <label class="toggle scale"><input type="checkbox" checked={*log_y} onchange={toggle_log} />{ " Eje vertical logarítmico (para ver la llovizna junto a la ola)" }</label>
                    <table class="figures" aria-live="polite">
                        <thead>
                            <tr><th></th>{ for columns.iter().map(|(l, _)| html! { <th scope="col">{ *l }</th> }) }</tr>
                        </thead>
                        <tbody>
                            { figure_row("atendidos", &|r| r.served as u64, "served") }
                            { figure_row("se rinden", &|r| r.gave_up as u64, "gave_up") }
                            { figure_row(&format!("pico por ventana de {} ms", p.window_ms), &|r| r.peak as u64, "peak") }
                            { figure_row("intentos", &|r| r.attempts, "attempts") }
                        </tbody>
                    </table>
                    <p class="cli"><span>{ "En la terminal: " }</span><code>{ command_line(&p) }</code></p>
                </div>
            </div>
        </figure>
    }
}
