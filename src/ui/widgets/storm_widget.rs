//! The retry storm, live: layers that retry, a server of fixed capacity and
//! a trigger; does the overload outlive it? And where does it tip?

use crate::chart::storm::{legend, StormChart};
use crate::chart::Chart;
use crate::fmt::{es_dec, es_int};
use crate::sim::storm::{assess, simulate, tipping_point, tipping_sentence, verdict, Outcome, StormParams, Tipping};
use crate::ui::canvas::chart_canvas::ChartCanvas;
use crate::ui::hooks::use_params::use_params;
use crate::ui::widgets::controls::{command_line, controls, more_controls, notes, run_notes};
use crate::ui::widgets::figures::{figures, row};
use crate::ui::widgets::widget_frame::WidgetFrame;
use std::rc::Rc;
use yew::prelude::*;

#[component]
pub fn StormWidget() -> Html {
    let h = use_params::<StormParams>("storm");
    let p = h.params.clone();
    let run = use_memo(p.clone(), |p| {
        let r = simulate(p);
        let o = assess(p, &r);
        (r, o)
    });
    let r2 = run.clone();
    let chart = use_memo(p.clone(), move |p| {
        Rc::new(Chart::Storm(StormChart::new(&r2.0, p.capacity, p.breaker.is_on())))
    });
    // The tipping point is a search (a dozen runs): only on request, and
    // forgotten as soon as a parameter changes.
    let tip = use_state(|| None::<(StormParams, Tipping)>);
    let find = {
        let tip = tip.clone();
        let p = p.clone();
        Callback::from(move |_: MouseEvent| tip.set(Some((p.clone(), tipping_point(&p)))))
    };
    let (r, outcome) = (&run.0, run.1);
    // Green when it recovers, red when it does not, amber when the run cannot tell.
    let tone = match outcome {
        Outcome::Recovered { .. } => "ok",
        Outcome::Metastable | Outcome::Overloaded => "bad",
        _ => "warn",
    };
    let rows = vec![
        row("requests nuevas", "requests", vec![es_int(r.requests as i64)]),
        row(
            "intentos al servidor",
            "attempts",
            vec![format!(
                "{} ({} por request)",
                es_int(r.attempts as i64),
                es_dec(r.amplification, 1)
            )],
        ),
        row("contestadas a tiempo", "succeeded", vec![es_int(r.succeeded as i64)]),
    ];
    let tip_text = match &*tip {
        Some((q, t)) if *q == p => Some(format!("Punto de quiebre: {}.", tipping_sentence(*t))),
        _ => None,
    };
    let mut run_note_list = r.notes();
    if let Some((q, Tipping::Unknown { trigger_ms, cut: true })) = &*tip {
        if *q == p {
            run_note_list.push(crate::sim::storm::tipping_unknown_note(*trigger_ms));
        }
    }
    let label = format!(
        "Requests nuevas, intentos que llegan al servidor y respuestas a tiempo por segundo, con la capacidad y el disparador marcados. {}.",
        verdict(r, outcome)
    );
    html! {
        <WidgetFrame id="storm" subtitle=": ¿se apaga sola?">
            <div>
                { controls(&h, Some(&["rps", "capacity", "layers", "retries", "retry-in", "budget-pct", "breaker", "trigger", "trigger-ms"])) }
                { more_controls(&h, &["trigger-at-s", "spike-pct", "timeout-ms", "base-ms", "breaker-open-s", "duration-s", "seed"]) }
            </div>
            <div class="results">
                { notes(&h) }
                <p class={classes!("verdict", tone)} role="status" data-figure="verdict">
                    { crate::text::upper_first(&verdict(r, outcome)) }{ "." }
                </p>
                { run_notes(&run_note_list) }
                <ChartCanvas chart={(*chart).clone()} label={label} height={360}>
                    { chart_key(&legend(match &**chart { Chart::Storm(c) => c, _ => unreachable!() })) }
                </ChartCanvas>
                { figures(&[], rows) }
                <p class="tipping">
                    <button type="button" class="reset" onclick={find}>{ "Buscar el punto de quiebre" }</button>
                    if let Some(t) = tip_text {
                        <span data-figure="tipping">{ t }</span>
                    }
                </p>
                { command_line(&h) }
            </div>
        </WidgetFrame>
    }
}

/// The chart's key under the canvas.
fn chart_key(items: &[(String, String, bool)]) -> Html {
    html! {
        <ul class="chart-key" aria-hidden="true">
            { for items.iter().map(|(label, color, dashed)| html! {
                // An SVG line, coloured by attribute: no inline style (the page's CSP forbids them).
                <li>
                    <svg class="swatch" viewBox="0 0 18 6" width="18" height="6">
                        <line x1="0" y1="3" x2="18" y2="3" stroke={color.clone()} stroke-width="4"
                            stroke-dasharray={dashed.then_some("5 3")} />
                    </svg>
                    { label }
                </li>
            }) }
        </ul>
    }
}
