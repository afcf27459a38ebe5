//! The plotters backend that draws the charts on a `<canvas>`.
//!
//! It began as a wrapper around plotters-canvas and replaced it for two
//! reasons, both measured:
//! - **Text is measured on the canvas itself.** plotters, built for wasm,
//!   measures each piece of text by adding a `<span>` to the page and reading
//!   its `offsetHeight`: every label forced a layout of the whole lesson page,
//!   and that was most of a chart's redraw (≈ 20 ms per change on the full
//!   page). `measureText` touches no layout.
//! - **Smaller.** plotters-canvas writes each colour as
//!   `format!("rgba(…, {alpha})")` and each font with its size as an `f64`,
//!   and turns canvas errors into JSON: here colours and sizes are written with
//!   integers (`chart::css`), and the crate is gone from the build (≈ 2 KB
//!   gzipped of the browser's download).
//!
//! Everything else draws as plotters-canvas drew: the same canvas calls, and
//! horizontal and vertical lines moved half a pixel so that they stay crisp.

use crate::chart::css::{css_color, css_font};
use plotters::prelude::DrawingBackend;
use plotters_backend::text_anchor::{HPos, VPos};
use plotters_backend::{BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingErrorKind, FontTransform};
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

pub struct Canvas {
    canvas: HtmlCanvasElement,
    context: CanvasRenderingContext2d,
}

impl Canvas {
    pub fn new(canvas: HtmlCanvasElement) -> Option<Self> {
        let context = canvas.get_context("2d").ok()??.dyn_into().ok()?;
        Some(Canvas { canvas, context })
    }

    fn set_line_style(&self, style: &impl BackendStyle) {
        self.context.set_stroke_style_str(&css(style.color()));
        self.context.set_line_width(style.stroke_width() as f64);
    }

    /// The style of a shape: its fill, or its outline.
    fn set_shape_style(&self, style: &impl BackendStyle, fill: bool) {
        if fill {
            self.context.set_fill_style_str(&css(style.color()));
        } else {
            self.set_line_style(style);
        }
    }

    fn set_font(&self, style: &impl BackendTextStyle) {
        self.context
            .set_font(&css_font(style.style().as_str(), style.size(), style.family().as_str()));
    }

    /// Begins a path through `points` (nothing for no points).
    fn trace(&self, points: impl IntoIterator<Item = BackendCoord>) {
        self.context.begin_path();
        let mut points = points.into_iter();
        if let Some(p) = points.next() {
            self.context.move_to(p.0 as f64, p.1 as f64);
            for p in points {
                self.context.line_to(p.0 as f64, p.1 as f64);
            }
        }
    }
}

/// What the canvas refused (only `arc` and `fillText` can fail).
#[derive(Debug)]
pub struct CanvasError(String);

impl std::fmt::Display for CanvasError {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "canvas: {}", self.0)
    }
}

impl std::error::Error for CanvasError {}

type Error = DrawingErrorKind<CanvasError>;

fn css(c: BackendColor) -> String {
    css_color(c.rgb, c.alpha)
}

fn error(e: JsValue) -> Error {
    DrawingErrorKind::DrawingError(CanvasError(e.as_string().unwrap_or_else(|| "error de canvas".into())))
}

/// Moves a vertical or horizontal line half a pixel, so that it covers one row
/// or column of pixels instead of blurring across two.
fn crisp(from: BackendCoord, to: BackendCoord) -> ((f64, f64), (f64, f64)) {
    let (mut a, mut b) = ((from.0 as f64, from.1 as f64), (to.0 as f64, to.1 as f64));
    if a.0 == b.0 {
        a.0 -= 0.5;
        b.0 -= 0.5;
    }
    if a.1 == b.1 {
        a.1 -= 0.5;
        b.1 -= 0.5;
    }
    (a, b)
}

impl DrawingBackend for Canvas {
    type ErrorType = CanvasError;

    fn get_size(&self) -> (u32, u32) {
        (self.canvas.width(), self.canvas.height())
    }
    fn ensure_prepared(&mut self) -> Result<(), Error> {
        Ok(())
    }
    fn present(&mut self) -> Result<(), Error> {
        Ok(())
    }
    fn draw_pixel(&mut self, point: BackendCoord, color: BackendColor) -> Result<(), Error> {
        if color.alpha > 0.0 {
            self.context.set_fill_style_str(&css(color));
            self.context.fill_rect(point.0 as f64, point.1 as f64, 1.0, 1.0);
        }
        Ok(())
    }
    fn draw_line<S: BackendStyle>(&mut self, from: BackendCoord, to: BackendCoord, style: &S) -> Result<(), Error> {
        if style.color().alpha > 0.0 {
            let (a, b) = crisp(from, to);
            self.set_line_style(style);
            self.context.begin_path();
            self.context.move_to(a.0, a.1);
            self.context.line_to(b.0, b.1);
            self.context.stroke();
        }
        Ok(())
    }
    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Result<(), Error> {
        if style.color().alpha > 0.0 {
            let (x, y) = (upper_left.0 as f64, upper_left.1 as f64);
            let (w, h) = (
                (bottom_right.0 - upper_left.0) as f64,
                (bottom_right.1 - upper_left.1) as f64,
            );
            self.set_shape_style(style, fill);
            if fill {
                self.context.fill_rect(x, y, w, h);
            } else {
                self.context.stroke_rect(x, y, w, h);
            }
        }
        Ok(())
    }
    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Result<(), Error> {
        if style.color().alpha > 0.0 {
            self.set_line_style(style);
            self.trace(path);
            self.context.stroke();
        }
        Ok(())
    }
    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Result<(), Error> {
        if style.color().alpha > 0.0 {
            self.context.set_fill_style_str(&css(style.color()));
            self.trace(vert);
            self.context.close_path();
            self.context.fill();
        }
        Ok(())
    }
    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Result<(), Error> {
        if style.color().alpha > 0.0 {
            self.set_shape_style(style, fill);
            self.context.begin_path();
            self.context
                .arc(
                    center.0 as f64,
                    center.1 as f64,
                    radius as f64,
                    0.0,
                    std::f64::consts::TAU,
                )
                .map_err(error)?;
            if fill {
                self.context.fill();
            } else {
                self.context.stroke();
            }
        }
        Ok(())
    }
    fn draw_text<S: BackendTextStyle>(&mut self, text: &str, style: &S, pos: BackendCoord) -> Result<(), Error> {
        let color = style.color();
        if color.alpha == 0.0 {
            return Ok(());
        }
        let turn = match style.transform() {
            FontTransform::None => 0.0,
            FontTransform::Rotate90 => 0.5,
            FontTransform::Rotate180 => 1.0,
            FontTransform::Rotate270 => 1.5,
        } * std::f64::consts::PI;
        let (mut x, mut y) = (pos.0 as f64, pos.1 as f64);
        if turn != 0.0 {
            self.context.save();
            self.context.translate(x, y).map_err(error)?;
            self.context.rotate(turn).map_err(error)?;
            (x, y) = (0.0, 0.0);
        }
        self.context.set_text_baseline(match style.anchor().v_pos {
            VPos::Top => "top",
            VPos::Center => "middle",
            VPos::Bottom => "bottom",
        });
        self.context.set_text_align(match style.anchor().h_pos {
            HPos::Left => "start",
            HPos::Right => "end",
            HPos::Center => "center",
        });
        self.context.set_fill_style_str(&css(color));
        self.set_font(style);
        let drawn = self.context.fill_text(text, x, y).map_err(error);
        if turn != 0.0 {
            self.context.restore();
        }
        drawn
    }
    fn estimate_text_size<S: BackendTextStyle>(&self, text: &str, style: &S) -> Result<(u32, u32), Error> {
        let size = style.size();
        self.set_font(style);
        let width = self
            .context
            .measure_text(text)
            .map(|m| m.width())
            .unwrap_or(size * 0.6 * text.len() as f64);
        // What the span measured: one line box, about 1.15 × the font size.
        Ok((width.ceil() as u32, (size * 1.15).ceil() as u32))
    }
}
