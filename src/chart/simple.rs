//! Two plain chart shapes shared by the calculators: grouped bars and lines.

use super::frame::Frame;
use super::legend::{Legend, Swatch};
use super::palette;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// Grouped bars: one group per label, one bar per series.
#[derive(Clone, Debug, PartialEq)]
pub struct Bars {
    pub labels: Vec<String>,
    pub series: Vec<(String, RGBColor, Vec<f64>)>,
    pub y_desc: String,
    /// Write each bar's value above it.
    pub values: bool,
}

/// One line: its label, colour and points.
pub type LineSeriesData = (String, RGBColor, Vec<(f64, f64)>);

/// Lines over a shared x axis.
#[derive(Clone, Debug, PartialEq)]
pub struct Lines {
    pub x_desc: String,
    pub y_desc: String,
    pub series: Vec<LineSeriesData>,
    /// The x axis is a share, labelled as percentages.
    pub x_percent: bool,
    /// The y axis is a share, labelled as percentages.
    pub y_percent: bool,
    /// A vertical marker (e.g. the chosen failing share).
    pub marker: Option<f64>,
    /// A horizontal limit with its label (e.g. an alert's threshold).
    pub threshold: Option<(f64, String)>,
    /// While the run plays: the moment shown, as a line, and the points
    /// drawn, those before `upto` (the run so far, on the whole run's axes).
    pub playhead: Option<Playhead>,
    /// Another run drawn faintly (the future an injection replaced, or a run
    /// pinned to compare): its name in the key, and its lines.
    pub ghost: Option<(String, Vec<LineSeriesData>)>,
}

/// A moment on a chart over time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Playhead {
    /// Where the line is, in x's units.
    pub at: f64,
    /// Points at x < `upto` are drawn.
    pub upto: f64,
}

impl Lines {
    /// The points drawn of a series (all of them, or those before the playhead).
    pub fn shown<'a>(&self, pts: &'a [(f64, f64)]) -> &'a [(f64, f64)] {
        match self.playhead {
            Some(p) => &pts[..pts.partition_point(|q| q.0 < p.upto)],
            None => pts,
        }
    }
}

pub fn draw_bars<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    b: &Bars,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    root.fill(&WHITE)?;
    let (w, _) = root.dim_in_pixel();
    let small = w < 520;
    let font = if small { 11 } else { 13 };
    let groups = b.labels.len().max(1);
    let top =
        b.series.iter().flat_map(|s| s.2.iter().copied()).fold(1.0, f64::max) * if b.values { 1.15 } else { 1.05 };
    let mut legend = Legend::new();
    if b.series.len() > 1 {
        for (label, color, _) in &b.series {
            legend.add(label.clone(), Swatch::Box(*color));
        }
    }
    let root = &legend.above(root, font)?;
    let c = Frame::on(root)
        .margin(10)
        .x_label_area_size(if small { 30 } else { 36 })
        .y_label_area_size(if small { 52 } else { 64 })
        .fit_y_label(&crate::fmt::es_dec(top, 1), font)
        .build(0f64..groups as f64, 0f64..top);
    // Each group's label under its middle.
    let labels = b
        .labels
        .iter()
        .enumerate()
        .map(|(i, l)| (i as f64 + 0.5, l.clone()))
        .collect();
    c.mesh(font)
        .disable_x_mesh()
        .y_desc(b.y_desc.clone())
        .x_ticks(labels)
        .y_labels(6)
        .draw()?;
    let k = b.series.len().max(1) as f64;
    let bar = 0.8 / k;
    for (j, (_, color, values)) in b.series.iter().enumerate() {
        let color = *color;
        c.draw_series(values.iter().enumerate().map(|(g, v)| {
            let x0 = g as f64 + 0.1 + j as f64 * bar;
            Rectangle::new([(x0, 0.0), (x0 + bar * 0.92, *v)], color.mix(0.85).filled())
        }))?;
        if b.values {
            // Each value centred just above its bar.
            let style = super::font(font, &palette::TEXT).pos(Pos::new(HPos::Center, VPos::Bottom));
            for (g, v) in values.iter().enumerate() {
                let x = g as f64 + 0.1 + j as f64 * bar + bar * 0.46;
                c.text(crate::fmt::es_dec(*v, 1), (x, *v), (0, -3), style.clone())?;
            }
        }
    }
    root.present()?;
    Ok(())
}

/// How far above the live lines' top a faint run is taken into the axis.
pub const GHOST_ROOM: f64 = 4.0;

/// The mark of a faint run whose peak is above the chart: «↑ hasta 1,234.5 (sin el cambio)».
pub fn ghost_mark(name: &str, peak: &str) -> String {
    format!("↑ hasta {peak} ({name})")
}

pub fn draw_lines<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    l: &Lines,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    root.fill(&WHITE)?;
    let (w, _) = root.dim_in_pixel();
    let small = w < 520;
    let font = if small { 11 } else { 13 };
    let xs = || l.series.iter().flat_map(|s| s.2.iter().map(|p| p.0));
    let x_min = xs().fold(0.0, f64::min);
    let x_max = xs().fold(x_min + 1e-9, f64::max);
    let live = l
        .series
        .iter()
        .flat_map(|s| s.2.iter().map(|p| p.1))
        .chain(l.threshold.as_ref().map(|t| t.0))
        .fold(1e-9, f64::max);
    // A faint run (a replaced future, a pinned run) is taken in up to four
    // times the live lines' top; past that it is cut there, its peak written.
    let ghost_peak = l
        .ghost
        .iter()
        .flat_map(|g| &g.1)
        .flat_map(|s| s.2.iter().map(|p| p.1))
        .fold(0.0, f64::max);
    let y_max = live.max(ghost_peak.min(live * GHOST_ROOM)) * 1.08;
    let mut legend = Legend::new();
    for (label, color, _) in &l.series {
        legend.add(label.clone(), Swatch::Line(*color, 3));
    }
    if let Some((_, label)) = &l.threshold {
        legend.add(label.clone(), Swatch::Line(palette::ZOMBIE, 2));
    }
    if let Some((name, _)) = &l.ghost {
        legend.add(format!("{name} (tenue)"), Swatch::Line(RGBColor(0xb8, 0xbe, 0xc6), 2));
    }
    let fmt = |pct: bool| {
        move |v: f64| {
            if pct {
                crate::fmt::es_percent(v, 0)
            } else {
                crate::fmt::es_dec(v, 1)
            }
        }
    };
    let (fx, fy) = (fmt(l.x_percent), fmt(l.y_percent));
    let root = &legend.above(root, font)?;
    let c = Frame::on(root)
        .margin(10)
        .margin_right(20)
        .x_label_area_size(if small { 32 } else { 40 })
        .y_label_area_size(if small { 52 } else { 64 })
        .fit_y_label(&fy(y_max), font)
        .build(x_min..x_max, 0f64..y_max);
    c.mesh(font)
        .x_desc(l.x_desc.clone())
        .y_desc(l.y_desc.clone())
        .x_labels(if small { 5 } else { 10 })
        .y_labels(6)
        .x_label_formatter(&fx)
        .y_label_formatter(&fy)
        .draw()?;
    for (_, color, pts) in l.ghost.iter().flat_map(|g| &g.1) {
        c.draw_series(LineSeries::new(
            pts.iter().map(|&(x, y)| (x, y.min(y_max))),
            color.mix(0.35).stroke_width(2),
        ))?;
    }
    if let (Some((name, _)), true) = (&l.ghost, ghost_peak > y_max) {
        let style = super::font(font, &palette::TEXT).pos(Pos::new(HPos::Right, VPos::Center));
        c.draw_series(std::iter::once(Text::new(
            ghost_mark(name, &fy(ghost_peak)),
            (x_max, y_max * 0.93),
            style,
        )))?;
    }
    for (_, color, pts) in &l.series {
        c.draw_series(LineSeries::new(l.shown(pts).iter().copied(), color.stroke_width(3)))?;
    }
    if let Some(p) = l.playhead {
        let at = p.at.clamp(x_min, x_max);
        c.draw_series(LineSeries::new(
            [(at, 0.0), (at, y_max)],
            palette::PLAYHEAD.stroke_width(2),
        ))?;
    }
    if let Some(m) = l.marker {
        c.draw_series(DashedLineSeries::new(
            [(m, 0.0), (m, y_max)],
            4,
            4,
            palette::LIMIT.stroke_width(1),
        ))?;
    }
    if let Some((y, _)) = &l.threshold {
        c.draw_series(DashedLineSeries::new(
            [(x_min, *y), (x_max, *y)],
            6,
            4,
            palette::ZOMBIE.stroke_width(2),
        ))?;
    }
    root.present()?;
    Ok(())
}
