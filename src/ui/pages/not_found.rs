//! What a wrong URL shows.

use crate::ui::route::Route;
use crate::ui::router::Link;
use yew::prelude::*;

#[component]
pub fn NotFound() -> Html {
    html! {
        <main class="not-found">
            <h1>{ "No encontramos esa página" }</h1>
            <p>{ "Puede que el enlace esté incompleto o que la sección haya cambiado de nombre." }</p>
            <p><Link to={Route::Home}>{ "Ir a la lección" }</Link></p>
        </main>
    }
}
