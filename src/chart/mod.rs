//! Charts, drawn on any plotters [`DrawingBackend`]: a canvas in the
//! browser (`ui::canvas::canvas_backend`), an SVG string in native tests. One module
//! per chart; each takes plain data prepared by the core's results, so the
//! same picture can be checked without a browser.
//!
//! [`DrawingBackend`]: plotters::prelude::DrawingBackend

pub mod chain;
pub mod clocks;
pub mod css;
pub mod data;
pub mod frame;
pub mod hedging;
pub mod herd;
pub mod inflight;
pub mod legend;
pub mod log_axis;
pub mod shedding;
pub mod simple;
pub mod stage;
pub mod storm;
#[cfg(not(target_arch = "wasm32"))]
pub mod svg;
pub mod timeline;

use plotters::coord::Shift;
use plotters::prelude::{DrawingArea, DrawingAreaErrorKind, DrawingBackend};

/// Any chart of the lab, so that one canvas component can draw them all.
#[derive(Clone, Debug, PartialEq)]
pub enum Chart {
    Herd(herd::HerdChart),
    Timeline(timeline::Timeline),
    Inflight(inflight::InflightChart),
    Hedging(hedging::HedgingChart),
    Shedding(shedding::SheddingChart),
    Bars(simple::Bars),
    Lines(simple::Lines),
    Storm(storm::StormChart),
    /// The herd's clients as marks, while it plays.
    Stage(stage::Stage),
}

/// One kind of chart: drawn on any backend, its data as a table. A canvas
/// draws one kind ([`Plot`] is what it is generic over), so a widget's code
/// holds the drawing of its own charts and no other's; [`Chart`] is any of
/// them, for what lists every chart (the tests, the prerendered pictures).
pub trait Plot: PartialEq + 'static {
    /// Draws the chart over the whole of `root`, painted white first: the
    /// browser reuses its canvas from one drawing to the next without
    /// clearing it.
    fn draw<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
    ) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
        root.fill(&plotters::style::WHITE)?;
        self.plot(root)
    }

    /// Draws the chart itself ([`Plot::draw`] paints the area first).
    fn plot<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
    ) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>>;

    /// The chart's data, as a table.
    fn data(&self) -> data::DataTable;

    /// The chart as an SVG element `width` CSS px wide whose `data-h` is
    /// `height` (see [`boxes`]), drawn by the same code as the canvas.
    #[cfg(not(target_arch = "wasm32"))]
    fn svg(&self, width: u32, height: u32, class: &str) -> String {
        use plotters::prelude::IntoDrawingArea;
        let mut out = String::new();
        {
            let root =
                svg::Svg::with_string(&mut out, (width, boxes::height(width, height)), class).into_drawing_area();
            // An SVG string refuses nothing; a chart's own error leaves what was drawn.
            let _ = self.draw(&root);
        }
        out
    }
}

macro_rules! plots {
    ($($variant:ident($ty:ty) => $draw:path, $data:path;)*) => {
        $(
            impl Plot for $ty {
                fn plot<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
                    $draw(root, self)
                }
                fn data(&self) -> data::DataTable {
                    $data(self)
                }
            }
        )*
        impl Plot for Chart {
            fn plot<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
                match self {
                    $( Chart::$variant(c) => c.plot(root), )*
                }
            }
            fn data(&self) -> data::DataTable {
                match self {
                    $( Chart::$variant(c) => c.data(), )*
                }
            }
        }
    };
}

plots! {
    Herd(herd::HerdChart) => herd::draw, data::data_herd;
    Timeline(timeline::Timeline) => timeline::draw, data::data_timeline;
    Inflight(inflight::InflightChart) => inflight::draw, data::data_inflight;
    Hedging(hedging::HedgingChart) => hedging::draw, data::data_hedging;
    Shedding(shedding::SheddingChart) => shedding::draw, data::data_shedding;
    Bars(simple::Bars) => simple::draw_bars, data::data_bars;
    Lines(simple::Lines) => simple::draw_lines, data::data_lines;
    Storm(storm::StormChart) => storm::draw, data::data_storm;
    Stage(stage::Stage) => stage::draw, data::data_stage;
}

/// The two boxes a chart is prerendered for: the canvas's box is the
/// widget's width by the style sheet's height (`.chart[data-h]`), ¾ of it
/// where the chart is narrower than 520 px. A prerendered chart is drawn at
/// a typical width of each ([`Chart::svg`]); the page shows the one that
/// fits (a container query, as for the canvas) scaled to the box, which the
/// canvas then fills at its exact width.
pub mod boxes {
    /// A phone's chart: a 390 px screen's (iPhone 12 to 16; at 360 px, the
    /// picture is 8 % smaller, at 414 px it has a margin).
    pub const NARROW: u32 = 349;
    /// A laptop's or a desktop's: a widget's chart in the lesson at 1,280 px
    /// and wider (the page's column stops growing there). A wider box, a
    /// widget alone on its page, shows it at this size with a margin.
    pub const WIDE: u32 = 561;
    /// The height of a chart `width` px wide whose `data-h` is `height`.
    pub fn height(width: u32, height: u32) -> u32 {
        if width < 520 {
            height * 3 / 4
        } else {
            height
        }
    }
}

use plotters::style::{FontDesc, FontFamily, FontStyle, RGBColor, TextStyle};

/// The charts' text: sans-serif at `size` px in `color`. Built from the
/// family itself rather than from the string `"sans-serif"`: plotters
/// lower-cases a family given by name, and that one call brought Unicode's
/// case tables into the browser's download (11,687 bytes gzipped:
/// docs/PERFORMANCE.md, «First load»).
pub fn font<'a>(size: impl Into<f64>, color: &'a RGBColor) -> TextStyle<'a> {
    TextStyle::from(FontDesc::new(FontFamily::SansSerif, size.into(), FontStyle::Normal)).color(color)
}

/// The lab's palette (matches `static/style.css`).
pub mod palette {
    use super::RGBColor;
    /// The chosen policy (e.g. with jitter).
    pub const PRIMARY: RGBColor = RGBColor(0x1f, 0x6f, 0xb2);
    /// The reference it is compared with (e.g. sin jitter).
    pub const CONTRAST: RGBColor = RGBColor(0xd9, 0x5f, 0x02);
    /// Limits: capacity, deadlines.
    pub const LIMIT: RGBColor = RGBColor(0x2b, 0x2b, 0x2b);
    pub const GRID: RGBColor = RGBColor(0xe3, 0xe6, 0xea);
    pub const TEXT: RGBColor = RGBColor(0x33, 0x3a, 0x44);
    /// What went well: an answer in time.
    pub const OK: RGBColor = RGBColor(0x1b, 0x7f, 0x4b);
    /// Work for nobody.
    pub const ZOMBIE: RGBColor = RGBColor(0xb4, 0x23, 0x18);
    /// The moment a player shows.
    pub const PLAYHEAD: RGBColor = RGBColor(0x7a, 0x3e, 0x9d);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::{chain as chain_sim, clocks as clocks_sim, inflight as inflight_sim};
    use plotters::prelude::{IntoDrawingArea, SVGBackend};

    fn svg(chart: &Chart, size: (u32, u32)) -> String {
        let mut out = String::new();
        {
            let root = SVGBackend::with_string(&mut out, size).into_drawing_area();
            chart.draw(&root).unwrap();
        }
        out
    }

    #[test]
    fn the_clocks_timeline() {
        let p = clocks_sim::ClocksParams::default();
        let r = clocks_sim::run(&p);
        let t = clocks::timeline(&p, &r);
        assert_eq!(t.lanes[1].ticks, [9_001.0, 18_001.0, 27_001.0]);
        assert!(t.moments.iter().any(|m| m.label == "total" && m.strong));
        let s = svg(&Chart::Timeline(t), (800, 220));
        assert!(s.contains("tiempo (s)") && s.contains("respuesta"));
        // Without an end, the picture says so.
        let p = clocks_sim::ClocksParams {
            total_timeout_ms: None,
            ..p
        };
        let t = clocks::timeline(&p, &clocks_sim::run(&p));
        assert!(t.open_ended);
        assert!(svg(&Chart::Timeline(t), (390, 200)).contains("sin fin"));
    }

    #[test]
    fn the_chain_timeline_shows_the_zombie() {
        let p = chain_sim::ChainParams {
            triton_cap_ms: 5_000,
            deadline: crate::sim::params::Toggle::Off,
            cancel: crate::sim::params::Toggle::Off,
            compute_ms: 2_000,
            ..Default::default()
        };
        let r = chain_sim::run(&p);
        let t = chain::timeline(&p, &r);
        let zombie: Vec<_> = t.lanes[2].spans.iter().filter(|s| s.striped).collect();
        assert_eq!(zombie.len(), 1);
        assert_eq!((zombie[0].from, zombie[0].to), (300.0, 2_090.0));
        let s = svg(&Chart::Timeline(t), (800, 250));
        assert!(s.contains("zombi") && s.contains("deadline 250"));
        let cancelled = chain_sim::ChainParams {
            cancel: crate::sim::params::Toggle::On,
            ..p
        };
        let t = chain::timeline(&cancelled, &chain_sim::run(&cancelled));
        assert!(t.lanes[2].spans.iter().all(|s| !s.striped));
    }

    #[test]
    fn the_hedging_chart() {
        use crate::sim::hedging as h;
        let r = h::simulate(&h::HedgingParams {
            reads: 20_000,
            ..Default::default()
        });
        let c = hedging::HedgingChart {
            without: r.ccdf_without,
            with: Some(r.ccdf_with),
            hedge_at_ms: r.hedge_at_ms,
            floor: 1.0 / 20_000.0,
        };
        let s = svg(&Chart::Hedging(c), (800, 300));
        assert!(s.contains("con hedging") && s.contains("p99"));
    }

    #[test]
    fn the_shedding_chart() {
        use crate::sim::shedding as s;
        let r = s::simulate(&s::SheddingParams::default());
        let c = shedding::SheddingChart::new(&r, 300);
        assert_eq!(c.unbounded.len(), 20);
        let svg = svg(&Chart::Shedding(c), (800, 360));
        assert!(svg.contains("con load shedding") && svg.contains("deadline 300 ms"));
    }

    #[test]
    fn the_storm_chart() {
        use crate::sim::storm as s;
        let p = s::StormParams::default();
        let c = storm::StormChart::new(&s::simulate(&p), p.capacity, false);
        assert_eq!(c.triggers, vec![(5.0, 8.0)]);
        assert_eq!(c.recovered_at, None);
        let svg = svg(&Chart::Storm(c), (800, 320));
        assert!(svg.contains("↑ hasta"), "the storm is cut at the top");
        assert!(storm::legend(&c_legend()).iter().any(|l| l.0 == "capacidad: 75 /s"));
        let calm = s::StormParams {
            breaker: crate::sim::params::Toggle::On,
            ..p
        };
        let c = storm::StormChart::new(&s::simulate(&calm), calm.capacity, true);
        assert!(c.recovered_at.is_some());
        assert!(storm::legend(&c).iter().any(|l| l.0 == "plan B del breaker"));
        assert!(svg_contains(&Chart::Storm(c), "tiempo (s)"));
    }

    #[test]
    fn faint_lines_above_the_range_are_marked_or_taken_in() {
        // Issue 42: a pinned storm beside a calm run (the breaker on) ran flat
        // along the top edge, unmarked. The default storm's attempts pass four
        // times its capacity (the calm run's top): the pinned run is cut
        // there, with its peak written, as the live line's is.
        use crate::sim::storm as s;
        let p = s::StormParams::default();
        let stormy = storm::StormChart::new(&s::simulate(&p), p.capacity, false);
        let peak = stormy.offered.iter().map(|q| q.1).fold(0.0, f64::max);
        assert!(peak > 4.0 * p.capacity as f64, "{peak}");
        let calm_p = s::StormParams {
            breaker: crate::sim::params::Toggle::On,
            ..p
        };
        let mut calm = storm::StormChart::new(&s::simulate(&calm_p), calm_p.capacity, true);
        assert!(calm.offered.iter().all(|q| q.1 <= 4.0 * p.capacity as f64));
        let bare = svg(&Chart::Storm(calm.clone()), (800, 320));
        assert!(!bare.contains("↑ hasta"), "the calm run is in its range");
        calm.ghost = Some(storm::StormGhost::of(&stormy, 0.0, "corrida fijada"));
        let mark = format!(
            "↑ hasta {} /s (corrida fijada)",
            crate::fmt::es_int(peak.round() as i64)
        );
        for size in [(800, 320), (390, 280)] {
            let pinned = svg(&Chart::Storm(calm.clone()), size);
            assert!(pinned.contains(&mark), "{size:?}: {mark}");
            assert_eq!(pinned.matches("↑ hasta").count(), 1, "only the faint run is above");
        }
        // Both above: both marked.
        let mut both = stormy.clone();
        both.ghost = Some(storm::StormGhost::of(&stormy, 10.0, "sin el cambio"));
        let later = both
            .ghost
            .as_ref()
            .unwrap()
            .offered
            .iter()
            .map(|q| q.1)
            .fold(0.0, f64::max);
        let twice = svg(&Chart::Storm(both), (800, 320));
        assert!(twice.contains(&format!(
            "↑ hasta {} /s (sin el cambio)",
            crate::fmt::es_int(later.round() as i64)
        )));
        assert_eq!(twice.matches("↑ hasta").count(), 2);
        // A faint run above the live lines but within four times: the axis takes it in, no mark.
        let mut higher = calm.clone();
        let ghost = higher.ghost.as_mut().unwrap();
        let top_live = calm
            .fresh
            .iter()
            .chain(&calm.offered)
            .map(|q| q.1)
            .fold(calm.capacity, f64::max);
        for q in ghost.offered.iter_mut() {
            q.1 = q.1.min(top_live * 2.0);
        }
        assert!(!svg(&Chart::Storm(higher), (800, 320)).contains("↑ hasta"));

        // The breaker's chart (simple lines): the same.
        let line = |k: f64| vec![(0.0, 1.0 * k), (1.0, 3.0 * k), (2.0, 2.0 * k)];
        let lines = |ghost_k: f64| {
            Chart::Lines(simple::Lines {
                x_desc: "tiempo (s)".into(),
                y_desc: "por segundo".into(),
                series: vec![("llegan a Triton".into(), palette::PRIMARY, line(1.0))],
                x_percent: false,
                y_percent: false,
                marker: None,
                threshold: None,
                playhead: None,
                ghost: Some((
                    "sin el cambio".into(),
                    vec![("llegan a Triton".into(), palette::PRIMARY, line(ghost_k))],
                )),
            })
        };
        // 3 × 500 = 1,500 against a top of 3: cut, and written in the axis's own figures.
        let far = svg(&lines(500.0), (800, 320));
        assert!(far.contains("↑ hasta 1,500 (sin el cambio)"), "{far}");
        assert!(svg(&lines(500.0), (390, 280)).contains("↑ hasta 1,500 (sin el cambio)"));
        // 3 × 3 = 9, within four times 3: taken in.
        assert!(!svg(&lines(3.0), (800, 320)).contains("↑ hasta"));
    }

    fn c_legend() -> storm::StormChart {
        let p = crate::sim::storm::StormParams::default();
        storm::StormChart::new(&crate::sim::storm::simulate(&p), p.capacity, false)
    }

    fn svg_contains(chart: &Chart, text: &str) -> bool {
        svg(chart, (390, 280)).contains(text)
    }

    #[test]
    fn the_inflight_chart() {
        let p = inflight_sim::InflightParams::default();
        let c = inflight::InflightChart::new(&inflight_sim::simulate(&p), &inflight_sim::formula(&p), p.max_inflight);
        assert_eq!(c.curve.iter().map(|x| x.1).max(), Some(16));
        let s = svg(&Chart::Inflight(c), (800, 300));
        assert!(s.contains("harían falta (Little): 19") && s.contains("MAX_INFLIGHT: 16"));
    }
}
