//! What a wrong URL shows; and, in the learner's build, a page it leaves to
//! another build (`ui::app::renders`) when the browser is offline.

use crate::ui::route::Route;
use crate::ui::router::Link;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct NotFoundProps {
    /// «Para docentes» of this lesson, asked for offline: its code was not kept.
    #[prop_or_default]
    pub offline: Option<String>,
}

#[component]
pub fn NotFound(props: &NotFoundProps) -> Html {
    if let Some(lesson) = &props.offline {
        let here = crate::ui::hooks::url_state::href(&Route::Teachers { lesson: lesson.clone() }.path());
        return html! {
            <main class="not-found">
                <h1>{ "Para docentes" }</h1>
                <p>{ "Esta página no se guarda para usarla sin conexión: se abre solo con internet. Vuelve a intentarlo cuando tengas conexión." }</p>
                <p><a href={here}>{ "Volver a intentar" }</a>{ " · " }<Link to={Route::Lesson { lesson: lesson.clone() }}>{ "Ir a la lección" }</Link></p>
            </main>
        };
    }
    html! {
        <main class="not-found">
            <h1>{ "No encontramos esa página" }</h1>
            <p>{ "Puede que el enlace esté incompleto o que la sección haya cambiado de nombre." }</p>
            <p><Link to={Route::Home}>{ "Ir a la lección" }</Link></p>
        </main>
    }
}
