//! The pages and what they are made of: the lesson, a piece alone or embedded, the print view, «Para docentes» (with its previews), the missing page; the table of contents, the blocks and markdown of a lesson, the concept terms and cards, a program's listing, the embed code and its messages.

pub(crate) mod block;
pub(crate) mod code_listing;
pub(crate) mod concept_cards;
pub(crate) mod embed_code;
pub(crate) mod embed_messages;
pub(crate) mod lesson_page;
pub(crate) mod markdown;
pub(crate) mod not_found;
pub(crate) mod piece_page;
// «Para docentes» and its previews: only in the instructors' build (build.rs).
#[cfg(instructors)]
pub(crate) mod preview_frame;
pub(crate) mod print_page;
#[cfg(instructors)]
pub(crate) mod teachers_page;
pub(crate) mod term;
pub(crate) mod toc;
