//! Attempts per window over time, for the chosen jitter next to "sin
//! jitter", with the server's capacity as a line.

use super::frame::Frame;
use super::legend::{Legend, Swatch};
use super::log_axis::LogAxis;
use super::palette;
use crate::sim::herd::HerdResult;
use plotters::coord::Shift;
use plotters::prelude::*;

/// Most columns drawn: windows beyond that are merged, keeping each
/// column's highest count, so peaks survive and the drawing stays cheap.
pub const MAX_COLUMNS: usize = 480;

/// One series, as columns of `(start ms, end ms, attempts)`.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    pub label: String,
    pub columns: Vec<(f64, f64, u32)>,
}

/// Everything the chart draws.
#[derive(Clone, Debug, PartialEq)]
pub struct HerdChart {
    pub capacity: u32,
    pub window_ms: u32,
    /// End of the time axis, in ms.
    pub end_ms: f64,
    /// The chosen policy first, then the reference (absent if they are the same).
    pub series: Vec<Series>,
    /// A logarithmic vertical axis, so that a drizzle of 61 shows beside a wave of 1,000.
    pub log_y: bool,
    /// While the run plays: the moment shown, as a line (the columns are the run so far).
    pub playhead_ms: Option<f64>,
}

impl HerdChart {
    /// Prepares the chart of `chosen` (labelled `label`) beside `reference`.
    pub fn new(capacity: u32, chosen: (&str, &HerdResult), reference: Option<(&str, &HerdResult)>) -> Self {
        let last = |r: &HerdResult| r.windows.last().map_or(0, |(i, _)| *i + 1);
        let windows_total = last(chosen.1).max(reference.map_or(0, |r| last(r.1)));
        Self::spanning(capacity, chosen, reference, windows_total)
    }

    /// The same, on an axis of `windows_total` windows: a run played so far
    /// is drawn on its whole run's axis, which stays still as it plays.
    pub fn spanning(
        capacity: u32,
        chosen: (&str, &HerdResult),
        reference: Option<(&str, &HerdResult)>,
        windows_total: u64,
    ) -> Self {
        let window = chosen.1.window_ms.max(1) as f64;
        let windows_total = windows_total.max(1);
        let columns = (windows_total as usize).min(MAX_COLUMNS) as u64;
        let per_column = windows_total.div_ceil(columns);
        let end_ms = (columns * per_column) as f64 * window;
        let series_of = |label: &str, r: &HerdResult| {
            let mut cols: Vec<(f64, f64, u32)> = Vec::new();
            for (idx, count) in &r.windows {
                let c = idx / per_column;
                let (start, end) = ((c * per_column) as f64 * window, ((c + 1) * per_column) as f64 * window);
                match cols.last_mut() {
                    Some(last) if last.0 == start => last.2 = last.2.max(*count),
                    _ => cols.push((start, end, *count)),
                }
            }
            Series {
                label: label.to_string(),
                columns: cols,
            }
        };
        let mut series = vec![series_of(chosen.0, chosen.1)];
        if let Some((label, r)) = reference {
            series.push(series_of(label, r));
        }
        HerdChart {
            capacity,
            window_ms: chosen.1.window_ms,
            end_ms,
            series,
            log_y: false,
            playhead_ms: None,
        }
    }

    /// Highest column of any series.
    pub fn peak(&self) -> u32 {
        self.series
            .iter()
            .flat_map(|s| s.columns.iter().map(|c| c.2))
            .max()
            .unwrap_or(0)
    }
}

/// A run's colour in every chart of the herd (its columns here, its clients
/// on the stage): «sin jitter» is always the contrast colour, the jitter
/// chosen beside it the primary one, whichever is chosen and shown alone.
pub fn series_color(label: &str) -> RGBColor {
    if label == crate::sim::policy::backoff::Jitter::None.label() {
        palette::CONTRAST
    } else {
        palette::PRIMARY
    }
}

/// Draws the chart on `root`, whatever the backend.
pub fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    chart: &HerdChart,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let top = chart.peak().max(chart.capacity) as f64;
    // Columns start just under 1 on the logarithmic axis, so a window with a single attempt shows.
    // The axis's highest value: room above the highest column.
    let y_top = if chart.log_y {
        (top * 4.0).max(10.0)
    } else {
        (top * 1.1).max(1.0)
    };
    let log = chart.log_y.then(|| LogAxis::new(0.7, y_top));
    let y = |v: f64| log.map_or(v, |a| a.y(v));
    let y_range = log.map_or(0f64..y_top, |a| a.range());
    root.fill(&WHITE)?;
    let (floor, ceiling) = (y_range.start, y_range.end);
    let x_max = (chart.end_ms * 1.03).max(1.0);
    let (w, _) = root.dim_in_pixel();
    let small = w < 520;
    let font = if small { 12 } else { 14 };
    // The reference (drawn first, behind), then the chosen policy; each in its run's colour.
    let mut legend = Legend::new();
    for s in chart.series.iter().rev() {
        let peak = s.columns.iter().map(|c| c.2).max().unwrap_or(0);
        legend.add(
            format!("{} (pico {})", s.label, crate::fmt::es_int(peak as i64)),
            Swatch::Box(series_color(&s.label)),
        );
    }
    legend.add(
        format!("capacidad: {} por ventana", crate::fmt::es_int(chart.capacity as i64)),
        Swatch::Line(palette::LIMIT, 2),
    );
    let root = &legend.above(root, font)?;
    let c = Frame::on(root)
        .margin(10)
        .x_label_area_size(if small { 34 } else { 40 })
        .y_label_area_size(if small { 52 } else { 60 })
        .fit_y_label(&crate::fmt::es_int(y_top as i64), font)
        .build(0f64..x_max, y_range);
    let y_desc = if small {
        format!("intentos / {} ms", crate::fmt::es_int(chart.window_ms as i64))
    } else {
        format!(
            "intentos por ventana de {} ms",
            crate::fmt::es_int(chart.window_ms as i64)
        )
    };
    let mut mesh = c.mesh(font);
    if let Some(axis) = log {
        mesh = mesh.y_ticks(axis.labelled(&|v| crate::fmt::es_int(v.round() as i64)));
    }
    mesh.x_desc("tiempo (ms)")
        .y_desc(y_desc)
        .x_labels(if small { 5 } else { 10 })
        .y_labels(6)
        .draw()?;

    // Columns at least ~2 px wide, so that a one-window wave stays visible.
    let min_w = x_max / w.max(1) as f64 * 2.0;
    for (i, s) in chart.series.iter().enumerate().rev() {
        let color = series_color(&s.label);
        let fill = color.mix(if i == 0 { 0.85 } else { 0.55 }).filled();
        c.draw_series(
            s.columns
                .iter()
                .map(|(x0, x1, n)| Rectangle::new([(*x0, floor), (x1.max(x0 + min_w), y(*n as f64))], fill)),
        )?;
    }
    let cap = chart.capacity as f64;
    c.draw_series(LineSeries::new(
        [(0.0, y(cap)), (x_max, y(cap))],
        palette::LIMIT.stroke_width(2),
    ))?;
    if let Some(t) = chart.playhead_ms {
        let t = t.clamp(0.0, x_max);
        c.draw_series(LineSeries::new(
            [(t, floor), (t, ceiling)],
            palette::PLAYHEAD.stroke_width(2),
        ))?;
    }
    root.present()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::herd::{simulate, HerdParams};
    use crate::sim::policy::backoff::Jitter;

    fn lesson_chart() -> HerdChart {
        let none = simulate(&HerdParams {
            jitter: Jitter::None,
            ..HerdParams::default()
        });
        let full = simulate(&HerdParams {
            jitter: Jitter::Full,
            ..HerdParams::default()
        });
        HerdChart::new(50, ("full jitter", &full), Some(("sin jitter", &none)))
    }

    #[test]
    fn columns_keep_the_peaks() {
        let c = lesson_chart();
        // At the lesson's values every window is its own column.
        assert_eq!(c.series[0].columns.iter().map(|c| c.2).max(), Some(61));
        assert_eq!(c.series[1].columns.iter().map(|c| c.2).max(), Some(1000));
        assert_eq!(c.series[1].columns.iter().map(|c| c.2 as u64).sum::<u64>(), 2850);
        assert!(c.series.iter().all(|s| s.columns.len() <= MAX_COLUMNS));
    }

    #[test]
    fn merges_many_windows() {
        let r = simulate(&HerdParams {
            window_ms: 1,
            base_ms: 10_000,
            ..HerdParams::default()
        });
        let c = HerdChart::new(50, ("sin jitter", &r), None);
        assert!(c.series[0].columns.len() <= MAX_COLUMNS);
        assert_eq!(c.peak(), r.peak);
    }

    #[test]
    fn draws_with_a_log_axis_too() {
        let mut svg = String::new();
        {
            let root = SVGBackend::with_string(&mut svg, (390, 260)).into_drawing_area();
            let chart = HerdChart {
                log_y: true,
                ..lesson_chart()
            };
            draw(&root, &chart).unwrap();
        }
        assert!(svg.contains("intentos / 10 ms"));
        assert!(svg.contains("full jitter (pico 61)"));
        // The vertical axis is labelled at powers of ten, up to the wave of 1,000.
        for label in ["1", "10", "100", "1,000"] {
            assert!(svg.contains(&format!("\n{label}\n</text>")), "{label}");
        }
    }

    /// «sin jitter» is one colour in all the herd's charts (issue 42): the
    /// contrast colour beside another jitter, alone, and on the stage.
    #[test]
    fn sin_jitter_keeps_its_colour() {
        let orange = "#D95F02";
        let blue = "#1F6FB2";
        let svg_of = |c: &HerdChart| {
            let mut svg = String::new();
            {
                let root = SVGBackend::with_string(&mut svg, (800, 360)).into_drawing_area();
                draw(&root, c).unwrap();
            }
            svg.to_uppercase()
        };
        let both = svg_of(&lesson_chart());
        assert!(both.contains(orange) && both.contains(blue));
        let none = simulate(&HerdParams {
            jitter: Jitter::None,
            ..HerdParams::default()
        });
        let alone = svg_of(&HerdChart::new(50, ("sin jitter", &none), None));
        assert!(alone.contains(orange), "sin jitter alone is orange");
        assert!(!alone.contains(blue), "nothing of sin jitter alone is blue");
        let full = simulate(&HerdParams::default());
        let chosen = svg_of(&HerdChart::new(50, ("full jitter", &full), None));
        assert!(chosen.contains(blue) && !chosen.contains(orange));
    }

    #[test]
    fn draws_on_svg() {
        let mut svg = String::new();
        {
            let root = SVGBackend::with_string(&mut svg, (800, 360)).into_drawing_area();
            draw(&root, &lesson_chart()).unwrap();
        }
        assert!(svg.contains("sin jitter (pico 1,000)"));
        assert!(svg.contains("full jitter (pico 61)"));
        assert!(svg.contains("capacidad: 50 por ventana"));
        // One rectangle per column of each series, plus background and legend.
        let columns: usize = lesson_chart().series.iter().map(|s| s.columns.len()).sum();
        assert!(svg.matches("<rect").count() > columns);
    }
}
