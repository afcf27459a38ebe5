//! The lab's URLs: the lesson, each section, each widget and exercise on
//! its own, the same pieces for an iframe (`/embed/…`), and a print view.

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
    /// One widget, on its own page.
    #[at("/lecciones/:lesson/widgets/:id")]
    Widget { lesson: String, id: String },
    /// One exercise, on its own page.
    #[at("/lecciones/:lesson/ejercicios/:n")]
    Exercise { lesson: String, n: u32 },
    /// The exercises for paper (`?solutions=1`, `?class=K`).
    #[at("/imprimir/:lesson")]
    Print { lesson: String },
    /// A section, for an iframe: no navigation.
    #[at("/embed/:lesson/:section")]
    EmbedSection { lesson: String, section: String },
    #[at("/embed/:lesson/widgets/:id")]
    EmbedWidget { lesson: String, id: String },
    #[at("/embed/:lesson/ejercicios/:n")]
    EmbedExercise { lesson: String, n: u32 },
    #[not_found]
    #[at("/404")]
    NotFound,
}

/// What one page or iframe shows.
#[derive(Clone, Debug, PartialEq)]
pub enum Piece {
    Section(String),
    Widget(String),
    Exercise(u32),
}

impl Piece {
    /// The path of this piece (without the site's base), embedded or not.
    pub fn path(&self, lesson: &str, embed: bool) -> String {
        match (self, embed) {
            (Piece::Section(s), false) => format!("/lecciones/{lesson}/{s}"),
            (Piece::Section(s), true) => format!("/embed/{lesson}/{s}"),
            (Piece::Widget(id), false) => format!("/lecciones/{lesson}/widgets/{id}"),
            (Piece::Widget(id), true) => format!("/embed/{lesson}/widgets/{id}"),
            (Piece::Exercise(n), false) => format!("/lecciones/{lesson}/ejercicios/{n}"),
            (Piece::Exercise(n), true) => format!("/embed/{lesson}/ejercicios/{n}"),
        }
    }
}

/// The lesson a piece of the page belongs to (for its «Insertar» code and links).
#[derive(Clone, Debug, PartialEq)]
pub struct LessonSlug(pub String);
