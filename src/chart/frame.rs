//! A chart's frame: margins, the areas for the axes' labels, the plotting
//! area with its coordinates, and the axes drawn by the lab.
//!
//! Why not plotters' `ChartBuilder` and `configure_mesh`: the mesh is generic
//! over every coordinate type and label formatter and falls back on the
//! standard float printing (`<f64 as Display>`) for labels; with the chart
//! context and its builder it made ≈ 8.5 KB gzipped of the browser's download,
//! for what is, in every chart of the lab, the same picture: `f64` axes, grid
//! lines at round values, labels written by the lab's own formatters. A
//! [`Frame`] lays the chart out as `ChartBuilder` does (same margins, same
//! label areas, same pixels), and [`Mesh`] draws the axes as plotters'
//! mesh did: grid lines, axis lines, 5 px ticks, labels 10 px from the axis,
//! the y description turned a quarter.
//!
//! ```
//! use plotters::prelude::*;
//! use sensei_lab::chart::frame::{ticks, Frame};
//! assert_eq!(ticks(0.0..1_030.0, 10), [0.0, 200.0, 400.0, 600.0, 800.0, 1_000.0]);
//! let mut svg = String::new();
//! {
//!     let root = SVGBackend::with_string(&mut svg, (400, 240)).into_drawing_area();
//!     let f = Frame::on(&root).margin(10).x_label_area_size(40).y_label_area_size(60);
//!     let f = f.build(0.0..10.0, 0.0..100.0);
//!     f.mesh(14).x_desc("tiempo (s)").x_labels(5).y_labels(3).draw().unwrap();
//! }
//! assert!(svg.contains("tiempo (s)") && svg.contains(">\n50\n</text>"));
//! ```

use super::palette;
use plotters::coord::cartesian::Cartesian2d;
use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::element::{CoordMapper, Drawable, PointCollection};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::FontTransform;
use std::borrow::Borrow;
use std::ops::Range;

/// A plotting area whose coordinates are `f64` on both axes.
pub type Plot<DB> = DrawingArea<DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// The layout of a chart on `root`, before its ranges are known.
pub struct FrameBuilder<'r, DB: DrawingBackend> {
    root: &'r DrawingArea<DB, Shift>,
    /// Top, bottom, left, right.
    margin: [i32; 4],
    x_area: i32,
    y_area: i32,
}

impl<'r, DB: DrawingBackend> FrameBuilder<'r, DB> {
    /// The same margin on every side.
    pub fn margin(mut self, m: i32) -> Self {
        self.margin = [m; 4];
        self
    }
    pub fn margin_top(mut self, m: i32) -> Self {
        self.margin[0] = m;
        self
    }
    pub fn margin_right(mut self, m: i32) -> Self {
        self.margin[3] = m;
        self
    }
    /// Height of the x axis's labels and description, under the plot.
    pub fn x_label_area_size(mut self, s: i32) -> Self {
        self.x_area = s;
        self
    }
    /// Width of the y axis's labels and description, left of the plot.
    pub fn y_label_area_size(mut self, s: i32) -> Self {
        self.y_area = s;
        self
    }

    /// Widens the y axis's area, if needed, so that `widest` (its longest
    /// label, at `font` px) fits beside the axis with the rotated
    /// description left of it: at a large scale («6,000,000») the labels
    /// would run into the description.
    pub fn fit_y_label(mut self, widest: &str, font: u32) -> Self {
        let style = super::font(font, &palette::TEXT);
        if let Ok((w, _)) = self.root.estimate_text_size(widest, &style) {
            // As `Mesh::draw` places them: 14 px from the axis, then the description.
            self.y_area = self.y_area.max(w as i32 + 14 + font as i32 + 4);
        }
        self
    }

    /// The frame for the data ranges `x` and `y` (y grows upwards).
    pub fn build(self, x: Range<f64>, y: Range<f64>) -> Frame<'r, DB> {
        let (w, h) = self.root.dim_in_pixel();
        let [top, bottom, left, right] = self.margin;
        // Pixels relative to the root; an area never ends before it starts.
        let x0 = (left + self.y_area).min(w as i32);
        let x1 = (w as i32 - right).max(x0);
        let y0 = top.min(h as i32);
        let y1 = (h as i32 - bottom - self.x_area).max(y0);
        let area = self.root.clone().shrink((x0, y0), ((x1 - x0) as u32, (y1 - y0) as u32));
        // As plotters maps a range: its last value on the last pixel row/column.
        let (px, py) = area.get_pixel_range();
        let pixels = (px.start..px.end - 1, py.end - 1..py.start);
        Frame {
            root: self.root,
            plot: area.apply_coord_spec(Cartesian2d::new(x.clone(), y.clone(), pixels)),
            x,
            y,
            rect: (x0, y0, x1, y1),
            outer: (left, h as i32 - bottom),
        }
    }
}

/// A chart laid out on its root area: where the data go, and where the axes
/// and their labels go.
pub struct Frame<'r, DB: DrawingBackend> {
    root: &'r DrawingArea<DB, Shift>,
    plot: Plot<DB>,
    x: Range<f64>,
    y: Range<f64>,
    /// The plot, in pixels of the root: left, top, right, bottom (exclusive).
    rect: (i32, i32, i32, i32),
    /// The left edge of the y labels' area and the bottom of the x labels'.
    outer: (i32, i32),
}

impl<'r, DB: DrawingBackend> Frame<'r, DB> {
    pub fn on(root: &'r DrawingArea<DB, Shift>) -> FrameBuilder<'r, DB> {
        FrameBuilder {
            root,
            margin: [0; 4],
            x_area: 0,
            y_area: 0,
        }
    }

    /// Where the data are drawn, in data coordinates (clipped to the plot).
    pub fn plotting_area(&self) -> &Plot<DB> {
        &self.plot
    }

    /// The backend's pixel for a point of the data.
    pub fn backend_coord(&self, p: &(f64, f64)) -> (i32, i32) {
        self.plot.map_coordinate(p)
    }

    /// `text` at the data point `at`, moved `shift` pixels (right, down), on
    /// the chart's whole area: not clipped to the plot, so a label may sit
    /// over an axis or in a margin.
    pub fn text(
        &self,
        text: String,
        at: (f64, f64),
        shift: (i32, i32),
        style: TextStyle,
    ) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
        let (px, py) = self.backend_coord(&at);
        let base = self.root.get_base_pixel();
        let pos = (px - base.0 + shift.0, py - base.1 + shift.1);
        self.root.draw(&Text::new(text, pos, style))
    }

    /// Draws each element of `series` in data coordinates.
    pub fn draw_series<B, E, R, S>(&self, series: S) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>>
    where
        B: CoordMapper,
        for<'b> &'b E: PointCollection<'b, (f64, f64), B>,
        E: Drawable<DB, B>,
        R: Borrow<E>,
        S: IntoIterator<Item = R>,
    {
        for e in series {
            self.plot.draw(e.borrow())?;
        }
        Ok(())
    }

    /// The axes, in the lab's style, with labels at `font` px.
    pub fn mesh(&self, font: u32) -> Mesh<'_, 'r, DB> {
        let axis = || AxisSpec {
            desc: None,
            labels: 10,
            format: None,
            ticks: None,
            grid: true,
        };
        Mesh {
            frame: self,
            font,
            x: axis(),
            y: axis(),
        }
    }
}

/// One axis of a [`Mesh`].
struct AxisSpec<'f> {
    desc: Option<String>,
    /// At most this many round values are labelled.
    labels: usize,
    format: Option<&'f dyn Fn(f64) -> String>,
    /// Labels at given places instead (position, text).
    ticks: Option<Vec<(f64, String)>>,
    grid: bool,
}

impl AxisSpec<'_> {
    fn labelled(&mut self, range: &Range<f64>) -> Vec<(f64, String)> {
        if let Some(t) = self.ticks.take() {
            return t;
        }
        let format = self.format.unwrap_or(&|v| crate::fmt::es_int(v.round() as i64));
        ticks(range.clone(), self.labels)
            .into_iter()
            .map(|v| (v, format(v)))
            .collect()
    }
}

/// The axes of a [`Frame`], configured as plotters' `configure_mesh` is.
pub struct Mesh<'a, 'r, DB: DrawingBackend> {
    frame: &'a Frame<'r, DB>,
    font: u32,
    x: AxisSpec<'a>,
    y: AxisSpec<'a>,
}

impl<'a, DB: DrawingBackend> Mesh<'a, '_, DB> {
    pub fn x_desc(mut self, d: impl Into<String>) -> Self {
        self.x.desc = Some(d.into());
        self
    }
    pub fn y_desc(mut self, d: impl Into<String>) -> Self {
        self.y.desc = Some(d.into());
        self
    }
    /// Label at most `n` round values of x (none with 0).
    pub fn x_labels(mut self, n: usize) -> Self {
        self.x.labels = n;
        self
    }
    pub fn y_labels(mut self, n: usize) -> Self {
        self.y.labels = n;
        self
    }
    /// How x's round values are written (whole numbers, `1,000`, by default).
    pub fn x_label_formatter(mut self, f: &'a dyn Fn(f64) -> String) -> Self {
        self.x.format = Some(f);
        self
    }
    pub fn y_label_formatter(mut self, f: &'a dyn Fn(f64) -> String) -> Self {
        self.y.format = Some(f);
        self
    }
    /// Labels at these places of x, instead of round values.
    pub fn x_ticks(mut self, t: Vec<(f64, String)>) -> Self {
        self.x.ticks = Some(t);
        self
    }
    pub fn y_ticks(mut self, t: Vec<(f64, String)>) -> Self {
        self.y.ticks = Some(t);
        self
    }
    /// No vertical grid lines.
    pub fn disable_x_mesh(mut self) -> Self {
        self.x.grid = false;
        self
    }
    /// No horizontal grid lines.
    pub fn disable_y_mesh(mut self) -> Self {
        self.y.grid = false;
        self
    }

    /// Grid lines, then the axes with their ticks, labels and descriptions.
    pub fn draw(mut self) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
        let f = self.frame;
        let root = f.root;
        let base = root.get_base_pixel();
        let (left, top, right, bottom) = f.rect;
        // Pixel of a value, relative to the root.
        let px = |v: f64| f.plot.map_coordinate(&(v, f.y.start)).0 - base.0;
        let py = |v: f64| f.plot.map_coordinate(&(f.x.start, v)).1 - base.1;
        let xs = self.x.labelled(&f.x);
        let ys = self.y.labelled(&f.y);
        let line = |a: (i32, i32), b: (i32, i32), color: &RGBColor| root.draw(&PathElement::new([a, b], color));
        let inside = |p: i32, lo: i32, hi: i32| p >= lo && p < hi;
        for (v, _) in &xs {
            let p = px(*v);
            if self.x.grid && inside(p, left, right) {
                line((p, top), (p, bottom - 1), &palette::GRID)?;
            }
        }
        for (v, _) in &ys {
            let p = py(*v);
            if self.y.grid && inside(p, top, bottom) {
                line((left, p), (right - 1, p), &palette::GRID)?;
            }
        }
        let font = |h, v| super::font(self.font, &palette::TEXT).pos(Pos::new(h, v));
        // The x axis: a line under the plot, ticks down, labels under them.
        line((left, bottom), (right - 1, bottom), &palette::TEXT)?;
        let style = font(HPos::Center, VPos::Top);
        for (v, label) in &xs {
            let p = px(*v);
            if inside(p, left, right) {
                root.draw(&Text::new(label.as_str(), (p, bottom + 10), style.clone()))?;
                line((p, bottom), (p, bottom + 5), &palette::TEXT)?;
            }
        }
        // The y axis: a line left of the plot, ticks left, labels left of them.
        line((left - 1, top), (left - 1, bottom - 1), &palette::TEXT)?;
        let style = font(HPos::Right, VPos::Center);
        let mut widest = 0;
        for (v, label) in &ys {
            let p = py(*v);
            if inside(p, top, bottom) {
                widest = widest.max(root.estimate_text_size(label, &style)?.0 as i32);
                root.draw(&Text::new(label.as_str(), (left - 10, p), style.clone()))?;
                line((left - 6, p), (left - 1, p), &palette::TEXT)?;
            }
        }
        // Descriptions at the outer edge of their areas, as plotters puts
        // them, but never over the labels (when the area is too small for
        // both they move into the margin), and the y one no longer than the
        // plot is high.
        let size = self.font as i32;
        let (outer_left, outer_bottom) = f.outer;
        if let Some(d) = &self.x.desc {
            let y = (outer_bottom - size).max(bottom + 13 + size);
            let y = y.min(root.dim_in_pixel().1 as i32 - size - 1);
            root.draw(&Text::new(
                d.as_str(),
                ((left + right) / 2, y),
                font(HPos::Center, VPos::Top),
            ))?;
        }
        if let Some(d) = &self.y.desc {
            let long = root.estimate_text_size(d, &font(HPos::Center, VPos::Top))?.0 as f64;
            let high = (bottom - top) as f64;
            let size = if long > high {
                (size as f64 * high / long).max(9.0)
            } else {
                size as f64
            };
            let x = outer_left.min(left - 14 - widest - size as i32).max(0);
            let style = super::font(size, &palette::TEXT)
                .pos(Pos::new(HPos::Center, VPos::Top))
                .transform(FontTransform::Rotate270);
            root.draw(&Text::new(d.as_str(), (x, (top + bottom) / 2), style))?;
        }
        Ok(())
    }
}

/// At most `max` round values in `range`: the multiples of the largest step
/// of 1, 2 or 5 times a power of ten that gives that many or fewer.
pub fn ticks(range: Range<f64>, max: usize) -> Vec<f64> {
    let (lo, hi) = (range.start.min(range.end), range.start.max(range.end));
    if max == 0 || !lo.is_finite() || !hi.is_finite() {
        return Vec::new();
    }
    if hi - lo < f64::EPSILON * hi.abs().max(1.0) {
        return vec![lo];
    }
    let count = |step: f64| ((hi / step + 1e-9).floor() - (lo / step - 1e-9).ceil() + 1.0).max(0.0) as usize;
    // The steps 1, 2, 5 × 10^e; 10^|e| is exact, so 0.1 is the literal 0.1.
    let step = |e: i32, m: f64| if e < 0 { m / 10f64.powi(-e) } else { m * 10f64.powi(e) };
    // Start from a step covering the whole range (one or two values) …
    let mut e = (hi - lo).log10().ceil() as i32;
    while count(step(e, 1.0)) > max && e < 308 {
        e += 1;
    }
    // … and go down 5, 2, 1 × 10^(e−1), … while few enough.
    let mut best = step(e, 1.0);
    'down: for k in 1..=60 {
        for m in [5.0, 2.0, 1.0] {
            let s = step(e - k, m);
            if count(s) > max {
                break 'down;
            }
            best = s;
        }
    }
    let first = (lo / best - 1e-9).ceil();
    (0..count(best)).map(|i| (first + i as f64) * best).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_ticks_like_plotters() {
        assert_eq!(ticks(0.0..10.0, 5), [0.0, 5.0, 10.0]);
        assert_eq!(ticks(0.0..10.0, 6), [0.0, 2.0, 4.0, 6.0, 8.0, 10.0]);
        assert_eq!(ticks(0.0..10.0, 11), (0..=10).map(f64::from).collect::<Vec<_>>());
        assert_eq!(ticks(0.0..1_350.0, 6), [0.0, 500.0, 1_000.0]);
        assert_eq!(ticks(0.0..1.3, 6), [0.0, 0.5, 1.0]);
        assert_eq!(ticks(2.5..2.5, 6), [2.5]);
        assert!(ticks(0.0..f64::INFINITY, 6).is_empty());
        assert!(ticks(0.0..1.0, 0).is_empty());
        // Never more than asked, whatever the range.
        for (lo, hi) in [(0.0, 1e-6), (-3.0, 7.0), (1e9, 1e9 + 3.0), (0.0, 61.0 * 1.35)] {
            for max in 1..12 {
                let t = ticks(lo..hi, max);
                assert!(!t.is_empty() && t.len() <= max, "{lo}..{hi} {max}: {t:?}");
                assert!(t
                    .iter()
                    .all(|v| *v >= lo - 1e-9 * hi.abs() && *v <= hi + 1e-9 * hi.abs()));
            }
        }
    }

    #[test]
    fn the_same_round_values_plotters_chose() {
        use crate::sim::policy::rng::UnitRng;
        use plotters::coord::ranged1d::Ranged;
        let mut rng = crate::sim::policy::rng::PyRandom::new(7);
        for _ in 0..2_000 {
            let hi = 10f64.powf(rng.uniform(-3.0, 6.0));
            let lo = if rng.random() < 0.5 {
                0.0
            } else {
                hi * rng.uniform(-1.0, 0.9)
            };
            let max = 1 + (rng.random() * 12.0) as usize;
            let theirs = RangedCoordf64::from(lo..hi).key_points(max);
            let ours = ticks(lo..hi, max);
            // The same values, except that plotters, stepping by adding, may
            // lose the last one to rounding (3.4, 3.6, 3.8 of 3.36..4.14).
            let near = |a: f64, b: f64| (a - b).abs() <= 1e-9 * hi;
            assert!(
                theirs.iter().all(|b| ours.iter().any(|a| near(*a, *b)))
                    && ours.len() <= theirs.len() + 1
                    && ours.first().zip(theirs.first()).is_none_or(|(a, b)| near(*a, *b)),
                "{lo}..{hi} {max}: {ours:?} {theirs:?}"
            );
        }
    }

    #[test]
    fn the_frame_sits_where_plotters_put_its_chart() {
        let mut svg = String::new();
        let root = SVGBackend::with_string(&mut svg, (400, 240)).into_drawing_area();
        let ours = Frame::on(&root)
            .margin(10)
            .margin_right(20)
            .x_label_area_size(40)
            .y_label_area_size(60)
            .build(0.0..10.0, 0.0..100.0);
        let theirs = ChartBuilder::on(&root)
            .margin(10)
            .margin_right(20)
            .x_label_area_size(40)
            .y_label_area_size(60)
            .build_cartesian_2d(0.0..10.0, 0.0..100.0)
            .unwrap();
        for p in [(0.0, 0.0), (10.0, 100.0), (3.3, 47.0)] {
            assert_eq!(ours.backend_coord(&p), theirs.backend_coord(&p));
        }
        assert_eq!(
            ours.plotting_area().get_pixel_range(),
            theirs.plotting_area().get_pixel_range()
        );
    }

    #[test]
    fn a_long_y_label_widens_its_area_so_the_description_stays_clear() {
        let mut svg = String::new();
        let root = SVGBackend::with_string(&mut svg, (360, 240)).into_drawing_area();
        let left = |f: FrameBuilder<'_, SVGBackend>| f.build(0.0..1.0, 0.0..1.0).rect.0;
        let narrow = left(Frame::on(&root).y_label_area_size(48));
        let fitted = left(Frame::on(&root).y_label_area_size(48).fit_y_label("6,000,000", 12));
        let width = root
            .estimate_text_size("6,000,000", &super::super::font(12, &palette::TEXT))
            .unwrap()
            .0 as i32;
        assert_eq!(narrow, 48);
        assert!(fitted >= width + 14 + 12, "{fitted} for a label {width} px wide");
        // A short label keeps the area it was given.
        assert_eq!(left(Frame::on(&root).y_label_area_size(48).fit_y_label("20", 12)), 48);
    }
}
