//! Three clocks in one call, live: which one fires and when, or that none does.

use crate::sim::clocks::{run, ClocksParams, Outcome};
use crate::sim::playback::say;
use crate::ui::canvas::chart_canvas::{plot, ChartCanvas};
use crate::ui::hooks::use_moment::{past_end, use_played, Moment, Played};
use crate::ui::hooks::use_params::use_params;
use crate::ui::widgets::controls::{command_line_at, controls, notes};
use crate::ui::widgets::figures::{figures, row};
use crate::ui::widgets::player::Player;
use crate::ui::widgets::widget_frame::WidgetFrame;
use std::rc::Rc;
use yew::prelude::*;

#[component]
pub fn ClocksWidget() -> Html {
    let h = use_params::<ClocksParams>("clocks");
    let p = h.params.clone();
    // The call does not depend on the moment shown.
    let run_p = ClocksParams {
        t_ms: None,
        ..p.clone()
    };
    let Played {
        run: result,
        span,
        end,
        moment: Moment {
            t: moment,
            on_frame,
            on_keep,
        },
    } = use_played(&h.state, &run_p, p.t_ms, run, |r, p| r.span(p));
    let now = moment.map(|t| result.at(&run_p, t));
    let r = result.clone();
    let chart = use_memo((run_p.clone(), moment.map(f64::to_bits)), move |(p, _)| {
        Rc::new(match moment {
            Some(t) => crate::chart::clocks::timeline_at(p, &r, t),
            None => crate::chart::clocks::timeline(p, &r),
        })
    });
    let sentence = result.outcome.sentence();
    let class = match result.outcome {
        Outcome::Completed { .. } => "verdict ok",
        Outcome::NeverEnds => "verdict bad",
        _ => "verdict warn",
    };
    let received = crate::sim::clocks::received_text(&result);
    // At a moment: the call so far, each running clock's time left.
    let rows = now.map(|m| {
        let left =
            |v: Option<u64>, idle: &str| vec![v.map_or(idle.to_string(), |l| format!("faltan {}", say(l as f64)))];
        let idle = if m.over { "la llamada terminó" } else { "no corre" };
        figures(
            &[],
            vec![
                row(
                    format!("a los {}, la conexión", say(m.t_ms as f64)),
                    "connection",
                    vec![if m.connected { "conectada" } else { "conectando" }.to_string()],
                ),
                row("pedazos recibidos", "pieces", vec![crate::fmt::es_int(m.pieces as i64)]),
                row(
                    "reloj de conexión",
                    "connect-left",
                    left(
                        m.connect_left_ms,
                        match p.connect_timeout_ms {
                            None => "sin timeout",
                            Some(_) if m.connected && !m.over => "se detuvo al conectar",
                            Some(_) => idle,
                        },
                    ),
                ),
                row(
                    "reloj de lectura",
                    "read-left",
                    left(
                        m.read_left_ms,
                        match p.read_timeout_ms {
                            None => "sin timeout",
                            Some(_) if !m.connected && !m.over => "corre desde que conecta",
                            Some(_) => idle,
                        },
                    ),
                ),
                row(
                    "reloj total",
                    "total-left",
                    left(
                        m.total_left_ms,
                        if p.total_timeout_ms.is_none() {
                            "sin timeout"
                        } else {
                            idle
                        },
                    ),
                ),
            ],
        )
    });
    html! {
        <WidgetFrame id="clocks" subtitle=": ¿cuál se dispara?">
            { controls(&h, None) }
            <div class="results">
                { notes(&h) }
                { past_end(p.t_ms, end, say) }
                <p class={class} role="status" data-outcome={outcome_key(&result.outcome)}>{ sentence.clone() }</p>
                <ChartCanvas chart={plot((*chart).clone())} label={format!("{}{sentence} {received}", now.map_or(String::new(), |m| format!("{}. ", crate::text::upper_first(&m.line()))))} height={220} />
                <Player id="clocks" run={span.clone()} t_ms={moment} {on_frame} {on_keep} announce={now.map(|m| AttrValue::from(crate::text::upper_first(&m.line())))} />
                // (An `if`, not an `Option`: an absent node would shift the
                // ones before it, and the player would start over.)
                if let Some(rows) = rows {
                    { rows }
                }
                <p class="aside">{ received }</p>
                { command_line_at(&h, moment) }
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
