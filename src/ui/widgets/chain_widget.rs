//! C01's chain and the zombie work, live.

use crate::chart::Chart;
use crate::fmt::es_int;
use crate::sim::chain::{run, CallerGets, ChainParams, FirstToGiveUp};
use crate::ui::canvas::chart_canvas::ChartCanvas;
use crate::ui::hooks::use_params::use_params;
use crate::ui::widgets::controls::{command_line, controls, notes};
use crate::ui::widgets::figures::{figures, row};
use crate::ui::widgets::widget_frame::WidgetFrame;
use std::rc::Rc;
use yew::prelude::*;

#[component]
pub fn ChainWidget() -> Html {
    let h = use_params::<ChainParams>("chain");
    let p = h.params.clone();
    let result = use_memo(p.clone(), run);
    let r = result.clone();
    let chart = use_memo(p.clone(), move |p| {
        Rc::new(Chart::Timeline(crate::chart::chain::timeline(p, &r)))
    });
    let ms = |v: i64| format!("{} ms", es_int(v));
    let call = crate::sim::chain::call_timeout_text(&p, &result);
    let first = match result.first {
        FirstToGiveUp::Nobody => "nadie",
        FirstToGiveUp::Queue => "la fila de Triton (REJECT)",
        FirstToGiveUp::Gateway => "el gateway",
        FirstToGiveUp::Caller => "el caller",
    };
    let (class, gets, sentence) = match result.caller_gets {
        CallerGets::Answer => (
            "verdict ok",
            "la categoría sugerida",
            "El caller recibe la categoría sugerida.",
        ),
        CallerGets::GatewayTimeout => (
            "verdict warn",
            "un 504 (muestra el selector)",
            "El caller recibe un 504 a tiempo y muestra el selector de categorías.",
        ),
        CallerGets::Overloaded => (
            "verdict warn",
            "un 503 (muestra el selector)",
            "El caller recibe un 503 a tiempo y muestra el selector de categorías.",
        ),
        CallerGets::OwnTimeout => (
            "verdict bad",
            "nada a tiempo (se rinde y muestra el selector)",
            "El caller no recibe nada a tiempo: se rinde y muestra el selector de categorías.",
        ),
    };
    let zombie = result.zombie_compute_ms() + result.zombie_queue.map_or(0, |(a, b)| b - a);
    let rows = vec![
        row(
            "queda del deadline al llamar a Triton",
            "left",
            vec![if result.left_ms > 0 {
                ms(result.left_ms)
            } else if result.left_ms == 0 {
                "nada".to_string()
            } else {
                format!("nada (se pasó por {})", ms(-result.left_ms))
            }],
        ),
        row("timeout de la llamada a Triton", "call_timeout", vec![call]),
        row("se rinde primero", "first", vec![first.to_string()]),
        row(
            "el caller recibe",
            "caller_gets",
            vec![format!("{gets} (a los {})", ms(result.caller_done_ms as i64))],
        ),
        row(
            "trabajo zombi de Triton",
            "zombie",
            vec![if zombie == 0 {
                "ninguno".to_string()
            } else {
                ms(zombie as i64)
            }],
        ),
    ];
    let label = format!(
        "{sentence} Se rinde primero: {first}. Trabajo zombi: {}.",
        ms(zombie as i64)
    );
    html! {
        <WidgetFrame id="chain" subtitle=": 300 → 250 → 150 → 100 ms">
            { controls(&h, None) }
            <div class="results">
                { notes(&h) }
                if result.misconfigured {
                    <p class="verdict bad" role="alert">{ "Un salto espera más que el de arriba: es el primer error común. Cada número de la cadena tiene que ser más chico que el de arriba." }</p>
                }
                <p class={class} role="status">{ sentence }</p>
                <ChartCanvas chart={(*chart).clone()} label={label} height={250} />
                { figures(&[], rows) }
                { command_line(&h) }
            </div>
        </WidgetFrame>
    }
}
