//! Three clocks in one call, live: which one fires and when, or that none does.

use crate::chart::Chart;
use crate::sim::clocks::{run, ClocksParams, Outcome};
use crate::ui::canvas::chart_canvas::ChartCanvas;
use crate::ui::hooks::use_params::use_params;
use crate::ui::widgets::controls::{command_line, controls, notes};
use crate::ui::widgets::widget_frame::WidgetFrame;
use std::rc::Rc;
use yew::prelude::*;

#[component]
pub fn ClocksWidget() -> Html {
    let h = use_params::<ClocksParams>("clocks");
    let p = h.params.clone();
    let result = use_memo(p.clone(), run);
    let r = result.clone();
    let chart = use_memo(p.clone(), move |p| {
        Rc::new(Chart::Timeline(crate::chart::clocks::timeline(p, &r)))
    });
    let sentence = result.outcome.sentence();
    let class = match result.outcome {
        Outcome::Completed { .. } => "verdict ok",
        Outcome::NeverEnds => "verdict bad",
        _ => "verdict warn",
    };
    let received = crate::sim::clocks::received_text(&result);
    html! {
        <WidgetFrame id="clocks" subtitle=": ¿cuál se dispara?">
            { controls(&h, None) }
            <div class="results">
                { notes(&h) }
                <p class={class} role="status" data-outcome={outcome_key(&result.outcome)}>{ sentence.clone() }</p>
                <ChartCanvas chart={(*chart).clone()} label={format!("{sentence} {received}")} height={220} />
                <p class="aside">{ received }</p>
                { command_line(&h) }
            </div>
        </WidgetFrame>
    }
}

fn outcome_key(o: &Outcome) -> &'static str {
    match o {
        Outcome::Completed { .. } => "completed",
        Outcome::ConnectTimeout { .. } => "connect_timeout",
        Outcome::ReadTimeout { .. } => "read_timeout",
        Outcome::TotalTimeout { .. } => "total_timeout",
        Outcome::NeverEnds => "never_ends",
    }
}
