//! The lab's URLs.

use yew_router::prelude::*;

#[derive(Clone, Debug, PartialEq, Routable)]
pub enum Route {
    /// The course's first lesson.
    #[at("/")]
    Home,
    /// A whole lesson.
    #[at("/lecciones/:lesson")]
    Lesson { lesson: String },
    /// A lesson, scrolled to one of its sections.
    #[at("/lecciones/:lesson/:section")]
    Section { lesson: String, section: String },
    #[not_found]
    #[at("/404")]
    NotFound,
}
