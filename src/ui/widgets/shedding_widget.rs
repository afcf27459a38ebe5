//! Load shedding, live: an unbounded queue against a server that sheds.

use crate::chart::shedding::SheddingChart;
use crate::chart::Chart;
use crate::fmt::{es_int, es_percent};
use crate::sim::shedding::{kind_share_text, simulate, SheddingParams};
use crate::ui::canvas::chart_canvas::ChartCanvas;
use crate::ui::hooks::use_params::use_params;
use crate::ui::widgets::controls::{command_line, controls, notes, run_notes};
use crate::ui::widgets::figures::{figures, row};
use crate::ui::widgets::widget_frame::WidgetFrame;
use std::rc::Rc;
use yew::prelude::*;

#[component]
pub fn SheddingWidget() -> Html {
    let h = use_params::<SheddingParams>("shedding");
    let p = h.params.clone();
    let run = use_memo(p.clone(), simulate);
    let r2 = run.clone();
    let chart = use_memo(p.clone(), move |p| {
        Rc::new(Chart::Shedding(SheddingChart::new(&r2, p.deadline_ms)))
    });
    let (u, s) = (&run.unbounded, &run.shedding);
    let ms = |v: f64| format!("{} ms", es_int(v.round() as i64));
    let last = |x: &crate::sim::shedding::ServerRun| x.seconds.last().map_or(0, |s| s.goodput);
    let rows = vec![
        row(
            "a tiempo (goodput)",
            "goodput",
            vec![es_percent(u.goodput_share, 0), es_percent(s.goodput_share, 0)],
        ),
        row(
            "goodput en el último segundo",
            "last_goodput",
            vec![format!("{} /s", last(u)), format!("{} /s", last(s))],
        ),
        row(
            "respuestas tarde (para nadie)",
            "late",
            vec![es_int(u.late as i64), es_int(s.late as i64)],
        ),
        row(
            "503 al instante",
            "rejected",
            vec![es_int(u.rejected as i64), es_int(s.rejected as i64)],
        ),
        row(
            "sin respuesta al terminar",
            "unfinished",
            vec![es_int(u.unfinished as i64), es_int(s.unfinished as i64)],
        ),
        row(
            "latencia de las últimas respuestas",
            "final_latency",
            vec![ms(u.final_latency_ms), ms(s.final_latency_ms)],
        ),
        row(
            "interactivas a tiempo",
            "interactive",
            vec![
                kind_share_text(u.interactive_goodput_share),
                kind_share_text(s.interactive_goodput_share),
            ],
        ),
        row(
            "batch a tiempo",
            "batch",
            vec![
                kind_share_text(u.batch_goodput_share),
                kind_share_text(s.batch_goodput_share),
            ],
        ),
    ];
    let head = vec!["fila sin tope".to_string(), "con load shedding".to_string()];
    let over = crate::sim::shedding::over_capacity(&p, &run);
    let verdict = crate::sim::shedding::verdict(&p, &run);
    let label = format!(
        "Goodput: {} a tiempo con la fila sin tope y {} con load shedding. Última latencia: {} y {}.",
        es_percent(u.goodput_share, 0),
        es_percent(s.goodput_share, 0),
        ms(u.final_latency_ms),
        ms(s.final_latency_ms)
    );
    html! {
        <WidgetFrame id="shedding" subtitle=": rechazar rápido contra encolar sin límite">
            { controls(&h, None) }
            <div class="results">
                { notes(&h) }
                <p class={if over { "verdict warn" } else { "verdict ok" }} role="status">{ verdict }</p>
                { run_notes(&run.notes()) }
                <ChartCanvas chart={(*chart).clone()} label={label} height={380} />
                { figures(&head, rows) }
                { command_line(&h) }
            </div>
        </WidgetFrame>
    }
}
