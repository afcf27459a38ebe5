//! Lanes over time: the shared drawing of the timeline charts (three
//! clocks, C01's chain). Each lane has a label and spans, marks and
//! moments drawn on it.

use super::frame::Frame;
use super::palette;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// A span on a lane: `[from, to)` in ms, with its colour and an optional label.
#[derive(Clone, Debug, PartialEq)]
pub struct Span {
    pub from: f64,
    pub to: f64,
    pub color: RGBColor,
    /// Drawn lighter: a wait rather than work.
    pub faded: bool,
    /// Striped: work nobody reads.
    pub striped: bool,
    pub label: Option<String>,
}

/// A lane of the timeline.
#[derive(Clone, Debug, PartialEq)]
pub struct Lane {
    pub label: String,
    pub spans: Vec<Span>,
    /// Short ticks (e.g. the pieces of an answer arriving).
    pub ticks: Vec<f64>,
}

/// A vertical line across all lanes: a clock firing, a deadline.
#[derive(Clone, Debug, PartialEq)]
pub struct Moment {
    pub at: f64,
    pub label: String,
    pub color: RGBColor,
    /// The decisive one is drawn solid and thick; the others dashed.
    pub strong: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Timeline {
    pub lanes: Vec<Lane>,
    pub moments: Vec<Moment>,
    pub end_ms: f64,
    /// Time axis in seconds rather than milliseconds.
    pub seconds: bool,
    /// The last span goes on forever: an arrow at the right edge.
    pub open_ended: bool,
    /// While the run plays: the moment shown, in ms, as a line.
    pub playhead_ms: Option<f64>,
}

impl Timeline {
    /// The run so far at `t` ms, on the whole run's axis: the spans up to
    /// `t`, the ticks before it, the clocks set (each moment a line), but not
    /// yet the decisive one (the outcome) if it comes later.
    pub fn so_far(mut self, t: f64) -> Self {
        for lane in &mut self.lanes {
            lane.spans.retain(|s| s.from < t);
            for s in &mut lane.spans {
                s.to = s.to.min(t);
            }
            lane.ticks.retain(|x| *x <= t);
        }
        self.moments.retain(|m| !m.strong || m.at <= t);
        self.open_ended &= t >= self.end_ms;
        self.playhead_ms = Some(t);
        self
    }
}

pub fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    t: &Timeline,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    root.fill(&WHITE)?;
    let (w, _) = root.dim_in_pixel();
    let small = w < 520;
    let font = if small { 11 } else { 13 };
    let lanes = t.lanes.len().max(1) as f64;
    let scale = if t.seconds { 1000.0 } else { 1.0 };
    let x_max = (t.end_ms / scale * 1.04).max(1e-6);
    let c = Frame::on(root)
        .margin(10)
        .margin_right(if small { 40 } else { 64 })
        .margin_top(12 + 4 * (font + 3))
        .x_label_area_size(if small { 30 } else { 36 })
        .y_label_area_size(if small { 78 } else { 120 })
        .build(0f64..x_max, 0f64..lanes);
    // Lane i (from the top) is centred at lanes − i − 0.5.
    let labels = t
        .lanes
        .iter()
        .enumerate()
        .map(|(i, l)| (lanes - i as f64 - 0.5, l.label.clone()))
        .collect();
    c.mesh(font as u32)
        .disable_y_mesh()
        .x_desc(if t.seconds { "tiempo (s)" } else { "tiempo (ms)" })
        .x_labels(if small { 5 } else { 9 })
        .y_ticks(labels)
        .x_label_formatter(&|v| crate::fmt::es_dec(v, if t.seconds { 1 } else { 0 }))
        .draw()?;
    for (i, lane) in t.lanes.iter().enumerate() {
        let y0 = lanes - i as f64 - 0.78;
        let y1 = lanes - i as f64 - 0.22;
        for s in &lane.spans {
            let (a, b) = (s.from / scale, (s.to / scale).min(x_max));
            if b <= a {
                continue;
            }
            let style = if s.faded {
                s.color.mix(0.28).filled()
            } else {
                s.color.mix(0.9).filled()
            };
            c.draw_series(std::iter::once(Rectangle::new([(a, y0), (b, y1)], style)))?;
            if s.striped {
                // Stripes, so the span reads as "for nobody" even in grey.
                let step = x_max / 60.0;
                let mut x = a;
                while x < b {
                    let x2 = (x + step * 0.5).min(b);
                    c.draw_series(std::iter::once(PathElement::new(
                        [(x, y0), (x2, y1)],
                        s.color.stroke_width(1),
                    )))?;
                    x += step;
                }
            }
            if let Some(label) = &s.label {
                // Inside the bar, white on solid colour, dark on a light one.
                let color = if s.faded { palette::TEXT } else { WHITE };
                let text = super::font(font, &color).pos(Pos::new(HPos::Left, VPos::Center));
                let (ax, _) = c.backend_coord(&(a, y0));
                let (bx, _) = c.backend_coord(&(b, y0));
                if (bx - ax) as usize > label.chars().count() * font as usize / 2 + 6 {
                    c.text(label.clone(), (a, (y0 + y1) / 2.0), (4, 0), text)?;
                }
            }
        }
        let tick_h = (y1 - y0) * 0.9;
        c.draw_series(lane.ticks.iter().map(|x| {
            let x = x / scale;
            PathElement::new(
                [(x, y0 + (y1 - y0 - tick_h) / 2.0), (x, y0 + (y1 - y0 + tick_h) / 2.0)],
                palette::PRIMARY.stroke_width(2),
            )
        }))?;
    }
    if let Some(at) = t.playhead_ms {
        let x = (at / scale).clamp(0.0, x_max);
        c.draw_series(std::iter::once(PathElement::new(
            [(x, 0.0), (x, lanes)],
            palette::PLAYHEAD.stroke_width(2),
        )))?;
    }
    if t.open_ended {
        let y = lanes / 2.0;
        c.draw_series(std::iter::once(Text::new(
            "… sin fin →".to_string(),
            (x_max * 0.86, y),
            super::font(font + 1, &palette::CONTRAST),
        )))?;
    }
    // Labels above the plot, each on the first row where it does not touch
    // the one before it.
    let mut order: Vec<&Moment> = t.moments.iter().filter(|m| m.at / scale <= x_max).collect();
    // A stable insertion sort: a handful of moments, and no sort code of its own in the build.
    for i in 1..order.len() {
        let mut j = i;
        while j > 0 && order[j - 1].at > order[j].at {
            order.swap(j - 1, j);
            j -= 1;
        }
    }
    let mut row_ends: Vec<i32> = Vec::new();
    for m in order {
        let x = m.at / scale;
        let style = if m.strong {
            m.color.stroke_width(3)
        } else {
            m.color.mix(0.8).stroke_width(1)
        };
        c.draw_series(std::iter::once(PathElement::new([(x, 0.0), (x, lanes)], style)))?;
        let (px, _) = c.backend_coord(&(x, lanes));
        let width = (m.label.chars().count() as f64 * font as f64 * 0.58) as i32 + 6;
        let row = row_ends
            .iter()
            .position(|end| *end < px)
            .unwrap_or(row_ends.len().min(3));
        if row >= row_ends.len() {
            row_ends.push(0);
        }
        row_ends[row] = px + width;
        let text = super::font(font, &m.color).pos(Pos::new(HPos::Left, VPos::Bottom));
        c.text(m.label.clone(), (x, lanes), (2, -4 - row as i32 * (font + 3)), text)?;
    }
    root.present()?;
    Ok(())
}
