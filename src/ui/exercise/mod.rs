//! The exercises: a statement with its answer fields, marks and solution; «¿Lo sabías?»; the progress summary.

pub(crate) mod exercise_block;
pub(crate) mod knew_it;
pub(crate) mod progress_summary;
