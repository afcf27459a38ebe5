//! The idempotency key, live: a server with an idempotency store. A case
//! from the lesson or exercise 9 is played step by step, and the learner can
//! go on with it: send another attempt (same key, none, a new one, another
//! amount), or move the clock.

use crate::sim::idempotency::{clock, play, script, short, uuid4, Action, Attempt, StoreParams, HOUR_MS};
use crate::sim::playback::Playback;
use crate::sim::policy::rng::PyRandom;
use crate::ui::hooks::use_moment::{past_end, use_moment_in, Moment};
use crate::ui::hooks::use_params::use_params;
use crate::ui::widgets::controls::{command_line_in, controls, notes};
use crate::ui::widgets::player::{Player, Run, Said};
use crate::ui::widgets::widget_frame::WidgetFrame;
use std::rc::Rc;
use yew::prelude::*;

/// What the learner can add to the script.
#[derive(Clone, Copy, PartialEq)]
enum Extra {
    SameKey,
    NoKey,
    NewKey,
    OtherBody,
    Advance(f64),
}

fn last_attempt(actions: &[Action]) -> Option<&Attempt> {
    actions.iter().rev().find_map(|a| match a {
        Action::Send(a) => Some(a),
        Action::Advance { .. } => None,
    })
}

fn extend(actions: &[Action], extra: Extra, seed: u32) -> Option<Action> {
    let last = last_attempt(actions)?.clone();
    let key = actions.iter().rev().find_map(|a| match a {
        Action::Send(a) => a.key.clone(),
        Action::Advance { .. } => None,
    });
    let attempt = |key: Option<String>, body: String| {
        Some(Action::Send(Attempt {
            key,
            body,
            lose_reply: false,
            ..last.clone()
        }))
    };
    match extra {
        Extra::SameKey => attempt(key, last.body.clone()),
        Extra::NoKey => attempt(None, last.body.clone()),
        Extra::NewKey => {
            let mut rng = PyRandom::new(seed.wrapping_add(actions.len() as u32).wrapping_add(1));
            attempt(Some(uuid4(&mut rng)), last.body.clone())
        }
        Extra::OtherBody => attempt(key, format!("{} (otro)", last.body.trim_end_matches(" (otro)"))),
        Extra::Advance(ms) => Some(Action::Advance { ms }),
    }
}

/// A moment of the store's player in words: the lines shown.
fn lines(t: f64) -> String {
    crate::fmt::es_count((t / 1000.0).round() as i64, "línea", "líneas")
}

/// The learner's own steps, at most (the buttons say so when reached).
const MAX_STEPS: usize = 40;

#[component]
pub fn StoreWidget() -> Html {
    let h = use_params::<StoreParams>("store");
    let p = h.params.clone();
    // The learner's own steps, after the case's; a new case starts afresh.
    let extra = use_state(Vec::<Action>::new);
    {
        let extra = extra.clone();
        use_effect_with(p.clone(), move |_| extra.set(Vec::new()));
    }
    let base = script(&p);
    let mut actions = base.clone();
    actions.extend((*extra).iter().cloned());
    let played = play(&actions, p.ttl_h as f64 * HOUR_MS, p.in_progress);
    let full = (*extra).len() >= MAX_STEPS;
    // The player steps through the lines; the script changes with every step added.
    let span = {
        let (key, span) = ((p.clone(), (*extra).clone()), played.span());
        use_memo(key, move |_| Run(Rc::new(span) as Rc<dyn Playback>))
    };
    let end = span.0.end_ms();
    let Moment {
        t: moment,
        on_frame,
        on_keep,
    } = use_moment_in(&h.state, "line", 1000.0, p.line, end);
    let now = moment.map(|t| played.at(t));
    let shown = now.as_ref().map_or(played.rows.len(), |m| m.rows);
    let add = |what: Extra, label: &'static str| {
        let extra = extra.clone();
        let actions = actions.clone();
        let seed = p.seed;
        let onclick = Callback::from(move |_: MouseEvent| {
            if let Some(a) = extend(&actions, what, seed) {
                let mut next = (*extra).clone();
                if next.len() < MAX_STEPS {
                    next.push(a);
                    extra.set(next);
                }
            }
        });
        html! { <button type="button" class="preset" disabled={full} {onclick}>{ label }</button> }
    };
    let verdict = played.verdict();
    let undo = {
        let extra = extra.clone();
        Callback::from(move |_: MouseEvent| {
            let mut next = (*extra).clone();
            next.pop();
            extra.set(next);
        })
    };
    let (keys_now, keys_at) = match &now {
        Some(m) => (m.store.clone(), m.t_ms),
        None => (
            played.rows.last().map(|r| r.store.clone()).unwrap_or_default(),
            played.now_ms,
        ),
    };
    html! {
        <WidgetFrame id="store" subtitle=": un servidor que recuerda" layout="stacked">
            { controls(&h, Some(&["scenario", "in-progress", "ttl-h", "late-retry-h", "timeout-s", "work-s"])) }
            <div class="results">
                { notes(&h) }
                <p class={classes!("verdict", verdict.0)} role="status" data-figure="performed">{ verdict.1 }</p>
                if full {
                    <p class="notes" role="status">{ format!("Llegaste al tope de {MAX_STEPS} pasos tuyos: deshaz alguno o cambia de caso para seguir.") }</p>
                }
                { past_end(p.line.map(|l| l.saturating_mul(1000)), end, lines) }
                <Player id="store" run={(*span).clone()} t_ms={moment} {on_frame} {on_keep} said={Said::Lines} announce={now.as_ref().map(|m| AttrValue::from(crate::text::upper_first(&m.line())))} />
                <div class="table-wrap" data-rows={shown.to_string()}>
                    <table class="lesson-table store-steps" data-figure="steps">
                        <caption>{ "Lo que pasa, paso a paso" }</caption>
                        <thead><tr>
                            <th scope="col">{ "tiempo" }</th><th scope="col">{ "quién" }</th>
                            <th scope="col">{ "qué pasa" }</th><th scope="col">{ "respuesta" }</th>
                            <th scope="col">{ "lo que guarda el servidor" }</th>
                            <th scope="col">{ "hechas" }</th>
                        </tr></thead>
                        <tbody>
                            { for played.rows.iter().take(shown).map(|r| html! {
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
                    <strong>{ format!("El registro de llaves a los {}: ", clock(keys_at)) }</strong>
                    if keys_now.is_empty() {
                        { "vacío." }
                    } else {
                        <ul>{ for keys_now.iter().map(|(k, s)| html! { <li><code>{ short(k) }</code>{ format!(" · {s}") }</li> }) }</ul>
                    }
                </div>
                <div class="presets" role="group" aria-label="Sigue tú">
                    <span class="aside">{ "Sigue tú:" }</span>
                    { add(Extra::SameKey, "otro intento, misma llave") }
                    { add(Extra::NoKey, "otro intento, sin llave") }
                    { add(Extra::NewKey, "otro intento, llave nueva") }
                    { add(Extra::OtherBody, "misma llave, otro cuerpo") }
                    { add(Extra::Advance(5_000.0), "avanzar 5 s") }
                    { add(Extra::Advance(HOUR_MS), "avanzar 1 h") }
                    { add(Extra::Advance(24.0 * HOUR_MS), "avanzar 24 h") }
                    if !extra.is_empty() {
                        <button type="button" class="preset" onclick={undo}>{ "deshacer" }</button>
                    }
                </div>
                { command_line_in(&h, "line", 1000.0, moment) }
            </div>
        </WidgetFrame>
    }
}
