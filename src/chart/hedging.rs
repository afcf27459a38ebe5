//! How many reads are slower than each latency, without and with hedging,
//! on a logarithmic scale so that the tail (3 %, 0.09 %) shows.

use super::frame::Frame;
use super::legend::{Legend, Swatch};
use super::log_axis::LogAxis;
use super::palette;
use plotters::coord::Shift;
use plotters::prelude::*;

#[derive(Clone, Debug, PartialEq)]
pub struct HedgingChart {
    pub without: Vec<(f64, f64)>,
    pub with: Option<Vec<(f64, f64)>>,
    pub hedge_at_ms: Option<f64>,
    /// The smallest share that can be seen (one read in all).
    pub floor: f64,
}

pub fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    ch: &HedgingChart,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    root.fill(&WHITE)?;
    let (w, _) = root.dim_in_pixel();
    let small = w < 520;
    let font = if small { 12 } else { 14 };
    let x_max = ch.without.last().map_or(1.0, |p| p.0).max(1.0);
    let floor = ch.floor.clamp(1e-7, 0.5);
    let axis = LogAxis::new(floor, 1.2);
    let y = |v: f64| axis.y(v);
    let mut legend = Legend::new();
    legend.add("sin hedging", Swatch::Line(palette::CONTRAST, 3));
    if ch.with.is_some() {
        legend.add("con hedging", Swatch::Line(palette::PRIMARY, 3));
    }
    let root = &legend.above(root, font)?;
    let c = Frame::on(root)
        .margin(10)
        .margin_right(20)
        .x_label_area_size(if small { 32 } else { 40 })
        // Room for «0.001 %» and the description beside it.
        .y_label_area_size(if small { 66 } else { 80 })
        .build(0f64..x_max, axis.range());
    c.mesh(font)
        .x_desc("latencia (ms)")
        .y_desc("lecturas más lentas que eso")
        .x_labels(if small { 5 } else { 9 })
        .y_ticks(axis.labelled(&|v| {
            // Enough decimals for the tail: 0.01 %, 0.001 %.
            let decimals = (-(v * 100.0).log10()).ceil().max(0.0) as usize;
            crate::fmt::es_percent(v, decimals)
        }))
        .draw()?;
    let clip = |pts: &[(f64, f64)]| pts.iter().map(|(x, v)| (*x, y(*v))).collect::<Vec<_>>();
    c.draw_series(LineSeries::new(clip(&ch.without), palette::CONTRAST.stroke_width(3)))?;
    if let Some(with) = &ch.with {
        c.draw_series(LineSeries::new(clip(with), palette::PRIMARY.stroke_width(3)))?;
    }
    for (q, label) in [(0.05, "p95"), (0.01, "p99")] {
        if q >= floor {
            c.draw_series(DashedLineSeries::new(
                [(0.0, y(q)), (x_max, y(q))],
                4,
                4,
                palette::LIMIT.mix(0.6).stroke_width(1),
            ))?;
            c.draw_series(std::iter::once(Text::new(
                label,
                (x_max * if small { 0.25 } else { 0.6 }, y(q * 1.25)),
                super::font(font, &palette::LIMIT),
            )))?;
        }
    }
    if let Some(h) = ch.hedge_at_ms {
        c.draw_series(DashedLineSeries::new(
            [(h, y(floor)), (h, y(1.0))],
            4,
            4,
            palette::PRIMARY.stroke_width(1),
        ))?;
    }
    root.present()?;
    Ok(())
}
