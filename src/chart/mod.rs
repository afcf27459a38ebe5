//! Charts, drawn on any plotters [`DrawingBackend`]: a canvas in the
//! browser (`plotters-canvas`), an SVG string in native tests. One module
//! per chart; each takes plain data prepared by the core's results, so the
//! same picture can be checked without a browser.
//!
//! [`DrawingBackend`]: plotters::prelude::DrawingBackend

pub mod chain;
pub mod clocks;
pub mod herd;
pub mod inflight;
pub mod timeline;

use plotters::coord::Shift;
use plotters::prelude::{DrawingArea, DrawingAreaErrorKind, DrawingBackend};

/// Any chart of the lab, so that one canvas component can draw them all.
#[derive(Clone, Debug, PartialEq)]
pub enum Chart {
    Herd(herd::HerdChart),
    Timeline(timeline::Timeline),
    Inflight(inflight::InflightChart),
}

impl Chart {
    pub fn draw<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
    ) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
        match self {
            Chart::Herd(c) => herd::draw(root, c),
            Chart::Timeline(t) => timeline::draw(root, t),
            Chart::Inflight(c) => inflight::draw(root, c),
        }
    }
}

use plotters::style::RGBColor;

/// The lab's palette (matches `static/style.css`).
pub mod palette {
    use super::RGBColor;
    /// The chosen policy (e.g. with jitter).
    pub const PRIMARY: RGBColor = RGBColor(0x1f, 0x6f, 0xb2);
    /// The reference it is compared with (e.g. sin jitter).
    pub const CONTRAST: RGBColor = RGBColor(0xd9, 0x5f, 0x02);
    /// Limits: capacity, deadlines.
    pub const LIMIT: RGBColor = RGBColor(0x2b, 0x2b, 0x2b);
    pub const GRID: RGBColor = RGBColor(0xe3, 0xe6, 0xea);
    pub const TEXT: RGBColor = RGBColor(0x33, 0x3a, 0x44);
    /// What went well: an answer in time.
    pub const OK: RGBColor = RGBColor(0x1b, 0x7f, 0x4b);
    /// Work for nobody.
    pub const ZOMBIE: RGBColor = RGBColor(0xb4, 0x23, 0x18);
}
