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

/// Which upper corner of the plotting area the legend sits in.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Corner {
    UpperLeft,
    UpperRight,
}

impl Legend {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn add(&mut self, label: impl Into<String>, swatch: Swatch) {
        self.entries.push((label.into(), swatch));
    }

    pub fn labels(&self) -> impl Iterator<Item = &str> {
        self.entries.iter().map(|(l, _)| l.as_str())
    }

    /// Draws the legend in a corner of `area` (the chart's plotting area).
    pub fn draw<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        font: u32,
        corner: Corner,
    ) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
        if self.entries.is_empty() {
            return Ok(());
        }
        let style = super::font(font, &palette::TEXT);
        let mut widest = 0;
        for (label, _) in &self.entries {
            widest = widest.max(area.estimate_text_size(label, &style)?.0 as i32);
        }
        let (pad, swatch, gap) = (6, 14, 6);
        let line = font as i32 + 6;
        let (w, _) = area.dim_in_pixel();
        let box_w = pad + swatch + gap + widest + pad;
        let box_h = 2 * pad + line * self.entries.len() as i32;
        let x0 = match corner {
            Corner::UpperRight => (w as i32 - box_w - 8).max(0),
            Corner::UpperLeft => 8,
        };
        let y0 = 8;
        area.draw(&Rectangle::new(
            [(x0, y0), (x0 + box_w, y0 + box_h)],
            WHITE.mix(0.9).filled(),
        ))?;
        area.draw(&Rectangle::new([(x0, y0), (x0 + box_w, y0 + box_h)], palette::GRID))?;
        let text = style.pos(Pos::new(HPos::Left, VPos::Center));
        for (i, (label, s)) in self.entries.iter().enumerate() {
            let x = x0 + pad;
            let y = y0 + pad + line * i as i32 + line / 2;
            match *s {
                Swatch::Box(c) => area.draw(&Rectangle::new([(x, y - 5), (x + swatch, y + 5)], c.filled()))?,
                Swatch::Line(c, width) => {
                    area.draw(&PathElement::new([(x, y), (x + swatch, y)], c.stroke_width(width)))?
                }
            }
            area.draw(&Text::new(label.clone(), (x + swatch + gap, y), text.clone()))?;
        }
        Ok(())
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
            l.draw(&root, 13, Corner::UpperRight).unwrap();
            root.present().unwrap();
        }
        assert!(out.contains("sin jitter (pico 1,000)"));
        assert!(out.contains("capacidad: 50 por ventana"));
    }
}
