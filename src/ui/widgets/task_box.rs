//! One of a widget's tasks, under its controls and results: «Predice y
//! comprueba» (the results hidden until the learner commits a prediction,
//! then the run plays from its start), «Encuéntralo» (explore, then write
//! what you found) or «Reto» (reach a state, then check it). Marked by the
//! core (`exercise::task`) with the exercises' reader and feedback, kept in
//! the progress, and said to an embedding page (`sensei-lab:score`, version
//! 2, with `task`).

use crate::exercise::answer::{read_as, shown, Unit};
use crate::exercise::progress::TaskEntry;
use crate::exercise::task::{check_answer, check_state, Kind, Task, Verdict};
use crate::exercise::Mark;
use crate::sim::params::{self, Value};
use crate::ui::exercise::exercise_block::{mark_view, placeholder, read_view};
use crate::ui::hooks::progress_store;
use crate::ui::pages::markdown::plain;
use crate::ui::widgets::task_scope::TaskCtx;
use web_sys::HtmlInputElement;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct TaskBoxProps {
    /// Which of the widget's tasks.
    pub index: usize,
    /// The widget's state (its query): a finding's or a goal's verdict is of
    /// the state it checked, and goes when the state changes.
    #[prop_or_default]
    pub query: AttrValue,
}

#[derive(Clone, PartialEq, Default)]
struct State {
    typed: String,
    verdict: Option<Verdict>,
    /// What the progress kept from an earlier visit.
    before: Option<TaskEntry>,
    notice: Option<String>,
    /// «Empezar» was pressed (a task with a start of its own is checked from there).
    started: bool,
    /// The widget's values before «Predecir», put back by «Cancelar».
    restore: Option<params::Values>,
}

/// Whether the learner asked for less motion: a committed prediction then
/// shows the whole run at once instead of playing it.
fn reduced_motion() -> bool {
    web_sys::window()
        .and_then(|w| w.match_media("(prefers-reduced-motion: reduce)").ok().flatten())
        .is_some_and(|m| m.matches())
}

/// The widget's values at the task's start: the lesson's, with the task's
/// `set`; at the run's first moment when `from_start` (a played widget).
fn start_values(ctx: &TaskCtx, task: &Task, from_start: bool) -> Option<params::Values> {
    let remote = ctx.remote.borrow();
    let state = remote.as_ref()?;
    let (mut values, _) = params::values_from_query(state.specs, state.defaults(), &task.set);
    if from_start {
        for key in [crate::sim::playback::MOMENT_KEY, "line"] {
            if let Some(i) = state.specs.iter().position(|s| s.key == key) {
                values[i] = Value::Int(0);
            }
        }
    }
    Some(values)
}

/// The widget's values now, as a link's query.
fn current_query(ctx: &TaskCtx) -> String {
    let remote = ctx.remote.borrow();
    remote.as_ref().map_or(String::new(), |s| s.query(s.values()))
}

fn heading(kind: &Kind) -> &'static str {
    match kind {
        Kind::Predict { .. } => "Predice y comprueba",
        Kind::Find { .. } => "Encuéntralo",
        Kind::Goal(_) => "Reto",
    }
}

#[component]
pub fn TaskBox(props: &TaskBoxProps) -> Html {
    let ctx = use_context::<TaskCtx>();
    let state = use_state(State::default);
    {
        // What an earlier visit kept, once the page is shown (a prerendered page knows no student).
        let (state, key) = (
            state.clone(),
            ctx.as_ref()
                .and_then(|c| c.tasks.get(props.index))
                .map(|(t, _)| t.key()),
        );
        use_effect_with(key, move |key| {
            if let Some(key) = key {
                let before = progress_store::load().0.task(key).cloned();
                if before.is_some() {
                    state.set(State {
                        before,
                        ..(*state).clone()
                    });
                }
            }
        });
    }
    {
        // A finding's or a goal's verdict is of the state it checked (a
        // prediction's is of its own parameters, and stays while its run plays).
        let hides = ctx
            .as_ref()
            .and_then(|c| c.tasks.get(props.index))
            .is_some_and(|(t, _)| t.hides());
        let state = state.clone();
        use_effect_with(props.query.clone(), move |_| {
            if !hides && state.verdict.is_some() {
                state.set(State {
                    verdict: None,
                    ..(*state).clone()
                });
            }
        });
    }
    // Whether a score goes anywhere: then the box says what a shown answer costs.
    let scored = crate::ui::pages::embed_messages::use_scored();
    let input_ref = use_node_ref();
    let Some(ctx) = ctx else { return Html::default() };
    let Some((task, body)) = ctx.tasks.get(props.index).cloned() else {
        return Html::default();
    };
    let index = props.index;
    let veiled_here = ctx.veiled == Some(index);
    let other_veiled = ctx.veiled.is_some() && !veiled_here;
    let (unit, label) = match &task.kind {
        Kind::Predict { figure, .. } | Kind::Find { figure, .. } => (Some(figure.unit), figure.label),
        Kind::Goal(_) => (None, ""),
    };
    let key = task.key();
    let dom_id = format!("task-{}", key.replace('/', "-"));

    // Marks, keeps and says a check.
    let conclude = {
        let (state, slug, key, query) = (state.clone(), ctx.slug.clone(), key.clone(), props.query.clone());
        let shows_answer = !matches!(task.kind, Kind::Goal(_));
        move |verdict: Verdict, typed: String| {
            let mut s = (*state).clone();
            let right = verdict.is_right();
            let (mut progress, _) = progress_store::load();
            progress.record_task(&key, right, &typed);
            // A wrong prediction or finding is answered with the value: right
            // later, it is right on the page but earns nothing.
            if !right && shows_answer {
                progress.reveal_task(&key);
            }
            let seen = right && progress.task(&key).is_some_and(|t| t.revealed);
            s.notice = progress_store::save(&progress).err();
            s.before = progress.task(&key).cloned();
            crate::ui::pages::embed_messages::post_task_score(&slug, &key, right && !seen, seen);
            // An LMS that launched the lab hears it: what was typed, or a goal's state.
            if crate::ui::lms::active() {
                let state_now = if query.is_empty() {
                    "(valores de la lección)".to_string()
                } else {
                    query.to_string()
                };
                let done = crate::exercise::scorm::task_interaction(&key, &typed, &state_now, right);
                crate::ui::lms::checked(&progress, &[done]);
            }
            s.verdict = Some(verdict);
            state.set(s);
        }
    };
    let start = {
        let (ctx, task) = (ctx.clone(), task.clone());
        let state = state.clone();
        Callback::from(move |_: MouseEvent| {
            let restore = ctx.remote.borrow().as_ref().map(|r| r.values().clone());
            if let (Some(values), Some(remote)) = (start_values(&ctx, &task, false), ctx.remote.borrow().as_ref()) {
                remote.put(values);
            }
            if task.hides() {
                ctx.set_veiled.emit(Some(index));
            }
            state.set(State {
                verdict: None,
                started: true,
                restore,
                ..(*state).clone()
            });
        })
    };
    let cancel = {
        // Back to what was shown before «Predecir»: the task's setting is not
        // left in sight to predict from.
        let (ctx, state) = (ctx.clone(), state.clone());
        Callback::from(move |_: MouseEvent| {
            if let (Some(values), Some(remote)) = (state.restore.clone(), ctx.remote.borrow().as_ref()) {
                remote.put(values);
            }
            ctx.set_veiled.emit(None);
        })
    };
    let on_input = {
        let state = state.clone();
        Callback::from(move |e: InputEvent| {
            let typed = e.target_unchecked_into::<HtmlInputElement>().value();
            state.set(State {
                typed,
                verdict: None,
                ..(*state).clone()
            });
        })
    };
    let on_submit = {
        let (ctx, task, state, conclude) = (ctx.clone(), task.clone(), state.clone(), conclude.clone());
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let typed = state.typed.clone();
            match &task.kind {
                Kind::Goal(_) => conclude(check_state(&task, &current_query(&ctx)), String::new()),
                Kind::Find { .. } => {
                    let verdict = check_answer(&task, &current_query(&ctx), &typed);
                    if matches!(verdict.mark, Mark::Right { .. } | Mark::Wrong { .. }) {
                        conclude(verdict, typed);
                    } else {
                        // Nothing to keep or to tell the course: only what was not read.
                        state.set(State {
                            verdict: Some(verdict),
                            ..(*state).clone()
                        });
                    }
                }
                Kind::Predict { .. } => {
                    // At the task's own parameters, whatever was moved while they were hidden.
                    let verdict = check_answer(&task, &task.set, &typed);
                    if !matches!(verdict.mark, Mark::Right { .. } | Mark::Wrong { .. }) {
                        // Not a prediction yet (empty, or not read): nothing is shown.
                        state.set(State {
                            verdict: Some(verdict),
                            ..(*state).clone()
                        });
                        return;
                    }
                    let play = !reduced_motion();
                    if let (Some(values), Some(remote)) =
                        (start_values(&ctx, &task, play), ctx.remote.borrow().as_ref())
                    {
                        remote.put(values);
                    }
                    ctx.set_veiled.emit(None);
                    if play {
                        ctx.request_play.emit(());
                    }
                    conclude(verdict, typed);
                }
            }
        })
    };

    let predicting = task.hides() && veiled_here;
    {
        // The field, once the results are hidden: where the learner writes next.
        let input_ref = input_ref.clone();
        use_effect_with(predicting, move |on| {
            if *on {
                if let Some(input) = input_ref.cast::<HtmlInputElement>() {
                    let _ = input.focus();
                }
            }
        });
    }
    // A task with a start of its own (a goal's `set`) is checked from there.
    let must_start = !task.hides() && !task.set.is_empty() && !state.started;
    let answering = matches!(task.kind, Kind::Find { .. }) || predicting;
    let live = unit
        .filter(|_| answering && state.verdict.is_none())
        .and_then(|u| shown(&read_as(&state.typed, u, label), u));
    let verdict = state.verdict.as_ref().map(|v| {
        let head = match (&task.kind, &v.mark) {
            (Kind::Goal(_), Mark::Right { .. }) => html! { <span class="mark right">{ "✓ ¡Lo lograste!" }</span> },
            (Kind::Goal(_), _) => html! { <span class="mark wrong">{ "✗ Todavía no." }</span> },
            (Kind::Predict { .. } | Kind::Find { .. }, Mark::Right { .. }) => {
                html! { <>{ read_view(v.mark.read().unwrap_or_default()) }<span class="mark right">{ v.right_words(&task.kind) }</span></> }
            }
            (Kind::Predict { .. }, Mark::Wrong { hint, .. }) => html! {
                <>{ read_view(v.mark.read().unwrap_or_default()) }<span class="mark wrong">{ "✗ No era eso" }{ hint.as_ref().map(|h| format!(". {h}")) }</span></>
            },
            (_, m) => mark_view(m),
        };
        html! {
            <div class="task-verdict" data-right={v.is_right().to_string()}>
                <p>{ head }</p>
                { for v.lines.iter().map(|l| html! { <p class="task-line">{ l }</p> }) }
            </div>
        }
    });
    let before =
        state
            .before
            .as_ref()
            .filter(|_| state.verdict.is_none())
            .map(|b| match (b.right, b.answer.is_empty()) {
                (true, true) => "Ya lo resolviste en otra visita.".to_string(),
                (true, false) => format!("Ya lo resolviste en otra visita (escribiste «{}»).", b.answer),
                (false, true) => "Ya lo intentaste en otra visita.".to_string(),
                (false, false) => format!("Ya lo intentaste en otra visita (tu última respuesta: «{}»).", b.answer),
            });
    // What a shown answer costs, said before it is shown and when it applies.
    let seen_before = state.before.as_ref().is_some_and(|b| b.revealed);
    let right_before = state.before.as_ref().is_some_and(|b| b.right);
    let warn = scored && answering && unit.is_some() && state.verdict.is_none() && !right_before && !seen_before;
    let no_credit = scored && seen_before && state.verdict.as_ref().is_some_and(Verdict::is_right);
    let input_id = format!("{dom_id}-answer");
    let field = unit.filter(|_| answering).map(|u| {
        let label = if matches!(task.kind, Kind::Predict { .. }) { "Tu predicción" } else { "Lo que encontraste" };
        let label = if u == Unit::Share { format!("{label} (en %)") } else { label.to_string() };
        html! {
            <div class="part">
                <label for={input_id.clone()} class="part-label">{ label }</label>
                <input ref={input_ref.clone()} id={input_id.clone()} type="text" inputmode="decimal" autocomplete="off" class="answer"
                    placeholder={placeholder(u)} value={state.typed.clone()} oninput={on_input.clone()}
                    aria-describedby={format!("{input_id}-read")} />
                <div class="part-read" id={format!("{input_id}-read")}>{ live.as_deref().map(read_view).unwrap_or_default() }</div>
            </div>
        }
    });
    let has_start = !task.set.is_empty() || task.hides();
    let state_name = match (&state.verdict, predicting) {
        (_, true) => "predicting",
        (Some(v), _) if v.is_right() => "right",
        (Some(v), _) if matches!(v.mark, Mark::Wrong { .. }) => "wrong",
        _ => "open",
    };
    html! {
        <section class="task" id={dom_id.clone()} data-task={key.clone()} data-state={state_name} aria-labelledby={format!("{dom_id}-kind")}>
            <p class="task-kind" id={format!("{dom_id}-kind")}>{ heading(&task.kind) }</p>
            <div class="task-text">
                { for body.iter().map(|run| plain(run)) }
            </div>
            <form class="task-form" onsubmit={on_submit} novalidate=true>
                { field.unwrap_or_default() }
                <div class="exercise-actions">
                    if must_start {
                        <button key="begin" type="button" class="primary task-start" onclick={start.clone()}>{ "Empezar" }</button>
                    } else if task.hides() && !predicting {
                        <button key="start" type="button" class="primary task-start" onclick={start.clone()} disabled={other_veiled}>
                            { if state.verdict.is_some() { "Predecir otra vez" } else { "Predecir" } }
                        </button>
                    } else {
                        <button key="check" type="submit" class="primary task-check">
                            { if matches!(task.kind, Kind::Goal(_)) { "Comprobar este estado" } else { "Comprobar" } }
                        </button>
                    }
                    if predicting {
                        <button key="cancel" type="button" class="secondary" onclick={cancel}>{ "Cancelar" }</button>
                    } else if has_start && !task.hides() && !must_start {
                        <button key="again" type="button" class="secondary task-start" onclick={start}>{ "Volver a empezar" }</button>
                    }
                </div>
            </form>
            // Always there, so that what is put in it is announced.
            <div class="task-said" aria-live="polite">
                if predicting {
                    <p class="task-hidden">{ "Los resultados quedan ocultos hasta que escribas tu predicción y presiones «Comprobar»." }</p>
                }
                if warn {
                    <p class="task-note" data-figure="reveal-warning">{ "Si fallas, verás la respuesta, y acertar después ya no sumará a tu calificación." }</p>
                }
                { verdict.unwrap_or_default() }
                if no_credit {
                    <p class="task-note" data-figure="no-credit">{ "Bien, pero ya no suma a tu calificación: habías visto la respuesta." }</p>
                }
            </div>
            if let Some(b) = before {
                <p class="task-before">{ b }</p>
            }
            if let Some(n) = &state.notice {
                <p class="notes" role="status">{ n }</p>
            }
        </section>
    }
}
