//! Requests in flight in one pod over time, against its slots and what
//! Little's law says it would need.

use super::frame::Frame;
use super::legend::{Legend, Swatch};
use super::palette;
use crate::sim::inflight::{Formula, PodRun};
use plotters::coord::Shift;
use plotters::prelude::*;

#[derive(Clone, Debug, PartialEq)]
pub struct InflightChart {
    /// `(t in s, in flight)`.
    pub curve: Vec<(f64, u64)>,
    pub played_s: f64,
    pub slots: Option<u32>,
    /// Little: rate × duration.
    pub demand: f64,
    /// While the run plays: the moment shown, in s, and the points drawn
    /// (the run so far, on the whole run's axes).
    pub playhead_s: Option<f64>,
    pub shown: Option<usize>,
}

impl InflightChart {
    pub fn new(run: &PodRun, f: &Formula, slots: Option<u32>) -> Self {
        InflightChart {
            curve: run.curve.clone(),
            played_s: run.played_s,
            slots,
            demand: f.pod_demand,
            playhead_s: None,
            shown: None,
        }
    }

    /// The run so far: its first `points`, the playhead at `t_s`.
    pub fn so_far(self, points: usize, t_s: f64) -> Self {
        InflightChart {
            playhead_s: Some(t_s),
            shown: Some(points),
            ..self
        }
    }

    /// The points drawn.
    pub fn shown(&self) -> &[(f64, u64)] {
        &self.curve[..self.shown.unwrap_or(self.curve.len()).min(self.curve.len())]
    }
}

pub fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    ch: &InflightChart,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    root.fill(&WHITE)?;
    let (w, _) = root.dim_in_pixel();
    let small = w < 520;
    let font = if small { 12 } else { 14 };
    let top = ch
        .curve
        .iter()
        .map(|c| c.1 as f64)
        .fold(ch.demand, f64::max)
        .max(ch.slots.unwrap_or(0) as f64)
        .max(1.0)
        * 1.15;
    let mut legend = Legend::new();
    legend.add("en vuelo (simulación)", Swatch::Box(palette::PRIMARY));
    legend.add(
        format!("harían falta (Little): {}", crate::fmt::es_dec(ch.demand, 1)),
        Swatch::Line(palette::CONTRAST, 2),
    );
    if let Some(s) = ch.slots {
        legend.add(
            format!("MAX_INFLIGHT: {}", crate::fmt::es_int(s as i64)),
            Swatch::Line(palette::LIMIT, 2),
        );
    }
    let root = &legend.above(root, font)?;
    let c = Frame::on(root)
        .margin(10)
        .x_label_area_size(if small { 32 } else { 40 })
        .y_label_area_size(if small { 48 } else { 56 })
        .fit_y_label(&crate::fmt::es_int(top as i64), font)
        .build(0f64..ch.played_s.max(1e-6), 0f64..top);
    c.mesh(font)
        .x_desc("tiempo (s)")
        .y_desc("requests en vuelo en un pod")
        .x_labels(if small { 5 } else { 10 })
        .y_labels(6)
        .x_label_formatter(&|v| crate::fmt::es_dec(v, 1))
        .draw()?;
    let mut steps = Vec::with_capacity(ch.curve.len() * 2);
    let mut prev = 0.0;
    for (t, n) in ch.shown() {
        steps.push((prev, *n as f64));
        steps.push((*t, *n as f64));
        prev = *t;
    }
    c.draw_series(
        AreaSeries::new(steps.iter().copied(), 0.0, palette::PRIMARY.mix(0.25))
            .border_style(palette::PRIMARY.stroke_width(2)),
    )?;
    let demand = ch.demand;
    c.draw_series(DashedLineSeries::new(
        [(0.0, demand), (ch.played_s, demand)],
        6,
        4,
        palette::CONTRAST.stroke_width(2),
    ))?;
    if let Some(s) = ch.slots {
        let s = s as f64;
        c.draw_series(LineSeries::new(
            [(0.0, s), (ch.played_s, s)],
            palette::LIMIT.stroke_width(2),
        ))?;
    }
    if let Some(t) = ch.playhead_s {
        let t = t.clamp(0.0, ch.played_s);
        c.draw_series(LineSeries::new([(t, 0.0), (t, top)], palette::PLAYHEAD.stroke_width(2)))?;
    }
    root.present()?;
    Ok(())
}
