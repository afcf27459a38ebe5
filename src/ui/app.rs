//! The application shell: router and switch.

use super::lesson_page::LessonPage;
use super::not_found::NotFound;
use super::route::Route;
use yew::prelude::*;
use yew_router::prelude::*;

fn switch(route: Route) -> Html {
    match route {
        Route::Home => match crate::lesson::all().first() {
            Some(l) => html! { <LessonPage slug={l.slug.clone()} section={None::<String>} /> },
            None => html! { <NotFound /> },
        },
        Route::Lesson { lesson } => html! { <LessonPage slug={lesson} section={None::<String>} /> },
        Route::Section { lesson, section } => {
            html! { <LessonPage slug={lesson} section={Some(section)} /> }
        }
        Route::NotFound => html! { <NotFound /> },
    }
}

#[component]
pub fn App() -> Html {
    html! {
        <BrowserRouter>
            <Switch<Route> render={switch} />
        </BrowserRouter>
    }
}
