//! Load shedding over time: goodput per second above, latency below, for
//! the unbounded queue and for the server that sheds.

use super::frame::Frame;
use super::legend::{Legend, Swatch};
use super::log_axis::LogAxis;
use super::palette;
use crate::sim::shedding::SheddingRun;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

#[derive(Clone, Debug, PartialEq)]
pub struct SheddingChart {
    /// Per second: (goodput, mean latency ms) for the unbounded queue and for shedding.
    pub unbounded: Vec<(u32, f64)>,
    pub shedding: Vec<(u32, f64)>,
    pub capacity_rps: f64,
    pub deadline_ms: f64,
    /// While the run plays: the moment shown, in s, and the seconds drawn
    /// (the run so far, on the whole run's axes).
    pub playhead_s: Option<f64>,
    pub shown: Option<usize>,
}

impl SheddingChart {
    pub fn new(r: &SheddingRun, deadline_ms: u32) -> Self {
        let pick =
            |s: &crate::sim::shedding::ServerRun| s.seconds.iter().map(|x| (x.goodput, x.mean_latency_ms)).collect();
        SheddingChart {
            unbounded: pick(&r.unbounded),
            shedding: pick(&r.shedding),
            capacity_rps: r.capacity_rps,
            deadline_ms: deadline_ms as f64,
            playhead_s: None,
            shown: None,
        }
    }

    /// The run so far: its first `seconds`, the playhead at `t_s`.
    pub fn so_far(self, seconds: usize, t_s: f64) -> Self {
        SheddingChart {
            playhead_s: Some(t_s),
            shown: Some(seconds),
            ..self
        }
    }

    /// The seconds drawn of a server's.
    pub fn shown<'a>(&self, v: &'a [(u32, f64)]) -> &'a [(u32, f64)] {
        &v[..self.shown.unwrap_or(v.len()).min(v.len())]
    }
}

pub fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    ch: &SheddingChart,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    root.fill(&WHITE)?;
    let (w, h) = root.dim_in_pixel();
    let small = w < 520;
    let font = if small { 12 } else { 13 };
    let secs = ch.unbounded.len().max(ch.shedding.len()).max(1) as f64;
    let (top, bottom) = root.split_vertically(h / 2);
    let steps = |v: &[(u32, f64)], f: &dyn Fn(&(u32, f64)) -> f64| {
        let mut out = Vec::with_capacity(v.len() * 2);
        for (i, x) in v.iter().enumerate() {
            out.push((i as f64, f(x)));
            out.push((i as f64 + 1.0, f(x)));
        }
        out
    };
    let series = [
        (&ch.unbounded, palette::CONTRAST, "fila sin tope"),
        (&ch.shedding, palette::PRIMARY, "con load shedding"),
    ];

    let g_max = ch
        .unbounded
        .iter()
        .chain(&ch.shedding)
        .map(|x| x.0 as f64)
        .fold(ch.capacity_rps, f64::max)
        * 1.1;
    let mut legend = Legend::new();
    for (_, color, label) in series {
        legend.add(label, Swatch::Line(color, 3));
    }
    legend.add(
        format!("capacidad: {} /s", crate::fmt::es_dec(ch.capacity_rps, 0)),
        Swatch::Line(palette::LIMIT, 1),
    );
    let top = &legend.above(&top, font)?;
    let c = Frame::on(top)
        .margin(8)
        .x_label_area_size(if small { 22 } else { 26 })
        .y_label_area_size(if small { 56 } else { 60 })
        .fit_y_label(&crate::fmt::es_int(g_max as i64), font)
        .build(0f64..secs, 0f64..g_max.max(1.0));
    c.mesh(font)
        .y_desc("goodput (/s)")
        .x_labels(if small { 5 } else { 10 })
        .y_labels(5)
        .draw()?;
    for (data, color, _) in series {
        c.draw_series(LineSeries::new(
            steps(ch.shown(data), &|x| x.0 as f64),
            color.stroke_width(3),
        ))?;
    }
    let playhead = |top: f64, bottom: f64| {
        ch.playhead_s
            .map(|t| [(t.clamp(0.0, secs), bottom), (t.clamp(0.0, secs), top)])
    };
    if let Some(line) = playhead(g_max.max(1.0), 0.0) {
        c.draw_series(LineSeries::new(line, palette::PLAYHEAD.stroke_width(2)))?;
    }
    c.draw_series(DashedLineSeries::new(
        [(0.0, ch.capacity_rps), (secs, ch.capacity_rps)],
        6,
        4,
        palette::LIMIT.stroke_width(1),
    ))?;

    // Latency on a log scale: the unbounded queue's grows by orders of magnitude.
    let l_max = ch
        .unbounded
        .iter()
        .chain(&ch.shedding)
        .map(|x| x.1)
        .fold(ch.deadline_ms, f64::max)
        * 2.0;
    let axis = LogAxis::new(1.0, l_max.max(10.0));
    let y = |v: f64| axis.y(v);
    let c = Frame::on(&bottom)
        .margin(8)
        .x_label_area_size(if small { 36 } else { 40 })
        .y_label_area_size(if small { 56 } else { 60 })
        .build(0f64..secs, axis.range());
    c.mesh(font)
        .x_desc("tiempo (s)")
        .y_desc("latencia (ms)")
        .x_labels(if small { 5 } else { 10 })
        .y_ticks(axis.labelled(&|v| crate::fmt::es_int(v.round() as i64)))
        .draw()?;
    for (data, color, _) in series {
        let pts: Vec<(f64, f64)> = steps(ch.shown(data), &|x| x.1)
            .into_iter()
            .filter(|p| p.1 > 0.0)
            .map(|(x, v)| (x, y(v)))
            .collect();
        c.draw_series(LineSeries::new(pts, color.stroke_width(3)))?;
    }
    c.draw_series(DashedLineSeries::new(
        [(0.0, y(ch.deadline_ms)), (secs, y(ch.deadline_ms))],
        6,
        4,
        palette::ZOMBIE.stroke_width(2),
    ))?;
    if let Some(line) = playhead(axis.range().end, axis.range().start) {
        c.draw_series(LineSeries::new(line, palette::PLAYHEAD.stroke_width(2)))?;
    }
    // At the right end, above its line: where an unbounded queue's latency
    // has long left it behind.
    c.text(
        format!("deadline {} ms", crate::fmt::es_int(ch.deadline_ms as i64)),
        (secs, y(ch.deadline_ms)),
        (-4, -3),
        super::font(font, &palette::ZOMBIE).pos(Pos::new(HPos::Right, VPos::Bottom)),
    )?;
    root.present()?;
    Ok(())
}
