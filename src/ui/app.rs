//! The application shell: the router, and the page of each route.

use crate::ui::pages::lesson_page::LessonPage;
use crate::ui::pages::not_found::NotFound;
use crate::ui::pages::piece_page::PiecePage;
use crate::ui::pages::print_page::PrintPage;
#[cfg(instructors)]
use crate::ui::pages::teachers_page::TeachersPage;
use crate::ui::route::{Piece, Route};
use crate::ui::router::{use_router, Navigator};
use yew::prelude::*;

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
        Route::Widget { lesson, id } => html! { <PiecePage slug={lesson} piece={Piece::Widget(id)} /> },
        Route::Exercise { lesson, n } => html! { <PiecePage slug={lesson} piece={Piece::Exercise(n)} /> },
        Route::Print { lesson } => html! { <PrintPage slug={lesson} /> },
        #[cfg(instructors)]
        Route::Teachers { lesson } => html! { <TeachersPage slug={lesson} /> },
        // The learner's build has no «Para docentes» ([`renders`]): its links load
        // the page, whose build does. Only a visit the service worker answers
        // (offline, or a network too slow) gets here; or a lesson that is not there.
        #[cfg(not(instructors))]
        Route::Teachers { lesson } => match crate::lesson::find(&lesson) {
            Some(_) => html! { <NotFound offline={Some(lesson)} /> },
            None => html! { <NotFound /> },
        },
        Route::EmbedSection { lesson, section } => {
            html! { <PiecePage slug={lesson} piece={Piece::Section(section)} embed=true /> }
        }
        Route::EmbedWidget { lesson, id } => html! { <PiecePage slug={lesson} piece={Piece::Widget(id)} embed=true /> },
        Route::EmbedExercise { lesson, n } => {
            html! { <PiecePage slug={lesson} piece={Piece::Exercise(n)} embed=true /> }
        }
        Route::NotFound => html! { <NotFound /> },
    }
}

/// Whether this build renders `route`: the learner's build leaves «Para
/// docentes» out (`cfg(instructors)`, see build.rs), so a link to it is
/// followed by the browser, which loads that page with the build that has it.
pub fn renders(route: &Route) -> bool {
    cfg!(instructors) || !matches!(route, Route::Teachers { .. })
}

/// The attribute the app's root gets once the page answers (hydrated or
/// rendered): until then a prerendered page's controls are shown but inert
/// (style.css), since nothing would hear them yet.
pub const READY: &str = "data-ready";

#[component]
pub fn App() -> Html {
    let (route, navigator) = use_router();
    use_effect_with((), |_| {
        // Once the pieces it shows are there too (their code, in a split build).
        super::islands::island_root::after_arrivals(|| {
            let root = web_sys::window()
                .and_then(|w| w.document())
                .and_then(|d| d.get_element_by_id(super::ROOT_ID));
            if let Some(root) = root {
                let _ = root.set_attribute(READY, "");
            }
        });
    });
    html! {
        <ContextProvider<Navigator> context={navigator}>
            { switch(route) }
        </ContextProvider<Navigator>>
    }
}
