//! Charts on a canvas: plotters-canvas's backend, sized to the screen's pixels, and the component that draws any `Chart` in it.

pub(crate) mod canvas_backend;
pub(crate) mod chart_canvas;
