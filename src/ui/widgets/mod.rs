//! The widgets, one per file, and the parts they share: a frame, the controls built from a scenario's specs, the figures.

pub(crate) mod backoff_widget;
pub(crate) mod breaker_widget;
pub(crate) mod budget_widget;
pub(crate) mod chain_widget;
pub(crate) mod clocks_widget;
pub(crate) mod controls;
pub(crate) mod degradation_widget;
pub(crate) mod failmode_widget;
pub(crate) mod failure_widget;
pub(crate) mod figures;
pub(crate) mod hedging_widget;
pub(crate) mod herd_widget;
pub(crate) mod inflight_widget;
pub(crate) mod layers_widget;
pub(crate) mod param_control;
pub(crate) mod player;
pub(crate) mod shedding_widget;
pub(crate) mod store_widget;
pub(crate) mod storm_widget;
pub(crate) mod task_box;
pub(crate) mod task_scope;
pub(crate) mod widget_frame;
