//! The retry storm, live: layers that retry, a server of fixed capacity and
//! a trigger; does the overload outlive it? And where does it tip?

use super::chart_canvas::ChartCanvas;
use super::controls::{command_line, controls, more_controls, notes};
use super::figures::{figures, row};
use super::use_params::use_params;
use super::widget_frame::WidgetFrame;
use crate::chart::storm::{legend, StormChart};
use crate::chart::Chart;
use crate::fmt::{es_dec, es_int};
use crate::sim::storm::{simulate, tipping_point, verdict, StormParams};
use std::rc::Rc;
use yew::prelude::*;

#[component]
pub fn StormWidget() -> Html {
    let h = use_params::<StormParams>("storm");
    let p = h.params.clone();
    let run = use_memo(p.clone(), simulate);
    let r2 = run.clone();
    let chart = use_memo(p.clone(), move |p| {
        Rc::new(Chart::Storm(StormChart::new(&r2, p.capacity, p.breaker.is_on())))
    });
    // The tipping point is a search (a dozen runs): only on request, and
    // forgotten as soon as a parameter changes.
    let tip = use_state(|| None::<(StormParams, Option<u32>)>);
    let find = {
        let tip = tip.clone();
        let p = p.clone();
        Callback::from(move |_: MouseEvent| tip.set(Some((p.clone(), tipping_point(&p)))))
    };
    let r = &*run;
    let ok = r.recovered();
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
        Some((q, t)) if *q == p => Some(match t {
            Some(0) => "Con estos números no se recupera ni sin disparador: la carga normal ya lo satura.".to_string(),
            Some(ms) => format!(
                "Punto de quiebre: con un disparador de {} s o más, la sobrecarga ya no se apaga sola.",
                es_dec(*ms as f64 / 1000.0, 1)
            ),
            None => "Se recupera aun con un disparador de 60 s: con estos números no hay punto de quiebre.".to_string(),
        }),
        _ => None,
    };
    let label = format!(
        "Requests nuevas, intentos que llegan al servidor y respuestas a tiempo por segundo, con la capacidad y el disparador marcados. {}.",
        verdict(r)
    );
    html! {
        <WidgetFrame id="storm" title="Tormenta de reintentos: ¿se apaga sola?">
            <div>
                { controls(&h, Some(&["rps", "capacity", "layers", "retries", "retry-in", "budget-pct", "breaker", "trigger", "trigger-ms"])) }
                { more_controls(&h, &["trigger-at-s", "spike-pct", "timeout-ms", "base-ms", "breaker-open-s", "duration-s", "seed"]) }
            </div>
            <div class="results">
                { notes(&h) }
                <p class={classes!("verdict", if ok { "ok" } else { "bad" })} role="status" data-figure="verdict">
                    { crate::text::upper_first(&verdict(r)) }{ "." }
                </p>
                <ChartCanvas chart={(*chart).clone()} label={label} height={360}>
                    { chart_key(&legend(match &**chart { Chart::Storm(c) => c, _ => unreachable!() })) }
                </ChartCanvas>
                { figures(&[], rows) }
                if r.truncated {
                    <p class="aside">{ format!("La corrida se detuvo en {} intentos, el tope de trabajo de esta simulación.", es_int(crate::sim::storm::MAX_ATTEMPTS as i64)) }</p>
                }
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
