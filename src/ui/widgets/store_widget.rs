//! The idempotency key, live: a server with an idempotency store. A case
//! from the lesson or exercise 9 is played a line at a time, and the learner
//! can go on with it («Sigue tú»: another attempt with the same key, none, a
//! new one, another amount, or the clock moved on). The learner's steps are
//! a parameter (`steps`), lines of the one script the player plays: a step
//! added shows the script's end at once, and the table, the moment and the
//! verdict are always of the same line (`sim::idempotency::Played::at`).

use crate::sim::idempotency::{clock, run, short, Edit, Step, StoreParams, HOUR_MS, MAX_STEPS};
use crate::sim::params::{self, Value};
use crate::sim::playback::Playback;
use crate::ui::hooks::use_moment::{past_end, use_moment_in, Moment};
use crate::ui::hooks::use_params::{use_params, ValuesState};
use crate::ui::widgets::controls::{command_line_in, controls, notes, run_notes};
use crate::ui::widgets::player::{Player, Run, Said};
use crate::ui::widgets::widget_frame::WidgetFrame;
use std::rc::Rc;
use yew::prelude::*;

/// A moment of the store's player in words: the lines shown.
fn lines(t: f64) -> String {
    crate::fmt::es_count((t / 1000.0).round() as i64, "línea", "líneas")
}

/// An edit of the script, applied to the parameters as they are when it lands.
fn edit(state: &ValuesState, what: Edit) {
    state.edit(Rc::new(move |values: &[Value]| {
        params::values(&params::from_values::<StoreParams>(values).edited(what))
    }));
}

#[component]
pub fn StoreWidget() -> Html {
    let h = use_params::<StoreParams>("store");
    let p = h.params.clone();
    // Another case starts afresh: the learner's steps go (a link's, on opening, stay).
    {
        let (state, opened) = (h.state.clone(), use_mut_ref(|| true));
        use_effect_with(p.scenario, move |_| {
            if !std::mem::replace(&mut *opened.borrow_mut(), false) {
                edit(&state, Edit::Clear);
            }
        });
    }
    // The whole script (the case's and the learner's steps: one parameter
    // struct, as the URL and the command line have it), played once per script.
    let script_p = StoreParams {
        line: None,
        ..p.clone()
    };
    let played = use_memo(script_p.clone(), run);
    let (steps, step_notes) = p.steps();
    let full = steps.len() >= MAX_STEPS;
    // The player steps through its lines.
    let span = {
        let span = played.span();
        use_memo(script_p, move |_| Run(Rc::new(span) as Rc<dyn Playback>))
    };
    let end = span.0.end_ms();
    let Moment {
        t: moment,
        on_frame,
        on_keep,
    } = use_moment_in(&h.state, "line", 1000.0, p.line, end);
    // The table, the moment and the verdict: all of the same line.
    let now = played.at(moment.unwrap_or(end));
    let add = |step: Step, label: &'static str| {
        let state = h.state.clone();
        let onclick = Callback::from(move |_: MouseEvent| edit(&state, Edit::Add(step)));
        html! { <button type="button" class="preset" disabled={full} data-step={step.key()} {onclick}>{ label }</button> }
    };
    let undo = {
        let state = h.state.clone();
        Callback::from(move |_: MouseEvent| edit(&state, Edit::Undo))
    };
    let verdict = &now.verdict;
    html! {
        <WidgetFrame id="store" subtitle=": un servidor que recuerda" layout="stacked">
            { controls(&h, Some(&["scenario", "in-progress", "ttl-h", "late-retry-h", "timeout-s", "work-s"])) }
            <div class="results">
                { notes(&h) }
                { run_notes(&step_notes) }
                <p class={classes!("verdict", verdict.0)} role="status" data-figure="performed">{ verdict.1.clone() }</p>
                if full {
                    <p class="notes" role="status">{ format!("Llegaste al tope de {MAX_STEPS} pasos tuyos: deshaz alguno o cambia de caso para seguir.") }</p>
                }
                { past_end(p.line.map(|l| l.saturating_mul(1000)), end, lines) }
                <Player id="store" run={(*span).clone()} t_ms={moment} {on_frame} {on_keep} said={Said::Lines} announce={AttrValue::from(crate::text::upper_first(&now.line()))} />
                <div class="table-wrap" data-rows={now.rows.to_string()}>
                    <table class="lesson-table store-steps" data-figure="steps">
                        <caption>{ "Lo que pasa, paso a paso" }</caption>
                        <thead><tr>
                            <th scope="col">{ "tiempo" }</th><th scope="col">{ "quién" }</th>
                            <th scope="col">{ "qué pasa" }</th><th scope="col">{ "respuesta" }</th>
                            <th scope="col">{ "lo que guarda el servidor" }</th>
                            <th scope="col">{ "hechas" }</th>
                        </tr></thead>
                        <tbody>
                            { for played.rows.iter().take(now.rows).map(|r| html! {
                                <tr>
                                    <td>{ clock(r.t_ms) }</td>
                                    <td>{ &r.who }</td>
                                    <td>{ &r.what }</td>
                                    <td class="reply">{ r.reply.clone().unwrap_or_else(|| "—".into()) }</td>
                                    <td class="kept">{ if r.store.is_empty() { "nada".to_string() } else {
                                        r.store.iter().map(|(k, st)| format!("{} · {}", short(k), st.split(" · ").next().unwrap_or(""))).collect::<Vec<_>>().join("; ")
                                    } }</td>
                                    <td>{ r.performed }</td>
                                </tr>
                            }) }
                        </tbody>
                    </table>
                </div>
                <div class="store-now" data-figure="store">
                    <strong>{ format!("El registro de llaves a los {}: ", clock(now.t_ms)) }</strong>
                    if now.store.is_empty() {
                        { "vacío." }
                    } else {
                        <ul>{ for now.store.iter().map(|(k, s)| html! { <li><code>{ short(k) }</code>{ format!(" · {s}") }</li> }) }</ul>
                    }
                </div>
                <div class="presets" role="group" aria-label="Sigue tú">
                    <span class="aside">{ "Sigue tú:" }</span>
                    { add(Step::SameKey, "otro intento, misma llave") }
                    { add(Step::NoKey, "otro intento, sin llave") }
                    { add(Step::NewKey, "otro intento, llave nueva") }
                    { add(Step::OtherBody, "misma llave, otro cuerpo") }
                    { add(Step::Wait(5_000), "avanzar 5 s") }
                    { add(Step::Wait(HOUR_MS as u64), "avanzar 1 h") }
                    { add(Step::Wait(24 * HOUR_MS as u64), "avanzar 24 h") }
                    if !steps.is_empty() {
                        <button type="button" class="preset" onclick={undo}>{ "deshacer" }</button>
                    }
                </div>
                { command_line_in(&h, "line", 1000.0, moment) }
            </div>
        </WidgetFrame>
    }
}
