//! One exercise, answered in the page: the statement, one field (or a
//! choice) per part, «Comprobar» part by part, then the worked solution;
//! «Otra versión» draws other numbers (the variant is in the URL, so a link
//! reproduces it). Everything comes from [`crate::exercise`].

use crate::exercise::answer::{read_as, shown, Unit};
use crate::exercise::progress::Progress;
use crate::exercise::scorm::{Solutions, REVEAL_WARNING};
use crate::exercise::{build, check, check_part, has_variants, variant_from_text, Exercise, Mark, MAX_VARIANT};
use crate::ui::hooks::progress_store;
use crate::ui::hooks::url_state;
use web_sys::HtmlInputElement;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct ExerciseProps {
    pub n: u32,
}

/// `exercise=N&variant=K` in the URL: the variant of exercise N to show;
/// `class=K`: the variant of every exercise, the same for a whole class. A
/// variant the URL cannot give (`-1`, `abc`, `2000000`) comes with a note.
pub fn variant_from_url(n: u32) -> (u32, Option<String>) {
    if !has_variants(n) {
        return (0, None);
    }
    let q = url_state::current_query();
    let (mut ex, mut variant, mut class) = (None, None, None);
    for kv in q.trim_start_matches('?').split('&') {
        match kv.split_once('=') {
            Some(("exercise", v)) => ex = v.parse::<u32>().ok(),
            Some(("variant", v)) => variant = Some(v),
            Some(("class", v)) => class = Some(v),
            _ => {}
        }
    }
    // A SCORM package made for a class fixes its variant (`ui::lms` counts the score in it).
    let fixed = crate::ui::host::package().map_or(0, |p| p.class);
    if ex == Some(n) {
        variant.map_or((fixed, None), |v| variant_from_text(v, "La versión"))
    } else {
        class.map_or((fixed, None), |c| variant_from_text(c, "La versión de la clase"))
    }
}

/// The variant in the URL (nothing for the lesson's numbers), beside the widgets' states.
fn write_url(n: u32, variant: u32) {
    url_state::replace_query(&crate::route::with_exercise(&url_state::current_query(), n, variant));
}

#[derive(Clone, PartialEq)]
struct State {
    variant: u32,
    answers: Vec<String>,
    marks: Option<Vec<Mark>>,
    /// A real check happened (not only parts remembered from before).
    checked: bool,
    /// Per part: an answer was checked (right or wrong), now or before.
    tried: Vec<bool>,
    /// Per part: its solution was opened before it was right (it earns nothing).
    revealed: Vec<bool>,
    solution: bool,
    notice: Option<String>,
    /// What the URL asked for that could not be shown as asked.
    url_note: Option<String>,
}

impl State {
    /// Variant `variant`, with the parts the student answered right before.
    fn fresh(n: u32, variant: u32) -> Self {
        // What went wrong with storage on load is said once, by the progress summary.
        Self::with(n, variant, &progress_store::load().0)
    }

    fn with(n: u32, variant: u32, progress: &Progress) -> Self {
        let ex = build(n, variant);
        // Parts answered right before (in this variant) come back filled in.
        let answers = ex
            .iter()
            .flat_map(|e| e.parts.iter())
            .map(|p| progress.answer(n, variant, &p.id).unwrap_or_default().to_string())
            .collect();
        // Checked again, so that what was read is shown (and an answer read otherwise today is not «bien»).
        let marks = ex.as_ref().and_then(|e| {
            let before: Vec<Mark> = e
                .parts
                .iter()
                .zip(&answers)
                .map(|(p, a): (_, &String)| {
                    if !progress.is_right(n, variant, &p.id) {
                        Mark::Empty
                    } else if a.is_empty() {
                        Mark::Right { read: String::new() }
                    } else {
                        match check_part(p, a) {
                            m @ Mark::Right { .. } => m,
                            _ => Mark::Empty,
                        }
                    }
                })
                .collect();
            before.iter().any(Mark::is_right).then_some(before)
        });
        let parts = ex.as_ref().map_or(&[][..], |e| &e.parts[..]);
        let tried = parts
            .iter()
            .map(|p| progress.is_right(n, variant, &p.id) || progress.answer(n, variant, &p.id).is_some())
            .collect();
        let revealed = parts.iter().map(|p| progress.is_revealed(n, variant, &p.id)).collect();
        State {
            variant,
            answers,
            marks,
            checked: false,
            tried,
            revealed,
            solution: false,
            notice: None,
            url_note: None,
        }
    }
}

/// «Leí: 2.5 ms», before the mark or, while typing, alone.
pub(crate) fn read_view(read: &str) -> Html {
    html! { <span class="read" data-figure="read">{ "Leí: " }<strong>{ read }</strong></span> }
}

pub(crate) fn mark_view(m: &Mark) -> Html {
    let read = m.read().filter(|r| !r.is_empty()).map(read_view).unwrap_or_default();
    let verdict = match m {
        Mark::Right { .. } => html! { <span class="mark right">{ "✓ Bien" }</span> },
        Mark::Empty => html! { <span class="mark empty">{ "Sin respuesta" }</span> },
        Mark::Wrong { hint: None, .. } => html! { <span class="mark wrong">{ "✗ No" }</span> },
        Mark::Wrong { hint: Some(why), .. } => {
            html! { <span class="mark wrong">{ "✗ No. " }<span class="why">{ why }</span></span> }
        }
        Mark::Unreadable(what) => html! { <span class="mark unreadable">{ what }</span> },
    };
    html! { <>{ read }{ verdict }</> }
}

pub(crate) fn placeholder(unit: Unit) -> &'static str {
    match unit {
        Unit::Ms => "ms, o con su unidad",
        Unit::Rate => "por segundo",
        Unit::Share => "por ejemplo 16",
        Unit::Count => "número",
        Unit::Clock => "hh:mm:ss",
        _ => "",
    }
}

#[component]
pub fn ExerciseBlock(props: &ExerciseProps) -> Html {
    let n = props.n;
    // The answers saved before come in once the page is shown: a
    // prerendered page, which knows no student, is hydrated first.
    let state = use_state(|| {
        let (variant, note) = variant_from_url(n);
        State {
            url_note: note,
            ..State::with(n, variant, &Progress::new())
        }
    });
    // «Repasar lo que fallé» (the progress summary's link): the parts to go over again.
    let to_review: Vec<String> = (*use_memo(n, |n| {
        let q = url_state::current_query();
        if url_state::value_in(&q, "exercise").and_then(|e| e.parse::<u32>().ok()) != Some(*n) {
            return Vec::new();
        }
        url_state::value_in(&q, "repaso")
            .map(|r| {
                r.split(',')
                    .filter(|id| !id.is_empty())
                    .take(20)
                    .map(|id| id.chars().take(8).collect())
                    .collect()
            })
            .unwrap_or_default()
    }))
    .clone();
    // An instructor's embed without the worked solution (`solutions=0`, the print view's name).
    let no_solution = *use_memo((), |_| {
        url_state::query_value(crate::route::SOLUTIONS_KEY).as_deref() == Some("0")
    });
    // A package's solutions open as its instructor chose (on the site: after a check).
    let policy = crate::ui::host::package().map_or(Solutions::Always, |p| p.solutions);
    // Whether a score goes anywhere: then the page says what opening a solution costs.
    let scored = crate::ui::pages::embed_messages::use_scored();
    {
        let state = state.clone();
        use_effect_with(n, move |_| {
            // Built again (exercise 7 runs the breaker) only if something was saved for this version.
            let (progress, _) = progress_store::load();
            if progress
                .exercises
                .get(&n)
                .is_some_and(|vs| vs.contains_key(&state.variant))
            {
                let saved = State {
                    url_note: state.url_note.clone(),
                    ..State::with(n, state.variant, &progress)
                };
                if saved != *state {
                    state.set(saved);
                }
            }
        });
    }
    let slug = use_context::<crate::ui::route::LessonSlug>()
        .map(|s| s.0)
        .unwrap_or_default();
    // Built once per variant, not on every keystroke (exercise 7 runs the breaker's simulation).
    let built = use_memo(state.variant, move |v| build(n, *v));
    let Some(ex) = (*built).clone() else {
        return html! {};
    };
    let ex: Exercise = ex;
    let set_answer = |i: usize| {
        let state = state.clone();
        Callback::from(move |value: String| {
            let mut s = (*state).clone();
            if let Some(a) = s.answers.get_mut(i) {
                *a = value.chars().take(200).collect();
            }
            // An edited part is no longer marked.
            if let Some(m) = s.marks.as_mut().and_then(|m| m.get_mut(i)) {
                *m = Mark::Empty;
            }
            state.set(s);
        })
    };
    let on_check = {
        let slug = slug.clone();
        let state = state.clone();
        let ex = ex.clone();
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let mut s = (*state).clone();
            let marks = check(&ex, &s.answers);
            let (mut progress, _) = progress_store::load();
            // Every part with what was typed: the last answers come back on a reload, right or not.
            // Each part as progress keeps it and, for an LMS that launched the lab, as it hears it.
            let lms = crate::ui::lms::active();
            let mut checked: Vec<(String, String, bool)> = Vec::with_capacity(ex.parts.len());
            let mut interactions = Vec::new();
            for ((p, m), a) in ex.parts.iter().zip(&marks).zip(&s.answers) {
                checked.push((p.id.clone(), a.clone(), m.is_right()));
                if lms {
                    interactions.extend(crate::exercise::scorm::part_interaction(ex.n, ex.variant, p, a, m));
                }
            }
            progress.record_check(ex.n, ex.variant, &checked, ex.parts.len() as u32);
            // Right after its solution was opened: right on the page, no credit.
            let seen = checked
                .iter()
                .filter(|c| c.2 && progress.is_revealed(ex.n, ex.variant, &c.0))
                .count();
            let right = checked.iter().filter(|c| c.2).count() - seen;
            s.notice = progress_store::save(&progress).err();
            crate::ui::pages::embed_messages::post_score(&slug, ex.n, ex.variant, right, seen, ex.parts.len());
            // An LMS that launched the lab hears each part answered, and the score.
            if lms {
                crate::ui::lms::checked(&progress, &interactions);
            }
            for (t, m) in s.tried.iter_mut().zip(&marks) {
                *t |= matches!(m, Mark::Right { .. } | Mark::Wrong { .. });
            }
            s.revealed = ex
                .parts
                .iter()
                .map(|p| progress.is_revealed(ex.n, ex.variant, &p.id))
                .collect();
            s.marks = Some(marks);
            s.checked = true;
            state.set(s);
        })
    };
    let right_before = state.marks.as_ref().is_some_and(|m| m.iter().any(Mark::is_right));
    // Why the solution does not open now, if it does not.
    let closed = policy.closed_because(state.checked || right_before, state.tried.iter().all(|t| *t));
    let toggle_solution = {
        let state = state.clone();
        let ex = ex.clone();
        Callback::from(move |_: MouseEvent| {
            let mut s = (*state).clone();
            if !s.solution && closed.is_some() {
                return;
            }
            s.solution = !s.solution;
            if s.solution {
                // Opened: the parts not right yet earn nothing from now on (kept, and told to the course).
                let (mut progress, _) = progress_store::load();
                let ids: Vec<String> = ex.parts.iter().map(|p| p.id.clone()).collect();
                progress.reveal(ex.n, ex.variant, &ids);
                s.revealed = ex
                    .parts
                    .iter()
                    .map(|p| progress.is_revealed(ex.n, ex.variant, &p.id))
                    .collect();
                s.notice = progress_store::save(&progress).err();
                if crate::ui::lms::active() {
                    crate::ui::lms::checked(&progress, &[]);
                }
            }
            state.set(s);
        })
    };
    let other = {
        let state = state.clone();
        Callback::from(move |_: MouseEvent| {
            let v = 1 + (js_sys::Math::random() * MAX_VARIANT as f64) as u32;
            write_url(n, v);
            state.set(State::fresh(n, v));
        })
    };
    let lesson_numbers = {
        let state = state.clone();
        Callback::from(move |_: MouseEvent| {
            write_url(n, 0);
            state.set(State::fresh(n, 0));
        })
    };
    let checked = state.checked;
    let summary = state.marks.as_ref().filter(|_| checked).map(|m| {
        let right = m.iter().filter(|x| x.is_right()).count();
        let empty = m.iter().filter(|x| **x == Mark::Empty).count();
        let seen = m
            .iter()
            .zip(&state.revealed)
            .filter(|(x, r)| x.is_right() && **r)
            .count();
        let mut s = format!("{right} de {} bien", m.len());
        if empty > 0 {
            s.push_str(&format!("; {empty} sin respuesta"));
        }
        if scored && seen > 0 {
            s.push_str(&format!("; {seen} después de ver la solución, sin sumar"));
        }
        s + "."
    });
    // Before the solution opens, when a score goes somewhere: what opening it costs.
    let would_reveal = (0..ex.parts.len()).any(|i| {
        let right = state.marks.as_ref().and_then(|m| m.get(i)).is_some_and(Mark::is_right);
        !right && !state.revealed.get(i).copied().unwrap_or(false)
    });
    let warn = scored && !state.solution && !no_solution && policy != Solutions::Never && would_reveal;
    let id = format!("exercise-{n}");
    html! {
        <section class="exercise" id={id.clone()} data-exercise={n.to_string()} data-variant={state.variant.to_string()}>
            <div class="exercise-head"><crate::ui::pages::embed_code::EmbedCode piece={crate::ui::route::Piece::Exercise(n)} /></div>
            if let Some(note) = &state.url_note {
                <p class="notes" role="status" data-figure="url-note">{ note }</p>
            }
            if state.variant > 0 {
                <p class="variant-note">{ format!("Otra versión (número {}): los mismos pasos, con otros números.", state.variant) }</p>
            }
            <p class="statement" data-figure="statement">{ &ex.statement }</p>
            if ex.parts.iter().any(|p| to_review.contains(&p.id)) {
                <p class="review-note" data-figure="review">{ format!("Para repasar: {}.", ex.parts.iter().filter(|p| to_review.contains(&p.id)).map(|p| p.label.clone()).collect::<Vec<_>>().join("; ")) }</p>
            }
            <form class="parts" onsubmit={on_check} novalidate=true>
                { for ex.parts.iter().enumerate().map(|(i, p)| {
                    let input_id = format!("{id}-{}", p.id);
                    let value = state.answers.get(i).cloned().unwrap_or_default();
                    let mark = state.marks.as_ref().and_then(|m| m.get(i)).filter(|m| checked || m.is_right())
                        // A part edited since its mark has none (its text is read as typed).
                        .filter(|m| **m != Mark::Empty || value.trim().is_empty());
                    let field = match p.unit {
                        Unit::YesNo | Unit::Choice => {
                            let options: Vec<(String, String)> = if p.unit == Unit::YesNo {
                                vec![("sí".into(), "sí".into()), ("no".into(), "no".into())]
                            } else {
                                p.options.iter().map(|(l, t)| (l.to_string(), format!("{l}) {t}"))).collect()
                            };
                            let set = set_answer(i);
                            html! {
                                <div class={classes!("choices", (p.unit == Unit::YesNo).then_some("yes-no"))} role="radiogroup" aria-labelledby={format!("{input_id}-label")}>
                                    { for options.into_iter().map(|(key, label)| {
                                        let set = set.clone();
                                        let k = key.clone();
                                        html! {
                                            <label class="option">
                                                <input type="radio" name={input_id.clone()} value={key.clone()} checked={value == key}
                                                    onchange={Callback::from(move |_: Event| set.emit(k.clone()))} />
                                                <span>{ label }</span>
                                            </label>
                                        }
                                    }) }
                                </div>
                            }
                        }
                        _ => {
                            let set = set_answer(i);
                            let input = html! {
                                <input id={input_id.clone()} type="text" inputmode="decimal" autocomplete="off" class="answer"
                                    placeholder={placeholder(p.unit)} value={value.clone()}
                                    aria-describedby={format!("{input_id}-read")}
                                    oninput={Callback::from(move |e: InputEvent| set.emit(e.target_unchecked_into::<HtmlInputElement>().value()))} />
                            };
                            if p.unit == Unit::Share {
                                // A bare number here is a percentage: the field says so.
                                html! { <span class="answer-with-unit">{ input }<span class="answer-unit">{ "%" }</span></span> }
                            } else {
                                input
                            }
                        }
                    };
                    // While typing (before a mark), what the text reads as.
                    let live = if mark.is_none() && !matches!(p.unit, Unit::YesNo | Unit::Choice) {
                        shown(&read_as(&value, p.unit, &p.label), p.unit)
                    } else {
                        None
                    };
                    let label = if p.unit == Unit::Share { format!("{} (en %)", p.label) } else { p.label.clone() };
                    html! {
                        <div class={classes!("part", mark.map(|m| match m { Mark::Right { .. } => "is-right", Mark::Wrong { .. } => "is-wrong", _ => "is-other" }), to_review.contains(&p.id).then_some("to-review"))} data-part={p.id.clone()}>
                            <label id={format!("{input_id}-label")} for={input_id.clone()} class="part-label">{ label }</label>
                            { field }
                            <div class="part-read" id={format!("{input_id}-read")}>{ live.as_deref().map(read_view).unwrap_or_default() }</div>
                            <div class="part-mark" aria-live="polite">{ mark.map(mark_view).unwrap_or_default() }</div>
                        </div>
                    }
                }) }
                <div class="exercise-actions">
                    <button type="submit" class="primary">{ "Comprobar" }</button>
                    <button type="button" class="secondary" hidden={no_solution || policy == Solutions::Never} disabled={closed.is_some() && !state.solution} onclick={toggle_solution}
                        title={closed.unwrap_or_default()}>
                        { if state.solution { "Ocultar la solución" } else { "Ver la solución paso a paso" } }
                    </button>
                    if has_variants(n) {
                        <button type="button" class="secondary" onclick={other}>{ "Otra versión" }</button>
                    }
                    if state.variant > 0 {
                        <button type="button" class="link" onclick={lesson_numbers}>{ "Volver a los números de la lección" }</button>
                    }
                </div>
                if warn {
                    <p class="solution-note" data-figure="reveal-warning">{ REVEAL_WARNING }</p>
                }
                if let Some(why) = closed.filter(|_| policy != Solutions::Always && !no_solution) {
                    <p class="solution-note" data-figure="solution-closed">{ why }</p>
                }
                if let Some(s) = summary {
                    <p class="exercise-summary" role="status" data-figure="summary">{ s }</p>
                } else if right_before {
                    <p class="exercise-summary" data-figure="summary">{ "Las partes marcadas ya las tenías bien en una visita anterior." }</p>
                }
                if let Some(notice) = &state.notice {
                    <p class="notes" role="status">{ notice }</p>
                }
            </form>
            if state.solution && !no_solution {
                <div class="solution" data-figure="solution">
                    <h4>{ "Solución paso a paso" }</h4>
                    <ul>{ for ex.solution.iter().map(|s| html! { <li>{ s }</li> }) }</ul>
                </div>
            }
        </section>
    }
}
