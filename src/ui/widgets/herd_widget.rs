//! The herd simulation, live: every change re-runs the core and redraws.

use crate::chart::herd::HerdChart;
use crate::chart::Chart;
use crate::fmt::es_int;
use crate::sim::herd::{simulate_reusing, HerdParams, HerdResult, HerdScratch};
use crate::sim::policy::backoff::Jitter;
use crate::ui::canvas::chart_canvas::ChartCanvas;
use crate::ui::hooks::use_params::use_params;
use crate::ui::widgets::controls::{command_line, controls, notes};
use crate::ui::widgets::figures::{figures, row};
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

#[component]
pub fn HerdWidget() -> Html {
    let h = use_params::<HerdParams>("herd");
    let p = h.params.clone();
    let scratch = use_mut_ref(HerdScratch::default);
    let result = use_memo(p.clone(), move |p| run(p, &mut scratch.borrow_mut()));
    let log_y = use_state(|| false);
    let r = result.clone();
    let chart = use_memo((*log_y, p.clone()), move |(log_y, p)| {
        let mut c = HerdChart::new(
            p.capacity,
            (p.jitter.label(), &r.chosen),
            r.reference.as_ref().map(|x| (Jitter::None.label(), x)),
        );
        c.log_y = *log_y;
        Rc::new(Chart::Herd(c))
    });
    let toggle_log = {
        let log_y = log_y.clone();
        Callback::from(move |e: Event| {
            let input: web_sys::HtmlInputElement = e.target_unchecked_into();
            log_y.set(input.checked());
        })
    };

    let columns: Vec<(&str, &HerdResult)> = match &result.reference {
        Some(r) => vec![(Jitter::None.label(), r), (p.jitter.label(), &result.chosen)],
        None => vec![(p.jitter.label(), &result.chosen)],
    };
    let each = |f: &dyn Fn(&HerdResult) -> u64| columns.iter().map(|(_, r)| es_int(f(r) as i64)).collect::<Vec<_>>();
    let rows = vec![
        row("atendidos", "served", each(&|r| r.served as u64)),
        row("se rinden", "gave_up", each(&|r| r.gave_up as u64)),
        row(
            format!("pico por ventana de {} ms", crate::fmt::es_int(p.window_ms as i64)),
            "peak",
            each(&|r| r.peak as u64),
        ),
        row("intentos", "attempts", each(&|r| r.attempts)),
    ];
    let head: Vec<String> = columns.iter().map(|(l, _)| l.to_string()).collect();
    let summary = format!(
        "Intentos por ventana de {} ms: {}. Capacidad: {} por ventana.",
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

    html! {
        <WidgetFrame id="herd" subtitle={subtitle(p.clients)}>
            { controls(&h, None) }
            <div class="results">
                { notes(&h) }
                <ChartCanvas chart={(*chart).clone()} label={summary} />
                <label class="toggle scale"><input type="checkbox" checked={*log_y} onchange={toggle_log} />{ " Eje vertical logarítmico (para ver la llovizna junto a la ola)" }</label>
                { figures(&head, rows) }
                { command_line(&h) }
            </div>
        </WidgetFrame>
    }
}
