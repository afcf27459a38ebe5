//! Each layer multiplies: the attempts that reach each piece of the chain.

use crate::chart::palette;
use crate::chart::simple::Bars;
use crate::fmt::es_dec;
use crate::sim::retries::{layers, LayersParams};
use crate::ui::canvas::chart_canvas::{plot, ChartCanvas};
use crate::ui::hooks::use_params::use_params;
use crate::ui::widgets::controls::{command_line, controls, notes};
use crate::ui::widgets::widget_frame::WidgetFrame;
use std::rc::Rc;
use yew::prelude::*;

/// The pieces of the lesson's chain, top to bottom; deeper chains get numbers.
pub fn piece_names(n: usize) -> Vec<String> {
    let named = ["la app", "la API", "el servicio", "el servidor del modelo"];
    if n + 1 == named.len() {
        return named.iter().map(|s| s.to_string()).collect();
    }
    (0..=n)
        .map(|k| {
            if k == 0 {
                "arriba".to_string()
            } else if k == n {
                "el fondo".to_string()
            } else {
                format!("capa {}", k + 1)
            }
        })
        .collect()
}

#[component]
pub fn LayersWidget() -> Html {
    let h = use_params::<LayersParams>("layers");
    let p = h.params.clone();
    let r = use_memo(p.clone(), layers);
    let names = piece_names(p.layers as usize);
    let r2 = r.clone();
    let n2 = names.clone();
    let chart = use_memo(p.clone(), move |_| {
        Rc::new(Bars {
            labels: n2
                .iter()
                .map(|n| n.replace("el servidor del modelo", "el modelo"))
                .collect(),
            series: vec![("intentos por request".into(), palette::CONTRAST, r2.reaching.clone())],
            y_desc: "intentos que llegan".into(),
            values: true,
        })
    });
    let bottom = *r.reaching.last().unwrap_or(&1.0);
    let formula = r.factors.iter().map(|f| es_dec(*f, 2)).collect::<Vec<_>>().join(" × ");
    html! {
        <WidgetFrame id="layers">
            { controls(&h, None) }
            <div class="results">
                { notes(&h) }
                <p class={if bottom > 2.0 { "verdict bad" } else { "verdict ok" }} role="status" data-figure="bottom">
                    { format!("Al fondo llegan {}{} {} por request: {} por segundo.",
                        // One factor is its own product: no «4 = 4».
                        if r.factors.len() > 1 { format!("{formula} = ") } else { String::new() },
                        es_dec(bottom, 2), if bottom == 1.0 { "intento" } else { "intentos" }, es_dec(bottom * p.rps as f64, 0)) }
                </p>
                <ChartCanvas chart={plot((*chart).clone())} label={format!("Intentos por request en cada pieza: {}.", r.reaching.iter().map(|x| es_dec(*x, 2)).collect::<Vec<_>>().join(", "))} height={260} />
                <table class="figures">
                    <thead><tr><th scope="col">{ "pieza" }</th><th scope="col">{ "intentos por request" }</th><th scope="col">{ "por segundo" }</th></tr></thead>
                    <tbody>
                        { for names.iter().zip(r.reaching.iter().zip(&r.per_second)).map(|(n, (a, s))| html! {
                            <tr><th scope="row">{ n }</th><td data-figure="reaching">{ es_dec(*a, 2) }</td><td>{ es_dec(*s, 0) }</td></tr>
                        }) }
                    </tbody>
                </table>
                { command_line(&h) }
            </div>
        </WidgetFrame>
    }
}
