//! C01's chain on a timeline: caller, gateway and Triton, each hop's limit,
//! and the zombie work as a striped span.

use super::palette;
use super::timeline::{Lane, Moment, Span, Timeline};
use crate::sim::chain::{ChainParams, ChainResult};

pub fn timeline(p: &ChainParams, r: &ChainResult) -> Timeline {
    let prep = p.prep_ms as f64;
    let queue_end = r.queue_rejects_ms.map(|v| v as f64).unwrap_or(prep + p.queue_ms as f64);
    let gateway_done = r.gateway_done_ms() as f64;
    // Without cancellation Triton keeps going; with it, Triton stops when it is abandoned.
    let stop = |end: f64| match (p.cancel.is_on(), r.abandoned_ms) {
        (true, Some(a)) => end.min(a as f64),
        _ => end,
    };
    let zombie = |s: Option<(u64, u64)>, label: &str| {
        s.map(|(a, b)| Span {
            from: a as f64,
            to: b as f64,
            color: palette::ZOMBIE,
            faded: true,
            striped: true,
            label: Some(label.into()),
        })
    };
    let mut triton = Lane {
        label: "Triton".into(),
        spans: vec![],
        ticks: vec![],
    };
    let q_to = stop(queue_end).min(r.zombie_queue.map_or(f64::MAX, |(a, _)| a as f64));
    // A call not made (the deadline was spent): Triton's lane stays empty.
    if r.called {
        triton.spans.push(Span {
            from: prep,
            to: q_to,
            color: palette::CONTRAST,
            faded: false,
            striped: false,
            label: Some("fila".into()),
        });
        if let Some(done) = r.triton_done_ms {
            let c_to = stop(done as f64).min(r.zombie_compute.map_or(f64::MAX, |(a, _)| a as f64));
            triton.spans.push(Span {
                from: queue_end,
                to: c_to,
                color: palette::PRIMARY,
                faded: false,
                striped: false,
                label: Some("cómputo".into()),
            });
        }
    }
    triton.spans.extend(zombie(r.zombie_queue, "zombi"));
    triton.spans.extend(zombie(r.zombie_compute, "zombi"));

    let gateway = Lane {
        label: "gateway".into(),
        spans: vec![
            Span {
                from: 0.0,
                to: prep,
                color: palette::LIMIT,
                faded: false,
                striped: false,
                label: Some("foto".into()),
            },
            Span {
                from: prep,
                to: gateway_done.max(prep),
                color: palette::LIMIT,
                faded: true,
                striped: false,
                label: Some("espera a Triton".into()),
            },
        ],
        ticks: vec![],
    };
    let caller = Lane {
        label: "caller".into(),
        spans: vec![Span {
            from: 0.0,
            to: r.caller_done_ms as f64,
            color: palette::OK,
            faded: true,
            striped: false,
            label: Some("espera".into()),
        }],
        ticks: vec![],
    };
    let mut moments = vec![
        Moment {
            at: p.caller_ms as f64,
            label: format!("caller {}", crate::fmt::es_int(p.caller_ms as i64)),
            color: palette::OK,
            strong: false,
        },
        Moment {
            at: p.deadline_ms as f64,
            label: format!("deadline {}", crate::fmt::es_int(p.deadline_ms as i64)),
            color: palette::LIMIT,
            strong: false,
        },
        Moment {
            at: r.gateway_gives_up_ms as f64,
            label: format!("llamada {}", crate::fmt::es_int(r.call_timeout_ms as i64)),
            color: palette::PRIMARY,
            strong: false,
        },
    ];
    if let Some(rej) = r.queue_rejects_ms {
        moments.push(Moment {
            at: rej as f64,
            label: "REJECT".into(),
            color: palette::CONTRAST,
            strong: false,
        });
    } else {
        moments.push(Moment {
            at: prep + p.queue_cap_ms as f64,
            label: format!("fila {}", crate::fmt::es_int(p.queue_cap_ms as i64)),
            color: palette::CONTRAST,
            strong: false,
        });
    }
    moments.push(Moment {
        at: r.caller_done_ms as f64,
        label: "resultado".into(),
        color: palette::TEXT,
        strong: true,
    });
    let end = r.end_ms(p) as f64;
    Timeline {
        lanes: vec![caller, gateway, triton],
        moments,
        end_ms: end,
        seconds: end >= 5_000.0,
        open_ended: false,
        playhead_ms: None,
    }
}
