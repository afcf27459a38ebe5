//! The retry storm over time: fresh requests, attempts reaching the server,
//! answers in time, the fallbacks of an open breaker, the server's capacity
//! and the trigger.

use super::frame::Frame;
use super::palette;
use crate::sim::storm::StormRun;
use plotters::coord::Shift;
use plotters::prelude::*;

#[derive(Clone, Debug, PartialEq)]
pub struct StormChart {
    /// `(t in s, value per second)` for each line.
    pub fresh: Vec<(f64, f64)>,
    pub offered: Vec<(f64, f64)>,
    pub goodput: Vec<(f64, f64)>,
    /// Only when a breaker is on.
    pub fallbacks: Option<Vec<(f64, f64)>>,
    pub capacity: f64,
    /// Each trigger that lasts (the one set, then the injected ones), from and to, in s.
    pub triggers: Vec<(f64, f64)>,
    pub end_s: f64,
    /// Where the system is healthy again, if it is.
    pub recovered_at: Option<f64>,
    /// Where a cut run's data stop (the lines end there; the rest is marked).
    pub cut_at: Option<f64>,
    /// While the run plays: the moment shown, in s, as a line, and the
    /// buckets drawn (the run so far, on the whole run's axis).
    pub playhead_s: Option<f64>,
    pub shown: Option<usize>,
    /// Another run drawn faintly beside this one: the future an injection
    /// replaced, or a run the learner pinned to compare.
    pub ghost: Option<StormGhost>,
}

/// A run drawn faintly: its attempts and its answers in time, from `from_s` on.
#[derive(Clone, Debug, PartialEq)]
pub struct StormGhost {
    /// What it is, in the key («sin el cambio», «corrida fijada»).
    pub label: String,
    pub from_s: f64,
    pub offered: Vec<(f64, f64)>,
    pub goodput: Vec<(f64, f64)>,
}

impl StormGhost {
    /// The run `c` shows, from `from_s` on, as a ghost called `label`.
    pub fn of(c: &StormChart, from_s: f64, label: &str) -> Self {
        let after = |v: &[(f64, f64)]| v.iter().copied().filter(|p| p.0 >= from_s).collect();
        StormGhost {
            label: label.to_string(),
            from_s,
            offered: after(&c.offered),
            goodput: after(&c.goodput),
        }
    }
}

impl StormChart {
    pub fn new(r: &StormRun, capacity: u32, with_breaker: bool) -> Self {
        let mid = r.bucket_s / 2.0;
        let line = |f: fn(&crate::sim::storm::Bucket) -> f64| r.buckets.iter().map(|b| (b.t + mid, f(b))).collect();
        StormChart {
            fresh: line(|b| b.fresh),
            offered: line(|b| b.offered),
            goodput: line(|b| b.goodput),
            fallbacks: with_breaker.then(|| line(|b| b.fallbacks)),
            capacity: capacity as f64,
            triggers: r.triggers.clone(),
            end_s: r.duration_s,
            recovered_at: if r.recovered() { r.recovered_at_s } else { None },
            cut_at: r.cut_at_s.map(|_| r.buckets.len() as f64 * r.bucket_s),
            playhead_s: None,
            shown: None,
            ghost: None,
        }
    }

    /// The run so far at a moment: its first `buckets` buckets, and the
    /// playhead at `t_s`, on the whole run's axis (which stays still as it plays).
    pub fn so_far(mut self, buckets: usize, t_s: f64) -> Self {
        self.recovered_at = self.recovered_at.filter(|r| *r <= t_s);
        self.playhead_s = Some(t_s);
        self.shown = Some(buckets);
        self
    }
}

/// The chart's key, drawn by the page under the canvas (so that it never
/// hides a line): `(label, CSS colour, dashed)`.
pub fn legend(c: &StormChart) -> Vec<(String, String, bool)> {
    let css = |c: RGBColor| format!("#{:02x}{:02x}{:02x}", c.0, c.1, c.2);
    let mut v = vec![
        (
            "intentos que llegan al servidor".to_string(),
            css(palette::CONTRAST),
            false,
        ),
        ("requests nuevas".to_string(), css(palette::PRIMARY), false),
        ("respuestas a tiempo".to_string(), css(palette::OK), false),
    ];
    if c.fallbacks.is_some() {
        v.push(("plan B del breaker".to_string(), css(palette::TEXT), false));
    }
    v.push((
        format!("capacidad: {} /s", crate::fmt::es_int(c.capacity as i64)),
        css(palette::LIMIT),
        true,
    ));
    if !c.triggers.is_empty() {
        v.push((
            if c.triggers.len() > 1 {
                "disparadores"
            } else {
                "disparador"
            }
            .to_string(),
            "#f3d6d3".to_string(),
            false,
        ));
    }
    if let Some(g) = &c.ghost {
        v.push((format!("{} (tenue)", g.label), css(GHOST), false));
    }
    v
}

/// The mark of a faint run whose peak is above the chart: «↑ hasta 1,234 /s (corrida fijada)».
pub fn ghost_mark(g: &StormGhost, peak: f64) -> String {
    format!("↑ hasta {} /s ({})", crate::fmt::es_int(peak.round() as i64), g.label)
}

/// A ghost's lines: the attempts' colour, faded (its answers in time dashed).
const GHOST: RGBColor = RGBColor(0xe8, 0xb4, 0x8f);

pub fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    c: &StormChart,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    root.fill(&WHITE)?;
    let (w, _) = root.dim_in_pixel();
    let small = w < 520;
    let font = if small { 11 } else { 13 };
    let peak = |s: &[(f64, f64)]| s.iter().map(|p| p.1).fold(0.0, f64::max);
    let base = peak(&c.fresh)
        .max(c.capacity)
        .max(c.fallbacks.as_deref().map_or(0.0, peak));
    // The storm's attempts can grow far above everything else; past four
    // times the capacity the line is cut at the top and its peak written.
    // A faint run (a replaced future, a pinned run) is taken in up to there
    // too, and past it cut and written the same way.
    let ghost_peak = c.ghost.as_ref().map_or(0.0, |g| peak(&g.offered).max(peak(&g.goodput)));
    let top = (base * 4.0).min(peak(&c.offered).max(ghost_peak).max(base) * 1.15);
    let ch = Frame::on(root)
        .margin(10)
        .margin_right(20)
        .x_label_area_size(if small { 32 } else { 40 })
        .y_label_area_size(if small { 52 } else { 64 })
        .fit_y_label(&crate::fmt::es_int(top.max(1.0) as i64), font)
        .build(0f64..c.end_s.max(1.0), 0f64..top.max(1.0));
    ch.mesh(font)
        .x_desc("tiempo (s)")
        .y_desc("por segundo")
        .x_labels(if small { 5 } else { 10 })
        .y_labels(6)
        .draw()?;
    ch.draw_series(
        c.triggers
            .iter()
            .map(|&(a, b)| Rectangle::new([(a, 0.0), (b, top)], palette::ZOMBIE.mix(0.12).filled())),
    )?;
    if let Some(cut) = c.cut_at {
        // No data past the cut: a grey band, said in words.
        ch.draw_series(std::iter::once(Rectangle::new(
            [(cut, 0.0), (c.end_s, top)],
            palette::TEXT.mix(0.08).filled(),
        )))?;
        ch.draw_series(std::iter::once(Text::new(
            "sin datos: corrida cortada".to_string(),
            (cut + (c.end_s - cut) * 0.05, top * 0.5),
            super::font(font, &palette::TEXT),
        )))?;
    }
    ch.draw_series(DashedLineSeries::new(
        [(0.0, c.capacity), (c.end_s, c.capacity)],
        6,
        4,
        palette::LIMIT.stroke_width(2),
    ))?;
    if let Some(g) = &c.ghost {
        let cut = |v: &[(f64, f64)]| v.iter().map(|&(x, y)| (x, y.min(top))).collect::<Vec<_>>();
        ch.draw_series(LineSeries::new(cut(&g.offered), GHOST.stroke_width(2)))?;
        ch.draw_series(DashedLineSeries::new(
            cut(&g.goodput),
            5,
            4,
            palette::OK.mix(0.45).stroke_width(2),
        ))?;
    }
    // Cut at the top, and at the playhead while the run plays.
    let clip = |s: &[(f64, f64)]| {
        s[..c.shown.unwrap_or(s.len()).min(s.len())]
            .iter()
            .map(|&(x, y)| (x, y.min(top)))
            .collect::<Vec<_>>()
    };
    type Line<'a> = (&'a str, RGBColor, &'a [(f64, f64)], u32);
    let lines: Vec<Line> = {
        let mut v: Vec<Line> = vec![
            ("intentos que llegan al servidor", palette::CONTRAST, &c.offered, 3),
            ("requests nuevas", palette::PRIMARY, &c.fresh, 2),
            ("respuestas a tiempo", palette::OK, &c.goodput, 3),
        ];
        if let Some(f) = &c.fallbacks {
            v.push(("plan B del breaker", palette::TEXT, f, 2));
        }
        v
    };
    for (_, color, pts, width) in lines {
        ch.draw_series(LineSeries::new(clip(pts), color.stroke_width(width)))?;
    }
    if let Some(t) = c.playhead_s {
        let t = t.clamp(0.0, c.end_s);
        ch.draw_series(LineSeries::new([(t, 0.0), (t, top)], palette::PLAYHEAD.stroke_width(2)))?;
    }
    // The peak written only once the run has reached it.
    let over = peak(&c.offered[..c.shown.unwrap_or(c.offered.len()).min(c.offered.len())]);
    if over > top {
        ch.draw_series(std::iter::once(Text::new(
            format!("↑ hasta {} /s", crate::fmt::es_int(over.round() as i64)),
            (c.cut_at.unwrap_or(c.end_s) * 0.7, top * 0.93),
            super::font(font, &palette::CONTRAST),
        )))?;
    }
    // A faint run cut at the top gets its mark too (it is drawn whole: its
    // peak at once), under the live one's, at the right, named.
    if let (Some(g), true) = (&c.ghost, ghost_peak > top) {
        use plotters::style::text_anchor::{HPos, Pos, VPos};
        ch.draw_series(std::iter::once(Text::new(
            ghost_mark(g, ghost_peak),
            (c.end_s.max(1.0), top * if over > top { 0.8 } else { 0.93 }),
            super::font(font, &palette::TEXT).pos(Pos::new(HPos::Right, VPos::Center)),
        )))?;
    }
    root.present()?;
    Ok(())
}
