//! C01's chain and the zombie work, live.

use crate::chart::Chart;
use crate::fmt::es_int;
use crate::sim::chain::{run, ChainParams, Tone};
use crate::ui::canvas::chart_canvas::ChartCanvas;
use crate::ui::hooks::use_params::use_params;
use crate::ui::widgets::controls::{command_line, controls, notes};
use crate::ui::widgets::figures::{figures, row};
use crate::ui::widgets::widget_frame::WidgetFrame;
use std::rc::Rc;
use yew::prelude::*;

#[component]
pub fn ChainWidget() -> Html {
    let h = use_params::<ChainParams>("chain");
    let p = h.params.clone();
    let result = use_memo(p.clone(), run);
    let r = result.clone();
    let chart = use_memo(p.clone(), move |p| {
        Rc::new(Chart::Timeline(crate::chart::chain::timeline(p, &r)))
    });
    let said = crate::sim::chain::said(&p, &result);
    let class = match said.tone {
        Tone::Ok => "verdict ok",
        Tone::Warn => "verdict warn",
        Tone::Bad => "verdict bad",
    };
    let rows = said
        .rows
        .iter()
        .map(|(label, key, value)| row(*label, key, vec![value.clone()]))
        .collect();
    let label = format!(
        "{} Se rinde primero: {}. Trabajo zombi: {} ms.",
        said.verdict,
        said.first,
        es_int(said.zombie_ms as i64)
    );
    html! {
        <WidgetFrame id="chain" subtitle=": 300 → 250 → 150 → 100 ms">
            { controls(&h, None) }
            <div class="results">
                { notes(&h) }
                if let Some(warning) = said.warning {
                    <p class="verdict bad" role="alert">{ warning }</p>
                }
                <p class={class} role="status">{ said.verdict }</p>
                <ChartCanvas chart={(*chart).clone()} label={label} height={250} />
                { figures(&[], rows) }
                { command_line(&h) }
            </div>
        </WidgetFrame>
    }
}
