//! What waiting too long costs, live: Little's law against MAX_INFLIGHT,
//! the formula beside a simulation of one pod.

use crate::chart::inflight::InflightChart;
use crate::fmt::{es_dec, es_int, es_percent};
use crate::sim::inflight::{formula, memory_label, simulate, verdict, InflightParams};
use crate::sim::playback::say;
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
pub fn InflightWidget() -> Html {
    let h = use_params::<InflightParams>("inflight");
    let p = h.params.clone();
    // The run does not depend on the moment shown.
    let run_p = InflightParams {
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
    } = use_played(
        &h.state,
        &run_p,
        p.t_ms,
        |p| (formula(p), simulate(p)),
        |r, _| r.1.span(),
    );
    let now = moment.map(|t| run.1.at(t));
    let r = run.clone();
    let chart = use_memo((run_p.clone(), moment.map(f64::to_bits)), move |(p, _)| {
        let c = InflightChart::new(&r.1, &r.0, p.max_inflight);
        Rc::new(match now {
            Some(m) => c.so_far(m.points, m.t_ms / 1000.0),
            None => c,
        })
    });
    let (f, s) = (&run.0, &run.1);
    let cap = p
        .max_inflight
        .map_or("(sin tope)".to_string(), |c| format!("contra {}", es_int(c as i64)));
    let service = crate::sim::inflight::service_text(&p, f);
    let mut run_note_list = s.notes();
    run_note_list.extend(crate::sim::inflight::formula_notes(&p, f, s));
    let memory = memory_label(p.pod_memory_mib);
    // At a moment: the pod so far, then the formula's and the whole run's figures.
    let mut rows = match now {
        Some(m) => vec![
            row(
                format!("a los {}, en vuelo (lo más en el último tramo)", say(m.t_ms)),
                "inflight-now",
                vec![es_int(m.inflight as i64)],
            ),
            row("hasta ahí, atendidas", "served-so-far", vec![es_int(m.served as i64)]),
            row("hasta ahí, con 503", "rejected-so-far", vec![es_int(m.rejected as i64)]),
        ],
        None => Vec::new(),
    };
    rows.extend([
        row(
            "en vuelo hacia Triton, todo el servicio",
            "service_inflight",
            vec![service],
        ),
        row(
            "llegan a cada pod",
            "pod_rate",
            vec![format!("{} por segundo", crate::fmt::es_num(f.pod_rate))],
        ),
        row(
            "cada request dura",
            "duration",
            vec![format!("{} ms", es_int((f.duration_s * 1000.0).round() as i64))],
        ),
        row(
            "en vuelo por pod (Little)",
            "pod_demand",
            vec![format!("{} {cap}", crate::fmt::es_num(f.pod_demand))],
        ),
        row(
            "reciben un 503",
            "rejected",
            vec![format!("≈ {}", es_percent(f.rejected_share, 0))],
        ),
        row(
            "se atienden por pod",
            "served_per_s",
            vec![format!("≈ {} por segundo", crate::fmt::es_approx(f.served_per_s))],
        ),
        row(
            "fotos en memoria por pod",
            "photos",
            vec![format!("{} MB de {memory}", crate::fmt::es_approx(f.photos_mb))],
        ),
        row(
            "simulación: rechazadas con 503",
            "sim_rejected",
            vec![format!(
                "{} de {}",
                es_int(s.rejected as i64),
                es_int(s.arrivals as i64)
            )],
        ),
        row(
            "simulación: 503 en régimen",
            "sim_rejected_share",
            vec![s
                .rejected_share
                .map_or("sin régimen estable".to_string(), |x| es_percent(x, 1))],
        ),
        row(
            "simulación: en vuelo en promedio",
            "sim_inflight",
            vec![s
                .mean_inflight
                .map_or("sin régimen estable".to_string(), |x| es_dec(x, 1))],
        ),
    ]);
    let verdict = match verdict(&p, f) {
        (true, text) => ("verdict ok", text),
        (false, text) => ("verdict bad", text),
    };
    let label = format!(
        "{}En vuelo en un pod durante {} s: máximo {}, en promedio {}. Harían falta {}; {}.",
        now.map_or(String::new(), |m| format!("{}. ", crate::text::upper_first(&m.line()))),
        es_dec(s.played_s, 1),
        es_int(s.max_inflight as i64),
        s.mean_inflight
            .map_or("sin régimen estable".to_string(), |x| es_dec(x, 1)),
        match crate::fmt::es_num(f.pod_demand) {
            one if one == "1" => "1 lugar".to_string(),
            many => format!("{many} lugares"),
        },
        p.max_inflight
            .map_or("no hay tope".to_string(), |c| format!("hay {}", es_int(c as i64)))
    );
    html! {
        <WidgetFrame id="inflight" subtitle=": Little contra MAX_INFLIGHT">
            { controls(&h, None) }
            <div class="results">
                { notes(&h) }
                { past_end(p.t_ms, end, say) }
                <p class={verdict.0} role="status">{ verdict.1 }</p>
                { run_notes(&run_note_list) }
                <ChartCanvas chart={plot((*chart).clone())} label={label} height={300} />
                <Player id="inflight" run={span.clone()} t_ms={moment} {on_frame} {on_keep} announce={now.map(|m| AttrValue::from(crate::text::upper_first(&m.line())))} />
                { figures(&[], rows) }
                { command_line_at(&h, moment) }
            </div>
        </WidgetFrame>
    }
}
