//! The circuit breaker, live: its state, the calls and the fallbacks over time.

use crate::chart::palette;
use crate::chart::simple::{Lines, Playhead};
use crate::sim::breaker::{simulate, BreakerParams, Fault, INJECT_MAX};
use crate::sim::params::Injection;

use crate::ui::canvas::chart_canvas::{plot, ChartCanvas};
use crate::ui::hooks::use_moment::{past_end, use_played, Moment, Played};
use crate::ui::hooks::use_params::use_params;
use crate::ui::widgets::controls::{command_line_at, controls, notes};
use crate::ui::widgets::figures::{figures, row};
use crate::ui::widgets::player::{Player, Said};
use crate::ui::widgets::widget_frame::WidgetFrame;
use std::rc::Rc;
use yew::prelude::*;

pub use crate::sim::breaker::clock;

/// A run drawn faintly beside the one shown.
#[derive(Clone, PartialEq)]
struct Ghost {
    /// Shown while these parameters are (the run an injection led to); `None`: pinned.
    of: Option<BreakerParams>,
    name: &'static str,
    lines: Vec<crate::chart::simple::LineSeriesData>,
}

#[component]
pub fn BreakerWidget() -> Html {
    let h = use_params::<BreakerParams>("breaker");
    let p = h.params.clone();
    // The run does not depend on the moment shown.
    let run_p = BreakerParams {
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
    let start_s = run.start_s();
    // A ghost beside the run: the future «Tirar a Triton ahora» replaced
    // (while the run it led to is shown), or a run the learner pinned.
    let ghost = use_state(|| None::<Ghost>);
    let shown_ghost = (*ghost)
        .as_ref()
        .filter(|g| g.of.as_ref().is_none_or(|q| *q == run_p))
        .cloned();
    let fall_s = p.fall_ms as f64 / 1000.0;
    let r2 = run.clone();
    let ghost_lines = shown_ghost.as_ref().map(|g| (g.name.to_string(), g.lines.clone()));
    let chart = use_memo(
        (run_p.clone(), moment.map(f64::to_bits), ghost_lines),
        move |(_, _, ghost)| {
            let pick = |f: fn(&crate::sim::breaker::Second) -> u32| {
                r2.seconds.iter().map(|s| (s.t as f64, f(s) as f64)).collect::<Vec<_>>()
            };
            Rc::new(Lines {
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
                // Where Triton falls.
                marker: Some(fall_s),
                ghost: ghost.clone(),
                // The seconds finished: a second's point is at its start.
                playhead: now.map(|m| Playhead {
                    at: m.clock_s,
                    upto: start_s + m.seconds as f64,
                }),
            })
        },
    );
    // «Tirar a Triton ahora»: the fall moved to the moment shown (a parameter:
    // a link replays it); the future it replaces stays as a ghost.
    let lines_of = |l: &Lines, from: f64| {
        l.series
            .iter()
            .map(|(label, color, pts)| {
                (
                    label.clone(),
                    *color,
                    pts.iter().copied().filter(|q| q.0 >= from).collect(),
                )
            })
            .collect()
    };
    // Whether Triton is up at the moment shown: «Tirar a Triton ahora» would change nothing otherwise.
    let up_now = moment.is_some_and(|t| !p.downtime().at(start_s + t / 1000.0));
    let full = run_p.inject.0.len() >= INJECT_MAX;
    let inject = {
        let (ghost, state, run_p, chart) = (ghost.clone(), h.state.clone(), run_p.clone(), chart.clone());
        Callback::from(move |e: MouseEvent| {
            let Some(t) = moment.filter(|_| up_now && !full) else {
                return;
            };
            let t = t.round() as u32;
            let added = Injection {
                kind: Fault::Fall,
                at_ms: t,
                for_ms: 0,
            };
            let next = BreakerParams {
                inject: run_p.inject.with(added),
                t_ms: Some(t),
                ..run_p.clone()
            };
            ghost.set(Some(Ghost {
                of: Some(BreakerParams {
                    t_ms: None,
                    ..next.clone()
                }),
                name: "sin el cambio",
                lines: lines_of(&chart, start_s + t as f64 / 1000.0),
            }));
            state.set_all(crate::sim::params::values(&next)).emit(e);
        })
    };
    let pinned = shown_ghost.as_ref().is_some_and(|g| g.of.is_none());
    let pin = {
        let (ghost, chart) = (ghost.clone(), chart.clone());
        Callback::from(move |_: MouseEvent| {
            ghost.set((!pinned).then(|| Ghost {
                of: None,
                name: "corrida fijada",
                lines: lines_of(&chart, f64::NEG_INFINITY),
            }))
        })
    };
    let r = &*run;
    let keys = ["opened", "waited", "fallbacks"];
    let mut rows = crate::sim::breaker::figures(&p, r)
        .into_iter()
        .zip(keys)
        .map(|((label, value), key)| row(&label, key, vec![value]))
        .collect::<Vec<_>>();
    // At a moment, the run so far under the whole run's figures.
    if let Some(m) = now {
        let n = |v: u64| vec![crate::fmt::es_int(v as i64)];
        rows.extend([
            row(
                format!("estado a las {}", clock(m.clock_s)),
                "state",
                vec![m.state.label().to_string()],
            ),
            // Counted by whole seconds: said as of the last one finished.
            row(
                format!("hasta las {}, llegan a Triton", clock(start_s + m.seconds as f64)),
                "calls",
                n(m.calls),
            ),
            row(
                format!("hasta las {}, esperan su timeout", clock(start_s + m.seconds as f64)),
                "timeouts",
                n(m.timeouts),
            ),
            row(
                format!("hasta las {}, plan B al instante", clock(start_s + m.seconds as f64)),
                "fallbacks-so-far",
                n(m.fallbacks),
            ),
        ]);
    }
    let said = move |t: f64| clock(start_s + t / 1000.0);
    let shown = 8;
    html! {
        <WidgetFrame id="breaker" subtitle={format!(": Triton se cae a las {}", clock(fall_s))}>
            { controls(&h, Some(&["rps", "timeout-ms", "window-s", "threshold-pct", "min-calls", "open-s", "probes", "fall-ms", "recover-s", "duration-s"])) }
            { injected(&run_p, start_s, h.state.setter("inject")) }
            <div class="results">
                { notes(&h) }
                { past_end(p.t_ms, end, said) }
                <ChartCanvas chart={plot((*chart).clone())} label={format!("{}Cambios de estado: {}.", now.map_or(String::new(), |m| format!("{}. ", crate::text::upper_first(&m.line()))), r.transitions.iter().map(|(t, s)| format!("{} a las {}", s.label(), clock(*t))).collect::<Vec<_>>().join(", "))} height={280} />
                <Player id="breaker" run={span.clone()} t_ms={moment} {on_frame} {on_keep} said={Said::Clock { start_s }} announce={now.map(|m| AttrValue::from(crate::text::upper_first(&m.line())))}>
                    if moment.is_some_and(|t| t < end) {
                        <button type="button" id="breaker-fall" class="inject" onclick={inject} disabled={!up_now || full}
                            title={if full { Some("Ya hay 20 caídas inyectadas: quita alguna para agregar otra.") } else if !up_now { Some("Triton ya está caído en este momento.") } else { None }}>
                            { "Tirar a Triton ahora" }
                        </button>
                    }
                    <button type="button" id="breaker-pin" class="pin" onclick={pin} aria-pressed={pinned.to_string()}>
                        { if pinned { "Quitar la corrida fijada" } else { "Fijar esta corrida" } }
                    </button>
                </Player>
                { figures(&[], rows) }
                <ol class="transitions" data-figure="transitions">
                    { for r.transitions.iter().take(shown).map(|(t, s)| html! { <li>{ format!("{}: {}", clock(*t), s.label()) }</li> }) }
                </ol>
                if r.transitions.len() > shown {
                    <p class="aside">{ format!("… y {} más hasta el final.", crate::fmt::es_count((r.transitions.len() - shown) as i64, "cambio de estado", "cambios de estado")) }</p>
                }
                { command_line_at(&h, moment) }
            </div>
        </WidgetFrame>
    }
}

/// The falls injected while it played, on the breaker's clock, and a way to take the last one back.
fn injected(p: &BreakerParams, start_s: f64, set: Callback<crate::sim::params::Value>) -> Html {
    use crate::sim::params::{Field, Injected};
    if p.inject.0.is_empty() {
        return Html::default();
    }
    let drop_last = {
        let kept = Injected(p.inject.0[..p.inject.0.len() - 1].to_vec());
        Callback::from(move |_: MouseEvent| set.emit(kept.to_value()))
    };
    html! {
        <div class="control events" id="breaker-inject">
            <span class="control-head">{ "Caídas inyectadas" }</span>
            <ol class="injected">
                { for p.inject.0.iter().map(|i| html! {
                    <li>{ format!("Triton se cae a las {}", clock(start_s + i.at_ms as f64 / 1000.0)) }</li>
                }) }
            </ol>
            <div class="control-body">
                <button type="button" class="reset" onclick={drop_last}>{ "Quitar la última" }</button>
            </div>
        </div>
    }
}
