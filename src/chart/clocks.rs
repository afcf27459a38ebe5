//! One call on a timeline: connecting, the pieces of the answer, and the
//! three clocks.

use super::palette;
use super::timeline::{Lane, Moment, Span, Timeline};
use crate::sim::clocks::{ClocksParams, ClocksResult, Outcome};

/// The read clock's line.
const READ: &str = "lectura";

/// The timeline of one call.
pub fn timeline(p: &ClocksParams, r: &ClocksResult) -> Timeline {
    let end = r.outcome.at_ms().map(|e| e as f64);
    // An endless wait still needs an axis: a few silences, or past every clock set.
    let horizon = r.horizon_ms(p);
    let connected = r.connected_ms.map(|c| c as f64);
    let mut connect_lane = Lane {
        label: "conexión".into(),
        spans: vec![],
        ticks: vec![],
    };
    connect_lane.spans.push(Span {
        from: 0.0,
        to: connected.unwrap_or(horizon),
        color: palette::CONTRAST,
        faded: connected.is_none(),
        striped: false,
        label: Some(if connected.is_some() {
            "conectando".into()
        } else {
            "esperando a que acepte".into()
        }),
    });
    let mut answer_lane = Lane {
        label: "respuesta".into(),
        spans: vec![],
        ticks: r.chunks_ms.iter().map(|t| *t as f64).collect(),
    };
    if let Some(c) = connected {
        answer_lane.spans.push(Span {
            from: c,
            to: end.unwrap_or(horizon),
            color: palette::PRIMARY,
            faded: true,
            striped: false,
            label: Some("esperando pedazos".into()),
        });
    }
    let mut moments = Vec::new();
    let fired = |o: &Outcome, which: &str| {
        matches!(
            (o, which),
            (Outcome::ConnectTimeout { .. }, "connect")
                | (Outcome::ReadTimeout { .. }, "read")
                | (Outcome::TotalTimeout { .. }, "total")
        )
    };
    if let Some(ct) = p.connect_timeout_ms {
        moments.push(Moment {
            at: ct as f64,
            label: "conexión".into(),
            color: palette::CONTRAST,
            strong: fired(&r.outcome, "connect"),
        });
    }
    if let (Some(rt), Some(c)) = (p.read_timeout_ms, connected) {
        // The read clock restarts at every piece; it fires only if one silence outlasts it.
        let at = match r.outcome {
            Outcome::ReadTimeout { at_ms, .. } => at_ms as f64,
            _ => r.chunks_ms.last().map_or(c, |t| *t as f64) + rt as f64,
        };
        moments.push(Moment {
            at,
            label: READ.into(),
            color: palette::PRIMARY,
            strong: fired(&r.outcome, "read"),
        });
    }
    if let Some(tt) = p.total_timeout_ms {
        moments.push(Moment {
            at: tt as f64,
            label: "total".into(),
            color: palette::LIMIT,
            strong: fired(&r.outcome, "total"),
        });
    }
    if let Outcome::Completed { at_ms } = r.outcome {
        moments.push(Moment {
            at: at_ms as f64,
            label: "completa".into(),
            color: palette::OK,
            strong: true,
        });
    }
    Timeline {
        lanes: vec![connect_lane, answer_lane],
        moments,
        end_ms: end.unwrap_or(horizon),
        seconds: end.unwrap_or(horizon) >= 5_000.0,
        open_ended: end.is_none(),
        playhead_ms: None,
    }
}

/// The call so far at `t` ms: the timeline up to it, and the read clock
/// where it stands then (it restarts at every piece: its line moves on as
/// each one arrives; not yet running before the connection).
pub fn timeline_at(p: &ClocksParams, r: &ClocksResult, t: f64) -> Timeline {
    let m = r.at(p, t);
    let mut tl = timeline(p, r).so_far(t);
    if !m.over {
        match m.read_left_ms {
            Some(left) => tl
                .moments
                .iter_mut()
                .filter(|x| x.label == READ)
                .for_each(|x| x.at = t + left as f64),
            None => tl.moments.retain(|x| x.label != READ),
        }
    }
    tl
}
