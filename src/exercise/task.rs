//! A widget's tasks: «Predice y comprueba» in the lesson, beside the widget.
//!
//! An author writes a task in the lesson's markdown, after its widget, as a
//! container directive; no code:
//!
//! ```text
//! :::task{widget="herd" id="doble" predict="gave-up" set="jitter=none&capacity=100"}
//! Si el servidor atendiera el doble, ¿cuántos clientes se rendirían sin jitter?
//! :::
//! ```
//!
//! Three kinds:
//! * `predict="figure"`: the learner writes a prediction before looking. The
//!   widget takes the parameters of `set` and hides its results until the
//!   prediction is committed; then the run plays. Right when within `tol`
//!   (an amount in the figure's unit: `"1 s"`, `"2 %"` of a share) or
//!   `tol-rel` (a share of the value, `"5%"`; 2 % unless told).
//! * `find="figure"`: the learner explores with the widget and writes what
//!   they found (nothing hidden), marked the same way.
//! * `goal="figure < value; …"`: the learner moves the controls until every
//!   condition holds, and checks the state they reached. A side is a figure
//!   or a value written as the figure's unit reads it (`100 ms`, `6 %`,
//!   `no`); `=` compares exactly.
//!
//! A figure is one of the scenario's results, declared and computed beside
//! its parameters in the core ([`crate::sim::figures::TaskFigures`]), or
//! one of its parameters by its key.
//! Everything here is pure: the page gives the widget's parameters as its
//! query and gets marks back.

use super::answer::{self, read, Read, Unit};
use super::{check_part, Expect, Mark, Part, Tol};
use crate::lesson::Directive;
use crate::sim::figures::{Measure, TaskFigures};
use crate::sim::params::{self, Value};

/// One of the figures a task may name: a scenario's result
/// ([`crate::sim::figures::TaskFigures`], declared beside its parameters) or
/// one of its parameters, with the unit an answer is read in.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Figure {
    pub key: &'static str,
    /// What it is, in Spanish, as feedback names it («el p99»).
    pub label: &'static str,
    pub unit: Unit,
}

impl From<Measure> for Unit {
    fn from(m: Measure) -> Unit {
        match m {
            Measure::Ms => Unit::Ms,
            Measure::Rate => Unit::Rate,
            Measure::Share => Unit::Share,
            Measure::Count => Unit::Count,
            Measure::Clock => Unit::Clock,
            Measure::YesNo => Unit::YesNo,
        }
    }
}

/// What a task may ask of one scenario: its parameters and its results, as
/// the scenario declares them ([`TaskFigures`]). A widget's own tasks are
/// read with its own ([`Figures::of`]), so its code reaches no other
/// scenario; [`Figures::by_id`] looks one up in the registry (a lesson's
/// check, the instructors' pages).
#[derive(Clone, Copy)]
pub struct Figures {
    /// The widget's id (its scenario's).
    pub widget: &'static str,
    specs: fn() -> &'static [params::Spec],
    defaults: fn() -> params::Values,
    results: &'static [crate::sim::figures::Figure],
    computed: fn(&[Value], &str) -> Option<f64>,
}

impl PartialEq for Figures {
    fn eq(&self, o: &Self) -> bool {
        self.widget == o.widget
    }
}

impl std::fmt::Debug for Figures {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.widget)
    }
}

fn computed_by<P: TaskFigures>(values: &[Value], key: &str) -> Option<f64> {
    params::from_values::<P>(values).figure(key)
}

impl Figures {
    /// Scenario `P`'s, for widget `widget`.
    pub fn of<P: TaskFigures>(widget: &'static str) -> Figures {
        Figures {
            widget,
            specs: P::specs,
            defaults: P::lesson_values,
            results: P::RESULTS,
            computed: computed_by::<P>,
        }
    }

    /// Widget `id`'s, from the registry.
    pub fn by_id(id: &str) -> Option<Figures> {
        macro_rules! by_scenario {
            ($(($rid:ident, $name:literal, $m:ident :: $p:ident, $w:ident :: $c:ident)),* $(,)?) => {
                match id {
                    $( stringify!($rid) => Some(Figures::of::<crate::sim::$m::$p>(stringify!($rid))), )*
                    _ => None,
                }
            };
        }
        crate::registry!(by_scenario)
    }

    /// A figure by key: one of the scenario's results, or one of its parameters.
    pub fn find(&self, key: &str) -> Option<Figure> {
        if let Some(f) = self.results.iter().find(|f| f.key == key) {
            return Some(Figure {
                key: f.key,
                label: f.label,
                unit: f.measure.into(),
            });
        }
        let spec = (self.specs)().iter().find(|s| s.key == key)?;
        let unit = match spec.unit {
            "ms" => Unit::Ms,
            "%" => Unit::Share,
            _ => Unit::Count,
        };
        matches!(spec.kind, params::Kind::Int { .. }).then_some(Figure {
            key: spec.key,
            label: spec.label,
            unit,
        })
    }

    /// Figure `key` at the parameters of `query` (read as a link's, the
    /// moment left out), computed by the core. `None`: no such figure, or
    /// it does not happen at these parameters (a breaker that never opens).
    pub fn value(&self, query: &str, key: &str) -> Option<f64> {
        let f = self.find(key)?;
        let specs = (self.specs)();
        // Read without the scenario's type (one copy in the browser's build).
        let (values, _) = params::values_from_query(specs, (self.defaults)(), query);
        if let Some(i) = specs.iter().position(|s| s.key == key) {
            return match values[i] {
                Value::Int(v) if f.unit == Unit::Share => Some(v as f64 / 100.0),
                Value::Int(v) => Some(v as f64),
                _ => None,
            };
        }
        (self.computed)(&values, key)
    }
}

/// A figure of `widget` by key ([`Figures::find`]).
pub fn find_figure(widget: &str, key: &str) -> Option<Figure> {
    Figures::by_id(widget)?.find(key)
}

/// Figure `key` of `widget` at the parameters of `query` ([`Figures::value`]).
pub fn figure(widget: &str, query: &str, key: &str) -> Option<f64> {
    Figures::by_id(widget)?.value(query, key)
}

/// What the learner does.
#[derive(Clone, Debug, PartialEq)]
pub enum Kind {
    /// Predict a figure before looking (the results hidden until then).
    Predict { figure: Figure, tol: Tol },
    /// Find a figure with the widget, and write it.
    Find { figure: Figure, tol: Tol },
    /// Reach a state where every condition holds.
    Goal(Vec<Cond>),
}

/// `lhs op rhs`.
#[derive(Clone, Debug, PartialEq)]
pub struct Cond {
    pub lhs: Figure,
    pub op: Op,
    pub rhs: Side,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
}

impl Op {
    fn holds(self, a: f64, b: f64) -> bool {
        match self {
            Op::Lt => a < b,
            Op::Le => a <= b,
            Op::Gt => a > b,
            Op::Ge => a >= b,
            Op::Eq => a == b,
        }
    }

    fn words(self) -> &'static str {
        match self {
            Op::Lt => "menos de",
            Op::Le => "a lo más",
            Op::Gt => "más de",
            Op::Ge => "al menos",
            Op::Eq => "",
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Side {
    Figure(Figure),
    Value(f64),
}

/// A task as the lesson places it.
#[derive(Clone, Debug, PartialEq)]
pub struct Task {
    pub widget: String,
    /// What its widget's scenario offers it.
    pub figures: Figures,
    /// Unique within the widget: the task's key is `widget/id`.
    pub id: String,
    pub kind: Kind,
    /// The parameters the task starts from (a query, as in a link).
    pub set: String,
}

impl Task {
    /// `widget/id`: in the progress and in the score message.
    pub fn key(&self) -> String {
        format!("{}/{}", self.widget, self.id)
    }

    /// Whether the widget's results stay hidden until the learner commits.
    pub fn hides(&self) -> bool {
        matches!(self.kind, Kind::Predict { .. })
    }
}

fn is_id(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 40
        && s.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

/// A task's tolerance: `tol`, an amount in the figure's unit (`"1 s"`,
/// `"2 %"` of a share: two points), or `tol-rel`, a share of the value
/// (`"5%"`); 2 % of the value unless told.
fn tolerance(d: &Directive, unit: Unit) -> Result<Tol, String> {
    match (d.get("tol"), d.get("tol-rel")) {
        (Some(_), Some(_)) => Err("«tol» or «tol-rel», not both".into()),
        (Some(t), None) => match read(t, unit) {
            Read::Number(v) if v >= 0.0 => Ok(Tol::Abs(v)),
            _ => Err(format!("tol «{t}» cannot be read as {}", unit.expected())),
        },
        (None, rel) => {
            if unit == Unit::Clock && rel.is_some() {
                return Err("a time of day has no share: write «tol» in seconds".into());
            }
            let r = rel.unwrap_or("2%");
            match r
                .trim()
                .strip_suffix('%')
                .and_then(|v| crate::fmt::parse_decimal(v.trim()))
            {
                Some(v) if v >= 0.0 => Ok(Tol::Rel(v / 100.0)),
                _ => Err(format!("tol-rel «{r}»: a percentage, as in «5%»")),
            }
        }
    }
}

/// Reads `::task{…}`, checking every figure, value and parameter it names.
pub fn parse(d: &Directive) -> Result<Task, String> {
    let widget = d.get("widget").ok_or("«:::task» needs «widget»")?;
    let figures = Figures::by_id(widget).ok_or(format!("unknown widget «{widget}»"))?;
    parse_with(d, figures)
}

/// [`parse`], for a task of the widget whose scenario offers `figures`
/// (another widget's is an error).
pub fn parse_with(d: &Directive, figures: Figures) -> Result<Task, String> {
    let widget = figures.widget;
    if d.get("widget") != Some(widget) {
        return Err(format!("not a task of «{widget}»"));
    }
    let id = d.get("id").ok_or("«:::task» needs «id»")?;
    if !is_id(id) {
        return Err(format!("task id «{id}»: lower-case letters, digits and hyphens"));
    }
    let figure = |key: &str| {
        figures
            .find(key.trim())
            .ok_or(format!("«{widget}» has no figure «{}»", key.trim()))
    };
    let set = d.get("set").unwrap_or_default().to_string();
    let (_, notes) = params::values_from_query((figures.specs)(), (figures.defaults)(), &set);
    if let Some(n) = notes.first() {
        return Err(format!("set «{set}»: {}", n.message));
    }
    for pair in set.split('&').filter(|p| !p.is_empty()) {
        let key = pair.split('=').next().unwrap_or_default();
        if !(figures.specs)().iter().any(|s| s.key == key) || key == crate::sim::playback::MOMENT_KEY {
            return Err(format!("set «{set}»: «{widget}» has no parameter «{key}»"));
        }
    }
    let tol = |f: &Figure| tolerance(d, f.unit);
    let kind = match (d.get("predict"), d.get("find"), d.get("goal")) {
        (Some(k), None, None) => {
            let f = figure(k)?;
            Kind::Predict {
                tol: tol(&f)?,
                figure: f,
            }
        }
        (None, Some(k), None) => {
            let f = figure(k)?;
            Kind::Find {
                tol: tol(&f)?,
                figure: f,
            }
        }
        (None, None, Some(g)) => {
            let mut conds = Vec::new();
            for c in g.split(';').map(str::trim).filter(|c| !c.is_empty()) {
                let (at, op, len) = [
                    ("<=", Op::Le),
                    (">=", Op::Ge),
                    ("<", Op::Lt),
                    (">", Op::Gt),
                    ("=", Op::Eq),
                ]
                .iter()
                .find_map(|(s, op)| c.find(s).map(|at| (at, *op, s.len())))
                .ok_or(format!("goal «{c}»: no comparison (<, <=, >, >=, =)"))?;
                let lhs = figure(&c[..at])?;
                let rhs_text = c[at + len..].trim();
                let rhs = match figures.find(rhs_text) {
                    Some(f) => Side::Figure(f),
                    None => match read(rhs_text, lhs.unit) {
                        Read::Number(v) => Side::Value(v),
                        Read::YesNo(b) => Side::Value(if b { 1.0 } else { 0.0 }),
                        _ => return Err(format!("goal «{c}»: «{rhs_text}» is neither a figure nor a value")),
                    },
                };
                conds.push(Cond { lhs, op, rhs });
            }
            if conds.is_empty() {
                return Err("an empty goal".into());
            }
            Kind::Goal(conds)
        }
        _ => return Err("«:::task» needs exactly one of «predict», «find» or «goal»".into()),
    };
    Ok(Task {
        widget: widget.into(),
        figures,
        id: id.into(),
        kind,
        set,
    })
}

/// A figure's value written the lesson's way.
pub fn shown(v: f64, unit: Unit) -> String {
    match unit {
        Unit::Clock => crate::sim::breaker::clock(v),
        Unit::Count => crate::fmt::es_num(v),
        _ => answer::format(v, unit),
    }
}

/// What a check of a task says.
#[derive(Clone, Debug, PartialEq)]
pub struct Verdict {
    /// The mark of the answer (a goal's: right when every condition holds).
    pub mark: Mark,
    /// What happened, one line per figure or condition: «Fueron 700; tu
    /// predicción: 850.», «el p99: 92.7 ms, menos de 100 ms ✓».
    pub lines: Vec<String>,
    /// A right answer that is the figure itself, within rounding (not only
    /// within the task's tolerance).
    pub exact: bool,
}

impl Verdict {
    pub fn is_right(&self) -> bool {
        self.mark.is_right()
    }

    /// What a right prediction or finding is told: «Correcto» when it is the
    /// figure (within rounding), «se acerca» when it is only within the
    /// task's tolerance. `None` for any other mark.
    pub fn right_words(&self, kind: &Kind) -> Option<&'static str> {
        if !self.is_right() {
            return None;
        }
        Some(match (self.exact, kind) {
            (true, _) => "✓ Correcto",
            (false, Kind::Predict { .. }) => "✓ Tu predicción se acerca (dentro de la tolerancia)",
            (false, _) => "✓ Se acerca (dentro de la tolerancia)",
        })
    }
}

/// Whether `got` is `value` within rounding: equal, or equal as the verdict
/// writes the figure, or `value` rounded to the last digit the learner typed
/// (`typed`: «17 %» for 16.67 %, «1.3 s» for 1,250 ms, «12:00:05» for
/// 12:00:05.08; a digit no coarser than a tenth of the value, or than a
/// second on the clock, so «1k» is not 1,400 rounded).
pub fn within_rounding(value: f64, got: f64, typed: &str, figure: &Figure) -> bool {
    let d = (got - value).abs();
    let eps = 1e-9 * value.abs().max(1.0);
    if d <= eps || shown(got, figure.unit) == shown(value, figure.unit) {
        return true;
    }
    // A time of day is rounded to the second at most («12:00:05» for 12:00:05.08).
    let finest = if figure.unit == Unit::Clock {
        1.0
    } else {
        value.abs() / 10.0
    };
    match answer::resolution(typed, figure.unit, figure.label) {
        Some(r) if r > 0.0 && r <= finest => d <= r / 2.0 + eps,
        _ => false,
    }
}

/// Marks a prediction or a finding (`typed`) at the widget's parameters
/// (`query`: a predict task's are its own, `set`).
pub fn check_answer(task: &Task, query: &str, typed: &str) -> Verdict {
    let (figure, tol) = match &task.kind {
        Kind::Predict { figure, tol } | Kind::Find { figure, tol } => (*figure, *tol),
        Kind::Goal(_) => return check_state(task, query),
    };
    let Some(value) = task.figures.value(query, figure.key) else {
        return Verdict {
            mark: Mark::Unreadable(format!(
                "Con estos parámetros no se puede calcular {}: cambia alguno e inténtalo de nuevo.",
                figure.label
            )),
            lines: Vec::new(),
            exact: false,
        };
    };
    let expect = if figure.unit == Unit::YesNo {
        Expect::YesNo(value != 0.0)
    } else {
        Expect::Number(value)
    };
    let part = Part {
        id: task.id.clone(),
        label: figure.label.into(),
        unit: figure.unit,
        expect,
        tol,
        options: Vec::new(),
        mistakes: Vec::new(),
    };
    let mut mark = check_part(&part, typed);
    let exact = match answer::read_as(typed, figure.unit, figure.label) {
        Read::Number(got) => within_rounding(value, got, typed, &figure),
        _ => mark.is_right(),
    };
    // Within rounding is right, whatever the tolerance.
    if let (true, Mark::Wrong { read, .. }) = (exact, mark.clone()) {
        mark = Mark::Right { read };
    }
    let lines = match &mark {
        Mark::Right { .. } | Mark::Wrong { .. } => vec![format!(
            "{}: {}.",
            crate::text::upper_first(figure.label),
            shown(value, figure.unit)
        )],
        _ => Vec::new(),
    };
    Verdict {
        exact: exact && mark.is_right(),
        mark,
        lines,
    }
}

/// Checks the state a goal task reached (`query`: the widget's parameters).
pub fn check_state(task: &Task, query: &str) -> Verdict {
    let Kind::Goal(conds) = &task.kind else {
        return check_answer(task, query, "");
    };
    let mut lines = Vec::new();
    let mut all = true;
    for c in conds {
        let a = task.figures.value(query, c.lhs.key);
        let (b, b_text) = match &c.rhs {
            Side::Value(v) => (Some(*v), shown(*v, c.lhs.unit)),
            Side::Figure(f) => {
                let v = task.figures.value(query, f.key);
                (
                    v,
                    format!("{} ({})", f.label, v.map_or("sin valor".into(), |v| shown(v, f.unit))),
                )
            }
        };
        let holds = matches!((a, b), (Some(a), Some(b)) if c.op.holds(a, b));
        all &= holds;
        let want = match c.op {
            Op::Eq => format!("se pide: {b_text}"),
            op => format!("se pide {} {b_text}", op.words()),
        };
        lines.push(format!(
            "{} {}: {}; {want}.",
            if holds { "✓" } else { "✗" },
            crate::text::upper_first(c.lhs.label),
            a.map_or("sin valor".into(), |v| shown(v, c.lhs.unit)),
        ));
    }
    let read = "el estado del widget".to_string();
    Verdict {
        mark: if all {
            Mark::Right { read }
        } else {
            Mark::Wrong { read, hint: None }
        },
        lines,
        exact: all,
    }
}

/// Every task a lesson places, in order, each with its markdown.
pub fn of_lesson(lesson: &crate::lesson::Lesson) -> Vec<(Task, Vec<crate::lesson::Block>)> {
    fn walk(blocks: &[crate::lesson::Block], out: &mut Vec<(Task, Vec<crate::lesson::Block>)>) {
        for b in blocks {
            if let crate::lesson::Block::Container { directive, body } = b {
                if directive.name == "task" {
                    if let Ok(t) = parse(directive) {
                        out.push((t, body.clone()));
                    }
                } else {
                    walk(body, out);
                }
            }
        }
    }
    let mut out = Vec::new();
    for s in &lesson.sections {
        walk(&s.blocks, &mut out);
    }
    out
}
