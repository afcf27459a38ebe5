//! Series legends, drawn by the lab instead of plotters'
//! `configure_series_labels`.
//!
//! Why: plotters lays out its legend with `MultiLineText`, which measures
//! each label with the font's own estimate; built for wasm, that estimate adds
//! a `<span>` to the page and reads its `offsetHeight`, a forced layout of the
//! whole lesson page per label, which made most of a widget's redraw time.
//! This legend measures through the drawing backend (`estimate_text_size`),
//! which the browser's backend answers with the canvas's `measureText` and
//! the SVG backend of the native tests with its own estimate.
//!
//! A legend is a key **above** the plot ([`Legend::above`]), in rows that
//! wrap at the chart's width: inside the plot it covered data (the
//! breaker's first seconds, exercise 7 (b)'s; the degradation's plateau on a
//! phone), wherever its corner was.

use super::palette;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// What stands for a series next to its label.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Swatch {
    /// A line of this colour and width.
    Line(RGBColor, u32),
    /// A filled box (columns, areas).
    Box(RGBColor),
}

/// The series of a chart, in the order they are listed.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Legend {
    entries: Vec<(String, Swatch)>,
}

impl Legend {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn add(&mut self, label: impl Into<String>, swatch: Swatch) {
        self.entries.push((label.into(), swatch));
    }

    /// Draws the legend across the top of `area`, its entries side by side in
    /// rows that wrap at the area's width, and returns the area under it,
    /// where the chart goes (the whole area for an empty legend).
    pub fn above<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        font: u32,
    ) -> Result<DrawingArea<DB, Shift>, DrawingAreaErrorKind<DB::ErrorType>> {
        if self.entries.is_empty() {
            return Ok(area.clone());
        }
        let style = super::font(font, &palette::TEXT);
        let (w, _) = area.dim_in_pixel();
        let (side, swatch, gap, apart) = (10, 14, 6, 18);
        let line = font as i32 + 6;
        // Each entry's place: (x, row).
        let mut places = Vec::with_capacity(self.entries.len());
        let (mut x, mut row) = (side, 0);
        for (label, _) in &self.entries {
            let width = swatch + gap + area.estimate_text_size(label, &style)?.0 as i32;
            if x > side && x + width > w as i32 - side {
                (x, row) = (side, row + 1);
            }
            places.push((x, row));
            x += width + apart;
        }
        let height = 8 + line * (row + 1);
        let (key, rest) = area.split_vertically(height as u32);
        let text = style.pos(Pos::new(HPos::Left, VPos::Center));
        for ((label, s), (x, row)) in self.entries.iter().zip(places) {
            let y = 6 + line * row + line / 2;
            match *s {
                Swatch::Box(c) => key.draw(&Rectangle::new([(x, y - 5), (x + swatch, y + 5)], c.filled()))?,
                Swatch::Line(c, width) => {
                    key.draw(&PathElement::new([(x, y), (x + swatch, y)], c.stroke_width(width)))?
                }
            }
            key.draw(&Text::new(label.clone(), (x + swatch + gap, y), text.clone()))?;
        }
        Ok(rest)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_every_label_inside_the_area() {
        let mut out = String::new();
        {
            let root = SVGBackend::with_string(&mut out, (400, 200)).into_drawing_area();
            let mut l = Legend::new();
            l.add("sin jitter (pico 1,000)", Swatch::Box(palette::CONTRAST));
            l.add("capacidad: 50 por ventana", Swatch::Line(palette::LIMIT, 2));
            let rest = l.above(&root, 13).unwrap();
            // The chart goes under the key, which takes one row here.
            let (w, h) = rest.dim_in_pixel();
            assert_eq!(w, 400);
            assert_eq!(h, 200 - (8 + 19));
            root.present().unwrap();
        }
        assert!(out.contains("sin jitter (pico 1,000)"));
        assert!(out.contains("capacidad: 50 por ventana"));
    }

    #[test]
    fn wraps_into_rows_on_a_narrow_chart() {
        let mut l = Legend::new();
        for label in ["fila sin tope", "con load shedding", "capacidad: 75 /s"] {
            l.add(label, Swatch::Line(palette::PRIMARY, 3));
        }
        let key = |width: u32| {
            let mut out = String::new();
            let root = SVGBackend::with_string(&mut out, (width, 300)).into_drawing_area();
            let h = l.above(&root, 12).unwrap().dim_in_pixel().1;
            300 - h
        };
        // Wide: one row; narrow: three rows.
        assert_eq!(key(700), 8 + 18);
        assert_eq!(key(200), 8 + 3 * 18);
    }
}
