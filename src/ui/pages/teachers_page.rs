//! «Para docentes»: one page per lesson for instructors. Every widget (with
//! its tasks) and every exercise, each with «Insertar» and a preview that
//! loads when opened; the class's variant with its printable sheet and key;
//! the lesson's SCORM 1.2 package to upload to a course platform.

use crate::exercise::{has_variants, task, variant_from_text, COUNT, MAX_VARIANT};
use crate::ui::hooks::url_state;
use crate::ui::pages::embed_code::EmbedCode;
use crate::ui::pages::preview_frame::PreviewFrame;
use crate::ui::route::{LessonSlug, Piece, Route};
use crate::ui::router::Link;
use web_sys::HtmlInputElement;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct TeachersPageProps {
    pub slug: String,
}

/// The widgets a lesson places, in its order, once each.
fn widgets(lesson: &crate::lesson::Lesson) -> Vec<String> {
    let mut ids: Vec<String> = Vec::new();
    for d in lesson.directives() {
        if let (true, Some(id)) = (d.name == "widget", d.get("id")) {
            if !ids.iter().any(|i| i == id) {
                ids.push(id.to_string());
            }
        }
    }
    ids
}

/// The class's variant in the address (`?class=K`), where «Insertar» and the
/// previews read it (`route::piece_query`).
fn keep_class(k: u32) {
    url_state::replace_query(&if k > 0 { format!("class={k}") } else { String::new() });
}

/// One piece on the page: its name (a link to its page), «Insertar», what
/// is said of it (`about`), and its preview (`src`, the embed's address).
fn piece_card(slug: &str, piece: Piece, name: String, src: String, about: Html) -> Html {
    let data = match &piece {
        Piece::Widget(id) => format!("widget/{id}"),
        Piece::Exercise(n) => format!("exercise/{n}"),
        Piece::Section(s) => format!("section/{s}"),
    };
    html! {
        <article class="teachers-piece" data-piece={data}>
            <div class="teachers-piece-head">
                <h3><a href={url_state::href(&piece.path(slug, false))}>{ name.clone() }</a></h3>
                <EmbedCode piece={piece} />
            </div>
            { about }
            <PreviewFrame {src} {name} />
        </article>
    }
}

#[component]
pub fn TeachersPage(props: &TeachersPageProps) -> Html {
    // The class's variant: from the address (`?class=K`), then as chosen here.
    let class = use_state(|| url_state::query_value("class").map_or(0, |c| variant_from_text(&c, "").0));
    // The package's worked solutions: after a check (as on the site), only
    // once every part was checked, or never (`scripts/scorm.mjs --solutions`).
    let solutions = use_state(|| "always");
    // Not inside a SCORM package, which students open: the keys are here.
    let Some(lesson) = crate::lesson::find(&props.slug).filter(|_| crate::ui::host::package().is_none()) else {
        return html! { <crate::ui::pages::not_found::NotFound /> };
    };
    let slug = lesson.slug.clone();
    let tasks = task::of_lesson(lesson);
    let on_class = {
        let class = class.clone();
        Callback::from(move |e: Event| {
            let text = e.target_unchecked_into::<HtmlInputElement>().value();
            let k = variant_from_text(&text, "").0;
            keep_class(k);
            class.set(k);
        })
    };
    let draw = {
        let class = class.clone();
        Callback::from(move |_: MouseEvent| {
            let k = 1 + (js_sys::Math::random() * MAX_VARIANT as f64) as u32;
            keep_class(k);
            class.set(k);
        })
    };
    let on_solutions = |word: &'static str| {
        let solutions = solutions.clone();
        Callback::from(move |_: Event| solutions.set(word))
    };
    let package_name = format!(
        "{slug}{}.zip",
        match *solutions {
            "checked" => "-soluciones-al-comprobar",
            "never" => "-sin-soluciones",
            _ => "",
        }
    );
    let k = *class;
    let with_class = |path: String, more: &str| {
        let mut q: Vec<String> = Vec::new();
        if k > 0 {
            q.push(format!("class={k}"));
        }
        if !more.is_empty() {
            q.push(more.to_string());
        }
        let q = if q.is_empty() {
            String::new()
        } else {
            format!("?{}", q.join("&"))
        };
        url_state::href(&format!("{path}{q}"))
    };
    let embed = |piece: &Piece| {
        let q = if k > 0 && matches!(piece, Piece::Exercise(_)) {
            format!("?class={k}")
        } else {
            String::new()
        };
        url_state::href(&format!("{}{q}", piece.path(&slug, true)))
    };
    let name = |piece: &Piece| piece.name(&slug).unwrap_or_default();
    // Concepts named in a task's text open their cards, as in the lesson.
    let cards = crate::lesson::concepts::cards(&slug);
    html! {
        <ContextProvider<LessonSlug> context={LessonSlug(slug.clone())}>
        <div class="page teachers-page">
            <header class="site-header">
                <Link classes="brand" to={Route::Home}>{ "Sensei Lab" }</Link>
                <Link classes="crumb" to={Route::Lesson { lesson: slug.clone() }}>{ lesson.title.clone() }</Link>
            </header>
            <main class="lesson teachers">
                <h1>{ format!("Para docentes: {}", lesson.title) }</h1>
                <p>{ "Todo lo que puedes usar con tu grupo: cada widget y cada ejercicio para insertar en tu curso (en el estado que elijas), la versión de los ejercicios para tu clase, con su hoja y su clave, y el paquete SCORM para tu plataforma." }</p>
                <nav class="teachers-toc" aria-label="En esta página">
                    <a href="#scorm">{ "Paquete SCORM" }</a>{ " · " }
                    <a href="#clase">{ "Versión de la clase" }</a>{ " · " }
                    <a href="#widgets">{ "Widgets" }</a>{ " · " }
                    <a href="#ejercicios">{ "Ejercicios" }</a>
                </nav>

                <section id="scorm" class="teachers-part">
                    <h2>{ "Paquete SCORM 1.2 para tu plataforma" }</h2>
                    <p>{ "Un solo archivo que subes a Moodle, Canvas o Blackboard como actividad SCORM. La plataforma recibe, de cada estudiante: el estado (incompleto, aprobado o no aprobado según una calificación mínima de 80 %), la calificación (el porcentaje de partes correctas: las de los nueve ejercicios, con los números de la lección, y una por la tarea de cada widget) y cada respuesta comprobada. El avance se guarda en la plataforma: sigue al estudiante en otra computadora." }</p>
                    <p>{ "Solo cuenta lo que el estudiante encontró: una parte respondida bien después de abrir su solución paso a paso, o una tarea acertada después de ver su respuesta, se marca bien en la página y en su respuesta comprobada, pero no suma a la calificación (antes de abrirla, la página se lo dice). Lo que ya tenía bien antes sigue contando." }</p>
                    <fieldset class="scorm-solutions">
                        <legend>{ "La solución paso a paso de cada ejercicio, en el paquete" }</legend>
                        <label class="option"><input type="radio" name="scorm-solutions" value="always" checked={*solutions == "always"} onchange={on_solutions("always")} />
                            <span>{ "Después de comprobar una vez, como en el sitio" }</span></label>
                        <label class="option"><input type="radio" name="scorm-solutions" value="checked" checked={*solutions == "checked"} onchange={on_solutions("checked")} />
                            <span>{ "Solo cuando comprobó una respuesta en cada parte" }</span></label>
                        <label class="option"><input type="radio" name="scorm-solutions" value="never" checked={*solutions == "never"} onchange={on_solutions("never")} />
                            <span>{ "Nunca (para un examen)" }</span></label>
                    </fieldset>
                    <p><a class="primary scorm-download" href={url_state::href(&format!("/scorm/{package_name}"))} download="">{ format!("Descargar {package_name}") }</a></p>
                    <details>
                        <summary>{ "Cómo subirlo" }</summary>
                        <ul>
                            <li>{ "Moodle: «Agregar una actividad o un recurso» → «Paquete SCORM»; arrastra el .zip a «Paquete» y, en «Calificación», pon «Método de calificación» en «Calificación más alta». Haz clic en «Guardar cambios y mostrar»." }</li>
                            <li>{ "Canvas: en «Configuración» → «Aplicaciones», activa SCORM; luego, en el menú del curso, «SCORM» → «Subir paquete SCORM». Elige el .zip y ponle puntos a la tarea que se crea." }</li>
                            <li>{ "Con otra versión de la clase u otra calificación mínima, quien mantiene el laboratorio genera el paquete con «./lab build --scorm --class K --mastery N --solutions always|checked|never»." }</li>
                        </ul>
                    </details>
                </section>

                <section id="clase" class="teachers-part">
                    <h2>{ "Versión de la clase" }</h2>
                    <p>{ "Los ejercicios con números (2, 4, 5, 6, 7 y 8) tienen versiones: los mismos pasos con otros números. Elige una para todo tu grupo; la 0 usa los números de la lección." }</p>
                    <div class="class-chooser">
                        <label for="teachers-class">{ "Versión" }</label>
                        <input id="teachers-class" type="number" inputmode="numeric" class="number" min="0" max={MAX_VARIANT.to_string()}
                            value={k.to_string()} onchange={on_class} />
                        <button type="button" class="secondary" onclick={draw}>{ "Sortear otra" }</button>
                    </div>
                    <ul class="class-links">
                        <li><a class="class-sheet" href={with_class(format!("/imprimir/{slug}"), "")}>{ "Hoja para imprimir" }</a></li>
                        <li><a class="class-key" href={with_class(format!("/imprimir/{slug}"), &format!("{}=1", crate::route::SOLUTIONS_KEY))}>{ "Hoja con la clave (soluciones)" }</a></li>
                        <li><a class="class-lesson" href={with_class(format!("/lecciones/{slug}"), "")}>{ "La lección con esta versión (el enlace para tu grupo)" }</a></li>
                    </ul>
                </section>

                <section id="widgets" class="teachers-part">
                    <h2>{ "Widgets" }</h2>
                    { for widgets(lesson).into_iter().map(|id| {
                        let piece = Piece::Widget(id.clone());
                        let mine = tasks.iter().filter(|(t, _)| t.widget == id).cloned();
                        let about = html! {
                            { for mine.map(|(t, _)| html! {
                                <div class="teachers-task" data-task={t.key()}>
                                    <p class="task-kind">{ match t.kind { task::Kind::Predict { .. } => "Tarea: predice y comprueba", task::Kind::Find { .. } => "Tarea: encuentra", task::Kind::Goal(_) => "Tarea: alcanza la meta" } }</p>
                                    { for task_text(&slug, &t).iter().map(|run| crate::ui::pages::markdown::render_with(run, &slug, &cards)) }
                                </div>
                            }) }
                        };
                        piece_card(&slug, piece.clone(), name(&piece), embed(&piece), about)
                    }) }
                </section>

                <section id="ejercicios" class="teachers-part">
                    <h2>{ "Ejercicios" }</h2>
                    <p>{ "Al insertarlo, un ejercicio puede ir sin la solución paso a paso (para una tarea o un examen): marca «Sin la solución» en «Insertar»." }</p>
                    { for (1..=COUNT).map(|n| {
                        let piece = Piece::Exercise(n);
                        let about = html! {
                            <p class="aside">{ if has_variants(n) { "Con versiones: otros números, los mismos pasos." } else { "Sin versiones: siempre los datos de la lección." } }</p>
                        };
                        piece_card(&slug, piece.clone(), name(&piece), embed(&piece), about)
                    }) }
                </section>
            </main>
        </div>
        </ContextProvider<LessonSlug>>
    }
}

/// The text of task `t` of lesson `slug`, as the build read it (the
/// browser's lessons leave the tasks' texts out: a widget reads them there).
fn task_text(slug: &str, t: &task::Task) -> &'static [&'static str] {
    crate::lesson::task_sources()
        .iter()
        .find(|s| {
            s.slug == slug
                && s.attrs.contains(&("widget", t.widget.as_str()))
                && s.attrs.contains(&("id", t.id.as_str()))
        })
        .map_or(&[], |s| s.text)
}
