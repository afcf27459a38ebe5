//! The retry budget: wanted against allowed, and the extra load as the
//! failing share grows, with and without the budget, and gRPC's token bucket.

use crate::chart::palette;
use crate::chart::simple::Lines;
use crate::sim::retries::{budget, BudgetParams};
use crate::ui::canvas::chart_canvas::{plot, ChartCanvas};
use crate::ui::hooks::use_params::use_params;
use crate::ui::widgets::controls::{command_line, controls, notes};
use crate::ui::widgets::widget_frame::WidgetFrame;
use std::rc::Rc;
use yew::prelude::*;

#[component]
pub fn BudgetWidget() -> Html {
    let h = use_params::<BudgetParams>("budget");
    let p = h.params.clone();
    let r = use_memo(p.clone(), budget);
    let r2 = r.clone();
    let chart = use_memo(p.clone(), move |p| {
        let pick = |f: fn(&(f64, f64, f64, f64)) -> f64| r2.curve.iter().map(|c| (c.0, f(c))).collect::<Vec<_>>();
        Rc::new(Lines {
            playhead: None,
            ghost: None,
            x_desc: "intentos que fallan".into(),
            y_desc: "carga extra (reintentos / requests)".into(),
            series: vec![
                ("sin presupuesto".into(), palette::CONTRAST, pick(|c| c.1)),
                (
                    format!("presupuesto de {} %", p.budget_pct),
                    palette::PRIMARY,
                    pick(|c| c.2),
                ),
                ("cubeta de fichas (gRPC)".into(), palette::OK, pick(|c| c.3)),
            ],
            x_percent: true,
            y_percent: true,
            threshold: None,
            marker: Some(p.failing_pct as f64 / 100.0),
        })
    });
    html! {
        <WidgetFrame id="budget">
            { controls(&h, None) }
            <div class="results">
                { notes(&h) }
                <p class="verdict warn" role="status" data-figure="wanted">
                    { crate::sim::retries::budget_sentence(&p, &r) }
                </p>
                <ChartCanvas chart={plot((*chart).clone())} label={"Carga extra según la parte que falla: sin presupuesto crece hasta multiplicar la carga; con presupuesto se queda en su tope.".to_string()} height={280} />
                <p class="aside" data-figure="here">{ crate::sim::retries::extra_sentence(&r) }</p>
                { command_line(&h) }
            </div>
        </WidgetFrame>
    }
}
