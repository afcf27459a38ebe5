//! The browser front end (Yew). The only part of the crate that knows the
//! browser: everything it shows is computed by [`crate::sim`] and laid out
//! from [`crate::lesson`]. One component per file.

mod app;
mod backoff_widget;
mod bench;
mod block;
mod breaker_widget;
mod budget_widget;
mod canvas_backend;
mod chain_widget;
mod chart_canvas;
mod clocks_widget;
mod code_listing;
mod concept_cards;
mod controls;
mod degradation_widget;
mod embed_code;
mod embed_messages;
mod exercise_block;
mod failmode_widget;
mod failure_widget;
mod failures_table;
mod figures;
mod hedging_widget;
mod herd_widget;
mod inflight_table;
mod inflight_widget;
mod knew_it;
mod layers_table;
mod layers_widget;
mod lesson_page;
mod markdown;
mod methods_table;
mod not_found;
mod panic_panel;
mod param_control;
mod piece_page;
mod print_page;
mod progress_store;
mod progress_summary;
mod route;
mod router;
mod shedding_widget;
mod store_widget;
mod storm_widget;
mod term;
mod toc;
mod url_state;
mod use_params;
mod widget_frame;

pub use app::App;
pub use route::Route;

/// Entry point of the wasm binary.
pub fn start() {
    panic_panel::install();
    yew::Renderer::<App>::new().render();
}
