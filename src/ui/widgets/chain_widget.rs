//! C01's chain and the zombie work, live.

use crate::fmt::es_int;
use crate::sim::chain::{run, ChainParams, Tone};
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
pub fn ChainWidget() -> Html {
    let h = use_params::<ChainParams>("chain");
    let p = h.params.clone();
    // The request does not depend on the moment shown.
    let run_p = ChainParams {
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
        let tl = crate::chart::chain::timeline(p, &r);
        Rc::new(match moment {
            Some(t) => tl.so_far(t),
            None => tl,
        })
    });
    let said = crate::sim::chain::said(&p, &result);
    let class = match said.tone {
        Tone::Ok => "verdict ok",
        Tone::Warn => "verdict warn",
        Tone::Bad => "verdict bad",
    };
    // At a moment: each hop then, before the whole request's figures.
    let mut rows = match now {
        Some(m) => vec![
            row(
                format!("a los {}, el caller", say(m.t_ms as f64)),
                "caller-now",
                vec![m.caller.to_string()],
            ),
            row("el gateway", "gateway-now", vec![m.gateway.to_string()]),
            row(
                "Triton",
                "triton-now",
                vec![format!(
                    "{}{}",
                    m.triton,
                    if m.for_nobody { " (para nadie)" } else { "" }
                )],
            ),
            row("del deadline", "deadline-left", vec![m.deadline_left()]),
            row(
                "trabajo zombi hasta ahí",
                "zombie-so-far",
                vec![format!("{} ms", es_int(m.zombie_ms as i64))],
            ),
        ],
        None => Vec::new(),
    };
    rows.extend(
        said.rows
            .iter()
            .map(|(label, key, value)| row(*label, key, vec![value.clone()])),
    );
    let label = format!(
        "{}{} Se rinde primero: {}. Trabajo zombi: {} ms.",
        now.map_or(String::new(), |m| format!("{}. ", crate::text::upper_first(&m.line()))),
        said.verdict,
        said.first,
        es_int(said.zombie_ms as i64)
    );
    html! {
        <WidgetFrame id="chain" subtitle=": 300 → 250 → 150 → 100 ms">
            { controls(&h, None) }
            <div class="results">
                { notes(&h) }
                { past_end(p.t_ms, end, say) }
                if let Some(warning) = said.warning {
                    <p class="verdict bad" role="alert">{ warning }</p>
                }
                <p class={class} role="status">{ said.verdict }</p>
                <ChartCanvas chart={plot((*chart).clone())} label={label} height={250} />
                <Player id="chain" run={span.clone()} t_ms={moment} {on_frame} {on_keep} announce={now.map(|m| AttrValue::from(crate::text::upper_first(&m.line())))} />
                { figures(&[], rows) }
                { command_line_at(&h, moment) }
            </div>
        </WidgetFrame>
    }
}
