//! «¿Reintentarías?»: a failure, the caller, a Retry-After header, the time
//! left, whether repeating is harmless and the budget → the core's decision.
//!
//! Its state is [`FailureParams`], declared like every other widget's: the
//! same keys in the URL and on the command line (`sensei-lab failure
//! --failure 429 --caller batch --retry-after 2`). Its form is its own
//! (fourteen failures read better in a list than as buttons).

use crate::sim::failures::{
    decide, parse_retry_after, Caller, Failure, FailureParams, CALLER_OPTIONS, FAILURE_OPTIONS, REPEAT_OPTIONS,
};
use crate::sim::params::{values, ChoiceKey, Field, Params, Toggle, Value};
use crate::ui::hooks::use_params::{use_draft, use_params};
use crate::ui::widgets::controls::{command_line, notes};
use crate::ui::widgets::widget_frame::WidgetFrame;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

/// Exercise 1's five cases.
fn presets() -> [(&'static str, FailureParams); 5] {
    let batch = |failure, retry_after: &str| FailureParams {
        failure,
        caller: Caller::Batch,
        retry_after: retry_after.into(),
        ..FailureParams::default()
    };
    [
        ("(a) conexión rechazada", batch(Failure::ConnectionRefused, "")),
        ("(b) un 422", batch(Failure::Status(422), "")),
        ("(c) 429, batch", batch(Failure::Status(429), "2")),
        (
            "(d) 429, camino de Ana",
            FailureParams {
                failure: Failure::Status(429),
                retry_after: "2".into(),
                ..FailureParams::default()
            },
        ),
        ("(e) un 413", batch(Failure::Status(413), "")),
    ]
}

/// A choice as a list: the spec's options, the one in use selected.
fn select<T: ChoiceKey + PartialEq>(
    id: &'static str,
    label: &'static str,
    options: &'static [(&'static str, &'static str)],
    current: T,
    onchange: Callback<Event>,
) -> Html {
    let Value::Choice(now) = current.to_value() else {
        return html! {};
    };
    html! {
        <label class="control"><span class="control-head">{ label }</span>
            <select {id} {onchange}>
                { for options.iter().map(|(k, n)| html! { <option value={*k} selected={*k == now}>{ *n }</option> }) }
            </select>
        </label>
    }
}

#[component]
pub fn FailureWidget() -> Html {
    let h = use_params::<FailureParams>("failure");
    let p = h.params.clone();
    let situation = p.situation();
    // What the learner is typing stays through a redraw (`use_draft`).
    let (left_field, left_text) = use_draft(situation.left_ms.to_string());
    let (header_field, header_text) = use_draft(p.retry_after.clone());
    let d = decide(&situation);
    let header_note = situation
        .retry_after
        .map(|v| match parse_retry_after(v, situation.now_unix_s) {
            Some(secs) => format!(
                "Se entiende como {} s.",
                crate::fmt::es_int(secs.min(i64::MAX as u64) as i64)
            ),
            None => "No se entiende: el estándar dice que se ignore.".to_string(),
        });
    let spec = |key: &str| FailureParams::specs().iter().find(|s| s.key == key).copied();
    // A list's choice: its key among the spec's own options (so it is `'static`).
    let choice = |key: &'static str, options: &'static [(&'static str, &'static str)]| {
        let set = h.state.setter(key);
        Callback::from(move |e: Event| {
            let v = e.target_unchecked_into::<HtmlSelectElement>().value();
            if let Some((k, _)) = options.iter().find(|(k, _)| *k == v) {
                set.emit(Value::Choice(k));
            }
        })
    };
    let on_caller = {
        let (caller, left) = (choice("caller", CALLER_OPTIONS), h.state.setter("left-ms"));
        Callback::from(move |e: Event| {
            caller.emit(e);
            // The time left becomes the new caller's own.
            left.emit(Value::Unset);
        })
    };
    let on_left = {
        let set = h.state.setter("left-ms");
        let left = spec("left-ms");
        Callback::from(move |e: Event| {
            let text = e.target_unchecked_into::<HtmlInputElement>().value();
            // Emptied: the caller's own again; unreadable: as it was.
            if let Some(v) = left.and_then(|s| {
                s.parse(&text)
                    .or_else(|| text.trim().is_empty().then_some(Value::Unset))
            }) {
                set.emit(v);
            }
        })
    };
    let on_header = {
        let set = h.state.setter("retry-after");
        Callback::from(move |e: InputEvent| {
            set.emit(Value::Text(e.target_unchecked_into::<HtmlInputElement>().value()))
        })
    };
    let on_budget = {
        let set = h.state.setter("budget-left");
        Callback::from(move |e: Event| {
            let on = e.target_unchecked_into::<HtmlInputElement>().checked();
            set.emit(Value::Choice(if on { "on" } else { "off" }));
        })
    };
    let max_chars = match spec("retry-after").map(|s| s.kind) {
        Some(crate::sim::params::Kind::Text { max_chars }) => max_chars,
        _ => 0,
    };
    // Exercise 1's cases above the form, as the lesson lists them.
    let top = html! {
        <div class="presets" role="group" aria-label="Los casos del ejercicio 1">
            { for presets().into_iter().map(|(label, preset)| html! {
                <button type="button" class="preset" onclick={h.state.set_all(values(&preset))}>{ label }</button>
            }) }
        </div>
    };
    html! {
        <WidgetFrame id="failure" {top}>
            <div class="controls">
                { select("failure-failure", "La falla", FAILURE_OPTIONS, p.failure, choice("failure", FAILURE_OPTIONS)) }
                { select("failure-caller", "Quién llama", CALLER_OPTIONS, p.caller, on_caller) }
                <label class="control"><span class="control-head">{ "Tiempo que queda antes del deadline (ms)" }</span>
                    <input id="failure-left-ms" type="number" inputmode="numeric" class="number wide" min="0" max="86400000"
                        ref={left_field} value={left_text} onchange={on_left} />
                    if p.left_ms.is_none() {
                        <span class="aside">{ if p.caller == Caller::Batch { "El de un trabajo batch: una hora." } else { "El del camino de Ana: 300 ms." } }</span>
                    }
                </label>
                <label class="control"><span class="control-head">{ "Retry-After" }</span>
                    <input id="failure-retry-after" type="text" class="number wide" maxlength={max_chars.to_string()}
                        placeholder="2, o Wed, 02 Dec 2026 12:00:02 GMT" ref={header_field} value={header_text} oninput={on_header} />
                    if let Some(n) = header_note { <span class="aside">{ n }</span> }
                </label>
                { select("failure-repeat", "¿Se puede repetir sin daño?", REPEAT_OPTIONS, p.idempotency, choice("idempotency", REPEAT_OPTIONS)) }
                <label class="toggle"><input id="failure-budget" type="checkbox" checked={p.budget_left == Toggle::On} onchange={on_budget} />{ " queda presupuesto de reintentos" }</label>
                <button type="button" class="reset" onclick={h.state.reset()}>{ "Volver a los valores de la lección" }</button>
            </div>
            <div class="results">
                { notes(&h) }
                <p class={if d.retry { "verdict ok" } else { "verdict bad" }} role="status" aria-live="polite" data-figure="decision">{ d.why.clone() }</p>
                <p class="aside">{ "Hora del servidor para un Retry-After con fecha: Wed, 02 Dec 2026 12:00:00 GMT." }</p>
                { command_line(&h) }
            </div>
        </WidgetFrame>
    }
}
