//! A logarithmic vertical axis drawn on plain linear coordinates.
//!
//! Why not plotters' `.log_scale()`: its logarithmic coordinate is a second
//! coordinate type, and every generic of plotters' charting (mesh, series,
//! labels) is compiled once more for it: 4,047 bytes gzipped of the
//! browser's download (docs/PERFORMANCE.md, «First load»), for three charts. Here a chart plots `log10(value)` on an
//! ordinary `f64` axis, and the mesh puts its grid lines and labels at the
//! round values [`LogAxis::labelled`] gives.
//!
//! ```
//! use sensei_lab::chart::log_axis::LogAxis;
//! let axis = LogAxis::new(0.7, 4_000.0);
//! assert_eq!(axis.ticks(), vec![1.0, 10.0, 100.0, 1_000.0]);
//! assert_eq!(axis.y(100.0), 2.0);
//! assert_eq!(axis.y(0.0), axis.range().start); // below the axis: at its foot
//! assert_eq!(axis.labelled(&|v| v.to_string())[1], (1.0, "10".to_string()));
//! ```

use std::ops::Range;

/// The values `lo..hi` (both positive) on a logarithmic axis.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LogAxis {
    lo: f64,
    hi: f64,
}

impl LogAxis {
    /// An axis from `lo` to `hi`; both are made positive and `hi` above `lo`.
    pub fn new(lo: f64, hi: f64) -> Self {
        let lo = if lo > 0.0 { lo } else { 1e-12 };
        LogAxis {
            lo,
            hi: if hi > lo { hi } else { lo * 10.0 },
        }
    }

    /// The linear range the chart is built on.
    pub fn range(&self) -> Range<f64> {
        self.lo.log10()..self.hi.log10()
    }

    /// Where `v` goes on the chart's linear axis (values below the axis at its foot).
    pub fn y(&self, v: f64) -> f64 {
        v.max(self.lo).log10()
    }

    /// The labelled values: every power of ten on the axis and, when there are
    /// fewer than three, also 2 and 5 times each.
    pub fn ticks(&self) -> Vec<f64> {
        let (a, b) = (self.lo.log10().ceil() as i32, self.hi.log10().floor() as i32);
        let mut out = Vec::new();
        let steps: &[f64] = if b - a >= 2 { &[1.0] } else { &[1.0, 2.0, 5.0] };
        for e in (a - 1)..=b {
            for m in steps {
                // 10^|e| is exact up to 10^22, so 1e-5 is the literal 1e-5.
                let v = if e < 0 { m / 10f64.powi(-e) } else { m * 10f64.powi(e) };
                if v >= self.lo * (1.0 - 1e-9) && v <= self.hi * (1.0 + 1e-9) {
                    out.push(v);
                }
            }
        }
        out
    }

    /// The ticks as a [`Mesh`](super::frame::Mesh) takes them: each tick's
    /// place on the chart's linear axis, and `label` of its value.
    pub fn labelled(&self, label: &dyn Fn(f64) -> String) -> Vec<(f64, String)> {
        self.ticks().into_iter().map(|v| (self.y(v), label(v))).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use plotters::prelude::*;

    #[test]
    fn ticks_are_round_values_inside_the_axis() {
        assert_eq!(LogAxis::new(1e-5, 1.2).ticks(), vec![1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 1.0]);
        assert_eq!(LogAxis::new(1.0, 40.0).ticks(), vec![1.0, 2.0, 5.0, 10.0, 20.0]);
        assert_eq!(LogAxis::new(0.7, 10.0).ticks(), vec![1.0, 2.0, 5.0, 10.0]);
        // Degenerate input still gives an axis.
        let a = LogAxis::new(0.0, -3.0);
        assert!(a.range().start < a.range().end);
    }

    #[test]
    fn draws_labels_beside_the_axis() {
        let mut svg = String::new();
        {
            let root = SVGBackend::with_string(&mut svg, (300, 200)).into_drawing_area();
            let axis = LogAxis::new(0.7, 4_000.0);
            let c = super::super::frame::Frame::on(&root)
                .y_label_area_size(50)
                .build(0f64..1.0, axis.range());
            let labels = axis.labelled(&|v| crate::fmt::es_int(v as i64));
            c.mesh(12).x_labels(0).y_ticks(labels).draw().unwrap();
        }
        for label in ["1", "10", "100", "1,000"] {
            assert!(svg.contains(&format!("\n{label}\n</text>")), "{label}");
        }
        // Right-aligned against the axis, one per tick.
        assert_eq!(svg.matches(r#"text-anchor="end""#).count(), 4);
    }
}
