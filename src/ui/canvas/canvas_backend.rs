//! The plotters backend that draws the charts on a `<canvas>`: a thin wrapper
//! over [`plotters_canvas::CanvasBackend`] that overrides only what must differ.
//!
//! - **The size.** The canvas's backing store is `devicePixelRatio` times its
//!   CSS size (sharp on a 2× laptop and a 3× phone), and the context is scaled
//!   by that ratio: the charts keep drawing in CSS pixels, [`get_size`] says
//!   the CSS size.
//! - **Text is measured on the canvas itself** (`measureText`). plotters,
//!   built for wasm, measures each label by adding a styled `<span>` to the
//!   page and reading its `offsetHeight`: a forced layout of the whole lesson
//!   page per label (most of a redraw's time, ≈ 20 ms on the full page), and
//!   an inline style the page's CSP refuses.
//! - **Crisp lines at any ratio.** A horizontal or vertical line (an axis, a
//!   grid line, a limit) is snapped to whole device pixels, its width too, so
//!   that it covers whole rows or columns of pixels instead of blurring across
//!   two; plotters-canvas moves lines by half a CSS pixel, right only at 1×,
//!   and not at all for the grid, which it draws as paths.
//!
//! Everything else (rectangles, areas, circles, text) is plotters-canvas's.
//!
//! [`get_size`]: DrawingBackend::get_size

use crate::chart::css::css_font;
use plotters::prelude::DrawingBackend;
use plotters_backend::{BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingErrorKind};
use plotters_canvas::CanvasBackend;
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

pub struct Canvas {
    inner: CanvasBackend,
    context: CanvasRenderingContext2d,
    /// The CSS size drawn in.
    size: (u32, u32),
    /// Device pixels per CSS pixel.
    ratio: f64,
}

/// What the canvas refused (plotters-canvas does not name its error type).
type CanvasError = <CanvasBackend as DrawingBackend>::ErrorType;
type Error = DrawingErrorKind<CanvasError>;

/// A line's two ends in CSS pixels, and its width.
struct Line {
    from: (f64, f64),
    to: (f64, f64),
    width: f64,
}

impl Canvas {
    /// A backend for `canvas` shown at `size` CSS pixels on a screen of
    /// `ratio` device pixels per CSS pixel: sizes its backing store (only
    /// when it changes: that reallocates the pixels) and scales its context.
    pub fn new(canvas: HtmlCanvasElement, size: (u32, u32), ratio: f64) -> Option<Self> {
        let ratio = if ratio.is_finite() && ratio > 0.0 {
            ratio.min(4.0)
        } else {
            1.0
        };
        let (w, h) = (backing(size.0, ratio), backing(size.1, ratio));
        if canvas.width() != w || canvas.height() != h {
            canvas.set_width(w);
            canvas.set_height(h);
        }
        let context: CanvasRenderingContext2d = canvas.get_context("2d").ok()??.dyn_into().ok()?;
        context.set_transform(ratio, 0.0, 0.0, ratio, 0.0, 0.0).ok()?;
        Some(Canvas {
            inner: CanvasBackend::with_canvas_object(canvas)?,
            context,
            size,
            ratio,
        })
    }

    /// The line from `a` to `b` if it is horizontal or vertical, snapped to
    /// whole device pixels, and its width in CSS pixels.
    fn crisp(&self, a: BackendCoord, b: BackendCoord, width: u32) -> Option<Line> {
        if a.0 != b.0 && a.1 != b.1 {
            return None;
        }
        let r = self.ratio;
        // The width in whole device pixels; an odd width is centred on a
        // pixel's middle, an even one on the edge between two.
        let device = (width as f64 * r).round().max(1.0);
        let shift = if device as u32 % 2 == 1 { 0.5 } else { 0.0 };
        // Plotters' line at x covers the pixel column [x - 1, x): snap its centre.
        let snap = |v: i32| (((v as f64 - 0.5) * r).floor() + shift) / r;
        let (from, to) = if a.0 == b.0 {
            ((snap(a.0), a.1 as f64), (snap(b.0), b.1 as f64))
        } else {
            ((a.0 as f64, snap(a.1)), (b.0 as f64, snap(b.1)))
        };
        Some(Line {
            from,
            to,
            width: device / r,
        })
    }

    fn stroke(&self, line: Line, color: BackendColor) -> Result<(), Error> {
        if color.alpha > 0.0 {
            self.context
                .set_stroke_style_str(&crate::chart::css::css_color(color.rgb, color.alpha));
            self.context.set_line_width(line.width);
            self.context.begin_path();
            self.context.move_to(line.from.0, line.from.1);
            self.context.line_to(line.to.0, line.to.1);
            self.context.stroke();
        }
        Ok(())
    }
}

/// Device pixels for `css` CSS pixels at `ratio`.
fn backing(css: u32, ratio: f64) -> u32 {
    ((css as f64 * ratio).round() as u32).clamp(1, 16_384)
}

impl DrawingBackend for Canvas {
    type ErrorType = CanvasError;

    fn get_size(&self) -> (u32, u32) {
        self.size
    }
    fn ensure_prepared(&mut self) -> Result<(), Error> {
        Ok(())
    }
    fn present(&mut self) -> Result<(), Error> {
        Ok(())
    }
    fn draw_pixel(&mut self, point: BackendCoord, color: BackendColor) -> Result<(), Error> {
        self.inner.draw_pixel(point, color)
    }
    fn draw_line<S: BackendStyle>(&mut self, from: BackendCoord, to: BackendCoord, style: &S) -> Result<(), Error> {
        match self.crisp(from, to, style.stroke_width()) {
            Some(line) => self.stroke(line, style.color()),
            None => self.inner.draw_line(from, to, style),
        }
    }
    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Result<(), Error> {
        self.inner.draw_rect(upper_left, bottom_right, style, fill)
    }
    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Result<(), Error> {
        // A grid line or an axis is a path of two points.
        let points: Vec<BackendCoord> = path.into_iter().collect();
        if let [a, b] = points[..] {
            if let Some(line) = self.crisp(a, b, style.stroke_width()) {
                return self.stroke(line, style.color());
            }
        }
        self.inner.draw_path(points, style)
    }
    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Result<(), Error> {
        self.inner.fill_polygon(vert, style)
    }
    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Result<(), Error> {
        self.inner.draw_circle(center, radius, style, fill)
    }
    fn draw_text<S: BackendTextStyle>(&mut self, text: &str, style: &S, pos: BackendCoord) -> Result<(), Error> {
        self.inner.draw_text(text, style, pos)
    }
    fn estimate_text_size<S: BackendTextStyle>(&self, text: &str, style: &S) -> Result<(u32, u32), Error> {
        let size = style.size();
        self.context
            .set_font(&css_font(style.style().as_str(), size, style.family().as_str()));
        let width = self
            .context
            .measure_text(text)
            .map(|m| m.width())
            .unwrap_or(size * 0.6 * text.chars().count() as f64);
        // What the span measured: one line box, about 1.15 × the font size.
        Ok((width.ceil() as u32, (size * 1.15).ceil() as u32))
    }
}
