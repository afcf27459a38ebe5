//! Every chart's data as a table: the text alternative a screen reader (or
//! anyone) can open under the canvas, with the same numbers the chart draws.
//! Long series are thinned to at most [`MAX_ROWS`] rows, evenly, keeping the
//! first and the last, and the caption says so.

use crate::fmt::{es_dec, es_int, es_percent};

/// The most rows a table shows.
pub const MAX_ROWS: usize = 120;

#[derive(Clone, Debug, PartialEq)]
pub struct DataTable {
    pub caption: String,
    pub head: Vec<String>,
    pub rows: Vec<Vec<String>>,
}

fn thin<T: Clone>(v: &[T]) -> (Vec<T>, bool) {
    if v.len() <= MAX_ROWS {
        return (v.to_vec(), false);
    }
    let step = (v.len() - 1) as f64 / (MAX_ROWS - 1) as f64;
    let out = (0..MAX_ROWS)
        .map(|i| v[((i as f64 * step).round() as usize).min(v.len() - 1)].clone())
        .collect();
    (out, true)
}

fn num(v: f64) -> String {
    if (v - v.round()).abs() < 1e-9 {
        es_int(v.round() as i64)
    } else if v.abs() >= 10.0 {
        es_dec(v, 1)
    } else {
        es_dec(v, 3)
    }
}

/// Rows of series that share their x values: x and `first`'s y, then each
/// of `rest`'s y at the same index (empty where a series is shorter).
/// A share as a percentage, as the charts' axes write it, with the decimals a
/// small one needs to stay distinct from zero (two significant digits):
/// «20 %», «1.2 %», «0.012 %».
fn share(v: f64) -> String {
    let decimals = if v > 0.0 {
        (-(v * 100.0).log10()).ceil().clamp(0.0, 6.0) as usize + 1
    } else {
        0
    };
    es_percent(v, decimals)
}

/// How a table writes one value.
type Cell = fn(f64) -> String;

fn aligned(first: &[(f64, f64)], rest: &[&[(f64, f64)]], y: Cell) -> Vec<Vec<String>> {
    first
        .iter()
        .enumerate()
        .map(|(i, (x, v))| {
            let mut r = vec![num(*x), y(*v)];
            r.extend(rest.iter().map(|s| s.get(i).map(|p| y(p.1)).unwrap_or_default()));
            r
        })
        .collect()
}

fn table(caption: &str, head: Vec<String>, rows: Vec<Vec<String>>) -> DataTable {
    let (rows, thinned) = thin(&rows);
    let caption = if thinned {
        format!("{caption} (una fila de cada varias, de la primera a la última)")
    } else {
        caption.to_string()
    };
    DataTable { caption, head, rows }
}

/// The data of a Herd chart, as a table.
pub(super) fn data_herd(c: &super::herd::HerdChart) -> DataTable {
    {
        let mut starts: Vec<f64> = c.series.iter().flat_map(|s| s.columns.iter().map(|x| x.0)).collect();
        starts.sort_unstable_by(f64::total_cmp);
        starts.dedup();
        let head = std::iter::once("desde (ms)".to_string())
            .chain(c.series.iter().map(|s| s.label.clone()))
            .collect();
        let rows = starts
            .iter()
            .map(|x0| {
                std::iter::once(num(*x0))
                    .chain(c.series.iter().map(|s| {
                        let n: u32 = s.columns.iter().filter(|x| x.0 == *x0).map(|x| x.2).sum();
                        es_int(n as i64)
                    }))
                    .collect()
            })
            .collect();
        table(
            &format!(
                "Intentos que llegan por ventana de {} ms; capacidad: {} por ventana",
                es_int(c.window_ms as i64),
                es_int(c.capacity as i64)
            ),
            head,
            rows,
        )
    }
}

/// The data of a Stage chart, as a table.
pub(super) fn data_stage(s: &super::stage::Stage) -> DataTable {
    table(
        &if s.marks.stride > 1 {
            format!(
                "Clientes en este momento (en el dibujo, cada punto son {})",
                es_int(s.marks.stride as i64)
            )
        } else {
            "Clientes en este momento".to_string()
        },
        vec!["dónde están".into(), "clientes".into()],
        [
            ("esperando su intento", s.waiting),
            ("atendidos", s.served),
            ("se rinden", s.gave_up),
        ]
        .iter()
        .map(|(k, v)| vec![k.to_string(), es_int(*v as i64)])
        .collect(),
    )
}

/// The data of a Timeline chart, as a table.
pub(super) fn data_timeline(t: &super::timeline::Timeline) -> DataTable {
    {
        let unit = if t.seconds { "s" } else { "ms" };
        let mut rows: Vec<Vec<String>> = t
            .lanes
            .iter()
            .flat_map(|l| {
                l.spans.iter().map(move |s| {
                    vec![
                        l.label.clone(),
                        num(s.from),
                        num(s.to),
                        s.label.clone().unwrap_or_default(),
                    ]
                })
            })
            .collect();
        rows.extend(
            t.moments
                .iter()
                .map(|m| vec!["momento".to_string(), num(m.at), num(m.at), m.label.clone()]),
        );
        table(
            "Tramos de cada carril en el tiempo",
            vec![
                "carril".into(),
                format!("desde ({unit})"),
                format!("hasta ({unit})"),
                "qué".into(),
            ],
            rows,
        )
    }
}

/// The data of a Inflight chart, as a table.
pub(super) fn data_inflight(c: &super::inflight::InflightChart) -> DataTable {
    table(
        &format!("Requests en vuelo en un pod; harían falta {}", es_dec(c.demand, 1)),
        vec!["tiempo (s)".into(), "en vuelo".into()],
        c.shown()
            .iter()
            .map(|(t, n)| vec![num(*t), es_int(*n as i64)])
            .collect(),
    )
}

/// The data of a Hedging chart, as a table.
pub(super) fn data_hedging(c: &super::hedging::HedgingChart) -> DataTable {
    {
        let mut head = vec![
            "latencia (ms)".to_string(),
            "sin hedging: más lentas que esto".to_string(),
        ];
        let mut rest: Vec<&[(f64, f64)]> = Vec::new();
        if let Some(with) = &c.with {
            head.push("con hedging".into());
            rest.push(with);
        }
        table(
            "Parte de las lecturas más lentas que cada latencia",
            head,
            aligned(&c.without, &rest, share),
        )
    }
}

/// The data of a Shedding chart, as a table.
pub(super) fn data_shedding(c: &super::shedding::SheddingChart) -> DataTable {
    table(
        &format!("Por segundo; capacidad {} por segundo", num(c.capacity_rps)),
        vec![
            "segundo".into(),
            "goodput sin tope".into(),
            "latencia media sin tope (ms)".into(),
            "goodput con shedding".into(),
            "latencia media con shedding (ms)".into(),
        ],
        c.shown(&c.unbounded)
            .iter()
            .zip(c.shown(&c.shedding))
            .enumerate()
            .map(|(i, (u, s))| {
                vec![
                    es_int(i as i64 + 1),
                    es_int(u.0 as i64),
                    num(u.1),
                    es_int(s.0 as i64),
                    num(s.1),
                ]
            })
            .collect(),
    )
}

/// The data of a Bars chart, as a table.
pub(super) fn data_bars(b: &super::simple::Bars) -> DataTable {
    table(
        &b.y_desc,
        std::iter::once(String::new())
            .chain(b.series.iter().map(|s| s.0.clone()))
            .collect(),
        b.labels
            .iter()
            .enumerate()
            .map(|(g, l)| {
                std::iter::once(l.clone())
                    .chain(b.series.iter().map(|s| s.2.get(g).map(|v| num(*v)).unwrap_or_default()))
                    .collect()
            })
            .collect(),
    )
}

/// The data of a Lines chart, as a table.
pub(super) fn data_lines(l: &super::simple::Lines) -> DataTable {
    table(&l.y_desc, vec!["serie".into(), l.x_desc.clone(), l.y_desc.clone()], {
        let (fx, fy): (Cell, Cell) = (
            if l.x_percent { share } else { num },
            if l.y_percent { share } else { num },
        );
        let ghost = l.ghost.iter().flat_map(|(name, series)| {
            series.iter().flat_map(move |(label, _, pts)| {
                pts.iter()
                    .map(move |(x, y)| vec![format!("{label} ({name})"), fx(*x), fy(*y)])
            })
        });
        l.series
            .iter()
            .flat_map(|(label, _, pts)| {
                l.shown(pts)
                    .iter()
                    .map(move |(x, y)| vec![label.clone(), fx(*x), fy(*y)])
            })
            .chain(ghost)
            .collect()
    })
}

/// The data of a Storm chart, as a table.
pub(super) fn data_storm(c: &super::storm::StormChart) -> DataTable {
    {
        let mut head: Vec<String> = vec![
            "tiempo (s)".into(),
            "requests nuevas".into(),
            "intentos que llegan".into(),
            "goodput".into(),
        ];
        // While it plays, the run so far.
        fn so_far(s: &[(f64, f64)], shown: Option<usize>) -> &[(f64, f64)] {
            &s[..shown.map_or(s.len(), |k| k.min(s.len()))]
        }
        let so_far = |s| so_far(s, c.shown);
        let mut rest: Vec<&[(f64, f64)]> = vec![so_far(&c.offered), so_far(&c.goodput)];
        if let Some(fb) = &c.fallbacks {
            head.push("fallbacks".into());
            rest.push(so_far(fb));
        }
        let mut rows = aligned(so_far(&c.fresh), &rest, num);
        if let Some(g) = &c.ghost {
            // The ghost's attempts at the same moments (none before it starts).
            head.push(format!("intentos ({})", g.label));
            for r in rows.iter_mut() {
                let at = c.fresh.iter().find(|p| num(p.0) == r[0]).map(|p| p.0);
                let v = at.and_then(|x| g.offered.iter().find(|p| p.0 == x));
                r.push(v.map(|p| num(p.1)).unwrap_or_default());
            }
        }
        let moment = c.playhead_s.map_or(String::new(), |t| {
            format!(" (hasta los {} s)", crate::fmt::es_dec(t, 1))
        });
        table(
            &format!("Por segundo; capacidad {} por segundo{moment}", num(c.capacity)),
            head,
            rows,
        )
    }
}

impl DataTable {
    /// A fingerprint of the table (FNV-1a, 64 bits, in hex): the same data,
    /// the same fingerprint. A chart carries its data's (`data-sum`), so a
    /// test can tell that the canvas draws what the prerendered page drew.
    pub fn fingerprint(&self) -> String {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        let mut eat = |s: &str| {
            for b in s.bytes().chain([0x1f]) {
                h ^= b as u64;
                h = h.wrapping_mul(0x0100_0000_01b3);
            }
        };
        eat(&self.caption);
        self.head.iter().for_each(|c| eat(c));
        self.rows.iter().flatten().for_each(|c| eat(c));
        format!("{h:016x}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chart::herd::HerdChart;
    use crate::chart::{Chart, Plot};
    use crate::sim::herd::{simulate, HerdParams};

    #[test]
    fn the_herd_table_has_the_lesson_peaks() {
        let with = simulate(&HerdParams::default());
        let without = simulate(&HerdParams {
            jitter: crate::sim::policy::backoff::Jitter::None,
            ..HerdParams::default()
        });
        let c = Chart::Herd(HerdChart::new(
            50,
            ("sin jitter", &without),
            Some(("full jitter", &with)),
        ));
        let t = c.data();
        assert_eq!(t.head.len(), 3);
        assert!(t.rows.len() <= MAX_ROWS);
        // The wave without jitter: 1,000 attempts in the window at 200 ms.
        let col = t.head.iter().position(|h| h == "sin jitter").unwrap();
        assert!(
            t.rows.iter().any(|r| r[0] == "200" && r[col] == "1,000"),
            "{:?}",
            &t.rows[..5]
        );
    }

    #[test]
    fn long_series_are_thinned_keeping_both_ends() {
        let v: Vec<u32> = (0..10_000).collect();
        let (t, thinned) = thin(&v);
        assert!(thinned);
        assert_eq!(t.len(), MAX_ROWS);
        assert_eq!((t[0], t[MAX_ROWS - 1]), (0, 9_999));
    }

    #[test]
    fn shares_are_written_as_the_axis_writes_them_and_never_round_to_zero() {
        assert_eq!(share(0.2), "20 %");
        assert_eq!(share(0.0123), "1.2 %");
        assert_eq!(share(0.0005), "0.05 %");
        assert_eq!(share(0.000_123), "0.012 %");
        assert_eq!(share(0.0), "0 %");
        // The hedging chart at the lesson's values: every share in its table is a
        // percentage, and a positive share never reads as zero.
        let p = crate::sim::hedging::HedgingParams::default();
        let r = crate::sim::hedging::simulate(&p);
        let c = crate::chart::hedging::HedgingChart {
            without: r.ccdf_without,
            with: Some(r.ccdf_with),
            hedge_at_ms: r.hedge_at_ms,
            floor: 1.0 / p.reads as f64,
        };
        let t = Chart::Hedging(c.clone()).data();
        let mut shares = c.without.iter().chain(c.with.iter().flatten()).map(|p| p.1);
        assert!(shares.any(|v| v > 0.0 && v < 0.01), "a tail share to check");
        for row in &t.rows {
            for cell in &row[1..] {
                assert!(cell.ends_with(" %"), "{cell}");
            }
        }
    }
}
