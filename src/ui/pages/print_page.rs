//! The exercises for paper: every exercise in the class's variant
//! (`?class=K`, 0 for the lesson's numbers), with room to answer, and with
//! the worked solutions if asked (`?solutions=1`). Prints cleanly.

use crate::exercise::answer::Unit;
use crate::exercise::{build, expected_text, has_variants, variant_from_text, Expect, Part, COUNT};
use crate::ui::hooks::url_state;
use crate::ui::route::Route;
use crate::ui::router::Link;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct PrintPageProps {
    pub slug: String,
}

#[component]
pub fn PrintPage(props: &PrintPageProps) -> Html {
    let Some(lesson) = crate::lesson::find(&props.slug) else {
        return html! { <crate::ui::pages::not_found::NotFound /> };
    };
    let (class, class_note) =
        url_state::query_value("class").map_or((0, None), |c| variant_from_text(&c, "La versión de la clase"));
    // Inside a SCORM package, which learners open, the sheet has no key: a
    // solution opens in its exercise, where opening it is counted.
    let in_package = crate::ui::host::package().is_some();
    let solutions = !in_package && url_state::query_value(crate::route::SOLUTIONS_KEY).is_some_and(|v| v == "1");
    let link = |class: u32, solutions: bool| {
        let mut q = Vec::new();
        if class > 0 {
            q.push(format!("class={class}"));
        }
        if solutions {
            q.push(format!("{}=1", crate::route::SOLUTIONS_KEY));
        }
        let q = if q.is_empty() {
            String::new()
        } else {
            format!("?{}", q.join("&"))
        };
        url_state::href(&format!("/imprimir/{}{q}", props.slug))
    };
    let print = Callback::from(|_: MouseEvent| {
        if let Some(w) = web_sys::window() {
            let _ = w.print();
        }
    });
    html! {
        <main class="print-page">
            <div class="print-controls">
                <Link to={Route::Lesson { lesson: props.slug.clone() }}>{ "← Volver a la lección" }</Link>
                if !in_package {
                    <a href={link(class, !solutions)}>{ if solutions { "Sin soluciones" } else { "Con soluciones" } }</a>
                }
                <button type="button" class="primary" onclick={print}>{ "Imprimir" }</button>
            </div>
            <h1>{ format!("{} · Ejercicios", lesson.title) }</h1>
            if let Some(note) = class_note {
                <p class="notes" role="status" data-figure="url-note">{ note }</p>
            }
            <p class="print-meta">
                { if class > 0 { format!("Versión de la clase: {class}. ") } else { "Con los números de la lección. ".to_string() } }
                { "Resuélvelos con lápiz; revisa con la solución." }
            </p>
            { for (1..=COUNT).filter_map(|n| build(n, if has_variants(n) { class } else { 0 })).map(|ex| html! {
                <section class="print-exercise" data-exercise={ex.n.to_string()}>
                    <h2>{ format!("Ejercicio {} · {}", ex.n, ex.level) }</h2>
                    <p>{ &ex.statement }</p>
                    <ul class="print-parts">
                        { for ex.parts.iter().map(|p| html! {
                            <li>
                                <span>{ &p.label }</span>
                                if matches!(p.unit, Unit::Choice | Unit::YesNo) {
                                    { options(p, solutions) }
                                } else if solutions {
                                    <span class="print-answer">{ expected_text(p) }</span>
                                } else {
                                    <span class="print-blank"></span>
                                    if p.unit == Unit::Share { { " %" } }
                                }
                            </li>
                        }) }
                    </ul>
                    if solutions {
                        <div class="print-solution">
                            <h3>{ "Solución paso a paso" }</h3>
                            <ul>{ for ex.solution.iter().map(|s| html! { <li>{ s }</li> }) }</ul>
                        </div>
                    }
                </section>
            }) }
        </main>
    }
}

/// A choice's options, or sí / no, each with its box; with the solutions,
/// the right one ticked (☑) and in bold, the others left empty (☐).
fn options(p: &Part, solutions: bool) -> Html {
    let items: Vec<(String, bool)> = match &p.expect {
        Expect::YesNo(yes) => vec![("sí".to_string(), *yes), ("no".to_string(), !*yes)],
        Expect::Choice(c) => p.options.iter().map(|(l, t)| (format!("{l}) {t}"), l == c)).collect(),
        Expect::Number(_) => Vec::new(),
    };
    html! {
        <ul class={classes!("print-options", (p.unit == Unit::YesNo).then_some("yes-no"))}>
            { for items.into_iter().map(|(text, right)| {
                let key = solutions && right;
                html! {
                    <li class={classes!(key.then_some("is-answer"))} data-answer={key.then_some("true")}>
                        { if key { "☑ " } else { "☐ " } }{ text }
                        if key { <span class="visually-hidden">{ " (respuesta)" }</span> }
                    </li>
                }
            }) }
        </ul>
    }
}
