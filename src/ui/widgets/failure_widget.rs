//! «¿Reintentarías?»: a failure, the caller, a Retry-After header, the time
//! left, whether repeating is harmless and the budget → the core's decision.

use crate::sim::failures::{decide, parse_retry_after, Caller, Failure, Repeat, Situation, TABLE};
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

#[derive(Clone, PartialEq)]
struct State {
    failure: Failure,
    caller: Caller,
    left_ms: u64,
    retry_after: String,
    repeat: Repeat,
    budget_left: bool,
}

impl State {
    /// The core's situation as the form holds it (the core's paths, so the
    /// page and `sensei-lab failure` start from the same two).
    fn from(s: Situation) -> Self {
        State {
            failure: s.failure,
            caller: s.caller,
            left_ms: s.left_ms,
            retry_after: s.retry_after.unwrap_or_default().to_string(),
            repeat: s.repeat,
            budget_left: s.budget_left,
        }
    }
    fn ana() -> Self {
        State::from(Situation::interactive())
    }
    fn batch() -> Self {
        State::from(Situation::batch())
    }
}

/// Exercise 1's five cases.
fn presets() -> Vec<(&'static str, State)> {
    vec![
        (
            "(a) conexión rechazada",
            State {
                failure: Failure::ConnectionRefused,
                ..State::batch()
            },
        ),
        (
            "(b) un 422",
            State {
                failure: Failure::Status(422),
                ..State::batch()
            },
        ),
        (
            "(c) 429, batch",
            State {
                failure: Failure::Status(429),
                retry_after: "2".into(),
                ..State::batch()
            },
        ),
        (
            "(d) 429, camino de Ana",
            State {
                failure: Failure::Status(429),
                retry_after: "2".into(),
                ..State::ana()
            },
        ),
        (
            "(e) un 413",
            State {
                failure: Failure::Status(413),
                ..State::batch()
            },
        ),
    ]
}

fn failure_key(f: Failure) -> String {
    match f {
        Failure::ConnectionRefused => "refused".into(),
        Failure::Timeout => "timeout".into(),
        Failure::Status(c) => c.to_string(),
    }
}

fn failure_from_key(k: &str) -> Failure {
    match k {
        "refused" => Failure::ConnectionRefused,
        "timeout" => Failure::Timeout,
        c => c.parse().map(Failure::Status).unwrap_or(Failure::Timeout),
    }
}

/// The widget's state in the URL, with its own keys (`failure=429&caller=batch&retry-after=2…`),
/// only what differs from the default case.
fn to_query(s: &State) -> String {
    let d = State::ana();
    let mut q = Vec::new();
    if s.failure != d.failure {
        q.push(format!("failure={}", failure_key(s.failure)));
    }
    if s.caller != d.caller {
        q.push(format!(
            "caller={}",
            if s.caller == Caller::Batch {
                "batch"
            } else {
                "interactive"
            }
        ));
    }
    if s.left_ms != d.left_ms {
        q.push(format!("left-ms={}", s.left_ms));
    }
    if !s.retry_after.is_empty() {
        let enc: String = js_sys::encode_uri_component(&s.retry_after).into();
        q.push(format!("retry-after={enc}"));
    }
    if s.repeat != d.repeat {
        q.push(format!("repeat={}", repeat_key(s.repeat)));
    }
    if s.budget_left != d.budget_left {
        q.push(format!("budget-left={}", if s.budget_left { "on" } else { "off" }));
    }
    q.join("&")
}

fn repeat_key(r: Repeat) -> &'static str {
    match r {
        Repeat::Idempotent => "idempotent",
        Repeat::WithKey => "key",
        Repeat::Unsafe => "unsafe",
    }
}

/// Reads the state from the URL if it is this widget's; values that cannot be used are ignored.
fn from_query() -> State {
    let own = crate::ui::hooks::url_state::widget_query("failure");
    let query_value = |k| crate::ui::hooks::url_state::value_in(&own, k);
    if own.is_empty() {
        return State::ana();
    }
    let mut s = if query_value("caller").as_deref() == Some("batch") {
        State::batch()
    } else {
        State::ana()
    };
    if let Some(f) = query_value("failure") {
        let f = failure_from_key(&f);
        if TABLE.iter().any(|(t, ..)| *t == f) || f == Failure::Status(403) {
            s.failure = f;
        }
    }
    if let Some(v) = query_value("left-ms").and_then(|v| v.parse::<u64>().ok()) {
        s.left_ms = v.min(86_400_000);
    }
    if let Some(v) = query_value("retry-after") {
        let decoded: String = js_sys::decode_uri_component(&v)
            .ok()
            .and_then(|d| d.as_string())
            .unwrap_or_default();
        s.retry_after = decoded.chars().take(64).collect();
    }
    s.repeat = match query_value("repeat").as_deref() {
        Some("key") => Repeat::WithKey,
        Some("unsafe") => Repeat::Unsafe,
        _ => s.repeat,
    };
    if let Some(b) = query_value("budget-left") {
        s.budget_left = b != "off";
    }
    s
}

#[component]
pub fn FailureWidget() -> Html {
    let state = use_state(from_query);
    {
        // Every change is written to the URL, as the other widgets do (not
        // the state the URL already holds: that would make it the one a link lands on).
        let s = (*state).clone();
        use_effect_with(s, |s| {
            let own = to_query(s);
            if own != crate::ui::hooks::url_state::widget_query("failure") {
                crate::ui::hooks::url_state::write_widget("failure", &own);
            }
        });
    }
    let s = (*state).clone();
    let situation = Situation {
        failure: s.failure,
        caller: s.caller,
        left_ms: s.left_ms,
        retry_after: (!s.retry_after.trim().is_empty()).then_some(s.retry_after.as_str()),
        now_unix_s: Situation::interactive().now_unix_s,
        repeat: s.repeat,
        budget_left: s.budget_left,
    };
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
    let update = |f: fn(&mut State, String)| {
        let state = state.clone();
        move |value: String| {
            let mut next = (*state).clone();
            f(&mut next, value);
            state.set(next);
        }
    };
    let on_failure = {
        let set = update(|s, v| s.failure = failure_from_key(&v));
        Callback::from(move |e: Event| set(e.target_unchecked_into::<HtmlSelectElement>().value()))
    };
    let on_repeat = {
        let set = update(|s, v| {
            s.repeat = match v.as_str() {
                "key" => Repeat::WithKey,
                "unsafe" => Repeat::Unsafe,
                _ => Repeat::Idempotent,
            }
        });
        Callback::from(move |e: Event| set(e.target_unchecked_into::<HtmlSelectElement>().value()))
    };
    let on_caller = {
        let set = update(|s, v| {
            *s = if v == "batch" {
                State {
                    failure: s.failure,
                    retry_after: s.retry_after.clone(),
                    ..State::batch()
                }
            } else {
                State {
                    failure: s.failure,
                    retry_after: s.retry_after.clone(),
                    ..State::ana()
                }
            }
        });
        Callback::from(move |e: Event| set(e.target_unchecked_into::<HtmlSelectElement>().value()))
    };
    let on_left = {
        let set = update(|s, v| {
            s.left_ms = crate::fmt::parse_decimal(v.trim())
                .filter(|x| x.is_finite())
                .map_or(s.left_ms, |x| x.clamp(0.0, 86_400_000.0) as u64)
        });
        Callback::from(move |e: Event| set(e.target_unchecked_into::<HtmlInputElement>().value()))
    };
    let on_header = {
        let set = update(|s, v| s.retry_after = v.chars().take(64).collect());
        Callback::from(move |e: InputEvent| set(e.target_unchecked_into::<HtmlInputElement>().value()))
    };
    let on_budget = {
        let set = update(|s, v| s.budget_left = v == "true");
        Callback::from(move |e: Event| set(e.target_unchecked_into::<HtmlInputElement>().checked().to_string()))
    };
    let mut options: Vec<(String, String)> = TABLE
        .iter()
        .map(|(f, name, ..)| (failure_key(*f), name.to_string()))
        .collect();
    options.insert(4, ("403".into(), "403 Forbidden".into()));
    if let Some(o) = options.iter_mut().find(|o| o.0 == "401") {
        o.1 = "401 Unauthorized".into();
    }
    html! {
        <figure class="widget" id="widget-failure" data-widget="failure">
            <figcaption class="widget-title"><span class="badge">{ "Decisión en vivo" }</span>{ crate::lesson::widget_name("failure").unwrap_or_default() }
                <crate::ui::pages::embed_code::EmbedCode piece={crate::ui::route::Piece::Widget("failure".into())} /></figcaption>
            <div class="presets" role="group" aria-label="Los casos del ejercicio 1">
                { for presets().into_iter().map(|(label, preset)| {
                    let state = state.clone();
                    html! { <button type="button" class="preset" onclick={Callback::from(move |_| state.set(preset.clone()))}>{ label }</button> }
                }) }
            </div>
            <div class="widget-grid">
                <div class="controls">
                    <label class="control"><span class="control-head">{ "La falla" }</span>
                        <select id="failure-failure" onchange={on_failure}>
                            { for options.iter().map(|(k, n)| html! { <option value={k.clone()} selected={*k == failure_key(s.failure)}>{ n }</option> }) }
                        </select>
                    </label>
                    <label class="control"><span class="control-head">{ "Quién llama" }</span>
                        <select id="failure-caller" onchange={on_caller}>
                            <option value="interactive" selected={s.caller == Caller::Interactive}>{ "interactivo (una persona espera)" }</option>
                            <option value="batch" selected={s.caller == Caller::Batch}>{ "batch (nadie espera)" }</option>
                        </select>
                    </label>
                    <label class="control"><span class="control-head">{ "Tiempo que queda antes del deadline (ms)" }</span>
                        <input id="failure-left-ms" type="number" class="number wide" min="0" value={s.left_ms.to_string()} onchange={on_left} />
                    </label>
                    <label class="control"><span class="control-head">{ "Retry-After" }</span>
                        <input id="failure-retry-after" type="text" class="number wide" placeholder="2, o Wed, 02 Dec 2026 12:00:02 GMT" value={s.retry_after.clone()} oninput={on_header} />
                        if let Some(n) = header_note { <span class="aside">{ n }</span> }
                    </label>
                    <label class="control"><span class="control-head">{ "¿Se puede repetir sin daño?" }</span>
                        <select id="failure-repeat" onchange={on_repeat}>
                            <option value="idempotent" selected={s.repeat == Repeat::Idempotent}>{ "sí, es idempotente" }</option>
                            <option value="key" selected={s.repeat == Repeat::WithKey}>{ "sí, lleva llave de idempotencia" }</option>
                            <option value="unsafe" selected={s.repeat == Repeat::Unsafe}>{ "no (publicar, cobrar…)" }</option>
                        </select>
                    </label>
                    <label class="toggle"><input id="failure-budget" type="checkbox" checked={s.budget_left} onchange={on_budget} />{ " queda presupuesto de reintentos" }</label>
                </div>
                <div class="results">
                    <p class={if d.retry { "verdict ok" } else { "verdict bad" }} role="status" aria-live="polite" data-figure="decision">{ d.why.clone() }</p>
                    <p class="aside">{ "Hora del servidor para un Retry-After con fecha: Wed, 02 Dec 2026 12:00:00 GMT." }</p>
                </div>
            </div>
        </figure>
    }
}
