//! The `sensei-lab` command line: runs any scenario of the core, for
//! authors, instructors, tests and benchmarks. `--json` prints one JSON
//! object for machines, the same shape for every scenario (README). Out-of-range
//! values are refused with a clear message and exit status 2.
//!
//! The scenarios' subcommands are built from [`crate::scenario::ALL`] and
//! their parameters' specs (clap's builder: the flag is the spec's key, the
//! URL's and the control's name); the other commands are clap's derive.

use crate::scenario::{self, Entry, Session};
use crate::sim::params::{self, Kind, Spec, Value, Values};
use clap::{Arg, ArgAction, ArgMatches, FromArgMatches, Subcommand};
use serde_json::json;
use std::process::ExitCode;

#[derive(Subcommand, Debug)]
/// The commands that are not scenarios.
pub enum Command {
    /// One of the lesson's nine exercises as text (for paper), in a variant, with its solution if asked.
    Exercise {
        /// The exercise, 1 to 9.
        n: u32,
        /// 0 = the lesson's numbers; any other number draws other numbers (exercises 2, 4, 5, 6, 7, 8)
        /// [0–999999; lesson: 0]
        #[arg(long, default_value_t = crate::exercise::LESSON_VARIANT, allow_negative_numbers = true,
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
        #[arg(long, default_value = crate::sim::idempotency::LESSON_TITLE)]
        title: String,
        /// Seed for the (never printed) UUID.
        #[arg(long, default_value_t = crate::sim::idempotency::LESSON_SEED)]
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
        /// The instructors' build's index.html (`--features instructors`), the shell of the
        /// «Para docentes» pages. Without it, the shell of those already in DIST.
        #[arg(long)]
        instructors: Option<std::path::PathBuf>,
        /// The site's address (`https://cursos.example`), for sitemap.xml and robots.txt:
        /// a sitemap lists whole URLs. Without it, its addresses are paths (and a warning says so).
        #[arg(long)]
        site: Option<String>,
    },
    /// Writes the lesson into a SCORM 1.2 package's page, prerendered as that package shows it
    /// (its class's variants, its solutions), in place (scripts/scorm.mjs, run by `./lab build`).
    ScormPage {
        /// The package's index.html, its `<div id="app"></div>` empty.
        page: std::path::PathBuf,
        /// The lesson the package holds.
        #[arg(long)]
        lesson: String,
        /// The class whose variants the package's exercises show [0–999999; 0: the lesson's numbers].
        #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=999_999))]
        class: u32,
        /// The mastery score, in percent [0–100; none: no mastery score].
        #[arg(long, value_parser = clap::value_parser!(u32).range(0..=100))]
        mastery: Option<u32>,
        /// When the worked solutions open: always, checked or never.
        #[arg(long, default_value = "always", value_parser = ["always", "checked", "never"])]
        solutions: String,
    },
    /// Writes a SCORM 1.2 package's imsmanifest.xml into its folder, listing every file in it
    /// (scripts/scorm.mjs, run by `./lab build`, makes the rest of the package).
    ScormManifest {
        /// The package's folder (its index.html and the files it loads).
        dir: std::path::PathBuf,
        /// The lesson the package holds.
        #[arg(long)]
        lesson: String,
        /// The mastery score, in percent, that makes the lesson «passed» [0–100; default: 80]
        #[arg(long, value_parser = clap::value_parser!(u32).range(0..=100), conflicts_with = "no_mastery")]
        mastery: Option<u32>,
        /// No mastery score: the lesson is «completed» once everything has been checked.
        #[arg(long)]
        no_mastery: bool,
    },
    /// Lists the scenarios: id, Spanish name, parameters (`--json`: the browser tests' widget list).
    Scenarios {
        #[arg(long)]
        json: bool,
    },
    /// Lists the embedded lessons and their sections, and checks their directives.
    Lessons {
        #[arg(long)]
        json: bool,
    },
}

/// The whole command line: the scenarios from the registry, then the rest.
pub fn command() -> clap::Command {
    let cmd = clap::Command::new("sensei-lab")
        .version(env!("CARGO_PKG_VERSION"))
        .about("Sensei Lab: the lesson «Timeouts, reintentos e idempotencia» from the command line")
        .subcommand_required(true)
        .arg_required_else_help(true);
    let cmd = scenario::ALL
        .iter()
        .fold(cmd, |cmd, s| cmd.subcommand(scenario_command(s)));
    // (After clap's derive, which would otherwise put the enum's doc as the about.)
    Command::augment_subcommands(cmd)
        .about("Sensei Lab: the lesson «Timeouts, reintentos e idempotencia» from the command line")
}

/// A scenario's subcommand: one flag per spec, its switches, `--json`, `--repeat`.
fn scenario_command(s: &'static Entry) -> clap::Command {
    let cmd = clap::Command::new(s.id)
        .about(s.about)
        .long_about(format!("{}\n\nWork budget: {}", s.about, s.budget));
    let defaults = (s.defaults)();
    let cmd = (s.specs)()
        .iter()
        .zip(&defaults)
        .fold(cmd, |cmd, (spec, default)| cmd.arg(spec_arg(spec, default)));
    let cmd = s.switches.iter().fold(cmd, |cmd, (name, help)| {
        cmd.arg(Arg::new(*name).long(*name).help(*help).action(ArgAction::SetTrue))
    });
    cmd.arg(
        Arg::new("json")
            .long("json")
            .help("Print one JSON object instead of the lesson's lines.")
            .action(ArgAction::SetTrue),
    )
    .arg(
        Arg::new("repeat")
            .long("repeat")
            .value_name("N")
            .help("Run the core this many times and report the fastest run's time under \"timing\" (for benchmarks) [1–1000]")
            .value_parser(clap::value_parser!(u32).range(1..=1000)),
    )
}

/// A spec's flag: `--key <KEY>`, the scenario's default (the lesson's value
/// where the lesson gives one) as its default, its doc and bounds as its
/// help, its value read strictly and checked against the bounds.
fn spec_arg(spec: &'static Spec, default: &Value) -> Arg {
    // (Leaked: clap keeps a default and a value name as `&'static str`s; a few bytes once per run.)
    let default = match default {
        Value::Text(t) => t.clone(),
        v => spec.format(v),
    };
    let range =
        match spec.kind {
            Kind::Int { min, max, optional } => format!("{}{min}–{max}", if optional { "none or " } else { "" }),
            Kind::Choice { options } => options.iter().map(|(k, _)| *k).collect::<Vec<_>>().join(", "),
            Kind::Text { max_chars } => format!("text, up to {max_chars} characters"),
            Kind::Events {
                options,
                max_items,
                max_ms,
                lasting,
            } => format!(
            "up to {max_items} of KEY@MS{}, comma-separated, in ms from the run's start (0–{max_ms}), KEY one of {}{}",
            if lasting.is_some() { "[+MS]" } else { "" },
            options.iter().map(|(k, _)| *k).collect::<Vec<_>>().join(", "),
            lasting.map_or(String::new(), |(d, most)| format!("; +MS: how long it lasts (1–{most}, {d} if not given)"))
        ),
        };
    Arg::new(spec.key)
        .long(spec.key)
        .value_name(spec.key.to_uppercase().replace('-', "_").leak() as &str)
        .help(format!(
            "{} [{range}; default: {}]",
            spec.doc,
            if default.is_empty() { "empty" } else { &default }
        ))
        .default_value(default.leak() as &str)
        .hide_default_value(true)
        .allow_negative_numbers(true)
        .value_parser(move |text: &str| parse_strict(spec, text))
}

/// A value as the command line takes it: a whole number (`none` where a
/// parameter is optional) or one of the choices. Anything else is an error
/// (exit status 2), never a silent fallback; the bounds are checked after,
/// all at once ([`params::out_of_range`]).
pub fn parse_strict(spec: &Spec, text: &str) -> Result<Value, String> {
    let t = text.trim();
    match spec.kind {
        Kind::Int { optional, .. } => {
            if optional && (t == "none" || t == "ninguno") {
                return Ok(Value::Unset);
            }
            let what = if optional {
                "a whole number or «none»"
            } else {
                "a whole number"
            };
            let v: i64 = t.parse().map_err(|_| {
                if t.is_empty() {
                    format!("expected {what}, got an empty value")
                } else {
                    format!("expected {what}, got «{t}»")
                }
            })?;
            Ok(Value::Int(v))
        }
        Kind::Choice { options } => options
            .iter()
            .find(|(k, _)| *k == t)
            .map(|(k, _)| Value::Choice(k))
            .ok_or_else(|| {
                let keys: Vec<_> = options.iter().map(|(k, _)| *k).collect();
                format!("expected one of {}, got «{t}»", keys.join(", "))
            }),
        // As given (the length is checked with the bounds).
        Kind::Text { .. } => Ok(Value::Text(text.to_string())),
        // Every item read, as the bounds are checked ([`params::out_of_range`]), or refused.
        Kind::Events { .. } => {
            let read = crate::sim::params::read_events(spec.kind, t);
            if read.errors.is_empty() {
                Ok(Value::Text(crate::sim::params::write_events(&read.events)))
            } else {
                Err(read.errors.join("; "))
            }
        }
    }
}

/// Runs the CLI with the process arguments.
pub fn main() -> ExitCode {
    let out = match command().try_get_matches() {
        Ok(m) => run(&m),
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(e.exit_code().clamp(0, 255) as u8);
        }
    };
    match out {
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

/// What a scenario's run gets on the command line ([`Session`]): the
/// switches given, and `--repeat`'s clock around the core's call.
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
}

impl Session for Ctx<'_> {
    fn on(&self, name: &str) -> bool {
        self.switches.contains(&name)
    }

    /// Runs the core's call once; with `--repeat N`, then N times more,
    /// timed (only the core: not the JSON nor the words), keeping the
    /// fastest. The first run sizes whatever the call reuses, as a widget's
    /// re-runs do.
    fn time<T>(&mut self, mut core: impl FnMut() -> T) -> T {
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

/// Runs parsed arguments, returning what to print or `(exit status, message)`.
pub fn run(m: &ArgMatches) -> Result<String, (u8, String)> {
    if let Some((id, sub)) = m.subcommand() {
        if let Some(s) = scenario::find(id) {
            return run_scenario(s, sub);
        }
    }
    let command = Command::from_arg_matches(m).map_err(|e| (2, e.to_string()))?;
    run_command(command)
}

/// A scenario's run: `--repeat` times if asked (timed: the core knows no
/// clock), then its lines and notes, or the one JSON shape.
fn run_scenario(s: &Entry, m: &ArgMatches) -> Result<String, (u8, String)> {
    let specs = (s.specs)();
    let values: Values = specs
        .iter()
        .map(|spec| m.get_one::<Value>(spec.key).cloned().unwrap_or(Value::Unset))
        .collect();
    let refused = params::out_of_range(specs, &values);
    if !refused.is_empty() {
        let lines: Vec<String> = refused.iter().map(|e| format!("error: {e}")).collect();
        return Err((2, lines.join("\n")));
    }
    if let Some(why) = (s.beyond_budget)(&values) {
        return Err((2, format!("error: {why}")));
    }
    let on: Vec<&'static str> = s.switches.iter().map(|(n, _)| *n).filter(|n| m.get_flag(n)).collect();
    let repeat = m.get_one::<u32>("repeat").copied();
    let mut ctx = Ctx::new(&on, repeat);
    let run = crate::scenario::run(s.id, &values, &mut ctx).expect("a registered scenario");
    if !m.get_flag("json") {
        let mut lines = run.lines;
        lines.extend(run.notes.iter().map(|n| format!("nota: {n}")));
        return Ok(lines.join("\n"));
    }
    let params: serde_json::Map<String, serde_json::Value> = specs
        .iter()
        .zip(&values)
        .map(|(spec, v)| {
            let v = match v {
                Value::Int(i) => json!(i),
                Value::Unset => serde_json::Value::Null,
                Value::Choice(c) => json!(c),
                Value::Text(t) => json!(t),
            };
            (spec.key.to_string(), v)
        })
        .collect();
    let mut out = json!({ "scenario": s.id, "params": params, "result": run.result,
        "truncated": run.truncated, "notes": run.notes });
    if let (Some(n), Some(best)) = (repeat, ctx.best_ms) {
        out["timing"] = json!({ "repeat": n, "best_ms": best });
    }
    Ok(out.to_string())
}

/// Runs one of the commands that are not scenarios.
fn run_command(command: Command) -> Result<String, (u8, String)> {
    match command {
        Command::Scenarios { json } => Ok(scenarios_list(json)),
        Command::Prerender {
            dist,
            instructors,
            site,
        } => prerender(&dist, instructors.as_deref(), site.as_deref()),
        Command::Exercise {
            n,
            variant,
            solutions,
            json,
        } => exercise(n, variant, solutions, json),
        Command::Idempotency { title, seed, json } => Ok(idempotency(&title, seed, json)),
        Command::Lessons { json } => lessons(json),
        Command::ScormPage {
            page,
            lesson,
            class,
            mastery,
            solutions,
        } => scorm_page(&page, lesson, class, mastery, &solutions),
        Command::ScormManifest {
            dir,
            lesson,
            mastery,
            no_mastery,
        } => scorm_manifest(
            &dir,
            &lesson,
            (!no_mastery).then(|| mastery.unwrap_or(crate::exercise::scorm::DEFAULT_MASTERY)),
        ),
    }
}

/// `sensei-lab scorm-page PAGE --lesson L …`: the lesson prerendered into the package's page.
fn scorm_page(
    file: &std::path::Path,
    lesson: String,
    class: u32,
    mastery: Option<u32>,
    solutions: &str,
) -> Result<String, (u8, String)> {
    if crate::lesson::find(&lesson).is_none() {
        return Err((2, format!("no lesson «{lesson}» (sensei-lab lessons lists them)")));
    }
    let shell = std::fs::read_to_string(file).map_err(|e| (1, format!("{}: {e}", file.display())))?;
    let package = crate::ui::host::Package {
        lesson,
        class,
        mastery,
        solutions: crate::exercise::scorm::Solutions::from_word(solutions),
    };
    let html =
        crate::ui::prerender::package_page(&shell, &package).map_err(|e| (1, format!("{}: {e}", file.display())))?;
    std::fs::write(file, &html).map_err(|e| (1, format!("{}: {e}", file.display())))?;
    Ok(format!(
        "{}: the lesson prerendered ({} bytes)\n",
        file.display(),
        html.len()
    ))
}

/// `sensei-lab scorm-manifest DIR --lesson L`: DIR/imsmanifest.xml, naming every file in DIR.
fn scorm_manifest(dir: &std::path::Path, slug: &str, mastery: Option<u32>) -> Result<String, (u8, String)> {
    let lesson = crate::lesson::find(slug).ok_or((2, format!("no lesson «{slug}» (sensei-lab lessons lists them)")))?;
    fn walk(root: &std::path::Path, dir: &std::path::Path, out: &mut Vec<String>) -> std::io::Result<()> {
        for entry in std::fs::read_dir(dir)? {
            let path = entry?.path();
            if path.is_dir() {
                walk(root, &path, out)?;
            } else if let Ok(rel) = path.strip_prefix(root) {
                let name = rel
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy())
                    .collect::<Vec<_>>()
                    .join("/");
                if name != "imsmanifest.xml" {
                    out.push(name);
                }
            }
        }
        Ok(())
    }
    let mut files = Vec::new();
    walk(dir, dir, &mut files).map_err(|e| (1, format!("{}: {e}", dir.display())))?;
    if !files.iter().any(|f| f == "index.html") {
        return Err((
            2,
            format!("{}: no index.html, the package's launch page", dir.display()),
        ));
    }
    let xml = crate::exercise::scorm::manifest(&lesson.slug, &lesson.title, &files, mastery);
    let out = dir.join("imsmanifest.xml");
    std::fs::write(&out, xml).map_err(|e| (1, format!("{}: {e}", out.display())))?;
    Ok(format!("{}: {} files", out.display(), files.len()))
}

/// `sensei-lab scenarios`: the registry, as lines or JSON (the browser tests' widget list).
fn scenarios_list(json: bool) -> String {
    if json {
        return json!(scenario::ALL
            .iter()
            .map(|s| json!({ "id": s.id, "name": s.name, "about": s.about,
                "params": (s.specs)().iter().map(|spec| spec.key).collect::<Vec<_>>() }))
            .collect::<Vec<_>>())
        .to_string();
    }
    scenario::ALL
        .iter()
        .map(|s| format!("{:<12} {} — {}", s.id, s.name, s.about))
        .collect::<Vec<_>>()
        .join("\n")
}

fn prerender(
    dist: &std::path::Path,
    instructors: Option<&std::path::Path>,
    site: Option<&str>,
) -> Result<String, (u8, String)> {
    let site = site.filter(|s| !s.is_empty());
    if let Some(s) = site {
        let host = s.strip_prefix("https://").or_else(|| s.strip_prefix("http://"));
        if !host.is_some_and(|h| !h.is_empty() && !h.trim_end_matches('/').contains('/')) {
            return Err((2, format!("error: --site {s}: the site's address, as in https://cursos.example (no path: that is the public URL)")));
        }
    } else {
        eprintln!(
            "warning: no --site (LAB_SITE): sitemap.xml lists paths, not whole URLs, and robots.txt does not name it"
        );
    }
    let written = crate::ui::prerender::write_all(dist, instructors, site).map_err(|e| (1, format!("error: {e}")))?;
    let pages: Vec<_> = written.iter().filter(|(f, _)| f.ends_with(".html")).collect();
    let bytes: usize = pages.iter().map(|(_, b)| b).sum();
    Ok(format!(
        "{}: {} pages prerendered ({} bytes), sitemap.xml, robots.txt",
        dist.display(),
        crate::fmt::es_int(pages.len() as i64),
        crate::fmt::es_int(bytes as i64)
    ))
}

/// An exercise for paper; its answers only with `--solutions`.
fn exercise(n: u32, variant: u32, solutions: bool, json: bool) -> Result<String, (u8, String)> {
    let Some(mut ex) = crate::exercise::build(n, variant) else {
        return Err((
            2,
            format!(
                "error: there is no exercise {n}; the lesson has 1 to {}",
                crate::exercise::COUNT
            ),
        ));
    };
    if !json {
        return Ok(crate::exercise::to_text(&ex, solutions));
    }
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
    Ok(v.to_string())
}

/// The lesson's idempotency-key program, in the one JSON shape with `--json`.
fn idempotency(title: &str, seed: u32, json: bool) -> String {
    let lines = crate::sim::idempotency::lesson_program_output(title, seed);
    if !json {
        return lines.join("\n");
    }
    json!({ "scenario": "idempotency", "params": { "title": title, "seed": seed },
        "result": { "lines": lines }, "truncated": false, "notes": [] })
    .to_string()
}

/// The lessons and their sections, after checking their directives.
fn lessons(json: bool) -> Result<String, (u8, String)> {
    if let Some((slug, e)) = crate::lesson::errors().first() {
        return Err((1, format!("error: lesson {slug}: {e}")));
    }
    let problems = crate::exercise::check_lessons();
    if !problems.is_empty() {
        let lines: Vec<String> = problems.iter().map(|p| format!("error: {p}")).collect();
        return Err((1, lines.join("\n")));
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
        return Ok(serde_json::Value::Array(v).to_string());
    }
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
