//! The tables of numbers the core computes (`::table{id=…}`).

pub(crate) mod failures_table;
pub(crate) mod inflight_table;
pub(crate) mod layers_table;
pub(crate) mod methods_table;
