//! Each scenario's runner for the command line: the core's run, as the one
//! JSON shape's `result` and `notes`, and as Spanish lines. Registered once,
//! in [`crate::scenario::ALL`].

use crate::fmt::{es_approx, es_count, es_dec, es_int, es_num, es_percent};
use crate::sim::chain;
use crate::sim::params::{self, Params, Values};
use crate::sim::{
    breaker, clocks, degradation, failmode, failures, hedging, herd, idempotency, inflight, retries, shedding, storm,
};
use serde_json::{json, Value};

/// What one run gives the command line.
pub struct Run {
    /// The scenario's figures (the JSON's `result`).
    pub result: Value,
    /// Whether its work budget cut it (the JSON's `truncated`).
    pub truncated: bool,
    /// What a reader must see beside the figures, in Spanish (`notes`; `nota:` lines).
    pub notes: Vec<String>,
    /// The run in the lesson's words.
    pub lines: Vec<String>,
}

/// What a runner gets beside the values: the command line's switches
/// (`Scenario::switches`), and `--repeat`'s clock around the core's call.
pub struct Ctx<'a> {
    switches: &'a [&'static str],
    repeat: Option<u32>,
    /// The fastest timed run, in ms (`None` without `--repeat`).
    pub best_ms: Option<f64>,
}

impl<'a> Ctx<'a> {
    pub fn new(switches: &'a [&'static str], repeat: Option<u32>) -> Self {
        Ctx {
            switches,
            repeat,
            best_ms: None,
        }
    }

    pub fn on(&self, name: &str) -> bool {
        self.switches.contains(&name)
    }

    /// Runs the core's call once; with `--repeat N`, then N times more,
    /// timed (only the core: not the JSON nor the words), keeping the
    /// fastest. The first run sizes whatever the call reuses, as a widget's
    /// re-runs do.
    pub fn time<T>(&mut self, mut core: impl FnMut() -> T) -> T {
        let mut out = core();
        for _ in 0..self.repeat.unwrap_or(0) {
            let t = std::time::Instant::now();
            out = core();
            let ms = t.elapsed().as_secs_f64() * 1000.0;
            self.best_ms = Some(self.best_ms.map_or(ms, |b: f64| b.min(ms)));
        }
        out
    }
}

/// A runner: values already checked against the scenario's specs.
pub type Runner = fn(&Values, &mut Ctx) -> Run;

fn run(result: Value, lines: Vec<String>) -> Run {
    Run {
        result,
        truncated: false,
        notes: Vec::new(),
        lines,
    }
}

fn p<P: Params>(values: &Values) -> P {
    params::from_values(values)
}

pub fn herd(values: &Values, ctx: &mut Ctx) -> Run {
    let p: herd::HerdParams = p(values);
    // One scratch for every run, as the widget re-runs.
    let mut scratch = herd::HerdScratch::default();
    let r = ctx.time(|| herd::simulate_reusing(&p, &mut scratch));
    let line = r.lesson_line(p.jitter);
    run(
        json!({ "served": r.served, "gave_up": r.gave_up, "peak": r.peak, "attempts": r.attempts,
            "window_ms": r.window_ms, "windows": r.windows, "line": line }),
        vec![line],
    )
}

pub fn clocks(values: &Values, ctx: &mut Ctx) -> Run {
    let p: clocks::ClocksParams = p(values);
    let r = ctx.time(|| clocks::run(&p));
    let sentence = r.outcome.sentence();
    run(
        json!({ "outcome": r.outcome, "connected_ms": r.connected_ms, "chunks_received": r.chunks_received,
            "sentence": sentence }),
        vec![sentence],
    )
}

pub fn inflight(values: &Values, ctx: &mut Ctx) -> Run {
    let p: inflight::InflightParams = p(values);
    let (f, s) = ctx.time(|| (inflight::formula(&p), inflight::simulate(&p)));
    let mut notes = s.notes();
    notes.extend(inflight::formula_notes(&p, &f, &s));
    let cap = p.max_inflight.map_or(" (sin tope)".to_string(), |c| {
        format!(", contra {}", es_count(c as i64, "lugar", "lugares"))
    });
    let steady = match (s.rejected_share, s.mean_inflight) {
        (Some(share), Some(mean)) => format!(
            "; en régimen (después de {} s): {} rechazadas, {} en vuelo en promedio",
            es_dec(s.warmup_s, 3),
            es_percent(share, 1),
            es_dec(mean, 1)
        ),
        _ => "; sin régimen estable en lo simulado".to_string(),
    };
    let lines = vec![
        format!(
            "en vuelo hacia Triton (todo el servicio): {}",
            inflight::service_text(&p, &f)
        ),
        format!(
            "por pod: {} por segundo × {} s = {} en vuelo{cap}",
            es_num(f.pod_rate),
            es_dec(f.duration_s, 3),
            es_num(f.pod_demand)
        ),
        format!(
            "se rechaza con 503: ≈ {} (se atienden ≈ {} por segundo)",
            es_percent(f.rejected_share, 0),
            es_approx(f.served_per_s)
        ),
        format!(
            "fotos en memoria por pod: {} MB, en un pod de {}",
            es_approx(f.photos_mb),
            inflight::memory_label(p.pod_memory_mib)
        ),
        inflight::verdict(&p, &f).1,
        format!(
            "simulación de un pod ({} s): {} rechazadas de {} llegadas ({}), máximo {} en vuelo{steady}",
            es_dec(s.played_s, 3),
            es_int(s.rejected as i64),
            es_int(s.arrivals as i64),
            es_percent(s.rejected as f64 / s.arrivals.max(1) as f64, 1),
            es_int(s.max_inflight as i64)
        ),
    ];
    Run {
        result: json!({ "formula": f,
            "simulation": { "arrivals": s.arrivals, "served": s.served, "rejected": s.rejected,
                "measured_arrivals": s.measured_arrivals, "measured_rejected": s.measured_rejected,
                "rejected_share": s.rejected_share, "mean_inflight": s.mean_inflight,
                "max_inflight": s.max_inflight, "warmup_s": s.warmup_s, "played_s": s.played_s,
                "asked_s": s.asked_s },
            "table": inflight::lesson_table(&p) }),
        truncated: s.truncated,
        notes,
        lines,
    }
}

pub fn chain(values: &Values, ctx: &mut Ctx) -> Run {
    let p: chain::ChainParams = p(values);
    let r = ctx.time(|| chain::run(&p));
    // The widget's words: its verdict, then its figures, then the mistake if made.
    let said = chain::said(&p, &r);
    let mut lines = vec![said.verdict.to_string()];
    lines.extend(said.rows.iter().map(|(label, _, value)| format!("{label}: {value}")));
    lines.extend(said.warning.map(String::from));
    let mut result = json!(r);
    result["zombie_compute_ms"] = json!(r.zombie_compute_ms());
    result["zombie_ms"] = json!(said.zombie_ms);
    run(result, lines)
}

pub fn hedging(values: &Values, ctx: &mut Ctx) -> Run {
    let p: hedging::HedgingParams = p(values);
    let (r, f) = ctx.time(|| (hedging::simulate(&p), hedging::formula(&p)));
    let notes = hedging::notes(&p, &f, &r);
    let ms = |v: f64| format!("{} ms", es_int(v.round() as i64));
    let mut lines = vec![format!(
        "sin hedging: p50 {}, p95 {}, p99 {}, p99.9 {}; lentas {}",
        ms(r.without.p50),
        ms(r.without.p95),
        ms(r.without.p99),
        ms(r.without.p999),
        es_percent(r.slow_without, 2)
    )];
    if let Some(w) = &r.with {
        lines.push(format!(
            "con hedging: p50 {}, p95 {}, p99 {}, p99.9 {}; lentas {}; carga extra {}",
            ms(w.p50),
            ms(w.p95),
            ms(w.p99),
            ms(w.p999),
            es_percent(r.slow_with, 2),
            es_percent(r.extra_load, 1)
        ));
        lines.push(format!(
            "una pieza al {} % de uso {} ≈ {} %",
            p.utilization_pct,
            if f.gpu_after_pct > 100.0 {
                "necesitaría"
            } else {
                "queda en"
            },
            es_dec(f.gpu_after_pct, 1)
        ));
    }
    Run {
        result: json!({ "formula": f, "without": r.without, "with": r.with, "hedge_at_ms": r.hedge_at_ms,
            "extra_load": r.extra_load, "slow_without": r.slow_without, "slow_with": r.slow_with,
            "rescued_max_ms": r.rescued_max_ms }),
        truncated: false,
        notes,
        lines,
    }
}

pub fn shedding(values: &Values, ctx: &mut Ctx) -> Run {
    let p: shedding::SheddingParams = p(values);
    let r = ctx.time(|| shedding::simulate(&p));
    let line = |name: &str, s: &shedding::ServerRun| {
        format!(
            "{name}: {} a tiempo, {} tarde, {} rechazadas con 503, {} sin respuesta al terminar; interactivas a tiempo {}, batch {}; última latencia {} ms",
            es_percent(s.goodput_share, 0),
            es_int(s.late as i64),
            es_int(s.rejected as i64),
            es_int(s.unfinished as i64),
            shedding::kind_share_text(s.interactive_goodput_share),
            shedding::kind_share_text(s.batch_goodput_share),
            es_int(s.final_latency_ms.round() as i64)
        )
    };
    let lines = vec![
        format!(
            "capacidad: {} por segundo; llegan {}",
            es_dec(r.capacity_rps, 2),
            es_int(p.rps as i64)
        ),
        line("fila sin tope", &r.unbounded),
        line("con load shedding", &r.shedding),
    ];
    Run {
        result: json!(r),
        truncated: r.truncated,
        notes: r.notes(),
        lines,
    }
}

pub fn backoff(values: &Values, ctx: &mut Ctx) -> Run {
    let p: retries::BackoffParams = p(values);
    let t = ctx.time(|| retries::backoff(&p));
    let mut lines: Vec<String> = t
        .rows
        .iter()
        .map(|r| {
            format!(
                "reintento {}: hasta {} ms, en promedio {} ms",
                r.retry,
                es_dec(r.max_ms, 1),
                es_dec(r.mean_ms, 1)
            )
        })
        .collect();
    lines.push(format!(
        "total: como máximo {} ms, en promedio {} ms",
        es_dec(t.total_max_ms, 1),
        es_dec(t.total_mean_ms, 1)
    ));
    run(
        json!({ "rows": t.rows, "total_max_ms": t.total_max_ms, "total_mean_ms": t.total_mean_ms }),
        lines,
    )
}

pub fn layers(values: &Values, ctx: &mut Ctx) -> Run {
    let p: retries::LayersParams = p(values);
    let r = ctx.time(|| retries::layers(&p));
    let bottom = r.reaching.last().copied().unwrap_or(1.0);
    let lines = vec![
        format!(
            "intentos por request, de arriba al fondo: {}",
            r.reaching.iter().map(|x| es_dec(*x, 2)).collect::<Vec<_>>().join(" → ")
        ),
        format!("al fondo: {} por segundo", es_dec(bottom * p.rps as f64, 0)),
    ];
    run(json!(r), lines)
}

pub fn budget(values: &Values, ctx: &mut Ctx) -> Run {
    let p: retries::BudgetParams = p(values);
    let r = ctx.time(|| retries::budget(&p));
    let line = retries::budget_sentence(&p, &r);
    run(json!(r), vec![line])
}

pub fn failure(_: &Values, ctx: &mut Ctx) -> Run {
    let paths = [
        ("ana", failures::Situation::interactive()),
        ("batch", failures::Situation::batch()),
    ];
    // Every failure of the table, decided on both paths.
    let decided = ctx.time(|| {
        failures::TABLE
            .iter()
            .map(|&(failure, ..)| {
                let row = failures::classify(failure);
                let ds = paths
                    .iter()
                    .map(|(_, s)| failures::decide(&failures::Situation { failure, ..s.clone() }))
                    .collect::<Vec<_>>();
                (row, ds)
            })
            .collect::<Vec<_>>()
    });
    let mut rows = Vec::new();
    let mut lines = Vec::new();
    for (&(_, name, ..), (row, ds)) in failures::TABLE.iter().zip(&decided) {
        lines.push(format!("{name}: {}", row.retry));
        for (d, label) in ds.iter().zip(["  camino de Ana", "  trabajo batch"]) {
            lines.push(format!("{label}: {}", d.why));
        }
        let decisions: Vec<Value> = ds
            .iter()
            .zip(&paths)
            .map(|(d, (path, _))| json!({ "path": path, "retry": d.retry, "after_ms": d.after_ms, "why": d.why }))
            .collect();
        rows.push(
            json!({ "failure": name, "meaning": row.meaning, "advice": row.advice, "retry": row.retry,
            "decisions": decisions }),
        );
    }
    run(json!({ "rows": rows }), lines)
}

pub fn breaker(values: &Values, ctx: &mut Ctx) -> Run {
    let p: breaker::BreakerParams = p(values);
    let r = ctx.time(|| breaker::simulate(&p));
    let mut lines: Vec<String> = r
        .transitions
        .iter()
        .map(|(t, s)| format!("{} s: {}", es_dec(*t, 2), s.label()))
        .collect();
    lines.extend(
        breaker::figures(&p, &r)
            .into_iter()
            .skip(1)
            .map(|(label, value)| format!("{label}: {value}")),
    );
    run(
        json!({ "transitions": r.transitions, "waited_before_open": r.waited_before_open,
            "fallbacks_first_open": r.fallbacks_first_open }),
        lines,
    )
}

pub fn storm(values: &Values, ctx: &mut Ctx) -> Run {
    let p: storm::StormParams = p(values);
    let tipping = ctx.on("tipping");
    let (r, outcome, tip) = ctx.time(|| {
        let r = storm::simulate(&p);
        let outcome = storm::assess(&p, &r);
        (r, outcome, tipping.then(|| storm::tipping_point(&p)))
    });
    let mut notes = r.notes();
    if let Some(storm::Tipping::Unknown { trigger_ms, cut: true }) = tip {
        notes.push(storm::tipping_unknown_note(trigger_ms));
    }
    let recovered = match outcome {
        storm::Outcome::Recovered { .. } => Some(true),
        storm::Outcome::Metastable | storm::Outcome::Overloaded => Some(false),
        _ => None, // the run cannot tell
    };
    Run {
        result: json!({ "requests": r.requests, "attempts": r.attempts, "succeeded": r.succeeded,
            "amplification": r.amplification, "outcome": outcome, "recovered": recovered,
            "recovered_at_s": r.recovered_at_s, "trigger_end_s": r.trigger_end_s, "cut_at_s": r.cut_at_s,
            "tipping": tip, "buckets": r.buckets }),
        truncated: r.truncated,
        notes,
        lines: storm_lines(&r, outcome, tip),
    }
}

/// The storm's result in the learner's words.
pub fn storm_lines(r: &storm::StormRun, outcome: storm::Outcome, tip: Option<storm::Tipping>) -> Vec<String> {
    let mut out = vec![
        format!(
            "requests: {}, intentos al servidor: {} ({} por request), a tiempo: {}",
            es_int(r.requests as i64),
            es_int(r.attempts as i64),
            es_dec(r.amplification, 1),
            es_int(r.succeeded as i64)
        ),
        storm::verdict(r, outcome),
    ];
    if let Some(t) = tip {
        out.push(format!("punto de quiebre: {}", storm::tipping_sentence(t)));
    }
    out
}

pub fn store(values: &Values, ctx: &mut Ctx) -> Run {
    let p: idempotency::StoreParams = p(values);
    let r = ctx.time(|| idempotency::run(&p));
    let mut lines: Vec<String> = r
        .rows
        .iter()
        .map(|row| {
            format!(
                "{:>9}  {}: {}{}",
                idempotency::clock(row.t_ms),
                row.who,
                row.what,
                row.reply.as_ref().map_or(String::new(), |x| format!(" → {x}"))
            )
        })
        .collect();
    lines.push(format!("operaciones hechas: {}", r.performed.len()));
    lines.push(r.verdict().1);
    Run {
        result: json!({ "rows": r.rows, "performed": r.performed, "verdict": r.verdict().1 }),
        truncated: r.truncated,
        notes: Vec::new(),
        lines,
    }
}

pub fn degradation(values: &Values, ctx: &mut Ctx) -> Run {
    let p: degradation::DegradationParams = p(values);
    let r = ctx.time(|| degradation::run(&p));
    let mut lines: Vec<String> = degradation::Reason::ALL
        .iter()
        .zip(r.totals)
        .map(|(reason, n)| format!("plan B por {}: {}", reason.label(), es_int(n.round() as i64)))
        .collect();
    lines.push(degradation::verdict(&r, &p));
    Run {
        result: json!(r),
        truncated: false,
        notes: degradation::notes(&p),
        lines,
    }
}

pub fn failmode(values: &Values, ctx: &mut Ctx) -> Run {
    let p: failmode::FailModeParams = p(values);
    let r = ctx.time(|| failmode::run(&p));
    let line = r.sentence.clone();
    run(json!(r), vec![line])
}
