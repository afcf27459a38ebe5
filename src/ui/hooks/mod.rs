//! State a component keeps beyond its render: a widget's parameters (`use_params`), the URL's query, saved progress.

pub(crate) mod progress_store;
pub(crate) mod url_state;
pub(crate) mod use_moment;
pub(crate) mod use_params;
