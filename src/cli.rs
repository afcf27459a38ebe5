//! The `sensei-lab` command line: runs any scenario of the core, for
//! authors, instructors, tests and benchmarks. `--json` prints one JSON
//! object for machines. Out-of-range values are refused with a clear
//! message and exit status 2.

use crate::sim::herd::{self, HerdParams};
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
    Herd {
        #[command(flatten)]
        params: HerdParams,
        /// Print one JSON object instead of the lesson's line.
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
            println!("{out}");
            ExitCode::SUCCESS
        }
        Err((code, msg)) => {
            eprintln!("{msg}");
            ExitCode::from(code)
        }
    }
}

/// Runs a parsed command, returning what to print or `(exit status, message)`.
pub fn run(cli: Cli) -> Result<String, (u8, String)> {
    match cli.command {
        Command::Herd { params: p, json } => {
            params::check(&p).map_err(|errs| {
                (
                    2,
                    errs.iter()
                        .map(|e| format!("error: {e}"))
                        .collect::<Vec<_>>()
                        .join("\n"),
                )
            })?;
            let r = herd::simulate(&p);
            let line = r.lesson_line(p.jitter);
            if json {
                Ok(json!({
                    "scenario": "herd",
                    "params": p,
                    "served": r.served,
                    "gave_up": r.gave_up,
                    "peak": r.peak,
                    "attempts": r.attempts,
                    "window_ms": r.window_ms,
                    "windows": r.windows,
                    "line": line,
                })
                .to_string())
            } else {
                Ok(line)
            }
        }
        Command::Idempotency { title, seed, json } => {
            let lines = idempotency::lesson_program_output(&title, seed);
            if json {
                Ok(json!({ "scenario": "idempotency", "lines": lines }).to_string())
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
