//! The lesson's table after «Eso ya decide mucho:»: each failure, what it
//! means and whether to retry, from the classifier in the core.

use crate::sim::failures::{Advice, TABLE};
use yew::prelude::*;

#[component]
pub fn FailuresTable() -> Html {
    html! {
        <div class="table-wrap">
            <table class="lesson-table failures" data-table="failures">
                <thead>
                    <tr><th scope="col">{ "Falla" }</th><th scope="col">{ "Qué quiere decir" }</th><th scope="col">{ "¿Reintentar?" }</th></tr>
                </thead>
                <tbody>
                    { for TABLE.iter().map(|(_, name, meaning, advice, retry)| {
                        let class = match advice { Advice::Yes => "advice yes", Advice::Careful => "advice careful", Advice::No => "advice no" };
                        html! {
                            <tr>
                                <td>{ *name }</td>
                                <td>{ *meaning }</td>
                                <td class={class}>{ *retry }</td>
                            </tr>
                        }
                    }) }
                </tbody>
            </table>
        </div>
    }
}
