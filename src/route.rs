//! The lab's URLs: the lesson, each section, each widget and exercise on
//! its own, the same pieces for an iframe (`/embed/…`), and a print view.
//!
//! Pure: a path (without the site's base) to a [`Route`] and back. The
//! browser's side (history, links) is `ui::router`.
//!
//! ```
//! use sensei_lab::route::Route;
//! let r = Route::from_path("/lecciones/l/widgets/herd");
//! assert_eq!(r, Route::Widget { lesson: "l".into(), id: "herd".into() });
//! assert_eq!(r.path(), "/lecciones/l/widgets/herd");
//! assert_eq!(Route::from_path("/lecciones/l/ejercicios/x"), Route::NotFound);
//! ```

#[derive(Clone, Debug, PartialEq)]
pub enum Route {
    /// The course's first lesson (`/`).
    Home,
    /// A whole lesson (`/lecciones/:lesson`).
    Lesson { lesson: String },
    /// A lesson, scrolled to one of its sections (`/lecciones/:lesson/:section`).
    Section { lesson: String, section: String },
    /// One widget, on its own page (`/lecciones/:lesson/widgets/:id`).
    Widget { lesson: String, id: String },
    /// One exercise, on its own page (`/lecciones/:lesson/ejercicios/:n`).
    Exercise { lesson: String, n: u32 },
    /// The exercises for paper (`/imprimir/:lesson`, `?solutions=1`, `?class=K`).
    Print { lesson: String },
    /// A section, for an iframe: no navigation (`/embed/:lesson/:section`).
    EmbedSection { lesson: String, section: String },
    /// `/embed/:lesson/widgets/:id`
    EmbedWidget { lesson: String, id: String },
    /// `/embed/:lesson/ejercicios/:n`
    EmbedExercise { lesson: String, n: u32 },
    /// Anything else.
    NotFound,
}

impl Route {
    /// The route of a path (the site's base already taken off; a trailing
    /// slash is ignored).
    pub fn from_path(path: &str) -> Route {
        let path = path.strip_suffix('/').filter(|p| !p.is_empty()).unwrap_or(path);
        let Some(rest) = path.strip_prefix('/') else {
            return Route::NotFound;
        };
        let seg: Vec<&str> = if rest.is_empty() {
            Vec::new()
        } else {
            rest.split('/').collect()
        };
        if seg.iter().any(|s| s.is_empty()) {
            return Route::NotFound;
        }
        match seg.as_slice() {
            [] => Route::Home,
            ["lecciones", lesson] => Route::Lesson {
                lesson: lesson.to_string(),
            },
            ["imprimir", lesson] => Route::Print {
                lesson: lesson.to_string(),
            },
            ["lecciones", lesson, rest @ ..] => {
                Piece::from_segments(rest).map_or(Route::NotFound, |p| Route::of_piece(lesson.to_string(), p, false))
            }
            ["embed", lesson, rest @ ..] => {
                Piece::from_segments(rest).map_or(Route::NotFound, |p| Route::of_piece(lesson.to_string(), p, true))
            }
            _ => Route::NotFound,
        }
    }

    /// The route that shows `piece` of `lesson`, in the lesson or embedded.
    pub fn of_piece(lesson: String, piece: Piece, embed: bool) -> Route {
        match (piece, embed) {
            (Piece::Section(section), false) => Route::Section { lesson, section },
            (Piece::Widget(id), false) => Route::Widget { lesson, id },
            (Piece::Exercise(n), false) => Route::Exercise { lesson, n },
            (Piece::Section(section), true) => Route::EmbedSection { lesson, section },
            (Piece::Widget(id), true) => Route::EmbedWidget { lesson, id },
            (Piece::Exercise(n), true) => Route::EmbedExercise { lesson, n },
        }
    }

    /// The path of this route (without the site's base).
    pub fn path(&self) -> String {
        match self {
            Route::Home => "/".into(),
            Route::Lesson { lesson } => format!("/lecciones/{lesson}"),
            Route::Section { lesson, section } => Piece::Section(section.clone()).path(lesson, false),
            Route::Widget { lesson, id } => Piece::Widget(id.clone()).path(lesson, false),
            Route::Exercise { lesson, n } => Piece::Exercise(*n).path(lesson, false),
            Route::Print { lesson } => format!("/imprimir/{lesson}"),
            Route::EmbedSection { lesson, section } => Piece::Section(section.clone()).path(lesson, true),
            Route::EmbedWidget { lesson, id } => Piece::Widget(id.clone()).path(lesson, true),
            Route::EmbedExercise { lesson, n } => Piece::Exercise(*n).path(lesson, true),
            Route::NotFound => "/404".into(),
        }
    }
}

/// What one page or iframe shows.
#[derive(Clone, Debug, PartialEq)]
pub enum Piece {
    Section(String),
    Widget(String),
    Exercise(u32),
}

impl Piece {
    /// The piece named by the path's segments after the lesson's:
    /// `section`, `widgets/id` or `ejercicios/n`.
    fn from_segments(seg: &[&str]) -> Option<Piece> {
        match seg {
            [section] => Some(Piece::Section(section.to_string())),
            ["widgets", id] => Some(Piece::Widget(id.to_string())),
            ["ejercicios", n] => n.parse().ok().map(Piece::Exercise),
            _ => None,
        }
    }

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_route_reads_back_from_its_path() {
        let (l, x) = (
            "timeouts-reintentos-idempotencia".to_string(),
            "idempotencia".to_string(),
        );
        let routes = [
            Route::Home,
            Route::Lesson { lesson: l.clone() },
            Route::Section {
                lesson: l.clone(),
                section: x.clone(),
            },
            Route::Widget {
                lesson: l.clone(),
                id: "herd".into(),
            },
            Route::Exercise {
                lesson: l.clone(),
                n: 4,
            },
            Route::Print { lesson: l.clone() },
            Route::EmbedSection {
                lesson: l.clone(),
                section: x.clone(),
            },
            Route::EmbedWidget {
                lesson: l.clone(),
                id: "storm".into(),
            },
            Route::EmbedExercise {
                lesson: l.clone(),
                n: 12,
            },
        ];
        for r in routes {
            assert_eq!(Route::from_path(&r.path()), r, "{}", r.path());
            // A trailing slash changes nothing.
            assert_eq!(Route::from_path(&format!("{}/", r.path())), r, "{}", r.path());
        }
        assert_eq!(
            Route::from_path("/lecciones/l/widgets"),
            Route::Section {
                lesson: "l".into(),
                section: "widgets".into()
            }
        );
    }

    #[test]
    fn anything_else_is_not_found() {
        for p in [
            "",
            "lecciones/l",
            "/404",
            "/lecciones",
            "/lecciones//x",
            "/lecciones/l/ejercicios/-1",
            "/lecciones/l/ejercicios/99999999999",
            "/lecciones/l/a/b",
            "/lecciones/l/widgets/a/b",
            "/embed/l",
            "/imprimir",
            "/otra/cosa",
        ] {
            assert_eq!(Route::from_path(p), Route::NotFound, "{p}");
        }
    }
}
