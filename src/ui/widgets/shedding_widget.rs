//! Load shedding, live: an unbounded queue against a server that sheds.

use crate::chart::shedding::SheddingChart;
use crate::fmt::{es_int, es_percent};
use crate::sim::playback::say;
use crate::sim::shedding::{kind_share_text, simulate, ServerSoFar, SheddingParams};
use crate::ui::canvas::chart_canvas::{plot, ChartCanvas};
use crate::ui::hooks::use_moment::{past_end, use_played, Moment, Played};
use crate::ui::hooks::use_params::use_params;
use crate::ui::widgets::controls::{command_line_at, controls, notes, run_notes};
use crate::ui::widgets::figures::{figures, row};
use crate::ui::widgets::player::Player;
use crate::ui::widgets::widget_frame::WidgetFrame;
use std::rc::Rc;
use yew::prelude::*;

#[component]
pub fn SheddingWidget() -> Html {
    let h = use_params::<SheddingParams>("shedding");
    let p = h.params.clone();
    // The run does not depend on the moment shown.
    let run_p = SheddingParams {
        t_ms: None,
        ..p.clone()
    };
    let Played {
        run,
        span,
        end,
        moment: Moment {
            t: moment,
            on_frame,
            on_keep,
        },
    } = use_played(&h.state, &run_p, p.t_ms, simulate, |r, _| r.span());
    let now = moment.map(|t| run.at(t));
    let r2 = run.clone();
    let chart = use_memo((run_p.clone(), moment.map(f64::to_bits)), move |(p, _)| {
        let c = SheddingChart::new(&r2, p.deadline_ms);
        Rc::new(match now {
            Some(m) => c.so_far(m.seconds, m.t_ms / 1000.0),
            None => c,
        })
    });
    let (u, s) = (&run.unbounded, &run.shedding);
    let ms = |v: f64| format!("{} ms", es_int(v.round() as i64));
    let last = |x: &crate::sim::shedding::ServerRun| x.seconds.last().map_or(0, |s| s.goodput);
    // At a moment: both servers so far, then the whole run's figures.
    let mut rows = match now {
        Some(m) => {
            let both = |f: fn(&ServerSoFar) -> u64| vec![es_int(f(&m.unbounded) as i64), es_int(f(&m.shedding) as i64)];
            vec![
                row(
                    format!("a los {}, a tiempo", say(m.t_ms)),
                    "goodput-so-far",
                    both(|s| s.goodput),
                ),
                row("tarde (para nadie)", "late-so-far", both(|s| s.late)),
                row("503 al instante", "rejected-so-far", both(|s| s.rejected)),
                row("fila en ese segundo", "queue", both(|s| s.queue as u64)),
            ]
        }
        None => Vec::new(),
    };
    rows.extend([
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
    ]);
    let head = vec!["fila sin tope".to_string(), "con load shedding".to_string()];
    let over = crate::sim::shedding::over_capacity(&p, &run);
    let verdict = crate::sim::shedding::verdict(&p, &run);
    let label = format!(
        "{}Goodput: {} a tiempo con la fila sin tope y {} con load shedding. Última latencia: {} y {}.",
        now.map_or(String::new(), |m| format!("{}. ", crate::text::upper_first(&m.line()))),
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
                { past_end(p.t_ms, end, say) }
                <p class={if over { "verdict warn" } else { "verdict ok" }} role="status">{ verdict }</p>
                { run_notes(&run.notes()) }
                <ChartCanvas chart={plot((*chart).clone())} label={label} height={380} />
                <Player id="shedding" run={span.clone()} t_ms={moment} {on_frame} {on_keep} announce={now.map(|m| AttrValue::from(crate::text::upper_first(&m.line())))} />
                { figures(&head, rows) }
                { command_line_at(&h, moment) }
            </div>
        </WidgetFrame>
    }
}
