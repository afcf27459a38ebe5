//! ¿Abierto o cerrado?: the lesson's cases, a choice, and what passes and
//! what stops while the checker does not answer.

use crate::fmt::es_int;
use crate::sim::failmode::{case_text, run, FailModeParams};
use crate::ui::hooks::use_params::use_params;
use crate::ui::widgets::controls::{command_line, controls, notes};
use crate::ui::widgets::figures::{figures, row};
use crate::ui::widgets::widget_frame::WidgetFrame;
use yew::prelude::*;

#[component]
pub fn FailModeWidget() -> Html {
    let h = use_params::<FailModeParams>("failmode");
    let p = h.params.clone();
    let r = run(&p);
    let t = case_text(p.case);
    let rows = vec![
        row(
            format!("llegan mientras no contesta: {}", t.items),
            "items",
            vec![es_int(r.items as i64)],
        ),
        row(
            format!("pasan sin revisión: {}", t.bad),
            "bad-through",
            vec![es_int(r.bad_through as i64)],
        ),
        row(
            format!("se detienen: {} buenos", t.items),
            "good-blocked",
            vec![es_int(r.good_blocked as i64)],
        ),
    ];
    html! {
        <WidgetFrame id="failmode" subtitle=" Cuando el revisor no contesta">
            { controls(&h, None) }
            <div class="results">
                { notes(&h) }
                <p class={classes!("verdict", if r.matches_lesson { "ok" } else { "warn" })} role="status" data-figure="what">
                    { &r.what }
                </p>
                <p class="lesson-choice" data-figure="lesson">
                    <strong>{ if r.matches_lesson { "Igual que en la lección. " } else { "Lo contrario de la lección. " } }</strong>
                    { &r.lesson }
                </p>
                { figures(&[], rows) }
                { command_line(&h) }
            </div>
        </WidgetFrame>
    }
}
