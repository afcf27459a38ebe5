//! The lesson's table after «le asigna a cada uno una promesa»: safe and
//! idempotent per HTTP method, from the core's list.

use crate::sim::failmode::METHODS;
use yew::prelude::*;

fn yes_no(b: bool) -> &'static str {
    if b {
        "sí"
    } else {
        "no"
    }
}

#[component]
pub fn MethodsTable() -> Html {
    html! {
        <div class="table-wrap">
            <table class="lesson-table methods" data-table="methods">
                <thead><tr>
                    <th scope="col">{ "Método" }</th>
                    <th scope="col">{ "Seguro (no cambia nada)" }</th>
                    <th scope="col">{ "Idempotente (repetirlo da lo mismo)" }</th>
                </tr></thead>
                <tbody>
                    { for METHODS.iter().map(|(m, safe, idem)| html! {
                        <tr><td><code>{ *m }</code></td><td>{ yes_no(*safe) }</td><td>{ yes_no(*idem) }</td></tr>
                    }) }
                </tbody>
            </table>
        </div>
    }
}
