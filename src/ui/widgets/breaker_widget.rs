//! The circuit breaker, live: its state, the calls and the fallbacks over time.

use crate::chart::palette;
use crate::chart::simple::Lines;
use crate::chart::Chart;
use crate::sim::breaker::{simulate, BreakerParams};
use crate::ui::canvas::chart_canvas::ChartCanvas;
use crate::ui::hooks::use_params::use_params;
use crate::ui::widgets::controls::{command_line, controls, notes};
use crate::ui::widgets::figures::{figures, row};
use crate::ui::widgets::widget_frame::WidgetFrame;
use std::rc::Rc;
use yew::prelude::*;

pub use crate::sim::breaker::clock;

#[component]
pub fn BreakerWidget() -> Html {
    let h = use_params::<BreakerParams>("breaker");
    let p = h.params.clone();
    let run = use_memo(p.clone(), simulate);
    let r2 = run.clone();
    let chart = use_memo(p.clone(), move |_| {
        let pick = |f: fn(&crate::sim::breaker::Second) -> u32| {
            r2.seconds.iter().map(|s| (s.t as f64, f(s) as f64)).collect::<Vec<_>>()
        };
        Rc::new(Chart::Lines(Lines {
            x_desc: "segundos desde las 12:00:00".into(),
            y_desc: "requests por segundo".into(),
            series: vec![
                ("esperan su timeout".into(), palette::ZOMBIE, pick(|s| s.timeouts)),
                ("plan B al instante".into(), palette::OK, pick(|s| s.fallbacks)),
                ("llegan a Triton".into(), palette::PRIMARY, pick(|s| s.calls)),
            ],
            x_percent: false,
            y_percent: false,
            threshold: None,
            marker: Some(0.0),
        }))
    });
    let r = &*run;
    let keys = ["opened", "waited", "fallbacks"];
    let rows = crate::sim::breaker::figures(&p, r)
        .into_iter()
        .zip(keys)
        .map(|((label, value), key)| row(&label, key, vec![value]))
        .collect::<Vec<_>>();
    let shown = 8;
    html! {
        <WidgetFrame id="breaker" subtitle=": Triton se cae a las 12:00:00">
            { controls(&h, None) }
            <div class="results">
                { notes(&h) }
                <ChartCanvas chart={(*chart).clone()} label={format!("Cambios de estado: {}.", r.transitions.iter().map(|(t, s)| format!("{} a las {}", s.label(), clock(*t))).collect::<Vec<_>>().join(", "))} height={280} />
                { figures(&[], rows) }
                <ol class="transitions" data-figure="transitions">
                    { for r.transitions.iter().take(shown).map(|(t, s)| html! { <li>{ format!("{}: {}", clock(*t), s.label()) }</li> }) }
                </ol>
                if r.transitions.len() > shown {
                    <p class="aside">{ format!("… y {} más hasta el final.", crate::fmt::es_count((r.transitions.len() - shown) as i64, "cambio de estado", "cambios de estado")) }</p>
                }
                { command_line(&h) }
            </div>
        </WidgetFrame>
    }
}
