//! The charts as SVG, for the prerendered pages: the picture the browser's
//! canvas draws, written at build time by the same chart code, so that a
//! chart is on the page at first paint, with JavaScript off and on paper.
//!
//! A plotters backend of the lab's own rather than plotters' `SVGBackend`,
//! because the picture must be the canvas's (`ui::canvas::canvas_backend`):
//!
//! - **Text at the canvas's size.** `SVGBackend` writes `font-size` as the
//!   size ÷ 1.24, about 19 % smaller than the canvas draws the same style.
//!   Here a 12 px label is `font-size="12"`, placed on the canvas's baselines
//!   (`top`, `middle`, `bottom` of the em box).
//! - **Text measured as a browser would.** Legends wrap and label areas widen
//!   by measured text; plotters' own estimate (0.7 em per byte) is far off for
//!   accented Spanish and narrow digits. [`text_width`] uses the widths of
//!   the common sans-serif metric (Helvetica's, which Arial and Liberation
//!   Sans share), the font the canvas draws with on most screens.
//! - **The canvas's crisp lines**: a horizontal or vertical line at `x`
//!   covers the pixel column `[x - 1, x)`, as on the canvas.
//! - **Small pages.** Consecutive lines of one style (a grid, ticks) become
//!   one `<path>`; numbers are integers or one decimal. The lesson page has a
//!   chart per widget, twice (narrow and wide): their bytes and elements count.

use plotters::prelude::DrawingBackend;
use plotters_backend::{
    text_anchor::{HPos, VPos},
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingErrorKind, FontStyle, FontTransform,
};
use std::fmt::Write;

/// Nothing an SVG string refuses.
#[derive(Debug)]
pub struct Never;

impl std::fmt::Display for Never {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("svg")
    }
}
impl std::error::Error for Never {}

type Error = DrawingErrorKind<Never>;

/// A stroke's colour, opacity in thousandths and width: lines of one
/// stroke in a row are one path.
#[derive(Clone, Copy, PartialEq)]
struct Stroke {
    rgb: (u8, u8, u8),
    alpha: u32,
    width: u32,
}

/// Writes the picture into its string when dropped (as plotters'
/// `SVGBackend::with_string`: the drawing area owns the backend).
pub struct Svg<'a> {
    target: &'a mut String,
    class: &'a str,
    size: (u32, u32),
    body: String,
    /// The lines waiting to be written as one path, and their stroke.
    pending: Option<(Stroke, String)>,
}

/// `#rrggbb`.
fn hex((r, g, b): (u8, u8, u8)) -> String {
    format!("#{r:02x}{g:02x}{b:02x}")
}

fn alpha_of(c: BackendColor) -> u32 {
    (c.alpha.clamp(0.0, 1.0) * 1000.0).round() as u32
}

/// ` fill-opacity=".5"` (or ` stroke-opacity`) when not opaque.
fn opacity(attr: &str, alpha: u32) -> String {
    if alpha >= 1000 {
        String::new()
    } else {
        format!(" {attr}-opacity=\"{}\"", trim(format!("{:.3}", alpha as f64 / 1000.0)))
    }
}

/// `fill="#rrggbb"` and its opacity.
fn fill(rgb: (u8, u8, u8), alpha: u32) -> String {
    format!("fill=\"{}\"{}", hex(rgb), opacity("fill", alpha))
}

/// An outline: no fill, the stroke's colour, opacity and width.
fn outline(s: Stroke) -> String {
    format!(
        "fill=\"none\" stroke=\"{}\"{} stroke-width=\"{}\"",
        hex(s.rgb),
        opacity("stroke", s.alpha),
        s.width
    )
}

/// A coordinate written with at most one decimal.
fn n(v: f64) -> String {
    trim(format!("{v:.1}"))
}

/// A decimal without its trailing zeros, nor its point (`0.500` → `0.5`, `12.0` → `12`).
fn trim(s: String) -> String {
    if s.contains('.') {
        let t = s.trim_end_matches('0').trim_end_matches('.');
        if t == "-0" {
            "0".into()
        } else {
            t.into()
        }
    } else {
        s
    }
}

/// Text for SVG.
fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

impl<'a> Svg<'a> {
    /// A picture of `size` CSS pixels that, once dropped, is the whole
    /// `<svg>` element in `target`: its `viewBox` in CSS pixels, scaled by
    /// the page like the canvas it stands for; `class` for the style sheet.
    pub fn with_string(target: &'a mut String, size: (u32, u32), class: &'a str) -> Self {
        Svg {
            target,
            class,
            size,
            body: String::new(),
            pending: None,
        }
    }

    fn flush(&mut self) {
        if let Some((s, d)) = self.pending.take() {
            let _ = write!(self.body, "<path d=\"{d}\" {}/>", outline(s));
        }
    }

    /// A polyline of `points` in `stroke`, merged with the lines before it
    /// of the same stroke.
    fn line(&mut self, stroke: Stroke, points: &[(f64, f64)]) {
        if points.len() < 2 || stroke.alpha == 0 {
            return;
        }
        if self.pending.as_ref().is_some_and(|(s, _)| *s != stroke) {
            self.flush();
        }
        let points = simplified(points);
        let d = &mut self.pending.get_or_insert_with(|| (stroke, String::new())).1;
        for (i, (x, y)) in points.iter().enumerate() {
            let _ = write!(d, "{}{} {}", if i == 0 { "M" } else { "L" }, n(*x), n(*y));
        }
    }

    /// A horizontal or vertical line where the canvas draws it (the pixel
    /// column or row before the coordinate); other lines as they are.
    fn crisp(a: BackendCoord, b: BackendCoord, width: u32) -> [(f64, f64); 2] {
        let shift = if width % 2 == 1 { 0.5 } else { 0.0 };
        let (fa, fb) = ((a.0 as f64, a.1 as f64), (b.0 as f64, b.1 as f64));
        if a.0 == b.0 {
            [(fa.0 - shift, fa.1), (fb.0 - shift, fb.1)]
        } else if a.1 == b.1 {
            [(fa.0, fa.1 - shift), (fb.0, fb.1 - shift)]
        } else {
            [fa, fb]
        }
    }

    fn element(&mut self, text: &str) {
        self.flush();
        self.body.push_str(text);
    }
}

impl Drop for Svg<'_> {
    fn drop(&mut self) {
        self.flush();
        let (w, h) = self.size;
        let _ = write!(
            self.target,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"{}\" viewBox=\"0 0 {w} {h}\" font-family=\"sans-serif\" aria-hidden=\"true\" focusable=\"false\">{}</svg>",
            self.class, self.body
        );
    }
}

/// The same polyline with fewer points: a point repeated, or in the middle
/// of a straight run (on the line from the one before to the one after, and
/// between them), draws nothing of its own. A simulation's curve at one point
/// per pixel is mostly such runs.
fn simplified(points: &[(f64, f64)]) -> Vec<(f64, f64)> {
    let mut out: Vec<(f64, f64)> = Vec::with_capacity(points.len());
    for &p in points {
        if out.last() == Some(&p) {
            continue;
        }
        if let [.., a, b] = out[..] {
            let cross = (b.0 - a.0) * (p.1 - b.1) - (b.1 - a.1) * (p.0 - b.0);
            let onward = (b.0 - a.0) * (p.0 - b.0) + (b.1 - a.1) * (p.1 - b.1);
            if cross == 0.0 && onward >= 0.0 {
                out.pop();
            }
        }
        out.push(p);
    }
    out
}

fn stroke_of<S: BackendStyle>(style: &S) -> Stroke {
    Stroke {
        rgb: style.color().rgb,
        alpha: alpha_of(style.color()),
        width: style.stroke_width(),
    }
}

/// The advance of `c` in thousandths of an em, in the common sans-serif
/// metric (Helvetica's widths, which Arial and Liberation Sans share).
fn advance(c: char) -> u32 {
    const ASCII: [u16; 95] = [
        278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, // space … /
        556, 556, 556, 556, 556, 556, 556, 556, 556, 556, // 0 … 9
        278, 278, 584, 584, 584, 556, 1015, // : … @
        667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778, 667, 778, 722, 667, 611, 722, 667,
        944, 667, 667, 611, // A … Z
        278, 278, 278, 469, 556, 333, // [ … `
        556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556, 556, 556, 333, 500, 278, 556, 500,
        722, 500, 500, 500, // a … z
        334, 260, 334, 584, // { … ~
    ];
    match c {
        ' '..='~' => ASCII[c as usize - 32] as u32,
        'á' | 'à' | 'â' | 'ä' | 'ã' => advance('a'),
        'é' | 'è' | 'ê' | 'ë' => advance('e'),
        'í' | 'ì' | 'î' | 'ï' => advance('i'),
        'ó' | 'ò' | 'ô' | 'ö' | 'õ' => advance('o'),
        'ú' | 'ù' | 'û' | 'ü' => advance('u'),
        'ñ' => advance('n'),
        'Á' => advance('A'),
        'É' => advance('E'),
        'Í' => advance('I'),
        'Ó' => advance('O'),
        'Ú' => advance('U'),
        'Ñ' => advance('N'),
        '¿' | '¡' => 556,
        '«' | '»' => 556,
        '·' | '×' => 584,
        '−' | '≈' | '≤' | '≥' | '±' => 584,
        '–' => 556,
        '—' | '…' | '→' | '←' | '↑' | '↓' | '⚠' => 1000,
        _ => 556,
    }
}

/// The width in px of `text` at `size` px, as a browser's canvas measures
/// it in the common sans-serif (bold about 6 % wider).
pub fn text_width(text: &str, size: f64, bold: bool) -> f64 {
    let em: u32 = text.chars().map(advance).sum();
    em as f64 / 1000.0 * size * if bold { 1.06 } else { 1.0 }
}

impl DrawingBackend for Svg<'_> {
    type ErrorType = Never;

    fn get_size(&self) -> (u32, u32) {
        self.size
    }
    fn ensure_prepared(&mut self) -> Result<(), Error> {
        Ok(())
    }
    fn present(&mut self) -> Result<(), Error> {
        self.flush();
        Ok(())
    }
    fn draw_pixel(&mut self, p: BackendCoord, color: BackendColor) -> Result<(), Error> {
        let a = alpha_of(color);
        if a > 0 {
            self.element(&format!(
                "<rect x=\"{}\" y=\"{}\" width=\"1\" height=\"1\" {}/>",
                p.0,
                p.1,
                fill(color.rgb, a)
            ));
        }
        Ok(())
    }
    fn draw_line<S: BackendStyle>(&mut self, from: BackendCoord, to: BackendCoord, style: &S) -> Result<(), Error> {
        let s = stroke_of(style);
        self.line(s, &Self::crisp(from, to, s.width));
        Ok(())
    }
    fn draw_rect<S: BackendStyle>(
        &mut self,
        a: BackendCoord,
        b: BackendCoord,
        style: &S,
        filled: bool,
    ) -> Result<(), Error> {
        let s = stroke_of(style);
        if s.alpha == 0 {
            return Ok(());
        }
        let (w, h) = (b.0 - a.0, b.1 - a.1);
        // (An empty filled box paints nothing; an outline of one is still a line.)
        if filled && (w <= 0 || h <= 0) {
            return Ok(());
        }
        let paint = if filled { fill(s.rgb, s.alpha) } else { outline(s) };
        self.element(&format!(
            "<rect x=\"{}\" y=\"{}\" width=\"{w}\" height=\"{h}\" {paint}/>",
            a.0, a.1
        ));
        Ok(())
    }
    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Result<(), Error> {
        let s = stroke_of(style);
        let points: Vec<BackendCoord> = path.into_iter().collect();
        if let [a, b] = points[..] {
            self.line(s, &Self::crisp(a, b, s.width));
        } else {
            let points: Vec<(f64, f64)> = points.iter().map(|p| (p.0 as f64, p.1 as f64)).collect();
            self.line(s, &points);
        }
        Ok(())
    }
    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Result<(), Error> {
        let s = stroke_of(style);
        if s.alpha == 0 {
            return Ok(());
        }
        let mut d = String::new();
        for (i, p) in vert.into_iter().enumerate() {
            let _ = write!(d, "{}{} {}", if i == 0 { "M" } else { "L" }, p.0, p.1);
        }
        if !d.is_empty() {
            self.element(&format!("<path d=\"{d}Z\" {}/>", fill(s.rgb, s.alpha)));
        }
        Ok(())
    }
    fn draw_circle<S: BackendStyle>(&mut self, c: BackendCoord, r: u32, style: &S, filled: bool) -> Result<(), Error> {
        let s = stroke_of(style);
        if s.alpha == 0 {
            return Ok(());
        }
        let paint = if filled { fill(s.rgb, s.alpha) } else { outline(s) };
        self.element(&format!("<circle cx=\"{}\" cy=\"{}\" r=\"{r}\" {paint}/>", c.0, c.1));
        Ok(())
    }
    fn draw_text<S: BackendTextStyle>(&mut self, text: &str, style: &S, pos: BackendCoord) -> Result<(), Error> {
        let color = style.color();
        let a = alpha_of(color);
        if a == 0 || text.is_empty() {
            return Ok(());
        }
        let anchor = match style.anchor().h_pos {
            HPos::Left => "",
            HPos::Center => " text-anchor=\"middle\"",
            HPos::Right => " text-anchor=\"end\"",
        };
        // The canvas's baselines: the em box's top, middle and bottom, from
        // the baseline of a sans-serif whose ascent is 0.81 em of the box.
        let dy = match style.anchor().v_pos {
            VPos::Top => " dy=\".81em\"",
            VPos::Center => " dy=\".31em\"",
            VPos::Bottom => " dy=\"-.19em\"",
        };
        let weight = match style.style() {
            FontStyle::Bold => " font-weight=\"bold\"",
            FontStyle::Italic | FontStyle::Oblique => " font-style=\"italic\"",
            FontStyle::Normal => "",
        };
        let turn = match style.transform() {
            FontTransform::Rotate90 => 90,
            FontTransform::Rotate180 => 180,
            FontTransform::Rotate270 => 270,
            FontTransform::None => 0,
        };
        let transform = if turn == 0 {
            String::new()
        } else {
            format!(" transform=\"rotate({turn} {} {})\"", pos.0, pos.1)
        };
        self.element(&format!(
            "<text x=\"{}\" y=\"{}\"{dy}{anchor} font-size=\"{}\"{weight} {}{transform}>{}</text>",
            pos.0,
            pos.1,
            n(style.size()),
            fill(color.rgb, a),
            escape(text)
        ));
        Ok(())
    }
    fn estimate_text_size<S: BackendTextStyle>(&self, text: &str, style: &S) -> Result<(u32, u32), Error> {
        let size = style.size();
        let w = text_width(text, size, matches!(style.style(), FontStyle::Bold));
        // What the canvas backend says: one line box, about 1.15 × the font size.
        Ok((w.ceil() as u32, (size * 1.15).ceil() as u32))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widths_are_a_sans_serif_s() {
        // Helvetica's: «0» 556, «i» 222, «m» 833 thousandths of an em.
        assert_eq!(text_width("0", 1000.0, false), 556.0);
        assert!((text_width("im", 10.0, false) - 10.55).abs() < 1e-9);
        assert_eq!(text_width("á", 10.0, false), text_width("a", 10.0, false));
        assert!(text_width("tiempo (s)", 12.0, false) < 60.0);
    }

    #[test]
    fn lines_of_one_stroke_are_one_path() {
        use plotters::prelude::*;
        let mut s = String::new();
        {
            let mut svg = Svg::with_string(&mut s, (100, 50), "x");
            let grey = ShapeStyle::from(&RGBColor(200, 200, 200)).stroke_width(1);
            svg.draw_line((10, 0), (10, 50), &grey).unwrap();
            svg.draw_line((20, 0), (20, 50), &grey).unwrap();
            svg.draw_rect((0, 0), (5, 5), &RGBColor(1, 2, 3).filled(), true)
                .unwrap();
            svg.draw_line((30, 0), (30, 50), &grey).unwrap();
        }
        assert_eq!(s.matches("<path").count(), 2, "{s}");
        assert!(s.contains("d=\"M9.5 0L9.5 50M19.5 0L19.5 50\""), "{s}");
        assert!(s.contains("<rect x=\"0\" y=\"0\" width=\"5\" height=\"5\" fill=\"#010203\"/>"));
        assert!(s.starts_with("<svg") && s.contains("viewBox=\"0 0 100 50\""));
    }

    #[test]
    fn a_polyline_keeps_only_its_corners() {
        let run = [
            (0.0, 0.0),
            (1.0, 0.0),
            (1.0, 0.0),
            (2.0, 0.0),
            (2.0, 5.0),
            (2.0, 9.0),
            (4.0, 9.0),
            (3.0, 9.0),
        ];
        // A run that turns back is kept: it draws its own length.
        assert_eq!(
            simplified(&run),
            [(0.0, 0.0), (2.0, 0.0), (2.0, 9.0), (4.0, 9.0), (3.0, 9.0)]
        );
        assert_eq!(simplified(&[(1.0, 1.0)]), [(1.0, 1.0)]);
    }

    #[test]
    fn text_at_the_canvas_size_and_escaped() {
        let mut s = String::new();
        {
            let mut out = Svg::with_string(&mut s, (200, 100), "x");
            let style = crate::chart::font(12, &crate::chart::palette::TEXT);
            out.draw_text("a < b & «c»", &style, (5, 6)).unwrap();
        }
        assert!(s.contains("font-size=\"12\""), "{s}");
        assert!(s.contains(">a &lt; b &amp; «c»</text>"), "{s}");
    }
}
