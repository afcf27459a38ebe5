//! The `sensei-lab` command line: runs any scenario of the core, for
//! authors, instructors, tests and benchmarks. `--json` prints one JSON
//! object for machines. Out-of-range values are refused with a clear
//! message and exit status 2.

use crate::fmt::{es_dec, es_int, es_percent};
use crate::sim::breaker::{self, BreakerParams};
use crate::sim::chain::{self, CallerGets, ChainParams, FirstToGiveUp};
use crate::sim::clocks::{self, ClocksParams};
use crate::sim::degradation::{self, DegradationParams};
use crate::sim::failmode::{self, FailModeParams};
use crate::sim::hedging::{self, HedgingParams};
use crate::sim::herd::{self, HerdParams};
use crate::sim::inflight::{self, InflightParams};
use crate::sim::params::Params;
use crate::sim::retries::{self, BackoffParams, BudgetParams, LayersParams};
use crate::sim::shedding::{self, SheddingParams};
use crate::sim::storm::{self, StormParams};
use crate::sim::{idempotency, params};
use clap::{Parser, Subcommand};
use serde_json::json;
use std::process::ExitCode;

#[derive(Parser, Debug)]
#[command(
    name = "sensei-lab",
    version,
    about = "Sensei Lab: the lesson «Timeouts, reintentos e idempotencia» from the command line"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// The thundering herd: clients fail together and retry with backoff (and jitter).
    ///
    /// Work budget: at most clients × retries = 100,000 × 10 = 1,000,000 attempts; every accepted run plays to the end.
    Herd {
        #[command(flatten)]
        params: HerdParams,
        /// Print one JSON object instead of the lesson's line.
        #[arg(long)]
        json: bool,
        /// Run the simulation this many times and report the fastest run's time (for benchmarks) [1–1000]
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1000))]
        repeat: u32,
    },
    /// Three clocks in one call: connect, read (silence between pieces) and total timeouts.
    ///
    /// Work budget: none needed (closed form, no loop over pieces); at most 2,000 pieces are listed for the chart, the count is exact. A call that never ends has no count of pieces (null).
    Clocks {
        #[command(flatten)]
        params: ClocksParams,
        #[arg(long)]
        json: bool,
    },
    /// Little's law and MAX_INFLIGHT: what waiting too long costs a pod (formula and simulation).
    ///
    /// Work budget: the simulation of one pod plays at most 200,000 arrivals (180,000 when they are random); a longer run is cut to fit and says so ("truncated": true, a note). With no steady state in what was played (each request holds its place longer than the run), it gives no steady-state share or mean.
    Inflight {
        #[command(flatten)]
        params: InflightParams,
        #[arg(long)]
        json: bool,
    },
    /// C01's chain of deadlines (300 → 250 → 150 → 100 ms) and the zombie work.
    ///
    /// Work budget: none needed (one request, closed form).
    Chain {
        #[command(flatten)]
        params: ChainParams,
        #[arg(long)]
        json: bool,
    },
    /// Hedged requests: a second copy at a percentile, by Monte Carlo (exercise 8).
    ///
    /// Work budget: --reads itself (at most 200,000); every run plays all of them. Where the lesson's arithmetic does not describe the run, a note says so and gives the simulation's figure.
    Hedging {
        #[command(flatten)]
        params: HedgingParams,
        #[arg(long)]
        json: bool,
    },
    /// Load shedding: an unbounded queue against a server that sheds, above its capacity.
    ///
    /// Work budget: at most 200,000 arrivals; a longer run plays the whole seconds that fit (rps × seconds ≤ 180,000) and says so ("truncated": true, a note).
    Shedding {
        #[command(flatten)]
        params: SheddingParams,
        #[arg(long)]
        json: bool,
    },
    /// The backoff calculator: the wait before each retry, at most and on average (exercise 2).
    ///
    /// Work budget: 4,000 sampled runs of the waits, always.
    Backoff {
        #[command(flatten)]
        params: BackoffParams,
        #[arg(long)]
        json: bool,
    },
    /// Layers that retry multiply: the attempts reaching each piece (exercise 4).
    ///
    /// Work budget: none needed (closed form).
    Layers {
        #[command(flatten)]
        params: LayersParams,
        #[arg(long)]
        json: bool,
    },
    /// The retry budget: retries wanted against allowed, and the extra load.
    ///
    /// Work budget: 2,000 requests per point of the token bucket's curve, 51 points, always.
    Budget {
        #[command(flatten)]
        params: BudgetParams,
        #[arg(long)]
        json: bool,
    },
    /// The circuit breaker when Triton falls at 12:00:00 (exercise 7).
    ///
    /// Work budget: every request is played, at most rps × (window-s + duration-s) = 10,000 × 720 = 7,200,000; every accepted run plays to the end.
    Breaker {
        #[command(flatten)]
        params: BreakerParams,
        #[arg(long)]
        json: bool,
    },
    /// A retry storm: layers that retry in front of a server of fixed capacity, and a trigger.
    ///
    /// Work budget: at most 650,000 attempts to the server (room for the largest calm run, 2,000 × 300 s). A storm can grow without end, so a run that reaches the budget stops there and says so ("truncated": true, "cut_at_s", a note): its timeline ends where the data end, and it concludes nothing (outcome "cut", recovered null; the tipping point "unknown").
    Storm {
        #[command(flatten)]
        params: StormParams,
        /// Also search the shortest trigger after which the system no longer recovers.
        #[arg(long)]
        tipping: bool,
        #[arg(long)]
        json: bool,
    },
    /// The idempotency store: keys, retries, a retry while the first runs, another body, expiry (exercise 9).
    ///
    /// Work budget: scripts of at most 200 actions (the cases have a handful).
    Store {
        #[command(flatten)]
        params: idempotency::StoreParams,
        #[arg(long)]
        json: bool,
    },
    /// Graceful degradation: fallbacks counted by reason, and the alert on their share.
    ///
    /// Work budget: none needed (one figure per simulated minute, at most 1,440 minutes).
    Degradation {
        #[command(flatten)]
        params: DegradationParams,
        #[arg(long)]
        json: bool,
    },
    /// Fail-open or fail-closed: what passes and what stops while a checker is down.
    ///
    /// Work budget: none needed (closed form).
    Failmode {
        #[command(flatten)]
        params: FailModeParams,
        #[arg(long)]
        json: bool,
    },
    /// One of the lesson's nine exercises as text (for paper), in a variant, with its solution if asked.
    Exercise {
        /// The exercise, 1 to 9.
        n: u32,
        /// 0 = the lesson's numbers; any other number draws other numbers (exercises 2, 4, 5, 6, 7, 8)
        /// [0–999999; lesson: 0]
        #[arg(long, default_value_t = 0, allow_negative_numbers = true,
              value_parser = clap::value_parser!(u32).range(0..=i64::from(crate::exercise::MAX_VARIANT)))]
        variant: u32,
        /// Also print the worked solution and the answers.
        #[arg(long)]
        solutions: bool,
        #[arg(long)]
        json: bool,
    },
    /// The idempotency-key program: a lost answer, then a retry with and without a key.
    Idempotency {
        /// Title of the post the client publishes.
        #[arg(long, default_value = "Tenis naranjas")]
        title: String,
        /// Seed for the (never printed) UUID.
        #[arg(long, default_value_t = 7)]
        seed: u32,
        #[arg(long)]
        json: bool,
    },
    /// Writes every page of a release build as HTML (after `trunk build`, into its folder).
    ///
    /// Each route's page (the lesson, every section, widget and exercise alone and embedded, the
    /// print view, the missing page) with its whole text and each widget at the lesson's values,
    /// rendered by the browser's own components, which then hydrate it.
    Prerender {
        /// The build's folder (Trunk's dist), whose index.html is the shell.
        dist: std::path::PathBuf,
    },
    /// Lists the embedded lessons and their sections, and checks their directives.
    Lessons {
        #[arg(long)]
        json: bool,
    },
}

/// Runs the CLI with the process arguments.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(out) => {
            // A closed pipe (`sensei-lab lessons | head`) is not an error worth a panic.
            use std::io::Write;
            let _ = writeln!(std::io::stdout().lock(), "{out}");
            ExitCode::SUCCESS
        }
        Err((code, msg)) => {
            eprintln!("{msg}");
            ExitCode::from(code)
        }
    }
}

/// Refuses out-of-range parameters with exit status 2.
fn checked<P: Params>(p: &P) -> Result<(), (u8, String)> {
    params::check(p).map_err(|errs| {
        (
            2,
            errs.iter()
                .map(|e| format!("error: {e}"))
                .collect::<Vec<_>>()
                .join("\n"),
        )
    })
}

/// A scenario's JSON with what every scenario says at its top level:
/// whether its run was cut by its work budget (`truncated`), and the notes
/// a reader must see beside its figures (`notes`, in Spanish).
fn report(mut v: serde_json::Value, truncated: bool, notes: &[String]) -> String {
    if let Some(o) = v.as_object_mut() {
        o.insert("truncated".into(), json!(truncated));
        o.insert("notes".into(), json!(notes));
    }
    v.to_string()
}

/// A scenario's lines, then each note on its own line.
fn lines_with_notes(mut lines: Vec<String>, notes: &[String]) -> String {
    lines.extend(notes.iter().map(|n| format!("nota: {n}")));
    lines.join("\n")
}

/// Runs a parsed command, returning what to print or `(exit status, message)`.
pub fn run(cli: Cli) -> Result<String, (u8, String)> {
    match cli.command {
        Command::Clocks { params: p, json } => {
            checked(&p)?;
            let r = clocks::run(&p);
            if json {
                Ok(report(
                    json!({ "scenario": "clocks", "params": p, "outcome": r.outcome, "connected_ms": r.connected_ms,
                    "chunks_received": r.chunks_received, "sentence": r.outcome.sentence() }),
                    false,
                    &[],
                ))
            } else {
                Ok(r.outcome.sentence())
            }
        }
        Command::Inflight { params: p, json } => {
            checked(&p)?;
            let f = inflight::formula(&p);
            let s = inflight::simulate(&p);
            let mut notes = s.notes();
            notes.extend(inflight::formula_notes(&p, &f, &s));
            if json {
                return Ok(report(
                    json!({ "scenario": "inflight", "params": p, "formula": f,
                    "simulation": { "arrivals": s.arrivals, "served": s.served, "rejected": s.rejected,
                        "measured_arrivals": s.measured_arrivals, "measured_rejected": s.measured_rejected,
                        "rejected_share": s.rejected_share, "mean_inflight": s.mean_inflight,
                        "max_inflight": s.max_inflight, "warmup_s": s.warmup_s, "played_s": s.played_s,
                        "asked_s": s.asked_s },
                    "table": inflight::lesson_table(&p) }),
                    s.truncated,
                    &notes,
                ));
            }
            let cap = p.max_inflight.map_or(" (sin tope)".to_string(), |c| {
                format!(", contra {}", crate::fmt::es_count(c as i64, "lugar", "lugares"))
            });
            // Whole figures where they are large, two significant digits where small.
            let service = inflight::service_text(&p, &f);

            let steady = match (s.rejected_share, s.mean_inflight) {
                (Some(share), Some(mean)) => format!(
                    "; en régimen (después de {} s): {} rechazadas, {} en vuelo en promedio",
                    es_dec(s.warmup_s, 3),
                    es_percent(share, 1),
                    es_dec(mean, 1)
                ),
                _ => "; sin régimen estable en lo simulado".to_string(),
            };
            Ok(lines_with_notes(
                vec![
                    format!("en vuelo hacia Triton (todo el servicio): {service}"),
                    format!(
                        "por pod: {} por segundo × {} s = {} en vuelo{cap}",
                        crate::fmt::es_num(f.pod_rate),
                        es_dec(f.duration_s, 3),
                        crate::fmt::es_num(f.pod_demand)
                    ),
                    format!(
                        "se rechaza con 503: ≈ {} (se atienden ≈ {} por segundo)",
                        es_percent(f.rejected_share, 0),
                        crate::fmt::es_approx(f.served_per_s)
                    ),
                    format!(
                        "fotos en memoria por pod: {} MB, en un pod de {}",
                        crate::fmt::es_approx(f.photos_mb),
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
                ],
                &notes,
            ))
        }
        Command::Chain { params: p, json } => {
            checked(&p)?;
            let r = chain::run(&p);
            if json {
                return Ok(report(
                    json!({ "scenario": "chain", "params": p, "result": r, "zombie_compute_ms": r.zombie_compute_ms() }),
                    false,
                    &[],
                ));
            }
            let first = match r.first {
                FirstToGiveUp::Nobody => "nadie: la respuesta llega a tiempo",
                FirstToGiveUp::Queue => "la fila de Triton (REJECT)",
                FirstToGiveUp::Gateway => "el gateway",
                FirstToGiveUp::Caller => "el caller",
            };
            let gets = match r.caller_gets {
                CallerGets::Answer => "la categoría sugerida",
                CallerGets::GatewayTimeout => "un 504, y muestra el selector de categorías",
                CallerGets::Overloaded => "un 503, y muestra el selector de categorías",
                CallerGets::OwnTimeout => "nada a tiempo: se rinde y muestra el selector de categorías",
            };
            let mut out = vec![
                format!("timeout de la llamada a Triton: {}", chain::call_timeout_text(&p, &r)),
                format!("se rinde primero: {first}"),
                format!(
                    "el caller recibe: {gets} (a los {} ms)",
                    es_int(r.caller_done_ms as i64)
                ),
                format!("trabajo zombi en la GPU: {} ms", es_int(r.zombie_compute_ms() as i64)),
            ];
            if r.misconfigured {
                out.push("ojo: un salto espera más que el de arriba (error común 1)".into());
            }
            Ok(out.join("\n"))
        }
        Command::Hedging { params: p, json } => {
            checked(&p)?;
            let r = hedging::simulate(&p);
            let f = hedging::formula(&p);
            let notes = hedging::notes(&p, &f, &r);
            if json {
                return Ok(report(
                    json!({ "scenario": "hedging", "params": p, "formula": f,
                    "without": r.without, "with": r.with, "hedge_at_ms": r.hedge_at_ms, "extra_load": r.extra_load,
                    "slow_without": r.slow_without, "slow_with": r.slow_with, "rescued_max_ms": r.rescued_max_ms }),
                    false,
                    &notes,
                ));
            }
            let ms = |v: f64| format!("{} ms", es_int(v.round() as i64));
            let mut out = vec![format!(
                "sin hedging: p50 {}, p95 {}, p99 {}, p99.9 {}; lentas {}",
                ms(r.without.p50),
                ms(r.without.p95),
                ms(r.without.p99),
                ms(r.without.p999),
                es_percent(r.slow_without, 2)
            )];
            if let Some(w) = &r.with {
                out.push(format!(
                    "con hedging: p50 {}, p95 {}, p99 {}, p99.9 {}; lentas {}; carga extra {}",
                    ms(w.p50),
                    ms(w.p95),
                    ms(w.p99),
                    ms(w.p999),
                    es_percent(r.slow_with, 2),
                    es_percent(r.extra_load, 1)
                ));
                out.push(format!(
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
            Ok(lines_with_notes(out, &notes))
        }
        Command::Shedding { params: p, json } => {
            checked(&p)?;
            let r = shedding::simulate(&p);
            let notes = r.notes();
            if json {
                let mut v = serde_json::to_value(&r).map_err(|e| (1, e.to_string()))?;
                v["scenario"] = json!("shedding");
                v["params"] = json!(p);
                return Ok(report(v, r.truncated, &notes));
            }
            let line = |name: &str, s: &shedding::ServerRun| {
                format!(
                    "{name}: {} a tiempo, {} tarde, {} rechazadas con 503, {} sin respuesta al terminar; interactivas a tiempo {}, batch {}; última latencia {} ms",
                    es_percent(s.goodput_share, 0), es_int(s.late as i64), es_int(s.rejected as i64), es_int(s.unfinished as i64),
                    shedding::kind_share_text(s.interactive_goodput_share), shedding::kind_share_text(s.batch_goodput_share), es_int(s.final_latency_ms.round() as i64)
                )
            };
            Ok(lines_with_notes(
                vec![
                    format!(
                        "capacidad: {} por segundo; llegan {}",
                        es_dec(r.capacity_rps, 2),
                        es_int(p.rps as i64)
                    ),
                    line("fila sin tope", &r.unbounded),
                    line("con load shedding", &r.shedding),
                ],
                &notes,
            ))
        }
        Command::Backoff { params: p, json } => {
            checked(&p)?;
            let t = retries::backoff(&p);
            if json {
                return Ok(report(
                    json!({ "scenario": "backoff", "params": p, "rows": t.rows, "total_max_ms": t.total_max_ms, "total_mean_ms": t.total_mean_ms }),
                    false,
                    &[],
                ));
            }
            let mut out: Vec<String> = t
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
            out.push(format!(
                "total: como máximo {} ms, en promedio {} ms",
                es_dec(t.total_max_ms, 1),
                es_dec(t.total_mean_ms, 1)
            ));
            Ok(out.join("\n"))
        }
        Command::Layers { params: p, json } => {
            checked(&p)?;
            let r = retries::layers(&p);
            if json {
                return Ok(report(
                    json!({ "scenario": "layers", "params": p, "result": r }),
                    false,
                    &[],
                ));
            }
            let bottom = r.reaching.last().copied().unwrap_or(1.0);
            Ok(format!(
                "intentos por request, de arriba al fondo: {}\nal fondo: {} por segundo",
                r.reaching.iter().map(|x| es_dec(*x, 2)).collect::<Vec<_>>().join(" → "),
                es_dec(bottom * p.rps as f64, 0)
            ))
        }
        Command::Budget { params: p, json } => {
            checked(&p)?;
            let r = retries::budget(&p);
            if json {
                return Ok(report(
                    json!({ "scenario": "budget", "params": p, "result": r }),
                    false,
                    &[],
                ));
            }
            Ok(retries::budget_sentence(&p, &r))
        }
        Command::Breaker { params: p, json } => {
            checked(&p)?;
            let r = breaker::simulate(&p);
            if json {
                return Ok(report(
                    json!({ "scenario": "breaker", "params": p, "transitions": r.transitions,
                    "waited_before_open": r.waited_before_open, "fallbacks_first_open": r.fallbacks_first_open }),
                    false,
                    &[],
                ));
            }
            let mut out: Vec<String> = r
                .transitions
                .iter()
                .map(|(t, s)| format!("{} s: {}", crate::fmt::es_dec(*t, 2), s.label()))
                .collect();
            out.extend(
                breaker::figures(&p, &r)
                    .into_iter()
                    .skip(1)
                    .map(|(label, value)| format!("{label}: {value}")),
            );
            Ok(out.join("\n"))
        }
        Command::Storm {
            params: p,
            tipping,
            json,
        } => {
            checked(&p)?;
            let r = storm::simulate(&p);
            let outcome = storm::assess(&p, &r);
            let tip = tipping.then(|| storm::tipping_point(&p));
            let mut notes = r.notes();
            if let Some(storm::Tipping::Unknown { trigger_ms, cut: true }) = tip {
                notes.push(storm::tipping_unknown_note(trigger_ms));
            }
            if json {
                let recovered = match outcome {
                    storm::Outcome::Recovered { .. } => Some(true),
                    storm::Outcome::Metastable | storm::Outcome::Overloaded => Some(false),
                    _ => None, // the run cannot tell
                };
                return Ok(report(
                    json!({ "scenario": "storm", "params": p, "requests": r.requests, "attempts": r.attempts,
                    "succeeded": r.succeeded, "amplification": r.amplification, "outcome": outcome,
                    "recovered": recovered, "recovered_at_s": r.recovered_at_s, "trigger_end_s": r.trigger_end_s,
                    "cut_at_s": r.cut_at_s, "tipping": tip, "buckets": r.buckets }),
                    r.truncated,
                    &notes,
                ));
            }
            Ok(lines_with_notes(storm_lines(&r, outcome, tip), &notes))
        }
        Command::Store { params: p, json } => {
            checked(&p)?;
            let r = idempotency::run(&p);
            if json {
                return Ok(report(
                    json!({ "scenario": "store", "params": p, "rows": r.rows, "performed": r.performed,
                        "verdict": r.verdict().1 }),
                    r.truncated,
                    &[],
                ));
            }
            let mut out: Vec<String> = r
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
            out.push(format!("operaciones hechas: {}", r.performed.len()));
            out.push(r.verdict().1);
            Ok(out.join("\n"))
        }
        Command::Degradation { params: p, json } => {
            checked(&p)?;
            let r = degradation::run(&p);
            if json {
                return Ok(report(
                    json!({ "scenario": "degradation", "params": p, "result": r }),
                    false,
                    &degradation::notes(&p),
                ));
            }
            let mut out: Vec<String> = degradation::Reason::ALL
                .iter()
                .zip(r.totals)
                .map(|(reason, n)| format!("plan B por {}: {}", reason.label(), es_int(n.round() as i64)))
                .collect();
            out.push(degradation::verdict(&r, &p));
            Ok(lines_with_notes(out, &degradation::notes(&p)))
        }
        Command::Failmode { params: p, json } => {
            checked(&p)?;
            let r = failmode::run(&p);
            if json {
                return Ok(report(
                    json!({ "scenario": "failmode", "params": p, "result": r }),
                    false,
                    &[],
                ));
            }
            Ok(r.sentence)
        }
        Command::Prerender { dist } => {
            let written = crate::ui::prerender::write_all(&dist).map_err(|e| (1, format!("error: {e}")))?;
            let bytes: usize = written.iter().map(|(_, b)| b).sum();
            Ok(format!(
                "{}: {} pages prerendered ({} bytes)",
                dist.display(),
                crate::fmt::es_int(written.len() as i64),
                crate::fmt::es_int(bytes as i64)
            ))
        }
        Command::Exercise {
            n,
            variant,
            solutions,
            json,
        } => {
            let Some(mut ex) = crate::exercise::build(n, variant) else {
                return Err((
                    2,
                    format!(
                        "error: there is no exercise {n}; the lesson has 1 to {}",
                        crate::exercise::COUNT
                    ),
                ));
            };
            if json {
                if !solutions {
                    ex.solution.clear();
                }
                let mut v = serde_json::to_value(&ex).map_err(|e| (1, e.to_string()))?;
                if !solutions {
                    for p in v["parts"].as_array_mut().into_iter().flatten() {
                        if let Some(o) = p.as_object_mut() {
                            o.remove("expect");
                            o.remove("mistakes");
                        }
                    }
                }
                return Ok(v.to_string());
            }
            Ok(crate::exercise::to_text(&ex, solutions))
        }
        Command::Herd {
            params: p,
            json,
            repeat,
        } => {
            checked(&p)?;
            // The core knows no clock; the command line times it, for the comparison with CPython.
            // One untimed run first (it sizes the scratch), then `repeat` timed
            // runs in that scratch, as the widget re-runs (the same figures).
            let mut best = f64::INFINITY;
            let mut scratch = herd::HerdScratch::default();
            let mut r = herd::simulate_reusing(&p, &mut scratch);
            for _ in 0..repeat {
                let t = std::time::Instant::now();
                r = herd::simulate_reusing(&p, &mut scratch);
                best = best.min(t.elapsed().as_secs_f64() * 1000.0);
            }
            let line = r.lesson_line(p.jitter);
            if json {
                Ok(report(
                    json!({
                        "elapsed_ms": best,
                        "scenario": "herd",
                        "params": p,
                        "served": r.served,
                        "gave_up": r.gave_up,
                        "peak": r.peak,
                        "attempts": r.attempts,
                        "window_ms": r.window_ms,
                        "windows": r.windows,
                        "line": line,
                    }),
                    false,
                    &[],
                ))
            } else {
                Ok(line)
            }
        }
        Command::Idempotency { title, seed, json } => {
            let lines = idempotency::lesson_program_output(&title, seed);
            if json {
                Ok(report(json!({ "scenario": "idempotency", "lines": lines }), false, &[]))
            } else {
                Ok(lines.join("\n"))
            }
        }
        Command::Lessons { json } => {
            let errors = crate::lesson::errors();
            if let Some((slug, e)) = errors.first() {
                return Err((1, format!("error: lesson {slug}: {e}")));
            }
            let problems = crate::lesson::check_all();
            if !problems.is_empty() {
                return Err((
                    1,
                    problems
                        .iter()
                        .map(|p| format!("error: {p}"))
                        .collect::<Vec<_>>()
                        .join("\n"),
                ));
            }
            let lessons = crate::lesson::all();
            if json {
                let v: Vec<_> = lessons
                    .iter()
                    .map(|l| {
                        json!({
                            "slug": l.slug,
                            "title": l.title,
                            "sections": l.toc().map(|s| json!({"id": s.id, "title": s.title, "level": s.level})).collect::<Vec<_>>(),
                        })
                    })
                    .collect();
                Ok(serde_json::Value::Array(v).to_string())
            } else {
                let mut out = String::new();
                for l in lessons {
                    out.push_str(&format!("{} — {}\n", l.slug, l.title));
                    for s in l.toc() {
                        let indent = if s.level == 3 { "    " } else { "  " };
                        out.push_str(&format!("{indent}{}  ({})\n", s.title, s.id));
                    }
                }
                Ok(out.trim_end().to_string())
            }
        }
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
