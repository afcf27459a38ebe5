//! The student's progress over the nine exercises and the review
//! questions, with a reset. Listens for changes made by any exercise.

use crate::exercise::{build, has_variants, COUNT, MAX_VARIANT};
use crate::ui::hooks::progress_store;
use yew::prelude::*;

#[component]
pub fn ProgressSummary() -> Html {
    // Read once the page is shown (a prerendered page, which knows no
    // student, is hydrated first), then after every change.
    let progress = use_state(|| (crate::exercise::progress::Progress::new(), None::<String>));
    {
        let progress = progress.clone();
        use_effect_with((), move |_| {
            progress.set(progress_store::load());
            let listener = web_sys::window().map(|w| {
                gloo::events::EventListener::new(&w, progress_store::EVENT, move |_| {
                    progress.set(progress_store::load())
                })
            });
            move || drop(listener)
        });
    }
    let (p, notice) = &*progress;
    let slug = use_context::<crate::ui::route::LessonSlug>()
        .map(|s| s.0)
        .unwrap_or_default();
    let reset = Callback::from(|_: MouseEvent| {
        let ok = web_sys::window()
            .and_then(|w| w.confirm_with_message("¿Borrar todo tu avance en los ejercicios?").ok())
            .unwrap_or(false);
        if ok {
            progress_store::reset();
        }
    });
    let rows = (1..=COUNT).map(|n| {
        let parts = build(n, 0).map_or(0, |e| e.parts.len());
        let lesson = p.right(n, 0);
        let others = p
            .exercises
            .get(&n)
            .map_or(0, |vs| vs.iter().filter(|(v, e)| **v > 0 && e.parts > 0 && e.right.len() == e.parts as usize).count());
        let done = lesson == parts && parts > 0;
        html! {
            <li class={classes!(done.then_some("done"))} data-progress={n.to_string()}>
                <crate::ui::router::Link to={crate::ui::route::Route::Section { lesson: slug.clone(), section: format!("ejercicio-{n}") }}>{ format!("Ejercicio {n}") }</crate::ui::router::Link>
                { format!(": {lesson} de {parts} partes bien") }
                if others > 0 {
                    { format!(" · {others} {} resuelta{}", if others == 1 { "versión más" } else { "versiones más" }, if others == 1 { "" } else { "s" }) }
                }
            </li>
        }
    });
    // «Repasar lo que fallé»: the parts answered wrong and never right, each
    // exercise in a new variant where it has variants (1, 3 and 9 have none).
    let mut missed: Vec<(u32, Vec<String>)> = Vec::new();
    for (n, _, ids) in p.missed() {
        match missed.iter_mut().find(|(m, _)| *m == n) {
            // (The same part missed in two variants is one part to go over.)
            Some((_, all)) => ids.into_iter().for_each(|id| {
                if !all.contains(&id) {
                    all.push(id);
                }
            }),
            None => missed.push((n, ids)),
        }
    }
    // A new variant per exercise, drawn once for this page (not at every redraw:
    // the link stays what it was when it was read).
    let drawn = use_mut_ref(Vec::<(u32, u32)>::new);
    let variant_of = |n: u32| {
        let mut drawn = drawn.borrow_mut();
        match drawn.iter().find(|(m, _)| *m == n) {
            Some((_, v)) => *v,
            None => {
                let v = 1 + (js_sys::Math::random() * MAX_VARIANT as f64) as u32;
                drawn.push((n, v));
                v
            }
        }
    };
    let review = (!missed.is_empty()).then(|| {
        html! {
            <section class="review-missed" data-progress="missed">
                <h4>{ "Repasar lo que fallé" }</h4>
                <ul>
                    { for missed.iter().map(|(n, ids)| {
                        let n = *n;
                        let variant = if has_variants(n) { variant_of(n) } else { 0 };
                        let labels: Vec<String> = build(n, 0).map(|e| e.parts.iter().filter(|p| ids.contains(&p.id)).map(|p| p.label.clone()).collect()).unwrap_or_default();
                        let mut q = format!("?exercise={n}&repaso={}", ids.join(","));
                        if variant > 0 {
                            q.push_str(&format!("&variant={variant}"));
                        }
                        let href = crate::ui::hooks::url_state::href(&format!("{}{q}", crate::route::Piece::Exercise(n).path(&slug, false)));
                        html! {
                            <li data-missed={n.to_string()}>
                                <a class="review-link" href={href}>{ format!("Ejercicio {n}") }</a>
                                { format!(": {} ", if ids.len() == 1 { "1 parte".to_string() } else { format!("{} partes", ids.len()) }) }
                                <span class="aside">{ format!("({}){}", labels.join("; "), if variant > 0 { ", con otros números" } else { "" }) }</span>
                            </li>
                        }
                    }) }
                </ul>
            </section>
        }
    });
    html! {
        <aside class="progress-summary" aria-label="Tu avance">
            <h3>{ format!("Tu avance: {} de {COUNT} ejercicios resueltos", p.solved()) }</h3>
            <ul>{ for rows }</ul>
            { review }
            if !p.review.is_empty() {
                <p class="aside" data-progress="review">{ match (p.review.values().filter(|k| **k).count(), p.review.len()) {
                    (1, 1) => "Preguntas de repaso: sabías la única que marcaste.".to_string(),
                    (0, 1) => "Preguntas de repaso: no sabías la única que marcaste.".to_string(),
                    (knew, of) => format!("Preguntas de repaso: sabías {knew} de las {of} que marcaste."),
                } }</p>
            }
            if let Some(n) = notice {
                <p class="notes" role="status">{ n }</p>
            }
            <p class="aside">{ if kept_by_lms() { "Se guarda en la plataforma de tu curso." } else { "Se guarda en este navegador, nada más." } }
                <button type="button" class="link" onclick={reset}>{ "Borrar mi avance" }</button></p>
        </aside>
    }
}

/// Whether the learner's progress is kept by the LMS that launched the page; a
/// SCORM package's page prerendered says so already (it is made to be launched
/// by one: `sensei-lab scorm-page`), as the page then says once awake.
fn kept_by_lms() -> bool {
    crate::ui::lms::active() || (cfg!(not(target_arch = "wasm32")) && crate::ui::host::package().is_some())
}
