//! The herd simulation, live: every change re-runs the core and redraws.
//! It opens at the run's end; its player (▶, steps, the time slider) plays
//! the run from the traces of both runs, recorded the first time a moment
//! is asked for (a press of ▶, a link with `t-ms`), and shows each client as
//! a mark on its way to the server or in the pile it ended in.

use crate::chart::herd::HerdChart;
use crate::fmt::es_int;
use crate::sim::herd::trace::{HerdMoment, HerdSpan, HerdTrace};
use crate::sim::herd::{simulate_reusing, HerdParams, HerdResult, HerdScratch};
use crate::sim::playback::Playback;
use crate::sim::policy::backoff::Jitter;
use crate::ui::canvas::chart_canvas::{plot, ChartCanvas};
use crate::ui::hooks::use_moment::{past_end, use_moment, Moment};
use crate::ui::hooks::use_params::use_params;
use crate::ui::widgets::controls::{command_line_at, controls, notes};
use crate::ui::widgets::figures::{figures, row};
use crate::ui::widgets::player::{say, Player};
use crate::ui::widgets::widget_frame::WidgetFrame;
use std::rc::Rc;
use yew::prelude::*;

struct Run {
    chosen: HerdResult,
    /// "sin jitter" with the same parameters (absent when that is the choice).
    reference: Option<HerdResult>,
}

/// Both runs, in the widget's scratch (kept from one input to the next).
fn run(p: &HerdParams, scratch: &mut HerdScratch) -> Run {
    let chosen = simulate_reusing(p, scratch);
    let reference = (p.jitter != Jitter::None).then(|| {
        let none = HerdParams {
            jitter: Jitter::None,
            ..p.clone()
        };
        simulate_reusing(&none, scratch)
    });
    Run { chosen, reference }
}

/// What follows the widget's name in its title, with as many clients as it
/// simulates (the lesson's «mil»).
fn subtitle(clients: u32) -> String {
    match clients {
        1 => ": un cliente que falla".into(),
        1_000 => ": mil clientes que fallan juntos".into(),
        n => format!(": {} clientes que fallan juntos", es_int(n as i64)),
    }
}

/// Both runs attempt by attempt, for the player.
struct Traces {
    chosen: HerdTrace,
    reference: Option<HerdTrace>,
}

#[component]
pub fn HerdWidget() -> Html {
    let h = use_params::<HerdParams>("herd");
    let p = h.params.clone();
    // The run does not depend on the moment shown.
    let run_p = HerdParams {
        t_ms: None,
        ..p.clone()
    };
    let scratch = use_mut_ref(HerdScratch::default);
    let result = use_memo(run_p.clone(), move |p| run(p, &mut scratch.borrow_mut()));
    let span = {
        let r = result.clone();
        use_memo(run_p.clone(), move |_| {
            let mut runs = vec![&r.chosen];
            runs.extend(r.reference.as_ref());
            crate::ui::widgets::player::Run(Rc::new(HerdSpan::of(&runs)) as Rc<dyn Playback>)
        })
    };
    let end = span.0.end_ms();
    let Moment {
        t: moment,
        on_frame,
        on_keep,
    } = use_moment(&h.state, p.t_ms, end);
    let engaged = moment.is_some();
    let traces = use_memo((run_p.clone(), engaged), |(p, engaged)| {
        engaged.then(|| {
            Rc::new(Traces {
                chosen: HerdTrace::record(p),
                reference: (p.jitter != Jitter::None).then(|| {
                    HerdTrace::record(&HerdParams {
                        jitter: Jitter::None,
                        ..p.clone()
                    })
                }),
            })
        })
    });
    // What is shown: the whole runs, or the runs so far at the moment (and its figures).
    let (chosen, reference, now): (HerdResult, Option<HerdResult>, Option<HerdMoment>) =
        match (moment, (*traces).as_ref()) {
            (Some(t), Some(tr)) => {
                let m = tr.chosen.at(t);
                let reference = tr.reference.as_ref().map(|r| r.at(t).as_result(p.window_ms));
                (m.as_result(p.window_ms), reference, Some(m))
            }
            _ => (result.chosen.clone(), result.reference.clone(), None),
        };
    let log_y = use_state(|| false);
    // On the whole run's axis, which stays still as it plays.
    let windows_total = (end / p.window_ms.max(1) as f64).round() as u64;
    let chart = {
        let (chosen, reference) = (chosen.clone(), reference.clone());
        use_memo(
            (*log_y, run_p.clone(), moment.map(f64::to_bits)),
            move |(log_y, p, _)| {
                let mut c = HerdChart::spanning(
                    p.capacity,
                    (p.jitter.label(), &chosen),
                    reference.as_ref().map(|x| (Jitter::None.label(), x)),
                    windows_total,
                );
                c.log_y = *log_y;
                c.playhead_ms = moment;
                Rc::new(c)
            },
        )
    };
    let stage = now.as_ref().zip((*traces).as_ref()).map(|(m, tr)| {
        Rc::new(crate::chart::stage::Stage {
            run: p.jitter.label().to_string(),
            marks: tr.chosen.marks(m.t_ms),
            served: m.served,
            gave_up: m.gave_up,
            waiting: m.waiting,
        })
    });
    let toggle_log = {
        let log_y = log_y.clone();
        Callback::from(move |e: Event| {
            let input: web_sys::HtmlInputElement = e.target_unchecked_into();
            log_y.set(input.checked());
        })
    };

    let columns: Vec<(&str, &HerdResult)> = match &reference {
        Some(r) => vec![(Jitter::None.label(), r), (p.jitter.label(), &chosen)],
        None => vec![(p.jitter.label(), &chosen)],
    };
    let each = |f: &dyn Fn(&HerdResult) -> u64| columns.iter().map(|(_, r)| es_int(f(r) as i64)).collect::<Vec<_>>();
    let mut rows = vec![
        row("atendidos", "served", each(&|r| r.served as u64)),
        row("se rinden", "gave_up", each(&|r| r.gave_up as u64)),
    ];
    if engaged {
        rows.push(row(
            "esperando",
            "waiting",
            each(&|r| (p.clients - r.served - r.gave_up) as u64),
        ));
    }
    rows.extend([
        row(
            format!("pico por ventana de {} ms", crate::fmt::es_int(p.window_ms as i64)),
            "peak",
            each(&|r| r.peak as u64),
        ),
        row("intentos", "attempts", each(&|r| r.attempts)),
    ]);
    let head: Vec<String> = columns.iter().map(|(l, _)| l.to_string()).collect();
    let summary = format!(
        "{}Intentos por ventana de {} ms: {}. Capacidad: {} por ventana.",
        moment.map_or(String::new(), |t| format!("A los {}. ", say(t))),
        crate::fmt::es_int(p.window_ms as i64),
        columns
            .iter()
            .map(|(l, r)| format!(
                "{l}, pico de {} y {}",
                es_int(r.peak as i64),
                crate::fmt::es_count(r.attempts as i64, "intento", "intentos")
            ))
            .collect::<Vec<_>>()
            .join("; "),
        es_int(p.capacity as i64)
    );
    let past_end = past_end(p.t_ms, end, say);
    let stage_label = now.as_ref().map(|m| {
        format!(
            "A los {}: {} esperando, {} atendidos, {} se rinden.",
            say(m.t_ms),
            es_int(m.waiting as i64),
            es_int(m.served as i64),
            es_int(m.gave_up as i64)
        )
    });

    html! {
        <WidgetFrame id="herd" subtitle={subtitle(p.clients)}>
            { controls(&h, None) }
            <div class="results">
                { notes(&h) }
                { past_end }
                <ChartCanvas chart={plot((*chart).clone())} label={summary} />
                // Right under the chart; on a phone right under the pinned chart (the
                // style sheet), so that playing it keeps the chart in view.
                <Player id="herd" run={(*span).clone()} t_ms={moment} {on_frame} {on_keep} announce={stage_label.clone().map(AttrValue::from)} />
                if let (Some(stage), Some(label)) = (stage, stage_label) {
                    <div class="stage" data-t-ms={moment.map(|t| (t.round() as i64).to_string())}>
                        <ChartCanvas chart={plot(stage)} {label} height={220} />
                    </div>
                }
                <label class="toggle scale"><input type="checkbox" checked={*log_y} onchange={toggle_log} />{ " Eje vertical logarítmico (para ver la llovizna junto a la ola)" }</label>
                { figures(&head, rows) }
                { command_line_at(&h, moment) }
            </div>
        </WidgetFrame>
    }
}
