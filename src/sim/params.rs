//! Scenario parameters: one struct per scenario, one name per parameter.
//!
//! Each scenario's parameter struct implements [`Params`]: a table of
//! [`Spec`]s (key, Spanish label, unit, bounds, the lesson's value) and a
//! get/set by key. The same table serves three readers:
//!
//! * the command line, which refuses an out-of-range value ([`check`]);
//! * the URL query, read leniently: out-of-range values are clamped and bad
//!   or unknown ones ignored, each with a note ([`from_query`]);
//! * the widget, which builds its controls from the specs and shows the
//!   notes ([`clamp`]).
//!
//! The key is the kebab-case form of the field: `window_ms` in code is
//! `--window-ms` on the command line and `window-ms` in the URL.

use crate::fmt::es_int;

/// What kind of value a parameter holds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Kind {
    /// An integer in `min..=max`; `optional` means "none" is allowed too.
    Int { min: i64, max: i64, optional: bool },
    /// One of a fixed set of keys, each with its Spanish label.
    Choice {
        options: &'static [(&'static str, &'static str)],
    },
    /// Text as typed, at most `max_chars` characters (a header's value).
    Text { max_chars: usize },
    /// Faults injected while a run plays, in order of time: `key@ms`, or
    /// `key@ms+ms` where each lasts a while (`lasting`), comma-separated
    /// (see [`Injected`], [`read_events`]). Each key is one of `options`, each moment in
    /// `0..=max_ms` (ms from the run's start, as the player's moment), at
    /// most `max_items` of them. Its value is the list written that way
    /// ([`Value::Text`]; empty: none).
    Events {
        options: &'static [(&'static str, &'static str)],
        max_items: usize,
        max_ms: i64,
        /// For faults that last: how long one lasts when not given, and at most, in ms.
        lasting: Option<(u32, u32)>,
    },
}

/// One parameter of a scenario.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Spec {
    /// URL and command-line name (kebab-case).
    pub key: &'static str,
    /// What the learner reads next to the control.
    pub label: &'static str,
    /// Unit shown after the value ("ms", "" for counts).
    pub unit: &'static str,
    /// For an optional parameter: what it is when unset ("sin tope"), and
    /// the label of the switch that sets it ("con tope"). Empty otherwise.
    pub unset: &'static str,
    pub toggle: &'static str,
    pub kind: Kind,
    /// What it is, for `--help` (English, as the command line speaks; empty
    /// in the browser's build).
    pub doc: &'static str,
}

/// A parameter's value, as the generic code sees it.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Int(i64),
    /// An optional parameter left unset ("sin tope").
    Unset,
    Choice(&'static str),
    Text(String),
}

/// A scenario's parameter struct.
pub trait Params: Clone + Default + PartialEq {
    fn specs() -> &'static [Spec];
    fn get(&self, key: &str) -> Value;
    /// Sets a value already known to be valid for its spec.
    fn set(&mut self, key: &str, value: Value);
    /// The lesson's values, one per spec.
    fn lesson_values() -> Values {
        values(&Self::default())
    }
}

/// Something the page tells the learner about a value it could not take as is.
#[derive(Clone, Debug, PartialEq)]
pub struct Note {
    pub key: &'static str,
    pub message: String,
}

impl Spec {
    /// Brings `value` within this spec. Returns the value to use and, if it
    /// had to change, the note explaining why.
    pub fn clamp(&self, value: Value) -> (Value, Option<String>) {
        match (self.kind, value) {
            (Kind::Int { min, max, .. }, Value::Int(v)) if v < min || v > max => {
                let used = v.clamp(min, max);
                let msg = format!(
                    "{}: {} está fuera del rango permitido ({} a {}); se usa {}.",
                    self.label,
                    es_int(v),
                    es_int(min),
                    es_int(max),
                    es_int(used)
                );
                (Value::Int(used), Some(msg))
            }
            (
                Kind::Int {
                    optional: false, min, ..
                },
                Value::Unset,
            ) => (
                Value::Int(min),
                Some(format!("{}: hace falta un valor; se usa {}.", self.label, es_int(min))),
            ),
            (Kind::Int { .. }, v @ (Value::Int(_) | Value::Unset)) => (v, None),
            (Kind::Choice { options }, Value::Choice(c)) if options.iter().any(|(k, _)| *k == c) => {
                (Value::Choice(c), None)
            }
            (Kind::Choice { options }, _) => (
                Value::Choice(options[0].0),
                Some(format!(
                    "{}: valor no reconocido; se usa «{}».",
                    self.label, options[0].1
                )),
            ),
            (Kind::Int { min, .. }, Value::Choice(_) | Value::Text(_)) => (
                Value::Int(min),
                Some(format!("{}: valor no reconocido; se usa {}.", self.label, es_int(min))),
            ),
            (Kind::Text { max_chars }, Value::Text(t)) if t.chars().count() > max_chars => (
                // (Cut, and without the spaces the cut may leave at its end, as a URL reads it back.)
                Value::Text(t.chars().take(max_chars).collect::<String>().trim_end().to_string()),
                Some(format!(
                    "{}: es más largo de {} caracteres; se usan los primeros {}.",
                    self.label,
                    es_int(max_chars as i64),
                    es_int(max_chars as i64)
                )),
            ),
            (Kind::Text { .. }, v @ Value::Text(_)) => (v, None),
            // No text: the empty one.
            (Kind::Text { .. }, Value::Unset) => (Value::Text(String::new()), None),
            (Kind::Text { .. }, Value::Int(_) | Value::Choice(_)) => (
                Value::Text(String::new()),
                Some(format!("{}: valor no reconocido; se deja vacío.", self.label)),
            ),
            (Kind::Events { .. }, Value::Text(t)) => {
                let read = read_events(self.kind, &t);
                let used = Value::Text(write_events(&read.events));
                let note =
                    (!read.problems.is_empty()).then(|| format!("{}: {}.", self.label, read.problems.join("; ")));
                (used, note)
            }
            (Kind::Events { .. }, Value::Unset) => (Value::Text(String::new()), None),
            (Kind::Events { .. }, Value::Int(_) | Value::Choice(_)) => (
                Value::Text(String::new()),
                Some(format!("{}: valor no reconocido; no se inyecta nada.", self.label)),
            ),
        }
    }

    /// Reads a value as typed in a URL query. `None` if it cannot be read.
    pub fn parse(&self, text: &str) -> Option<Value> {
        let t = text.trim();
        match self.kind {
            Kind::Int { optional, .. } => {
                if optional && (t == "none" || t == "ninguno") {
                    return Some(Value::Unset);
                }
                let cleaned: String = t.chars().filter(|c| *c != ',' && *c != '_').collect();
                if let Ok(v) = cleaned.parse::<i64>() {
                    return Some(Value::Int(v));
                }
                // Accept "1e3" or "12.0"; round, and saturate huge values.
                let f = crate::fmt::parse_decimal(&cleaned)?;
                if f.is_nan() {
                    return None;
                }
                Some(Value::Int(f.round().clamp(i64::MIN as f64, i64::MAX as f64) as i64))
            }
            Kind::Choice { options } => options.iter().find(|(k, _)| *k == t).map(|(k, _)| Value::Choice(k)),
            Kind::Text { .. } => Some(Value::Text(t.to_string())),
            // Read leniently by `clamp`, which keeps what it can and says what it could not.
            Kind::Events { .. } => Some(Value::Text(t.to_string())),
        }
    }

    /// The value as written in a URL query.
    pub fn format(&self, value: &Value) -> String {
        match value {
            Value::Int(v) => v.to_string(),
            Value::Unset => "none".to_string(),
            Value::Choice(c) => c.to_string(),
            Value::Text(t) => percent_encode(t),
        }
    }
}

/// One fault injected at a moment of a run: an item of a [`Kind::Events`]
/// parameter, as the generic code sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Event {
    /// Its key among the parameter's options.
    pub key: &'static str,
    /// When, in ms from the run's start (the player's time).
    pub at_ms: u32,
    /// How long it lasts, in ms (0 for a fault that does not end).
    pub for_ms: u32,
}

/// What [`read_events`] made of a list.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ReadEvents {
    /// What can be used, in order of time (a bad item left out, a moment
    /// out of range brought within it, at most `max_items`).
    pub events: Vec<Event>,
    /// What had to change, in the learner's words (the page's note).
    pub problems: Vec<String>,
    /// The same, as the command line refuses it (exit status 2).
    pub errors: Vec<String>,
}

/// Reads a list of injected faults (`outage@15000+3000,spike@20000`): what
/// can be used, and what could not be used as written. Items are separated
/// by commas; a `+` read from a URL as a space counts as a `+`.
pub fn read_events(kind: Kind, text: &str) -> ReadEvents {
    let Kind::Events {
        options,
        max_items,
        max_ms,
        lasting,
    } = kind
    else {
        return ReadEvents::default();
    };
    let mut out = ReadEvents::default();
    for item in text.split(',').map(str::trim).filter(|i| !i.is_empty()) {
        let item = item.split_whitespace().collect::<Vec<_>>().join("+");
        let (key, at, for_ms) = match read_event(options, lasting, &item) {
            Ok(e) => e,
            Err(why) => {
                out.problems.push(format!("no se entiende «{item}», se deja fuera"));
                out.errors.push(format!("«{item}»: {why}"));
                continue;
            }
        };
        let at_ms = at_most(&mut out, at, max_ms, || {
            (
                format!(
                    "{} está después del último momento posible ({} ms)",
                    es_int(at),
                    es_int(max_ms)
                ),
                format!("«{item}»: the moment must be between 0 and {max_ms}"),
            )
        });
        let longest = lasting.map_or(0, |(_, most)| most as i64);
        let for_ms = at_most(&mut out, for_ms, longest, || {
            (
                format!(
                    "{} ms es más de lo que puede durar ({} ms)",
                    es_int(for_ms),
                    es_int(longest)
                ),
                format!("«{item}»: it can last at most {longest} ms"),
            )
        });
        out.events.push(Event {
            key,
            at_ms: at_ms.clamp(0, u32::MAX as i64) as u32,
            for_ms: for_ms.clamp(0, u32::MAX as i64) as u32,
        });
    }
    // In order of time (a stable sort: two at one moment keep their order).
    out.events.sort_by_key(|e| e.at_ms);
    if out.events.len() > max_items {
        out.problems.push(format!(
            "son más de {} fallas; se usan las primeras {}",
            es_int(max_items as i64),
            es_int(max_items as i64)
        ));
        out.errors
            .push(format!("at most {max_items} items (got {})", out.events.len()));
        out.events.truncate(max_items);
    }
    out
}

/// `v`, or `most` if it is more, with what `why` says of it (the learner's
/// words and the command line's) and the value used.
fn at_most(out: &mut ReadEvents, v: i64, most: i64, why: impl FnOnce() -> (String, String)) -> i64 {
    if v <= most {
        return v;
    }
    let (problem, error) = why();
    out.problems.push(format!("{problem}; se usa {}", es_int(most)));
    out.errors.push(error);
    most
}

/// One item of a list of faults, `key@ms` or `key@ms+ms`: its key, moment
/// and length (bounds not checked yet), or why it cannot be read.
fn read_event(
    options: &'static [(&'static str, &'static str)],
    lasting: Option<(u32, u32)>,
    item: &str,
) -> Result<(&'static str, i64, i64), String> {
    let number = |t: &str| -> Option<i64> {
        let t: String = t.trim().chars().filter(|c| *c != '_').collect();
        (!t.is_empty() && t.chars().all(|c| c.is_ascii_digit())).then(|| t.parse::<i64>().unwrap_or(i64::MAX))
    };
    let keys = || options.iter().map(|(k, _)| *k).collect::<Vec<_>>().join(", ");
    let (key, rest) = item
        .split_once('@')
        .ok_or_else(|| format!("expected KEY@MS (KEY one of {})", keys()))?;
    let &(key, _) = options
        .iter()
        .find(|(k, _)| *k == key)
        .ok_or_else(|| format!("expected one of {} before @", keys()))?;
    let (at, for_ms) = match rest.split_once('+') {
        Some((at, f)) => (at, Some(f)),
        None => (rest, None),
    };
    let at = number(at).ok_or("expected a whole number of ms after @")?;
    let for_ms = match (lasting, for_ms) {
        (None, None) => 0,
        (None, Some(_)) => return Err("this fault does not last a while: no +MS".into()),
        (Some((default, _)), None) => default as i64,
        (Some(_), Some(f)) => number(f)
            .filter(|f| *f > 0)
            .ok_or("expected a whole number of ms, at least 1, after +")?,
    };
    Ok((key, at, for_ms))
}

/// Injected faults as [`read_events`] reads them back (`key@ms` or `key@ms+ms`, comma-separated).
pub fn write_events(events: &[Event]) -> String {
    events
        .iter()
        .map(|e| match e.for_ms {
            0 => format!("{}@{}", e.key, e.at_ms),
            f => format!("{}@{}+{f}", e.key, e.at_ms),
        })
        .collect::<Vec<_>>()
        .join(",")
}

/// One injected fault of a scenario's kind `K`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Injection<K> {
    pub kind: K,
    /// When, in ms from the run's start (the player's time).
    pub at_ms: u32,
    /// How long it lasts, in ms (0 for a fault that does not end).
    pub for_ms: u32,
}

/// A scenario's injected faults, in order of time: a [`Kind::Events`]
/// parameter's field (the storm's and the breaker's `inject`). A fork keeps
/// its past: each one changes the run only from its moment on.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Injected<K>(pub Vec<Injection<K>>);

impl<K> Default for Injected<K> {
    fn default() -> Self {
        Injected(Vec::new())
    }
}

impl<K: ChoiceKey + PartialEq> Injected<K> {
    /// The same, with one more at its place in time (after any at the same moment).
    pub fn with(&self, added: Injection<K>) -> Self {
        let mut v = self.0.clone();
        let at = v.partition_point(|e| e.at_ms <= added.at_ms);
        v.insert(at, added);
        Injected(v)
    }

    fn events(&self) -> Vec<Event> {
        self.0
            .iter()
            .map(|i| Event {
                key: K::KEYS.iter().find(|(k, _)| *k == i.kind).map_or("", |(_, key)| key),
                at_ms: i.at_ms,
                for_ms: i.for_ms,
            })
            .collect()
    }
}

impl<K: ChoiceKey + PartialEq> Field for Injected<K> {
    fn to_value(&self) -> Value {
        Value::Text(write_events(&self.events()))
    }
    fn set_value(&mut self, v: Value) {
        let Value::Text(t) = v else { return };
        // Already valid for its spec (`read_events` wrote it): every key is one of `K`'s.
        let mut out = Vec::new();
        for item in t.split(',').map(str::trim).filter(|i| !i.is_empty()) {
            let Some((key, rest)) = item.split_once('@') else {
                continue;
            };
            let Some(&(kind, _)) = K::KEYS.iter().find(|(_, k)| *k == key) else {
                continue;
            };
            let (at, f) = rest.split_once('+').unwrap_or((rest, "0"));
            if let (Ok(at_ms), Ok(for_ms)) = (at.parse(), f.parse()) {
                out.push(Injection { kind, at_ms, for_ms });
            }
        }
        self.0 = out;
    }
}

/// A scenario's parameters as the generic code handles them: one value per
/// spec, in the order of [`Params::specs`]. The functions on values are not
/// generic, so the browser build has one copy of them, not one per scenario.
pub type Values = Vec<Value>;

/// `params` as [`Values`].
pub fn values<P: Params>(params: &P) -> Values {
    P::specs().iter().map(|s| params.get(s.key)).collect()
}

/// The parameters with the given [`Values`] (each already valid for its spec).
pub fn from_values<P: Params>(values: &[Value]) -> P {
    let mut p = P::default();
    for (spec, v) in P::specs().iter().zip(values) {
        p.set(spec.key, v.clone());
    }
    p
}

/// Clamps every parameter into its bounds; the notes say what changed.
pub fn clamp<P: Params>(params: &P) -> (P, Vec<Note>) {
    let mut out = params.clone();
    let mut notes = Vec::new();
    for spec in P::specs() {
        let (v, note) = spec.clamp(params.get(spec.key));
        out.set(spec.key, v);
        if let Some(message) = note {
            notes.push(Note { key: spec.key, message });
        }
    }
    (out, notes)
}

/// For the command line: every out-of-range value, as a clear message.
pub fn check<P: Params>(params: &P) -> Result<(), Vec<String>> {
    let errors = out_of_range(P::specs(), &values(params));
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

/// [`check`] on [`Values`]: `--key must be between min and max (got v)` for each.
pub fn out_of_range(specs: &[Spec], values: &[Value]) -> Vec<String> {
    specs
        .iter()
        .zip(values)
        .filter_map(|(spec, v)| match (spec.kind, v) {
            (Kind::Int { min, max, .. }, Value::Int(v)) if *v < min || *v > max => Some(format!(
                "--{} must be between {} and {} (got {})",
                spec.key, min, max, v
            )),
            (Kind::Text { max_chars }, Value::Text(t)) if t.chars().count() > max_chars => Some(format!(
                "--{} must be at most {} characters long (got {})",
                spec.key,
                max_chars,
                t.chars().count()
            )),
            (Kind::Events { .. }, Value::Text(t)) => {
                let read = read_events(spec.kind, t);
                (!read.errors.is_empty()).then(|| format!("--{}: {}", spec.key, read.errors.join("; ")))
            }
            _ => None,
        })
        .collect()
}

/// Reads a URL query (`a=1&b=2`, with or without the leading `?`). Missing
/// keys keep their defaults (the lesson's values); everything that could not
/// be used as given gets a note.
pub fn from_query<P: Params>(query: &str) -> (P, Vec<Note>) {
    let (values, notes) = values_from_query(P::specs(), values(&P::default()), query);
    (from_values(&values), notes)
}

/// [`from_query`] on [`Values`], starting from `defaults`.
pub fn values_from_query(specs: &'static [Spec], defaults: Values, query: &str) -> (Values, Vec<Note>) {
    let mut params = defaults;
    let mut notes = Vec::new();
    let query = query.strip_prefix('?').unwrap_or(query);
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        let (raw_key, raw_val) = pair.split_once('=').unwrap_or((pair, ""));
        let key = percent_decode(raw_key);
        let val = percent_decode(raw_val);
        let Some(i) = specs.iter().position(|s| s.key == key) else {
            continue; // other pieces of the page may use other keys
        };
        let spec = &specs[i];
        match spec.parse(&val) {
            Some(v) => {
                let (v, note) = spec.clamp(v);
                params[i] = v;
                if let Some(message) = note {
                    notes.push(Note { key: spec.key, message });
                }
            }
            None => notes.push(Note {
                key: spec.key,
                message: format!(
                    "{}: no se entiende «{}»; se usa el valor de la lección.",
                    spec.label, val
                ),
            }),
        }
    }
    (params, notes)
}

/// The query that reproduces `params` (only what differs from the defaults).
pub fn to_query<P: Params>(params: &P) -> String {
    values_to_query(P::specs(), &values(params), &values(&P::default()))
}

/// [`to_query`] on [`Values`]: what differs from `defaults`.
pub fn values_to_query(specs: &[Spec], values: &[Value], defaults: &[Value]) -> String {
    specs
        .iter()
        .zip(values.iter().zip(defaults))
        .filter(|(_, (v, d))| v != d)
        .map(|(s, (v, _))| format!("{}={}", s.key, s.format(v)))
        .collect::<Vec<_>>()
        .join("&")
}

/// A text as a query value: every byte but letters, digits and `-_.~`
/// written `%XX` (so `&`, `=`, `+`, `%` and spaces survive the trip).
pub fn percent_encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// `%41` → `A`, `+` → a space: a query value as it was meant.
pub fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len() => {
                let hex = std::str::from_utf8(&bytes[i + 1..i + 3])
                    .ok()
                    .and_then(|h| u8::from_str_radix(h, 16).ok());
                match hex {
                    Some(b) => {
                        out.push(b);
                        i += 2;
                    }
                    None => out.push(b'%'),
                }
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// An optional whole number: `None` is `none` on the command line and in
/// the URL, the control's switch off («sin tope»).
pub type Maybe = Option<u32>;

/// A field of a parameter struct, seen as a [`Value`]: what the
/// [`params!`](crate::params) macro's `get`/`set` go through.
pub trait Field {
    fn to_value(&self) -> Value;
    /// Takes a value already clamped to its spec; anything else leaves the field as it was.
    fn set_value(&mut self, v: Value);
}

fn to_u32(i: i64) -> u32 {
    i.clamp(0, u32::MAX as i64) as u32
}

impl Field for u32 {
    fn to_value(&self) -> Value {
        Value::Int(*self as i64)
    }
    fn set_value(&mut self, v: Value) {
        if let Value::Int(i) = v {
            *self = to_u32(i);
        }
    }
}

impl Field for String {
    fn to_value(&self) -> Value {
        Value::Text(self.clone())
    }
    fn set_value(&mut self, v: Value) {
        if let Value::Text(t) = v {
            *self = t;
        }
    }
}

impl Field for Option<u32> {
    fn to_value(&self) -> Value {
        self.map_or(Value::Unset, |v| Value::Int(v as i64))
    }
    fn set_value(&mut self, v: Value) {
        match v {
            Value::Int(i) => *self = Some(to_u32(i)),
            Value::Unset => *self = None,
            Value::Choice(_) | Value::Text(_) => {}
        }
    }
}

/// Declares a scenario's parameter struct, one line per parameter: its doc,
/// field, type, the lesson's value and its spec (label, unit, bounds, or
/// choices). From that line come the field, `Default`, the [`Spec`] (whose
/// key is the field in kebab-case: `window_ms` is `--window-ms` and
/// `window-ms=` in a URL) and the [`Params`] impl; the command line builds
/// its arguments from the specs (`cli`), the widget its controls.
///
/// ```ignore
/// crate::params! {
///     /// The herd's parameters.
///     pub struct HerdParams {
///         /// Clients that fail together at t = 0
///         clients: u32 = 1000 => int("Clientes", "", 1, 100_000),
///         /// Optional cap on any wait, in ms; none = no cap
///         cap_ms: Maybe = None => optional("Tope", "ms", "sin tope", "con tope", 1, 600_000),
///         /// Jitter applied to each wait
///         jitter: Jitter = Jitter::Full => choice("Jitter", JITTER_OPTIONS),
///     }
/// }
/// ```
#[macro_export]
macro_rules! params {
    (
        $(#[$meta:meta])*
        pub struct $name:ident {
            $(
                $(#[doc = $doc:literal])*
                $field:ident : $ty:ty = $default:expr => $kind:ident ( $($arg:expr),* $(,)? )
            ),* $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
        #[serde(rename_all = "kebab-case", default)]
        pub struct $name {
            $( $(#[doc = $doc])* pub $field: $ty, )*
        }

        impl Default for $name {
            fn default() -> Self {
                Self { $( $field: $default, )* }
            }
        }

        impl $crate::sim::params::Params for $name {
            fn specs() -> &'static [$crate::sim::params::Spec] {
                const SPECS: &[$crate::sim::params::Spec] = &[ $(
                    $crate::sim::params::Spec::$kind($crate::params!(@key $field), $($arg),*)
                        .with_doc($crate::params!(@doc $($doc)*)),
                )* ];
                SPECS
            }
            fn get(&self, key: &str) -> $crate::sim::params::Value {
                let _ = key; // (a struct without parameters reads none)
                $( if key == $crate::params!(@key $field) {
                    return $crate::sim::params::Field::to_value(&self.$field);
                } )*
                $crate::sim::params::Value::Unset
            }
            fn set(&mut self, key: &str, value: $crate::sim::params::Value) {
                let _ = (key, &value);
                $( if key == $crate::params!(@key $field) {
                    return $crate::sim::params::Field::set_value(&mut self.$field, value);
                } )*
            }
        }
    };
    (@key $field:ident) => {{
        const FIELD: &str = stringify!($field);
        const BYTES: [u8; FIELD.len()] = $crate::sim::params::kebab::<{ FIELD.len() }>(FIELD);
        const KEY: &str = match core::str::from_utf8(&BYTES) {
            Ok(k) => k,
            Err(_) => panic!("a field's name is ASCII"),
        };
        KEY
    }};
    (@doc) => { "" };
    // Doc lines joined as one paragraph (each begins with its space).
    (@doc $first:literal $($rest:literal)*) => { concat!($first $(, $rest)*).trim_ascii() };
}

/// A choice field: an enum with a fixed set of keys.
pub trait ChoiceKey: Sized + Copy + 'static {
    const KEYS: &'static [(Self, &'static str)];
}

/// A choice's [`ChoiceKey::KEYS`] from its one table `(value, key, Spanish label)`.
pub const fn choice_keys<T: Copy, const N: usize>(
    table: &[(T, &'static str, &'static str); N],
) -> [(T, &'static str); N] {
    let mut out = [(table[0].0, ""); N];
    let mut i = 0;
    while i < N {
        out[i] = (table[i].0, table[i].1);
        i += 1;
    }
    out
}

/// A choice's options as its [`Spec`] lists them (`(key, Spanish label)`), from the same table.
pub const fn choice_options<T: Copy, const N: usize>(
    table: &[(T, &'static str, &'static str); N],
) -> [(&'static str, &'static str); N] {
    let mut out = [("", ""); N];
    let mut i = 0;
    while i < N {
        out[i] = (table[i].1, table[i].2);
        i += 1;
    }
    out
}

/// A switch, written `on`/`off` on the command line and in the URL: the
/// chain's deadline and cancel, the storm's and degradation's breaker, the
/// layers' one layer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Toggle {
    #[default]
    On,
    Off,
}

impl Toggle {
    pub fn is_on(self) -> bool {
        self == Toggle::On
    }
}

impl ChoiceKey for Toggle {
    const KEYS: &'static [(Self, &'static str)] = &[(Toggle::On, "on"), (Toggle::Off, "off")];
}

/// A [`Toggle`]'s choices as a control shows them.
pub const ON_OFF: &[(&str, &str)] = &[("on", "sí"), ("off", "no")];

impl<T: ChoiceKey + PartialEq> Field for T {
    fn to_value(&self) -> Value {
        Value::Choice(T::KEYS.iter().find(|(v, _)| v == self).map_or("", |(_, k)| *k))
    }
    fn set_value(&mut self, v: Value) {
        if let Value::Choice(c) = v {
            if let Some((x, _)) = T::KEYS.iter().find(|(_, k)| *k == c) {
                *self = *x;
            }
        }
    }
}

impl Spec {
    /// A spec of `kind` with no unit, nothing said when unset, no doc.
    const fn of(key: &'static str, label: &'static str, kind: Kind) -> Spec {
        Spec {
            key,
            label,
            unit: "",
            unset: "",
            toggle: "",
            kind,
            doc: "",
        }
    }

    /// A whole number in `min..=max`.
    pub const fn int(key: &'static str, label: &'static str, unit: &'static str, min: i64, max: i64) -> Spec {
        let kind = Kind::Int {
            min,
            max,
            optional: false,
        };
        Spec {
            unit,
            ..Spec::of(key, label, kind)
        }
    }

    /// A whole number in `min..=max`, or unset (`unset` says what that means,
    /// `toggle` labels the switch that sets it).
    pub const fn optional(
        key: &'static str,
        label: &'static str,
        unit: &'static str,
        unset: &'static str,
        toggle: &'static str,
        min: i64,
        max: i64,
    ) -> Spec {
        let kind = Kind::Int {
            min,
            max,
            optional: true,
        };
        Spec {
            unit,
            unset,
            toggle,
            ..Spec::of(key, label, kind)
        }
    }

    /// One of `options` (`(key, Spanish label)`); the first is the fallback.
    pub const fn choice(
        key: &'static str,
        label: &'static str,
        options: &'static [(&'static str, &'static str)],
    ) -> Spec {
        Spec::of(key, label, Kind::Choice { options })
    }

    /// Text as typed, at most `max_chars` characters; empty when not given.
    pub const fn text(key: &'static str, label: &'static str, max_chars: usize) -> Spec {
        Spec::of(key, label, Kind::Text { max_chars })
    }

    /// Faults injected at moments of a run (see [`Kind::Events`]): keys and
    /// labels of `options`, at most `max_items`, each at most `max_ms` from
    /// the start; `lasting`: how long one lasts when not given, and at most.
    pub const fn events(
        key: &'static str,
        label: &'static str,
        options: &'static [(&'static str, &'static str)],
        max_items: usize,
        max_ms: i64,
        lasting: Option<(u32, u32)>,
    ) -> Spec {
        Spec {
            unit: "ms",
            ..Spec::of(
                key,
                label,
                Kind::Events {
                    options,
                    max_items,
                    max_ms,
                    lasting,
                },
            )
        }
    }

    /// The same spec with its `--help` text. (Natively only: the browser never
    /// shows it, and leaving it out of the wasm saves about 3 KB gzipped.)
    pub const fn with_doc(self, doc: &'static str) -> Spec {
        if cfg!(target_arch = "wasm32") {
            self
        } else {
            Spec { doc, ..self }
        }
    }
}

/// `window_ms` → `window-ms`, at compile time (the key of a field, see [`params!`](crate::params)).
pub const fn kebab<const N: usize>(field: &str) -> [u8; N] {
    let b = field.as_bytes();
    let mut out = [0u8; N];
    let mut i = 0;
    while i < N {
        out[i] = if b[i] == b'_' { b'-' } else { b[i] };
        i += 1;
    }
    out
}

/// The stops of a slider for a whole number in `min..=max`, one per arrow
/// key: every value, or for a wide range (more than 200× from end to end) a
/// logarithmic ladder of round values (two significant digits: 1, 2, … 99,
/// 100, 110, … 990, 1,000, 1,100, …) with both ends. `None` for a range no
/// slider can cover (a seed).
pub fn slider_stops(min: i64, max: i64) -> Option<SliderStops> {
    if max < min || (max as f64 - min as f64) > 10_000_000.0 {
        return None;
    }
    if (max as f64) / (min.max(1) as f64) <= 200.0 {
        return Some(SliderStops::Every { min, max });
    }
    let mut stops = vec![min];
    let mut v = min;
    while v < max {
        // The next value with two significant digits above v.
        let mut mag = 1;
        while v / mag >= 100 {
            mag *= 10;
        }
        v = if v < 1 { 1 } else { (v / mag + 1) * mag };
        stops.push(v.min(max));
    }
    stops.dedup();
    Some(SliderStops::Ladder(stops))
}

/// Where a slider can stop (see [`slider_stops`]).
#[derive(Clone, Debug, PartialEq)]
pub enum SliderStops {
    /// Every whole number from `min` to `max`: the position is the value.
    Every { min: i64, max: i64 },
    /// These values, in order: the position is the index.
    Ladder(Vec<i64>),
}

impl SliderStops {
    /// The slider's last position (its first is 0, or `min` for `Every`).
    pub fn range(&self) -> (i64, i64) {
        match self {
            SliderStops::Every { min, max } => (*min, *max),
            SliderStops::Ladder(s) => (0, s.len() as i64 - 1),
        }
    }

    /// The position showing `v`: the last stop at or below it.
    pub fn position(&self, v: i64) -> i64 {
        match self {
            SliderStops::Every { min, max } => v.clamp(*min, *max),
            SliderStops::Ladder(s) => s.partition_point(|&x| x <= v).saturating_sub(1) as i64,
        }
    }

    /// The value at position `p`.
    pub fn value(&self, p: i64) -> i64 {
        match self {
            SliderStops::Every { min, max } => p.clamp(*min, *max),
            SliderStops::Ladder(s) => s[p.clamp(0, s.len() as i64 - 1) as usize],
        }
    }
}

#[cfg(test)]
mod slider_tests {
    use super::*;

    #[test]
    fn one_arrow_key_reaches_the_next_round_value() {
        // The herd's «Clientes» (1..100,000) and «Base del backoff».
        let s = slider_stops(1, 100_000).unwrap();
        let p = s.position(1_000);
        assert_eq!(s.value(p), 1_000);
        assert_eq!(s.value(p + 1), 1_100);
        assert_eq!(s.value(p - 1), 990);
        assert_eq!(s.value(s.position(1_234) + 1), 1_300);
        assert_eq!(s.value(0), 1);
        assert_eq!(s.value(s.range().1), 100_000);
        let s = slider_stops(0, 60_000).unwrap();
        assert_eq!(s.value(0), 0);
        assert_eq!(s.value(1), 1);
        assert_eq!(s.value(s.position(100) + 1), 110);
    }

    #[test]
    fn every_parameter_s_slider_moves_on_every_press_and_keeps_its_value() {
        use crate::sim::*;
        let all: [&[Spec]; 14] = [
            degradation::DegradationParams::specs(),
            chain::ChainParams::specs(),
            hedging::HedgingParams::specs(),
            failmode::FailModeParams::specs(),
            inflight::InflightParams::specs(),
            herd::HerdParams::specs(),
            clocks::ClocksParams::specs(),
            breaker::BreakerParams::specs(),
            idempotency::StoreParams::specs(),
            storm::StormParams::specs(),
            shedding::SheddingParams::specs(),
            retries::BackoffParams::specs(),
            retries::LayersParams::specs(),
            retries::BudgetParams::specs(),
        ];
        for specs in all {
            for spec in specs {
                let Kind::Int { min, max, .. } = spec.kind else {
                    continue;
                };
                let Some(s) = slider_stops(min, max) else { continue };
                let (first, last) = s.range();
                let mut prev = None;
                for p in first..=last {
                    let v = s.value(p);
                    assert!((min..=max).contains(&v), "{}: {v}", spec.key);
                    // Strictly increasing: each press reaches a new value,
                    // and the slider shows the value it was set to.
                    assert!(prev.is_none_or(|q| v > q), "{}: {v} after {prev:?}", spec.key);
                    assert_eq!(s.position(v), p, "{}: {v}", spec.key);
                    prev = Some(v);
                }
                assert_eq!((s.value(first), s.value(last)), (min, max), "{}", spec.key);
                // Any value, typed, shows at a stop no higher than it.
                for v in [min, max, (min + max) / 2, min.saturating_add(7).min(max)] {
                    assert!(s.value(s.position(v)) <= v);
                }
            }
        }
    }
}
