//! Degradation, measured: fallback answers counted by reason, their share
//! over a window, and the alert; or, without the metric, the silence.

use crate::chart::palette;
use crate::chart::simple::Lines;
use crate::sim::degradation::{run, verdict, DegradationParams, Reason};
use crate::ui::canvas::chart_canvas::{plot, ChartCanvas};
use crate::ui::hooks::use_params::use_params;
use crate::ui::widgets::controls::{command_line, controls, more_controls, notes};
use crate::ui::widgets::figures::{figures, row};
use crate::ui::widgets::widget_frame::WidgetFrame;
use std::rc::Rc;
use yew::prelude::*;

#[component]
pub fn DegradationWidget() -> Html {
    let h = use_params::<DegradationParams>("degradation");
    let p = h.params.clone();
    let r = use_memo(p.clone(), run);
    let r2 = r.clone();
    let chart = use_memo(p.clone(), move |p| {
        let colors = [palette::CONTRAST, palette::PRIMARY, palette::OK];
        let mut series: Vec<_> = Reason::ALL
            .iter()
            .enumerate()
            .map(|(i, reason)| {
                (
                    format!("plan B por {}", reason.label()),
                    colors[i],
                    r2.minutes
                        .iter()
                        .map(|m| (m.minute as f64, m.fallbacks[i] / m.requests))
                        .collect::<Vec<_>>(),
                )
            })
            .collect();
        series.push((
            format!("todo el plan B, últimos {} min", p.window_min),
            palette::LIMIT,
            r2.minutes.iter().map(|m| (m.minute as f64, m.window_share)).collect(),
        ));
        if r2.errors > 0.0 {
            series.push((
                "errores: el plan B también falló".into(),
                palette::ZOMBIE,
                r2.minutes
                    .iter()
                    .map(|m| (m.minute as f64, m.errors / m.requests))
                    .collect(),
            ));
        }
        Rc::new(Lines {
            playhead: None,
            ghost: None,
            x_desc: "minuto".into(),
            y_desc: "parte de las requests".into(),
            series,
            x_percent: false,
            y_percent: true,
            marker: r2.alert_at_min.map(|m| m as f64),
            threshold: Some((p.alert_pct as f64 / 100.0, format!("alerta: {} %", p.alert_pct))),
        })
    });
    let metric = p.metric.is_on();
    let rows: Vec<_> = crate::sim::degradation::reason_rows(&p, &r)
        .into_iter()
        .map(|(label, value)| row(label, "fallbacks", vec![value]))
        .collect();
    let class = match (metric, r.alert_at_min) {
        (true, Some(_)) => "warn",
        (true, None) => "ok",
        (false, _) => "bad",
    };
    let sentence = crate::text::upper_first(&verdict(&r, &p));
    html! {
        <WidgetFrame id="degradation" subtitle=": contar cada plan B por motivo">
            <div>
                { controls(&h, Some(&["incident", "incident-pct", "incident-min", "metric", "alert-pct", "shared-dependency"])) }
                { more_controls(&h, &["rps", "timeout-permille", "unavailable-permille", "invalid-permille", "incident-at-min", "window-min", "duration-min"]) }
            </div>
            <div class="results">
                { notes(&h) }
                <p class={classes!("verdict", class)} role="status" data-figure="verdict">{ sentence }{ "." }</p>
                { crate::ui::widgets::controls::run_notes(&crate::sim::degradation::notes(&p)) }
                if metric {
                    <ChartCanvas chart={plot((*chart).clone())} label={format!("Respuestas de plan B por minuto, por motivo. {}", verdict(&r, &p))} height={260} />
                } else {
                    <div class="dashboard" data-figure="dashboard">
                        <span class="big">{ crate::sim::degradation::dashboard(&r) }</span>
                        <span>{ "de respuestas 200 en el tablero" }</span>
                    </div>
                }
                { figures(&[], rows) }
                { command_line(&h) }
            </div>
        </WidgetFrame>
    }
}
