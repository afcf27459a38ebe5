//! The herd's clients as marks, at one moment of the run: each client a
//! dot on its way to the server (its wait since the last rejection, from
//! left to right), or in the pile it ended in: served, or gave up. Past
//! 1,000 clients one dot stands for several, and the picture says how many.

use super::palette;
use crate::fmt::es_int;
use crate::sim::herd::trace::{MarkState, Marks};
use plotters::coord::Shift;
use plotters::prelude::*;

/// Everything the stage draws.
#[derive(Clone, Debug, PartialEq)]
pub struct Stage {
    /// Which run the marks are (the chosen jitter's label).
    pub run: String,
    pub marks: Marks,
    /// Served, gave up, waiting (the moment's figures, counted in clients).
    pub served: u32,
    pub gave_up: u32,
    pub waiting: u32,
}

/// The colour of a mark of the run `run`: a waiting client in its run's
/// colour, the one its columns have in the chart above
/// ([`super::herd::series_color`]: «sin jitter» orange on both), lighter
/// before its first rejection; the piles green (served) and red (gave up).
pub fn color(state: MarkState, run: &str) -> RGBAColor {
    let series = super::herd::series_color(run);
    match state {
        MarkState::First => series.mix(0.5),
        MarkState::Retrying => series.mix(1.0),
        MarkState::Served => palette::OK.mix(1.0),
        MarkState::GaveUp => palette::ZOMBIE.mix(1.0),
    }
}

/// Spreads clients over `rows` rows, neighbours apart (a fixed permutation).
fn row_of(client: u32, rows: u32) -> u32 {
    ((client as u64 * 7_919) % rows.max(1) as u64) as u32
}

pub fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    s: &Stage,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let (w, h) = root.dim_in_pixel();
    let (w, h) = (w as i32, h as i32);
    let small = w < 520;
    let font = if small { 12 } else { 14 };
    let text = |size: i32| super::font(size, &palette::TEXT);
    let line = font + 6;
    // Lanes on the left, the server, two piles on the right.
    let top = line + 4;
    let bottom = h - 6;
    let server_x = w * 62 / 100;
    let pile_x = server_x + 12;
    let pile_w = (w - pile_x - 6).max(10);
    let pile_h = ((bottom - top) / 2 - line).max(10);
    let shown = s.marks.marks.len().max(1) as f64;
    // Square cells that hold every mark in one pile, at most 6 px.
    let cell = ((pile_w as f64 * pile_h as f64 / shown).sqrt().floor() as i32).clamp(2, 6);
    let per_row = (pile_w / cell).max(1) as u32;
    let dot = (cell - 1).max(1);
    let lane_x0 = 6;
    // Waiting clients at least 3 px, seen on any screen (the piles' cells may be smaller).
    let lane_dot = dot.max(3);
    let lanes_bottom = if s.marks.stride > 1 { bottom - line } else { bottom };
    let lanes = ((lanes_bottom - top) / 3).max(1) as u32;
    // Headings: the run's name after a swatch of its colour, as in the chart's key.
    let swatch = font - 4;
    root.draw(&Rectangle::new(
        [(lane_x0, 4), (lane_x0 + swatch, 4 + swatch)],
        super::herd::series_color(&s.run).filled(),
    ))?;
    root.draw(&Text::new(
        format!("{}: {} esperando", s.run, es_int(s.waiting as i64)),
        (lane_x0 + swatch + 4, 2),
        text(font),
    ))?;
    if s.marks.stride > 1 {
        root.draw(&Text::new(
            format!("cada punto: {} clientes", es_int(s.marks.stride as i64)),
            (lane_x0, bottom - line + 4),
            text(font),
        ))?;
    }
    root.draw(&Text::new(
        format!("atendidos: {}", es_int(s.served as i64)),
        (pile_x, 2),
        text(font),
    ))?;
    let gave_up_y = top + pile_h + line;
    root.draw(&Text::new(
        format!("se rinden: {}", es_int(s.gave_up as i64)),
        (pile_x, gave_up_y - line + 2),
        text(font),
    ))?;
    // The server: a wall the attempts reach.
    root.draw(&Rectangle::new(
        [(server_x - 2, top), (server_x + 1, bottom)],
        palette::LIMIT.filled(),
    ))?;
    let dots = s.marks.marks.iter().map(|m| {
        let (x, y) = match m.state {
            MarkState::First | MarkState::Retrying => {
                let span = (server_x - 4 - lane_x0 - lane_dot) as f32;
                let (x, y) = (
                    lane_x0 + (m.progress * span) as i32,
                    top + (row_of(m.client, lanes) as i32 * (lanes_bottom - top - lane_dot)) / lanes as i32,
                );
                return Rectangle::new([(x, y), (x + lane_dot, y + lane_dot)], color(m.state, &s.run).filled());
            }
            MarkState::Served | MarkState::GaveUp => {
                let y0 = if m.state == MarkState::Served { top } else { gave_up_y };
                let (col, row) = (m.turn % per_row, m.turn / per_row);
                (pile_x + col as i32 * cell, (y0 + row as i32 * cell).min(bottom - dot))
            }
        };
        Rectangle::new([(x, y), (x + dot, y + dot)], color(m.state, &s.run).filled())
    });
    for d in dots {
        root.draw(&d)?;
    }
    root.present()?;
    Ok(())
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use crate::chart::Plot;
    use crate::sim::herd::trace::HerdTrace;
    use crate::sim::herd::HerdParams;
    use crate::sim::playback::Playback;

    #[test]
    fn every_client_is_a_dot_and_the_piles_are_named() {
        let tr = HerdTrace::record(&HerdParams::default());
        let t = 700.0;
        let m = tr.at(t);
        let stage = Stage {
            run: "con jitter".into(),
            marks: tr.marks(t),
            served: m.served,
            gave_up: m.gave_up,
            waiting: m.waiting,
        };
        let svg = super::super::Chart::Stage(stage).svg(349, 220, "pre");
        assert!(
            svg.contains(&format!("atendidos: {}", es_int(m.served as i64))),
            "{svg}"
        );
        assert!(svg.contains("se rinden: 0"));
        assert!(svg.contains(&format!("con jitter: {} esperando", es_int(m.waiting as i64))));
        // 1,000 dots (one rectangle each), the wall and the card behind.
        assert!(svg.matches("<rect").count() >= 1000, "{}", svg.matches("<rect").count());
        let end = tr.at(tr.end_ms());
        assert_eq!(end.served, 1000);
    }

    /// The stage of «sin jitter» is in its colour in the chart above, orange,
    /// whether or not another jitter is beside it (issue 42).
    #[test]
    fn a_run_keeps_its_colour_on_the_stage() {
        let p = HerdParams {
            jitter: crate::sim::policy::backoff::Jitter::None,
            ..HerdParams::default()
        };
        let tr = HerdTrace::record(&p);
        let t = 300.0;
        let m = tr.at(t);
        assert!(m.waiting > 0);
        let svg = super::super::Chart::Stage(Stage {
            run: "sin jitter".into(),
            marks: tr.marks(t),
            served: m.served,
            gave_up: m.gave_up,
            waiting: m.waiting,
        })
        .svg(349, 220, "pre")
        .to_lowercase();
        assert!(svg.contains("#d95f02"), "sin jitter's clients are orange");
        assert!(!svg.contains("#1f6fb2"), "and none of them blue");
    }
}
