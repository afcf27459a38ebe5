//! The lesson's table after «los intentos se multiplican al bajar»:
//! 1 → 4 → 16 → 64, computed by the core.

use crate::fmt::es_dec;
use crate::sim::retries::{layers, LayersParams};
use crate::ui::widgets::layers_widget::piece_names;
use yew::prelude::*;

#[component]
pub fn LayersTable() -> Html {
    let p = LayersParams::default();
    let r = layers(&p);
    let names = piece_names(p.layers as usize);
    html! {
        <div class="table-wrap">
            <table class="lesson-table" data-table="layers">
                <caption>{ format!("Tres capas que reintentan {} cada una: cada llamada se vuelve hasta {}", crate::fmt::es_count(p.retries as i64, "vez", "veces"), crate::fmt::es_count(p.retries as i64 + 1, "intento", "intentos")) }</caption>
                <thead><tr><th scope="col">{ "Pieza" }</th><th scope="col">{ "Intentos que le llegan por cada request de arriba" }</th></tr></thead>
                <tbody>
                    { for names.iter().zip(&r.reaching).enumerate().map(|(k, (n, a))| html! {
                        <tr>
                            <td>{ n }</td>
                            <td>{ if k == 0 { "1".to_string() } else { format!("{} = {}{}", es_dec(*a, 0), p.retries + 1, superscript(k)) } }</td>
                        </tr>
                    }) }
                </tbody>
            </table>
        </div>
    }
}

fn superscript(k: usize) -> &'static str {
    ["⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"]
        .get(k)
        .copied()
        .unwrap_or("")
}
