//! The lab's URLs ([`crate::route`]) and the lesson a piece of a page
//! belongs to.

pub use crate::route::{Piece, Route};

/// The lesson a piece of the page belongs to (for its «Insertar» code and links).
#[derive(Clone, Debug, PartialEq)]
pub struct LessonSlug(pub String);
