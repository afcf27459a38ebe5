//! The retry storm, live: layers that retry, a server of fixed capacity and
//! a trigger; does the overload outlive it? And where does it tip?

use crate::chart::storm::{legend, StormChart, StormGhost};
use crate::fmt::{es_dec, es_int};
use crate::sim::params::Injection;
use crate::sim::playback::say;
use crate::sim::storm::{
    assess, simulate, tipping_point, tipping_sentence, verdict, Outcome, StormParams, Tipping, Trigger, INJECT_MAX,
};
use crate::ui::canvas::chart_canvas::{plot, ChartCanvas};
use crate::ui::hooks::use_moment::{past_end, use_played, Moment, Played};
use crate::ui::hooks::use_params::use_params;
use crate::ui::widgets::controls::{command_line_at, controls, more_controls, notes, run_notes};
use crate::ui::widgets::figures::{figures, row};
use crate::ui::widgets::player::Player;
use crate::ui::widgets::widget_frame::WidgetFrame;
use std::rc::Rc;
use yew::prelude::*;

/// A run drawn faintly beside the one shown.
#[derive(Clone, PartialEq)]
struct Ghost {
    /// Shown while these parameters are (the run an injection led to); `None`: pinned.
    of: Option<StormParams>,
    lines: StormGhost,
}

#[component]
pub fn StormWidget() -> Html {
    let h = use_params::<StormParams>("storm");
    let p = h.params.clone();
    // The run does not depend on the moment shown.
    let run_p = StormParams {
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
        |p| {
            let r = simulate(p);
            let o = assess(p, &r);
            (r, o)
        },
        |r, _| r.0.span(),
    );
    let now = moment.map(|t| run.0.at(t));
    // A ghost beside the run: the future an injection replaced (while the
    // run it led to is shown), or a run the learner pinned (until unpinned).
    let ghost = use_state(|| None::<Ghost>);
    let shown_ghost = (*ghost)
        .as_ref()
        .filter(|g| g.of.as_ref().is_none_or(|q| *q == run_p))
        .cloned();
    let r2 = run.clone();
    let chart = use_memo(
        (
            run_p.clone(),
            moment.map(f64::to_bits),
            shown_ghost.as_ref().map(|g| g.lines.clone()),
        ),
        move |(p, _, ghost)| {
            let mut c = StormChart::new(&r2.0, p.capacity, p.breaker.is_on());
            c.ghost = ghost.clone();
            Rc::new(match now {
                Some(m) => c.so_far(m.buckets, m.t_ms / 1000.0),
                None => c,
            })
        },
    );
    // «Tirar el servidor ahora», «Llega un pico»: one more fault from the
    // moment shown on, the run before it kept (a parameter: a link replays
    // it); the future it replaces stays as a ghost.
    let full = run_p.inject.0.len() >= INJECT_MAX;
    let inject = |trigger: Trigger| {
        let (ghost, state, run_p, chart) = (ghost.clone(), h.state.clone(), run_p.clone(), chart.clone());
        Callback::from(move |e: MouseEvent| {
            let Some(t) = moment else {
                return;
            };
            let c = &**chart;
            if full {
                return;
            }
            let t = t.round() as u32;
            let added = Injection {
                kind: trigger,
                at_ms: t,
                // It lasts what the trigger set lasts (the lesson's 3 s if that lasts nothing).
                for_ms: if run_p.trigger_ms == 0 { 3_000 } else { run_p.trigger_ms },
            };
            let next = StormParams {
                inject: run_p.inject.with(added),
                t_ms: Some(t),
                ..run_p.clone()
            };
            ghost.set(Some(Ghost {
                of: Some(StormParams {
                    t_ms: None,
                    ..next.clone()
                }),
                lines: StormGhost::of(c, t as f64 / 1000.0, "sin el cambio"),
            }));
            state.set_all(crate::sim::params::values(&next)).emit(e);
        })
    };
    let pin = {
        let (ghost, chart) = (ghost.clone(), chart.clone());
        let pinned = shown_ghost.as_ref().is_some_and(|g| g.of.is_none());
        Callback::from(move |_: MouseEvent| {
            ghost.set((!pinned).then(|| Ghost {
                of: None,
                lines: StormGhost::of(&chart, 0.0, "corrida fijada"),
            }))
        })
    };
    // The tipping point is a search (a dozen runs): only on request, and
    // forgotten as soon as a parameter changes.
    let tip = use_state(|| None::<(StormParams, Tipping)>);
    let find = {
        let tip = tip.clone();
        let p = p.clone();
        Callback::from(move |_: MouseEvent| tip.set(Some((p.clone(), tipping_point(&p)))))
    };
    let (r, outcome) = (&run.0, run.1);
    // Green when it recovers, red when it does not, amber when the run cannot tell.
    let tone = match outcome {
        Outcome::Recovered { .. } => "ok",
        Outcome::Metastable | Outcome::Overloaded => "bad",
        _ => "warn",
    };
    // The whole run's figures, or the run's so far at the moment shown.
    let (requests, attempts, succeeded) = match now {
        Some(m) => (m.requests, m.attempts, m.succeeded),
        None => (r.requests, r.attempts, r.succeeded),
    };
    let per_request = if requests == 0 {
        0.0
    } else {
        attempts as f64 / requests as f64
    };
    let mut rows = vec![
        row("requests nuevas", "requests", vec![es_int(requests as i64)]),
        row(
            "intentos al servidor",
            "attempts",
            vec![format!(
                "{} ({} por request)",
                es_int(attempts as i64),
                es_dec(per_request, 1)
            )],
        ),
        row("contestadas a tiempo", "succeeded", vec![es_int(succeeded as i64)]),
    ];
    if let Some(m) = now {
        rows.push(row(
            "de los intentos, reintentos",
            "retries",
            vec![es_int(m.retries as i64)],
        ));
        rows.push(row(
            "servidos cuando ya nadie esperaba",
            "zombie",
            vec![es_int(m.zombie as i64)],
        ));
        if p.breaker.is_on() {
            rows.push(row("plan B del breaker", "fallbacks", vec![es_int(m.fallbacks as i64)]));
        }
    }
    let tip_text = match &*tip {
        Some((q, t)) if *q == p => Some(format!(
            "Punto de quiebre: {}{}.",
            tipping_sentence(*t),
            if p.inject.0.is_empty() {
                ""
            } else {
                " (con el disparador de arriba, sin las fallas inyectadas)"
            }
        )),
        _ => None,
    };
    let mut run_note_list = r.notes();
    if let Some((q, Tipping::Unknown { trigger_ms, cut: true })) = &*tip {
        if *q == p {
            run_note_list.push(crate::sim::storm::tipping_unknown_note(*trigger_ms));
        }
    }
    let label = format!(
        "Requests nuevas, intentos que llegan al servidor y respuestas a tiempo por segundo, con la capacidad y el disparador marcados. {}{}.",
        now.map_or(String::new(), |m| format!("{}. ", crate::text::upper_first(&m.line()))),
        verdict(r, outcome)
    );
    html! {
        <WidgetFrame id="storm" subtitle=": ¿se apaga sola?">
            <div>
                { controls(&h, Some(&["rps", "capacity", "layers", "retries", "retry-in", "budget-pct", "breaker", "trigger", "trigger-ms", "inject"])) }
                { more_controls(&h, &["trigger-at-ms", "spike-pct", "timeout-ms", "base-ms", "breaker-open-s", "duration-s", "seed"]) }
            </div>
            <div class="results">
                { notes(&h) }
                { past_end(p.t_ms, end, say) }
                <p class={classes!("verdict", tone)} role="status" data-figure="verdict">
                    { crate::text::upper_first(&verdict(r, outcome)) }{ "." }
                </p>
                { run_notes(&run_note_list) }
                <ChartCanvas chart={plot((*chart).clone())} label={label} height={360}>
                    { chart_key(&legend(&chart)) }
                </ChartCanvas>
                <Player id="storm" run={span.clone()} t_ms={moment} {on_frame} {on_keep} announce={now.map(|m| AttrValue::from(crate::text::upper_first(&m.line())))}>
                    if moment.is_some_and(|t| t < end) {
                        <button type="button" id="storm-outage" class="inject" onclick={inject(Trigger::Outage)} disabled={full}
                            title={full.then_some(FULL_TITLE)}>{ "Tirar el servidor ahora" }</button>
                        <button type="button" id="storm-spike" class="inject" onclick={inject(Trigger::Spike)} disabled={full}
                            title={full.then_some(FULL_TITLE)}>{ "Llega un pico" }</button>
                    }
                    <button type="button" id="storm-pin" class="pin" onclick={pin} aria-pressed={shown_ghost.as_ref().is_some_and(|g| g.of.is_none()).to_string()}>
                        { if shown_ghost.as_ref().is_some_and(|g| g.of.is_none()) { "Quitar la corrida fijada" } else { "Fijar esta corrida" } }
                    </button>
                </Player>
                { figures(&[], rows) }
                <p class="tipping">
                    <button type="button" class="reset" onclick={find}>{ "Buscar el punto de quiebre" }</button>
                    if let Some(t) = tip_text {
                        <span data-figure="tipping">{ t }</span>
                    }
                </p>
                { command_line_at(&h, moment) }
            </div>
        </WidgetFrame>
    }
}

const FULL_TITLE: &str = "Ya hay 20 fallas inyectadas: quita alguna para agregar otra.";

/// The chart's key under the canvas.
fn chart_key(items: &[(String, String, bool)]) -> Html {
    html! {
        <ul class="chart-key" aria-hidden="true">
            { for items.iter().map(|(label, color, dashed)| html! {
                // An SVG line, coloured by attribute: no inline style (the page's CSP forbids them).
                <li>
                    <svg class="swatch" viewBox="0 0 18 6" width="18" height="6">
                        <line x1="0" y1="3" x2="18" y2="3" stroke={color.clone()} stroke-width="4"
                            stroke-dasharray={dashed.then_some("5 3")} />
                    </svg>
                    { label }
                </li>
            }) }
        </ul>
    }
}
