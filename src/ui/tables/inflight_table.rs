//! The lesson's table after «recibe un 503, el código de «estoy saturado»»:
//! per pod, in flight against the 16 slots, for the 150 ms and 5 s timeouts,
//! computed by the core.

use crate::fmt::{es_dec, es_int, es_percent};
use crate::sim::inflight::{lesson_table, InflightParams};
use yew::prelude::*;

#[component]
pub fn InflightTable() -> Html {
    let p = InflightParams::default();
    let rows = lesson_table(&p);
    let timeout = |ms: u32| {
        if ms >= 1000 {
            format!("{} s", es_dec(ms as f64 / 1000.0, 1))
        } else {
            format!("{ms} ms")
        }
    };
    html! {
        <div class="table-wrap">
            <table class="lesson-table" data-table="inflight">
                <caption>{ format!("Por pod: {} por segundo, ≈ {} ms de otro trabajo, con Triton trabado",
                    crate::fmt::es_count((p.rps / p.pods) as i64, "request", "requests"), p.other_ms) }</caption>
                <thead>
                    <tr>
                        <th scope="col">{ "Timeout hacia Triton" }</th>
                        <th scope="col">{ "En vuelo por pod" }</th>
                        <th scope="col">{ "Lugares (MAX_INFLIGHT)" }</th>
                        <th scope="col">{ "Reciben un 503" }</th>
                        <th scope="col">{ "Fotos en memoria sin el tope" }</th>
                    </tr>
                </thead>
                <tbody>
                    { for rows.iter().map(|r| html! {
                        <tr>
                            <td>{ timeout(r.timeout_ms) }</td>
                            <td>{ es_dec(r.demand, 1) }</td>
                            <td>{ r.slots }</td>
                            <td>{ format!("≈ {}", es_percent(r.rejected_share, 0)) }</td>
                            <td>{ photos(r.photos_uncapped_mb) }</td>
                        </tr>
                    }) }
                </tbody>
            </table>
        </div>
    }
}

fn photos(mb: f64) -> String {
    if mb >= 1000.0 {
        format!("hasta ≈ {} GB", es_dec(mb / 1000.0, 0))
    } else {
        format!("hasta {} MB", es_int(mb.round() as i64))
    }
}
