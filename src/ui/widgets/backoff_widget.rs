//! The backoff calculator: the wait before each retry, its maximum and mean.

use crate::chart::palette;
use crate::chart::simple::Bars;
use crate::fmt::es_dec;
use crate::sim::retries::{backoff, BackoffParams};
use crate::ui::canvas::chart_canvas::{plot, ChartCanvas};
use crate::ui::hooks::use_params::use_params;
use crate::ui::widgets::controls::{command_line, controls, notes};
use crate::ui::widgets::widget_frame::WidgetFrame;
use std::rc::Rc;
use yew::prelude::*;

#[component]
pub fn BackoffWidget() -> Html {
    let h = use_params::<BackoffParams>("backoff");
    let p = h.params.clone();
    let table = use_memo(p.clone(), backoff);
    let t2 = table.clone();
    let chart = use_memo(p.clone(), move |_| {
        Rc::new(Bars {
            labels: t2.rows.iter().map(|r| format!("#{}", r.retry)).collect(),
            series: vec![
                (
                    "espera máxima".into(),
                    palette::CONTRAST,
                    t2.rows.iter().map(|r| r.max_ms).collect(),
                ),
                (
                    "espera promedio".into(),
                    palette::PRIMARY,
                    t2.rows.iter().map(|r| r.mean_ms).collect(),
                ),
            ],
            y_desc: "espera antes del reintento (ms)".into(),
            values: false,
        })
    });
    let ms = |v: f64| format!("{} ms", es_dec(v, 1));
    let label = format!(
        "Espera total: como máximo {} y en promedio {}.",
        ms(table.total_max_ms),
        ms(table.total_mean_ms)
    );
    html! {
        <WidgetFrame id="backoff">
            { controls(&h, None) }
            <div class="results">
                { notes(&h) }
                <ChartCanvas chart={plot((*chart).clone())} label={label} height={260} />
                <div class="table-wrap">
                <table class="figures" aria-live="polite">
                    <thead><tr><th scope="col">{ "reintento" }</th><th scope="col">{ "máxima" }</th><th scope="col">{ "promedio" }</th><th scope="col">{ "rango" }</th></tr></thead>
                    <tbody>
                        { for table.rows.iter().map(|r| html! {
                            <tr>
                                <th scope="row">{ r.retry }</th>
                                <td data-figure="max">{ ms(r.max_ms) }
                                    if r.uncapped_ms > r.max_ms { <span class="cut">{ format!(" (daría {}, pero el tope lo recorta)", ms(r.uncapped_ms)) }</span> }
                                </td>
                                <td data-figure="mean">{ ms(r.mean_ms) }</td>
                                <td>{ format!("{} a {}", es_dec(r.min_ms, 1), ms(r.max_ms)) }</td>
                            </tr>
                        }) }
                        <tr class="total">
                            <th scope="row">{ "total" }</th>
                            <td data-figure="total_max">{ ms(table.total_max_ms) }</td>
                            <td data-figure="total_mean">{ ms(table.total_mean_ms) }</td>
                            <td></td>
                        </tr>
                    </tbody>
                </table>
                </div>
                { command_line(&h) }
            </div>
        </WidgetFrame>
    }
}
